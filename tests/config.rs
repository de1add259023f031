//! `kafkalint.toml` and `check --with-cluster`, as a user meets them: each setting's effect,
//! each error's exact message and exit code.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("JSON on stdout; stderr: {}", stderr(output)))
}

/// (rule, severity, file) of every finding.
fn findings(output: &Output) -> Vec<(String, String, String)> {
    json(output)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
                d["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn rules_of(output: &Output) -> Vec<String> {
    let mut rules: Vec<String> = findings(output).into_iter().map(|f| f.0).collect();
    rules.sort();
    rules.dedup();
    rules
}

/// A clean ZooKeeper-mode broker of a 3-broker cluster on one host, plus `extra` lines (which
/// may set another `zookeeper.connect`).
fn broker(id: u32, extra: &str) -> String {
    let zookeeper = if extra.contains("zookeeper.connect=") {
        ""
    } else {
        "zookeeper.connect=localhost:2181\n"
    };
    format!(
        "broker.id={id}\nlisteners=PLAINTEXT://localhost:{}\nlog.dirs=/var/lib/kafka/data-{id}\n\
         offsets.topic.replication.factor=3\ntransaction.state.log.replication.factor=3\n\
         transaction.state.log.min.isr=2\ndefault.replication.factor=3\nmin.insync.replicas=2\n\
         {zookeeper}{extra}",
        9092 + id
    )
}

fn write(dir: &Path, path: &str, text: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Three clean brokers in `folder`; `extra[i]` is appended to broker i.
fn cluster(dir: &Path, folder: &str, extra: [&str; 3]) {
    for (id, extra) in extra.iter().enumerate() {
        write(
            dir,
            &format!("{folder}/server-{id}.properties"),
            &broker(id as u32, extra),
        );
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// A per-node finding (duplicate-key, a warning) that no consistency rule compares.
const DUP: &str = "num.io.threads=8\nnum.io.threads=16\n";

#[test]
fn without_a_config_file_nothing_changes() {
    let dir = tempdir();
    cluster(dir.path(), "c", [DUP, "", ""]);
    let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        findings(&output),
        [(
            "duplicate-key".into(),
            "warning".into(),
            "c/server-0.properties".into()
        )]
    );
    assert_eq!(json(&output)["clusters"][0]["kafka_version_from"], "files");
    assert!(json(&output)["clusters"][0].get("config").is_none());
}

#[test]
fn kafka_version_comes_from_the_config_unless_the_flag_says_otherwise() {
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    write(dir.path(), "kafkalint.toml", "kafka-version = \"3.7\"\n");
    let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let cluster = &json(&output)["clusters"][0];
    assert_eq!(cluster["kafka_version"], "3.7");
    assert_eq!(cluster["kafka_version_from"], "config");

    let flagged = kafkalint(
        &["check", "--format", "json", "--kafka-version", "3.5", "c"],
        dir.path(),
    );
    let cluster = &json(&flagged)["clusters"][0];
    assert_eq!(cluster["kafka_version"], "3.5");
    assert_eq!(cluster["kafka_version_from"], "flag");
}

#[test]
fn the_bitnami_chart_version_comes_from_the_config_where_nothing_beside_the_values_pins_one() {
    let dir = tempdir();
    // `extraConfig` reads as lines 24 to 31 (three controllers, no replication factor
    // written); as line 20, the chart runs `replicaCount` brokers and writes 1 for the
    // internal topics.
    write(
        dir.path(),
        "helm/kafka-values.yaml",
        "replicaCount: 3\nautoCreateTopicsEnable: false\nextraConfig: |\n  num.partitions=3\n",
    );
    let unstated = kafkalint(&["check", "--format", "json", "helm"], dir.path());
    let rules = rules_of(&unstated);
    assert!(
        !rules.contains(&"internal-topic-replication".to_string()),
        "{rules:?}"
    );

    write(
        dir.path(),
        "kafkalint.toml",
        "bitnami-kafka-chart = \"20.1.1\"\n",
    );
    let stated = kafkalint(&["check", "--format", "json", "helm"], dir.path());
    assert!(
        rules_of(&stated).contains(&"internal-topic-replication".to_string()),
        "{}",
        stderr(&stated)
    );
    assert!(
        stderr(&stated).contains("kafkalint.toml states bitnami-kafka-chart 20.1.1"),
        "{}",
        stderr(&stated)
    );

    // A Chart.yaml beside the values pins its own version, which wins.
    write(
        dir.path(),
        "helm/Chart.yaml",
        "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n  - name: kafka\n    version: 26.4.0\n    repository: oci://registry-1.docker.io/bitnamicharts\n",
    );
    write(
        dir.path(),
        "helm/kafka-values.yaml",
        "kafka:\n  controller:\n    replicaCount: 3\n",
    );
    let pinned = kafkalint(&["check", "--format", "json", "helm"], dir.path());
    assert!(
        stderr(&pinned).contains("its Chart.yaml pins version 26.4.0"),
        "{}",
        stderr(&pinned)
    );
}

#[test]
fn a_team_image_is_read_as_the_known_image_the_config_names() {
    let dir = tempdir();
    // Three brokers of a team's own image: internal topics on one replica.
    let service = |id: u32| {
        format!(
            "  kafka-{id}:\n    image: registry.example.com/platform/kafka:2024.11\n    environment:\n      KAFKA_NODE_ID: {id}\n      KAFKA_PROCESS_ROLES: broker,controller\n      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093\n      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka-{id}:9092\n      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER\n      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\n      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n"
        )
    };
    write(
        dir.path(),
        "compose/docker-compose.yml",
        &format!("services:\n{}{}{}", service(1), service(2), service(3)),
    );
    // Unknown: not read, and the note says how to tell kafkalint what it is.
    let unknown = kafkalint(&["check", "--format", "json", "compose"], dir.path());
    assert!(rules_of(&unknown).is_empty(), "{}", stderr(&unknown));
    assert!(
        stderr(&unknown).contains("kafkalint.toml: `[images]`"),
        "{}",
        stderr(&unknown)
    );

    write(
        dir.path(),
        "kafkalint.toml",
        "[images]\n\"registry.example.com/platform/kafka\" = \"apache/kafka:3.9.0\"\n",
    );
    let stated = kafkalint(&["check", "--format", "json", "compose"], dir.path());
    assert!(
        rules_of(&stated).contains(&"internal-topic-replication".to_string()),
        "{}",
        stderr(&stated)
    );
    assert_eq!(
        json(&stated)["clusters"][0]["kafka_version"],
        "3.9",
        "{}",
        stderr(&stated)
    );

    // A name with its tag applies to that tag alone, and wins over the name without one.
    write(
        dir.path(),
        "kafkalint.toml",
        "[images]\n\"registry.example.com/platform/kafka\" = \"apache/kafka:3.9.0\"\n\"registry.example.com/platform/kafka:2024.11\" = \"apache/kafka:3.8.0\"\n",
    );
    let tagged = kafkalint(&["check", "--format", "json", "compose"], dir.path());
    assert_eq!(
        json(&tagged)["clusters"][0]["kafka_version"],
        "3.8",
        "{}",
        stderr(&tagged)
    );
}

#[test]
fn a_file_that_contradicts_the_configured_release_is_hinted() {
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    write(dir.path(), "kafkalint.toml", "kafka-version = \"4.0\"\n");
    let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
    let diagnostics = json(&output)["diagnostics"].clone();
    let hint = diagnostics
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "kafka-version-hint")
        .expect("a kafka-version-hint finding");
    assert!(
        hint["message"]
            .as_str()
            .unwrap()
            .ends_with("checked against Kafka 4.0 (kafka-version in kafkalint.toml)"),
        "{hint}"
    );
}

#[test]
fn ignore_and_select_choose_the_rules_that_run() {
    let dir = tempdir();
    let unclean = "unclean.leader.election.enable=true\n";
    cluster(
        dir.path(),
        "c",
        [&format!("{DUP}{unclean}"), unclean, unclean],
    );
    let all = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(rules_of(&all), ["duplicate-key", "unclean-leader-election"]);

    write(
        dir.path(),
        "kafkalint.toml",
        "ignore = [\"duplicate-key\"]\n",
    );
    let ignored = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(rules_of(&ignored), ["unclean-leader-election"]);

    write(
        dir.path(),
        "kafkalint.toml",
        "select = [\"duplicate-key\"]\n",
    );
    let selected = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(rules_of(&selected), ["duplicate-key"]);

    // Groups, as on the command line: a rule's own name wins over its group's.
    for (config, expected) in [
        (
            "select = [\"availability\"]\n",
            &["unclean-leader-election"][..],
        ),
        ("ignore = [\"availability\"]\n", &["duplicate-key"][..]),
        (
            "select = [\"availability\", \"hygiene\"]\nignore = [\"unclean-leader-election\"]\n",
            &["duplicate-key"][..],
        ),
        (
            "select = [\"unclean-leader-election\"]\nignore = [\"availability\"]\n",
            &["unclean-leader-election"][..],
        ),
    ] {
        write(dir.path(), "kafkalint.toml", config);
        let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
        assert_eq!(rules_of(&output), expected, "{config}");
    }
}

#[test]
fn a_config_that_leaves_no_rule_to_run_is_an_error() {
    let message = "`select`, `ignore` and `[rules]` leave no rule to run, so nothing would be \
                   checked: select a rule or a group (`kafkalint rules` lists them)";
    for (config, place) in [
        (
            "select = [\"duplicate-key\"]\nignore = [\"duplicate-key\"]\n",
            "1:1",
        ),
        (
            "strict = false\nignore = [\"startup-refusal\", \"availability\", \"consistency\", \"exposure\", \"hygiene\"]\n",
            "2:1",
        ),
        // The strict group runs with `strict = true` only.
        ("select = [\"strict\"]\n", "1:1"),
        (
            "select = [\"duplicate-key\"]\n[rules.duplicate-key]\nseverity = \"off\"\n",
            "1:1",
        ),
    ] {
        assert_config_error(config, &format!("kafkalint.toml:{place}: {message}"));
    }
    // The same with the strict group turned on runs its rule.
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    write(
        dir.path(),
        "kafkalint.toml",
        "strict = true\nselect = [\"strict\"]\n",
    );
    let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn a_severity_override_changes_the_reported_severity_and_the_exit_code() {
    let dir = tempdir();
    cluster(dir.path(), "c", [DUP, "", ""]);
    let config = |severity: &str| format!("[rules.duplicate-key]\nseverity = \"{severity}\"\n");
    for (severity, code) in [("info", 0), ("error", 1), ("warning", 1)] {
        write(dir.path(), "kafkalint.toml", &config(severity));
        let output = kafkalint(&["check", "--format", "json", "c"], dir.path());
        assert_eq!(output.status.code(), Some(code), "{severity}");
        assert_eq!(
            findings(&output),
            [(
                "duplicate-key".into(),
                severity.into(),
                "c/server-0.properties".into()
            )]
        );
    }
    write(dir.path(), "kafkalint.toml", &config("off"));
    let off = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(off.status.code(), Some(0));
    assert!(findings(&off).is_empty());
}

/// One word for the least severity: `info` in the config, in `--format concise`, in JSON
/// (`severity` and `summary.infos`) and in the closing line; other tools' words for it are
/// refused with a hint, never read as it.
#[test]
fn info_is_the_one_word_for_the_least_severity() {
    let dir = tempdir();
    cluster(dir.path(), "c", [DUP, DUP, ""]);
    write(
        dir.path(),
        "kafkalint.toml",
        "[rules.duplicate-key]\nseverity = \"info\"\n",
    );
    let full = kafkalint(&["check", "--color", "never", "c"], dir.path());
    let summary = String::from_utf8(full.stdout).unwrap();
    let summary = summary.lines().last().unwrap().to_string();
    assert!(
        summary.starts_with("Found 0 errors, 0 warnings, 2 infos ("),
        "{summary}"
    );
    let concise = kafkalint(&["check", "--format", "concise", "c"], dir.path());
    let concise = String::from_utf8(concise.stdout).unwrap();
    assert!(concise.contains(": info[duplicate-key] "), "{concise}");
    let json = json(&kafkalint(&["check", "--format", "json", "c"], dir.path()));
    assert_eq!(json["summary"]["infos"], 2);
    assert_eq!(json["diagnostics"][0]["severity"], "info");

    cluster(dir.path(), "c", [DUP, "", ""]);
    write(
        dir.path(),
        "kafkalint.toml",
        "[rules.duplicate-key]\nseverity = \"info\"\n",
    );
    let one = kafkalint(&["check", "--color", "never", "c"], dir.path());
    let one = String::from_utf8(one.stdout).unwrap();
    assert!(
        one.contains("Found 0 errors, 0 warnings, 1 info ("),
        "{one}"
    );

    for other in ["note", "notice", "Note", "information"] {
        assert_config_error(
            &format!("[rules.duplicate-key]\nseverity = \"{other}\"\n"),
            "kafkalint.toml:2:12: severity is none of error, warning, info, off; did you mean `info`?",
        );
    }
}

#[test]
fn per_path_ignores_drop_a_rule_under_a_glob_only() {
    let dir = tempdir();
    cluster(dir.path(), "dev/a", [DUP, "", ""]);
    cluster(dir.path(), "prod", [DUP, "", ""]);
    write(
        dir.path(),
        "kafkalint.toml",
        "[per-path-ignores]\n\"dev/**\" = [\"duplicate-key\"]\n",
    );
    let output = kafkalint(&["check", "--format", "json", "."], dir.path());
    assert_eq!(
        findings(&output),
        [(
            "duplicate-key".into(),
            "warning".into(),
            "prod/server-0.properties".into()
        )]
    );
    // `*` stays within one folder: `dev/*` does not reach dev/a/.
    write(
        dir.path(),
        "kafkalint.toml",
        "[per-path-ignores]\n\"dev/*\" = [\"duplicate-key\"]\n",
    );
    let shallow = kafkalint(&["check", "--format", "json", "."], dir.path());
    assert_eq!(findings(&shallow).len(), 2);
}

#[test]
fn a_suppression_of_a_rule_that_does_not_run_is_not_unused() {
    let dir = tempdir();
    let suppressed = "# kafkalint: ignore[duplicate-key] accepted\nnum.io.threads=8\n";
    cluster(dir.path(), "c", [suppressed, "", ""]);
    let plain = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert_eq!(rules_of(&plain), ["unused-suppression"]);

    write(
        dir.path(),
        "kafkalint.toml",
        "ignore = [\"duplicate-key\"]\n",
    );
    let ignored = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert!(findings(&ignored).is_empty(), "{:?}", findings(&ignored));

    // And unused-suppression itself can be turned off.
    write(
        dir.path(),
        "kafkalint.toml",
        "[rules.unused-suppression]\nseverity = \"off\"\n",
    );
    let off = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert!(findings(&off).is_empty(), "{:?}", findings(&off));
}

#[test]
fn the_nearest_config_file_up_the_tree_applies_and_config_names_one() {
    let dir = tempdir();
    cluster(dir.path(), "repo/prod/c", [DUP, "", ""]);
    write(
        dir.path(),
        "repo/kafkalint.toml",
        "ignore = [\"duplicate-key\"]\n",
    );
    write(dir.path(), "other.toml", "kafka-version = \"3.6\"\n");
    let found = kafkalint(&["check", "--format", "json", "repo/prod/c"], dir.path());
    assert!(findings(&found).is_empty());
    // From inside the cluster folder, the config file two levels up still applies.
    let inside = kafkalint(
        &["check", "--format", "json", "."],
        &dir.path().join("repo/prod/c"),
    );
    assert!(findings(&inside).is_empty());

    let named = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "--config",
            "other.toml",
            "repo/prod/c",
        ],
        dir.path(),
    );
    assert_eq!(rules_of(&named), ["duplicate-key"]);
    assert_eq!(json(&named)["clusters"][0]["kafka_version"], "3.6");
}

#[test]
fn paths_with_different_config_files_are_checked_each_with_its_own() {
    let dir = tempdir();
    cluster(dir.path(), "a/c", [DUP, "", ""]);
    cluster(dir.path(), "b/c", [DUP, "", ""]);
    write(dir.path(), "a/kafkalint.toml", "kafka-version = \"3.6\"\n");
    write(
        dir.path(),
        "b/kafkalint.toml",
        "kafka-version = \"3.8\"\n[rules.duplicate-key]\nseverity = \"error\"\n",
    );
    let output = kafkalint(&["check", "--format", "json", "b/c", "a/c"], dir.path());
    let report = json(&output);
    let versions: Vec<(&str, &str)> = report["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap(),
                c["kafka_version"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(versions, [("b/c", "3.8"), ("a/c", "3.6")]);
    let configs: Vec<&str> = report["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["config"].as_str().unwrap())
        .collect();
    assert_eq!(configs, ["b/kafkalint.toml", "a/kafkalint.toml"]);
    assert_eq!(
        findings(&output),
        [
            (
                "duplicate-key".into(),
                "warning".into(),
                "a/c/server-0.properties".into()
            ),
            (
                "duplicate-key".into(),
                "error".into(),
                "b/c/server-0.properties".into()
            )
        ]
    );
    assert_eq!(report["summary"]["files"], 6);
}

const DECLARED: &str = "[[clusters]]\nname = \"prod-eu\"\nfiles = [\"eu/*/*.properties\"]\nbrokers = 6\nkafka-version = \"3.7\"\n";

/// Brokers 0 and 1 in eu/rack-a, broker 2 in eu/rack-b: one cluster only by declaration.
fn declared_cluster(dir: &Path, extra: [&str; 3]) {
    write(dir, "eu/rack-a/server-0.properties", &broker(0, extra[0]));
    write(dir, "eu/rack-a/server-1.properties", &broker(1, extra[1]));
    write(dir, "eu/rack-b/server-2.properties", &broker(2, extra[2]));
    write(dir, "kafkalint.toml", DECLARED);
}

#[test]
fn a_declared_cluster_is_read_whole_with_its_broker_count_and_release() {
    let dir = tempdir();
    declared_cluster(
        dir.path(),
        ["", "", "zookeeper.connect=localhost:2181/other\n"],
    );
    let output = kafkalint(&["check", "--format", "json", "eu/rack-a"], dir.path());
    let report = json(&output);
    assert_eq!(report["clusters"].as_array().unwrap().len(), 1);
    let cluster = &report["clusters"][0];
    assert_eq!(cluster["name"], "prod-eu");
    assert_eq!(cluster["config"], "kafkalint.toml");
    assert_eq!(cluster["kafka_version"], "3.7");
    assert_eq!(
        cluster["files"],
        serde_json::json!([
            "eu/rack-a/server-0.properties",
            "eu/rack-a/server-1.properties",
            "eu/rack-b/server-2.properties"
        ])
    );
    // The broker outside the linted path differs in its chroot: only the whole cluster shows it.
    assert!(
        rules_of(&output).contains(&"inconsistent-cluster-value".to_string()),
        "{:?}",
        findings(&output)
    );
    // 6 declared brokers: replication factors of 3 leave headroom, none is above the count.
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(
        !text.contains("cluster of 3 brokers") && !text.contains("on 3 brokers"),
        "{text}"
    );

    // Without the declaration, rack-a alone is a cluster of two.
    std::fs::remove_file(dir.path().join("kafkalint.toml")).unwrap();
    let alone = kafkalint(&["check", "--format", "json", "eu/rack-a"], dir.path());
    assert_eq!(json(&alone)["summary"]["files"], 2);
}

#[test]
fn with_cluster_reports_a_changed_file_against_its_siblings() {
    let dir = tempdir();
    // Broker 1 (changed) has another chroot than 0 and 2; broker 2 has its own problem.
    cluster(
        dir.path(),
        "c",
        ["", "zookeeper.connect=localhost:2181/x\n", DUP],
    );
    let output = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "--with-cluster",
            "c/server-1.properties",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let found = findings(&output);
    assert!(
        found.iter().any(|f| f.0 == "inconsistent-cluster-value"),
        "{found:?}"
    );
    // The unchanged broker's own finding is not reported.
    assert!(!found.iter().any(|f| f.0 == "duplicate-key"), "{found:?}");
    assert_eq!(json(&output)["summary"]["files"], 3);

    // Only the unchanged broker named: its own finding and the chroot difference, which it is
    // part of, are both about it.
    let other = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "--with-cluster",
            "c/server-2.properties",
        ],
        dir.path(),
    );
    assert!(findings(&other).iter().any(|f| f.0 == "duplicate-key"));
}

#[test]
fn with_cluster_checks_files_of_two_clusters_and_passes_over_the_rest() {
    let dir = tempdir();
    cluster(dir.path(), "a", [DUP, "", ""]);
    cluster(dir.path(), "b", ["", DUP, ""]);
    write(
        dir.path(),
        "a/client.properties",
        "bootstrap.servers=localhost:9092\n",
    );
    let output = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "--with-cluster",
            "a/server-0.properties",
            "b/server-1.properties",
            "a/client.properties",
            "b/deleted.properties",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    assert_eq!(
        findings(&output),
        [
            (
                "duplicate-key".into(),
                "warning".into(),
                "a/server-0.properties".into()
            ),
            (
                "duplicate-key".into(),
                "warning".into(),
                "b/server-1.properties".into()
            )
        ]
    );
    let report = json(&output);
    assert_eq!(report["summary"]["clusters"], 2);
    assert_eq!(report["summary"]["files"], 6);

    // Nothing but passed-over files: nothing to report, exit 0.
    let none = kafkalint(
        &[
            "check",
            "--with-cluster",
            "a/client.properties",
            "gone.properties",
        ],
        dir.path(),
    );
    assert_eq!(none.status.code(), Some(0), "{}", stderr(&none));
}

#[test]
fn with_cluster_reads_a_declared_cluster_whole() {
    let dir = tempdir();
    declared_cluster(
        dir.path(),
        ["", "", "zookeeper.connect=localhost:2181/other\n"],
    );
    let output = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "--with-cluster",
            "eu/rack-a/server-0.properties",
        ],
        dir.path(),
    );
    let report = json(&output);
    assert_eq!(report["clusters"][0]["name"], "prod-eu");
    assert_eq!(report["summary"]["files"], 3);
    assert!(rules_of(&output).contains(&"inconsistent-cluster-value".to_string()));
}

