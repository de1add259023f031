//! The command line: parse arguments, run the check, print, choose the exit code.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use kafkalint::catalog::KafkaVersion;
use kafkalint::coordinator::{self, Coordinated};
use kafkalint::diagnostic::Severity;
use kafkalint::output::{self, FullStyle};

mod watch;

// Links the crate's memcpy, memmove, memset, memcmp and bcmp in place of musl's.
#[cfg(target_env = "musl")]
use kafkalint_fast_mem as _;

// Every message to stderr goes through these, in place of std's, and a closed stderr is no
// reason to panic. `eprintln!` writes one line: the message may quote a path, a name, a value
// or a server's words, so all of it is shown through `output::printable` (its line breaks
// escaped too) and the line break after it is the only one. `eprint!` writes text an output
// function built line by line (the summary), each piece from outside already shown through
// `printable`.
macro_rules! eprint {
    ($($arg:tt)*) => {
        write_stderr(&format!($($arg)*))
    };
}
macro_rules! eprintln {
    ($($arg:tt)*) => {
        write_stderr(&format!("{}\n", output::printable(&format!($($arg)*))))
    };
}

/// The go of `--stopping id`: what was judged, and what was not (a quorum not known).
fn can_stop(snapshot: &kafkalint::live::snapshot::Snapshot, id: i32) -> String {
    use kafkalint::live::snapshot::QuorumView;
    let partitions = "every partition it holds keeps a leader and min.insync.replicas in sync, and every \
                      group's coordinator another in-sync replica";
    let quorum = match &snapshot.quorum {
        QuorumView::Described(quorum) if quorum.voter(id).is_some() => {
            "; the controller quorum keeps a majority of its voters without it"
        }
        QuorumView::Described(_) | QuorumView::ZooKeeper { .. } => "",
        QuorumView::Unknown { .. } => "; the controller quorum is not known, so not counted",
        QuorumView::NotAsked => "; the controller quorum was not asked, so not counted",
    };
    if snapshot.broker(id).is_none() {
        return match &snapshot.quorum {
            QuorumView::Described(described) if described.voter(id).is_none() => {
                format!(
                    "node {id} can stop: it is no live broker, and no voter of the controller quorum"
                )
            }
            _ => format!("controller {id} can stop: it is no broker{quorum}"),
        };
    }
    format!("broker {id} can stop: {partitions}{quorum}")
}

/// `--version`: kafkalint's own and the Kafka releases its catalogue covers, from the
/// catalogue's data (`0.1.0 (Kafka 2.8 to 4.4)`).
static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let releases = kafkalint::catalog::VERSIONS;
    format!(
        "{} (Kafka {} to {})",
        env!("CARGO_PKG_VERSION"),
        releases
            .first()
            .map(ToString::to_string)
            .unwrap_or_default(),
        releases.last().map(ToString::to_string).unwrap_or_default()
    )
});

/// A fast, exact static linter for Apache Kafka broker configuration.
#[derive(Parser)]
#[command(name = "kafkalint", version = VERSION.as_str(), about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Which rules run: rule names or groups (startup-refusal, availability, consistency,
/// exposure, hygiene, strict), over kafkalint.toml's `select` and `ignore`, as ruff's flags.
#[derive(Args)]
struct RuleArgs {
    /// Run only these rules or groups (comma-separated, repeatable), in place of
    /// kafkalint.toml's `select` and `ignore`; naming a `strict` rule runs it as with
    /// `strict = true`.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    select: Option<Vec<String>>,
    /// Run these rules or groups too, besides those selected (comma-separated, repeatable).
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    extend_select: Vec<String>,
    /// Do not run these rules or groups (comma-separated, repeatable); added to
    /// kafkalint.toml's `ignore`. A rule name wins over a group, whichever flag names it.
    #[arg(long, value_name = "RULE", value_delimiter = ',')]
    ignore: Vec<String>,
}

impl RuleArgs {
    /// The selection; an unknown name is an error naming it (and the nearest name).
    fn selection(&self) -> Result<kafkalint::rules::Selection, String> {
        let parse = |flag: &str, names: &[String]| {
            names
                .iter()
                .map(|name| {
                    kafkalint::rules::Selector::parse(name.trim())
                        .map_err(|error| format!("--{flag}: {error}"))
                })
                .collect::<Result<Vec<_>, String>>()
        };
        Ok(kafkalint::rules::Selection {
            select: self
                .select
                .as_deref()
                .map(|names| parse("select", names))
                .transpose()?,
            extend_select: parse("extend-select", &self.extend_select)?,
            ignore: parse("ignore", &self.ignore)?,
        })
    }
}

/// `--exclude`'s patterns, anchored at the working folder; `None` when there are none.
fn exclude_patterns(
    patterns: &[String],
) -> Result<Option<kafkalint::source::excludes::Patterns>, String> {
    if patterns.is_empty() {
        return Ok(None);
    }
    kafkalint::source::excludes::Patterns::new(std::path::Path::new("."), patterns)
        .map(Some)
        .map_err(|bad| {
            format!(
                "--exclude {}: not a gitignore-style pattern: {}",
                output::printable(&patterns[bad.index]),
                bad.message
            )
        })
}

