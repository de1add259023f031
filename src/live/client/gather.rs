//! The questions `kafkalint live` asks, all of them reads: Metadata (brokers, topics,
//! partitions), DescribeCluster (what this principal may do on the cluster), DescribeConfigs
//! (each broker's own settings with their sources, each topic's effective
//! `min.insync.replicas` and the configs set on it), ListGroups and DescribeLogDirs on every broker (the groups it
//! coordinates, its log directories), FindCoordinator for groups asked about by name,
//! ListPartitionReassignments (the moves in progress, which a plan must not overlap) and
//! DescribeQuorum (the KRaft controller quorum). What this principal is not shown is written
//! down beside what it is ([`crate::live::partial`] says what is missing).

use kafka_protocol::messages::describe_configs_request::DescribeConfigsResource;
use kafka_protocol::messages::describe_configs_response::DescribeConfigsResourceResult;
use kafka_protocol::messages::metadata_request::MetadataRequestTopic;
use kafka_protocol::messages::{
    ApiKey, DescribeClusterRequest, DescribeClusterResponse, DescribeConfigsRequest,
    DescribeConfigsResponse, DescribeLogDirsRequest, DescribeLogDirsResponse,
    DescribeQuorumRequest, DescribeQuorumResponse, FindCoordinatorRequest, FindCoordinatorResponse,
    ListGroupsRequest, ListGroupsResponse, ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse, MetadataRequest, MetadataResponse, TopicName,
};
use kafka_protocol::protocol::StrBytes;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::connection::{Connection, code_name};
use super::transport::Run;
use super::{CONNECTIONS_AT_ONCE, Error, Target};
use crate::live::snapshot::{
    Broker, ConfigEntry, ConfigSource, Group, LogDir, Partition, Quorum, QuorumMember, QuorumView,
    Reassignment, Snapshot, Topic, TopicOverride, UnlistedTopic,
};

/// DescribeConfigs' resource types (`ConfigResource.Type`).
const TOPIC_RESOURCE: i8 = 2;
const BROKER_RESOURCE: i8 = 4;

/// What one broker answers for itself: its settings (or why not), the groups it coordinates
/// (or why not) and its log directories (none when not asked or refused).
type BrokerAnswer = (
    Result<Vec<ConfigEntry>, Error>,
    Result<Vec<Group>, String>,
    Vec<LogDir>,
);

/// Kafka's `AclOperation` codes and names (apache/kafka,
/// clients/src/main/java/org/apache/kafka/common/acl/AclOperation.java, tag 4.0.0): an
/// authorized-operations field sets bit `code` for each (`Utils.to32BitField`).
const OPERATIONS: [(u32, &str); 13] = [
    (3, "READ"),
    (4, "WRITE"),
    (5, "CREATE"),
    (6, "DELETE"),
    (7, "ALTER"),
    (8, "DESCRIBE"),
    (9, "CLUSTER_ACTION"),
    (10, "DESCRIBE_CONFIGS"),
    (11, "ALTER_CONFIGS"),
    (12, "IDEMPOTENT_WRITE"),
    (13, "CREATE_TOKENS"),
    (14, "DESCRIBE_TOKENS"),
    (15, "TWO_PHASE_COMMIT"),
];

/// `MetadataResponse.AUTHORIZED_OPERATIONS_OMITTED`: the broker did not say.
const OPERATIONS_OMITTED: i32 = i32::MIN;

