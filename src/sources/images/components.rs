//! How the container images of other Kafka components (Connect workers, Schema Registry) turn
//! their environment into the component's properties file, taken from each image's own
//! start-up scripts (cited at each rule). As for brokers ([`crate::sources::images`]), an image whose
//! conventions were not read from its source is not read at all.

use crate::catalog::ComponentKind;
use crate::sources::images::{Origin, Setting, Var, convert_key, repository};

/// A component image whose environment conventions kafkalint knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComponentImage {
    /// `confluentinc/cp-kafka-connect(-base)`, `confluentinc/cp-server-connect(-base)`
    /// (confluentinc/kafka-images: kafka-connect-base/ and server-connect-base/
    /// include/etc/confluent/docker/{configure,kafka-connect.properties.template}).
    ConfluentConnect,
    /// `debezium/connect(-base)`, also as `quay.io/debezium/connect` (debezium/container-images:
    /// `connect-base/<version>/docker-entrypoint.sh`, on the `debezium/kafka` image's copy of
    /// Kafka's config folder).
    DebeziumConnect,
    /// `confluentinc/cp-schema-registry` (confluentinc/schema-registry-images: schema-registry/
    /// include/etc/confluent/docker/{configure,schema-registry.properties.template}).
    ConfluentSchemaRegistry,
}

impl ComponentImage {
    /// What the image runs.
    pub fn kind(self) -> ComponentKind {
        match self {
            ComponentImage::ConfluentConnect | ComponentImage::DebeziumConnect => {
                ComponentKind::ConnectDistributed
            }
            ComponentImage::ConfluentSchemaRegistry => ComponentKind::SchemaRegistry,
        }
    }

    /// The prefix of the variables the image turns into settings.
    pub fn env_prefix(self) -> &'static str {
        match self {
            ComponentImage::ConfluentConnect | ComponentImage::DebeziumConnect => "CONNECT_",
            ComponentImage::ConfluentSchemaRegistry => "SCHEMA_REGISTRY_",
        }
    }

    /// The setting that names the brokers the component talks to.
    pub fn bootstrap_key(self) -> &'static str {
        match self {
            ComponentImage::ConfluentConnect | ComponentImage::DebeziumConnect => {
                "bootstrap.servers"
            }
            ComponentImage::ConfluentSchemaRegistry => "kafkastore.bootstrap.servers",
        }
    }

    /// The replication-factor settings `component-internal-topic-replication` reads: when an
    /// `env_file` may set them, an unset one is unknown rather than the component's default.
    pub fn replication_keys(self) -> &'static [&'static str] {
        match self.kind() {
            ComponentKind::SchemaRegistry => &["kafkastore.topic.replication.factor"],
            _ => &[
                "config.storage.replication.factor",
                "offset.storage.replication.factor",
                "status.storage.replication.factor",
            ],
        }
    }
}

/// The component image kafkalint knows behind an `image:` reference.
pub fn classify(image: &str) -> Option<ComponentImage> {
    match repository(image).0.as_str() {
        "confluentinc/cp-kafka-connect"
        | "confluentinc/cp-kafka-connect-base"
        | "confluentinc/cp-server-connect"
        | "confluentinc/cp-server-connect-base" => Some(ComponentImage::ConfluentConnect),
        "debezium/connect" | "debezium/connect-base" => Some(ComponentImage::DebeziumConnect),
        "confluentinc/cp-schema-registry" => Some(ComponentImage::ConfluentSchemaRegistry),
        _ => None,
    }
}

/// A volume target that replaces the file the image starts from, so that what the environment
/// leaves unset is not known: Debezium's entrypoint copies Kafka's config folder into
/// /kafka/config only where no file is there yet (`cp -rn`). The Confluent images render their
/// file from the environment over whatever is mounted.
pub fn replaces_base_file(image: ComponentImage, target: &str) -> bool {
    let target = target.trim_end_matches('/');
    image == ComponentImage::DebeziumConnect
        && (target == "/kafka/config"
            || target.starts_with("/kafka/config/")
            || target.ends_with("connect-distributed.properties"))
}

