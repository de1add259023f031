//! `min-isr-headroom`: a minimum in-sync replica count that leaves no broker free to fail,
//! or that can never be met.

use super::support::{INTERNAL_TOPICS, InternalTopic, brokers, value_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Fix, Label, Severity};

pub const RULE: Rule = Rule {
    name: "min-isr-headroom",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::Unsafe,
    verified: Verified::CATALOGUE,
    summary: "min ISR at or above the replication factor (no broker may fail; up to Kafka 3.6, above it is never met) or above the broker count (up to 3.6)",
    check: Check::Files(check),
};

/// A replication factor and the min ISR that applies to the topics it shapes.
/// From 3.7 a partition's effective min ISR is `min(min.insync.replicas, replicas)`
/// (`Partition.effectiveMinIsr`, KAFKA-15583; apache/kafka core/src/main/scala/kafka/cluster/
/// Partition.scala at 3.7.0, and the 4.4.0 jar's bytecode): a min ISR above the factor no longer
/// makes writes impossible.
const EFFECTIVE_MIN_ISR_FROM: KafkaVersion = KafkaVersion::new(3, 7);

struct Pair {
    replication_key: &'static str,
    min_isr_key: &'static str,
    what: &'static str,
    /// Whether exceeding the replication factor is certain breakage (an internal topic) or
    /// depends on how topics are created (the broker defaults).
    above_factor: Severity,
    /// The internal topic the pair shapes: only those get a fix (for the broker defaults, which
    /// number to lower or raise is a judgement call).
    topic: Option<&'static InternalTopic>,
}

