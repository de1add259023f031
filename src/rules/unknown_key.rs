//! `unknown-key`: a key the target release's broker does not know. Kafka ignores it without a
//! word, so a misspelt key leaves the default in force.

use super::support::{key_label, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::ComponentKind;
use crate::catalog::component_keys::ComponentKey;
use crate::catalog::families::Elsewhere;
use crate::catalog::{self, KafkaVersion};
use crate::cluster::Line;
use crate::cluster::{Cluster, Node};
use crate::components::Component;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "unknown-key",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key the broker does not know: Kafka ignores it, and a typo leaves the default in force",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for (node, entry) in context.effective_lines(cluster) {
        let key = entry.key();
        if catalog::spec(key, version).is_some() {
            continue;
        }
        let setting = |other: &str| {
            context
                .line(node, other)
                .map(|line| line.value().to_string())
        };
        let found = match catalog::families::elsewhere(key, version, setting) {
            Some(Elsewhere::Read | Elsewhere::OtherComponent) => continue,
            Some(other) => Some(read_elsewhere(context, node, key, other, version)),
            None => None,
        };
        if let Some((message, help)) = found {
            diagnostics.push(diagnostic(context, node, entry, message, help));
            continue;
        }
        let releases: Vec<KafkaVersion> = catalog::entry(key)
            .map(|entry| entry.releases().collect())
            .unwrap_or_default();
        // Keys of older releases only are `removed-key`'s.
        if releases.last().is_some_and(|last| *last < version) {
            continue;
        }
        let found = match releases.iter().find(|release| **release > version) {
            Some(first) => Some((
                format!("{key} is a broker key from Kafka {first} on: Kafka {version} ignores it"),
                format!(
                    "upgrade to Kafka {first} or newer before relying on {key}, or pass \
                     --kafka-version if the cluster runs a newer release"
                ),
            )),
            None => typo(context, node, key, version),
        };
        let Some((message, help)) = found else {
            continue;
        };
        diagnostics.push(diagnostic(context, node, entry, message, help));
    }
    diagnostics.extend(component_keys(cluster, context));
    diagnostics
}

/// The keys of a Connect worker's, MirrorMaker 2's or a Streams application's file that the
/// component of the release checked does not know: a near miss of one of its keys, or a key of
/// a later release. Other keys it does not declare go to its plugins or the application and are
/// not judged; keys of older releases only are `removed-key`'s.
fn component_keys(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    context
        .component_lines(cluster)
        .filter_map(|(component, entry)| {
            let key = entry.key();
            let who = component.kind.of_release(version);
            let (message, help) = match context.component_key(component, key, version) {
                ComponentKey::Misspelt { nearest } => (
                    format!(
                        "{who} has no key {key}: it ignores it{}",
                        component_in_force(context, component, &nearest, version)
                    ),
                    format!("did you mean {nearest}? Rename the key"),
                ),
                ComponentKey::Newer { first } => (
                    format!("{key} is a key from Kafka {first} on: {who} ignores it"),
                    format!(
                        "upgrade to Kafka {first} or newer before relying on {key}, or pass \
                         --kafka-version if it runs a newer release"
                    ),
                ),
                _ => return None,
            };
            Some(
                RULE.finding(message)
                    .about_component(context.component_ref(component))
                    .with_key(key)
                    .with_label(key_label(entry, format!("unknown to {who}")))
                    .with_help(help),
            )
        })
        .collect()
}

/// `, so <nearest> ...`: the value in force for the key a Connect worker's or a Streams
/// application's file misspelt, from its own line or the component's default in the release
/// (dumped from its jars). Empty for MirrorMaker 2, whose top-level keys a flow's keys may
/// override, and for keys without a dumped default (the clients').
fn component_in_force(
    context: &Context,
    component: &Component,
    nearest: &str,
    version: KafkaVersion,
) -> String {
    let dumped = match component.kind {
        ComponentKind::ConnectDistributed => "connect-distributed",
        ComponentKind::Streams => "streams",
        _ => return String::new(),
    };
    if let Some(line) = context.component_line(component, nearest) {
        return format!(
            ", so {nearest} is {} from its own line",
            quoted(nearest, line.value())
        );
    }
    match catalog::component_default(dumped, nearest, version) {
        Some((Some(default), _)) => {
            format!(
                ", so {nearest} stays at its default {}",
                quoted(nearest, default)
            )
        }
        _ => String::new(),
    }
}

