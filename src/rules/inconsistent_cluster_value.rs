//! `inconsistent-cluster-value`: settings that must be the same on every node, but are not.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::support::quoted;
use super::{Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::{Cluster, Node, topology};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "inconsistent-cluster-value",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a cluster-wide setting with different values on different nodes",
    check,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Read by brokers (ZooKeeper brokers, KRaft brokers and combined nodes).
    Brokers,
    /// Read by every node, controllers included.
    AllNodes,
}

#[derive(Clone, Copy)]
enum Compare {
    Exact,
    /// A comma-separated list whose order does not matter.
    UnorderedList,
    /// `host:port,host:port/chroot`: hosts in any order, chroot exactly.
    ZooKeeperConnect,
    /// `controller.quorum.voters`: the set of `id@host:port` Kafka keeps (any order, hosts in
    /// any case, the last entry of a repeated id); as a list when Kafka cannot parse it.
    Voters,
    /// `controller.quorum.bootstrap.servers`: the set of `host:port`.
    Addresses,
}

struct Setting {
    key: &'static str,
    scope: Scope,
    compare: Compare,
    severity: Severity,
    /// What goes wrong when nodes disagree.
    why: &'static str,
}

const fn setting(
    key: &'static str,
    scope: Scope,
    compare: Compare,
    severity: Severity,
    why: &'static str,
) -> Setting {
    Setting {
        key,
        scope,
        compare,
        severity,
        why,
    }
}

const CREATOR_DECIDES: &str = "the broker that happens to create the topic uses its own value, so the layout depends on which broker served the first request";
const TOPIC_DEFAULT: &str = "it is the default of every topic led by that broker, so behaviour changes with leader placement";
const COORDINATOR: &str =
    "groups and transactions behave differently depending on which broker coordinates them";
const SECURITY: &str = "authentication and authorization depend on which broker a client reaches";

use Compare::{Addresses, Exact, UnorderedList, Voters, ZooKeeperConnect};
use Scope::{AllNodes, Brokers};
use Severity::{Error, Warning};

