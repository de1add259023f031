//! `group-coordinator-config`: what the group, share and streams coordinators check when the
//! broker builds them at start-up — the rebalance protocols, the assignors, the compression
//! codecs of their topics, and every session, heartbeat, assignment, replica, delivery and lock
//! setting against its own minimum and maximum. One of them out of bounds and the broker exits.

use super::refusal::NodeCheck;
use super::support::{numbered, pair_labels, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::value::{Parsed, split_list};
use crate::catalog::{self, ConfigType, KafkaVersion, Validator};
use crate::cluster::{Cluster, Effective};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "group-coordinator-config",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "group, share and streams coordinator settings Kafka refuses at start-up: classic protocol off, assignors it cannot use, unknown codecs, timeouts and limits outside their own min and max",
    check: Check::Files(check),
};

/// The first release whose start-up checks this rule was verified against.
const OLDEST_CHECKED: KafkaVersion = KafkaVersion::new(3, 9);

const fn v(major: u8, minor: u8) -> KafkaVersion {
    KafkaVersion::new(major, minor)
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    // The same for every node: picked once, not once a node, each with where its two keys
    // are in `keys` (most keys stand in two or three bounds: each is read once a node).
    let mut keys: Vec<&'static str> = Vec::new();
    let mut key_index = |key: &'static str| match keys.iter().position(|known| *known == key) {
        Some(index) => index,
        None => {
            keys.push(key);
            keys.len() - 1
        }
    };
    let bounds: Vec<(&Bound, usize, usize)> = bounds(version)
        .map(|bound| (bound, key_index(bound.subject), key_index(bound.other)))
        .collect();
    // A bound between two keys a node leaves unset is judged on Kafka's defaults, the same on
    // every node: judged once here, and a node that sets neither key is passed over when they
    // hold (Kafka's own defaults always do; a bound without a default value is never judged).
    let holds_on_defaults: Vec<bool> = bounds
        .iter()
        .map(|(bound, _, _)| {
            match (
                default_integer(bound.subject, version),
                default_integer(bound.other, version),
            ) {
                (Some(subject), Some(other)) => bound.holds(subject, other),
                _ => true,
            }
        })
        .collect();
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        let scope = Scope {
            at: NodeCheck::new(&RULE, context, node, version),
        };
        // The assignor lists carry the release each is read from (3.7 for consumer groups).
        for list in ASSIGNOR_LISTS {
            diagnostics.extend(assignors(&scope, list));
        }
        if version < OLDEST_CHECKED {
            continue;
        }
        diagnostics.extend(rebalance_protocols(&scope));
        for codec_key in [
            "offsets.topic.compression.codec",
            "share.coordinator.state.topic.compression.codec",
        ] {
            diagnostics.extend(compression_codec(&scope, codec_key));
        }
        diagnostics.extend(commit_required_acks(&scope));
        diagnostics.extend(snapshot_records(&scope));
        let mut ints = vec![None; keys.len()];
        let set: Vec<bool> = keys
            .iter()
            .map(|key| context.line(node, key).is_some())
            .collect();
        for ((bound, subject, other), on_defaults) in bounds.iter().zip(&holds_on_defaults) {
            if *on_defaults && !set[*subject] && !set[*other] {
                continue;
            }
            diagnostics.extend(bound.check(&scope, &mut ints, (*subject, *other)));
        }
        diagnostics.extend(rack_aware_tags(&scope));
    }
    diagnostics
}

/// Kafka's default of an integer key, as a node that leaves it unset reads it (see
/// [`Context::parsed_value`]): `None` when the key has no default value or it does not parse.
fn default_integer(key: &str, version: KafkaVersion) -> Option<i64> {
    let known = catalog::known(key, version)?;
    let catalog::Default::Value(text) = known.spec.default else {
        return None;
    };
    if crate::properties::is_placeholder(text) {
        return None;
    }
    known.checked_default()?.as_ref().ok()?.as_integer()
}

