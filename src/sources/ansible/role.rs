//! Plain Ansible roles that template a Kafka node's configuration
//! (`roles/<role>/templates/server.properties.j2`): the template's lines rendered for each host
//! that runs the role, with the variables Ansible would give it, as far as they are written in
//! the repository.
//!
//! - **Variables**, lowest first (Ansible's precedence, the parts a repository holds): the
//!   role's `defaults/main.yml`; `group_vars/all` (beside the inventory, then beside the
//!   playbooks); the inventory's `all` variables; `group_vars/<group>` and the inventory's
//!   variables of each group the host is in; the host's own (inventory, `host_vars/<host>`);
//!   the role's `vars/main.yml`.
//! - **Hosts**: the group the template itself indexes its hosts by
//!   (`groups['kafka'].index(inventory_hostname)`, which fails on any host outside it), else
//!   the `hosts:` of a playbook beside `roles/` that applies the role; its hosts in the one
//!   inventory beside the playbooks (YAML, or INI). Without both, the template is one node
//!   that stands for an unknown number, and host variables are unknown.
//! - **Jinja**: `{{ name }}` (with `| int`, `| string`, `| default(...)`, `| lower`), dotted
//!   names, `groups['g'].index(inventory_hostname)` and sums of those; `{% if %}` on a line of
//!   its own, on a condition of one variable (`x`, `not x`, `x | default(false)`, `x | bool`,
//!   `x == 'v'`); `{% for k, v in m.items() %}` over a mapping the variables hold, around
//!   `{{ k }}={{ v }}`. Anything else is an unknown value (`{{ ... }}`), which no rule judges;
//!   lines under a condition kafkalint cannot evaluate set their keys to unknown values.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::catalog::KafkaVersion;
use crate::properties::{Provenance, Span};
use crate::sources::yaml::{self, Node};
use crate::sources::{Edit, ImageTag, NamedBy, NodeSpec, Runtime, Style, YamlEntry};

/// Whether `path` is a role's template of a `.properties` file.
pub fn is_role_template(path: &str) -> bool {
    let path = Path::new(path);
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let parent = |path: &Path| -> Option<String> {
        Some(path.parent()?.file_name()?.to_string_lossy().into_owned())
    };
    name.ends_with(".properties.j2")
        && parent(path).as_deref() == Some("templates")
        && path
            .parent()
            .and_then(Path::parent)
            .and_then(parent)
            .as_deref()
            == Some("roles")
}

/// Whether a role's template holds a broker's or controller's keys: cheap, on the bytes.
pub fn worth_reading(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    has(b"process.roles") || has(b"broker.id") || has(b"zookeeper.connect") || has(b"log.dirs")
}

/// How a variable's text was written, which decides what Jinja makes of it in a condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    /// A plain YAML scalar: a boolean (YAML 1.1, as Ansible reads it), a number, or a string.
    Plain,
    /// A quoted YAML scalar: a string.
    Quoted,
    /// An INI inventory's value, whose type Ansible works out itself.
    Ini,
}

/// A variable's value: a scalar's text, a mapping (for `for` loops and dotted names), a list
/// (which no line kafkalint renders takes), or unknown (a template of its own, a `set`).
#[derive(Debug, Clone)]
enum Value {
    Text(String, Written),
    Map(Vec<(String, Value)>),
    List,
    Unknown,
}

impl Value {
    fn of(node: &Node) -> Value {
        match node {
            Node::Scalar(scalar) if scalar.is_null() => Value::Text(String::new(), Written::Plain),
            // A value that is a template itself is worked out by Ansible when it is used.
            Node::Scalar(scalar) if scalar.value.contains("{{") || scalar.value.contains("{%") => {
                Value::Unknown
            }
            Node::Scalar(scalar) => Value::Text(
                scalar.value.clone(),
                if scalar.style == Style::Plain {
                    Written::Plain
                } else {
                    Written::Quoted
                },
            ),
            Node::Seq(_) => Value::List,
            Node::Map(entries) => Value::Map(
                entries
                    .iter()
                    .filter_map(|(key, value)| Some((key.text()?.to_string(), Value::of(value))))
                    .collect(),
            ),
        }
    }

    fn ini(text: &str) -> Value {
        if text.contains("{{") || text.contains("{%") {
            Value::Unknown
        } else {
            Value::Text(text.to_string(), Written::Ini)
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Value::Text(text, _) => Some(text),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// What Jinja's `if` makes of it: `None` when kafkalint cannot tell.
    fn truth(&self) -> Option<bool> {
        let Value::Text(text, written) = self else {
            return None;
        };
        match written {
            Written::Quoted => Some(!text.is_empty()),
            Written::Ini => None,
            Written::Plain => {
                let text = text.trim();
                match text {
                    "" | "~" | "null" | "Null" | "NULL" => Some(false),
                    "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => {
                        Some(true)
                    }
                    "false" | "False" | "FALSE" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => {
                        Some(false)
                    }
                    _ => match text.parse::<f64>() {
                        Ok(number) => Some(number != 0.0),
                        Err(_) => Some(true),
                    },
                }
            }
        }
    }
}

/// Variables in scope, later layers winning.
#[derive(Debug, Default, Clone)]
struct Scope {
    vars: HashMap<String, Value>,
}

impl Scope {
    fn layer(&mut self, node: Option<&Node>) {
        for (key, value) in node.map(Node::entries).unwrap_or_default() {
            if let Some(key) = key.text() {
                self.vars.insert(key.to_string(), Value::of(value));
            }
        }
    }

    fn extend(&mut self, vars: &[(String, Value)]) {
        for (key, value) in vars {
            self.vars.insert(key.clone(), value.clone());
        }
    }

    fn set(&mut self, name: &str, value: &str) {
        self.vars.insert(
            name.to_string(),
            Value::Text(value.to_string(), Written::Quoted),
        );
    }
}

/// The most hosts an inventory may name, ranges expanded: beyond it, which hosts run a role is
/// not guessed at (a cluster's brokers are counted in tens; each host is a node to check).
pub const MAX_HOSTS: usize = 10_000;

/// An inventory: its groups, each with hosts, variables and children.
#[derive(Debug, Default)]
struct Inventory {
    path: PathBuf,
    groups: Vec<InventoryGroup>,
    /// Where each group is in `groups`.
    by_name: HashMap<String, usize>,
    /// A host pattern kafkalint cannot expand (`kafka-[a:z:2]`): the hosts are unknown.
    unexpanded: bool,
    /// How many hosts the groups list, ranges expanded.
    hosts_listed: usize,
    /// More than [`MAX_HOSTS`] hosts: those past it are not read, and the hosts are unknown.
    too_many_hosts: bool,
    /// What the questions below need, worked out once the inventory is read.
    index: OnceCell<InventoryIndex>,
    /// Each group's hosts, worked out when first asked for, and where each host is in them.
    members: RefCell<HashMap<String, Rc<Members>>>,
    /// The groups a host is in, for each set of groups that list it (hosts mostly share one).
    groups_of: RefCell<HashMap<Vec<usize>, Rc<Vec<usize>>>>,
}

#[derive(Debug, Default)]
struct InventoryGroup {
    name: String,
    hosts: Vec<(String, Vec<(String, Value)>)>,
    vars: Vec<(String, Value)>,
    children: Vec<String>,
}

/// A group's hosts in inventory order, and each one's place among them.
#[derive(Debug, Default)]
struct Members {
    hosts: Vec<String>,
    place: HashMap<String, usize>,
}

/// An inventory's groups as a graph, built once: every question about hosts and groups is
/// then answered in time linear in the groups and hosts (a diamond of groups many levels deep
/// has exponentially many paths, which a walk over each path would take).
#[derive(Debug, Default)]
struct InventoryIndex {
    /// `all`'s place: a group of that name, else one past the groups (Ansible's `all` holds
    /// every group whether the inventory writes it or not).
    all: usize,
    /// The children each group names, in order (`all` a place like another's).
    named: Vec<Vec<usize>>,
    /// The groups that hold each one: those that name it, and `all`.
    parents: Vec<Vec<usize>>,
    /// Each group's depth: `all` 0, a group no other names as a child 1, a child one more
    /// than its deepest parent (Ansible applies shallower groups' variables first).
    depth: Vec<usize>,
    /// The groups that list each host themselves.
    listed_in: HashMap<String, Vec<usize>>,
    /// Where each host is listed (group, place among its hosts), in inventory order.
    listings: HashMap<String, Vec<(usize, usize)>>,
}

impl InventoryIndex {
    fn of(groups: &[InventoryGroup], by_name: &HashMap<String, usize>) -> InventoryIndex {
        let all = by_name.get("all").copied().unwrap_or(groups.len());
        let nodes = groups.len().max(all + 1);
        let mut named: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for (at, group) in groups.iter().enumerate() {
            for child in &group.children {
                let child = if child == "all" {
                    Some(all)
                } else {
                    by_name.get(child).copied()
                };
                named[at].extend(child);
            }
        }
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for (at, children) in named.iter().enumerate() {
            for &child in children {
                parents[child].push(at);
            }
        }
        for (at, parents) in parents.iter_mut().enumerate() {
            if at != all {
                parents.push(all);
            }
        }
        // Each parent once, for the depths.
        let distinct: Vec<Vec<usize>> = named
            .iter()
            .map(|children| {
                let mut children = children.clone();
                children.sort_unstable();
                children.dedup();
                children
            })
            .collect();
        // Depths in topological order (Kahn's algorithm) over the children groups name; a
        // group's depth never depends on `all`'s parents (it is 0).
        let mut waiting: Vec<usize> = vec![0; nodes];
        for children in &distinct {
            for &child in children.iter().filter(|&&child| child != all) {
                waiting[child] += 1;
            }
        }
        let mut depth: Vec<Option<usize>> = vec![None; nodes];
        let mut ready: Vec<usize> = (0..nodes).filter(|&at| waiting[at] == 0).collect();
        let mut deepest: Vec<usize> = vec![0; nodes];
        while let Some(at) = ready.pop() {
            let own = if at == all {
                0
            } else if deepest[at] == 0 {
                1
            } else {
                deepest[at]
            };
            depth[at] = Some(own);
            for &child in distinct[at].iter().filter(|&&child| child != all) {
                deepest[child] = deepest[child].max(own + 1);
                waiting[child] -= 1;
                if waiting[child] == 0 {
                    ready.push(child);
                }
            }
        }
        // Groups in a cycle (which Ansible refuses): a parent in the cycle counts as depth 1.
        let mut named_by: Vec<Vec<usize>> = vec![Vec::new(); nodes];
        for (parent, children) in distinct.iter().enumerate() {
            for &child in children {
                named_by[child].push(parent);
            }
        }
        let depth: Vec<usize> = (0..nodes)
            .map(|at| {
                depth[at].unwrap_or_else(|| {
                    named_by[at]
                        .iter()
                        .map(|&parent| depth[parent].unwrap_or(1) + 1)
                        .max()
                        .unwrap_or(1)
                })
            })
            .collect();
        let mut listed_in: HashMap<String, Vec<usize>> = HashMap::new();
        let mut listings: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
        for (at, group) in groups.iter().enumerate() {
            for (place, (host, _)) in group.hosts.iter().enumerate() {
                let listed = listed_in.entry(host.clone()).or_default();
                if listed.last() != Some(&at) {
                    listed.push(at);
                }
                listings.entry(host.clone()).or_default().push((at, place));
            }
        }
        InventoryIndex {
            all,
            named,
            parents,
            depth,
            listed_in,
            listings,
        }
    }
}

impl Inventory {
    fn group(&self, name: &str) -> Option<&InventoryGroup> {
        self.by_name.get(name).map(|&at| &self.groups[at])
    }

