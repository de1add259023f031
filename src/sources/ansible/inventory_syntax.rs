//! Whether Ansible can parse an inventory file, and where it stops when it cannot: what
//! ansible-core's inventory plugins refuse, mirrored from their code (ansible/ansible
//! v2.19.14, lib/ansible/plugins/inventory/ini.py `_parse`, yaml.py `parse` and
//! `_parse_group`, and `expand_hostname_range` in lib/ansible/plugins/inventory/__init__.py).
//!
//! A file every plugin refuses is not an inventory to Ansible: `ansible-playbook -i` warns
//! ("Unable to parse ... as an inventory source") and goes on without its hosts, so the plays
//! meant for them run on none. The plugins are tried in the order ansible-core enables them
//! (lib/ansible/config/base.yml `INVENTORY_ENABLED`: host_list, script, auto, yaml, ini,
//! toml): the yaml plugin takes a file named `.yml`, `.yaml`, `.json` or with no extension
//! (`YAML_FILENAME_EXTENSIONS` and `verify_file`), the ini plugin any file; a file is refused
//! when each plugin that takes it refuses it.
//!
//! What a refusal says names no value of the file: a host line's words may be secrets.

use crate::sources::yaml::{self, Node};

/// How the reason of an inventory Ansible refuses starts.
pub const REFUSED: &str = "ansible-inventory cannot parse this inventory";

/// Where and why Ansible refuses an inventory file: a 1-based line and column, and a reason
/// in words of its own that quote nothing of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

impl Refusal {
    fn at(line: usize, reason: impl Into<String>) -> Refusal {
        Refusal {
            line,
            column: 1,
            reason: reason.into(),
        }
    }

    /// The reason with its position, as [`crate::sources::unreadable::file`] reads it.
    pub fn positioned(&self) -> String {
        format!(
            "{REFUSED}: {} (line {}, column {})",
            self.reason, self.line, self.column
        )
    }
}

/// Why Ansible refuses the inventory file named `name` whose text is `text`, if it does.
pub fn refusal(name: &str, text: &str) -> Option<Refusal> {
    refusal_among(name, text, &mut Groups::new())
}

/// The groups an inventory has declared so far: `all` and `ungrouped`, and those of the files
/// of its folder read before (Ansible reads them into one inventory, in name order, so a
/// `[kafka:vars]` may name a group an earlier file declares).
pub type Groups = std::collections::HashSet<String>;

/// Why Ansible refuses the file, one of a folder's whose earlier files declared `groups`; the
/// groups this one declares are added to them when Ansible accepts it.
pub fn refusal_among(name: &str, text: &str, groups: &mut Groups) -> Option<Refusal> {
    let lower = name.to_ascii_lowercase();
    let extension = std::path::Path::new(&lower)
        .extension()
        .map(|ext| ext.to_string_lossy().into_owned());
    // The toml plugin takes `.toml` files, which kafkalint does not read as inventories.
    if extension.as_deref() == Some("toml") {
        return None;
    }
    let yaml_takes = matches!(extension.as_deref(), None | Some("yml" | "yaml" | "json"));
    let by_yaml = if yaml_takes {
        match yaml_refusal(text) {
            None => {
                if let Ok(documents) = yaml::parse(text)
                    && let Some(top) = documents.first()
                {
                    yaml_group_names(top, groups, 0);
                }
                return None;
            }
            Some(refusal) => Some(refusal),
        }
    } else {
        None
    };
    let by_ini = ini_refusal_among(text, groups)?;
    // Both refuse: what the file was meant to be says which reason helps. A file named as
    // YAML, or that reads as YAML at all, is told the YAML plugin's.
    match by_yaml {
        Some(by_yaml) if yaml::is_yaml_name(&lower) || lower.ends_with(".json") => Some(by_yaml),
        Some(by_yaml) if !by_yaml.reason.starts_with("not YAML") && looks_like_yaml(text) => {
            Some(by_yaml)
        }
        _ => Some(by_ini),
    }
}

