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

use super::inventory_syntax;
use crate::catalog::KafkaVersion;
use crate::properties::{Provenance, Span};
use crate::sources::yaml::{self, Node};
use crate::sources::{Edit, ImageTag, NamedBy, NodeSpec, Runtime, Style, YamlEntry};

/// Whether `path` is a role's template of a `.properties` file: a `.properties.j2` or
/// `.properties` file anywhere under `roles/<role>/templates/` (what Ansible's `template`
/// module renders), or a `.properties` file under `roles/<role>/files/` (what `copy` puts
/// on each host as it stands).
pub fn is_role_template(path: &str) -> bool {
    let Some((_, _, folder)) = role_parts(Path::new(path)) else {
        return false;
    };
    let name = Path::new(path)
        .file_name()
        .map(|name| name.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match folder {
        RoleFolder::Templates => name.ends_with(".properties.j2") || name.ends_with(".properties"),
        RoleFolder::Files => name.ends_with(".properties"),
    }
}

/// Whether `path` is a role's static `.properties` file or one of its templates without the
/// `.j2` suffix: a file whose plain name a walk would otherwise read as a node of its own.
pub fn is_role_properties(path: &Path) -> bool {
    let name = path.to_string_lossy();
    is_role_template(&name) && name.to_ascii_lowercase().ends_with(".properties")
}

/// Whether `path` is a compose file a role templates (`roles/<role>/templates/`
/// `docker-compose.yml.j2`, `compose.yaml.j2`): its text is a compose file once rendered.
pub fn is_compose_template(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.contains("compose")
        && (name.ends_with(".yml.j2") || name.ends_with(".yaml.j2"))
        && matches!(role_parts(path), Some((_, _, RoleFolder::Templates)))
}

/// Whether a role's compose template holds no Jinja: what Ansible writes is its text as it
/// stands, so it is read as the compose file it is.
pub fn is_plain_template(text: &str) -> bool {
    !(text.contains("{{") || text.contains("{%") || text.contains("{#"))
}

/// Which folder of a role a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoleFolder {
    /// `templates/`: rendered by Jinja.
    Templates,
    /// `files/`: copied as it stands.
    Files,
}

/// The folder above `roles/`, the role's folder, and which of its folders holds `path`: the
/// last `roles/<role>/templates/` or `roles/<role>/files/` of the path, the file below it
/// at any depth.
fn role_parts(path: &Path) -> Option<(PathBuf, PathBuf, RoleFolder)> {
    // Asked of every file a walk meets, most of them in no role: a look for the folder's name
    // in the bytes settles those without taking the path apart.
    memchr::memmem::find(path.as_os_str().as_encoded_bytes(), b"roles")?;
    let parts: Vec<std::path::Component> = path.components().collect();
    let at = (0..parts.len().saturating_sub(3)).rev().find(|&at| {
        parts[at].as_os_str() == "roles"
            && matches!(
                parts[at + 2].as_os_str().to_str(),
                Some("templates" | "files")
            )
    })?;
    let folder = if parts[at + 2].as_os_str() == "templates" {
        RoleFolder::Templates
    } else {
        RoleFolder::Files
    };
    let project: PathBuf = parts[..at].iter().collect();
    let role: PathBuf = parts[..at + 2].iter().collect();
    Some((project, role, folder))
}

/// Why Jinja refuses the template at `path` (a file under a role's `templates/`, which
/// Ansible's `template` module renders; a file under `files/` is copied as it stands), with
/// its position as [`crate::sources::unreadable::file`] reads it.
pub fn jinja_refusal(path: &str, text: &str) -> Option<String> {
    if !matches!(
        role_parts(Path::new(path)),
        Some((_, _, RoleFolder::Templates))
    ) {
        return None;
    }
    let (offset, why) = super::jinja_syntax::refusal(text)?;
    Some(super::jinja_syntax::positioned(text, offset, &why))
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
            // An `!vault` value: encrypted, its text unknown.
            Node::Scalar(scalar) if scalar.value.contains("$ANSIBLE_VAULT;") => Value::Unknown,
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
            Written::Ini => match ini_literal(text)? {
                IniLiteral::Number(number) => Some(number != 0.0),
                IniLiteral::Bool(truth) => Some(truth),
                IniLiteral::None => Some(false),
                IniLiteral::String(text) => Some(!text.is_empty()),
            },
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
    /// A layer kafkalint cannot read was applied (its source named): any variable not set
    /// by a later layer may be one it sets, so its value is unknown, whatever a lower layer
    /// says and whether or not one says anything.
    shadowed: Option<String>,
}

/// A variable no layer sets, under a layer kafkalint cannot read: unknown, not unset.
static SHADOWED: Value = Value::Unknown;

/// A layer of variables: a YAML mapping read, or one whose variables kafkalint cannot know.
#[derive(Debug, Clone)]
enum Layer {
    Read(Node),
    /// An Ansible Vault file, a file that is not YAML, a vars file not found: any variable
    /// may be set by it.
    Unreadable(String),
    /// A variable the operator types at the run (`vars_prompt`).
    Prompted(String),
}

impl Scope {
    fn apply(&mut self, layer: &Layer) {
        match layer {
            Layer::Read(node) => self.layer(Some(node)),
            Layer::Unreadable(what) => {
                for value in self.vars.values_mut() {
                    *value = Value::Unknown;
                }
                if self.shadowed.is_none() {
                    self.shadowed = Some(what.clone());
                }
            }
            Layer::Prompted(name) => {
                self.vars.insert(name.clone(), Value::Unknown);
            }
        }
    }

    /// A variable's value: unknown when none is set but an unreadable layer may set it.
    fn get(&self, name: &str) -> Option<&Value> {
        match self.vars.get(name) {
            Some(value) => Some(value),
            None if self.shadowed.is_some() => Some(&SHADOWED),
            None => None,
        }
    }

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
    /// The environment it stands for (`prod` for `inventories/prod/`).
    environment: String,
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

    /// The folder whose `group_vars/` and `host_vars/` go with it: the inventory folder
    /// itself, or the folder of an inventory file.
    fn vars_dir(&self) -> PathBuf {
        if self.path.is_dir() {
            self.path.clone()
        } else {
            self.path
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        }
    }

