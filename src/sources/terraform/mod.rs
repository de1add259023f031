//! Terraform files (`.tf`) that deploy Kafka to Kubernetes: what they apply, as the YAML
//! documents and Helm values the other readers know, with spans into the `.tf` text.
//!
//! - `resource "kubernetes_manifest"`: its `manifest` object (HCL object syntax, or
//!   `yamldecode(<<EOF ...)`), and `resource "kubectl_manifest"`'s `yaml_body` heredoc: a
//!   Kubernetes object each (a Strimzi `Kafka`, a StatefulSet, ...).
//! - `resource "helm_release"` of the bitnami/kafka chart (`chart = "kafka"` from bitnami's
//!   repository, `bitnami/kafka`, or `oci://registry-1.docker.io/bitnamicharts/kafka`): its
//!   `values` (YAML heredocs, `yamlencode({...})`, `file("...")`) merged in order as Helm
//!   merges values files, then its `set` blocks (or `set = [...]`, the helm provider 3.x form)
//!   over them; its `version` is the chart line.
//!
//! A reference to a variable (`var.kafka_version`) takes the value a `terraform.tfvars` or
//! `*.auto.tfvars` beside the file gives it, else its `default` in a `.tf` file beside it,
//! placed at the reference; `local.name` likewise from `locals` blocks. Anything else that
//! Terraform works out when it runs (a resource's attribute, a function other than the
//! encoders, a template with interpolations) is an unknown value, `${...}`, which no rule
//! judges.

mod modules;
mod provider;
mod template;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hcl_edit::Span as _;
use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Attribute, Body};
use hcl_edit::template::Element;

use crate::properties::Span;
use crate::sources::yaml::{self, Node, Scalar, Style};

/// What a `.tf` file deploys.
#[derive(Debug, Default)]
pub struct Read {
    /// The Kubernetes objects it applies, as YAML documents.
    pub documents: Vec<Node>,
    /// Its releases of the bitnami/kafka chart.
    pub releases: Vec<Release>,
    /// What output hides of the text beyond what the redaction of the documents and the
    /// releases' values hides: the values of other attributes, comments, unknown values.
    pub hidden: Vec<Span>,
    /// Files read as a release's values (`file("kafka-values.yaml")`): not also read alone.
    pub values_files: Vec<PathBuf>,
    /// The configuration that calls the file's folder as a module, when it is read as that
    /// call gives its variables (`envs/prod: module.kafka`).
    pub scope: Option<String>,
}

/// A `helm_release` of the bitnami/kafka chart.
#[derive(Debug)]
pub struct Release {
    /// `helm_release.kafka`.
    pub label: String,
    /// Its values, merged.
    pub values: Node,
    /// The resource's name, where findings about the chart's defaults point.
    pub anchor: Span,
    /// The chart version it pins, with what says so.
    pub version: Option<(String, String)>,
}

/// The deepest nesting of brackets read; the parser recurses once per level.
const MAX_NESTING: usize = 64;

/// Whether a file name is a Terraform file's.
pub fn is_terraform_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".tf")
}

/// Whether a Terraform file may deploy Kafka: cheap, on the bytes.
pub fn worth_reading(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    (has(b"helm_release")
        || has(b"kubernetes_manifest")
        || has(b"kubectl_manifest")
        || has(b"kubernetes_stateful_set")
        || has(b"kubernetes_deployment")
        || has(b"kubernetes_config_map"))
        && (has(b"kafka") || has(b"Kafka") || has(b"KAFKA"))
}

/// Reads the Terraform file at `path` (whose text is `text`): the Kubernetes objects and
/// chart releases it deploys. Variables and locals come from the `.tf` and `.tfvars` files
/// beside it. `Err` when it is not HCL.
pub fn read(path: &str, text: &str, notes: &mut Vec<String>) -> Result<Read, String> {
    read_in(path, text, notes, &mut Folders::default())
}

/// [`read`], with the folders of `.tf` files read before in the same run: the file read as a
/// root module (its folder's variables files give its variables).
pub fn read_in(
    path: &str,
    text: &str,
    notes: &mut Vec<String>,
    folders: &mut Folders,
) -> Result<Read, String> {
    let body = parse(text)?;
    let dir = dir_of(path);
    let folder = folders.of(&dir);
    let module = Module::beside(path, &body, &folder, None);
    Ok(read_module(text, &body, &dir, &module, notes))
}

/// Every way the Terraform file at `path` is applied: once for each `module` block around it
/// that calls its folder (an environment's `module "kafka" { source = "../../modules/kafka" }`),
/// with the variables that call gives, each [`Read::scope`] naming it; read as a root module
/// (its folder's variables files, else its defaults) when nothing calls it.
/// What it assumed in reading (its variables' defaults) goes to `info`.
pub fn read_all(
    path: &str,
    text: &str,
    notes: &mut Vec<String>,
    info: &mut Vec<String>,
    folders: &mut Folders,
) -> Result<Vec<Read>, String> {
    let body = parse(text)?;
    let dir = dir_of(path);
    let folder = folders.of(&dir);
    let callers = folders.callers_of(&dir);
    if callers.is_empty() {
        let module = Module::beside(path, &body, &folder, None);
        let read = read_module(text, &body, &dir, &module, notes);
        let deploys = !read.documents.is_empty() || !read.releases.is_empty();
        if deploys && module.reads_defaults(text) {
            info.push(format!(
                "no `module` block around it calls {} and no variables file beside it sets its variables: read with their defaults",
                modules::shown(&dir)
            ));
        }
        return Ok(vec![read]);
    }
    let mut reads = Vec::new();
    for caller in callers.iter() {
        let caller_folder = folders.of(&caller.folder);
        // A caller that is itself a module others call gets its variables from each of those
        // calls, which are not followed: its variables are unknown there.
        let nested = !folders.callers_of(&caller.folder).is_empty();
        let calling = Module {
            folder: &caller_folder,
            own_name: None,
            own: Declared::default(),
            inputs: nested.then(HashMap::new),
        };
        let inputs: HashMap<String, Given> = caller
            .inputs
            .iter()
            .map(|(name, expr)| (name.clone(), calling.argument(expr, name, caller)))
            .collect();
        let module = Module::beside(path, &body, &folder, Some(inputs));
        let mut own_notes = Vec::new();
        let mut read = read_module(text, &body, &dir, &module, &mut own_notes);
        notes.extend(
            own_notes
                .into_iter()
                .map(|note| format!("{}: {note}", caller.label)),
        );
        read.scope = Some(caller.label.clone());
        reads.push(read);
    }
    Ok(reads)
}

/// The folder of a file's path: `.` for a bare name.
fn dir_of(path: &str) -> PathBuf {
    match Path::new(path).parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What a file's blocks deploy, its variables given by `module`.
fn read_module(
    text: &str,
    body: &Body,
    dir: &Path,
    module: &Module,
    notes: &mut Vec<String>,
) -> Read {
    let mut eval = Eval {
        text,
        module,
        hidden: Vec::new(),
        depth: 0,
        dir: dir.to_path_buf(),
        files_read: Vec::new(),
        body,
    };
    let mut read = Read::default();
    for block in body.blocks() {
        let labels: Vec<&str> = block.labels.iter().map(|label| label.as_str()).collect();
        // The attributes read as documents or values, hidden as those are; every other
        // attribute's value is hidden below (deny by default).
        let consumed: &[&str] = match (block.ident.value().as_str(), &labels[..]) {
            ("resource", [resource_type, name]) if provider::kind_of(resource_type).is_some() => {
                match eval.provider_object(resource_type, name, block) {
                    Ok(Some(document)) => {
                        read.documents.push(document);
                        // Every value of it is a value of the document, hidden as those are.
                        continue;
                    }
                    Ok(None) => &[],
                    Err(why) => {
                        notes.push(format!("{resource_type}.{name}: {why}; not read"));
                        &[]
                    }
                }
            }
            ("resource", ["kubernetes_manifest", name]) => {
                match block.body.get_attribute("manifest") {
                    Some(manifest) => match eval.document(&manifest.value) {
                        Some(document) => {
                            read.documents.push(document);
                            &["manifest"]
                        }
                        None => {
                            notes.push(format!(
                                "kubernetes_manifest.{name}: its manifest is worked out when Terraform runs; not read"
                            ));
                            &[]
                        }
                    },
                    None => &[],
                }
            }
            ("resource", ["kubectl_manifest", name]) => match block.body.get_attribute("yaml_body")
            {
                Some(body) => match eval.yaml_text(&body.value) {
                    Some(Ok(documents)) => {
                        read.documents.extend(documents);
                        &["yaml_body"]
                    }
                    Some(Err(why)) => {
                        notes.push(format!("kubectl_manifest.{name}: {why}"));
                        &[]
                    }
                    None => {
                        notes.push(format!(
                            "kubectl_manifest.{name}: its yaml_body is worked out when Terraform runs; not read"
                        ));
                        &[]
                    }
                },
                None => &[],
            },
            ("resource", ["helm_release", name]) if is_bitnami_kafka(&block.body, &mut eval) => {
                let anchor = block.labels.get(1).map_or(0..0, label_span);
                match eval.release(name, &block.body, anchor, notes) {
                    Some(release) => {
                        read.releases.push(release);
                        &["values", "set", "set_list", "set_sensitive"]
                    }
                    None => &[],
                }
            }
            _ => &[],
        };
        hide_attributes(eval.text, &block.body, consumed, &mut eval.hidden);
    }
    // Attributes outside any block (a `.tfvars`-like file): hidden too.
    for attribute in body.attributes() {
        hide_value(attribute, &mut eval.hidden);
    }
    read.values_files.append(&mut eval.files_read);
    read.hidden = eval.hidden;
    read.hidden.extend(comment_spans(text));
    read
}

/// The file's HCL, or why it is not read.
fn parse(text: &str) -> Result<Body, String> {
    let mut depth = 0usize;
    for byte in text.bytes() {
        match byte {
            b'{' | b'[' | b'(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(format!(
                        "Terraform nested deeper than {MAX_NESTING} brackets: not read"
                    ));
                }
            }
            b'}' | b']' | b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    hcl_edit::parser::parse_body(text).map_err(|error| {
        let location = error.location();
        format!(
            "not valid Terraform (HCL): {} (line {}, column {})",
            error.message(),
            location.line(),
            location.column()
        )
    })
}

