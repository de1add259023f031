//! `malformed-escape`: a `\u` escape that `java.util.Properties` cannot read.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "malformed-escape",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a \\u escape without four hex digits: the file cannot be loaded",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    cluster
        .files
        .iter()
        .filter_map(|&file| {
            let error = context.parse_error(file)?;
            Some(RULE.finding("a malformed \\uxxxx escape: Kafka cannot load this file and refuses to start").stopping_startup().with_label(Label { file, span: error.span.clone(), message: error.to_string() }).with_help("write exactly four hex digits after \\u (\\u00e9), or double the backslash for a literal one (\\\\u)"))
        })
        .collect()
}
