//! The `KAFKA_CREATE_TOPICS` variable of the images whose start-up code reads it, in a compose
//! service's `environment:` (map or list) or a Kubernetes container's `env`.
//!
//! Only wurstmeister/kafka reads it (wurstmeister/kafka-docker `create-topics.sh`, master at
//! 901c084, the same format since tag 1.1.0; started in the background by `start-kafka.sh`):
//! the value is split on `KAFKA_CREATE_TOPICS_SEPARATOR` (default `,`), each entry on `:` into
//! `name:partitions:replicas[:cleanup.policy]`, and each becomes
//! `kafka-topics.sh --create --topic NAME --partitions P --replication-factor R
//! [--config=cleanup.policy=POLICY] --if-not-exists`, run through `eval` (so blanks around a
//! field vanish). An entry without partitions or replicas leaves `kafka-topics.sh` an option
//! without its value: it refuses, the topic is not created.
//!
//! Other images do not read it: bitnami/kafka's start-up code (bitnami/containers
//! `bitnami/kafka/*/debian-12/rootfs/opt/bitnami/scripts/kafka-env.sh`, `libkafka.sh`) maps only
//! `KAFKA_CFG_*`; apache/kafka and confluentinc/cp-kafka turn it into an unknown broker key
//! `create.topics`. There it creates nothing, and kafkalint says so.

use super::declared::{DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::properties::Span;
use crate::sources::images::{self, Image};
use crate::sources::yaml::{self, Node, Scalar};

/// The variable, and the one that changes its separator.
const VARIABLE: &str = "KAFKA_CREATE_TOPICS";
const SEPARATOR_VARIABLE: &str = "KAFKA_CREATE_TOPICS_SEPARATOR";

/// The topics the `KAFKA_CREATE_TOPICS` variables of a YAML text create.
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let Ok(documents) = yaml::parse(text) else {
        return read;
    };
    read.hidden = crate::sources::redact::hidden_spans(text, &documents);
    let mut containers = Vec::new();
    for document in &documents {
        compose_services(document, &mut containers);
        kubernetes_containers(document, &mut containers);
    }
    for container in &containers {
        container.topics(&mut read);
    }
    // Every broker of a compose file often carries the same variable: each runs the same
    // `--if-not-exists` creation, so one topic is declared once.
    let mut seen = Vec::new();
    read.topics.retain(|topic| {
        let key = identity(topic);
        let new = !seen.contains(&key);
        seen.push(key);
        new
    });
    read
}

fn identity(topic: &DeclaredTopic) -> Vec<Option<String>> {
    let text = |written: &Option<Written>| written.as_ref().map(|written| written.text.clone());
    vec![
        Some(topic.name.text.clone()),
        text(&topic.partitions),
        text(&topic.replicas),
        topic.config("cleanup.policy").map(|s| s.value.text.clone()),
    ]
}

/// How a variable's value is substituted before the container sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Substitution {
    /// Compose interpolation: `${VAR}` and `$VAR`, `$$` for a `$`.
    Compose,
    /// Kubernetes dependent variables: `$(VAR)`.
    Kubernetes,
}

/// One variable as written: its value's scalar, and where in the scalar's value it starts
/// (after `NAME=` in a compose list).
struct Variable<'a> {
    name: &'a str,
    scalar: &'a Scalar,
    offset: usize,
}

impl Variable<'_> {
    fn value(&self) -> &str {
        &self.scalar.value[self.offset..]
    }

    /// The file span of `range` of the value, when the scalar holds it byte for byte.
    fn span(&self, range: std::ops::Range<usize>) -> Option<Span> {
        self.scalar.exact.then(|| {
            let start = self.scalar.span.start + self.offset;
            start + range.start..start + range.end
        })
    }
}

/// A container (a compose service, a Kubernetes container) with its image and environment.
struct Container<'a> {
    what: String,
    image: Option<&'a str>,
    variables: Vec<Variable<'a>>,
    substitution: Substitution,
}

fn compose_services<'a>(document: &'a Node, out: &mut Vec<Container<'a>>) {
    let Some(services) = document.get("services") else {
        return;
    };
    for (name, service) in services.entries() {
        let mut variables = Vec::new();
        match service.get("environment") {
            Some(Node::Seq(items)) => {
                for scalar in items.iter().filter_map(Node::scalar) {
                    if let Some((name, _)) = scalar.value.split_once('=') {
                        variables.push(Variable {
                            name: name.trim(),
                            scalar,
                            offset: name.len() + 1,
                        });
                    }
                }
            }
            Some(map) => {
                for (key, value) in map.entries() {
                    if let (Some(key), Some(scalar)) = (key.text(), value.scalar()) {
                        variables.push(Variable {
                            name: key,
                            scalar,
                            offset: 0,
                        });
                    }
                }
            }
            None => {}
        }
        out.push(Container {
            what: format!("service `{}`", name.text().unwrap_or("?")),
            image: service.get("image").and_then(Node::text),
            variables,
            substitution: Substitution::Compose,
        });
    }
}

