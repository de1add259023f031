//! Keys outside the broker's ConfigDef that a broker file may legitimately hold: keys the broker
//! reads with a prefix (per listener, per config provider, for its tiered-storage plugins) and
//! keys of other Kafka components (clients, Connect, Streams, the authorizers, topic configs).
//! All of it is data dumped from the Kafka jars by `catalog/`.

use super::{
    FamilyRest, KafkaVersion, OTHER_COMPONENT_KEYS, PREFIX_FAMILIES, PrefixFamily,
    TOPIC_CONFIG_SYNONYMS, spec,
};

/// How the broker treats a key its ConfigDef does not declare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Elsewhere {
    /// Read through a prefix family or by a plugin Kafka ships (the authorizer's
    /// `super.users`): not an unknown key.
    Read,
    /// A per-listener override written with upper case in the listener name: Kafka looks the
    /// override up under the lower-case name, so it never reads this one.
    ListenerNameCase { lowercase: String },
    /// A per-listener override of a broker key that Kafka does not read per listener.
    NotReadPerListener { key: &'static str },
    /// A topic-level key; the broker's own key for the cluster default is `broker_key`.
    TopicKey { broker_key: &'static str },
    /// A key of another component (producer, consumer, Connect, Streams, ...) that people keep in
    /// broker files for the command-line tools: the broker ignores it, harmlessly.
    OtherComponent,
}

/// Components whose keys the broker itself reads (through plugins it ships).
const READ_BY_BROKER: &[&str] = &[
    "acl-authorizer",
    "standard-authorizer",
    "jmx-reporter",
    "remote-log-metadata-manager",
];

/// What the broker of `version` does with `key`, when it is not a ConfigDef key. `setting`
/// gives the file's value of a broker key (prefix families whose prefix a key can move).
pub fn elsewhere(
    key: &str,
    version: KafkaVersion,
    setting: impl Fn(&str) -> Option<String>,
) -> Option<Elsewhere> {
    let bit = version.release_bit()?;
    let mut verdict = None;
    for family in PREFIX_FAMILIES
        .iter()
        .filter(|family| family.releases & bit != 0)
    {
        // A family whose prefix is itself a broker key (`rlmm.config.` is the default of
        // remote.log.metadata.manager.impl.prefix) moves with the file's value of that key.
        let moved = family.prefix_key.and_then(|prefix_key| {
            let prefix = setting(prefix_key)?;
            let default = super::default_value(prefix_key, version)?;
            let tail = family.pattern.strip_prefix(default)?;
            Some(format!("{}{tail}", prefix.trim()))
        });
        let pattern = moved.unwrap_or_else(|| family.pattern.to_string());
        let Some((rest, upper_case_segment)) = match_pattern(&pattern, family, key) else {
            continue;
        };
        let found = judge_rest(family, rest, version);
        let found = match (found, upper_case_segment) {
            (Some(Elsewhere::Read), true) => Some(Elsewhere::ListenerNameCase {
                lowercase: lowercase_segments(&pattern, family, key),
            }),
            (found, _) => found,
        };
        // A read verdict wins over any other family's doubt.
        match found {
            Some(Elsewhere::Read) => return Some(Elsewhere::Read),
            Some(other) if verdict.is_none() => verdict = Some(other),
            _ => {}
        }
    }
    if verdict.is_some() {
        return verdict;
    }
    let components = OTHER_COMPONENT_KEYS
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|index| OTHER_COMPONENT_KEYS[index].1)?;
    if components.iter().any(|c| READ_BY_BROKER.contains(c)) {
        return Some(Elsewhere::Read);
    }
    if components.contains(&"topic")
        && let Some(broker_key) = topic_synonym(key).filter(|b| spec(b, version).is_some())
    {
        return Some(Elsewhere::TopicKey { broker_key });
    }
    Some(Elsewhere::OtherComponent)
}

