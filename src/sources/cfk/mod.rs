//! Confluent for Kubernetes `Kafka` resources (apiVersion `platform.confluent.io/*`): each is a
//! cluster of `spec.replicas` brokers whose `server.properties` is what the operator renders,
//! with `spec.configOverrides.server` (`key=value` strings) over it.
//!
//! The operator is not open source: what it renders by itself (listeners, ids, the quorum or
//! ZooKeeper connection, and whatever defaults it chooses for the keys the overrides leave
//! alone) cannot be read from its code. Keys it must render are set placeholders, and the
//! nodes' other settings may come from it (`settings_elsewhere`): a rule judges only what the
//! overrides write, never a Kafka default the operator may replace.

use crate::properties::Provenance;
use crate::sources::images::{self, Image};
use crate::sources::yaml::{Node, Style};
use crate::sources::{Edit, ImageTag, NamedBy, NodeSpec, Orchestrator, Runtime, YamlEntry};

/// Whether a document is a Confluent for Kubernetes resource.
fn is_cfk(document: &Node) -> bool {
    document
        .get("apiVersion")
        .and_then(Node::text)
        .is_some_and(|version| version.trim().starts_with("platform.confluent.io/"))
}

/// Keys the operator renders for every broker, from the resource's listeners, storage and
/// dependencies.
const RENDERED: &[&str] = &[
    "listeners",
    "advertised.listeners",
    "listener.security.protocol.map",
    "inter.broker.listener.name",
    "log.dirs",
];

