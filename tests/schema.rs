//! `kafkalint.schema.json`, the JSON schema of `kafkalint.toml` for editors: every
//! kafkalint.toml of the repository (fixtures, tests, the examples of the docs) validates
//! against it, and it names exactly the keys, rules and severities the config parser takes, so
//! that the two cannot drift apart.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use kafkalint::config::{self, Config};
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("kafkalint.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn validator() -> jsonschema::Validator {
    let schema = schema();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    jsonschema::draft202012::new(&schema).unwrap()
}

/// The TOML document as the JSON value a schema validates.
fn as_json(text: &str) -> Value {
    toml::from_str::<Value>(text).unwrap()
}

fn schema_errors(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    validator
        .iter_errors(&as_json(text))
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect()
}

fn parses(text: &str) -> Result<Config, config::ConfigError> {
    Config::parse("kafkalint.toml", ".".into(), text, kafkalint::rules::NAMES)
}

/// Every kafkalint.toml under `dir`.
fn config_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            config_files(&path, found);
        } else if path
            .file_name()
            .is_some_and(|name| name == config::FILE_NAME)
        {
            found.push(path);
        }
    }
}

/// The ```toml blocks of a Markdown file that are kafkalint.toml files: those whose every
/// top-level key is one the config file has (other TOML, a Cargo.toml or a pre-commit
/// config, has others).
fn toml_blocks(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_start().starts_with("```toml") => current = Some(String::new()),
            Some(block) if line.trim_start().starts_with("```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
        .into_iter()
        .filter(|block| {
            toml::from_str::<toml::Table>(block).is_ok_and(|table| {
                !table.is_empty()
                    && table
                        .keys()
                        .all(|key| config::TOP_KEYS.contains(&key.as_str()))
            })
        })
        .collect()
}

#[test]
fn every_kafkalint_toml_of_the_repository_validates() {
    let validator = validator();
    let mut files = Vec::new();
    config_files(&root().join("fixtures"), &mut files);
    config_files(&root().join("tests"), &mut files);
    let mut documents: Vec<(String, String)> = files
        .iter()
        .map(|path| {
            (
                path.display().to_string(),
                std::fs::read_to_string(path).unwrap(),
            )
        })
        .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("rules"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.push(root().join("README.md"));
    docs.sort();
    let mut from_docs = 0;
    for doc in &docs {
        for (index, block) in toml_blocks(doc).into_iter().enumerate() {
            documents.push((format!("{} block {}", doc.display(), index + 1), block));
            from_docs += 1;
        }
    }
    assert!(
        !files.is_empty() && from_docs > 0,
        "{} files, {from_docs} blocks",
        files.len()
    );
    for (name, text) in &documents {
        // What the parser takes, the schema takes; and the other way round, but for what
        // only reading the files can tell (a glob that does not compile, two entries of one
        // name), which none of these has.
        let errors = schema_errors(&validator, text);
        match parses(text) {
            Ok(_) => assert!(errors.is_empty(), "{name}: {errors:#?}"),
            Err(error) => assert!(
                !errors.is_empty(),
                "{name}: the parser refuses it ({error}), the schema takes it"
            ),
        }
    }
}

/// The names of the properties of the schema object at `pointer`.
fn properties(schema: &Value, pointer: &str) -> BTreeSet<String> {
    schema
        .pointer(pointer)
        .unwrap_or_else(|| panic!("{pointer}"))
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| name.to_string()).collect()
}

#[test]
fn the_schema_names_the_keys_rules_and_severities_the_parser_takes() {
    let schema = schema();
    assert_eq!(properties(&schema, "/properties"), set(config::TOP_KEYS));
    assert_eq!(
        properties(&schema, "/properties/clusters/items/properties"),
        set(config::CLUSTER_KEYS)
    );
    assert_eq!(
        properties(&schema, "/properties/rules/additionalProperties/properties"),
        set(config::RULE_KEYS)
    );
    let severities: Vec<&str> = schema
        .pointer("/properties/rules/additionalProperties/properties/severity/enum")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap())
        .collect();
    assert_eq!(severities, config::SEVERITIES);
    // The rule names, in registry order.
    let rules: Vec<&str> = schema["$defs"]["rule-name"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap())
        .collect();
    assert_eq!(rules, kafkalint::rules::NAMES.rules);
    // The groups, in the order `kafkalint rules` gives them.
    let groups: Vec<&str> = schema["$defs"]["rule-or-group"]["anyOf"][1]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_str().unwrap())
        .collect();
    let known: Vec<&str> = kafkalint::rules::GROUPS
        .iter()
        .map(|group| group.as_str())
        .collect();
    assert_eq!(groups, known);
    // Every table refuses keys it does not name, as the parser does.
    for pointer in [
        "",
        "/properties/clusters/items",
        "/properties/rules/additionalProperties",
    ] {
        assert_eq!(
            schema.pointer(&format!("{pointer}/additionalProperties")),
            Some(&Value::Bool(false)),
            "{pointer}"
        );
    }
}

