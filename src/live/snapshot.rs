//! What a running cluster answered (`kafkalint live`), as data and as a document.
//!
//! The document is a `.properties` text, one line a broker, topic, partition, broker setting
//! or group, so that findings point at a line of it like at a line of a broker's file, every
//! output format draws it as it draws files, and a saved one (`kafkalint live --save`) is read
//! back by the same exact parser (`kafkalint live --snapshot`):
//!
//! ```properties
//! bootstrap=127.0.0.1:9092
//! cluster.id=MkU3OEVBNTcwNTJENDM2Qk
//! controller=1
//! broker.0=127.0.0.1:9092
//! topic.__consumer_offsets=internal=true partitions=50 min.insync.replicas=1 overrides=3
//! topic.__consumer_offsets/cleanup.policy=compact
//! topic.__consumer_offsets/compression.type=producer
//! topic.__consumer_offsets/segment.bytes=104857600
//! partition.__consumer_offsets-49=leader=0 replicas=0 isr=0
//! config.0.static.offsets.topic.replication.factor=3
//! group.testGroup=coordinator=0 state=Stable
//! reassignments=1
//! reassignment.orders-0=replicas=0,1,2 adding=2 removing=
//! quorum=leader=1 epoch=4 high.watermark=2301
//! quorum.voter.1=log.end.offset=2301 last.fetch=1700000009000 last.caught.up=1700000009000
//! group.checkout=coordinator=1 state=Stable type=share
//! logdir.0./var/lib/kafka/data=ok
//! logdir.1./mnt/disk2/kafka=KAFKA_STORAGE_ERROR
//! ```
//!
//! Values Kafka marks sensitive (passwords, unknown keys) come back as null and are not
//! written at all. A topic's `overrides=N` says that the configs set on the topic itself were
//! asked (N of them, each on a `topic.NAME/KEY=` line); a topic line without it: not asked.
//!
//! What this principal was not shown is written down too, so that a saved snapshot says it
//! as the run did: `cluster.operations=` (what it may do on the cluster; no such line: not
//! asked), `broker.N.unreached=` (its settings not known), `broker.N.groups-unknown=` (the
//! groups it coordinates not known), `unlisted-topic.NAME=` (an internal topic Metadata did
//! not list, that kafkalint cannot tell is absent) and `min.insync.replicas=unknown` on a
//! topic line ([`crate::live::partial`] reads them).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::properties::{PropertiesFile, Span};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The address asked first.
    pub bootstrap: String,
    pub cluster_id: Option<String>,
    /// Metadata's controller id: the active controller in ZooKeeper mode; in KRaft, a broker
    /// Kafka picks for clients that ask.
    pub controller: Option<i32>,
    /// What the principal kafkalint asked as may do on the cluster (Kafka's `AclOperation`
    /// names, sorted); `None`: not asked (a snapshot saved before kafkalint asked, a broker
    /// that did not say).
    pub cluster_operations: Option<Vec<String>>,
    /// The live brokers: those registered and not fenced (Metadata lists no other).
    pub brokers: Vec<Broker>,
    pub topics: Vec<Topic>,
    /// Internal topics Metadata did not list that kafkalint cannot tell are absent: each
    /// with why (hidden from this principal, or not asked).
    pub unlisted_topics: Vec<UnlistedTopic>,
    /// Each broker's settings as it answered DescribeConfigs for its own broker resource.
    pub configs: Vec<ConfigEntry>,
    pub groups: Vec<Group>,
    /// The transactional ids asked about (`--transactional-id`): the broker FindCoordinator
    /// (key type 1) names, `state` `found` or Kafka's error.
    pub transactional_ids: Vec<Group>,
    /// The reassignments in progress (ListPartitionReassignments); `None`: not asked (a
    /// snapshot saved before kafkalint asked, a broker before 2.4, or a refusal), not "none".
    pub reassignments: Option<Vec<Reassignment>>,
    /// The KRaft controller quorum, as DescribeQuorum answered.
    pub quorum: QuorumView,
    /// Each broker's log directories as it answered DescribeLogDirs; none for a broker that
    /// was not asked (a saved snapshot of an earlier kafkalint, a refusal, an older broker).
    pub log_dirs: Vec<LogDir>,
    /// Where a line is, once read from the document (empty when built from replies).
    pub bootstrap_line: Span,
    /// `configs` in order of broker, key and source, for look-ups in a logarithmic time: a
    /// cluster of 100 brokers answers some 30,000 settings, and the rules ask for each
    /// broker's value of each key they judge.
    pub config_order: ConfigOrder,
}

/// The positions of a snapshot's `configs` sorted by broker, key and source (stable: of two
/// entries alike, the first written stays first), worked out at the first look-up. A snapshot
/// is not changed once it is judged; a copy works its own out again, and two snapshots are
/// equal whatever either has worked out.
#[derive(Debug, Default)]
pub struct ConfigOrder(OnceLock<Vec<u32>>);

impl Clone for ConfigOrder {
    fn clone(&self) -> Self {
        ConfigOrder::default()
    }
}

impl PartialEq for ConfigOrder {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ConfigOrder {}

/// What is known of the controller quorum.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum QuorumView {
    /// Not asked: a snapshot saved before kafkalint asked DescribeQuorum (no `quorum` line).
    #[default]
    NotAsked,
    /// ZooKeeper mode: the controller is a broker (Metadata's controller id), and no KRaft
    /// quorum exists (`quorum=zookeeper`).
    ZooKeeper {
        line: Span,
    },
    /// Asked, not answered: why (`quorum.unknown=...`).
    Unknown {
        why: String,
        line: Span,
    },
    Described(Quorum),
}

