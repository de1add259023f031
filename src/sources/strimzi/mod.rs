//! Strimzi `Kafka` resources (apiVersion `kafka.strimzi.io/*`): `spec.kafka.config` is what
//! every broker gets; the brokers are `spec.kafka.replicas` pods, or the `KafkaNodePool`s
//! labelled `strimzi.io/cluster: <name>` (their `spec.replicas` and `spec.roles`).

use crate::catalog::ComponentKind;
use crate::properties::Provenance;
use crate::sources::yaml::{Node, Scalar};
use crate::sources::{
    ComponentService, Forbidden, ImageTag, MirrorFlow, NamedBy, NodeSpec, YamlEntry,
};
pub use crate::yaml_view::Pool;

/// Keys Strimzi does not let `spec.kafka.config` set: it manages them itself and ignores them
/// there, with a warning in the resource's status. Strimzi matches them as key prefixes, the
/// exceptions as whole keys (strimzi-kafka-operator: api/src/main/java/io/strimzi/api/kafka/
/// model/kafka/KafkaClusterSpec.java `FORBIDDEN_PREFIXES`, `FORBIDDEN_PREFIX_EXCEPTIONS`).
pub const FORBIDDEN_PREFIXES: &[&str] = &[
    "listeners",
    "advertised.",
    "broker.",
    "listener.",
    "host.name",
    "port",
    "inter.broker.listener.name",
    "sasl.",
    "ssl.",
    "security.",
    "password.",
    "log.dir",
    "zookeeper.connect",
    "zookeeper.set.acl",
    "zookeeper.ssl",
    "zookeeper.clientCnxnSocket",
    "authorizer.",
    "super.user",
    "cruise.control.metrics.topic",
    "cruise.control.metrics.reporter.bootstrap.servers",
    "node.id",
    "process.roles",
    "controller.",
    "metadata.log.dir",
    "zookeeper.metadata.migration.enable",
];

pub const FORBIDDEN_PREFIX_EXCEPTIONS: &[&str] = &[
    "zookeeper.connection.timeout.ms",
    "sasl.server.max.receive.size",
    "ssl.cipher.suites",
    "ssl.protocol",
    "ssl.enabled.protocols",
    "ssl.secure.random.implementation",
    "cruise.control.metrics.topic.num.partitions",
    "cruise.control.metrics.topic.replication.factor",
    "cruise.control.metrics.topic.retention.ms",
    "cruise.control.metrics.topic.auto.create.retries",
    "cruise.control.metrics.topic.auto.create.timeout.ms",
    "cruise.control.metrics.topic.min.insync.replicas",
    "controller.quorum.election.backoff.max.ms",
    "controller.quorum.election.timeout.ms",
    "controller.quorum.fetch.timeout.ms",
];

/// The forbidden prefix `key` falls under, unless it is an exception.
pub fn forbidden_prefix(key: &str) -> Option<&'static str> {
    let lower = key.to_ascii_lowercase();
    if FORBIDDEN_PREFIX_EXCEPTIONS.contains(&key) {
        return None;
    }
    FORBIDDEN_PREFIXES
        .iter()
        .copied()
        .find(|prefix| lower.starts_with(&prefix.to_ascii_lowercase()))
}

/// The keys Strimzi writes into every broker's configuration itself, from the resource's
/// listeners, storage and topology: kafkalint knows they are set, not to what (placeholders).
const MANAGED: &[&str] = &[
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "inter.broker.listener.name",
    "log.dirs",
];
const MANAGED_KRAFT: &[&str] = &["controller.listener.names", "controller.quorum.voters"];
const MANAGED_ZOOKEEPER: &[&str] = &["zookeeper.connect"];

fn is_strimzi(document: &Node, kind: &str) -> bool {
    document
        .get("apiVersion")
        .and_then(Node::text)
        .is_some_and(|api| api.starts_with("kafka.strimzi.io/"))
        && document.get("kind").and_then(Node::text) == Some(kind)
}

