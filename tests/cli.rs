//! The command line as a user meets it: exit codes, bad input, secrets, determinism.

mod support;
use support::kafkalint_stdin;

use std::path::Path;
use std::process::{Command, Output};

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Exit 2, a one-line reason on stderr naming `expected`, no panic, nothing on stdout.
fn assert_usage_error(output: &Output, args: &[&str], expected: &str) {
    assert_eq!(
        output.status.code(),
        Some(2),
        "{args:?}: {}",
        stderr(output)
    );
    assert!(
        stderr(output).contains(expected),
        "{args:?}: {}",
        stderr(output)
    );
    assert!(!stderr(output).contains("panicked"), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} printed to stdout");
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn exit_0_when_clean_and_1_on_findings() {
    let clean = kafkalint(&["check", "fixtures/seed-zk-3-brokers-fixed"], root());
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    assert!(
        stdout(&clean)
            .contains("No problems found (3 files in 1 cluster, checked against Kafka 3.9).")
    );
    let bad = kafkalint(&["check", "fixtures/seed-zk-3-brokers"], root());
    assert_eq!(bad.status.code(), Some(1));
    assert!(stdout(&bad).contains(
        "Found 6 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9)."
    ));
}

#[test]
fn fail_on_sets_the_least_severity_that_exits_1() {
    // Warnings only: they fail the run by default and with `warning`, not with `error`.
    let warnings = "fixtures/unclean-leader-election/bad";
    for (args, code) in [
        (&["check", warnings][..], 1),
        (&["check", "--fail-on", "warning", warnings][..], 1),
        (&["check", "--fail-on", "error", warnings][..], 0),
        // Errors fail it either way.
        (
            &["check", "--fail-on", "error", "fixtures/seed-zk-3-brokers"][..],
            1,
        ),
    ] {
        let output = kafkalint(args, root());
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        // The report is the same: --fail-on changes the exit code only.
        assert!(
            stdout(&output).contains("unclean-leader-election")
                || stdout(&output).contains("internal-topic-replication"),
            "{args:?}: {}",
            stdout(&output)
        );
    }
    let default = kafkalint(&["check", warnings], root());
    let lenient = kafkalint(&["check", "--fail-on", "error", warnings], root());
    assert_eq!(stdout(&default), stdout(&lenient));
    assert!(stdout(&lenient).contains("Found 0 errors, 3 warnings"));

    // Notes never fail the run.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=0\nzookeeper.connect=localhost:2181\nlog.dirs=/tmp/kafka-logs\n\
         offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n\
         transaction.state.log.min.isr=1\n",
    )
    .unwrap();
    for fail_on in ["warning", "error"] {
        let output = kafkalint(&["check", "--fail-on", fail_on, "."], dir.path());
        assert_eq!(output.status.code(), Some(0), "{fail_on}");
        assert!(stdout(&output).contains("Found 0 errors, 0 warnings, 1 info"));
    }

    for bad in ["info", "never", "Error", ""] {
        let args = ["check", "--fail-on", bad, "fixtures/seed-zk-3-brokers"];
        assert_usage_error(&kafkalint(&args, root()), &args, "--fail-on");
    }
}

#[test]
fn kafka_version_is_a_release_line_kafkalint_knows() {
    for bad in ["5.0", "1.0", "latest", "4"] {
        let output = kafkalint(
            &[
                "check",
                "--kafka-version",
                bad,
                "fixtures/seed-zk-3-brokers",
            ],
            root(),
        );
        assert_eq!(output.status.code(), Some(2), "{bad}");
        let message = stderr(&output);
        assert!(
            message.contains("unsupported Kafka version") && message.contains("4.4"),
            "{bad}: {message}"
        );
    }
}

/// The issue's own acceptance: on Kafka 4.1, a ZooKeeper key is removed, a typo gets its
/// nearest key, and `num.partitions=zero` stops the broker, each at its exact place.
#[test]
fn an_upgrade_to_4_1_shows_removed_misspelt_and_refused_keys() {
    let output = kafkalint(
        &[
            "check",
            "--kafka-version",
            "4.1.2",
            "--format",
            "json",
            "fixtures/upgrade-to-4.1/server-1.properties",
        ],
        root(),
    );
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["clusters"][0]["kafka_version"], "4.1");
    assert_eq!(json["clusters"][0]["kafka_version_from"], "flag");
    let find = |rule: &str| {
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["rule"] == rule)
            .unwrap_or_else(|| panic!("no {rule}: {json:#}"))
            .clone()
    };
    let removed = find("removed-key");
    assert_eq!(removed["key"], "zookeeper.connect");
    assert_eq!(
        (removed["line"].as_u64(), removed["column"].as_u64()),
        (Some(15), Some(1))
    );
    let typo = find("unknown-key");
    assert_eq!(typo["key"], "offset.topic.replication.factor");
    assert!(
        typo["help"]
            .as_str()
            .unwrap()
            .contains("offsets.topic.replication.factor")
    );
    assert_eq!(
        (typo["line"].as_u64(), typo["column"].as_u64()),
        (Some(10), Some(1))
    );
    let refused = find("invalid-value");
    assert_eq!(refused["key"], "num.partitions");
    assert_eq!(refused["stops_startup"], true);
    assert_eq!(
        (refused["line"].as_u64(), refused["column"].as_u64()),
        (Some(13), Some(16))
    );
}

#[test]
fn info_alone_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("server.properties"), "broker.id=0\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\ntransaction.state.log.min.isr=1\nbroker.id=0\n").unwrap();
    let output = kafkalint(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(stdout(&output).contains("\"severity\": \"info\""));
}

