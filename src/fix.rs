//! `kafkalint check --fix` and `--diff`: applying the fixes rules attach to their findings.
//!
//! Rules never write files: a fix is data on a diagnostic ([`crate::diagnostic::Fix`]). This
//! driver applies them to the bytes that were checked, checks the result again, and repeats
//! until no fix is left (a fix may make another one possible, e.g. two lines that become exact
//! repeats). Every round is verified: each applied fix must remove its finding, no file may
//! stop parsing, and no key a fix did not touch may change its value. Only then does
//! [`write()`] replace the files: all of them, each whole, or none.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;

use crate::cluster::Discovered;
use crate::diagnostic::{Applicability, Diagnostic, Edit};
use crate::properties::PropertiesFile;
use crate::report::{self, Options, Report};
use crate::source::SourceFile;

/// Rounds of fix-and-check before giving up on what is left (it is reported as remaining).
const MAX_ROUNDS: usize = 10;

/// One file the fixes change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFix {
    /// The file's index in the report's files.
    pub file: usize,
    /// Its path as shown in output (and as read from disk).
    pub path: String,
    /// The bytes that were checked.
    pub before: Vec<u8>,
    /// The bytes with every fix applied.
    pub after: Vec<u8>,
}

/// The outcome of applying every fix, in memory.
#[derive(Debug)]
pub struct Fixed {
    /// The check of the fixed files: the findings that remain.
    pub report: Report,
    /// The files whose bytes change, in the report's file order.
    pub changes: Vec<FileFix>,
    /// How many findings the fixes resolved.
    pub fixed: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum FixError {
    /// A fix that does not do what it claims: a bug in kafkalint, caught before writing.
    #[error(
        "{path}: the fix `{description}` ({rule}) {problem}; nothing written (this is a bug in kafkalint, please report it)"
    )]
    Bug {
        path: String,
        rule: &'static str,
        description: String,
        problem: String,
    },
    /// One file read twice (named and found in a folder) whose fixes differ: in one cluster
    /// it is one broker among several, in the other a cluster of its own.
    #[error(
        "{path}: read twice (named and found in a folder, or named twice), in clusters whose fixes differ; nothing written (name it once)"
    )]
    Conflict { path: String },
    /// The file on disk is no longer what was checked.
    #[error("{path}: changed since it was checked; nothing written (run kafkalint again)")]
    Modified { path: String },
    #[error("{path}: cannot write the fixed file: {message}; nothing written")]
    Io { path: String, message: String },
    /// A failure part-way after which some files already written could not be put back.
    #[error(
        "{path}: {problem}; written all the same, as putting the original back failed: {}; every other file is as it was",
        written.join(", ")
    )]
    PartlyWritten {
        path: String,
        problem: String,
        /// Each file that holds the fix: its path and why its original is not back.
        written: Vec<String>,
    },
}

/// How many findings have a fix that `allowed` makes, and how many one it does not make (an
/// unsafe fix without `--unsafe-fixes`), counted once a node as every tally counts them.
pub fn fixable(report: &Report, allowed: Applicability) -> (usize, usize) {
    report
        .diagnostics
        .iter()
        .filter_map(|diagnostic| {
            let fix = diagnostic.fix.as_ref()?;
            Some((fix.applicability, diagnostic.locations().count()))
        })
        .fold((0, 0), |(made, hidden), (applicability, count)| {
            if applicability.applies(allowed) {
                (made + count, hidden)
            } else {
                (made, hidden + count)
            }
        })
}

/// The line after the summary that says what `--fix` would make, as ruff says it: `[*] 2
/// fixable with the `--fix` option (6 hidden fixes can be enabled with the `--unsafe-fixes`
/// option).`, or `No fixes available (...)` when only unsafe fixes are left; `None` when no
/// finding has a fix.
pub fn hint(report: &Report, allowed: Applicability) -> Option<String> {
    let (made, hidden) = fixable(report, allowed);
    let hidden = (hidden > 0).then(|| {
        format!(
            "{hidden} hidden fix{} can be enabled with the `--unsafe-fixes` option",
            if hidden == 1 { "" } else { "es" }
        )
    });
    match (made, hidden) {
        (0, None) => None,
        (0, Some(hidden)) => Some(format!("No fixes available ({hidden}).\n")),
        (made, None) => Some(format!("[*] {made} fixable with the `--fix` option.\n")),
        (made, Some(hidden)) => Some(format!(
            "[*] {made} fixable with the `--fix` option ({hidden}).\n"
        )),
    }
}

