//! `live-log-dirs`: log directories of running brokers that are offline (a failed disk, a
//! directory Kafka could not read or write): the replicas in them are offline while the broker
//! runs on.

use std::collections::BTreeMap;

use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::{LogDir, Partition};

pub const RULE: Rule = Rule {
    name: "live-log-dirs",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "offline log directories of running brokers",
    check: Check::Live(check),
};

/// Per live broker: its offline directories (DescribeLogDirs) and the partitions Metadata
/// lists with an offline replica on it. Metadata alone speaks for a broker whose directories
/// were not asked (an earlier snapshot, a refusal).
fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let snapshot = context.snapshot;
    let mut offline_replicas: BTreeMap<i32, Vec<(&str, &Partition)>> = BTreeMap::new();
    for topic in &snapshot.topics {
        for partition in &topic.partitions {
            for id in &partition.offline {
                offline_replicas
                    .entry(*id)
                    .or_default()
                    .push((&topic.name, partition));
            }
        }
    }
    let mut diagnostics = Vec::new();
    for broker in &snapshot.brokers {
        let dirs: Vec<&LogDir> = snapshot
            .log_dirs
            .iter()
            .filter(|dir| dir.broker == broker.id && dir.error.is_some())
            .collect();
        let replicas = offline_replicas.remove(&broker.id).unwrap_or_default();
        if let Some(finding) = broker_finding(context, broker.id, &dirs, &replicas) {
            diagnostics.push(finding);
        }
    }
    diagnostics
}

fn broker_finding(
    context: &LiveContext,
    broker: i32,
    dirs: &[&LogDir],
    replicas: &[(&str, &Partition)],
) -> Option<Diagnostic> {
    let lost = if replicas.is_empty() {
        String::new()
    } else {
        format!(
            ": its replicas of {} are offline",
            offline_partitions(replicas)
        )
    };
    let replica_label = replicas.first().map(|(_, partition)| {
        context.at(
            &partition.line,
            format!("replica on broker {broker} offline"),
        )
    });
    let diagnostic = if let Some(first) = dirs.first() {
        let paths: Vec<String> = dirs
            .iter()
            .map(|dir| dir.path.escape_default().to_string())
            .collect();
        RULE.finding(format!(
            "broker {broker} runs with {} offline ({}){lost}",
            if dirs.len() == 1 {
                format!("log directory {}", paths[0])
            } else {
                format!("log directories {}", paths.join(", "))
            },
            first.error.as_deref().unwrap_or_default(),
        ))
        .with_labels(dirs.iter().map(|dir| {
            context.at(
                &dir.line,
                format!("offline: {}", dir.error.as_deref().unwrap_or_default()),
            )
        }))
        .with_labels(replica_label)
    } else {
        RULE.finding(format!(
            "broker {broker} has offline replicas (a log directory it cannot use){lost}"
        ))
        .with_label(replica_label?)
    };
    Some(diagnostic.with_help(format!(
        "replace or repair the disk, then restart broker {broker} (a broker does not bring a failed log \
         directory back while it runs); its replicas there are copied back from the other replicas"
    )))
}

/// `orders-0, orders-3 and 12 more`: the partitions with an offline replica, at most five.
fn offline_partitions(replicas: &[(&str, &Partition)]) -> String {
    let shown: Vec<String> = replicas
        .iter()
        .take(5)
        .map(|(topic, partition)| format!("{}-{}", topic.escape_default(), partition.index))
        .collect();
    match replicas.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
