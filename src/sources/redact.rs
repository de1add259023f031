//! What output hides of a YAML file (a compose file, a Strimzi resource): deny by default, as
//! for `.properties` files ([`crate::secrets`]).
//!
//! A value scalar is shown when it is the value of a name the catalogue knows as a plain Kafka
//! key (`offsets.topic.replication.factor: 3`, `KAFKA_CFG_LOG_DIRS: /bitnami/kafka/data`,
//! `- KAFKA_BROKER_ID=1`), or of a structural key of compose, Kubernetes or Strimzi (`image`,
//! `ports`, `replicas`, ...), and it looks like no credential, and no name above it holds a
//! secret-like word. A Kubernetes variable's `value` is named by its `name`. Every other value is hidden, and so is what a comment holds of a setting.
//! Mapping keys are names: they are shown, but for a key that holds a value run into it
//! (`ssl.keystore.password<NBSP>secret:`), hidden from where [`secrets::shown_key`] stops. A
//! value is judged as written: a tag or anchor before a hidden value is hidden with it, and
//! under a secret's name so is a flow collection or a tag or anchor standing alone.

use crate::properties::Span;
use crate::secrets::{self, KeyKind};

use super::yaml;

/// Keys of compose, Kubernetes and Strimzi whose values say how a deployment is laid out, not
/// what it knows: shown unless they look like a credential.
const STRUCTURAL_KEYS: &[&str] = &[
    // compose
    "image",
    "container_name",
    "hostname",
    "ports",
    "expose",
    "depends_on",
    "networks",
    "network_mode",
    "restart",
    "version",
    "platform",
    "volumes",
    "env_file",
    "working_dir",
    "user",
    "condition",
    "target",
    "published",
    "protocol",
    "mode",
    "driver",
    "external",
    "context",
    "dockerfile",
    "services",
    // Kubernetes and Strimzi
    "apiVersion",
    "kind",
    "name",
    "namespace",
    "replicas",
    "roles",
    "type",
    "size",
    "class",
    "deleteClaim",
    "id",
    "port",
    "tls",
    "metadataVersion",
    "storageClassName",
    "serviceName",
    "mountPath",
    "subPath",
    "path",
    "containerPort",
    "hostPort",
    "targetPort",
    "nodePort",
    "fieldPath",
    // Helm charts' values (bitnami/kafka)
    "replicaCount",
    "tag",
    "repository",
    "registry",
    "pullPolicy",
    "enabled",
    "controllerOnly",
    "minId",
    "minBrokerId",
    "strimzi.io/cluster",
    // Topics declared as code (Strimzi and Confluent `KafkaTopic`s, the bitnami chart's
    // `provisioning.topics`)
    "topicName",
    "partitions",
    "partitionCount",
    "replicationFactor",
];

/// Variables the Kafka images read that are no Kafka key and hold no secret: the cluster id
/// and switches (apache/kafka `docker/resources/common-scripts/configureDefaults`, bitnami/kafka
/// `libkafka.sh`).
const IMAGE_VARIABLES: &[&str] = &[
    "CLUSTER_ID",
    "KAFKA_CLUSTER_ID",
    "KAFKA_KRAFT_CLUSTER_ID",
    "KAFKA_ENABLE_KRAFT",
    "KAFKA_KRAFT_MODE",
    "ALLOW_PLAINTEXT_LISTENER",
    "KAFKA_HEAP_OPTS",
    "KAFKA_JMX_PORT",
    "KAFKA_JMX_HOSTNAME",
    "JMX_PORT",
];

/// The spans of `documents` (parsed from `text`) that output hides, sorted and merged.
pub fn hidden_spans(text: &str, documents: &[yaml::Node]) -> Vec<Span> {
    let mut walk = Walk {
        text,
        hidden: Vec::new(),
        extents: Vec::new(),
    };
    for document in documents {
        walk.node(document, None, false);
    }
    let extents = merge(walk.extents);
    let mut spans = walk.hidden;
    spans.extend(comment_spans(text, &extents));
    merge(spans)
}

