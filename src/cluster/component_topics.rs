//! The topics each component creates for itself on its cluster, and the replication factor it
//! asks for: the file's value (under the prefixes the component reads) or the default of the
//! component's `ConfigDef` in the release checked (dumped from the real jars, see `catalog/`).

use super::{Cluster, Effective, Line};
use crate::catalog::{ComponentKind, KafkaVersion};
use crate::components::{Component, mirror_maker_aliases};
use crate::properties::PropertiesFile;
use crate::source::SourceFile;

/// Schema Registry's default `kafkastore.topic.replication.factor` and `kafkastore.topic`
/// (confluentinc/schema-registry, `SchemaRegistryConfig.java`: `DEFAULT_KAFKASTORE_TOPIC`,
/// `kafkastore.topic.replication.factor` defined with default 3). Schema Registry is not on
/// Maven Central, so these two are read from its source, not dumped.
const SCHEMA_REGISTRY_REPLICATION_DEFAULT: &str = "3";
const SCHEMA_REGISTRY_TOPIC_DEFAULT: &str = "_schemas";

/// What a component does when it cannot create its topic because the factor is above the
/// broker count (the broker answers `INVALID_REPLICATION_FACTOR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenTooFew {
    /// It stops with this error (from its source).
    Fails(&'static str),
    /// Schema Registry creates the topic with as many replicas as there are live brokers and
    /// logs a WARN (`KafkaStore.createSchemaTopic`).
    CapsToLiveBrokers,
    /// MirrorMaker 2's source connector logs a WARN and goes on; the topic is left to the
    /// brokers' auto-creation (`MirrorSourceConnector.createNewTopics`).
    LeftToAutoCreation,
}

/// One topic a component creates, with the replication factor it asks for.
#[derive(Debug, Clone)]
pub struct TopicFactor<'a> {
    /// The topic as messages name it, e.g. "its config topic `connect-configs`": a topic whose
    /// name is known is written between back quotes, a pattern with `<topic>` in it, and the
    /// topics of a Streams application or a MirrorMaker flow with no name at all.
    pub topic: String,
    /// The key as the file sets it (`A->B.checkpoints.topic.replication.factor`), or the
    /// component's own name for it when the default applies.
    pub key: String,
    pub factor: Effective<'a>,
    /// What stops when the only replica of a partition is on a broker that stops.
    pub single_replica: &'static str,
    pub when_too_few: WhenTooFew,
    /// What the component does when the topic already exists with fewer replicas.
    pub existing: &'static str,
}

const CONNECT_CREATE_FAILS: &str = "the worker does not start";
const CONNECT_EXISTING: &str = "Connect does not change it";

/// Connect's three topics: key prefix, what it holds, what a lost partition stops.
const CONNECT_TOPICS: &[(&str, &str, &str)] = &[
    (
        "config",
        "config topic",
        "connector configs cannot be read or changed",
    ),
    (
        "offset",
        "offset topic",
        "some source connectors cannot commit offsets",
    ),
    ("status", "status topic", "some status updates fail"),
];

