//! `--format json`: one JSON document for programs.

use std::io::Write;

use serde::Serialize;

use super::printable;
use crate::catalog;
use crate::cluster::ChosenBy;
use crate::diagnostic::{Label, NodeKind, NodeRef, Severity, Subject};
use crate::report::Report;
use crate::yaml_view::NamedBy;

/// The document is written as serde_json's pretty printer writes it, its lists an item at a
/// time: the items rendered on the pool's threads a window at a time and written in order, so
/// that the findings of 10,000 files are never all held as JSON text and writing them is not
/// a long last step on one thread. The tests compare it with serde_json's rendering of the
/// whole document.
const INDENT: &[u8] = b"  ";

/// Items rendered at once: a share for every thread, and little text held.
const WINDOW: usize = 64;

/// Writes `"name": [...]` at the document's top level, each item as `render` makes it.
fn write_list<'a, T: Sync, R: Serialize>(
    out: &mut dyn Write,
    name: &str,
    items: &'a [T],
    render: impl Fn(&'a T) -> R + Sync + Send,
) -> std::io::Result<()> {
    write_key(out, name)?;
    if items.is_empty() {
        return out.write_all(b"[]");
    }
    out.write_all(b"[")?;
    let mut first = true;
    for window in items.chunks(WINDOW) {
        // By place in the window: an item's rendering may borrow from it.
        let places: Vec<usize> = (0..window.len()).collect();
        for text in crate::parallel::map(&places, |place| nested(&render(&window[*place]), 2)) {
            out.write_all(if first { b"\n" } else { b",\n" })?;
            first = false;
            out.write_all(&INDENT.repeat(2))?;
            out.write_all(&text?)?;
        }
    }
    out.write_all(b"\n")?;
    out.write_all(INDENT)?;
    out.write_all(b"]")
}

/// `"name": ` of the document's top level.
fn write_key(out: &mut dyn Write, name: &str) -> std::io::Result<()> {
    out.write_all(INDENT)?;
    serde_json::to_writer(&mut *out, name)?;
    out.write_all(b": ")
}

/// `value` as the pretty printer writes it `depth` levels in: each line after the first
/// indented. A JSON string holds no line break (it is written `\n`), so every one is the
/// printer's.
fn nested(value: &impl Serialize, depth: usize) -> std::io::Result<Vec<u8>> {
    let text = serde_json::to_vec_pretty(value)?;
    let indent = INDENT.repeat(depth);
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    for (index, line) in text.split(|byte| *byte == b'\n').enumerate() {
        if index > 0 {
            out.push(b'\n');
            out.extend_from_slice(&indent);
        }
        out.extend_from_slice(line);
    }
    Ok(out)
}

/// One thing not checked: its file, why (`helm-template`, `unknown-image`, `vault`,
/// `run-time-value`, `not-among-files-read`, `mounted-file`) and the reader's words.
#[derive(Serialize)]
struct JsonNotChecked {
    file: String,
    kind: &'static str,
    reason: String,
}

/// A cluster and the Kafka release it was checked against.
#[derive(Serialize)]
struct JsonCluster {
    name: String,
    kafka_version: String,
    /// `flag` (--kafka-version), `config` (kafkalint.toml), `files` (a file shows it),
    /// `image` (a compose service's image tag names it), `strimzi` (a Strimzi `Kafka`'s
    /// `spec.kafka.version` does) or `newest`.
    kafka_version_from: &'static str,
    /// With `image`: the image reference whose tag names the release; with `strimzi`: the
    /// version as the resource writes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    kafka_version_image: Option<String>,
    /// The config file the cluster was checked with, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    config: Option<String>,
    files: Vec<String>,
    /// Connect, MirrorMaker 2, Streams and Schema Registry files beside the nodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    components: Vec<JsonComponent>,
    membership: JsonMembership,
    /// Where each node runs and why.
    nodes: Vec<JsonPlacement>,
}

/// A node's runtime and whether its network and files are its own, with the evidence.
#[derive(Serialize)]
struct JsonPlacement {
    file: String,
    /// For a node of a YAML file: which part of it (`service \`kafka\``).
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<String>,
    /// Its `node.id` or `broker.id`, when its file sets one.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// `process`, `mapped-container`, `container` or `pod`.
    runtime: &'static str,
    /// `own`, `shared` (with other nodes of the cluster) or `unknown`.
    network: &'static str,
    disk: &'static str,
    evidence: String,
}

