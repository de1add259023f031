//! What rules read of the model besides the cluster itself: the [`Context`] methods that answer
//! for a node (its name, the value Kafka uses for a key, its lines), and small pieces the rules
//! share. Rule files reach the checked files only through these (`tests/registry.rs` checks it).

use super::Context;
use crate::catalog::ComponentKind;
use crate::catalog::KafkaVersion;
use crate::catalog::component_keys::ComponentKey;
use crate::cluster::Line;
use crate::cluster::Provenance;
use crate::cluster::component_topics::TopicFactor;
use crate::cluster::endpoints::NodeEndpoints;
use crate::cluster::exposure::LockedDir;
use crate::cluster::listeners::{InterBroker, InterBrokerProblem, NodeListeners, ProtocolMap};
use crate::cluster::setting::{Lookup, Setting};
use crate::cluster::topology::QuorumNode;
use crate::cluster::{Cluster, Effective, Mode, Node};
use crate::components::{Component, mirror_maker_aliases};
use crate::diagnostic::{ComponentRef, Edit, Label, NodeKind, NodeRef};
use crate::secrets;
use crate::yaml_view::YamlView;

impl<'a> Context<'a> {
    /// How a message names a node: `broker 0`, `node 3`, or its file when it has no id.
    pub fn node_name(&self, node: &Node) -> String {
        self.node_ref(node).to_string()
    }

    /// The node as a finding's subject (see [`Context::node_name`] for how it reads).
    pub fn node_ref(&self, node: &Node) -> NodeRef {
        let file = self.files[node.file].short_name(node.part);
        // An id an operator gives the node, not known here, names nothing.
        // Nor does an id output may not show (a value that reads as a credential: a broken
        // YAML line can make one node.id of the next line's password).
        let known_id = node.id_entry(self.files).filter(|entry| {
            !(entry.provenance == Provenance::Operator && is_placeholder(entry.value.trim()))
                && crate::secrets::may_show(&entry.key, entry.value.trim())
        });
        let (kind, id) = match known_id {
            Some(entry) if node.mode == Mode::ZooKeeper || entry.key == "broker.id" => {
                (Some(NodeKind::Broker), Some(entry.value.trim().to_string()))
            }
            Some(entry) => (Some(NodeKind::Node), Some(entry.value.trim().to_string())),
            None => (None, None),
        };
        NodeRef { kind, id, file }
    }

    /// How messages name a component's file, and for a part of a YAML file which one.
    pub fn component_name(&self, component: &Component) -> String {
        self.files[component.file].short_name(component.part)
    }

    /// The component as a finding's subject.
    pub fn component_ref(&self, component: &Component) -> ComponentRef {
        ComponentRef {
            kind: component.kind.id(),
            title: component.kind.name(),
            file: self.component_name(component),
        }
    }