/// One node checked against one release.
struct Scope<'a> {
    at: NodeCheck<'a, 'a>,
}

impl<'a> Scope<'a> {
    /// A LIST key as Kafka hands it to the coordinator: from 4.2 its duplicates are dropped
    /// while parsing.
    fn list(&self, key: &str) -> Option<(Vec<String>, Effective<'a>)> {
        let (parsed, effective) =
            self.at
                .context
                .parsed_value(self.at.node, key, self.at.version)?;
        let Parsed::List(mut items) = parsed else {
            return None;
        };
        let spec = catalog::spec(key, self.at.version)?;
        if matches!(spec.validator, Validator::StrictList { .. }) {
            let mut seen = std::collections::HashSet::new();
            items.retain(|item| seen.insert(item.clone()));
        }
        Some((items, effective))
    }

    /// A label on the value of a key the file sets.
    fn label(&self, effective: &Effective, message: String) -> Vec<Label> {
        effective
            .line()
            .map(|entry| Label {
                file: self.at.node.file,
                span: entry.value_span().clone(),
                message,
            })
            .into_iter()
            .collect()
    }
}

/// `classic` cannot be turned off; before 4.0 `consumer` needs KRaft.
fn rebalance_protocols(scope: &Scope) -> Vec<Diagnostic> {
    let key = "group.coordinator.rebalance.protocols";
    let Some((protocols, effective)) = scope.list(key) else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    let has = |protocol: &str| protocols.iter().any(|p| p == protocol);
    if !has("classic") {
        let with_classic = std::iter::once("classic")
            .chain(protocols.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(",");
        diagnostics.push(scope.at.refusal(
            key,
            format!(
                "{key} leaves out `classic`: the classic rebalance protocol cannot be turned off"
            ),
            scope.label(&effective, "no `classic`".to_string()),
            format!("add classic to the list: {key}={with_classic}"),
        ));
    } else if scope.at.version < v(4, 0) && has("consumer") {
        // An empty `process.roles` is ZooKeeper mode in 3.x, set or not.
        let zookeeper_mode = scope
            .list("process.roles")
            .is_some_and(|(roles, _)| roles.is_empty());
        if zookeeper_mode {
            let without_consumer = protocols
                .iter()
                .filter(|p| *p != "consumer")
                .cloned()
                .collect::<Vec<_>>()
                .join(",");
            diagnostics.push(scope.at.refusal(
                key,
                format!("{key} enables `consumer` on a ZooKeeper-mode broker (KRaft mode only)"),
                scope.label(&effective, "`consumer` needs KRaft".to_string()),
                format!("set {key}={without_consumer} until the cluster runs in KRaft mode"),
            ));
        }
    }
    diagnostics
}

/// What an assignor is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AssignorKind {
    ConsumerGroup,
    ShareGroup,
    StreamsGroup,
    /// A consumer's own `partition.assignment.strategy`, not a broker-side assignor.
    Client,
}

impl AssignorKind {
    fn describe(self) -> &'static str {
        match self {
            AssignorKind::ConsumerGroup => "a consumer group assignor",
            AssignorKind::ShareGroup => "a share group assignor",
            AssignorKind::StreamsGroup => "a streams group task assignor",
            AssignorKind::Client => {
                "a client-side assignor (a consumer's partition.assignment.strategy)"
            }
        }
    }
}

/// Kafka's own assignor classes: their kind and the name the assignor reports.
const KAFKA_ASSIGNOR_CLASSES: &[(&str, AssignorKind, &str)] = &[
    (
        "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
        AssignorKind::ConsumerGroup,
        "uniform",
    ),
    (
        "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
        AssignorKind::ConsumerGroup,
        "range",
    ),
    (
        "org.apache.kafka.coordinator.group.assignor.SimpleAssignor",
        AssignorKind::ShareGroup,
        "simple",
    ),
    (
        "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor",
        AssignorKind::StreamsGroup,
        "sticky",
    ),
    (
        "org.apache.kafka.clients.consumer.RangeAssignor",
        AssignorKind::Client,
        "range",
    ),
    (
        "org.apache.kafka.clients.consumer.RoundRobinAssignor",
        AssignorKind::Client,
        "roundrobin",
    ),
    (
        "org.apache.kafka.clients.consumer.StickyAssignor",
        AssignorKind::Client,
        "sticky",
    ),
    (
        "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
        AssignorKind::Client,
        "cooperative-sticky",
    ),
];

