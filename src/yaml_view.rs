//! What a file read from YAML (a compose service, a Strimzi resource) stands for: the data a
//! `SourceFile` carries of it besides its settings. The readers in `sources` fill it in; it
//! sits below `source` so that a file knows what it was read from without knowing the readers.

use std::sync::Arc;

use crate::catalog::{ComponentKind, KafkaVersion};
use crate::properties::{PropertiesFile, Span};

/// How a scalar is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    /// `|` or `>`.
    Block,
}

/// A compose service of another component: what it runs, and how its image names settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentService {
    pub kind: ComponentKind,
    /// The `image:` scalar, where settings the image writes by itself are placed.
    pub image_span: Span,
    /// The prefix of the variables the image turns into settings (`CONNECT_`); `None` for a
    /// resource whose `config` map names the keys as they are (a Strimzi `KafkaConnect`).
    pub env_prefix: Option<&'static str>,
    /// Whether the worker's own config, offset and status topics are on this cluster: false
    /// for a Strimzi `KafkaMirrorMaker2` seen from a cluster it only mirrors from.
    pub worker_topics_here: bool,
    /// The flows of a Strimzi `KafkaMirrorMaker2` whose connectors create topics on this
    /// cluster; their keys are the component's `<source>-><target>.<key>` entries.
    pub mirror_flows: Vec<MirrorFlow>,
}

/// A flow (`spec.mirrors` entry) of a Strimzi `KafkaMirrorMaker2`, from one cluster's side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MirrorFlow {
    pub source: String,
    pub target: String,
    /// The flow's target is this cluster: its remote topics (when a source connector runs),
    /// checkpoints (a checkpoint connector) and heartbeats (a heartbeat connector) are here.
    pub into_here: bool,
    pub source_connector: bool,
    pub checkpoint_connector: bool,
    pub heartbeat_connector: bool,
    /// The flow's offset-syncs topic is on this cluster (`offset-syncs.topic.location`: the
    /// source by default).
    pub offset_syncs_here: bool,
}

impl ComponentService {
    /// What sets `key`: its variable (`config.storage.replication.factor` ->
    /// `CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR`, for keys of dotted lower-case words, which
    /// every image reads back as the key), or the key itself in a `config` map.
    pub fn variable(&self, key: &str) -> String {
        match self.env_prefix {
            Some(prefix) => format!("{prefix}{}", key.replace('.', "_").to_ascii_uppercase()),
            None => key.to_string(),
        }
    }
}

/// What in a YAML file names the Kafka release its nodes run: the `image:` tag of a compose
/// broker service, or a Strimzi `Kafka`'s `spec.kafka.version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageTag {
    /// The image reference as Compose resolves it (`wurstmeister/kafka:2.13-2.8.1`), or the
    /// version as the resource writes it (`2.8.0`).
    pub reference: String,
    /// The `image:` scalar, or the `version:` one.
    pub span: Span,
    /// The release line it names, whether or not the catalogue covers it.
    pub release: KafkaVersion,
    /// Which of the two it is.
    pub named_by: NamedBy,
}

/// What names a release (see [`ImageTag`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedBy {
    ImageTag,
    /// `spec.kafka.version` of a Strimzi `Kafka`: the release the operator runs in its pods.
    StrimziVersion,
    /// The bitnami/kafka Helm chart's line (`reference`), whose default image runs the release.
    HelmChart,
    /// A cp-ansible inventory's `confluent_package_version` (the Confluent Platform release).
    CpAnsible,
    /// An Ansible variable (`kafka_version: 3.9.0`) of a role's template.
    AnsibleVariable,
    /// The Apache Kafka archive a role downloads (`kafka_2.13-3.9.1.tgz`).
    AnsibleArchive,
}

impl ImageTag {
    /// How a message names it: "the image tag wurstmeister/kafka:2.13-2.8.1", "the Strimzi
    /// spec.kafka.version 2.8.0".
    pub fn shown(&self) -> String {
        match self.named_by {
            NamedBy::ImageTag => format!("the image tag {}", self.reference),
            NamedBy::StrimziVersion => format!("the Strimzi spec.kafka.version {}", self.reference),
            NamedBy::HelmChart => format!("the bitnami/kafka chart line {}", self.reference),
            NamedBy::CpAnsible => format!(
                "the cp-ansible confluent_package_version {}",
                self.reference
            ),
            NamedBy::AnsibleVariable => format!("the Ansible variable {}", self.reference),
            NamedBy::AnsibleArchive => format!("the Kafka archive {}", self.reference),
        }
    }
}

/// A key Strimzi ignores in `spec.kafka.config`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    pub key: String,
    pub key_span: Span,
    /// The forbidden prefix it falls under.
    pub prefix: &'static str,
}