    /// Every component of the cluster written as a file of keys (a Connect worker's, MirrorMaker
    /// 2's or a Streams application's `.properties` file), with each line it reads (the last of
    /// a repeated key). A compose service is left out: its keys are its image's translation of
    /// its environment, not lines of a file.
    pub fn component_lines<'c>(
        &self,
        cluster: &'c Cluster,
    ) -> impl Iterator<Item = (&'c Component, Line<'a>)> + use<'a, 'c> {
        let files = self.files;
        cluster
            .components
            .iter()
            .filter(move |component| files[component.file].view(component.part).is_none())
            .flat_map(move |component| {
                component
                    .properties(files)
                    .effective_entries()
                    .map(move |entry| (component, Line::new(component.file, entry)))
            })
    }

    /// The line of a component's file that sets `key`, the last one if repeated.
    pub fn component_line(&self, component: &Component, key: &str) -> Option<Line<'a>> {
        let entry = component.properties(self.files).get(key)?;
        Some(Line::new(component.file, entry))
    }

    /// What `component` of release `version` does with `key` of its file.
    pub fn component_key(
        &self,
        component: &Component,
        key: &str,
        version: KafkaVersion,
    ) -> ComponentKey {
        let aliases = match component.kind {
            ComponentKind::MirrorMaker => {
                mirror_maker_aliases(component.properties(self.files)).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        crate::catalog::component_keys::judge(component.kind, key, version, &aliases)
    }

    /// The path of file `file`, as output shows it.
    pub fn path(&self, file: usize) -> &'a str {
        &self.files[file].path
    }

    /// The file name of file `file`, without its folder.
    pub fn file_name(&self, file: usize) -> &'a str {
        self.path(file).rsplit('/').next().unwrap_or_default()
    }

    /// The bytes of file `file`, as read.
    pub fn bytes(&self, file: usize) -> &'a [u8] {
        &self.files[file].bytes
    }

    /// Why `Properties.load` would throw on file `file`, if it would.
    pub fn parse_error(&self, file: usize) -> Option<&'a crate::properties::ParseError> {
        self.files[file].parse_error.as_ref()
    }

    /// The cluster's files that `Properties.load` reads (the others are only reported).
    pub fn loaded_files<'c>(
        &self,
        cluster: &'c Cluster,
    ) -> impl Iterator<Item = usize> + use<'a, 'c> {
        let files = self.files;
        cluster
            .files
            .iter()
            .copied()
            .filter(move |file| files[*file].parse_error.is_none())
    }

    /// What the cluster's files say of the Kafka release they run.
    pub fn version_hints(&self, cluster: &Cluster) -> Vec<crate::cluster::version::Hint<'a>> {
        crate::cluster::version::hints(cluster, self.files)
    }

    /// Every line of a `.properties` file, repeats included (a YAML file's are its parts').
    pub fn file_lines(&self, file: usize) -> impl Iterator<Item = Line<'a>> + use<'a> {
        let entries = &self.files[file].properties.entries;
        entries.iter().map(move |entry| Line::new(file, entry))
    }

    /// The lines Kafka reads on `node`: the last of a repeated key (see [`Node::properties`]).
    pub fn lines(&self, node: &Node) -> impl Iterator<Item = Line<'a>> + use<'a> {
        let file = node.file;
        let properties = node.properties(self.files);
        properties
            .effective_entries()
            .map(move |entry| Line::new(file, entry))
    }

    /// Every line of `node`, repeats of a key included, in file order.
    pub fn all_lines(&self, node: &Node) -> impl Iterator<Item = Line<'a>> + use<'a> {
        let file = node.file;
        let entries = &node.properties(self.files).entries;
        entries.iter().map(move |entry| Line::new(file, entry))
    }

    /// Whether the node's file sets some key more than once (its key table knows).
    pub fn repeats_keys(&self, node: &Node) -> bool {
        node.properties(self.files).has_repeated_keys()
    }

    /// What a node or component read from a YAML file stands for.
    pub fn view(&self, file: usize, part: Option<u32>) -> Option<&'a YamlView> {
        self.files[file].view(part)
    }

    /// The line that sets `key` on `node`, the last one if repeated.
    pub fn line(&self, node: &Node, key: &str) -> Option<Line<'a>> {
        let entry = node.entry(self.files, key)?;
        Some(Line::new(node.file, entry))
    }

    /// The line that gives the node its id (`node.id`, else `broker.id`).
    pub fn id_line(&self, node: &Node) -> Option<Line<'a>> {
        let entry = node.id_entry(self.files)?;
        Some(Line::new(node.file, entry))
    }

    /// The value Kafka `version` uses for `key` on `node` (see [`Node::effective`]); `None` for
    /// Kafka's default on a node whose settings may also come from a file kafkalint does not
    /// read (a compose `env_file`): that file may set the key.
    pub fn effective(
        &self,
        node: &Node,
        key: &str,
        version: KafkaVersion,
    ) -> Option<Effective<'a>> {
        let effective = node.effective(self.files, key, version)?;
        (effective.line().is_some() || !self.settings_elsewhere(node)).then_some(effective)
    }

    /// Whether some of the node's settings come from a file kafkalint does not read (see
    /// [`crate::yaml_view::YamlView::settings_elsewhere`]).
    pub fn settings_elsewhere(&self, node: &Node) -> bool {
        self.view(node.file, node.part)
            .is_some_and(|view| view.settings_elsewhere)
    }

    /// The value of `key` on `node` after Kafka's synonyms and parse (see
    /// [`crate::cluster::setting::lookup`]).
    pub fn lookup(&self, node: &Node, key: &str, version: KafkaVersion) -> Lookup<'a> {
        crate::cluster::setting::lookup(self.files, node, key, version)
    }

    /// The setting the node's log directories come from, and its key (see
    /// [`crate::cluster::facts::log_dir_setting`]).
    pub fn log_dir_setting(
        &self,
        node: &Node,
        version: KafkaVersion,
    ) -> Option<(&'static str, Setting<'a>)> {
        crate::cluster::facts::log_dir_setting(self.files, node, version)
    }

    /// The value of an INT `key` on `node` as `lookup` finds it, parsed as Kafka parses it.
    pub fn int_setting(
        &self,
        node: &Node,
        key: &str,
        version: KafkaVersion,
    ) -> Option<(i32, Setting<'a>)> {
        let int = crate::cluster::facts::read_int(self.files, node, key, version).set()?;
        Some((int.value, int.setting))
    }

    /// Whether every setting of `node` is a line of its own `.properties` file: no YAML
    /// reader, image or file kafkalint does not read adds any.
    pub fn is_plain_file(&self, node: &Node) -> bool {
        self.files[node.file].yaml.is_none() && !self.settings_elsewhere(node)
    }

    /// Whether the node's own lines set `key` (Kafka's `originals().containsKey`).
    pub fn in_file(&self, node: &Node, key: &str) -> bool {
        crate::cluster::setting::in_file(self.files, node, key)
    }

    /// Whether the cluster's broker count is known (see [`Cluster::broker_count_is_known`]).
    pub fn broker_count_is_known(&self, cluster: &Cluster) -> bool {
        cluster.broker_count_is_known(self.files)
    }

    /// Effective value of `key` on `node` as an integer, when it is set or defaulted and parses.
    pub fn int_value(
        &self,
        node: &Node,
        key: &str,
        version: KafkaVersion,
    ) -> Option<(i64, Effective<'a>)> {
        let effective = self.effective(node, key, version)?;
        Some((effective.as_int()?, effective))
    }

    /// Whether the cluster uses share groups (Kafka 4): some file sets a share-group key.
    /// Without that, `__share_group_state` is never created and its settings do not matter.
    pub fn uses_share_groups(&self, nodes: &[Node]) -> bool {
        nodes.iter().any(|node| {
            self.all_lines(node).any(|line| {
                line.key().starts_with("share.coordinator.")
                    || line.key().starts_with("group.share.")
                    || line.key() == "share.version"
            })
        })
    }

    /// The value Kafka `version` will use for `key` on `node`, parsed as its ConfigDef parses
    /// it: the file's (the last line) or Kafka's default. `None` when the key is unknown to
    /// `version`, has a null default and is unset, is a placeholder, or does not parse
    /// (`invalid-value` reports that).
    pub fn parsed_value(
        &self,
        node: &Node,
        key: &str,
        version: KafkaVersion,
    ) -> Option<(crate::catalog::value::Parsed, Effective<'a>)> {
        let known = crate::catalog::known(key, version)?;
        // As `Node::effective`, from the one catalogue lookup.
        match self.line(node, key) {
            Some(line) => {
                if is_placeholder(line.value()) {
                    return None;
                }
                let parsed = crate::catalog::value::check(key, known.spec, line.value()).ok()?;
                Some((parsed, Effective::Set(line)))
            }
            None => {
                let crate::catalog::Default::Value(text) = known.spec.default else {
                    return None;
                };
                if is_placeholder(text) || self.settings_elsewhere(node) {
                    return None;
                }
                let parsed = known.checked_default()?.as_ref().ok()?.clone();
                Some((parsed, Effective::Default(text)))
            }
        }
    }

    /// The integer Kafka `version` will use for `key` on `node` (INT, SHORT or LONG), with
    /// where it comes from; `None` as for [`Context::parsed_value`].
    pub fn parsed_integer(
        &self,
        node: &Node,
        key: &str,
        version: KafkaVersion,
    ) -> Option<(i64, Effective<'a>)> {
        let (parsed, effective) = self.parsed_value(node, key, version)?;
        Some((parsed.as_integer()?, effective))
    }

    /// The bytes in the file of `range`, a byte range of the line's value: exact when it is
    /// written as Kafka reads it (no escapes, no continuation lines), else the whole value.
    pub fn value_part_span(
        &self,
        line: Line,
        range: std::ops::Range<usize>,
    ) -> crate::properties::Span {
        let (value, span) = (line.value(), line.value_span());
        let raw = &self.files[line.file].bytes[span.clone()];
        // Latin-1: one byte per char when nothing was unescaped.
        let as_written = raw.len() == value.chars().count()
            && raw
                .iter()
                .zip(value.chars())
                .all(|(b, c)| u32::from(*b) == c as u32);
        if !as_written || range.end > value.len() {
            return span;
        }
        let chars = |end: usize| value[..end].chars().count();
        span.start + chars(range.start)..span.start + chars(range.end)
    }

    /// A label on part of a setting (`range` in its text), or where the file declares the node when the
    /// file leaves the key to Kafka's default.
    pub fn setting_label(
        &self,
        node: &Node,
        key: &str,
        setting: &Setting,
        range: Option<std::ops::Range<usize>>,
        message: String,
    ) -> Label {
        match setting.line {
            Some(line) => {
                let span = match range {
                    Some(range) if line.value() == setting.text => {
                        self.value_part_span(line, range)
                    }
                    _ => line.value_span(),
                };
                Label {
                    file: node.file,
                    span,
                    message,
                }
            }
            None => default_label(node, key, &quoted(key, setting.text), message),
        }
    }

    /// Whether the node's file sets one of `keys` to a placeholder: checks reading them are
    /// skipped, as the real value is unknown. Besides [`is_placeholder`]'s forms this counts a
    /// format field (`{0}`, `{host}`), which no value of these keys has of itself.
    pub fn any_placeholder(&self, node: &Node, keys: &[&str]) -> bool {
        crate::cluster::setting::any_unresolved(self.files, node, keys)
    }

    /// A file of settings without a mode or an id, merged into a full node file elsewhere:
    /// checks of a whole node's configuration do not apply to it (see [`Node::is_fragment`]).
    pub fn is_fragment(&self, node: &Node) -> bool {
        node.is_fragment(self.files)
    }

    /// Every node of the cluster (in file order), then every overlay, with each line Kafka reads
    /// from its file (the last of a repeated key): Kafka reads an overlay's lines in the file
    /// they are merged into, so a rule that judges a line by itself judges them too.
    pub fn effective_lines<'c>(
        &self,
        cluster: &'c Cluster,
    ) -> impl Iterator<Item = (&'c Node, Line<'a>)> + use<'a, 'c> {
        let files = self.files;
        cluster
            .nodes
            .iter()
            .chain(&cluster.overlays)
            .flat_map(move |node| {
                node.properties(files)
                    .effective_entries()
                    .map(move |entry| (node, Line::new(node.file, entry)))
            })
    }

    /// The replication factor `--fix` gives `topic` on `node`, with the edit that sets it:
    /// `None` when the factor is right, or when the file does not set the key (nothing to edit
    /// in place). `internal-topic-replication` and `min-isr-headroom` both use it, so that a
    /// min ISR fix is computed from the factor after its fix.
    pub fn replication_fix(
        &self,
        cluster: &Cluster,
        node: &Node,
        topic: &InternalTopic,
    ) -> Option<(i64, Edit)> {
        let broker_count = cluster.broker_count();
        let key = topic.replication_key;
        let (factor, effective) = self.int_value(node, key, cluster.target.version)?;
        if broker_count == 0
            || !topic.applies(self, &cluster.nodes)
            || !replication_is_wrong(factor, broker_count, self.broker_count_is_known(cluster))
        {
            return None;
        }
        let wanted = wanted_replication(broker_count);
        let line = effective.line()?;
        Some((wanted, self.set_number(line, wanted)))
    }

    /// The node's inter-broker listener (see [`crate::cluster::listeners::inter_broker`]).
    pub fn inter_broker(
        &self,
        node: &Node,
        version: KafkaVersion,
        map: &ProtocolMap<'a>,
    ) -> Option<Result<InterBroker<'a>, InterBrokerProblem<'a>>> {
        crate::cluster::listeners::inter_broker(self.files, node, version, map)
    }

    /// The name of the inter-broker listener of a node's endpoints.
    pub fn inter_broker_name(&self, endpoints: &NodeEndpoints<'a>) -> Option<String> {
        endpoints.inter_broker_name(self.files)
    }

    /// Whether the node serves on loopback alone (see
    /// [`crate::cluster::exposure::serves_loopback_only`]).
    pub fn serves_loopback_only(&self, node: &Node, listeners: Option<&NodeListeners>) -> bool {
        crate::cluster::exposure::serves_loopback_only(self.files, node, listeners)
    }

    /// The directories the node locks (see [`crate::cluster::exposure::locked_dirs`]).
    pub fn locked_dirs(&self, node: &Node, version: KafkaVersion) -> Vec<LockedDir<'a>> {
        crate::cluster::exposure::locked_dirs(self.files, node, version)
    }

    /// Whether the node takes part in a ZooKeeper-to-KRaft migration.
    pub fn migrating(&self, node: &Node) -> bool {
        crate::cluster::topology::migrating(self.files, node)
    }

    /// The cluster's nodes as members of a KRaft quorum.
    pub fn quorum_nodes<'c>(&self, cluster: &'c Cluster) -> Vec<QuorumNode<'a, 'c>> {
        crate::cluster::topology::quorum_nodes(cluster, self.facts)
    }

    /// The topics a component creates, with the factor each asks for.
    pub fn topic_factors(
        &self,
        cluster: &Cluster,
        component: &Component,
        version: KafkaVersion,
    ) -> Vec<TopicFactor<'a>> {
        crate::cluster::component_topics::topic_factors(self.files, cluster, component, version)
    }

    /// The nodes read from the other files of the folders of `cluster`'s files (a migration's
    /// KRaft controllers sit beside its ZooKeeper brokers, a cluster of their own), in file
    /// order.
    pub fn nodes_beside(&self, cluster: &Cluster) -> Vec<Node> {
        let mut beside: Vec<usize> = cluster
            .files
            .iter()
            .flat_map(|file| self.folders.beside(*file).iter().copied())
            .filter(|file| !cluster.files.contains(file) && self.files[*file].parse_error.is_none())
            .collect();
        beside.sort_unstable();
        beside.dedup();
        beside
            .into_iter()
            .flat_map(|file| {
                let source = &self.files[file];
                source
                    .parts()
                    .map(move |part| Node::new(file, part, source))
            })
            .collect()
    }

    /// The edit that sets the line's value to the number `value`: it replaces
    /// the value as written, escapes and continuation lines included, and keeps the whitespace
    /// that trails it (which Kafka trims) and everything else on the line. Digits need no
    /// escaping in `Properties`.
    pub fn set_number(&self, line: Line, value: i64) -> Edit {
        let (file, span) = (line.file, &line.value_span());
        let written = &self.files[file].bytes[span.clone()];
        let trailing = written
            .iter()
            .rev()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
            .count();
        Edit {
            file,
            span: span.start..span.end - trailing,
            replacement: value.to_string().into_bytes(),
        }
    }
}