/// The topics of `component`, with the factor each asks for in release `version`.
pub fn topic_factors<'a>(
    files: &'a [SourceFile],
    cluster: &Cluster,
    component: &Component,
    version: KafkaVersion,
) -> Vec<TopicFactor<'a>> {
    let properties = component.properties(files);
    let service = files[component.file]
        .view(component.part)
        .and_then(|view| view.component.as_ref());
    match component.kind {
        ComponentKind::ConnectDistributed => CONNECT_TOPICS
            .iter()
            // A Strimzi MirrorMaker 2 seen from a cluster it only mirrors: no worker topic here.
            .filter(|_| service.is_none_or(|service| service.worker_topics_here))
            .filter_map(|(prefix, what, lost)| {
                let key = format!("{prefix}.storage.replication.factor");
                let factor = lookup(
                    component.file,
                    properties,
                    &[key.as_str()],
                    "connect-distributed",
                    &key,
                    version,
                )?;
                Some(TopicFactor {
                    topic: named(
                        what,
                        properties
                            .get(&format!("{prefix}.storage.topic"))
                            .map(|e| e.value.trim()),
                    ),
                    key: set_key(&factor, &key),
                    factor,
                    single_replica: lost,
                    when_too_few: WhenTooFew::Fails(CONNECT_CREATE_FAILS),
                    existing: CONNECT_EXISTING,
                })
            })
            .chain(
                service
                    .map(|service| service.mirror_flows.as_slice())
                    .unwrap_or_default()
                    .iter()
                    .flat_map(|flow| mirror_flow_topics(component, properties, flow, version)),
            )
            .collect(),
        ComponentKind::Streams => lookup(
            component.file,
            properties,
            &["replication.factor"],
            "streams",
            "replication.factor",
            version,
        )
        .map(|factor| TopicFactor {
            topic: "its changelog and repartition topics".into(),
            key: set_key(&factor, "replication.factor"),
            factor,
            single_replica: "some tasks stop",
            when_too_few: WhenTooFew::Fails("the application stops processing"),
            existing: "Streams does not change it",
        })
        .into_iter()
        .collect(),
        ComponentKind::SchemaRegistry => {
            let key = "kafkastore.topic.replication.factor";
            let factor = match properties.get(key) {
                Some(entry) => Effective::Set(Line::new(component.file, entry)),
                None => Effective::Default(SCHEMA_REGISTRY_REPLICATION_DEFAULT),
            };
            let topic = properties
                .get("kafkastore.topic")
                .map(|entry| entry.value.trim())
                .unwrap_or(SCHEMA_REGISTRY_TOPIC_DEFAULT);
            vec![TopicFactor {
                topic: format!("its schemas topic `{topic}`"),
                key: key.into(),
                factor,
                single_replica: "Schema Registry can neither register nor start",
                when_too_few: WhenTooFew::CapsToLiveBrokers,
                existing: "Schema Registry only logs a WARN",
            }]
        }
        ComponentKind::MirrorMaker => mirror_maker(files, cluster, component, properties, version),
    }
}

/// `the config topic `connect-configs``, or `the config topic` when the file does not name it.
impl TopicFactor<'_> {
    /// The one topic's name, when it is known (see [`TopicFactor::topic`]).
    pub fn name(&self) -> Option<&str> {
        let (_, rest) = self.topic.split_once('`')?;
        let (name, _) = rest.split_once('`')?;
        (!name.is_empty() && !name.contains('<')).then_some(name)
    }
}

fn named(what: &str, name: Option<&str>) -> String {
    match name {
        Some(name) if !name.is_empty() => format!("its {what} `{name}`"),
        _ => format!("its {what}"),
    }
}

fn set_key(factor: &Effective, key: &str) -> String {
    factor
        .line()
        .map(|line| line.key().to_string())
        .unwrap_or_else(|| key.to_string())
}

/// The first of `keys` the file sets, else the component's default for `default_key`.
fn lookup<'a>(
    file: usize,
    properties: &'a PropertiesFile,
    keys: &[&str],
    component: &str,
    default_key: &str,
    version: KafkaVersion,
) -> Option<Effective<'a>> {
    if let Some(entry) = keys.iter().find_map(|key| properties.get(key)) {
        return Some(Effective::Set(Line::new(file, entry)));
    }
    let (default, _) = crate::catalog::component_default(component, default_key, version)?;
    default.map(Effective::Default)
}

const MIRROR_CREATE_FAILS: &str = "the connector fails";
const MIRROR_EXISTING: &str = "MirrorMaker 2 does not change it";