/// Every `containers`/`initContainers` entry of a Kubernetes document, at any depth (a Pod, a
/// workload's template, a CronJob's job template).
fn kubernetes_containers<'a>(node: &'a Node, out: &mut Vec<Container<'a>>) {
    for (key, value) in node.entries() {
        if matches!(key.text(), Some("containers" | "initContainers")) {
            for container in value.items() {
                out.push(kubernetes_container(container));
            }
        } else {
            kubernetes_containers(value, out);
        }
    }
    for item in node.items() {
        kubernetes_containers(item, out);
    }
}

fn kubernetes_container(container: &Node) -> Container<'_> {
    let variables = container
        .get("env")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|variable| {
            Some(Variable {
                name: variable.get("name")?.text()?,
                scalar: variable.get("value")?.scalar()?,
                offset: 0,
            })
        })
        .collect();
    Container {
        what: format!(
            "container `{}`",
            container.get("name").and_then(Node::text).unwrap_or("?")
        ),
        image: container.get("image").and_then(Node::text),
        variables,
        substitution: Substitution::Kubernetes,
    }
}

impl Container<'_> {
    fn variable(&self, name: &str) -> Option<&Variable<'_>> {
        self.variables.iter().rev().find(|v| v.name == name)
    }

    fn topics(&self, read: &mut TopicFile) {
        let Some(variable) = self.variable(VARIABLE) else {
            return;
        };
        if variable.value().trim().is_empty() {
            return;
        }
        let image = self.image.unwrap_or("");
        if images::classify(image) != Some(Image::Wurstmeister) {
            let why = match images::classify(image) {
                Some(known) => format!("{}'s start-up code never reads it", known.name()),
                None if image.is_empty() => "it names no image".to_string(),
                None => format!("`{image}` is no image kafkalint knows to read it"),
            };
            read.notes.push(format!(
                "{VARIABLE} of {} creates no topic kafkalint reads ({why}; only wurstmeister/kafka's \
                 create-topics.sh reads it)",
                self.what
            ));
            return;
        }
        if self.substituted(variable.value()) {
            read.notes.push(format!(
                "{VARIABLE} of {} is substituted when the container starts: its topics are not read",
                self.what
            ));
            return;
        }
        let Some(separators) = self.separators() else {
            read.notes.push(format!(
                "{SEPARATOR_VARIABLE} of {} is substituted when the container starts: its topics \
                 are not read",
                self.what
            ));
            return;
        };
        for (range, entry) in split(variable.value(), &separators) {
            match topic(variable, range.start, entry) {
                Ok(topic) => read.topics.push(topic),
                Err(missing) => read.notes.push(format!(
                    "{VARIABLE} entry `{}` of {} has no {missing}: kafka-topics.sh refuses it, \
                     the topic is not created",
                    entry.trim(),
                    self.what
                )),
            }
        }
    }

    /// Whether `value` holds a variable reference the runtime replaces.
    fn substituted(&self, value: &str) -> bool {
        match self.substitution {
            Substitution::Compose => value.replace("$$", "").contains('$'),
            Substitution::Kubernetes => value.contains("$("),
        }
    }

    /// The characters that separate entries: `,`, or every character of
    /// `KAFKA_CREATE_TOPICS_SEPARATOR` (the script assigns it to bash's `IFS`, a set of
    /// characters: the README's `"$$'\n'"` gives `$`, `'` and a newline); `None` when it is
    /// substituted at start.
    fn separators(&self) -> Option<Vec<char>> {
        let Some(variable) = self.variable(SEPARATOR_VARIABLE) else {
            return Some(vec![',']);
        };
        let value = variable.value();
        if self.substituted(value) {
            return None;
        }
        let unescaped = match self.substitution {
            Substitution::Compose => value.replace("$$", "$"),
            Substitution::Kubernetes => value.to_string(),
        };
        Some(unescaped.chars().collect())
    }
}

/// The non-empty entries of `value` split on any of `separators` (none: one entry, as an
/// empty `IFS` leaves the value whole), with their byte ranges.
fn split<'a>(value: &'a str, separators: &[char]) -> Vec<(std::ops::Range<usize>, &'a str)> {
    let mut entries = Vec::new();
    let mut start = 0;
    let pieces: Vec<&str> = if separators.is_empty() {
        vec![value]
    } else {
        value.split(separators).collect()
    };
    for piece in pieces {
        if !piece.trim().is_empty() {
            entries.push((start..start + piece.len(), piece));
        }
        // Each separator is one character; find its width in the value.
        let next = start + piece.len();
        start = next + value[next..].chars().next().map_or(0, char::len_utf8);
    }
    entries
}

