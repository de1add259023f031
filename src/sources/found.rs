//! What reading deployment files gives: files, the clusters they declare, and what was
//! passed over, as plain data the readers fill and the model takes.

use crate::source::SourceFile;

/// The files, clusters, notes and errors of reading YAML files.
#[derive(Debug, Default)]
pub struct Found {
    /// Every YAML file that gave a cluster, each once, with its parts.
    pub files: Vec<SourceFile>,
    /// Each cluster (a compose file, a Strimzi `Kafka`): its name, its file (an index into
    /// `files`) and the parts of that file that are its nodes and components.
    pub clusters: Vec<FoundCluster>,
    /// What was passed over, with why.
    pub notes: Vec<String>,
    /// What was assumed in reading (a Helm chart's line), with why.
    pub info: Vec<String>,
    /// Files that cannot be read as YAML: path and reason.
    pub errors: Vec<(String, String)>,
    /// Files that cannot be parsed (broken YAML or HCL), each with where and why: reported by
    /// the `invalid-syntax` rule.
    pub unreadable: Vec<SourceFile>,
    /// Each Strimzi `Kafka` read: its name and its cluster (an index into `clusters`).
    pub strimzi_kafkas: Vec<(String, usize)>,
    /// The `KafkaConnect`s and `KafkaMirrorMaker2`s bound to a `Kafka` of
    /// [`super::Beside::kafkas_elsewhere`]: that `Kafka`'s name, the file (an index into `files`) and
    /// the part, for the cluster of that `Kafka` to take in.
    pub bound_elsewhere: Vec<(String, usize, u32)>,
}

/// A cluster read from YAML files.
#[derive(Debug)]
pub struct FoundCluster {
    pub name: String,
    pub form: Form,
    /// Its nodes and components: a file (an index into [`Found::files`]) and a part of it. The
    /// first is in the file that declares the cluster.
    pub members: Vec<(usize, u32)>,
}

/// The form of YAML a cluster was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Compose,
    Strimzi,
    /// Kubernetes workloads (StatefulSets, Deployments, Pods) of known Kafka images.
    Kubernetes,
    /// Values of the bitnami/kafka Helm chart.
    HelmValues,
    /// A Confluent for Kubernetes `Kafka` resource.
    Confluent,
    /// A cp-ansible inventory.
    Ansible,
    /// A Terraform file's `helm_release` of the bitnami/kafka chart.
    Terraform,
    /// An Ansible role's template of a node's `.properties` file.
    AnsibleRole,
}
