//! Messages short enough to scan: over the fixtures and the examples of the rules' docs, and
//! over the corpus of real configuration
//! when it sits beside the checkout, the message a finding shows at each of its places (as
//! `--format concise`, github, SARIF and the language server show it) is at most 100
//! characters at the median and 140 at the 90th percentile. What a message leaves out lives in
//! its help and its rule's page.
//!
//! The corpus is `shared/corpus/{real-world,deployments}` in the checkout's parent folder or
//! one above it, or the folder `KAFKALINT_CORPUS` names; without it, that half is skipped with a
//! printed reason.

use std::path::{Path, PathBuf};

use kafkalint::Report;

mod support;

#[path = "support/rule_examples.rs"]
mod rule_examples;

const MEDIAN_AT_MOST: usize = 100;
const P90_AT_MOST: usize = 140;

/// A message as a line with a location shows it, and its rule.
struct Shown {
    rule: &'static str,
    message: String,
}

/// Each finding's message, once per place.
fn line_messages(report: &Report) -> Vec<Shown> {
    let mut messages = Vec::new();
    for grouped in &report.diagnostics {
        for diagnostic in grouped.per_node() {
            let path = &report.files[diagnostic.primary().file].path;
            messages.push(Shown {
                rule: diagnostic.rule,
                message: kafkalint::output::printable(&diagnostic.headline_in(path)),
            });
        }
    }
    messages
}

/// The median and the 90th percentile (nearest rank) of `lengths`.
fn median_and_p90(mut lengths: Vec<usize>) -> (f64, usize) {
    assert!(!lengths.is_empty(), "no message to measure");
    lengths.sort_unstable();
    let n = lengths.len();
    let median = if n % 2 == 1 {
        lengths[n / 2] as f64
    } else {
        (lengths[n / 2 - 1] + lengths[n / 2]) as f64 / 2.0
    };
    let rank = (n * 9).div_ceil(10).max(1);
    (median, lengths[rank - 1])
}

fn assert_short(what: &str, messages: Vec<Shown>) {
    let count = messages.len();
    let lengths = messages.iter().map(|shown| shown.message.chars().count());
    let (median, p90) = median_and_p90(lengths.collect());
    println!("{what}: {count} messages, median {median}, 90th percentile {p90}");
    if median <= MEDIAN_AT_MOST as f64 && p90 <= P90_AT_MOST {
        return;
    }
    // Where to start: the longest message of each rule, longest first.
    let mut longest: Vec<&Shown> = Vec::new();
    for shown in &messages {
        match longest.iter_mut().find(|other| other.rule == shown.rule) {
            Some(other) if other.message.len() < shown.message.len() => *other = shown,
            Some(_) => {}
            None => longest.push(shown),
        }
    }
    longest.sort_by_key(|shown| std::cmp::Reverse(shown.message.chars().count()));
    let examples: Vec<String> = longest
        .iter()
        .take(10)
        .map(|shown| format!("  [{}] {}", shown.rule, shown.message))
        .collect();
    panic!(
        "{what}: median {median} (at most {MEDIAN_AT_MOST}), 90th percentile {p90} (at most \
         {P90_AT_MOST}) over {count} messages; the longest:\n{}",
        examples.join("\n")
    );
}

#[test]
fn fixture_messages_are_short() {
    std::env::set_current_dir(env!("CARGO_MANIFEST_DIR")).unwrap();
    let mut messages = Vec::new();
    for cluster in support::fixture_clusters() {
        let kafka_version = std::fs::read_to_string(cluster.join(".kafka-version"))
            .ok()
            .map(|text| kafkalint::catalog::KafkaVersion::parse(text.trim()).unwrap());
        let options = kafkalint::Options {
            kafka_version,
            ..kafkalint::Options::default()
        };
        messages.extend(line_messages(
            &support::check_folder(&cluster, &options).report,
        ));
    }
    messages.extend(rule_doc_messages());
    assert!(messages.len() > 300, "fixture findings: {}", messages.len());
    assert_short("fixtures and rule-doc examples", messages);
}

/// The messages of every example of every rule's doc (`rules/<name>.md`), checked as
/// `tests/rule_docs.rs` checks them.
fn rule_doc_messages() -> Vec<Shown> {
    let mut messages = Vec::new();
    for rule in kafkalint::rules::RULES {
        let doc =
            std::fs::read_to_string(Path::new("rules").join(format!("{}.md", rule.name))).unwrap();
        for example in rule_examples::examples(&doc) {
            messages.extend(line_messages(&example.report()));
        }
    }
    messages
}

/// The corpus folder: `KAFKALINT_CORPUS`, else `shared/corpus` beside the checkout or beside a
/// folder above it.
fn corpus() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KAFKALINT_CORPUS") {
        return Some(PathBuf::from(dir));
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared").join("corpus"))
        .find(|dir| dir.join("real-world").is_dir())
}

#[test]
fn corpus_messages_are_short() {
    let Some(corpus) = corpus() else {
        println!(
            "skipped: no corpus (shared/corpus beside the checkout or a folder above it, or \
             KAFKALINT_CORPUS)"
        );
        return;
    };
    let paths = vec![corpus.join("real-world"), corpus.join("deployments")];
    let report = kafkalint::check(&paths, &kafkalint::Options::default()).unwrap();
    let messages = line_messages(&report);
    assert!(messages.len() > 100, "corpus findings: {}", messages.len());
    assert_short("corpus", messages);
}

#[test]
fn the_percentiles_are_what_they_say() {
    assert_eq!(median_and_p90(vec![3, 1, 2]), (2.0, 3));
    assert_eq!(median_and_p90(vec![4, 1, 3, 2]), (2.5, 4));
    let hundred: Vec<usize> = (1..=100).rev().collect();
    assert_eq!(median_and_p90(hundred), (50.5, 90));
    assert_eq!(median_and_p90(vec![7]), (7.0, 7));
}
