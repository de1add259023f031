//! The reassignment that raises an internal topic's replication factor: the JSON that
//! `kafka-reassign-partitions.sh --reassignment-json-file PLAN --execute` takes
//! (`{"version":1,"partitions":[{"topic":..,"partition":..,"replicas":[..]}]}`,
//! `ReassignPartitionsCommand.parsePartitionReassignmentData`). kafkalint writes it; it never
//! applies it.

use crate::live::snapshot::Snapshot;
use crate::rules::live_internal_topic_replication::Raise;

/// A reassignment of partitions to more replicas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The rule whose findings it resolves.
    pub rule: &'static str,
    pub moves: Vec<Move>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub topic: String,
    pub partition: i32,
    /// Today's replicas first, in their order (the leader stays preferred), then the new ones.
    pub replicas: Vec<i32>,
}

impl Plan {
    /// Each partition of each raised topic with fewer replicas than its target gets the live
    /// brokers that hold the fewest of the topic's replicas so far, ties going round the brokers
    /// from the partition's index, so that leaders and followers spread evenly.
    pub fn raising(snapshot: &Snapshot, raises: &[Raise]) -> Option<Plan> {
        let mut live: Vec<i32> = snapshot.brokers.iter().map(|broker| broker.id).collect();
        live.sort_unstable();
        let mut moves = Vec::new();
        for raise in raises {
            let mut held: Vec<usize> = live
                .iter()
                .map(|id| {
                    raise
                        .topic
                        .partitions
                        .iter()
                        .filter(|partition| partition.replicas.contains(id))
                        .count()
                })
                .collect();
            let mut partitions: Vec<_> = raise.topic.partitions.iter().collect();
            partitions.sort_by_key(|partition| partition.index);
            for partition in partitions {
                if partition.replicas.len() >= raise.target {
                    continue;
                }
                let mut replicas = partition.replicas.clone();
                while replicas.len() < raise.target {
                    let start = partition.index.unsigned_abs() as usize % live.len();
                    let chosen = (0..live.len())
                        .map(|step| (start + step) % live.len())
                        .filter(|at| !replicas.contains(&live[*at]))
                        .min_by_key(|at| held[*at]);
                    let Some(at) = chosen else { break };
                    held[at] += 1;
                    replicas.push(live[at]);
                }
                moves.push(Move {
                    topic: raise.topic.name.clone(),
                    partition: partition.index,
                    replicas,
                });
            }
        }
        (!moves.is_empty()).then_some(Plan {
            rule: crate::rules::live_internal_topic_replication::RULE.name,
            moves,
        })
    }

    /// The plan as `kafka-reassign-partitions.sh` reads it, one partition a line.
    pub fn to_json(&self) -> String {
        let lines: Vec<String> = self
            .moves
            .iter()
            .map(|item| {
                let replicas: Vec<String> = item.replicas.iter().map(i32::to_string).collect();
                format!(
                    "{{\"topic\":{},\"partition\":{},\"replicas\":[{}]}}",
                    serde_json::Value::from(item.topic.as_str()),
                    item.partition,
                    replicas.join(",")
                )
            })
            .collect();
        format!(
            "{{\"version\":1,\"partitions\":[\n{}\n]}}\n",
            lines.join(",\n")
        )
    }

    /// How many partitions of which topics it raises: `50 partitions of __consumer_offsets`.
    pub fn summary(&self) -> String {
        let mut topics: Vec<(&str, usize)> = Vec::new();
        for item in &self.moves {
            match topics.iter_mut().find(|(topic, _)| *topic == item.topic) {
                Some((_, count)) => *count += 1,
                None => topics.push((&item.topic, 1)),
            }
        }
        let parts: Vec<String> = topics
            .iter()
            .map(|(topic, count)| {
                if *count == 1 {
                    format!("1 partition of {topic}")
                } else {
                    format!("{count} partitions of {topic}")
                }
            })
            .collect();
        crate::rules::and_list(&parts)
    }
}
