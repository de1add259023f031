//! `--format full`: miette's graphical report, one per finding, with the source snippet.

use std::fmt;
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};

use crate::Report;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::source::DisplayText;

/// How the report is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FullStyle {
    pub color: bool,
    pub width: usize,
}

/// One miette diagnostic: a finding's labels in one file; labels in other files become
/// related diagnostics, each with its own snippet.
#[derive(Debug)]
struct Rendered {
    message: String,
    code: Option<String>,
    url: Option<String>,
    help: Option<String>,
    severity: miette::Severity,
    source: NamedSource<Arc<str>>,
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

fn printable(text: &str) -> String {
    super::printable(text, true)
}

fn labeled(text: &DisplayText, label: &Label, primary: bool) -> LabeledSpan {
    let span = text.span(&label.span);
    let span = miette::SourceSpan::new(span.start.into(), span.len());
    if primary {
        LabeledSpan::new_primary_with_span(Some(printable(&label.message)), span)
    } else {
        LabeledSpan::new_with_span(Some(printable(&label.message)), span)
    }
}

fn render_one(
    report: &Report,
    texts: &mut [Option<(DisplayText, Arc<str>)>],
    diagnostic: &Diagnostic,
) -> Rendered {
    // Files in the order their first label appears.
    let mut files: Vec<usize> = Vec::new();
    for label in &diagnostic.labels {
        if !files.contains(&label.file) {
            files.push(label.file);
        }
    }
    let mut parts = files.into_iter().map(|file| {
        // Each file's display text is built and shared once, however many findings it has.
        let (text, shared) = &*texts[file].get_or_insert_with(|| {
            let text = report.files[file].display_text();
            let shared = Arc::from(text.text.as_str());
            (text, shared)
        });
        let source = NamedSource::new(printable(&report.files[file].path), Arc::clone(shared));
        let labels: Vec<LabeledSpan> = diagnostic
            .labels
            .iter()
            .enumerate()
            .filter(|(_, label)| label.file == file)
            .map(|(index, label)| labeled(text, label, index == 0))
            .collect();
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
        message: printable(&diagnostic.message),
        code: Some(diagnostic.rule.to_string()),
        url: Some(diagnostic.url()),
        help: Some(printable(&diagnostic.help)),
        severity: miette_severity(diagnostic.severity),
        source,
        labels,
        related,
    }
}

/// The whole report: each finding, then a summary line. Findings drawn already (the
/// report's `drawn`, in this style) are not drawn again.
pub fn full(report: &Report, style: FullStyle) -> String {
    let mut out = match &report.drawn {
        Some((drawn_in, drawn)) if *drawn_in == style => drawn.concat(),
        _ => draw_each(report, style).concat(),
    };
    out.push_str(&summary(report));
    out
}

/// Each finding of the report as `full` draws it, in order.
pub fn draw_each(report: &Report, style: FullStyle) -> Vec<String> {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false);
    let mut texts: Vec<Option<(DisplayText, Arc<str>)>> =
        (0..report.files.len()).map(|_| None).collect();
    // A file's display text is dropped after the last finding that shows it: a tree's
    // texts are never all in memory at once.
    let mut last_shown = vec![0; report.files.len()];
    for (index, diagnostic) in report.diagnostics.iter().enumerate() {
        for label in &diagnostic.labels {
            last_shown[label.file] = index;
        }
    }
    let mut drawn = Vec::with_capacity(report.diagnostics.len());
    for (index, diagnostic) in report.diagnostics.iter().enumerate() {
        let rendered = render_one(report, &mut texts, diagnostic);
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = handler.render_report(&mut out, &rendered);
        out.push('\n');
        drawn.push(out);
        for label in &diagnostic.labels {
            if last_shown[label.file] == index {
                texts[label.file] = None;
            }
        }
    }
    drawn
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
    let (errors, warnings, infos) = (
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info),
    );
    let scope = format!(
        "{} in {}{}",
        plural(report.files.len(), "file"),
        plural(report.clusters.len(), "cluster"),
        checked_against(report)
    );
    let suppressed = if report.suppressed > 0 {
        format!(", {} suppressed", report.suppressed)
    } else {
        String::new()
    };
    if errors + warnings + infos == 0 {
        return format!("No problems found{suppressed} ({scope}).\n");
    }
    let mut parts = vec![plural(errors, "error"), plural(warnings, "warning")];
    if infos > 0 {
        parts.push(plural(infos, "note"));
    }
    format!("Found {}{suppressed} ({scope}).\n", parts.join(", "))
}
