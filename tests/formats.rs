//! `--format concise`, `github` and `sarif`, `--output-file` and `--color`: exact lines where a
//! program parses them, the SARIF log validated against the official schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

mod support;
use support::{schema_errors, schema_validator};

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    kafkalint_env(args, dir, &[])
}

fn kafkalint_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kafkalint"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const SEED: &str = "fixtures/seed-zk-3-brokers";

/// Where and what each of the seed's findings is, in report order, a line a place (a finding
/// about the three brokers is a line in each broker's file): file, line, column, severity, rule
/// and the column of the span's last character (the first one for an empty span).
const SEED_FINDINGS: [(&str, usize, usize, &str, &str, usize); 10] = [
    ("server-0", 1, 1, "warning", "auto-create-single-replica", 1),
    ("server-0", 21, 10, "info", "log-dirs-in-tmp", 26),
    (
        "server-0",
        28,
        34,
        "error",
        "internal-topic-replication",
        34,
    ),
    (
        "server-1",
        28,
        34,
        "error",
        "internal-topic-replication",
        34,
    ),
    (
        "server-2",
        28,
        34,
        "error",
        "internal-topic-replication",
        34,
    ),
    (
        "server-0",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
    (
        "server-1",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
    (
        "server-2",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
    ("server-1", 21, 10, "info", "log-dirs-in-tmp", 26),
    ("server-2", 21, 10, "info", "log-dirs-in-tmp", 26),
];

/// The message of the seed's first error: the file's name says which broker, so the broker's
/// name does not lead it.
const SEED_FIRST_ERROR: &str =
    "offsets.topic.replication.factor=1: one broker down, some consumer groups stop";

const SEED_FIRST_HELP: &str = "set offsets.topic.replication.factor=3 on every broker (the cluster has 3 brokers); an existing __consumer_offsets keeps 1 replica until raised with kafka-reassign-partitions.sh";

#[test]
fn concise_is_one_line_per_finding_and_nothing_else() {
    let output = kafkalint(&["check", "--format", "concise", SEED], root());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), SEED_FINDINGS.len(), "{text}");
    // Sorted by file, line and column, whatever order the report holds them in.
    let mut sorted = SEED_FINDINGS.to_vec();
    sorted.sort_by_key(|&(file, row, column, ..)| (file, row, column));
    for (line, (file, row, column, severity, rule, _)) in lines.iter().zip(sorted) {
        let prefix = format!("{SEED}/{file}.properties:{row}:{column}: {severity}[{rule}] ");
        assert!(line.starts_with(&prefix), "{line}\nexpected {prefix}");
    }
    // No help on the line; a finding `--fix` fixes is marked `[*]`, one it leaves is not: the
    // seed's fixes are unsafe (marked with `--unsafe-fixes`, below).
    assert_eq!(
        lines[2],
        format!(
            "{SEED}/server-0.properties:28:34: error[internal-topic-replication] {SEED_FIRST_ERROR}"
        )
    );
    assert!(
        lines[0].starts_with(&format!(
            "{SEED}/server-0.properties:1:1: warning[auto-create-single-replica] default."
        )),
        "{}",
        lines[0]
    );
    assert!(!text.contains("(help: "), "{text}");
    // `--show-help` puts the help back at the end of the line.
    let with_help = kafkalint(
        &["check", "--format", "concise", "--show-help", SEED],
        root(),
    );
    assert_eq!(
        stdout(&with_help).lines().nth(2).unwrap(),
        format!(
            "{SEED}/server-0.properties:28:34: error[internal-topic-replication] {SEED_FIRST_ERROR} (help: {SEED_FIRST_HELP})"
        )
    );
    // The tally goes to stderr, for the person watching.
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "Found 6 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9).\n\
         No fixes available (6 hidden fixes can be enabled with the `--unsafe-fixes` option).\n"
    );
    // With `--unsafe-fixes`, the fixes `--fix` would then make are marked.
    let unsafe_fixes = kafkalint(
        &["check", "--format", "concise", "--unsafe-fixes", SEED],
        root(),
    );
    assert_eq!(
        stdout(&unsafe_fixes).lines().nth(2).unwrap(),
        format!(
            "{SEED}/server-0.properties:28:34: error[internal-topic-replication] [*] {SEED_FIRST_ERROR}"
        )
    );
    assert!(
        String::from_utf8(unsafe_fixes.stderr)
            .unwrap()
            .ends_with("\n[*] 6 fixable with the `--fix` option.\n")
    );
}