/// The quorum of `__cluster_metadata` as its leader describes it (DescribeQuorumResponse.json
/// at apache/kafka tag 3.9.0: v1 adds the fetch and caught-up times, KIP-836; v2 the voters'
/// directory ids and endpoints, KIP-853).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Quorum {
    /// `None`: no leader (the election is under way, or the majority is lost).
    pub leader: Option<i32>,
    pub epoch: i32,
    pub high_watermark: i64,
    pub voters: Vec<QuorumMember>,
    /// Nodes that replicate the metadata log without a vote: brokers, and controllers not
    /// (yet) added to the voters of a dynamic quorum.
    pub observers: Vec<QuorumMember>,
    pub line: Span,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuorumMember {
    pub id: i32,
    /// The metadata log directory's id (KIP-853), when the leader gives one.
    pub directory: Option<String>,
    /// Its log end offset as the leader last saw it; -1 when unknown.
    pub log_end_offset: i64,
    /// The leader's clock when it last fetched; the leader gives its own clock for itself.
    pub last_fetch: Option<i64>,
    /// The leader's clock when it was last caught up with the leader's log.
    pub last_caught_up: Option<i64>,
    /// Where a voter listens for the quorum, `NAME://host:port` (v2 only).
    pub endpoints: Vec<String>,
    pub line: Span,
}

impl Quorum {
    pub fn voter(&self, id: i32) -> Option<&QuorumMember> {
        self.voters.iter().find(|voter| voter.id == id)
    }

    pub fn observer(&self, id: i32) -> Option<&QuorumMember> {
        self.observers.iter().find(|observer| observer.id == id)
    }

    /// The leader's clock when it answered (it reports its own caught-up time as now).
    pub fn now(&self) -> Option<i64> {
        self.voter(self.leader?)?.last_caught_up
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broker {
    pub id: i32,
    pub host: String,
    pub port: i32,
    pub rack: Option<String>,
    /// Why its own settings are not known (DescribeConfigs goes to each broker itself).
    pub unreached: Option<String>,
    /// Why the groups it coordinates are not known (ListGroups goes to each broker itself).
    pub groups_unknown: Option<String>,
    pub line: Span,
}

/// An internal topic Metadata did not list, and why kafkalint cannot tell that it does not
/// exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnlistedTopic {
    pub name: String,
    pub why: String,
    pub line: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub name: String,
    pub internal: bool,
    /// Its effective `min.insync.replicas` (its own, else the brokers'); `None`: not known
    /// (DescribeConfigs answered no value for it).
    pub min_insync_replicas: Option<u32>,
    /// How many partitions it has (a saved snapshot may list fewer of them).
    pub partition_count: usize,
    pub partitions: Vec<Partition>,
    /// The configs set on the topic itself (DescribeConfigs' source DYNAMIC_TOPIC_CONFIG),
    /// sensitive ones left out; `None`: not asked (a snapshot saved before kafkalint asked, or
    /// a refused DescribeConfigs), never "none set".
    pub overrides: Option<Vec<TopicOverride>>,
    pub line: Span,
}

/// A config set on a topic (`kafka-configs.sh --alter --entity-type topics`, or given at its
/// creation), as DescribeConfigs answers it: Kafka's text form of the parsed value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicOverride {
    pub key: String,
    pub value: String,
    pub line: Span,
}

impl Topic {
    /// The value set on the topic itself for `key`; `None` when it is not set or not known.
    pub fn override_of(&self, key: &str) -> Option<&TopicOverride> {
        self.overrides.as_ref()?.iter().find(|o| o.key == key)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partition {
    pub index: i32,
    /// `None`: no leader (offline).
    pub leader: Option<i32>,
    pub replicas: Vec<i32>,
    pub isr: Vec<i32>,
    /// Replicas whose log directory is offline.
    pub offline: Vec<i32>,
    pub line: Span,
}

/// Where a broker's value of a setting comes from (DescribeConfigs' `config_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ConfigSource {
    /// `kafka-configs.sh --alter --entity-type brokers --entity-name N`.
    DynamicBroker,
    /// `kafka-configs.sh --alter --entity-type brokers --entity-default`.
    DynamicDefault,
    /// The broker's properties file, as it was when the broker started.
    Static,
    /// Kafka's default.
    Default,
}

impl ConfigSource {
    /// Kafka's codes (`DescribeConfigsResponse.ConfigSource`): 2, 3, 4, 5.
    pub fn from_code(code: i8) -> Option<ConfigSource> {
        match code {
            2 => Some(ConfigSource::DynamicBroker),
            3 => Some(ConfigSource::DynamicDefault),
            4 => Some(ConfigSource::Static),
            5 => Some(ConfigSource::Default),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ConfigSource::DynamicBroker => "dynamic",
            ConfigSource::DynamicDefault => "dynamic-default",
            ConfigSource::Static => "static",
            ConfigSource::Default => "default",
        }
    }

    fn parse(text: &str) -> Option<ConfigSource> {
        [
            ConfigSource::DynamicBroker,
            ConfigSource::DynamicDefault,
            ConfigSource::Static,
            ConfigSource::Default,
        ]
        .into_iter()
        .find(|source| source.as_str() == text)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigEntry {
    pub broker: i32,
    pub source: ConfigSource,
    pub key: String,
    pub value: String,
    pub line: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    pub id: String,
    /// The broker that coordinates it; `None` when FindCoordinator names none.
    pub coordinator: Option<i32>,
    /// Its state (`Stable`, `Empty`, ...), or Kafka's error when it has no coordinator.
    pub state: String,
    /// ListGroups' type (version 5 on, KIP-848) when it is not a consumer group (`classic`,
    /// `consumer`): `share` (KIP-932), `streams` (KIP-1071); `None` for a consumer group or a
    /// broker that does not say.
    pub group_type: Option<String>,
    pub line: Span,
}

impl Group {
    /// How messages name it: `share group`, `streams group`, else `group`.
    pub fn kind(&self) -> String {
        match &self.group_type {
            Some(kind) => format!("{kind} group"),
            None => "group".to_string(),
        }
    }
}

/// A log directory of a broker, as DescribeLogDirs answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogDir {
    pub broker: i32,
    /// Its absolute path, as the broker gives it.
    pub path: String,
    /// Kafka's error for it (`KAFKA_STORAGE_ERROR`: offline), `None` when it is online.
    pub error: Option<String>,
    pub line: Span,
}

/// A partition being moved (`kafka-reassign-partitions.sh --execute` not yet done).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reassignment {
    pub topic: String,
    pub partition: i32,
    /// The replicas while it runs: the old ones and the new ones.
    pub replicas: Vec<i32>,
    pub adding: Vec<i32>,
    pub removing: Vec<i32>,
    pub line: Span,
}

impl Snapshot {
    pub fn broker(&self, id: i32) -> Option<&Broker> {
        self.brokers.iter().find(|broker| broker.id == id)
    }

