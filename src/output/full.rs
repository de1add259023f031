//! `--format full`: miette's graphical report, one per finding, with the source snippet.

use std::fmt;
use std::sync::Arc;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    NamedSource, SourceCode, SourceSpan, SpanContents,
};

use crate::cluster::{Cluster, Share};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::report::{FullStyle, Report};
use crate::source::DisplayText;

/// One miette diagnostic: a finding's labels in one file; labels in other files become
/// related diagnostics, each with its own snippet.
#[derive(Debug)]
struct Rendered {
    message: String,
    code: Option<String>,
    url: Option<String>,
    help: Option<String>,
    severity: miette::Severity,
    source: NamedSource<Indexed>,
    labels: Vec<LabeledSpan>,
    related: Vec<Rendered>,
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|code| Box::new(code) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|help| Box::new(help) as Box<dyn fmt::Display>)
    }
    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.url
            .as_ref()
            .map(|url| Box::new(url) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}

fn miette_severity(severity: Severity) -> miette::Severity {
    match severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
        Severity::Info => miette::Severity::Advice,
    }
}

use super::printable;

fn labeled(text: &DisplayText, label: &Label, primary: bool) -> LabeledSpan {
    let span = text.span(&label.span);
    let span = miette::SourceSpan::new(span.start.into(), span.len());
    if primary {
        LabeledSpan::new_primary_with_span(Some(printable(&label.message)), span)
    } else {
        LabeledSpan::new_with_span(Some(printable(&label.message)), span)
    }
}

/// A file's display text, with its lines indexed for miette.
type Shown = Arc<(DisplayText, Indexed)>;

/// Per file: its text once built, and how many runs still need it.
type Cells = std::collections::HashMap<usize, (Arc<std::sync::OnceLock<Shown>>, usize)>;

/// `file`'s display text; with `shown`, of those lines only (see
/// [`crate::source::SourceFile::display_text_of`]).
fn display(report: &Report, file: usize, shown: Option<&[crate::properties::Span]>) -> Shown {
    let text = match shown {
        Some(shown) => report.files[file].display_text_of(shown),
        None => report.files[file].display_text(),
    };
    let shared = Indexed::new(Arc::from(text.text.as_str()));
    Arc::new((text, shared))
}

/// How many lines around a finding's labels in a file its drawing may show, at most: miette's
/// one line of context, the [`MERGED_GAP`] lines between two labels' snippets drawn whole,
/// and room to spare. Every line between a finding's first and last label in a file is
/// counted as shown too.
const SHOWN_MARGIN: usize = 2 * (1 + MERGED_GAP);

/// Per file, the byte ranges of the lines `diagnostics` may show of it (each finding's labels
/// in the file, from the first to the last, with [`SHOWN_MARGIN`] lines each way).
fn shown_lines(
    report: &Report,
    diagnostics: &[crate::diagnostic::Diagnostic],
) -> std::collections::HashMap<usize, Vec<crate::properties::Span>> {
    let mut shown: std::collections::HashMap<usize, Vec<crate::properties::Span>> =
        std::collections::HashMap::new();
    for diagnostic in diagnostics {
        let mut reach: std::collections::BTreeMap<usize, (usize, usize)> =
            std::collections::BTreeMap::new();
        for label in &diagnostic.labels {
            let (start, end) = (label.span.start, label.span.end.max(label.span.start));
            let bounds = reach.entry(label.file).or_insert((start, end));
            *bounds = (bounds.0.min(start), bounds.1.max(end));
        }
        for (file, (start, end)) in reach {
            let lines = report.files[file].lines_around(&(start..end), SHOWN_MARGIN);
            shown.entry(file).or_default().push(lines);
        }
    }
    shown
}

/// Each file's display text, built once however many findings and runs of findings show it
/// (a large file with thousands of findings: a snapshot of a cluster of 20,000 topics), and
/// dropped once the last run that shows it is done: a tree's texts are never all in memory at
/// once.
struct SharedTexts<'a> {
    report: &'a Report,
    texts: std::sync::Mutex<Cells>,
    /// Per file, the lines the runs may show of it.
    shown: std::collections::HashMap<usize, Vec<crate::properties::Span>>,
}

