//! What a rule reports: plain data, rendered later by `output`.

use serde::Serialize;

use crate::properties::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place in a file: which file (an index into the checked files) and which bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub file: usize,
    pub span: Span,
    pub message: String,
}

/// A finding. Built by a rule with [`Diagnostic::new`] and the `with_*` methods (in the manner
/// of oxc's `OxcDiagnostic::warn(..).with_label(..).with_help(..)`), never written out as a
/// struct literal outside this file (`tests/registry.rs` checks it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    /// Kafka refuses to start with this (the broker exits while reading its configuration).
    pub stops_startup: bool,
    /// What is wrong and what it will do in production, after the subject's name when the
    /// subject is a node or component (see [`Diagnostic::headline`]).
    pub message: String,
    /// What the finding is about: its cluster, and the node or component when it is about one.
    pub subject: Subject,
    /// The config key concerned, if there is one, as output may show it (see
    /// [`Diagnostic::hide_secret_in_key`]).
    pub key: Option<String>,
    /// Tells apart findings whose keys output shows alike (`zo[redacted]` for two keys that
    /// share their shown start): a digest of the whole key, set when part of it is hidden, so
    /// that `--fix` knows which finding a fix removed. Never shown.
    pub hidden_key_digest: Option<u64>,
    /// The primary location first, then every other place that must change or explains it.
    pub labels: Vec<Label>,
    /// How to fix it.
    pub help: String,
    /// The edit that fixes it, when it is unambiguous (`kafkalint check --fix` applies it).
    pub fix: Option<Fix>,
    /// The same finding on other nodes of the cluster (the same rule, message, help and fix
    /// kind), reported once: each node, and the index in `labels` of its primary location.
    /// Formats that need a location a finding (concise, github, SARIF) show one per node
    /// (see [`Diagnostic::locations`]). Set by the report, never by a rule.
    pub also_on: Vec<AlsoOn>,
}

/// Another node a grouped finding is about (see [`Diagnostic::also_on`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlsoOn {
    pub node: NodeRef,
    /// Its primary location: an index into the finding's `labels`.
    pub label: usize,
}

/// One place of a finding, with the node it is about there.
#[derive(Debug, Clone, Copy)]
pub struct Location<'a> {
    pub label: &'a Label,
    /// `None` for a finding about no node (a component, a file, a cluster).
    pub node: Option<&'a NodeRef>,
}

/// What a finding is about, as data: output formats that name nodes take the name from here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    /// The name of the cluster whose rules reported it (as `--format json` lists clusters);
    /// `None` for a finding about a file alone (an unused suppression).
    pub cluster: Option<std::sync::Arc<str>>,
    /// The node the finding is about, when it is about one.
    pub node: Option<NodeRef>,
    /// The component (Connect worker, Streams application, ...) it is about, when it is.
    pub component: Option<ComponentRef>,
    /// How the message goes on from the name of the node or component.
    joint: Joint,
}

/// How a message goes on from its subject's name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Joint {
    /// `broker 0 (server.properties): offsets.topic.replication.factor=1 ...`
    #[default]
    Colon,
    /// `broker 0 (server.properties) advertises ...`: the name is the subject of the sentence.
    Space,
}

/// A node as messages name it: `broker 0 (server-0.properties)`, `node 3 (docker-compose.yml,
/// service `kafka-3`)`, or its file alone when it has no id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRef {
    /// `broker` (set by `broker.id`, or any ZooKeeper-mode node) or `node` (`node.id`);
    /// `None` without an id.
    pub kind: Option<NodeKind>,
    /// The id as written (trimmed): a number, or a placeholder a template fills in.
    pub id: Option<String>,
    /// The file's name without its folder; for a compose service or Strimzi pool, with its name.
    pub file: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Broker,
    Node,
}

/// A component file of a cluster as messages name it: `Kafka Connect worker (connect.properties)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentRef {
    /// Its stable identifier (`connect-distributed`, `mirror-maker`, `streams`, `schema-registry`).
    pub kind: &'static str,
    /// How messages call it (`Kafka Connect worker`).
    pub title: &'static str,
    /// The file's name without its folder; for a compose service, with its name.
    pub file: String,
}

impl NodeRef {
    /// The pieces of the name, in order (empty ones for a node without an id).
    fn name_parts(&self) -> [&str; 5] {
        match (&self.kind, &self.id) {
            (Some(kind), Some(id)) => [kind.as_str(), " ", id, " (", &self.file],
            _ => ["", "", "", "", &self.file],
        }
    }

