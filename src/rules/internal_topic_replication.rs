//! `internal-topic-replication`: the replication factor of `__consumer_offsets`,
//! `__transaction_state` and `__share_group_state` against the broker count.

use super::support::{
    INTERNAL_TOPICS, brokers, existing_topic_help, origin_note, value_label, wanted_replication,
};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Fix, Severity};

pub const RULE: Rule = Rule {
    name: "internal-topic-replication",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::Unsafe,
    verified: Verified::CATALOGUE,
    summary: "internal topics replicated on one broker, fewer than 3, or more than the cluster has",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let broker_count = cluster.broker_count();
    let mut diagnostics = Vec::new();
    if broker_count == 0 {
        return diagnostics;
    }
    let wanted = wanted_replication(broker_count);
    for topic in INTERNAL_TOPICS
        .iter()
        .filter(|topic| topic.applies(context, &cluster.nodes))
    {
        let key = topic.replication_key;
        // The broker that first serves a request for the topic creates it with its own value,
        // so every broker's value matters.
        for node in cluster.brokers() {
            let Some((factor, effective)) = context.int_value(node, key, cluster.target.version)
            else {
                continue;
            };
            if factor < 1 {
                continue; // Kafka refuses to start; reported as an invalid value.
            }
            let name = context.node_ref(node);
            let origin = origin_note(&effective);
            let (severity, message, label, help) = if factor > broker_count as i64 {
                if !context.broker_count_is_known(cluster) {
                    continue;
                }
                (
                    Severity::Error,
                    format!(
                        "{key}={factor}{origin} on {}: {} never work",
                        brokers(broker_count),
                        topic.users
                    ),
                    format!(
                        "{factor} replicas, {} in the cluster",
                        brokers(broker_count)
                    ),
                    if broker_count == 1 {
                        format!(
                            "on a single-broker development cluster set {key}=1; in production run 3 brokers \
                             (one of several brokers kept elsewhere: pass --brokers N)"
                        )
                    } else {
                        format!(
                            "set {key}={wanted} on every broker, or run at least {factor} brokers"
                        )
                    },
                )
            } else if factor == 1 && broker_count >= 2 {
                (
                    Severity::Error,
                    // "one broker down" says there are others; the count is the help's.
                    format!("{key}=1{origin}: one broker down, {}", topic.partition_lost),
                    "1 replica".to_string(),
                    format!(
                        "set {key}={wanted} on every broker (the cluster has {}); {}",
                        brokers(broker_count),
                        existing_topic_help(topic.topic, factor)
                    ),
                )
            } else if factor < wanted {
                (
                    Severity::Warning,
                    format!(
                        "{key}={factor}{origin}: {} survives only {} broker failure{}",
                        topic.topic,
                        factor - 1,
                        if factor == 2 { "" } else { "s" }
                    ),
                    format!("{factor} replicas"),
                    format!(
                        "set {key}={wanted} on every broker; {}",
                        existing_topic_help(topic.topic, factor)
                    ),
                )
            } else {
                continue;
            };
            // Set in the file: the value is replaced in place; left to Kafka's default there is
            // no line to edit, and adding one is a choice (where, with which comment) left to people.
            let fix = context
                .replication_fix(cluster, node, topic)
                // Unsafe: see the rule's doc, "Fix safety".
                .map(|(factor, edit)| Fix::unsafe_edits(format!("set {key}={factor}"), vec![edit]));
            diagnostics.push(
                RULE.finding(message)
                    .about(name)
                    .with_severity(severity)
                    .with_key(key)
                    .with_label(value_label(node, key, &effective, label))
                    .with_help(help)
                    .with_fix(fix),
            );
        }
    }
    diagnostics
}
