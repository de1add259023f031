//! `duplicate-key`: a key set twice in one file; Kafka silently keeps the last.

use std::collections::BTreeMap;

use super::support::quoted;
use super::{Context, Rule};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "duplicate-key",
    severity: Severity::Warning,
    summary: "a key set more than once in one file (the last one silently wins)",
    check,
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for file in cluster.loaded_files(context.files) {
        let entries = &context.files[file].properties.entries;
        let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, entry) in entries.iter().enumerate() {
            by_key.entry(entry.key.as_str()).or_default().push(index);
        }
        for (key, indexes) in by_key.into_iter().filter(|(_, indexes)| indexes.len() > 1) {
            let last = &entries[*indexes.last().unwrap_or(&0)];
            let same_value = indexes
                .iter()
                .all(|i| entries[*i].value.trim() == last.value.trim());
            let mut labels: Vec<Label> = indexes[..indexes.len() - 1]
                .iter()
                .map(|i| Label {
                    file,
                    span: entries[*i].key_span.start
                        ..entries[*i].value_span.end.max(entries[*i].key_span.end),
                    message: format!("ignored: {}", quoted(key, &entries[*i].value)),
                })
                .collect();
            labels.push(Label {
                file,
                span: last.key_span.start..last.value_span.end.max(last.key_span.end),
                message: format!("this one wins: {}", quoted(key, &last.value)),
            });
            let (severity, message, help) = if same_value {
                (
                    Severity::Info,
                    format!("{key} is set {} times to the same value", indexes.len()),
                    "remove the repeated lines".to_string(),
                )
            } else {
                (
                    Severity::Warning,
                    format!(
                        "{key} is set {} times with different values: Kafka silently uses the last one, so an edit \
                         to an earlier line has no effect",
                        indexes.len()
                    ),
                    "keep one line with the value you mean and delete the others".to_string(),
                )
            };
            diagnostics.push(Diagnostic {
                rule: RULE.name,
                stops_startup: false,
                severity,
                message,
                key: Some(key.to_string()),
                labels,
                help,
            });
        }
    }
    diagnostics
}