    /// The place of group `name`, added when new.
    fn group_at(&mut self, name: &str) -> usize {
        if let Some(&at) = self.by_name.get(name) {
            return at;
        }
        self.groups.push(InventoryGroup {
            name: name.to_string(),
            ..InventoryGroup::default()
        });
        self.by_name.insert(name.to_string(), self.groups.len() - 1);
        self.groups.len() - 1
    }

    fn index(&self) -> &InventoryIndex {
        self.index
            .get_or_init(|| InventoryIndex::of(&self.groups, &self.by_name))
    }

    /// The hosts of `name` and its children, each once, in inventory order.
    fn members(&self, name: &str) -> Vec<String> {
        self.members_of(name).hosts.clone()
    }

    /// Where `host` is among the hosts of group `name`.
    fn position(&self, name: &str, host: &str) -> Option<usize> {
        self.members_of(name).place.get(host).copied()
    }

    fn members_of(&self, name: &str) -> Rc<Members> {
        if let Some(found) = self.members.borrow().get(name) {
            return Rc::clone(found);
        }
        let index = self.index();
        let start = if name == "all" {
            Some(index.all)
        } else {
            self.by_name.get(name).copied()
        };
        let mut members = Members::default();
        /// A step of the walk: a group to visit, or a group whose own hosts come next.
        enum Step {
            Visit(usize),
            List(usize),
        }
        // Depth first, children in order, each group once; a stack, not recursion: a chain
        // of groups is as long as the file.
        let mut visited = vec![false; index.named.len()];
        let mut stack: Vec<Step> = start.map(Step::Visit).into_iter().collect();
        while let Some(step) = stack.pop() {
            match step {
                Step::List(at) => {
                    for (host, _) in &self.groups[at].hosts {
                        if !members.place.contains_key(host) {
                            members.place.insert(host.clone(), members.hosts.len());
                            members.hosts.push(host.clone());
                        }
                    }
                }
                Step::Visit(at) => {
                    if std::mem::replace(&mut visited[at], true) {
                        continue;
                    }
                    stack.extend(
                        index.named[at]
                            .iter()
                            .rev()
                            .map(|&child| Step::Visit(child)),
                    );
                    if at < self.groups.len() {
                        stack.push(Step::List(at));
                    }
                    if at == index.all {
                        // `all` holds every group: each is visited before its own hosts.
                        stack.extend((0..self.groups.len()).rev().map(Step::Visit));
                    }
                }
            }
        }
        let members = Rc::new(members);
        self.members
            .borrow_mut()
            .insert(name.to_string(), Rc::clone(&members));
        members
    }

    /// The groups other than `all` that `host` is in, directly or through a parent's
    /// children, shallowest first, then by name: the order Ansible applies their variables.
    fn groups_of(&self, host: &str) -> Vec<&InventoryGroup> {
        let index = self.index();
        let listed = index.listed_in.get(host).cloned().unwrap_or_default();
        let known = self.groups_of.borrow().get(&listed).cloned();
        let holding = match known {
            Some(holding) => holding,
            None => {
                let mut seen = std::collections::HashSet::new();
                let mut stack = listed.clone();
                let mut holding = Vec::new();
                while let Some(at) = stack.pop() {
                    if !seen.insert(at) {
                        continue;
                    }
                    if at < self.groups.len() && self.groups[at].name != "all" {
                        holding.push(at);
                    }
                    stack.extend(&index.parents[at]);
                }
                holding.sort_by(|&a, &b| {
                    index.depth[a]
                        .cmp(&index.depth[b])
                        .then_with(|| self.groups[a].name.cmp(&self.groups[b].name))
                });
                let holding = Rc::new(holding);
                self.groups_of
                    .borrow_mut()
                    .insert(listed, Rc::clone(&holding));
                holding
            }
        };
        holding.iter().map(|&at| &self.groups[at]).collect()
    }

    /// The variables the inventory gives `host` itself, in the order it lists them.
    fn host_vars(&self, host: &str) -> impl Iterator<Item = &[(String, Value)]> {
        self.index()
            .listings
            .get(host)
            .into_iter()
            .flatten()
            .map(|&(group, place)| &self.groups[group].hosts[place].1[..])
    }

    fn read(path: &Path) -> Option<Inventory> {
        let bytes = crate::source::read_file(path).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let mut inventory = Inventory {
            path: path.to_path_buf(),
            ..Inventory::default()
        };
        if yaml::is_yaml_name(&name) {
            let documents = yaml::parse(&text).ok()?;
            yaml_groups(documents.first()?, &mut inventory);
        } else {
            ini_groups(&text, &mut inventory);
        }
        (!inventory.groups.is_empty()).then_some(inventory)
    }

