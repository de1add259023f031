//! `live-internal-topic-replication`: the replication factor `__consumer_offsets`,
//! `__transaction_state` and `__share_group_state` really have, against the live brokers and
//! against what the files (or the brokers' own settings) intend; with files given, the same for
//! the topics their Connect workers, MirrorMaker 2 and Schema Registry name.

use super::live_support::{Intended, id_list, live_brokers, some_of};
use super::support::INTERNAL_TOPICS;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::Topic;

pub const RULE: Rule = Rule {
    name: "live-internal-topic-replication",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::Unsafe,
    verified: Verified::CATALOGUE,
    summary: "a running internal topic with fewer replicas than its files intend, or one replica on a cluster of several brokers",
    check: Check::Live(check),
};

/// An internal topic to raise: its name and the replication factor it should have.
pub struct Raise<'a> {
    pub topic: &'a Topic,
    /// The key that sets its replication factor (a broker's, or a component's).
    pub key: String,
    /// What stops when a broker holding the only replica of one of its partitions stops.
    pub lost: &'static str,
    /// Its smallest replica count over its partitions.
    pub factor: usize,
    pub target: usize,
    pub intended: Option<Intended>,
}

/// The factor a topic should have: what is intended, at most the brokers the cluster has;
/// and up to 3 when it has a single replica on two or more brokers and nothing intends 2 or
/// more. The brokers the cluster has, not the live ones: while a broker is down the intent
/// stays what it was, and a plan made then raises towards it. What is intended is the files'
/// value, else what the brokers run with, which is the release's default when nothing sets it
/// (DescribeConfigs answers it with source DEFAULT); unknown when no broker answered, and then
/// only the single replica counts.
fn target(factor: usize, intended: Option<&Intended>, brokers: usize) -> usize {
    let from_intent = intended.map_or(0, |intended| {
        intended.value.clamp(0, brokers as i64) as usize
    });
    if factor <= 1 && from_intent < 2 {
        return brokers.min(3);
    }
    from_intent
}

/// How many brokers the cluster has: the live ones and those a replica is on (a broker that
/// is down still holds its replicas), or the files' count when that is more.
fn cluster_brokers(context: &LiveContext) -> usize {
    let mut ids: Vec<i32> = context.snapshot.brokers.iter().map(|b| b.id).collect();
    for topic in &context.snapshot.topics {
        for partition in &topic.partitions {
            ids.extend(&partition.replicas);
        }
    }
    ids.sort_unstable();
    ids.dedup();
    let from_files = context
        .intent
        .as_ref()
        .map_or(0, |intent| intent.cluster.broker_count());
    ids.len().max(from_files)
}

/// The internal topics whose replicas are fewer than they should be: fewer than the files
/// (else the brokers) intend, at most the brokers the cluster has; or
/// one, where it has two or more brokers (then up to 3).
pub fn raises<'a>(context: &LiveContext<'a>) -> Vec<Raise<'a>> {
    let brokers = cluster_brokers(context);
    if brokers < 2 || context.live_brokers() == 0 {
        return Vec::new();
    }
    let brokers_topics = INTERNAL_TOPICS.iter().filter_map(|internal| {
        let topic = context.snapshot.topic(internal.topic)?;
        let intended = context.intended(internal.replication_key);
        Some((
            topic,
            internal.replication_key.to_string(),
            internal.partition_lost,
            intended,
        ))
    });
    let mut raises: Vec<Raise<'a>> = Vec::new();
    for (topic, key, lost, intended) in brokers_topics.chain(context.component_topics()) {
        if raises.iter().any(|raise| raise.topic.name == topic.name) {
            continue;
        }
        let Some(factor) = topic.partitions.iter().map(|p| p.replicas.len()).min() else {
            continue;
        };
        let target = target(factor, intended.as_ref(), brokers);
        if factor < target {
            raises.push(Raise {
                topic,
                key,
                lost,
                factor,
                target,
                intended,
            });
        }
    }
    raises
}

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let live = context.live_brokers();
    let brokers = cluster_brokers(context);
    let on = if brokers > live {
        format!("{} of {brokers}", live_brokers(live))
    } else {
        live_brokers(live)
    };
    raises(context)
        .into_iter()
        .map(|raise| {
            let key = raise.key.as_str();
            let partitions = raise.topic.partitions.len();
            let short: Vec<_> = raise
                .topic
                .partitions
                .iter()
                .filter(|partition| partition.replicas.len() < raise.target)
                .collect();
            let replicas = if raise.factor == 1 {
                "1 replica".to_string()
            } else {
                format!("{} replicas", raise.factor)
            };
            let why = match &raise.intended {
                Some(intended) if intended.value as usize > raise.factor => {
                    // The message's length leaves it to the help.
                    format!("{} sets {key}={}; ", intended.by, intended.value)
                }
                _ => String::new(),
            };
            let outage = if raise.factor == 1 {
                format!(": one broker down, {}", raise.lost)
            } else {
                String::new()
            };
            let which = some_of(short.len(), partitions);
            let on_one: Vec<i32> = {
                let mut ids: Vec<i32> = short
                    .iter()
                    .filter(|partition| partition.replicas.len() == 1)
                    .flat_map(|partition| partition.replicas.iter().copied())
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                ids
            };
            let mut diagnostic = RULE
                .finding(format!(
                    "{} has {replicas} on {which}, on {on}{outage}",
                    raise.topic.name,
                ))
                .with_key(key)
                .with_label(context.at(
                    &raise.topic.line,
                    if on_one.is_empty() {
                        format!("{replicas} per partition")
                    } else {
                        format!("{replicas} per partition, on broker(s) {}", id_list(&on_one))
                    },
                ))
                .with_help(format!(
                    "{why}raise it to {} replicas: `kafkalint live --fix` writes the plan for \
                     kafka-reassign-partitions.sh --reassignment-json-file PLAN --execute (then --verify)",
                    raise.target
                ));
            if let Some(intended) = raise.intended {
                diagnostic = diagnostic.with_label(intended.label);
            }
            diagnostic
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Label;

    fn intended(value: i64) -> Intended {
        Intended {
            value,
            label: Label {
                file: 0,
                span: 0..0,
                message: String::new(),
            },
            by: "broker 0".to_string(),
        }
    }

    /// The target is the intent over the brokers the cluster has, whichever are live: never
    /// the live count; a single replica raises to 3 only where nothing intends 2 or more.
    #[test]
    fn the_target_is_the_intent_not_the_live_count() {
        assert_eq!(target(1, Some(&intended(3)), 3), 3);
        assert_eq!(target(2, Some(&intended(3)), 3), 3);
        assert_eq!(target(1, Some(&intended(2)), 3), 2);
        assert_eq!(target(1, Some(&intended(1)), 5), 3);
        assert_eq!(target(1, None, 2), 2);
        assert_eq!(target(2, None, 3), 0);
        assert_eq!(target(1, Some(&intended(5)), 3), 3);
    }
}