/// Applies every fix of `report` (checked with `options`) that `allowed` makes (`Safe` for
/// `--fix`, `Unsafe` with `--unsafe-fixes`) in memory, checks the result, and repeats until no
/// such fix is left. Nothing is written.
pub fn fix(report: Report, options: &Options, allowed: Applicability) -> Result<Fixed, FixError> {
    let before: Vec<std::sync::Arc<[u8]>> =
        report.files.iter().map(|file| file.bytes.clone()).collect();
    let mut current = report;
    let mut fixed = 0;
    for _ in 0..MAX_ROUNDS {
        let (applied, edits) = select(&current.diagnostics, &current.suppressed.edits, allowed);
        if applied.is_empty() {
            break;
        }
        let bytes: Vec<Vec<u8>> = current
            .files
            .iter()
            .enumerate()
            .map(|(index, file)| apply(&file.bytes, edits.iter().filter(|e| e.file == index)))
            .collect();
        let next = recheck(&current, bytes, options);
        verify(&current, &next, &applied, &edits)?;
        // A finding about several nodes counts once a node, as every tally counts it.
        fixed += applied
            .iter()
            .map(|diagnostic| diagnostic.locations().count())
            .sum::<usize>();
        current = next;
    }
    let changed: Vec<usize> = (0..current.files.len())
        .filter(|index| current.files[*index].bytes != before[*index])
        .collect();
    // The file on disk behind each path, to catch one file read twice (named, and found in a
    // folder): its copies must agree, and it is written once.
    let targets: Vec<Option<PathBuf>> = if changed.is_empty() {
        Vec::new()
    } else {
        current
            .files
            .iter()
            .map(|file| std::fs::canonicalize(&file.path).ok())
            .collect()
    };
    let mut changes: Vec<FileFix> = Vec::new();
    for index in changed {
        let file = &current.files[index];
        let copies = (0..current.files.len())
            .filter(|other| *other != index && targets[index].is_some())
            .filter(|other| targets[*other] == targets[index]);
        let mut first = true;
        for other in copies {
            if current.files[other].bytes != file.bytes || before[other] != before[index] {
                return Err(FixError::Conflict {
                    path: file.path.clone(),
                });
            }
            first &= other > index;
        }
        if first {
            changes.push(FileFix {
                file: index,
                path: file.path.clone(),
                before: before[index].to_vec(),
                after: file.bytes.to_vec(),
            });
        }
    }
    Ok(Fixed {
        report: current,
        changes,
        fixed,
    })
}

/// The fixes to apply in one round: in report order, those `allowed` makes, each whole or not
/// at all, skipping one whose edits overlap an edit already taken (unless it is the very same
/// edit, as when a min ISR fix carries its replication factor's fix). Returns the fixed
/// findings and the edits.
fn select<'a>(
    diagnostics: &'a [Diagnostic],
    suppressed: &[Edit],
    allowed: Applicability,
) -> (Vec<&'a Diagnostic>, Vec<Edit>) {
    let mut applied = Vec::new();
    let mut taken: Vec<Edit> = Vec::new();
    for diagnostic in diagnostics {
        let Some(fix) = diagnostic
            .fix
            .as_ref()
            .filter(|fix| fix.applicability.applies(allowed))
        else {
            continue;
        };
        // A fix that would also make a suppressed finding's fix (a min ISR fix that raises a
        // replication factor someone chose to keep) is not made: it is no longer unambiguous.
        if fix
            .edits
            .iter()
            .any(|edit| suppressed.iter().any(|other| edit.overlaps(other)))
        {
            continue;
        }
        let new: Vec<&Edit> = fix.edits.iter().filter(|e| !taken.contains(e)).collect();
        let clashes = new.iter().enumerate().any(|(i, edit)| {
            taken
                .iter()
                .chain(new[..i].iter().copied())
                .any(|other| edit.overlaps(other))
        });
        if clashes {
            continue; // the next round sees it again, on the changed file
        }
        taken.extend(new.into_iter().cloned());
        applied.push(diagnostic);
    }
    (applied, taken)
}

