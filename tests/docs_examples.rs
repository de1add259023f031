//! Every shell example of the manual runs against the binary: each fenced block of
//! `docs/src/*.md` and `README.md` with a `$ kafkalint ...` line. The lines after a `$` line,
//! up to the next `$` line or the end of the block, are what the command prints: its standard
//! output, then its standard error, compared line by line. In an expected line, `(...)` stands
//! for any text, and a line ending in `…` for any line that starts with what comes before the
//! `…` (the docs cut long lines so). `$ echo $?` shows the previous command's exit code.
//!
//! A command runs in the repository's root, or where an HTML comment on the line before the
//! block says (the reader does not see it):
//! - `<!-- example: in DIR -->`: in `DIR`, a folder of the repository (read only);
//! - `<!-- example: in a copy of DIR with FILE: TEXT -->`: in a temporary copy of `DIR` to which
//!   `FILE` is written with `TEXT` (`\n` a line break).
//!
//! A failing example prints what the command printed beside what the docs show.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One example: where it is, where it runs, and its commands with what each prints.
#[derive(Debug)]
struct Example {
    place: String,
    setting: Setting,
    steps: Vec<Step>,
}

#[derive(Debug, Clone, PartialEq)]
enum Setting {
    In(PathBuf),
    Copy {
        dir: PathBuf,
        file: String,
        text: String,
    },
}

#[derive(Debug)]
enum Step {
    Run {
        args: Vec<String>,
        expected: Vec<String>,
    },
    ExitCode(i32),
}

fn setting(comment: Option<&str>) -> Setting {
    let Some(comment) = comment else {
        return Setting::In(PathBuf::new());
    };
    let body = comment
        .trim()
        .strip_prefix("<!-- example:")
        .and_then(|rest| rest.strip_suffix("-->"))
        .unwrap_or_else(|| panic!("not an example comment: {comment}"))
        .trim();
    if let Some(rest) = body.strip_prefix("in a copy of ") {
        let (dir, rest) = rest.split_once(" with ").expect("`with FILE: TEXT`");
        let (file, text) = rest.split_once(": ").expect("`FILE: TEXT`");
        return Setting::Copy {
            dir: PathBuf::from(dir),
            file: file.to_string(),
            text: text.replace("\\n", "\n"),
        };
    }
    let dir = body.strip_prefix("in ").expect("`in DIR`");
    Setting::In(PathBuf::from(dir))
}

/// A command line split as a shell splits one without variables: words, and quoted words.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

fn examples_of(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let shown = path
        .strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string();
    let mut examples = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let fence = lines[index].trim_start();
        if !fence.starts_with("```") {
            index += 1;
            continue;
        }
        let indent = lines[index].len() - fence.len();
        let start = index;
        let mut end = index + 1;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        let body: Vec<&str> = lines[start + 1..end.min(lines.len())]
            .iter()
            .map(|line| line.get(indent..).unwrap_or(line.trim_start()))
            .collect();
        index = end + 1;
        if !body.iter().any(|line| line.starts_with("$ kafkalint")) {
            continue;
        }
        let comment = start
            .checked_sub(1)
            .map(|before| lines[before])
            .filter(|line| line.trim_start().starts_with("<!-- example:"));
        let mut steps = Vec::new();
        for line in body {
            if let Some(command) = line.strip_prefix("$ ") {
                if command.trim() == "echo $?" {
                    steps.push(Step::ExitCode(-1));
                } else {
                    let args = words(command);
                    assert_eq!(
                        args[0],
                        "kafkalint",
                        "{shown}:{}: only kafkalint commands run: {command}",
                        start + 1
                    );
                    steps.push(Step::Run {
                        args: args[1..].to_vec(),
                        expected: Vec::new(),
                    });
                }
                continue;
            }
            match steps.last_mut() {
                Some(Step::Run { expected, .. }) => expected.push(line.to_string()),
                Some(Step::ExitCode(code)) if *code == -1 => {
                    *code = line.trim().parse().expect("an exit code after `$ echo $?`")
                }
                _ => panic!(
                    "{shown}:{}: a line that follows no command: {line}",
                    start + 1
                ),
            }
        }
        examples.push(Example {
            place: format!("{shown}:{}", start + 1),
            setting: setting(comment),
            steps,
        });
    }
    examples
}

