//! Kafka settings kept in YAML: docker-compose services and Kubernetes workloads running a
//! Kafka image, and Strimzi `Kafka` resources. A YAML file is one [`SourceFile`]; each node (or component) read from it
//! is one of its parts, whose settings are those Kafka will get, with the spans of the YAML
//! scalars they come from, so that every rule applies unchanged and points at the YAML.

pub mod ansible;
pub mod cfk;
pub mod compose;
mod container;
pub mod embedded;
mod found;
pub mod helm;
pub mod images;
pub mod kubernetes;
pub mod not_checked;
mod redact;
mod spec;
pub mod strimzi;
pub mod terraform;
pub mod topics;
pub mod unknown_image;
pub mod unreadable;
pub mod yaml;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::properties::{Entry, PropertiesFile, Span};
use crate::source::SourceFile;
pub use crate::yaml_view::{
    ComponentService, ConfigMap, ConfigMapEntry, Forbidden, ImageExit, ImageTag, MirrorFlow,
    NamedBy, Orchestrator, Runtime, Style, YamlFile, YamlPart, YamlView,
};
pub use found::{Form, Found, FoundCluster};
pub use spec::{Edit, NodeSpec, YamlEntry};
pub use yaml::is_yaml_name;

/// Why a Helm (Go) template is not read as it stands.
const TEMPLATE: &str = "a Helm or Go template (`{{ ... }}`), which holds its values only once rendered: check what `helm template` prints (`helm template NAME CHART | kafkalint check --stdin-filename rendered.yaml -`)";

use yaml::is_template;

/// Whether a document's values hold a Helm or Go template's `{{ ... }}`.
fn holds_template(node: &yaml::Node) -> bool {
    match node {
        yaml::Node::Scalar(scalar) => is_template(&scalar.value),
        yaml::Node::Seq(items) => items.iter().any(holds_template),
        yaml::Node::Map(entries) => entries
            .iter()
            .any(|(key, value)| holds_template(key) || holds_template(value)),
    }
}

/// A relative path with its `.` parts dropped and each `..` taking away the part before it.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut parts: Vec<std::path::Component> = Vec::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir
                if matches!(parts.last(), Some(std::path::Component::Normal(_))) =>
            {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.iter().collect()
}

/// A file name the deployment readers read: YAML, Terraform, or an Ansible template of a
/// `.properties` file.
pub fn is_deployment_name(name: &str) -> bool {
    is_yaml_name(name)
        || terraform::is_terraform_name(name)
        || name.to_ascii_lowercase().ends_with(".properties.j2")
}