/// The bytes with `edits` applied, from the end so that earlier spans stay true.
fn apply<'a>(bytes: &[u8], edits: impl Iterator<Item = &'a Edit>) -> Vec<u8> {
    let mut edits: Vec<&Edit> = edits.collect();
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.span.start));
    let mut result = bytes.to_vec();
    for edit in edits {
        result.splice(edit.span.clone(), edit.replacement.iter().copied());
    }
    result
}

/// Checks `bytes` in place of `report`'s files, with the same clusters (fixes change values,
/// never what makes a file a node of a cluster).
fn recheck(report: &Report, bytes: Vec<Vec<u8>>, options: &Options) -> Report {
    let files: Vec<SourceFile> = report
        .files
        .iter()
        .zip(bytes)
        .map(|(file, bytes)| file.with_bytes(bytes))
        .collect();
    let clusters = report
        .clusters
        .iter()
        .map(|cluster| cluster.reread(&files))
        .collect();
    let unbound_topics = crate::cluster::topics::reread(&report.unbound_topics, &files);
    let found = Discovered {
        files,
        clusters,
        skipped: report.skipped.clone(),
        notes: report.notes.clone(),
        unbound_topics,
    };
    report::run(found, options, report.only.as_deref())
}

/// Whether a finding is about a declared topic: about no node and no key, so that two
/// topics of one file (one fixed, one whose factor is a variable) are told apart only by
/// where they are written.
fn is_about_a_topic(diagnostic: &Diagnostic) -> bool {
    diagnostic.rule.starts_with("topic-")
        && diagnostic.subject.node.is_none()
        && diagnostic.key.is_none()
}

/// Whether `remaining` points where `fixed`'s fix wrote (the same value, read again).
fn found_where_fixed(remaining: &Diagnostic, fixed: &Diagnostic, edits: &[Edit]) -> bool {
    let Some(fix) = &fixed.fix else {
        return true;
    };
    fix.edits.iter().any(|edit| {
        let start = moved(edit.span.start, edit.file, edits);
        remaining
            .labels
            .iter()
            .any(|label| label.file == edit.file && label.span.start == start)
    })
}

/// Where byte `at` of `file` is once `edits` are made.
fn moved(at: usize, file: usize, edits: &[Edit]) -> usize {
    let (grown, shrunk) = edits
        .iter()
        .filter(|edit| edit.file == file && edit.span.end <= at)
        .fold((0, 0), |(grown, shrunk), edit| {
            (grown + edit.replacement.len(), shrunk + edit.span.len())
        });
    (at + grown).saturating_sub(shrunk)
}

/// What every round must hold, or nothing is written.
fn verify(
    before: &Report,
    after: &Report,
    applied: &[&Diagnostic],
    edits: &[Edit],
) -> Result<(), FixError> {
    let bug = |diagnostic: &Diagnostic, file: usize, problem: String| FixError::Bug {
        path: before.files[file].path.clone(),
        rule: diagnostic.rule,
        description: diagnostic
            .fix
            .as_ref()
            .map(|fix| fix.description.clone())
            .unwrap_or_default(),
        problem,
    };
    // The fix touching a file, to name in an error about that file.
    let fix_in = |file: usize| {
        applied.iter().copied().find(|diagnostic| {
            diagnostic
                .fix
                .as_ref()
                .is_some_and(|fix| fix.edits.iter().any(|edit| edit.file == file))
        })
    };
    // A file that no longer parses first: it also drops out of its cluster, which changes
    // the findings of the others.
    for (index, (old, new)) in before.files.iter().zip(&after.files).enumerate() {
        if let (None, Some(error), Some(culprit)) =
            (&old.parse_error, &new.parse_error, fix_in(index))
        {
            return Err(bug(
                culprit,
                index,
                format!("makes the file unreadable for Kafka ({error})"),
            ));
        }
    }
    for (index, (old, new)) in before.files.iter().zip(&after.files).enumerate() {
        if old.bytes == new.bytes {
            continue;
        }
        let Some(culprit) = fix_in(index) else {
            continue;
        };
        // A key no edit touched keeps the value Kafka reads, in each node of the file.
        for part in old.parts() {
            let (old, new) = (old.settings(part), new.settings(part));
            let touched: BTreeSet<&str> = old
                .entries
                .iter()
                .filter(|entry| {
                    let whole = entry.key_span.start..entry.key_span.end.max(entry.value_span.end);
                    edits.iter().any(|edit| {
                        edit.file == index
                            && edit.span.start < whole.end
                            && whole.start < edit.span.end
                    })
                })
                .map(|entry| entry.key.as_str())
                .collect();
            let values = |properties: &'_ PropertiesFile| -> BTreeMap<String, String> {
                properties
                    .effective_entries()
                    .map(|entry| (entry.key.clone(), entry.value.clone()))
                    .collect()
            };
            let (old_values, new_values) = (values(old), values(new));
            let keys: BTreeSet<&String> = old_values.keys().chain(new_values.keys()).collect();
            if let Some(key) = keys.into_iter().find(|key| {
                !touched.contains(key.as_str()) && old_values.get(*key) != new_values.get(*key)
            }) {
                return Err(bug(
                    culprit,
                    index,
                    format!("changes `{key}`, which it does not fix"),
                ));
            }
        }
    }
    for diagnostic in applied {
        let file = diagnostic.primary().file;
        let left = after.diagnostics.iter().any(|remaining| {
            // The same finding: the same rule and key, in the same file about the same node
            // (the other services of a compose file report theirs apart), at one of its places.
            remaining.rule == diagnostic.rule
                && remaining.same_key(diagnostic)
                && remaining.subject.component == diagnostic.subject.component
                && remaining.locations().any(|left| {
                    diagnostic
                        .locations()
                        .any(|fixed| left.label.file == fixed.label.file && left.node == fixed.node)
                })
                && (!is_about_a_topic(diagnostic)
                    || found_where_fixed(remaining, diagnostic, edits))
        });
        if left {
            return Err(bug(diagnostic, file, "leaves its finding in place".into()));
        }
    }
    Ok(())
}

