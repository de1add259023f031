//! The questions `kafkalint live` asks, all of them reads: Metadata (brokers, topics,
//! partitions), DescribeConfigs (each broker's own settings with their sources, each topic's
//! effective `min.insync.replicas`), ListGroups on every broker (the groups it coordinates)
//! and FindCoordinator for groups asked about by name.

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::{
    ApiKey, DescribeConfigsRequest, DescribeConfigsResponse, FindCoordinatorRequest,
    FindCoordinatorResponse, ListGroupsRequest, ListGroupsResponse, MetadataRequest,
    MetadataResponse,
};
use kafka_protocol::protocol::StrBytes;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::connection::{Connection, code_name};
use super::transport::Run;
use super::{CONNECTIONS_AT_ONCE, Error, Target};
use crate::live::snapshot::{Broker, ConfigEntry, ConfigSource, Group, Partition, Snapshot, Topic};

/// DescribeConfigs' resource types (`ConfigResource.Type`).
const TOPIC_RESOURCE: i8 = 2;
const BROKER_RESOURCE: i8 = 4;

/// What one broker answers for itself: its settings (or why not), and the groups it
/// coordinates.
type BrokerAnswer = (Result<Vec<ConfigEntry>, Error>, Vec<Group>);

/// Asks the cluster behind `target` what it has, within `target.timeout` in all.
pub fn gather(target: &Target) -> Result<Snapshot, Error> {
    let run = Run::new(target.timeout, target.max_answer_bytes);
    let mut first_error = None;
    let mut bootstrap = None;
    for (host, port) in &target.bootstrap {
        match Connection::open(host, *port, &target.client, &run) {
            Ok(connection) => {
                bootstrap = Some(connection);
                break;
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    let Some(mut connection) = bootstrap else {
        return Err(first_error.expect("at least one bootstrap server"));
    };
    let mut snapshot = metadata(&mut connection)?;
    topic_min_isr(&mut connection, &mut snapshot)?;
    let answers = ask_brokers(&snapshot.brokers, target, &run)?;
    for (broker, (configs, groups)) in snapshot.brokers.iter_mut().zip(answers) {
        match configs {
            Ok(configs) => snapshot.configs.extend(configs),
            Err(error) => broker.unreached = Some(error.to_string()),
        }
        snapshot.groups.extend(groups);
    }
    for id in &target.groups {
        if snapshot.groups.iter().any(|group| &group.id == id) {
            continue;
        }
        let group = find_coordinator(&mut connection, id)?;
        snapshot.groups.push(group);
    }
    snapshot.bootstrap = connection.address.clone();
    Ok(snapshot)
}

/// Each broker answers for its own settings and groups, over a connection of its own: at most
/// [`CONNECTIONS_AT_ONCE`] brokers at a time, however many Metadata names. The answers, in
/// the brokers' order; a reply past the answer bound stops the run.
fn ask_brokers(brokers: &[Broker], target: &Target, run: &Run) -> Result<Vec<BrokerAnswer>, Error> {
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let workers = brokers.len().min(CONNECTIONS_AT_ONCE);
    let answered: Vec<Vec<(usize, BrokerAnswer)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut answers = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(broker) = brokers.get(index) else {
                            return answers;
                        };
                        let answer = if stopped.load(Ordering::SeqCst) {
                            (
                                Err(Error::Protocol {
                                    address: String::new(),
                                    message: "not asked".to_string(),
                                }),
                                Vec::new(),
                            )
                        } else {
                            ask_broker(broker, target, run)
                        };
                        if matches!(answer.0, Err(Error::AnswerLimit { .. })) {
                            stopped.store(true, Ordering::SeqCst);
                        }
                        answers.push((index, answer));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().unwrap_or_default())
            .collect()
    });
    let mut answers: Vec<Option<BrokerAnswer>> = brokers.iter().map(|_| None).collect();
    for (index, answer) in answered.into_iter().flatten() {
        if let Err(error @ Error::AnswerLimit { .. }) = answer.0 {
            return Err(error);
        }
        answers[index] = Some(answer);
    }
    Ok(answers
        .into_iter()
        .map(|answer| {
            answer.unwrap_or_else(|| {
                (
                    Err(Error::Protocol {
                        address: String::new(),
                        message: "the broker's reader stopped".to_string(),
                    }),
                    Vec::new(),
                )
            })
        })
        .collect())
}

