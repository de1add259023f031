//! One open document checked as `kafkalint check --stdin-filename PATH -` checks it, and its
//! findings as the protocol's diagnostics and code actions.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

// The protocol's diagnostic, named apart from kafkalint's findings (`Diagnostic`).
use lsp_types::Diagnostic as LspDiagnostic;
use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity,
    Location, NumberOrString, TextEdit, Uri, WorkspaceEdit,
};

use crate::cluster::{Buffer, DiscoveryError};
use crate::diagnostic::Applicability;
use crate::diagnostic::{Diagnostic, Severity};
use crate::output::printable;
use crate::report::{Options, Report, Retain};
use crate::source::SourceFile;

use super::hover;
use super::position::{Encoding, Positions};
use super::uri;

/// A finding as published: its diagnostic, and the code action of its fix.
#[derive(Debug, Clone)]
pub struct Finding {
    pub diagnostic: LspDiagnostic,
    pub action: Option<Action>,
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
/// documents' texts in place of their files), the paths of the files of its cluster, and
/// its keys for hovers.
pub fn check(
    path: &Path,
    text: &str,
    open: &[Open],
    encoding: Encoding,
) -> Result<(Vec<Finding>, BTreeSet<PathBuf>, Keys), CheckError> {
    let (mut report, index) = match checked(path, text, open) {
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
    let keys = Keys::of(&report, index);
    let diagnostics = std::mem::take(&mut report.diagnostics);
    let files = Files::new(&report.files, encoding);
    // A finding about several nodes is published at the document's own node's place; one
    // about other nodes that points into the document, at its first label there. Each node's
    // finding reads the grouped one's labels in place rather than a copy of them each (as
    // `Diagnostic::per_node` makes for the one-line formats), so that a finding about N nodes
    // costs N findings of at most `RELATED_PLACES` related places, not N copies of N labels.
    let mut found = Vec::new();
    for mut diagnostic in diagnostics {
        let in_document: Vec<(usize, crate::diagnostic::NodeRef)> = if diagnostic.also_on.is_empty()
        {
            Vec::new()
        } else {
            std::iter::once(0)
                .chain(diagnostic.also_on.iter().map(|also| also.label))
                .zip(diagnostic.nodes().cloned())
                .filter(|(primary, _)| diagnostic.labels[*primary].file == index)
                .collect()
        };
        // The grouped finding's headline names all its nodes: kept for a finding published
        // here at a sibling's label.
        let grouped_headline = in_document.is_empty().then(|| {
            diagnostic
                .headline_in(&files.files[index].path)
                .into_owned()
        });
        let labels = std::mem::take(&mut diagnostic.labels);
        diagnostic.also_on = Vec::new();
        let fix = diagnostic.fix.take();
        let Some(grouped_headline) = grouped_headline else {
            // One finding a node here, about that node alone, with the edits of the fix in
            // this file (as `Diagnostic::per_node` keeps them), the same for every node here
            // and so made once.
            let action = fix.as_ref().and_then(|fix| {
                let edits: Vec<_> = fix.edits.iter().filter(|edit| edit.file == index).collect();
                fix_action(&diagnostic, fix, &edits, &files)
            });
            for (primary, node) in in_document {
                diagnostic.subject.node = Some(node);
                let headline = diagnostic
                    .headline_in(&files.files[index].path)
                    .into_owned();
                found.push(finding(
                    &diagnostic,
                    &labels,
                    (primary, true),
                    headline,
                    action.clone(),
                    &files,
                ));
            }
            continue;
        };
        let Some(anchor) = labels.iter().position(|label| label.file == index) else {
            continue;
        };
        let action = fix.as_ref().and_then(|fix| {
            let edits: Vec<_> = fix.edits.iter().collect();
            fix_action(&diagnostic, fix, &edits, &files)
        });
        found.push(finding(
            &diagnostic,
            &labels,
            (anchor, anchor == 0),
            grouped_headline,
            action,
            &files,
        ));
    }
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
    Ok((found, siblings, keys))
}

fn in_cluster(cluster: &crate::cluster::Cluster, file: usize) -> bool {
    cluster.files.contains(&file)
        || cluster
            .components
            .iter()
            .any(|component| component.file == file)
}

/// What a hover reads of a document's last check: its written keys' places and its
/// cluster's release. Kept with the document's findings so that a hover answers without
/// checking the document again (a check of a large file takes long; an editor hovers often).
#[derive(Debug, Clone, Default)]
pub struct Keys {
    /// Each written key: its bytes in the document, and its name.
    written: Vec<(std::ops::Range<usize>, String)>,
    version: Option<crate::catalog::KafkaVersion>,
}

impl Keys {
    fn of(report: &Report, index: usize) -> Keys {
        let Some(file) = report.files.get(index) else {
            return Keys::default();
        };
        let written = file
            .entries()
            .filter(|entry| entry.provenance == crate::properties::Provenance::Written)
            .map(|entry| (entry.key_span.start..entry.key_span.end, entry.key.clone()))
            .collect();
        let version = report
            .clusters
            .iter()
            .find(|cluster| in_cluster(cluster, index))
            .map(|cluster| cluster.target.version)
            .unwrap_or_else(crate::catalog::KafkaVersion::newest);
        Keys {
            written,
            version: Some(version),
        }
    }

    /// Markdown for the key under byte `offset` of the document, for its cluster's release.
    pub fn hover(&self, offset: usize) -> Option<String> {
        let key = hover::key_at(&self.written, offset)?;
        hover::describe(key, self.version?)
    }
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

/// The related places a published diagnostic lists at most. A finding about every node of a
/// cluster has a label on each; listing them all on each node's diagnostic made a cluster of
/// N nodes publish N² places (400 services: 38 MB a change). The last place listed says how
/// many more there are; `kafkalint check` lists them all.
pub const RELATED_PLACES: usize = 10;

/// A finding as published, placed at `labels[anchor]` (`primary`: the label of the node it is
/// about, else a place in a sibling's finding, whose label says why it is here): the other
/// labels as related information (at most [`RELATED_PLACES`]), led by `headline`.
fn finding(
    diagnostic: &Diagnostic,
    labels: &[crate::diagnostic::Label],
    (anchor, primary): (usize, bool),
    headline: String,
    action: Option<Action>,
    files: &Files,
) -> Finding {
    let label = &labels[anchor];
    let index = label.file;
    let range = files.range(index, &label.span);
    let others = labels
        .iter()
        .enumerate()
        .filter(|(at, other)| *at != anchor && *other != label)
        .map(|(_, other)| other);
    let mut related: Vec<DiagnosticRelatedInformation> = Vec::new();
    let mut more = 0usize;
    for other in others {
        if related.len() == RELATED_PLACES {
            more += 1;
            continue;
        }
        let Some(uri) = files.uri(other.file) else {
            continue;
        };
        related.push(DiagnosticRelatedInformation {
            location: Location::new(uri, files.range(other.file, &other.span)),
            message: if other.message.is_empty() {
                diagnostic.rule.to_string()
            } else {
                printable(&other.message)
            },
        });
    }
    if let Some(last) = related.last_mut().filter(|_| more > 0) {
        let places = if more == 1 { "place" } else { "places" };
        last.message.push_str(&format!(
            " (and {more} more {places}: `kafkalint check` lists them all)"
        ));
    }
    let mut message = printable(&headline);
    if !label.message.is_empty() && !primary {
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
    Finding {
        diagnostic: published,
        action,
    }
}

/// A fix as a quick fix, but for the diagnostic it fixes (added when a client asks): its
/// edits are shared by the findings of every node of a grouped finding, whose fix edits one
/// file for all of them.
#[derive(Debug, Clone)]
pub struct Action {
    title: String,
    preferred: bool,
    edit: Arc<WorkspaceEdit>,
}

impl Finding {
    /// The fix as a quick fix: the edits `--fix` applies, preferred when the rule's fix is safe.
    pub fn code_action(&self) -> Option<CodeAction> {
        let action = self.action.as_ref()?;
        Some(CodeAction {
            title: action.title.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![self.diagnostic.clone()]),
            edit: Some(WorkspaceEdit::clone(&action.edit)),
            is_preferred: Some(action.preferred),
            ..CodeAction::default()
        })
    }
}

/// The quick fix of `diagnostic`'s fix whose edits are `edits`; `None` without edits.
// lsp-types keys a workspace edit's changes by `Uri`, whose parsed form caches a value in a
// `Cell`; its hash and equality read the URI's text only, which never changes.
#[allow(clippy::mutable_key_type)]
fn fix_action(
    diagnostic: &Diagnostic,
    fix: &crate::diagnostic::Fix,
    edits: &[&crate::diagnostic::Edit],
    files: &Files,
) -> Option<Action> {
    let (description, applicability) = (&fix.description, fix.applicability);
    if edits.is_empty() {
        return None;
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for edit in edits {
        changes
            .entry(files.uri(edit.file)?)
            .or_default()
            .push(TextEdit::new(
                files.range(edit.file, &edit.span),
                String::from_utf8_lossy(&edit.replacement).into_owned(),
            ));
    }
    // As ruff's server: unsafe fixes are offered too, as quick fixes an editor does not apply
    // on its own (not preferred), their title saying they are unsafe.
    let safe = applicability == Applicability::Safe;
    Some(Action {
        title: if safe {
            format!("{} ({})", printable(description), diagnostic.rule)
        } else {
            format!(
                "{} ({}, unsafe fix)",
                printable(description),
                diagnostic.rule
            )
        },
        preferred: safe,
        edit: Arc::new(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
    })
}