/// Whether a walked YAML or Terraform file (at `path`) may hold Kafka settings: a compose file, a Strimzi
/// resource, Kubernetes objects that may run a Kafka image or hold its environment (a
/// ConfigMap), or a Helm chart's values. Cheap, on the name and the bytes: the reader decides.
pub fn worth_reading(path: &str, bytes: &[u8]) -> bool {
    if terraform::is_terraform_name(path) {
        return terraform::worth_reading(bytes);
    }
    if ansible::role::is_compose_template(Path::new(path)) {
        let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
        return has(b"services:") && (has(b"kafka") || has(b"KAFKA"));
    }
    if path.to_ascii_lowercase().ends_with(".j2")
        || ansible::role::is_role_properties(Path::new(path))
    {
        return ansible::role::is_role_template(path) && ansible::role::worth_reading(bytes);
    }
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    let kafka = || has(b"kafka") || has(b"KAFKA");
    let name = Path::new(path)
        .file_name()
        .map(|name| name.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    has(b"kafka.strimzi.io")
        || has(b"platform.confluent.io")
        || has(b"kafka_broker")
        || (has(b"services:") && kafka())
        || (has(b"apiVersion") && has(b"kind") && kafka())
        || ((has(b"replicaCount") || has(b"bitnami")) && kafka())
        || (name.contains("values") && (name.contains("kafka") || kafka()))
        // Helm values whose path names Kafka (`helm/kafka/values.yaml`, `values/kafka.yaml`)
        // need not say "kafka" themselves.
        || {
            let path = path.to_ascii_lowercase();
            path.contains("values") && path.contains("kafka")
        }
}

/// What the files beside those read add to them (node pools and ConfigMaps), and what the
/// config file states of them.
#[derive(Debug, Default, Clone)]
pub struct Beside {
    pub pools: Vec<strimzi::Pool>,
    pub config_maps: Vec<ConfigMap>,
    pub stated: Stated,
    /// Strimzi `Kafka`s of other folders of the walk that the `KafkaConnect`s and
    /// `KafkaMirrorMaker2`s of these files name, when none of these files holds one they name.
    pub kafkas_elsewhere: Vec<strimzi::KafkaName>,
}

/// The `.properties` files the compose files among `files` bind-mount into their services'
/// containers (see [`compose::mounts`]). Files that cannot be parsed give nothing.
pub fn compose_mounts(files: &[(String, Vec<u8>)]) -> Vec<compose::mounts::MountedProperties> {
    let mut mounted = Vec::new();
    for (path, bytes) in files {
        let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
        if !(has(b"services") && has(b".properties")) {
            continue;
        }
        let Ok(text) = std::str::from_utf8(bytes) else {
            continue;
        };
        if let Ok(documents) = yaml::parse(text.strip_prefix('\u{feff}').unwrap_or(text))
            && let Some(first) = documents.first()
        {
            mounted.extend(compose::mounts::mounted_properties(path, first));
        }
    }
    mounted
}

/// What ties the Strimzi resources of `files` to each other across folders: the `Kafka`s they
/// hold, and the bootstrap addresses their `KafkaConnect`s and `KafkaMirrorMaker2`s name.
/// Files that cannot be parsed give nothing (reading them says why).
pub fn strimzi_ties(files: &[(String, Vec<u8>)]) -> (Vec<strimzi::KafkaName>, Vec<String>) {
    let mut kafkas = Vec::new();
    let mut addresses = Vec::new();
    for (_, bytes) in files {
        if memchr::memmem::find(bytes, b"kafka.strimzi.io").is_none() {
            continue;
        }
        let Ok(text) = std::str::from_utf8(bytes) else {
            continue;
        };
        if let Ok(documents) = yaml::parse(text.strip_prefix('\u{feff}').unwrap_or(text)) {
            kafkas.extend(strimzi::kafka_names(&documents));
            addresses.extend(strimzi::bootstrap_addresses(&documents));
        }
    }
    (kafkas, addresses)
}

/// What the config file states of the files read: what they cannot say themselves.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stated {
    /// `bitnami-kafka-chart`: the chart version of bitnami/kafka values files that nothing
    /// beside them pins.
    pub bitnami_kafka_chart: Option<String>,
    /// `[images]`: the team's own images, each read as the known image it names.
    pub images: images::Aliases,
    /// `exclude`, `extend-exclude` and `--exclude`: what folder walks pass over.
    pub excludes: crate::source::excludes::Excludes,
}

/// Reads YAML files (of one folder, or named together): every compose file is a cluster of
/// its Kafka services (with its Connect and Schema Registry services as components), every
/// Strimzi `Kafka` a cluster of its nodes (with the node pools of all `files`, and
/// `extra_pools`), the Kafka workloads of a file of Kubernetes manifests a cluster per
/// namespace.
pub fn read_files(files: Vec<(String, Vec<u8>)>, extra_pools: &[strimzi::Pool]) -> Found {
    let beside = Beside {
        pools: extra_pools.to_vec(),
        ..Beside::default()
    };
    read_files_beside(files, &beside)
}

/// [`read_files`] with what the config file states.
pub fn read_files_stated(files: Vec<(String, Vec<u8>)>, stated: &Stated) -> Found {
    let beside = Beside {
        stated: stated.clone(),
        ..Beside::default()
    };
    read_files_beside(files, &beside)
}