/// Whether a `helm_release` installs the bitnami/kafka chart.
fn is_bitnami_kafka(body: &Body, eval: &mut Eval) -> bool {
    let text = |key: &str, eval: &mut Eval| {
        body.get_attribute(key)
            .and_then(|attribute| eval.expr(&attribute.value).text().map(str::to_string))
    };
    let chart = text("chart", eval).unwrap_or_default();
    let repository = text("repository", eval).unwrap_or_default();
    let chart = chart.trim_end_matches('/');
    (chart == "kafka" && repository.contains("bitnami"))
        || chart == "bitnami/kafka"
        || chart.ends_with("bitnamicharts/kafka")
}

/// Attributes whose values say which chart or object is deployed, not what it knows: shown.
const SHOWN: &[&str] = &["chart", "repository", "version", "name", "namespace"];

/// Hides the values of a block's attributes (and of its blocks', below), except `consumed`
/// ones, read as documents or values and hidden as those are, and [`SHOWN`] ones that hold
/// no credential (`repository = "oci://robot:X@registry/charts"` is hidden).
fn hide_attributes(text: &str, body: &Body, consumed: &[&str], hidden: &mut Vec<Span>) {
    for attribute in body.attributes() {
        let key = attribute.key.value().as_str();
        if consumed.contains(&key) || (SHOWN.contains(&key) && !looks_secret(text, attribute)) {
            continue;
        }
        hide_value(attribute, hidden);
    }
    for block in body.blocks() {
        // A `set` block of a release read: its value is hidden as a value of the release's.
        let read_block = consumed.contains(&block.ident.value().as_str());
        hide_attributes(
            text,
            &block.body,
            if read_block { &["value", "name"] } else { &[] },
            hidden,
        );
    }
}

/// Hides an attribute's value, unless it is a reference (a name, nothing secret).
fn hide_value(attribute: &Attribute, hidden: &mut Vec<Span>) {
    if !is_reference(&attribute.value)
        && let Some(span) = attribute.value.span()
    {
        hidden.push(span);
    }
}

/// A block label's text: between the quotes of a string label.
fn label_span(label: &hcl_edit::structure::BlockLabel) -> Span {
    let span = label.span().unwrap_or(0..0);
    if label.is_string() {
        span.start + 1..span.end.saturating_sub(1).max(span.start + 1)
    } else {
        span
    }
}

/// Whether a chart version reads as one (`22.1.6`, `~> 22.1`, `>=22.0.0-0`): what notes may
/// quote of it.
fn is_version_text(version: &str) -> bool {
    version.len() <= 64
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-+_~^*<>=, ".contains(&b))
}

fn looks_secret(text: &str, attribute: &Attribute) -> bool {
    // The value as written (quotes, escapes, a heredoc): a credential in any part of it hides
    // it all.
    let written = attribute
        .value
        .span()
        .and_then(|span| text.get(span))
        .unwrap_or_default();
    crate::secrets::has_secret_word(attribute.key.value().as_str())
        || crate::secrets::looks_like_credential(written)
}

/// A reference to a variable, a local, a resource's attribute: a name, nothing secret.
fn is_reference(expr: &Expression) -> bool {
    match expr {
        Expression::Variable(_) => true,
        Expression::Traversal(traversal) => {
            is_reference(&traversal.expr)
                && traversal
                    .operators
                    .iter()
                    .all(|operator| matches!(operator.value(), TraversalOperator::GetAttr(_)))
        }
        _ => false,
    }
}

