//! docker-compose files: each service running a Kafka image kafkalint knows is a node, its
//! settings those the image writes for its `environment` and `env_file` (see
//! [`crate::sources::images`]), with the project's `.env` interpolated as Compose does (see
//! [`crate::sources::compose::dotenv`]).

pub mod dotenv;
pub mod mounts;

use std::path::{Path, PathBuf};

use crate::properties::{Provenance, Span};
use crate::sources::container::{self, Container, EnvVar, edit_of, hosts};
use crate::sources::images::components::{self, ComponentImage};
use crate::sources::images::{self, Var};
use crate::sources::yaml::{Node, Scalar};
use crate::sources::{Edit, NodeSpec, Orchestrator, Runtime};
use dotenv::{Found, Vars};

/// The Compose project of a compose file: its folder, where env files are found, and the
/// variables of the folder's `.env`, which interpolate the file.
#[derive(Debug, Default)]
pub struct Project {
    /// `None` when the file is not read from a folder: no env file is read.
    folder: Option<PathBuf>,
    env: Vars,
    /// `.env` exists but Compose refuses it (it then refuses the project): every variable is
    /// unknown.
    env_refused: bool,
    /// `.env` as read, and the line Compose refuses it at, when its syntax is what Compose
    /// refuses (not a file it cannot read): reported as `invalid-syntax`.
    env_syntax_error: Option<(PathBuf, Vec<u8>, dotenv::ParseError)>,
    /// A value of the compose file nests `${...}` defaults deeper than kafkalint follows
    /// ([`dotenv::MAX_NESTING`]): it was left unknown.
    nesting_too_deep: std::cell::Cell<bool>,
    /// `[images]` of kafkalint.toml: the team's own images, read as the known ones they name.
    images: images::Aliases,
}

impl Project {
    /// The project of the compose file at `path` (its folder), with the folder's `.env` read.
    /// Notes say when `.env` cannot be read.
    pub fn of_file(path: &str, notes: &mut Vec<String>) -> Project {
        let folder = match Path::new(path).parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut project = Project {
            folder: Some(folder),
            ..Project::default()
        };
        let dotenv = project.path_of(".env").expect("a folder is set");
        if !dotenv.is_file() {
            return project;
        }
        let mut syntax_error = None;
        let read = crate::source::read_file(&dotenv)
            .map_err(|error| error.to_string())
            .and_then(|bytes| String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string()))
            .and_then(|text| {
                // Compose reads `.env` with the shell's variables only, which are not seen.
                dotenv::parse(&text, &mut project.env, &|_| None).map_err(|error| {
                    syntax_error = Some((text.into_bytes(), error.clone()));
                    error.to_string()
                })
            });
        project.env_syntax_error =
            syntax_error.map(|(bytes, error)| (dotenv.clone(), bytes, error));
        if let Ok(assignments) = &read {
            notes.extend(too_deep_notes("its project's .env", assignments));
        }
        if let Err(why) = read {
            notes.push(format!(
                "its project's .env cannot be read as Compose reads it ({why}); the variables it would set are unknown"
            ));
            project.env_refused = true;
        }
        project
    }

    /// The project of a compose file written on a machine kafkalint does not see (an Ansible
    /// role's template): no env file is read, and every `${...}` variable is unknown.
    pub fn on_remote_host() -> Project {
        Project {
            env_refused: true,
            ..Project::default()
        }
    }

    /// The project's `.env` when Compose refuses its syntax: its path, its bytes, and where
    /// and why (the line, never the line's text).
    pub fn env_syntax_error(&self) -> Option<(&Path, &[u8], &dotenv::ParseError)> {
        let (path, bytes, error) = self.env_syntax_error.as_ref()?;
        Some((path.as_path(), bytes.as_slice(), error))
    }

    fn path_of(&self, relative: &str) -> Option<PathBuf> {
        self.folder.as_ref().map(|folder| folder.join(relative))
    }

    fn lookup(&self, name: &str) -> Found {
        if self.env_refused {
            return Some(None);
        }
        self.env.get(name).cloned()
    }

    /// The project, with the team's own images of `[images]` read as the known ones they name.
    pub fn with_images(self, images: images::Aliases) -> Project {
        Project { images, ..self }
    }

    /// Compose's interpolation of a value with the project's variables (see
    /// [`dotenv::substitute`]): the value, `None` when not known, and whether a variable of
    /// `.env` went into it.
    fn interpolate_traced(&self, raw: &str) -> (Option<String>, bool) {
        let used = std::cell::Cell::new(false);
        let interpolated = dotenv::interpolate(raw, &|name| {
            let found = self.lookup(name);
            used.set(used.get() || found.is_some());
            found
        });
        let value = match interpolated {
            Ok(interpolated) => {
                if interpolated.too_deep {
                    self.nesting_too_deep.set(true);
                }
                interpolated.value
            }
            Err(dotenv::InvalidTemplate) => None,
        };
        (value, used.get())
    }

    /// Whether a value was left unknown for nesting `${...}` deeper than kafkalint follows.
    pub fn nesting_too_deep(&self) -> bool {
        self.nesting_too_deep.get()
    }

    /// Compose's interpolation of a value with the project's variables.
    pub fn interpolate(&self, raw: &str) -> Option<String> {
        self.interpolate_traced(raw).0
    }
}

