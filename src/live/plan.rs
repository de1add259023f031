//! The reassignment that raises an internal topic's replication factor: the JSON that
//! `kafka-reassign-partitions.sh --reassignment-json-file PLAN --execute` takes
//! (`{"version":1,"partitions":[{"topic":..,"partition":..,"replicas":[..]}]}`,
//! `ReassignPartitionsCommand.parsePartitionReassignmentData`). kafkalint writes it; it never
//! applies it.
//!
//! What the tool accepts shapes what the plan holds (apache/kafka
//! tools/src/main/java/org/apache/kafka/tools/reassign/ReassignPartitionsCommand.java, tag
//! 3.9.0, `executeAssignment`): every broker a plan names must be one `describeCluster` lists,
//! a live one (`verifyBrokerIds`: "Unknown broker id N"), so a partition with a replica on a
//! broker that is down is left out, not planned; and it refuses to start beside reassignments
//! in progress unless `--additional` is given, so a partition being moved is left out too. A
//! throttle is no part of the file: it is the tool's `--throttle` flag (bytes per second),
//! which sets the brokers' and topics' replication throttles until `--verify` sees the moves
//! done and removes them.

use std::collections::HashMap;

use crate::live::snapshot::{Partition, Snapshot};
use crate::rules::live_internal_topic_replication::Raise;

/// A reassignment of partitions to more replicas, and the partitions it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The rule whose findings it resolves.
    pub rule: &'static str,
    pub moves: Vec<Move>,
    /// Partitions short of their target that the plan does not touch, and why.
    pub left_out: Vec<LeftOut>,
    /// Partitions the plan raises, but not to their target: too few brokers are live.
    pub short: Vec<Short>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub topic: String,
    pub partition: i32,
    /// Today's replicas first, in their order (the leader stays preferred), then the new ones.
    pub replicas: Vec<i32>,
}

/// A partition short of its target that the plan leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftOut {
    pub topic: String,
    pub partition: i32,
    pub why: Why,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// None of its replicas is on a live broker: it has no copy to raise from.
    NoLiveReplica(Vec<i32>),
    /// Some of its replicas are on brokers that are not live: Kafka's tool refuses a plan
    /// naming them.
    ReplicaNotLive(Vec<i32>),
    /// A reassignment of it is in progress.
    BeingMoved,
    /// Every live broker holds a replica of it already.
    NoBrokerToAdd,
}

/// A topic the plan raises to fewer replicas than intended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Short {
    pub topic: String,
    pub target: usize,
    /// The fewest replicas a partition of it has once the plan is done.
    pub reached: usize,
}

