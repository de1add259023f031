//! `duplicate-key`: a key set twice in one file; Kafka silently keeps the last.

use std::collections::BTreeMap;

use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::{Cluster, Line};
use crate::diagnostic::{Diagnostic, Edit, Fix, Label, Severity};
use crate::properties::Span;

pub const RULE: Rule = Rule {
    name: "duplicate-key",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::Safe,
    verified: Verified::CATALOGUE,
    summary: "a key set more than once in one file (the last one silently wins)",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for node in cluster.nodes.iter().chain(&cluster.overlays) {
        let file = node.file;
        // Most files set each key once: the key table already knows.
        if !context.repeats_keys(node) {
            continue;
        }
        let entries: Vec<Line> = context.all_lines(node).collect();
        let mut by_key: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, entry) in entries.iter().enumerate() {
            by_key.entry(entry.key()).or_default().push(index);
        }
        for (key, indexes) in by_key.into_iter().filter(|(_, indexes)| indexes.len() > 1) {
            let last = &entries[*indexes.last().unwrap_or(&0)];
            let same_value = indexes
                .iter()
                .all(|i| entries[*i].value().trim() == last.value().trim());
            let mut labels: Vec<Label> = indexes[..indexes.len() - 1]
                .iter()
                .map(|i| Label {
                    file,
                    span: entries[*i].span(),
                    message: format!("ignored: {}", quoted(key, entries[*i].value())),
                })
                .collect();
            labels.push(Label {
                file,
                span: last.span(),
                message: format!("this one wins: {}", quoted(key, last.value())),
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
                        "{key} is set {} times with different values: only the last one counts",
                        indexes.len()
                    ),
                    "keep one line with the value you mean and delete the others".to_string(),
                )
            };
            // Exact repeats (the same value as Kafka reads it, whitespace included) are removed
            // after the first, which keeps Kafka's value; with different values, which one was
            // meant is for people to say.
            let exact = indexes.iter().all(|i| entries[*i].value() == last.value());
            let bytes = context.bytes(file);
            // Safe: Kafka reads every key as before (see the rule's doc, "Fix safety").
            let fix = exact.then(|| {
                Fix::safe(
                    format!(
                        "remove the repeated {key} line{}",
                        if indexes.len() > 2 { "s" } else { "" }
                    ),
                    merged(indexes[1..].iter().map(|i| whole_lines(bytes, entries[*i])))
                        .map(|span| Edit {
                            file,
                            span,
                            replacement: Vec::new(),
                        })
                        .collect(),
                )
            });
            diagnostics.push(
                RULE.finding(message)
                    .with_severity(severity)
                    .with_key(key)
                    .with_labels(labels)
                    .with_help(help)
                    .with_fix(fix),
            );
        }
    }
    diagnostics
}

/// The bytes of a setting's lines: from the start of its first line (leading whitespace
/// included) through the terminator of its last (continuation lines included), so that removing
/// them leaves the other lines as they were. On the last line of a file without a final line
/// break, the line break before it goes instead, so the file still ends without one.
fn whole_lines(bytes: &[u8], line: Line) -> Span {
    let mut start = line.span().start;
    while start > 0 && matches!(bytes[start - 1], b' ' | b'\t' | b'\x0c') {
        start -= 1;
    }
    let mut end = line.span().end;
    while end < bytes.len() && !matches!(bytes[end], b'\r' | b'\n') {
        end += 1;
    }
    match bytes.get(end) {
        Some(b'\r') if bytes.get(end + 1) == Some(&b'\n') => end += 2,
        Some(_) => end += 1,
        None if start > 0 => {
            start -= 1;
            if bytes[start] == b'\n' && start > 0 && bytes[start - 1] == b'\r' {
                start -= 1;
            }
        }
        None => {}
    }
    start..end
}

/// Spans in file order merged where they touch (two repeats at the end of a file without a
/// final line break share a line break).
fn merged(spans: impl Iterator<Item = Span>) -> impl Iterator<Item = Span> {
    let mut merged: Vec<Span> = Vec::new();
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged.into_iter()
}
