//! Whether what the cluster answered is the whole of it. Kafka answers each principal with what
//! it may see, and leaves the rest out without an error: Metadata does not list the topics it
//! may not describe, ListGroups lists only the groups it may describe unless it may describe
//! the cluster (apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala,
//! `handleTopicMetadataRequest` and `handleListGroupsRequest`, tag 3.9.0). A broker that cannot
//! be reached, or refuses DescribeConfigs, leaves its settings out. A view with any of these
//! is partial: the live rules judge what is there, but "No problems" or "can stop" on it
//! would be said of a cluster kafkalint was not shown.

use crate::live::snapshot::Snapshot;

/// One thing the view lacks: what (a few words, for the summary) and why (for the notes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    pub what: String,
    pub why: String,
}

impl Missing {
    fn new(what: impl Into<String>, why: impl Into<String>) -> Missing {
        Missing {
            what: what.into(),
            why: why.into(),
        }
    }
}

/// The operation on the cluster without which ListGroups leaves out the groups a principal
/// may not describe (`AclOperation.DESCRIBE`).
const DESCRIBE: &str = "DESCRIBE";

/// Kafka's name of the error a topic hidden from the principal answers when asked by name.
const TOPIC_AUTHORIZATION_FAILED: &str = "TOPIC_AUTHORIZATION_FAILED";

/// Kafka's name of the error FindCoordinator answers for a group the principal may not
/// describe.
const GROUP_AUTHORIZATION_FAILED: &str = "GROUP_AUTHORIZATION_FAILED";

/// What `snapshot` lacks, in a fixed order; empty when it is whole.
pub fn missing(snapshot: &Snapshot) -> Vec<Missing> {
    let mut missing = Vec::new();
    match &snapshot.cluster_operations {
        None => missing.push(Missing::new(
            "what this principal may see",
            "not asked (a snapshot saved before kafkalint asked, or a broker that did not say \
             what the principal may do on the cluster): topics and groups it may not describe \
             would be left out unseen",
        )),
        Some(operations) if !operations.iter().any(|name| name == DESCRIBE) => {
            missing.push(Missing::new(
                "groups",
                "this principal may not DESCRIBE the cluster, so each broker lists only the \
                 groups it may describe",
            ));
        }
        Some(_) => {}
    }
    for topic in &snapshot.unlisted_topics {
        let why = if topic.why == TOPIC_AUTHORIZATION_FAILED {
            format!(
                "{TOPIC_AUTHORIZATION_FAILED}: this principal may not describe it (Kafka does not \
                 say whether it exists), and every topic it may not describe is left out"
            )
        } else {
            format!("not listed, and not known to be absent: {}", topic.why)
        };
        missing.push(Missing::new(format!("topic {}", topic.name), why));
    }
    let mut brokers: Vec<_> = snapshot.brokers.iter().collect();
    brokers.sort_by_key(|broker| broker.id);
    for broker in brokers {
        match (&broker.unreached, &broker.groups_unknown) {
            (Some(settings), Some(groups)) if settings == groups => missing.push(Missing::new(
                format!("broker {}'s settings and groups", broker.id),
                settings.clone(),
            )),
            (settings, groups) => {
                if let Some(why) = settings {
                    missing.push(Missing::new(
                        format!("broker {}'s settings", broker.id),
                        why.clone(),
                    ));
                }
                if let Some(why) = groups {
                    missing.push(Missing::new(
                        format!("the groups broker {} coordinates", broker.id),
                        why.clone(),
                    ));
                }
            }
        }
    }
    let mut hidden_groups: Vec<&str> = snapshot
        .groups
        .iter()
        .filter(|group| group.coordinator.is_none() && group.state == GROUP_AUTHORIZATION_FAILED)
        .map(|group| group.id.as_str())
        .collect();
    hidden_groups.sort_unstable();
    for id in hidden_groups {
        missing.push(Missing::new(
            format!("the coordinator of group {id}"),
            format!("{GROUP_AUTHORIZATION_FAILED}: this principal may not describe the group"),
        ));
    }
    let mut unknown_min_isr: Vec<&str> = snapshot
        .topics
        .iter()
        .filter(|topic| topic.min_insync_replicas.is_none())
        .map(|topic| topic.name.as_str())
        .collect();
    if !unknown_min_isr.is_empty() {
        unknown_min_isr.sort_unstable();
        let count = unknown_min_isr.len();
        let mut named: Vec<String> = unknown_min_isr
            .iter()
            .take(3)
            .map(|n| n.to_string())
            .collect();
        if count > 3 {
            named.push(format!("{} more", count - 3));
        }
        missing.push(Missing::new(
            format!(
                "min.insync.replicas of {}",
                if count == 1 {
                    "1 topic".to_string()
                } else {
                    format!("{count} topics")
                }
            ),
            format!(
                "DescribeConfigs gave no value for {} (this principal may lack DESCRIBE_CONFIGS on \
                 them): what would refuse acks=all writes there is not judged",
                named.join(", ")
            ),
        ));
    }
    missing
}

