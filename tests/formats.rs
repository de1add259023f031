//! `--format concise`, `github` and `sarif`, `--output-file` and `--color`: exact lines where a
//! program parses them, the SARIF log validated against the official schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::{schema_errors, schema_validator};

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    kafkalint_env(args, dir, &[])
}

fn kafkalint_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kafkalint"));
    command.args(args).current_dir(dir).env_remove("NO_COLOR");
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

/// Where and what each of the seed's findings is, in report order: file, line, column, severity,
/// rule and the column of the span's last character (the first one for an empty span).
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
        "server-0",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
    ("server-1", 21, 10, "info", "log-dirs-in-tmp", 26),
    (
        "server-1",
        28,
        34,
        "error",
        "internal-topic-replication",
        34,
    ),
    (
        "server-1",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
    ("server-2", 21, 10, "info", "log-dirs-in-tmp", 26),
    (
        "server-2",
        28,
        34,
        "error",
        "internal-topic-replication",
        34,
    ),
    (
        "server-2",
        29,
        42,
        "error",
        "internal-topic-replication",
        42,
    ),
];

const SEED_FIRST_ERROR: &str = "broker 0 (server-0.properties): offsets.topic.replication.factor=1 on 3 brokers: one broker down, some consumer groups stop";

#[test]
fn concise_is_one_line_per_finding_and_nothing_else() {
    let output = kafkalint(&["check", "--format", "concise", SEED], root());
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), SEED_FINDINGS.len(), "{text}");
    for (line, (file, row, column, severity, rule, _)) in lines.iter().zip(SEED_FINDINGS) {
        let prefix = format!("{SEED}/{file}.properties:{row}:{column}: {severity}[{rule}] ");
        assert!(line.starts_with(&prefix), "{line}\nexpected {prefix}");
    }
    assert_eq!(
        lines[2],
        format!(
            "{SEED}/server-0.properties:28:34: error[internal-topic-replication] {SEED_FIRST_ERROR}"
        )
    );
    // The tally goes to stderr, for the person watching.
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "Found 6 errors, 1 warning, 3 notes (3 files in 1 cluster, checked against Kafka 3.9).\n"
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
            "::error file={SEED}/server-0.properties,line=28,col=34,endLine=28,endColumn=34,title=kafkalint(internal-topic-replication)::{SEED_FIRST_ERROR}"
        )
    );
    assert!(output.stderr.is_empty());
}

/// A folder named `x,y:z%` and a value with `,` `%` `:`, a newline (`\n` in the file) and an
/// ESC: each format escapes what it must and nothing else.
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
        let output = kafkalint(&["check", "--format", format, "."], dir.path());
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
        line.contains("has `zk:2181/a,b%25c%0Ad:e\\u{1b}`"),
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
    assert!(
        result["message"]["text"]
            .as_str()
            .unwrap()
            .contains("has `zk:2181/a,b%c\nd:e\\u{1b}`")
    );
}

#[test]
fn every_format_is_deterministic() {
    for format in ["concise", "github", "sarif"] {
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
fn color_is_forced_by_always_and_off_with_never_or_off_a_terminal() {
    let escape = |output: &Output| output.stdout.contains(&0x1b);
    let run = |color: &str, env: &[(&str, &str)]| {
        kafkalint_env(&["check", "--color", color, SEED], root(), env)
    };
    assert!(escape(&run("always", &[])));
    assert!(escape(&run("always", &[("NO_COLOR", "1")])), "always wins");
    assert!(!escape(&run("never", &[])));
    // Piped stdout: auto means no color.
    assert!(!escape(&run("auto", &[])));
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
