//! Nothing a file, a path or a name holds reaches a terminal or a CI log as anything but text:
//! a generator of hostile names and values (line feeds, carriage returns, CRLF, U+2028, U+2029,
//! NEL, vertical tab and form feed, terminal escape sequences, bidirectional overrides, blanks
//! before them, then a GitHub Actions workflow command: `::error::`, `::stop-commands::`,
//! `##[error]`, a percent-encoded line break) puts them in file names (found by a folder walk
//! and named), folder names, compose service names, Strimzi resource names, kafkalint.toml
//! cluster names, rule names and paths, values quoted in messages and help, node ids and a
//! coordinator's group id. Every output path is run over them: each `--format`,
//! `--statistics` (text and JSON), `--show-settings`, `--diff`, `--fix`, `--output-file`,
//! `--stdin-filename`, the notes and errors on stderr, `coordinator`, `kafkalint live` over a
//! saved snapshot whose bootstrap and broker hosts are hostile, and the language server over
//! stdio. No printed line
//! may start, after its leading blanks, with `::` (GitHub's runner reads it as a workflow
//! command, actions/runner `src/Runner.Common/ActionCommand.cs` `TryParseV2`) unless it is one
//! of kafkalint's own `--format github` annotations; none may hold `##[` (the legacy form,
//! `TryParse`, read anywhere in a line); and no control, bidirectional or line-separator
//! character may be printed raw (tabs and kafkalint's own line feeds aside).
//!
//! `KAFKALINT_INJECTION_SEED` chooses another seed (the default one is fixed, so a failure
//! repeats); `KAFKALINT_INJECTION_ROUNDS` how many trees are generated.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const KAFKALINT: &str = env!("CARGO_BIN_EXE_kafkalint");
const FORMATS: [&str; 7] = [
    "full", "concise", "json", "github", "sarif", "gitlab", "junit",
];
const DEFAULT_SEED: u64 = 0x1a7e_c7ed_0000_0033;
const DEFAULT_ROUNDS: usize = 4;
/// What every generated command carries, to tell that the hostile text reached the output.
const MARK: &str = "forged";

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// What may end a line somewhere (a terminal, a log viewer, an editor), move the cursor, or show
/// text in another order than it is read; the empty one and a space leave the command where a
/// wrapped help line may start it.
const BREAKS: &[&str] = &[
    "\n",
    "\r",
    "\r\n",
    "\u{2028}",
    "\u{2029}",
    "\u{85}",
    "\u{b}",
    "\u{c}",
    "\u{1b}[2K\r",
    "\u{1b}]0;title\u{7}",
    "\u{9b}2K",
    "\u{202e}",
    "\u{2066}",
    "\u{200f}",
    "\u{61c}",
    "%0A",
    "",
    " ",
];

/// What a log reader may drop before it looks for `::`.
const BLANKS: &[&str] = &[
    "", " ", "\t", "   ", "\u{a0}", "\u{3000}", "\u{2003}", "\u{feff}", "\u{200b}", " \t ",
];

const COMMANDS: &[&str] = &[
    "::error::forged",
    "::stop-commands::forged",
    "::warning file=a.properties,line=1::forged",
    "::add-mask::forged",
    "::notice title=x::forged",
    "##[error]forged",
    "##[stop-commands]forged",
];

/// A hostile text: something before it, a break, blanks, a workflow command; now and then
/// after a run of words, so that a wrapped help line may break right before it. `round`
/// chooses the break, so that every break is tried over the rounds.
fn hostile(rng: &mut Rng, round: usize, slot: usize) -> String {
    let lead = if rng.below(3) == 0 {
        "word ".repeat(rng.below(24))
    } else {
        String::new()
    };
    format!(
        "{lead}x{}{}{}{}",
        BREAKS[(round * 7 + slot) % BREAKS.len()],
        rng.pick(BLANKS),
        rng.pick(COMMANDS),
        rng.pick(&["", "\n", "\u{2028}", " tail"])
    )
}

/// The same, fit for a file or folder name (no `/`).
fn hostile_name(rng: &mut Rng, round: usize, slot: usize) -> String {
    hostile(rng, round, slot).replace('/', "_")
}

/// A `.properties` value as Kafka reads it back to `text`: every character that is not
/// printable ASCII as a `\uXXXX` escape (UTF-16), `\` doubled.
fn properties_escaped(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out
}