/// A label on the value of `key` in the node's file, or where the file declares the node (the
/// top of a `.properties` file, a compose service's name) when the key is
/// not set there (the default applies).
pub fn value_label(node: &Node, key: &str, effective: &Effective, message: String) -> Label {
    match effective.line() {
        Some(line) => line_label(line, message),
        None => default_label(node, key, effective.value(), message),
    }
}

/// A label where the file declares a node that leaves `key` to Kafka's default, `shown` as a message
/// quotes it.
fn default_label(node: &Node, key: &str, shown: &str, message: String) -> Label {
    Label {
        file: node.file,
        span: node.declared_at.clone(),
        message: format!("{key} not set, Kafka's default {shown}: {message}"),
    }
}

/// A value as messages may quote it: secrets never.
pub fn quoted(key: &str, value: &str) -> String {
    if secrets::is_hidden(key, value) {
        secrets::REDACTED.to_string()
    } else {
        format!("`{}`", value.trim())
    }
}

pub use super::rule::and_list;

/// "1 broker", "3 brokers".
pub fn brokers(count: usize) -> String {
    if count == 1 {
        "1 broker".to_string()
    } else {
        format!("{count} brokers")
    }
}

/// A topic Kafka creates for itself on first use, with the broker keys that shape it.
pub struct InternalTopic {
    pub topic: &'static str,
    pub replication_key: &'static str,
    /// The key that sets the topic's `min.insync.replicas`, where Kafka has one.
    pub min_isr_key: Option<&'static str>,
    /// Who depends on the topic.
    pub users: &'static str,
    /// What happens when a broker holding the only replica of a partition stops.
    pub partition_lost: &'static str,
    /// Only shaped when share groups are in use.
    pub share_groups_only: bool,
}

