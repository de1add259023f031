//! `live-controller-quorum`: the KRaft controller quorum as its leader describes it
//! (DescribeQuorum): no leader, a majority without margin, a voter that lags or does not fetch,
//! one voter or an even number of them, and voters other than the files' controllers. In
//! ZooKeeper mode, the controller broker and the ensemble the brokers name.

use super::live_support::id_list;
use super::{Check, FixAvailability, Group, LiveContext, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::diagnostic::{Diagnostic, Severity};
use crate::live::snapshot::{ConfigSource, Quorum, QuorumMember, QuorumView};

pub const RULE: Rule = Rule {
    name: "live-controller-quorum",
    severity: Severity::Error,
    group: Group::Availability,
    fix: FixAvailability::None,
    verified: Verified::Releases(KafkaVersion::new(3, 3), KafkaVersion::new(4, 4)),
    summary: "a controller quorum with no leader or no majority to spare, a voter behind, one or an even number of voters",
    check: Check::Live(check),
};

/// `controller.quorum.fetch.timeout.ms`'s default (QuorumConfig at apache/kafka tag 3.9.0).
const DEFAULT_FETCH_TIMEOUT_MS: i64 = 2_000;

/// How a voter stands with the leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VoterState {
    Leader,
    /// Fetching, and caught up with the leader's log within the check-quorum time.
    InSync,
    /// Fetching, but not caught up for longer than the check-quorum time (`None`: never since
    /// this leader was elected).
    Lagging {
        behind_ms: Option<i64>,
    },
    /// No fetch for longer than the check-quorum time (`None`: none since this leader was
    /// elected): stopped, cut off, or not yet started.
    Unreachable {
        since_ms: Option<i64>,
    },
}

impl VoterState {
    pub fn counts(self) -> bool {
        matches!(self, VoterState::Leader | VoterState::InSync)
    }

    fn says(self, records: Option<i64>) -> String {
        let seconds = |ms: i64| format!("{:.1} s", ms as f64 / 1000.0);
        let behind = records
            .filter(|records| *records > 0)
            .map_or(String::new(), |records| {
                format!(", {records} records behind")
            });
        match self {
            VoterState::Leader => "leads".to_string(),
            VoterState::InSync => "in sync".to_string(),
            VoterState::Lagging {
                behind_ms: Some(ms),
            } => {
                format!(
                    "lags: last caught up {} before the leader answered{behind}",
                    seconds(ms)
                )
            }
            VoterState::Lagging { behind_ms: None } => {
                format!("lags: not caught up since the leader was elected{behind}")
            }
            VoterState::Unreachable { since_ms: Some(ms) } => {
                format!(
                    "does not fetch: last fetch {} before the leader answered",
                    seconds(ms)
                )
            }
            VoterState::Unreachable { since_ms: None } => {
                "does not fetch: no fetch since the leader was elected".to_string()
            }
        }
    }
}

/// The voters and how each stands, as the leader's clock and Kafka's own check-quorum time
/// judge them: a leader resigns when a majority of voters has not fetched within 1.5 times
/// `controller.quorum.fetch.timeout.ms` (`LeaderState.CHECK_QUORUM_TIMEOUT_FACTOR` at
/// apache/kafka tag 3.9.0), so a voter silent that long is not counted on.
pub fn voter_states<'a>(
    context: &LiveContext<'a>,
    quorum: &'a Quorum,
) -> Vec<(&'a QuorumMember, VoterState)> {
    let limit = fetch_timeout_ms(context) * 3 / 2;
    let now = quorum.now();
    let mut states: Vec<(&QuorumMember, VoterState)> = quorum
        .voters
        .iter()
        .map(|voter| (voter, state_of(voter, quorum.leader, now, limit)))
        .collect();
    states.sort_by_key(|(voter, _)| voter.id);
    states
}

fn state_of(voter: &QuorumMember, leader: Option<i32>, now: Option<i64>, limit: i64) -> VoterState {
    if leader == Some(voter.id) {
        return VoterState::Leader;
    }
    // DescribeQuorum before version 1 (Kafka before 3.3) gives no times: only an unknown log
    // end offset says the voter never fetched.
    let Some(now) = now else {
        return if voter.log_end_offset < 0 {
            VoterState::Unreachable { since_ms: None }
        } else {
            VoterState::InSync
        };
    };
    match voter.last_fetch.map(|time| now - time) {
        None => VoterState::Unreachable { since_ms: None },
        Some(silent) if silent > limit => VoterState::Unreachable {
            since_ms: Some(silent),
        },
        Some(_) => match voter.last_caught_up.map(|time| now - time) {
            Some(behind) if behind <= limit => VoterState::InSync,
            behind_ms => VoterState::Lagging { behind_ms },
        },
    }
}