/// MirrorMaker 2's topics on this cluster: the one of its `clusters` aliases whose bootstrap
/// servers are this cluster's brokers' addresses. For each enabled flow `S->T` into it: the
/// heartbeats and checkpoints topics, the remote topics it creates (`replication.factor`) and
/// the config, offset and status topics of the Connect herder that runs the flow; for each flow
/// whose offset syncs it holds (`offset-syncs.topic.location`, `source` by default): the
/// offset-syncs topic. Keys are read as MirrorMaker 2 reads them
/// (`MirrorMakerConfig.connectorBaseConfig` and `workerConfig`): connector keys from
/// `S->T.<key>`, else the top level; Connect herder keys from `S->T.<key>`, else the top level,
/// else `T.<key>`. When no alias names this cluster, nothing is checked.
fn mirror_maker<'a>(
    files: &'a [SourceFile],
    cluster: &Cluster,
    component: &Component,
    properties: &'a PropertiesFile,
    version: KafkaVersion,
) -> Vec<TopicFactor<'a>> {
    let Some(aliases) = mirror_maker_aliases(properties) else {
        return Vec::new();
    };
    let Some(here) = this_cluster_alias(files, cluster, properties, &aliases) else {
        return Vec::new();
    };
    let flows: Vec<(&str, &str)> = aliases
        .iter()
        .flat_map(|source| {
            aliases
                .iter()
                .map(move |target| (source.as_str(), target.as_str()))
        })
        .filter(|(source, target)| source != target)
        .filter(|(source, target)| {
            properties
                .get(&format!("{source}->{target}.enabled"))
                .is_some_and(|entry| entry.value.trim().eq_ignore_ascii_case("true"))
        })
        .collect();
    let mut found: Vec<TopicFactor<'a>> = Vec::new();
    let mut push = |factor: Option<TopicFactor<'a>>| {
        if let Some(factor) = factor {
            let same = |other: &TopicFactor| {
                other.key == factor.key
                    && other.factor.line().map(|line| line.key_span())
                        == factor.factor.line().map(|line| line.key_span())
            };
            if !found.iter().any(same) {
                found.push(factor);
            }
        }
    };
    for (source, target) in &flows {
        let flow = format!("{source}->{target}.");
        let connector = |key: &str, topic: String, lost: &'static str| {
            let flow_key = format!("{flow}{key}");
            let keys = [flow_key.as_str(), key];
            mirror_topic(component, properties, &keys, key, topic, lost, version)
        };
        if *target == here {
            push(connector(
                "heartbeats.topic.replication.factor",
                "its heartbeats topic `heartbeats`".into(),
                "the heartbeats of the flows into this cluster stop",
            ));
            push(connector(
                "checkpoints.topic.replication.factor",
                format!("its checkpoints topic `{source}.checkpoints.internal`"),
                "group offsets are no longer translated for a failover here",
            ));
            push(connector(
                "replication.factor",
                format!("the remote topics it creates (`{source}.<topic>`)"),
                "the mirrored partitions it holds are unavailable here",
            ));
            for (prefix, what, lost) in CONNECT_TOPICS {
                let key = format!("{prefix}.storage.replication.factor");
                let keys = [format!("{flow}{key}"), key.clone(), format!("{here}.{key}")];
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                let factor = lookup(
                    component.file,
                    properties,
                    &keys,
                    "connect-distributed",
                    &key,
                    version,
                );
                push(factor.map(|factor| TopicFactor {
                    topic: format!(
                        "the {what} of its {source}->{target} herder (`mm2-{}.{source}.internal`)",
                        if *prefix == "config" {
                            "configs"
                        } else if *prefix == "offset" {
                            "offsets"
                        } else {
                            "status"
                        }
                    ),
                    key: set_key(&factor, &key),
                    factor,
                    single_replica: lost,
                    when_too_few: WhenTooFew::Fails("the herder of the flow does not start"),
                    existing: CONNECT_EXISTING,
                }));
            }
        }
        let location_key = format!("{flow}offset-syncs.topic.location");
        let location = properties
            .get(&location_key)
            .or_else(|| properties.get("offset-syncs.topic.location"))
            .map(|entry| entry.value.trim().to_ascii_lowercase())
            .unwrap_or_else(|| "source".into());
        let holder = if location == "target" { target } else { source };
        if *holder == here {
            push(connector(
                "offset-syncs.topic.replication.factor",
                format!("its offset-syncs topic `mm2-offset-syncs.{target}.internal`"),
                "offset syncs of the flow stop, so its checkpoints stop advancing",
            ));
        }
    }
    found
}

/// A topic a MirrorMaker 2 connector creates: its factor from the first of `keys` set, else
/// the connector's default for `key`.
fn mirror_topic<'a>(
    component: &Component,
    properties: &'a PropertiesFile,
    keys: &[&str],
    key: &str,
    topic: String,
    lost: &'static str,
    version: KafkaVersion,
) -> Option<TopicFactor<'a>> {
    // A remote topic it cannot create is logged and left to the brokers' auto-creation
    // (apache/kafka `MirrorSourceConnector.createNewTopics`, 3.9); the connector's own
    // topics fail it (`MirrorUtils.createCompactedTopic`).
    let when_too_few = if key == "replication.factor" {
        WhenTooFew::LeftToAutoCreation
    } else {
        WhenTooFew::Fails(MIRROR_CREATE_FAILS)
    };
    let factor = lookup(
        component.file,
        properties,
        keys,
        "mirror-connector",
        key,
        version,
    )?;
    Some(TopicFactor {
        topic,
        key: set_key(&factor, key),
        factor,
        single_replica: lost,
        when_too_few,
        existing: MIRROR_EXISTING,
    })
}