    pub fn topic(&self, name: &str) -> Option<&Topic> {
        self.topics.iter().find(|topic| topic.name == name)
    }

    /// The value `broker` runs with for `key`, and where it comes from: the first source of
    /// Kafka's order of precedence that sets it.
    pub fn effective(&self, broker: i32, key: &str) -> Option<&ConfigEntry> {
        self.first_config(|entry| (entry.broker, entry.key.as_str()) < (broker, key))
            .filter(|entry| entry.broker == broker && entry.key == key)
    }

    /// `broker`'s value of `key` from one source.
    pub fn from_source(
        &self,
        broker: i32,
        key: &str,
        source: ConfigSource,
    ) -> Option<&ConfigEntry> {
        self.first_config(|entry| {
            (entry.broker, entry.key.as_str(), entry.source) < (broker, key, source)
        })
        .filter(|entry| entry.broker == broker && entry.key == key && entry.source == source)
    }

    /// Whether `broker` answered for its settings.
    pub fn has_configs(&self, broker: i32) -> bool {
        self.first_config(|entry| entry.broker < broker)
            .is_some_and(|entry| entry.broker == broker)
    }

    /// The first entry, in order of broker, key and source, that `before` is false of.
    fn first_config(&self, before: impl Fn(&ConfigEntry) -> bool) -> Option<&ConfigEntry> {
        let order = self.config_order.0.get_or_init(|| {
            let mut order: Vec<u32> = (0..self.configs.len() as u32).collect();
            order.sort_by(|a, b| {
                let (a, b) = (&self.configs[*a as usize], &self.configs[*b as usize]);
                (a.broker, &a.key, a.source).cmp(&(b.broker, &b.key, b.source))
            });
            order
        });
        debug_assert_eq!(
            order.len(),
            self.configs.len(),
            "configs changed after a look-up"
        );
        let at = order.partition_point(|at| before(&self.configs[*at as usize]));
        order.get(at).map(|at| &self.configs[*at as usize])
    }