struct Walk<'a> {
    text: &'a str,
    hidden: Vec<Span>,
    /// Where a `#` starts no comment (see [`Walk::protect`]).
    extents: Vec<Span>,
}

impl Walk<'_> {
    /// `name` is the mapping key the node is the value of (for a sequence's items, the key of
    /// the sequence); `under_secret` whether some name above holds a secret-like word.
    fn node(&mut self, node: &yaml::Node, name: Option<&str>, under_secret: bool) {
        match node {
            yaml::Node::Scalar(scalar) => self.value(scalar, name, under_secret, false),
            yaml::Node::Seq(items) => {
                for item in items {
                    match item {
                        yaml::Node::Scalar(scalar) => {
                            self.value(scalar, name, under_secret, true);
                        }
                        other => self.node(other, name, under_secret),
                    }
                }
            }
            yaml::Node::Map(entries) => {
                // A Kubernetes variable (`- name: KAFKA_BROKER_ID` / `value: "1"`): its value
                // is named by its `name`.
                let variable = node
                    .get("value")
                    .and_then(|_| node.get("name"))
                    .and_then(yaml::Node::scalar)
                    .map(|name| name.value.as_str());
                // A variable's name that holds a value run into it hides the variable.
                let variable_holds_value = variable.is_some_and(key_holds_a_value);
                for (key, value) in entries {
                    let key_name = key.scalar().map(|scalar| scalar.value.as_str());
                    let key_name = match (key_name, variable) {
                        (Some("value"), Some(variable)) => Some(variable),
                        _ => key_name,
                    };
                    let mut secret = under_secret
                        || variable_holds_value
                        || key_name.is_some_and(secrets::has_secret_word);
                    if let Some(scalar) = key.scalar() {
                        self.protect(scalar, self.text);
                        if key_holds_a_value(&scalar.value) {
                            self.hidden.push(key_tail(scalar));
                            secret = true;
                        }
                    } else {
                        // A complex key: whatever it holds is hidden.
                        self.node(key, None, true);
                    }
                    let hidden_before = self.hidden.len();
                    self.node(value, key_name, secret);
                    if let Some(scalar) = key.scalar() {
                        let hidden = self.hidden.len() > hidden_before;
                        if let Some(span) = self.written_value(scalar, value, secret, hidden) {
                            self.hidden.push(span);
                        }
                    }
                }
            }
        }
    }

    /// Where a `#` is the scalar's own text, not a comment: a block scalar's lines, a quoted
    /// scalar between its quotes. (A plain scalar cannot hold ` #`; and a scalar's extent runs
    /// on to the next token, over the comments between.)
    fn protect(&mut self, scalar: &yaml::Scalar, text: &str) {
        let extent = scalar.extent.clone();
        match scalar.style {
            yaml::Style::Block => self.extents.push(extent),
            yaml::Style::SingleQuoted | yaml::Style::DoubleQuoted => {
                let end = closing_quote(text, extent.clone()).unwrap_or(extent.end);
                self.extents.push(extent.start..end);
            }
            yaml::Style::Plain => {}
        }
    }

    /// What of a mapping's value is written beyond the scalars YAML reads from it and is to
    /// be hidden with them: a tag or an anchor before a hidden scalar (`!x value`, `&x value`),
    /// and under a secret's name a flow collection whole (`[x, y]`, `{x}`: its keys too) or a
    /// value that is nothing but a tag or an anchor (`!x`, which YAML reads as an empty
    /// value). Judged on the text as written after the key's `:`, on the key's line.
    fn written_value(
        &self,
        key: &yaml::Scalar,
        value: &yaml::Node,
        secret: bool,
        hidden: bool,
    ) -> Option<Span> {
        let bytes = self.text.as_bytes();
        let line_end = |from: usize| {
            bytes[from.min(bytes.len())..]
                .iter()
                .position(|b| matches!(b, b'\n' | b'\r'))
                .map_or(bytes.len(), |at| from + at)
        };
        let key_line_end = line_end(key.span.end);
        let colon = key.span.end + self.text.get(key.span.end..key_line_end)?.find(':')?;
        let after = &self.text[colon + 1..key_line_end];
        let start = colon + 1 + (after.len() - after.trim_start().len());
        let first = *bytes.get(start).filter(|_| start < key_line_end)?;
        if first == b'#' {
            return None;
        }
        match value {
            yaml::Node::Scalar(scalar) if !scalar.value.is_empty() => {
                // A tag or anchor before the scalar, on the key's line.
                (hidden && scalar.extent.start > start && scalar.extent.start <= key_line_end)
                    .then_some(start..scalar.extent.end)
            }
            yaml::Node::Scalar(_) => {
                // Nothing but a tag or an anchor: what is written is the value.
                matches!(first, b'!' | b'&').then(|| start..key_line_end)
            }
            _ if secret && matches!(first, b'[' | b'{' | b'!' | b'&') => {
                let last = last_extent_end(value).unwrap_or(start).max(start);
                Some(start..line_end(last).max(key_line_end))
            }
            _ => None,
        }
    }

    fn value(&mut self, scalar: &yaml::Scalar, name: Option<&str>, under_secret: bool, item: bool) {
        self.protect(scalar, self.text);
        if scalar.value.is_empty() {
            // A tag or an anchor alone (`- !x`): YAML reads an empty value, the text holds one.
            let written = self
                .text
                .get(scalar.extent.clone())
                .unwrap_or_default()
                .trim();
            if written.starts_with(['!', '&']) {
                self.hidden.push(scalar.extent.clone());
            }
            return;
        }
        // A container's start-up script (`command: [sh, -c, ...]`, compose's `command: sh -c
        // ...` and `entrypoint`): word by word, what kafkalint knows shown.
        if !under_secret
            && matches!(name, Some("command" | "args" | "entrypoint"))
            && let Some(lines) = super::embedded::lines(scalar, self.text)
        {
            self.hidden
                .extend(super::kubernetes::shell_redact::hidden_spans(&lines));
            return;
        }
        // A list item `NAME=value` (compose's list form of `environment`) names its own value.
        if item && let Some((item_name, value)) = scalar.value.split_once('=') {
            // A name that holds a value run into it: hidden from where it stops reading as one.
            if key_holds_a_value(item_name) {
                self.hidden.push(key_tail(scalar));
                return;
            }
            if !shown_as(item_name, value, under_secret) {
                self.hidden.push(if scalar.exact {
                    scalar.span.start + item_name.len() + 1..scalar.span.end
                } else {
                    scalar.extent.clone()
                });
            }
            return;
        }
        // A properties file's text (a ConfigMap's `server.properties: |`, a chart's
        // `extraConfig`): hidden as that file would be, line by line.
        if !under_secret
            && name.is_some_and(|name| {
                name.ends_with(".properties") || name == "extraConfig" || name == "config"
            })
            && let Some(spans) = super::embedded::hidden_spans(scalar, self.text)
        {
            self.hidden.extend(spans);
            return;
        }
        let shown = name.is_some_and(|name| {
            shown_as(name, &scalar.value, under_secret)
                || (!under_secret
                    && super::helm::bitnami_chart::is_setting_value(name)
                    && !secrets::looks_like_credential(&scalar.value))
                || (!under_secret
                    && (STRUCTURAL_KEYS.contains(&name) || IMAGE_VARIABLES.contains(&name))
                    && !secrets::looks_like_credential(&scalar.value))
        });
        if !shown {
            self.hidden.push(scalar.extent.clone());
        }
    }
}