/// Lines of context a hunk of `--diff` shows each side of a change, at most.
const CONTEXT: usize = 3;

/// A unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with up to 3 lines of context) of every
/// change, shown as other outputs show files: secrets redacted, control characters escaped,
/// Latin-1 bytes as the characters Kafka reads, the path shown through `printable`, no line a
/// workflow command. Line ends are not shown (fixes keep them).
///
/// It applies with a plain `git apply` (or `patch -p1`): a line shown otherwise than it is (a
/// hidden value, an escaped character) is never context, as context must be the file's bytes.
/// A hunk's context stops short of such a line; a change that cannot have the context `git
/// apply` needs without one (such a line right after it, or a change in such a line) is left
/// out of the hunks and said in a `# kafkalint:` note before its file's header, with its lines as
/// every output shows them; `git apply` passes over the note, and `--fix` makes the change.
pub fn diff(fixed: &Fixed) -> String {
    let mut text = String::new();
    for change in &fixed.changes {
        let read_as = &fixed.report.files[change.file];
        let old = Side::of(read_as, &change.before);
        let new = Side::of(read_as, &change.after);
        let name = crate::escape::printable(change.path.trim_start_matches('/'));
        let (hunks, left_out) = hunks(&old, &new);
        for hunk in &left_out {
            let line = hunk.changes[0].0.start + 1;
            let why = if hunk.changes_hidden_text(&old, &new) {
                "it changes text kafkalint hides"
            } else {
                "a line beside it holds text kafkalint hides or escapes, which a diff that \
                 applies must show as it is"
            };
            text.push_str(&format!(
                "# kafkalint: {name}:{line}: a change left out of this diff, as {why}; \
                 `--fix` with the same options makes it:\n"
            ));
            for shown in hunk.lines(&old, &new, false) {
                text.push_str("#   ");
                text.push_str(&shown);
                text.push('\n');
            }
        }
        if hunks.is_empty() {
            continue;
        }
        text.push_str(&format!("--- a/{name}\n+++ b/{name}\n"));
        // The new side's lines as the shown hunks make it: a change left out is not made.
        let mut growth = 0;
        for hunk in &hunks {
            let (old_start, _) = hunk.header_lines();
            let new_start = if hunk.new.is_empty() {
                hunk.old.start
            } else {
                hunk.old.start + 1
            }
            .saturating_add_signed(growth);
            growth += hunk.growth();
            text.push_str(&format!(
                "@@ -{old_start},{} +{new_start},{} @@\n",
                hunk.old.len(),
                hunk.new.len()
            ));
            for shown in hunk.lines(&old, &new, true) {
                text.push_str(&shown);
                text.push('\n');
            }
        }
    }
    text
}

