//! What a rule is, and what it sees besides its cluster. Apart from the registry (`mod.rs`),
//! which lists every rule: each rule file uses these, the registry uses each rule file.

use crate::catalog::KafkaVersion;
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};
use crate::source::SourceFile;

/// What every rule sees besides the cluster.
pub struct Context<'a> {
    /// Every file read. Rule files never index it: they ask the model through the methods of
    /// `support.rs`, which answer for a node (`tests/registry.rs` checks it).
    pub(super) files: &'a [SourceFile],
    /// `strict = true` in `kafkalint.toml`: rules that only strict mode runs run.
    pub strict: bool,
    /// What is known of the folders of every file read (not only this cluster's).
    pub folders: &'a Folders,
    /// What Kafka reads of each node (roles, listeners): worked out once per cluster.
    pub facts: &'a crate::cluster::facts::Facts<'a>,
    /// Which nodes of the cluster share a machine, and why: worked out once per cluster.
    pub hosts: &'a crate::cluster::host::Hosts,
}

impl<'a> Context<'a> {
    pub fn new(
        files: &'a [SourceFile],
        strict: bool,
        folders: &'a Folders,
        facts: &'a crate::cluster::facts::Facts<'a>,
        hosts: &'a crate::cluster::host::Hosts,
    ) -> Context<'a> {
        Context {
            files,
            strict,
            folders,
            facts,
            hosts,
        }
    }
}

/// The folders of every file read, found once per run: rules run once per cluster, and a scan
/// of every file for each node would make a tree of many clusters quadratic.
#[derive(Debug, Default)]
pub struct Folders {
    /// Per file: the index of its folder in `members`.
    folder_of: Vec<usize>,
    /// Per folder: its files, in file order.
    members: Vec<Vec<usize>>,
    /// Per folder: whether a node file of it sets `zookeeper.metadata.migration.enable=true`.
    migrating: Vec<bool>,
}

impl Folders {
    pub fn new(files: &[SourceFile]) -> Folders {
        use std::collections::HashMap;
        use std::path::Path;
        let mut index_of: HashMap<Option<&Path>, usize> = HashMap::new();
        let mut folders = Folders::default();
        for (index, file) in files.iter().enumerate() {
            let folder = *index_of
                .entry(Path::new(&file.path).parent())
                .or_insert_with(|| {
                    folders.members.push(Vec::new());
                    folders.migrating.push(false);
                    folders.members.len() - 1
                });
            folders.folder_of.push(folder);
            folders.members[folder].push(index);
            folders.migrating[folder] |= file.parse_error.is_none()
                && file.parts().any(|part| {
                    crate::cluster::topology::migrating(
                        files,
                        &crate::cluster::Node::new(index, part, file),
                    )
                });
        }
        folders
    }

    /// The files of `file`'s folder (`file` included), in file order.
    pub fn beside(&self, file: usize) -> &[usize] {
        self.folder_of
            .get(file)
            .map_or(&[], |folder| &self.members[*folder])
    }

    /// Whether a node file of `file`'s folder sets `zookeeper.metadata.migration.enable=true`.
    pub fn migration_in_folder(&self, file: usize) -> bool {
        self.folder_of
            .get(file)
            .is_some_and(|folder| self.migrating[*folder])
    }
}

pub struct Rule {
    /// Stable kebab-case name, also the doc's file name `rules/<name>.md`.
    pub name: &'static str,
    /// The most severe level the rule reports at.
    pub severity: Severity,
    /// What kind of trouble it reports.
    pub group: Group,
    /// Whether its findings carry a fix, and how safe that fix is.
    pub fix: FixAvailability,
    /// The Kafka releases its behaviour is verified for.
    pub verified: Verified,
    /// One line for listings.
    pub summary: &'static str,
    pub check: Check,
}

/// What a rule judges: the files of a cluster (`kafkalint check`), or what a running cluster
/// answered (`kafkalint live`), beside its files when they are given.
#[derive(Clone, Copy)]
pub enum Check {
    Files(fn(&Cluster, &Context) -> Vec<Diagnostic>),
    Live(fn(&LiveContext) -> Vec<Diagnostic>),
    /// The topics declared as code for a cluster, or bound to none.
    Topics(fn(&TopicContext) -> Vec<Diagnostic>),
}

