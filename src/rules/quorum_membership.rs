//! `quorum-membership`: voters that do not lead to the controllers of the cluster: a voter
//! entry whose port (or host) is not where that controller listens, and, when the files
//! describe the whole cluster, a voter that is no node at all.
//!
//! Kafka checks one node at a time (a controller's id is a voter, a broker's is not:
//! kraft-controller-config); these look across the nodes.

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::topology::{
    QuorumListener, QuorumNode, VOTERS, VoterSet, fully_described, quorum_listener,
};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "quorum-membership",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a voter entry that is not where its controller listens, or a voter that is no node of the cluster",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let nodes = context.quorum_nodes(cluster);
    let mut diagnostics = Vec::new();
    for controller in nodes.iter().filter(|n| n.is_controller()) {
        if let Some(diagnostic) = unreachable_voter(context, &nodes, controller) {
            diagnostics.push(diagnostic);
        }
    }
    if fully_described(cluster, &nodes) {
        diagnostics.extend(voters_without_node(context, &nodes));
    }
    diagnostics
}

fn voter_label(context: &Context, holder: &QuorumNode, id: i32, message: String) -> Option<Label> {
    let (setting, _) = holder.voters.as_ref()?;
    let voter = holder.voter(id)?;
    Some(context.setting_label(
        holder.node,
        VOTERS,
        setting,
        Some(voter.item.range()),
        message,
    ))
}

/// A controller whose voter entries (in any node's file) name a port, or a host, where its
/// quorum listener is not.
fn unreachable_voter(
    context: &Context,
    nodes: &[QuorumNode],
    controller: &QuorumNode,
) -> Option<Diagnostic> {
    let id = controller.id?;
    // Without roles Kafka does not read the node as a controller.
    controller.roles.as_ref()?;
    let listener = quorum_listener(context.facts.listeners(controller.node)?)?;
    // Port 0 is a random port: nothing to compare.
    if listener.port == 0 {
        return None;
    }
    // The controller's own file first, then the others in file order.
    let holders =
        std::iter::once(controller).chain(nodes.iter().filter(|n| !n.node.is(controller.node)));
    let mut wrong = Vec::new();
    for holder in holders {
        let Some(voter) = holder.voter(id) else {
            continue;
        };
        let port = !listener.port_matches(voter.port);
        let host = !listener.host_matches(voter.host);
        if port || host {
            wrong.push((holder, *voter, port));
        }
    }
    let (_, first, port_wrong) = *wrong.first()?;
    let name = context.node_ref(controller.node);
    let at = listen_address(&listener);
    let what = if port_wrong { "port" } else { "host" };
    let mut labels: Vec<Label> = wrong
        .iter()
        .filter_map(|(holder, voter, _)| {
            voter_label(
                context,
                holder,
                id,
                format!(
                    "voter {id} at {}:{}: {}",
                    voter.host,
                    voter.port,
                    if port_wrong {
                        format!("node {id} does not listen on this port")
                    } else {
                        format!("not the host node {id} listens on")
                    }
                ),
            )
        })
        .collect();
    labels.push(context.setting_label(
        controller.node,
        "listeners",
        &listener.listeners,
        Some(listener.item.range()),
        format!("node {id} listens for the quorum at {at}"),
    ));
    let entry = quoted(VOTERS, first.item.text);
    Some(RULE.finding(format!(
            "listens for the quorum at {at} ({}), but {VOTERS} names voter {id} as {entry}: nothing reaches it at that {what}",
            listener.name,
        )).about_inline(name).with_key(VOTERS).with_labels({
            labels.dedup_by(|a, b| a.file == b.file && a.span == b.span);
            labels
        }).with_help(format!(
            "write voter {id} as `{id}@{}:{}` in {VOTERS} on every node, or move node {id}'s {} listener to {}:{}",
            suggested_host(&listener, first.host),
            listener.port,
            listener.name,
            first.host,
            first.port
        )))
}

fn listen_address(listener: &QuorumListener) -> String {
    let bound = match listener.host {
        Some(host) => format!("{host}:{}", listener.port),
        None => format!(":{} (every interface)", listener.port),
    };
    match &listener.advertised {
        Some((_, _, Some(advertised), port)) => {
            format!("{bound}, advertised as {advertised}:{port}")
        }
        _ => bound,
    }
}

fn suggested_host<'a>(listener: &QuorumListener<'a>, voter_host: &'a str) -> &'a str {
    listener
        .host
        .or_else(|| {
            listener
                .advertised
                .as_ref()
                .and_then(|(_, _, host, _)| *host)
        })
        .unwrap_or(voter_host)
}

/// Voters whose id is no node of a fully described cluster: one finding per id, on its entry
/// in every file.
fn voters_without_node(context: &Context, nodes: &[QuorumNode]) -> Vec<Diagnostic> {
    let ids: Vec<i32> = nodes.iter().filter_map(|n| n.id).collect();
    let mut sets: Vec<VoterSet> = nodes.iter().filter_map(QuorumNode::voter_set).collect();
    sets.sort();
    sets.dedup();
    let mut missing: Vec<i32> = sets
        .iter()
        .flat_map(|set| set.0.keys().copied())
        .filter(|id| !ids.contains(id))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    let mut diagnostics = Vec::new();
    for id in missing {
        let holders: Vec<&QuorumNode> = nodes.iter().filter(|n| n.voter(id).is_some()).collect();
        let labels: Vec<Label> = holders
            .iter()
            .filter_map(|holder| {
                voter_label(
                    context,
                    holder,
                    id,
                    format!("voter {id}: no node of the cluster has node.id={id}"),
                )
            })
            .collect();
        let Some(set) = holders.first().and_then(|h| h.voter_set()) else {
            continue;
        };
        let present = set.0.keys().filter(|voter| ids.contains(voter)).count();
        let (severity, consequence) = if present < set.majority() {
            (
                Severity::Error,
                format!(
                    "only {present} of {} voters exist, no controller is ever elected",
                    set.len()
                ),
            )
        } else {
            (
                Severity::Warning,
                format!(
                    "the quorum tolerates one failure fewer (majority {} of {})",
                    set.majority(),
                    set.len()
                ),
            )
        };
        let first = holders[0].voter(id).map_or("", |voter| voter.item.text);
        diagnostics.push(RULE.finding(format!(
                "{VOTERS} names voter {id} ({}), no node of the cluster: {consequence}",
                quoted(VOTERS, first)
            )).with_severity(severity).with_key(VOTERS).with_labels(labels).with_help(format!(
                "list exactly the controllers in {VOTERS} on every node, or add node {id}'s file to the cluster's folder \
                 if it lives elsewhere"
            )));
    }
    diagnostics
}