impl<'a> SharedTexts<'a> {
    /// For `runs` of `diagnostics`: how many runs show each file.
    fn new(report: &'a Report, runs: &[std::ops::Range<usize>]) -> SharedTexts<'a> {
        let mut texts = std::collections::HashMap::new();
        for run in runs {
            let files: std::collections::BTreeSet<usize> = report.diagnostics[run.clone()]
                .iter()
                .flat_map(|diagnostic| diagnostic.labels.iter().map(|label| label.file))
                .collect();
            for file in files {
                texts
                    .entry(file)
                    .or_insert_with(|| (Arc::new(std::sync::OnceLock::new()), 0))
                    .1 += 1;
            }
        }
        SharedTexts {
            report,
            texts: std::sync::Mutex::new(texts),
            shown: shown_lines(report, &report.diagnostics),
        }
    }

    /// `file`'s text, built by the first run that asks (the others wait for it).
    fn get(&self, file: usize) -> Shown {
        let cell = {
            let texts = self
                .texts
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            texts.get(&file).map(|(cell, _)| Arc::clone(cell))
        };
        match cell {
            Some(cell) => Arc::clone(cell.get_or_init(|| {
                display(self.report, file, self.shown.get(&file).map(Vec::as_slice))
            })),
            // Not counted (no run was said to show it): built whole for this one.
            None => display(self.report, file, None),
        }
    }

    /// A run is done with `file`: the last one drops its text.
    fn release(&self, file: usize) {
        let mut texts = self
            .texts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, runs)) = texts.get_mut(&file) {
            *runs -= 1;
            if *runs == 0 {
                texts.remove(&file);
            }
        }
    }
}

/// A display text with where its lines start. miette reads a snippet's context by scanning
/// its source from the first byte, once a label: a finding with a label on each of thousands
/// of nodes of one large file would scan the file thousands of times. This source hands it
/// only the lines from a little before the label on, and shifts the answer back.
///
/// It answers one thing unlike miette's own sources: a snippet's `line_count` is the number of
/// lines the snippet holds. miette's scan counts every line from the top of the file, and its
/// graphical handler merges two labels' snippets when `line + line_count` reaches the later
/// one's first line (miette 7.6, `src/handlers/graphical.rs`, `render_snippets`): with the
/// count from the top, every two labels of a file merge, and a finding on partitions 0 and 999
/// of a snapshot drew the thousand lines between them. With the snippet's own count (and
/// [`MERGED_GAP`] lines more), labels a few lines apart share a snippet and distant ones get
/// one each.
#[derive(Debug, Clone)]
struct Indexed {
    text: Arc<str>,
    /// Byte offset of each line start, as miette counts lines (`\n`, `\r`, `\r\n`).
    line_starts: Arc<[usize]>,
    /// Every line ends with `\n` alone: miette's answer is then worked out from the line
    /// starts ([`Indexed::context`]) without a scan.
    newline_only: bool,
}

impl Indexed {
    fn new(text: Arc<str>) -> Indexed {
        let line_starts = crate::source::line_starts(text.as_bytes())
            .into_iter()
            .map(|start| start as usize)
            .collect();
        let newline_only = !text.contains('\r');
        Indexed {
            text,
            line_starts,
            newline_only,
        }
    }

