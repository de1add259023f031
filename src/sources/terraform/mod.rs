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
//! placed at the reference; `local.name` likewise from `locals` blocks, and an object's
//! attributes (`var.kafka.replicas`) likewise. The functions `functions.rs` evaluates, `for`
//! expressions and `for_each`/`count` instances are worked out where what they read is known.
//! Anything else that Terraform works out when it runs (a resource's attribute, another
//! function) is an unknown value, `${...}`, which no rule judges.

mod functions;
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
    /// Its `kafka_topic` and `confluent_kafka_topic` resources.
    pub topics: Vec<TopicResource>,
    /// What could not be read of its topic resources, one line each.
    pub topic_notes: Vec<String>,
}

/// A resource that declares Kafka topics: `kafka_topic` (the Mongey/kafka provider) or
/// `confluent_kafka_topic` (the confluentinc/confluent provider).
#[derive(Debug)]
pub struct TopicResource {
    /// `kafka_topic` or `confluent_kafka_topic`.
    pub resource_type: String,
    /// `kafka_topic.orders`.
    pub label: String,
    /// The resource's name label, where the declaration starts.
    pub anchor: Span,
    /// Each instance (one per `for_each` item or `count` index): its topic attributes
    /// ([`TOPIC_ATTRIBUTES`]) by name, evaluated.
    pub instances: Vec<Node>,
}

/// The attributes of a topic resource that say what the topic is: shown as they are (a
/// topic's name and settings are no secret); every other one (`credentials`, `rest_endpoint`)
/// is hidden.
pub const TOPIC_ATTRIBUTES: &[&str] = &[
    "name",
    "topic_name",
    "partitions",
    "partitions_count",
    "replication_factor",
    "config",
];

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
        || has(b"aws_msk_configuration")
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

/// Every way the Terraform file at `path` is applied: once for each chain of `module` blocks
/// around it that ends at its folder (an environment's `module "kafka" { source =
/// "../../modules/kafka" }`, or one through a platform module), with the variables that call
/// gives, each [`Read::scope`] naming it; read as a root module
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
    for (label, inputs) in calls_of(folders, &dir, 0) {
        let module = Module::beside(path, &body, &folder, Some(inputs));
        let mut own_notes = Vec::new();
        let mut read = read_module(text, &body, &dir, &module, &mut own_notes);
        notes.extend(own_notes.into_iter().map(|note| format!("{label}: {note}")));
        read.scope = Some(label);
        reads.push(read);
    }
    Ok(reads)
}

/// Chains of `module` blocks followed, at most: an environment calling a platform module
/// that calls the Kafka module is two.
const MAX_CHAIN: usize = 4;
/// Ways a module is applied that are read, at most: each is read in full.
const MAX_CALLS: usize = 32;

/// What a call gives a module's variables, by name.
type Inputs = HashMap<String, Given>;

