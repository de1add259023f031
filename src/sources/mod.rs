//! Kafka settings kept in YAML: docker-compose services running a Kafka image, and Strimzi
//! `Kafka` resources. Each node becomes a [`SourceFile`] of the YAML file (its bytes, its
//! path) whose properties entries are the settings Kafka will get, with the spans of the YAML
//! scalars they come from, so that every rule applies unchanged and points at the YAML.

pub mod component_images;
pub mod compose;
pub mod images;
mod redact;
mod spec;
pub mod strimzi;
pub mod yaml;

use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Edit as FileEdit};
use crate::properties::{Entry, PropertiesFile, Span};
use crate::source::{SharedBytes, SourceFile};
pub use crate::yaml_view::{ComponentService, Forbidden, ImageTag, Runtime, Style, YamlView};
pub use spec::{Edit, NodeSpec, YamlEntry};

/// The clusters, notes and errors of reading YAML files.
#[derive(Debug, Default)]
pub struct Found {
    /// Each cluster's name and nodes (a compose file, a Strimzi `Kafka`).
    pub clusters: Vec<(String, Vec<SourceFile>)>,
    /// What was passed over, with why.
    pub notes: Vec<String>,
    /// Files that cannot be read as YAML: path and reason.
    pub errors: Vec<(String, String)>,
}

/// A `.yml` or `.yaml` file name.
pub fn is_yaml_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".yml") || name.ends_with(".yaml")
}

/// Whether a walked YAML file may hold Kafka settings: a compose file or a Strimzi resource.
/// Cheap, on the bytes: the reader decides.
pub fn worth_reading(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|window| window == needle);
    has(b"kafka.strimzi.io") || (has(b"services:") && (has(b"kafka") || has(b"KAFKA")))
}

/// Reads YAML files (of one folder, or named together): every compose file is a cluster of
/// its Kafka services (with its Connect and Schema Registry services as components), every Strimzi `Kafka` a cluster of its nodes (with the node pools of
/// all `files`, and `extra_pools`).
pub fn read_files(files: Vec<(String, Vec<u8>)>, extra_pools: &[strimzi::Pool]) -> Found {
    let mut found = Found::default();
    let mut parsed = Vec::new();
    for (path, bytes) in files {
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(_) => {
                found
                    .errors
                    .push((path, "not UTF-8 text: not a YAML file".into()));
                continue;
            }
        };
        match yaml::parse(text.strip_prefix('\u{feff}').unwrap_or(text)) {
            Ok(documents) => parsed.push((path, bytes.clone(), documents)),
            Err(error) => found.errors.push((path, error.to_string())),
        }
    }
    let mut pools: Vec<strimzi::Pool> = extra_pools.to_vec();
    for (_, _, documents) in &parsed {
        for pool in strimzi::pools(documents) {
            if !pools.contains(&pool) {
                pools.push(pool);
            }
        }
    }
    let pools: Arc<[strimzi::Pool]> = Arc::from(pools);
    for (path, bytes, documents) in parsed {
        let offset = usize::from(bytes.starts_with("\u{feff}".as_bytes())) * 3;
        // Validated as UTF-8 above; the documents were parsed from the text after its BOM.
        let text = std::str::from_utf8(&bytes).unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let secrets: Arc<[Span]> = redact::hidden_spans(text, &documents)
            .into_iter()
            .map(|span| span.start + offset..span.end + offset)
            .collect();
        // One copy of the file (and its secrets and pools) for all of its nodes.
        let shared = SharedBytes::new(bytes);
        let make = |spec: NodeSpec| view_file(&path, &shared, spec, &secrets, &pools, offset);
        let mut notes = Vec::new();
        if let Some(first) = documents.first()
            && first
                .get("services")
                .is_some_and(|services| matches!(services, yaml::Node::Map(_)))
        {
            let nodes = compose::read(first, &mut notes);
            if !nodes.is_empty() {
                found
                    .clusters
                    .push((path.clone(), nodes.into_iter().map(make).collect()));
            }
        }
        for (name, nodes) in strimzi::read(&documents, &pools, &mut notes) {
            if !nodes.is_empty() {
                found.clusters.push((
                    format!("{path}: Kafka {name}"),
                    nodes.into_iter().map(make).collect(),
                ));
            }
        }
        found
            .notes
            .extend(notes.into_iter().map(|note| format!("{path}: {note}")));
    }
    found
}

/// Reads one named YAML file, with the node pools of the YAML files beside it.
pub fn read_named(path: &Path, display: String, bytes: Vec<u8>) -> Found {
    let mut pools = Vec::new();
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // Pools come from the folder itself: a link leading out of it is not read.
    let inside = std::fs::canonicalize(dir).ok();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut siblings: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .collect();
        siblings.sort();
        for sibling in siblings {
            let name = sibling
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let leaves = || {
                let target = std::fs::canonicalize(&sibling).ok();
                target
                    .zip(inside.as_ref())
                    .is_none_or(|(t, d)| !t.starts_with(d))
            };
            if sibling == path || !is_yaml_name(&name) || (sibling.is_symlink() && leaves()) {
                continue;
            }
            // Read as any file is: a pipe named `pools.yaml` is passed over, not waited on.
            if let Ok(bytes) = crate::source::read_file(&sibling)
                && bytes.windows(13).any(|window| window == b"KafkaNodePool")
                && let Ok(text) = std::str::from_utf8(&bytes)
                && let Ok(documents) = yaml::parse(text)
            {
                pools.extend(strimzi::pools(&documents));
            }
        }
    }
    read_files(vec![(display, bytes)], &pools)
}

