//! The GitHub Action (`action.yml`) run here as the runner runs a composite action: each `run:`
//! step with `bash --noprofile --norc -eo pipefail {0}`, in the workspace, with the environment
//! the runner gives it (`GITHUB_ACTION_PATH`, `GITHUB_WORKSPACE`, a fresh `GITHUB_OUTPUT` and
//! `GITHUB_STEP_SUMMARY` per step, `RUNNER_TEMP`, `RUNNER_TOOL_CACHE`) and its `env:` with the
//! `${{ }}` expressions it uses evaluated (any other expression fails the test). `uses:` steps
//! cannot run here: the cache restore and save are skipped by name, as a cache miss.
//!
//! The install step really builds kafkalint from this checkout (`cargo install --locked`), once
//! per test run: the scenarios share one tool cache, as the jobs of one runner do.
//! `CARGO_TARGET_DIR` points at a folder of its own under `target/` (`cargo install --path`
//! would use the checkout's `target/`, which `cargo test` holds locked), kept so that a rerun
//! builds incrementally.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;
use yaml_rust2::{Yaml, YamlLoader};

mod support;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The `uses:` steps the test cannot run, skipped as a runner without a cache would see them.
const SKIPPED_USES: [&str; 3] = [
    "actions/cache/restore@v4",
    "actions/cache/save@v4",
    "github/codeql-action/upload-sarif@v4",
];

fn action() -> Yaml {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    YamlLoader::load_from_str(&text)
        .unwrap()
        .into_iter()
        .next()
        .unwrap()
}

fn text(yaml: &Yaml) -> Option<String> {
    match yaml {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn map(yaml: &Yaml) -> Vec<(String, &Yaml)> {
    match yaml {
        Yaml::Hash(hash) => hash
            .iter()
            .map(|(k, v)| (k.as_str().unwrap().to_string(), v))
            .collect(),
        Yaml::BadValue => Vec::new(),
        other => panic!("not a mapping: {other:?}"),
    }
}

/// What expressions can see.
struct Context<'a> {
    inputs: &'a BTreeMap<String, String>,
    used_at: &'a UsedAt,
    workspace: &'a Path,
    steps: &'a BTreeMap<String, BTreeMap<String, String>>,
}

/// Replaces each `${{ expression }}` in `template`; only the expressions action.yml needs.
fn evaluate(template: &str, context: &Context) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .unwrap_or_else(|| panic!("unclosed expression in {template:?}"));
        let expression = rest[start + 3..start + end].trim();
        let parts: Vec<&str> = expression.split('.').collect();
        let value = match parts.as_slice() {
            ["inputs", name] => context
                .inputs
                .get(*name)
                .unwrap_or_else(|| panic!("`{expression}`: no such input"))
                .clone(),
            ["github", "action_path"] => context.used_at.path.display().to_string(),
            ["github", "action_ref"] => context.used_at.reference.clone(),
            ["runner", "os"] => "Linux".to_string(),
            ["runner", "arch"] => runner_arch().to_string(),
            ["github", "workspace"] => context.workspace.display().to_string(),
            // As on GitHub, an output a step did not set is empty.
            ["steps", id, "outputs", name] => context
                .steps
                .get(*id)
                .and_then(|outputs| outputs.get(*name))
                .cloned()
                .unwrap_or_default(),
            _ => panic!("`{expression}`: an expression this test does not evaluate"),
        };
        out.push_str(&value);
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    out
}

/// A `GITHUB_OUTPUT` file as the runner reads it: `name=value` lines and
/// `name<<DELIMITER` ... `DELIMITER` blocks.
fn read_outputs(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut outputs = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.is_empty() {
            continue;
        }
        if let Some((name, delimiter)) = line.split_once("<<") {
            let mut value = Vec::new();
            loop {
                let next = lines
                    .next()
                    .unwrap_or_else(|| panic!("{name}: no closing delimiter {delimiter:?}"));
                if next == delimiter {
                    break;
                }
                value.push(next);
            }
            outputs.insert(name.to_string(), value.join("\n"));
        } else {
            let (name, value) = line
                .split_once('=')
                .unwrap_or_else(|| panic!("not an output line: {line:?}"));
            outputs.insert(name.to_string(), value.to_string());
        }
    }
    outputs
}

