//! The rule registry is checked, not trusted: adding a rule is its file in `src/rules/`, its doc
//! `rules/<name>.md`, its fixtures `fixtures/<name>/{bad*,good*}` and one line in `RULES`, and
//! this test fails when any of them is missing, repeated or left over. Findings are built with
//! the builder of `src/diagnostic.rs`, never written out as a struct literal elsewhere.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kafkalint::rules::{FixAvailability, RULES, Verified};

mod support;

/// Fixture folders that are scenarios of the manual, not one rule's.
const SCENARIOS: &[&str] = &[
    "seed-zk-3-brokers",
    "seed-zk-3-brokers-fixed",
    "upgrade-to-4.1",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Per module of `src/rules/` that defines a `RULE`: the name it gives the rule.
fn rule_files() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for name in names_in(&root().join("src/rules")) {
        let text = std::fs::read_to_string(root().join("src/rules").join(&name)).unwrap();
        let Some(after) = text.split_once("pub const RULE: Rule = Rule {") else {
            continue;
        };
        let rule_name = after
            .1
            .split_once("name: \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(name, _)| name.to_string())
            .expect("a RULE has a name");
        files.insert(name.trim_end_matches(".rs").to_string(), rule_name);
    }
    files
}

/// The modules `RULES` lists, in order, read from the source of the registry.
fn registry_entries(registry: &str) -> Vec<String> {
    let list = registry
        .split_once("pub const RULES: &[Rule] = &[")
        .and_then(|(_, rest)| rest.split_once("];"))
        .map(|(list, _)| list)
        .expect("src/rules/mod.rs declares RULES");
    list.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty() && !entry.starts_with("//"))
        .map(|entry| {
            entry
                .strip_suffix("::RULE")
                .unwrap_or_else(|| panic!("RULES holds `module::RULE` entries only: {entry}"))
                .to_string()
        })
        .collect()
}

#[test]
fn every_rule_file_is_registered_once_under_its_own_name() {
    let files = rule_files();
    let registry = std::fs::read_to_string(root().join("src/rules/mod.rs")).unwrap();
    let entries = registry_entries(&registry);
    for module in files.keys() {
        let count = entries.iter().filter(|entry| *entry == module).count();
        assert_eq!(count, 1, "src/rules/{module}.rs is in RULES {count} times");
    }
    for entry in &entries {
        assert!(
            files.contains_key(entry),
            "RULES lists {entry}::RULE, but src/rules/{entry}.rs defines no RULE"
        );
    }
    // One name for the file, the rule, the doc and the fixtures.
    for (module, name) in &files {
        assert_eq!(
            module.replace('_', "-"),
            *name,
            "src/rules/{module}.rs names its rule {name}"
        );
    }
    let registered: Vec<&str> = RULES.iter().map(|rule| rule.name).collect();
    let listed: Vec<String> = entries.iter().map(|entry| files[entry].clone()).collect();
    assert_eq!(registered, listed, "RULES as compiled and as written");
}

#[test]
fn the_registry_reader_sees_a_missing_or_repeated_rule() {
    let registry = "pub const RULES: &[Rule] = &[\n    a::RULE,\n    b::RULE,\n    a::RULE,\n];";
    assert_eq!(registry_entries(registry), ["a", "b", "a"]);
}

#[test]
fn every_rule_has_a_doc_and_bad_and_good_fixtures() {
    for rule in RULES {
        let doc = root().join("rules").join(format!("{}.md", rule.name));
        assert!(doc.is_file(), "{}: no rules/{}.md", rule.name, rule.name);
        let fixtures = root().join("fixtures").join(rule.name);
        assert!(
            fixtures.is_dir(),
            "{}: no fixtures/{}/",
            rule.name,
            rule.name
        );
        let variants = names_in(&fixtures);
        for kind in ["bad", "good"] {
            assert!(
                variants.iter().any(|variant| variant.starts_with(kind)),
                "{}: no fixtures/{}/{kind}*/",
                rule.name,
                rule.name
            );
        }
        for variant in &variants {
            assert!(
                variant.starts_with("bad") || variant.starts_with("good"),
                "fixtures/{}/{variant}: a fixture is bad* or good*",
                rule.name
            );
        }
    }
}