/// The node pools among `documents`.
pub fn pools(documents: &[Node]) -> Vec<Pool> {
    documents
        .iter()
        .filter(|document| is_strimzi(document, "KafkaNodePool"))
        .filter_map(|document| {
            let metadata = document.get("metadata")?;
            let cluster = metadata.get("labels")?.get("strimzi.io/cluster")?.text()?;
            let spec = document.get("spec");
            let roles: Vec<&str> = spec
                .and_then(|spec| spec.get("roles"))
                .map(|roles| roles.items().iter().filter_map(Node::text).collect())
                .unwrap_or_default();
            Some(Pool {
                cluster: cluster.to_string(),
                name: metadata
                    .get("name")
                    .and_then(Node::text)
                    .unwrap_or_default()
                    .to_string(),
                replicas: spec
                    .and_then(|spec| spec.get("replicas"))
                    .and_then(Node::text)
                    .and_then(|count| count.trim().parse().ok()),
                broker: roles.contains(&"broker"),
                controller: roles.contains(&"controller"),
            })
        })
        .collect()
}

/// The names of the Strimzi `Kafka` resources among `documents`.
pub fn kafka_names(documents: &[Node]) -> Vec<KafkaName> {
    documents
        .iter()
        .filter(|document| is_strimzi(document, "Kafka"))
        .filter_map(|document| {
            let metadata = document.get("metadata")?;
            Some(KafkaName {
                name: metadata.get("name")?.text()?.trim().to_string(),
                namespace: metadata
                    .get("namespace")
                    .and_then(Node::text)
                    .map(|namespace| namespace.trim().to_string()),
            })
        })
        .collect()
}

/// A Strimzi `Kafka`'s name, and its namespace when the resource says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KafkaName {
    pub name: String,
    pub namespace: Option<String>,
}

/// Keys Strimzi does not let a `KafkaConnect`'s `spec.config` set (it drops them with a warning
/// in its log): strimzi-kafka-operator `api/.../connect/KafkaConnectSpec.java`
/// `FORBIDDEN_PREFIXES` at 0.20.0 to 1.2.0 (less `prometheus.metrics.reporter.` from 0.48.0 and
/// the group and topic names from 1.0.0, which leave the replication factors alone), with the
/// same exceptions as the broker's `ssl.*` ones.
const CONNECT_FORBIDDEN_PREFIXES: &[&str] = &[
    "ssl.",
    "sasl.",
    "security.",
    "listeners",
    "plugin.path",
    "rest.",
    "bootstrap.servers",
    "consumer.interceptor.classes",
    "producer.interceptor.classes",
];
const CONNECT_FORBIDDEN_EXCEPTIONS: &[&str] = &[
    "ssl.endpoint.identification.algorithm",
    "ssl.cipher.suites",
    "ssl.protocol",
    "ssl.enabled.protocols",
];

/// Each Strimzi `KafkaConnect` among `documents` whose `spec.bootstrapServers` names the
/// bootstrap service of a Strimzi `Kafka` in `kafkas` (`<name>-kafka-bootstrap`, or a listener's own; the only tie
/// Strimzi knows between them): that `Kafka`'s name and the Connect cluster as a component.
/// Strimzi writes none of the storage topics' replication factors: Connect's own defaults
/// apply (strimzi-kafka-operator `KafkaConnectConfiguration` DEFAULTS, 0.20.0 to 1.2.0).
///
/// A `KafkaMirrorMaker2` is a component of each `Kafka` its clusters name (see
/// `mirror_maker`).
pub fn connects(
    documents: &[Node],
    kafkas: &[KafkaName],
    notes: &mut Vec<String>,
    info: &mut Vec<String>,
) -> Vec<(String, NodeSpec)> {
    let mut found = Vec::new();
    for document in documents
        .iter()
        .filter(|document| is_strimzi(document, "KafkaMirrorMaker2"))
    {
        found.extend(mirror_maker(document, kafkas, notes, info));
    }
    for document in documents
        .iter()
        .filter(|document| is_strimzi(document, "KafkaConnect"))
    {
        let Some(name_node) = document.at(&["metadata", "name"]).and_then(Node::scalar) else {
            continue;
        };
        let name = name_node.value.trim();
        let Some(spec) = document.get("spec") else {
            continue;
        };
        let bootstrap = spec.get("bootstrapServers").and_then(Node::scalar);
        let Some(target) =
            bootstrap.and_then(|bootstrap| bootstrap_kafka(&bootstrap.value, kafkas))
        else {
            notes.push(format!(
                "KafkaConnect `{name}`: its spec.bootstrapServers names no Strimzi Kafka of the files read; its topics are not checked"
            ));
            continue;
        };
        found.push((
            target,
            connect_worker(
                format!("connect {name}"),
                format!("KafkaConnect `{name}`"),
                name_node,
                bootstrap,
                spec.get("config"),
            ),
        ));
    }
    found
}

