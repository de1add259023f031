//! Nothing passes silently: a file of a form kafkalint reads that cannot be parsed is an
//! `invalid-syntax` error however it is checked (a folder walk, named alone, `--with-cluster`,
//! an editor's buffer), in every format; a broken file that is no Kafka file is not.

mod support;
use support::kafkalint_stdin;

use std::path::Path;
use std::process::{Command, Output};

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A compose file whose second `KAFKA_NODE_ID` go-yaml v3 refuses ("already defined"), with a
/// secret beside it that output must not show.
const REPEATED_KEY: &str = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_SASL_JAAS_CONFIG: hunter2-secret\n      KAFKA_NODE_ID: 2\n";

/// A helm_release whose heredoc never ends.
const OPEN_HEREDOC: &str = "resource \"helm_release\" \"kafka\" {\n  chart = \"oci://registry-1.docker.io/bitnamicharts/kafka\"\n  values = [<<-EOT\n    controller:\n      replicaCount: 1\n  EOF\n  ]\n}\n";

fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    dir
}

fn assert_invalid_syntax(output: &Output, at: &str) {
    let shown = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{shown}{}",
        text(&output.stderr)
    );
    assert!(
        shown.contains(&format!("{at}: error[invalid-syntax] ")),
        "{shown}"
    );
    assert!(!shown.contains("hunter2"), "{shown}");
    assert!(!text(&output.stderr).contains("hunter2"));
}

#[test]
fn a_broken_compose_file_is_an_error_in_a_walk_named_alone_and_with_its_cluster() {
    let dir = folder(&[("deploy/docker-compose.yml", REPEATED_KEY)]);
    let concise = ["--format", "concise"];
    let walk = kafkalint(
        &[&["check"][..], &concise, &["deploy"]].concat(),
        dir.path(),
    );
    assert_invalid_syntax(&walk, "deploy/docker-compose.yml:7:7");
    let named = ["check", "--format", "concise", "deploy/docker-compose.yml"];
    assert_invalid_syntax(
        &kafkalint(&named, dir.path()),
        "deploy/docker-compose.yml:7:7",
    );
    let with_cluster = [
        "check",
        "--format",
        "concise",
        "--with-cluster",
        "deploy/docker-compose.yml",
    ];
    assert_invalid_syntax(
        &kafkalint(&with_cluster, dir.path()),
        "deploy/docker-compose.yml:7:7",
    );
    let full = kafkalint(&["check", "deploy"], dir.path());
    assert_eq!(full.status.code(), Some(1));
    let shown = text(&full.stdout);
    assert!(!shown.contains("No problems found"), "{shown}");
    assert!(!shown.contains("hunter2"), "{shown}");
}