    /// Adds `pattern`'s hosts (a range `kafka-[1:3]` expanded) to `group`, up to
    /// [`MAX_HOSTS`] in all.
    fn add_hosts(&mut self, group: usize, pattern: &str, vars: Vec<(String, Value)>) {
        if self.too_many_hosts {
            return;
        }
        match expand_hosts(pattern) {
            Some(hosts) if self.hosts_listed + hosts.len() > MAX_HOSTS => {
                self.too_many_hosts = true;
            }
            Some(hosts) => {
                self.hosts_listed += hosts.len();
                for host in hosts {
                    self.groups[group].hosts.push((host, vars.clone()));
                }
            }
            None => self.unexpanded = true,
        }
    }
}

/// The hosts a pattern names: itself, or each of a numeric or alphabetic range
/// (`kafka-[01:03]`, `node-[a:c]`); `None` for a range kafkalint does not expand (a step, two
/// ranges).
fn expand_hosts(pattern: &str) -> Option<Vec<String>> {
    let Some(open) = pattern.find('[') else {
        return Some(vec![pattern.to_string()]);
    };
    let close = open + pattern[open..].find(']')?;
    let (before, range, after) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    if after.contains('[') {
        return None;
    }
    let (first, last) = range.split_once(':')?;
    if last.contains(':') {
        return None;
    }
    let hosts: Vec<String> = if let (Ok(a), Ok(b)) = (first.parse::<u32>(), last.parse::<u32>()) {
        if b < a || b - a > 1000 {
            return None;
        }
        let width = first.len();
        (a..=b)
            .map(|n| format!("{before}{n:0width$}{after}"))
            .collect()
    } else {
        let (a, b) = (first.as_bytes(), last.as_bytes());
        let ([a], [b]) = (a, b) else { return None };
        if !a.is_ascii_alphabetic() || !b.is_ascii_alphabetic() || b < a {
            return None;
        }
        (*a..=*b)
            .map(|c| format!("{before}{}{after}", c as char))
            .collect()
    };
    Some(hosts)
}

/// The groups of a YAML inventory: top-level groups and those under `children:`.
fn yaml_groups(document: &Node, inventory: &mut Inventory) {
    fn collect(name: &str, node: &Node, inventory: &mut Inventory, depth: usize) {
        if depth > 32 {
            return;
        }
        let vars = |node: Option<&Node>| -> Vec<(String, Value)> {
            node.map(Node::entries)
                .unwrap_or_default()
                .iter()
                .filter_map(|(k, v)| Some((k.text()?.to_string(), Value::of(v))))
                .collect()
        };
        let index = inventory.group_at(name);
        for (host, host_vars) in node.get("hosts").map(Node::entries).unwrap_or_default() {
            if let Some(host) = host.text() {
                inventory.add_hosts(index, host, vars(Some(host_vars)));
            }
        }
        let own = vars(node.get("vars"));
        inventory.groups[index].vars.extend(own);
        for (child, child_node) in node.get("children").map(Node::entries).unwrap_or_default() {
            if let Some(child) = child.text() {
                inventory.groups[index].children.push(child.to_string());
                collect(child, child_node, inventory, depth + 1);
            }
        }
    }
    for (key, group) in document.entries() {
        if let Some(name) = key.text() {
            collect(name, group, inventory, 0);
        }
    }
}

/// The groups of an INI inventory: `[group]` host lines (`name key=value ...`),
/// `[group:vars]` and `[group:children]`; hosts before any section are in `ungrouped`.
fn ini_groups(text: &str, inventory: &mut Inventory) {
    let mut section = ("ungrouped".to_string(), "");
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            section = match header.split_once(':') {
                Some((name, "vars")) => (name.to_string(), "vars"),
                Some((name, "children")) => (name.to_string(), "children"),
                _ => (header.to_string(), ""),
            };
            continue;
        }
        let index = inventory.group_at(&section.0);
        match section.1 {
            "vars" => {
                if let Some((key, value)) = line.split_once('=') {
                    inventory.groups[index]
                        .vars
                        .push((key.trim().to_string(), Value::ini(&ini_value(value.trim()))));
                }
            }
            "children" => inventory.groups[index].children.push(line.to_string()),
            _ => {
                let mut words = line.split_whitespace();
                let Some(host) = words.next() else { continue };
                let vars = words
                    .filter_map(|word| word.split_once('='))
                    .map(|(key, value)| (key.to_string(), Value::ini(&ini_value(value))))
                    .collect();
                inventory.add_hosts(index, host, vars);
            }
        }
    }
}

fn ini_value(value: &str) -> String {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value)
        .to_string()
}

/// A layer of variables kafkalint cannot read (an Ansible Vault file, a file that is not
/// YAML): the variables it sets are unknown, so nothing that names one can be judged.
#[derive(Debug)]
struct Unreadable(String);

/// The variables of `dir/<stem>`: a YAML file (`stem.yml`, `stem.yaml`, `stem`), or a
/// folder of them (`group_vars/kafka/*.yml`), merged in name order.
fn vars_of(dir: &Path, stem: &str) -> Result<Vec<Node>, Unreadable> {
    let read = |path: &Path| -> Result<Option<Node>, Unreadable> {
        let bytes =
            crate::source::read_file(path).map_err(|_| Unreadable(path.display().to_string()))?;
        if bytes.starts_with(b"$ANSIBLE_VAULT") {
            return Err(Unreadable(path.display().to_string()));
        }
        let text =
            std::str::from_utf8(&bytes).map_err(|_| Unreadable(path.display().to_string()))?;
        let documents = yaml::parse(text).map_err(|_| Unreadable(path.display().to_string()))?;
        Ok(documents.into_iter().next())
    };
    let mut found = Vec::new();
    for name in [
        format!("{stem}.yml"),
        format!("{stem}.yaml"),
        stem.to_string(),
    ] {
        let path = dir.join(&name);
        if path.is_file() {
            found.extend(read(&path)?);
            return Ok(found);
        }
    }
    let folder = dir.join(stem);
    if let Ok(entries) = std::fs::read_dir(&folder) {
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && yaml::is_yaml_name(&path.to_string_lossy()))
            .collect();
        files.sort();
        for file in files {
            found.extend(read(&file)?);
        }
    }
    Ok(found)
}

/// A play that applies the role: its hosts, and the variables it gives.
#[derive(Debug)]
struct Play {
    hosts: String,
    vars: Vec<Node>,
    /// The role's parameters in the play's `roles:` entry (`- role: kafka` with `x: 1`, or
    /// its `vars:`).
    params: Vec<(String, Value)>,
}

/// Where a role sits: its folder, its name, and the folder of the playbooks (above `roles/`).
struct Role {
    dir: PathBuf,
    name: String,
    project: PathBuf,
}

impl Role {
    fn of(path: &str) -> Option<Role> {
        let dir = Path::new(path).parent()?.parent()?.to_path_buf();
        let name = dir.file_name()?.to_string_lossy().into_owned();
        let project = match dir.parent()?.parent() {
            Some(project) if !project.as_os_str().is_empty() => project.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Some(Role { dir, name, project })
    }

    /// The inventories beside the playbooks: `hosts.yml`, `hosts.ini`, `inventory/...`,
    /// `inventories/<env>/...`.
    fn inventories(&self) -> Vec<Inventory> {
        let names = [
            "hosts.yml",
            "hosts.yaml",
            "hosts.ini",
            "hosts",
            "inventory.yml",
            "inventory.yaml",
            "inventory.ini",
        ];
        let mut dirs = vec![self.project.clone(), self.project.join("inventory")];
        if let Ok(entries) = std::fs::read_dir(self.project.join("inventories")) {
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.is_dir())
                .collect();
            found.sort();
            dirs.extend(found);
        }
        let mut inventories = Vec::new();
        for dir in dirs {
            for name in names {
                let path = dir.join(name);
                if path.is_file()
                    && let Some(inventory) = Inventory::read(&path)
                {
                    inventories.push(inventory);
                }
            }
        }
        inventories
    }

