//! `missing-required-key`: a key Kafka has no default for is not set, so the broker refuses
//! to start.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, KafkaVersion};
use crate::cluster::{Cluster, Mode};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "missing-required-key",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "a key without a default in Kafka is not set: the broker refuses to start",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        // A fragment of settings (no mode, no id) is merged into a full file elsewhere.
        // Every node of the cluster is a whole node file: membership keeps the files of
        // settings merged into nodes elsewhere (no id, no mode, no listeners or log
        // directories of their own) apart, as overlays. A compose service with an env_file may
        // set there what its environment does not: unknown. A container whose image stops it
        // first never starts Kafka (image-start-refusal says why).
        if context.settings_elsewhere(node)
            || context
                .view(node.file, node.part)
                .is_some_and(|view| view.image_exit.is_some())
        {
            continue;
        }
        // Up to 3.9 a node without roles is a ZooKeeper broker, and `zookeeper.connect` has
        // no default then (ConfigDef has it optional: KafkaConfig requires it for that mode).
        if node.mode == Mode::Unknown
            && version <= KafkaVersion::LAST_WITH_ZOOKEEPER
            && context.line(node, "process.roles").is_none()
            && context.line(node, "zookeeper.connect").is_none()
        {
            diagnostics.push(
                RULE.finding(format!(
                    "Kafka {version} refuses to start without zookeeper.connect: with no process.roles \
                     the node is a ZooKeeper broker"
                ))
                .about(context.node_ref(node))
                .stopping_startup()
                .with_key("zookeeper.connect")
                .with_label(Label {
                    file: node.file,
                    span: node.declared_at.clone(),
                    message: "neither process.roles nor zookeeper.connect is set in this file".into(),
                })
                .with_help(
                    "set zookeeper.connect to the ZooKeeper ensemble, or set process.roles (with \
                     node.id, controller.quorum.voters and controller.listener.names) for KRaft mode"
                        .to_string(),
                ),
            );
            continue;
        }
        for &key in catalog::required_keys(version) {
            if context.line(node, key).is_some() {
                continue;
            }
            // broker.id and node.id are synonyms: Kafka copies one into the other first.
            if key == "node.id" && context.line(node, "broker.id").is_some() {
                continue;
            }
            let zookeeper = context
                .line(node, "zookeeper.connect")
                .filter(|_| node.mode == Mode::ZooKeeper);
            let (span, why) = match zookeeper {
                Some(entry) => (
                    entry.key_span(),
                    format!(
                        "this is a ZooKeeper-mode node, and Kafka {version} runs only in KRaft mode"
                    ),
                ),
                None => (
                    node.declared_at.clone(),
                    format!("{key} is not set in this file"),
                ),
            };
            diagnostics.push(
                RULE.finding(format!(
                    "Kafka {version} refuses to start without {key}, which has no default"
                ))
                .about(context.node_ref(node))
                .stopping_startup()
                .with_key(key)
                .with_label(Label {
                    file: node.file,
                    span,
                    message: why,
                })
                .with_help(help(key)),
            );
        }
    }
    diagnostics
}

fn help(key: &str) -> String {
    match key {
        "process.roles" => {
            "set process.roles to `broker`, `controller` or `broker,controller`, with \
                            node.id, controller.quorum.voters (or .bootstrap.servers) and \
                            controller.listener.names"
                .to_string()
        }
        "node.id" => "set node.id to this node's unique id in the cluster".to_string(),
        "controller.listener.names" => "set controller.listener.names to the listener(s) the \
                                        controllers are reached on, e.g. `CONTROLLER`"
            .to_string(),
        _ => format!("set {key}"),
    }
}