/// A Strimzi `KafkaMirrorMaker2`, as a component of each `Kafka` of `kafkas` that one of its
/// clusters names: on the cluster of its `connectCluster` alias (`spec.target` in the `v1` API
/// of 1.0) the Connect worker, whose `config` are its settings (less
/// `KafkaMirrorMaker2ClusterSpec` FORBIDDEN_PREFIXES, the same as `KafkaConnectSpec`'s) and
/// whose config, offset and status topics take Connect's defaults (Strimzi writes no
/// replication factor); on each cluster, the topics the flows' connectors create there.
///
/// Strimzi creates a flow's connector only when its block is given (`sourceConnector`,
/// `checkpointConnector`, `heartbeatConnector`; the last gone in 1.0), with the block's
/// `config` and no replication factor of its own (strimzi-kafka-operator
/// `KafkaMirrorMaker2Connectors.java` `generateConnectorDefinitions`, 0.40.0 to 1.2.0;
/// `KafkaMirrorMaker2AssemblyOperator.java` at 0.30.0), so MirrorMaker's defaults apply:
/// remote topics (`replication.factor`, 2), checkpoints and heartbeats (3) on the target, the
/// offset-syncs topic (3) on the source unless `offset-syncs.topic.location` is `target`
/// (apache/kafka `connect/mirror` `MirrorSourceConfig`, `MirrorCheckpointConfig`,
/// `MirrorHeartbeatConfig`, `MirrorConnectorConfig`, 3.9).
fn mirror_maker(
    document: &Node,
    kafkas: &[KafkaName],
    notes: &mut Vec<String>,
    info: &mut Vec<String>,
) -> Vec<(String, NodeSpec)> {
    let Some(name_node) = document.at(&["metadata", "name"]).and_then(Node::scalar) else {
        return Vec::new();
    };
    let name = name_node.value.trim();
    let Some(spec) = document.get("spec") else {
        return Vec::new();
    };
    fn alias_of(cluster: &Node) -> Option<&str> {
        cluster.get("alias").and_then(Node::text).map(str::trim)
    }
    // Every cluster the resource names, by alias: `spec.clusters` (v1beta2), or `spec.target`
    // and each mirror's `source` (v1).
    let mut clusters: Vec<(&str, &Node)> = spec
        .get("clusters")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|cluster| Some((alias_of(cluster)?, cluster)))
        .collect();
    let target = spec.get("target");
    clusters.extend(target.and_then(|target| Some((alias_of(target)?, target))));
    let mirrors = spec.get("mirrors").map(Node::items).unwrap_or_default();
    for mirror in mirrors {
        if let Some(source) = mirror.get("source") {
            clusters.extend(alias_of(source).map(|alias| (alias, source)));
        }
    }
    let connect_alias = match target {
        Some(target) => alias_of(target),
        None => spec
            .get("connectCluster")
            .and_then(Node::text)
            .map(str::trim),
    };
    let cluster = |alias: &str| {
        clusters
            .iter()
            .find(|(known, _)| *known == alias)
            .map(|(_, cluster)| *cluster)
    };
    let kafka_of = |alias: &str| {
        let bootstrap = cluster(alias)?
            .get("bootstrapServers")
            .and_then(Node::text)?;
        bootstrap_kafka(bootstrap, kafkas)
    };
    let Some(connect) = connect_alias.and_then(cluster) else {
        notes.push(format!(
            "KafkaMirrorMaker2 `{name}`: its connectCluster names none of its clusters; its topics are not checked"
        ));
        return Vec::new();
    };
    // The flows, as aliases, with their connectors' `config` maps.
    struct Flow<'a> {
        source: &'a str,
        target: &'a str,
        source_connector: Option<&'a Node>,
        checkpoint_connector: Option<&'a Node>,
        heartbeat_connector: Option<&'a Node>,
    }
    let flows: Vec<Flow> = mirrors
        .iter()
        .filter_map(|mirror| {
            let source = mirror
                .get("sourceCluster")
                .and_then(Node::text)
                .map(str::trim)
                .or_else(|| mirror.get("source").and_then(alias_of))?;
            let target = mirror
                .get("targetCluster")
                .and_then(Node::text)
                .map(str::trim)
                .or(connect_alias)?;
            Some(Flow {
                source,
                target,
                source_connector: mirror.get("sourceConnector"),
                checkpoint_connector: mirror.get("checkpointConnector"),
                heartbeat_connector: mirror.get("heartbeatConnector"),
            })
        })
        .collect();
    let connect_kafka = connect_alias.and_then(kafka_of);
    let mut here: Vec<String> = connect_kafka.iter().cloned().collect();
    for flow in &flows {
        for alias in [flow.source, flow.target] {
            if let Some(kafka) = kafka_of(alias)
                && !here.contains(&kafka)
            {
                here.push(kafka);
            }
        }
    }
    if here.is_empty() {
        notes.push(format!(
            "KafkaMirrorMaker2 `{name}`: the bootstrapServers of its clusters name no Strimzi Kafka of the files read; its topics are not checked"
        ));
        return Vec::new();
    }
    let unmatched: Vec<&str> = clusters
        .iter()
        .map(|(alias, _)| *alias)
        .filter(|alias| kafka_of(alias).is_none())
        .collect();
    if !unmatched.is_empty() {
        info.push(format!(
            "KafkaMirrorMaker2 `{name}`: its cluster{} {} name{} no Strimzi Kafka of the files read: the topics it creates there are not checked",
            if unmatched.len() == 1 { "" } else { "s" },
            unmatched
                .iter()
                .map(|alias| format!("`{alias}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if unmatched.len() == 1 { "s" } else { "" },
        ));
    }
    fn config_of(connector: Option<&Node>) -> Option<&Node> {
        connector.and_then(|connector| connector.get("config"))
    }
    let mut parts = Vec::new();
    for kafka in here {
        let worker_here = connect_kafka.as_deref() == Some(kafka.as_str());
        let mut mirror_flows = Vec::new();
        let mut flow_entries = Vec::new();
        for flow in &flows {
            let into_here = kafka_of(flow.target).as_deref() == Some(kafka.as_str());
            let location = config_of(flow.source_connector)
                .and_then(|config| config.get("offset-syncs.topic.location"))
                .and_then(Node::text)
                .map(|location| location.trim().to_ascii_lowercase());
            let syncs_alias = if location.as_deref() == Some("target") {
                flow.target
            } else {
                flow.source
            };
            let offset_syncs_here = flow.source_connector.is_some()
                && kafka_of(syncs_alias).as_deref() == Some(kafka.as_str());
            if !into_here && !offset_syncs_here {
                continue;
            }
            let prefix = format!("{}->{}.", flow.source, flow.target);
            for connector in [
                flow.source_connector,
                flow.checkpoint_connector,
                flow.heartbeat_connector,
            ] {
                for (key, value) in config_of(connector).map(Node::entries).unwrap_or_default() {
                    let (Some(key), Some(value)) = (key.scalar(), value.scalar()) else {
                        continue;
                    };
                    if key.value.ends_with("replication.factor") && !value.is_null() {
                        let mut entry = YamlEntry::written(key, value);
                        entry.key = format!("{prefix}{}", key.value.trim());
                        flow_entries.push(entry);
                    }
                }
            }
            mirror_flows.push(MirrorFlow {
                source: flow.source.to_string(),
                target: flow.target.to_string(),
                into_here,
                source_connector: flow.source_connector.is_some(),
                checkpoint_connector: flow.checkpoint_connector.is_some(),
                heartbeat_connector: flow.heartbeat_connector.is_some(),
                offset_syncs_here,
            });
        }
        if !worker_here && mirror_flows.is_empty() {
            continue;
        }
        let mut spec = connect_worker(
            format!("mirrormaker2 {name} {kafka}"),
            format!("KafkaMirrorMaker2 `{name}`"),
            name_node,
            if worker_here {
                connect.get("bootstrapServers").and_then(Node::scalar)
            } else {
                None
            },
            if worker_here {
                connect.get("config")
            } else {
                None
            },
        );
        spec.entries.extend(flow_entries);
        if let Some(component) = &mut spec.component {
            component.worker_topics_here = worker_here;
            component.mirror_flows = mirror_flows;
        }
        parts.push((kafka, spec));
    }
    parts
}

/// The `Kafka` of `kafkas` whose bootstrap service the first of `bootstrap_servers` names:
/// `<name>-kafka-bootstrap`, or a listener's own, `<name>-kafka-<listener>-bootstrap`
/// (strimzi-kafka-operator `ListenersUtils.backwardsCompatibleBootstrapServiceName`), as a
/// host alone or qualified (`.namespace.svc`, ...).
fn bootstrap_kafka(bootstrap_servers: &str, kafkas: &[KafkaName]) -> Option<String> {
    let named = bootstrap_matches(bootstrap_servers, kafkas);
    // Two of one name (in namespaces the address does not tell apart): neither.
    match named[..] {
        [kafka] => Some(kafka.name.clone()),
        _ => None,
    }
}

/// The `Kafka`s of `kafkas` whose bootstrap service the first of `bootstrap_servers` may name
/// (see `bootstrap_kafka`): those of the longest matching name, in the namespace the address
/// names when it names one and the resource says its own. More than one is a tie the address
/// does not break.
pub fn bootstrap_matches<'a>(
    bootstrap_servers: &str,
    kafkas: &'a [KafkaName],
) -> Vec<&'a KafkaName> {
    let Some(first) = bootstrap_servers.split(',').next().map(str::trim) else {
        return Vec::new();
    };
    let mut labels = first.split(':').next().unwrap_or_default().split('.');
    let Some(service) = labels
        .next()
        .and_then(|label| label.strip_suffix("-bootstrap"))
    else {
        return Vec::new();
    };
    // `<service>.<namespace>.svc...`: a `Kafka` of another namespace is another cluster.
    let namespace = labels.next();
    let named: Vec<&KafkaName> = kafkas
        .iter()
        .filter(|kafka| {
            service
                .strip_prefix(kafka.name.as_str())
                .and_then(|rest| rest.strip_prefix("-kafka"))
                .is_some_and(|rest| rest.is_empty() || (rest.len() > 1 && rest.starts_with('-')))
        })
        .filter(|kafka| match (namespace, &kafka.namespace) {
            (Some(wanted), Some(namespace)) => wanted == namespace,
            _ => true,
        })
        .collect();
    let Some(longest) = named.iter().map(|kafka| kafka.name.len()).max() else {
        return Vec::new();
    };
    named
        .into_iter()
        .filter(|kafka| kafka.name.len() == longest)
        .collect()
}

