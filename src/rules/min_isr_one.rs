//! `min-isr-one`: `min.insync.replicas=1` beside a replication factor of 3 or more: acks=all
//! then guarantees nothing beyond the leader.

use super::support::{origin_note, pair_labels};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "min-isr-one",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "min.insync.replicas=1 with a default replication factor of 3 or more on 3 or more brokers: acks=all keeps one copy",
    check: Check::Files(check),
};

const MIN_ISR: &str = "min.insync.replicas";
const FACTOR: &str = "default.replication.factor";

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let broker_count = cluster.broker_count();
    let mut diagnostics = Vec::new();
    if broker_count < 3 {
        return diagnostics;
    }
    for node in cluster.brokers() {
        let Some((factor, factor_value)) = context.int_value(node, FACTOR, version) else {
            continue;
        };
        let Some((min_isr, min_isr_value)) = context.int_value(node, MIN_ISR, version) else {
            continue;
        };
        if min_isr != 1 || factor < 3 {
            continue;
        }
        diagnostics.push(RULE.finding(format!(
                "{MIN_ISR}=1{} with {factor}-replica topics: acks=all may mean one copy",
                origin_note(&min_isr_value),
            )).about(context.node_ref(node)).with_key(MIN_ISR).with_labels(pair_labels(
                node,
                (&min_isr_value, "min ISR 1".to_string()),
                (&factor_value, format!("replication factor {factor}")),
            )).with_help(format!(
                "topics get {factor} replicas from {FACTOR}={factor}{}; set {MIN_ISR}=2 on every broker; a topic's own {MIN_ISR} overrides it (kafka-configs.sh --alter \
                 --entity-type topics)",
                origin_note(&factor_value),
            )));
    }
    diagnostics
}