/// A note for each variable of an env file whose value nests `${...}` defaults deeper than
/// kafkalint follows (its line; never the variable's name or value, which may be a secret).
fn too_deep_notes(file: &str, assignments: &[dotenv::Assignment]) -> Vec<String> {
    assignments
        .iter()
        .filter(|assignment| assignment.nesting_too_deep)
        .map(|assignment| {
            format!(
                "{file}, line {}: `${{...}}` defaults nested deeper than {} levels, which kafkalint does not follow; the variable set there is unknown",
                assignment.line,
                dotenv::MAX_NESTING
            )
        })
        .collect()
}

/// Reads the services of a compose file (its first document): the broker nodes, then the
/// Connect and Schema Registry services that talk to them (see [`crate::sources::images::components`]).
/// Returns them with notes on what was passed over.
pub fn read(document: &Node, project: &Project, notes: &mut Vec<String>) -> Vec<NodeSpec> {
    let Some(services) = document.get("services") else {
        return Vec::new();
    };
    let mut nodes = Vec::new();
    // Names the brokers answer to on the compose network, to tell which brokers a component
    // talks to.
    let mut broker_hosts: Vec<String> = Vec::new();
    let mut components: Vec<(String, ComponentImage, NodeSpec)> = Vec::new();
    for (key, service) in services.entries() {
        let Some(name) = key.text() else { continue };
        let declared_at = key.scalar().map_or(0..0, |key| key.span.clone());
        let Some(image_node) = service.get("image").and_then(Node::scalar) else {
            // A service built from a Dockerfile runs an image no reader knows: said when it
            // is a Kafka node, never passed over in silence.
            if let Some(context) = build_context(service)
                && let Some(note) = super::unknown_image::note(
                    &format!("service `{name}`"),
                    &format!("built from {context}"),
                    &super::unknown_image::compose_variables(service),
                    &volume_targets(service),
                )
            {
                notes.push(note);
            }
            continue;
        };
        // A tag set from the environment leaves the image known and its release not.
        let (image_text, tag_known) = match project.interpolate(&image_node.value) {
            Some(text) => (text, true),
            None => match images::repository(&image_node.value) {
                (repository, Some(_)) if !repository.contains('$') => (repository, false),
                _ => {
                    notes.push(format!(
                        "service `{name}`: its image `{}` is set from the environment; not read",
                        image_node.value
                    ));
                    continue;
                }
            },
        };
        // A team's own image, read as the known image `[images]` names for it.
        let (image_text, tag_known) = match project.images.resolve(&image_text) {
            Some(known) => (known.to_string(), true),
            None => (image_text, tag_known),
        };
        if let Some(component) = components::classify(&image_text) {
            if let Some(mut spec) =
                read_component(name, service, image_node, component, project, notes)
            {
                spec.declared_at = declared_at;
                components.push((name.to_string(), component, spec));
            }
            continue;
        }
        let Some(image) = images::classify(&image_text) else {
            let variables = super::unknown_image::compose_variables(service);
            let label = format!("service `{name}`");
            let mounts = volume_targets(service);
            if let Some(note) = super::unknown_image::note(&label, &image_text, &variables, &mounts)
            {
                notes.push(note);
            }
            continue;
        };
        let label = format!("service `{name}`");
        let runtime = Runtime::Container {
            image: image_text.clone(),
            orchestrator: Orchestrator::Compose,
            host_network: host_network(service),
            volumes: volume_targets(service),
        };
        if let Runtime::Container { volumes, .. } = &runtime
            && let Some(note) = container::mounted_config_note(&label, volumes, image)
        {
            notes.push(note);
            continue;
        }
        let Environment {
            vars: mut env,
            unread_env_file,
        } = environment(service, name, project, notes);
        let script = start_script(service, image, project, &env);
        if let Some(script) = &script {
            env.retain(|var| !script.unsets.contains(&var.var.name));
            for (name, value) in &script.sets {
                env.retain(|var| var.var.name != *name);
                env.push(EnvVar {
                    var: Var {
                        name: name.clone(),
                        value: value.clone(),
                    },
                    name_span: script.span.clone(),
                    value_span: script.span.clone(),
                    edit: None,
                    provenance: Provenance::Written,
                });
            }
        }
        let container = Container {
            label: label.clone(),
            image,
            image_node,
            image_text,
            tag_known,
            env,
            env_unread: unread_env_file,
            unread_source: "an env_file",
            // A script that ends in the image's own start-up, with nothing before it that may
            // edit the image's scripts, runs its checks too.
            own_command: (service.get("command").is_some() || service.get("entrypoint").is_some())
                && !script.as_ref().is_some_and(|script| script.as_shipped),
            links: Vec::new(),
            runtime,
        };
        let Some(spec) = container::broker(&container, None, notes) else {
            continue;
        };
        broker_hosts.extend(network_names(name, service, project));
        broker_hosts.extend(
            spec.entries
                .iter()
                .filter(|entry| entry.key == "advertised.listeners")
                .flat_map(|entry| hosts(&entry.value)),
        );
        let (count, count_known) = replicas(service, project);
        for replica in 0..count {
            nodes.push(NodeSpec {
                id: format!("service {name} {replica}"),
                declared_at: declared_at.clone(),
                label: if count > 1 {
                    format!("{label} (one of {count} replicas)")
                } else {
                    label.clone()
                },
                count_known,
                ..spec.clone()
            });
        }
    }
    for (name, image, spec) in components {
        let what = image.kind().name();
        if nodes.is_empty() {
            notes.push(format!(
                "service `{name}`: a {what}, but the file runs no broker kafkalint reads; its topics are not checked"
            ));
            continue;
        }
        // A component that names no broker of this file talks to another cluster.
        let bootstrap = spec
            .entries
            .iter()
            .rev()
            .find(|entry| entry.key == image.bootstrap_key());
        if let Some(bootstrap) = bootstrap
            && !bootstrap.value.contains("${")
        {
            let named = hosts(&bootstrap.value);
            if !named.is_empty() && !named.iter().any(|host| broker_hosts.contains(host)) {
                notes.push(format!(
                    "service `{name}`: a {what} whose {} `{}` names no broker service of this file; its topics are not checked",
                    image.bootstrap_key(),
                    bootstrap.value.trim()
                ));
                continue;
            }
        }
        nodes.push(spec);
    }
    nodes
}