    /// What miette 7.6's `context_info` (`src/source_impls.rs`) answers for `span` with
    /// `before` and `after` context lines, scanning `text` from its first byte, worked out
    /// from the line starts instead: its scan costs the span's length, and miette reads the
    /// span of every snippet merged so far again at each label it merges, so that a finding
    /// with a label on each of thousands of nodes of one file (a compose file of 10,000
    /// services) took a time of the square of the file's length. Only for text whose lines
    /// end with `\n` alone, where each byte is one step of miette's scan; the answer is the
    /// scan's, quirks included (a unit test holds the two equal).
    /// Returns `(data start, data end, line, column)`, or `None` where miette
    /// answers `OutOfBounds`.
    fn context(
        &self,
        offset: usize,
        len: usize,
        before: usize,
        after: usize,
    ) -> Option<(usize, usize, usize, usize)> {
        let size = self.text.len();
        // How many line ends lie before `at`; the `k`th line end is at `line_starts[k + 1] - 1`.
        let ends_before = |at: usize| self.line_starts.partition_point(|start| *start <= at) - 1;
        let line_ends = self.line_starts.len() - 1;
        // miette's scan marks the span over at the byte `last` (the span's last byte, or the
        // one before an empty span), and counts context lines after it from the line ends at
        // `context_from` on.
        let last = (offset + len).saturating_sub(1);
        let context_from = (last + 1).max(offset + len.saturating_sub(1));
        let end = if last >= size {
            size
        } else if after == 0 {
            last + 1
        } else {
            // The scan stops after the line end that closes the `after`th context line.
            let closing = ends_before(context_from) + after;
            if closing < line_ends {
                self.line_starts[closing + 1]
            } else {
                size
            }
        };
        if end < last {
            return None;
        }
        let line = ends_before(offset);
        let start_line = line.saturating_sub(before);
        let line_count = ends_before(end);
        // Context lines before: the data starts at a line start. None: at the span itself,
        // with its column on its line, which miette sets back to 0 once it has counted a line
        // end after the span.
        let (start, column) = if before == 0 {
            let ended_after = after > 0 && last < size && line_count > ends_before(context_from);
            let column = if ended_after {
                0
            } else {
                offset - self.line_starts[line]
            };
            (offset, column)
        } else {
            (self.line_starts[start_line], 0)
        };
        Some((start, end, start_line, column))
    }
}

impl SourceCode for Indexed {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if self.newline_only {
            let (start, end, line, column) = self
                .context(
                    span.offset(),
                    span.len(),
                    context_lines_before,
                    context_lines_after,
                )
                .ok_or(MietteError::OutOfBounds)?;
            let data: &'a [u8] = &self.text.as_bytes()[start..end];
            return Ok(Box::new(MietteSpanContents::new(
                data,
                SourceSpan::new(start.into(), end - start),
                line,
                column,
                lines_in(data) + MERGED_GAP,
            )));
        }
        // The line of the span's start, and a line start far enough before it that miette's
        // scan from there sees every context line it would see from the top.
        let line = self
            .line_starts
            .partition_point(|start| *start <= span.offset())
            .saturating_sub(1);
        let first = line.saturating_sub(context_lines_before + 1);
        let base = self.line_starts[first];
        let bytes = &self.text.as_bytes()[base..];
        let shifted = SourceSpan::new(span.offset().saturating_sub(base).into(), span.len());
        let found = bytes.read_span(&shifted, context_lines_before, context_lines_after)?;
        let data: &'a [u8] = found.data();
        Ok(Box::new(MietteSpanContents::new(
            data,
            SourceSpan::new((found.span().offset() + base).into(), found.span().len()),
            found.line() + first,
            found.column(),
            lines_in(data) + MERGED_GAP,
        )))
    }
}

/// How many lines between two labels' snippets are drawn rather than cut: a cut costs two
/// lines of its own (the end of one snippet, the head of the next).
const MERGED_GAP: usize = 4;

/// How many lines `data` holds, as miette counts line ends (`\n`, `\r`, `\r\n`): a last line
/// without its end counts too.
fn lines_in(data: &[u8]) -> usize {
    let mut lines = 0;
    let mut at = 0;
    while at < data.len() {
        match data[at] {
            b'\r' if data.get(at + 1) == Some(&b'\n') => {
                lines += 1;
                at += 1;
            }
            b'\r' | b'\n' => lines += 1,
            _ if at + 1 == data.len() => lines += 1,
            _ => {}
        }
        at += 1;
    }
    lines
}