#[test]
fn every_doc_and_fixture_folder_names_a_rule() {
    for name in names_in(&root().join("rules")) {
        let rule = name.strip_suffix(".md").unwrap_or(&name);
        assert!(
            kafkalint::rules::find(rule).is_some(),
            "rules/{name} documents no rule"
        );
    }
    for name in names_in(&root().join("fixtures")) {
        assert!(
            kafkalint::rules::find(&name).is_some() || SCENARIOS.contains(&name.as_str()),
            "fixtures/{name}/ names no rule (nor a scenario listed in tests/registry.rs)"
        );
    }
    for scenario in SCENARIOS {
        assert!(
            root().join("fixtures").join(scenario).is_dir(),
            "fixtures/{scenario}/ is listed as a scenario but does not exist"
        );
    }
}

/// Every bad fixture's findings of its rule: a fix among them exactly when the registry says
/// the rule has fixes.
#[test]
fn fix_availability_matches_the_fixes_rules_offer() {
    for rule in RULES {
        let fixtures = root().join("fixtures").join(rule.name);
        let mut fixed = false;
        for variant in names_in(&fixtures) {
            let cluster: PathBuf = fixtures.join(&variant);
            let kafka_version = std::fs::read_to_string(cluster.join(".kafka-version"))
                .ok()
                .map(|text| kafkalint::catalog::KafkaVersion::parse(text.trim()).unwrap());
            let options = kafkalint::Options {
                kafka_version,
                ..kafkalint::Options::default()
            };
            let checked = support::check_folder(&cluster, &options);
            let report = checked.report;
            fixed |= report
                .diagnostics
                .iter()
                .any(|diagnostic| diagnostic.rule == rule.name && diagnostic.fix.is_some());
            // A live rule's fix is the reassignment `kafkalint live --fix` writes.
            fixed |= checked.plan.is_some_and(|plan| plan.rule == rule.name)
                && report
                    .diagnostics
                    .iter()
                    .any(|diagnostic| diagnostic.rule == rule.name);
        }
        assert_eq!(
            fixed,
            rule.fix != FixAvailability::None,
            "{}: declared fix {:?}, but its fixtures {} a fix",
            rule.name,
            rule.fix,
            if fixed { "get" } else { "never get" }
        );
    }
}

#[test]
fn verified_releases_are_releases_of_the_catalogue() {
    let versions = kafkalint::catalog::VERSIONS;
    assert_eq!(
        Verified::CATALOGUE,
        Verified::Releases(versions[0], versions[versions.len() - 1]),
        "Verified::CATALOGUE spans the catalogue"
    );
    for rule in RULES {
        let (first, last) = match rule.verified {
            Verified::Oracle(releases) => (releases[0], releases[releases.len() - 1]),
            Verified::Releases(first, last) => (first, last),
        };
        assert!(
            versions.contains(&first) && versions.contains(&last) && first <= last,
            "{}: verified for {} (not releases of the catalogue)",
            rule.name,
            rule.verified
        );
    }
}

/// `Diagnostic {` opening a struct literal, anywhere but a signature, a definition or an impl.
fn struct_literals(source: &str) -> Vec<usize> {
    let mut found = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("Diagnostic") {
            let before = &rest[..at];
            let after = rest[at + "Diagnostic".len()..].trim_start();
            let joined = before.ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let declared = ["-> ", "struct ", "impl ", "for "]
                .iter()
                .any(|word| before.trim_end().ends_with(word.trim_end()));
            if after.starts_with('{') && !joined && !declared {
                found.push(index + 1);
            }
            rest = &rest[at + "Diagnostic".len()..];
        }
    }
    found
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_diagnostic_is_written_out_outside_the_builder() {
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    let builder = root().join("src/diagnostic.rs");
    let mut literals = Vec::new();
    for file in files.iter().filter(|file| **file != builder) {
        let source = std::fs::read_to_string(file).unwrap();
        for line in struct_literals(&source) {
            literals.push(format!("{}:{line}", file.display()));
        }
    }
    assert!(
        literals.is_empty(),
        "build findings with Rule::finding(..).with_*(..), not a `Diagnostic {{ .. }}` literal: {literals:?}"
    );
}

#[test]
fn the_literal_scan_finds_a_literal_and_passes_over_signatures() {
    let source = "fn f() -> Diagnostic {\n    Diagnostic {\n        rule: RULE.name,\n    }\n}\n\
                  pub struct Diagnostic {}\nimpl Diagnostic {}\nstruct JsonDiagnostic {}\n\
                  let d = crate::diagnostic::Diagnostic { rule };\n";
    assert_eq!(struct_literals(source), [2, 9]);
}