/// The built-in names of every assignor list of every release: none of them is a class.
const BUILT_IN_NAMES: &[&str] = &["uniform", "range", "simple", "sticky"];

/// A key listing the assignors of one kind of group.
struct AssignorList {
    key: &'static str,
    kind: AssignorKind,
    /// The first release that reads the key (older ones ignore it).
    since: KafkaVersion,
    /// The names Kafka resolves itself, and from which release.
    built_in: &'static [&'static str],
    built_in_since: KafkaVersion,
    /// From this release, two entries naming the same assignor are refused.
    unique_names_since: Option<KafkaVersion>,
    /// The list must hold exactly one assignor (share groups, from 4.1).
    exactly_one: bool,
    /// What to write instead, for the help.
    example: &'static str,
}

const ASSIGNOR_LISTS: &[AssignorList] = &[
    AssignorList {
        key: "group.consumer.assignors",
        kind: AssignorKind::ConsumerGroup,
        // 3.7 and 3.8 load the classes at start-up too (the oracle: "Class rangee cannot be
        // found" from KafkaConfig of 3.7.2 and 3.8.1).
        since: v(3, 7),
        built_in: &["uniform", "range"],
        built_in_since: v(4, 0),
        unique_names_since: Some(v(4, 4)),
        exactly_one: false,
        example: "uniform,range",
    },
    AssignorList {
        key: "group.share.assignors",
        kind: AssignorKind::ShareGroup,
        since: v(4, 1),
        built_in: &["simple"],
        built_in_since: v(4, 1),
        unique_names_since: None,
        exactly_one: true,
        example: "simple",
    },
    AssignorList {
        key: "group.streams.assignors",
        kind: AssignorKind::StreamsGroup,
        since: v(4, 4),
        built_in: &["sticky"],
        built_in_since: v(4, 4),
        unique_names_since: Some(v(4, 4)),
        exactly_one: false,
        example: "sticky",
    },
];

