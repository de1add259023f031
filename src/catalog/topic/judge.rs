//! Judges one topic's configs for one release the way Kafka validates them when a topic is
//! created (`LogConfig.validate`), plus what Kafka accepts but cannot honour.
//!
//! Pure: the caller says what it knows of the cluster ([`Cluster`]), nothing is read here.
//!
//! ```
//! use kafkalint::catalog::KafkaVersion;
//! use kafkalint::catalog::topic::judge::{judge, Cluster, ClusterValue, ProblemKind};
//!
//! let cluster = Cluster {
//!     remote_storage_system_enabled: Some(false),
//!     zookeeper: Some(false),
//!     broker_value: &|_broker_key: &str| ClusterValue::Unset,
//! };
//! let configs = [
//!     ("cleanup.policy", Some("delete")),
//!     ("remote.storage.enable", Some("true")),
//!     ("retention.byte", Some("1000")),
//!     ("message.format.version", Some("3.0")),
//! ];
//! let problems = judge(KafkaVersion::new(4, 0), &configs, &cluster);
//! let kinds: Vec<_> = problems.iter().map(|p| (p.kind, p.key.as_str())).collect();
//! assert_eq!(
//!     kinds,
//!     [
//!         (ProblemKind::Unknown, "retention.byte"),
//!         (ProblemKind::Removed, "message.format.version"),
//!         (ProblemKind::TieredStorage, "remote.storage.enable"),
//!     ]
//! );
//! assert_eq!(problems[0].suggestion, Some("retention.bytes"));
//! assert!(problems.iter().all(|p| p.kafka_refuses));
//! ```

use super::super::KafkaVersion;
use super::super::parsed::Parsed;
use super::{added_after, check_value, cluster_default_key, nearest_key, removal, spec};

/// What is wrong with a topic's config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemKind {
    /// Not a topic key of the release, nor of an earlier one.
    Unknown,
    /// A topic key an earlier release had and this one removed.
    Removed,
    /// A value the key's ConfigDef validator (or type) refuses.
    InvalidValue,
    /// Two keys' values conflict (`LogConfig.validateValues`).
    CrossField,
    /// The tiered-storage checks of `LogConfig`.
    TieredStorage,
    /// Kafka accepts it, but it cannot take effect.
    Ineffective,
}

/// One problem of a topic's config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicProblem {
    pub kind: ProblemKind,
    /// The key of the topic's config it points at, as written.
    pub key: String,
    /// One line: what is wrong and what it breaks, quoting Kafka's own message where it has one.
    pub message: String,
    /// `true` when CreateTopics (and AlterConfigs) fail because of it.
    pub kafka_refuses: bool,
    /// For [`ProblemKind::Unknown`]: the release's key it most likely misspells.
    pub suggestion: Option<&'static str>,
    /// The Kafka code the check mirrors: repository, path and tag.
    pub source: &'static str,
}

/// What a broker (in KRaft, the controller that validates the topic) sets for a broker key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClusterValue {
    /// The effective value, as Kafka resolves it (`log.retention.ms` from `log.retention.hours`
    /// when only that is set).
    Value(String),
    /// Not set: Kafka's default applies.
    Unset,
    /// Set, but not known (a template, a variable): checks that need it stay silent.
    Unknown,
}

/// What the caller knows of the cluster the topic lands on. In KRaft mode the controllers
/// validate topic configs with their own settings (`ControllerConfigurationValidator`), so the
/// answers should be the controllers'.
pub struct Cluster<'a> {
    /// `remote.log.storage.system.enable` of the brokers and (KRaft) controllers; `None` when
    /// unknown.
    pub remote_storage_system_enabled: Option<bool>,
    /// Whether the cluster runs in ZooKeeper mode; `None` when unknown.
    pub zookeeper: Option<bool>,
    /// The cluster's value of a broker key (the one [`cluster_default_key`] names for a topic
    /// key). From Kafka 3.6 a topic key left unset is validated with the cluster's value
    /// (`KafkaConfig.extractLogConfigMap`); before, with the ConfigDef default. A running topic
    /// always takes the cluster's value (the ineffective-config check reads it in every release).
    pub broker_value: &'a dyn Fn(&str) -> ClusterValue,
}