    /// An inventory source: a file, or a folder whose files are read as one inventory, as
    /// ansible-core reads a folder given with `-i` (lib/ansible/inventory/manager.py
    /// `parse_source`: each file in name order, those ending in `INVENTORY_IGNORE_EXTS`
    /// passed over: lib/ansible/config/base.yml, `REJECT_EXTS` + `.orig`, `.cfg`, `.retry`).
    fn read_source(path: &Path, refused: &mut Vec<RefusedInventory>) -> Option<Inventory> {
        if !path.is_dir() {
            return Inventory::read(path, refused);
        }
        const IGNORED: &[&str] = &[
            ".pyc", ".pyo", ".swp", ".bak", "~", ".rpm", ".md", ".txt", ".rst", ".orig", ".cfg",
            ".retry", ".j2", ".py", ".sh",
        ];
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .ok()?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|file| {
                let name = file.file_name().unwrap_or_default().to_string_lossy();
                file.is_file()
                    && !name.starts_with('.')
                    && !IGNORED.iter().any(|ext| name.ends_with(ext))
            })
            .collect();
        files.sort();
        let mut merged = Inventory {
            path: path.to_path_buf(),
            ..Inventory::default()
        };
        let mut declared = inventory_syntax::Groups::new();
        for file in files {
            let Some(text) = crate::source::read_file(&file)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
            else {
                continue;
            };
            if text.trim_start().starts_with("$ANSIBLE_VAULT") {
                continue;
            }
            let name = file.file_name().unwrap_or_default().to_string_lossy();
            if let Some(refusal) = inventory_syntax::refusal_among(&name, &text, &mut declared) {
                // Ansible warns and reads the folder's other files.
                refused.push(RefusedInventory {
                    path: file.clone(),
                    bytes: text.into_bytes(),
                    refusal,
                });
                continue;
            }
            if reads_as_yaml(&name, &text) {
                if let Some(document) = yaml::parse(&text).ok().and_then(|d| d.into_iter().next()) {
                    yaml_groups(&document, &mut merged);
                }
            } else {
                ini_groups(&text, &mut merged);
            }
        }
        (!merged.groups.is_empty()).then_some(merged)
    }

    fn read(path: &Path, refused: &mut Vec<RefusedInventory>) -> Option<Inventory> {
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
        if !text.trim_start().starts_with("$ANSIBLE_VAULT")
            && let Some(refusal) = inventory_syntax::refusal(&name, &text)
        {
            // Ansible warns ("Unable to parse ... as an inventory source") and uses none of
            // its hosts.
            refused.push(RefusedInventory {
                path: path.to_path_buf(),
                bytes: text.into_bytes(),
                refusal,
            });
            return None;
        }
        if reads_as_yaml(&name, &text) {
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

/// Whether the yaml plugin reads an inventory file that Ansible accepts: one named `.yml` or
/// `.yaml`, or one with no extension that is a YAML mapping (the yaml plugin is tried before
/// the ini plugin, lib/ansible/config/base.yml `INVENTORY_ENABLED`).
fn reads_as_yaml(name: &str, text: &str) -> bool {
    if yaml::is_yaml_name(name) {
        return true;
    }
    !name.contains('.') && inventory_syntax::yaml_refusal(text).is_none()
}

/// A file named alone that is an Ansible inventory by its name (`hosts`, `inventory`, a
/// `.ini` file, or a file of an `inventories/` or `inventory/` folder) and that Ansible cannot
/// parse: the file to report as `invalid-syntax`. A `.properties` file, or one that reads as a
/// Kafka node's settings, is none.
pub fn refused_inventory(file: &crate::source::SourceFile) -> Option<crate::source::SourceFile> {
    let path = Path::new(&file.path);
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let in_inventory_folder = path
        .components()
        .any(|part| matches!(part.as_os_str().to_str(), Some("inventories" | "inventory")));
    let named_as_inventory = matches!(name.as_str(), "hosts" | "inventory")
        || name.ends_with(".ini")
        || (in_inventory_folder && !name.contains('.'));
    if !named_as_inventory || name.ends_with(".properties") {
        return None;
    }
    let text = std::str::from_utf8(&file.bytes).ok()?;
    if text.trim_start().starts_with("$ANSIBLE_VAULT") {
        return None;
    }
    let refusal = inventory_syntax::refusal(&name, text)?;
    Some(crate::sources::unreadable::file(
        file.path.clone(),
        file.bytes.to_vec(),
        &refusal.positioned(),
    ))
}

/// An inventory file Ansible cannot parse: where it is, its bytes, and why.
#[derive(Debug)]
pub struct RefusedInventory {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    pub refusal: inventory_syntax::Refusal,
}

/// The hosts a pattern names: itself, or each of a numeric or alphabetic range
/// (`kafka-[01:03]`, `node-[a:c]`); `None` for a range kafkalint does not expand (a step, two
/// ranges).
pub(super) fn expand_hosts(pattern: &str) -> Option<Vec<String>> {
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

/// The variables of `dir/<stem>`: a YAML file (`stem.yml`, `stem.yaml`, `stem`), or a
/// folder of them (`group_vars/kafka/*.yml`), merged in name order (ansible-core,
/// lib/ansible/plugins/vars/host_group_vars.py with `loader.find_vars_files`: the file of
/// that name with or without a YAML extension, else every file of the folder of that name).
/// A file kafkalint cannot read (an Ansible Vault file, `$ANSIBLE_VAULT;` at its start, or a
/// file that is not YAML) is a layer whose variables are unknown.
fn vars_of(dir: &Path, stem: &str) -> Vec<Layer> {
    let read = |path: &Path| -> Option<Layer> {
        let unreadable = || Some(Layer::Unreadable(path.display().to_string()));
        let Ok(bytes) = crate::source::read_file(path) else {
            return unreadable();
        };
        if bytes.trim_ascii_start().starts_with(b"$ANSIBLE_VAULT") {
            return unreadable();
        }
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return unreadable();
        };
        match yaml::parse(text) {
            Ok(documents) => documents.into_iter().next().map(Layer::Read),
            Err(_) => unreadable(),
        }
    };
    for name in [
        format!("{stem}.yml"),
        format!("{stem}.yaml"),
        format!("{stem}.json"),
        stem.to_string(),
    ] {
        let path = dir.join(&name);
        if path.is_file() {
            return read(&path).into_iter().collect();
        }
    }
    let folder = dir.join(stem);
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&folder) {
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| {
                let name = path.file_name().unwrap_or_default().to_string_lossy();
                path.is_file()
                    && !name.starts_with('.')
                    && (yaml::is_yaml_name(&name) || name.ends_with(".json") || !name.contains('.'))
            })
            .collect();
        files.sort();
        for file in files {
            found.extend(read(&file));
        }
    }
    found
}

/// A play that applies the role: its hosts, and the variables it gives.
#[derive(Debug)]
struct Play {
    hosts: String,
    vars: Vec<Layer>,
    /// The role's parameters in the play's `roles:` entry (`- role: kafka` with `x: 1`, or
    /// its `vars:`).
    params: Vec<(String, Value)>,
}

/// Where a role sits: its folder, its name, and the folder of the playbooks (above `roles/`).
struct Role {
    dir: PathBuf,
    name: String,
    project: PathBuf,
    folder: RoleFolder,
}