/// [`read_files`], with what the files beside them add.
pub fn read_files_beside(files: Vec<(String, Vec<u8>)>, beside: &Beside) -> Found {
    let mut found = Found::default();
    let mut parsed = Vec::new();
    let mut role_templates = Vec::new();
    let mut terraform_folders = terraform::Folders::default();
    // Files a Terraform configuration reads and renders (`replace(file("kafka.yaml"), ...)`):
    // read through it, not a template left unrendered.
    let mut rendered_by_terraform: Vec<PathBuf> = Vec::new();
    for (path, bytes) in files {
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            // UTF-16 with its byte-order mark is YAML that go-yaml reads and kafkalint does not.
            Err(_) if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) => {
                found
                    .errors
                    .push((path, "UTF-16 text, which kafkalint does not read".into()));
                continue;
            }
            Err(error) => {
                found
                    .unreadable
                    .push(unreadable::not_utf8(path, bytes, error));
                continue;
            }
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // A compose file a role templates: read as the compose file it is when it holds no
        // Jinja; one that does is not rendered, and said so.
        let compose_template = ansible::role::is_compose_template(Path::new(&path));
        // A role's template Jinja cannot parse: Ansible writes nothing of it on the hosts.
        if (compose_template || path.to_ascii_lowercase().ends_with(".j2"))
            && let Some(reason) = ansible::role::jinja_refusal(&path, text)
        {
            found
                .unreadable
                .push(unreadable::file(path, bytes, &reason));
            continue;
        }
        if compose_template && !ansible::role::is_plain_template(text) {
            // Rendered on each host its role runs on, and read; else said, with why.
            let offset = bytes.len() - text.len();
            let (mut notes, mut refused) = (Vec::new(), Vec::new());
            match ansible::compose_template::read(
                &path,
                text,
                &beside.stated.images,
                &mut notes,
                &mut refused,
            ) {
                Ok(reads) => {
                    found
                        .notes
                        .extend(notes.iter().map(|note| format!("{path}: {note}")));
                    push_refused_inventories(&mut found, refused);
                    let images = beside.stated.images.entries().to_vec();
                    push_compose_template(&mut found, &path, &bytes, offset, reads, images);
                }
                Err(why) => found.notes.push(format!(
                    "{path}: a compose file an Ansible role templates with Jinja, which kafkalint does not render ({why}); not checked"
                )),
            }
            continue;
        }
        if (path.to_ascii_lowercase().ends_with(".j2") && !compose_template)
            || ansible::role::is_role_properties(Path::new(&path))
        {
            role_templates.push((path, bytes));
            continue;
        }
        if terraform::is_terraform_name(&path) {
            let (mut notes, mut info) = (Vec::new(), Vec::new());
            // Once per configuration that applies it (each environment calling its folder
            // as a module): each a cluster of its own.
            match terraform::read_all(&path, text, &mut notes, &mut info, &mut terraform_folders) {
                Ok(reads) => {
                    found
                        .notes
                        .extend(notes.iter().map(|note| format!("{path}: {note}")));
                    found
                        .info
                        .extend(info.iter().map(|line| format!("{path}: {line}")));
                    for mut read in reads {
                        if !read.documents.is_empty() || !read.releases.is_empty() {
                            rendered_by_terraform.extend(read.values_files.iter().cloned());
                        }
                        let documents = std::mem::take(&mut read.documents);
                        parsed.push((path.clone(), bytes.clone(), documents, Some(read)));
                    }
                }
                Err(error) if unreadable::is_syntax(&error) => {
                    found.unreadable.push(unreadable::file(path, bytes, &error));
                }
                Err(error) => found.errors.push((path, error)),
            }
            continue;
        }
        match yaml::parse(text) {
            Ok(documents) => parsed.push((path, bytes.clone(), documents, None)),
            Err(_) if is_template(text) => found.errors.push((path, TEMPLATE.into())),
            Err(error) if unreadable::is_syntax(&error.message) => {
                let reason = error.to_string();
                found
                    .unreadable
                    .push(unreadable::file(path, bytes, &reason));
            }
            Err(error) => found.errors.push((path, error.to_string())),
        }
    }

    let rendered_by_terraform: Vec<PathBuf> = rendered_by_terraform
        .iter()
        .map(|file| lexically_normal(file))
        .collect();
    let rendered_by_terraform =
        |path: &str| rendered_by_terraform.contains(&lexically_normal(Path::new(path)));
    found
        .errors
        .retain(|(path, why)| why != TEMPLATE || !rendered_by_terraform(path));

    let mut pools: Vec<strimzi::Pool> = beside.pools.clone();
    for (_, _, documents, _) in &parsed {
        for pool in strimzi::pools(documents) {
            if !pools.contains(&pool) {
                pools.push(pool);
            }
        }
    }
    let pools: Arc<[strimzi::Pool]> = Arc::from(pools);
    let mut config_maps: Vec<ConfigMap> = parsed
        .iter()
        .flat_map(|(path, _, documents, _)| kubernetes::config_maps(path, documents))
        .collect();
    config_maps.extend(beside.config_maps.iter().cloned());
    let config_maps: Arc<[ConfigMap]> = Arc::from(config_maps);
    // Strimzi `Kafka` names, for the `KafkaConnect`s of any file that name one.
    let mut kafkas: Vec<strimzi::KafkaName> = parsed
        .iter()
        .flat_map(|(_, _, documents, _)| strimzi::kafka_names(documents))
        .collect();
    kafkas.extend(beside.kafkas_elsewhere.iter().cloned());
    // A `KafkaConnect`'s part (its file's index in `found.files`, the part), for the cluster
    // of the `Kafka` it names.
    let mut connects: Vec<(String, usize, u32)> = Vec::new();
    let mut strimzi_clusters: Vec<(String, usize)> = Vec::new();
    // Each cluster of Kubernetes workloads (its index in `found.clusters`) and its namespace.
    let mut manifest_clusters: Vec<(usize, Option<String>)> = Vec::new();
    for (path, bytes, documents, terraform) in parsed {
        // The configuration that calls a Terraform module's file, when it is read for one.
        let scope = terraform.as_ref().and_then(|read| read.scope.clone());
        let offset = usize::from(bytes.starts_with("\u{feff}".as_bytes())) * 3;
        // Validated as UTF-8 above; the documents were parsed from the text after its BOM.
        let text = std::str::from_utf8(&bytes).unwrap_or_default();
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        if terraform.is_none() && is_template(text) && rendered_by_terraform(&path) {
            continue;
        }
        let mut hidden = match &terraform {
            // A Terraform file: its documents and its releases' values as YAML, the rest of
            // it as Terraform hides it.
            Some(read) => {
                let mut shown_as_yaml = documents.clone();
                shown_as_yaml.extend(read.releases.iter().map(|release| release.values.clone()));
                let mut hidden = redact::hidden_spans(text, &shown_as_yaml);
                hidden.extend(read.hidden.iter().cloned());
                hidden
            }
            None => redact::hidden_spans(text, &documents),
        };
        hidden.sort_by_key(|span| (span.start, span.end));
        let secrets = hidden
            .into_iter()
            .map(|span| span.start + offset..span.end + offset)
            .collect();
        let mut yaml = YamlFile {
            parts: Vec::new(),
            secrets,
            pools: Arc::clone(&pools),
            config_maps: Arc::clone(&config_maps),
            bitnami_kafka_chart: beside.stated.bitnami_kafka_chart.clone(),
            images: beside.stated.images.entries().to_vec(),
        };
        let mut clusters = Vec::new();
        let mut take = |name: String, form: Form, nodes: Vec<NodeSpec>, yaml: &mut YamlFile| {
            let start = yaml.parts.len() as u32;
            // A module's nodes for one configuration that calls it: named by that call.
            let nodes = nodes.into_iter().map(|mut spec| {
                if let Some(scope) = &scope {
                    spec.id = format!("{scope}: {}", spec.id);
                    spec.label = format!("{scope}: {}", spec.label);
                }
                spec
            });
            yaml.parts.extend(nodes.map(|spec| part(spec, offset)));
            let parts: Vec<u32> = (start..yaml.parts.len() as u32).collect();
            clusters.push((name, form, parts));
        };
        let mut notes = Vec::new();
        // The namespace of each cluster of Kubernetes workloads of this file, in order.
        let mut manifest_namespaces: Vec<Option<String>> = Vec::new();
        if let Some(first) = documents.first()
            && first
                .get("services")
                .is_some_and(|services| matches!(services, yaml::Node::Map(_)))
        {
            let project = compose::Project::of_file(&path, &mut notes)
                .with_images(beside.stated.images.clone());
            if let Some((env_path, env_bytes, error)) = project.env_syntax_error() {
                unreadable::push_env(&mut found.unreadable, env_path, env_bytes, error);
            }
            let nodes = compose::read(first, &project, &mut notes);
            if project.nesting_too_deep() {
                // A YAML escape can write `${` so that no line of the file shows it.
                let place = compose::dotenv::first_line_nested_too_deep(text)
                    .map_or_else(|| "a value".to_string(), |line| format!("line {line}"));
                notes.push(format!(
                    "{place}: `${{...}}` defaults nested deeper than {} levels, which kafkalint does not follow; the value is unknown",
                    compose::dotenv::MAX_NESTING
                ));
            }
            for (suffix, nodes) in compose::quorums(nodes) {
                take(format!("{path}{suffix}"), Form::Compose, nodes, &mut yaml);
            }
        }
        let mut strimzi_names = Vec::new();
        for (name, nodes) in strimzi::read(&documents, &pools, &mut notes) {
            if !nodes.is_empty() {
                take(
                    format!("{path}: Kafka {name}"),
                    Form::Strimzi,
                    nodes,
                    &mut yaml,
                );
                strimzi_names.push(name);
            }
        }
        let mut connect_parts = Vec::new();
        let mut info = Vec::new();
        let connects_found = strimzi::connects(&documents, &kafkas, &mut notes, &mut info);
        found
            .info
            .extend(info.iter().map(|line| format!("{path}: {line}")));
        for (target, spec) in connects_found {
            connect_parts.push((target, yaml.parts.len() as u32));
            yaml.parts.push(part(spec, offset));
        }
        for (name, nodes) in cfk::read(&path, &documents, &mut notes) {
            if !nodes.is_empty() {
                take(name, Form::Confluent, nodes, &mut yaml);
            }
        }
        // A Terraform file's documents are what it renders: a `{{` left in them is a
        // template, one in the rest of its text (`replace(..., "{{REPLICAS}}", ...)`) is not.
        let template = match &terraform {
            Some(_) => documents.iter().any(holds_template),
            None => is_template(text),
        };
        if documents.iter().any(kubernetes::is_object) && template {
            // Its values are the template's expressions, not what the cluster gets.
            notes.push(TEMPLATE.into());
        } else if documents.iter().any(kubernetes::is_object) {
            for (name, namespace, nodes) in kubernetes::read_with_images(
                &path,
                text,
                &documents,
                &config_maps,
                &beside.stated.images,
                &mut notes,
            ) {
                take(name, Form::Kubernetes, nodes, &mut yaml);
                manifest_namespaces.push(namespace);
            }
        }
        if yaml.parts.is_empty()
            && let Some(document) = documents.first()
            && ansible::cp_ansible::is_inventory(document)
        {
            let roles = ansible::role::templating_roles(&path);
            // Roles of its own template the brokers' files: what they render is read from
            // them, not what cp-ansible would render.
            let nodes = if roles.is_empty() {
                ansible::cp_ansible::read(document, &mut notes)
            } else {
                notes.push(format!(
                    "an inventory whose brokers' configuration the roles beside it template ({}): read from those templates",
                    roles.join(", ")
                ));
                Vec::new()
            };
            if !nodes.is_empty() {
                take(path.clone(), Form::Ansible, nodes, &mut yaml);
            }
        }
        for release in terraform.iter().flat_map(|read| &read.releases) {
            let values = helm::bitnami_chart::Values {
                root: &release.values,
                anchor: release.anchor.clone(),
            };
            let folder = helm::bitnami_chart::Folder {
                pinned: release.version.clone(),
                stated: beside.stated.bitnami_kafka_chart.clone(),
                ..helm::bitnami_chart::Folder::default()
            };
            let line = helm::bitnami_chart::line(&values, &folder);
            found.info.push(format!(
                "{path}: {}{}: {}",
                scope
                    .as_ref()
                    .map_or(String::new(), |scope| format!("{scope}: ")),
                release.label,
                line.describe()
            ));
            let mut release_notes = Vec::new();
            let nodes = helm::bitnami_chart::read(&values, text, &line, &mut release_notes);
            notes.extend(
                release_notes
                    .into_iter()
                    .map(|note| format!("{}: {note}", release.label)),
            );
            if !nodes.is_empty() {
                take(
                    format!("{path}: {}", release.label),
                    Form::Terraform,
                    nodes,
                    &mut yaml,
                );
            }
        }
        let read_any = !yaml.parts.is_empty();
        if !read_any
            && terraform.is_none()
            && let Some(document) = documents.first()
        {
            let mut folder = helm::bitnami_chart::Folder::of(&path);
            folder.stated = beside.stated.bitnami_kafka_chart.clone();
            let values = helm::bitnami_chart::values(&path, document, &folder);
            let unnamed = helm::bitnami_chart::unnamed_values(&path, document, &folder);
            let release = (values.is_some() || unnamed)
                .then(|| helm::bitnami_chart::terraform_release_of(&path))
                .flatten();
            if let Some(release) = release {
                found.info.push(format!(
                    "{path}: read as the values of the bitnami/kafka release in {release}"
                ));
            } else if let Some(values) = values {
                let line = helm::bitnami_chart::line(&values, &folder);
                found.info.push(format!("{path}: {}", line.describe()));
                let nodes = helm::bitnami_chart::read(&values, text, &line, &mut notes);
                if !nodes.is_empty() {
                    take(path.clone(), Form::HelmValues, nodes, &mut yaml);
                }
            } else if unnamed {
                notes.push(helm::bitnami_chart::UNNAMED.into());
            }
        }
        found
            .notes
            .extend(notes.iter().map(|note| format!("{path}: {note}")));
        // A Terraform module's file read for one configuration that calls it: its clusters
        // named by that call.
        if let Some(scope) = &scope {
            for (name, _, _) in &mut clusters {
                *name = format!("{scope} ({name})");
            }
        }
        if !clusters.is_empty() || !connect_parts.is_empty() {
            let mut file = found.files.len();
            // The same Terraform file read for another configuration that calls it: one file
            // whose parts are each configuration's nodes.
            let mut shift = 0;
            if scope.is_some()
                && let Some(last) = found.files.last_mut().filter(|last| last.path == path)
                && let Some(last_yaml) = last.yaml.as_mut()
            {
                file -= 1;
                shift = last_yaml.parts.len() as u32;
                last_yaml.parts.append(&mut yaml.parts);
                last_yaml.secrets.append(&mut yaml.secrets);
                last_yaml.secrets.sort_by_key(|span| (span.start, span.end));
                last_yaml.secrets.dedup();
            }
            let mut names = strimzi_names.into_iter();
            let mut namespaces = manifest_namespaces.into_iter();
            for (name, form, parts) in clusters {
                let parts: Vec<u32> = parts.into_iter().map(|part| part + shift).collect();
                if form == Form::Strimzi
                    && let Some(kafka) = names.next()
                {
                    strimzi_clusters.push((kafka, found.clusters.len()));
                }
                if form == Form::Kubernetes {
                    let namespace = namespaces.next().flatten();
                    manifest_clusters.push((found.clusters.len(), namespace));
                }
                found.clusters.push(FoundCluster {
                    name,
                    form,
                    members: parts.into_iter().map(|part| (file, part)).collect(),
                });
            }
            connects.extend(
                connect_parts
                    .into_iter()
                    .map(|(target, part)| (target, file, part + shift)),
            );
            if file == found.files.len() {
                found.files.push(SourceFile::from_yaml(path, bytes, yaml));
            }
        }
    }
    // The templates of the roles of one project (the folder above `roles/`) are one
    // cluster per environment (the inventory that lists the hosts): a broker role's and a
    // controller role's hosts together.
    let mut role_clusters: Vec<((std::path::PathBuf, Option<String>), usize)> = Vec::new();
    for (path, bytes) in role_templates {
        // Validated as UTF-8 above.
        let text = std::str::from_utf8(&bytes).unwrap_or_default();
        let offset = usize::from(text.starts_with('\u{feff}')) * 3;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut notes = Vec::new();
        let mut refused = Vec::new();
        let environments = ansible::role::read(&path, text, &mut notes, &mut refused);
        push_refused_inventories(&mut found, refused);
        found
            .notes
            .extend(notes.iter().map(|note| format!("{path}: {note}")));
        let mut parts = Vec::new();
        let mut owners = Vec::new();
        for ansible::role::RoleNodes { environment, nodes } in environments {
            for spec in nodes {
                owners.push((environment.clone(), parts.len() as u32));
                parts.push(part(spec, offset));
            }
        }
        if parts.is_empty() {
            continue;
        }
        let yaml = YamlFile {
            parts,
            secrets: ansible::role::hidden_spans(text)
                .into_iter()
                .map(|span| span.start + offset..span.end + offset)
                .collect(),
            pools: Arc::from(Vec::new()),
            config_maps: Arc::from(Vec::new()),
            bitnami_kafka_chart: None,
            images: Vec::new(),
        };
        let file = found.files.len();
        let project = ansible::role::project_of(&path);
        for (environment, part) in owners {
            let key = (project.clone(), environment.clone());
            match role_clusters.iter().find(|(known, _)| *known == key) {
                Some((_, cluster)) => found.clusters[*cluster].members.push((file, part)),
                None => {
                    role_clusters.push((key, found.clusters.len()));
                    found.clusters.push(FoundCluster {
                        name: match &environment {
                            Some(environment) => format!("{path} (environment `{environment}`)"),
                            None => path.clone(),
                        },
                        form: Form::AnsibleRole,
                        members: vec![(file, part)],
                    });
                }
            }
        }
        found.files.push(SourceFile::from_yaml(path, bytes, yaml));
    }
    // Each `KafkaConnect` joins the cluster of the `Kafka` it names (the first of that name),
    // here or in the folder of the walk that holds it.
    for (target, file, part) in connects {
        match strimzi_clusters.iter().find(|(name, _)| *name == target) {
            Some((_, cluster)) => found.clusters[*cluster].members.push((file, part)),
            None => found.bound_elsewhere.push((target, file, part)),
        }
    }
    found.strimzi_kafkas = strimzi_clusters;
    kubernetes::one_cluster::merge_by_quorum(&mut found, &manifest_clusters);
    found
}

