//! `cordoned-log-dirs`: from Kafka 4.3 a broker refuses to start when `cordoned.log.dirs` names
//! a directory that is not one of its log directories, or mixes `*` with directory names.

use super::refusal::NodeCheck;
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog;
use crate::cluster::Cluster;
use crate::cluster::setting::{Item, Lookup, config_list_split, split};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "cordoned-log-dirs",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "cordoned.log.dirs naming a directory the broker does not have, or `*` beside names: the broker refuses to start",
    check: Check::Files(check),
};

const KEY: &str = "cordoned.log.dirs";
const INPUTS: &[&str] = &[KEY, "log.dirs", "log.dir", "process.roles"];

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    // The key arrived in 4.3; older releases ignore it.
    if catalog::spec(KEY, version).is_none() {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for at in NodeCheck::judged(&RULE, cluster, context, INPUTS) {
        // Kafka checks it on nodes with the broker role only.
        if !at.roles().is_some_and(|roles| roles.roles.broker) {
            continue;
        }
        let Lookup::Set(cordoned) = context.lookup(at.node, KEY, version) else {
            continue;
        };
        let items = split(cordoned.text, config_list_split(KEY, version));
        let label =
            |item: Item, message: &str| at.label(KEY, &cordoned, Some(item), message.to_owned());
        let refusal =
            |why: String, labels: Vec<Label>, help: String| at.refusal(KEY, why, labels, help);
        if let Some(star) = items.iter().find(|item| item.text == "*") {
            if items.len() > 1 {
                diagnostics.push(refusal(
                    format!("{KEY} has `*` (every log directory) beside directory names"),
                    vec![label(*star, "`*` cordons every directory")],
                    format!("set {KEY}=* alone, or list only directories"),
                ));
            }
            continue;
        }
        let Some(dirs) = context
            .facts
            .node(at.node)
            .and_then(|facts| facts.log_dirs.as_ref())
        else {
            continue;
        };
        let missing: Vec<Item> = items
            .iter()
            .copied()
            .filter(|item| !dirs.iter().any(|dir| dir == item.text))
            .collect();
        if missing.is_empty() {
            continue;
        }
        let names = missing
            .iter()
            .map(|item| quoted(KEY, item.text))
            .collect::<Vec<_>>()
            .join(", ");
        let known = if dirs.is_empty() {
            "none".to_owned()
        } else {
            dirs.join(", ")
        };
        diagnostics.push(refusal(
            format!("{KEY} names {names}, not among its log directories ({known})"),
            missing
                .iter()
                .map(|item| label(*item, "not a log directory"))
                .collect(),
            "name directories exactly as log.dirs (or log.dir) lists them, or `*` for all of them"
                .to_owned(),
        ));
    }
    diagnostics
}
