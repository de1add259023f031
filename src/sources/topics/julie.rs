//! JulieOps topologies, as kafka-ops/julie v4.4.1 reads them
//! (`src/main/java/com/purbon/kafka/topology/serdes/TopologyCustomDeserializer.java` and
//! `TopicCustomDeserializer.java`, `model/Topic.java`, `model/Impl/ProjectImpl.java`).
//!
//! A topology is one YAML document with a `context` and its `projects`, each project holding
//! `topics`. A topic's `config` map is sent as its configuration except `replication.factor`
//! and `num.partitions`, which `Topic` takes as the factor and the partition count of the
//! `NewTopic` (`Topic.getRawConfig` drops them); when absent, `NewTopic` gets no value and the
//! broker's defaults apply (`TopologyBuilderAdminClient.createTopic`).
//!
//! The name, with the default naming (`topology.topic.prefix.format` and
//! `topology.project.prefix.format` = `default`, `topology.topic.prefix.separator` = `.` in
//! `src/main/resources/reference.conf`): the context, each other top-level scalar in file
//! order (`company`, `env`, `source`, ...; `TopologyImpl.addOther`, `ProjectImpl.buildNamePrefix`),
//! the project's name, the topic's name, then its `dataType` when set
//! (`Topic.defaultTopicStructureString`), joined by the separator. Those settings live in
//! JulieOps' own properties (or HOCON) file: when such a file beside the topology sets them,
//! the names are unknown here. `special_topics` keep the name as written (`TopologyImpl.addSpecialTopic`).
//!
//! A topic's `plan` adds the configuration of that plan, from a plans file, to what its
//! `config` lacks (`TopicCustomDeserializer`, `putIfAbsent`): what the topic does not write
//! itself is then unknown. `schemas` register schemas and change neither name nor configuration.

use super::declared::{DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::properties::Span;
use crate::sources::yaml::{self, Node, Scalar};

/// The separator of the default naming (`topology.topic.prefix.separator` in reference.conf).
const SEPARATOR: &str = ".";

/// The top-level keys that take no part in a topic's name (`TopologyCustomDeserializer`,
/// `excludeAttributes`).
const NOT_NAME_PARTS: [&str; 4] = ["projects", "context", "platform", "special_topics"];

/// The keys of a topic's `config` that are no topic configuration (`TopicManager`).
const REPLICATION_FACTOR: &str = "replication.factor";
const NUM_PARTITIONS: &str = "num.partitions";

/// How JulieOps names the topics of a topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
    /// The default naming: `context.<others>.project.topic[.dataType]`.
    Default,
    /// A naming set in JulieOps' properties file (a prefix format or a separator).
    Configured,
}

/// The topics of a JulieOps topology, named by `naming`.
pub fn read(text: &str, naming: Naming) -> TopicFile {
    let mut read = TopicFile::default();
    let documents = match yaml::parse(text) {
        Ok(documents) => documents,
        Err(error) if looks_like_a_topology(text) => {
            // JulieOps refuses it too (Jackson's parser): say why no topic is read.
            read.notes.push(format!(
                "a JulieOps topology that cannot be read (line {}, column {}: {}): its topics are not read",
                error.line, error.column, error.message
            ));
            return read;
        }
        Err(_) => return read,
    };
    let hidden = crate::sources::redact::hidden_spans(text, &documents);
    let mut shown = Vec::new();
    for document in &documents {
        if document.get("context").is_none() || document.get("projects").is_none() {
            continue;
        }
        if naming == Naming::Default {
            shown.extend(name_scalars(document));
        }
        topology(document, naming, &mut read);
        if naming == Naming::Configured {
            read.notes.push(
                "a JulieOps properties file beside the topology sets its topic naming: the names are not checked"
                    .to_string(),
            );
        }
    }
    read.hidden = super::declared::uncover(hidden, &shown);
    read
}

/// Whether `text` starts keys `context` and `projects` at the top of a line, as a topology does.
fn looks_like_a_topology(text: &str) -> bool {
    let top = |key: &str| text.lines().any(|line| line.starts_with(key));
    top("context:") && top("projects:")
}