fn render_one(
    report: &Report,
    texts: &mut std::collections::HashMap<usize, Shown>,
    shared: &SharedTexts,
    diagnostic: &Diagnostic,
) -> Rendered {
    let elided = elided_labels(diagnostic);
    // Files in the order their first label appears, each with its labels.
    let mut files: Vec<usize> = Vec::new();
    let mut by_file: std::collections::HashMap<usize, Vec<LabeledSpan>> =
        std::collections::HashMap::new();
    for (index, label) in diagnostic.labels.iter().enumerate() {
        if elided.contains(&index) {
            continue;
        }
        let labels = by_file.entry(label.file).or_insert_with(|| {
            files.push(label.file);
            Vec::new()
        });
        let shown = texts
            .entry(label.file)
            .or_insert_with(|| shared.get(label.file));
        labels.push(labeled(&shown.0, label, index == 0));
    }
    let mut parts = files.into_iter().map(|file| {
        let shown = texts.get(&file).expect("built for its labels");
        let source = NamedSource::new(printable(&report.files[file].path), shown.1.clone());
        let labels = by_file.remove(&file).unwrap_or_default();
        (file, source, labels)
    });
    let (_, source, labels) = parts.next().expect("a diagnostic has a primary label");
    let related = parts
        .map(|(file, source, labels)| Rendered {
            message: format!("see also {}", printable(&report.files[file].path)),
            code: None,
            url: None,
            help: None,
            // Shown as a note: the finding is counted once, above.
            severity: miette::Severity::Advice,
            source,
            labels,
            related: Vec::new(),
        })
        .collect();
    Rendered {
        message: printable(&diagnostic.headline()),
        code: Some(diagnostic.rule.to_string()),
        url: Some(diagnostic.url()),
        // A finding about several nodes has its help after their lines (`also_on_lines`).
        help: diagnostic
            .also_on
            .is_empty()
            .then(|| printable(&diagnostic.help)),
        severity: miette_severity(diagnostic.severity),
        source,
        labels,
        related,
    }
}

/// The labels of a finding about several nodes that its drawing leaves out: every other node's
/// primary label, which a line names instead ([`also_on_lines`]), and every label in those
/// nodes' files, the same places again. The first node's labels are drawn, and those in a file
/// of no node (a shared `.env`).
fn elided_labels(diagnostic: &Diagnostic) -> std::collections::BTreeSet<usize> {
    let mut elided = std::collections::BTreeSet::new();
    if diagnostic.also_on.is_empty() {
        return elided;
    }
    let first_file = diagnostic.primary().file;
    let other_files: std::collections::BTreeSet<usize> = diagnostic
        .also_on
        .iter()
        .map(|also| diagnostic.labels[also.label].file)
        .filter(|file| *file != first_file)
        .collect();
    for also in &diagnostic.also_on {
        if also.label != 0 {
            elided.insert(also.label);
        }
    }
    for (index, label) in diagnostic.labels.iter().enumerate() {
        if index != 0 && other_files.contains(&label.file) {
            elided.insert(index);
        }
    }
    elided
}

/// A line for each other node of a finding about several nodes, `  also on broker 1:
/// path:line:column`, then its help as miette draws a help: the finding once, not a snippet of
/// each node.
fn also_on_lines(
    report: &Report,
    diagnostic: &Diagnostic,
    theme: &GraphicalTheme,
    width: usize,
) -> String {
    let mut out = String::new();
    for also in &diagnostic.also_on {
        let label = &diagnostic.labels[also.label];
        let file = &report.files[label.file];
        let (line, column) = file.line_column(label.span.start);
        let name = also
            .node
            .short_name()
            .unwrap_or_else(|| also.node.to_string());
        out.push_str(&format!(
            "  also on {}: {}:{line}:{column}\n",
            printable(&name),
            printable(&file.path)
        ));
    }
    // What miette 7.6's `render_footer` draws for a help.
    let indent = theme.styles.help.style("  help: ").to_string();
    let options = textwrap::Options::new(width.saturating_sub(2))
        .initial_indent(&indent)
        .subsequent_indent("        ")
        .break_words(false)
        .word_separator(textwrap::WordSeparator::Custom(find_words))
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    out.push_str(&textwrap::fill(&printable(&diagnostic.help), options));
    out.push('\n');
    out
}