#[test]
fn json_has_the_documented_shape() {
    let output = kafkalint(
        &["check", "--format", "json", "fixtures/seed-zk-3-brokers"],
        root(),
    );
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // The seed's story, its first error; warnings and notes at Kafka's defaults and at line 21
    // (log.dirs) come before it in position order.
    let first = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["severity"] == "error")
        .unwrap();
    for field in [
        "rule", "severity", "message", "subject", "file", "line", "column", "key", "labels",
        "help", "url",
    ] {
        assert!(first.get(field).is_some(), "missing {field}");
    }
    // The node whose name leads the message, as data.
    assert_eq!(
        first["subject"],
        serde_json::json!({
            "cluster": "fixtures/seed-zk-3-brokers",
            "node": { "kind": "broker", "id": "0", "file": "server-0.properties" },
            "component": null,
        })
    );
    // The same finding on the three brokers is one, about all of them: their names lead the
    // message, the other two nodes and their places are `also_on`.
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .starts_with("brokers 0, 1 and 2: ")
    );
    let also_on: Vec<(String, u64)> = first["also_on"]
        .as_array()
        .unwrap()
        .iter()
        .map(|also| {
            assert_eq!(also["node"]["kind"], "broker");
            (
                also["file"].as_str().unwrap().to_string(),
                also["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        also_on,
        [
            (
                "fixtures/seed-zk-3-brokers/server-1.properties".to_string(),
                28
            ),
            (
                "fixtures/seed-zk-3-brokers/server-2.properties".to_string(),
                28
            )
        ]
    );
    assert_eq!(
        first["file"],
        "fixtures/seed-zk-3-brokers/server-0.properties"
    );
    assert_eq!(first["line"], 28);
    assert_eq!(first["column"], 34);
    assert_eq!(first["labels"][0]["line"], 28);
    assert_eq!(document["summary"]["errors"], 6);
    assert_eq!(document["summary"]["files"], 3);
}

#[test]
fn brokers_flag_declares_the_cluster_size_of_a_templated_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=${BROKER_ID}\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n",
    )
    .unwrap();
    let alone = kafkalint(
        &["check", "--format", "json", "server.properties"],
        dir.path(),
    );
    assert!(!stdout(&alone).contains("offsets.topic.replication.factor=1 on "));
    let declared = kafkalint(
        &[
            "check",
            "--brokers",
            "3",
            "--format",
            "json",
            "server.properties",
        ],
        dir.path(),
    );
    assert_eq!(declared.status.code(), Some(1));
    assert!(stdout(&declared).contains("offsets.topic.replication.factor=1: one broker down"));
    assert!(stdout(&declared).contains("(the cluster has 3 brokers)"));
}

#[test]
fn usage_and_io_errors_exit_2_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.properties"), "").unwrap();
    std::fs::write(
        dir.path().join("junk.properties"),
        b"\x00\x01\x02\xff\xfe binary",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("consumer.properties"),
        "bootstrap.servers=localhost:9092\ngroup.id=g\n",
    )
    .unwrap();
    for (args, expected) in [
        (
            vec!["check", "missing.properties"],
            "missing.properties: no such file or directory",
        ),
        (
            vec!["check", "empty.properties"],
            "empty.properties: empty file",
        ),
        (
            vec!["check", "junk.properties"],
            "junk.properties: binary data",
        ),
        (
            vec!["check", "consumer.properties"],
            "consumer.properties: no broker or controller settings",
        ),
        (vec!["check", "--brokers", "0", "."], "--brokers"),
        (vec!["check", "--format", "xml", "."], "--format"),
        (vec!["frobnicate"], "frobnicate"),
    ] {
        assert_usage_error(&kafkalint(&args, dir.path()), &args, expected);
    }
}

#[test]
fn a_folder_with_broken_files_skips_them_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("server.properties"), b"\x00\x00junk").unwrap();
    std::fs::write(dir.path().join("consumer.properties"), "group.id=g\n").unwrap();
    let output = kafkalint(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("skipped server.properties: binary data"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn secrets_never_appear_in_any_format() {
    let dir = tempfile::tempdir().unwrap();
    let jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"jaas-pass-123\";";
    std::fs::write(
        dir.path().join("server-0.properties"),
        format!(
            "broker.id=0\nzookeeper.connect=zk:2181\ndelegation.token.secret.key=token-key-aaa\nssl.keystore.password=ks-pass-1\n\
             ssl.keystore.password=ks-pass-2\n#ssl.key.password=commented-pass\nlistener.name.sasl_plaintext.plain.sasl.jaas.config={jaas}\n\
             listener.name.sasl_plaintext.plain.sasl.jaas.config={jaas}x\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("server-1.properties"),
        "broker.id=1\nzookeeper.connect=zk:2181\ndelegation.token.secret.key=token-key-bbb\nssl.truststore.password=ts-pass\n",
    )
    .unwrap();
    // A file that cannot be loaded is still shown around its error: redacted too.
    std::fs::write(
        dir.path().join("server-2.properties"),
        "broker.id=2\nzookeeper.connect=zk:2181\nssl.key.password=broken-file-pass\nlog.dirs=C:\\users\n",
    )
    .unwrap();
    for format in ["full", "json", "concise", "github", "sarif"] {
        let output = kafkalint(&["check", "--format", format, "."], dir.path());
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            text.contains("delegation.token.secret.key"),
            "{format}: the finding is there:\n{text}"
        );
        for secret in [
            "token-key-aaa",
            "token-key-bbb",
            "ks-pass-1",
            "ks-pass-2",
            "commented-pass",
            "jaas-pass-123",
            "ts-pass",
            "broken-file-pass",
        ] {
            assert!(!text.contains(secret), "{format} shows {secret}:\n{text}");
        }
    }
}

#[test]
fn plaintext_secret_findings_never_show_the_secret() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181\nssl.keystore.password=plain-ks-777\n\
         listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule \
         required username=\"admin\" password=\"plain-jaas-778\" user_alice=\"plain-alice-779\";\n\
         password.encoder.secret=plain-enc-780\n",
    )
    .unwrap();
    for format in ["full", "json"] {
        let output = kafkalint(&["check", "--format", format, "."], dir.path());
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert_eq!(
            text.matches("plaintext-secret.md").count(),
            3,
            "{format}: one finding per secret line:\n{text}"
        );
        for secret in [
            "plain-ks-777",
            "plain-jaas-778",
            "plain-alice-779",
            "plain-enc-780",
        ] {
            assert!(!text.contains(secret), "{format} shows {secret}:\n{text}");
        }
    }
}

#[test]
fn output_is_deterministic() {
    let first = kafkalint(&["check", "--format", "json", "fixtures"], root());
    let second = kafkalint(&["check", "--format", "json", "fixtures"], root());
    assert_eq!(first.stdout, second.stdout);
    let full = kafkalint(&["check", "fixtures"], root());
    assert_eq!(
        full.stdout,
        kafkalint(&["check", "fixtures"], root()).stdout
    );
}

#[test]
fn control_characters_in_values_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server-0.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181/\x1b[31mred\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("server-1.properties"),
        "broker.id=1\nzookeeper.connect=zk:2181/blue\n",
    )
    .unwrap();
    let output = kafkalint(&["check", "."], dir.path());
    assert!(
        !output.stdout.contains(&0x1b),
        "raw ESC sent to the terminal"
    );
    assert!(stdout(&output).contains("\\u{1b}"));
}

