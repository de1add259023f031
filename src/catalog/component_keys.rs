//! What a Connect worker, MirrorMaker 2 or a Kafka Streams application does with a key of its
//! own file, per release: the keys of its `ConfigDef`s are dumped from the real jars
//! (`other_components`, see `catalog/`); the prefixes it reads are facts of its code, cited
//! below.
//!
//! Each of these components hands keys it does not declare to plugins (converters, config
//! providers, REST extensions, metrics reporters, serdes, a flow's connectors) or to the
//! application itself, which may read any key. So a key no `ConfigDef` declares is judged only
//! when it is a key an earlier release had, a key of a later release, or a near miss of a known
//! key; anything else is left alone.

use super::tables::{COMPONENT_KEYS, COMPONENT_RELEASES, COMPONENT_SPECS};
use super::{ComponentKind, KafkaVersion, KeySpec, VERSIONS};

/// What a component of one release does with a key of its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComponentKey {
    /// Read by the component, or handed to a plugin or the application: not judged.
    Read,
    /// Not a key of this release, and near no key it knows: a plugin's or the application's
    /// own, which kafkalint cannot judge.
    Unjudged,
    /// Not a key of this release; `nearest` is the known key it most likely misspells (for a
    /// MirrorMaker 2 cluster key, with its `<alias>.`).
    Misspelt { nearest: String },
    /// A key of this component from release `first` on.
    Newer { first: KafkaVersion },
    /// A key this component had up to release `last`, removed in `removed_in`; `removed` is that
    /// key, which a prefixed key (`internal.key.converter.schemas.enable`) follows.
    Removed {
        removed: &'static str,
        last: KafkaVersion,
        removed_in: KafkaVersion,
    },
}

/// The client components whose keys the three components pass to their producers, consumers
/// and admin clients, unprefixed or under `producer.`, `consumer.`, `admin.`.
const CLIENTS: &[&str] = &["producer", "consumer", "admin"];

/// Prefixes a Connect worker reads, whatever follows them: the clients' settings
/// (`Worker.producerConfigs`, `consumerConfigs`, `adminConfigs` put
/// `originalsWithPrefix("producer.")`, ... into each client), config providers
/// (`AbstractConfig`: `config.providers.<name>.class` and `.param.`), the REST server's TLS
/// settings (`RestServer`: `listeners.https.`, and `WorkerConfig.ADMIN_LISTENERS_HTTPS_CONFIGS_PREFIX`
/// `admin.listeners.https.`), and the metrics context
/// (`CommonClientConfigs.METRICS_CONTEXT_PREFIX`, read by `ConnectUtils.addMetricsContextProperties`).
/// apache/kafka, connect/runtime/src/main/java/org/apache/kafka/connect/runtime/Worker.java and
/// WorkerConfig.java; the strings are in `connect-runtime` from 2.8.2 to 4.4.0.
const CONNECT_PREFIXES: &[&str] = &[
    "producer.",
    "consumer.",
    "admin.",
    "config.providers.",
    "listeners.https.",
    "admin.listeners.https.",
    "metrics.context.",
];

/// The prefixes a Streams application reads: `StreamsConfig`'s `PRODUCER_PREFIX`,
/// `CONSUMER_PREFIX`, `MAIN_CONSUMER_PREFIX`, `RESTORE_CONSUMER_PREFIX`, `GLOBAL_CONSUMER_PREFIX`,
/// `ADMIN_CLIENT_PREFIX`, `TOPIC_PREFIX` (the internal topics' configs) and `CLIENT_TAG_PREFIX`
/// (apache/kafka, streams/src/main/java/org/apache/kafka/streams/StreamsConfig.java; constants of
/// `kafka-streams` 2.8.2 to 4.4.0), and the clients' metrics context.
const STREAMS_PREFIXES: &[&str] = &[
    "producer.",
    "consumer.",
    "main.consumer.",
    "restore.consumer.",
    "global.consumer.",
    "admin.",
    "topic.",
    "client.tag.",
    "metrics.context.",
];