/// The largest `controller.quorum.fetch.timeout.ms` a broker runs with (brokers read it too),
/// else Kafka's default.
fn fetch_timeout_ms(context: &LiveContext) -> i64 {
    context
        .snapshot
        .brokers
        .iter()
        .filter_map(|broker| {
            let entry = context
                .snapshot
                .effective(broker.id, "controller.quorum.fetch.timeout.ms")?;
            entry.value.trim().parse::<i64>().ok()
        })
        .max()
        .filter(|ms| *ms > 0)
        .unwrap_or(DEFAULT_FETCH_TIMEOUT_MS)
}

/// A majority of `voters`: what Raft needs to elect a leader and commit a record.
pub fn majority(voters: usize) -> usize {
    voters / 2 + 1
}

fn check(context: &LiveContext) -> Vec<Diagnostic> {
    match &context.snapshot.quorum {
        QuorumView::NotAsked => Vec::new(),
        QuorumView::ZooKeeper { line } => zookeeper(context, line),
        QuorumView::Unknown { why, line } => vec![
            RULE.finding(format!(
                "the controller quorum is not known ({why}): whether a majority of its voters runs is not judged"
            ))
            .with_severity(Severity::Info)
            .with_label(context.at(line, "DescribeQuorum not answered".to_string()))
            .with_help(unknown_help(why)),
        ],
        QuorumView::Described(quorum) => {
            let mut diagnostics = described(context, quorum);
            diagnostics.extend(against_files(context, quorum));
            diagnostics
        }
    }
}

/// What lets the quorum be asked: Describe on the cluster when that was refused
/// (`ControllerApis.handleDescribeQuorum` authorizes `DESCRIBE` on `CLUSTER`), else Kafka's own
/// tool.
pub fn unknown_help(why: &str) -> String {
    if why.contains("CLUSTER_AUTHORIZATION_FAILED") {
        "grant the principal Describe on the cluster (kafka-acls.sh --bootstrap-server HOST:PORT --add \
         --allow-principal User:NAME --operation Describe --cluster), or ask kafka-metadata-quorum.sh \
         describe --status as a principal that has it"
            .to_string()
    } else {
        "ask kafka-metadata-quorum.sh --bootstrap-server HOST:PORT describe --status".to_string()
    }
}

fn described(context: &LiveContext, quorum: &Quorum) -> Vec<Diagnostic> {
    let quorum_label = |message: String| context.at(&quorum.line, message);
    let count = quorum.voters.len();
    let Some(leader) = quorum.leader else {
        return vec![
            RULE.finding(format!(
                "the controller quorum has no leader (epoch {}): metadata changes stop (no topic is created, \
                 no partition leader elected, no broker registered)",
                quorum.epoch
            ))
            .with_label(quorum_label("leader=none".to_string()))
            .with_help(format!(
                "start the stopped controllers: a leader needs a majority of the {count} voters ({})",
                majority(count)
            )),
        ];
    };
    let mut diagnostics = Vec::new();
    if let Some(diagnostic) = size_finding(context, quorum, leader) {
        diagnostics.push(diagnostic);
    }
    let states = voter_states(context, quorum);
    let counted = states.iter().filter(|(_, state)| state.counts()).count();
    let short: Vec<&(&QuorumMember, VoterState)> =
        states.iter().filter(|(_, state)| !state.counts()).collect();
    if short.is_empty() {
        return diagnostics;
    }
    let leader_offset = quorum.voter(leader).map(|voter| voter.log_end_offset);
    let label = |(voter, state): &&(&QuorumMember, VoterState)| {
        let records = leader_offset.map(|end| end - voter.log_end_offset);
        context.at(
            &voter.line,
            format!("voter {} {}", voter.id, state.says(records)),
        )
    };
    let names: Vec<String> = short
        .iter()
        .map(|(voter, _)| voter.id.to_string())
        .collect();
    let needed = majority(count);
    if counted < needed + 1 {
        let outcome = if counted < needed {
            "fewer than a majority: metadata changes stop".to_string()
        } else {
            "just a majority: one more controller down and metadata changes stop".to_string()
        };
        diagnostics.push(
            RULE.finding(format!(
                "the controller quorum counts on {counted} of its {count} voters (voter {} {} not), {outcome}",
                super::rule::and_list(&names),
                if names.len() == 1 { "does" } else { "do" },
            ))
            .with_labels(short.iter().map(label))
            .with_label(quorum_label(format!("leader {leader}, {needed} of {count} needed")))
            .with_help(format!(
                "bring voter {} back (start it, or look at its log and network) before stopping any other \
                 controller; kafka-metadata-quorum.sh describe --replication shows each voter's lag",
                super::rule::and_list(&names)
            )),
        );
        return diagnostics;
    }
    for entry in &short {
        diagnostics.push(
            RULE.finding(format!(
                "controller {} of the quorum {}: the quorum still has a majority to spare ({counted} of {count} \
                 counted, {needed} needed)",
                entry.0.id,
                entry.1.says(None)
            ))
            .with_severity(Severity::Warning)
            .with_label(label(entry))
            .with_help(format!(
                "look at controller {}'s log and network; kafka-metadata-quorum.sh describe --replication \
                 shows its lag",
                entry.0.id
            )),
        );
    }
    diagnostics
}

