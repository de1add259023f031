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
                && message.contains("offsets.topic.replication.factor=1: one broker down")
        })
        .collect();
    assert_eq!(offsets.len(), 1, "{found:?}");
    // The broker count is the help's: the StatefulSet's three pods.
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("(the cluster has 3 brokers)"),
        "{output:?}"
    );
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

/// `kafkalint check --format json` of `args` in `dir`, with `path` as the PATH (helm on it or
/// not): the findings as (rule, file, line) and what it wrote on standard error.
fn check_walk(
    dir: &Path,
    args: &[&str],
    path: &std::ffi::OsStr,
) -> (Vec<(String, String, u64)>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "json"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report: Value = match serde_json::from_slice(&output.stdout) {
        Ok(report) => report,
        Err(_) => return (Vec::new(), stderr),
    };
    let found = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["rule"].as_str().unwrap().to_string(),
                diagnostic["file"].as_str().unwrap_or_default().to_string(),
                diagnostic["line"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    (found, stderr)
}

/// The PATH with helm on it, and one without (an empty folder).
fn paths(empty: &Path) -> (std::ffi::OsString, std::ffi::OsString) {
    (
        std::env::var_os("PATH").unwrap_or_default(),
        empty.as_os_str().to_owned(),
    )
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn a_chart_of_its_own_is_rendered_in_a_walk_and_findings_point_at_its_template() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    copy_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/helm/chart"),
        &dir.path().join("chart"),
    );
    let template =
        std::fs::read_to_string(dir.path().join("chart/templates/statefulset.yaml")).unwrap();
    let value_line = template
        .lines()
        .position(|line| line.contains(".Values.offsetsTopicReplicationFactor"))
        .unwrap() as u64
        + 1;
    let (with_helm, without_helm) = paths(empty.path());

    let (found, stderr) = check_walk(dir.path(), &["."], &with_helm);
    assert!(
        found.contains(&(
            "internal-topic-replication".into(),
            "chart/templates/statefulset.yaml".into(),
            value_line
        )),
        "{found:?}\n{stderr}"
    );
    assert!(stderr.contains("rendered with `helm template`"), "{stderr}");
    // Secrets of the rendered manifests are hidden as in any YAML, the lines around a finding
    // shown included.
    let full = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "full", "."])
        .current_dir(dir.path())
        .env("PATH", &with_helm)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&full.stdout);
    assert!(shown.contains("KAFKA_SSL_KEY_PASSWORD"), "{shown}");
    assert!(!shown.contains("changeit-rendered-secret"), "{shown}");

    // Without helm: one note naming the chart and the command, and nothing read from it.
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        stderr.matches("`helm` is not on the PATH").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("helm template NAME chart"), "{stderr}");

    // A chart helm cannot render (a dependency that is not vendored: helm template never
    // downloads one) is said, with helm's reason.
    std::fs::write(
        dir.path().join("chart/Chart.yaml"),
        "apiVersion: v2\nname: demo\nversion: 0.1.0\ndependencies:\n  - name: kafka\n    version: 32.4.3\n    repository: oci://registry-1.docker.io/bitnamicharts\n",
    )
    .unwrap();
    let (found, stderr) = check_walk(dir.path(), &["."], &with_helm);
    assert!(found.is_empty(), "{found:?}");
    assert!(
        stderr.contains("does not render") && stderr.contains("missing in charts/"),
        "{stderr}"
    );
}

#[test]
fn a_strimzi_kafka_written_as_a_template_is_read_once_rendered() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("deploy/kafka-cluster");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(
        chart.join("Chart.yaml"),
        "apiVersion: v2\nname: kafka-cluster\nversion: 1.0.0\n",
    )
    .unwrap();
    std::fs::write(
        chart.join("values.yaml"),
        "cluster: events\nreplicas: 3\nreplication: 1\n",
    )
    .unwrap();
    let template = "\
apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata:
  name: {{ .Values.cluster }}
spec:
  kafka:
    version: 3.7.0
    replicas: {{ .Values.replicas }}
    listeners:
      - name: plain
        port: 9092
        type: internal
        tls: false
    config:
      {{- if .Values.replication }}
      offsets.topic.replication.factor: {{ .Values.replication }}
      {{- end }}
      transaction.state.log.replication.factor: 3
      transaction.state.log.min.isr: 2
    storage:
      type: ephemeral
  zookeeper:
    replicas: 3
    storage:
      type: ephemeral