impl Role {
    fn of(path: &str) -> Option<Role> {
        let (project, dir, folder) = role_parts(Path::new(path))?;
        let name = dir.file_name()?.to_string_lossy().into_owned();
        let project = if project.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            project
        };
        Some(Role {
            dir,
            name,
            project,
            folder,
        })
    }

    /// The inventories beside the playbooks, each a source `ansible-playbook -i` could be
    /// given: those `ansible.cfg` names (`inventory =`), `hosts.yml`, `hosts.ini`,
    /// `inventory/...`, and each environment's folder (`inventories/<env>/`, read whole as
    /// Ansible reads a folder given with `-i`) or file (`inventories/<env>.ini`).
    fn inventories(&self, refused: &mut Vec<RefusedInventory>) -> Vec<Inventory> {
        let names = [
            "hosts.yml",
            "hosts.yaml",
            "hosts.ini",
            "hosts",
            "inventory.yml",
            "inventory.yaml",
            "inventory.ini",
        ];
        let mut sources: Vec<PathBuf> = configured_inventories(&self.project);
        for dir in [self.project.clone(), self.project.join("inventory")] {
            sources.extend(names.iter().map(|name| dir.join(name)));
        }
        // A folder beside the playbooks that holds `group_vars/` or `host_vars/` is an
        // inventory folder whatever its name (`inventory-cluster1/`): Ansible reads those
        // beside the inventory source.
        if let Ok(entries) = std::fs::read_dir(&self.project) {
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    path.is_dir()
                        && !name.starts_with('.')
                        && !matches!(name.as_ref(), "roles" | "inventories" | "inventory")
                        && (path.join("group_vars").is_dir() || path.join("host_vars").is_dir())
                })
                .collect();
            found.sort();
            sources.extend(found);
        }
        for folder in ["inventories", "inventory", "environments", "envs"] {
            if let Ok(entries) = std::fs::read_dir(self.project.join(folder)) {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(Result::ok)
                    .map(|entry| entry.path())
                    .filter(|path| {
                        let name = path.file_name().unwrap_or_default().to_string_lossy();
                        !matches!(name.as_ref(), "group_vars" | "host_vars")
                            && !name.starts_with('.')
                            && (path.is_dir() || folder != "inventory")
                    })
                    .collect();
                found.sort();
                sources.extend(found);
            }
        }
        // A source inside a folder read already, or a folder holding a file read already, is
        // the same inventory (`ansible.cfg` naming `inventories/prod/hosts.yml`).
        let mut seen: Vec<PathBuf> = Vec::new();
        let mut inventories = Vec::new();
        for source in sources {
            if !source.exists() {
                continue;
            }
            let key = std::fs::canonicalize(&source).unwrap_or_else(|_| source.clone());
            if seen
                .iter()
                .any(|known| key.starts_with(known) || known.starts_with(&key))
            {
                continue;
            }
            seen.push(key);
            if let Some(mut inventory) = Inventory::read_source(&source, refused) {
                inventory.environment = environment_of(&self.project, &source);
                inventories.push(inventory);
            }
        }
        inventories
    }

    /// The plays of the playbooks beside `roles/` and in the folders beside it
    /// (`playbooks/site.yml`) that apply the role, with the variables they give it.
    fn plays(&self) -> Vec<Play> {
        let plays = self.plays_in(yaml_files(&self.project));
        if !plays.is_empty() {
            // The playbooks beside `roles/` say it; a folder of test or example plays beside
            // them does not add groups.
            return plays;
        }
        let mut paths = Vec::new();
        if let Ok(entries) = std::fs::read_dir(&self.project) {
            let mut folders: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| {
                    let name = path.file_name().unwrap_or_default().to_string_lossy();
                    path.is_dir()
                        && !name.starts_with('.')
                        && !matches!(
                            name.as_ref(),
                            "roles" | "group_vars" | "host_vars" | "inventories" | "inventory"
                        )
                })
                .collect();
            folders.sort();
            for folder in folders {
                paths.extend(yaml_files(&folder));
            }
        }
        self.plays_in(paths)
    }

    /// The plays of the playbooks at `paths` that apply the role.
    fn plays_in(&self, paths: Vec<PathBuf>) -> Vec<Play> {
        let mut plays = Vec::new();
        for path in paths {
            let Ok(bytes) = crate::source::read_file(&path) else {
                continue;
            };
            let Ok(documents) = yaml::parse(&String::from_utf8_lossy(&bytes)) else {
                continue;
            };
            let playbook_dir = path.parent().unwrap_or(&self.project).to_path_buf();
            for play in documents.iter().flat_map(Node::items) {
                let names_role = |entry: &&Node| {
                    entry
                        .text()
                        .or_else(|| entry.get("role").and_then(Node::text))
                        .or_else(|| entry.get("name").and_then(Node::text))
                        // `roles: [../roles/kafka]` names the role by its path.
                        .is_some_and(|name| name.trim().rsplit('/').next() == Some(&self.name))
                };
                let in_roles = play
                    .get("roles")
                    .map(Node::items)
                    .unwrap_or_default()
                    .iter()
                    .find(names_role);
                // `tasks: [{import_role: {name: kafka}}]`, `include_role` alike.
                let in_tasks = || {
                    play.get("tasks")
                        .map(Node::items)
                        .unwrap_or_default()
                        .iter()
                        .find_map(|task| {
                            task.entries().iter().find_map(|(key, value)| {
                                let module = key.text()?;
                                let module = module.rsplit('.').next()?;
                                (matches!(module, "import_role" | "include_role")
                                    && names_role(&value))
                                .then_some(value)
                            })
                        })
                };
                let (Some(entry), Some(hosts)) = (
                    in_roles.or_else(in_tasks),
                    play.get("hosts").and_then(Node::text),
                ) else {
                    continue;
                };
                let mut vars: Vec<Layer> = play
                    .get("vars")
                    .cloned()
                    .into_iter()
                    .map(Layer::Read)
                    .collect();
                // `vars_prompt`: what the operator types at the run.
                for prompt in play.get("vars_prompt").map(Node::items).unwrap_or_default() {
                    if let Some(name) = prompt.get("name").and_then(Node::text) {
                        vars.push(Layer::Prompted(name.trim().to_string()));
                    }
                }
                for file in play.get("vars_files").map(Node::items).unwrap_or_default() {
                    // A vars file is relative to the playbook that names it.
                    let Some(file) = file.text() else {
                        vars.push(Layer::Unreadable(
                            "a vars_files entry that is a list".into(),
                        ));
                        continue;
                    };
                    let stem = file.trim();
                    let file_path = playbook_dir.join(stem);
                    let dir = file_path.parent().unwrap_or(&playbook_dir);
                    let name = file_path
                        .file_name()
                        .map(|name| name.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    let found = vars_of(dir, &name);
                    if found.is_empty() {
                        vars.push(Layer::Unreadable(stem.to_string()));
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
        plays
    }
}

/// The YAML files of a folder, in name order.
fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file() && yaml::is_yaml_name(&path.to_string_lossy()))
        .collect();
    paths.sort();
    paths
}

/// The inventories `ansible.cfg` beside the playbooks names: `inventory =` (or the older
/// `hostfile =`) of `[defaults]`, a comma-separated list of paths relative to the file.
/// Mirrors ansible-core's `DEFAULT_HOST_LIST` (lib/ansible/config/base.yml: `type: pathlist`,
/// ini `[defaults] inventory`, deprecated `hostfile`).
fn configured_inventories(project: &Path) -> Vec<PathBuf> {
    let Ok(bytes) = crate::source::read_file(&project.join("ansible.cfg")) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut section = String::new();
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with(['#', ';']) || line.is_empty() {
            continue;
        }
        if let Some(name) = line
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
        {
            section = name.trim().to_string();
            continue;
        }
        let Some((key, value)) = line.split_once(['=', ':']) else {
            continue;
        };
        if section == "defaults" && matches!(key.trim(), "inventory" | "hostfile") {
            // An inline comment (` ;` or ` #`) ends the value.
            let value = value.split([';', '#']).next().unwrap_or_default();
            found = value
                .split(',')
                .map(str::trim)
                .filter(|path| !path.is_empty() && !path.starts_with(['~', '/', '$']))
                .map(|path| project.join(path))
                .collect();
        }
    }
    found
}

/// The environment an inventory source stands for: the folder or file under `inventories/`
/// (or `inventory/`) that holds it (`inventories/prod/hosts.yml` is `prod`), else its path
/// beside the playbooks.
fn environment_of(project: &Path, source: &Path) -> String {
    let relative = source.strip_prefix(project).unwrap_or(source);
    let parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .filter(|part| part != ".")
        .collect();
    match parts.as_slice() {
        [folder, env, ..]
            if matches!(
                folder.as_str(),
                "inventories" | "inventory" | "environments" | "envs"
            ) =>
        {
            Path::new(env)
                .file_stem()
                .map_or_else(|| env.clone(), |stem| stem.to_string_lossy().into_owned())
        }
        _ => parts.join("/"),
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

/// The nodes a role's template gives under one inventory: an environment's cluster.
pub struct RoleNodes {
    /// The environment whose inventory lists the hosts (`prod` for `inventories/prod/`),
    /// when several inventories list the role's group; `None` for the only one.
    pub environment: Option<String>,
    pub nodes: Vec<NodeSpec>,
}

/// Reads the role template at `path` (whose text is `text`): a node per host that runs it,
/// under each inventory that lists those hosts (one cluster per environment).
/// Inventories Ansible cannot parse go to `refused`: no hosts of theirs are read.
pub fn read(
    path: &str,
    text: &str,
    notes: &mut Vec<String>,
    refused: &mut Vec<RefusedInventory>,
) -> Vec<RoleNodes> {
    let Some(role) = Role::of(path) else {
        return Vec::new();
    };
    let name = &role.name;
    if role.folder == RoleFolder::Templates
        && let Some((open, why)) = unread_tag(text)
    {
        // An unclosed tag fails Jinja's lexer (TemplateSyntaxError): Ansible renders nothing.
        // A tag over several lines is template code where kafkalint reads lines of the file.
        notes.push(format!(
            "role `{name}`: a `{open}` of its template {why}; not checked"
        ));
        return Vec::new();
    }
    let edits = edited_keys(&role, path);
    let tasks_text: String = yaml_files(&role.dir.join("tasks"))
        .iter()
        .filter_map(|file| crate::source::read_file(file).ok())
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .collect::<Vec<_>>()
        .join("\n");
    if edits.unknown {
        notes.push(format!(
            "role `{name}`: a task edits a file of it in place (`lineinfile`, `replace`) with a line kafkalint cannot read: the keys it writes are unknown, and Kafka's defaults are not judged"
        ));
    }
    let rendered = per_host(
        &role,
        text,
        notes,
        refused,
        |environment, host, scope, groups, _, notes| {
            let suffix = environment
                .map(|environment| format!(" ({environment})"))
                .unwrap_or_default();
            let mut rendered = render_role_file(&role, text, scope, groups, notes);
            edits.apply(&mut rendered);
            let id = match host {
                Some(host) => format!("{} {host}{suffix}", role.name),
                None => format!("{} (every host){suffix}", role.name),
            };
            node_spec(
                &role,
                environment,
                host,
                &id,
                rendered,
                host.is_some(),
                release(scope, &tasks_text),
            )
        },
    );
    rendered
        .into_iter()
        .map(|(environment, nodes)| RoleNodes { environment, nodes })
        .collect()
}

/// What the role's template at `text` gives on each host that runs it (`each` of the
/// environment, the host, its variables and groups), under each inventory that lists those
/// hosts: one list per environment. Without a known group or inventory, `each` is called
/// once, with no host, for every host of an unknown number; notes say why.
fn per_host<T>(
    role: &Role,
    text: &str,
    notes: &mut Vec<String>,
    refused: &mut Vec<RefusedInventory>,
    mut each: impl FnMut(
        Option<&str>,
        Option<&String>,
        &Scope,
        &Groups,
        &Context,
        &mut Vec<String>,
    ) -> T,
) -> Vec<(Option<String>, Vec<T>)> {
    let name = &role.name;
    let defaults = vars_of(&role.dir.join("defaults"), "main");
    let role_vars = vars_of(&role.dir.join("vars"), "main");
    let plays = role.plays();
    let inventories = role.inventories(refused);
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
    // The inventories that list the group's hosts: each an environment of its own, its
    // hosts one cluster (`ansible-playbook -i inventories/prod` runs the role on prod's).
    let mut chosen: Vec<&Inventory> = Vec::new();
    if let Some(group) = &group {
        let holding: Vec<&Inventory> = inventories
            .iter()
            .filter(|inventory| {
                !inventory.members(group).is_empty()
                    || inventory.unexpanded
                    || inventory.too_many_hosts
            })
            .collect();
        if holding.is_empty() {
            notes.push(format!(
                "role `{name}` runs on the hosts of group `{group}`, which no inventory beside its playbooks holds; read as one node of an unknown number"
            ));
        }
        for inventory in holding {
            if inventory.too_many_hosts {
                notes.push(format!(
                    "role `{name}`: the inventory {} names more than {MAX_HOSTS} hosts; its hosts are read as one node of an unknown number",
                    inventory.path.display()
                ));
            } else if inventory.unexpanded {
                notes.push(format!(
                    "role `{name}`: the inventory {} names its hosts with a pattern kafkalint does not expand; its hosts are read as one node of an unknown number",
                    inventory.path.display()
                ));
            }
            chosen.push(inventory);
        }
    }
    let several = chosen.len() > 1;
    let mut clusters = Vec::new();
    let mut shadowed: Option<String> = None;
    let environments: Vec<Option<&Inventory>> = if chosen.is_empty() {
        vec![None]
    } else {
        chosen.into_iter().map(Some).collect()
    };
    for inventory in environments {
        let environment = inventory
            .filter(|_| several)
            .map(|inventory| inventory.environment.clone());
        let listed =
            inventory.filter(|inventory| !inventory.unexpanded && !inventory.too_many_hosts);
        let context = Context {
            role,
            defaults: &defaults,
            role_vars: &role_vars,
            play,
            inventory: listed,
        };
        let mut nodes = Vec::new();
        match (listed, &group) {
            (Some(inventory), Some(group)) => {
                for (position, host) in inventory.members(group).iter().enumerate() {
                    let scope = context.scope(Some(host));
                    if shadowed.is_none() {
                        shadowed.clone_from(&scope.shadowed);
                    }
                    let groups = Groups {
                        inventory: Some(inventory),
                        host: Some((host.as_str(), position)),
                    };
                    nodes.push(each(
                        environment.as_deref(),
                        Some(host),
                        &scope,
                        &groups,
                        &context,
                        notes,
                    ));
                }
            }
            _ => {
                let scope = context.scope(None);
                if shadowed.is_none() {
                    shadowed.clone_from(&scope.shadowed);
                }
                let groups = Groups {
                    inventory: None,
                    host: None,
                };
                nodes.push(each(
                    environment.as_deref(),
                    None,
                    &scope,
                    &groups,
                    &context,
                    notes,
                ));
            }
        }
        clusters.push((environment, nodes));
    }
    // Each host renders the same lines: a note about the template is said once.
    let mut seen = std::collections::HashSet::new();
    notes.retain(|note| seen.insert(note.clone()));
    if let Some(what) = shadowed {
        notes.push(format!(
            "role `{name}`: its variables come in part from {what}, which kafkalint cannot read (a vault, a prompt, not YAML): what it may set is unknown, and only settings that do not depend on it are judged"
        ));
    }
    clusters
}

/// What a role's hosts are rendered with: its variables, the play that applies it, and the
/// inventory of their environment.
struct Context<'a> {
    role: &'a Role,
    defaults: &'a [Layer],
    role_vars: &'a [Layer],
    play: Option<&'a Play>,
    inventory: Option<&'a Inventory>,
}

impl Context<'_> {
    /// The variables a host (or, without one, every host) gets, in Ansible's order, lowest
    /// first, as far as a repository holds it (ansible-core, lib/ansible/vars/manager.py
    /// `get_vars`; the `host_group_vars` plugin reads `group_vars/` and `host_vars/` beside
    /// the inventory, then beside the playbook): role defaults; the inventory file's group
    /// variables (`all`, then each group by depth and name); `group_vars/all`;
    /// `group_vars/<group>` by depth and name; the inventory's host variables;
    /// `host_vars/<host>`; the play's `vars`, `vars_prompt` and `vars_files`; the role's
    /// `vars/main.yml`; the role's parameters in the play.
    fn scope(&self, host: Option<&str>) -> Scope {
        let mut scope = Scope::default();
        // The folders whose `group_vars/` and `host_vars/` apply: the inventory's, then the
        // playbooks'.
        let mut var_dirs: Vec<PathBuf> = self
            .inventory
            .map(Inventory::vars_dir)
            .into_iter()
            .collect();
        if !var_dirs.contains(&self.role.project) {
            var_dirs.push(self.role.project.clone());
        }
        self.defaults.iter().for_each(|layer| scope.apply(layer));
        let member_groups = match (self.inventory, host) {
            (Some(inventory), Some(host)) => inventory.groups_of(host),
            _ => Vec::new(),
        };
        if let Some(inventory) = self.inventory {
            if let Some(all) = inventory.group("all") {
                scope.extend(&all.vars);
            }
            for group in &member_groups {
                scope.extend(&group.vars);
            }
        }
        for dir in &var_dirs {
            for layer in vars_of(&dir.join("group_vars"), "all") {
                scope.apply(&layer);
            }
        }
        for group in &member_groups {
            for dir in &var_dirs {
                for layer in vars_of(&dir.join("group_vars"), &group.name) {
                    scope.apply(&layer);
                }
            }
        }
        if let (Some(inventory), Some(host)) = (self.inventory, host) {
            for vars in inventory.host_vars(host) {
                scope.extend(vars);
            }
            for dir in &var_dirs {
                for layer in vars_of(&dir.join("host_vars"), host) {
                    scope.apply(&layer);
                }
            }
            scope.set("inventory_hostname", host);
        }
        if let Some(play) = self.play {
            play.vars.iter().for_each(|layer| scope.apply(layer));
        }
        self.role_vars.iter().for_each(|layer| scope.apply(layer));
        if let Some(play) = self.play {
            scope.extend(&play.params);
        }
        scope
    }
}

/// A role's file rendered for one host: a template through Jinja, a file of `files/` as it
/// stands (`copy` renders nothing).
fn render_role_file(
    role: &Role,
    text: &str,
    scope: &Scope,
    groups: &Groups,
    notes: &mut Vec<String>,
) -> Rendered {
    match role.folder {
        RoleFolder::Templates => render(text, scope, groups, notes),
        RoleFolder::Files => render(
            text,
            &Scope::default(),
            &Groups {
                inventory: None,
                host: None,
            },
            notes,
        ),
    }
}

/// The Kafka release a variable names: `kafka_version: 3.9.0`, or the `version` of a
/// `kafka` dictionary (`kafka: {version: 3.9.0}`, used as `{{ kafka.version }}`); else the one
/// Apache Kafka archive the role's tasks or the variables name (`kafka_2.13-3.9.1.tgz`, the
/// name of every binary release at downloads.apache.org/kafka/<version>/).
fn release(scope: &Scope, tasks_text: &str) -> Option<ImageTag> {
    let named = [
        ("kafka_version", "kafka_version"),
        ("kafka.version", "kafka.version"),
    ]
    .into_iter()
    .find_map(|(name, path)| Some((name, lookup(path, scope)?.text()?.trim().to_string())))
    .filter(|(_, value)| KafkaVersion::parse(value).is_ok());
    let (name, value) = match named {
        Some(found) => found,
        None => {
            let mut versions: Vec<String> = archive_versions(tasks_text);
            for value in scope.vars.values() {
                if let Some(text) = value.text() {
                    versions.extend(archive_versions(text));
                }
            }
            versions.sort();
            versions.dedup();
            let [one] = versions.as_slice() else {
                return None;
            };
            return Some(ImageTag {
                reference: format!("{one} a task downloads"),
                span: 0..0,
                release: KafkaVersion::parse(one).ok()?,
                named_by: NamedBy::AnsibleArchive,
            });
        }
    };
    let release = KafkaVersion::parse(&value).ok()?;
    Some(ImageTag {
        reference: format!("{name} {value}"),
        span: 0..0,
        release,
        named_by: NamedBy::AnsibleVariable,
    })
}

/// The releases of the Apache Kafka archives a text names (`kafka_2.13-3.9.1.tgz`).
fn archive_versions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("kafka_") {
        let after = &rest[at + "kafka_".len()..];
        rest = after;
        // `2.13-3.9.1.tgz`: the Scala release, a dash, Kafka's, the archive's suffix.
        let Some((scala, tail)) = after.split_once('-') else {
            continue;
        };
        if scala.is_empty() || !scala.chars().all(|c| c.is_ascii_digit() || c == '.') {
            continue;
        }
        let end = tail
            .find(".tgz")
            .or_else(|| tail.find(".tar.gz"))
            .unwrap_or(0);
        let version = &tail[..end];
        if !version.is_empty()
            && version.chars().all(|c| c.is_ascii_digit() || c == '.')
            && version.contains('.')
        {
            found.push(version.to_string());
        }
    }
    found
}

