//! Inventories of Confluent's cp-ansible (YAML `hosts.yml`): each host of the `kafka_broker`
//! group is a broker, each of `kafka_controller` a KRaft controller (a host in both runs two
//! processes), with the `server.properties` cp-ansible renders for them. The reference is
//! cp-ansible at its release tags v6.0.0 to v8.3.0 (`roles/variables/vars/main.yml`,
//! `roles/variables/defaults/main.yml`, `roles/kafka_broker/templates/server.properties.j2`):
//!
//! - the internal topics' replication factors (`offsets.topic`, `transaction.state.log`,
//!   `confluent.license.topic`, `confluent.metadata.topic`, `confluent.balancer.topic`) are
//!   `min(brokers, default_internal_replication_factor)` (3 unless the inventory sets it),
//!   `transaction.state.log.min.isr` `min(2, that)`; `num.partitions=1`,
//!   `log.dirs=/var/lib/kafka/data`; `default.replication.factor`, `min.insync.replicas` and
//!   `auto.create.topics.enable` are never written (Kafka's defaults apply);
//! - `broker.id` is the host's `broker_id`, else its position in the group plus 1 (`node.id`
//!   the same way from 8.1); a controller's `node.id` its `node_id`, else its position plus 9991;
//! - KRaft when the `kafka_controller` group has hosts (7.4 to 7.9), always from 8.0;
//! - `kafka_broker_custom_properties` (and `kafka_controller_custom_properties`) are applied
//!   last and win; Ansible merges them key by key from `all` to the group to the host
//!   (cp-ansible requires `hash_behaviour=merge`).
//!
//! Listeners, the quorum and the ZooKeeper connection cp-ansible builds from host names and
//! ports: set, to values kafkalint does not work out.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::catalog::KafkaVersion;
use crate::properties::{Provenance, Span};
use crate::sources::images::{self, Image};
use crate::sources::yaml::{Node, Scalar};
use crate::sources::{ImageTag, NamedBy, NodeSpec, Runtime, YamlEntry};

/// A host of a group, with the variables the inventory gives it there.
struct Host<'a> {
    /// Its name: one of the names a pattern (`kafka-[1:3].example.com`) stands for.
    name: String,
    /// The key that names it in the inventory.
    span: Span,
    /// Whether a range (`kafka-[1:3]`) names it.
    from_range: bool,
    vars: Option<&'a Node>,
}

/// A group: its own hosts and variables, and its child groups' names.
struct Group<'a> {
    name: String,
    hosts: Vec<Host<'a>>,
    /// Its `vars:`, from every place the inventory writes the group, in order.
    vars: Vec<&'a Node>,
    children: Vec<String>,
}

/// Every group of an inventory document, the top-level ones and those under `children:`,
/// each once: a group written in several places (named as a child under one group, its
/// hosts under another) is one group with the hosts, children and variables of all, as
/// ansible-core's YAML inventory plugin adds them (lib/ansible/plugins/inventory/yaml.py
/// `_parse_group`: `inventory.add_group` returns the group of that name if there is one).
fn groups(document: &Node) -> Vec<Group<'_>> {
    let mut found = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (key, group) in document.entries() {
        if let Some(name) = key.text() {
            collect(name, group, &mut found, &mut at, 0);
        }
    }
    found
}

fn collect<'a>(
    name: &str,
    group: &'a Node,
    found: &mut Vec<Group<'a>>,
    at: &mut HashMap<String, usize>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    let mut hosts = Vec::new();
    for (host, vars) in group.get("hosts").map(Node::entries).unwrap_or_default() {
        let Some(scalar) = host.scalar() else {
            continue;
        };
        let vars = matches!(vars, Node::Map(_)).then_some(vars);
        // `kafka-[1:3]` is three hosts (ansible-core, lib/ansible/inventory/helpers.py and
        // lib/ansible/plugins/inventory/__init__.py `_expand_hostpattern`); a pattern
        // kafkalint does not expand stays one name.
        let expanded = super::role::expand_hosts(scalar.value.trim());
        let from_range = expanded.as_ref().is_some_and(|names| names.len() > 1);
        let names = expanded.unwrap_or_else(|| vec![scalar.value.trim().to_string()]);
        hosts.extend(names.into_iter().map(|name| Host {
            name,
            span: scalar.span.clone(),
            vars,
            from_range,
        }));
    }
    let children: Vec<(&str, &Node)> = group
        .get("children")
        .map(Node::entries)
        .unwrap_or_default()
        .iter()
        .filter_map(|(child, node)| Some((child.text()?, node)))
        .collect();
    let index = *at.entry(name.to_string()).or_insert_with(|| {
        found.push(Group {
            name: name.to_string(),
            hosts: Vec::new(),
            vars: Vec::new(),
            children: Vec::new(),
        });
        found.len() - 1
    });
    let own = &mut found[index];
    own.hosts.extend(hosts);
    own.vars.extend(group.get("vars"));
    for (child, _) in &children {
        if !own.children.iter().any(|known| known == child) {
            own.children.push(child.to_string());
        }
    }
    for (child, node) in children {
        collect(child, node, found, at, depth + 1);
    }
}

