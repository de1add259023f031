//! `missing-kafka-class`: a key the node loads at start-up names a class in Kafka's own
//! packages that the release does not ship (`kafka.security.auth.SimpleAclAuthorizer` after
//! 3.0, `kafka.security.authorizer.AclAuthorizer` from 4.0). Which classes each release ships
//! comes from its jars (`catalog/`); a name outside Kafka's packages is a plugin and is not
//! judged.

use super::refusal::NodeCheck;
use super::support::{is_placeholder, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::classes::{self, ClassName, ClassReleases};
use crate::catalog::value::Parsed;
use crate::catalog::{self, ConfigType, KafkaVersion};
use crate::cluster::setting::{Split, config_list_split, split};
use crate::cluster::{Cluster, Line, Mode, Node};
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

/// Which nodes load a key's class at start-up.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Loaders {
    /// Every broker and controller.
    EveryNode,
    /// Brokers only (ZooKeeper brokers, KRaft brokers and combined nodes).
    Brokers,
    /// Brokers with tiered storage on (`remote.log.storage.system.enable=true`) that load the
    /// class from the broker's own classpath (no `<key>.path`-style class path set).
    TieredStorageBrokers { class_path_key: &'static str },
}

/// A key outside ConfigDef's CLASS type whose class a node loads while it starts. Every key
/// of type CLASS is judged too: ConfigDef's `parseType` loads it (`Class.forName`) as
/// `KafkaConfig` is built, on every node.
struct StartupClassKey {
    key: &'static str,
    /// How the value becomes class names; `None` for one name.
    list: Option<Split>,
    loaders: Loaders,
    /// The first release that loads it at start-up.
    from: KafkaVersion,
}

/// Read from Kafka's source at 3.9.0-rc3 (apache/kafka) and from the 4.4.0 jars' bytecode:
/// - `authorizer.class.name`: `KafkaConfig.createNewAuthorizer` (core/src/main/scala/kafka/
///   server/KafkaConfig.scala) calls `AuthorizerUtils.createAuthorizer` (`Utils.newInstance`),
///   from `BrokerServer.startup`, `ControllerServer.startup` and `KafkaServer.startup`;
/// - `replica.selector.class`: `ReplicaManager.createReplicaSelector` (`CoreUtils.createObject`)
///   as the broker's `ReplicaManager` is built (core/src/main/scala/kafka/server/
///   ReplicaManager.scala);
/// - `metric.reporters`: `DynamicMetricReporterState` creates them with
///   `getConfiguredInstances` when `addReconfigurables` runs in `BrokerServer.startup` and
///   `ControllerServer.startup` (core/src/main/scala/kafka/server/DynamicBrokerConfig.scala);
/// - `kafka.metrics.reporters`: `KafkaMetricsReporter.startReporters` (`Csv.parseCsv`, then
///   `CoreUtils.createObject`) in `KafkaRaftServer`'s constructor and `KafkaServer.startup`
///   (4.4: `SharedServer`'s constructor);
/// - `remote.log.metadata.manager.class.name`: `RemoteLogManager`'s constructor
///   (core/src/main/java/kafka/log/remote/RemoteLogManager.java; in 4.4
///   `org.apache.kafka.server.log.remote.storage.RemoteLogManager` of the storage module), which
///   `BrokerServer` builds only when `remote.log.storage.system.enable` is true; with
///   `remote.log.metadata.manager.class.path` set the class comes from that path instead.
///
/// Not judged: `remote.log.storage.manager.class.name`, whose only class in Kafka's packages
/// (`LocalTieredStorage`) ships in the storage module's test jar, which Kafka's tiered storage
/// quick start has people copy into `libs/`.
const STARTUP_CLASS_KEYS: &[StartupClassKey] = &[
    StartupClassKey {
        key: "authorizer.class.name",
        list: None,
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
    },
    StartupClassKey {
        key: "replica.selector.class",
        list: None,
        loaders: Loaders::Brokers,
        from: KafkaVersion::new(2, 8),
    },
    StartupClassKey {
        key: "metric.reporters",
        list: Some(Split::ConfigList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
    },
    StartupClassKey {
        key: "kafka.metrics.reporters",
        list: Some(Split::CsvList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
    },
    StartupClassKey {
        key: "remote.log.metadata.manager.class.name",
        list: None,
        loaders: Loaders::TieredStorageBrokers {
            class_path_key: "remote.log.metadata.manager.class.path",
        },
        from: KafkaVersion::new(3, 6),
    },
];

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
            if catalog::spec(key, version).is_some_and(|spec| spec.config_type == ConfigType::Class)
            {
                // A name ConfigDef cannot parse is invalid-value's.
                let Some((Parsed::Text(class), _)) = context.parsed_value(node, key, version)
                else {
                    continue;
                };
                let range = whole_value(&line);
                diagnostics.extend(judge(&at, line, &class, range, Loading::ConfigDef));
                continue;
            }
            let Some(startup) = STARTUP_CLASS_KEYS.iter().find(|k| k.key == key) else {
                continue;
            };
            if version < startup.from
                || is_placeholder(line.value())
                || !loads(context, node, place, version, startup.loaders)
            {
                continue;
            }
            let names = match startup.list {
                // ConfigDef's lists drop repeats from 4.2, as it splits them.
                Some(Split::ConfigList) => split(line.value(), config_list_split(key, version))
                    .into_iter()
                    .map(|item| (item.text, item.range()))
                    .collect(),
                Some(list) => split(line.value(), list)
                    .into_iter()
                    .map(|item| (item.text, item.range()))
                    .collect(),
                None => vec![(catalog::value::java_trim(line.value()), whole_value(&line))],
            };
            for (class, range) in names {
                if class.is_empty() || is_placeholder(class) {
                    continue;
                }
                diagnostics.extend(judge(&at, line, class, range, Loading::Startup(place)));
            }
        }
    }
    diagnostics
}

