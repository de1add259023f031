//! Suppression comments, read from each file's comment lines:
//!
//! - `# kafkalint: ignore[rule-a, rule-b] reason` on the comment line(s) directly above an entry
//!   drops those rules' diagnostics whose primary label lies on that entry's line(s);
//! - `# kafkalint: ignore-file[rule-a] reason` anywhere in a file drops them for the whole file.
//!
//! `.properties` has no end-of-line comments (`k=v # x` makes the value `v # x`), so only comment
//! lines hold suppressions; one written after a value is reported, as are unknown rule names,
//! suppressions that suppress nothing and comments that start `kafkalint:` but cannot be read
//! (all by `unused-suppression`).

use std::collections::HashSet;
use std::ops::RangeInclusive;

use crate::diagnostic::Diagnostic;
use crate::directive::{Scope, parse_comment};
use crate::properties::Span;
use crate::rules::{self, unused_suppression};
use crate::secrets;
use crate::source::SourceFile;

/// One suppression comment of a checked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    pub file: usize,
    pub scope: Scope,
    /// Each rule name with its bytes in the file.
    pub names: Vec<(String, Span)>,
    pub reason: Option<String>,
}

/// Every suppression of `files`, and an `unused-suppression` diagnostic for each kafkalint
/// comment that cannot be read and each suppression written inside a value.
pub fn parse(files: &[SourceFile]) -> (Vec<Suppression>, Vec<Diagnostic>) {
    let mut suppressions = Vec::new();
    let mut problems = Vec::new();
    for (index, source) in files.iter().enumerate() {
        // Every directive, in a comment or after a value, holds the word `kafkalint`: a file
        // without it (most files) holds none, found without reading its lines one by one.
        if memchr::memmem::find(&source.bytes, b"kafkalint").is_none() {
            continue;
        }
        // The lines of comments and entries, found for files that hold a directive (few do).
        let lines = std::cell::OnceCell::new();
        let lines = || {
            lines.get_or_init(|| {
                let comment_lines: HashSet<usize> = source
                    .properties
                    .comments
                    .iter()
                    .map(|comment| source.line(comment.span.start))
                    .collect();
                let entry_lines: Vec<RangeInclusive<usize>> = source
                    .properties
                    .entries
                    .iter()
                    .map(|entry| {
                        let end = entry.value_span.end.max(entry.key_span.end);
                        source.line(entry.key_span.start)..=source.line(end)
                    })
                    .collect();
                (comment_lines, entry_lines)
            })
        };
        for comment in &source.properties.comments {
            let text = &source.bytes[comment.span.clone()];
            let directive = match parse_comment(text) {
                None => continue,
                Some(Ok(directive)) => directive,
                Some(Err(problem)) => {
                    problems.push(unused_suppression::unreadable(
                        index,
                        comment.span.clone(),
                        problem,
                    ));
                    continue;
                }
            };
            let scope = if directive.whole_file {
                Scope::File
            } else {
                let line = source.line(comment.span.start);
                let (comment_lines, entry_lines) = lines();
                entry_lines
                    .iter()
                    .find(|lines| *lines.start() > line)
                    .filter(|lines| (line + 1..*lines.start()).all(|l| comment_lines.contains(&l)))
                    .map_or(Scope::NoEntry, |lines| Scope::Entry(lines.clone()))
            };
            let offset = comment.span.start;
            suppressions.push(Suppression {
                file: index,
                scope,
                names: directive
                    .names
                    .into_iter()
                    .map(|(name, span)| (name, offset + span.start..offset + span.end))
                    .collect(),
                reason: directive.reason,
            });
        }
        for entry in source.entries() {
            if let Some(at) = suppression_in_value(&source.bytes[entry.value_span.clone()]) {
                // A secret value is shown redacted as a whole: point at all of it.
                let span = if secrets::is_hidden(&entry.key, &entry.value) {
                    entry.value_span.clone()
                } else {
                    entry.value_span.start + at..entry.value_span.end
                };
                problems.push(unused_suppression::in_value(index, span, &entry.key));
            }
        }
    }
    (suppressions, problems)
}

/// Where a `# kafkalint: ...` written after a value starts in the raw value, if one is there.
fn suppression_in_value(raw: &[u8]) -> Option<usize> {
    (0..raw.len())
        .filter(|at| raw[*at] == b'#' || raw[*at] == b'!')
        .find(|at| parse_comment(&raw[*at..]).is_some())
}

