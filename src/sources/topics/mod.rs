//! Topics declared as code: Strimzi and Confluent for Kubernetes `KafkaTopic` resources,
//! Terraform `kafka_topic` resources, `kafka-topics.sh --create` commands, and the other forms
//! teams keep their topics in. Each reader gives the topics a file declares, as written (with
//! the spans of their values), and what output must hide of the file; the model binds each
//! topic to the cluster it lands on (`cluster::topics`).

pub mod bitnami_provisioning;
pub mod commands;
pub mod create_topics;
mod declared;
pub mod julie;
pub mod kubernetes;
pub mod shell;
pub mod terraform;
pub mod topicctl;

pub use declared::{
    ClusterRef, DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written, uncover,
};

use crate::properties::Span;

/// Whether a file of this name may declare topics (before its bytes are read).
pub fn may_declare(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    super::yaml::is_yaml_name(name)
        || super::terraform::is_terraform_name(name)
        || shell::is_script_name(name)
}

/// Whether a walked file may declare topics: cheap, on the name and the bytes.
pub fn worth_reading(path: &str, bytes: &[u8]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if super::terraform::is_terraform_name(name) {
        let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
        return has(b"\"kafka_topic\"") || has(b"\"confluent_kafka_topic\"");
    }
    super::yaml::is_yaml_name(name) && !yaml_forms(bytes).is_empty()
        || shell::worth_reading(path, bytes)
}

/// A reader of YAML files for topics: given the file's path and text.
type YamlReader = fn(&str, &str) -> TopicFile;

/// The readers of the forms whose marks `bytes` hold.
fn yaml_forms(bytes: &[u8]) -> Vec<YamlReader> {
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    let mut readers: Vec<YamlReader> = Vec::new();
    if has(b"KafkaTopic") {
        readers.push(|_, text| kubernetes::read(text));
    }
    if has(b"KAFKA_CREATE_TOPICS") {
        readers.push(|_, text| create_topics::read(text));
    }
    if has(b"provisioning") && has(b"topics") {
        readers.push(|_, text| bitnami_provisioning::read(text));
    }
    if has(b"kafka-topics") {
        readers.push(|_, text| commands::read(text));
    }
    if has(b"meta") && has(b"replicationFactor") && has(b"placement") {
        readers.push(|_, text| topicctl::read(text));
    }
    if has(b"context:") && has(b"projects:") {
        readers.push(|path, text| julie::read(text, julie::naming_beside(path)));
    }
    readers
}

/// The topics the file at `path` declares, when its form is one kafkalint reads for topics;
/// `None` when it declares none.
pub fn read(path: &str, bytes: &[u8]) -> Option<TopicFile> {
    if !worth_reading(path, bytes) {
        return None;
    }
    let text = std::str::from_utf8(bytes).ok()?;
    if super::terraform::is_terraform_name(path) {
        let read = terraform::read(path, text);
        return (!read.topics.is_empty() || !read.notes.is_empty()).then_some(read);
    }
    if shell::is_script_name(path) {
        let read = shell::read(text);
        return (!read.topics.is_empty() || !read.notes.is_empty()).then_some(read);
    }
    let mut read = TopicFile::default();
    for reader in yaml_forms(bytes) {
        let form = reader(path, text);
        read.topics.extend(form.topics);
        read.notes.extend(form.notes);
        read.hidden.extend(form.hidden);
    }
    read.hidden.sort_by_key(|span| (span.start, span.end));
    read.hidden.dedup();
    (!read.topics.is_empty() || !read.notes.is_empty()).then_some(read)
}

/// Whether `span` of `file` is a number some topic of `topics` writes as it is (a factor a fix
/// may replace with another number).
pub fn editable_number(topics: &[&DeclaredTopic], file: usize, span: &Span) -> bool {
    topics
        .iter()
        .filter(|topic| topic.file == file)
        .any(|topic| {
            [&topic.replicas, &topic.partitions]
                .into_iter()
                .flatten()
                .chain(topic.configs.iter().map(|setting| &setting.value))
                .any(|written| {
                    written.literal && written.integer().is_some() && written.span == *span
                })
        })
}