    /// The plays of the playbooks beside `roles/` that apply the role, with the variables
    /// they give it; `Err` when one names a variables file kafkalint cannot read.
    fn plays(&self) -> Result<Vec<Play>, Unreadable> {
        let Ok(entries) = std::fs::read_dir(&self.project) else {
            return Ok(Vec::new());
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && yaml::is_yaml_name(&path.to_string_lossy()))
            .collect();
        paths.sort();
        let mut plays = Vec::new();
        for path in paths {
            let Ok(bytes) = crate::source::read_file(&path) else {
                continue;
            };
            let Ok(documents) = yaml::parse(&String::from_utf8_lossy(&bytes)) else {
                continue;
            };
            for play in documents.iter().flat_map(Node::items) {
                let entry = play
                    .get("roles")
                    .map(Node::items)
                    .unwrap_or_default()
                    .iter()
                    .find(|role| {
                        role.text()
                            .or_else(|| role.get("role").and_then(Node::text))
                            .or_else(|| role.get("name").and_then(Node::text))
                            .is_some_and(|name| name.trim() == self.name)
                    });
                let (Some(entry), Some(hosts)) = (entry, play.get("hosts").and_then(Node::text))
                else {
                    continue;
                };
                let mut vars: Vec<Node> = play.get("vars").cloned().into_iter().collect();
                for file in play.get("vars_files").map(Node::items).unwrap_or_default() {
                    let Some(file) = file.text() else {
                        return Err(Unreadable("a vars_files entry".into()));
                    };
                    let stem = file.trim();
                    let file_path = self.project.join(stem);
                    let dir = file_path.parent().unwrap_or(&self.project);
                    let name = file_path
                        .file_name()
                        .map(|name| name.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let found = vars_of(dir, &name)?;
                    if found.is_empty() {
                        return Err(Unreadable(stem.to_string()));
                    }
                    vars.extend(found);
                }
                let mut params = Vec::new();
                for (key, value) in entry.entries() {
                    match key.text() {
                        Some("role" | "name" | "tags" | "when" | "become" | "delegate_to")
                        | None => {}
                        Some("vars") => params.extend(
                            value
                                .entries()
                                .iter()
                                .filter_map(|(k, v)| Some((k.text()?.to_string(), Value::of(v)))),
                        ),
                        Some(name) => params.push((name.to_string(), Value::of(value))),
                    }
                }
                plays.push(Play {
                    hosts: hosts.trim().to_string(),
                    vars,
                    params,
                });
            }
        }
        Ok(plays)
    }
}

/// The group a template indexes its hosts by: `groups['g'].index(inventory_hostname)` or
/// `groups.g.index(inventory_hostname)`.
fn indexed_group(text: &str) -> Option<String> {
    let at = text.find(".index(inventory_hostname)")?;
    let before = text[..at].trim_end_matches(|c: char| c == ')' || c.is_whitespace());
    let before = before
        .strip_suffix("| list")
        .map(str::trim_end)
        .unwrap_or(before);
    let name = if let Some(rest) = before
        .strip_suffix("']")
        .or_else(|| before.strip_suffix("\"]"))
    {
        let start = rest.rfind(['\'', '"'])?;
        rest[start + 1..].to_string()
    } else {
        let start = before.rfind("groups.")?;
        before[start + "groups.".len()..].to_string()
    };
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    valid.then_some(name)
}

/// Reads the role template at `path` (whose text is `text`): a node per host that runs it.
pub fn read(path: &str, text: &str, notes: &mut Vec<String>) -> Vec<NodeSpec> {
    let Some(role) = Role::of(path) else {
        return Vec::new();
    };
    let name = &role.name;
    if let Some((open, why)) = unread_tag(text) {
        // An unclosed tag fails Jinja's lexer (TemplateSyntaxError): Ansible renders nothing.
        // A tag over several lines is template code where kafkalint reads lines of the file.
        notes.push(format!(
            "role `{name}`: a `{open}` of its template {why}; not checked"
        ));
        return Vec::new();
    }
    let unreadable = |notes: &mut Vec<String>, Unreadable(what): Unreadable| {
        notes.push(format!(
            "role `{name}`: its variables come from {what}, which kafkalint cannot read (a vault, not YAML); not checked"
        ));
        Vec::new()
    };
    let defaults = match vars_of(&role.dir.join("defaults"), "main") {
        Ok(found) => found,
        Err(why) => return unreadable(notes, why),
    };
    let role_vars = match vars_of(&role.dir.join("vars"), "main") {
        Ok(found) => found,
        Err(why) => return unreadable(notes, why),
    };
    let plays = match role.plays() {
        Ok(plays) => plays,
        Err(why) => return unreadable(notes, why),
    };
    let inventories = role.inventories();
    // The hosts: the group the template indexes, else the plays' (one group for all).
    let mut groups: Vec<&str> = plays.iter().map(|play| play.hosts.as_str()).collect();
    groups.sort_unstable();
    groups.dedup();
    let indexed = indexed_group(text);
    let group = match (indexed.as_deref(), groups.as_slice()) {
        (Some(group), _) => Some(group.to_string()),
        (None, [group]) => Some(group.to_string()),
        (None, []) => {
            notes.push(format!(
                "role `{name}`: no playbook beside it says which hosts run it; read as one node of an unknown number"
            ));
            None
        }
        (None, _) => {
            notes.push(format!(
                "role `{name}`: plays apply it to several groups ({}); read as one node of an unknown number",
                groups.join(", ")
            ));
            None
        }
    };
    let play = plays
        .iter()
        .find(|play| Some(play.hosts.as_str()) == group.as_deref())
        .or_else(|| plays.first());
    let inventory = match &group {
        Some(group) => {
            let holding: Vec<&Inventory> = inventories
                .iter()
                .filter(|inventory| {
                    !inventory.members(group).is_empty()
                        || inventory.unexpanded
                        || inventory.too_many_hosts
                })
                .collect();
            match holding.as_slice() {
                [one] if !one.unexpanded && !one.too_many_hosts => Some(*one),
                [one] if one.too_many_hosts => {
                    notes.push(format!(
                        "role `{name}`: the inventory {} names more than {MAX_HOSTS} hosts; read as one node of an unknown number",
                        one.path.display()
                    ));
                    None
                }
                [_] => {
                    notes.push(format!(
                        "role `{name}`: the inventory names its hosts with a pattern kafkalint does not expand; read as one node of an unknown number"
                    ));
                    None
                }
                [] => {
                    notes.push(format!(
                        "role `{name}` runs on the hosts of group `{group}`, which no inventory beside its playbooks holds; read as one node of an unknown number"
                    ));
                    None
                }
                _ => {
                    notes.push(format!(
                        "role `{name}` runs on group `{group}`, which several inventories hold ({}); read as one node of an unknown number",
                        holding
                            .iter()
                            .map(|inventory| inventory.path.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                    None
                }
            }
        }
        None => None,
    };
    // The folders whose `group_vars/` and `host_vars/` apply: the inventory's, then the
    // playbooks'.
    let mut var_dirs: Vec<PathBuf> = inventory
        .and_then(|inventory| inventory.path.parent())
        .map(Path::to_path_buf)
        .into_iter()
        .collect();
    if !var_dirs.contains(&role.project) {
        var_dirs.push(role.project.clone());
    }
    // Ansible's order, lowest first, as far as a repository holds it: role defaults;
    // the inventory file's group variables (`all`, then each group by depth and name);
    // `group_vars/all`; `group_vars/<group>` by depth and name; the inventory's host
    // variables; `host_vars/<host>`; the play's `vars` and `vars_files`; the role's
    // `vars/main.yml`; the role's parameters in the play.
    let scope_for = |host: Option<&str>| -> Result<Scope, Unreadable> {
        let mut scope = Scope::default();
        defaults.iter().for_each(|node| scope.layer(Some(node)));
        let member_groups = match (inventory, host) {
            (Some(inventory), Some(host)) => inventory.groups_of(host),
            _ => Vec::new(),
        };
        if let Some(inventory) = inventory {
            if let Some(all) = inventory.group("all") {
                scope.extend(&all.vars);
            }
            for group in &member_groups {
                scope.extend(&group.vars);
            }
        }
        for dir in &var_dirs {
            for node in vars_of(&dir.join("group_vars"), "all")? {
                scope.layer(Some(&node));
            }
        }
        for group in &member_groups {
            for dir in &var_dirs {
                for node in vars_of(&dir.join("group_vars"), &group.name)? {
                    scope.layer(Some(&node));
                }
            }
        }
        if let (Some(inventory), Some(host)) = (inventory, host) {
            for vars in inventory.host_vars(host) {
                scope.extend(vars);
            }
            for dir in &var_dirs {
                for node in vars_of(&dir.join("host_vars"), host)? {
                    scope.layer(Some(&node));
                }
            }
            scope.set("inventory_hostname", host);
        }
        if let Some(play) = play {
            play.vars.iter().for_each(|node| scope.layer(Some(node)));
        }
        role_vars.iter().for_each(|node| scope.layer(Some(node)));
        if let Some(play) = play {
            scope.extend(&play.params);
        }
        Ok(scope)
    };
    let mut nodes = Vec::new();
    match (inventory, &group) {
        (Some(inventory), Some(group)) => {
            for (position, host) in inventory.members(group).iter().enumerate() {
                let scope = match scope_for(Some(host)) {
                    Ok(scope) => scope,
                    Err(why) => return unreadable(notes, why),
                };
                let groups = Groups {
                    inventory: Some(inventory),
                    host: Some((host.as_str(), position)),
                };
                let rendered = render(text, &scope, &groups, notes);
                nodes.push(node_spec(
                    &role,
                    Some(host),
                    &format!("{} {host}", role.name),
                    rendered,
                    true,
                    release(&scope),
                ));
            }
        }
        _ => {
            let scope = match scope_for(None) {
                Ok(scope) => scope,
                Err(why) => return unreadable(notes, why),
            };
            let groups = Groups {
                inventory: None,
                host: None,
            };
            let rendered = render(text, &scope, &groups, notes);
            nodes.push(node_spec(
                &role,
                None,
                &format!("{} (every host)", role.name),
                rendered,
                false,
                release(&scope),
            ));
        }
    }
    nodes
}

/// The Kafka release a variable names (`kafka_version: 3.9.0`), at the top of the template.
fn release(scope: &Scope) -> Option<ImageTag> {
    let version = scope.vars.get("kafka_version")?.text()?.trim().to_string();
    let release = KafkaVersion::parse(&version).ok()?;
    Some(ImageTag {
        reference: format!("kafka_version {version}"),
        span: 0..0,
        release,
        named_by: NamedBy::AnsibleVariable,
    })
}

fn node_spec(
    role: &Role,
    host: Option<&String>,
    id: &str,
    rendered: Rendered,
    count_known: bool,
    release: Option<ImageTag>,
) -> NodeSpec {
    let label = match host {
        Some(host) => format!("host `{host}` (role `{}`)", role.name),
        None => format!("role `{}` (its hosts, an unknown number)", role.name),
    };
    NodeSpec {
        id: format!("role {id}"),
        declared_at: 0..0,
        label,
        entries: rendered.entries,
        count_known,
        image: None,
        image_tag: release,
        component: None,
        forbidden: Vec::new(),
        ignored_by_release: Vec::new(),
        runtime: Runtime::Machine {
            host: host
                .cloned()
                .unwrap_or_else(|| format!("role {}", role.name)),
        },
        image_exit: None,
        settings_elsewhere: rendered.keys_unknown,
    }
}

/// What `groups[...]` means for the host being rendered.
struct Groups<'a> {
    inventory: Option<&'a Inventory>,
    /// The host, and its position in the role's group.
    host: Option<(&'a str, usize)>,
}

/// Whether lines are rendered: a condition's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Branch {
    Taken,
    NotTaken,
    Unknown,
}

/// A template rendered: its settings, and whether it may set keys kafkalint could not read
/// (an `include`, a loop it cannot unroll, a key it cannot work out), whose Kafka defaults
/// are then not judged.
struct Rendered {
    entries: Vec<YamlEntry>,
    keys_unknown: bool,
}

/// Statements that bring in lines or keys kafkalint does not see.
const OPAQUE_STATEMENTS: &[&str] = &[
    "include", "import", "from", "extends", "block", "macro", "call", "filter", "raw",
];

/// The most nested `if`s followed; deeper ones make what they hold unknown.
const MAX_CONDITIONS: usize = 64;

/// Whether a line is rendered, within lines rendered `outside` and an `if` branch `branch`.
fn within(outside: Branch, branch: Branch) -> Branch {
    match (outside, branch) {
        (Branch::NotTaken, _) | (_, Branch::NotTaken) => Branch::NotTaken,
        (Branch::Unknown, _) | (_, Branch::Unknown) => Branch::Unknown,
        _ => Branch::Taken,
    }
}

/// Renders the template's lines into settings.
fn render(text: &str, scope: &Scope, groups: &Groups, notes: &mut Vec<String>) -> Rendered {
    let mut scope = scope.clone();
    let mut entries = Vec::new();
    let mut keys_unknown = false;
    // Each open `if`: its branch now, and whether an earlier branch of it was taken (Taken),
    // may have been (Unknown), or was not (NotTaken).
    let mut conditions: Vec<(Branch, Branch)> = Vec::new();
    // Beside each open `if`, whether the lines around it are rendered: the state of a line
    // is then its innermost `if`'s branch within that, not a fold over every open `if`
    // (40,000 nested ones made that quadratic).
    let mut around: Vec<Branch> = Vec::new();
    let lines = logical_lines(text);
    let mut index = 0;
    let mut noted_loop = false;
    while index < lines.len() {
        let Line {
            start,
            text: ref line,
            first_len,
        } = lines[index];
        index += 1;
        let trimmed = line.trim();
        let state = match (around.last(), conditions.last()) {
            (Some(outside), Some((branch, _))) => within(*outside, *branch),
            _ => Branch::Taken,
        };
        if let Some(tag) = statement(trimmed) {
            let (word, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            match word {
                "if" => {
                    let branch = if conditions.len() >= MAX_CONDITIONS {
                        Branch::Unknown
                    } else {
                        condition(rest.trim(), &scope)
                    };
                    around.push(state);
                    conditions.push((branch, branch));
                }
                "elif" => {
                    if let Some((branch, before)) = conditions.last_mut() {
                        let next = condition(rest.trim(), &scope);
                        *branch = match *before {
                            Branch::Taken => Branch::NotTaken,
                            Branch::Unknown => Branch::Unknown,
                            Branch::NotTaken => next,
                        };
                        *before = match (*before, next) {
                            (Branch::Taken, _) | (_, Branch::Taken) => Branch::Taken,
                            (Branch::Unknown, _) | (_, Branch::Unknown) => Branch::Unknown,
                            _ => Branch::NotTaken,
                        };
                    }
                }
                "else" => {
                    if let Some((branch, before)) = conditions.last_mut() {
                        *branch = match *before {
                            Branch::Taken => Branch::NotTaken,
                            Branch::Unknown => Branch::Unknown,
                            Branch::NotTaken => Branch::Taken,
                        };
                        *before = Branch::Taken;
                    }
                }
                "endif" => {
                    conditions.pop();
                    around.pop();
                }
                "set" => {
                    // `{% set name = ... %}`: the name's value is Jinja's from here on.
                    if state != Branch::NotTaken
                        && let Some((name, _)) = rest.split_once('=')
                    {
                        scope.vars.insert(name.trim().to_string(), Value::Unknown);
                    }
                }
                "for" => {
                    // The body up to `endfor`, rendered once per entry of a known mapping.
                    let body_start = index;
                    let mut depth = 1;
                    while index < lines.len() {
                        match statement(lines[index].text.trim())
                            .map(|tag| tag.split_whitespace().next().unwrap_or_default())
                        {
                            Some("for") => depth += 1,
                            Some("endfor") => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        index += 1;
                    }
                    let body = &lines[body_start..index.min(lines.len())];
                    index += 1;
                    if state == Branch::NotTaken {
                        continue;
                    }
                    match loop_items(rest.trim(), &scope) {
                        Some(Unrolled { names, items })
                            if state == Branch::Taken
                                && body
                                    .iter()
                                    .all(|line| statement(line.text.trim()).is_none()) =>
                        {
                            for (key, value) in items {
                                let mut inner = scope.clone();
                                inner.set(&names.0, &key);
                                inner.vars.insert(names.1.clone(), value);
                                for line in body {
                                    if let Some(mut entry) =
                                        setting(&line.text, line.start, &inner, groups)
                                    {
                                        // Its key and value come from the mapping: placed at
                                        // the loop's line, not editable here.
                                        entry.edit = None;
                                        entry.provenance = Provenance::AnsibleVariable;
                                        entries.push(entry);
                                    }
                                }
                            }
                        }
                        _ => {
                            keys_unknown = true;
                            if !noted_loop {
                                let line_number =
                                    text[..start.min(text.len())].matches('\n').count() + 1;
                                notes.push(format!(
                                    "a `for` loop at line {line_number} that kafkalint cannot unroll: the keys it writes are unknown, and Kafka's defaults are not judged"
                                ));
                                noted_loop = true;
                            }
                        }
                    }
                }
                word if OPAQUE_STATEMENTS.contains(&word) => keys_unknown = true,
                _ => {}
            }
            continue;
        }
        if state == Branch::NotTaken {
            continue;
        }
        match setting(line, start, &scope, groups) {
            Some(mut entry) => {
                // A continued line: its text is not the file's bytes past the first line.
                if line.len() != first_len.min(line.len()) || first_len < line.len() {
                    let end = start + first_len;
                    entry.key_span = entry.key_span.start.min(end)..entry.key_span.end.min(end);
                    entry.value_span =
                        entry.value_span.start.min(end)..entry.value_span.end.min(end);
                    entry.edit = None;
                }
                if state == Branch::Unknown {
                    entry.value = format!("{{{{ {} }}}}", "a condition kafkalint cannot evaluate");
                    entry.edit = None;
                }
                entries.push(entry);
            }
            None => {
                // A line whose key kafkalint cannot work out (`{{ k }}=1`, `{% if x %}a=1{%
                // endif %}`) may set any key.
                let body = trimmed;
                if !body.is_empty()
                    && !body.starts_with(['#', '!'])
                    && (body.contains("{{") || body.contains("{%"))
                {
                    keys_unknown = true;
                }
            }
        }
    }
    Rendered {
        entries,
        keys_unknown,
    }
}

/// A line of the template as Kafka's `Properties` reader joins lines: its first byte, its
/// text, and the length of its first line in the file (shorter than the text when the line
/// is continued with `\\`).
struct Line {
    start: usize,
    text: String,
    first_len: usize,
}

/// The template's lines, after Jinja's comments (`{# ... #}`, over lines too) are blanked
/// byte for byte (offsets keep their places), with continued lines joined.
fn logical_lines(text: &str) -> Vec<Line> {
    let mut bytes = text.as_bytes().to_vec();
    let mut at = 0;
    while let Some(open) = text[at..].find("{#") {
        let open = at + open;
        let close = text[open..].find("#}").map_or(text.len(), |n| open + n + 2);
        for byte in &mut bytes[open..close] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
        at = close;
    }
    // Whole UTF-8 characters were blanked (the markers are ASCII): still text.
    let cleaned = String::from_utf8(bytes).unwrap_or_else(|_| text.to_string());
    let mut lines: Vec<Line> = Vec::new();
    let mut pending: Option<Line> = None;
    let mut at = 0;
    for raw in cleaned.split('\n') {
        let start = at;
        at += raw.len() + 1;
        let line = raw.trim_end_matches('\r');
        let continued = (line.len() - line.trim_end_matches('\\').len()) % 2 == 1;
        let line = if continued {
            &line[..line.len() - 1]
        } else {
            line
        };
        match pending.as_mut() {
            Some(joined) => joined.text.push_str(line.trim_start()),
            None => {
                pending = Some(Line {
                    start,
                    text: line.to_string(),
                    first_len: raw.len(),
                })
            }
        }
        if !continued && let Some(done) = pending.take() {
            lines.push(done);
        }
    }
    lines.extend(pending);
    lines
}

/// The tag of a line that is one `{% ... %}` statement alone: `if x`, `endfor`.
fn statement(line: &str) -> Option<&str> {
    let inner = line
        .strip_prefix("{%")?
        .strip_suffix("%}")?
        .trim_start_matches(['-', '+'])
        .trim_end_matches(['-', '+'])
        .trim();
    (!inner.contains("%}")).then_some(inner)
}

/// A condition on one variable: taken, not taken, or unknown. `x`, `not x`, `x | bool`,
/// `x | default(lit)`, `x == lit`, `x != lit`; anything else is unknown.
fn condition(text: &str, scope: &Scope) -> Branch {
    let (negate, text) = match text.strip_prefix("not ") {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let truth = if let Some((left, right, equal)) = text
        .split_once("==")
        .map(|(l, r)| (l, r, true))
        .or_else(|| text.split_once("!=").map(|(l, r)| (l, r, false)))
    {
        comparison(left.trim(), right.trim(), scope).map(|same| same == equal)
    } else {
        condition_value(text, scope).and_then(|(value, bool_filter)| {
            if bool_filter {
                value.text().map(|text| {
                    matches!(
                        text.trim().to_ascii_lowercase().as_str(),
                        "true" | "yes" | "on" | "1"
                    )
                })
            } else {
                value.truth()
            }
        })
    };
    match truth {
        Some(truth) if truth != negate => Branch::Taken,
        Some(_) => Branch::NotTaken,
        None => Branch::Unknown,
    }
}

/// The value a condition tests (`x`, `x | default(lit)`), and whether `| bool` reads it.
fn condition_value(text: &str, scope: &Scope) -> Option<(Value, bool)> {
    let mut parts = top_level(text, '|').into_iter().map(str::trim);
    let head = parts.next()?;
    if !is_dotted_name(head) {
        return None;
    }
    let mut value = lookup(head, scope).cloned();
    let mut bool_filter = false;
    for filter in parts {
        if filter == "bool" {
            bool_filter = true;
        } else if let Some(argument) = filter
            .strip_prefix("default(")
            .or_else(|| filter.strip_prefix("d("))
            .and_then(|rest| rest.strip_suffix(')'))
        {
            if value.is_none() {
                value = Some(literal_value(argument.trim())?);
            }
        } else {
            return None;
        }
    }
    Some((value?, bool_filter))
}

/// Whether `left == right` holds, for a variable and a literal of the same kind.
fn comparison(left: &str, right: &str, scope: &Scope) -> Option<bool> {
    let (value, _) = condition_value(left, scope)?;
    let Value::Text(left, written) = value else {
        return None;
    };
    let left_is_string = match written {
        Written::Quoted => true,
        Written::Plain => plain_is_string(&left),
        Written::Ini => return None,
    };
    let right_is_string = right.starts_with(['\'', '"']);
    let right = literal(right)?;
    // A number or boolean compared with a string (or the other way) is a question of types
    // kafkalint does not answer.
    (left_is_string == right_is_string).then(|| left.trim() == right)
}

/// Whether a plain YAML scalar is a string (not a number, a boolean or null, as YAML 1.1
/// reads it for Ansible).
fn plain_is_string(text: &str) -> bool {
    let text = text.trim();
    text.parse::<f64>().is_err()
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "" | "~" | "null"
        )
}

/// A literal as a variable's value: a quoted string, or a plain number or boolean.
fn literal_value(text: &str) -> Option<Value> {
    let written = if text.starts_with(['\'', '"']) {
        Written::Quoted
    } else {
        Written::Plain
    };
    Some(Value::Text(literal(text)?, written))
}

fn is_dotted_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.[]'\"".contains(c))
}

/// A `for` loop over a mapping: the names it binds (key, value) and the entries it visits
/// (a value kafkalint cannot work out, such as a template, stays unknown).
struct Unrolled {
    names: (String, String),
    items: Vec<(String, Value)>,
}

/// `k, v in name.items()` over a mapping the variables hold.
fn loop_items(text: &str, scope: &Scope) -> Option<Unrolled> {
    let (names, source) = text.split_once(" in ")?;
    let (key, value) = names.split_once(',')?;
    let source = source.trim().strip_suffix(".items()")?;
    let Value::Map(entries) = lookup(source, scope)? else {
        return None;
    };
    let items = entries
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::Text(..) => v.clone(),
                _ => Value::Unknown,
            };
            (k.clone(), value)
        })
        .collect();
    Some(Unrolled {
        names: (key.trim().to_string(), value.trim().to_string()),
        items,
    })
}

/// A dotted name's value (`kafka_broker.properties`, `x['y']`).
fn lookup<'a>(name: &str, scope: &'a Scope) -> Option<&'a Value> {
    let name = name
        .replace("['", ".")
        .replace("']", "")
        .replace("[\"", ".")
        .replace("\"]", "");
    let mut parts = name.split('.');
    let first = parts.next()?.trim();
    let mut value = scope.vars.get(first)?;
    for part in parts {
        value = value.get(part.trim())?;
    }
    Some(value)
}

