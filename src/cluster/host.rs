//! Which nodes of a cluster share a machine, and why: each node's runtime (a process reading a
//! properties file, a compose service's container, a Strimzi pod) and the evidence that places
//! it. "Unknown" is an answer: a check that needs two nodes on one machine says nothing of a node
//! the files do not place.
//!
//! Built once per cluster, before its rules run, and read by every rule that compares the
//! network or the files of two nodes.

use std::collections::BTreeMap;

use crate::source::SourceFile;
use crate::sources;
pub use crate::sources::Orchestrator;

use super::endpoints::{ENDPOINT_KEYS, NodeEndpoints, advertised_hosts};
use super::facts::Facts;
use super::setting::any_unresolved;
use super::{Cluster, Member, Mode, MountedFile, Node, Placement};

/// What runs a node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A process reading a properties file, on a bare host or in a container: the file alone
    /// does not say which.
    Process,
    /// A process in a container whose runtime maps its ports: it binds a port another node of
    /// the cluster binds too, and advertises another port for it (`-p 19092:9092`).
    MappedContainer,
    /// A container of a compose service or a Kubernetes pod, with where its volumes are
    /// mounted.
    Container {
        image: String,
        orchestrator: Orchestrator,
        host_network: bool,
        volumes: Vec<String>,
    },
    /// A pod Strimzi runs for a node of a node pool (`None`: of the `Kafka` resource's own
    /// replicas).
    Pod { pool: Option<String> },
}

/// Why a node is placed where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    /// A compose service: a container with its own network and files.
    ComposeService,
    /// A compose service with `network_mode: host`: the network of the machine it runs on.
    HostNetwork,
    /// A compose service mounts its file into its container: a container of its own.
    MountedBy { service: String, compose: String },
    /// A Strimzi node: a pod of its own.
    StrimziPod,
    /// A container of a Kubernetes workload: a pod of its own.
    KubernetesPod,
    /// A host of an inventory (cp-ansible), with the other processes it puts there.
    InventoryHost(String),
    /// Every listener it advertises names these hosts (`localhost`, or one host name): nodes
    /// that advertise the same hosts, each on ports of its own, run side by side.
    AdvertisedHosts(Vec<String>),
    /// It sits in a folder of its own, binds `bound` for `listener` and advertises `advertised`,
    /// while a node of another folder binds the same port and advertises another one: a
    /// container's port mapping.
    PortMapping {
        listener: String,
        bound: i32,
        advertised: i32,
    },
    /// Nothing places it: a placeholder in a listener key, a wildcard advertised (Kafka then
    /// advertises the machine's own name), a fragment, or listeners Kafka cannot read.
    Unplaced,
}

/// Where a node's network, or its files, live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// Its own: no other node of the cluster shares it (a container, a pod).
    Own,
    /// Shared with every node of the cluster with the same key.
    Shared(String),
    Unknown,
}

/// A node's runtime and the places of its network and files, with the evidence.
#[derive(Debug, Clone)]
pub struct NodeHost {
    pub runtime: Runtime,
    /// Where its sockets live: two nodes with one network cannot bind one port, and reach
    /// each other at `localhost`.
    pub network: Place,
    /// Where its files live: two nodes with one disk cannot lock one directory.
    pub disk: Place,
    pub evidence: Evidence,
}

/// The host identity of every node of a cluster, by node (its file and part).
#[derive(Debug, Default)]
pub struct Hosts {
    nodes: BTreeMap<Member, NodeHost>,
}

impl Hosts {
    /// Places every node of `cluster`.
    pub fn of(cluster: &Cluster, files: &[SourceFile], facts: &Facts) -> Hosts {
        let mut nodes = BTreeMap::new();
        let mut processes = Vec::new();
        for node in &cluster.nodes {
            let mounted = cluster
                .mounted
                .iter()
                .find(|mounted| node.part.is_none() && mounted.file == node.file);
            match (node.view(files).map(|view| &view.runtime), mounted) {
                (Some(runtime), _) => {
                    nodes.insert(node.member(), declared(runtime));
                }
                (None, Some(mounted)) => {
                    nodes.insert(node.member(), mounted_by(mounted));
                }
                (None, None) => {
                    match NodeEndpoints::read(facts, node).filter(|_| !unplaceable(files, node)) {
                        Some(endpoints) => processes.push(endpoints),
                        None => {
                            nodes.insert(node.member(), unknown());
                        }
                    }
                }
            }
        }
        let mapped = port_mapped(files, &processes);
        for endpoints in &processes {
            let member = endpoints.node.member();
            let host = match mapped.get(&member) {
                Some(evidence) => NodeHost {
                    runtime: Runtime::MappedContainer,
                    network: Place::Own,
                    disk: Place::Own,
                    evidence: evidence.clone(),
                },
                None => side_by_side(endpoints),
            };
            nodes.insert(member, host);
        }
        Hosts { nodes }
    }

