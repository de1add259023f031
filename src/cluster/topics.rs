//! Declared topics bound to the cluster they land on.
//!
//! A topic binds, in this order, to: the cluster its declaration names (a Strimzi
//! `KafkaTopic`'s `strimzi.io/cluster` label, a Confluent `KafkaTopic`'s `kafkaClusterRef`), the
//! nearest of that name; the cluster of its own file (a compose file's init service, a Helm
//! values file's `provisioning.topics`); else the one cluster of its folder, or of the folders
//! beside it under the same parent. Two clusters as near, or none, leave it unbound: then the
//! checks that need a cluster (brokers, defaults, release) are skipped, and said so.

use std::path::Path;

use super::Cluster;
use crate::source::SourceFile;
pub use crate::sources::topics::{ClusterRef, DeclaredTopic, TopicForm, TopicSetting, Written};
use crate::yaml_view::YamlFile;

/// A walked file that may declare topics: its path (as shown) and bytes.
pub type TopicSource = (String, Vec<u8>);

/// What binding gives: each cluster's topics (in `clusters`), the topics bound to none, and
/// a note per file whose topics are unbound.
#[derive(Debug, Default)]
pub struct Unbound {
    pub topics: Vec<DeclaredTopic>,
    pub notes: Vec<String>,
}

/// Reads `sources` for topics and binds each to a cluster of `clusters`; files read for the
/// first time are added to `files`. `claims` are the topic files (absolute paths) that a
/// `[[clusters]]` entry of the config file names, with the entry's index: their topics bind
/// to that cluster, whatever else they name.
pub fn bind(
    files: &mut Vec<SourceFile>,
    clusters: &mut [Cluster],
    sources: Vec<TopicSource>,
    claims: &[(std::path::PathBuf, usize)],
) -> Unbound {
    let mut unbound = Unbound::default();
    // In the order a walk meets them (by name, folder by folder), however they were gathered:
    // which declaration comes second decides what a finding says.
    let mut sources = sources;
    sources.sort_by(|(one, _), (other, _)| {
        Path::new(one)
            .components()
            .cmp(Path::new(other).components())
    });
    for (path, bytes) in sources {
        let Some(read) = crate::sources::topics::read(&path, &bytes) else {
            continue;
        };
        for note in &read.notes {
            unbound.notes.push(format!("{path}: {note}"));
        }
        if read.topics.is_empty() {
            continue;
        }
        let file = match files.iter().position(|file| file.path == path) {
            Some(index) => {
                reveal(&mut files[index], &read.topics);
                index
            }
            None => {
                let yaml = YamlFile {
                    secrets: read.hidden,
                    ..YamlFile::default()
                };
                files.push(SourceFile::from_yaml(path.clone(), bytes, yaml));
                files.len() - 1
            }
        };
        let absolute = crate::config::absolute(Path::new(&path));
        let claimed = claims
            .iter()
            .find(|(claimed, _)| *claimed == absolute)
            .map(|(_, entry)| *entry);
        let mut left = Vec::new();
        for mut topic in read.topics {
            topic.file = file;
            let bound = match claimed {
                Some(entry) => declared_clusters(entry, clusters),
                None => clusters_of(&topic, file, files, clusters),
            };
            match bound {
                Ok(bound) => {
                    for cluster in bound {
                        clusters[cluster].topics.push(topic.clone());
                    }
                }
                Err(why) => left.push((topic, why)),
            }
        }
        if let Some((_, why)) = left.first() {
            let names: Vec<String> = left
                .iter()
                .map(|(topic, _)| format!("`{}`", topic.shown_name()))
                .collect();
            unbound.notes.push(format!(
                "{path}: topic{} {} not checked against a cluster ({why}): the replication \
                 factor, min.insync.replicas and the release's topic configs are judged only \
                 where they are wrong on any cluster",
                if names.len() == 1 { "" } else { "s" },
                names.join(", ")
            ));
            unbound
                .topics
                .extend(left.into_iter().map(|(topic, _)| topic));
        }
    }
    unbound
}

/// Shows what findings on `topics` point at in `file`, a file read already for its cluster
/// (a compose file whose init service creates topics): its reader hid what it could not
/// read word by word (a command over several quoted lines); a topic's name, its counts and
/// the configs output may show are shown where the file's bytes are exactly that value.
fn reveal(file: &mut SourceFile, topics: &[DeclaredTopic]) {
    let bytes = file.bytes.clone();
    let Some(yaml) = file.yaml.as_deref_mut() else {
        return;
    };
    let written_as =
        |written: &Written| bytes.get(written.span.clone()) == Some(written.text.as_bytes());
    let mut shown: Vec<&Written> = Vec::new();
    for topic in topics {
        shown.push(&topic.name);
        shown.extend([&topic.partitions, &topic.replicas].into_iter().flatten());
        shown.extend(
            topic
                .configs
                .iter()
                .filter(|setting| crate::secrets::may_show(&setting.key, &setting.value.text))
                .map(|setting| &setting.value),
        );
    }
    let cuts: Vec<&crate::properties::Span> = shown
        .into_iter()
        .filter(|written| written_as(written))
        .map(|written| &written.span)
        .collect();
    yaml.secrets = crate::sources::topics::uncover(std::mem::take(&mut yaml.secrets), &cuts);
}

