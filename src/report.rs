//! From findings to a report: each cluster checked against its release, the rules its config
//! file selects, suppressions, severity overrides and path ignores applied, and the findings
//! sorted. `fix` re-checks fixed bytes through `run`.

use std::path::{Path, PathBuf};

use crate::cluster::{self, ChosenBy, Cluster};
use crate::config::Config;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::SourceFile;
use crate::{parallel, rules, sources, suppress};

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The real broker count when the files are fewer (`--brokers N`).
    pub brokers: Option<usize>,
    /// The Kafka release to check against (`--kafka-version`); without it, what the files
    /// show, else the newest release kafkalint knows.
    pub kafka_version: Option<crate::catalog::KafkaVersion>,
    /// `--config PATH`: this config file for every path, instead of the nearest
    /// `kafkalint.toml` of each.
    pub config: Option<PathBuf>,
    /// What the report keeps of the files it checked. With anything but [`Retain::All`],
    /// clusters are checked as the walk finishes their folders and a tree of many clusters is
    /// never in memory whole.
    pub retain: Retain,
    /// `--select`, `--extend-select`, `--ignore`: the rules that run, over what the config
    /// files choose.
    pub selection: rules::Selection,
    /// `--exclude`: what folder walks pass over besides what the config files exclude,
    /// anchored at the working folder.
    pub exclude: Option<crate::source::excludes::Patterns>,
}

/// What a report keeps of the files it checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Retain {
    /// Everything read: `--fix` and `explain` read the parsed files of the report.
    #[default]
    All,
    /// What `--format full` in this style shows: each finding is drawn as soon as its
    /// cluster is checked ([`Report::drawn`]), and the files keep only their paths.
    Drawn(FullStyle),
    /// What the other formats show: the line and column of every place findings point at
    /// ([`crate::source::SourceFile::keep_positions_only`]), and the paths.
    Positions,
}

/// How `--format full` draws a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FullStyle {
    pub color: bool,
    pub width: usize,
}

/// Everything a check found, ready for output.
#[derive(Debug)]
pub struct Report {
    pub files: Vec<SourceFile>,
    pub clusters: Vec<Cluster>,
    /// Sorted by file, position, rule and message: the same input always gives the same order.
    pub diagnostics: Vec<Diagnostic>,
    /// Files that looked like node files but were passed over, with why.
    pub skipped: Vec<String>,
    /// What was assumed in reading the files (a Helm chart's line), with why.
    pub notes: Vec<String>,
    /// What the readers saw but could not judge (of `skipped`): the summary counts it.
    pub not_checked: Vec<sources::not_checked::NotChecked>,
    /// Diagnostics that `# kafkalint: ignore[...]` comments suppressed (not in `diagnostics`):
    /// how many, and the edits of their fixes.
    pub suppressed: suppress::Suppressed,
    /// The files findings are reported for (`--with-cluster`, `--stdin-filename`): the others
    /// were read as their clusters' context. `None`: every file.
    pub only: Option<Vec<usize>>,
    /// With [`Retain::Drawn`]: the style, and each diagnostic as `--format full` draws it, in
    /// the order of `diagnostics`.
    pub drawn: Option<(FullStyle, Vec<String>)>,
    /// Declared topics bound to no cluster, checked alone.
    pub unbound_topics: Vec<cluster::topics::DeclaredTopic>,
}

impl Report {
    /// How many findings of `severity`, a finding about several nodes once a node (as the
    /// formats with a line a place list it).
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .map(|d| d.locations().count())
            .sum()
    }

    /// How many findings of `rule`, a finding about several nodes once a node.
    pub fn count_of(&self, rule: &str) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.rule == rule)
            .map(|d| d.locations().count())
            .sum()
    }

    /// Whether the run fails (exit 1): a finding at `threshold` or above (`--fail-on`).
    pub fn fails_at(&self, threshold: Severity) -> bool {
        self.diagnostics.iter().any(|d| d.severity >= threshold)
    }
}
/// The release a cluster is checked against: `--kafka-version`, else its config cluster's
/// `kafka-version`, else the config file's, else what its files show.
fn target(cluster: &Cluster, files: &[SourceFile], options: &Options) -> cluster::Target {
    if options.kafka_version.is_some() {
        return cluster::version::choose(cluster, files, options.kafka_version);
    }
    let configured = cluster.config.as_deref().and_then(|config| {
        cluster
            .declared
            .and_then(|index| config.clusters[index].kafka_version)
            .or(config.kafka_version)
    });
    match configured {
        Some(version) => cluster::Target {
            version,
            chosen_by: ChosenBy::Config,
        },
        None => cluster::version::choose(cluster, files, None),
    }
}

