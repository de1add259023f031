//! `unused-suppression`: a `# kafkalint: ignore[...]` comment that suppresses nothing, names no
//! rule, cannot be read, or sits inside a value. Suppressions are applied after every rule ran
//! (`crate::suppress`), which builds these diagnostics with the functions below.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::directive::Scope;
use crate::properties::Span;

pub const RULE: Rule = Rule {
    name: "unused-suppression",
    severity: Severity::Warning,
    group: Group::Hygiene,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a `# kafkalint: ignore[...]` comment that suppresses nothing, names no rule, cannot be read or sits in a value",
    check: Check::Files(check),
};

/// Nothing to do per cluster: see `crate::suppress::apply`.
fn check(_: &Cluster, _: &Context) -> Vec<Diagnostic> {
    Vec::new()
}

const HOW: &str = "write `# kafkalint: ignore[rule-name] reason` on its own line directly above the entry, \
                   or `# kafkalint: ignore-file[rule-name] reason` anywhere in the file";

fn diagnostic(
    file: usize,
    span: Span,
    label: &str,
    message: String,
    help: String,
    key: Option<&str>,
) -> Diagnostic {
    RULE.finding(message)
        .with_key_opt(key.map(str::to_string))
        .with_label(Label {
            file,
            span,
            message: label.to_string(),
        })
        .with_help(help)
}

/// A name in a suppression that is no rule.
pub(crate) fn unknown_rule(
    file: usize,
    span: Span,
    name: &str,
    nearest: Option<&str>,
) -> Diagnostic {
    // The name is shown only when it looks like one: never arbitrary text from the file.
    let shown = if !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
    {
        format!("`{name}`")
    } else {
        "this name".to_string()
    };
    let help = match nearest {
        Some(nearest) => format!("did you mean `{nearest}`? (`kafkalint rules` lists every rule)"),
        None => "name a rule that `kafkalint rules` lists, or remove the name".to_string(),
    };
    diagnostic(
        file,
        span,
        "no such rule",
        format!("{shown} in this suppression is no kafkalint rule: it suppresses nothing"),
        help,
        None,
    )
}

/// A rule name in a suppression that suppressed no diagnostic.
pub(crate) fn unused(file: usize, span: Span, name: &str, scope: &Scope) -> Diagnostic {
    let (message, help) = match scope {
        Scope::NoEntry => (
            format!(
                "this suppression of {name} is not directly above an entry: it suppresses nothing"
            ),
            "move it to the line directly above the entry, or make it `ignore-file[...]` for the whole file"
                .to_string(),
        ),
        Scope::Entry(_) => (
            format!(
                "this suppression of {name} suppresses nothing: it would only hide a future finding"
            ),
            format!("remove {name} from the suppression, or the whole comment"),
        ),
        Scope::File => (
            format!(
                "this file-wide suppression of {name} suppresses nothing: it would only hide a future finding"
            ),
            format!("remove {name} from the suppression, or the whole comment"),
        ),
    };
    diagnostic(file, span, "suppresses nothing", message, help, None)
}

/// A comment that starts `kafkalint:` but is no suppression kafkalint can read.
pub(crate) fn unreadable(file: usize, span: Span, problem: &str) -> Diagnostic {
    diagnostic(
        file,
        span,
        "not a suppression kafkalint can read",
        format!("this kafkalint comment suppresses nothing: {problem}"),
        HOW.to_string(),
        None,
    )
}

/// A suppression written after a value: `.properties` has no end-of-line comments.
pub(crate) fn in_value(file: usize, span: Span, key: &str) -> Diagnostic {
    diagnostic(
        file,
        span,
        "part of the value",
        format!(
            "the kafkalint suppression after {key}'s value is part of that value: it suppresses nothing"
        ),
        format!("end the value before the `#` and {HOW}"),
        Some(key),
    )
}
