//! With `Options::retain` other than `All`, a check handles each folder's cluster as soon as
//! the walk has left it and keeps of each file only what output shows: `full`'s findings
//! drawn then, positions for the other formats. What it prints must be what a whole-tree check prints,
//! byte for byte, in every format.

use std::path::{Path, PathBuf};

use kafkalint::{Options, Report, Retain, output};

fn check(root: &Path, retain: Retain) -> Report {
    let options = Options {
        retain,
        ..Options::default()
    };
    kafkalint::check(&[root.to_path_buf()], &options).expect("the tree checks")
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
    ("concise", Retain::Positions, output::concise),
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