    /// The document: the lines of [`Snapshot::read`], in a fixed order.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "# kafkalint live: what the cluster behind {} answered.\n",
            comment_safe(&self.bootstrap)
        ));
        line(&mut out, "bootstrap", &self.bootstrap);
        if let Some(id) = &self.cluster_id {
            line(&mut out, "cluster.id", id);
        }
        if let Some(operations) = &self.cluster_operations {
            line(&mut out, "cluster.operations", &operations.join(","));
        }
        if let Some(controller) = self.controller {
            line(&mut out, "controller", &controller.to_string());
        }
        let mut brokers: Vec<&Broker> = self.brokers.iter().collect();
        brokers.sort_by_key(|broker| broker.id);
        for broker in &brokers {
            let host = if broker.host.contains(':') {
                format!("[{}]", broker.host)
            } else {
                broker.host.clone()
            };
            line(
                &mut out,
                &format!("broker.{}", broker.id),
                &format!("{host}:{}", broker.port),
            );
            if let Some(rack) = &broker.rack {
                line(&mut out, &format!("broker.{}.rack", broker.id), rack);
            }
            if let Some(why) = &broker.unreached {
                line(&mut out, &format!("broker.{}.unreached", broker.id), why);
            }
            if let Some(why) = &broker.groups_unknown {
                line(
                    &mut out,
                    &format!("broker.{}.groups-unknown", broker.id),
                    why,
                );
            }
        }
        let mut unlisted: Vec<&UnlistedTopic> = self.unlisted_topics.iter().collect();
        unlisted.sort_by(|a, b| a.name.cmp(&b.name));
        for topic in unlisted {
            line(
                &mut out,
                &format!("unlisted-topic.{}", topic.name),
                &topic.why,
            );
        }
        let mut topics: Vec<&Topic> = self.topics.iter().collect();
        topics.sort_by(|a, b| a.name.cmp(&b.name));
        for topic in &topics {
            let mut value = format!(
                "internal={} partitions={}",
                topic.internal, topic.partition_count
            );
            match topic.min_insync_replicas {
                Some(min_isr) => value.push_str(&format!(" min.insync.replicas={min_isr}")),
                None => value.push_str(" min.insync.replicas=unknown"),
            }
            if let Some(overrides) = &topic.overrides {
                value.push_str(&format!(" overrides={}", overrides.len()));
            }
            line(&mut out, &format!("topic.{}", topic.name), &value);
            let mut overrides: Vec<&TopicOverride> = topic.overrides.iter().flatten().collect();
            overrides.sort_by(|a, b| a.key.cmp(&b.key));
            for config in overrides {
                line(
                    &mut out,
                    &format!("topic.{}{OVERRIDE_SEPARATOR}{}", topic.name, config.key),
                    &config.value,
                );
            }
            let mut partitions: Vec<&Partition> = topic.partitions.iter().collect();
            partitions.sort_by_key(|partition| partition.index);
            for partition in partitions {
                let leader = partition
                    .leader
                    .map_or("none".to_string(), |id| id.to_string());
                let mut value = format!(
                    "leader={leader} replicas={} isr={}",
                    ids(&partition.replicas),
                    ids(&partition.isr)
                );
                if !partition.offline.is_empty() {
                    value.push_str(&format!(" offline={}", ids(&partition.offline)));
                }
                line(
                    &mut out,
                    &format!("partition.{}-{}", topic.name, partition.index),
                    &value,
                );
            }
        }
        let mut configs: Vec<&ConfigEntry> = self.configs.iter().collect();
        configs.sort_by(|a, b| (a.broker, &a.key, a.source).cmp(&(b.broker, &b.key, b.source)));
        for entry in configs {
            line(
                &mut out,
                &format!(
                    "config.{}.{}.{}",
                    entry.broker,
                    entry.source.as_str(),
                    entry.key
                ),
                &entry.value,
            );
        }
        let mut groups: Vec<&Group> = self.groups.iter().collect();
        groups.sort_by(|a, b| a.id.cmp(&b.id));
        for group in groups {
            let coordinator = group
                .coordinator
                .map_or("none".to_string(), |id| id.to_string());
            let mut value = format!("coordinator={coordinator} state={}", group.state);
            if let Some(kind) = &group.group_type {
                value.push_str(&format!(" type={kind}"));
            }
            line(&mut out, &format!("group.{}", group.id), &value);
        }
        let mut log_dirs: Vec<&LogDir> = self.log_dirs.iter().collect();
        log_dirs.sort_by(|a, b| (a.broker, &a.path).cmp(&(b.broker, &b.path)));
        for dir in log_dirs {
            line(
                &mut out,
                &format!("logdir.{}.{}", dir.broker, dir.path),
                dir.error.as_deref().unwrap_or("ok"),
            );
        }
        let mut transactional: Vec<&Group> = self.transactional_ids.iter().collect();
        transactional.sort_by(|a, b| a.id.cmp(&b.id));
        for id in transactional {
            let coordinator = id
                .coordinator
                .map_or("none".to_string(), |id| id.to_string());
            line(
                &mut out,
                &format!("transactional.{}", id.id),
                &format!("coordinator={coordinator} state={}", id.state),
            );
        }
        if let Some(reassignments) = &self.reassignments {
            line(&mut out, "reassignments", &reassignments.len().to_string());
            let mut sorted: Vec<&Reassignment> = reassignments.iter().collect();
            sorted.sort_by(|a, b| (&a.topic, a.partition).cmp(&(&b.topic, b.partition)));
            for moving in sorted {
                line(
                    &mut out,
                    &format!("reassignment.{}-{}", moving.topic, moving.partition),
                    &format!(
                        "replicas={} adding={} removing={}",
                        ids(&moving.replicas),
                        ids(&moving.adding),
                        ids(&moving.removing)
                    ),
                );
            }
        }
        render_quorum(&mut out, &self.quorum);
        out
    }

    /// Reads a document [`Snapshot::render`] wrote; errors say which line is wrong.
    pub fn read(properties: &PropertiesFile) -> Result<Snapshot, String> {
        let mut snapshot = Snapshot::default();
        // Where each topic and broker is in `snapshot`, the first of a name or id kept (as a
        // search from the start finds it): a snapshot lists tens of thousands of topics, each
        // named again by every partition line.
        let mut topic_at: HashMap<String, usize> = HashMap::new();
        let mut broker_at: HashMap<i32, usize> = HashMap::new();
        for entry in properties.effective_entries() {
            let span = entry.key_span.start..entry.value_span.end.max(entry.key_span.end);
            let bad = |why: &str| format!("`{}`: {why}", entry.key.escape_default());
            let value = entry.value.as_str();
            let (kind, rest) = entry.key.split_once('.').unwrap_or((&entry.key, ""));
            match kind {
                "bootstrap" => {
                    snapshot.bootstrap = value.to_string();
                    snapshot.bootstrap_line = span;
                }
                "cluster" if rest == "id" => snapshot.cluster_id = Some(value.to_string()),
                "cluster" if rest == "operations" => {
                    snapshot.cluster_operations = Some(
                        value
                            .split(',')
                            .filter(|name| !name.is_empty())
                            .map(str::to_string)
                            .collect(),
                    );
                }
                "unlisted-topic" => snapshot.unlisted_topics.push(UnlistedTopic {
                    name: rest.to_string(),
                    why: value.to_string(),
                    line: span,
                }),
                "controller" => {
                    snapshot.controller = Some(value.parse().map_err(|_| bad("not a broker id"))?);
                }
                "broker" => {
                    let (id, field) = rest.split_once('.').unwrap_or((rest, ""));
                    let id: i32 = id.parse().map_err(|_| bad("not a broker id"))?;
                    match field {
                        "" => {
                            let (host, port) = value
                                .rsplit_once(':')
                                .and_then(|(host, port)| Some((host, port.parse().ok()?)))
                                .ok_or_else(|| bad("not host:port"))?;
                            let host = host.trim_start_matches('[').trim_end_matches(']');
                            broker_at.entry(id).or_insert(snapshot.brokers.len());
                            snapshot.brokers.push(Broker {
                                id,
                                host: host.to_string(),
                                port,
                                rack: None,
                                unreached: None,
                                groups_unknown: None,
                                line: span,
                            });
                        }
                        "rack" | "unreached" | "groups-unknown" => {
                            let at = *broker_at
                                .get(&id)
                                .ok_or_else(|| bad("a broker not listed before"))?;
                            let broker = &mut snapshot.brokers[at];
                            let value = Some(value.to_string());
                            match field {
                                "rack" => broker.rack = value,
                                "unreached" => broker.unreached = value,
                                _ => broker.groups_unknown = value,
                            }
                        }
                        _ => return Err(bad("unknown broker field")),
                    }
                }
                "topic" if rest.contains(OVERRIDE_SEPARATOR) => {
                    let (name, key) = rest
                        .split_once(OVERRIDE_SEPARATOR)
                        .filter(|(name, key)| !name.is_empty() && !key.is_empty())
                        .ok_or_else(|| bad("not topic.<name>/<key>"))?;
                    let at = *topic_at
                        .get(name)
                        .ok_or_else(|| bad("a topic not listed before"))?;
                    let overrides = snapshot.topics[at].overrides.get_or_insert_with(Vec::new);
                    overrides.push(TopicOverride {
                        key: key.to_string(),
                        value: value.to_string(),
                        line: span,
                    });
                }
                "topic" => {
                    let fields = fields(value);
                    let field = |name: &str| {
                        fields
                            .iter()
                            .find(|(key, _)| *key == name)
                            .map(|(_, value)| *value)
                    };
                    topic_at
                        .entry(rest.to_string())
                        .or_insert(snapshot.topics.len());
                    snapshot.topics.push(Topic {
                        name: rest.to_string(),
                        internal: field("internal") == Some("true"),
                        min_insync_replicas: field("min.insync.replicas")
                            .filter(|v| *v != "unknown")
                            .map(|v| v.parse().map_err(|_| bad("min.insync.replicas")))
                            .transpose()?,
                        partition_count: field("partitions")
                            .map(|v| v.parse().map_err(|_| bad("partitions")))
                            .transpose()?
                            .unwrap_or(0),
                        partitions: Vec::new(),
                        overrides: field("overrides")
                            .map(|v| v.parse::<usize>().map_err(|_| bad("overrides")))
                            .transpose()?
                            .map(|_| Vec::new()),
                        line: span,
                    });
                }
                "partition" => {
                    let (topic, index) = rest
                        .rsplit_once('-')
                        .and_then(|(topic, index)| Some((topic, index.parse().ok()?)))
                        .ok_or_else(|| bad("not topic-partition"))?;
                    let fields = fields(value);
                    let list = |name: &str| -> Result<Vec<i32>, String> {
                        match fields.iter().find(|(key, _)| *key == name) {
                            None => Ok(Vec::new()),
                            Some((_, text)) => parse_ids(text).ok_or_else(|| bad(name)),
                        }
                    };
                    let leader = match fields.iter().find(|(key, _)| *key == "leader") {
                        Some((_, "none")) | None => None,
                        Some((_, id)) => Some(id.parse().map_err(|_| bad("leader"))?),
                    };
                    let partition = Partition {
                        index,
                        leader,
                        replicas: list("replicas")?,
                        isr: list("isr")?,
                        offline: list("offline")?,
                        line: span,
                    };
                    let at = *topic_at
                        .get(topic)
                        .ok_or_else(|| bad("a topic not listed before"))?;
                    snapshot.topics[at].partitions.push(partition);
                }
                "config" => {
                    let mut parts = rest.splitn(3, '.');
                    let broker = parts.next().and_then(|id| id.parse().ok());
                    let source = parts.next().and_then(ConfigSource::parse);
                    let (Some(broker), Some(source), Some(key)) = (broker, source, parts.next())
                    else {
                        return Err(bad("not config.<broker>.<source>.<key>"));
                    };
                    snapshot.configs.push(ConfigEntry {
                        broker,
                        source,
                        key: key.to_string(),
                        value: value.to_string(),
                        line: span,
                    });
                }
                "group" | "transactional" => {
                    let fields = fields(value);
                    let coordinator = match fields.iter().find(|(key, _)| *key == "coordinator") {
                        Some((_, "none")) | None => None,
                        Some((_, id)) => Some(id.parse().map_err(|_| bad("coordinator"))?),
                    };
                    let state = fields
                        .iter()
                        .find(|(key, _)| *key == "state")
                        .map_or("", |(_, state)| state);
                    let group_type = fields
                        .iter()
                        .find(|(key, _)| *key == "type")
                        .map(|(_, kind)| kind.to_string());
                    let read = Group {
                        id: rest.to_string(),
                        coordinator,
                        state: state.to_string(),
                        group_type,
                        line: span,
                    };
                    if kind == "group" {
                        snapshot.groups.push(read);
                    } else {
                        snapshot.transactional_ids.push(read);
                    }
                }
                "logdir" => {
                    let (broker, path) = rest
                        .split_once('.')
                        .and_then(|(id, path)| Some((id.parse().ok()?, path)))
                        .filter(|(_, path)| !path.is_empty())
                        .ok_or_else(|| bad("not logdir.<broker>.<path>"))?;
                    snapshot.log_dirs.push(LogDir {
                        broker,
                        path: path.to_string(),
                        error: (value != "ok").then(|| value.to_string()),
                        line: span,
                    });
                }
                "reassignments" if rest.is_empty() => {
                    value.parse::<usize>().map_err(|_| bad("not a count"))?;
                    snapshot.reassignments.get_or_insert_with(Vec::new);
                }
                "reassignment" => {
                    let (topic, partition) = rest
                        .rsplit_once('-')
                        .and_then(|(topic, index)| Some((topic, index.parse().ok()?)))
                        .ok_or_else(|| bad("not topic-partition"))?;
                    let fields = fields(value);
                    let list = |name: &str| -> Result<Vec<i32>, String> {
                        match fields.iter().find(|(key, _)| *key == name) {
                            None => Ok(Vec::new()),
                            Some((_, text)) => parse_ids(text).ok_or_else(|| bad(name)),
                        }
                    };
                    let moving = Reassignment {
                        topic: topic.to_string(),
                        partition,
                        replicas: list("replicas")?,
                        adding: list("adding")?,
                        removing: list("removing")?,
                        line: span,
                    };
                    snapshot
                        .reassignments
                        .as_mut()
                        .ok_or_else(|| bad("no `reassignments` line before it"))?
                        .push(moving);
                }
                "quorum" => {
                    read_quorum(&mut snapshot.quorum, rest, value, span).map_err(|why| bad(&why))?
                }
                _ => return Err(bad("not a line of a kafkalint live snapshot")),
            }
        }
        if snapshot.bootstrap.is_empty() {
            return Err("no `bootstrap` line: not a kafkalint live snapshot".to_string());
        }
        Ok(snapshot)
    }
}

