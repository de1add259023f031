//! The pre-commit hook (`.pre-commit-hooks.yaml`) as a user meets it: the real pre-commit (from
//! PyPI; `.ci/run` installs it) in a scratch git repository whose `.pre-commit-config.yaml` is
//! the README's snippet with `repo:` pointed at this checkout and `rev:` at its `HEAD`, installed
//! as the repository's git hook, so that `git commit` runs it.
//!
//! pre-commit clones `rev`: the test checks this checkout's COMMITTED state, not its working
//! tree. Commit the hook and the code before trusting a run. It builds kafkalint as users' machines
//! do (`cargo install`), once per test run (a fresh `PRE_COMMIT_HOME`), into a target folder kept
//! under `target/` so that a rerun builds incrementally.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

const INSTALL: &str = "pre-commit is not installed: `python3 -m pip install pre-commit` \
     (or in a venv: `python3 -m venv venv && venv/bin/pip install pre-commit`, with venv/bin on \
     the PATH); .ci/run installs the version CI uses";

/// What every git and pre-commit command of the test runs with: no user or system git config
/// (a global `core.hooksPath` would stop `pre-commit install`), one pre-commit cache.
fn isolated(command: &mut Command) -> &mut Command {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    let home = HOME.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("gitconfig"), "").unwrap();
        home
    });
    command
        .env("GIT_CONFIG_GLOBAL", home.path().join("gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("PRE_COMMIT_HOME", home.path().join("pre-commit"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-install"),
        )
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn git(dir: &Path, args: &[&str]) -> Output {
    isolated(Command::new("git").args(args).current_dir(dir))
        .output()
        .expect("git runs")
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let output = git(dir, args);
    assert!(output.status.success(), "git {args:?}: {}", text(&output));
    String::from_utf8(output.stdout).unwrap()
}

/// The README's `.pre-commit-config.yaml`, pointed at this checkout's `HEAD`.
fn config_from_readme() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("\n### pre-commit\n")
        .nth(1)
        .expect("README has a pre-commit section");
    let snippet = section
        .split("```yaml\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the section has a yaml block");
    let head = git_ok(root(), &["rev-parse", "HEAD"]);
    let mut replaced = (0, 0);
    let config: Vec<String> = snippet
        .lines()
        .map(|line| {
            let indent = &line[..line.len() - line.trim_start().len()];
            if line.trim_start() == "- repo: https://github.com/kafkalint/kafkalint" {
                replaced.0 += 1;
                format!("{indent}- repo: {}", root().display())
            } else if line.trim_start().starts_with("rev: v") {
                replaced.1 += 1;
                format!("{indent}rev: {}", head.trim())
            } else {
                line.to_string()
            }
        })
        .collect();
    assert_eq!(replaced, (1, 1), "the snippet changed shape:\n{snippet}");
    config.join("\n") + "\n"
}

fn pre_commit() -> &'static str {
    let found = Command::new("pre-commit").arg("--version").output();
    match found {
        Ok(output) if output.status.success() => "pre-commit",
        _ => panic!("{INSTALL}"),
    }
}

/// A scratch repository with the README's config committed and the hook installed.
fn repository() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    git_ok(dir, &["init", "-q"]);
    git_ok(dir, &["config", "user.name", "Test"]);
    git_ok(dir, &["config", "user.email", "test@example.com"]);
    git_ok(dir, &["config", "commit.gpgsign", "false"]);
    std::fs::write(dir.join(".pre-commit-config.yaml"), config_from_readme()).unwrap();
    let install = isolated(Command::new(pre_commit()).arg("install").current_dir(dir))
        .output()
        .unwrap();
    assert!(install.status.success(), "{}", text(&install));
    repo
}