/// The clusters of the config file's `[[clusters]]` entry `entry`, or why none.
fn declared_clusters(entry: usize, clusters: &[Cluster]) -> Result<Vec<usize>, String> {
    let bound: Vec<usize> = (0..clusters.len())
        .filter(|index| clusters[*index].declared == Some(entry))
        .collect();
    match bound.is_empty() {
        true => Err("the [[clusters]] entry that names it has no node file read".to_string()),
        false => Ok(bound),
    }
}

/// The clusters `topic` lands on, or why none: one, but for a `Kafka` it names that several
/// files as near declare with as many brokers (a `prod` and a `stage` variant of one name):
/// the topic is applied against whichever runs, so it lands on each. Variants of different
/// sizes leave it unbound.
fn clusters_of(
    topic: &DeclaredTopic,
    file: usize,
    files: &[SourceFile],
    clusters: &[Cluster],
) -> Result<Vec<usize>, String> {
    // A `confluent_kafka_topic` lands on the Confluent Cloud cluster its `kafka_cluster`
    // names, which Confluent runs: never on a cluster of the files read.
    if topic.form == TopicForm::TerraformConfluentTopic {
        return Err("a Confluent Cloud topic, on a cluster Confluent runs".to_string());
    }
    let folder = folder_of(&files[file].path);
    if let Some(named) = &topic.cluster {
        let (name, strimzi) = match named {
            ClusterRef::Strimzi { name, .. } => (name, true),
            ClusterRef::Confluent { name, .. } => (name, false),
            ClusterRef::Service { .. } => return nearby_clusters(topic, file, files, clusters),
        };
        let named: Vec<usize> = (0..clusters.len())
            .filter(|index| {
                let cluster = &clusters[*index];
                let form_matches = matches!(
                    (&cluster.membership.gathered, strimzi),
                    (super::Gathered::Strimzi { .. }, true)
                        | (super::Gathered::Confluent { .. }, false)
                );
                form_matches && cluster.kafka_resource() == Some(name.as_str())
            })
            .collect();
        let nearest = nearest(&named, folder, files, clusters, usize::MAX);
        let size = |index: &usize| {
            let cluster = &clusters[*index];
            (cluster.broker_count_is_known(files)).then(|| cluster.broker_count())
        };
        return match nearest.split_first() {
            None => Err(format!(
                "it names the Kafka `{name}`, which no file read declares"
            )),
            Some((first, rest)) if rest.iter().any(|other| size(other) != size(first)) => {
                Err(format!(
                    "it names the Kafka `{name}`, which {} files as near declare with different \
                     broker counts: which one it is for is not known",
                    nearest.len()
                ))
            }
            Some(_) => Ok(nearest),
        };
    }
    nearby_clusters(topic, file, files, clusters)
}

/// The cluster of `topic`'s own file, else the one of its folder or a sibling folder; between
/// several as near, the one holding the compose service its command connects to.
fn nearby_clusters(
    topic: &DeclaredTopic,
    file: usize,
    files: &[SourceFile],
    clusters: &[Cluster],
) -> Result<Vec<usize>, String> {
    let folder = folder_of(&files[file].path);
    let own: Vec<usize> = (0..clusters.len())
        .filter(|index| clusters[*index].holds_file(file))
        .collect();
    if let Some(only) = by_service(topic, &own, files, clusters) {
        return Ok(vec![only]);
    }
    if let [only] = own.as_slice() {
        if quorums_apart(&clusters[*only], files) {
            return Err(
                "its cluster's KRaft nodes name quorums of different voters \
                        (controller.quorum.voters): which one it lands on is not known"
                    .to_string(),
            );
        }
        return Ok(vec![*only]);
    }
    let all: Vec<usize> = (0..clusters.len()).collect();
    // A script beside a cluster's folder (`scripts/` beside `config/`) is for that cluster; a
    // file further away may be for any.
    let near = nearest(&all, folder, files, clusters, 1);
    if let Some(only) = by_service(topic, &near, files, clusters) {
        return Ok(vec![only]);
    }
    match near.as_slice() {
        [only] => Ok(vec![*only]),
        [] => Err("no cluster in its folder or beside it".to_string()),
        _ => Err("several clusters as near: which one it is for is not known".to_string()),
    }
}

