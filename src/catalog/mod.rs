//! Kafka's own configuration catalogue: the broker keys and their defaults.

/// Kafka's default for a broker key, in the string form a file would use; `None` when the key
/// has no default or is not known.
pub fn default_value(key: &str) -> Option<&'static str> {
    DEFAULTS
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|index| DEFAULTS[index].1)
}

/// Defaults of the keys the rules reason about, sorted by key. They are the same in every Kafka
/// release from 2.8 to the newest; a test checks them against the catalogue that `catalog/`
/// dumps from Kafka's own ConfigDef, release by release.
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

    /// Every default in the table is Kafka's, in every release that has the key.
    #[test]
    fn defaults_agree_with_kafkas_config_def_in_every_release() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/data");
        let mut releases = 0;
        for entry in std::fs::read_dir(&data).expect("catalog/data exists") {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !(name.starts_with("kafka-") && name.ends_with(".json")) {
                continue;
            }
            releases += 1;
            let release: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let configs = release["configs"].as_array().expect("configs");
            for (key, default) in super::DEFAULTS {
                let Some(config) = configs.iter().find(|c| c["name"] == *key) else {
                    // Share groups arrived in 4.0: older releases lack those keys.
                    assert!(key.starts_with("share."), "{key} missing from {name}");
                    continue;
                };
                assert_eq!(
                    config["default"].as_str(),
                    Some(*default),
                    "{key} in {name}"
                );
            }
        }
        assert!(releases >= 10, "releases in the catalogue: {releases}");
    }
}