impl Plan {
    /// Each partition of each raised topic with fewer replicas than its target keeps its
    /// replicas and gets live brokers until it has the target, or no live broker is left. A
    /// new replica goes first to a rack the partition has no replica in (brokers without a
    /// rack count as racks of their own), as Kafka's placers spread a partition's replicas
    /// over racks before brokers (apache/kafka metadata/src/main/java/org/apache/kafka/
    /// metadata/placement/StripedReplicaPlacer.java and server-common/src/main/java/org/
    /// apache/kafka/admin/AdminUtils.java `assignReplicasToBrokersRackAware`, tag 3.9.0);
    /// then to the broker that holds the fewest of the topic's replicas so far, ties going
    /// round the brokers from the partition's index, so that leaders and followers spread
    /// evenly. `None` when no topic is short.
    pub fn raising(snapshot: &Snapshot, raises: &[Raise]) -> Option<Plan> {
        if raises.is_empty() {
            return None;
        }
        let mut live: Vec<i32> = snapshot.brokers.iter().map(|broker| broker.id).collect();
        live.sort_unstable();
        let racks: HashMap<i32, String> = snapshot
            .brokers
            .iter()
            .map(|broker| {
                let rack = match &broker.rack {
                    Some(rack) => format!("rack {rack}"),
                    None => format!("broker {}", broker.id),
                };
                (broker.id, rack)
            })
            .collect();
        let mut plan = Plan {
            rule: crate::rules::live_internal_topic_replication::RULE.name,
            moves: Vec::new(),
            left_out: Vec::new(),
            short: Vec::new(),
        };
        for raise in raises {
            let topic = &raise.topic.name;
            let mut held: Vec<usize> = live
                .iter()
                .map(|id| {
                    let holds = |partition: &&Partition| partition.replicas.contains(id);
                    raise.topic.partitions.iter().filter(holds).count()
                })
                .collect();
            let mut partitions: Vec<&Partition> = raise.topic.partitions.iter().collect();
            partitions.sort_by_key(|partition| partition.index);
            let mut reached = usize::MAX;
            for partition in partitions {
                if partition.replicas.len() >= raise.target {
                    continue;
                }
                let leave_out = |why: Why| LeftOut {
                    topic: topic.clone(),
                    partition: partition.index,
                    why,
                };
                let not_live: Vec<i32> = partition
                    .replicas
                    .iter()
                    .copied()
                    .filter(|id| !live.contains(id))
                    .collect();
                if being_moved(snapshot, topic, partition.index) {
                    plan.left_out.push(leave_out(Why::BeingMoved));
                } else if not_live.len() == partition.replicas.len() {
                    plan.left_out.push(leave_out(Why::NoLiveReplica(not_live)));
                } else if !not_live.is_empty() {
                    plan.left_out.push(leave_out(Why::ReplicaNotLive(not_live)));
                } else {
                    let replicas = added(partition, raise.target, &live, &racks, &mut held);
                    if replicas.len() == partition.replicas.len() {
                        plan.left_out.push(leave_out(Why::NoBrokerToAdd));
                        continue;
                    }
                    reached = reached.min(replicas.len());
                    plan.moves.push(Move {
                        topic: topic.clone(),
                        partition: partition.index,
                        replicas,
                    });
                }
            }
            if reached < raise.target {
                plan.short.push(Short {
                    topic: topic.clone(),
                    target: raise.target,
                    reached,
                });
            }
        }
        Some(plan)
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
        let moved: Vec<(&str, i32)> = self
            .moves
            .iter()
            .map(|item| (item.topic.as_str(), item.partition))
            .collect();
        per_topic(&moved)
    }

    /// One line for each reason partitions are left out, and for each topic raised short of
    /// its target: what it is and what to do.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let mut reasons: Vec<&Why> = self.left_out.iter().map(|left| &left.why).collect();
        reasons.sort();
        reasons.dedup_by(|a, b| std::mem::discriminant(*a) == std::mem::discriminant(*b));
        for reason in reasons {
            let same = |left: &&LeftOut| {
                std::mem::discriminant(&left.why) == std::mem::discriminant(reason)
            };
            let which: Vec<(&str, i32)> = self
                .left_out
                .iter()
                .filter(same)
                .map(|left| (left.topic.as_str(), left.partition))
                .collect();
            let brokers = |pick: fn(&Why) -> Option<&Vec<i32>>| {
                let mut ids: Vec<i32> = self
                    .left_out
                    .iter()
                    .filter_map(|left| pick(&left.why))
                    .flatten()
                    .copied()
                    .collect();
                ids.sort_unstable();
                ids.dedup();
                ids.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
            };
            let partitions = per_topic_named(&which);
            notes.push(match reason {
                Why::NoLiveReplica(_) => format!(
                    "left out {partitions}: no replica of them is on a live broker (only on broker(s) {}), \
                     so there is no copy to raise from; start the broker, then run --fix again",
                    brokers(|why| match why {
                        Why::NoLiveReplica(ids) => Some(ids),
                        _ => None,
                    })
                ),
                Why::ReplicaNotLive(_) => format!(
                    "left out {partitions}: a replica of them is on broker(s) {}, which are not live, and \
                     kafka-reassign-partitions.sh refuses a plan naming a broker that is not live; start it, \
                     then run --fix again",
                    brokers(|why| match why {
                        Why::ReplicaNotLive(ids) => Some(ids),
                        _ => None,
                    })
                ),
                Why::BeingMoved => format!(
                    "left out {partitions}: a reassignment of them is in progress; let it finish \
                     (kafka-reassign-partitions.sh --verify), then run --fix again"
                ),
                Why::NoBrokerToAdd => format!(
                    "left out {partitions}: every live broker holds a replica of them already; start the \
                     cluster's other brokers, then run --fix again"
                ),
            });
        }
        for short in &self.short {
            notes.push(format!(
                "the plan raises {} to {} replicas, not the {} intended: too few brokers are live; run --fix \
                 again when they are",
                short.topic, short.reached, short.target
            ));
        }
        notes
    }
}