/// What one run of the action did.
#[derive(Debug)]
struct Run {
    /// Each step's name and what it printed (stdout, then stderr), in order; skipped steps
    /// say so.
    logs: Vec<(String, String)>,
    /// The first failing step's exit status, or 0.
    status: i32,
    /// The step summaries, joined as the runner joins them.
    summary: String,
    /// The action's outputs.
    outputs: BTreeMap<String, String>,
    /// The `with:` of each skipped `uses:` step whose `if:` holds, evaluated, by the action used.
    used: BTreeMap<String, BTreeMap<String, String>>,
    /// `RUNNER_TEMP`, kept as long as the run is looked at (the SARIF log may be there).
    runner_temp: tempfile::TempDir,
}

impl Run {
    fn log(&self, step: &str) -> &str {
        &self
            .logs
            .iter()
            .find(|(name, _)| name == step)
            .unwrap_or_else(|| panic!("no step {step:?}: {:?}", self.logs))
            .1
    }

    fn annotations(&self, command: &str) -> Vec<String> {
        self.log("Check Kafka configuration")
            .lines()
            .filter(|line| line.starts_with(&format!("::{command} ")))
            .map(str::to_string)
            .collect()
    }
}

/// The runner's tool cache, shared by every run of this test process.
fn tool_cache() -> &'static Path {
    static CACHE: OnceLock<tempfile::TempDir> = OnceLock::new();
    CACHE.get_or_init(|| tempfile::tempdir().unwrap()).path()
}

/// Runs the action with the `with:` inputs in a workspace holding `files` (path, bytes).
fn run_action(with: &[(&str, &str)], workspace: &Path) -> Run {
    run_action_in(with, workspace, tool_cache())
}

/// The runner's architecture as `RUNNER_ARCH` names it.
fn runner_arch() -> &'static str {
    match std::env::consts::ARCH {
        "x86_64" => "X64",
        "aarch64" => "ARM64",
        other => panic!("no runner architecture for {other}"),
    }
}

/// Where the runner has the action: the ref after `@` in `uses:` (`github.action_ref`, which the
/// runner may leave empty in a composite action) and the folder it checked it out to
/// (`GITHUB_ACTION_PATH`).
struct UsedAt {
    reference: String,
    path: PathBuf,
}

impl UsedAt {
    /// This checkout, as a workflow's `uses: ./` step sees it: no ref.
    fn checkout() -> UsedAt {
        UsedAt {
            reference: String::new(),
            path: root().to_path_buf(),
        }
    }
}

/// Runs the action as [`run_action`] does, on a runner whose tool cache is `tool_cache`.
fn run_action_in(with: &[(&str, &str)], workspace: &Path, tool_cache: &Path) -> Run {
    run_action_at(with, workspace, tool_cache, &UsedAt::checkout())
}