";
    std::fs::write(chart.join("templates/kafka.yaml"), template).unwrap();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    let (found, stderr) = check_walk(dir.path(), &["deploy"], &with_helm);
    assert!(
        found.contains(&(
            "internal-topic-replication".into(),
            "deploy/kafka-cluster/templates/kafka.yaml".into(),
            16
        )),
        "{found:?}\n{stderr}"
    );
}

#[test]
fn values_of_a_chart_of_its_own_are_not_read_as_bitnamis() {
    // `helm create` values naming bitnami's image, beside the chart's own templates: the
    // templates say what the values mean, not bitnami's chart.
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let chart = dir.path().join("kafka");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(
        chart.join("Chart.yaml"),
        "apiVersion: v2\nname: kafka\nversion: 0.1.0\n",
    )
    .unwrap();
    std::fs::write(
        chart.join("values.yaml"),
        "replicaCount: 3\nimage:\n  repository: bitnami/kafka\n  tag: \"3.4.0\"\nservice:\n  port: 9092\n",
    )
    .unwrap();
    std::fs::write(
        chart.join("templates/service.yaml"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-kafka\nspec:\n  ports:\n    - port: {{ .Values.service.port }}\n",
    )
    .unwrap();
    let (_, without_helm) = paths(empty.path());
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(
        !found
            .iter()
            .any(|(rule, _, _)| rule == "internal-topic-replication"),
        "{found:?}\n{stderr}"
    );
    assert!(!stderr.contains("bitnami/kafka chart values"), "{stderr}");
}

#[test]
fn values_are_bitnamis_only_when_something_names_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let (_, without_helm) = paths(empty.path());
    // Keys only the bitnami chart has, and nothing that says the file is for it.
    std::fs::write(
        dir.path().join("kafka-values.yaml"),
        "replicaCount: 3\nzookeeper:\n  enabled: true\nautoCreateTopicsEnable: false\n",
    )
    .unwrap();
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(
        !found
            .iter()
            .any(|(rule, _, _)| rule == "internal-topic-replication"),
        "{found:?}\n{stderr}"
    );
    assert!(stderr.contains("nothing names the chart"), "{stderr}");

    // A script beside it installs bitnami's chart with it: read as the chart renders it (the
    // chart's default of one replica for the internal topics, on three brokers).
    std::fs::write(
        dir.path().join("install.sh"),
        "#!/bin/sh\nhelm repo add bitnami https://charts.bitnami.com/bitnami\nhelm upgrade --install kafka bitnami/kafka \\\n  --version 20.0.6 \\\n  -f kafka-values.yaml\n",
    )
    .unwrap();
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(
        found
            .iter()
            .any(|(rule, file, _)| rule == "internal-topic-replication"
                && file == "kafka-values.yaml"),
        "{found:?}\n{stderr}"
    );
    // The version its command pins is the chart line.
    assert!(
        stderr.contains("read as chart line 20 (install.sh pins version 20.0.6)"),
        "{stderr}"
    );
}

