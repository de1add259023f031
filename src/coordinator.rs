//! Where Kafka places a group's or a transactional producer's coordinator: the leader of one
//! partition of `__consumer_offsets` or `__transaction_state`, chosen by
//! `Utils.abs(id.hashCode()) % partitions` (GroupCoordinator / TransactionStateManager).

use crate::catalog::{self, KafkaVersion};
use crate::cluster::Cluster;
use crate::escape::printable;
use crate::source::SourceFile;

/// Which coordinator: a consumer group's or a transactional id's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coordinated {
    Group,
    TransactionalId,
}

impl Coordinated {
    pub fn topic(self) -> &'static str {
        match self {
            Coordinated::Group => "__consumer_offsets",
            Coordinated::TransactionalId => "__transaction_state",
        }
    }

    pub fn partitions_key(self) -> &'static str {
        match self {
            Coordinated::Group => "offsets.topic.num.partitions",
            Coordinated::TransactionalId => "transaction.state.log.num.partitions",
        }
    }

    pub fn replication_key(self) -> &'static str {
        match self {
            Coordinated::Group => "offsets.topic.replication.factor",
            Coordinated::TransactionalId => "transaction.state.log.replication.factor",
        }
    }

    /// What stops when the coordinator partition has no live replica.
    pub fn outage(self) -> &'static str {
        match self {
            Coordinated::Group => {
                "FindCoordinator answers COORDINATOR_NOT_AVAILABLE: the group can neither join nor commit offsets"
            }
            Coordinated::TransactionalId => {
                "InitProducerId and commits fail with COORDINATOR_NOT_AVAILABLE"
            }
        }
    }

    pub fn noun(self) -> &'static str {
        match self {
            Coordinated::Group => "group",
            Coordinated::TransactionalId => "transactional id",
        }
    }
}

/// Java's `String.hashCode`: `31 * h + c` over the UTF-16 code units, wrapping.
pub fn java_string_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0i32, |hash, unit| {
        hash.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// Kafka's `Utils.abs`: `Math.abs`, except that `Integer.MIN_VALUE` gives 0 (where Math.abs
/// would stay negative).
pub fn kafka_abs(n: i32) -> i32 {
    if n == i32::MIN { 0 } else { n.abs() }
}

/// The partition whose leader coordinates `id`, among `partitions` (at least 1).
pub fn partition_for(id: &str, partitions: u32) -> u32 {
    kafka_abs(java_string_hash(id)).unsigned_abs() % partitions.max(1)
}

/// A value the files give for a key, with the files that give it (by path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromFiles {
    pub value: String,
    pub files: Vec<String>,
    /// No broker file sets it: Kafka's default of the cluster's target release.
    pub default: bool,
}

/// The distinct effective values of `key` on the brokers of `cluster`, each with its files, in
/// file order of first appearance.
pub fn broker_values(cluster: &Cluster, files: &[SourceFile], key: &str) -> Vec<FromFiles> {
    let version: KafkaVersion = cluster.target.version;
    let mut values: Vec<FromFiles> = Vec::new();
    for node in cluster.brokers() {
        let Some(effective) = node.effective(files, key, version) else {
            continue;
        };
        let value = catalog::value::java_trim(effective.value()).to_string();
        let path = files[node.file].path.clone();
        match values.iter_mut().find(|v| v.value == value) {
            Some(existing) => existing.files.push(path),
            None => values.push(FromFiles {
                value,
                files: vec![path],
                default: effective.line().is_none(),
            }),
        }
    }
    values
}

/// What `kafkalint coordinator` says for `id`: the partition for each partition count in play
/// (the flag's, else each cluster's brokers', else Kafka's default), and what a single replica
/// of that partition means.
///
/// The id is shown as Rust's `escape_default` writes it (the formula quotes it as a string);
/// cluster names, values and paths from the files through `printable`.
pub fn explain(
    id: &str,
    kind: Coordinated,
    partitions: Option<u32>,
    clusters: &[Cluster],
    files: &[SourceFile],
) -> String {
    let hash = java_string_hash(id);
    let formula = |count: u32| {
        format!(
            "Utils.abs(\"{}\".hashCode()) % {count} = Utils.abs({hash}) % {count} = {}",
            id.escape_default(),
            partition_for(id, count)
        )
    };
    let headline = |count: u32| {
        format!(
            "{} `{}` -> {} partition {} (of {count})\n  {}\n",
            kind.noun(),
            id.escape_default(),
            kind.topic(),
            partition_for(id, count),
            formula(count)
        )
    };
    let mut out = String::new();
    if let Some(count) = partitions {
        out.push_str(&headline(count));
    } else if clusters.is_empty() {
        let count = catalog::default_value(kind.partitions_key(), KafkaVersion::newest())
            .and_then(|v| v.parse().ok())
            .unwrap_or(50);
        out.push_str(&headline(count));
        out.push_str(&format!(
            "  ({count} is Kafka's default {}; pass --partitions or the cluster's files)\n",
            kind.partitions_key()
        ));
    } else {
        for cluster in clusters {
            out.push_str(&format!("cluster {}:\n", printable(&cluster.name)));
            let counts = broker_values(cluster, files, kind.partitions_key());
            if counts.len() > 1 {
                out.push_str(&format!(
                    "  the brokers disagree on {}: the broker that created {} decided it\n",
                    kind.partitions_key(),
                    kind.topic()
                ));
            }
            for count in &counts {
                let Ok(number) = count.value.parse::<u32>() else {
                    out.push_str(&format!(
                        "  {}={} is not a partition count ({})\n",
                        kind.partitions_key(),
                        printable(&count.value),
                        printable(&count.files.join(", "))
                    ));
                    continue;
                };
                let number = number.max(1);
                out.push_str(&format!("  {}", headline(number)));
                let from = if count.default {
                    "Kafka's default".to_string()
                } else {
                    printable(&count.files.join(", "))
                };
                out.push_str(&format!(
                    "  ({}={number} from {from})\n",
                    kind.partitions_key()
                ));
            }
            for factor in broker_values(cluster, files, kind.replication_key()) {
                if factor.value == "1" {
                    out.push_str(&format!(
                        "  {}=1 ({}): that partition has one replica, so when the broker that \
                         holds it stops, this {} finds no coordinator ({}), while clients whose \
                         partitions live on other brokers carry on\n",
                        kind.replication_key(),
                        printable(&factor.files.join(", ")),
                        kind.noun(),
                        kind.outage()
                    ));
                }
            }
        }
    }
    out.push_str(&format!(
        "The coordinator is the broker that leads that partition of {}; \
         kafka-topics.sh --describe --topic {} shows which one.\n",
        kind.topic(),
        kind.topic()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_and_partitions_follow_java() {
        // The seed's group: "only broker 0 mattered" because partition 49 lived there alone.
        assert_eq!(java_string_hash("testGroup"), -1_202_336_499);
        assert_eq!(partition_for("testGroup", 50), 49);
        // Integer.MIN_VALUE: Utils.abs gives 0, where Math.abs would stay negative.
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
        assert_eq!(partition_for("polygenelubricants", 50), 0);
        // UTF-16 code units, a surrogate pair counting as two.
        assert_eq!(java_string_hash("grüppe"), -1_233_264_812);
        assert_eq!(java_string_hash("😀x"), 54_959_989);
        assert_eq!(partition_for("", 50), 0);
    }
}
