//! `--format json`: one JSON document for programs.

use serde::Serialize;

use crate::Report;
use crate::catalog;
use crate::cluster::ChosenBy;
use crate::diagnostic::{Label, Severity};

#[derive(Serialize)]
struct Document<'a> {
    clusters: Vec<JsonCluster<'a>>,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

/// A cluster and the Kafka release it was checked against.
#[derive(Serialize)]
struct JsonCluster<'a> {
    name: &'a str,
    kafka_version: String,
    /// `flag` (--kafka-version), `files` (a file shows it) or `newest`.
    kafka_version_from: &'static str,
    files: Vec<&'a str>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: Severity,
    /// Kafka refuses to start with this configuration.
    stops_startup: bool,
    message: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    key: Option<&'a str>,
    /// Kafka's documentation of the key, when it is a broker key Kafka documents.
    key_url: Option<String>,
    labels: Vec<JsonLabel<'a>>,
    help: &'a str,
    url: String,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    infos: usize,
    /// Findings that `# kafkalint: ignore[...]` comments suppressed.
    suppressed: usize,
    files: usize,
    clusters: usize,
}

pub fn json(report: &Report) -> String {
    let locate = |label: &Label| {
        let file = &report.files[label.file];
        let (line, column) = file.line_column(label.span.start);
        (file.path.as_str(), line, column)
    };
    let diagnostics = report
        .diagnostics
        .iter()
        .map(|diagnostic| {
            let (file, line, column) = locate(diagnostic.primary());
            JsonDiagnostic {
                rule: diagnostic.rule,
                severity: diagnostic.severity,
                stops_startup: diagnostic.stops_startup,
                message: &diagnostic.message,
                file,
                line,
                column,
                key: diagnostic.key.as_deref(),
                key_url: diagnostic
                    .key
                    .as_deref()
                    .filter(|key| catalog::entry(key).is_some())
                    .map(catalog::documentation_url),
                labels: diagnostic
                    .labels
                    .iter()
                    .map(|label| {
                        let (file, line, column) = locate(label);
                        JsonLabel {
                            file,
                            line,
                            column,
                            message: &label.message,
                        }
                    })
                    .collect(),
                help: &diagnostic.help,
                url: diagnostic.url(),
            }
        })
        .collect();
    let clusters = report
        .clusters
        .iter()
        .map(|cluster| JsonCluster {
            name: &cluster.name,
            kafka_version: cluster.target.version.to_string(),
            kafka_version_from: match cluster.target.chosen_by {
                ChosenBy::Flag => "flag",
                ChosenBy::Config => "config",
                ChosenBy::Hint => "files",
                ChosenBy::Newest => "newest",
            },
            files: cluster
                .files
                .iter()
                .map(|file| report.files[*file].path.as_str())
                .collect(),
        })
        .collect();
    let document = Document {
        clusters,
        diagnostics,
        summary: Summary {
            errors: report.count(Severity::Error),
            warnings: report.count(Severity::Warning),
            infos: report.count(Severity::Info),
            suppressed: report.suppressed,
            files: report.files.len(),
            clusters: report.clusters.len(),
        },
    };
    let mut text = serde_json::to_string_pretty(&document).expect("plain data serializes");
    text.push('\n');
    text
}