/// Go's template truth of each value as Helm reads it, against kafkalint's.
#[test]
fn values_are_set_or_unset_as_helm_holds_them() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let cases = [
        ("empty", "\"\""),
        ("empty_single", "''"),
        ("space", "\" \""),
        ("comments_indented", "|\n  # broker.id=1\n"),
        ("comments_dedented", "|-\n# broker.id=1\n"),
        ("map_empty", "{}"),
        ("list_empty", "[]"),
        ("null_word", "null"),
        ("tilde", "~"),
        ("bare", ""),
        ("false_word", "false"),
        ("false_quoted", "\"false\""),
        ("no_word", "no"),
        ("off_word", "off"),
        ("yes_word", "yes"),
        ("y_word", "y"),
        ("zero", "0"),
        ("zero_float", "0.0"),
        ("zero_quoted", "\"0\""),
        ("zero_hex", "0x0"),
        ("one", "1"),
        ("text", "broker.id=1"),
        ("map", "{a: 1}"),
        ("list", "[a]"),
        ("block", "|\n  offsets.topic.replication.factor=1\n"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("truth");
    std::fs::create_dir_all(chart.join("templates")).unwrap();
    std::fs::write(
        chart.join("Chart.yaml"),
        "apiVersion: v2\nname: truth\nversion: 0.1.0\n",
    )
    .unwrap();
    let mut values = String::new();
    let mut template = String::new();
    for (name, value) in cases {
        values.push_str(&format!("{name}: {value}\n"));
        template.push_str(&format!(
            "{name}: {{{{ if .Values.{name} }}}}set{{{{ else }}}}unset{{{{ end }}}}\n"
        ));
    }
    std::fs::write(chart.join("values.yaml"), &values).unwrap();
    std::fs::write(chart.join("templates/truth.yaml"), template).unwrap();
    let output = Command::new("helm")
        .args(["template", "t"])
        .arg(&chart)
        .output()
        .unwrap_or_else(|_| panic!("{INSTALL}"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rendered = String::from_utf8(output.stdout).unwrap();
    let documents = kafkalint::sources::yaml::parse(&values).unwrap();
    for (name, _) in cases {
        let helm_holds = rendered.contains(&format!("\n{name}: set"));
        let kafkalint_holds = documents[0]
            .get(name)
            .is_some_and(kafkalint::sources::helm::bitnami_chart::is_set);
        assert_eq!(kafkalint_holds, helm_holds, "{name}");
    }
}

#[test]
fn a_role_whose_configuration_is_a_configmap_of_its_own_is_not_judged() {
    // Chart 26: `controller.existingConfigmap` replaces what the chart renders for the
    // controller-eligible pods; the values do not hold it, so Kafka's defaults cannot be
    // assumed for them.
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let (_, without_helm) = paths(empty.path());
    std::fs::write(
        dir.path().join("kafka-values.yaml"),
        "image:\n  repository: bitnami/kafka\n  tag: 3.6.1-debian-11-r0\ncontroller:\n  replicaCount: 1\n  existingConfigmap: kafka-server-properties\n",
    )
    .unwrap();
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(
        !found
            .iter()
            .any(|(rule, _, _)| rule == "internal-topic-replication"),
        "{found:?}\n{stderr}"
    );
    assert!(
        stderr.contains("ConfigMap `kafka-server-properties` (controller.existingConfigmap)"),
        "{stderr}"
    );
}

#[test]
fn a_helmfile_above_the_values_names_the_chart() {
    // helmfile.yaml at the root gives values/kafka.yaml to a release of bitnami's chart.
    let dir = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let (_, without_helm) = paths(empty.path());
    std::fs::create_dir_all(dir.path().join("values")).unwrap();
    std::fs::write(
        dir.path().join("values/kafka.yaml"),
        "replicaCount: 3\nzookeeper:\n  enabled: true\nautoCreateTopicsEnable: false\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("helmfile.yaml"),
        "releases:\n  - name: kafka\n    chart: bitnami/kafka\n    version: 20.0.6\n    values:\n      - values/kafka.yaml\n",
    )
    .unwrap();
    let (found, stderr) = check_walk(dir.path(), &["."], &without_helm);
    assert!(
        found
            .iter()
            .any(|(rule, file, _)| rule == "internal-topic-replication"
                && file == "values/kafka.yaml"),
        "{found:?}\n{stderr}"
    );
    assert!(
        stderr.contains("read as chart line 20 (helmfile.yaml pins version 20.0.6)"),
        "{stderr}"
    );
}

// ---- A template named alone, and a values file per environment ----

/// A finding as (rule, file, line, message).
type Located = (String, String, u64, String);

/// `kafkalint check --format json` of `args` in `dir` (standard input `stdin` when given):
/// the findings, the JSON `not_checked`, standard error and the exit code.
fn check_json(
    dir: &Path,
    args: &[&str],
    path: &std::ffi::OsStr,
    stdin: Option<&[u8]>,
) -> (Vec<Located>, Value, String, Option<i32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "json"])
        .args(args)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    if let Some(bytes) = stdin {
        let mut input = input;
        input.write_all(bytes).unwrap();
    } else {
        drop(input);
    }
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    let found = report["diagnostics"]
        .as_array()
        .map(|diagnostics| {
            diagnostics
                .iter()
                .map(|diagnostic| {
                    (
                        diagnostic["rule"].as_str().unwrap().to_string(),
                        diagnostic["file"].as_str().unwrap_or_default().to_string(),
                        diagnostic["line"].as_u64().unwrap_or_default(),
                        diagnostic["message"]
                            .as_str()
                            .unwrap_or_default()
                            .to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (
        found,
        report["not_checked"].clone(),
        stderr,
        output.status.code(),
    )
}

/// The test chart copied into a new folder, with the line of its StatefulSet template that
/// sets offsets.topic.replication.factor.
fn chart_copy() -> (tempfile::TempDir, u64) {
    let dir = tempfile::tempdir().unwrap();
    copy_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/helm/chart"),
        &dir.path().join("chart"),
    );
    let template =
        std::fs::read_to_string(dir.path().join("chart/templates/statefulset.yaml")).unwrap();
    let line = template
        .lines()
        .position(|line| line.contains(".Values.offsetsTopicReplicationFactor"))
        .unwrap() as u64
        + 1;
    (dir, line)
}

#[test]
fn a_template_named_alone_is_rendered_with_its_chart() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, line) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, without_helm) = paths(empty.path());
    let template = "chart/templates/statefulset.yaml";
    let seed = (
        "internal-topic-replication".to_string(),
        template.to_string(),
        line,
    );
    let located = |found: &[Located]| -> Vec<(String, String, u64)> {
        found
            .iter()
            .map(|(rule, file, line, _)| (rule.clone(), file.clone(), *line))
            .collect()
    };

    // Named alone (an editor's "check this file", a hook's file list) and in the pre-commit
    // mode: the chart is rendered and the finding located in the template reported.
    for args in [vec![template], vec!["--with-cluster", template]] {
        let (found, _, stderr, code) = check_json(dir.path(), &args, &with_helm, None);
        assert!(
            located(&found).contains(&seed),
            "{args:?}: {found:?}\n{stderr}"
        );
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("rendered with `helm template`"), "{stderr}");
    }
    // Named from inside its templates/ folder.
    let (found, _, stderr, _) = check_json(
        &dir.path().join("chart/templates"),
        &["statefulset.yaml"],
        &with_helm,
        None,
    );
    assert!(
        found
            .iter()
            .any(|(rule, file, at, _)| rule == "internal-topic-replication"
                && file.ends_with("templates/statefulset.yaml")
                && *at == line),
        "{found:?}\n{stderr}"
    );
    // Only the named template's findings: another template of the chart names none.
    std::fs::write(
        dir.path().join("chart/templates/service.yaml"),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}-kafka-headless\nspec:\n  clusterIP: None\n  ports:\n    - port: 9092\n",
    )
    .unwrap();
    let (found, _, stderr, code) = check_json(
        dir.path(),
        &["chart/templates/service.yaml"],
        &with_helm,
        None,
    );
    assert!(found.is_empty(), "{found:?}\n{stderr}");
    assert_eq!(code, Some(0), "{stderr}");

    // An editor's unsaved text (the language server, `--stdin-filename`) is what is rendered:
    // the saved file has the seed, the buffer fixes it.
    let saved = std::fs::read_to_string(dir.path().join(template)).unwrap();
    let (found, _, stderr, _) = check_json(
        dir.path(),
        &["--stdin-filename", template, "-"],
        &with_helm,
        Some(saved.as_bytes()),
    );
    assert!(located(&found).contains(&seed), "{found:?}\n{stderr}");
    let fixed = saved.replace(
        "{{ .Values.offsetsTopicReplicationFactor | quote }}",
        "\"3\"",
    );
    assert_ne!(fixed, saved);
    let (found, _, stderr, _) = check_json(
        dir.path(),
        &["--stdin-filename", template, "-"],
        &with_helm,
        Some(fixed.as_bytes()),
    );
    assert!(
        !found
            .iter()
            .any(|(rule, _, _, _)| rule == "internal-topic-replication"),
        "{found:?}\n{stderr}"
    );
    assert!(
        found
            .iter()
            .any(|(rule, _, _, _)| rule == "plaintext-secret")
    );

    // Without helm: the note naming the command and the "not checked" count, as in a walk.
    for args in [
        vec![template],
        vec!["--with-cluster", template],
        vec!["--stdin-filename", template, "-"],
    ] {
        let stdin = args.contains(&"-").then_some(saved.as_bytes());
        let (found, not_checked, stderr, code) =
            check_json(dir.path(), &args, &without_helm, stdin);
        assert!(found.is_empty(), "{args:?}: {found:?}");
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("`helm` is not on the PATH") && stderr.contains("helm template NAME"),
            "{args:?}: {stderr}"
        );
        assert!(
            not_checked.to_string().contains("Helm"),
            "{args:?}: {not_checked}"
        );
    }
}

