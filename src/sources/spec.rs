//! What the readers (`compose`, `strimzi`) give for each node they find, before it becomes a
//! [`crate::source::SourceFile`].

use super::images;
use super::yaml::Scalar;
use crate::properties::{Provenance, Span};
use crate::yaml_view::{ComponentService, Forbidden, ImageExit, ImageTag, Runtime, Style};

/// How a fix may replace a value: the style of the scalar it is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edit {
    pub style: Style,
}

/// A setting a node gets, with the YAML bytes it comes from.
#[derive(Debug, Clone)]
pub struct YamlEntry {
    pub key: String,
    pub value: String,
    pub key_span: Span,
    pub value_span: Span,
    /// `Some` when the value is written exactly, on one line, and may be replaced in place.
    pub edit: Option<Edit>,
    pub provenance: Provenance,
}

impl YamlEntry {
    /// A setting written as a `key: value` of a map of settings (a Strimzi `config`, a chart's
    /// `overrideConfiguration`), pointing at its key and value; replaceable in place when the
    /// value is one exact line.
    pub fn written(key: &Scalar, value: &Scalar) -> YamlEntry {
        YamlEntry {
            key: key.value.clone(),
            value: value.value.clone(),
            key_span: key.span.clone(),
            value_span: value.span.clone(),
            edit: (value.exact && value.style != Style::Block)
                .then_some(Edit { style: value.style }),
            provenance: Provenance::Written,
        }
    }

    /// A setting a program writes of itself (an operator, a chart, cp-ansible), placed at `at`.
    pub fn rendered(key: &str, value: String, at: &Span, provenance: Provenance) -> YamlEntry {
        YamlEntry {
            key: key.to_string(),
            value,
            key_span: at.clone(),
            value_span: at.clone(),
            edit: None,
            provenance,
        }
    }
}

/// The keys a deployment tool renders from host names and ports (listeners, the quorum or the
/// ZooKeeper connection), which its readers count as set to values not worked out.
pub fn network_keys(kraft: bool) -> impl Iterator<Item = &'static str> {
    let mode: &[&str] = if kraft {
        &["controller.listener.names", "controller.quorum.voters"]
    } else {
        &["zookeeper.connect"]
    };
    [
        "listeners",
        "advertised.listeners",
        "listener.security.protocol.map",
        "inter.broker.listener.name",
    ]
    .into_iter()
    .chain(mode.iter().copied())
}

/// One node as a reader found it.
#[derive(Debug, Clone)]
pub struct NodeSpec {
    /// Names the node among those of its file, to find it again after a fix.
    pub id: String,
    /// How messages name it: ``service `kafka-1` ``, ``Kafka `my-cluster`, pool `brokers` ``.
    pub label: String,
    /// Where the file declares it: the service's name, the `Kafka` resource's name. Findings
    /// about a key it leaves to a default point there.
    pub declared_at: Span,
    pub entries: Vec<YamlEntry>,
    /// False when how many such nodes run is unknown (`deploy.mode: global`).
    pub count_known: bool,
    pub image: Option<images::Image>,
    /// `Some` when the image's tag says which Kafka release the node runs.
    pub image_tag: Option<ImageTag>,
    /// `Some` for a service of another component (Connect, Schema Registry), which joins the
    /// cluster as a component rather than a node.
    pub component: Option<ComponentService>,
    pub forbidden: Vec<Forbidden>,
    /// Settings its image writes that the Kafka release it runs does not have, and ignores
    /// (`process.roles` on an image of Kafka before 2.8); they are not among `entries`.
    pub ignored_by_release: Vec<YamlEntry>,
    pub runtime: Runtime,
    /// `Some` when the image's scripts stop the container before Kafka starts.
    pub image_exit: Option<ImageExit>,
    /// See [`crate::yaml_view::YamlView::settings_elsewhere`].
    pub settings_elsewhere: bool,
}