/// One side of a change: the file's lines as bytes (without their ends) and as output shows
/// them.
struct Side<'a> {
    raw: Vec<&'a [u8]>,
    /// Whether each line ends with a line break (the last may not).
    ended: Vec<bool>,
    /// The lines as shown; `None` if the shown text does not have the file's lines (then no
    /// line is context).
    shown: Option<Vec<String>>,
}

impl<'a> Side<'a> {
    fn of(read_as: &SourceFile, bytes: &'a [u8]) -> Side<'a> {
        let mut raw = Vec::new();
        let mut ended = Vec::new();
        let mut start = 0;
        let mut at = 0;
        while at < bytes.len() {
            match bytes[at] {
                b'\r' if bytes.get(at + 1) == Some(&b'\n') => {
                    raw.push(&bytes[start..at]);
                    ended.push(true);
                    at += 2;
                    start = at;
                }
                b'\r' | b'\n' => {
                    raw.push(&bytes[start..at]);
                    ended.push(true);
                    at += 1;
                    start = at;
                }
                _ => at += 1,
            }
        }
        if start < bytes.len() {
            raw.push(&bytes[start..]);
            ended.push(false);
        }
        let text = read_as.with_bytes(bytes.to_vec()).display_text().text;
        let text = crate::escape::guard_lines(&text, false).into_owned();
        let shown: Vec<String> = text
            .split_inclusive('\n')
            .map(|line| {
                let line = line.strip_suffix('\n').unwrap_or(line);
                line.strip_suffix('\r').unwrap_or(line).to_string()
            })
            .collect();
        let shown = (shown.len() == raw.len()).then_some(shown);
        Side { raw, ended, shown }
    }

    /// Line `index` as output shows it (the redacted form when the lines do not match up).
    fn shown(&self, index: usize) -> String {
        match &self.shown {
            Some(shown) => shown[index].clone(),
            None => crate::escape::printable(&String::from_utf8_lossy(self.raw[index])),
        }
    }

    /// Whether line `index` is shown as its bytes, so that it may be context, or a line
    /// `git apply` finds.
    fn faithful(&self, index: usize) -> bool {
        self.shown
            .as_ref()
            .is_some_and(|shown| shown[index].as_bytes() == self.raw[index])
    }
}

/// A hunk: the lines of each side it covers (context included), and its changes.
struct Hunk {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
    /// Each change: the old lines that go and the new lines that come.
    changes: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

impl Hunk {
    /// The line numbers of the header, `@@ -old,n +new,m @@`: the first line of each side, or
    /// for a side of no lines the line before it, as unified diffs count.
    fn header_lines(&self) -> (usize, usize) {
        let first = |range: &std::ops::Range<usize>| {
            if range.is_empty() {
                range.start
            } else {
                range.start + 1
            }
        };
        (first(&self.old), first(&self.new))
    }

    /// Whether a line it removes or adds is shown otherwise than it is.
    fn changes_hidden_text(&self, old: &Side, new: &Side) -> bool {
        self.changes.iter().any(|(gone, come)| {
            gone.clone().any(|at| !old.faithful(at)) || come.clone().any(|at| !new.faithful(at))
        })
    }

    /// How many lines it adds, less those it removes.
    fn growth(&self) -> isize {
        self.new.len() as isize - self.old.len() as isize
    }

