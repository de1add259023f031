//! `auto-create-single-replica`: topic auto-creation on, with one replica per auto-created
//! topic, on a cluster of several brokers.

use super::support::{brokers, origin_note, pair_labels};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::value::Parsed;
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "auto-create-single-replica",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "auto.create.topics.enable=true with default.replication.factor=1 on several brokers: a mistyped topic name creates a single-replica topic",
    check: Check::Files(check),
};

const AUTO_CREATE: &str = "auto.create.topics.enable";
const FACTOR: &str = "default.replication.factor";

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let broker_count = cluster.broker_count();
    let mut diagnostics = Vec::new();
    if broker_count < 2 {
        return diagnostics;
    }
    // One finding for the cluster: the setting is cluster-wide in effect (whichever broker
    // receives the request creates the topic), and one warning per broker would only repeat it.
    let mut qualifying = Vec::new();
    for node in cluster.brokers() {
        let Some((Parsed::Boolean(true), auto_create)) =
            context.parsed_value(node, AUTO_CREATE, version)
        else {
            continue;
        };
        let Some((factor, factor_value)) = context.parsed_value(node, FACTOR, version) else {
            continue;
        };
        if factor.as_integer() == Some(1) {
            qualifying.push((node, auto_create, factor_value));
        }
    }
    let Some((node, auto_create, factor_value)) = qualifying.first() else {
        return diagnostics;
    };
    // Topic auto-creation is on unless a file turns it on itself: "auto-created topics" says
    // it, and the label on the key shows it.
    let factor_origin = origin_note(factor_value);
    // Auto-creation turned on by a file is the help's to say, to keep the message short.
    let shown = format!("{FACTOR}=1{factor_origin}");
    let auto_set = match origin_note(auto_create) {
        " (Kafka's default)" => String::new(),
        auto_origin => format!("{AUTO_CREATE}=true{auto_origin} is set; "),
    };
    // On every broker: the help gives the count; on some, the message says how many.
    let on = if qualifying.len() == broker_count {
        String::new()
    } else {
        format!(" on {} of {}", qualifying.len(), brokers(broker_count))
    };
    // Every file that must change carries a label.
    let labels: Vec<_> = qualifying
        .iter()
        .flat_map(|(node, auto_create, factor_value)| {
            pair_labels(
                node,
                (
                    factor_value,
                    "1 replica for every auto-created topic".to_string(),
                ),
                (auto_create, "topics are created on first use".to_string()),
            )
        })
        .collect();
    diagnostics.push(
        RULE.finding(format!(
            "{shown}{on}: auto-created topics get 1 replica"
        ))
        .about(context.node_ref(node))
        .with_key(FACTOR)
        .with_labels(labels)
        .with_help(format!(
            "{auto_set}set {FACTOR}={} on each of the {} (and KRaft controllers), or {AUTO_CREATE}=false; existing \
             topics keep 1 replica until reassigned with kafka-reassign-partitions.sh",
            broker_count.min(3),
            brokers(broker_count)
        )),
    );
    diagnostics
}
