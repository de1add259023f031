//! `--format concise`: one line per finding, `path:line:col: severity[rule] message`, the
//! form editors parse (vim's default `errorformat`, VS Code's `$gcc`-style problem matchers).
//! A finding about several nodes is a line per node, at its place. The help follows the
//! message on the line: `path:3:34: error[rule] message (help: ...)`. Nothing else: the
//! summary line is for people and goes to stderr (see `main.rs`).

use super::{printable, region};
use crate::report::Report;

pub fn concise(report: &Report) -> String {
    let mut out = String::new();
    for grouped in &report.diagnostics {
        for diagnostic in grouped.per_node() {
            let primary = diagnostic.primary();
            let at = region(report, primary);
            let path = &report.files[primary.file].path;
            // One place, one line: a newline in a path or a message is escaped like any other
            // control character.
            out.push_str(&format!(
                "{}:{}:{}: {}[{}] {}{}\n",
                printable(path),
                at.start_line,
                at.start_column,
                diagnostic.severity.as_str(),
                diagnostic.rule,
                printable(&diagnostic.headline_in(path)),
                help(&diagnostic.help),
            ));
        }
    }
    out
}

/// ` (help: ...)`, or nothing for a finding without help.
fn help(help: &str) -> String {
    if help.is_empty() {
        String::new()
    } else {
        format!(" (help: {})", printable(help))
    }
}
