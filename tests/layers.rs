//! The crate's modules form a stack of layers (docs/src/layout.md): a module uses the modules of
//! its own layer and of the layers below it, never one above, and no import circle exists
//! anywhere: not between top-level modules, not between the files and subfolders of one folder.
//!
//! The check reads `src/` as text, with comments, strings and character literals blanked (a
//! doc link or a message naming a module is no dependency), and follows every path that names
//! a module of the crate: `crate::…`, `super::…`, `self::…`, a child module by its name, the
//! branches of a grouped `use crate::{a::b, c}`, and `kafkalint::…` in `main.rs`. A path to an
//! item that a module only re-exports (`pub use`) or imports is followed to the file that
//! defines the item, so that a folder's `mod.rs` may gather its files' items without tying
//! every file to every other: a `pub use` whose name the file's own code does not use is no
//! use of the file it names. For the layers, the module a path is written through counts too
//! (`crate::Report` uses the crate root, wherever `Report` is defined).

use std::collections::{BTreeMap, BTreeSet};

/// The layers, bottom to top, and the top-level modules (`src/<name>.rs` or `src/<name>/`) in
/// each; `lib` is the crate root `src/lib.rs`, `main` the command line `src/main.rs`.
const LAYERS: &[(&str, &[&str])] = &[
    // Plain data and helpers: no knowledge of files, clusters or rules.
    (
        "foundation",
        &[
            "parallel",
            "byte_scan",
            // What the unit tests share.
            "testing",
            "secrets",
            "properties",
            "catalog",
            "diagnostic",
        ],
    ),
    // Files as read: `.properties` files, compose files and Strimzi resources (what a YAML
    // node stands for, below the file that carries it), component files, suppression comments.
    (
        "sources",
        &[
            "yaml_view",
            "source",
            // Text from outside as it is printed (`output` re-exports it; the coordinator and
            // `--fix` print names too).
            "escape",
            "components",
            "directive",
            "sources",
            // The live room's face (it gathers the client's items) and its lower parts: the
            // client of Kafka's protocol, what a running cluster answered, and what it did not.
            "live",
            "live/client",
            "live/snapshot",
            "live/partial",
        ],
    ),
    // `kafkalint.toml` as data; its rule names are checked against names its caller passes.
    ("config", &["config"]),
    // What the files describe: clusters of nodes and the components beside them.
    ("model", &["cluster", "coordinator"]),
    ("rules", &["rules"]),
    // From findings to a report: the config's policy, suppressions applied, fixes.
    (
        "report",
        &["report", "suppress", "fix", "live/judge", "live/plan"],
    ),
    // Output and where it is written (`--output-file`, `--plan-file`, `--save-snapshot`).
    ("output", &["output", "output_path"]),
    // The checks a caller runs: paths, a buffer, files in memory.
    ("check", &["check"]),
    // The language server: an editor's documents checked as a buffer is.
    ("server", &["server"]),
    ("root", &["lib"]),
    // The command line, and `check --watch`, which runs it again.
    ("cli", &["main", "watch"]),
];

#[test]
fn the_crate_is_a_stack_of_layers() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let tree = read_tree(std::path::Path::new(src), "");
    assert!(
        tree.len() > 20,
        "read only {} files under {src}",
        tree.len()
    );
    let problems = check(&tree, LAYERS);
    assert!(
        problems.is_empty(),
        "the module layering is broken:\n\n{}",
        problems.join("\n\n")
    );
}

/// Every `.rs` file under `dir`, by its path under `src/` ("rules/mod.rs").
fn read_tree(dir: &std::path::Path, prefix: &str) -> Tree {
    let mut tree = Tree::new();
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ is readable").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            tree.extend(read_tree(&path, &format!("{prefix}{name}/")));
        } else if name.ends_with(".rs") {
            let text = std::fs::read_to_string(&path).expect("sources are UTF-8");
            tree.insert(format!("{prefix}{name}"), text);
        }
    }
    tree
}

/// Source files by their path under `src/`, and their text.
type Tree = BTreeMap<String, String>;

