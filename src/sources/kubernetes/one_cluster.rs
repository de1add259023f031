//! Kubernetes workloads of several files of one folder that are one cluster.
//!
//! A repository often writes a cluster's workloads a file each (`kafka-0.yaml`, `kafka-1.yaml`,
//! `kafka-2.yaml`, or `broker.yaml` beside `controller.yaml`). Their brokers find each other
//! only through the quorum they name: the same `zookeeper.connect` (ZooKeeper mode: brokers
//! with one connect string, chroot included, register in one cluster, apache/kafka
//! `core/src/main/scala/kafka/zk/KafkaZkClient.scala` `registerBroker`, 2.8.0 to 3.7.0), or the
//! same `controller.quorum.voters` / `controller.quorum.bootstrap.servers` (KRaft: nodes of one
//! quorum are one cluster). Those are one cluster, in one namespace (a short host name such as
//! `zookeeper:2181` resolves within the namespace of the pod). Two files that declare the same
//! workload (kind, namespace and name) are no parts of one cluster: applying the second
//! replaces the first, so they are ways to run it, and each stays a cluster of its own. Nor are
//! two files whose nodes give one id (`broker.id`, `node.id`): one quorum takes one node of an
//! id, so they are the same nodes written for another place (`kafka-dev.yaml` and
//! `kafka-prod.yaml`, applied with `kubectl -n` to two namespaces), not more nodes.

use crate::sources::{Form, Found};

/// Keys whose one value makes the nodes that share it one cluster.
const QUORUM_KEYS: &[&str] = &[
    "zookeeper.connect",
    "controller.quorum.voters",
    "controller.quorum.bootstrap.servers",
];

/// Merges the clusters of Kubernetes workloads of `found` (each `manifest_clusters` entry: a
/// cluster's index and its namespace) that name one quorum (see the module's comment) into the
/// first of them, in file order.
pub fn merge_by_quorum(found: &mut Found, manifest_clusters: &[(usize, Option<String>)]) {
    // In the order of their files' paths, whatever order the files were read in (a walk sorts
    // them, an editor's or a test's files come as given): the same clusters, named alike.
    let mut manifest_clusters = manifest_clusters.to_vec();
    let first_path = |cluster: usize| {
        found.clusters[cluster]
            .members
            .first()
            .map(|(file, _)| found.files[*file].path.clone())
    };
    manifest_clusters.sort_by_cached_key(|(cluster, _)| (first_path(*cluster), *cluster));
    let quorums: Vec<Vec<(&str, String)>> = manifest_clusters
        .iter()
        .map(|(cluster, _)| quorum_values(found, *cluster))
        .collect();
    let workloads: Vec<Vec<String>> = manifest_clusters
        .iter()
        .map(|(cluster, _)| workload_ids(found, *cluster))
        .collect();
    let node_ids: Vec<Vec<String>> = manifest_clusters
        .iter()
        .map(|(cluster, _)| node_ids(found, *cluster))
        .collect();
    // Each cluster's group: the index (into `manifest_clusters`) of the first of its group.
    let mut group: Vec<usize> = (0..manifest_clusters.len()).collect();
    for later in 0..manifest_clusters.len() {
        for earlier in 0..later {
            if group[earlier] != earlier {
                continue;
            }
            let members: Vec<usize> = (0..later).filter(|m| group[*m] == earlier).collect();
            let same_namespace = manifest_clusters[earlier].1 == manifest_clusters[later].1;
            let shares_quorum = members.iter().any(|member| {
                quorums[*member]
                    .iter()
                    .any(|value| quorums[later].contains(value))
            });
            let same_workload = members.iter().any(|member| {
                workloads[*member]
                    .iter()
                    .any(|id| workloads[later].contains(id))
            });
            let same_node_id = members.iter().any(|member| {
                node_ids[*member]
                    .iter()
                    .any(|id| node_ids[later].contains(id))
            });
            if same_namespace && shares_quorum && !same_workload && !same_node_id {
                group[later] = earlier;
                break;
            }
        }
    }
    let mut removed = Vec::new();
    for (index, first) in group.iter().enumerate() {
        if *first == index {
            continue;
        }
        let from = manifest_clusters[index].0;
        let into = manifest_clusters[*first].0;
        let members = std::mem::take(&mut found.clusters[from].members);
        let name = found.clusters[from].name.clone();
        found.clusters[into].members.extend(members);
        found.clusters[into].name.push_str(&format!(" + {name}"));
        removed.push(from);
    }
    removed.sort_unstable();
    for cluster in removed.into_iter().rev() {
        found.clusters.remove(cluster);
        for (_, index) in &mut found.strimzi_kafkas {
            if *index > cluster {
                *index -= 1;
            }
        }
    }
}

/// The literal quorum values (`zookeeper.connect=zk:2181/kafka`, key and value) the nodes of a
/// cluster name; a value with a placeholder (`$(VAR)`, `${VAR}`) is no literal.
fn quorum_values(found: &Found, cluster: usize) -> Vec<(&'static str, String)> {
    let mut values = Vec::new();
    if found.clusters[cluster].form != Form::Kubernetes {
        return values;
    }
    for part in parts(found, cluster) {
        for key in QUORUM_KEYS {
            let Some(entry) = part.properties.get(key) else {
                continue;
            };
            let value = entry.value.trim().to_ascii_lowercase();
            if !value.is_empty() && !value.contains('$') && !values.contains(&(*key, value.clone()))
            {
                values.push((*key, value));
            }
        }
    }
    values
}

/// The literal ids (`broker.id`, `node.id`) of a cluster's nodes.
fn node_ids(found: &Found, cluster: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for part in parts(found, cluster) {
        for key in ["node.id", "broker.id"] {
            if let Some(entry) = part.properties.get(key)
                && let Ok(id) = entry.value.trim().parse::<i64>()
            {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

/// The workloads a cluster's nodes come from (`StatefulSet ns/kafka kafka`), without the
/// replica's ordinal.
fn workload_ids(found: &Found, cluster: usize) -> Vec<String> {
    let mut ids = Vec::new();
    for part in parts(found, cluster) {
        let id = part.view.id.as_str();
        let workload = id.rsplit_once(' ').map_or(id, |(workload, _)| workload);
        if !ids.iter().any(|known: &String| known == workload) {
            ids.push(workload.to_string());
        }
    }
    ids
}

/// The parts (nodes) of a cluster's members, as read.
fn parts(found: &Found, cluster: usize) -> impl Iterator<Item = &crate::sources::YamlPart> {
    found.clusters[cluster]
        .members
        .iter()
        .filter_map(|(file, part)| found.files[*file].yaml.as_ref()?.parts.get(*part as usize))
}