/// The file that holds `LogConfig` in release `version`, at the tag the catalogue dumps (4.x:
/// read on the release branches of confluentinc/kafka, which carry Apache Kafka's code).
fn log_config_source(version: KafkaVersion) -> &'static str {
    match (version.major, version.minor) {
        (2, _) => "apache/kafka core/src/main/scala/kafka/log/LogConfig.scala@2.8.2",
        (3, 0..=4) => "apache/kafka core/src/main/scala/kafka/log/LogConfig.scala@3.4.1",
        (3, 5) => {
            "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java@3.5.2"
        }
        (3, 6..=8) => {
            "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java@3.6.2"
        }
        (3, _) => {
            "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java@3.9.0"
        }
        _ => {
            "apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java (4.x release branches; checked against the 4.0.2 to 4.4.0 jars, catalog/data/topic-verdicts.tsv)"
        }
    }
}

const UNIFIED_LOG: &str = "apache/kafka core/src/main/scala/kafka/log/UnifiedLog.scala@3.9.0 (Log.scala@2.8.2; storage/src/main/java/org/apache/kafka/storage/internals/log/UnifiedLog.java in 4.x)";

/// From 3.6 `LogConfig.validate` parses the topic's configs over the broker's
/// (`extractLogConfigMap`) and runs the tiered-storage checks; before, over the ConfigDef's
/// defaults alone (LogConfig.scala@3.4.1 `validate`, LogConfig.java@3.5.2 `validate`).
const CLUSTER_VALUES_FROM: KafkaVersion = KafkaVersion::new(3, 6);
/// `validateRemoteStorageRequiresDeleteCleanupPolicy` replaces
/// `validateNoRemoteStorageForCompactedTopic` in 4.1 (KAFKA-19273).
const DELETE_ONLY_FROM: KafkaVersion = KafkaVersion::new(4, 1);
/// KIP-1161: from 4.2 an empty `cleanup.policy` passes the tiered-storage check too.
const EMPTY_POLICY_FROM: KafkaVersion = KafkaVersion::new(4, 2);

/// The problems of a topic whose configs are `configs` (key, value; `None` when the value is not
/// known) on release `version`, in the order of `configs` for the per-key problems, then the
/// cross-field, tiered-storage and ineffective ones.
pub fn judge(
    version: KafkaVersion,
    configs: &[(&str, Option<&str>)],
    cluster: &Cluster<'_>,
) -> Vec<TopicProblem> {
    let mut problems = Vec::new();
    for (key, value) in configs {
        if let Some(problem) = key_problem(version, key, *value) {
            problems.push(problem);
        }
    }
    // What CreateTopics validates with (the cluster's values from 3.6), and what a broker runs
    // the topic with (the cluster's values, always: `LogConfig.fromProps` over the broker's
    // `extractLogConfigMap`).
    let validated = Values {
        version,
        configs,
        cluster,
        with_cluster: version >= CLUSTER_VALUES_FROM,
    };
    let running = Values {
        with_cluster: true,
        ..validated
    };
    compaction_lag(&validated, &mut problems);
    tiered_storage(&validated, &running, &mut problems);
    segment_fits_message(&running, &mut problems);
    problems
}

