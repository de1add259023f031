//! `live-group-coordinator`: groups (consumer, share, streams) of a running cluster whose coordinator has no
//! other in-sync replica to move to, or none at all; with `--group ID`, where that group's
//! coordinator is and what would stop it; with `--transactional-id ID`, the same for a
//! transactional producer's coordinator on `__transaction_state`.

use std::collections::BTreeMap;

use super::live_support::id_list;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "live-group-coordinator",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "groups with no coordinator, or whose coordinator partition has one in-sync replica",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    // Listed groups coordinated by one broker alone, by that broker: said once per broker.
    let mut alone: BTreeMap<i32, Vec<&crate::live::snapshot::Group>> = BTreeMap::new();
    let mut alone_partition = BTreeMap::new();
    for group in &context.snapshot.groups {
        let asked = context.groups.contains(&group.id);
        let id = group.id.escape_default().to_string();
        let Some((topic, partition)) = context.coordinator_partition(&group.id) else {
            continue;
        };
        let place = place_of(&topic.name, partition);
        let Some(coordinator) = group.coordinator else {
            // A partition with a leader has a coordinator: FindCoordinator named none for
            // another reason (this principal may not describe the group, the coordinator still
            // loading), which the view's notes say; not a group without one.
            if partition.leader.is_some() {
                continue;
            }
            diagnostics.push(
                RULE.finding(format!(
                    "{} `{id}` has no coordinator ({}): its {place} has no leader",
                    group.kind(),
                    group.state
                ))
                .with_label(context.at(&partition.line, "no leader: no coordinator".to_string()))
                .with_label(context.at(&group.line, format!("{} `{id}`", group.kind())))
                .with_help(
                    "start a broker that holds a replica of that partition; then raise __consumer_offsets' \
                     replication (see live-internal-topic-replication)",
                ),
            );
            continue;
        };
        let at_risk = partition.isr.len() <= 1 && context.live_brokers() >= 2;
        if asked {
            let (severity, outcome) = if at_risk {
                (
                    Severity::Warning,
                    format!("when broker {coordinator} stops, the group stops"),
                )
            } else {
                (
                    Severity::Info,
                    format!("when broker {coordinator} stops, another in-sync replica takes over"),
                )
            };
            diagnostics.push(
                RULE.finding(format!(
                    "{} `{id}` is coordinated by broker {coordinator}, the leader of {place}: {outcome}",
                    group.kind()
                ))
                .with_severity(severity)
                .with_label(context.at(&group.line, format!("coordinator {coordinator}")))
                .with_label(context.at(&partition.line, format!("partition {}", partition.index)))
                .with_help(if at_risk {
                    "raise __consumer_offsets' replication factor (kafkalint live --fix writes the reassignment)"
                } else {
                    "nothing to do: the coordinator partition has another in-sync replica"
                }),
            );
        } else if at_risk {
            alone.entry(coordinator).or_default().push(group);
            alone_partition.entry(coordinator).or_insert(partition);
        }
    }
    for (broker, groups) in alone {
        let mut shown: Vec<String> = groups
            .iter()
            .take(5)
            .map(|group| format!("`{}`", group.id.escape_default()))
            .collect();
        if groups.len() > 5 {
            shown.push(format!("{} more", groups.len() - 5));
        }
        let partition = alone_partition[&broker];
        diagnostics.push(
            RULE.finding(format!(
                "{} {} coordinated by broker {broker} alone ({}): {} when broker {broker} stops",
                super::live_support::groups_phrase(&groups, "group"),
                if groups.len() == 1 { "is" } else { "are" },
                super::rule::and_list(&shown),
                if groups.len() == 1 { "it stops" } else { "they stop" },
            ))
            .with_severity(Severity::Warning)
            .with_label(context.at(
                &partition.line,
                format!("in sync: {}", id_list(&partition.isr)),
            ))
            .with_help(
                "no other replica of the coordinating partition of __consumer_offsets is in sync; \
                 raise __consumer_offsets' replication factor (kafkalint live --fix writes the reassignment), \
                 and wait for its replicas to be in sync before stopping the broker",
            ),
        );
    }
    diagnostics.extend(transactional_ids(context));
    diagnostics
}

/// For each `--transactional-id`: the partition of `__transaction_state` that coordinates it
/// (`Utils.abs(transactionalId.hashCode) % partitions`, apache/kafka core/src/main/scala/kafka/
/// coordinator/transaction/TransactionStateManager.scala `partitionFor`, tag 3.9.0), the broker
/// FindCoordinator names (its leader), and whether a stop of that broker stops the producer.
fn transactional_ids(context: &LiveContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    let kind = crate::coordinator::Coordinated::TransactionalId;
    for asked in context.transactional_ids {
        let id = asked.escape_default().to_string();
        let found = context
            .snapshot
            .transactional_ids
            .iter()
            .find(|found| &found.id == asked);
        let line = found.map_or(&context.snapshot.bootstrap_line, |found| &found.line);
        let Some((topic, partition)) = context.coordinator_partition_of(kind, asked) else {
            diagnostics.push(
                RULE.finding(format!(
                    "transactional id `{id}`: the cluster has no {} yet, so no coordinator: the first \
                     transactional producer creates it",
                    kind.topic()
                ))
                .with_severity(Severity::Info)
                .with_label(context.at(line, format!("transactional id `{id}`")))
                .with_help(format!(
                    "set {} on every broker before that (see internal-topic-replication)",
                    kind.replication_key()
                )),
            );
            continue;
        };
        let place = place_of(&topic.name, partition);
        let coordinator = found
            .and_then(|found| found.coordinator)
            .or(partition.leader);
        let Some(coordinator) = coordinator else {
            diagnostics.push(
                RULE.finding(format!(
                    "transactional id `{id}` has no coordinator: its {place} has no leader: {}",
                    kind.outage()
                ))
                .with_label(context.at(&partition.line, "no leader: no coordinator".to_string()))
                .with_label(context.at(line, format!("transactional id `{id}`")))
                .with_help(
                    "start a broker that holds a replica of that partition; then raise __transaction_state's \
                     replication (see live-internal-topic-replication)",
                ),
            );
            continue;
        };
        let at_risk = partition.isr.len() <= 1 && context.live_brokers() >= 2;
        let (severity, outcome, help) = if at_risk {
            (
                Severity::Warning,
                format!("when broker {coordinator} stops, {}", kind.outage()),
                "raise __transaction_state's replication factor (kafkalint live --fix writes the reassignment)",
            )
        } else {
            (
                Severity::Info,
                format!("when broker {coordinator} stops, another in-sync replica takes over"),
                "nothing to do: the coordinator partition has another in-sync replica",
            )
        };
        diagnostics.push(
            RULE.finding(format!(
                "transactional id `{id}` is coordinated by broker {coordinator}, the leader of {place}: {outcome}"
            ))
            .with_severity(severity)
            .with_label(context.at(line, format!("coordinator {coordinator}")))
            .with_label(context.at(&partition.line, format!("partition {}", partition.index)))
            .with_help(help),
        );
    }
    diagnostics
}

/// Where a coordinator partition is, with its replicas and in-sync set, as a finding says it.
fn place_of(topic: &str, partition: &crate::live::snapshot::Partition) -> String {
    format!(
        "partition {} of {topic} (replicas {}, in sync {})",
        partition.index,
        id_list(&partition.replicas),
        id_list(&partition.isr)
    )
}