pub const INTERNAL_TOPICS: &[InternalTopic] = &[
    InternalTopic {
        topic: "__consumer_offsets",
        replication_key: "offsets.topic.replication.factor",
        min_isr_key: None,
        users: "consumer groups",
        partition_lost: "some consumer groups stop",
        share_groups_only: false,
    },
    InternalTopic {
        topic: "__transaction_state",
        replication_key: "transaction.state.log.replication.factor",
        min_isr_key: Some("transaction.state.log.min.isr"),
        users: "transactions",
        partition_lost: "some transactions stop",
        share_groups_only: false,
    },
    InternalTopic {
        topic: "__share_group_state",
        replication_key: "share.coordinator.state.topic.replication.factor",
        min_isr_key: Some("share.coordinator.state.topic.min.isr"),
        users: "share groups",
        partition_lost: "some share groups stop",
        share_groups_only: true,
    },
];

impl InternalTopic {
    pub fn applies(&self, context: &Context, nodes: &[Node]) -> bool {
        !self.share_groups_only || context.uses_share_groups(nodes)
    }
}

/// The trap of every internal-topic fix, said once: `topic` exists with `factor` replicas.
pub fn existing_topic_help(topic: &str, factor: i64) -> String {
    format!(
        "an existing {topic} keeps {factor} replica{} until raised with kafka-reassign-partitions.sh",
        if factor == 1 { "" } else { "s" }
    )
}

