//! `kafkalint check --watch`: checks, then checks again each time a watched file changes, until
//! interrupted, as `ruff check --watch` does.
//!
//! Each check is this program run again with the same arguments less `--watch`, so that a
//! watched check prints exactly what the same check prints alone. Files are polled (their size
//! and modification time, every [`POLL`]) rather than followed by the system's file events:
//! polling sees changes on every file system, bind mounts into containers and network mounts
//! among them, where inotify and its kin miss them, and a folder of configuration files is
//! cheap to look at.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

/// How often the watched files are looked at.
const POLL: Duration = Duration::from_millis(250);

/// What a file looked like when last looked at.
type Stamp = (Option<SystemTime>, u64);

/// Checks with `arguments` (this program's, less `--watch`) now and after every change to the
/// files of `paths` or to `config`, until the process is interrupted.
pub fn run(arguments: Vec<OsString>, paths: &[PathBuf], config: Option<&Path>) -> ExitCode {
    let program = match std::env::current_exe() {
        Ok(program) => program,
        Err(error) => {
            say(&format!(
                "kafkalint: error: --watch: cannot find this program to run it again: {error}"
            ));
            return ExitCode::from(2);
        }
    };
    let roots: Vec<PathBuf> = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let mut seen = look(&roots, config);
    loop {
        if std::io::stdout().is_terminal() {
            // Clear the screen and go home, as ruff does before each check.
            print!("\x1b[2J\x1b[H");
        }
        let status = std::process::Command::new(&program)
            .args(&arguments)
            .status();
        if let Err(error) = status {
            say(&format!(
                "kafkalint: error: --watch: cannot run the check: {error}"
            ));
            return ExitCode::from(2);
        }
        say("Watching for file changes.");
        loop {
            std::thread::sleep(POLL);
            let now = look(&roots, config);
            if now != seen {
                // A save is often several writes: let them finish before checking.
                std::thread::sleep(POLL);
                seen = look(&roots, config);
                say("File change detected: checking again.");
                break;
            }
        }
    }
}

/// One line on stderr, shown through the one escaping function as every message is.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}",
        kafkalint::output::printable(line)
    );
}

/// The watched files and their stamps: every file under each folder (skipping the folders a
/// check's walk skips), each named file and the files beside it (its cluster's siblings), the
/// `kafkalint.toml` of each folder up to the root, and the config file.
fn look(roots: &[PathBuf], config: Option<&Path>) -> BTreeMap<PathBuf, Stamp> {
    let excludes = kafkalint::source::excludes::Excludes::default();
    let mut files = BTreeMap::new();
    for root in roots {
        let (folder, depth) = if root.is_dir() {
            (root.as_path(), usize::MAX)
        } else {
            (root.parent().unwrap_or(Path::new(".")), 1)
        };
        // The folders a check's walk passes over by default (hidden ones, `target`,
        // `node_modules`, what git ignores) are not watched either.
        let mut filter = excludes.filter();
        let walk = walkdir::WalkDir::new(folder)
            .max_depth(depth)
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0 || !filter.excludes(entry.path(), entry.file_type().is_dir())
            });
        for entry in walk.filter_map(Result::ok) {
            if entry.file_type().is_file() {
                files.insert(entry.path().to_path_buf(), stamp(entry.path()));
            }
        }
        let absolute = std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf());
        for ancestor in absolute.ancestors() {
            let toml = ancestor.join("kafkalint.toml");
            files.insert(toml.clone(), stamp(&toml));
        }
    }
    if let Some(config) = config {
        files.insert(config.to_path_buf(), stamp(config));
    }
    files
}

/// A file's modification time and size; a missing file's are `(None, 0)`.
fn stamp(path: &Path) -> Stamp {
    match std::fs::metadata(path) {
        Ok(meta) => (meta.modified().ok(), meta.len()),
        Err(_) => (None, 0),
    }
}

/// This program's arguments less the first `--watch` before a `--` (after it, `--watch` would
/// be a path).
pub fn arguments_without_watch() -> Vec<OsString> {
    let mut removed = false;
    let mut after_separator = false;
    std::env::args_os()
        .skip(1)
        .filter(|argument| {
            if argument == "--" {
                after_separator = true;
            }
            if !removed && !after_separator && argument == "--watch" {
                removed = true;
                return false;
            }
            true
        })
        .collect()
}
