//! What a rule reports: plain data, rendered later by `output`.

use serde::Serialize;

use crate::properties::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place in a file: which file (an index into the checked files) and which bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub file: usize,
    pub span: Span,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    /// Kafka refuses to start with this (the broker exits while reading its configuration).
    pub stops_startup: bool,
    /// What is wrong and what it will do in production.
    pub message: String,
    /// The config key concerned, if there is one.
    pub key: Option<String>,
    /// The primary location first, then every other place that must change or explains it.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: String,
    /// The edit that fixes it, when it is unambiguous (`kafkalint check --fix` applies it).
    pub fix: Option<Fix>,
}

/// Bytes to put in place of a span of a checked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// An index into the checked files.
    pub file: usize,
    pub span: Span,
    /// The bytes written instead, as they go in the file (escaped for `Properties` already).
    pub replacement: Vec<u8>,
}

/// What `--fix` changes to resolve a finding: data, applied by the driver (`crate::fix`), never
/// by the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, e.g. "set offsets.topic.replication.factor=3".
    pub description: String,
    /// Edits that do not overlap, in any order.
    pub edits: Vec<Edit>,
}

impl Diagnostic {
    pub fn primary(&self) -> &Label {
        &self.labels[0]
    }

    pub fn url(&self) -> String {
        rule_url(self.rule)
    }
}

/// Where a rule's documentation lives.
pub fn rule_url(rule: &str) -> String {
    format!("{}/blob/main/rules/{rule}.md", env!("CARGO_PKG_REPOSITORY"))
}