/// The internal topic whose absence from Metadata's list matters: created on a group's first
/// FindCoordinator, so absent is possible, and hidden is too (a principal without DESCRIBE on
/// it is not shown it). `__transaction_state` is absent from most clusters (no transactional
/// producer yet), and the principal a hidden `__consumer_offsets` does not tell of is rare.
const INTERNAL_TOPICS: [&str; 1] = ["__consumer_offsets"];

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
    if snapshot.cluster_operations.is_none() {
        snapshot.cluster_operations = cluster_operations(&mut connection)?;
    }
    snapshot.unlisted_topics = unlisted_internal_topics(&mut connection, &snapshot.topics)?;
    topic_configs(&mut connection, &mut snapshot)?;
    let answers = ask_brokers(&snapshot.brokers, target, &run)?;
    for (broker, (configs, groups, log_dirs)) in snapshot.brokers.iter_mut().zip(answers) {
        match configs {
            Ok(configs) => snapshot.configs.extend(configs),
            Err(error) => broker.unreached = Some(error.to_string()),
        }
        match groups {
            Ok(groups) => snapshot.groups.extend(groups),
            Err(why) => broker.groups_unknown = Some(why),
        }
        snapshot.log_dirs.extend(log_dirs);
    }
    for id in &target.groups {
        if snapshot.groups.iter().any(|group| &group.id == id) {
            continue;
        }
        let group = find_coordinator(&mut connection, id, GROUP_KEY)?;
        snapshot.groups.push(group);
    }
    for id in &target.transactional_ids {
        let found = find_coordinator(&mut connection, id, TRANSACTION_KEY)?;
        snapshot.transactional_ids.push(found);
    }
    snapshot.reassignments = reassignments(&snapshot, target, &run);
    // Last on the bootstrap connection: a broker waits for an active controller to forward
    // it to, and a quorum without a leader leaves it unanswered until the deadline.
    snapshot.quorum = match describe_quorum(&mut connection)? {
        Some(view) => view,
        None if runs_zookeeper(&snapshot) => QuorumView::ZooKeeper { line: 0..0 },
        None => QuorumView::Unknown {
            why: "the broker does not offer DescribeQuorum (Kafka before 3.3 in KRaft mode, \
                  or ZooKeeper mode)"
                .to_string(),
            line: 0..0,
        },
    };
    snapshot.bootstrap = connection.address.clone();
    Ok(snapshot)
}

/// The reassignments in progress, asked of the controller as Kafka's Admin client asks it
/// (`KafkaAdminClient.listPartitionReassignments`, `ControllerNodeProvider`): in ZooKeeper mode
/// only the active controller answers (`KafkaController.listPartitionReassignments` refuses
/// others with NOT_CONTROLLER, apache/kafka core/src/main/scala/kafka/controller/
/// KafkaController.scala, tag 3.9.0); in KRaft the broker Metadata names forwards it
/// (`KafkaApis`, `forwardToController`). `None` when it cannot be known: no controller named,
/// a broker before 2.4 (no API 46), a refusal (it needs Describe on the cluster) or no answer.
fn reassignments(snapshot: &Snapshot, target: &Target, run: &Run) -> Option<Vec<Reassignment>> {
    let controller = snapshot.broker(snapshot.controller?)?;
    if !is_host_name(&controller.host) {
        return None;
    }
    let port = u16::try_from(controller.port).ok()?;
    let mut connection = Connection::open(&controller.host, port, &target.client, run).ok()?;
    let request = ListPartitionReassignmentsRequest::default()
        .with_timeout_ms(i32::try_from(run.left()?.as_millis()).unwrap_or(i32::MAX))
        .with_topics(None);
    let (_, response): (_, ListPartitionReassignmentsResponse) = connection
        .call(ApiKey::ListPartitionReassignments, &request, 0)
        .ok()?;
    if response.error_code != 0 {
        return None;
    }
    let ids = |list: &[kafka_protocol::messages::BrokerId]| list.iter().map(|id| id.0).collect();
    Some(
        response
            .topics
            .iter()
            .flat_map(|topic| {
                topic.partitions.iter().map(|partition| Reassignment {
                    topic: topic.name.0.to_string(),
                    partition: partition.partition_index,
                    replicas: ids(&partition.replicas),
                    adding: ids(&partition.adding_replicas),
                    removing: ids(&partition.removing_replicas),
                    line: 0..0,
                })
            })
            .collect(),
    )
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
                                Err("not asked".to_string()),
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
                    Err("the broker's reader stopped".to_string()),
                    Vec::new(),
                )
            })
        })
        .collect())
}

fn metadata(connection: &mut Connection<'_>) -> Result<Snapshot, Error> {
    // Versions 8 to 10 (Kafka 2.3 to 2.7) say what the principal may do on the cluster; later
    // ones leave it to DescribeCluster (KIP-700). Not asked at other versions, so the request
    // of a 2.8+ broker is the same as before.
    let says_operations = connection
        .version::<MetadataRequest>(ApiKey::Metadata, 12)
        .is_some_and(|version| (8..=10).contains(&version));
    let request = MetadataRequest::default()
        .with_topics(None)
        .with_allow_auto_topic_creation(false)
        .with_include_cluster_authorized_operations(says_operations);
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
            groups_unknown: None,
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
                overrides: None,
                line: 0..0,
            })
        })
        .collect();
    Ok(Snapshot {
        bootstrap: String::new(),
        cluster_id: response.cluster_id.as_ref().map(ToString::to_string),
        controller: Some(response.controller_id.0).filter(|id| *id >= 0),
        cluster_operations: says_operations
            .then(|| operation_names(response.cluster_authorized_operations))
            .flatten(),
        brokers,
        topics,
        ..Snapshot::default()
    })
}