/// Reads one named YAML file, with the node pools and ConfigMaps of the YAML files beside it.
pub fn read_named(path: &Path, display: String, bytes: Vec<u8>, stated: &Stated) -> Found {
    let mut beside = Beside {
        stated: stated.clone(),
        ..Beside::default()
    };
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // Pools come from the folder itself: a link leading out of it is not read.
    let inside = std::fs::canonicalize(dir).ok();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut siblings: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .collect();
        siblings.sort();
        for sibling in siblings {
            let name = sibling
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let leaves = || {
                let target = std::fs::canonicalize(&sibling).ok();
                target
                    .zip(inside.as_ref())
                    .is_none_or(|(t, d)| !t.starts_with(d))
            };
            if sibling == path || !is_yaml_name(&name) || (sibling.is_symlink() && leaves()) {
                continue;
            }
            // Read as any file is: a pipe named `pools.yaml` is passed over, not waited on.
            let has = |bytes: &[u8], needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
            if let Ok(bytes) = crate::source::read_file(&sibling)
                && (has(&bytes, b"KafkaNodePool") || has(&bytes, b"ConfigMap"))
                && let Ok(text) = std::str::from_utf8(&bytes)
                && let Ok(documents) = yaml::parse(text)
            {
                beside.pools.extend(strimzi::pools(&documents));
                let shown = sibling.to_string_lossy();
                beside
                    .config_maps
                    .extend(kubernetes::config_maps(&shown, &documents));
            }
        }
    }
    read_files_beside(vec![(display, bytes)], &beside)
}

