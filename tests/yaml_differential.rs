//! Differential test: kafkalint's YAML reader against go-yaml v3, the YAML library that docker
//! compose's loader and the Go programs reading Kubernetes and Helm files build on.
//!
//! `oracle/yaml` is a small Go program over gopkg.in/yaml.v3 v3.0.1: it reads each file and
//! prints whether go-yaml accepts it (decoded into Go values too, which refuses a repeated key
//! or a merge of no mapping) and every document as a tree of scalars (value and resolved tag),
//! sequences and mappings, aliases followed and merge keys merged. This test reads the same
//! files with `kafkalint::sources::yaml::parse`, each scalar with the tag kafkalint resolves
//! (`Scalar::resolved_tag`, which mirrors go-yaml's `resolve.go`), and asserts for every file:
//! the same accept or refuse, and the same documents.
//!
//! The files: every YAML file under `fixtures/` and `tests/layouts/`, and generated documents
//! (`DOCUMENTS`, or `KAFKALINT_YAML_DIFF_DOCS`; `KAFKALINT_YAML_DIFF_SEED` picks another seed)
//! in the shapes people commit: block and flow collections (flow ones across lines), plain,
//! quoted and block scalars across lines and indents (a quoted `sh -c` script in a flow
//! sequence), comments, anchors, aliases and merge keys, tags, document separators, tabs and
//! CRLF line ends. `KAFKALINT_YAML_DIFF_DIRS` (folders, separated as `PATH` is) adds every YAML
//! file under them, to measure a corpus; `KAFKALINT_YAML_DIFF_SHOW` how many disagreements a
//! failure shows (25); `KAFKALINT_YAML_DIFF_KEEP=1` keeps the generated documents.
//!
//! Where kafkalint differs on purpose it is excluded, and only there (docs/src/robustness.md):
//! a file nested deeper than `yaml::MAX_DEPTH` levels or using more than `yaml::MAX_ALIASES`
//! aliases is refused by kafkalint; a mapping whose key is a collection (a Helm template's
//! `{{ .Values.name }}: x` before rendering) is read by kafkalint, while go-yaml cannot decode
//! it into Go maps.
//!
//! Needs Go (the oracle is built with `go build`; the Go module proxy serves go-yaml).

#[path = "support/rng.rs"]
mod rng;
mod support;

use rng::Rng;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use kafkalint::sources::yaml::{self, Node};
use serde_json::{Value, json};

const DOCUMENTS: usize = 3000;

