//! With `Options::retain` other than `All`, a check handles each folder's cluster as soon as
//! the walk has left it and keeps of each file only what output shows: `full`'s findings
//! drawn then, positions for the other formats. What it prints must be what a whole-tree
//! check prints, byte for byte, in every format.

use std::path::{Path, PathBuf};

use kafkalint::{Options, Report, Retain, output};
use proptest::prelude::*;

fn try_check(root: &Path, retain: Retain) -> Result<Report, kafkalint::Error> {
    let options = Options {
        retain,
        ..Options::default()
    };
    kafkalint::check(&[root.to_path_buf()], &options)
}

fn check(root: &Path, retain: Retain) -> Report {
    try_check(root, retain).expect("the tree checks")
}

type Format = fn(&Report) -> String;

const STYLE: output::FullStyle = output::FullStyle {
    color: false,
    width: 100,
};

/// Each format with what the command line keeps of the files for it.
const FORMATS: &[(&str, Retain, Format)] = &[
    ("json", Retain::Positions, output::json),
    ("full", Retain::Drawn(STYLE), |report| {
        output::full(report, STYLE)
    }),
    ("concise", Retain::Positions, |report| {
        output::concise(
            report,
            output::ConciseStyle {
                show_help: true,
                ..Default::default()
            },
        )
    }),
    ("github", Retain::Positions, output::github),
    ("sarif", Retain::Positions, output::sarif),
];

fn assert_same_output(root: &Path) -> Report {
    let whole = check(root, Retain::All);
    assert!(!whole.diagnostics.is_empty(), "the tree has findings");
    let mut batched = None;
    for (format, retain, render) in FORMATS {
        let kept = check(root, *retain);
        assert_eq!(whole.files.len(), kept.files.len());
        assert_eq!(whole.skipped, kept.skipped);
        let (expected, actual) = (render(&whole), render(&kept));
        assert!(
            expected == actual,
            "--format {format} differs when checked in batches:\n{}",
            first_difference(&expected, &actual)
        );
        batched = Some(kept);
    }
    batched.expect("formats were rendered")
}

fn first_difference(expected: &str, actual: &str) -> String {
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    format!(
        "line {}:\n  whole:   {:?}\n  batched: {:?}",
        line + 1,
        expected.lines().nth(line),
        actual.lines().nth(line)
    )
}

#[test]
fn every_fixture_reads_the_same_checked_in_batches() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    assert_same_output(&fixtures);
}

fn fixture(path: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(path);
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn write(root: &Path, path: &str, bytes: &[u8]) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A tree of many more entries than one read batch holds, with every shape discovery groups
/// apart: folders of brokers with findings, lone brokers of sibling folders that form one
/// cluster, a lone broker of its own, a folder with subfolders between its files, a folder of
/// components beside brokers, a compose file beside properties, a skipped binary file.
#[test]
fn a_large_tree_of_every_shape_reads_the_same_checked_in_batches() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    let seed: Vec<Vec<u8>> = (0..3)
        .map(|n| fixture(&format!("seed-zk-3-brokers/server-{n}.properties")))
        .collect();
    for cluster in 0..120 {
        for (n, bytes) in seed.iter().enumerate() {
            write(
                root,
                &format!("estate/c{cluster:03}/server-{n}.properties"),
                bytes,
            );
        }
    }
    // Lone nodes in sibling folders naming one ZooKeeper ensemble: one cluster at the end.
    for (n, bytes) in seed.iter().enumerate() {
        write(root, &format!("estate/c050x/b{n}/server.properties"), bytes);
    }
    write(root, "estate/c060/alone/server.properties", &seed[0]);
    // A folder's files before and after one of its subfolders in walk order.
    write(root, "estate/c070/a-server.properties", &seed[0]);
    write(root, "estate/c070/m/server-0.properties", &seed[1]);
    write(root, "estate/c070/m/server-1.properties", &seed[2]);
    write(root, "estate/c070/z-server.properties", &seed[1]);
    for file in ["connect-distributed.properties", "server-0.properties"] {
        let bytes = fixture(&format!("component-internal-topic-replication/bad/{file}"));
        write(root, &format!("estate/c080/{file}"), &bytes);
    }
    write(
        root,
        "estate/c090/docker-compose.yml",
        &fixture("internal-topic-replication/bad-compose/docker-compose.yml"),
    );
    write(root, "estate/c090/server-0.properties", &seed[0]);
    write(root, "estate/c090/server-1.properties", &seed[1]);
    write(root, "estate/c100/server-9.properties", b"\0\x01binary");
    let report = assert_same_output(root);
    assert!(report.clusters.len() > 120);
    assert_eq!(report.skipped.len(), 1);
}

