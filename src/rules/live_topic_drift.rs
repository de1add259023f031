//! `live-topic-drift`: the topics the files declare for the running cluster against what it
//! runs: a replication factor or a partition count that differs, a `min.insync.replicas` that
//! differs, a declared config that the running topic sets otherwise or does not set, a
//! declared topic the cluster does not have, and (only when the declarations say they are the
//! whole cluster's) a running topic nobody declares.
//!
//! What an apply does with a difference depends on the form that declares the topic; each
//! finding says it, from the tool's own code:
//! - Strimzi's topic operator refuses a partition decrease ("Decreasing partitions not
//!   supported") and a factor change unless Cruise Control is on ("Replication factor change
//!   not supported"), both as a `NotSupported` status (strimzi/strimzi-kafka-operator tag
//!   1.2.0, topic-operator/src/main/java/io/strimzi/operator/topic/BatchingTopicController.java);
//! - the Terraform `kafka_topic` resource's CustomizeDiff marks a partition decrease ForceNew
//!   (destroy, then create: the records are gone) and changes a factor in place with a
//!   reassignment (Mongey/terraform-provider-kafka, kafka/resource_kafka_topic.go); the
//!   `confluent_kafka_topic` resource marks a partition decrease ForceNew as well
//!   (confluentinc/terraform-provider-confluent, internal/provider/resource_kafka_topic.go);
//! - `kafka-topics --create --if-not-exists` (and the images and charts that run it) does
//!   nothing to a topic that exists.

use super::support::quoted;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::catalog::topic::check_value;
use crate::cluster::topics::TopicSetting;
use crate::cluster::topics::{DeclaredTopic, TopicForm, Written};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::live::snapshot::{Topic, TopicOverride};

pub const RULE: Rule = Rule {
    name: "live-topic-drift",
    severity: Severity::Warning,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic that differs from the running one (factor, partitions, configs), or that the cluster lacks",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(intent) = &context.intent else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    let mut not_known: Vec<&DeclaredTopic> = Vec::new();
    let mut unknown_configs: Vec<(&DeclaredTopic, &Topic)> = Vec::new();
    for declared in intent.cluster.topics.iter().filter(|t| t.name.known) {
        match context.snapshot.topic(&declared.name.text) {
            Some(running) => {
                diagnostics.extend(drift(context, declared, running));
                if running.overrides.is_none() && declared.configs.iter().any(|c| c.value.known) {
                    unknown_configs.push((declared, running));
                }
            }
            None if listing_is_whole(context, &declared.name.text) => {
                diagnostics.push(absent(context, declared));
            }
            None => not_known.push(declared),
        }
    }
    if !not_known.is_empty() {
        diagnostics.push(presence_not_known(context, &not_known));
    }
    if !unknown_configs.is_empty() {
        diagnostics.push(configs_not_known(context, &unknown_configs));
    }
    if intent
        .cluster
        .config
        .as_deref()
        .is_some_and(|config| config.all_topics_declared)
    {
        diagnostics.extend(undeclared(context, &intent.cluster.topics));
    }
    diagnostics
}

/// Running topics none of `declared` names (Kafka's own aside), said once: only when the
/// config says the declarations are all of the cluster's topics, and only when every declared
/// name is known (a templated name may be any of them).
fn undeclared(context: &LiveContext, declared: &[DeclaredTopic]) -> Option<Diagnostic> {
    if declared.iter().any(|topic| !topic.name.known) {
        return None;
    }
    let running: Vec<&Topic> = context
        .snapshot
        .topics
        .iter()
        .filter(|topic| !topic.internal && !topic.name.starts_with("__"))
        .filter(|topic| !declared.iter().any(|d| d.name.text == topic.name))
        .collect();
    if running.is_empty() {
        return None;
    }
    let names: Vec<&str> = running.iter().map(|topic| topic.name.as_str()).collect();
    Some(
        RULE.finding(format!(
            "{} running topic{} no declaration names ({}), while the config says every topic is declared",
            running.len(),
            if running.len() == 1 { "" } else { "s" },
            super::live_support::name_list(&names, 5)
        ))
        .with_severity(Severity::Info)
        .with_labels(
            running
                .iter()
                .take(3)
                .map(|topic| context.at(&topic.line, "declared nowhere".to_string())),
        )
        .with_help(
            "declare them, delete them if nothing uses them, or set all-topics-declared = false in kafkalint.toml",
        ),
    )
}