/// What this principal may do on the cluster, from DescribeCluster (Kafka 2.8 on; it needs no
/// permission of its own: apache/kafka core/src/main/scala/kafka/server/KafkaApis.scala,
/// `handleDescribeCluster`, tag 4.0.0); `None` when the broker offers it not or does not say.
fn cluster_operations(connection: &mut Connection<'_>) -> Result<Option<Vec<String>>, Error> {
    if connection
        .version::<DescribeClusterRequest>(ApiKey::DescribeCluster, 0)
        .is_none()
    {
        return Ok(None);
    }
    let request =
        DescribeClusterRequest::default().with_include_cluster_authorized_operations(true);
    let (_, response): (_, DescribeClusterResponse) =
        connection.call(ApiKey::DescribeCluster, &request, 0)?;
    if response.error_code != 0 {
        return Ok(None);
    }
    Ok(operation_names(response.cluster_authorized_operations))
}

/// The names of the operations an authorized-operations field sets, sorted; `None` when it
/// says nothing (omitted).
fn operation_names(field: i32) -> Option<Vec<String>> {
    if field == OPERATIONS_OMITTED {
        return None;
    }
    let mut names: Vec<String> = OPERATIONS
        .iter()
        .filter(|(code, _)| field & (1 << code) != 0)
        .map(|(_, name)| name.to_string())
        .collect();
    names.sort();
    Some(names)
}

/// The internal topics Metadata did not list that kafkalint cannot tell are absent. Asked by
/// name, a topic this principal may not describe answers TOPIC_AUTHORIZATION_FAILED whether
/// it exists or not, and one it may that does not exist UNKNOWN_TOPIC_OR_PARTITION (apache/kafka
/// core/src/main/scala/kafka/server/KafkaApis.scala, `handleTopicMetadataRequest`, tag 3.9.0:
/// "do not disclose the existence of topics unauthorized for Describe"). Asked only of
/// brokers of Metadata version 10 on (Kafka 2.8 on): there `allow_auto_topic_creation=false`
/// creates nothing, while an older broker creates a named internal topic that does not exist
/// (`getTopicMetadata`, tag 2.7.0), and kafkalint never writes.
fn unlisted_internal_topics(
    connection: &mut Connection<'_>,
    listed: &[Topic],
) -> Result<Vec<UnlistedTopic>, Error> {
    let unlisted: Vec<&str> = INTERNAL_TOPICS
        .into_iter()
        .filter(|name| !listed.iter().any(|topic| topic.name == *name))
        .collect();
    if unlisted.is_empty() {
        return Ok(Vec::new());
    }
    let unknown = |why: String| {
        unlisted
            .iter()
            .map(|name| UnlistedTopic {
                name: name.to_string(),
                why: why.clone(),
                line: 0..0,
            })
            .collect()
    };
    if connection
        .version::<MetadataRequest>(ApiKey::Metadata, 12)
        .is_none_or(|version| version < 10)
    {
        return Ok(unknown(
            "not asked: a broker before Kafka 2.8 would create it".to_string(),
        ));
    }
    let topics = unlisted
        .iter()
        .map(|name| {
            MetadataRequestTopic::default()
                .with_name(Some(TopicName(StrBytes::from_string(name.to_string()))))
        })
        .collect();
    let request = MetadataRequest::default()
        .with_topics(Some(topics))
        .with_allow_auto_topic_creation(false);
    let (_, response): (_, MetadataResponse) = connection.call(ApiKey::Metadata, &request, 12)?;
    const UNKNOWN_TOPIC_OR_PARTITION: i16 = 3;
    Ok(unlisted
        .iter()
        .filter_map(|name| {
            let answer = response
                .topics
                .iter()
                .find(|topic| topic.name.as_ref().is_some_and(|n| n.0.as_str() == *name));
            let why = match answer.map(|topic| topic.error_code) {
                Some(UNKNOWN_TOPIC_OR_PARTITION) => return None,
                // Created since the first question: listed now.
                Some(0) => "created while kafkalint asked".to_string(),
                Some(code) => code_name(code).map_or(format!("error {code}"), str::to_string),
                None => "Metadata did not answer for it".to_string(),
            };
            Some(UnlistedTopic {
                name: name.to_string(),
                why,
                line: 0..0,
            })
        })
        .collect())
}