/// The keys a role's tasks rewrite in place in its files after they are put on the host
/// (`lineinfile` with `line: broker.id={{ id }}`, `replace` with `regexp: ^broker.id=`):
/// their values are the task's, which kafkalint does not render.
#[derive(Debug, Default)]
struct Edits {
    keys: Vec<String>,
    /// A task edits in a way kafkalint cannot read: any key may be written.
    unknown: bool,
}

impl Edits {
    fn apply(&self, rendered: &mut Rendered) {
        // A key the task adds to a file that does not write it: its value is the task's, and
        // Kafka's default no longer applies.
        if self
            .keys
            .iter()
            .any(|key| !rendered.entries.iter().any(|entry| entry.key == *key))
        {
            rendered.keys_unknown = true;
        }
        for entry in &mut rendered.entries {
            if self.keys.contains(&entry.key) {
                entry.value = format!("{{{{ {} }}}}", "a task's lineinfile");
                entry.edit = None;
                entry.provenance = Provenance::AnsibleVariable;
            }
        }
        rendered.keys_unknown |= self.unknown;
    }
}

/// What the tasks of a role (`tasks/*.yml`, blocks included) edit with `lineinfile` or
/// `replace` in a file whose name is that of `path` (less `.j2`): the key of each `line:`
/// (`key=value`) or `regexp:` (`^key=`, `^#?key\s*=`).
fn edited_keys(role: &Role, path: &str) -> Edits {
    let file_name = Path::new(path)
        .file_name()
        .map(|name| name.to_string_lossy().trim_end_matches(".j2").to_string())
        .unwrap_or_default();
    let mut edits = Edits::default();
    fn visit(tasks: &[Node], file_name: &str, edits: &mut Edits, depth: usize) {
        if depth > 16 {
            return;
        }
        for task in tasks {
            for block in ["block", "rescue", "always"] {
                if let Some(inner) = task.get(block) {
                    visit(inner.items(), file_name, edits, depth + 1);
                }
            }
            for (module, args) in task.entries() {
                let Some(module) = module.text() else {
                    continue;
                };
                let module = module.rsplit('.').next().unwrap_or(module);
                if !matches!(module, "lineinfile" | "replace") {
                    continue;
                }
                let target = args
                    .get("path")
                    .or_else(|| args.get("dest"))
                    .or_else(|| args.get("name"))
                    .and_then(Node::text)
                    .unwrap_or_default();
                // A path whose file name is a variable may be this file; one that names
                // another file is not.
                let names_file = Path::new(target.trim()).file_name().is_none_or(|name| {
                    let name = name.to_string_lossy();
                    name.contains("{{") || name == file_name
                });
                if !names_file {
                    continue;
                }
                let key = args
                    .get("line")
                    .and_then(Node::text)
                    .and_then(|line| line.split_once('=').map(|(key, _)| key.trim().to_string()))
                    .or_else(|| args.get("regexp").and_then(Node::text).and_then(regexp_key));
                match key {
                    Some(key)
                        if !key.is_empty()
                            && key
                                .chars()
                                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c)) =>
                    {
                        edits.keys.push(key)
                    }
                    _ => edits.unknown = true,
                }
            }
        }
    }
    for file in yaml_files(&role.dir.join("tasks")) {
        let Ok(bytes) = crate::source::read_file(&file) else {
            continue;
        };
        if let Ok(documents) = yaml::parse(&String::from_utf8_lossy(&bytes)) {
            for document in &documents {
                visit(document.items(), &file_name, &mut edits, 0);
            }
        }
    }
    edits
}