#[test]
fn with_cluster_needs_files() {
    let dir = tempdir();
    let output = kafkalint(&["check", "--with-cluster"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("`--with-cluster` checks the files it is given: name them"),
        "{}",
        stderr(&output)
    );
}

/// The config file `text` makes `check` exit 2 with exactly `message` on stderr.
fn assert_config_error(text: &str, message: &str) {
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    write(dir.path(), "kafkalint.toml", text);
    let output = kafkalint(&["check", "c"], dir.path());
    assert_eq!(output.status.code(), Some(2), "{text}: {}", stderr(&output));
    assert_eq!(
        stderr(&output),
        format!("kafkalint: error: {message}\n"),
        "{text}"
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn config_errors_name_the_place_and_the_nearest_name() {
    assert_config_error(
        "strict = true\nselct = []\n",
        "kafkalint.toml:2:1: unknown setting `selct`; did you mean `select`?",
    );
    assert_config_error(
        "colour = true\n",
        "kafkalint.toml:1:1: unknown setting `colour` (known: kafka-version, bitnami-kafka-chart, images, strict, all-topics-declared, exclude, extend-exclude, select, ignore, rules, per-path-ignores, clusters)",
    );
    assert_config_error("rules = 3\n", "kafkalint.toml:1:9: `rules` must be a table");
    assert_config_error(
        "[images]\n\"registry.example.com/platform/kafka\" = \"apache/kafka\"\n",
        "kafkalint.toml:2:41: [images]: `apache/kafka` has no tag: name the release the image is built from (`apache/kafka:<tag>`)",
    );
    assert_config_error(
        "[images]\n\"registry.example.com/platform/kafka\" = \"mycorp/kafka:3.9.0\"\n",
        "kafkalint.toml:2:41: [images]: `mycorp/kafka:3.9.0` is not an image kafkalint knows the start-up of: name one of apache/kafka, apache/kafka-native, confluentinc/cp-kafka, confluentinc/cp-server, confluentinc/confluent-local, bitnami/kafka, wurstmeister/kafka, with its tag",
    );
    assert_config_error(
        "[[clusters]]\nname = \"a\"\nfiles = [\"c/*\"]\n[[clusters]]\nname = \"a\"\nfiles = [\"d/*\"]\n",
        "kafkalint.toml:4:1: this [[clusters]] entry has the name of an earlier one: name each cluster once",
    );
    assert_config_error(
        "select = [\"internal-topic-replication\", \"min-isr-headrom\"]\n",
        "kafkalint.toml:1:41: no rule or rule group of that name; did you mean `min-isr-headroom`?",
    );
    assert_config_error(
        "ignore = [\"no-such-thing-at-all\"]\n",
        "kafkalint.toml:1:11: no rule or rule group of that name (`kafkalint rules` lists the rules and their groups)",
    );
    assert_config_error(
        "[rules.unclean-leader-electon]\nseverity = \"off\"\n",
        "kafkalint.toml:1:8: no rule of that name; did you mean `unclean-leader-election`?",
    );
    assert_config_error(
        "[rules.duplicate-key]\nseverty = \"off\"\n",
        "kafkalint.toml:2:1: unknown setting `severty` in [rules.duplicate-key]; did you mean `severity`?",
    );
    assert_config_error(
        "[rules.duplicate-key]\nseverity = \"warn\"\n",
        "kafkalint.toml:2:12: severity is none of error, warning, info, off",
    );
    assert_config_error(
        "[per-path-ignores]\n\"dev/[a\" = [\"quorum-size\"]\n",
        "kafkalint.toml:2:1: invalid glob: unclosed character class; missing ']'",
    );
    assert_config_error(
        "[per-path-ignores]\n\"dev/**\" = [\"quorum-sise\"]\n",
        "kafkalint.toml:2:13: no rule of that name; did you mean `quorum-size`?",
    );
    assert_config_error(
        "kafka-version = \"5.0\"\n",
        "kafkalint.toml:1:17: kafka-version: not a Kafka release kafkalint knows (2.8, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.1, 4.2, 4.3, 4.4)",
    );
    assert_config_error(
        "bitnami-kafka-chart = \"latest\"\n",
        "kafkalint.toml:1:23: bitnami-kafka-chart: not a chart version (such as `26.4.0`)",
    );
    assert_config_error(
        "strict = \"yes\"\n",
        "kafkalint.toml:1:10: `strict` must be true or false",
    );
    assert_config_error(
        "select = \"quorum-size\"\n",
        "kafkalint.toml:1:10: `select` must be an array of strings",
    );
    assert_config_error(
        "kafka-version = \n",
        "kafkalint.toml:1:17: string values must be quoted, expected literal string",
    );
    assert_config_error(
        "[[clusters]]\nname = \"a\"\nfiles = [\"c/*\"]\nbroker = 3\n",
        "kafkalint.toml:4:1: unknown setting `broker` in [[clusters]]; did you mean `brokers`?",
    );
    assert_config_error(
        "[[clusters]]\nname = \"a\"\nfiles = [\"c/*\"]\nbrokers = 0\n",
        "kafkalint.toml:4:11: `brokers` must be a whole number of at least 1",
    );
    assert_config_error(
        "[[clusters]]\nfiles = [\"c/*\"]\n",
        "kafkalint.toml:1:1: a [[clusters]] entry needs a `name`",
    );
    assert_config_error(
        "[[clusters]]\nname = \"a\"\nfiles = [\"c/*\"]\n\n[[clusters]]\nname = \"b\"\nfiles = [\"c/server-1.*\"]\n",
        "kafkalint.toml:7:10: `c/server-1.properties` is matched by clusters `a` and `b`: a file belongs to one cluster",
    );
}

#[test]
fn a_missing_config_file_named_by_the_flag_is_an_error() {
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    let output = kafkalint(&["check", "--config", "none.toml", "c"], dir.path());
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "kafkalint: error: none.toml:1:1: no such file\n"
    );
}

#[test]
fn strict_mode_reports_any_setting_that_differs_but_per_node_ones() {
    let dir = tempdir();
    // broker() already gives each broker its own id, listener and log directory.
    cluster(
        dir.path(),
        "c",
        [
            "num.io.threads=16\n",
            "password.encoder.secret=s3cr3t-value\n",
            "",
        ],
    );
    let plain = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert!(!rules_of(&plain).contains(&"node-settings-differ".to_string()));

    write(dir.path(), "kafkalint.toml", "strict = true\n");
    let strict = kafkalint(&["check", "--format", "json", "c"], dir.path());
    let keys: Vec<String> = json(&strict)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["rule"] == "node-settings-differ")
        .map(|d| d["key"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(keys, ["num.io.threads", "password.encoder.secret"]);
    let text = String::from_utf8(strict.stdout.clone()).unwrap();
    assert!(!text.contains("s3cr3t-value"), "a secret was printed");

    write(
        dir.path(),
        "kafkalint.toml",
        "strict = true\nignore = [\"node-settings-differ\"]\n",
    );
    let ignored = kafkalint(&["check", "--format", "json", "c"], dir.path());
    assert!(!rules_of(&ignored).contains(&"node-settings-differ".to_string()));
}

#[test]
fn a_stdin_buffer_is_checked_with_its_config_file() {
    let dir = tempdir();
    cluster(dir.path(), "c", ["", "", ""]);
    write(
        dir.path(),
        "kafkalint.toml",
        "[rules.duplicate-key]\nseverity = \"error\"\n",
    );
    let run = |dir: &Path| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args([
                "check",
                "--format",
                "json",
                "--stdin-filename",
                "c/server-0.properties",
                "-",
            ])
            .current_dir(dir)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(broker(0, DUP).as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let output = run(dir.path());
    assert_eq!(
        findings(&output),
        [(
            "duplicate-key".into(),
            "error".into(),
            "c/server-0.properties".into()
        )]
    );
}