fn diagnostic(
    context: &Context,
    node: &Node,
    entry: Line,
    message: String,
    help: String,
) -> Diagnostic {
    RULE.finding(message)
        .about(context.node_ref(node))
        .with_key(entry.key())
        .with_label(key_label(
            entry,
            "the broker does not read this key".to_string(),
        ))
        .with_help(help)
}

/// The message and help for a key of a family or component the broker reads in its own way.
fn read_elsewhere(
    context: &Context,
    node: &Node,
    key: &str,
    how: Elsewhere,
    version: KafkaVersion,
) -> (String, String) {
    match how {
        Elsewhere::ListenerNameCase { lowercase } => (
            format!("{key} names its listener in upper case: Kafka never reads it"),
            format!("rename the key to {lowercase}"),
        ),
        Elsewhere::NotReadPerListener { key: inner } => (
            format!("{key}: {inner} is not read per listener, so the line has no effect"),
            format!("set {inner} without the listener prefix, or delete the line"),
        ),
        Elsewhere::TopicKey { broker_key } => {
            let in_force = match context.effective(node, broker_key, version) {
                Some(effective) if effective.line().is_some() => {
                    format!("{broker_key} is {}", quoted(broker_key, effective.value()))
                }
                Some(effective) => format!(
                    "{broker_key} stays at Kafka's default {}",
                    quoted(broker_key, effective.value())
                ),
                None => format!("{broker_key} stays unset"),
            };
            (
                format!(
                    "{key} is a topic key, ignored in a broker file: {in_force} for every topic"
                ),
                format!(
                    "rename it to {broker_key} for every topic's default, or set {key} per topic \
                     (kafka-configs.sh --entity-type topics --alter)"
                ),
            )
        }
        Elsewhere::Read | Elsewhere::OtherComponent => {
            unreachable!("keys the broker reads are not reported")
        }
    }
}

/// The message and help for a key no release knows: the nearest key and the value really in
/// force, when there is one.
/// `None` for a key outside Kafka's namespaces with no near broker key: a plugin's or a
/// distribution's, which kafkalint cannot judge.
fn typo(
    context: &Context,
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Option<(String, String)> {
    // A SASL mechanism written with dots for its dashes (`scram.sha.256`): what a compose
    // variable with single underscores becomes, where `___` writes a `-`.
    if let Some(fixed) = dashed_mechanism(key)
        && catalog::families::elsewhere(&fixed, version, |_| None)
            == Some(catalog::families::Elsewhere::Read)
    {
        return Some((
            format!("{key} writes the SASL mechanism with dots: Kafka {version} ignores it"),
            format!(
                "did you mean {fixed}? Keep the mechanism's dashes (in a compose variable, write `___` for `-`)"
            ),
        ));
    }
    // Logging settings kept beside the broker's: log4j reads its own file, never this one.
    if key.starts_with("log4j.") || key.starts_with("log4j2.") {
        return Some((
            format!("{key} is a logging setting: the broker ignores it here"),
            format!(
                "move it to the broker's logging configuration ({}), or delete the line",
                if version >= KafkaVersion::new(4, 0) {
                    "config/log4j2.yaml"
                } else {
                    "config/log4j.properties"
                }
            ),
        ));
    }
    let nearest = catalog::suggest::nearest_key(key, version)
        .or_else(|| key_after_a_stray_word(key, version));
    let Some(nearest) = nearest else {
        // A listener's name before a broker key the broker reads per listener
        // (`controller.sasl.jaas.config`): the per-listener form is what the broker reads.
        let per_listener = key.split_once('.').and_then(|(listener, rest)| {
            catalog::spec(rest, version)?;
            Some(if rest == "sasl.jaas.config" {
                format!(
                    "listener.name.{}.<mechanism>.{rest}",
                    listener.to_lowercase()
                )
            } else {
                format!("listener.name.{}.{rest}", listener.to_lowercase())
            })
        });
        return Some((
            format!("{key} is unknown to Kafka {version}: the broker ignores it"),
            match per_listener {
                Some(form) => {
                    format!("to set it for one listener, write {form}; otherwise remove the line")
                }
                None => "remove the line or fix its spelling; keys a plugin of yours reads can be \
                         allowed in kafkalint's configuration"
                    .to_string(),
            },
        ))
        .filter(|_| catalog::families::in_kafka_namespace(key, version));
    };
    let in_force = match context.effective(node, nearest, version) {
        Some(effective) if effective.line().is_some() => format!(
            "{nearest} is {} from its own line",
            quoted(nearest, effective.value())
        ),
        Some(effective) => format!(
            "{nearest} stays at Kafka's default {}",
            quoted(nearest, effective.value())
        ),
        None => format!("{nearest} stays unset"),
    };
    Some((
        format!("{key} is unknown to Kafka {version}: ignored, so {in_force}"),
        format!("did you mean {nearest}? Rename the key"),
    ))
}

/// The broker key that follows a first word Kafka does not read there, when the broker does not
/// read that key per listener either: `security.inter.broker.listener.name` is
/// `inter.broker.listener.name` after a stray `security.` (Kafka's own key is
/// `security.inter.broker.protocol`), and `listener.name.security.inter.broker.listener.name`
/// would be ignored as well (KafkaConfig reads only some keys per listener). A key the broker
/// reads per listener (`client.ssl.keystore.password`) is left to the per-listener help. Only
/// keys of three words or more, in Kafka's namespaces: a short key after a word (`jmx.port`,
/// what a compose `KAFKA_JMX_PORT` becomes) is another program's setting, not a stray word.
fn key_after_a_stray_word(key: &str, version: KafkaVersion) -> Option<&'static str> {
    let (word, rest) = key.split_once('.')?;
    if rest.split('.').count() < 3 || !catalog::families::in_kafka_namespace(key, version) {
        return None;
    }
    let known = catalog::entry(rest)
        .map(|entry| entry.name)
        .filter(|_| catalog::spec(rest, version).is_some())?;
    let per_listener = format!("listener.name.{}.{rest}", word.to_lowercase());
    let per_listener = if rest == "sasl.jaas.config" {
        per_listener.replace(".sasl.jaas.config", ".plain.sasl.jaas.config")
    } else {
        per_listener
    };
    let read = catalog::families::elsewhere(&per_listener, version, |_| None)
        == Some(catalog::families::Elsewhere::Read);
    (!read).then_some(known)
}