/// The comments of `text` that output hides: `//` and `#` comments as comments of other
/// files are (what looks like a setting), `/* ... */` whole. Inside strings and heredocs a
/// `#` or `//` starts no comment; those are hidden as values.
fn comment_spans(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut at = 0;
    let mut in_string = false;
    let mut heredoc: Option<String> = None;
    while at < bytes.len() {
        if let Some(delimiter) = &heredoc {
            // A heredoc runs to a line that holds its delimiter alone.
            let end = bytes[at..]
                .iter()
                .position(|b| *b == b'\n')
                .map_or(bytes.len(), |n| at + n);
            if text[at..end].trim() == delimiter {
                heredoc = None;
            }
            at = end + 1;
            continue;
        }
        let byte = bytes[at];
        if in_string {
            match byte {
                b'\\' => at += 1,
                b'"' | b'\n' => in_string = false,
                _ => {}
            }
            at += 1;
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'<' if text[at..].starts_with("<<") => {
                let rest = text[at + 2..].trim_start_matches('-');
                let delimiter: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !delimiter.is_empty() {
                    heredoc = Some(delimiter);
                    at = bytes[at..]
                        .iter()
                        .position(|b| *b == b'\n')
                        .map_or(bytes.len(), |n| at + n + 1);
                    continue;
                }
            }
            b'#' => {
                at = line_comment(text, at, 1, &mut spans);
                continue;
            }
            b'/' if text[at..].starts_with("//") => {
                at = line_comment(text, at, 2, &mut spans);
                continue;
            }
            b'/' if text[at..].starts_with("/*") => {
                let end = text[at + 2..].find("*/").map_or(text.len(), |n| at + 2 + n);
                spans.push(at + 2..end);
                at = end + 2;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    spans
}

/// Hides what a line comment starting at `at` (its marker `marker` bytes long) holds of a
/// setting; returns where its line ends.
fn line_comment(text: &str, at: usize, marker: usize, spans: &mut Vec<Span>) -> usize {
    let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    let body = &text[at + marker..end];
    if let Some(hidden) = crate::secrets::comment_mask(body) {
        spans.push(at + marker + hidden.start..end);
    }
    end
}

/// A value written in another file, as its text (a scalar) or not one.
#[derive(Debug, Clone)]
enum Literal {
    Text(String),
    /// An object, a list, an expression: not a scalar a setting takes.
    Other,
    /// `var.name` or `local.name` (a local that names another value).
    Reference(Declaration, String),
}

/// A variable's or local's value and what gives it (`its default in variables.tf`).
type Given = (Literal, String);

/// The `.tf` and `.tfvars` files of a folder (a Terraform module), each parsed once however
/// many of its files are read: a folder of hundreds of files that each deploy a release would
/// otherwise parse every file again for each of them.
#[derive(Debug, Default)]
pub struct Folders {
    read: HashMap<PathBuf, Arc<Folder>>,
    /// The `module` blocks that call each folder, searched once per folder.
    callers: HashMap<PathBuf, Arc<Vec<modules::Caller>>>,
}

impl Folders {
    fn of(&mut self, dir: &Path) -> Arc<Folder> {
        Arc::clone(
            self.read
                .entry(dir.to_path_buf())
                .or_insert_with(|| Arc::new(Folder::read(dir))),
        )
    }

    fn callers_of(&mut self, dir: &Path) -> Arc<Vec<modules::Caller>> {
        Arc::clone(
            self.callers
                .entry(dir.to_path_buf())
                .or_insert_with(|| Arc::new(modules::callers(dir))),
        )
    }
}

/// What the files of a folder declare, by name, in the order of the files' names.
#[derive(Debug, Default)]
struct Folder {
    /// The names of the files read, in order: a declaration's `usize` is a place here.
    names: Vec<std::ffi::OsString>,
    /// Each variable's `default`s, in file order.
    defaults: HashMap<String, Vec<(usize, Given)>>,
    /// Each local's values, in file order.
    locals: HashMap<String, Vec<(usize, Given)>>,
    /// What variables files give variables, which wins over every default.
    given: HashMap<String, Given>,
    /// A variables file beside it that kafkalint cannot read (`*.tfvars.json`): every
    /// variable is then unknown.
    unknown_var_file: Option<String>,
    /// Whether `terraform.tfvars` or a `*.auto.tfvars` is beside it.
    has_var_files: bool,
}

/// The variables and locals one file's blocks declare, in order.
#[derive(Debug, Default)]
struct Declared {
    defaults: Vec<(String, Given)>,
    locals: Vec<(String, Given)>,
}

fn shown_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}

impl Declared {
    fn of(body: &Body, file: &Path) -> Declared {
        let mut declared = Declared::default();
        for block in body.blocks() {
            match block.ident.value().as_str() {
                "variable" => {
                    let Some(name) = block.labels.first().map(|label| label.as_str()) else {
                        continue;
                    };
                    if let Some(default) = block.body.get_attribute("default") {
                        declared.defaults.push((
                            name.to_string(),
                            (
                                literal(&default.value),
                                format!("its default in {}", shown_name(file)),
                            ),
                        ));
                    }
                }
                "locals" => {
                    for attribute in block.body.attributes() {
                        declared.locals.push((
                            attribute.key.value().to_string(),
                            (
                                literal(&attribute.value),
                                format!("in {}", shown_name(file)),
                            ),
                        ));
                    }
                }
                _ => {}
            }
        }
        declared
    }
}

impl Folder {
    fn read(dir: &Path) -> Folder {
        let mut folder = Folder::default();
        let mut files: Vec<(PathBuf, Option<Body>)> = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            let mut names: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.is_file())
                .collect();
            names.sort();
            for file in names {
                let name = shown_name(&file).to_ascii_lowercase();
                if is_terraform_name(&name)
                    || name.ends_with(".tfvars")
                    || name.ends_with(".tfvars.json")
                {
                    let body = crate::source::read_file(&file)
                        .ok()
                        .and_then(|bytes| String::from_utf8(bytes).ok())
                        .and_then(|text| parse(&text).ok());
                    files.push((file, body));
                }
            }
        }
        for (place, (file, body)) in files.iter().enumerate() {
            folder
                .names
                .push(file.file_name().unwrap_or_default().to_os_string());
            let Some(body) = body else { continue };
            let declared = Declared::of(body, file);
            for (name, given) in declared.defaults {
                folder
                    .defaults
                    .entry(name)
                    .or_default()
                    .push((place, given));
            }
            for (name, given) in declared.locals {
                folder.locals.entry(name).or_default().push((place, given));
            }
        }
        // Terraform loads `terraform.tfvars`, then each `*.auto.tfvars` in lexical order, each
        // winning over what came before and over the defaults. Another variables file (given
        // with `-var-file`) or a JSON one may set a variable too: what it names is unknown.
        let tfvars = |name: &str| name == "terraform.tfvars";
        let auto = |name: &str| name.ends_with(".auto.tfvars");
        for pass in [tfvars as fn(&str) -> bool, auto] {
            for (file, body) in &files {
                let name = shown_name(file).to_ascii_lowercase();
                let Some(body) = body.as_ref().filter(|_| pass(&name)) else {
                    continue;
                };
                folder.has_var_files = true;
                for attribute in body.attributes() {
                    folder.given.insert(
                        attribute.key.value().to_string(),
                        (
                            literal(&attribute.value),
                            format!("its value in {}", shown_name(file)),
                        ),
                    );
                }
            }
        }
        for (file, body) in &files {
            let name = shown_name(file).to_ascii_lowercase();
            let other_var_file = (name.ends_with(".tfvars") || name.ends_with(".tfvars.json"))
                && !tfvars(&name)
                && !auto(&name);
            if !other_var_file {
                continue;
            }
            match body {
                Some(body) => {
                    for attribute in body.attributes() {
                        folder.given.insert(
                            attribute.key.value().to_string(),
                            (Literal::Other, String::new()),
                        );
                    }
                }
                // A file kafkalint cannot read (JSON) may set any variable.
                None => folder.unknown_var_file = Some(shown_name(file)),
            }
        }
        folder
    }
}

/// The variables and locals of a file's module: the file itself (as read, which may differ
/// from what is on disk), the `.tf` files beside it, and the values `terraform.tfvars` and
/// `*.auto.tfvars` give variables.
#[derive(Debug)]
struct Module<'a> {
    folder: &'a Folder,
    /// The file's own name: its copy on disk is not read.
    own_name: Option<&'a std::ffi::OsStr>,
    own: Declared,
    /// When the folder is read as a module another configuration calls: what the calling
    /// `module` block's arguments give its variables. Its own variables files are then not
    /// read (Terraform reads those of the root module only).
    inputs: Option<HashMap<String, Given>>,
}

/// A variable or a local.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Declaration {
    Variable,
    Local,
}