/// The findings of the rules a cluster's config file selects, before suppressions, path
/// ignores and severity overrides.
pub(crate) fn cluster_diagnostics(
    cluster: &Cluster,
    files: &[SourceFile],
    folders: &rules::Folders,
    selection: &rules::Selection,
) -> (Vec<Diagnostic>, Vec<cluster::Placement>) {
    let config = cluster.config.as_deref();
    let facts = cluster::facts::Facts::of(cluster, files);
    let hosts = cluster::host::Hosts::of(cluster, files, &facts);
    let placements = hosts.placements(cluster, files);
    let strict = config.is_some_and(|config| config.strict) || selection.asks_strict();
    let context = rules::Context::new(files, strict, folders, &facts, &hosts);
    let diagnostics =
        rules::check_selected(cluster, &context, &|rule| selection.runs(config, rule));
    (diagnostics, placements)
}

/// What the config files say of each checked file: the config of the cluster it is in.
pub(crate) struct FileSettings<'a> {
    files: &'a [SourceFile],
    configs: Vec<Option<&'a Config>>,
    selection: &'a rules::Selection,
}

impl<'a> FileSettings<'a> {
    pub(crate) fn new(
        files: &'a [SourceFile],
        clusters: &'a [Cluster],
        selection: &'a rules::Selection,
    ) -> Self {
        let mut configs = vec![None; files.len()];
        // A file that cannot be parsed is in no cluster: the config file of the clusters read
        // with it (one per run: see `check::attach`) chooses for it.
        let beside = clusters
            .first()
            .and_then(|cluster| cluster.config.as_deref());
        for (config, file) in configs.iter_mut().zip(files) {
            if file.syntax_error.is_some() {
                *config = beside;
            }
        }
        for cluster in clusters {
            let components = cluster.components.iter().map(|component| &component.file);
            let topics = cluster.topics.iter().map(|topic| &topic.file);
            for file in cluster.files.iter().chain(components).chain(topics) {
                configs[*file] = cluster.config.as_deref();
            }
        }
        FileSettings {
            files,
            configs,
            selection,
        }
    }

    /// Whether `rule` runs for `file` and `per-path-ignores` keeps it there.
    pub(crate) fn judged(&self, rule: &str, file: usize) -> bool {
        let config = self.configs[file];
        self.selection.runs(config, rule)
            && config
                .is_none_or(|config| !config.ignores_in(rule, Path::new(&self.files[file].path)))
    }

    fn severity(&self, diagnostic: &Diagnostic) -> Severity {
        match self.configs[diagnostic.primary().file] {
            Some(config) => config.severity(diagnostic.rule, diagnostic.severity),
            None => diagnostic.severity,
        }
    }
}