#[test]
fn each_environment_values_file_is_rendered_as_a_deployment_of_its_own() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, line) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    // values.yaml keeps the seed (one replica for the offsets topic on 3 brokers); production
    // raises it, staging leaves it.
    std::fs::write(
        dir.path().join("chart/values-prod.yaml"),
        "offsetsTopicReplicationFactor: 3\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("chart/values-staging.yaml"),
        "image:\n  tag: 7.6.1\n",
    )
    .unwrap();
    for args in [vec!["."], vec!["chart/templates/statefulset.yaml"]] {
        let (found, _, stderr, _) = check_json(dir.path(), &args, &with_helm, None);
        let seeds: Vec<&String> = found
            .iter()
            .filter(|(rule, file, at, _)| {
                rule == "internal-topic-replication"
                    && file == "chart/templates/statefulset.yaml"
                    && *at == line
            })
            .map(|(_, _, _, message)| message)
            .collect();
        // Each environment is its release: staging has the seed, production not.
        assert_eq!(seeds.len(), 1, "{args:?}: {found:?}\n{stderr}");
        assert!(seeds[0].contains("`staging-kafka`"), "{seeds:?}");
        assert!(
            stderr.contains("values-prod.yaml as release `prod`")
                && stderr.contains("values-staging.yaml as release `staging`"),
            "{stderr}"
        );
    }
    // An environment helm refuses (a values file that is no map) is said, the others read.
    std::fs::write(dir.path().join("chart/values-prod.yaml"), "- 3\n").unwrap();
    let (found, _, stderr, _) = check_json(dir.path(), &["."], &with_helm, None);
    assert!(
        stderr.contains("-f chart/values-prod.yaml` does not render")
            && stderr.contains("not checked for values-prod.yaml"),
        "{stderr}"
    );
    assert!(
        found
            .iter()
            .any(|(_, _, _, message)| message.contains("`staging-kafka`")),
        "{found:?}"
    );

    // An environments folder of values files is read the same way.
    std::fs::remove_file(dir.path().join("chart/values-prod.yaml")).unwrap();
    std::fs::remove_file(dir.path().join("chart/values-staging.yaml")).unwrap();
    std::fs::create_dir_all(dir.path().join("chart/environments")).unwrap();
    std::fs::write(
        dir.path().join("chart/environments/dev.yaml"),
        "offsetsTopicReplicationFactor: 3\n",
    )
    .unwrap();
    let (found, _, stderr, _) = check_json(dir.path(), &["."], &with_helm, None);
    assert!(
        !found
            .iter()
            .any(|(rule, _, _, _)| rule == "internal-topic-replication"),
        "{found:?}\n{stderr}"
    );
    assert!(
        stderr.contains("environments/dev.yaml as release `dev`"),
        "{stderr}"
    );
}

