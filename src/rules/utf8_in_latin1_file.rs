//! `utf8-in-latin1-file`: UTF-8 text in a file that Kafka reads as ISO-8859-1.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "utf8-in-latin1-file",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "non-ASCII UTF-8 text that Kafka reads as Latin-1, so the value differs from what the editor shows",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for file in context.loaded_files(cluster) {
        for entry in context.file_lines(file).filter(|line| line.utf8_mismatch()) {
            let span = entry.span();
            let written = String::from_utf8_lossy(&context.bytes(file)[span.clone()]).into_owned();
            let seen_by_kafka = format!("{}={}", entry.key(), entry.value());
            let (written, seen_by_kafka) = if crate::secrets::is_hidden(entry.key(), entry.value())
            {
                (
                    crate::secrets::REDACTED.to_string(),
                    crate::secrets::REDACTED.to_string(),
                )
            } else {
                (
                    format!("`{}`", written.escape_debug()),
                    format!("`{}`", seen_by_kafka.escape_debug()),
                )
            };
            diagnostics.push(
                RULE.finding(format!(
                    "Kafka reads broker files as ISO-8859-1, so the UTF-8 text {written} arrives as {seen_by_kafka}"
                ))
                .with_key(entry.key())
                .with_label(Label { file, span, message: "UTF-8 bytes, read one byte per character".into() })
                .with_help("write non-ASCII characters as \\uXXXX escapes (é is \\u00e9), which every reader decodes alike"),
            );
        }
    }
    diagnostics
}
