//! `unclean-leader-election`: `unclean.leader.election.enable=true`, which trades acknowledged
//! records for availability.

use super::support::line_label;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::value::Parsed;
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "unclean-leader-election",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "unclean.leader.election.enable=true: an out-of-sync replica may become leader and drop acknowledged records",
    check: Check::Files(check),
};

const KEY: &str = "unclean.leader.election.enable";

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        let Some((Parsed::Boolean(true), effective)) =
            context.parsed_value(node, KEY, cluster.target.version)
        else {
            continue;
        };
        // Kafka's default is false: only a line of the file turns it on.
        let Some(entry) = effective.line() else {
            continue;
        };
        diagnostics.push(RULE.finding(format!(
                "{KEY}=true: a leader may be elected out of sync, losing acknowledged writes"
            )).about(context.node_ref(node)).with_key(KEY).with_label(line_label(entry,
                "unclean election on".to_string(),
            )).with_help(format!(
                "remove the line (Kafka's default is {KEY}=false); for a partition whose in-sync replicas are all lost, run \
                 kafka-leader-election.sh --election-type unclean --topic T --partition P once"
            )));
    }
    diagnostics
}