/// Where a generated file lies: the shapes discovery groups apart (a folder of brokers, lone
/// brokers of sibling folders, a subfolder inside a cluster's folder, KRaft samples, a
/// compose file, components, a file named for no node), under one of a few sites.
fn place() -> impl Strategy<Value = String> {
    let shape = (0usize..10, 0usize..4).prop_map(|(shape, n)| match shape {
        0 => format!("c/server-{n}.properties"),
        1 => format!("brokers/b{n}/server.properties"),
        2 => format!("c/sub/broker-{n}.properties"),
        3 => {
            ["kraft/server", "kraft/broker", "kraft/controller"][n % 3].to_string() + ".properties"
        }
        4 => "c/docker-compose.yml".to_string(),
        5 => "c/connect-distributed.properties".to_string(),
        6 => format!("c/app-{n}.properties"),
        7 => format!("q/controller-{n}.properties"),
        8 => format!("q/broker-{n}.properties"),
        _ => format!("d{n}/server.properties"),
    });
    (0usize..3, shape).prop_map(|(site, shape)| format!("site{site}/{shape}"))
}

/// What a generated file holds: a fixture's bytes, cut short or with noise put in.
fn contents() -> impl Strategy<Value = Vec<u8>> {
    let fixtures: Vec<Vec<u8>> = [
        "seed-zk-3-brokers/server-0.properties",
        "seed-zk-3-brokers/server-1.properties",
        "quorum-size/bad/broker-3.properties",
        "quorum-size/bad/controller-1.properties",
        "component-internal-topic-replication/bad/connect-distributed.properties",
        "internal-topic-replication/bad-compose/docker-compose.yml",
        "component-internal-topic-replication/bad-compose-connect/docker-compose.yml",
    ]
    .iter()
    .map(|path| fixture(path))
    .collect();
    (
        prop::sample::select(fixtures),
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<u8>(), 0..6),
        any::<bool>(),
    )
        .prop_map(|(mut bytes, at, noise, cut)| {
            let at = at.index(bytes.len() + 1);
            if cut {
                bytes.truncate(at);
            } else {
                bytes.splice(at..at, noise);
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any tree of such files: every format prints the same checked in batches as whole, and
    /// a tree that cannot be checked gives the same error.
    #[test]
    fn any_tree_reads_the_same_checked_in_batches(
        files in prop::collection::vec((place(), contents()), 1..14)
    ) {
        let root = tempfile::tempdir().unwrap();
        for (path, bytes) in &files {
            write(root.path(), path, bytes);
        }
        let whole = try_check(root.path(), Retain::All);
        for (format, retain, render) in FORMATS {
            match (&whole, try_check(root.path(), *retain)) {
                (Ok(whole), Ok(kept)) => {
                    let (expected, actual) = (render(whole), render(&kept));
                    prop_assert!(
                        expected == actual,
                        "--format {} differs:\n{}",
                        format,
                        first_difference(&expected, &actual)
                    );
                }
                (Err(whole), Err(kept)) => prop_assert_eq!(whole.to_string(), kept.to_string()),
                (whole, kept) => prop_assert!(
                    false,
                    "--format {}: {:?} whole, {:?} in batches",
                    format,
                    whole.as_ref().err().map(ToString::to_string),
                    kept.err().map(|error| error.to_string())
                ),
            }
        }
    }
}
