//! `live-stopping-broker` (`kafkalint live --stopping ID`): what stops when one broker of a
//! running cluster is taken down, judged from the in-sync replicas of now.

use super::live_support::{partition_list, some_of};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::Partition;

pub const RULE: Rule = Rule {
    name: "live-stopping-broker",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "with --stopping ID: partitions and groups that stop, or stop taking acks=all writes, when that broker stops",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(stopping) = context.stopping else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    for topic in &context.snapshot.topics {
        let min_isr = topic.min_insync_replicas.unwrap_or(1) as usize;
        let after = |partition: &Partition| -> usize {
            partition.isr.iter().filter(|id| **id != stopping).count()
        };
        let touched = |partition: &&Partition| partition.replicas.contains(&stopping);
        let offline: Vec<&Partition> = topic
            .partitions
            .iter()
            .filter(touched)
            .filter(|partition| after(partition) == 0)
            .collect();
        let unwritable: Vec<&Partition> = topic
            .partitions
            .iter()
            .filter(touched)
            .filter(|partition| (1..min_isr).contains(&after(partition)))
            .collect();
        if let Some(first) = offline.first() {
            let internal = match topic.name.as_str() {
                "__consumer_offsets" => ": some consumer groups stop",
                "__transaction_state" => ": some transactions stop",
                _ => ": reads and writes there stop",
            };
            diagnostics.push(
                RULE.finding(format!(
                    "stopping broker {stopping} leaves {} with no in-sync replica on {} (partition {}){internal}",
                    topic.name,
                    some_of(offline.len(), topic.partitions.len()),
                    partition_list(&offline)
                ))
                .with_label(context.in_sync_at(first))
                .with_help(format!(
                    "do not stop broker {stopping} yet: raise the topic's replication factor (a reassignment), or \
                     wait until its other replicas are in sync"
                )),
            );
        }
        if let Some(first) = unwritable.first() {
            diagnostics.push(
                RULE.finding(format!(
                    "stopping broker {stopping} leaves {} with fewer in-sync replicas than \
                     min.insync.replicas={min_isr} on {} (partition {}): acks=all writes fail",
                    topic.name,
                    some_of(unwritable.len(), topic.partitions.len()),
                    partition_list(&unwritable)
                ))
                .with_key("min.insync.replicas")
                .with_label(context.in_sync_at(first))
                .with_help(format!(
                    "do not stop broker {stopping} yet: wait until every replica of these partitions is in sync"
                )),
            );
        }
    }
    let mut stopped: Vec<String> = Vec::new();
    let mut first_line = None;
    let mut stopped_groups = Vec::new();
    for group in &context.snapshot.groups {
        let Some((_, partition)) = context.coordinator_partition(&group.id) else {
            continue;
        };
        if partition.replicas.contains(&stopping) && partition.isr.iter().all(|id| *id == stopping)
        {
            stopped.push(format!("`{}`", group.id.escape_default()));
            stopped_groups.push(group);
            first_line.get_or_insert(&group.line);
        }
    }
    if let Some(line) = first_line {
        let count = stopped.len();
        if count > 5 {
            stopped.truncate(5);
            stopped.push(format!("{} more", count - 5));
        }
        diagnostics.push(
            RULE.finding(format!(
                "stopping broker {stopping} stops {} ({}): {} no other in-sync replica",
                super::live_support::groups_phrase(&stopped_groups, "consumer group"),
                super::rule::and_list(&stopped),
                if count == 1 { "its coordinator partition has" } else { "their coordinator partitions have" },
            ))
            .with_label(context.at(line, "coordinated by it alone".to_string()))
            .with_help(format!(
                "do not stop broker {stopping} yet: raise __consumer_offsets' replication factor (kafkalint live \
                 --fix writes the reassignment)"
            )),
        );
    }
    diagnostics
}
