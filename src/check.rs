//! The checks a caller runs: paths, paths within their clusters, an editor's buffer, files in
//! memory. Each finds the config files, discovers the clusters, and makes the report.

use std::path::PathBuf;
use std::sync::Arc;

use crate::cluster::{self, DiscoveryError};
use crate::config::{self, Config, ConfigError};
use crate::report::{self, Options, Report, Retain};
use crate::{output, rules};

/// Why a check could not run: a file that cannot be read as a node file, or a bad config file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A snapshot that cannot be read, a `--stopping` broker that is not live.
    #[error("{0}")]
    Live(String),
}

/// `kafkalint live`: judges what a running cluster answered (`document`, a snapshot's text)
/// beside the files under `paths`, read as `check` reads them; alone without paths.
pub fn check_live(
    document: crate::source::SourceFile,
    paths: &[PathBuf],
    options: &Options,
    live: &crate::live::judge::LiveOptions,
) -> Result<crate::live::judge::LiveReport, Error> {
    let files = if paths.is_empty() {
        Report::merge(Vec::new())
    } else {
        let options = Options {
            retain: Retain::All,
            ..options.clone()
        };
        check(paths, &options)?
    };
    crate::live::judge::judge(files, document, live, &options.selection).map_err(Error::Live)
}

/// Reads the files under `paths`, groups them into clusters and runs every rule. Each path is
/// checked with its config file (see [`config_groups`]); the reports are merged into one.
///
/// A file named without the rest of its numbered set (`server-0.properties`, beside
/// `server-1.properties` and `server-2.properties`) is checked within its cluster, as
/// `--with-cluster` checks it: alone it would be a cluster of one broker, where a replication
/// factor of 1 is no fault. A node file named alone, of no such set, is checked as a cluster of
/// one, which a note says (unless `--brokers` gives the count).
pub fn check(paths: &[PathBuf], options: &Options) -> Result<Report, Error> {
    with_chart_templates(paths, options, check_named)
}

fn check_named(paths: &[PathBuf], options: &Options) -> Result<Report, Error> {
    // With `--brokers`, a file named alone stands for the whole cluster: the user said so.
    let left_out = match options.brokers {
        Some(_) => vec![Vec::new(); paths.len()],
        None => numbered_siblings_left_out(paths),
    };
    let (mut in_sets, mut rest) = (Vec::new(), Vec::new());
    for (path, left_out) in paths.iter().zip(&left_out) {
        if left_out.is_empty() {
            rest.push(path.clone());
        } else {
            in_sets.push((path.clone(), left_out));
        }
    }
    let mut reports = Vec::new();
    if !in_sets.is_empty() {
        let named: Vec<PathBuf> = in_sets.iter().map(|(path, _)| path.clone()).collect();
        let mut report = check_with_cluster(&named, options)?;
        let checked: std::collections::HashSet<PathBuf> = report
            .only
            .iter()
            .flatten()
            .map(|file| config::absolute(report.files[*file].path.as_ref()))
            .collect();
        for (path, siblings) in in_sets {
            // A named file that is no node file (`--with-cluster` passes over it) is checked
            // as any named file is: refused, or read as what it is.
            if !checked.contains(&config::absolute(&path)) {
                rest.push(path);
                continue;
            }
            report.notes.push(format!(
                "{}: checked with the rest of its numbered set ({}); findings about them are \
                 not shown: check the folder to see them",
                path.display(),
                siblings.join(", ")
            ));
        }
        reports.push(report);
    }
    if !rest.is_empty() {
        let mut report = check_paths(&rest, options)?;
        if options.brokers.is_none() {
            note_named_alone(&mut report, &rest);
        }
        reports.push(report);
    }
    Ok(Report::merge(reports))
}