    /// Its lines as a hunk shows them (` context`, `-old`, `+new`); `with_context`: with its
    /// context and `\ No newline at end of file` where a side's last line has no end.
    fn lines(&self, old: &Side, new: &Side, with_context: bool) -> Vec<String> {
        let mut lines = Vec::new();
        let no_newline = "\\ No newline at end of file".to_string();
        let mut at_old = self.old.start;
        for (gone, come) in &self.changes {
            if with_context {
                for at in at_old..gone.start {
                    lines.push(format!(" {}", old.shown(at)));
                }
            }
            for at in gone.clone() {
                lines.push(format!("-{}", old.shown(at)));
                if with_context && !old.ended[at] {
                    lines.push(no_newline.clone());
                }
            }
            for at in come.clone() {
                lines.push(format!("+{}", new.shown(at)));
                if with_context && !new.ended[at] {
                    lines.push(no_newline.clone());
                }
            }
            at_old = gone.end;
        }
        if with_context {
            for at in at_old..self.old.end {
                lines.push(format!(" {}", old.shown(at)));
                if !old.ended[at] {
                    lines.push(no_newline.clone());
                }
            }
        }
        lines
    }
}

/// The hunks of the change from `old` to `new` that apply as shown, and those left out.
fn hunks(old: &Side, new: &Side) -> (Vec<Hunk>, Vec<Hunk>) {
    // Changes found on the bytes, so that a change inside hidden text is one too.
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old.raw, &new.raw);
    let mut changes: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for op in ops {
        let (tag, gone, come) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        match changes.last_mut() {
            Some((last_gone, last_come)) if last_gone.end == gone.start => {
                last_gone.end = gone.end;
                last_come.end = come.end;
            }
            _ => changes.push((gone, come)),
        }
    }
    // Changes a few faithful lines apart share a hunk; one in hidden text (left out) has a
    // hunk of its own, so that it leaves out no other.
    let hidden = |(gone, come): &(std::ops::Range<usize>, std::ops::Range<usize>)| {
        gone.clone().any(|at| !old.faithful(at)) || come.clone().any(|at| !new.faithful(at))
    };
    let mut groups: Vec<Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>> = Vec::new();
    for change in changes {
        let joins = groups
            .last()
            .and_then(|group| group.last())
            .is_some_and(|last| {
                change.0.start - last.0.end <= 2 * CONTEXT
                    && (last.0.end..change.0.start).all(|at| old.faithful(at))
                    && !hidden(last)
                    && !hidden(&change)
            });
        match groups.last_mut() {
            Some(group) if joins => group.push(change),
            _ => groups.push(vec![change]),
        }
    }
    let (mut shown, mut left_out) = (Vec::new(), Vec::new());
    for changes in groups {
        let (first, last) = (changes[0].clone(), changes[changes.len() - 1].clone());
        let before = (0..CONTEXT)
            .take_while(|back| first.0.start > *back && old.faithful(first.0.start - back - 1))
            .count();
        let after = (0..CONTEXT)
            .take_while(|ahead| {
                last.0.end + ahead < old.raw.len() && old.faithful(last.0.end + ahead)
            })
            .count();
        let hunk = Hunk {
            old: first.0.start - before..last.0.end + after,
            new: first.1.start - before..last.1.end + after,
            changes,
        };
        // `git apply` anchors a hunk without lines after its change at the end of the file.
        let anchored = after > 0 || last.0.end == old.raw.len();
        if anchored && !hunk.changes_hidden_text(old, new) {
            shown.push(hunk);
        } else {
            left_out.push(hunk);
        }
    }
    (shown, left_out)
}

/// Writes every change, all files or none. Each file's fixed bytes go to a temporary file
/// beside it (same folder, so the rename cannot cross file systems), with the file's
/// permissions, synced to disk, and its original is kept beside it (a hard link, else a
/// copy); only when every file is staged are they renamed over their files, one by one, each
/// read again right before its own rename. If one is no longer what was checked, or a rename
/// fails, the files already renamed get their originals back, so nothing is written; if that
/// fails too, the error names the files that hold the fix. A symbolic link is followed: its
/// target is replaced and the link stays.
pub fn write(changes: &[FileFix]) -> Result<(), FixError> {
    let mut staged: Vec<Staged> = Vec::new();
    for change in changes {
        match stage(change) {
            Ok(file) => staged.push(file),
            Err(error) => {
                discard(&staged);
                return Err(error);
            }
        }
    }
    for (index, file) in staged.iter().enumerate() {
        if let Err((error, renamed)) = replace(file) {
            let done = if renamed { index + 1 } else { index };
            let kept = roll_back(&staged[..done]);
            // Not those rolled back: an original that could not be put back stays, named.
            discard(&staged[done..]);
            return Err(match kept {
                Ok(()) => error,
                Err(written) => partly_written(error, written),
            });
        }
    }
    for file in &staged {
        // Everything is written: the originals go. One left behind holds nothing the
        // user did not have, with the file's permissions.
        let _ = std::fs::remove_file(&file.original);
    }
    Ok(())
}

/// One file ready to be replaced.
#[derive(Debug)]
struct Staged<'a> {
    change: &'a FileFix,
    /// The file itself (links resolved).
    target: PathBuf,
    /// The fixed bytes, beside it.
    temporary: PathBuf,
    /// The original, beside it: the same file (a hard link), or a copy of the checked bytes.
    original: PathBuf,
}