/// The top-level prefixes MirrorMaker 2 reads as they are, without a dot after them:
/// `MirrorMakerConfig.workerConfig` copies every key starting with `offset.storage`,
/// `config.storage`, `status.storage`, `key.converter`, `value.converter`, `header.converter`,
/// `task`, `worker` and `replication.policy` into each herder's worker config, and
/// `connectorBaseConfig` the `config.providers` and `replication.policy` ones into each
/// connector's (apache/kafka,
/// connect/mirror/src/main/java/org/apache/kafka/connect/mirror/MirrorMakerConfig.java; the
/// strings are in `connect-mirror` 2.8.2 to 4.1.2, `replication.policy` from 3.0). The client
/// prefixes are accepted too: a miss costs less than a false alarm.
const MIRROR_MAKER_PREFIXES: &[&str] = &[
    "offset.storage",
    "config.storage",
    "status.storage",
    "key.converter",
    "value.converter",
    "header.converter",
    "task",
    "worker",
    "replication.policy",
    "config.providers",
    "producer.",
    "consumer.",
    "admin.",
    "metrics.context.",
];

/// What `kind` in release `version` does with `key` of its file. `aliases` are MirrorMaker 2's
/// `clusters` (empty for the others).
pub fn judge(
    kind: ComponentKind,
    key: &str,
    version: KafkaVersion,
    aliases: &[String],
) -> ComponentKey {
    match kind {
        ComponentKind::ConnectDistributed => connect_worker(key, version),
        ComponentKind::Streams => streams(key, version),
        ComponentKind::MirrorMaker => mirror_maker(key, version, aliases),
        // Confluent's, not on Maven Central: no keys were dumped.
        ComponentKind::SchemaRegistry => ComponentKey::Read,
    }
}

/// The type, default and validator of `key` as the ConfigDef that `kind` parses when it starts
/// reads it in release `version`: the Connect worker's `DistributedConfig`, `StreamsConfig`,
/// MirrorMaker 2's own `MirrorMakerConfig` (its connectors parse their keys later, each on its
/// own). `None` for any other key, and for a release the component was not dumped for.
pub fn startup_spec(
    kind: ComponentKind,
    key: &str,
    version: KafkaVersion,
) -> Option<&'static KeySpec> {
    let component = match kind {
        ComponentKind::ConnectDistributed => "connect-distributed",
        ComponentKind::Streams => "streams",
        ComponentKind::MirrorMaker => "mirror-maker",
        ComponentKind::SchemaRegistry => return None,
    };
    let bit = 1 << version.release_index()?;
    let index = COMPONENT_SPECS
        .binary_search_by(|(name, name_key, _)| (*name, *name_key).cmp(&(component, key)))
        .ok()?;
    COMPONENT_SPECS[index]
        .2
        .iter()
        .find(|variant| variant.releases & bit != 0)
        .map(|variant| &variant.spec)
}

fn connect_worker(key: &str, version: KafkaVersion) -> ComponentKey {
    const OWN: &[&str] = &["connect-distributed"];
    if knows_any(OWN, key, version) || knows_any(CLIENTS, key, version) {
        // Connect also passes its own unprefixed client keys to the clients of its internal
        // topics (`KafkaOffsetBackingStore` and the config and status stores start from the
        // worker's originals).
        return ComponentKey::Read;
    }
    if CONNECT_PREFIXES
        .iter()
        .any(|prefix| key.starts_with(prefix))
    {
        return ComponentKey::Read;
    }
    // A converter's own settings follow its key (`Plugins.newConverter` reads
    // `originalsWithPrefix(<converter key> + ".")`): read while the converter key is, and gone
    // with it (from 3.0 `WorkerConfig.logInternalConverterRemovalWarnings` warns about
    // `internal.key.converter` and `originalsWithPrefix("internal.key.converter.")` alike).
    if let Some(converter) = converter_of(key) {
        return match judge_own(OWN, converter, version) {
            Some(removed @ ComponentKey::Removed { .. }) => removed,
            Some(ComponentKey::Read) | None => ComponentKey::Read,
            Some(_) => ComponentKey::Unjudged,
        };
    }
    judge_own(OWN, key, version).unwrap_or_else(|| misspelt(key, version, &[OWN, CLIENTS]))
}