    fn closes(&self) -> bool {
        self.kind.is_some() && self.id.is_some()
    }

    /// `broker 1`: the name without its file, for a line that gives the file and the place in
    /// it; `None` without a numeric id (a placeholder a template fills in names nothing yet).
    pub fn short_name(&self) -> Option<String> {
        let (kind, id) = (self.kind?, self.id.as_deref()?);
        id.parse::<i64>()
            .is_ok()
            .then(|| format!("{} {id}", kind.as_str()))
    }
}

impl NodeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Broker => "broker",
            NodeKind::Node => "node",
        }
    }
}

impl std::fmt::Display for NodeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.name_parts()
            .iter()
            .try_for_each(|part| f.write_str(part))?;
        if self.closes() {
            f.write_str(")")
        } else {
            Ok(())
        }
    }
}

impl std::fmt::Display for ComponentRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.title, self.file)
    }
}

impl Subject {
    /// The pieces of the text that leads the message (the name and its joint), empty when the
    /// finding is about no single node or component.
    fn lead_parts(&self) -> [&str; 8] {
        let joint = match self.joint {
            Joint::Colon => ": ",
            Joint::Space => " ",
        };
        match (&self.node, &self.component) {
            (Some(node), _) => {
                let [a, b, c, d, e] = node.name_parts();
                [
                    a,
                    b,
                    c,
                    d,
                    e,
                    if node.closes() { ")" } else { "" },
                    "",
                    joint,
                ]
            }
            (None, Some(component)) => [
                "",
                "",
                "",
                component.title,
                " (",
                &component.file,
                ")",
                joint,
            ],
            (None, None) => [""; 8],
        }
    }
}

/// Bytes to put in place of a span of a checked file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// An index into the checked files.
    pub file: usize,
    pub span: Span,
    /// The bytes written instead, as they go in the file (escaped for `Properties` already).
    pub replacement: Vec<u8>,
}

impl Edit {
    /// Whether the two edits change bytes of the same file in common (or the same place).
    pub fn overlaps(&self, other: &Edit) -> bool {
        self.file == other.file
            && (self.span == other.span
                || (self.span.start < other.span.end && other.span.start < self.span.end))
    }
}

/// How far a fix can be trusted, as ruff's `Applicability` says it: `--fix` applies safe fixes,
/// `--unsafe-fixes` unsafe ones too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Kafka reads the file the same after it, but for what the finding is about (a repeated
    /// line removed).
    Safe,
    /// It changes what the cluster does beyond the bytes it edits (how many replicas a topic
    /// gets, how many must be in sync), or does less than it seems (a topic that exists keeps
    /// its replicas): for people to review.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }

    /// Whether a fix of this applicability is made when fixes up to `allowed` are asked for
    /// (`Safe` for `--fix`, `Unsafe` with `--unsafe-fixes`).
    pub fn applies(self, allowed: Applicability) -> bool {
        self <= allowed
    }
}

/// What `--fix` changes to resolve a finding: data, applied by the driver (`crate::fix`), never
/// by the rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, e.g. "set offsets.topic.replication.factor=3".
    pub description: String,
    /// Edits that do not overlap, in any order.
    pub edits: Vec<Edit>,
    /// Whether `--fix` makes it, or only `--unsafe-fixes` (each rule's doc says why).
    pub applicability: Applicability,
}

impl Fix {
    /// A fix that keeps what Kafka reads but for the finding: `--fix` makes it.
    pub fn safe(description: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            description: description.into(),
            edits,
            applicability: Applicability::Safe,
        }
    }

    /// A fix that changes what the cluster does: only `--unsafe-fixes` makes it.
    pub fn unsafe_edits(description: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            description: description.into(),
            edits,
            applicability: Applicability::Unsafe,
        }
    }
}

