//! `default-replication-above-brokers`: a `default.replication.factor` above the number of
//! brokers, so that every topic created without a factor of its own fails to be created.

use super::support::{brokers, value_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::{Cluster, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "default-replication-above-brokers",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "default.replication.factor above the broker count: topics created without a factor, and auto-created ones, fail with INVALID_REPLICATION_FACTOR",
    check: Check::Files(check),
};

const FACTOR: &str = "default.replication.factor";

/// Whose `default.replication.factor` Kafka applies (apache/kafka at 3.9.0): a broker's, to the
/// topics it auto-creates (`AutoTopicCreationManager` sets it as the topic's factor) and, in
/// ZooKeeper mode, to `CreateTopics` without a factor (`ZkAdminManager`); in KRaft the
/// controller's, to `CreateTopics` without a factor (`ControllerServer` hands it to
/// `ReplicationControlManager`).
fn applies_it(node: &Node) -> bool {
    node.roles.broker || node.roles.controller
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let broker_count = cluster.broker_count();
    let mut diagnostics = Vec::new();
    if broker_count == 0 || !context.broker_count_is_known(cluster) {
        return diagnostics;
    }
    // One finding for the cluster: whichever node handles the request applies its own value.
    let above: Vec<_> = cluster
        .nodes
        .iter()
        .filter(|node| applies_it(node))
        .filter_map(|node| {
            let (factor, value) = context.int_value(node, FACTOR, version)?;
            (factor > broker_count as i64).then_some((node, factor, value))
        })
        .collect();
    let Some((first, factor, _)) = above.first() else {
        return diagnostics;
    };
    let labels: Vec<Label> = above
        .iter()
        .map(|(node, factor, value)| {
            value_label(
                node,
                FACTOR,
                value,
                format!(
                    "{factor} replicas, {} in the cluster",
                    brokers(broker_count)
                ),
            )
        })
        .collect();
    diagnostics.push(
        RULE.finding(format!(
            "{FACTOR}={factor} on {}: topics created without a factor of their own cannot be created",
            brokers(broker_count)
        ))
        .about(context.node_ref(first))
        .with_key(FACTOR)
        .with_labels(labels)
        .with_help(format!(
            "set {FACTOR}={} on every node, or run at least {factor} brokers",
            broker_count.min(3)
        )),
    );
    diagnostics
}
