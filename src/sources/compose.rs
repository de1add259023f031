//! docker-compose files: each service running a Kafka image kafkalint knows is a node, its
//! settings those the image writes for its `environment` (see [`super::images`]).

use super::component_images::{self, ComponentImage};
use super::images::{self, Image, Origin, Setting, Var};
use super::yaml::{Node, Scalar, Style};
use super::{ComponentService, Edit, ImageExit, ImageTag, NamedBy, NodeSpec, Runtime, YamlEntry};
use crate::properties::{Provenance, Span};

/// One variable of a service's `environment`, where it is written.
#[derive(Debug, Clone)]
struct EnvVar {
    var: Var,
    name_span: Span,
    value_span: Span,
    /// How a fix may replace the value: `None` when it cannot be replaced byte for byte.
    edit: Option<Edit>,
}

/// Reads the services of a compose file (its first document): the broker nodes, then the
/// Connect and Schema Registry services that talk to them (see [`super::component_images`]).
/// Returns them with notes on what was passed over.
pub fn read(document: &Node, notes: &mut Vec<String>) -> Vec<NodeSpec> {
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
            continue;
        };
        let Some(image_text) = interpolate(&image_node.value) else {
            notes.push(format!(
                "service `{name}`: its image `{}` is set from the environment; not read",
                image_node.value
            ));
            continue;
        };
        if let Some(component) = component_images::classify(&image_text) {
            if let Some(mut spec) = read_component(name, service, image_node, component, notes) {
                spec.declared_at = declared_at;
                components.push((name.to_string(), component, spec));
            }
            continue;
        }
        let Some(image) = images::classify(&image_text) else {
            if images::looks_like_kafka(&image_text) {
                notes.push(format!(
                    "service `{name}`: kafkalint does not know how image `{image_text}` turns its environment into Kafka settings; not read"
                ));
            }
            continue;
        };
        if let Some(mounted) = mounted_config(service, image) {
            notes.push(format!(
                "service `{name}`: its Kafka configuration comes from the mounted `{mounted}`; not read from the environment (check that file)"
            ));
            continue;
        }
        let env = environment(service, name, notes);
        let (_, tag) = images::repository(&image_text);
        let vars: Vec<Var> = env.iter().map(|var| var.var.clone()).collect();
        let mut settings = images::translate(image, tag.as_deref(), &vars);
        // The release the image runs (an image without a tag is its `latest`). One before 2.8
        // runs a Kafka without KRaft: `process.roles` is a key it does not know, and the node is
        // a ZooKeeper broker whatever it says.
        let release = images::tag_kafka_release(image, tag.as_deref().unwrap_or("latest"));
        if release.is_some_and(|release| release < crate::catalog::KafkaVersion::new(2, 8))
            && settings
                .iter()
                .any(|setting| setting.key == "process.roles")
        {
            settings.retain(|setting| setting.key != "process.roles");
            notes.push(format!(
                "service `{name}`: process.roles not read: its image runs Kafka {}, which has no KRaft and ignores the key; the node is a ZooKeeper broker",
                release.expect("checked above")
            ));
        }
        if is_tool_container(service, &settings) {
            notes.push(format!(
                "service `{name}`: runs a command of its own and sets no broker key (a tool container, not a broker); not read"
            ));
            continue;
        }
        if settings.is_empty() && image == Image::Apache {
            notes.push(if service.get("env_file").is_some() {
                format!(
                    "service `{name}`: its Kafka settings come from its env_file, which kafkalint does not read; not checked"
                )
            } else {
                format!(
                    "service `{name}`: no KAFKA_ variable writes a setting, so the image runs its sample single-node configuration (KRaft, node id 1, one replica for internal topics); not checked"
                )
            });
            continue;
        }
        let image_exit = match image {
            Image::Bitnami => images::bitnami_exit(tag.as_deref(), &settings),
            Image::Apache => images::apache_exit(tag.as_deref(), &vars),
            _ => None,
        }
        .map(|(why, help)| ImageExit {
            why,
            help,
            span: image_node.span.clone(),
        });
        let entries = entries_of(settings, &env, image_node, service);
        let image_tag = release.map(|release| ImageTag {
            reference: image_text.clone(),
            span: image_node.span.clone(),
            release,
            named_by: NamedBy::ImageTag,
        });
        broker_hosts.extend(network_names(name, service));
        broker_hosts.extend(
            entries
                .iter()
                .filter(|entry| entry.key == "advertised.listeners")
                .flat_map(|entry| hosts(&entry.value)),
        );
        let (count, count_known) = replicas(service);
        let runtime = Runtime::Container {
            image: image_text.clone(),
            host_network: host_network(service),
            volumes: volume_targets(service),
        };
        let label = format!("service `{name}`");
        for replica in 0..count {
            nodes.push(NodeSpec {
                id: format!("service {name} {replica}"),
                declared_at: declared_at.clone(),
                label: if count > 1 {
                    format!("{label} (one of {count} replicas)")
                } else {
                    label.clone()
                },
                entries: entries.clone(),
                count_known,
                image: Some(image),
                image_tag: image_tag.clone(),
                component: None,
                forbidden: Vec::new(),
                runtime: runtime.clone(),
                image_exit: image_exit.clone(),
                settings_elsewhere: service.get("env_file").is_some(),
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

/// A Kafka image made to run a command of its own (format the storage, create topics) whose
/// environment sets no key of a broker's configuration (a cluster id or a password for the
/// script is not one): no broker starts in it.
fn is_tool_container(service: &Node, settings: &[images::Setting]) -> bool {
    let runs_own_command = service.get("command").is_some() || service.get("entrypoint").is_some();
    let newest = crate::catalog::KafkaVersion::newest();
    runs_own_command
        && !settings.iter().any(|setting| {
            setting.origin != images::Origin::Image
                && crate::catalog::spec(&setting.key, newest).is_some()
        })
}

/// A Connect or Schema Registry service as a component of the file's cluster: one for the
/// service, however many replicas it runs (they share their topics). `None` when what it
/// would write is not known.
fn read_component(
    name: &str,
    service: &Node,
    image_node: &Scalar,
    image: ComponentImage,
    notes: &mut Vec<String>,
) -> Option<NodeSpec> {
    if let Some(mounted) = volume_targets(service)
        .into_iter()
        .find(|target| component_images::replaces_base_file(image, target))
    {
        notes.push(format!(
            "service `{name}`: its {} configuration starts from the mounted `{mounted}`; not read from the environment (check that file)",
            image.kind().name()
        ));
        return None;
    }
    let env = environment(service, name, notes);
    let vars: Vec<Var> = env.iter().map(|var| var.var.clone()).collect();
    let mut settings = component_images::translate(image, &vars);
    if service.get("env_file").is_some() {
        // An env_file may set a factor the environment leaves to the component's default.
        for key in image.replication_keys() {
            if !settings.iter().any(|setting| setting.key == *key) {
                settings.push(Setting {
                    key: (*key).into(),
                    value: None,
                    origin: Origin::Image,
                });
            }
        }
    }
    Some(NodeSpec {
        id: format!("service {name}"),
        label: format!("service `{name}`"),
        // Set by the caller, which holds the service's key.
        declared_at: 0..0,
        entries: entries_of(settings, &env, image_node, service),
        count_known: true,
        image: None,
        image_tag: None,
        component: Some(ComponentService {
            kind: image.kind(),
            image_span: image_node.span.clone(),
            env_prefix: image.env_prefix(),
        }),
        forbidden: Vec::new(),
        runtime: Runtime::Container {
            image: image_node.value.clone(),
            host_network: host_network(service),
            volumes: volume_targets(service),
        },
        image_exit: None,
        settings_elsewhere: service.get("env_file").is_some(),
    })
}

/// The settings as entries at the YAML scalars they come from. A setting whose value is not
/// known becomes a `${key}` placeholder that no fix may replace.
fn entries_of(
    settings: Vec<Setting>,
    env: &[EnvVar],
    image_node: &Scalar,
    service: &Node,
) -> Vec<YamlEntry> {
    // An env_file may set any variable: what the image would write by itself is unknown.
    let has_env_file = service.get("env_file").is_some();
    let mut entries = Vec::new();
    for setting in settings {
        let (key_span, value_span, edit) = match setting.origin {
            Origin::Var(index) => (
                env[index].name_span.clone(),
                env[index].value_span.clone(),
                env[index].edit,
            ),
            Origin::DerivedFrom(index) => (
                env[index].value_span.clone(),
                env[index].value_span.clone(),
                None,
            ),
            Origin::Image => (image_node.span.clone(), image_node.span.clone(), None),
        };
        let unknown = setting.value.is_none() || (has_env_file && setting.origin == Origin::Image);
        entries.push(YamlEntry {
            value: if unknown {
                format!("${{{}}}", setting.key)
            } else {
                setting.value.unwrap_or_default()
            },
            key: setting.key,
            key_span,
            value_span,
            edit: if unknown { None } else { edit },
            provenance: match setting.origin {
                Origin::Var(_) => Provenance::Written,
                Origin::DerivedFrom(_) => Provenance::Derived,
                Origin::Image => Provenance::Image,
            },
        });
    }
    entries
}

/// The names a service answers to on its compose networks: its service name, `hostname`,
/// `container_name` and network `aliases`, lower case.
fn network_names(name: &str, service: &Node) -> Vec<String> {
    let mut names = vec![name.to_string()];
    for key in ["hostname", "container_name"] {
        names.extend(
            service
                .get(key)
                .and_then(Node::text)
                .and_then(interpolate)
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

/// The hosts of a list of listeners or bootstrap servers (`PLAINTEXT://kafka-1:9092,kafka-2`),
/// lower case.
fn hosts(list: &str) -> Vec<String> {
    list.split(',')
        .filter_map(|item| {
            let item = item.trim();
            let address = item.split_once("://").map_or(item, |(_, rest)| rest);
            let host = if address.starts_with('[') {
                address.split(']').next().map(|h| h.trim_start_matches('['))
            } else {
                address.split(':').next()
            }?;
            (!host.is_empty()).then(|| host.to_ascii_lowercase())
        })
        .collect()
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
fn replicas(service: &Node) -> (usize, bool) {
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
        .and_then(interpolate)
        .map(|count| count.trim().parse::<usize>());
    match count {
        None => (1, true),
        // More containers than a file can stand for one by one: unknown.
        Some(Ok(count)) if count <= 1000 => (count, true),
        Some(_) => (1, false),
    }
}

/// A volume that puts the image's configuration file in place (the image then ignores the
/// environment, or merges into that file): its target.
fn mounted_config(service: &Node, image: Image) -> Option<String> {
    let targets: &[&str] = match image {
        // libkafka.sh: a server.properties in $KAFKA_MOUNTED_CONF_DIR skips the environment.
        Image::Bitnami => &["/bitnami/kafka/config"],
        // configure: /mnt/shared/config is copied over /opt/kafka/config.
        Image::Apache => &["/mnt/shared/config"],
        Image::Confluent | Image::Wurstmeister => &[],
    };
    volume_targets(service).into_iter().find(|target| {
        target.ends_with("server.properties")
            || target.ends_with("kafka.properties")
            || targets
                .iter()
                .any(|dir| target == *dir || target.starts_with(&format!("{dir}/")))
    })
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

/// The service's `environment`, as a mapping or a list of `NAME=value` strings.
fn environment(service: &Node, service_name: &str, notes: &mut Vec<String>) -> Vec<EnvVar> {
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
                    // `NAME:` with no value: Compose takes it from the shell.
                    Some(value) if !value.is_null() => {
                        let resolved = interpolate(&value.value);
                        EnvVar {
                            edit: edit_of(value, resolved.as_deref()),
                            var: Var {
                                name: name.value.clone(),
                                value: resolved,
                            },
                            name_span: name.span.clone(),
                            value_span: value.span.clone(),
                        }
                    }
                    _ => EnvVar {
                        var: Var {
                            name: name.value.clone(),
                            value: None,
                        },
                        name_span: name.span.clone(),
                        value_span: name.span.clone(),
                        edit: None,
                    },
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
                vars.push(list_item(item));
            }
        }
        Node::Scalar(_) => {}
    }
    vars
}

/// `- NAME=value`, or `- NAME` (taken from the shell).
fn list_item(item: &Scalar) -> EnvVar {
    let Some((name, value)) = item.value.split_once('=') else {
        return EnvVar {
            var: Var {
                name: item.value.clone(),
                value: None,
            },
            name_span: item.span.clone(),
            value_span: item.span.clone(),
            edit: None,
        };
    };
    let resolved = interpolate(value);
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
    }
}

/// A value a fix may replace byte for byte: written on one line exactly as Compose reads it.
fn edit_of(scalar: &Scalar, resolved: Option<&str>) -> Option<Edit> {
    (scalar.exact && scalar.style != Style::Block && resolved == Some(scalar.value.as_str()))
        .then_some(Edit {
            style: scalar.style,
        })
}

/// Compose's interpolation of a value: `$$` is `$`; `${NAME:-default}` and `${NAME-default}`
/// give their default when it is literal. `None` when the value depends on the shell
/// (`$NAME`, `${NAME}`, `${NAME:?error}`, `${NAME:+other}`, or a default that does).
pub fn interpolate(raw: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix('$') {
            out.push('$');
            rest = after;
        } else if let Some(inner) = rest.strip_prefix('{') {
            let close = inner.find('}')?;
            let expression = &inner[..close];
            rest = &inner[close + 1..];
            let name_end = expression
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(expression.len());
            let operator = &expression[name_end..];
            let default = operator
                .strip_prefix(":-")
                .or_else(|| operator.strip_prefix('-'))
                .filter(|default| !default.contains('$'))?;
            out.push_str(default);
        } else if rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        } else {
            out.push('$');
        }
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_resolves_literal_defaults_only() {
        assert_eq!(
            interpolate("PLAINTEXT://kafka:9092").as_deref(),
            Some("PLAINTEXT://kafka:9092")
        );
        assert_eq!(interpolate("${RF:-3}").as_deref(), Some("3"));
        assert_eq!(interpolate("${RF-1}").as_deref(), Some("1"));
        assert_eq!(interpolate("a$$b").as_deref(), Some("a$b"));
        assert_eq!(interpolate("${RF}"), None);
        assert_eq!(interpolate("$RF"), None);
        assert_eq!(interpolate("${RF:?set it}"), None);
        assert_eq!(interpolate("${A:-${B}}"), None);
    }
}