/// The most hosts an inventory's ranges (`kafka-[1:3]`) may name: a range is a few
/// characters for many nodes, and a cluster of more brokers than this is not one a range in
/// an inventory stands for.
pub const MAX_RANGE_HOSTS: usize = 1_000;

/// The most hosts an inventory may list: beyond it, its nodes are not guessed at (a cluster's
/// brokers are counted in tens, and every host is a node checked against every other).
pub const MAX_HOSTS: usize = 10_000;

/// An inventory's groups, indexed once so that every question is answered in time linear in
/// its groups and hosts (a diamond of groups or thousands of hosts must not multiply the work).
struct Inventory<'a> {
    groups: &'a [Group<'a>],
    /// Each name's first group: the one whose hosts and children count (a later group of the
    /// same name adds its variables only).
    first: HashMap<&'a str, usize>,
    /// The first groups that name each first group as a child.
    parents: Vec<Vec<usize>>,
    /// The first groups that list each host themselves.
    listed_in: HashMap<&'a str, Vec<usize>>,
    /// Each host's own variables, from every group that lists it, in order.
    host_vars: HashMap<&'a str, Vec<&'a Node>>,
    /// The groups a host is in for each set of groups that list it (hosts mostly share one).
    holding: HashMap<Vec<usize>, Rc<HashSet<usize>>>,
}

impl<'a> Inventory<'a> {
    fn of(groups: &'a [Group<'a>]) -> Inventory<'a> {
        let mut first = HashMap::new();
        for (at, group) in groups.iter().enumerate() {
            first.entry(group.name.as_str()).or_insert(at);
        }
        let mut parents = vec![Vec::new(); groups.len()];
        let mut listed_in: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut host_vars: HashMap<&str, Vec<&Node>> = HashMap::new();
        for (at, group) in groups.iter().enumerate() {
            let counts = first.get(group.name.as_str()) == Some(&at);
            if counts {
                for child in &group.children {
                    if let Some(&child) = first.get(child.as_str()) {
                        parents[child].push(at);
                    }
                }
            }
            for host in &group.hosts {
                let name = host.name.as_str();
                if counts {
                    listed_in.entry(name).or_default().push(at);
                }
                host_vars.entry(name).or_default().extend(host.vars);
            }
        }
        Inventory {
            groups,
            first,
            parents,
            listed_in,
            host_vars,
            holding: HashMap::new(),
        }
    }

    /// The hosts of group `name`: its own and its children's, each once, in order (depth
    /// first, each group visited once: a group that names itself as a child, or a cycle of
    /// them, would go round for ever).
    fn members(&self, name: &str) -> Vec<&'a Host<'a>> {
        let mut hosts = Vec::new();
        let mut seen_hosts = HashSet::new();
        let mut visited = vec![false; self.groups.len()];
        // A stack, not recursion: a chain of groups is as long as the file.
        let mut stack: Vec<usize> = self.first.get(name).copied().into_iter().collect();
        while let Some(at) = stack.pop() {
            if std::mem::replace(&mut visited[at], true) {
                continue;
            }
            let group = &self.groups[at];
            for host in &group.hosts {
                if seen_hosts.insert(host.name.as_str()) {
                    hosts.push(host);
                }
            }
            stack.extend(
                group
                    .children
                    .iter()
                    .rev()
                    .filter_map(|child| self.first.get(child.as_str()).copied()),
            );
        }
        hosts
    }

    /// The first groups `host` is a member of: those that list it, and their parents' up.
    fn holding(&mut self, host: &str) -> Rc<HashSet<usize>> {
        let listed = self.listed_in.get(host).cloned().unwrap_or_default();
        if let Some(found) = self.holding.get(&listed) {
            return Rc::clone(found);
        }
        let mut found: HashSet<usize> = listed.iter().copied().collect();
        let mut stack = listed.clone();
        while let Some(at) = stack.pop() {
            for &parent in &self.parents[at] {
                if found.insert(parent) {
                    stack.push(parent);
                }
            }
        }
        let found = Rc::new(found);
        self.holding.insert(listed, Rc::clone(&found));
        found
    }

    /// How many hosts the inventory lists, each time it lists one.
    fn host_entries(&self) -> usize {
        self.groups.iter().map(|group| group.hosts.len()).sum()
    }
}

