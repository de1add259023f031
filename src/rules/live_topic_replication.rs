//! `live-topic-replication`: the topics of a running cluster (all but Kafka's internal ones)
//! whose replication cannot survive a broker stop: one replica on a cluster of several
//! brokers, as many replicas as their `min.insync.replicas`, a `min.insync.replicas` above
//! their replica count, or more replicas than live brokers. One finding per kind, however many
//! topics: a cluster may have tens of thousands.

use super::live_internal_topic_replication::raises;
use super::live_support::name_list;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::Topic;

pub const RULE: Rule = Rule {
    name: "live-topic-replication",
    severity: Severity::Warning,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "running topics that one broker stop makes unwritable or offline",
    check: Check::Live(check),
};

/// A topic as judged: its smallest and largest replica count over its partitions, and its
/// effective `min.insync.replicas` when DescribeConfigs answered for it.
struct Judged<'a> {
    topic: &'a Topic,
    factor: usize,
    widest: usize,
    min_isr: Option<usize>,
}

/// What is wrong with a topic's replication; a topic is counted under the first that applies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `min.insync.replicas` above the replica count.
    MinIsrAboveFactor,
    /// One replica, on two or more live brokers.
    SingleReplica,
    /// As many replicas as `min.insync.replicas` (two or more).
    NoSpareReplica,
}

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    let live = context.live_brokers();
    // Those `live-internal-topic-replication` raises already (components' topics).
    let raised: Vec<String> = raises(context)
        .iter()
        .map(|raise| raise.topic.name.clone())
        .collect();
    let judged: Vec<Judged> = context
        .snapshot
        .topics
        .iter()
        .filter(|topic| !topic.internal && !raised.contains(&topic.name))
        .filter_map(|topic| {
            let counts = topic.partitions.iter().map(|p| p.replicas.len());
            Some(Judged {
                topic,
                factor: counts.clone().min()?,
                widest: counts.max()?,
                min_isr: topic.min_insync_replicas.map(|value| value as usize),
            })
        })
        .collect();
    let mut diagnostics = Vec::new();
    for kind in [
        Kind::MinIsrAboveFactor,
        Kind::SingleReplica,
        Kind::NoSpareReplica,
    ] {
        let topics: Vec<&Judged> = judged
            .iter()
            .filter(|judged| kind_of(judged, live) == Some(kind))
            .collect();
        if !topics.is_empty() {
            diagnostics.push(finding(context, kind, &topics, live));
        }
    }
    let wider: Vec<&Judged> = judged.iter().filter(|j| j.widest > live).collect();
    if !wider.is_empty() {
        diagnostics.push(wider_than_live(context, &wider, live));
    }
    diagnostics
}

fn kind_of(judged: &Judged, live: usize) -> Option<Kind> {
    match judged.min_isr {
        Some(min_isr) if min_isr > judged.factor => Some(Kind::MinIsrAboveFactor),
        _ if judged.factor == 1 && live >= 2 => Some(Kind::SingleReplica),
        Some(min_isr) if judged.factor >= 2 && min_isr == judged.factor => {
            Some(Kind::NoSpareReplica)
        }
        _ => None,
    }
}

