//! Membership: why a cluster's files are checked together, and the two decisions that set
//! files of one gathering apart: overlays (files of settings merged into nodes, not nodes) and
//! alternative sets (the same nodes written more than once, which cannot run side by side).

use std::collections::{BTreeMap, BTreeSet};

use super::{Mode, Node};
use crate::source::SourceFile;

/// Why a cluster's files are checked together: what gathered them, which share of that
/// gathering the cluster is, and which of the gathering's files were set apart, with why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Membership {
    pub gathered: Gathered,
    /// `None` when the gathering is one cluster.
    pub share: Option<Share>,
    /// The gathering's node files that are other clusters'.
    pub set_apart: Vec<SetApart>,
}

/// What gathered a cluster's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gathered {
    /// The node files of one folder.
    Folder { path: String },
    /// The nodes alone in sibling folders whose names differ only in a trailing number
    /// (`brokers/b0/`, `brokers/b1/`), `pattern` (`brokers/b*`), that name one quorum.
    NumberedFolders { pattern: String, quorum: String },
    /// The files named together on the command line.
    Named,
    /// The Kafka services of one compose file.
    Compose { path: String },
    /// A Strimzi `Kafka` resource and its node pools.
    Strimzi { resource: String },
    /// The Kafka workloads of a file of Kubernetes manifests (of one namespace of it).
    Manifests { name: String },
    /// The pods a values file of the bitnami/kafka Helm chart makes the chart run.
    HelmValues { path: String },
    /// A Confluent for Kubernetes `Kafka` resource's brokers.
    Confluent { resource: String },
    /// The brokers and controllers of a cp-ansible inventory.
    Ansible { path: String },
    /// The pods a Terraform `helm_release` of the bitnami/kafka chart makes the chart run.
    Terraform { release: String },
    /// The hosts that render an Ansible role's template of a node's `.properties` file.
    AnsibleRole { template: String },
    /// A `[[clusters]]` entry of the config file.
    Declared { name: String },
}

/// Which part of its gathering a cluster is, when the gathering holds more than one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Share {
    /// The nodes of one mode (ZooKeeper-mode brokers and KRaft nodes never run together).
    Mode(Mode),
    /// One of the gathering's alternative sets: the same nodes written more than once (see
    /// `alternatives`), numbered from 1 in file order; `variant` is its files' name with the
    /// numbers written `N` (`server-N.sasl.properties`).
    Alternative {
        index: usize,
        of: usize,
        variant: String,
    },
    /// Kafka's combined single-node KRaft sample, an alternative to the broker + controller
    /// samples beside it.
    StockSample,
}

/// Node files of the gathering that are another cluster's, and that cluster's share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetApart {
    pub files: Vec<usize>,
    /// `None`: the rest of the gathering (the broker + controller samples beside Kafka's
    /// combined-mode one).
    pub share: Option<Share>,
    /// The facts that decided it, in words.
    pub why: String,
}

impl Membership {
    /// A gathering that is one cluster.
    pub fn whole(gathered: Gathered) -> Membership {
        Membership {
            gathered,
            share: None,
            set_apart: Vec::new(),
        }
    }

    /// `folder`, `numbered-folders`, `named`, `compose`, `strimzi`, `kubernetes`, `helm-values`,
    /// `cfk`, `ansible`, `terraform`, `ansible-role` or `declared`.
    pub fn reason(&self) -> &'static str {
        match self.gathered {
            Gathered::Folder { .. } => "folder",
            Gathered::NumberedFolders { .. } => "numbered-folders",
            Gathered::Named => "named",
            Gathered::Compose { .. } => "compose",
            Gathered::Strimzi { .. } => "strimzi",
            Gathered::Manifests { .. } => "kubernetes",
            Gathered::HelmValues { .. } => "helm-values",
            Gathered::Confluent { .. } => "cfk",
            Gathered::Ansible { .. } => "ansible",
            Gathered::Terraform { .. } => "terraform",
            Gathered::AnsibleRole { .. } => "ansible-role",
            Gathered::Declared { .. } => "declared",
        }
    }

    /// What gathered the files, named (`folder conf`, `compose file docker-compose.yml`).
    pub fn subject(&self) -> String {
        match &self.gathered {
            Gathered::Folder { path } => format!("folder {path}"),
            Gathered::NumberedFolders { pattern, .. } => format!("the numbered folders {pattern}"),
            Gathered::Named => "the files named together on the command line".into(),
            Gathered::Compose { path } => format!("compose file {path}"),
            Gathered::Strimzi { resource } => format!("Strimzi resource {resource}"),
            Gathered::Manifests { name } => format!("Kubernetes manifests {name}"),
            Gathered::HelmValues { path } => format!("bitnami/kafka chart values {path}"),
            Gathered::Confluent { resource } => {
                format!("Confluent for Kubernetes resource {resource}")
            }
            Gathered::Ansible { path } => format!("cp-ansible inventory {path}"),
            Gathered::Terraform { release } => format!("bitnami/kafka chart release {release}"),
            Gathered::AnsibleRole { template } => format!("Ansible role template {template}"),
            Gathered::Declared { name } => format!("[[clusters]] entry {name} of the config file"),
        }
    }

    /// Why the cluster's files are together, in words: `the node files of folder conf`,
    /// `alternative 2 of 2 of folder conf`.
    pub fn text(&self) -> String {
        let subject = self.subject();
        match (&self.share, &self.gathered) {
            (Some(share), _) => format!("{} of {subject}", share.text()),
            (None, Gathered::NumberedFolders { quorum, .. }) => {
                format!("the lone nodes of {subject}, which name one quorum ({quorum})")
            }
            (None, Gathered::Named | Gathered::Declared { .. }) => subject,
            (None, Gathered::Compose { .. }) => format!("the Kafka services of {subject}"),
            (None, Gathered::Strimzi { .. }) => format!("the node pools of {subject}"),
            (None, Gathered::Manifests { .. }) => format!("the Kafka workloads of {subject}"),
            (None, Gathered::HelmValues { .. } | Gathered::Terraform { .. }) => {
                format!("the pods of {subject}")
            }
            (None, Gathered::Confluent { .. }) => format!("the brokers of {subject}"),
            (None, Gathered::Ansible { .. } | Gathered::AnsibleRole { .. }) => {
                format!("the hosts of {subject}")
            }
            (None, Gathered::Folder { .. }) => format!("the node files of {subject}"),
        }
    }
}

