//! `shared-advertised-address`: two brokers of one cluster advertise the same host and port.

use std::collections::BTreeMap;

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::endpoints::{ENDPOINT_KEYS, NodeEndpoints, host_key, is_wildcard};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "shared-advertised-address",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "two brokers advertise the same host:port: clients and replicas are sent to the wrong broker",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let nodes = NodeEndpoints::read_all(cluster, context.facts, |node| {
        context.is_fragment(node) || context.any_placeholder(node, ENDPOINT_KEYS)
    });
    // (host, port) -> (node, endpoint) in file order; one entry per node.
    let mut by_address: BTreeMap<(String, i32), Vec<(usize, usize)>> = BTreeMap::new();
    for (index, node) in nodes.iter().enumerate() {
        if !node.is_broker() {
            continue;
        }
        for (at, endpoint) in node.advertised_brokers().iter().enumerate() {
            // An empty host advertises the machine's own name; port 0 a random port.
            if is_wildcard(endpoint.host) || endpoint.port == 0 {
                continue;
            }
            let address = (host_key(endpoint.host.unwrap_or_default()), endpoint.port);
            let holders = by_address.entry(address).or_default();
            // Nodes arrive in order, so a node already holding the address is the last holder:
            // checking it alone keeps one address shared by every node linear.
            if holders.last().is_none_or(|(other, _)| *other != index) {
                holders.push((index, at));
            }
        }
    }
    let mut diagnostics = Vec::new();
    for ((_, port), holders) in by_address {
        if holders.len() < 2 {
            continue;
        }
        let mut labels: Vec<Label> = Vec::new();
        let mut count = 0;
        let mut shown = String::new();
        for (index, at) in &holders {
            let node = &nodes[*index];
            let (key, list) = node.advertised_list();
            let endpoint = node.advertised_brokers()[*at];
            if shown.is_empty() {
                shown = format!("{}:{port}", endpoint.host.unwrap_or_default());
            }
            let name = context.node_name(node.node);
            labels.push(context.setting_label(
                node.node,
                key,
                &list.setting,
                Some(endpoint.item.range()),
                format!("{name} advertises {}", quoted(key, endpoint.item.text)),
            ));
            count += 1;
        }
        diagnostics.push(
            RULE.finding(format!(
                "{} brokers advertise the same address {shown}: requests reach the wrong broker, replication stalls",
                count
            ))
            .with_key(key_of(&nodes, holders[0].0))
            .with_labels(labels)
            .with_help(
                "advertise each broker at an address of its own: its own host name, or on one machine the port of \
                 its own listeners entry",
            ),
        );
    }
    diagnostics
}

fn key_of(nodes: &[NodeEndpoints], index: usize) -> &'static str {
    nodes[index].advertised_list().0
}