/// `key` with a SASL mechanism written with dots put back with dashes
/// (`listener.name.client.scram.sha.256.sasl.jaas.config` to `…scram-sha-256…`), when it has one.
fn dashed_mechanism(key: &str) -> Option<String> {
    ["scram.sha.256", "scram.sha.512"]
        .iter()
        .find(|dotted| key.contains(&format!(".{dotted}.")))
        .map(|dotted| key.replacen(dotted, &dotted.replace('.', "-"), 1))
}

#[cfg(test)]
mod tests {
    use super::{dashed_mechanism, key_after_a_stray_word};
    use crate::catalog::KafkaVersion;

    #[test]
    fn a_stray_first_word_before_a_key_not_read_per_listener_names_the_key() {
        for version in [KafkaVersion::new(2, 8), KafkaVersion::new(4, 1)] {
            assert_eq!(
                key_after_a_stray_word("security.inter.broker.listener.name", version),
                Some("inter.broker.listener.name"),
                "{version}"
            );
            // Read per listener: the per-listener form is the help.
            assert_eq!(
                key_after_a_stray_word("client.ssl.keystore.password", version),
                None
            );
            assert_eq!(
                key_after_a_stray_word("controller.sasl.jaas.config", version),
                None
            );
            assert_eq!(
                key_after_a_stray_word("security.no.such.key", version),
                None
            );
            assert_eq!(key_after_a_stray_word("jmx.port", version), None);
            assert_eq!(
                key_after_a_stray_word("broker.log.retention.hours", version),
                Some("log.retention.hours")
            );
        }
    }

    #[test]
    fn a_mechanism_written_with_dots_gets_its_dashes_back() {
        assert_eq!(
            dashed_mechanism("listener.name.client.scram.sha.256.sasl.jaas.config").as_deref(),
            Some("listener.name.client.scram-sha-256.sasl.jaas.config")
        );
        assert_eq!(
            dashed_mechanism("listener.name.client.plain.sasl.jaas.config"),
            None
        );
    }
}
