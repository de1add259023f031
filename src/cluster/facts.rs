//! What Kafka reads of each node of a cluster, worked out once per cluster before its rules
//! run: rules read these facts instead of calling Kafka's parsers themselves, once per rule.

use crate::source::SourceFile;

use crate::catalog::KafkaVersion;
use crate::catalog::value::parse_java_integer;

use super::listeners::NodeListeners;
use super::quorum::{
    BootstrapServer, ProcessRoles, QuorumProblem, Voter, bootstrap_servers, process_roles, voters,
};
use super::setting::{Lookup, Setting, lookup};
use super::storage;
use super::{Cluster, Member, Node};

/// What Kafka reads of one key on a node, parsed.
#[derive(Debug, Clone, Copy)]
pub enum Read<T> {
    /// Not set and without a default (null in Kafka), or a key this release does not know.
    Null,
    Set(T),
    /// ConfigDef refuses the value (a placeholder included): Kafka stops before any
    /// cross-field check, and nothing is known of it.
    Refused,
}

impl<T> Read<T> {
    /// The value, when Kafka reads one.
    pub fn set(self) -> Option<T> {
        match self {
            Read::Set(value) => Some(value),
            Read::Null | Read::Refused => None,
        }
    }
}

/// An INT value as Kafka parses it (`node.id`, `broker.id`, ...), and where it comes from.
#[derive(Debug, Clone, Copy)]
pub struct IntSetting<'a> {
    pub value: i32,
    pub setting: Setting<'a>,
}

/// A KRaft quorum list (`controller.quorum.voters`, `controller.quorum.bootstrap.servers`) as its
/// ConfigDef validator parses it, in every mode. Unset is an empty list.
#[derive(Debug)]
pub struct QuorumList<'a, T> {
    pub setting: Setting<'a>,
    /// Every entry, or every entry Kafka refuses (a placeholder does not parse either).
    pub entries: Result<Vec<T>, Vec<QuorumProblem<'a>>>,
}

impl<'a, T> QuorumList<'a, T> {
    fn read(
        lookup: Lookup<'a>,
        parse: fn(Setting<'a>, KafkaVersion) -> Result<Vec<T>, Vec<QuorumProblem<'a>>>,
        version: KafkaVersion,
    ) -> Option<Self> {
        let setting = match lookup {
            Lookup::Set(setting) => setting,
            Lookup::Null => Setting {
                text: "",
                line: None,
            },
            Lookup::Refused => return None,
        };
        Some(QuorumList {
            setting,
            entries: parse(setting, version),
        })
    }

    /// The entries, when every one parses.
    pub fn parsed(&self) -> Option<&[T]> {
        self.entries.as_deref().ok()
    }
}

/// One node's facts.
#[derive(Debug)]
pub struct NodeFacts<'a> {
    /// `process.roles` as `parseProcessRoles` reads it; `None` when ConfigDef refuses it, or the
    /// release does not know the key (Kafka stops, or the node has no roles to read).
    pub roles: Option<ProcessRoles<'a>>,
    /// What `KafkaConfig` reads of the node's listeners, with its roles (a node without
    /// readable roles, a fragment or a ZooKeeper-mode broker, is read with none: roles only
    /// decide the controller mappings Kafka adds); `None` when ConfigDef refuses a listener key.
    pub listeners: Option<NodeListeners<'a>>,
    /// `node.id` after `populateSynonyms` (a lone `broker.id` stands in for it).
    pub node_id: Read<IntSetting<'a>>,
    /// `broker.id` after `populateSynonyms` (a lone `node.id` stands in for it).
    pub broker_id: Read<IntSetting<'a>>,
    /// `controller.quorum.voters`; `None` when ConfigDef refuses the value as a whole.
    pub voters: Option<QuorumList<'a, Voter<'a>>>,
    /// `controller.quorum.bootstrap.servers`; `None` as for `voters`.
    pub bootstrap_servers: Option<QuorumList<'a, BootstrapServer<'a>>>,
    /// The log directories Kafka uses (`log.dirs`, else `log.dir`, split as the release splits
    /// them); `None` when ConfigDef refuses either key.
    pub log_dirs: Option<Vec<String>>,
}