impl<'a> Module<'a> {
    fn beside(
        path: &'a str,
        own: &Body,
        folder: &'a Folder,
        inputs: Option<HashMap<String, Given>>,
    ) -> Module<'a> {
        Module {
            folder,
            own_name: Path::new(path).file_name(),
            own: Declared::of(own, Path::new(path)),
            inputs,
        }
    }

    fn unknown_var_file(&self) -> Option<&str> {
        match self.inputs {
            Some(_) => None,
            None => self.folder.unknown_var_file.as_deref(),
        }
    }

    /// Whether a root module's variables take their defaults: it declares some and no
    /// variables file beside it sets any (`text` refers to one).
    fn reads_defaults(&self, text: &str) -> bool {
        self.inputs.is_none()
            && !self.folder.has_var_files
            && self.folder.unknown_var_file.is_none()
            && (!self.folder.defaults.is_empty() || !self.own.defaults.is_empty())
            && text.contains("var.")
    }

    /// What a calling `module` block's argument `name` (in `caller`) gives the module's
    /// variable, worked out in the calling configuration (`self`): a literal, or a variable or
    /// local of it with a literal value.
    fn argument(&self, expr: &Expression, name: &str, caller: &modules::Caller) -> Given {
        let at = format!("`{name}` of {} in {}", caller.label, caller.file);
        if let Literal::Text(value) = literal(expr) {
            return (Literal::Text(value), at);
        }
        let reference = match expr {
            Expression::Traversal(traversal) => match (&traversal.expr, &traversal.operators[..]) {
                (Expression::Variable(root), [operator]) => match operator.value() {
                    TraversalOperator::GetAttr(attr) => match root.value().as_str() {
                        "var"
                            if self.folder.unknown_var_file.is_none() && self.inputs.is_none() =>
                        {
                            Some((Declaration::Variable, "var", attr.value().as_str()))
                        }
                        "local" => Some((Declaration::Local, "local", attr.value().as_str())),
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        match reference.and_then(|(kind, root, attr)| Some((root, attr, self.get(kind, attr)?))) {
            Some((root, attr, (Literal::Text(value), from))) => (
                Literal::Text(value.clone()),
                format!("{at} ({root}.{attr}: {from})"),
            ),
            _ => (Literal::Other, at),
        }
    }

    /// The value the module gives `name`, and what gives it. The file itself is read first,
    /// then the others in name order: a variable's first `default` counts and a local's last
    /// value; a variables file wins over every default.
    fn get(&self, kind: Declaration, name: &str) -> Option<&Given> {
        self.resolve(kind, name, 0)
    }

    /// [`Module::get`], following a local that is another variable or local
    /// (`namespace = var.namespace`), a few steps at most (Terraform refuses a cycle).
    fn resolve(&self, kind: Declaration, name: &str, depth: usize) -> Option<&Given> {
        let given = self.get_written(kind, name)?;
        match &given.0 {
            Literal::Reference(next_kind, next) if depth < 8 => {
                if *next_kind == Declaration::Variable && self.unknown_var_file().is_some() {
                    return None;
                }
                self.resolve(*next_kind, next, depth + 1)
            }
            Literal::Reference(..) => None,
            _ => Some(given),
        }
    }

    /// What is written for `name`, before a reference in it is followed.
    fn get_written(&self, kind: Declaration, name: &str) -> Option<&Given> {
        let sibling = |(place, _): &&(usize, Given)| {
            Some(self.folder.names[*place].as_os_str()) != self.own_name
        };
        // A variable's default: the file's own declaration, else a sibling file's.
        let default = || {
            self.own
                .defaults
                .iter()
                .find(|(own, _)| own == name)
                .map(|(_, given)| given)
                .or_else(|| {
                    self.folder
                        .defaults
                        .get(name)?
                        .iter()
                        .find(sibling)
                        .map(|(_, given)| given)
                })
        };
        if kind == Declaration::Variable
            && let Some(inputs) = &self.inputs
        {
            return inputs.get(name).or_else(default);
        }
        match kind {
            Declaration::Variable => self.folder.given.get(name).or_else(default),
            Declaration::Local => self
                .folder
                .locals
                .get(name)
                .and_then(|found| found.iter().rev().find(sibling))
                .map(|(_, given)| given)
                .or_else(|| {
                    self.own
                        .locals
                        .iter()
                        .rev()
                        .find(|(own, _)| own == name)
                        .map(|(_, given)| given)
                }),
        }
    }
}

/// The scalar an expression written in another file is, when it is a literal one.
fn literal(expr: &Expression) -> Literal {
    match expr {
        Expression::String(string) => Literal::Text(string.value().to_string()),
        Expression::Bool(value) => Literal::Text(value.value().to_string()),
        Expression::Number(number) => Literal::Text(number.value().to_string()),
        Expression::StringTemplate(template) => {
            literal_text(template).map_or(Literal::Other, Literal::Text)
        }
        Expression::Traversal(traversal) => match (&traversal.expr, &traversal.operators[..]) {
            (Expression::Variable(root), [operator]) => {
                match (root.value().as_str(), operator.value()) {
                    ("var", TraversalOperator::GetAttr(name)) => {
                        Literal::Reference(Declaration::Variable, name.value().to_string())
                    }
                    ("local", TraversalOperator::GetAttr(name)) => {
                        Literal::Reference(Declaration::Local, name.value().to_string())
                    }
                    _ => Literal::Other,
                }
            }
            _ => Literal::Other,
        },
        _ => Literal::Other,
    }
}

/// A template's text when it is all literal (no interpolation, no directive).
fn literal_text(template: &hcl_edit::template::Template) -> Option<String> {
    template
        .iter()
        .map(|element| match element {
            Element::Literal(literal) => Some(literal.value().as_str()),
            _ => None,
        })
        .collect()
}

/// Works out HCL expressions as YAML nodes, with spans into `text`.
struct Eval<'a> {
    text: &'a str,
    module: &'a Module<'a>,
    /// Spans of unknown values that may hold literals (a function's arguments): hidden.
    hidden: Vec<Span>,
    depth: usize,
    /// The file's folder: where `file("...")` and `templatefile("...")` paths start.
    dir: PathBuf,
    /// Files read as values or templates: not also read alone.
    files_read: Vec<PathBuf>,
    /// The file's blocks, for a reference to another resource's name.
    body: &'a Body,
}

impl Eval<'_> {
    fn span(&self, expr: &Expression) -> Span {
        expr.span().unwrap_or(0..0)
    }

    /// A value Terraform works out when it runs: `${...}`, which no rule judges.
    fn unknown(&mut self, expr: &Expression) -> Node {
        let span = self.span(expr);
        let raw = self.text.get(span.clone()).unwrap_or_default();
        let value = if is_reference(expr) {
            format!("${{{raw}}}")
        } else {
            self.hidden.push(span.clone());
            "${expression}".to_string()
        };
        Node::Scalar(Scalar::written_elsewhere(
            value,
            Style::Plain,
            span.clone(),
            false,
            span,
        ))
    }

    fn scalar(&self, value: String, style: Style, span: Span, exact: bool, extent: Span) -> Node {
        Node::Scalar(Scalar::written_elsewhere(value, style, span, exact, extent))
    }

    /// An object's key: a bare name as a plain scalar at its span, else the expression's node.
    fn object_key(&mut self, key: &ObjectKey) -> Node {
        match key {
            ObjectKey::Ident(ident) => {
                let span = ident.span().unwrap_or(0..0);
                self.scalar(
                    ident.value().to_string(),
                    Style::Plain,
                    span.clone(),
                    true,
                    span,
                )
            }
            ObjectKey::Expression(expr) => self.expr(expr),
        }
    }

    /// The node an expression is.
    fn expr(&mut self, expr: &Expression) -> Node {
        if self.depth > MAX_NESTING {
            return self.unknown(expr);
        }
        self.depth += 1;
        let node = self.expr_inner(expr);
        self.depth -= 1;
        node
    }

    fn expr_inner(&mut self, expr: &Expression) -> Node {
        let span = self.span(expr);
        match expr {
            Expression::Null(_) => {
                self.scalar(String::new(), Style::Plain, span.clone(), false, span)
            }
            Expression::Bool(value) => self.scalar(
                value.value().to_string(),
                Style::Plain,
                span.clone(),
                true,
                span,
            ),
            Expression::Number(_) => {
                let raw = self.text.get(span.clone()).unwrap_or_default().to_string();
                self.scalar(raw, Style::Plain, span.clone(), true, span)
            }
            Expression::String(string) => {
                let value = string.value().to_string();
                let inner = span.start + 1..span.end.saturating_sub(1).max(span.start + 1);
                let exact = self.text.get(inner.clone()) == Some(value.as_str());
                self.scalar(value, Style::DoubleQuoted, inner, exact, span)
            }
            Expression::StringTemplate(template) => {
                let mut value = String::new();
                for element in template.iter() {
                    match element {
                        Element::Literal(literal) => value.push_str(literal.value()),
                        Element::Interpolation(interpolation) => {
                            match self.expr(&interpolation.expr).text() {
                                Some(text) if !text.contains("${") => value.push_str(text),
                                _ => return self.unknown(expr),
                            }
                        }
                        Element::Directive(_) => return self.unknown(expr),
                    }
                }
                let inner = span.start + 1..span.end.saturating_sub(1).max(span.start + 1);
                self.scalar(value, Style::DoubleQuoted, inner, false, span)
            }
            Expression::HeredocTemplate(heredoc) => {
                let body = heredoc_body(self.text, &span);
                if let Some(value) = literal_text(&heredoc.template) {
                    return self.scalar(value, Style::Block, body.clone(), false, body);
                }
                // Every interpolation known: the text Terraform renders. One unknown makes
                // the whole text unknown (a script, a properties file: no line is judged
                // without the rest).
                let mut value = String::new();
                for element in heredoc.template.iter() {
                    match element {
                        Element::Literal(literal) => value.push_str(literal.value()),
                        Element::Interpolation(interpolation)
                            if !interpolation.strip.strip_start()
                                && !interpolation.strip.strip_end() =>
                        {
                            match self.expr(&interpolation.expr).text() {
                                Some(text) if !text.contains("${") => value.push_str(text),
                                _ => return self.unknown(expr),
                            }
                        }
                        _ => return self.unknown(expr),
                    }
                }
                self.scalar(value, Style::Plain, body.clone(), false, span)
            }
            Expression::Array(array) => {
                Node::Seq(array.iter().map(|item| self.expr(item)).collect())
            }
            Expression::Object(object) => {
                let mut entries = Vec::new();
                for (key, value) in object.iter() {
                    let key = self.object_key(key);
                    let value = self.expr(value.expr());
                    entries.push((key, value));
                }
                Node::Map(entries)
            }
            Expression::Parenthesis(inner) => self.expr(inner.inner()),
            Expression::FuncCall(call)
                if call.name.namespace.is_empty()
                    && matches!(
                        call.name.name.value().as_str(),
                        "tostring" | "tonumber" | "tobool" | "yamlencode" | "jsonencode"
                    )
                    && call.args.len() == 1 =>
            {
                match call.args.get(0) {
                    Some(argument) => self.expr(argument),
                    None => self.unknown(expr),
                }
            }
            Expression::Traversal(_) | Expression::Variable(_) => self.reference(expr),
            _ => self.unknown(expr),
        }
    }

    /// `var.name` or `local.name` with a literal value in the module, placed at the reference;
    /// anything else unknown.
    fn reference(&mut self, expr: &Expression) -> Node {
        if let Some(node) = self.resource_metadata(expr) {
            return node;
        }
        if let Expression::Traversal(traversal) = expr
            && let Expression::Variable(root) = &traversal.expr
            && let [operator] = &traversal.operators[..]
            && let TraversalOperator::GetAttr(name) = operator.value()
        {
            let kind = match root.value().as_str() {
                "var" if self.module.unknown_var_file().is_none() => Declaration::Variable,
                "local" => Declaration::Local,
                _ => return self.unknown(expr),
            };
            if let Some((Literal::Text(value), _)) = self.module.get(kind, name.value().as_str()) {
                let span = self.span(expr);
                return self.scalar(value.clone(), Style::Plain, span.clone(), false, span);
            }
        }
        self.unknown(expr)
    }

    /// `kubernetes_config_map_v1.kafka.metadata[0].name` (or `.namespace`): what the
    /// resource of this file names itself, as a ConfigMap volume or a Service names it.
    fn resource_metadata(&mut self, expr: &Expression) -> Option<Node> {
        let Expression::Traversal(traversal) = expr else {
            return None;
        };
        let Expression::Variable(resource_type) = &traversal.expr else {
            return None;
        };
        let resource_type = resource_type.value().as_str();
        if !resource_type.starts_with("kubernetes_") {
            return None;
        }
        let [name, metadata, index, field] = &traversal.operators[..] else {
            return None;
        };
        let attr = |operator: &TraversalOperator| match operator {
            TraversalOperator::GetAttr(ident) => Some(ident.value().to_string()),
            _ => None,
        };
        let first = match index.value() {
            TraversalOperator::LegacyIndex(index) => *index.value() == 0,
            TraversalOperator::Index(Expression::Number(number)) => {
                number.value().as_u64() == Some(0)
            }
            _ => false,
        };
        let (name, field) = (attr(name.value())?, attr(field.value())?);
        if attr(metadata.value())? != "metadata"
            || !first
            || !matches!(field.as_str(), "name" | "namespace")
        {
            return None;
        }
        let body = self.body;
        let block = body.blocks().find(|block| {
            block.ident.value().as_str() == "resource"
                && block.labels.len() == 2
                && block.labels[0].as_str() == resource_type
                && block.labels[1].as_str() == name
        })?;
        let value = block
            .body
            .get_blocks("metadata")
            .next()?
            .body
            .get_attribute(&field)?;
        let node = self.expr(&value.value);
        let text = node.text().filter(|text| !text.contains("${"))?.to_string();
        // Placed at the reference, where this file names it.
        let span = self.span(expr);
        Some(self.scalar(text, Style::Plain, span.clone(), false, span))
    }

    /// A Kubernetes object written as an HCL object, or as YAML it decodes.
    fn document(&mut self, expr: &Expression) -> Option<Node> {
        if let Expression::FuncCall(call) = expr
            && call.name.name.value().as_str() == "yamldecode"
            && let Some(argument) = call.args.get(0)
        {
            return match self.yaml_text(argument)? {
                Ok(mut documents) if documents.len() == 1 => documents.pop(),
                _ => None,
            };
        }
        let node = self.expr(expr);
        matches!(node, Node::Map(_)).then_some(node)
    }

    /// The YAML documents of a heredoc, parsed where they are written (each `${local.x}` or
    /// `${var.x}` with a known value put in, any other interpolation left as written: an
    /// unknown value), or of a file a `file()` or `templatefile()` reads (placed at the call):
    /// `None` when the expression is none of these, `Err` when its text is not YAML or not read.
    fn yaml_text(&mut self, expr: &Expression) -> Option<Result<Vec<Node>, String>> {
        if let Some(text) = self.file_text(expr) {
            let at = self.span(expr);
            return Some(text.and_then(|text| {
                let mut documents = yaml::parse(&text)
                    .map_err(|error| format!("the YAML it reads is not read: {error}"))?;
                // Values of another file, placed at the call that reads them.
                documents
                    .iter_mut()
                    .for_each(|document| place_at(document, &at));
                Ok(documents)
            }));
        }
        let Expression::HeredocTemplate(heredoc) = expr else {
            return None;
        };
        let interpolations = template::interpolations(&heredoc.template)?;
        let body = heredoc_body(self.text, &self.span(expr));
        // The lines as written: an indented heredoc (`<<-EOF`) is YAML indented throughout,
        // which reads the same.
        let written = self.text.get(body.clone())?;
        let mut cuts = Vec::new();
        for (expression, span) in interpolations {
            let node = self.expr(expression);
            if let Some(value) = node.text().filter(|value| !value.contains("${")) {
                cuts.push((span, value.to_string()));
            }
        }
        let rendered = template::substitute(written, body.start, &cuts);
        Some(match yaml::parse(&rendered.text) {
            Ok(mut documents) => {
                documents
                    .iter_mut()
                    .for_each(|document| rendered.place(document));
                Ok(documents)
            }
            Err(error) => Err(format!("its YAML is not read: {error}")),
        })
    }

    /// A release's values, merged, and its version.
    fn release(
        &mut self,
        name: &str,
        body: &Body,
        anchor: Span,
        notes: &mut Vec<String>,
    ) -> Option<Release> {
        let label = format!("helm_release.{name}");
        let mut values = Node::Map(Vec::new());
        if let Some(list) = body.get_attribute("values") {
            let items: Vec<&Expression> = match &list.value {
                Expression::Array(array) => array.iter().collect(),
                other => vec![other],
            };
            for item in items {
                match self.values_item(item) {
                    Ok(node) => merge(&mut values, node),
                    Err(why) => {
                        notes.push(format!("{label}: {why}; not read"));
                        return None;
                    }
                }
            }
        }
        // A `dynamic "set"` block sets what Terraform works out: any key, any value.
        if body.get_blocks("dynamic").any(|block| {
            block
                .labels
                .first()
                .is_some_and(|label| label.as_str().starts_with("set"))
        }) {
            notes.push(format!(
                "{label}: a `dynamic \"set\"` block sets values Terraform works out; not read"
            ));
            return None;
        }
        // `set { name = ..., value = ... }` blocks, or `set = [{...}]` (helm provider 3.x):
        // name and value expressions, and whether the value is sensitive.
        let mut sets: Vec<(Expression, Expression, bool)> = Vec::new();
        for kind in ["set", "set_list", "set_sensitive"] {
            let sensitive = kind == "set_sensitive";
            for block in body.get_blocks(kind) {
                if let (Some(key), Some(value)) = (
                    block.body.get_attribute("name"),
                    block.body.get_attribute("value"),
                ) {
                    sets.push((key.value.clone(), value.value.clone(), sensitive));
                }
            }
            if let Some(attribute) = body.get_attribute(kind)
                && let Expression::Array(array) = &attribute.value
            {
                for item in array.iter() {
                    let Expression::Object(object) = item else {
                        continue;
                    };
                    let field = |field: &str| {
                        object.iter().find_map(|(key, value)| {
                            let name = match key {
                                ObjectKey::Ident(ident) => ident.value().to_string(),
                                ObjectKey::Expression(Expression::String(string)) => {
                                    string.value().to_string()
                                }
                                _ => return None,
                            };
                            (name == field).then(|| value.expr().clone())
                        })
                    };
                    if let (Some(key), Some(value)) = (field("name"), field("value")) {
                        sets.push((key, value, sensitive));
                    }
                }
            }
        }
        for (key, value, sensitive) in sets {
            let value_span = self.span(&value);
            let name = self.expr(&key).text().map(str::to_string);
            let Some(name) = name.filter(|name| !name.contains("${")) else {
                // A name Terraform works out may set any key.
                self.hidden.push(value_span);
                notes.push(format!(
                    "{label}: a `set` whose name is worked out when Terraform runs may set any value; not read"
                ));
                return None;
            };
            // A list index (`tolerations[0].key`) sets an item of a list: no key kafkalint
            // reads is one; its value is hidden with the rest of the file.
            let Some(path) = set_path(&name) else {
                self.hidden.push(value_span);
                continue;
            };
            let value = self.set_value(&value, sensitive);
            set(&mut values, &path, value);
        }
        let version = body.get_attribute("version").map(|attribute| {
            let node = self.expr(&attribute.value);
            (
                node,
                self.text
                    .get(self.span(&attribute.value))
                    .unwrap_or_default()
                    .to_string(),
            )
        });
        let version = match version {
            Some((node, raw)) => match node.text() {
                Some(version) if !version.contains("${") => {
                    // A note quotes the version: only as a version is written (`22.1.6`,
                    // `~> 22.1`), never a credential written in its place.
                    let shown = if is_version_text(version) {
                        version
                    } else {
                        crate::secrets::REDACTED
                    };
                    let from = if attribute_is_literal(body, "version") {
                        format!("{label} pins version {shown}")
                    } else {
                        let reference = raw.trim();
                        let given = self.given_by(reference);
                        format!("{label} pins version {shown} ({reference}: {given})")
                    };
                    Some((version.to_string(), from))
                }
                _ => {
                    let raw = raw.trim();
                    let raw = if crate::secrets::looks_like_credential(raw) {
                        crate::secrets::REDACTED
                    } else {
                        raw
                    };
                    notes.push(format!(
                        "{label}: its chart version `{raw}` is worked out when Terraform runs; the chart line is read from its values"
                    ));
                    None
                }
            },
            None => None,
        };
        Some(Release {
            label,
            values,
            anchor,
            version,
        })
    }

    /// What gives a variable or local its value: `its default in variables.tf`.
    fn given_by(&self, reference: &str) -> String {
        let (kind, name) = match reference.split_once('.') {
            Some(("var", name)) => (Declaration::Variable, name),
            Some(("local", name)) => (Declaration::Local, name),
            _ => return "unknown".into(),
        };
        self.module
            .get(kind, name)
            .map_or_else(|| "unknown".into(), |(_, from)| from.clone())
    }

    /// A `set` value: sensitive ones are unknown and hidden whatever they are; one that Helm's
    /// `--set` syntax reads as more than a string (`\,`, `{a,b}`, a comma) is unknown.
    fn set_value(&mut self, expr: &Expression, sensitive: bool) -> Node {
        let node = self.expr(expr);
        let helm_syntax = node.text().is_some_and(|text| {
            !text.contains("${") && text.contains(['\\', ',', '{', '}', '[', ']'])
        });
        if sensitive || helm_syntax {
            let span = self.span(expr);
            self.hidden.push(span.clone());
            return Node::Scalar(Scalar::written_elsewhere(
                "${set}".into(),
                Style::Plain,
                span.clone(),
                false,
                span,
            ));
        }
        node
    }

    /// One item of a release's `values` list.
    fn values_item(&mut self, item: &Expression) -> Result<Node, String> {
        if let Some(documents) = self.yaml_text(item) {
            return documents.map(|documents| {
                documents
                    .into_iter()
                    .next()
                    .unwrap_or(Node::Map(Vec::new()))
            });
        }
        if let Expression::FuncCall(call) = item
            && call.name.namespace.is_empty()
            && matches!(call.name.name.value().as_str(), "yamlencode" | "jsonencode")
        {
            let function = call.name.name.value().as_str();
            let node = self.expr(item);
            return if matches!(node, Node::Map(_)) {
                Ok(node)
            } else {
                Err(format!(
                    "a values item ({function} of what Terraform works out)"
                ))
            };
        }
        Err("a values item that Terraform works out when it runs".into())
    }

    /// The text a `file("...")` or `templatefile("...", {...})` call gives, its variables
    /// worked out here: `None` when `expr` is no such call, `Err` with why when it is not read.
    fn file_text(&mut self, expr: &Expression) -> Option<Result<String, String>> {
        let Expression::FuncCall(call) = sole_interpolation(expr) else {
            return None;
        };
        let function = call.name.name.value().as_str();
        if !call.name.namespace.is_empty() || !matches!(function, "file" | "templatefile") {
            return None;
        }
        let Some(path) = call
            .args
            .get(0)
            .and_then(|argument| self.path_argument(argument))
            .filter(|path| !path.contains("${"))
        else {
            return Some(Err(format!("a {function}() of a path Terraform works out")));
        };
        // An absolute path names a file of the machine the check runs on, not of the
        // configuration; a relative one may climb (`../values/kafka.yaml`), as modules do.
        if Path::new(&path).is_absolute() {
            return Some(Err(format!("`{path}` is outside the configuration")));
        }
        let file = self.dir.join(&path);
        let Ok(bytes) = crate::source::read_file(&file) else {
            return Some(Err(format!("`{path}` is not among the files read")));
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return Some(Err(format!("`{path}` is not UTF-8 text")));
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
        self.files_read.push(file);
        if function == "file" {
            return Some(Ok(text));
        }
        // templatefile: the template sees only the variables of its second argument.
        let template = match hcl_edit::parser::parse_template(&text) {
            Ok(template) => template,
            Err(error) => {
                return Some(Err(format!(
                    "`{path}` is not a Terraform template ({})",
                    error.message()
                )));
            }
        };
        let mut vars: Vec<(String, Option<String>)> = Vec::new();
        match call.args.get(1) {
            Some(Expression::Object(object)) => {
                for (key, value) in object.iter() {
                    let name = match key {
                        ObjectKey::Ident(ident) => ident.value().to_string(),
                        ObjectKey::Expression(key) => match self.expr(key).text() {
                            Some(name) => name.to_string(),
                            None => continue,
                        },
                    };
                    let value = self
                        .expr(value.expr())
                        .text()
                        .filter(|text| !text.contains("${"))
                        .map(str::to_string);
                    vars.push((name, value));
                }
            }
            None => {}
            Some(_) => {
                return Some(Err(format!(
                    "templatefile(\"{path}\", ...) with variables Terraform works out"
                )));
            }
        }
        let mut lookup = |name: &str| {
            vars.iter()
                .find(|(var, _)| var == name)
                .and_then(|(_, value)| value.clone())
        };
        Some(
            template::render_file(&template, &mut lookup)
                .map_err(|why| format!("`{path}` is {why}")),
        )
    }

    /// The Kubernetes object a `kubernetes_stateful_set`/`kubernetes_config_map` (or `_v1`)
    /// resource creates: `Ok(None)` when it creates none (`count = 0`), `Err` with why when
    /// it is not read.
    fn provider_object(
        &mut self,
        resource_type: &str,
        name: &str,
        block: &hcl_edit::structure::Block,
    ) -> Result<Option<Node>, String> {
        let Some((api_version, kind)) = provider::kind_of(resource_type) else {
            return Ok(None);
        };
        if block.body.get_attribute("for_each").is_some() {
            return Err("`for_each` makes one object per item Terraform works out".into());
        }
        if let Some(count) = block.body.get_attribute("count") {
            match self.expr(&count.value).text() {
                Some("0") => return Ok(None),
                Some("1") => {}
                // `count = var.enabled ? 1 : 0`: the object is created or not; read as
                // created, as its author means it to run.
                _ if matches!(count.value, Expression::Conditional(_)) => {}
                _ => {
                    return Err(format!(
                        "`count` makes {resource_type}.{name} several times"
                    ));
                }
            }
        }
        let anchor = block.labels.get(1).map_or(0..0, label_span);
        let mut failed: Option<String> = None;
        let object = provider::object(
            api_version,
            kind,
            &block.body,
            anchor,
            &mut |expr: &Expression, attribute: &str| {
                if attribute == "data" {
                    self.config_data(expr, &mut failed)
                } else {
                    self.expr(expr)
                }
            },
        )
        .map_err(str::to_string)?;
        match failed {
            Some(why) => Err(why),
            None => Ok(Some(object)),
        }
    }

    /// A ConfigMap's `data`: each value a text, written in place (a heredoc) or read from a
    /// file (`file()`, `templatefile()`), placed at the call.
    fn config_data(&mut self, expr: &Expression, failed: &mut Option<String>) -> Node {
        let Expression::Object(object) = expr else {
            return self.expr(expr);
        };
        let mut entries = Vec::new();
        for (key, value) in object.iter() {
            let key = self.object_key(key);
            let value = value.expr();
            let node = match self.file_text(value) {
                Some(Ok(text)) => {
                    let span = self.span(value);
                    self.scalar(text, Style::Plain, span.clone(), false, span)
                }
                // A file not read: the ConfigMap is not read when the key may be a node's
                // configuration; another (a log4j.properties, a script) is left out of it.
                Some(Err(why)) => {
                    let name = key.text().unwrap_or_default().to_ascii_lowercase();
                    if name.ends_with(".properties") && !name.contains("log4j") {
                        failed.get_or_insert(why);
                    }
                    continue;
                }
                None => self.expr(value),
            };
            entries.push((key, node));
        }
        Node::Map(entries)
    }

    /// A path argument: a string, or `"${path.module}/x"` (the file's folder).
    fn path_argument(&mut self, argument: &Expression) -> Option<String> {
        match argument {
            Expression::String(string) => Some(string.value().to_string()),
            Expression::StringTemplate(template) => {
                let mut path = String::new();
                for element in template.iter() {
                    match element {
                        Element::Literal(literal) => path.push_str(literal.value()),
                        Element::Interpolation(interpolation)
                            if matches!(
                                self.text.get(interpolation.expr.span().unwrap_or(0..0)),
                                Some("path.module" | "path.root" | "path.cwd")
                            ) =>
                        {
                            path.push('.');
                        }
                        _ => return None,
                    }
                }
                Some(path)
            }
            other => self.expr(other).text().map(str::to_string),
        }
    }
}

/// The expression of a string that is one interpolation alone (`"${file("x.yaml")}"`), which
/// Terraform takes as that expression's value; else `expr`.
fn sole_interpolation(expr: &Expression) -> &Expression {
    if let Expression::StringTemplate(template) = expr {
        let mut elements = template.iter();
        if let (Some(Element::Interpolation(interpolation)), None) =
            (elements.next(), elements.next())
        {
            return &interpolation.expr;
        }
    }
    expr
}

/// Whether a body's attribute is written as a literal (not a reference).
fn attribute_is_literal(body: &Body, key: &str) -> bool {
    body.get_attribute(key).is_some_and(|attribute| {
        matches!(
            attribute.value,
            Expression::String(_) | Expression::Number(_)
        )
    })
}

/// The lines of a heredoc between its opening line and its closing delimiter's line.
fn heredoc_body(text: &str, span: &Span) -> Span {
    let Some(written) = text.get(span.clone()) else {
        return span.clone();
    };
    let start = written.find('\n').map_or(span.end, |n| span.start + n + 1);
    let end = written
        .rfind('\n')
        .map_or(span.end, |n| span.start + n + 1)
        .max(start);
    start..end
}

/// Every scalar of `node` placed at `at` (values of another file).
fn place_at(node: &mut Node, at: &Span) {
    match node {
        Node::Scalar(scalar) => {
            *scalar = Scalar::written_elsewhere(
                std::mem::take(&mut scalar.value),
                Style::Plain,
                at.clone(),
                false,
                at.clone(),
            );
        }
        Node::Seq(items) => items.iter_mut().for_each(|item| place_at(item, at)),
        Node::Map(entries) => {
            for (key, value) in entries {
                place_at(key, at);
                place_at(value, at);
            }
        }
    }
}

/// Merges `over` into `base` as Helm merges values files: mappings key by key, anything else
/// replaced; a null deletes the key.
fn merge(base: &mut Node, over: Node) {
    match (base, over) {
        (Node::Map(base), Node::Map(over)) => {
            for (key, value) in over {
                let Some(name) = key.text().map(str::to_string) else {
                    continue;
                };
                let existing = base
                    .iter()
                    .position(|(k, _)| k.text() == Some(name.as_str()));
                match existing {
                    Some(at) if value.scalar().is_some_and(Scalar::is_null) => {
                        base.remove(at);
                    }
                    Some(at) => {
                        base[at].0 = key;
                        merge(&mut base[at].1, value);
                    }
                    None => base.push((key, value)),
                }
            }
        }
        (base, over) => *base = over,
    }
}

/// The keys of a `set` name (`a.b\.c` is `a`, `b.c`); `None` for one that indexes a list.
fn set_path(name: &str) -> Option<Vec<String>> {
    if name.contains('[') {
        return None;
    }
    let mut keys = vec![String::new()];
    let mut chars = name.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(next) = chars.next() {
                    keys.last_mut()?.push(next);
                }
            }
            '.' => keys.push(String::new()),
            c => keys.last_mut()?.push(c),
        }
    }
    (!keys.iter().any(String::is_empty)).then_some(keys)
}

