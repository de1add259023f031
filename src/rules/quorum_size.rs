//! `quorum-size`: a KRaft quorum of one voter (no controller may fail) or of an even number of
//! voters (it tolerates no more failures than one voter fewer).

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::topology::{QuorumNode, VOTERS, VoterSet};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "quorum-size",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a KRaft quorum of one voter, or of an even number of voters",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let nodes = context.quorum_nodes(cluster);
    // One finding per quorum the files name (different lists are inconsistent-cluster-value's).
    let mut quorums: Vec<(VoterSet, Vec<&QuorumNode>)> = Vec::new();
    for node in &nodes {
        // A ZooKeeper-mode broker ignores the voters unless it migrates.
        if !node.is_kraft() && !context.migrating(node.node) {
            continue;
        }
        let Some(set) = node.voter_set() else {
            continue;
        };
        match quorums.iter_mut().find(|(known, _)| *known == set) {
            Some((_, holders)) => holders.push(node),
            None => quorums.push((set, vec![node])),
        }
    }
    let mut diagnostics = Vec::new();
    for (set, holders) in quorums {
        let size = set.len();
        if size != 1 && size % 2 != 0 {
            continue;
        }
        // One combined node that is its own quorum: the ordinary development setup.
        let lone_dev_node = size == 1
            && nodes.len() == 1
            && holders[0]
                .roles
                .as_ref()
                .is_some_and(|roles| roles.combined())
            && holders[0].id.is_some_and(|id| set.0.contains_key(&id));
        if lone_dev_node {
            continue;
        }
        let one_machine = set.all_loopback();
        let severity = if one_machine {
            Severity::Info
        } else {
            Severity::Warning
        };
        let labels: Vec<Label> = holders
            .iter()
            .filter_map(|holder| {
                let (setting, _) = holder.voters.as_ref()?;
                Some(context.setting_label(
                    holder.node,
                    VOTERS,
                    setting,
                    None,
                    format!("{size} voter{}", if size == 1 { "" } else { "s" }),
                ))
            })
            .collect();
        let ids: Vec<String> = set.0.keys().map(i32::to_string).collect();
        let machine = if one_machine {
            " (all on this machine: development only)"
        } else {
            ""
        };
        let (message, help) = if size == 1 {
            (
                format!(
                    "a KRaft quorum of the single voter {}{machine}: when it stops, no metadata can change",
                    ids[0]
                ),
                format!(
                    "run 3 controllers (5 to survive two failures) and list all of them in {VOTERS} on every node, e.g. \
                     `1@controller-1:9093,2@controller-2:9093,3@controller-3:9093`"
                ),
            )
        } else {
            let fewer = size - 1;
            (
                format!(
                    "a KRaft quorum of {size} voters (ids {}){machine}: tolerates {} failure{}, as {fewer} voter{} would",
                    ids.join(", "),
                    set.tolerated_failures(),
                    if set.tolerated_failures() == 1 {
                        ""
                    } else {
                        "s"
                    },
                    if fewer == 1 { "" } else { "s" },
                ),
                if size == 2 {
                    format!(
                        "add a third controller and list it in {VOTERS} on every node: 3 voters tolerate 1 failure"
                    )
                } else {
                    format!(
                        "use an odd number of voters: {fewer} tolerate as many failures, {} tolerate {}",
                        size + 1,
                        size / 2
                    )
                },
            )
        };
        diagnostics.push(
            RULE.finding(message)
                .with_severity(severity)
                .with_key(VOTERS)
                .with_labels(labels)
                .with_help(help),
        );
    }
    diagnostics
}
