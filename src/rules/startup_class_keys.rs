//! The keys whose class a node creates while it starts, which nodes create it, from which
//! release, and what type the class must be: shared by `missing-kafka-class` (the class must
//! exist) and `wrong-kind-class` (it must be of the type the key requires).

use super::Context;
use super::group_coordinator_config::speaks_for_assignor;
use super::support::is_placeholder;
use crate::catalog::value::{Parsed, java_trim};
use crate::catalog::{self, ConfigType, KafkaVersion};
use crate::cluster::setting::{Split, config_list_split, split};
use crate::cluster::{Line, Mode, Node};
use std::ops::Range;

/// Which nodes create a key's class at start-up.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Loaders {
    /// Every broker and controller.
    EveryNode,
    /// Brokers only (ZooKeeper brokers, KRaft brokers and combined nodes).
    Brokers,
    /// Where topics are created and configs altered: ZooKeeper brokers, and KRaft controllers
    /// from 3.1.
    PolicyHosts,
    /// Brokers with tiered storage on (`remote.log.storage.system.enable=true`) that load the
    /// class from the broker's own classpath (no `<key>.path`-style class path set).
    TieredStorageBrokers { class_path_key: &'static str },
}

/// A key whose class a node loads while it starts. A key of ConfigDef's CLASS type is loaded
/// (`Class.forName`) by ConfigDef's `parseType` on every node as `KafkaConfig` is built, so
/// every CLASS key must name a class that exists (`missing-kafka-class` judges them all, in the
/// table or not); `loaders` says where an instance is created, where the type is checked.
pub struct StartupClassKey {
    pub key: &'static str,
    /// How the value becomes class names; `None` for one name.
    pub list: Option<Split>,
    pub loaders: Loaders,
    /// The first release that creates it at start-up.
    pub from: KafkaVersion,
    /// The types the class must have, any of them (full names): the type of the call that
    /// creates it. A type a release lacks is not required there.
    pub requires: &'static [&'static str],
    /// Whether an empty value names a class Kafka looks up (`Option(getString(key))` is
    /// `Some("")`), rather than nothing.
    pub empty_loaded: bool,
    /// Whether the key is a group coordinator's assignor list, whose entries may be the names
    /// of Kafka's built-in assignors (`uniform`) rather than classes: `group-coordinator-config`
    /// knows those names per release, and judges them and the entries it refuses itself (names
    /// without a package, Kafka's own assignors in the wrong list, JDK classes).
    pub assignor_list: bool,
}

const AUTHORIZER: &str = "org.apache.kafka.server.authorizer.Authorizer";
/// Kafka 2.8's `AuthorizerUtils.createAuthorizer` also takes the Scala authorizer of old.
const SCALA_AUTHORIZER: &str = "kafka.security.auth.Authorizer";