/// Runs the rules on what was found, each cluster with its config file (`Cluster::config`);
/// with `only`, keeps the findings that label one of those files.
pub(crate) fn run(
    mut found: cluster::Discovered,
    options: &Options,
    only: Option<&[usize]>,
) -> Report {
    for index in 0..found.clusters.len() {
        found.clusters[index].target = target(&found.clusters[index], &found.files, options);
    }
    let settings = FileSettings::new(&found.files, &found.clusters, &options.selection);
    let folders = rules::Folders::new(&found.files);
    let reported = |diagnostic: &Diagnostic| {
        settings.judged(diagnostic.rule, diagnostic.primary().file)
            && only.is_none_or(|only| {
                diagnostic
                    .labels
                    .iter()
                    .any(|label| only.contains(&label.file))
            })
    };
    // Filtered before suppressing too, so that `suppressed` counts only what was reported on;
    // suppressions in the buffer apply to findings located in it, which are all kept.
    let checked = parallel::map(&found.clusters, |cluster| {
        cluster_diagnostics(cluster, &found.files, &folders, &options.selection)
    });
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut placements = Vec::with_capacity(checked.len());
    for (found_in, placed) in checked {
        diagnostics.extend(found_in.into_iter().filter(reported));
        placements.push(placed);
    }
    diagnostics.extend(unparsed_files(&found.files).filter(reported));
    let unbound = rules::check_unbound_topics(&found.unbound_topics, &found.files, &|rule| {
        options.selection.runs(None, rule)
    });
    diagnostics.extend(unbound.into_iter().filter(reported));
    let judged = |rule: &str, file: usize| settings.judged(rule, file);
    let (diagnostics, suppressed) = suppress::apply(&found.files, diagnostics, &judged);
    let mut diagnostics: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(reported)
        .map(|mut diagnostic| {
            diagnostic.severity = settings.severity(&diagnostic);
            diagnostic
        })
        .collect();
    sort(&found.files, &mut diagnostics);
    drop_repeats(&mut diagnostics);
    let topics: Vec<&cluster::topics::DeclaredTopic> = found
        .clusters
        .iter()
        .flat_map(|cluster| &cluster.topics)
        .chain(&found.unbound_topics)
        .collect();
    sources::restrict_fixes(&found.files, &topics, &mut diagnostics);
    group_across_nodes(&mut diagnostics);
    // Kept until output, a tree's worth of them: grouping left room for every finding before
    // it (a finding on ten nodes is one after it), and grew these lists by doubling.
    diagnostics.shrink_to_fit();
    for diagnostic in &mut diagnostics {
        diagnostic.labels.shrink_to_fit();
        diagnostic.also_on.shrink_to_fit();
        if let Some(fix) = &mut diagnostic.fix {
            fix.edits.shrink_to_fit();
        }
    }
    // A finding in a rendered Helm template also points at the values line its value came from.
    sources::helm::trace::label_values(&mut found.files, &mut diagnostics);
    for (cluster, placed) in found.clusters.iter_mut().zip(placements) {
        cluster.placements = placed;
        cluster.nodes.shrink_to_fit();
    }
    // The clusters too are kept until output: a folder's one cluster was pushed into room for
    // four.
    found.clusters.shrink_to_fit();
    let mut not_checked = sources::not_checked::of_notes(&found.skipped);
    let template_text =
        cluster::template_text::not_judged(&found.files, &found.clusters, &not_checked);
    let mut notes = found.notes;
    notes.extend(
        template_text
            .iter()
            .map(|item| format!("{}: {}", item.file, item.reason)),
    );
    not_checked.extend(template_text);
    Report {
        files: found.files,
        clusters: found.clusters,
        diagnostics,
        not_checked,
        skipped: found.skipped,
        notes,
        suppressed,
        only: only.map(<[usize]>::to_vec),
        drawn: None,
        unbound_topics: found.unbound_topics,
    }
}

/// An `invalid-syntax` finding for each file that cannot be parsed (in no cluster, so no
/// cluster's rules see it).
fn unparsed_files(files: &[SourceFile]) -> impl Iterator<Item = Diagnostic> + '_ {
    files.iter().enumerate().filter_map(|(index, file)| {
        let error = file.syntax_error.as_deref()?;
        Some(rules::invalid_syntax::finding(
            index,
            error.span.clone(),
            &error.reason,
            crate::sources::refused_by(&file.path, &error.reason),
        ))
    })
}

/// Drops repeats of one finding on one place: nodes that share settings (the replicas of a
/// compose service, a Strimzi pool's brokers, services merging one YAML anchor) each report
/// it, with the same message (about another node, the subject, which the message does not
/// name). The first of each is kept: `diagnostics` are sorted, so it is the one whose subject
/// sorts first, wherever the others sort.
fn drop_repeats(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    let first: Vec<bool> = diagnostics
        .iter()
        .map(|diagnostic| {
            let primary = diagnostic.primary();
            seen.insert((
                primary.file,
                primary.span.start,
                primary.span.end,
                diagnostic.rule,
                diagnostic.message.as_str(),
            ))
        })
        .collect();
    let mut first = first.into_iter();
    diagnostics.retain(|_| first.next().unwrap_or(true));
}

