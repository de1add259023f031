//! `kafka-version-hint`: a file shows a Kafka release that `--kafka-version` contradicts.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::version::ShownBy;
use crate::cluster::{ChosenBy, Cluster};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "kafka-version-hint",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a file shows a Kafka release other than the one it is checked against",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let given_by = match &cluster.target.chosen_by {
        ChosenBy::Flag => "--kafka-version",
        ChosenBy::Config => "kafka-version in kafkalint.toml",
        ChosenBy::Hint | ChosenBy::Image(_) | ChosenBy::Newest => return Vec::new(),
    };
    let target = cluster.target.version;
    context
        .version_hints(cluster)
        .into_iter()
        .filter(|hint| !hint.allows(target))
        .map(|hint| {
            let (shows, span, key) = match hint.shown_by {
                ShownBy::Line(entry) if entry.key() == "zookeeper.connect" => (
                    format!(
                        "ZooKeeper mode, which exists only up to Kafka {}",
                        hint.at_most
                    ),
                    entry.key_span(),
                    Some(entry.key().to_string()),
                ),
                ShownBy::Line(entry) => {
                    let range = match hint.at_least {
                        Some(least) => format!("Kafka {least} to {}", hint.at_most),
                        None => format!("Kafka {} or older", hint.at_most),
                    };
                    (
                        format!(
                            "inter.broker.protocol.version `{}`, which only {range} accept",
                            entry.value().trim()
                        ),
                        entry.value_span(),
                        Some(entry.key().to_string()),
                    )
                }
                ShownBy::ImageTag(tag) => (
                    format!("{}, which runs Kafka {}", tag.shown(), tag.release),
                    tag.span.clone(),
                    None,
                ),
            };
            RULE.finding(format!(
                "this file shows {shows}, but it is checked against Kafka {target} \
                     ({given_by})"
            ))
            .with_key_opt(key.clone())
            .with_label(Label {
                file: hint.file,
                span,
                message: if key.is_none() {
                    format!("not Kafka {target}")
                } else {
                    format!("not possible on Kafka {target}")
                },
            })
            .with_help(if key.is_none() {
                format!(
                    "check with the --kafka-version the cluster really runs, or run an image of \
                         Kafka {target}"
                )
            } else {
                format!(
                    "check with the --kafka-version the cluster really runs, or update the file \
                         for Kafka {target}"
                )
            })
        })
        .collect()
}
