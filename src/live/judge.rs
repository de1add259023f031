//! From a running cluster's answers to a report: the snapshot's document joins the files (if
//! any were given), the live rules judge it beside the cluster those files describe, and the
//! reassignment plan that raises short internal topics is worked out.

use crate::cluster::{self, Cluster};
use crate::diagnostic::Diagnostic;
use crate::live::snapshot::{QuorumView, Snapshot};
use crate::report::{self, Report};
use crate::rules::{self, Intent, LiveContext};
use crate::source::SourceFile;
use crate::sources::not_checked::{Kind, NotChecked};

/// What `kafkalint live` asks besides the cluster.
#[derive(Debug, Clone, Default)]
pub struct LiveOptions {
    /// `--group ID`.
    pub groups: Vec<String>,
    /// `--transactional-id ID`.
    pub transactional_ids: Vec<String>,
    /// `--stopping ID`: only what stopping that broker stops is reported.
    pub stopping: Option<i32>,
}

/// What `kafkalint live` found.
pub struct LiveReport {
    /// The findings, on the snapshot's document (the last file) and the files given.
    pub report: Report,
    pub snapshot: Snapshot,
    /// The reassignment that raises the internal topics `live-internal-topic-replication`
    /// reports, as `kafka-reassign-partitions.sh --reassignment-json-file` takes it; `None`
    /// when there is nothing to raise.
    pub plan: Option<crate::live::plan::Plan>,
    /// The cluster of the files the snapshot was judged beside, by name.
    pub beside: Option<String>,
    /// What the snapshot lacks: empty when the view is whole (also in the report's
    /// `not_checked`, for `--format json`).
    pub missing: Vec<crate::live::partial::Missing>,
}

/// Judges the snapshot `document` (a [`Snapshot::render`] text) beside `files` (the report of
/// `kafkalint check` on the paths given, all retained, or an empty one), with the rules
/// `selection` runs over the files' config.
pub fn judge(
    mut files: Report,
    document: SourceFile,
    options: &LiveOptions,
    selection: &rules::Selection,
) -> Result<LiveReport, String> {
    if let Some(error) = &document.parse_error {
        return Err(format!("{}: {error}", document.path));
    }
    let snapshot = Snapshot::read(&document.properties)
        .map_err(|error| format!("{}: {error}", document.path))?;
    if let Some(id) = options.stopping
        && snapshot.broker(id).is_none()
        && !is_quorum_member(&snapshot, id)
    {
        return Err(unknown_node(&snapshot, id));
    }
    files.files.push(document);
    let document = files.files.len() - 1;
    let chosen = beside(&files.clusters, &files.files, &snapshot);
    let folders = rules::Folders::new(&files.files);
    let stopping = options.stopping;
    let selected = |rule: &str| {
        let stopping_rule = rule == "live-stopping-broker";
        stopping.is_some() == stopping_rule
            && selection.runs(chosen.and_then(|cluster| cluster.config.as_deref()), rule)
    };
    let (diagnostics, plan) = {
        let facts;
        let hosts;
        let intent = match chosen {
            Some(cluster) => {
                facts = cluster::facts::Facts::of(cluster, &files.files);
                hosts = cluster::host::Hosts::of(cluster, &files.files, &facts);
                Some(Intent {
                    cluster,
                    context: rules::Context::new(&files.files, false, &folders, &facts, &hosts),
                })
            }
            None => None,
        };
        let context = LiveContext {
            snapshot: &snapshot,
            document,
            intent,
            groups: &options.groups,
            transactional_ids: &options.transactional_ids,
            stopping,
        };
        let name = chosen.map_or_else(|| snapshot.bootstrap.clone(), |c| c.name.clone());
        let diagnostics: Vec<Diagnostic> = rules::check_live(&context, &name, &selected);
        let raises = if stopping.is_none() {
            rules::live_internal_topic_replication::raises(&context)
        } else {
            Vec::new()
        };
        (
            diagnostics,
            crate::live::plan::Plan::raising(&snapshot, &raises),
        )
    };
    files.diagnostics = diagnostics;
    report::sort_findings(&files.files, &mut files.diagnostics);
    files.suppressed = Default::default();
    let beside = chosen.map(|cluster| cluster.name.clone());
    let missing = crate::live::partial::missing(&snapshot);
    let path = &files.files[document].path;
    files
        .not_checked
        .extend(missing.iter().map(|item| NotChecked {
            file: path.clone(),
            kind: Kind::PartialView,
            reason: format!("{}: {}", item.what, item.why),
        }));
    Ok(LiveReport {
        report: files,
        snapshot,
        plan,
        beside,
        missing,
    })
}

/// Whether node `id` is a voter or an observer of the controller quorum: a controller that is
/// no broker can be stopped too.
fn is_quorum_member(snapshot: &Snapshot, id: i32) -> bool {
    match &snapshot.quorum {
        QuorumView::Described(quorum) => {
            quorum.voter(id).is_some() || quorum.observer(id).is_some()
        }
        _ => false,
    }
}

/// Why `--stopping id` names no node: the ids it can name.
fn unknown_node(snapshot: &Snapshot, id: i32) -> String {
    let live: Vec<String> = snapshot.brokers.iter().map(|b| b.id.to_string()).collect();
    let live = if live.is_empty() {
        "none".to_string()
    } else {
        live.join(", ")
    };
    match &snapshot.quorum {
        QuorumView::Described(quorum) => {
            let mut voters: Vec<i32> = quorum.voters.iter().map(|voter| voter.id).collect();
            voters.sort_unstable();
            let voters: Vec<String> = voters.iter().map(i32::to_string).collect();
            format!(
                "--stopping {id}: no live broker or controller has id {id} (the live brokers: {live}; the \
                 controller quorum's voters: {})",
                voters.join(", ")
            )
        }
        _ => format!("--stopping {id}: no live broker has id {id} (the live brokers: {live})"),
    }
}

/// The cluster of the files that is the running one: the one whose broker ids the live
/// brokers' ids match best (at least one); the first such when several match as well.
fn beside<'a>(
    clusters: &'a [Cluster],
    files: &[SourceFile],
    snapshot: &Snapshot,
) -> Option<&'a Cluster> {
    clusters
        .iter()
        .filter_map(|cluster| {
            let matching = cluster
                .brokers()
                .filter_map(|node| node.id_entry(files))
                .filter_map(|entry| entry.value.trim().parse::<i32>().ok())
                .filter(|id| snapshot.broker(*id).is_some())
                .count();
            (matching > 0).then_some((matching, cluster))
        })
        .max_by_key(|(matching, cluster)| (*matching, std::cmp::Reverse(cluster.name.clone())))
        .map(|(_, cluster)| cluster)
}
