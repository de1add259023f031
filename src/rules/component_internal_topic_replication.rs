//! `component-internal-topic-replication`: the replication factor of the topics Connect workers,
//! MirrorMaker 2, Streams applications and Schema Registry create for themselves, against the
//! brokers of their cluster.

use super::support::{brokers, line_label, value_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::component_topics::WhenTooFew;
use crate::cluster::{Cluster, Effective, Mode, Provenance};
use crate::diagnostic::{ComponentRef, Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "component-internal-topic-replication",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a Connect, MirrorMaker 2, Streams or Schema Registry topic on one broker, or on more than the cluster has",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let broker_count = cluster.broker_count();
    let mut diagnostics = Vec::new();
    if broker_count == 0 || cluster.components.is_empty() {
        return diagnostics;
    }
    let version = cluster.target.version;
    for component in &cluster.components {
        // The file name, and for a compose service which one.
        let who = ComponentRef {
            kind: component.kind.id(),
            title: component.kind.name(),
            file: context.component_name(component),
        };
        // A compose service is fixed by its environment: the help names the variable.
        let service = context
            .view(component.file, component.part)
            .and_then(|view| view.component.as_ref());
        let name =
            |key: &str| service.map_or_else(|| key.to_string(), |service| service.variable(key));
        let assign = |key: &str, value: usize| match service {
            Some(service) => format!("{}: {value}", service.variable(key)),
            None => format!("{key}={value}"),
        };
        for topic in context.topic_factors(cluster, component, version) {
            let Some(asked) = topic.factor.as_int() else {
                continue; // a placeholder or not a number
            };
            // -1: the broker's default.replication.factor, as the active controller applies it.
            let (factor, broker_label) = if asked == -1 {
                match broker_default(cluster, context, version) {
                    Some((factor, label)) => (factor, Some(label)),
                    None => continue,
                }
            } else if asked < 1 {
                continue;
            } else {
                (asked, None)
            };
            let key = &topic.key;
            let shown = if asked == -1 {
                format!("{key}=-1 (the brokers' default, {factor})")
            } else {
                format!("{key}={factor}")
            };
            let (severity, message, label, help) = if factor > broker_count as i64 {
                if !context.broker_count_is_known(cluster) {
                    continue;
                }
                // The label and the fix of a factor the cluster cannot give.
                let above = format!(
                    "{factor} replicas, {} in the cluster",
                    brokers(broker_count)
                );
                let lower = format!(
                    "set {} to at most {broker_count} (3 on a production cluster of 3 or more brokers)",
                    name(key)
                );
                // The message names the topic alone when its name is known.
                let short = topic
                    .name()
                    .map_or_else(|| topic.topic.clone(), |name| format!("`{name}`"));
                let which = &topic.topic;
                match topic.when_too_few {
                    WhenTooFew::Fails(what) => (
                        Severity::Error,
                        format!(
                            "{shown} on {}: {what}, unable to create {short}",
                            brokers(broker_count),
                        ),
                        above,
                        lower,
                    ),
                    WhenTooFew::LeftToAutoCreation => (
                        Severity::Warning,
                        format!(
                            "{shown} on {}: its remote topics are left to the brokers' auto-creation",
                            brokers(broker_count),
                        ),
                        above,
                        format!("{lower}; MirrorMaker 2 cannot create {}", topic.topic),
                    ),
                    WhenTooFew::CapsToLiveBrokers => (
                        Severity::Info,
                        format!(
                            "{shown} on {}: {short} gets {broker_count} replica{}, kept when brokers are added",
                            brokers(broker_count),
                            if broker_count == 1 { "" } else { "s" }
                        ),
                        format!("{factor} replicas wanted, {broker_count} created"),
                        format!(
                            "Schema Registry creates {which} with as many replicas as brokers are live; on a development cluster this is expected; in production run at least 3 brokers before Schema Registry first starts"
                        ),
                    ),
                }
            } else if factor == 1 && broker_count >= 2 {
                (
                    Severity::Error,
                    format!(
                        "{shown} on {}: one broker down, {}",
                        brokers(broker_count),
                        topic.single_replica
                    ),
                    "1 replica".into(),
                    format!(
                        "set {}; an existing topic keeps 1 replica ({}): raise it with kafka-reassign-partitions.sh",
                        assign(key, broker_count.min(3)),
                        topic.existing
                    ),
                )
            } else {
                continue;
            };
            let mut labels = vec![match topic.factor {
                // What an image writes by itself is shown at its `image:` line.
                Effective::Set(entry) if entry.provenance() == Provenance::Image => {
                    line_label(entry, format!("{label}, written by the image itself"))
                }
                Effective::Set(entry) => line_label(entry, label),
                // At the top of a file; at the `image:` line of a compose service.
                Effective::Default(value) => Label {
                    file: component.file,
                    span: service.map_or(0..0, |service| service.image_span.clone()),
                    message: format!("{key} not set, default {value}: {label}"),
                },
            }];
            labels.extend(broker_label);
            diagnostics.push(
                RULE.finding(message)
                    .about_component(who.clone())
                    .with_severity(severity)
                    .with_key(key.clone())
                    .with_labels(labels)
                    .with_help(help),
            );
        }
    }
    diagnostics
}

/// The `default.replication.factor` a topic created with -1 gets: the active controller's
/// (KRaft controllers; ZooKeeper-mode brokers). The lowest among the nodes that may be it, with
/// a label on it; `None` when no such node is among the files.
fn broker_default(
    cluster: &Cluster,
    context: &Context,
    version: crate::catalog::KafkaVersion,
) -> Option<(i64, Label)> {
    let key = "default.replication.factor";
    cluster
        .nodes
        .iter()
        .filter(|node| match node.mode {
            Mode::KRaft => node.roles.controller,
            _ => node.roles.broker,
        })
        .filter_map(|node| {
            let effective = context.effective(node, key, version)?;
            let factor = effective.as_int()?;
            Some((factor, node, effective))
        })
        .min_by_key(|(factor, node, _)| (*factor, node.file))
        .map(|(factor, node, effective)| {
            let label = value_label(
                node,
                key,
                &effective,
                format!(
                    "the brokers' default: {factor} replica{}",
                    if factor == 1 { "" } else { "s" }
                ),
            );
            (factor, label)
        })
}