/// The whole value as a range of the line's value.
fn whole_value(line: &Line) -> std::ops::Range<usize> {
    0..line.value().len()
}

/// Where the lines judged sit.
#[derive(Clone, Copy)]
enum Place {
    /// In a node's own file.
    Node,
    /// In an overlay, merged into nodes kafkalint cannot name: a key loaded by brokers counts
    /// when the cluster has brokers; tiered storage, whose switch may sit in the node files, is
    /// not judged there.
    Overlay { has_brokers: bool },
}

/// Whether the node (or the nodes an overlay is merged into) loads a key's class at start-up.
fn loads(
    context: &Context,
    node: &Node,
    place: Place,
    version: KafkaVersion,
    loaders: Loaders,
) -> bool {
    match (loaders, place) {
        (Loaders::EveryNode, _) => true,
        (Loaders::Brokers, Place::Node) => node.roles.broker,
        (Loaders::Brokers, Place::Overlay { has_brokers }) => has_brokers,
        (Loaders::TieredStorageBrokers { .. }, Place::Overlay { .. }) => false,
        (Loaders::TieredStorageBrokers { class_path_key }, Place::Node) => {
            let enabled = matches!(
                context.parsed_value(node, "remote.log.storage.system.enable", version),
                Some((Parsed::Boolean(true), _))
            );
            let own_class_path = context
                .line(node, class_path_key)
                .is_some_and(|line| !catalog::value::java_trim(line.value()).is_empty());
            node.roles.broker && enabled && !own_class_path
        }
    }
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
            format!(
                "a class no release from {} to {} has",
                first_release(),
                catalog::KafkaVersion::newest()
            ),
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

    #[test]
    fn every_default_class_ships_in_its_release() {
        for version in catalog::VERSIONS {
            for (key, spec) in catalog::keys(*version) {
                let judged = spec.config_type == ConfigType::Class
                    || STARTUP_CLASS_KEYS.iter().any(|k| k.key == key);
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

    #[test]
    fn the_startup_keys_exist_where_they_are_judged() {
        for startup in STARTUP_CLASS_KEYS {
            for version in catalog::VERSIONS.iter().filter(|v| **v >= startup.from) {
                let spec = catalog::spec(startup.key, *version)
                    .unwrap_or_else(|| panic!("{} is no key of Kafka {version}", startup.key));
                assert_ne!(spec.config_type, ConfigType::Class, "{}", startup.key);
            }
        }
    }
}