/// Whether a file's first line of content reads as a YAML mapping's key or a document start,
/// not an INI section or host line.
fn looks_like_yaml(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .is_some_and(|line| line == "---" || line.ends_with(':') || line.contains(": "))
}

/// What the yaml plugin refuses (yaml.py `parse`, `_parse_group`, `_parse_host`): text that
/// is not YAML, an empty file, a top level that is not a mapping, a plugin's configuration,
/// a group's `hosts`, `children` or `vars` that is neither a mapping, a string nor empty, and
/// a host range `expand_hostname_range` refuses.
pub fn yaml_refusal(text: &str) -> Option<Refusal> {
    let (documents, text) = match parse_repeats_allowed(text) {
        Ok(parsed) => parsed,
        Err(error) => {
            return Some(Refusal {
                line: error.line.max(1),
                column: error.column.max(1),
                reason: format!("not YAML: {}", error.message),
            });
        }
    };
    let text = text.as_str();
    let Some(top) = documents.first() else {
        return Some(Refusal::at(1, "an empty YAML file"));
    };
    match top {
        Node::Scalar(scalar) if scalar.is_null() => Some(Refusal::at(1, "an empty YAML file")),
        Node::Map(entries) => {
            if top
                .get("plugin")
                .is_some_and(|plugin| plugin.text().is_some())
            {
                // Read by the `auto` plugin as a plugin's configuration: no refusal of its
                // syntax, and no hosts kafkalint can list.
                return None;
            }
            for (name, group) in entries {
                if let Some(refusal) = yaml_group(text, name, group, 0) {
                    return Some(refusal);
                }
            }
            None
        }
        other => Some(Refusal::at(
            line_of_node(text, other).unwrap_or(1),
            "a YAML inventory must be a mapping of groups at its top level",
        )),
    }
}

/// The groups a YAML inventory Ansible accepts declares: its top-level keys and the groups
/// under each `children:`.
fn yaml_group_names(node: &Node, groups: &mut Groups, depth: usize) {
    if depth > MAX_GROUP_DEPTH {
        return;
    }
    for (name, group) in node.entries() {
        if let Some(name) = name.text() {
            groups.insert(name.to_string());
        }
        if let Some(children) = group.get("children") {
            yaml_group_names(children, groups, depth + 1);
        }
    }
}

/// What marks a repeated key renamed by [`parse_repeats_allowed`].
const REPEATED: &str = "__repeated__";

/// The documents of `text`, read as Ansible's YAML loader reads them: a repeated key is taken
/// with a warning (lib/ansible/parsing/yaml/constructor.py, `DUPLICATE_YAML_DICT_KEY` is
/// `warn`), where kafkalint's reader refuses it, so each repeat is renamed ([`REPEATED`]
/// before it) and the text read again; the text read is returned with them.
fn parse_repeats_allowed(text: &str) -> Result<(Vec<Node>, String), yaml::YamlError> {
    let mut text = text.to_string();
    for _ in 0..64 {
        match yaml::parse(&text) {
            Ok(documents) => return Ok((documents, text)),
            Err(error) if error.message.contains("repeats") => {
                let Some(at) = offset_of(&text, error.line, error.column) else {
                    return Err(error);
                };
                text.insert_str(at, REPEATED);
            }
            Err(error) => return Err(error),
        }
    }
    yaml::parse(&text).map(|documents| (documents, text))
}

/// The byte offset of a 1-based line and column (in characters).
fn offset_of(text: &str, line: usize, column: usize) -> Option<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum();
    let rest = text.get(start..)?;
    let within: usize = rest
        .chars()
        .take(column.checked_sub(1)?)
        .map(char::len_utf8)
        .sum();
    Some(start + within)
}

/// The deepest `children:` nesting followed: deeper groups are read by nothing of kafkalint.
const MAX_GROUP_DEPTH: usize = 64;

