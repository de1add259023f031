//! `live-topic-drift`: the topics the files declare for the running cluster against what it
//! runs: a replication factor or a partition count that differs, a `min.insync.replicas` that
//! differs, a declared topic the cluster does not have, and (only when the declarations say
//! they are the whole cluster's) a running topic nobody declares.
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
use crate::cluster::topics::{DeclaredTopic, TopicForm, Written};
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::live::snapshot::Topic;

pub const RULE: Rule = Rule {
    name: "live-topic-drift",
    severity: Severity::Warning,
    group: Group::Consistency,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a declared topic that differs from the running one (factor, partitions, min ISR), or that the cluster lacks",
    check: Check::Live(check),
};

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let Some(intent) = &context.intent else {
        return Vec::new();
    };
    let mut diagnostics = Vec::new();
    let mut not_known: Vec<&DeclaredTopic> = Vec::new();
    for declared in intent.cluster.topics.iter().filter(|t| t.name.known) {
        match context.snapshot.topic(&declared.name.text) {
            Some(running) => diagnostics.extend(drift(context, declared, running)),
            None if listing_is_whole(context, &declared.name.text) => {
                diagnostics.push(absent(context, declared));
            }
            None => not_known.push(declared),
        }
    }
    if !not_known.is_empty() {
        diagnostics.push(presence_not_known(context, &not_known));
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
        RULE.finding(format!(
            "topic {name} is declared with {want} replicas but runs with {runs}: {}",
            factor_on_apply(declared.form)
        ))
        .with_label(label(declared, &written.span, format!("declared: {want} replicas")))
        .with_label(context.at(&running.line, format!("running: {runs}")))
        .with_help(format!(
            "write the running factor ({most}) into the declaration, or change the cluster's with a \
             reassignment (kafka-reassign-partitions.sh --bootstrap-server HOST:PORT --reassignment-json-file \
             PLAN --execute) so that the two agree"
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
             removes partitions; {consequence}"
        ))
        .with_severity(severity)
        .with_labels(labels)
        .with_help(format!(
            "write the running count ({have}) into the declaration"
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

/// The declared `min.insync.replicas` against the running topic's effective one: the only
/// topic setting the cluster's answer holds.
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
