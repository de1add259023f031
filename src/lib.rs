//! kafkalint: a static linter for Apache Kafka broker configuration.
//!
//! The pipeline is plain data flowing one way: bytes → [`properties`] → [`cluster`] →
//! [`rules`] → [`diagnostic`] → [`output`].

pub mod catalog;
pub mod cluster;
pub mod coordinator;
pub mod diagnostic;
pub mod fix;
pub mod output;
pub mod properties;
pub mod rules;
pub mod secrets;
pub mod source;
pub mod suppress;

use std::path::PathBuf;

use cluster::{Cluster, DiscoveryError};
use diagnostic::{Diagnostic, Severity};
use source::SourceFile;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The real broker count when the files are fewer (`--brokers N`).
    pub brokers: Option<usize>,
    /// The Kafka release to check against (`--kafka-version`); without it, what the files
    /// show, else the newest release kafkalint knows.
    pub kafka_version: Option<catalog::KafkaVersion>,
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
    /// Diagnostics that `# kafkalint: ignore[...]` comments suppressed (not in `diagnostics`).
    pub suppressed: usize,
}

impl Report {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// Whether the run should fail: anything at warning or above.
    pub fn has_findings(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity >= Severity::Warning)
    }
}

/// Reads the files under `paths`, groups them into clusters and runs every rule.
pub fn check(paths: &[PathBuf], options: &Options) -> Result<Report, DiscoveryError> {
    let found = cluster::discover(paths, options.brokers)?;
    Ok(run(found, options, None))
}

/// Checks an editor's unsaved buffer (`--stdin-filename PATH -`): `buffer.bytes` stand in for
/// `buffer.path` within its folder's cluster (see [`cluster::discover_buffer`]). The other
/// files are context: only findings that label the buffer are reported, those located in it
/// and the consistency findings located in a sibling that also point at it (a fix may be to
/// change the buffer). The summary counts every file read.
pub fn check_buffer(buffer: cluster::Buffer, options: &Options) -> Result<Report, DiscoveryError> {
    let (found, index) = cluster::discover_buffer(buffer, options.brokers)?;
    Ok(run(found, options, Some(index)))
}

/// Runs every rule on what was found; with `only`, keeps the findings that label that file.
pub(crate) fn run(
    mut found: cluster::Discovered,
    options: &Options,
    only: Option<usize>,
) -> Report {
    for cluster in &mut found.clusters {
        cluster.target = cluster::version::choose(cluster, &found.files, options.kafka_version);
    }
    let context = rules::Context {
        files: &found.files,
    };
    let concerns_only = |diagnostic: &Diagnostic| {
        only.is_none_or(|file| diagnostic.labels.iter().any(|label| label.file == file))
    };
    // Filtered before suppressing too, so that `suppressed` counts only what was reported on;
    // suppressions in the buffer apply to findings located in it, which are all kept.
    let diagnostics: Vec<Diagnostic> = found
        .clusters
        .iter()
        .flat_map(|cluster| rules::check(cluster, &context))
        .filter(concerns_only)
        .collect();
    let (diagnostics, suppressed) = suppress::apply(&found.files, diagnostics);
    let mut diagnostics: Vec<Diagnostic> = diagnostics.into_iter().filter(concerns_only).collect();
    diagnostics.sort_by(|a, b| {
        let (pa, pb) = (a.primary(), b.primary());
        (
            found.files[pa.file].path.as_str(),
            pa.span.start,
            a.rule,
            &a.message,
        )
            .cmp(&(
                found.files[pb.file].path.as_str(),
                pb.span.start,
                b.rule,
                &b.message,
            ))
    });
    Report {
        files: found.files,
        clusters: found.clusters,
        diagnostics,
        skipped: found.skipped,
        suppressed,
    }
}
