//! kustomize bases and overlays checked as kustomize builds them: the real `kustomize` (v5,
//! from the Go module proxy; `scripts/test-all` installs it) builds each overlay of
//! `tests/kustomize`, and kafkalint reads what it builds as one cluster per overlay. Without
//! kustomize, patch files are never read as whole resources and each overlay is counted as not
//! checked; a remote base is never fetched, with kustomize or without.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kustomize")
}

/// A finding: rule, file, line, message.
type Finding = (String, String, u64, String);

/// `kafkalint check --format json .` in `dir` with `path` as the PATH: the findings, the
/// `not_checked` entries as (file, kind), and what it wrote on standard error.
fn check(dir: &Path, path: &std::ffi::OsStr) -> (Vec<Finding>, Vec<(String, String)>, String) {
    check_args(dir, path, &["."])
}

/// As [`check`], of the paths `args`.
fn check_args(
    dir: &Path,
    path: &std::ffi::OsStr,
    args: &[&str],
) -> (Vec<Finding>, Vec<(String, String)>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "json"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report: Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|error| panic!("{error}: {stderr}"));
    let text = |value: &Value| value.as_str().unwrap_or_default().to_string();
    let findings = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|found| {
            (
                text(&found["rule"]),
                text(&found["file"]),
                found["line"].as_u64().unwrap_or_default(),
                text(&found["message"]),
            )
        })
        .collect();
    let not_checked = report["not_checked"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| (text(&item["file"]), text(&item["kind"])))
                .collect()
        })
        .unwrap_or_default();
    (findings, not_checked, stderr)
}

/// The line of `base/kafka.yaml` that sets the seed, offsets.topic.replication.factor=1.
fn seed_line() -> u64 {
    let base = std::fs::read_to_string(fixture().join("base/kafka.yaml")).unwrap();
    base.lines()
        .position(|line| line.contains("offsets.topic.replication.factor: 1"))
        .unwrap() as u64
        + 1
}

