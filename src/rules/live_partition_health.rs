//! `live-partition-health`: partitions of a running cluster that have no leader, fewer in-sync
//! replicas than their topic's `min.insync.replicas`, or replicas out of sync.

use super::live_support::{id_list, partition_list, some_of};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::Partition;

pub const RULE: Rule = Rule {
    name: "live-partition-health",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "partitions of a running cluster that are offline, under their min ISR, or under-replicated",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in &context.snapshot.topics {
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
                    && partition.isr.len() < min_isr
                    && partition.replicas.len() >= min_isr
            })
            .collect();
        let under_replicated: Vec<&Partition> = topic
            .partitions
            .iter()
            .filter(|partition| {
                partition.leader.is_some()
                    && partition.isr.len() < partition.replicas.len()
                    && partition.isr.len() >= min_isr
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
            diagnostics.push(
                RULE.finding(format!(
                    "{}: fewer in-sync replicas than min.insync.replicas={min_isr} on {} (partition {}): \
                     acks=all writes fail",
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
    }
    diagnostics
}