/// Every `bootstrapServers` of the Strimzi `KafkaConnect`s and `KafkaMirrorMaker2`s among
/// `documents`: the addresses that tie them to a `Kafka` (a Connect's `spec.bootstrapServers`;
/// a MirrorMaker 2's clusters', `spec.clusters` in v1beta2, `spec.target` and each mirror's
/// `source` in v1).
pub fn bootstrap_addresses(documents: &[Node]) -> Vec<String> {
    let mut addresses = Vec::new();
    let mut push = |node: Option<&Node>| {
        if let Some(address) = node
            .and_then(|node| node.get("bootstrapServers"))
            .and_then(Node::text)
        {
            addresses.push(address.trim().to_string());
        }
    };
    for document in documents {
        let spec = document.get("spec");
        if is_strimzi(document, "KafkaConnect") {
            push(spec);
        } else if is_strimzi(document, "KafkaMirrorMaker2") {
            let spec = spec.map(|spec| {
                (
                    spec.get("clusters").map(Node::items).unwrap_or_default(),
                    spec.get("target"),
                    spec.get("mirrors").map(Node::items).unwrap_or_default(),
                )
            });
            if let Some((clusters, target, mirrors)) = spec {
                clusters.iter().for_each(|cluster| push(Some(cluster)));
                push(target);
                mirrors.iter().for_each(|mirror| push(mirror.get("source")));
            }
        }
    }
    addresses
}