/// Whether a mapping key (or a variable's name) holds a value run into it, as far as output
/// may show ([`secrets::shown_key`]): a secret word in it, a secret key of the catalogue
/// before the rest (`ssl.keystore.keyX`), or a character no name has (a
/// space of any kind, `=`, `:`, a backslash, anything outside printable ASCII). Names with
/// `/` (`strimzi.io/cluster`) and the merge key `<<` are names.
fn key_holds_a_value(key: &str) -> bool {
    let shown = secrets::shown_key_len(key);
    key != "<<"
        && shown < key.len()
        && (secrets::has_secret_word(key)
            || secrets::name_kind(&key[..shown]) == KeyKind::Password
            || key
                .chars()
                .any(|c| !c.is_ascii_graphic() || matches!(c, '=' | ':' | '\\')))
}

/// What to hide of a key that holds a value: from where [`secrets::shown_key`] stops, when
/// the key is written as read, else all of it.
fn key_tail(key: &yaml::Scalar) -> Span {
    let shown = secrets::shown_key_len(&key.value);
    if key.exact {
        key.span.start + shown..key.extent.end.max(key.span.end)
    } else {
        key.extent.clone()
    }
}

/// Where the last scalar of a node ends as written.
fn last_extent_end(node: &yaml::Node) -> Option<usize> {
    match node {
        yaml::Node::Scalar(scalar) => Some(scalar.extent.end.max(scalar.span.end)),
        yaml::Node::Seq(items) => items.iter().filter_map(last_extent_end).max(),
        yaml::Node::Map(entries) => entries
            .iter()
            .flat_map(|(key, value)| [last_extent_end(key), last_extent_end(value)])
            .flatten()
            .max(),
    }
}

