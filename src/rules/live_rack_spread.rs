//! `live-rack-spread`: partitions of a running cluster whose replicas all sit in one rack
//! (`broker.rack`) while the live brokers span several: one rack's outage (a zone, a power
//! feed, a switch) takes them offline.

use std::collections::{BTreeSet, HashMap};

use super::live_support::{id_list, name_list};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::Partition;

pub const RULE: Rule = Rule {
    name: "live-rack-spread",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "running partitions with every replica in one rack",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let snapshot = context.snapshot;
    let racks: BTreeSet<&str> = snapshot
        .brokers
        .iter()
        .filter_map(|broker| broker.rack.as_deref())
        .collect();
    if racks.len() < 2 {
        return Vec::new();
    }
    let rack_of: HashMap<i32, &str> = snapshot
        .brokers
        .iter()
        .filter_map(|broker| Some((broker.id, broker.rack.as_deref()?)))
        .collect();
    let mut count = 0;
    let mut topics: Vec<&str> = Vec::new();
    let mut first: Option<(&Partition, &str)> = None;
    for topic in &snapshot.topics {
        let before = count;
        for partition in &topic.partitions {
            if let Some(rack) = one_rack(&rack_of, partition) {
                count += 1;
                first.get_or_insert((partition, rack));
            }
        }
        if count > before {
            topics.push(&topic.name);
        }
    }
    let Some((partition, rack)) = first else {
        return Vec::new();
    };
    vec![
        RULE.finding(format!(
            "{count} partition{} of {} {} every replica in one rack ({}), though the live brokers span {} racks: \
             that rack's outage takes {} offline",
            if count == 1 { "" } else { "s" },
            if topics.len() == 1 { "1 topic".to_string() } else { format!("{} topics", topics.len()) },
            if count == 1 { "has" } else { "have" },
            name_list(&topics, 5),
            racks.len(),
            if count == 1 { "it" } else { "them" },
        ))
        .with_label(context.at(
            &partition.line,
            format!(
                "replicas {} all in rack {}",
                id_list(&partition.replicas),
                rack.escape_default()
            ),
        ))
        .with_help(
            "spread their replicas over racks: kafka-reassign-partitions.sh --bootstrap-server HOST:PORT \
             --topics-to-move-json-file TOPICS.json --broker-list IDS --generate proposes a rack-aware \
             assignment (one replica per rack first); apply it with --reassignment-json-file PLAN --execute",
        ),
    ]
}

/// The rack all of a partition's replicas (two or more) sit in, when every replica's broker
/// is live and has a rack, and they share one.
fn one_rack<'a>(rack_of: &HashMap<i32, &'a str>, partition: &Partition) -> Option<&'a str> {
    if partition.replicas.len() < 2 {
        return None;
    }
    let mut racks = partition.replicas.iter().map(|id| rack_of.get(id).copied());
    let first = racks.next()??;
    racks.all(|rack| rack == Some(first)).then_some(first)
}
