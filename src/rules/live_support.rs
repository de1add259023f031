//! What live rules ask of a running cluster's answers and of its files: labels on the
//! snapshot's lines, the value the files (or the brokers) intend for a key, the partition that
//! coordinates a group.

use super::rule::LiveContext;
use super::support::{line_label, value_label};
use crate::diagnostic::{Label, NodeRef};
use crate::live::snapshot::{ConfigEntry, Partition, Topic};
use crate::properties::Span;

/// A value the cluster is meant to have for a key, and where it is said.
pub struct Intended {
    pub value: i64,
    /// Where: the file's line (or where its node is declared, for Kafka's default), else a
    /// broker's line of the snapshot.
    pub label: Label,
    /// Who says it, for messages: `broker 0 (server-0.properties)` or `broker 0`'s running
    /// config.
    pub by: String,
}

impl<'a> LiveContext<'a> {
    /// A label on a line of the snapshot.
    pub fn at(&self, line: &Span, message: String) -> Label {
        Label {
            file: self.document,
            span: line.clone(),
            message,
        }
    }

    /// A label on a partition's line that says which of its replicas are in sync.
    pub fn in_sync_at(&self, partition: &Partition) -> Label {
        self.at(
            &partition.line,
            format!(
                "in sync: {} of replicas {}",
                id_list(&partition.isr),
                id_list(&partition.replicas)
            ),
        )
    }

    /// How many brokers are alive (registered and unfenced: Metadata lists no other).
    pub fn live_brokers(&self) -> usize {
        self.snapshot.brokers.len()
    }

    /// The largest value the files give `key` on a broker, else the largest a live broker
    /// runs with: what the cluster is meant to have.
    pub fn intended(&self, key: &str) -> Option<Intended> {
        if let Some(intent) = &self.intent {
            let version = intent.cluster.target.version;
            let from_files = intent
                .cluster
                .brokers()
                .filter_map(|node| {
                    let (value, effective) = intent.context.int_value(node, key, version)?;
                    Some((value, node, effective))
                })
                // The largest; of equals, the first broker's.
                .reduce(|best, next| if next.0 > best.0 { next } else { best });
            if let Some((value, node, effective)) = from_files {
                return Some(Intended {
                    value,
                    label: value_label(node, key, &effective, format!("{key}={value} here")),
                    by: intent.context.node_name(node),
                });
            }
        }
        self.snapshot
            .brokers
            .iter()
            .filter_map(|broker| {
                let entry = self.snapshot.effective(broker.id, key)?;
                Some((entry.value.trim().parse::<i64>().ok()?, entry))
            })
            .max_by_key(|(value, entry)| (*value, -entry.broker))
            .map(|(value, entry)| Intended {
                value,
                label: self.at(
                    &entry.line,
                    format!("broker {} runs with {key}={value}", entry.broker),
                ),
                by: format!(
                    "broker {}'s running config ({})",
                    entry.broker,
                    entry.source.as_str()
                ),
            })
    }

    /// The topics the files' components (Connect workers, MirrorMaker 2, Schema Registry) name,
    /// that the cluster has: each with the key that sets its factor, what stops when one of
    /// its partitions is lost, and the factor the component asks for (Kafka's defaults
    /// included; `-1`, the brokers' default, left out).
    pub fn component_topics(&self) -> Vec<(&'a Topic, String, &'static str, Option<Intended>)> {
        let Some(intent) = &self.intent else {
            return Vec::new();
        };
        let version = intent.cluster.target.version;
        let mut found = Vec::new();
        for component in &intent.cluster.components {
            for factor in intent
                .context
                .topic_factors(intent.cluster, component, version)
            {
                let Some(topic) = factor.name().and_then(|name| self.snapshot.topic(name)) else {
                    continue;
                };
                let Some(value) = factor.factor.as_int().filter(|value| *value >= 1) else {
                    continue;
                };
                let message = format!("{}={value} here", factor.key);
                let label = match factor.factor.line() {
                    Some(line) => line_label(line, message),
                    None => Label {
                        file: component.file,
                        span: 0..0,
                        message: format!("{} is not set: the default {value} applies", factor.key),
                    },
                };
                let by = intent.context.component_ref(component).to_string();
                found.push((
                    topic,
                    factor.key.clone(),
                    factor.single_replica,
                    Some(Intended { value, label, by }),
                ));
            }
        }
        found
    }