/// Renames `file`'s fixed bytes over it, when it still holds what was checked; the error says
/// whether the rename was made (then the file is to be put back too).
fn replace(file: &Staged) -> Result<(), (FixError, bool)> {
    let modified = || FixError::Modified {
        path: file.change.path.clone(),
    };
    // The check right before the rename: what is replaced is what was checked.
    if !holds(&file.target, &file.change.before) {
        return Err((modified(), false));
    }
    if let Err(error) = std::fs::rename(&file.temporary, &file.target) {
        return Err((io_error(&file.change.path, &error), false));
    }
    sync_folder(&file.target);
    // An edit written into the file between that check and the rename went to the original,
    // which the hard link still holds: seen now, and put back.
    if !holds(&file.original, &file.change.before) {
        return Err((modified(), true));
    }
    Ok(())
}

/// Whether `path` is a regular file holding `bytes`.
fn holds(path: &std::path::Path, bytes: &[u8]) -> bool {
    crate::source::read_file(path).is_ok_and(|read| read == bytes)
}

/// Puts the originals of `renamed` back, the last first. Returns, when some cannot be, each
/// such file (it holds the fix) with why, and where its original is when it is still kept.
fn roll_back(renamed: &[Staged]) -> Result<(), Vec<String>> {
    let mut failed = Vec::new();
    for file in renamed.iter().rev() {
        match std::fs::rename(&file.original, &file.target) {
            Ok(()) => sync_folder(&file.target),
            Err(error) => {
                let kept = match file.original.symlink_metadata() {
                    Ok(_) => format!("; it is kept as {}", file.original.display()),
                    Err(_) => String::new(),
                };
                failed.push(format!(
                    "{} ({}{kept})",
                    file.change.path,
                    io_message(&error)
                ));
            }
        }
    }
    failed.reverse();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed)
    }
}

/// The error for `error` when the files `written` could not be put back.
fn partly_written(error: FixError, written: Vec<String>) -> FixError {
    let (path, problem) = match error {
        FixError::Modified { path } => (path, "changed since it was checked".to_string()),
        FixError::Io { path, message } => (path, format!("cannot write the fixed file: {message}")),
        other => return other,
    };
    FixError::PartlyWritten {
        path,
        problem,
        written,
    }
}

/// Removes what `files` left beside their files: the temporary files not renamed, the
/// originals not put back.
fn discard(files: &[Staged]) {
    for file in files {
        let _ = std::fs::remove_file(&file.temporary);
        let _ = std::fs::remove_file(&file.original);
    }
}

/// Makes a rename in `path`'s folder reach the disk. A failure here leaves a correct file, so
/// it is not worth an error.
fn sync_folder(path: &std::path::Path) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::File::open(dir).and_then(|dir| dir.sync_all());
    }
}

