//! `topic-replication-above-brokers`: a declared topic asks for more replicas than the cluster
//! has brokers, so Kafka refuses to create it.
//!
//! KRaft: `StripedReplicaPlacer.place` refuses "The target replication factor of N cannot be
//! reached because only M broker(s) are registered." (apache/kafka
//! `metadata/src/main/java/org/apache/kafka/metadata/placement/StripedReplicaPlacer.java` at
//! 3.9.0); ZooKeeper mode: `AdminUtils.assignReplicasToBrokers` refuses "Replication factor: N
//! larger than available brokers: M." (`core/src/main/scala/kafka/admin/AdminUtils.scala` at
//! 3.4.0). Both answer CreateTopics with INVALID_REPLICATION_FACTOR.

use super::support::brokers;
use super::topic_support::TopicValue;
use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-replication-above-brokers",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's replication factor above the cluster's broker count: Kafka refuses to create it (INVALID_REPLICATION_FACTOR)",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let Some(broker_count) = context.broker_count() else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        // A factor left to the cluster's default is `default-replication-above-brokers`'s.
        let Some(TopicValue::Declared(factor, _)) = context.factor(topic) else {
            continue;
        };
        if factor <= broker_count as i64 {
            continue;
        }
        let value = context.factor(topic).expect("just read");
        diagnostics.push(
            RULE.finding(format!(
                "{} asks for {factor} replicas on {}: Kafka refuses to create it \
                 (INVALID_REPLICATION_FACTOR), and whatever needs the topic fails",
                context.topic_name(topic),
                brokers(broker_count)
            ))
            .with_labels(context.value_labels(
                topic,
                &value,
                format!(
                    "{factor} replicas, {} in the cluster",
                    brokers(broker_count)
                ),
            ))
            .with_help(format!(
                "set the replication factor to {} or less (the broker count), or add brokers \
                 before the topic is created",
                broker_count
            )),
        );
    }
    diagnostics
}
