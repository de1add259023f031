//! What Kafka reads of each node of a cluster, worked out once per cluster before its rules
//! run: rules read these facts instead of calling Kafka's parsers themselves, once per rule.

use crate::source::SourceFile;

use super::listeners::NodeListeners;
use super::quorum::{ProcessRoles, process_roles};
use super::setting::{Lookup, Setting, lookup};
use super::{Cluster, Member, Node};

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
            facts.nodes.push(NodeFacts { roles, listeners });
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
