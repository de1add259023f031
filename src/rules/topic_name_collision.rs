//! `topic-name-collision`: two topics declared for one cluster whose names are equal once `.`
//! and `_` are treated alike, or one name declared twice with different specs.
//!
//! Kafka refuses to create a topic whose name collides with an existing one: KRaft
//! `ReplicationControlManager.createTopic` ("Topic 'x' collides with existing topic: y", from
//! 3.3, KAFKA-13743; apache/kafka `metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java`
//! at 3.3.0), ZooKeeper `AdminZkClient.validateTopicCreate` ("collides with existing topics",
//! `core/src/main/scala/kafka/zk/AdminZkClient.scala` at 3.3.0). Both compare with
//! `Topic.hasCollision`, which maps `.` to `_` (`clients/.../common/internals/Topic.java`):
//! a topic's metrics name replaces `.` by `_`, so the two would share their metrics.

use std::collections::BTreeMap;

use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::cluster::topics::DeclaredTopic;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-name-collision",
    severity: Severity::Warning,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "two declared topics whose names are equal once `.` and `_` are treated alike (Kafka refuses to create the second), or one topic declared twice with different specs",
    check: Check::Topics(check),
};

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for topics in declared_together(context) {
        // The first declaration of each unified name; a later one is judged against it.
        let mut first: BTreeMap<String, &DeclaredTopic> = BTreeMap::new();
        for topic in topics {
            let unified = unify_collision_chars(&topic.name.text);
            match first.get(&unified) {
                None => {
                    first.insert(unified, topic);
                }
                Some(earlier) if earlier.name.text != topic.name.text => {
                    diagnostics.push(collision(context, earlier, topic));
                }
                Some(earlier) => {
                    if let Some(difference) = spec_difference(earlier, topic) {
                        diagnostics.push(redeclared(context, earlier, topic, &difference));
                    }
                }
            }
        }
    }
    diagnostics
}

/// The topics that land on one cluster: every topic of a cluster, and for topics bound to no
/// cluster those of one file (two files without a cluster may be for two clusters). Names
/// kafkalint cannot read are left out.
fn declared_together<'a>(context: &TopicContext<'a>) -> Vec<Vec<&'a DeclaredTopic>> {
    let known = context.topics.iter().filter(|topic| topic.name.known);
    if context.cluster.is_some() {
        return vec![known.collect()];
    }
    let mut by_file: BTreeMap<usize, Vec<&DeclaredTopic>> = BTreeMap::new();
    for topic in known {
        by_file.entry(topic.file).or_default().push(topic);
    }
    by_file.into_values().collect()
}

/// `Topic.unifyCollisionChars`.
fn unify_collision_chars(name: &str) -> String {
    name.replace('.', "_")
}

fn collision(context: &TopicContext, earlier: &DeclaredTopic, later: &DeclaredTopic) -> Diagnostic {
    RULE.finding(format!(
        "{} collides with {} once `.` and `_` are treated alike: Kafka refuses to create \
         whichever comes second",
        context.topic_name(later),
        context.topic_name(earlier)
    ))
    .with_label(context.label(later, &later.name.span, "collides".into()))
    .with_label(context.label(
        earlier,
        &earlier.name.span,
        "the topic it collides with".into(),
    ))
    .with_help(
        "Kafka answers INVALID_TOPIC_EXCEPTION (\"collides with existing topic\"); rename one of \
         the two so that they differ in more than `.` against `_`; Kafka's metrics name a topic \
         with `_` for `.`, so both would share them",
    )
}

fn redeclared(
    context: &TopicContext,
    earlier: &DeclaredTopic,
    later: &DeclaredTopic,
    difference: &str,
) -> Diagnostic {
    RULE.finding(format!(
        "{} is declared twice with different {difference}: Kafka creates it once, so only \
         one of the two specs reaches the topic",
        context.topic_name(later)
    ))
    .with_label(context.label(later, &later.name.span, "declared again".into()))
    .with_label(context.label(earlier, &earlier.name.span, "declared first".into()))
    .with_help("keep one declaration of the topic, with the spec it needs")
}

/// What two declarations of one name write differently (partitions, replicas, configs);
/// `None` when they agree or when a differing value is not known.
fn spec_difference(earlier: &DeclaredTopic, later: &DeclaredTopic) -> Option<String> {
    let mut differences = Vec::new();
    if !same_value(earlier.partitions.as_ref(), later.partitions.as_ref())? {
        differences.push("partitions");
    }
    if !same_value(earlier.replicas.as_ref(), later.replicas.as_ref())? {
        differences.push("replicas");
    }
    if configs(earlier)? != configs(later)? {
        differences.push("configs");
    }
    (!differences.is_empty()).then(|| differences.join(" and "))
}

/// Whether two written values are the same; `None` when either is not known.
fn same_value(
    a: Option<&crate::cluster::topics::Written>,
    b: Option<&crate::cluster::topics::Written>,
) -> Option<bool> {
    match (a, b) {
        (Some(a), Some(b)) if a.known && b.known => Some(a.text == b.text),
        (Some(a), None) | (None, Some(a)) if a.known => Some(false),
        (None, None) => Some(true),
        _ => None,
    }
}

/// A topic's configs as Kafka gets them (the last of a repeated key wins); `None` when a
/// value is not known.
fn configs(topic: &DeclaredTopic) -> Option<BTreeMap<&str, &str>> {
    let mut configs = BTreeMap::new();
    for setting in &topic.configs {
        if !setting.value.known {
            return None;
        }
        configs.insert(setting.key.as_str(), setting.value.text.as_str());
    }
    Some(configs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unifies_as_kafka_does() {
        assert_eq!(unify_collision_chars("orders.v2"), "orders_v2");
        assert_eq!(
            unify_collision_chars("orders_v2"),
            unify_collision_chars("orders.v2")
        );
        assert_ne!(
            unify_collision_chars("orders-v2"),
            unify_collision_chars("orders.v2")
        );
    }
}
