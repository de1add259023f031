//! The pre-commit hooks (`.pre-commit-hooks.yaml`) as a user meets them: the real pre-commit (from
//! PyPI; `scripts/test-all` installs it) in a scratch git repository whose
//! `.pre-commit-config.yaml` is the snippet of docs/src/integrations.md with `repo:` pointed at
//! this checkout and `rev:` at its `HEAD`, installed as the repository's git hook, so that
//! `git commit` runs it. The `kafkalint` hook builds kafkalint; `kafkalint-system` runs the one on
//! the `PATH`, here the binary this test run built.
//!
//! pre-commit clones `rev`: the test checks this checkout's COMMITTED state, not its working
//! tree. Commit the hook and the code before trusting a run. It builds kafkalint as users' machines
//! do (`cargo install`), once per test run (a fresh `PRE_COMMIT_HOME`), into a target folder kept
//! under `target/` so that a rerun builds incrementally.

mod support;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What every git and pre-commit command of the test runs with: no user or system git config
/// (a global `core.hooksPath` would stop `pre-commit install`), one pre-commit cache.
fn isolated(command: &mut Command) -> &mut Command {
    let home = isolated_home();
    command
        .env("GIT_CONFIG_GLOBAL", home.join("gitconfig"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("PRE_COMMIT_HOME", home.join("pre-commit"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-install"),
        )
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
}

/// The folder of the empty git config and the pre-commit cache, one for the test run.
fn isolated_home() -> &'static Path {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("gitconfig"), "").unwrap();
        home
    })
    .path()
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

/// Which hook a scratch repository's config uses.
#[derive(Clone, Copy, PartialEq)]
enum Hook {
    /// `kafkalint` of the kafkalint-pre-commit repository: pre-commit installs the wheel
    /// (`language: python`).
    Wheel,
    /// `kafkalint`: pre-commit builds it (`language: rust`).
    Built,
    /// `kafkalint-system`: the kafkalint on the `PATH`.
    System,
}

impl Hook {
    /// The docs section whose first `yaml` block configures the hook.
    fn section(self) -> &'static str {
        match self {
            Hook::Wheel => "\n## pre-commit\n",
            Hook::Built => "\n### Built from source\n",
            Hook::System => "\n### An installed kafkalint\n",
        }
    }

    /// The start of the hook's line in pre-commit's report (its `name:`, then dots).
    fn line_start(self) -> &'static str {
        match self {
            Hook::Wheel | Hook::Built => "kafkalint.",
            Hook::System => "kafkalint (installed).",
        }
    }

    /// The repository the docs name, and where and at which rev the test has it: this
    /// checkout's `HEAD`, or for the wheel hook a repository made from `packaging/pre-commit`
    /// and tagged as the release workflow tags it.
    fn source(self) -> (&'static str, &'static Path, String) {
        match self {
            Hook::Wheel => (
                "https://github.com/kafkalint/kafkalint-pre-commit",
                mirror(),
                format!("v{}", env!("CARGO_PKG_VERSION")),
            ),
            Hook::Built | Hook::System => (
                "https://github.com/kafkalint/kafkalint",
                root(),
                git_ok(root(), &["rev-parse", "HEAD"]).trim().to_string(),
            ),
        }
    }
}

/// The kafkalint-pre-commit repository as the release workflow publishes it: the files of
/// `packaging/pre-commit`, committed and tagged `v<version>`.
fn mirror() -> &'static Path {
    static MIRROR: OnceLock<tempfile::TempDir> = OnceLock::new();
    MIRROR
        .get_or_init(|| {
            let mirror = tempfile::tempdir().unwrap();
            let dir = mirror.path();
            for entry in std::fs::read_dir(root().join("packaging/pre-commit")).unwrap() {
                let entry = entry.unwrap();
                std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
            }
            git_ok(dir, &["init", "-q"]);
            git_ok(dir, &["add", "-A"]);
            git_ok(
                dir,
                &[
                    "-c",
                    "user.name=Release",
                    "-c",
                    "user.email=release@example.com",
                    "commit",
                    "-q",
                    "-m",
                    "release",
                ],
            );
            git_ok(dir, &["tag", &format!("v{}", env!("CARGO_PKG_VERSION"))]);
            mirror
        })
        .path()
}

/// The docs' `.pre-commit-config.yaml` for the hook, pointed at the test's copy of its
/// repository.
fn config_from_docs(hook: Hook) -> String {
    let docs = std::fs::read_to_string(root().join("docs/src/integrations.md")).unwrap();
    let section = docs
        .split(hook.section())
        .nth(1)
        .expect("docs/src/integrations.md has the hook's section");
    let snippet = section
        .split("```yaml\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the section has a yaml block");
    let (url, local, rev) = hook.source();
    let mut replaced = (0, 0);
    let config: Vec<String> = snippet
        .lines()
        .map(|line| {
            let indent = &line[..line.len() - line.trim_start().len()];
            if line.trim_start() == format!("- repo: {url}") {
                replaced.0 += 1;
                format!("{indent}- repo: {}", local.display())
            } else if line.trim_start().starts_with("rev: v") {
                replaced.1 += 1;
                format!("{indent}rev: {rev}")
            } else {
                line.to_string()
            }
        })
        .collect();
    assert_eq!(replaced, (1, 1), "the snippet changed shape:\n{snippet}");
    let id = match hook {
        Hook::Wheel | Hook::Built => "- id: kafkalint\n",
        Hook::System => "- id: kafkalint-system\n",
    };
    let config = config.join("\n") + "\n";
    assert!(config.contains(id), "{config}");
    config
}