/// The curated list (documented in rules/inconsistent-cluster-value.md).
const SETTINGS: &[Setting] = &[
    setting(
        "zookeeper.connect",
        Brokers,
        ZooKeeperConnect,
        Error,
        "brokers with another ZooKeeper ensemble or chroot form a separate cluster (a broker that joins the wrong one stops with InconsistentClusterIdException)",
    ),
    setting(
        "controller.quorum.voters",
        AllNodes,
        Voters,
        Error,
        "every node must see the same KRaft quorum, or nodes cannot elect or find the active controller",
    ),
    setting(
        "controller.quorum.bootstrap.servers",
        AllNodes,
        Addresses,
        Warning,
        "nodes discover the KRaft quorum from it; different lists may point at different quorums",
    ),
    setting(
        "controller.listener.names",
        AllNodes,
        Exact,
        Warning,
        "brokers connect to controllers with the first controller listener's protocol",
    ),
    setting(
        "sasl.mechanism.controller.protocol",
        AllNodes,
        Exact,
        Warning,
        "brokers and controllers must use the same SASL mechanism to reach the quorum",
    ),
    setting(
        "inter.broker.protocol.version",
        Brokers,
        Exact,
        Warning,
        "during a rolling upgrade it must be pinned on all brokers, then raised on all",
    ),
    setting(
        "log.message.format.version",
        Brokers,
        Exact,
        Warning,
        "during a rolling upgrade it must be pinned on all brokers, then raised on all",
    ),
    setting(
        "inter.broker.listener.name",
        Brokers,
        Exact,
        Error,
        "replication connects to each peer's advertised endpoint for that listener; brokers that disagree cannot replicate",
    ),
    setting(
        "security.inter.broker.protocol",
        Brokers,
        Exact,
        Error,
        "replication connects to each peer with that protocol; brokers that disagree cannot replicate",
    ),
    setting(
        "sasl.mechanism.inter.broker.protocol",
        Brokers,
        Exact,
        Error,
        "brokers authenticate to each other with it; brokers that disagree cannot replicate",
    ),
    setting(
        "listener.security.protocol.map",
        Brokers,
        UnorderedList,
        Warning,
        "the same listener name must mean the same protocol on every broker",
    ),
    setting(
        "offsets.topic.replication.factor",
        Brokers,
        Exact,
        Warning,
        CREATOR_DECIDES,
    ),
    setting(
        "offsets.topic.num.partitions",
        Brokers,
        Exact,
        Error,
        "a group's coordinator is chosen by hashing over the partition count; brokers that disagree map groups to different partitions and lose committed offsets",
    ),
    setting(
        "transaction.state.log.replication.factor",
        Brokers,
        Exact,
        Warning,
        CREATOR_DECIDES,
    ),
    setting(
        "transaction.state.log.min.isr",
        Brokers,
        Exact,
        Warning,
        CREATOR_DECIDES,
    ),
    setting(
        "transaction.state.log.num.partitions",
        Brokers,
        Exact,
        Error,
        "a transactional id's coordinator is chosen by hashing over the partition count; brokers that disagree map ids to different partitions",
    ),
    setting(
        "share.coordinator.state.topic.replication.factor",
        Brokers,
        Exact,
        Warning,
        CREATOR_DECIDES,
    ),
    setting(
        "share.coordinator.state.topic.min.isr",
        Brokers,
        Exact,
        Warning,
        CREATOR_DECIDES,
    ),
    setting(
        "share.coordinator.state.topic.num.partitions",
        Brokers,
        Exact,
        Error,
        "share-group state is placed by hashing over the partition count; brokers that disagree look in different partitions",
    ),
    setting(
        "default.replication.factor",
        AllNodes,
        Exact,
        Warning,
        "auto-created topics (and, in KRaft, topics created without a replication factor) get the value of whichever node handles the request",
    ),
    setting(
        "num.partitions",
        AllNodes,
        Exact,
        Warning,
        "auto-created topics get the value of whichever node handles the request",
    ),
    setting(
        "auto.create.topics.enable",
        Brokers,
        Exact,
        Warning,
        "whether a topic is auto-created depends on which broker a client asks",
    ),
    setting(
        "min.insync.replicas",
        Brokers,
        Exact,
        Warning,
        TOPIC_DEFAULT,
    ),
    setting(
        "unclean.leader.election.enable",
        Brokers,
        Exact,
        Warning,
        TOPIC_DEFAULT,
    ),
    setting(
        "log.retention.hours",
        Brokers,
        Exact,
        Warning,
        TOPIC_DEFAULT,
    ),
    setting("log.retention.ms", Brokers, Exact, Warning, TOPIC_DEFAULT),
    setting(
        "log.retention.bytes",
        Brokers,
        Exact,
        Warning,
        TOPIC_DEFAULT,
    ),
    setting("log.cleanup.policy", Brokers, Exact, Warning, TOPIC_DEFAULT),
    setting("message.max.bytes", Brokers, Exact, Warning, TOPIC_DEFAULT),
    setting("compression.type", Brokers, Exact, Warning, TOPIC_DEFAULT),
    setting("authorizer.class.name", AllNodes, Exact, Error, SECURITY),
    setting("super.users", AllNodes, UnorderedList, Warning, SECURITY),
    setting(
        "allow.everyone.if.no.acl.found",
        AllNodes,
        Exact,
        Error,
        SECURITY,
    ),
    setting(
        "sasl.enabled.mechanisms",
        Brokers,
        UnorderedList,
        Warning,
        SECURITY,
    ),
    setting(
        "delegation.token.secret.key",
        Brokers,
        Exact,
        Error,
        "a delegation token issued by one broker must validate on every other",
    ),
    setting(
        "transaction.max.timeout.ms",
        Brokers,
        Exact,
        Warning,
        COORDINATOR,
    ),
    setting(
        "offsets.retention.minutes",
        Brokers,
        Exact,
        Warning,
        COORDINATOR,
    ),
    setting(
        "group.initial.rebalance.delay.ms",
        Brokers,
        Exact,
        Warning,
        COORDINATOR,
    ),
    setting(
        "group.min.session.timeout.ms",
        Brokers,
        Exact,
        Warning,
        COORDINATOR,
    ),
    setting(
        "group.max.session.timeout.ms",
        Brokers,
        Exact,
        Warning,
        COORDINATOR,
    ),
];

/// Whether this rule compares `key` (so that strict mode does not report it twice).
pub(super) fn covers(key: &str) -> bool {
    SETTINGS.iter().any(|setting| setting.key == key)
}

