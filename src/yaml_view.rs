//! What a file read from YAML (a compose service, a Strimzi resource) stands for: the data a
//! `SourceFile` carries of it besides its settings. The readers in `sources` fill it in; it
//! sits below `source` so that a file knows what it was read from without knowing the readers.

use std::sync::Arc;

use crate::catalog::{ComponentKind, KafkaVersion};
use crate::properties::Span;

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
    /// The prefix of the variables the image turns into settings (`CONNECT_`).
    pub env_prefix: &'static str,
}

impl ComponentService {
    /// The variable that sets `key` (`config.storage.replication.factor` ->
    /// `CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR`); for keys of dotted lower-case words, which
    /// every image reads back as the key.
    pub fn variable(&self, key: &str) -> String {
        format!(
            "{}{}",
            self.env_prefix,
            key.replace('.', "_").to_ascii_uppercase()
        )
    }
}

/// The `image:` of a compose broker service whose tag names the Kafka release it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageTag {
    /// The image reference as Compose resolves it (`wurstmeister/kafka:2.13-2.8.1`).
    pub reference: String,
    /// The `image:` scalar.
    pub span: Span,
    /// The release line the tag names, whether or not the catalogue covers it.
    pub release: KafkaVersion,
}

/// A key Strimzi ignores in `spec.kafka.config`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forbidden {
    pub key: String,
    pub key_span: Span,
    /// The forbidden prefix it falls under.
    pub prefix: &'static str,
}

/// What runs a node (or component) read from YAML, as the file declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A container of a compose service (one per replica), with a network and files of its own
    /// unless `network_mode: host` puts it on the network of the machine it runs on.
    Container { image: String, host_network: bool },
    /// A pod Strimzi runs for one node of a node pool (`None`: of the `Kafka` resource's own
    /// replicas).
    Pod { pool: Option<String> },
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

/// What a `SourceFile` read from YAML stands for.
#[derive(Debug, Clone)]
pub struct YamlView {
    pub id: String,
    pub label: String,
    /// Value spans a fix may replace, with their style.
    pub editable: Vec<(Span, Style)>,
    /// Every secret-looking value of the whole file, whichever service or resource holds it
    /// (shared by the file's nodes).
    pub secrets: Arc<[Span]>,
    pub count_known: bool,
    /// `Some` when the YAML stands for a component of the cluster, not a node: which one. A
    /// YAML service is a component by its image, never by its keys.
    pub component: Option<ComponentService>,
    pub forbidden: Vec<Forbidden>,
    /// `Some` when the service's image tag says which Kafka release it runs.
    pub image_tag: Option<ImageTag>,
    /// The node pools of the folder (kept to read the file again after a fix; shared).
    pub pools: Arc<[Pool]>,
    /// The container or pod that runs it.
    pub runtime: Runtime,
}