/// One voter, or an even number: no failure tolerated, or none more than one voter fewer.
fn size_finding(context: &LiveContext, quorum: &Quorum, leader: i32) -> Option<Diagnostic> {
    let count = quorum.voters.len();
    if !count.is_multiple_of(2) && count > 1 {
        return None;
    }
    let ids: Vec<i32> = {
        let mut ids: Vec<i32> = quorum.voters.iter().map(|voter| voter.id).collect();
        ids.sort_unstable();
        ids
    };
    let message = if count <= 1 {
        format!(
            "the controller quorum has a single voter (node {leader}): when it stops, metadata changes stop \
             (no topic is created, no partition leader elected)"
        )
    } else if count == 2 {
        format!(
            "the controller quorum has 2 voters ({}): it tolerates no failure, either one stopping stops \
             metadata changes",
            id_list(&ids)
        )
    } else {
        format!(
            "the controller quorum has {count} voters ({}): it tolerates {}, no more than {} voters would",
            id_list(&ids),
            match (count - 1) / 2 {
                1 => "1 failure".to_string(),
                tolerated => format!("{tolerated} failures"),
            },
            count - 1
        )
    };
    let dynamic = quorum.voters.iter().all(|voter| voter.directory.is_some());
    let help = if dynamic {
        "run an odd number of controllers, 3 or 5: format a new one with kafka-storage.sh format \
         --no-initial-controllers, start it, then kafka-metadata-quorum.sh --bootstrap-controller HOST:PORT \
         --command-config its-controller.properties add-controller"
    } else {
        "run an odd number of controllers, 3 or 5: list them in controller.quorum.voters (a static quorum \
         changes only with every controller reformatted), or move to a dynamic quorum (KIP-853, Kafka 4.1+: \
         kafka-features.sh upgrade --feature kraft.version=1) and add-controller"
    };
    Some(
        RULE.finding(message)
            .with_severity(Severity::Warning)
            .with_label(context.at(
                &quorum.line,
                format!("{} voter{}", count, if count == 1 { "" } else { "s" }),
            ))
            .with_help(help),
    )
}

