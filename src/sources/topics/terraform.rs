//! Terraform topic resources: `kafka_topic` of the Mongey/kafka provider and
//! `confluent_kafka_topic` of the confluentinc/confluent provider, read with the Terraform
//! reader's evaluator (`sources::terraform`): locals, variables with their defaults (or the
//! `.tfvars` beside), `for_each` over a known map or set (a local, a `for` expression,
//! `yamldecode(file("topics.yaml"))`) and `count` give one topic per instance.
//!
//! Mongey/terraform-provider-kafka `kafka/resource_kafka_topic.go` (at commit 04cd9d7c):
//! `name` (required, ForceNew), `partitions` (required; a decrease forces a new resource in
//! `customPartitionDiff`: the topic is destroyed and created again), `replication_factor`
//! (required, ForceNew), `config` (a map of strings).
//!
//! confluentinc/terraform-provider-confluent `internal/provider/resource_kafka_topic.go` (at
//! commit bd8cc091): `topic_name` (required, ForceNew), `partitions_count` (optional,
//! `Default: 6`), `config` (a map of strings). It has no replication factor: Confluent Cloud
//! fixes it, so the factor of such a topic is unknown here and no check judges it.
//!
//! A value Terraform works out when it runs (a variable without default, a data source, a
//! module's output) is unknown: the checks that need it skip it.