/// The keys Kafka's own plugins read from the broker file, offered as "did you mean" targets
/// beside the broker keys (`super.users` for a misspelt `super.user`).
pub fn plugin_keys() -> impl Iterator<Item = &'static str> {
    OTHER_COMPONENT_KEYS
        .iter()
        .filter(|(_, components)| components.iter().any(|c| READ_BY_BROKER.contains(c)))
        .map(|(key, _)| *key)
}

fn topic_synonym(key: &str) -> Option<&'static str> {
    TOPIC_CONFIG_SYNONYMS
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .map(|index| TOPIC_CONFIG_SYNONYMS[index].1)
}

/// Matches `key` against `pattern`: literals exactly, each `{segment}` one non-empty run without
/// dots. Returns what follows and whether a lower-case-only segment holds upper case.
fn match_pattern<'k>(
    pattern: &str,
    family: &PrefixFamily,
    key: &'k str,
) -> Option<(&'k str, bool)> {
    let mut position = 0;
    let mut upper_case = false;
    let mut remaining = pattern;
    while !remaining.is_empty() {
        match remaining.find('{') {
            Some(0) => {
                let close = remaining.find('}')?;
                let name = &remaining[1..close];
                let segment_end = key[position..].find('.').map(|i| position + i)?;
                let segment = &key[position..segment_end];
                if segment.is_empty() {
                    return None;
                }
                if family.lowercase.contains(&name) && segment.chars().any(char::is_uppercase) {
                    upper_case = true;
                }
                position = segment_end;
                remaining = &remaining[close + 1..];
            }
            found => {
                let literal_end = found.unwrap_or(remaining.len());
                let literal = &remaining[..literal_end];
                if !key[position..].starts_with(literal) {
                    return None;
                }
                position += literal.len();
                remaining = &remaining[literal_end..];
            }
        }
    }
    let rest = &key[position..];
    (!rest.is_empty()).then_some((rest, upper_case))
}

/// The key with its lower-case-only segments lowered: what Kafka would read.
fn lowercase_segments(pattern: &str, family: &PrefixFamily, key: &str) -> String {
    // The segments are the only parts of the key that may differ in case from the pattern.
    let Some((rest, _)) = match_pattern(pattern, family, key) else {
        return key.to_string();
    };
    let head = &key[..key.len() - rest.len()];
    format!("{}{rest}", head.to_lowercase())
}

fn judge_rest(family: &PrefixFamily, rest: &str, version: KafkaVersion) -> Option<Elsewhere> {
    match family.rest {
        FamilyRest::Any => Some(Elsewhere::Read),
        FamilyRest::Keys(keys) => keys.contains(&rest).then_some(Elsewhere::Read),
        FamilyRest::Components(components) => {
            let broker = components.contains(&"broker");
            if broker && spec(rest, version).is_some() {
                if family.read_keys.is_empty() || family.read_keys.contains(&rest) {
                    return Some(Elsewhere::Read);
                }
                let key = super::entry(rest).map(|entry| entry.name)?;
                return Some(Elsewhere::NotReadPerListener { key });
            }
            let of_component = OTHER_COMPONENT_KEYS
                .binary_search_by(|(k, _)| (*k).cmp(rest))
                .ok()
                .is_some_and(|index| {
                    OTHER_COMPONENT_KEYS[index]
                        .1
                        .iter()
                        .any(|c| components.contains(c))
                });
            of_component.then_some(Elsewhere::Read)
        }
    }
}

/// Whether `key` lies in a namespace Kafka's broker keys use: its first two words (its first
/// word, for keys of one or two words) start some broker key of `version`, or its first word
/// is one only broker keys start with (`offsets.`, `controller.`: whatever follows is the
/// broker's). Keys outside them (`confluent.…`, `s3.…`, `kafka.graphite.…`) belong to plugins
/// and Kafka distributions.
pub fn in_kafka_namespace(key: &str, version: KafkaVersion) -> bool {
    let words: Vec<&str> = key.split('.').collect();
    let take = if words.len() >= 3 { 2 } else { 1 };
    let prefix = format!("{}.", words[..take].join("."));
    if super::keys(version).any(|(known, _)| known.starts_with(&prefix)) {
        return true;
    }
    let first = format!("{}.", words[0]);
    words.len() >= 2
        && !shared_first_word(&first)
        && super::keys(version).any(|(known, _)| known.starts_with(&first))
}

