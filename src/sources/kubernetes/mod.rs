//! Kubernetes manifests, one or many documents per file (what `helm template` prints too):
//! each container of a known Kafka image in a StatefulSet, Deployment, ReplicaSet, DaemonSet
//! or Pod is a node per replica, its settings those the image writes for the environment the
//! container gets. That environment is the kubelet's (`pkg/kubelet/kubelet_pods.go`
//! `makeEnvironmentVariables`, Kubernetes v1.34): `envFrom` first, then `env`, which overrides
//! it, each `value` with its `$(NAME)` references to variables set before it expanded
//! (`third_party/forked/golang/expansion/expand.go`); then the container's start-up script, when
//! it is a shell's (`sh -c '...'`), exports more (see [`crate::sources::kubernetes::shell`]), with the pod's ordinal
//! in `${HOSTNAME##*-}`.

pub mod kustomize;
pub mod one_cluster;
pub mod shell;
pub(crate) mod shell_redact;

use std::collections::BTreeMap;

use crate::properties::Provenance;
use crate::sources::container::{self, Container, EnvVar, MountedFile, edit_of};
use crate::sources::embedded;
use crate::sources::images::components::{self, ComponentImage};
use crate::sources::images::{self, Image, Var};
use crate::sources::yaml::{Node, Scalar};
use crate::sources::{ConfigMap, ConfigMapEntry, Edit, NodeSpec, Orchestrator, Runtime, YamlEntry};

