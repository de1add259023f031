//! `--format concise`: one line per finding, `path:line:col: severity[rule] message`, the
//! form editors parse (vim's default `errorformat`, VS Code's `$gcc`-style problem matchers).
//! Nothing else: the summary line is for people and goes to stderr (see `main.rs`).

use super::{printable, region};
use crate::report::Report;

pub fn concise(report: &Report) -> String {
    let mut out = String::new();
    for diagnostic in &report.diagnostics {
        let primary = diagnostic.primary();
        let at = region(report, primary);
        // One finding, one line: a newline in a path or a message is escaped like any other
        // control character.
        out.push_str(&format!(
            "{}:{}:{}: {}[{}] {}\n",
            printable(&report.files[primary.file].path, false),
            at.start_line,
            at.start_column,
            diagnostic.severity.as_str(),
            diagnostic.rule,
            printable(&diagnostic.headline(), false),
        ));
    }
    out
}