fn metadata(connection: &mut Connection<'_>) -> Result<Snapshot, Error> {
    let request = MetadataRequest::default()
        .with_topics(None)
        .with_allow_auto_topic_creation(false);
    let (_, response): (_, MetadataResponse) = connection.call(ApiKey::Metadata, &request, 12)?;
    if response.error_code != 0 {
        return Err(connection.refused("Metadata", response.error_code));
    }
    let brokers = response
        .brokers
        .iter()
        .map(|broker| Broker {
            id: broker.node_id.0,
            host: broker.host.to_string(),
            port: broker.port,
            rack: broker.rack.as_ref().map(ToString::to_string),
            unreached: None,
            line: 0..0,
        })
        .collect();
    let topics = response
        .topics
        .iter()
        .filter(|topic| topic.error_code == 0)
        .filter_map(|topic| {
            Some(Topic {
                name: topic.name.as_ref()?.0.to_string(),
                internal: topic.is_internal,
                min_insync_replicas: None,
                partition_count: topic.partitions.len(),
                partitions: topic
                    .partitions
                    .iter()
                    .map(|partition| Partition {
                        index: partition.partition_index,
                        leader: Some(partition.leader_id.0).filter(|id| *id >= 0),
                        replicas: partition.replica_nodes.iter().map(|id| id.0).collect(),
                        isr: partition.isr_nodes.iter().map(|id| id.0).collect(),
                        offline: partition.offline_replicas.iter().map(|id| id.0).collect(),
                        line: 0..0,
                    })
                    .collect(),
                line: 0..0,
            })
        })
        .collect();
    Ok(Snapshot {
        bootstrap: String::new(),
        cluster_id: response.cluster_id.as_ref().map(ToString::to_string),
        controller: Some(response.controller_id.0).filter(|id| *id >= 0),
        brokers,
        topics,
        configs: Vec::new(),
        groups: Vec::new(),
        bootstrap_line: 0..0,
    })
}

/// Every topic's effective `min.insync.replicas`, in one request.
fn topic_min_isr(connection: &mut Connection<'_>, snapshot: &mut Snapshot) -> Result<(), Error> {
    if snapshot.topics.is_empty() {
        return Ok(());
    }
    let resources = snapshot
        .topics
        .iter()
        .map(|topic| {
            DescribeConfigsResource::default()
                .with_resource_type(TOPIC_RESOURCE)
                .with_resource_name(StrBytes::from_string(topic.name.clone()))
                .with_configuration_keys(Some(vec![StrBytes::from_static_str(
                    "min.insync.replicas",
                )]))
        })
        .collect();
    let request = DescribeConfigsRequest::default().with_resources(resources);
    let (_, response): (_, DescribeConfigsResponse) =
        connection.call(ApiKey::DescribeConfigs, &request, 4)?;
    for result in response.results.iter().filter(|r| r.error_code == 0) {
        let Some(topic) = snapshot
            .topics
            .iter_mut()
            .find(|topic| topic.name == result.resource_name.as_str())
        else {
            continue;
        };
        topic.min_insync_replicas = result
            .configs
            .iter()
            .find(|config| config.name.as_str() == "min.insync.replicas")
            .and_then(|config| config.value.as_ref()?.trim().parse().ok());
    }
    Ok(())
}

/// One broker's own settings (with their synonyms: the file's value under a dynamic one) and
/// the groups it coordinates.
fn ask_broker(broker: &Broker, target: &Target, run: &Run) -> BrokerAnswer {
    let not_asked = |message: String| {
        (
            Err(Error::Protocol {
                address: format!("broker {}", broker.id),
                message,
            }),
            Vec::new(),
        )
    };
    // The host comes from the server: one that is no host name is neither looked up nor shown.
    if !is_host_name(&broker.host) {
        return not_asked(format!(
            "the host it advertises ({} bytes) is no host name or IP address",
            broker.host.len()
        ));
    }
    if run.left().is_none() {
        return not_asked(run.too_late());
    }
    let port = u16::try_from(broker.port).unwrap_or(0);
    let mut connection = match Connection::open(&broker.host, port, &target.client, run) {
        Ok(connection) => connection,
        Err(error) => return (Err(error), Vec::new()),
    };
    let configs = broker_configs(&mut connection, broker.id);
    let groups = listed_groups(&mut connection, broker.id).unwrap_or_default();
    (configs, groups)
}

fn broker_configs(connection: &mut Connection<'_>, id: i32) -> Result<Vec<ConfigEntry>, Error> {
    let resource = DescribeConfigsResource::default()
        .with_resource_type(BROKER_RESOURCE)
        .with_resource_name(StrBytes::from_string(id.to_string()))
        .with_configuration_keys(None);
    let request = DescribeConfigsRequest::default()
        .with_resources(vec![resource])
        .with_include_synonyms(true);
    let (_, response): (_, DescribeConfigsResponse) =
        connection.call(ApiKey::DescribeConfigs, &request, 4)?;
    let mut entries: Vec<ConfigEntry> = Vec::new();
    for result in &response.results {
        if result.error_code != 0 {
            return Err(connection.refused("DescribeConfigs", result.error_code));
        }
        for config in &result.configs {
            // The value and each synonym of the same name: the file's value stays visible
            // under a dynamic one. Sensitive values come back null and are not kept.
            let synonyms = config
                .synonyms
                .iter()
                .filter(|synonym| synonym.name == config.name)
                .map(|synonym| (synonym.source, &synonym.value));
            for (code, value) in
                std::iter::once((config.config_source, &config.value)).chain(synonyms)
            {
                let (Some(source), Some(value)) = (ConfigSource::from_code(code), value) else {
                    continue;
                };
                if config.is_sensitive {
                    continue;
                }
                let key = config.name.to_string();
                if entries
                    .iter()
                    .any(|entry| entry.key == key && entry.source == source)
                {
                    continue;
                }
                entries.push(ConfigEntry {
                    broker: id,
                    source,
                    key,
                    value: value.to_string(),
                    line: 0..0,
                });
            }
        }
    }
    Ok(entries)
}