/// Every topic's configs, in one request: its effective `min.insync.replicas` and the configs
/// set on the topic itself. All keys are asked (a null key list), as `kafka-configs.sh
/// --describe --entity-type topics` asks them; a resource Kafka refuses (no DESCRIBE_CONFIGS on
/// the topic) leaves both not known.
fn topic_configs(connection: &mut Connection<'_>, snapshot: &mut Snapshot) -> Result<(), Error> {
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
                .with_configuration_keys(None)
        })
        .collect();
    let request = DescribeConfigsRequest::default().with_resources(resources);
    let (version, response): (_, DescribeConfigsResponse) =
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
        // Version 0 has no config source (KIP-226 added it in version 1): which configs are
        // the topic's own is then not known.
        if version >= 1 {
            topic.overrides = Some(topic_overrides(&result.configs));
        }
    }
    Ok(())
}

/// The configs set on the topic itself: source DYNAMIC_TOPIC_CONFIG (1,
/// `DescribeConfigsResponse.ConfigSource`), sensitive ones and null values left out.
fn topic_overrides(configs: &[DescribeConfigsResourceResult]) -> Vec<TopicOverride> {
    const DYNAMIC_TOPIC_CONFIG: i8 = 1;
    configs
        .iter()
        .filter(|config| config.config_source == DYNAMIC_TOPIC_CONFIG && !config.is_sensitive)
        .filter_map(|config| {
            Some(TopicOverride {
                key: config.name.to_string(),
                value: config.value.as_ref()?.to_string(),
                line: 0..0,
            })
        })
        .collect()
}

/// One broker's own settings (with their synonyms: the file's value under a dynamic one), the
/// groups it coordinates and its log directories.
fn ask_broker(broker: &Broker, target: &Target, run: &Run) -> BrokerAnswer {
    let not_asked = |message: String| {
        (
            Err(Error::Protocol {
                address: format!("broker {}", broker.id),
                message: message.clone(),
            }),
            Err(message),
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
        Err(error) => {
            let why = error.to_string();
            return (Err(error), Err(why), Vec::new());
        }
    };
    let configs = broker_configs(&mut connection, broker.id);
    let groups = listed_groups(&mut connection, broker.id).map_err(|error| error.to_string());
    // Asked last: a broker that refuses it (no Describe on the cluster) or that closes the
    // connection loses nothing else; its directories are then "not asked".
    let log_dirs = log_dirs(&mut connection, broker.id).unwrap_or_default();
    (configs, groups, log_dirs)
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
            group_type: group_type(&group.group_type),
            line: 0..0,
        })
        .collect())
}

/// The broker's log directories and whether each is online: DescribeLogDirs with an empty
/// topic list, so that the answer names the directories and no partition (apache/kafka tag
/// 3.7.0, core/src/main/scala/kafka/server/KafkaApis.scala `handleDescribeLogDirsRequest`: a
/// null list means every partition; ReplicaManager.scala `describeLogDirs` answers each of
/// `log.dirs`, `KAFKA_STORAGE_ERROR` for an offline one). Needs Describe on the cluster; a
/// broker without the API is not asked.
fn log_dirs(connection: &mut Connection<'_>, id: i32) -> Result<Vec<LogDir>, Error> {
    if connection
        .version::<DescribeLogDirsRequest>(ApiKey::DescribeLogDirs, 4)
        .is_none()
    {
        return Ok(Vec::new());
    }
    let request = DescribeLogDirsRequest::default().with_topics(Some(Vec::new()));
    let (_, response): (_, DescribeLogDirsResponse) =
        connection.call(ApiKey::DescribeLogDirs, &request, 4)?;
    if response.error_code != 0 {
        return Err(connection.refused("DescribeLogDirs", response.error_code));
    }
    Ok(response
        .results
        .iter()
        .map(|result| LogDir {
            broker: id,
            path: result.log_dir.to_string(),
            error: (result.error_code != 0).then(|| {
                code_name(result.error_code)
                    .map_or(format!("error-{}", result.error_code), str::to_string)
            }),
            line: 0..0,
        })
        .collect())
}