/// Read from Kafka's source (apache/kafka at 2.8.2, 3.0.0, 3.1.2, 3.5.2, 3.6.0, 3.8.0,
/// 3.9.0-rc3) and from the 4.4.0 jars' bytecode:
/// - `authorizer.class.name`: `KafkaConfig.createNewAuthorizer` (core/src/main/scala/kafka/
///   server/KafkaConfig.scala) calls `AuthorizerUtils.createAuthorizer`, from
///   `BrokerServer.startup`, `ControllerServer.startup` and `KafkaServer.startup`:
///   `Utils.newInstance(className, classOf[Authorizer])` from 3.0 (`loadClass(...).asSubclass`,
///   a ClassCastException), and at 2.8.2 `Utils.newInstance(className, classOf[Object])`
///   matched against both authorizer types, else a ConfigException "Authorizer does not
///   implement ..." (core/src/main/scala/kafka/security/authorizer/AuthorizerUtils.scala);
/// - `replica.selector.class`: `ReplicaManager.createReplicaSelector`
///   (`CoreUtils.createObject[ReplicaSelector]`, a ClassCastException) as the broker's
///   `ReplicaManager` is built (core/src/main/scala/kafka/server/ReplicaManager.scala);
/// - `metric.reporters`: `DynamicMetricReporterState` creates them with
///   `getConfiguredInstances(..., classOf[MetricsReporter])` ("X is not an instance of
///   org.apache.kafka.common.metrics.MetricsReporter") when `addReconfigurables` runs in
///   `BrokerServer.startup` and `ControllerServer.startup`
///   (core/src/main/scala/kafka/server/DynamicBrokerConfig.scala);
/// - `kafka.metrics.reporters`: `KafkaMetricsReporter.startReporters` (`Csv.parseCsv`, then
///   `CoreUtils.createObject[KafkaMetricsReporter]`) in `KafkaRaftServer`'s constructor and
///   `KafkaServer.startup` (4.4: `SharedServer`'s constructor);
/// - `client.quota.callback.class`: `QuotaFactory.instantiate`
///   (`getConfiguredInstance(..., classOf[ClientQuotaCallback])`), called by `BrokerServer`,
///   `ControllerServer` and `KafkaServer` (core/src/main/scala/kafka/server/QuotaFactory.scala);
/// - `create.topic.policy.class.name`, `alter.config.policy.class.name`:
///   `getConfiguredInstance(..., classOf[CreateTopicPolicy])` (`AlterConfigPolicy`) in
///   `ZkAdminManager` on ZooKeeper brokers and, from 3.1.2, in `ControllerServer.startup`
///   (core/src/main/scala/kafka/server/ControllerServer.scala; not at 3.0.0);
/// - `remote.log.metadata.manager.class.name`: `RemoteLogManager`'s constructor
///   (core/src/main/java/kafka/log/remote/RemoteLogManager.java `createDelegate`, a cast to
///   `RemoteLogMetadataManager`; in 4.4 `org.apache.kafka.server.log.remote.storage.
///   RemoteLogManager` of the storage module), which `BrokerServer` builds only when
///   `remote.log.storage.system.enable` is true; with
///   `remote.log.metadata.manager.class.path` set the class comes from that path instead;
/// - the group coordinator's assignor lists, created as `KafkaConfig` is built, on every node
///   of every mode: `group.consumer.assignors` from 3.6, `getConfiguredInstances(...,
///   classOf[PartitionAssignor])` in `KafkaConfig`'s body at 3.6.2 and 3.7.0
///   (`org.apache.kafka.coordinator.group.assignor`; at 3.5.2 it is only `getList`), the
///   `ConsumerGroupPartitionAssignor` of `...group.api.assignor` at 3.8.0, from 3.9 in the
///   constructor of the `GroupCoordinatorConfig` that `KafkaConfig` builds
///   (group-coordinator/src/main/java/org/apache/kafka/coordinator/group/
///   GroupCoordinatorConfig.java at 3.9.0-rc3: a ClassCastException from `Utils.newInstance`);
///   from 4.0 (the 4.0.2 to 4.4.0 jars' bytecode) `GroupCoordinatorConfig.
///   consumerGroupAssignors` takes a built-in assignor's name (`uniform`, `range`) first and
///   else `Utils.newInstance(name, ConsumerGroupPartitionAssignor.class)`, a ConfigException
///   "Class is not an instance of ..."; `group.share.assignors` from 4.1 (`simple`, else a
///   `ShareGroupPartitionAssignor`) and `group.streams.assignors` from 4.4 (`sticky`, else a
///   `TaskAssignor` of `...group.api.streams.assignor`) the same way.
///
/// Not here: `principal.builder.class` (`principal-builder-class` judges its start-up check,
/// KafkaConfig's `KafkaPrincipalSerde` requirement; the principal builder itself is created per
/// connection), `remote.log.storage.manager.class.name`, whose only class in Kafka's packages
/// (`LocalTieredStorage`) ships in the storage module's test jar, which Kafka's tiered storage
/// quick start has people copy into `libs/`, the SASL and SSL classes (created per listener
/// and mechanism, often under `listener.name.` prefixes) and the config providers.
pub const STARTUP_CLASS_KEYS: &[StartupClassKey] = &[
    StartupClassKey {
        key: "authorizer.class.name",
        list: None,
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
        requires: &[AUTHORIZER, SCALA_AUTHORIZER],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "replica.selector.class",
        list: None,
        loaders: Loaders::Brokers,
        from: KafkaVersion::new(2, 8),
        requires: &["org.apache.kafka.common.replica.ReplicaSelector"],
        // `KafkaConfig.replicaSelectorClassName` is `Option(getString(...))` (2.8.2 to 4.4):
        // an empty value is a class named "", which `createObject` cannot find.
        empty_loaded: true,
        assignor_list: false,
    },
    StartupClassKey {
        key: "metric.reporters",
        list: Some(Split::ConfigList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
        requires: &["org.apache.kafka.common.metrics.MetricsReporter"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "kafka.metrics.reporters",
        list: Some(Split::CsvList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
        requires: &["kafka.metrics.KafkaMetricsReporter"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "client.quota.callback.class",
        list: None,
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(2, 8),
        requires: &["org.apache.kafka.server.quota.ClientQuotaCallback"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "create.topic.policy.class.name",
        list: None,
        loaders: Loaders::PolicyHosts,
        from: KafkaVersion::new(2, 8),
        requires: &["org.apache.kafka.server.policy.CreateTopicPolicy"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "alter.config.policy.class.name",
        list: None,
        loaders: Loaders::PolicyHosts,
        from: KafkaVersion::new(2, 8),
        requires: &["org.apache.kafka.server.policy.AlterConfigPolicy"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "remote.log.metadata.manager.class.name",
        list: None,
        loaders: Loaders::TieredStorageBrokers {
            class_path_key: "remote.log.metadata.manager.class.path",
        },
        from: KafkaVersion::new(3, 6),
        requires: &["org.apache.kafka.server.log.remote.storage.RemoteLogMetadataManager"],
        empty_loaded: false,
        assignor_list: false,
    },
    StartupClassKey {
        key: "group.consumer.assignors",
        list: Some(Split::ConfigList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(3, 6),
        // The interface moved to the group coordinator's API module in 3.8.
        requires: &[
            "org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor",
            "org.apache.kafka.coordinator.group.assignor.PartitionAssignor",
        ],
        empty_loaded: false,
        assignor_list: true,
    },
    StartupClassKey {
        key: "group.share.assignors",
        list: Some(Split::ConfigList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(4, 1),
        requires: &["org.apache.kafka.coordinator.group.api.assignor.ShareGroupPartitionAssignor"],
        empty_loaded: false,
        assignor_list: true,
    },
    StartupClassKey {
        key: "group.streams.assignors",
        list: Some(Split::ConfigList),
        loaders: Loaders::EveryNode,
        from: KafkaVersion::new(4, 4),
        requires: &["org.apache.kafka.coordinator.group.api.streams.assignor.TaskAssignor"],
        empty_loaded: false,
        assignor_list: true,
    },
];

/// The first release whose KRaft controllers create the topic policies.
const KRAFT_POLICIES_FROM: KafkaVersion = KafkaVersion::new(3, 1);

/// The table's entry for `key`.
pub fn startup_key(key: &str) -> Option<&'static StartupClassKey> {
    STARTUP_CLASS_KEYS.iter().find(|startup| startup.key == key)
}

/// Where the lines judged sit.
#[derive(Clone, Copy)]
pub enum Place {
    /// In a node's own file.
    Node,
    /// In an overlay, merged into nodes kafkalint cannot name: a key loaded by brokers counts
    /// when the cluster has brokers; tiered storage, whose switch may sit in the node files,
    /// and the policies, loaded on controllers or brokers by mode, are not judged there.
    Overlay { has_brokers: bool },
}

/// Whether the node (or the nodes an overlay is merged into) creates the key's class at
/// start-up in release `version`.
pub fn loads(
    context: &Context,
    node: &Node,
    place: Place,
    version: KafkaVersion,
    startup: &StartupClassKey,
) -> bool {
    if version < startup.from {
        return false;
    }
    match (startup.loaders, place) {
        (Loaders::EveryNode, _) => true,
        (Loaders::Brokers, Place::Node) => node.roles.broker,
        (Loaders::Brokers, Place::Overlay { has_brokers }) => has_brokers,
        (Loaders::PolicyHosts | Loaders::TieredStorageBrokers { .. }, Place::Overlay { .. }) => {
            false
        }
        (Loaders::PolicyHosts, Place::Node) => match node.mode {
            Mode::ZooKeeper => node.roles.broker,
            Mode::KRaft => node.roles.controller && version >= KRAFT_POLICIES_FROM,
            Mode::Unknown => false,
        },
        (Loaders::TieredStorageBrokers { class_path_key }, Place::Node) => {
            let enabled = matches!(
                context.parsed_value(node, "remote.log.storage.system.enable", version),
                Some((Parsed::Boolean(true), _))
            );
            let own_class_path = context
                .line(node, class_path_key)
                .is_some_and(|line| !java_trim(line.value()).is_empty());
            node.roles.broker && enabled && !own_class_path
        }
    }
}

/// The class names a line of `startup`'s key holds, each with its range in the value; empty
/// names are kept (Kafka looks a class named "" up), placeholders are not, nor the entries of
/// an assignor list that are built-in names or that `group-coordinator-config` refuses.
pub fn class_names<'a>(
    line: &Line<'a>,
    startup: &StartupClassKey,
    version: KafkaVersion,
) -> Vec<(&'a str, Range<usize>)> {
    if is_placeholder(line.value()) {
        return Vec::new();
    }
    let names: Vec<(&str, Range<usize>)> = match startup.list {
        // ConfigDef's lists drop repeats from 4.2, as it splits them.
        Some(Split::ConfigList) => split(line.value(), config_list_split(line.key(), version))
            .into_iter()
            .map(|item| (item.text, item.range()))
            .collect(),
        Some(list) => split(line.value(), list)
            .into_iter()
            .map(|item| (item.text, item.range()))
            .collect(),
        None => vec![(java_trim(line.value()), 0..line.value().len())],
    };
    names
        .into_iter()
        .filter(|(name, _)| !is_placeholder(name))
        .filter(|(name, _)| {
            !(startup.assignor_list && speaks_for_assignor(startup.key, name, version))
        })
        .collect()
}

/// Whether `key` is of ConfigDef's CLASS type in release `version`.
pub fn is_class_key(key: &str, version: KafkaVersion) -> bool {
    catalog::spec(key, version).is_some_and(|spec| spec.config_type == ConfigType::Class)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::classes::{ClassName, class_name};

    #[test]
    fn the_startup_keys_exist_where_they_are_judged() {
        for startup in STARTUP_CLASS_KEYS {
            for version in catalog::VERSIONS.iter().filter(|v| **v >= startup.from) {
                assert!(
                    catalog::spec(startup.key, *version).is_some(),
                    "{} is no key of Kafka {version}",
                    startup.key
                );
            }
        }
    }

    #[test]
    fn every_required_type_is_a_kafka_class_of_some_release() {
        for startup in STARTUP_CLASS_KEYS {
            for required in startup.requires {
                assert!(
                    matches!(class_name(required), ClassName::Kafka(releases)
                        if catalog::VERSIONS.iter().any(|v| releases.ships(*v))),
                    "{required}"
                );
            }
        }
    }
}
