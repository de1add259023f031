//! `node-settings-differ` (strict mode only): any setting whose effective value differs across
//! the nodes of one role in a cluster, except the settings that are per node by nature.

use std::collections::{BTreeMap, BTreeSet};

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::{Cluster, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "node-settings-differ",
    severity: Severity::Warning,
    group: Group::Strict,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "strict mode: a setting that differs across nodes of one role (node identity, addresses, directories and key stores excepted)",
    check: Check::Files(check),
};

/// Settings each node has its own value of (documented in rules/node-settings-differ.md).
const PER_NODE: &[&str] = &[
    // Identity and placement.
    "node.id",
    "broker.id",
    "broker.rack",
    // Where the node listens and what it advertises (Kafka's per-broker listener configs).
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "host.name",
    "port",
    "advertised.host.name",
    "advertised.port",
    // Its own disks.
    "log.dirs",
    "log.dir",
    "metadata.log.dir",
    // Its own key and trust stores (Kafka's SslConfigs.RECONFIGURABLE_CONFIGS, per-broker).
    "ssl.keystore.type",
    "ssl.keystore.location",
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.keystore.key",
    "ssl.keystore.certificate.chain",
    "ssl.truststore.type",
    "ssl.truststore.location",
    "ssl.truststore.password",
    "ssl.truststore.certificates",
];

/// Whether `key` is per node: listed, or a listed store setting under `listener.name.NAME.`.
fn is_per_node(key: &str) -> bool {
    if PER_NODE.contains(&key) {
        return true;
    }
    key.strip_prefix("listener.name.")
        .and_then(|rest| rest.split_once('.'))
        .is_some_and(|(_, setting)| setting.starts_with("ssl.") && PER_NODE.contains(&setting))
}

fn role(node: &Node) -> &'static str {
    match (node.roles.broker, node.roles.controller) {
        (true, true) => "combined nodes",
        (false, true) => "controllers",
        _ => "brokers",
    }
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    if !context.strict {
        return Vec::new();
    }
    let version = cluster.target.version;
    let mut by_role: BTreeMap<&str, Vec<&Node>> = BTreeMap::new();
    for node in &cluster.nodes {
        by_role.entry(role(node)).or_default().push(node);
    }
    let mut diagnostics = Vec::new();
    for (role, nodes) in by_role {
        if nodes.len() < 2 {
            continue;
        }
        let keys: BTreeSet<&str> = nodes
            .iter()
            .flat_map(|node| context.all_lines(node))
            .map(|line| line.key())
            .filter(|key| !is_per_node(key) && !super::inconsistent_cluster_value::covers(key))
            .collect();
        for key in keys {
            // Effective value (None: not set and no default) -> the nodes holding it.
            let mut groups: BTreeMap<Option<&str>, Vec<&Node>> = BTreeMap::new();
            for node in &nodes {
                let value = context
                    .effective(node, key, version)
                    .map(|effective| effective.value().trim());
                groups.entry(value).or_default().push(node);
            }
            if groups.len() < 2 {
                continue;
            }
            // The odd one out first: the smallest group, earliest file.
            let mut ordered: Vec<(Option<&str>, Vec<&Node>)> = groups.into_iter().collect();
            ordered.sort_by_key(|(_, members)| (members.len(), members[0].file));
            let mut labels = Vec::new();
            let mut summary = Vec::new();
            for (value, members) in &ordered {
                let mut shown_all = Vec::new();
                for node in members {
                    let entry = context.line(node, key);
                    let shown = match (value, entry) {
                        (Some(value), Some(_)) => quoted(key, value),
                        (Some(value), None) => format!("Kafka's default {}", quoted(key, value)),
                        (None, _) => "not set".to_string(),
                    };
                    labels.push(Label {
                        file: node.file,
                        span: entry
                            .map_or(node.declared_at.clone(), |entry| entry.value_span().clone()),
                        message: format!("{}: {shown}", context.node_name(node)),
                    });
                    shown_all.push(shown);
                }
                // One entry per value: the node's name when it alone has it, else how many have it.
                let one_shown = shown_all.iter().all(|shown| *shown == shown_all[0]);
                summary.push(match (value, members.as_slice()) {
                    (Some(_), [node]) => {
                        format!("{} has {}", context.node_name(node), shown_all[0])
                    }
                    (None, [node]) => format!("{} does not set it", context.node_name(node)),
                    (Some(_), _) if one_shown => {
                        format!("{} nodes have {}", members.len(), shown_all[0])
                    }
                    (None, _) => format!("{} nodes do not set it", members.len()),
                    (Some(_), _) => members
                        .iter()
                        .zip(&shown_all)
                        .map(|(node, shown)| format!("{} has {shown}", context.node_name(node)))
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
            diagnostics.push(
                RULE.finding(format!(
                    "{key} differs across the {role} ({}): behaviour depends on which node serves",
                    summary.join(", ")
                ))
                .with_key(key)
                .with_labels(labels)
                .with_help(format!(
                    "set {key} to the same value on all {role}, or, if per node on purpose, add \
                     `# kafkalint: ignore[node-settings-differ]` above it"
                )),
            );
        }
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::is_per_node;

    #[test]
    fn per_node_keys_include_listener_prefixed_stores_only() {
        assert!(is_per_node("broker.id"));
        assert!(is_per_node("listener.name.internal.ssl.keystore.location"));
        assert!(!is_per_node("listener.name.internal.ssl.cipher.suites"));
        assert!(!is_per_node("num.io.threads"));
    }
}