/// The ConfigMaps among `documents` (of the file at `path`). A container of that file points
/// at their entries, one of another file at its own `envFrom` item.
pub fn config_maps(path: &str, documents: &[Node]) -> Vec<ConfigMap> {
    documents
        .iter()
        .filter(|document| kind(document) == Some("ConfigMap"))
        .filter_map(|document| {
            let metadata = document.get("metadata")?;
            Some(ConfigMap {
                namespace: text(metadata, "namespace"),
                name: text(metadata, "name")?,
                path: path.to_string(),
                data: document
                    .get("data")
                    .map(|data| {
                        data.entries()
                            .iter()
                            .filter_map(|(key, value)| {
                                let (key, value) = (key.scalar()?, value.scalar()?);
                                Some(ConfigMapEntry {
                                    key: key.value.clone(),
                                    value: value.value.clone(),
                                    key_span: key.span.clone(),
                                    value_span: value.span.clone(),
                                    edit: edit_of(value, Some(&value.value)).map(|edit| edit.style),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
        })
        .collect()
}

/// Whether a document is a Kubernetes object (`apiVersion` and `kind`).
pub fn is_object(document: &Node) -> bool {
    kind(document).is_some() && document.get("apiVersion").and_then(Node::text).is_some()
}

fn kind(document: &Node) -> Option<&str> {
    document.get("kind").and_then(Node::text).map(str::trim)
}

fn text(node: &Node, key: &str) -> Option<String> {
    node.get(key)
        .and_then(Node::text)
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
}

/// A file of manifests as read: its path, its text and documents, and the ConfigMaps of the
/// files read with it (its own among them).
struct Manifests<'a> {
    path: &'a str,
    text: &'a str,
    documents: &'a [Node],
    config_maps: &'a [ConfigMap],
    /// `[images]` of kafkalint.toml: the team's own images, read as the known ones they name.
    images: &'a images::Aliases,
}

impl Manifests<'_> {
    /// The image a container's `image:` is read as: the known image `[images]` names for it,
    /// else as written.
    fn image_read_as(&self, written: &str) -> String {
        self.images
            .resolve(written)
            .unwrap_or(written.trim())
            .to_string()
    }
}

/// Reads the workloads of a file's documents (`text` parsed): one cluster per namespace, named
/// by the file (and the namespace when the file holds more than one), with notes on what was
/// passed over.
pub fn read(
    path: &str,
    text: &str,
    documents: &[Node],
    config_maps: &[ConfigMap],
    notes: &mut Vec<String>,
) -> Vec<(String, Option<String>, Vec<NodeSpec>)> {
    read_with_images(
        path,
        text,
        documents,
        config_maps,
        &images::Aliases::default(),
        notes,
    )
}

/// [`read`], with the team's own images of `[images]` read as the known images they name.
pub fn read_with_images(
    path: &str,
    text: &str,
    documents: &[Node],
    config_maps: &[ConfigMap],
    images: &images::Aliases,
    notes: &mut Vec<String>,
) -> Vec<(String, Option<String>, Vec<NodeSpec>)> {
    let manifests = Manifests {
        path,
        text,
        documents,
        config_maps,
        images,
    };
    let mut by_namespace: BTreeMap<Option<String>, Vec<NodeSpec>> = BTreeMap::new();
    let mut components: Vec<Component> = Vec::new();
    // Names the brokers answer to: their workloads', their pods', and the Services that select
    // their pods.
    let mut broker_names: Vec<String> = Vec::new();
    let mut broker_labels: Vec<Vec<(String, String)>> = Vec::new();
    for document in documents {
        let Some(kind) = kind(document) else { continue };
        let Some(workload) = Workload::of(kind, document) else {
            continue;
        };
        let nodes = workload.nodes(&manifests, &mut components, notes);
        if !nodes.is_empty() {
            let name = workload.name.value.trim().to_ascii_lowercase();
            broker_names
                .extend((0..workload.replicas.0).map(|ordinal| format!("{name}-{ordinal}")));
            broker_names.push(name);
            broker_labels.push(workload.labels());
            by_namespace
                .entry(workload.namespace.clone())
                .or_default()
                .extend(nodes);
        }
    }
    for service in documents
        .iter()
        .filter(|document| kind(document) == Some("Service"))
    {
        let selector: Vec<(String, String)> = service
            .at(&["spec", "selector"])
            .map(Node::entries)
            .unwrap_or_default()
            .iter()
            .filter_map(|(key, value)| Some((key.text()?.to_string(), value.text()?.to_string())))
            .collect();
        let selects_brokers = !selector.is_empty()
            && broker_labels
                .iter()
                .any(|labels| selector.iter().all(|pair| labels.contains(pair)));
        if selects_brokers
            && let Some(name) = service
                .get("metadata")
                .and_then(|metadata| self::text(metadata, "name"))
        {
            broker_names.push(name.to_ascii_lowercase());
        }
    }
    for component in components {
        let what = component.image.kind().name();
        let label = &component.spec.label;
        if by_namespace.is_empty() {
            notes.push(format!(
                "{label}: a {what}, but the file runs no broker kafkalint reads; its topics are not checked"
            ));
            continue;
        }
        // A component that names no broker of this file talks to another cluster.
        let bootstrap = component
            .spec
            .entries
            .iter()
            .rev()
            .find(|entry| entry.key == component.image.bootstrap_key());
        let named: Vec<String> = bootstrap
            .map(|entry| container::hosts(&entry.value))
            .unwrap_or_default()
            .iter()
            .filter_map(|host| host.split('.').next().map(str::to_string))
            .collect();
        if !named.iter().any(|host| broker_names.contains(host)) {
            notes.push(format!(
                "{label}: a {what} whose {} names no broker workload or Service of this file; its topics are not checked",
                component.image.bootstrap_key()
            ));
            continue;
        }
        by_namespace
            .entry(component.namespace)
            .or_default()
            .push(component.spec);
    }
    let several = by_namespace.len() > 1;
    by_namespace
        .into_iter()
        .map(|(namespace, nodes)| {
            let name = match namespace.as_ref().filter(|_| several) {
                Some(namespace) => format!("{path}: namespace {namespace}"),
                None => path.to_string(),
            };
            (name, namespace, nodes)
        })
        .collect()
}

/// A Connect or Schema Registry container of a workload, before it is known to talk to the
/// file's brokers.
struct Component {
    image: ComponentImage,
    namespace: Option<String>,
    spec: NodeSpec,
}

/// A StatefulSet, Deployment, ReplicaSet, DaemonSet or Pod.
struct Workload<'a> {
    kind: &'a str,
    name: &'a Scalar,
    namespace: Option<String>,
    /// How many pods run it, and whether that is known (a DaemonSet runs one per machine).
    replicas: (usize, bool),
    pod: &'a Node,
    template_labels: Option<&'a Node>,
}

impl<'a> Workload<'a> {
    fn of(kind: &'a str, document: &'a Node) -> Option<Workload<'a>> {
        let spec = document.get("spec")?;
        let pod = match kind {
            "Pod" => spec,
            "StatefulSet" | "Deployment" | "ReplicaSet" | "DaemonSet" => {
                spec.get("template")?.get("spec")?
            }
            _ => return None,
        };
        let metadata = document.get("metadata")?;
        let replicas = match kind {
            "Pod" => (1, true),
            "DaemonSet" => (1, false),
            // Kubernetes runs one when `replicas` is not given.
            _ => match spec.get("replicas").and_then(Node::text) {
                None => (1, true),
                Some(count) => match count.trim().parse::<usize>() {
                    // More pods than a file can stand for one by one: unknown.
                    Ok(count) if count <= 1000 => (count, true),
                    _ => (1, false),
                },
            },
        };
        let template_labels = match kind {
            "Pod" => metadata.get("labels"),
            _ => spec
                .at(&["template", "metadata"])
                .and_then(|metadata| metadata.get("labels")),
        };
        Some(Workload {
            kind,
            name: metadata.get("name")?.scalar()?,
            namespace: text(metadata, "namespace"),
            replicas,
            pod,
            template_labels,
        })
    }

    /// The name of the pod of replica `ordinal`, when it is known: a StatefulSet's pods are
    /// `<name>-<ordinal>`, a Pod is its name; other workloads name theirs at random.
    fn pod_name(&self, ordinal: usize) -> Option<String> {
        match self.kind {
            "StatefulSet" => Some(format!("{}-{ordinal}", self.name.value.trim())),
            "Pod" => Some(self.name.value.trim().to_string()),
            _ => None,
        }
    }

    /// The labels of its pods.
    fn labels(&self) -> Vec<(String, String)> {
        self.template_labels
            .map(Node::entries)
            .unwrap_or_default()
            .iter()
            .filter_map(|(key, value)| Some((key.text()?.to_string(), value.text()?.to_string())))
            .collect()
    }

    fn nodes(
        &self,
        manifests: &Manifests,
        components: &mut Vec<Component>,
        notes: &mut Vec<String>,
    ) -> Vec<NodeSpec> {
        let containers = self
            .pod
            .get("containers")
            .map(Node::items)
            .unwrap_or_default();
        let kafka_containers = containers
            .iter()
            .filter(|container| {
                container
                    .get("image")
                    .and_then(Node::text)
                    .is_some_and(|image| {
                        images::classify(&manifests.image_read_as(image)).is_some()
                    })
            })
            .count();
        let workload_label = format!("{} `{}`", self.kind, self.name.value.trim());
        let mut nodes = Vec::new();
        for container in containers {
            let Some(image_node) = container.get("image").and_then(Node::scalar) else {
                continue;
            };
            let container_name = text(container, "name").unwrap_or_default();
            let label = if kafka_containers > 1 {
                format!("container `{container_name}` of {workload_label}")
            } else {
                workload_label.clone()
            };
            if let Some(image) = components::classify(&image_node.value) {
                let volumes = mount_paths(container);
                if let Some(mounted) = volumes
                    .iter()
                    .find(|target| components::replaces_base_file(image, target))
                {
                    notes.push(format!(
                        "{label}: its {} configuration starts from the mounted `{mounted}`; not read from the environment (check that file)",
                        image.kind().name()
                    ));
                    continue;
                }
                // One component for the workload, however many replicas: they share topics.
                let script = start_script(container, self);
                let environment = self.environment(
                    container,
                    self.pod_name(0).as_deref(),
                    script.as_ref(),
                    manifests,
                );
                let mut spec = container::component(
                    image,
                    image_node,
                    &environment.vars,
                    environment.unread.is_some(),
                    Runtime::Container {
                        image: image_node.value.trim().to_string(),
                        orchestrator: Orchestrator::Kubernetes,
                        host_network: false,
                        volumes,
                    },
                );
                spec.id = format!(
                    "{} {}/{} {container_name}",
                    self.kind,
                    self.namespace.as_deref().unwrap_or_default(),
                    self.name.value.trim()
                );
                spec.label = label.clone();
                spec.declared_at = self.name.span.clone();
                components.push(Component {
                    image,
                    namespace: self.namespace.clone(),
                    spec,
                });
                continue;
            }
            let image_text = manifests.image_read_as(&image_node.value);
            let Some(image) = images::classify(&image_text) else {
                let variables = crate::sources::unknown_image::container_variables(container);
                let mounts = mount_paths(container);
                let image_text = image_node.value.trim();
                if let Some(note) =
                    crate::sources::unknown_image::note(&label, image_text, &variables, &mounts)
                {
                    notes.push(note);
                }
                continue;
            };
            let volumes = mount_paths(container);
            let mounted = match self.mounted_file(container, image, manifests) {
                Some(Ok(file)) => Some(file),
                Some(Err(why)) => {
                    notes.push(format!("{label}: {why}"));
                    continue;
                }
                None => {
                    if let Some(note) = container::mounted_config_note(&label, &volumes, image) {
                        notes.push(note);
                        continue;
                    }
                    None
                }
            };
            let script = start_script(container, self);
            if let Some((script, scalar)) = &script
                && script.first.nested_too_deep
            {
                let line = manifests.text[..scalar.span.start.min(manifests.text.len())]
                    .matches('\n')
                    .count()
                    + 1;
                notes.push(format!(
                    "{label}: its start-up script (line {line}) nests `$((...))` or `${{...}}` deeper than {} levels, which kafkalint does not follow; what it sets there is unknown",
                    shell::MAX_NESTING
                ));
            }
            let may_edit =
                mounted.is_some() && self.may_edit_mounted_file(container, script.as_ref());
            if may_edit {
                notes.push(format!(
                    "{label}: its init containers or command may edit the mounted configuration (per-pod ids, advertised hosts): its node.id, broker.id and advertised.listeners are read as unknown"
                ));
            }
            if script
                .as_ref()
                .is_some_and(|(script, _)| script.first.starts_kafka_itself)
                || runs_kafka_itself(container)
            {
                notes.push(format!(
                    "{label}: its command starts Kafka with a configuration file of its own, not the image's start-up that reads the environment; not read (check that file)"
                ));
                continue;
            }
            // A script that ends in the image's own start-up, with nothing before it that may
            // edit the image's scripts, runs its checks too.
            let own_command = (container.get("command").is_some()
                || container.get("args").is_some())
                && !script
                    .as_ref()
                    .is_some_and(|(script, _)| script.first.runs_image_as_shipped());
            let (count, count_known) = self.replicas;
            let runtime = Runtime::Container {
                image: image_node.value.trim().to_string(),
                orchestrator: Orchestrator::Kubernetes,
                host_network: false,
                volumes,
            };
            for ordinal in 0..count {
                let pod_name = self.pod_name(ordinal);
                let environment =
                    self.environment(container, pod_name.as_deref(), script.as_ref(), manifests);
                // Links the image reads (its KAFKA_ variables), unless the pod turns them off.
                let mut environment = environment;
                let mut links = Vec::new();
                // A variable the start-up script unsets (`unset KAFKA_PORT`) is not the image's.
                let unset_by_script = |name: &str| {
                    script
                        .as_ref()
                        .is_some_and(|(script, _)| script.first.unsets.iter().any(|n| n == name))
                };
                if image == Image::Confluent || image == Image::ConfluentLocal {
                    for (var, service) in self.service_links(manifests) {
                        if environment.get(&var.var.name).is_none()
                            && !unset_by_script(&var.var.name)
                        {
                            links.push((var.var.name.clone(), service));
                            environment.set(var);
                        }
                    }
                }
                let spec = Container {
                    label: label.clone(),
                    links,
                    image,
                    image_node,
                    image_text: image_text.clone(),
                    tag_known: true,
                    env: environment.vars,
                    env_unread: environment.unread.is_some(),
                    unread_source: environment.unread.unwrap_or(""),
                    own_command,
                    runtime: runtime.clone(),
                };
                // Every replica says the same of itself: its notes are said once.
                let mut replica_notes = Vec::new();
                let mounted = mounted.as_ref().map(|file| MountedFile {
                    entries: if may_edit {
                        file.entries
                            .iter()
                            .cloned()
                            .map(unknown_if_per_pod)
                            .collect()
                    } else {
                        file.entries.clone()
                    },
                    env_appended: file.env_appended,
                });
                let line_of = |at: usize| {
                    manifests.text[..at.min(manifests.text.len())]
                        .matches('\n')
                        .count()
                        + 1
                };
                for reference in &environment.set_later {
                    replica_notes.push(format!(
                        "{label}: env {} (line {}) keeps `$({})` as written, unexpanded: Kubernetes expands a reference only to a variable defined earlier in the list, and {} is defined after {}; move {} above it",
                        reference.name,
                        line_of(reference.at),
                        reference.later,
                        reference.later,
                        reference.name,
                        reference.later
                    ));
                }
                let Some(spec) = container::broker(&spec, mounted, &mut replica_notes) else {
                    notes.extend(replica_notes);
                    break;
                };
                if ordinal == 0 {
                    notes.extend(replica_notes);
                }
                nodes.push(NodeSpec {
                    id: format!(
                        "{} {}/{} {container_name} {ordinal}",
                        self.kind,
                        self.namespace.as_deref().unwrap_or_default(),
                        self.name.value.trim()
                    ),
                    declared_at: self.name.span.clone(),
                    label: match (&pod_name, count > 1) {
                        (Some(pod), true) => format!("{label}, pod `{pod}`"),
                        (None, true) => format!("{label} (one of {count} replicas)"),
                        _ => label.clone(),
                    },
                    count_known,
                    ..spec
                });
            }
        }
        nodes
    }

    /// The environment a container of replica `ordinal` (named `pod_name`) starts Kafka with.
    fn environment(
        &self,
        container: &Node,
        pod_name: Option<&str>,
        script: Option<&(Script, &Scalar)>,
        manifests: &Manifests,
    ) -> Environment {
        let Manifests {
            path, config_maps, ..
        } = *manifests;
        let mut environment = Environment::default();
        for source in container
            .get("envFrom")
            .map(Node::items)
            .unwrap_or_default()
        {
            let prefix = text(source, "prefix").unwrap_or_default();
            if let Some(reference) = source.get("configMapRef") {
                let Some(name) = reference.get("name").and_then(Node::scalar) else {
                    continue;
                };
                match self.config_map(config_maps, &name.value) {
                    Some(map) => {
                        for entry in &map.data {
                            // The same file: the entry itself; another: the envFrom item.
                            let (name_span, value_span, edit, provenance) = if map.path == path {
                                (
                                    entry.key_span.clone(),
                                    entry.value_span.clone(),
                                    entry.edit.map(|style| Edit { style }),
                                    Provenance::Written,
                                )
                            } else {
                                (
                                    name.span.clone(),
                                    name.span.clone(),
                                    None,
                                    Provenance::ConfigMap,
                                )
                            };
                            environment.set(EnvVar {
                                var: Var {
                                    name: format!("{prefix}{}", entry.key),
                                    value: Some(entry.value.clone()),
                                },
                                name_span,
                                value_span,
                                edit,
                                provenance,
                            });
                        }
                    }
                    None => environment.unread = Some("a ConfigMap not among the files read"),
                }
            } else if source.get("secretRef").is_some() {
                environment.unread = Some("a Secret");
            }
        }
        let env = container.get("env").map(Node::items).unwrap_or_default();
        for (index, item) in env.iter().enumerate() {
            let Some(name) = item.get("name").and_then(Node::scalar) else {
                continue;
            };
            let (value, value_span, edit) = match (item.get("value"), item.get("valueFrom")) {
                (Some(Node::Scalar(value)), _) => {
                    // A reference to a variable set further down stays as written.
                    let expanded = expand(&value.value, &|name| environment.get(name));
                    let later: Vec<SetLater> =
                        set_later(&value.value, &environment, &env[index + 1..])
                            .map(|later| SetLater {
                                name: name.value.clone(),
                                at: value.span.start,
                                later,
                            })
                            .collect();
                    environment.set_later.extend(later);
                    let edit = edit_of(value, expanded.as_deref());
                    (expanded, value.span.clone(), edit)
                }
                (_, Some(from)) => (
                    self.value_from(from, pod_name, config_maps),
                    name.span.clone(),
                    None,
                ),
                // No value: the empty string.
                _ => (Some(String::new()), name.span.clone(), None),
            };
            environment.set(EnvVar {
                var: Var {
                    name: name.value.clone(),
                    value,
                },
                name_span: name.span.clone(),
                value_span,
                edit,
                provenance: Provenance::Written,
            });
        }
        if let Some((script, scalar)) = script {
            let lookup = |name: &str| match (name, pod_name) {
                // The pod's host name is its name.
                ("HOSTNAME", Some(pod)) => Some(Some(pod.to_string())),
                _ => environment.get(name),
            };
            // A script whose lines are not the file's bytes (an escape, a folded block, text
            // the YAML reader stops at) is hidden whole by redaction: what it sets is not read
            // either, so that no message shows what no snippet may.
            let Some(lines) = embedded::lines(scalar, manifests.text) else {
                environment.unread = Some("its start-up script, which kafkalint does not follow,");
                return environment;
            };
            let outcome = shell::run(&script.text, &lookup);
            let runs_image = outcome.runs_image();
            let unsets = outcome.unsets.clone();
            for (name, value) in outcome.exports {
                // The line that assigns it last, else the script.
                let line = lines
                    .iter()
                    .rev()
                    .find(|(_, line)| {
                        let line = line.trim_start();
                        let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
                        line.strip_prefix(name.as_str())
                            .is_some_and(|rest| rest.starts_with('='))
                    })
                    .map_or(scalar.span.clone(), |(span, _)| span.clone());
                environment.set(EnvVar {
                    var: Var { name, value },
                    name_span: line.clone(),
                    value_span: line,
                    edit: None,
                    provenance: Provenance::Written,
                });
            }
            // What the script unsets, the image's start-up does not get.
            environment
                .vars
                .retain(|var| !unsets.contains(&var.var.name));
            // The variables written before the image's start-up on its own command line are
            // the environment the image's scripts read.
            if runs_image {
                for (name, value) in outcome.command_environment {
                    let line = lines
                        .iter()
                        .rev()
                        .find(|(_, line)| line.contains(&format!("{name}=")))
                        .map_or(scalar.span.clone(), |(span, _)| span.clone());
                    environment.set(EnvVar {
                        var: Var { name, value },
                        name_span: line.clone(),
                        value_span: line,
                        edit: None,
                        provenance: Provenance::Written,
                    });
                }
            }
            if !outcome.followed {
                environment.unread = Some("its start-up script, which kafkalint does not follow,");
            } else if outcome.nested_too_deep {
                environment.unread = Some(
                    "its start-up script, whose expansions nest deeper than kafkalint follows,",
                );
            }
        }
        environment
    }

    /// The configuration file the container's image starts from, when a volume of a ConfigMap
    /// puts it where the image reads one: bitnami/kafka's `/bitnami/kafka/config/`
    /// (`KAFKA_MOUNTED_CONF_DIR`: its environment is then ignored), apache/kafka's
    /// `/mnt/shared/config/` (its KAFKA_ variables are appended to it). `Some(Err(why))` when it
    /// is such a file kafkalint cannot read.
    fn mounted_file(
        &self,
        container: &Node,
        image: Image,
        manifests: &Manifests,
    ) -> Option<Result<MountedFile, String>> {
        let (target, env_appended) = match image {
            Image::Bitnami => ("/bitnami/kafka/config/server.properties", false),
            Image::Apache => ("/mnt/shared/config/server.properties", true),
            _ => return None,
        };
        let volumes = self.pod.get("volumes").map(Node::items).unwrap_or_default();
        for mount in container
            .get("volumeMounts")
            .map(Node::items)
            .unwrap_or_default()
        {
            let (Some(name), Some(mount_path)) = (text(mount, "name"), text(mount, "mountPath"))
            else {
                continue;
            };
            let Some(config_map) = volumes
                .iter()
                .find(|volume| text(volume, "name").as_deref() == Some(name.as_str()))
                .and_then(|volume| volume.get("configMap"))
            else {
                continue;
            };
            // The ConfigMap's keys, as the files the volume holds (`items` renames them).
            let items: Vec<(String, String)> = match config_map.get("items") {
                Some(items) => items
                    .items()
                    .iter()
                    .filter_map(|item| Some((text(item, "key")?, text(item, "path")?)))
                    .collect(),
                None => Vec::new(),
            };
            let file_key = |file: &str| -> Option<String> {
                if config_map.get("items").is_some() {
                    items
                        .iter()
                        .find(|(_, path)| path == file)
                        .map(|(key, _)| key.clone())
                } else {
                    Some(file.to_string())
                }
            };
            let mount_path = mount_path.trim_end_matches('/');
            let key = match text(mount, "subPath") {
                Some(sub_path) if mount_path == target => file_key(&sub_path),
                Some(_) => None,
                None => target
                    .strip_prefix(mount_path)
                    .and_then(|rest| rest.strip_prefix('/'))
                    .and_then(file_key),
            };
            let Some(key) = key else { continue };
            let map_name = text(config_map, "name")?;
            let Some(map) = self.config_map(manifests.config_maps, &map_name) else {
                return Some(Err(format!(
                    "its Kafka configuration is `{key}` of ConfigMap `{map_name}`, which is not among the files read; not checked"
                )));
            };
            let Some(entry) = map.data.iter().find(|entry| entry.key == key) else {
                return Some(Err(format!(
                    "its Kafka configuration would be `{key}` of ConfigMap `{map_name}`, which has no such key; not checked"
                )));
            };
            let entries = if map.path == manifests.path {
                self.same_file_entries(manifests, &map_name, &key)
            } else {
                None
            };
            // A ConfigMap of another file: its text, at the mount.
            let entries = entries.unwrap_or_else(|| {
                let at = mount
                    .get("mountPath")
                    .and_then(Node::scalar)
                    .map_or(0..0, |scalar| scalar.span.clone());
                let (parsed, _) = crate::properties::parse_lenient(entry.value.as_bytes());
                parsed
                    .entries
                    .into_iter()
                    .map(|entry| YamlEntry {
                        key: entry.key,
                        value: entry.value,
                        key_span: at.clone(),
                        value_span: at.clone(),
                        edit: None,
                        provenance: Provenance::ConfigMap,
                    })
                    .collect()
            });
            return Some(Ok(MountedFile {
                entries,
                env_appended,
            }));
        }
        None
    }

    /// The entries of the properties text of ConfigMap `name`'s `key` in the same file, with
    /// their places in it.
    fn same_file_entries(
        &self,
        manifests: &Manifests,
        name: &str,
        key: &str,
    ) -> Option<Vec<YamlEntry>> {
        let document = manifests.documents.iter().find(|document| {
            kind(document) == Some("ConfigMap")
                && document.get("metadata").is_some_and(|metadata| {
                    text(metadata, "name").as_deref() == Some(name)
                        && (text(metadata, "namespace").is_none()
                            || self.namespace.is_none()
                            || text(metadata, "namespace") == self.namespace)
                })
        })?;
        let scalar = document.get("data")?.get(key)?.scalar()?;
        Some(embedded::entries(scalar, manifests.text))
    }

    /// Whether something runs before Kafka that may edit a mounted configuration file: an
    /// init container, or a command of the container's own other than a script kafkalint
    /// follows that names no configuration file and runs no `sed`.
    fn may_edit_mounted_file(&self, container: &Node, script: Option<&(Script, &Scalar)>) -> bool {
        let own_command = container.get("command").is_some() || container.get("args").is_some();
        let edits = |script: &str| {
            [
                "server.properties",
                "sed ",
                "/mnt/shared/config",
                "/bitnami/kafka/config",
            ]
            .iter()
            .any(|sign| script.contains(sign))
        };
        self.pod
            .get("initContainers")
            .is_some_and(|list| !list.items().is_empty())
            || (own_command
                && script.is_none_or(|(script, _)| edits(&script.text) || !script.first.followed))
    }

    /// The variables Kubernetes gives each pod of the workload for the Services of its
    /// namespace in the same file, unless `enableServiceLinks: false`: for a Service with a
    /// cluster IP (not headless, not ExternalName) named `kafka-x`, `KAFKA_X_SERVICE_HOST`,
    /// `KAFKA_X_SERVICE_PORT`, `KAFKA_X_PORT=tcp://IP:PORT` and per port
    /// `KAFKA_X_PORT_<port>_<PROTO>...` (Kubernetes pkg/kubelet/envvars/envvars.go
    /// `FromServices`, v1.34). Only those whose names start with `KAFKA_`, which the Confluent
    /// images read, with the Service's name.
    fn service_links(&self, manifests: &Manifests) -> Vec<(EnvVar, String)> {
        if self
            .pod
            .get("enableServiceLinks")
            .and_then(Node::text)
            .is_some_and(|enabled| enabled.trim() == "false")
        {
            return Vec::new();
        }
        let mut links = Vec::new();
        for service in manifests
            .documents
            .iter()
            .filter(|document| kind(document) == Some("Service"))
        {
            let Some(metadata) = service.get("metadata") else {
                continue;
            };
            let Some(name) = metadata.get("name").and_then(Node::scalar) else {
                continue;
            };
            let namespace = text(metadata, "namespace");
            if namespace.is_some() && self.namespace.is_some() && namespace != self.namespace {
                continue;
            }
            let spec = service.get("spec");
            let cluster_ip = spec.and_then(|spec| text(spec, "clusterIP"));
            let service_type = spec.and_then(|spec| text(spec, "type"));
            if cluster_ip.as_deref() == Some("None")
                || service_type.as_deref() == Some("ExternalName")
            {
                continue;
            }
            let prefix = name.value.trim().to_ascii_uppercase().replace('-', "_");
            if !prefix.starts_with("KAFKA") {
                continue;
            }
            let ports: Vec<(String, String, Option<String>)> = spec
                .and_then(|spec| spec.get("ports"))
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .filter_map(|port| {
                    let number = text(port, "port")?;
                    let protocol = text(port, "protocol").unwrap_or_else(|| "TCP".into());
                    Some((number, protocol, text(port, "name")))
                })
                .collect();
            let Some((first_port, first_protocol, _)) = ports.first() else {
                continue;
            };
            let ip = cluster_ip.clone().unwrap_or_else(|| "CLUSTER_IP".into());
            let link = |var: String, value: Option<String>| EnvVar {
                var: Var { name: var, value },
                name_span: name.span.clone(),
                value_span: name.span.clone(),
                edit: None,
                provenance: Provenance::ServiceLink,
            };
            let mut vars = vec![
                link(format!("{prefix}_SERVICE_HOST"), cluster_ip.clone()),
                link(format!("{prefix}_SERVICE_PORT"), Some(first_port.clone())),
                link(
                    format!("{prefix}_PORT"),
                    Some(format!(
                        "{}://{ip}:{first_port}",
                        first_protocol.to_ascii_lowercase()
                    )),
                ),
            ];
            for (number, protocol, port_name) in &ports {
                if let Some(port_name) = port_name {
                    vars.push(link(
                        format!(
                            "{prefix}_SERVICE_PORT_{}",
                            port_name.to_ascii_uppercase().replace('-', "_")
                        ),
                        Some(number.clone()),
                    ));
                }
                let base = format!("{prefix}_PORT_{number}_{}", protocol.to_ascii_uppercase());
                let url = format!("{}://{ip}:{number}", protocol.to_ascii_lowercase());
                vars.push(link(base.clone(), Some(url)));
                vars.push(link(
                    format!("{base}_PROTO"),
                    Some(protocol.to_ascii_lowercase()),
                ));
                vars.push(link(format!("{base}_PORT"), Some(number.clone())));
                vars.push(link(format!("{base}_ADDR"), cluster_ip.clone()));
            }
            links.extend(
                vars.into_iter()
                    .map(|var| (var, name.value.trim().to_string())),
            );
        }
        links
    }

    fn config_map<'m>(&self, config_maps: &'m [ConfigMap], name: &str) -> Option<&'m ConfigMap> {
        config_maps.iter().find(|map| {
            map.name == name.trim()
                && (map.namespace.is_none()
                    || self.namespace.is_none()
                    || map.namespace == self.namespace)
        })
    }

    /// A `valueFrom`: the pod's name and namespace, or a ConfigMap's entry, when known.
    fn value_from(
        &self,
        from: &Node,
        pod_name: Option<&str>,
        config_maps: &[ConfigMap],
    ) -> Option<String> {
        if let Some(field) = from.get("fieldRef") {
            return match text(field, "fieldPath")?.as_str() {
                "metadata.name" => pod_name.map(str::to_string),
                "metadata.namespace" => self.namespace.clone(),
                _ => None,
            };
        }
        let reference = from.get("configMapKeyRef")?;
        let map = self.config_map(config_maps, &text(reference, "name")?)?;
        let key = text(reference, "key")?;
        map.data
            .iter()
            .find(|entry| entry.key == key)
            .map(|entry| entry.value.clone())
    }
}

/// Where a container's volumes are mounted, without a trailing `/`.
fn mount_paths(container: &Node) -> Vec<String> {
    container
        .get("volumeMounts")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|mount| text(mount, "mountPath"))
        .map(|target| target.trim_end_matches('/').to_string())
        .collect()
}

/// An entry whose value differs per pod when a script stamps it: unknown.
fn unknown_if_per_pod(mut entry: YamlEntry) -> YamlEntry {
    if matches!(
        entry.key.as_str(),
        "node.id" | "broker.id" | "advertised.listeners"
    ) {
        entry.value = format!("${{{}}}", entry.key);
        entry.edit = None;
    }
    entry
}

/// A container's environment as it is built.
#[derive(Default)]
struct Environment {
    vars: Vec<EnvVar>,
    /// What set variables kafkalint cannot see, for notes (`a Secret`).
    unread: Option<&'static str>,
    /// `$(NAME)` references left as written because NAME is set further down the list.
    set_later: Vec<SetLater>,
}

/// An `env` entry's `value` that keeps `$(later)` as written: the kubelet expands a reference
/// only to a variable defined before the entry (`k8s.io/kubernetes` `third_party/forked/golang/
/// expansion`, fed the variables in list order by `kubelet_pods.go` `makeEnvironmentVariables`),
/// and `later` is defined after it.
struct SetLater {
    /// The variable whose value holds the reference.
    name: String,
    /// Where its value starts in the file.
    at: usize,
    later: String,
}

/// The names `value` refers to as `$(NAME)` that are not set yet but are set by one of
/// `following`, the `env` entries after it.
fn set_later<'a>(
    value: &'a str,
    environment: &'a Environment,
    following: &'a [Node],
) -> impl Iterator<Item = String> + 'a {
    let mut seen: Vec<&str> = Vec::new();
    references(value).filter_map(move |name| {
        let later = environment.get(name).is_none()
            && !seen.contains(&name)
            && following
                .iter()
                .any(|item| text(item, "name").as_deref() == Some(name));
        seen.push(name);
        later.then(|| name.to_string())
    })
}

