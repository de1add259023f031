//! `listener-config`: listeners Kafka cannot read or refuses at start-up: the security protocol
//! map, `listeners` and `advertised.listeners` entries, names and ports, what a broker
//! advertises, `early.start.listeners` and (3.9) `control.plane.listener.name`.

use super::refusal::{ADVERTISED_CONTROLLERS_FROM, KRAFT_CHECKS_FROM, NodeCheck};
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::Cluster;
use crate::cluster::facts::{QuorumList, Read};
use crate::cluster::listeners::{
    EntryProblem, ListenerList, ListenerProblem, MapProblem, NodeListeners, PortClash, normalised,
};
use crate::cluster::quorum::{NON_ROUTABLE_HOST, ProcessRoles};
use crate::cluster::setting::{Item, Lookup, Setting, Split, config_list_split, split};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "listener-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "listeners Kafka cannot parse or refuses (protocol map, names, ports, advertised addresses): the broker refuses to start",
    check: Check::Files(check),
};

const MAP: &str = "listener.security.protocol.map";
const CONTROLLER_NAMES: &str = "controller.listener.names";

/// The keys the checks across listener keys read; a placeholder in one of them skips those
/// checks on the node. The map and the entries of each list are judged apart: a placeholder
/// in one entry leaves the others known (see [`ListenerList::unknown`]).
const INPUTS: &[&str] = &[
    "process.roles",
    "listeners",
    "advertised.listeners",
    MAP,
    CONTROLLER_NAMES,
    "early.start.listeners",
    "control.plane.listener.name",
    "inter.broker.listener.name",
    "security.inter.broker.protocol",
    "zookeeper.metadata.migration.enable",
];

/// What the advertised controller endpoints read besides: from 4.2 a controller listener
/// without a host takes the node's address from the voters.
const CONTROLLER_INPUTS: &[&str] = &["node.id", "broker.id", "controller.quorum.voters"];

/// Without `process.roles` Kafka's mode, and so which checks apply, is unknown.
const ROLE_INPUTS: &[&str] = &["process.roles"];

/// What the effective security protocol map reads: the map alone when the file sets it; else
/// the controller names that Kafka adds PLAINTEXT mappings for. (The listener names it reads
/// too are the model's: an entry whose name a template fills in leaves the map unknown.)
pub fn map_inputs(context: &Context, node: &crate::cluster::Node) -> &'static [&'static str] {
    if context.in_file(node, MAP) {
        &[MAP]
    } else {
        &[MAP, CONTROLLER_NAMES]
    }
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for at in NodeCheck::judged(&RULE, cluster, context, ROLE_INPUTS) {
        let Some(roles) = at.roles() else {
            continue;
        };
        let Some(listeners) = context.facts.listeners(at.node) else {
            continue;
        };
        let unresolved = |keys: &[&str]| context.any_placeholder(at.node, keys);
        let mut checker = Checker {
            at,
            roles,
            model: listeners,
            diagnostics: &mut diagnostics,
        };
        if unresolved(map_inputs(context, at.node)) {
            continue;
        }
        checker.protocol_map();
        checker.list("listeners", &listeners.listeners);
        if let Some(advertised) = &listeners.advertised {
            checker.list("advertised.listeners", advertised);
        }
        if unresolved(INPUTS) {
            continue;
        }
        checker.early_start();
        checker.advertised();
        checker.control_plane();
    }
    diagnostics
}

struct Checker<'a, 'r> {
    at: NodeCheck<'a, 'r>,
    roles: &'r ProcessRoles<'a>,
    model: &'r NodeListeners<'a>,
    diagnostics: &'r mut Vec<Diagnostic>,
}