/// Whether keys other than the broker's start with `first` (`transaction.` of the producer's
/// `transaction.timeout.ms`, `ssl.` of every client): there only the first two words tell a
/// broker key. `kafka.` is shared with the plugins of the broker's legacy metrics reporters,
/// which name their keys `kafka.<plugin>.…` (`kafka.graphite.metrics.host`).
fn shared_first_word(first: &str) -> bool {
    // The keys are sorted: the first one at or after `first` is the one that could start so.
    let at = OTHER_COMPONENT_KEYS.partition_point(|(key, _)| *key < first);
    first == "kafka."
        || OTHER_COMPONENT_KEYS
            .get(at)
            .is_some_and(|(key, _)| key.starts_with(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(key: &str) -> Option<Elsewhere> {
        elsewhere(key, KafkaVersion::new(4, 1), |_| None)
    }

    #[test]
    fn a_first_word_only_broker_keys_use_is_a_namespace_whatever_follows() {
        let v41 = KafkaVersion::new(4, 1);
        assert!(in_kafka_namespace(
            "offsets.topicDatabaseInfo.replication.factor",
            v41
        ));
        assert!(in_kafka_namespace("controller.foo.bar", v41));
        // Shared with the producer's keys, or with metrics reporters' plugins: two words.
        assert!(!in_kafka_namespace("transaction.foo.bar", v41));
        assert!(!in_kafka_namespace("kafka.graphite.metrics.host", v41));
        assert!(!in_kafka_namespace("confluent.support.metrics.enable", v41));
        // The sorted lookup finds a shared first word.
        assert!(shared_first_word("ssl."));
        assert!(!shared_first_word("offsets."));
    }

    #[test]
    fn listener_overrides_are_read_in_lower_case_only() {
        assert_eq!(
            judge("listener.name.internal.ssl.keystore.location"),
            Some(Elsewhere::Read)
        );
        assert_eq!(
            judge("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config"),
            Some(Elsewhere::Read)
        );
        assert_eq!(
            judge("listener.name.INTERNAL.ssl.keystore.location"),
            Some(Elsewhere::ListenerNameCase {
                lowercase: "listener.name.internal.ssl.keystore.location".into()
            })
        );
        assert!(matches!(
            judge("listener.name.internal.num.partitions"),
            Some(Elsewhere::NotReadPerListener { .. })
        ));
    }

    #[test]
    fn plugins_providers_and_other_components() {
        assert_eq!(judge("config.providers.file.class"), Some(Elsewhere::Read));
        assert_eq!(
            judge("config.providers.vault.param.uri"),
            Some(Elsewhere::Read)
        );
        assert_eq!(judge("super.users"), Some(Elsewhere::Read));
        assert_eq!(judge("rsm.config.bucket"), Some(Elsewhere::Read));
        assert_eq!(judge("security.protocol"), Some(Elsewhere::OtherComponent));
        assert_eq!(
            judge("cleanup.policy"),
            Some(Elsewhere::TopicKey {
                broker_key: "log.cleanup.policy"
            })
        );
        assert_eq!(judge("offset.topic.replication.factor"), None);
    }

    #[test]
    fn a_moved_prefix_moves_the_family() {
        let moved = |key: &str| {
            elsewhere(key, KafkaVersion::new(4, 1), |k| {
                (k == "remote.log.storage.manager.impl.prefix").then(|| "tiered.".to_string())
            })
        };
        assert_eq!(moved("tiered.bucket"), Some(Elsewhere::Read));
    }
}