/// A Connect or Schema Registry service as a component of the file's cluster: one for the
/// service, however many replicas it runs (they share their topics). `None` when what it
/// would write is not known.
/// What a service's start-up script (`command: sh -c "..."`) that ends by running the image's
/// own start-up gives that start-up: the variables it exports and those written before the
/// start-up on its command line, in order, with where the script is.
struct StartScript {
    sets: Vec<(String, Option<String>)>,
    /// Variables of the service's environment the script unsets before the start-up.
    unsets: Vec<String>,
    span: Span,
    /// Nothing runs before the start-up that may change the image's scripts: their checks run
    /// as shipped.
    as_shipped: bool,
}

/// The service's start-up script, when it is a shell's `-c` script that kafkalint follows whole
/// and that ends by running the image's start-up (`exec /etc/confluent/docker/run`); `None`
/// otherwise (then the service runs a command of its own). Compose runs `entrypoint` followed
/// by `command`, each interpolated (`$$` is a `$`) and, when written as a string, split into
/// words as a shell splits them (compose-go `loader/loader.go`, `shellwords`). The images read
/// here have no `ENTRYPOINT` of their own, so `command` alone is the whole command line: their
/// start-up is their `CMD` (kafka-images kafka/Dockerfile.ubi8 `CMD ["/etc/confluent/docker/
/// run"]`, apache/kafka docker/jvm/Dockerfile `CMD ["/etc/kafka/docker/run"]`, kafka-docker
/// Dockerfile `CMD ["start-kafka.sh"]`). bitnami/kafka's `ENTRYPOINT` runs its setup with the
/// container's environment before any command (bitnami/containers bitnami/kafka/*/rootfs/opt/
/// bitnami/scripts/kafka/entrypoint.sh), which a script's exports never reach: not read.
fn start_script(
    service: &Node,
    image: images::Image,
    project: &Project,
    env: &[EnvVar],
) -> Option<StartScript> {
    if image == images::Image::Bitnami {
        return None;
    }
    let mut words: Vec<(String, &Scalar)> = Vec::new();
    for key in ["entrypoint", "command"] {
        let Some(node) = service.get(key) else {
            continue;
        };
        match node.scalar() {
            Some(scalar) => {
                let text = project.interpolate(&scalar.value)?;
                words.extend(
                    crate::sources::kubernetes::shell::split_command(&text)?
                        .into_iter()
                        .map(|word| (word, scalar)),
                );
            }
            None => {
                for item in node.items() {
                    let scalar = item.scalar()?;
                    words.push((project.interpolate(&scalar.value)?, scalar));
                }
            }
        }
    }
    let texts: Vec<&str> = words.iter().map(|(word, _)| word.as_str()).collect();
    let at = crate::sources::kubernetes::shell::script_word(&texts)?;
    let (script, scalar) = &words[at];
    // The container's host name is its `hostname:`, else one Docker makes up.
    let hostname = service
        .get("hostname")
        .and_then(Node::text)
        .and_then(|text| project.interpolate(text));
    let lookup = |name: &str| {
        if name == "HOSTNAME" {
            return Some(hostname.clone());
        }
        env.iter()
            .rev()
            .find(|var| var.var.name == name)
            .map(|var| var.var.value.clone())
    };
    let outcome = crate::sources::kubernetes::shell::run(script, &lookup);
    if !outcome.runs_image() || outcome.nested_too_deep {
        return None;
    }
    let as_shipped = outcome.runs_image_as_shipped();
    let unsets = outcome.unsets;
    let mut sets = outcome.exports;
    for (name, value) in outcome.command_environment {
        sets.retain(|(set, _)| *set != name);
        sets.push((name, value));
    }
    Some(StartScript {
        sets,
        unsets,
        span: scalar.span.clone(),
        as_shipped,
    })
}

