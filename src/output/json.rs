//! `--format json`: one JSON document for programs.

use serde::Serialize;

use crate::Report;
use crate::diagnostic::{Label, Severity};

#[derive(Serialize)]
struct Document<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: Severity,
    message: &'a str,
    file: &'a str,
    line: usize,
    column: usize,
    key: Option<&'a str>,
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
                message: &diagnostic.message,
                file,
                line,
                column,
                key: diagnostic.key.as_deref(),
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
    let document = Document {
        diagnostics,
        summary: Summary {
            errors: report.count(Severity::Error),
            warnings: report.count(Severity::Warning),
            infos: report.count(Severity::Info),
            files: report.files.len(),
            clusters: report.clusters.len(),
        },
    };
    let mut text = serde_json::to_string_pretty(&document).expect("plain data serializes");
    text.push('\n');
    text
}