#[test]
fn github_is_one_workflow_command_per_finding() {
    let output = kafkalint(&["check", "--format", "github", SEED], root());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), SEED_FINDINGS.len(), "{text}");
    for (line, (file, row, column, severity, rule, end)) in lines.iter().zip(SEED_FINDINGS) {
        let command = match severity {
            "info" => "notice",
            other => other,
        };
        let prefix = format!(
            "::{command} file={SEED}/{file}.properties,line={row},col={column},endLine={row},endColumn={end},title=kafkalint({rule})::"
        );
        assert!(line.starts_with(&prefix), "{line}\nexpected {prefix}");
    }
    assert_eq!(
        lines[2],
        format!(
            "::error file={SEED}/server-0.properties,line=28,col=34,endLine=28,endColumn=34,title=kafkalint(internal-topic-replication)::{SEED_FIRST_ERROR}%0Ahelp: {SEED_FIRST_HELP}"
        )
    );
    assert!(output.stderr.is_empty());
}

/// A folder named `x,y:z%` and a value with `,` `%` `:`, a newline (`\n` in the file) and an
/// ESC: each format escapes what it must and nothing else. The newline is the file's, so every
/// format shows it escaped (`\u{a}`): a line break in the output is kafkalint's own.
#[test]
fn paths_and_messages_are_escaped_per_format() {
    let dir = tempfile::tempdir().unwrap();
    let cluster = dir.path().join("x,y:z%");
    std::fs::create_dir(&cluster).unwrap();
    std::fs::write(
        cluster.join("server-0.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181/a,b%c\\nd:e\x1b\n",
    )
    .unwrap();
    std::fs::write(
        cluster.join("server-1.properties"),
        "broker.id=1\nzookeeper.connect=zk:2181/blue\n",
    )
    .unwrap();
    let find = |format: &str| {
        let output = kafkalint(
            &["check", "--format", format, "--show-help", "."],
            dir.path(),
        );
        assert!(!output.stdout.contains(&0x1b), "{format}: raw ESC");
        stdout(&output)
    };
    let github = find("github");
    let line = github
        .lines()
        .find(|line| line.contains("inconsistent-cluster-value"))
        .unwrap();
    assert!(
        line.starts_with("::error file=x%2Cy%3Az%25/server-0.properties,line=2,col=19,"),
        "{line}"
    );
    assert!(
        line.contains("has `zk:2181/a,b%25c\\u{a}d:e\\u{1b}`"),
        "{line}"
    );

    let concise = find("concise");
    let line = concise
        .lines()
        .find(|line| line.contains("inconsistent-cluster-value"))
        .unwrap();
    assert!(
        line.starts_with("x,y:z%/server-0.properties:2:19: error["),
        "{line}"
    );
    assert!(
        line.contains("has `zk:2181/a,b%c\\u{a}d:e\\u{1b}`"),
        "{line}"
    );

    let sarif: Value = serde_json::from_str(&find("sarif")).unwrap();
    let result = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["ruleId"] == "inconsistent-cluster-value")
        .unwrap();
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "x%2Cy%3Az%25/server-0.properties"
    );
    assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    // Each node's value is its location's label (the message names no values when they are
    // long: they lead the help).
    assert!(
        result["locations"][0]["message"]["text"]
            .as_str()
            .unwrap()
            .contains("`zk:2181/a,b%c\\u{a}d:e\\u{1b}`")
    );
}

#[test]
fn every_format_is_deterministic() {
    for format in ["concise", "github", "sarif", "gitlab", "junit"] {
        let first = kafkalint(&["check", "--format", format, "fixtures"], root());
        let second = kafkalint(&["check", "--format", format, "fixtures"], root());
        assert!(!first.stdout.is_empty(), "{format}");
        assert_eq!(first.stdout, second.stdout, "{format}");
    }
}