fn read_component(
    name: &str,
    service: &Node,
    image_node: &Scalar,
    image: ComponentImage,
    project: &Project,
    notes: &mut Vec<String>,
) -> Option<NodeSpec> {
    if let Some(mounted) = volume_targets(service)
        .into_iter()
        .find(|target| components::replaces_base_file(image, target))
    {
        notes.push(format!(
            "service `{name}`: its {} configuration starts from the mounted `{mounted}`; not read from the environment (check that file)",
            image.kind().name()
        ));
        return None;
    }
    let Environment {
        vars: env,
        unread_env_file,
    } = environment(service, name, project, notes);
    let mut spec = container::component(
        image,
        image_node,
        &env,
        unread_env_file,
        Runtime::Container {
            image: image_node.value.clone(),
            orchestrator: Orchestrator::Compose,
            host_network: host_network(service),
            volumes: volume_targets(service),
        },
    );
    spec.id = format!("service {name}");
    spec.label = format!("service `{name}`");
    Some(spec)
}

/// The names a service answers to on its compose networks: its service name, `hostname`,
/// `container_name` and network `aliases`, lower case.
fn network_names(name: &str, service: &Node, project: &Project) -> Vec<String> {
    let mut names = vec![name.to_string()];
    for key in ["hostname", "container_name"] {
        names.extend(
            service
                .get(key)
                .and_then(Node::text)
                .and_then(|text| project.interpolate(text))
                .map(|text| text.trim().to_string()),
        );
    }
    if let Some(Node::Map(networks)) = service.get("networks") {
        for (_, network) in networks {
            if let Some(aliases) = network.get("aliases") {
                names.extend(
                    aliases
                        .items()
                        .iter()
                        .filter_map(Node::text)
                        .map(str::to_string),
                );
            }
        }
    }
    names.iter().map(|name| name.to_ascii_lowercase()).collect()
}

