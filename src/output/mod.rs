//! Turning a report into bytes. Output never decides severity or filters findings.

mod concise;
mod full;
mod github;
mod gitlab;
mod json;
mod junit;
mod sarif;
mod settings;
mod statistics;

pub use crate::report::FullStyle;
pub use concise::{ConciseStyle, concise};
pub use full::{draw_each, findings_full, full, summary, summary_in, write_findings_full};
pub use github::github;
pub use gitlab::gitlab;
pub use json::{json, write_json};
pub use junit::junit;
pub use sarif::sarif;
pub use settings::settings;
pub use statistics::{statistics_json, statistics_text};

pub use crate::escape::{GuardedWriter, guard_lines, printable};

use crate::diagnostic::Label;
use crate::report::Report;

/// Where a label is, 1-based: start line and column, end line and column (the end is the
/// position just past the span, as SARIF counts it; an empty span ends where it starts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

fn region(report: &Report, label: &Label) -> Region {
    let file = &report.files[label.file];
    let (start_line, start_column) = file.line_column(label.span.start);
    let (end_line, end_column) = file.line_column(label.span.end.max(label.span.start));
    Region {
        start_line,
        start_column,
        end_line,
        end_column,
    }
}

/// The line of a label's last character (its start line for an empty span).
fn last_line(report: &Report, label: &Label) -> usize {
    if label.span.end > label.span.start {
        report.files[label.file]
            .line_column(label.span.end.max(1) - 1)
            .0
    } else {
        region(report, label).start_line
    }
}

/// A file's path relative to the current folder when it lies below it, with forward slashes
/// and without a leading `./`, as CI systems name a repository's files.
fn relative_path(path: &str) -> String {
    let shown = std::path::Path::new(path);
    let relative = if shown.is_absolute() {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| {
                shown
                    .strip_prefix(cwd)
                    .ok()
                    .map(std::path::Path::to_path_buf)
            })
            .unwrap_or_else(|| shown.to_path_buf())
    } else {
        shown.to_path_buf()
    };
    let text = relative.to_string_lossy().replace('\\', "/");
    let mut text = text.as_str();
    while let Some(rest) = text.strip_prefix("./") {
        text = rest;
    }
    text.to_string()
}
