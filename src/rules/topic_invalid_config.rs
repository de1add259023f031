//! `topic-invalid-config`: a declared topic's config that Kafka refuses when it creates the
//! topic: a key the release does not know (or removed), a value the key's ConfigDef validator
//! refuses, or two values `LogConfig.validateValues` finds in conflict
//! (`min.compaction.lag.ms` above `max.compaction.lag.ms`). The verdicts are those of the
//! release's own `LogConfig.validate`, run on its jars (`catalog/topic-verdicts.sh`): see
//! `catalog::topic::judge`.

use super::topic_support::ConfigProblem;
use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::catalog::topic::judge::ProblemKind;
use crate::cluster::topics::DeclaredTopic;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-invalid-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's config that Kafka refuses (unknown or removed key, invalid value, conflicting values): the topic is not created",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        diagnostics.extend(counts(context, topic));
        for found in context.config_problems(topic) {
            let ConfigProblem {
                problem,
                setting,
                version,
            } = &found;
            let on_key = match problem.kind {
                ProblemKind::Unknown | ProblemKind::Removed => true,
                ProblemKind::InvalidValue | ProblemKind::CrossField => false,
                ProblemKind::TieredStorage | ProblemKind::Ineffective => continue,
            };
            if !problem.kafka_refuses {
                continue;
            }
            let span = if on_key {
                &setting.key_span
            } else {
                &setting.value.span
            };
            let every = match version {
                Some(_) => String::new(),
                None => " (every release from 2.8 does; the topic's cluster is not known)".into(),
            };
            let help = match (problem.kind, problem.suggestion) {
                (ProblemKind::Unknown, Some(nearest)) => {
                    format!("did you mean `{nearest}`? Fix the key, or remove it")
                }
                (ProblemKind::Unknown | ProblemKind::Removed, _) => {
                    "remove the key: Kafka refuses every topic config it does not define".into()
                }
                (ProblemKind::CrossField, _) => {
                    "keep min.compaction.lag.ms at or below max.compaction.lag.ms".into()
                }
                _ => {
                    "set a value the key accepts (see the topic configs of the Kafka documentation)"
                        .into()
                }
            };
            diagnostics.push(
                RULE.finding(format!(
                    "{}: {}{every}",
                    context.topic_name(topic),
                    problem.message
                ))
                .with_key(setting.key.clone())
                .with_label(context.label(topic, span, "refused".into()))
                .with_help(help),
            );
        }
    }
    diagnostics
}

/// A replication factor or partition count Kafka refuses: 0, or below -1 (-1 asks for the
/// cluster's default). KRaft: `ReplicationControlManager.createTopic` ("Replication factor must be
/// larger than 0, or -1 to use the default value.", "Number of partitions was set to an invalid
/// non-positive value."); ZooKeeper mode: `ZkAdminManager.createTopics` ("Replication factor must
/// be larger than 0.", "Number of partitions must be larger than 0."): apache/kafka at 3.9.0.
fn counts(context: &TopicContext, topic: &DeclaredTopic) -> Vec<Diagnostic> {
    let what = [
        (
            &topic.replicas,
            "replication factor",
            "INVALID_REPLICATION_FACTOR",
        ),
        (&topic.partitions, "partition count", "INVALID_PARTITIONS"),
    ];
    what.into_iter()
        .filter_map(|(written, name, error)| {
            let written = written.as_ref()?;
            let count = written.integer()?;
            (count == 0 || count < -1).then(|| {
                RULE.finding(format!(
                    "{}: {name} {count}: Kafka refuses to create the topic ({error})",
                    context.topic_name(topic)
                ))
                .with_label(context.label(topic, &written.span, "refused".into()))
                .with_help(format!(
                    "set the {name} to 1 or more (or -1 for the cluster's default)"
                ))
            })
        })
        .collect()
}
