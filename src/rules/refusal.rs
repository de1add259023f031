//! What the start-up rules share: the nodes they judge, what they read of one, and one wording
//! for a node Kafka refuses to start.

use super::{Context, Rule};
use crate::catalog::KafkaVersion;
use crate::cluster::facts::Facts;
use crate::cluster::quorum::ProcessRoles;
use crate::cluster::setting::{Item, Setting};
use crate::cluster::{Cluster, Effective, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};

/// Kafka 3.0 checks the quorum at start-up: a KRaft node needs voters, a controller is one of
/// them and a broker-only node is not. The KRaft preview of 2.8 checks only that `node.id` is set.
pub const QUORUM_CHECKS_FROM: KafkaVersion = KafkaVersion::new(3, 0);

/// Kafka 3.1 (KAFKA-13456) tightened the KRaft checks: listeners per role, controller listener
/// names only in KRaft mode, advertised listeners without the controller ones, no control plane
/// listener in KRaft, and `node.id` and `broker.id` copied onto each other and required to agree.
/// Before, `node.id` wins when it is 0 or more, else `broker.id` is the id.
pub const KRAFT_CHECKS_FROM: KafkaVersion = KafkaVersion::new(3, 1);

/// Kafka 3.9 (KIP-853, dynamic quorums) works out the advertised controller endpoints (from
/// `advertised.listeners`, else `listeners` with the host of the node's voter) and checks them;
/// 3.8 and older compare `listeners` with `controller.listener.names` only.
pub const ADVERTISED_CONTROLLERS_FROM: KafkaVersion = KafkaVersion::new(3, 9);

/// One node as a start-up rule checks it against one release.
#[derive(Clone, Copy)]
pub struct NodeCheck<'a, 'r> {
    pub rule: &'static Rule,
    /// What the rule sees of the model.
    pub context: &'r Context<'a>,
    /// What the cluster's nodes are known to be (read once, before any rule).
    facts: &'a Facts<'a>,
    pub node: &'r Node,
    pub version: KafkaVersion,
}

impl<'a, 'r> NodeCheck<'a, 'r> {
    /// `node` as `rule` checks it against Kafka `version`.
    pub fn new(
        rule: &'static Rule,
        context: &'r Context<'a>,
        node: &'r Node,
        version: KafkaVersion,
    ) -> Self {
        NodeCheck {
            rule,
            context,
            facts: context.facts,
            node,
            version,
        }
    }

    /// The nodes of `cluster` whose whole configuration a start-up rule judges: full node
    /// files (no fragments) that set none of the `inputs` the rule reads to a placeholder.
    pub fn judged(
        rule: &'static Rule,
        cluster: &'r Cluster,
        context: &'r Context<'a>,
        inputs: &'r [&str],
    ) -> impl Iterator<Item = NodeCheck<'a, 'r>> {
        let version = cluster.target.version;
        let facts = context.facts;
        cluster
            .nodes
            .iter()
            .filter(move |node| {
                !context.is_fragment(node) && !context.any_placeholder(node, inputs)
            })
            .map(move |node| NodeCheck {
                rule,
                context,
                facts,
                node,
                version,
            })
    }

    /// The integer Kafka will use for `key` on the node, with where it comes from (see
    /// [`Context::parsed_integer`]).
    pub fn int(&self, key: &str) -> Option<(i64, Effective<'a>)> {
        self.context.parsed_integer(self.node, key, self.version)
    }

    /// `process.roles` as the node's Kafka reads it; `None` when it is null or Kafka refuses it.
    pub fn roles(&self) -> Option<&'a ProcessRoles<'a>> {
        self.facts.roles(self.node)
    }

    /// `<node>: Kafka <version> refuses to start: <why>`, an error that stops the node.
    pub fn refusal(&self, key: &str, why: String, labels: Vec<Label>, help: String) -> Diagnostic {
        self.rule
            .finding(format!("Kafka {} refuses to start: {why}", self.version))
            .about(self.context.node_ref(self.node))
            .with_severity(Severity::Error)
            .stopping_startup()
            .with_key(key)
            .with_labels(labels)
            .with_help(help)
    }

    /// A label on `item` of a setting (on the whole value without one), or at the top of the
    /// file when the file leaves the key to Kafka's default.
    pub fn label(
        &self,
        key: &str,
        setting: &Setting,
        item: Option<Item>,
        message: String,
    ) -> Label {
        self.context.setting_label(
            self.node,
            key,
            setting,
            item.map(|item| item.range()),
            message,
        )
    }

    /// A label where the file declares the node (see [`Node::declared_at`]) for a key it does
    /// not set.
    pub fn unset(&self, key: &str, message: &str) -> Label {
        Label {
            file: self.node.file,
            span: self.node.declared_at.clone(),
            message: format!("{key} is not set: {message}"),
        }
    }
}
