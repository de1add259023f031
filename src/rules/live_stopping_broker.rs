//! `live-stopping-broker` (`kafkalint live --stopping ID`): what stops when one node of a
//! running cluster is taken down, judged from the in-sync replicas of now and, in KRaft, from
//! the controller quorum's voters that the leader counts on now.

use super::live_controller_quorum::{VoterState, majority, voter_states};
use super::live_support::{partition_list, some_of};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::{Partition, QuorumView};

pub const RULE: Rule = Rule {
    name: "live-stopping-broker",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "with --stopping ID: partitions, groups and a quorum majority that stop, or acks=all writes refused, when that node stops",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(stopping) = context.stopping else {
        return Vec::new();
    };
    let mut diagnostics: Vec<Diagnostic> = quorum(context, stopping).into_iter().collect();
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
            // With as few replicas as min.insync.replicas, no replica may ever stop: waiting
            // does not help, a larger factor does.
            let too_few = unwritable
                .iter()
                .any(|partition| partition.replicas.len() <= min_isr);
            let help = if too_few {
                format!(
                    "do not stop broker {stopping} yet: raise {}'s replication factor above min.insync.replicas={min_isr} \
                     (a reassignment with kafka-reassign-partitions.sh), or lower its min.insync.replicas",
                    topic.name
                )
            } else {
                format!(
                    "do not stop broker {stopping} yet: wait until every replica of these partitions is in sync"
                )
            };
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
                .with_help(help),
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
    diagnostics.extend(stopped_transactional_ids(context, stopping));
    diagnostics
}

/// The `--transactional-id`s whose coordinator partition of `__transaction_state` has no
/// in-sync replica but `stopping`: their producers stop with it.
fn stopped_transactional_ids(context: &LiveContext, stopping: i32) -> Vec<Diagnostic> {
    let kind = crate::coordinator::Coordinated::TransactionalId;
    let stopped: Vec<(&String, &Partition)> = context
        .transactional_ids
        .iter()
        .filter_map(|id| Some((id, context.coordinator_partition_of(kind, id)?.1)))
        .filter(|(_, partition)| {
            partition.replicas.contains(&stopping) && partition.isr.iter().all(|id| *id == stopping)
        })
        .collect();
    let Some((_, first)) = stopped.first() else {
        return Vec::new();
    };
    let names: Vec<String> = stopped
        .iter()
        .map(|(id, _)| format!("`{}`", id.escape_default()))
        .collect();
    vec![
        RULE.finding(format!(
            "stopping broker {stopping} stops {} {}: {} no other in-sync replica ({})",
            if names.len() == 1 { "transactional id" } else { "transactional ids" },
            super::rule::and_list(&names),
            if names.len() == 1 {
                "its partition of __transaction_state has"
            } else {
                "their partitions of __transaction_state have"
            },
            kind.outage()
        ))
        .with_label(context.in_sync_at(first))
        .with_help(format!(
            "do not stop broker {stopping} yet: raise __transaction_state's replication factor (kafkalint live \
             --fix writes the reassignment)"
        )),
    ]
}

/// What stopping node `stopping` does to the controller quorum: a voter that the leader counts
/// on now, stopped, leaves one fewer; fewer than a majority and the quorum elects no leader
/// and commits nothing (KafkaRaftClient: a record commits on a majority of voters).
fn quorum(context: &LiveContext, stopping: i32) -> Option<Diagnostic> {
    let quorum = match &context.snapshot.quorum {
        QuorumView::Described(quorum) => quorum,
        QuorumView::Unknown { why, line } => {
            return Some(
                RULE.finding(format!(
                    "the controller quorum is not known ({why}): whether stopping node {stopping} keeps a majority \
                     of its voters is not judged"
                ))
                .with_severity(Severity::Info)
                .with_label(context.at(line, "DescribeQuorum not answered".to_string()))
                .with_help(super::live_controller_quorum::unknown_help(why)),
            );
        }
        QuorumView::ZooKeeper { line } if context.snapshot.controller == Some(stopping) => {
            // KafkaController: the broker that holds the /controller znode; another is elected
            // when its session ends, and until then no metadata changes.
            return Some(
                RULE.finding(format!(
                    "broker {stopping} is the controller: when it stops, another broker is elected controller, \
                     and metadata changes (leader elections included) wait until it has loaded the cluster's state"
                ))
                .with_severity(Severity::Info)
                .with_label(context.at(line, "ZooKeeper mode".to_string()))
                .with_help(
                    "stop the controller last in a rolling restart, so that the controller moves once",
                ),
            );
        }
        QuorumView::ZooKeeper { .. } | QuorumView::NotAsked => return None,
    };
    let voter = quorum.voter(stopping)?;
    let count = quorum.voters.len();
    let needed = majority(count);
    let states = voter_states(context, quorum);
    let counted = states.iter().filter(|(_, state)| state.counts()).count();
    let own = states
        .iter()
        .find(|(member, _)| member.id == stopping)
        .map(|(_, state)| *state)?;
    let after = counted - usize::from(own.counts());
    if quorum.leader.is_some() && after >= needed {
        return None;
    }
    let absent: Vec<String> = states
        .iter()
        .filter(|(member, state)| member.id != stopping && !state.counts())
        .map(|(member, state)| match state {
            VoterState::Lagging { .. } => format!("{} lags", member.id),
            _ => format!("{} does not fetch", member.id),
        })
        .collect();
    let why = if absent.is_empty() {
        String::new()
    } else {
        format!(" (voter {})", super::rule::and_list(&absent))
    };
    Some(
        RULE.finding(format!(
            "stopping node {stopping} leaves the controller quorum {after} of its {count} voters to count on{why}, fewer than \
             the majority of {needed}: metadata changes stop (no topic is created, no partition leader elected, \
             no broker registered) until it returns"
        ))
        .with_label(context.at(&voter.line, format!("voter {stopping}")))
        .with_label(context.at(
            &quorum.line,
            format!("{counted} of {count} voters counted now, {needed} needed"),
        ))
        .with_help(format!(
            "do not stop node {stopping} yet: bring the other voters back in sync first \
             (kafka-metadata-quorum.sh describe --replication shows each one's lag)"
        )),
    )
}