/// An inventory Ansible cannot parse: `invalid-syntax` at its line, once.
fn push_refused_inventories(found: &mut Found, refused: Vec<ansible::role::RefusedInventory>) {
    for inventory in refused {
        let shown = inventory.path.to_string_lossy().replace('\\', "/");
        let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
        if !found.unreadable.iter().any(|file| file.path == shown) {
            let reason = inventory.refusal.positioned();
            found
                .unreadable
                .push(unreadable::file(shown, inventory.bytes, &reason));
        }
    }
}

/// A role's compose template as read on each host: one file (the template), one cluster per
/// environment holding every host's nodes.
fn push_compose_template(
    found: &mut Found,
    path: &str,
    bytes: &[u8],
    offset: usize,
    reads: Vec<ansible::compose_template::HostRead>,
    images: Vec<(String, String)>,
) {
    let mut parts = Vec::new();
    let mut secrets = Vec::new();
    let mut owners: Vec<(Option<String>, u32)> = Vec::new();
    for mut read in reads {
        let nodes = std::mem::take(&mut read.nodes);
        for spec in nodes {
            owners.push((read.environment.clone(), parts.len() as u32));
            parts.push(part_mapped(spec, &|span: &Span| {
                let placed = read.place(span);
                placed.start + offset..placed.end + offset
            }));
        }
        secrets.extend(
            read.secrets
                .iter()
                .map(|span| span.start + offset..span.end + offset),
        );
    }
    if parts.is_empty() {
        return;
    }
    secrets.sort_by_key(|span: &Span| (span.start, span.end));
    secrets.dedup();
    let file = found.files.len();
    let mut clusters: Vec<(Option<String>, usize)> = Vec::new();
    for (environment, part) in owners {
        match clusters.iter().find(|(known, _)| *known == environment) {
            Some((_, cluster)) => found.clusters[*cluster].members.push((file, part)),
            None => {
                clusters.push((environment.clone(), found.clusters.len()));
                found.clusters.push(FoundCluster {
                    name: match &environment {
                        Some(environment) => format!("{path} (environment `{environment}`)"),
                        None => path.to_string(),
                    },
                    form: Form::AnsibleRole,
                    members: vec![(file, part)],
                });
            }
        }
    }
    let yaml = YamlFile {
        parts,
        secrets,
        pools: Arc::from(Vec::new()),
        config_maps: Arc::from(Vec::new()),
        bitnami_kafka_chart: None,
        images,
    };
    found.files.push(SourceFile::from_yaml(
        path.to_string(),
        bytes.to_vec(),
        yaml,
    ));
}