fn yaml_group(text: &str, name: &Node, group: &Node, depth: usize) -> Option<Refusal> {
    if depth > MAX_GROUP_DEPTH {
        return None;
    }
    // A group that is neither a mapping nor empty is passed over with a warning.
    let Node::Map(entries) = group else {
        return None;
    };
    for (key, value) in entries {
        let key_name = key.text().map(|name| name.trim_start_matches(REPEATED));
        let Some(section @ ("vars" | "children" | "hosts")) = key_name else {
            continue;
        };
        if matches!(value, Node::Seq(_)) {
            let group_name = name.text().unwrap_or("?").trim_start_matches(REPEATED);
            return Some(Refusal::at(
                line_of_node(text, key).unwrap_or(1),
                format!(
                    "`{section}` of group `{}` is a list, where Ansible requires a mapping (`{section}:` then `name:` on lines of their own)",
                    crate::escape::printable(group_name)
                ),
            ));
        }
        match (section, value) {
            ("children", Node::Map(children)) => {
                for (child, child_group) in children {
                    if let Some(refusal) = yaml_group(text, child, child_group, depth + 1) {
                        return Some(refusal);
                    }
                }
            }
            ("hosts", Node::Map(hosts)) => {
                for (host, host_vars) in hosts {
                    if let Some(pattern) = host.text()
                        && let Err(why) = check_host_range(pattern)
                    {
                        return Some(Refusal::at(line_of_node(text, host).unwrap_or(1), why));
                    }
                    // `_populate_host_vars` walks a host's variables as a mapping.
                    let empty = matches!(host_vars, Node::Scalar(scalar) if scalar.is_null());
                    if !empty && !matches!(host_vars, Node::Map(_)) {
                        return Some(Refusal::at(
                            line_of_node(text, host).unwrap_or(1),
                            "a host whose variables are not a mapping (`host:` then `name: value` lines under it)",
                        ));
                    }
                }
            }
            ("hosts", Node::Scalar(scalar)) if !scalar.is_null() => {
                if let Err(why) = check_host_range(&scalar.value) {
                    return Some(Refusal::at(line_of_node(text, value).unwrap_or(1), why));
                }
            }
            _ => {}
        }
    }
    None
}

/// The 1-based line of a scalar node's first byte.
fn line_of_node(text: &str, node: &Node) -> Option<usize> {
    let scalar = node.scalar().or_else(|| match node {
        Node::Seq(items) => items.first().and_then(Node::scalar),
        Node::Map(entries) => entries.first().and_then(|(key, _)| key.scalar()),
        Node::Scalar(_) => None,
    })?;
    let at = scalar.span.start.min(text.len());
    Some(
        text.as_bytes()[..at]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1,
    )
}

/// What the ini plugin refuses (ini.py `_parse`): a section header of an unknown kind
/// (`[g:hostz]`), a line in brackets that is no header (`[my group]`), a host line that
/// `shlex` cannot split or whose words after the host are not `key=value`, a host pattern
/// ending in `:` or a range `expand_hostname_range` refuses, a `[g:vars]` line without `=`,
/// a `[g:children]` line that is not a group name, and, once the file is read, a `[g:vars]`
/// or a child that names a group no section declares.
pub fn ini_refusal(text: &str) -> Option<Refusal> {
    ini_refusal_among(text, &mut Groups::new())
}

