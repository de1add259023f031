//! `live-config-drift`: a running broker whose settings are not its file's (edited after it
//! started, or shadowed by a dynamic override), or running brokers that disagree on a setting
//! that must be the same on all.

use super::inconsistent_cluster_value::cluster_wide_keys;
use super::support::{line_label, quoted};
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
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

/// Values as compared: Kafka keeps a file's value as written, trailing blanks aside.
fn same(a: &str, b: &str) -> bool {
    a.trim() == b.trim()
}

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
            let dynamic = matches!(
                running.source,
                ConfigSource::DynamicBroker | ConfigSource::DynamicDefault
            );
            let Some(line) = line.filter(|line| dynamic && !same(&running.value, line.value()))
            else {
                continue;
            };
            let (entity, delete) = if running.source == ConfigSource::DynamicBroker {
                (
                    format!("for broker {}", broker.id),
                    format!("--entity-type brokers --entity-name {}", broker.id),
                )
            } else {
                (
                    "for every broker".to_string(),
                    "--entity-type brokers --entity-default".to_string(),
                )
            };
            diagnostics.push(
                RULE.finding(format!(
                    "runs with {key}={} from a dynamic override {entity}, not its file's {}: the override \
                     outlives restarts",
                    quoted(key, &running.value),
                    quoted(key, line.value())
                ))
                .about_inline(name.clone())
                .with_key(key)
                .with_label(line_label(line, "shadowed by the override".to_string()))
                .with_label(context.at(&running.line, "the dynamic override".to_string()))
                .with_help(override_help(key, line.value(), &delete)),
            );
        }
    }
    diagnostics
}

/// How to make the file say what runs: delete the override, or write its value into the file.
/// The cluster-wide `min.insync.replicas` is the exception: under eligible leader replicas
/// (enabled on new KRaft clusters from Kafka 4.1) the controller refuses to delete it ("The
/// removal of min.insync.replicas config at the cluster-level is not allowed", Kafka 4.1
/// documentation, Operations, Eligible Leader Replicas), so it is set to the file's value, which
/// every release accepts.
fn override_help(key: &str, file_value: &str, delete: &str) -> String {
    if key == "min.insync.replicas" && delete.ends_with("--entity-default") {
        return format!(
            "set it to the file's value (kafka-configs.sh --bootstrap-server HOST:PORT --alter --add-config \
             {key}={} {delete}: under eligible leader replicas, Kafka 4.1+, the cluster-level {key} cannot be \
             deleted) or write its value into the file, so that the file says what runs",
            file_value.trim()
        );
    }
    format!(
        "delete the override (kafka-configs.sh --bootstrap-server HOST:PORT --alter --delete-config \
         {key} {delete}) or write its value into the file, so that the file says what runs"
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