/// Whether `document` is a cp-ansible inventory: a `kafka_broker` group with hosts.
pub fn is_inventory(document: &Node) -> bool {
    let groups = groups(document);
    !Inventory::of(&groups).members("kafka_broker").is_empty()
}

/// A variable of `host`, as Ansible resolves it: the host's own, else its groups', else `all`'s
/// (a dictionary merged key by key across them, the nearer winning).
struct Vars<'a> {
    /// From farthest to nearest: `all`, the groups the host is in, the host.
    layers: Vec<&'a Node>,
}

impl<'a> Vars<'a> {
    fn of(inventory: &mut Inventory<'a>, host: &str) -> Vars<'a> {
        let groups = inventory.groups;
        let mut layers = Vec::new();
        for group in groups.iter().filter(|group| group.name == "all") {
            layers.extend(group.vars.iter().copied());
        }
        let holding = inventory.holding(host);
        for group in groups.iter().filter(|group| group.name != "all") {
            if inventory
                .first
                .get(group.name.as_str())
                .is_some_and(|first| holding.contains(first))
            {
                layers.extend(group.vars.iter().copied());
            }
        }
        layers.extend(inventory.host_vars.get(host).into_iter().flatten());
        Vars { layers }
    }

    fn scalar(&self, name: &str) -> Option<&'a Scalar> {
        self.layers
            .iter()
            .rev()
            .find_map(|layer| layer.get(name))
            .and_then(Node::scalar)
            .filter(|scalar| !scalar.is_null())
    }

    /// A dictionary variable merged key by key: its entries, the nearest of each key.
    fn merged(&self, name: &str) -> Vec<(&'a Scalar, &'a Scalar)> {
        let mut entries: Vec<(&Scalar, &Scalar)> = Vec::new();
        for layer in &self.layers {
            for (key, value) in layer.get(name).map(Node::entries).unwrap_or_default() {
                let (Some(key), Some(value)) = (key.scalar(), value.scalar()) else {
                    continue;
                };
                entries.retain(|(old, _)| old.value != key.value);
                entries.push((key, value));
            }
        }
        entries
    }
}