/// [`ini_refusal`] of a file whose inventory already holds `groups`; those it declares are
/// added when it is accepted.
fn ini_refusal_among(text: &str, known: &mut Groups) -> Option<Refusal> {
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Hosts,
        Children,
        Vars,
    }
    let mut groups: Groups = known.clone();
    groups.extend(["all".to_string(), "ungrouped".to_string()]);
    // In the order they were first pending: Ansible reports the first.
    let mut pending: Vec<(String, Pending)> = Vec::new();
    let mut state = State::Hosts;
    let mut group = "ungrouped".to_string();
    for (index, raw) in python_lines(text).enumerate() {
        let line_number = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some((name, kind)) = section_header(line) {
            state = match kind {
                None | Some("hosts") => State::Hosts,
                Some("children") => State::Children,
                Some("vars") => State::Vars,
                Some(_) => {
                    return Some(Refusal::at(
                        line_number,
                        "a section of an unknown kind: only `[group]`, `[group:vars]` and `[group:children]` are sections",
                    ));
                }
            };
            group = name.to_string();
            if !groups.contains(name) {
                if state == State::Vars && !pending.iter().any(|(g, _)| g == name) {
                    pending.push((name.to_string(), Pending::Vars { line: line_number }));
                }
                groups.insert(name.to_string());
            }
            if state != State::Vars
                && let Some(at) = pending.iter().position(|(g, _)| g == name)
            {
                match &pending[at].1 {
                    Pending::Child { .. } => add_pending_children(name, &mut pending),
                    Pending::Vars { .. } => {
                        pending.remove(at);
                    }
                }
            }
            continue;
        } else if line.starts_with('[') && line.ends_with(']') {
            return Some(Refusal::at(
                line_number,
                "a line in brackets that is no section header (a space or a second `:` in it?)",
            ));
        }
        match state {
            State::Hosts => {
                let tokens = match shlex_split(line) {
                    Ok(tokens) => tokens,
                    Err(why) => {
                        return Some(Refusal::at(
                            line_number,
                            format!("a host line shlex cannot split: {why}"),
                        ));
                    }
                };
                let Some(host) = tokens.first() else {
                    return Some(Refusal::at(line_number, "a host line without a host"));
                };
                if host.starts_with('[') && !line.contains(']') {
                    return Some(Refusal::at(
                        line_number,
                        "a section header whose `]` is missing: Ansible reads the line as a host and refuses its `[`",
                    ));
                }
                if let Err(why) = check_ini_host(host) {
                    return Some(Refusal::at(line_number, why));
                }
                if let Some(position) = tokens[1..].iter().position(|word| !word.contains('=')) {
                    return Some(Refusal::at(
                        line_number,
                        format!(
                            "word {} of a host line is not `key=value` (a host's variables are `name=value`, with no spaces around `=`)",
                            position + 2
                        ),
                    ));
                }
            }
            State::Vars => {
                if !line.contains('=') {
                    return Some(Refusal::at(
                        line_number,
                        "a line of a `[group:vars]` section without `=` (variables there are `name=value`)",
                    ));
                }
            }
            State::Children => {
                let Some(child) = group_name(line) else {
                    return Some(Refusal::at(
                        line_number,
                        "a line of a `[group:children]` section that is not one group name",
                    ));
                };
                if groups.contains(child) {
                    continue;
                }
                match pending.iter_mut().find(|(g, _)| g == child) {
                    Some((_, Pending::Child { parents, .. })) => parents.push(group.clone()),
                    // A `[child:vars]` seen before: the group was added then.
                    Some((_, Pending::Vars { .. })) => {}
                    None => pending.push((
                        child.to_string(),
                        Pending::Child {
                            line: line_number,
                            parents: vec![group.clone()],
                        },
                    )),
                }
            }
        }
    }
    let Some((name, first)) = pending.first() else {
        *known = groups;
        return None;
    };
    let name = crate::escape::printable(name);
    Some(match first {
        Pending::Vars { line } => Refusal::at(
            *line,
            format!("`[{name}:vars]` names a group no section of the file declares"),
        ),
        Pending::Child { line, .. } => Refusal::at(
            *line,
            format!("child group `{name}` is declared by no section of the file (add `[{name}]`)"),
        ),
    })
}

/// A group named before a section declares it: by `[g:vars]`, or as a child.
enum Pending {
    Vars { line: usize },
    Child { line: usize, parents: Vec<String> },
}

