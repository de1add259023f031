//! `node-id-config`: a node id Kafka refuses at start-up: `node.id` and `broker.id` that
//! differ, a `node.id` taken from a negative `broker.id`, and in 3.9 the id rules of each mode
//! (with `zookeeper.connect` for a ZooKeeper-mode broker).

use super::refusal::{KRAFT_CHECKS_FROM, NodeCheck};
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, KafkaVersion, value};
use crate::cluster::Cluster;
use crate::cluster::facts::IntSetting;
use crate::cluster::setting::Lookup;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "node-id-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "node.id and broker.id Kafka refuses at start-up (they differ, negative, missing in KRaft, no zookeeper.connect in ZooKeeper mode)",
    check: Check::Files(check),
};

const INPUTS: &[&str] = &[
    "node.id",
    "broker.id",
    "process.roles",
    "zookeeper.connect",
    "broker.id.generation.enable",
    "reserved.broker.max.id",
    "zookeeper.metadata.migration.enable",
];

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for at in NodeCheck::judged(&RULE, cluster, context, INPUTS) {
        let mut checker = Checker {
            at,
            diagnostics: &mut diagnostics,
        };
        checker.synonym_range();
        let (Some(node_id), Some(broker_id)) = (checker.id("node.id"), checker.id("broker.id"))
        else {
            continue;
        };
        if version >= KRAFT_CHECKS_FROM {
            checker.ids_agree(&node_id, &broker_id);
        } else {
            // Before 3.1 the two are not copied onto each other and may differ: node.id is
            // the id when it is 0 or more, else broker.id is.
            let id = if node_id.value >= 0 {
                node_id
            } else {
                broker_id
            };
            checker.mode_rules(&id, &id);
            continue;
        }
        if version <= KafkaVersion::LAST_WITH_ZOOKEEPER {
            checker.mode_rules(&node_id, &broker_id);
        }
    }
    diagnostics
}

struct Checker<'a, 'r> {
    at: NodeCheck<'a, 'r>,
    diagnostics: &'r mut Vec<Diagnostic>,
}