fn render_quorum(out: &mut String, quorum: &QuorumView) {
    match quorum {
        QuorumView::NotAsked => {}
        QuorumView::ZooKeeper { .. } => line(out, "quorum", "zookeeper"),
        QuorumView::Unknown { why, .. } => line(out, "quorum.unknown", why),
        QuorumView::Described(quorum) => {
            let leader = quorum
                .leader
                .map_or("none".to_string(), |id| id.to_string());
            line(
                out,
                "quorum",
                &format!(
                    "leader={leader} epoch={} high.watermark={}",
                    quorum.epoch, quorum.high_watermark
                ),
            );
            let mut voters: Vec<&QuorumMember> = quorum.voters.iter().collect();
            voters.sort_by_key(|voter| voter.id);
            let mut observers: Vec<&QuorumMember> = quorum.observers.iter().collect();
            observers.sort_by_key(|observer| observer.id);
            let members = voters
                .into_iter()
                .map(|member| ("voter", member))
                .chain(observers.into_iter().map(|member| ("observer", member)));
            for (kind, member) in members {
                let mut value = format!("log.end.offset={}", member.log_end_offset);
                let times = [
                    ("last.fetch", member.last_fetch),
                    ("last.caught.up", member.last_caught_up),
                ];
                for (name, time) in times {
                    if let Some(time) = time {
                        value.push_str(&format!(" {name}={time}"));
                    }
                }
                if let Some(directory) = &member.directory {
                    value.push_str(&format!(" directory={directory}"));
                }
                if !member.endpoints.is_empty() {
                    value.push_str(&format!(" endpoints={}", member.endpoints.join(",")));
                }
                line(out, &format!("quorum.{kind}.{}", member.id), &value);
            }
        }
    }
}