/// Whether a reassignment of `topic`-`partition` is in progress.
fn being_moved(snapshot: &Snapshot, topic: &str, partition: i32) -> bool {
    snapshot
        .reassignments
        .iter()
        .flatten()
        .any(|moving| moving.topic == topic && moving.partition == partition)
}

/// `partition`'s replicas and the live brokers added to reach `target`: a rack it has no
/// replica in first, then the broker holding the fewest of the topic's replicas, ties going
/// round from the partition's index.
fn added(
    partition: &Partition,
    target: usize,
    live: &[i32],
    racks: &HashMap<i32, String>,
    held: &mut [usize],
) -> Vec<i32> {
    let mut replicas = partition.replicas.clone();
    let start = partition.index.unsigned_abs() as usize % live.len().max(1);
    while replicas.len() < target {
        let used: Vec<&String> = replicas.iter().filter_map(|id| racks.get(id)).collect();
        let chosen = (0..live.len())
            .map(|step| (start + step) % live.len())
            .filter(|at| !replicas.contains(&live[*at]))
            .min_by_key(|at| {
                let rack_used = racks
                    .get(&live[*at])
                    .is_some_and(|rack| used.contains(&rack));
                (rack_used, held[*at])
            });
        let Some(at) = chosen else { break };
        held[at] += 1;
        replicas.push(live[at]);
    }
    replicas
}

/// `50 partitions of __consumer_offsets and 1 partition of _schemas`.
fn per_topic(items: &[(&str, i32)]) -> String {
    let parts: Vec<String> = grouped(items)
        .iter()
        .map(|(topic, partitions)| match partitions.len() {
            1 => format!("1 partition of {topic}"),
            count => format!("{count} partitions of {topic}"),
        })
        .collect();
    crate::rules::and_list(&parts)
}

