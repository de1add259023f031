//! A Helm chart checked as its users check one: the real `helm` (v4, from the Go module proxy;
//! `.ci/run` installs it) renders the small chart in `tests/helm/chart`, and kafkalint reads the
//! rendered manifests from standard input (`helm template ... | kafkalint check --stdin-filename
//! rendered.yaml -`), as the manual shows.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const INSTALL: &str = "helm is not installed: `go install helm.sh/helm/v4/cmd/helm@v4.3.2` (with \
     $(go env GOPATH)/bin on the PATH); .ci/run installs it";

fn helm_template(sets: &[&str]) -> Vec<u8> {
    let chart = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/helm/chart");
    let mut command = Command::new("helm");
    command.arg("template").arg("demo").arg(&chart);
    for set in sets {
        command.arg("--set").arg(set);
    }
    let output = command.output().unwrap_or_else(|_| panic!("{INSTALL}"));
    assert!(
        output.status.success(),
        "helm template failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

fn check_stdin(rendered: &[u8]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args([
            "check",
            "--format",
            "json",
            "--stdin-filename",
            "rendered.yaml",
            "-",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(rendered).unwrap();
    child.wait_with_output().unwrap()
}

/// The rules that fired, with the rendered line each points at.
fn findings(output: &Output) -> Vec<(String, String)> {
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["rule"].as_str().unwrap().to_string(),
                diagnostic["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_rendered_chart_is_checked_from_standard_input() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let rendered = helm_template(&[]);
    let text = String::from_utf8(rendered.clone()).unwrap();
    assert!(text.contains("name: demo-kafka"), "{text}");
    let output = check_stdin(&rendered);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let found = findings(&output);
    let offsets: Vec<_> = found
        .iter()
        .filter(|(rule, message)| {
            rule == "internal-topic-replication"
                && message.contains("offsets.topic.replication.factor=1 on 3 brokers")
        })
        .collect();
    assert_eq!(offsets.len(), 1, "{found:?}");
    // The brokers are the StatefulSet's pods, named as Kubernetes names them.
    assert!(offsets[0].1.contains("pod `demo-kafka-0`"), "{offsets:?}");

    // The values a user would change fix it; more replicas than brokers would not start.
    let fixed = check_stdin(&helm_template(&["offsetsTopicReplicationFactor=3"]));
    let found = findings(&fixed);
    assert!(
        !found
            .iter()
            .any(|(rule, _)| rule == "internal-topic-replication"),
        "{found:?}"
    );
    let one_broker = check_stdin(&helm_template(&[
        "replicas=1",
        "offsetsTopicReplicationFactor=3",
    ]));
    let found = findings(&one_broker);
    assert!(
        found
            .iter()
            .any(|(rule, message)| rule == "internal-topic-replication"
                && message.contains("offsets.topic.replication.factor=3 on 1 broker")),
        "{found:?}"
    );
}