/// What runs a node's container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orchestrator {
    /// Docker Compose: a service's container.
    Compose,
    /// Kubernetes: a container of a pod.
    Kubernetes,
}

/// What runs a node (or component) read from YAML, as the file declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A container of a compose service or a Kubernetes pod (one per replica), with a network
    /// and files of its own unless `network_mode: host` puts it on the network of the machine
    /// it runs on.
    Container {
        image: String,
        orchestrator: Orchestrator,
        host_network: bool,
        /// Where its `volumes` are mounted, without a trailing `/`: what survives the container.
        volumes: Vec<String>,
    },
    /// A pod Strimzi runs for one node of a node pool (`None`: of the `Kafka` resource's own
    /// replicas).
    Pod { pool: Option<String> },
    /// A process on a machine an inventory names (a cp-ansible host), beside the others it
    /// names for that machine.
    Machine { host: String },
}

/// A `KafkaNodePool`: the Kafka cluster it belongs to, its name, size and roles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    pub cluster: String,
    pub name: String,
    pub replicas: Option<usize>,
    pub broker: bool,
    pub controller: bool,
}

/// What one part of a YAML file (a compose service, a Strimzi node pool) stands for: a node or
/// a component, with the data its settings do not carry.
#[derive(Debug, Clone)]
pub struct YamlView {
    pub id: String,
    pub label: String,
    /// Where the file declares the node: its service's or resource's name.
    pub declared_at: Span,
    /// Value spans a fix may replace, with their style.
    pub editable: Vec<(Span, Style)>,
    pub count_known: bool,
    /// `Some` when the YAML stands for a component of the cluster, not a node: which one. A
    /// YAML service is a component by its image, never by its keys.
    pub component: Option<ComponentService>,
    pub forbidden: Vec<Forbidden>,
    /// Keys its image writes that the release its image tag names does not have, and ignores
    /// (`process.roles` before Kafka 2.8), with their key spans; not among its settings.
    pub ignored_by_release: Vec<(String, Span)>,
    /// `Some` when the service's image tag says which Kafka release it runs.
    pub image_tag: Option<ImageTag>,
    /// The container or pod that runs it.
    pub runtime: Runtime,
    /// `Some` when the image's start-up scripts stop the container before Kafka starts.
    pub image_exit: Option<ImageExit>,
    /// Settings come from a file the YAML names and kafkalint does not read (a compose
    /// service's `env_file`): a key the part does not set may be set there.
    pub settings_elsewhere: bool,
}

/// Why an image's start-up scripts stop its container before Kafka starts, and the `image:`
/// scalar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageExit {
    pub why: String,
    /// What to set instead.
    pub help: String,
    pub span: Span,
}

/// One node or component of a YAML file: the settings Kafka gets (with the spans of the YAML
/// scalars they come from) and what it stands for.
#[derive(Debug, Clone)]
pub struct YamlPart {
    pub properties: PropertiesFile,
    pub view: YamlView,
}

/// What a YAML file holds for kafkalint: its parts (every node and component read from it, in
/// the order its readers gave them), the values output hides, and the node pools it was read
/// with (kept to read the file again after a fix).
#[derive(Debug, Clone, Default)]
pub struct YamlFile {
    pub parts: Vec<YamlPart>,
    /// Every secret-looking value of the whole file, whichever service or resource holds it.
    pub secrets: Vec<Span>,
    pub pools: Arc<[Pool]>,
    /// The ConfigMaps of the files read with it, which its containers may take variables from.
    pub config_maps: Arc<[ConfigMap]>,
    /// The bitnami/kafka chart version the config file states, which it was read with.
    pub bitnami_kafka_chart: Option<String>,
    /// `[images]` of the config file, which it was read with: (the team's image, the known
    /// image it is read as).
    pub images: Vec<(String, String)>,
}

/// A Kubernetes ConfigMap: its `data`, for the containers that take variables from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigMap {
    pub namespace: Option<String>,
    pub name: String,
    /// The file it is in.
    pub path: String,
    pub data: Vec<ConfigMapEntry>,
}

/// One entry of a ConfigMap's `data`, with where its file writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigMapEntry {
    pub key: String,
    pub value: String,
    pub key_span: Span,
    pub value_span: Span,
    /// How a fix may replace the value, when it may.
    pub edit: Option<Style>,
}

impl YamlFile {
    /// Whether a fix may replace `span` (a value of one of its parts), and how it is written.
    pub fn editable(&self, span: &Span) -> Option<Style> {
        self.parts
            .iter()
            .flat_map(|part| &part.view.editable)
            .find(|(editable, _)| editable == span)
            .map(|(_, style)| *style)
    }
}