/// `network_mode: host`: the container shares the network of the machine it runs on (its ports
/// are the machine's, and `localhost` is the machine).
fn host_network(service: &Node) -> bool {
    service
        .get("network_mode")
        .and_then(Node::text)
        .is_some_and(|mode| mode.trim() == "host")
}

/// How many containers the service runs: `deploy.replicas`, else `scale`, else 1; with
/// `deploy.mode: global`, one per swarm node: unknown (counted as one).
fn replicas(service: &Node, project: &Project) -> (usize, bool) {
    let deploy = service.get("deploy");
    if deploy
        .and_then(|deploy| deploy.get("mode"))
        .and_then(Node::text)
        .is_some_and(|mode| mode == "global")
    {
        return (1, false);
    }
    let count = deploy
        .and_then(|deploy| deploy.get("replicas"))
        .or_else(|| service.get("scale"))
        .and_then(Node::text)
        .and_then(|text| project.interpolate(text))
        .map(|count| count.trim().parse::<usize>());
    match count {
        None => (1, true),
        // More containers than a file can stand for one by one: unknown.
        Some(Ok(count)) if count <= 1000 => (count, true),
        Some(_) => (1, false),
    }
}

/// Where the service's `volumes` are mounted in the container, without a trailing `/`.
fn volume_targets(service: &Node) -> Vec<String> {
    let Some(volumes) = service.get("volumes") else {
        return Vec::new();
    };
    volumes
        .items()
        .iter()
        .filter_map(|volume| {
            let target = match volume {
                Node::Scalar(scalar) => {
                    let mut parts = scalar.value.split(':');
                    let first = parts.next()?;
                    parts.next().unwrap_or(first).to_string()
                }
                Node::Map(_) => volume.get("target")?.text()?.to_string(),
                Node::Seq(_) => return None,
            };
            Some(target.trim_end_matches('/').to_string())
        })
        .collect()
}

/// The build context of a service built from a Dockerfile (`build: ./kafka`, or
/// `build: {context: ./kafka}`).
fn build_context(service: &Node) -> Option<String> {
    let build = service.get("build")?;
    let context = build.text().or_else(|| build.get("context")?.text())?;
    Some(context.to_string())
}

/// A service's environment as Compose gives it to the container.
struct Environment {
    vars: Vec<EnvVar>,
    /// An env_file that is missing, outside the project's folder, or refused by Compose: the
    /// variables it would set are unknown.
    unread_env_file: bool,
}