#[test]
fn each_overlay_is_built_as_its_own_cluster_and_findings_point_at_the_base() {
    if !support::external_tools("tests/kustomize.rs") {
        return;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let (findings, not_checked, stderr) = check(&fixture(), &path);
    // The staging overlay keeps the base's factor of 1 on 3 brokers; the production overlay
    // patches it to 3. One finding, on the base file's line, named by the built Kafka.
    let seeds: Vec<&Finding> = findings
        .iter()
        .filter(|(rule, ..)| rule == "internal-topic-replication")
        .collect();
    assert_eq!(seeds.len(), 1, "{findings:?}\n{stderr}");
    let (_, file, line, message) = seeds[0];
    assert_eq!((file.as_str(), *line), ("base/kafka.yaml", seed_line()));
    assert!(message.contains("staging-events"), "{message}");
    assert!(
        !findings
            .iter()
            .any(|(.., message)| message.contains("prod-events")),
        "{findings:?}"
    );
    // Nothing is read from a patch file on its own, nor twice from the base.
    assert!(
        findings
            .iter()
            .all(|(_, file, ..)| file == "base/kafka.yaml"),
        "{findings:?}"
    );
    assert!(
        stderr.contains("overlays/fixed: a kustomization, built with `kustomize build`"),
        "{stderr}"
    );
    // The overlay on a remote base is not built (kustomize would fetch it): not checked.
    assert_eq!(
        not_checked,
        [("remote".to_string(), "kustomize-overlay".to_string())],
        "{stderr}"
    );
    assert!(stderr.contains("remote base `github.com/example/kafka-deploy"));

    // An overlay named alone builds on its base where it is, outside the folder named.
    let (findings, _, stderr) = check_args(&fixture(), &path, &["overlays/seed"]);
    assert!(
        findings.iter().any(
            |(rule, file, line, message)| rule == "internal-topic-replication"
                && file == "base/kafka.yaml"
                && *line == seed_line()
                && message.contains("staging-events")
        ),
        "{findings:?}\n{stderr}"
    );
}

#[test]
fn without_kustomize_patches_are_not_read_and_overlays_are_not_checked() {
    let empty = tempfile::tempdir().unwrap();
    let (findings, not_checked, stderr) = check(&fixture(), empty.path().as_os_str());
    // The base is read as written (its seed is reported), the patch files never as whole
    // resources: a Kafka patch holding only the settings it changes has no brokers of its own.
    assert!(
        findings
            .iter()
            .any(|(rule, file, line, _)| rule == "internal-topic-replication"
                && file == "base/kafka.yaml"
                && *line == seed_line()),
        "{findings:?}"
    );
    assert!(
        findings
            .iter()
            .all(|(_, file, ..)| file == "base/kafka.yaml"),
        "{findings:?}"
    );
    let overlays: Vec<&str> = not_checked
        .iter()
        .filter(|(_, kind)| kind == "kustomize-overlay")
        .map(|(file, _)| file.as_str())
        .collect();
    assert_eq!(
        overlays,
        ["overlays/fixed", "overlays/seed", "remote"],
        "{stderr}"
    );
    assert!(
        stderr.contains("`kustomize build overlays/fixed | kafkalint check"),
        "{stderr}"
    );
}

#[test]
fn a_plain_list_of_resources_is_read_as_written_and_a_base_with_no_kustomization_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let base = std::fs::read_to_string(fixture().join("base/kafka.yaml")).unwrap();
    // A kustomization that only lists its resources: what runs is the file as written.
    write("alone/kafka.yaml", &base);
    write("alone/kustomization.yaml", "resources:\n  - kafka.yaml\n");
    // An overlay on a folder that holds no kustomization: kustomize refuses to build it.
    write("shared/kafka.yaml", &base);
    write(
        "overlay/kustomization.yaml",
        "resources:\n  - ../shared\npatches:\n  - path: patch.yaml\n",
    );
    write(
        "overlay/patch.yaml",
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: events\nspec:\n  kafka:\n    replicas: 1\n",
    );
    // An overlay of no Kafka at all: neither built nor said.
    write(
        "web/kustomization.yaml",
        "resources:\n  - web.yaml\nnamespace: web\nnamePrefix: prod-\n",
    );
    write(
        "web/web.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n",
    );
    for path in [
        empty.path().as_os_str().to_owned(),
        std::env::var_os("PATH").unwrap(),
    ] {
        let (findings, not_checked, stderr) = check(dir.path(), &path);
        let seeds: Vec<&str> = findings
            .iter()
            .filter(|(rule, _, line, _)| {
                rule == "internal-topic-replication" && *line == seed_line()
            })
            .map(|(_, file, ..)| file.as_str())
            .collect();
        assert_eq!(
            seeds,
            ["alone/kafka.yaml", "shared/kafka.yaml"],
            "{findings:?}"
        );
        assert!(
            findings
                .iter()
                .all(|(_, file, ..)| file != "overlay/patch.yaml"),
            "{findings:?}"
        );
        assert_eq!(
            not_checked,
            [("overlay".to_string(), "kustomize-overlay".to_string())],
            "{stderr}"
        );
        assert!(
            stderr.contains(
                "overlay: a kustomization built on `shared`, a folder with no kustomization file"
            ),
            "{stderr}"
        );
        assert!(!stderr.contains("web: a kustomization"), "{stderr}");
    }
}

/// A Kubernetes StatefulSet of one broker with a fixed node id, and an overlay that patches
/// its replicas to 3 (`tests/kustomize-statefulset`).
fn statefulset_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kustomize-statefulset")
}

#[test]
fn a_statefulset_overlay_runs_the_replicas_its_patch_sets() {
    if !support::external_tools("tests/kustomize.rs") {
        return;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let (findings, not_checked, stderr) = check(&statefulset_fixture(), &path);
    // Three pods of one node id and one advertised address: what the overlay runs. The base
    // alone (one broker) is not read on its own: the overlay consumes it.
    let rules: Vec<&str> = findings.iter().map(|(rule, ..)| rule.as_str()).collect();
    assert!(
        rules.contains(&"duplicate-node-id"),
        "{findings:?}\n{stderr}"
    );
    assert!(rules.contains(&"shared-advertised-address"), "{findings:?}");
    assert!(
        findings
            .iter()
            .all(|(_, file, ..)| file == "base/kafka.yaml"),
        "{findings:?}"
    );
    assert!(
        findings
            .iter()
            .filter(|(rule, ..)| rule == "internal-topic-replication")
            .all(|(.., message)| message.contains("prod-kafka")),
        "{findings:?}"
    );
    assert!(not_checked.is_empty(), "{not_checked:?}");

    // Without kustomize: the base as written (one broker), the overlay not checked.
    let empty = tempfile::tempdir().unwrap();
    let (findings, not_checked, stderr) = check(&statefulset_fixture(), empty.path().as_os_str());
    let rules: Vec<&str> = findings.iter().map(|(rule, ..)| rule.as_str()).collect();
    assert!(!rules.contains(&"duplicate-node-id"), "{findings:?}");
    assert_eq!(
        not_checked,
        [("prod".to_string(), "kustomize-overlay".to_string())],
        "{stderr}"
    );
}
