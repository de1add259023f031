//! `live-partition-health`: partitions of a running cluster that have no leader, fewer in-sync
//! replicas than their effective min ISR, or replicas out of sync; leaders away from their
//! preferred replica (info).

use super::live_support::{id_list, partition_list, some_of};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use std::collections::BTreeMap;

use crate::live::snapshot::{Partition, Topic};

pub const RULE: Rule = Rule {
    name: "live-partition-health",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "running partitions offline, under their min ISR or under-replicated; leaders off their preferred replica",
    check: Check::Live(check),
};

/// The in-sync replicas a partition needs for an `acks=all` write: the topic's
/// `min.insync.replicas` capped to its replica count, as brokers count it since 3.7 (apache/kafka
/// tag 3.7.0, core/src/main/scala/kafka/cluster/Partition.scala `effectiveMinIsr`, used by
/// `appendRecordsToLeader` and the `UnderMinIsr` metric; tag 3.6.0 compared with
/// `minInSyncReplicas` itself). `kafka-topics.sh --under-min-isr-partitions` still compares with
/// the uncapped value (tools/.../TopicCommand.java `isUnderMinIsr`, tag 3.7.0); a topic whose
/// min ISR exceeds its factor is `live-topic-replication`'s.
fn effective_min_isr(min_isr: usize, partition: &Partition) -> usize {
    min_isr.min(partition.replicas.len())
}

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in &context.snapshot.topics {
        diagnostics.extend(topic_health(context, topic));
    }
    diagnostics.extend(away_from_preferred(context));
    diagnostics
}

fn topic_health(context: &LiveContext, topic: &Topic) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let offline: Vec<&Partition> = topic
        .partitions
        .iter()
        .filter(|partition| partition.leader.is_none())
        .collect();
    let min_isr = topic.min_insync_replicas.unwrap_or(1) as usize;
    let under_min_isr: Vec<&Partition> = topic
        .partitions
        .iter()
        .filter(|partition| {
            partition.leader.is_some()
                && partition.isr.len() < effective_min_isr(min_isr, partition)
        })
        .collect();
    let under_replicated: Vec<&Partition> = topic
        .partitions
        .iter()
        .filter(|partition| {
            partition.leader.is_some()
                && partition.isr.len() < partition.replicas.len()
                && partition.isr.len() >= effective_min_isr(min_isr, partition)
        })
        .collect();
    if let Some(first) = offline.first() {
        diagnostics.push(
            RULE.finding(format!(
                "{}: no leader for {} (partition {}): reads and writes there fail",
                topic.name,
                some_of(offline.len(), topic.partitions.len()),
                partition_list(&offline)
            ))
            .with_label(context.at(
                &first.line,
                format!("no leader; replicas {}", id_list(&first.replicas)),
            ))
            .with_help(
                "start the brokers that hold its replicas (kafka-leader-election.sh --election-type unclean \
                 brings it back only by losing records)",
            ),
        );
    }
    if let Some(first) = under_min_isr.first() {
        let needed = effective_min_isr(min_isr, first);
        let threshold = if needed < min_isr {
            format!(
                "its effective min ISR {needed} (min.insync.replicas={min_isr} capped to its replicas)"
            )
        } else {
            format!("min.insync.replicas={min_isr}")
        };
        diagnostics.push(
            RULE.finding(format!(
                "{}: fewer in-sync replicas than {threshold} on {} (partition {}): acks=all writes fail",
                topic.name,
                some_of(under_min_isr.len(), topic.partitions.len()),
                partition_list(&under_min_isr)
            ))
            .with_key("min.insync.replicas")
            .with_label(context.in_sync_at(first))
            .with_help(
                "bring the out-of-sync replicas' brokers back (or see why they lag: disk, network, \
                 replica.lag.time.max.ms)",
            ),
        );
    }
    if let Some(first) = under_replicated.first() {
        diagnostics.push(
            RULE.finding(format!(
                "{}: replicas out of sync on {} (partition {}): one more broker stop may take them offline",
                topic.name,
                some_of(under_replicated.len(), topic.partitions.len()),
                partition_list(&under_replicated)
            ))
            .with_severity(Severity::Warning)
            .with_label(context.in_sync_at(first))
            .with_help(
                "wait for the replicas to catch up before stopping another broker; if they do not, see why \
                 (broker down, disk, network)",
            ),
        );
    }
    diagnostics
}

/// Kafka's default `leader.imbalance.per.broker.percentage`.
const IMBALANCE_PERCENT: u64 = 10;

/// Brokers that lead too few of the partitions they are the preferred replica of (the first of
/// the replicas): more than `leader.imbalance.per.broker.percentage` of those led elsewhere, the
/// ratio Kafka's controller computes per broker before it runs a preferred election (apache/kafka
/// tag 3.7.0, core/src/main/scala/kafka/controller/KafkaController.scala
/// `checkAndTriggerAutoLeaderRebalance`). Below it, Kafka leaves leadership where it is, and so
/// does this rule: a restart moves a few leaders every time. One finding for the cluster.
fn away_from_preferred(context: &LiveContext) -> Option<Diagnostic> {
    let snapshot = context.snapshot;
    let percent = snapshot
        .brokers
        .iter()
        .find_map(|broker| snapshot.effective(broker.id, "leader.imbalance.per.broker.percentage"))
        .and_then(|entry| entry.value.trim().parse().ok())
        .unwrap_or(IMBALANCE_PERCENT);
    // Per preferred broker: (partitions it should lead, those led elsewhere, the first such).
    let mut per_broker: BTreeMap<i32, (u64, u64, Option<&Partition>)> = BTreeMap::new();
    for partition in snapshot.topics.iter().flat_map(|topic| &topic.partitions) {
        let Some(preferred) = partition.replicas.first() else {
            continue;
        };
        let counts = per_broker.entry(*preferred).or_default();
        counts.0 += 1;
        if partition.leader != Some(*preferred) {
            counts.1 += 1;
            counts.2.get_or_insert(partition);
        }
    }
    let imbalanced: Vec<(i32, u64, u64, &Partition)> = per_broker
        .into_iter()
        .filter(|(_, (total, away, _))| away * 100 > total * percent)
        .filter_map(|(broker, (total, away, first))| Some((broker, total, away, first?)))
        .collect();
    let (_, _, _, first) = imbalanced.first()?;
    let mut shown: Vec<String> = imbalanced
        .iter()
        .take(5)
        .map(|(broker, total, away, _)| format!("broker {broker}: {away} of {total}"))
        .collect();
    if imbalanced.len() > 5 {
        shown.push(format!("{} more brokers", imbalanced.len() - 5));
    }
    Some(
        RULE.finding(format!(
            "leaders away from their preferred replica ({}), above \
             leader.imbalance.per.broker.percentage={percent}: the leaders' load is uneven",
            shown.join(", ")
        ))
        .with_severity(Severity::Info)
        .with_label(context.at(
            &first.line,
            format!(
                "leader {}, preferred {}",
                first.leader.map_or("none".to_string(), |id| id.to_string()),
                first.replicas[0]
            ),
        ))
        .with_help(
            "kafka-leader-election.sh --bootstrap-server HOST:PORT --election-type preferred \
             --all-topic-partitions (with auto.leader.rebalance.enable=true the controller does it within \
             leader.imbalance.check.interval.seconds)",
        ),
    )
}