fn finding(context: &LiveContext, kind: Kind, topics: &[&Judged], live: usize) -> Diagnostic {
    let count = topic_count(topics.len());
    let names: Vec<&str> = topics.iter().map(|j| j.topic.name.as_str()).collect();
    let (message, label, help): (String, fn(&Judged) -> String, String) = match kind {
        Kind::MinIsrAboveFactor => (
            format!(
                "{count} a min.insync.replicas above {} replica count ({}): acks=all writes fail (before \
                 Kafka 3.7) or wait for fewer replicas than asked",
                their(topics.len()),
                detail(topics, |j| format!("{} > {}", j.min_isr.unwrap_or(0), j.factor)),
            ),
            |j: &Judged| format!("min.insync.replicas={} on {} replica(s)", j.min_isr.unwrap_or(0), j.factor),
            "before Kafka 3.7 every acks=all write fails with NOT_ENOUGH_REPLICAS; from 3.7 brokers \
             cap the minimum to the replica count; lower each topic's min.insync.replicas to at most its replica count (kafka-configs.sh \
             --bootstrap-server HOST:PORT --alter --entity-type topics --entity-name TOPIC --add-config \
             min.insync.replicas=N), or raise its replication factor with a reassignment \
             (kafka-reassign-partitions.sh --bootstrap-server HOST:PORT --reassignment-json-file PLAN --execute)"
                .to_string(),
        ),
        Kind::SingleReplica => (
            format!(
                "{count} 1 replica per partition on {live} live brokers ({}): a broker stop takes {} \
                 partitions on that broker offline",
                name_list(&names, 5),
                their(topics.len()),
            ),
            |_: &Judged| "1 replica per partition".to_string(),
            format!(
                "raise their replication factor to {}: a reassignment listing {} replicas per partition, applied \
                 with kafka-reassign-partitions.sh --bootstrap-server HOST:PORT --reassignment-json-file PLAN \
                 --execute (then --verify)",
                live.min(3),
                live.min(3)
            ),
        ),
        Kind::NoSpareReplica => (
            format!(
                "{count} as many replicas as {} min.insync.replicas ({}): one of those brokers down fails \
                 acks=all writes",
                their(topics.len()),
                detail(topics, |j| format!("{} of {}", j.min_isr.unwrap_or(0), j.factor)),
            ),
            |j: &Judged| format!("{} replicas, min.insync.replicas={}", j.factor, j.min_isr.unwrap_or(0)),
            "acks=all writes fail with NOT_ENOUGH_REPLICAS while one replica's broker is down; raise the \
             replication factor above min.insync.replicas (3 replicas with min.insync.replicas=2 \
             survive a broker stop): a reassignment applied with kafka-reassign-partitions.sh --bootstrap-server \
             HOST:PORT --reassignment-json-file PLAN --execute (then --verify)"
                .to_string(),
        ),
    };
    RULE.finding(message)
        .with_key_opt((kind != Kind::SingleReplica).then(|| "min.insync.replicas".to_string()))
        .with_labels(
            topics
                .iter()
                .take(3)
                .map(|j| context.at(&j.topic.line, label(j))),
        )
        .with_help(help)
}

/// Topics with more replicas than there are live brokers: some replicas are on brokers that
/// are not registered, so their partitions stay under-replicated until those return.
fn wider_than_live(context: &LiveContext, topics: &[&Judged], live: usize) -> Diagnostic {
    RULE.finding(format!(
        "{} more replicas than the {live} live broker{} ({}): {} partitions stay under-replicated",
        topic_count(topics.len()),
        if live == 1 { "" } else { "s" },
        detail(topics, |j| j.widest.to_string()),
        their(topics.len()),
    ))
    .with_labels(topics.iter().take(3).map(|j| {
        context.at(
            &j.topic.line,
            format!("{} replicas per partition", j.widest),
        )
    }))
    .with_help(
        "they stay so until the brokers holding the other replicas return; start the brokers that are \
         not registered, or move their replicas onto live brokers with \
         kafka-reassign-partitions.sh --bootstrap-server HOST:PORT --reassignment-json-file PLAN --execute",
    )
}

/// `1 topic has`, `3 topics have`.
fn topic_count(count: usize) -> String {
    if count == 1 {
        "1 topic has".to_string()
    } else {
        format!("{count} topics have")
    }
}

fn their(count: usize) -> &'static str {
    if count == 1 { "its" } else { "their" }
}

/// `a: 3 > 2, b: 2 > 1 and 4 more`: at most five topics, each with what is said of it.
fn detail(topics: &[&Judged], what: impl Fn(&Judged) -> String) -> String {
    let shown: Vec<String> = topics
        .iter()
        .take(5)
        .map(|j| format!("{}: {}", j.topic.name.escape_default(), what(j)))
        .collect();
    match topics.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