/// The service's environment: its `env_file` files read in order (a later file overrides an
/// earlier one), then its `environment`, which overrides them (compose-go's
/// `resolveEnvironment`).
fn environment(
    service: &Node,
    service_name: &str,
    project: &Project,
    notes: &mut Vec<String>,
) -> Environment {
    let explicit = written_environment(service, service_name, project, notes);
    let Some(files) = service.get("env_file") else {
        return Environment {
            vars: explicit,
            unread_env_file: false,
        };
    };
    let explicit_values: Vars = explicit
        .iter()
        .map(|var| (var.var.name.clone(), var.var.value.clone()))
        .collect();
    // An env file's `${...}` looks in the project's variables, then the service's environment,
    // then what env files set before.
    let lookup = |name: &str| {
        project
            .lookup(name)
            .or_else(|| explicit_values.get(name).cloned())
    };
    let mut values = explicit_values.clone();
    // Each variable an env file sets, in the order first set, with the entry that set it last.
    let mut set_by: Vec<(String, Span)> = Vec::new();
    let mut unread = false;
    for file in env_file_entries(files) {
        // Notes name the file as written: the path after interpolation may hold a value of
        // `.env`.
        let written = &file.path.value;
        if let Some(format) = file.other_format {
            notes.push(format!(
                "service `{service_name}`: its env_file `{written}` has format `{format}`, which kafkalint does not read; the variables it sets are unknown"
            ));
            unread = true;
            continue;
        }
        let Some(path) = project.interpolate(written) else {
            notes.push(format!(
                "service `{service_name}`: its env_file `{written}` is named from the environment; the variables it sets are unknown"
            ));
            unread = true;
            continue;
        };
        let text = match read_env_file(project, &path) {
            Ok(text) => text,
            Err(why) => {
                let skipped = if file.optional && why == MISSING {
                    " (Compose skips it: `required: false`)"
                } else {
                    ""
                };
                notes.push(format!(
                    "service `{service_name}`: its env_file `{written}` {why}{skipped}; the variables it sets are unknown"
                ));
                unread = true;
                continue;
            }
        };
        match dotenv::parse(&text, &mut values, &lookup) {
            Ok(assignments) => {
                notes.extend(too_deep_notes(
                    &format!("service `{service_name}`: its env_file `{written}`"),
                    &assignments,
                ));
                for assignment in assignments {
                    match set_by.iter_mut().find(|(name, _)| *name == assignment.name) {
                        Some((_, span)) => *span = file.path.span.clone(),
                        None => set_by.push((assignment.name, file.path.span.clone())),
                    }
                }
            }
            Err(error) => {
                notes.push(format!(
                    "service `{service_name}`: its env_file `{written}` cannot be read as Compose reads it ({error}); the variables it sets are unknown"
                ));
                unread = true;
            }
        }
    }
    let mut vars: Vec<EnvVar> = set_by
        .into_iter()
        .filter(|(name, _)| !explicit.iter().any(|var| var.var.name == *name))
        .map(|(name, span)| EnvVar {
            var: Var {
                value: values.get(&name).cloned().flatten(),
                name,
            },
            name_span: span.clone(),
            value_span: span,
            edit: None,
            provenance: Provenance::EnvFile,
        })
        .collect();
    vars.extend(explicit);
    Environment {
        vars,
        unread_env_file: unread,
    }
}

/// One file of a service's `env_file`.
struct EnvFileEntry<'a> {
    path: &'a Scalar,
    /// `required: false`: Compose skips the file when it is missing.
    optional: bool,
    /// A `format` other than the dotenv one (the docker CLI's `raw`): not read.
    other_format: Option<&'a str>,
}

/// `env_file: a.env`, `env_file: [a.env, ...]`, or items `{path: a.env, required: false}`.
fn env_file_entries(files: &Node) -> Vec<EnvFileEntry<'_>> {
    let items: Vec<&Node> = match files {
        Node::Scalar(_) | Node::Map(_) => vec![files],
        Node::Seq(items) => items.iter().collect(),
    };
    items
        .into_iter()
        .filter_map(|item| {
            let path = match item {
                Node::Scalar(path) => path,
                Node::Map(_) => item.get("path").and_then(Node::scalar)?,
                Node::Seq(_) => return None,
            };
            let text = |key: &str| item.get(key).and_then(Node::text);
            (!path.is_null()).then(|| EnvFileEntry {
                path,
                optional: text("required").is_some_and(|required| required.trim() == "false"),
                other_format: text("format")
                    .filter(|format| !format.is_empty() && *format != ".env"),
            })
        })
        .collect()
}

/// Why an env file is not read: it is not there.
const MISSING: &str = "is missing";

/// The text of an env file named relative to the project's folder, or why it is not read: it
/// is not there, it leads out of the folder (a compose file must not make kafkalint read what
/// lies elsewhere on the machine), or it is not text.
fn read_env_file(project: &Project, path: &str) -> Result<String, &'static str> {
    let folder = project.folder.as_ref().ok_or("is not read here")?;
    let file = folder.join(path);
    if !file.exists() {
        return Err(MISSING);
    }
    let inside = std::fs::canonicalize(folder).ok();
    let target = std::fs::canonicalize(&file).map_err(|_| "cannot be read")?;
    if inside.is_none_or(|inside| !target.starts_with(inside)) {
        return Err("lies outside the project's folder and is not read");
    }
    let bytes = crate::source::read_file(&target).map_err(|_| "cannot be read")?;
    String::from_utf8(bytes).map_err(|_| "is not UTF-8 text")
}