/// Drops the diagnostics that `files` suppress and adds the `unused-suppression` ones. Returns
/// the diagnostics kept and how many were suppressed. `judged(rule, file)` says whether the
/// rule ran on the file: a suppression of a rule that did not run (turned off in
/// `kafkalint.toml`) cannot be known to be unused, so it is not reported.
pub fn apply(
    files: &[SourceFile],
    diagnostics: Vec<Diagnostic>,
    judged: &dyn Fn(&str, usize) -> bool,
) -> (Vec<Diagnostic>, Suppressed) {
    let (suppressions, problems) = parse(files);
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    let mut suppressed = Suppressed::default();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for diagnostic in diagnostics {
        if suppress(files, &suppressions, &diagnostic, &mut used) {
            suppressed.add(diagnostic);
        } else {
            kept.push(diagnostic);
        }
    }

    let mut reports = problems;
    for (index, suppression) in suppressions.iter().enumerate() {
        // Rules do not run on a file `Properties.load` refuses: its suppressions cannot be used.
        let loads = files[suppression.file].parse_error.is_none();
        for (position, (name, span)) in suppression.names.iter().enumerate() {
            let span = span.clone();
            if rules::find(name).is_none() {
                reports.push(unused_suppression::unknown_rule(
                    suppression.file,
                    span,
                    name,
                    rules::nearest_name(name),
                ));
            } else if loads
                && name != unused_suppression::RULE.name
                && judged(name, suppression.file)
                && !used.contains(&(index, position))
            {
                reports.push(unused_suppression::unused(
                    suppression.file,
                    span,
                    name,
                    &suppression.scope,
                ));
            }
        }
    }
    // A suppression of `unused-suppression` itself silences these reports.
    for report in reports {
        if suppress(files, &suppressions, &report, &mut used) {
            suppressed.add(report);
        } else {
            kept.push(report);
        }
    }
    (kept, suppressed)
}

/// What suppressions took out of a report.
#[derive(Debug, Default, Clone)]
pub struct Suppressed {
    /// How many findings.
    pub count: usize,
    /// The edits of their fixes: `--fix` makes no fix that would also make one of these (a
    /// min ISR fix that raises a replication factor someone chose to keep).
    pub edits: Vec<crate::diagnostic::Edit>,
}

impl Suppressed {
    fn add(&mut self, diagnostic: Diagnostic) {
        self.count += 1;
        self.edits
            .extend(diagnostic.fix.into_iter().flat_map(|fix| fix.edits));
    }
}

/// Whether a suppression reaches `diagnostic`; marks the name that does as used.
fn suppress(
    files: &[SourceFile],
    suppressions: &[Suppression],
    diagnostic: &Diagnostic,
    used: &mut HashSet<(usize, usize)>,
) -> bool {
    if suppressions.is_empty() {
        return false;
    }
    let primary = diagnostic.primary();
    let line = files[primary.file].line_column(primary.span.start).0;
    for (index, suppression) in suppressions.iter().enumerate() {
        if suppression.file != primary.file {
            continue;
        }
        let reaches = match &suppression.scope {
            Scope::File => true,
            Scope::Entry(lines) => lines.contains(&line),
            Scope::NoEntry => false,
        };
        if !reaches {
            continue;
        }
        if let Some(position) = suppression
            .names
            .iter()
            .position(|(name, _)| name == diagnostic.rule)
        {
            used.insert((index, position));
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> SourceFile {
        SourceFile::new("server.properties".into(), text.as_bytes().to_vec())
    }

    #[test]
    fn a_suppression_reaches_the_entry_below_over_its_continuation_lines() {
        let files = [file(
            "# kafkalint: ignore[a]\n# another comment\nk=1,\\\n  2\n\n# kafkalint: ignore[b]\n\nz=1\n",
        )];
        let (suppressions, problems) = parse(&files);
        assert!(problems.is_empty());
        assert_eq!(suppressions[0].scope, Scope::Entry(3..=4));
        assert_eq!(suppressions[1].scope, Scope::NoEntry);
    }

    #[test]
    fn a_suppression_after_a_value_is_found() {
        assert_eq!(suppression_in_value(b"3 # kafkalint: ignore[a]"), Some(2));
        assert_eq!(suppression_in_value(b"3 #kafkalint:ignore[a]"), Some(2));
        assert_eq!(suppression_in_value(b"pa#ss"), None);
        assert_eq!(suppression_in_value(b"x # kafkalint rocks"), None);
    }
}