impl<'a> Checker<'a, '_> {
    fn push(&mut self, key: &str, why: String, labels: Vec<Label>, help: String) {
        self.diagnostics
            .push(self.at.refusal(key, why, labels, help));
    }

    fn id(&self, key: &str) -> Option<IntSetting<'a>> {
        let facts = self.at.context.facts.node(self.at.node)?;
        let id = match key {
            "node.id" => facts.node_id,
            _ => facts.broker_id,
        };
        id.set()
    }

    fn in_file(&self, key: &str) -> bool {
        self.at.context.in_file(self.at.node, key)
    }

    /// Kafka copies a lone `broker.id` into `node.id` before it parses either; from 4.0
    /// `node.id` must be 0 or more, and the copy is checked as `node.id`.
    fn synonym_range(&mut self) {
        if self.in_file("node.id") || !self.in_file("broker.id") {
            return;
        }
        let Lookup::Set(broker_id) =
            self.at
                .context
                .lookup(self.at.node, "broker.id", self.at.version)
        else {
            return;
        };
        let Some(spec) = catalog::spec("node.id", self.at.version) else {
            return;
        };
        if value::check("node.id", spec, broker_id.text).is_ok() {
            return;
        }
        self.push(
            "broker.id",
            format!(
                "node.id is not set, so broker.id {} is the node id, and it must be 0 or more",
                quoted("broker.id", broker_id.text)
            ),
            vec![self.at.label("broker.id", &broker_id, None, "taken as node.id".into())],
            "set node.id to this node's id (0 or more) and remove broker.id, which node.id replaces"
                .into(),
        );
    }

    fn ids_agree(&mut self, node_id: &IntSetting<'a>, broker_id: &IntSetting<'a>) {
        if node_id.value == broker_id.value {
            return;
        }
        self.push(
            "broker.id",
            format!(
                "node.id {} and broker.id {} differ: a node has one id",
                node_id.value, broker_id.value
            ),
            vec![
                self.at.label(
                    "broker.id",
                    &broker_id.setting,
                    None,
                    format!("broker.id {}", broker_id.value),
                ),
                self.at.label(
                    "node.id",
                    &node_id.setting,
                    None,
                    format!("node.id {}", node_id.value),
                ),
            ],
            format!(
                "remove broker.id (node.id replaces it), or set both to {}",
                node_id.value
            ),
        );
    }

    /// Kafka 3.9: a node without roles is a ZooKeeper-mode broker, which needs
    /// `zookeeper.connect` and a broker id Kafka can use (or generate); a KRaft node needs
    /// `node.id`.
    fn mode_rules(&mut self, node_id: &IntSetting<'a>, broker_id: &IntSetting<'a>) {
        let Some(roles) = self.at.roles() else {
            return;
        };
        let Some(migration) = self.flag("zookeeper.metadata.migration.enable") else {
            return;
        };
        let connect = self
            .at
            .context
            .lookup(self.at.node, "zookeeper.connect", self.at.version);
        if !roles.is_empty() {
            if node_id.value < 0 {
                let label = match node_id.setting.line {
                    Some(_) => {
                        self.at
                            .label("node.id", &node_id.setting, None, "not a node id".into())
                    }
                    None => Label {
                        file: self.at.node.file,
                        span: self.at.node.declared_at.clone(),
                        message: "node.id is not set".into(),
                    },
                };
                self.push(
                    "node.id",
                    "process.roles makes this a KRaft node, which needs node.id set to 0 or more"
                        .into(),
                    vec![label],
                    "set node.id to this node's id (the same on every restart; voters use it in controller.quorum.voters)".into(),
                );
            }
            if migration && matches!(connect, Lookup::Null) {
                self.push(
                    "zookeeper.connect",
                    "zookeeper.metadata.migration.enable=true on a KRaft controller needs zookeeper.connect".into(),
                    vec![Label {
                        file: self.at.node.file,
                        span: self.at.node.declared_at.clone(),
                        message: "zookeeper.connect is not set".into(),
                    }],
                    "set zookeeper.connect to the ensemble of the cluster being migrated".into(),
                );
            }
            return;
        }
        if matches!(connect, Lookup::Null) {
            self.push(
                "zookeeper.connect",
                "no process.roles makes this a ZooKeeper-mode broker, and zookeeper.connect is not set".into(),
                vec![Label {
                    file: self.at.node.file,
                    span: self.at.node.declared_at.clone(),
                    message: "neither process.roles nor zookeeper.connect is set".into(),
                }],
                "set zookeeper.connect=zk-1:2181,zk-2:2181,zk-3:2181 for a ZooKeeper-mode broker, or process.roles (with node.id and the quorum) for KRaft".into(),
            );
        }
        let Some(generation) = self.flag("broker.id.generation.enable") else {
            return;
        };
        let id = broker_id.value;
        let label = |this: &Self, message: &str| match broker_id.setting.line {
            Some(_) => this
                .at
                .label("broker.id", &broker_id.setting, None, message.into()),
            None => Label {
                file: this.at.node.file,
                span: this.at.node.declared_at.clone(),
                message: format!("broker.id is not set: Kafka's default -1 applies ({message})"),
            },
        };
        // Refused from 3.9; 3.8 and older let a migrating broker generate its id.
        if migration && id < 0 && self.at.version >= KafkaVersion::new(3, 9) {
            self.push(
                "broker.id",
                "zookeeper.metadata.migration.enable=true needs a fixed broker.id (0 or more): generated ids cannot migrate".into(),
                vec![label(self, "no fixed id")],
                "set broker.id to the id this broker already has (see meta.properties in its log directory)".into(),
            );
            return;
        }
        if !generation && id < 0 {
            self.push(
                "broker.id",
                "broker.id.generation.enable=false, so the broker needs broker.id 0 or more".into(),
                vec![label(self, "no id, and generation is off")],
                "set broker.id to this broker's id, or remove broker.id.generation.enable".into(),
            );
            return;
        }
        if !generation {
            return;
        }
        let Some((reserved_max, reserved)) =
            self.at
                .context
                .int_setting(self.at.node, "reserved.broker.max.id", self.at.version)
        else {
            return;
        };
        if id < -1 || id > reserved_max {
            let mut labels = vec![label(self, "outside -1 to reserved.broker.max.id")];
            if reserved.is_set() {
                labels.push(self.at.label(
                    "reserved.broker.max.id",
                    &reserved,
                    None,
                    "the highest fixed id".into(),
                ));
            }
            let why = if id < -1 {
                format!("broker.id {id} is negative (only -1, \"generate one\", is allowed)")
            } else {
                format!(
                    "broker.id {id} is above reserved.broker.max.id {reserved_max}: ids above it are for generated ids"
                )
            };
            self.push(
                "broker.id",
                why,
                labels,
                format!(
                    "use a broker.id from 0 to {reserved_max}, or raise reserved.broker.max.id above {id} on every broker"
                ),
            );
        }
    }

    /// A boolean key's value (`None` when ConfigDef refuses it).
    fn flag(&self, key: &str) -> Option<bool> {
        match self.at.context.lookup(self.at.node, key, self.at.version) {
            Lookup::Set(setting) => {
                Some(value::java_trim(setting.text).eq_ignore_ascii_case("true"))
            }
            Lookup::Null => Some(false),
            Lookup::Refused => None,
        }
    }
}