#[test]
fn output_file_holds_what_stdout_would_and_replaces_the_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("kafkalint.sarif");
    std::fs::write(&out, "stale").unwrap();
    for format in ["full", "concise", "json", "github", "sarif"] {
        let printed = kafkalint(&["check", "--format", format, SEED], root());
        let written = kafkalint(
            &[
                "check",
                "--format",
                format,
                "--output-file",
                out.to_str().unwrap(),
                SEED,
            ],
            root(),
        );
        assert_eq!(written.status.code(), printed.status.code(), "{format}");
        assert!(written.stdout.is_empty(), "{format}: stdout stays empty");
        assert_eq!(std::fs::read(&out).unwrap(), printed.stdout, "{format}");
        // The temporary file was renamed, not left behind.
        let names: Vec<PathBuf> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        assert_eq!(names, vec![out.clone()], "{format}");
    }
    let nowhere = dir.path().join("missing/kafkalint.sarif");
    let failed = kafkalint(
        &["check", "--output-file", nowhere.to_str().unwrap(), SEED],
        root(),
    );
    assert_eq!(failed.status.code(), Some(2));
    assert!(
        String::from_utf8(failed.stderr)
            .unwrap()
            .contains("kafkalint.sarif")
    );
}

#[test]
fn color_is_forced_by_always_or_force_color_and_off_with_never_or_off_a_terminal() {
    let escape = |output: &Output| output.stdout.contains(&0x1b);
    let run = |color: &str, env: &[(&str, &str)]| {
        kafkalint_env(&["check", "--color", color, SEED], root(), env)
    };
    assert!(escape(&run("always", &[])));
    assert!(escape(&run("always", &[("NO_COLOR", "1")])), "always wins");
    assert!(!escape(&run("never", &[])));
    // Piped stdout: auto means no color.
    assert!(!escape(&run("auto", &[])));
    // FORCE_COLOR, set and not empty (any value, as force-color.org has it), colors a pipe
    // and wins over NO_COLOR; `never` wins over it; empty, it is unset.
    assert!(escape(&run("auto", &[("FORCE_COLOR", "1")])));
    assert!(escape(&run("auto", &[("FORCE_COLOR", "0")])), "any value");
    assert!(
        escape(&run("auto", &[("FORCE_COLOR", "1"), ("NO_COLOR", "1")])),
        "FORCE_COLOR wins over NO_COLOR"
    );
    assert!(!escape(&run("auto", &[("FORCE_COLOR", "")])));
    assert!(!escape(&run("never", &[("FORCE_COLOR", "1")])));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.txt");
    kafkalint_env(
        &["check", "--output-file", out.to_str().unwrap(), SEED],
        root(),
        &[("FORCE_COLOR", "1")],
    );
    assert!(
        std::fs::read(&out).unwrap().contains(&0x1b),
        "--output-file"
    );
    let never = stdout(&run("never", &[]));
    assert_eq!(never, stdout(&kafkalint(&["check", SEED], root())));
}

// --- SARIF ---

