//! Membership decisions: alternative sets of the same nodes in one folder, and overlays (files
//! of settings merged into nodes) that are no nodes. Each test would fail if the folder were
//! read as one cluster of every file, as it once was.

use std::path::{Path, PathBuf};

use kafkalint::cluster::{Cluster, Share};
use kafkalint::{Options, Report};

fn check(path: &Path) -> Report {
    kafkalint::check(&[path.to_path_buf()], &Options::default()).unwrap()
}

fn fixture(path: &str) -> Report {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    check(Path::new(path))
}

fn rules(report: &Report) -> Vec<&str> {
    report.diagnostics.iter().map(|d| d.rule).collect()
}

fn alternative(cluster: &Cluster) -> Option<(usize, usize)> {
    match &cluster.membership.share {
        Some(Share::Alternative { index, of, .. }) => Some((*index, *of)),
        _ => None,
    }
}

/// A folder of its own, with `files` (name, text) in it.
fn folder(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("conf");
    std::fs::create_dir(&root).unwrap();
    for (name, text) in files {
        std::fs::write(root.join(name), text).unwrap();
    }
    (dir, root)
}

fn zookeeper_broker(id: u32, port: u32, dir: &str) -> String {
    format!(
        "broker.id={id}\nzookeeper.connect=zk:2181\nlisteners=PLAINTEXT://:{port}\n\
         advertised.listeners=PLAINTEXT://kafka:{port}\nlog.dirs={dir}\n"
    )
}

#[test]
fn the_same_brokers_written_twice_are_two_alternative_sets_checked_alone() {
    let report = fixture("fixtures/duplicate-node-id/good-alternatives");
    assert_eq!(report.clusters.len(), 2);
    for (index, cluster) in report.clusters.iter().enumerate() {
        assert_eq!(
            alternative(cluster),
            Some((index + 1, 2)),
            "{}",
            cluster.name
        );
        assert_eq!(cluster.broker_count(), 3);
        assert_eq!(cluster.membership.set_apart.len(), 1);
        assert_eq!(cluster.membership.set_apart[0].files.len(), 3);
    }
    for false_alarm in [
        "duplicate-node-id",
        "shared-advertised-address",
        "shared-log-dir",
        "inconsistent-cluster-value",
        "port-clash-on-host",
    ] {
        assert!(
            !rules(&report).contains(&false_alarm),
            "{:?}",
            rules(&report)
        );
    }
    let summary = kafkalint::output::summary(&report);
    assert!(
        summary.contains(
            "2 alternative sets of 3 brokers (server-N.properties, server-N.sasl.properties)"
        ),
        "{summary}"
    );
}

#[test]
fn a_copy_left_with_the_old_id_inside_an_alternative_set_is_still_a_duplicate_id() {
    let report = fixture("fixtures/duplicate-node-id/bad-alternatives-copied-id");
    let duplicates: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "duplicate-node-id")
        .collect();
    assert_eq!(duplicates.len(), 1, "{:#?}", report.diagnostics);
    let files: Vec<&str> = duplicates[0]
        .labels
        .iter()
        .map(|label| report.files[label.file].path.as_str())
        .collect();
    assert!(
        files.iter().all(|file| file.ends_with(".sasl.properties")),
        "{files:?}"
    );
}

