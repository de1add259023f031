//! `zookeeper-migration-consistency`: during a ZooKeeper to KRaft migration,
//! `zookeeper.metadata.migration.enable` differs between the ZooKeeper brokers, between them and
//! the KRaft controllers beside them, or between the controllers.

use super::{Check, Context, FixAvailability, Folders, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::catalog::value::Parsed;
use crate::cluster::{Cluster, Effective, Mode, Node};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "zookeeper-migration-consistency",
    severity: Severity::Error,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::Releases(KafkaVersion::new(3, 4), KafkaVersion::LAST_WITH_ZOOKEEPER),
    summary: "zookeeper.metadata.migration.enable on some brokers or controllers of a migrating cluster and not on others: the migration stalls or brokers are refused",
    check: Check::Files(check),
};

const KEY: &str = "zookeeper.metadata.migration.enable";
/// ZooKeeper to KRaft migration came with 3.4 (KIP-866); 4.0 has no ZooKeeper mode.
const MIGRATION_FROM: KafkaVersion = KafkaVersion::new(3, 4);

/// A node and whether it migrates.
struct Flag<'a> {
    node: Node,
    enabled: bool,
    effective: Effective<'a>,
}

fn flag<'a>(context: &Context<'a>, node: &Node, version: KafkaVersion) -> Option<Flag<'a>> {
    if context.is_fragment(node) || context.any_placeholder(node, &[KEY]) {
        return None;
    }
    let (Parsed::Boolean(enabled), effective) = context.parsed_value(node, KEY, version)? else {
        return None;
    };
    Some(Flag {
        node: node.clone(),
        enabled,
        effective,
    })
}

fn label(context: &Context, flag: &Flag) -> Label {
    let name = context.node_name(&flag.node);
    match flag.effective.line() {
        Some(entry) => Label {
            file: flag.node.file,
            span: entry.value_span().clone(),
            message: format!("{name}: {KEY}={}", entry.value().trim()),
        },
        None => Label {
            file: flag.node.file,
            span: flag.node.declared_at.clone(),
            message: format!("{name}: {KEY} is not set (Kafka's default false)"),
        },
    }
}

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    if version < MIGRATION_FROM || version > KafkaVersion::LAST_WITH_ZOOKEEPER {
        return Vec::new();
    }
    let flags: Vec<Flag> = cluster
        .nodes
        .iter()
        .filter_map(|node| flag(context, node, version))
        .collect();
    let mut diagnostics = Vec::new();
    let brokers: Vec<&Flag> = flags
        .iter()
        .filter(|f| f.node.mode == Mode::ZooKeeper)
        .collect();
    if !brokers.is_empty() {
        brokers_disagree(context, cluster, &brokers, &mut diagnostics);
        refused_by_controllers(
            context,
            context.folders,
            cluster,
            version,
            &brokers,
            &mut diagnostics,
        );
    }
    let controllers: Vec<&Flag> = flags
        .iter()
        .filter(|f| f.node.mode == Mode::KRaft && f.node.roles.controller)
        .collect();
    controllers_disagree(context, cluster, &controllers, &mut diagnostics);
    diagnostics
}

/// Labels on `first` (the nodes to change), then on `second`.
fn labels(context: &Context, first: &[&Flag], second: &[&Flag]) -> Vec<Label> {
    first
        .iter()
        .chain(second)
        .map(|flag| label(context, flag))
        .collect()
}

fn names(context: &Context, flags: &[&Flag]) -> String {
    let names: Vec<String> = flags.iter().map(|f| context.node_name(&f.node)).collect();
    super::support::and_list(&names)
}

