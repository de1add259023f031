//! Small pieces the rules share.

use crate::catalog::KafkaVersion;
use crate::cluster::{Cluster, Effective, Mode, Node};
use crate::diagnostic::{Edit, Label, NodeKind, NodeRef};
use crate::properties::Entry;
use crate::secrets;
use crate::source::SourceFile;

/// How a message names a node: `broker 0`, `node 3`, or its file when it has no id.
pub fn node_name(files: &[SourceFile], node: &Node) -> String {
    node_ref(files, node).to_string()
}

/// The node as a finding's subject (see [`node_name`] for how it reads).
pub fn node_ref(files: &[SourceFile], node: &Node) -> NodeRef {
    let file = files[node.file].short_name(node.part);
    let (kind, id) = match node.id_entry(files) {
        Some(entry) if node.mode == Mode::ZooKeeper || entry.key == "broker.id" => {
            (Some(NodeKind::Broker), Some(entry.value.trim().to_string()))
        }
        Some(entry) => (Some(NodeKind::Node), Some(entry.value.trim().to_string())),
        None => (None, None),
    };
    NodeRef { kind, id, file }
}

/// A label on the value of `key` in the node's file, or at the top of the file when the key is
/// not set there (the default applies).
pub fn value_label(node: &Node, key: &str, effective: &Effective, message: String) -> Label {
    match effective.entry() {
        Some(entry) => entry_label(node.file, entry, message),
        None => default_label(node.file, key, effective.value(), message),
    }
}