fn listed_groups(connection: &mut Connection<'_>, id: i32) -> Result<Vec<Group>, Error> {
    let (_, response): (_, ListGroupsResponse) =
        connection.call(ApiKey::ListGroups, &ListGroupsRequest::default(), 5)?;
    if response.error_code != 0 {
        return Err(connection.refused("ListGroups", response.error_code));
    }
    Ok(response
        .groups
        .iter()
        .map(|group| Group {
            id: group.group_id.0.to_string(),
            coordinator: Some(id),
            state: group_state(&group.group_state),
            line: 0..0,
        })
        .collect())
}

/// The coordinator of a group no broker lists (a new or empty one, or one whose coordinator
/// is down): FindCoordinator, single key before version 4, batched since (KIP-699).
fn find_coordinator(connection: &mut Connection<'_>, id: &str) -> Result<Group, Error> {
    let key = StrBytes::from_string(id.to_string());
    let batched = connection
        .version::<FindCoordinatorRequest>(ApiKey::FindCoordinator, 6)
        .is_some_and(|version| version >= 4);
    let request = if batched {
        FindCoordinatorRequest::default().with_coordinator_keys(vec![key])
    } else {
        FindCoordinatorRequest::default().with_key(key)
    };
    let (version, response): (_, FindCoordinatorResponse) =
        connection.call(ApiKey::FindCoordinator, &request, 6)?;
    let (code, node) = if version >= 4 {
        response
            .coordinators
            .first()
            .map_or((-1, -1), |c| (c.error_code, c.node_id.0))
    } else {
        (response.error_code, response.node_id.0)
    };
    let (coordinator, state) = match code {
        0 => (Some(node), "unlisted".to_string()),
        _ => (
            None,
            code_name(code).map_or(format!("error-{code}"), str::to_string),
        ),
    };
    Ok(Group {
        id: id.to_string(),
        coordinator,
        state,
        line: 0..0,
    })
}

/// A group's state as ListGroups gives it (version 4 on): one of Kafka's state names
/// (`ConsumerGroupState` at apache/kafka tag 3.8.0: Unknown, PreparingRebalance,
/// CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling; later releases add more),
/// so a word of letters is kept and other text, which is the server's, is not.
fn group_state(state: &str) -> String {
    if state.is_empty() {
        "listed".to_string()
    } else if state.len() <= 32 && state.bytes().all(|byte| byte.is_ascii_alphabetic()) {
        state.to_string()
    } else {
        "Unknown".to_string()
    }
}

/// Whether a host from Metadata can be a host to connect to: an IP address, or a DNS name of
/// letters, digits, hyphens and underscores (as Kafka's own `advertised.listeners` hosts are)
/// in dot-separated labels of at most 63 bytes, 253 in all. Anything else (a line feed, a
/// space, a control character) is not looked up.
fn is_host_name(host: &str) -> bool {
    if host.parse::<std::net::IpAddr>().is_ok() {
        return true;
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte outside a host name's alphabet, anywhere in an otherwise good name, makes it
    /// no host name; names and addresses of every shape Kafka's listeners take pass.
    #[test]
    fn a_host_name_is_letters_digits_hyphens_underscores_and_dots() {
        for good in [
            "kafka-0",
            "kafka_0.kafka-headless.svc.cluster.local",
            "b-1.msk.eu-west-1.amazonaws.com.",
            "10.0.0.7",
            "::1",
            "fe80::1",
        ] {
            assert!(is_host_name(good), "{good}");
        }
        for byte in (0u8..=255).filter(|b| !b.is_ascii_alphanumeric() && !b"-_.".contains(b)) {
            for at in 0..3 {
                let mut name = b"abc".to_vec();
                name.insert(at, byte);
                let name = String::from_utf8_lossy(&name);
                assert!(!is_host_name(&name), "{name:?}");
            }
        }
        let too_long = format!("{}a", "a.".repeat(127));
        for bad in ["", ".", "a..b", &"a".repeat(64), &too_long] {
            assert!(!is_host_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_group_state_is_a_word_or_unknown() {
        assert_eq!(group_state("Stable"), "Stable");
        assert_eq!(group_state(""), "listed");
        for text in ["a b", "x\n::error::y", "Stable\u{202e}", &"A".repeat(33)] {
            assert_eq!(group_state(text), "Unknown", "{text:?}");
        }
    }
}
