//! topicctl topic files (segmentio/topicctl `pkg/config/topic.go`, `TopicConfig`, at commit
//! 133a491a): `meta.name`; `spec.partitions`, `spec.replicationFactor` (both required, above 0,
//! by `Validate`); `spec.settings` (topic configs, a list joined with `,`); and
//! `spec.retentionMinutes`, which `ToNewTopicConfig` sends as `retention.ms` = minutes × 60000
//! when above 0. `spec.placement.strategy` is required too: it marks the form. A file may hold
//! several topics, one per YAML document. `meta.cluster` names a topicctl cluster file, not a
//! Kafka kafkalint reads: the topic binds to the cluster beside it.

use super::declared::{DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::sources::yaml::{self, Node, Scalar};

/// The topics of a topicctl topic file.
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let Ok(documents) = yaml::parse(text) else {
        return read;
    };
    read.hidden = crate::sources::redact::hidden_spans(text, &documents);
    for document in &documents {
        let (Some(meta), Some(spec)) = (document.get("meta"), document.get("spec")) else {
            continue;
        };
        if spec.get("placement").is_none() {
            continue;
        }
        match topic(meta, spec) {
            Some(topic) => read.topics.push(topic),
            None => read
                .notes
                .push("a topicctl topic without meta.name: not read".to_string()),
        }
    }
    read
}

fn topic(meta: &Node, spec: &Node) -> Option<DeclaredTopic> {
    let (name_key, name) = meta.get_entry("name")?;
    let name = Written::from_scalar(name.scalar().filter(|s| !s.is_null())?);
    let value = |key: &str| {
        spec.get(key)
            .and_then(Node::scalar)
            .map(Written::from_scalar)
    };
    let mut configs: Vec<TopicSetting> = spec
        .get("settings")
        .map(Node::entries)
        .unwrap_or_default()
        .iter()
        .filter_map(|(key, value)| setting(key, value))
        .collect();
    if let Some(retention) = retention(spec) {
        configs.push(retention);
    }
    Some(DeclaredTopic {
        file: 0,
        form: TopicForm::Topicctl,
        name,
        declared_at: name_key.scalar()?.span.clone(),
        partitions: value("partitions"),
        replicas: value("replicationFactor"),
        configs,
        cluster: None,
    })
}

/// `retentionMinutes` as the `retention.ms` topicctl sends (only when above 0).
fn retention(spec: &Node) -> Option<TopicSetting> {
    let (key, value) = spec.get_entry("retentionMinutes")?;
    let (key, scalar) = (key.scalar()?, value.scalar()?);
    let minutes = Written::from_scalar(scalar);
    let value = match minutes.integer() {
        Some(count) if count > 0 => Written {
            text: count.saturating_mul(60_000).to_string(),
            span: minutes.span.clone(),
            known: true,
            literal: false,
        },
        Some(_) => return None,
        None => Written::unknown(minutes.text.clone(), minutes.span.clone()),
    };
    Some(TopicSetting {
        key: "retention.ms".to_string(),
        key_span: key.span.clone(),
        value,
    })
}

fn setting(key: &Node, value: &Node) -> Option<TopicSetting> {
    let key = key.scalar()?;
    let value = match value {
        Node::Scalar(scalar) if !scalar.is_null() => Written::from_scalar(scalar),
        Node::Seq(items) => {
            let scalars: Vec<&Scalar> = items.iter().filter_map(Node::scalar).collect();
            let (first, last) = (scalars.first()?, scalars.last()?);
            let joined: Vec<&str> = scalars.iter().map(|s| s.value.as_str()).collect();
            let mut joined = Written::unknown(joined.join(","), first.span.start..last.span.end);
            joined.known = scalars.len() == items.len();
            joined
        }
        _ => return None,
    };
    Some(TopicSetting {
        key: key.value.clone(),
        key_span: key.span.clone(),
        value,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The shape of topicctl's own examples (examples/local-cluster/topics/topic-default.yaml).
    const TOPIC: &str = "\
meta:
  name: topic-default
  cluster: local-cluster
  environment: local-env
  region: local-region
  description: |
    Topic that uses default (any) strategy for assigning partition brokers.

spec:
  partitions: 3
  replicationFactor: 2
  retentionMinutes: 100
  placement:
    strategy: any
  settings:
    cleanup.policy:
      - delete
      - compact
    min.insync.replicas: 2
";

    #[test]
    fn reads_a_topic_with_retention_minutes_as_retention_ms() {
        let read = read(TOPIC);
        assert_eq!(read.topics.len(), 1);
        let topic = &read.topics[0];
        assert_eq!(&TOPIC[topic.name.span.clone()], "topic-default");
        assert_eq!(&TOPIC[topic.replicas.as_ref().unwrap().span.clone()], "2");
        assert_eq!(topic.config("retention.ms").unwrap().value.text, "6000000");
        assert!(!topic.config("retention.ms").unwrap().value.literal);
        assert_eq!(
            topic.config("cleanup.policy").unwrap().value.text,
            "delete,compact"
        );
        assert_eq!(topic.config("min.insync.replicas").unwrap().value.text, "2");
    }

    #[test]
    fn a_file_without_placement_is_not_topicctl() {
        assert!(read(&TOPIC.replace("placement", "other")).topics.is_empty());
    }
}