/// For each of `named`, the other files of its numbered set that `named` leaves out: the files
/// of its folder whose names differ from its own only in their numbers (`server-1.properties`
/// and `server-2.properties` for `server-0.properties`), by name, sorted. A file named, or in a
/// folder named, is not left out. Empty for a folder, a file of no set, or a set named whole.
/// Each folder is listed once, each set gathered once: a run may name thousands of files.
fn numbered_siblings_left_out(named: &[PathBuf]) -> Vec<Vec<String>> {
    use std::collections::{HashMap, HashSet};
    /// The name with each run of digits as `#`, for a name with digits.
    fn pattern(name: &str) -> Option<String> {
        name.bytes().any(|b| b.is_ascii_digit()).then(|| {
            let mut pattern = String::new();
            for c in name.chars() {
                if !c.is_ascii_digit() {
                    pattern.push(c);
                } else if !pattern.ends_with('#') {
                    pattern.push('#');
                }
            }
            pattern
        })
    }
    let absolute: Vec<PathBuf> = named.iter().map(|path| config::absolute(path)).collect();
    let named_files: HashSet<&PathBuf> = absolute.iter().collect();
    let named_folders: Vec<&PathBuf> = absolute.iter().filter(|path| path.is_dir()).collect();
    let covered = |file: &std::path::Path| {
        named_files.contains(&file.to_path_buf())
            || named_folders
                .iter()
                .any(|folder| file != folder.as_path() && file.starts_with(folder))
    };
    // Per folder and pattern, the files of the set that nothing named covers.
    let mut sets: HashMap<(PathBuf, String), Vec<String>> = HashMap::new();
    let mut listed: HashSet<PathBuf> = HashSet::new();
    named
        .iter()
        .zip(&absolute)
        .map(|(path, absolute)| {
            let (Some(folder), Some(name)) = (
                absolute.parent(),
                absolute.file_name().and_then(|name| name.to_str()),
            ) else {
                return Vec::new();
            };
            let Some(own) = pattern(name) else {
                return Vec::new();
            };
            if !path.is_file()
                || named_folders
                    .iter()
                    .any(|named| absolute.starts_with(named) && absolute != *named)
            {
                return Vec::new();
            }
            if listed.insert(folder.to_path_buf()) {
                for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
                    let is_file = entry.file_type().is_ok_and(|kind| kind.is_file());
                    let Some(other) = entry.file_name().to_str().map(str::to_string) else {
                        continue;
                    };
                    if let Some(other_pattern) = pattern(&other).filter(|_| is_file)
                        && !covered(&folder.join(&other))
                    {
                        sets.entry((folder.to_path_buf(), other_pattern))
                            .or_default()
                            .push(other);
                    }
                }
            }
            let mut left_out = sets
                .get(&(folder.to_path_buf(), own))
                .cloned()
                .unwrap_or_default();
            left_out.sort();
            left_out
        })
        .collect()
}

/// A note for each node file named on its own that makes a cluster of one (no `--brokers`,
/// no `[[clusters]]` count): what holds for one broker may not for the real cluster.
fn note_named_alone(report: &mut Report, named: &[PathBuf]) {
    let folders: Vec<PathBuf> = named
        .iter()
        .filter(|path| path.is_dir())
        .map(|path| config::absolute(path))
        .collect();
    // A file named beside a folder that holds it is read with the folder's files too.
    let named: Vec<PathBuf> = named
        .iter()
        .filter(|path| path.is_file())
        .map(|path| config::absolute(path))
        .filter(|path| !folders.iter().any(|folder| path.starts_with(folder)))
        .collect();
    for cluster in &report.clusters {
        let [node] = cluster.nodes.as_slice() else {
            continue;
        };
        let path = &report.files[node.file].path;
        if cluster.declared_brokers.is_none() && named.contains(&config::absolute(path.as_ref())) {
            let note = format!(
                "{path}: checked alone, as a cluster of one node (findings that depend on the \
                 broker count assume 1): where the cluster has more, pass --brokers N or the \
                 other nodes' files"
            );
            // A file of two clusters of one node each (a compose file's side by side) says it once.
            if !report.notes.contains(&note) {
                report.notes.push(note);
            }
        }
    }
}

