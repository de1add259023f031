//! What must hold for any input, whatever its bytes: the property tests (tests/property_tests.rs)
//! and the fuzz targets (fuzz/fuzz_targets/) both check these, the fuzz targets by including
//! this file. Each function panics when a property breaks; it never reads or writes a file.
#![allow(dead_code)] // each includer uses a part

use std::ops::Range;

use kafkalint::catalog::KafkaVersion;
use kafkalint::config::Config;
use kafkalint::diagnostic::Severity;
use kafkalint::fix::{self, FixError};
use kafkalint::output::{self, FullStyle};
use kafkalint::properties::{self, PropertiesFile};
use kafkalint::source::SourceFile;
use kafkalint::sources::yaml;
use kafkalint::{Options, Report};

/// A character that must never reach a terminal raw: every control character but line feed
/// and tab (ESC, BEL, CR, C1 controls such as CSI U+009B), and the bidirectional overrides and
/// isolates that reorder what a reader sees (U+202E, "Trojan Source").
pub fn unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Panics when `text` (the output `what`) holds a character [`unsafe_for_terminal`].
pub fn assert_printable(what: &str, text: &str) {
    if let Some((at, c)) = text.char_indices().find(|(_, c)| unsafe_for_terminal(*c)) {
        let from = text.floor_char_boundary(at.saturating_sub(60));
        panic!(
            "{what}: raw {:?} at byte {at}, after {:?}",
            c,
            &text[from..at]
        );
    }
}

fn assert_span(what: &str, span: &Range<usize>, len: usize) {
    assert!(
        span.start <= span.end && span.end <= len,
        "{what}: span {span:?} outside 0..{len}"
    );
}

/// Latin-1, as `Properties.load(InputStream)` reads bytes.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|b| char::from(*b)).collect()
}

/// The parser: never panics; the lenient parse agrees with the strict one (the same entries
/// when the strict one succeeds, the same first error when it fails); spans lie in the bytes,
/// in file order; a key or value written without escapes or line breaks is its bytes read as
/// Latin-1; comments start with their marker and hold no line break. Returns the parse.
pub fn parse_holds(bytes: &[u8]) -> PropertiesFile {
    let (file, error) = properties::parse_lenient(bytes);
    match properties::parse(bytes) {
        Ok(strict) => {
            assert_eq!(
                error, None,
                "strict parse succeeded, lenient reported an error"
            );
            assert_eq!(strict, file, "strict and lenient parses differ");
        }
        Err(strict) => assert_eq!(Some(strict), error, "strict and lenient errors differ"),
    }
    let len = bytes.len();
    if let Some(error) = &error {
        assert_span("error", &error.span, len);
        assert!(!error.span.is_empty(), "an error marks at least one byte");
    }
    let mut previous_end = 0;
    for entry in &file.entries {
        assert_span("key", &entry.key_span, len);
        assert_span("value", &entry.value_span, len);
        assert!(
            entry.key_span.start >= previous_end,
            "entries out of file order: {entry:?}"
        );
        assert!(
            entry.key_span.end <= entry.value_span.start,
            "value before key: {entry:?}"
        );
        previous_end = entry.value_span.end;
        for (raw, decoded) in [
            (&bytes[entry.key_span.clone()], &entry.key),
            (&bytes[entry.value_span.clone()], &entry.value),
        ] {
            if !raw.iter().any(|b| matches!(b, b'\\' | b'\r' | b'\n')) {
                assert_eq!(*decoded, latin1(raw), "plain text decodes as Latin-1");
            }
        }
    }
    for comment in &file.comments {
        assert_span("comment", &comment.span, len);
        let raw = &bytes[comment.span.clone()];
        assert!(
            matches!(raw.first(), Some(b'#' | b'!')),
            "comment without its marker: {comment:?}"
        );
        assert!(
            !raw.iter().any(|b| matches!(b, b'\r' | b'\n')),
            "comment over a line break: {comment:?}"
        );
    }
    file
}