/// Reads a cp-ansible inventory (`document`): its brokers and controllers, with notes.
pub fn read(document: &Node, notes: &mut Vec<String>) -> Vec<NodeSpec> {
    let groups = groups(document);
    let mut inventory = Inventory::of(&groups);
    if inventory.host_entries() > MAX_HOSTS {
        notes.push(format!(
            "cp-ansible inventory listing more than {MAX_HOSTS} hosts: its nodes are not counted or guessed; not checked"
        ));
        return Vec::new();
    }
    let from_ranges = groups
        .iter()
        .flat_map(|group| &group.hosts)
        .filter(|host| host.from_range)
        .count();
    if from_ranges > MAX_RANGE_HOSTS {
        notes.push(format!(
            "cp-ansible inventory whose host ranges name more than {MAX_RANGE_HOSTS} hosts: its nodes are not counted or guessed; not checked"
        ));
        return Vec::new();
    }
    let brokers = inventory.members("kafka_broker");
    let controllers = inventory.members("kafka_controller");
    let zookeepers = inventory.members("zookeeper");
    let first = brokers
        .first()
        .map(|host| host.name.as_str())
        .unwrap_or_default();
    let shared = Vars::of(&mut inventory, first);
    // The Confluent Platform release: `confluent_package_version`, or the archive an
    // `installation_method: archive` inventory names (`.../confluent-7.4.0.tar.gz`).
    let version = shared
        .scalar("confluent_package_version")
        .map(|scalar| (scalar.value.trim().to_string(), scalar))
        .or_else(|| {
            let archive = shared.scalar("confluent_archive_file_source")?;
            let name = archive.value.rsplit('/').next()?;
            let version = name.strip_prefix("confluent-")?.strip_suffix(".tar.gz")?;
            Some((version.to_string(), archive))
        });
    let release = version.as_ref().and_then(|(version, scalar)| {
        Some(ImageTag {
            reference: version.clone(),
            span: scalar.span.clone(),
            release: images::tag_kafka_release(Image::Confluent, version)?,
            named_by: NamedBy::CpAnsible,
        })
    });
    let platform = version
        .as_ref()
        .and_then(|(version, _)| images::release_prefix(version));
    // cp-ansible 8 runs KRaft only; 7.4 to 7.9 when the controller group has hosts.
    let kraft = !controllers.is_empty()
        || platform.is_some_and(|platform| platform >= KafkaVersion::new(8, 0));
    if kraft && !zookeepers.is_empty() {
        notes.push(
            "cp-ansible inventory with both zookeeper and kafka_controller hosts: a ZooKeeper migration (kraft_migration), which kafkalint does not read; not checked".into(),
        );
        return Vec::new();
    }
    // cp-ansible 8.1 and later write node.id (`enable_node_id`); without a version, the newest.
    let node_id_key = if platform.is_none_or(|platform| platform >= KafkaVersion::new(8, 1)) {
        "node.id"
    } else {
        "broker.id"
    };
    let mut nodes = Vec::new();
    for (index, host) in brokers.iter().enumerate() {
        let vars = Vars::of(&mut inventory, &host.name);
        let at = host.span.clone();
        let set =
            |key: &str, value: String| YamlEntry::rendered(key, value, &at, Provenance::Ansible);
        let limit = vars
            .scalar("default_internal_replication_factor")
            .and_then(|scalar| scalar.value.trim().parse::<usize>().ok())
            .unwrap_or(3);
        let factor = brokers.len().min(limit);
        let mut entries = vec![set(
            node_id_key,
            vars.scalar(if node_id_key == "node.id" {
                "node_id"
            } else {
                "broker_id"
            })
            .or_else(|| vars.scalar("broker_id"))
            .map_or((index + 1).to_string(), |id| id.value.trim().to_string()),
        )];
        for key in [
            "offsets.topic.replication.factor",
            "transaction.state.log.replication.factor",
            "confluent.license.topic.replication.factor",
            "confluent.metadata.topic.replication.factor",
            "confluent.balancer.topic.replication.factor",
        ] {
            entries.push(set(key, factor.to_string()));
        }
        entries.push(set(
            "transaction.state.log.min.isr",
            factor.min(2).to_string(),
        ));
        entries.push(set("num.partitions", "1".into()));
        entries.push(set("log.dirs", "/var/lib/kafka/data".into()));
        entries.extend(rendered(kraft, &set));
        if kraft {
            entries.push(set("process.roles", "broker".into()));
        }
        overlay(
            &mut entries,
            custom(&vars, "kafka_broker_custom_properties"),
        );
        nodes.push(node(host, "kafka_broker", entries, release.clone()));
    }
    for (index, host) in controllers.iter().enumerate() {
        let vars = Vars::of(&mut inventory, &host.name);
        let at = host.span.clone();
        let set =
            |key: &str, value: String| YamlEntry::rendered(key, value, &at, Provenance::Ansible);
        let mut entries = vec![set(
            "node.id",
            vars.scalar("node_id")
                .map_or((index + 9991).to_string(), |id| id.value.trim().to_string()),
        )];
        entries.push(set("process.roles", "controller".into()));
        entries.push(set("log.dirs", "/var/lib/controller/data".into()));
        entries.extend(
            rendered(true, &set)
                .into_iter()
                .filter(|entry| entry.key != "advertised.listeners"),
        );
        overlay(
            &mut entries,
            custom(&vars, "kafka_controller_custom_properties"),
        );
        nodes.push(node(host, "kafka_controller", entries, release.clone()));
    }
    nodes
}

/// Keys cp-ansible builds from host names and ports.
fn rendered(kraft: bool, set: &dyn Fn(&str, String) -> YamlEntry) -> Vec<YamlEntry> {
    crate::sources::spec::network_keys(kraft)
        .map(|key| set(key, format!("${{cp-ansible:{key}}}")))
        .collect()
}

/// A custom-properties dictionary as entries at its keys and values.
fn custom(vars: &Vars, name: &str) -> Vec<YamlEntry> {
    vars.merged(name)
        .into_iter()
        .map(|(key, value)| YamlEntry::written(key, value))
        .collect()
}