fn check_paths(paths: &[PathBuf], options: &Options) -> Result<Report, Error> {
    let mut reports = Vec::new();
    for (config, paths) in config_groups(paths, options)? {
        let declared = declared_clusters(config.as_ref(), options)?;
        let stated = stated(config.as_ref(), options);
        let config = config.map(Arc::new);
        // Each finished folder's cluster is checked on the pool while the walk goes on (a
        // walk that waited for each batch left a core idle the while); the reports are put
        // back in the order the folders were finished in.
        let checked = std::sync::Mutex::new(Vec::new());
        let in_check = InCheck::default();
        let found = rayon::in_place_scope(|scope| {
            let mut handed_on = 0;
            let mut finished = |batch: Vec<cluster::Discovered>| {
                for mut part in batch {
                    let (order, config, checked) = (handed_on, config.clone(), &checked);
                    handed_on += 1;
                    let leave = in_check.enter(part.files.len());
                    scope.spawn(move |_| {
                        let _leave = leave;
                        attach(&mut part, config);
                        let mut report = report::run(part, options, None);
                        keep_for_output(&mut report, options.retain);
                        lock(checked).push((order, report));
                    });
                }
            };
            cluster::discover_declared_in_batches(
                &paths,
                options.brokers,
                &declared,
                &stated,
                (options.retain != Retain::All).then_some(&mut finished as &mut dyn FnMut(_)),
            )
        });
        let mut found = found?;
        let mut parts = checked
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        parts.sort_by_key(|(order, _)| *order);
        let mut parts: Vec<Report> = parts.into_iter().map(|(_, report)| report).collect();
        attach(&mut found, config);
        let mut report = report::run(found, options, None);
        keep_for_output(&mut report, options.retain);
        parts.push(report);
        let mut merged = Report::merge(parts);
        // As one discovery would have listed them.
        merged.clusters.sort_by(|a, b| a.name.cmp(&b.name));
        reports.push(merged);
    }
    Ok(Report::merge(reports))
}

/// `check --with-cluster`: each of `changed` checked within its whole cluster (see
/// [`cluster::discover_changed`]); only findings that label a changed file are reported.
pub fn check_with_cluster(changed: &[PathBuf], options: &Options) -> Result<Report, Error> {
    with_chart_templates(changed, options, check_changed)
}

fn check_changed(changed: &[PathBuf], options: &Options) -> Result<Report, Error> {
    let mut reports = Vec::new();
    for (config, changed) in config_groups(changed, options)? {
        let declared = declared_clusters(config.as_ref(), options)?;
        let (mut found, only) = cluster::discover_changed(
            &changed,
            options.brokers,
            &declared,
            &stated(config.as_ref(), options),
        )?;
        attach(&mut found, config.map(Arc::new));
        reports.push(report::run(found, options, Some(&only)));
    }
    Ok(Report::merge(reports))
}

// ---- Templates of a Helm chart named alone ----

/// Checks `paths` with `rest`, except the files under a Helm chart's `templates/` (pre-commit
/// and editors name single files): each of those is checked as part of its chart, rendered as
/// a walk renders it (see [`crate::sources::helm::render`]), and only the findings located in
/// the named templates are reported. Without helm, the walk's note and "not checked" count.
fn with_chart_templates(
    paths: &[PathBuf],
    options: &Options,
    rest: fn(&[PathBuf], &Options) -> Result<Report, Error>,
) -> Result<Report, Error> {
    use crate::sources::helm::render;
    let mut charts: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    let mut others = Vec::new();
    for path in paths {
        // The name first: it costs nothing, and the chart is looked for up the folders.
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let template = (crate::sources::is_yaml_name(&name) && path.is_file())
            .then(|| render::chart_of_template(path))
            .flatten();
        match template {
            Some(chart) => match charts.iter_mut().find(|(known, _)| *known == chart) {
                Some((_, named)) => named.push(path.clone()),
                None => charts.push((chart, vec![path.clone()])),
            },
            None => others.push(path.clone()),
        }
    }
    if charts.is_empty() {
        return rest(paths, options);
    }
    let mut reports = Vec::new();
    for (chart, named) in charts {
        reports.push(check_chart_template(&chart, &named, options)?);
    }
    if !others.is_empty() {
        reports.push(rest(&others, options)?);
    }
    Ok(Report::merge(reports))
}