/// A file as output sees it: every span's line and column can be told, and lands on character
/// boundaries of the display text (secrets redacted, controls escaped), which holds nothing
/// [`unsafe_for_terminal`].
pub fn source_holds(bytes: &[u8]) {
    let file = SourceFile::new("server.properties".into(), bytes.to_vec());
    let display = file.display_text();
    let text = &display.text;
    // A CRLF line end keeps its CR before the LF (miette splits lines at LF only).
    assert_printable("display text", &text.replace("\r\n", "\n"));
    let mut spans: Vec<Range<usize>> = Vec::new();
    spans.push(0..bytes.len());
    for entry in &file.properties.entries {
        spans.push(entry.key_span.clone());
        spans.push(entry.value_span.clone());
    }
    spans.extend(file.properties.comments.iter().map(|c| c.span.clone()));
    spans.extend(file.parse_error.iter().map(|e| e.span.clone()));
    for span in &spans {
        let (line, column) = file.line_column(span.start);
        assert!(line >= 1 && column >= 1);
        file.line_column(span.end);
        let shown = display.span(span);
        assert_span("display", &shown, text.len());
        assert!(
            text.is_char_boundary(shown.start) && text.is_char_boundary(shown.end),
            "display span {shown:?} of {span:?} splits a character"
        );
    }
}

/// Every output of a report, by format name, as a person or a program would receive it.
pub fn render_all(report: &Report) -> Vec<(&'static str, String)> {
    vec![
        (
            "full",
            output::full(
                report,
                FullStyle {
                    color: false,
                    width: 100,
                },
            ),
        ),
        (
            "full (color, narrow)",
            output::full(
                report,
                FullStyle {
                    color: true,
                    width: 40,
                },
            ),
        ),
        (
            "concise (help shown)",
            output::concise(
                report,
                output::ConciseStyle {
                    show_help: true,
                    ..Default::default()
                },
            ),
        ),
        ("json", output::json(report)),
        ("github", output::github(report)),
        ("sarif", output::sarif(report)),
        ("summary", output::summary(report)),
    ]
}

/// Diagnostics point into the files they name; every format renders; the JSON and SARIF
/// documents parse and the JSON counts agree with the report; no output but the colored one
/// holds a character [`unsafe_for_terminal`].
pub fn report_holds(report: &Report) -> Vec<(&'static str, String)> {
    for diagnostic in &report.diagnostics {
        assert!(
            !diagnostic.labels.is_empty(),
            "{}: no label",
            diagnostic.rule
        );
        for label in &diagnostic.labels {
            let file = report
                .files
                .get(label.file)
                .expect("label in a checked file");
            assert_span(diagnostic.rule, &label.span, file.bytes.len());
        }
        for edit in diagnostic.fix.iter().flat_map(|fix| &fix.edits) {
            let file = report.files.get(edit.file).expect("edit in a checked file");
            assert_span(diagnostic.rule, &edit.span, file.bytes.len());
        }
    }
    let outputs = render_all(report);
    for (format, text) in &outputs {
        if *format == "json" || *format == "sarif" {
            let document: serde_json::Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{format}: {e}"));
            if *format == "json" {
                let summary = &document["summary"];
                assert_eq!(summary["errors"], report.count(Severity::Error));
                assert_eq!(summary["warnings"], report.count(Severity::Warning));
                assert_eq!(summary["files"], report.files.len());
            }
        }
        if !format.contains("color") {
            assert_printable(format, text);
        }
    }
    outputs
}