#[test]
fn rules_lists_every_rule_in_registry_order_in_columns() {
    let output = kafkalint(&["rules"], root());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), kafkalint::rules::RULES.len());
    let summary_column = lines[0].find(kafkalint::rules::RULES[0].summary).unwrap();
    for (line, rule) in lines.iter().zip(kafkalint::rules::RULES) {
        let mut words = line.split_whitespace();
        assert_eq!(words.next(), Some(rule.name), "{line}");
        assert_eq!(words.next(), Some(rule.severity.as_str()), "{line}");
        assert_eq!(words.next(), Some(rule.group.as_str()), "{line}");
        assert_eq!(line.find(rule.summary), Some(summary_column), "{line}");
    }
}

#[test]
fn rule_prints_the_embedded_doc() {
    // Run from elsewhere: the doc is in the binary, not read from rules/.
    let dir = tempfile::tempdir().unwrap();
    let output = kafkalint(&["rule", "unused-suppression"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let doc = std::fs::read_to_string(root().join("rules/unused-suppression.md")).unwrap();
    assert_eq!(stdout(&output), doc);
}

#[test]
fn an_unknown_rule_exits_2_with_the_nearest_name() {
    let output = kafkalint(&["rule", "duplicate-keys"], root());
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = stderr(&output);
    assert!(
        message.contains("no rule named `duplicate-keys`")
            && message.contains("did you mean `duplicate-key`?"),
        "{message}"
    );
    let far = kafkalint(&["rule", "frobnicate"], root());
    assert_eq!(far.status.code(), Some(2));
    assert!(!stderr(&far).contains("did you mean"), "{}", stderr(&far));
}

#[test]
fn a_suppressed_finding_disappears_and_is_counted() {
    let dir = tempfile::tempdir().unwrap();
    let file = "broker.id=0\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\ntransaction.state.log.min.isr=1\nlog.dirs=/var/lib/kafka\nunclean.leader.election.enable=true\n";
    std::fs::write(dir.path().join("server.properties"), file).unwrap();
    let reported = kafkalint(&["check", "."], dir.path());
    assert_eq!(reported.status.code(), Some(1));
    assert!(stdout(&reported).contains("unclean-leader-election"));

    let suppressed = file.replace(
        "unclean.leader.election.enable",
        "# kafkalint: ignore[unclean-leader-election] a cache\nunclean.leader.election.enable",
    );
    std::fs::write(dir.path().join("server.properties"), suppressed).unwrap();
    let output = kafkalint(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).starts_with("No problems found, 1 suppressed ("),
        "{}",
        stdout(&output)
    );
}

#[test]
fn unknown_and_unused_suppressions_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n\
         # kafkalint: ignore[unclean-leader-elections] typo\nunclean.leader.election.enable=true\n\
         ! kafkalint: ignore-file[duplicate-key]\n",
    )
    .unwrap();
    let output = kafkalint(&["check", "--format", "json", "."], dir.path());
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let unused: Vec<&serde_json::Value> = json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "unused-suppression")
        .collect();
    assert_eq!(unused.len(), 2, "{unused:#?}");
    assert_eq!(
        (unused[0]["line"].as_u64(), unused[0]["column"].as_u64()),
        (Some(4), Some(21))
    );
    assert!(
        unused[0]["help"]
            .as_str()
            .unwrap()
            .contains("did you mean `unclean-leader-election`?")
    );
    assert_eq!(unused[1]["line"], 6);
    assert!(
        json["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "unclean-leader-election"),
        "a misspelt suppression suppresses nothing"
    );
}

#[test]
fn suppression_comments_never_show_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n\
         # kafkalint: ignore[plaintext-secret] rotated weekly\nssl.keystore.password=supp-pass-1\n\
         ssl.key.password=supp-pass-2 # kafkalint: ignore[plaintext-secret]\n\
         # kafkalint: ignore[supp-pass-3] ssl.truststore.password=supp-pass-4\nssl.truststore.password=${file:/s:p}\n\
         # kafkalint: ignore[plaintext-secret]\n#ssl.keystore.key=supp-pass-5\n",
    )
    .unwrap();
    for format in ["full", "json"] {
        let output = kafkalint(&["check", "--format", format, "."], dir.path());
        let text = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            text.contains("unused-suppression"),
            "{format}: the findings are there:\n{text}"
        );
        for secret in ["supp-pass-1", "supp-pass-2", "supp-pass-4", "supp-pass-5"] {
            assert!(!text.contains(secret), "{format} shows {secret}:\n{text}");
        }
    }
}