/// FindCoordinator's key types (`FindCoordinatorRequest.CoordinatorType`): a group, a
/// transactional id.
const GROUP_KEY: i8 = 0;
const TRANSACTION_KEY: i8 = 1;

/// The coordinator of a group no broker lists (a new or empty one, or one whose coordinator
/// is down), or of a transactional id (key type 1, FindCoordinator version 1 on): FindCoordinator,
/// single key before version 4, batched since (KIP-699).
fn find_coordinator(
    connection: &mut Connection<'_>,
    id: &str,
    key_type: i8,
) -> Result<Group, Error> {
    let key = StrBytes::from_string(id.to_string());
    let batched = connection
        .version::<FindCoordinatorRequest>(ApiKey::FindCoordinator, 6)
        .is_some_and(|version| version >= 4);
    let request = if batched {
        FindCoordinatorRequest::default().with_coordinator_keys(vec![key])
    } else {
        FindCoordinatorRequest::default().with_key(key)
    }
    .with_key_type(key_type);
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
        0 if key_type == GROUP_KEY => (Some(node), "unlisted".to_string()),
        0 => (Some(node), "found".to_string()),
        _ => (
            None,
            code_name(code).map_or(format!("error-{code}"), str::to_string),
        ),
    };
    Ok(Group {
        id: id.to_string(),
        coordinator,
        state,
        group_type: None,
        line: 0..0,
    })
}

/// The metadata log: the one partition of `__cluster_metadata` (KafkaRaftClient's log; the
/// admin client's `CLUSTER_METADATA_TOPIC_NAME` and partition 0).
const METADATA_LOG: &str = "__cluster_metadata";

/// The quorum as DescribeQuorum answers it, asked as Kafka's admin client asks it
/// (`KafkaAdminClient.describeMetadataQuorum` at apache/kafka tag 3.9.0: one partition,
/// `__cluster_metadata`-0): a KRaft broker forwards it to the active controller
/// (`KafkaApis`: `forwardToControllerOrFail`), which answers when the principal may Describe
/// the cluster (`ControllerApis.handleDescribeQuorum`). `None` when the broker does not offer
/// it: ZooKeeper-mode brokers do not (DescribeQuorumRequest.json lists the `broker` and
/// `controller` listeners only). What keeps it from being known otherwise is
/// [`QuorumView::Unknown`]; only a reply past the answer bound stops the run.
fn describe_quorum(connection: &mut Connection<'_>) -> Result<Option<QuorumView>, Error> {
    use kafka_protocol::messages::TopicName;
    use kafka_protocol::messages::describe_quorum_request::{PartitionData, TopicData};
    if connection
        .version::<DescribeQuorumRequest>(ApiKey::DescribeQuorum, 2)
        .is_none()
    {
        return Ok(None);
    }
    let request = DescribeQuorumRequest::default().with_topics(vec![
        TopicData::default()
            .with_topic_name(TopicName(StrBytes::from_static_str(METADATA_LOG)))
            .with_partitions(vec![PartitionData::default().with_partition_index(0)]),
    ]);
    let unknown = |why: String| Ok(Some(QuorumView::Unknown { why, line: 0..0 }));
    let response: DescribeQuorumResponse =
        match connection.call(ApiKey::DescribeQuorum, &request, 2) {
            Ok((_, response)) => response,
            Err(error @ Error::AnswerLimit { .. }) => return Err(error),
            Err(error) => return unknown(format!("no answer to DescribeQuorum: {error}")),
        };
    if response.error_code != 0 {
        return unknown(
            connection
                .refused("DescribeQuorum", response.error_code)
                .to_string(),
        );
    }
    let partition = response
        .topics
        .iter()
        .filter(|topic| topic.topic_name.as_str() == METADATA_LOG)
        .flat_map(|topic| &topic.partitions)
        .find(|partition| partition.partition_index == 0);
    let Some(partition) = partition else {
        return unknown("DescribeQuorum: the reply does not describe __cluster_metadata".into());
    };
    if partition.error_code != 0 {
        return unknown(
            connection
                .refused("DescribeQuorum", partition.error_code)
                .to_string(),
        );
    }
    let members =
        |states: &[kafka_protocol::messages::describe_quorum_response::ReplicaState]| {
            states
                .iter()
                .map(|state| quorum_member(state, &response.nodes))
                .collect::<Vec<_>>()
        };
    let mut observers = members(&partition.observers);
    // A leader keeps an observer per (id, directory): one line per id, the latest fetch.
    observers.sort_by_key(|member| (member.id, std::cmp::Reverse(member.last_fetch)));
    observers.dedup_by_key(|member| member.id);
    Ok(Some(QuorumView::Described(Quorum {
        leader: Some(partition.leader_id.0).filter(|id| *id >= 0),
        epoch: partition.leader_epoch,
        high_watermark: partition.high_watermark,
        voters: members(&partition.current_voters),
        observers,
        line: 0..0,
    })))
}

