//! Helpers shared by test targets (`mod support;`): the official SARIF 2.1.0 schema, and
//! checking a fixture folder as `kafkalint check` or `kafkalint live --snapshot` does. Each
//! target uses some of them (hence `allow(dead_code)`).

use std::path::Path;

use serde_json::Value;

/// A validator for the official OASIS SARIF 2.1.0 schema (`tests/sarif/`).
#[allow(dead_code)]
pub fn schema_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sarif/sarif-schema-2.1.0.json"),
    )
    .unwrap();
    // The official schema's two `language` patterns end in a stray `]`, which ECMA-262 (the
    // dialect JSON Schema names) reads as a literal and Rust's regex engines refuse. They are
    // given here in the form both read the same way (`\]`); the file stays as published.
    let stray = r#""pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(
        text.matches(stray).count(),
        2,
        "the schema changed: revisit this"
    );
    let text = text.replace(
        stray,
        r#""pattern": "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}\\]?$""#,
    );
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["$id"],
        "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json"
    );
    jsonschema::validator_for(&schema).unwrap()
}

#[allow(dead_code)]
pub fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}

/// What a fixture or doc example gives: the report, and the reassignment `kafkalint live
/// --fix` would write (live rules only).
#[allow(dead_code)]
pub struct Checked {
    pub report: kafkalint::Report,
    pub plan: Option<kafkalint::live::plan::Plan>,
}

/// Checks a fixture folder as `kafkalint check` does; a folder holding `live.snapshot` (what a
/// running cluster answered) as `kafkalint live --snapshot live.snapshot` does, beside the
/// folder's broker files when it has any, with the arguments of `live.args` (`--group ID` and
/// `--stopping ID`, one a line).
#[allow(dead_code)]
pub fn check_folder(dir: &Path, options: &kafkalint::Options) -> Checked {
    let snapshot = dir.join("live.snapshot");
    if !snapshot.is_file() {
        return Checked {
            report: kafkalint::check(&[dir.to_path_buf()], options).unwrap(),
            plan: None,
        };
    }
    let mut live = kafkalint::live::judge::LiveOptions::default();
    if let Ok(args) = std::fs::read_to_string(dir.join("live.args")) {
        for line in args.lines().filter(|line| !line.trim().is_empty()) {
            match line.split_once(' ') {
                Some(("--group", id)) => live.groups.push(id.to_string()),
                Some(("--stopping", id)) => live.stopping = Some(id.trim().parse().unwrap()),
                _ => panic!(
                    "{}: live.args takes --group ID and --stopping ID",
                    dir.display()
                ),
            }
        }
    }
    let has_files = std::fs::read_dir(dir).unwrap().any(|entry| {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        !name.starts_with('.') && !name.starts_with("live.")
    });
    let paths = if has_files {
        vec![dir.to_path_buf()]
    } else {
        Vec::new()
    };
    let bytes = std::fs::read(&snapshot).unwrap();
    let document = kafkalint::live::snapshot::document(snapshot.display().to_string(), bytes);
    let judged = kafkalint::check_live(document, &paths, options, &live).unwrap();
    Checked {
        report: judged.report,
        plan: judged.plan,
    }
}

