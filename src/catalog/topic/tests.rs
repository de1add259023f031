use super::judge::{Cluster, ClusterValue, ProblemKind, judge};
use super::*;

fn release_dumps() -> Vec<(KafkaVersion, serde_json::Value)> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/data");
    VERSIONS
        .iter()
        .map(|version| {
            let path = data.join(format!("kafka-{version}.json"));
            let text = std::fs::read_to_string(&path).expect("a dump per release");
            (*version, serde_json::from_str(&text).expect("JSON"))
        })
        .collect()
}

/// The generated topic tables say what each release's dump says: keys, types, defaults,
/// validator kinds.
#[test]
fn topic_tables_agree_with_every_release_dump() {
    for (version, dump) in release_dumps() {
        let types = dump["other_components"]["topic"]
            .as_object()
            .expect("topic keys");
        let names: Vec<&str> = keys(version).map(|k| k.name).collect();
        let dumped: Vec<&str> = types.keys().map(String::as_str).collect();
        assert_eq!(names, dumped, "{version}");
        for topic_key in keys(version) {
            let name = topic_key.name;
            assert_eq!(
                topic_key.config_type().kafka_name(),
                types[name].as_str().unwrap(),
                "{name} {version}"
            );
            let default = &dump["other_components_defaults"]["topic"][name];
            assert_eq!(topic_key.default(), default.as_str(), "{name} {version}");
            let validator = &dump["other_components_validators"]["topic"][name];
            let matches = match (validator["kind"].as_str(), topic_key.validator()) {
                (None, Validator::None) => true,
                (Some("range"), Validator::Range { min, max }) => {
                    min.map(|b| b.value) == validator["min"].as_f64()
                        && max.map(|b| b.value) == validator["max"].as_f64()
                }
                (Some("valid_string"), Validator::ValidString(valid)) => {
                    *valid
                        == validator["valid_values"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_str().unwrap())
                            .collect::<Vec<_>>()
                }
                (Some("valid_list"), Validator::ValidList(_) | Validator::StrictList { .. }) => {
                    true
                }
                (Some("lambda" | "other"), Validator::Custom { .. }) => true,
                _ => false,
            };
            assert!(
                matches,
                "{name} {version}: {validator} vs {:?}",
                topic_key.validator()
            );
        }
    }
}

#[test]
fn segment_bytes_minimum_is_one_mebibyte_from_4_1() {
    for version in VERSIONS {
        let verdict = check_value(*version, "segment.bytes", "1000000");
        if *version >= KafkaVersion::new(4, 1) {
            assert_eq!(
                verdict.unwrap_err().to_string(),
                "Invalid value 1000000 for configuration segment.bytes: Value must be at least 1048576",
                "{version}"
            );
        } else {
            assert_eq!(verdict, Ok(Parsed::Integer(1_000_000)), "{version}");
        }
    }
    // Refused at the bottom of the range everywhere, as Kafka says it.
    assert_eq!(
        check_value(KafkaVersion::new(3, 9), "segment.bytes", "13")
            .unwrap_err()
            .to_string(),
        "Invalid value 13 for configuration segment.bytes: Value must be at least 14"
    );
    assert_eq!(
        check_value(KafkaVersion::new(3, 9), "min.cleanable.dirty.ratio", "1.5")
            .unwrap_err()
            .to_string(),
        "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1"
    );
}

/// Read from the dumps, not typed: the keys a release dropped, and the release that dropped them.
#[test]
fn removed_keys_and_their_release_come_from_the_dumps() {
    let v3_9 = KafkaVersion::new(3, 9);
    let v4_0 = KafkaVersion::new(4, 0);
    for key in [
        "message.format.version",
        "message.timestamp.difference.max.ms",
        "message.downconversion.enable",
    ] {
        assert!(spec(v3_9, key).is_some(), "{key}");
        assert_eq!(removal(v3_9, key), None, "{key}");
        for version in VERSIONS.iter().filter(|v| **v >= v4_0) {
            assert_eq!(
                removal(*version, key),
                Some(Removal {
                    last: v3_9,
                    removed_in: v4_0
                }),
                "{key} {version}"
            );
        }
    }
    // Every key removed between two releases is one of those three.
    let mut removed: Vec<(KafkaVersion, &str)> = Vec::new();
    for pair in VERSIONS.windows(2) {
        for topic_key in keys(pair[0]) {
            if spec(pair[1], topic_key.name).is_none() {
                removed.push((pair[1], topic_key.name));
            }
        }
    }
    removed.sort();
    assert_eq!(
        removed,
        [
            (v4_0, "message.downconversion.enable"),
            (v4_0, "message.format.version"),
            (v4_0, "message.timestamp.difference.max.ms"),
        ]
    );
    assert_eq!(
        added_after(KafkaVersion::new(4, 3), "remote.copy.lag.ms"),
        Some(KafkaVersion::new(4, 4))
    );
    assert_eq!(removal(v4_0, "no.such.key"), None);
}

