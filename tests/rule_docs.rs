//! Every rule has a doc in `rules/<name>.md`, and the doc's examples are linted here: each "Bad"
//! example must trigger its rule and each "Good" example must not, so the docs cannot lie.

use std::path::Path;

use kafkalint::rules::RULES;

mod support;

#[path = "support/rule_examples.rs"]
mod rule_examples;
use rule_examples::examples;

#[test]
fn every_rule_has_a_doc_with_bad_and_good_examples_that_hold() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for rule in RULES {
        let path = root.join("rules").join(format!("{}.md", rule.name));
        let doc = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{} has no doc at {path:?}", rule.name));
        // The metadata header says what the registry says.
        let header = format!(
            "# {}\n\nGroup: **{}**. Fix: **{}**. Verified for: {}.\n",
            rule.name,
            rule.group.as_str(),
            rule.fix.as_str(),
            rule.verified
        );
        assert!(
            doc.starts_with(&header),
            "{}: the doc starts with its name and `{}`",
            rule.name,
            header.lines().nth(2).unwrap_or_default()
        );
        for section in [
            "## What it catches",
            "## Why it breaks production",
            "## Examples",
            "## Fix",
            "## Kafka documentation",
        ] {
            assert!(
                doc.contains(section),
                "{}: the doc has {section}",
                rule.name
            );
        }
        // A rule with a fix says how safe it is, and why, as ruff's docs do.
        assert_eq!(
            doc.contains("\n## Fix safety\n"),
            rule.fix != kafkalint::rules::FixAvailability::None,
            "{}: a doc has `## Fix safety` exactly when its rule has a fix",
            rule.name
        );
        let examples = examples(&doc);
        assert!(
            examples.iter().any(|e| e.bad) && examples.iter().any(|e| !e.bad),
            "{}: bad and good examples",
            rule.name
        );
        for example in examples {
            let report = example.report();
            let hits = report
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule.name)
                .count();
            // Each fix is as safe as the rule's header says.
            for fix in report
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule.name)
                .filter_map(|d| d.fix.as_ref())
            {
                assert_eq!(
                    fix.applicability.as_str(),
                    rule.fix.as_str(),
                    "{}",
                    rule.name
                );
            }
            if example.bad {
                assert!(
                    hits > 0,
                    "{}: \"{}\" should be reported",
                    rule.name,
                    example.title
                );
            } else {
                assert_eq!(
                    hits, 0,
                    "{}: \"{}\" should be clean: {:#?}",
                    rule.name, example.title, report.diagnostics
                );
            }
        }
    }
}

#[test]
fn every_doc_belongs_to_a_rule() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry
            .unwrap()
            .file_name()
            .to_string_lossy()
            .trim_end_matches(".md")
            .to_string();
        assert!(
            kafkalint::rules::find(&name).is_some(),
            "rules/{name}.md documents no rule"
        );
    }
}