fn pairs(context: &Context, cluster: &Cluster) -> Vec<Pair> {
    let mut pairs: Vec<Pair> = INTERNAL_TOPICS
        .iter()
        .filter(|topic| topic.applies(context, &cluster.nodes))
        .filter_map(|topic| {
            Some(Pair {
                replication_key: topic.replication_key,
                min_isr_key: topic.min_isr_key?,
                what: topic.users,
                above_factor: Severity::Error,
                topic: Some(topic),
            })
        })
        .collect();
    pairs.push(Pair {
        replication_key: "default.replication.factor",
        min_isr_key: "min.insync.replicas",
        what: "acks=all writes to topics of the default factor",
        above_factor: Severity::Warning,
        topic: None,
    });
    pairs
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let broker_count = cluster.broker_count() as i64;
    let mut diagnostics = Vec::new();
    if broker_count == 0 {
        return diagnostics;
    }
    for pair in pairs(context, cluster) {
        for node in cluster.brokers() {
            let Some((factor, factor_value)) =
                context.int_value(node, pair.replication_key, cluster.target.version)
            else {
                continue;
            };
            let Some((min_isr, min_isr_value)) =
                context.int_value(node, pair.min_isr_key, cluster.target.version)
            else {
                continue;
            };
            // A factor above the broker count is its own finding: the topic cannot exist.
            if factor < 1
                || min_isr < 1
                || (pair.above_factor == Severity::Error && factor > broker_count)
            {
                continue;
            }
            let (rf_key, isr_key) = (pair.replication_key, pair.min_isr_key);
            let version = cluster.target.version;
            let (severity, message, help) = if version >= EFFECTIVE_MIN_ISR_FROM {
                // A partition needs min(min ISR, its replicas) in sync: a min ISR at or above
                // the factor asks for every replica, and is never out of reach.
                if factor < 2 || min_isr < factor || factor > broker_count {
                    continue;
                }
                let above = if min_isr > factor {
                    // Kafka caps the minimum at the factor: the help says so.
                    format!("{isr_key}={min_isr} above {rf_key}={factor}")
                } else {
                    format!("{isr_key}={min_isr} equals {rf_key}={factor}")
                };
                (
                    Severity::Warning,
                    format!("{above}: one broker down stops {}", pair.what),
                    format!(
                        "{}set {isr_key}={} (one less than the replication factor) or raise {rf_key}",
                        if min_isr > factor {
                            format!("Kafka {version} needs all {factor} in sync; ")
                        } else {
                            String::new()
                        },
                        factor - 1
                    ),
                )
            } else if min_isr > broker_count {
                if !context.broker_count_is_known(cluster) {
                    continue;
                }
                (
                    Severity::Error,
                    format!(
                        "{isr_key}={min_isr} on {}: never met, so {} stop",
                        brokers(broker_count as usize),
                        pair.what
                    ),
                    format!("set {isr_key} to at most {}", (broker_count - 1).max(1)),
                )
            } else if min_isr > factor {
                (
                    pair.above_factor,
                    format!(
                        "{isr_key}={min_isr} above {rf_key}={factor}: never met, so {} stop",
                        pair.what
                    ),
                    format!("set {isr_key} to {} or raise {rf_key}", (factor - 1).max(1)),
                )
            } else if min_isr == factor && factor >= 2 {
                (
                    Severity::Warning,
                    format!(
                        "{isr_key}={min_isr} equals {rf_key}={factor}: one broker down stops {}",
                        pair.what
                    ),
                    format!(
                        "{}set {isr_key}={} (one less than the replication factor) or raise {rf_key}",
                        if min_isr > factor {
                            format!("Kafka {version} needs all {factor} in sync; ")
                        } else {
                            String::new()
                        },
                        factor - 1
                    ),
                )
            } else {
                continue;
            };
            let mut labels = vec![value_label(
                node,
                isr_key,
                &min_isr_value,
                format!("min ISR {min_isr}"),
            )];
            let factor_label = value_label(
                node,
                rf_key,
                &factor_value,
                format!("replication factor {factor}"),
            );
            if factor_value.line().is_some() || labels[0].span != factor_label.span {
                labels.push(factor_label);
            }
            labels.dedup_by(|a: &mut Label, b: &mut Label| a.span == b.span);
            let fix = pair.topic.and_then(|topic| {
                min_isr_fix(cluster, context, node, topic, min_isr, min_isr_value.line())
            });
            diagnostics.push(
                RULE.finding(message)
                    .about(context.node_ref(node))
                    .with_severity(severity)
                    .with_key(isr_key)
                    .with_labels(labels)
                    .with_help(help)
                    .with_fix(fix),
            );
        }
    }
    diagnostics
}

/// The fix of an internal topic's min ISR: one less than the replication factor after its own
/// fix (at least 1), so that one broker may fail. When `internal-topic-replication` fixes the
/// factor too, its edit is part of this fix (the same edit, applied once), and the min ISR may
/// already be right for the fixed factor. `None` when the min ISR must change but the file
/// leaves it to Kafka's default: there is no line to edit.
fn min_isr_fix(
    cluster: &Cluster,
    context: &Context,
    node: &crate::cluster::Node,
    topic: &InternalTopic,
    min_isr: i64,
    min_isr_entry: Option<crate::cluster::Line>,
) -> Option<Fix> {
    let isr_key = topic.min_isr_key?;
    let factor_fix = context.replication_fix(cluster, node, topic);
    let factor = match &factor_fix {
        Some((factor, _)) => *factor,
        None => {
            context
                .int_value(node, topic.replication_key, cluster.target.version)?
                .0
        }
    };
    let wanted = (factor - 1).max(1);
    let mut edits = Vec::new();
    let mut done = Vec::new();
    if let Some((factor, edit)) = factor_fix {
        edits.push(edit);
        done.push(format!("{}={factor}", topic.replication_key));
    }
    if wanted != min_isr {
        edits.push(context.set_number(min_isr_entry?, wanted));
        done.push(format!("{isr_key}={wanted}"));
    }
    // Unsafe: see the rule's doc, "Fix safety".
    (!edits.is_empty()).then(|| Fix::unsafe_edits(format!("set {}", done.join(" and ")), edits))
}