/// The converter key (`internal.key.converter`) a key is a setting of, for a key of the form
/// `<converter key>.<setting>`: any Connect worker key of any release whose name ends with
/// `converter`.
fn converter_of(key: &str) -> Option<&'static str> {
    key.match_indices(".").find_map(|(at, _)| {
        let base = &key[..at];
        if !base.ends_with("converter") {
            return None;
        }
        let index = position("connect-distributed", base)?;
        Some(COMPONENT_KEYS[index].1)
    })
}

fn streams(key: &str, version: KafkaVersion) -> ComponentKey {
    const OWN: &[&str] = &["streams"];
    // Unprefixed client keys go to every client (`StreamsConfig.getProducerConfigs`, ...: the
    // originals that are client config names).
    if knows_any(OWN, key, version)
        || knows_any(CLIENTS, key, version)
        || STREAMS_PREFIXES
            .iter()
            .any(|prefix| key.starts_with(prefix))
    {
        return ComponentKey::Read;
    }
    judge_own(OWN, key, version).unwrap_or_else(|| misspelt(key, version, &[OWN, CLIENTS]))
}

fn mirror_maker(key: &str, version: KafkaVersion, aliases: &[String]) -> ComponentKey {
    // `<source>-><target>.<key>`: a flow's connector settings, handed to its connectors and
    // their plugins (`connectorBaseConfig`).
    if key
        .split('.')
        .next()
        .is_some_and(|first| first.contains("->"))
    {
        return ComponentKey::Read;
    }
    // `<alias>.<key>`: the cluster's client settings and, for the herders whose target it is,
    // Connect worker settings (`clusterProps`, `workerConfig`).
    if let Some(rest) = aliases
        .iter()
        .filter(|alias| !alias.is_empty())
        .find_map(|alias| key.strip_prefix(alias.as_str())?.strip_prefix('.'))
    {
        let alias = &key[..key.len() - rest.len()];
        // MirrorMaker 2's own keys for one cluster (`MirrorMakerConfig.clientConfig` overlays
        // `<alias>.` on the top level for the cluster's `MirrorClientConfig`).
        if knows_any(&["mirror-maker", "mirror-connector"], rest, version) {
            return ComponentKey::Read;
        }
        return match connect_worker(rest, version) {
            ComponentKey::Misspelt { nearest } => ComponentKey::Misspelt {
                nearest: format!("{alias}{nearest}"),
            },
            other => other,
        };
    }
    const OWN: &[&str] = &["mirror-maker", "mirror-connector"];
    // Top-level Connect worker and client keys: some are read (`plugin.path` by the plugin
    // loader, the client keys by `clusterProps`), and a Connect key at the top level is no
    // typo; that it belongs under `<alias>.` is not judged here.
    const ALSO_ACCEPTED: &[&str] = &["connect-distributed", "producer", "consumer", "admin"];
    if knows_any(OWN, key, version)
        || knows_any(ALSO_ACCEPTED, key, version)
        || MIRROR_MAKER_PREFIXES
            .iter()
            .any(|prefix| key.starts_with(prefix))
    {
        return ComponentKey::Read;
    }
    judge_own(OWN, key, version).unwrap_or_else(|| misspelt(key, version, &[OWN]))
}

