//! `inter-broker-config`: how brokers talk to each other, as Kafka checks it at start-up: the
//! inter-broker listener (`inter.broker.listener.name` or `security.inter.broker.protocol`), that
//! it is advertised, its SASL mechanism, and in 3.x the inter-broker protocol version against
//! KRaft, the message format and zstd.

use super::listener_config::map_inputs;
use super::refusal::{KRAFT_CHECKS_FROM, NodeCheck};
use super::support::{is_placeholder, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, KafkaVersion, value};
use crate::cluster::Cluster;
use crate::cluster::listeners::{InterBroker, InterBrokerProblem, NodeListeners};
use crate::cluster::protocol_version::{ProtocolVersion, ProtocolVersions, RecordVersion};
use crate::cluster::quorum::ProcessRoles;
use crate::cluster::setting::{Lookup, Setting, config_list_split, split};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "inter-broker-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "an inter-broker listener, SASL mechanism or protocol version Kafka refuses at start-up",
    check: Check::Files(check),
};

const NAME: &str = "inter.broker.listener.name";
const PROTOCOL: &str = "security.inter.broker.protocol";
const MECHANISM: &str = "sasl.mechanism.inter.broker.protocol";
const MECHANISMS: &str = "sasl.enabled.mechanisms";
const IBP: &str = "inter.broker.protocol.version";
const FORMAT: &str = "log.message.format.version";

/// What the checks of the inter-broker listener's advertised address and SASL read; a
/// placeholder in one of them skips those checks on the node.
const INPUTS: &[&str] = &[
    "process.roles",
    NAME,
    PROTOCOL,
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "controller.listener.names",
    MECHANISM,
    MECHANISMS,
    IBP,
    FORMAT,
    "offsets.topic.compression.codec",
];

/// What the inter-broker protocol version checks read.
const VERSION_INPUTS: &[&str] = &[IBP, FORMAT, "offsets.topic.compression.codec"];

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for at in NodeCheck::judged(&RULE, cluster, context, &["process.roles"]) {
        let Some(roles) = at.roles() else {
            continue;
        };
        let unresolved = |keys: &[&str]| context.any_placeholder(at.node, keys);
        let mut checker = Checker {
            at,
            roles,
            diagnostics: &mut diagnostics,
        };
        let protocol = if unresolved(VERSION_INPUTS) {
            None
        } else {
            checker.protocol_versions()
        };
        let Some(listeners) = context.facts.listeners(at.node) else {
            continue;
        };
        let Ok(map) = &listeners.map else {
            continue;
        };
        // Which listener brokers use between them reads the two keys and the map alone.
        if unresolved(&[NAME, PROTOCOL]) || unresolved(map_inputs(context, at.node)) {
            continue;
        }
        match at.context.inter_broker(at.node, version, map) {
            Some(Ok(inter_broker)) if !unresolved(INPUTS) => {
                checker.advertised(&inter_broker, listeners);
                checker.sasl(&inter_broker, protocol);
            }
            Some(Ok(_)) | None => {}
            Some(Err(problem)) => checker.resolution(problem),
        }
    }
    diagnostics
}

struct Checker<'a, 'r> {
    at: NodeCheck<'a, 'r>,
    roles: &'r ProcessRoles<'a>,
    diagnostics: &'r mut Vec<Diagnostic>,
}

/// The inter-broker protocol version Kafka 3.x runs with, when the release has one.
#[derive(Clone, Copy)]
struct Effective {
    versions: ProtocolVersions,
    version: ProtocolVersion,
}