#[test]
fn a_published_chart_is_rendered_with_its_values_alone_too_and_examples_are_no_environment() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, line) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    std::fs::write(
        dir.path().join("chart/values-prod.yaml"),
        "offsetsTopicReplicationFactor: 3\n",
    )
    .unwrap();
    // An example profile is no deployment: not rendered (it would be `example-kafka`).
    std::fs::write(
        dir.path().join("chart/values-example.yaml"),
        "replicas: 5\n",
    )
    .unwrap();
    let seeds = |found: &[Located]| -> Vec<String> {
        found
            .iter()
            .filter(|(rule, file, at, _)| {
                rule == "internal-topic-replication"
                    && file == "chart/templates/statefulset.yaml"
                    && *at == line
            })
            .map(|(_, _, _, message)| message.clone())
            .collect()
    };
    let (found, _, stderr, _) = check_json(dir.path(), &["."], &with_helm, None);
    assert!(seeds(&found).is_empty(), "{found:?}\n{stderr}");
    assert!(!stderr.contains("values-example.yaml"), "{stderr}");
    assert!(
        stderr.contains("values.yaml alone is only their common base"),
        "{stderr}"
    );

    // Published (its Chart.yaml names its home): values.yaml alone is installed too.
    let chart_yaml = std::fs::read_to_string(dir.path().join("chart/Chart.yaml")).unwrap();
    std::fs::write(
        dir.path().join("chart/Chart.yaml"),
        format!("{chart_yaml}home: https://charts.example.com/demo\n"),
    )
    .unwrap();
    let (found, _, stderr, _) = check_json(dir.path(), &["."], &with_helm, None);
    let seeds = seeds(&found);
    assert_eq!(seeds.len(), 1, "{found:?}\n{stderr}");
    assert!(seeds[0].contains("`kafkalint-kafka`"), "{seeds:?}");
    assert!(
        stderr.contains("values.yaml alone is rendered too"),
        "{stderr}"
    );
}