/// The topic of one `name:partitions:replicas[:policy]` entry starting at `start` of the
/// variable's value, or the field it lacks.
fn topic(variable: &Variable, start: usize, entry: &str) -> Result<DeclaredTopic, &'static str> {
    let mut fields = Vec::new();
    let mut at = start;
    for field in entry.split(':') {
        let trimmed = field.trim();
        let lead = field.len() - field.trim_start().len();
        fields.push((at + lead..at + lead + trimmed.len(), trimmed));
        at += field.len() + 1;
    }
    let written = |index: usize| -> Option<Written> {
        let (range, text) = fields.get(index).filter(|(_, text)| !text.is_empty())?;
        Some(match variable.span(range.clone()) {
            Some(span) => Written::literal(*text, span),
            None => Written {
                text: text.to_string(),
                span: variable.scalar.span.clone(),
                known: true,
                literal: false,
            },
        })
    };
    let name = written(0).ok_or("name")?;
    let partitions = written(1).ok_or("partition count")?;
    let replicas = written(2).ok_or("replication factor")?;
    let configs = written(3)
        .map(|policy| TopicSetting {
            key: "cleanup.policy".to_string(),
            key_span: policy.span.clone(),
            value: policy,
        })
        .into_iter()
        .collect();
    let trimmed = entry.trim();
    let lead = entry.len() - entry.trim_start().len();
    let declared_at = variable
        .span(start + lead..start + lead + trimmed.len())
        .unwrap_or_else(|| variable.scalar.span.clone());
    Ok(DeclaredTopic {
        file: 0,
        form: TopicForm::CreateTopicsVariable,
        name,
        declared_at,
        partitions: Some(partitions),
        replicas: Some(replicas),
        configs,
        cluster: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, written: &Written) -> &'a str {
        &text[written.span.clone()]
    }

    #[test]
    fn reads_the_wurstmeister_compose_map_form_with_exact_spans() {
        // As committed: blanks after the comma, a compacted entry.
        let text = "services:\n  kafka:\n    image: wurstmeister/kafka:2.11-1.1.0\n    \
                    environment:\n      KAFKA_CREATE_TOPICS: \"create-user:1:1, find-all-user:3:2:compact\"\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 2, "{:?}", read.notes);
        let second = &read.topics[1];
        assert_eq!(at(text, &second.name), "find-all-user");
        assert_eq!(at(text, second.partitions.as_ref().unwrap()), "3");
        assert_eq!(at(text, second.replicas.as_ref().unwrap()), "2");
        let policy = second.config("cleanup.policy").unwrap();
        assert_eq!(at(text, &policy.value), "compact");
        assert_eq!(
            &text[second.declared_at.clone()],
            "find-all-user:3:2:compact"
        );
        assert!(second.replicas.as_ref().unwrap().literal);
    }

    #[test]
    fn reads_the_list_form_and_a_kubernetes_container() {
        let compose = "services:\n  kafka:\n    image: wurstmeister/kafka\n    environment:\n      \
                       - KAFKA_CREATE_TOPICS=events:6:3\n";
        let read_compose = read(compose);
        assert_eq!(
            at(compose, read_compose.topics[0].replicas.as_ref().unwrap()),
            "3"
        );
        assert_eq!(at(compose, &read_compose.topics[0].name), "events");
        let pod = "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: kafka\n      \
                   image: wurstmeister/kafka:2.13-2.8.1\n      env:\n        - name: KAFKA_CREATE_TOPICS\n          \
                   value: \"simple.topic:1:1\"\n";
        let read_pod = read(pod);
        assert_eq!(at(pod, &read_pod.topics[0].name), "simple.topic");
    }

    #[test]
    fn another_image_creates_nothing_and_says_so() {
        let text = "services:\n  kafka:\n    image: bitnami/kafka:3.7\n    environment:\n      \
                    KAFKA_CREATE_TOPICS: \"orders:3:3\"\n";
        let read = read(text);
        assert!(read.topics.is_empty());
        assert!(read.notes[0].contains("bitnami/kafka's start-up code never reads it"));
    }

    #[test]
    fn an_entry_without_replicas_interpolation_and_separators() {
        let text = "services:\n  kafka:\n    image: wurstmeister/kafka\n    environment:\n      \
                    KAFKA_CREATE_TOPICS: \"orders:3\"\n";
        let read_short = read(text);
        assert!(read_short.topics.is_empty());
        assert!(read_short.notes[0].contains("has no replication factor"));
        let interpolated = text.replace("orders:3", "${TOPICS}");
        assert!(read(&interpolated).notes[0].contains("substituted"));
        let newline = "services:\n  kafka:\n    image: wurstmeister/kafka\n    environment:\n      \
                       KAFKA_CREATE_TOPICS_SEPARATOR: \"$$'\\n'\"\n      KAFKA_CREATE_TOPICS: |\n        \
                       a:1:1\n        b:2:1\n";
        let read_lines = read(newline);
        let names: Vec<&str> = read_lines
            .topics
            .iter()
            .map(|t| t.name.text.as_str())
            .collect();
        assert_eq!(names, ["a", "b"]);
        assert!(!read_lines.topics[0].name.literal);
    }

    #[test]
    fn brokers_repeating_the_variable_declare_each_topic_once() {
        let broker = |n: u8| {
            format!(
                "  kafka{n}:\n    image: wurstmeister/kafka\n    environment:\n      \
                 KAFKA_CREATE_TOPICS: \"orders:3:1\"\n"
            )
        };
        let text = format!("services:\n{}{}", broker(1), broker(2));
        assert_eq!(read(&text).topics.len(), 1);
    }
}