/// A use of one file by another.
#[derive(Debug, Clone)]
struct Reference {
    from: String,
    /// The file that defines what the path names.
    to: String,
    /// The module file the path is written through (`lib.rs` for `crate::Report`, re-exported
    /// there): naming a module is using it, whichever file defines the item.
    via: String,
    line: usize,
    /// The path as written, e.g. `crate::cluster::Node` or `super::{support::quoted}`.
    written: String,
}

/// What is wrong with the layering of `tree`, one paragraph per problem.
fn check(tree: &Tree, layers: &[(&str, &[&str])]) -> Vec<String> {
    let crate_ = Crate::new(tree);
    let references = crate_.references();
    let mut problems = Vec::new();
    problems.extend(upward_references(&crate_, &references, layers));
    problems.extend(cycles(&crate_, &references));
    problems
}

/// References from a top-level module to one in a higher layer, and top-level modules the
/// table does not place.
fn upward_references(
    crate_: &Crate,
    references: &[Reference],
    layers: &[(&str, &[&str])],
) -> Vec<String> {
    let layer_of = |module: &str| {
        layers
            .iter()
            .position(|(_, modules)| modules.contains(&module))
    };
    let mut problems = Vec::new();
    let tops: BTreeSet<String> = crate_.files.keys().map(|file| top(file)).collect();
    for module in &tops {
        if layer_of(module).is_none() {
            problems.push(format!(
                "top-level module `{module}` is in no layer: add it to LAYERS in tests/layers.rs"
            ));
        }
    }
    for reference in references {
        let from = top(&reference.from);
        let mut used = vec![top(&reference.to)];
        used.push(top(&reference.via));
        used.dedup();
        for to in used {
            if let (Some(low), Some(high)) = (layer_of(&from), layer_of(&to))
                && low < high
            {
                problems.push(format!(
                    "{}: `{from}` ({}) uses `{to}` ({}), a layer above it",
                    reference.at(),
                    layers[low].0,
                    layers[high].0
                ));
            }
        }
    }
    problems
}

/// The import circles between the top-level modules, and between the files and subfolders of
/// each folder.
fn cycles(crate_: &Crate, references: &[Reference]) -> Vec<String> {
    // Per folder (its module path), the references between its members.
    let mut folders: BTreeMap<Vec<String>, Vec<(String, String, &Reference)>> = BTreeMap::new();
    for reference in references {
        let (from, to) = (&crate_.files[&reference.from], &crate_.files[&reference.to]);
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        let folder = from[..common].to_vec();
        let member = |file: &str, path: &[String]| match path.get(common) {
            // A member of a split folder is a top-level module of its own.
            Some(_) if common == 0 && SPLIT_FOLDERS.contains(&path[0].as_str()) => top(file),
            Some(child) => child.clone(),
            None => file.to_string(),
        };
        let edge = (
            member(&reference.from, from),
            member(&reference.to, to),
            reference,
        );
        folders.entry(folder).or_default().push(edge);
    }
    let mut problems = Vec::new();
    for (folder, edges) in &folders {
        let graph: BTreeMap<&str, BTreeSet<&str>> =
            edges.iter().fold(BTreeMap::new(), |mut graph, (a, b, _)| {
                graph.entry(a.as_str()).or_default().insert(b.as_str());
                graph
            });
        for (circle, group) in circles(&graph) {
            let place = match folder.is_empty() {
                true => "top-level modules".to_string(),
                false => format!("the members of src/{}/", folder.join("/")),
            };
            let mut text = format!("import circle between {place}: {}", circle.join(" -> "));
            text.push_str(&format!(
                "\n  every use inside the group {{{}}}:",
                group.join(", ")
            ));
            let mut pairs: BTreeMap<(&str, &str), Vec<&Reference>> = BTreeMap::new();
            for (a, b, reference) in edges {
                if group.contains(a) && group.contains(b) && a != b {
                    pairs.entry((a, b)).or_default().push(reference);
                }
            }
            for ((a, b), uses) in pairs {
                text.push_str(&format!("\n    {a} -> {b}: {}", uses[0].at()));
                if uses.len() > 1 {
                    text.push_str(&format!(" (and {} more)", uses.len() - 1));
                }
            }
            problems.push(text);
        }
    }
    problems
}