/// The value as compared: borrowed when compared as written (most settings), so that the
/// common case, every node agreeing, allocates nothing.
fn normalized(compare: Compare, value: &str, version: KafkaVersion) -> Cow<'_, str> {
    let value = value.trim();
    let sorted_list = |list: &str| {
        let mut items: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .collect();
        items.sort_unstable();
        items.join(",")
    };
    Cow::Owned(match compare {
        Exact => return Cow::Borrowed(value),
        UnorderedList => sorted_list(value),
        Voters => topology::canonical_voters(value, version).unwrap_or_else(|| sorted_list(value)),
        Addresses => topology::canonical_bootstrap_servers(value, version)
            .unwrap_or_else(|| sorted_list(value)),
        ZooKeeperConnect => match value.split_once('/') {
            Some((hosts, chroot)) => {
                format!("{}/{}", sorted_list(hosts), chroot.trim_end_matches('/'))
            }
            None => sorted_list(value),
        },
    })
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for setting in SETTINGS {
        let nodes: Vec<&Node> = match setting.scope {
            Brokers => cluster.brokers().collect(),
            AllNodes => cluster.nodes.iter().collect(),
        };
        if nodes.len() < 2 {
            continue;
        }
        // Normalized value (None: not set and no default) of each node.
        let values: Vec<Option<Cow<str>>> = nodes
            .iter()
            .map(|node| {
                context
                    .effective(node, setting.key, cluster.target.version)
                    .map(|e| normalized(setting.compare, e.value(), cluster.target.version))
            })
            .collect();
        if values.iter().all(|value| *value == values[0]) {
            continue;
        }
        // Normalized value -> the nodes holding it.
        let mut groups: BTreeMap<Option<Cow<str>>, Vec<&Node>> = BTreeMap::new();
        for (node, value) in nodes.iter().zip(values) {
            groups.entry(value).or_default().push(node);
        }
        // The odd one out comes first: the smallest group, earliest file.
        let mut ordered: Vec<(Option<Cow<str>>, Vec<&Node>)> = groups.into_iter().collect();
        ordered.sort_by_key(|(_, members)| (members.len(), members[0].file));
        let key = setting.key;
        let mut labels = Vec::new();
        let mut summary = Vec::new();
        for (_, members) in &ordered {
            for node in members {
                let effective = context.effective(node, key, cluster.target.version);
                let shown = match &effective {
                    Some(effective) => quoted(key, effective.value()),
                    None => "not set".to_string(),
                };
                let (span, message) = match effective.and_then(|e| e.line()) {
                    Some(entry) => (
                        entry.value_span().clone(),
                        format!("{}: {shown}", context.node_name(node)),
                    ),
                    None => (
                        node.declared_at.clone(),
                        format!(
                            "{}: {key} not set, so {}",
                            context.node_name(node),
                            match shown.as_str() {
                                "not set" => "unset".to_string(),
                                _ => format!("Kafka's default {shown}"),
                            }
                        ),
                    ),
                };
                labels.push(Label {
                    file: node.file,
                    span,
                    message,
                });
                summary.push(format!("{} has {shown}", context.node_name(node)));
            }
        }
        diagnostics.push(
            RULE.finding(format!(
                "{key} differs across the cluster ({}): {}",
                summary.join(", "),
                setting.why
            ))
            .with_severity(setting.severity)
            .with_key(key)
            .with_labels(labels)
            .with_help(format!(
                "set {key} to the same value on every node of {}",
                cluster.name
            )),
        );
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zookeeper_connect_ignores_host_order_but_not_chroot() {
        let n = |v| normalized(ZooKeeperConnect, v, KafkaVersion::new(3, 9));
        assert_eq!(n("b:2181,a:2181/kafka"), n("a:2181, b:2181/kafka"));
        assert_ne!(n("a:2181/kafka"), n("a:2181/kafka2"));
        assert_ne!(n("a:2181/kafka"), n("a:2181"));
    }

    #[test]
    fn voters_compare_as_the_set_kafka_keeps() {
        let n = |v| normalized(Voters, v, KafkaVersion::new(4, 1));
        assert_eq!(n("1@c-1:9093,2@c-2:9093"), n("2@C-2:9093, 1@c-1.:9093"));
        assert_ne!(n("1@c-1:9093,2@c-2:9093"), n("1@c-1:9093,2@c-3:9093"));
        let b = |v| normalized(Addresses, v, KafkaVersion::new(4, 1));
        assert_eq!(b("c-1:9093,c-2:9093"), b("C-2:9093,c-1:9093"));
        assert_ne!(b("c-1:9093"), b("c-1:9094"));
    }

    #[test]
    fn settings_are_listed_once() {
        let mut keys: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), SETTINGS.len());
    }
}

#[cfg(test)]
mod doc_tests {
    #[test]
    fn the_doc_lists_every_curated_key() {
        let doc = include_str!("../../rules/inconsistent-cluster-value.md");
        for setting in super::SETTINGS {
            assert!(
                doc.contains(&format!("`{}`", setting.key)),
                "{} is missing from the doc",
                setting.key
            );
        }
    }
}