impl Diagnostic {
    /// A finding of `rule` at `severity` (the rule's own: see `rules::Rule::finding`, which
    /// rules call). Labels, key, help, fix and subject are added with the `with_*` methods.
    pub fn new(rule: &'static str, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            rule,
            severity,
            stops_startup: false,
            message: message.into(),
            subject: Subject::default(),
            key: None,
            hidden_key_digest: None,
            labels: Vec::new(),
            help: String::new(),
            fix: None,
            also_on: Vec::new(),
        }
    }

    /// At another severity than the rule's (a milder case of what it reports).
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Kafka refuses to start with this.
    pub fn stopping_startup(mut self) -> Self {
        self.stops_startup = true;
        self
    }

    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The key concerned, when there may be none.
    pub fn with_key_opt(mut self, key: Option<String>) -> Self {
        self.key = key;
        self
    }

    /// One more label (the first is the primary location), unless the finding has it already:
    /// nodes of one YAML file that share a setting (a service's replicas, a pool's brokers)
    /// each give the same label.
    pub fn with_label(mut self, label: Label) -> Self {
        if !self.labels.contains(&label) {
            self.labels.push(label);
        }
        self
    }

    pub fn with_labels(self, labels: impl IntoIterator<Item = Label>) -> Self {
        labels.into_iter().fold(self, Diagnostic::with_label)
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }

    /// The fix, when there is one (`Option<Fix>` or `Fix`).
    pub fn with_fix(mut self, fix: impl Into<Option<Fix>>) -> Self {
        self.fix = fix.into();
        self
    }

    /// About one node, whose name leads the message: `broker 0 (server.properties): <message>`.
    pub fn about(mut self, node: NodeRef) -> Self {
        self.subject.node = Some(node);
        self.subject.joint = Joint::Colon;
        self
    }

    /// About one node, whose name is the subject of the message's sentence:
    /// `broker 0 (server.properties) <message>`.
    pub fn about_inline(mut self, node: NodeRef) -> Self {
        self.subject.node = Some(node);
        self.subject.joint = Joint::Space;
        self
    }

    /// About one component, whose name leads the message:
    /// `Kafka Connect worker (connect.properties): <message>`.
    pub fn about_component(mut self, component: ComponentRef) -> Self {
        self.subject.component = Some(component);
        self.subject.joint = Joint::Colon;
        self
    }

    /// Reported by the rules of the cluster `name` (one copy shared by its findings).
    pub fn in_cluster(mut self, name: &std::sync::Arc<str>) -> Self {
        self.subject.cluster = Some(std::sync::Arc::clone(name));
        self
    }

    /// Shows the finding's key as output may show it ([`crate::secrets::shown_key`]): in its
    /// `key` and wherever a text of it names the key (as written, in another case, from one of
    /// its segments on). A value that ran into its key (`ssl.keystore.password<NBSP>secret`,
    /// `ssl.key.password\=secret`, a missing `=`) never leaves with a finding about that key,
    /// whichever rule wrote the message. Every finding of a rule goes through it
    /// (`rules::scrub`).
    pub fn hide_secret_in_key(&mut self) {
        let Some(key) = self.key.as_deref() else {
            return;
        };
        let shown = crate::secrets::shown_key(key);
        if shown == key {
            return;
        }
        let shown = shown.into_owned();
        let key = self.key.replace(shown).unwrap_or_default();
        self.hidden_key_digest = Some(digest(&key));
        let texts = std::iter::once(&mut self.message)
            .chain(std::iter::once(&mut self.help))
            .chain(self.labels.iter_mut().map(|label| &mut label.message))
            .chain(self.fix.iter_mut().map(|fix| &mut fix.description));
        for text in texts {
            if let Some(hidden) = crate::secrets::hide_key_in(text, &key) {
                *text = hidden;
            }
        }
    }

    /// Whether `other` is about the same key: the same key as shown, and the same whole key
    /// where output hides part of it.
    pub fn same_key(&self, other: &Diagnostic) -> bool {
        self.key == other.key && self.hidden_key_digest == other.hidden_key_digest
    }

    /// The message as output shows it: the subject's name, then the message. A finding about
    /// several nodes names them all: `brokers 0, 1 and 2: <message>`.
    pub fn headline(&self) -> std::borrow::Cow<'_, str> {
        if !self.also_on.is_empty() {
            let nodes: Vec<&NodeRef> = self.nodes().collect();
            return std::borrow::Cow::Owned(format!("{}: {}", names_of(&nodes), self.message));
        }
        let lead = self.subject.lead_parts();
        if lead.iter().all(|part| part.is_empty()) {
            return std::borrow::Cow::Borrowed(&self.message);
        }
        let mut text = lead.concat();
        text.push_str(&self.message);
        std::borrow::Cow::Owned(text)
    }

    /// The message as a format with a line a location shows it, for a finding located in
    /// `path`, whose name the line gives already: led by no name when the file's name says which
    /// node it is (a `.properties` file holds one node), else by the node's name without its file
    /// (`node 1: `, where the other formats say ``node 1 (docker-compose.yml, service
    /// `kafka-1`): ``; the line's place in the file shows the service), or for a node without
    /// an id, by its part of the file (``service `kafka-1`: ``).
    pub fn headline_in(&self, path: &str) -> std::borrow::Cow<'_, str> {
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let own_file = match (&self.subject.node, &self.subject.component) {
            (Some(node), _) => Some(node.file.as_str()),
            (None, Some(component)) => Some(component.file.as_str()),
            (None, None) => None,
        };
        if !self.also_on.is_empty() {
            return self.headline();
        }
        if self.subject.joint == Joint::Space {
            return self.inline_headline_in(file_name);
        }
        match own_file {
            Some(own) if own == file_name => std::borrow::Cow::Borrowed(&self.message),
            Some(own) => match own
                .strip_prefix(file_name)
                .and_then(|rest| rest.strip_prefix(", "))
            {
                Some(part) => {
                    let name = self.subject.node.as_ref().and_then(NodeRef::short_name);
                    let name = name.as_deref().unwrap_or(part);
                    std::borrow::Cow::Owned(format!("{name}: {}", self.message))
                }
                None => self.headline(),
            },
            None => self.headline(),
        }
    }

    /// [`Diagnostic::headline_in`] for a message the node's name is the subject of: the name
    /// without the file the line names already (`node 1 advertises ...`); a node without an id
    /// keeps its whole name.
    fn inline_headline_in(&self, file_name: &str) -> std::borrow::Cow<'_, str> {
        let Some(node) = self.subject.node.as_ref() else {
            return self.headline();
        };
        let in_file = node.file == file_name
            || node
                .file
                .strip_prefix(file_name)
                .is_some_and(|rest| rest.starts_with(", "));
        match node.short_name().filter(|_| in_file) {
            Some(name) => std::borrow::Cow::Owned(format!("{name} {}", self.message)),
            None => self.headline(),
        }
    }

    /// The finding once per node it is about, for formats that need a location each (concise,
    /// github, SARIF): each about its node, its primary label first, the others after, and
    /// with the edits of its fix in that label's file. A finding about one node is itself.
    pub fn per_node(&self) -> Vec<std::borrow::Cow<'_, Diagnostic>> {
        if self.also_on.is_empty() {
            return vec![std::borrow::Cow::Borrowed(self)];
        }
        let primaries = std::iter::once(0).chain(self.also_on.iter().map(|also| also.label));
        primaries
            .zip(self.nodes())
            .map(|(primary, node)| {
                let label = &self.labels[primary];
                let labels = std::iter::once(label)
                    .chain(self.labels.iter().filter(|other| *other != label))
                    .cloned()
                    .collect();
                let fix = self.fix.as_ref().and_then(|fix| {
                    let edits: Vec<Edit> = fix
                        .edits
                        .iter()
                        .filter(|edit| edit.file == label.file)
                        .cloned()
                        .collect();
                    (!edits.is_empty()).then(|| Fix {
                        description: fix.description.clone(),
                        edits,
                        applicability: fix.applicability,
                    })
                });
                std::borrow::Cow::Owned(Diagnostic {
                    subject: Subject {
                        node: Some(node.clone()),
                        ..self.subject.clone()
                    },
                    labels,
                    fix,
                    also_on: Vec::new(),
                    message: self.message.clone(),
                    help: self.help.clone(),
                    key: self.key.clone(),
                    ..*self
                })
            })
            .collect()
    }

    /// Every place the finding is, a node each for a finding about several nodes (the primary
    /// label first, then each other node's), else its primary label alone.
    pub fn locations(&self) -> impl Iterator<Item = Location<'_>> + '_ {
        let first = Location {
            label: self.primary(),
            node: self.subject.node.as_ref(),
        };
        std::iter::once(first).chain(self.also_on.iter().map(|also| Location {
            label: &self.labels[also.label],
            node: Some(&also.node),
        }))
    }

    /// The nodes the finding is about, in order (none for a finding about no node).
    pub fn nodes(&self) -> impl Iterator<Item = &NodeRef> + '_ {
        self.subject
            .node
            .iter()
            .chain(self.also_on.iter().map(|also| &also.node))
    }

    /// Whether `other` is this finding on another node of the cluster, to be reported once
    /// with it: the same rule, severity, key, message, help, primary label text and fix, about
    /// another node, named before the message (`broker 1 (...): ...`, so that the names of all
    /// read as one subject), and edits that do not overlap.
    pub fn repeats_on_another_node(&self, other: &Diagnostic) -> bool {
        fn fix_kind(diagnostic: &Diagnostic) -> Option<(&str, Applicability)> {
            diagnostic
                .fix
                .as_ref()
                .map(|fix| (fix.description.as_str(), fix.applicability))
        }
        let edits_apart = match (&self.fix, &other.fix) {
            (Some(mine), Some(theirs)) => theirs.edits.iter().all(|edit| {
                mine.edits
                    .iter()
                    .all(|own| own == edit || !own.overlaps(edit))
            }),
            _ => true,
        };
        let about_a_node = |diagnostic: &Diagnostic| {
            diagnostic.subject.node.is_some()
                && diagnostic.subject.component.is_none()
                && diagnostic.subject.joint == Joint::Colon
        };
        about_a_node(self)
            && about_a_node(other)
            && self.rule == other.rule
            && self.severity == other.severity
            && self.stops_startup == other.stops_startup
            && self.same_key(other)
            && self.message == other.message
            && self.help == other.help
            && self.subject.cluster == other.subject.cluster
            && self.primary().message == other.primary().message
            && fix_kind(self) == fix_kind(other)
            && edits_apart
            && !self
                .nodes()
                .any(|node| Some(node) == other.subject.node.as_ref())
    }

    /// Takes in `other`, the same finding on another node (see
    /// [`Diagnostic::repeats_on_another_node`]): its node, its labels and its edits.
    pub fn absorb(&mut self, other: Diagnostic) {
        let mut labels = other.labels.into_iter();
        let primary = labels.next().expect("a finding has a primary label");
        let label = match self.labels.iter().position(|known| *known == primary) {
            Some(known) => known,
            None => {
                self.labels.push(primary);
                self.labels.len() - 1
            }
        };
        self.also_on.push(AlsoOn {
            node: other.subject.node.expect("about a node"),
            label,
        });
        for label in labels {
            if !self.labels.contains(&label) {
                self.labels.push(label);
            }
        }
        if let (Some(fix), Some(theirs)) = (&mut self.fix, other.fix) {
            for edit in theirs.edits {
                if !fix.edits.contains(&edit) {
                    fix.edits.push(edit);
                }
            }
        }
    }

    /// [`Diagnostic::headline`]s compared without building them (findings are sorted by it).
    pub fn cmp_headline(&self, other: &Diagnostic) -> std::cmp::Ordering {
        if !self.also_on.is_empty() || !other.also_on.is_empty() {
            return self.headline().cmp(&other.headline());
        }
        self.headline_bytes().cmp(other.headline_bytes())
    }

    fn headline_bytes(&self) -> impl Iterator<Item = u8> + '_ {
        let lead = self.subject.lead_parts();
        (0..=lead.len())
            .map(move |at| lead.get(at).copied().unwrap_or(&self.message))
            .flat_map(str::bytes)
    }

    pub fn primary(&self) -> &Label {
        &self.labels[0]
    }

    pub fn url(&self) -> String {
        rule_url(self.rule)
    }
}

