//! What a file declares of a topic, as written: the data every topic reader gives.

use crate::properties::Span;

/// The form a topic is declared in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TopicForm {
    /// A Strimzi `KafkaTopic` (`kafka.strimzi.io`), reconciled by the topic operator.
    StrimziKafkaTopic,
    /// A Confluent for Kubernetes `KafkaTopic` (`platform.confluent.io`).
    ConfluentKafkaTopic,
    /// A Terraform `kafka_topic` resource (the Mongey/kafka provider).
    TerraformKafkaTopic,
    /// A Terraform `confluent_kafka_topic` resource (Confluent Cloud fixes the factor).
    TerraformConfluentTopic,
    /// A `kafka-topics(.sh) --create` command line.
    KafkaTopicsCommand,
    /// An image's `KAFKA_CREATE_TOPICS` variable (`name:partitions:replicas[:policy]`).
    CreateTopicsVariable,
    /// The bitnami/kafka chart's `provisioning.topics`.
    BitnamiProvisioning,
    /// A topicctl topic file.
    Topicctl,
    /// A JulieOps topology.
    JulieOps,
}

impl TopicForm {
    /// The form in a few words, for messages ("a Strimzi KafkaTopic").
    pub fn what(self) -> &'static str {
        match self {
            TopicForm::StrimziKafkaTopic => "a Strimzi KafkaTopic",
            TopicForm::ConfluentKafkaTopic => "a Confluent for Kubernetes KafkaTopic",
            TopicForm::TerraformKafkaTopic => "a Terraform kafka_topic",
            TopicForm::TerraformConfluentTopic => "a Terraform confluent_kafka_topic",
            TopicForm::KafkaTopicsCommand => "a kafka-topics --create command",
            TopicForm::CreateTopicsVariable => "a KAFKA_CREATE_TOPICS entry",
            TopicForm::BitnamiProvisioning => "the bitnami/kafka chart's provisioning.topics",
            TopicForm::Topicctl => "a topicctl topic file",
            TopicForm::JulieOps => "a JulieOps topology",
        }
    }

    /// Whether the form leaves a topic that exists alone: it only ever creates (`--if-not-exists`,
    /// the chart's provisioning job, an image's start-up script), so a changed declaration never
    /// reaches a running topic.
    pub fn creates_only(self) -> bool {
        matches!(
            self,
            TopicForm::KafkaTopicsCommand
                | TopicForm::CreateTopicsVariable
                | TopicForm::BitnamiProvisioning
        )
    }
}

/// A value as written in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// The value (unquoted), or the expression written when it is not `known`.
    pub text: String,
    /// Where it is written: the value's own bytes when `literal`.
    pub span: Span,
    /// Whether `text` is the value Kafka gets: not a variable, a template or an expression
    /// kafkalint does not evaluate.
    pub known: bool,
    /// Whether `span` holds exactly `text`, so that a fix may replace it.
    pub literal: bool,
}

impl Written {
    /// A value written as it is, at `span`.
    pub fn literal(text: impl Into<String>, span: Span) -> Written {
        Written {
            text: text.into(),
            span,
            known: true,
            literal: true,
        }
    }

    /// A value kafkalint does not know (a variable, a template), written at `span`.
    pub fn unknown(text: impl Into<String>, span: Span) -> Written {
        Written {
            text: text.into(),
            span,
            known: false,
            literal: false,
        }
    }

    /// A YAML scalar as written: a Helm or Go template (`{{ }}`), or a variable an overlay or a
    /// tool substitutes (`${...}`), is no value kafkalint knows.
    pub fn from_scalar(scalar: &crate::sources::yaml::Scalar) -> Written {
        let text = scalar.value.clone();
        if crate::sources::yaml::is_template(&text) || text.contains("${") {
            return Written::unknown(text, scalar.span.clone());
        }
        Written {
            text,
            span: scalar.span.clone(),
            known: true,
            literal: scalar.exact,
        }
    }

    /// The value as an integer, when it is known and one.
    pub fn integer(&self) -> Option<i64> {
        self.known.then(|| self.text.trim().parse().ok()).flatten()
    }
}

/// One configuration of a declared topic (`retention.ms: 604800000`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicSetting {
    pub key: String,
    pub key_span: Span,
    pub value: Written,
}

/// What a declaration names as the cluster it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClusterRef {
    /// The Strimzi `Kafka` of this name (the `strimzi.io/cluster` label).
    Strimzi { name: String, span: Span },
    /// The Confluent for Kubernetes `Kafka` of this name (`spec.kafkaClusterRef.name`).
    Confluent { name: String, span: Span },
    /// The compose service a `kafka-topics` command connects to (`docker compose exec
    /// SERVICE`, else the host of `--bootstrap-server HOST:PORT`): it chooses between clusters
    /// that are otherwise as near (two clusters of one compose file), and binds nothing alone.
    Service { name: String, span: Span },
}

/// One topic a file declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredTopic {
    /// The file that declares it: an index into the files read (set when it is bound; the
    /// readers leave 0).
    pub file: usize,
    pub form: TopicForm,
    /// Its name in Kafka.
    pub name: Written,
    /// Where the declaration starts (a resource's `kind`, a command's first word): what a
    /// finding points at when the value it is about is not written (a factor left to the
    /// cluster's default).
    pub declared_at: Span,
    /// The partition count; `None` when not written (the cluster's `num.partitions`).
    pub partitions: Option<Written>,
    /// The replication factor; `None` when not written (the cluster's
    /// `default.replication.factor`, as `-1` asks for too).
    pub replicas: Option<Written>,
    /// Its topic-level configuration, in file order.
    pub configs: Vec<TopicSetting>,
    /// The cluster it names, when its form names one.
    pub cluster: Option<ClusterRef>,
}

impl DeclaredTopic {
    /// Its topic-level `key`, when declared.
    pub fn config(&self, key: &str) -> Option<&TopicSetting> {
        self.configs.iter().rev().find(|setting| setting.key == key)
    }

    /// The name as messages show it: the name, or the expression it is written as.
    pub fn shown_name(&self) -> &str {
        &self.name.text
    }
}

/// What reading one file for topics gives.
#[derive(Debug, Default)]
pub struct TopicFile {
    /// The topics it declares, in file order.
    pub topics: Vec<DeclaredTopic>,
    /// What output never shows of it (values that may be secrets).
    pub hidden: Vec<Span>,
    /// What could not be read of it, each said in one line (without the path).
    pub notes: Vec<String>,
}

/// `hidden` less what `shown` covers: the spans output hides, with the values a reader shows
/// taken out of them (a topic's name and counts inside a script a redactor hid whole), the rest
/// of each still hidden.
pub fn uncover<S: std::borrow::Borrow<Span>>(hidden: Vec<Span>, shown: &[S]) -> Vec<Span> {
    let mut parts = hidden;
    for cut in shown.iter().map(std::borrow::Borrow::borrow) {
        parts = parts
            .into_iter()
            .flat_map(|part| {
                if cut.end <= part.start || cut.start >= part.end {
                    return vec![part];
                }
                [
                    part.start..cut.start.max(part.start),
                    cut.end.min(part.end)..part.end,
                ]
                .into_iter()
                .filter(|piece| !piece.is_empty())
                .collect()
            })
            .collect();
    }
    parts
}