/// The files' controllers against the running voters: a controller of the files that is no
/// voter (a dynamic quorum's controller never added, or one that does not run), and a voter
/// no file declares.
fn against_files(context: &LiveContext, quorum: &Quorum) -> Vec<Diagnostic> {
    let Some(intent) = &context.intent else {
        return Vec::new();
    };
    let nodes = intent.context.quorum_nodes(intent.cluster);
    let controllers: Vec<_> = nodes
        .iter()
        .filter(|node| node.is_controller())
        .filter_map(|node| Some((node.id?, node)))
        .collect();
    if controllers.is_empty() {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for (id, node) in &controllers {
        if quorum.voter(*id).is_some() {
            continue;
        }
        let name = intent.context.node_name(node.node);
        let roles = node.roles.expect("a controller has roles");
        let file_label = intent.context.setting_label(
            node.node,
            "process.roles",
            &roles.setting,
            None,
            "a controller here".to_string(),
        );
        let (message, quorum_label, help) = match quorum.observer(*id) {
            Some(observer) => (
                format!(
                    "{name} is a controller, but the running quorum has it as an observer, not a voter: it \
                     does not count towards the majority"
                ),
                context.at(&observer.line, format!("observer {id}")),
                format!(
                    "add it to the voters: kafka-metadata-quorum.sh --bootstrap-controller HOST:PORT \
                     --command-config {} add-controller (Kafka 4.0+, a dynamic quorum)",
                    intent.context.node_ref(node.node).file
                ),
            ),
            None => (
                format!(
                    "{name} is a controller, but the running quorum has no such voter or observer: it does not \
                     run, or belongs to another cluster"
                ),
                context.at(&quorum.line, format!("voters {}", voter_ids(quorum))),
                format!(
                    "start node {id} with this file, or remove it from the files if it is gone"
                ),
            ),
        };
        diagnostics.push(
            RULE.finding(message)
                .with_severity(Severity::Warning)
                .with_label(file_label)
                .with_label(quorum_label)
                .with_help(help),
        );
    }
    for voter in &quorum.voters {
        if controllers.iter().any(|(id, _)| *id == voter.id) {
            continue;
        }
        let directory = voter
            .directory
            .as_deref()
            .map_or(String::new(), |directory| {
                format!(" --controller-directory-id {directory}")
            });
        diagnostics.push(
            RULE.finding(format!(
                "voter {} of the running quorum is no controller of the files: what the files describe is not \
                 the quorum that runs",
                voter.id
            ))
            .with_severity(Severity::Warning)
            .with_label(context.at(&voter.line, format!("voter {}", voter.id)))
            .with_help(format!(
                "add node {}'s file to the files; if it is meant to go, remove it from the voters: \
                 kafka-metadata-quorum.sh --bootstrap-controller HOST:PORT remove-controller --controller-id {}{directory}",
                voter.id, voter.id
            )),
        );
    }
    diagnostics
}

fn voter_ids(quorum: &Quorum) -> String {
    let mut ids: Vec<i32> = quorum.voters.iter().map(|voter| voter.id).collect();
    ids.sort_unstable();
    id_list(&ids)
}

/// ZooKeeper mode: the controller is a broker (Metadata's controller id); the ensemble is what
/// the brokers' `zookeeper.connect` names. Whether its servers run, Kafka's protocol does not
/// say.
fn zookeeper(context: &LiveContext, line: &crate::properties::Span) -> Vec<Diagnostic> {
    let snapshot = context.snapshot;
    let mut diagnostics = Vec::new();
    if snapshot.controller.is_none() && !snapshot.brokers.is_empty() {
        diagnostics.push(
            RULE.finding(
                "no broker is the controller (Metadata names none): partition leaders are not elected and \
                 brokers that stop are not replaced",
            )
            .with_label(context.at(line, "ZooKeeper mode".to_string()))
            .with_help("look at the brokers' ZooKeeper sessions (their logs) and at the ensemble's servers"),
        );
    }
    let connects: Vec<&crate::live::snapshot::ConfigEntry> = snapshot
        .brokers
        .iter()
        .filter_map(|broker| snapshot.effective(broker.id, "zookeeper.connect"))
        .filter(|entry| entry.source != ConfigSource::Default)
        .collect();
    let Some(first) = connects.first() else {
        return diagnostics;
    };
    // `host:port,host:port/chroot` (ZooKeeper's connect string).
    let servers = ensemble_servers(&first.value);
    let count = servers.len();
    if count == 1 || (count > 1 && count.is_multiple_of(2)) {
        // A note, not a warning: what runs behind the names Kafka's protocol does not say, and
        // a name may resolve to several servers (ZooKeeper's client takes every address of a
        // name: StaticHostProvider).
        let message = if count == 1 {
            format!(
                "broker {}'s zookeeper.connect names a single ZooKeeper address: if one server stands behind it, \
                 when it stops no controller is elected and no broker joins",
                first.broker
            )
        } else {
            format!(
                "broker {}'s zookeeper.connect names {count} ZooKeeper servers: an ensemble of {count} tolerates \
                 no more failures than one of {}",
                first.broker,
                count - 1
            )
        };
        diagnostics.push(
            RULE.finding(message)
                .with_severity(Severity::Info)
                .with_key("zookeeper.connect")
                .with_label(context.at(
                    &first.line,
                    format!("{count} address{}", if count == 1 { "" } else { "es" }),
                ))
                .with_help(
                    "run 3 or 5 ZooKeeper servers and list them all in zookeeper.connect (whether each runs, Kafka's \
                     protocol does not tell: ask them with the four-letter word srvr)",
                ),
        );
    }
    diagnostics
}

/// The servers of a ZooKeeper connect string (`host:port,host:port/chroot`).
pub fn ensemble_servers(connect: &str) -> Vec<&str> {
    let servers = connect.split('/').next().unwrap_or_default();
    servers
        .split(',')
        .map(str::trim)
        .filter(|server| !server.is_empty())
        .collect()
}