/// Whether a topic the cluster did not list is known to be absent: the principal was asked
/// what it may do on the cluster (else the view is partial: Metadata leaves out every topic
/// it may not describe, `crate::live::partial`), and the topic is not among those Kafka would
/// not say about.
fn listing_is_whole(context: &LiveContext, name: &str) -> bool {
    context.snapshot.cluster_operations.is_some()
        && !context
            .snapshot
            .unlisted_topics
            .iter()
            .any(|topic| topic.name == name)
}

/// A declared topic against the running topic of its name.
fn drift(context: &LiveContext, declared: &DeclaredTopic, running: &Topic) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    diagnostics.extend(factor(context, declared, running));
    diagnostics.extend(partitions(context, declared, running));
    diagnostics.extend(min_isr(context, declared, running));
    diagnostics.extend(configs(context, declared, running));
    diagnostics
}

/// A number the declaration writes, when known: `-1` and a left-out value are the cluster's
/// default, which applies only when the topic is created.
fn written_number(written: Option<&Written>) -> Option<(i64, &Written)> {
    let written = written?;
    let value = written.integer()?;
    (value >= 1).then_some((value, written))
}

fn factor(context: &LiveContext, declared: &DeclaredTopic, running: &Topic) -> Option<Diagnostic> {
    let (want, written) = written_number(declared.replicas.as_ref())?;
    let counts: Vec<usize> = running
        .partitions
        .iter()
        .map(|p| p.replicas.len())
        .collect();
    let (fewest, most) = (*counts.iter().min()?, *counts.iter().max()?);
    if fewest == most && fewest as i64 == want {
        return None;
    }
    let runs = if fewest == most {
        format!("{fewest} replicas per partition")
    } else {
        format!("{fewest} to {most} replicas per partition")
    };
    let name = shown(declared);
    Some(
        // What the next apply does is the help's, to keep the message short.
        RULE.finding(format!(
            "topic {name} is declared with {want} replicas but runs with {runs}"
        ))
        .with_label(label(declared, &written.span, format!("declared: {want} replicas")))
        .with_label(context.at(&running.line, format!("running: {runs}")))
        .with_help(format!(
            "{}; write the running factor ({most}) into the declaration, or change the cluster's with a \
             reassignment (kafka-reassign-partitions.sh --bootstrap-server HOST:PORT --reassignment-json-file \
             PLAN --execute) so that the two agree",
            factor_on_apply(declared.form)
        )),
    )
}

/// What the next apply of `form` does to a topic whose factor differs.
fn factor_on_apply(form: TopicForm) -> &'static str {
    match form {
        TopicForm::StrimziKafkaTopic => {
            "Strimzi's topic operator refuses the change (NotSupported) unless Cruise Control is enabled"
        }
        TopicForm::TerraformKafkaTopic => {
            "the next terraform apply reassigns the partitions in place, moving their data between brokers"
        }
        TopicForm::KafkaTopicsCommand
        | TopicForm::CreateTopicsVariable
        | TopicForm::BitnamiProvisioning => {
            "creating the topic again does nothing to one that exists, so the declaration does not say what runs"
        }
        // kafka-ops/julie v4.4.1, actions/topics/builders/TopicConfigUpdatePlanBuilder.java: an
        // existing topic's plan holds partitions and configs, never its factor.
        TopicForm::JulieOps => {
            "JulieOps never changes the factor of a topic that exists, so the declaration does not say what runs"
        }
        _ => "the declaration does not say what runs",
    }
}