use super::declared::{DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::properties::Span;
use crate::sources::terraform::{self, TopicResource};
use crate::sources::yaml::{Node, Scalar};

/// The provider's default partition count of a `confluent_kafka_topic`.
const CONFLUENT_DEFAULT_PARTITIONS: &str = "6";

/// The topic resources of the Terraform file at `path`, whose text is `text`.
pub fn read(path: &str, text: &str) -> TopicFile {
    let mut ignored = Vec::new();
    let Ok(read) = terraform::read(path, text, &mut ignored) else {
        // Whatever else reads the file says why it is not HCL.
        return TopicFile::default();
    };
    let mut file = TopicFile {
        topics: Vec::new(),
        hidden: read.hidden,
        notes: read.topic_notes,
    };
    for resource in &read.topics {
        for instance in &resource.instances {
            let (topic, note) = topic(resource, instance);
            file.topics.push(topic);
            file.notes.extend(note);
        }
    }
    let shown: Vec<Span> = file.topics.iter().flat_map(shown_spans).collect();
    file.hidden = super::declared::uncover(std::mem::take(&mut file.hidden), &shown);
    file
}

/// The spans of what a topic is (its name, factor, partitions, config keys and values) that
/// the evaluator read: shown even where they are written inside a value the Terraform reader
/// hides as a whole (a `locals` map of topics).
fn shown_spans(topic: &DeclaredTopic) -> Vec<Span> {
    let values = [
        Some(&topic.name),
        topic.replicas.as_ref(),
        topic.partitions.as_ref(),
    ];
    let settings = topic
        .configs
        .iter()
        .flat_map(|setting| [Some(&setting.value), None]);
    values
        .into_iter()
        .chain(settings)
        .flatten()
        .filter(|written| written.known)
        .map(|written| written.span.clone())
        .chain(topic.configs.iter().map(|setting| setting.key_span.clone()))
        .collect()
}

/// One instance's topic, and a note when its configuration as a whole is unknown.
fn topic(resource: &TopicResource, instance: &Node) -> (DeclaredTopic, Option<String>) {
    let confluent = resource.resource_type == "confluent_kafka_topic";
    let field = |key: &str| instance.get(key);
    let declared_at = resource.anchor.clone();
    let name_key = if confluent { "topic_name" } else { "name" };
    let name = field(name_key)
        .and_then(written)
        .unwrap_or_else(|| Written::unknown(resource.label.clone(), declared_at.clone()));
    let (partitions, replicas) = if confluent {
        let partitions = field("partitions_count").and_then(written).or_else(|| {
            Some(Written {
                literal: false,
                ..Written::literal(CONFLUENT_DEFAULT_PARTITIONS, declared_at.clone())
            })
        });
        let fixed = Written::unknown("fixed by Confluent Cloud", declared_at.clone());
        (partitions, Some(fixed))
    } else {
        (
            field("partitions").and_then(written),
            field("replication_factor").and_then(written),
        )
    };
    let mut note = None;
    let configs = match field("config") {
        Some(Node::Map(entries)) => entries
            .iter()
            .filter_map(|(key, value)| setting(key, value))
            .collect(),
        Some(Node::Scalar(scalar)) if scalar.value.contains("${") => {
            note = Some(format!(
                "{}: its config is worked out when Terraform runs; its topic configuration is not checked",
                resource.label
            ));
            Vec::new()
        }
        _ => Vec::new(),
    };
    let topic = DeclaredTopic {
        file: 0,
        form: if confluent {
            TopicForm::TerraformConfluentTopic
        } else {
            TopicForm::TerraformKafkaTopic
        },
        name,
        declared_at,
        partitions,
        replicas,
        configs,
        cluster: None,
    };
    (topic, note)
}

/// A value as the evaluator gives it: a scalar Terraform knows before it runs, written as it
/// is when the evaluator says its span holds exactly it; `None` when not written (`null`).
fn written(node: &Node) -> Option<Written> {
    let Node::Scalar(scalar) = node else {
        // A list or an object where a number or a text belongs: Terraform refuses it.
        let span = span_of(node)?;
        return Some(Written::unknown("an object", span));
    };
    if scalar.value.contains("${") {
        return Some(Written::unknown(scalar.value.clone(), scalar.span.clone()));
    }
    if scalar.value.is_empty() && !scalar.exact {
        return None;
    }
    Some(of_scalar(scalar))
}

fn of_scalar(scalar: &Scalar) -> Written {
    Written {
        text: scalar.value.clone(),
        span: scalar.span.clone(),
        known: true,
        literal: scalar.exact,
    }
}

fn span_of(node: &Node) -> Option<Span> {
    match node {
        Node::Scalar(scalar) => Some(scalar.span.clone()),
        Node::Seq(items) => items.first().and_then(span_of),
        Node::Map(entries) => entries.first().and_then(|(key, _)| span_of(key)),
    }
}

/// One entry of `config`: skipped when its key is unknown (`"${var.key}" = ...`).
fn setting(key: &Node, value: &Node) -> Option<TopicSetting> {
    let key = key.scalar().filter(|key| !key.value.contains("${"))?;
    Some(TopicSetting {
        key: key.value.clone(),
        key_span: key.span.clone(),
        value: written(value)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> TopicFile {
        read("no-such-dir/topics.tf", text)
    }

    fn at<'a>(text: &'a str, written: &Written) -> &'a str {
        &text[written.span.clone()]
    }

    #[test]
    fn a_literal_kafka_topic_is_read_where_it_is_written() {
        let text = r#"resource "kafka_topic" "logs" {
  name               = "systemd_logs"
  replication_factor = 1
  partitions         = 100
  config = {
    "segment.ms"     = "20000"
    "cleanup.policy" = "compact"
  }
}
"#;
        let file = read_text(text);
        assert!(file.notes.is_empty(), "{:?}", file.notes);
        let [topic] = &file.topics[..] else {
            panic!("{:?}", file.topics)
        };
        assert_eq!(topic.form, TopicForm::TerraformKafkaTopic);
        assert_eq!(topic.name.text, "systemd_logs");
        let replicas = topic.replicas.as_ref().unwrap();
        assert_eq!((replicas.integer(), replicas.literal), (Some(1), true));
        assert_eq!(at(text, replicas), "1");
        assert_eq!(topic.partitions.as_ref().unwrap().integer(), Some(100));
        let policy = topic.config("cleanup.policy").unwrap();
        assert_eq!(policy.value.text, "compact");
        assert_eq!(at(text, &policy.value), "compact");
        assert_eq!(&text[policy.key_span.clone()], "cleanup.policy");
        assert_eq!(&text[topic.declared_at.clone()], "logs");
    }

    #[test]
    fn for_each_over_a_local_map_gives_a_topic_per_item_at_its_values() {
        let text = r#"locals {
  topics = {
    orders   = { partitions = 12, replication_factor = 3 }
    payments = { partitions = 6, replication_factor = 1 }
  }
  retention = "604800000"
}
resource "kafka_topic" "topics" {
  for_each           = local.topics
  name               = each.key
  partitions         = each.value.partitions
  replication_factor = each.value.replication_factor
  config = {
    "retention.ms" = local.retention
  }
}
"#;
        let file = read_text(text);
        assert!(file.notes.is_empty(), "{:?}", file.notes);
        let names: Vec<&str> = file.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["orders", "payments"]);
        let payments = &file.topics[1];
        let replicas = payments.replicas.as_ref().unwrap();
        assert_eq!(replicas.integer(), Some(1));
        // The literal in the local's map: what a fix edits.
        assert!(replicas.literal);
        assert_eq!(
            &text[replicas.span.start - 21..replicas.span.end],
            "replication_factor = 1"
        );
        let retention = &payments.config("retention.ms").unwrap().value;
        assert_eq!(
            (retention.text.as_str(), retention.known),
            ("604800000", true)
        );
    }

    #[test]
    fn for_each_over_a_yaml_file_beside_reads_its_values() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("topics.yaml"),
            "topics:\n  - name: audit\n    partitions: 3\n    replication_factor: 1\n    config:\n      cleanup.policy: compact\n",
        )
        .unwrap();
        let text = r#"locals {
  topics_config = yamldecode(file("${path.module}/topics.yaml"))
}
resource "kafka_topic" "topics" {
  for_each           = { for topic in local.topics_config.topics : topic.name => topic }
  name               = each.value.name
  replication_factor = each.value.replication_factor
  partitions         = each.value.partitions
  config             = each.value.config
}
"#;
        let path = dir.path().join("main.tf");
        let file = read(&path.to_string_lossy(), text);
        assert!(file.notes.is_empty(), "{:?}", file.notes);
        let [topic] = &file.topics[..] else {
            panic!("{:?}", file.topics)
        };
        assert_eq!(topic.name.text, "audit");
        let replicas = topic.replicas.as_ref().unwrap();
        // Known, but written in the YAML file: placed at the call that reads it, not edited.
        assert_eq!((replicas.integer(), replicas.literal), (Some(1), false));
        assert!(at(text, replicas).starts_with("file("));
        assert_eq!(
            topic.config("cleanup.policy").unwrap().value.text,
            "compact"
        );
    }

    #[test]
    fn a_variable_takes_its_default_and_one_without_is_unknown() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("variables.tf"),
            "variable \"replicas\" {\n  default = 1\n}\nvariable \"partitions\" {\n  type = number\n}\n",
        )
        .unwrap();
        let text = r#"resource "kafka_topic" "events" {
  name               = "events"
  replication_factor = var.replicas
  partitions         = var.partitions
  config             = var.topic_config
}
"#;
        let path = dir.path().join("main.tf");
        let file = read(&path.to_string_lossy(), text);
        let [topic] = &file.topics[..] else {
            panic!("{:?}", file.topics)
        };
        let replicas = topic.replicas.as_ref().unwrap();
        assert_eq!((replicas.integer(), replicas.literal), (Some(1), false));
        assert_eq!(at(text, replicas), "var.replicas");
        let partitions = topic.partitions.as_ref().unwrap();
        assert!(!partitions.known);
        assert_eq!(partitions.integer(), None);
        assert!(topic.configs.is_empty());
        assert_eq!(
            file.notes,
            [
                "kafka_topic.events: its config is worked out when Terraform runs; its topic configuration is not checked"
            ]
        );
    }

    #[test]
    fn a_confluent_topic_has_no_factor_to_judge() {
        let text = r#"resource "confluent_kafka_topic" "orders" {
  kafka_cluster {
    id = confluent_kafka_cluster.basic.id
  }
  topic_name    = "orders"
  rest_endpoint = confluent_kafka_cluster.basic.rest_endpoint
  config = {
    "min.insync.replicas" = "2"
  }
  credentials {
    key    = "ABCDEFGHIJKLMNOP"
    secret = "s3cr3t-value"
  }
}
"#;
        let file = read_text(text);
        let [topic] = &file.topics[..] else {
            panic!("{:?}", file.topics)
        };
        assert_eq!(topic.form, TopicForm::TerraformConfluentTopic);
        assert_eq!(topic.name.text, "orders");
        assert!(!topic.replicas.as_ref().unwrap().known);
        // The provider's default.
        assert_eq!(topic.partitions.as_ref().unwrap().integer(), Some(6));
        assert!(!topic.partitions.as_ref().unwrap().literal);
        assert_eq!(topic.config("min.insync.replicas").unwrap().value.text, "2");
        let secret = text.find("s3cr3t").unwrap();
        assert!(
            file.hidden
                .iter()
                .any(|span| span.start <= secret && secret < span.end),
            "{:?}",
            file.hidden
        );
    }

    #[test]
    fn values_read_from_a_local_are_shown_and_the_rest_of_it_stays_hidden() {
        let text = r#"locals {
  topics = {
    audit = { partitions = 3, replication_factor = 1, owner = "team-a" }
  }
}
resource "kafka_topic" "topics" {
  for_each           = local.topics
  name               = each.key
  partitions         = each.value.partitions
  replication_factor = each.value.replication_factor
}
"#;
        let file = read_text(text);
        let factor = file.topics[0].replicas.as_ref().unwrap().span.clone();
        let owner = text.find("team-a").unwrap();
        let hides = |at: usize| file.hidden.iter().any(|span| span.contains(&at));
        assert!(!hides(factor.start), "{:?}", file.hidden);
        assert!(hides(owner), "{:?}", file.hidden);
    }

    #[test]
    fn a_for_each_terraform_works_out_is_a_note() {
        let text = r#"resource "kafka_topic" "topics" {
  for_each           = data.external.topics.result
  name               = each.key
  replication_factor = 3
  partitions         = 3
}
"#;
        let file = read_text(text);
        assert!(file.topics.is_empty());
        assert_eq!(file.notes.len(), 1);
        assert!(
            file.notes[0].starts_with("kafka_topic.topics: `for_each`"),
            "{:?}",
            file.notes
        );
    }

    #[test]
    fn count_gives_a_topic_per_index() {
        let text = r#"resource "kafka_topic" "shard" {
  count              = 2
  name               = "shard-${count.index}"
  replication_factor = 3
  partitions         = 1
}
"#;
        let file = read_text(text);
        let names: Vec<&str> = file.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["shard-0", "shard-1"]);
    }
}