/// A label on the value of a line of a file.
pub fn line_label(line: Line, message: String) -> Label {
    Label {
        file: line.file,
        span: line.value_span(),
        message,
    }
}

pub use crate::cluster::setting::is_placeholder;

/// How a message quotes a number it compares: `key 3000`, or `key 45000 (Kafka's default)` when
/// the file leaves the key unset, so that a reader knows which line to look for.
pub fn numbered(key: &str, value: impl std::fmt::Display, effective: &Effective) -> String {
    format!("{key} {value}{}", origin_note(effective))
}

/// What a message adds after a value it quotes when the value is not one its author wrote:
/// ` (Kafka's default)`, ` (image default)` (an image's scripts write it, no variable
/// does), ` (Strimzi sets it)`; nothing for a value written in the file or worked out by an
/// image from a variable written there.
pub fn origin_note(effective: &Effective) -> &'static str {
    match effective {
        Effective::Default(_) => " (Kafka's default)",
        Effective::Set(line) => match line.provenance() {
            Provenance::Written | Provenance::Derived => "",
            Provenance::Image => " (image default)",
            Provenance::Operator => " (Strimzi sets it)",
            Provenance::ProjectEnv => " (from .env)",
            Provenance::EnvFile => " (from env_file)",
            Provenance::ConfigMap => " (from a ConfigMap)",
            Provenance::Chart => " (the chart sets it)",
            Provenance::Ansible => " (cp-ansible sets it)",
            Provenance::AnsibleVariable => " (Ansible variable)",
            Provenance::ServiceLink => " (a Kubernetes service link)",
        },
    }
}

