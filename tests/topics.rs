//! Topics declared as code, end to end through the command line: which cluster a topic binds
//! to (also when a walk hands clusters on early), what is said of a topic bound to none, and
//! `--fix` on a declaration.

use std::path::Path;
use std::process::Command;

const BROKER: &str = "zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181/kafka
listeners=PLAINTEXT://kafka-ID.internal:9092
log.dirs=/var/lib/kafka/data
offsets.topic.replication.factor=3
transaction.state.log.replication.factor=3
transaction.state.log.min.isr=2
default.replication.factor=3
min.insync.replicas=2
";

const ONE_REPLICA_TOPIC: &str = "apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaTopic
metadata:
  name: orders
spec:
  partitions: 3
  replicas: 1
";

fn three_brokers(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for id in 0..3 {
        let text = format!("broker.id={id}\n{}", BROKER.replace("ID", &id.to_string()));
        std::fs::write(dir.join(format!("server-{id}.properties")), text).unwrap();
    }
}

fn kafkalint(args: &[&str], dir: &Path) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_topic_in_a_folder_beside_the_brokers_binds_to_them_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    three_brokers(&dir.path().join("config"));
    std::fs::create_dir(dir.path().join("topics")).unwrap();
    std::fs::write(dir.path().join("topics/orders.yaml"), ONE_REPLICA_TOPIC).unwrap();
    // `concise` and `full` hand clusters on as the walk leaves their folder, before the
    // topic's folder is walked: the brokers' folder must wait for it.
    for format in ["concise", "full", "json"] {
        let (code, stdout, _) = kafkalint(&["check", "--format", format, "."], dir.path());
        assert_eq!(code, 1, "{format}: findings: {stdout}");
        assert!(
            stdout.contains("topic-single-replica") && stdout.contains("on 3 brokers"),
            "{format}: the topic is judged against the 3 brokers beside it: {stdout}"
        );
    }
}

#[test]
fn a_topic_bound_to_no_cluster_is_said_not_checked_never_clean() {
    let dir = tempfile::tempdir().unwrap();
    let topic = ONE_REPLICA_TOPIC.replace(
        "  name: orders\n",
        "  name: orders\n  labels:\n    strimzi.io/cluster: elsewhere\n",
    );
    std::fs::write(dir.path().join("orders.yaml"), topic).unwrap();
    let (code, stdout, stderr) = kafkalint(&["check", "orders.yaml"], dir.path());
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        !stdout.contains("No problems found ("),
        "nothing is called clean over a topic whose cluster is unknown: {stdout}"
    );
    assert!(
        stdout.contains("1 file of topics bound to no cluster"),
        "the summary counts it: {stdout}"
    );
    assert!(
        stderr.contains("names the Kafka `elsewhere`, which no file read declares"),
        "one line says why: {stderr}"
    );
    let (_, json, _) = kafkalint(&["check", "--format", "json", "orders.yaml"], dir.path());
    assert!(json.contains("\"topics-without-cluster\""), "{json}");
}

#[test]
fn fix_raises_a_written_factor_in_place_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    three_brokers(dir.path());
    std::fs::write(dir.path().join("topic.yaml"), ONE_REPLICA_TOPIC).unwrap();
    let (code, stdout, stderr) = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(code < 2, "{stdout}{stderr}");
    let fixed = std::fs::read_to_string(dir.path().join("topic.yaml")).unwrap();
    assert_eq!(
        fixed,
        ONE_REPLICA_TOPIC.replace("replicas: 1", "replicas: 3")
    );
    let (_, stdout, _) = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert!(!stdout.contains("topic-single-replica"), "{stdout}");
}