/// A label at the top of a file that leaves `key` to Kafka's default, `shown` as a message
/// quotes it.
fn default_label(file: usize, key: &str, shown: &str, message: String) -> Label {
    Label {
        file,
        span: 0..0,
        message: format!("{key} is not set: Kafka's default {shown} applies ({message})"),
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

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[impl AsRef<str>]) -> String {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// "1 broker", "3 brokers".
pub fn brokers(count: usize) -> String {
    if count == 1 {
        "1 broker".to_string()
    } else {
        format!("{count} brokers")
    }
}

/// Effective value of `key` on `node` as an integer, when it is set or defaulted and parses.
pub fn int_value<'a>(
    files: &'a [SourceFile],
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Option<(i64, Effective<'a>)> {
    let effective = node.effective(files, key, version)?;
    Some((effective.as_int()?, effective))
}

/// Whether the cluster uses share groups (Kafka 4): some file sets a share-group key. Without
/// that, `__share_group_state` is never created and its settings do not matter.
pub fn uses_share_groups(files: &[SourceFile], nodes: &[Node]) -> bool {
    nodes.iter().any(|node| {
        node.properties(files).entries.iter().any(|entry| {
            entry.key.starts_with("share.coordinator.")
                || entry.key.starts_with("group.share.")
                || entry.key == "share.version"
        })
    })
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
        partition_lost: "every consumer group whose coordinator partition it holds stops: FindCoordinator answers \
                         COORDINATOR_NOT_AVAILABLE, so the group can neither join nor commit offsets",
        share_groups_only: false,
    },
    InternalTopic {
        topic: "__transaction_state",
        replication_key: "transaction.state.log.replication.factor",
        min_isr_key: Some("transaction.state.log.min.isr"),
        users: "transactional and exactly-once producers",
        partition_lost: "every transactional producer whose transactional id maps to a partition it holds stops: \
                         InitProducerId and commits fail with COORDINATOR_NOT_AVAILABLE",
        share_groups_only: false,
    },
    InternalTopic {
        topic: "__share_group_state",
        replication_key: "share.coordinator.state.topic.replication.factor",
        min_isr_key: Some("share.coordinator.state.topic.min.isr"),
        users: "share groups",
        partition_lost: "every share group whose state partition it holds stops",
        share_groups_only: true,
    },
];

impl InternalTopic {
    pub fn applies(&self, files: &[SourceFile], nodes: &[Node]) -> bool {
        !self.share_groups_only || uses_share_groups(files, nodes)
    }
}

/// The trap of every internal-topic fix, said once.
pub const EXISTING_TOPIC_HELP: &str = "a topic that already exists keeps its replication factor when the config changes: \
raise it with kafka-reassign-partitions.sh (a reassignment listing 3 replicas per partition)";

/// A label on the value of a line of a file.
pub fn entry_label(file: usize, entry: &crate::properties::Entry, message: String) -> Label {
    Label {
        file,
        span: entry.value_span.clone(),
        message,
    }
}

pub use crate::cluster::setting::is_placeholder;

/// The value Kafka `version` will use for `key` on `node`, parsed as its ConfigDef parses it:
/// the file's (the last line) or Kafka's default. `None` when the key is unknown to `version`,
/// has a null default and is unset, is a placeholder, or does not parse (`invalid-value`
/// reports that).
pub fn parsed_value<'a>(
    files: &'a [SourceFile],
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Option<(crate::catalog::value::Parsed, Effective<'a>)> {
    let known = crate::catalog::known(key, version)?;
    // As `Node::effective`, from the one catalogue lookup.
    match node.entry(files, key) {
        Some(entry) => {
            if is_placeholder(&entry.value) {
                return None;
            }
            let parsed = crate::catalog::value::check(key, known.spec, &entry.value).ok()?;
            Some((parsed, Effective::Set(entry)))
        }
        None => {
            let crate::catalog::Default::Value(text) = known.spec.default else {
                return None;
            };
            if is_placeholder(text) {
                return None;
            }
            let parsed = known.checked_default()?.as_ref().ok()?.clone();
            Some((parsed, Effective::Default(text)))
        }
    }
}

/// How a message quotes a number it compares: `key 3000`, or `key 45000 (Kafka's default)` when
/// the file leaves the key unset, so that a reader knows which line to look for.
pub fn numbered(key: &str, value: impl std::fmt::Display, effective: &Effective) -> String {
    match effective.entry() {
        Some(_) => format!("{key} {value}"),
        None => format!("{key} {value} (Kafka's default)"),
    }
}

/// The labels of a finding about two values of one node: the primary on `first` when the file
/// sets it, else on `second`; a secondary on the other one when the file sets it too. A value
/// at its default gets no label (the message says so); when neither is set, the primary sits at
/// the top of the file.
pub fn pair_labels(
    node: &Node,
    first: (&Effective, String),
    second: (&Effective, String),
) -> Vec<Label> {
    let label = |(effective, message): &(&Effective, String)| {
        effective
            .entry()
            .map(|entry| entry_label(node.file, entry, message.clone()))
    };
    let mut labels: Vec<Label> = [label(&first), label(&second)]
        .into_iter()
        .flatten()
        .collect();
    labels.dedup_by(|a, b| a.span == b.span);
    if labels.is_empty() {
        labels.push(Label {
            file: node.file,
            span: 0..0,
            message: first.1,
        });
    }
    labels
}

/// The integer Kafka `version` will use for `key` on `node` (INT, SHORT or LONG), with where it
/// comes from; `None` as for [`parsed_value`].
pub fn parsed_integer<'a>(
    files: &'a [SourceFile],
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Option<(i64, Effective<'a>)> {
    let (parsed, effective) = parsed_value(files, node, key, version)?;
    Some((parsed.as_integer()?, effective))
}

/// The bytes in the file of `range`, a byte range of `entry.value`: exact when the value is
/// written as Kafka reads it (no escapes, no continuation lines), else the whole value.
pub fn value_part_span(
    files: &[SourceFile],
    file: usize,
    entry: &crate::properties::Entry,
    range: std::ops::Range<usize>,
) -> crate::properties::Span {
    let raw = &files[file].bytes[entry.value_span.clone()];
    // Latin-1: one byte per char when nothing was unescaped.
    let as_written = raw.len() == entry.value.chars().count()
        && raw
            .iter()
            .zip(entry.value.chars())
            .all(|(b, c)| u32::from(*b) == c as u32);
    if !as_written || range.end > entry.value.len() {
        return entry.value_span.clone();
    }
    let chars = |end: usize| entry.value[..end].chars().count();
    entry.value_span.start + chars(range.start)..entry.value_span.start + chars(range.end)
}

/// A label on part of a setting (`range` in its text), or at the top of the file when the
/// file leaves the key to Kafka's default.
pub fn setting_label(
    files: &[SourceFile],
    node: &Node,
    key: &str,
    setting: &crate::cluster::setting::Setting,
    range: Option<std::ops::Range<usize>>,
    message: String,
) -> Label {
    match setting.entry {
        Some(entry) => {
            let span = match range {
                Some(range) if entry.value == setting.text => {
                    value_part_span(files, node.file, entry, range)
                }
                _ => entry.value_span.clone(),
            };
            Label {
                file: node.file,
                span,
                message,
            }
        }
        None => default_label(node.file, key, &quoted(key, setting.text), message),
    }
}

/// Whether the node's file sets one of `keys` to a placeholder: checks reading them are
/// skipped, as the real value is unknown. Besides [`is_placeholder`]'s forms this counts a
/// format field (`{0}`, `{host}`), which no value of these keys has of itself.
pub fn any_placeholder(files: &[SourceFile], node: &Node, keys: &[&str]) -> bool {
    crate::cluster::setting::any_unresolved(files, node, keys)
}

/// A file of settings without a mode or an id, merged into a full node file elsewhere: checks
/// of a whole node's configuration do not apply to it (the model's [`Node::is_fragment`]).
pub fn is_fragment(files: &[SourceFile], node: &Node) -> bool {
    node.is_fragment(files)
}

/// Every node of the cluster (in file order), then every overlay, with each line Kafka reads
/// from its file (the last of a repeated key): Kafka reads an overlay's lines in the file they
/// are merged into, so a rule that judges a line by itself judges them too.
pub fn effective_lines<'a>(
    cluster: &'a crate::cluster::Cluster,
    files: &'a [SourceFile],
) -> impl Iterator<Item = (&'a Node, &'a crate::properties::Entry)> + 'a {
    cluster
        .nodes
        .iter()
        .chain(&cluster.overlays)
        .flat_map(move |node| {
            node.properties(files)
                .effective_entries()
                .map(move |entry| (node, entry))
        })
}