/// The test suites that run an external tool, and the tools each needs. `scripts/test-all`
/// installs all of them; plain `cargo test` skips a suite whose tool is missing.
#[allow(dead_code)]
pub const EXTERNAL: &[(&str, &[&str])] = &[
    ("tests/ansible_differential.rs", &["ansible-python"]),
    (
        "tests/action.rs (release download)",
        &["python3", "curl", "sha256sum", "tar"],
    ),
    ("tests/book.rs (the built book)", &["mdbook"]),
    ("tests/compose_env.rs", &["go"]),
    ("tests/coordinator.rs (Java's hashCode)", &["javac", "java"]),
    ("tests/docker_wrapper.rs", &["java", "mvn"]),
    ("tests/editors.rs (Neovim)", &["nvim"]),
    (
        "tests/editors.rs (pytest-lsp)",
        &["pytest", "pytest-plugin:pytest-lsp"],
    ),
    ("tests/formats.rs (junitparser)", &["junit-read"]),
    ("tests/helm.rs", &["helm"]),
    ("tests/kustomize.rs", &["kustomize"]),
    ("tests/layouts.rs (rendered charts)", &["helm"]),
    ("tests/oracle.rs", &["java", "mvn"]),
    ("tests/precommit.rs", &["git", "python3", "pre-commit"]),
    (
        "tests/precommit.rs (wheel)",
        &["git", "python3", "pre-commit", "maturin", "package-index"],
    ),
    ("tests/properties_differential.rs", &["javac", "java"]),
    ("tests/wheel.rs", &["python3", "maturin"]),
    ("tests/workflows.rs", &["actionlint"]),
    ("tests/yaml_differential.rs", &["go"]),
];

/// Set by `scripts/test-all`: every suite runs, and a missing tool fails its test.
#[allow(dead_code)]
pub const FULL: &str = "KAFKALINT_FULL_TESTS";

/// A tool of [`EXTERNAL`]: a program on the PATH, or `pytest-plugin:NAME`, a plugin the
/// `pytest` on the PATH loads by its entry point's name (a pytest without pytest-lsp collects no
/// test of the suite: that is a missing tool, not a failure). The entry point's name, not the
/// module's: `-p pytest_lsp` where the plugin is installed registers it twice and fails.
fn present(tool: &str) -> bool {
    match tool.strip_prefix("pytest-plugin:") {
        // `--help` loads the plugins named with `-p` (`--version` returns before it does), and
        // exits non-zero when one cannot be imported.
        Some(plugin) => std::process::Command::new("pytest")
            .args(["-p", plugin, "--help"])
            .output()
            .is_ok_and(|output| output.status.success()),
        None => on_path(tool),
    }
}

fn on_path(tool: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        let candidate = dir.join(tool);
        std::fs::metadata(&candidate).is_ok_and(|meta| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                meta.is_file() && meta.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            {
                meta.is_file()
            }
        }) || (cfg!(windows) && dir.join(format!("{tool}.exe")).is_file())
    })
}

/// Whether the suite `suite` (a key of [`EXTERNAL`]) can run: true when its tools are on the
/// PATH. When one is missing, fails the test under `scripts/test-all` ([`FULL`]); under plain
/// `cargo test` returns false (the test returns early) and prints the notice of what was
/// skipped, once per `cargo test` run.
#[allow(dead_code)]
pub fn external_tools(suite: &str) -> bool {
    let (_, tools) = EXTERNAL
        .iter()
        .find(|(name, _)| *name == suite)
        .unwrap_or_else(|| panic!("{suite} is not in support::EXTERNAL"));
    let missing: Vec<&str> = tools.iter().copied().filter(|t| !present(t)).collect();
    if missing.is_empty() {
        return true;
    }
    if std::env::var_os(FULL).is_some_and(|v| v == "1") {
        panic!(
            "{suite} needs {} on the PATH, which is missing (scripts/test-all installs it)",
            missing.join(", ")
        );
    }
    notice_once();
    skipped(suite, &missing);
    false
}

