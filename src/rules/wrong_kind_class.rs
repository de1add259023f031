//! `wrong-kind-class`: a key whose class a node creates at start-up names a class Kafka ships
//! that is not of the type the key requires (`metric.reporters=kafka.metrics.
//! KafkaCSVMetricsReporter`, a `KafkaMetricsReporter` and no `MetricsReporter`), or that is of
//! that type but an interface or an abstract class. Which of Kafka's classes are of which
//! type, per release, comes from its jars (`catalog/`, implementations); a class outside
//! Kafka's packages is a plugin and is not judged.

use super::group_coordinator_config::built_in_assignors;
use super::refusal::NodeCheck;
use super::startup_class_keys::{
    Place, StartupClassKey, class_names, is_class_key, loads, startup_key,
};
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::catalog::classes::{self, Kind};
use crate::catalog::value::Parsed;
use crate::cluster::{Cluster, Line, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};
use std::ops::Range;

pub const RULE: Rule = Rule {
    name: "wrong-kind-class",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key whose class the node creates at start-up names a class Kafka ships that is not of the type the key requires (metric.reporters=kafka.metrics.KafkaCSVMetricsReporter): the node exits",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    let has_brokers = cluster.brokers().next().is_some();
    let nodes = cluster.nodes.iter().map(|node| (node, Place::Node));
    let overlays = cluster
        .overlays
        .iter()
        .map(|overlay| (overlay, Place::Overlay { has_brokers }));
    for (node, place) in nodes.chain(overlays) {
        let at = NodeCheck::new(&RULE, context, node, version);
        for line in context.lines(node) {
            let Some(startup) = startup_key(line.key()) else {
                continue;
            };
            if !loads(context, node, place, version, startup) {
                continue;
            }
            for (class, range) in names(context, node, &line, startup, version) {
                diagnostics.extend(judge(&at, line, startup, &class, range, place));
            }
        }
    }
    diagnostics
}

/// The class names of the line: for a CLASS key the name ConfigDef parsed (one it cannot
/// parse is invalid-value's), else the names Kafka splits the value into.
fn names(
    context: &Context,
    node: &Node,
    line: &Line,
    startup: &StartupClassKey,
    version: KafkaVersion,
) -> Vec<(String, Range<usize>)> {
    if is_class_key(line.key(), version) {
        return match context.parsed_value(node, line.key(), version) {
            Some((Parsed::Text(class), _)) => vec![(class, 0..line.value().len())],
            _ => Vec::new(),
        };
    }
    class_names(line, startup, version)
        .into_iter()
        .map(|(class, range)| (class.to_string(), range))
        .collect()
}

/// A finding when `class` is one of Kafka's classes of the release that Kafka cannot use for
/// the key.
fn judge(
    at: &NodeCheck,
    line: Line,
    startup: &StartupClassKey,
    class: &str,
    range: Range<usize>,
    place: Place,
) -> Option<Diagnostic> {
    let version = at.version;
    let kind = classes::kind(class, startup.requires, version)?;
    let key = line.key();
    let required = required_name(startup, version);
    let (why, label) = match kind {
        Kind::Implements => return None,
        // The type's full name is the help's, to keep the message short.
        Kind::Other => (
            format!("not {}", a_or_an(&simple_names(&required))),
            format!("not {}", a_or_an(&simple_names(&required))),
        ),
        Kind::NotInstantiable => (
            "an interface or abstract class".to_string(),
            "not a class Kafka can create".to_string(),
        ),
    };
    let place = match place {
        Place::Node => "",
        Place::Overlay { .. } => " (on each node it is merged into)",
    };
    Some(at.refusal(
        key,
        format!("{key} names {}, {why}{place}", quoted(key, class)),
        vec![Label {
            file: line.file,
            span: at.context.value_part_span(line, range),
            message: label,
        }],
        help(startup, key, version),
    ))
}

/// The type the key requires in `version`, as Kafka names it (the first of the table's that
/// the release ships).
fn required_name(startup: &StartupClassKey, version: KafkaVersion) -> String {
    let ships = |name: &str| matches!(classes::class_name(name), classes::ClassName::Kafka(releases) if releases.ships(version));
    let shipped: Vec<&str> = startup
        .requires
        .iter()
        .copied()
        .filter(|r| ships(r))
        .collect();
    shipped.join(" or ")
}

fn simple(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// `a TaskAssignor`, `an Authorizer`.
fn a_or_an(name: &str) -> String {
    match name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U') => format!("an {name}"),
        _ => format!("a {name}"),
    }
}

/// `TaskAssignor`, or `A or B`: the required types without their packages.
fn simple_names(required: &str) -> String {
    required
        .split(" or ")
        .map(simple)
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What to name instead: the built-in assignors of an assignor list, else the classes of
/// Kafka's own of the required type, when there are few.
fn help(startup: &StartupClassKey, key: &str, version: KafkaVersion) -> String {
    let ours = classes::concrete_implementations(startup.requires, version);
    let required = required_name(startup, version);
    let built_in = built_in_assignors(key, version);
    if !built_in.is_empty() {
        return format!(
            "name Kafka's built-in assignors ({}) or a class that implements {required}, or remove {key}",
            built_in.join(", ")
        );
    }
    match ours.as_slice() {
        [] => format!("name a class that implements {required}, or remove {key}"),
        [one] => {
            format!("name a class that implements {required} (Kafka's own: {one}), or remove {key}")
        }
        several if several.len() <= 3 => format!(
            "name a class that implements {required} (Kafka's own: {}), or remove {key}",
            several.join(", ")
        ),
        _ => format!("name a class that implements {required}, or remove {key}"),
    }
}