/// Of several `candidates`, the one cluster of a compose file that has a service named as the
/// topic's command connects to (see [`ClusterRef::Service`]).
fn by_service(
    topic: &DeclaredTopic,
    candidates: &[usize],
    files: &[SourceFile],
    clusters: &[Cluster],
) -> Option<usize> {
    let Some(ClusterRef::Service { name, .. }) = &topic.cluster else {
        return None;
    };
    if candidates.len() < 2 {
        return None;
    }
    let serves = |cluster: &Cluster| {
        matches!(cluster.membership.gathered, super::Gathered::Compose { .. })
            && cluster.nodes.iter().any(|node| {
                files[node.file].bytes.get(node.declared_at.clone()) == Some(name.as_bytes())
            })
    };
    match candidates
        .iter()
        .filter(|index| serves(&clusters[**index]))
        .collect::<Vec<_>>()
        .as_slice()
    {
        [only] => Some(**only),
        _ => None,
    }
}

/// Whether the nodes of `cluster` name quorums of different voter ids: one file's KRaft
/// services that each run a quorum of their own (two one-node clusters side by side with
/// ids of their own, which the model keeps as one cluster and `inconsistent-cluster-value`
/// reports), so a topic of that file lands on one of them, not on all its brokers. Quorums
/// that differ only in how they write an address are one.
fn quorums_apart(cluster: &Cluster, files: &[SourceFile]) -> bool {
    let mut quorums: Vec<Vec<&str>> = Vec::new();
    for node in &cluster.nodes {
        let Some(entry) = node.entry(files, "controller.quorum.voters") else {
            continue;
        };
        let mut ids: Vec<&str> = entry
            .value
            .split(',')
            .filter_map(|voter| voter.split_once('@'))
            .map(|(id, _)| id.trim())
            .collect();
        ids.sort_unstable();
        if !quorums.contains(&ids) {
            quorums.push(ids);
        }
    }
    quorums.len() > 1
}

/// Of `candidates`, the clusters whose folder is nearest `folder` (the deepest common folder),
/// at most `up` folders above `folder`.
fn nearest(
    candidates: &[usize],
    folder: &Path,
    files: &[SourceFile],
    clusters: &[Cluster],
    up: usize,
) -> Vec<usize> {
    let depth = folder.components().count();
    let mut best: Vec<usize> = Vec::new();
    let mut best_shared = 0;
    for &index in candidates {
        let Some(first) = clusters[index].first_file() else {
            continue;
        };
        let other = folder_of(&files[first].path);
        let shared = folder
            .components()
            .zip(other.components())
            .take_while(|(a, b)| a == b)
            .count();
        if depth.saturating_sub(shared) > up {
            continue;
        }
        if best.is_empty() || shared > best_shared {
            best = vec![index];
            best_shared = shared;
        } else if shared == best_shared {
            best.push(index);
        }
    }
    best
}

fn folder_of(path: &str) -> &Path {
    Path::new(path).parent().unwrap_or(Path::new(""))
}

impl Cluster {
    /// Whether `file` is one of the cluster's node, overlay or component files.
    fn holds_file(&self, file: usize) -> bool {
        self.files.contains(&file)
            || self
                .components
                .iter()
                .any(|component| component.file == file)
    }

    /// The file the cluster was found by (its first node's or component's).
    fn first_file(&self) -> Option<usize> {
        self.files
            .first()
            .or_else(|| self.components.first().map(|component| &component.file))
            .copied()
    }

    /// Its topics read again from `files` (the same files, their bytes changed by fixes,
    /// which never add or remove a topic): each file's topics, in the same order.
    pub(super) fn reread_topics(&self, files: &[SourceFile]) -> Vec<DeclaredTopic> {
        reread(&self.topics, files)
    }
}

/// `topics` read again from `files` (the same files, their bytes changed by fixes, which never
/// add or remove a topic): each file's topics, in the same order.
pub fn reread(topics: &[DeclaredTopic], files: &[SourceFile]) -> Vec<DeclaredTopic> {
    let mut again = Vec::with_capacity(topics.len());
    let mut by_file: std::collections::HashMap<usize, std::vec::IntoIter<DeclaredTopic>> =
        Default::default();
    for topic in topics {
        let fresh = by_file.entry(topic.file).or_insert_with(|| {
            let file = &files[topic.file];
            crate::sources::topics::read(&file.path, &file.bytes)
                .map(|read| read.topics)
                .unwrap_or_default()
                .into_iter()
        });
        // The same declaration, found again by its name and form.
        let found = fresh.find(|candidate| {
            candidate.form == topic.form && candidate.name.text == topic.name.text
        });
        let mut fresh_topic = found.unwrap_or_else(|| topic.clone());
        fresh_topic.file = topic.file;
        again.push(fresh_topic);
    }
    again
}