/// The key a `regexp:` of `lineinfile` matches: `^broker.id=`, `^#?broker\.id\s*=`.
fn regexp_key(regexp: &str) -> Option<String> {
    let body = regexp.trim().trim_start_matches('^');
    let body = body.strip_prefix("#?").unwrap_or(body);
    let body = body.strip_prefix(r"\s*").unwrap_or(body);
    let mut key = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'.') => {
                chars.next();
                key.push('.');
            }
            c if c.is_ascii_alphanumeric() || "._-".contains(c) => key.push(c),
            _ => break,
        }
    }
    (!key.is_empty()).then_some(key)
}

fn node_spec(
    role: &Role,
    environment: Option<&str>,
    host: Option<&String>,
    id: &str,
    rendered: Rendered,
    count_known: bool,
    release: Option<ImageTag>,
) -> NodeSpec {
    let label = match (host, environment) {
        (Some(host), Some(environment)) => format!(
            "host `{host}` (role `{}`, environment `{environment}`)",
            role.name
        ),
        (Some(host), None) => format!("host `{host}` (role `{}`)", role.name),
        (None, Some(environment)) => format!(
            "role `{}` (its hosts in environment `{environment}`, an unknown number)",
            role.name
        ),
        (None, None) => format!("role `{}` (its hosts, an unknown number)", role.name),
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

impl Branch {
    /// An `elif` whose own condition is `next`, after branches of which `before` says whether
    /// one was taken: whether this one is, and whether one is taken so far.
    fn elif(before: Branch, next: Branch) -> (Branch, Branch) {
        let branch = match before {
            Branch::Taken => Branch::NotTaken,
            Branch::Unknown => Branch::Unknown,
            Branch::NotTaken => next,
        };
        let taken = match (before, next) {
            (Branch::Taken, _) | (_, Branch::Taken) => Branch::Taken,
            (Branch::Unknown, _) | (_, Branch::Unknown) => Branch::Unknown,
            _ => Branch::NotTaken,
        };
        (branch, taken)
    }

    /// An `else` after branches of which `before` says whether one was taken.
    fn otherwise(before: Branch) -> Branch {
        match before {
            Branch::Taken => Branch::NotTaken,
            Branch::Unknown => Branch::Unknown,
            Branch::NotTaken => Branch::Taken,
        }
    }
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
    // The lines whose value holds Jinja kafkalint cannot evaluate: said in one note.
    let mut unknown_lines: Vec<usize> = Vec::new();
    let line_starts = crate::source::line_starts(text.as_bytes());
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
                        condition(rest.trim(), &scope, groups)
                    };
                    around.push(state);
                    conditions.push((branch, branch));
                }
                "elif" => {
                    if let Some((branch, before)) = conditions.last_mut() {
                        let next = condition(rest.trim(), &scope, groups);
                        (*branch, *before) = Branch::elif(*before, next);
                    }
                }
                "else" => {
                    if let Some((branch, before)) = conditions.last_mut() {
                        *branch = Branch::otherwise(*before);
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
                if entry.value.contains("{{") {
                    let line = line_starts.partition_point(|&at| at as usize <= start);
                    if unknown_lines.last() != Some(&line) {
                        unknown_lines.push(line);
                    }
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
    if let Some(note) = unknown_values_note(&unknown_lines) {
        notes.push(note);
    }
    Rendered {
        entries,
        keys_unknown,
    }
}

/// The note for values at `lines` that hold Jinja kafkalint cannot evaluate (a fact, a filter,
/// a variable set at run time, a line under a condition it cannot evaluate): unknown values,
/// which no rule judges, said rather than passed over.
fn unknown_values_note(lines: &[usize]) -> Option<String> {
    const SHOWN: usize = 5;
    let (first, rest) = lines.split_first()?;
    let listed: Vec<String> = std::iter::once(first)
        .chain(rest.iter().take(SHOWN - 1))
        .map(usize::to_string)
        .collect();
    let more = lines.len().saturating_sub(SHOWN);
    let noun = if lines.len() == 1 { "line" } else { "lines" };
    let listed = match (listed.split_last(), more) {
        (Some((last, before)), 0) if !before.is_empty() => {
            format!("{} and {last}", before.join(", "))
        }
        (_, 0) => listed.join(", "),
        _ => format!("{} and {more} more", listed.join(", ")),
    };
    let (value, verb) = if lines.len() == 1 {
        ("value", "holds")
    } else {
        ("values", "hold")
    };
    Some(format!(
        "the {value} at {noun} {listed} {verb} Jinja kafkalint cannot evaluate (a fact, a filter, a vault, a variable set at run time, or a condition): unknown, and not judged"
    ))
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

/// A condition: taken, not taken, or unknown. `x`, `not x`, `x | bool`,
/// `x | default(lit)`, `x == lit`, `x != lit`, `x is defined`, `x is not defined`, numbers
/// compared (`groups['kafka'] | length >= 3`, `x | int > 1`), and `and`, `or` and brackets
/// over those, as Jinja evaluates them; anything else is unknown.
fn condition(text: &str, scope: &Scope, groups: &Groups) -> Branch {
    match truth_of(text, scope, groups, 0) {
        Some(true) => Branch::Taken,
        Some(false) => Branch::NotTaken,
        None => Branch::Unknown,
    }
}

/// Jinja's truth of a test, `None` when kafkalint cannot tell.
fn truth_of(text: &str, scope: &Scope, groups: &Groups, depth: usize) -> Option<bool> {
    if depth > MAX_DEPTH || text.len() > MAX_EXPRESSION {
        return None;
    }
    let text = text.trim();
    if let Some(inner) = enclosed(text) {
        return truth_of(inner, scope, groups, depth + 1);
    }
    // `or` binds loosest, then `and`, then `not` (Jinja's parser: parse_or, parse_and,
    // parse_not). Either side may decide alone: `false and ?` is false, `true or ?` true.
    let alternatives = top_level_word(text, "or");
    if alternatives.len() > 1 {
        let mut unknown = false;
        for part in alternatives {
            match truth_of(part, scope, groups, depth + 1) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => unknown = true,
            }
        }
        return (!unknown).then_some(false);
    }
    let all = top_level_word(text, "and");
    if all.len() > 1 {
        let mut unknown = false;
        for part in all {
            match truth_of(part, scope, groups, depth + 1) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => unknown = true,
            }
        }
        return (!unknown).then_some(true);
    }
    if let Some(rest) = text.strip_prefix("not ") {
        return truth_of(rest, scope, groups, depth + 1).map(|truth| !truth);
    }
    if let Some((subject, test)) = text.split_once(" is ") {
        let test = test.trim();
        let (negated, test) = match test.strip_prefix("not ") {
            Some(rest) => (true, rest.trim()),
            None => (false, test),
        };
        let wanted = match test {
            "defined" => true,
            "undefined" => false,
            _ => return None,
        };
        return defined(subject.trim(), scope).map(|is| (is == wanted) != negated);
    }
    if let Some((left, operator, right)) = comparison_parts(text) {
        if let (Some(left), Some(right)) = (
            number(left, scope, groups, depth),
            number(right, scope, groups, depth),
        ) {
            return Some(match operator {
                "==" => left == right,
                "!=" => left != right,
                ">=" => left >= right,
                "<=" => left <= right,
                ">" => left > right,
                _ => left < right,
            });
        }
        return match operator {
            "==" => comparison(left.trim(), right.trim(), scope),
            "!=" => comparison(left.trim(), right.trim(), scope).map(|same| !same),
            _ => None,
        };
    }
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
}

/// Whether a dotted name is defined: `None` when an unreadable layer may define it, or a
/// part of it is a value kafkalint does not know.
fn defined(name: &str, scope: &Scope) -> Option<bool> {
    if !is_dotted_name(name) {
        return None;
    }
    let name = name
        .replace("['", ".")
        .replace("']", "")
        .replace("[\"", ".")
        .replace("\"]", "");
    let mut parts = name.split('.');
    let first = parts.next()?.trim();
    let mut value = match scope.vars.get(first) {
        Some(value) => value,
        None if scope.shadowed.is_some() => return None,
        None => return Some(false),
    };
    for part in parts {
        value = match value {
            Value::Map(_) => match value.get(part.trim()) {
                Some(inner) => inner,
                None => return Some(false),
            },
            _ => return None,
        };
    }
    Some(true)
}

/// A comparison at the top level of `text`: its sides and operator.
fn comparison_parts(text: &str) -> Option<(&str, &'static str, &str)> {
    let mut depth = 0usize;
    let mut quote = None;
    let bytes = text.as_bytes();
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth = depth.saturating_sub(1),
            (None, '=' | '!' | '>' | '<') if depth == 0 => {
                let next = bytes.get(at + 1).copied();
                let operator = match (c, next) {
                    ('=', Some(b'=')) => "==",
                    ('!', Some(b'=')) => "!=",
                    ('>', Some(b'=')) => ">=",
                    ('<', Some(b'=')) => "<=",
                    ('>', _) => ">",
                    ('<', _) => "<",
                    _ => continue,
                };
                return Some((&text[..at], operator, &text[at + operator.len()..]));
            }
            _ => {}
        }
    }
    None
}

