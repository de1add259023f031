//! Keys outside the broker's ConfigDef that a broker file may legitimately hold: keys the broker
//! reads with a prefix (per listener, per config provider) or hands to its plugins.

use super::{KafkaVersion, spec};

/// Whether the broker (or a plugin it loads) reads `key` although it is not a ConfigDef key.
pub fn read_elsewhere(key: &str, version: KafkaVersion) -> bool {
    listener_override(key, version) || key.starts_with("config.providers.")
}

/// `listener.name.<listener>.<broker key>` or `listener.name.<listener>.<mechanism>.<key>`: the
/// per-listener overrides Kafka reads with `valuesWithPrefixOverride`.
fn listener_override(key: &str, version: KafkaVersion) -> bool {
    let Some(rest) = key.strip_prefix("listener.name.") else {
        return false;
    };
    let Some((_listener, rest)) = rest.split_once('.') else {
        return false;
    };
    if spec(rest, version).is_some() {
        return true;
    }
    rest.split_once('.')
        .is_some_and(|(_mechanism, key)| spec(key, version).is_some())
}

/// Whether `key` lies in a namespace Kafka's broker keys use: its first two words (its first
/// word, for keys of one or two words) start some broker key of `version`. Keys outside them
/// (`confluent.…`, `s3.…`, `kafka.graphite.…`) belong to plugins and Kafka distributions.
pub fn in_kafka_namespace(key: &str, version: KafkaVersion) -> bool {
    let words: Vec<&str> = key.split('.').collect();
    let take = if words.len() >= 3 { 2 } else { 1 };
    let prefix = format!("{}.", words[..take].join("."));
    super::keys(version).any(|(known, _)| known.starts_with(&prefix))
}
