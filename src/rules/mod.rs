//! The rule registry. Each rule is a function from a cluster to diagnostics; it never reads
//! files or prints.

mod auto_create_single_replica;
mod broker_limits;
mod component_internal_topic_replication;
mod cordoned_log_dirs;
mod default_replication_above_brokers;
mod deprecated_key;
mod duplicate_key;
mod duplicate_log_dir;
mod duplicate_node_id;
mod group_coordinator_config;
mod image_start_refusal;
mod inconsistent_cluster_value;
mod inter_broker_config;
mod internal_topic_replication;
pub(crate) mod invalid_syntax;
mod invalid_value;
mod kafka_version_hint;
mod kraft_controller_config;
mod listener_config;
mod live_config_drift;
pub mod live_controller_quorum;
mod live_group_coordinator;
pub mod live_internal_topic_replication;
mod live_log_dirs;
mod live_partition_health;
mod live_rack_spread;
mod live_stopping_broker;
mod live_support;
mod live_topic_drift;
mod live_topic_replication;
mod live_unregistered_broker;
mod localhost_advertised;
mod log_dirs_in_tmp;
mod malformed_escape;
mod min_isr_headroom;
mod min_isr_one;
mod missing_kafka_class;
mod missing_required_key;
mod mixed_mode_settings;
mod node_id_config;
mod node_settings_differ;
mod plaintext_beside_secure_listener;
mod plaintext_secret;
mod port_clash_on_host;
mod principal_builder_class;
mod quorum_membership;
mod quorum_size;
mod refusal;
mod removed_key;
mod rule;
mod sasl_mechanism_name;
pub mod selection;
mod shared_advertised_address;
mod shared_log_dir;
mod startup_class_keys;
mod strimzi_forbidden_key;
mod support;
mod topic_ineffective_config;
mod topic_invalid_config;
mod topic_invalid_name;
mod topic_min_isr;
mod topic_name_collision;
mod topic_replication_above_brokers;
mod topic_single_replica;
mod topic_support;
mod topic_tiered_storage;
mod unclean_leader_election;
mod unknown_key;
pub(crate) mod unused_suppression;
mod utf8_in_latin1_file;
mod wrong_kind_class;
mod zookeeper_migration_consistency;

pub use rule::{
    Check, Context, FixAvailability, Folders, Group, Intent, LiveContext, Rule, TopicContext,
    Verified, and_list,
};
pub use selection::{GROUPS, Selection, Selector};

use crate::cluster::Cluster;
use crate::diagnostic::Diagnostic;

/// Every rule, in the order they are documented.
pub const RULES: &[Rule] = &[
    internal_topic_replication::RULE,
    min_isr_headroom::RULE,
    component_internal_topic_replication::RULE,
    inconsistent_cluster_value::RULE,
    duplicate_key::RULE,
    duplicate_node_id::RULE,
    malformed_escape::RULE,
    utf8_in_latin1_file::RULE,
    invalid_value::RULE,
    missing_required_key::RULE,
    unknown_key::RULE,
    removed_key::RULE,
    deprecated_key::RULE,
    kafka_version_hint::RULE,
    broker_limits::RULE,
    group_coordinator_config::RULE,
    principal_builder_class::RULE,
    missing_kafka_class::RULE,
    wrong_kind_class::RULE,
    listener_config::RULE,
    kraft_controller_config::RULE,
    image_start_refusal::RULE,
    node_id_config::RULE,
    inter_broker_config::RULE,
    cordoned_log_dirs::RULE,
    duplicate_log_dir::RULE,
    shared_advertised_address::RULE,
    port_clash_on_host::RULE,
    localhost_advertised::RULE,
    zookeeper_migration_consistency::RULE,
    log_dirs_in_tmp::RULE,
    shared_log_dir::RULE,
    unclean_leader_election::RULE,
    min_isr_one::RULE,
    auto_create_single_replica::RULE,
    default_replication_above_brokers::RULE,
    plaintext_secret::RULE,
    plaintext_beside_secure_listener::RULE,
    sasl_mechanism_name::RULE,
    quorum_membership::RULE,
    quorum_size::RULE,
    mixed_mode_settings::RULE,
    node_settings_differ::RULE,
    strimzi_forbidden_key::RULE,
    unused_suppression::RULE,
    invalid_syntax::RULE,
    live_internal_topic_replication::RULE,
    live_partition_health::RULE,
    live_topic_replication::RULE,
    live_topic_drift::RULE,
    live_rack_spread::RULE,
    live_log_dirs::RULE,
    live_group_coordinator::RULE,
    live_config_drift::RULE,
    live_controller_quorum::RULE,
    live_stopping_broker::RULE,
    live_unregistered_broker::RULE,
    topic_replication_above_brokers::RULE,
    topic_single_replica::RULE,
    topic_min_isr::RULE,
    topic_invalid_name::RULE,
    topic_invalid_config::RULE,
    topic_tiered_storage::RULE,
    topic_ineffective_config::RULE,
    topic_name_collision::RULE,
];

/// Every rule's name and its group's, in registry order: what a config file may name in
/// `select` and `ignore`.
pub const NAMES: &crate::config::RuleNames = &crate::config::RuleNames {
    rules: &RULE_NAMES,
    groups: &RULE_GROUPS,
};

