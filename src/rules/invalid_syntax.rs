//! `invalid-syntax`: a file of a form kafkalint reads (YAML, Terraform) that cannot be parsed.
//! The tool that reads it refuses it as well, and nothing in it is checked. Such a file is in
//! no cluster: `crate::report::run` builds these findings with [`finding`], as `ruff` reports a
//! syntax error beside the rules that could not run.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::properties::Span;

pub const RULE: Rule = Rule {
    name: "invalid-syntax",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a YAML, Terraform or inventory file its tool cannot parse: nothing in it is checked",
    check: Check::Files(check),
};

/// Nothing to do per cluster: an unparsed file is in none (see `crate::report::run`).
fn check(_: &Cluster, _: &Context) -> Vec<Diagnostic> {
    Vec::new()
}

/// The finding for file `file` (shown as `path`), which its parser refused at `span` with
/// `reason`; `refused_by` says what the tools that read it do with it
/// (`crate::sources::refused_by`).
pub(crate) fn finding(file: usize, span: Span, reason: &str, refused_by: &str) -> Diagnostic {
    // What the tools that read the file do with it is the help's, to keep the message short.
    RULE.finding(format!("{reason}: kafkalint checks nothing in it"))
        .with_label(Label {
            file,
            span,
            message: "the parser stops here".to_string(),
        })
        .with_help(format!(
            "{refused_by}; fix the syntax where the parser stops, then check again"
        ))
}
