//! A container running a Kafka image, whichever file declares it (a compose service, a
//! Kubernetes pod template): its environment, as the container gets it, becomes the settings
//! the image writes (see [`crate::sources::images`]).

use crate::properties::{Provenance, Span};
use crate::sources::images::components::{self, ComponentImage};
use crate::sources::images::{self, Image, Origin, Setting, Var};
use crate::sources::yaml::{Scalar, Style};
use crate::sources::{
    ComponentService, Edit, ImageExit, ImageTag, NamedBy, NodeSpec, Runtime, YamlEntry,
};

/// One variable of a container's environment, where it is written.
#[derive(Debug, Clone)]
pub(super) struct EnvVar {
    pub var: Var,
    pub name_span: Span,
    pub value_span: Span,
    /// How a fix may replace the value: `None` when it cannot be replaced byte for byte.
    pub edit: Option<Edit>,
    /// Written in the file, or set from elsewhere (then the spans are where the file names
    /// that place: an env_file entry, an `envFrom` item).
    pub provenance: Provenance,
}

/// A container of a Kafka image kafkalint knows, as its file declares it.
pub(super) struct Container<'a> {
    /// How messages and notes name it: ``service `kafka` ``, ``StatefulSet `kafka` ``.
    pub label: String,
    pub image: Image,
    /// The `image:` scalar, where image defaults and refusals point.
    pub image_node: &'a Scalar,
    /// The image reference with its variables filled in.
    pub image_text: String,
    /// False when the tag comes from a variable whose value is unknown.
    pub tag_known: bool,
    pub env: Vec<EnvVar>,
    /// Some of the environment comes from a place not read (an env_file, a Secret): the
    /// variables it sets are unknown.
    pub env_unread: bool,
    /// What that place is, for notes: "an env_file".
    pub unread_source: &'static str,
    /// The container runs a command of its own instead of the image's entry point.
    pub own_command: bool,
    /// Variables Kubernetes gives it for a Service of its namespace: the variable and the
    /// Service.
    pub links: Vec<(String, String)>,
    pub runtime: Runtime,
}

/// The configuration file a container's image starts from, mounted from a file kafkalint
/// reads (a ConfigMap of the same manifests).
pub(super) struct MountedFile {
    pub entries: Vec<YamlEntry>,
    /// The image appends the settings of its environment to the file (apache/kafka's
    /// KafkaDockerWrapper), rather than ignoring the environment (bitnami/kafka).
    pub env_appended: bool,
}

