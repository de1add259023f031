use super::*;

/// `text` read as `docker-compose.yml` (a file without parts when it gives no cluster).
fn compose(text: &str) -> SourceFile {
    let bytes = text.as_bytes().to_vec();
    let mut found = read_files(vec![("docker-compose.yml".into(), bytes.clone())], &[]);
    found.files.pop().unwrap_or_else(|| {
        SourceFile::from_yaml("docker-compose.yml".into(), bytes, YamlFile::default())
    })
}

/// The nodes and components read from compose file `text`.
fn nodes(text: &str) -> Vec<YamlPart> {
    compose(text)
        .yaml
        .map(|yaml| yaml.parts)
        .unwrap_or_default()
}

#[test]
fn map_environment_gives_entries_at_the_yaml_scalars() {
    let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.5.0\n    environment:\n      KAFKA_BROKER_ID: 1\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n";
    let files = nodes(text);
    assert_eq!(files.len(), 1);
    let entry = files[0].properties.get("broker.id").unwrap();
    assert_eq!(&text[entry.key_span.clone()], "KAFKA_BROKER_ID");
    assert_eq!(&text[entry.value_span.clone()], "1");
    assert_eq!(compose(text).line_column(entry.value_span.start), (5, 24));
}

#[test]
fn list_environment_splits_at_the_first_equals() {
    let text = "services:\n  kafka:\n    image: bitnami/kafka:3.7\n    environment:\n      - KAFKA_CFG_NODE_ID=0\n      - \"KAFKA_CFG_PROCESS_ROLES=controller,broker\"\n";
    let files = nodes(text);
    let id = files[0].properties.get("node.id").unwrap();
    assert_eq!(&text[id.key_span.clone()], "KAFKA_CFG_NODE_ID");
    assert_eq!(&text[id.value_span.clone()], "0");
    let roles = files[0].properties.get("process.roles").unwrap();
    assert_eq!(roles.value, "controller,broker");
    assert_eq!(&text[roles.value_span.clone()], "controller,broker");
}

#[test]
fn unresolved_interpolation_is_a_placeholder() {
    let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka\n    environment:\n      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: ${RF}\n      KAFKA_NUM_PARTITIONS: ${PARTITIONS:-6}\n";
    let files = nodes(text);
    assert!(
        files[0]
            .properties
            .get("offsets.topic.replication.factor")
            .unwrap()
            .value
            .contains("${")
    );
    assert_eq!(
        files[0].properties.get("num.partitions").unwrap().value,
        "6"
    );
    assert!(files[0].view.editable.is_empty());
}

#[test]
fn replicas_and_global_mode() {
    let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka\n    deploy:\n      replicas: 3\n  other:\n    image: bitnami/kafka\n    deploy:\n      mode: global\n";
    let files = nodes(text);
    assert_eq!(files.len(), 4);
    assert!(files[..3].iter().all(|file| file.view.count_known));
    assert!(!files[3].view.count_known);
}

#[test]
fn secrets_of_every_service_are_redacted() {
    let text = "services:\n  db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: hunter2\n      - x\n";
    // Not valid compose (a list inside a map) but still YAML: use a valid one.
    let _ = text;
    let text = "services:\n  db:\n    image: postgres\n    environment:\n      - POSTGRES_PASSWORD=hunter2\n      - OTHER=1\n  kafka:\n    image: confluentinc/cp-kafka\n    environment:\n      KAFKA_SASL_JAAS_CONFIG: |\n        org.apache.kafka.common.security.plain.PlainLoginModule required\n        username=\"a\" password=\"s3cret\";\n      KAFKA_SSL_KEY_PASSWORD: \"pw1\"\n      KAFKA_BROKER_ID: 1\n";
    let shown = compose(text).display_text().text;
    for secret in ["hunter2", "s3cret", "pw1"] {
        assert!(!shown.contains(secret), "{secret} shown:\n{shown}");
    }
    // Deny by default: a variable of no Kafka key is hidden, one of a plain key shown.
    assert!(shown.contains("OTHER=[redacted]"), "{shown}");
    assert!(shown.contains("KAFKA_BROKER_ID: 1"));
    // Line numbers stay true.
    assert_eq!(shown.lines().count(), text.lines().count());
}

