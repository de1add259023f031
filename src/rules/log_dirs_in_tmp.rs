//! `log-dirs-in-tmp`: log or metadata directories under `/tmp`, which is emptied on reboot.

use super::support::value_label;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::exposure::is_under_tmp;
use crate::cluster::host::{Orchestrator, Runtime};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "log-dirs-in-tmp",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "log or metadata directories under /tmp (emptied on reboot; in a container, gone with it unless a volume holds them): warning on a multi-node cluster, info on a lone node or a cluster on loopback only",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let multi_node = cluster.nodes.len() >= 2
        || cluster.declared_brokers.is_some_and(|count| count >= 2)
        || !context.broker_count_is_known(cluster);
    // Nodes that all listen on loopback only serve the machine they run on: a development
    // cluster (Kafka's quickstart, a local three-broker trial), like a lone node.
    let loopback_only = cluster
        .nodes
        .iter()
        .all(|node| context.serves_loopback_only(node, context.facts.listeners(node)));
    let production = multi_node && !loopback_only;
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        // A compose container's /tmp is its own writable layer, not the machine's: no reboot
        // sweeps it, but a re-created container starts without it, unless a volume holds it.
        let (volumes, orchestrator) = match &context.hosts.node(node).runtime {
            Runtime::Container {
                volumes,
                orchestrator,
                ..
            } => (Some(volumes), Some(*orchestrator)),
            _ => (None, None),
        };
        let mut dirs = context.locked_dirs(node, version);
        if let Some(volumes) = volumes {
            dirs.retain(|dir| !on_a_volume(&dir.path, volumes));
        }
        // Kafka's default `log.dir` counts for a whole node file, not for a fragment merged
        // into one elsewhere.
        if context.is_fragment(node) {
            dirs.retain(|dir| dir.effective.line().is_some());
        }
        let mut keys: Vec<&'static str> = dirs.iter().map(|dir| dir.key).collect();
        keys.dedup();
        for key in keys {
            let tmp: Vec<_> = dirs
                .iter()
                .filter(|dir| dir.key == key && is_under_tmp(&dir.path))
                .collect();
            let Some(first) = tmp.first() else {
                continue;
            };
            let effective = first.effective;
            let paths: Vec<String> = tmp.iter().map(|dir| format!("`{}`", dir.path)).collect();
            let paths = paths.join(", ");
            let label_text = if volumes.is_some() {
                "under /tmp, on no volume".to_string()
            } else {
                "under /tmp, emptied on reboot".to_string()
            };
            let labels: Vec<Label> = match effective.line() {
                Some(entry) => {
                    let mut labels = Vec::new();
                    let mut from = 0;
                    for dir in &tmp {
                        let Some(at) = entry.value()[from..].find(dir.path.as_str()) else {
                            continue;
                        };
                        let range = from + at..from + at + dir.path.len();
                        from = range.end;
                        labels.push(Label {
                            file: node.file,
                            span: context.value_part_span(entry, range),
                            message: label_text.clone(),
                        });
                    }
                    if labels.is_empty() {
                        labels.push(value_label(node, key, &effective, label_text));
                    }
                    labels
                }
                None => vec![value_label(node, key, &effective, label_text)],
            };
            let default = if effective.line().is_none() {
                " (Kafka's default)"
            } else {
                ""
            };
            let loss = if orchestrator == Some(Orchestrator::Compose) {
                "on no volume, lost with the container"
            } else if orchestrator == Some(Orchestrator::Kubernetes) {
                "on no volume, lost with the pod"
            } else {
                "a reboot may empty /tmp and lose the node's data"
            };
            // A note for a trial setup: the help says it is fine there.
            let (severity, trial) = if production {
                (Severity::Warning, "")
            } else {
                (Severity::Info, "fine for a trial; for lasting data, ")
            };
            let message = format!("{key}={paths}{default}: {loss}");
            let help = if volumes.is_some() {
                format!(
                    "{trial}mount a volume at the directory (e.g. `volumes: [\"kafka-data:{}\"]`), or set {key} to a directory \
                     a volume holds",
                    tmp[0].path
                )
            } else {
                format!(
                    "{trial}set {key} to a directory on a persistent disk only Kafka uses, e.g. {key}=/var/lib/kafka/data \
                     (a live node: stop it, copy the directory, restart it)"
                )
            };
            diagnostics.push(
                RULE.finding(message)
                    .about(context.node_ref(node))
                    .with_severity(severity)
                    .with_key(key)
                    .with_labels(labels)
                    .with_help(help),
            );
        }
    }
    diagnostics
}

/// Whether a volume mounted at one of `volumes` holds `path` (the volume's target is the path or
/// a folder above it).
fn on_a_volume(path: &str, volumes: &[String]) -> bool {
    let path = path.trim_end_matches('/');
    volumes.iter().any(|target| {
        path == target
            || path
                .strip_prefix(target.as_str())
                .is_some_and(|rest| rest.starts_with('/'))
    })
}
