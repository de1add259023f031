//! Which files a folder walk reads: what git ignores (`.gitignore` in a repository,
//! `.git/info/exclude`, git's global excludes) and `.ignore` files are passed over, as are
//! kafkalint.toml's `exclude` (by default hidden folders, `target`, `node_modules`),
//! `extend-exclude` and `--exclude`; a file named on the command line is read whatever they say.

use std::path::Path;
use std::process::{Command, Output};

const SEED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/seed-zk-3-brokers");

/// `kafkalint check --format concise ARGS` in `dir`, with `home` as HOME and no XDG config
/// folder of the user's, so that the user's own git excludes play no part.
fn check(dir: &Path, home: &Path, args: &[&str]) -> Output {
    command(dir, home, args).output().expect("runs")
}

fn command(dir: &Path, home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kafkalint"));
    command
        .args(["check", "--format", "concise"])
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("GIT_CONFIG_GLOBAL");
    command
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The seed's three brokers copied into `dir/folder`.
fn seed_in(dir: &Path, folder: &str) {
    let to = dir.join(folder);
    std::fs::create_dir_all(&to).unwrap();
    for entry in std::fs::read_dir(SEED).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// Whether the output has findings in files under `folder/`.
fn reads(output: &Output, folder: &str) -> bool {
    stdout(output)
        .lines()
        .any(|line| line.starts_with(&format!("{folder}/server-")))
}

/// A tree with `live/` and `old/` (each the seed), `old/` ignored by a `.gitignore`.
fn tree_with_gitignore(repository: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    seed_in(dir.path(), "old");
    std::fs::write(dir.path().join(".gitignore"), "old/\n").unwrap();
    if repository {
        std::fs::create_dir(dir.path().join(".git")).unwrap();
    }
    dir
}

#[test]
fn a_gitignored_folder_is_not_read_in_a_repository() {
    let dir = tree_with_gitignore(true);
    let home = tempfile::tempdir().unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    assert!(!reads(&output, "old"), "{}", stdout(&output));
}

#[test]
fn a_gitignore_outside_a_repository_is_not_read_as_git_does_not() {
    let dir = tree_with_gitignore(false);
    let home = tempfile::tempdir().unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    assert!(reads(&output, "old"), "{}", stdout(&output));
}

#[test]
fn a_gitignored_file_named_on_the_command_line_is_read() {
    let dir = tree_with_gitignore(true);
    let home = tempfile::tempdir().unwrap();
    let output = check(
        dir.path(),
        home.path(),
        &["old/server-0.properties", "old/server-1.properties"],
    );
    assert!(reads(&output, "old"), "{}", stdout(&output));
    // A folder named is walked: what its own `.gitignore` says of its entries holds.
    std::fs::write(dir.path().join("old/.gitignore"), "server-2.properties\n").unwrap();
    let output = check(dir.path(), home.path(), &["old"]);
    assert!(
        stdout(&output).contains("old/server-0.properties")
            && !stdout(&output).contains("old/server-2.properties"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_ignore_file_counts_outside_a_repository_too() {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    seed_in(dir.path(), "old");
    std::fs::write(dir.path().join(".ignore"), "/old\n").unwrap();
    let home = tempfile::tempdir().unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    assert!(!reads(&output, "old"), "{}", stdout(&output));
}

#[test]
fn git_global_excludes_count_in_a_repository() {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    seed_in(dir.path(), "old");
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let home = tempfile::tempdir().unwrap();
    let excludes = home.path().join("my-excludes");
    std::fs::write(&excludes, "old\n").unwrap();
    std::fs::write(
        home.path().join(".gitconfig"),
        format!("[core]\n\texcludesFile = {}\n", excludes.display()),
    )
    .unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    assert!(!reads(&output, "old"), "{}", stdout(&output));
    // Without core.excludesFile, git reads $XDG_CONFIG_HOME/git/ignore.
    std::fs::remove_file(home.path().join(".gitconfig")).unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "old"), "{}", stdout(&output));
    std::fs::create_dir_all(home.path().join(".config/git")).unwrap();
    std::fs::write(home.path().join(".config/git/ignore"), "old/\n").unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(!reads(&output, "old"), "{}", stdout(&output));
    // Git's system config (here GIT_CONFIG_SYSTEM's) names the file too, the key in any case.
    std::fs::remove_file(home.path().join(".config/git/ignore")).unwrap();
    let system = home.path().join("system-gitconfig");
    let config = format!("[core]\n\tEXCLUDESFILE = {}\n", excludes.display());
    std::fs::write(&system, config).unwrap();
    let output = command(dir.path(), home.path(), &["."])
        .env("GIT_CONFIG_SYSTEM", &system)
        .output()
        .expect("runs");
    assert!(!reads(&output, "old"), "{}", stdout(&output));
}

#[test]
fn extend_exclude_in_the_config_and_exclude_on_the_command_line_add_to_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    seed_in(dir.path(), "old");
    seed_in(dir.path(), "draft");
    seed_in(dir.path(), ".hidden");
    let home = tempfile::tempdir().unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    for folder in ["live", "old", "draft"] {
        assert!(reads(&output, folder), "{folder}: {}", stdout(&output));
    }
    assert!(!reads(&output, ".hidden"), "{}", stdout(&output));
    std::fs::write(
        dir.path().join("kafkalint.toml"),
        "extend-exclude = [\"/old\"]\n",
    )
    .unwrap();
    let output = check(dir.path(), home.path(), &[".", "--exclude", "draft/"]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    for folder in ["old", "draft", ".hidden"] {
        assert!(!reads(&output, folder), "{folder}: {}", stdout(&output));
    }
}

#[test]
fn exclude_in_the_config_replaces_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    seed_in(dir.path(), ".hidden");
    seed_in(dir.path(), "target");
    std::fs::write(
        dir.path().join("kafkalint.toml"),
        "exclude = [\"target/\"]\n",
    )
    .unwrap();
    let home = tempfile::tempdir().unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert!(reads(&output, "live"), "{}", stdout(&output));
    assert!(reads(&output, ".hidden"), "{}", stdout(&output));
    assert!(!reads(&output, "target"), "{}", stdout(&output));
}

#[test]
fn a_bad_pattern_is_an_error_naming_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    seed_in(dir.path(), "live");
    let home = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("kafkalint.toml"),
        "extend-exclude = [\"ok\", \"bad{\"]\n",
    )
    .unwrap();
    let output = check(dir.path(), home.path(), &["."]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("kafkalint.toml:1:25: not a gitignore-style pattern"),
        "{stderr}"
    );
    std::fs::remove_file(dir.path().join("kafkalint.toml")).unwrap();
    let output = check(dir.path(), home.path(), &[".", "--exclude", "x{y"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--exclude x{y: not a gitignore-style pattern"),
        "{stderr}"
    );
}