impl Share {
    /// `alternative 2 of 3`, `the ZooKeeper-mode nodes`, `Kafka's combined-mode sample`.
    pub fn text(&self) -> String {
        match self {
            Share::Mode(Mode::ZooKeeper) => "the ZooKeeper-mode nodes".into(),
            Share::Mode(_) => "the KRaft nodes".into(),
            Share::Alternative { index, of, .. } => format!("alternative {index} of {of}"),
            Share::StockSample => "Kafka's combined-mode single-node sample".into(),
        }
    }

    /// `mode`, `alternative` or `stock-sample`.
    pub fn kind(&self) -> &'static str {
        match self {
            Share::Mode(_) => "mode",
            Share::Alternative { .. } => "alternative",
            Share::StockSample => "stock-sample",
        }
    }
}

/// Keys that say where a node listens or keeps its data.
const PLACE_KEYS: &[&str] = &["listeners", "advertised.listeners", "log.dirs", "log.dir"];

/// A gathering's parsed files split into overlays and nodes, in that order. A fragment (no id,
/// no mode: [`Node::is_fragment`]) beside a real node is an overlay: a layout merges it into
/// the nodes (`broker.rack` and `replica.selector.class` kept in a file of their own). A fragment
/// with no real node beside it is an overlay too when it says nothing of where a node listens or
/// keeps its data (`listeners`, `advertised.listeners`, `log.dirs`, `log.dir`): nothing in it
/// makes it a node. A lone fragment that does is a node file whose id and mode a template or an
/// entrypoint fills in: a node, of an unknown number.
pub(super) fn split_overlays(files: &[SourceFile], nodes: Vec<Node>) -> (Vec<Node>, Vec<Node>) {
    let beside_nodes = nodes.iter().any(|node| !node.is_fragment(files));
    nodes.into_iter().partition(|node| {
        node.is_fragment(files)
            && (beside_nodes
                || !PLACE_KEYS
                    .iter()
                    .any(|key| node.entry(files, key).is_some()))
    })
}

/// One alternative set of a folder's nodes.
#[derive(Debug)]
pub(super) struct Alternative {
    /// The file name with its numbers taken out: `server-N.sasl.properties`.
    pub variant: String,
    /// Indices into the nodes given to [`alternatives`].
    pub nodes: Vec<usize>,
    /// The other sets this one has twins in, by index, with what the twins share.
    pub twins: BTreeMap<usize, Twins>,
}

/// What a set's nodes share with their twins in another set.
#[derive(Debug, Default)]
pub(super) struct Twins {
    pub ids: BTreeSet<i64>,
    pub address: bool,
    pub dir: bool,
}

/// Nodes of one id beyond which a folder is not searched for twins (a folder of alternative
/// sets holds a few copies of each node, not hundreds).
const MOST_COPIES: usize = 64;

