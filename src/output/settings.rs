//! `--show-settings`: what a check would be run with, instead of its findings: the config
//! file in force, the rules that do not run, and per cluster the Kafka release it is checked
//! against and why, its nodes, and each of its files with why it is in the cluster. Every
//! reason is the one the model recorded (`Cluster::target`, `Cluster::membership`, its nodes,
//! overlays and components); nothing is worked out again here.

use std::fmt::Write;

use super::printable;
use crate::cluster::{ChosenBy, Cluster};
use crate::report::Report;
use crate::rules::{self, Selection};

/// Why the cluster is checked against its release, in words.
fn release_reason(cluster: &Cluster) -> String {
    let target = &cluster.target;
    match &target.chosen_by {
        ChosenBy::Flag => "--kafka-version".into(),
        ChosenBy::Config => {
            let config = cluster.config.as_deref();
            let path = config.map_or("", |config| config.path.as_str());
            let by_entry = config
                .zip(cluster.declared)
                .is_some_and(|(config, at)| config.clusters[at].kafka_version.is_some());
            if by_entry {
                format!(
                    "kafka-version of its [[clusters]] entry in {}",
                    printable(path)
                )
            } else {
                format!("kafka-version in {}", printable(path))
            }
        }
        ChosenBy::Hint => "what its files show".into(),
        ChosenBy::Image(_) => printable(&target.image_reason().unwrap_or_default()),
        ChosenBy::Newest => "the newest release kafkalint knows: nothing chose another".into(),
    }
}

/// The rules that do not run for files checked with `config`, by `kafkalint.toml` and the
/// command line.
fn rules_off(config: Option<&crate::config::Config>, selection: &Selection) -> String {
    let (on, off): (Vec<&str>, Vec<&str>) = rules::RULES
        .iter()
        .map(|rule| rule.name)
        .partition(|name| selection.runs(config, name));
    let total = rules::RULES.len();
    if off.is_empty() {
        format!("every rule runs ({total})")
    } else if on.len() < off.len() {
        format!("{} of {total} run: {}", on.len(), on.join(", "))
    } else {
        format!("{} of {total} run; not run: {}", on.len(), off.join(", "))
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// What each file of `cluster` is to it: a node (its roles and id), an overlay, a file that
/// does not parse, or a component beside the nodes.
fn member_files(report: &Report, cluster: &Cluster) -> Vec<(String, String)> {
    let path = |file: usize| printable(&report.files[file].path);
    let part = |file: usize, part: Option<u32>| {
        report.files[file]
            .view(part)
            .map(|view| format!(" ({})", printable(&view.label)))
            .unwrap_or_default()
    };
    let mut members = Vec::new();
    for &file in &cluster.files {
        let nodes: Vec<String> = cluster
            .nodes
            .iter()
            .filter(|node| node.file == file)
            .map(|node| {
                let roles = match (node.roles.broker, node.roles.controller) {
                    (true, true) => "broker and controller",
                    (true, false) => "broker",
                    (false, true) => "controller",
                    (false, false) => "node",
                };
                let id = cluster
                    .placements
                    .iter()
                    .find(|placed| placed.file == file && placed.part == node.part)
                    .and_then(|placed| placed.id.as_deref())
                    .map(|id| format!(" {}", printable(id)))
                    .unwrap_or_default();
                format!("{roles}{id}{}", part(file, node.part))
            })
            .collect();
        let why = if !nodes.is_empty() {
            nodes.join("; ")
        } else if cluster.overlays.iter().any(|overlay| overlay.file == file) {
            format!("overlay: {}", cluster.overlay_reason())
        } else if report.files[file].parse_error.is_some() {
            "node file that does not parse".into()
        } else {
            "node file".into()
        };
        members.push((path(file), why));
    }
    for component in &cluster.components {
        members.push((
            path(component.file),
            format!(
                "{} beside the nodes{}",
                component.kind.name(),
                part(component.file, component.part)
            ),
        ));
    }
    members
}

/// The settings of every cluster of `report`, checked with `selection`; plain text, in report
/// order. Each name, path and reason from the files is shown through `printable`: the line
/// breaks are this function's own.
pub fn settings(report: &Report, selection: &Selection) -> String {
    let mut out = String::new();
    // The config files in force, in the order of the clusters that use them.
    let mut configs: Vec<Option<&crate::config::Config>> = Vec::new();
    for cluster in &report.clusters {
        let config = cluster.config.as_deref();
        if !configs
            .iter()
            .any(|known| known.map(|c| &c.path) == config.map(|c| &c.path))
        {
            configs.push(config);
        }
    }
    if configs.is_empty() {
        configs.push(None);
    }
    for config in &configs {
        let _ = writeln!(
            out,
            "Config file: {}\n  Rules: {}",
            config.map_or("none".into(), |config| printable(&config.path)),
            rules_off(*config, selection)
        );
    }
    for cluster in &report.clusters {
        let brokers = cluster
            .nodes
            .iter()
            .filter(|node| node.roles.broker)
            .count();
        let controllers = cluster
            .nodes
            .iter()
            .filter(|node| node.roles.controller)
            .count();
        let _ = writeln!(
            out,
            "\nCluster {}\n  Kafka release: {} ({})\n  Config file: {}\n  Nodes: {}, {}{}\n  Gathered as: {}",
            printable(&cluster.name),
            cluster.target.version,
            release_reason(cluster),
            cluster
                .config
                .as_deref()
                .map_or("none".into(), |config| printable(&config.path)),
            plural(brokers, "broker"),
            plural(controllers, "controller"),
            cluster
                .declared_brokers
                .map(|n| format!(" (--brokers or brokers: {n} brokers)"))
                .unwrap_or_default(),
            printable(&cluster.membership.text()),
        );
        let _ = writeln!(out, "  Files:");
        for (path, why) in member_files(report, cluster) {
            let _ = writeln!(out, "    {path}: {why}");
        }
        for apart in &cluster.membership.set_apart {
            let files: Vec<String> = apart
                .files
                .iter()
                .map(|file| printable(&report.files[*file].path))
                .collect();
            let _ = writeln!(
                out,
                "  Set apart: {}: {}",
                files.join(", "),
                printable(&apart.why)
            );
        }
    }
    out
}