/// Why Kafka cannot use one entry of an assignor list, in words that follow the entry; `None`
/// when it can, or may (a class kafkalint does not know could be on the broker's classpath).
fn unusable_assignor(list: &AssignorList, entry: &str, version: KafkaVersion) -> Option<String> {
    let built_in = version >= list.built_in_since && list.built_in.contains(&entry);
    if built_in {
        return None;
    }
    if let Some((_, kind, _)) = KAFKA_ASSIGNOR_CLASSES.iter().find(|(c, ..)| *c == entry) {
        if *kind == list.kind {
            return None;
        }
        return Some(format!("{}, not {}", kind.describe(), list.kind.describe()));
    }
    let no_such_name = || {
        if version >= list.built_in_since {
            format!(
                "no such class (names: {})",
                list.built_in
                    .iter()
                    .map(|name| format!("`{name}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!(
                "no such class (assignor names arrived in {})",
                list.built_in_since
            )
        }
    };
    if BUILT_IN_NAMES.contains(&entry) {
        return Some(no_such_name());
    }
    if entry.is_empty() {
        return Some("no class has an empty name".to_string());
    }
    // A name without a package is no assignor's class (`rangee`, `Range`): Kafka refuses it as
    // a class it cannot find.
    if !entry.contains('.') && catalog::value::parse(ConfigType::Class, entry).is_ok() {
        return Some(no_such_name());
    }
    if catalog::value::parse(ConfigType::Class, entry).is_err() {
        return Some("not a possible class name".to_string());
    }
    if ["java.", "javax.", "jdk.", "sun."]
        .iter()
        .any(|package| entry.starts_with(package))
    {
        return Some(format!("a JDK class, not {}", list.kind.describe()));
    }
    None
}

/// Whether this rule speaks for `entry` of the assignor list `key` in `version`: a built-in
/// assignor's name (`uniform` from 4.0), which is no class, or an entry this rule refuses.
/// `wrong-kind-class` and `missing-kafka-class` judge the other entries by the catalogue, so
/// that an entry is judged once.
pub fn speaks_for_assignor(key: &str, entry: &str, version: KafkaVersion) -> bool {
    let Some(list) = ASSIGNOR_LISTS.iter().find(|list| list.key == key) else {
        return false;
    };
    let built_in = version >= list.built_in_since && list.built_in.contains(&entry);
    built_in || (version >= list.since && unusable_assignor(list, entry, version).is_some())
}

/// The names of the built-in assignors the list `key` takes in `version`, besides classes.
pub fn built_in_assignors(key: &str, version: KafkaVersion) -> &'static [&'static str] {
    ASSIGNOR_LISTS
        .iter()
        .find(|list| list.key == key && version >= list.built_in_since)
        .map_or(&[], |list| list.built_in)
}

/// The name an entry's assignor reports, when kafkalint knows it.
fn assignor_name<'e>(list: &AssignorList, entry: &'e str) -> Option<&'e str> {
    if list.built_in.contains(&entry) {
        return Some(entry);
    }
    KAFKA_ASSIGNOR_CLASSES
        .iter()
        .find(|(class, kind, _)| *class == entry && *kind == list.kind)
        .map(|(_, _, name)| *name)
}

