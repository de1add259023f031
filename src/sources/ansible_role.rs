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

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::yaml::{self, Node};
use super::{Edit, ImageTag, NamedBy, NodeSpec, Runtime, Style, YamlEntry};
use crate::catalog::KafkaVersion;
use crate::properties::{Provenance, Span};

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
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|window| window == needle);
    has(b"process.roles") || has(b"broker.id") || has(b"zookeeper.connect") || has(b"log.dirs")
}

/// A variable's value: a scalar's text, a mapping (for `for` loops and dotted names), or a
/// list, which no line kafkalint renders takes.
#[derive(Debug, Clone)]
enum Value {
    Text(String),
    Map(Vec<(String, Value)>),
    List,
}

impl Value {
    fn of(node: &Node) -> Value {
        match node {
            Node::Scalar(scalar) => Value::Text(if scalar.is_null() {
                String::new()
            } else {
                scalar.value.clone()
            }),
            Node::Seq(_) => Value::List,
            Node::Map(entries) => Value::Map(
                entries
                    .iter()
                    .filter_map(|(key, value)| Some((key.text()?.to_string(), Value::of(value))))
                    .collect(),
            ),
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
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

    fn set(&mut self, name: &str, value: &str) {
        self.vars
            .insert(name.to_string(), Value::Text(value.to_string()));
    }
}

/// An inventory: its groups, each with hosts, variables and children.
#[derive(Debug, Default)]
struct Inventory {
    path: PathBuf,
    groups: Vec<InventoryGroup>,
}

#[derive(Debug, Default)]
struct InventoryGroup {
    name: String,
    hosts: Vec<(String, Vec<(String, Value)>)>,
    vars: Vec<(String, Value)>,
    children: Vec<String>,
}

impl Inventory {
    fn group(&self, name: &str) -> Option<&InventoryGroup> {
        self.groups.iter().find(|group| group.name == name)
    }

    /// The hosts of `name` and its children, each once, in inventory order.
    fn members(&self, name: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut seen = Vec::new();
        self.collect(name, &mut found, &mut seen);
        found
    }

    fn collect(&self, name: &str, found: &mut Vec<String>, seen: &mut Vec<String>) {
        if seen.iter().any(|known| known == name) {
            return;
        }
        seen.push(name.to_string());
        let Some(group) = self.group(name) else {
            return;
        };
        for (host, _) in &group.hosts {
            if !found.contains(host) {
                found.push(host.clone());
            }
        }
        for child in &group.children {
            self.collect(child, found, seen);
        }
    }

    /// The groups `host` is in (directly or through a parent's children), outermost first.
    fn groups_of(&self, host: &str) -> Vec<&InventoryGroup> {
        self.groups
            .iter()
            .filter(|group| {
                group.name != "all" && self.members(&group.name).iter().any(|h| h == host)
            })
            .collect()
    }

    fn read(path: &Path) -> Option<Inventory> {
        let bytes = crate::source::read_file(path).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        let groups = if yaml::is_yaml_name(&name) {
            let documents = yaml::parse(&text).ok()?;
            yaml_groups(documents.first()?)
        } else {
            ini_groups(&text)
        };
        (!groups.is_empty()).then(|| Inventory {
            path: path.to_path_buf(),
            groups,
        })
    }
}

/// The groups of a YAML inventory: top-level groups and those under `children:`.
fn yaml_groups(document: &Node) -> Vec<InventoryGroup> {
    fn collect(name: &str, node: &Node, found: &mut Vec<InventoryGroup>, depth: usize) {
        if depth > 32 || !matches!(node, Node::Map(_) | Node::Scalar(_)) {
            return;
        }
        let vars = |node: Option<&Node>| -> Vec<(String, Value)> {
            node.map(Node::entries)
                .unwrap_or_default()
                .iter()
                .filter_map(|(k, v)| Some((k.text()?.to_string(), Value::of(v))))
                .collect()
        };
        let hosts = node
            .get("hosts")
            .map(Node::entries)
            .unwrap_or_default()
            .iter()
            .filter_map(|(host, host_vars)| Some((host.text()?.to_string(), vars(Some(host_vars)))))
            .collect();
        let children: Vec<(&Node, &Node)> = node
            .get("children")
            .map(Node::entries)
            .unwrap_or_default()
            .iter()
            .map(|(k, v)| (k, v))
            .collect();
        found.push(InventoryGroup {
            name: name.to_string(),
            hosts,
            vars: vars(node.get("vars")),
            children: children
                .iter()
                .filter_map(|(k, _)| k.text().map(str::to_string))
                .collect(),
        });
        for (child, child_node) in children {
            if let Some(child) = child.text() {
                collect(child, child_node, found, depth + 1);
            }
        }
    }
    let mut found = Vec::new();
    for (key, group) in document.entries() {
        if let Some(name) = key.text() {
            collect(name, group, &mut found, 0);
        }
    }
    // A group named under several parents is one group: its hosts and children together.
    let mut merged: Vec<InventoryGroup> = Vec::new();
    for group in found {
        match merged.iter_mut().find(|known| known.name == group.name) {
            Some(known) => {
                known.hosts.extend(group.hosts);
                known.vars.extend(group.vars);
                known.children.extend(group.children);
            }
            None => merged.push(group),
        }
    }
    merged
}

/// The groups of an INI inventory: `[group]` host lines (`name key=value ...`),
/// `[group:vars]` and `[group:children]`; hosts before any section are in `ungrouped`.
fn ini_groups(text: &str) -> Vec<InventoryGroup> {
    let mut groups: Vec<InventoryGroup> = Vec::new();
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
        let index = match groups.iter().position(|group| group.name == section.0) {
            Some(index) => index,
            None => {
                groups.push(InventoryGroup {
                    name: section.0.clone(),
                    ..InventoryGroup::default()
                });
                groups.len() - 1
            }
        };
        let group = &mut groups[index];
        match section.1 {
            "vars" => {
                if let Some((key, value)) = line.split_once('=') {
                    group
                        .vars
                        .push((key.trim().to_string(), Value::Text(ini_value(value.trim()))));
                }
            }
            "children" => group.children.push(line.to_string()),
            _ => {
                let mut words = line.split_whitespace();
                let Some(host) = words.next() else { continue };
                let vars = words
                    .filter_map(|word| word.split_once('='))
                    .map(|(key, value)| (key.to_string(), Value::Text(ini_value(value))))
                    .collect();
                group.hosts.push((host.to_string(), vars));
            }
        }
    }
    groups
}

fn ini_value(value: &str) -> String {
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(value)
        .to_string()
}

/// Reads a YAML file of variables (`defaults/main.yml`), if there is one.
fn vars_file(dir: &Path, stem: &str) -> Option<Node> {
    ["yml", "yaml", ""].iter().find_map(|extension| {
        let name = if extension.is_empty() {
            stem.to_string()
        } else {
            format!("{stem}.{extension}")
        };
        let path = dir.join(name);
        if !path.is_file() {
            return None;
        }
        let bytes = crate::source::read_file(&path).ok()?;
        yaml::parse(std::str::from_utf8(&bytes).ok()?)
            .ok()?
            .into_iter()
            .next()
    })
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

    /// The group a playbook beside `roles/` applies the role to.
    fn playbook_group(&self) -> Option<String> {
        let entries = std::fs::read_dir(&self.project).ok()?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.is_file() && yaml::is_yaml_name(&path.to_string_lossy()))
            .collect();
        paths.sort();
        for path in paths {
            let Ok(bytes) = crate::source::read_file(&path) else {
                continue;
            };
            let Ok(documents) = yaml::parse(&String::from_utf8_lossy(&bytes)) else {
                continue;
            };
            for play in documents.iter().flat_map(Node::items) {
                let applies = play
                    .get("roles")
                    .map(Node::items)
                    .unwrap_or_default()
                    .iter()
                    .any(|role| {
                        role.text()
                            .or_else(|| role.get("role").and_then(Node::text))
                            .or_else(|| role.get("name").and_then(Node::text))
                            .is_some_and(|name| name.trim() == self.name)
                    });
                if applies && let Some(hosts) = play.get("hosts").and_then(Node::text) {
                    return Some(hosts.trim().to_string());
                }
            }
        }
        None
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
    let defaults = vars_file(&role.dir.join("defaults"), "main");
    let role_vars = vars_file(&role.dir.join("vars"), "main");
    let inventories = role.inventories();
    let group = indexed_group(text).or_else(|| role.playbook_group());
    let inventory = match (&group, inventories.as_slice()) {
        (Some(group), _) => {
            let holding: Vec<&Inventory> = inventories
                .iter()
                .filter(|inventory| !inventory.members(group).is_empty())
                .collect();
            match holding.as_slice() {
                [one] => Some(*one),
                [] => {
                    notes.push(format!(
                        "role `{}` runs on the hosts of group `{group}`, which no inventory beside its playbooks holds; read as one node of an unknown number",
                        role.name
                    ));
                    None
                }
                _ => {
                    notes.push(format!(
                        "role `{}` runs on group `{group}`, which several inventories hold ({}); read as one node of an unknown number",
                        role.name,
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
        (None, _) => {
            notes.push(format!(
                "role `{}`: no playbook beside it says which hosts run it; read as one node of an unknown number",
                role.name
            ));
            None
        }
    };
    let base_scope = |inventory: Option<&Inventory>| {
        let mut scope = Scope::default();
        scope.layer(defaults.as_ref());
        let mut group_vars_dirs = Vec::new();
        if let Some(inventory) = inventory
            && let Some(dir) = inventory.path.parent()
        {
            group_vars_dirs.push(dir.join("group_vars"));
        }
        group_vars_dirs.push(role.project.join("group_vars"));
        group_vars_dirs.dedup();
        for dir in &group_vars_dirs {
            scope.layer(vars_file(dir, "all").as_ref());
            scope.layer(vars_file(&dir.join("all"), "main").as_ref());
        }
        if let Some(all) = inventory.and_then(|inventory| inventory.group("all")) {
            for (key, value) in &all.vars {
                scope.vars.insert(key.clone(), value.clone());
            }
        }
        (scope, group_vars_dirs)
    };
    let mut nodes = Vec::new();
    match (inventory, &group) {
        (Some(inventory), Some(group)) => {
            let hosts = inventory.members(group);
            for (position, host) in hosts.iter().enumerate() {
                let (mut scope, group_vars_dirs) = base_scope(Some(inventory));
                for member_group in inventory.groups_of(host) {
                    for dir in &group_vars_dirs {
                        scope.layer(vars_file(dir, &member_group.name).as_ref());
                    }
                    for (key, value) in &member_group.vars {
                        scope.vars.insert(key.clone(), value.clone());
                    }
                }
                for member_group in &inventory.groups {
                    for (name, vars) in &member_group.hosts {
                        if name == host {
                            for (key, value) in vars {
                                scope.vars.insert(key.clone(), value.clone());
                            }
                        }
                    }
                }
                if let Some(dir) = inventory.path.parent() {
                    scope.layer(vars_file(&dir.join("host_vars"), host).as_ref());
                }
                scope.layer(role_vars.as_ref());
                scope.set("inventory_hostname", host);
                let groups = Groups {
                    inventory: Some(inventory),
                    host: Some((host.as_str(), position)),
                };
                let entries = render(text, &scope, &groups, notes);
                nodes.push(node_spec(
                    &role,
                    Some(host),
                    &format!("{} {host}", role.name),
                    entries,
                    true,
                    release(&scope),
                ));
            }
        }
        _ => {
            let (mut scope, _) = base_scope(None);
            scope.layer(role_vars.as_ref());
            let groups = Groups {
                inventory: None,
                host: None,
            };
            let entries = render(text, &scope, &groups, notes);
            nodes.push(node_spec(
                &role,
                None,
                &format!("{} (every host)", role.name),
                entries,
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
    entries: Vec<YamlEntry>,
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
        entries,
        count_known,
        image: None,
        image_tag: release,
        component: None,
        forbidden: Vec::new(),
        runtime: Runtime::Machine {
            host: host
                .cloned()
                .unwrap_or_else(|| format!("role {}", role.name)),
        },
        image_exit: None,
        settings_elsewhere: false,
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

/// Renders the template's lines into settings.
fn render(text: &str, scope: &Scope, groups: &Groups, notes: &mut Vec<String>) -> Vec<YamlEntry> {
    let mut entries = Vec::new();
    // Each open `if`: its branch now, and whether an earlier branch of it was taken.
    let mut conditions: Vec<(Branch, bool)> = Vec::new();
    let mut line_start = 0;
    let lines: Vec<&str> = text.split('\n').collect();
    let mut index = 0;
    let mut noted_loop = false;
    while index < lines.len() {
        let line = lines[index];
        let start = line_start;
        line_start += line.len() + 1;
        index += 1;
        let trimmed = line.trim();
        let state =
            conditions
                .iter()
                .fold(Branch::Taken, |state, (branch, _)| match (state, branch) {
                    (Branch::NotTaken, _) | (_, Branch::NotTaken) => Branch::NotTaken,
                    (Branch::Unknown, _) | (_, Branch::Unknown) => Branch::Unknown,
                    _ => Branch::Taken,
                });
        if let Some(tag) = statement(trimmed) {
            let (word, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            match word {
                "if" => {
                    let branch = condition(rest.trim(), scope);
                    conditions.push((branch, branch == Branch::Taken));
                }
                "elif" => {
                    if let Some((branch, taken)) = conditions.last_mut() {
                        *branch = match (*taken, condition(rest.trim(), scope)) {
                            (true, _) => Branch::NotTaken,
                            (false, Branch::Taken) => {
                                *taken = true;
                                Branch::Taken
                            }
                            (false, next) => next,
                        };
                    }
                }
                "else" => {
                    if let Some((branch, taken)) = conditions.last_mut() {
                        *branch = match (*taken, *branch) {
                            (true, _) => Branch::NotTaken,
                            (false, Branch::Unknown) => Branch::Unknown,
                            (false, _) => Branch::Taken,
                        };
                    }
                }
                "endif" => {
                    conditions.pop();
                }
                "for" => {
                    // The body up to `endfor`, rendered once per entry of a known mapping.
                    let mut body = Vec::new();
                    let mut at = line_start;
                    while index < lines.len() && statement(lines[index].trim()) != Some("endfor") {
                        body.push((at, lines[index]));
                        at += lines[index].len() + 1;
                        index += 1;
                    }
                    let end_line = lines.get(index).map_or(0, |line| line.len() + 1);
                    line_start = at + end_line;
                    index += 1;
                    if state == Branch::NotTaken {
                        continue;
                    }
                    match loop_items(rest.trim(), scope) {
                        Some(Unrolled { names, items }) if state == Branch::Taken => {
                            for (key, value) in items {
                                let mut inner = scope.clone();
                                inner.set(&names.0, &key);
                                inner.set(&names.1, &value);
                                for (at, line) in &body {
                                    if let Some(mut entry) = setting(line, *at, &inner, groups) {
                                        // Its key and value come from the mapping: placed at
                                        // the loop's line, not editable here.
                                        entry.edit = None;
                                        entries.push(entry);
                                    }
                                }
                            }
                        }
                        _ => {
                            if !noted_loop {
                                notes.push(format!(
                                    "a `{{% for {} %}}` loop that kafkalint cannot unroll: the keys it writes are not read",
                                    rest.trim()
                                ));
                                noted_loop = true;
                            }
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        if state == Branch::NotTaken {
            continue;
        }
        if let Some(mut entry) = setting(line, start, scope, groups) {
            if state == Branch::Unknown {
                entry.value = format!("{{{{ {} }}}}", "a condition kafkalint cannot evaluate");
                entry.edit = None;
            }
            entries.push(entry);
        }
    }
    entries
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

/// A condition of one variable: taken, not taken, or unknown.
fn condition(text: &str, scope: &Scope) -> Branch {
    let (negate, text) = match text.strip_prefix("not ") {
        Some(rest) => (true, rest.trim()),
        None => (false, text),
    };
    let truth = if let Some((left, right)) = text.split_once("==") {
        let right = right.trim().trim_matches(['\'', '"']);
        expression(
            left.trim(),
            scope,
            &Groups {
                inventory: None,
                host: None,
            },
        )
        .map(|value| value == right)
    } else {
        expression(
            text,
            scope,
            &Groups {
                inventory: None,
                host: None,
            },
        )
        .map(|value| {
            matches!(
                value.trim().to_ascii_lowercase().as_str(),
                "true" | "yes" | "on" | "1"
            )
        })
    };
    match truth {
        Some(truth) if truth != negate => Branch::Taken,
        Some(_) => Branch::NotTaken,
        None => Branch::Unknown,
    }
}

/// A `for` loop over a mapping: the names it binds (key, value) and the entries it visits.
struct Unrolled {
    names: (String, String),
    items: Vec<(String, String)>,
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
        .map(|(k, v)| Some((k.clone(), v.text()?.to_string())))
        .collect::<Option<Vec<_>>>()?;
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

/// A `{{ ... }}` expression's value, when kafkalint can work it out.
fn expression(text: &str, scope: &Scope, groups: &Groups) -> Option<String> {
    let mut filters = top_level(text, '|').into_iter().map(str::trim);
    let head = filters.next()?;
    let mut value = term_sum(head, scope, groups);
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
            "bool" => value,
            "default" | "d" => match value {
                Some(value) => Some(value),
                None if lookup(head, scope).is_none() => {
                    let argument = argument?;
                    literal(argument).or_else(|| expression(argument, scope, groups))
                }
                None => None,
            },
            _ => None,
        };
    }
    value
}

/// A sum of terms: integers, variables, `groups['g'].index(inventory_hostname)`.
fn term_sum(text: &str, scope: &Scope, groups: &Groups) -> Option<String> {
    let text = text.trim();
    if !text.contains('+') || literal(text).is_some() {
        return term(text, scope, groups);
    }
    let mut total: i64 = 0;
    for part in top_level(text, '+') {
        total = total.checked_add(term(part.trim(), scope, groups)?.trim().parse().ok()?)?;
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

fn term(text: &str, scope: &Scope, groups: &Groups) -> Option<String> {
    let text = text.trim();
    // `(x)`: what the brackets hold, filters and all.
    if let Some(inner) = enclosed(text) {
        return expression(inner, scope, groups);
    }
    if let Some(value) = literal(text) {
        return Some(value);
    }
    if text.contains(".index(inventory_hostname)") {
        // `groups['g'].index(...)`, `(groups['g'] | list).index(...)`: the host's position.
        let group = indexed_group(text)?;
        let inventory = groups.inventory?;
        let (host, _) = groups.host?;
        let position = inventory.members(&group).iter().position(|h| h == host)?;
        return Some(position.to_string());
    }
    let valid = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_.[]'\"".contains(c));
    if !valid {
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
        out.push_str(&expression(rest[open + 2..close].trim(), scope, groups)?);
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
    fn ini_inventories() {
        let groups = ini_groups(
            "[kafka]\nk1 ansible_host=10.0.0.1 node_id=1\nk2 node_id=2\n\n[all:vars]\nvip=10.0.0.100\n[brokers:children]\nkafka\n",
        );
        let inventory = Inventory {
            path: PathBuf::from("hosts.ini"),
            groups,
        };
        assert_eq!(inventory.members("brokers"), ["k1", "k2"]);
        assert_eq!(inventory.group("all").unwrap().vars.len(), 1);
    }

    #[test]
    fn lines_render_with_variables_conditions_and_loops() {
        let mut scope = Scope::default();
        scope.set("rf", "1");
        scope.set("ssl_enabled", "false");
        let props =
            yaml::parse("properties:\n  num.partitions: 6\n  min.insync.replicas: 2\n").unwrap();
        scope.layer(props.first());
        let text = "offsets.topic.replication.factor={{ rf | int }}\n{% if ssl_enabled | default(false) %}\nssl.keystore.location=/x\n{% endif %}\n{% if other %}\nlog.dirs=/data\n{% endif %}\n{% for key, value in properties.items() %}\n{{key}}={{value}}\n{% endfor %}\nbroker.id={{ groups.kafka.index(inventory_hostname) }}\n";
        let groups = Groups {
            inventory: None,
            host: None,
        };
        let entries = render(text, &scope, &groups, &mut Vec::new());
        let get = |key: &str| {
            entries
                .iter()
                .find(|e| e.key == key)
                .map(|e| e.value.as_str())
        };
        assert_eq!(get("offsets.topic.replication.factor"), Some("1"));
        assert_eq!(get("ssl.keystore.location"), None);
        assert!(get("log.dirs").unwrap().contains("{{"));
        assert_eq!(get("num.partitions"), Some("6"));
        assert_eq!(get("min.insync.replicas"), Some("2"));
        assert!(get("broker.id").unwrap().contains("{{"));
        let rf = entries
            .iter()
            .find(|e| e.key == "offsets.topic.replication.factor")
            .unwrap();
        assert_eq!(&text[rf.value_span.clone()], "{{ rf | int }}");
    }
}
