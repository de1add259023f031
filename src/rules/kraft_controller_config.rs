//! `kraft-controller-config`: what Kafka checks of a node's place in KRaft at start-up:
//! `process.roles`, the quorum (`controller.quorum.voters`, `controller.quorum.bootstrap.servers`),
//! the node id against the voters, and where `controller.listener.names` may point for each
//! role (and, in 3.9, in ZooKeeper mode and during a ZooKeeper migration).

use super::refusal::{
    ADVERTISED_CONTROLLERS_FROM, KRAFT_CHECKS_FROM, NodeCheck, QUORUM_CHECKS_FROM,
};
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::Cluster;
use crate::cluster::facts::{IntSetting, QuorumList, Read};
use crate::cluster::listeners::{ControllerProblem, NodeListeners, normalised};
use crate::cluster::protocol_version::ProtocolVersions;
use crate::cluster::quorum::{
    AddressProblem, BootstrapServer, NON_ROUTABLE_HOST, ProcessRoles, QuorumProblem, Voter,
};
use crate::cluster::setting::{Lookup, Setting, Split, split};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "kraft-controller-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "KRaft roles, quorum and controller listeners Kafka refuses at start-up",
    check: Check::Files(check),
};

const ROLES: &str = "process.roles";
/// See [`Checker::routable_voters`].
const ROUTABLE_VOTERS_FROM: KafkaVersion = KafkaVersion::new(3, 8);
const VOTERS: &str = "controller.quorum.voters";
const BOOTSTRAP: &str = "controller.quorum.bootstrap.servers";
const NAMES: &str = "controller.listener.names";

/// A placeholder (`${VAR}`, `%ID%`, `{{ .Values.x }}`) is unknown for its key alone: it turns
/// off the checks that read that key, and no other. Kafka checks the quorum and the node's role
/// against the voters whatever its listeners turn out to be (apache/kafka
/// core/src/main/scala/kafka/server/KafkaConfig.scala, tag 3.9.0, `validateValues`: with
/// `process.roles=broker`, `require(!voterIds.contains(nodeId), ...)` before and apart from the
/// listener checks; 4.x moved it to
/// server/src/main/java/org/apache/kafka/server/config/KafkaConfigValidator.java,
/// `validateKraftBrokerConfig`), so a broker-only node that is the only voter is refused
/// whatever a template fills into `listeners`.
///
/// Without `process.roles` no check applies: a placeholder there skips the node.
const ROLE_INPUTS: &[&str] = &[ROLES];

/// The node's id, which the voters are compared with.
const ID_INPUTS: &[&str] = &["node.id", "broker.id"];

/// What the listener model reads: the checks of controller listeners and advertised controller
/// endpoints need all of them.
const LISTENER_INPUTS: &[&str] = &[
    NAMES,
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "inter.broker.listener.name",
    "security.inter.broker.protocol",
];

/// What the ZooKeeper migration checks read besides the listeners.
const MIGRATION_INPUTS: &[&str] = &[
    "zookeeper.metadata.migration.enable",
    "inter.broker.protocol.version",
    "log.dirs",
    "log.dir",
];

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    // The KRaft preview of 2.8 checks none of this (only that a KRaft node has node.id, which
    // node-id-config covers).
    if version < QUORUM_CHECKS_FROM {
        return diagnostics;
    }
    for at in NodeCheck::judged(&RULE, cluster, context, ROLE_INPUTS) {
        let Some(roles) = at.roles() else {
            continue;
        };
        let unresolved = |keys: &[&str]| at.context.any_placeholder(at.node, keys);
        let mut checker = Checker {
            at,
            roles,
            diagnostics: &mut diagnostics,
        };
        checker.repeated_roles();
        // Each list is checked unless it is itself a placeholder; the checks across keys need
        // both lists and the id.
        let facts = context.facts.node(at.node);
        let voters = (!unresolved(&[VOTERS]))
            .then(|| checker.quorum_list(VOTERS, facts.and_then(|f| f.voters.as_ref())));
        let bootstrap = (!unresolved(&[BOOTSTRAP])).then(|| {
            checker.quorum_list(BOOTSTRAP, facts.and_then(|f| f.bootstrap_servers.as_ref()))
        });
        let (Some(Some(voters)), Some(Some(bootstrap))) = (voters, bootstrap) else {
            continue;
        };
        if unresolved(ID_INPUTS) {
            continue;
        }
        // Listeners a template fills in are unknown: the checks that read them are skipped,
        // the others run. Listeners ConfigDef refuses stop Kafka before any of these checks.
        let listeners = if unresolved(LISTENER_INPUTS) {
            None
        } else {
            match context.facts.listeners(at.node) {
                Some(listeners) => Some(listeners),
                None => continue,
            }
        };
        let quorum = Quorum {
            voters: &voters,
            bootstrap: &bootstrap,
        };
        checker.role_branch(&quorum, listeners);
    }
    diagnostics
}

