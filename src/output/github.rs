//! `--format github`: GitHub Actions workflow commands, one annotation per finding:
//! `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=kafkalint(<rule>)::<message>`.
//! Escaping follows `escapeProperty` and `escapeData` of actions/toolkit
//! (`packages/core/src/command.ts`), which the runner undoes.
//!
//! `endColumn` is inclusive, the column of the span's last character, unlike SARIF's: the
//! toolkit's `AnnotationProperties` defaults it to `startColumn` (one character), as it defaults
//! `endLine` to `startLine`, and the checks API it feeds gives `start_column` 5 and
//! `end_column` 10 for the six letters of a misspelt word. Columns go only with a span on one
//! line: the toolkit says they cannot be sent otherwise, and the runner drops them.

use super::{Region, printable, region};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::report::Report;

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

/// `line=…,col=…,endLine=…,endColumn=…` with an inclusive end column, or `line=…,endLine=…`
/// for a span over several lines.
fn position(report: &Report, label: &Label) -> String {
    let Region {
        start_line,
        start_column,
        mut end_line,
        mut end_column,
    } = region(report, label);
    if label.span.end > label.span.start {
        if end_column > 1 {
            end_column -= 1;
        } else {
            // The span ends with a line break: its last character ends the line before.
            (end_line, end_column) =
                report.files[label.file].line_column(label.span.end.max(1) - 1);
        }
    } else {
        // An empty span (a key the file does not set): its first character.
        (end_line, end_column) = (start_line, start_column);
    }
    if end_line == start_line {
        format!("line={start_line},col={start_column},endLine={end_line},endColumn={end_column}")
    } else {
        format!("line={start_line},endLine={end_line}")
    }
}

pub fn github(report: &Report) -> String {
    let mut out = String::new();
    // A finding about several nodes is an annotation on each node's file.
    for diagnostic in report.diagnostics.iter().flat_map(Diagnostic::per_node) {
        let primary = diagnostic.primary();
        let path = &report.files[primary.file].path;
        // The one line break of an annotation is kafkalint's, before the help; the texts
        // around it are shown through `printable`, their own line breaks escaped.
        let mut text = printable(&diagnostic.headline_in(path));
        if !diagnostic.help.is_empty() {
            text.push_str("\nhelp: ");
            text.push_str(&printable(&diagnostic.help));
        }
        out.push_str(&format!(
            "::{} file={},{},title={}::{}\n",
            command(diagnostic.severity),
            escape_property(&printable(path)),
            position(report, primary),
            escape_property(&format!("kafkalint({})", diagnostic.rule)),
            escape_data(&text),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn position_of(bytes: &str, span: std::ops::Range<usize>) -> String {
        let report = Report {
            files: vec![SourceFile::new("s.properties".into(), bytes.into())],
            clusters: Vec::new(),
            diagnostics: Vec::new(),
            skipped: Vec::new(),
            notes: Vec::new(),
            not_checked: Vec::new(),
            suppressed: Default::default(),
            only: None,
            drawn: None,
            unbound_topics: Vec::new(),
        };
        let label = Label {
            file: 0,
            span,
            message: String::new(),
        };
        position(&report, &label)
    }

    #[test]
    fn end_column_is_the_last_character() {
        let text = "a=1\nlog.dirs=/tmp/é\nb=2\\\n  3\n";
        // `1`: one character, col 3 to 3.
        assert_eq!(
            position_of(text, 2..3),
            "line=1,col=3,endLine=1,endColumn=3"
        );
        // `/tmp/é`, six characters (seven bytes) from column 10.
        assert_eq!(
            position_of(text, 13..20),
            "line=2,col=10,endLine=2,endColumn=15"
        );
        // An empty span marks its first character.
        assert_eq!(
            position_of(text, 0..0),
            "line=1,col=1,endLine=1,endColumn=1"
        );
        // A span ending with its line break ends on its own line.
        assert_eq!(
            position_of(text, 0..4),
            "line=1,col=1,endLine=1,endColumn=4"
        );
        // Over a continuation line: lines only.
        assert_eq!(position_of(text, 21..29), "line=3,endLine=4");
    }

    #[test]
    fn escapes_as_actions_toolkit_does() {
        assert_eq!(escape_data("50% a:b,c\r\nd"), "50%25 a:b,c%0D%0Ad");
        assert_eq!(escape_property("50% a:b,c\r\nd"), "50%25 a%3Ab%2Cc%0D%0Ad");
        // `%` first, so an escape already in the text is not undone by the runner.
        assert_eq!(escape_data("%0A"), "%250A");
    }
}