/// Reports a finding repeated on several nodes of a cluster once, about all of them (see
/// [`Diagnostic::repeats_on_another_node`]): `brokers 0, 1 and 2: ...` with a label in each
/// file, where three findings said the same. It takes the place of the first.
fn group_across_nodes(diagnostics: &mut Vec<Diagnostic>) {
    use std::collections::HashMap;
    // Candidates by rule and message: most findings have none, and a tree of many clusters
    // has many findings.
    let mut by_text: HashMap<(&'static str, String), Vec<usize>> = HashMap::new();
    let mut grouped: Vec<Diagnostic> = Vec::with_capacity(diagnostics.len());
    for diagnostic in std::mem::take(diagnostics) {
        let candidates = by_text
            .entry((diagnostic.rule, diagnostic.message.clone()))
            .or_default();
        match candidates
            .iter()
            .find(|&&index| grouped[index].repeats_on_another_node(&diagnostic))
        {
            Some(&index) => grouped[index].absorb(diagnostic),
            None => {
                candidates.push(grouped.len());
                grouped.push(diagnostic);
            }
        }
    }
    *diagnostics = grouped;
}

/// Sorts findings as every report does (see [`sort`]).
pub(crate) fn sort_findings(files: &[SourceFile], diagnostics: &mut [Diagnostic]) {
    sort(files, diagnostics);
}

/// By file, position, rule and message: the same input always gives the same order.
fn sort(files: &[SourceFile], diagnostics: &mut [Diagnostic]) {
    diagnostics.sort_by(|a, b| order(files, a, b));
}

fn order(files: &[SourceFile], a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    let (pa, pb) = (a.primary(), b.primary());
    (files[pa.file].path.as_str(), pa.span.start, a.rule)
        .cmp(&(files[pb.file].path.as_str(), pb.span.start, b.rule))
        .then_with(|| a.cmp_headline(b))
}
impl Report {
    /// One report of several checked apart (paths with different config files): files and
    /// clusters one after the other, the diagnostics sorted as one.
    pub fn merge(mut reports: Vec<Report>) -> Report {
        // One report is moved, not copied: a copy held a tree's files and clusters twice at
        // the end of a run, its peak of memory. Its findings are sorted all the same: grouping
        // them across nodes rewrote their headlines after they were sorted.
        let mut merged = match reports.pop() {
            Some(report) if reports.is_empty() => report,
            last => {
                reports.extend(last);
                Report::concatenate(reports)
            }
        };
        merged.sort_findings();
        merged
    }

    /// The reports' files and clusters one after the other, their findings not yet sorted.
    fn concatenate(reports: Vec<Report>) -> Report {
        // Drawn findings stay with their diagnostics, when every report has them.
        let style = reports
            .iter()
            .map(|report| report.drawn.as_ref().map(|(style, _)| *style))
            .reduce(|a, b| a.filter(|_| a == b))
            .flatten();
        let mut drawn: Vec<String> = Vec::new();
        let (mut only_parts, mut some_only) = (Vec::new(), false);
        // Sized once: grown by doubling, the lists of a tree's reports held up to twice what
        // they needed, and a copy of each while they grew.
        let total = |count: fn(&Report) -> usize| reports.iter().map(count).sum::<usize>();
        let mut merged = Report {
            files: Vec::with_capacity(total(|report| report.files.len())),
            clusters: Vec::with_capacity(total(|report| report.clusters.len())),
            diagnostics: Vec::with_capacity(total(|report| report.diagnostics.len())),
            skipped: Vec::new(),
            notes: Vec::new(),
            not_checked: Vec::new(),
            suppressed: suppress::Suppressed::default(),
            only: None,
            drawn: None,
            unbound_topics: Vec::new(),
        };
        for mut report in reports {
            if let Some((_, texts)) = report.drawn.take() {
                drawn.extend(texts);
            }
            let offset = merged.files.len();
            merged.files.extend(report.files);
            merged
                .clusters
                .extend(report.clusters.into_iter().map(|mut cluster| {
                    cluster.shift_files(offset);
                    cluster
                }));
            merged
                .diagnostics
                .extend(report.diagnostics.into_iter().map(|mut diagnostic| {
                    diagnostic
                        .labels
                        .iter_mut()
                        .for_each(|label| label.file += offset);
                    let edits = diagnostic.fix.iter_mut().flat_map(|fix| &mut fix.edits);
                    edits.for_each(|edit| edit.file += offset);
                    diagnostic
                }));
            // A report of every file (`only: None`) merged with one of some: all of its files.
            some_only |= report.only.is_some();
            only_parts.extend(match report.only {
                Some(only) => only.into_iter().map(|file| file + offset).collect(),
                None => (offset..merged.files.len()).collect::<Vec<_>>(),
            });
            merged
                .unbound_topics
                .extend(report.unbound_topics.into_iter().map(|mut topic| {
                    topic.file += offset;
                    topic
                }));
            merged.skipped.extend(report.skipped);
            merged.not_checked.extend(report.not_checked);
            merged.notes.extend(report.notes);
            merged.suppressed.count += report.suppressed.count;
            let edits = report.suppressed.edits.into_iter();
            merged.suppressed.edits.extend(edits.map(|mut edit| {
                edit.file += offset;
                edit
            }));
        }
        merged.only = some_only.then_some(only_parts);
        merged.drawn = style.map(|style| (style, drawn));
        merged
    }

    /// Sorts the findings (see [`sort`]), each drawing kept with its finding.
    fn sort_findings(&mut self) {
        match self.drawn.take() {
            Some((style, drawn)) => {
                let mut pairs: Vec<(Diagnostic, String)> = std::mem::take(&mut self.diagnostics)
                    .into_iter()
                    .zip(drawn)
                    .collect();
                pairs.sort_by(|a, b| order(&self.files, &a.0, &b.0));
                let (diagnostics, drawn) = pairs.into_iter().unzip();
                self.diagnostics = diagnostics;
                self.drawn = Some((style, drawn));
            }
            None => sort(&self.files, &mut self.diagnostics),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::drop_repeats;
    use crate::diagnostic::{Diagnostic, Label, NodeKind, NodeRef, Severity};

    fn finding(message: &str, id: &str) -> Diagnostic {
        let node = NodeRef {
            kind: Some(NodeKind::Node),
            id: Some(id.into()),
            file: format!("docker-compose.yml, service `kafka-{id}`"),
        };
        Diagnostic::new("some-rule", Severity::Warning, message)
            .with_label(Label {
                file: 0,
                span: 7..9,
                message: String::new(),
            })
            .about(node)
    }

    #[test]
    fn one_finding_about_several_nodes_of_one_place_is_kept_once() {
        // Two services merging one anchor: the same finding about each of them.
        let mut about_nodes = vec![
            finding("log.retention.hours=1 is short", "1"),
            finding("log.retention.hours=1 is short", "2"),
        ];
        drop_repeats(&mut about_nodes);
        assert_eq!(about_nodes.len(), 1);
        // Findings that differ in their message are kept, however alike they end.
        let mut different = vec![
            finding("a differs (node 1 has `x`): clients see it", "1"),
            finding("b differs (node 1 has `y`): clients see it", "1"),
        ];
        drop_repeats(&mut different);
        assert_eq!(different.len(), 2);
    }

    #[test]
    fn repeats_are_dropped_wherever_their_subjects_sort() {
        // Sorted by headline, another finding of the rule at the place sits between the two
        // repeats (subjects 1 and 3): the second is dropped all the same.
        let mut sorted = vec![
            finding("x is short", "1"),
            finding("x is too long", "2"),
            finding("x is short", "3"),
        ];
        drop_repeats(&mut sorted);
        let kept: Vec<(&str, Option<&str>)> = sorted
            .iter()
            .map(|d| {
                (
                    d.message.as_str(),
                    d.subject.node.as_ref().and_then(|n| n.id.as_deref()),
                )
            })
            .collect();
        assert_eq!(
            kept,
            [("x is short", Some("1")), ("x is too long", Some("2"))]
        );
    }
}