/// What a rule file may not name: the checked files themselves, and the properties reader's
/// entries. A rule asks the model through `Context` (`src/rules/support.rs`), which answers for
/// a node or a cluster with its `Line`s and values.
fn raw_file_reads(source: &str) -> Vec<usize> {
    const RAW: &[&str] = &[
        "SourceFile",
        "context.files",
        "files[",
        "crate::source",
        "PropertiesFile",
        "effective_entries",
    ];
    let names_an_entry = |line: &str| line.contains("properties::") && line.contains("Entry");
    code_lines_where(source, |line| {
        RAW.iter().any(|raw| line.contains(raw)) || names_an_entry(line)
    })
}

/// The numbers (from 1) of the lines of `source` that are not `//` comments and match.
fn code_lines_where(source: &str, matches: impl Fn(&str) -> bool) -> Vec<usize> {
    source
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//") && matches(line))
        .map(|(index, _)| index + 1)
        .collect()
}

/// The lines `scan` finds in each rule file (all of `src/rules/` but the model's side of the
/// rules layer: what a rule sees, and the registry), as `src/rules/<file>:<line>`.
fn scan_rule_files(scan: fn(&str) -> Vec<usize>) -> Vec<String> {
    const MODEL_SIDE: &[&str] = &["mod.rs", "rule.rs", "support.rs", "topic_support.rs"];
    let mut found = Vec::new();
    for name in names_in(&root().join("src/rules")) {
        if MODEL_SIDE.contains(&name.as_str()) {
            continue;
        }
        let source = std::fs::read_to_string(root().join("src/rules").join(&name)).unwrap();
        found.extend(
            scan(&source)
                .into_iter()
                .map(|line| format!("src/rules/{name}:{line}")),
        );
    }
    found
}

#[test]
fn no_rule_reads_the_checked_files_or_their_entries_directly() {
    let reads = scan_rule_files(raw_file_reads);
    assert!(
        reads.is_empty(),
        "read the model through Context (src/rules/support.rs), not the files or their entries: {reads:?}"
    );
}

#[test]
fn no_rule_calls_kafkas_parsers_itself() {
    let calls = scan_rule_files(parser_calls);
    assert!(
        calls.is_empty(),
        "read a node's ids, roles, listeners, quorum and log dirs from its facts (src/cluster/facts.rs), \
         parsed once per node: {calls:?}"
    );
}

#[test]
fn the_parser_scan_finds_each_parser() {
    let source = "let id = parse_java_integer(text, 0, 1);\nlet roles = process_roles(setting, v);\n\
                  let l = NodeListeners::read(files, node, v, roles);\nmatch voters(setting, v) {}\n\
                  let b = bootstrap_servers(setting, v);\nlet d = storage::log_dirs(a, b, v);\n\
                  // parse_java_integer in a comment\nlet n = voters_without_node(context, nodes);\n\
                  advertised_controllers(node_id, voters);\ncanonical_voters(value, v);\n";
    assert_eq!(parser_calls(source), [1, 2, 3, 4, 5, 6]);
}

/// Kafka's parsers of what a node is: a rule reads their results from the node's facts, which
/// call them once per node.
fn parser_calls(source: &str) -> Vec<usize> {
    const PARSERS: &[&str] = &[
        "parse_java_integer",
        "process_roles(",
        "NodeListeners::read",
        "voters(",
        "bootstrap_servers(",
        "storage::log_dirs",
    ];
    code_lines_where(source, |line| {
        PARSERS.iter().any(|parser| names(line, parser))
    })
}

/// Whether `line` names `name` as a whole identifier (`voters(` but not `canonical_voters(`).
fn names(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(at, _)| {
        !line[..at]
            .chars()
            .next_back()
            .is_some_and(|before| before.is_alphanumeric() || before == '_')
    })
}

#[test]
fn the_raw_read_scan_finds_file_reads_and_passes_over_comments() {
    let source = "let files = context.files;\n// files[0] in a comment\n\
                  let bytes = &files[node.file].bytes;\nfn f(files: &[SourceFile]) {}\n\
                  let name = context.node_name(node);\nuse crate::properties::{Entry, Span};\n\
                  use crate::properties::Span;\nfn g(entry: &crate::properties::Entry) {}\n";
    assert_eq!(raw_file_reads(source), [1, 3, 4, 6, 8]);
}

#[test]
fn the_fuzz_lock_file_lists_every_dependency_of_the_crate() {
    // CI fetches the fuzz targets' dependencies with --locked: a dependency added to the crate
    // and not to fuzz/Cargo.lock fails there. `cargo metadata --locked` fails the same way.
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--locked",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(root().join("fuzz/Cargo.toml"))
        .stdout(std::process::Stdio::null())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "fuzz/Cargo.lock is out of date (run `cargo update --workspace --manifest-path fuzz/Cargo.toml`): {}",
        String::from_utf8_lossy(&output.stderr)
    );
}
