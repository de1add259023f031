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
    pub plan: Option<kafkalint::plan::Plan>,
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
    let mut live = kafkalint::live_report::LiveOptions::default();
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
    let document = kafkalint::source::SourceFile::snapshot(snapshot.display().to_string(), bytes);
    let judged = kafkalint::check_live(document, &paths, options, &live).unwrap();
    Checked {
        report: judged.report,
        plan: judged.plan,
    }
}