/// The parsed quorum keys of a node (both parse: ConfigDef refuses them otherwise).
struct Quorum<'q, 'a> {
    voters: &'q (Setting<'a>, &'q [Voter<'a>]),
    bootstrap: &'q (Setting<'a>, &'q [BootstrapServer<'a>]),
}

struct Checker<'a, 'r> {
    at: NodeCheck<'a, 'r>,
    roles: &'r ProcessRoles<'a>,
    diagnostics: &'r mut Vec<Diagnostic>,
}

impl<'a> Checker<'a, '_> {
    fn push(&mut self, key: &str, why: String, labels: Vec<Label>, help: String) {
        self.diagnostics
            .push(self.at.refusal(key, why, labels, help));
    }

    fn repeated_roles(&mut self) {
        let setting = self.roles.setting;
        for item in self.roles.repeated.clone() {
            self.push(
                ROLES,
                format!(
                    "{ROLES} lists the role {} twice",
                    quoted(ROLES, item.text)
                ),
                vec![self.at.label(ROLES, &setting, Some(item), "given again".into())],
                "list each role once: `broker`, `controller` or `broker,controller` (Kafka 4.2 and later drop the repeat themselves)".to_owned(),
            );
        }
    }

    /// `controller.quorum.voters` or `controller.quorum.bootstrap.servers` as its ConfigDef
    /// validator parses it (in every mode): each entry that does not parse is reported.
    fn quorum_list<'q, T>(
        &mut self,
        key: &str,
        list: Option<&'q QuorumList<'a, T>>,
    ) -> Option<(Setting<'a>, &'q [T])> {
        let list = list?;
        match &list.entries {
            Ok(entries) => Some((list.setting, entries)),
            Err(problems) => {
                for problem in problems {
                    self.address_problem(key, &list.setting, *problem);
                }
                None
            }
        }
    }

    fn address_problem(&mut self, key: &str, setting: &Setting, problem: QuorumProblem) {
        let QuorumProblem { item, problem } = problem;
        let form = if key == VOTERS {
            "`{id}@{host}:{port}`"
        } else {
            "`{host}:{port}`"
        };
        let entry = quoted(key, item.text);
        let (why, label) = match problem {
            _ if item.text.is_empty() => (
                format!("{key} has an empty entry (a stray comma)"),
                "empty entry",
            ),
            AddressProblem::VoterShape => (
                format!(
                    "{key} entry {entry} is not {form}: it needs one `@` between the node id and the address"
                ),
                "not {id}@{host}:{port}",
            ),
            AddressProblem::VoterId => (
                format!(
                    "{key} entry {entry} does not start with a node id (an integer, nothing around it)"
                ),
                "not a node id before `@`",
            ),
            AddressProblem::HostPort if key == BOOTSTRAP && item.text.contains('@') => (
                format!("{key} entry {entry} is not {form}: bootstrap servers take no node id"),
                "not {host}:{port}",
            ),
            AddressProblem::HostPort => {
                (format!("{key} entry {entry} is not {form}"), "no host:port")
            }
            AddressProblem::PortRange => (
                format!("{key} entry {entry} has a port above 65535"),
                "port out of range",
            ),
        };
        let label = self.at.label(key, setting, Some(item), label.to_owned());
        self.push(
            key,
            why,
            vec![label],
            format!(
                "write each entry as {form}, separated by commas, e.g. {}",
                if key == VOTERS {
                    "`1@controller-1:9093,2@controller-2:9093,3@controller-3:9093`"
                } else {
                    "`controller-1:9093,controller-2:9093,controller-3:9093`"
                }
            ),
        );
    }

    fn node_id(&self) -> Option<(i32, Option<Setting<'a>>)> {
        let facts = self.at.context.facts.node(self.at.node)?;
        let id = |id: Read<IntSetting<'a>>| id.set().map(|id| (id.value, Some(id.setting)));
        let node_id = id(facts.node_id)?;
        // Before 3.1 a negative node.id gives way to broker.id (see KRAFT_CHECKS_FROM).
        if self.at.version < KRAFT_CHECKS_FROM && node_id.0 < 0 {
            return id(facts.broker_id);
        }
        Some(node_id)
    }

    /// The checks of the node's role; `listeners` is `None` when a template fills them in.
    fn role_branch(&mut self, quorum: &Quorum<'_, 'a>, listeners: Option<&NodeListeners<'a>>) {
        let Some((node_id, id_setting)) = self.node_id() else {
            return;
        };
        let voter_list = quorum.voters.1;
        if let Some(listeners) = listeners {
            self.advertised_controllers(node_id, voter_list, listeners, quorum);
        }
        if self.roles.is_empty() {
            // ZooKeeper mode has controller listeners only from 3.1 (KAFKA-13456).
            if self.roles.zookeeper_mode(self.at.version)
                && self.at.version >= KRAFT_CHECKS_FROM
                && let Some(listeners) = listeners
                && !self
                    .at
                    .context
                    .any_placeholder(self.at.node, MIGRATION_INPUTS)
            {
                self.zookeeper_mode(quorum, listeners);
            }
            // Kafka 4.0 and 4.1 accept empty roles and check no role.
            return;
        }
        self.quorum_named(quorum);
        self.routable_voters(node_id, quorum, listeners);
        if self.roles.broker_only() {
            self.broker_only(node_id, id_setting, quorum, listeners);
        } else {
            if self.roles.controller_only()
                && let Some(listeners) = listeners
            {
                self.controller_only(listeners, node_id, voter_list);
            }
            self.controller(node_id, id_setting, quorum, listeners);
        }
    }

    /// A KRaft server parses its voters again when it starts, with routable addresses only
    /// (`QuorumConfig.parseVoterConnections(voters)`, from 3.8: apache/kafka raft/src/main/java/
    /// org/apache/kafka/raft/QuorumConfig.java at 3.8.0 and in the 4.4.0 jar, called by
    /// `KafkaRaftServer`'s constructor): a voter at 0.0.0.0 stops it, on every node, after
    /// `KafkaConfig` accepted it. Up to 3.7 `RaftConfig` takes `0.0.0.0:0` as an unknown address
    /// and any other port as an address.
    fn routable_voters(
        &mut self,
        node_id: i32,
        quorum: &Quorum<'_, 'a>,
        listeners: Option<&NodeListeners<'a>>,
    ) {
        if self.at.version < ROUTABLE_VOTERS_FROM {
            return;
        }
        // This node's own voter is reported by `advertised_controllers` when its controller
        // listener has no host: `KafkaConfig` refuses it first, for that reason.
        let reported = listeners
            .filter(|_| self.at.version >= ADVERTISED_CONTROLLERS_FROM)
            .and_then(|listeners| {
                match listeners.advertised_controllers(Some(node_id), quorum.voters.1) {
                    Some(Err(ControllerProblem::UnroutableVoter(item))) => Some(item.range()),
                    _ => None,
                }
            });
        for voter in quorum.voters.1 {
            if voter.host != NON_ROUTABLE_HOST || reported == Some(voter.item.range()) {
                continue;
            }
            let label = self.at.label(
                VOTERS,
                &quorum.voters.0,
                Some(voter.item),
                "0.0.0.0 is not an address to reach".into(),
            );
            self.push(
                VOTERS,
                format!(
                    "{VOTERS} has {}: no node can connect to 0.0.0.0",
                    quoted(VOTERS, voter.item.text),
                ),
                vec![label],
                "give every voter the host name or IP address the other nodes reach it on, the same on every node".to_owned(),
            );
        }
    }

    /// K1: a KRaft node (or a migrating ZooKeeper broker) must find the quorum.
    fn quorum_named(&mut self, quorum: &Quorum<'_, 'a>) {
        if !quorum.voters.1.is_empty() || !quorum.bootstrap.1.is_empty() {
            return;
        }
        let mut labels = Vec::new();
        for (key, setting) in [(VOTERS, &quorum.voters.0), (BOOTSTRAP, &quorum.bootstrap.0)] {
            if setting.is_set() {
                labels.push(self.at.label(key, setting, None, "empty".into()));
            }
        }
        if labels.is_empty() {
            labels.push(self.at.unset(
                &format!("{VOTERS} or {BOOTSTRAP}"),
                "the node has no way to find the controllers",
            ));
        }
        let what = if self.roles.is_empty() {
            "it migrates from ZooKeeper (zookeeper.metadata.migration.enable=true)"
        } else {
            "it is a KRaft node"
        };
        self.push(
            BOOTSTRAP,
            format!(
                "{what}, and neither {BOOTSTRAP} nor {VOTERS} names a controller: it cannot find the KRaft quorum"
            ),
            labels,
            format!(
                "set {BOOTSTRAP}=controller-1:9093,controller-2:9093,controller-3:9093 (or the static {VOTERS}=1@controller-1:9093,...) on every node"
            ),
        );
    }

    fn names_setting(listeners: &NodeListeners<'a>) -> Option<Setting<'a>> {
        listeners.controller_names.setting
    }

    fn broker_only(
        &mut self,
        node_id: i32,
        id_setting: Option<Setting<'a>>,
        quorum: &Quorum<'_, 'a>,
        listeners: Option<&NodeListeners<'a>>,
    ) {
        // K3: a broker must not be a voter.
        if let Some(voter) = quorum.voters.1.iter().rev().find(|v| v.id == node_id) {
            let mut labels = vec![self.at.label(
                VOTERS,
                &quorum.voters.0,
                Some(voter.item),
                format!("voter {node_id}"),
            )];
            if let Some(id) = id_setting {
                labels.insert(
                    0,
                    self.at.label("node.id", &id, None, "a voter's id".into()),
                );
            }
            self.push(
                "node.id",
                format!(
                    "node id {node_id} is a voter in {VOTERS}, but {ROLES}=broker: only controllers vote"
                ),
                labels,
                format!(
                    "give the broker a node.id that no voter has, or add `controller` to {ROLES} if it is meant to vote"
                ),
            );
        }
        // K4 to K6 came with the per-role listener checks of 3.1 (KAFKA-13456).
        if self.at.version < KRAFT_CHECKS_FROM {
            return;
        }
        if let Some(listeners) = listeners
            && !self.broker_listeners(listeners)
        {
            return;
        }
        self.broker_joins_quorum();
    }

    /// K4 to K6: a broker's controller listener names; false when it has none (then Kafka
    /// stops there).
    fn broker_listeners(&mut self, listeners: &NodeListeners<'a>) -> bool {
        let names = &listeners.controller_names;
        // K4: a broker must know the controllers' listener.
        if names.is_empty() {
            let label = match Self::names_setting(listeners) {
                Some(setting) => self.at.label(NAMES, &setting, None, "empty".into()),
                None => self.at.unset(
                    NAMES,
                    "the broker cannot tell which listener the controllers use",
                ),
            };
            self.push(
                NAMES,
                format!(
                    "{NAMES} is empty: a KRaft broker needs the name of the controllers' listener"
                ),
                vec![label],
                format!("set {NAMES}=CONTROLLER (the name of the controllers' listener)"),
            );
            return false;
        }
        // K5: no controller listener on a broker-only node.
        if let Some(own) = listeners.controller_listeners() {
            for endpoint in own {
                let listeners_setting = listeners.listeners.setting;
                self.push(
                    "listeners",
                    format!(
                        "listeners has the controller listener {}, but {ROLES}=broker: only controllers listen on it",
                        quoted("listeners", endpoint.item.text)
                    ),
                    vec![self.at.label(
                        "listeners",
                        &listeners_setting,
                        Some(endpoint.item),
                        "a controller listener".into(),
                    )],
                    format!(
                        "remove {} from listeners on broker-only nodes (keep {} in {NAMES}: it says how to reach the controllers)",
                        quoted("listeners", endpoint.item.text),
                        endpoint.name
                    ),
                );
            }
        }
        // K6: each controller name must have a protocol in the effective map.
        if let Ok(map) = &listeners.map {
            let setting = Self::names_setting(listeners);
            for item in names.items.clone() {
                let missing = match normalised(item.text) {
                    Some(name) => map.get(&name).is_none().then_some(name),
                    None => Some(String::new()),
                };
                let Some(name) = missing else {
                    continue;
                };
                let Some(setting) = setting else {
                    continue;
                };
                let map_setting = listeners.map_setting;
                let why = if name.is_empty() {
                    format!("{NAMES} has an empty name (a stray comma)")
                } else {
                    // Why Kafka does not fall back to PLAINTEXT (the map is set, or a listener uses
                    // SSL or SASL) is the rule doc's.
                    let why = if map_setting.is_set() {
                        "listener.security.protocol.map does not map it"
                    } else {
                        "a listener uses SSL or SASL, and no map names it"
                    };
                    format!("the controller listener {name} has no security protocol: {why}")
                };
                let mut labels =
                    vec![
                        self.at
                            .label(NAMES, &setting, Some(item), "no security protocol".into()),
                    ];
                if map_setting.is_set() {
                    labels.push(self.at.label(
                        "listener.security.protocol.map",
                        &map_setting,
                        None,
                        format!("no {name} here"),
                    ));
                }
                self.push(
                    NAMES,
                    why,
                    labels,
                    if name.is_empty() {
                        format!("remove the stray comma from {NAMES}")
                    } else {
                        format!(
                            "add `{name}:PLAINTEXT` (or the protocol the controllers use) to listener.security.protocol.map"
                        )
                    },
                );
            }
        }
        true
    }

    /// K7 (4.2): only controllers join the quorum.
    fn broker_joins_quorum(&mut self) {
        if self.at.version >= KafkaVersion::new(4, 2)
            && let Lookup::Set(setting) = self.at.context.lookup(
                self.at.node,
                "controller.quorum.auto.join.enable",
                self.at.version,
            )
            && setting.trimmed().eq_ignore_ascii_case("true")
        {
            self.push(
                "controller.quorum.auto.join.enable",
                format!(
                    "controller.quorum.auto.join.enable=true on a node with {ROLES}=broker: only controllers join the quorum"
                ),
                vec![self.at.label(
                    "controller.quorum.auto.join.enable",
                    &setting,
                    None,
                    "controllers only".into(),
                )],
                "remove controller.quorum.auto.join.enable from broker-only nodes".into(),
            );
        }
    }

    fn controller_only(
        &mut self,
        listeners: &NodeListeners<'a>,
        node_id: i32,
        voters: &[Voter<'a>],
    ) {
        // The controller-only listener checks came with 3.1 (KAFKA-13456). Until 3.3 they
        // judge advertised.listeners when it is set, which kafkalint leaves alone there.
        if self.at.version < KRAFT_CHECKS_FROM
            || (self.at.version < KafkaVersion::new(3, 3) && listeners.advertised.is_some())
        {
            return;
        }
        let Some(endpoints) = listeners.listeners.endpoints() else {
            return;
        };
        let Some(Ok(advertised)) = listeners.advertised_controllers(Some(node_id), voters) else {
            return;
        };
        // K8: every listener of a controller-only node is a controller listener (Kafka
        // compares the counts).
        if advertised.len() != endpoints.len() {
            let listeners_setting = listeners.listeners.setting;
            let strangers: Vec<_> = endpoints
                .iter()
                .filter(|e| !listeners.controller_names.contains(&e.name))
                .collect();
            // Kafka compares the counts from 3.9 (KIP-853); 3.8 and older only look for
            // listeners that are not controller listeners, so a name given twice passes there.
            if strangers.is_empty() && self.at.version >= ADVERTISED_CONTROLLERS_FROM {
                let setting = Self::names_setting(listeners);
                let mut labels = vec![self.at.label(
                    "listeners",
                    &listeners_setting,
                    None,
                    format!("{} listeners", endpoints.len()),
                )];
                if let Some(setting) = setting {
                    labels.push(self.at.label(
                        NAMES,
                        &setting,
                        None,
                        format!("{} controller endpoints", advertised.len()),
                    ));
                }
                self.push(
                    "listeners",
                    format!(
                        "{NAMES} gives {} controller endpoints but listeners has {}: with {ROLES}=controller they must match one to one",
                        advertised.len(),
                        endpoints.len()
                    ),
                    labels,
                    format!("name each controller listener once in {NAMES}, and give each a listener in listeners"),
                );
            }
            for endpoint in strangers {
                self.push(
                    "listeners",
                    format!(
                        "listeners has {}, not a controller listener ({} is not in {NAMES}), but {ROLES}=controller",
                        quoted("listeners", endpoint.item.text),
                        endpoint.name
                    ),
                    vec![self.at.label(
                        "listeners",
                        &listeners_setting,
                        Some(endpoint.item),
                        "not a controller listener".into(),
                    )],
                    format!(
                        "remove {} from listeners (brokers serve clients), or add `broker` to {ROLES}",
                        quoted("listeners", endpoint.item.text)
                    ),
                );
            }
        }
        // K9 (4.0): the inter-broker listener must not be a controller listener.
        if self.at.version >= KafkaVersion::new(4, 0)
            && let Lookup::Set(_) =
                self.at
                    .context
                    .lookup(self.at.node, "inter.broker.listener.name", self.at.version)
            && let Ok(map) = &listeners.map
            && let Some(Ok(inter_broker)) =
                self.at
                    .context
                    .inter_broker(self.at.node, self.at.version, map)
            && listeners.controller_names.contains(&inter_broker.name)
        {
            let setting = inter_broker.setting;
            self.push(
                "inter.broker.listener.name",
                format!(
                    "inter.broker.listener.name names the controller listener {} on a node with {ROLES}=controller",
                    inter_broker.name
                ),
                vec![self.at.label(
                    "inter.broker.listener.name",
                    &setting,
                    None,
                    "a controller listener".into(),
                )],
                "remove inter.broker.listener.name from controller-only nodes".into(),
            );
        }
    }

    /// K10 to K12: a controller (controller-only or combined) is a voter and listens on its
    /// controller listeners.
    fn controller(
        &mut self,
        node_id: i32,
        id_setting: Option<Setting<'a>>,
        quorum: &Quorum<'_, 'a>,
        listeners: Option<&NodeListeners<'a>>,
    ) {
        let voters = &quorum.voters.1;
        if !voters.is_empty() && !voters.iter().any(|v| v.id == node_id) {
            let mut ids: Vec<i32> = voters.iter().map(|v| v.id).collect();
            ids.sort_unstable();
            ids.dedup();
            let ids = ids
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let mut labels = Vec::new();
            if let Some(id) = id_setting {
                labels.push(self.at.label("node.id", &id, None, "not a voter".into()));
            }
            labels.push(
                self.at
                    .label(VOTERS, &quorum.voters.0, None, format!("voters {ids}")),
            );
            self.push(
                "node.id",
                format!(
                    "node id {node_id} is not a voter in {VOTERS} ({ids}): a controller must be one"
                ),
                labels,
                format!(
                    "set node.id to this controller's id in {VOTERS}, or add `{node_id}@host:port` to {VOTERS} on every node"
                ),
            );
        }
        let Some(listeners) = listeners else {
            return;
        };
        let Some(endpoints) = listeners.listeners.endpoints() else {
            return;
        };
        let Some(Ok(advertised)) = listeners.advertised_controllers(Some(node_id), voters) else {
            return;
        };
        let names = &listeners.controller_names;
        let listeners_setting = listeners.listeners.setting;
        if advertised.is_empty() {
            let mut labels = vec![self.at.label(
                "listeners",
                &listeners_setting,
                None,
                "no controller listener here".into(),
            )];
            match Self::names_setting(listeners) {
                Some(setting) => labels.push(self.at.label(
                    NAMES,
                    &setting,
                    None,
                    "the controller listeners".into(),
                )),
                None => labels.push(self.at.unset(NAMES, "no controller listener is named")),
            }
            let first = names.items.first().map_or("CONTROLLER", |item| item.text);
            self.push(
                NAMES,
                format!(
                    "no listener of {NAMES} is in listeners: the controller would listen nowhere"
                ),
                labels,
                format!(
                    "add the controller listener to listeners, e.g. `{}://:9093`, and name it in {NAMES}",
                    first.to_uppercase()
                ),
            );
        }
        // Every name must be a listener from 3.1 (KAFKA-13456); 3.0 needs one of them only.
        if self.at.version < KRAFT_CHECKS_FROM {
            return;
        }
        let Some(setting) = Self::names_setting(listeners) else {
            return;
        };
        for item in names.items.clone() {
            if endpoints.iter().any(|e| e.name == item.text) {
                continue;
            }
            let case = endpoints
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(item.text))
                .map(|e| format!(" (names compare exactly: listeners calls it {})", e.name))
                .unwrap_or_default();
            self.push(
                NAMES,
                format!(
                    "{NAMES} names {}, which is not a listener in listeners{case}",
                    quoted(NAMES, item.text)
                ),
                vec![self.at.label(NAMES, &setting, Some(item), "not in listeners".into())],
                format!(
                    "add a {} listener to listeners, or remove the name from {NAMES}; write it in upper case",
                    item.text.trim().to_uppercase()
                ),
            );
        }
    }

    /// Problems Kafka meets working out the advertised controller endpoints, which it does on
    /// every node.
    fn advertised_controllers(
        &mut self,
        node_id: i32,
        voters: &[Voter<'a>],
        listeners: &NodeListeners<'a>,
        quorum: &Quorum<'_, 'a>,
    ) {
        // These come from working out the advertised controller endpoints, new in 3.9.
        if self.at.version < ADVERTISED_CONTROLLERS_FROM {
            return;
        }
        let Some(Err(problem)) = listeners.advertised_controllers(Some(node_id), voters) else {
            return;
        };
        match problem {
            ControllerProblem::BlankName(item) => {
                let Some(setting) = Self::names_setting(listeners) else {
                    return;
                };
                self.push(
                    NAMES,
                    format!("{NAMES} has an empty name (a stray comma or a blank between commas)"),
                    vec![
                        self.at
                            .label(NAMES, &setting, Some(item), "empty name".into()),
                    ],
                    format!("remove the stray comma from {NAMES}"),
                );
            }
            ControllerProblem::UnroutableVoter(item) => {
                let listener = listeners
                    .controller_listeners()
                    .and_then(|own| own.first().map(|e| e.item));
                let mut labels = vec![self.at.label(
                    VOTERS,
                    &quorum.voters.0,
                    Some(item),
                    "0.0.0.0 is not an address to reach".into(),
                )];
                if let Some(listener) = listener {
                    let listeners_setting = listeners.listeners.setting;
                    labels.push(self.at.label(
                        "listeners",
                        &listeners_setting,
                        Some(listener),
                        "no host: Kafka takes the voter's".into(),
                    ));
                }
                self.push(
                    VOTERS,
                    format!(
                        "the controller listener has no host, so Kafka {1} takes its address from the voters: 0.0.0.0 ({0}), which nobody can reach",
                        quoted(VOTERS, item.text),
                        self.at.version
                    ),
                    labels,
                    "give every voter the host name or IP others reach it on; or set the controller listener's address in advertised.listeners".to_owned(),
                );
            }
        }
    }

    /// ZooKeeper mode (3.1 to 3.9): controller listeners only during a migration (from 3.4),
    /// which needs the quorum, a controller listener and a recent inter-broker protocol.
    fn zookeeper_mode(&mut self, quorum: &Quorum<'_, 'a>, listeners: &NodeListeners<'a>) {
        let migration = match self.at.context.lookup(
            self.at.node,
            "zookeeper.metadata.migration.enable",
            self.at.version,
        ) {
            Lookup::Set(setting) if setting.trimmed().eq_ignore_ascii_case("true") => Some(setting),
            Lookup::Refused => return,
            _ => None,
        };
        let names = &listeners.controller_names;
        let Some(migration) = migration else {
            if let Some(setting) = Self::names_setting(listeners)
                && !names.is_empty()
            {
                self.push(
                    NAMES,
                    format!(
                        "{NAMES} is set on a ZooKeeper-mode broker (no {ROLES}) that is not migrating: only KRaft allows it"
                    ),
                    vec![self.at.label(NAMES, &setting, None, "KRaft only".into())],
                    format!(
                        "remove {NAMES} from ZooKeeper-mode brokers (or set {ROLES} for KRaft)"
                    ),
                );
            }
            return;
        };
        self.quorum_named(quorum);
        if names.is_empty() {
            let label = match Self::names_setting(listeners) {
                Some(setting) => self.at.label(NAMES, &setting, None, "empty".into()),
                None => self
                    .at
                    .unset(NAMES, "the broker cannot reach the controllers"),
            };
            self.push(
                NAMES,
                format!(
                    "zookeeper.metadata.migration.enable=true with {NAMES} empty: the broker cannot reach the controllers"
                ),
                vec![label],
                format!("set {NAMES}=CONTROLLER (the controllers' listener) and map it in listener.security.protocol.map"),
            );
        }
        let Some(versions) = ProtocolVersions::of(self.at.version) else {
            return;
        };
        let Lookup::Set(ibp) = self.at.context.lookup(
            self.at.node,
            "inter.broker.protocol.version",
            self.at.version,
        ) else {
            return;
        };
        let Some(protocol) = versions.parse(ibp.trimmed()) else {
            return;
        };
        let needed = |name: &str| versions.known(name).is_some_and(|v| protocol < v);
        let migration_label = self.at.label(
            "zookeeper.metadata.migration.enable",
            &migration,
            None,
            "migration".into(),
        );
        if needed("3.4-IV0") {
            self.push(
                "inter.broker.protocol.version",
                format!(
                    "zookeeper.metadata.migration.enable=true needs inter.broker.protocol.version 3.4+, not {}",
                    quoted("inter.broker.protocol.version", ibp.text)
                ),
                vec![
                    self.at.label("inter.broker.protocol.version", &ibp, None, "before 3.4".into()),
                    migration_label,
                ],
                "raise inter.broker.protocol.version to 3.9 on every broker (a rolling restart) before the migration".into(),
            );
        } else if self.at.version < KafkaVersion::new(3, 7) {
            // 3.5 and 3.6 refuse any migration with several log directories; 3.4 checks none
            // (JBOD migration came with 3.7-IV2, KIP-858).
            if self.at.version >= KafkaVersion::new(3, 5) && self.log_dir_count() > 1 {
                self.push(
                    "zookeeper.metadata.migration.enable",
                    format!(
                        "zookeeper.metadata.migration.enable=true on a broker with several log directories (JBOD): Kafka {} cannot migrate those",
                        self.at.version
                    ),
                    vec![migration_label],
                    "use one log directory during the migration, or migrate with Kafka 3.7 or later (inter.broker.protocol.version 3.7-IV2)".into(),
                );
            }
        } else if needed("3.7-IV2") && self.log_dir_count() > 1 {
            self.push(
                "inter.broker.protocol.version",
                format!(
                    "migrating a broker with several log directories (JBOD) needs inter.broker.protocol.version 3.7-IV2+, not {}",
                    quoted("inter.broker.protocol.version", ibp.text)
                ),
                vec![
                    self.at.label("inter.broker.protocol.version", &ibp, None, "before 3.7-IV2".into()),
                    migration_label,
                ],
                "raise inter.broker.protocol.version to 3.9 on every broker before the migration".into(),
            );
        }
    }

    /// `logDirs` of Kafka 3.9: `log.dirs` when the file has it (even empty), else `log.dir`.
    fn log_dir_count(&self) -> usize {
        let dirs = match self
            .at
            .context
            .lookup(self.at.node, "log.dirs", self.at.version)
        {
            Lookup::Set(setting) => setting,
            _ => match self
                .at
                .context
                .lookup(self.at.node, "log.dir", self.at.version)
            {
                Lookup::Set(setting) => setting,
                _ => return 0,
            },
        };
        split(dirs.text, Split::CsvList).len()
    }
}