/// The settings the image writes for `vars`, in file order (a later setting of a key wins).
pub fn translate(image: ComponentImage, vars: &[Var]) -> Vec<Setting> {
    match image {
        ComponentImage::ConfluentConnect => env_to_props(vars, "CONNECT_"),
        ComponentImage::ConfluentSchemaRegistry => env_to_props(vars, "SCHEMA_REGISTRY_"),
        ComponentImage::DebeziumConnect => debezium(vars),
    }
}

/// `envToProps "<PREFIX>" "" nil nil nil` of Confluent's `ub` (confluentinc/common-docker:
/// base-java/ub/ub.go), which the templates call: every variable with the prefix, the prefix
/// removed, the rest by `ConvertKey`. Neither template excludes a variable, and neither
/// `configure` script sets a replication factor (the Connect one only defaults
/// `CONNECT_REST_PORT`), so an unset factor is the component's own default. Releases that ran
/// the Python `dub` (confluentinc/confluent-docker-utils: dub.py `env_to_props`) converted
/// `__`, `___` and one-letter segments differently; no key kafkalint reads has them.
fn env_to_props(vars: &[Var], prefix: &str) -> Vec<Setting> {
    vars.iter()
        .enumerate()
        .filter_map(|(index, var)| {
            let rest = var
                .name
                .strip_prefix(prefix)
                .filter(|rest| !rest.is_empty())?;
            Some(Setting {
                key: convert_key(rest),
                value: var.value.clone(),
                origin: Origin::Var(index),
            })
        })
        .collect()
}

/// The settings of Kafka's own `config/connect-distributed.properties`
/// (apache/kafka: config/connect-distributed.properties), which `debezium/kafka` keeps as
/// /kafka/config.orig and Debezium's entrypoint copies into place: the topic names, and the
/// replication factor 1 the file sets "to run this example on a single-broker cluster".
const KAFKA_CONNECT_DISTRIBUTED_FILE: &[(&str, &str)] = &[
    ("bootstrap.servers", "localhost:9092"),
    ("group.id", "connect-cluster"),
    ("offset.storage.topic", "connect-offsets"),
    ("offset.storage.replication.factor", "1"),
    ("config.storage.topic", "connect-configs"),
    ("config.storage.replication.factor", "1"),
    ("status.storage.topic", "connect-status"),
    ("status.storage.replication.factor", "1"),
];

/// `CONNECT_*` variables Debezium's entrypoint exports itself from its own variables before it
/// writes the file, so that a value the compose file gives them is lost.
const DEBEZIUM_EXPORTED: &[&str] = &[
    "CONNECT_REST_ADVERTISED_PORT",
    "CONNECT_REST_ADVERTISED_HOST_NAME",
    "CONNECT_REST_PORT",
    "CONNECT_REST_HOST_NAME",
    "CONNECT_BOOTSTRAP_SERVERS",
    "CONNECT_GROUP_ID",
    "CONNECT_CONFIG_STORAGE_TOPIC",
    "CONNECT_OFFSET_STORAGE_TOPIC",
    "CONNECT_KEY_CONVERTER",
    "CONNECT_VALUE_CONVERTER",
    "CONNECT_TASK_SHUTDOWN_GRACEFUL_TIMEOUT_MS",
    "CONNECT_OFFSET_FLUSH_INTERVAL_MS",
    "CONNECT_OFFSET_FLUSH_TIMEOUT_MS",
];

