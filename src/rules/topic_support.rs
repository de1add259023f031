//! What topic rules ask of the declared topics and of the cluster they land on: the factor
//! and minimum ISR a topic gets (its own, else the cluster's default), labels and edits.

use super::TopicContext;
use crate::catalog::KafkaVersion;
use crate::catalog::topic::judge::{self, ProblemKind, TopicProblem};
use crate::cluster::topics::{DeclaredTopic, TopicSetting, Written};
use crate::cluster::{Effective, Mode, Node};
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
    /// [`TopicValue::origin`] after a value shown as `shown_key`'s: ` (the cluster's)` when the
    /// cluster's key is that key.
    pub fn origin_for(&self, shown_key: &str) -> String {
        match self {
            TopicValue::ClusterDefault(_, key, effective, _) if *key == shown_key => {
                format!(" (the cluster's{})", super::support::origin_note(effective))
            }
            _ => self.origin(),
        }
    }

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

/// A problem of a declared topic's configs, with the setting it points at.
pub struct ConfigProblem<'a> {
    pub problem: TopicProblem,
    pub setting: &'a TopicSetting,
    /// The release it was judged for; `None` for a topic bound to no cluster, judged wrong in
    /// every release of the catalogue.
    pub version: Option<KafkaVersion>,
}

/// Topic keys of Confluent Server (`confluent.*`), which Apache Kafka does not know: a cluster
/// of Confluent's images may accept them, so they are never called unknown.
const VENDOR_PREFIXES: &[&str] = &["confluent."];

impl<'a> TopicContext<'a> {
    /// The problems of `topic`'s configs as Kafka validates them when it creates the topic
    /// (`catalog::topic::judge`), for the release of its cluster; for a topic bound to no
    /// cluster, those of every release of the catalogue alike (same kind, same key).
    pub fn config_problems(&self, topic: &'a DeclaredTopic) -> Vec<ConfigProblem<'a>> {
        let configs: Vec<(&str, Option<&str>)> = topic
            .configs
            .iter()
            .map(|setting| {
                let value = setting.value.known.then_some(setting.value.text.as_str());
                (setting.key.as_str(), value)
            })
            .collect();
        let vendor = |problem: &TopicProblem| {
            matches!(problem.kind, ProblemKind::Unknown)
                && VENDOR_PREFIXES
                    .iter()
                    .any(|prefix| problem.key.starts_with(prefix))
        };
        let (problems, version) = match self.version() {
            Some(version) => {
                let lookup = |key: &str| self.cluster_value(key);
                let cluster = judge::Cluster {
                    remote_storage_system_enabled: self.remote_storage_enabled(),
                    zookeeper: self.zookeeper(),
                    broker_value: &lookup,
                };
                (judge::judge(version, &configs, &cluster), Some(version))
            }
            None => (self.wrong_in_every_release(&configs), None),
        };
        problems
            .into_iter()
            .filter(|problem| !vendor(problem))
            .filter_map(|problem| {
                let setting = topic.config(&problem.key)?;
                Some(ConfigProblem {
                    problem,
                    setting,
                    version,
                })
            })
            .collect()
    }

    /// The problems that every release of the catalogue finds alike, with nothing known of the
    /// cluster: the newest release's words.
    fn wrong_in_every_release(&self, configs: &[(&str, Option<&str>)]) -> Vec<TopicProblem> {
        let unknown = |_: &str| judge::ClusterValue::Unknown;
        let cluster = judge::Cluster {
            remote_storage_system_enabled: None,
            zookeeper: None,
            broker_value: &unknown,
        };
        let mut releases = crate::catalog::VERSIONS.iter().rev();
        let Some(newest) = releases.next() else {
            return Vec::new();
        };
        let mut problems = judge::judge(*newest, configs, &cluster);
        for release in releases {
            let older = judge::judge(*release, configs, &cluster);
            problems.retain(|problem| {
                older
                    .iter()
                    .any(|other| other.kind == problem.kind && other.key == problem.key)
            });
        }
        problems
    }

    /// The nodes whose settings Kafka validates and runs a topic with: brokers, and in KRaft
    /// the controllers (`ControllerConfigurationValidator` validates with the controller's).
    fn topic_nodes(&self) -> impl Iterator<Item = &'a Node> + use<'a> {
        let nodes = self.cluster.map(|(cluster, _)| cluster.nodes.as_slice());
        nodes
            .unwrap_or_default()
            .iter()
            .filter(|node| node.roles.broker || node.roles.controller)
    }

    /// The value every such node gives broker key `key`, as Kafka resolves it (a `.ms` key
    /// left unset, from its `.minutes` or `.hours` sibling); unknown when they disagree.
    fn cluster_value(&self, key: &str) -> judge::ClusterValue {
        let Some((cluster, context)) = self.cluster else {
            return judge::ClusterValue::Unknown;
        };
        let version = cluster.target.version;
        let mut agreed: Option<judge::ClusterValue> = None;
        for node in self.topic_nodes() {
            let value = node_value(context, node, key, version);
            match &agreed {
                Some(known) if *known != value => return judge::ClusterValue::Unknown,
                _ => agreed = Some(value),
            }
        }
        agreed.unwrap_or(judge::ClusterValue::Unknown)
    }

    /// `remote.log.storage.system.enable` of every broker and controller: `None` when they
    /// differ or one is not known.
    fn remote_storage_enabled(&self) -> Option<bool> {
        match self.cluster_value("remote.log.storage.system.enable") {
            judge::ClusterValue::Value(value) => value.trim().parse().ok(),
            judge::ClusterValue::Unset => Some(false),
            judge::ClusterValue::Unknown => None,
        }
    }

    /// Whether the cluster runs in ZooKeeper mode; `None` when its nodes do not say alike.
    fn zookeeper(&self) -> Option<bool> {
        let mut modes = self.topic_nodes().map(|node| node.mode);
        let first = modes.next()?;
        if modes.any(|mode| mode != first) {
            return None;
        }
        match first {
            Mode::ZooKeeper => Some(true),
            Mode::KRaft => Some(false),
            Mode::Unknown => None,
        }
    }
}

/// What `node` sets for broker key `key`: a `.ms` key left unset takes its `.minutes` or
/// `.hours` sibling, as `KafkaConfig` reads `log.retention.ms` and `log.roll.ms`.
fn node_value(
    context: &super::Context,
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> judge::ClusterValue {
    let set = |key: &str| {
        let effective = context.effective(node, key, version)?;
        effective.line()?;
        Some(effective.value().trim().to_string())
    };
    let known = |text: String| match crate::cluster::setting::is_placeholder(&text) {
        true => judge::ClusterValue::Unknown,
        false => judge::ClusterValue::Value(text),
    };
    if let Some(value) = set(key) {
        return known(value);
    }
    if let Some(base) = key.strip_suffix(".ms") {
        for (unit, millis) in [("minutes", 60_000i64), ("hours", 3_600_000)] {
            if let Some(value) = set(&format!("{base}.{unit}")) {
                return match value.parse::<i64>() {
                    Ok(count) => judge::ClusterValue::Value((count * millis).to_string()),
                    Err(_) => judge::ClusterValue::Unknown,
                };
            }
        }
    }
    judge::ClusterValue::Unset
}
