//! `--format sarif`: a SARIF 2.1.0 log for GitHub code scanning and other SARIF viewers.
//!
//! One run; its driver lists every rule of the registry, so a result's `ruleIndex` is the
//! rule's place in `rules::RULES`. Locations are relative to `%SRCROOT%`, the current folder
//! (where a workflow checks the repository out). The bytes depend only on the report and the
//! current folder.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use serde_json::{Value, json};

use super::{Region, printable, region};
use crate::diagnostic::{Diagnostic, Fix, Label, Severity, rule_url};
use crate::report::Report;
use crate::rules::RULES;

const SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The name under which `partialFingerprints` carries kafkalint's own fingerprint. Bump the
/// version if what goes into it ever changes: code scanning would otherwise match old alerts
/// to unrelated new ones.
const FINGERPRINT: &str = "kafkalint/v1";

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// An `artifactLocation`: a relative reference under `%SRCROOT%` with forward slashes, or a
/// `file://` URI for a file outside the current folder.
fn artifact_location(path: &str) -> Value {
    let path = Path::new(path);
    let relative = if path.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
    } else {
        Some(path.to_path_buf())
    };
    match relative {
        Some(relative) => {
            let segments: Vec<String> = relative
                .components()
                .filter_map(|component| match component {
                    Component::CurDir => None,
                    Component::ParentDir => Some("..".to_string()),
                    other => Some(encode_segment(&other.as_os_str().to_string_lossy())),
                })
                .collect();
            json!({ "uri": segments.join("/"), "uriBaseId": "%SRCROOT%" })
        }
        None => {
            let text = path.to_string_lossy().replace('\\', "/");
            let encoded: Vec<String> = text.split('/').map(encode_segment).collect();
            let joined = encoded.join("/");
            let uri = if joined.starts_with('/') {
                format!("file://{joined}")
            } else {
                // A Windows drive path: `C:/...`, whose colon `encode_segment` kept.
                format!("file:///{joined}")
            };
            json!({ "uri": uri })
        }
    }
}

/// Percent-encodes a path segment: everything but RFC 3986's unreserved characters (and a
/// drive letter's colon), as UTF-8 bytes.
fn encode_segment(segment: &str) -> String {
    let drive = segment.len() == 2
        && segment.as_bytes()[0].is_ascii_alphabetic()
        && segment.as_bytes()[1] == b':';
    if drive {
        return segment.to_string();
    }
    let mut out = String::new();
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn region_json(at: Region) -> Value {
    json!({
        "startLine": at.start_line,
        "startColumn": at.start_column,
        "endLine": at.end_line,
        "endColumn": at.end_column,
    })
}

fn location(report: &Report, label: &Label) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": artifact_location(&report.files[label.file].path),
            "region": region_json(region(report, label)),
        },
        "message": { "text": printable(&label.message) },
    })
}

/// A fix as SARIF has it: per file, the regions replaced and what goes in their place.
fn fix_json(report: &Report, fix: &Fix) -> Value {
    let mut by_file: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    for edit in &fix.edits {
        let at = region(
            report,
            &Label {
                file: edit.file,
                span: edit.span.clone(),
                message: String::new(),
            },
        );
        // Fixes write digits or nothing; Latin-1 like the files.
        let text: String = edit.replacement.iter().map(|b| char::from(*b)).collect();
        by_file.entry(edit.file).or_default().push(json!({
            "deletedRegion": region_json(at),
            "insertedContent": { "text": text },
        }));
    }
    json!({
        "description": { "text": printable(&fix.description) },
        "artifactChanges": by_file
            .into_iter()
            .map(|(file, replacements)| json!({
                "artifactLocation": artifact_location(&report.files[file].path),
                "replacements": replacements,
            }))
            .collect::<Vec<_>>(),
    })
}

/// FNV-1a, 64 bits: small, and the same on every platform and Rust release (unlike std's
/// hashers, which promise neither).
fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0xff]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// What identifies a finding across commits: its rule, file, key and what the primary label
/// says, never its line, so an edit above it keeps the alert.
pub(super) fn fingerprint_base(report: &Report, diagnostic: &Diagnostic) -> String {
    let primary = diagnostic.primary();
    let uri = artifact_location(&report.files[primary.file].path);
    let hash = fnv1a(&[
        diagnostic.rule,
        uri["uri"].as_str().unwrap_or_default(),
        diagnostic.key.as_deref().unwrap_or_default(),
        &primary.message,
    ]);
    format!("{hash:016x}")
}