/// ini.py `_add_pending_children`: a pending child now declared joins its parents, and a
/// parent pending as a child in turn is resolved with it.
fn add_pending_children(group: &str, pending: &mut Vec<(String, Pending)>) {
    let mut stack = vec![group.to_string()];
    while let Some(group) = stack.pop() {
        let Some(at) = pending.iter().position(|(g, _)| *g == group) else {
            continue;
        };
        let (_, entry) = pending.remove(at);
        let Pending::Child { parents, .. } = entry else {
            continue;
        };
        for parent in parents {
            if pending
                .iter()
                .any(|(g, p)| *g == parent && matches!(p, Pending::Child { .. }))
            {
                stack.push(parent);
            }
        }
    }
}

/// `str.splitlines()`: lines ended by `\n`, `\r\n`, `\r` and Python's other line boundaries.
fn python_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.char_indices().find(|(_, c)| {
            matches!(
                c,
                '\n' | '\r'
                    | '\u{0b}'
                    | '\u{0c}'
                    | '\u{1c}'
                    | '\u{1d}'
                    | '\u{1e}'
                    | '\u{85}'
                    | '\u{2028}'
                    | '\u{2029}'
            )
        });
        match end {
            Some((at, c)) => {
                let line = &rest[..at];
                let mut next = at + c.len_utf8();
                if c == '\r' && rest[next..].starts_with('\n') {
                    next += 1;
                }
                rest = &rest[next..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = "";
                Some(line)
            }
        }
    })
}

/// ini.py's `section` pattern: `[name]` or `[name:kind]`, a name of no `:`, `]` or white
/// space, a kind of word characters, then white space and a `#` comment at most.
fn section_header(line: &str) -> Option<(&str, Option<&str>)> {
    let inner = line.strip_prefix('[')?;
    let name_len = inner
        .find(|c: char| c == ':' || c == ']' || c.is_whitespace())
        .unwrap_or(inner.len());
    if name_len == 0 {
        return None;
    }
    let (name, rest) = inner.split_at(name_len);
    let (kind, rest) = match rest.strip_prefix(':') {
        Some(after) => {
            let kind_len = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if kind_len == 0 {
                return None;
            }
            (Some(&after[..kind_len]), &after[kind_len..])
        }
        None => (None, rest),
    };
    let rest = rest.strip_prefix(']')?.trim_start();
    (rest.is_empty() || rest.starts_with('#')).then_some((name, kind))
}

/// ini.py's `groupname` pattern: one name of no `:`, `]` or white space, then white space and
/// a `#` comment at most.
fn group_name(line: &str) -> Option<&str> {
    let len = line
        .find(|c: char| c == ':' || c == ']' || c.is_whitespace())
        .unwrap_or(line.len());
    if len == 0 {
        return None;
    }
    let rest = line[len..].trim_start();
    (rest.is_empty() || rest.starts_with('#')).then_some(&line[..len])
}

/// Python's `shlex.split(line, comments=True)` (POSIX mode): words split at white space,
/// quotes joined, a backslash escaping the next character, `#` starting a comment; an
/// unclosed quote or a trailing backslash refused, as Python raises `ValueError`.
fn shlex_split(line: &str) -> Result<Vec<String>, &'static str> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '#' => break,
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a quotation is never closed"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a quotation is never closed"),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a quotation is never closed"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("a backslash at the end escapes nothing"),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// ini.py `_expand_hostpattern`: a pattern ending in `:` with no port, `---` (a YAML file
/// read as INI), or a range the base class cannot expand.
fn check_ini_host(pattern: &str) -> Result<(), String> {
    if pattern.trim() == "---" {
        return Err("a host `---`: this reads as a YAML file, but is not valid YAML".into());
    }
    let (host, port) = split_port(pattern);
    if pattern.trim().ends_with(':') && port.is_none() {
        return Err("a host pattern ending in `:`, which is kept for a port".into());
    }
    check_host_range(host)
}

/// The host and port of `host:port` (`parse_address` in lib/ansible/parsing/utils/addresses.py
/// reads more forms; where it reads none, the whole pattern is the host).
fn split_port(pattern: &str) -> (&str, Option<&str>) {
    if let Some((host, port)) = pattern.rsplit_once(':')
        && !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit())
        && !host.is_empty()
        && host
            .rfind('[')
            .is_none_or(|open| host[open..].contains(']'))
        && !host.contains(':')
    {
        return (host, Some(port));
    }
    (pattern, None)
}

