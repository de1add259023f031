//! `--format junit`: JUnit XML, as ruff writes it (`ruff check --output-format junit`): one
//! `testsuite` per file, one `testcase` per finding and place in it (a finding about several nodes is one
//! in each node's file), each with a `failure`; a
//! clean run is one passing test case. For CI systems that show test reports (GitLab's
//! `artifacts:reports:junit`, Jenkins, Azure Pipelines).

use super::{printable, region};
use crate::diagnostic::Diagnostic;
use crate::report::Report;

/// Text for an XML attribute or element: the five predefined entities escaped, and characters
/// XML 1.0 cannot hold at all (`printable` already shows control characters escaped) shown as
/// `\u{..}` too.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in printable(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' | '\u{20}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'.. => {
                out.push(c)
            }
            _ => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out
}

/// The file's path without its extension, as ruff names a test case's class.
fn class_name(path: &str) -> String {
    let path = std::path::Path::new(path);
    match (path.extension(), path.to_str()) {
        (Some(extension), Some(text)) => text[..text.len() - extension.len() - 1].to_string(),
        _ => path.to_string_lossy().into_owned(),
    }
}

pub fn junit(report: &Report) -> String {
    // A case per finding and place (a finding about several nodes is one in each node's
    // file), each file's cases one suite, files in report order.
    let mut places: Vec<std::borrow::Cow<'_, Diagnostic>> = report
        .diagnostics
        .iter()
        .flat_map(Diagnostic::per_node)
        .collect();
    // Each file's rank, in the order files first have a place: one look-up a place, where a
    // search of the files seen would make a tree of many files quadratic.
    let mut rank: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for place in &places {
        let next = rank.len();
        rank.entry(place.primary().file).or_insert(next);
    }
    places.sort_by_key(|place| rank[&place.primary().file]);
    let failures = places.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites name=\"kafkalint\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
        failures.max(1)
    ));
    if failures == 0 {
        out.push_str(
            "    <testsuite name=\"kafkalint\" tests=\"1\" disabled=\"0\" errors=\"0\" failures=\"0\" package=\"org.kafkalint\">\n\
             \x20       <testcase name=\"No errors found\"/>\n    </testsuite>\n",
        );
    }
    for suite in places.chunk_by(|a, b| a.primary().file == b.primary().file) {
        let path = &report.files[suite[0].primary().file].path;
        out.push_str(&format!(
            "    <testsuite name=\"{}\" tests=\"{count}\" disabled=\"0\" errors=\"0\" failures=\"{count}\" package=\"org.kafkalint\">\n",
            xml(path),
            count = suite.len()
        ));
        for diagnostic in suite {
            let start = region(report, diagnostic.primary());
            let headline = xml(&diagnostic.headline_in(path));
            out.push_str(&format!(
                "        <testcase name=\"org.kafkalint.{}\" classname=\"{}\" line=\"{}\" column=\"{}\">\n\
                 \x20           <failure message=\"{headline}\">line {}, col {}, {headline}</failure>\n\
                 \x20       </testcase>\n",
                diagnostic.rule,
                xml(&class_name(path)),
                start.start_line,
                start.start_column,
                start.start_line,
                start.start_column,
            ));
        }
        out.push_str("    </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_for_xml() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(xml("x\u{1b}y\u{fffe}"), "x\\u{1b}y\\u{fffe}");
    }

    #[test]
    fn classes_are_paths_without_their_extension() {
        assert_eq!(class_name("a/server-0.properties"), "a/server-0");
        assert_eq!(class_name("a/Dockerfile"), "a/Dockerfile");
    }
}