fn diagnostics(output: &Output) -> Vec<serde_json::Value> {
    let json: serde_json::Value = serde_json::from_str(&stdout(output)).unwrap();
    json["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn stdin_buffer_replaces_its_file_within_the_folder_cluster() {
    let path = "fixtures/seed-zk-3-brokers/server-0.properties";
    let on_disk = std::fs::read(root().join(path)).unwrap();
    let args = ["check", "--format", "json", "--stdin-filename", path, "-"];
    // The bad buffer: only server-0's findings, but judged against its two siblings.
    let bad = kafkalint_stdin(&args, &on_disk, root());
    assert_eq!(bad.status.code(), Some(1), "{}", stderr(&bad));
    let found = diagnostics(&bad);
    assert!(!found.is_empty());
    assert!(found.iter().all(|d| d["file"] == path), "{found:#?}");
    assert!(found.iter().any(|d| {
        d["rule"] == "internal-topic-replication"
            && d["message"]
                .as_str()
                .unwrap()
                .contains("offsets.topic.replication.factor=1: one broker down")
            && d["help"]
                .as_str()
                .unwrap()
                .contains("(the cluster has 3 brokers)")
    }));
    // The same findings for server-0 as a check of the whole folder, where each is one about
    // the three brokers: the same lines of server-0 in the formats with a line a place.
    let concise = |output: &std::process::Output| -> Vec<String> {
        stdout(output)
            .lines()
            .filter(|line| line.starts_with(path))
            .map(str::to_string)
            .collect()
    };
    let concise_args = [
        "check",
        "--format",
        "concise",
        "--stdin-filename",
        path,
        "-",
    ];
    let buffer = kafkalint_stdin(&concise_args, &on_disk, root());
    let folder = kafkalint(
        &["check", "--format", "concise", "fixtures/seed-zk-3-brokers"],
        root(),
    );
    assert_eq!(concise(&buffer).len(), found.len());
    assert_eq!(concise(&buffer), concise(&folder));

    // A fixed buffer: server-0's own findings are gone. Its siblings still hold RF=1, so what
    // is left is the one finding that says the cluster now disagrees with itself.
    let fixed_path = "fixtures/seed-zk-3-brokers-fixed/server-0.properties";
    let fixed = std::fs::read(root().join(fixed_path)).unwrap();
    let fixed_here = kafkalint_stdin(&args, &fixed, root());
    let left = diagnostics(&fixed_here);
    assert!(!left.is_empty());
    assert!(
        left.iter()
            .all(|d| d["rule"] == "inconsistent-cluster-value" && d["file"] == path),
        "{left:#?}"
    );
    // Among fixed siblings, the fixed buffer is clean: exit 0.
    let clean = kafkalint_stdin(
        &["check", "--stdin-filename", fixed_path, "-"],
        &fixed,
        root(),
    );
    assert_eq!(clean.status.code(), Some(0), "{}", stdout(&clean));
    assert!(
        stdout(&clean)
            .contains("No problems found (3 files in 1 cluster, checked against Kafka 3.9)."),
        "{}",
        stdout(&clean)
    );
}

#[test]
fn stdin_buffer_keeps_consistency_findings_that_point_at_it() {
    // inconsistent-cluster-value is located in server-0 and labels server-1: a buffer for
    // server-1 keeps it (changing server-1 is one fix); server-0's own findings are dropped.
    let path = "fixtures/inconsistent-cluster-value/bad/server-1.properties";
    let bytes = std::fs::read(root().join(path)).unwrap();
    let output = kafkalint_stdin(
        &["check", "--format", "json", "--stdin-filename", path, "-"],
        &bytes,
        root(),
    );
    let found = diagnostics(&output);
    assert!(
        found
            .iter()
            .any(|d| d["rule"] == "inconsistent-cluster-value"),
        "{found:#?}"
    );
    assert!(found.iter().all(|d| {
        d["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|label| label["file"] == path)
    }));
    assert!(
        !found
            .iter()
            .any(|d| d["rule"] == "log-dirs-in-tmp" && d["file"] != path)
    );
}

#[test]
fn stdin_buffer_for_a_new_file_joins_the_folder_cluster() {
    let dir = tempfile::tempdir().unwrap();
    for id in [0, 1] {
        std::fs::write(
            dir.path().join(format!("server-{id}.properties")),
            format!("broker.id={id}\nzookeeper.connect=zk:2181\n"),
        )
        .unwrap();
    }
    let output = kafkalint_stdin(
        &[
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "server-2.properties",
            "-",
        ],
        b"broker.id=2\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n",
        dir.path(),
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        json["clusters"][0]["files"],
        serde_json::json!([
            "server-0.properties",
            "server-1.properties",
            "server-2.properties"
        ])
    );
    let found = json["diagnostics"].as_array().unwrap();
    assert!(found.iter().all(|d| {
        d["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|label| label["file"] == "server-2.properties")
    }));
    assert!(found.iter().any(|d| {
        d["message"]
            .as_str()
            .unwrap()
            .contains("offsets.topic.replication.factor=1: one broker down")
            && d["help"]
                .as_str()
                .unwrap()
                .contains("(the cluster has 3 brokers)")
    }));
    // Not written to disk.
    assert!(!dir.path().join("server-2.properties").exists());
}

#[test]
fn stdin_usage_and_buffer_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("server-0.properties"), "broker.id=0\n").unwrap();
    for (args, input, expected) in [
        (
            vec!["check", "-"],
            &b"broker.id=0\n"[..],
            "--stdin-filename",
        ),
        (
            vec!["check", "--stdin-filename", "server-0.properties"],
            b"broker.id=0\n",
            "give `-` as the only path",
        ),
        (
            vec!["check", "--stdin-filename", "server-0.properties", "-", "."],
            b"broker.id=0\n",
            "give `-` as the only path",
        ),
        (
            vec!["check", "--stdin-filename", "server-0.properties", "-"],
            b"",
            "server-0.properties: empty file",
        ),
        (
            vec!["check", "--stdin-filename", "server-0.properties", "-"],
            b"\x00\x01\x02\xff\xfe binary",
            "server-0.properties: binary data",
        ),
        (
            vec!["check", "--stdin-filename", "consumer.properties", "-"],
            b"bootstrap.servers=localhost:9092\n",
            "consumer.properties: no broker or controller settings",
        ),
    ] {
        assert_usage_error(&kafkalint_stdin(&args, input, dir.path()), &args, expected);
    }
}

#[test]
fn stdin_output_is_deterministic() {
    let path = "fixtures/seed-zk-3-brokers/server-1.properties";
    let bytes = std::fs::read(root().join(path)).unwrap();
    for format in ["full", "json", "concise"] {
        let args = ["check", "--format", format, "--stdin-filename", path, "-"];
        assert_eq!(
            kafkalint_stdin(&args, &bytes, root()).stdout,
            kafkalint_stdin(&args, &bytes, root()).stdout,
            "{format}"
        );
    }
}

#[test]
fn a_working_folder_without_kafka_is_said_not_an_error_and_another_folder_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.py"), "print('hello')\n").unwrap();
    std::fs::write(
        dir.path().join("docker-compose.yml"),
        "services:\n  db:\n    image: postgres:16\n",
    )
    .unwrap();
    // A repository's root, as the GitHub Action's default `paths: .` checks it.
    let output = kafkalint(&["check", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("kafkalint: note: .: no Kafka configuration in it or below"),
        "{}",
        stderr(&output)
    );
    // A folder named on purpose that holds nothing to check is a wrong path.
    let output = kafkalint(&["check", "src"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("src: a folder with no broker or controller files"),
        "{}",
        stderr(&output)
    );
}

/// One broker file of a numbered set, named alone, is judged within its set: the seed's
/// server-0.properties alone is the finding the whole folder gives it, not a clean cluster of
/// one; a note says how it was read. With `--brokers`, the user gave the count: it is checked
/// alone.
#[test]
fn a_lone_file_of_a_numbered_set_is_checked_with_its_siblings() {
    let path = "fixtures/seed-zk-3-brokers/server-0.properties";
    let alone = kafkalint(&["check", "--format", "concise", path], root());
    assert_eq!(alone.status.code(), Some(1), "{}", stderr(&alone));
    let lines: Vec<String> = stdout(&alone).lines().map(str::to_string).collect();
    assert!(
        lines.iter().all(|line| line.starts_with(path)),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|line| line
                .starts_with(&format!("{path}:28:34: error[internal-topic-replication] "))),
        "{lines:#?}"
    );
    let folder = kafkalint(
        &["check", "--format", "concise", "fixtures/seed-zk-3-brokers"],
        root(),
    );
    let of_server_0: Vec<String> = stdout(&folder)
        .lines()
        .filter(|line| line.starts_with(path))
        .map(str::to_string)
        .collect();
    assert_eq!(lines, of_server_0);
    assert!(
        stderr(&alone).starts_with(&format!(
            "kafkalint: note: {path}: checked with the rest of its numbered set \
             (server-1.properties, server-2.properties)"
        )),
        "{}",
        stderr(&alone)
    );

    // Named with its folder: read once with the folder, no note.
    let with_folder = kafkalint(
        &[
            "check",
            "--format",
            "concise",
            path,
            "fixtures/seed-zk-3-brokers",
        ],
        root(),
    );
    assert!(
        !stderr(&with_folder).contains("note:"),
        "{}",
        stderr(&with_folder)
    );

    // --brokers 3: the file stands for the cluster, as the user said.
    let counted = kafkalint(
        &["check", "--format", "concise", "--brokers", "3", path],
        root(),
    );
    assert_eq!(counted.status.code(), Some(1));
    assert!(
        !stderr(&counted).contains("numbered set"),
        "{}",
        stderr(&counted)
    );
}

/// A node file named alone, of no numbered set, is a cluster of one: the summary's note says
/// so and how to give the real count.
#[test]
fn a_node_file_named_alone_is_said_to_be_a_cluster_of_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "broker.id=0\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka\n\
         offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n\
         transaction.state.log.min.isr=1\n",
    )
    .unwrap();
    let output = kafkalint(&["check", "server.properties"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stderr(&output).starts_with(
            "kafkalint: note: server.properties: checked alone, as a cluster of one node \
             (findings that depend on the broker count assume 1): where the cluster has more, \
             pass --brokers N or the other nodes' files\n"
        ),
        "{}",
        stderr(&output)
    );
    let counted = kafkalint(
        &["check", "--brokers", "3", "server.properties"],
        dir.path(),
    );
    assert_eq!(counted.status.code(), Some(1), "{}", stdout(&counted));
    assert!(!stderr(&counted).contains("checked alone"));
    let folder = kafkalint(&["check", "."], dir.path());
    assert!(!stderr(&folder).contains("checked alone"));
}