/// `expand_hostname_range` (lib/ansible/plugins/inventory/__init__.py): a `[` in a host starts
/// a range `head[begin:end(:step)]tail`, refused when its parts do not split, it has no end,
/// a zero-padded begin and its end differ in length, letters run backwards, or its numbers
/// are not numbers; the tail's own ranges alike. An IPv6 address in brackets is no range.
fn check_host_range(pattern: &str) -> Result<(), String> {
    if pattern.starts_with('[')
        && let Some(close) = pattern.find(']')
        && pattern[1..close].matches(':').count() >= 2
        && pattern[1..close]
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
    {
        return Ok(());
    }
    let mut line = pattern.to_string();
    // Each round checks the first range; what one value of it gives is checked next, as
    // Ansible expands each name it makes (every value gives the same tail).
    for _ in 0..64 {
        if !line.contains('[') {
            return Ok(());
        }
        let replaced = line.replacen('[', "|", 1).replacen(']', "|", 1);
        let parts: Vec<&str> = replaced.split('|').collect();
        let [head, range, tail] = parts[..] else {
            return Err("a host pattern with a `[` that opens no `[begin:end]` range".into());
        };
        let bounds: Vec<&str> = range.split(':').collect();
        if bounds.len() != 2 && bounds.len() != 3 {
            return Err("a host range must be `[begin:end]` or `[begin:end:step]`".into());
        }
        let begin = if bounds[0].is_empty() { "0" } else { bounds[0] };
        let end = bounds[1];
        let step = bounds.get(2).copied().unwrap_or("1");
        if end.is_empty() {
            return Err("a host range without its end".into());
        }
        if begin.starts_with('0') && begin.chars().count() > 1 && begin.len() != end.len() {
            return Err("a zero-padded host range whose begin and end differ in length".into());
        }
        let letter = |text: &str| -> Option<usize> {
            let mut chars = text.chars();
            let c = chars.next()?;
            (chars.next().is_none() && c.is_ascii_alphabetic()).then(|| {
                // `string.ascii_letters`: the lower case letters, then the upper case ones.
                if c.is_ascii_lowercase() {
                    (c as u8 - b'a') as usize
                } else {
                    26 + (c as u8 - b'A') as usize
                }
            })
        };
        let first = match (letter(begin), letter(end)) {
            (Some(a), Some(b)) => {
                if a > b {
                    return Err("a host range of letters that runs backwards".into());
                }
                let step = python_int(step)
                    .ok_or_else(|| "a host range whose step is not a number".to_string())?;
                if step == 0 {
                    return Err("a host range whose step is 0".into());
                }
                Some(begin.to_string()).filter(|_| step > 0)
            }
            _ => {
                let (Some(a), Some(b), Some(step)) =
                    (python_int(begin), python_int(end), python_int(step))
                else {
                    return Err("a host range whose bounds are not numbers".into());
                };
                if step == 0 {
                    return Err("a host range whose step is 0".into());
                }
                let empty = if step > 0 { a > b } else { a <= b + 1 };
                (!empty).then(|| a.to_string())
            }
        };
        let Some(first) = first else { return Ok(()) };
        line = format!("{head}{first}{tail}");
    }
    Ok(())
}