/// The whole report: each finding, then a summary line. Findings drawn already (the
/// report's `drawn`, in this style) are not drawn again.
pub fn full(report: &Report, style: FullStyle) -> String {
    let mut out = findings_full(report, style);
    out.push_str(&summary(report));
    out
}

/// The findings as [`full`] draws them, without the closing summary (`--quiet`).
pub fn findings_full(report: &Report, style: FullStyle) -> String {
    match &report.drawn {
        Some((drawn_in, drawn)) if *drawn_in == style => drawn.concat(),
        _ => draw_each(report, style).concat(),
    }
}

/// Writes the findings as [`findings_full`] shows them to `out`, a finding at a time: the
/// drawings are not joined into one text first.
pub fn write_findings_full(
    report: &Report,
    style: FullStyle,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let drawn_now;
    let drawn = match &report.drawn {
        Some((drawn_in, drawn)) if *drawn_in == style => drawn,
        _ => {
            drawn_now = draw_each(report, style);
            &drawn_now
        }
    };
    drawn
        .iter()
        .try_for_each(|finding| out.write_all(finding.as_bytes()))
}

/// Each finding of the report as `full` draws it, in order.
pub fn draw_each(report: &Report, style: FullStyle) -> Vec<String> {
    // Runs of consecutive findings are drawn on all cores, each run with the display texts of
    // its own files: a file's findings follow one another, so few texts are built twice.
    let runs: Vec<std::ops::Range<usize>> = (0..report.diagnostics.len())
        .step_by(DRAWN_TOGETHER)
        .map(|start| start..(start + DRAWN_TOGETHER).min(report.diagnostics.len()))
        .collect();
    let shared = SharedTexts::new(report, &runs);
    crate::parallel::map(&runs, |run| draw_run(report, style, run.clone(), &shared))
        .into_iter()
        .flatten()
        .collect()
}

/// How many findings one thread draws at a time.
const DRAWN_TOGETHER: usize = 32;

fn draw_run(
    report: &Report,
    style: FullStyle,
    run: std::ops::Range<usize>,
    shared: &SharedTexts,
) -> Vec<String> {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme.clone())
        .with_width(style.width)
        .with_links(false)
        .with_word_separator(textwrap::WordSeparator::Custom(find_words))
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        .with_break_words(false);
    let diagnostics = &report.diagnostics[run];
    let mut texts = std::collections::HashMap::new();
    // A file's display text is let go after the last finding of the run that shows it (the
    // last run drops it: `SharedTexts`).
    let mut last_shown = std::collections::HashMap::new();
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        for label in &diagnostic.labels {
            last_shown.insert(label.file, index);
        }
    }
    let mut drawn = Vec::with_capacity(diagnostics.len());
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        let rendered = render_one(report, &mut texts, shared, diagnostic);
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = handler.render_report(&mut out, &rendered);
        if !diagnostic.also_on.is_empty() {
            out.push_str(&also_on_lines(report, diagnostic, &theme, style.width));
        }
        out.push('\n');
        // A snippet shows the file's lines as they are (`##[error]` in a comment): none of
        // them reaches a CI log as a workflow command.
        let out = match super::guard_lines(&out, false) {
            std::borrow::Cow::Borrowed(_) => out,
            std::borrow::Cow::Owned(guarded) => guarded,
        };
        drawn.push(out);
        for label in &diagnostic.labels {
            if last_shown.get(&label.file) == Some(&index) && texts.remove(&label.file).is_some() {
                shared.release(label.file);
            }
        }
    }
    drawn
}

