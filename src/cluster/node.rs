//! One node of a cluster: its file, mode and roles, and the value Kafka uses for a key on
//! it. Below the cluster and the modules that read nodes (`setting`, `listeners`, `exposure`,
//! `membership`), which the cluster uses in turn.

use crate::catalog::{self, KafkaVersion};
use crate::properties::{Entry, PropertiesFile, Provenance, Span};
use crate::source::SourceFile;
use crate::yaml_view::YamlView;

/// What a cluster gathers: a file (an index into the checked files) and, for a YAML file, the
/// part of it that is a node or component (see [`SourceFile::part`]).
pub type Member = (usize, Option<u32>);

/// How a node finds its metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `zookeeper.connect` is set (Kafka 3.9 and older).
    ZooKeeper,
    /// `process.roles` is set.
    KRaft,
    /// Neither: a partial or templated file.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Roles {
    pub broker: bool,
    pub controller: bool,
}

/// One broker or controller: a file of the cluster. An overlay (see [`super::Cluster::overlays`]) is
/// read the same way, but is no node.
#[derive(Debug, Clone)]
pub struct Node {
    /// Index of the node's file in the checked files.
    pub file: usize,
    /// For a node read from a YAML file (a compose service, a Strimzi pool): which part of
    /// the file it is (see [`SourceFile::part`]).
    pub part: Option<u32>,
    pub mode: Mode,
    pub roles: Roles,
    /// Where its file declares it: the top of a `.properties` file, a compose service's name,
    /// a Strimzi resource's name. A label about a key the node leaves to a default sits here.
    pub declared_at: Span,
}

/// A line of settings a node reads, and where it is: a `.properties` line, or the YAML scalar
/// a compose variable or a Strimzi key comes from. What rules see of a setting's text and
/// place (they never read a file).
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// The file it is in.
    pub file: usize,
    entry: &'a Entry,
}

impl<'a> Line<'a> {
    pub fn new(file: usize, entry: &'a Entry) -> Line<'a> {
        Line { file, entry }
    }

    /// The key, as Kafka reads it.
    pub fn key(&self) -> &'a str {
        &self.entry.key
    }

    /// The value, as Kafka reads it (untrimmed).
    pub fn value(&self) -> &'a str {
        &self.entry.value
    }

    pub fn key_span(&self) -> Span {
        self.entry.key_span.clone()
    }

    pub fn value_span(&self) -> Span {
        self.entry.value_span.clone()
    }

    /// The whole line: from its key to the end of its value.
    pub fn span(&self) -> Span {
        self.entry.key_span.start..self.entry.value_span.end.max(self.entry.key_span.end)
    }

    /// Who wrote it: the file's author, an image's scripts or an operator.
    pub fn provenance(&self) -> Provenance {
        self.entry.provenance
    }

    /// Whether the line holds UTF-8 text that Kafka reads as ISO-8859-1.
    pub fn utf8_mismatch(&self) -> bool {
        self.entry.utf8_mismatch
    }
}

/// The value Kafka uses for a key on a node: from a line of its file, or Kafka's default.
#[derive(Debug, Clone, Copy)]
pub enum Effective<'a> {
    Set(Line<'a>),
    Default(&'static str),
}

impl<'a> Effective<'a> {
    pub fn value(&self) -> &'a str {
        match self {
            Effective::Set(line) => line.value(),
            Effective::Default(value) => value,
        }
    }

    /// The line that sets it, unless it is Kafka's default.
    pub fn line(&self) -> Option<Line<'a>> {
        match self {
            Effective::Set(line) => Some(*line),
            Effective::Default(_) => None,
        }
    }

    /// The value as Kafka parses an INT/SHORT/LONG key: trimmed, decimal.
    pub fn as_int(&self) -> Option<i64> {
        catalog::value::parse_java_integer(
            catalog::value::java_trim(self.value()),
            i64::MIN,
            i64::MAX,
        )
    }
}

