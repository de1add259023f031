//! `topic-invalid-name`: a declared topic whose name Kafka refuses, or that is the name of one
//! of Kafka's own topics.
//!
//! Every CreateTopics passes `Topic.validate` (apache/kafka
//! `clients/src/main/java/org/apache/kafka/common/internals/Topic.java` at 2.8.0 and 3.8.0,
//! unchanged since): refused with INVALID_TOPIC_EXCEPTION when the name is empty, `.` or `..`,
//! longer than `MAX_NAME_LENGTH` (249, in Java `char`s), or holds a character other than
//! `[a-zA-Z0-9._-]`, in that order.
//!
//! `__cluster_metadata` is refused from 3.4 (KAFKA-14358: `ControllerApis.createTopics` and
//! `KafkaApis.handleCreateTopicsRequest` at 3.4.0; "Authorization failed." up to 3.8,
//! INVALID_REQUEST "Creation of internal topic __cluster_metadata is prohibited." from 3.9,
//! KAFKA-16975). The other internal names pass every check (`ReplicationControlManager.createTopics`
//! at 3.8.0 has none): a declaration creates them as ordinary topics when they do not exist yet.

use super::{Check, FixAvailability, Group, Rule, TopicContext, Verified};
use crate::catalog::KafkaVersion;
use crate::cluster::topics::DeclaredTopic;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "topic-invalid-name",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic's name Kafka refuses (characters outside [a-zA-Z0-9._-], longer than 249, `.` or `..`), or the name of one of Kafka's own topics",
    check: Check::Topics(check),
};

/// `Topic.MAX_NAME_LENGTH`: a partition's directory is `<topic>-<partition>`, and 255 is the
/// longest file name most file systems allow.
const MAX_NAME_LENGTH: usize = 249;

/// The release that refuses to create `__cluster_metadata` (KAFKA-14358).
const METADATA_TOPIC_REFUSED_FROM: KafkaVersion = KafkaVersion::new(3, 4);

/// Topics Kafka creates for itself, with what keeps them in shape: created by a declaration
/// first, they get the declaration's partitions and configs instead.
const INTERNAL_TOPICS: [(&str, &str); 4] = [
    // `Topic.GROUP_METADATA_TOPIC_NAME`: a group's partition is hash(group) % partitions.
    ("__consumer_offsets", "offsets.topic.num.partitions"),
    // `Topic.TRANSACTION_STATE_TOPIC_NAME`.
    (
        "__transaction_state",
        "transaction.state.log.num.partitions",
    ),
    // `Topic.SHARE_GROUP_STATE_TOPIC_NAME` (share groups, from 4.0).
    (
        "__share_group_state",
        "share.coordinator.state.topic.num.partitions",
    ),
    // `TopicBasedRemoteLogMetadataManagerConfig.REMOTE_LOG_METADATA_TOPIC_NAME` (3.6).
    (
        "__remote_log_metadata",
        "remote.log.metadata.topic.num.partitions",
    ),
];

fn check(context: &TopicContext) -> Vec<Diagnostic> {
    context
        .topics
        .iter()
        .filter(|topic| topic.name.known)
        .filter_map(|topic| judge(context, topic))
        .collect()
}

fn judge(context: &TopicContext, topic: &DeclaredTopic) -> Option<Diagnostic> {
    let name = topic.name.text.as_str();
    if let Some(reason) = refusal(name) {
        return Some(refused(context, topic, &reason));
    }
    if name == "__cluster_metadata" {
        return Some(metadata_topic(context, topic));
    }
    let (_, partitions_key) = INTERNAL_TOPICS
        .iter()
        .find(|(internal, _)| *internal == name)?;
    Some(internal_topic(context, topic, partitions_key))
}

/// Why `Topic.validate` refuses `name`, in its order; `None` when it accepts it.
fn refusal(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("is empty".into());
    }
    if name == "." || name == ".." {
        return Some("is `.` or `..`, names Kafka keeps for directories".into());
    }
    // Java's `String.length()` counts UTF-16 units.
    let length = name.encode_utf16().count();
    if length > MAX_NAME_LENGTH {
        return Some(format!(
            "is {length} characters long, above Kafka's {MAX_NAME_LENGTH}"
        ));
    }
    let illegal = name.chars().find(|c| !is_legal(*c))?;
    Some(format!(
        "holds {}, outside ASCII letters, digits, `.`, `_` and `-`",
        shown_char(illegal)
    ))
}

/// `Topic.containsValidPattern`.
fn is_legal(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

fn shown_char(c: char) -> String {
    match c {
        ' ' => "a space".into(),
        '`' => "a back quote".into(),
        c if c.is_control() || c.is_whitespace() => format!("the character U+{:04X}", c as u32),
        c => format!("`{c}`"),
    }
}

fn refused(context: &TopicContext, topic: &DeclaredTopic, reason: &str) -> Diagnostic {
    RULE.finding(format!(
        "{} {reason}: Kafka refuses to create it (INVALID_TOPIC_EXCEPTION)",
        context.topic_name(topic)
    ))
    .with_label(context.label(topic, &topic.name.span, "refused by Kafka".into()))
    .with_help(format!(
        "name the topic with 1 to {MAX_NAME_LENGTH} ASCII letters, digits, `.`, `_` or `-` \
         (not `.` or `..`)"
    ))
}

fn metadata_topic(context: &TopicContext, topic: &DeclaredTopic) -> Diagnostic {
    let refused = context
        .version()
        .is_none_or(|version| version >= METADATA_TOPIC_REFUSED_FROM);
    let finding = if refused {
        RULE.finding(format!(
            "{} is the name of KRaft's metadata log: Kafka refuses to create it \
             (from 3.4)",
            context.topic_name(topic)
        ))
    } else {
        RULE.finding(format!(
            "{} is the name of KRaft's metadata log: this release creates it as an \
             ordinary topic, whose partition directory clashes with the metadata log's",
            context.topic_name(topic)
        ))
        .with_severity(Severity::Warning)
    };
    finding
        .with_label(context.label(topic, &topic.name.span, "KRaft's own log".into()))
        .with_help("name the topic otherwise: names starting with `__` are Kafka's")
}

fn internal_topic(
    context: &TopicContext,
    topic: &DeclaredTopic,
    partitions_key: &str,
) -> Diagnostic {
    RULE.finding(format!(
        "{} is one of Kafka's internal topics: declared, it gets the declaration's settings, \
         not the brokers'",
        context.topic_name(topic)
    ))
    .with_severity(Severity::Warning)
    .with_label(context.label(topic, &topic.name.span, "Kafka's own topic".into()))
    .with_help(format!(
        "declared, it is created with the declaration's partitions and configs instead of \
         the brokers' `{partitions_key}` and settings, or its creation fails because it exists; \
         remove the declaration and set the broker keys instead (`{partitions_key}` and its \
         siblings); Kafka creates this topic itself"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_as_topic_validate_does() {
        assert_eq!(refusal(""), Some("is empty".into()));
        assert!(refusal("..").unwrap().contains("`.` or `..`"));
        assert!(refusal("...").is_none());
        assert!(refusal(&"a".repeat(249)).is_none());
        assert!(
            refusal(&"a".repeat(250))
                .unwrap()
                .contains("250 characters")
        );
        assert!(refusal("orders v2").unwrap().contains("a space"));
        assert!(refusal("orders/v2").unwrap().contains("`/`"));
        assert!(refusal("ordérs").unwrap().contains("`é`"));
        assert!(refusal("Orders.v2_final-1").is_none());
    }
}