/// The service's `environment`, as a mapping or a list of `NAME=value` strings.
fn written_environment(
    service: &Node,
    service_name: &str,
    project: &Project,
    notes: &mut Vec<String>,
) -> Vec<EnvVar> {
    let Some(environment) = service.get("environment") else {
        return Vec::new();
    };
    let mut vars = Vec::new();
    match environment {
        Node::Map(entries) => {
            for (name, value) in entries {
                let Some(name) = name.scalar() else { continue };
                let value = value.scalar();
                vars.push(match value {
                    Some(value) if !value.is_null() => {
                        let (resolved, from_env) = project.interpolate_traced(&value.value);
                        EnvVar {
                            edit: edit_of(value, resolved.as_deref()),
                            var: Var {
                                name: name.value.clone(),
                                value: resolved,
                            },
                            name_span: name.span.clone(),
                            value_span: value.span.clone(),
                            provenance: provenance(from_env),
                        }
                    }
                    // `NAME:` with no value: Compose takes it from the shell, else `.env`.
                    _ => inherited(&name.value, name.span.clone(), project),
                });
            }
        }
        Node::Seq(items) => {
            for item in items {
                let Some(item) = item.scalar() else {
                    if let Node::Map(entries) = item {
                        let name = entries
                            .first()
                            .and_then(|(key, _)| key.text())
                            .unwrap_or_default();
                        notes.push(format!(
                            "service `{service_name}`: environment item `- {name}: ...` is a mapping, which Compose rejects (a list item is `- NAME=value`); not read"
                        ));
                    }
                    continue;
                };
                vars.push(list_item(item, project));
            }
        }
        Node::Scalar(_) => {}
    }
    vars
}

/// A value written in the compose file, or interpolated from `.env`.
fn provenance(from_env: bool) -> Provenance {
    if from_env {
        Provenance::ProjectEnv
    } else {
        Provenance::Written
    }
}

/// A variable named with no value (`NAME:`, `- NAME`): Compose passes the shell's, else
/// `.env`'s; unknown when `.env` does not set it.
fn inherited(name: &str, span: Span, project: &Project) -> EnvVar {
    let found = project.lookup(name);
    EnvVar {
        provenance: provenance(found.is_some()),
        var: Var {
            name: name.to_string(),
            value: found.flatten(),
        },
        name_span: span.clone(),
        value_span: span,
        edit: None,
    }
}

/// `- NAME=value`, or `- NAME` (taken from the shell, else `.env`).
fn list_item(item: &Scalar, project: &Project) -> EnvVar {
    let Some((name, value)) = item.value.split_once('=') else {
        return inherited(&item.value, item.span.clone(), project);
    };
    let (resolved, from_env) = project.interpolate_traced(value);
    let (name_span, value_span, edit) = if item.exact {
        let equals = item.span.start + name.len();
        let value_span = equals + 1..item.span.end;
        let edit = (resolved.as_deref() == Some(value)).then_some(Edit { style: item.style });
        (item.span.start..equals, value_span, edit)
    } else {
        (item.span.clone(), item.span.clone(), None)
    };
    EnvVar {
        var: Var {
            name: name.to_string(),
            value: resolved,
        },
        name_span,
        value_span,
        edit,
        provenance: provenance(from_env),
    }
}

/// A service's image and environment as kafkalint reads them from a compose file (`None`:
/// not known).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceEnvironment {
    pub service: String,
    pub image: Option<String>,
    pub environment: Vec<(String, Option<String>)>,
    /// An env_file of the service was not read (see the notes).
    pub unread_env_file: bool,
}

/// The image and environment of every service of the compose file at `path`, with its
/// project's `.env` and the services' env files, as the readers above see them; notes say
/// what was not read. For comparing kafkalint's reading with Compose's own.
pub fn service_environments(path: &Path) -> Result<(Vec<ServiceEnvironment>, Vec<String>), String> {
    let bytes = crate::source::read_file(path).map_err(|error| error.to_string())?;
    let text = String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let documents = crate::sources::yaml::parse(&text).map_err(|error| error.to_string())?;
    let mut notes = Vec::new();
    let project = Project::of_file(&path.to_string_lossy(), &mut notes);
    let mut found = Vec::new();
    let Some(services) = documents
        .first()
        .and_then(|document| document.get("services"))
    else {
        return Ok((found, notes));
    };
    for (key, service) in services.entries() {
        let Some(name) = key.text() else { continue };
        let environment = environment(service, name, &project, &mut notes);
        found.push(ServiceEnvironment {
            service: name.to_string(),
            image: service
                .get("image")
                .and_then(Node::text)
                .and_then(|image| project.interpolate(image)),
            environment: environment
                .vars
                .into_iter()
                .map(|var| (var.var.name, var.var.value))
                .collect(),
            unread_env_file: environment.unread_env_file,
        });
    }
    Ok((found, notes))
}