/// The names of the `$(NAME)` references of a value (not those escaped as `$$(NAME)`).
fn references(value: &str) -> impl Iterator<Item = &str> {
    let mut rest = value;
    std::iter::from_fn(move || {
        while let Some(at) = rest.find('$') {
            let after = &rest[at + 1..];
            if let Some(after) = after.strip_prefix('$') {
                rest = after;
            } else if let Some(inner) = after.strip_prefix('(')
                && let Some(end) = inner.find(')')
            {
                rest = &inner[end + 1..];
                return Some(&inner[..end]);
            } else {
                rest = after;
            }
        }
        None
    })
}

impl Environment {
    /// A later variable of a name replaces an earlier one.
    fn set(&mut self, var: EnvVar) {
        self.vars.retain(|old| old.var.name != var.var.name);
        self.vars.push(var);
    }

    fn get(&self, name: &str) -> Option<Option<String>> {
        self.vars
            .iter()
            .find(|var| var.var.name == name)
            .map(|var| var.var.value.clone())
    }
}

/// The kubelet's expansion of a `value`: `$(NAME)` is the value of a variable set before it
/// (left as written when there is none), `$$` is `$`; `None` when a variable it names is set to
/// a value kafkalint does not know.
pub fn expand(value: &str, lookup: &dyn Fn(&str) -> Option<Option<String>>) -> Option<String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(after) = after.strip_prefix('$') {
            out.push('$');
            rest = after;
        } else if let Some(inner) = after.strip_prefix('(')
            && let Some(end) = inner.find(')')
        {
            let name = &inner[..end];
            match lookup(name) {
                Some(value) => out.push_str(&value?),
                None => out.push_str(&rest[at..at + end + 3]),
            }
            rest = &inner[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Some(out)
}

/// A container's start-up script: what a shell's `-c` runs, from `command` and `args`, and
/// what it does for the workload's first pod (whether it is followed, what it runs, does not
/// depend on the pod).
struct Script {
    text: String,
    first: shell::Outcome,
}

/// The script a container runs when its command is a shell's `-c` (`["sh", "-c", "..."]`, or
/// `command: ["/bin/bash", "-c"]` with the script in `args`), with the scalar that holds it.
fn start_script<'a>(container: &'a Node, workload: &Workload) -> Option<(Script, &'a Scalar)> {
    let words: Vec<&Scalar> = ["command", "args"]
        .iter()
        .filter_map(|key| container.get(key))
        .flat_map(|list| list.items().iter().filter_map(Node::scalar))
        .collect();
    let texts: Vec<&str> = words.iter().map(|word| word.value.as_str()).collect();
    let script = words.get(shell::script_word(&texts)?)?;
    let pod = workload.pod_name(0);
    let lookup = |name: &str| match (name, &pod) {
        ("HOSTNAME", Some(pod)) => Some(Some(pod.clone())),
        _ => Some(None),
    };
    Some((
        Script {
            text: script.value.clone(),
            first: shell::run(&script.value, &lookup),
        },
        script,
    ))
}