/// An unknown or removed key, or a value its validator refuses.
fn key_problem(version: KafkaVersion, key: &str, value: Option<&str>) -> Option<TopicProblem> {
    let refused = |kind, message: String, suggestion| TopicProblem {
        kind,
        key: key.to_owned(),
        message,
        kafka_refuses: true,
        suggestion,
        source: log_config_source(version),
    };
    let unknown =
        format!("Kafka {version} refuses the topic with \"Unknown topic config name: {key}\"");
    if spec(version, key).is_none() {
        if let Some(removed) = removal(version, key) {
            return Some(refused(
                ProblemKind::Removed,
                format!(
                    "`{key}` was removed in Kafka {} (last in {}): {unknown}",
                    removed.removed_in, removed.last
                ),
                None,
            ));
        }
        if let Some(first) = added_after(version, key) {
            return Some(refused(
                ProblemKind::Unknown,
                format!("`{key}` is a topic config from Kafka {first} on: {unknown}"),
                None,
            ));
        }
        let suggestion = nearest_key(version, key);
        return Some(refused(
            ProblemKind::Unknown,
            format!("`{key}` is not a topic config of Kafka {version}: {unknown}"),
            suggestion,
        ));
    }
    let refusal = check_value(version, key, value?).err()?;
    Some(TopicProblem {
        kind: ProblemKind::InvalidValue,
        key: key.to_owned(),
        message: format!("Kafka {version} refuses the topic: {refusal}"),
        kafka_refuses: true,
        suggestion: None,
        source: log_config_source(version),
    })
}

/// A value of the config Kafka validates, and whether the topic itself sets it.
#[derive(Debug, Clone, PartialEq)]
struct Effective {
    value: Parsed,
    set_by_topic: bool,
}

/// Where Kafka takes each value from: the topic's config, else (`with_cluster`) the cluster's
/// value of the synonym broker key, else the ConfigDef default.
#[derive(Clone, Copy)]
struct Values<'a> {
    version: KafkaVersion,
    configs: &'a [(&'a str, Option<&'a str>)],
    cluster: &'a Cluster<'a>,
    with_cluster: bool,
}

impl Values<'_> {
    /// `None` when the value is not known, or not valid (then its own problem says so and the
    /// checks that need it stay silent), or the release has no such key.
    fn get(&self, key: &str) -> Option<Effective> {
        let topic_key = spec(self.version, key)?;
        // The last occurrence wins, as in a properties map.
        if let Some((_, value)) = self.configs.iter().rev().find(|(k, _)| *k == key) {
            let value = check_value(self.version, key, (*value)?).ok()?;
            return Some(Effective {
                value,
                set_by_topic: true,
            });
        }
        let from_cluster = if self.with_cluster {
            cluster_default_key(self.version, key)
                .map(|broker_key| (self.cluster.broker_value)(broker_key))
        } else {
            None
        };
        let text = match from_cluster {
            Some(ClusterValue::Value(text)) => text,
            Some(ClusterValue::Unknown) => return None,
            Some(ClusterValue::Unset) | None => topic_key.default()?.to_owned(),
        };
        let value = check_value(self.version, key, &text).ok()?;
        Some(Effective {
            value,
            set_by_topic: false,
        })
    }

    fn integer(&self, key: &str) -> Option<(i64, bool)> {
        let effective = self.get(key)?;
        Some((effective.value.as_integer()?, effective.set_by_topic))
    }

    fn boolean(&self, key: &str) -> Option<(bool, bool)> {
        match self.get(key)? {
            Effective {
                value: Parsed::Boolean(b),
                set_by_topic,
            } => Some((b, set_by_topic)),
            _ => None,
        }
    }

    /// `key` when the topic sets it, else `other`: the key a problem points at.
    fn pointed(&self, key: &str, other: &str) -> String {
        if self.configs.iter().any(|(k, _)| *k == key) {
            key.to_owned()
        } else {
            other.to_owned()
        }
    }
}