/// A folder's nodes as alternative sets, when they are the same nodes written more than once;
/// `None` when they are one cluster.
///
/// The files are grouped by *variant*: the file name with every run of digits taken out
/// (`server-1.properties` and `server-2.properties` are `server-N.properties`,
/// `server-1.sasl.properties` is `server-N.sasl.properties`). The variants are alternative sets,
/// each a cluster checked alone, when there are two or more, every node has a literal id
/// (`node.id` or `broker.id`, 0 or more), and every variant holds a *twin* of a node of another
/// variant: a node with the same id and the same roles, whose name's numbers do not contradict
/// it (`server-1` and `server-1.sasl`; a name without a number, `single-node`, contradicts
/// none), and that shares a place with it: an advertised address `host:port` (from
/// `listeners` without `advertised.listeners`) or a log directory, Kafka's defaults included.
/// Twins are one node written twice: they cannot run side by side (one id, one address, one
/// locked directory). The decision rests on these facts, not on the names alone: two sets with
/// different ids, roles or places stay one cluster whatever their names.
///
/// Otherwise the folder is one cluster, and files of one id are reported by
/// `duplicate-node-id`: two files of one variant (`server-0` and `server-1` both
/// `broker.id=0`, a copy left with the old id), or of variants whose numbers disagree
/// (`kafka-2` and `broker-3`), or that share no place. A copy left with the old id inside one
/// alternative set is reported in that set.
pub(super) fn alternatives(files: &[SourceFile], nodes: &[Node]) -> Option<Vec<Alternative>> {
    let mut ids = Vec::with_capacity(nodes.len());
    for node in nodes {
        let id = node.id_entry(files)?.value.trim().parse::<i64>().ok()?;
        if id < 0 {
            return None;
        }
        ids.push(id);
    }
    let mut sets: Vec<Alternative> = Vec::new();
    let mut set_of = Vec::with_capacity(nodes.len());
    let mut numbers = Vec::with_capacity(nodes.len());
    let shapes: Vec<(String, Vec<String>)> = nodes
        .iter()
        .map(|node| variant(file_name(&files[node.file])))
        .collect();
    let numbered: BTreeSet<&str> = shapes
        .iter()
        .filter(|(_, digits)| !digits.is_empty())
        .map(|(shape, _)| shape.as_str())
        .collect();
    for (index, (shape, digits)) in shapes.iter().enumerate() {
        let variant = match digits.is_empty() {
            true => numbered_base(shape, &numbered).unwrap_or(shape),
            false => shape,
        }
        .to_string();
        numbers.push(digits.clone());
        let set = match sets.iter().position(|set| set.variant == variant) {
            Some(set) => set,
            None => {
                sets.push(Alternative {
                    variant,
                    nodes: Vec::new(),
                    twins: BTreeMap::new(),
                });
                sets.len() - 1
            }
        };
        sets[set].nodes.push(index);
        set_of.push(set);
    }
    if sets.len() < 2 {
        return None;
    }
    let mut by_id: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (index, id) in ids.iter().enumerate() {
        by_id.entry(*id).or_default().push(index);
    }
    let mut places: BTreeMap<usize, Place> = BTreeMap::new();
    for same_id in by_id.values().filter(|same_id| same_id.len() > 1) {
        if same_id.len() > MOST_COPIES {
            return None;
        }
        for (at, &a) in same_id.iter().enumerate() {
            for &b in &same_id[at + 1..] {
                if set_of[a] == set_of[b]
                    || !same_roles(&nodes[a], &nodes[b])
                    || !numbers_agree(&numbers[a], &numbers[b])
                {
                    continue;
                }
                for node in [a, b] {
                    places
                        .entry(node)
                        .or_insert_with(|| Place::of(files, &nodes[node]));
                }
                let (address, dir) = places[&a].shared_with(&places[&b]);
                if !(address || dir) {
                    continue;
                }
                for (this, other) in [(set_of[a], set_of[b]), (set_of[b], set_of[a])] {
                    let twins = sets[this].twins.entry(other).or_default();
                    twins.ids.insert(ids[a]);
                    twins.address |= address;
                    twins.dir |= dir;
                }
            }
        }
    }
    sets.iter().all(|set| !set.twins.is_empty()).then_some(sets)
}

impl Alternative {
    /// Why `other` (this folder's set `index`) is set apart from this set, in words.
    pub(super) fn why_apart(&self, other: &Alternative, index: usize) -> String {
        let Some(twins) = self.twins.get(&index) else {
            return format!(
                "{}: another set of the same nodes in this folder",
                other.variant
            );
        };
        let ids: Vec<String> = twins.ids.iter().map(i64::to_string).collect();
        let places = match (twins.address, twins.dir) {
            (true, true) => "advertised addresses and log directories",
            (true, false) => "advertised addresses",
            _ => "log directories",
        };
        format!(
            "{}: the same nodes written again (node ids {} with the same roles and {places}): \
             they cannot run side by side with these",
            other.variant,
            ids.join(", ")
        )
    }
}

fn file_name(file: &SourceFile) -> &str {
    file.path.rsplit('/').next().unwrap_or_default()
}