/// Runs the action as [`run_action_in`] does, used at `used_at`.
fn run_action_at(
    with: &[(&str, &str)],
    workspace: &Path,
    tool_cache: &Path,
    used_at: &UsedAt,
) -> Run {
    // One run at a time: the first one builds kafkalint, the others find it built.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());

    let action = action();
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    let mut inputs = BTreeMap::new();
    for (name, spec) in map(&action["inputs"]) {
        inputs.insert(name, text(&spec["default"]).unwrap_or_default());
    }
    for (name, value) in with {
        assert!(inputs.contains_key(*name), "action.yml has no input {name}");
        inputs.insert(name.to_string(), value.to_string());
    }

    let runner_temp = tempfile::tempdir().unwrap();
    let mut steps: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut logs = Vec::new();
    let mut summary = String::new();
    let mut status = 0;
    let mut used = BTreeMap::new();
    for (index, step) in action["runs"]["steps"].as_vec().unwrap().iter().enumerate() {
        let name = step["name"].as_str().unwrap().to_string();
        if let Some(uses) = step["uses"].as_str() {
            assert!(
                SKIPPED_USES.contains(&uses),
                "step {name:?} uses {uses}, which this test neither runs nor skips"
            );
            let context = Context {
                inputs: &inputs,
                used_at,
                workspace,
                steps: &steps,
            };
            let runs = match step["if"].as_str() {
                None => status == 0,
                Some(condition) => holds(condition, &context, status),
            };
            if runs {
                let with = map(&step["with"])
                    .into_iter()
                    .map(|(key, value)| (key, evaluate(&text(value).unwrap(), &context)))
                    .collect();
                used.insert(uses.to_string(), with);
            }
            logs.push((name, format!("skipped: {uses} cannot run here")));
            continue;
        }
        if status != 0 {
            break;
        }
        assert!(step["if"].is_badvalue(), "{name}: `if:` on a run step");
        assert_eq!(step["shell"].as_str(), Some("bash"), "{name}: shell");
        let script = step["run"].as_str().unwrap();
        assert!(
            !script.contains("${{"),
            "{name}: an expression in `run:` is pasted into the script; pass it in `env:`"
        );
        let context = Context {
            inputs: &inputs,
            used_at,
            workspace,
            steps: &steps,
        };
        let directory = match text(&step["working-directory"]) {
            Some(template) => PathBuf::from(evaluate(&template, &context)),
            None => workspace.to_path_buf(),
        };
        let env: Vec<(String, String)> = map(&step["env"])
            .into_iter()
            .map(|(key, value)| (key, evaluate(&text(value).unwrap(), &context)))
            .collect();

        let script_path = runner_temp.path().join(format!("step-{index}.sh"));
        std::fs::write(&script_path, script).unwrap();
        let output_file = runner_temp.path().join(format!("output-{index}"));
        let summary_file = runner_temp.path().join(format!("summary-{index}"));
        std::fs::write(&output_file, "").unwrap();
        std::fs::write(&summary_file, "").unwrap();
        let mut command = Command::new("bash");
        command
            .args(["--noprofile", "--norc", "-eo", "pipefail"])
            .arg(&script_path)
            .current_dir(&directory)
            .env_clear();
        for key in [
            "PATH",
            "HOME",
            "CARGO_HOME",
            "RUSTUP_HOME",
            "RUSTUP_TOOLCHAIN",
        ] {
            if let Some(value) = std::env::var_os(key) {
                command.env(key, value);
            }
        }
        let output = command
            .env("CI", "true")
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_ACTION_PATH", &used_at.path)
            .env("GITHUB_WORKSPACE", workspace)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", &summary_file)
            .env("RUNNER_OS", "Linux")
            .env("RUNNER_ARCH", runner_arch())
            .env("RUNNER_TEMP", runner_temp.path())
            .env("RUNNER_TOOL_CACHE", tool_cache)
            .env(
                "CARGO_TARGET_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("release-install"),
            )
            .envs(env)
            .output()
            .unwrap();
        logs.push((
            name,
            format!(
                "{}{}",
                String::from_utf8(output.stdout).unwrap(),
                String::from_utf8(output.stderr).unwrap()
            ),
        ));
        summary.push_str(&std::fs::read_to_string(&summary_file).unwrap());
        if let Some(id) = step["id"].as_str() {
            steps.insert(id.to_string(), read_outputs(&output_file));
        }
        if !output.status.success() {
            status = output.status.code().unwrap();
        }
    }
    let context = Context {
        inputs: &inputs,
        used_at,
        workspace,
        steps: &steps,
    };
    let outputs = map(&action["outputs"])
        .into_iter()
        .map(|(name, spec)| (name, evaluate(spec["value"].as_str().unwrap(), &context)))
        .collect();
    Run {
        logs,
        status,
        summary,
        outputs,
        used,
        runner_temp,
    }
}