#[test]
fn an_editor_buffer_of_topics_binds_to_the_kafka_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let kafka = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/topic-single-replica/bad/kafka.yaml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("kafka.yaml"), kafka).unwrap();
    let topic = ONE_REPLICA_TOPIC.replace(
        "  name: orders\n",
        "  name: orders\n  labels:\n    strimzi.io/cluster: my-cluster\n",
    );
    // The unsaved text differs from the file on disk: the text is what is judged.
    std::fs::write(
        dir.path().join("topic.yaml"),
        topic.replace("replicas: 1", "replicas: 3"),
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args([
            "check",
            "--format",
            "concise",
            "--stdin-filename",
            "topic.yaml",
            "-",
        ])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(topic.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("topic.yaml:9:13: warning[topic-single-replica]")
            && stdout.contains("on 3 brokers"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("kafka.yaml:"),
        "findings on the buffer only: {stdout}"
    );
}

#[test]
fn a_clusters_entry_claims_topic_files_wherever_they_are() {
    let dir = tempfile::tempdir().unwrap();
    three_brokers(&dir.path().join("prod"));
    std::fs::create_dir_all(dir.path().join("teams/orders")).unwrap();
    std::fs::write(
        dir.path().join("teams/orders/topic.yaml"),
        ONE_REPLICA_TOPIC,
    )
    .unwrap();
    // Far from the brokers: no folder binds it.
    let (_, stdout, stderr) = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert!(!stdout.contains("topic-single-replica"), "{stdout}");
    assert!(stderr.contains("not checked against a cluster"), "{stderr}");
    std::fs::write(
        dir.path().join("kafkalint.toml"),
        "[[clusters]]\nname = \"prod\"\nfiles = [\"prod/*.properties\"]\ntopics = [\"teams/**/*.yaml\"]\n",
    )
    .unwrap();
    // Claimed: checked against the entry's cluster, also when only the topics are linted.
    for path in [".", "teams"] {
        let (code, stdout, stderr) = kafkalint(&["check", "--format", "concise", path], dir.path());
        assert_eq!(code, 1, "{path}: {stdout}{stderr}");
        assert!(
            stdout.contains("teams/orders/topic.yaml:7:13: warning[topic-single-replica]")
                && stdout.contains("on 3 brokers"),
            "{path}: {stdout}"
        );
        assert!(
            !stderr.contains("not checked against a cluster"),
            "{stderr}"
        );
    }
}

/// Two one-node clusters side by side in one compose file (each its own quorum, both node id
/// 1), and a topic created on each: by a service whose command connects to `target`, and by a
/// script that runs the tool in `source` with `docker compose exec`.
#[test]
fn a_command_binds_to_the_cluster_of_the_compose_service_it_connects_to() {
    let node = |name: &str| {
        format!(
            "  {name}:
    image: apache/kafka:3.9.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093
      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://{name}:9092
      KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@{name}:9093
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: 1
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: 1
"
        )
    };
    let compose = format!(
        "services:\n{}{}  init-topics:
    image: apache/kafka:3.9.0
    command: [\"/bin/bash\", \"-c\", \"/opt/kafka/bin/kafka-topics.sh --bootstrap-server target:9092 --create --topic mirrored --replication-factor 2\"]
",
        node("source"),
        node("target")
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("docker-compose.yml"), compose).unwrap();
    std::fs::write(
        dir.path().join("create-topics.sh"),
        "docker compose exec -T source /opt/kafka/bin/kafka-topics.sh --bootstrap-server localhost:9092 --create --topic local --replication-factor 3\n",
    )
    .unwrap();
    let (code, stdout, stderr) = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert_eq!(code, 1, "{stdout}{stderr}");
    for (topic, factor) in [("mirrored", 2), ("local", 3)] {
        assert!(
            stdout.contains(&format!(
                "error[topic-replication-above-brokers] topic `{topic}` asks for {factor} replicas on 1 broker"
            )),
            "{topic}: {stdout}"
        );
    }
    assert!(
        !stdout.contains("not checked against a cluster"),
        "{stdout}"
    );
}

/// `--fix` writes a factor inside a compose command's literal block (the bytes of the script
/// are the file's), and leaves alone one in a quoted command over several lines (escapes and
/// folding: not the file's bytes).
#[test]
fn fix_writes_inside_a_literal_command_block_only() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/topic-single-replica/bad-compose-command/docker-compose.yml");
    let original = std::fs::read_to_string(fixture).unwrap();
    let quoted = "  init-more:
    image: apache/kafka:3.9.0
    command: \"bash -c '/opt/kafka/bin/kafka-topics.sh --bootstrap-server kafka-1:9092 \\
      --create --topic audit --replication-factor 1'\"
volumes:";
    let text = original.replace(
        "\nvolumes:\n  kafka-1-data:",
        &format!("\n{quoted}\n  kafka-1-data:"),
    );
    std::fs::write(dir.path().join("docker-compose.yml"), &text).unwrap();
    let (code, stdout, stderr) = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(code < 2, "{stdout}{stderr}");
    let fixed = std::fs::read_to_string(dir.path().join("docker-compose.yml")).unwrap();
    let line = "--topic orders --partitions 6 --replication-factor ";
    assert_eq!(
        fixed,
        text.replace(&format!("{line}1"), &format!("{line}3"))
    );
    let (_, stdout, _) = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert!(!stdout.contains("topic `orders`"), "{stdout}");
    assert!(
        stdout.contains("topic-single-replica] topic `audit` has 1 replica on 3 brokers"),
        "{stdout}"
    );
}
