//! `duplicate-node-id`: two nodes of one cluster with the same `node.id` / `broker.id`.

use std::collections::BTreeMap;

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "duplicate-node-id",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "two nodes of one cluster share a node.id or broker.id",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut by_id: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (index, node) in cluster.nodes.iter().enumerate() {
        let Some(id) = context
            .id_line(node)
            .and_then(|entry| entry.value().trim().parse::<i64>().ok())
        else {
            continue;
        };
        // broker.id=-1 asks ZooKeeper mode to generate an id.
        if id >= 0 {
            by_id.entry(id).or_default().push(index);
        }
    }
    let mut diagnostics = Vec::new();
    for (id, nodes) in by_id.into_iter().filter(|(_, nodes)| nodes.len() > 1) {
        let labels: Vec<Label> = nodes
            .iter()
            .map(|index| {
                let node = &cluster.nodes[*index];
                let entry = context.id_line(node).expect("grouped by its id");
                Label {
                    file: node.file,
                    span: entry.value_span().clone(),
                    message: format!("{}={id}", entry.key()),
                }
            })
            .collect();
        let key = context
            .id_line(&cluster.nodes[nodes[0]])
            .map(|line| line.key().to_string());
        diagnostics.push(
            RULE.finding(format!(
                "id {id} is used by {} nodes: only one can register with the cluster",
                nodes.len()
            ))
            .with_key_opt(key)
            .with_labels(labels)
            .with_help("give every broker and controller of the cluster its own node.id (broker.id in ZooKeeper mode)"),
        );
    }
    diagnostics
}