/// The language server (`kafkalint::server::run` over lsp-server's in-memory connection)
/// publishes what the chart renders with the editor's text of its template: the saved seed,
/// then nothing of it once the editor's text fixes it.
#[test]
fn the_language_server_renders_an_open_template_with_its_chart() {
    use lsp_server::{Connection, Message, Notification, Request, RequestId};
    use serde_json::json;
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, line) = chart_copy();
    let path = dir.path().join("chart/templates/statefulset.yaml");
    let saved = std::fs::read_to_string(&path).unwrap();
    let document = kafkalint::server::uri::from_path(&path)
        .unwrap()
        .as_str()
        .to_string();
    let (server, client) = Connection::memory();
    let handle = std::thread::spawn(move || kafkalint::server::run(&server));
    let send = |message: Message| client.sender.send(message).unwrap();
    send(
        Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        )
        .into(),
    );
    send(Notification::new("initialized".into(), json!({})).into());
    let published = |client: &Connection| -> Vec<Value> {
        loop {
            let message = client
                .receiver
                .recv_timeout(std::time::Duration::from_secs(300))
                .expect("the server answers");
            if let Message::Notification(notification) = message
                && notification.method == "textDocument/publishDiagnostics"
                && notification.params["uri"] == document.as_str()
            {
                return notification.params["diagnostics"]
                    .as_array()
                    .unwrap()
                    .clone();
            }
        }
    };
    let seeds = |diagnostics: &[Value]| -> usize {
        diagnostics
            .iter()
            .filter(|diagnostic| {
                diagnostic["code"] == "internal-topic-replication"
                    && diagnostic["range"]["start"]["line"] == line - 1
            })
            .count()
    };
    send(
        Notification::new(
            "textDocument/didOpen".into(),
            json!({ "textDocument": {
                "uri": document, "languageId": "yaml", "version": 1, "text": saved,
            }}),
        )
        .into(),
    );
    let diagnostics = published(&client);
    assert_eq!(seeds(&diagnostics), 1, "{diagnostics:#?}");
    let fixed = saved.replace(
        "{{ .Values.offsetsTopicReplicationFactor | quote }}",
        "\"3\"",
    );
    send(
        Notification::new(
            "textDocument/didChange".into(),
            json!({
                "textDocument": { "uri": document, "version": 2 },
                "contentChanges": [{ "text": fixed }],
            }),
        )
        .into(),
    );
    let diagnostics = published(&client);
    assert_eq!(seeds(&diagnostics), 0, "{diagnostics:#?}");
    assert!(
        diagnostics
            .iter()
            .any(|diagnostic| diagnostic["code"] == "plaintext-secret"),
        "{diagnostics:#?}"
    );
    send(Request::new(RequestId::from(2), "shutdown".into(), Value::Null).into());
    send(Notification::new("exit".into(), Value::Null).into());
    let _ = handle.join();
}