fn partitions(
    context: &LiveContext,
    declared: &DeclaredTopic,
    running: &Topic,
) -> Option<Diagnostic> {
    let (want, written) = written_number(declared.partitions.as_ref())?;
    let have = match running.partition_count {
        0 => running.partitions.len(),
        count => count,
    };
    if have == 0 || want == have as i64 {
        return None;
    }
    let name = shown(declared);
    let labels = [
        label(
            declared,
            &written.span,
            format!("declared: {want} partitions"),
        ),
        context.at(&running.line, format!("running: {have} partitions")),
    ];
    if want > have as i64 {
        return Some(
            RULE.finding(format!(
                "topic {name} is declared with {want} partitions but runs with {have}: applying it adds \
                 partitions, and records with a key go to another partition than before"
            ))
            .with_severity(Severity::Info)
            .with_labels(labels)
            .with_help(
                "apply it when the consumers that rely on per-key order can take the move, or write the running \
                 count into the declaration",
            ),
        );
    }
    let (severity, consequence) = fewer_partitions_on_apply(declared.form);
    Some(
        RULE.finding(format!(
            "topic {name} is declared with {want} partitions, fewer than the {have} it runs with: Kafka never \
             removes partitions"
        ))
        .with_severity(severity)
        .with_labels(labels)
        .with_help(format!(
            "{consequence}; write the running count ({have}) into the declaration"
        )),
    )
}

/// What the next apply of `form` does to a topic declared with fewer partitions than it has.
fn fewer_partitions_on_apply(form: TopicForm) -> (Severity, &'static str) {
    match form {
        TopicForm::TerraformKafkaTopic | TopicForm::TerraformConfluentTopic => (
            Severity::Error,
            "the next terraform apply destroys the topic and creates it again, and its records are lost",
        ),
        TopicForm::StrimziKafkaTopic => (
            Severity::Error,
            "Strimzi's topic operator refuses it (NotSupported: Decreasing partitions not supported)",
        ),
        TopicForm::Topicctl => (Severity::Error, "topicctl apply refuses it"),
        // TopicConfigUpdatePlanBuilder (above) adds partitions only when more are declared.
        TopicForm::JulieOps => (
            Severity::Warning,
            "JulieOps leaves the count alone (it only ever adds partitions), so the declaration does not say what runs",
        ),
        _ => (Severity::Warning, "the declaration does not say what runs"),
    }
}

/// The declared `min.insync.replicas` against the running topic's effective one (its own,
/// else the cluster's), which a snapshot holds even where the topic's own configs are not
/// known.
fn min_isr(context: &LiveContext, declared: &DeclaredTopic, running: &Topic) -> Option<Diagnostic> {
    const KEY: &str = "min.insync.replicas";
    let setting = declared.config(KEY)?;
    let want = setting.value.integer()?;
    let have = running.min_insync_replicas?;
    if want == i64::from(have) {
        return None;
    }
    let name = shown(declared);
    Some(
        RULE.finding(format!(
            "topic {name} is declared with {KEY}={} but runs with {have}: acks=all writes wait for {have} in-sync \
             replicas until the declaration is applied",
            quoted(KEY, &setting.value.text)
        ))
        .with_key(KEY)
        .with_label(label(declared, &setting.value.span, format!("declared: {want}")))
        .with_label(context.at(&running.line, format!("running: {have}")))
        .with_help(format!(
            "apply the declaration, or write the running value into it (kafka-configs.sh --bootstrap-server \
             HOST:PORT --alter --entity-type topics --entity-name TOPIC --add-config {KEY}=N sets the running one)"
        )),
    )
}

