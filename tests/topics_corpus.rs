//! The topics corpus (tests/topics/corpus/): topic declarations from public repositories, each
//! judged by hand before kafkalint read any (JUDGED.tsv: a line per expected finding, per topic
//! judged clean (`-`), and per topic whose cluster cannot be known (`not-checked`)). kafkalint's
//! topic findings on it must be ones the judgement expects: no finding where the judgement says
//! clean or not checked, none on a topic it did not judge. What it misses is listed and counted,
//! and the count may only go down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod support;

/// How many judged findings kafkalint reports today, at least.
const AGREEMENTS_AT_LEAST: usize = 137;

/// (file, line) -> the rules judged there (`-` clean, `not-checked`).
fn judged(corpus: &Path) -> BTreeMap<(String, usize), BTreeSet<String>> {
    let text = std::fs::read_to_string(corpus.join("JUDGED.tsv")).unwrap();
    let mut judged: BTreeMap<(String, usize), BTreeSet<String>> = BTreeMap::new();
    for line in text.lines().skip(1).filter(|line| !line.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let place = (fields[0].to_string(), fields[1].parse().unwrap());
        judged
            .entry(place)
            .or_default()
            .insert(fields[2].to_string());
    }
    judged
}

#[test]
fn topic_findings_on_the_corpus_are_those_judged_by_hand() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/topics/corpus");
    let judged = judged(&corpus);
    let report = support::check_folder(&corpus, &kafkalint::Options::default()).report;
    let prefix = format!("{}/", corpus.display());
    let mut reported: BTreeSet<(String, usize, String)> = BTreeSet::new();
    let mut false_alarms = Vec::new();
    for diagnostic in report
        .diagnostics
        .iter()
        .filter(|d| d.rule.starts_with("topic-"))
    {
        // A finding agrees when one of its labels sits on a line judged with its rule.
        let places: Vec<(String, usize)> = diagnostic
            .labels
            .iter()
            .map(|label| {
                let file = &report.files[label.file];
                let path = file.path.strip_prefix(&prefix).unwrap_or(&file.path);
                (path.to_string(), file.line(label.span.start))
            })
            .collect();
        let agreeing = places.iter().find(|place| {
            judged
                .get(*place)
                .is_some_and(|rules| rules.contains(diagnostic.rule))
        });
        match agreeing {
            Some((file, line)) => {
                reported.insert((file.clone(), *line, diagnostic.rule.to_string()));
            }
            None => false_alarms.push(format!(
                "{}:{} {}: {}",
                places[0].0, places[0].1, diagnostic.rule, diagnostic.message
            )),
        }
    }
    let expected: Vec<(String, usize, String)> = judged
        .iter()
        .flat_map(|((file, line), rules)| {
            rules
                .iter()
                .filter(|rule| rule.starts_with("topic-"))
                .map(move |rule| (file.clone(), *line, rule.clone()))
        })
        .collect();
    let missed: Vec<String> = expected
        .iter()
        .filter(|place| !reported.contains(*place))
        .map(|(file, line, rule)| format!("{file}:{line} {rule}"))
        .collect();
    eprintln!(
        "topics corpus: {} judged findings, {} reported, {} missed:\n  {}",
        expected.len(),
        reported.len(),
        missed.len(),
        missed.join("\n  ")
    );
    assert!(
        false_alarms.is_empty(),
        "topic findings the judgement does not expect:\n{}",
        false_alarms.join("\n")
    );
    assert!(
        reported.len() >= AGREEMENTS_AT_LEAST,
        "{} judged findings reported, fewer than the {AGREEMENTS_AT_LEAST} reported before",
        reported.len()
    );
}
