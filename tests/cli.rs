//! The command line as a user meets it: exit codes, bad input, secrets, determinism.

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
        "Found 6 errors, 1 warning, 3 notes (3 files in 1 cluster, checked against Kafka 3.9)."
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
        assert!(stdout(&output).contains("Found 0 errors, 0 warnings, 1 note"));
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
    assert!(
        first["message"]
            .as_str()
            .unwrap()
            .starts_with("broker 0 (server-0.properties): ")
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
    assert!(stdout(&declared).contains("offsets.topic.replication.factor=1 on 3 brokers"));
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

/// `kafkalint check ARGS` with `input` on standard input.
fn kafkalint_stdin(args: &[&str], input: &[u8], dir: &Path) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // A usage error exits before reading: a closed pipe is no failure of the test.
    let written = child.stdin.take().unwrap().write_all(input);
    assert!(written.is_ok() || written.unwrap_err().kind() == std::io::ErrorKind::BrokenPipe);
    child.wait_with_output().expect("runs")
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
                .contains("offsets.topic.replication.factor=1 on 3 brokers")
    }));
    // The same findings for server-0 as a check of the whole folder.
    let folder = kafkalint(
        &["check", "--format", "json", "fixtures/seed-zk-3-brokers"],
        root(),
    );
    let of_server_0: Vec<_> = diagnostics(&folder)
        .into_iter()
        .filter(|d| d["file"] == path)
        .collect();
    assert_eq!(found, of_server_0);

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
            .contains("offsets.topic.replication.factor=1 on 3 brokers")
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