/// The words textwrap wraps a line at: runs of text between spaces, each with the spaces after
/// it. A line breaks only at a space, never inside a word: a key, a path or a command in a help
/// line (`kafka-reassign-partitions.sh`, `/var/lib/kafka/data`) stays whole for copy and paste,
/// where Unicode line breaking would break after its `-` or `/`. A word longer than the width
/// runs past it (`with_break_words(false)`).
fn find_words(line: &str) -> Box<dyn Iterator<Item = textwrap::core::Word<'_>> + '_> {
    if line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        Box::new(SpaceSeparated { rest: line })
    } else {
        textwrap::WordSeparator::AsciiSpace.find_words(line)
    }
}

/// The words of a line of printable ASCII, as textwrap's `AsciiSpace` separator splits them,
/// one column a character: the width is the length, without the per-character width look-up
/// of `Word::from`, most of drawing a finding.
struct SpaceSeparated<'a> {
    rest: &'a str,
}

impl<'a> Iterator for SpaceSeparated<'a> {
    type Item = textwrap::core::Word<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let bytes = self.rest.as_bytes();
        // A line may start with spaces: they make a word of their own, empty but for them.
        let word_len = bytes.iter().position(|b| *b == b' ').unwrap_or(bytes.len());
        let spaces = bytes[word_len..].iter().take_while(|b| **b == b' ').count();
        let (word, rest) = self.rest.split_at(word_len + spaces);
        self.rest = rest;
        Some(textwrap::core::Word {
            word: &word[..word_len],
            whitespace: &word[word_len..],
            penalty: "",
            width: word_len,
        })
    }
}

fn plural(count: usize, word: &str) -> String {
    if count == 1 {
        format!("1 {word}")
    } else {
        format!("{count} {word}s")
    }
}

/// ", checked against Kafka 3.9" (or "3.9 and 4.4" when clusters differ).
fn checked_against(report: &Report) -> String {
    let mut versions: Vec<String> = report
        .clusters
        .iter()
        .map(|cluster| cluster.target.version)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .map(|version| version.to_string())
        .collect();
    // One cluster chosen by its image tag says which tag: a surprising release is then
    // explained where it is shown.
    let image_reason = match report.clusters.as_slice() {
        [cluster] => cluster
            .target
            .image_reason()
            .map(|reason| format!(" ({reason})")),
        _ => None,
    };
    match versions.len() {
        0 => String::new(),
        1 => format!(
            ", checked against Kafka {}{}",
            versions[0],
            image_reason.unwrap_or_default()
        ),
        _ => {
            let last = versions.pop().unwrap_or_default();
            format!(", checked against Kafka {} and {last}", versions.join(", "))
        }
    }
}

/// The closing line: what was found, in how many files and clusters, against which release.
pub fn summary(report: &Report) -> String {
    let scope = format!(
        "{} in {}{}",
        plural(report.files.len(), "file"),
        plural(report.clusters.len(), "cluster"),
        checked_against(report)
    );
    let not_checked = crate::sources::not_checked::summary(&report.not_checked);
    summary_of(report, &scope, not_checked.as_deref())
}

/// The closing line of a report whose scope is said by its caller (`kafkalint live`: the
/// running cluster, the files beside it), with what that scope lacks (`a partial view, not
/// known: ...`): never "No problems found" alone on a view that is not whole.
pub fn summary_in(report: &Report, scope: &str, not_known: Option<&str>) -> String {
    match not_known {
        // Counted, as a report with findings is: "No problems" is never said of it.
        Some(words) => format!(
            "{}Found {} ({}); {}; see the notes.\n",
            membership_notes(report),
            counts(report).join(", "),
            printable(scope),
            printable(words)
        ),
        None => summary_of(report, scope, None),
    }
}

