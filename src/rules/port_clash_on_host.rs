//! `port-clash-on-host`: nodes that run on one machine bind the same port, reported once per
//! shared address or machine and port, with a label on each node.

use std::collections::{BTreeMap, BTreeSet};

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::endpoints::{ENDPOINT_KEYS, NodeEndpoints, host_key, is_loopback, is_wildcard};
use crate::cluster::host::{Evidence, Hosts, Place};
use crate::cluster::listeners::Endpoint;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "port-clash-on-host",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "two nodes on one machine bind the same port: the second to start fails with `Address already in use`",
    check: Check::Files(check),
};

/// What the nodes of one finding share.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Shared {
    /// One explicit address of the network (host key, port), which exists on one machine only.
    Address(String, i32),
    /// One network and a port bound on it: nodes the host model places on one network (they
    /// advertise the same hosts, `localhost` or one host name, each on ports of its own, with
    /// no sign of a container; or containers on the host's network). Nodes that all advertise
    /// one host and port are copies of one file (`shared-advertised-address`).
    Machine(String, i32),
}

/// One bind of a group: the node (among the read nodes) and the endpoint (among its binds).
type Holder = (usize, usize);

/// A finding, where a pairwise scan meets it (nodes, then binds), and its pair of nodes and
/// port when it has two nodes.
type Found = (
    (usize, usize, usize, usize),
    Option<(usize, usize, i32)>,
    Diagnostic,
);

/// Why the listeners of a group of nodes take one socket.
enum Clash {
    /// They bind one explicit address, as the first node writes it.
    SameAddress(String),
    /// They advertise the same hosts (one machine), and their binds overlap.
    OneMachine,
    /// Containers on the network of the machine they run on (`network_mode: host`), whose binds
    /// overlap.
    HostNetwork,
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let hosts = context.hosts;
    // A container or a pod binds in a network of its own: it clashes with no other node.
    let nodes = NodeEndpoints::read_all(cluster, context.facts, |node| {
        context.is_fragment(node)
            || context.any_placeholder(node, ENDPOINT_KEYS)
            || hosts.node(node).network == Place::Own
    });
    let mut found: Vec<Found> = group_binds(&nodes, hosts)
        .into_iter()
        .filter_map(|(shared, binds)| {
            let (holders, clash) = clashing(&nodes, hosts, shared, &binds)?;
            let (first, second) = (holders[0], holders[1]);
            let order = (first.0, second.0, first.1, second.1);
            let port = nodes[first.0].bound()[first.1].port;
            let pair = (holders.len() == 2).then_some((first.0, second.0, port));
            Some((order, pair, report(context, &nodes, &holders, clash)))
        })
        .collect();
    // In the order a pairwise scan meets them: by the first node, the second, then their binds.
    found.sort_by_key(|(order, _, _)| *order);
    // A node that binds one port twice (IPv4 and IPv6) can meet another in an address group and
    // a machine group: a pair is reported once per port, the first way the scan meets it.
    let mut pairs = BTreeSet::new();
    found
        .into_iter()
        .filter(|(_, pair, _)| pair.is_none_or(|pair| pairs.insert(pair)))
        .map(|(_, _, diagnostic)| diagnostic)
        .collect()
}

/// Every bind of a non-zero port, under what it shares with others: its explicit address (not a
/// wildcard, not a loopback one) and the machine of its node, when the node names one. Grouped
/// by key rather than compared pairwise, so that many nodes on one port stay linear.
fn group_binds(nodes: &[NodeEndpoints], hosts: &Hosts) -> BTreeMap<Shared, Vec<Holder>> {
    let mut groups: BTreeMap<Shared, Vec<Holder>> = BTreeMap::new();
    for (index, node) in nodes.iter().enumerate() {
        let machine = match &hosts.node(node.node).network {
            Place::Shared(machine) => Some(machine.clone()),
            _ => None,
        };
        for (at, bind) in node.bound().iter().enumerate() {
            if bind.port == 0 {
                continue;
            }
            let network = bind
                .host
                .filter(|host| !is_wildcard(Some(host)) && !is_loopback(host));
            if let Some(host) = network {
                let address = Shared::Address(host_key(host), bind.port);
                groups.entry(address).or_default().push((index, at));
            }
            if let Some(machine) = &machine {
                let shared = Shared::Machine(machine.clone(), bind.port);
                groups.entry(shared).or_default().push((index, at));
            }
        }
    }
    groups
}