fn view_file(
    path: &str,
    bytes: &SharedBytes,
    spec: NodeSpec,
    secrets: &Arc<[Span]>,
    pools: &Arc<[strimzi::Pool]>,
    offset: usize,
) -> SourceFile {
    let shift = |span: &Span| span.start + offset..span.end + offset;
    let entries = spec
        .entries
        .iter()
        .map(|entry| Entry {
            key: entry.key.clone(),
            value: entry.value.clone(),
            key_span: shift(&entry.key_span),
            value_span: shift(&entry.value_span),
            utf8_mismatch: false,
        })
        .collect();
    let view = YamlView {
        id: spec.id,
        label: spec.label,
        editable: spec
            .entries
            .iter()
            .filter_map(|entry| {
                entry
                    .edit
                    .map(|edit| (shift(&entry.value_span), edit.style))
            })
            .collect(),
        secrets: Arc::clone(secrets),
        count_known: spec.count_known,
        component: spec.component.map(|component| ComponentService {
            image_span: shift(&component.image_span),
            ..component
        }),
        forbidden: spec
            .forbidden
            .into_iter()
            .map(|forbidden| Forbidden {
                key_span: shift(&forbidden.key_span),
                ..forbidden
            })
            .collect(),
        pools: Arc::clone(pools),
        image_tag: spec.image_tag.map(|tag| ImageTag {
            span: shift(&tag.span),
            ..tag
        }),
        runtime: spec.runtime,
    };
    SourceFile::from_yaml(
        path.to_string(),
        bytes,
        PropertiesFile::new(entries, Vec::new()),
        view,
    )
}

/// Keeps a fix on YAML only when each of its edits replaces an exact one-line scalar value byte
/// for byte with text that reads back as the same YAML string; otherwise the finding has no fix.
pub fn restrict_fixes(files: &[SourceFile], diagnostics: &mut [Diagnostic]) {
    for diagnostic in diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let allowed = fix.edits.iter().all(|edit| match &files[edit.file].yaml {
            None => true,
            Some(view) => view.editable.iter().any(|(span, style)| {
                *span == edit.span && safe_replacement(&edit.replacement, *style)
            }),
        });
        if !allowed {
            diagnostic.fix = None;
        }
    }
}

/// Text that a plain or quoted scalar holds as is: no quotes, escapes, spaces or indicators.
fn safe_replacement(replacement: &[u8], style: Style) -> bool {
    let ordinary = |b: &u8| b.is_ascii_alphanumeric() || b"._,:/+-".contains(b);
    !replacement.is_empty()
        && replacement.iter().all(ordinary)
        && match style {
            Style::Plain => replacement[0].is_ascii_alphanumeric() || replacement[0] == b'/',
            Style::SingleQuoted | Style::DoubleQuoted => true,
            Style::Block => false,
        }
}

/// The edits with each edit of a YAML node also made to the other nodes of the same file, so
/// that all views of the file keep the same bytes.
pub fn share_edits(files: &[SourceFile], edits: Vec<FileEdit>) -> Vec<FileEdit> {
    let mut shared: Vec<FileEdit> = Vec::new();
    for edit in edits {
        let file = &files[edit.file];
        let siblings: Vec<usize> = if file.yaml.is_some() {
            (0..files.len())
                .filter(|other| {
                    files[*other].yaml.is_some()
                        && files[*other].path == file.path
                        && files[*other].bytes == file.bytes
                })
                .collect()
        } else {
            vec![edit.file]
        };
        for sibling in siblings {
            let copy = FileEdit {
                file: sibling,
                ..edit.clone()
            };
            if !shared.contains(&copy) {
                shared.push(copy);
            }
        }
    }
    shared
}

/// Drops repeats of one finding on one YAML place: nodes that share settings (replicas of a
/// service, a pool's brokers, services merging one anchor) each report it, with the same
/// message about another node (the subject, which is not part of the message).
pub fn dedupe(files: &[SourceFile], diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.dedup_by(|later, earlier| {
        let (a, b) = (later.primary(), earlier.primary());
        files[a.file].yaml.is_some()
            && files[b.file].yaml.is_some()
            && files[a.file].path == files[b.file].path
            && a.span == b.span
            && later.rule == earlier.rule
            && later.message == earlier.message
    });
}

impl SourceFile {
    /// The same file read again from other bytes (after a fix), as it was read: a YAML node
    /// by its reader (here, above `source`, which knows no reader).
    pub fn with_bytes(&self, bytes: Vec<u8>) -> SourceFile {
        match &self.yaml {
            None => SourceFile::new(self.path.clone(), bytes),
            Some(view) => reread(&self.path, bytes, view),
        }
    }
}

/// The node `view` of `path` read again from `bytes` (after a fix). A node the bytes no longer
/// hold comes back without settings.
pub fn reread(path: &str, bytes: Vec<u8>, view: &YamlView) -> SourceFile {
    let found = read_files(vec![(path.to_string(), bytes.clone())], &view.pools);
    found
        .clusters
        .into_iter()
        .flat_map(|(_, files)| files)
        .find(|file| file.yaml.as_ref().is_some_and(|other| other.id == view.id))
        .unwrap_or_else(|| {
            SourceFile::from_yaml(
                path.to_string(),
                &SharedBytes::new(bytes),
                PropertiesFile::default(),
                view.clone(),
            )
        })
}

#[cfg(test)]
mod tests;