/// The rules of the findings `kafkalint check --format json ARGS` reports, in order.
fn rules_reported(args: &[&str], dir: &Path) -> Vec<String> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let output = kafkalint(&all, dir);
    assert!(
        output.status.code().is_some_and(|code| code < 2),
        "{args:?}: {}",
        stderr(&output)
    );
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    // A finding about several nodes, once a node.
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|finding| {
            let places = 1 + finding["also_on"].as_array().map_or(0, Vec::len);
            std::iter::repeat_n(finding["rule"].as_str().unwrap().to_string(), places)
        })
        .collect()
}

/// A copy of the fixture folder `name` in a scratch folder, with `config` as its
/// kafkalint.toml (none when empty).
fn scratch_copy(name: &str, config: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join(name)).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "properties") {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    if !config.is_empty() {
        std::fs::write(dir.path().join("kafkalint.toml"), config).unwrap();
    }
    dir
}

#[test]
fn select_extend_select_and_ignore_take_rules_and_groups() {
    let seed = "fixtures/seed-zk-3-brokers";
    let all = rules_reported(&[seed], root());
    assert!(all.contains(&"log-dirs-in-tmp".to_string()));
    assert!(all.contains(&"internal-topic-replication".to_string()));
    let only = rules_reported(&["--select", "log-dirs-in-tmp", seed], root());
    assert!(
        !only.is_empty() && only.iter().all(|rule| rule == "log-dirs-in-tmp"),
        "{only:?}"
    );
    // Comma-separated and repeated alike.
    let two = rules_reported(
        &[
            "--select",
            "log-dirs-in-tmp,auto-create-single-replica",
            seed,
        ],
        root(),
    );
    let repeated = rules_reported(
        &[
            "--select",
            "log-dirs-in-tmp",
            "--select",
            "auto-create-single-replica",
            seed,
        ],
        root(),
    );
    assert_eq!(two, repeated);
    assert!(two.contains(&"auto-create-single-replica".to_string()));
    assert!(!two.contains(&"internal-topic-replication".to_string()));
    // A group, and a rule name that wins over its group either way.
    let availability = rules_reported(&["--select", "availability", seed], root());
    assert!(availability.contains(&"internal-topic-replication".to_string()));
    let but_one = rules_reported(
        &[
            "--select",
            "availability",
            "--ignore",
            "internal-topic-replication",
            seed,
        ],
        root(),
    );
    assert!(!but_one.contains(&"internal-topic-replication".to_string()));
    assert_eq!(
        but_one.len()
            + all
                .iter()
                .filter(|r| *r == "internal-topic-replication")
                .count(),
        availability.len()
    );
    let ignored = rules_reported(&["--ignore", "availability", seed], root());
    assert!(!ignored.contains(&"internal-topic-replication".to_string()));
    let named = rules_reported(
        &[
            "--ignore",
            "availability",
            "--extend-select",
            "internal-topic-replication",
            seed,
        ],
        root(),
    );
    assert!(named.contains(&"internal-topic-replication".to_string()));
    assert!(!named.contains(&"log-dirs-in-tmp".to_string()));
}

