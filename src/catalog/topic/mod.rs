//! The topic-level configuration of each release: the keys of Kafka's `LogConfig` ConfigDef with
//! their type, default and validator, as dumped from the release's jars (`other_components`
//! `topic`, with `other_components_defaults` and `other_components_validators`; see `catalog/`),
//! the keys a release removed, and the broker key that sets each one's cluster default.
//!
//! A topic's configs are what CreateTopics and AlterConfigs validate with
//! `LogConfig.validate`: `validateNames` ("Unknown topic config name: X"), then
//! `ConfigDef.parse` with these validators, then the cross-field checks that [`judge`] mirrors.
//!
//! ```
//! use kafkalint::catalog::KafkaVersion;
//! use kafkalint::catalog::topic;
//!
//! let v3_9 = KafkaVersion::new(3, 9);
//! let v4_0 = KafkaVersion::new(4, 0);
//! let v4_1 = KafkaVersion::new(4, 1);
//! // segment.bytes must be at least 1 MiB from 4.1 on (14 bytes before), as the jars say.
//! assert!(topic::check_value(v4_0, "segment.bytes", "1000000").is_ok());
//! let refusal = topic::check_value(v4_1, "segment.bytes", "1000000").unwrap_err();
//! assert_eq!(
//!     refusal.to_string(),
//!     "Invalid value 1000000 for configuration segment.bytes: Value must be at least 1048576"
//! );
//! // message.format.version is a key up to 3.9 and gone in 4.0.
//! assert!(topic::spec(v3_9, "message.format.version").is_some());
//! let removal = topic::removal(v4_0, "message.format.version").unwrap();
//! assert_eq!(removal.removed_in, v4_0);
//! // The cluster-wide default of a topic key is set by a broker key.
//! assert_eq!(topic::cluster_default_key(v4_0, "cleanup.policy"), Some("log.cleanup.policy"));
//! ```

pub mod judge;

use std::fmt;

use super::parsed::{Parsed, Refusal};
use super::spec::{ConfigType, Default, KeySpec, Validator};
use super::tables::{COMPONENT_KEYS, COMPONENT_SPECS, TOPIC_CONFIG_SYNONYMS};
use super::{KafkaVersion, VERSIONS};

/// The component name of the topic-level ConfigDef in the dumped catalogue.
const COMPONENT: &str = "topic";

/// One topic key as one release's `LogConfig` defines it.
#[derive(Debug, Clone, Copy)]
pub struct TopicKey {
    pub name: &'static str,
    /// Its type, default (Kafka's text form: what `kafka-configs.sh --describe --all` shows for
    /// an unset key on a broker with default settings) and validator.
    pub spec: &'static KeySpec,
}

impl TopicKey {
    pub fn config_type(&self) -> ConfigType {
        self.spec.config_type
    }

    /// The ConfigDef default in Kafka's text form; `None` when it is null.
    pub fn default(&self) -> Option<&'static str> {
        match self.spec.default {
            Default::Value(text) => Some(text),
            Default::Null | Default::Required => None,
        }
    }

    pub fn validator(&self) -> Validator {
        self.spec.validator
    }
}

/// What release `version`'s `LogConfig` defines for `key`; `None` when it has no such key.
pub fn spec(version: KafkaVersion, key: &str) -> Option<TopicKey> {
    let bit = version.release_bit()?;
    let index = COMPONENT_SPECS
        .binary_search_by(|(component, name, _)| (*component, *name).cmp(&(COMPONENT, key)))
        .ok()?;
    let (_, name, variants) = &COMPONENT_SPECS[index];
    variants
        .iter()
        .find(|variant| variant.releases & bit != 0)
        .map(|variant| TopicKey {
            name,
            spec: &variant.spec,
        })
}

/// Every topic key of release `version`, sorted by name.
pub fn keys(version: KafkaVersion) -> impl Iterator<Item = TopicKey> {
    let start = COMPONENT_SPECS.partition_point(|(component, _, _)| *component < COMPONENT);
    COMPONENT_SPECS[start..]
        .iter()
        .take_while(|(component, _, _)| *component == COMPONENT)
        .filter_map(move |(_, name, _)| spec(version, name))
}

/// Why Kafka refuses a topic config's value: `Display` is Kafka's own `ConfigException` text,
/// "Invalid value X for configuration K: reason".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRefusal {
    pub key: String,
    /// The value as written, trimmed as ConfigDef trims it.
    pub value: String,
    /// Kafka's words where its validator has fixed ones (a range's "Value must be at least
    /// 1048576"), ours otherwise.
    pub reason: String,
}

impl fmt::Display for ValueRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Invalid value {} for configuration {}: {}",
            self.value, self.key, self.reason
        )
    }
}

impl std::error::Error for ValueRefusal {}