impl Node {
    /// Classifies a parsed file, or part `part` of it, as a node.
    pub fn new(file: usize, part: Option<u32>, source: &SourceFile) -> Node {
        let properties = source.settings(part);
        let (mode, roles) = match properties.get("process.roles") {
            Some(entry) => {
                let roles = entry.value.split(',').map(str::trim);
                let mut parsed = Roles::default();
                for role in roles {
                    match role {
                        "broker" => parsed.broker = true,
                        "controller" => parsed.controller = true,
                        _ => {}
                    }
                }
                (Mode::KRaft, parsed)
            }
            None if properties.get("zookeeper.connect").is_some() => (
                Mode::ZooKeeper,
                Roles {
                    broker: true,
                    controller: false,
                },
            ),
            None => (
                Mode::Unknown,
                Roles {
                    broker: true,
                    controller: false,
                },
            ),
        };
        Node {
            file,
            part,
            mode,
            roles,
            declared_at: source
                .view(part)
                .map_or(0..0, |view| view.declared_at.clone()),
        }
    }

    /// The settings Kafka reads on the node: its file's lines, or its part's of a YAML file.
    pub fn properties<'a>(&self, files: &'a [SourceFile]) -> &'a PropertiesFile {
        files[self.file].settings(self.part)
    }

    /// What the node stands for when it was read from a YAML file.
    pub fn view<'a>(&self, files: &'a [SourceFile]) -> Option<&'a YamlView> {
        files[self.file].view(self.part)
    }

    /// What the node was read from: its file, and the part of it (see [`Node::part`]).
    pub fn member(&self) -> Member {
        (self.file, self.part)
    }

    /// Whether `other` is this node (or overlay): the same file, and the same part of it.
    pub fn is(&self, other: &Node) -> bool {
        self.member() == other.member()
    }

    /// The file's entry for `key`, the last one if repeated.
    pub fn entry<'a>(&self, files: &'a [SourceFile], key: &str) -> Option<&'a Entry> {
        self.properties(files).get(key)
    }

    /// The value Kafka `version` will use for `key` on this node.
    pub fn effective<'a>(
        &self,
        files: &'a [SourceFile],
        key: &str,
        version: KafkaVersion,
    ) -> Option<Effective<'a>> {
        match self.entry(files, key) {
            Some(entry) => Some(Effective::Set(Line::new(self.file, entry))),
            None => catalog::default_value(key, version).map(Effective::Default),
        }
    }

    /// A file of settings without a mode (`process.roles`, `zookeeper.connect`) or an id
    /// (`node.id`, `broker.id`): what makes a node one node comes from elsewhere (a file it is
    /// merged into, a template's environment), so checks of a whole node's configuration do not
    /// apply to it. Beside real nodes, or saying nothing of where it listens and keeps its
    /// data, it is an overlay, not a node at all (see [`super::Cluster::overlays`]).
    pub fn is_fragment(&self, files: &[SourceFile]) -> bool {
        self.mode == Mode::Unknown && self.id_entry(files).is_none()
    }

    /// `node.id`, or `broker.id` for ZooKeeper-mode brokers; the entry that sets it.
    pub fn id_entry<'a>(&self, files: &'a [SourceFile]) -> Option<&'a Entry> {
        self.entry(files, "node.id")
            .or_else(|| self.entry(files, "broker.id"))
    }
}

/// What names the cluster a node belongs to: its ZooKeeper connection or its KRaft quorum.
pub(super) fn cluster_identity(properties: &PropertiesFile) -> Option<String> {
    [
        "zookeeper.connect",
        "controller.quorum.voters",
        "controller.quorum.bootstrap.servers",
    ]
    .iter()
    .find_map(|key| properties.get(key))
    .map(|entry| format!("{}={}", entry.key, entry.value.trim()))
}

/// Where a node runs and why, as output shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The node's file.
    pub file: usize,
    /// Its part of the file (see [`Node::part`]).
    pub part: Option<u32>,
    /// Its `node.id` (or `broker.id`) as its file writes it, when it sets one.
    pub id: Option<String>,
    /// `process`, `mapped-container`, `container` or `pod`.
    pub runtime: &'static str,
    /// Whether its network and its files are its own, shared with other nodes, or unknown.
    pub network: &'static str,
    pub disk: &'static str,
    /// The evidence in words.
    pub evidence: String,
}