/// `LogConfig.validateValues` (since 2.3): min.compaction.lag.ms must not exceed
/// max.compaction.lag.ms. Judged only when the topic sets one of them.
fn compaction_lag(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    let (Some((min, min_set)), Some((max, max_set))) = (
        values.integer("min.compaction.lag.ms"),
        values.integer("max.compaction.lag.ms"),
    ) else {
        return;
    };
    if min <= max || !(min_set || max_set) {
        return;
    }
    let key = values.pointed("min.compaction.lag.ms", "max.compaction.lag.ms");
    problems.push(TopicProblem {
        kind: ProblemKind::CrossField,
        key,
        message: format!(
            "Kafka {} refuses the topic: \"conflict topic config setting min.compaction.lag.ms ({min}) > max.compaction.lag.ms ({max})\"",
            values.version
        ),
        kafka_refuses: true,
        suggestion: None,
        source: log_config_source(values.version),
    });
}

/// `LogConfig.validateTopicLogConfigValues` (3.6 on), for a topic with remote storage enabled;
/// before 3.6 the local retention checks of the `LogConfig` constructor (3.0 to 3.5), which run
/// where Kafka builds the topic's `LogConfig` (`running` values) rather than in `validate`.
fn tiered_storage(validated: &Values<'_>, running: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    let values = validated;
    let version = values.version;
    zookeeper_remote_keys(values, problems);
    if version < CLUSTER_VALUES_FROM {
        if spec(version, "local.retention.ms").is_some() {
            local_retention(running, problems, false);
        }
        return;
    }
    // remote.storage.enable has no broker synonym: unset is false.
    let Some((true, _)) = values.boolean("remote.storage.enable") else {
        return;
    };
    let tiered = |message: String, key: String, source| TopicProblem {
        kind: ProblemKind::TieredStorage,
        key,
        message,
        kafka_refuses: true,
        suggestion: None,
        source,
    };
    // validateRemoteStorageOnlyIfSystemEnabled.
    if values.cluster.remote_storage_system_enabled == Some(false) {
        problems.push(tiered(
            format!(
                "remote.storage.enable=true but the cluster does not set remote.log.storage.system.enable=true (in KRaft, on the controllers too): Kafka {version} refuses the topic: \"Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage.\""
            ),
            "remote.storage.enable".to_owned(),
            log_config_source(version),
        ));
    }
    cleanup_policy_for_remote(values, problems);
    local_retention(values, problems, true);
    copy_disabled(values, problems);
    copy_lag(values, problems);
}

/// 3.9 in ZooKeeper mode: `validateNoInvalidRemoteStorageConfigsInZK` refuses
/// remote.log.copy.disable=true and remote.log.delete.on.disable=true, whatever else is set.
fn zookeeper_remote_keys(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    if values.version != KafkaVersion::new(3, 9) || values.cluster.zookeeper != Some(true) {
        return;
    }
    for key in ["remote.log.copy.disable", "remote.log.delete.on.disable"] {
        if let Some((true, true)) = values.boolean(key) {
            problems.push(TopicProblem {
                kind: ProblemKind::TieredStorage,
                key: key.to_owned(),
                message: "Kafka 3.9 in ZooKeeper mode refuses the topic: \"It is invalid to set `remote.log.delete.on.disable` or `remote.log.copy.disable` under Zookeeper's mode.\"".to_owned(),
                kafka_refuses: true,
                suggestion: None,
                source: log_config_source(values.version),
            });
        }
    }
}

/// `validateNoRemoteStorageForCompactedTopic` (3.6 to 4.0: the policy must not contain
/// `compact`), `validateRemoteStorageRequiresDeleteCleanupPolicy` (4.1: exactly `delete`; 4.2
/// on: or empty).
fn cleanup_policy_for_remote(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    let version = values.version;
    let Some(Effective {
        value: Parsed::List(policy),
        ..
    }) = values.get("cleanup.policy")
    else {
        return;
    };
    // 4.1 compares the set of policies with {delete}; 4.2 drops duplicates when it parses the
    // list (KIP-1161), then wants `[delete]` or `[]`: both read as sets here.
    let mut policies = policy.clone();
    policies.sort();
    policies.dedup();
    let (refused, quoted, source) = if version < DELETE_ONLY_FROM {
        (
            policy.join(",").to_lowercase().contains("compact"),
            "Remote log storage is unsupported for the compacted topics",
            log_config_source(version),
        )
    } else if version < EMPTY_POLICY_FROM {
        (
            policies != ["delete"],
            "Remote log storage only supports topics with cleanup.policy=delete",
            log_config_source(version),
        )
    } else {
        (
            !policies.is_empty() && policies != ["delete"],
            "Remote log storage only supports topics with cleanup.policy=delete or cleanup.policy being an empty list.",
            log_config_source(version),
        )
    };
    if refused {
        problems.push(TopicProblem {
            kind: ProblemKind::TieredStorage,
            key: values.pointed("cleanup.policy", "remote.storage.enable"),
            message: format!(
                "cleanup.policy={} with remote.storage.enable=true: Kafka {version} refuses the topic: \"{quoted}\"",
                policy.join(",")
            ),
            kafka_refuses: true,
            suggestion: None,
            source,
        });
    }
}