#[test]
fn cluster_defaults_come_from_the_broker_synonyms() {
    let v = KafkaVersion::new(4, 2);
    assert_eq!(
        cluster_default_key(v, "cleanup.policy"),
        Some("log.cleanup.policy")
    );
    assert_eq!(
        cluster_default_key(v, "min.insync.replicas"),
        Some("min.insync.replicas")
    );
    assert_eq!(
        cluster_default_key(v, "retention.ms"),
        Some("log.retention.ms")
    );
    assert_eq!(
        cluster_default_key(v, "max.message.bytes"),
        Some("message.max.bytes")
    );
    assert_eq!(cluster_default_key(v, "remote.storage.enable"), None);
    assert_eq!(cluster_default_key(v, "message.format.version"), None);
    assert_eq!(
        cluster_default_key(KafkaVersion::new(3, 9), "message.format.version"),
        Some("log.message.format.version")
    );
}

#[test]
fn values_are_parsed_as_kafka_parses_them() {
    let v = KafkaVersion::new(3, 9);
    assert!(check_value(v, "cleanup.policy", "compact, delete").is_ok());
    assert!(check_value(v, "cleanup.policy", "Delete").is_err());
    assert!(check_value(v, "preallocate", "TRUE").is_ok());
    assert!(check_value(v, "preallocate", "yes").is_err());
    assert!(check_value(v, "message.format.version", "3.0").is_ok());
    // 2.8 knows no 3.0 message format.
    assert!(check_value(KafkaVersion::new(2, 8), "message.format.version", "3.0").is_err());
    assert!(check_value(v, "leader.replication.throttled.replicas", "0:1, 1:2").is_ok());
    assert!(check_value(v, "leader.replication.throttled.replicas", "*").is_ok());
    assert!(check_value(v, "leader.replication.throttled.replicas", "zero").is_err());
    assert_eq!(
        check_value(v, "no.such.key", "1").unwrap_err().reason,
        "Unknown topic config name: no.such.key"
    );
    assert_eq!(nearest_key(v, "retention.byte"), Some("retention.bytes"));
}

fn unset(_: &str) -> ClusterValue {
    ClusterValue::Unset
}

/// A case of `catalog/topic-cases.txt`: id, the system flag, ZooKeeper mode, the configs.
struct Case<'a> {
    id: &'a str,
    system: bool,
    zookeeper: bool,
    configs: Vec<(&'a str, Option<&'a str>)>,
}

fn cases() -> Vec<Case<'static>> {
    include_str!("../../../catalog/topic-cases.txt")
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let parts: Vec<&str> = line.split('|').collect();
            let configs = if parts[3].is_empty() {
                Vec::new()
            } else {
                parts[3]
                    .split(';')
                    .map(|pair| {
                        let (key, value) = pair.split_once('=').expect("key=value");
                        (key, Some(value))
                    })
                    .collect()
            };
            Case {
                id: parts[0],
                system: parts[1] == "true",
                zookeeper: parts[2] == "true",
                configs,
            }
        })
        .collect()
}

/// Where Kafka's message and ours differ in words (ConfigDef's type and ValidString texts, the
/// validators Kafka writes as code), only the verdict is compared.
const OUR_WORDS: &[&str] = &[
    "String must be one of",
    "Not a number of type",
    "Expected value to be either true or false",
    "must be the literal '*'",
    "values must not be empty",
    "is not a valid version",
    "Value must be between 1 and 9 or equal to -1",
];

/// Kafka's own verdict on each case, asked of every release's jars by
/// `catalog/topic-verdicts.sh` (`LogConfig.validate`, or for `open_` cases what a broker does
/// when it opens the log): kafkalint says "Kafka refuses" exactly when Kafka does, quoting it.
#[test]
fn judgement_agrees_with_kafka_on_every_case_and_release() {
    let cases = cases();
    let mut compared = 0;
    for line in include_str!("../../../catalog/data/topic-verdicts.tsv").lines() {
        let mut fields = line.splitn(3, '\t');
        let (minor, id, verdict) = (
            fields.next().unwrap(),
            fields.next().unwrap(),
            fields.next().unwrap(),
        );
        let version = KafkaVersion::parse(minor).unwrap();
        let case = cases
            .iter()
            .find(|c| c.id == id)
            .expect("a case of the file");
        let cluster = Cluster {
            remote_storage_system_enabled: Some(case.system),
            zookeeper: Some(case.zookeeper),
            broker_value: &unset,
        };
        let problems = judge(version, &case.configs, &cluster);
        let kafka_message = verdict.strip_prefix("REFUSED: ");
        let ours = if id.starts_with("open_") {
            problems
                .iter()
                .any(|p| p.kind == ProblemKind::TieredStorage && !p.kafka_refuses)
        } else {
            problems.iter().any(|p| p.kafka_refuses)
        };
        assert_eq!(
            ours,
            kafka_message.is_some(),
            "{id} on {version}: Kafka says {verdict}; kafkalint says {problems:#?}"
        );
        if let Some(message) = kafka_message.filter(|m| !OUR_WORDS.iter().any(|w| m.contains(w))) {
            assert!(
                problems.iter().any(|p| p.message.contains(message)),
                "{id} on {version}: Kafka says {message}; kafkalint says {problems:#?}"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, cases.len() * VERSIONS.len());
}

#[test]
fn ineffective_max_message_bytes_above_segment_is_a_warning() {
    let cluster = Cluster {
        remote_storage_system_enabled: None,
        zookeeper: None,
        broker_value: &unset,
    };
    let configs = [
        ("max.message.bytes", Some("2000000")),
        ("segment.bytes", Some("1048576")),
    ];
    let problems = judge(KafkaVersion::new(4, 4), &configs, &cluster);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].kind, ProblemKind::Ineffective);
    assert_eq!(problems[0].key, "max.message.bytes");
    assert!(!problems[0].kafka_refuses);
    // Not when only the cluster's values conflict, nor when the value is unknown.
    let problems = judge(
        KafkaVersion::new(4, 4),
        &[
            ("max.message.bytes", None),
            ("segment.bytes", Some("1048576")),
        ],
        &cluster,
    );
    assert!(problems.is_empty(), "{problems:#?}");
}

