//! `mixed-mode-settings`: a KRaft node carrying ZooKeeper settings, or a ZooKeeper-mode broker
//! carrying the KRaft quorum, outside a ZooKeeper-to-KRaft migration. Kafka 3.x starts either
//! way and ignores the other mode's settings; Kafka 4.x has no ZooKeeper mode, and its
//! `zookeeper.*` keys are removed-key's. An image of a Kafka release before 2.8 has no KRaft at
//! all: `process.roles` written for it is ignored, and the node runs in ZooKeeper mode.

use super::support::{key_label, line_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::topology::{BOOTSTRAP, VOTERS};
use crate::cluster::{Cluster, Mode};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "mixed-mode-settings",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::Releases(KafkaVersion::new(2, 8), KafkaVersion::LAST_WITH_ZOOKEEPER),
    summary: "ZooKeeper settings on a KRaft node, or the KRaft quorum on a ZooKeeper-mode broker, outside a migration",
    check: Check::Files(check),
};

const MIGRATION: &str = "zookeeper.metadata.migration.enable";

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    if version > KafkaVersion::LAST_WITH_ZOOKEEPER {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    // Kafka before 2.8 has no `process.roles` (`KafkaConfig` gained it with `KafkaRaftServer`
    // in 2.8.0): an image of such a release ignores it, and the node is a ZooKeeper broker.
    let mut before_kraft = Vec::new();
    for node in &cluster.nodes {
        let Some(view) = context.view(node.file, node.part) else {
            continue;
        };
        let (Some(tag), Some((key, span))) = (&view.image_tag, view.ignored_by_release.first())
        else {
            continue;
        };
        before_kraft.push((node.file, node.part));
        let mut labels = vec![Label {
            file: node.file,
            span: span.clone(),
            message: format!("ignored by Kafka {}", tag.release),
        }];
        labels.extend(
            [VOTERS, BOOTSTRAP]
                .into_iter()
                .filter_map(|key| context.line(node, key))
                .filter(|line| !line.value().trim().is_empty())
                .map(|line| key_label(line, "ignored in ZooKeeper mode".into())),
        );
        let zookeeper =
            if context.line(node, "zookeeper.connect").is_some() || view.settings_elsewhere {
                ""
            } else {
                ", and without zookeeper.connect it does not start"
            };
        diagnostics.push(
            RULE.finding(format!(
                "{key} is ignored: {} runs Kafka {}, which has no KRaft (it came in 2.8), so the node runs in ZooKeeper mode{zookeeper}",
                tag.reference, tag.release
            ))
            .about(context.node_ref(node))
            .with_key(key.clone())
            .with_labels(labels)
            .with_help(format!(
                "for KRaft use an image of Kafka 2.8 or later (3.3 or later for production, KIP-833); to keep {}, delete the KRaft settings and set zookeeper.connect",
                tag.reference
            )),
        );
    }
    for node in context.quorum_nodes(cluster) {
        if before_kraft.contains(&(node.node.file, node.node.part)) {
            continue;
        }
        // A migration beside it (ZooKeeper brokers and KRaft controllers are separate clusters
        // of one folder): zookeeper-migration-consistency judges who lacks the flag.
        if context.folders.migration_in_folder(node.node.file) {
            continue;
        }
        let name = context.node_ref(node.node);
        if node.is_kraft() {
            let keys: Vec<_> = context
                .lines(node.node)
                .filter(|line| line.key().starts_with("zookeeper.") && line.key() != MIGRATION)
                .collect();
            let Some(first) = keys.first() else {
                continue;
            };
            let roles = context
                .line(node.node, "process.roles")
                .map(|line| line.value().trim().to_owned());
            let mut labels: Vec<Label> = keys
                .iter()
                .map(|line| key_label(*line, "ignored in KRaft mode".into()))
                .collect();
            if let Some(entry) = context.line(node.node, "process.roles") {
                labels.push(line_label(entry, "KRaft mode".into()));
            }
            let listed: Vec<&str> = keys.iter().map(|line| line.key()).collect();
            diagnostics.push(
                RULE.finding(format!(
                    "process.roles={} makes it a KRaft node, which ignores {}: ZooKeeper's topics and ACLs are \
                     not this cluster's",
                    roles.unwrap_or_default(),
                    listed.join(", ")
                ))
                .about(name)
                .with_key(first.key())
                .with_labels(labels)
                .with_help(format!(
                    "delete the zookeeper.* lines from KRaft nodes; to migrate a ZooKeeper cluster, set \
                     {MIGRATION}=true with zookeeper.connect on the KRaft controllers instead"
                )),
            );
        } else if node.node.mode == Mode::ZooKeeper {
            let keys: Vec<_> = [VOTERS, BOOTSTRAP]
                .into_iter()
                .filter_map(|key| context.line(node.node, key))
                .filter(|line| !line.value().trim().is_empty())
                .collect();
            let Some(first) = keys.first() else {
                continue;
            };
            let mut labels: Vec<Label> = keys
                .iter()
                .map(|line| key_label(*line, "ignored in ZooKeeper mode".into()))
                .collect();
            if let Some(entry) = context.line(node.node, "zookeeper.connect") {
                labels.push(line_label(entry, "ZooKeeper mode".into()));
            }
            let listed: Vec<&str> = keys.iter().map(|line| line.key()).collect();
            diagnostics.push(
                RULE.finding(format!(
                    "without process.roles Kafka {version} runs it in ZooKeeper mode, which ignores {}: it \
                     never joins the KRaft quorum",
                    listed.join(", ")
                ))
                .about(name)
                .with_key(first.key())
                .with_labels(labels)
                .with_help(format!(
                    "for KRaft set process.roles=broker and node.id, and delete zookeeper.connect; to migrate, set \
                     {MIGRATION}=true with controller.listener.names; otherwise delete {}",
                    listed.join(" and ")
                )),
            );
        }
    }
    diagnostics
}