/// The summary's words for `missing`: `a partial view, not known: broker 1's settings, topic
/// __consumer_offsets`, at most four named; `None` when the view is whole.
pub fn summary(missing: &[Missing]) -> Option<String> {
    if missing.is_empty() {
        return None;
    }
    let mut named: Vec<&str> = missing.iter().take(4).map(|m| m.what.as_str()).collect();
    let more = format!("{} more", missing.len().saturating_sub(4));
    if missing.len() > 4 {
        named.push(&more);
    }
    Some(format!("a partial view, not known: {}", named.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Snapshot {
        let properties = crate::properties::parse(text.as_bytes()).unwrap();
        Snapshot::read(&properties).unwrap()
    }

    const WHOLE: &str = "bootstrap=a:9092\n\
        cluster.operations=ALTER,DESCRIBE,DESCRIBE_CONFIGS\n\
        broker.0=a:9092\n\
        topic.__consumer_offsets=internal=true partitions=1 min.insync.replicas=1\n";

    #[test]
    fn a_whole_view_lacks_nothing() {
        assert_eq!(missing(&read(WHOLE)), []);
        assert_eq!(summary(&[]), None);
    }

    /// A snapshot saved before kafkalint asked what the principal may do reads as before, and
    /// says that this was not asked: never a whole view.
    #[test]
    fn a_snapshot_of_the_older_format_is_not_asked_not_whole() {
        let old = WHOLE.replace("cluster.operations=ALTER,DESCRIBE,DESCRIBE_CONFIGS\n", "");
        let found = missing(&read(&old));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].what, "what this principal may see");
    }

    #[test]
    fn every_kind_of_refusal_is_named() {
        let text = "bootstrap=a:9092\n\
            cluster.operations=\n\
            broker.0=a:9092\n\
            broker.0.unreached=a:9092 refused the request DescribeConfigs: CLUSTER_AUTHORIZATION_FAILED\n\
            broker.1=b:9092\n\
            broker.1.unreached=cannot connect to b:9092: refused\n\
            broker.1.groups-unknown=cannot connect to b:9092: refused\n\
            broker.2=c:9092\n\
            broker.2.groups-unknown=c:9092 refused the request ListGroups: COORDINATOR_LOAD_IN_PROGRESS\n\
            unlisted-topic.__consumer_offsets=TOPIC_AUTHORIZATION_FAILED\n\
            topic.orders=internal=false partitions=1 min.insync.replicas=unknown\n";
        let found = missing(&read(text));
        let what: Vec<&str> = found.iter().map(|m| m.what.as_str()).collect();
        assert_eq!(
            what,
            [
                "groups",
                "topic __consumer_offsets",
                "broker 0's settings",
                "broker 1's settings and groups",
                "the groups broker 2 coordinates",
                "min.insync.replicas of 1 topic",
            ]
        );
        assert_eq!(
            summary(&found).unwrap(),
            "a partial view, not known: groups, topic __consumer_offsets, broker 0's settings, \
             broker 1's settings and groups, 2 more"
        );
    }
}