/// The deepest nesting of brackets and filters worked out in an expression, and its longest
/// text: anything beyond is unknown.
const MAX_DEPTH: usize = 32;
const MAX_EXPRESSION: usize = 4096;

/// A `{{ ... }}` expression's value, when kafkalint can work it out.
fn expression(text: &str, scope: &Scope, groups: &Groups, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH || text.len() > MAX_EXPRESSION {
        return None;
    }
    let mut filters = top_level(text, '|').into_iter().map(str::trim);
    let head = filters.next()?;
    let mut value = term_sum(head, scope, groups, depth + 1);
    for filter in filters {
        let (name, argument) = match filter.split_once('(') {
            Some((name, rest)) => (name.trim(), rest.strip_suffix(')').map(str::trim)),
            None => (filter, None),
        };
        value = match name {
            "int" => value
                .and_then(|v| v.trim().parse::<i64>().ok())
                .map(|v| v.to_string()),
            "string" | "trim" => value.map(|v| v.trim().to_string()),
            "lower" => value.map(|v| v.to_lowercase()),
            "upper" => value.map(|v| v.to_uppercase()),
            "default" | "d" => match value {
                Some(value) => Some(value),
                None if lookup(head, scope).is_none() => {
                    let argument = argument?;
                    literal(argument).or_else(|| expression(argument, scope, groups, depth + 1))
                }
                None => None,
            },
            _ => None,
        };
    }
    value
}