/// A node or component as a part of its file, its spans moved past the file's byte-order mark.
fn part(spec: NodeSpec, offset: usize) -> YamlPart {
    part_mapped(spec, &|span: &Span| span.start + offset..span.end + offset)
}

/// A node or component as a part of its file, each span placed by `shift` (read from a
/// rendering of the file, placed in the file itself).
fn part_mapped(spec: NodeSpec, shift: &dyn Fn(&Span) -> Span) -> YamlPart {
    let entries = spec
        .entries
        .iter()
        .map(|entry| Entry {
            key: entry.key.clone(),
            value: entry.value.clone(),
            key_span: shift(&entry.key_span),
            value_span: shift(&entry.value_span),
            utf8_mismatch: false,
            provenance: entry.provenance,
        })
        .collect();
    let view = YamlView {
        declared_at: shift(&spec.declared_at),
        id: spec.id,
        label: spec.label,
        editable: spec
            .entries
            .iter()
            .filter_map(|entry| {
                entry
                    .edit
                    .map(|edit| (shift(&entry.value_span), edit.style))
            })
            .collect(),
        count_known: spec.count_known,
        component: spec.component.map(|component| ComponentService {
            image_span: shift(&component.image_span),
            ..component
        }),
        forbidden: spec
            .forbidden
            .into_iter()
            .map(|forbidden| Forbidden {
                key_span: shift(&forbidden.key_span),
                ..forbidden
            })
            .collect(),
        ignored_by_release: spec
            .ignored_by_release
            .iter()
            .map(|entry| (entry.key.clone(), shift(&entry.key_span)))
            .collect(),
        image_tag: spec.image_tag.map(|tag| ImageTag {
            span: shift(&tag.span),
            ..tag
        }),
        runtime: spec.runtime,
        image_exit: spec.image_exit.map(|exit| ImageExit {
            span: shift(&exit.span),
            ..exit
        }),
        settings_elsewhere: spec.settings_elsewhere,
    };
    YamlPart {
        properties: PropertiesFile::new(entries, Vec::new()),
        view,
    }
}

