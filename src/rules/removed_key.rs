//! `removed-key`: a key the target release no longer has. Kafka ignores it, so what it set is
//! gone after the upgrade.

use super::support::key_label;
use super::{Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, KafkaVersion};
use crate::cluster::{Cluster, Mode};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "removed-key",
    severity: Severity::Error,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key the target Kafka release removed: it is ignored, and what it did is gone",
    check,
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for (node, entry) in context.effective_lines(cluster) {
        let key = entry.key();
        if catalog::spec(key, version).is_some() {
            continue;
        }
        let Some(known) = catalog::entry(key) else {
            continue;
        };
        let Some(last) = known.releases().last().filter(|last| *last < version) else {
            continue;
        };
        let removed_in = catalog::VERSIONS
            .iter()
            .find(|release| **release > last)
            .copied()
            .unwrap_or(version);
        diagnostics.push(
            RULE.finding(format!(
                "{key} was removed in Kafka {removed_in} (last in {last}); Kafka {version} \
                 ignores it{}",
                consequence(key, removed_in)
            ))
            .about(context.node_ref(node))
            .with_key(key)
            .with_label(key_label(entry, format!("removed in Kafka {removed_in}")))
            .with_help(
                if ends_zookeeper_mode(key, removed_in) && node.mode == Mode::KRaft {
                    "the node already runs in KRaft mode: delete the zookeeper.* lines".to_string()
                } else {
                    help(key, last, removed_in, version)
                },
            ),
        );
    }
    diagnostics
}

/// Kafka 4.0 removed ZooKeeper mode with all its keys; older removals are single keys.
fn ends_zookeeper_mode(key: &str, removed_in: KafkaVersion) -> bool {
    key.starts_with("zookeeper.") && removed_in == KafkaVersion::new(4, 0)
}

fn consequence(key: &str, removed_in: KafkaVersion) -> &'static str {
    if ends_zookeeper_mode(key, removed_in) {
        ": Kafka 4 runs only in KRaft mode, without ZooKeeper"
    } else {
        ""
    }
}

fn help(key: &str, last: KafkaVersion, removed_in: KafkaVersion, version: KafkaVersion) -> String {
    if ends_zookeeper_mode(key, removed_in) {
        return format!(
            "migrate the cluster to KRaft on Kafka {last} first (process.roles, node.id, \
             controller.quorum.voters, controller.listener.names), then upgrade to {version} and \
             delete the zookeeper.* lines"
        );
    }
    // Keys Kafka's own documentation of the key points to, that the target release has.
    let replacements: Vec<&str> = catalog::spec(key, last)
        .map(|spec| spec.mentions)
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(|mention| catalog::spec(mention, version).is_some())
        .collect();
    if replacements.is_empty() {
        "delete the line (it has no effect on this release)".to_string()
    } else {
        format!(
            "delete the line; Kafka's documentation of {key} points to {}",
            replacements.join(", ")
        )
    }
}
