//! `KafkaTopic` resources: Strimzi's (`kafka.strimzi.io`) and Confluent for Kubernetes'
//! (`platform.confluent.io`).
//!
//! Strimzi (strimzi-kafka-operator 0.39+, the unidirectional topic operator,
//! `topic-operator/src/main/java/io/strimzi/operator/topic/BatchingTopicController.java`): the
//! topic is `spec.topicName`, else `metadata.name`; `spec.partitions` and `spec.replicas` left
//! out ask Kafka for the cluster's defaults (`num.partitions`, `default.replication.factor`);
//! `spec.config` holds topic-level configs; the `strimzi.io/cluster` label names the `Kafka`.
//!
//! Confluent for Kubernetes (`platform.confluent.io/v1beta1` `KafkaTopic`): the topic is
//! `spec.name`, else `metadata.name`; `spec.replicas`, `spec.partitionCount`, `spec.configs`;
//! `spec.kafkaClusterRef.name` names the `Kafka`.

use super::declared::{ClusterRef, DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::sources::yaml::{self, Node, Scalar};

/// The `KafkaTopic`s of a YAML text (every document of it).
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let documents = match yaml::parse(text) {
        Ok(documents) => documents,
        // Whatever else reads the file says why it cannot be parsed.
        Err(_) => return read,
    };
    read.hidden = crate::sources::redact::hidden_spans(text, &documents);
    for document in &documents {
        if document.get("kind").and_then(Node::text) != Some("KafkaTopic") {
            continue;
        }
        let api = document
            .get("apiVersion")
            .and_then(Node::text)
            .unwrap_or("");
        let form = if api.starts_with("kafka.strimzi.io/") {
            TopicForm::StrimziKafkaTopic
        } else if api.starts_with("platform.confluent.io/") {
            TopicForm::ConfluentKafkaTopic
        } else {
            continue;
        };
        match topic(document, form) {
            Some(topic) => read.topics.push(topic),
            None => read
                .notes
                .push(format!("{} without metadata.name: not read", form.what())),
        }
    }
    read
}

fn topic(document: &Node, form: TopicForm) -> Option<DeclaredTopic> {
    let declared_at = document.get_entry("kind")?.0.scalar()?.span.clone();
    let spec = document.get("spec");
    let field = |key: &str| spec.and_then(|spec| spec.get(key));
    let (name_key, partitions_key, configs_key) = match form {
        TopicForm::StrimziKafkaTopic => ("topicName", "partitions", "config"),
        _ => ("name", "partitionCount", "configs"),
    };
    let name = field(name_key)
        .and_then(Node::scalar)
        .filter(|scalar| !scalar.is_null())
        .or_else(|| document.at(&["metadata", "name"]).and_then(Node::scalar))
        .filter(|scalar| !scalar.is_null())
        .map(Written::from_scalar)?;
    let cluster = match form {
        TopicForm::StrimziKafkaTopic => document
            .at(&["metadata", "labels", "strimzi.io/cluster"])
            .and_then(Node::scalar)
            .map(|scalar| ClusterRef::Strimzi {
                name: scalar.value.clone(),
                span: scalar.span.clone(),
            }),
        _ => spec
            .and_then(|spec| spec.at(&["kafkaClusterRef", "name"]))
            .and_then(Node::scalar)
            .map(|scalar| ClusterRef::Confluent {
                name: scalar.value.clone(),
                span: scalar.span.clone(),
            }),
    };
    let configs = field(configs_key)
        .map(|configs| {
            configs
                .entries()
                .iter()
                .filter_map(|(key, value)| setting(key, value))
                .collect()
        })
        .unwrap_or_default();
    Some(DeclaredTopic {
        file: 0,
        form,
        name,
        declared_at,
        partitions: field(partitions_key).and_then(value),
        replicas: field("replicas").and_then(value),
        configs,
        cluster,
    })
}

/// A value node: a scalar, or a list (`cleanup.policy: [compact, delete]`) joined as Kafka
/// reads a list (`compact,delete`).
fn value(node: &Node) -> Option<Written> {
    match node {
        Node::Scalar(scalar) if !scalar.is_null() => Some(Written::from_scalar(scalar)),
        Node::Seq(items) => {
            let scalars: Vec<&Scalar> = items.iter().filter_map(Node::scalar).collect();
            let first = scalars.first()?;
            let last = scalars.last()?;
            let joined = scalars
                .iter()
                .map(|scalar| scalar.value.as_str())
                .collect::<Vec<_>>()
                .join(",");
            let mut joined = Written::unknown(joined, first.span.start..last.span.end);
            joined.known = scalars.len() == items.len();
            Some(joined)
        }
        _ => None,
    }
}

fn setting(key: &Node, value_node: &Node) -> Option<TopicSetting> {
    let key = key.scalar()?;
    Some(TopicSetting {
        key: key.value.clone(),
        key_span: key.span.clone(),
        value: value(value_node)?,
    })
}
