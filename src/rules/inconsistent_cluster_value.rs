//! `inconsistent-cluster-value`: settings that must be the same on every node, but are not.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{ConfigType, KafkaVersion};
use crate::cluster::{Cluster, Mode, Node, topology};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "inconsistent-cluster-value",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a cluster-wide setting with different values on different nodes",
    check: Check::Files(check),
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Read by brokers (ZooKeeper brokers, KRaft brokers and combined nodes).
    Brokers,
    /// Read by every node, controllers included.
    AllNodes,
    /// Read by ZooKeeper-mode brokers only.
    ZooKeeperBrokers,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Compare {
    Exact,
    /// A comma-separated list whose order does not matter.
    UnorderedList,
    /// `host:port,host:port/chroot`: the ensemble's hosts in any order and any case, whatever
    /// the port (a secure client port beside a plain one reaches the same ensemble), and the
    /// chroot exactly.
    ZooKeeperConnect,
    /// `listener.security.protocol.map`: nodes disagree only when one listener name maps to
    /// different protocols (a broker with one more listener, an external one, is no conflict);
    /// names compared as Kafka normalises them (upper case).
    ProtocolMap,
    /// The log retention Kafka computes from `log.retention.ms`, else `log.retention.minutes`,
    /// else `log.retention.hours` (`KafkaConfig.logRetentionTimeMillis`), so `hours=168` and
    /// `ms=604800000` agree.
    Retention,
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

const CREATOR_DECIDES: &str = "the topic depends on the broker that creates it";
const TOPIC_DEFAULT: &str = "topic defaults change with leader placement";
const COORDINATOR: &str = "groups and transactions behave by coordinator";
const SECURITY: &str = "security depends on the broker a client reaches";

use Compare::{Addresses, Exact, ProtocolMap, Retention, UnorderedList, Voters, ZooKeeperConnect};
use Scope::{AllNodes, Brokers, ZooKeeperBrokers};
use Severity::{Error, Warning};

/// The curated list (documented in rules/inconsistent-cluster-value.md).
const SETTINGS: &[Setting] = &[
    setting(
        "zookeeper.connect",
        Brokers,
        ZooKeeperConnect,
        Error,
        "brokers on another ensemble or chroot form a separate cluster",
    ),
    setting(
        "zookeeper.set.acl",
        ZooKeeperBrokers,
        Exact,
        Warning,
        "a broker without it leaves the znodes it writes open to any ZooKeeper client",
    ),
    setting(
        "controller.quorum.voters",
        AllNodes,
        Voters,
        Error,
        "nodes cannot agree on the KRaft quorum",
    ),
    setting(
        "controller.quorum.bootstrap.servers",
        AllNodes,
        Addresses,
        Warning,
        "nodes may find different quorums",
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
        "brokers that disagree cannot replicate",
    ),
    setting(
        "security.inter.broker.protocol",
        Brokers,
        Exact,
        Error,
        "brokers that disagree cannot replicate",
    ),
    setting(
        "sasl.mechanism.inter.broker.protocol",
        Brokers,
        Exact,
        Error,
        "brokers that disagree cannot replicate",
    ),
    setting(
        "listener.security.protocol.map",
        Brokers,
        ProtocolMap,
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
        "brokers map groups to different partitions and lose committed offsets",
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
        "brokers map transactional ids to different partitions",
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
        "brokers look for share-group state in different partitions",
    ),
    setting(
        "default.replication.factor",
        AllNodes,
        Exact,
        Warning,
        "new topics depend on the node that creates them",
    ),
    setting(
        "num.partitions",
        AllNodes,
        Exact,
        Warning,
        "auto-created topics depend on the node that creates them",
    ),
    setting(
        "auto.create.topics.enable",
        Brokers,
        Exact,
        Warning,
        "auto-creation depends on the broker a client asks",
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
    // Compared as the retention Kafka computes from the three keys; reported under the one
    // that decides on the odd node out.
    setting(
        "log.retention.ms",
        Brokers,
        Retention,
        Warning,
        TOPIC_DEFAULT,
    ),
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
        "a token from one broker fails on the others",
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

/// The keys Kafka computes the log retention from, the deciding one first.
const RETENTION_KEYS: [&str; 3] = [
    "log.retention.ms",
    "log.retention.minutes",
    "log.retention.hours",
];

/// The keys this rule compares, with what goes wrong when nodes disagree: what
/// `live-config-drift` compares between running brokers too.
pub(super) fn cluster_wide_keys() -> impl Iterator<Item = (&'static str, &'static str)> {
    SETTINGS.iter().map(|setting| (setting.key, setting.why))
}

/// Whether this rule compares `key` (so that strict mode does not report it twice).
pub(super) fn covers(key: &str) -> bool {
    SETTINGS.iter().any(|setting| setting.key == key) || RETENTION_KEYS.contains(&key)
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
        // Compared by `check` itself (see `same_ensembles`, `conflicting_protocols`,
        // `retention_of`).
        ZooKeeperConnect | ProtocolMap | Retention => value.to_string(),
    })
}

/// `zookeeper.connect` as an ensemble: its hosts (lower case, without ports) and its chroot.
fn ensemble(value: &str) -> (Vec<String>, String) {
    let value = value.trim();
    let (hosts, chroot) = value.split_once('/').unwrap_or((value, ""));
    let hosts = hosts
        .split(',')
        .map(|address| zookeeper_host(address.trim()))
        .filter(|host| !host.is_empty())
        .collect();
    (hosts, chroot.trim_end_matches('/').to_string())
}

/// Nodes name the same ensemble when their chroots are equal and their host lists share a host
/// (directly or through other nodes: one broker may list all three servers, another one of
/// them). The value of each node is its group: the chroot and the group's first node.
fn same_ensembles(ensembles: &[Option<(Vec<String>, String)>]) -> Vec<Option<Cow<'static, str>>> {
    let mut group: Vec<usize> = (0..ensembles.len()).collect();
    fn root(group: &mut [usize], mut at: usize) -> usize {
        while group[at] != at {
            at = group[at];
        }
        at
    }
    for a in 0..ensembles.len() {
        for b in a + 1..ensembles.len() {
            if let (Some((hosts_a, chroot_a)), Some((hosts_b, chroot_b))) =
                (&ensembles[a], &ensembles[b])
                && chroot_a == chroot_b
                && hosts_a.iter().any(|host| hosts_b.contains(host))
            {
                let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                group[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    (0..ensembles.len())
        .map(|at| {
            ensembles[at]
                .as_ref()
                .map(|(_, chroot)| Cow::Owned(format!("{chroot}#{}", root(&mut group, at))))
        })
        .collect()
}

/// The listener names a node uses: those of its listeners and advertised listeners, its
/// controller listeners and its inter-broker listener, upper case as Kafka normalises them.
fn used_listener_names(context: &Context, node: &Node, version: KafkaVersion) -> Vec<String> {
    let mut names = Vec::new();
    for key in ["listeners", "advertised.listeners"] {
        if let Some(effective) = context.effective(node, key, version) {
            names.extend(effective.value().split(',').filter_map(|listener| {
                listener
                    .split_once("://")
                    .map(|(name, _)| name.trim().to_ascii_uppercase())
            }));
        }
    }
    for key in ["controller.listener.names", "inter.broker.listener.name"] {
        if let Some(effective) = context.effective(node, key, version) {
            names.extend(
                effective
                    .value()
                    .split(',')
                    .map(|name| name.trim().to_ascii_uppercase())
                    .filter(|name| !name.is_empty()),
            );
        }
    }
    names
}

/// The host of a ZooKeeper address (`zk-1:2181`, `[::1]:2181`), lower case, without the port.
fn zookeeper_host(address: &str) -> String {
    let host = match address.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => address.rsplit_once(':').map_or(address, |(host, _)| host),
    };
    host.to_ascii_lowercase()
}

/// `listener.security.protocol.map` as Kafka reads it: listener name (upper case) to protocol.
fn protocol_map(value: &str) -> Vec<(String, String)> {
    value
        .split(',')
        .filter_map(|pair| {
            let (name, protocol) = pair.split_once(':')?;
            Some((
                name.trim().to_ascii_uppercase(),
                protocol.trim().to_ascii_uppercase(),
            ))
        })
        .collect()
}

/// Each node's map restricted to the listener names that map to different protocols on
/// different nodes: empty when the maps agree wherever they overlap.
fn conflicting_protocols(maps: &[Option<Vec<(String, String)>>]) -> Vec<Option<String>> {
    let mut conflicting: Vec<&str> = Vec::new();
    for (at, map) in maps.iter().enumerate() {
        for (name, protocol) in map.iter().flatten() {
            let differs = maps[at + 1..].iter().flatten().any(|other| {
                other.iter().any(|(other_name, other_protocol)| {
                    other_name == name && other_protocol != protocol
                })
            });
            if differs && !conflicting.contains(&name.as_str()) {
                conflicting.push(name);
            }
        }
    }
    if conflicting.is_empty() {
        return Vec::new();
    }
    conflicting.sort_unstable();
    maps.iter()
        .map(|map| {
            map.as_ref().map(|map| {
                conflicting
                    .iter()
                    .map(|name| {
                        let protocol = map
                            .iter()
                            .rev()
                            .find(|(mapped, _)| mapped == name)
                            .map_or("(none)", |(_, protocol)| protocol.as_str());
                        format!("{name}:{protocol}")
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
        })
        .collect()
}

/// The log retention in milliseconds Kafka computes for a node (-1: unlimited), with the key
/// that decides it; `None` when a value is not known (a placeholder, a value Kafka refuses).
fn retention_of<'a>(
    context: &Context<'a>,
    node: &Node,
    version: KafkaVersion,
) -> Option<(i64, &'static str)> {
    for (key, unit) in RETENTION_KEYS.into_iter().zip([1i64, 60_000, 3_600_000]) {
        match context.lookup(node, key, version).known()? {
            Some(setting) => {
                // `.ms` is a LONG, `.minutes` and `.hours` INTs (a value past i32 stops Kafka).
                let value = match unit {
                    1 => setting.trimmed().parse::<i64>().ok()?,
                    _ => setting.trimmed().parse::<i32>().ok()?.into(),
                };
                let millis = value.saturating_mul(unit);
                return Some((if millis < 0 { -1 } else { millis }, key));
            }
            None => continue,
        }
    }
    None
}

/// A node holding a value, with the key shown for it.
type Holder<'n> = (&'n Node, &'static str);

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    // One list of the nodes a setting concerns, refilled for each (most agree: no allocation
    // a setting).
    let mut in_scope: Vec<&Node> = Vec::with_capacity(cluster.nodes.len());
    for setting in SETTINGS {
        in_scope.clear();
        match setting.scope {
            Brokers => in_scope.extend(cluster.brokers()),
            AllNodes => in_scope.extend(cluster.nodes.iter()),
            ZooKeeperBrokers => in_scope.extend(
                cluster
                    .brokers()
                    .filter(|node| node.mode == Mode::ZooKeeper),
            ),
        }
        if in_scope.len() < 2 {
            continue;
        }
        // Nodes that hold the same text agree however it is compared: the common case costs
        // one lookup a node.
        let keys_read: &[&str] = match setting.compare {
            Retention => &RETENTION_KEYS,
            _ => std::slice::from_ref(&setting.key),
        };
        let text = |node: &Node, key: &str| {
            context
                .effective(node, key, version)
                .map(|e| e.value().trim())
        };
        let all_agree = keys_read.iter().all(|key| {
            let first = text(in_scope[0], key);
            in_scope[1..].iter().all(|node| text(node, key) == first)
        });
        if all_agree {
            continue;
        }
        let nodes = in_scope.clone();
        // A node whose value is not known (a placeholder, settings in a file kafkalint does not
        // read) is left out: it neither agrees nor disagrees.
        let unknown = |node: &Node, keys: &[&str]| {
            context.any_placeholder(node, keys)
                || (context.settings_elsewhere(node)
                    && keys.iter().all(|key| context.line(node, key).is_none()))
        };
        let nodes: Vec<&Node> = nodes
            .into_iter()
            .filter(|node| match setting.compare {
                Retention => !unknown(node, &RETENTION_KEYS),
                _ => !unknown(node, &[setting.key]),
            })
            .collect();
        if nodes.len() < 2 {
            continue;
        }
        // The key shown for each node: the one that decides its retention, else the setting's.
        let mut keys: Vec<&'static str> = vec![setting.key; nodes.len()];
        // Normalized value (None: not set and no default) of each node.
        let values: Vec<Option<Cow<str>>> = match setting.compare {
            Retention => {
                let Some(retentions) = nodes
                    .iter()
                    .map(|node| retention_of(context, node, version))
                    .collect::<Option<Vec<_>>>()
                else {
                    continue;
                };
                for (shown, (_, key)) in keys.iter_mut().zip(&retentions) {
                    *shown = key;
                }
                retentions
                    .into_iter()
                    .map(|(millis, _)| Some(Cow::Owned(millis.to_string())))
                    .collect()
            }
            ProtocolMap => {
                // Only the names a node uses mean anything on it: an entry of the default map
                // for a listener the node does not have is no disagreement.
                let maps: Vec<_> = nodes
                    .iter()
                    .map(|node| {
                        let used = used_listener_names(context, node, version);
                        context
                            .effective(node, setting.key, version)
                            .map(|effective| {
                                let mut map = protocol_map(effective.value());
                                map.retain(|(name, _)| used.contains(name));
                                map
                            })
                    })
                    .collect();
                let conflicts = conflicting_protocols(&maps);
                if conflicts.is_empty() {
                    continue;
                }
                conflicts
                    .into_iter()
                    .map(|value| value.map(Cow::Owned))
                    .collect()
            }
            ZooKeeperConnect => {
                let ensembles: Vec<_> = nodes
                    .iter()
                    .map(|node| {
                        context
                            .effective(node, setting.key, version)
                            .map(|effective| ensemble(effective.value()))
                    })
                    .collect();
                same_ensembles(&ensembles)
            }
            _ => {
                // Kafka reads a BOOLEAN in any case (`True` is `true`).
                let boolean = crate::catalog::spec(setting.key, version)
                    .is_some_and(|spec| spec.config_type == ConfigType::Boolean);
                nodes
                    .iter()
                    .map(|node| {
                        context.effective(node, setting.key, version).map(|e| {
                            let value = normalized(setting.compare, e.value(), version);
                            if boolean {
                                Cow::Owned(value.to_ascii_lowercase())
                            } else {
                                value
                            }
                        })
                    })
                    .collect()
            }
        };
        if values.iter().all(|value| *value == values[0]) {
            continue;
        }
        // Normalized value -> the nodes holding it, with the key shown for each.
        let mut groups: BTreeMap<Option<Cow<str>>, Vec<Holder>> = BTreeMap::new();
        for ((node, value), key) in nodes.iter().zip(values).zip(keys) {
            groups.entry(value).or_default().push((node, key));
        }
        // The odd one out comes first: the smallest group, earliest file.
        let mut ordered: Vec<(Option<Cow<str>>, Vec<Holder>)> = groups.into_iter().collect();
        ordered.sort_by_key(|(_, members)| (members.len(), members[0].0.file));
        // The finding's key: the one that decides on the odd node out.
        let key = ordered[0].1[0].1;
        let mut labels = Vec::new();
        let mut summary = Vec::new();
        for (_, members) in &ordered {
            let mut shown_all = Vec::new();
            for (node, node_key) in members {
                let effective = context.effective(node, node_key, version);
                let shown = match &effective {
                    Some(effective) => quoted(node_key, effective.value()),
                    None => "not set".to_string(),
                };
                let shown_with_key = if *node_key == setting.key {
                    shown.clone()
                } else {
                    format!("{node_key}={shown}")
                };
                let (span, message) = match effective.and_then(|e| e.line()) {
                    Some(entry) => (
                        entry.value_span().clone(),
                        format!("{}: {shown_with_key}", context.node_name(node)),
                    ),
                    None => (
                        node.declared_at.clone(),
                        format!(
                            "{}: {node_key} not set, so {}",
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
                shown_all.push(shown_with_key);
            }
            // One entry per value: the node's name when it alone has it, else how many have it.
            match shown_all.as_slice() {
                [one] if one == "not set" => summary.push(format!(
                    "{} does not set it",
                    context.node_name(members[0].0)
                )),
                [one] => summary.push(format!("{} has {one}", context.node_name(members[0].0))),
                [first, ..] if first == "not set" => {
                    summary.push(format!("{} nodes do not set it", members.len()))
                }
                [first, rest @ ..] if rest.iter().all(|shown| shown == first) => {
                    summary.push(format!("{} nodes have {first}", members.len()))
                }
                _ => {
                    summary.extend(members.iter().zip(&shown_all).map(|((node, _), shown)| {
                        format!("{} has {shown}", context.node_name(node))
                    }))
                }
            }
        }
        let what = match setting.compare {
            Retention => "the log retention".to_string(),
            _ => key.to_string(),
        };
        // Who has what stays in the message while it is short (`3 nodes have `3`, 3 nodes have
        // `1``); a longer list (nodes named with their files) leads the help instead.
        let summary = summary.join(", ");
        let (in_message, in_help) = if summary.chars().count() <= 48 {
            (format!(" ({summary})"), String::new())
        } else {
            (String::new(), format!("{summary}; "))
        };
        diagnostics.push(
            RULE.finding(format!("{what} differs between nodes{in_message}: {}", setting.why))
            .with_severity(setting.severity)
            .with_key(key)
            .with_labels(labels)
            .with_help(in_help + &match setting.compare {
                Retention => format!(
                    "give every broker of {} the same retention (one of log.retention.ms, .minutes or .hours, the same key on every node)",
                    cluster.name
                ),
                ProtocolMap => format!(
                    "map each listener name to the same protocol on every broker of {}",
                    cluster.name
                ),
                _ => format!(
                    "set {key} to the same value on every node of {}",
                    cluster.name
                ),
            }),
        );
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zookeeper_connect_compares_ensembles_and_chroots() {
        let same = |values: &[&str]| {
            let ensembles: Vec<_> = values.iter().map(|v| Some(ensemble(v))).collect();
            let groups = same_ensembles(&ensembles);
            groups.iter().all(|group| *group == groups[0])
        };
        assert!(same(&["b:2181,a:2181/kafka", "a:2181, b:2181/kafka"]));
        assert!(!same(&["a:2181/kafka", "a:2181/kafka2"]));
        assert!(!same(&["a:2181/kafka", "a:2181"]));
        // The same ensemble through its secure client port, or named by one of its servers.
        assert!(same(&[
            "zk1:2181,ZK2:2181/kafka",
            "zk1:2182,zk2:2182/kafka"
        ]));
        assert!(same(&[
            "zk1:2181,zk2:2181,zk3:2181/kafka",
            "zk2:2181/kafka",
            "zk3/kafka"
        ]));
        assert!(same(&["[::1]:2181", "[::1]:2182"]));
        assert!(!same(&["zk1:2181/kafka", "zk3:2181/kafka"]));
    }

    #[test]
    fn protocol_maps_conflict_only_on_a_shared_name() {
        let maps = |values: &[&str]| {
            let maps: Vec<_> = values.iter().map(|v| Some(protocol_map(v))).collect();
            conflicting_protocols(&maps)
        };
        assert!(maps(&["INTERNAL:PLAINTEXT", "INTERNAL:PLAINTEXT,EXTERNAL:SSL"]).is_empty());
        assert!(maps(&["internal:plaintext", "INTERNAL:PLAINTEXT"]).is_empty());
        assert_eq!(
            maps(&[
                "INTERNAL:PLAINTEXT,EXTERNAL:SSL",
                "INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL"
            ]),
            [
                Some("EXTERNAL:SSL".into()),
                Some("EXTERNAL:SASL_SSL".into())
            ]
        );
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
