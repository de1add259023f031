//! The bitnami/kafka chart's `provisioning.topics`: the topics its post-install Job creates.
//!
//! The same on every chart line that has it (bitnami/charts `bitnami/kafka`, read at
//! kafka/12.20.0 `templates/kafka-provisioning.yaml`, and at kafka/14.0.0, kafka/20.0.0,
//! kafka/23.0.7, kafka/26.0.0, kafka/31.5.0, kafka/32.4.3 `templates/provisioning/job.yaml`):
//! only `{{- if .Values.provisioning.enabled }}` (values.yaml: `enabled: false`) renders the Job;
//! per topic it runs `kafka-topics.sh --create --if-not-exists --replication-factor
//! {{ $topic.replicationFactor | default $.Values.provisioning.replicationFactor }} --partitions
//! {{ $topic.partitions | default $.Values.provisioning.numPartitions }}` with `--config k=v`
//! per `$topic.config` entry and `--topic {{ $topic.name }}`. values.yaml sets both defaults to
//! 1. Helm's `default` takes the fallback for an empty value and for 0 too.
//!
//! The values sit at the top of a values file, or under `kafka:` in the values of a chart that
//! depends on bitnami's.

use super::declared::{DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::properties::Span;
use crate::sources::yaml::{self, Node, Scalar};

/// The chart's own default for `provisioning.numPartitions` and `provisioning.replicationFactor`.
const CHART_DEFAULT: &str = "1";

/// The topics the chart's provisioning Job creates from a values file.
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let Ok(documents) = yaml::parse(text) else {
        return read;
    };
    read.hidden = crate::sources::redact::hidden_spans(text, &documents);
    for document in &documents {
        let values = [Some(document), document.get("kafka")];
        for provisioning in values
            .into_iter()
            .flatten()
            .filter_map(|v| v.get("provisioning"))
        {
            provisioned(provisioning, &mut read);
        }
    }
    read
}

fn provisioned(provisioning: &Node, read: &mut TopicFile) {
    let Some(topics) = provisioning.get("topics").filter(|t| !t.items().is_empty()) else {
        return;
    };
    match provisioning.get("enabled").and_then(Node::scalar) {
        Some(enabled) if enabled.value == "true" => {}
        Some(enabled) if yaml::is_template(&enabled.value) || enabled.value.contains("${") => {
            read.notes.push(format!(
                "provisioning.enabled is `{}`, which kafkalint does not evaluate: the chart's \
                 provisioning.topics are not read",
                enabled.value
            ));
            return;
        }
        // Disabled (the chart's default): the Job is not rendered, no topic is created.
        _ => return,
    }
    let partitions = Default::new(provisioning.get("numPartitions"));
    let replicas = Default::new(provisioning.get("replicationFactor"));
    for entry in topics.items() {
        match topic(entry, &partitions, &replicas) {
            Some(topic) => read.topics.push(topic),
            None => read
                .notes
                .push("a provisioning.topics entry without a name: not read".to_string()),
        }
    }
}

/// `provisioning.numPartitions` or `provisioning.replicationFactor`: as the file writes it,
/// else the chart's default.
struct Default<'a> {
    written: Option<&'a Scalar>,
}

impl<'a> Default<'a> {
    fn new(node: Option<&'a Node>) -> Default<'a> {
        Default {
            written: node.and_then(Node::scalar).filter(|s| !empty(s)),
        }
    }

    /// The value a topic that leaves it out gets; the chart's own default is written nowhere
    /// in the file: it points at the topic, and no fix may edit it.
    fn value(&self, topic_at: &Span) -> Written {
        match self.written {
            Some(scalar) => Written::from_scalar(scalar),
            None => Written {
                text: CHART_DEFAULT.to_string(),
                span: topic_at.clone(),
                known: true,
                literal: false,
            },
        }
    }
}

/// Whether Helm's `default` replaces the value: empty, null or zero.
fn empty(scalar: &Scalar) -> bool {
    scalar.is_null() || matches!(scalar.value.trim(), "" | "0" | "false")
}

fn topic(entry: &Node, partitions: &Default, replicas: &Default) -> Option<DeclaredTopic> {
    let (name_key, name_node) = entry.get_entry("name")?;
    let name = Written::from_scalar(name_node.scalar().filter(|s| !s.is_null())?);
    let declared_at = name_key.scalar()?.span.clone();
    let own = |key: &str| {
        entry
            .get(key)
            .and_then(Node::scalar)
            .filter(|s| !empty(s))
            .map(Written::from_scalar)
    };
    let configs = entry
        .get("config")
        .map(Node::entries)
        .unwrap_or_default()
        .iter()
        .filter_map(|(key, value)| {
            let key = key.scalar()?;
            Some(TopicSetting {
                key: key.value.clone(),
                key_span: key.span.clone(),
                value: Written::from_scalar(value.scalar()?),
            })
        })
        .collect();
    Some(DeclaredTopic {
        file: 0,
        form: TopicForm::BitnamiProvisioning,
        name,
        partitions: Some(own("partitions").unwrap_or_else(|| partitions.value(&declared_at))),
        replicas: Some(own("replicationFactor").unwrap_or_else(|| replicas.value(&declared_at))),
        declared_at,
        configs,
        cluster: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, written: &Written) -> &'a str {
        &text[written.span.clone()]
    }

    const VALUES: &str = "\
provisioning:
  enabled: true
  replicationFactor: 2
  topics:
    - name: orders
      partitions: 6
      config:
        min.insync.replicas: 2
        cleanup.policy: compact
    - name: audit
      replicationFactor: 3
";

    #[test]
    fn reads_topics_with_the_provisioning_defaults() {
        let read = read(VALUES);
        assert_eq!(read.topics.len(), 2);
        let orders = &read.topics[0];
        assert_eq!(at(VALUES, &orders.name), "orders");
        assert_eq!(at(VALUES, orders.partitions.as_ref().unwrap()), "6");
        // Left out: `provisioning.replicationFactor`, where the file writes it.
        let factor = orders.replicas.as_ref().unwrap();
        assert_eq!((factor.text.as_str(), at(VALUES, factor)), ("2", "2"));
        assert_eq!(
            at(VALUES, &orders.config("min.insync.replicas").unwrap().value),
            "2"
        );
        let audit = &read.topics[1];
        assert_eq!(at(VALUES, audit.replicas.as_ref().unwrap()), "3");
        // `provisioning.numPartitions` is not written: the chart's 1, which no fix edits.
        let partitions = audit.partitions.as_ref().unwrap();
        assert_eq!(partitions.text, "1");
        assert!(!partitions.literal);
    }

    #[test]
    fn disabled_provisioning_creates_nothing() {
        assert!(
            read(&VALUES.replace("enabled: true", "enabled: false"))
                .topics
                .is_empty()
        );
        assert!(
            read(&VALUES.replace("  enabled: true\n", ""))
                .topics
                .is_empty()
        );
        let templated = read(&VALUES.replace("enabled: true", "enabled: \"{{ .Values.x }}\""));
        assert!(templated.topics.is_empty());
        assert!(templated.notes[0].contains("does not evaluate"));
    }

    #[test]
    fn reads_the_values_of_a_chart_that_depends_on_bitnami_and_helm_default_of_zero() {
        let nested = format!(
            "kafka:\n{}",
            VALUES
                .replace("replicationFactor: 3", "replicationFactor: 0")
                .lines()
                .map(|line| format!("  {line}\n"))
                .collect::<String>()
        );
        let read = read(&nested);
        assert_eq!(read.topics.len(), 2);
        assert_eq!(read.topics[1].replicas.as_ref().unwrap().text, "2");
    }
}