    /// Where `node` runs; unknown for a node of another cluster.
    pub fn node(&self, node: &Node) -> &NodeHost {
        static UNKNOWN: NodeHost = NodeHost {
            runtime: Runtime::Process,
            network: Place::Unknown,
            disk: Place::Unknown,
            evidence: Evidence::Unplaced,
        };
        self.nodes.get(&node.member()).unwrap_or(&UNKNOWN)
    }

    /// Whether two nodes share one network: `Some(true)` when known to, `Some(false)` when
    /// known not to, `None` when the files do not say.
    pub fn same_network(&self, a: &Node, b: &Node) -> Option<bool> {
        same(&self.node(a).network, &self.node(b).network, a, b)
    }

    /// Whether two nodes share one disk, as [`Hosts::same_network`] answers.
    pub fn same_disk(&self, a: &Node, b: &Node) -> Option<bool> {
        same(&self.node(a).disk, &self.node(b).disk, a, b)
    }
}

fn same(x: &Place, y: &Place, a: &Node, b: &Node) -> Option<bool> {
    if a.is(b) {
        return Some(true);
    }
    match (x, y) {
        (Place::Own, _) | (_, Place::Own) => Some(false),
        (Place::Shared(x), Place::Shared(y)) if x == y => Some(true),
        _ => None,
    }
}

fn unknown() -> NodeHost {
    NodeHost {
        runtime: Runtime::Process,
        network: Place::Unknown,
        disk: Place::Unknown,
        evidence: Evidence::Unplaced,
    }
}

/// A node the YAML declares a container or a pod of its own.
fn declared(runtime: &sources::Runtime) -> NodeHost {
    match runtime {
        sources::Runtime::Container {
            image,
            orchestrator,
            host_network,
            volumes,
        } => NodeHost {
            runtime: Runtime::Container {
                image: image.clone(),
                orchestrator: *orchestrator,
                host_network: *host_network,
                volumes: volumes.clone(),
            },
            // Containers of one compose file with the host's network share the host's ports;
            // their files stay their own.
            network: if *host_network {
                Place::Shared("the host network of the compose file".into())
            } else {
                Place::Own
            },
            disk: Place::Own,
            evidence: match (host_network, orchestrator) {
                (true, _) => Evidence::HostNetwork,
                (false, sources::Orchestrator::Compose) => Evidence::ComposeService,
                (false, sources::Orchestrator::Kubernetes) => Evidence::KubernetesPod,
            },
        },
        sources::Runtime::Pod { pool } => NodeHost {
            runtime: Runtime::Pod { pool: pool.clone() },
            network: Place::Own,
            disk: Place::Own,
            evidence: Evidence::StrimziPod,
        },
        // The processes an inventory puts on one machine share its ports and its disks.
        sources::Runtime::Machine { host } => NodeHost {
            runtime: Runtime::Process,
            network: Place::Shared(host.clone()),
            disk: Place::Shared(host.clone()),
            evidence: Evidence::InventoryHost(host.clone()),
        },
    }
}

/// A node whose file a compose service mounts into its container: a network of its own (the
/// machine's with `network_mode: host`, shared with the other such services) and a disk of
/// its own, both shared with the other nodes whose files the same service mounts.
fn mounted_by(mounted: &MountedFile) -> NodeHost {
    let container = format!(
        "the container of service `{}` of {}",
        mounted.service, mounted.compose
    );
    NodeHost {
        runtime: Runtime::Container {
            image: String::new(),
            orchestrator: sources::Orchestrator::Compose,
            host_network: mounted.host_network,
            volumes: Vec::new(),
        },
        network: if mounted.host_network {
            Place::Shared("the host network of the compose file".into())
        } else if mounted.shares_container {
            Place::Shared(container.clone())
        } else {
            Place::Own
        },
        disk: if mounted.shares_container {
            Place::Shared(container)
        } else {
            Place::Own
        },
        evidence: if mounted.host_network {
            Evidence::HostNetwork
        } else {
            Evidence::MountedBy {
                service: mounted.service.clone(),
                compose: mounted.compose.clone(),
            }
        },
    }
}