/// The binds of a group that clash, one per node in node order, and why; `None` when fewer
/// than two nodes clash.
fn clashing(
    nodes: &[NodeEndpoints],
    hosts: &Hosts,
    shared: Shared,
    binds: &[Holder],
) -> Option<(Vec<Holder>, Clash)> {
    // A group holds each node's binds side by side, in node order.
    let per_node: Vec<&[Holder]> = binds.chunk_by(|a, b| a.0 == b.0).collect();
    if per_node.len() < 2 {
        return None;
    }
    match shared {
        Shared::Address(..) => {
            let first = &nodes[binds[0].0].bound()[binds[0].1];
            let host = first.host.unwrap_or_default().to_owned();
            let holders = per_node.iter().map(|binds| binds[0]).collect();
            Some((holders, Clash::SameAddress(host)))
        }
        Shared::Machine(..) => {
            let holders = on_one_machine(nodes, &per_node)?;
            if share_an_advertised_address(nodes, &holders) {
                return None;
            }
            let host_network = holders
                .iter()
                .all(|(index, _)| hosts.node(nodes[*index].node).evidence == Evidence::HostNetwork);
            let clash = if host_network {
                Clash::HostNetwork
            } else {
                Clash::OneMachine
            };
            Some((holders, clash))
        }
    }
}

/// How a bind on one machine overlaps others of its port.
#[derive(Clone, Copy, PartialEq)]
enum Bind {
    /// Every interface: overlaps every bind.
    Wildcard,
    /// A loopback address: overlaps the loopback binds and the wildcards.
    Loopback,
    /// An address of the network: overlaps the wildcards (two binds of it are an address
    /// group).
    Network,
}

fn bind_of(nodes: &[NodeEndpoints], (index, at): Holder) -> Bind {
    let host = nodes[index].bound()[at].host;
    match host {
        _ if is_wildcard(host) => Bind::Wildcard,
        Some(host) if is_loopback(host) => Bind::Loopback,
        _ => Bind::Network,
    }
}

/// The nodes of one machine whose binds of one port overlap another node's, each at its first
/// such bind (of two nodes, the second at its first bind that overlaps the first's, as a
/// pairwise scan meets them); `None` when fewer than two do.
fn on_one_machine(nodes: &[NodeEndpoints], per_node: &[&[Holder]]) -> Option<Vec<Holder>> {
    let holding = |bind: Bind| {
        per_node
            .iter()
            .filter(|binds| binds.iter().any(|at| bind_of(nodes, *at) == bind))
            .count()
    };
    let (wildcards, loopbacks) = (holding(Bind::Wildcard), holding(Bind::Loopback));
    let overlaps = |binds: &[Holder], bind: Bind| {
        // Another node holds a bind of this kind when more nodes do than this one's share.
        let others = |kind: Bind, count: usize| {
            count > usize::from(binds.iter().any(|at| bind_of(nodes, *at) == kind))
        };
        match bind {
            Bind::Wildcard => true,
            Bind::Loopback => {
                others(Bind::Loopback, loopbacks) || others(Bind::Wildcard, wildcards)
            }
            Bind::Network => others(Bind::Wildcard, wildcards),
        }
    };
    let mut holders: Vec<Holder> = per_node
        .iter()
        .filter_map(|binds| {
            let overlapping = |at: &&Holder| overlaps(binds, bind_of(nodes, **at));
            binds.iter().find(overlapping).copied()
        })
        .collect();
    if holders.len() < 2 {
        return None;
    }
    if let [first, second] = holders[..] {
        let meets = |at: &&Holder| {
            matches!(
                (bind_of(nodes, first), bind_of(nodes, **at)),
                (Bind::Wildcard, _) | (_, Bind::Wildcard) | (Bind::Loopback, Bind::Loopback)
            )
        };
        let theirs = per_node.iter().find(|binds| binds[0].0 == second.0)?;
        holders[1] = *theirs.iter().find(meets)?;
    }
    Some(holders)
}