/// Reads the `Kafka` resources of a file's documents: one cluster each, named by the file and
/// the resource, with notes on what was passed over.
pub fn read(
    path: &str,
    documents: &[Node],
    notes: &mut Vec<String>,
) -> Vec<(String, Vec<NodeSpec>)> {
    // (name, namespace, nodes) of each resource.
    let mut resources: Vec<(String, Option<String>, Vec<NodeSpec>)> = Vec::new();
    for document in documents.iter().filter(|document| is_cfk(document)) {
        if document.get("kind").and_then(Node::text).map(str::trim) != Some("Kafka") {
            continue;
        }
        let Some(name_node) = document.at(&["metadata", "name"]).and_then(Node::scalar) else {
            continue;
        };
        let name = name_node.value.trim().to_string();
        let Some(spec) = document.get("spec") else {
            continue;
        };
        let label = format!("Confluent Kafka `{name}`");
        let (count, count_known) = match spec.get("replicas").and_then(Node::text) {
            Some(count) => match count.trim().parse::<usize>() {
                Ok(count) if count <= 1000 => (count, true),
                _ => (1, false),
            },
            None => {
                notes.push(format!(
                    "{label}: no spec.replicas; its broker count is unknown"
                ));
                (1, false)
            }
        };
        let kraft = spec
            .get("dependencies")
            .is_some_and(|dependencies| dependencies.get("kRaftController").is_some());
        let image = spec.at(&["image", "application"]).and_then(Node::scalar);
        let image_tag = image.and_then(|image| {
            let (repository, tag) = images::repository(&image.value);
            if images::classify(&repository) != Some(Image::Confluent) {
                return None;
            }
            Some(ImageTag {
                reference: image.value.trim().to_string(),
                span: image.span.clone(),
                release: images::tag_kafka_release(Image::Confluent, tag.as_deref()?)?,
                named_by: NamedBy::ImageTag,
            })
        });
        let overrides = overrides(spec);
        let rendered = |key: &str, value: String| {
            YamlEntry::rendered(key, value, &name_node.span, Provenance::Operator)
        };
        let mut nodes = Vec::new();
        for ordinal in 0..count {
            // The operator gives each broker an id, not known here.
            let mut entries = Vec::new();
            let id_key = if kraft { "node.id" } else { "broker.id" };
            entries.push(rendered(id_key, format!("${{cfk:{id_key}}}")));
            if kraft {
                entries.push(rendered("process.roles", "broker".into()));
                entries.push(rendered(
                    "controller.quorum.voters",
                    "${cfk:controller.quorum.voters}".into(),
                ));
                entries.push(rendered(
                    "controller.listener.names",
                    "${cfk:controller.listener.names}".into(),
                ));
            } else {
                entries.push(rendered(
                    "zookeeper.connect",
                    "${cfk:zookeeper.connect}".into(),
                ));
            }
            for key in RENDERED {
                entries.push(rendered(key, format!("${{cfk:{key}}}")));
            }
            // What the overrides write wins over what the operator renders.
            entries.retain(|entry| !overrides.iter().any(|written| written.key == entry.key));
            entries.extend(overrides.iter().cloned());
            nodes.push(NodeSpec {
                id: format!("cfk {name} {ordinal}"),
                declared_at: name_node.span.clone(),
                label: if count > 1 {
                    format!("{label}, pod `{name}-{ordinal}`")
                } else {
                    label.clone()
                },
                entries,
                count_known,
                image: None,
                image_tag: image_tag.clone(),
                component: None,
                forbidden: Vec::new(),
                ignored_by_release: Vec::new(),
                runtime: Runtime::Container {
                    image: image.map_or("confluentinc/cp-server".into(), |image| {
                        image.value.trim().to_string()
                    }),
                    orchestrator: Orchestrator::Kubernetes,
                    host_network: false,
                    volumes: Vec::new(),
                },
                image_exit: None,
                settings_elsewhere: true,
            });
        }
        let namespace = document
            .at(&["metadata", "namespace"])
            .and_then(Node::text)
            .map(|namespace| namespace.trim().to_string());
        resources.push((name, namespace, nodes));
    }
    // Resources of one name in several namespaces are Confluent's multi-region layout: one
    // cluster stretched over regions, or as many clusters; which, and so how many brokers, the
    // file does not say.
    let mut clusters: Vec<(String, Vec<NodeSpec>)> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (name, _, _) in &resources {
        if seen.contains(name) {
            continue;
        }
        seen.push(name.clone());
        let same: Vec<&(String, Option<String>, Vec<NodeSpec>)> = resources
            .iter()
            .filter(|(other, _, _)| other == name)
            .collect();
        let mut nodes: Vec<NodeSpec> = same
            .iter()
            .flat_map(|(_, _, nodes)| nodes.clone())
            .collect();
        if same.len() > 1 {
            let namespaces: Vec<&str> = same
                .iter()
                .map(|(_, namespace, _)| namespace.as_deref().unwrap_or("(none)"))
                .collect();
            notes.push(format!(
                "Confluent Kafka `{name}` is declared {} times (namespaces {}): read as one cluster whose broker count is unknown (a multi-region cluster stretched over them, or separate clusters)",
                same.len(),
                namespaces.join(", ")
            ));
            for (index, node) in nodes.iter_mut().enumerate() {
                node.count_known = false;
                node.id = format!("{} {index}", node.id);
            }
        }
        clusters.push((format!("{path}: Confluent Kafka {name}"), nodes));
    }
    clusters
}

/// `spec.configOverrides.server`: `key=value` strings, each pointing at its own key and value.
fn overrides(spec: &Node) -> Vec<YamlEntry> {
    let items = spec
        .at(&["configOverrides", "server"])
        .map(Node::items)
        .unwrap_or_default();
    items
        .iter()
        .filter_map(Node::scalar)
        .filter_map(|item| {
            let (key, value) = item.value.split_once('=')?;
            let (key_trimmed, value_trimmed) = (key.trim(), value.trim());
            let (key_span, value_span, edit) = if item.exact {
                let key_start = item.span.start + (key.len() - key.trim_start().len());
                let value_start =
                    item.span.start + key.len() + 1 + (value.len() - value.trim_start().len());
                (
                    key_start..key_start + key_trimmed.len(),
                    value_start..value_start + value_trimmed.len(),
                    (item.style != Style::Block).then_some(Edit { style: item.style }),
                )
            } else {
                (item.span.clone(), item.span.clone(), None)
            };
            Some(YamlEntry {
                key: key_trimmed.to_string(),
                value: value_trimmed.to_string(),
                key_span,
                value_span,
                edit,
                provenance: Provenance::Written,
            })
        })
        .collect()
}
