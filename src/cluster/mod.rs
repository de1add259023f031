//! The cluster model: which files are nodes of one cluster, each node's mode and roles, and the
//! value Kafka will use for a key on a node.

pub mod address;
mod component;
pub mod component_topics;
mod discover;
pub mod endpoints;
pub mod exposure;
pub mod facts;
pub mod host;
pub mod listeners;
mod membership;
mod node;
pub mod protocol_version;
pub mod quorum;
pub mod setting;
pub mod storage;
mod target;
pub mod template_text;
pub mod topics;
pub mod topology;
pub mod version;

/// Where a value comes from: the model's answer, as the properties reader records it.
pub use crate::properties::Provenance;
pub use discover::{
    Buffer, Declared, Discovered, DiscoveryError, discover, discover_buffer, discover_buffer_among,
    discover_changed, discover_declared, discover_declared_in_batches, discover_in_memory,
    node_files_under,
};
pub use membership::{Gathered, Membership, SetApart, Share};
pub use node::{Effective, Line, Member, Mode, Node, Placement, Roles};
pub use target::{ChosenBy, Target};

use crate::source::SourceFile;

/// A set of node files that run together.
#[derive(Debug, Clone)]
pub struct Cluster {
    /// The folder (or list of files) the cluster was found as, for messages.
    pub name: String,
    /// The nodes whose file parsed.
    pub nodes: Vec<Node>,
    /// Every file of the cluster, including those that did not parse.
    pub files: Vec<usize>,
    /// `--brokers N`: the real broker count when the files are fewer (a templated file).
    pub declared_brokers: Option<usize>,
    /// The Kafka release the cluster is checked against.
    pub target: Target,
    /// The index of the config file's `[[clusters]]` entry that declares it, if one does.
    pub declared: Option<usize>,
    /// The config file the cluster is checked with.
    pub config: Option<std::sync::Arc<crate::config::Config>>,
    /// The Connect, MirrorMaker 2, Streams and Schema Registry files beside its nodes (not in
    /// `files`: no broker rule reads them).
    pub components: Vec<crate::components::Component>,
    /// Files of settings merged into nodes, not nodes (in `files`, not in `nodes`): see
    /// [`Node::is_fragment`] and `discover::overlays`. Rules that judge a line by itself read
    /// their lines; no rule counts them as brokers or compares them with the nodes.
    pub overlays: Vec<Node>,
    /// Why these files are one cluster, and what was set apart from them.
    pub membership: Membership,
    /// Where each node runs and why, worked out with the facts its rules read (empty until
    /// its rules ran).
    pub placements: Vec<Placement>,
    /// The node files a compose service of the walk bind-mounts into its container: each runs
    /// there (see [`MountedFile`]).
    pub mounted: Vec<MountedFile>,
    /// The topics declared for the cluster (see [`topics`]), each in a file of `files` or
    /// beside them.
    pub topics: Vec<topics::DeclaredTopic>,
}