/// A folder holding only the kafkalint this test run built, for the `PATH` of the system hook.
fn installed_kafkalint() -> &'static Path {
    static BIN: OnceLock<tempfile::TempDir> = OnceLock::new();
    BIN.get_or_init(|| {
        let bin = tempfile::tempdir().unwrap();
        std::fs::copy(
            env!("CARGO_BIN_EXE_kafkalint"),
            bin.path().join("kafkalint"),
        )
        .unwrap();
        bin
    })
    .path()
}

/// The `PATH` with `bin` first.
fn path_with(bin: &Path) -> std::ffi::OsString {
    let mut dirs = vec![bin.to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(dirs).unwrap()
}

/// The `PATH` without its folders that hold `program`.
fn path_without(program: &str) -> std::ffi::OsString {
    let dirs = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|dir| !dir.join(program).exists())
        .collect::<Vec<_>>();
    std::env::join_paths(dirs).unwrap()
}

/// A scratch repository with the docs' config committed and the hook installed.
fn repository() -> tempfile::TempDir {
    repository_with(Hook::Built)
}

fn repository_with(hook: Hook) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let dir = repo.path();
    git_ok(dir, &["init", "-q"]);
    git_ok(dir, &["config", "user.name", "Test"]);
    git_ok(dir, &["config", "user.email", "test@example.com"]);
    git_ok(dir, &["config", "commit.gpgsign", "false"]);
    std::fs::write(dir.join(".pre-commit-config.yaml"), config_from_docs(hook)).unwrap();
    let install = isolated(Command::new("pre-commit").arg("install").current_dir(dir))
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

/// `git commit -am` with `bin` first on the `PATH`.
fn commit_with_path(dir: &Path, message: &str, bin: &Path) -> Output {
    git_ok(dir, &["add", "-A"]);
    isolated(
        Command::new("git")
            .args(["commit", "-q", "-m", message])
            .current_dir(dir)
            .env("PATH", path_with(bin)),
    )
    .output()
    .expect("git runs")
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
    hook_line_of(Hook::Built, output)
}

fn hook_line_of(hook: Hook, output: &Output) -> String {
    text(output)
        .lines()
        .find(|line| line.starts_with(hook.line_start()))
        .unwrap_or_else(|| panic!("no line for the hook: {}", text(output)))
        .to_string()
}

#[test]
fn a_commit_that_breaks_a_cluster_fails_and_its_fix_goes_through() {
    if !support::external_tools("tests/precommit.rs") {
        return;
    }
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
            "kafka/server-0.properties:28:34: error[internal-topic-replication] \
             offsets.topic.replication.factor=1: one broker down"
        ),
        "{report}"
    );
    assert!(
        report.contains(
            "Found 6 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9)."
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
    if !support::external_tools("tests/precommit.rs") {
        return;
    }
    // The hook's `files:` regex, read from the committed hook definition and matched as
    // pre-commit matches it (Python's `re.search` on the path from the repository's root).
    // Every `.properties` file may be a node file (discovery also reads the keys), and
    // `--with-cluster` passes over the others.
    let hooks = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let patterns: Vec<&str> = hooks
        .lines()
        .filter_map(|line| line.trim().strip_prefix("files: "))
        .collect();
    // Both hooks take the same files to the same command.
    assert_eq!(patterns.len(), 2, "{hooks}");
    assert_eq!(patterns[0], patterns[1]);
    let entries: Vec<&str> = hooks
        .lines()
        .filter_map(|line| line.trim().strip_prefix("entry: "))
        .collect();
    assert_eq!(
        entries,
        [
            "kafkalint check --with-cluster --format concise",
            "kafkalint check --with-cluster --format concise"
        ]
    );
    let files = patterns[0];
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
    if !support::external_tools("tests/precommit.rs") {
        return;
    }
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
        report.contains("kafka/server-1.properties:42:19: error[inconsistent-cluster-value]")
            && report.contains("zookeeper.connect differs between nodes"),
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
    if !support::external_tools("tests/precommit.rs") {
        return;
    }
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
        report.contains("legacy/server-1.properties:28:34: error[internal-topic-replication]"),
        "{report}"
    );
    assert!(
        !report.contains("legacy/server-0.properties:28"),
        "{report}"
    );
    assert!(
        report.contains("Found 2 errors, 1 warning, 1 info (3 files in 1 cluster"),
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

#[test]
fn the_system_hook_runs_the_installed_kafkalint() {
    if !support::external_tools("tests/precommit.rs") {
        return;
    }
    let repo = repository_with(Hook::System);
    let dir = repo.path();
    let installed = installed_kafkalint();
    let output = commit_with_path(dir, "pre-commit config", installed);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        hook_line_of(Hook::System, &output).ends_with("(no files to check)Skipped"),
        "{}",
        text(&output)
    );

    // The seed: refused with the installed kafkalint's report, one line per finding.
    copy_fixture("fixtures/seed-zk-3-brokers", &dir.join("kafka"));
    let output = commit_with_path(dir, "three brokers", installed);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        hook_line_of(Hook::System, &output).ends_with("Failed"),
        "{}",
        text(&output)
    );
    let report = text(&output);
    assert!(
        report.contains(
            "kafka/server-0.properties:28:34: error[internal-topic-replication] \
             offsets.topic.replication.factor=1: one broker down"
        ),
        "{report}"
    );
    assert!(
        report.contains(
            "Found 6 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9)."
        ),
        "{report}"
    );
    assert_eq!(commits(dir), 1, "the commit was refused");

    // Without kafkalint on the PATH the hook cannot run, and says so: it builds nothing.
    let hidden: Vec<std::path::PathBuf> =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .filter(|dir| !dir.join("kafkalint").exists())
            .collect();
    git_ok(dir, &["add", "-A"]);
    let output = isolated(
        Command::new("git")
            .args(["commit", "-q", "-m", "no kafkalint"])
            .current_dir(dir)
            .env("PATH", std::env::join_paths(hidden).unwrap()),
    )
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        text(&output).contains("Executable `kafkalint` not found"),
        "{}",
        text(&output)
    );

    // Fixed: it goes through.
    copy_fixture("fixtures/seed-zk-3-brokers-fixed", &dir.join("kafka"));
    let output = commit_with_path(dir, "three brokers, replicated", installed);
    assert!(output.status.success(), "{}", text(&output));
    assert!(
        hook_line_of(Hook::System, &output).ends_with("Passed"),
        "{}",
        text(&output)
    );
    assert_eq!(commits(dir), 2);
}