    /// The files' node for live broker `id`, by its `node.id`/`broker.id`.
    pub fn file_node(&self, id: i32) -> Option<(&'a crate::cluster::Node, NodeRef)> {
        let intent = self.intent.as_ref()?;
        let wanted = id.to_string();
        intent.cluster.brokers().find_map(|node| {
            let name = intent.context.node_ref(node);
            (name.id.as_deref() == Some(wanted.as_str())).then_some((node, name))
        })
    }

    /// The partition of `__consumer_offsets` that coordinates `group`, and its topic.
    pub fn coordinator_partition(&self, group: &str) -> Option<(&'a Topic, &'a Partition)> {
        self.coordinator_partition_of(crate::coordinator::Coordinated::Group, group)
    }

    /// The partition of `kind`'s topic that coordinates `id`, and its topic.
    pub fn coordinator_partition_of(
        &self,
        kind: crate::coordinator::Coordinated,
        id: &str,
    ) -> Option<(&'a Topic, &'a Partition)> {
        let topic = self.snapshot.topic(kind.topic())?;
        let count = u32::try_from(topic.partition_count.max(topic.partitions.len())).ok()?;
        let index = crate::coordinator::partition_for(id, count);
        let partition = topic
            .partitions
            .iter()
            .find(|partition| i64::from(partition.index) == i64::from(index))?;
        Some((topic, partition))
    }

    /// Every broker setting of the snapshot.
    pub fn configs(&self) -> &'a [ConfigEntry] {
        &self.snapshot.configs
    }
}

/// How many groups, named by kind: `1 consumer group` (`consumer` the word for consumer
/// groups: `consumer group`, or `group`), `3 share groups`, `4 groups` when they are of several
/// kinds.
pub fn groups_phrase(groups: &[&crate::live::snapshot::Group], consumer: &str) -> String {
    let kind = |group: &crate::live::snapshot::Group| match &group.group_type {
        Some(kind) => format!("{kind} group"),
        None => consumer.to_string(),
    };
    let first = groups
        .first()
        .map_or("group".to_string(), |group| kind(group));
    let noun = if groups.iter().all(|group| kind(group) == first) {
        first
    } else {
        "group".to_string()
    };
    if groups.len() == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", groups.len())
    }
}

/// `a, b, c` or `a, b, c and 17 more`: names (topics) in a message, at most `shown`, each
/// escaped.
pub fn name_list(names: &[&str], shown: usize) -> String {
    let listed: Vec<String> = names
        .iter()
        .take(shown)
        .map(|name| name.escape_default().to_string())
        .collect();
    match names.len().saturating_sub(shown) {
        0 => listed.join(", "),
        more => format!("{} and {more} more", listed.join(", ")),
    }
}

/// `0,1,2` as messages write a replica list, `none` for an empty one.
pub fn id_list(ids: &[i32]) -> String {
    if ids.is_empty() {
        return "none".to_string();
    }
    ids.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

/// `0, 3, 7` or `0, 3, 7 and 12 more`: partitions named in a message, at most five.
pub fn partition_list(partitions: &[&Partition]) -> String {
    let shown: Vec<String> = partitions
        .iter()
        .take(5)
        .map(|partition| partition.index.to_string())
        .collect();
    match partitions.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}

/// "1 live broker", "3 live brokers".
pub fn live_brokers(count: usize) -> String {
    if count == 1 {
        "1 live broker".to_string()
    } else {
        format!("{count} live brokers")
    }
}

/// How many of a topic's partitions: `its only partition`, `all 50 of its partitions`, `3 of
/// its 50 partitions`.
pub fn some_of(count: usize, total: usize) -> String {
    match (count, total) {
        (1, 1) => "its only partition".to_string(),
        (2, 2) => "both of its partitions".to_string(),
        _ if count == total => format!("all {total} of its partitions"),
        (1, _) => format!("1 of its {total} partitions"),
        _ => format!("{count} of its {total} partitions"),
    }
}