/// Sets `path` in `values` to `value`, making mappings on the way.
fn set(values: &mut Node, path: &[String], value: Node) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = values;
    for key in parents {
        if !matches!(at, Node::Map(_)) {
            *at = Node::Map(Vec::new());
        }
        let Node::Map(entries) = at else { return };
        let index = match entries
            .iter()
            .position(|(k, _)| k.text() == Some(key.as_str()))
        {
            Some(index) => index,
            None => {
                entries.push((plain_key(key, &value), Node::Map(Vec::new())));
                entries.len() - 1
            }
        };
        at = &mut entries[index].1;
    }
    if !matches!(at, Node::Map(_)) {
        *at = Node::Map(Vec::new());
    }
    let Node::Map(entries) = at else { return };
    let key = plain_key(last, &value);
    match entries
        .iter()
        .position(|(k, _)| k.text() == Some(last.as_str()))
    {
        Some(index) => entries[index] = (key, value),
        None => entries.push((key, value)),
    }
}

/// A key a `set` makes, placed where its value is.
fn plain_key(name: &str, value: &Node) -> Node {
    let at = value.scalar().map_or(0..0, |scalar| scalar.span.clone());
    Node::Scalar(Scalar::written_elsewhere(
        name.to_string(),
        Style::Plain,
        at.clone(),
        false,
        at,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> (Read, Vec<String>) {
        let mut notes = Vec::new();
        let read = read("no-such-dir/main.tf", text, &mut notes).expect("HCL");
        (read, notes)
    }

    #[test]
    fn a_heredoc_of_values_is_read_where_it_is_written() {
        let text = "resource \"helm_release\" \"kafka\" {\n  repository = \"https://charts.bitnami.com/bitnami\"\n  chart = \"kafka\"\n  version = \"20.1.1\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    offsetsTopicReplicationFactor: 1\n    EOF\n  ]\n}\n";
        let (read, _) = read_text(text);
        let release = &read.releases[0];
        let factor = release
            .values
            .get("offsetsTopicReplicationFactor")
            .unwrap()
            .scalar()
            .unwrap();
        assert_eq!(factor.value, "1");
        assert_eq!(&text[factor.span.clone()], "1");
        assert_eq!(release.version.as_ref().unwrap().0, "20.1.1");
    }

    #[test]
    fn set_blocks_override_values_and_unknowns_stay_unknown() {
        let text = "resource \"helm_release\" \"k\" {\n  chart = \"oci://registry-1.docker.io/bitnamicharts/kafka\"\n  values = [yamlencode({ replicaCount = 1 })]\n  set {\n    name = \"replicaCount\"\n    value = 3\n  }\n  set {\n    name = \"a\\\\.b.c\"\n    value = var.missing\n  }\n}\n";
        let (read, _) = read_text(text);
        let values = &read.releases[0].values;
        assert_eq!(values.get("replicaCount").unwrap().text(), Some("3"));
        assert_eq!(
            values.get("a.b").unwrap().get("c").unwrap().text(),
            Some("${var.missing}")
        );
    }

    #[test]
    fn an_hcl_manifest_is_a_document() {
        let text = "resource \"kubernetes_manifest\" \"k\" {\n  manifest = {\n    \"apiVersion\" = \"kafka.strimzi.io/v1beta2\"\n    kind = \"Kafka\"\n    spec = { kafka = { replicas = 3 } }\n  }\n}\n";
        let (read, _) = read_text(text);
        let document = &read.documents[0];
        assert_eq!(document.get("kind").unwrap().text(), Some("Kafka"));
        let replicas = document
            .get("spec")
            .unwrap()
            .get("kafka")
            .unwrap()
            .get("replicas")
            .unwrap();
        assert_eq!(&text[replicas.scalar().unwrap().span.clone()], "3");
    }

    #[test]
    fn other_charts_and_bad_hcl() {
        let (read, _) = read_text(
            "resource \"helm_release\" \"x\" {\n  chart = \"kafka\"\n  repository = \"https://example.com\"\n}\n",
        );
        assert!(read.releases.is_empty());
        let mut notes = Vec::new();
        assert!(super::read("x.tf", "resource {", &mut notes).is_err());
        assert!(super::read("x.tf", &"[".repeat(10_000), &mut notes).is_err());
    }

    #[test]
    fn every_value_not_read_is_hidden() {
        let text = "locals {\n  kafka_password = \"SECRET1\"\n}\nvariable \"p\" {\n  default = \"SECRET2\"\n}\ntoken = \"SECRET3\"\nresource \"helm_release\" \"bailed\" {\n  chart = \"bitnami/kafka\"\n  values = [<<-EOF\n    replicaCount: ${var.n}\n    password: SECRET4\n    EOF\n  ]\n  set_sensitive = [{ name = \"a.password\", value = \"SECRET5\" }]\n}\nresource \"helm_release\" \"read\" {\n  chart = \"bitnami/kafka\"\n  set = [{ name = \"extraEnvVars[0].value\", value = \"SECRET6\" }]\n  set_sensitive {\n    name = \"b.password\"\n    value = \"SECRET7\"\n  }\n}\nresource \"kubectl_manifest\" \"m\" {\n  yaml_body = <<-EOF\n    kind: Secret\n    stringData:\n      password: SECRET8 ${var.x}\n    EOF\n}\n";
        let (read, _) = read_text(text);
        // A YAML heredoc with an unknown value is read, that value unknown.
        assert_eq!(read.releases.len(), 2);
        // What output hides: the rest as Terraform hides it, and of the documents and the
        // releases' values (hidden as YAML is), at least each value under a secret's name.
        let mut shown_as_yaml = read.documents.clone();
        shown_as_yaml.extend(read.releases.iter().map(|release| release.values.clone()));
        let mut hidden = read.hidden.clone();
        for node in &shown_as_yaml {
            node.visit_scalars(None, &mut |key, value| {
                if key.is_some_and(|key| crate::secrets::has_secret_word(&key.value)) {
                    hidden.push(value.extent.clone());
                }
            });
        }
        for n in 1..=8 {
            let secret = format!("SECRET{n}");
            let at = text.find(&secret).unwrap();
            assert!(
                hidden
                    .iter()
                    .any(|span| span.start <= at && at + secret.len() <= span.end),
                "{secret} is shown"
            );
        }
    }

    /// A folder of files under the system's temporary folder, removed when dropped.
    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str, files: &[(&str, &str)]) -> Tree {
            let root = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            for (path, text) in files {
                let path = root.join(path);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Tree(root)
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const MODULE: &str = "variable \"brokers\" {\n  default = 1\n}\nvariable \"factor\" {\n  default = 1\n}\nresource \"helm_release\" \"kafka\" {\n  chart = \"bitnami/kafka\"\n  version = \"22.1.6\"\n  values = [templatefile(\"${path.module}/values.tpl\", { n = var.brokers, f = var.factor })]\n}\n";

    #[test]
    fn a_module_is_read_once_per_environment_that_calls_it() {
        let tree = Tree::new(
            "kafkalint-terraform-envs",
            &[
                // A repository's root: the search for callers goes no higher.
                (".git/HEAD", ""),
                ("modules/kafka/main.tf", MODULE),
                (
                    "modules/kafka/values.tpl",
                    "replicaCount: ${n}\noffsetsTopicReplicationFactor: ${f}\n",
                ),
                // A variables file beside a module called by another is not Terraform's.
                ("modules/kafka/terraform.tfvars", "brokers = 9\n"),
                (
                    "envs/dev/main.tf",
                    "module \"kafka\" {\n  source = \"../../modules/kafka\"\n}\n",
                ),
                (
                    "envs/prod/main.tf",
                    "variable \"n\" {}\nmodule \"kafka\" {\n  source = \"../../modules/kafka\"\n  brokers = var.n\n  factor = 3\n}\n",
                ),
                ("envs/prod/terraform.tfvars", "n = 5\n"),
                (
                    "envs/off/main.tf",
                    "module \"kafka\" {\n  count = 0\n  source = \"../../modules/kafka\"\n}\n",
                ),
            ],
        );
        let path = tree.0.join("modules/kafka/main.tf");
        let path = path.to_str().unwrap();
        let (mut notes, mut info) = (Vec::new(), Vec::new());
        let reads = read_all(path, MODULE, &mut notes, &mut info, &mut Folders::default()).unwrap();
        let seen: Vec<(Option<&str>, Option<&str>, Option<&str>)> = reads
            .iter()
            .map(|read| {
                let values = &read.releases[0].values;
                (
                    read.scope.as_deref(),
                    values.get("replicaCount").and_then(Node::text),
                    values
                        .get("offsetsTopicReplicationFactor")
                        .and_then(Node::text),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (Some("envs/dev: module.kafka"), Some("1"), Some("1")),
                (Some("envs/prod: module.kafka"), Some("5"), Some("3")),
            ]
        );
        // The template is read as part of the release, not alone.
        assert!(
            reads[0]
                .values_files
                .iter()
                .any(|file| file.ends_with("values.tpl"))
        );
    }

    #[test]
    fn a_call_from_a_module_others_call_gives_unknown_variables() {
        let tree = Tree::new(
            "kafkalint-terraform-nested",
            &[
                (".git/HEAD", ""),
                ("modules/kafka/main.tf", MODULE),
                ("modules/kafka/values.tpl", "replicaCount: ${n}\n"),
                // Its `size` default (2) is not what the environment below gives it (7).
                (
                    "modules/platform/main.tf",
                    "variable \"size\" {\n  default = 2\n}\nmodule \"kafka\" {\n  source = \"../kafka\"\n  brokers = var.size\n}\n",
                ),
                (
                    "envs/prod/main.tf",
                    "module \"platform\" {\n  source = \"../../modules/platform\"\n  size = 7\n}\n",
                ),
            ],
        );
        let path = tree.0.join("modules/kafka/main.tf");
        let (mut notes, mut info) = (Vec::new(), Vec::new());
        let reads = read_all(
            path.to_str().unwrap(),
            MODULE,
            &mut notes,
            &mut info,
            &mut Folders::default(),
        )
        .unwrap();
        assert_eq!(reads.len(), 1);
        let replicas = reads[0].releases[0]
            .values
            .get("replicaCount")
            .and_then(Node::text);
        assert_eq!(replicas, Some("${n}"));
    }

    #[test]
    fn a_module_nothing_calls_is_read_with_its_defaults_and_says_so() {
        let tree = Tree::new(
            "kafkalint-terraform-alone",
            &[
                (".git/HEAD", ""),
                ("modules/kafka/main.tf", MODULE),
                ("modules/kafka/values.tpl", "replicaCount: ${n}\n"),
            ],
        );
        let path = tree.0.join("modules/kafka/main.tf");
        let (mut notes, mut info) = (Vec::new(), Vec::new());
        let reads = read_all(
            path.to_str().unwrap(),
            MODULE,
            &mut notes,
            &mut info,
            &mut Folders::default(),
        )
        .unwrap();
        assert_eq!(reads.len(), 1);
        assert!(reads[0].scope.is_none());
        assert!(info[0].contains("read with their defaults"), "{info:?}");
    }

    #[test]
    fn provider_resources_are_the_objects_they_create() {
        let text = "resource \"kubernetes_config_map_v1\" \"cm\" {\n  metadata {\n    name = \"kafka-config\"\n  }\n  data = {\n    \"server.properties\" = <<-EOT\n      num.partitions=3\n    EOT\n  }\n}\nresource \"kubernetes_stateful_set_v1\" \"kafka\" {\n  metadata {\n    name = \"kafka\"\n  }\n  spec {\n    replicas = 3\n    template {\n      spec {\n        container {\n          image = \"apache/kafka:3.9.1\"\n          env {\n            name  = \"KAFKA_NODE_ID\"\n            value = \"1\"\n          }\n          port {\n            container_port = 9092\n          }\n        }\n        volume {\n          name = \"config\"\n          config_map {\n            name = kubernetes_config_map_v1.cm.metadata[0].name\n          }\n        }\n      }\n    }\n  }\n}\nresource \"kubernetes_deployment\" \"d\" {\n  metadata {\n    name = \"x\"\n  }\n  spec {\n    template {\n      spec {\n        dynamic \"container\" {\n          for_each = var.c\n        }\n      }\n    }\n  }\n}\n";
        let (read, notes) = read_text(text);
        assert_eq!(read.documents.len(), 2);
        let config_map = &read.documents[0];
        assert_eq!(
            config_map.get("kind").and_then(Node::text),
            Some("ConfigMap")
        );
        let properties = config_map.at(&["data", "server.properties"]).unwrap();
        assert_eq!(properties.text(), Some("num.partitions=3\n"));
        let set = &read.documents[1];
        assert_eq!(
            set.at(&["spec", "replicas"]).and_then(Node::text),
            Some("3")
        );
        let container = &set
            .at(&["spec", "template", "spec", "containers"])
            .unwrap()
            .items()[0];
        assert_eq!(
            container.get("image").and_then(Node::text),
            Some("apache/kafka:3.9.1")
        );
        assert_eq!(
            container.get("env").unwrap().items()[0]
                .get("name")
                .and_then(Node::text),
            Some("KAFKA_NODE_ID")
        );
        assert_eq!(
            container.get("ports").unwrap().items()[0]
                .get("containerPort")
                .and_then(Node::text),
            Some("9092")
        );
        let volume = &set
            .at(&["spec", "template", "spec", "volumes"])
            .unwrap()
            .items()[0];
        assert_eq!(
            volume.at(&["configMap", "name"]).and_then(Node::text),
            Some("kafka-config")
        );
        assert!(
            notes
                .iter()
                .any(|note| note.contains("kubernetes_deployment.d") && note.contains("dynamic")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_yaml_heredoc_takes_the_values_it_knows() {
        let text = "variable \"n\" {\n  default = 3\n}\nlocals {\n  brokers = var.n\n  count = local.brokers\n}\nresource \"kubectl_manifest\" \"k\" {\n  yaml_body = <<YAML\nkind: Kafka\nspec:\n  kafka:\n    replicas: ${local.count}\n    image: $${IMAGE}\n    storage: ${var.unknown}\nYAML\n}\n";
        let (read, _) = read_text(text);
        let kafka = read.documents[0].at(&["spec", "kafka"]).unwrap();
        let replicas = kafka.get("replicas").unwrap().scalar().unwrap();
        assert_eq!(replicas.value, "3");
        assert_eq!(&text[replicas.span.clone()], "${local.count}");
        assert_eq!(kafka.get("image").and_then(Node::text), Some("${IMAGE}"));
        assert_eq!(
            kafka.get("storage").and_then(Node::text),
            Some("${var.unknown}")
        );
    }

    #[test]
    fn comments_that_hold_settings_are_hidden() {
        let text = "# password = hunter2\nresource \"x\" \"y\" {\n  a = \"#not a comment\" // secret: s3cret\n}\n";
        let spans = comment_spans(text);
        assert!(
            spans
                .iter()
                .any(|span| text[span.clone()].contains("hunter2"))
        );
        assert!(
            spans
                .iter()
                .any(|span| text[span.clone()].contains("s3cret"))
        );
        assert!(
            !spans
                .iter()
                .any(|span| text[span.clone()].contains("not a comment"))
        );
    }
}