/// How the topology at `path` names its topics: configured when a `.properties` or `.conf`
/// file in its folder or the folder above sets the naming (JulieOps reads it from the file given as
/// `--clientConfig`, which kafkalint cannot know; one beside the topology is the usual place).
pub fn naming_beside(path: &str) -> Naming {
    let folder = std::path::Path::new(path).parent();
    let folders = folder
        .into_iter()
        .chain(folder.and_then(std::path::Path::parent));
    let configured = folders
        .map(|folder| {
            if folder.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                folder
            }
        })
        .filter_map(|folder| std::fs::read_dir(folder).ok())
        .flat_map(|entries| entries.flatten())
        .filter(|entry| {
            // JulieOps takes its settings as a properties file or as HOCON (`.conf`).
            let path = entry.path();
            path.extension()
                .is_some_and(|ext| ext == "properties" || ext == "conf")
        })
        .filter_map(|entry| {
            let hocon = entry.path().extension().is_some_and(|ext| ext == "conf");
            Some((hocon, std::fs::read_to_string(entry.path()).ok()?))
        })
        .any(|(hocon, text)| sets_naming(&text) || hocon && may_nest_naming(&text));
    if configured {
        Naming::Configured
    } else {
        Naming::Default
    }
}

/// Whether a HOCON file may set the naming in nested blocks (`topology { topic { prefix {
/// format = ... } } }`, as reference.conf writes it): not read further, so any mention counts
/// (names left unknown cost a miss, a wrong name a false alarm).
fn may_nest_naming(text: &str) -> bool {
    text.contains("topology")
        && text.contains("prefix")
        && (text.contains("format") || text.contains("separator"))
}

/// Whether `text` (a properties file, or a HOCON file written flat) sets a naming other than
/// the default one.
pub fn sets_naming(text: &str) -> bool {
    // The keys and their defaults (reference.conf).
    const KEYS: [(&str, &str); 3] = [
        ("topology.topic.prefix.format", "default"),
        ("topology.project.prefix.format", "default"),
        ("topology.topic.prefix.separator", SEPARATOR),
    ];
    text.lines().any(|line| {
        let line = line.trim_start();
        KEYS.iter().any(|(key, default)| {
            let Some(rest) = line.strip_prefix(key).map(str::trim_start) else {
                return false;
            };
            let Some(value) = rest.strip_prefix(['=', ':']) else {
                return false;
            };
            value.trim().trim_matches('"') != *default
        })
    })
}

fn topology(document: &Node, naming: Naming, read: &mut TopicFile) {
    let prefix = topology_prefix(document).filter(|_| naming == Naming::Default);
    for project in document
        .get("projects")
        .map(Node::items)
        .unwrap_or_default()
    {
        let project_prefix = prefix.as_ref().and_then(|prefix| {
            let name = name_part("name", project.get("name")?)?;
            Some(format!("{prefix}{SEPARATOR}{name}{SEPARATOR}"))
        });
        for topic in project.get("topics").map(Node::items).unwrap_or_default() {
            push(read, topic, Name::Prefixed(project_prefix.as_deref()));
        }
    }
    for topic in document
        .get("special_topics")
        .map(Node::items)
        .unwrap_or_default()
    {
        push(read, topic, Name::AsWritten);
    }
}

/// Reads one topic into `read`, with a note for what could not be read of it.
fn push(read: &mut TopicFile, node: &Node, naming: Name) {
    let Some(topic) = declared(node, naming) else {
        read.notes
            .push("a JulieOps topic without a name: not read".to_string());
        return;
    };
    if let Some(plan) = node.get("plan").and_then(Node::scalar) {
        read.notes.push(format!(
            "{}: its plan {} comes from a plans file kafkalint does not read: what the plan sets is not checked",
            topic.shown_name(),
            plan.value
        ));
    }
    read.topics.push(topic);
}

