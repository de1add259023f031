//! One open document checked as `kafkalint check --stdin-filename PATH -` checks it, and its
//! findings as the protocol's diagnostics and code actions.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

// The protocol's diagnostic, named apart from kafkalint's findings (`Diagnostic`).
use lsp_types::Diagnostic as LspDiagnostic;
use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location, NumberOrString, TextEdit, Uri, WorkspaceEdit,
};

use crate::cluster::{Buffer, DiscoveryError};
use crate::diagnostic::{Diagnostic, Severity};
use crate::output::printable;
use crate::report::{Options, Report, Retain};
use crate::rules::FixAvailability;
use crate::source::SourceFile;

use super::hover;
use super::position::{Encoding, Positions};
use super::uri;

/// A finding as published: its diagnostic, and the code action of its fix.
#[derive(Debug, Clone)]
pub struct Finding {
    pub diagnostic: LspDiagnostic,
    pub action: Option<CodeAction>,
}

/// Why a document has no findings of its own.
pub enum CheckError {
    /// It is no file kafkalint checks (a YAML file that deploys no Kafka): a log line only.
    NotChecked(String),
    /// It could not be checked (a folder, a bad `kafkalint.toml`): one diagnostic says why.
    Failed(Box<Finding>),
}

/// Another open document: its file and its unsaved text.
pub type Open = (PathBuf, String);

fn checked(path: &Path, text: &str, open: &[Open]) -> Result<(Report, usize), crate::check::Error> {
    let options = Options {
        retain: Retain::All,
        ..Options::default()
    };
    let buffer = Buffer {
        path,
        bytes: text.as_bytes(),
    };
    let open: Vec<Buffer> = open
        .iter()
        .filter(|(other, _)| other != path)
        .map(|(path, text)| Buffer {
            path,
            bytes: text.as_bytes(),
        })
        .collect();
    let report = crate::check::check_buffer_among(buffer, &open, &options)?;
    let index = match report.only.as_deref() {
        Some([index]) => *index,
        _ => 0,
    };
    Ok((report, index))
}

/// The findings of the document at `path` whose editor text is `text` (the other open
/// documents' texts in place of their files), and the paths of the files of its cluster.
pub fn check(
    path: &Path,
    text: &str,
    open: &[Open],
    encoding: Encoding,
) -> Result<(Vec<Finding>, BTreeSet<PathBuf>), CheckError> {
    let (report, index) = match checked(path, text, open) {
        Ok(checked) => checked,
        Err(crate::check::Error::Discovery(DiscoveryError::NotAConfig { path, reason })) => {
            return Err(CheckError::NotChecked(printable(&format!(
                "{path}: not checked: {reason}"
            ))));
        }
        Err(error) => {
            let diagnostic = LspDiagnostic {
                range: lsp_types::Range::default(),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("kafkalint".to_string()),
                message: printable(&error.to_string()),
                ..LspDiagnostic::default()
            };
            return Err(CheckError::Failed(Box::new(Finding {
                diagnostic,
                action: None,
            })));
        }
    };
    let files = Files::new(&report.files, encoding);
    // A finding about several nodes is published at the document's own node's place; one
    // about other nodes that points into the document, at its first label there.
    let found = report
        .diagnostics
        .iter()
        .flat_map(|diagnostic| {
            let here: Vec<_> = diagnostic
                .per_node()
                .into_iter()
                .filter(|place| place.primary().file == index)
                .collect();
            if here.is_empty() {
                vec![std::borrow::Cow::Borrowed(diagnostic)]
            } else {
                here
            }
        })
        .filter_map(|diagnostic| finding(&diagnostic, index, &files))
        .collect();
    let siblings = report
        .clusters
        .iter()
        .filter(|cluster| in_cluster(cluster, index))
        .flat_map(|cluster| {
            let components = cluster.components.iter().map(|component| component.file);
            cluster.files.iter().copied().chain(components)
        })
        .map(|file| PathBuf::from(&report.files[file].path))
        .collect();
    Ok((found, siblings))
}

fn in_cluster(cluster: &crate::cluster::Cluster, file: usize) -> bool {
    cluster.files.contains(&file)
        || cluster
            .components
            .iter()
            .any(|component| component.file == file)
}