/// `1 error`, `0 warnings` (and `2 infos` when there are any), as the closing line counts: the
/// severities' own words, as `kafkalint.toml`, `--format concise` and JSON (`summary.infos`)
/// write them. "Note" is what the readers say on stderr of what they could not judge.
fn counts(report: &Report) -> Vec<String> {
    let mut parts = vec![
        plural(report.count(Severity::Error), Severity::Error.as_str()),
        plural(report.count(Severity::Warning), Severity::Warning.as_str()),
    ];
    let infos = report.count(Severity::Info);
    if infos > 0 {
        parts.push(plural(infos, Severity::Info.as_str()));
    }
    parts
}

/// The closing line, with what was not checked (`3 files not checked: 2 Helm templates, 1
/// unknown image`): never "No problems found" alone over files kafkalint could not judge.
fn summary_of(report: &Report, scope: &str, not_checked: Option<&str>) -> String {
    let (errors, warnings, infos) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info),
    );
    let suppressed = if report.suppressed.count > 0 {
        format!(", {} suppressed", report.suppressed.count)
    } else {
        String::new()
    };
    let notes = membership_notes(report);
    // The scope names a cluster, an image or a server kafkalint was pointed at.
    let scope = printable(scope);
    // Counted from the readers' notes, whose paths are a file's: escaped as the notes are.
    let not_checked = not_checked
        .map(|words| format!("; {}; see the notes", printable(words)))
        .unwrap_or_default();
    if errors + warnings + infos == 0 {
        if not_checked.is_empty() {
            return format!("{notes}No problems found{suppressed} ({scope}).\n");
        }
        if report.files.is_empty() {
            return format!("{notes}Nothing checked ({scope}){not_checked}.\n");
        }
        return format!(
            "{notes}No problems found in what was checked{suppressed} ({scope}){not_checked}.\n"
        );
    }
    format!(
        "{notes}Found {}{suppressed} ({scope}){not_checked}.\n",
        counts(report).join(", ")
    )
}

/// A line for each gathering split into alternative sets and for each overlay, when there
/// are any: the counts of the summary would surprise without them (six files, two clusters).
fn membership_notes(report: &Report) -> String {
    let mut notes = String::new();
    // Alternative sets, by what gathered them, in report order.
    let mut gatherings: Vec<(String, Vec<&Cluster>)> = Vec::new();
    for cluster in &report.clusters {
        if !matches!(cluster.membership.share, Some(Share::Alternative { .. })) {
            continue;
        }
        let subject = cluster.membership.subject();
        match gatherings.iter_mut().find(|(known, _)| *known == subject) {
            Some((_, sets)) => sets.push(cluster),
            None => gatherings.push((subject, vec![cluster])),
        }
    }
    for (subject, sets) in gatherings {
        notes.push_str(&format!(
            "{}: {}, each checked alone\n",
            printable(&subject),
            printable(&alternative_sets(&sets))
        ));
    }
    for cluster in &report.clusters {
        for overlay in &cluster.overlays {
            notes.push_str(&format!(
                "{}: an overlay: not a node ({})\n",
                printable(&report.files[overlay.file].path),
                cluster.overlay_reason()
            ));
        }
    }
    notes
}