#[test]
fn two_numbered_files_with_one_id_are_one_cluster_with_a_duplicate_id() {
    let report = fixture("fixtures/duplicate-node-id/bad");
    assert_eq!(report.clusters.len(), 1);
    assert_eq!(alternative(&report.clusters[0]), None);
    assert!(rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn names_whose_numbers_disagree_are_no_alternatives() {
    // broker-3 was copied from kafka-2 and kept its id: a mistake, not another way to run it.
    let (_dir, root) = folder(&[
        ("kafka-1.properties", &zookeeper_broker(1, 9092, "/data/1")),
        ("kafka-2.properties", &zookeeper_broker(2, 9093, "/data/2")),
        ("broker-3.properties", &zookeeper_broker(2, 9093, "/data/2")),
    ]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 1);
    assert!(rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn twins_that_share_no_address_or_directory_are_no_alternatives() {
    let (_dir, root) = folder(&[
        (
            "server-1.properties",
            &zookeeper_broker(1, 9092, "/data/plain"),
        ),
        (
            "server-1.sasl.properties",
            &zookeeper_broker(1, 9093, "/data/sasl"),
        ),
    ]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 1);
    assert!(rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn twins_that_share_a_directory_are_alternatives() {
    let (_dir, root) = folder(&[
        (
            "server-1.properties",
            &zookeeper_broker(1, 9092, "/data/kafka"),
        ),
        (
            "server-1.sasl.properties",
            &zookeeper_broker(1, 9093, "/data/kafka"),
        ),
    ]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 2);
    assert!(!rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn a_broker_and_a_controller_of_one_id_are_no_alternatives() {
    let node = |roles: &str| {
        format!(
            "process.roles={roles}\nnode.id=1\ncontroller.quorum.voters=1@localhost:9093\n\
             controller.listener.names=CONTROLLER\nlog.dirs=/data/kafka\n"
        )
    };
    let (_dir, root) = folder(&[
        ("broker.properties", &node("broker")),
        ("controller.properties", &node("controller")),
    ]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 1);
    assert!(rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn an_overlay_beside_brokers_is_no_broker_and_its_lines_are_still_checked() {
    let report = fixture("fixtures/unknown-key/bad-overlay");
    let cluster = &report.clusters[0];
    assert_eq!(cluster.overlays.len(), 1);
    assert_eq!(cluster.broker_count(), 3);
    assert_eq!(cluster.files.len(), 4);
    let unknown: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.rule == "unknown-key")
        .collect();
    assert_eq!(unknown.len(), 1);
    let file = &report.files[unknown[0].primary().file].path;
    assert!(file.ends_with("server-rack.properties"), "{file}");
    // Compared with the brokers as if it were one, its defaults differed from their values.
    assert!(!rules(&report).contains(&"inconsistent-cluster-value"));
}

#[test]
fn an_overlay_alone_says_so_and_gets_no_broker_count_findings() {
    let report = fixture("fixtures/internal-topic-replication/good-overlay-alone");
    let cluster = &report.clusters[0];
    assert!(cluster.nodes.is_empty());
    assert_eq!(cluster.overlays.len(), 1);
    assert!(!cluster.broker_count_is_known(&report.files));
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    let summary = kafkalint::output::summary(&report);
    assert!(summary.contains(": an overlay: not a node ("), "{summary}");
    let json = kafkalint::output::json(&report);
    assert!(json.contains("\"overlays\": ["), "{json}");
}

#[test]
fn a_lone_file_that_says_where_it_listens_is_a_node_without_an_id_or_mode() {
    let (_dir, root) = folder(&[(
        "server.properties",
        "listeners=PLAINTEXT://:9092\nlog.dirs=/var/lib/kafka\nnum.partitions=3\n",
    )]);
    let report = check(&root);
    let cluster = &report.clusters[0];
    assert_eq!(cluster.nodes.len(), 1);
    assert!(cluster.overlays.is_empty());
}

#[test]
fn the_json_of_each_cluster_gives_its_membership_reason() {
    let report = fixture("fixtures/duplicate-node-id/good-alternatives");
    let json: serde_json::Value = serde_json::from_str(&kafkalint::output::json(&report)).unwrap();
    let membership = &json["clusters"][1]["membership"];
    assert_eq!(membership["reason"], "folder");
    assert_eq!(membership["share"], "alternative");
    assert_eq!(
        membership["text"],
        "alternative 2 of 2 of folder fixtures/duplicate-node-id/good-alternatives"
    );
    let why = membership["set_apart"][0]["why"].as_str().unwrap();
    assert!(
        why.starts_with("server-N.properties: the same nodes written again (node ids 1, 2, 3"),
        "{why}"
    );
}

#[test]
fn a_smaller_set_of_the_same_quorum_stands_in_for_part_of_the_larger_cluster() {
    // Only broker 1 has a SASL variant: it runs in the three-broker cluster, so the factor 3 of
    // its file is no error on "a cluster of 1 broker".
    let broker = |id: u32| {
        format!(
            "broker.id={id}\nzookeeper.connect=zk:2181/kafka\nlisteners=PLAINTEXT://:9092\n\
             advertised.listeners=PLAINTEXT://kafka-{id}:9092\nlog.dirs=/var/lib/kafka/data\n\
             offsets.topic.replication.factor=3\ntransaction.state.log.replication.factor=3\n"
        )
    };
    let sasl = broker(1).replace("PLAINTEXT", "SASL_PLAINTEXT")
        + "security.inter.broker.protocol=SASL_PLAINTEXT\nsasl.enabled.mechanisms=PLAIN\n\
           sasl.mechanism.inter.broker.protocol=PLAIN\n";
    let (_dir, root) = folder(&[
        ("server-1.properties", &broker(1)),
        ("server-2.properties", &broker(2)),
        ("server-3.properties", &broker(3)),
        ("server-1.sasl.properties", &sasl),
    ]);
    let options = Options {
        kafka_version: Some(kafkalint::catalog::KafkaVersion::parse("3.9").unwrap()),
        ..Options::default()
    };
    let report = kafkalint::check(&[root], &options).unwrap();
    assert_eq!(report.clusters.len(), 2);
    let smaller = report.clusters.iter().find(|c| c.nodes.len() == 1).unwrap();
    assert!(!smaller.broker_count_is_known(&report.files));
    assert!(
        !rules(&report).contains(&"internal-topic-replication"),
        "{:#?}",
        report.diagnostics
    );
}

#[test]
fn a_smaller_set_of_another_quorum_is_a_cluster_of_its_own_size() {
    let report = fixture("fixtures/duplicate-node-id/good-single-node-beside");
    let single = report.clusters.iter().find(|c| c.nodes.len() == 1).unwrap();
    assert!(single.broker_count_is_known(&report.files));
}

// ---- Strimzi resources bound across folders, and node pools that are on but absent ----

/// A tree of its own, with `files` (path below the root, text) in it.
fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("repo");
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    (dir, root)
}

fn strimzi_kafka(name: &str, annotations: &str, replicas: u32) -> String {
    format!(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: {name}\n{annotations}\
         spec:\n  kafka:\n    version: 3.9.0\n    replicas: {replicas}\n    listeners:\n\
         \x20     - name: plain\n        port: 9092\n        type: internal\n        tls: false\n\
         \x20   config:\n      offsets.topic.replication.factor: 3\n\
         \x20     transaction.state.log.replication.factor: 3\n\
         \x20     transaction.state.log.min.isr: 2\n      default.replication.factor: 3\n\
         \x20     min.insync.replicas: 2\n    storage:\n      type: ephemeral\n"
    )
}

const CONNECT_DEFAULTS: &str = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaConnect\n\
     metadata:\n  name: sink\nspec:\n  replicas: 1\n  bootstrapServers: bus-kafka-bootstrap:9092\n\
     \x20 config:\n    group.id: sink\n    offset.storage.topic: sink-offsets\n\
     \x20   config.storage.topic: sink-configs\n    status.storage.topic: sink-status\n";

#[test]
fn a_connect_names_the_kafka_of_another_folder_by_its_bootstrap_service_the_nearest_one() {
    let kafka = strimzi_kafka("bus", "", 1);
    let (_dir, root) = tree(&[
        ("kafka/kafka.yaml", &kafka),
        ("connect/connect.yaml", CONNECT_DEFAULTS),
    ]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 1, "{:#?}", report.clusters);
    assert_eq!(report.clusters[0].components.len(), 1);
    assert!(
        rules(&report).contains(&"component-internal-topic-replication"),
        "{:#?}",
        report.diagnostics
    );
    assert!(
        !report
            .skipped
            .iter()
            .any(|line| line.contains("names no Strimzi Kafka")),
        "{:#?}",
        report.skipped
    );

    // Two of the name, equally near in two folders: the address cannot tell them apart.
    let one = strimzi_kafka("bus", "", 1);
    let three = strimzi_kafka("bus", "", 3);
    let (_dir, root) = tree(&[
        ("east/kafka.yaml", &one),
        ("west/kafka.yaml", &three),
        ("connect/connect.yaml", CONNECT_DEFAULTS),
    ]);
    let report = check(&root);
    assert!(
        report
            .clusters
            .iter()
            .all(|cluster| cluster.components.is_empty()),
        "{:#?}",
        report.clusters
    );
    assert!(
        report.skipped.iter().any(|line| line
            .contains("KafkaConnect `sink`: its spec.bootstrapServers names no Strimzi Kafka")),
        "{:#?}",
        report.skipped
    );
}

#[test]
fn node_pools_enabled_without_a_pool_leave_the_broker_count_unknown_and_say_why() {
    // One replica written, three replicas asked of every internal topic: counted as one broker,
    // that is an error; but with node pools on, Strimzi never reads spec.kafka.replicas.
    let kafka = strimzi_kafka(
        "bus",
        "  annotations:\n    strimzi.io/node-pools: enabled\n",
        1,
    );
    let (_dir, root) = tree(&[("kafka/kafka.yaml", &kafka)]);
    let report = check(&root);
    assert!(
        !report.clusters[0].broker_count_is_known(&report.files),
        "{:#?}",
        report.clusters
    );
    assert!(
        !rules(&report).contains(&"internal-topic-replication"),
        "{:#?}",
        report.diagnostics
    );
    assert!(
        report.skipped.iter().any(|line| line.contains(
            "strimzi.io/node-pools: enabled and no KafkaNodePool labelled strimzi.io/cluster: bus beside it: Strimzi ignores spec.kafka.replicas"
        )),
        "{:#?}",
        report.skipped
    );

    // The annotation off, or a pool beside it: counted as written.
    let disabled = strimzi_kafka(
        "bus",
        "  annotations:\n    strimzi.io/node-pools: disabled\n",
        1,
    );
    let (_dir, root) = tree(&[("kafka/kafka.yaml", &disabled)]);
    let report = check(&root);
    assert!(rules(&report).contains(&"internal-topic-replication"));

    let enabled = strimzi_kafka(
        "bus",
        "  annotations:\n    strimzi.io/node-pools: Enabled\n",
        1,
    );
    let pool = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata:\n  name: \
                brokers\n  labels:\n    strimzi.io/cluster: bus\nspec:\n  replicas: 1\n  roles: \
                [broker]\n";
    let (_dir, root) = tree(&[("kafka/kafka.yaml", &enabled), ("kafka/pool.yaml", pool)]);
    let report = check(&root);
    assert!(report.clusters[0].broker_count_is_known(&report.files));
    assert!(rules(&report).contains(&"internal-topic-replication"));
}

#[test]
fn a_base_file_beside_its_numbered_copies_is_the_first_node_of_their_set() {
    // server.properties with server-1 and server-2.properties, and a TLS twin of each: two sets
    // of three brokers, not a lone server.properties beside a set of two.
    let report = fixture("fixtures/internal-topic-replication/bad-alternatives-with-base");
    let sets: Vec<(usize, Option<(usize, usize)>)> = report
        .clusters
        .iter()
        .map(|cluster| (cluster.nodes.len(), alternative(cluster)))
        .collect();
    assert_eq!(
        sets,
        [(3, Some((1, 2))), (3, Some((2, 2)))],
        "{:#?}",
        report.clusters
    );
    let at_base = report.diagnostics.iter().any(|d| {
        d.rule == "internal-topic-replication"
            && d.help.contains("(the cluster has 3 brokers)")
            && d.labels.iter().any(|label| {
                report.files[label.file]
                    .path
                    .ends_with("/server.properties")
            })
    });
    assert!(at_base, "{:#?}", report.diagnostics);
}

// ---- Kubernetes workloads of several files that name one quorum ----

fn kubernetes_broker(name: &str, namespace: &str, id: u32, offsets_factor: u32) -> String {
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n{namespace}spec:\n\
         \x20 replicas: 1\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n\
         \x20   metadata:\n      labels:\n        app: {name}\n    spec:\n\
         \x20     enableServiceLinks: false\n      containers:\n        - name: kafka\n\
         \x20         image: confluentinc/cp-kafka:7.6.1\n          env:\n\
         \x20           - name: KAFKA_BROKER_ID\n              value: \"{id}\"\n\
         \x20           - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n\
         \x20           - name: KAFKA_ADVERTISED_LISTENERS\n              value: PLAINTEXT://{name}:9092\n\
         \x20           - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR\n              value: \"{offsets_factor}\"\n"
    )
}

#[test]
fn workloads_of_several_files_that_name_one_zookeeper_are_one_cluster_in_one_namespace() {
    let files: Vec<(String, String)> = (0..3)
        .map(|id| {
            (
                format!("kafka-{id}.yaml"),
                kubernetes_broker(&format!("kafka-{id}"), "", id, 1),
            )
        })
        .collect();
    let named: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let (_dir, root) = folder(&named);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 1, "{:#?}", report.clusters);
    assert_eq!(report.clusters[0].nodes.len(), 3);
    assert_eq!(report.clusters[0].files.len(), 3);

    // The same Deployment written twice (two ways to run it), and one of another namespace:
    // no cluster of three.
    let twice = kubernetes_broker("kafka-0", "", 0, 1);
    let elsewhere = kubernetes_broker("kafka-1", "  namespace: staging\n", 1, 1);
    let (_dir, root) = folder(&[
        ("kafka-0.yaml", &twice),
        ("kafka-0-copy.yaml", &twice),
        ("kafka-1.yaml", &elsewhere),
    ]);
    let report = check(&root);
    assert!(
        report
            .clusters
            .iter()
            .all(|cluster| cluster.nodes.len() == 1),
        "{:#?}",
        report.clusters
    );
    // kafka-dev.yaml and kafka-prod.yaml: the same brokers written for two namespaces that
    // kubectl -n picks; one ZooKeeper name, one id each: two places, not one cluster.
    let dev = kubernetes_broker("kafka-dev", "", 0, 1);
    let prod = kubernetes_broker("kafka-prod", "", 0, 1);
    let (_dir, root) = folder(&[("kafka-dev.yaml", &dev), ("kafka-prod.yaml", &prod)]);
    let report = check(&root);
    assert_eq!(report.clusters.len(), 2, "{:#?}", report.clusters);
    assert!(!rules(&report).contains(&"duplicate-node-id"));
}

#[test]
fn node_pools_of_alternative_files_are_not_one_cluster() {
    // Each file its own Kafka of one name with its own pools: each counts its own.
    let report = fixture("fixtures/internal-topic-replication/good-strimzi-alternative-files");
    let sizes: Vec<usize> = report.clusters.iter().map(|c| c.nodes.len()).collect();
    assert_eq!(sizes, [1, 6], "{:#?}", report.clusters);
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);

    // One pool written twice beside the Kafka, with other sizes: which runs is unknown.
    let kafka = strimzi_kafka(
        "bus",
        "  annotations:\n    strimzi.io/node-pools: enabled\n",
        1,
    );
    let pool = |replicas: u32| {
        format!(
            "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata:\n  name: \
             brokers\n  labels:\n    strimzi.io/cluster: bus\nspec:\n  replicas: {replicas}\n  \
             roles: [broker]\n"
        )
    };
    let (dev, prod) = (pool(1), pool(3));
    let (_dir, root) = tree(&[
        ("kafka/kafka.yaml", &kafka),
        ("kafka/pool-dev.yaml", &dev),
        ("kafka/pool-prod.yaml", &prod),
    ]);
    let report = check(&root);
    assert!(
        !report.clusters[0].broker_count_is_known(&report.files),
        "{:#?}",
        report.clusters
    );
    assert!(
        report
            .skipped
            .iter()
            .any(|line| line.contains("KafkaNodePool `brokers` is written more than once")),
        "{:#?}",
        report.skipped
    );
}

// ---- properties files a compose file mounts into its services' containers ----

fn mounted_broker(id: u32, advertised_port: u32) -> String {
    format!(
        "broker.id={id}\nzookeeper.connect=zookeeper:2181\nlisteners=PLAINTEXT://:9092\n\
         advertised.listeners=PLAINTEXT://localhost:{advertised_port}\n\
         log.dirs=/var/lib/kafka/data\n"
    )
}

#[test]
fn properties_files_mounted_into_compose_services_run_in_those_containers() {
    let compose = "services:\n  kafka-1:\n    image: apache/kafka:3.7.0\n    volumes:\n      \
                   - ./config/server-1.properties:/opt/kafka/config/server.properties\n  \
                   kafka-2:\n    image: apache/kafka:3.7.0\n    volumes:\n      \
                   - ./config/server-2.properties:/opt/kafka/config/server.properties\n";
    let (one, two) = (mounted_broker(1, 9092), mounted_broker(2, 9093));
    let (_dir, root) = tree(&[
        ("docker-compose.yml", compose),
        ("config/server-1.properties", &one),
        ("config/server-2.properties", &two),
    ]);
    let report = check(&root);
    let found = rules(&report);
    assert!(!found.contains(&"port-clash-on-host"), "{found:?}");
    assert!(!found.contains(&"shared-log-dir"), "{found:?}");
    assert!(found.contains(&"localhost-advertised"), "{found:?}");

    // One service mounting both files runs both brokers in its one container: one port 9092.
    let shared = "services:\n  kafka:\n    image: apache/kafka:3.7.0\n    volumes:\n      \
                  - ./config/server-1.properties:/opt/kafka/config/server-1.properties\n      \
                  - ./config/server-2.properties:/opt/kafka/config/server-2.properties\n";
    let (_dir, root) = tree(&[
        ("docker-compose.yml", shared),
        ("config/server-1.properties", &one),
        ("config/server-2.properties", &two),
    ]);
    let report = check(&root);
    let found = rules(&report);
    assert!(found.contains(&"port-clash-on-host"), "{found:?}");
    assert!(!found.contains(&"localhost-advertised"), "{found:?}");
}
