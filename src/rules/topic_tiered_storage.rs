//! `topic-tiered-storage`: a declared topic's tiered-storage settings that Kafka refuses, or
//! that the cluster cannot serve: `remote.storage.enable=true` while the brokers (in KRaft, the
//! controllers that validate it) lack `remote.log.storage.system.enable=true`; remote storage on
//! a compacted topic (from 3.6; any policy but `delete` from 4.1); `local.retention.*` above
//! `retention.*`, or `-1` while `retention.*` is finite; `remote.log.copy.disable` rules (3.9).
//! The checks are `LogConfig`'s own per release, run on its jars: see `catalog::topic::judge`.

use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::catalog::topic::judge::ProblemKind;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-tiered-storage",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's tiered-storage settings that the cluster refuses or cannot serve (remote storage disabled on the brokers or controllers, a compacted topic, local retention above retention)",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topic in context.topics {
        for found in context.config_problems(topic) {
            if found.problem.kind != ProblemKind::TieredStorage {
                continue;
            }
            let finding = RULE
                .finding(format!(
                    "{}: {}",
                    context.topic_name(topic),
                    found.problem.message
                ))
                .with_key(found.setting.key.clone())
                .with_label(context.label(topic, &found.setting.value.span, "tiered storage".into()))
                .with_help(
                    "set remote.log.storage.system.enable=true on every broker and controller before \
                     topics use remote storage; keep remote storage to cleanup.policy=delete topics, \
                     and local.retention.* at or below retention.*",
                );
            diagnostics.push(match found.problem.kafka_refuses {
                true => finding,
                false => finding.with_severity(Severity::Warning),
            });
        }
    }
    diagnostics
}