/// Keeps a fix on YAML only when each of its edits replaces an exact one-line scalar value byte
/// for byte with text that reads back as the same YAML string; otherwise the finding has no fix.
pub fn restrict_fixes(
    files: &[SourceFile],
    topics: &[&topics::DeclaredTopic],
    diagnostics: &mut [Diagnostic],
) {
    for diagnostic in diagnostics {
        let Some(fix) = &diagnostic.fix else { continue };
        let allowed = fix.edits.iter().all(|edit| match &files[edit.file].yaml {
            None => true,
            Some(_) if topics::editable_number(topics, edit.file, &edit.span) => {
                edit.replacement.iter().all(u8::is_ascii_digit)
            }
            Some(yaml) => yaml
                .editable(&edit.span)
                .is_some_and(|style| safe_replacement(&edit.replacement, style)),
        });
        if !allowed {
            diagnostic.fix = None;
        }
    }
}

/// Text that a plain or quoted scalar holds as is: no quotes, escapes, spaces or indicators.
fn safe_replacement(replacement: &[u8], style: Style) -> bool {
    let ordinary = |b: &u8| b.is_ascii_alphanumeric() || b"._,:/+-".contains(b);
    !replacement.is_empty()
        && replacement.iter().all(ordinary)
        && match style {
            Style::Plain => replacement[0].is_ascii_alphanumeric() || replacement[0] == b'/',
            Style::SingleQuoted | Style::DoubleQuoted => true,
            Style::Block => false,
        }
}