/// Each way the module in `dir` is applied, through every chain of `module` blocks that ends
/// at it (`envs/prod` calls `modules/platform`, which calls `modules/kafka`): the chain's
/// name (`envs/prod: module.platform: module.kafka`) and what its variables are given, each
/// call's arguments worked out with the variables the call before gives its own folder
/// (hashicorp/terraform v1.9.8 internal/terraform/node_module_variable.go,
/// `evalModuleVariable`: a module variable is its call's argument evaluated in the calling
/// module, else its `default`). Empty when nothing calls `dir`.
fn calls_of(
    folders: &mut Folders,
    dir: &Path,
    depth: usize,
) -> Vec<(String, HashMap<String, Given>)> {
    let callers = folders.callers_of(dir);
    let mut calls = Vec::new();
    for caller in callers.iter() {
        let caller_folder = folders.of(&caller.folder);
        // The calling folder applied by the calls around it, or as a root module (its own
        // variables files) when nothing calls it; past the chain's bound its variables are
        // unknown.
        let outer: Vec<(Option<String>, Option<Inputs>)> = if depth >= MAX_CHAIN {
            vec![(None, Some(HashMap::new()))]
        } else {
            let around = calls_of(folders, &caller.folder, depth + 1);
            if around.is_empty() {
                vec![(None, None)]
            } else {
                around
                    .into_iter()
                    .map(|(label, inputs)| (Some(label), Some(inputs)))
                    .collect()
            }
        };
        for (outer_label, outer_inputs) in outer {
            if calls.len() >= MAX_CALLS {
                return calls;
            }
            let calling = Module {
                folder: &caller_folder,
                own_name: None,
                own: Declared::default(),
                inputs: outer_inputs,
            };
            let inputs: HashMap<String, Given> = caller
                .inputs
                .iter()
                .map(|(name, expr)| (name.clone(), calling.argument(expr, name, caller)))
                .collect();
            let label = match outer_label {
                Some(outer) => format!("{outer}: module.{}", caller.name),
                None => caller.label.clone(),
            };
            calls.push((label, inputs));
        }
    }
    calls
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
        bindings: Vec::new(),
    };
    let mut read = Read::default();
    for block in body.blocks() {
        let labels: Vec<&str> = block.labels.iter().map(|label| label.as_str()).collect();
        // The attributes read as documents or values, hidden as those are; every other
        // attribute's value is hidden below (deny by default).
        let consumed: &[&str] = match (block.ident.value().as_str(), &labels[..]) {
            ("resource", [resource_type, name])
                if provider::kind_of(resource_type).is_some()
                    || matches!(*resource_type, "kubernetes_manifest" | "kubectl_manifest") =>
            {
                match eval.resource_documents(resource_type, name, block) {
                    Ok(documents) if documents.is_empty() => &[],
                    Ok(documents) => {
                        read.documents.extend(documents);
                        match *resource_type {
                            "kubernetes_manifest" => &["manifest"],
                            "kubectl_manifest" => &["yaml_body"],
                            // Every value of it is a value of the document, hidden as those are.
                            _ => continue,
                        }
                    }
                    Err(why) => {
                        notes.push(format!("{resource_type}.{name}: {why}"));
                        &[]
                    }
                }
            }
            (
                "resource",
                [
                    resource_type @ ("kafka_topic" | "confluent_kafka_topic"),
                    name,
                ],
            ) => match eval.topic_resource(resource_type, name, block) {
                Ok(resource) => {
                    read.topics.push(resource);
                    TOPIC_ATTRIBUTES
                }
                Err(why) => {
                    read.topic_notes
                        .push(format!("{resource_type}.{name}: {why}"));
                    &[]
                }
            },
            // Amazon MSK starts its brokers with its own defaults (a replication factor by
            // the number of Availability Zones, auto-creation off: docs.aws.amazon.com/msk/
            // latest/developerguide/msk-default-configuration.html) and refuses keys Apache
            // Kafka takes: its `server_properties` are not Apache Kafka's to judge.
            ("resource", ["aws_msk_configuration", name]) => {
                notes.push(format!(
                    "aws_msk_configuration.{name}: the broker configuration of an Amazon MSK cluster, whose defaults and allowed keys are the service's; not checked"
                ));
                &[]
            }
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
    /// An object or a list written with literal values only (`{ replicas = 3 }`), as a node
    /// placed nowhere yet: a reference to it places it where it is used.
    Collection(Node),
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
        match literal(expr) {
            Literal::Text(value) => return (Literal::Text(value), at),
            Literal::Collection(node) => return (Literal::Collection(node), at),
            _ => {}
        }
        let reference = match expr {
            Expression::Traversal(traversal) => match (&traversal.expr, &traversal.operators[..]) {
                (Expression::Variable(root), [operator]) => match operator.value() {
                    TraversalOperator::GetAttr(attr) => match root.value().as_str() {
                        "var" if self.unknown_var_file().is_none() => {
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
            Some((root, attr, (Literal::Collection(node), from))) => (
                Literal::Collection(node.clone()),
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
        Expression::Object(_) | Expression::Array(_) => {
            literal_node(expr, 0).map_or(Literal::Other, Literal::Collection)
        }
        _ => Literal::Other,
    }
}

/// An object or list of literal values (nested ones too) as a node: `None` when any part of
/// it is worked out (a reference, a function, an interpolation).
fn literal_node(expr: &Expression, depth: usize) -> Option<Node> {
    if depth > MAX_NESTING {
        return None;
    }
    let scalar = |value: String| {
        Node::Scalar(Scalar::written_elsewhere(
            value,
            Style::Plain,
            0..0,
            false,
            0..0,
        ))
    };
    match expr {
        Expression::Object(object) => {
            let mut entries = Vec::new();
            for (key, value) in object.iter() {
                let key = match key {
                    ObjectKey::Ident(ident) => ident.value().to_string(),
                    ObjectKey::Expression(Expression::String(string)) => string.value().to_string(),
                    ObjectKey::Expression(_) => return None,
                };
                entries.push((scalar(key), literal_node(value.expr(), depth + 1)?));
            }
            Some(Node::Map(entries))
        }
        Expression::Array(array) => array
            .iter()
            .map(|item| literal_node(item, depth + 1))
            .collect::<Option<Vec<Node>>>()
            .map(Node::Seq),
        // A null is no value a setting takes.
        Expression::Null(_) => None,
        other => match literal(other) {
            Literal::Text(value) => Some(scalar(value)),
            _ => None,
        },
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
    /// The names bound where an expression is evaluated, innermost last: `each` of a resource
    /// with `for_each`, `count` of one with `count`, a `for` expression's variables.
    bindings: Vec<(String, Node)>,
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
            Expression::FuncCall(call) if call.name.namespace.is_empty() => {
                self.call(expr, call).unwrap_or_else(|| self.unknown(expr))
            }
            Expression::ForExpr(for_expr) => self
                .for_expr(for_expr)
                .unwrap_or_else(|| self.unknown(expr)),
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
                "var" if self.module.unknown_var_file().is_none() => Some(Declaration::Variable),
                "local" => Some(Declaration::Local),
                _ => None,
            };
            if let Some(kind) = kind
                && let Some((Literal::Text(value), _)) =
                    self.module.get(kind, name.value().as_str())
            {
                let span = self.span(expr);
                return self.scalar(value.clone(), Style::Plain, span.clone(), false, span);
            }
        }
        match self.traverse(expr) {
            Some(node) => node,
            None => self.unknown(expr),
        }
    }

    /// A name a `for_each`, a `count` or a `for` expression binds, innermost first.
    fn bound(&self, name: &str) -> Option<&Node> {
        self.bindings
            .iter()
            .rev()
            .find(|(bound, _)| bound == name)
            .map(|(_, node)| node)
    }

    /// A reference followed into the value it names, attribute by attribute and index by
    /// index (`each.value.metadata`, `local.cfg["offsets"]`, `lookup(d, "metadata", {})["name"]`,
    /// `data.kubectl_file_documents.docs.documents`): `None` when some step is not known.
    fn traverse(&mut self, expr: &Expression) -> Option<Node> {
        let traversal = match expr {
            Expression::Variable(name) => return self.bound(name.value().as_str()).cloned(),
            Expression::Traversal(traversal) => traversal,
            _ => return None,
        };
        let operators: Vec<&TraversalOperator> = traversal
            .operators
            .iter()
            .map(|operator| operator.value())
            .collect();
        let attr = |at: usize| match operators.get(at) {
            Some(TraversalOperator::GetAttr(ident)) => Some(ident.value().as_str()),
            _ => None,
        };
        let (mut node, rest) = match &traversal.expr {
            Expression::Variable(root) => match root.value().as_str() {
                name if self.bound(name).is_some() => (self.bound(name).cloned()?, 0),
                "local" => {
                    let at = self.span(expr);
                    (self.local_value(attr(0)?, &at)?, 1)
                }
                "var" if self.module.unknown_var_file().is_none() => {
                    match self.module.get(Declaration::Variable, attr(0)?) {
                        Some((Literal::Text(value), _)) => {
                            let span = self.span(expr);
                            (
                                self.scalar(value.clone(), Style::Plain, span.clone(), false, span),
                                1,
                            )
                        }
                        // An object default (`default = { replicas = 3 }`): its parts placed at
                        // the reference that reads them.
                        Some((Literal::Collection(node), _)) => {
                            let mut node = node.clone();
                            place_at(&mut node, &self.span(expr));
                            (node, 1)
                        }
                        _ => return None,
                    }
                }
                "data"
                    if attr(0)? == "kubectl_file_documents"
                        && matches!(attr(2)?, "documents" | "manifests") =>
                {
                    let at = self.span(expr);
                    let documents = self.file_documents(attr(1)?, &at)?;
                    match attr(2)? {
                        "manifests" => (manifests_by_link(documents)?, 3),
                        _ => (documents, 3),
                    }
                }
                _ => return None,
            },
            // A function's or a collection's value, indexed: `lookup(...)["name"]`.
            root => (self.expr(root), 0),
        };
        for operator in &operators[rest..] {
            node = self.step(node, operator)?;
        }
        Some(node)
    }

    /// One attribute or index of a value.
    fn step(&mut self, node: Node, operator: &TraversalOperator) -> Option<Node> {
        let key = match operator {
            TraversalOperator::GetAttr(ident) => ident.value().to_string(),
            TraversalOperator::Index(index) => {
                functions::known_text(&self.expr(index))?.to_string()
            }
            TraversalOperator::LegacyIndex(index) => index.value().to_string(),
            _ => return None,
        };
        match node {
            Node::Map(entries) => {
                // A key Terraform works out may be the one asked for.
                if entries
                    .iter()
                    .any(|(name, _)| functions::known_text(name).is_none())
                {
                    return None;
                }
                entries
                    .into_iter()
                    .rev()
                    .find(|(name, _)| name.text() == Some(key.as_str()))
                    .map(|(_, value)| value)
            }
            Node::Seq(items) => {
                let index: usize = key.parse().ok()?;
                items.into_iter().nth(index)
            }
            Node::Scalar(_) => None,
        }
    }

    /// A local of this file whose value is an expression (a literal one is read as the module
    /// gives it): the expression worked out here, where it is written; a local of another file
    /// written with literal values only, placed at `at`, the reference.
    fn local_value(&mut self, name: &str, at: &Span) -> Option<Node> {
        if let Some((Literal::Text(value), _)) = self.module.get(Declaration::Local, name) {
            let span = self
                .own_local(name)
                .and_then(|expr| expr.span())
                .unwrap_or(0..0);
            return Some(self.scalar(value.clone(), Style::Plain, span.clone(), false, span));
        }
        let Some(expr) = self.own_local(name).cloned() else {
            // A local of another file of the module, written with literal values only.
            if let Some((Literal::Collection(node), _)) = self.module.get(Declaration::Local, name)
            {
                let mut node = node.clone();
                place_at(&mut node, at);
                return Some(node);
            }
            return None;
        };
        // A local that refers to itself (an error Terraform reports) ends at the depth bound.
        let node = self.expr(&expr);
        (!matches!(&node, Node::Scalar(scalar) if scalar.value == "${expression}")).then_some(node)
    }

    /// The expression of a local this file's `locals` blocks declare.
    fn own_local(&self, name: &str) -> Option<&'_ Expression> {
        let body = self.body;
        body.blocks()
            .filter(|block| block.ident.value().as_str() == "locals")
            .find_map(|block| block.body.get_attribute(name))
            .map(|attribute| &attribute.value)
    }

    /// `data.kubectl_file_documents.<name>.documents`: the documents of its `content`, each a
    /// text, as the kubectl provider splits them.
    fn file_documents(&mut self, name: &str, at: &Span) -> Option<Node> {
        let body = self.body;
        let block = body.blocks().find(|block| {
            block.ident.value().as_str() == "data"
                && block.labels.len() == 2
                && block.labels[0].as_str() == "kubectl_file_documents"
                && block.labels[1].as_str() == name
        })?;
        let content = &block.body.get_attribute("content")?.value;
        let content = self.expr(content);
        let text = functions::known_text(&content)?.to_string();
        let at = content
            .scalar()
            .map_or(at.clone(), |scalar| scalar.span.clone());
        let at = &at;
        Some(Node::Seq(
            functions::yaml_documents(&text)
                .into_iter()
                .map(|document| self.scalar(document, Style::Plain, at.clone(), false, at.clone()))
                .collect(),
        ))
    }

    /// A function call's value where Terraform would know it: the text of a file it reads,
    /// the YAML a text decodes to, or one of [`functions`]; `None` when it is unknown.
    fn call(&mut self, expr: &Expression, call: &hcl_edit::expr::FuncCall) -> Option<Node> {
        let name = call.name.name.value().as_str();
        let at = self.span(expr);
        match name {
            "file" | "templatefile" => {
                let text = self.file_text(expr)?.ok()?;
                Some(self.scalar(text, Style::Plain, at.clone(), false, at))
            }
            "yamldecode" if call.args.len() == 1 => {
                let argument = call.args.get(0)?;
                let documents = match self.yaml_text(argument)? {
                    Ok(documents) => documents,
                    Err(_) => return None,
                };
                let [document] = <[Node; 1]>::try_from(documents).ok()?;
                Some(document)
            }
            name if functions::is_known(name) => {
                let args: Vec<Node> = call.args.iter().map(|arg| self.expr(arg)).collect();
                functions::call(name, &args, &at)
            }
            _ => None,
        }
    }

    /// A `for` expression over a known collection: a list (`[for d in docs : yamldecode(d)]`)
    /// or an object (`{for d in docs : d.kind => d}`) of what each item gives.
    fn for_expr(&mut self, for_expr: &hcl_edit::expr::ForExpr) -> Option<Node> {
        // `...` groups values under repeated keys: not read.
        if for_expr.grouping {
            return None;
        }
        let collection = self.expr(&for_expr.intro.collection_expr);
        let items: Vec<(Node, Node)> = match collection {
            Node::Map(entries) => entries,
            Node::Seq(items) => items
                .into_iter()
                .enumerate()
                .map(|(index, item)| {
                    let at = item.scalar().map_or(0..0, |scalar| scalar.span.clone());
                    (
                        self.scalar(index.to_string(), Style::Plain, at.clone(), false, at),
                        item,
                    )
                })
                .collect(),
            Node::Scalar(_) => return None,
        };
        if items
            .iter()
            .any(|(key, _)| functions::known_text(key).is_none())
        {
            return None;
        }
        let key_var = for_expr
            .intro
            .key_var
            .as_ref()
            .map(|ident| ident.value().to_string());
        let value_var = for_expr.intro.value_var.value().to_string();
        let mut list = Vec::new();
        let mut object: Vec<(Node, Node)> = Vec::new();
        let outer = self.bindings.len();
        let mut known = true;
        for (key, value) in items {
            self.bindings.truncate(outer);
            if let Some(key_var) = &key_var {
                self.bindings.push((key_var.clone(), key));
            }
            self.bindings.push((value_var.clone(), value));
            if let Some(cond) = &for_expr.cond {
                match functions::known_text(&self.expr(&cond.expr)) {
                    Some("true") => {}
                    Some("false") => continue,
                    _ => {
                        known = false;
                        break;
                    }
                }
            }
            let value = self.expr(&for_expr.value_expr);
            match &for_expr.key_expr {
                Some(key_expr) => {
                    let key = self.expr(key_expr);
                    let Some(name) = functions::known_text(&key).map(str::to_string) else {
                        known = false;
                        break;
                    };
                    // Terraform refuses a repeated key without `...`.
                    if object
                        .iter()
                        .any(|(seen, _)| seen.text() == Some(name.as_str()))
                    {
                        known = false;
                        break;
                    }
                    object.push((key, value));
                }
                None => list.push(value),
            }
        }
        self.bindings.truncate(outer);
        if !known {
            return None;
        }
        Some(match for_expr.key_expr {
            Some(_) => Node::Map(object),
            None => Node::Seq(list),
        })
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
            // A text worked out here (`replace(file("kafka.yaml"), "{{REPLICAS}}", "3")`, a
            // document of `kubectl_file_documents`), placed at the expression.
            let node = self.expr(expr);
            let text = functions::known_text(&node)?.to_string();
            // Where the text was written: the `file()` that reads it, through the functions
            // that changed it.
            let at = node
                .scalar()
                .map_or_else(|| self.span(expr), |scalar| scalar.span.clone());
            return Some(match yaml::parse(&text) {
                Ok(mut documents) => {
                    documents
                        .iter_mut()
                        .for_each(|document| place_at(document, &at));
                    Ok(documents)
                }
                Err(error) => Err(format!("the YAML it works out is not read: {error}")),
            });
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

    /// The names each instance of a resource binds: one instance binding nothing without
    /// `for_each` or `count`; one per item of a known `for_each` map or set (`each.key`,
    /// `each.value`: a set's item is both) or per `count.index` of a known `count`. `Err` with
    /// why when Terraform works out how many there are.
    fn instances(
        &mut self,
        resource: &str,
        block: &hcl_edit::structure::Block,
    ) -> Result<Vec<Vec<(String, Node)>>, String> {
        let at = block.labels.get(1).map_or(0..0, label_span);
        if let Some(for_each) = block.body.get_attribute("for_each") {
            let node = self.expr(&for_each.value);
            let collection = !matches!(node, Node::Scalar(_));
            let items: Vec<(Node, Node)> = match node {
                Node::Map(entries) => entries,
                // A set of strings: each item is its key and its value.
                Node::Seq(items) => items.into_iter().map(|item| (item.clone(), item)).collect(),
                Node::Scalar(_) => Vec::new(),
            };
            let known = collection
                && items
                    .iter()
                    .all(|(key, _)| functions::known_text(key).is_some());
            if !known {
                return Err(format!(
                    "`for_each` makes {resource} once per item of what Terraform works out"
                ));
            }
            return Ok(items
                .into_iter()
                .map(|(key, value)| {
                    let key_name =
                        self.scalar("key".into(), Style::Plain, at.clone(), false, at.clone());
                    let value_name =
                        self.scalar("value".into(), Style::Plain, at.clone(), false, at.clone());
                    vec![(
                        "each".to_string(),
                        Node::Map(vec![(key_name, key), (value_name, value)]),
                    )]
                })
                .collect());
        }
        let Some(count) = block.body.get_attribute("count") else {
            return Ok(vec![Vec::new()]);
        };
        let node = self.expr(&count.value);
        let count_at = self.span(&count.value);
        let times = match functions::known_text(&node).map(str::parse::<usize>) {
            // Each instance is a resource of its own; a count past this many is not a
            // configuration written by hand.
            Some(Ok(times)) if times <= 64 => times,
            // `count = var.enabled ? 1 : 0`: the object is created or not; read as created,
            // as its author means it to run.
            _ if matches!(count.value, Expression::Conditional(_)) => 1,
            _ => {
                return Err(format!(
                    "`count` makes {resource} a number of times Terraform works out"
                ));
            }
        };
        Ok((0..times)
            .map(|index| {
                let name = self.scalar("index".into(), Style::Plain, at.clone(), false, at.clone());
                let value = self.scalar(
                    index.to_string(),
                    Style::Plain,
                    count_at.clone(),
                    false,
                    count_at.clone(),
                );
                vec![("count".to_string(), Node::Map(vec![(name, value)]))]
            })
            .collect())
    }

    /// The topic attributes of each instance of a topic resource, evaluated; `Err` with why
    /// when Terraform works out how many instances there are.
    fn topic_resource(
        &mut self,
        resource_type: &str,
        name: &str,
        block: &hcl_edit::structure::Block,
    ) -> Result<TopicResource, String> {
        let label = format!("{resource_type}.{name}");
        let instances = self
            .instances(&label, block)
            .map_err(|why| format!("{why}; its topics are not read"))?;
        let outer = self.bindings.len();
        let mut read = Vec::new();
        for instance in instances {
            self.bindings.truncate(outer);
            self.bindings.extend(instance);
            let mut attributes = Vec::new();
            for attribute in block.body.attributes() {
                let key = attribute.key.value().as_str();
                if !TOPIC_ATTRIBUTES.contains(&key) {
                    continue;
                }
                let at = attribute.key.span().unwrap_or(0..0);
                let key = self.scalar(key.to_string(), Style::Plain, at.clone(), true, at);
                attributes.push((key, self.expr(&attribute.value)));
            }
            read.push(Node::Map(attributes));
        }
        self.bindings.truncate(outer);
        Ok(TopicResource {
            resource_type: resource_type.to_string(),
            label,
            anchor: block.labels.get(1).map_or(0..0, label_span),
            instances: read,
        })
    }

    /// The Kubernetes objects a resource applies (a `kubernetes_manifest`'s `manifest`, a
    /// `kubectl_manifest`'s `yaml_body`, the object a `kubernetes_stateful_set` or the like
    /// creates), one for each of its instances; `Err` with why when they are not read.
    fn resource_documents(
        &mut self,
        resource_type: &str,
        name: &str,
        block: &hcl_edit::structure::Block,
    ) -> Result<Vec<Node>, String> {
        let instances = self
            .instances(&format!("{resource_type}.{name}"), block)
            .map_err(|why| format!("{why}; not read"))?;
        let mut documents = Vec::new();
        let outer = self.bindings.len();
        let mut outcome = Ok(());
        for instance in instances {
            self.bindings.truncate(outer);
            self.bindings.extend(instance);
            outcome = self.instance_documents(resource_type, block, &mut documents);
            if outcome.is_err() {
                break;
            }
        }
        self.bindings.truncate(outer);
        outcome.map(|()| documents)
    }

    /// [`Eval::resource_documents`] of one instance, its names bound.
    fn instance_documents(
        &mut self,
        resource_type: &str,
        block: &hcl_edit::structure::Block,
        documents: &mut Vec<Node>,
    ) -> Result<(), String> {
        match resource_type {
            "kubernetes_manifest" => {
                let Some(manifest) = block.body.get_attribute("manifest") else {
                    return Ok(());
                };
                let document = self.document(&manifest.value).ok_or(
                    "its manifest is worked out when Terraform runs; not read".to_string(),
                )?;
                documents.push(document);
            }
            "kubectl_manifest" => {
                let Some(body) = block.body.get_attribute("yaml_body") else {
                    return Ok(());
                };
                match self.yaml_text(&body.value) {
                    Some(read) => documents.extend(read?),
                    // `yamlencode(each.value)`: the object itself.
                    None => match self.expr(&body.value) {
                        document @ Node::Map(_) => documents.push(document),
                        _ => {
                            return Err(
                                "its yaml_body is worked out when Terraform runs; not read".into(),
                            );
                        }
                    },
                }
            }
            _ => {
                let document = self
                    .provider_object(resource_type, block)
                    .map_err(|why| format!("{why}; not read"))?;
                documents.extend(document);
            }
        }
        Ok(())
    }

    /// The Kubernetes object a `kubernetes_stateful_set`/`kubernetes_config_map` (or `_v1`)
    /// resource creates (one instance of it, its names bound), `Err` with why when it is not
    /// read.
    fn provider_object(
        &mut self,
        resource_type: &str,
        block: &hcl_edit::structure::Block,
    ) -> Result<Option<Node>, String> {
        let Some((api_version, kind)) = provider::kind_of(resource_type) else {
            return Ok(None);
        };
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

/// `kubectl_file_documents`' `manifests`: each document keyed by the link the kubectl
/// provider makes of it (gavinbunney/terraform-provider-kubectl v1.14.0
/// `kubernetes/data_source_kubectl_file_documents.go` keys each by `generateSelfLink`:
/// `/api` for `v1` else `/apis`, `/<apiVersion>`, `/namespaces/<namespace>` when it has one,
/// `/<kind lowercased>s` (`es` after an `s`), `/<name>`); `None` when a document is not YAML
/// or two share a link (the provider refuses them).
fn manifests_by_link(documents: Node) -> Option<Node> {
    let mut manifests: Vec<(Node, Node)> = Vec::new();
    for document in documents.items() {
        let text = functions::known_text(document)?;
        let [object] = <[Node; 1]>::try_from(yaml::parse(text).ok()?).ok()?;
        let field = |path: &[&str]| object.at(path).and_then(Node::text).unwrap_or_default();
        let api_version = field(&["apiVersion"]);
        let mut link = String::from(if api_version == "v1" { "/api" } else { "/apis" });
        for (prefix, value) in [
            ("/", api_version.to_string()),
            (
                "/namespaces/",
                field(&["metadata", "namespace"]).to_string(),
            ),
        ] {
            if !value.is_empty() {
                link.push_str(prefix);
                link.push_str(&value);
            }
        }
        let kind = field(&["kind"]);
        if !kind.is_empty() {
            let suffix = if kind.ends_with('s') { "es" } else { "s" };
            link.push_str(&format!("/{}{suffix}", kind.to_lowercase()));
        }
        let name = field(&["metadata", "name"]);
        if !name.is_empty() {
            link.push_str(&format!("/{name}"));
        }
        if manifests
            .iter()
            .any(|(seen, _)| seen.text() == Some(link.as_str()))
        {
            return None;
        }
        let mut key = document.clone();
        if let Node::Scalar(scalar) = &mut key {
            scalar.value = link;
        }
        manifests.push((key, document.clone()));
    }
    Some(Node::Map(manifests))
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
    fn a_chain_of_calls_gives_each_module_what_the_call_before_it_gives() {
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
        assert_eq!(replicas, Some("7"));
        assert_eq!(
            reads[0].scope.as_deref(),
            Some("envs/prod: module.platform: module.kafka")
        );
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

    #[test]
    fn for_each_and_count_make_one_object_per_instance() {
        let text = r#"locals {
  pools = {
    a = { replicas = 3 }
    b = { replicas = 2 }
  }
}
resource "kubernetes_manifest" "pool" {
  for_each = local.pools
  manifest = {
    kind = "KafkaNodePool"
    metadata = { name = each.key }
    spec = { replicas = each.value.replicas }
  }
}
resource "kubectl_manifest" "topic" {
  count     = 2
  yaml_body = <<YAML
kind: KafkaTopic
metadata:
  name: topic-${count.index}
YAML
}
resource "kubectl_manifest" "set" {
  for_each  = toset(["x", "y"])
  yaml_body = yamlencode({ kind = "KafkaTopic", metadata = { name = upper(each.value) } })
}
"#;
        let (read, notes) = read_text(text);
        assert!(notes.is_empty(), "{notes:?}");
        let names: Vec<&str> = read
            .documents
            .iter()
            .filter_map(|document| document.at(&["metadata", "name"])?.text())
            .collect();
        assert_eq!(names, ["a", "b", "topic-0", "topic-1", "X", "Y"]);
        assert_eq!(
            read.documents[1]
                .at(&["spec", "replicas"])
                .and_then(Node::text),
            Some("2")
        );
    }

    #[test]
    fn what_terraform_works_out_stays_unknown() {
        let text = r#"resource "kubectl_manifest" "each" {
  for_each  = var.pools
  yaml_body = yamlencode(each.value)
}
resource "kubectl_manifest" "count" {
  count     = var.n
  yaml_body = "kind: Kafka"
}
resource "kubernetes_manifest" "kafka" {
  manifest = {
    kind = "Kafka"
    spec = {
      kafka = {
        replicas = tonumber(replace(var.unknown, "a", "b"))
        version  = coalesce(var.version, "3.9.0")
        config   = { "offsets.topic.replication.factor" = format("%d", var.factor) }
      }
    }
  }
}
"#;
        let (read, notes) = read_text(text);
        assert!(
            notes[0].contains("`for_each` makes kubectl_manifest.each once per item"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains("`count` makes kubectl_manifest.count a number of times"),
            "{notes:?}"
        );
        let kafka = read.documents[0].at(&["spec", "kafka"]).unwrap();
        for key in ["replicas", "version"] {
            assert!(
                kafka.get(key).and_then(Node::text).unwrap().contains("${"),
                "{key}"
            );
        }
        let factor = kafka
            .at(&["config", "offsets.topic.replication.factor"])
            .and_then(Node::text)
            .unwrap();
        assert!(factor.contains("${"));
    }

    #[test]
    fn replace_of_a_file_is_the_text_terraform_renders() {
        let dir = std::env::temp_dir().join(format!("kafkalint-tf-replace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("kafka.yaml"),
            "kind: Kafka\nspec:\n  kafka:\n    replicas: {{N}}\n---\nkind: KafkaNodePool\n",
        )
        .unwrap();
        let text = r#"data "kubectl_file_documents" "docs" {
  content = replace(file("kafka.yaml"), "{{N}}", format("%d", 3))
}
resource "kubectl_manifest" "docs" {
  for_each  = { for document in data.kubectl_file_documents.docs.documents : yamldecode(document).kind => document }
  yaml_body = each.value
}
"#;
        let path = dir.join("main.tf");
        let mut notes = Vec::new();
        let read = read(path.to_str().unwrap(), text, &mut notes).unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(read.documents.len(), 2);
        let replicas = read.documents[0]
            .at(&["spec", "kafka", "replicas"])
            .unwrap();
        assert_eq!(replicas.text(), Some("3"));
        // Placed at the file() that reads it.
        let span = replicas.scalar().unwrap().span.clone();
        assert_eq!(&text[span], "file(\"kafka.yaml\")");
    }

    #[test]
    fn an_object_variable_is_read_attribute_by_attribute() {
        let tree = Tree::new(
            "kafkalint-terraform-object-variable",
            &[
                (".git/HEAD", ""),
                (
                    "modules/kafka/variables.tf",
                    "variable \"kafka\" {\n  default = {\n    brokers = 1\n    config  = { \"offsets.topic.replication.factor\" = 1 }\n  }\n}\n",
                ),
                (
                    "envs/prod/main.tf",
                    "module \"kafka\" {\n  source = \"../../modules/kafka\"\n  kafka  = { brokers = 3, config = { \"offsets.topic.replication.factor\" = 1 } }\n}\n",
                ),
            ],
        );
        let text = "resource \"kubernetes_manifest\" \"kafka\" {\n  manifest = {\n    kind = \"Kafka\"\n    spec = { kafka = { replicas = var.kafka.brokers, config = var.kafka[\"config\"] } }\n  }\n}\n";
        let path = tree.0.join("modules/kafka/main.tf");
        let (mut notes, mut info) = (Vec::new(), Vec::new());
        let reads = read_all(
            path.to_str().unwrap(),
            text,
            &mut notes,
            &mut info,
            &mut Folders::default(),
        )
        .unwrap();
        let kafka = reads[0].documents[0].at(&["spec", "kafka"]).unwrap();
        let replicas = kafka.get("replicas").unwrap().scalar().unwrap();
        assert_eq!(replicas.value, "3");
        assert_eq!(&text[replicas.span.clone()], "var.kafka.brokers");
        assert_eq!(
            kafka
                .at(&["config", "offsets.topic.replication.factor"])
                .and_then(Node::text),
            Some("1")
        );
    }

    #[test]
    fn kubectl_file_documents_manifests_are_keyed_as_the_provider_keys_them() {
        let documents = Node::Seq(
            [
                "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: k\n  namespace: ns",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c",
                "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata:\n  name: p",
            ]
            .iter()
            .map(|text| {
                Node::Scalar(Scalar::written_elsewhere(
                    text.to_string(),
                    Style::Plain,
                    0..0,
                    false,
                    0..0,
                ))
            })
            .collect(),
        );
        let manifests = manifests_by_link(documents).unwrap();
        let keys: Vec<&str> = manifests
            .entries()
            .iter()
            .filter_map(|(key, _)| key.text())
            .collect();
        assert_eq!(
            keys,
            [
                "/apis/kafka.strimzi.io/v1beta2/namespaces/ns/kafkas/k",
                "/api/v1/configmaps/c",
                "/apis/kafka.strimzi.io/v1beta2/kafkanodepools/p",
            ]
        );
    }
}