#[test]
fn strimzi_config_and_pools() {
    let text = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata:\n  name: brokers\n  labels:\n    strimzi.io/cluster: my\nspec:\n  replicas: 3\n  roles: [broker]\n---\napiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my\nspec:\n  kafka:\n    config:\n      offsets.topic.replication.factor: 1\n      listeners: x\n";
    let found = read_files(vec![("kafka.yaml".into(), text.as_bytes().to_vec())], &[]);
    let cluster = &found.clusters[0];
    assert_eq!(cluster.name, "kafka.yaml: Kafka my");
    assert_eq!(cluster.members, [(0, 0), (0, 1), (0, 2)]);
    let files = &found.files[cluster.members[0].0]
        .yaml
        .as_ref()
        .unwrap()
        .parts;
    assert_eq!(files[0].view.forbidden[0].key, "listeners");
    assert_eq!(files[1].properties.get("node.id").unwrap().value, "1");
    assert_eq!(
        files[0].properties.get("process.roles").unwrap().value,
        "broker"
    );
    assert_eq!(
        files[0]
            .properties
            .get("offsets.topic.replication.factor")
            .unwrap()
            .value,
        "1"
    );
}

const CONNECT_BESIDE_A_BROKER: &str = "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.5.0\n    environment:\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n  connect:\n    image: confluentinc/cp-kafka-connect:7.5.0\n    environment:\n      - CONNECT_BOOTSTRAP_SERVERS=kafka:9092\n      - CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR=1\n      - CONNECT_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"c\" password=\"c0nnect\";\n      - CONNECT_PRODUCER_SSL_KEY_PASSWORD=k3y\n";

#[test]
fn a_connect_service_is_a_component_with_entries_at_its_variables() {
    let text = CONNECT_BESIDE_A_BROKER;
    let file = compose(text);
    assert_eq!(crate::components::classify(&file, Some(0)), None);
    assert_eq!(
        crate::components::classify(&file, Some(1)),
        Some(crate::components::ComponentKind::ConnectDistributed)
    );
    let files = nodes(text);
    assert_eq!(files.len(), 2);
    let rf = files[1]
        .properties
        .get("config.storage.replication.factor")
        .unwrap();
    assert_eq!(
        &text[rf.key_span.clone()],
        "CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR"
    );
    assert_eq!(&text[rf.value_span.clone()], "1");
    assert_eq!(file.line_column(rf.value_span.start), (10, 51));
}

#[test]
fn secrets_of_component_services_are_redacted() {
    let shown = compose(CONNECT_BESIDE_A_BROKER).display_text().text;
    for secret in ["c0nnect", "k3y"] {
        assert!(!shown.contains(secret), "{secret} shown:\n{shown}");
    }
    assert!(shown.contains("CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR=1"));
}

#[test]
fn a_component_of_another_cluster_or_of_no_broker_is_passed_over() {
    let elsewhere = "services:\n  kafka:\n    image: confluentinc/cp-kafka\n    environment:\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n  registry:\n    image: confluentinc/cp-schema-registry:7.5.0\n    environment:\n      SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS: SASL_SSL://pkc-1.confluent.cloud:9092\n      SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR: 1\n";
    let found = read_files(
        vec![("docker-compose.yml".into(), elsewhere.as_bytes().to_vec())],
        &[],
    );
    assert_eq!(found.clusters[0].members.len(), 1);
    assert!(
        found.notes[0].contains("names no broker service"),
        "{:?}",
        found.notes
    );
    let alone = "services:\n  connect:\n    image: debezium/connect:2.7\n    environment:\n      BOOTSTRAP_SERVERS: kafka:9092\n";
    let found = read_files(
        vec![("docker-compose.yml".into(), alone.as_bytes().to_vec())],
        &[],
    );
    assert!(found.clusters.is_empty());
    assert!(
        found.notes[0].contains("runs no broker"),
        "{:?}",
        found.notes
    );
}

#[test]
fn a_component_env_file_leaves_its_factors_unknown() {
    let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka\n    environment:\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n  connect:\n    image: debezium/connect:2.7\n    env_file: connect.env\n  other:\n    image: confluentinc/cp-kafka-connect:7.5.0\n    env_file: connect.env\n";
    let files = nodes(text);
    for file in &files[1..] {
        let rf = file
            .properties
            .get("status.storage.replication.factor")
            .unwrap();
        assert!(rf.value.contains("${"), "{}", rf.value);
    }
}