/// Prints `SKIP <test>: <suite> needs <tools>` for a test that returns early for want of a
/// tool, on the process's standard error directly, past the harness's capture: libtest can
/// only report such a test `ok` (a test cannot mark itself ignored once it runs, and `#[ignore]`
/// is fixed when the test is compiled, before the tools on the PATH are known), so this line is
/// what tells it apart. `scripts/test-all` fails such a test instead.
fn skipped(suite: &str, missing: &[&str]) {
    use std::io::Write;
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    let line = format!("SKIP {test}: {suite} needs {}\n", missing.join(", "));
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// Prints, once per `cargo test` run, which suites are skipped for want of a tool. The test
/// binaries of one run are children of one cargo process: the first of them to skip creates a
/// marker under `target/tmp` named after that process (its id and start time), and prints; the
/// others find the marker. Written to the process's standard error directly, past the test
/// harness's capture, so that it shows in a passing run.
fn notice_once() {
    use std::io::Write;
    #[cfg(unix)]
    let parent = std::os::unix::process::parent_id();
    #[cfg(not(unix))]
    let parent = 0;
    // The start time tells apart two runs whose cargo had the same process id.
    let started = std::fs::read_to_string(format!("/proc/{parent}/stat"))
        .ok()
        .and_then(|stat| {
            let after_name = stat.rsplit_once(')')?.1.to_string();
            after_name.split_whitespace().nth(19).map(str::to_string)
        })
        .unwrap_or_default();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skip-notices");
    let _ = std::fs::create_dir_all(&dir);
    let marker = dir.join(format!("{parent}-{started}"));
    if std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&marker)
        .is_err()
    {
        return;
    }
    let mut text = String::from(
        "\nnote: suites skipped, their tools are not on the PATH (scripts/test-all installs them \
         and runs every test):\n",
    );
    for (suite, tools) in EXTERNAL {
        let missing: Vec<&str> = tools.iter().copied().filter(|t| !present(t)).collect();
        if !missing.is_empty() {
            text.push_str(&format!("  {suite}: needs {}\n", missing.join(", ")));
        }
    }
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// `kafkalint ARGS` in `dir` with `input` on standard input.
#[allow(dead_code)]
pub fn kafkalint_stdin(args: &[&str], input: &[u8], dir: &Path) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // A usage error exits before reading: a closed pipe is no failure of the test.
    let written = child.stdin.take().unwrap().write_all(input);
    assert!(written.is_ok() || written.unwrap_err().kind() == std::io::ErrorKind::BrokenPipe);
    child.wait_with_output().expect("runs")
}

/// What an oracle program printed: one JSON value a line, `expected` of them (one per input),
/// after it succeeded.
#[allow(dead_code)]
pub fn json_lines(output: std::process::Output, expected: usize) -> Vec<Value> {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), expected, "one answer per input");
    answers
}

/// Every fixture cluster, sorted: `fixtures/<rule>/<case>/`, or `fixtures/<name>/` when it holds
/// files only. Paths relative to the crate's root (the tests' working folder).
#[allow(dead_code)]
pub fn fixture_clusters() -> Vec<std::path::PathBuf> {
    let mut clusters = Vec::new();
    for entry in std::fs::read_dir("fixtures").unwrap() {
        let path = entry.unwrap().path();
        let children: Vec<std::path::PathBuf> = std::fs::read_dir(&path)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .collect();
        if children.is_empty() {
            clusters.push(path);
        } else {
            clusters.extend(children);
        }
    }
    clusters.sort();
    clusters
}

/// `maturin build --release` of this checkout's Python wheel into `out`; the one wheel it
/// writes. The build uses a target folder under `target/` shared with the other tests that
/// build a release binary, so that a rerun builds incrementally.
#[allow(dead_code)]
pub fn build_wheel(out: &Path) -> std::path::PathBuf {
    let mut command = std::process::Command::new("maturin");
    command
        .args(["build", "--release", "--locked", "--quiet", "--out"])
        .arg(out);
    // On Linux as the release builds it: the static musl binary, tagged for glibc and musl.
    if cfg!(target_os = "linux") {
        let target = format!("{}-unknown-linux-musl", std::env::consts::ARCH);
        command.args([
            "--target",
            &target,
            "--compatibility",
            "manylinux2014",
            "musllinux_1_2",
        ]);
    }
    let output = command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env(
            "CARGO_TARGET_DIR",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-install"),
        )
        .output()
        .expect("maturin runs");
    assert!(
        output.status.success(),
        "maturin build:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let wheels: Vec<std::path::PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert_eq!(wheels.len(), 1, "{wheels:?}");
    wheels.into_iter().next().unwrap()
}
