//! `port-clash-on-host`: two nodes that run on one machine bind the same port.

use super::support::{any_placeholder, is_fragment, node_name, quoted, setting_label};
use super::{Context, Rule};
use crate::cluster::Cluster;
use crate::cluster::endpoints::{
    ENDPOINT_KEYS, NodeEndpoints, host_key, is_loopback, is_wildcard, on_one_machine,
};
use crate::cluster::listeners::Endpoint;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "port-clash-on-host",
    severity: Severity::Error,
    summary: "two nodes on one machine bind the same port: the second to start fails with `Address already in use`",
    check,
};

/// Why two listeners of two nodes take one socket.
enum Clash {
    /// Both bind one explicit address, which exists on one machine only.
    SameAddress(String),
    /// The nodes advertise the same hosts (one machine), and the binds overlap.
    OneMachine,
}

fn clash(a: &NodeEndpoints, x: &Endpoint, b: &NodeEndpoints, y: &Endpoint) -> Option<Clash> {
    if x.port != y.port || x.port == 0 {
        return None;
    }
    let same_host = match (x.host, y.host) {
        (Some(h1), Some(h2)) if !is_wildcard(x.host) && !is_wildcard(y.host) => {
            host_key(h1) == host_key(h2)
        }
        _ => false,
    };
    // A host name or address of the network names one machine: binding it works there only.
    if same_host && !is_loopback(x.host.unwrap_or_default()) {
        return Some(Clash::SameAddress(x.host.unwrap_or_default().to_owned()));
    }
    let overlap = same_host || is_wildcard(x.host) || is_wildcard(y.host);
    (overlap && on_one_machine(a, b)).then_some(Clash::OneMachine)
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let files = context.files;
    let nodes = NodeEndpoints::read_all(cluster, files, |node| {
        is_fragment(files, node) || any_placeholder(files, node, ENDPOINT_KEYS)
    });
    let mut diagnostics = Vec::new();
    for (i, first) in nodes.iter().enumerate() {
        for second in &nodes[i + 1..] {
            let mut reported_ports = Vec::new();
            for x in first.bound() {
                for y in second.bound() {
                    if reported_ports.contains(&x.port) {
                        continue;
                    }
                    let Some(clash) = clash(first, x, second, y) else {
                        continue;
                    };
                    reported_ports.push(x.port);
                    diagnostics.push(report(files, first, x, second, y, clash));
                }
            }
        }
    }
    diagnostics
}

fn report(
    files: &[crate::source::SourceFile],
    first: &NodeEndpoints,
    x: &Endpoint,
    second: &NodeEndpoints,
    y: &Endpoint,
    clash: Clash,
) -> Diagnostic {
    let port = x.port;
    let label = |node: &NodeEndpoints, endpoint: &Endpoint| {
        setting_label(
            files,
            node.node,
            "listeners",
            &node.listeners.listeners.setting,
            Some(endpoint.item.range()),
            format!(
                "{} binds {}",
                node_name(files, node.node),
                quoted("listeners", endpoint.item.text)
            ),
        )
    };
    let (a, b) = (node_name(files, first.node), node_name(files, second.node));
    let why = match clash {
        Clash::SameAddress(host) => format!("both bind {host}:{port}, an address of one machine"),
        Clash::OneMachine => format!(
            "they advertise the same hosts, so they run on one machine, and both bind port {port} there"
        ),
    };
    let used: Vec<i32> = first
        .bound()
        .iter()
        .chain(second.bound())
        .map(|endpoint| endpoint.port)
        .collect();
    let free = (port..=65535).skip(1).find(|p| !used.contains(p));
    Diagnostic {
        fix: None,
        rule: RULE.name,
        severity: Severity::Error,
        stops_startup: false,
        message: format!(
            "{a} ({}) and {b} ({}): {why}; whichever starts second cannot open its listener and stops with \
             `java.net.BindException: Address already in use` (Kafka reads the configuration fine, the socket \
             fails after)",
            quoted("listeners", x.item.text),
            quoted("listeners", y.item.text)
        ),
        key: Some("listeners".into()),
        labels: vec![label(second, y), label(first, x)],
        help: match free {
            Some(free) => format!(
                "give one of them a port of its own, e.g. {free} for {b}: change its listeners entry and, when set, the \
                 matching advertised.listeners entry"
            ),
            None => {
                "give one of them a port of its own in listeners (and advertised.listeners)".into()
            }
        },
    }
}
