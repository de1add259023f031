use super::*;

fn release_dumps() -> Vec<(KafkaVersion, serde_json::Value)> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/data");
    let mut dumps = Vec::new();
    for entry in std::fs::read_dir(&data).expect("catalog/data exists") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(minor) = name
            .strip_prefix("kafka-")
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        let version = KafkaVersion::parse(minor).expect("a release the tables know");
        let dump = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        dumps.push((version, dump));
    }
    dumps.sort_by_key(|(version, _)| *version);
    dumps
}

#[test]
fn keys_are_sorted_for_binary_search() {
    assert!(KEYS.windows(2).all(|pair| pair[0].name < pair[1].name));
}

#[test]
fn versions_are_every_dumped_release_in_order() {
    let dumped: Vec<KafkaVersion> = release_dumps().into_iter().map(|(v, _)| v).collect();
    assert_eq!(dumped, VERSIONS);
    assert!(VERSIONS.len() >= 16);
    assert!(VERSIONS.windows(2).all(|pair| pair[0] < pair[1]));
}

/// The generated tables say exactly what each release's own dump says, key by key.
#[test]
fn tables_agree_with_every_release_dump() {
    for (version, dump) in release_dumps() {
        let configs = dump["configs"].as_array().expect("configs");
        assert_eq!(keys(version).count(), configs.len(), "{version}");
        for config in configs {
            let name = config["name"].as_str().unwrap();
            let spec = spec(name, version).unwrap_or_else(|| panic!("{name} in {version}"));
            assert_eq!(
                spec.config_type.kafka_name(),
                config["type"].as_str().unwrap(),
                "{name} {version}"
            );
            let expected_default = match (&config["required"], &config["default"]) {
                (serde_json::Value::Bool(true), _) => Default::Required,
                (_, serde_json::Value::Null) => Default::Null,
                (_, value) => Default::Value(value.as_str().unwrap().to_owned().leak()),
            };
            assert_eq!(spec.default, expected_default, "{name} {version}");
            let kind = config["validator"]["kind"].as_str();
            let matches = matches!(
                (kind, spec.validator),
                (None, Validator::None)
                    | (Some("range"), Validator::Range { .. })
                    | (Some("valid_string"), Validator::ValidString(_))
                    | (
                        Some("case_insensitive_valid_string"),
                        Validator::CaseInsensitiveValidString(_)
                    )
                    | (
                        Some("valid_list"),
                        Validator::ValidList(_) | Validator::StrictList { .. }
                    )
                    | (Some("non_empty_string"), Validator::NonEmptyString)
                    | (Some("non_null"), Validator::NonNull)
                    | (Some("lambda" | "other"), Validator::Custom { .. })
            );
            assert!(
                matches,
                "{name} {version}: {kind:?} vs {:?}",
                spec.validator
            );
        }
    }
}

#[test]
fn versions_parse_as_users_write_them() {
    let v41 = KafkaVersion::new(4, 1);
    assert_eq!(KafkaVersion::parse("4.1"), Ok(v41));
    assert_eq!(KafkaVersion::parse("4.1.2"), Ok(v41));
    assert_eq!(KafkaVersion::parse(" 4.1 "), Ok(v41));
    for bad in [
        "4", "4.", "4.1.", "4.1.2.3", "four", "1.0", "4.1-IV0", "", "4.1.x",
    ] {
        assert!(KafkaVersion::parse(bad).is_err(), "{bad:?}");
    }
    let message = KafkaVersion::parse("1.0").unwrap_err().to_string();
    assert!(
        message.contains("2.8") && message.contains("4.4"),
        "{message}"
    );
}

#[test]
fn defaults_and_removals_follow_the_release() {
    let v39 = KafkaVersion::new(3, 9);
    let v40 = KafkaVersion::new(4, 0);
    assert_eq!(
        default_value("offsets.topic.replication.factor", v39),
        Some("3")
    );
    assert!(spec("zookeeper.connect", v39).is_some());
    assert!(spec("zookeeper.connect", v40).is_none());
    assert_eq!(spec("node.id", v40).unwrap().default, Default::Required);
    assert_eq!(
        default_value("num.recovery.threads.per.data.dir", v39),
        Some("1")
    );
    assert_eq!(
        default_value("num.recovery.threads.per.data.dir", v40),
        Some("2")
    );
    let releases: Vec<_> = entry("zookeeper.connect").unwrap().releases().collect();
    assert_eq!(releases.last(), Some(&KafkaVersion::LAST_WITH_ZOOKEEPER));
}

#[test]
fn release_index_is_the_place_in_versions() {
    // Every number a version can be written with, in the table and beyond it.
    for major in 0..=u8::MAX {
        for minor in 0..=40 {
            let version = KafkaVersion::new(major, minor);
            let searched = VERSIONS.binary_search(&version).ok().map(|i| i as u32);
            assert_eq!(version.release_index(), searched, "{version}");
        }
    }
}

#[test]
fn required_keys_are_the_keys_without_a_default_of_each_release() {
    for version in VERSIONS.iter().copied().chain([KafkaVersion::new(9, 9)]) {
        let without_default: Vec<&str> = keys(version)
            .filter(|(_, spec)| spec.default == Default::Required)
            .map(|(key, _)| key)
            .collect();
        assert_eq!(required_keys(version), without_default, "{version}");
    }
    // KRaft-only releases refuse to start without a node's roles and id.
    assert_eq!(
        required_keys(KafkaVersion::new(4, 0)),
        ["node.id", "process.roles"]
    );
}