/// Whether the printed `actual` line is what the docs show as `expected`.
fn line_matches(expected: &str, actual: &str) -> bool {
    if let Some(prefix) = expected.strip_suffix('…') {
        return actual.starts_with(prefix);
    }
    let pieces: Vec<&str> = expected.split("(...)").collect();
    if pieces.len() == 1 {
        return expected == actual;
    }
    let mut rest = actual;
    for (at, piece) in pieces.iter().enumerate() {
        if at == 0 {
            let Some(after) = rest.strip_prefix(piece) else {
                return false;
            };
            rest = after;
        } else if at == pieces.len() - 1 {
            return rest.ends_with(piece);
        } else {
            let Some(found) = rest.find(piece) else {
                return false;
            };
            rest = &rest[found + piece.len()..];
        }
    }
    true
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Runs `example`; the problems found, each naming the example's place.
fn run(example: &Example) -> Vec<String> {
    let scratch = tempfile::tempdir().unwrap();
    let dir = match &example.setting {
        Setting::In(dir) => root().join(dir),
        Setting::Copy { dir, file, text } => {
            let copy = scratch.path().join("example");
            copy_dir(&root().join(dir), &copy);
            std::fs::write(copy.join(file), text).unwrap();
            copy
        }
    };
    let mut problems = Vec::new();
    let mut last_code = None;
    for step in &example.steps {
        match step {
            Step::Run { args, expected } => {
                let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
                    .args(args)
                    .current_dir(&dir)
                    .env_remove("FORCE_COLOR")
                    .env("NO_COLOR", "1")
                    .output()
                    .unwrap();
                last_code = output.status.code();
                let printed = format!(
                    "{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                );
                let actual: Vec<&str> = printed.lines().collect();
                let same = actual.len() == expected.len()
                    && expected
                        .iter()
                        .zip(&actual)
                        .all(|(expected, actual)| line_matches(expected, actual));
                if !same {
                    problems.push(format!(
                        "{}: `kafkalint {}` printed:\n{printed}\nthe docs show:\n{}\n",
                        example.place,
                        args.join(" "),
                        expected.join("\n")
                    ));
                }
            }
            Step::ExitCode(code) => {
                if last_code != Some(*code) {
                    problems.push(format!(
                        "{}: exit code {last_code:?}, the docs show {code}",
                        example.place
                    ));
                }
            }
        }
    }
    problems
}

fn manual() -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    pages.push(root().join("README.md"));
    pages.sort();
    pages
}

#[test]
fn every_shell_example_of_the_docs_prints_what_it_shows() {
    let examples: Vec<Example> = manual().iter().flat_map(|page| examples_of(page)).collect();
    assert!(examples.len() >= 10, "{} examples", examples.len());
    let problems: Vec<String> = examples.iter().flat_map(run).collect();
    assert!(
        problems.is_empty(),
        "{} of {} examples differ:\n\n{}",
        problems.len(),
        examples.len(),
        problems.join("\n")
    );
}

#[test]
fn an_example_that_prints_otherwise_fails() {
    let example = Example {
        place: "test".into(),
        setting: Setting::In(PathBuf::from("fixtures")),
        steps: vec![
            Step::Run {
                args: words("check --select log-dirs-in-tpm seed-zk-3-brokers"),
                expected: vec!["kafkalint: error: --select: no rule named (...)".into()],
            },
            Step::ExitCode(1),
        ],
    };
    let problems = run(&example);
    assert_eq!(problems.len(), 2, "{problems:#?}");
}

#[test]
fn elisions_match_any_text_and_cut_lines_their_start() {
    assert!(line_matches("a (...) c (...) e", "a b c d e"));
    assert!(!line_matches("a (...) c", "a b d"));
    assert!(line_matches("abc…", "abcdef"));
    assert!(!line_matches("abd…", "abcdef"));
    assert!(line_matches("exact", "exact"));
    assert_eq!(
        words("check --select 'a b' \"c\" d"),
        ["check", "--select", "a b", "c", "d"]
    );
}

/// usage.md's synopsis names every output format the binary takes, in its order.
#[test]
fn the_usage_synopsis_names_every_format() {
    let usage = std::fs::read_to_string(root().join("docs/src/usage.md")).unwrap();
    let shown = usage
        .split_once("[--format ")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(formats, _)| formats.split('|').collect::<Vec<_>>())
        .expect("a --format in the synopsis");
    let help = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let after = help
        .split_once("--format <FORMAT>")
        .expect("--format in the help")
        .1;
    let values = after
        .split_once("Possible values:")
        .expect("the possible values")
        .1;
    let formats: Vec<&str> = values
        .lines()
        .skip(1)
        .map_while(|line| line.trim().strip_prefix("- "))
        .map(|line| line.split([':', ' ']).next().unwrap())
        .collect();
    assert!(formats.len() >= 5, "{formats:?}");
    assert_eq!(shown, formats);
}