fn quorum_member(
    state: &kafka_protocol::messages::describe_quorum_response::ReplicaState,
    nodes: &[kafka_protocol::messages::describe_quorum_response::Node],
) -> QuorumMember {
    use base64::Engine;
    // -1: unknown, or a version without the field (ReplicaState in DescribeQuorumResponse.json).
    let time = |value: i64| Some(value).filter(|value| *value >= 0);
    let directory = state.replica_directory_id;
    let endpoints = nodes
        .iter()
        .filter(|node| node.node_id == state.replica_id)
        .flat_map(|node| &node.listeners)
        .filter(|listener| is_listener_name(&listener.name) && is_host_name(&listener.host))
        .map(|listener| {
            let host = listener.host.as_str();
            let host = if host.contains(':') {
                format!("[{host}]")
            } else {
                host.to_string()
            };
            format!("{}://{host}:{}", listener.name.as_str(), listener.port)
        })
        .collect();
    QuorumMember {
        id: state.replica_id.0,
        // As Kafka's `Uuid.toString` writes it: URL-safe base64 without padding.
        directory: (!directory.is_nil())
            .then(|| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(directory.as_bytes())),
        log_end_offset: state.log_end_offset,
        last_fetch: time(state.last_fetch_timestamp),
        last_caught_up: time(state.last_caught_up_timestamp),
        endpoints,
        line: 0..0,
    }
}

/// Whether the brokers run in ZooKeeper mode: one of them read `zookeeper.connect` from its
/// file (KRaft nodes do not set it; Kafka 4 has no such setting).
fn runs_zookeeper(snapshot: &Snapshot) -> bool {
    snapshot.configs.iter().any(|entry| {
        entry.key == "zookeeper.connect"
            && entry.source == ConfigSource::Static
            && !entry.value.trim().is_empty()
    })
}

/// A listener name as Kafka's `ListenerName` takes them from `listeners`: letters, digits,
/// `_` and `-` (anything else a server sends is not written down).
fn is_listener_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
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

/// A group's type as ListGroups gives it (version 5 on, KIP-848: `classic`, `consumer`,
/// `share`, `streams`): kept when it is not a consumer group's and is a short word of letters,
/// as a state is.
fn group_type(kind: &str) -> Option<String> {
    let word = group_state(kind);
    match word.as_str() {
        "listed" | "Unknown" | "classic" | "consumer" => None,
        _ => Some(word.to_ascii_lowercase()),
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

    /// The bits Kafka sets for a broker without an authorizer (every operation on the
    /// cluster), for a principal with none, and the field left out.
    #[test]
    fn authorized_operations_are_named_by_kafkas_codes() {
        let all = 1 << 5 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 11 | 1 << 12;
        assert_eq!(
            operation_names(all).unwrap().join(","),
            "ALTER,ALTER_CONFIGS,CLUSTER_ACTION,CREATE,DESCRIBE,DESCRIBE_CONFIGS,IDEMPOTENT_WRITE"
        );
        assert_eq!(operation_names(0), Some(Vec::new()));
        assert_eq!(operation_names(OPERATIONS_OMITTED), None);
    }

    #[test]
    fn a_group_type_is_kept_when_it_is_not_a_consumer_groups() {
        assert_eq!(group_type("share").as_deref(), Some("share"));
        assert_eq!(group_type("Streams").as_deref(), Some("streams"));
        for consumer in ["", "classic", "consumer", "x\ny"] {
            assert_eq!(group_type(consumer), None, "{consumer:?}");
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