/// A `.properties` key as Kafka reads it back to `text`: also its separators escaped.
fn properties_key(text: &str) -> String {
    properties_escaped(text)
        .chars()
        .flat_map(|c| match c {
            ' ' | ':' | '=' | '#' | '!' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// A YAML or TOML double-quoted string holding `text`.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push_str(&format!("\\U{:08X}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A broker file with findings whose messages and help quote `value`.
fn broker_file(id: &str, value: &str) -> String {
    let value = properties_escaped(value);
    format!(
        "# A node whose values come from outside.\n\
         process.roles=broker,controller\n\
         node.id={id}\n\
         controller.quorum.voters=1@kafka-1:9093\n\
         listeners=PLAINTEXT://:9092,CONTROLLER://:9093\n\
         advertised.listeners=PLAINTEXT://localhost:9092\n\
         controller.listener.names=CONTROLLER\n\
         listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT\n\
         log.dirs=/tmp/{value}\n\
         num.partitions={value}\n\
         auto.create.topics.enable={value}\n\
         compression.type={value}\n\
         offsets.topic.replication.factor=1\n\
         {value}=1\n\
         ##[error]forged in a comment\n\
         \x20 ::error::forged in a comment\n"
    )
}

/// One generated tree: the places hostile texts are put, each a path to check.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// Paths to check, each a run of every output.
    targets: Vec<PathBuf>,
    /// A file named on its own with a hostile name.
    named: PathBuf,
    /// Hostile texts that are the subject of errors (a missing path, a rule name).
    missing: PathBuf,
    bad_config: PathBuf,
    group: String,
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn tree(rng: &mut Rng, round: usize) -> Tree {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let mut slot = 0;
    let mut next = |rng: &mut Rng| {
        slot += 1;
        hostile(rng, round, slot)
    };
    // A folder walk: hostile values, a hostile file name, a hostile folder name.
    let walk = root.join("walk");
    write(
        &walk.join("server-1.properties"),
        &broker_file("1", &next(rng)),
    );
    let file_name = format!(
        "server-{}.properties",
        hostile_name(rng, round, 100).replace('\0', "")
    );
    write(&walk.join(&file_name), &broker_file("2", &next(rng)));
    let folder = hostile_name(rng, round, 200);
    write(
        &walk.join(&folder).join("server.properties"),
        &broker_file("3", &next(rng)),
    );
    // Node ids from outside.
    let ids = root.join("ids");
    write(
        &ids.join("server-1.properties"),
        &broker_file(&properties_escaped(&next(rng)), &next(rng)),
    );
    write(
        &ids.join("server-2.properties"),
        &broker_file(&properties_escaped(&next(rng)), "1"),
    );
    // A compose service named from outside, its values too.
    let service = next(rng);
    let value = next(rng);
    write(
        &root.join("compose").join("docker-compose.yml"),
        &format!(
            "services:\n  {}:\n    image: apache/kafka:3.8.0\n    environment:\n      \
             KAFKA_NODE_ID: 1\n      KAFKA_PROCESS_ROLES: broker,controller\n      \
             KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093\n      \
             KAFKA_ADVERTISED_LISTENERS: {}\n      \
             KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER\n      \
             KAFKA_CONTROLLER_QUORUM_VOTERS: 1@localhost:9093\n      \
             KAFKA_NUM_PARTITIONS: {}\n      KAFKA_LOG_DIRS: {}\n",
            quoted(&service),
            quoted(&format!("PLAINTEXT://{value}:9092")),
            quoted(&value),
            quoted(&format!("/tmp/{value}")),
        ),
    );
    // A Strimzi Kafka named from outside.
    let name = next(rng);
    let value = next(rng);
    write(
        &root.join("strimzi").join("kafka.yaml"),
        &format!(
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: {}\nspec:\n  \
             kafka:\n    version: 3.9.0\n    replicas: 1\n    listeners:\n      - name: plain\n        \
             port: 9092\n        type: internal\n        tls: false\n    config:\n      \
             offsets.topic.replication.factor: 1\n      num.partitions: {}\n      \
             {}: 1\n    storage:\n      type: ephemeral\n  zookeeper:\n    replicas: 1\n    \
             storage:\n      type: ephemeral\n",
            quoted(&name),
            quoted(&value),
            quoted(&value),
        ),
    );
    // A kafkalint.toml cluster named from outside.
    let declared = root.join("declared");
    write(
        &declared.join("kafkalint.toml"),
        &format!(
            "[[clusters]]\nname = {}\nfiles = [\"nodes/*.properties\"]\n",
            quoted(&next(rng))
        ),
    );
    write(
        &declared.join("nodes").join("server-1.properties"),
        &broker_file("1", &next(rng)),
    );
    write(
        &declared.join("nodes").join("server-2.properties"),
        &broker_file("2", &next(rng)),
    );
    // A kafkalint.toml whose rule name and cluster path come from outside: an error quotes them.
    let bad_config = root.join("bad-config");
    write(
        &bad_config.join("kafkalint.toml"),
        &format!(
            "select = [{}]\n[[clusters]]\nname = \"c\"\nfiles = [{}]\n",
            quoted(&next(rng)),
            quoted(&next(rng))
        ),
    );
    write(
        &bad_config.join("server.properties"),
        &broker_file("1", "1"),
    );
    let named = root.join("named").join(format!(
        "broker-{}.properties",
        hostile_name(rng, round, 300)
    ));
    write(&named, &broker_file("1", &next(rng)));
    let missing = root.join(format!(
        "missing-{}.properties",
        hostile_name(rng, round, 400)
    ));
    let group = next(rng);
    Tree {
        targets: vec![
            walk,
            ids,
            root.join("compose"),
            root.join("strimzi"),
            declared,
            named.clone(),
        ],
        _dir: dir,
        root,
        named,
        missing,
        bad_config,
        group,
    }
}

/// Whether `c` may never be printed raw: a control character but the tab and the line feed
/// (kafkalint writes those itself), NEL, the line and paragraph separators, the bidirectional
/// marks, overrides and isolates.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// What a log reader may drop before it looks for `::`: whitespace as .NET's `TrimStart`
/// drops it, and the invisible characters another reader might.
fn blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{180e}' | '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// kafkalint's own annotation lines of `--format github`, at their first column.
fn own_annotation(line: &str) -> bool {
    ["::error file=", "::warning file=", "::notice file="]
        .iter()
        .any(|start| line.starts_with(start))
}

/// Every way `text` (printed by `what`) could be read as a workflow command or break out of its
/// line, one message each.
fn injections(what: &str, text: &str, annotations: bool) -> Vec<String> {
    let mut found = Vec::new();
    for (index, line) in text.split('\n').enumerate() {
        let at = format!("{what}, line {}", index + 1);
        let line: String = line.chars().take(240).collect();
        let line = line.as_str();
        if line.trim_start_matches(blank).starts_with("::")
            && !(annotations && own_annotation(line))
        {
            found.push(format!("{at} starts with `::`: {line:?}"));
        }
        if line.contains("##[") {
            found.push(format!("{at} holds `##[`: {line:?}"));
        }
        if let Some(c) = line.chars().find(|c| forbidden(*c)) {
            found.push(format!("{at} holds U+{:04X} raw: {line:?}", c as u32));
        }
    }
    found
}

fn run(args: &[&std::ffi::OsStr], dir: &Path) -> Output {
    Command::new(KAFKALINT)
        .args(args)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// The checks of one run: stdout (and `--output-file`) and stderr.
struct Runs {
    problems: Vec<String>,
    /// Everything printed, to tell that the hostile texts reached the output at all.
    printed: String,
    count: usize,
}

impl Runs {
    fn check(&mut self, what: &str, output: &Output, annotations: bool) {
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        self.problems
            .extend(injections(&format!("{what}: stdout"), &stdout, annotations));
        self.problems
            .extend(injections(&format!("{what}: stderr"), &stderr, false));
        if stderr.contains("panicked") {
            self.problems.push(format!("{what}: panicked: {stderr}"));
        }
        self.printed.push_str(&stdout);
        self.printed.push_str(&stderr);
        self.count += 1;
    }

    fn text(&mut self, what: &str, text: &str, annotations: bool) {
        self.problems.extend(injections(what, text, annotations));
        self.printed.push_str(text);
    }
}

fn os(text: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(text)
}

/// Every output of `check` over `target`.
fn every_output(runs: &mut Runs, tree: &Tree, target: &Path) {
    let shown = target.display().to_string().escape_debug().to_string();
    let path = target.as_os_str();
    for format in FORMATS {
        let output = run(&[os("check"), path, os("--format"), os(format)], &tree.root);
        runs.check(
            &format!("check {shown} --format {format}"),
            &output,
            format == "github",
        );
    }
    for format in ["full", "json", "github"] {
        let output = run(
            &[
                os("check"),
                path,
                os("--statistics"),
                os("--format"),
                os(format),
            ],
            &tree.root,
        );
        runs.check(
            &format!("check {shown} --statistics --format {format}"),
            &output,
            false,
        );
    }
    let output = run(&[os("check"), path, os("--show-settings")], &tree.root);
    runs.check(&format!("check {shown} --show-settings"), &output, false);
    let output = run(&[os("check"), path, os("--diff")], &tree.root);
    runs.check(&format!("check {shown} --diff"), &output, false);
    for format in ["full", "github"] {
        let written = tree.root.join(format!("report-{format}.out"));
        let output = run(
            &[
                os("check"),
                path,
                os("--format"),
                os(format),
                os("--output-file"),
                written.as_os_str(),
            ],
            &tree.root,
        );
        runs.check(
            &format!("check {shown} --output-file ({format})"),
            &output,
            false,
        );
        let text = fs::read_to_string(&written).unwrap_or_default();
        runs.text(
            &format!("check {shown} --format {format} --output-file: the file"),
            &text,
            format == "github",
        );
        let _ = fs::remove_file(&written);
    }
}

/// The language server over stdio, given each node file of the tree as an open document:
/// every message it sends, as the client reads it.
fn server_messages(files: &[PathBuf]) -> (Vec<serde_json::Value>, Output) {
    fn framed(body: &serde_json::Value) -> Vec<u8> {
        let body = body.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }
    fn uri(path: &Path) -> String {
        let mut out = String::from("file://");
        for byte in path.to_str().unwrap().bytes() {
            if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
                out.push(byte as char);
            } else {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
        out
    }
    let mut child = Command::new(KAFKALINT)
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut messages = vec![
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ];
    for (index, file) in files.iter().enumerate() {
        let text = fs::read_to_string(file).unwrap_or_default();
        messages.push(serde_json::json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri(file), "languageId": "properties", "version": 1, "text": text}}
        }));
        messages.push(serde_json::json!({
            "jsonrpc": "2.0", "id": 100 + index, "method": "textDocument/codeAction",
            "params": {"textDocument": {"uri": uri(file)},
                       "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}},
                       "context": {"diagnostics": []}}
        }));
    }
    messages.push(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    messages.push(serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    for message in &messages {
        stdin.write_all(&framed(message)).unwrap();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let mut received = Vec::new();
    let mut rest = output.stdout.as_slice();
    while let Some(at) = rest.windows(4).position(|w| w == b"\r\n\r\n") {
        let header = String::from_utf8_lossy(&rest[..at]).to_string();
        let length: usize = header
            .lines()
            .find_map(|line| line.strip_prefix("Content-Length: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap();
        let body = &rest[at + 4..at + 4 + length];
        received.push(serde_json::from_slice(body).unwrap());
        rest = &rest[at + 4 + length..];
    }
    (received, output)
}

/// Every `message` and `title` string of a server's message, with where it is.
fn shown_strings(value: &serde_json::Value, at: &str, out: &mut Vec<(String, String)>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                let here = format!("{at}.{key}");
                match value {
                    serde_json::Value::String(text) if key == "message" || key == "title" => {
                        out.push((here, text.clone()))
                    }
                    _ => shown_strings(value, &here, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                shown_strings(item, &format!("{at}[{index}]"), out);
            }
        }
        _ => {}
    }
}

fn node_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "properties") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn no_output_path_prints_a_workflow_command_or_a_raw_control_character() {
    let seed = std::env::var("KAFKALINT_INJECTION_SEED")
        .ok()
        .and_then(|seed| seed.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let rounds = std::env::var("KAFKALINT_INJECTION_ROUNDS")
        .ok()
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(DEFAULT_ROUNDS);
    let mut rng = Rng(seed);
    let mut runs = Runs {
        problems: Vec::new(),
        printed: String::new(),
        count: 0,
    };
    for round in 0..rounds {
        let tree = tree(&mut rng, round);
        for target in &tree.targets {
            every_output(&mut runs, &tree, target);
        }
        // `--fix` on the tree itself, then what is left.
        for target in &tree.targets {
            let output = run(&[os("check"), target.as_os_str(), os("--fix")], &tree.root);
            runs.check(&format!("round {round}: check --fix"), &output, false);
        }
        // Errors and notes on stderr: a missing path, a bad kafkalint.toml, a named file.
        let output = run(&[os("check"), tree.missing.as_os_str()], &tree.root);
        runs.check(&format!("round {round}: a missing path"), &output, false);
        let output = run(&[os("check"), tree.bad_config.as_os_str()], &tree.root);
        runs.check(
            &format!("round {round}: a bad kafkalint.toml"),
            &output,
            false,
        );
        let output = run(
            &[
                os("check"),
                os("--config"),
                tree.missing.as_os_str(),
                tree.named.as_os_str(),
            ],
            &tree.root,
        );
        runs.check(
            &format!("round {round}: a missing --config"),
            &output,
            false,
        );
        let output = run(
            &[
                os("check"),
                os("--with-cluster"),
                tree.named.as_os_str(),
                tree.missing.as_os_str(),
            ],
            &tree.root,
        );
        runs.check(&format!("round {round}: --with-cluster"), &output, false);
        let output = run(
            &[
                os("check"),
                os("--kafka-version"),
                os(&tree.group),
                tree.named.as_os_str(),
            ],
            &tree.root,
        );
        runs.check(
            &format!("round {round}: a bad --kafka-version"),
            &output,
            false,
        );
        let output = run(
            &[
                os("check"),
                os("--select"),
                os(&tree.group),
                tree.named.as_os_str(),
            ],
            &tree.root,
        );
        runs.check(&format!("round {round}: a bad --select"), &output, false);
        let output = run(&[os("rule"), os(&tree.group)], &tree.root);
        runs.check(
            &format!("round {round}: rule with a bad name"),
            &output,
            false,
        );
        // A file read from standard input under a hostile name.
        let named = fs::read(&tree.named).unwrap();
        for format in ["full", "concise", "github"] {
            let mut child = Command::new(KAFKALINT)
                .args([
                    os("check"),
                    os("--format"),
                    os(format),
                    os("--stdin-filename"),
                ])
                .arg(&tree.named)
                .arg("-")
                .current_dir(&tree.root)
                .env("NO_COLOR", "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(&named).unwrap();
            let output = child.wait_with_output().unwrap();
            runs.check(
                &format!("round {round}: --stdin-filename, --format {format}"),
                &output,
                format == "github",
            );
        }
        // `kafkalint live` judging a saved snapshot whose bootstrap, broker hosts and settings
        // are hostile, beside the tree's files.
        let snapshot = tree.root.join("live.snapshot");
        write(
            &snapshot,
            &format!(
                "bootstrap={}:9092\nbroker.1={}:9092\nbroker.2=kafka-2:9092\n\
                 config.1.static.node.id=1\nconfig.1.static.num.partitions={}\n\
                 config.2.static.node.id=2\n\
                 topic.{topic}=internal=false partitions=1 min.insync.replicas=2\n\
                 partition.{topic}-0=leader=1 replicas=1 isr=1\n",
                properties_escaped(&hostile(&mut rng, round, 500)),
                properties_escaped(&hostile(&mut rng, round, 501)),
                properties_escaped(&hostile(&mut rng, round, 502)),
                topic = properties_key(&hostile(&mut rng, round, 503)),
            ),
        );
        for format in ["full", "concise", "github", "json"] {
            let output = run(
                &[
                    os("live"),
                    os("--snapshot"),
                    snapshot.as_os_str(),
                    tree.targets[0].as_os_str(),
                    os("--format"),
                    os(format),
                ],
                &tree.root,
            );
            runs.check(
                &format!("round {round}: live --snapshot --format {format}"),
                &output,
                format == "github",
            );
        }
        // The coordinator command: a hostile group id, clusters and values from the tree.
        for target in &tree.targets {
            for kind in [None, Some("--transactional")] {
                let mut args = vec![os("coordinator"), os(&tree.group), target.as_os_str()];
                args.extend(kind.map(os));
                let output = run(&args, &tree.root);
                runs.check(&format!("round {round}: coordinator"), &output, false);
            }
        }
        // The language server: every node file of the tree open.
        let (messages, output) = server_messages(&node_files(&tree.root));
        // Its stdout is JSON-RPC framing (`\r\n` headers): what it says is checked decoded.
        runs.check(
            &format!("round {round}: server"),
            &Output {
                stdout: Vec::new(),
                ..output.clone()
            },
            false,
        );
        assert!(
            messages.len() > 3,
            "the server answered: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        for message in &messages {
            let mut strings = Vec::new();
            shown_strings(message, "", &mut strings);
            for (at, text) in strings {
                runs.text(&format!("round {round}: server {at}"), &text, false);
            }
        }
    }
    assert!(
        runs.count > 50 && runs.printed.contains(MARK),
        "the hostile texts never reached an output ({} runs)",
        runs.count
    );
    assert!(
        runs.problems.is_empty(),
        "{} injected lines or raw characters over {} runs (seed {seed:#x}); the first:\n{}",
        runs.problems.len(),
        runs.count,
        runs.problems
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