/// `git commit -am`, with the hook.
fn commit(dir: &Path, message: &str) -> Output {
    git_ok(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", message])
}

fn commits(dir: &Path) -> usize {
    git_ok(dir, &["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .unwrap()
}

fn copy_fixture(fixture: &str, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(root().join(fixture)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The hook's line in pre-commit's report: `kafkalint....Passed`, `...Failed`, or
/// `...(no files to check)Skipped`.
fn hook_line(output: &Output) -> String {
    text(output)
        .lines()
        .find(|line| line.starts_with("kafkalint."))
        .unwrap_or_else(|| panic!("no kafkalint line: {}", text(output)))
        .to_string()
}

#[test]
fn a_commit_that_breaks_a_cluster_fails_and_its_fix_goes_through() {
    let repo = repository();
    let dir = repo.path();

    // No Kafka file: the hook is skipped (the first commit also builds the hook).
    let output = commit(dir, "pre-commit config");
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        hook_line(&output).ends_with("(no files to check)Skipped"),
        "{}",
        text(&output)
    );

    // The seed: refused, with kafkalint's report.
    copy_fixture("fixtures/seed-zk-3-brokers", &dir.join("kafka"));
    let output = commit(dir, "three brokers");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(hook_line(&output).ends_with("Failed"), "{}", text(&output));
    let report = text(&output);
    assert!(report.contains("- exit code: 1"), "{report}");
    assert!(
        report.contains("kafka/server-0.properties:28:34"),
        "{report}"
    );
    assert!(
        report.contains(
            "broker 0 (server-0.properties): offsets.topic.replication.factor=1 on 3 brokers"
        ),
        "{report}"
    );
    assert!(
        report.contains(
            "Found 6 errors, 1 warning, 3 notes (3 files in 1 cluster, checked against Kafka 3.9)."
        ),
        "{report}"
    );
    assert_eq!(commits(dir), 1, "the commit was refused");

    // Fixed: it goes through.
    copy_fixture("fixtures/seed-zk-3-brokers-fixed", &dir.join("kafka"));
    let output = commit(dir, "three brokers, replicated");
    assert!(output.status.success(), "{}", text(&output));
    assert!(hook_line(&output).ends_with("Passed"), "{}", text(&output));
    assert_eq!(commits(dir), 2);

    // A change to no Kafka file does not run it.
    std::fs::write(dir.join("NOTES.md"), "brokers in kafka/\n").unwrap();
    let output = commit(dir, "notes");
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        hook_line(&output).ends_with("(no files to check)Skipped"),
        "{}",
        text(&output)
    );
    assert_eq!(commits(dir), 3);
}

#[test]
fn the_hook_runs_on_properties_yaml_terraform_and_template_files_only() {
    // The hook's `files:` regex, read from the committed hook definition and matched as
    // pre-commit matches it (Python's `re.search` on the path from the repository's root).
    // Every `.properties` file may be a node file (discovery also reads the keys), and
    // `--with-cluster` passes over the others.
    let hooks = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let files = hooks
        .lines()
        .find_map(|line| line.trim().strip_prefix("files: "))
        .expect("a files: pattern");
    let python = Command::new("python3")
        .arg("-c")
        .arg(
            "import re, sys\n\
             pattern = re.compile(sys.argv[1])\n\
             for name in sys.argv[2:]:\n\
             \x20   print(name, bool(pattern.search(name)))",
        )
        .arg(files)
        .args([
            "server.properties",
            "kafka/server-0.properties",
            "a/b/broker.properties",
            "SERVER.PROPERTIES",
            "kafka/kafka-0.properties",
            "kafka/client.properties",
            "kafka/server.properties.bak",
            "kafka/properties",
            "kafka/README.md",
            "docker-compose.yml",
            "k8s/kafka.yaml",
            ".pre-commit-config.yaml",
            "terraform/kafka.tf",
            "terraform/terraform.tfvars",
            "terraform/.terraform.lock.hcl",
            "roles/kafka/templates/server.properties.j2",
            "roles/kafka/templates/kafka.service.j2",
        ])
        .output()
        .unwrap();
    let found = String::from_utf8(python.stdout).unwrap();
    assert_eq!(
        found,
        "server.properties True\n\
         kafka/server-0.properties True\n\
         a/b/broker.properties True\n\
         SERVER.PROPERTIES True\n\
         kafka/kafka-0.properties True\n\
         kafka/client.properties True\n\
         kafka/server.properties.bak False\n\
         kafka/properties False\n\
         kafka/README.md False\n\
         docker-compose.yml True\n\
         k8s/kafka.yaml True\n\
         .pre-commit-config.yaml False\n\
         terraform/kafka.tf True\n\
         terraform/terraform.tfvars False\n\
         terraform/.terraform.lock.hcl False\n\
         roles/kafka/templates/server.properties.j2 True\n\
         roles/kafka/templates/kafka.service.j2 False\n",
        "{}",
        String::from_utf8_lossy(&python.stderr)
    );
}

#[test]
fn a_change_to_one_broker_meets_its_siblings() {
    let repo = repository();
    let dir = repo.path();
    copy_fixture("fixtures/seed-zk-3-brokers-fixed", &dir.join("kafka"));
    let output = commit(dir, "three brokers");
    assert!(output.status.success(), "{}", text(&output));

    // Broker 1 alone moves to another ZooKeeper chroot: the commit changes one file, and the
    // hook still compares it with the brokers beside it.
    let broker = dir.join("kafka/server-1.properties");
    let before = std::fs::read_to_string(&broker).unwrap();
    let after = before.replace(
        "zookeeper.connect=localhost:2182\n",
        "zookeeper.connect=localhost:2182/kafka\n",
    );
    assert_ne!(before, after);
    std::fs::write(&broker, &after).unwrap();
    let output = commit(dir, "broker 1 on a chroot");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report = text(&output);
    assert!(report.contains("inconsistent-cluster-value"), "{report}");
    assert!(
        report.contains("╭─[kafka/server-1.properties:42:19]")
            && report.contains("broker 1 (server-1.properties): `localhost:2182/kafka`"),
        "{report}"
    );
    // Within its cluster of 3: no finding that it is a cluster of one.
    assert!(
        !report.contains("the cluster has 1 broker") && !report.contains("on 1 broker"),
        "{report}"
    );
    assert!(
        report.contains(
            "Found 1 error, 0 warnings (3 files in 1 cluster, checked against Kafka 3.9)."
        ),
        "{report}"
    );
    assert_eq!(commits(dir), 1);

    // The other two follow it: consistent again.
    for sibling in ["server-0.properties", "server-2.properties"] {
        let path = dir.join("kafka").join(sibling);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace(
                "zookeeper.connect=localhost:2182\n",
                "zookeeper.connect=localhost:2182/kafka\n",
            ),
        )
        .unwrap();
    }
    let output = commit(dir, "all brokers on the chroot");
    assert!(output.status.success(), "{}", text(&output));
    assert!(hook_line(&output).ends_with("Passed"), "{}", text(&output));
    assert_eq!(commits(dir), 2);
}

#[test]
fn only_findings_about_the_changed_files_block_a_commit() {
    let repo = repository();
    let dir = repo.path();
    // A cluster with known problems, committed before the hook (`--no-verify`), and a clean
    // one beside it.
    copy_fixture("fixtures/seed-zk-3-brokers", &dir.join("legacy"));
    copy_fixture("fixtures/seed-zk-3-brokers-fixed", &dir.join("kafka"));
    git_ok(dir, &["add", "-A"]);
    git_ok(dir, &["commit", "-q", "--no-verify", "-m", "two clusters"]);

    // A change to one broker of the clean cluster: the legacy cluster's findings are not its.
    let broker = dir.join("kafka/server-2.properties");
    let text_before = std::fs::read_to_string(&broker).unwrap();
    std::fs::write(
        &broker,
        text_before.replace("num.io.threads=8\n", "num.io.threads=16\n"),
    )
    .unwrap();
    // And a client file: passed to the hook, passed over by it.
    std::fs::write(
        dir.join("kafka/client.properties"),
        "bootstrap.servers=localhost:9092\n",
    )
    .unwrap();
    let output = commit(dir, "more io threads on broker 2, a client config");
    assert!(output.status.success(), "{}", text(&output));
    assert!(hook_line(&output).ends_with("Passed"), "{}", text(&output));
    assert_eq!(commits(dir), 2);

    // A change to the legacy cluster meets its own findings.
    let legacy = dir.join("legacy/server-1.properties");
    let text_before = std::fs::read_to_string(&legacy).unwrap();
    std::fs::write(
        &legacy,
        text_before.replace("num.io.threads=8\n", "num.io.threads=16\n"),
    )
    .unwrap();
    let output = commit(dir, "more io threads on a legacy broker");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    let report = text(&output);
    assert!(
        report.contains("╭─[legacy/server-1.properties:28:34]"),
        "{report}"
    );
    assert!(
        !report.contains("legacy/server-0.properties:28"),
        "{report}"
    );
    assert!(
        report.contains("Found 2 errors, 1 warning, 1 note (3 files in 1 cluster"),
        "{report}"
    );
    assert_eq!(commits(dir), 2);

    // A commit that only deletes a file passes none to the hook.
    git_ok(dir, &["reset", "-q", "--hard"]);
    git_ok(dir, &["rm", "-q", "kafka/client.properties"]);
    let output = git(dir, &["commit", "-q", "-m", "no client config"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        hook_line(&output).ends_with("(no files to check)Skipped"),
        "{}",
        text(&output)
    );
}