/// Why the cluster's files are checked together.
#[derive(Serialize)]
struct JsonMembership {
    /// `folder`, `numbered-folders`, `named`, `compose`, `strimzi`, `kubernetes`, `helm-values`,
    /// `cfk`, `ansible` or `declared`.
    reason: &'static str,
    /// `mode`, `alternative` or `stock-sample`: the cluster is that share of what gathered it.
    #[serde(skip_serializing_if = "Option::is_none")]
    share: Option<&'static str>,
    /// The reason in words (`alternative 2 of 2 of the node files of folder conf`).
    text: String,
    /// The gathering's node files that are other clusters', with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    set_apart: Vec<JsonSetApart>,
    /// Files of the cluster that are overlays (settings merged into nodes), not nodes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    overlays: Vec<JsonOverlay>,
}

#[derive(Serialize)]
struct JsonSetApart {
    files: Vec<String>,
    /// What they are and why they are another cluster.
    why: String,
}

#[derive(Serialize)]
struct JsonOverlay {
    file: String,
    why: &'static str,
}

#[derive(Serialize)]
struct JsonComponent {
    file: String,
    /// For a component of a YAML file: which part of it (`service \`connect\``).
    #[serde(skip_serializing_if = "Option::is_none")]
    part: Option<String>,
    kind: &'static str,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    rule: &'a str,
    severity: Severity,
    /// Kafka refuses to start with this configuration.
    stops_startup: bool,
    /// Message, help, labels, key and fix description are shown as in every format: control
    /// characters and bidirectional overrides escaped (`\u{1b}`).
    message: String,
    /// What the finding is about (the node's name that leads `message`, as data).
    subject: JsonSubject,
    file: String,
    line: usize,
    column: usize,
    key: Option<String>,
    /// Kafka's documentation of the key, when it is a broker key Kafka documents.
    key_url: Option<String>,
    labels: Vec<JsonLabel>,
    /// The same finding on other nodes of the cluster, reported once (`message` names them
    /// all): each node and its place, which is also among `labels`.
    also_on: Vec<JsonAlsoOn>,
    help: String,
    url: String,
    /// What `--fix` would change, when the finding has an unambiguous fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<JsonFix>,
}

/// The cluster (its name in `clusters`), and the node or component a finding is about.
#[derive(Serialize)]
struct JsonSubject {
    cluster: Option<String>,
    node: Option<JsonNode>,
    component: Option<JsonComponentRef>,
}

#[derive(Serialize)]
struct JsonNode {
    /// `broker` or `node` (which id names it), null without an id.
    kind: Option<NodeKind>,
    /// The id as written.
    id: Option<String>,
    /// The file's name (for a compose service or Strimzi pool, with its name), as messages give it.
    file: String,
}