/// Whether a container's command (not a shell's script) runs `kafka-server-start.sh` itself.
fn runs_kafka_itself(container: &Node) -> bool {
    let first = container
        .get("command")
        .or_else(|| container.get("args"))
        .and_then(|list| list.items().first())
        .and_then(Node::text)
        .unwrap_or_default();
    first.contains("kafka-server-start")
}

#[cfg(test)]
mod tests {
    use super::{expand, references};

    #[test]
    fn references_are_the_unescaped_names() {
        let names: Vec<&str> = references("$(A)x$$(B)$(C)$(D").collect();
        assert_eq!(names, ["A", "C"]);
    }

    #[test]
    fn expands_as_the_kubelet_does() {
        let lookup = |name: &str| match name {
            "POD_NAME" => Some(Some("kafka-0".to_string())),
            "SECRET" => Some(None),
            _ => None,
        };
        let cases = [
            (
                "PLAINTEXT://$(POD_NAME).kafka:9092",
                Some("PLAINTEXT://kafka-0.kafka:9092"),
            ),
            ("$(MISSING)x", Some("$(MISSING)x")),
            ("$$(POD_NAME)", Some("$(POD_NAME)")),
            ("a$b$", Some("a$b$")),
            ("$(POD_NAME", Some("$(POD_NAME")),
            ("$(SECRET)", None),
        ];
        for (value, expected) in cases {
            assert_eq!(expand(value, &lookup).as_deref(), expected, "{value}");
        }
    }
}
