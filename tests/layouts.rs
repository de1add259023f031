//! The layout corpus: real public repositories, copied small under `tests/layouts/<owner>__<repo>/`
//! with only the files kafkalint reads, each judged by hand in its `LAYOUT.toml` (what really
//! runs, which findings must appear, which must not, which notes must be printed). This test runs
//! the built binary in each folder with `check --format json <args>` and holds it to every verdict.
//!
//! A verdict with a `gap` names what kafkalint does not do yet: the test then asserts that it is
//! STILL wrong, so a fix shows up as a failure that asks for the `gap` to be removed, and a
//! regression shows up as a failure too.
//!
//! `cargo test --test layouts -- --nocapture` prints one line per repository: expected findings
//! caught, false findings present, open gaps.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

mod support;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Layout {
    repository: String,
    commit: String,
    form: String,
    layout: String,
    judged: String,
    #[serde(default)]
    args: Option<Vec<String>>,
    #[serde(default)]
    clean: bool,
    #[serde(default)]
    expect: Vec<Verdict>,
    #[serde(default)]
    absent: Vec<Verdict>,
    #[serde(default)]
    note: Vec<NoteVerdict>,
    /// Programs the verdicts rest on (`helm`: a chart kafkalint renders): without them on the
    /// PATH the layout is skipped, as the suites of `support::EXTERNAL` are.
    #[serde(default)]
    needs: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Verdict {
    rule: String,
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    line: Option<u64>,
    why: String,
    #[serde(default)]
    gap: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NoteVerdict {
    contains: String,
    #[serde(default)]
    gap: Option<String>,
}

const FORMS: &[&str] = &[
    "compose",
    "kubernetes",
    "helm",
    "strimzi",
    "cfk",
    "ansible",
    "terraform",
    "properties",
];

/// One place a finding is reported at: its own, or one of its `also_on` places.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    file: String,
    line: Option<u64>,
}

#[derive(Debug)]
struct Finding {
    rule: String,
    severity: String,
    places: Vec<Place>,
    message: String,
}

struct Run {
    findings: Vec<Finding>,
    /// stderr and the JSON document, where a note may be printed.
    notes_text: String,
}

fn layouts_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/layouts")
}

fn layout_folders() -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(layouts_root()) else {
        return Vec::new();
    };
    let mut folders: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    folders
}

fn read_layout(folder: &Path) -> Result<Layout, String> {
    let path = folder.join("LAYOUT.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("LAYOUT.toml: {e}"))?;
    toml::from_str(&text).map_err(|e| format!("LAYOUT.toml: {e}"))
}

/// A path as kafkalint prints it, compared without a leading `./`.
fn normalized(path: &str) -> String {
    let mut path = path.replace('\\', "/");
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.to_string();
    }
    path
}

fn place_of(value: &serde_json::Value) -> Option<Place> {
    let file = value.get("file")?.as_str()?;
    Some(Place {
        file: normalized(file),
        line: value.get("line").and_then(serde_json::Value::as_u64),
    })
}