/// The broker node a container runs, with `id`, `label` and `declared_at` left for the caller
/// (which knows how many replicas run); `None`, with a note, when it runs none kafkalint can
/// check. `mounted`: the configuration file it starts from, when one is mounted.
pub(super) fn broker(
    container: &Container,
    mounted: Option<MountedFile>,
    notes: &mut Vec<String>,
) -> Option<NodeSpec> {
    let Container {
        label,
        image,
        image_node,
        image_text,
        env,
        env_unread,
        unread_source,
        ..
    } = container;
    let image = *image;
    let (_, tag) = images::repository(image_text);
    let vars: Vec<Var> = env.iter().map(|var| var.var.clone()).collect();
    // Service links reach the image's checks; the keys the image would write for them
    // (`service.host`, `port`) are ones Kafka ignores, and are left out.
    let written: Vec<EnvVar> = env
        .iter()
        .filter(|var| var.provenance != Provenance::ServiceLink)
        .cloned()
        .collect();
    let written_vars: Vec<Var> = written.iter().map(|var| var.var.clone()).collect();
    let mut settings = match &mounted {
        Some(file) if !file.env_appended => Vec::new(),
        _ => images::translate(image, tag.as_deref(), &written_vars),
    };
    // The release the image runs (an image without a tag is its `latest`). One before 2.8
    // runs a Kafka without KRaft: `process.roles` is a key it does not know, and the node is
    // a ZooKeeper broker whatever it says.
    let release = if container.tag_known {
        images::tag_kafka_release(image, tag.as_deref().unwrap_or("latest"))
    } else {
        notes.push(format!(
            "{label}: its image tag in `{}` is set from the environment, so its Kafka release is unknown; read as {image_text} of no known release",
            image_node.value
        ));
        None
    };
    // The release the image runs before 2.8 has no KRaft: `KafkaConfig` gained `process.roles`
    // with `KafkaRaftServer` in 2.8.0 (KIP-500's early access; apache/kafka
    // core/src/main/scala/kafka/server/KafkaConfig.scala, `ProcessRolesProp`), so Kafka 2.7 and
    // older ignore the key and run the node as a ZooKeeper broker whatever it says. The key is
    // kept aside for mixed-mode-settings to report, not read as the node's roles.
    let mut ignored_by_release = Vec::new();
    if release.is_some_and(|release| release < crate::catalog::KafkaVersion::new(2, 8)) {
        let (ignored, kept): (Vec<Setting>, Vec<Setting>) = settings
            .into_iter()
            .partition(|setting| setting.key == "process.roles");
        settings = kept;
        ignored_by_release = ignored;
    }
    if mounted.is_none() && container.own_command && !sets_broker_key(&settings) {
        notes.push(format!(
            "{label}: runs a command of its own and sets no broker key (a tool container, not a broker); not read"
        ));
        return None;
    }
    if mounted.is_none() && settings.is_empty() && image == Image::Apache {
        notes.push(if *env_unread {
            format!(
                "{label}: its Kafka settings come from {unread_source} kafkalint cannot read; not checked"
            )
        } else {
            format!(
                "{label}: no KAFKA_ variable writes a setting, so the image runs its sample single-node configuration (KRaft, node id 1, one replica for internal topics); not checked"
            )
        });
        return None;
    }
    // An environment not read may set what the scripts ask for, and a command of the
    // container's own may run other scripts first (one that exports CLUSTER_ID, then the
    // image's run): no exit is known then.
    // What the scripts check of a mounted file is not modelled: no exit is judged.
    let image_exit = match image {
        _ if *env_unread || container.own_command || mounted.is_some() => None,
        Image::Bitnami => images::bitnami_exit(tag.as_deref(), &vars, &settings),
        Image::Apache => images::apache_exit(tag.as_deref(), &vars),
        Image::Confluent => images::confluent_exit(tag.as_deref(), &vars),
        Image::ConfluentLocal | Image::Wurstmeister => None,
    }
    .map(|(why, help)| {
        // A variable the container gets from a Service: the Service is what to change.
        match container
            .links
            .iter()
            .find(|(var, _)| why.starts_with(&format!("{var} is set")))
        {
            Some((_, service)) => ImageExit {
                why: format!(
                    "{why}; Service `{service}` sets it (a Kubernetes service link)"
                ),
                help: format!(
                    "set enableServiceLinks: false in the pod spec, or rename Service `{service}` so that its variables do not start with KAFKA_"
                ),
                span: image_node.span.clone(),
            },
            None => ImageExit {
                why,
                help,
                span: image_node.span.clone(),
            },
        }
    });
    Some(NodeSpec {
        id: String::new(),
        declared_at: 0..0,
        label: label.clone(),
        entries: {
            let from_env = entries_of(settings, &written, image_node, *env_unread);
            match mounted {
                // Java's Properties keeps the last of a key: what the image appends wins.
                Some(file) => {
                    let mut entries: Vec<YamlEntry> = file
                        .entries
                        .into_iter()
                        .filter(|entry| !from_env.iter().any(|later| later.key == entry.key))
                        .collect();
                    entries.extend(from_env);
                    entries
                }
                None => from_env,
            }
        },
        count_known: true,
        image: Some(image),
        image_tag: release.map(|release| ImageTag {
            reference: image_text.clone(),
            span: image_node.span.clone(),
            release,
            named_by: NamedBy::ImageTag,
        }),
        component: None,
        forbidden: Vec::new(),
        ignored_by_release: entries_of(ignored_by_release, &written, image_node, *env_unread),
        runtime: container.runtime.clone(),
        image_exit,
        settings_elsewhere: *env_unread,
    })
}