/// `context` and the other top-level scalars in file order, joined: `None` when one of them
/// is no plain text (JulieOps takes a map's or a list's text as empty).
fn topology_prefix(document: &Node) -> Option<String> {
    let mut parts = vec![name_part("context", document.get("context")?)?];
    for (key, value) in document.entries() {
        let key = key.scalar()?;
        if NOT_NAME_PARTS.contains(&key.value.as_str()) {
            continue;
        }
        parts.push(name_part(&key.value, value)?);
    }
    Some(parts.join(SEPARATOR))
}

/// A scalar's text as part of a name; `None` when it is not one kafkalint knows.
fn name_part(key: &str, node: &Node) -> Option<String> {
    name_scalar(key, node).map(|scalar| scalar.value.clone())
}

/// The scalar a name is made of, when kafkalint knows it and may show it: a value under a
/// secret-like key, or one that reads as a credential, makes the name unknown.
fn name_scalar<'a>(key: &str, node: &'a Node) -> Option<&'a Scalar> {
    let scalar = node.scalar().filter(|scalar| !scalar.is_null())?;
    let value = &scalar.value;
    let known = !yaml::is_template(value) && !value.contains("${");
    let showable =
        !crate::secrets::has_secret_word(key) && !crate::secrets::looks_like_credential(value);
    (known && showable).then_some(scalar)
}

/// The scalars the topics' names are made of: output shows them, as the names show them.
fn name_scalars(document: &Node) -> Vec<Span> {
    let entry = |node: &Node, key: &str| {
        node.get(key)
            .and_then(|value| name_scalar(key, value))
            .map(|scalar| scalar.extent.clone())
    };
    let mut shown = Vec::new();
    for (key, value) in document.entries() {
        let Some(key) = key.scalar() else { continue };
        if key.value == "context" || !NOT_NAME_PARTS.contains(&key.value.as_str()) {
            shown.extend(name_scalar(&key.value, value).map(|scalar| scalar.extent.clone()));
        }
    }
    for project in document
        .get("projects")
        .map(Node::items)
        .unwrap_or_default()
    {
        shown.extend(entry(project, "name"));
        for topic in project.get("topics").map(Node::items).unwrap_or_default() {
            shown.extend(entry(topic, "name"));
            shown.extend(entry(topic, "dataType"));
        }
    }
    shown
}

/// How a topic's name is made.
enum Name<'a> {
    /// A project's topic: the project's prefix (`None` when unknown), the name, the `dataType`.
    Prefixed(Option<&'a str>),
    /// A special topic: its name as written.
    AsWritten,
}

fn declared(topic: &Node, naming: Name) -> Option<DeclaredTopic> {
    let (name_key, name_node) = topic.get_entry("name")?;
    let name_scalar = name_node.scalar().filter(|scalar| !scalar.is_null())?;
    let name = full_name(topic, name_scalar, naming);
    let plan = topic
        .get_entry("plan")
        .and_then(|(_, value)| value.scalar());
    let mut topic_configs = configs(topic);
    let mut take = |key: &str| {
        let at = topic_configs
            .iter()
            .rposition(|setting| setting.key == key)?;
        let value = topic_configs.remove(at).value;
        topic_configs.retain(|setting| setting.key != key);
        Some(value)
    };
    let (mut replicas, mut partitions) = (take(REPLICATION_FACTOR), take(NUM_PARTITIONS));
    if let Some(plan) = plan {
        let from_plan = || {
            Some(Written::unknown(
                format!("plan {}", plan.value),
                plan.span.clone(),
            ))
        };
        replicas = replicas.or_else(from_plan);
        partitions = partitions.or_else(from_plan);
        if !topic_configs.iter().any(|s| s.key == "min.insync.replicas") {
            // The plan may set it: what the cluster's default would give is not known.
            topic_configs.push(TopicSetting {
                key: "min.insync.replicas".to_string(),
                key_span: plan.span.clone(),
                value: Written::unknown(format!("plan {}", plan.value), plan.span.clone()),
            });
        }
    }
    Some(DeclaredTopic {
        file: 0,
        form: TopicForm::JulieOps,
        name,
        declared_at: name_key.scalar()?.span.clone(),
        partitions,
        replicas,
        configs: topic_configs,
        cluster: None,
    })
}