#[test]
fn spans_stay_true_after_a_block_scalar_of_non_ascii_text() {
    // yaml-rust2 counts the characters of a block scalar's lines in bytes: every span after
    // one was off by the extra bytes, and redaction hid the wrong bytes.
    let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.6.0\n    command:\n      - |\n        # Tất cả nodes phải được format với CÙNG SCRAM\n        echo ok\n    environment:\n      KAFKA_SSL_KEY_PASSWORD: hunter2\n      KAFKA_NUM_PARTITIONS: 3\n";
    let files = nodes(text);
    let shown = compose(text).display_text();
    assert!(!shown.text.contains("hunter2"), "{}", shown.text);
    let partitions = files[0].properties.get("num.partitions").unwrap();
    assert_eq!(&text[partitions.value_span.clone()], "3");
    assert_eq!(&shown.text[shown.span(&partitions.value_span)], "3");
}

#[test]
fn a_kafka_image_running_its_own_command_is_a_broker_only_when_it_sets_a_broker_key() {
    // A broker started through a wrapper command, told its settings: a node.
    let broker = "services:\n  kafka:\n    image: bitnami/kafka:3.9\n    command: [\"/opt/bitnami/scripts/kafka/run.sh\"]\n    environment:\n      KAFKA_CFG_NODE_ID: 1\n      KAFKA_CFG_PROCESS_ROLES: broker,controller\n";
    assert_eq!(nodes(broker).len(), 1);
    // The same image formatting storage, told only the cluster id: a tool container.
    let tool = "services:\n  init:\n    image: apache/kafka:3.9.0\n    environment:\n      CLUSTER_ID: abc\n    entrypoint: [\"/opt/kafka/bin/kafka-storage.sh\", \"random-uuid\"]\n";
    assert_left_with_a_note(tool, "tool container");
    // No command of its own and a setting: the image starts a broker.
    let plain = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n";
    assert_eq!(nodes(plain).len(), 1);
    // No setting at all: the image runs its sample file, which kafkalint says and leaves.
    let sample = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n";
    assert_left_with_a_note(sample, "sample single-node");
}

#[test]
fn each_setting_says_who_wrote_it() {
    use crate::properties::Provenance;
    // Bitnami starts from Kafka's sample file, whose internal topics have one replica.
    let text = "services:\n  kafka:\n    image: bitnami/kafka:3.4\n    environment:\n      KAFKA_CFG_NODE_ID: 2\n      KAFKA_CFG_PROCESS_ROLES: broker,controller\n";
    let files = nodes(text);
    let provenance = |key: &str| files[0].properties.get(key).unwrap().provenance;
    assert_eq!(provenance("node.id"), Provenance::Written);
    assert_eq!(
        provenance("offsets.topic.replication.factor"),
        Provenance::Image
    );
    // apache/kafka derives listeners from the advertised ones.
    let text = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092\n";
    let files = nodes(text);
    let provenance = |key: &str| files[0].properties.get(key).unwrap().provenance;
    assert_eq!(provenance("listeners"), Provenance::Derived);
    // Strimzi writes the node ids and roles; spec.kafka.config is the author's.
    let text = "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my\nspec:\n  kafka:\n    replicas: 1\n    config:\n      num.partitions: 3\n";
    let found = read_files(vec![("kafka.yaml".into(), text.as_bytes().to_vec())], &[]);
    let part = &found.files[0].yaml.as_ref().unwrap().parts[0];
    let provenance = |key: &str| part.properties.get(key).unwrap().provenance;
    assert_eq!(provenance("node.id"), Provenance::Operator);
    assert_eq!(provenance("num.partitions"), Provenance::Written);
}

/// The compose `text` gives no node, and a note that says `why`.
fn assert_left_with_a_note(text: &str, why: &str) {
    let found = read_files(
        vec![("docker-compose.yml".into(), text.as_bytes().to_vec())],
        &[],
    );
    assert!(
        found
            .clusters
            .iter()
            .all(|cluster| cluster.members.is_empty())
    );
    assert!(
        found.notes.iter().any(|note| note.contains(why)),
        "{:?}",
        found.notes
    );
}

#[test]
fn a_mounted_configuration_is_noted_as_the_image_uses_it() {
    let text = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    volumes:\n      - ./config:/mnt/shared/config\n    environment:\n      KAFKA_NODE_ID: 1\n  other:\n    image: bitnami/kafka:3.9\n    volumes:\n      - ./server.properties:/bitnami/kafka/config/server.properties\n";
    let found = read_files(
        vec![("docker-compose.yml".into(), text.as_bytes().to_vec())],
        &[],
    );
    assert!(found.clusters.is_empty());
    assert!(
        found.notes[0].contains("the image appends its KAFKA_ variables"),
        "{:?}",
        found.notes
    );
    assert!(
        found.notes[1].contains("not read from the environment"),
        "{:?}",
        found.notes
    );
}