/// Writes a change's bytes to a temporary file beside its target and keeps its original
/// beside it.
fn stage(change: &FileFix) -> Result<Staged<'_>, FixError> {
    let fail = |error: std::io::Error| io_error(&change.path, &error);
    let target = std::fs::canonicalize(&change.path).map_err(fail)?;
    let metadata = std::fs::metadata(&target).map_err(fail)?;
    let (dir, name) = match (target.parent(), target.file_name()) {
        (Some(dir), Some(name)) => (dir, name),
        _ => {
            return Err(FixError::Io {
                path: change.path.clone(),
                message: "not a file".into(),
            });
        }
    };
    let beside = |role: &str| {
        dir.join(format!(
            ".{}.kafkalint-{role}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ))
    };
    let (temporary, original) = (beside("fix"), beside("orig"));
    create(&temporary, &metadata, &change.after).map_err(fail)?;
    if let Err(error) = keep_original(&target, &original, &metadata, &change.before) {
        let _ = std::fs::remove_file(&temporary);
        return Err(fail(error));
    }
    Ok(Staged {
        change,
        target,
        temporary,
        original,
    })
}

/// Keeps the file at `target` as `original`: a hard link (the very file, its owner, mode
/// and times), else (a file system without them, a file that may not be linked) a new file
/// holding `bytes`, the checked bytes that the check before the rename holds the file to.
fn keep_original(
    target: &std::path::Path,
    original: &std::path::Path,
    metadata: &std::fs::Metadata,
    bytes: &[u8],
) -> std::io::Result<()> {
    match std::fs::hard_link(target, original) {
        Err(error) if error.kind() != std::io::ErrorKind::AlreadyExists => {
            create(original, metadata, bytes)
        }
        linked => linked,
    }
}

/// Creates `path` (it must not exist) holding `bytes`, with `metadata`'s owner where allowed
/// and its permissions, synced to disk. Removed again when that fails part-way.
fn create(
    path: &std::path::Path,
    metadata: &std::fs::Metadata,
    bytes: &[u8],
) -> std::io::Result<()> {
    let written = (|| {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        // Owner-only until it has the file's owner and mode: broker files hold passwords.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path)?;
        keep_owner(&file, metadata);
        file.set_permissions(metadata.permissions())?;
        file.write_all(bytes)?;
        file.sync_all()
    })();
    if let Err(error) = &written
        && error.kind() != std::io::ErrorKind::AlreadyExists
    {
        let _ = std::fs::remove_file(path);
    }
    written
}

/// Gives the new file the old one's owner and group where the system lets us (as root, or a
/// group the user is in); otherwise the new file is the user's, as any editor's save would be.
#[cfg(unix)]
fn keep_owner(file: &std::fs::File, metadata: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(file, Some(metadata.uid()), Some(metadata.gid()))
        .or_else(|_| std::os::unix::fs::fchown(file, None, Some(metadata.gid())));
}

#[cfg(not(unix))]
fn keep_owner(_: &std::fs::File, _: &std::fs::Metadata) {}

fn io_error(path: &str, error: &std::io::Error) -> FixError {
    FixError::Io {
        path: path.to_string(),
        message: io_message(error),
    }
}

fn io_message(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(dir: &std::path::Path, name: &str) -> FileFix {
        let path = dir.join(name);
        std::fs::write(&path, "before\n").unwrap();
        FileFix {
            file: 0,
            path: path.display().to_string(),
            before: b"before\n".to_vec(),
            after: b"after\n".to_vec(),
        }
    }

    /// A file already renamed whose original is gone (removed by someone else meanwhile)
    /// cannot be put back: the error names it as written, and only it.
    #[test]
    fn a_file_that_cannot_be_put_back_is_named_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let changes = [change(dir.path(), "a"), change(dir.path(), "b")];
        let staged: Vec<Staged> = changes.iter().map(|c| stage(c).unwrap()).collect();
        for file in &staged {
            replace(file).unwrap();
        }
        std::fs::remove_file(&staged[0].original).unwrap();
        let written = roll_back(&staged).unwrap_err();
        let error = partly_written(
            FixError::Io {
                path: "c".into(),
                message: "permission denied".into(),
            },
            written,
        );
        assert_eq!(
            error.to_string(),
            format!(
                "c: cannot write the fixed file: permission denied; written all the same, as putting the original back failed: {} (no such file or directory); every other file is as it was",
                changes[0].path
            )
        );
        assert_eq!(std::fs::read(&changes[0].path).unwrap(), b"after\n");
        assert_eq!(std::fs::read(&changes[1].path).unwrap(), b"before\n");
    }

    /// A file renamed and then replaced by a folder (the original cannot be renamed over it):
    /// its original stays beside it, and the error says where.
    #[test]
    fn an_original_that_cannot_be_put_back_is_kept_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let change = change(dir.path(), "a");
        let staged = stage(&change).unwrap();
        replace(&staged).unwrap();
        std::fs::remove_file(&change.path).unwrap();
        std::fs::create_dir_all(dir.path().join("a/inside")).unwrap();
        let written = roll_back(std::slice::from_ref(&staged)).unwrap_err();
        assert_eq!(written.len(), 1);
        let kept = format!("; it is kept as {})", staged.original.display());
        assert!(written[0].ends_with(&kept), "{written:?}");
        assert_eq!(std::fs::read(&staged.original).unwrap(), b"before\n");
    }

    /// An edit written into a file between its check and its rename (the steps of
    /// [`replace`] taken one by one, the edit between them) lands in the original kept, the
    /// very file: seen after the rename, and the edited file is what is put back.
    #[test]
    fn an_edit_in_place_just_before_the_rename_is_put_back() {
        let dir = tempfile::tempdir().unwrap();
        let change = change(dir.path(), "a");
        let staged = stage(&change).unwrap();
        assert!(holds(&staged.target, &change.before));
        std::fs::write(&change.path, "edited\n").unwrap();
        std::fs::rename(&staged.temporary, &staged.target).unwrap();
        assert!(!holds(&staged.original, &change.before));
        roll_back(std::slice::from_ref(&staged)).unwrap();
        assert_eq!(std::fs::read(&change.path).unwrap(), b"edited\n");
    }
}