/// `brokers 0, 1 and 2` for nodes of one kind with ids, each its own; else each name, `broker 0
/// (server.properties), node 3 (controller.properties)`.
fn names_of(nodes: &[&NodeRef]) -> String {
    let kind = nodes.first().and_then(|node| node.kind);
    let ids: Option<Vec<&str>> = nodes
        .iter()
        .map(|node| {
            node.id
                .as_deref()
                .filter(|_| node.kind == kind && node.closes())
        })
        .collect();
    // Two nodes of one id (a fault of its own) are told apart by their files.
    let ids = ids.filter(|ids| {
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        unique.len() == ids.len()
    });
    match (kind, ids) {
        (Some(kind), Some(ids)) => {
            let (last, rest) = ids.split_last().expect("a group has nodes");
            if rest.is_empty() {
                format!("{} {last}", kind.as_str())
            } else {
                format!("{}s {} and {last}", kind.as_str(), rest.join(", "))
            }
        }
        _ => nodes
            .iter()
            .map(|node| node.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// Where a rule's documentation lives.
pub fn rule_url(rule: &str) -> String {
    format!("{}/blob/main/rules/{rule}.md", env!("CARGO_PKG_REPOSITORY"))
}

/// A digest of a hidden key, for [`Diagnostic::hidden_key_digest`]: SipHash with fixed keys, so
/// one run gives one key one digest.
fn digest(key: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)] // SipHasher's fixed keys are the point: the same digest every time
    let mut hasher = std::hash::SipHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}