/// One document per key the schema names, each valid; with each, the same document with a key
/// neither names.
const SAMPLES: &[(&str, &str)] = &[
    ("kafka-version", "kafka-version = \"3.9\"\n"),
    ("kafka-version (a release)", "kafka-version = \"4.1.2\"\n"),
    ("bitnami-kafka-chart", "bitnami-kafka-chart = \"26.4.0\"\n"),
    (
        "images",
        "[images]\n\"registry.example.com/platform/kafka\" = \"apache/kafka:3.9.0\"\n\"registry.example.com/platform/kafka:legacy\" = \"confluentinc/cp-kafka:7.4.0\"\n",
    ),
    ("strict", "strict = true\n"),
    ("select", "select = [\"unknown-key\", \"duplicate-key\"]\n"),
    ("ignore", "ignore = [\"log-dirs-in-tmp\"]\n"),
    (
        "select and ignore (groups)",
        "select = [\"availability\", \"hygiene\"]\nignore = [\"unknown-key\"]\n",
    ),
    ("exclude", "exclude = [\".*/\", \"legacy/\"]\n"),
    (
        "extend-exclude",
        "extend-exclude = [\"**/dev/*.properties\"]\n",
    ),
    (
        "rules",
        "[rules.min-isr-one]\nseverity = \"error\"\n[rules.unknown-key]\nseverity = \"off\"\n",
    ),
    (
        "per-path-ignores",
        "[per-path-ignores]\n\"legacy/**\" = [\"removed-key\"]\n",
    ),
    (
        "clusters",
        "[[clusters]]\nname = \"prod\"\nfiles = [\"prod/*.properties\"]\nbrokers = 3\nkafka-version = \"3.6\"\n",
    ),
];

#[test]
fn the_parser_and_the_schema_take_and_refuse_the_same_keys() {
    let validator = validator();
    for (name, text) in SAMPLES {
        assert!(parses(text).is_ok(), "{name}: {:?}", parses(text).err());
        let errors = schema_errors(&validator, text);
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    let unknown = [
        "colour = \"red\"\n",
        "[rules.min-isr-one]\nlevel = \"error\"\n",
        "[[clusters]]\nname = \"prod\"\nfiles = [\"*.properties\"]\nsize = 3\n",
    ];
    for text in unknown {
        assert!(parses(text).is_err(), "{text}");
        assert!(!schema_errors(&validator, text).is_empty(), "{text}");
    }
    // Values the parser restricts, the schema restricts too.
    for text in [
        "select = [\"no-such-rule\"]\n",
        "ignore = [\"hygien\"]\n",
        "[rules.no-such-rule]\nseverity = \"error\"\n",
        "[rules.min-isr-one]\nseverity = \"fatal\"\n",
        "kafka-version = \"2.7\"\n",
        "kafka-version = \"9.9\"\n",
        "strict = \"yes\"\n",
        "bitnami-kafka-chart = \"latest\"\n",
        "[images]\n\"registry.example.com/platform/kafka\" = \"apache/kafka\"\n",
        "[images]\n\"registry.example.com/platform/kafka\" = \"mycorp/kafka:3.9.0\"\n",
        "[images]\n\"registry.example.com/platform/kafka@sha256:00\" = \"apache/kafka:3.9.0\"\n",
        "[images]\n\"registry.example.com/platform/kafka\" = 3\n",
        "[per-path-ignores]\n\"a/*\" = [\"nope\"]\n",
        "[[clusters]]\nfiles = [\"*.properties\"]\n",
        "[[clusters]]\nname = \"prod\"\n",
        "[[clusters]]\nname = \"prod\"\nfiles = [\"*.properties\"]\nbrokers = 0\n",
    ] {
        assert!(parses(text).is_err(), "{text}");
        assert!(!schema_errors(&validator, text).is_empty(), "{text}");
    }
    // Every catalogue release is a kafka-version both take.
    for release in kafkalint::catalog::VERSIONS {
        let text = format!("kafka-version = \"{release}\"\n");
        assert!(parses(&text).is_ok(), "{text}");
        assert!(schema_errors(&validator, &text).is_empty(), "{text}");
    }
}