/// A Connect or Schema Registry container as a component of its cluster (one for the service or
/// workload, however many replicas it runs: they share their topics), its settings those the
/// image writes for `env`; `id`, `label` and `declared_at` are left for the caller.
pub(super) fn component(
    image: ComponentImage,
    image_node: &Scalar,
    env: &[EnvVar],
    env_unread: bool,
    runtime: Runtime,
) -> NodeSpec {
    let vars: Vec<Var> = env.iter().map(|var| var.var.clone()).collect();
    let mut settings = components::translate(image, &vars);
    if env_unread {
        // An environment not read may set a factor it leaves here to the component's default.
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
    NodeSpec {
        id: String::new(),
        label: String::new(),
        declared_at: 0..0,
        entries: entries_of(settings, env, image_node, env_unread),
        count_known: true,
        image: None,
        image_tag: None,
        component: Some(ComponentService {
            kind: image.kind(),
            image_span: image_node.span.clone(),
            env_prefix: Some(image.env_prefix()),
            worker_topics_here: true,
            mirror_flows: Vec::new(),
        }),
        forbidden: Vec::new(),
        ignored_by_release: Vec::new(),
        runtime,
        image_exit: None,
        settings_elsewhere: env_unread,
    }
}

/// Whether the environment sets a key of a broker's configuration (a cluster id or a password
/// for a script is not one): a Kafka image made to run a command of its own (format the
/// storage, create topics) without one starts no broker.
fn sets_broker_key(settings: &[Setting]) -> bool {
    let newest = crate::catalog::KafkaVersion::newest();
    settings.iter().any(|setting| {
        setting.origin != Origin::Image && crate::catalog::spec(&setting.key, newest).is_some()
    })
}

/// Why a container's environment is not read, when a volume puts the image's configuration
/// file in place (the image then ignores the environment, or merges into that file): a note.
pub(super) fn mounted_config_note(label: &str, volumes: &[String], image: Image) -> Option<String> {
    let mounted = mounted_config(volumes, image)?;
    // apache/kafka's KafkaDockerWrapper copies a server.properties mounted under
    // /mnt/shared/config and appends the settings of its KAFKA_ variables to it.
    let appended = image == Image::Apache && mounted.starts_with("/mnt/shared/config");
    Some(if appended {
        format!(
            "{label}: its Kafka configuration starts from the mounted `{mounted}`, to which the image appends its KAFKA_ variables; kafkalint does not merge the two: not checked (check that file)"
        )
    } else {
        format!(
            "{label}: its Kafka configuration comes from the mounted `{mounted}`; not read from the environment (check that file)"
        )
    })
}

/// A volume that puts the image's configuration file in place: its target.
fn mounted_config(targets: &[String], image: Image) -> Option<&str> {
    let dirs: &[&str] = match image {
        // libkafka.sh: a server.properties in $KAFKA_MOUNTED_CONF_DIR skips the environment.
        Image::Bitnami => &["/bitnami/kafka/config"],
        // configure: /mnt/shared/config is copied over /opt/kafka/config.
        Image::Apache => &["/mnt/shared/config"],
        Image::Confluent | Image::ConfluentLocal | Image::Wurstmeister => &[],
    };
    targets
        .iter()
        .find(|target| {
            target.ends_with("server.properties")
                || target.ends_with("kafka.properties")
                || dirs
                    .iter()
                    .any(|dir| *target == dir || target.starts_with(&format!("{dir}/")))
        })
        .map(String::as_str)
}

/// The settings as entries at the YAML scalars they come from. A setting whose value is not
/// known becomes a `${key}` placeholder that no fix may replace.
pub(super) fn entries_of(
    settings: Vec<Setting>,
    env: &[EnvVar],
    image_node: &Scalar,
    env_unread: bool,
) -> Vec<YamlEntry> {
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
        // An environment not read may set any variable: what the image would write by itself
        // is unknown.
        let unknown = setting.value.is_none() || (env_unread && setting.origin == Origin::Image);
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
                Origin::Var(index) => env[index].provenance,
                Origin::DerivedFrom(_) => Provenance::Derived,
                Origin::Image => Provenance::Image,
            },
        });
    }
    entries
}

/// The hosts of a list of listeners or bootstrap servers (`PLAINTEXT://kafka-1:9092,kafka-2`),
/// lower case.
pub(super) fn hosts(list: &str) -> Vec<String> {
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

/// A value a fix may replace byte for byte: written on one line exactly as the container gets
/// it (`resolved`, after its file's interpolation).
pub(super) fn edit_of(scalar: &Scalar, resolved: Option<&str>) -> Option<Edit> {
    (scalar.exact && scalar.style != Style::Block && resolved == Some(scalar.value.as_str()))
        .then_some(Edit {
            style: scalar.style,
        })
}
