//! `topic-ineffective-config`: a declared topic's config that Kafka accepts but cannot honour:
//! `max.message.bytes` above `segment.bytes` (the topic's, else the cluster's), so a batch that
//! size is refused on append ("exceeds the maximum configured segment size": `UnifiedLog`,
//! apache/kafka `core/src/main/scala/kafka/log/UnifiedLog.scala` at 3.9.0).

use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::catalog::topic::judge::ProblemKind;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-ineffective-config",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's config that Kafka accepts but cannot honour (max.message.bytes above segment.bytes)",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        for found in context.config_problems(topic) {
            if found.problem.kind != ProblemKind::Ineffective {
                continue;
            }
            diagnostics.push(
                RULE.finding(format!(
                    "{}: {}",
                    context.topic_name(topic),
                    found.problem.message
                ))
                .with_key(found.setting.key.clone())
                .with_label(context.label(topic, &found.setting.value.span, "not honoured".into()))
                .with_help(
                    "Kafka accepts the topic, but refuses at append any batch larger than a \
                     segment; keep max.message.bytes at or below segment.bytes",
                ),
            );
        }
    }
    diagnostics
}