/// Whether a value of `name` may be shown: a plain Kafka key in any spelling the images read.
fn shown_as(name: &str, value: &str, under_secret: bool) -> bool {
    !under_secret
        && secrets::name_kind(name) == KeyKind::Plain
        && !secrets::looks_like_credential(value)
}

/// What output hides of the comments of `text`: a `#` at the start of a line or after a space,
/// outside every scalar, starts a comment to the end of its line.
fn comment_spans(text: &str, extents: &[Span]) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut line_start = 0;
    while line_start < bytes.len() {
        let line_end = bytes[line_start..]
            .iter()
            .position(|b| *b == b'\n' || *b == b'\r')
            .map_or(bytes.len(), |at| line_start + at);
        let mut at = line_start;
        while let Some(found) = bytes[at..line_end].iter().position(|b| *b == b'#') {
            let hash = at + found;
            let starts_comment = (hash == line_start || matches!(bytes[hash - 1], b' ' | b'\t'))
                && !inside(extents, hash);
            if starts_comment {
                let body = &text[hash + 1..line_end];
                if let Some(hidden) = secrets::comment_mask(body) {
                    spans.push(hash + 1 + hidden.start..line_end);
                }
                break;
            }
            at = hash + 1;
        }
        line_start = line_end + 1;
    }
    spans
}

/// Just past the closing quote of the quoted scalar that `extent` starts with: `''` is a
/// quote inside single quotes, `\"` inside double quotes.
fn closing_quote(text: &str, extent: Span) -> Option<usize> {
    let bytes = text.as_bytes();
    let quote = *bytes.get(extent.start)?;
    if quote != b'\'' && quote != b'"' {
        return None;
    }
    let mut at = extent.start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if quote == b'"' => at += 1,
            b'\'' if quote == b'\'' && bytes.get(at + 1) == Some(&b'\'') => at += 1,
            byte if byte == quote => return Some(at + 1),
            _ => {}
        }
        at += 1;
    }
    None
}

/// Whether `offset` lies inside one of `extents` (sorted and disjoint).
fn inside(extents: &[Span], offset: usize) -> bool {
    let after = extents.partition_point(|extent| extent.start <= offset);
    after > 0 && offset < extents[after - 1].end
}

/// Sorted, with overlapping spans (an anchor and its merge) made one.
fn merge(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by_key(|span| (span.start, span.end));
    let mut merged: Vec<Span> = Vec::new();
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start <= last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}