/// The name Kafka gets: known only when every part of it is.
fn full_name(topic: &Node, name: &Scalar, naming: Name) -> Written {
    let written = Written::from_scalar(name);
    let prefix = match naming {
        Name::AsWritten => return written,
        Name::Prefixed(prefix) => prefix,
    };
    let data_type = match topic.get("dataType") {
        None => Some(String::new()),
        Some(node) => {
            name_part("dataType", node).map(|data_type| format!("{SEPARATOR}{data_type}"))
        }
    };
    match (prefix, data_type, written.known) {
        (Some(prefix), Some(data_type), true) => Written {
            text: format!("{prefix}{}{data_type}", written.text),
            span: written.span,
            known: true,
            literal: false,
        },
        _ => Written::unknown(written.text, written.span),
    }
}

/// The topic's `config` entries, in file order.
fn configs(topic: &Node) -> Vec<TopicSetting> {
    topic
        .get("config")
        .map(Node::entries)
        .unwrap_or_default()
        .iter()
        .filter_map(|(key, value)| {
            let key = key.scalar()?;
            let value = value.scalar().filter(|scalar| !scalar.is_null())?;
            Some(TopicSetting {
                key: key.value.clone(),
                key_span: key.span.clone(),
                value: Written::from_scalar(value),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // The shape of JulieOps' own example (example/descriptor.yaml at v4.4.1), cut short.
    const TOPOLOGY: &str = r#"---
context: "context"
company: "company"
env: "env"
source: "source"
projects:
  - name: "projectA"
    consumers:
      - principal: "User:App0"
    topics:
      - name: "foo"
        config:
          replication.factor: "1"
          num.partitions: "1"
      - name: "bar"
        dataType: "avro"
        config:
          replication.factor: "3"
          retention.ms: "604800000"
  - name: "projectB"
    topics:
      - name: "baz"
platform:
  schema_registry:
    instances:
      - principal: "User:SchemaRegistry01"
"#;

    fn names(read: &TopicFile) -> Vec<&str> {
        read.topics.iter().map(|t| t.name.text.as_str()).collect()
    }

    #[test]
    fn names_topics_as_the_default_naming_does() {
        let read = read(TOPOLOGY, Naming::Default);
        assert_eq!(
            names(&read),
            [
                "context.company.env.source.projectA.foo",
                "context.company.env.source.projectA.bar.avro",
                "context.company.env.source.projectB.baz",
            ]
        );
        assert!(read.topics.iter().all(|t| t.name.known && !t.name.literal));
        assert_eq!(&TOPOLOGY[read.topics[0].name.span.clone()], "foo");
    }

    #[test]
    fn factor_and_partitions_come_from_config_and_are_no_topic_configs() {
        let read = read(TOPOLOGY, Naming::Default);
        let (foo, bar, baz) = (&read.topics[0], &read.topics[1], &read.topics[2]);
        let replicas = foo.replicas.as_ref().unwrap();
        assert_eq!(&TOPOLOGY[replicas.span.clone()], "1");
        assert!(replicas.literal);
        assert_eq!(foo.partitions.as_ref().unwrap().text, "1");
        assert!(foo.configs.is_empty());
        assert_eq!(bar.replicas.as_ref().unwrap().text, "3");
        assert_eq!(bar.partitions, None);
        let keys: Vec<&str> = bar.configs.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["retention.ms"]);
        assert_eq!((&baz.replicas, &baz.partitions), (&None, &None));
    }

    #[test]
    fn a_naming_set_elsewhere_leaves_names_unknown_but_values_read() {
        let read = read(TOPOLOGY, Naming::Configured);
        assert!(read.topics.iter().all(|t| !t.name.known));
        assert_eq!(read.topics[0].replicas.as_ref().unwrap().text, "1");
        assert_eq!(read.notes.len(), 1);
    }

    #[test]
    fn a_plan_leaves_what_the_topic_does_not_write_unknown() {
        let text = "context: c\nprojects:\n  - name: p\n    topics:\n      - name: t\n        plan: gold\n        config:\n          num.partitions: 3\n";
        let read = read(text, Naming::Default);
        let topic = &read.topics[0];
        assert!(!topic.replicas.as_ref().unwrap().known);
        assert_eq!(topic.partitions.as_ref().unwrap().text, "3");
        assert!(!topic.config("min.insync.replicas").unwrap().value.known);
        assert_eq!(read.notes.len(), 1, "{:?}", read.notes);
    }

    #[test]
    fn a_topology_that_is_no_yaml_says_so() {
        // A stray word under `config` (a committed topology, gft-nine/kafka-draft topic.yaml).
        let text = "context: c\nprojects:\n  - name: p\n    topics:\n      - name: t\n        config:\n          num.partitions: \"3\"\n          cc\n";
        let read = read(text, Naming::Default);
        assert!(read.topics.is_empty());
        assert_eq!(read.notes.len(), 1, "{:?}", read.notes);
        assert!(read.notes[0].starts_with("a JulieOps topology that cannot be read (line "));
    }

    #[test]
    fn a_name_part_under_a_secret_like_key_leaves_the_name_unknown_and_hidden() {
        let text = TOPOLOGY.replace("env: \"env\"", "token: \"s3cr3t\"");
        let read = read(&text, Naming::Default);
        assert!(read.topics.iter().all(|t| !t.name.known));
        let at = text.find("s3cr3t").unwrap();
        assert!(read.hidden.iter().any(|span| span.contains(&at)));
    }

    #[test]
    fn the_parts_of_a_name_are_shown_as_the_name_shows_them() {
        let read = read(TOPOLOGY, Naming::Default);
        let at = TOPOLOGY.find("\"avro\"").unwrap() + 1;
        assert!(read.hidden.iter().all(|span| !span.contains(&at)));
    }

    #[test]
    fn special_topics_keep_their_names() {
        let text = "context: c\nprojects: []\nspecial_topics:\n  - name: _confluent-metrics\n    config:\n      replication.factor: 1\n";
        let read = read(text, Naming::Default);
        assert_eq!(names(&read), ["_confluent-metrics"]);
        assert!(read.topics[0].name.literal);
    }

    #[test]
    fn a_file_without_context_is_no_topology() {
        assert!(
            read(&TOPOLOGY.replace("context:", "other:"), Naming::Default)
                .topics
                .is_empty()
        );
    }

    #[test]
    fn only_a_naming_other_than_the_default_counts() {
        assert!(sets_naming(
            "topology.topic.prefix.format={{context}}-{{topic}}\n"
        ));
        assert!(sets_naming("topology.topic.prefix.separator = -\n"));
        assert!(!sets_naming("topology.topic.prefix.format=default\n"));
        assert!(!sets_naming("bootstrap.servers=localhost:9092\n"));
        assert!(!sets_naming(
            "topology.project.prefix.format = \"default\"\n"
        ));
    }

    #[test]
    fn a_properties_file_beside_the_topology_sets_the_naming() {
        let folder = std::env::temp_dir().join(format!("julie-naming-{}", std::process::id()));
        let topologies = folder.join("topologies");
        std::fs::create_dir_all(&topologies).unwrap();
        let topology = topologies.join("topology.yaml");
        let path = topology.to_string_lossy().to_string();
        assert_eq!(naming_beside(&path), Naming::Default);
        let properties = "topology.topic.prefix.format={{context}}-{{topic}}\n\
                          topology.project.prefix.format={{context}}\n";
        std::fs::write(
            topologies.join("julie.conf"),
            "bootstrap.servers = \"kafka:9092\"\n",
        )
        .unwrap();
        assert_eq!(naming_beside(&path), Naming::Default);
        std::fs::write(
            topologies.join("julie.conf"),
            "topology {\n  topic {\n    prefix {\n      separator = \"_\"\n    }\n  }\n}\n",
        )
        .unwrap();
        let in_conf = naming_beside(&path);
        std::fs::remove_file(topologies.join("julie.conf")).unwrap();
        std::fs::write(folder.join("julie.properties"), properties).unwrap();
        let naming = naming_beside(&path);
        std::fs::remove_dir_all(&folder).unwrap();
        assert_eq!((in_conf, naming), (Naming::Configured, Naming::Configured));
    }
}