impl Cluster {
    /// Why the cluster's overlays are no nodes, in words.
    pub fn overlay_reason(&self) -> &'static str {
        if self.nodes.is_empty() {
            "no node.id, broker.id, process.roles or zookeeper.connect, and no listeners or log \
             directories: settings merged into nodes elsewhere"
        } else {
            "no node.id, broker.id, process.roles or zookeeper.connect: settings merged into the \
             nodes beside it"
        }
    }

    /// The cluster with its nodes and overlays read again from `files` (the same files, their
    /// bytes changed by fixes, which never change what makes a file a node, an overlay or a
    /// member), its release chosen again.
    pub fn reread(&self, files: &[SourceFile]) -> Cluster {
        let reread = |node: &Node| Node::new(node.file, node.part, &files[node.file]);
        Cluster {
            nodes: self.nodes.iter().map(reread).collect(),
            overlays: self.overlays.iter().map(reread).collect(),
            placements: Vec::new(),
            target: Target::newest(),
            topics: self.reread_topics(files),
            ..self.clone()
        }
    }

    /// Moves every file index by `offset` (the cluster's files placed after others').
    pub fn shift_files(&mut self, offset: usize) {
        self.files.iter_mut().for_each(|file| *file += offset);
        let nodes = self.nodes.iter_mut().chain(&mut self.overlays);
        nodes.for_each(|node| node.file += offset);
        self.components
            .iter_mut()
            .for_each(|component| component.file += offset);
        let set_apart = self.membership.set_apart.iter_mut();
        set_apart
            .flat_map(|apart| &mut apart.files)
            .for_each(|file| *file += offset);
        let placed = self.placements.iter_mut();
        placed.for_each(|placement| placement.file += offset);
        let mounted = self.mounted.iter_mut();
        mounted.for_each(|mounted| mounted.file += offset);
        let topics = self.topics.iter_mut();
        topics.for_each(|topic| topic.file += offset);
    }

    /// The name of the Strimzi or Confluent `Kafka` resource the cluster is, when it is one.
    pub fn kafka_resource(&self) -> Option<&str> {
        match &self.membership.gathered {
            Gathered::Strimzi { resource } => {
                resource.rsplit_once(": Kafka ").map(|(_, name)| name)
            }
            Gathered::Confluent { resource } => resource
                .rsplit_once(": Confluent Kafka ")
                .map(|(_, name)| name),
            _ => None,
        }
    }

    /// Broker-role nodes (ZooKeeper brokers, KRaft brokers and combined nodes).
    pub fn brokers(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|node| node.roles.broker)
    }

    /// How many brokers the cluster has: the declared count, else the broker files.
    pub fn broker_count(&self) -> usize {
        self.declared_brokers
            .unwrap_or_else(|| self.brokers().count())
    }

    /// Whether the cluster is an alternative set smaller than another set of its folder that
    /// names the same quorum (`server-1.sasl.properties` beside `server-{1,2,3}.properties`):
    /// it stands in for some nodes of the cluster it runs in, which is larger than the set. A
    /// smaller set that names a quorum of its own (a `single-node.properties`) is a cluster of
    /// its own size.
    fn stands_in_for_part_of_a_larger_set(&self, files: &[SourceFile]) -> bool {
        if !matches!(self.membership.share, Some(Share::Alternative { .. })) {
            return false;
        }
        let Some(quorum) = self
            .nodes
            .first()
            .and_then(|node| node::cluster_identity(node.properties(files)))
        else {
            return false;
        };
        self.membership.set_apart.iter().any(|apart| {
            apart.files.len() > self.nodes.len()
                && apart
                    .files
                    .first()
                    .and_then(|file| node::cluster_identity(&files[*file].properties))
                    .is_some_and(|other| other == quorum)
        })
    }

    /// Whether the broker count is known. A host an inventory names is one of all its group's
    /// hosts. A lone broker file is one of an unknown number of
    /// brokers when its id is a placeholder (`broker.id=%ID%`, `${BROKER_ID}`: a template), when
    /// its `controller.quorum.voters` names other nodes, or when its `zookeeper.connect` names an
    /// ensemble of several hosts. Then, without `--brokers`, the count is unknown.
    pub fn broker_count_is_known(&self, files: &[SourceFile]) -> bool {
        if self.declared_brokers.is_some() {
            return true;
        }
        // Overlays alone: they are merged into nodes this check does not see.
        if self.nodes.is_empty() && !self.overlays.is_empty() {
            return false;
        }
        if self.stands_in_for_part_of_a_larger_set(files) {
            return false;
        }
        // A YAML part that stands for an unknown number of brokers (`deploy.mode: global`).
        if self
            .nodes
            .iter()
            .any(|node| node.view(files).is_some_and(|view| !view.count_known))
        {
            return false;
        }
        let mut brokers = self.brokers();
        let (Some(only), None) = (brokers.next(), brokers.next()) else {
            return true;
        };
        if self.nodes.len() > 1 {
            return true;
        }
        // A host of an inventory (cp-ansible's, or one that runs a role's template): the
        // inventory names every host of the group, so one host is a cluster of one.
        if only
            .view(files)
            .is_some_and(|view| matches!(view.runtime, crate::yaml_view::Runtime::Machine { .. }))
        {
            return true;
        }
        let properties = only.properties(files);
        let id = only.id_entry(files).map(|entry| entry.value.trim());
        let templated = id.is_some_and(|id| id.parse::<i64>().is_err());
        // The file itself names other nodes: a quorum with other voters, or a ZooKeeper
        // ensemble of several hosts (a production ensemble serves more than one broker).
        let other_voters = properties
            .get("controller.quorum.voters")
            .is_some_and(|voters| {
                // A compose value that interpolates an unset variable is unknown as a whole, but
                // the ids written before each `@` are there to read (`2@${NODE2_IP}:9093`).
                let written;
                let text = if crate::properties::is_unresolved(&voters.value) {
                    written =
                        String::from_utf8_lossy(&files[only.file].bytes[voters.value_span.clone()]);
                    written.as_ref()
                } else {
                    voters.value.as_str()
                };
                text.split(',')
                    .filter_map(|voter| voter.trim().split_once('@'))
                    .any(|(voter, _)| Some(voter.trim()) != id)
            });
        let ensemble = properties.get("zookeeper.connect").is_some_and(|connect| {
            let hosts = connect.value.split('/').next().unwrap_or_default();
            hosts
                .split(',')
                .filter(|host| !host.trim().is_empty())
                .count()
                > 1
        });
        !(templated || other_voters || ensemble)
    }
}

/// A node file a compose service bind-mounts into its container (`volumes:
/// ["./config/server-1.properties:/opt/kafka/config/server.properties"]`): the node runs in that
/// container, with its network and its disk, whatever the folder it is written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountedFile {
    /// The node file, an index into the files.
    pub file: usize,
    pub service: String,
    /// The compose file, as found.
    pub compose: String,
    /// `network_mode: host`: the machine's network, shared with the other such services.
    pub host_network: bool,
    /// The service mounts another node file of the cluster too: both nodes run in its one
    /// container, on one network and one disk.
    pub shares_container: bool,
}