/// From 3.6 an unset topic key is validated with the cluster's value; before, with the
/// ConfigDef default.
#[test]
fn cluster_values_stand_in_for_unset_keys_from_3_6() {
    let max_lag_small = |broker_key: &str| match broker_key {
        "log.cleaner.max.compaction.lag.ms" => ClusterValue::Value("1000".to_owned()),
        _ => ClusterValue::Unset,
    };
    let cluster = Cluster {
        remote_storage_system_enabled: Some(true),
        zookeeper: Some(false),
        broker_value: &max_lag_small,
    };
    let configs = [("min.compaction.lag.ms", Some("5000"))];
    let refused = |version| {
        judge(version, &configs, &cluster)
            .iter()
            .any(|p| p.kind == ProblemKind::CrossField && p.kafka_refuses)
    };
    assert!(!refused(KafkaVersion::new(3, 5)));
    assert!(refused(KafkaVersion::new(3, 6)));
    assert!(refused(KafkaVersion::new(4, 4)));
    // An unknown cluster value keeps the check silent.
    let unknown = |_: &str| ClusterValue::Unknown;
    let cluster = Cluster {
        broker_value: &unknown,
        ..cluster
    };
    assert!(judge(KafkaVersion::new(4, 4), &configs, &cluster).is_empty());
    // So does an unknown system flag for remote storage.
    let cluster = Cluster {
        remote_storage_system_enabled: None,
        broker_value: &unset,
        ..cluster
    };
    assert!(
        judge(
            KafkaVersion::new(4, 4),
            &[("remote.storage.enable", Some("true"))],
            &cluster
        )
        .is_empty()
    );
}

/// Before 3.6 the local retention checks are the LogConfig constructor's: CreateTopics fails in
/// ZooKeeper mode (it builds one for its response), brokers fail to open the log in KRaft mode.
#[test]
fn local_retention_before_3_6_is_refused_where_a_log_config_is_built() {
    let configs = [
        ("retention.ms", Some("1000")),
        ("local.retention.ms", Some("2000")),
    ];
    let judged = |zookeeper| {
        let cluster = Cluster {
            remote_storage_system_enabled: None,
            zookeeper,
            broker_value: &unset,
        };
        judge(KafkaVersion::new(3, 4), &configs, &cluster)
    };
    let in_zookeeper = judged(Some(true));
    assert_eq!(in_zookeeper.len(), 1, "{in_zookeeper:#?}");
    assert_eq!(in_zookeeper[0].kind, ProblemKind::TieredStorage);
    assert_eq!(in_zookeeper[0].key, "local.retention.ms");
    assert!(in_zookeeper[0].kafka_refuses);
    assert!(in_zookeeper[0].message.contains(
        "Invalid value 2000 for configuration local.retention.ms: Value must not be more than property: retention.ms value."
    ));
    for zookeeper in [Some(false), None] {
        let problems = judged(zookeeper);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(!problems[0].kafka_refuses);
    }
    // Without remote storage, 3.6 and later never look at it.
    let cluster = Cluster {
        remote_storage_system_enabled: None,
        zookeeper: Some(true),
        broker_value: &unset,
    };
    assert!(judge(KafkaVersion::new(3, 6), &configs, &cluster).is_empty());
}

/// A running topic takes the cluster's segment size in every release.
#[test]
fn ineffective_reads_the_cluster_values_in_every_release() {
    let small_segments = |broker_key: &str| match broker_key {
        "log.segment.bytes" => ClusterValue::Value("1048576".to_owned()),
        _ => ClusterValue::Unset,
    };
    let cluster = Cluster {
        remote_storage_system_enabled: None,
        zookeeper: None,
        broker_value: &small_segments,
    };
    for version in VERSIONS {
        let problems = judge(
            *version,
            &[("max.message.bytes", Some("2000000"))],
            &cluster,
        );
        let found: Vec<(ProblemKind, &str)> =
            problems.iter().map(|p| (p.kind, p.key.as_str())).collect();
        assert_eq!(
            found,
            [(ProblemKind::Ineffective, "max.message.bytes")],
            "{version}"
        );
    }
}
