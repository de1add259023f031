//! The KRaft quorum across the nodes of a cluster: each node's id, roles and voters, the voters
//! as a set (what Kafka keeps of them), the address each controller listens on for the quorum,
//! and whether the cluster's files describe every node.

use std::collections::BTreeMap;

use crate::catalog::KafkaVersion;
use crate::catalog::value::java_trim;
use crate::source::SourceFile;

use super::address::{is_ip_literal, is_ipv4};
use super::facts::Facts;
use super::listeners::{NodeListeners, normalised};
use super::quorum::{NON_ROUTABLE_HOST, ProcessRoles, Voter, bootstrap_servers, voters};
use super::setting::{Item, Setting};
use super::{Cluster, Mode, Node};

pub const VOTERS: &str = "controller.quorum.voters";
pub const BOOTSTRAP: &str = "controller.quorum.bootstrap.servers";

/// One node as the quorum sees it.
pub struct QuorumNode<'a, 'c> {
    pub node: &'c Node,
    /// `node.id` (or `broker.id` standing in for it); `None` when unset or not an int (a
    /// placeholder).
    pub id: Option<i32>,
    /// `process.roles` as the release reads it; `None` when refused or unknown to the release.
    pub roles: Option<&'c ProcessRoles<'a>>,
    /// `controller.quorum.voters` and its entries (empty when unset); `None` when it is a
    /// placeholder or Kafka refuses it (kraft-controller-config says why).
    pub voters: Option<(Setting<'a>, &'c [Voter<'a>])>,
}

impl QuorumNode<'_, '_> {
    /// A KRaft node with the controller role.
    pub fn is_controller(&self) -> bool {
        self.roles
            .as_ref()
            .is_some_and(|roles| roles.roles.controller)
    }

    /// Whether the node runs in KRaft mode (roles set; 3.9 runs a node without roles in
    /// ZooKeeper mode).
    pub fn is_kraft(&self) -> bool {
        self.roles.as_ref().is_some_and(|roles| !roles.is_empty())
    }

    /// The node's voters as a set, when it names any.
    pub fn voter_set(&self) -> Option<VoterSet> {
        self.voters
            .as_ref()
            .filter(|(_, voters)| !voters.is_empty())
            .map(|(_, voters)| VoterSet::of(voters))
    }

    /// The entry Kafka keeps for voter `id` (the last one: Kafka's map keeps the later entry).
    pub fn voter(&self, id: i32) -> Option<&Voter<'_>> {
        self.voters
            .as_ref()
            .and_then(|(_, voters)| voters.iter().rev().find(|voter| voter.id == id))
    }
}

/// Every node of the cluster with what the quorum checks read of it.
pub fn quorum_nodes<'a, 'c>(cluster: &'c Cluster, facts: &'c Facts<'a>) -> Vec<QuorumNode<'a, 'c>> {
    cluster
        .nodes
        .iter()
        .map(|node| {
            let facts = facts.node(node);
            QuorumNode {
                node,
                id: facts
                    .and_then(|facts| facts.node_id.set())
                    .map(|id| id.value),
                roles: facts.and_then(|facts| facts.roles.as_ref()),
                voters: facts
                    .and_then(|facts| facts.voters.as_ref())
                    .and_then(|list| Some((list.setting, list.parsed()?))),
            }
        })
        .collect()
}

/// A host as DNS compares it: case-insensitive, a trailing dot (the root) dropped.
pub fn canonical_host(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Voters as Kafka keeps them: one address per id (the last entry wins), hosts compared as
/// DNS does. Two lists with the same set are the same quorum, whatever their order or spelling.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct VoterSet(pub BTreeMap<i32, (String, u16)>);

impl VoterSet {
    pub fn of(voters: &[Voter]) -> VoterSet {
        VoterSet(
            voters
                .iter()
                .map(|voter| (voter.id, (canonical_host(voter.host), voter.port)))
                .collect(),
        )
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Votes needed to elect a leader: a majority.
    pub fn majority(&self) -> usize {
        self.len() / 2 + 1
    }

    /// How many voters may fail while the rest still form a majority.
    pub fn tolerated_failures(&self) -> usize {
        (self.len() - 1) / 2
    }

    /// Whether every voter is on this machine (a development setup).
    pub fn all_loopback(&self) -> bool {
        self.0.values().all(|(host, _)| is_loopback(host))
    }
}

/// `controller.quorum.voters` as a canonical text for comparing nodes: the voter set, or
/// `None` when Kafka cannot parse the list.
pub fn canonical_voters(text: &str, version: KafkaVersion) -> Option<String> {
    let parsed = voters(Setting { text, line: None }, version).ok()?;
    let set = VoterSet::of(&parsed);
    Some(
        set.0
            .iter()
            .map(|(id, (host, port))| format!("{id}@{host}:{port}"))
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// `controller.quorum.bootstrap.servers` as a canonical text: the set of addresses, or `None`
/// when Kafka cannot parse the list.
pub fn canonical_bootstrap_servers(text: &str, version: KafkaVersion) -> Option<String> {
    let parsed = bootstrap_servers(Setting { text, line: None }, version).ok()?;
    let mut addresses: Vec<String> = parsed
        .iter()
        .map(|server| format!("{}:{}", canonical_host(server.host), server.port))
        .collect();
    addresses.sort_unstable();
    addresses.dedup();
    Some(addresses.join(","))
}

/// `localhost`, `127.x.x.x`, `::1` or an empty host: this machine.
pub fn is_loopback(host: &str) -> bool {
    let host = canonical_host(host);
    host.is_empty()
        || host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || (is_ipv4(&host) && host.starts_with("127."))
}

/// Whether a listener bound to `bound` cannot be reached at `named`, as far as the names
/// themselves show (no DNS): two different IP addresses, a loopback address against another
/// machine's IP address, or two host names of one numbered pattern (`controller-1` where
/// `controller-2` was meant).
pub fn hosts_differ(bound: &str, named: &str) -> bool {
    let (bound, named) = (canonical_host(bound), canonical_host(named));
    if bound == named || (is_loopback(&bound) && is_loopback(&named)) {
        return false;
    }
    let (bound_ip, named_ip) = (is_ip_literal(&bound), is_ip_literal(&named));
    if bound_ip && named_ip {
        return true;
    }
    if is_loopback(&bound) && named_ip || is_loopback(&named) && bound_ip {
        return true;
    }
    if bound_ip || named_ip || is_loopback(&bound) || is_loopback(&named) {
        return false;
    }
    let pattern = |host: &str| host.replace(|c: char| c.is_ascii_digit(), "#");
    let has_digit = |host: &str| host.chars().any(|c| c.is_ascii_digit());
    has_digit(&bound) && has_digit(&named) && pattern(&bound) == pattern(&named)
}

/// Where a controller takes quorum connections: its listener for the first name of
/// `controller.listener.names` (the one every node connects to the quorum with).
pub struct QuorumListener<'a> {
    /// The listener name, upper-cased.
    pub name: String,
    pub listeners: Setting<'a>,
    /// The entry of `listeners`; its host is `None` for the wildcard or `0.0.0.0`.
    pub item: Item<'a>,
    pub host: Option<&'a str>,
    pub port: i32,
    /// The entry of `advertised.listeners` for that name, when there is one (an address
    /// mapped by NAT or a container runtime).
    pub advertised: Option<(Setting<'a>, Item<'a>, Option<&'a str>, i32)>,
}

impl QuorumListener<'_> {
    /// Whether `voter` names an address where this listener takes connections.
    pub fn port_matches(&self, port: u16) -> bool {
        let port = i32::from(port);
        self.port == port
            || self
                .advertised
                .as_ref()
                .is_some_and(|(_, _, _, p)| *p == port)
    }

    /// Whether the voter's host can reach the listener, as far as the names show.
    pub fn host_matches(&self, host: &str) -> bool {
        let advertised = self
            .advertised
            .as_ref()
            .and_then(|(_, _, host, _)| *host)
            .is_some_and(|advertised| canonical_host(advertised) == canonical_host(host));
        advertised || self.host.is_none_or(|bound| !hosts_differ(bound, host))
    }
}

/// The controller's quorum listener; `None` when Kafka cannot read its listeners (another rule
/// says why) or it has none for the first controller name.
pub fn quorum_listener<'a>(listeners: &NodeListeners<'a>) -> Option<QuorumListener<'a>> {
    let name = normalised(listeners.controller_names.items.first()?.text)?;
    let endpoint = listeners
        .listeners
        .endpoints()?
        .iter()
        .find(|endpoint| endpoint.name == name)?;
    let advertised = listeners.advertised.as_ref().and_then(|list| {
        list.endpoints()?
            .iter()
            .find(|endpoint| endpoint.name == name)
            .map(|endpoint| (list.setting, endpoint.item, endpoint.host, endpoint.port))
    });
    Some(QuorumListener {
        name,
        listeners: listeners.listeners.setting,
        item: endpoint.item,
        host: endpoint
            .host
            .filter(|host| *host != NON_ROUTABLE_HOST && *host != "::"),
        port: endpoint.port,
        advertised,
    })
}

/// Whether the cluster's files describe every node, so that a voter without a file is a voter
/// without a node: two files or more, one of them a controller, every node a KRaft node with a
/// plain numeric id, and no `--brokers` (which says files stand for more nodes). A lone file,
/// or a broker folder whose quorum runs elsewhere, is only part of a cluster.
pub fn fully_described(cluster: &Cluster, nodes: &[QuorumNode]) -> bool {
    cluster.declared_brokers.is_none()
        && nodes.len() >= 2
        && nodes.len() == cluster.nodes.len()
        && cluster.overlays.is_empty()
        // No file that does not parse: each file is a node's (or several nodes' of a YAML file).
        && cluster
            .files
            .iter()
            .all(|file| cluster.nodes.iter().any(|node| node.file == *file))
        && nodes.iter().any(QuorumNode::is_controller)
        && nodes.iter().all(|n| {
            n.node.mode == Mode::KRaft && n.is_kraft() && n.id.is_some() && n.voters.is_some()
        })
}

/// `zookeeper.metadata.migration.enable=true` on the node (a ZooKeeper-to-KRaft migration).
pub fn migrating(files: &[SourceFile], node: &Node) -> bool {
    node.entry(files, "zookeeper.metadata.migration.enable")
        .is_some_and(|entry| java_trim(&entry.value).eq_ignore_ascii_case("true"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const V41: KafkaVersion = KafkaVersion::new(4, 1);

    #[test]
    fn voter_lists_compare_as_sets() {
        let c = |text| canonical_voters(text, V41);
        assert_eq!(
            c("1@Controller-1:9093,2@controller-2.:9093"),
            c(" 2@controller-2:9093 , +1@controller-1:09093")
        );
        assert_ne!(c("1@c-1:9093,2@c-2:9093"), c("1@c-1:9093,2@c-2:9094"));
        assert_ne!(c("1@c-1:9093,2@c-2:9093"), c("1@c-1:9093,3@c-2:9093"));
        // The later entry of a repeated id wins.
        assert_eq!(c("1@old:9093,1@new:9093"), c("1@new:9093"));
        assert_eq!(c("1@c"), None);
    }

    #[test]
    fn hosts_that_cannot_be_one() {
        assert!(hosts_differ("10.0.0.1", "10.0.0.2"));
        assert!(hosts_differ("127.0.0.1", "10.0.0.2"));
        assert!(hosts_differ("controller-1", "controller-2"));
        assert!(hosts_differ("kafka1.example.com", "kafka2.example.com"));
        assert!(!hosts_differ("localhost", "127.0.0.1"));
        assert!(!hosts_differ("Controller-1", "controller-1."));
        assert!(!hosts_differ("controller-1", "10.0.0.1"));
        assert!(!hosts_differ("controller-1", "controller-1.example.com"));
        assert!(!hosts_differ("kafka", "broker"));
    }

    #[test]
    fn quorum_arithmetic() {
        let set = |n: i32| VoterSet((1..=n).map(|id| (id, (format!("c-{id}"), 9093))).collect());
        assert_eq!(set(1).tolerated_failures(), 0);
        assert_eq!(set(2).tolerated_failures(), 0);
        assert_eq!(set(3).tolerated_failures(), 1);
        assert_eq!(set(4).tolerated_failures(), 1);
        assert_eq!(set(4).majority(), 3);
        assert!(!set(1).all_loopback());
    }
}