/// The chart's folder read as a walk reads it (its templates rendered), the findings kept
/// those located in `named`.
fn check_chart_template(
    chart: &std::path::Path,
    named: &[PathBuf],
    options: &Options,
) -> Result<Report, Error> {
    let folder = if chart.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        chart.to_path_buf()
    };
    let named: std::collections::HashSet<PathBuf> =
        named.iter().map(|path| config::absolute(path)).collect();
    let mut reports = Vec::new();
    for (config, folders) in config_groups(std::slice::from_ref(&folder), options)? {
        let declared = declared_clusters(config.as_ref(), options)?;
        let found = cluster::discover_declared_in_batches(
            &folders,
            options.brokers,
            &declared,
            &stated(config.as_ref(), options),
            None,
        );
        let mut found = match found {
            Ok(found) => found,
            // A chart with nothing of Kafka in it: nothing to report on its templates.
            Err(DiscoveryError::NotAConfig { .. }) => cluster::Discovered::default(),
            Err(error) => return Err(error.into()),
        };
        attach(&mut found, config.map(Arc::new));
        let only: Vec<usize> = (0..found.files.len())
            .filter(|index| {
                named.contains(&config::absolute(std::path::Path::new(
                    &found.files[*index].path,
                )))
            })
            .collect();
        let mut report = report::run(found, options, Some(&only));
        keep_for_output(&mut report, options.retain);
        reports.push(report);
    }
    Ok(Report::merge(reports))
}

/// An editor's buffer of a template under a Helm chart's `templates/`: the chart rendered
/// with the buffer's text in place of its file (from a copy of the chart), once per
/// environment, and only the findings located in the buffer reported. `None` for any other
/// buffer.
fn check_chart_buffer(
    buffer: &cluster::Buffer,
    config: Option<&Config>,
    options: &Options,
) -> Option<Report> {
    use crate::sources::helm::render;
    let name = buffer.path.file_name()?.to_string_lossy().into_owned();
    if !crate::sources::is_yaml_name(&name) {
        return None;
    }
    let chart = render::chart_of_template(buffer.path)?;
    let shown = config::absolute(buffer.path);
    let config = config.cloned().map(Arc::new);
    let Some(helm) = render::helm() else {
        let mut found = cluster::Discovered::default();
        found
            .skipped
            .push(render::not_rendered_without_helm(&chart));
        return Some(report::run(found, options, Some(&[])));
    };
    let folder = if chart.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        chart.clone()
    };
    let environments = render::environments(&folder);
    let mut reports = Vec::new();
    let mut skipped = Vec::new();
    let mut rendered = false;
    let outcomes = render::render_chart(
        &helm,
        &chart,
        &folder,
        &environments,
        Some((buffer.path, buffer.bytes)),
    );
    for (_, outcome) in outcomes {
        match outcome {
            Ok(files) => {
                rendered = true;
                let mut found = cluster::discover_in_memory(files, options.brokers);
                attach(&mut found, config.clone());
                let only: Vec<usize> = (0..found.files.len())
                    .filter(|index| {
                        config::absolute(std::path::Path::new(&found.files[*index].path)) == shown
                    })
                    .collect();
                reports.push(report::run(found, options, Some(&only)));
            }
            Err(reason) => skipped.push(reason),
        }
    }
    let mut report = Report::merge(reports);
    report
        .not_checked
        .extend(crate::sources::not_checked::of_notes(&skipped));
    report.skipped.extend(skipped);
    if rendered {
        report.notes.push(render::rendered(&chart));
    }
    Some(report)
}

