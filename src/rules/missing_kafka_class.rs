//! `missing-kafka-class`: a key the node loads at start-up names a class in Kafka's own
//! packages that the release does not ship (`kafka.security.auth.SimpleAclAuthorizer` after
//! 3.0, `kafka.security.authorizer.AclAuthorizer` from 4.0). Which classes each release ships
//! comes from its jars (`catalog/`); a name outside Kafka's packages is a plugin and is not
//! judged.

use super::refusal::NodeCheck;
use super::startup_class_keys::{Place, class_names, is_class_key, loads, startup_key};
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::classes::{self, ClassName, ClassReleases};
use crate::catalog::value::Parsed;
use crate::catalog::{self, KafkaVersion};
use crate::cluster::{Cluster, Line, Mode};
use crate::diagnostic::{Diagnostic, Label};

pub const RULE: Rule = Rule {
    name: "missing-kafka-class",
    severity: crate::diagnostic::Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a key loaded at start-up names a class in Kafka's own packages that the release does not ship (kafka.security.auth.SimpleAclAuthorizer from 3.0, AclAuthorizer from 4.0): the node exits",
    check: Check::Files(check),
};

/// Kafka's own replacements for the authorizers it removed: Kafka 3.0's upgrade notes
/// (docs/upgrade.html: "The Scala Authorizer, SimpleAclAuthorizer and related classes have been
/// removed. Please use the Java Authorizer and AclAuthorizer instead"), and its security docs
/// (docs/security.html at 3.9.0-rc3: AclAuthorizer for ZooKeeper-based clusters, StandardAuthorizer
/// for KRaft clusters).
const REMOVED_AUTHORIZERS: &[&str] = &[
    "kafka.security.auth.SimpleAclAuthorizer",
    "kafka.security.authorizer.AclAuthorizer",
];
const ZOOKEEPER_AUTHORIZER: &str = "kafka.security.authorizer.AclAuthorizer";
const KRAFT_AUTHORIZER: &str = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    // An overlay's lines are merged into the nodes (a rack overlay with the replica selector):
    // Kafka loads its classes as it loads a node's own.
    let nodes = cluster.nodes.iter().map(|node| (node, Place::Node));
    let overlays = cluster.overlays.iter().map(|overlay| {
        let has_brokers = cluster.brokers().next().is_some();
        (overlay, Place::Overlay { has_brokers })
    });
    for (node, place) in nodes.chain(overlays) {
        let at = NodeCheck::new(&RULE, context, node, version);
        // One pass over the node's lines: a few of them name classes.
        for line in context.lines(node) {
            let key = line.key();
            if is_class_key(key, version) {
                // A name ConfigDef cannot parse (an empty one among them) is invalid-value's.
                let Some((Parsed::Text(class), _)) = context.parsed_value(node, key, version)
                else {
                    continue;
                };
                let range = 0..line.value().len();
                diagnostics.extend(judge(&at, line, &class, range, Loading::ConfigDef));
                continue;
            }
            let Some(startup) = startup_key(key) else {
                continue;
            };
            if !loads(context, node, place, version, startup) {
                continue;
            }
            for (class, range) in class_names(&line, startup, version) {
                if class.is_empty() && !(startup.empty_loaded && startup.list.is_none()) {
                    continue;
                }
                diagnostics.extend(judge(&at, line, class, range, Loading::Startup(place)));
            }
        }
    }
    diagnostics
}

/// When the class is loaded, which says how the node fails.
#[derive(Clone, Copy)]
enum Loading {
    /// While `KafkaConfig` parses the key (a CLASS key): `Class X could not be found`.
    ConfigDef,
    /// When the server that uses it starts, on the node or the nodes an overlay is merged into.
    Startup(Place),
}

/// A finding when `class` is in Kafka's packages and the release does not ship it.
fn judge(
    at: &NodeCheck,
    line: Line,
    class: &str,
    range: std::ops::Range<usize>,
    loading: Loading,
) -> Option<Diagnostic> {
    let version = at.version;
    if class.is_empty() || !class.contains('.') {
        return judge_unqualified(at, line, class, range);
    }
    let ClassName::Kafka(releases) = classes::class_name(class) else {
        return None;
    };
    if releases.ships(version) {
        return None;
    }
    let key = line.key();
    let (why, label) = match (
        releases.removed_before(version),
        releases.added_after(version),
    ) {
        (Some(removed), _) => (
            format!("removed in Kafka {removed}"),
            format!("removed in Kafka {removed}"),
        ),
        (None, Some(added)) => (
            format!("a class of Kafka {added} on"),
            format!("not in Kafka {version}: added in {added}"),
        ),
        (None, None) => (
            format!("a class no release since {} has", first_release()),
            format!("no such class in Kafka {version}"),
        ),
    };
    // When Kafka loads the class (while it reads its configuration, or later at start-up) is
    // the rule doc's; where matters when an overlay brings the line to other nodes.
    let place = match loading {
        Loading::ConfigDef | Loading::Startup(Place::Node) => "",
        Loading::Startup(Place::Overlay { .. }) => " (on each node it is merged into)",
    };
    Some(at.refusal(
        key,
        format!("{key} names {}, {why}{place}", quoted(key, class)),
        vec![Label {
            file: line.file,
            span: at.context.value_part_span(line, range),
            message: label,
        }],
        help(at, key, class, releases),
    ))
}

