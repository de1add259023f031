//! Snapshot tests over `fixtures/`: the `full` and `json` output of every fixture cluster, and
//! for `fixtures/<rule>/{bad,good}` that the bad cluster triggers the rule and the good one does not.

use std::path::Path;

use kafkalint::output::{FullStyle, full, json};

mod support;

/// A fixture checked against one Kafka release names it in a `.kafka-version` file, as
/// `--kafka-version` would.
fn fixture_options(cluster: &Path) -> kafkalint::Options {
    let kafka_version = std::fs::read_to_string(cluster.join(".kafka-version"))
        .ok()
        .map(|text| kafkalint::catalog::KafkaVersion::parse(text.trim()).unwrap());
    kafkalint::Options {
        kafka_version,
        ..kafkalint::Options::default()
    }
}

fn snapshot_name(path: &Path) -> String {
    path.strip_prefix("fixtures")
        .unwrap()
        .to_string_lossy()
        .replace(['/', '\\'], "__")
}

#[test]
fn fixture_snapshots() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let clusters = support::fixture_clusters();
    assert!(clusters.len() >= 16, "fixtures found: {clusters:?}");
    for cluster in clusters {
        let report = support::check_folder(&cluster, &fixture_options(&cluster)).report;
        let name = snapshot_name(&cluster);
        insta::assert_snapshot!(
            format!("{name}__full"),
            full(
                &report,
                FullStyle {
                    color: false,
                    width: 100
                }
            )
        );
        insta::assert_snapshot!(format!("{name}__json"), json(&report));

        let rule = cluster
            .parent()
            .and_then(|p| p.file_name())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let variant = cluster.file_name().unwrap().to_string_lossy().into_owned();
        if kafkalint::rules::find(&rule).is_some() {
            let hits = report.diagnostics.iter().filter(|d| d.rule == rule).count();
            if variant.starts_with("bad") {
                assert!(hits > 0, "{}: expected {rule}", cluster.display());
            } else {
                assert_eq!(hits, 0, "{}: expected no {rule}", cluster.display());
            }
        }
    }
}

#[test]
fn the_seed_is_caught_at_each_brokers_replication_line_and_its_twin_is_clean() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let options = kafkalint::Options::default();
    let report = kafkalint::check(&["fixtures/seed-zk-3-brokers".into()], &options).unwrap();
    for broker in 0..3 {
        let file = format!("fixtures/seed-zk-3-brokers/server-{broker}.properties");
        // One finding about the three brokers, with a place in each broker's file.
        let on_offsets_line = report.diagnostics.iter().any(|d| {
            d.rule == "internal-topic-replication"
                && d.key.as_deref() == Some("offsets.topic.replication.factor")
                && d.locations().any(|place| {
                    let source = &report.files[place.label.file];
                    source.path == file && source.bytes[place.label.span.clone()] == *b"1"
                })
        });
        assert!(
            on_offsets_line,
            "the finding points at the RF value of broker {broker}"
        );
    }
    let fixed = kafkalint::check(&["fixtures/seed-zk-3-brokers-fixed".into()], &options).unwrap();
    assert!(fixed.diagnostics.is_empty(), "{:#?}", fixed.diagnostics);
}

/// Brokers in containers of their own (compose services, or one folder per broker whose ports a
/// container maps) neither clash on a port nor share a log directory, whatever they name; the
/// fault is that each advertises its only, inter-broker listener at `localhost`, once per broker.
#[test]
fn containers_are_separate_hosts_that_cannot_replicate_over_localhost() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    for setup in ["bad-compose", "bad-folder-per-broker"] {
        let path = format!("fixtures/localhost-advertised/{setup}");
        let report = kafkalint::check(&[path.clone().into()], &Default::default()).unwrap();
        let count = |rule: &str| report.count_of(rule);
        assert_eq!(count("port-clash-on-host"), 0, "{path}");
        assert_eq!(count("shared-log-dir"), 0, "{path}");
        assert_eq!(count("localhost-advertised"), 3, "{path}");
    }
}