/// Python's `int()` of a string: white space around, a sign, digits with single `_` between.
fn python_int(text: &str) -> Option<i64> {
    let text = text.trim();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.chars().all(|c| c.is_ascii_digit() || c == '_')
    {
        return None;
    }
    let value: i64 = digits.replace('_', "").parse().ok()?;
    Some(if text.starts_with('-') { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ini_line(text: &str) -> Option<usize> {
        ini_refusal(text).map(|refusal| refusal.line)
    }

    #[test]
    fn ini_inventories_ansible_reads() {
        for text in [
            "[kafka]\nk1 broker_id=1\nk2:9092 broker_id=2 # comment\n[kafka:vars]\nx = 1\n",
            "k0\n[zk:children]\nkafka\n[kafka]\nkafka-[01:03].example.com\n",
            "[kafka:vars]\nx=1\n[kafka]\nk1\n",
            "[all:vars]\nx=1\n; comment\n[kafka]\nk[a:c] ansible_host=\"10.0.0.1\"\n",
            "[kafka]\n[fe80::1]:22\nk1 var='a b'\n",
            "[cluster:children]\nkafka\nzk\n[kafka]\nk1\n[zk]\nz1\n",
        ] {
            assert_eq!(ini_refusal(text), None, "{text}");
        }
    }

    #[test]
    fn ini_inventories_ansible_refuses_at_their_line() {
        assert_eq!(ini_line("[kafka\nk1\n"), Some(1));
        assert_eq!(ini_line("[kafka]\nk1 foo\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk1\n[zk:children]\nnope\n"), Some(4));
        assert_eq!(ini_line("[kafka]\nk1\n\n[zk:vars]\nx=1\n"), Some(4));
        assert_eq!(ini_line("[kafka:hostz]\nk1\n"), Some(1));
        assert_eq!(ini_line("[my group]\nk1\n"), Some(1));
        assert_eq!(ini_line("[kafka:vars]\nx\n[kafka]\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk1 x=\"open\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk1:\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk[1:]\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk[01:3]\n"), Some(2));
        assert_eq!(ini_line("[kafka]\nk[c:a]\n"), Some(2));
        assert_eq!(ini_line("all:\n  hosts:\n"), Some(1));
        assert_eq!(ini_line("[a:children]\nb c\n"), Some(2));
    }

    #[test]
    fn yaml_inventories_refused_by_structure() {
        assert_eq!(
            yaml_refusal("all:\n  children:\n    kafka:\n      hosts:\n        k1:\n"),
            None
        );
        assert_eq!(yaml_refusal("kafka:\n  hosts: k1\n"), None);
        let list = yaml_refusal("kafka:\n  hosts:\n    - k1\n    - k2\n").unwrap();
        assert_eq!(list.line, 2);
        assert!(list.reason.contains("is a list"));
        assert_eq!(yaml_refusal("- a\n- b\n").unwrap().line, 1);
        assert_eq!(
            yaml_refusal("# only\n").unwrap().reason,
            "an empty YAML file"
        );
        assert!(yaml_refusal("a:\n  b: [\n").is_some());
    }

    #[test]
    fn a_file_is_refused_only_when_each_plugin_that_takes_it_refuses() {
        // No extension: YAML first, then INI.
        assert_eq!(refusal("hosts", "all:\n  hosts:\n    k1:\n"), None);
        assert_eq!(refusal("hosts", "[kafka]\nk1\n"), None);
        assert!(refusal("hosts", "[kafka\nk1\n").is_some());
        // `.ini`: the YAML plugin does not take it.
        assert!(refusal("hosts.ini", "all:\n  hosts:\n    k1:\n").is_some());
        let yaml = refusal("hosts.yml", "kafka:\n  hosts:\n    - k1\n").unwrap();
        assert!(yaml.reason.contains("is a list"), "{yaml:?}");
    }

    #[test]
    fn shlex_splits_as_python() {
        assert_eq!(
            shlex_split("a b='c d' e=\"f\\\"g\" # x").unwrap(),
            ["a", "b=c d", "e=f\"g"]
        );
        assert_eq!(shlex_split("a#b c").unwrap(), ["a"]);
        assert!(shlex_split("a 'b").is_err());
        assert!(shlex_split("a \\").is_err());
    }

    #[test]
    fn refusals_quote_nothing_of_the_file() {
        let refusal = ini_refusal("[kafka]\nk1 hunter2\n").unwrap();
        assert!(!refusal.positioned().contains("hunter2"));
    }
}