/// A finding for an empty name, which Kafka looks up as a class named "", and for a name
/// without a package that is the simple name of one of Kafka's classes: the class loader looks
/// it up in the default package, where no class of Kafka's is (`ClassNotFoundException`). Any
/// other name without a package could be a plugin in the default package, which Java allows:
/// kafkalint cannot see the classpath and says nothing of it.
fn judge_unqualified(
    at: &NodeCheck,
    line: Line,
    class: &str,
    range: std::ops::Range<usize>,
) -> Option<Diagnostic> {
    let key = line.key();
    let version = at.version;
    let (why, label, help) = if class.is_empty() {
        let help = match catalog::default_value(key, version).filter(|d| !d.is_empty()) {
            Some(default) => format!("remove {key} to use Kafka's default, {default}"),
            None => format!("remove {key}, or name a class"),
        };
        (
            "is empty: Kafka looks up a class named \"\"".to_string(),
            "no class has an empty name".to_string(),
            help,
        )
    } else {
        if !classes::is_simple_name_of_kafka_class(class) {
            return None;
        }
        let full = classes::with_simple_name(class, version);
        let help = match full.as_slice() {
            [] => format!(
                "Kafka {version} ships no class named {class}: name a class it ships, with its package"
            ),
            [one] => format!("write the class's full name: {one}"),
            several => format!(
                "write the class's full name, with its package: {}",
                several.join(" or ")
            ),
        };
        (
            format!(
                "names {} without its package: no class has that name",
                quoted(key, class)
            ),
            "a class name needs its package".to_string(),
            help,
        )
    };
    Some(at.refusal(
        key,
        format!("{key} {why}"),
        vec![Label {
            file: line.file,
            span: at.context.value_part_span(line, range),
            message: label,
        }],
        help,
    ))
}

fn first_release() -> KafkaVersion {
    catalog::VERSIONS[0]
}

/// What to name instead: Kafka's replacement for a removed authorizer, a class of the same
/// package with a near name, or the key's default.
fn help(at: &NodeCheck, key: &str, class: &str, releases: ClassReleases) -> String {
    let version = at.version;
    let ships = |name: &str| matches!(classes::class_name(name), ClassName::Kafka(releases) if releases.ships(version));
    if REMOVED_AUTHORIZERS.contains(&class) {
        let zookeeper = at.node.mode == Mode::ZooKeeper && ships(ZOOKEEPER_AUTHORIZER);
        let kraft = at.node.mode != Mode::ZooKeeper && ships(KRAFT_AUTHORIZER);
        if zookeeper {
            return format!(
                "use Kafka's authorizer for ZooKeeper mode: {key}={ZOOKEEPER_AUTHORIZER} (it reads the same ACLs)"
            );
        }
        if kraft {
            return format!(
                "use Kafka's authorizer for KRaft: {key}={KRAFT_AUTHORIZER} on every broker and controller"
            );
        }
    }
    if let Some(near) = classes::nearest_shipped(class, version) {
        return format!("did you mean {near}?");
    }
    if let Some(default) = catalog::default_value(key, version).filter(|d| !d.is_empty()) {
        return format!("remove {key} to use Kafka's default, {default}");
    }
    match releases.added_after(version) {
        Some(added) if releases.removed_before(version).is_none() => {
            format!(
                "{} comes with Kafka {added}: upgrade first, or remove {key}",
                quoted(key, class)
            )
        }
        _ => format!("name a class Kafka {version} ships, or remove {key}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ConfigType;
    use crate::cluster::setting::{Split, split};

    #[test]
    fn every_default_class_ships_in_its_release() {
        for version in catalog::VERSIONS {
            for (key, spec) in catalog::keys(*version) {
                let judged = spec.config_type == ConfigType::Class || startup_key(key).is_some();
                let catalog::Default::Value(default) = spec.default else {
                    continue;
                };
                if !judged {
                    continue;
                }
                for class in split(default, Split::ConfigList) {
                    if let ClassName::Kafka(releases) = classes::class_name(class.text) {
                        assert!(
                            releases.ships(*version),
                            "{key}'s default {} is not in Kafka {version}",
                            class.text
                        );
                    }
                }
            }
        }
    }
}
