//! `kafka-version-hint`: a file shows a Kafka release that `--kafka-version` contradicts.

use super::{Context, Rule};
use crate::cluster::{ChosenBy, Cluster, version};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "kafka-version-hint",
    severity: Severity::Warning,
    summary: "a file shows a Kafka release other than the one it is checked against",
    check,
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let given_by = match cluster.target.chosen_by {
        ChosenBy::Flag => "--kafka-version",
        ChosenBy::Config => "kafka-version in kafkalint.toml",
        ChosenBy::Hint | ChosenBy::Newest => return Vec::new(),
    };
    let target = cluster.target.version;
    version::hints(cluster, context.files)
        .into_iter()
        .filter(|hint| !hint.allows(target))
        .map(|hint| {
            let (shows, span) = if hint.entry.key == "zookeeper.connect" {
                (
                    format!("ZooKeeper mode, which exists only up to Kafka {}", hint.at_most),
                    hint.entry.key_span.clone(),
                )
            } else {
                let range = match hint.at_least {
                    Some(least) => format!("Kafka {least} to {}", hint.at_most),
                    None => format!("Kafka {} or older", hint.at_most),
                };
                (
                    format!("inter.broker.protocol.version `{}`, which only {range} accept", hint.entry.value.trim()),
                    hint.entry.value_span.clone(),
                )
            };
            Diagnostic {
                rule: RULE.name,
                stops_startup: false,
                severity: Severity::Warning,
                message: format!(
                    "this file shows {shows}, but it is checked against Kafka {target} \
                     ({given_by})"
                ),
                key: Some(hint.entry.key.clone()),
                labels: vec![Label {
                    file: hint.file,
                    span,
                    message: format!("not possible on Kafka {target}"),
                }],
                help: format!(
                    "check with the --kafka-version the cluster really runs, or update the file for \
                     Kafka {target}"
                ),
            }
        })
        .collect()
}