/// A Connect cluster Strimzi runs, as a component: `bootstrap.servers` from the resource,
/// then the keys of its `config` that Strimzi passes on.
fn connect_worker(
    id: String,
    label: String,
    name_node: &Scalar,
    bootstrap: Option<&Scalar>,
    config: Option<&Node>,
) -> NodeSpec {
    let mut entries = Vec::new();
    if let Some(bootstrap) = bootstrap {
        entries.push(YamlEntry {
            key: "bootstrap.servers".into(),
            value: bootstrap.value.clone(),
            key_span: bootstrap.span.clone(),
            value_span: bootstrap.span.clone(),
            edit: None,
            provenance: Provenance::Operator,
        });
    }
    for (key, value) in config.map(Node::entries).unwrap_or_default() {
        let (Some(key), Some(value)) = (key.scalar(), value.scalar()) else {
            continue;
        };
        let lower = key.value.to_ascii_lowercase();
        let forbidden = !CONNECT_FORBIDDEN_EXCEPTIONS.contains(&key.value.as_str())
            && CONNECT_FORBIDDEN_PREFIXES
                .iter()
                .any(|prefix| lower.starts_with(prefix));
        if value.is_null() || forbidden {
            continue;
        }
        entries.push(YamlEntry::written(key, value));
    }
    NodeSpec {
        id,
        declared_at: name_node.span.clone(),
        label,
        entries,
        count_known: true,
        image: None,
        image_tag: None,
        component: Some(ComponentService {
            kind: ComponentKind::ConnectDistributed,
            image_span: name_node.span.clone(),
            env_prefix: None,
            worker_topics_here: true,
            mirror_flows: Vec::new(),
        }),
        forbidden: Vec::new(),
        ignored_by_release: Vec::new(),
        runtime: super::Runtime::Pod { pool: None },
        image_exit: None,
        settings_elsewhere: false,
    }
}