/// Whether a `uses:` step's `if:` holds: `||` of `&&` of `always()`, `X == 'v'` and `X != 'v'`
/// (the forms action.yml uses, without parentheses; any other fails the test). Without
/// `always()` a step runs only while every step before it passed, as on GitHub.
fn holds(condition: &str, context: &Context, status: i32) -> bool {
    condition.split("||").any(|conjunction| {
        let mut always = false;
        let mut all = true;
        for term in conjunction.split("&&").map(str::trim) {
            if term == "always()" {
                always = true;
                continue;
            }
            let (left, right, equal) = if let Some((l, r)) = term.split_once("!=") {
                (l, r, false)
            } else if let Some((l, r)) = term.split_once("==") {
                (l, r, true)
            } else {
                panic!("`{term}`: a condition this test does not evaluate");
            };
            let value = evaluate(&format!("${{{{ {} }}}}", left.trim()), context);
            let literal = right.trim().trim_matches('\'');
            all &= (value == literal) == equal;
        }
        all && (always || status == 0)
    })
}

/// A workspace with the fixture's files under `kafka/`.
fn workspace_with(fixture: &str) -> tempfile::TempDir {
    workspace_with_at(fixture, "kafka")
}

/// A workspace with the fixture's files under `folder`.
fn workspace_with_at(fixture: &str, folder: &str) -> tempfile::TempDir {
    let workspace = tempfile::tempdir().unwrap();
    let kafka = workspace.path().join(folder);
    std::fs::create_dir_all(&kafka).unwrap();
    for entry in std::fs::read_dir(root().join(fixture)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), kafka.join(entry.file_name())).unwrap();
    }
    workspace
}

const FIRST_ERROR: &str = "::error file=kafka/server-0.properties,line=28,col=34,endLine=28,endColumn=34,title=kafkalint(internal-topic-replication)::offsets.topic.replication.factor=1: one broker down";

#[test]
fn the_seed_fails_with_annotations_a_summary_and_a_sarif_log() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    let run = run_action(
        &[
            ("paths", "kafka"),
            ("sarif-file", "results/kafkalint.sarif"),
        ],
        workspace.path(),
    );
    assert_eq!(run.status, 1, "{run:#?}");
    // Each finding is an annotation at its place.
    let errors = run.annotations("error");
    assert_eq!(errors.len(), 6, "{run:#?}");
    assert!(errors[0].starts_with(FIRST_ERROR), "{}", errors[0]);
    assert_eq!(run.annotations("warning").len(), 1);
    assert_eq!(run.annotations("notice").len(), 3);
    for (name, value) in [
        ("errors", "6"),
        ("warnings", "1"),
        ("infos", "3"),
        ("notes", "3"),
        ("sarif-file", "results/kafkalint.sarif"),
    ] {
        assert_eq!(run.outputs[name], value, "{name}: {run:#?}");
    }

    let summary = &run.summary;
    assert!(summary.starts_with("### kafkalint\n\n"), "{summary}");
    assert!(
        summary.contains(
            "\nFound 6 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9).\n"
        ),
        "{summary}"
    );
    assert!(summary.contains("\n| 6 | 1 | 3 |\n"), "{summary}");
    assert!(
        summary.contains("\nFailed: findings at warning or above.\n"),
        "{summary}"
    );
    let findings: Vec<&str> = summary.lines().filter(|l| l.starts_with("    ")).collect();
    assert_eq!(findings.len(), 10, "{summary}");
    assert!(
        findings[2].starts_with(
            "    kafka/server-0.properties:28:34: error[internal-topic-replication] offsets.topic.replication.factor=1"
        ),
        "{summary}"
    );

    // The SARIF log, for upload-sarif: valid, one result per finding, paths relative to the
    // workspace.
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(workspace.path().join("results/kafkalint.sarif")).unwrap(),
    )
    .unwrap();
    let errors = support::schema_errors(&support::schema_validator(), &sarif);
    assert!(errors.is_empty(), "{errors:#?}");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 10);
    assert_eq!(
        results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "kafka/server-0.properties"
    );

    // A second run on the same runner finds kafkalint built.
    let again = run_action(&[("paths", "kafka")], workspace.path());
    assert!(
        again
            .log("Install kafkalint")
            .starts_with("kafkalint is already installed: "),
        "{again:#?}"
    );
    assert!(!again.log("Install kafkalint").contains("cargo install"));
    assert_eq!(again.status, 1);
    assert_eq!(again.outputs["sarif-file"], "");
}