#[derive(Serialize)]
struct JsonAlsoOn {
    node: JsonNode,
    file: String,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct JsonComponentRef {
    kind: &'static str,
    file: String,
}

/// What part `part` of `file` stands for, for a YAML file.
fn part_label(report: &Report, file: usize, part: Option<u32>) -> Option<String> {
    let view = report.files[file].view(part)?;
    // A service or resource name is the file's text: control and bidi characters escaped.
    Some(printable(&view.label))
}

fn json_node(node: &NodeRef) -> JsonNode {
    JsonNode {
        kind: node.kind,
        id: node.id.as_deref().map(printable),
        file: printable(&node.file),
    }
}

fn subject(subject: &Subject) -> JsonSubject {
    JsonSubject {
        cluster: subject.cluster.as_deref().map(printable),
        node: subject.node.as_ref().map(json_node),
        component: subject
            .component
            .as_ref()
            .map(|component| JsonComponentRef {
                kind: component.kind,
                file: printable(&component.file),
            }),
    }
}

#[derive(Serialize)]
struct JsonFix {
    description: String,
    /// `safe` (`--fix` makes it) or `unsafe` (only with `--unsafe-fixes`).
    applicability: crate::diagnostic::Applicability,
    edits: Vec<JsonEdit>,
}

/// Replace the text from `line:column` up to (not including) `end_line:end_column` by `content`.
#[derive(Serialize)]
struct JsonEdit {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    content: String,
}

#[derive(Serialize)]
struct JsonLabel {
    file: String,
    line: usize,
    column: usize,
    message: String,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    infos: usize,
    /// Findings that `# kafkalint: ignore[...]` comments suppressed.
    suppressed: usize,
    files: usize,
    clusters: usize,
}

/// The document as text (for a program that wants it whole; the command line writes it with
/// [`write_json`]).
pub fn json(report: &Report) -> String {
    let mut out = Vec::new();
    write_json(report, &mut out).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes the document to `out` as it is made.
pub fn write_json(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    // The printer's pieces are small: gathered here, where a write is a plain copy, and passed
    // on a chunk at a time.
    let mut buffered = std::io::BufWriter::with_capacity(64 * 1024, out);
    buffered.write_all(b"{\n")?;
    write_list(&mut buffered, "clusters", &report.clusters, |cluster| {
        json_cluster(report, cluster)
    })?;
    buffered.write_all(b",\n")?;
    write_list(
        &mut buffered,
        "diagnostics",
        &report.diagnostics,
        |diagnostic| json_diagnostic(report, diagnostic),
    )?;
    buffered.write_all(b",\n")?;
    // What the readers saw but could not judge: never hidden by a clean bill (absent when
    // there is none, as a clean document was before it).
    if !report.not_checked.is_empty() {
        write_list(
            &mut buffered,
            "not_checked",
            &report.not_checked,
            json_not_checked,
        )?;
        buffered.write_all(b",\n")?;
    }
    write_key(&mut buffered, "summary")?;
    buffered.write_all(&nested(&summary(report), 1)?)?;
    buffered.write_all(b"\n}\n")?;
    buffered.flush()
}

fn json_not_checked(item: &crate::sources::not_checked::NotChecked) -> JsonNotChecked {
    JsonNotChecked {
        file: printable(&item.file),
        kind: item.kind.id(),
        reason: printable(&item.reason),
    }
}

fn summary(report: &Report) -> Summary {
    Summary {
        errors: report.count(Severity::Error),
        warnings: report.count(Severity::Warning),
        infos: report.count(Severity::Info),
        suppressed: report.suppressed.count,
        files: report.files.len(),
        clusters: report.clusters.len(),
    }
}

/// Where a label is: its file's path as shown, line and column.
fn locate(report: &Report, label: &Label) -> (String, usize, usize) {
    let file = &report.files[label.file];
    let (line, column) = file.line_column(label.span.start);
    (printable(&file.path), line, column)
}

fn json_diagnostic<'a>(
    report: &Report,
    diagnostic: &'a crate::diagnostic::Diagnostic,
) -> JsonDiagnostic<'a> {
    let (file, line, column) = locate(report, diagnostic.primary());
    JsonDiagnostic {
        rule: diagnostic.rule,
        severity: diagnostic.severity,
        stops_startup: diagnostic.stops_startup,
        message: printable(&diagnostic.headline()),
        subject: subject(&diagnostic.subject),
        file,
        line,
        column,
        key: diagnostic.key.as_deref().map(printable),
        key_url: diagnostic
            .key
            .as_deref()
            .filter(|key| catalog::entry(key).is_some())
            .map(catalog::documentation_url),
        labels: diagnostic
            .labels
            .iter()
            .map(|label| {
                let (file, line, column) = locate(report, label);
                JsonLabel {
                    file,
                    line,
                    column,
                    message: printable(&label.message),
                }
            })
            .collect(),
        also_on: diagnostic
            .also_on
            .iter()
            .map(|also| {
                let (file, line, column) = locate(report, &diagnostic.labels[also.label]);
                JsonAlsoOn {
                    node: json_node(&also.node),
                    file,
                    line,
                    column,
                }
            })
            .collect(),
        help: printable(&diagnostic.help),
        url: diagnostic.url(),
        fix: diagnostic.fix.as_ref().map(|fix| JsonFix {
            description: printable(&fix.description),
            applicability: fix.applicability,
            edits: fix
                .edits
                .iter()
                .map(|edit| {
                    let file = &report.files[edit.file];
                    let (line, column) = file.line_column(edit.span.start);
                    let (end_line, end_column) = file.line_column(edit.span.end);
                    JsonEdit {
                        file: printable(&file.path),
                        line,
                        column,
                        end_line,
                        end_column,
                        // Fixes write digits or nothing; Latin-1 like the files.
                        content: edit.replacement.iter().map(|b| char::from(*b)).collect(),
                    }
                })
                .collect(),
        }),
    }
}