/// A file without a mode or an id (an overlay), or one whose listener keys a template fills
/// in: where it runs is unknown.
fn unplaceable(files: &[SourceFile], node: &Node) -> bool {
    let fragment = node.mode == Mode::Unknown && node.id_entry(files).is_none();
    fragment || any_unresolved(files, node, ENDPOINT_KEYS)
}

/// A process placed by the hosts it advertises: with every node that advertises the same ones
/// (a folder of properties files on one machine, with no sign of a container).
fn side_by_side(endpoints: &NodeEndpoints) -> NodeHost {
    match advertised_hosts(endpoints) {
        Some(hosts) => NodeHost {
            runtime: Runtime::Process,
            network: Place::Shared(hosts.join(",")),
            disk: Place::Shared(hosts.join(",")),
            evidence: Evidence::AdvertisedHosts(hosts),
        },
        None => unknown(),
    }
}

/// The processes that a container's port mapping shows: each in a folder of its own among the
/// cluster's nodes, binding a port for a listener that a process of another folder binds too,
/// with the same advertised hosts and another advertised port. Two processes of one machine
/// cannot both bind the port; two containers whose ports the runtime maps to distinct ones of
/// the machine can, and that is what their advertised ports show.
fn port_mapped(files: &[SourceFile], processes: &[NodeEndpoints]) -> BTreeMap<Member, Evidence> {
    let folder = |endpoints: &NodeEndpoints| {
        let path = &files[endpoints.node.file].path;
        path.rsplit_once('/').map_or("", |(dir, _)| dir).to_owned()
    };
    let mut per_folder: BTreeMap<String, usize> = BTreeMap::new();
    for endpoints in processes {
        *per_folder.entry(folder(endpoints)).or_default() += 1;
    }
    // (advertised hosts, listener, bound port) -> (advertised port, node, folder)
    type Binds = Vec<(i32, Member, String)>;
    let mut binds: BTreeMap<(Vec<String>, String, i32), Binds> = BTreeMap::new();
    for endpoints in processes {
        let own_folder = folder(endpoints);
        if per_folder[&own_folder] != 1 {
            continue;
        }
        let Some(hosts) = advertised_hosts(endpoints) else {
            continue;
        };
        for bound in endpoints.bound() {
            let advertised = endpoints
                .advertised()
                .iter()
                .find(|advertised| advertised.name == bound.name);
            if let Some(advertised) = advertised
                && bound.port != 0
            {
                let key = (hosts.clone(), bound.name.clone(), bound.port);
                binds.entry(key).or_default().push((
                    advertised.port,
                    endpoints.node.member(),
                    own_folder.clone(),
                ));
            }
        }
    }
    let mut mapped = BTreeMap::new();
    for ((_, listener, bound), holders) in binds {
        let folders = holders.iter().map(|(_, _, f)| f).collect::<Vec<_>>();
        let ports = holders.iter().map(|(port, _, _)| *port).collect::<Vec<_>>();
        let distinct_ports = ports
            .iter()
            .all(|port| ports.iter().filter(|p| *p == port).count() == 1);
        let distinct_folders = folders
            .iter()
            .all(|f| folders.iter().filter(|g| g == &f).count() == 1);
        if holders.len() < 2 || !distinct_ports || !distinct_folders {
            continue;
        }
        for (advertised, file, _) in holders {
            mapped.entry(file).or_insert_with(|| Evidence::PortMapping {
                listener: listener.clone(),
                bound,
                advertised,
            });
        }
    }
    mapped
}

impl Hosts {
    /// Every node of `cluster`'s placement, in node order.
    pub fn placements(&self, cluster: &Cluster, files: &[SourceFile]) -> Vec<Placement> {
        cluster
            .nodes
            .iter()
            .map(|node| {
                let host = self.node(node);
                Placement {
                    file: node.file,
                    part: node.part,
                    // An id output may not show (it reads as a credential) is not given.
                    id: node
                        .id_entry(files)
                        .map(|entry| (entry.key.as_str(), entry.value.trim()))
                        .filter(|(key, id)| crate::secrets::may_show(key, id))
                        .map(|(_, id)| id.to_string()),
                    runtime: host.runtime.kind(),
                    network: host.network.kind(),
                    disk: host.disk.kind(),
                    evidence: host.evidence.describe(),
                }
            })
            .collect()
    }
}

