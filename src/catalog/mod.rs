//! Kafka's own configuration catalogue: the broker keys and their defaults.

/// Kafka's default for a broker key, in the string form a file would use; `None` when the key
/// has no default or is not known.
pub fn default_value(key: &str) -> Option<&'static str> {
    DEFAULTS
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|index| DEFAULTS[index].1)
}

/// Defaults of the keys the rules reason about (Kafka 4.x broker ConfigDef), sorted by key.
const DEFAULTS: &[(&str, &str)] = &[
    ("default.replication.factor", "1"),
    ("min.insync.replicas", "1"),
    ("offsets.topic.num.partitions", "50"),
    ("offsets.topic.replication.factor", "3"),
    ("share.coordinator.state.topic.min.isr", "2"),
    ("share.coordinator.state.topic.num.partitions", "50"),
    ("share.coordinator.state.topic.replication.factor", "3"),
    ("transaction.state.log.min.isr", "2"),
    ("transaction.state.log.num.partitions", "50"),
    ("transaction.state.log.replication.factor", "3"),
];

#[cfg(test)]
mod tests {
    #[test]
    fn table_is_sorted_for_binary_search() {
        assert!(super::DEFAULTS.windows(2).all(|pair| pair[0].0 < pair[1].0));
    }
}