/// `validateRemoteStorageRetentionSize` / `...Time` (3.6 on; `at_creation`): local.retention.X
/// (unless -2) must not be -1 while retention.X is finite, nor above it. Before 3.6 (`!at_creation`)
/// the `LogConfig` constructor checks the same pair, for every topic, when a broker opens the
/// topic's log (LogConfig.scala@3.0.2 `localRetentionMs`, LogConfig.java@3.5.2): there a local
/// retention above an infinite retention.X is refused too.
fn local_retention(values: &Values<'_>, problems: &mut Vec<TopicProblem>, at_creation: bool) {
    for (local_key, total_key) in [
        ("local.retention.bytes", "retention.bytes"),
        ("local.retention.ms", "retention.ms"),
    ] {
        let (Some((local, local_set)), Some((total, total_set))) =
            (values.integer(local_key), values.integer(total_key))
        else {
            continue;
        };
        if local == -2 || !(local_set || total_set) {
            continue;
        }
        let Some(reason) = local_retention_refusal(local_key, local, total_key, total, at_creation)
        else {
            continue;
        };
        let quoted = format!("Invalid value {local} for configuration {local_key}: {reason}");
        let version = values.version;
        // Before 3.6 the LogConfig constructor refuses them. In ZooKeeper mode CreateTopics
        // builds one to describe the new topic's configs in its response
        // (`ZkAdminManager.maybePopulateMetadataAndConfigs`, core/src/main/scala/kafka/server/
        // ZkAdminManager.scala@3.4.1), so creation fails; in KRaft mode brokers build it when
        // they open the topic's log.
        let zookeeper = values.cluster.zookeeper == Some(true);
        let (message, refused, source) = if at_creation {
            (
                format!("Kafka {version} refuses the topic: \"{quoted}\""),
                true,
                log_config_source(version),
            )
        } else if zookeeper {
            (
                format!("Kafka {version} in ZooKeeper mode refuses the topic: \"{quoted}\""),
                true,
                "apache/kafka core/src/main/scala/kafka/server/ZkAdminManager.scala@3.4.1 (maybePopulateMetadataAndConfigs)",
            )
        } else {
            (
                format!(
                    "Kafka {version} accepts the topic, but its brokers refuse these values when they open the topic's log: \"{quoted}\""
                ),
                false,
                log_config_source(version),
            )
        };
        problems.push(TopicProblem {
            kind: ProblemKind::TieredStorage,
            key: values.pointed(local_key, total_key),
            message,
            kafka_refuses: refused,
            suggestion: None,
            source,
        });
    }
}

/// Kafka's reason for refusing local retention `local` against retention `total` (neither -2).
fn local_retention_refusal(
    local_key: &str,
    local: i64,
    total_key: &str,
    total: i64,
    at_creation: bool,
) -> Option<String> {
    if at_creation {
        // Only retention.bytes above -1 is finite; retention.ms below -1 fails its own range.
        let finite = if local_key == "local.retention.bytes" {
            total > -1
        } else {
            total != -1
        };
        if !finite {
            return None;
        }
        if local == -1 {
            return Some(format!(
                "Value must not be -1 as {total_key} value is set as {total}."
            ));
        }
        return (local > total)
            .then(|| format!("Value must not be more than {total_key} property value: {total}"));
    }
    if local == -1 && total != -1 {
        return Some(format!(
            "Value must not be -1 as {total_key} value is set as {total}."
        ));
    }
    (local > total).then(|| format!("Value must not be more than property: {total_key} value."))
}

