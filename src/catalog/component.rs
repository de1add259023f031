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