const RULE_NAMES: [&str; RULES.len()] = {
    let mut names = [""; RULES.len()];
    let mut index = 0;
    while index < RULES.len() {
        names[index] = RULES[index].name;
        index += 1;
    }
    names
};

const RULE_GROUPS: [&str; RULES.len()] = {
    let mut groups = [""; RULES.len()];
    let mut index = 0;
    while index < RULES.len() {
        groups[index] = RULES[index].group.as_str();
        index += 1;
    }
    groups
};
pub fn find(name: &str) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.name == name)
}

/// Each rule's doc, `rules/<name>.md`, embedded at build time (by `build.rs`), sorted by name.
static DOCS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/rule_docs.rs"));

/// The doc of the rule `name` (Markdown), if there is such a rule.
pub fn doc(name: &str) -> Option<&'static str> {
    find(name)?;
    DOCS.iter()
        .find(|(doc_name, _)| *doc_name == name)
        .map(|(_, doc)| *doc)
}

/// The rule name nearest to a misspelt one.
pub fn nearest_name(name: &str) -> Option<&'static str> {
    crate::catalog::suggest::nearest(name, RULES.iter().map(|rule| rule.name))
}

/// Every rule on one line, in registry order: name, default severity, group, summary, in
/// columns.
pub fn listing() -> String {
    let width = RULES.iter().map(|rule| rule.name.len()).max().unwrap_or(0);
    let severity_width = "warning".len();
    let group_width = "startup-refusal".len();
    RULES
        .iter()
        .map(|rule| {
            format!(
                "{:width$}  {:severity_width$}  {:group_width$}  {}\n",
                rule.name,
                rule.severity.as_str(),
                rule.group.as_str(),
                rule.summary
            )
        })
        .collect()
}

/// Runs every rule over one cluster.
pub fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    check_selected(cluster, context, &|_| true)
}

/// Runs the rules that `selected` accepts (by name) over one cluster.
pub fn check_selected(
    cluster: &Cluster,
    context: &Context,
    selected: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let name: std::sync::Arc<str> = cluster.name.as_str().into();
    let topics = TopicContext {
        topics: &cluster.topics,
        cluster: Some((cluster, context)),
        files: context.files,
    };
    RULES
        .iter()
        .filter(|rule| selected(rule.name))
        .flat_map(|rule| match rule.check {
            Check::Files(check) => check(cluster, context),
            Check::Topics(check) if !cluster.topics.is_empty() => check(&topics),
            Check::Topics(_) | Check::Live(_) => Vec::new(),
        })
        .map(|diagnostic| scrub(diagnostic.in_cluster(&name)))
        .collect()
}

/// Runs the live rules that `selected` accepts over what a running cluster answered; the
/// findings are of the cluster `name`.
pub fn check_live(
    context: &LiveContext,
    name: &str,
    selected: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let name: std::sync::Arc<str> = name.into();
    RULES
        .iter()
        .filter(|rule| selected(rule.name))
        .flat_map(|rule| match rule.check {
            Check::Live(check) => check(context),
            Check::Files(_) | Check::Topics(_) => Vec::new(),
        })
        .map(|diagnostic| scrub(diagnostic.in_cluster(&name)))
        .collect()
}

/// Runs the topic rules that `selected` accepts over topics bound to no cluster.
pub fn check_unbound_topics(
    topics: &[crate::cluster::topics::DeclaredTopic],
    files: &[crate::source::SourceFile],
    selected: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    if topics.is_empty() {
        return Vec::new();
    }
    let context = TopicContext {
        topics,
        cluster: None,
        files,
    };
    RULES
        .iter()
        .filter(|rule| selected(rule.name))
        .flat_map(|rule| match rule.check {
            Check::Topics(check) => check(&context),
            Check::Files(_) | Check::Live(_) => Vec::new(),
        })
        .map(scrub)
        .collect()
}

/// Rules quote values through `support::quoted`, which hides what output may not show; this
/// is the guard behind it: no back-quoted credential leaves a rule, whoever wrote the message.
fn scrub(mut diagnostic: Diagnostic) -> Diagnostic {
    // A rule's doc says how safe its fixes are (`Fix: **safe**`): each fix says the same.
    debug_assert!(
        diagnostic.fix.as_ref().is_none_or(|fix| {
            find(diagnostic.rule)
                .is_some_and(|rule| rule.fix.as_str() == fix.applicability.as_str())
        }),
        "{}: a fix unlike its rule's fix safety",
        diagnostic.rule
    );
    diagnostic.hide_secret_in_key();
    let texts = std::iter::once(&mut diagnostic.message)
        .chain(std::iter::once(&mut diagnostic.help))
        .chain(diagnostic.labels.iter_mut().map(|label| &mut label.message))
        .chain(diagnostic.fix.iter_mut().map(|fix| &mut fix.description))
        .chain(
            diagnostic
                .subject
                .node
                .iter_mut()
                .map(|node| &mut node.file),
        )
        .chain(
            diagnostic
                .subject
                .component
                .iter_mut()
                .map(|component| &mut component.file),
        );
    for text in texts {
        if let Some(scrubbed) = crate::secrets::scrub_quoted(text) {
            *text = scrubbed;
        }
    }
    diagnostic
}