#[test]
fn the_fixed_seed_passes() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers-fixed");
    let run = run_action(
        &[("paths", "kafka"), ("sarif-file", "kafkalint.sarif")],
        workspace.path(),
    );
    assert_eq!(run.status, 0, "{run:#?}");
    assert!(
        !run.log("Check Kafka configuration").contains("::"),
        "{run:#?}"
    );
    assert_eq!(run.outputs["errors"], "0");
    assert_eq!(run.outputs["warnings"], "0");
    assert!(
        run.summary
            .contains("\nNo problems found (3 files in 1 cluster, checked against Kafka 3.9).\n"),
        "{}",
        run.summary
    );
    assert!(
        run.summary
            .contains("\nPassed: nothing at warning or above.\n")
    );
    let sarif: Value = serde_json::from_str(
        &std::fs::read_to_string(workspace.path().join("kafkalint.sarif")).unwrap(),
    )
    .unwrap();
    assert_eq!(sarif["runs"][0]["results"], serde_json::json!([]));
}

#[test]
fn fail_on_error_lets_warnings_pass_and_format_changes_the_log_only() {
    let workspace = workspace_with("fixtures/unclean-leader-election/bad");
    let run = run_action(
        &[("paths", "kafka"), ("fail-on", "error")],
        workspace.path(),
    );
    assert_eq!(run.status, 0, "{run:#?}");
    assert_eq!(run.annotations("warning").len(), 3, "{run:#?}");
    assert_eq!(run.outputs["warnings"], "3");
    assert!(
        run.summary
            .contains("\nPassed: nothing at error or above.\n")
    );

    let run = run_action(
        &[("paths", "kafka"), ("format", "concise")],
        workspace.path(),
    );
    assert_eq!(run.status, 1, "{run:#?}");
    let log = run.log("Check Kafka configuration");
    assert!(!log.contains("::warning"), "{log}");
    assert!(
        log.contains("kafka/server-0.properties:")
            && log.contains("warning[unclean-leader-election]"),
        "{log}"
    );
    assert_eq!(run.outputs["warnings"], "3");
}

#[test]
fn inputs_are_data_and_errors_end_the_step_with_2() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers-fixed");
    // A path that reads as shell is a path: nothing runs it.
    let run = run_action(
        &[("paths", "kafka $(touch${IFS}injected) `touch injected`")],
        workspace.path(),
    );
    assert_eq!(run.status, 2, "{run:#?}");
    assert!(!workspace.path().join("injected").exists());
    assert!(
        run.log("Check Kafka configuration")
            .contains("kafkalint: error: $(touch${IFS}injected): no such file or directory"),
        "{run:#?}"
    );
    assert!(
        run.summary
            .contains("kafkalint could not check the files (exit status 2)"),
        "{}",
        run.summary
    );

    let run = run_action(&[("paths", "kafka"), ("fail-on", "info")], workspace.path());
    assert_eq!(run.status, 2, "{run:#?}");
    assert!(
        run.log("Check Kafka configuration")
            .contains("invalid value 'info' for '--fail-on <SEVERITY>'"),
        "{run:#?}"
    );
}

/// The workflow of the docs' "GitHub Action" section, as a user copies it.
fn docs_workflow() -> Yaml {
    let docs = std::fs::read_to_string(root().join("docs/src/integrations.md")).unwrap();
    let section = docs
        .split("\n## GitHub Action\n")
        .nth(1)
        .expect("docs/src/integrations.md has a GitHub Action section");
    let block = section
        .split("```yaml\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the section has a yaml block");
    YamlLoader::load_from_str(block).unwrap().remove(0)
}

