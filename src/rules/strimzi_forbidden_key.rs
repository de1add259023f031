//! `strimzi-forbidden-key`: a key in a Strimzi `Kafka` resource's `spec.kafka.config` that the
//! operator manages itself. Strimzi drops it before it writes the brokers' configuration
//! (`AbstractConfiguration.filterForbidden`: "Configuration option ... is forbidden and will be
//! ignored", a warning in the operator's log only), so the setting never reaches Kafka.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "strimzi-forbidden-key",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key Strimzi manages itself in spec.kafka.config: the operator drops it and Kafka never sees it",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    // The nodes of one resource share its YAML: one finding per key as written.
    let mut seen = std::collections::BTreeSet::new();
    for node in &cluster.nodes {
        let Some(view) = context.view(node.file, node.part) else {
            continue;
        };
        for forbidden in &view.forbidden {
            if !seen.insert((node.file, forbidden.key_span.start, forbidden.key_span.end)) {
                continue;
            }
            let key = &forbidden.key;
            diagnostics.push(RULE.finding(format!(
                    "{}: {key} falls under `{}`, which Strimzi sets itself: the operator drops it, and the \
                     brokers run without it",
                    view.label, forbidden.prefix
                )).with_key(key.clone()).with_label(Label {
                    file: node.file,
                    span: forbidden.key_span.clone(),
                    message: "ignored by Strimzi".to_string(),
                }).with_help("delete the key; set what it means through the Kafka resource's own fields \
                       (spec.kafka.listeners, authentication, authorization, storage, rack)"
                    .to_string()));
        }
    }
    diagnostics
}