/// A sum of terms: integers, variables, `groups['g'].index(inventory_hostname)`.
fn term_sum(text: &str, scope: &Scope, groups: &Groups, depth: usize) -> Option<String> {
    let text = text.trim();
    if !text.contains('+') || literal(text).is_some() {
        return term(text, scope, groups, depth);
    }
    let mut total: i64 = 0;
    for part in top_level(text, '+') {
        total = total.checked_add(
            term(part.trim(), scope, groups, depth)?
                .trim()
                .parse()
                .ok()?,
        )?;
    }
    Some(total.to_string())
}

/// What `(...)` holds, when the brackets enclose all of `text`.
fn enclosed(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return None,
            ')' => depth -= 1,
            _ => {}
        }
    }
    (depth == 0).then_some(inner)
}

/// `text` split at each `separator` outside brackets and quotes.
fn top_level(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut quote = None;
    let mut start = 0;
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth = depth.saturating_sub(1),
            (None, c) if c == separator && depth == 0 => {
                parts.push(&text[start..at]);
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn term(text: &str, scope: &Scope, groups: &Groups, depth: usize) -> Option<String> {
    let text = text.trim();
    // `(x)`: what the brackets hold, filters and all.
    if let Some(inner) = enclosed(text) {
        return expression(inner, scope, groups, depth + 1);
    }
    if let Some(value) = literal(text) {
        return Some(value);
    }
    if text.contains(".index(inventory_hostname)") {
        // `groups['g'].index(...)`, `(groups['g'] | list).index(...)`: the host's position.
        let group = indexed_group(text)?;
        let inventory = groups.inventory?;
        let (host, _) = groups.host?;
        let position = inventory.position(&group, host)?;
        return Some(position.to_string());
    }
    if !is_dotted_name(text) {
        return None;
    }
    lookup(text, scope)?.text().map(str::to_string)
}

/// A literal: a number, a quoted string, `true`/`false`.
fn literal(text: &str) -> Option<String> {
    let text = text.trim();
    if text.parse::<i64>().is_ok() || matches!(text, "true" | "false" | "True" | "False") {
        return Some(text.to_ascii_lowercase());
    }
    let quoted = text
        .strip_prefix('\'')
        .and_then(|rest| rest.strip_suffix('\''))
        .or_else(|| {
            text.strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
        })?;
    (!quoted.contains(['\'', '"'])).then(|| quoted.to_string())
}

/// A `key=value` line of the template, rendered: `None` for a comment, a blank line, or a
/// key kafkalint cannot work out.
fn setting(line: &str, start: usize, scope: &Scope, groups: &Groups) -> Option<YamlEntry> {
    let content = line.trim_end_matches('\r');
    let indent = content.len() - content.trim_start().len();
    let body = content.trim_start();
    if body.is_empty() || body.starts_with('#') || body.starts_with('!') {
        return None;
    }
    let separator = body.find(['=', ':'])?;
    let raw_key = body[..separator].trim_end();
    let key = render_text(raw_key, scope, groups)?;
    if key.is_empty() || key.contains(char::is_whitespace) {
        return None;
    }
    let after = &body[separator + 1..];
    let value_offset = separator + 1 + (after.len() - after.trim_start().len());
    let raw_value = after.trim();
    let key_span = start + indent..start + indent + raw_key.len();
    let value_start = start + indent + value_offset;
    let value_span = value_start..value_start + raw_value.len();
    let (value, exact) = match render_text(raw_value, scope, groups) {
        Some(value) => {
            let exact = value == raw_value;
            (value, exact)
        }
        None => (unknown(raw_value), false),
    };
    Some(YamlEntry {
        key,
        value,
        key_span,
        value_span,
        edit: exact.then_some(Edit {
            style: Style::Plain,
        }),
        // A value that names variables is theirs: written elsewhere.
        provenance: if raw_value.contains("{{") {
            Provenance::AnsibleVariable
        } else {
            Provenance::Written
        },
    })
}

/// A value kafkalint cannot work out, as a placeholder no rule judges.
fn unknown(raw: &str) -> String {
    if raw.contains("{{") || raw.contains("{%") {
        raw.to_string()
    } else {
        format!("{{{{ {raw} }}}}")
    }
}

/// Text with its `{{ ... }}` worked out; `None` when one cannot be, or it holds a statement.
fn render_text(text: &str, scope: &Scope, groups: &Groups) -> Option<String> {
    if text.contains("{%") || text.contains("{#") {
        return None;
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let close = rest[open..].find("}}")? + open;
        out.push_str(&expression(rest[open + 2..close].trim(), scope, groups, 0)?);
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// The folder of the playbooks a role's template at `path` belongs to (above `roles/`).
pub fn project_of(path: &str) -> PathBuf {
    Role::of(path).map_or_else(PathBuf::new, |role| role.project)
}

/// The roles beside the inventory at `path` (in `roles/` of its folder or the one above) that
/// template a broker's or controller's `.properties` file.
pub fn templating_roles(path: &str) -> Vec<String> {
    let Some(dir) = Path::new(path).parent() else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut found = Vec::new();
    for roles in [dir.join("roles"), dir.join("..").join("roles")] {
        let Ok(entries) = std::fs::read_dir(&roles) else {
            continue;
        };
        let mut role_dirs: Vec<PathBuf> =
            entries.filter_map(Result::ok).map(|e| e.path()).collect();
        role_dirs.sort();
        for role in role_dirs {
            let Ok(templates) = std::fs::read_dir(role.join("templates")) else {
                continue;
            };
            let templates_broker = templates.filter_map(Result::ok).any(|template| {
                let name = template.file_name().to_string_lossy().to_ascii_lowercase();
                name.ends_with(".properties.j2")
                    && crate::source::read_file(&template.path())
                        .is_ok_and(|bytes| worth_reading(&bytes))
            });
            if templates_broker && let Some(name) = role.file_name() {
                found.push(name.to_string_lossy().into_owned());
            }
        }
        if !found.is_empty() {
            break;
        }
    }
    found
}

/// The first Jinja tag of `text` kafkalint cannot read past, and why: one never closed (`{{`,
/// `{%`, `{#`), or an expression or statement over several lines (comments over several lines
/// are read as Jinja reads them).
fn unread_tag(text: &str) -> Option<(&'static str, &'static str)> {
    const TAGS: [(&str, &str); 3] = [("{{", "}}"), ("{%", "%}"), ("{#", "#}")];
    // Where each opening comes next at or after `from`, searched again only once passed: a
    // search of the whole rest for each tag made many tags quadratic.
    let mut next = TAGS.map(|(open, _)| text.find(open));
    let mut from = 0;
    loop {
        for (kind, (open, _)) in TAGS.iter().enumerate() {
            if next[kind].is_some_and(|at| at < from) {
                next[kind] = text[from..].find(open).map(|at| from + at);
            }
        }
        let (kind, at) = next
            .iter()
            .enumerate()
            .filter_map(|(kind, at)| Some((kind, (*at)?)))
            .min_by_key(|(_, at)| *at)?;
        let (open, close) = TAGS[kind];
        let inside = &text[at + open.len()..];
        let Some(end) = inside.find(close) else {
            return Some((open, "is never closed, so Ansible cannot render it"));
        };
        if open != "{#" && inside[..end].contains('\n') {
            return Some((
                open,
                "runs over several lines, which kafkalint does not render",
            ));
        }
        from = at + open.len() + end + close.len();
    }
}

/// What output hides of a template: what a `.properties` file's redaction hides of its lines,
/// and every `{% ... %}` and `{# ... #}` (a statement may hold anything).
pub fn hidden_spans(text: &str) -> Vec<Span> {
    let (properties, _) = crate::properties::parse_lenient(text.as_bytes());
    let mut spans = crate::source::secret_spans(text.as_bytes(), Some(text), &properties);
    for (open, close) in [("{%", "%}"), ("{#", "#}")] {
        let mut at = 0;
        while let Some(found) = text[at..].find(open) {
            let start = at + found;
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |n| start + n + close.len());
            spans.push(start..end);
            at = end;
        }
    }
    spans.sort_by_key(|span| (span.start, span.end));
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_or_multi_line_tag_is_found() {
        let tag = |text: &str| unread_tag(text).map(|(open, _)| open);
        assert_eq!(tag("a={{ x }}\n{% if y %}\nb=1\n{% endif %}\n"), None);
        assert_eq!(tag("a={% fo\nb=1\n"), Some("{%"));
        assert_eq!(tag("a={{ x }\n"), Some("{{"));
        assert_eq!(tag("{# note\na=1\n"), Some("{#"));
        assert_eq!(tag("a=1 }} %}\n"), None);
        assert_eq!(tag("{% fo\nx=1\n %}\n"), Some("{%"));
        assert_eq!(tag("a={{ x\n }}\n"), Some("{{"));
        assert_eq!(tag("{# a\nnote #}\nb=1\n"), None);
    }

    #[test]
    fn template_paths() {
        assert!(is_role_template(
            "ansible/roles/kafka/templates/server.properties.j2"
        ));
        assert!(is_role_template(
            "roles/kafka/templates/server.properties.j2"
        ));
        assert!(!is_role_template("templates/server.properties.j2"));
        assert!(!is_role_template("roles/kafka/files/server.properties.j2"));
    }

    #[test]
    fn the_group_a_template_indexes() {
        assert_eq!(
            indexed_group(
                "node.id={{ 101 + (groups['kafka_brokers'] | list).index(inventory_hostname) }}"
            ),
            Some("kafka_brokers".into())
        );
        assert_eq!(
            indexed_group(
                "broker.id={{ broker_id | default(groups.kafka_broker.index(inventory_hostname) + 1)}}"
            ),
            Some("kafka_broker".into())
        );
    }

    #[test]
    fn ini_inventories_with_ranges_and_group_depth() {
        let mut inventory = Inventory::default();
        ini_groups(
            "[kafka]\nk1 ansible_host=10.0.0.1 rf=3\nk[2:3] rf=3\n\n[all:vars]\nvip=10.0.0.100\n[brokers:children]\nkafka\n[brokers:vars]\nrf=1\n",
            &mut inventory,
        );
        assert_eq!(inventory.members("brokers"), ["k1", "k2", "k3"]);
        assert_eq!(inventory.group("all").unwrap().vars.len(), 1);
        // The parent first, whatever the file's order: the child's variables win.
        let order: Vec<&str> = inventory
            .groups_of("k1")
            .iter()
            .map(|group| group.name.as_str())
            .collect();
        assert_eq!(order, ["brokers", "kafka"]);
        assert_eq!(
            expand_hosts("kafka-[01:03].example.com").unwrap(),
            [
                "kafka-01.example.com",
                "kafka-02.example.com",
                "kafka-03.example.com"
            ]
        );
        assert!(expand_hosts("kafka-[1:9:2]").is_none());
    }

    /// Group membership and order as Ansible's inventory defines them, walked the plain way
    /// (every path, every host searched for): what the index must answer on every inventory.
    mod plain {
        use super::super::Inventory;

        pub fn members(inventory: &Inventory, name: &str) -> Vec<String> {
            let (mut found, mut seen) = (Vec::new(), Vec::new());
            collect(inventory, name, &mut found, &mut seen);
            found
        }

        fn collect(
            inventory: &Inventory,
            name: &str,
            found: &mut Vec<String>,
            seen: &mut Vec<String>,
        ) {
            if seen.iter().any(|known| known == name) {
                return;
            }
            seen.push(name.to_string());
            if name == "all" {
                for group in &inventory.groups {
                    collect(inventory, &group.name, found, seen);
                }
            }
            let Some(group) = inventory.groups.iter().find(|group| group.name == name) else {
                return;
            };
            for (host, _) in &group.hosts {
                if !found.contains(host) {
                    found.push(host.clone());
                }
            }
            for child in &group.children {
                collect(inventory, child, found, seen);
            }
        }

        fn depth(inventory: &Inventory, name: &str) -> usize {
            if name == "all" {
                return 0;
            }
            inventory
                .groups
                .iter()
                .filter(|group| group.children.iter().any(|child| child == name))
                .map(|parent| depth(inventory, &parent.name) + 1)
                .max()
                .unwrap_or(1)
        }

        pub fn groups_of(inventory: &Inventory, host: &str) -> Vec<String> {
            let mut groups: Vec<(usize, String)> = inventory
                .groups
                .iter()
                .filter(|group| {
                    group.name != "all" && members(inventory, &group.name).iter().any(|h| h == host)
                })
                .map(|group| (depth(inventory, &group.name), group.name.clone()))
                .collect();
            groups.sort();
            groups.into_iter().map(|(_, name)| name).collect()
        }
    }

    /// Inventories of up to 9 groups (one of them perhaps `all`, children only towards later
    /// groups, or anywhere with `cyclic`) and 6 hosts, from `seed`.
    fn generated_inventory(seed: u64, cyclic: bool) -> String {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = |below: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        let count = 1 + next(9) as usize;
        let name = |at: usize| {
            if at == 0 && seed.is_multiple_of(3) {
                "all".to_string()
            } else {
                format!("g{at}")
            }
        };
        let mut text = String::new();
        for at in 0..count {
            text.push_str(&format!("[{}]\n", name(at)));
            for _ in 0..next(4) {
                text.push_str(&format!("h{}\n", next(6)));
            }
            text.push_str(&format!("[{}:children]\n", name(at)));
            for _ in 0..next(4) {
                let child = if cyclic {
                    next(count as u64 + 1) as usize
                } else {
                    at + 1 + next((count - at) as u64) as usize
                };
                // One past the groups: a child no section defines.
                text.push_str(&format!(
                    "{}\n",
                    if child == 0 {
                        "all".to_string()
                    } else {
                        name(child)
                    }
                ));
            }
        }
        text
    }

    #[test]
    fn the_index_answers_as_a_walk_over_every_path() {
        for seed in 0..3000 {
            let cyclic = seed % 4 == 3;
            let text = generated_inventory(seed, cyclic);
            let mut inventory = Inventory::default();
            ini_groups(&text, &mut inventory);
            let mut names: Vec<String> = inventory.groups.iter().map(|g| g.name.clone()).collect();
            names.extend(["all".to_string(), "missing".to_string()]);
            for name in &names {
                assert_eq!(
                    inventory.members(name),
                    plain::members(&inventory, name),
                    "{name} in\n{text}"
                );
                for (place, host) in plain::members(&inventory, name).iter().enumerate() {
                    assert_eq!(inventory.position(name, host), Some(place), "{text}");
                }
            }
            if cyclic {
                // Ansible refuses a cycle of groups; only membership is compared there.
                continue;
            }
            for host in (0..6).map(|n| format!("h{n}")) {
                let order: Vec<String> = inventory
                    .groups_of(&host)
                    .iter()
                    .map(|g| g.name.clone())
                    .collect();
                assert_eq!(
                    order,
                    plain::groups_of(&inventory, &host),
                    "{host} in\n{text}"
                );
            }
        }
    }

    fn rendered(text: &str, scope: &Scope) -> Rendered {
        let groups = Groups {
            inventory: None,
            host: None,
        };
        render(text, scope, &groups, &mut Vec::new())
    }

    fn value<'a>(rendered: &'a Rendered, key: &str) -> Option<&'a str> {
        rendered
            .entries
            .iter()
            .rev()
            .find(|entry| entry.key == key)
            .map(|entry| entry.value.as_str())
    }

    #[test]
    fn lines_render_with_variables_conditions_and_loops() {
        let mut scope = Scope::default();
        let vars = yaml::parse(
            "rf: 1\nssl_enabled: false\nproperties:\n  num.partitions: 6\n  min.insync.replicas: 2\n",
        )
        .unwrap();
        scope.layer(vars.first());
        let text = "offsets.topic.replication.factor={{ rf | int }}\n{% if ssl_enabled | default(false) %}\nssl.keystore.location=/x\n{% endif %}\n{% if other %}\nlog.dirs=/data\n{% endif %}\n{% for key, value in properties.items() %}\n{{key}}={{value}}\n{% endfor %}\nbroker.id={{ groups.kafka.index(inventory_hostname) }}\n";
        let out = rendered(text, &scope);
        assert_eq!(value(&out, "offsets.topic.replication.factor"), Some("1"));
        assert_eq!(value(&out, "ssl.keystore.location"), None);
        assert!(value(&out, "log.dirs").unwrap().contains("{{"));
        assert_eq!(value(&out, "num.partitions"), Some("6"));
        assert_eq!(value(&out, "min.insync.replicas"), Some("2"));
        assert!(value(&out, "broker.id").unwrap().contains("{{"));
        assert!(!out.keys_unknown);
        let rf = out
            .entries
            .iter()
            .find(|e| e.key == "offsets.topic.replication.factor")
            .unwrap();
        assert_eq!(&text[rf.value_span.clone()], "{{ rf | int }}");
    }

    #[test]
    fn what_jinja_decides_at_run_time_stays_unknown() {
        let mut scope = Scope::default();
        let vars = yaml::parse("mech: PLAIN\nquoted: 'false'\nother: x\nrf: 1\n").unwrap();
        scope.layer(vars.first());
        scope.vars.insert("ini".into(), Value::ini("false"));
        // A non-empty string is true; a quoted 'false' too; an INI value's type is Ansible's.
        let out = rendered(
            "{% if mech %}\na=1\n{% endif %}\n{% if quoted %}\nb=1\n{% endif %}\n{% if ini %}\nc=1\n{% endif %}\n",
            &scope,
        );
        assert_eq!(value(&out, "a"), Some("1"));
        assert_eq!(value(&out, "b"), Some("1"));
        assert!(value(&out, "c").unwrap().contains("{{"));
        // A comparison with another variable, and the branches after an unknown one.
        let out = rendered(
            "{% if mech == other %}\na=1\n{% elif mech == 'PLAIN' %}\na=2\n{% else %}\na=3\n{% endif %}\n",
            &scope,
        );
        assert!(
            out.entries.iter().all(|e| e.value.contains("{{")),
            "{:?}",
            out.entries
        );
        // `set` makes a name Jinja's; an include or an unrolled loop may set any key.
        let out = rendered("{% set rf = 3 %}\nx={{ rf }}\n", &scope);
        assert!(value(&out, "x").unwrap().contains("{{"));
        assert!(rendered("{% include 'more.j2' %}\n", &scope).keys_unknown);
        assert!(rendered("{% for x in y %}\n{{ x }}=1\n{% endfor %}\n", &scope).keys_unknown);
        // A comment over lines sets nothing; a continued line is one.
        let out = rendered(
            "{# a comment\nlog.dirs=/tmp\n#}\ncontroller.quorum.voters=1@a:9093,\\\n  2@b:9093\n",
            &scope,
        );
        assert_eq!(value(&out, "log.dirs"), None);
        assert_eq!(
            value(&out, "controller.quorum.voters"),
            Some("1@a:9093,2@b:9093")
        );
    }

    #[test]
    fn deep_expressions_are_unknown_not_a_crash() {
        let scope = Scope::default();
        let deep = format!(
            "x={{{{ {}1{} }}}}\n",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        let out = rendered(&deep, &scope);
        assert!(value(&out, "x").unwrap().contains("{{"));
    }
}