fn sarif_of(paths: &[&str]) -> Value {
    let output = kafkalint(&[&["check", "--format", "sarif"], paths].concat(), root());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let validator = schema_validator();
    // The seed, its clean twin, multi-file clusters with related locations in other files,
    // a cluster per folder under fixtures/, and files named one by one.
    for paths in [
        vec![SEED],
        vec!["fixtures/seed-zk-3-brokers-fixed"],
        vec!["fixtures/inconsistent-cluster-value/bad"],
        vec!["fixtures/duplicate-node-id/bad"],
        vec!["fixtures/upgrade-to-4.1"],
        vec!["fixtures"],
        vec![
            "fixtures/seed-zk-3-brokers/server-0.properties",
            "fixtures/seed-zk-3-brokers/server-1.properties",
        ],
    ] {
        let log = sarif_of(&paths);
        let errors = schema_errors(&validator, &log);
        assert!(errors.is_empty(), "{paths:?}: {errors:#?}");
    }
    let all = sarif_of(&["fixtures"]);
    let related = all["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("relatedLocations").is_some())
        .count();
    assert!(related > 0, "some finding has related locations");
}

#[test]
fn a_broken_sarif_log_fails_the_schema() {
    let validator = schema_validator();
    let good = sarif_of(&[SEED]);
    assert!(schema_errors(&validator, &good).is_empty());
    let mut wrong_version = good.clone();
    wrong_version["version"] = "2.0.0".into();
    let mut wrong_level = good.clone();
    wrong_level["runs"][0]["results"][0]["level"] = "fatal".into();
    let mut no_driver = good.clone();
    no_driver["runs"][0]["tool"]
        .as_object_mut()
        .unwrap()
        .remove("driver");
    let mut line_zero = good.clone();
    line_zero["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    for (what, broken) in [
        ("version", wrong_version),
        ("level", wrong_level),
        ("driver", no_driver),
        ("startLine", line_zero),
    ] {
        assert!(
            !schema_errors(&validator, &broken).is_empty(),
            "{what}: a broken log passed"
        );
    }
}

#[test]
fn sarif_lists_every_rule_and_points_results_at_them() {
    let log = sarif_of(&["fixtures"]);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "kafkalint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), kafkalint::rules::RULES.len());
    for (rule, registered) in rules.iter().zip(kafkalint::rules::RULES) {
        assert_eq!(rule["id"], registered.name);
        assert_eq!(rule["shortDescription"]["text"], registered.summary);
        assert_eq!(
            rule["properties"]["tags"],
            serde_json::json!([registered.group.as_str()])
        );
        assert_eq!(
            rule["helpUri"],
            kafkalint::diagnostic::rule_url(registered.name)
        );
        assert!(
            rule["help"]["text"]
                .as_str()
                .unwrap()
                .contains(registered.summary)
        );
    }
    let results = run["results"].as_array().unwrap();
    assert!(results.len() > 50);
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        let level = result["level"].as_str().unwrap();
        assert!(["error", "warning", "note"].contains(&level));
        let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(uri.starts_with("fixtures/") && !uri.contains('\\'), "{uri}");
    }
    let fingerprints: std::collections::BTreeSet<&str> = results
        .iter()
        .map(|r| r["partialFingerprints"]["kafkalint/v1"].as_str().unwrap())
        .collect();
    assert_eq!(fingerprints.len(), results.len(), "fingerprints are unique");
}