/// `later` over `entries`: a key set again wins.
fn overlay(entries: &mut Vec<YamlEntry>, later: Vec<YamlEntry>) {
    entries.retain(|entry| !later.iter().any(|written| written.key == entry.key));
    entries.extend(later);
}

fn node(host: &Host, group: &str, entries: Vec<YamlEntry>, release: Option<ImageTag>) -> NodeSpec {
    let name = host.name.trim();
    NodeSpec {
        id: format!("{group} {name}"),
        declared_at: host.span.clone(),
        label: format!("host `{name}` ({group})"),
        entries,
        count_known: true,
        image: None,
        image_tag: release,
        component: None,
        forbidden: Vec::new(),
        ignored_by_release: Vec::new(),
        runtime: Runtime::Machine {
            host: name.to_string(),
        },
        image_exit: None,
        settings_elsewhere: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::yaml;

    fn read_text(text: &str) -> Vec<NodeSpec> {
        let documents = yaml::parse(text).unwrap();
        read(&documents[0], &mut Vec::new())
    }

    fn value<'a>(node: &'a NodeSpec, key: &str) -> Option<&'a str> {
        node.entries
            .iter()
            .rev()
            .find(|entry| entry.key == key)
            .map(|entry| entry.value.as_str())
    }

    /// Membership and variable layers walked the plain way (every group searched for by
    /// name, every host searched for in every group): what the index must answer.
    mod plain {
        use super::super::{Group, Host, Node};

        pub fn members<'a>(groups: &'a [Group<'a>], name: &str) -> Vec<&'a Host<'a>> {
            let (mut hosts, mut visited) = (Vec::new(), Vec::new());
            collect(groups, name, &mut visited, &mut hosts);
            hosts
        }

        fn collect<'a>(
            groups: &'a [Group<'a>],
            name: &str,
            visited: &mut Vec<&'a str>,
            hosts: &mut Vec<&'a Host<'a>>,
        ) {
            for group in groups.iter().filter(|group| group.name == name) {
                if visited.contains(&group.name.as_str()) {
                    continue;
                }
                visited.push(&group.name);
                for host in &group.hosts {
                    if !hosts.iter().any(|seen| seen.name == host.name) {
                        hosts.push(host);
                    }
                }
                for child in &group.children {
                    collect(groups, child, visited, hosts);
                }
            }
        }

        pub fn layers<'a>(groups: &'a [Group<'a>], host: &str) -> Vec<&'a Node> {
            let mut layers = Vec::new();
            for group in groups.iter().filter(|group| group.name == "all") {
                layers.extend(group.vars.iter().copied());
            }
            for group in groups.iter().filter(|group| group.name != "all") {
                if members(groups, &group.name)
                    .iter()
                    .any(|member| member.name == host)
                {
                    layers.extend(group.vars.iter().copied());
                }
            }
            for group in groups {
                for member in group.hosts.iter().filter(|member| member.name == host) {
                    layers.extend(member.vars);
                }
            }
            layers
        }
    }

    /// A YAML inventory of up to 7 top-level groups (with variables, hosts with variables,
    /// and children, some defined again under a parent or never), from `seed`.
    fn generated_inventory(seed: u64) -> String {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = |below: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        let names = [
            "all",
            "kafka_broker",
            "kafka_controller",
            "zookeeper",
            "east",
            "west",
            "g6",
        ];
        let mut text = String::new();
        for _ in 0..1 + next(7) {
            let group = names[next(7) as usize];
            text.push_str(&format!(
                "{group}:\n  vars:\n    v{}: {}\n",
                next(3),
                next(9)
            ));
            text.push_str("  hosts:\n");
            for _ in 0..next(4) {
                text.push_str(&format!(
                    "    h{}:\n      v{}: {}\n",
                    next(5),
                    next(3),
                    next(9)
                ));
            }
            text.push_str("  children:\n");
            for _ in 0..next(4) {
                text.push_str(&format!("    {}:\n", names[next(7) as usize]));
                if next(2) == 0 {
                    text.push_str(&format!("      hosts:\n        h{}:\n", next(5)));
                }
            }
        }
        text
    }

    #[test]
    fn the_index_answers_as_a_walk_over_every_group() {
        let mut compared = 0;
        for seed in 0..5000 {
            let text = generated_inventory(seed);
            let Ok(documents) = yaml::parse(&text) else {
                // A group named twice at the top: not YAML kafkalint reads.
                continue;
            };
            compared += 1;
            let groups = groups(&documents[0]);
            let mut inventory = Inventory::of(&groups);
            let name_of = |hosts: Vec<&Host>| -> Vec<String> {
                hosts.iter().map(|host| host.name.clone()).collect()
            };
            for name in [
                "all",
                "kafka_broker",
                "kafka_controller",
                "zookeeper",
                "east",
                "g6",
                "x",
            ] {
                assert_eq!(
                    name_of(inventory.members(name)),
                    name_of(plain::members(&groups, name)),
                    "{name} in\n{text}"
                );
            }
            for host in (0..5).map(|n| format!("h{n}")) {
                let layers: Vec<*const Node> = Vars::of(&mut inventory, &host)
                    .layers
                    .iter()
                    .map(|layer| *layer as *const Node)
                    .collect();
                let plain: Vec<*const Node> = plain::layers(&groups, &host)
                    .iter()
                    .map(|layer| *layer as *const Node)
                    .collect();
                assert_eq!(layers, plain, "{host} in\n{text}");
            }
        }
        assert!(compared > 1000, "{compared} inventories compared");
    }

    #[test]
    fn hosts_of_child_groups_count_and_a_cycle_ends() {
        let text = "all:\n  children:\n    kafka_broker:\n      children:\n        east:\n          hosts:\n            b1:\n            b2:\n        kafka_broker:\n          hosts:\n            b3:\n";
        let nodes = read_text(text);
        // The group written again under its own `children:` is the same group (Ansible
        // refuses a group that is its own child; the walk must end all the same): its
        // hosts are those of both places. Three brokers: cp-ansible's factor is min(3, 3).
        assert_eq!(nodes.len(), 3, "{nodes:?}");
        assert_eq!(
            value(&nodes[0], "offsets.topic.replication.factor"),
            Some("3")
        );
        assert_eq!(value(&nodes[0], "transaction.state.log.min.isr"), Some("2"));
    }

    #[test]
    fn a_group_written_in_two_places_and_host_ranges() {
        // `kafka_broker` names its racks as children; the racks' hosts are written at the
        // top, with ranges (cp-ansible's sample inventories write `children:` groups so).
        let text = "kafka_broker:\n  children:\n    rack_a:\n    rack_b:\nrack_a:\n  hosts:\n    kafka-a[1:2].example.com:\nrack_b:\n  hosts:\n    kafka-b1.example.com:\n  vars:\n    kafka_broker_custom_properties:\n      broker.rack: b\n";
        let nodes = read_text(text);
        let hosts: Vec<&str> = nodes.iter().map(|node| node.id.as_str()).collect();
        assert_eq!(
            hosts,
            [
                "kafka_broker kafka-a1.example.com",
                "kafka_broker kafka-a2.example.com",
                "kafka_broker kafka-b1.example.com"
            ]
        );
        assert_eq!(value(&nodes[2], "broker.rack"), Some("b"));
        assert_eq!(value(&nodes[0], "broker.rack"), None);
        assert_eq!(
            value(&nodes[0], "offsets.topic.replication.factor"),
            Some("3")
        );
    }

    #[test]
    fn custom_properties_merge_from_all_to_group_to_host() {
        let text = "all:\n  vars:\n    confluent_package_version: 7.6.1\n    kafka_broker_custom_properties:\n      num.io.threads: 4\n      num.partitions: 6\nkafka_broker:\n  vars:\n    kafka_broker_custom_properties:\n      num.partitions: 12\n  hosts:\n    b1:\n      broker_id: 7\n      kafka_broker_custom_properties:\n        broker.rack: a\n    b2:\n";
        let nodes = read_text(text);
        assert_eq!(nodes.len(), 2);
        assert_eq!(value(&nodes[0], "broker.id"), Some("7"));
        assert_eq!(value(&nodes[1], "broker.id"), Some("2"));
        assert_eq!(value(&nodes[0], "num.io.threads"), Some("4"));
        assert_eq!(value(&nodes[0], "num.partitions"), Some("12"));
        assert_eq!(value(&nodes[0], "broker.rack"), Some("a"));
        assert_eq!(value(&nodes[1], "broker.rack"), None);
        assert_eq!(
            value(&nodes[0], "zookeeper.connect"),
            Some("${cp-ansible:zookeeper.connect}")
        );
    }
}