/// Each strongly connected group of two or more members: one circle through it (its first
/// member repeated at the end), and its members.
fn circles(graph: &BTreeMap<&str, BTreeSet<&str>>) -> Vec<(Vec<String>, Vec<String>)> {
    let reaches = |from: &str, to: &str| path(graph, from, to).is_some();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut found = Vec::new();
    for (&start, targets) in graph {
        if seen.contains(start) {
            continue;
        }
        let back = targets
            .iter()
            .find(|&&next| next != start && reaches(next, start));
        if let Some(&next) = back {
            let mut circle = vec![start.to_string()];
            circle.extend(path(graph, next, start).unwrap());
            let group: Vec<String> = graph
                .keys()
                .filter(|&&member| reaches(start, member) && reaches(member, start))
                .map(|member| member.to_string())
                .collect();
            seen.extend(group.iter().cloned());
            found.push((circle, group));
        }
    }
    found
}

/// The shortest path from `from` to `to` (both included), if any.
fn path(graph: &BTreeMap<&str, BTreeSet<&str>>, from: &str, to: &str) -> Option<Vec<String>> {
    let mut previous: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to.to_string()];
            let mut at = to;
            while at != from {
                at = previous[at];
                path.push(at.to_string());
            }
            path.reverse();
            return Some(path);
        }
        for &next in graph.get(at).into_iter().flatten() {
            if next != from && !previous.contains_key(next) {
                previous.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

/// The top-level module of a file: `rules` for `rules/support.rs`, `lib` for `lib.rs`.
fn top(file: &str) -> String {
    let mut parts = file.split('/');
    let first = parts.next().unwrap().trim_end_matches(".rs");
    match parts.next() {
        Some(child) if SPLIT_FOLDERS.contains(&first) && child != "mod.rs" => {
            format!("{first}/{}", child.trim_end_matches(".rs"))
        }
        _ => first.to_string(),
    }
}

/// Folders whose members stand in layers of their own: `live/` is one room of `kafkalint live`
/// (client, snapshot, judge, plan), its snapshot below the rules that read it and its judge
/// above them, one way.
const SPLIT_FOLDERS: &[&str] = &["live"];

impl Reference {
    fn at(&self) -> String {
        format!("src/{}:{}: `{}`", self.from, self.line, self.written)
    }
}

/// The crate's files with their module paths, and what each file defines and imports.
struct Crate<'a> {
    tree: &'a Tree,
    /// Module path of each file: `["rules", "support"]` for `rules/support.rs`, `[]` for
    /// `lib.rs`; `main.rs`, a crate of its own, is `["main"]`.
    files: BTreeMap<String, Vec<String>>,
    /// The file of each module path of the library.
    modules: BTreeMap<Vec<String>, String>,
    /// Per file: the names its top level defines.
    defined: BTreeMap<String, BTreeSet<String>>,
    /// Per file: the names its top-level `use` declarations bind, to absolute paths; and the
    /// absolute paths of its glob imports.
    bound: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    globs: BTreeMap<String, Vec<Vec<String>>>,
}

impl<'a> Crate<'a> {
    fn new(tree: &'a Tree) -> Self {
        let files: BTreeMap<String, Vec<String>> = tree
            .keys()
            .map(|file| (file.clone(), module_path(file)))
            .collect();
        let modules = files
            .iter()
            .filter(|(file, _)| file.as_str() != "main.rs")
            .map(|(file, path)| (path.clone(), file.clone()))
            .collect();
        let mut crate_ = Crate {
            tree,
            files,
            modules,
            defined: BTreeMap::new(),
            bound: BTreeMap::new(),
            globs: BTreeMap::new(),
        };
        for file in tree.keys() {
            let scan = crate_.scan(file);
            crate_.defined.insert(file.clone(), scan.defined);
            let (mut bound, mut globs) = (BTreeMap::new(), Vec::new());
            for import in scan.paths.iter().filter(|path| path.top_level_use) {
                match import.segments.last().map(String::as_str) {
                    Some("*") => globs.push(import.segments[..import.segments.len() - 1].to_vec()),
                    Some(_) => {
                        bound.insert(import.binding.clone(), import.segments.clone());
                    }
                    None => {}
                }
            }
            crate_.bound.insert(file.clone(), bound);
            crate_.globs.insert(file.clone(), globs);
        }
        crate_
    }

    /// Every use of one file by another.
    fn references(&self) -> Vec<Reference> {
        let mut references = Vec::new();
        for file in self.tree.keys() {
            let scan = self.scan(file);
            for path in scan.paths {
                // A name the file only re-exports is its users' dependency, not the file's.
                let passed_on = path.public_use && !path.binding.is_empty();
                if passed_on && !scan.used.contains(&path.binding) {
                    continue;
                }
                let to = self.resolve(&path.segments, 0);
                if &to != file {
                    references.push(Reference {
                        from: file.clone(),
                        to,
                        via: self.module_file(&path.segments).0.clone(),
                        line: path.line,
                        written: path.written,
                    });
                }
            }
        }
        // A grouped `use` names a file once, however many of its items it takes.
        references.dedup_by(|a, b| (&a.from, &a.to, a.line) == (&b.from, &b.to, b.line));
        references
    }

    /// The file that defines what the absolute path `segments` names: the deepest module file
    /// on the path, followed through imports and re-exports to the item's own file.
    fn resolve(&self, segments: &[String], depth: usize) -> String {
        let (file, rest) = self.module_file(segments);
        match rest.first() {
            Some(item) if item != "*" && depth < 16 => self.follow(file, item, depth),
            _ => file.clone(),
        }
    }

    /// The file of the deepest module on the absolute path `segments`, and the segments after it.
    fn module_file<'p>(&self, segments: &'p [String]) -> (&String, &'p [String]) {
        let mut module: Vec<String> = Vec::new();
        let mut rest = segments;
        while let Some((first, tail)) = rest.split_first() {
            module.push(first.clone());
            if !self.modules.contains_key(&module) {
                module.pop();
                break;
            }
            rest = tail;
        }
        (&self.modules[&module], rest)
    }

    /// The file that defines `item`, named as an item of `file`.
    fn follow(&self, file: &str, item: &str, depth: usize) -> String {
        if self.defined[file].contains(item) {
            return file.to_string();
        }
        if let Some(target) = self.bound[file].get(item) {
            return self.resolve(target, depth + 1);
        }
        for glob in &self.globs[file] {
            let source = self.resolve(glob, depth + 1);
            if self.defined[&source].contains(item) || self.bound[&source].contains_key(item) {
                return self.follow(&source, item, depth + 1);
            }
        }
        file.to_string()
    }

    fn scan(&self, file: &str) -> Scan {
        let tokens = tokens(&strip(&self.tree[file]));
        let mut scanner = Scanner {
            crate_: self,
            file,
            tokens: &tokens,
            at: 0,
            scopes: Vec::new(),
            scan: Scan::default(),
        };
        scanner.run();
        scanner.scan
    }

    /// Whether `name`, written first in a path inside module `scope`, is a child module file.
    fn is_child(&self, scope: &[String], name: &str) -> bool {
        let mut child = scope.to_vec();
        child.push(name.to_string());
        self.modules.contains_key(&child)
    }
}