#[test]
fn kafkalint_reads_yaml_as_go_yaml_does() {
    if !support::external_tools("tests/yaml_differential.rs") {
        return;
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["fixtures", "tests/layouts"] {
        yaml_files(&manifest.join(dir), &mut files);
    }
    let committed = files.len();
    if let Some(dirs) = std::env::var_os("KAFKALINT_YAML_DIFF_DIRS") {
        for dir in std::env::split_paths(&dirs) {
            yaml_files(&dir, &mut files);
        }
    }
    let extra = files.len() - committed;

    let generated_root = tempfile::tempdir().unwrap();
    let kept = std::env::var_os("KAFKALINT_YAML_DIFF_KEEP").is_some();
    let count = std::env::var("KAFKALINT_YAML_DIFF_DOCS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DOCUMENTS);
    let seed = std::env::var("KAFKALINT_YAML_DIFF_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x005e_ed0f_7a41);
    let mut random = Rng(seed | 1);
    for n in 0..count {
        let path = generated_root.path().join(format!("g{n}.yaml"));
        std::fs::write(&path, generate_document(&mut random)).unwrap();
        files.push(path);
    }

    let oracle = build_oracle(manifest);
    let answers = run_oracle(&oracle, &files);

    let mut tally = Tally::default();
    let mut problems = Vec::new();
    for (path, answer) in files.iter().zip(&answers) {
        let Ok(text) = std::fs::read_to_string(path) else {
            // Not UTF-8: kafkalint's readers refuse it before YAML is read.
            tally.skipped += 1;
            continue;
        };
        if let Some(problem) = compare(&text, answer, &mut tally) {
            let shown = if path.starts_with(generated_root.path()) {
                format!("generated document:\n{text}")
            } else {
                path.display().to_string()
            };
            problems.push(format!("{shown}\n  {problem}"));
        }
    }
    println!(
        "{} files ({committed} committed, {extra} from KAFKALINT_YAML_DIFF_DIRS, {count} generated): \
         {} accepted by both with the same documents, {} refused by both, {} skipped (not UTF-8), \
         {} excluded (where kafkalint differs on purpose), {} disagreements",
        files.len(),
        tally.same,
        tally.refused_by_both,
        tally.skipped,
        tally.bounds,
        problems.len()
    );
    let show = std::env::var("KAFKALINT_YAML_DIFF_SHOW")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(25);
    if kept {
        println!(
            "generated documents kept in {}",
            generated_root.keep().display()
        );
    }
    let shown: Vec<&String> = problems.iter().take(show).collect();
    assert!(
        problems.is_empty(),
        "{} of {} files read otherwise than go-yaml v3 reads them (first {show}):\n{}",
        problems.len(),
        files.len(),
        shown
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[derive(Default)]
struct Tally {
    same: usize,
    refused_by_both: usize,
    skipped: usize,
    bounds: usize,
}

/// What differs between kafkalint's reading of `text` and go-yaml's `answer`, if anything.
fn compare(text: &str, answer: &Value, tally: &mut Tally) -> Option<String> {
    let go_accepts = answer["ok"].as_bool().unwrap_or(false);
    let go_error = answer["error"].as_str().unwrap_or_default();
    match (yaml::parse(text), go_accepts) {
        (Err(error), true) => {
            // kafkalint's own bounds (docs/src/robustness.md), and only those.
            let message = error.message.as_str();
            if message.contains("nested deeper than") || message.contains("aliases") {
                tally.bounds += 1;
                return None;
            }
            Some(format!("kafkalint refuses it ({error}); go-yaml reads it"))
        }
        // A collection as a mapping key (`{{ .Values.name }}: x`, the text of a Helm template
        // before it is rendered): go-yaml reads it but cannot decode it into a Go map; kafkalint
        // reads it as written and looks no such key up (docs/src/robustness.md).
        (Ok(_), false)
            if go_error.contains("tree too large to print")
                || go_error.contains("invalid map key") =>
        {
            tally.bounds += 1;
            None
        }
        (Ok(_), false) => Some(format!(
            "kafkalint reads it; go-yaml refuses it ({})",
            go_error.replace('\n', " ")
        )),
        (Err(_), false) => {
            tally.refused_by_both += 1;
            None
        }
        (Ok(documents), true) => {
            let ours: Vec<Value> = documents.iter().map(|doc| sorted(canonical(doc))).collect();
            let theirs: Vec<Value> = answer["docs"]
                .as_array()
                .map(|docs| docs.iter().cloned().map(sorted).collect())
                .unwrap_or_default();
            if ours == theirs {
                tally.same += 1;
                None
            } else {
                Some(first_difference(&Value::Array(ours), &Value::Array(theirs)))
            }
        }
    }
}

/// The first place two trees differ, with both sides.
fn first_difference(ours: &Value, theirs: &Value) -> String {
    fn walk(ours: &Value, theirs: &Value, at: &mut String) -> Option<String> {
        match (ours, theirs) {
            (Value::Array(a), Value::Array(b)) => {
                for (n, (x, y)) in a.iter().zip(b).enumerate() {
                    let len = at.len();
                    at.push_str(&format!("[{n}]"));
                    if let Some(found) = walk(x, y, at) {
                        return Some(found);
                    }
                    at.truncate(len);
                }
                (a.len() != b.len())
                    .then(|| format!("at {at}: kafkalint {} items, go-yaml {}", a.len(), b.len()))
            }
            (Value::Object(a), Value::Object(b)) if a.keys().eq(b.keys()) => {
                for (key, x) in a {
                    let len = at.len();
                    at.push_str(&format!(".{key}"));
                    if let Some(found) = walk(x, &b[key], at) {
                        return Some(found);
                    }
                    at.truncate(len);
                }
                None
            }
            _ if ours == theirs => None,
            _ => Some(format!("at {at}: kafkalint {ours}, go-yaml {theirs}")),
        }
    }
    walk(ours, theirs, &mut String::from("documents")).unwrap_or_default()
}

/// kafkalint's tree in the oracle's form: `{"t": tag, "v": value}`, `{"seq": [...]}`,
/// `{"map": [[key, value], ...]}`.
fn canonical(node: &Node) -> Value {
    match node {
        Node::Scalar(scalar) => json!({"t": scalar.resolved_tag(), "v": scalar.value}),
        Node::Seq(items) => json!({"seq": items.iter().map(canonical).collect::<Vec<_>>()}),
        Node::Map(entries) => json!({"map": entries
            .iter()
            .map(|(key, value)| json!([canonical(key), canonical(value)]))
            .collect::<Vec<_>>()}),
    }
}

/// Mapping entries in one order on both sides: kafkalint puts merged entries first, go-yaml's
/// decoder has no order; what both must agree on is which entries there are.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(mut object) => {
            if let Some(Value::Array(entries)) = object.remove("map") {
                let mut entries: Vec<Value> = entries.into_iter().map(sorted).collect();
                entries.sort_by_key(|entry| entry[0].to_string());
                object.insert("map".into(), Value::Array(entries));
            }
            if let Some(Value::Array(items)) = object.remove("seq") {
                object.insert(
                    "seq".into(),
                    Value::Array(items.into_iter().map(sorted).collect()),
                );
            }
            Value::Object(object)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| entry.into_path())
        .filter(|path| yaml::is_yaml_name(&path.file_name().unwrap().to_string_lossy()))
        .collect();
    found.sort();
    out.extend(found);
}

fn build_oracle(manifest: &Path) -> PathBuf {
    let binary = manifest.join("target/oracle/yaml-oracle");
    let status = Command::new("go")
        .args(["build", "-o"])
        .arg(&binary)
        .arg(".")
        .current_dir(manifest.join("oracle/yaml"))
        .status()
        .expect("go is needed to build oracle/yaml");
    assert!(status.success(), "go build of oracle/yaml failed");
    binary
}

fn run_oracle(binary: &Path, files: &[PathBuf]) -> Vec<Value> {
    use std::io::Write;
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let list: String = files
        .iter()
        .map(|path| format!("{}\n", path.display()))
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(list.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    support::json_lines(output, files.len())
}

/// Words a plain scalar may be, in block and flow context alike: names, numbers of each base,
/// booleans and nulls of each spelling, YAML 1.1 words YAML 1.2 reads as strings, dates,
/// listener and host values.
const WORDS: &[&str] = &[
    "kafka",
    "broker",
    "1",
    "3",
    "-1",
    "+2",
    "0",
    "007",
    "0777",
    "08",
    "0x1F",
    "0o17",
    "0b101",
    "1_000",
    "1.5",
    "1e3",
    ".5",
    "-.inf",
    ".NaN",
    "6.02e23",
    "true",
    "False",
    "yes",
    "no",
    "on",
    "off",
    "null",
    "~",
    "Null",
    "2024-01-02",
    "2024-1-2T10:20:30Z",
    "PLAINTEXT://kafka-1:9092",
    "kafka-1:9092",
    "/var/lib/kafka/data",
    "a b c",
    "x=y",
    "SASL_SSL",
    "@at",
    "`tick",
    "é-ü",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "1e400",
];

const KEYS: &[&str] = &[
    "image",
    "command",
    "args",
    "environment",
    "KAFKA_NODE_ID",
    "replicas",
    "config",
    "name",
    "value",
    "listeners",
    "x",
    "1",
    "true",
    "a b",
    "log.dirs",
    "spec",
];

/// A scalar to write in flow or block context at `indent` (the indentation of the lines its
/// collection's entries start at).
fn scalar(random: &mut Rng, indent: usize, in_flow: bool, strict: bool) -> String {
    match random.below(12) {
        0..=4 => random.pick(WORDS).to_string(),
        5 => format!("'{}''s'", random.pick(WORDS).replace('\'', "''")),
        6 => {
            let escapes: &[&str] = if strict {
                &["\\n", "\\t", "\\\"", "\\\\", "\\x41", "\\u00e9", "\\ ", ""]
            } else {
                &["\\n", "\\/", "\\q", ""]
            };
            format!(
                "\"{}{}{}\"",
                random.pick(WORDS),
                random.pick(escapes),
                random.pick(WORDS)
            )
        }
        // A quoted scalar continued on further lines, each at an indent of its own: less,
        // as much as or more than its collection's (a `sh -c` script in `command: ["...`).
        7 | 8 => {
            let quote = if random.chance(70) { '"' } else { '\'' };
            let mut text = format!("{quote}{}", random.pick(&["", "set -e &&", "echo"]));
            for _ in 0..1 + random.below(3) {
                let continuation = match random.below(4) {
                    0 => 0,
                    1 => indent.saturating_sub(1),
                    2 => indent,
                    _ => indent + 2 + random.below(4),
                };
                if random.chance(15) {
                    text.push('\n');
                }
                text.push('\n');
                text.push_str(&" ".repeat(continuation));
                text.push_str(random.pick::<&str>(&[
                    "exec run",
                    "KAFKA_NODE_ID=1 &&",
                    "x",
                    "a: b",
                    "- c",
                ]));
                if random.chance(20) {
                    text.push_str(if quote == '"' { " \\" } else { " " });
                }
            }
            if random.chance(50) {
                text.push('\n');
                text.push_str(&" ".repeat(random.below(indent + 3)));
            }
            text.push(quote);
            text
        }
        // A plain scalar over two lines (block context only: a flow one is the same rule).
        9 if !in_flow => format!(
            "{}\n{}{}",
            random.pick(&["kafka", "one two", "3"]),
            " ".repeat(indent + 1 + random.below(3)),
            random.pick(&["more", "words here", "4"])
        ),
        _ => {
            let tag = *random.pick(&["!!str ", "!!int ", "!custom ", "! ", "!!float ", ""]);
            let value = if tag == "!!int " || tag == "!!float " {
                if strict {
                    random.pick(&["1", "0x10", "-3"])
                } else {
                    random.pick(&["1", "0x10", "2.5", "abc"])
                }
            } else {
                random.pick(WORDS)
            };
            format!("{tag}{value}")
        }
    }
}

fn block_scalar(random: &mut Rng, indent: usize, strict: bool) -> String {
    let header = format!(
        "{}{}{}",
        random.pick(&["|", ">"]),
        random.pick(&["", "-", "+"]),
        if random.chance(20) { "2" } else { "" }
    );
    let step = 2;
    let mut text = header;
    for line in 0..1 + random.below(4) {
        text.push('\n');
        if random.chance(15) {
            continue;
        }
        // Lines after the first may be indented further (kept as text); the first sets the
        // indentation.
        let extra = if line > 0 && random.chance(20) { 2 } else { 0 };
        text.push_str(&" ".repeat(indent + step + extra));
        // A tab after the indentation is text, but go-yaml refuses one on the line that sets
        // the indentation.
        let lines: &[&str] = if strict && line == 0 {
            &[
                "listeners=PLAINTEXT://:9092",
                "# not a comment",
                "exec /etc/kafka/docker/run",
            ]
        } else {
            &[
                "listeners=PLAINTEXT://:9092",
                "# not a comment",
                "exec /etc/kafka/docker/run",
                "\ttab inside",
            ]
        };
        text.push_str(random.pick::<&str>(lines));
    }
    text
}

fn flow(random: &mut Rng, indent: usize, depth: usize, strict: bool) -> String {
    let mapping = random.chance(35);
    let n = random.below(4);
    let across_lines = random.chance(40);
    let mut text = String::from(if mapping { "{" } else { "[" });
    for i in 0..n {
        if i > 0 {
            text.push(',');
        }
        if across_lines {
            text.push('\n');
            let continuation = match random.below(3) {
                0 => 0,
                1 => indent,
                _ => indent + 2,
            };
            text.push_str(&" ".repeat(continuation));
        } else if i > 0 {
            text.push(' ');
        }
        let item = if depth < 2 && random.chance(15) {
            flow(random, indent + 2, depth + 1, strict)
        } else {
            scalar(random, indent, true, strict)
        };
        if mapping {
            text.push_str(&format!("{}: {item}", random.pick(KEYS)));
        } else {
            text.push_str(&item);
        }
    }
    if across_lines && random.chance(50) {
        text.push('\n');
        text.push_str(&" ".repeat(indent));
    }
    text.push(if mapping { '}' } else { ']' });
    text
}

struct Writer {
    text: String,
    /// Anchors written so far, and whether each names a mapping (what a merge key takes).
    anchors: Vec<(String, bool)>,
    next_anchor: usize,
    step: usize,
    /// Most documents are written as people write YAML; the others (`strict` false) also hold
    /// what go-yaml refuses: tabs as indentation, escapes it does not know, values their tag
    /// does not fit, aliases inside their anchor's node.
    strict: bool,
}

impl Writer {
    fn comment(&mut self, random: &mut Rng, indent: usize) {
        if random.chance(10) {
            let indent = if random.chance(50) {
                indent
            } else {
                random.below(6)
            };
            self.text
                .push_str(&format!("{}# a comment: [x, {{\n", " ".repeat(indent)));
        }
    }

    /// What follows a key's `:` or a sequence's `-`: a value on the same line, or a block
    /// collection on the next lines at `indent`.
    fn value(&mut self, random: &mut Rng, indent: usize, depth: usize) -> String {
        // An anchor is named for later nodes only once its node is written: an alias inside its
        // own anchor's node (which go-yaml refuses) comes from the loose documents only.
        let anchor = random.chance(10).then(|| {
            self.next_anchor += 1;
            format!("a{}", self.next_anchor)
        });
        if let Some(name) = &anchor
            && !self.strict
            && random.chance(10)
        {
            self.anchors.push((name.clone(), true));
        }
        let properties = anchor
            .as_ref()
            .map(|name| format!("&{name} "))
            .unwrap_or_default();
        let (text, is_map) = match random.below(10) {
            0..=2 if depth < 4 => {
                let body = self.mapping(random, indent, depth + 1);
                (
                    format!("{}\n{}", properties.trim_end(), body.trim_end_matches('\n')),
                    true,
                )
            }
            3 if depth < 4 => {
                // A sequence under a key: indented, or at the key's own indent.
                let at = if random.chance(50) {
                    indent
                } else {
                    indent.saturating_sub(self.step)
                };
                let body = self.sequence(random, at, depth + 1);
                (
                    format!("{}\n{}", properties.trim_end(), body.trim_end_matches('\n')),
                    false,
                )
            }
            4 => (
                format!("{properties}{}", flow(random, indent, 0, self.strict)),
                false,
            ),
            5 => (
                format!(
                    "{properties}{}",
                    block_scalar(random, indent.saturating_sub(self.step), self.strict)
                ),
                false,
            ),
            6 if anchor.is_none() && !self.anchors.is_empty() => {
                let (name, is_map) = self.anchors[random.below(self.anchors.len())].clone();
                (format!("*{name}"), is_map)
            }
            _ => {
                let spacing = if !self.strict && random.chance(5) {
                    "\t"
                } else {
                    ""
                };
                (
                    format!(
                        "{spacing}{properties}{}",
                        scalar(random, indent.saturating_sub(self.step), false, self.strict)
                    ),
                    false,
                )
            }
        };
        if let Some(name) = anchor
            && !self.anchors.iter().any(|(known, _)| *known == name)
        {
            self.anchors.push((name, is_map));
        }
        text
    }

    fn mapping(&mut self, random: &mut Rng, indent: usize, depth: usize) -> String {
        let outer = std::mem::take(&mut self.text);
        let mut keys: Vec<&str> = Vec::new();
        for _ in 0..1 + random.below(4) {
            self.comment(random, indent);
            let merges: Vec<String> = self
                .anchors
                .iter()
                .filter(|(_, is_map)| *is_map)
                .map(|(name, _)| format!("*{name}"))
                .collect();
            let (key, value) = if !merges.is_empty() && random.chance(15) && !keys.contains(&"<<") {
                let value = if merges.len() > 1 && random.chance(40) {
                    format!("[{}, {}]", merges[0], merges[merges.len() - 1])
                } else {
                    merges[random.below(merges.len())].clone()
                };
                ("<<", value)
            } else {
                let mut key = *random.pick(KEYS);
                // Mostly unique keys; now and then a repeat, which both must refuse.
                if keys.contains(&key) && !random.chance(3) {
                    key = "unique";
                    if keys.contains(&key) {
                        continue;
                    }
                }
                (key, self.value(random, indent + self.step, depth))
            };
            keys.push(key);
            let separator = if value.starts_with('\n') || value.starts_with(" &") {
                ":"
            } else {
                ": "
            };
            let value = value.trim_start_matches(' ');
            let separator = if value.starts_with('&') && value.contains('\n') {
                ": "
            } else {
                separator
            };
            self.text
                .push_str(&format!("{}{key}{separator}{value}", " ".repeat(indent)));
            if random.chance(10) {
                self.text.push_str(" # trailing");
            }
            self.text.push('\n');
        }
        std::mem::replace(&mut self.text, outer)
    }

    fn sequence(&mut self, random: &mut Rng, indent: usize, depth: usize) -> String {
        let outer = std::mem::take(&mut self.text);
        for _ in 0..1 + random.below(3) {
            self.comment(random, indent);
            let value = if depth < 4 && random.chance(30) {
                // A mapping in a sequence item, its first key on the `-` line.
                let body = self.mapping(random, indent + 2, depth + 1);
                body.trim_start().trim_end_matches('\n').to_string()
            } else {
                self.value(random, indent + 2, depth)
                    .trim_start_matches(' ')
                    .to_string()
            };
            let separator = if value.starts_with('\n') { "-" } else { "- " };
            self.text
                .push_str(&format!("{}{separator}{value}\n", " ".repeat(indent)));
        }
        std::mem::replace(&mut self.text, outer)
    }
}

/// One YAML file of one to three documents.
fn generate_document(random: &mut Rng) -> String {
    let mut text = String::new();
    let mut loose = false;
    let documents = 1 + random.below(3);
    for n in 0..documents {
        let mut writer = Writer {
            text: String::new(),
            anchors: Vec::new(),
            next_anchor: 0,
            step: if random.chance(70) { 2 } else { 4 },
            strict: random.chance(75),
        };
        if n > 0 || random.chance(20) {
            text.push_str(random.pick::<&str>(&["---\n", "--- # doc\n", "---\n\n"]));
        }
        let body = match random.below(10) {
            0 => writer.sequence(random, 0, 0),
            1 => format!("{}\n", flow(random, 0, 0, writer.strict)),
            _ => writer.mapping(random, 0, 0),
        };
        text.push_str(&body);
        loose |= !writer.strict;
        if random.chance(10) {
            text.push_str("...\n");
        }
    }
    if loose && random.chance(30) {
        // A tab where indentation is due: refused by both, or read alike.
        if let Some(at) = text.find("\n  ") {
            text.replace_range(at + 1..at + 2, "\t");
        }
    }
    if random.chance(15) {
        text = text.replace('\n', "\r\n");
    }
    text
}