#[test]
fn the_docs_workflow_downloads_the_release_it_names_and_uploads_its_sarif_log() {
    if !support::external_tools("tests/action.rs (release download)") {
        return;
    }
    let workflow = docs_workflow();
    assert_eq!(
        workflow["permissions"]["security-events"].as_str(),
        Some("write"),
        "upload-sarif needs it"
    );
    let steps = workflow["jobs"]["kafkalint"]["steps"].as_vec().unwrap();
    let ours = steps
        .iter()
        .find(|step| {
            step["uses"]
                .as_str()
                .is_some_and(|uses| uses.starts_with("kafkalint/kafkalint@"))
        })
        .expect("a step using the action");
    let with: Vec<(String, String)> = map(&ours["with"])
        .into_iter()
        .map(|(name, value)| (name, text(value).unwrap()))
        .collect();
    let input = |name: &str| {
        with.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    assert_eq!(input("version"), None, "the ref names the release");
    assert_eq!(input("upload-sarif").as_deref(), Some("true"));

    // The snippet downloads the release it is used at: this test serves a stand-in for it (this
    // run's kafkalint, archived as the release workflow archives it) from a local server.
    let reference = ours["uses"].as_str().unwrap().split_once('@').unwrap().1;
    assert_eq!(reference, format!("v{}", env!("CARGO_PKG_VERSION")));
    let release = Release::new(reference);
    let server = release.serve();
    let paths = input("paths").unwrap();
    let workspace = workspace_with_at("fixtures/seed-zk-3-brokers", &paths);
    let mut with: Vec<(&str, &str)> = with.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    with.push(("download-url", &server.url));
    let cache = tempfile::tempdir().unwrap();
    let used_at = UsedAt {
        reference: reference.to_string(),
        path: root().to_path_buf(),
    };
    let run = run_action_at(&with, workspace.path(), cache.path(), &used_at);
    assert_downloaded(&run, &server, &release);
    assert_eq!(run.status, 1, "{run:#?}");
    assert_eq!(run.annotations("error").len(), 6, "{run:#?}");

    // The upload step runs after the failing check, on the log the check wrote.
    let upload = &run.used["github/codeql-action/upload-sarif@v4"];
    assert_eq!(upload["sarif_file"], run.outputs["sarif-file"]);
    assert_eq!(upload["category"], "kafkalint");
    let log = Path::new(&run.outputs["sarif-file"]);
    assert!(log.starts_with(run.runner_temp.path()), "{log:?}");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(log).unwrap()).unwrap();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 10);
    assert_eq!(
        sarif["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        format!("{paths}/server-0.properties")
    );
}

fn assert_downloaded(run: &Run, server: &Server, release: &Release) {
    let install = run.log("Install kafkalint");
    assert!(
        install.contains(&format!(
            "Downloading {}/{}/{}",
            server.url, release.tag, release.archive
        )) && install.contains(&format!("SHA-256 verified: {}", release.sha256)),
        "{run:#?}"
    );
    assert!(!install.contains("cargo install"), "{install}");
}

#[test]
fn the_release_comes_from_the_checkout_folder_when_the_runner_gives_no_ref() {
    if !support::external_tools("tests/action.rs (release download)") {
        return;
    }
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let release = Release::new(&tag);
    let server = release.serve();
    // The runner checks an action out to _actions/<owner>/<repo>/<ref>.
    let runner = tempfile::tempdir().unwrap();
    let checkout = runner
        .path()
        .join("_actions/kafkalint/kafkalint")
        .join(&tag);
    std::fs::create_dir_all(checkout.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(root(), &checkout).unwrap();
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    let cache = tempfile::tempdir().unwrap();
    let used_at = UsedAt {
        reference: String::new(),
        path: checkout,
    };
    let with = [("paths", "kafka"), ("download-url", server.url.as_str())];
    let run = run_action_at(&with, workspace.path(), cache.path(), &used_at);
    assert_downloaded(&run, &server, &release);
    assert_eq!(run.status, 1, "{run:#?}");
    // No upload without the input, and no log written.
    assert!(
        !run.used
            .contains_key("github/codeql-action/upload-sarif@v4")
    );
    assert_eq!(run.outputs["sarif-file"], "");

    // `version: build` builds at a release too; a branch builds.
    for (with, used_at) in [
        (
            vec![("paths", "kafka"), ("version", "build")],
            UsedAt {
                reference: tag.clone(),
                path: root().to_path_buf(),
            },
        ),
        (
            vec![("paths", "kafka")],
            UsedAt {
                reference: "main".to_string(),
                path: root().to_path_buf(),
            },
        ),
    ] {
        let run = run_action_at(&with, workspace.path(), tool_cache(), &used_at);
        let install = run.log("Install kafkalint");
        assert!(!install.contains("Downloading"), "{run:#?}");
        assert_eq!(run.status, 1, "{run:#?}");
    }
}

#[test]
fn upload_sarif_takes_true_or_false_only() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    let run = run_action(
        &[
            ("paths", "kafka"),
            ("upload-sarif", "yes\n::warning::forged"),
        ],
        workspace.path(),
    );
    assert_eq!(run.status, 2, "{run:#?}");
    let check = run.log("Check Kafka configuration");
    assert!(
        check.contains("::error title=kafkalint::upload-sarif: give true or false"),
        "{check}"
    );
    assert!(!check.contains("forged"), "{check}");
    assert!(
        !run.used
            .contains_key("github/codeql-action/upload-sarif@v4"),
        "{:?}",
        run.used
    );
}

