//! `live-config-drift`: a running broker whose settings are not its file's (edited after it
//! started, a key added since, or a dynamic override, per broker or for every broker), or
//! running brokers that disagree on a setting that must be the same on all.

use std::collections::BTreeMap;

use super::inconsistent_cluster_value::cluster_wide_keys;
use super::support::{line_label, quoted};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::cluster::Line;
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::{ConfigEntry, ConfigSource};

pub const RULE: Rule = Rule {
    name: "live-config-drift",
    severity: Severity::Warning,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a running broker's setting that differs from its file, or from the other brokers'",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let mut diagnostics = against_files(context);
    diagnostics.extend(between_brokers(context));
    diagnostics
}

/// Values as compared: Kafka keeps a file's value as written, trailing blanks aside; a
/// boolean is read without regard to case (`ConfigDef.parseType`), and Kafka answers it in
/// lower case.
fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim(), b.trim());
    a == b || (is_boolean(a) && is_boolean(b) && a.eq_ignore_ascii_case(b))
}

fn is_boolean(value: &str) -> bool {
    value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("false")
}

/// Per-broker dynamic settings that Kafka's own tools set and remove for a while, which no file
/// is meant to hold: the replication throttles `kafka-reassign-partitions.sh --throttle` and
/// `--replica-alter-log-dirs-throttle` put on each broker of a reassignment and `--verify` takes
/// off (apache/kafka tag 3.7.0, tools/src/main/java/org/apache/kafka/tools/reassign/
/// ReassignPartitionsCommand.java, `BROKER_LEVEL_THROTTLES`).
const TOOL_THROTTLES: &[&str] = &[
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "replica.alter.log.dirs.io.max.bytes.per.second",
];

/// A cluster-wide dynamic default (`--entity-default`) as each broker reports it, with its
/// file's line for the key, if any.
type DefaultSeen<'a> = Vec<(
    &'a ConfigEntry,
    Option<Line<'a>>,
    crate::diagnostic::NodeRef,
)>;

/// Whether Kafka's static settings hold `key` because the file sets its synonym:
/// `KafkaConfig.populateSynonyms` copies `node.id` to `broker.id` (and back) before the broker
/// keeps its file's settings.
fn set_through_synonym(sets_node_id: bool, key: &str) -> bool {
    key == "broker.id" && sets_node_id || key == "node.id"
}

/// Each live broker against the file of its id.
fn against_files(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(intent) = &context.intent else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    let mut defaults: BTreeMap<&str, DefaultSeen> = BTreeMap::new();
    for broker in &context.snapshot.brokers {
        let Some((node, name)) = context.file_node(broker.id) else {
            continue;
        };
        let mut keys: Vec<&str> = context
            .configs()
            .iter()
            .filter(|entry| entry.broker == broker.id)
            .map(|entry| entry.key.as_str())
            .collect();
        keys.dedup();
        for key in keys {
            let line = intent.context.line(node, key);
            if line.is_some_and(|line| crate::properties::is_unresolved(line.value())) {
                continue;
            }
            let started = context
                .snapshot
                .from_source(broker.id, key, ConfigSource::Static);
            match (started, line) {
                (Some(started), Some(line)) if !same(&started.value, line.value()) => {
                    diagnostics.push(
                        RULE.finding(format!(
                            "started with {key}={}, but its file now says {}: the file applies only at restart",
                            quoted(key, &started.value),
                            quoted(key, line.value())
                        ))
                        .about_inline(name.clone())
                        .with_key(key)
                        .with_label(line_label(line, "the file now".to_string()))
                        .with_label(context.at(&started.line, "what the broker read at start".to_string()))
                        .with_help(format!(
                            "restart broker {} (one broker at a time) to run with the file's value, or put the \
                             running value back in the file",
                            broker.id
                        )),
                    );
                }
                (Some(started), None)
                    if intent.context.is_plain_file(node)
                        && !set_through_synonym(intent.context.in_file(node, "node.id"), key) =>
                {
                    diagnostics.push(
                        RULE.finding(format!(
                            "started with {key}={}, but its file no longer sets it: Kafka's default applies at restart",
                            quoted(key, &started.value)
                        ))
                        .about_inline(name.clone())
                        .with_key(key)
                        .with_label(context.at(&started.line, "what the broker read at start".to_string()))
                        .with_help(format!(
                            "restart broker {} to drop it, or set {key} in the file again",
                            broker.id
                        )),
                    );
                }
                _ => {}
            }
            let Some(running) = context.snapshot.effective(broker.id, key) else {
                continue;
            };
            if started.is_none()
                && let Some(line) = line
                && let Some(finding) = added_since_start(context, running, line, &name)
            {
                diagnostics.push(finding);
            }
            match running.source {
                ConfigSource::DynamicDefault => {
                    defaults
                        .entry(key)
                        .or_default()
                        .push((running, line, name.clone()));
                }
                ConfigSource::DynamicBroker => {
                    let file = intent.context.id_line(node);
                    if let Some(finding) = broker_override(context, running, line, file, &name) {
                        diagnostics.push(finding);
                    }
                }
                _ => {}
            }
        }
    }
    for (key, seen) in defaults {
        if let Some(finding) = cluster_default(context, key, &seen) {
            diagnostics.push(finding);
        }
    }
    diagnostics
}