/// A file name with every run of digits written `N`, and those numbers (leading zeros
/// dropped).
fn variant(name: &str) -> (String, Vec<String>) {
    let mut shape = String::with_capacity(name.len());
    let mut numbers = Vec::new();
    let mut digits = String::new();
    for c in name.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            shape.push('N');
            let trimmed = digits.trim_start_matches('0');
            numbers.push(if trimmed.is_empty() { "0" } else { trimmed }.to_string());
            digits.clear();
        }
        if c != '\0' {
            shape.push(c);
        }
    }
    (shape, numbers)
}

/// The numbered variant a name without numbers is the base of, when the folder holds exactly one:
/// `server.properties` of `server-N.properties`, `server.sasl.properties` of
/// `server-N.sasl.properties`. Kafka's quickstart makes a cluster on one machine so: copy
/// `config/server.properties` to `server-1.properties` and `server-2.properties` and give each
/// copy its own id, port and log directory (apache/kafka `docs/quickstart.html`, "Setting up a
/// multi-broker cluster", 0.10.0 to 2.5.0): the base is the first node of that set, not a set of
/// its own.
fn numbered_base<'a>(shape: &str, numbered: &BTreeSet<&'a str>) -> Option<&'a str> {
    let stem_end = shape.find('.').unwrap_or(shape.len());
    let (stem, rest) = shape.split_at(stem_end);
    let mut bases = ["-N", "_N", "N", ".N"].iter().filter_map(|mark| {
        numbered
            .get(format!("{stem}{mark}{rest}").as_str())
            .copied()
    });
    match (bases.next(), bases.next()) {
        (Some(base), None) => Some(base),
        _ => None,
    }
}

/// Whether two names' numbers can name one node: the shorter list starts the longer
/// (`server-1` and `server-1.sasl2`; a name without numbers agrees with every name).
fn numbers_agree(a: &[String], b: &[String]) -> bool {
    let shorter = a.len().min(b.len());
    a[..shorter] == b[..shorter]
}

fn same_roles(a: &Node, b: &Node) -> bool {
    (a.mode, a.roles) == (b.mode, b.roles)
}

/// Where a node is: the addresses it advertises and the directories it locks.
struct Place {
    /// `(host, port)`, the host lower-cased (empty for the wildcard).
    addresses: BTreeSet<(String, String)>,
    dirs: BTreeSet<String>,
}

impl Place {
    fn of(files: &[SourceFile], node: &Node) -> Place {
        let version = crate::catalog::KafkaVersion::newest();
        let advertised = node
            .entry(files, "advertised.listeners")
            .map(|entry| entry.value.as_str())
            .or_else(|| {
                node.effective(files, "listeners", version)
                    .map(|listeners| listeners.value())
            })
            .unwrap_or_default();
        let addresses = advertised
            .split(',')
            .map(str::trim)
            .filter_map(|item| {
                let parts = super::address::match_listener(item)?;
                Some((
                    item[parts.host].to_ascii_lowercase(),
                    item[parts.port].to_string(),
                ))
            })
            .collect();
        let dirs = super::exposure::locked_dirs(files, node, version)
            .iter()
            .filter_map(|dir| super::exposure::comparable_path(&dir.path))
            .map(str::to_string)
            .collect();
        Place { addresses, dirs }
    }

    /// Whether the two share an address, and a directory.
    fn shared_with(&self, other: &Place) -> (bool, bool) {
        (
            !self.addresses.is_disjoint(&other.addresses),
            !self.dirs.is_disjoint(&other.dirs),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_is_the_name_without_its_numbers() {
        let (shape, numbers) = variant("server-01.sasl2.properties");
        assert_eq!(shape, "server-N.saslN.properties");
        assert_eq!(numbers, ["1", "2"]);
        assert_eq!(variant("single-node.properties").1, Vec::<String>::new());
    }

    #[test]
    fn a_name_without_numbers_is_the_base_of_the_one_numbered_variant_of_its_stem() {
        let numbered = BTreeSet::from(["server-N.properties", "server-N.sasl.properties"]);
        assert_eq!(
            numbered_base("server.properties", &numbered),
            Some("server-N.properties")
        );
        assert_eq!(
            numbered_base("server.sasl.properties", &numbered),
            Some("server-N.sasl.properties")
        );
        assert_eq!(numbered_base("broker.properties", &numbered), None);
        let two = BTreeSet::from(["server-N.properties", "serverN.properties"]);
        assert_eq!(numbered_base("server.properties", &two), None);
    }

    #[test]
    fn numbers_agree_when_one_list_starts_the_other() {
        let list = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(numbers_agree(&list(&["1"]), &list(&["1", "2"])));
        assert!(numbers_agree(&list(&[]), &list(&["3"])));
        assert!(!numbers_agree(&list(&["2"]), &list(&["3"])));
    }
}