/// A path that names a module of the crate, made absolute.
#[derive(Debug)]
struct CratePath {
    segments: Vec<String>,
    /// The name a `use` binds (the last segment, or its `as` alias).
    binding: String,
    /// Whether it comes from a `use` at the top level of its file.
    top_level_use: bool,
    /// Whether it comes from a `pub use`.
    public_use: bool,
    line: usize,
    written: String,
}

#[derive(Debug, Default)]
struct Scan {
    paths: Vec<CratePath>,
    defined: BTreeSet<String>,
    /// The identifiers of the file's code outside `use` declarations.
    used: BTreeSet<String>,
}

struct Scanner<'s, 'a> {
    crate_: &'s Crate<'a>,
    file: &'s str,
    tokens: &'s [Token],
    at: usize,
    /// The open braces: `Some(name)` for the body of an inline `mod name`.
    scopes: Vec<Option<String>>,
    scan: Scan,
}

impl<'s> Scanner<'s, '_> {
    fn run(&mut self) {
        while self.at < self.tokens.len() {
            let token = self.tokens[self.at].text.as_str();
            match token {
                "{" => {
                    let inline_mod = self.at >= 2 && self.text(self.at - 2) == "mod";
                    let name = inline_mod.then(|| self.text(self.at - 1).to_string());
                    self.scopes.push(name);
                    self.at += 1;
                }
                "}" => {
                    self.scopes.pop();
                    self.at += 1;
                }
                "use" => self.use_declaration(),
                "struct" | "enum" | "fn" | "const" | "static" | "type" | "trait" | "union"
                | "mod"
                    if self.scopes.is_empty() && !self.after_apostrophe() =>
                {
                    let mut next = self.at + 1;
                    if self.text(next) == "mut" {
                        next += 1;
                    }
                    if is_ident(self.text(next)) {
                        self.scan.defined.insert(self.text(next).to_string());
                        // The name defined is no use of the name.
                        self.at = next;
                    }
                    self.at += 1;
                }
                "macro_rules" if self.scopes.is_empty() && self.text(self.at + 1) == "!" => {
                    self.scan.defined.insert(self.text(self.at + 2).to_string());
                    self.at += 1;
                }
                _ if is_ident(token) && self.starts_path() => self.expression_path(),
                _ => {
                    if is_ident(token) {
                        self.scan.used.insert(token.to_string());
                    }
                    self.at += 1;
                }
            }
        }
    }

    /// Whether the token at the cursor is a lifetime's name (`'static`), not a keyword.
    fn after_apostrophe(&self) -> bool {
        self.at > 0 && self.text(self.at - 1) == "'"
    }

    fn text(&self, index: usize) -> &'s str {
        self.tokens
            .get(index)
            .map_or("", |token| token.text.as_str())
    }

    /// The module the scanner is in: the file's, and the inline modules around.
    fn scope(&self) -> Vec<String> {
        let mut scope = self.crate_.files[self.file].clone();
        scope.extend(self.scopes.iter().flatten().cloned());
        scope
    }

    /// Whether the identifier at `at` begins a path: not after `::` or `.`, nor inside a
    /// visibility `pub(in …)`, and followed by `::`.
    fn starts_path(&self) -> bool {
        let before = if self.at == 0 {
            ""
        } else {
            self.text(self.at - 1)
        };
        before != "::" && before != "." && before != "in" && self.text(self.at + 1) == "::"
    }

    fn expression_path(&mut self) {
        let start = self.at;
        let mut segments = vec![self.text(self.at).to_string()];
        self.at += 1;
        while self.text(self.at) == "::" && is_ident(self.text(self.at + 1)) {
            segments.push(self.text(self.at + 1).to_string());
            self.at += 2;
        }
        let written = segments.join("::");
        self.scan.used.extend(segments.iter().cloned());
        self.record(segments, String::new(), false, false, start, written);
    }

    /// `use tree;` with the tree's every branch.
    fn use_declaration(&mut self) {
        let start = self.at;
        let top_level = self.scopes.is_empty();
        let public = self.is_public(start);
        self.at += 1;
        if self.text(self.at) == "::" {
            self.at += 1;
        }
        let mut branches = Vec::new();
        self.use_tree(Vec::new(), &mut branches);
        let end = self.at;
        let written: Vec<&str> = (start + 1..end).map(|index| self.text(index)).collect();
        let written = written.concat();
        for (segments, binding) in branches {
            self.record(segments, binding, top_level, public, start, written.clone());
        }
    }

    /// Whether the item starting at `at` is `pub` or `pub(…)`.
    fn is_public(&self, at: usize) -> bool {
        let mut before = at;
        if self.text(before.wrapping_sub(1)) == ")" {
            while before > 0 && self.text(before - 1) != "(" {
                before -= 1;
            }
            before = before.saturating_sub(1);
        }
        before > 0 && self.text(before - 1) == "pub"
    }

    /// The branches of the use tree at the cursor, each as its segments and the name it binds.
    fn use_tree(&mut self, prefix: Vec<String>, branches: &mut Vec<(Vec<String>, String)>) {
        let mut segments = prefix;
        loop {
            match self.text(self.at) {
                "{" => {
                    self.at += 1;
                    while !matches!(self.text(self.at), "}" | "") {
                        self.use_tree(segments.clone(), branches);
                        if self.text(self.at) == "," {
                            self.at += 1;
                        }
                    }
                    self.at += 1;
                    return;
                }
                "*" => {
                    self.at += 1;
                    segments.push("*".to_string());
                    branches.push((segments, String::new()));
                    return;
                }
                name if is_ident(name) => {
                    segments.push(name.to_string());
                    self.at += 1;
                    if self.text(self.at) == "::" {
                        self.at += 1;
                        continue;
                    }
                    let mut binding = name.to_string();
                    if self.text(self.at) == "as" {
                        binding = self.text(self.at + 1).to_string();
                        self.at += 2;
                    }
                    if binding == "self" {
                        segments.pop();
                        binding = segments.last().cloned().unwrap_or_default();
                    }
                    branches.push((segments, binding));
                    return;
                }
                _ => {
                    self.at += 1;
                    return;
                }
            }
        }
    }

    /// Keeps `segments` if they name a module of the crate, made absolute.
    fn record(
        &mut self,
        segments: Vec<String>,
        binding: String,
        top_level_use: bool,
        public_use: bool,
        start: usize,
        written: String,
    ) {
        if let Some(segments) = self.absolute(&segments) {
            self.scan.paths.push(CratePath {
                segments,
                binding,
                top_level_use,
                public_use,
                line: self.tokens[start].line,
                written,
            });
        }
    }

    /// `segments` from the crate root, if they begin at the crate, a parent or a child module.
    fn absolute(&self, segments: &[String]) -> Option<Vec<String>> {
        let is_main = self.file == "main.rs";
        let mut scope = self.scope();
        let mut rest = segments;
        let first = rest.first()?.as_str();
        match first {
            "kafkalint" if is_main => {
                scope.clear();
                rest = &rest[1..];
            }
            _ if is_main => return None,
            "crate" => {
                scope.clear();
                rest = &rest[1..];
            }
            "self" => rest = &rest[1..],
            "super" => {
                while rest.first().is_some_and(|segment| segment == "super") {
                    scope.pop()?;
                    rest = &rest[1..];
                }
            }
            name if self.crate_.is_child(&scope, name) => {}
            _ => return None,
        }
        scope.extend(rest.iter().cloned());
        Some(scope)
    }
}

