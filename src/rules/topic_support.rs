//! What topic rules ask of the declared topics and of the cluster they land on: the factor
//! and minimum ISR a topic gets (its own, else the cluster's default), labels and edits.

use super::TopicContext;
use crate::catalog::KafkaVersion;
use crate::cluster::topics::{DeclaredTopic, Written};
use crate::cluster::{Effective, Node};
use crate::diagnostic::{Edit, Label};

/// A value a topic gets: written in its declaration, or the cluster's default.
#[derive(Debug, Clone)]
pub enum TopicValue<'a> {
    /// Written in the declaration.
    Declared(i64, &'a Written),
    /// Left out (or `-1`): the cluster's value of the broker key, on its first broker.
    ClusterDefault(i64, &'static str, Effective<'a>, Node),
}

impl TopicValue<'_> {
    pub fn value(&self) -> i64 {
        match self {
            TopicValue::Declared(value, _) | TopicValue::ClusterDefault(value, ..) => *value,
        }
    }

    /// What a message adds after the value: nothing when the topic writes it, else where it
    /// comes from.
    pub fn origin(&self) -> String {
        match self {
            TopicValue::Declared(..) => String::new(),
            TopicValue::ClusterDefault(_, key, effective, _) => format!(
                " (the cluster's {key}{})",
                super::support::origin_note(effective)
            ),
        }
    }
}

impl<'a> TopicContext<'a> {
    /// The cluster's broker count, when the topics are bound to a cluster whose count is known.
    pub fn broker_count(&self) -> Option<usize> {
        let (cluster, context) = self.cluster?;
        context
            .broker_count_is_known(cluster)
            .then(|| cluster.broker_count())
    }

    /// The release the cluster runs, when the topics are bound to one.
    pub fn version(&self) -> Option<KafkaVersion> {
        self.cluster.map(|(cluster, _)| cluster.target.version)
    }

    /// The value every broker and controller of the cluster gives the INT `key` (through its synonyms and
    /// Kafka's default), with the first broker and where it comes from; `None` when unbound,
    /// when the brokers disagree, or when a broker's value is unknown.
    pub fn cluster_int(&self, key: &'static str) -> Option<(i64, Effective<'a>, Node)> {
        let (cluster, context) = self.cluster?;
        let version = cluster.target.version;
        let mut found: Option<(i64, Effective<'a>, Node)> = None;
        // Whichever node handles a request applies its own value: the brokers, and in KRaft the
        // controllers (`default.replication.factor` for CreateTopics without a factor).
        for node in cluster
            .nodes
            .iter()
            .filter(|node| node.roles.broker || node.roles.controller)
        {
            let (value, effective) = context.int_value(node, key, version)?;
            match &found {
                Some((known, ..)) if *known != value => return None,
                Some(_) => {}
                None => found = Some((value, effective, node.clone())),
            }
        }
        found
    }

    /// The replication factor `topic` gets: its own, else (left out, or `-1`) the cluster's
    /// `default.replication.factor`. `None` when not known.
    pub fn factor(&self, topic: &'a DeclaredTopic) -> Option<TopicValue<'a>> {
        self.declared_or_default(topic.replicas.as_ref(), "default.replication.factor")
    }

    /// The `min.insync.replicas` `topic` gets: its own config, else the cluster's.
    pub fn min_isr(&self, topic: &'a DeclaredTopic) -> Option<TopicValue<'a>> {
        let own = topic
            .config("min.insync.replicas")
            .map(|setting| &setting.value);
        self.declared_or_default(own, "min.insync.replicas")
    }

    fn declared_or_default(
        &self,
        written: Option<&'a Written>,
        cluster_key: &'static str,
    ) -> Option<TopicValue<'a>> {
        match written {
            Some(written) if !written.known => None,
            Some(written) if written.integer() != Some(-1) => {
                Some(TopicValue::Declared(written.integer()?, written))
            }
            _ => {
                let (value, effective, node) = self.cluster_int(cluster_key)?;
                Some(TopicValue::ClusterDefault(
                    value,
                    cluster_key,
                    effective,
                    node,
                ))
            }
        }
    }

    /// A label on `span` of the topic's file.
    pub fn label(
        &self,
        topic: &DeclaredTopic,
        span: &crate::properties::Span,
        message: String,
    ) -> Label {
        Label {
            file: topic.file,
            span: span.clone(),
            message,
        }
    }

    /// A label on a value the topic gets: its own where written, else where the topic is
    /// declared (the message says which default applies), and the default's own line too.
    pub fn value_labels(
        &self,
        topic: &DeclaredTopic,
        value: &TopicValue,
        message: String,
    ) -> Vec<Label> {
        match value {
            TopicValue::Declared(_, written) => vec![self.label(topic, &written.span, message)],
            TopicValue::ClusterDefault(_, key, effective, _) => {
                let mut labels = vec![self.label(topic, &topic.declared_at, message)];
                if let Some(line) = effective.line() {
                    labels.push(super::support::line_label(
                        line,
                        format!("the cluster's {key}"),
                    ));
                }
                labels
            }
        }
    }

    /// An edit that writes `value` in place of a written number (a fix).
    pub fn set_number(&self, topic: &DeclaredTopic, written: &Written, value: i64) -> Option<Edit> {
        (written.literal && written.known).then(|| Edit {
            file: topic.file,
            span: written.span.clone(),
            replacement: value.to_string().into_bytes(),
        })
    }

    /// The path of the file that declares `topic`, as messages show it.
    pub fn path(&self, topic: &DeclaredTopic) -> &'a str {
        &self.files[topic.file].path
    }

    /// The name of `topic` as a message quotes it.
    pub fn topic_name(&self, topic: &DeclaredTopic) -> String {
        format!("topic `{}`", topic.shown_name())
    }
}
