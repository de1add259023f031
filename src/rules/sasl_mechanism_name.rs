//! `sasl-mechanism-name`: a security protocol's name (`SASL_SSL`, `SASL_PLAINTEXT`, ...) where a
//! SASL mechanism (`PLAIN`, `SCRAM-SHA-512`, ...) belongs.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::setting::{Split, split};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "sasl-mechanism-name",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a security protocol's name (SASL_SSL, SASL_PLAINTEXT) given as a SASL mechanism: no client or broker can authenticate with it (a warning when the list enables a real mechanism too)",
    check: Check::Files(check),
};

/// The security protocols (`SecurityProtocol` in kafka-clients): listener protocols, never
/// SASL mechanisms.
const PROTOCOLS: &[&str] = &["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"];

/// The keys that name SASL mechanisms: the enabled list (also per listener) and the mechanism
/// brokers and controllers use to talk to each other.
fn names_mechanisms(key: &str) -> bool {
    matches!(
        key,
        "sasl.enabled.mechanisms"
            | "sasl.mechanism.inter.broker.protocol"
            | "sasl.mechanism.controller.protocol"
    ) || key.starts_with("listener.name.") && key.ends_with(".sasl.enabled.mechanisms")
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        for line in context
            .lines(node)
            .filter(|line| names_mechanisms(line.key()))
        {
            // The list as Kafka splits it, each item with its place in the value.
            let items = split(line.value(), Split::ConfigList);
            let protocol_of = |name: &str| {
                PROTOCOLS
                    .iter()
                    .find(|protocol| protocol.eq_ignore_ascii_case(name))
            };
            // A list that enables a real mechanism too still authenticates with that one.
            let another = items
                .iter()
                .any(|item| !item.text.is_empty() && protocol_of(item.text).is_none());
            let severity = if another && !line.key().starts_with("sasl.mechanism.") {
                Severity::Warning
            } else {
                Severity::Error
            };
            for item in &items {
                let name = item.text;
                let Some(protocol) = protocol_of(name) else {
                    continue;
                };
                diagnostics.push(
                    RULE.finding(format!(
                        "{} names {name}, a security protocol, as a SASL mechanism: {}",
                        line.key(),
                        if line.key().starts_with("sasl.mechanism.") {
                            "the nodes cannot authenticate to each other"
                        } else {
                            "a SASL handshake asking for it fails"
                        }
                    ))
                    .about(context.node_ref(node))
                    .with_severity(severity)
                    .with_key(line.key())
                    .with_label(Label {
                        file: line.file,
                        span: context.value_part_span(line, item.range()),
                        message: format!("{protocol} is a listener's protocol"),
                    })
                    .with_help(format!(
                        "name a mechanism: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, GSSAPI or OAUTHBEARER \
                         ({protocol} belongs in listener.security.protocol.map)"
                    )),
                );
            }
        }
    }
    diagnostics
}