/// The labels of a finding about two values of one node: the primary on `first` when the file
/// sets it, else on `second`; a secondary on the other one when the file sets it too. A value
/// at its default gets no label (the message says so); when neither is set, the primary sits at
/// where the file declares the node.
pub fn pair_labels(
    node: &Node,
    first: (&Effective, String),
    second: (&Effective, String),
) -> Vec<Label> {
    let label = |(effective, message): &(&Effective, String)| {
        effective
            .line()
            .map(|line| line_label(line, message.clone()))
    };
    let mut labels: Vec<Label> = [label(&first), label(&second)]
        .into_iter()
        .flatten()
        .collect();
    labels.dedup_by(|a, b| a.span == b.span);
    if labels.is_empty() {
        labels.push(Label {
            file: node.file,
            span: node.declared_at.clone(),
            message: first.1,
        });
    }
    labels
}

/// A label on the key of a line of a file.
pub fn key_label(line: Line, message: String) -> Label {
    Label {
        file: line.file,
        span: line.key_span(),
        message,
    }
}

/// The replication factor an internal topic should have on a cluster of `broker_count` brokers:
/// Kafka's default of 3, or every broker when there are fewer.
pub fn wanted_replication(broker_count: usize) -> i64 {
    broker_count.min(3) as i64
}

/// Whether `internal-topic-replication` reports a factor (`factor >= 1`): more replicas than
/// brokers (when the broker count is known), or fewer than [`wanted_replication`].
pub fn replication_is_wrong(factor: i64, broker_count: usize, count_known: bool) -> bool {
    factor >= 1
        && ((factor > broker_count as i64 && count_known)
            || factor < wanted_replication(broker_count))
}
