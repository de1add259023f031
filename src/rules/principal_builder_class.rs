//! `principal-builder-class`: a `principal.builder.class` that cannot be a principal builder
//! Kafka accepts. Kafka loads the class at start-up and refuses one that does not implement
//! `KafkaPrincipalSerde`; kafkalint cannot see the broker's classpath, so it judges only the
//! classes whose nature it knows: the JDK's and Kafka's own.

use super::refusal::NodeCheck;
use super::support::{line_label, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::catalog::value::Parsed;
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};

pub const RULE: Rule = Rule {
    name: "principal-builder-class",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "a principal.builder.class known not to implement KafkaPrincipalSerde (a JDK class, or a Kafka class that is no such builder): the broker refuses to start",
    check: Check::Files(check),
};

const KEY: &str = "principal.builder.class";

/// The first release whose start-up check this rule was verified against.
const OLDEST_CHECKED: KafkaVersion = KafkaVersion::new(3, 9);

/// Kafka's own classes that are no principal builder Kafka accepts, what each one is, and the
/// first release that accepts it after all. Kafka classes a release does not ship (the
/// `PrincipalBuilder` and `DefaultPrincipalBuilder` removed in 3.0) are missing-kafka-class's.
const KAFKA_CLASSES: &[(&str, &str, Option<KafkaVersion>)] = &[
    (
        "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder",
        "Kafka's principal builder interface, a KafkaPrincipalSerde only from Kafka 4.2",
        Some(KafkaVersion::new(4, 2)),
    ),
    (
        "org.apache.kafka.common.security.auth.KafkaPrincipal",
        "Kafka's principal itself, not a builder",
        None,
    ),
    (
        "org.apache.kafka.common.security.ssl.SslPrincipalMapper",
        "Kafka's SSL principal mapper (ssl.principal.mapping.rules), not a builder",
        None,
    ),
];

/// Packages of the JDK: none of their classes can implement a Kafka interface.
const JDK_PACKAGES: &[&str] = &["java.", "javax.", "jdk.", "sun.", "com.sun."];

/// What the class named is, when kafkalint knows that Kafka `version` cannot use it.
fn unusable(class: &str, version: KafkaVersion) -> Option<String> {
    if let Some((_, what, accepted_since)) = KAFKA_CLASSES.iter().find(|(name, ..)| *name == class)
    {
        return accepted_since
            .is_none_or(|since| version < since)
            .then(|| what.to_string());
    }
    JDK_PACKAGES
        .iter()
        .any(|package| class.starts_with(package))
        .then(|| "a JDK class, not a KafkaPrincipalSerde".to_string())
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    if version < OLDEST_CHECKED {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        let Some((Parsed::Text(class), effective)) = context.parsed_value(node, KEY, version)
        else {
            continue;
        };
        let (Some(entry), Some(what)) = (effective.line(), unusable(&class, version)) else {
            continue;
        };
        let at = NodeCheck::new(&RULE, context, node, version);
        diagnostics.push(at.refusal(
            KEY,
            format!(
                "{KEY} {} is {what}",
                quoted(KEY, &class)
            ),
            vec![line_label(entry,
                "not a KafkaPrincipalSerde".to_string(),
            )],
            format!(
                "remove {KEY} to use Kafka's DefaultKafkaPrincipalBuilder, or name a class that implements both KafkaPrincipalBuilder and KafkaPrincipalSerde"
            ),
        ));
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_classes_known_not_to_serve_are_judged() {
        let v44 = KafkaVersion::new(4, 4);
        assert!(unusable("java.lang.String", v44).is_some());
        assert!(unusable("javax.security.auth.Subject", v44).is_some());
        assert!(unusable("org.apache.kafka.common.security.auth.KafkaPrincipal", v44).is_some());
        assert!(
            unusable(
                "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder",
                v44
            )
            .is_none()
        );
        assert!(unusable("com.example.MyPrincipalBuilder", v44).is_none());
        assert!(unusable("javaish.Builder", v44).is_none());
    }

    #[test]
    fn the_builder_interface_includes_the_serde_from_4_2() {
        let interface = "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder";
        assert!(unusable(interface, KafkaVersion::new(4, 1)).is_some());
        assert!(unusable(interface, KafkaVersion::new(4, 2)).is_none());
    }
}