/// Reads a `quorum` line (`rest` is what follows `quorum.` in its key) into `view`.
fn read_quorum(view: &mut QuorumView, rest: &str, value: &str, span: Span) -> Result<(), String> {
    let number = |fields: &[(&str, &str)], name: &str| -> Result<Option<i64>, String> {
        fields
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, text)| text.parse().map_err(|_| name.to_string()))
            .transpose()
    };
    match rest {
        "" if value == "zookeeper" => *view = QuorumView::ZooKeeper { line: span },
        "" => {
            let fields = fields(value);
            let leader = match fields.iter().find(|(key, _)| *key == "leader") {
                Some((_, "none")) | None => None,
                Some((_, id)) => Some(id.parse().map_err(|_| "leader".to_string())?),
            };
            *view = QuorumView::Described(Quorum {
                leader,
                epoch: i32::try_from(number(&fields, "epoch")?.unwrap_or(0))
                    .map_err(|_| "epoch")?,
                high_watermark: number(&fields, "high.watermark")?.unwrap_or(-1),
                line: span,
                ..Quorum::default()
            });
        }
        "unknown" => {
            *view = QuorumView::Unknown {
                why: value.to_string(),
                line: span,
            }
        }
        _ => {
            let (kind, id) = rest.split_once('.').ok_or("unknown quorum field")?;
            let id: i32 = id.parse().map_err(|_| "not a node id")?;
            let QuorumView::Described(quorum) = view else {
                return Err("a quorum member before its `quorum` line".to_string());
            };
            let fields = fields(value);
            let text = |name: &str| {
                fields
                    .iter()
                    .find(|(key, _)| *key == name)
                    .map(|(_, text)| text.to_string())
            };
            let member = QuorumMember {
                id,
                directory: text("directory"),
                log_end_offset: number(&fields, "log.end.offset")?.unwrap_or(-1),
                last_fetch: number(&fields, "last.fetch")?,
                last_caught_up: number(&fields, "last.caught.up")?,
                endpoints: text("endpoints")
                    .map(|list| list.split(',').map(str::to_string).collect())
                    .unwrap_or_default(),
                line: span,
            };
            match kind {
                "voter" => quorum.voters.push(member),
                "observer" => quorum.observers.push(member),
                _ => return Err("unknown quorum field".to_string()),
            }
        }
    }
    Ok(())
}

/// The document `bytes` (a [`Snapshot::render`] text, or a saved one) as a file named `path`,
/// whose secret-looking values output never shows.
pub fn document(path: String, bytes: Vec<u8>) -> crate::source::SourceFile {
    crate::source::SourceFile::written(path, bytes, secret_spans)
}

/// What output hides of a snapshot's document: the value of a broker setting or of a config set
/// on a topic that looks secret or whose key is no known setting (Kafka sends sensitive values
/// as null, never written; this guards a document edited by hand), and every comment but the
/// header.
pub fn secret_spans(properties: &PropertiesFile) -> Vec<Span> {
    use crate::secrets;
    let mut spans: Vec<Span> = Vec::new();
    for entry in &properties.entries {
        let key = if let Some(rest) = entry.key.strip_prefix("config.") {
            rest.splitn(3, '.').nth(2).unwrap_or(rest)
        } else if let Some(rest) = entry.key.strip_prefix("topic.") {
            match rest.split_once(OVERRIDE_SEPARATOR) {
                Some((_, key)) => key,
                None => continue,
            }
        } else {
            continue;
        };
        let unknown = secrets::key_kind(key) == secrets::KeyKind::Unknown
            && secrets::shown_key_len(key) < key.len();
        if !entry.value_span.is_empty() && (unknown || secrets::is_hidden(key, &entry.value)) {
            spans.push(entry.value_span.clone());
        }
    }
    for comment in &properties.comments {
        if comment.span.start > 0 {
            spans.push(comment.span.start + 1..comment.span.end);
        }
    }
    spans.sort_by_key(|span| span.start);
    spans
}

/// `name=value` words of a line's value.
fn fields(value: &str) -> Vec<(&str, &str)> {
    value
        .split_whitespace()
        .filter_map(|word| word.split_once('='))
        .collect()
}

fn ids(ids: &[i32]) -> String {
    ids.iter().map(i32::to_string).collect::<Vec<_>>().join(",")
}

fn parse_ids(text: &str) -> Option<Vec<i32>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(',').map(|id| id.parse().ok()).collect()
}

/// What separates a topic's name from a key in the line of a config set on the topic
/// (`topic.orders/retention.ms=604800000`): a character no topic name holds (Kafka's
/// `Topic.LEGAL_CHARS` are `[a-zA-Z0-9._-]`, apache/kafka
/// clients/src/main/java/org/apache/kafka/common/internals/Topic.java, tag 4.0.0), where a dot
/// would leave `topic.a.b=` ambiguous.
const OVERRIDE_SEPARATOR: char = '/';