/// A side of a comparison as a number: an integer literal, `groups['g'] | length` (the
/// group's hosts in the inventory), or an expression kafkalint works out to an integer.
fn number(text: &str, scope: &Scope, groups: &Groups, depth: usize) -> Option<i64> {
    let text = text.trim();
    let head = text
        .strip_suffix("| length")
        .or_else(|| text.strip_suffix("|length"))
        .or_else(|| text.strip_suffix("| count"))
        .map(str::trim);
    if let Some(head) = head {
        let name = head
            .strip_prefix("groups[")
            .and_then(|rest| rest.strip_suffix(']'))
            .map(|quoted| quoted.trim_matches(['\'', '"']))
            .or_else(|| head.strip_prefix("groups."))?;
        let inventory = groups.inventory?;
        return i64::try_from(inventory.members(name).len()).ok();
    }
    if text.starts_with(['\'', '"']) {
        return None;
    }
    expression(text, scope, groups, depth + 1)?
        .trim()
        .parse()
        .ok()
}

/// `text` split at each `word` (` or `, ` and `) outside brackets and quotes.
fn top_level_word<'t>(text: &'t str, word: &str) -> Vec<&'t str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut quote = None;
    let mut start = 0;
    let separator = format!(" {word} ");
    let mut at = 0;
    while at < text.len() {
        let c = text[at..].chars().next().unwrap_or(' ');
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(' | '[') => depth += 1,
            (None, ')' | ']') => depth = depth.saturating_sub(1),
            (None, ' ') if depth == 0 && text[at..].starts_with(&separator) => {
                parts.push(&text[start..at]);
                at += separator.len();
                start = at;
                continue;
            }
            _ => {}
        }
        at += c.len_utf8();
    }
    parts.push(&text[start..]);
    parts
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
    let (left, left_is_string) = match written {
        Written::Quoted => (left, true),
        Written::Plain => {
            let is_string = plain_is_string(&left);
            (left, is_string)
        }
        Written::Ini => match ini_literal(&left)? {
            IniLiteral::String(text) => (text, true),
            IniLiteral::Number(_) => (left, false),
            IniLiteral::Bool(_) | IniLiteral::None => return None,
        },
    };
    let right_is_string = right.starts_with(['\'', '"']);
    let right = literal(right)?;
    // A number or boolean compared with a string (or the other way) is a question of types
    // kafkalint does not answer.
    (left_is_string == right_is_string).then(|| left.trim() == right)
}

/// What an INI inventory's value is once Ansible reads it: ansible-core's INI plugin
/// (lib/ansible/plugins/inventory/ini.py `_parse_value`) tries `ast.literal_eval` and keeps
/// the text as a string when that fails, so `false` is the string "false" (true to Jinja),
/// `False` the boolean.
enum IniLiteral {
    Number(f64),
    Bool(bool),
    None,
    String(String),
}

/// `None` for a Python literal kafkalint does not read (a list, a dictionary, a tuple).
fn ini_literal(text: &str) -> Option<IniLiteral> {
    let text = text.trim();
    if let Ok(number) = text.replace('_', "").parse::<f64>()
        && !text.eq_ignore_ascii_case("nan")
        && !text.to_ascii_lowercase().contains("inf")
    {
        return Some(IniLiteral::Number(number));
    }
    match text {
        "True" => return Some(IniLiteral::Bool(true)),
        "False" => return Some(IniLiteral::Bool(false)),
        "None" => return Some(IniLiteral::None),
        _ => {}
    }
    if text.starts_with(['[', '{', '(']) {
        return None;
    }
    for quote in ['\'', '"'] {
        if let Some(inner) = text
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return (!inner.contains(['\\', quote])).then(|| IniLiteral::String(inner.to_string()));
        }
    }
    Some(IniLiteral::String(text.to_string()))
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
    let mut value = scope.get(first)?;
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

/// A role's compose template rendered for one host: the compose file Ansible writes there.
pub struct HostCompose {
    pub host: String,
    pub text: String,
    /// For each line of `text`, the template's line it was rendered from (0-based).
    pub lines: Vec<usize>,
}

/// A role's compose template rendered on each host of one environment's inventory.
pub struct EnvironmentCompose {
    pub environment: Option<String>,
    pub hosts: Vec<HostCompose>,
}

/// Environment variables whose value decides the nodes, their ids, their roles or the
/// internal topics' factors: Jinja kafkalint cannot evaluate in one leaves the template
/// unread rather than a node of unknown id or role.
const DECIDING_VARIABLES: &[&str] = &[
    "NODE_ID",
    "BROKER_ID",
    "PROCESS_ROLES",
    "REPLICATION_FACTOR",
    "MIN_INSYNC_REPLICAS",
    "QUORUM_VOTERS",
    "QUORUM_BOOTSTRAP",
];

/// Renders the compose template at `path` (whose text is `text`) on each host that runs its
/// role, with the same hosts and variables as [`read`]: one list per environment. `Err`
/// says, in a few words and never with a value, why it is not rendered (no known hosts, or
/// Jinja kafkalint cannot evaluate where it decides what runs).
pub fn render_compose(
    path: &str,
    text: &str,
    notes_out: &mut Vec<String>,
    refused: &mut Vec<RefusedInventory>,
) -> Result<Vec<EnvironmentCompose>, String> {
    let Some(role) = Role::of(path) else {
        return Err("it is no role's template".into());
    };
    if let Some((open, why)) = unread_tag(text) {
        return Err(format!("a `{open}` of it {why}"));
    }
    // A task that edits the written file in place (`lineinfile`, `replace`) changes lines
    // kafkalint would read as the template's.
    let edits = edited_keys(&role, path);
    if edits.unknown || !edits.keys.is_empty() {
        return Err("a task of its role edits the written file in place".into());
    }
    // A `template` task may set Jinja's whitespace options otherwise than their defaults.
    let sets_whitespace = yaml_files(&role.dir.join("tasks")).iter().any(|file| {
        crate::source::read_file(file).is_ok_and(|bytes| {
            let has = |needle: &[u8]| memchr::memmem::find(&bytes, needle).is_some();
            has(b"trim_blocks") || has(b"lstrip_blocks")
        })
    });
    if sets_whitespace {
        return Err("a task of its role sets Jinja's whitespace options".into());
    }
    // The notes of the hosts' reading say "one node of an unknown number": not what is done
    // here, where no known host means nothing is read.
    let mut notes = Vec::new();
    let environments = per_host(
        &role,
        text,
        &mut notes,
        refused,
        |_, host, scope, groups, context, _| match host {
            Some(host) => {
                render_compose_text(text, scope, groups, &|other| context.scope(Some(other))).map(
                    |(text, lines)| HostCompose {
                        host: host.clone(),
                        text,
                        lines,
                    },
                )
            }
            None => {
                Err("no inventory beside its playbooks lists the hosts its role runs on".into())
            }
        },
    );
    let mut rendered = Vec::new();
    for (environment, hosts) in environments {
        rendered.push(EnvironmentCompose {
            environment,
            hosts: hosts.into_iter().collect::<Result<_, _>>()?,
        });
    }
    // What a vault or a prompt may set is unknown in the scope already: said, not refused.
    notes_out.extend(notes);
    Ok(rendered)
}