#[test]
fn the_command_line_combines_with_kafkalint_toml_as_ruff_does() {
    let dir = scratch_copy(
        "fixtures/seed-zk-3-brokers",
        "select = [\"log-dirs-in-tmp\"]\nignore = [\"internal-topic-replication\"]\n",
    );
    let by_file = rules_reported(&["."], dir.path());
    assert!(!by_file.is_empty() && by_file.iter().all(|rule| rule == "log-dirs-in-tmp"));
    // --extend-select adds to the file's select.
    let extended = rules_reported(
        &["--extend-select", "auto-create-single-replica", "."],
        dir.path(),
    );
    assert!(extended.contains(&"log-dirs-in-tmp".to_string()));
    assert!(extended.contains(&"auto-create-single-replica".to_string()));
    // --select replaces the file's select, and its ignores with it.
    let replaced = rules_reported(&["--select", "internal-topic-replication", "."], dir.path());
    assert!(
        !replaced.is_empty()
            && replaced
                .iter()
                .all(|rule| rule == "internal-topic-replication")
    );
    // --ignore adds to the file's ignores.
    let none = rules_reported(&["--ignore", "log-dirs-in-tmp", "."], dir.path());
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn an_unknown_rule_or_group_is_one_line_naming_it_and_the_nearest() {
    for (flag, name, expected) in [
        (
            "--select",
            "log-dirs-in-tpm",
            "--select: no rule or rule group named `log-dirs-in-tpm`; did you mean `log-dirs-in-tmp`?",
        ),
        (
            "--ignore",
            "hygeine",
            "--ignore: no rule or rule group named `hygeine`; did you mean `hygiene`?",
        ),
        (
            "--extend-select",
            "zzzz",
            "--extend-select: no rule or rule group named `zzzz` (`kafkalint rules` lists the rules and their groups)",
        ),
    ] {
        for command in [&["check"][..], &["live", "--snapshot", "no-such-snapshot"]] {
            let mut args = command.to_vec();
            args.extend([flag, name, "fixtures/seed-zk-3-brokers"]);
            let output = kafkalint(&args, root());
            assert_usage_error(&output, &args, expected);
            assert_eq!(
                stderr(&output).lines().count(),
                1,
                "{args:?}: {}",
                stderr(&output)
            );
        }
    }
}

#[test]
fn selecting_a_strict_rule_runs_it_without_strict_mode() {
    let dir = scratch_copy("fixtures/node-settings-differ/bad", "");
    let differ = "node-settings-differ".to_string();
    assert!(!rules_reported(&["."], dir.path()).contains(&differ));
    assert!(
        !rules_reported(&["--select", "hygiene,consistency", "."], dir.path()).contains(&differ)
    );
    for selected in ["strict", "node-settings-differ"] {
        let found = rules_reported(&["--select", selected, "."], dir.path());
        assert!(
            !found.is_empty() && found.iter().all(|rule| *rule == differ),
            "{selected}: {found:?}"
        );
        assert!(rules_reported(&["--extend-select", selected, "."], dir.path()).contains(&differ));
    }
    let ignored = rules_reported(
        &[
            "--select",
            "strict",
            "--ignore",
            "node-settings-differ",
            ".",
        ],
        dir.path(),
    );
    assert!(ignored.is_empty(), "{ignored:?}");
}

#[test]
fn a_suppression_of_a_rule_that_does_not_run_is_not_called_unused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server.properties"),
        "node.id=1\nprocess.roles=broker,controller\ncontroller.quorum.voters=1@localhost:9093\n\
         listeners=PLAINTEXT://:9092,CONTROLLER://:9093\ncontroller.listener.names=CONTROLLER\n\
         log.dirs=/var/lib/kafka\n# kafkalint: ignore[unknown-key]\nlog.retention.hourz=5\n\
         # kafkalint: ignore[duplicate-key]\nnum.partitions=3\n",
    )
    .unwrap();
    let unused = "unused-suppression".to_string();
    let all = rules_reported(&["."], dir.path());
    assert_eq!(
        all.iter().filter(|rule| **rule == unused).count(),
        1,
        "{all:?}"
    );
    // The unknown-key suppression is used; the duplicate-key one is not, unless duplicate-key
    // does not run, when nothing can tell.
    for args in [
        vec!["--select", "unused-suppression", "."],
        vec!["--ignore", "duplicate-key", "."],
        vec!["--select", "startup-refusal,unused-suppression", "."],
    ] {
        let found = rules_reported(&args, dir.path());
        assert!(!found.contains(&unused), "{args:?}: {found:?}");
    }
    let still = rules_reported(&["--select", "hygiene", "."], dir.path());
    assert_eq!(
        still.iter().filter(|rule| **rule == unused).count(),
        1,
        "{still:?}"
    );
}