/// Each config the declaration writes (a value kafkalint reads and the release's `LogConfig`
/// accepts: one it refuses is `topic-invalid-config`'s) against the config set on the running
/// topic itself: set otherwise, or not set at all (the topic then runs with the cluster's
/// value). Silent when the topic's own configs are not known.
fn configs(context: &LiveContext, declared: &DeclaredTopic, running: &Topic) -> Vec<Diagnostic> {
    let (Some(intent), Some(_)) = (&context.intent, &running.overrides) else {
        return Vec::new();
    };
    let version = intent.cluster.target.version;
    let mut diagnostics = Vec::new();
    for (at, setting) in declared.configs.iter().enumerate() {
        // The last of a key written twice is the one applied (`DeclaredTopic::config`).
        let later = declared.configs[at + 1..]
            .iter()
            .any(|s| s.key == setting.key);
        if later || !setting.value.known {
            continue;
        }
        let Ok(want) = check_value(version, &setting.key, &setting.value.text) else {
            continue;
        };
        // The effective min.insync.replicas is compared on its own (`min_isr`): a value that
        // differs is said there, once.
        let min_isr_differs = setting.key == "min.insync.replicas"
            && running.min_insync_replicas.map(i64::from) != want.as_integer();
        if min_isr_differs {
            continue;
        }
        match running.override_of(&setting.key) {
            Some(set) => {
                let same = match check_value(version, &setting.key, &set.value) {
                    Ok(have) => have == want,
                    Err(_) => set.value.trim() == setting.value.text.trim(),
                };
                if !same {
                    diagnostics.push(config_differs(context, declared, setting, set));
                }
            }
            None => diagnostics.push(config_not_set(context, declared, setting, running)),
        }
    }
    diagnostics
}

fn config_differs(
    context: &LiveContext,
    declared: &DeclaredTopic,
    setting: &TopicSetting,
    set: &TopicOverride,
) -> Diagnostic {
    let key = setting.key.as_str();
    let (want, have) = (quoted(key, &setting.value.text), quoted(key, &set.value));
    // What the next apply does is the help's, to keep the message short.
    RULE.finding(format!(
        "topic {} is declared with {key}={want} but runs with {key}={have} set on it",
        shown(declared),
    ))
    .with_key(key)
    .with_label(label(
        declared,
        &setting.value.span,
        format!("declared: {want}"),
    ))
    .with_label(context.at(&set.line, format!("running: {have}")))
    .with_help(format!(
        "{}; {}, or write the running value into the declaration",
        config_on_apply(declared.form),
        set_it(declared.form, key)
    ))
}

fn config_not_set(
    context: &LiveContext,
    declared: &DeclaredTopic,
    setting: &TopicSetting,
    running: &Topic,
) -> Diagnostic {
    let key = setting.key.as_str();
    let want = quoted(key, &setting.value.text);
    RULE.finding(format!(
        "topic {} is declared with {key}={want}, but runs with the cluster's value",
        shown(declared),
    ))
    .with_key(key)
    .with_label(label(
        declared,
        &setting.value.span,
        format!("declared: {want}"),
    ))
    .with_label(context.at(&running.line, format!("{key} not set on the topic")))
    .with_help(format!(
        "the running topic does not set {key}: {}; {}, or remove {key} from the declaration if the \
         cluster's value is meant",
        config_on_apply(declared.form),
        set_it(declared.form, key)
    ))
}

/// How the declared value of `key` reaches the running topic: an apply, or (for the forms that
/// only create) a command.
fn set_it(form: TopicForm, key: &str) -> String {
    let command = format!(
        "kafka-configs.sh --bootstrap-server HOST:PORT --alter --entity-type topics --entity-name TOPIC \
         --add-config {key}=VALUE"
    );
    if form.creates_only() {
        format!("the declaration never reaches a topic that exists: set it with {command}")
    } else {
        format!("apply the declaration ({command} sets it at once)")
    }
}

/// What the next apply of `form` does to a config the running topic does not have: forms
/// that alter an existing topic's configs set it; the forms that only create never do.
fn config_on_apply(form: TopicForm) -> &'static str {
    match form {
        TopicForm::StrimziKafkaTopic | TopicForm::ConfluentKafkaTopic => {
            "the topic operator sets the declared value when it next reconciles the KafkaTopic"
        }
        TopicForm::TerraformKafkaTopic | TopicForm::TerraformConfluentTopic => {
            "the next terraform apply sets the declared value"
        }
        TopicForm::Topicctl => "the next topicctl apply sets the declared value",
        TopicForm::JulieOps => "the next JulieOps run sets the declared value",
        TopicForm::KafkaTopicsCommand
        | TopicForm::CreateTopicsVariable
        | TopicForm::BitnamiProvisioning => {
            "creating the topic again does nothing to one that exists, so the declaration never sets it"
        }
    }
}