#[test]
fn an_editors_buffer_that_does_not_parse_is_reported_in_it() {
    let dir = folder(&[("docker-compose.yml", "services: {}\n")]);
    let args = [
        "check",
        "--format",
        "json",
        "--stdin-filename",
        "docker-compose.yml",
        "-",
    ];
    let output = kafkalint_stdin(&args, REPEATED_KEY.as_bytes(), dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let found = &json["diagnostics"][0];
    assert_eq!(found["rule"], "invalid-syntax");
    assert_eq!(
        (found["line"].as_u64(), found["column"].as_u64()),
        (Some(7), Some(7))
    );
    assert!(
        found["message"]
            .as_str()
            .unwrap()
            .contains("repeats the key `KAFKA_NODE_ID`")
    );
}

#[test]
fn a_compose_projects_env_file_that_compose_refuses_is_an_error_at_its_line() {
    let compose = "services:\n  kafka:\n    image: apache/kafka:${KAFKA_TAG}\n";
    let env = "KAFKA_TAG=3.9.0\nSASL_PASSWORD=\"hunter2\n";
    let dir = folder(&[("deploy/docker-compose.yml", compose), ("deploy/.env", env)]);
    let output = kafkalint(&["check", "--format", "concise", "deploy"], dir.path());
    // compose-go reports an unterminated quote where the file ends.
    assert_invalid_syntax(&output, "deploy/.env:3:1");
    assert!(
        text(&output.stdout).contains("docker compose refuses this .env at line 3"),
        "{}",
        text(&output.stdout)
    );
}

#[test]
fn an_unterminated_heredoc_in_terraform_is_an_error_at_its_start() {
    let dir = folder(&[("infra/kafka.tf", OPEN_HEREDOC)]);
    let output = kafkalint(
        &["check", "--format", "concise", "--show-help", "infra"],
        dir.path(),
    );
    assert_invalid_syntax(&output, "infra/kafka.tf:4:5");
    assert!(text(&output.stdout).contains("terraform refuses this file"));
}

#[test]
fn a_broken_yaml_file_that_is_no_kafka_file_is_not_reported() {
    let compose = "services:\n  kafka:\n    image: apache/kafka:3.9.0\n";
    let broken_ci = "on: push\njobs:\n  build:\n   runs-on: x\n  - y\n";
    let dir = folder(&[
        ("docker-compose.yml", compose),
        (".github/workflows/ci.yml", broken_ci),
        ("mkdocs.yml", broken_ci),
    ]);
    let output = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert!(
        !text(&output.stdout).contains("invalid-syntax"),
        "{}",
        text(&output.stdout)
    );
    // A pre-commit run names every changed YAML file.
    let output = kafkalint(
        &[
            "check",
            "--format",
            "concise",
            "--with-cluster",
            "mkdocs.yml",
        ],
        dir.path(),
    );
    assert!(!text(&output.stdout).contains("invalid-syntax"));
}

#[test]
fn a_limit_of_kafkalints_own_is_no_syntax_error() {
    // Deeper than kafkalint's 256 levels, which go-yaml reads: a note, not a finding.
    let mut deep = String::from("services:\n  kafka:\n    image: apache/kafka:3.9.0\n    x: ");
    deep.push_str(&"[".repeat(300));
    deep.push_str(&"]".repeat(300));
    deep.push('\n');
    let dir = folder(&[("docker-compose.yml", &deep)]);
    let output = kafkalint(&["check", "--format", "concise", "."], dir.path());
    assert!(
        !text(&output.stdout).contains("invalid-syntax"),
        "{}",
        text(&output.stdout)
    );
}

/// A chart of the repository's own: its template is not rendered without helm, and a broker
/// of an image kafkalint does not know.
const TEMPLATE: &str = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {{ .Release.Name }}-kafka\nspec:\n  replicas: {{ .Values.replicas }}\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: {{ .Values.image }}\n";
const CUSTOM_IMAGE: &str = "services:\n  broker:\n    image: registry.example.com/platform/broker:1.4\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_PROCESS_ROLES: broker,controller\n  app:\n    image: acme/orders:1\n    environment:\n      KAFKA_BOOTSTRAP_SERVERS: broker:9092\n  db:\n    image: postgres:16\n";

#[test]
fn what_was_not_checked_is_counted_in_the_summary_and_listed_in_json() {
    let dir = folder(&[
        ("chart/templates/kafka.yaml", TEMPLATE),
        ("compose/docker-compose.yml", CUSTOM_IMAGE),
    ]);
    let output = kafkalint(&["check", "."], dir.path());
    let shown = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{shown}");
    assert!(
        shown.contains(
            "Nothing checked (0 files in 0 clusters); 2 files not checked: 1 Helm template, 1 unknown image; see the notes."
        ),
        "{shown}"
    );
    assert!(!shown.contains("No problems found"), "{shown}");
    let json = kafkalint(&["check", "--format", "json", "."], dir.path());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let listed: Vec<(String, String)> = json["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            (
                item["file"].as_str().unwrap().to_string(),
                item["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("chart/templates/kafka.yaml".into(), "helm-template".into()),
            ("compose/docker-compose.yml".into(), "unknown-image".into())
        ]
    );
}

#[test]
fn a_broker_of_an_image_kafkalint_does_not_know_is_noted_and_a_client_is_not() {
    let dir = folder(&[("docker-compose.yml", CUSTOM_IMAGE)]);
    let output = kafkalint(&["check", "."], dir.path());
    let notes = text(&output.stderr);
    assert!(
        notes.contains("service `broker`: runs image `registry.example.com/platform/broker:1.4`, an image kafkalint does not know, given KAFKA_NODE_ID, KAFKA_PROCESS_ROLES in its environment;"),
        "{notes}"
    );
    assert!(
        notes.contains(
            "`[images]` `\"registry.example.com/platform/broker\" = \"apache/kafka:3.9.0\"`"
        ),
        "{notes}"
    );
    assert!(!notes.contains("service `app`"), "{notes}");
    assert!(!notes.contains("service `db`"), "{notes}");
}

#[test]
fn a_kafka_service_built_from_a_dockerfile_is_noted() {
    let built = "services:\n  kafka:\n    build: ./kafka\n    environment:\n      - KAFKA_BROKER_ID=1\n      - KAFKA_ZOOKEEPER_CONNECT=zk:2181\n  web:\n    build: ./web\n";
    let dir = folder(&[("docker-compose.yml", built)]);
    let output = kafkalint(&["check", "."], dir.path());
    let notes = text(&output.stderr);
    assert!(
        notes.contains("service `kafka`: is built from `./kafka`, an image kafkalint does not know, given KAFKA_BROKER_ID, KAFKA_ZOOKEEPER_CONNECT in its environment;"),
        "{notes}"
    );
    assert!(!notes.contains("service `web`"), "{notes}");
    assert!(text(&output.stdout).contains("1 file not checked: 1 unknown image"));
}

#[test]
fn an_amazon_msk_configuration_in_terraform_is_counted_as_not_checked() {
    let msk = "resource \"aws_msk_configuration\" \"events\" {\n  name           = \"events\"\n  kafka_versions = [\"3.6.0\"]\n  server_properties = <<-PROPERTIES\n    auto.create.topics.enable=true\n    default.replication.factor=1\n  PROPERTIES\n}\n\nresource \"aws_msk_cluster\" \"events\" {\n  cluster_name           = \"events\"\n  kafka_version          = \"3.6.0\"\n  number_of_broker_nodes = 3\n  configuration_info {\n    arn      = aws_msk_configuration.events.arn\n    revision = aws_msk_configuration.events.latest_revision\n  }\n}\n";
    let dir = folder(&[("infra/msk.tf", msk)]);
    let output = kafkalint(&["check", "."], dir.path());
    let shown = text(&output.stdout);
    assert!(
        shown.contains("1 file not checked: 1 Amazon MSK configuration"),
        "{shown}"
    );
    assert!(!shown.contains("No problems found"), "{shown}");
    let json = kafkalint(&["check", "--format", "json", "."], dir.path());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(json["not_checked"][0]["kind"], "managed-service", "{json}");
    assert_eq!(json["not_checked"][0]["file"], "infra/msk.tf", "{json}");
}

#[test]
fn a_terraform_resource_made_from_what_terraform_works_out_is_counted_as_not_checked() {
    let tf = "resource \"kubernetes_stateful_set\" \"kafka\" {\n  metadata {\n    name = \"kafka\"\n  }\n  spec {\n    replicas = 3\n    template {\n      spec {\n        container {\n          name  = \"kafka\"\n          image = \"apache/kafka:3.9.0\"\n          dynamic \"env\" {\n            for_each = var.kafka_env\n            content {\n              name  = env.key\n              value = env.value\n            }\n          }\n        }\n      }\n    }\n  }\n}\n";
    let dir = folder(&[("kafka.tf", tf)]);
    let output = kafkalint(&["check", "."], dir.path());
    let shown = text(&output.stdout);
    assert!(!shown.contains("No problems found"), "{shown}");
    assert!(
        shown.contains("1 file not checked: 1 value worked out at run time"),
        "{shown}"
    );
}
