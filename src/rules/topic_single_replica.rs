//! `topic-single-replica`: a declared topic with fewer replicas than the cluster can give it
//! (one replica on a cluster of several brokers, or fewer than three where there are three):
//! when the broker holding a partition's only replica stops, the partition is offline.

use super::support::{brokers, wanted_replication};
use super::topic_support::TopicValue;
use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::diagnostic::{Diagnostic, Fix, Severity};

pub const RULE: Rule = Rule {
    name: "topic-single-replica",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::Unsafe,
    verified: Verified::CATALOGUE,
    summary: "a declared topic with fewer replicas than min(3, brokers): a partition goes offline, or acks=all stops, when one broker stops",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let Some(broker_count) = context.broker_count() else {
        return Vec::new();
    };
    let wanted = wanted_replication(broker_count);
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        // A factor left to the cluster's default is the broker rules' (`auto-create-single-replica`).
        let Some(value @ TopicValue::Declared(factor, written)) = context.factor(topic) else {
            continue;
        };
        if broker_count < 2 || factor < 1 || factor >= wanted {
            continue;
        }
        let consequence = if factor == 1 {
            "a broker down takes its partitions offline".to_string()
        } else {
            "with a broker down for maintenance, one more failure takes partitions offline"
                .to_string()
        };
        // What offline means, kept from the message for its length.
        let offline = if factor == 1 {
            "an offline partition fails every read and write until its broker returns, and a \
             lost disk loses its data; "
        } else {
            ""
        };
        // Unsafe: see the rule's doc, "Fix safety".
        let fix = context.set_number(topic, written, wanted).map(|edit| {
            Fix::unsafe_edits(
                format!("set the replication factor to {wanted}"),
                vec![edit],
            )
        });
        diagnostics.push(
            RULE.finding(format!(
                "{} has {factor} replica{} on {}: {consequence}",
                context.topic_name(topic),
                if factor == 1 { "" } else { "s" },
                brokers(broker_count)
            ))
            .with_labels(context.value_labels(
                topic,
                &value,
                format!("{factor} of {} brokers", broker_count),
            ))
            .with_help(format!(
                "{offline}set the replication factor to {wanted}; a topic that exists already keeps its \
                 replicas until they are reassigned (kafka-reassign-partitions.sh, or \
                 `kafkalint live --fix` for the plan)"
            ))
            .with_fix(fix),
        );
    }
    diagnostics
}