/// Declared topics with configs whose running topic's own configs the snapshot does not hold
/// (saved before kafkalint asked them, or DescribeConfigs refused): said once, never read as
/// "none set".
fn configs_not_known(context: &LiveContext, topics: &[(&DeclaredTopic, &Topic)]) -> Diagnostic {
    let names: Vec<&str> = topics
        .iter()
        .map(|(declared, _)| declared.shown_name())
        .collect();
    let s = if topics.len() == 1 { "" } else { "s" };
    RULE.finding(format!(
        "{} declared topic{s} with configs ({}): the snapshot does not say what is set on the running \
         topic{s}, so declared configs other than min.insync.replicas are not compared",
        topics.len(),
        super::live_support::name_list(&names, 5)
    ))
    .with_severity(Severity::Info)
    .with_labels(
        topics
            .iter()
            .take(3)
            .map(|(_, running)| context.at(&running.line, "no overrides= field".to_string())),
    )
    .with_help(
        "run kafkalint live again as a principal that may DESCRIBE_CONFIGS these topics, with a kafkalint \
         that asks them (an overrides= field on each topic line of the snapshot)",
    )
}

/// A declared topic the cluster does not have (its listing is whole): normal before the
/// declaration is first applied.
fn absent(context: &LiveContext, declared: &DeclaredTopic) -> Diagnostic {
    RULE.finding(format!(
        "topic {} is declared but not on the cluster: the next apply creates it",
        shown(declared)
    ))
    .with_severity(Severity::Info)
    .with_label(label(
        declared,
        &declared.declared_at,
        "declared here".to_string(),
    ))
    .with_label(context.at(
        &context.snapshot.bootstrap_line,
        "the cluster's topics: not among them".to_string(),
    ))
    .with_help("apply the declaration, or remove it if the topic was deleted on purpose")
}

/// Declared topics the cluster did not list, on a view that may leave topics out: whether they
/// exist is not known, so nothing is said of what they run.
fn presence_not_known(context: &LiveContext, topics: &[&DeclaredTopic]) -> Diagnostic {
    let names: Vec<String> = topics.iter().map(|t| shown(t)).collect();
    let shown_names = if names.len() > 5 {
        format!("{} and {} more", names[..5].join(", "), names.len() - 5)
    } else {
        names.join(", ")
    };
    RULE.finding(format!(
        "{} declared topic{} not listed by the cluster ({shown_names}), and this view may leave topics out: \
         whether they exist is not known",
        topics.len(),
        if topics.len() == 1 { "" } else { "s" },
    ))
    .with_severity(Severity::Info)
    .with_labels(topics.iter().take(3).map(|declared| {
        label(declared, &declared.declared_at, "not listed".to_string())
    }))
    .with_label(context.at(
        &context.snapshot.bootstrap_line,
        "a partial view".to_string(),
    ))
    .with_help(
        "run kafkalint live as a principal that may DESCRIBE the cluster and these topics, with a kafkalint \
         that records what it may do (a cluster.operations= line in the snapshot)",
    )
}

fn label(declared: &DeclaredTopic, span: &crate::properties::Span, message: String) -> Label {
    Label {
        file: declared.file,
        span: span.clone(),
        message,
    }
}

/// The topic's name as messages show it.
fn shown(declared: &DeclaredTopic) -> String {
    format!("`{}`", declared.shown_name().escape_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn julieops_leaves_an_existing_topics_factor_and_fewer_partitions_alone() {
        assert!(factor_on_apply(TopicForm::JulieOps).starts_with("JulieOps never changes"));
        let (severity, consequence) = fewer_partitions_on_apply(TopicForm::JulieOps);
        assert_eq!(severity, Severity::Warning);
        assert!(consequence.contains("only ever adds partitions"));
    }
}