/// Whether one advertised address is every holder's: copies of one file, which
/// `shared-advertised-address` reports (for two nodes, whether they share any).
fn share_an_advertised_address(nodes: &[NodeEndpoints], holders: &[Holder]) -> bool {
    let addresses = |index: usize| -> BTreeSet<(String, i32)> {
        nodes[index]
            .advertised()
            .iter()
            .map(|endpoint| (host_key(endpoint.host.unwrap_or_default()), endpoint.port))
            .collect()
    };
    let mut common = addresses(holders[0].0);
    for (index, _) in &holders[1..] {
        if common.is_empty() {
            break;
        }
        let theirs = addresses(*index);
        common.retain(|address| theirs.contains(address));
    }
    !common.is_empty()
}

/// One finding for the group: the second node's label first (it is the one a pair of nodes
/// reports), then the first's, then the others'.
fn report(
    context: &Context,
    nodes: &[NodeEndpoints],
    holders: &[Holder],
    clash: Clash,
) -> Diagnostic {
    let at = |(index, at): Holder| (&nodes[index], &nodes[index].bound()[at]);
    let label = |holder: Holder| {
        let (node, endpoint) = at(holder);
        context.setting_label(
            node.node,
            "listeners",
            &node.listeners.listeners.setting,
            Some(endpoint.item.range()),
            format!(
                "{} binds {}",
                context.node_name(node.node),
                quoted("listeners", endpoint.item.text)
            ),
        )
    };
    let mut labels: Vec<Label> = vec![label(holders[1]), label(holders[0])];
    labels.extend(holders[2..].iter().copied().map(label));
    let port = at(holders[0]).1.port;
    let (message, help) = if holders.len() == 2 {
        pair_message(context, at(holders[0]), at(holders[1]), clash)
    } else {
        group_message(holders.len(), port, clash)
    };
    RULE.finding(message)
        .with_key("listeners")
        .with_labels(labels)
        .with_help(help)
}

/// The message and help of two nodes that clash.
fn pair_message(
    context: &Context,
    (first, x): (&NodeEndpoints, &Endpoint),
    (second, _): (&NodeEndpoints, &Endpoint),
    clash: Clash,
) -> (String, String) {
    let port = x.port;
    let (a, b) = (
        context.node_name(first.node),
        context.node_name(second.node),
    );
    let why = match clash {
        Clash::SameAddress(host) => format!("bind {host}:{port}"),
        Clash::OneMachine => format!("bind port {port} on one machine (same advertised hosts)"),
        Clash::HostNetwork => format!("bind port {port} with network_mode: host"),
    };
    let used: Vec<i32> = first
        .bound()
        .iter()
        .chain(second.bound())
        .map(|endpoint| endpoint.port)
        .collect();
    let free = (port..=65535).skip(1).find(|p| !used.contains(p));
    let message = format!("{a} and {b} {why}: the second to start stops with BindException");
    let help = match free {
        Some(free) => format!(
            "give one of them a port of its own, e.g. {free} for {b}: change its listeners entry and, when set, the \
             matching advertised.listeners entry"
        ),
        None => "give one of them a port of its own in listeners (and advertised.listeners)".into(),
    };
    (message, help)
}

/// The message and help of three nodes or more that clash: the count (the labels name them).
fn group_message(count: usize, port: i32, clash: Clash) -> (String, String) {
    let why = match clash {
        Clash::SameAddress(host) => {
            format!("{count} nodes bind {host}:{port}")
        }
        Clash::OneMachine => {
            format!("{count} nodes bind port {port} on one machine (same advertised hosts)")
        }
        Clash::HostNetwork => format!("{count} nodes bind port {port} with network_mode: host"),
    };
    let message = format!("{why}: all but the first to start stop with BindException");
    let help = "give every node but one a port of its own: change its listeners entry and, when set, \
                the matching advertised.listeners entry";
    (message, help.to_owned())
}
