//! The Kafka components besides brokers whose configuration kafkalint reads.

/// What a component file configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ComponentKind {
    /// A Kafka Connect worker in distributed mode (`connect-distributed.sh`).
    ConnectDistributed,
    /// A MirrorMaker 2 driver (`connect-mirror-maker.sh`).
    MirrorMaker,
    /// A Kafka Streams application.
    Streams,
    /// Confluent Schema Registry.
    SchemaRegistry,
}

impl ComponentKind {
    /// How messages name it.
    pub fn name(self) -> &'static str {
        match self {
            ComponentKind::ConnectDistributed => "Kafka Connect worker",
            ComponentKind::MirrorMaker => "MirrorMaker 2",
            ComponentKind::Streams => "Kafka Streams application",
            ComponentKind::SchemaRegistry => "Schema Registry",
        }
    }

    /// How messages name the component of one release, as the subject of a sentence
    /// (`a Kafka Connect 4.4 worker`).
    pub fn of_release(self, version: super::KafkaVersion) -> String {
        match self {
            ComponentKind::ConnectDistributed => format!("a Kafka Connect {version} worker"),
            ComponentKind::MirrorMaker => format!("MirrorMaker 2 of Kafka {version}"),
            ComponentKind::Streams => format!("a Kafka Streams {version} application"),
            ComponentKind::SchemaRegistry => "Schema Registry".to_string(),
        }
    }

    /// A stable identifier, for JSON.
    pub fn id(self) -> &'static str {
        match self {
            ComponentKind::ConnectDistributed => "connect-distributed",
            ComponentKind::MirrorMaker => "mirror-maker",
            ComponentKind::Streams => "streams",
            ComponentKind::SchemaRegistry => "schema-registry",
        }
    }
}
