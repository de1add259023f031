//! `live-unregistered-broker`: a broker the files declare that the running cluster does not
//! list as live (stopped, fenced, never started).

use super::live_support::id_list;
use super::support::line_label;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "live-unregistered-broker",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared broker not live in the cluster",
    check: Check::Live(check),
};

/// Metadata lists the brokers that are registered, not fenced, and have the listener the
/// client asked through (apache/kafka `KRaftMetadataCache.getAliveBrokerNodes`:
/// core/src/main/scala/kafka/server/metadata/KRaftMetadataCache.scala at tag 3.9.0,
/// metadata/src/main/java/org/apache/kafka/metadata/KRaftMetadataCache.java since; the
/// brokers' ephemeral znodes in ZooKeeper mode): every other broker of the files is one the
/// cluster runs without. Any
/// principal is sent the brokers, whatever it may describe, so a partial view does not hide
/// them.
fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(intent) = &context.intent else {
        return Vec::new();
    };
    let mut live: Vec<i32> = context.snapshot.brokers.iter().map(|b| b.id).collect();
    live.sort_unstable();
    let last_live_line = context
        .snapshot
        .brokers
        .iter()
        .max_by_key(|broker| broker.line.start)
        .map(|broker| broker.line.clone());
    let mut diagnostics = Vec::new();
    for node in intent.cluster.brokers() {
        let Some(line) = intent.context.id_line(node) else {
            continue;
        };
        let Ok(id) = line.value().trim().parse::<i32>() else {
            continue;
        };
        if context.snapshot.broker(id).is_some() {
            continue;
        }
        let mut finding = RULE
            .finding(format!(
                "is not among the live brokers of the running cluster (brokers {}): it runs \
                 with one broker fewer than its files declare",
                id_list(&live)
            ))
            .about_inline(intent.context.node_ref(node))
            .with_label(line_label(line, format!("broker {id} declared here")));
        if let Some(span) = &last_live_line {
            finding = finding.with_label(context.at(span, "the live brokers".to_string()));
        }
        diagnostics.push(finding.with_help(format!(
            "it is stopped, fenced, never started, or without the listener kafkalint asked \
             through; start broker {id} and read its log for why it did not register (a fenced broker \
             registers once it has caught up with the metadata); if it was removed on purpose, \
             take its file out of the cluster's files"
        )));
    }
    diagnostics
}