#[test]
fn exit_zero_passes_findings_but_not_errors() {
    let bad = kafkalint(
        &["check", "--exit-zero", "fixtures/seed-zk-3-brokers"],
        root(),
    );
    assert_eq!(bad.status.code(), Some(0));
    assert!(stdout(&bad).contains("Found 6 errors"));
    let missing = kafkalint(&["check", "--exit-zero", "no/such/folder"], root());
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    let unknown = kafkalint(
        &[
            "check",
            "--exit-zero",
            "--select",
            "nope",
            "fixtures/seed-zk-3-brokers",
        ],
        root(),
    );
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn statistics_count_each_rules_findings_most_first() {
    let tree = "fixtures";
    let reported = rules_reported(&[tree], root());
    let mut expected: Vec<(usize, String)> = Vec::new();
    for rule in &reported {
        match expected.iter_mut().find(|(_, name)| name == rule) {
            Some((count, _)) => *count += 1,
            None => expected.push((1, rule.clone())),
        }
    }
    expected.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let text = kafkalint(&["check", "--statistics", tree], root());
    assert_eq!(text.status.code(), Some(1));
    let lines: Vec<(usize, String, String)> = stdout(&text)
        .lines()
        .map(|line| {
            let columns: Vec<&str> = line.split('\t').collect();
            assert_eq!(columns.len(), 3, "{line}");
            (
                columns[0].trim().parse().unwrap(),
                columns[1].trim().to_string(),
                columns[2].to_string(),
            )
        })
        .collect();
    let counted: Vec<(usize, String)> = lines
        .iter()
        .map(|(n, rule, _)| (*n, rule.clone()))
        .collect();
    assert_eq!(counted, expected);
    for (_, rule, rest) in &lines {
        let summary = kafkalint::rules::find(rule).unwrap().summary;
        assert!(
            rest == &format!("[*] {summary}") || rest == &format!("[ ] {summary}"),
            "{rest}"
        );
    }
    assert!(lines.iter().any(|line| line.2.starts_with("[*] ")));
    let json = kafkalint(&["check", "--statistics", "--format", "json", tree], root());
    let document: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let from_json: Vec<(usize, String)> = document
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["count"].as_u64().unwrap() as usize,
                row["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(from_json, expected);
    let clean = kafkalint(
        &["check", "--statistics", "fixtures/seed-zk-3-brokers-fixed"],
        root(),
    );
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stdout.is_empty());
}

#[test]
fn quiet_prints_the_findings_only() {
    let tree = "fixtures";
    let loud = kafkalint(&["check", tree], root());
    assert!(
        !loud.stderr.is_empty(),
        "the tree has skipped files and notes"
    );
    let quiet = kafkalint(&["check", "-q", tree], root());
    assert_eq!(quiet.status.code(), Some(1));
    assert!(quiet.stderr.is_empty(), "{}", stderr(&quiet));
    assert!(!stdout(&quiet).contains("Found "));
    let seed = "fixtures/seed-zk-3-brokers";
    let loud = stdout(&kafkalint(&["check", seed], root()));
    // The summary, and what `--fix` would make.
    let lines: Vec<&str> = loud.lines().collect();
    let summary = lines[lines.len() - 2..].join("\n");
    assert!(summary.starts_with("Found "), "{summary}");
    assert!(summary.contains("\nNo fixes available ("), "{summary}");
    let quiet = stdout(&kafkalint(&["check", "--quiet", seed], root()));
    assert!(
        quiet == loud.strip_suffix(&format!("{summary}\n")).unwrap(),
        "the findings alone"
    );
    let concise = kafkalint(&["check", "--quiet", "--format", "concise", tree], root());
    assert!(concise.stderr.is_empty());
    assert!(!concise.stdout.is_empty());
}

#[test]
fn show_settings_names_the_config_release_and_members_with_their_reasons() {
    let dir = scratch_copy("fixtures/seed-zk-3-brokers", "kafka-version = \"3.6\"\n");
    let output = kafkalint(&["check", "--show-settings", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("Config file: kafkalint.toml\n  Rules: every rule runs"),
        "{text}"
    );
    assert!(
        text.contains("  Kafka release: 3.6 (kafka-version in kafkalint.toml)\n"),
        "{text}"
    );
    assert!(
        text.contains("  Nodes: 3 brokers, 0 controllers\n"),
        "{text}"
    );
    assert!(
        text.contains("  Gathered as: the node files of folder .\n"),
        "{text}"
    );
    for id in 0..3 {
        assert!(
            text.contains(&format!("    server-{id}.properties: broker {id}\n")),
            "{text}"
        );
    }
    // No findings are printed, and the run is the same every time.
    assert!(!text.contains("internal-topic-replication"));
    assert_eq!(
        kafkalint(&["check", "--show-settings", "."], dir.path()).stdout,
        output.stdout
    );
    // The flag wins, and says so; the selection shows.
    let flagged = kafkalint(
        &[
            "check",
            "--show-settings",
            "--kafka-version",
            "4.0",
            "--select",
            "hygiene",
            "--ignore",
            "unknown-key",
            ".",
        ],
        dir.path(),
    );
    let text = stdout(&flagged);
    assert!(
        text.contains("  Kafka release: 4.0 (--kafka-version)\n"),
        "{text}"
    );
    let hygiene: Vec<&str> = kafkalint::rules::RULES
        .iter()
        .filter(|rule| rule.group == kafkalint::rules::Group::Hygiene && rule.name != "unknown-key")
        .map(|rule| rule.name)
        .collect();
    assert!(
        text.contains(&format!(
            "  Rules: {} of {} run: {}\n",
            hygiene.len(),
            kafkalint::rules::RULES.len(),
            hygiene.join(", ")
        )),
        "{text}"
    );
    // Without a config file, the release the files show; a compose file's services.
    let none = stdout(&kafkalint(
        &["check", "--show-settings", "fixtures/seed-zk-3-brokers"],
        root(),
    ));
    assert!(none.starts_with("Config file: none\n"), "{none}");
    assert!(
        none.contains("  Kafka release: 3.9 (what its files show)\n"),
        "{none}"
    );
}

#[test]
fn version_names_the_catalogues_releases() {
    let output = kafkalint(&["--version"], root());
    let releases = kafkalint::catalog::VERSIONS;
    assert_eq!(
        stdout(&output),
        format!(
            "kafkalint {} (Kafka {} to {})\n",
            env!("CARGO_PKG_VERSION"),
            releases[0],
            releases[releases.len() - 1]
        )
    );
}

#[test]
fn live_takes_the_same_controls() {
    // A snapshot that one live rule alone reports on: replicas out of sync.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.snapshot");
    std::fs::write(
        &path,
        "bootstrap=kafka-0:9092\nbroker.0=kafka-0:9092\nbroker.1=kafka-1:9092\n\
         topic.orders=internal=false partitions=2 min.insync.replicas=1\n\
         partition.orders-0=leader=0 replicas=0,1 isr=0\n\
         partition.orders-1=leader=1 replicas=1,0 isr=1\n",
    )
    .unwrap();
    let snapshot = path.to_str().unwrap();
    let live =
        |args: &[&str]| kafkalint(&[&["live", "--snapshot", snapshot], args].concat(), root());
    let all = live(&["--format", "concise"]);
    assert_eq!(all.status.code(), Some(1));
    let findings = stdout(&all).lines().count();
    assert!(
        findings > 0
            && stdout(&all)
                .lines()
                .all(|line| line.contains("[live-partition-health]"))
    );
    let statistics = live(&["--statistics"]);
    assert_eq!(statistics.status.code(), Some(1));
    assert_eq!(
        stdout(&statistics),
        format!(
            "{findings}\tlive-partition-health\t{}\n",
            kafkalint::rules::find("live-partition-health")
                .unwrap()
                .summary
        )
    );
    let ignored = live(&[
        "--ignore",
        "live-partition-health",
        "--format",
        "concise",
        "-q",
    ]);
    assert_eq!(ignored.status.code(), Some(0));
    assert!(
        ignored.stdout.is_empty() && ignored.stderr.is_empty(),
        "{}",
        stderr(&ignored)
    );
    let passed = live(&["--exit-zero", "--format", "gitlab"]);
    assert_eq!(passed.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&passed.stdout).unwrap();
    assert_eq!(report.as_array().unwrap().len(), findings);
}

#[test]
fn show_settings_names_a_declared_clusters_entry_and_release() {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["prod", "stage"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
    }
    for id in 0..3 {
        let name = format!("server-{id}.properties");
        std::fs::copy(
            root().join("fixtures/seed-zk-3-brokers").join(&name),
            dir.path().join("prod").join(&name),
        )
        .unwrap();
    }
    std::fs::copy(
        root().join("fixtures/seed-zk-3-brokers/server-0.properties"),
        dir.path().join("stage/server-0.properties"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("kafkalint.toml"),
        "kafka-version = \"3.8\"\n[[clusters]]\nname = \"prod\"\nfiles = [\"prod/*.properties\"]\nkafka-version = \"3.6\"\n",
    )
    .unwrap();
    let text = stdout(&kafkalint(&["check", "--show-settings", "."], dir.path()));
    let prod = text
        .split("\nCluster ")
        .find(|part| part.starts_with("prod\n"))
        .unwrap();
    assert!(
        prod.contains(
            "  Kafka release: 3.6 (kafka-version of its [[clusters]] entry in kafkalint.toml)\n"
        ),
        "{text}"
    );
    assert!(
        prod.contains("  Gathered as: [[clusters]] entry prod of the config file\n"),
        "{text}"
    );
    assert!(
        prod.contains("    prod/server-2.properties: broker 2\n"),
        "{text}"
    );
    let stage = text
        .split("\nCluster ")
        .find(|part| part.starts_with("stage\n"))
        .unwrap();
    assert!(
        stage.contains("  Kafka release: 3.8 (kafka-version in kafkalint.toml)\n"),
        "{text}"
    );
    assert!(
        stage.contains("  Nodes: 1 broker, 0 controllers\n"),
        "{text}"
    );
}

/// A broken YAML list can make a node's id of the next line's password (`KAFKA_NODE_ID` whose
/// value runs on into `- KAFKA_SSL_KEY_PASSWORD=...`): the id names the node in messages and in
/// `--format json`'s nodes, and no format, nor `--show-settings`, may show it. Found by the
/// property test of the YAML sources.
#[test]
fn a_node_id_that_reads_as_a_credential_is_never_shown() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("docker-compose.yml"),
        "services:\n  kafka-1:\n    image: apache/kafka:3.9.0\n    environment:\n      \
         KAFKA_NODE_ID: 1\n      KAFKA_LOG_DIRS: /tmp/kafka-logs\n      \
         KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n  kafka-2:\n    image: apache/kafka:3.9.0\n    \
         environment:\n      - KAFKA_NODE_ID      - KAFKA_SSL_KEY_PASSWORD=Zq7keySecret\n      \
         - KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1\n",
    )
    .unwrap();
    let mut runs: Vec<Vec<&str>> = [
        "full", "concise", "json", "github", "sarif", "gitlab", "junit",
    ]
    .iter()
    .map(|format| vec!["check", "--color", "never", "--format", format, "."])
    .collect();
    runs.push(vec!["check", "--show-settings", "."]);
    for args in runs {
        let output = kafkalint(&args, dir.path());
        let shown = format!("{}{}", stdout(&output), stderr(&output));
        assert!(shown.contains("kafka-2"), "{args:?}: {shown}");
        assert!(!shown.contains("Zq7keySecret"), "{args:?}: {shown}");
    }
}

/// Each shell's script names the subcommands, and a shell that is installed reads it without a
/// syntax error (`bash -n`, `zsh -n`, `fish --no-execute`); a shell that is not is said skipped.
#[test]
fn completions_for_each_shell_name_the_subcommands_and_parse() {
    let scratch = tempfile::tempdir().unwrap();
    for (shell, check) in [
        ("bash", Some(("bash", &["-n"][..]))),
        ("zsh", Some(("zsh", &["-n"][..]))),
        ("fish", Some(("fish", &["--no-execute"][..]))),
        ("powershell", None),
        ("elvish", None),
    ] {
        let output = kafkalint(&["completions", shell], root());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{shell}: {}",
            stderr(&output)
        );
        let script = stdout(&output);
        for subcommand in ["check", "coordinator", "live", "completions"] {
            assert!(script.contains(subcommand), "{shell}: no {subcommand}");
        }
        assert!(script.contains("kafka-version"), "{shell}: no option");
        let Some((program, flags)) = check else {
            continue;
        };
        let path = scratch.path().join(format!("kafkalint.{shell}"));
        std::fs::write(&path, &script).unwrap();
        match Command::new(program).args(flags).arg(&path).output() {
            Ok(parsed) => assert!(
                parsed.status.success(),
                "{program} refuses the {shell} script: {}",
                String::from_utf8_lossy(&parsed.stderr)
            ),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                eprintln!("skipped: {program} is not installed, its script is not parsed");
            }
            Err(error) => panic!("{program}: {error}"),
        }
    }
    let unknown = kafkalint(&["completions", "tcsh"], root());
    assert_usage_error(&unknown, &["completions", "tcsh"], "tcsh");
}