fn assignors(scope: &Scope, list: &AssignorList) -> Vec<Diagnostic> {
    if scope.at.version < list.since {
        return Vec::new();
    }
    let Some((entries, effective)) = scope.list(list.key) else {
        return Vec::new();
    };
    let key = list.key;
    let example = if scope.at.version >= list.built_in_since {
        list.example.to_string()
    } else {
        // Before the names, the same assignors by class.
        list.example
            .split(',')
            .filter_map(|name| {
                KAFKA_ASSIGNOR_CLASSES
                    .iter()
                    .find(|(_, kind, known)| *kind == list.kind && *known == name)
                    .map(|(class, ..)| *class)
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let help = format!(
        "list {} Kafka can load, e.g. {key}={example}",
        if list.exactly_one {
            "one assignor"
        } else {
            "assignors"
        }
    );
    let mut diagnostics = Vec::new();
    // Entries that fail for the same reason are named together.
    let mut reasons: Vec<(Vec<String>, String)> = Vec::new();
    for entry in &entries {
        let Some(reason) = unusable_assignor(list, entry, scope.at.version) else {
            continue;
        };
        let shown = if entry.is_empty() {
            "an empty entry (a stray comma)".to_string()
        } else {
            quoted(key, entry)
        };
        match reasons.iter_mut().find(|(_, known)| *known == reason) {
            Some((shown_entries, _)) => shown_entries.push(shown),
            None => reasons.push((vec![shown], reason)),
        }
    }
    if !reasons.is_empty() {
        let count: usize = reasons.iter().map(|(shown, _)| shown.len()).sum();
        let label = if count == 1 {
            "an entry Kafka cannot use".to_string()
        } else {
            format!("{count} entries Kafka cannot use")
        };
        let said = reasons
            .iter()
            .map(|(shown, reason)| format!("{}: {reason}", shown.join(", ")))
            .collect::<Vec<_>>()
            .join("; ");
        diagnostics.push(scope.at.refusal(
            key,
            format!("{key} names assignors Kafka cannot use: {said}"),
            scope.label(&effective, label),
            help,
        ));
        return diagnostics;
    }
    if list.exactly_one && entries.len() != 1 {
        diagnostics.push(scope.at.refusal(
            key,
            format!(
                "{key} lists {} assignors: share groups take exactly one",
                entries.len()
            ),
            scope.label(&effective, format!("{} assignors", entries.len())),
            help,
        ));
    } else if list
        .unique_names_since
        .is_some_and(|since| scope.at.version >= since)
    {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for entry in &entries {
            let Some(name) = assignor_name(list, entry) else {
                continue;
            };
            if let Some((_, first)) = seen.iter().find(|(known, _)| *known == name) {
                diagnostics.push(scope.at.refusal(
                    key,
                    format!(
                        "{key} names the assignor `{name}` twice ({} and {}): assignor names must be unique",
                        quoted(key, first),
                        quoted(key, entry)
                    ),
                    scope.label(&effective, format!("`{name}` twice")),
                    format!("list each assignor once, e.g. {key}={example}"),
                ));
                break;
            }
            seen.push((name, entry));
        }
    }
    diagnostics
}

/// Kafka's compression codec ids: none, gzip, snappy, lz4, zstd.
const CODEC_IDS: std::ops::RangeInclusive<i64> = 0..=4;

fn compression_codec(scope: &Scope, key: &str) -> Option<Diagnostic> {
    let (codec, effective) = scope.at.int(key)?;
    if CODEC_IDS.contains(&codec) {
        return None;
    }
    Some(scope.at.refusal(
        key,
        format!(
            "{key} {codec} is no compression codec id (0 to 4)"
        ),
        scope.label(&effective, "not a codec id".to_string()),
        format!(
            "set {key} to a codec id: 0 (none), 1 (gzip), 2 (snappy), 3 (lz4) or 4 (zstd), or remove it (0 by default)"
        ),
    ))
}

/// 3.9 only: the acks of offset commits, between -1 and the offsets topic's replication factor.
/// (That the key is deprecated is `deprecated-key`'s to say.)
fn commit_required_acks(scope: &Scope) -> Option<Diagnostic> {
    let acks_key = "offsets.commit.required.acks";
    let factor_key = "offsets.topic.replication.factor";
    if scope.at.version >= v(4, 0) {
        return None;
    }
    let (acks, acks_value) = scope.at.int(acks_key)?;
    let (factor, factor_value) = scope.at.int(factor_key)?;
    if (-1..=factor).contains(&acks) {
        return None;
    }
    let message = if acks < -1 {
        format!("{acks_key} {acks} is below -1, which already means all in-sync replicas")
    } else {
        format!(
            "{acks_key} {acks} is above {}: offset commits would wait for more acknowledgements than there are replicas",
            numbered(factor_key, factor, &factor_value)
        )
    };
    Some(scope.at.refusal(
        acks_key,
        message,
        pair_labels(
            scope.at.node,
            (&acks_value, "outside -1 to the replication factor".to_string()),
            (&factor_value, format!("replication factor {factor}")),
        ),
        format!(
            "remove {acks_key} (deprecated; -1, all in-sync replicas, by default), or set it from -1 to {factor}"
        ),
    ))
}

/// 4.0 to 4.2 check this bound by hand; from 4.3 it is the key's own range.
fn snapshot_records(scope: &Scope) -> Option<Diagnostic> {
    let key = "share.coordinator.snapshot.update.records.per.snapshot";
    let maximum = 500;
    if !(v(4, 0)..v(4, 3)).contains(&scope.at.version) {
        return None;
    }
    let (records, effective) = scope.at.int(key)?;
    if (0..=maximum).contains(&records) {
        return None;
    }
    Some(scope.at.refusal(
        key,
        format!("{key} {records} is above the maximum of {maximum}"),
        scope.label(&effective, format!("at most {maximum}")),
        format!("set {key} to at most {maximum} (500 by default)"),
    ))
}

/// 4.4 reads the tag keys from the file's own text and refuses one named twice, although the
/// parsed list has dropped the duplicate.
fn rack_aware_tags(scope: &Scope) -> Option<Diagnostic> {
    let key = "group.streams.rack.aware.assignment.tags";
    if scope.at.version < v(4, 4) {
        return None;
    }
    let (_, effective) = scope
        .at
        .context
        .parsed_value(scope.at.node, key, scope.at.version)?;
    let raw = effective.line()?;
    let tags = split_list(raw.value());
    let twice = tags
        .iter()
        .enumerate()
        .find(|(index, tag)| tags[..*index].contains(tag))
        .map(|(_, tag)| tag)?;
    Some(scope.at.refusal(
        key,
        format!("{key} names the tag key {} twice", quoted(key, twice)),
        scope.label(&effective, format!("{} twice", quoted(key, twice))),
        format!("list each tag key once in {key}"),
    ))
}

/// How one value must stand to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Relation {
    AtLeast,
    AtMost,
    Below,
}

/// One of the coordinators' own bounds: `subject` must stand in `relation` to `other`.
struct Bound {
    subject: &'static str,
    relation: Relation,
    other: &'static str,
}

/// Every bound of every release, with the first release that checks it, in Kafka's order.
/// Consumer and share groups from 3.9, streams groups from 4.1; each must heartbeat more often
/// than its session expires from 4.0 (streams: from its start).
const BOUNDS: &[(KafkaVersion, Bound)] = {
    use Relation::{AtLeast, AtMost, Below};
    &[
        // consumer groups
        bound(
            v(3, 9),
            "group.consumer.max.heartbeat.interval.ms",
            AtLeast,
            "group.consumer.min.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.consumer.heartbeat.interval.ms",
            AtLeast,
            "group.consumer.min.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.consumer.heartbeat.interval.ms",
            AtMost,
            "group.consumer.max.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.consumer.max.session.timeout.ms",
            AtLeast,
            "group.consumer.min.session.timeout.ms",
        ),
        bound(
            v(3, 9),
            "group.consumer.session.timeout.ms",
            AtLeast,
            "group.consumer.min.session.timeout.ms",
        ),
        bound(
            v(3, 9),
            "group.consumer.session.timeout.ms",
            AtMost,
            "group.consumer.max.session.timeout.ms",
        ),
        bound(
            v(4, 0),
            "group.consumer.heartbeat.interval.ms",
            Below,
            "group.consumer.session.timeout.ms",
        ),
        bound(
            v(4, 3),
            "group.consumer.max.assignment.interval.ms",
            AtLeast,
            "group.consumer.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.consumer.assignment.interval.ms",
            AtLeast,
            "group.consumer.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.consumer.assignment.interval.ms",
            AtMost,
            "group.consumer.max.assignment.interval.ms",
        ),
        // share groups
        bound(
            v(3, 9),
            "group.share.max.heartbeat.interval.ms",
            AtLeast,
            "group.share.min.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.share.heartbeat.interval.ms",
            AtLeast,
            "group.share.min.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.share.heartbeat.interval.ms",
            AtMost,
            "group.share.max.heartbeat.interval.ms",
        ),
        bound(
            v(3, 9),
            "group.share.max.session.timeout.ms",
            AtLeast,
            "group.share.min.session.timeout.ms",
        ),
        bound(
            v(3, 9),
            "group.share.session.timeout.ms",
            AtLeast,
            "group.share.min.session.timeout.ms",
        ),
        bound(
            v(3, 9),
            "group.share.session.timeout.ms",
            AtMost,
            "group.share.max.session.timeout.ms",
        ),
        bound(
            v(4, 0),
            "group.share.heartbeat.interval.ms",
            Below,
            "group.share.session.timeout.ms",
        ),
        bound(
            v(4, 3),
            "group.share.max.assignment.interval.ms",
            AtLeast,
            "group.share.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.share.assignment.interval.ms",
            AtLeast,
            "group.share.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.share.assignment.interval.ms",
            AtMost,
            "group.share.max.assignment.interval.ms",
        ),
        // streams groups
        bound(
            v(4, 1),
            "group.streams.max.heartbeat.interval.ms",
            AtLeast,
            "group.streams.min.heartbeat.interval.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.heartbeat.interval.ms",
            AtLeast,
            "group.streams.min.heartbeat.interval.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.heartbeat.interval.ms",
            AtMost,
            "group.streams.max.heartbeat.interval.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.max.session.timeout.ms",
            AtLeast,
            "group.streams.min.session.timeout.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.session.timeout.ms",
            AtLeast,
            "group.streams.min.session.timeout.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.session.timeout.ms",
            AtMost,
            "group.streams.max.session.timeout.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.heartbeat.interval.ms",
            Below,
            "group.streams.session.timeout.ms",
        ),
        bound(
            v(4, 3),
            "group.streams.max.assignment.interval.ms",
            AtLeast,
            "group.streams.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.streams.assignment.interval.ms",
            AtLeast,
            "group.streams.min.assignment.interval.ms",
        ),
        bound(
            v(4, 3),
            "group.streams.assignment.interval.ms",
            AtMost,
            "group.streams.max.assignment.interval.ms",
        ),
        bound(
            v(4, 1),
            "group.streams.num.standby.replicas",
            AtMost,
            "group.streams.max.standby.replicas",
        ),
        bound(
            v(4, 4),
            "group.streams.task.offset.interval.ms",
            AtLeast,
            "group.streams.min.task.offset.interval.ms",
        ),
        bound(
            v(4, 4),
            "group.streams.num.warmup.replicas",
            AtMost,
            "group.streams.max.warmup.replicas",
        ),
        // The share group's own settings (ShareGroupConfig).
        bound(
            v(4, 3),
            "group.share.max.delivery.count.limit",
            AtLeast,
            "group.share.delivery.count.limit",
        ),
        bound(
            v(4, 3),
            "group.share.delivery.count.limit",
            AtLeast,
            "group.share.min.delivery.count.limit",
        ),
        bound(
            v(4, 3),
            "group.share.max.partition.max.record.locks",
            AtLeast,
            "group.share.partition.max.record.locks",
        ),
        bound(
            v(4, 3),
            "group.share.partition.max.record.locks",
            AtLeast,
            "group.share.min.partition.max.record.locks",
        ),
        bound(
            v(3, 9),
            "group.share.record.lock.duration.ms",
            AtLeast,
            "group.share.min.record.lock.duration.ms",
        ),
        bound(
            v(3, 9),
            "group.share.max.record.lock.duration.ms",
            AtLeast,
            "group.share.record.lock.duration.ms",
        ),
        bound(
            v(4, 1),
            "group.share.max.share.sessions",
            AtLeast,
            "group.share.max.size",
        ),
    ]
};

const fn bound(
    since: KafkaVersion,
    subject: &'static str,
    relation: Relation,
    other: &'static str,
) -> (KafkaVersion, Bound) {
    (
        since,
        Bound {
            subject,
            relation,
            other,
        },
    )
}

/// The bounds the coordinators of release `version` check, in Kafka's order.
fn bounds(version: KafkaVersion) -> impl Iterator<Item = &'static Bound> {
    BOUNDS
        .iter()
        .filter(move |(since, _)| version >= *since)
        .map(|(_, bound)| bound)
}

impl Bound {
    fn holds(&self, subject: i64, other: i64) -> bool {
        match self.relation {
            Relation::AtLeast => subject >= other,
            Relation::AtMost => subject <= other,
            Relation::Below => subject < other,
        }
    }

    /// `ints` holds the integers of the node's bound keys read so far, `indexes` where the
    /// bound's two keys are in it.
    fn check<'a>(
        &self,
        scope: &Scope<'a>,
        ints: &mut [Option<Option<(i64, Effective<'a>)>>],
        indexes: (usize, usize),
    ) -> Option<Diagnostic> {
        let mut int =
            |index: usize, key: &str| *ints[index].get_or_insert_with(|| scope.at.int(key));
        let (subject, subject_value) = int(indexes.0, self.subject)?;
        let (other, other_value) = int(indexes.1, self.other)?;
        if self.holds(subject, other) {
            return None;
        }
        let (subject_key, other_key) = (&self.subject, &self.other);
        let (relation, subject_note, other_note, help) = match self.relation {
            Relation::AtLeast => (
                "is below",
                format!("below {other_key} {other}"),
                format!("above {subject_key} {subject}"),
                format!(
                    "raise {subject_key} to at least {other}, or lower {other_key} to {subject} or less"
                ),
            ),
            Relation::AtMost => (
                "is above",
                format!("above {other_key} {other}"),
                format!("below {subject_key} {subject}"),
                format!(
                    "lower {subject_key} to at most {other}, or raise {other_key} to {subject} or more"
                ),
            ),
            Relation::Below => (
                "is not below",
                format!("not below {other_key} {other}"),
                format!("not above {subject_key} {subject}"),
                format!(
                    "lower {subject_key} below {other} (a heartbeat every third of the session or more often is usual), or raise {other_key} above {subject}"
                ),
            ),
        };
        Some(scope.at.refusal(
            subject_key,
            format!(
                "{} {relation} {}",
                numbered(subject_key, subject, &subject_value),
                numbered(other_key, other, &other_value)
            ),
            pair_labels(
                scope.at.node,
                (&subject_value, subject_note),
                (&other_value, other_note),
            ),
            help,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(version: KafkaVersion) -> Vec<String> {
        bounds(version)
            .map(|bound| format!("{} {:?} {}", bound.subject, bound.relation, bound.other))
            .collect()
    }

    #[test]
    fn bounds_grow_with_the_release() {
        let counts: Vec<usize> = [v(3, 9), v(4, 0), v(4, 1), v(4, 2), v(4, 3), v(4, 4)]
            .into_iter()
            .map(|version| bounds(version).count())
            .collect();
        assert_eq!(counts, [14, 16, 25, 25, 38, 40]);
        let v39 = keys(v(3, 9));
        assert!(!v39.iter().any(|k| k.contains("Below")));
        assert!(!v39.iter().any(|k| k.contains("streams")));
        assert!(
            keys(v(4, 0)).contains(
                &"group.consumer.heartbeat.interval.ms Below group.consumer.session.timeout.ms"
                    .to_string()
            )
        );
    }

    #[test]
    fn every_bound_names_keys_of_its_release() {
        for version in [v(3, 9), v(4, 0), v(4, 1), v(4, 2), v(4, 3), v(4, 4)] {
            for bound in bounds(version) {
                for key in [&bound.subject, &bound.other] {
                    assert!(
                        catalog::spec(key, version).is_some(),
                        "{key} is not a key of Kafka {version}"
                    );
                }
            }
        }
    }

    #[test]
    fn assignor_entries_kafka_cannot_use() {
        let consumer = &ASSIGNOR_LISTS[0];
        let share = &ASSIGNOR_LISTS[1];
        // Names arrived in 4.0: 3.9 takes them for classes.
        assert!(unusable_assignor(consumer, "uniform", v(3, 9)).is_some());
        assert!(unusable_assignor(consumer, "uniform", v(4, 0)).is_none());
        assert!(
            unusable_assignor(
                consumer,
                "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
                v(3, 9)
            )
            .is_none()
        );
        assert!(
            unusable_assignor(
                consumer,
                "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
                v(4, 4)
            )
            .is_some()
        );
        assert!(unusable_assignor(consumer, "java.lang.String", v(4, 4)).is_some());
        assert!(unusable_assignor(consumer, "", v(4, 1)).is_some());
        assert!(unusable_assignor(consumer, "com.example.MyAssignor", v(4, 4)).is_none());
        assert!(unusable_assignor(share, "uniform", v(4, 1)).is_some());
        assert!(unusable_assignor(share, "simple", v(4, 1)).is_none());
        assert!(
            unusable_assignor(
                share,
                "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
                v(4, 4)
            )
            .is_some()
        );
    }
}