/// The module path of a file under `src/`.
fn module_path(file: &str) -> Vec<String> {
    if file == "main.rs" {
        return vec!["main".to_string()];
    }
    let mut path: Vec<String> = file.split('/').map(str::to_string).collect();
    let last = path.pop().unwrap();
    if last != "mod.rs" && last != "lib.rs" {
        path.push(last.trim_end_matches(".rs").to_string());
    }
    path
}

fn is_ident(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && text.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[derive(Debug)]
struct Token {
    text: String,
    line: usize,
}

/// Identifiers (and numbers), `::`, and every other character alone.
fn tokens(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some(&(at, next)) = chars.peek() {
                if !(next.is_alphanumeric() || next == '_') {
                    break;
                }
                end = at + next.len_utf8();
                chars.next();
            }
            tokens.push(Token {
                text: text[start..end].to_string(),
                line,
            });
        } else if c == ':' && chars.peek().is_some_and(|&(_, next)| next == ':') {
            chars.next();
            tokens.push(Token {
                text: "::".to_string(),
                line,
            });
        } else if !c.is_whitespace() {
            tokens.push(Token {
                text: c.to_string(),
                line,
            });
        }
    }
    tokens
}

/// `text` with comments, string literals and character literals blanked, lines kept.
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let blank = |out: &mut String, from: &[char]| {
        for &c in from {
            out.push(if c == '\n' { '\n' } else { ' ' });
        }
    };
    while at < chars.len() {
        let rest = &chars[at..];
        let end = if rest.starts_with(&['/', '/']) {
            rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
        } else if rest.starts_with(&['/', '*']) {
            block_comment_end(rest)
        } else if let Some(end) = string_end(rest, at > 0 && is_word(chars[at - 1])) {
            end
        } else if rest[0] == '\'' {
            char_literal_end(rest)
        } else {
            0
        };
        if end == 0 {
            out.push(rest[0]);
            at += 1;
        } else {
            blank(&mut out, &rest[..end]);
            at += end;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The length of the (nested) block comment at the start of `text`.
fn block_comment_end(text: &[char]) -> usize {
    let (mut depth, mut at) = (0, 0);
    while at < text.len() {
        if text[at..].starts_with(&['/', '*']) {
            depth += 1;
            at += 2;
        } else if text[at..].starts_with(&['*', '/']) {
            depth -= 1;
            at += 2;
            if depth == 0 {
                return at;
            }
        } else {
            at += 1;
        }
    }
    text.len()
}

/// The length of the string literal at the start of `text` (`"…"`, `b"…"`, `r#"…"#`, …), if
/// one starts there; `after_word`: the previous character belongs to an identifier.
fn string_end(text: &[char], after_word: bool) -> Option<usize> {
    if after_word {
        return None;
    }
    let mut at = 0;
    if matches!(text.first(), Some('b' | 'c')) {
        at += 1;
    }
    let raw = text.get(at) == Some(&'r');
    if raw {
        at += 1;
        let hashes = text[at..].iter().take_while(|&&c| c == '#').count();
        at += hashes;
        if text.get(at) != Some(&'"') {
            return None;
        }
        let closing: Vec<char> = std::iter::once('"')
            .chain(std::iter::repeat_n('#', hashes))
            .collect();
        let body = at + 1;
        let end = (body..text.len()).find(|&i| text[i..].starts_with(&closing));
        return Some(end.map_or(text.len(), |end| end + closing.len()));
    }
    if text.get(at) != Some(&'"') {
        return None;
    }
    at += 1;
    while at < text.len() {
        match text[at] {
            '\\' => at += 2,
            '"' => return Some(at + 1),
            _ => at += 1,
        }
    }
    Some(text.len())
}

/// The length of the character literal at the start of `text`, or 0 for a lifetime.
fn char_literal_end(text: &[char]) -> usize {
    match text.get(1) {
        Some('\\') => {
            let close = text[2..].iter().position(|&c| c == '\'');
            close.map_or(0, |close| close + 3)
        }
        Some(_) if text.get(2) == Some(&'\'') => 3,
        _ => 0,
    }
}

#[cfg(test)]
mod synthetic {
    use super::*;

    const TWO: &[(&str, &[&str])] = &[("low", &["low"]), ("high", &["high"]), ("root", &["lib"])];

    fn tree(files: &[(&str, &str)]) -> Tree {
        files
            .iter()
            .map(|(path, text)| (path.to_string(), text.to_string()))
            .collect()
    }

    const ROOT: (&str, &str) = ("lib.rs", "pub mod low;\npub mod high;\n");

    #[test]
    fn a_downward_tree_passes() {
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", "mod a;\npub use a::A;\n"),
            ("low/a.rs", "pub struct A;\n"),
            (
                "high/mod.rs",
                "use crate::{low::{self, A}};\n// crate::high uses crate::low\nfn f() -> A { low::A }\n",
            ),
        ]);
        assert_eq!(check(&tree, TWO), Vec::<String>::new());
    }

    #[test]
    fn a_split_folder_is_layered_member_by_member() {
        const SPLIT: &[(&str, &[&str])] = &[
            ("low", &["live", "live/snapshot"]),
            ("middle", &["rules"]),
            ("high", &["live/judge"]),
            ("root", &["lib"]),
        ];
        let files = |snapshot: &str| {
            tree(&[
                ("lib.rs", "pub mod live;\npub mod rules;\n"),
                ("live/mod.rs", "pub mod judge;\npub mod snapshot;\n"),
                ("live/snapshot.rs", snapshot),
                (
                    "rules/mod.rs",
                    "use crate::live::snapshot::S;\npub fn r(_: S) {}\n",
                ),
                ("live/judge.rs", "use crate::rules::r;\npub fn j() {}\n"),
            ])
        };
        assert_eq!(
            check(&files("pub struct S;\n"), SPLIT),
            Vec::<String>::new()
        );
        let problems = check(
            &files("pub struct S;\nfn f() { crate::live::judge::j() }\n"),
            SPLIT,
        );
        let upward = "`live/snapshot` (low) uses `live/judge` (high)";
        assert!(problems.iter().any(|p| p.contains(upward)), "{problems:#?}");
    }

    #[test]
    fn a_back_edge_fails_naming_the_file_and_the_path() {
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", "mod a;\n"),
            ("low/a.rs", "pub struct A;\n\nfn f() { crate::high::g() }\n"),
            ("high/mod.rs", "use crate::low;\npub fn g() {}\n"),
        ]);
        let problems = check(&tree, TWO);
        let upward = "src/low/a.rs:3: `crate::high::g`: `low` (low) uses `high` (high)";
        assert!(problems.iter().any(|p| p.contains(upward)), "{problems:#?}");
        let circle = "import circle between top-level modules: high -> low -> high";
        assert!(problems.iter().any(|p| p.contains(circle)), "{problems:#?}");
    }

    #[test]
    fn a_grouped_use_and_super_leaving_the_folder_count() {
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", "mod a;\n"),
            ("low/a.rs", "use super::super::{high::H, low};\n"),
            ("high/mod.rs", "pub struct H;\n"),
        ]);
        let problems = check(&tree, TWO);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].starts_with("src/low/a.rs:1: `super::super::{high::H,low}`"));
    }

    #[test]
    fn a_path_through_a_higher_module_fails_even_to_a_lower_item() {
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", "mod a;\npub struct L;\n"),
            ("low/a.rs", "fn f(_: &'static crate::high::L) {}\n"),
            ("high/mod.rs", "pub use crate::low::L;\n"),
        ]);
        let problems = check(&tree, TWO);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].starts_with("src/low/a.rs:1: `crate::high::L`: `low` (low) uses `high`")
        );
    }

    #[test]
    fn a_facade_that_only_re_exports_ties_no_file_to_it() {
        let tree = tree(&[
            ROOT,
            (
                "low/mod.rs",
                "mod a;\nmod b;\npub use a::A;\npub use b::B;\n",
            ),
            ("low/a.rs", "pub struct A;\n"),
            ("low/b.rs", "use super::A;\npub struct B(&'static A);\n"),
            ("high/mod.rs", "fn f(_: crate::low::B) {}\n"),
        ]);
        assert_eq!(check(&tree, TWO), Vec::<String>::new());
    }

    #[test]
    fn comments_strings_and_characters_are_no_references() {
        let low = "/// See [`crate::high::H`].\n/* crate::high:: /* nested */ crate::high */\n\
                   const S: &str = \"crate::high::H\";\nconst R: &str = r#\"crate::high\"#;\n\
                   const C: char = '\"'; fn f<'a>(x: &'a str) -> &'a str { x }\n";
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", low),
            ("high/mod.rs", "pub struct H;\n"),
        ]);
        assert_eq!(check(&tree, TWO), Vec::<String>::new());
    }

    #[test]
    fn a_circle_between_files_of_one_folder_fails() {
        let tree = tree(&[
            ROOT,
            ("low/mod.rs", "mod a;\nmod b;\npub use a::A;\n"),
            ("low/a.rs", "use super::b::B;\npub struct A;\n"),
            (
                "low/b.rs",
                "pub struct B;\nfn f() -> super::A { todo!() }\n",
            ),
            ("high/mod.rs", ""),
        ]);
        let problems = check(&tree, TWO);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(
            problems[0].starts_with("import circle between the members of src/low/: a -> b -> a"),
            "{problems:#?}"
        );
        assert!(problems[0].contains("b -> a: src/low/b.rs:2: `super::A`"));
    }

    #[test]
    fn a_module_in_no_layer_fails() {
        let tree = tree(&[ROOT, ("low.rs", ""), ("high.rs", ""), ("other.rs", "")]);
        let problems = check(&tree, TWO);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert!(problems[0].contains("`other` is in no layer"));
    }
}