/// A key the file sets that the broker did not read at start: it runs Kafka's default.
fn added_since_start(
    context: &LiveContext,
    running: &ConfigEntry,
    line: Line,
    name: &crate::diagnostic::NodeRef,
) -> Option<Diagnostic> {
    let (key, broker) = (running.key.as_str(), running.broker);
    if running.source != ConfigSource::Default || same(&running.value, line.value()) {
        return None;
    }
    Some(
        RULE.finding(format!(
            "runs Kafka's default {key}={}, but its file now sets {}: a key added since the broker started \
             applies only at restart",
            quoted(key, &running.value),
            quoted(key, line.value())
        ))
        .about_inline(name.clone())
        .with_key(key)
        .with_label(line_label(line, "added to the file since start".to_string()))
        .with_label(context.at(&running.line, "Kafka's default, what runs".to_string()))
        .with_help(format!(
            "restart broker {broker} (one broker at a time) to run with the file's value, or remove it from the \
             file"
        )),
    )
}

/// A dynamic override for this broker alone: of a key its file sets otherwise, or of one its
/// file does not set (Kafka's own reassignment throttles aside).
fn broker_override(
    context: &LiveContext,
    running: &ConfigEntry,
    line: Option<Line>,
    id_line: Option<Line>,
    name: &crate::diagnostic::NodeRef,
) -> Option<Diagnostic> {
    let (key, broker) = (running.key.as_str(), running.broker);
    let delete = format!(
        "kafka-configs.sh --bootstrap-server HOST:PORT --alter --delete-config {key} --entity-type brokers \
         --entity-name {broker}"
    );
    let finding = match line {
        Some(line) if same(&running.value, line.value()) => return None,
        Some(line) => RULE
            .finding(format!(
                "runs with {key}={} from a dynamic override for broker {broker}, not its file's {}: the override \
                 outlives restarts",
                quoted(key, &running.value),
                quoted(key, line.value())
            ))
            .with_label(line_label(line, "shadowed by the override".to_string())),
        None if TOOL_THROTTLES.contains(&key) || files_agree(context, running, None) => return None,
        None => RULE
            .finding(format!(
                "runs with {key}={} from a dynamic override for broker {broker}, a key its file does not set: the \
                 file does not say what runs, and the override outlives restarts",
                quoted(key, &running.value)
            ))
            .with_labels(id_line.map(|line| line_label(line, format!("this broker's file: no {key}")))),
    };
    Some(
        finding
            .about_inline(name.clone())
            .with_key(key)
            .with_label(context.at(&running.line, "the dynamic override".to_string()))
            .with_help(format!(
                "delete the override ({delete}) or write its value into the file, so that the file says what runs"
            )),
    )
}

/// Whether a dynamic value is what the broker's file means: the file's value, or Kafka's
/// default where the file does not set the key (as a KRaft cluster's `min.insync.replicas`,
/// which Kafka 4.1+ writes as a cluster-wide default when it is formatted).
fn files_agree(context: &LiveContext, running: &ConfigEntry, line: Option<Line>) -> bool {
    match line {
        Some(line) => same(&running.value, line.value()),
        None => context
            .snapshot
            .from_source(running.broker, &running.key, ConfigSource::Default)
            .is_some_and(|default| same(&default.value, &running.value)),
    }
}

