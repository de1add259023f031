//! `--format concise`: one line per finding, `path:line:col: severity[rule] message`, the
//! form editors parse (vim's default `errorformat`, VS Code's `$gcc`-style problem matchers).
//! A finding `--fix` can fix carries ` [*]` after its rule, as ruff marks one:
//! `path:3:34: error[rule] [*] message`: a safe fix, or with `--unsafe-fixes` any fix. A finding about several nodes is a line per node, at
//! its place. The help is left off the line, for lines short enough to scan; `--show-help`
//! puts it back after the message: `... message (help: ...)`. Lines are sorted by file (as
//! printed), line, column and rule. Nothing else: the summary line is for people and goes to
//! stderr (see `main.rs`).

use super::{printable, region};
use crate::diagnostic::Applicability;
use crate::report::Report;

impl Default for ConciseStyle {
    fn default() -> Self {
        ConciseStyle {
            show_help: false,
            allowed: Applicability::Safe,
        }
    }
}

/// What `--format concise` shows beside each finding's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConciseStyle {
    /// `--show-help`: the help after the message, `(help: ...)`.
    pub show_help: bool,
    /// The fixes `[*]` marks: those `--fix` makes (safe ones; unsafe ones too with
    /// `--unsafe-fixes`).
    pub allowed: Applicability,
}

pub fn concise(report: &Report, style: ConciseStyle) -> String {
    let mut lines = Vec::new();
    for grouped in &report.diagnostics {
        for diagnostic in grouped.per_node() {
            let primary = diagnostic.primary();
            let at = region(report, primary);
            // One place, one line: a newline in a path or a message is escaped like any other
            // control character.
            let path = &report.files[primary.file].path;
            let shown_path = printable(path);
            let line = format!(
                "{}:{}:{}: {}[{}]{} {}{}\n",
                shown_path,
                at.start_line,
                at.start_column,
                diagnostic.severity.as_str(),
                diagnostic.rule,
                if diagnostic
                    .fix
                    .as_ref()
                    .is_some_and(|fix| fix.applicability.applies(style.allowed))
                {
                    " [*]"
                } else {
                    ""
                },
                printable(&diagnostic.headline_in(path)),
                if style.show_help {
                    help(&diagnostic.help)
                } else {
                    String::new()
                },
            );
            let key = (shown_path, at.start_line, at.start_column, diagnostic.rule);
            lines.push((key, line));
        }
    }
    // A stable sort: findings at one place by one rule keep the report's order.
    lines.sort_by(|(a, _), (b, _)| a.cmp(b));
    lines.into_iter().map(|(_, line)| line).collect()
}

/// ` (help: ...)`, or nothing for a finding without help.
fn help(help: &str) -> String {
    if help.is_empty() {
        String::new()
    } else {
        format!(" (help: {})", printable(help))
    }
}
