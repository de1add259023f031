//! `topic-min-isr`: a declared topic's `min.insync.replicas` (its own, else the cluster's) at or
//! above its replication factor. Kafka never checks the two against each other when a topic is
//! created or altered (`ReplicationControlManager.createTopics`,
//! `ControllerConfigurationValidator`, `LogConfig.validate`: apache/kafka at 3.9.0).
//!
//! Above the factor: up to 3.6 the leader compares the ISR size with the raw setting
//! (`core/src/main/scala/kafka/cluster/Partition.scala`, `appendRecordsToLeader`, at 3.6.0), so
//! every acks=all write fails with NOT_ENOUGH_REPLICAS; from 3.7 it uses
//! `min(minInSyncReplicas, replicas)` (`Partition.scala` at 3.7.0, KAFKA-15583), so writes
//! succeed but the durability asked for is silently not had. Equal to the factor (2 or more):
//! acks=all writes fail as soon as one replica's broker stops.

use super::topic_support::TopicValue;
use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::catalog::KafkaVersion;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-min-isr",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's min.insync.replicas at or above its replication factor: acks=all writes fail when a broker stops (above it: always, up to Kafka 3.6)",
    check: Check::Topics(check),
};

/// The first release that caps the minimum ISR at the replica count (KAFKA-15583).
const CAPPED_FROM: KafkaVersion = KafkaVersion::new(3, 7);

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        let (Some(factor), Some(min_isr)) = (context.factor(topic), context.min_isr(topic)) else {
            continue;
        };
        // Both from the cluster's defaults: the broker rules judge those.
        if !matches!(factor, TopicValue::Declared(..))
            && !matches!(min_isr, TopicValue::Declared(..))
        {
            continue;
        }
        let (replicas, minimum) = (factor.value(), min_isr.value());
        if replicas < 1
            || minimum < 1
            || minimum < replicas
            || (minimum == replicas && replicas < 2)
        {
            continue;
        }
        let name = context.topic_name(topic);
        let shown = format!(
            "min.insync.replicas {minimum}{} with {}{}",
            min_isr.origin_for("min.insync.replicas"),
            replicas_shown(replicas),
            factor.origin()
        );
        let finding = if minimum == replicas {
            RULE.finding(format!(
                "{name}: {shown}: acks=all writes stop (NOT_ENOUGH_REPLICAS) when one replica is \
                 down"
            ))
            .with_severity(Severity::Warning)
        } else {
            match context.version() {
                // Why, and what follows, are the help's.
                Some(version) if version < CAPPED_FROM => RULE.finding(format!(
                    "{name}: {shown}: every acks=all write fails (NOT_ENOUGH_REPLICAS)"
                )),
                known => RULE
                    .finding(format!(
                        "{name}: {shown}: Kafka{} silently caps it at {replicas}",
                        known
                            .map(|v| format!(" {v}"))
                            .unwrap_or_else(|| " 3.7 and later".into())
                    ))
                    .with_severity(Severity::Warning),
            }
        };
        // The primary label on what the topic writes: its own minimum, else its factor.
        let min_isr_labels = context.value_labels(topic, &min_isr, format!("min ISR {minimum}"));
        let factor_labels = context.value_labels(topic, &factor, replicas_shown(replicas));
        let mut labels = match min_isr {
            TopicValue::Declared(..) => [min_isr_labels, factor_labels].concat(),
            TopicValue::ClusterDefault(..) => [factor_labels, min_isr_labels].concat(),
        };
        labels.dedup_by(|a, b| a.span == b.span && a.file == b.file);
        // A capped minimum (Kafka 3.7 on) is not the durability asked for: the help says so.
        let capped = minimum > replicas && context.version().is_none_or(|v| v >= CAPPED_FROM);
        let never_met = match context.version() {
            Some(version) if minimum > replicas && version < CAPPED_FROM => {
                format!("Kafka {version} never has that many replicas in sync; ")
            }
            _ => String::new(),
        };
        let help = if replicas == 1 {
            format!(
                "raise the replication factor above {minimum} (to {}), or set the topic's \
                 min.insync.replicas to 1 if one copy is meant",
                minimum + 1
            )
        } else {
            format!(
                "keep min.insync.replicas below the replication factor: {} with {replicas} \
                 replicas, or raise the factor to {}",
                replicas - 1,
                minimum + 1
            )
        };
        let help = if capped {
            format!(
                "acks=all writes stop when one replica is down, and the durability asked for is \
                 not had; {help}"
            )
        } else {
            format!("{never_met}{help}")
        };
        diagnostics.push(finding.with_labels(labels).with_help(help));
    }
    diagnostics
}

fn replicas_shown(replicas: i64) -> String {
    format!("{replicas} replica{}", if replicas == 1 { "" } else { "s" })
}
