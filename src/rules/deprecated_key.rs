//! `deprecated-key`: a key Kafka's documentation calls deprecated in the target release; a
//! later release removes it.

use super::support::key_label;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, KafkaVersion};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "deprecated-key",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key the target Kafka release deprecates: a later release ignores it",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for (node, entry) in context.effective_lines(cluster) {
        let key = entry.key();
        if !catalog::spec(key, version).is_some_and(|spec| spec.deprecated) {
            continue;
        }
        diagnostics.push(
            RULE.finding(format!(
                "{key} is deprecated in Kafka {version}: a later release ignores it"
            ))
            .about(context.node_ref(node))
            .with_key(key)
            .with_label(key_label(entry, "deprecated".to_string()))
            .with_help(help(key, version)),
        );
    }
    diagnostics
}

/// What replaces `key`, as Kafka tells it: keys that arrived in the release that deprecated it
/// under the same three leading words (`log.message.timestamp.before.max.ms` for
/// `…difference.max.ms`), else the live keys its documentation names.
fn help(key: &str, version: KafkaVersion) -> String {
    let live = |other: &&str| catalog::spec(other, version).is_some_and(|spec| !spec.deprecated);
    let deprecated_since = catalog::VERSIONS
        .iter()
        .copied()
        .filter(|release| *release <= version)
        .find(|release| catalog::spec(key, *release).is_some_and(|spec| spec.deprecated));
    let family: String = key.split('.').take(3).collect::<Vec<_>>().join(".") + ".";
    let arrived: Vec<&str> = match deprecated_since {
        Some(since) if Some(&since) != catalog::VERSIONS.first() => catalog::KEYS
            .iter()
            .filter(|entry| entry.name != key && entry.name.starts_with(&family))
            .filter(|entry| entry.releases().next() == Some(since))
            .map(|entry| entry.name)
            .filter(live)
            .collect(),
        _ => Vec::new(),
    };
    if !arrived.is_empty() {
        return format!(
            "move to {} (added when Kafka {} deprecated {key})",
            arrived.join(" / "),
            deprecated_since.unwrap_or(version)
        );
    }
    let mentioned: Vec<&str> = catalog::spec(key, version)
        .map(|spec| spec.mentions)
        .unwrap_or_default()
        .iter()
        .copied()
        .filter(live)
        .collect();
    if mentioned.is_empty() {
        format!("plan to remove {key}; Kafka's documentation of it says what to do instead")
    } else {
        format!(
            "move to {} (what Kafka's documentation of {key} points to)",
            mentioned.join(" / ")
        )
    }
}