/// For a key none of `components` knows in `version`: removed from them, or one of a later
/// release; `None` when no release of them has it.
fn judge_own(
    components: &[&'static str],
    key: &str,
    version: KafkaVersion,
) -> Option<ComponentKey> {
    if knows_any(components, key, version) {
        return Some(ComponentKey::Read);
    }
    let found: Vec<(&'static str, &'static str, u32)> = components
        .iter()
        .filter_map(|component| {
            let index = position(component, key)?;
            let (_, name, releases) = COMPONENT_KEYS[index];
            Some((*component, name, releases))
        })
        .collect();
    let (component, name, releases) = *found.first()?;
    let releases = found.iter().fold(releases, |all, (_, _, bits)| all | bits);
    let basis = basis(component, version)?;
    let last = 31 - releases.leading_zeros() as usize;
    if last < basis {
        let removed_in = (last + 1..VERSIONS.len())
            .find(|index| dumped(component) & (1 << index) != 0)
            .unwrap_or(basis);
        return Some(ComponentKey::Removed {
            removed: name,
            last: VERSIONS[last],
            removed_in: VERSIONS[removed_in],
        });
    }
    // The first release after `version` that has it.
    let first = (0..VERSIONS.len())
        .filter(|index| VERSIONS[*index] > version)
        .find(|index| releases & (1 << index) != 0)?;
    Some(ComponentKey::Newer {
        first: VERSIONS[first],
    })
}

/// The nearest key of `groups` in `version` to `key`, when it is near enough to be a typo.
fn misspelt(key: &str, version: KafkaVersion, groups: &[&[&'static str]]) -> ComponentKey {
    let candidates = groups
        .iter()
        .flat_map(|components| components.iter())
        .flat_map(|component| keys_of(component, version));
    match super::suggest::nearest(key, candidates) {
        Some(nearest) => ComponentKey::Misspelt {
            nearest: nearest.to_string(),
        },
        None => ComponentKey::Unjudged,
    }
}

/// Whether one of `components` knows `key` in `version` (see [`knows`]).
fn knows_any(components: &[&str], key: &str, version: KafkaVersion) -> bool {
    components
        .iter()
        .any(|component| knows(component, key, version))
}

/// Whether `component` knows `key` in `version`. A release the component was not dumped for
/// (`connect-mirror` is missing from Maven Central for some) is read as the newest older release
/// that was, and a key of any later release counts as known: nothing tells whether it was
/// there already.
fn knows(component: &str, key: &str, version: KafkaVersion) -> bool {
    let (Some(index), Some(basis)) = (position(component, key), basis(component, version)) else {
        return false;
    };
    let releases = COMPONENT_KEYS[index].2;
    if releases & (1 << basis) != 0 {
        return true;
    }
    let exact = version.release_index() == Some(basis as u32);
    !exact && releases >> (basis + 1) != 0
}

/// The keys of `component` in `version` (its basis release, see [`knows`]).
fn keys_of(component: &str, version: KafkaVersion) -> impl Iterator<Item = &'static str> + '_ {
    let basis = basis(component, version);
    let start = COMPONENT_KEYS.partition_point(|(name, _, _)| *name < component);
    COMPONENT_KEYS[start..]
        .iter()
        .take_while(move |(name, _, _)| *name == component)
        .filter(move |(_, _, releases)| basis.is_some_and(|basis| releases & (1 << basis) != 0))
        .map(|(_, key, _)| *key)
}

/// Where `key` of `component` sits in `COMPONENT_KEYS`.
fn position(component: &str, key: &str) -> Option<usize> {
    COMPONENT_KEYS
        .binary_search_by(|(name, name_key, _)| (*name, *name_key).cmp(&(component, key)))
        .ok()
}

/// The releases `component` was dumped for, one bit each.
fn dumped(component: &str) -> u32 {
    COMPONENT_RELEASES
        .iter()
        .find(|(name, _)| *name == component)
        .map_or(0, |(_, releases)| *releases)
}

/// The newest release at or before `version` that `component` was dumped for, as its index.
fn basis(component: &str, version: KafkaVersion) -> Option<usize> {
    let releases = dumped(component);
    (0..VERSIONS.len())
        .rev()
        .filter(|index| VERSIONS[*index] <= version)
        .find(|index| releases & (1 << index) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(text: &str) -> KafkaVersion {
        KafkaVersion::parse(text).unwrap()
    }

    #[test]
    fn connect_rest_port_was_removed_in_3_0() {
        assert_eq!(
            judge(
                ComponentKind::ConnectDistributed,
                "rest.port",
                v("3.9"),
                &[]
            ),
            ComponentKey::Removed {
                removed: "rest.port",
                last: v("2.8"),
                removed_in: v("3.0")
            }
        );
        assert_eq!(
            judge(
                ComponentKind::ConnectDistributed,
                "rest.port",
                v("2.8"),
                &[]
            ),
            ComponentKey::Read
        );
    }

    #[test]
    fn a_converter_setting_follows_its_converter() {
        let removed = judge(
            ComponentKind::ConnectDistributed,
            "internal.key.converter.schemas.enable",
            v("4.4"),
            &[],
        );
        assert!(matches!(
            removed,
            ComponentKey::Removed {
                removed: "internal.key.converter",
                ..
            }
        ));
        assert_eq!(
            judge(
                ComponentKind::ConnectDistributed,
                "key.converter.schemas.enable",
                v("4.4"),
                &[]
            ),
            ComponentKey::Read
        );
    }

    #[test]
    fn prefixes_and_plugin_keys_are_not_judged() {
        for key in [
            "producer.batch.size",
            "consumer.whatever",
            "listeners.https.ssl.keystore.location",
            "buffer.memory",
        ] {
            assert_eq!(
                judge(ComponentKind::ConnectDistributed, key, v("4.4"), &[]),
                ComponentKey::Read,
                "{key}"
            );
        }
        assert_eq!(
            judge(
                ComponentKind::ConnectDistributed,
                "confluent.license",
                v("4.4"),
                &[]
            ),
            ComponentKey::Unjudged
        );
        for key in [
            "main.consumer.max.poll.records",
            "topic.min.insync.replicas",
            "retries",
            "schema.registry.url",
        ] {
            assert!(
                matches!(
                    judge(ComponentKind::Streams, key, v("4.4"), &[]),
                    ComponentKey::Read | ComponentKey::Unjudged
                ),
                "{key}"
            );
        }
    }

    #[test]
    fn typos_get_the_nearest_key() {
        assert_eq!(
            judge(
                ComponentKind::ConnectDistributed,
                "offset.flush.interval.m",
                v("4.4"),
                &[]
            ),
            ComponentKey::Misspelt {
                nearest: "offset.flush.interval.ms".into()
            }
        );
        let aliases = ["primary".to_string(), "backup".to_string()];
        assert_eq!(
            judge(
                ComponentKind::MirrorMaker,
                "primary.bootstrap.server",
                v("4.4"),
                &aliases
            ),
            ComponentKey::Misspelt {
                nearest: "primary.bootstrap.servers".into()
            }
        );
        assert_eq!(
            judge(
                ComponentKind::MirrorMaker,
                "primary->backup.topics.exclud",
                v("4.4"),
                &aliases
            ),
            ComponentKey::Read
        );
        assert_eq!(
            judge(
                ComponentKind::MirrorMaker,
                "sync.group.offsets.enable",
                v("4.4"),
                &aliases
            ),
            ComponentKey::Misspelt {
                nearest: "sync.group.offsets.enabled".into()
            }
        );
    }

    #[test]
    fn startup_specs_per_release() {
        use crate::catalog::Validator;
        let guarantee = |version| {
            startup_spec(ComponentKind::Streams, "processing.guarantee", v(version))
                .map(|spec| spec.validator)
        };
        assert!(
            matches!(guarantee("3.9"), Some(Validator::ValidString(valid)) if valid.contains(&"exactly_once"))
        );
        assert!(
            matches!(guarantee("4.0"), Some(Validator::ValidString(valid)) if !valid.contains(&"exactly_once"))
        );
        // Not dumped for 4.4: not judged.
        assert!(startup_spec(ComponentKind::MirrorMaker, "clusters", v("4.4")).is_none());
        assert!(startup_spec(ComponentKind::MirrorMaker, "clusters", v("4.1")).is_some());
    }

    #[test]
    fn mirror_maker_cluster_keys_may_be_its_own() {
        let aliases = ["primary".to_string(), "backup".to_string()];
        assert_eq!(
            judge(
                ComponentKind::MirrorMaker,
                "primary.replication.policy.separator",
                v("3.9"),
                &aliases
            ),
            ComponentKey::Read
        );
    }

    #[test]
    fn mirror_maker_without_dumped_data_reads_the_release_before() {
        // connect-mirror 4.4.0 is not on Maven Central: 4.1's keys answer, and 4.0 removed
        // the blacklist keys.
        assert_eq!(
            judge(
                ComponentKind::MirrorMaker,
                "topics.blacklist",
                v("4.4"),
                &[]
            ),
            ComponentKey::Removed {
                removed: "topics.blacklist",
                last: v("3.9"),
                removed_in: v("4.0")
            }
        );
    }
}
