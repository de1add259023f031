//! `plaintext-beside-secure-listener`: a PLAINTEXT listener on a public address of a node that
//! also has SSL or SASL listeners, which clients can use to go around them.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::exposure::{Reach, reach};
use crate::cluster::listeners::{Endpoint, ListenerList, SecurityProtocol};
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "plaintext-beside-secure-listener",
    severity: Severity::Warning,
    group: Group::Exposure,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a PLAINTEXT listener on a public address beside SSL or SASL listeners: the secured ones can be bypassed",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        let Some(listeners) = context.facts.listeners(node) else {
            continue;
        };
        let mut lists: Vec<(&str, &ListenerList)> = vec![("listeners", &listeners.listeners)];
        if let Some(advertised) = &listeners.advertised {
            lists.push(("advertised.listeners", advertised));
        }
        let Some((secure_key, secure)) = lists.iter().find_map(|(key, list)| {
            list.endpoints()
                .unwrap_or_default()
                .iter()
                .find(|e| e.protocol != SecurityProtocol::Plaintext)
                .map(|e| (*key, e.clone()))
        }) else {
            continue;
        };
        let secure_list = lists
            .iter()
            .find(|(key, _)| *key == secure_key)
            .map(|(_, list)| *list)
            .expect("found in it");
        for (key, list) in &lists {
            for endpoint in list.endpoints().unwrap_or_default() {
                if endpoint.protocol != SecurityProtocol::Plaintext
                    || reach(endpoint.host) != Reach::Public
                {
                    continue;
                }
                diagnostics.push(finding(
                    context,
                    node,
                    (key, list, endpoint),
                    (secure_key, secure_list, &secure),
                ));
            }
        }
    }
    diagnostics
}

/// `SASL_SSL`, or `EXTERNAL (SASL_SSL)` when the name is not the protocol's.
fn described(endpoint: &Endpoint) -> String {
    if endpoint.name == endpoint.protocol.name() {
        endpoint.name.clone()
    } else {
        format!("{} ({})", endpoint.name, endpoint.protocol.name())
    }
}

fn finding(
    context: &Context,
    node: &crate::cluster::Node,
    (key, list, plain): (&str, &ListenerList, &Endpoint),
    (secure_key, secure_list, secure): (&str, &ListenerList, &Endpoint),
) -> Diagnostic {
    let host = plain.host.unwrap_or_default();
    let address = format!("{}:{}", host, plain.port);
    let bound = if key == "listeners" {
        "binds"
    } else {
        "advertises"
    };
    RULE.finding(format!(
            "{key} {bound} the PLAINTEXT listener {} on public {address} beside {}: anyone reaching it skips \
             TLS and authentication",
            plain.name,
            described(secure)
        )).about(context.node_ref(node)).with_key(key).with_labels(vec![
            context.setting_label(node,
                key,
                &list.setting,
                Some(plain.item.trimmed().range()),
                format!("PLAINTEXT on public {address}"),
            ),
            context.setting_label(node,
                secure_key,
                &secure_list.setting,
                Some(secure.item.trimmed().range()),
                format!("{} listener", secure.protocol.name()),
            ),
        ]).with_help(format!(
            "move the {} listener to a private or loopback address, or map it to SSL or SASL_SSL in \
             listener.security.protocol.map; else firewall port {} to trusted hosts",
            plain.name, plain.port
        ))
}