/// A cluster-wide dynamic default (`--entity-default`), said once: the brokers that run it,
/// and the files that set the key otherwise or not at all.
fn cluster_default(context: &LiveContext, key: &str, seen: &DefaultSeen) -> Option<Diagnostic> {
    let (first, _, _) = seen.first()?;
    let differing: Vec<&(&ConfigEntry, Option<Line>, crate::diagnostic::NodeRef)> = seen
        .iter()
        .filter(|(running, line, _)| !files_agree(context, running, *line))
        .collect();
    if differing.is_empty() {
        return None;
    }
    let brokers: Vec<String> = seen
        .iter()
        .map(|(running, _, _)| running.broker.to_string())
        .collect();
    let said: Vec<String> = differing
        .iter()
        .map(|(_, line, name)| match line {
            Some(line) => format!("{} sets {}", name.file, quoted(key, line.value())),
            None => format!("{} does not set it", name.file),
        })
        .collect();
    let files = if said.len() > 3 {
        format!("{} and {} more", said[..3].join(", "), said.len() - 3)
    } else {
        said.join(", ")
    };
    let help = if key == "min.insync.replicas" {
        // The files' value when those that set it agree on one, so that the command runs as
        // written; N where they do not.
        let mut set = differing
            .iter()
            .filter_map(|(_, line, _)| line.map(|line| line.value().trim()));
        let files_value = match set.next() {
            Some(value) if set.all(|other| other == value) => value,
            _ => "N",
        };
        format!(
            "write min.insync.replicas={} into every broker's file, or give the default the files' value \
             (kafka-configs.sh --bootstrap-server HOST:PORT --alter --add-config min.insync.replicas={files_value} \
             --entity-type brokers --entity-default): from Kafka 4.1, with eligible leader replicas, the \
             cluster-level value cannot be deleted",
            first.value.trim()
        )
    } else {
        format!(
            "write {key}={} into every broker's file, or delete the default (kafka-configs.sh --bootstrap-server \
             HOST:PORT --alter --delete-config {key} --entity-type brokers --entity-default)",
            first.value.trim()
        )
    };
    Some(
        RULE.finding(format!(
            "brokers {} run with {key}={} from a dynamic default for every broker, not their files': \
             the default outlives restarts",
            super::rule::and_list(&brokers),
            quoted(key, &first.value),
        ))
        .with_key(key)
        .with_label(context.at(&first.line, "the cluster-wide dynamic default".to_string()))
        .with_labels(
            differing
                .iter()
                .filter_map(|(_, line, _)| *line)
                .take(3)
                .map(|line| line_label(line, "shadowed by the default".to_string())),
        )
        .with_help(format!("the files: {files}; {help}")),
    )
}

/// Live brokers that run different values of a cluster-wide setting.
fn between_brokers(context: &LiveContext) -> Vec<Diagnostic> {
    let snapshot = context.snapshot;
    if snapshot.brokers.len() < 2
        || snapshot
            .brokers
            .iter()
            .any(|broker| !snapshot.has_configs(broker.id))
    {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for (key, why) in cluster_wide_keys() {
        let running: Vec<&ConfigEntry> = snapshot
            .brokers
            .iter()
            .filter_map(|broker| snapshot.effective(broker.id, key))
            .collect();
        if running.len() < snapshot.brokers.len() {
            continue;
        }
        let mut values: Vec<&ConfigEntry> = Vec::new();
        for entry in &running {
            if !values.iter().any(|seen| same(&seen.value, &entry.value)) {
                values.push(entry);
            }
        }
        if values.len() < 2 {
            continue;
        }
        let shown: Vec<String> = values
            .iter()
            .map(|entry| {
                let on: Vec<String> = running
                    .iter()
                    .filter(|other| same(&other.value, &entry.value))
                    .map(|other| other.broker.to_string())
                    .collect();
                format!("{} on broker {}", quoted(key, &entry.value), on.join(", "))
            })
            .collect();
        diagnostics.push(
            RULE.finding(format!(
                "the running brokers disagree on {key}: {}; {why}",
                shown.join(" but ")
            ))
            .with_key(key)
            .with_labels(values.iter().map(|entry| {
                context.at(
                    &entry.line,
                    format!("broker {} ({})", entry.broker, entry.source.as_str()),
                )
            }))
            .with_help(format!(
                "give {key} one value on every broker (its file, or one dynamic default: kafka-configs.sh --alter \
                 --entity-type brokers --entity-default)"
            )),
        );
    }
    diagnostics
}