/// An INT key as `KafkaConfig` parses it (the ids, and the rare int a rule reads once).
pub fn read_int<'a>(
    files: &'a [SourceFile],
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Read<IntSetting<'a>> {
    match lookup(files, node, key, version) {
        Lookup::Set(setting) => {
            match parse_java_integer(setting.trimmed(), i32::MIN.into(), i32::MAX.into())
                .and_then(|value| i32::try_from(value).ok())
            {
                Some(value) => Read::Set(IntSetting { value, setting }),
                // ConfigDef checked it is an int: this does not happen.
                None => Read::Refused,
            }
        }
        Lookup::Null => Read::Null,
        Lookup::Refused => Read::Refused,
    }
}

/// The setting Kafka `version` takes the node's log directories from, and its key: `log.dirs`
/// whenever the file sets it (even to an empty value; it has no default), else `log.dir` (the
/// file's or its default). `None` when ConfigDef refuses either, which stops Kafka first.
pub fn log_dir_setting<'a>(
    files: &'a [SourceFile],
    node: &Node,
    version: KafkaVersion,
) -> Option<(&'static str, Setting<'a>)> {
    let Lookup::Set(log_dir) = lookup(files, node, "log.dir", version) else {
        return None;
    };
    match lookup(files, node, "log.dirs", version) {
        Lookup::Set(log_dirs) => Some(("log.dirs", log_dirs)),
        Lookup::Null => Some(("log.dir", log_dir)),
        Lookup::Refused => None,
    }
}

/// The log directories of `node` (see [`NodeFacts::log_dirs`]).
fn log_dirs(files: &[SourceFile], node: &Node, version: KafkaVersion) -> Option<Vec<String>> {
    let (_, setting) = log_dir_setting(files, node, version)?;
    Some(
        storage::log_dir_items(setting.text, version)
            .iter()
            .map(|item| item.text.to_owned())
            .collect(),
    )
}

/// The facts of every node and overlay of one cluster.
#[derive(Debug, Default)]
pub struct Facts<'a> {
    /// `(node's member, index into nodes)`, sorted: a node is found by its file and part.
    index: Vec<(Member, usize)>,
    nodes: Vec<NodeFacts<'a>>,
}

impl<'a> Facts<'a> {
    /// Reads the facts of `cluster`'s nodes and overlays from `files`.
    pub fn of(cluster: &Cluster, files: &'a [SourceFile]) -> Facts<'a> {
        let version = cluster.target.version;
        let mut facts = Facts::default();
        for node in cluster.nodes.iter().chain(&cluster.overlays) {
            let roles = match lookup(files, node, "process.roles", version) {
                Lookup::Set(setting) => Some(process_roles(setting, version)),
                _ => None,
            };
            let no_roles = || {
                let empty = Setting {
                    text: "",
                    line: None,
                };
                process_roles(empty, version)
            };
            let listeners = match &roles {
                Some(roles) => NodeListeners::read(files, node, version, roles),
                None => NodeListeners::read(files, node, version, &no_roles()),
            };
            facts.index.push((node.member(), facts.nodes.len()));
            facts.nodes.push(NodeFacts {
                roles,
                listeners,
                node_id: read_int(files, node, "node.id", version),
                broker_id: read_int(files, node, "broker.id", version),
                voters: QuorumList::read(
                    lookup(files, node, "controller.quorum.voters", version),
                    voters,
                    version,
                ),
                bootstrap_servers: QuorumList::read(
                    lookup(files, node, "controller.quorum.bootstrap.servers", version),
                    bootstrap_servers,
                    version,
                ),
                log_dirs: log_dirs(files, node, version),
            });
        }
        facts.index.sort_unstable();
        facts
    }

    /// The facts of `node`, a node or an overlay of the cluster they were read for (`None`
    /// for any other: nothing is known of it).
    pub fn node(&self, node: &Node) -> Option<&NodeFacts<'a>> {
        let found = self
            .index
            .binary_search_by_key(&node.member(), |(member, _)| *member)
            .ok();
        debug_assert!(found.is_some(), "no facts for {node:?}");
        Some(&self.nodes[self.index[found?].1])
    }

    /// The listeners of `node` as Kafka reads them (see [`NodeFacts::listeners`]).
    pub fn listeners(&self, node: &Node) -> Option<&NodeListeners<'a>> {
        self.node(node)?.listeners.as_ref()
    }

    /// `process.roles` of `node` (see [`NodeFacts::roles`]).
    pub fn roles(&self, node: &Node) -> Option<&ProcessRoles<'a>> {
        self.node(node)?.roles.as_ref()
    }
}