/// The topics a flow of a Strimzi `KafkaMirrorMaker2` creates on this cluster (see
/// `sources::strimzi`), each from its connector's `<source>-><target>.<key>` entry or
/// MirrorMaker's default.
fn mirror_flow_topics<'a>(
    component: &Component,
    properties: &'a PropertiesFile,
    flow: &crate::yaml_view::MirrorFlow,
    version: KafkaVersion,
) -> Vec<TopicFactor<'a>> {
    let (source, target) = (&flow.source, &flow.target);
    let connector = |key: &str, topic: String, lost: &'static str| {
        let flow_key = format!("{source}->{target}.{key}");
        mirror_topic(
            component,
            properties,
            &[flow_key.as_str()],
            key,
            topic,
            lost,
            version,
        )
    };
    let mut topics = Vec::new();
    if flow.into_here && flow.source_connector {
        topics.push(connector(
            "replication.factor",
            format!("the remote topics its {source}->{target} source connector creates"),
            "the mirrored partitions it holds are unavailable here",
        ));
    }
    if flow.into_here && flow.checkpoint_connector {
        topics.push(connector(
            "checkpoints.topic.replication.factor",
            format!("its checkpoints topic `{source}.checkpoints.internal`"),
            "group offsets are no longer translated for a failover here",
        ));
    }
    if flow.into_here && flow.heartbeat_connector {
        topics.push(connector(
            "heartbeats.topic.replication.factor",
            "its heartbeats topic `heartbeats`".into(),
            "the heartbeats of the flows into this cluster stop",
        ));
    }
    if flow.offset_syncs_here {
        topics.push(connector(
            "offset-syncs.topic.replication.factor",
            format!("its offset-syncs topic `mm2-offset-syncs.{target}.internal`"),
            "offset syncs of the flow stop, so its checkpoints stop advancing",
        ));
    }
    topics.into_iter().flatten().collect()
}

/// The alias of `clusters` whose `<alias>.bootstrap.servers` name an address the cluster's
/// brokers listen on or advertise; `None` unless exactly one does.
fn this_cluster_alias(
    files: &[SourceFile],
    cluster: &Cluster,
    properties: &PropertiesFile,
    aliases: &[String],
) -> Option<String> {
    let addresses: Vec<String> = cluster
        .brokers()
        .flat_map(|node| {
            ["advertised.listeners", "listeners"]
                .into_iter()
                .filter_map(|key| node.entry(files, key))
                .flat_map(|entry| {
                    entry
                        .value
                        .split(',')
                        .filter_map(address)
                        .collect::<Vec<_>>()
                })
        })
        .collect();
    let mut matching = aliases.iter().filter(|alias| {
        properties
            .get(&format!("{alias}.bootstrap.servers"))
            .is_some_and(|entry| {
                entry
                    .value
                    .split(',')
                    .filter_map(address)
                    .any(|server| addresses.contains(&server))
            })
    });
    match (matching.next(), matching.next()) {
        (Some(alias), None) => Some(alias.clone()),
        _ => None,
    }
}

/// `host:port` of a listener (`PLAINTEXT://host:9092`) or a bootstrap server, lower case;
/// `None` for a wildcard or empty host.
fn address(text: &str) -> Option<String> {
    let text = text.trim();
    let text = text.split_once("://").map_or(text, |(_, rest)| rest);
    let (host, port) = text.rsplit_once(':')?;
    let host = host.trim_matches(['[', ']']);
    if host.is_empty() || host == "0.0.0.0" || host == "::" || port.is_empty() {
        return None;
    }
    Some(format!("{}:{}", host.to_ascii_lowercase(), port.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(topic: &str) -> TopicFactor<'static> {
        TopicFactor {
            topic: topic.to_string(),
            key: "replication.factor".into(),
            factor: Effective::Default("3"),
            single_replica: "",
            when_too_few: WhenTooFew::CapsToLiveBrokers,
            existing: "",
        }
    }

    #[test]
    fn a_topic_is_named_between_back_quotes_and_a_pattern_is_no_name() {
        assert_eq!(
            factor(&named("config topic", Some("connect-configs"))).name(),
            Some("connect-configs")
        );
        assert_eq!(factor(&named("config topic", None)).name(), None);
        assert_eq!(
            factor("the remote topics it creates (`primary.<topic>`)").name(),
            None
        );
        assert_eq!(
            factor("its offset-syncs topic `mm2-offset-syncs.backup.internal`").name(),
            Some("mm2-offset-syncs.backup.internal")
        );
        assert_eq!(factor("its changelog and repartition topics").name(), None);
    }
}