impl<'a> Checker<'a, '_> {
    fn push(&mut self, key: &str, why: String, labels: Vec<Label>, help: String) {
        self.diagnostics
            .push(self.at.refusal(key, why, labels, help));
    }

    /// Where the inter-broker listener comes from, for a label.
    fn source_label(&self, inter_broker: &InterBroker, message: String) -> Label {
        let key = if inter_broker.by_name { NAME } else { PROTOCOL };
        self.at.label(key, &inter_broker.setting, None, message)
    }

    fn resolution(&mut self, problem: InterBrokerProblem<'a>) {
        match problem {
            InterBrokerProblem::BothSet { name, protocol } => self.push(
                PROTOCOL,
                format!("both {NAME} and {PROTOCOL} are set; Kafka takes the inter-broker listener from one of them only"),
                vec![
                    self.at.label(PROTOCOL, &protocol, None, "remove this".into()),
                    self.at.label(NAME, &name, None, "or this".into()),
                ],
                format!("remove {PROTOCOL}: the protocol follows from the listener's entry in listener.security.protocol.map"),
            ),
            InterBrokerProblem::BlankName(setting) => self.push(
                NAME,
                format!("{NAME} is empty"),
                vec![self.at.label(NAME, &setting, None, "no listener name".into())],
                format!("set {NAME} to the listener brokers use between them, or remove the line"),
            ),
            InterBrokerProblem::Unmapped { name, setting } => self.push(
                NAME,
                format!(
                    "{NAME} names listener {name}, which has no security protocol in listener.security.protocol.map"
                ),
                vec![self.at.label(NAME, &setting, None, format!("{name} is not mapped"))],
                format!(
                    "name a listener of listeners here, and map it in listener.security.protocol.map (e.g. `{name}:PLAINTEXT`)"
                ),
            ),
        }
    }

    /// A broker advertises the listener other brokers replicate from.
    fn advertised(&mut self, inter_broker: &InterBroker<'a>, listeners: &NodeListeners<'a>) {
        if !(self.roles.roles.broker || self.roles.zookeeper_mode(self.at.version)) {
            return;
        }
        // Kafka 3.9 keeps the control plane listener during a migration; it is never the
        // inter-broker one (listener-config checks that), so it does not matter here.
        let Some(brokers) = listeners.advertised_brokers(None) else {
            return;
        };
        if brokers.is_empty() || brokers.iter().any(|e| e.name == inter_broker.name) {
            return;
        }
        // Before 3.1 (KAFKA-13456) the advertised listeners keep the controller ones.
        if self.at.version < KRAFT_CHECKS_FROM
            && listeners.controller_names.contains(&inter_broker.name)
        {
            return;
        }
        let names: Vec<&str> = brokers.iter().map(|e| e.name.as_str()).collect();
        let (key, setting) = match &listeners.advertised {
            Some(list) => ("advertised.listeners", list.setting),
            None => ("listeners", listeners.listeners.setting),
        };
        let why = if inter_broker.by_name {
            format!(
                "the inter-broker listener {} is not advertised (advertised: {}): other brokers could not reach it",
                inter_broker.name,
                names.join(", ")
            )
        } else {
            format!(
                "{PROTOCOL}={} picks the listener {} between brokers, which this broker does not advertise ({})",
                inter_broker.protocol.name(),
                inter_broker.name,
                names.join(", ")
            )
        };
        let labels = vec![
            self.source_label(
                inter_broker,
                format!("{} is not advertised", inter_broker.name),
            ),
            self.at.label(key, &setting, None, "advertised here".into()),
        ];
        self.push(
            if inter_broker.by_name { NAME } else { PROTOCOL },
            why,
            labels,
            format!(
                "set {NAME} to one of the advertised listeners ({}), or advertise the {} listener",
                names.join(", "),
                inter_broker.name
            ),
        );
    }

    /// SASL between brokers: the mechanism must be enabled on the inter-broker listener, and
    /// Kafka parses that listener's own settings.
    fn sasl(&mut self, inter_broker: &InterBroker<'a>, protocol: Option<Effective>) {
        if !inter_broker.protocol.uses_sasl() {
            return;
        }
        let Lookup::Set(mechanism) =
            self.at
                .context
                .lookup(self.at.node, MECHANISM, self.at.version)
        else {
            return;
        };
        let chosen = mechanism.trimmed();
        if let Some(Effective { versions, version }) = protocol
            && versions
                .known("0.10.0-IV1")
                .is_some_and(|handshake| version < handshake)
            && chosen != "GSSAPI"
        {
            let ibp = self.at.context.lookup(self.at.node, IBP, self.at.version);
            let mut labels = vec![
                self.at
                    .label(MECHANISM, &mechanism, None, "not GSSAPI".into()),
            ];
            if let Lookup::Set(ibp) = ibp {
                labels.push(self.at.label(IBP, &ibp, None, "before 0.10.0-IV1".into()));
            }
            self.push(
                MECHANISM,
                format!(
                    "inter-broker SASL with {MECHANISM} {} needs inter.broker.protocol.version 0.10.0-IV1 or later: older versions know only GSSAPI",
                    quoted(MECHANISM, chosen)
                ),
                labels,
                format!("raise {IBP} (to 3.9 once every broker runs it), or use GSSAPI"),
            );
        }
        let prefix = format!("listener.name.{}.", inter_broker.name.to_lowercase());
        let mut enabled: Option<Setting<'a>> = None;
        let mut readable = true;
        for entry in self.at.context.lines(self.at.node) {
            let Some(rest) = entry
                .key()
                .strip_prefix(&prefix)
                .filter(|rest| !rest.is_empty())
            else {
                continue;
            };
            if is_placeholder(entry.value()) {
                // Unknown for its key alone (a JAAS config from `${file:...}`): only the
                // listener's enabled mechanisms feed the check below.
                if rest == MECHANISMS {
                    readable = false;
                }
                continue;
            }
            let unprefixed = rest.find('.').map_or(rest, |dot| &rest[dot + 1..]);
            let (known, spec) = match catalog::spec(rest, self.at.version) {
                Some(spec) => (rest, spec),
                None => match catalog::spec(unprefixed, self.at.version) {
                    Some(spec) => (unprefixed, spec),
                    None => continue,
                },
            };
            if let Err(refusal) = value::check(known, spec, entry.value()) {
                readable = false;
                // A refusal may quote the value; a secret's value is never shown.
                let reason = if crate::secrets::is_hidden(entry.key(), entry.value()) {
                    "is not a value Kafka accepts for this key".to_owned()
                } else {
                    refusal.reason
                };
                let setting = Setting {
                    text: entry.value(),
                    line: Some(entry),
                };
                self.push(
                    entry.key(),
                    format!(
                        "{} (the inter-broker listener {}'s {known}): {}",
                        entry.key(),
                        inter_broker.name,
                        reason
                    ),
                    vec![self.at.label(entry.key(), &setting, None, reason.clone())],
                    format!(
                        "give {} a value {known} accepts, or remove the line",
                        entry.key()
                    ),
                );
            } else if rest == MECHANISMS {
                enabled = Some(Setting {
                    text: entry.value(),
                    line: Some(entry),
                });
            }
        }
        if !readable {
            return;
        }
        let (key, enabled) = match enabled {
            Some(setting) => (format!("{prefix}{MECHANISMS}"), setting),
            None => match self
                .at
                .context
                .lookup(self.at.node, MECHANISMS, self.at.version)
            {
                Lookup::Set(setting) => (MECHANISMS.to_owned(), setting),
                _ => return,
            },
        };
        let mechanisms: Vec<&str> =
            split(enabled.text, config_list_split(MECHANISMS, self.at.version))
                .iter()
                .map(|item| item.text)
                .collect();
        if mechanisms.contains(&chosen) {
            return;
        }
        let listed = if mechanisms.is_empty() {
            "none".to_owned()
        } else {
            mechanisms.join(", ")
        };
        let case = mechanisms
            .iter()
            .find(|m| m.eq_ignore_ascii_case(chosen))
            .map(|m| format!(" (mechanisms compare exactly: {m} is enabled)"))
            .unwrap_or_default();
        let mut labels = vec![
            self.at
                .label(MECHANISM, &mechanism, None, "not enabled".into()),
        ];
        if enabled.is_set() {
            labels.push(
                self.at
                    .label(&key, &enabled, None, "the enabled mechanisms".into()),
            );
        }
        self.push(
            MECHANISM,
            format!(
                "{key} does not enable the inter-broker mechanism {} on listener {} (enabled: {listed}){case}",
                quoted(MECHANISM, chosen),
                inter_broker.name
            ),
            labels,
            format!(
                "add {chosen} to {key}, or set {MECHANISM} to one of the enabled mechanisms"
            ),
        );
    }

    /// Kafka 3.x's inter-broker protocol version: unknown short names, KRaft's minimum, the
    /// message format and zstd. Returns the version brokers run with.
    fn protocol_versions(&mut self) -> Option<Effective> {
        let versions = ProtocolVersions::of(self.at.version)?;
        let ibp = match self.at.context.lookup(self.at.node, IBP, self.at.version) {
            Lookup::Set(setting) => setting,
            _ => return None,
        };
        let format = match self
            .at
            .context
            .lookup(self.at.node, FORMAT, self.at.version)
        {
            Lookup::Set(setting) => Some(setting),
            _ => None,
        };
        let parsed_ibp = self.parse(&versions, IBP, &ibp);
        let parsed_format = format.and_then(|format| self.parse(&versions, FORMAT, &format));
        let parsed_ibp = parsed_ibp?;
        let kraft_minimum = versions.known("3.0-IV1")?;
        // KRaft refuses a version before its minimum, and runs its minimum whatever the file
        // says, from 3.3 (KIP-778, metadata.version); 3.1 and 3.2 run the configured one.
        let running = if self.roles.is_empty() || self.at.version < KafkaVersion::new(3, 3) {
            parsed_ibp
        } else {
            if ibp.is_set() && parsed_ibp < kraft_minimum {
                self.push(
                    IBP,
                    format!(
                        "{IBP} {} is older than 3.0-IV1, the oldest version KRaft runs",
                        quoted(IBP, ibp.text)
                    ),
                    vec![self.at.label(IBP, &ibp, None, "before 3.0-IV1".into())],
                    format!(
                        "remove {IBP} from KRaft nodes: KRaft uses metadata.version, set with kafka-storage.sh format and kafka-features.sh"
                    ),
                );
            }
            // KRaft pins the version to its minimum whatever the file says.
            kraft_minimum
        };
        let effective = Effective {
            versions,
            version: running,
        };
        let ibp_records = versions.record_version(running);
        if let (Some(format), Some(parsed_format)) = (format, parsed_format) {
            // From 3.0-IV1 Kafka ignores the message format setting.
            let format_records = if running >= kraft_minimum {
                versions.record_version(kraft_minimum)
            } else {
                versions.record_version(parsed_format)
            };
            if ibp_records < format_records {
                let needed = if format_records == RecordVersion::V2 {
                    "0.11.0"
                } else {
                    "0.10.0"
                };
                let mut labels = vec![self.at.label(IBP, &ibp, None, format!("before {needed}"))];
                if format.is_set() {
                    labels.push(self.at.label(
                        FORMAT,
                        &format,
                        None,
                        "a newer message format".into(),
                    ));
                }
                self.push(
                    IBP,
                    format!(
                        "{FORMAT} {} writes a message format that {IBP} {} cannot replicate: it needs {needed} or later",
                        quoted(FORMAT, format.text),
                        quoted(IBP, ibp.text)
                    ),
                    labels,
                    format!(
                        "raise {IBP} to at least {needed} (all brokers first run the new release), or lower {FORMAT} to match it"
                    ),
                );
            }
        }
        if let Some((4, codec)) = self.at.context.int_setting(
            self.at.node,
            "offsets.topic.compression.codec",
            self.at.version,
        ) && ibp_records < RecordVersion::V2
        {
            self.push(
                "offsets.topic.compression.codec",
                format!(
                    "offsets.topic.compression.codec=4 (zstd) needs the v2 message format, and {IBP} {} is older than 0.11.0",
                    quoted(IBP, ibp.text)
                ),
                vec![
                    self.at.label("offsets.topic.compression.codec", &codec, None, "zstd".into()),
                    self.at.label(IBP, &ibp, None, "before 0.11.0".into()),
                ],
                format!("raise {IBP} (to 2.1 or later), or use another codec for the offsets topic"),
            );
        }
        Some(effective)
    }

    /// A version as Kafka 3.x reads it. The catalogue takes every short name; Kafka takes only
    /// those of production releases, so the newest line of a release (`4.0` in 3.9) is refused.
    fn parse(
        &mut self,
        versions: &ProtocolVersions,
        key: &str,
        setting: &Setting,
    ) -> Option<ProtocolVersion> {
        let parsed = versions.parse(setting.trimmed());
        if parsed.is_none() {
            self.push(
                key,
                format!(
                    "{key} {} is not a version Kafka {} knows: it is the short name of a release that is not out yet",
                    quoted(key, setting.text),
                    self.at.version
                ),
                vec![self.at.label(key, setting, None, "unknown version".into())],
                format!(
                    "use a release this broker runs or an older one, e.g. `{}`",
                    self.at.version
                ),
            );
        }
        parsed
    }
}