impl Runtime {
    pub fn kind(&self) -> &'static str {
        match self {
            Runtime::Process => "process",
            Runtime::MappedContainer => "mapped-container",
            Runtime::Container { .. } => "container",
            Runtime::Pod { .. } => "pod",
        }
    }
}

impl Place {
    pub fn kind(&self) -> &'static str {
        match self {
            Place::Own => "own",
            Place::Shared(_) => "shared",
            Place::Unknown => "unknown",
        }
    }
}

impl Evidence {
    /// The evidence in words, for messages and `--format json`.
    pub fn describe(&self) -> String {
        match self {
            Evidence::ComposeService => "a compose service: a container of its own".into(),
            Evidence::HostNetwork => {
                "a compose service with network_mode: host: the network of its machine".into()
            }
            Evidence::MountedBy { service, compose } => format!(
                "its file is mounted into service `{service}` of {compose}: a container of its own"
            ),
            Evidence::StrimziPod => "a Strimzi node: a pod of its own".into(),
            Evidence::InventoryHost(host) => format!("host {host} of an inventory"),
            Evidence::KubernetesPod => {
                "a container of a Kubernetes workload: a pod of its own".into()
            }
            Evidence::AdvertisedHosts(hosts) => {
                format!("advertises only {}", hosts.join(", "))
            }
            Evidence::PortMapping {
                listener,
                bound,
                advertised,
            } => format!(
                "in a folder of its own, binds {listener} on port {bound} and advertises port {advertised}, as another node's folder binds the same port: a container's port mapping"
            ),
            Evidence::Unplaced => "the files do not say where it runs".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host identity of the one cluster the files make.
    fn placed(files: &[(&str, &str)]) -> (Vec<Evidence>, Vec<Place>, Vec<Place>) {
        let mut found = crate::cluster::discover_in_memory(
            files
                .iter()
                .map(|(path, text)| (path.to_string(), text.as_bytes().to_vec()))
                .collect(),
            None,
        );
        assert_eq!(found.clusters.len(), 1, "{:?}", found.clusters);
        // The release the run would check the cluster against.
        found.clusters[0].target =
            super::super::version::choose(&found.clusters[0], &found.files, None);
        let cluster = &found.clusters[0];
        let facts = Facts::of(cluster, &found.files);
        let hosts = Hosts::of(cluster, &found.files, &facts);
        let of = |node: &Node| hosts.node(node).clone();
        let nodes: Vec<NodeHost> = cluster.nodes.iter().map(of).collect();
        (
            nodes.iter().map(|n| n.evidence.clone()).collect(),
            nodes.iter().map(|n| n.network.clone()).collect(),
            nodes.iter().map(|n| n.disk.clone()).collect(),
        )
    }

    fn broker(id: u8, listeners: &str, advertised: &str) -> String {
        format!(
            "broker.id={id}\nzookeeper.connect=zk:2181\nlisteners={listeners}\nadvertised.listeners={advertised}\n"
        )
    }

    #[test]
    fn one_folder_of_properties_files_is_one_machine() {
        let (a, b) = (
            broker(1, "PLAINTEXT://:9092", "PLAINTEXT://localhost:9092"),
            broker(2, "PLAINTEXT://:9092", "PLAINTEXT://localhost:9093"),
        );
        let (evidence, network, disk) =
            placed(&[("k/server-1.properties", &a), ("k/server-2.properties", &b)]);
        let localhost = Place::Shared("localhost".into());
        assert_eq!(network, vec![localhost.clone(), localhost.clone()]);
        assert_eq!(disk, network);
        assert_eq!(
            evidence[0],
            Evidence::AdvertisedHosts(vec!["localhost".into()])
        );
    }

    #[test]
    fn a_folder_per_broker_with_mapped_ports_is_a_container_each() {
        let (a, b) = (
            broker(1, "PLAINTEXT://:9092", "PLAINTEXT://localhost:19092"),
            broker(2, "PLAINTEXT://:9092", "PLAINTEXT://localhost:29092"),
        );
        let (evidence, network, disk) = placed(&[
            ("k/kafka-1/server.properties", &a),
            ("k/kafka-2/server.properties", &b),
        ]);
        assert_eq!(network, vec![Place::Own, Place::Own]);
        assert_eq!(disk, network);
        assert_eq!(
            evidence[1],
            Evidence::PortMapping {
                listener: "PLAINTEXT".into(),
                bound: 9092,
                advertised: 29092
            }
        );
        // The same folders binding ports of their own show no container: one machine.
        let c = broker(2, "PLAINTEXT://:9093", "PLAINTEXT://localhost:9093");
        let (_, network, _) = placed(&[
            ("k/kafka-1/server.properties", &a),
            ("k/kafka-2/server.properties", &c),
        ]);
        assert_eq!(network[0], network[1]);
        assert!(matches!(network[0], Place::Shared(_)));
    }

    #[test]
    fn a_placeholder_or_a_wildcard_advertised_is_unplaced() {
        let (a, b) = (
            broker(1, "PLAINTEXT://:9092", "PLAINTEXT://${HOST}:9092"),
            "broker.id=2\nzookeeper.connect=zk:2181\nlisteners=PLAINTEXT://:9092\n".to_owned(),
        );
        let (evidence, network, _) =
            placed(&[("k/server-1.properties", &a), ("k/server-2.properties", &b)]);
        assert_eq!(network, vec![Place::Unknown, Place::Unknown]);
        assert_eq!(evidence, vec![Evidence::Unplaced, Evidence::Unplaced]);
    }

    #[test]
    fn compose_services_are_containers_unless_on_the_host_network() {
        let compose = "services:
  kafka-1:
    image: apache/kafka:3.9.0
    environment:
      KAFKA_NODE_ID: 1
      KAFKA_PROCESS_ROLES: broker,controller
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093
  kafka-2:
    image: apache/kafka:3.9.0
    network_mode: host
    environment:
      KAFKA_NODE_ID: 2
      KAFKA_PROCESS_ROLES: broker
      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093
";
        let (evidence, network, disk) = placed(&[("k/docker-compose.yml", compose)]);
        assert_eq!(
            evidence,
            vec![Evidence::ComposeService, Evidence::HostNetwork]
        );
        assert_eq!(network[0], Place::Own);
        assert!(matches!(network[1], Place::Shared(_)));
        assert_eq!(disk, vec![Place::Own, Place::Own]);
    }

    #[test]
    fn strimzi_nodes_are_pods_of_their_pool() {
        let text = "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata:\n  name: brokers\n  labels:\n    strimzi.io/cluster: my\nspec:\n  replicas: 2\n  roles: [broker]\n---\napiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my\nspec:\n  kafka:\n    config:\n      min.insync.replicas: 1\n";
        let found =
            crate::cluster::discover_in_memory(vec![("k/kafka.yaml".into(), text.into())], None);
        let cluster = &found.clusters[0];
        let facts = Facts::of(cluster, &found.files);
        let hosts = Hosts::of(cluster, &found.files, &facts);
        assert_eq!(cluster.nodes.len(), 2);
        for node in &cluster.nodes {
            let host = hosts.node(node);
            assert_eq!(
                host.runtime,
                Runtime::Pod {
                    pool: Some("brokers".into())
                }
            );
            assert_eq!(
                (&host.network, &host.evidence),
                (&Place::Own, &Evidence::StrimziPod)
            );
        }
        assert_eq!(
            hosts.same_disk(&cluster.nodes[0], &cluster.nodes[1]),
            Some(false)
        );
    }

    #[test]
    fn own_places_are_never_shared() {
        let node = |file| Node {
            file,
            part: None,
            declared_at: 0..0,
            mode: Mode::KRaft,
            roles: super::super::Roles::default(),
        };
        let shared = Place::Shared("localhost".into());
        assert_eq!(same(&Place::Own, &shared, &node(0), &node(1)), Some(false));
        assert_eq!(same(&shared, &shared, &node(0), &node(1)), Some(true));
        assert_eq!(same(&Place::Unknown, &shared, &node(0), &node(1)), None);
        assert_eq!(
            same(
                &shared,
                &Place::Shared("kafka-1".into()),
                &node(0),
                &node(1)
            ),
            None
        );
    }
}
