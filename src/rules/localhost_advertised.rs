//! `localhost-advertised`: a broker of a cluster that spans machines advertises its
//! inter-broker listener at a loopback address.

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::endpoints::{ENDPOINT_KEYS, NodeEndpoints, host_key, is_loopback, is_wildcard};
use crate::cluster::host::{Hosts, Place};
use crate::cluster::listeners::Endpoint;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "localhost-advertised",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a broker of a multi-host cluster (or of separate containers) advertises its inter-broker listener at localhost: no other broker can replicate from it",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let nodes = NodeEndpoints::read_all(cluster, context.facts, |node| {
        context.is_fragment(node) || context.any_placeholder(node, ENDPOINT_KEYS)
    });
    let brokers: Vec<&NodeEndpoints> = nodes.iter().filter(|node| node.is_broker()).collect();
    // The cluster spans machines when its brokers advertise at least two routable hosts (each
    // its own name; containers count as machines of their own).
    let mut routable: Vec<(String, usize, usize)> = Vec::new();
    for (index, broker) in brokers.iter().enumerate() {
        for (at, endpoint) in broker.advertised_brokers().iter().enumerate() {
            let Some(host) = endpoint
                .host
                .filter(|host| !is_wildcard(Some(host)) && !is_loopback(host))
            else {
                continue;
            };
            // Worked out once, not once a host already listed.
            let key = host_key(host);
            if routable.iter().all(|(known, _, _)| *known != key) {
                routable.push((key, index, at));
            }
        }
    }
    let hosts = context.hosts;
    let own = first_in_own_network(hosts, &brokers);
    let mut diagnostics = Vec::new();
    for (index, broker) in brokers.iter().enumerate() {
        let Some(name) = context.inter_broker_name(broker) else {
            continue;
        };
        let advertised = broker.advertised_brokers();
        let Some(endpoint) = advertised.iter().find(|endpoint| endpoint.name == name) else {
            continue;
        };
        let Some(host) = endpoint.host.filter(|host| is_loopback(host)) else {
            continue;
        };
        let Some(elsewhere) = elsewhere(context, hosts, &brokers, &routable, &own, index) else {
            continue;
        };
        let (key, list) = broker.advertised_list();
        let mut labels = vec![context.setting_label(
            broker.node,
            key,
            &list.setting,
            Some(endpoint.item.range()),
            format!("{name} at {host}: this {} only", elsewhere.own),
        )];
        labels.push(elsewhere.label);
        let spread = elsewhere.spread;
        diagnostics.push(
            RULE.finding(format!(
                "advertises {} to brokers {spread}: they cannot replicate from it",
                quoted(key, endpoint.item.text)
            ))
            .about_inline(context.node_ref(broker.node))
            .with_key(key)
            .with_labels(labels)
            .with_help(format!(
                "advertise {name} at this broker's own host name in advertised.listeners, e.g. \
                 `{name}://<this broker's host>:{}`; if listeners binds it to localhost, bind 0.0.0.0 there",
                endpoint.port
            )),
        );
    }
    diagnostics
}

/// Another broker that runs elsewhere than broker `index`, as a label, with how the cluster
/// spreads (for the message).
struct Elsewhere {
    label: Label,
    spread: &'static str,
    own: &'static str,
}

/// Where another broker runs: at a routable host of its own when the brokers advertise two or
/// more (machines of their own), else in a network the host model knows is not this broker's (a
/// compose service's container, a pod, a container whose ports are mapped). `None` when every
/// other broker may share this one's network (one development machine), or none is placed.
fn elsewhere(
    context: &Context,
    hosts: &Hosts,
    brokers: &[&NodeEndpoints],
    routable: &[(String, usize, usize)],
    own: &[usize],
    index: usize,
) -> Option<Elsewhere> {
    let at_endpoint = |other: &NodeEndpoints, endpoint: &Endpoint, message: String| {
        let (key, list) = other.advertised_list();
        context.setting_label(
            other.node,
            key,
            &list.setting,
            Some(endpoint.item.range()),
            message,
        )
    };
    // Two routable hosts may both be this broker's own (listeners of one broker at two names).
    if routable.len() >= 2
        && let Some((other_host, other, at)) = routable.iter().find(|(_, other, _)| *other != index)
    {
        let other_broker = brokers[*other];
        let other_endpoint = other_broker.advertised_brokers()[*at];
        let message = format!(
            "{} runs elsewhere: it advertises {other_host}",
            context.node_name(other_broker.node)
        );
        return Some(Elsewhere {
            label: at_endpoint(other_broker, other_endpoint, message),
            spread: "on other hosts",
            own: "machine",
        });
    }
    let other_broker = brokers[separate_network(hosts, brokers, own, index)?];
    let other_endpoint = *other_broker.advertised_brokers().first()?;
    let message = format!(
        "{} runs in a network of its own ({})",
        context.node_name(other_broker.node),
        hosts.node(other_broker.node).evidence.describe()
    );
    Some(Elsewhere {
        label: at_endpoint(other_broker, other_endpoint, message),
        spread: "in separate containers",
        own: "container",
    })
}

/// The first two brokers in a network of their own (a container, a pod): enough to find, for
/// any broker, one whose network is not its own without comparing every pair.
fn first_in_own_network(hosts: &Hosts, brokers: &[&NodeEndpoints]) -> Vec<usize> {
    brokers
        .iter()
        .enumerate()
        .filter(|(_, broker)| hosts.node(broker.node).network == Place::Own)
        .map(|(index, _)| index)
        .take(2)
        .collect()
}

/// A broker known to run in another network than broker `index`: one in a network of its own,
/// or, when `index` has its own, any other broker.
fn separate_network(
    hosts: &Hosts,
    brokers: &[&NodeEndpoints],
    own: &[usize],
    index: usize,
) -> Option<usize> {
    let other = if own.contains(&index) {
        (0..brokers.len().min(2)).find(|other| *other != index)
    } else {
        own.iter().copied().find(|other| *other != index)
    }?;
    debug_assert_eq!(
        hosts.same_network(brokers[index].node, brokers[other].node),
        Some(false)
    );
    Some(other)
}