/// Whether release `version`'s `LogConfig` accepts `value` for `key`, parsed and validated as
/// `ConfigDef.parse` does (types, ranges, valid strings and lists, Java's number and boolean
/// grammar; see [`super::value`]). `Ok` with the parsed value; `Err` also for a key the release
/// does not define (Kafka's "Unknown topic config name").
pub fn check_value(version: KafkaVersion, key: &str, value: &str) -> Result<Parsed, ValueRefusal> {
    let trimmed = super::value::java_trim(value).to_owned();
    let Some(topic_key) = spec(version, key) else {
        return Err(ValueRefusal {
            key: key.to_owned(),
            value: trimmed,
            reason: format!("Unknown topic config name: {key}"),
        });
    };
    super::value::check(key, topic_key.spec, value).map_err(|refusal| ValueRefusal {
        key: key.to_owned(),
        reason: kafka_reason(topic_key.spec, &refusal),
        value: trimmed,
    })
}

/// Kafka's message for a refusal where its validator has a fixed one
/// (`ConfigDef.Range.ensureValid`: "Value must be at least N" / "Value must be no more than
/// N"); the refusal's own reason, capitalised, otherwise.
fn kafka_reason(spec: &KeySpec, refusal: &Refusal) -> String {
    if let Validator::Range { min, max } = spec.validator {
        if let Some(min) =
            min.filter(|min| refusal.reason == format!("must be at least {}", min.text))
        {
            return format!("Value must be at least {}", min.text);
        }
        if let Some(max) =
            max.filter(|max| refusal.reason == format!("must be at most {}", max.text))
        {
            return format!("Value must be no more than {}", max.text);
        }
    }
    let mut reason = refusal.reason.clone();
    if let Some(first) = reason.get(..1) {
        let upper = first.to_ascii_uppercase();
        reason.replace_range(..1, &upper);
    }
    reason
}

/// A topic key that an earlier release defined and release `version` no longer does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Removal {
    /// The newest release before `version` that defines the key.
    pub last: KafkaVersion,
    /// The release right after `last`: the first without the key.
    pub removed_in: KafkaVersion,
}

/// When `key` is not a topic key of `version` but was one of an earlier release: the release
/// that removed it, read from the dumps (`message.format.version` in 4.0). `None` when
/// `version` defines the key or no earlier release did.
pub fn removal(version: KafkaVersion, key: &str) -> Option<Removal> {
    let index = version.release_index()? as usize;
    let releases = releases_of(key)?;
    if releases & (1 << index) != 0 {
        return None;
    }
    let last = (0..index).rev().find(|i| releases & (1 << i) != 0)?;
    Some(Removal {
        last: VERSIONS[last],
        removed_in: VERSIONS[last + 1],
    })
}

/// The first release after `version` that defines `key`, when `version` does not: a key of a
/// newer Kafka (`remote.copy.lag.ms` on 4.3).
pub fn added_after(version: KafkaVersion, key: &str) -> Option<KafkaVersion> {
    let index = version.release_index()? as usize;
    let releases = releases_of(key)?;
    (index + 1..VERSIONS.len())
        .find(|i| releases & (1 << i) != 0)
        .map(|i| VERSIONS[i])
}

/// The releases (bits indexing `VERSIONS`) whose `LogConfig` defines `key`.
fn releases_of(key: &str) -> Option<u32> {
    let index = COMPONENT_KEYS
        .binary_search_by(|(component, name, _)| (*component, *name).cmp(&(COMPONENT, key)))
        .ok()?;
    Some(COMPONENT_KEYS[index].2)
}

/// The broker key whose value is the cluster-wide default of topic key `key` in release
/// `version` (Kafka's `TopicConfigSynonyms`, dumped: `cleanup.policy` ← `log.cleanup.policy`,
/// `retention.ms` ← `log.retention.ms`); `None` for a key without one (`remote.storage.enable`)
/// or not defined by `version`.
///
/// Where a broker sets the same default through several keys (`log.retention.hours`,
/// `log.retention.minutes`, `log.retention.ms`; `log.roll.hours`, `log.roll.ms`), this is the
/// one Kafka reads first; the broker's effective value resolves the others as Kafka does.
pub fn cluster_default_key(version: KafkaVersion, key: &str) -> Option<&'static str> {
    spec(version, key)?;
    let index = TOPIC_CONFIG_SYNONYMS
        .binary_search_by(|(topic_key, _)| (*topic_key).cmp(key))
        .ok()?;
    Some(TOPIC_CONFIG_SYNONYMS[index].1)
}

/// The topic key of release `version` nearest to `key`, when it is near enough to be a typo
/// ("did you mean").
pub fn nearest_key(version: KafkaVersion, key: &str) -> Option<&'static str> {
    let names: Vec<&'static str> = keys(version).map(|k| k.name).collect();
    super::suggest::nearest(key, names)
}

#[cfg(test)]
mod tests;