/// Whether a `Kafka`'s `metadata` turns node pools on: the annotation `strimzi.io/node-pools`
/// is `enabled` in any case (strimzi-kafka-operator `ReconcilerUtils.nodePoolsEnabled`, 0.36.0
/// to 1.2.0).
fn node_pools_enabled(metadata: &Node) -> bool {
    metadata
        .get("annotations")
        .and_then(|annotations| annotations.get("strimzi.io/node-pools"))
        .and_then(Node::text)
        .is_some_and(|value| value.eq_ignore_ascii_case("enabled"))
}

/// Whether `documents` hold a Strimzi `Kafka`.
pub fn has_kafka(documents: &[Node]) -> bool {
    documents
        .iter()
        .any(|document| is_strimzi(document, "Kafka"))
}

/// One cluster per `Kafka` resource: its name and nodes. `pools` are those of the folder.
pub fn read(
    documents: &[Node],
    pools: &[Pool],
    notes: &mut Vec<String>,
) -> Vec<(String, Vec<NodeSpec>)> {
    let mut clusters = Vec::new();
    let local_pools = self::pools(documents);
    for document in documents
        .iter()
        .filter(|document| is_strimzi(document, "Kafka"))
    {
        let Some(metadata) = document.get("metadata") else {
            continue;
        };
        let Some(name_node) = metadata.get("name").and_then(Node::scalar) else {
            continue;
        };
        let name = name_node.value.clone();
        let Some(kafka) = document.at(&["spec", "kafka"]) else {
            continue;
        };
        let kraft = document.at(&["spec", "zookeeper"]).is_none();
        let mut config = Vec::new();
        let mut forbidden = Vec::new();
        for (key, value) in kafka.get("config").map(Node::entries).unwrap_or_default() {
            let (Some(key), Some(value)) = (key.scalar(), value.scalar()) else {
                continue;
            };
            if value.is_null() {
                continue;
            }
            if let Some(prefix) = forbidden_prefix(&key.value) {
                forbidden.push(Forbidden {
                    key: key.value.clone(),
                    key_span: key.span.clone(),
                    prefix,
                });
                continue;
            }
            config.push(YamlEntry::written(key, value));
        }
        // The release the operator runs in the pods (without it, the operator's own default,
        // which the file does not say).
        let release = kafka
            .get("version")
            .and_then(Node::scalar)
            .and_then(|version| {
                Some(ImageTag {
                    reference: version.value.trim().to_string(),
                    span: version.span.clone(),
                    release: crate::sources::images::release_prefix(version.value.trim())?,
                    named_by: NamedBy::StrimziVersion,
                })
            });
        // The pools of the Kafka's own file when it has any: a folder of alternative files, each
        // a Kafka of one name with its own pools (Strimzi's examples/kafka/kraft/:
        // kafka.yaml, kafka-ephemeral.yaml, kafka-single-node.yaml, ...), holds ways to run one
        // cluster, not one cluster of every pool. Otherwise those of the files beside it.
        let own: Vec<&Pool> = local_pools
            .iter()
            .filter(|pool| pool.cluster == name)
            .collect();
        let mine: Vec<&Pool> = if own.is_empty() {
            pools.iter().filter(|pool| pool.cluster == name).collect()
        } else {
            own
        };
        // One pool name written twice (in two files, with other sizes or roles) is one
        // KafkaNodePool applied twice: the last applied wins, which the files do not say.
        let rewritten: Vec<&str> = mine
            .iter()
            .enumerate()
            .filter(|(at, pool)| mine[..*at].iter().any(|other| other.name == pool.name))
            .map(|(_, pool)| pool.name.as_str())
            .collect();
        if let Some(pool) = rewritten.first() {
            notes.push(format!("Kafka `{name}`: KafkaNodePool `{pool}` is written more than once beside it, differently (alternatives: the last applied replaces the others); its broker count is unknown"));
        }
        // (label, pool, broker, controller, count)
        type Group = (String, Option<String>, bool, bool, Option<usize>);
        let groups: Vec<Group> = if mine.is_empty() {
            let replicas = kafka
                .get("replicas")
                .and_then(Node::text)
                .and_then(|count| count.trim().parse().ok());
            if node_pools_enabled(metadata) {
                // strimzi-kafka-operator `KafkaAssemblyOperator.java` (0.36.0 to 1.2.0): with
                // the annotation, the pods come from the pools alone, and a `Kafka` with none
                // fails its reconciliation (`InvalidConfigurationException`: "KafkaNodePools are
                // enabled, but no KafkaNodePools found", "No KafkaNodePools found" from 0.48.0):
                // `spec.kafka.replicas` is never read, and no broker runs until a pool exists.
                notes.push(format!("Kafka `{name}`: strimzi.io/node-pools: enabled and no KafkaNodePool labelled strimzi.io/cluster: {name} beside it: Strimzi ignores spec.kafka.replicas then and runs no broker until a pool exists (it refuses the Kafka: no KafkaNodePools found); its broker count is unknown"));
                vec![(format!("Kafka `{name}`"), None, true, false, None)]
            } else {
                if replicas.is_none() {
                    notes.push(format!("Kafka `{name}`: no spec.kafka.replicas and no KafkaNodePool labelled strimzi.io/cluster: {name} beside it; its broker count is unknown"));
                }
                vec![(format!("Kafka `{name}`"), None, true, false, replicas)]
            }
        } else {
            mine.iter()
                .filter(|pool| !rewritten.contains(&pool.name.as_str()))
                .map(|pool| {
                    (
                        format!("Kafka `{name}`, pool `{}`", pool.name),
                        Some(pool.name.clone()),
                        pool.broker || !kraft,
                        pool.controller && kraft,
                        pool.replicas,
                    )
                })
                .chain(rewritten.iter().take(1).filter_map(|rewritten| {
                    // Its size unknown; its roles those of its first writing.
                    let pool = mine.iter().find(|pool| pool.name == *rewritten)?;
                    Some((
                        format!("Kafka `{name}`, pool `{rewritten}`"),
                        Some(pool.name.clone()),
                        pool.broker || !kraft,
                        pool.controller && kraft,
                        None,
                    ))
                }))
                .collect()
        };
        let managed: Vec<&str> = MANAGED
            .iter()
            .chain(if kraft {
                MANAGED_KRAFT
            } else {
                MANAGED_ZOOKEEPER
            })
            .copied()
            .collect();
        let placed = |key: &str, value: String| {
            YamlEntry::rendered(key, value, &name_node.span, Provenance::Operator)
        };
        let mut nodes = Vec::new();
        // Strimzi numbers the nodes from 0, pool after pool.
        let mut next_id = 0;
        for (label, pool, broker, controller, count) in groups {
            let count_known = count.is_some();
            for _ in 0..count.unwrap_or(1).min(1000) {
                let mut entries = Vec::new();
                let id_key = if kraft { "node.id" } else { "broker.id" };
                entries.push(placed(id_key, next_id.to_string()));
                if kraft {
                    let roles = match (broker, controller) {
                        (true, true) => "broker,controller",
                        (false, true) => "controller",
                        _ => "broker",
                    };
                    entries.push(placed("process.roles", roles.to_string()));
                }
                for key in &managed {
                    entries.push(placed(key, format!("${{strimzi:{key}}}")));
                }
                entries.extend(config.iter().cloned());
                nodes.push(NodeSpec {
                    id: format!("kafka {name} {next_id}"),
                    declared_at: name_node.span.clone(),
                    label: label.clone(),
                    entries,
                    count_known,
                    image: None,
                    image_tag: release.clone(),
                    component: None,
                    forbidden: forbidden.clone(),
                    ignored_by_release: Vec::new(),
                    runtime: super::Runtime::Pod { pool: pool.clone() },
                    image_exit: None,
                    settings_elsewhere: false,
                });
                next_id += 1;
            }
        }
        clusters.push((name, nodes));
    }
    clusters
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_keys_as_strimzi_matches_them() {
        assert_eq!(forbidden_prefix("listeners"), Some("listeners"));
        assert_eq!(forbidden_prefix("ssl.keystore.location"), Some("ssl."));
        assert_eq!(forbidden_prefix("ssl.cipher.suites"), None);
        assert_eq!(forbidden_prefix("log.dirs"), Some("log.dir"));
        assert_eq!(forbidden_prefix("log.retention.hours"), None);
        assert_eq!(forbidden_prefix("offsets.topic.replication.factor"), None);
        assert_eq!(forbidden_prefix("controller.quorum.fetch.timeout.ms"), None);
        assert_eq!(forbidden_prefix("broker.rack"), Some("broker."));
    }
}