impl<'a> Checker<'a, '_> {
    fn push(&mut self, key: &str, why: String, labels: Vec<Label>, help: String) {
        self.diagnostics
            .push(self.at.refusal(key, why, labels, help));
    }

    /// The label on a controller name, wherever the name came from.
    fn controller_name_label(&self, item: Item, message: String) -> Option<Label> {
        let setting = self.model.controller_names.setting?;
        Some(
            self.at
                .label(CONTROLLER_NAMES, &setting, Some(item), message),
        )
    }

    fn protocol_map(&mut self) {
        let Err(problems) = &self.model.map else {
            return;
        };
        let setting = self.model.map_setting;
        for problem in problems.clone() {
            let item_text = |item: Item| quoted(MAP, item.text);
            match problem {
                MapProblem::NoColon(item) if item.text.is_empty() => self.push(
                    MAP,
                    format!("{MAP} has an empty item (a stray comma), which Kafka cannot read as LISTENER:PROTOCOL"),
                    vec![self.at.label(MAP, &setting, Some(item), "an empty item".into())],
                    "remove the stray comma".into(),
                ),
                MapProblem::NoColon(item) => self.push(
                    MAP,
                    format!(
                        "{MAP} item {} has no colon: each item maps a listener name to its security protocol",
                        item_text(item)
                    ),
                    vec![self.at.label(MAP, &setting, Some(item), "not LISTENER:PROTOCOL".into())],
                    format!(
                        "write the item as `{}:PLAINTEXT` (the listener name, a colon, its protocol: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL)",
                        item.text
                    ),
                ),
                MapProblem::BlankName(item) => self.push(
                    MAP,
                    format!(
                        "{MAP} item {} names no listener before the colon",
                        item_text(item)
                    ),
                    vec![self.at.label(MAP, &setting, Some(item), "no listener name".into())],
                    "put the listener name before the colon, or remove the item".into(),
                ),
                MapProblem::UnknownProtocol { item, protocol } => self.push(
                    MAP,
                    format!(
                        "{MAP} item {} maps a listener to {}, which is not a security protocol",
                        item_text(item),
                        quoted(MAP, protocol)
                    ),
                    vec![self.at.label(MAP, &setting, Some(item), "unknown security protocol".into())],
                    "map each listener to PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (in any case)"
                        .into(),
                ),
                MapProblem::SameName {
                    first,
                    second,
                    name,
                } => self.push(
                    MAP,
                    format!(
                        "{MAP} maps listener {name} twice ({} and {}): from Kafka 4.1 names that differ only in case clash",
                        item_text(first),
                        item_text(second)
                    ),
                    vec![
                        self.at.label(MAP, &setting, Some(second), format!("{name} again")),
                        self.at.label(MAP, &setting, Some(first), format!("{name} first mapped here")),
                    ],
                    format!("keep one mapping for {name}"),
                ),
                MapProblem::RepeatedControllerName { first, second } => {
                    let labels = [
                        self.controller_name_label(second, "given again".into()),
                        self.controller_name_label(first, "first here".into()),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    self.push(
                        CONTROLLER_NAMES,
                        format!(
                            "{CONTROLLER_NAMES} lists {} twice, which Kafka 4.1 refuses while {MAP} is unset",
                            quoted(CONTROLLER_NAMES, second.text)
                        ),
                        labels,
                        "list each controller listener once".into(),
                    );
                }
            }
        }
    }

    /// Problems of one listener list (`listeners` or `advertised.listeners`).
    fn list(&mut self, key: &str, list: &ListenerList<'a>) {
        let setting = list.setting;
        // A name `listeners` already lacks a protocol for is one fix, said once.
        let unmapped_listeners: Vec<String> = self
            .model
            .listeners
            .problems
            .iter()
            .filter_map(|problem| match problem {
                ListenerProblem::Entry {
                    problem: EntryProblem::NoProtocol(name),
                    ..
                } => Some(name.clone()),
                _ => None,
            })
            .collect();
        for problem in list.problems.clone() {
            if key != "listeners"
                && let ListenerProblem::Entry {
                    problem: EntryProblem::NoProtocol(name),
                    ..
                } = &problem
                && unmapped_listeners.contains(name)
            {
                continue;
            }
            match problem {
                ListenerProblem::Entry { item, problem } => self.entry(key, &setting, item, problem),
                ListenerProblem::SameName {
                    first,
                    second,
                    name,
                } => self.push(
                    key,
                    format!(
                        "{key} has two listeners named {name} ({} and {}): each listener needs a name of its own",
                        quoted(key, first.text),
                        quoted(key, second.text)
                    ),
                    vec![
                        self.at.label(key, &setting, Some(second), format!("{name} again")),
                        self.at.label(key, &setting, Some(first), format!("{name} first here")),
                    ],
                    format!("rename one of them (and map the new name in {MAP})"),
                ),
                ListenerProblem::SamePort { port, items, clash } => {
                    let quoted_items: Vec<String> =
                        items.iter().map(|item| quoted(key, item.text)).collect();
                    let entries = match quoted_items.split_last() {
                        Some((last, rest)) if !rest.is_empty() => {
                            format!("{key} entries {} and {last}", rest.join(", "))
                        }
                        _ => format!("{key} entries {}", quoted_items.join(", ")),
                    };
                    let why = match clash {
                        PortClash::Hosts => "each listener needs its own port".to_owned(),
                        PortClash::NotOneOfEachFamily => "two IP addresses may share a port only when one is IPv4 and the other IPv6, and no other listener uses it".to_owned(),
                        PortClash::IpBesideOthers => "a port may be shared only by exactly one IPv4 and one IPv6 address".to_owned(),
                    };
                    let mut labels: Vec<Label> = items
                        .iter()
                        .rev()
                        .map(|item| self.at.label(key, &setting, Some(*item), format!("port {port}")))
                        .collect();
                    labels.dedup_by(|a, b| a.span == b.span);
                    self.push(
                        key,
                        format!("{entries} share port {port}: {why}"),
                        labels,
                        "give each listener its own port".into(),
                    );
                }
            }
        }
    }

    fn entry(&mut self, key: &str, setting: &Setting, item: Item, problem: EntryProblem) {
        // A value split at its commas can hide a credential from each part
        // (`SASL_SSL://u:pa,ss@host:9093`): judge the whole value.
        let entry = if crate::secrets::is_hidden(key, setting.text) {
            crate::secrets::REDACTED.to_string()
        } else {
            quoted(key, item.text)
        };
        match problem {
            EntryProblem::Unparsable => self.push(
                key,
                format!("{key} entry {entry} is not NAME://host:port"),
                vec![self.at.label(key, setting, Some(item), "not NAME://host:port".into())],
                "write each listener as NAME://host:port, e.g. `PLAINTEXT://:9092` (an empty host binds every interface; an IPv6 address goes in brackets)".into(),
            ),
            EntryProblem::BlankName => self.push(
                key,
                format!("{key} entry {entry} has no listener name before `://`"),
                vec![self.at.label(key, setting, Some(item), "no listener name".into())],
                "put the listener name before `://`, e.g. `PLAINTEXT://:9092`".into(),
            ),
            EntryProblem::PortOverflow => self.push(
                key,
                format!("{key} entry {entry} has a port too large to be a number Kafka reads"),
                vec![self.at.label(key, setting, Some(item), "port out of range".into())],
                "use a port from 1 to 65535".into(),
            ),
            EntryProblem::NoProtocol(name) => {
                let map = self.model.map_setting;
                let mut labels = vec![self.at.label(
                    key,
                    setting,
                    Some(item),
                    format!("no security protocol for {name}"),
                )];
                let map_label = if map.is_set() {
                    self.at.label(MAP, &map, None, format!("{name} is not mapped here"))
                } else {
                    Label {
                        file: self.at.node.file,
                        span: self.at.node.declared_at.clone(),
                        message: format!(
                            "{MAP} is not set: Kafka's default maps only PLAINTEXT, SSL, SASL_PLAINTEXT and SASL_SSL"
                        ),
                    }
                };
                if map_label.span != labels[0].span {
                    labels.push(map_label);
                }
                let lower_controller = self
                    .model
                    .controller_names
                    .items
                    .iter()
                    .any(|c| c.text != name && c.text.to_uppercase() == name);
                let mut help = format!(
                    "add `{name}:PLAINTEXT` (or the protocol the listener serves) to {MAP}"
                );
                if lower_controller {
                    help.push_str(&format!(
                        ", or write the controller listener name in upper case ({name}) in {CONTROLLER_NAMES}"
                    ));
                }
                let upper_cased = if item.text.starts_with(&format!("{name}://")) {
                    String::new()
                } else {
                    format!(" (Kafka reads the name as {name})")
                };
                self.push(
                    key,
                    format!(
                        "{key} entry {entry} has no security protocol in {MAP}{upper_cased}"
                    ),
                    labels,
                    help,
                );
            }
        }
    }

    /// `early.start.listeners` must name listeners of `listeners`, exactly (upper case).
    fn early_start(&mut self) {
        const KEY: &str = "early.start.listeners";
        let Some(Some(setting)) = self
            .at
            .context
            .lookup(self.at.node, KEY, self.at.version)
            .known()
        else {
            return;
        };
        let Some(endpoints) = self.model.listeners.endpoints() else {
            return;
        };
        let how = if self.at.version < KafkaVersion::new(4, 2) {
            Split::BareCommas
        } else {
            config_list_split(KEY, self.at.version)
        };
        for item in split(setting.text, how) {
            let item = item.trimmed();
            if item.text.is_empty() || endpoints.iter().any(|e| e.name == item.text) {
                continue;
            }
            let names: Vec<&str> = endpoints.iter().map(|e| e.name.as_str()).collect();
            let close = endpoints
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(item.text))
                .map(|e| format!(" (names compare exactly: write {})", e.name))
                .unwrap_or_default();
            self.push(
                KEY,
                format!(
                    "{KEY} names {}, which is not a listener of this node{close}",
                    quoted(KEY, item.text)
                ),
                vec![
                    self.at
                        .label(KEY, &setting, Some(item), "not a listener".into()),
                ],
                format!(
                    "name only listeners of listeners here ({}), in upper case",
                    names.join(", ")
                ),
            );
        }
    }

    /// What a broker advertises: at least one broker listener, only names `listeners` has,
    /// and never the wildcard address.
    fn advertised(&mut self) {
        let keep = self.control_plane_in_migration();
        let Some(brokers) = self.model.advertised_brokers(keep.as_deref()) else {
            return;
        };
        let advertised_set = self.model.advertised.is_some();
        // Not set where kafkalint reads, but settings come from elsewhere too (a start-up
        // script it does not follow): what the node advertises is unknown.
        if !advertised_set && self.at.context.settings_elsewhere(self.at.node) {
            return;
        }
        let (key, setting) = match &self.model.advertised {
            Some(list) => ("advertised.listeners", list.setting),
            None => ("listeners", self.model.listeners.setting),
        };
        let broker_role = self.roles.roles.broker || self.roles.zookeeper_mode(self.at.version);
        if broker_role {
            // "At least one advertised listener" came with 3.1 (KAFKA-13456).
            if brokers.is_empty() && self.at.version >= KRAFT_CHECKS_FROM {
                let mut labels = vec![self.at.label(
                    key,
                    &setting,
                    None,
                    "only controller listeners here".into(),
                )];
                if let Some(names) = self.model.controller_names.setting
                    && !self.model.controller_names.is_empty()
                {
                    labels.push(self.at.label(
                        CONTROLLER_NAMES,
                        &names,
                        None,
                        "these are controller listeners".into(),
                    ));
                }
                self.push(
                    key,
                    format!(
                        "this node has the broker role but no broker listener to advertise: {key} has none outside {CONTROLLER_NAMES}"
                    ),
                    labels,
                    "add a broker listener, e.g. `PLAINTEXT://:9092` to listeners (and its address to advertised.listeners)".into(),
                );
            }
            if let Some(listener_endpoints) = self.model.listeners.endpoints() {
                for endpoint in &brokers {
                    if listener_endpoints.iter().any(|l| l.name == endpoint.name) {
                        continue;
                    }
                    let names: Vec<&str> =
                        listener_endpoints.iter().map(|l| l.name.as_str()).collect();
                    let listeners_setting = self.model.listeners.setting;
                    self.push(
                        "advertised.listeners",
                        format!(
                            "advertised.listeners advertises {}, which is not a listener in listeners ({})",
                            endpoint.name,
                            names.join(", ")
                        ),
                        vec![
                            self.at.label(
                                key,
                                &setting,
                                Some(endpoint.item),
                                format!("{} is not in listeners", endpoint.name),
                            ),
                            self.at.label(
                                "listeners",
                                &listeners_setting,
                                None,
                                "the listeners this node has".into(),
                            ),
                        ],
                        format!(
                            "add a {} listener to listeners, or advertise only listeners it has",
                            endpoint.name
                        ),
                    );
                }
            }
        }
        let wildcards: Vec<_> = brokers
            .iter()
            .filter(|e| e.host == Some(NON_ROUTABLE_HOST))
            .collect();
        if !wildcards.is_empty() {
            let fallback = if advertised_set {
                String::new()
            } else {
                " (advertised.listeners is not set)".to_owned()
            };
            let entries = wildcards
                .iter()
                .map(|e| quoted(key, e.item.text))
                .collect::<Vec<_>>()
                .join(", ");
            let labels = wildcards
                .iter()
                .map(|e| {
                    self.at
                        .label(key, &setting, Some(e.item), "advertises 0.0.0.0".into())
                })
                .collect();
            let examples = wildcards
                .iter()
                .map(|e| format!("{}://<host>:{}", e.name, e.port))
                .collect::<Vec<_>>()
                .join(",");
            self.push(
                key,
                format!(
                    "it would advertise {entries}{fallback}: nobody can connect to 0.0.0.0"
                ),
                labels,
                format!(
                    "set advertised.listeners to the addresses others reach this node on, e.g. `{examples}` with this node's host name (listeners may keep binding 0.0.0.0)"
                ),
            );
        }
        self.advertised_controllers();
    }

    /// An advertised controller endpoint at `0.0.0.0`.
    fn advertised_controllers(&mut self) {
        // Kafka works out the advertised controller endpoints from 3.9 (KIP-853).
        if self.at.version < ADVERTISED_CONTROLLERS_FROM {
            return;
        }
        let Some(advertised) = &self.model.advertised else {
            return;
        };
        if self
            .at
            .context
            .any_placeholder(self.at.node, CONTROLLER_INPUTS)
        {
            return;
        }
        let Some(facts) = self.at.context.facts.node(self.at.node) else {
            return;
        };
        let node_id = match facts.node_id {
            Read::Set(id) => Some(id.value),
            Read::Null => None,
            Read::Refused => return,
        };
        let Some(voters) = facts.voters.as_ref().and_then(QuorumList::parsed) else {
            return;
        };
        let Some(Ok(controllers)) = self.model.advertised_controllers(node_id, voters) else {
            return;
        };
        let setting = advertised.setting;
        for controller in controllers {
            if let crate::cluster::listeners::ControllerSource::Advertised(item) = controller.from
                && controller.host == Some(NON_ROUTABLE_HOST)
            {
                self.push(
                    "advertised.listeners",
                    format!(
                        "it would advertise the controller listener {} to the quorum: nobody can connect to 0.0.0.0",
                        quoted("advertised.listeners", item.text)
                    ),
                    vec![self.at.label(
                        "advertised.listeners",
                        &setting,
                        Some(item),
                        "advertises 0.0.0.0".into(),
                    )],
                    "advertise the controller listener at the host name or IP others reach it on"
                        .into(),
                );
            }
        }
    }

    /// Kafka 3.9 during a ZooKeeper migration keeps the control plane listener among the
    /// advertised broker listeners even when it is a controller listener.
    fn control_plane_in_migration(&self) -> Option<String> {
        let migration = self.at.context.lookup(
            self.at.node,
            "zookeeper.metadata.migration.enable",
            self.at.version,
        );
        let Lookup::Set(migration) = migration else {
            return None;
        };
        if !migration.trimmed().eq_ignore_ascii_case("true") {
            return None;
        }
        let Lookup::Set(name) =
            self.at
                .context
                .lookup(self.at.node, "control.plane.listener.name", self.at.version)
        else {
            return None;
        };
        normalised(name.trimmed())
    }

    /// `control.plane.listener.name` (Kafka 3.9): refused in KRaft mode; in ZooKeeper mode it
    /// must be a mapped, advertised listener other than the inter-broker one.
    fn control_plane(&mut self) {
        const KEY: &str = "control.plane.listener.name";
        let Lookup::Set(setting) = self.at.context.lookup(self.at.node, KEY, self.at.version)
        else {
            return;
        };
        let value = quoted(KEY, setting.text);
        // Refused in KRaft mode from 3.1 (KAFKA-13456); before, KRaft nodes judge it as ZooKeeper
        // brokers do, which kafkalint does not check there.
        if !self.roles.is_empty() && self.at.version < KRAFT_CHECKS_FROM {
            return;
        }
        if !self.roles.is_empty() {
            self.push(
                KEY,
                format!("{KEY} is a ZooKeeper-mode setting, and this is a KRaft node (process.roles is set)"),
                vec![self.at.label(KEY, &setting, None, "not supported in KRaft mode".into())],
                format!("remove {KEY}; KRaft controllers are reached on {CONTROLLER_NAMES}"),
            );
            return;
        }
        let Ok(map) = &self.model.map else {
            return;
        };
        let Some(name) = normalised(setting.trimmed()) else {
            self.push(
                KEY,
                format!("{KEY} is empty"),
                vec![
                    self.at
                        .label(KEY, &setting, None, "no listener name".into()),
                ],
                format!("set {KEY} to the name of a listener, or remove it"),
            );
            return;
        };
        if map.get(&name).is_none() {
            self.push(
                KEY,
                format!(
                    "{KEY} {value} names listener {name}, which has no security protocol in {MAP}"
                ),
                vec![
                    self.at
                        .label(KEY, &setting, None, format!("{name} is not mapped")),
                ],
                format!("name a listener of listeners, and map it in {MAP}"),
            );
            return;
        }
        let keep = self.control_plane_in_migration();
        let Some(brokers) = self.model.advertised_brokers(keep.as_deref()) else {
            return;
        };
        if !brokers.iter().any(|e| e.name == name) {
            let names: Vec<&str> = brokers.iter().map(|e| e.name.as_str()).collect();
            self.push(
                KEY,
                format!(
                    "{KEY} {value} is not an advertised listener of this broker (advertised: {})",
                    if names.is_empty() { "none".to_owned() } else { names.join(", ") }
                ),
                vec![self.at.label(KEY, &setting, None, "not advertised".into())],
                format!("add a {name} listener to listeners (and advertised.listeners), or name one of them"),
            );
            return;
        }
        let Ok(map) = &self.model.map else {
            return;
        };
        if let Some(Ok(inter_broker)) =
            self.at
                .context
                .inter_broker(self.at.node, self.at.version, map)
            && inter_broker.name == name
        {
            self.push(
                KEY,
                format!(
                    "{KEY} {value} is also the inter-broker listener: the control plane needs a listener of its own"
                ),
                vec![self.at.label(KEY, &setting, None, "also the inter-broker listener".into())],
                format!("give the control plane its own listener (e.g. CONTROL://:9094, mapped in {MAP}), or remove {KEY}"),
            );
        }
    }
}