/// `partitions 7, 12 of __consumer_offsets`, at most five numbers a topic.
fn per_topic_named(items: &[(&str, i32)]) -> String {
    let parts: Vec<String> = grouped(items)
        .iter()
        .map(|(topic, partitions)| {
            let shown: Vec<String> = partitions.iter().take(5).map(i32::to_string).collect();
            let more = match partitions.len().saturating_sub(5) {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            let noun = if partitions.len() == 1 {
                "partition"
            } else {
                "partitions"
            };
            format!("{noun} {}{more} of {topic}", shown.join(", "))
        })
        .collect();
    crate::rules::and_list(&parts)
}

/// The items by topic, topics in their first order.
fn grouped<'a>(items: &[(&'a str, i32)]) -> Vec<(&'a str, Vec<i32>)> {
    let mut topics: Vec<(&str, Vec<i32>)> = Vec::new();
    for (topic, partition) in items {
        match topics.iter_mut().find(|(name, _)| name == topic) {
            Some((_, partitions)) => partitions.push(*partition),
            None => topics.push((topic, vec![*partition])),
        }
    }
    topics
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::snapshot::{Broker, Reassignment, Topic};

    fn broker(id: i32, rack: Option<&str>) -> Broker {
        Broker {
            id,
            host: "127.0.0.1".into(),
            port: 9092 + id,
            rack: rack.map(str::to_string),
            unreached: None,
            groups_unknown: None,
            line: 0..0,
        }
    }

    fn topic(replicas: &[&[i32]]) -> Topic {
        Topic {
            name: "__consumer_offsets".into(),
            internal: true,
            min_insync_replicas: None,
            partition_count: replicas.len(),
            partitions: replicas
                .iter()
                .enumerate()
                .map(|(index, replicas)| Partition {
                    index: index as i32,
                    leader: replicas.first().copied(),
                    replicas: replicas.to_vec(),
                    isr: replicas.to_vec(),
                    offline: Vec::new(),
                    line: 0..0,
                })
                .collect(),
            overrides: None,
            line: 0..0,
        }
    }

    fn raise(topic: &Topic, target: usize) -> Raise<'_> {
        Raise {
            topic,
            key: "offsets.topic.replication.factor".into(),
            lost: "some consumer groups stop",
            factor: 1,
            target,
            intended: None,
        }
    }

    fn snapshot(brokers: Vec<Broker>) -> Snapshot {
        Snapshot {
            bootstrap: "127.0.0.1:9092".into(),
            brokers,
            ..Snapshot::default()
        }
    }

    /// Broker 2 is down: partition 0's only replica is on it, partition 1 has one there too;
    /// neither is planned (Kafka's tool refuses a broker that is not live), each is named, and
    /// partition 2 gets the only live broker it lacks: short of the 3 intended, which is said.
    #[test]
    fn a_broker_that_is_down_is_never_in_the_plan() {
        let snapshot = snapshot(vec![broker(0, None), broker(1, None)]);
        let topic = topic(&[&[2], &[0, 2], &[1]]);
        let plan = Plan::raising(&snapshot, &[raise(&topic, 3)]).unwrap();
        assert_eq!(
            plan.moves,
            [Move {
                topic: "__consumer_offsets".into(),
                partition: 2,
                replicas: vec![1, 0]
            }]
        );
        let why: Vec<&Why> = plan.left_out.iter().map(|left| &left.why).collect();
        assert_eq!(
            why,
            [&Why::NoLiveReplica(vec![2]), &Why::ReplicaNotLive(vec![2])]
        );
        let notes = plan.notes().join("\n");
        assert!(notes.contains("left out partition 0 of __consumer_offsets: no replica of them is on a live broker (only on broker(s) 2)"), "{notes}");
        assert!(
            notes.contains(
                "left out partition 1 of __consumer_offsets: a replica of them is on broker(s) 2"
            ),
            "{notes}"
        );
        assert!(
            notes.contains("raises __consumer_offsets to 2 replicas, not the 3 intended"),
            "{notes}"
        );
    }

    /// Racks a, a, b, b: a partition on a broker of rack a gets one of rack b first.
    #[test]
    fn a_new_replica_goes_to_a_rack_the_partition_is_not_in() {
        let snapshot = snapshot(vec![
            broker(0, Some("a")),
            broker(1, Some("a")),
            broker(2, Some("b")),
            broker(3, Some("b")),
        ]);
        let topic = topic(&[&[0], &[1], &[2], &[3]]);
        let plan = Plan::raising(&snapshot, &[raise(&topic, 2)]).unwrap();
        let rack = |id: i32| if id < 2 { 'a' } else { 'b' };
        for item in &plan.moves {
            assert_eq!(item.replicas.len(), 2, "{item:?}");
            assert_ne!(rack(item.replicas[0]), rack(item.replicas[1]), "{item:?}");
        }
        assert_eq!(plan.moves.len(), 4);
    }

    /// A partition being moved is left out and named; the others are planned.
    #[test]
    fn a_partition_being_moved_is_not_planned_over() {
        let mut snapshot = snapshot(vec![broker(0, None), broker(1, None), broker(2, None)]);
        snapshot.reassignments = Some(vec![Reassignment {
            topic: "__consumer_offsets".into(),
            partition: 1,
            replicas: vec![1, 2],
            adding: vec![2],
            removing: vec![],
            line: 0..0,
        }]);
        let topic = topic(&[&[0], &[1]]);
        let plan = Plan::raising(&snapshot, &[raise(&topic, 3)]).unwrap();
        assert_eq!(plan.moves.len(), 1);
        assert_eq!(plan.moves[0].partition, 0);
        assert_eq!(plan.left_out[0].why, Why::BeingMoved);
        assert!(
            plan.notes()[0]
                .starts_with("left out partition 1 of __consumer_offsets: a reassignment")
        );
    }
}
