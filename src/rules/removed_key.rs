//! `removed-key`: a key the target release no longer has. Kafka ignores it, so what it set is
//! gone after the upgrade.

use super::support::key_label;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::component_keys::ComponentKey;
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
    check: Check::Files(check),
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
                "{key} was removed in Kafka {removed_in} (last in {last}): Kafka {version}{} \
                 ignores it",
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
    diagnostics.extend(component_keys(cluster, context));
    diagnostics
}

/// The keys of a Connect worker's, MirrorMaker 2's or a Streams application's file that an
/// earlier release of the component had and the release checked has not (dumped from each
/// release's jars), and the settings of a removed converter (`internal.key.converter.…`).
fn component_keys(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    context
        .component_lines(cluster)
        .filter_map(|(component, entry)| {
            let ComponentKey::Removed {
                removed,
                last,
                removed_in,
            } = context.component_key(component, entry.key(), version)
            else {
                return None;
            };
            let key = entry.key();
            let what = if key == removed {
                format!("{key} was removed in Kafka {removed_in} (last in {last})")
            } else if key.ends_with(&format!(".{removed}")) {
                // MirrorMaker 2's `<alias>.` key, which its herders read as a worker key.
                format!(
                    "{key} sets the Connect worker key {removed}, removed in Kafka {removed_in} \
                     (last in {last})"
                )
            } else {
                // Its last release is the label's.
                format!("{key}, of {removed}, was removed in Kafka {removed_in}")
            };
            let who = component.kind.of_release(version);
            // The internal converters' lines change nothing: what they set (JSON) is what
            // Connect uses since. A stale line, not a broken worker.
            let severity = if removed.starts_with("internal.") {
                Severity::Warning
            } else {
                RULE.severity
            };
            Some(
                RULE.finding(format!("{what}: {who} ignores it"))
                    .with_severity(severity)
                    .about_component(context.component_ref(component))
                    .with_key(key)
                    .with_label(key_label(
                        entry,
                        format!("removed in Kafka {removed_in} (last in {last})"),
                    ))
                    .with_help(component_help(removed)),
            )
        })
        .collect()
}

/// What to do about a removed component key. The doc strings of these keys in their last
/// release do not name what replaces them, so the two removals people meet are spelt out from
/// Kafka's notes.
fn component_help(removed: &str) -> String {
    match removed {
        // KIP-208 (Kafka 1.1) deprecated them for `listeners`; Kafka 3.0 removed them, and
        // `listeners` defaults to http://:8083 since (`WorkerConfig.LISTENERS_DEFAULT`).
        "rest.host.name" | "rest.port" => "delete the line and set \
            listeners=http://<host>:<port> (without it the worker listens on http://:8083)"
            .to_string(),
        // KIP-738 (Kafka 3.0): the config, offset and status topics are always written with the
        // JSON converter, schemas disabled. From 3.0 the worker says so in a WARN for these keys
        // and their `<key>.` settings alike (`WorkerConfig.logInternalConverterRemovalWarnings`,
        // in connect-runtime 3.0.2 to 4.4.0).
        "internal.key.converter" | "internal.value.converter" => "delete the line: Connect \
            writes its internal topics as JSON without schemas, whatever it says (KIP-738)"
            .to_string(),
        _ => "delete the line (it has no effect on this release)".to_string(),
    }
}

/// Kafka 4.0 removed ZooKeeper mode with all its keys; older removals are single keys.
fn ends_zookeeper_mode(key: &str, removed_in: KafkaVersion) -> bool {
    key.starts_with("zookeeper.") && removed_in == KafkaVersion::new(4, 0)
}

fn consequence(key: &str, removed_in: KafkaVersion) -> &'static str {
    if ends_zookeeper_mode(key, removed_in) {
        ", KRaft only,"
    } else {
        ""
    }
}

fn help(key: &str, last: KafkaVersion, removed_in: KafkaVersion, version: KafkaVersion) -> String {
    if ends_zookeeper_mode(key, removed_in) {
        return format!(
            "migrate the cluster to KRaft on Kafka {last} first, then upgrade to {version} and \
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
