//! `--statistics`: how many findings each rule reported, most first, instead of the findings,
//! as `ruff check --statistics` counts them: the count, the rule, `[*]` when a finding of it
//! carries a fix `--fix` makes (a safe one; any with `--unsafe-fixes`; `[ ]` when another
//! rule's does), and the rule's summary.

use serde_json::json;

use crate::diagnostic::Applicability;
use crate::report::Report;
use crate::rules;

/// Per rule: its name, how many findings, whether one carries a fix `allowed` makes. Most
/// first, then by name.
fn counts(report: &Report, allowed: Applicability) -> Vec<(&'static str, usize, bool)> {
    let mut counts: Vec<(&'static str, usize, bool)> = Vec::new();
    for diagnostic in &report.diagnostics {
        // A finding about several nodes counts once a node, as the summary counts it.
        let places = diagnostic.locations().count();
        let fixable = diagnostic
            .fix
            .as_ref()
            .is_some_and(|fix| fix.applicability.applies(allowed));
        match counts
            .iter_mut()
            .find(|(rule, _, _)| *rule == diagnostic.rule)
        {
            Some((_, count, any)) => {
                *count += places;
                *any |= fixable;
            }
            None => counts.push((diagnostic.rule, places, fixable)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
}

fn summary(rule: &str) -> &'static str {
    rules::find(rule).map_or("", |rule| rule.summary)
}

/// One line per rule, its columns separated by tabs; nothing for a clean report.
pub fn statistics_text(report: &Report, allowed: Applicability) -> String {
    let counts = counts(report, allowed);
    let count_width = counts
        .iter()
        .map(|c| c.1.to_string().len())
        .max()
        .unwrap_or(0);
    let rule_width = counts.iter().map(|c| c.0.len()).max().unwrap_or(0);
    let any_fixable = counts.iter().any(|c| c.2);
    counts
        .iter()
        .map(|(rule, count, fixable)| {
            let marker = match (any_fixable, fixable) {
                (false, _) => "",
                (true, true) => "[*] ",
                (true, false) => "[ ] ",
            };
            format!(
                "{count:>count_width$}\t{rule:<rule_width$}\t{marker}{}\n",
                summary(rule)
            )
        })
        .collect()
}

/// `--format json --statistics`: an array of `{rule, count, fixable, summary}`, most first.
pub fn statistics_json(report: &Report, allowed: Applicability) -> String {
    let counts: Vec<serde_json::Value> = counts(report, allowed)
        .into_iter()
        .map(|(rule, count, fixable)| {
            json!({ "rule": rule, "count": count, "fixable": fixable, "summary": summary(rule) })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&counts).expect("plain data serializes");
    text.push('\n');
    text
}