/// A Kubernetes `$(NAME)` that stays as written because NAME is defined further down the `env`
/// list (the kubelet expands only variables defined before the entry) is said so, naming both
/// variables; the same reference with NAME defined first is expanded, and nothing is said.
#[test]
fn a_kubernetes_reference_to_a_later_variable_is_said_to_stay_unexpanded() {
    let manifest = |env: &str| {
        format!(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  \
             serviceName: kafka-headless\n  replicas: 3\n  template:\n    spec:\n      \
             containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          \
             env:\n{env}"
        )
    };
    let advertised = "            - name: KAFKA_ADVERTISED_LISTENERS\n              \
                      value: PLAINTEXT://$(POD_NAME).kafka-headless:9092\n";
    let pod_name = "            - name: POD_NAME\n              valueFrom:\n                \
                    fieldRef:\n                  fieldPath: metadata.name\n";
    let zookeeper = "            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zk:2181\n";
    let dir = tempfile::tempdir().unwrap();
    let later = dir.path().join("later.yaml");
    std::fs::write(
        &later,
        manifest(&format!("{zookeeper}{advertised}{pod_name}")),
    )
    .unwrap();
    let output = kafkalint(&["check", later.to_str().unwrap()], root());
    let said = stderr(&output);
    assert!(
        said.contains(
            "env KAFKA_ADVERTISED_LISTENERS (line 17) keeps `$(POD_NAME)` as written, unexpanded: \
             Kubernetes expands a reference only to a variable defined earlier in the list, and \
             POD_NAME is defined after KAFKA_ADVERTISED_LISTENERS; move POD_NAME above it"
        ),
        "{said}"
    );
    assert_eq!(
        said.matches("keeps `$(POD_NAME)`").count(),
        1,
        "once, not per pod"
    );
    let earlier = dir.path().join("earlier.yaml");
    std::fs::write(
        &earlier,
        manifest(&format!("{zookeeper}{pod_name}{advertised}")),
    )
    .unwrap();
    let output = kafkalint(&["check", earlier.to_str().unwrap()], root());
    assert!(
        !stderr(&output).contains("keeps `$("),
        "{}",
        stderr(&output)
    );
}