/// The Kafka services of one compose file split into the clusters they form: one, but for
/// KRaft services that name quorums of their own (each group its own `controller.quorum.voters`)
/// that reuse each other's node ids or share no voter: two clusters side by side (a MirrorMaker 2 demo's source
/// and target), not one cluster with clashing ids. Each group after the first is named by its
/// first service; the components (Connect, Schema Registry) stay with the first group.
pub fn quorums(nodes: Vec<NodeSpec>) -> Vec<(String, Vec<NodeSpec>)> {
    let setting = |spec: &NodeSpec, key: &str| {
        let entry = spec.entries.iter().rev().find(|entry| entry.key == key);
        entry.map(|entry| entry.value.trim().to_string())
    };
    let kafka = |spec: &NodeSpec| spec.component.is_none();
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for spec in nodes.iter().filter(|spec| kafka(spec)) {
        let (Some(voters), Some(id)) = (
            setting(spec, "controller.quorum.voters"),
            setting(spec, "node.id").or_else(|| setting(spec, "broker.id")),
        ) else {
            return whole(nodes);
        };
        if crate::properties::is_placeholder(&voters) || crate::properties::is_placeholder(&id) {
            return whole(nodes);
        }
        match groups.iter_mut().find(|(known, _)| *known == voters) {
            Some((_, ids)) => ids.push(id),
            None => groups.push((voters, vec![id])),
        }
    }
    // Apart only when the groups reuse each other's ids: quorums that differ only in how one
    // service writes an address stay one cluster (inconsistent-cluster-value says so).
    let ids_clash = groups.iter().enumerate().any(|(at, (_, ids))| {
        groups[at + 1..]
            .iter()
            .any(|(_, others)| ids.iter().any(|id| others.contains(id)))
    });
    let own_ids = groups.iter().all(|(_, ids)| {
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.windows(2).all(|pair| pair[0] != pair[1])
    });
    // Or quorums of no voter in common: each service can only ever join its own.
    let voter_ids = |voters: &str| -> Vec<String> {
        voters
            .split(',')
            .filter_map(|voter| voter.split_once('@'))
            .map(|(id, _)| id.trim().to_string())
            .collect()
    };
    let disjoint = groups.iter().enumerate().all(|(at, (voters, _))| {
        let ids = voter_ids(voters);
        !ids.is_empty()
            && groups[at + 1..]
                .iter()
                .all(|(others, _)| voter_ids(others).iter().all(|id| !ids.contains(id)))
    });
    if groups.len() < 2 || !(ids_clash || disjoint) || !own_ids {
        return whole(nodes);
    }
    let mut split: Vec<(String, Vec<NodeSpec>)> = groups
        .iter()
        .map(|(voters, _)| (voters.clone(), Vec::new()))
        .collect();
    let mut components = Vec::new();
    for spec in nodes {
        match setting(&spec, "controller.quorum.voters").filter(|_| kafka(&spec)) {
            Some(voters) => {
                let group = split.iter_mut().find(|(known, _)| *known == voters);
                group.expect("every service was grouped").1.push(spec);
            }
            None => components.push(spec),
        }
    }
    split[0].1.extend(components);
    split
        .into_iter()
        .enumerate()
        .map(|(index, (_, specs))| {
            let suffix = match index {
                0 => String::new(),
                _ => format!(" ({})", specs[0].label),
            };
            (suffix, specs)
        })
        .collect()
}

fn whole(nodes: Vec<NodeSpec>) -> Vec<(String, Vec<NodeSpec>)> {
    match nodes.is_empty() {
        true => Vec::new(),
        false => vec![(String::new(), nodes)],
    }
}