fn run_kafkalint(folder: &Path, args: &[String]) -> Result<Run, String> {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .current_dir(folder)
        .args(["check", "--format", "json"])
        .args(args)
        .output()
        .map_err(|e| format!("cannot run kafkalint: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    // 0: no finding, 1: findings; anything else is a refusal of the whole run.
    if !matches!(output.status.code(), Some(0 | 1)) {
        return Err(format!(
            "kafkalint check --format json {} exited with {:?}: {}",
            args.join(" "),
            output.status.code(),
            stderr.trim()
        ));
    }
    let document: serde_json::Value = serde_json::from_str(&stdout)
        .map_err(|e| format!("kafkalint's JSON does not parse ({e}): {stdout}"))?;
    let mut findings = Vec::new();
    for diagnostic in document["diagnostics"].as_array().into_iter().flatten() {
        let mut places: Vec<Place> = place_of(diagnostic).into_iter().collect();
        for also in diagnostic["also_on"].as_array().into_iter().flatten() {
            places.extend(place_of(also));
        }
        findings.push(Finding {
            rule: diagnostic["rule"].as_str().unwrap_or_default().to_string(),
            severity: diagnostic["severity"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            places,
            message: diagnostic["message"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        });
    }
    Ok(Run {
        findings,
        notes_text: format!("{stderr}\n{stdout}"),
    })
}

/// Whether `finding` is the one `verdict` speaks of: its rule, and (when the verdict names them)
/// a place in its file, at its line.
fn matches(verdict: &Verdict, finding: &Finding) -> bool {
    if finding.rule != verdict.rule {
        return false;
    }
    let file = verdict.file.as_deref().map(normalized);
    match (&file, verdict.line) {
        (None, None) => true,
        (None, Some(line)) => finding.places.iter().any(|p| p.line == Some(line)),
        (Some(file), line) => finding
            .places
            .iter()
            .any(|p| &p.file == file && line.is_none_or(|line| p.line == Some(line))),
    }
}

fn describe(verdict: &Verdict) -> String {
    let mut text = verdict.rule.clone();
    if let Some(file) = &verdict.file {
        text.push_str(&format!(" in {file}"));
        if let Some(line) = verdict.line {
            text.push_str(&format!(":{line}"));
        }
    } else if let Some(line) = verdict.line {
        text.push_str(&format!(" at line {line}"));
    }
    text
}

fn describe_finding(finding: &Finding) -> String {
    let at = finding
        .places
        .first()
        .map(|p| match p.line {
            Some(line) => format!("{}:{line}", p.file),
            None => p.file.clone(),
        })
        .unwrap_or_default();
    format!(
        "{} ({}) at {at}: {}",
        finding.rule, finding.severity, finding.message
    )
}

struct Tally {
    expected_caught: usize,
    expected_total: usize,
    false_present: usize,
    false_total: usize,
    gaps: usize,
    wrong: Vec<String>,
}

fn judge(layout: &Layout, run: &Run) -> Tally {
    let mut tally = Tally {
        expected_caught: 0,
        expected_total: layout.expect.len(),
        false_present: 0,
        false_total: layout.absent.len(),
        gaps: 0,
        wrong: Vec::new(),
    };
    for verdict in &layout.expect {
        let present = run.findings.iter().any(|f| matches(verdict, f));
        if present {
            tally.expected_caught += 1;
        }
        match (&verdict.gap, present) {
            (None, false) => tally.wrong.push(format!(
                "expected {} is missing ({})",
                describe(verdict),
                verdict.why
            )),
            (Some(gap), true) => tally.wrong.push(format!(
                "expected {} is now reported: remove its gap ({gap})",
                describe(verdict)
            )),
            (Some(_), false) => tally.gaps += 1,
            (None, true) => {}
        }
    }
    for verdict in &layout.absent {
        let present: Vec<&Finding> = run
            .findings
            .iter()
            .filter(|f| matches(verdict, f))
            .collect();
        if !present.is_empty() {
            tally.false_present += 1;
        }
        match (&verdict.gap, present.first()) {
            (None, Some(finding)) => tally.wrong.push(format!(
                "false {} is reported ({}): {}",
                describe(verdict),
                verdict.why,
                describe_finding(finding)
            )),
            (Some(gap), None) => tally.wrong.push(format!(
                "false {} is gone: remove its gap ({gap})",
                describe(verdict)
            )),
            (Some(_), Some(_)) => tally.gaps += 1,
            (None, None) => {}
        }
    }
    for note in &layout.note {
        let printed = run.notes_text.contains(&note.contains);
        match (&note.gap, printed) {
            (None, false) => tally.wrong.push(format!(
                "note containing {:?} is not printed",
                note.contains
            )),
            (Some(gap), true) => tally.wrong.push(format!(
                "note containing {:?} is now printed: remove its gap ({gap})",
                note.contains
            )),
            (Some(_), false) => tally.gaps += 1,
            (None, true) => {}
        }
    }
    if layout.clean {
        for finding in &run.findings {
            let serious = matches!(finding.severity.as_str(), "error" | "warning");
            let expected = layout.expect.iter().any(|v| matches(v, finding));
            if serious && !expected {
                tally.wrong.push(format!(
                    "clean, yet reported: {}",
                    describe_finding(finding)
                ));
            }
        }
    }
    tally
}

#[test]
fn layouts_hold_their_verdicts() {
    let folders = layout_folders();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    // Asked once: a skip says so once.
    let mut helm = None;
    for folder in &folders {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        let layout = match read_layout(folder) {
            Ok(layout) => layout,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        if layout.needs.iter().any(|tool| tool == "helm")
            && !*helm.get_or_insert_with(|| {
                support::external_tools("tests/layouts.rs (rendered charts)")
            })
        {
            table.push(format!("{name:<56} skipped: needs helm"));
            continue;
        }
        let args = layout.args.clone().unwrap_or_else(|| vec![".".to_string()]);
        let run = match run_kafkalint(folder, &args) {
            Ok(run) => run,
            Err(error) => {
                failures.push(format!("{name}: {error}"));
                continue;
            }
        };
        let tally = judge(&layout, &run);
        table.push(format!(
            "{name:<56} {:<10} expected caught {}/{}  false present {}/{}  gaps {}",
            layout.form,
            tally.expected_caught,
            tally.expected_total,
            tally.false_present,
            tally.false_total,
            tally.gaps
        ));
        if !tally.wrong.is_empty() {
            failures.push(format!("{name}:\n  {}", tally.wrong.join("\n  ")));
        }
    }
    println!("{} layouts", folders.len());
    for line in &table {
        println!("{line}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} layouts do not hold their verdicts:\n{}",
        failures.len(),
        folders.len(),
        failures.join("\n")
    );
}

/// The rule names of the registry, as `rules/<name>.md` names them.
fn known_rules() -> BTreeSet<String> {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    std::fs::read_dir(rules)
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            (path.extension()? == "md").then(|| path.file_stem().unwrap().to_string_lossy().into())
        })
        .collect()
}

fn layout_problems(folder: &Path, layout: &Layout, rules: &BTreeSet<String>) -> Vec<String> {
    let mut problems = Vec::new();
    let name = folder.file_name().unwrap().to_string_lossy().into_owned();
    for tool in &layout.needs {
        if tool != "helm" {
            problems.push(format!("needs {tool:?}: only \"helm\" is known"));
        }
    }
    let repository_parts: Vec<&str> = layout.repository.split('/').collect();
    if repository_parts.len() != 2 || repository_parts.iter().any(|part| part.is_empty()) {
        problems.push(format!(
            "repository {:?} is no owner/name",
            layout.repository
        ));
    } else if name != layout.repository.replacen('/', "__", 1) {
        problems.push(format!(
            "folder is named {name}, the repository {} wants {}",
            layout.repository,
            layout.repository.replacen('/', "__", 1)
        ));
    }
    if layout.commit.len() != 40 || !layout.commit.chars().all(|c| c.is_ascii_hexdigit()) {
        problems.push(format!("commit {:?} is no 40-hex commit", layout.commit));
    }
    if !FORMS.contains(&layout.form.as_str()) {
        problems.push(format!(
            "form {:?} is none of {}",
            layout.form,
            FORMS.join(", ")
        ));
    }
    if layout.layout.trim().is_empty() {
        problems.push("layout is empty".into());
    }
    if layout.judged.trim().is_empty() {
        problems.push("judged is empty".into());
    }
    if layout.args.as_ref().is_some_and(Vec::is_empty) {
        problems.push("args is empty: leave it out for [\".\"]".into());
    }
    if layout.expect.is_empty()
        && layout.absent.is_empty()
        && layout.note.is_empty()
        && !layout.clean
    {
        problems.push("no verdict: no [[expect]], [[absent]], [[note]] and not clean".into());
    }
    for (kind, verdicts) in [("expect", &layout.expect), ("absent", &layout.absent)] {
        for verdict in verdicts {
            if !rules.contains(&verdict.rule) {
                problems.push(format!("[[{kind}]] rule {:?} is no rule", verdict.rule));
            }
            if verdict.why.trim().is_empty() {
                problems.push(format!("[[{kind}]] {} has no why", describe(verdict)));
            }
            if verdict
                .gap
                .as_ref()
                .is_some_and(|gap| gap.trim().is_empty())
            {
                problems.push(format!("[[{kind}]] {} has an empty gap", describe(verdict)));
            }
            if verdict.line == Some(0) {
                problems.push(format!(
                    "[[{kind}]] {}: lines count from 1",
                    describe(verdict)
                ));
            }
            if let Some(file) = &verdict.file {
                let path = folder.join(normalized(file));
                if !path.is_file() {
                    problems.push(format!("[[{kind}]] file {file} does not exist"));
                } else if let Some(line) = verdict.line {
                    let lines = std::fs::read(&path)
                        .map(|bytes| bytes.split(|b| *b == b'\n').count())
                        .unwrap_or(0) as u64;
                    if line > lines {
                        problems.push(format!(
                            "[[{kind}]] {file}:{line} is past the file's {lines} lines"
                        ));
                    }
                }
            }
        }
    }
    for note in &layout.note {
        if note.contains.trim().is_empty() {
            problems.push("[[note]] contains nothing".into());
        }
        if note.gap.as_ref().is_some_and(|gap| gap.trim().is_empty()) {
            problems.push(format!("[[note]] {:?} has an empty gap", note.contains));
        }
    }
    let files_other_than_layout = walk_files(folder)
        .into_iter()
        .filter(|path| path.file_name().is_none_or(|n| n != "LAYOUT.toml"))
        .count();
    if files_other_than_layout == 0 {
        problems.push("no file of the repository is copied".into());
    }
    let size: u64 = walk_files(folder)
        .iter()
        .map(|path| path.metadata().map_or(0, |m| m.len()))
        .sum();
    if size > 50 * 1024 {
        problems.push(format!("{size} bytes: keep a repository well under 50 KB"));
    }
    problems
}

fn walk_files(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn layouts_are_well_formed() {
    let rules = known_rules();
    assert!(rules.contains("internal-topic-replication"), "{rules:?}");
    let mut failures = Vec::new();
    for folder in layout_folders() {
        let name = folder.file_name().unwrap().to_string_lossy().into_owned();
        match read_layout(&folder) {
            Err(error) => failures.push(format!("{name}: {error}")),
            Ok(layout) => {
                let problems = layout_problems(&folder, &layout, &rules);
                if !problems.is_empty() {
                    failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The checks above must be able to fail: a verdict that cannot fail is vacuous.
#[test]
fn a_wrong_verdict_is_caught() {
    let finding = Finding {
        rule: "internal-topic-replication".into(),
        severity: "error".into(),
        places: vec![
            Place {
                file: "compose.yaml".into(),
                line: Some(12),
            },
            Place {
                file: "compose.yaml".into(),
                line: Some(30),
            },
        ],
        message: "offsets.topic.replication.factor=1 on 3 brokers".into(),
    };
    let run = Run {
        findings: vec![finding],
        notes_text: "note: unknown image example/kafka".into(),
    };
    let verdict = |rule: &str, file: Option<&str>, line: Option<u64>, gap: Option<&str>| Verdict {
        rule: rule.into(),
        file: file.map(Into::into),
        line,
        why: "judged".into(),
        gap: gap.map(Into::into),
    };
    let layout =
        |expect: Vec<Verdict>, absent: Vec<Verdict>, note: Vec<NoteVerdict>, clean| Layout {
            repository: "owner/name".into(),
            commit: "0".repeat(40),
            form: "compose".into(),
            layout: "one file".into(),
            judged: "three brokers".into(),
            args: None,
            clean,
            expect,
            absent,
            note,
            needs: Vec::new(),
        };
    // Caught on an also-on place, by its file and line.
    let good = layout(
        vec![verdict(
            "internal-topic-replication",
            Some("./compose.yaml"),
            Some(30),
            None,
        )],
        vec![verdict("port-clash-on-host", None, None, None)],
        vec![NoteVerdict {
            contains: "unknown image".into(),
            gap: None,
        }],
        true,
    );
    let tally = judge(&good, &run);
    assert!(tally.wrong.is_empty(), "{:?}", tally.wrong);
    assert_eq!((tally.expected_caught, tally.false_present), (1, 0));

    // Each wrong verdict is one line.
    let bad = layout(
        vec![
            verdict(
                "internal-topic-replication",
                Some("compose.yaml"),
                Some(13),
                None,
            ),
            verdict(
                "internal-topic-replication",
                None,
                None,
                Some("not read yet"),
            ),
        ],
        vec![
            verdict(
                "internal-topic-replication",
                Some("compose.yaml"),
                None,
                None,
            ),
            verdict("port-clash-on-host", None, None, Some("still reported")),
        ],
        vec![
            NoteVerdict {
                contains: "Helm template".into(),
                gap: None,
            },
            NoteVerdict {
                contains: "unknown image".into(),
                gap: Some("not said yet".into()),
            },
        ],
        true,
    );
    let tally = judge(&bad, &run);
    assert_eq!(tally.wrong.len(), 6, "{:#?}", tally.wrong);
}