/// A label on the key of a line of a file.
pub fn key_label(file: usize, entry: &crate::properties::Entry, message: String) -> Label {
    Label {
        file,
        span: entry.key_span.clone(),
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

/// The replication factor `--fix` gives `topic` on `node`, with the edit that sets it: `None`
/// when the factor is right, or when the file does not set the key (nothing to edit in place).
/// `internal-topic-replication` and `min-isr-headroom` both use it, so that a min ISR fix is
/// computed from the factor after its fix.
pub fn replication_fix(
    cluster: &Cluster,
    files: &[SourceFile],
    node: &Node,
    topic: &InternalTopic,
) -> Option<(i64, Edit)> {
    let broker_count = cluster.broker_count();
    let key = topic.replication_key;
    let (factor, effective) = int_value(files, node, key, cluster.target.version)?;
    if broker_count == 0
        || !topic.applies(files, &cluster.nodes)
        || !replication_is_wrong(factor, broker_count, cluster.broker_count_is_known(files))
    {
        return None;
    }
    let wanted = wanted_replication(broker_count);
    let entry = effective.entry()?;
    Some((
        wanted,
        set_number(node.file, &files[node.file].bytes, entry, wanted),
    ))
}

/// The edit that sets `entry`'s value to the number `value`: it replaces the value as written,
/// escapes and continuation lines included, and keeps the whitespace that trails it (which
/// Kafka trims) and everything else on the line. Digits need no escaping in `Properties`.
pub fn set_number(file: usize, bytes: &[u8], entry: &Entry, value: i64) -> Edit {
    let span = &entry.value_span;
    let written = &bytes[span.clone()];
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