#[test]
fn kafka_version_and_config_inputs_reach_kafkalint() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    std::fs::write(
        workspace.path().join("lint.toml"),
        "ignore = [\"log-dirs-in-tmp\"]\n",
    )
    .unwrap();
    let run = run_action(
        &[
            ("paths", "kafka"),
            ("kafka-version", "3.8"),
            ("config", "lint.toml"),
        ],
        workspace.path(),
    );
    assert_eq!(run.status, 1, "{run:#?}");
    assert_eq!(run.outputs["errors"], "6");
    assert_eq!(run.outputs["infos"], "0", "{run:#?}");
    assert!(
        run.summary
            .contains("(3 files in 1 cluster, checked against Kafka 3.8)."),
        "{}",
        run.summary
    );
}

/// A release's files for this runner, as the release workflow makes them: an archive of a folder
/// named as itself holding the binary (this test run's kafkalint stands in for the release's),
/// and `<archive>.sha256`, under `<dir>/<tag>/`.
struct Release {
    dir: tempfile::TempDir,
    tag: String,
    archive: String,
    sha256: String,
}

/// A local HTTP server (Python's `http.server`, on 127.0.0.1) of a folder, stopped on drop.
struct Server {
    child: std::process::Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Release {
    fn new(tag: &str) -> Release {
        let target = match std::env::consts::ARCH {
            "x86_64" => "x86_64-unknown-linux-musl",
            "aarch64" => "aarch64-unknown-linux-musl",
            other => panic!("no release target for {other}"),
        };
        let name = format!("kafkalint-{}-{target}", tag.trim_start_matches('v'));
        let dir = tempfile::tempdir().unwrap();
        let files = dir.path().join(tag);
        std::fs::create_dir_all(files.join(&name)).unwrap();
        std::fs::copy(
            env!("CARGO_BIN_EXE_kafkalint"),
            files.join(&name).join("kafkalint"),
        )
        .unwrap();
        let archive = format!("{name}.tar.gz");
        let status = Command::new("tar")
            .args(["-czf", &archive, &name])
            .current_dir(&files)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::remove_dir_all(files.join(&name)).unwrap();
        let output = Command::new("sha256sum")
            .arg(&archive)
            .current_dir(&files)
            .output()
            .unwrap();
        assert!(output.status.success());
        let line = String::from_utf8(output.stdout).unwrap();
        std::fs::write(files.join(format!("{archive}.sha256")), &line).unwrap();
        let sha256 = line.split_whitespace().next().unwrap().to_string();
        Release {
            dir,
            tag: tag.to_string(),
            archive,
            sha256,
        }
    }

    fn path(&self, file: &str) -> PathBuf {
        self.dir.path().join(&self.tag).join(file)
    }

    fn serve(&self) -> Server {
        use std::io::BufRead;
        let mut child = Command::new("python3")
            .args([
                "-u",
                "-m",
                "http.server",
                "0",
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(self.dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("python3 runs");
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split_whitespace()
            .skip_while(|word| *word != "port")
            .nth(1)
            .unwrap_or_else(|| panic!("no port in {line:?}"))
            .to_string();
        Server {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

#[test]
fn a_release_archive_that_does_not_match_its_checksum_is_refused() {
    if !support::external_tools("tests/action.rs (release download)") {
        return;
    }
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let release = Release::new(&tag);
    // One byte more: gzip still unpacks it (trailing garbage is ignored), the checksum differs.
    let mut bytes = std::fs::read(release.path(&release.archive)).unwrap();
    bytes.push(0);
    std::fs::write(release.path(&release.archive), &bytes).unwrap();
    let server = release.serve();
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    let cache = tempfile::tempdir().unwrap();
    let run = run_action_in(
        &[
            ("paths", "kafka"),
            ("version", &tag),
            ("download-url", &server.url),
        ],
        workspace.path(),
        cache.path(),
    );
    assert_eq!(run.status, 1, "{run:#?}");
    let install = run.log("Install kafkalint");
    assert!(
        install.contains(&format!(
            "::error title=kafkalint::{}: SHA-256 ",
            release.archive
        )) && install.contains(&format!(
            "but the release's checksum file says {}: refused",
            release.sha256
        )),
        "{install}"
    );
    assert!(!install.contains("verified"), "{install}");
    // Nothing was installed, and nothing was checked.
    assert!(
        !run.logs
            .iter()
            .any(|(name, _)| name == "Check Kafka configuration"),
        "{run:#?}"
    );
    let installed: Vec<_> = walkdir::WalkDir::new(cache.path())
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_name() == "kafkalint")
        .collect();
    assert!(installed.is_empty(), "{installed:?}");

    // A release without its checksum file is refused too, as is a version that is not one.
    std::fs::remove_file(release.path(&format!("{}.sha256", release.archive))).unwrap();
    let run = run_action_in(
        &[
            ("paths", "kafka"),
            ("version", &tag),
            ("download-url", &server.url),
        ],
        workspace.path(),
        cache.path(),
    );
    assert_ne!(run.status, 0, "{run:#?}");
    assert!(run.log("Install kafkalint").contains("404"), "{run:#?}");
    let run = run_action_in(
        &[("paths", "kafka"), ("version", "latest; touch injected")],
        workspace.path(),
        cache.path(),
    );
    assert_eq!(run.status, 2, "{run:#?}");
    assert!(
        run.log("Locate kafkalint's build")
            .contains("version: not a release: latest; touch injected"),
        "{run:#?}"
    );
    assert!(!workspace.path().join("injected").exists());
}

#[test]
fn args_reach_kafkalint_word_by_word_and_never_a_shell() {
    let workspace = workspace_with("fixtures/seed-zk-3-brokers");
    let direct = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(["check", "--format", "github", "--fail-on", "warning"])
            .args(args)
            .args(["--", "kafka"])
            .current_dir(workspace.path())
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let with_args = direct(&["--brokers", "5"]);
    assert_ne!(with_args, direct(&[]), "--brokers 5 changes the findings");

    let run = run_action(
        &[("paths", "kafka"), ("args", "--brokers 5")],
        workspace.path(),
    );
    assert_eq!(run.status, 1, "{run:#?}");
    let annotations: Vec<&str> = run
        .log("Check Kafka configuration")
        .lines()
        .filter(|line| line.starts_with("::"))
        .collect();
    assert_eq!(annotations, with_args.lines().collect::<Vec<_>>());

    // Words that read as shell are arguments: kafkalint refuses them, nothing runs them.
    let run = run_action(
        &[
            ("paths", "kafka"),
            (
                "args",
                "--brokers 5 $(touch${IFS}injected) `touch injected` ;touch injected",
            ),
        ],
        workspace.path(),
    );
    assert_eq!(run.status, 2, "{run:#?}");
    assert!(!workspace.path().join("injected").exists());
    assert!(
        run.log("Check Kafka configuration")
            .contains("$(touch${IFS}injected)"),
        "{run:#?}"
    );
}