/// A local package index (`package-index`, pypiserver on 127.0.0.1 as `scripts/test-all`
/// installs it) serving `folder`, stopped on drop.
struct PackageIndex {
    child: std::process::Child,
    url: String,
}

impl Drop for PackageIndex {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PackageIndex {
    fn serve(folder: &Path) -> PackageIndex {
        // A port free now; the server takes it a moment later.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new("package-index")
            .arg(port.to_string())
            .arg(folder)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("package-index runs");
        let started = std::time::Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "the package index did not start on port {port}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        PackageIndex {
            child,
            url: format!("http://127.0.0.1:{port}/simple/"),
        }
    }
}

#[test]
fn the_wheel_hook_installs_kafkalint_from_the_package_index_without_compiling() {
    if !support::external_tools("tests/precommit.rs (wheel)") {
        return;
    }
    let docs = config_from_docs(Hook::Wheel);
    assert!(
        docs.contains(&format!("rev: v{}\n", env!("CARGO_PKG_VERSION"))),
        "the docs name this release: {docs}"
    );
    let index = tempfile::tempdir().unwrap();
    support::build_wheel(index.path());
    let index = PackageIndex::serve(index.path());

    let repo = repository_with(Hook::Wheel);
    let dir = repo.path();
    copy_fixture("fixtures/seed-zk-3-brokers", &dir.join("kafka"));
    git_ok(dir, &["add", "-A"]);
    let started = std::time::Instant::now();
    let output = isolated(
        Command::new("git")
            .args(["commit", "-q", "-m", "three brokers"])
            .current_dir(dir)
            // No cargo on the PATH: a hook that compiled would fail.
            .env("PATH", path_without("cargo"))
            .env("PIP_INDEX_URL", &index.url)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1"),
    )
    .output()
    .expect("git runs");
    let first_run = started.elapsed();
    eprintln!(
        "the wheel hook's first run (environment, install from the index, check): {:.1} s",
        first_run.as_secs_f64()
    );
    assert_eq!(output.status.code(), Some(1), "{}", text(&output));
    assert!(
        hook_line_of(Hook::Wheel, &output).ends_with("Failed"),
        "{}",
        text(&output)
    );
    let report = text(&output);
    assert!(
        report.contains("kafka/server-0.properties:28:34: error[internal-topic-replication]"),
        "{report}"
    );
    assert!(
        !git(dir, &["rev-parse", "--verify", "-q", "HEAD"])
            .status
            .success(),
        "the commit was refused"
    );
    // The hook's environment holds the wheel's binary, installed by pip: not a build.
    fn wheel_binary_in(dir: &Path, in_py_env: bool) -> bool {
        std::fs::read_dir(dir).into_iter().flatten().any(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_symlink() {
                false
            } else if path.is_dir() {
                wheel_binary_in(&path, in_py_env || name.starts_with("py_env-"))
            } else {
                in_py_env && name == "kafkalint" && dir.ends_with("bin")
            }
        })
    }
    let installed = wheel_binary_in(&isolated_home().join("pre-commit"), false);
    assert!(
        installed,
        "no kafkalint in a python environment of pre-commit"
    );
}