impl SourceFile {
    /// The same file read again from other bytes (after a fix), as it was read: a YAML file
    /// by its readers (here, above `source`, which knows no reader), with the node pools it
    /// was read with.
    pub fn with_bytes(&self, bytes: Vec<u8>) -> SourceFile {
        match &self.yaml {
            None => SourceFile::new(self.path.clone(), bytes),
            Some(yaml) => {
                let beside = Beside {
                    pools: yaml.pools.to_vec(),
                    config_maps: yaml
                        .config_maps
                        .iter()
                        .filter(|map| map.path != self.path)
                        .cloned()
                        .collect(),
                    stated: Stated {
                        bitnami_kafka_chart: yaml.bitnami_kafka_chart.clone(),
                        images: images::Aliases::from_entries(yaml.images.clone()),
                        ..Stated::default()
                    },
                    ..Beside::default()
                };
                let mut found =
                    read_files_beside(vec![(self.path.clone(), bytes.clone())], &beside);
                match found.files.pop().or_else(|| found.unreadable.pop()) {
                    Some(file) => file,
                    // The bytes no longer give any node: a file without parts, which may
                    // declare topics (and hides what their reader hides).
                    None => {
                        let secrets = topics::read(&self.path, &bytes)
                            .map(|read| read.hidden)
                            .unwrap_or_else(|| yaml.secrets.clone());
                        let yaml = YamlFile {
                            secrets,
                            ..YamlFile::default()
                        };
                        SourceFile::from_yaml(self.path.clone(), bytes, yaml)
                    }
                }
            }
        }
    }
}

/// What the tools that read the file `path` do with it, refused with `reason`: the
/// consequence an `invalid-syntax` finding names.
pub fn refused_by(path: &str, reason: &str) -> &'static str {
    let lower = path.to_ascii_lowercase();
    if reason.starts_with(ansible::inventory_syntax::REFUSED) {
        "Ansible warns and runs the plays meant for its hosts on none of them"
    } else if reason.starts_with(ansible::jinja_syntax::REFUSED) {
        "Ansible's template task fails on it and writes nothing on the hosts"
    } else if lower.ends_with(".tf") || lower.ends_with(".tfvars") {
        "terraform refuses this file"
    } else if lower.ends_with(".env") {
        "no service of its compose project starts"
    } else {
        // go-yaml v3, which docker compose, kubectl and helm read YAML with, refuses what
        // kafkalint's reader refuses here (a repeated key included).
        "docker compose, kubectl and helm refuse this file"
    }
}

#[cfg(test)]
mod tests;