fn driver() -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|rule| {
            let url = rule_url(rule.name);
            json!({
                "id": rule.name,
                "name": rule.name,
                "shortDescription": { "text": rule.summary },
                "helpUri": url,
                "help": { "text": format!("{}\n\nSee {url}", rule.summary) },
                "defaultConfiguration": { "level": level(rule.severity) },
                // The rule's group, as GitHub code scanning filters alerts by tag.
                "properties": { "tags": [rule.group.as_str()] },
            })
        })
        .collect();
    json!({
        "name": env!("CARGO_PKG_NAME"),
        "informationUri": env!("CARGO_PKG_REPOSITORY"),
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    })
}

/// One finding as a SARIF result. Two findings that agree on everything fingerprinted are
/// told apart by their order (`seen` counts them).
fn result(report: &Report, diagnostic: &Diagnostic, seen: &mut BTreeMap<String, usize>) -> Value {
    let base = fingerprint_base(report, diagnostic);
    let occurrence = seen.entry(base.clone()).or_insert(0);
    *occurrence += 1;
    let related: Vec<Value> = diagnostic.labels[1..]
        .iter()
        .enumerate()
        .map(|(index, label)| {
            let mut related = location(report, label);
            related["id"] = json!(index + 1);
            related
        })
        .collect();
    let mut result = json!({
        "ruleId": diagnostic.rule,
        "level": level(diagnostic.severity),
        "message": {
            "text": printable(&diagnostic.headline_in(&report.files[diagnostic.primary().file].path))
        },
        "locations": [location(report, diagnostic.primary())],
        "partialFingerprints": { FINGERPRINT: format!("{base}:{occurrence}") },
    });
    if let Some(index) = RULES.iter().position(|rule| rule.name == diagnostic.rule) {
        result["ruleIndex"] = json!(index);
    }
    if !related.is_empty() {
        result["relatedLocations"] = json!(related);
    }
    if let Some(fix) = &diagnostic.fix {
        result["fixes"] = json!([fix_json(report, fix)]);
    }
    result
}

/// The results, each built as it is written: a tree's findings held whole as `Value`s took
/// several times the size of the output.
struct Results<'a>(&'a Report);

impl serde::Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seen = BTreeMap::new();
        let mut results = serializer.serialize_seq(None)?;
        // A finding about several nodes is a result at each node's place.
        for diagnostic in self.0.diagnostics.iter().flat_map(Diagnostic::per_node) {
            results.serialize_element(&result(self.0, &diagnostic, &mut seen))?;
        }
        results.end()
    }
}

/// The log, its keys in the order `Value` writes them (sorted), as before the results were
/// written one by one.
#[derive(serde::Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: [Run<'a>; 1],
    version: &'static str,
}

#[derive(serde::Serialize)]
struct Run<'a> {
    #[serde(rename = "columnKind")]
    column_kind: &'static str,
    results: Results<'a>,
    tool: Value,
}

pub fn sarif(report: &Report) -> String {
    let log = Log {
        schema: SCHEMA,
        runs: [Run {
            column_kind: "unicodeCodePoints",
            results: Results(report),
            tool: json!({ "driver": driver() }),
        }],
        version: "2.1.0",
    };
    let mut text = serde_json::to_string_pretty(&log).expect("plain data serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_with_forward_slashes_and_encoded() {
        assert_eq!(
            artifact_location("./fixtures/a b/server-0.properties"),
            json!({ "uri": "fixtures/a%20b/server-0.properties", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location("../x/100%.properties")["uri"],
            "../x/100%25.properties"
        );
        assert_eq!(
            artifact_location("/elsewhere/server.properties"),
            json!({ "uri": "file:///elsewhere/server.properties" })
        );
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        // FNV-1a 64 of "a" is af63dc4c8601ec8c; our separator byte follows each part.
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        hash ^= u64::from(b'a');
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        assert_eq!(hash, 0xaf63_dc4c_8601_ec8c);
    }
}