/// A compose template's text as Jinja renders it for one host, as Ansible's `template`
/// module sets Jinja up by default (ansible/ansible, lib/ansible/plugins/action/template.py at
/// v2.16.0: `trim_blocks` True, `lstrip_blocks` False unless the task says otherwise): a block tag's line loses its line break, the
/// spaces before the tag staying at the start of the next line rendered. `{% if %}`,
/// `{% elif %}`, `{% else %}`, `{% endif %}` on lines of their own and `{{ ... }}` in lines;
/// anything else is refused (`Err`, the line said), except an expression it cannot evaluate
/// in an environment variable's value that decides no node, id or factor, which becomes an
/// unknown value no rule judges.
fn render_compose_text(
    text: &str,
    scope: &Scope,
    groups: &Groups,
    hostvars: &dyn Fn(&str) -> Scope,
) -> Result<(String, Vec<usize>), String> {
    let first = text.lines().next().unwrap_or_default();
    if first.starts_with("#jinja2:") {
        return Err("line 1 sets Jinja's own options".into());
    }
    for marker in ["{%-", "-%}", "{%+", "+%}", "{{-", "-}}", "{#-", "-#}"] {
        if let Some(at) = text.find(marker) {
            let line = text[..at].matches('\n').count() + 1;
            return Err(format!("line {line} strips whitespace with `{marker}`"));
        }
    }
    let mut out = String::new();
    let mut lines = Vec::new();
    let mut conditions: Vec<(Branch, Branch)> = Vec::new();
    let mut around: Vec<Branch> = Vec::new();
    // The spaces before a block tag, written at the start of the next line rendered.
    let mut pending = String::new();
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let number = index + 1;
        let line = strip_comments(raw)
            .ok_or_else(|| format!("line {number} opens a comment over several lines"))?;
        let state = match (around.last(), conditions.last()) {
            (Some(outside), Some((branch, _))) => within(*outside, *branch),
            _ => Branch::Taken,
        };
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some(tag) = statement(body.trim()) {
            let (word, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            if state == Branch::Taken {
                pending.push_str(&body[..body.len() - body.trim_start().len()]);
            }
            match word {
                "if" => {
                    let branch = if conditions.len() >= MAX_CONDITIONS {
                        Branch::Unknown
                    } else {
                        condition(rest.trim(), scope, groups)
                    };
                    around.push(state);
                    conditions.push((branch, branch));
                }
                "elif" => {
                    let Some((branch, before)) = conditions.last_mut() else {
                        return Err(format!("line {number} has an `elif` outside an `if`"));
                    };
                    let next = condition(rest.trim(), scope, groups);
                    (*branch, *before) = Branch::elif(*before, next);
                }
                "else" => {
                    let Some((branch, before)) = conditions.last_mut() else {
                        return Err(format!("line {number} has an `else` outside an `if`"));
                    };
                    *branch = Branch::otherwise(*before);
                    *before = Branch::Taken;
                }
                "endif" => {
                    conditions.pop();
                    around.pop();
                }
                _ => {
                    return Err(format!(
                        "line {number} has a `{word}` block kafkalint does not render"
                    ));
                }
            }
            let now = match (around.last(), conditions.last()) {
                (Some(outside), Some((branch, _))) => within(*outside, *branch),
                _ => Branch::Taken,
            };
            if now == Branch::Unknown {
                return Err(format!(
                    "line {number} has a condition kafkalint cannot evaluate"
                ));
            }
            continue;
        }
        if state != Branch::Taken {
            continue;
        }
        if line.contains("{%") {
            // A loop over a group's hosts within the line (`1@{{ hostvars[h].ip }},...`),
            // its tag ending the line: trim_blocks takes the line's break, which the loop's
            // last pass must write itself.
            let rendered = inline_host_loop(&line, scope, groups, hostvars).ok_or_else(|| {
                format!(
                    "line {number} holds a block tag within its text that kafkalint does not render"
                )
            })?;
            out.push_str(&pending);
            pending.clear();
            out.push_str(&rendered);
            lines.push(index);
            continue;
        }
        let rendered = render_compose_line(&line, scope, groups).ok_or_else(|| {
            format!(
                "line {number} holds Jinja kafkalint cannot evaluate where it decides what runs"
            )
        })?;
        if rendered.trim_end_matches(['\n', '\r']).contains('\n') {
            return Err(format!("line {number} renders over several lines"));
        }
        out.push_str(&pending);
        pending.clear();
        out.push_str(&rendered);
        lines.push(index);
    }
    out.push_str(&pending);
    if !conditions.is_empty() {
        return Err("an `if` is never closed".into());
    }
    Ok((out, lines))
}

/// A line `PREFIX{% for h in groups['g'] %}BODY{% endfor %}` rendered, as Jinja writes it
/// with trim_blocks: PREFIX, then BODY once per host of group `g` (in the inventory's order),
/// `{{ ... }}` in it worked out with `h` the host's name, `hostvars[h].x` its variables,
/// `loop.first`, `loop.last` and `A if C else B` on those. A closing tag that ends the line
/// takes its break, so the last pass must end the line itself (`"\n"`); text after the tag
/// keeps it, and the loop writes no line break. `None` for anything else
/// or any expression it cannot evaluate: no unknown value is written into a loop's text.
fn inline_host_loop(
    line: &str,
    scope: &Scope,
    groups: &Groups,
    hostvars: &dyn Fn(&str) -> Scope,
) -> Option<String> {
    let body_line = line.strip_suffix('\n').unwrap_or(line);
    let open = body_line.find("{%")?;
    let prefix = render_compose_line(&body_line[..open], scope, groups)?;
    if prefix.contains("{{ unknown }}") {
        return None;
    }
    let rest = &body_line[open + 2..];
    let tag_end = rest.find("%}")?;
    let tag = rest[..tag_end].trim();
    let rest = &rest[tag_end + 2..];
    let (variable, source) = tag.strip_prefix("for ")?.split_once(" in ")?;
    let variable = variable.trim();
    if !is_dotted_name(variable) || variable.contains('.') {
        return None;
    }
    let source = source.trim();
    let group = source
        .strip_prefix("groups[")?
        .strip_suffix(']')
        .and_then(literal)?;
    let (body, suffix) = rest.split_once("{% endfor %}")?;
    if body.contains("{%") || suffix.contains("{%") || !line.ends_with('\n') {
        return None;
    }
    let inventory = groups.inventory?;
    let members = inventory.members(&group);
    let mut out = prefix;
    for (position, host) in members.iter().enumerate() {
        let host_scope = hostvars(host);
        let item = LoopItem {
            variable,
            host,
            host_scope: &host_scope,
            first: position == 0,
            last: position + 1 == members.len(),
        };
        let mut text = body;
        while let Some(at) = text.find("{{") {
            out.push_str(&text[..at]);
            let close = text[at..].find("}}")? + at;
            out.push_str(&loop_expression(
                text[at + 2..close].trim(),
                &item,
                scope,
                groups,
            )?);
            text = &text[close + 2..];
        }
        out.push_str(text);
    }
    if suffix.is_empty() {
        // The loop wrote the line's break itself, and no other.
        let kept = out.strip_suffix('\n')?;
        return (!kept.contains('\n')).then(|| format!("{kept}\n"));
    }
    // Text after the closing tag: the line keeps its break, and the loop writes none.
    let suffix = render_compose_line(suffix, scope, groups)?;
    (!out.contains('\n') && !suffix.contains("{{ unknown }}")).then(|| format!("{out}{suffix}\n"))
}

/// One pass of a loop over a group's hosts.
struct LoopItem<'a> {
    variable: &'a str,
    host: &'a str,
    host_scope: &'a Scope,
    first: bool,
    last: bool,
}

/// An expression in a loop over hosts: `A if C else B`, the loop's host, its variables, a
/// string literal (with `\n`), or any expression of the host being rendered.
fn loop_expression(text: &str, item: &LoopItem, scope: &Scope, groups: &Groups) -> Option<String> {
    let parts = top_level_word(text, "if");
    if parts.len() == 2 {
        let (when, otherwise) = {
            let rest = top_level_word(parts[1], "else");
            if rest.len() != 2 {
                return None;
            }
            (rest[0].trim(), rest[1].trim())
        };
        let taken = match when {
            "loop.last" => item.last,
            "not loop.last" => !item.last,
            "loop.first" => item.first,
            "not loop.first" => !item.first,
            _ => return None,
        };
        let chosen = if taken { parts[0] } else { otherwise };
        return loop_expression(chosen.trim(), item, scope, groups);
    }
    if parts.len() > 2 {
        return None;
    }
    if text == item.variable {
        return Some(item.host.to_string());
    }
    if let Some(quoted) = text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .or_else(|| {
            text.strip_prefix('\'')
                .and_then(|rest| rest.strip_suffix('\''))
        })
    {
        if quoted.contains(['"', '\'']) {
            return None;
        }
        // Python's escapes in a Jinja string: the two kafkalint keeps.
        return Some(quoted.replace("\\n", "\n").replace("\\\\", "\\"));
    }
    let of_host = [
        format!("hostvars[{}].", item.variable),
        format!("hostvars[{}]['", item.variable),
    ];
    for head in &of_host {
        if let Some(name) = text.strip_prefix(head.as_str()) {
            let name = name.trim_end_matches("']");
            if !is_dotted_name(name) {
                return None;
            }
            return lookup(name, item.host_scope)?.text().map(str::to_string);
        }
    }
    if text.contains(item.variable) || text.contains("loop.") || text.contains("hostvars") {
        return None;
    }
    expression(text, scope, groups, 0)
}

