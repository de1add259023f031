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
//! topic.__consumer_offsets=internal=true partitions=50 min.insync.replicas=1
//! partition.__consumer_offsets-49=leader=0 replicas=0 isr=0
//! config.0.static.offsets.topic.replication.factor=3
//! group.testGroup=coordinator=0 state=Stable
//! group.checkout=coordinator=1 state=Stable type=share
//! logdir.0./var/lib/kafka/data=ok
//! logdir.1./mnt/disk2/kafka=KAFKA_STORAGE_ERROR
//! ```
//!
//! Values Kafka marks sensitive (passwords, unknown keys) come back as null and are not
//! written at all.

use std::collections::HashMap;

use crate::properties::{PropertiesFile, Span};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// The address asked first.
    pub bootstrap: String,
    pub cluster_id: Option<String>,
    /// Metadata's controller id: the active controller in ZooKeeper mode; in KRaft, a broker
    /// Kafka picks for clients that ask.
    pub controller: Option<i32>,
    /// The live brokers: those registered and not fenced (Metadata lists no other).
    pub brokers: Vec<Broker>,
    pub topics: Vec<Topic>,
    /// Each broker's settings as it answered DescribeConfigs for its own broker resource.
    pub configs: Vec<ConfigEntry>,
    pub groups: Vec<Group>,
    /// Each broker's log directories as it answered DescribeLogDirs; none for a broker that
    /// was not asked (a saved snapshot of an earlier kafkalint, a refusal, an older broker).
    pub log_dirs: Vec<LogDir>,
    /// Where a line is, once read from the document (empty when built from replies).
    pub bootstrap_line: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broker {
    pub id: i32,
    pub host: String,
    pub port: i32,
    pub rack: Option<String>,
    /// Why its own settings are not known (DescribeConfigs goes to each broker itself).
    pub unreached: Option<String>,
    pub line: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Topic {
    pub name: String,
    pub internal: bool,
    /// Its effective `min.insync.replicas` (its own, else the brokers').
    pub min_insync_replicas: Option<u32>,
    /// How many partitions it has (a saved snapshot may list fewer of them).
    pub partition_count: usize,
    pub partitions: Vec<Partition>,
    pub line: Span,
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
        self.configs
            .iter()
            .filter(|entry| entry.broker == broker && entry.key == key)
            .min_by_key(|entry| entry.source)
    }

    /// `broker`'s value of `key` from one source.
    pub fn from_source(
        &self,
        broker: i32,
        key: &str,
        source: ConfigSource,
    ) -> Option<&ConfigEntry> {
        self.configs
            .iter()
            .find(|entry| entry.broker == broker && entry.key == key && entry.source == source)
    }

    /// Whether `broker` answered for its settings.
    pub fn has_configs(&self, broker: i32) -> bool {
        self.configs.iter().any(|entry| entry.broker == broker)
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
        }
        let mut topics: Vec<&Topic> = self.topics.iter().collect();
        topics.sort_by(|a, b| a.name.cmp(&b.name));
        for topic in &topics {
            let mut value = format!(
                "internal={} partitions={}",
                topic.internal, topic.partition_count
            );
            if let Some(min_isr) = topic.min_insync_replicas {
                value.push_str(&format!(" min.insync.replicas={min_isr}"));
            }
            line(&mut out, &format!("topic.{}", topic.name), &value);
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
                                line: span,
                            });
                        }
                        "rack" | "unreached" => {
                            let at = *broker_at
                                .get(&id)
                                .ok_or_else(|| bad("a broker not listed before"))?;
                            let broker = &mut snapshot.brokers[at];
                            if field == "rack" {
                                broker.rack = Some(value.to_string());
                            } else {
                                broker.unreached = Some(value.to_string());
                            }
                        }
                        _ => return Err(bad("unknown broker field")),
                    }
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
                            .map(|v| v.parse().map_err(|_| bad("min.insync.replicas")))
                            .transpose()?,
                        partition_count: field("partitions")
                            .map(|v| v.parse().map_err(|_| bad("partitions")))
                            .transpose()?
                            .unwrap_or(0),
                        partitions: Vec::new(),
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
                "group" => {
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
                    snapshot.groups.push(Group {
                        id: rest.to_string(),
                        coordinator,
                        state: state.to_string(),
                        group_type,
                        line: span,
                    });
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
                _ => return Err(bad("not a line of a kafkalint live snapshot")),
            }
        }
        if snapshot.bootstrap.is_empty() {
            return Err("no `bootstrap` line: not a kafkalint live snapshot".to_string());
        }
        Ok(snapshot)
    }
}

/// The document `bytes` (a [`Snapshot::render`] text, or a saved one) as a file named `path`,
/// whose secret-looking values output never shows.
pub fn document(path: String, bytes: Vec<u8>) -> crate::source::SourceFile {
    crate::source::SourceFile::written(path, bytes, secret_spans)
}

/// What output hides of a snapshot's document: the value of a broker setting that looks
/// secret or whose key is no known setting (Kafka sends sensitive values as null, never
/// written; this guards a document edited by hand), and every comment but the header.
pub fn secret_spans(properties: &PropertiesFile) -> Vec<Span> {
    use crate::secrets;
    let mut spans: Vec<Span> = Vec::new();
    for entry in &properties.entries {
        let Some(rest) = entry.key.strip_prefix("config.") else {
            continue;
        };
        let key = rest.splitn(3, '.').nth(2).unwrap_or(rest);
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
            controller: Some(1),
            brokers: vec![
                Broker {
                    id: 1,
                    host: "::1".into(),
                    port: 9093,
                    rack: Some("r 1".into()),
                    unreached: Some("cannot connect".into()),
                    line: 0..0,
                },
                Broker {
                    id: 0,
                    host: "127.0.0.1".into(),
                    port: 9092,
                    rack: None,
                    unreached: None,
                    line: 0..0,
                },
            ],
            topics: vec![Topic {
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
                line: 0..0,
            }],
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
        }
    }

    fn without_lines(mut snapshot: Snapshot) -> Snapshot {
        snapshot.bootstrap_line = 0..0;
        snapshot.brokers.sort_by_key(|b| b.id);
        snapshot.brokers.iter_mut().for_each(|b| b.line = 0..0);
        for topic in &mut snapshot.topics {
            topic.line = 0..0;
            topic.partitions.iter_mut().for_each(|p| p.line = 0..0);
        }
        snapshot.configs.iter_mut().for_each(|c| c.line = 0..0);
        snapshot.groups.iter_mut().for_each(|g| g.line = 0..0);
        snapshot.log_dirs.sort_by_key(|d| d.broker);
        snapshot.log_dirs.iter_mut().for_each(|d| d.line = 0..0);
        snapshot
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

    #[test]
    fn a_wrong_line_is_named() {
        let properties =
            crate::properties::parse(b"bootstrap=a:1\npartition.x-1=leader=0\n").unwrap();
        let error = Snapshot::read(&properties).unwrap_err();
        assert!(error.contains("partition.x-1"), "{error}");
    }
}
