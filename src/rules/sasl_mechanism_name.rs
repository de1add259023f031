//! `sasl-mechanism-name`: a security protocol's name (`SASL_SSL`, `SASL_PLAINTEXT`, ...) where a
//! SASL mechanism (`PLAIN`, `SCRAM-SHA-512`, ...) belongs.

use super::{Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "sasl-mechanism-name",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a security protocol's name (SASL_SSL, SASL_PLAINTEXT) given as a SASL mechanism: no client or broker can authenticate with it (a warning when the list enables a real mechanism too)",
    check,
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
            let value = line.value();
            // A list that enables a real mechanism too still authenticates with that one.
            let another = value.split(',').any(|item| {
                let item = item.trim();
                !item.is_empty() && !PROTOCOLS.iter().any(|p| p.eq_ignore_ascii_case(item))
            });
            let severity = if another && !line.key().starts_with("sasl.mechanism.") {
                Severity::Warning
            } else {
                Severity::Error
            };
            let mut at = 0;
            for item in value.split(',') {
                let range = at + (item.len() - item.trim_start().len())..at + item.trim_end().len();
                at += item.len() + 1;
                let name = item.trim();
                let Some(protocol) = PROTOCOLS
                    .iter()
                    .find(|protocol| protocol.eq_ignore_ascii_case(name))
                else {
                    continue;
                };
                diagnostics.push(
                    RULE.finding(format!(
                        "{} names {name}, a security protocol, as a SASL mechanism: no client or broker has a \
                         mechanism by that name, so {}",
                        line.key(),
                        if line.key().starts_with("sasl.mechanism.") {
                            "the nodes cannot authenticate to each other (Kafka starts, then cannot replicate or \
                             reach the controllers)"
                        } else {
                            "a SASL handshake asking for it fails"
                        }
                    ))
                    .about(context.node_ref(node))
                    .with_severity(severity)
                    .with_key(line.key())
                    .with_label(Label {
                        file: line.file,
                        span: context.value_part_span(line, range),
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