/// `validateRetentionConfigsWhenRemoteCopyDisabled` (3.9 on): with remote.log.copy.disable=true,
/// local.retention.X (unless -2) must equal retention.X.
fn copy_disabled(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    let Some((true, _)) = values.boolean("remote.log.copy.disable") else {
        return;
    };
    for (local_key, total_key) in [
        ("local.retention.bytes", "retention.bytes"),
        ("local.retention.ms", "retention.ms"),
    ] {
        let (Some((local, _)), Some((total, _))) =
            (values.integer(local_key), values.integer(total_key))
        else {
            continue;
        };
        if local == -2 || local == total {
            continue;
        }
        problems.push(TopicProblem {
            kind: ProblemKind::TieredStorage,
            key: values.pointed(local_key, "remote.log.copy.disable"),
            message: format!(
                "Kafka {} refuses the topic: \"When `remote.log.copy.disable` is set to true, the `{local_key}` and `{total_key}` must be set to the identical value because there will be no more logs copied to the remote storage.\"",
                values.version
            ),
            kafka_refuses: true,
            suggestion: None,
            source: log_config_source(values.version),
        });
    }
}

/// `validateRemoteCopyLagSize` / `...Time` (the releases that define remote.copy.lag.*): a
/// positive lag must not exceed the effective local retention, when that is not infinite.
fn copy_lag(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    for (lag_key, local_key, total_key) in [
        (
            "remote.copy.lag.bytes",
            "local.retention.bytes",
            "retention.bytes",
        ),
        ("remote.copy.lag.ms", "local.retention.ms", "retention.ms"),
    ] {
        let (Some((lag, lag_set)), Some((local, local_set)), Some((total, total_set))) = (
            values.integer(lag_key),
            values.integer(local_key),
            values.integer(total_key),
        ) else {
            continue;
        };
        let effective_local = if local == -2 { total } else { local };
        if lag <= 0 || effective_local < 0 || lag <= effective_local {
            continue;
        }
        if !(lag_set || local_set || total_set) {
            continue;
        }
        problems.push(TopicProblem {
            kind: ProblemKind::TieredStorage,
            key: values.pointed(lag_key, local_key),
            message: format!(
                "Kafka {} refuses the topic: \"Invalid value {lag} for configuration {lag_key}: Value must not exceed {local_key} (effective value: {effective_local})\"",
                values.version
            ),
            kafka_refuses: true,
            suggestion: None,
            source: log_config_source(values.version),
        });
    }
}

/// Accepted but ineffective: a batch larger than segment.bytes is refused at append
/// (`RecordBatchTooLargeException`, "exceeds the maximum configured segment size"), so
/// max.message.bytes above segment.bytes promises what the log cannot take.
fn segment_fits_message(values: &Values<'_>, problems: &mut Vec<TopicProblem>) {
    let (Some((message_max, message_set)), Some((segment, segment_set))) = (
        values.integer("max.message.bytes"),
        values.integer("segment.bytes"),
    ) else {
        return;
    };
    if message_max <= segment || !(message_set || segment_set) {
        return;
    }
    problems.push(TopicProblem {
        kind: ProblemKind::Ineffective,
        key: values.pointed("max.message.bytes", "segment.bytes"),
        message: format!(
            "max.message.bytes ({message_max}) is above segment.bytes ({segment}): no batch above {segment} bytes is ever written"
        ),
        kafka_refuses: false,
        suggestion: None,
        source: UNIFIED_LOG,
    });
}