/// debezium/connect (`connect-base/<version>/docker-entrypoint.sh`, the same from 1.x to 3.x):
/// it exports `CONNECT_BOOTSTRAP_SERVERS` from `BOOTSTRAP_SERVERS` (else from Docker link
/// variables, else 0.0.0.0:9092), `CONNECT_GROUP_ID` from `GROUP_ID` (default 1),
/// `CONNECT_CONFIG_STORAGE_TOPIC` and `CONNECT_OFFSET_STORAGE_TOPIC` from `CONFIG_STORAGE_TOPIC`
/// and `OFFSET_STORAGE_TOPIC` (it stops when they are empty), `CONNECT_STATUS_STORAGE_TOPIC`
/// from a non-empty `STATUS_STORAGE_TOPIC`; then it edits Kafka's connect-distributed.properties
/// with every `CONNECT_*` variable: prefix removed, lower-cased, each `_` to `.`, replacing the
/// line of that key (commented out or not) or appending one. It has no variable of its own for
/// the replication factors: unset, they stay at the file's 1.
fn debezium(vars: &[Var]) -> Vec<Setting> {
    let mut settings: Vec<Setting> = KAFKA_CONNECT_DISTRIBUTED_FILE
        .iter()
        .map(|(key, value)| Setting {
            key: (*key).into(),
            value: Some((*value).into()),
            origin: Origin::Image,
        })
        .collect();
    let found = |name: &str| {
        vars.iter()
            .enumerate()
            .rev()
            .find(|(_, var)| var.name == name)
    };
    // Set and not empty, as `-z` / `:=` test it (an unknown value counts as set).
    let non_empty = |name: &str| found(name).filter(|(_, var)| var.value.as_deref() != Some(""));
    let mut export = |key: &str, from: Option<(usize, &Var)>, default: Option<Option<&str>>| {
        let setting = match (from, default) {
            (Some((index, var)), _) => Setting {
                key: key.into(),
                value: var.value.clone(),
                origin: Origin::Var(index),
            },
            (None, Some(value)) => Setting {
                key: key.into(),
                value: value.map(str::to_string),
                origin: Origin::Image,
            },
            (None, None) => return,
        };
        settings.push(setting);
    };
    // Unset: the link variables or 0.0.0.0:9092, which kafkalint does not resolve.
    export(
        "bootstrap.servers",
        non_empty("BOOTSTRAP_SERVERS"),
        Some(None),
    );
    export("group.id", non_empty("GROUP_ID"), Some(Some("1")));
    export("config.storage.topic", found("CONFIG_STORAGE_TOPIC"), None);
    export("offset.storage.topic", found("OFFSET_STORAGE_TOPIC"), None);
    let status_from_image = non_empty("STATUS_STORAGE_TOPIC");
    export("status.storage.topic", status_from_image, None);
    for (index, var) in vars.iter().enumerate() {
        let Some(rest) = var.name.strip_prefix("CONNECT_") else {
            continue;
        };
        if rest.is_empty()
            || DEBEZIUM_EXPORTED.contains(&var.name.as_str())
            || (var.name == "CONNECT_STATUS_STORAGE_TOPIC" && status_from_image.is_some())
        {
            continue;
        }
        settings.push(Setting {
            key: rest.to_lowercase().replace('_', "."),
            value: var.value.clone(),
            origin: Origin::Var(index),
        });
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::images::tests::{get, vars};

    #[test]
    fn image_names() {
        assert_eq!(
            classify("confluentinc/cp-kafka-connect:7.5.0"),
            Some(ComponentImage::ConfluentConnect)
        );
        assert_eq!(
            classify("confluentinc/cp-server-connect-base:7.6.1"),
            Some(ComponentImage::ConfluentConnect)
        );
        assert_eq!(
            classify("quay.io/debezium/connect:2.7"),
            Some(ComponentImage::DebeziumConnect)
        );
        assert_eq!(
            classify("confluentinc/cp-schema-registry:7.5.0"),
            Some(ComponentImage::ConfluentSchemaRegistry)
        );
        assert_eq!(classify("confluentinc/cp-ksqldb-server:7.5.0"), None);
        assert_eq!(classify("bitnami/schema-registry:7.5"), None);
    }

    #[test]
    fn confluent_connect_as_the_template_writes_it() {
        // The cp-kafka-connect quick start's variables.
        let settings = translate(
            ComponentImage::ConfluentConnect,
            &vars(&[
                ("CONNECT_BOOTSTRAP_SERVERS", "broker:29092"),
                ("CONNECT_GROUP_ID", "compose-connect-group"),
                ("CONNECT_CONFIG_STORAGE_TOPIC", "docker-connect-configs"),
                ("CONNECT_CONFIG_STORAGE_REPLICATION_FACTOR", "1"),
                (
                    "CONNECT_PRODUCER_INTERCEPTOR_CLASSES",
                    "io.confluent.monitoring.clients.interceptor.MonitoringProducerInterceptor",
                ),
                ("KAFKA_HEAP_OPTS", "-Xmx1G"),
            ]),
        );
        let keys: Vec<&str> = settings.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "bootstrap.servers",
                "group.id",
                "config.storage.topic",
                "config.storage.replication.factor",
                "producer.interceptor.classes"
            ]
        );
        assert_eq!(settings[3].origin, Origin::Var(3));
    }

    #[test]
    fn schema_registry_as_the_template_writes_it() {
        let settings = translate(
            ComponentImage::ConfluentSchemaRegistry,
            &vars(&[
                ("SCHEMA_REGISTRY_HOST_NAME", "schema-registry"),
                (
                    "SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS",
                    "PLAINTEXT://broker:29092",
                ),
                ("SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR", "1"),
            ]),
        );
        assert_eq!(
            get(&settings, "kafkastore.topic.replication.factor")
                .unwrap()
                .value
                .as_deref(),
            Some("1")
        );
        assert!(get(&settings, "host.name").is_some());
        assert!(get(&settings, "kafkastore.bootstrap.servers").is_some());
    }

    #[test]
    fn debezium_keeps_the_stock_single_replica_unless_told() {
        let settings = translate(
            ComponentImage::DebeziumConnect,
            &vars(&[
                ("BOOTSTRAP_SERVERS", "kafka:9092"),
                ("CONFIG_STORAGE_TOPIC", "my_connect_configs"),
                ("OFFSET_STORAGE_TOPIC", "my_connect_offsets"),
                // Lost: the entrypoint exports its own from GROUP_ID.
                ("CONNECT_GROUP_ID", "ignored"),
                ("CONNECT_OFFSET_STORAGE_REPLICATION_FACTOR", "3"),
            ]),
        );
        let value = |key: &str| get(&settings, key).unwrap().value.clone();
        assert_eq!(value("group.id").as_deref(), Some("1"));
        assert_eq!(value("bootstrap.servers").as_deref(), Some("kafka:9092"));
        assert_eq!(
            value("config.storage.topic").as_deref(),
            Some("my_connect_configs")
        );
        assert_eq!(
            value("status.storage.topic").as_deref(),
            Some("connect-status")
        );
        assert_eq!(
            value("offset.storage.replication.factor").as_deref(),
            Some("3")
        );
        let config_rf = get(&settings, "config.storage.replication.factor").unwrap();
        assert_eq!(
            (config_rf.value.as_deref(), &config_rf.origin),
            (Some("1"), &Origin::Image)
        );
    }

    #[test]
    fn debezium_status_topic_variable_wins_over_the_connect_one() {
        let settings = translate(
            ComponentImage::DebeziumConnect,
            &vars(&[
                ("STATUS_STORAGE_TOPIC", "statuses"),
                ("CONNECT_STATUS_STORAGE_TOPIC", "lost"),
            ]),
        );
        assert_eq!(
            get(&settings, "status.storage.topic")
                .unwrap()
                .value
                .as_deref(),
            Some("statuses")
        );
        let settings = translate(
            ComponentImage::DebeziumConnect,
            &vars(&[("CONNECT_STATUS_STORAGE_TOPIC", "kept")]),
        );
        assert_eq!(
            get(&settings, "status.storage.topic")
                .unwrap()
                .value
                .as_deref(),
            Some("kept")
        );
    }
}
