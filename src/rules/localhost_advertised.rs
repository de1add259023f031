//! `localhost-advertised`: a broker of a cluster that spans machines advertises its
//! inter-broker listener at a loopback address.

use super::support::{any_placeholder, is_fragment, node_name, node_ref, quoted, setting_label};
use super::{Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::endpoints::{ENDPOINT_KEYS, NodeEndpoints, host_key, is_loopback, is_wildcard};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "localhost-advertised",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a broker of a multi-host cluster advertises its inter-broker listener at localhost: no other broker can replicate from it",
    check,
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let files = context.files;
    let nodes = NodeEndpoints::read_all(cluster, files, |node| {
        is_fragment(files, node) || any_placeholder(files, node, ENDPOINT_KEYS)
    });
    let brokers: Vec<&NodeEndpoints> = nodes.iter().filter(|node| node.is_broker()).collect();
    // The cluster spans machines when its brokers advertise at least two routable hosts (each
    // its own name; containers count as machines of their own).
    let mut routable: Vec<(String, usize, usize)> = Vec::new();
    for (index, broker) in brokers.iter().enumerate() {
        for (at, endpoint) in broker.advertised_brokers().iter().enumerate() {
            if let Some(host) = endpoint
                .host
                .filter(|host| !is_wildcard(Some(host)) && !is_loopback(host))
                && routable
                    .iter()
                    .all(|(known, _, _)| *known != host_key(host))
            {
                routable.push((host_key(host), index, at));
            }
        }
    }
    if routable.len() < 2 {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for (index, broker) in brokers.iter().enumerate() {
        let Some(name) = broker.inter_broker_name(files) else {
            continue;
        };
        let advertised = broker.advertised_brokers();
        let Some(endpoint) = advertised.iter().find(|endpoint| endpoint.name == name) else {
            continue;
        };
        let Some(host) = endpoint.host.filter(|host| is_loopback(host)) else {
            continue;
        };
        let (key, list) = broker.advertised_list();
        let mut labels = vec![setting_label(
            files,
            broker.node,
            key,
            &list.setting,
            Some(endpoint.item.range()),
            format!("{name} at {host}: reachable from this machine only"),
        )];
        let (other_host, other, at) = routable
            .iter()
            .find(|(_, other, _)| *other != index)
            .expect("two routable hosts, so one of another broker");
        let other_broker = brokers[*other];
        let (other_key, other_list) = other_broker.advertised_list();
        let other_endpoint = other_broker.advertised_brokers()[*at];
        labels.push(setting_label(
            files,
            other_broker.node,
            other_key,
            &other_list.setting,
            Some(other_endpoint.item.range()),
            format!(
                "{} runs elsewhere: it advertises {other_host}",
                node_name(files, other_broker.node)
            ),
        ));
        diagnostics.push(
            RULE.finding(format!(
                "advertises its inter-broker listener {name} as {}, a loopback address, in a cluster whose brokers \
                 run on several hosts: every other broker that follows one of its partitions connects to its own \
                 machine instead, so followers fall out of the ISR and acks=all writes fail once min.insync.replicas \
                 is not met; clients on other machines cannot reach it either",
                quoted(key, endpoint.item.text)
            ))
            .about_inline(node_ref(files, broker.node))
            .with_key(key)
            .with_labels(labels)
            .with_help(format!(
                "advertise {name} at this broker's own host name or address in advertised.listeners, e.g. \
                 `{name}://<this broker's host>:{}`; if listeners binds it to localhost, bind 0.0.0.0 or that address there",
                endpoint.port
            )),
        );
    }
    diagnostics
}