/// Paths checked with one config file (or none).
pub type ConfigGroup = (Option<Config>, Vec<PathBuf>);

/// The paths grouped by the config file that applies to them, in the order they were named:
/// `--config` for all of them, else each path's nearest `kafkalint.toml` (or none).
pub fn config_groups(paths: &[PathBuf], options: &Options) -> Result<Vec<ConfigGroup>, Error> {
    if let Some(path) = &options.config {
        return Ok(vec![(
            Some(Config::load(path, rules::NAMES)?),
            paths.to_vec(),
        )]);
    }
    let mut groups: Vec<(Option<PathBuf>, Vec<PathBuf>)> = Vec::new();
    for path in paths {
        let found = config::find(path);
        let key = found.as_deref().map(config::absolute);
        match groups
            .iter_mut()
            .find(|(other, _)| other.as_deref().map(config::absolute) == key)
        {
            Some((_, members)) => members.push(path.clone()),
            None => groups.push((found, vec![path.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(found, paths)| {
            Ok((
                found.map(|p| Config::load(&p, rules::NAMES)).transpose()?,
                paths,
            ))
        })
        .collect()
}

/// The clusters `config` declares, with their files.
fn declared_clusters(
    config: Option<&Config>,
    options: &Options,
) -> Result<Vec<cluster::Declared>, Error> {
    let Some(config) = config.filter(|config| !config.clusters.is_empty()) else {
        return Ok(Vec::new());
    };
    let walked = cluster::node_files_under(&config.dir, &excludes(Some(config), options))?;
    let files = config.cluster_files(&walked)?;
    let topics = config.topic_files();
    Ok(config
        .clusters
        .iter()
        .zip(files)
        .zip(topics)
        .map(|((declared, files), topics)| cluster::Declared {
            name: declared.name.clone(),
            files,
            brokers: declared.brokers,
            topics,
        })
        .collect())
}

/// Checks an editor's unsaved buffer (`--stdin-filename PATH -`): `buffer.bytes` stand in for
/// `buffer.path` within its folder's cluster (see [`cluster::discover_buffer`]). The other
/// files are context: only findings that label the buffer are reported, those located in it
/// and the consistency findings located in a sibling that also point at it (a fix may be to
/// change the buffer). The summary counts every file read. The buffer's config file chooses
/// the rules, severities and release; its `[[clusters]]` are not consulted.
pub fn check_buffer(buffer: cluster::Buffer, options: &Options) -> Result<Report, Error> {
    check_buffer_among(buffer, &[], options)
}

/// [`check_buffer`], with the unsaved text of other open buffers (an editor's documents) in
/// place of their files on disk where they are the buffer's siblings in its folder's cluster
/// (`kafkalint server`).
pub fn check_buffer_among(
    buffer: cluster::Buffer,
    open: &[cluster::Buffer],
    options: &Options,
) -> Result<Report, Error> {
    let config = match &options.config {
        Some(path) => Some(Config::load(path, rules::NAMES)?),
        None => config::find(buffer.path)
            .map(|path| Config::load(&path, rules::NAMES))
            .transpose()?,
    };
    if let Some(report) = check_chart_buffer(&buffer, config.as_ref(), options) {
        return Ok(report);
    }
    let (mut found, index) = cluster::discover_buffer_among(
        buffer,
        open,
        options.brokers,
        &stated(config.as_ref(), options),
    )?;
    attach(&mut found, config.map(Arc::new));
    Ok(report::run(found, options, Some(&[index])))
}

/// Checks files held in memory, `(path, bytes)`, as a walk that met them at those paths would
/// (see [`cluster::discover_in_memory`]), every cluster with `config`. Nothing is read from
/// disk: for fuzzing and property tests.
pub fn check_in_memory(
    files: Vec<(String, Vec<u8>)>,
    config: Option<Config>,
    options: &Options,
) -> Report {
    let mut found = cluster::discover_in_memory(files, options.brokers);
    attach(&mut found, config.map(Arc::new));
    report::run(found, options, None)
}

/// What walks pass over: the config's `exclude` and `extend-exclude`, and `--exclude`.
fn excludes(config: Option<&Config>, options: &Options) -> crate::source::excludes::Excludes {
    let mut excludes = config
        .map(|config| config.excludes.clone())
        .unwrap_or_default();
    excludes.extend.extend(options.exclude.iter().cloned());
    excludes
}

/// What `config` states of the files its clusters are read from.
fn stated(config: Option<&Config>, options: &Options) -> crate::sources::Stated {
    crate::sources::Stated {
        excludes: excludes(config, options),
        bitnami_kafka_chart: config.and_then(|config| config.bitnami_kafka_chart.clone()),
        images: config
            .map(|config| config.images.clone())
            .unwrap_or_default(),
    }
}

/// Every cluster found is checked with `config`.
/// The files of handed-on clusters being checked. The walk reads on while the pool checks,
/// but no further ahead than [`MAX_FILES_IN_CHECK`]: on one core the walk outran the checks
/// and held most of a tree (99 MB on 10,000 files).
#[derive(Default)]
struct InCheck {
    files: std::sync::Mutex<usize>,
    room: std::sync::Condvar,
}

/// A read batch's worth.
const MAX_FILES_IN_CHECK: usize = 256;

impl InCheck {
    /// Counts `files` in, once there is room for them (at once when nothing is in check).
    fn enter(&self, files: usize) -> LeaveCheck<'_> {
        let mut count = lock(&self.files);
        // A thread of the pool does not wait: it could be the one the checks need.
        if rayon::current_thread_index().is_none() {
            while *count > 0 && *count + files > MAX_FILES_IN_CHECK {
                count = self
                    .room
                    .wait(count)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        }
        *count += files;
        LeaveCheck {
            in_check: self,
            files,
        }
    }
}

/// Counts a cluster's files out when its check ends, or unwinds.
struct LeaveCheck<'a> {
    in_check: &'a InCheck,
    files: usize,
}

impl Drop for LeaveCheck<'_> {
    fn drop(&mut self) {
        *lock(&self.in_check.files) -= self.files;
        self.in_check.room.notify_one();
    }
}

/// The list behind `mutex`, also after a thread panicked while holding it (its panic is
/// passed on by the scope that ran it).
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn attach(found: &mut cluster::Discovered, config: Option<Arc<Config>>) {
    for cluster in &mut found.clusters {
        cluster.config = config.clone();
    }
}

/// See [`Retain`]: files no finding points into keep only their path, the others what
/// output shows of them.
fn keep_for_output(report: &mut Report, retain: Retain) {
    if retain != Retain::All {
        // Only `--fix` reads them, and it keeps everything.
        report.suppressed.edits = Vec::new();
    }
    match retain {
        Retain::All => return,
        Retain::Drawn(style) => report.drawn = Some((style, output::draw_each(report, style))),
        Retain::Positions => {}
    }
    // Per file, the offsets output asks the line and column of (see `output`): where a
    // label or an edit starts and ends, and the last byte it covers.
    let mut shown: Vec<Option<Vec<usize>>> = vec![None; report.files.len()];
    if retain == Retain::Positions {
        for diagnostic in &report.diagnostics {
            let edits = diagnostic.fix.iter().flat_map(|fix| &fix.edits);
            let labels = diagnostic
                .labels
                .iter()
                .map(|label| (label.file, &label.span));
            for (file, span) in labels.chain(edits.map(|edit| (edit.file, &edit.span))) {
                let end = span.end.max(span.start);
                let offsets = shown[file].get_or_insert_with(Vec::new);
                offsets.extend([span.start, end, span.end.max(1) - 1]);
            }
        }
    }
    for (file, shown) in report.files.iter_mut().zip(shown) {
        match shown {
            Some(offsets) => file.keep_positions_only(offsets),
            None => file.keep_path_only(),
        }
    }
}