/// What is printed, and when the run fails.
#[derive(Args)]
struct ReportArgs {
    /// Exit 0 even when findings fail the run (still 2 when the check cannot run).
    #[arg(long)]
    exit_zero: bool,
    /// Print how many findings each rule reported, most first, instead of the findings
    /// (JSON with `--format json`).
    #[arg(long)]
    statistics: bool,
    /// Print the findings only: no summary, no skipped files or notes on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Show each finding's help after its message in `--format concise` (the other formats
    /// always show it).
    #[arg(long)]
    show_help: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Check broker and controller files: every folder of node files is one cluster, and the
    /// files named together on the command line are one cluster.
    Check {
        /// Files or folders to check (default: the current folder); `-` reads one file from
        /// standard input, named by --stdin-filename.
        paths: Vec<PathBuf>,
        /// Check standard input (path `-`) as the unsaved contents of this file: it replaces the
        /// file on disk within its folder's cluster, and only findings about it are reported.
        #[arg(long, value_name = "PATH")]
        stdin_filename: Option<PathBuf>,
        /// Check each named file within its whole cluster (its `[[clusters]]` entry, else its
        /// folder's node files) and report only findings about the named files; named files
        /// that are missing or are no node files are passed over (for pre-commit hooks).
        #[arg(long, conflicts_with = "stdin_filename")]
        with_cluster: bool,
        /// Use this config file for every path, instead of the nearest kafkalint.toml.
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Full)]
        format: Format,
        /// The cluster's real broker count, when the files are fewer (one templated file).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        brokers: Option<u32>,
        /// The Kafka release to check against, `X.Y` or `X.Y.Z` (default: what the files show,
        /// else the newest release kafkalint knows).
        #[arg(long, value_name = "X.Y", value_parser = parse_kafka_version)]
        kafka_version: Option<KafkaVersion>,
        /// Write the output to this file (a file replaced whole, atomically; a pipe or device
        /// written into) instead of stdout.
        #[arg(long, value_name = "PATH")]
        output_file: Option<PathBuf>,
        /// Colors in `--format full`: `auto` when FORCE_COLOR is set, else when stdout is a
        /// terminal and NO_COLOR is unset.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// Apply the unambiguous fixes to the files (in place, atomically), then report what is
        /// left.
        #[arg(long)]
        fix: bool,
        /// Print a unified diff of what --fix would change and change nothing (exit 1 when
        /// there is something to fix); wins over --fix.
        #[arg(long)]
        diff: bool,
        /// With --fix or --diff, make the unsafe fixes too: those that change what the cluster
        /// does beyond the line (how many replicas a topic gets); each rule's doc says why.
        #[arg(long)]
        unsafe_fixes: bool,
        /// The least severity that fails the run (exit 1): `warning` fails on warnings and
        /// errors, `error` on errors only. Findings of severity info never fail it.
        #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Warning)]
        fail_on: FailOn,
        /// Pass over what these gitignore-style patterns match in the folders walked (relative
        /// to the current folder; comma-separated, repeatable), besides kafkalint.toml's
        /// `exclude` and `extend-exclude`. A file named on the command line is always checked.
        #[arg(long, value_name = "PATTERN", value_delimiter = ',')]
        exclude: Vec<String>,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        report: ReportArgs,
        /// Print the settings each cluster is checked with instead of checking: the config
        /// file, the rules that run, the Kafka release and why, and each file with why it is
        /// in the cluster.
        #[arg(long)]
        show_settings: bool,
        /// Check again each time a file of the paths (or a kafkalint.toml) changes, until
        /// interrupted.
        #[arg(long, conflicts_with_all = ["fix", "diff", "output_file", "stdin_filename", "show_settings"])]
        watch: bool,
    },
    /// Tell which partition of __consumer_offsets (or, with --transactional, of
    /// __transaction_state) holds the coordinator of a consumer group (or transactional id).
    Coordinator {
        /// The group id (or transactional id).
        id: String,
        /// ID is a transactional id: its coordinator lives on __transaction_state.
        #[arg(long)]
        transactional: bool,
        /// The topic's partition count (default: the brokers' files under PATHS, else Kafka's
        /// default).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        partitions: Option<u32>,
        /// Broker files or folders whose settings give the partition count and replication.
        paths: Vec<PathBuf>,
    },
    /// Ask a running cluster what it has (brokers, topics, partitions, each broker's settings,
    /// groups) and judge it with the live rules, beside its files when PATHS are given.
    /// Read-only: kafkalint sends no request that changes anything.
    Live {
        /// The running cluster's broker files or folders: what it is meant to have.
        paths: Vec<PathBuf>,
        /// The cluster's brokers, `host:port[,host:port...]`, as Kafka's tools take them.
        #[arg(long, value_name = "HOST:PORT", required_unless_present = "snapshot")]
        bootstrap_server: Option<String>,
        /// Client properties, as Kafka's tools take them: security.protocol, sasl.mechanism,
        /// sasl.jaas.config (PLAIN, SCRAM-SHA-256/512), ssl.truststore.* (PEM).
        #[arg(long, value_name = "FILE")]
        command_config: Option<PathBuf>,
        /// A consumer group to find the coordinator of and say what would stop it (repeat for
        /// more).
        #[arg(long = "group", value_name = "ID")]
        groups: Vec<String>,
        /// A transactional id to find the coordinator of (the leader of its partition of
        /// __transaction_state) and say what would stop it (repeat for more).
        #[arg(long = "transactional-id", value_name = "ID")]
        transactional_ids: Vec<String>,
        /// Before taking this node down (a broker, or in KRaft a controller): report the
        /// partitions and groups that would stop or refuse acks=all writes without it, and a
        /// controller quorum it would leave without a majority (exit 1 if any).
        #[arg(long, value_name = "NODE_ID")]
        stopping: Option<i32>,
        /// Seconds the whole run may take to ask the cluster: one deadline for every look-up,
        /// connection, request and answer.
        #[arg(long, value_name = "SECONDS", default_value_t = 30,
              value_parser = clap::value_parser!(u64).range(1..=3600))]
        timeout: u64,
        /// MiB that all the cluster's answers of one run may hold together; past it, the run
        /// stops (exit 2).
        #[arg(long, value_name = "MIB", default_value_t = 64,
              value_parser = clap::value_parser!(u64).range(1..=4096))]
        max_answer_mib: u64,
        /// Write the reassignment that raises short internal topics to --plan-file, for
        /// kafka-reassign-partitions.sh --execute (kafkalint never applies it).
        #[arg(long)]
        fix: bool,
        /// Where --fix writes the reassignment.
        #[arg(long, value_name = "PATH", default_value = "reassignment.json")]
        plan_file: PathBuf,
        /// With --fix: the replication throttle, in bytes per second, that the command to apply
        /// the plan carries (kafka-reassign-partitions.sh --throttle; --verify removes it).
        #[arg(long, value_name = "BYTES", requires = "fix",
              value_parser = clap::value_parser!(u64).range(1..))]
        throttle: Option<u64>,
        /// Also write what the cluster answered to this file, to judge later with --snapshot.
        #[arg(long, value_name = "PATH")]
        save_snapshot: Option<PathBuf>,
        /// Judge a snapshot written by --save-snapshot instead of asking a cluster.
        #[arg(long, value_name = "PATH", conflicts_with_all = ["bootstrap_server", "command_config", "save_snapshot"])]
        snapshot: Option<PathBuf>,
        /// Use this config file for the files, instead of the nearest kafkalint.toml.
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
        /// The Kafka release the files are read for (default: what they show).
        #[arg(long, value_name = "X.Y", value_parser = parse_kafka_version)]
        kafka_version: Option<KafkaVersion>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Full)]
        format: Format,
        /// Write the output to this file (a file replaced whole, atomically; a pipe or device
        /// written into) instead of stdout.
        #[arg(long, value_name = "PATH")]
        output_file: Option<PathBuf>,
        /// Colors in `--format full`: `auto` when FORCE_COLOR is set, else when stdout is a
        /// terminal and NO_COLOR is unset.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
        /// The least severity that fails the run (exit 1).
        #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Warning)]
        fail_on: FailOn,
        #[command(flatten)]
        rules: RuleArgs,
        #[command(flatten)]
        report: ReportArgs,
    },
    /// Run the language server, speaking the Language Server Protocol on stdin and stdout, for
    /// editors: diagnostics as you type, quick fixes, and a key's catalogue entry on hover
    /// (setup for VS Code, Neovim, Helix and Zed in docs/src/editors.md).
    Server {
        /// Accepted for editors that pass it (e.g. vscode-languageclient); stdio is the only
        /// transport.
        #[arg(long, hide = true)]
        stdio: bool,
    },
    /// List every rule: name, default severity, summary.
    Rules,
    /// Print a rule's documentation.
    Rule {
        /// The rule's name, as `kafkalint rules` lists it.
        name: String,
    },
    /// Print the script that completes kafkalint's subcommands and options in a shell
    /// (`kafkalint completions bash > ~/.local/share/bash-completion/completions/kafkalint`).
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Source snippets with labels and help, for people.
    Full,
    /// One line per finding, `path:line:col: severity[rule] message`, for editors.
    Concise,
    /// One JSON document, for programs.
    Json,
    /// GitHub Actions workflow commands: an annotation per finding.
    Github,
    /// A SARIF 2.1.0 log, for GitHub code scanning and other SARIF viewers.
    Sarif,
    /// A GitLab Code Quality report (`artifacts:reports:codequality`).
    Gitlab,
    /// JUnit XML, a test suite per file and a failed test case per finding, for CI test
    /// reports.
    Junit,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    /// Errors fail the run; warnings are reported and pass.
    Error,
    /// Warnings and errors fail the run.
    Warning,
}