/// The values lines each internal-topic-replication finding of a JSON report points at, as
/// (file, line), by the release named in its message.
fn values_labels(dir: &Path, path: &std::ffi::OsStr) -> Vec<(String, String, u64)> {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "json", "."])
        .current_dir(dir)
        .env("PATH", path)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut found = Vec::new();
    for diagnostic in report["diagnostics"].as_array().unwrap() {
        if diagnostic["rule"] != "internal-topic-replication" {
            continue;
        }
        let message = diagnostic["message"].as_str().unwrap();
        let release = ["kafkalint", "prod", "staging"]
            .into_iter()
            .find(|release| message.contains(&format!("`{release}-kafka")))
            .unwrap_or("?");
        for label in diagnostic["labels"].as_array().unwrap() {
            let file = label["file"].as_str().unwrap();
            if file.starts_with("chart/values") {
                found.push((
                    release.to_string(),
                    file.to_string(),
                    label["line"].as_u64().unwrap(),
                ));
            }
        }
    }
    found
}

#[test]
fn a_rendered_finding_points_at_the_values_line_its_value_came_from() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, _) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    let values = std::fs::read_to_string(dir.path().join("chart/values.yaml")).unwrap();
    let seed_line = values
        .lines()
        .position(|line| line.starts_with("offsetsTopicReplicationFactor:"))
        .unwrap() as u64
        + 1;
    assert_eq!(
        values_labels(dir.path(), &with_helm),
        vec![(
            "kafkalint".to_string(),
            "chart/values.yaml".to_string(),
            seed_line
        )]
    );
    // Per environment: the value of staging's own file is traced to it, the one it takes from
    // values.yaml to values.yaml.
    std::fs::write(
        dir.path().join("chart/values-staging.yaml"),
        "# staging\noffsetsTopicReplicationFactor: 2\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("chart/values-prod.yaml"), "replicas: 3\n").unwrap();
    let mut labels = values_labels(dir.path(), &with_helm);
    labels.sort();
    assert_eq!(
        labels,
        vec![
            (
                "prod".to_string(),
                "chart/values.yaml".to_string(),
                seed_line
            ),
            (
                "staging".to_string(),
                "chart/values-staging.yaml".to_string(),
                2
            ),
        ]
    );
    // The same value in two of the chart's values files: which one gave it is not told.
    std::fs::write(
        dir.path().join("chart/values-staging.yaml"),
        "offsetsTopicReplicationFactor: 1\n",
    )
    .unwrap();
    assert_eq!(values_labels(dir.path(), &with_helm), vec![]);
}

#[test]
fn fix_leaves_a_rendered_chart_as_it_is() {
    // A rendered template's bytes are not the file's: `--fix` writes nothing into it (nor
    // into the values file a finding also points at), and says so instead of failing.
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, _) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    let template = dir.path().join("chart/templates/statefulset.yaml");
    let values = dir.path().join("chart/values.yaml");
    let (template_before, values_before) = (
        std::fs::read(&template).unwrap(),
        std::fs::read(&values).unwrap(),
    );
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--fix", "."])
        .current_dir(dir.path())
        .env("PATH", &with_helm)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(matches!(output.status.code(), Some(0..=2)), "{stderr}");
    assert_eq!(std::fs::read(&template).unwrap(), template_before);
    assert_eq!(std::fs::read(&values).unwrap(), values_before);
}

#[test]
fn environments_beyond_the_bound_are_said_not_rendered() {
    if !support::external_tools("tests/helm.rs") {
        return;
    }
    let (dir, _) = chart_copy();
    let empty = tempfile::tempdir().unwrap();
    let (with_helm, _) = paths(empty.path());
    for index in 0..18 {
        std::fs::write(
            dir.path().join(format!("chart/values-env{index:02}.yaml")),
            "replicas: 3\n",
        )
        .unwrap();
    }
    let (_, not_checked, stderr, _) = check_json(dir.path(), &["."], &with_helm, None);
    assert_eq!(
        stderr
            .matches("is beyond the first 16 of this chart")
            .count(),
        2,
        "{stderr}"
    );
    assert!(stderr.contains("values-env17.yaml is beyond"), "{stderr}");
    assert!(not_checked.to_string().contains("Helm"), "{not_checked}");
}
