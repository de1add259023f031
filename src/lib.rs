//! kafkalint: a static linter for Apache Kafka broker configuration.

pub mod properties;