/// Markdown for the key under byte `offset` of the document, for its cluster's release.
pub fn hover(path: &Path, text: &str, open: &[Open], offset: usize) -> Option<String> {
    let (report, index) = checked(path, text, open).ok()?;
    let entry = hover::key_at(report.files.get(index)?.entries(), offset)?;
    let version = report
        .clusters
        .iter()
        .find(|cluster| in_cluster(cluster, index))
        .map(|cluster| cluster.target.version)
        .unwrap_or_else(crate::catalog::KafkaVersion::newest);
    hover::describe(&entry.key, version)
}

/// The report's files as the protocol places things in them: positions and URIs.
struct Files<'a> {
    files: &'a [SourceFile],
    encoding: Encoding,
    positions: std::cell::RefCell<HashMap<usize, std::rc::Rc<Positions<'a>>>>,
}

impl<'a> Files<'a> {
    fn new(files: &'a [SourceFile], encoding: Encoding) -> Self {
        Files {
            files,
            encoding,
            positions: Default::default(),
        }
    }

    fn range(&self, file: usize, span: &crate::properties::Span) -> lsp_types::Range {
        let positions = self
            .positions
            .borrow_mut()
            .entry(file)
            .or_insert_with(|| {
                std::rc::Rc::new(Positions::new(&self.files[file].bytes, self.encoding))
            })
            .clone();
        positions.range(span.start, span.end)
    }

    fn uri(&self, file: usize) -> Option<Uri> {
        uri::from_path(Path::new(&self.files[file].path))
    }
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// `diagnostic` as published for file `index`: placed at its primary label when that is in
/// the file, else at its first label there (a consistency finding located in a sibling); the
/// other labels as related information.
fn finding(diagnostic: &Diagnostic, index: usize, files: &Files) -> Option<Finding> {
    let anchor = diagnostic
        .labels
        .iter()
        .position(|label| label.file == index)?;
    let label = &diagnostic.labels[anchor];
    let range = files.range(index, &label.span);
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .enumerate()
        .filter(|(at, _)| *at != anchor)
        .filter_map(|(_, other)| {
            Some(DiagnosticRelatedInformation {
                location: Location::new(
                    files.uri(other.file)?,
                    files.range(other.file, &other.span),
                ),
                message: if other.message.is_empty() {
                    diagnostic.rule.to_string()
                } else {
                    printable(&other.message)
                },
            })
        })
        .collect();
    // Shown as every output shows them: the one line break is kafkalint's, before the help.
    let mut message = printable(&diagnostic.headline_in(&files.files[index].path));
    if !label.message.is_empty() && anchor != 0 {
        message.push_str(&format!(" ({})", printable(&label.message)));
    }
    if !diagnostic.help.is_empty() {
        message.push_str("\nhelp: ");
        message.push_str(&printable(&diagnostic.help));
    }
    let published = LspDiagnostic {
        range,
        severity: Some(severity(diagnostic.severity)),
        code: Some(NumberOrString::String(diagnostic.rule.to_string())),
        code_description: diagnostic
            .url()
            .parse()
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("kafkalint".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    };
    let action = diagnostic
        .fix
        .as_ref()
        .and_then(|fix| code_action(diagnostic, fix, &published, files));
    Some(Finding {
        diagnostic: published,
        action,
    })
}

/// The fix as a quick fix: the edits `--fix` applies, preferred when the rule's fix is safe.
// lsp-types keys a workspace edit's changes by `Uri`, whose parsed form caches a value in a
// `Cell`; its hash and equality read the URI's text only, which never changes.
#[allow(clippy::mutable_key_type)]
fn code_action(
    diagnostic: &Diagnostic,
    fix: &crate::diagnostic::Fix,
    published: &LspDiagnostic,
    files: &Files,
) -> Option<CodeAction> {
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for edit in &fix.edits {
        changes
            .entry(files.uri(edit.file)?)
            .or_default()
            .push(TextEdit::new(
                files.range(edit.file, &edit.span),
                String::from_utf8_lossy(&edit.replacement).into_owned(),
            ));
    }
    let safe =
        crate::rules::find(diagnostic.rule).is_some_and(|rule| rule.fix == FixAvailability::Safe);
    Some(CodeAction {
        title: format!("{} ({})", printable(&fix.description), diagnostic.rule),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![published.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(safe),
        ..CodeAction::default()
    })
}
