//! `--format gitlab`: a GitLab Code Quality report, the JSON array of issues GitLab reads from
//! a `codequality` report artifact (GitLab's documentation, `doc/ci/testing/code_quality.md`,
//! "Code Quality report format": `description`, `check_name`, `fingerprint`, `severity`,
//! `location.path` and `location.lines.begin`).
//!
//! One issue per finding and place (a finding about several nodes is one in each node's
//! file); paths are relative to the current folder (where a pipeline checks the repository
//! out), with forward slashes. GitLab shows issues
//! with one fingerprint as one: each finding's is its own.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{last_line, printable, region, relative_path, sarif};
use crate::diagnostic::{Diagnostic, Severity};
use crate::report::Report;

/// GitLab's severities are `info`, `minor`, `major`, `critical` and `blocker`: a finding that
/// keeps Kafka from starting blocks, other errors are critical, warnings major, info info.
fn severity(diagnostic: &Diagnostic) -> &'static str {
    match diagnostic.severity {
        Severity::Error if diagnostic.stops_startup => "blocker",
        Severity::Error => "critical",
        Severity::Warning => "major",
        Severity::Info => "info",
    }
}

/// The fingerprint: the hash SARIF's `partialFingerprints` carry (rule, file, key and what the
/// primary label says, never the line, so an edit above it keeps the issue), then which of the
/// findings that agree on all of that it is. Unique within a report, stable across runs.
fn fingerprint(
    report: &Report,
    diagnostic: &Diagnostic,
    seen: &mut BTreeMap<String, u64>,
) -> String {
    let base = sarif::fingerprint_base(report, diagnostic);
    let occurrence = seen.entry(base.clone()).or_insert(0);
    *occurrence += 1;
    format!("{base}{occurrence:016x}")
}

fn issue(report: &Report, diagnostic: &Diagnostic, seen: &mut BTreeMap<String, u64>) -> Value {
    let primary = diagnostic.primary();
    let begin = region(report, primary).start_line;
    json!({
        "description": printable(&diagnostic.headline_in(&report.files[primary.file].path)),
        "check_name": diagnostic.rule,
        "fingerprint": fingerprint(report, diagnostic, seen),
        "severity": severity(diagnostic),
        "location": {
            "path": printable(&relative_path(&report.files[primary.file].path)),
            "lines": { "begin": begin, "end": last_line(report, primary).max(begin) },
        },
    })
}

pub fn gitlab(report: &Report) -> String {
    let mut seen = BTreeMap::new();
    let issues: Vec<Value> = report
        .diagnostics
        .iter()
        .flat_map(Diagnostic::per_node)
        .map(|diagnostic| issue(report, &diagnostic, &mut seen))
        .collect();
    let mut text = serde_json::to_string_pretty(&issues).expect("plain data serializes");
    text.push('\n');
    text
}