/// The whole check on in-memory files (`.properties`, compose files, Strimzi resources):
/// [`report_holds`] for the report, then `--fix` in memory (a fix that fails its own
/// verification is a bug) and `--diff`, and the report of the fixed files; no output shows a
/// value the YAML reader knows to be secret ([`recognized_secrets`]). Returns every output,
/// the diff included.
pub fn pipeline_holds(
    files: Vec<(String, Vec<u8>)>,
    config: Option<Config>,
    options: &Options,
) -> Vec<(&'static str, String)> {
    let sources = files.clone();
    let report = kafkalint::check_in_memory(files, config, options);
    for file in &report.files {
        assert!(
            sources.iter().any(|(path, _)| *path == file.path),
            "{}: checked, but not given",
            file.path
        );
    }
    let secrets = recognized_secrets(&report, &sources);
    let mut outputs = report_holds(&report);
    match fix::fix(
        report,
        options,
        kafkalint::diagnostic::Applicability::Unsafe,
    ) {
        Ok(fixed) => {
            for change in &fixed.changes {
                assert_ne!(
                    change.before, change.after,
                    "{}: a change changes",
                    change.path
                );
                // What a fix writes still parses as it did: a fix never breaks a file.
                assert!(
                    parses(&change.path, &change.after) || !parses(&change.path, &change.before),
                    "{}: the fix breaks the file",
                    change.path
                );
            }
            let diff = fix::diff(&fixed);
            assert_eq!(diff.is_empty(), fixed.changes.is_empty());
            assert_printable("diff", &diff);
            outputs.push(("diff", diff));
            outputs.extend(report_holds(&fixed.report));
        }
        Err(error @ FixError::Bug { .. }) => panic!("{error}"),
        // Nothing is written in memory; the other errors are about the file system.
        Err(_) => {}
    }
    for (format, text) in &outputs {
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "{format} shows the secret {secret:?}"
            );
        }
    }
    outputs
}

/// Whether `bytes` read as the file at `path` is read does (`.properties` or YAML).
fn parses(path: &str, bytes: &[u8]) -> bool {
    if !kafkalint::sources::is_yaml_name(path) {
        return properties::parse(bytes).is_ok();
    }
    std::str::from_utf8(bytes)
        .is_ok_and(|text| yaml::parse(text.strip_prefix('\u{feff}').unwrap_or(text)).is_ok())
}

/// Words of the values the YAML reader itself hides (`YamlView::secrets`: every value it does
/// not know to be safe) that output could not show by chance, nor derive from other settings
/// (a listener made of a host name): ten ASCII letters and digits or more, with a digit, an
/// upper-case and a lower-case letter, written once in all of `files`. Words are split at
/// whitespace, quotes and `=;,:`, so that the password of a JAAS line is one.
pub fn recognized_secrets(report: &Report, files: &[(String, Vec<u8>)]) -> Vec<String> {
    let mut secrets: Vec<String> = Vec::new();
    for file in &report.files {
        let Some(view) = &file.yaml else { continue };
        for span in view.secrets.iter() {
            let Some(Ok(text)) = file.bytes.get(span.clone()).map(std::str::from_utf8) else {
                continue;
            };
            let words = text.split(|c: char| c.is_whitespace() || "\"'=;,:".contains(c));
            for word in words {
                let credential_like = word.len() >= 10
                    && word.chars().all(|c| c.is_ascii_alphanumeric())
                    && word.contains(|c: char| c.is_ascii_digit())
                    && word.contains(|c: char| c.is_ascii_uppercase())
                    && word.contains(|c: char| c.is_ascii_lowercase());
                if !credential_like || secrets.iter().any(|known| known == word) {
                    continue;
                }
                let written: usize = files
                    .iter()
                    .map(|(_, bytes)| occurrences(bytes, word.as_bytes()))
                    .sum();
                if written == 1 {
                    secrets.push(word.to_string());
                }
            }
        }
    }
    secrets
}

fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|window| *window == needle)
        .count()
}

/// The release to check against, chosen by a number: none (what the files show) or one the
/// catalogue knows.
pub fn version_by_number(number: u8) -> Option<KafkaVersion> {
    let versions = kafkalint::catalog::VERSIONS;
    match usize::from(number) % (versions.len() + 1) {
        0 => None,
        index => Some(versions[index - 1]),
    }
}