/// `2 alternative sets of 3 brokers (server-N.properties, server-N.sasl.properties)`, or with
/// sizes that differ `2 alternative sets: serverN.properties (3 brokers), single-node.properties
/// (1 broker)`.
fn alternative_sets(sets: &[&Cluster]) -> String {
    let all_brokers = sets
        .iter()
        .all(|set| set.nodes.iter().all(|node| node.roles.broker));
    let word = if all_brokers { "broker" } else { "node" };
    let sized: Vec<(&str, usize)> = sets
        .iter()
        .filter_map(|set| match &set.membership.share {
            Some(Share::Alternative { variant, .. }) => Some((variant.as_str(), set.nodes.len())),
            _ => None,
        })
        .collect();
    let variants: Vec<&str> = sized.iter().map(|(variant, _)| *variant).collect();
    match sized.as_slice() {
        [(_, first), rest @ ..] if rest.iter().all(|(_, size)| size == first) => format!(
            "{} alternative sets of {} ({})",
            sets.len(),
            plural(*first, word),
            variants.join(", ")
        ),
        _ => {
            let each: Vec<String> = sized
                .iter()
                .map(|(variant, size)| format!("{variant} ({})", plural(*size, word)))
                .collect();
            format!("{} alternative sets: {}", sets.len(), each.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Indexed::context`] answers what miette's own scan of the whole text answers, for
    /// generated texts, spans and context lines.
    #[test]
    fn indexed_context_is_miettes_scan() {
        let mut state = 0x5eed_u64;
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % below
        };
        for _ in 0..4_000 {
            let size = next(40);
            let text: String = (0..size)
                .map(|_| ['a', 'b', '\n', '\n', 'é'][next(5)])
                .collect();
            let indexed = Indexed::new(Arc::from(text.as_str()));
            assert!(indexed.newline_only);
            for _ in 0..20 {
                // Spans inside the text, as labels are (miette's scan panics past its end).
                let offset = next(text.len() + 1);
                let len = next(text.len() - offset + 1);
                let (before, after) = (next(4), next(4));
                let span = SourceSpan::new(offset.into(), len);
                let scanned = text.as_bytes().read_span(&span, before, after);
                let computed = indexed.read_span(&span, before, after);
                match (scanned, computed) {
                    (Ok(scanned), Ok(computed)) => assert_eq!(
                        (
                            scanned.data(),
                            scanned.span().offset(),
                            scanned.span().len(),
                            scanned.line(),
                            scanned.column(),
                            lines_in(scanned.data()) + MERGED_GAP
                        ),
                        (
                            computed.data(),
                            computed.span().offset(),
                            computed.span().len(),
                            computed.line(),
                            computed.column(),
                            computed.line_count()
                        ),
                        "{text:?} at {offset}+{len}, {before} before, {after} after"
                    ),
                    (Err(_), Err(_)) => {}
                    (scanned, computed) => panic!(
                        "{text:?} at {offset}+{len}, {before}/{after}: miette {:?}, computed {:?}",
                        scanned.is_ok(),
                        computed.is_ok()
                    ),
                }
            }
        }
    }

    fn words(separator: &textwrap::WordSeparator, line: &str) -> Vec<(String, String, usize)> {
        separator
            .find_words(line)
            .map(|word| {
                let textwrap::core::Word {
                    word,
                    whitespace,
                    penalty,
                    width,
                } = word;
                assert_eq!(penalty, "");
                (word.to_string(), whitespace.to_string(), width)
            })
            .collect()
    }

    #[test]
    fn lines_split_at_spaces_only() {
        for line in [
            "raise it with kafka-reassign-partitions.sh --execute",
            "  log.dir=/var/lib/kafka/data (a/b) 50% {x}",
            "caf\u{e9} au lait, n\u{e9}e-\u{e0}",
            "trailing  ",
            "",
        ] {
            let ours = words(&textwrap::WordSeparator::Custom(find_words), line);
            assert_eq!(
                ours,
                words(&textwrap::WordSeparator::AsciiSpace, line),
                "{line:?}"
            );
            assert!(ours.iter().all(|(word, _, _)| !word.contains(' ')));
        }
    }

    /// A help line with a command and a path longer than the rest of a line is wrapped
    /// before them, never inside.
    #[test]
    fn help_is_never_broken_inside_a_word() {
        let words_of = |text: &str| {
            text.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let help = "set log.dir to a directory on a persistent disk that only Kafka uses, e.g. \
                    log.dir=/var/lib/kafka/data; raise existing topics with \
                    kafka-reassign-partitions.sh --reassignment-json-file plan.json --execute";
        let options = textwrap::Options::new(40)
            .word_separator(textwrap::WordSeparator::Custom(find_words))
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .break_words(false);
        let lines = textwrap::wrap(help, options);
        assert!(lines.len() > 3);
        let rewrapped: Vec<String> = lines.iter().flat_map(|line| words_of(line)).collect();
        assert_eq!(rewrapped, words_of(help));
    }
}