/// A comment's text on one line.
fn comment_safe(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Appends `key=value` as `java.util.Properties.store` escapes them (ASCII only: other
/// characters as `\uXXXX`, which the reader, like Java's, decodes).
fn line(out: &mut String, key: &str, value: &str) {
    escape(out, key, true);
    out.push('=');
    escape(out, value, false);
    out.push('\n');
}

fn escape(out: &mut String, text: &str, is_key: bool) {
    for (index, c) in text.chars().enumerate() {
        match c {
            ' ' if is_key || index == 0 => out.push_str("\\ "),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\x0c' => out.push_str("\\f"),
            '=' | ':' | '#' | '!' if is_key || index == 0 => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Snapshot {
        Snapshot {
            bootstrap: "127.0.0.1:9092".into(),
            cluster_id: Some("abc".into()),
            cluster_operations: Some(vec!["DESCRIBE".into(), "DESCRIBE_CONFIGS".into()]),
            controller: Some(1),
            brokers: vec![
                Broker {
                    id: 1,
                    host: "::1".into(),
                    port: 9093,
                    rack: Some("r 1".into()),
                    unreached: Some("cannot connect".into()),
                    groups_unknown: Some("CLUSTER_AUTHORIZATION_FAILED".into()),
                    line: 0..0,
                },
                Broker {
                    id: 0,
                    host: "127.0.0.1".into(),
                    port: 9092,
                    rack: None,
                    unreached: None,
                    groups_unknown: None,
                    line: 0..0,
                },
            ],
            unlisted_topics: vec![UnlistedTopic {
                name: "__consumer_offsets".into(),
                why: "TOPIC_AUTHORIZATION_FAILED (error 29)".into(),
                line: 0..0,
            }],
            topics: vec![
                Topic {
                    name: "a.b-c".into(),
                    internal: false,
                    min_insync_replicas: Some(2),
                    partition_count: 1,
                    partitions: vec![Partition {
                        index: 3,
                        leader: None,
                        replicas: vec![0, 1],
                        isr: vec![],
                        offline: vec![1],
                        line: 0..0,
                    }],
                    overrides: Some(vec![
                        TopicOverride {
                            key: "retention.ms".into(),
                            value: "604800000".into(),
                            line: 0..0,
                        },
                        TopicOverride {
                            key: "cleanup.policy".into(),
                            value: "compact,delete".into(),
                            line: 0..0,
                        },
                    ]),
                    line: 0..0,
                },
                Topic {
                    name: "unknown-min-isr".into(),
                    internal: false,
                    min_insync_replicas: None,
                    partition_count: 0,
                    partitions: vec![],
                    overrides: None,
                    line: 0..0,
                },
            ],
            configs: vec![ConfigEntry {
                broker: 0,
                source: ConfigSource::DynamicDefault,
                key: "listeners".into(),
                value: " PLAINTEXT://:9092=x#\u{e9}\u{1F600}\\".into(),
                line: 0..0,
            }],
            groups: vec![Group {
                id: "g =:#!\u{e9}\n".into(),
                coordinator: None,
                state: "COORDINATOR_NOT_AVAILABLE".into(),
                group_type: Some("share".into()),
                line: 0..0,
            }],
            transactional_ids: vec![Group {
                id: "tx-1".into(),
                coordinator: Some(0),
                state: "found".into(),
                group_type: None,
                line: 0..0,
            }],
            reassignments: Some(vec![Reassignment {
                topic: "a.b-c".into(),
                partition: 3,
                replicas: vec![0, 1, 2],
                adding: vec![2],
                removing: vec![],
                line: 0..0,
            }]),
            quorum: QuorumView::Described(Quorum {
                leader: Some(1),
                epoch: 4,
                high_watermark: 2301,
                voters: vec![
                    QuorumMember {
                        id: 1,
                        directory: Some("AAAAAAAAAAAAAAAAAAAAAQ".into()),
                        log_end_offset: 2301,
                        last_fetch: Some(1_700_000_009_000),
                        last_caught_up: Some(1_700_000_009_000),
                        endpoints: vec!["CONTROLLER://[::1]:9093".into(), "X://h:1".into()],
                        line: 0..0,
                    },
                    QuorumMember {
                        id: 0,
                        log_end_offset: -1,
                        ..QuorumMember::default()
                    },
                ],
                observers: vec![QuorumMember {
                    id: 7,
                    log_end_offset: 2000,
                    last_fetch: Some(1_700_000_008_000),
                    ..QuorumMember::default()
                }],
                line: 0..0,
            }),
            log_dirs: vec![
                LogDir {
                    broker: 1,
                    path: "/data/b=1:x".into(),
                    error: Some("KAFKA_STORAGE_ERROR".into()),
                    line: 0..0,
                },
                LogDir {
                    broker: 0,
                    path: "/data/a".into(),
                    error: None,
                    line: 0..0,
                },
            ],
            bootstrap_line: 0..0,
            config_order: Default::default(),
        }
    }

    fn without_lines(mut snapshot: Snapshot) -> Snapshot {
        snapshot.bootstrap_line = 0..0;
        snapshot.brokers.sort_by_key(|b| b.id);
        snapshot.brokers.iter_mut().for_each(|b| b.line = 0..0);
        for topic in &mut snapshot.topics {
            topic.line = 0..0;
            topic.partitions.iter_mut().for_each(|p| p.line = 0..0);
            if let Some(overrides) = &mut topic.overrides {
                overrides.sort_by(|a, b| a.key.cmp(&b.key));
                overrides.iter_mut().for_each(|o| o.line = 0..0);
            }
        }
        snapshot.configs.iter_mut().for_each(|c| c.line = 0..0);
        snapshot.groups.iter_mut().for_each(|g| g.line = 0..0);
        match &mut snapshot.quorum {
            QuorumView::Described(quorum) => {
                quorum.line = 0..0;
                quorum.voters.sort_by_key(|v| v.id);
                quorum.observers.sort_by_key(|o| o.id);
                let members = quorum.voters.iter_mut().chain(&mut quorum.observers);
                members.for_each(|member| member.line = 0..0);
            }
            QuorumView::Unknown { line, .. } | QuorumView::ZooKeeper { line } => *line = 0..0,
            QuorumView::NotAsked => {}
        }
        snapshot.log_dirs.sort_by_key(|d| d.broker);
        snapshot.log_dirs.iter_mut().for_each(|d| d.line = 0..0);
        snapshot
            .unlisted_topics
            .iter_mut()
            .for_each(|t| t.line = 0..0);
        snapshot
            .transactional_ids
            .iter_mut()
            .for_each(|t| t.line = 0..0);
        for moving in snapshot.reassignments.iter_mut().flatten() {
            moving.line = 0..0;
        }
        snapshot
    }

    #[test]
    fn every_quorum_view_reads_back_the_same() {
        let views = [
            QuorumView::NotAsked,
            QuorumView::ZooKeeper { line: 0..0 },
            QuorumView::Unknown {
                why: "CLUSTER_AUTHORIZATION_FAILED (error 31): x".into(),
                line: 0..0,
            },
        ];
        for view in views {
            let snapshot = Snapshot {
                quorum: view,
                ..sample()
            };
            let properties = crate::properties::parse(snapshot.render().as_bytes()).unwrap();
            let read = Snapshot::read(&properties).unwrap();
            assert_eq!(without_lines(read), without_lines(snapshot));
        }
    }

    /// A snapshot saved before the quorum was asked has no `quorum` line: not asked, never
    /// "no voters".
    #[test]
    fn an_old_snapshot_has_its_quorum_not_asked() {
        let properties = crate::properties::parse(b"bootstrap=a:1\nbroker.0=a:1\n").unwrap();
        let read = Snapshot::read(&properties).unwrap();
        assert_eq!(read.quorum, QuorumView::NotAsked);
    }

    #[test]
    fn a_rendered_snapshot_reads_back_the_same() {
        let text = sample().render();
        let properties = crate::properties::parse(text.as_bytes()).unwrap();
        let read = Snapshot::read(&properties).unwrap();
        assert_eq!(without_lines(read.clone()), without_lines(sample()));
        // Every line points at its own text.
        let group = &read.groups[0];
        assert!(text[group.line.clone()].starts_with("group.g\\ "));
        assert!(text.is_ascii());
    }

    #[test]
    fn effective_follows_kafkas_precedence() {
        let mut snapshot = sample();
        snapshot.configs.push(ConfigEntry {
            broker: 0,
            source: ConfigSource::Static,
            key: "listeners".into(),
            value: "x".into(),
            line: 0..0,
        });
        let effective = snapshot.effective(0, "listeners").unwrap();
        assert_eq!(effective.source, ConfigSource::DynamicDefault);
    }

    /// A snapshot saved before kafkalint asked for reassignments reads as "not asked"; one
    /// that asked and found none reads as "none".
    #[test]
    fn reassignments_not_asked_differ_from_none() {
        let old = crate::properties::parse(b"bootstrap=a:1\n").unwrap();
        assert_eq!(Snapshot::read(&old).unwrap().reassignments, None);
        let none = crate::properties::parse(b"bootstrap=a:1\nreassignments=0\n").unwrap();
        assert_eq!(
            Snapshot::read(&none).unwrap().reassignments,
            Some(Vec::new())
        );
        let stray =
            crate::properties::parse(b"bootstrap=a:1\nreassignment.t-0=replicas=1\n").unwrap();
        assert!(Snapshot::read(&stray).is_err());
    }

    /// A snapshot saved before log directories and group types were asked reads as "not
    /// asked": no log directory, every group a consumer group.
    #[test]
    fn an_older_snapshot_has_no_log_dirs_and_consumer_groups() {
        let properties = crate::properties::parse(
            b"bootstrap=a:1\nbroker.0=a:1\ngroup.g=coordinator=0 state=Stable\n",
        )
        .unwrap();
        let read = Snapshot::read(&properties).unwrap();
        assert!(read.log_dirs.is_empty());
        assert_eq!(read.groups[0].group_type, None);
        assert_eq!(read.groups[0].kind(), "group");
    }

    /// The configs set on a topic read back on lines of their own, each pointing at its text; a
    /// topic line without `overrides=` (a snapshot saved before they were asked) reads as "not
    /// asked", one with `overrides=0` as "none set"; a dot in a topic's name stays in the name.
    #[test]
    fn topic_overrides_read_back_and_not_asked_differs_from_none() {
        let text = sample().render();
        assert!(text.contains(
            "topic.a.b-c=internal=false partitions=1 min.insync.replicas=2 overrides=2\n"
        ));
        assert!(
            text.contains("\ntopic.a.b-c/cleanup.policy=compact,delete\ntopic.a.b-c/retention.ms=")
        );
        let read = Snapshot::read(&crate::properties::parse(text.as_bytes()).unwrap()).unwrap();
        let topic = read.topic("a.b-c").unwrap();
        let retention = topic.override_of("retention.ms").unwrap();
        assert_eq!(
            &text[retention.line.clone()],
            "topic.a.b-c/retention.ms=604800000"
        );
        assert_eq!(read.topic("unknown-min-isr").unwrap().overrides, None);
        let none = crate::properties::parse(
            b"bootstrap=a:1\ntopic.t=internal=false partitions=1 overrides=0\ntopic.old=partitions=1\n",
        )
        .unwrap();
        let read = Snapshot::read(&none).unwrap();
        assert_eq!(read.topic("t").unwrap().overrides, Some(Vec::new()));
        assert_eq!(read.topic("old").unwrap().overrides, None);
        let stray = crate::properties::parse(b"bootstrap=a:1\ntopic.t/retention.ms=1\n").unwrap();
        assert!(
            Snapshot::read(&stray)
                .unwrap_err()
                .contains("topic.t/retention.ms")
        );
    }

    /// A topic's config passes the same hiding as a broker's: a secret-looking value of a
    /// document edited by hand is never shown.
    #[test]
    fn a_secret_looking_topic_config_is_hidden() {
        let text = b"bootstrap=a:1\ntopic.t=partitions=1 overrides=1\ntopic.t/sasl.jaas.config=x password=\"p\";\n";
        let properties = crate::properties::parse(text).unwrap();
        let spans = secret_spans(&properties);
        assert_eq!(spans.len(), 1);
        assert!(String::from_utf8_lossy(&text[spans[0].clone()]).contains("password"));
    }

    #[test]
    fn a_wrong_line_is_named() {
        let properties =
            crate::properties::parse(b"bootstrap=a:1\npartition.x-1=leader=0\n").unwrap();
        let error = Snapshot::read(&properties).unwrap_err();
        assert!(error.contains("partition.x-1"), "{error}");
    }
}
