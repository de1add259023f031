//! Helpers shared by test targets (`mod support;`): the official SARIF 2.1.0 schema.

use std::path::Path;

use serde_json::Value;

/// A validator for the official OASIS SARIF 2.1.0 schema (`tests/sarif/`).
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

pub fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect()
}