fn json_cluster(report: &Report, cluster: &crate::cluster::Cluster) -> JsonCluster {
    JsonCluster {
        name: printable(&cluster.name),
        kafka_version: cluster.target.version.to_string(),
        kafka_version_from: match &cluster.target.chosen_by {
            ChosenBy::Flag => "flag",
            ChosenBy::Config => "config",
            ChosenBy::Hint => "files",
            ChosenBy::Image(tag) => match tag.named_by {
                NamedBy::ImageTag => "image",
                NamedBy::StrimziVersion => "strimzi",
                NamedBy::HelmChart => "chart",
                NamedBy::CpAnsible => "cp-ansible",
                NamedBy::AnsibleVariable | NamedBy::AnsibleArchive => "ansible",
            },
            ChosenBy::Newest => "newest",
        },
        kafka_version_image: cluster.target.image().map(|tag| printable(&tag.reference)),
        config: cluster
            .config
            .as_ref()
            .map(|config| printable(&config.path)),
        files: cluster
            .files
            .iter()
            .map(|file| printable(&report.files[*file].path))
            .collect(),
        components: cluster
            .components
            .iter()
            .map(|component| JsonComponent {
                file: printable(&report.files[component.file].path),
                part: part_label(report, component.file, component.part),
                kind: component.kind.id(),
            })
            .collect(),
        membership: membership(report, cluster),
        nodes: cluster
            .placements
            .iter()
            .map(|placement| JsonPlacement {
                file: printable(&report.files[placement.file].path),
                part: part_label(report, placement.file, placement.part),
                id: placement.id.as_deref().map(printable),
                runtime: placement.runtime,
                network: placement.network,
                disk: placement.disk,
                evidence: printable(&placement.evidence),
            })
            .collect(),
    }
}

fn membership(report: &Report, cluster: &crate::cluster::Cluster) -> JsonMembership {
    let path = |file: &usize| printable(&report.files[*file].path);
    let membership = &cluster.membership;
    JsonMembership {
        reason: membership.reason(),
        share: membership.share.as_ref().map(|share| share.kind()),
        text: printable(&membership.text()),
        set_apart: membership
            .set_apart
            .iter()
            .map(|apart| JsonSetApart {
                files: apart.files.iter().map(path).collect(),
                why: printable(&apart.why),
            })
            .collect(),
        overlays: cluster
            .overlays
            .iter()
            .map(|overlay| JsonOverlay {
                file: path(&overlay.file),
                why: cluster.overlay_reason(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Options;

    /// The document as serde_json's pretty printer writes it from values all held at once.
    fn whole(report: &Report) -> String {
        #[derive(Serialize)]
        struct Whole<'a> {
            clusters: Vec<JsonCluster>,
            diagnostics: Vec<JsonDiagnostic<'a>>,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            not_checked: Vec<JsonNotChecked>,
            summary: Summary,
        }
        let whole = Whole {
            clusters: report
                .clusters
                .iter()
                .map(|cluster| json_cluster(report, cluster))
                .collect(),
            diagnostics: report
                .diagnostics
                .iter()
                .map(|diagnostic| json_diagnostic(report, diagnostic))
                .collect(),
            not_checked: report.not_checked.iter().map(json_not_checked).collect(),
            summary: summary(report),
        };
        serde_json::to_string_pretty(&whole).unwrap() + "\n"
    }

    fn checked(path: &str) -> Report {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let found = crate::cluster::discover(&[root.join(path)], None).unwrap();
        crate::report::run(found, &Options::default(), None)
    }

    #[test]
    fn writes_what_serde_json_writes_of_the_whole_document() {
        // Every fixture: lists longer than a window, things not checked, several releases.
        let report = checked("fixtures");
        assert!(report.diagnostics.len() > 2 * WINDOW && !report.not_checked.is_empty());
        assert_eq!(json(&report), whole(&report));
        // One finding, nothing not checked.
        let report = checked("fixtures/seed-zk-3-brokers");
        assert!(report.not_checked.is_empty() && !report.diagnostics.is_empty());
        assert_eq!(json(&report), whole(&report));
    }

    #[test]
    fn an_empty_list_is_written_as_serde_json_writes_it() {
        let report = Report::merge(Vec::new());
        assert!(report.clusters.is_empty() && report.diagnostics.is_empty());
        assert_eq!(json(&report), whole(&report));
    }
}
