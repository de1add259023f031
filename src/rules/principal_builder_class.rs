//! `principal-builder-class`: a `principal.builder.class` that cannot be a principal builder
//! Kafka accepts. Kafka loads the class at start-up and refuses one that does not implement
//! `KafkaPrincipalSerde`; kafkalint cannot see the broker's classpath, so it judges only the
//! classes whose nature it knows: the JDK's and Kafka's own.

use super::refusal::NodeCheck;
use super::support::{line_label, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::catalog::classes::{self, Kind};
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

/// The first release whose `KafkaConfig` checks the class: `validateValues` requires
/// `classOf[KafkaPrincipalSerde].isAssignableFrom(principalBuilderClass)` ("principal.builder.class
/// must implement KafkaPrincipalSerde") from 3.0.0 (core/src/main/scala/kafka/server/
/// KafkaConfig.scala at 3.0.0, 3.5.2, 3.8.0; `AbstractKafkaConfig` later); 2.8.2 has no such check.
const OLDEST_CHECKED: KafkaVersion = KafkaVersion::new(3, 0);

/// The type `KafkaConfig` requires. An interface or abstract class of that type passes the
/// check (`KafkaPrincipalBuilder` itself from 4.2, where it extends `KafkaPrincipalSerde`):
/// Kafka fails only when it creates a builder for a connection, not at start-up.
const SERDE: &str = "org.apache.kafka.common.security.auth.KafkaPrincipalSerde";

/// Packages of the JDK: none of their classes can implement a Kafka interface.
const JDK_PACKAGES: &[&str] = &["java.", "javax.", "jdk.", "sun.", "com.sun."];

/// What the class named is, when kafkalint knows that Kafka `version` refuses it: a JDK class,
/// or one of Kafka's that is no `KafkaPrincipalSerde` (from the release's jars, `catalog/`).
/// Kafka classes a release does not ship are missing-kafka-class's.
fn unusable(class: &str, version: KafkaVersion) -> Option<String> {
    if classes::kind(class, &[SERDE], version) == Some(Kind::Other) {
        return Some(format!(
            "a class of Kafka {version}, but no KafkaPrincipalSerde"
        ));
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
    fn kafka_classes_are_judged_from_the_jars() {
        let v30 = KafkaVersion::new(3, 0);
        assert!(unusable("org.apache.kafka.common.metrics.JmxReporter", v30).is_some());
        assert!(unusable("kafka.security.auth.SimpleAclAuthorizer", v30).is_none());
    }

    #[test]
    fn the_builder_interface_includes_the_serde_from_4_2() {
        let interface = "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder";
        assert!(unusable(interface, KafkaVersion::new(4, 1)).is_some());
        assert!(unusable(interface, KafkaVersion::new(4, 2)).is_none());
    }
}