/// A line without its one-line Jinja comments (`{# ... #}`); `None` when one is not closed on it.
fn strip_comments(line: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find("{#") {
        out.push_str(&rest[..open]);
        let close = rest[open..].find("#}")? + open;
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// A line of a compose template with its `{{ ... }}` worked out. An expression kafkalint
/// cannot evaluate becomes `{{ unknown }}` (a placeholder no rule judges) only in the value of
/// an environment variable (`- NAME=...`, `NAME: value...`) that decides no node, id or
/// factor; anywhere else it is `None`.
fn render_compose_line(line: &str, scope: &Scope, groups: &Groups) -> Option<String> {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let close = rest[open..].find("}}")? + open;
        match expression(rest[open + 2..close].trim(), scope, groups, 0) {
            Some(value) => out.push_str(&value),
            None if in_free_variable_value(&out) => out.push_str("{{ unknown }}"),
            None => return None,
        }
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// Whether text rendered so far on a line (`before`) ends within the value of an environment
/// variable that decides no node, id or factor: `- NAME=` or `- "NAME=` in a list, or
/// `NAME: ` followed by text or a quote in a mapping, with an upper-case NAME.
fn in_free_variable_value(before: &str) -> bool {
    let body = before.trim_start();
    let name = if let Some(item) = body.strip_prefix("- ") {
        let item = item.trim_start().trim_start_matches(['"', '\'']);
        match item.split_once('=') {
            Some((name, _)) => name,
            None => return false,
        }
    } else {
        // A value that starts with the expression would start a flow mapping in YAML.
        match body.split_once(": ") {
            Some((name, value)) if !value.trim().is_empty() => name.trim_matches(['"', '\'']),
            _ => return false,
        }
    };
    let env_name = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    env_name
        && !DECIDING_VARIABLES
            .iter()
            .any(|deciding| name.contains(deciding))
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

    fn compose_rendered(text: &str) -> Result<(String, Vec<usize>), String> {
        let mut scope = Scope::default();
        let vars =
            yaml::parse("image: apache/kafka:3.9.0\nrf: 3\nports:\n  broker: 9092\n").unwrap();
        scope.layer(vars.first());
        let groups = Groups {
            inventory: None,
            host: None,
        };
        render_compose_text(text, &scope, &groups, &|_| Scope::default())
    }

    #[test]
    fn compose_templates_render_as_jinja_writes_them_or_not_at_all() {
        // Variables, dotted names, a condition on a line of its own: its line and break
        // gone, its leading spaces kept at the start of the next line (trim_blocks only).
        let text = "services:\n  kafka:\n    image: {{ image }}\n    environment:\n  {% if rf > 1 %}\n    KAFKA_MIN_INSYNC_REPLICAS: \"2\"\n  {% endif %}\n    X: {{ ports.broker }}\n";
        let (out, lines) = compose_rendered(text).unwrap();
        assert_eq!(
            out,
            "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_MIN_INSYNC_REPLICAS: \"2\"\n      X: 9092\n"
        );
        assert_eq!(lines, vec![0, 1, 2, 3, 5, 7]);
        // An unknown value of a variable that decides nothing stays unknown; one that
        // decides the nodes, their ids or factors, or sits anywhere else, is refused.
        let (out, _) = compose_rendered(
            "      - KAFKA_CFG_ADVERTISED_LISTENERS=PLAINTEXT://{{ ansible_host }}:9092\n",
        )
        .unwrap();
        assert!(out.contains("PLAINTEXT://{{ unknown }}:9092"));
        for refused in [
            "    image: {{ other }}\n",
            "      - KAFKA_CFG_NODE_ID={{ other }}\n",
            "      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: \"{{ other }}\"\n",
            "      X: {{ other }}\n",
            "{% if other %}\n      X: 1\n{% endif %}\n",
            "{% for h in groups['kafka'] %}\n{% endfor %}\n",
            "      - V={% for h in groups['kafka'] %}{{ h }}{% endfor %}\n",
            "{%- if rf %}\n{% endif %}\n",
            "{% if rf > 1 %}\n",
        ] {
            assert!(compose_rendered(refused).is_err(), "{refused:?}");
        }
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
        scope.vars.insert("ini_bool".into(), Value::ini("False"));
        scope.vars.insert("ini_list".into(), Value::ini("[1]"));
        // A non-empty string is true; a quoted 'false' too; an INI value's type is Ansible's
        // (`ast.literal_eval`, else the text): `false` a string, `False` a boolean.
        let out = rendered(
            "{% if mech %}\na=1\n{% endif %}\n{% if quoted %}\nb=1\n{% endif %}\n{% if ini %}\nc=1\n{% endif %}\n{% if ini_bool %}\nd=1\n{% endif %}\n{% if ini_list %}\ne=1\n{% endif %}\n",
            &scope,
        );
        assert_eq!(value(&out, "a"), Some("1"));
        assert_eq!(value(&out, "b"), Some("1"));
        assert_eq!(value(&out, "c"), Some("1"));
        assert_eq!(value(&out, "d"), None);
        assert!(value(&out, "e").unwrap().contains("{{"));
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

    #[test]
    fn conditions_with_and_or_tests_and_group_sizes() {
        let mut scope = Scope::default();
        let vars =
            yaml::parse("env: prod\nrf: 3\nkafka: {version: 3.9.0}\ntls: \"{{ x }}\"\n").unwrap();
        scope.layer(vars.first());
        let mut inventory = Inventory::default();
        ini_groups("[kafka]\nk[1:3]\n", &mut inventory);
        let groups = Groups {
            inventory: Some(&inventory),
            host: None,
        };
        let truth = |text: &str| condition(text, &scope, &groups);
        assert_eq!(truth("groups['kafka'] | length >= 3"), Branch::Taken);
        assert_eq!(truth("groups.kafka | length < 3"), Branch::NotTaken);
        assert_eq!(truth("env is defined and env == 'prod'"), Branch::Taken);
        assert_eq!(
            truth("missing is defined and unknown_call()"),
            Branch::NotTaken
        );
        assert_eq!(truth("missing is not defined"), Branch::Taken);
        assert_eq!(truth("kafka.version is defined"), Branch::Taken);
        assert_eq!(truth("kafka.other is defined"), Branch::NotTaken);
        // A template's value is defined, its truth unknown.
        assert_eq!(truth("tls is defined"), Branch::Taken);
        assert_eq!(truth("tls"), Branch::Unknown);
        assert_eq!(truth("(env == 'dev') or rf | int > 1"), Branch::Taken);
        assert_eq!(truth("env == 'dev' or something(x)"), Branch::Unknown);
        assert_eq!(truth("not (env == 'dev')"), Branch::Taken);
        assert_eq!(truth("'a or b' == env"), Branch::Unknown);
    }

    #[test]
    fn an_unreadable_layer_makes_what_it_may_set_unknown() {
        let mut scope = Scope::default();
        let vars =
            yaml::parse("rf: 1\nsecret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n").unwrap();
        scope.layer(vars.first());
        assert!(matches!(scope.vars.get("secret"), Some(Value::Unknown)));
        scope.apply(&Layer::Unreadable("group_vars/all/vault.yml".into()));
        // Set below the vault, or not at all: the vault may set it.
        assert!(matches!(lookup("rf", &scope), Some(Value::Unknown)));
        assert!(matches!(lookup("anything", &scope), Some(Value::Unknown)));
        assert_eq!(
            condition(
                "anything is defined",
                &scope,
                &Groups {
                    inventory: None,
                    host: None
                }
            ),
            Branch::Unknown
        );
        // Set above it: known again.
        let later = yaml::parse("rf: 3\n").unwrap();
        scope.apply(&Layer::Read(later[0].clone()));
        assert_eq!(lookup("rf", &scope).and_then(Value::text), Some("3"));
        let out = rendered("a={{ anything | default(1) }}\nb=2\n", &scope);
        assert!(value(&out, "a").unwrap().contains("{{"));
        assert_eq!(value(&out, "b"), Some("2"));
    }

    #[test]
    fn keys_a_task_rewrites_and_where_inventories_are() {
        assert_eq!(regexp_key("^broker.id="), Some("broker.id".into()));
        assert_eq!(regexp_key(r"^#?broker\.id\s*="), Some("broker.id".into()));
        assert_eq!(regexp_key("^(advertised|listeners)"), None);
        let project = Path::new("repo");
        assert_eq!(
            environment_of(project, Path::new("repo/inventories/prod")),
            "prod"
        );
        assert_eq!(
            environment_of(project, Path::new("repo/inventories/staging.ini")),
            "staging"
        );
        assert_eq!(
            environment_of(project, Path::new("repo/hosts.ini")),
            "hosts.ini"
        );
        assert!(is_role_template(
            "roles/kafka/templates/kraft/server.properties.j2"
        ));
        assert!(is_role_template("roles/kafka/files/server.properties"));
        assert!(is_role_template("roles/kafka/templates/server.properties"));
        assert!(!is_role_template("roles/kafka/files/server.properties.j2"));
        assert!(!is_role_template("roles/kafka/server.properties"));
    }
}