fn brokers_disagree(
    context: &Context,
    cluster: &Cluster,
    brokers: &[&Flag],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (on, off): (Vec<&Flag>, Vec<&Flag>) = brokers.iter().partition(|f| f.enabled);
    if on.is_empty() || off.is_empty() {
        return;
    }
    diagnostics.push(
        RULE.finding(format!(
            "{KEY} is true on {} but not on {}: the migration never starts",
            names(context, &on),
            names(context, &off)
        ))
        .with_severity(Severity::Warning)
        .with_key(KEY)
        .with_labels(labels(context, &off, &on))
        .with_help(format!(
            "set {KEY}=true on every ZooKeeper broker of {} (with controller.quorum.voters and \
             controller.listener.names) and roll them one by one",
            cluster.name
        )),
    );
}

/// The KRaft controllers that share a folder with the cluster's files: during a migration they
/// sit beside the ZooKeeper brokers, and discovery makes them a cluster of their own.
fn controllers_beside<'a>(
    context: &Context<'a>,
    _folders: &Folders,
    cluster: &Cluster,
    version: KafkaVersion,
) -> Vec<Flag<'a>> {
    context
        .nodes_beside(cluster)
        .into_iter()
        .filter(|node| node.mode == Mode::KRaft && node.roles.controller)
        .filter(|node| takes_part(context, cluster, node))
        .filter_map(|node| flag(context, &node, version))
        .collect()
}

/// Whether a controller takes part in the cluster's migration: it names a ZooKeeper ensemble,
/// or a broker of the cluster names it among its voters.
fn takes_part(context: &Context, cluster: &Cluster, controller: &Node) -> bool {
    if context.line(controller, "zookeeper.connect").is_some() {
        return true;
    }
    let Some(id) = context
        .id_line(controller)
        .map(|entry| entry.value().trim())
    else {
        return false;
    };
    cluster.nodes.iter().any(|node| {
        context
            .line(node, "controller.quorum.voters")
            .is_some_and(|voters| {
                voters
                    .value()
                    .split(',')
                    .filter_map(|voter| voter.trim().split_once('@'))
                    .any(|(voter, _)| voter.trim() == id)
            })
    })
}

fn refused_by_controllers(
    context: &Context,
    folders: &Folders,
    cluster: &Cluster,
    version: KafkaVersion,
    brokers: &[&Flag],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let on: Vec<&Flag> = brokers.iter().copied().filter(|f| f.enabled).collect();
    if on.is_empty() {
        return;
    }
    let controllers = controllers_beside(context, folders, cluster, version);
    let off: Vec<&Flag> = controllers.iter().filter(|f| !f.enabled).collect();
    if off.is_empty() {
        return;
    }
    diagnostics.push(RULE.finding(format!(
            "{KEY} is true on {} but not on the KRaft {} {} beside them: while one without it is active, the \
             brokers cannot register and the migration stalls",
            names(context, &on),
            if off.len() == 1 { "controller" } else { "controllers" },
            names(context, &off)
        )).with_key(KEY).with_labels(labels(context, &off, &on)).with_help(format!(
            "set {KEY}=true (with zookeeper.connect) on every KRaft controller before enabling the migration on the \
             brokers; remove it from the controllers only to finalize, once every broker runs in KRaft mode"
        )));
}

fn controllers_disagree(
    context: &Context,
    cluster: &Cluster,
    controllers: &[&Flag],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let (on, off): (Vec<&Flag>, Vec<&Flag>) = controllers.iter().partition(|f| f.enabled);
    if on.is_empty() || off.is_empty() {
        return;
    }
    diagnostics.push(RULE.finding(format!(
            "{KEY} is true on the KRaft {} {} but not on {}: the migration stops when one without it becomes \
             active",
            if on.len() == 1 { "controller" } else { "controllers" },
            names(context, &on),
            names(context, &off)
        )).with_severity(Severity::Warning).with_key(KEY).with_labels(labels(context, &off, &on)).with_help(format!(
            "set {KEY} the same on every controller of {}: true until every broker runs in KRaft mode, then remove \
             it from all of them (a rolling restart) to finalize",
            cluster.name
        )));
}
