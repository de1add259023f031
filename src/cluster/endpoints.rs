//! Where the nodes of a cluster listen and what they advertise, for checks that compare nodes:
//! each node's listener model, and how hosts compare (loopback, wildcard, one machine).

use crate::source::SourceFile;

use super::facts::Facts;
use super::listeners::{Endpoint, ListenerList, NodeListeners, inter_broker};
use super::quorum::ProcessRoles;
use super::{Cluster, Node};

/// The keys the endpoint model reads; a placeholder in one of them leaves the node unjudged.
pub const ENDPOINT_KEYS: &[&str] = &[
    "process.roles",
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "controller.listener.names",
    "inter.broker.listener.name",
    "security.inter.broker.protocol",
];

/// One node's listeners, as Kafka reads them.
pub struct NodeEndpoints<'a> {
    pub node: &'a Node,
    pub roles: &'a ProcessRoles<'a>,
    pub listeners: &'a NodeListeners<'a>,
}

impl<'a> NodeEndpoints<'a> {
    /// Reads the node's listeners; `None` when Kafka cannot (the start-up rules say why).
    pub fn read(facts: &'a Facts<'a>, node: &'a Node) -> Option<NodeEndpoints<'a>> {
        let roles = facts.roles(node)?;
        let listeners = facts.listeners(node)?;
        listeners.listeners.endpoints()?;
        Some(NodeEndpoints {
            node,
            roles,
            listeners,
        })
    }

    /// The nodes of `cluster` whose listeners Kafka reads, minus those `skip` leaves out.
    pub fn read_all(
        cluster: &'a Cluster,
        facts: &'a Facts<'a>,
        skip: impl Fn(&Node) -> bool,
    ) -> Vec<NodeEndpoints<'a>> {
        cluster
            .nodes
            .iter()
            .filter(|node| !skip(node))
            .filter_map(|node| NodeEndpoints::read(facts, node))
            .collect()
    }

    /// Whether the node serves clients and replication (a ZooKeeper broker, a KRaft broker or
    /// combined node).
    pub fn is_broker(&self) -> bool {
        self.roles.roles.broker || self.roles.zookeeper_mode(self.listeners.version)
    }

    /// What the node binds: the endpoints of `listeners`.
    pub fn bound(&self) -> &[Endpoint<'a>] {
        self.listeners.listeners.endpoints().unwrap_or_default()
    }

    /// The key and list the node advertises from: `advertised.listeners`, else `listeners`.
    pub fn advertised_list(&self) -> (&'static str, &ListenerList<'a>) {
        match &self.listeners.advertised {
            Some(list) => ("advertised.listeners", list),
            None => ("listeners", &self.listeners.listeners),
        }
    }

    /// Every endpoint the node advertises (controller listeners included).
    pub fn advertised(&self) -> &[Endpoint<'a>] {
        self.listeners.advertised_or_listeners().unwrap_or_default()
    }

    /// The broker endpoints the node registers for clients and other brokers.
    pub fn advertised_brokers(&self) -> Vec<&Endpoint<'a>> {
        self.listeners.advertised_brokers(None).unwrap_or_default()
    }

    /// The upper-cased name of the listener other brokers replicate from.
    pub fn inter_broker_name(&self, files: &'a [SourceFile]) -> Option<String> {
        let map = self.listeners.map.as_ref().ok()?;
        inter_broker(files, self.node, self.listeners.version, map)?
            .ok()
            .map(|inter_broker| inter_broker.name)
    }
}

/// An address only the machine itself reaches: `localhost`, `127.x.x.x`, `::1`.
pub fn is_loopback(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "ip6-localhost"
        || host == "::1"
        || host == "0:0:0:0:0:0:0:1"
        || (super::address::is_ipv4(&host) && host.starts_with("127."))
}

/// A bind to every interface: an empty host, `0.0.0.0` or `::`.
pub fn is_wildcard(host: Option<&str>) -> bool {
    match host {
        None => true,
        Some(host) => matches!(host, "0.0.0.0" | "::" | "0:0:0:0:0:0:0:0"),
    }
}

/// A host as it compares across nodes: case-insensitive, every loopback form one address.
pub fn host_key(host: &str) -> String {
    if is_loopback(host) {
        "localhost".to_owned()
    } else {
        host.to_ascii_lowercase()
    }
}

/// The hosts a node advertises, as [`host_key`]s, sorted; `None` when one of them is empty or
/// a wildcard (Kafka then advertises the machine's own name, which the file does not show).
pub fn advertised_hosts(node: &NodeEndpoints) -> Option<Vec<String>> {
    let mut hosts = Vec::new();
    for endpoint in node.advertised() {
        if is_wildcard(endpoint.host) {
            return None;
        }
        hosts.push(host_key(endpoint.host.unwrap_or_default()));
    }
    hosts.sort();
    hosts.dedup();
    (!hosts.is_empty()).then_some(hosts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_wildcard_hosts() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1"] {
            assert!(is_loopback(host), "{host}");
        }
        for host in ["kafka-1", "10.0.0.1", "128.0.0.1", "localhost.example.com"] {
            assert!(!is_loopback(host), "{host}");
        }
        assert!(is_wildcard(None));
        assert!(is_wildcard(Some("0.0.0.0")));
        assert!(is_wildcard(Some("::")));
        assert!(!is_wildcard(Some("localhost")));
        assert_eq!(host_key("127.0.0.1"), host_key("localhost"));
        assert_eq!(host_key("Kafka-1"), "kafka-1");
    }
}