/// Where an in-memory file lies, chosen by a number: the shapes discovery groups differently
/// (a folder of brokers, one broker per folder, Kafka's KRaft samples, a file named for no
/// node). `index` keeps the paths of one input apart.
pub fn path_by_number(number: u8, index: usize) -> String {
    match number % 6 {
        0 => format!("cluster/server-{index}.properties"),
        1 => format!("cluster/broker-{index}.properties"),
        2 => format!("brokers/b{index}/server.properties"),
        3 => format!(
            "kraft/{}.properties",
            ["server", "broker", "controller"][index % 3]
        ),
        4 => format!("cluster/app-{index}.properties"),
        _ => format!("controllers/controller-{index}.properties"),
    }
}

/// A config file for the in-memory check, when `text` is one.
pub fn config_from(text: &[u8]) -> Option<Config> {
    let text = std::str::from_utf8(text).ok()?;
    Config::parse("kafkalint.toml", ".".into(), text, kafkalint::rules::NAMES).ok()
}

/// In-memory files, a config file and the options of one check.
pub type PipelineInput = (Vec<(String, Vec<u8>)>, Option<Config>, Options);

/// Fuzz input for the whole pipeline: a header, then files separated by 0x1E (the ASCII
/// record separator), each led by a byte choosing its path ([`path_by_number`]). Header:
/// release ([`version_by_number`]), broker count (`n % 8`, 0 for none), flags (bit 0: the
/// first record is a `kafkalint.toml`).
pub fn pipeline_input(data: &[u8]) -> Option<PipelineInput> {
    records_input(data, 8, path_by_number)
}

/// A header and files separated by 0x1E, at most `most` of them, each placed by
/// `path_of(its first byte, its index)`; two files placed alike are told apart by the index.
fn records_input(
    data: &[u8],
    most: usize,
    path_of: fn(u8, usize) -> String,
) -> Option<PipelineInput> {
    let (header, rest) = data.split_first_chunk::<3>()?;
    let [version, brokers, flags] = *header;
    let mut records = rest.split(|b| *b == 0x1e);
    let config = if flags & 1 == 1 {
        config_from(records.next()?)
    } else {
        None
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (index, record) in records.take(most).enumerate() {
        let Some((place, bytes)) = record.split_first() else {
            continue;
        };
        let mut path = path_of(*place, index);
        if files.iter().any(|(known, _)| *known == path) {
            let (stem, extension) = path.rsplit_once('.').unwrap_or((&path, ""));
            path = format!("{stem}-{index}.{extension}");
        }
        files.push((path, bytes.to_vec()));
    }
    Some((files, config, options_for(version, brokers)))
}

/// The options a fuzz or property input's header asks for: a release by number, `--brokers`
/// (`n % 8`, 0 for none).
pub fn options_for(version: u8, brokers: u8) -> Options {
    Options {
        brokers: Some(usize::from(brokers % 8)).filter(|n| *n > 0),
        kafka_version: version_by_number(version),
        ..Options::default()
    }
}

/// Where an in-memory YAML file lies, chosen by a number: compose files under the names
/// Compose looks for and another, Strimzi resources (a `Kafka`, node pools beside it), and a
/// `.properties` node file in a compose folder. `index` keeps the paths of one input apart.
pub fn yaml_path_by_number(number: u8, index: usize) -> String {
    match number % 10 {
        0 => "compose/docker-compose.yml".into(),
        1 => "compose/compose.yaml".into(),
        2 => "docker-compose.yml".into(),
        3 => format!("compose/kafka-{index}.yml"),
        4 => "strimzi/kafka.yaml".into(),
        5 => "strimzi/kafka-node-pools.yaml".into(),
        6 => format!("strimzi/cluster-{index}.yml"),
        7 => format!("compose/server-{index}.properties"),
        8 => "terraform/kafka.tf".into(),
        _ => "ansible/roles/kafka/templates/server.properties.j2".into(),
    }
}

/// Fuzz input for the YAML sources: the header of [`pipeline_input`], then up to 6 files
/// separated by 0x1E, each led by a byte choosing its path ([`yaml_path_by_number`]): a
/// compose file, a Strimzi resource, a Terraform file, an Ansible role's template, or a node
/// file beside them.
pub fn yaml_input(data: &[u8]) -> Option<PipelineInput> {
    records_input(data, 6, yaml_path_by_number)
}