/// Lines moved by an edit above a finding keep its fingerprint; the region follows the line.
#[test]
fn sarif_fingerprints_survive_moved_lines() {
    let dir = tempfile::tempdir().unwrap();
    for broker in 0..3 {
        let name = format!("server-{broker}.properties");
        std::fs::copy(root().join(SEED).join(&name), dir.path().join(&name)).unwrap();
    }
    let read = |dir: &Path| {
        let output = kafkalint(&["check", "--format", "sarif", "."], dir);
        let log: Value = serde_json::from_slice(&output.stdout).unwrap();
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["partialFingerprints"]["kafkalint/v1"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                    r["locations"][0]["physicalLocation"]["region"]["startLine"]
                        .as_u64()
                        .unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = read(dir.path());
    let path = dir.path().join("server-0.properties");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("# a new comment\n# and another\n{text}")).unwrap();
    let after = read(dir.path());
    assert_eq!(before.len(), after.len());
    let fingerprints = |results: &[(String, u64)]| {
        results
            .iter()
            .map(|(f, _)| f.clone())
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert_eq!(fingerprints(&before), fingerprints(&after));
    assert_ne!(before, after, "the lines did move");
}

#[test]
fn sarif_results_of_the_seed() {
    let log = sarif_of(&[SEED]);
    // The driver (every rule) is checked above; the snapshot is what the seed reports.
    insta::assert_snapshot!(
        "seed_sarif_results",
        serde_json::to_string_pretty(&log["runs"][0]["results"]).unwrap()
    );
}

#[test]
fn the_names_of_yaml_parts_are_escaped_in_json() {
    // A compose service named with a right-to-left override and an escape: `--format json`
    // names the part of each node, and shows no raw control or bidi character.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("docker-compose.yml"),
        "services:\n  \"kafka\u{202e}\u{1b}1\":\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n",
    )
    .unwrap();
    let output = kafkalint(&["check", "--format", "json", "."], dir.path());
    let text = stdout(&output);
    assert!(!text.contains('\u{202e}'), "raw U+202E:\n{text}");
    assert!(!text.contains('\u{1b}'), "raw ESC:\n{text}");
    let json: Value = serde_json::from_str(&text).unwrap();
    let part = json["clusters"][0]["nodes"][0]["part"].as_str().unwrap();
    assert!(part.starts_with("service `kafka"), "{part}");
}

/// In `--format full`, a help wraps at spaces only: each help block, its lines joined again,
/// is a help of the findings, whole (no key, path or command broken at a `-` or `/`). Over
/// every fixture.
#[test]
fn help_lines_wrap_between_words_only() {
    let mut checked = 0;
    for rule in std::fs::read_dir(root().join("fixtures")).unwrap() {
        for setup in std::fs::read_dir(rule.unwrap().path()).unwrap() {
            let setup = setup.unwrap().path();
            let json = kafkalint(
                &["check", "--format", "json", setup.to_str().unwrap()],
                root(),
            );
            if json.status.code() == Some(2) {
                // A live rule's fixture: a snapshot, no node file to check.
                continue;
            }
            let document: Value = serde_json::from_slice(&json.stdout).unwrap();
            let helps: Vec<String> = document["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    d["help"]
                        .as_str()
                        .unwrap()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            let full = kafkalint(
                &["check", "--color", "never", setup.to_str().unwrap()],
                root(),
            );
            let text = stdout(&full);
            let mut lines = text.lines().peekable();
            while let Some(line) = lines.next() {
                let Some(first) = line.strip_prefix("  help: ") else {
                    continue;
                };
                let mut help = first.to_string();
                while let Some(more) = lines.peek().and_then(|next| next.strip_prefix("        ")) {
                    help.push(' ');
                    help.push_str(more.trim_start());
                    lines.next();
                }
                assert!(
                    helps.contains(&help),
                    "{}: a help broken inside a word:\n{help}\nnot among\n{helps:#?}",
                    setup.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} helps");
}

fn gitlab_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("tests/gitlab/code-quality-report.schema.json"))
        .unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// `check --format FORMAT` of `paths`, and the places of the findings it should show, in
/// report order: a finding about several nodes is a place in each node's file (its JSON
/// `also_on`), with the message `--format concise` gives that place.
fn places_and(format: &str, paths: &[&str]) -> (Vec<Value>, Vec<u8>) {
    let json = kafkalint(&[&["check", "--format", "json"], paths].concat(), root());
    let document: Value = serde_json::from_slice(&json.stdout).unwrap();
    let concise = kafkalint(
        &[&["check", "--format", "concise", "--show-help"], paths].concat(),
        root(),
    );
    // Concise lines are sorted by place; each place of the report takes the first line left
    // at its place, so that two findings at one place keep the report's order.
    let mut lines: Vec<Option<String>> = stdout(&concise)
        .lines()
        .map(|line| Some(line.to_string()))
        .collect();
    let line_count = lines.len();
    let other = kafkalint(&[&["check", "--format", format], paths].concat(), root());
    assert_eq!(
        json.status.code(),
        other.status.code(),
        "{format} {paths:?}"
    );
    let mut places = Vec::new();
    for finding in document["diagnostics"].as_array().unwrap() {
        let also_on = finding["also_on"].as_array().unwrap().iter();
        let first = std::iter::once(finding.clone());
        for place in first.chain(also_on.cloned()) {
            let prefix = format!(
                "{}:{}:{}: {}[{}] ",
                place["file"].as_str().unwrap(),
                place["line"],
                place["column"],
                finding["severity"].as_str().unwrap(),
                finding["rule"].as_str().unwrap()
            );
            let help = format!(" (help: {})", finding["help"].as_str().unwrap());
            let line = lines
                .iter_mut()
                .find(|line| {
                    line.as_deref()
                        .is_some_and(|line| line.starts_with(&prefix))
                })
                .and_then(Option::take)
                .unwrap_or_else(|| panic!("no line {prefix}...{help}"));
            let message = line
                .strip_prefix(&prefix)
                .map(|rest| rest.strip_prefix("[*] ").unwrap_or(rest))
                .and_then(|rest| rest.strip_suffix(&help))
                .unwrap_or_else(|| panic!("{line}\nexpected {prefix}...{help}"))
                .to_string();
            places.push(json!({
                "rule": finding["rule"],
                "severity": finding["severity"],
                "stops_startup": finding["stops_startup"],
                "file": place["file"],
                "line": place["line"],
                "column": place["column"],
                "message": message,
            }));
        }
    }
    assert_eq!(places.len(), line_count, "{paths:?}");
    (places, other.stdout)
}

#[test]
fn gitlab_reports_validate_and_hold_one_issue_per_finding() {
    let validator = gitlab_validator();
    for paths in [
        vec![SEED],
        vec!["fixtures/seed-zk-3-brokers-fixed"],
        vec!["fixtures/inconsistent-cluster-value/bad"],
        vec!["fixtures"],
    ] {
        let (findings, bytes) = places_and("gitlab", &paths);
        assert!(!bytes.starts_with(b"\xef\xbb\xbf"), "no byte order mark");
        let report: Value = serde_json::from_slice(&bytes).unwrap();
        let errors = schema_errors(&validator, &report);
        assert!(errors.is_empty(), "{paths:?}: {errors:#?}");
        let issues = report.as_array().unwrap();
        // One issue per finding and place, in report order.
        assert_eq!(issues.len(), findings.len(), "{paths:?}");
        for (issue, finding) in issues.iter().zip(&findings) {
            assert_eq!(issue["check_name"], finding["rule"]);
            assert_eq!(issue["description"], finding["message"]);
            assert_eq!(issue["location"]["path"], finding["file"]);
            assert_eq!(issue["location"]["lines"]["begin"], finding["line"]);
            assert!(issue["location"]["lines"]["end"].as_u64() >= finding["line"].as_u64());
            let expected = match (
                finding["severity"].as_str().unwrap(),
                finding["stops_startup"].as_bool().unwrap(),
            ) {
                ("error", true) => "blocker",
                ("error", false) => "critical",
                ("warning", _) => "major",
                _ => "info",
            };
            assert_eq!(issue["severity"], expected);
        }
        // GitLab shows issues with one fingerprint as one: each finding has its own.
        let fingerprints: std::collections::HashSet<&str> = issues
            .iter()
            .map(|issue| issue["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(fingerprints.len(), issues.len(), "{paths:?}");
    }
}

#[test]
fn a_broken_gitlab_report_fails_the_schema() {
    let validator = gitlab_validator();
    let (_, bytes) = places_and("gitlab", &[SEED]);
    let good: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(schema_errors(&validator, &good).is_empty());
    for (pointer, broken) in [
        ("/0/severity", json!("warning")),
        ("/0/location/lines", json!({ "end": 3 })),
        ("/0/fingerprint", json!(7)),
    ] {
        let mut report = good.clone();
        *report.pointer_mut(pointer).unwrap() = broken;
        assert!(!schema_errors(&validator, &report).is_empty(), "{pointer}");
    }
    let mut report = good.clone();
    report[0].as_object_mut().unwrap().remove("check_name");
    assert!(!schema_errors(&validator, &report).is_empty());
}

#[test]
fn gitlab_fingerprints_survive_moved_lines_and_stay_unique() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "server-0.properties",
        "server-1.properties",
        "server-2.properties",
    ] {
        std::fs::copy(root().join(SEED).join(name), dir.path().join(name)).unwrap();
    }
    let fingerprints = |dir: &Path| -> Vec<String> {
        let output = kafkalint(&["check", "--format", "gitlab", "."], dir);
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        let mut all: Vec<String> = report
            .as_array()
            .unwrap()
            .iter()
            .map(|issue| issue["fingerprint"].as_str().unwrap().to_string())
            .collect();
        all.sort();
        all
    };
    let before = fingerprints(dir.path());
    let path = dir.path().join("server-0.properties");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("# a comment\n# another\n{text}")).unwrap();
    assert_eq!(fingerprints(dir.path()), before);
}

/// Reads a JUnit XML report with junitparser (tests/junit/read.py, run by `junit-read`, which
/// `scripts/test-all` puts on the PATH with the venv it installs junitparser in).
fn read_junit(xml: &[u8]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.xml");
    std::fs::write(&path, xml).unwrap();
    let output = Command::new("junit-read")
        .arg(root().join("tests/junit/read.py"))
        .arg(&path)
        .output()
        .expect("junit-read runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn junit_is_read_by_junitparser_as_a_suite_per_file_and_a_failure_per_finding() {
    if !support::external_tools("tests/formats.rs (junitparser)") {
        return;
    }
    for paths in [
        vec![SEED],
        vec!["fixtures/inconsistent-cluster-value/bad"],
        vec!["fixtures"],
    ] {
        let (mut findings, bytes) = places_and("junit", &paths);
        // A suite per file, in the order files first have a place; in each, its places in
        // report order.
        let mut files: Vec<Value> = Vec::new();
        for finding in &findings {
            if !files.contains(&finding["file"]) {
                files.push(finding["file"].clone());
            }
        }
        findings.sort_by_key(|finding| files.iter().position(|file| *file == finding["file"]));
        let read = read_junit(&bytes);
        assert_eq!(read["name"], "kafkalint");
        assert_eq!(
            read["failures"].as_u64(),
            Some(findings.len() as u64),
            "{paths:?}"
        );
        assert_eq!(
            read["tests"].as_u64(),
            Some(findings.len() as u64),
            "{paths:?}"
        );
        let cases: Vec<(&Value, &Value)> = read["suites"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|suite| {
                let cases = suite["cases"].as_array().unwrap();
                assert_eq!(suite["tests"].as_u64(), Some(cases.len() as u64));
                assert_eq!(suite["failures"].as_u64(), Some(cases.len() as u64));
                cases.iter().map(move |case| (suite, case))
            })
            .collect();
        assert_eq!(cases.len(), findings.len(), "{paths:?}");
        // A file's suite appears once, and holds the findings located in it, in report order.
        let names: Vec<&str> = read["suites"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        let unique: std::collections::HashSet<&&str> = names.iter().collect();
        assert_eq!(unique.len(), names.len(), "{paths:?}");
        for ((suite, case), finding) in cases.iter().zip(&findings) {
            assert_eq!(suite["name"], finding["file"]);
            assert_eq!(
                case["name"],
                format!("org.kafkalint.{}", finding["rule"].as_str().unwrap())
            );
            assert_eq!(case["line"], finding["line"].to_string());
            assert_eq!(case["column"], finding["column"].to_string());
            let results = case["results"].as_array().unwrap();
            assert_eq!(results.len(), 1);
            assert_eq!(results[0]["kind"], "Failure");
            assert_eq!(results[0]["message"], finding["message"]);
            assert_eq!(
                results[0]["text"],
                format!(
                    "line {}, col {}, {}",
                    finding["line"],
                    finding["column"],
                    finding["message"].as_str().unwrap()
                )
            );
        }
    }
    let (_, clean) = places_and("junit", &["fixtures/seed-zk-3-brokers-fixed"]);
    let read = read_junit(&clean);
    assert_eq!(read["failures"], 0);
    assert_eq!(read["suites"][0]["cases"][0]["name"], "No errors found");
    assert_eq!(read["suites"][0]["cases"][0]["results"], json!([]));
}

#[test]
fn junit_and_gitlab_escape_what_the_files_hold() {
    if !support::external_tools("tests/formats.rs (junitparser)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a&b<c>.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka\nunknown.k\"e'y<&>=\u{1b}[31mred\n",
    )
    .unwrap();
    let junit = kafkalint(&["check", "--format", "junit", "."], dir.path());
    let read = read_junit(&junit.stdout);
    let text = read.to_string();
    assert!(text.contains("a&b<c>.properties"), "{text}");
    assert!(!String::from_utf8_lossy(&junit.stdout).contains('\u{1b}'));
    let gitlab = kafkalint(&["check", "--format", "gitlab", "."], dir.path());
    let report: Value = serde_json::from_slice(&gitlab.stdout).unwrap();
    assert!(schema_errors(&gitlab_validator(), &report).is_empty());
    assert!(
        report
            .as_array()
            .unwrap()
            .iter()
            .any(|issue| issue["location"]["path"] == "a&b<c>.properties")
    );
    assert!(!String::from_utf8_lossy(&gitlab.stdout).contains('\u{1b}'));
}

/// In `concise`, a finding in a file of several nodes is led by the node's name without its
/// file, which the path says already (`broker 2`); one in a node's own file by nothing.
#[test]
fn concise_names_the_node_of_a_file_of_several_nodes() {
    let output = kafkalint(
        &[
            "check",
            "--format",
            "concise",
            "fixtures/internal-topic-replication/bad-compose",
        ],
        root(),
    );
    let text = stdout(&output);
    assert!(
        text.lines().any(|line| line.contains(
            "docker-compose.yml:24:47: error[internal-topic-replication] broker 2: \
             offsets.topic.replication.factor=1"
        )),
        "{text}"
    );
    assert!(!text.contains("docker-compose.yml, service"), "{text}");
}

/// A finding whose labels lie far apart in one file shows each label with its own few lines,
/// not every line between them: here a group's line 1,000 lines below the partition that
/// coordinates it, both 2,000 lines down the file.
#[test]
fn full_shows_distant_labels_of_one_file_each_with_its_own_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines = vec![
        "bootstrap=127.0.0.1:9092".to_string(),
        "broker.0=127.0.0.1:9092".to_string(),
        "broker.1=127.0.0.1:9093".to_string(),
        "broker.2=127.0.0.1:9094".to_string(),
        "topic.archive=internal=false partitions=2000 min.insync.replicas=1".to_string(),
    ];
    // Far down the file: a snippet's first line counted from the top once made every two
    // labels of a file one snippet.
    lines.extend(
        (0..2000).map(|p| format!("partition.archive-{p}=leader=0 replicas=0,1,2 isr=0,1,2")),
    );
    lines.push(
        "topic.__consumer_offsets=internal=true partitions=50 min.insync.replicas=1".to_string(),
    );
    lines.extend((0..50).map(|p| {
        let broker = p % 3;
        format!("partition.__consumer_offsets-{p}=leader={broker} replicas={broker} isr={broker}")
    }));
    lines.push("topic.orders=internal=false partitions=1000 min.insync.replicas=1".to_string());
    lines.extend(
        (0..1000).map(|p| format!("partition.orders-{p}=leader=0 replicas=0,1,2 isr=0,1,2")),
    );
    // `testGroup` is coordinated by partition 49 (abs(hash) % 50), led by broker 1.
    lines.push("group.testGroup=coordinator=1 state=Stable".to_string());
    let snapshot = dir.path().join("snapshot.properties");
    std::fs::write(&snapshot, lines.join("\n") + "\n").unwrap();
    let output = kafkalint(
        &[
            "live",
            "--snapshot",
            snapshot.to_str().unwrap(),
            "--group",
            "testGroup",
            "--format",
            "full",
        ],
        dir.path(),
    );
    let text = stdout(&output);
    assert!(text.contains("── partition 49"), "{text}");
    assert!(text.contains("── coordinator 1"), "{text}");
    assert!(
        !text.contains("partition.orders-500="),
        "the lines between the two labels are drawn:\n{text}"
    );
    assert!(
        text.lines().count() < 60,
        "{} lines:\n{text}",
        text.lines().count()
    );
}

/// `full` shows a finding about several nodes once: the first node's snippet, a line for each
/// other node at its place (`path:line:column`), then the help; no snippet again per node.
#[test]
fn full_shows_a_finding_about_several_nodes_once() {
    let output = kafkalint(&["check", "--color", "never", SEED], root());
    let text = stdout(&output);
    let start = text
        .find("  × brokers 0, 1 and 2: offsets.topic.replication.factor=1")
        .unwrap_or_else(|| panic!("{text}"));
    let finding = &text[start..];
    let finding = &finding[..finding.find("\n\n").unwrap()];
    let lines: Vec<&str> = finding.lines().collect();
    let also: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| line.starts_with("  also on "))
        .collect();
    assert_eq!(
        also,
        [
            format!("  also on broker 1: {SEED}/server-1.properties:28:34"),
            format!("  also on broker 2: {SEED}/server-2.properties:28:34"),
        ]
    );
    // One snippet (broker 0's), the other nodes' lines right after it, then the help.
    assert_eq!(finding.matches("╭─[").count(), 1, "{finding}");
    let at = lines
        .iter()
        .position(|line| line.starts_with("  also on "))
        .unwrap();
    assert!(lines[at - 1].trim_start().starts_with("╰"), "{finding}");
    assert!(
        lines[at + 2].starts_with("  help: set offsets"),
        "{finding}"
    );
    assert!(!text.contains("see also fixtures/seed-zk-3-brokers/server-1.properties\n    ╭─[fixtures/seed-zk-3-brokers/server-1.properties:28:34]"));
}
