//! `--format github`: GitHub Actions workflow commands, one annotation per finding:
//! `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=kafkalint(<rule>)::<message>`.
//! Escaping follows `escapeProperty` and `escapeData` of actions/toolkit
//! (`packages/core/src/command.ts`), which the runner undoes.

use super::{printable, region};
use crate::Report;
use crate::diagnostic::Severity;

/// A property value: `%`, CR, LF, `:` and `,` percent-encoded.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The message: `%`, CR and LF percent-encoded.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

pub fn github(report: &Report) -> String {
    let mut out = String::new();
    for diagnostic in &report.diagnostics {
        let primary = diagnostic.primary();
        let at = region(report, primary);
        let file = printable(&report.files[primary.file].path, false);
        out.push_str(&format!(
            "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}\n",
            command(diagnostic.severity),
            escape_property(&file),
            at.start_line,
            at.start_column,
            at.end_line,
            at.end_column,
            escape_property(&format!("kafkalint({})", diagnostic.rule)),
            // Line breaks stay line breaks in the annotation (`%0A`); other control characters
            // are shown escaped.
            escape_data(&printable(&diagnostic.message, true)),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_actions_toolkit_does() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(escape_property("50% a:b,c\r\nd"), "50%25 a%3Ab%2Cc%0D%0Ad");
        // `%` first, so an escape already in the text is not undone by the runner.
        assert_eq!(escape_data("%0A"), "%250A");
    }
}
