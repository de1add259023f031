//! `shared-log-dir`: nodes on one machine that lock the same log directory, reported once per
//! directory with a label on each node.

use std::collections::BTreeMap;

use super::support::{and_list, value_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::exposure::{LockedDir, comparable_path, single_host};
use crate::cluster::host::Place;
use crate::cluster::{Cluster, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "shared-log-dir",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "two nodes on one host with the same log or metadata directory: the second fails to lock it",
    check: Check::Files(check),
};

/// One node that locks a directory: the node and the setting that names the directory, with
/// where they stand (the node among the placed nodes, the directory among the node's).
type Holder<'a, 'n> = (&'n Node, &'n LockedDir<'a>, (usize, usize));

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let hosts = context.hosts;
    // Only nodes taken to share their files with others: a container or a pod has its own, and
    // a node the files do not place is compared with none.
    let placed: Vec<(&Node, String, Vec<LockedDir>)> = cluster
        .nodes
        .iter()
        .filter(|node| matches!(hosts.node(node).disk, Place::Shared(_)))
        .filter_map(|node| {
            let host = single_host(context.facts.listeners(node)?)?;
            Some((node, host, context.locked_dirs(node, version)))
        })
        .collect();
    // (host, path) -> the nodes that lock it, in node order, each once: grouped by key rather
    // than compared pairwise, so that many nodes on one host stay linear.
    let mut by_dir: BTreeMap<(&str, &str), Vec<Holder>> = BTreeMap::new();
    for (index, (node, host, dirs)) in placed.iter().enumerate() {
        for (at, dir) in dirs.iter().enumerate() {
            let Some(path) = comparable_path(&dir.path) else {
                continue;
            };
            let holders = by_dir.entry((host.as_str(), path)).or_default();
            if holders
                .last()
                .is_none_or(|(_, _, (last, _))| *last != index)
            {
                holders.push((node, dir, (index, at)));
            }
        }
    }
    let mut diagnostics: Vec<((usize, usize), Diagnostic)> = by_dir
        .into_iter()
        .filter(|(_, holders)| holders.len() > 1)
        .map(|((host, path), holders)| (holders[1].2, finding(context, &holders, host, path)))
        .collect();
    // In the order a pairwise scan meets them: by the second node, then its directory.
    diagnostics.sort_by_key(|(order, _)| *order);
    diagnostics.into_iter().map(|(_, found)| found).collect()
}

/// One finding for every node on `host` that locks `path`: the second node's label first (it
/// is the one a pair of nodes reports), then the first's, then the others'.
fn finding(context: &Context, holders: &[Holder], host: &str, path: &str) -> Diagnostic {
    let (second, dir, _) = holders[1];
    let (first, other, _) = holders[0];
    let names: Vec<String> = holders
        .iter()
        .map(|(node, _, _)| context.node_name(node))
        .collect();
    let label = |index: usize| {
        let (node, dir, _) = holders[index];
        let others = if holders.len() == 2 {
            names[1 - index].clone()
        } else {
            format!("{} other nodes on `{host}`", holders.len() - 1)
        };
        value_label(
            node,
            dir.key,
            &dir.effective,
            format!("`{path}`, also used by {others}"),
        )
    };
    let mut labels: Vec<Label> = vec![label(1), label(0)];
    labels.extend((2..holders.len()).map(label));
    let mut keys: Vec<&str> = holders.iter().map(|(_, dir, _)| dir.key).collect();
    keys.sort_unstable();
    keys.dedup();
    let keys = match keys.as_slice() {
        [_] => String::new(),
        _ if holders.len() == 2 => format!(" ({} and {})", dir.key, other.key),
        _ => format!(" ({})", and_list(&keys)),
    };
    let message = if holders.len() == 2 {
        format!(
            "{} and {} on host `{host}` both keep their data in `{path}`{keys}: the second to start exits",
            names[1], names[0]
        )
    } else {
        format!(
            "{} nodes on host `{host}` keep their data in `{path}`{keys} ({}): all but the first to start exit",
            holders.len(),
            and_list(&names)
        )
    };
    RULE.finding(message)
        .with_key(dir.key)
        .with_labels(labels)
        .with_help(format!(
            "give every node on the host its own directory, e.g. {}={path}-{} and {}={path}-{}",
            dir.key,
            node_suffix(context, second),
            other.key,
            node_suffix(context, first)
        ))
}

fn node_suffix(context: &Context, node: &Node) -> String {
    context
        .id_line(node)
        .map(|entry| entry.value().trim().to_string())
        .unwrap_or_else(|| "N".to_string())
}