/// Whether `--color` asks for colors here. `auto` follows force-color.org and no-color.org:
/// `FORCE_COLOR` set to anything but the empty string colors, even off a terminal and over
/// `NO_COLOR` (force-color.org's example reads it last); else `NO_COLOR` set to anything but
/// the empty string turns colors off; else a terminal on stdout colors.
fn use_color(color: Color, output_file: Option<&std::path::Path>) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto if set("FORCE_COLOR") => true,
        Color::Auto => output_file.is_none() && std::io::stdout().is_terminal() && !set("NO_COLOR"),
    }
}

impl FailOn {
    fn threshold(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Writes text to stderr, no line of it a workflow command (`output::guard_lines`); a failed
/// write (stderr closed) is ignored, as there is nowhere left to report it.
fn write_stderr(text: &str) {
    let _ = std::io::stderr()
        .lock()
        .write_all(output::guard_lines(text, false).as_bytes());
}

/// Writes `text` to stdout, no line of it a workflow command but `--format github`'s own
/// annotations (`output::guard_lines`); `Some(exit code)` when that fails. A closed pipe
/// (`kafkalint check | head`) is not an error worth reporting.
fn print_or_fail(text: &str, annotations: bool) -> Option<ExitCode> {
    emit(None, text, annotations)
}

/// Writes the output to `--output-file` (see [`kafkalint::output_path::write_output`]) or
/// stdout; `Some(exit code)` on failure. `annotations`: the text is `--format github`'s (see
/// [`print_or_fail`]).
fn emit(output_file: Option<&std::path::Path>, text: &str, annotations: bool) -> Option<ExitCode> {
    emit_with(output_file, annotations, |out| {
        out.write_all(text.as_bytes())
    })
}

/// Writes what `write` writes, as it writes it, to `--output-file` or stdout, each line through
/// `output::GuardedWriter` (the guard of `output::guard_lines`); `Some(exit code)` on failure.
/// A closed stdout (`kafkalint check | head`) is not an error worth reporting.
fn emit_with(
    output_file: Option<&std::path::Path>,
    annotations: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Option<ExitCode> {
    let guarded = |sink: &mut dyn Write| {
        let mut guarded = output::GuardedWriter::new(sink, annotations);
        write(&mut guarded)?;
        guarded.finish().map(drop)
    };
    match output_file {
        Some(path) => match kafkalint::output_path::write_output_with(path, guarded) {
            Ok(()) => None,
            Err(error) => {
                eprintln!("kafkalint: error: {}: {error}", path.display());
                Some(ExitCode::from(EXIT_ERROR))
            }
        },
        None => match guarded(&mut std::io::stdout().lock()) {
            Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
                eprintln!("kafkalint: error: cannot write output: {error}");
                Some(ExitCode::from(EXIT_ERROR))
            }
            _ => None,
        },
    }
}

/// Writes the output and exits: 1 when the report fails at `--fail-on`, 0 otherwise, 2 when the
/// output cannot be written.
fn finish(
    output_file: Option<&std::path::Path>,
    annotations: bool,
    fails: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> ExitCode {
    if let Some(failed) = emit_with(output_file, annotations, write) {
        return failed;
    }
    if fails {
        ExitCode::from(EXIT_FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// "1 finding", "2 files".
fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// `kafkalint completions SHELL`: clap_complete's script for the command line as declared
/// here, so that it never lags behind a subcommand or an option.
fn completions(shell: clap_complete::Shell) -> ExitCode {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "kafkalint", &mut script);
    let script = String::from_utf8_lossy(&script);
    print_or_fail(&script, false).unwrap_or(ExitCode::SUCCESS)
}

/// Exits 2 with clap's usage message: arguments clap alone cannot check.
fn usage_error(message: &str) -> ! {
    use clap::CommandFactory;
    let mut cli = Cli::command();
    cli.build();
    cli.find_subcommand_mut("check")
        .expect("the check subcommand")
        .error(clap::error::ErrorKind::ArgumentConflict, message)
        .exit()
}

/// The reassignments in progress, one line, and (with --fix) that they are not known when
/// the cluster could not be asked for them: a plan may then overlap one.
fn tell_reassignments(snapshot: &kafkalint::live::snapshot::Snapshot, fix: bool) {
    use kafkalint::escape::printable;
    match &snapshot.reassignments {
        Some(moving) if !moving.is_empty() => {
            let shown: Vec<String> = moving
                .iter()
                .take(5)
                .map(|item| printable(&format!("{}-{}", item.topic, item.partition)))
                .collect();
            let more = match moving.len().saturating_sub(5) {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            eprintln!(
                "kafkalint: note: {} in progress ({}{more}): a plan leaves {} out",
                plural(moving.len(), "reassignment"),
                shown.join(", "),
                if moving.len() == 1 { "it" } else { "them" }
            );
        }
        None if fix => eprintln!(
            "kafkalint: note: the reassignments in progress are not known (not asked, or refused): \
             kafka-reassign-partitions.sh --execute refuses to start beside one"
        ),
        _ => {}
    }
}

/// `--fix`: writes the plan (if it moves anything) and says what it holds, what it leaves out
/// and the command that applies it; or, in one line, that there is nothing to raise.
fn write_plan(
    judged: &kafkalint::live::judge::LiveReport,
    plan_file: &Path,
    throttle: Option<u64>,
) -> Result<(), ExitCode> {
    use kafkalint::escape::printable;
    let file = printable(&plan_file.display().to_string());
    let Some(plan) = &judged.plan else {
        eprintln!(
            "kafkalint: --fix: nothing to raise: every internal topic has the replicas intended; {file} not written"
        );
        return Ok(());
    };
    for note in plan.notes() {
        eprintln!("kafkalint: --fix: {}", printable(&note));
    }
    if plan.moves.is_empty() {
        eprintln!("kafkalint: --fix: no partition can be raised now; {file} not written");
        return Ok(());
    }
    if let Err(error) = kafkalint::output_path::write_output(plan_file, plan.to_json().as_bytes()) {
        eprintln!("kafkalint: error: {file}: {error}");
        return Err(ExitCode::from(EXIT_ERROR));
    }
    // The tool refuses to start beside reassignments in progress unless told `--additional`
    // (ReassignPartitionsCommand.executeAssignment, apache/kafka tag 3.9.0); the plan leaves
    // theirs out, so adding to them is safe.
    let additional = match &judged.snapshot.reassignments {
        Some(moving) if !moving.is_empty() => " --additional",
        _ => "",
    };
    let throttle = throttle.map_or(String::new(), |bytes| format!(" --throttle {bytes}"));
    eprintln!(
        "Wrote a reassignment of {} to {file}: review it, then apply it with \
         kafka-reassign-partitions.sh --bootstrap-server {} --reassignment-json-file {file} --execute{additional}{throttle} \
         (and --verify until it is done{}).",
        printable(&plan.summary()),
        printable(&judged.snapshot.bootstrap),
        if throttle.is_empty() {
            ""
        } else {
            ": --verify also removes the throttle"
        }
    );
    Ok(())
}

/// Asks the cluster behind `bootstrap` what it has: the snapshot's document, named
/// `kafka://HOST:PORT` after the broker that answered first.
#[cfg(feature = "live")]
fn ask_cluster(
    bootstrap: &str,
    command_config: Option<&std::path::Path>,
    groups: &[String],
    transactional_ids: &[String],
    timeout: u64,
    max_answer_mib: u64,
) -> Result<kafkalint::source::SourceFile, String> {
    use kafkalint::live;
    let target = live::Target {
        bootstrap: live::parse_bootstrap(bootstrap).map_err(|error| error.to_string())?,
        client: match command_config {
            Some(path) => live::ClientConfig::read(path).map_err(|error| error.to_string())?,
            None => live::ClientConfig::default(),
        },
        timeout: std::time::Duration::from_secs(timeout),
        max_answer_bytes: usize::try_from(max_answer_mib << 20).unwrap_or(usize::MAX),
        groups: groups.to_vec(),
        transactional_ids: transactional_ids.to_vec(),
    };
    let snapshot = live::gather(&target).map_err(|error| error.to_string())?;
    Ok(kafkalint::live::snapshot::document(
        format!("kafka://{}", snapshot.bootstrap),
        snapshot.render().into_bytes(),
    ))
}

/// Without the `live` feature, only a saved snapshot can be judged.
#[cfg(not(feature = "live"))]
fn ask_cluster(
    _: &str,
    _: Option<&std::path::Path>,
    _: &[String],
    _: &[String],
    _: u64,
    _: u64,
) -> Result<kafkalint::source::SourceFile, String> {
    Err("this kafkalint was built without the `live` feature: it judges saved snapshots (--snapshot) only".to_string())
}

/// `kafkalint server`: serves the editor on stdio until it says `exit`.
fn serve() -> ExitCode {
    // kafkalint's own framing: it caps a message before reading it (lsp-server's allocates
    // whatever the header says).
    let (connection, transport) = kafkalint::server::transport::stdio();
    let served = kafkalint::server::run(&connection);
    // The writer thread ends when the last sender goes: everything sent is written first.
    drop(connection);
    let joined = transport.join();
    match served {
        Ok(true) => ExitCode::SUCCESS,
        // `exit` without `shutdown`: the protocol asks for exit code 1.
        Ok(false) => ExitCode::from(EXIT_FINDINGS),
        Err(error) => {
            match joined {
                // Says what was wrong, never quoting the message (it may hold a document).
                Err(framing) => eprintln!("kafkalint: error: server: {framing}"),
                Ok(()) => eprintln!("kafkalint: error: server: {error}"),
            }
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn parse_kafka_version(text: &str) -> Result<KafkaVersion, String> {
    KafkaVersion::parse(text).map_err(|error| error.to_string())
}

/// The files passed over and what was assumed, on stderr.
fn tell_skipped_and_notes(report: &kafkalint::Report) {
    for skipped in &report.skipped {
        eprintln!("kafkalint: skipped {skipped}");
    }
    for note in &report.notes {
        eprintln!("kafkalint: note: {note}");
    }
}

/// What `--format concise` shows beside each message.
/// `--format concise`'s style; `allowed`: the fixes `[*]` marks (unsafe ones too with
/// `--unsafe-fixes`, as ruff marks them).
fn concise_style(
    shown: &ReportArgs,
    allowed: kafkalint::diagnostic::Applicability,
) -> output::ConciseStyle {
    output::ConciseStyle {
        show_help: shown.show_help,
        allowed,
    }
}

/// `--statistics`: a count per rule, as JSON with `--format json`, else as text.
fn statistics(
    report: &kafkalint::Report,
    format: Format,
    allowed: kafkalint::diagnostic::Applicability,
) -> String {
    match format {
        Format::Json => output::statistics_json(report, allowed),
        _ => output::statistics_text(report, allowed),
    }
}

/// The formats for programs: one document on stdout, nothing for people around it. JSON and
/// the drawn findings are written as they are made, not held whole first.
fn write_for_programs(
    report: &kafkalint::Report,
    format: Format,
    concise: output::ConciseStyle,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let text = match format {
        Format::Json => return output::write_json(report, out),
        Format::Full => {
            let style = FullStyle {
                color: false,
                width: 100,
            };
            return output::write_findings_full(report, style, out);
        }
        Format::Github => output::github(report),
        Format::Sarif => output::sarif(report),
        Format::Gitlab => output::gitlab(report),
        Format::Junit => output::junit(report),
        Format::Concise => output::concise(report, concise),
    };
    out.write_all(text.as_bytes())
}

/// Exit codes: 0 clean, 1 findings at `--fail-on`'s severity or above, 2 usage or I/O error.
const EXIT_FINDINGS: u8 = 1;
const EXIT_ERROR: u8 = 2;

#[cfg(all(
    not(target_os = "windows"),
    not(target_os = "openbsd"),
    not(target_os = "aix"),
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "powerpc64"
    )
))]
#[global_allocator]
static GLOBAL: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let cli = parse_command_line();
    if let Command::Check {
        watch: true,
        paths,
        config,
        ..
    } = &cli.command
    {
        return watch::run(watch::arguments_without_watch(), paths, config.as_deref());
    }
    match cli.command {
        Command::Server { stdio: _ } => serve(),
        Command::Rules => {
            print_or_fail(&kafkalint::rules::listing(), false).unwrap_or(ExitCode::SUCCESS)
        }
        Command::Completions { shell } => completions(shell),
        Command::Rule { name } => match kafkalint::rules::doc(&name) {
            Some(doc) => print_or_fail(doc, false).unwrap_or(ExitCode::SUCCESS),
            None => {
                let hint = kafkalint::rules::nearest_name(&name)
                    .map(|nearest| format!("; did you mean `{nearest}`?"))
                    .unwrap_or_default();
                eprintln!(
                    "kafkalint: error: no rule named `{name}`{hint} (`kafkalint rules` lists them)"
                );
                ExitCode::from(EXIT_ERROR)
            }
        },
        Command::Coordinator {
            id,
            transactional,
            partitions,
            paths,
        } => {
            let kind = if transactional {
                Coordinated::TransactionalId
            } else {
                Coordinated::Group
            };
            let report = if paths.is_empty() {
                None
            } else {
                match kafkalint::check(&paths, &kafkalint::Options::default()) {
                    Ok(report) => Some(report),
                    Err(error) => {
                        eprintln!("kafkalint: error: {error}");
                        return ExitCode::from(EXIT_ERROR);
                    }
                }
            };
            let (clusters, files) = match &report {
                Some(report) => (report.clusters.as_slice(), report.files.as_slice()),
                None => (&[][..], &[][..]),
            };
            let text = coordinator::explain(&id, kind, partitions, clusters, files);
            print_or_fail(&text, false).unwrap_or(ExitCode::SUCCESS)
        }
        Command::Live {
            paths,
            bootstrap_server,
            command_config,
            groups,
            transactional_ids,
            stopping,
            timeout,
            max_answer_mib,
            fix,
            plan_file,
            throttle,
            save_snapshot,
            snapshot,
            config,
            kafka_version,
            format,
            output_file,
            color,
            fail_on,
            rules,
            report: shown,
        } => {
            let selection = match rules.selection() {
                Ok(selection) => selection,
                Err(error) => {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            let document = match snapshot {
                Some(path) => match kafkalint::source::read_file(&path) {
                    Ok(bytes) => {
                        kafkalint::live::snapshot::document(path.display().to_string(), bytes)
                    }
                    Err(error) => {
                        eprintln!("kafkalint: error: {}: {error}", path.display());
                        return ExitCode::from(EXIT_ERROR);
                    }
                },
                None => match ask_cluster(
                    bootstrap_server.as_deref().unwrap_or_default(),
                    command_config.as_deref(),
                    &groups,
                    &transactional_ids,
                    timeout,
                    max_answer_mib,
                ) {
                    Ok(document) => document,
                    Err(error) => {
                        eprintln!("kafkalint: error: {error}");
                        return ExitCode::from(EXIT_ERROR);
                    }
                },
            };
            if let Some(path) = &save_snapshot
                && let Err(error) = kafkalint::output_path::write_output(
                    path,
                    String::from_utf8_lossy(&document.bytes).as_bytes(),
                )
            {
                eprintln!("kafkalint: error: {}: {error}", path.display());
                return ExitCode::from(EXIT_ERROR);
            }
            let options = kafkalint::Options {
                kafka_version,
                config,
                selection,
                ..kafkalint::Options::default()
            };
            let live = kafkalint::live::judge::LiveOptions {
                groups,
                transactional_ids,
                stopping,
            };
            let judged = match kafkalint::check_live(document, &paths, &options, &live) {
                Ok(judged) => judged,
                Err(error) => {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            let report = &judged.report;
            if !shown.quiet {
                tell_skipped_and_notes(report);
            }
            if !shown.quiet {
                for missing in &judged.missing {
                    eprintln!(
                        "kafkalint: note: not known: {}: {}",
                        output::printable(&missing.what),
                        output::printable(&missing.why)
                    );
                }
            }
            let partial = kafkalint::live::partial::summary(&judged.missing);
            if !shown.quiet {
                tell_reassignments(&judged.snapshot, fix);
            }
            if fix && let Err(code) = write_plan(&judged, &plan_file, throttle) {
                return code;
            }
            let snapshot = &judged.snapshot;
            let mut scope = format!(
                "the cluster behind {}: {}, {}, {}",
                snapshot.bootstrap,
                plural(snapshot.brokers.len(), "live broker"),
                plural(snapshot.topics.len(), "topic"),
                plural(snapshot.groups.len(), "group")
            );
            if let Some(name) = &judged.beside {
                scope.push_str(&format!(", beside the files of cluster {name}"));
            }
            if let Some(id) = stopping
                && !report.fails_at(Severity::Warning)
                && partial.is_none()
            {
                eprintln!("kafkalint: {}", can_stop(&judged.snapshot, id));
            }
            let style = FullStyle {
                color: use_color(color, output_file.as_deref()),
                width: 100,
            };
            let summary =
                (!shown.quiet).then(|| output::summary_in(report, &scope, partial.as_deref()));
            let text = match format {
                _ if shown.statistics => Some(statistics(
                    report,
                    format,
                    kafkalint::diagnostic::Applicability::Safe,
                )),
                Format::Full => {
                    let mut text = output::draw_each(report, style).concat();
                    text.push_str(&summary.unwrap_or_default());
                    Some(text)
                }
                Format::Concise => {
                    eprint!("{}", summary.unwrap_or_default());
                    Some(output::concise(
                        report,
                        concise_style(&shown, kafkalint::diagnostic::Applicability::Safe),
                    ))
                }
                _ => None,
            };
            let exit = finish(
                output_file.as_deref(),
                matches!(format, Format::Github) && !shown.statistics,
                report.fails_at(fail_on.threshold()) && !shown.exit_zero,
                |out| match &text {
                    Some(text) => out.write_all(text.as_bytes()),
                    None => write_for_programs(
                        report,
                        format,
                        concise_style(&shown, kafkalint::diagnostic::Applicability::Safe),
                        out,
                    ),
                },
            );
            match (stopping, &partial) {
                // What is known already stops something: a no-go, whatever the rest holds.
                (Some(id), Some(words)) if report.fails_at(Severity::Error) => {
                    eprintln!(
                        "kafkalint: note: --stopping {id}: a no-go on what is known; the view is \
                         partial, not known: {}",
                        output::printable(words)
                    );
                    exit
                }
                (Some(id), Some(words)) => {
                    // A go on a view that is not whole is no answer: exit 2.
                    eprintln!(
                        "kafkalint: error: --stopping {id}: no go/no-go on {}: ask again once every \
                         broker answers, as a principal that may describe the cluster, its topics \
                         and its groups",
                        output::printable(words)
                    );
                    ExitCode::from(EXIT_ERROR)
                }
                _ => exit,
            }
        }
        Command::Check {
            paths,
            stdin_filename,
            with_cluster,
            config,
            format,
            brokers,
            kafka_version,
            output_file,
            color,
            fix,
            diff,
            unsafe_fixes,
            fail_on,
            exclude,
            rules,
            report: shown,
            show_settings,
            watch: _,
        } => {
            let exclude = match exclude_patterns(&exclude) {
                Ok(patterns) => patterns,
                Err(error) => usage_error(&error),
            };
            let selection = match rules.selection() {
                Ok(selection) => selection,
                Err(error) => {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            let color = use_color(color, output_file.as_deref());
            let full_style = FullStyle { color, width: 100 };
            let options = kafkalint::Options {
                brokers: brokers.map(|n| n as usize),
                kafka_version,
                config,
                retain: match format {
                    // `--fix` checks the fixed files again from the report.
                    _ if fix || diff => kafkalint::Retain::All,
                    _ if show_settings || shown.statistics => kafkalint::Retain::Positions,
                    Format::Full => kafkalint::Retain::Drawn(full_style),
                    _ => kafkalint::Retain::Positions,
                },
                selection,
                exclude,
            };
            let from_stdin = paths.iter().any(|path| path.as_os_str() == "-");
            let checked = match (stdin_filename, from_stdin) {
                (None, false) if with_cluster => {
                    if paths.is_empty() {
                        usage_error("`--with-cluster` checks the files it is given: name them");
                    }
                    kafkalint::check_with_cluster(&paths, &options)
                }
                (None, false) if paths.is_empty() => {
                    kafkalint::check(&[PathBuf::from(".")], &options)
                }
                (None, false) => kafkalint::check(&paths, &options),
                (Some(path), true) if paths.len() == 1 => {
                    let bytes = match kafkalint::source::read_limited(std::io::stdin().lock()) {
                        Ok(bytes) => bytes,
                        Err(error) => {
                            eprintln!(
                                "kafkalint: error: {}: cannot read standard input: {error}",
                                path.display()
                            );
                            return ExitCode::from(EXIT_ERROR);
                        }
                    };
                    let buffer = kafkalint::cluster::Buffer {
                        path: &path,
                        bytes: &bytes,
                    };
                    kafkalint::check_buffer(buffer, &options)
                }
                (None, true) => usage_error(
                    "`-` reads a file from standard input: name it with `--stdin-filename PATH`",
                ),
                (Some(_), _) => usage_error(
                    "`--stdin-filename PATH` checks standard input: give `-` as the only path",
                ),
            };
            if (fix || diff) && from_stdin {
                usage_error(
                    "`--fix` and `--diff` change files on disk, not standard input: run them on the file",
                );
            }
            let mut report = match checked {
                Ok(report) => report,
                Err(error) => {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
            };
            if !shown.quiet {
                tell_skipped_and_notes(&report);
            }
            if show_settings {
                let text = output::settings(&report, &options.selection);
                return emit(output_file.as_deref(), &text, false).unwrap_or(ExitCode::SUCCESS);
            }
            let allowed = if unsafe_fixes {
                kafkalint::diagnostic::Applicability::Unsafe
            } else {
                kafkalint::diagnostic::Applicability::Safe
            };
            let mut fixed_line = None;
            if fix || diff {
                let fixed = match kafkalint::fix::fix(report, &options, allowed) {
                    Ok(fixed) => fixed,
                    Err(error) => {
                        eprintln!("kafkalint: error: {error}");
                        return ExitCode::from(EXIT_ERROR);
                    }
                };
                let tally = format!(
                    "{} in {}",
                    plural(fixed.fixed, "finding"),
                    plural(fixed.changes.len(), "file")
                );
                if diff {
                    // Like ruff: the diff on stdout, the tally for people on stderr.
                    if !shown.quiet {
                        let hidden = match kafkalint::fix::fixable(&fixed.report, allowed).1 {
                            0 => String::new(),
                            1 => " (1 hidden fix can be enabled with the `--unsafe-fixes` option)"
                                .to_string(),
                            n => format!(
                                " ({n} hidden fixes can be enabled with the `--unsafe-fixes` option)"
                            ),
                        };
                        if fixed.changes.is_empty() {
                            eprintln!("No fixes available{hidden}.");
                        } else {
                            eprintln!("Would fix {tally}{hidden}.");
                        }
                    }
                    let text = kafkalint::fix::diff(&fixed);
                    if let Some(failed) = emit(output_file.as_deref(), &text, false) {
                        return failed;
                    }
                    return if fixed.changes.is_empty() || shown.exit_zero {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(EXIT_FINDINGS)
                    };
                }
                if let Err(error) = kafkalint::fix::write(&fixed.changes) {
                    eprintln!("kafkalint: error: {error}");
                    return ExitCode::from(EXIT_ERROR);
                }
                if fixed.fixed > 0 && !shown.quiet {
                    fixed_line = Some(format!("Fixed {tally}.\n"));
                }
                report = fixed.report;
            }
            // The summary, then what `--fix` would make (what it left, after `--fix`).
            let summary = (!shown.quiet).then(|| {
                let mut summary = output::summary(&report);
                summary.push_str(&kafkalint::fix::hint(&report, allowed).unwrap_or_default());
                summary
            });
            // After the findings `--format full` draws: the summary and the tally of fixes,
            // for people.
            let mut full_tail = String::new();
            match format {
                _ if shown.statistics => {}
                Format::Concise => {
                    // Only the findings on stdout, for the editor; the tally is for people.
                    eprint!("{}", summary.unwrap_or_default());
                    eprint!("{}", fixed_line.take().unwrap_or_default());
                }
                Format::Full => {
                    full_tail.push_str(&summary.unwrap_or_default());
                    full_tail.push_str(&fixed_line.take().unwrap_or_default());
                }
                _ => {}
            }
            // Formats for programs keep their document intact: the tally goes to stderr.
            if let Some(line) = fixed_line {
                eprint!("{line}");
            }
            finish(
                output_file.as_deref(),
                matches!(format, Format::Github) && !shown.statistics,
                report.fails_at(fail_on.threshold()) && !shown.exit_zero,
                |out| match format {
                    _ if shown.statistics => {
                        out.write_all(statistics(&report, format, allowed).as_bytes())
                    }
                    Format::Full => {
                        output::write_findings_full(&report, full_style, out)?;
                        out.write_all(full_tail.as_bytes())
                    }
                    other => {
                        write_for_programs(&report, other, concise_style(&shown, allowed), out)
                    }
                },
            )
        }
    }
}

/// The command line, or clap's message and exit code for one it refuses. An argument clap
/// quotes (a path, a `--kafka-version`) may hold a line break, a control character or a
/// workflow command: then the message is shown a line at a time through `output::printable`,
/// uncoloured, in place of clap's own printing.
fn parse_command_line() -> Cli {
    let error = match Cli::try_parse() {
        Ok(cli) => return cli,
        Err(error) => error,
    };
    let plain = error.render().to_string();
    let shown: String = plain
        .split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(line) => format!("{}\n", output::printable(line)),
            None => output::printable(line),
        })
        .collect();
    if shown == plain {
        error.exit()
    }
    let written = if error.use_stderr() {
        std::io::stderr().lock().write_all(shown.as_bytes())
    } else {
        std::io::stdout().lock().write_all(shown.as_bytes())
    };
    drop(written);
    std::process::exit(error.exit_code())
}
