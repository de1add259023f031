//! `shared-log-dir`: two nodes on one machine that lock the same log directory.

use super::support::{node_name, value_label};
use super::{Context, Rule};
use crate::cluster::exposure::{LockedDir, comparable_path, locked_dirs, single_host};
use crate::cluster::{Cluster, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::source::SourceFile;

pub const RULE: Rule = Rule {
    name: "shared-log-dir",
    severity: Severity::Error,
    summary: "two nodes on one host with the same log or metadata directory: the second fails to lock it",
    check,
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let files = context.files;
    let version = cluster.target.version;
    let placed: Vec<(&Node, String, Vec<LockedDir>)> = cluster
        .nodes
        .iter()
        .filter_map(|node| {
            let host = single_host(files, node, version)?;
            Some((node, host, locked_dirs(files, node, version)))
        })
        .collect();
    let mut diagnostics = Vec::new();
    for (index, (second, host, second_dirs)) in placed.iter().enumerate() {
        for (first, first_host, first_dirs) in &placed[..index] {
            if first_host != host {
                continue;
            }
            let mut reported: Vec<&str> = Vec::new();
            for dir in second_dirs {
                let Some(path) = comparable_path(&dir.path) else {
                    continue;
                };
                if reported.contains(&path) {
                    continue;
                }
                let Some(other) = first_dirs
                    .iter()
                    .find(|other| comparable_path(&other.path) == Some(path))
                else {
                    continue;
                };
                reported.push(path);
                diagnostics.push(finding(files, (second, dir), (first, other), host, path));
            }
        }
    }
    diagnostics
}

fn finding(
    files: &[SourceFile],
    (second, dir): (&Node, &LockedDir),
    (first, other): (&Node, &LockedDir),
    host: &str,
    path: &str,
) -> Diagnostic {
    let (second_name, first_name) = (node_name(files, second), node_name(files, first));
    let labels: Vec<Label> = vec![
        value_label(
            second,
            dir.key,
            &dir.effective,
            format!("`{path}`, also used by {first_name}"),
        ),
        value_label(
            first,
            other.key,
            &other.effective,
            format!("`{path}`, also used by {second_name}"),
        ),
    ];
    let keys = if dir.key == other.key {
        String::new()
    } else {
        format!(" ({} and {})", dir.key, other.key)
    };
    Diagnostic {
        fix: None,
        rule: RULE.name,
        severity: Severity::Error,
        stops_startup: false,
        message: format!(
            "{second_name} and {first_name} run on one host (every listener of both names `{host}`) and both keep \
             their data in `{path}`{keys}: Kafka locks the directory (`.lock`), so whichever starts second \
             exits with \"Failed to acquire lock on file .lock in {path}\" and never \
             joins the cluster"
        ),
        key: Some(dir.key.to_string()),
        labels,
        help: format!(
            "give every node on the host its own directory, e.g. {}={path}-{} and {}={path}-{}",
            dir.key,
            node_suffix(files, second),
            other.key,
            node_suffix(files, first)
        ),
    }
}

fn node_suffix(files: &[SourceFile], node: &Node) -> String {
    node.id_entry(files)
        .map(|entry| entry.value.trim().to_string())
        .unwrap_or_else(|| "N".to_string())
}