/// What a topic rule sees: the declared topics of one cluster, with that cluster, or topics
/// bound to no cluster.
pub struct TopicContext<'a> {
    pub topics: &'a [crate::cluster::topics::DeclaredTopic],
    /// The cluster they land on, with what its rules see; `None` for topics bound to none:
    /// then what depends on the cluster (its brokers, defaults, release) is not judged.
    pub cluster: Option<(&'a Cluster, &'a Context<'a>)>,
    pub(super) files: &'a [SourceFile],
}

/// What a live rule sees: the cluster's answers, and its files when they are given.
pub struct LiveContext<'a> {
    /// What the cluster answered.
    pub snapshot: &'a crate::live::snapshot::Snapshot,
    /// The index of the snapshot's document among the files: findings point at its lines.
    pub document: usize,
    /// The files given beside the cluster (`kafkalint live --bootstrap-server X PATH`), with
    /// the cluster they describe; `None` without files.
    pub intent: Option<Intent<'a>>,
    /// `--group ID`: groups to say what would stop them, findings or not.
    pub groups: &'a [String],
    /// `--transactional-id ID`: transactional ids to say what would stop them.
    pub transactional_ids: &'a [String],
    /// `--stopping ID`: the broker about to stop.
    pub stopping: Option<i32>,
}

/// The files of the running cluster, as `kafkalint check` reads them.
pub struct Intent<'a> {
    pub cluster: &'a Cluster,
    pub context: Context<'a>,
}

/// What kind of trouble a rule reports, as oxc's categories and clippy's groups sort lints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// Kafka refuses to start with the configuration (it exits while reading it).
    StartupRefusal,
    /// The cluster runs, but loses availability or acknowledged data when a node fails, or
    /// cannot serve some clients at all.
    Availability,
    /// Nodes of one cluster that contradict each other (an id, an address, a directory, a
    /// value that must be the same or unique).
    Consistency,
    /// Credentials or traffic exposed to whoever can read the file or reach the port.
    Exposure,
    /// Lines that do nothing or not what they say: unknown, removed, repeated or ignored keys.
    Hygiene,
    /// Runs only with `strict = true` in `kafkalint.toml`.
    Strict,
}

impl Group {
    pub const fn as_str(self) -> &'static str {
        match self {
            Group::StartupRefusal => "startup-refusal",
            Group::Availability => "availability",
            Group::Consistency => "consistency",
            Group::Exposure => "exposure",
            Group::Hygiene => "hygiene",
            Group::Strict => "strict",
        }
    }
}

/// Whether a rule's findings carry a fix (`--fix`) and how far it can be trusted, as ruff's
/// `FixAvailability` and clippy's `Applicability` mark them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixAvailability {
    /// No finding of the rule carries a fix.
    None,
    /// The fix changes nothing Kafka does beyond what the finding says (a repeated line that
    /// Kafka reads the same removed).
    Safe,
    /// The fix changes how the cluster behaves beyond the line it edits (a replication factor
    /// or minimum ISR new topics get), which people should review.
    Unsafe,
}

impl FixAvailability {
    pub fn as_str(self) -> &'static str {
        match self {
            FixAvailability::None => "none",
            FixAvailability::Safe => "safe",
            FixAvailability::Unsafe => "unsafe",
        }
    }
}

/// The Kafka releases a rule's behaviour is verified for, and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verified {
    /// Its start-up verdicts are checked against `KafkaConfig` of these releases' own jars
    /// (`tests/oracle.rs` asserts the agreement).
    Oracle(&'static [KafkaVersion]),
    /// Read from Kafka's source and documentation, and the catalogue dumped from each release's
    /// jars, for every release from the first to the last.
    Releases(KafkaVersion, KafkaVersion),
}

impl Verified {
    /// Every release of the catalogue: a rule that does not depend on the release.
    pub const CATALOGUE: Verified =
        Verified::Releases(KafkaVersion::new(2, 8), KafkaVersion::new(4, 4));
    /// The releases `tests/oracle.rs` asserts agreement with.
    pub const ORACLE: Verified =
        Verified::Oracle(&[KafkaVersion::new(3, 9), KafkaVersion::new(4, 4)]);
}

impl std::fmt::Display for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verified::Oracle(releases) => {
                let shown: Vec<String> = releases.iter().map(ToString::to_string).collect();
                write!(f, "Kafka {} (start-up oracle)", and_list(&shown))
            }
            Verified::Releases(first, last) => write!(f, "Kafka {first} to {last}"),
        }
    }
}

impl Rule {
    /// A finding of this rule at its severity; the `with_*` methods of [`Diagnostic`] add the
    /// rest.
    pub fn finding(&self, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.name, self.severity, message)
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(names: &[impl AsRef<str>]) -> String {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}
