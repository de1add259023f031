//! How each Kafka container image turns its environment into `server.properties`, taken from
//! the image's own start-up scripts (cited at each rule). Only images listed here are read: an
//! image's conventions are never guessed.

pub mod components;

use crate::catalog::KafkaVersion;

/// A Kafka image whose environment conventions kafkalint knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Image {
    /// `apache/kafka`, `apache/kafka-native` (apache/kafka: docker/resources/common-scripts).
    Apache,
    /// `confluentinc/cp-kafka`, `confluentinc/cp-server` (confluentinc/kafka-images:
    /// kafka/include/etc/confluent/docker), and `confluentinc/cp-enterprise-kafka`, the
    /// CP 3 to 5 name of cp-server: built `FROM confluentinc/cp-kafka` with the same
    /// `CMD ["/etc/confluent/docker/run"]` and cp-kafka's scripts, its template adding only
    /// `CONFLUENT_SUPPORT_` and `CONFLUENT_METRICS_` settings (confluentinc/cp-docker-images
    /// debian/enterprise-kafka/Dockerfile and include/etc/confluent/docker/
    /// kafka.properties.template), which kafkalint leaves unread.
    Confluent,
    /// `confluentinc/confluent-local` (confluentinc/kafka-images: local/include/etc/confluent/docker):
    /// cp-kafka's scripts after defaults of its own, for a single local node.
    ConfluentLocal,
    /// `bitnami/kafka` (bitnami/containers: bitnami/kafka/*/rootfs/opt/bitnami/scripts/libkafka.sh).
    Bitnami,
    /// `wurstmeister/kafka` (wurstmeister/kafka-docker: start-kafka.sh).
    Wurstmeister,
}

impl Image {
    pub fn name(self) -> &'static str {
        match self {
            Image::Apache => "apache/kafka",
            Image::Confluent => "confluentinc/cp-kafka",
            Image::ConfluentLocal => "confluentinc/confluent-local",
            Image::Bitnami => "bitnami/kafka",
            Image::Wurstmeister => "wurstmeister/kafka",
        }
    }
}

/// What an `image:` reference names: the repository without registry, tag or digest, and the tag.
pub fn repository(image: &str) -> (String, Option<String>) {
    let image = image.trim();
    let (image, _digest) = image.split_once('@').unwrap_or((image, ""));
    // A tag follows the last `:` after the last `/` (a registry may have a port).
    let (name, tag) = match image.rfind(':') {
        Some(at) if !image[at..].contains('/') => (&image[..at], Some(image[at + 1..].to_string())),
        _ => (image, None),
    };
    let mut parts: Vec<&str> = name.split('/').collect();
    if parts.len() > 1
        && (parts[0].contains('.') || parts[0].contains(':') || parts[0] == "localhost")
    {
        parts.remove(0);
    }
    // A mirror that keeps Docker Hub's images under a path of its own names the registry in
    // it (`swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/confluentinc/cp-kafka:8.0.0`):
    // what follows is Docker Hub's repository. A path without it (`harbor/proxy/bitnami/kafka`)
    // may be a team's own image and stays as written.
    if let Some(hub) = parts
        .iter()
        .rposition(|part| {
            matches!(
                *part,
                "docker.io" | "index.docker.io" | "registry-1.docker.io"
            )
        })
        .filter(|hub| hub + 1 < parts.len())
    {
        parts.drain(..=hub);
    }
    if parts.first() == Some(&"library") {
        parts.remove(0);
    }
    (parts.join("/").to_ascii_lowercase(), tag)
}

/// The image kafkalint knows behind an `image:` reference.
pub fn classify(image: &str) -> Option<Image> {
    match repository(image).0.as_str() {
        "apache/kafka" | "apache/kafka-native" => Some(Image::Apache),
        "confluentinc/cp-kafka" | "confluentinc/cp-server" | "confluentinc/cp-enterprise-kafka" => {
            Some(Image::Confluent)
        }
        "confluentinc/confluent-local" => Some(Image::ConfluentLocal),
        "bitnami/kafka" | "bitnamilegacy/kafka" | "bitnamisecure/kafka" => Some(Image::Bitnami),
        "wurstmeister/kafka" => Some(Image::Wurstmeister),
        _ => None,
    }
}

/// The Kafka release (major.minor) an image's tag names, `None` when the tag does not say
/// (`latest`, a major line only such as `3`, a Confluent release kafkalint has no source for,
/// anything unparsable). Each image's tag scheme comes from its maintainers:
///
/// - apache/kafka, apache/kafka-native: the tag is the Kafka release (`3.7.0`), a release
///   candidate adds `-rcN` (`3.6.0-rc0`) (apache/kafka docker/README.md, commit 0071fdb0,
///   "Creating a Release Candidate" and "Promoting a Release Candidate").
/// - bitnami/kafka: the Kafka release, as `X.Y.Z`, the rolling `X.Y` or `X`, or with the
///   image revision `X.Y.Z-rN` / `X.Y.Z-debian-10-rN` (bitnami/bitnami-docker-kafka
///   README.md "Supported tags": `2.8.0`, `2.8.0-debian-10-r28`; `1`, `1.1.1`, `1.1.1-r125`).
/// - wurstmeister/kafka: `<scala version>-<kafka version>`, "The version format mirrors the
///   Kafka format" (wurstmeister/kafka-docker README.md, commit 002e481b, "Tags and
///   releases": `2.12-2.4.0`, `2.11-0.10.2.2`); `latest` is 2.8.1.
/// - confluentinc/cp-kafka, cp-server: a Confluent Platform release, read through
///   `confluent_platform_kafka`.
pub fn tag_kafka_release(image: Image, tag: &str) -> Option<KafkaVersion> {
    let tag = tag.trim();
    match image {
        Image::Apache | Image::Bitnami => release_prefix(tag),
        // `latest` (what an image without a tag pulls) is 2.13-2.8.1, the image's last build:
        // wurstmeister/kafka-docker .travis.yml at 901c084 tags the KAFKA_VERSION=2.8.1 build
        // "latest", and its Dockerfile defaults to kafka_version=2.8.1 (no commit since 2022).
        Image::Wurstmeister if tag == "latest" => Some(KafkaVersion::new(2, 8)),
        Image::Wurstmeister => {
            let (scala, kafka) = tag.split_once('-')?;
            release_prefix(scala)?;
            release_prefix(kafka).filter(|_| !kafka.contains('-'))
        }
        // Tagged with the Confluent Platform release, as cp-kafka.
        Image::Confluent | Image::ConfluentLocal => confluent_platform_kafka(release_prefix(tag)?),
    }
}

/// `major.minor` of a tag that starts with a dotted release (`3.7.0`, `3.6`, `0.10.2.2`) and
/// goes on, if at all, after a `-` (`3.7.0-rc0`, `3.6.1-debian-12-r3`). Kafka's own 0.x
/// releases are named by their second number (`0.10.2.2` is the 0.10 line).
pub(super) fn release_prefix(tag: &str) -> Option<KafkaVersion> {
    let release = tag.split('-').next()?;
    let parts: Vec<&str> = release.split('.').collect();
    if !(2..=4).contains(&parts.len())
        || parts
            .iter()
            .any(|part| part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    Some(KafkaVersion::new(
        parts[0].parse().ok()?,
        parts[1].parse().ok()?,
    ))
}

/// The Apache Kafka line of a Confluent Platform line, as Confluent documents it:
/// CP 3.0–5.5 from "Confluent Platform and Apache Kafka Compatibility" of Supported Versions
/// and Interoperability (docs.confluent.io/legacy/platform/5.5.15/installation/
/// versions-interoperability.html); CP 6.0–7.6 from the compatibility matrix of Confluent's
/// Kafka Streams Upgrade Guide for CP 7.6.0, whose columns pair each CP line with its Kafka
/// line (docs.confluent.io/3.1.1/streams/upgrade-guide.html: `6.0.x / 2.6.x` … `7.6.x /
/// 3.6.x`); CP 7.7 to 8.3 from Confluent's fork of Kafka at each `vX.Y.0` tag
/// (github.com/confluentinc/kafka: `gradle.properties` `version=7.7.0-ccs` beside
/// `docs/js/templateData.js` `"dotVersion": "3.7"`, up to 8.1; from 8.2
/// `docs/getting-started/upgrade.md` "Upgrading to 4.2.0"), which also gives 7.6 → 3.6 as the
/// guide does. Newer lines: no hint.
fn confluent_platform_kafka(platform: KafkaVersion) -> Option<KafkaVersion> {
    /// (Confluent Platform line, Apache Kafka line).
    const LINES: &[(KafkaVersion, KafkaVersion)] = &[
        (KafkaVersion::new(3, 0), KafkaVersion::new(0, 10)),
        (KafkaVersion::new(3, 1), KafkaVersion::new(0, 10)),
        (KafkaVersion::new(3, 2), KafkaVersion::new(0, 10)),
        (KafkaVersion::new(3, 3), KafkaVersion::new(0, 11)),
        (KafkaVersion::new(4, 0), KafkaVersion::new(1, 0)),
        (KafkaVersion::new(4, 1), KafkaVersion::new(1, 1)),
        (KafkaVersion::new(5, 0), KafkaVersion::new(2, 0)),
        (KafkaVersion::new(5, 1), KafkaVersion::new(2, 1)),
        (KafkaVersion::new(5, 2), KafkaVersion::new(2, 2)),
        (KafkaVersion::new(5, 3), KafkaVersion::new(2, 3)),
        (KafkaVersion::new(5, 4), KafkaVersion::new(2, 4)),
        (KafkaVersion::new(5, 5), KafkaVersion::new(2, 5)),
        (KafkaVersion::new(6, 0), KafkaVersion::new(2, 6)),
        (KafkaVersion::new(6, 1), KafkaVersion::new(2, 7)),
        (KafkaVersion::new(6, 2), KafkaVersion::new(2, 8)),
        (KafkaVersion::new(7, 0), KafkaVersion::new(3, 0)),
        (KafkaVersion::new(7, 1), KafkaVersion::new(3, 1)),
        (KafkaVersion::new(7, 2), KafkaVersion::new(3, 2)),
        (KafkaVersion::new(7, 3), KafkaVersion::new(3, 3)),
        (KafkaVersion::new(7, 4), KafkaVersion::new(3, 4)),
        (KafkaVersion::new(7, 5), KafkaVersion::new(3, 5)),
        (KafkaVersion::new(7, 6), KafkaVersion::new(3, 6)),
        (KafkaVersion::new(7, 7), KafkaVersion::new(3, 7)),
        (KafkaVersion::new(7, 8), KafkaVersion::new(3, 8)),
        (KafkaVersion::new(7, 9), KafkaVersion::new(3, 9)),
        (KafkaVersion::new(8, 0), KafkaVersion::new(4, 0)),
        (KafkaVersion::new(8, 1), KafkaVersion::new(4, 1)),
        (KafkaVersion::new(8, 2), KafkaVersion::new(4, 2)),
        (KafkaVersion::new(8, 3), KafkaVersion::new(4, 3)),
    ];
    LINES
        .iter()
        .find(|(cp, _)| *cp == platform)
        .map(|(_, kafka)| *kafka)
}

/// `[images]` of `kafkalint.toml`: a team's own images, each read as the known image (with its
/// tag) it is built from, e.g. `"registry.example.com/platform/kafka" = "apache/kafka:3.9.0"`.
/// An image reference names the image as written (registry and path, case as written); a name
/// with a tag applies to that tag alone and wins over the same name without one.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Aliases {
    /// (the team's image, with or without a tag; the known image with its tag), in file order.
    entries: Vec<(String, String)>,
}

impl Aliases {
    /// Why `known` cannot stand for a team's image: not an image kafkalint knows, or no tag
    /// naming a Kafka release kafkalint can tell.
    pub fn refuse_target(known: &str) -> Option<String> {
        let Some(image) = classify(known) else {
            let names = "apache/kafka, apache/kafka-native, confluentinc/cp-kafka, confluentinc/cp-server, confluentinc/confluent-local, bitnami/kafka, wurstmeister/kafka";
            return Some(format!(
                "`{known}` is not an image kafkalint knows the start-up of: name one of {names}, with its tag"
            ));
        };
        let (_, tag) = repository(known);
        match tag {
            None => Some(format!(
                "`{known}` has no tag: name the release the image is built from (`{}:<tag>`)",
                image.name()
            )),
            Some(tag) if tag_kafka_release(image, &tag).is_none() => Some(format!(
                "the tag `{tag}` of `{known}` names no Kafka release kafkalint can tell: name the release (e.g. `{}:3.9.0`)",
                image.name()
            )),
            Some(_) => None,
        }
    }

    /// Why `declared` cannot be a team's image name: empty, or with a digest.
    pub fn refuse_name(declared: &str) -> Option<String> {
        if declared.is_empty() || declared.contains(char::is_whitespace) {
            return Some("an image name may not be empty or hold blanks".into());
        }
        declared.contains('@').then(|| {
            format!("`{declared}` has a digest: name the image without it (with or without a tag)")
        })
    }

    pub fn from_entries(entries: Vec<(String, String)>) -> Aliases {
        Aliases { entries }
    }

    /// (the team's image, the known image it is read as), in file order.
    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    pub fn insert(&mut self, declared: &str, known: &str) {
        self.entries.push((declared.to_string(), known.to_string()));
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The known image a team's `image` reference stands for, when `[images]` names it.
    pub fn resolve(&self, image: &str) -> Option<&str> {
        let image = image.trim();
        let (image, _digest) = image.split_once('@').unwrap_or((image, ""));
        let (name, tag) = split_tag(image);
        let exact = tag.and_then(|tag| {
            self.entries
                .iter()
                .find(|(declared, _)| split_tag(declared) == (name, Some(tag)))
        });
        exact
            .or_else(|| {
                self.entries
                    .iter()
                    .find(|(declared, _)| split_tag(declared) == (name, None))
            })
            .map(|(_, known)| known.as_str())
    }
}

/// An image reference's name and tag, as written: the tag follows the last `:` after the last
/// `/` (a registry may have a port).
fn split_tag(image: &str) -> (&str, Option<&str>) {
    match image.rfind(':') {
        Some(at) if !image[at..].contains('/') => (&image[..at], Some(&image[at + 1..])),
        _ => (image, None),
    }
}

/// An image whose name says Kafka but whose conventions kafkalint does not know.
pub fn looks_like_kafka(image: &str) -> bool {
    let name = repository(image).0;
    let last = name.rsplit('/').next().unwrap_or_default();
    (last == "kafka"
        || last.starts_with("kafka-")
        || last.starts_with("cp-kafka")
        || last == "cp-server")
        && ![
            "connect",
            "ui",
            "manager",
            "exporter",
            "rest",
            "console",
            "schema",
            "zookeeper",
            "mirror",
            "ksql",
            "burrow",
            "magic",
        ]
        .iter()
        .any(|tool| last.contains(tool))
}

/// One variable of a service's environment: its value, or `None` when Compose takes it from
/// the shell or cannot resolve it (unknown).
#[derive(Debug, Clone)]
pub struct Var {
    pub name: String,
    pub value: Option<String>,
}

/// Where a translated setting comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The value of the variable at this index, as written.
    Var(usize),
    /// Computed by the image's script from the variable at this index (e.g. `listeners` from
    /// `KAFKA_ADVERTISED_LISTENERS`).
    DerivedFrom(usize),
    /// Written by the image whatever the environment says.
    Image,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    /// `None`: the image computes it from something kafkalint cannot see (a file, a command).
    pub value: Option<String>,
    pub origin: Origin,
}

/// The `server.properties` settings an image writes for `vars`, in file order (a later setting
/// of a key wins). `tag` is the image tag, which decides defaults that depend on the release.
pub fn translate(image: Image, tag: Option<&str>, vars: &[Var]) -> Vec<Setting> {
    let mut settings = match image {
        Image::Apache => apache(vars, tag),
        Image::Confluent => confluent(vars),
        Image::ConfluentLocal => confluent_local(vars),
        Image::Bitnami => bitnami(tag, vars),
        Image::Wurstmeister => wurstmeister(vars),
    };
    // What the image writes by itself and a variable sets again is one line of the file,
    // replaced in place, not a repeat.
    let set_by_vars: Vec<String> = settings
        .iter()
        .filter(|setting| setting.origin != Origin::Image)
        .map(|setting| setting.key.clone())
        .collect();
    settings
        .retain(|setting| setting.origin != Origin::Image || !set_by_vars.contains(&setting.key));
    settings
}

fn lookup<'a>(vars: &'a [Var], name: &str) -> Option<(usize, &'a Var)> {
    vars.iter()
        .enumerate()
        .rev()
        .find(|(_, var)| var.name == name)
}

/// Set and not empty, as bash's `-n "${X-}"` tests it (an unknown value counts as set).
fn is_set(vars: &[Var], name: &str) -> bool {
    lookup(vars, name).is_some_and(|(_, var)| var.value.as_deref() != Some(""))
}

/// The utility's `ConvertKey` (apache/kafka docker/resources/utility/utility.go, the same in
/// Confluent's `ub`): each `_` matched by `[^_]_[^_]` (left to right, matches not overlapping)
/// becomes `.`, then `___` becomes `-`, `__` becomes `_`, and all is lower-cased.
pub fn convert_key(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(chars.len());
    let mut at = 0;
    while at < chars.len() {
        if at + 2 < chars.len() && chars[at] != '_' && chars[at + 1] == '_' && chars[at + 2] != '_'
        {
            out.extend([chars[at], '.', chars[at + 2]]);
            at += 3;
        } else {
            out.push(chars[at]);
            at += 1;
        }
    }
    let text: String = out.into_iter().collect();
    text.replace("___", "-").replace("__", "_").to_lowercase()
}

/// `cub listeners` / `ub listeners` / the apache image's `sed 's|://[^:]*:|://0.0.0.0:|g'`:
/// the advertised listeners with every host replaced by 0.0.0.0.
pub fn listeners_from_advertised(advertised: &str) -> String {
    let mut out = String::new();
    let mut rest = advertised;
    while let Some(at) = rest.find("://") {
        out.push_str(&rest[..at + 3]);
        rest = &rest[at + 3..];
        match rest.find(':') {
            Some(colon) if !rest[..colon].contains("://") => {
                out.push_str("0.0.0.0");
                rest = &rest[colon..];
            }
            _ => {}
        }
    }
    out.push_str(rest);
    out
}

/// Variables the Confluent image reads for itself and does not write as settings: the JVM and
/// logging ones (`excluded_props` of confluentinc/kafka-images kafka/include/etc/confluent/
/// docker/kafka.properties.template; the Apache image's `KafkaDockerWrapper` leaves out the
/// same, see [`docker_wrapper_excludes`]). The shipped list has a typo (a missing comma after
/// `KAFKA_HEAP_OPTS`) that writes `heap.opts` and `log4j.opts` into the file; Kafka ignores
/// those, and so does kafkalint.
const JVM_VARS: &[&str] = &[
    "KAFKA_VERSION",
    "KAFKA_HEAP_OPTS",
    "KAFKA_LOG4J_OPTS",
    "KAFKA_OPTS",
    "KAFKA_JMX_OPTS",
    "KAFKA_JVM_PERFORMANCE_OPTS",
    "KAFKA_GC_LOG_OPTS",
    "KAFKA_LOG4J_ROOT_LOGLEVEL",
    "KAFKA_LOG4J_LOGGERS",
    "KAFKA_TOOLS_LOG4J_LOGLEVEL",
];

/// The TLS inputs of the Apache and Confluent `configure` scripts: file names under
/// /etc/kafka/secrets from which they set `ssl.*.location` and read the passwords. The script
/// writes them into the file too, where Kafka ignores them; kafkalint reads them as inputs.
const TLS_INPUTS: &[&str] = &[
    "KAFKA_SSL_KEYSTORE_FILENAME",
    "KAFKA_SSL_KEY_CREDENTIALS",
    "KAFKA_SSL_KEYSTORE_CREDENTIALS",
    "KAFKA_SSL_TRUSTSTORE_FILENAME",
    "KAFKA_SSL_TRUSTSTORE_CREDENTIALS",
];

/// Settings from `KAFKA_*` variables by `convert` (`None`: not a setting), in variable order.
fn from_prefix(vars: &[Var], convert: impl Fn(&str) -> Option<String>) -> Vec<Setting> {
    vars.iter()
        .enumerate()
        .filter_map(|(index, var)| {
            convert(&var.name).map(|key| Setting {
                key,
                value: var.value.clone(),
                origin: Origin::Var(index),
            })
        })
        .collect()
}

/// The `configure` scripts' TLS and listener steps, shared by the Apache and Confluent images.
fn configure_steps(vars: &[Var], controller_only: bool, settings: &mut Vec<Setting>) {
    let advertised = lookup(vars, "KAFKA_ADVERTISED_LISTENERS");
    if !is_set(vars, "KAFKA_LISTENERS")
        && !controller_only
        && let Some((index, var)) = advertised.filter(|(_, var)| var.value.as_deref() != Some(""))
    {
        settings.push(Setting {
            key: "listeners".into(),
            value: var.value.as_deref().map(listeners_from_advertised),
            origin: Origin::DerivedFrom(index),
        });
    }
    let Some((index, advertised)) = advertised else {
        return;
    };
    if !advertised
        .value
        .as_deref()
        .is_none_or(|value| value.contains("SSL://"))
    {
        return;
    }
    let mut derive = |key: &str, input: &str, location: bool| {
        if let Some((_, var)) = lookup(vars, input) {
            settings.push(Setting {
                key: key.into(),
                // The password is read from the file: its value is not in the compose file.
                value: match (location, &var.value) {
                    (true, Some(name)) => Some(format!("/etc/kafka/secrets/{name}")),
                    _ => None,
                },
                origin: Origin::DerivedFrom(index),
            });
        }
    };
    derive("ssl.keystore.location", "KAFKA_SSL_KEYSTORE_FILENAME", true);
    derive("ssl.key.password", "KAFKA_SSL_KEY_CREDENTIALS", false);
    derive(
        "ssl.keystore.password",
        "KAFKA_SSL_KEYSTORE_CREDENTIALS",
        false,
    );
    derive(
        "ssl.truststore.location",
        "KAFKA_SSL_TRUSTSTORE_FILENAME",
        true,
    );
    derive(
        "ssl.truststore.password",
        "KAFKA_SSL_TRUSTSTORE_CREDENTIALS",
        false,
    );
}

fn process_roles_is_controller(vars: &[Var]) -> bool {
    lookup(vars, "KAFKA_PROCESS_ROLES")
        .is_some_and(|(_, var)| var.value.as_deref() == Some("controller"))
}

/// apache/kafka and apache/kafka-native (3.7 and later), as the released image runs (apache/kafka
/// at tags 3.7.0 to 3.9.0, docker/resources/common-scripts/`run`, `configureDefaults`,
/// `configure`, docker/jvm/`launch`): `configureDefaults` sets only `CLUSTER_ID` (not a
/// setting); `configure` derives `listeners` from the advertised listeners and the TLS
/// settings; `launch` runs `KafkaDockerWrapper setup`, which writes every `KAFKA_*` variable
/// ([`docker_wrapper`]). Every key no variable sets takes Kafka's own default. When nothing is
/// written at all, the wrapper copies the release's sample single-node file instead:
/// `translate` then returns nothing, and the caller says so.
fn apache(vars: &[Var], tag: Option<&str>) -> Vec<Setting> {
    let release = tag.and_then(|tag| tag_kafka_release(Image::Apache, tag));
    let mut vars = vars.to_vec();
    let controller_only = process_roles_is_controller(&vars);
    if controller_only {
        // `configure` unsets it for a controller (and exits if it is set and not empty).
        vars.retain(|var| var.name != "KAFKA_ADVERTISED_LISTENERS");
    }
    let mut settings = docker_wrapper(&vars, release);
    // The image's inputs that name a file or a password file are written too (as
    // `ssl.keystore.filename`): Kafka ignores them.
    settings.retain(|setting| match setting.origin {
        Origin::Var(index) => !TLS_INPUTS.contains(&vars[index].name.as_str()),
        _ => true,
    });
    configure_steps(&vars, controller_only, &mut settings);
    settings
}

/// Whether `KafkaDockerWrapper` leaves variable `name` out of `server.properties`: its
/// `Constants.ExcludeServerPropsEnv` is the JVM and logging variables and `KAFKA_JMX_HOSTNAME`
/// (dumped from the kafka_2.13 jars of 3.7.2, 3.8.1, 3.9.2 and 4.0.0 to 4.4.0: the same list,
/// which `tests/docker_wrapper.rs` holds kafkalint to). 3.7.0 alone lists `KAFKA_HEAP_OPT`, a
/// typo fixed in 3.7.1, and so writes `heap.opts`, which Kafka ignores.
fn docker_wrapper_excludes(name: &str) -> bool {
    JVM_VARS.contains(&name) || name == "KAFKA_JMX_HOSTNAME"
}

/// The key `KafkaDockerWrapper.getServerConfigsFromEnv` writes for variable `name`: the
/// `KAFKA_` prefix removed (3.7 to 3.9 remove every `KAFKA_` in the name, with `String.replace`;
/// 4.0 and later the first, with `replaceFirst`: read from the jars' bytecode), lower case,
/// `_` to `.`, then `...` to `-` and `..` to `_` (`KAFKA_LISTENER__NAME___X` is
/// `listener_name-x`). `release` is the image's (`None`: the newest).
pub fn docker_wrapper_key(name: &str, release: Option<KafkaVersion>) -> String {
    let every = release.is_some_and(|release| release < KafkaVersion::new(4, 0));
    let name = if every {
        name.replace("KAFKA_", "")
    } else {
        name.replacen("KAFKA_", "", 1)
    };
    name.to_lowercase()
        .replace('_', ".")
        .replace("...", "-")
        .replace("..", "_")
}

/// What `KafkaDockerWrapper setup` (in the Kafka jar since 3.7, the apache/kafka image's
/// `launch`) writes to `server.properties` for an environment, with no file mounted: a line
/// `key=value` for every variable whose name starts with `KAFKA_` and is not excluded, then
/// read by Kafka with `Properties.load` (so a value's escapes and separators are read as a
/// `.properties` line's). `release` is the image's (`None`: the newest). An empty result means
/// the wrapper falls back to the release's sample file. `tests/docker_wrapper.rs` holds this
/// against the wrapper of the real jars.
pub fn docker_wrapper(vars: &[Var], release: Option<KafkaVersion>) -> Vec<Setting> {
    let mut settings = Vec::new();
    for (index, var) in vars.iter().enumerate() {
        if !var.name.starts_with("KAFKA_") || docker_wrapper_excludes(&var.name) {
            continue;
        }
        let key = docker_wrapper_key(&var.name, release);
        let Some(value) = &var.value else {
            settings.push(Setting {
                key,
                value: None,
                origin: Origin::Var(index),
            });
            continue;
        };
        let line = format!("{key}={value}");
        let (file, _) = crate::properties::parse_lenient(line.as_bytes());
        settings.extend(file.entries.into_iter().map(|entry| Setting {
            key: entry.key,
            value: Some(entry.value),
            origin: Origin::Var(index),
        }));
    }
    settings
}

/// confluentinc/cp-kafka: `configure` requires `KAFKA_ADVERTISED_LISTENERS` (except on a
/// KRaft controller), derives `listeners` from it, defaults `KAFKA_LOG_DIRS` to
/// /var/lib/kafka/data, sets the TLS settings; `kafka.properties.template` writes every
/// `KAFKA_*` variable but the excluded ones with `env_to_props('KAFKA_', '')` (the `___`,
/// `__`, `_` conversion of [`convert_key`]).
fn confluent(vars: &[Var]) -> Vec<Setting> {
    let controller_only = process_roles_is_controller(vars);
    let mut settings = from_prefix(vars, |name| {
        name.strip_prefix("KAFKA_")
            .filter(|_| !JVM_VARS.contains(&name) && !TLS_INPUTS.contains(&name))
            .map(convert_key)
    });
    configure_steps(vars, controller_only, &mut settings);
    if !is_set(vars, "KAFKA_LOG_DIRS") {
        settings.push(Setting {
            key: "log.dirs".into(),
            value: Some("/var/lib/kafka/data".into()),
            origin: Origin::Image,
        });
    }
    settings
}

/// confluentinc/confluent-local: its `configureDefaults` (kafka-images
/// local/include/etc/confluent/docker/configureDefaults at 5a1c9b21) exports each of these
/// variables that is unset or empty, then cp-kafka's `configure` runs; its
/// kafka-propertiesSpec.json leaves the `KAFKA_REST_` variables of the REST proxy, which runs in
/// the same container, out of the broker's file.
const CONFLUENT_LOCAL_DEFAULTS: &[(&str, &str)] = &[
    ("KAFKA_NODE_ID", "1"),
    (
        "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
        "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PLAINTEXT_HOST:PLAINTEXT",
    ),
    (
        "KAFKA_LISTENERS",
        "PLAINTEXT://localhost:29092,CONTROLLER://localhost:29093,PLAINTEXT_HOST://0.0.0.0:9092",
    ),
    (
        "KAFKA_ADVERTISED_LISTENERS",
        "PLAINTEXT://localhost:29092,PLAINTEXT_HOST://localhost:9092",
    ),
    ("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1"),
    ("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0"),
    ("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1"),
    ("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1"),
    ("KAFKA_PROCESS_ROLES", "broker,controller"),
    ("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@localhost:29093"),
    ("KAFKA_INTER_BROKER_LISTENER_NAME", "PLAINTEXT"),
    ("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER"),
    ("KAFKA_LOG_DIRS", "/tmp/kraft-combined-logs"),
];

fn confluent_local(vars: &[Var]) -> Vec<Setting> {
    let mut all = vars.to_vec();
    for (name, value) in CONFLUENT_LOCAL_DEFAULTS {
        if !is_set(vars, name) {
            all.push(Var {
                name: (*name).into(),
                value: Some((*value).into()),
            });
        }
    }
    // What a default wrote is the image's; the REST proxy's variables are not the broker's,
    // and a variable set empty gives way to its default.
    let written = |index: usize| index < vars.len();
    let replaced = |index: usize| {
        written(index)
            && all[index].value.as_deref() == Some("")
            && CONFLUENT_LOCAL_DEFAULTS
                .iter()
                .any(|(name, _)| *name == all[index].name)
    };
    confluent(&all)
        .into_iter()
        .filter_map(|setting| {
            let index = match setting.origin {
                Origin::Var(index) | Origin::DerivedFrom(index) => index,
                Origin::Image => return Some(setting),
            };
            if all[index].name.starts_with("KAFKA_REST_") || replaced(index) {
                return None;
            }
            Some(if written(index) {
                setting
            } else {
                Setting {
                    origin: Origin::Image,
                    ..setting
                }
            })
        })
        .collect()
}

/// The settings of Kafka's own `config/server.properties` (the ZooKeeper-era file, and the
/// KRaft one of 4.0) that the Bitnami and wurstmeister images start from and that no variable
/// set: single-replica internal topics (see KAFKA-FACTS: `config/server.properties`).
fn stock_file_settings(kafka4: bool) -> Vec<Setting> {
    let mut keys = vec![
        ("offsets.topic.replication.factor", "1"),
        ("transaction.state.log.replication.factor", "1"),
        ("transaction.state.log.min.isr", "1"),
    ];
    if kafka4 {
        keys.push(("share.coordinator.state.topic.replication.factor", "1"));
        keys.push(("share.coordinator.state.topic.min.isr", "1"));
    }
    keys.into_iter()
        .map(|(key, value)| Setting {
            key: key.into(),
            value: Some(value.into()),
            origin: Origin::Image,
        })
        .collect()
}

/// Why confluentinc/cp-kafka's `configure` (kafka-images kafka/include/etc/confluent/docker,
/// read at v6.0.0, v7.4.0, v7.9.0 and v8.0.0) stops a container with `vars` before Kafka starts.
/// `dub ensure NAME` stops it when the variable is absent from the environment (the utility's
/// `os.LookupEnv`; set empty passes). Up to CP 7.3 (Kafka 3.3) the script has no KRaft branch: it
/// ensures `KAFKA_ZOOKEEPER_CONNECT` and `KAFKA_ADVERTISED_LISTENERS` whatever the roles; CP 7.4
/// to 7.9 ensure `CLUSTER_ID` for a node with roles, and the ZooKeeper pair otherwise; CP 8
/// (Kafka 4) ensures `KAFKA_PROCESS_ROLES` and `CLUSTER_ID`. From 7.4, a controller given
/// `KAFKA_ADVERTISED_LISTENERS` stops, and other nodes ensure them. Every release stops on the
/// old `KAFKA_ADVERTISED_PORT`, `KAFKA_ADVERTISED_HOST`, `KAFKA_HOST` and `KAFKA_PORT`.
pub fn confluent_exit(tag: Option<&str>, vars: &[Var]) -> Option<(String, String)> {
    let release = tag_kafka_release(Image::Confluent, tag?)?;
    let present = |name: &str| lookup(vars, name).is_some();
    let exit = |why: String, help: &str| Some((why, help.to_string()));
    for name in [
        "KAFKA_ADVERTISED_PORT",
        "KAFKA_ADVERTISED_HOST",
        "KAFKA_HOST",
        "KAFKA_PORT",
    ] {
        // `-n "${NAME-}"`: set and not empty (a value Compose takes from the shell is not
        // known, and not judged).
        if lookup(vars, name)
            .is_some_and(|(_, var)| var.value.as_deref().is_some_and(|v| !v.is_empty()))
        {
            return exit(
                format!("{name} is set, an old host or port variable the image refuses"),
                "remove it and say where the broker listens and is reached with KAFKA_LISTENERS and KAFKA_ADVERTISED_LISTENERS",
            );
        }
    }
    let ensure = |name: &str| -> Option<(String, String)> {
        (!present(name)).then(|| {
            (
                format!("{name} is not set, and the image requires it (`dub ensure {name}`)"),
                format!("set {name} in the service's environment"),
            )
        })
    };
    let roles = lookup(vars, "KAFKA_PROCESS_ROLES").map(|(_, var)| var.value.as_deref());
    let has_roles = roles.is_some_and(|value| value != Some(""));
    if release < KafkaVersion::new(3, 4) {
        return ensure("KAFKA_ZOOKEEPER_CONNECT").or_else(|| ensure("KAFKA_ADVERTISED_LISTENERS"));
    }
    if release < KafkaVersion::new(4, 0) && !has_roles {
        return ensure("KAFKA_ZOOKEEPER_CONNECT").or_else(|| ensure("KAFKA_ADVERTISED_LISTENERS"));
    }
    if let Some(missing) = ensure("KAFKA_PROCESS_ROLES").or_else(|| ensure("CLUSTER_ID")) {
        return Some(missing);
    }
    let advertised = lookup(vars, "KAFKA_ADVERTISED_LISTENERS")
        .map(|(_, var)| var.value.as_deref())
        .filter(|value| *value != Some(""));
    if roles == Some(Some("controller")) {
        return advertised.is_some().then(|| {
            (
                "KAFKA_ADVERTISED_LISTENERS is set on a controller (KAFKA_PROCESS_ROLES=controller), which the image refuses".to_string(),
                "remove KAFKA_ADVERTISED_LISTENERS from the controller's environment: a controller is reached at the address in KAFKA_CONTROLLER_QUORUM_VOTERS".to_string(),
            )
        });
    }
    ensure("KAFKA_ADVERTISED_LISTENERS")
}

/// Why apache/kafka's `configure` stops a container with `vars` before Kafka starts, for a tag
/// whose script kafkalint has read (3.7 to 3.9: docker/resources/common-scripts/configure at
/// 3.7.0, 3.8.0 and 3.9.0-rc3, the same checks): a controller given advertised listeners; an
/// `SSL://` or `SASL_SSL://` advertised listener without the keystore file and credential names
/// (and the truststore's when `KAFKA_SSL_CLIENT_AUTH` asks for client certificates); a `SASL_`
/// one without `KAFKA_OPTS` (where the JAAS file is named). A value Compose takes from the shell
/// counts as set.
pub fn apache_exit(tag: Option<&str>, vars: &[Var]) -> Option<(String, String)> {
    let release = tag_kafka_release(Image::Apache, tag?)?;
    if !(KafkaVersion::new(3, 7)..=KafkaVersion::new(3, 9)).contains(&release) {
        return None;
    }
    let value = |name: &str| lookup(vars, name).map(|(_, var)| var.value.as_deref());
    let advertised = value("KAFKA_ADVERTISED_LISTENERS").filter(|value| *value != Some(""));
    if process_roles_is_controller(vars) && advertised.is_some() {
        return Some((
            "KAFKA_ADVERTISED_LISTENERS is set on a controller (KAFKA_PROCESS_ROLES=controller), \
             which the image refuses"
                .into(),
            "remove KAFKA_ADVERTISED_LISTENERS from the controller's environment: a controller is \
             reached at the address in KAFKA_CONTROLLER_QUORUM_VOTERS"
                .into(),
        ));
    }
    // Unknown (from the shell): it may hold anything.
    let Some(Some(advertised)) = advertised else {
        return None;
    };
    let mut needed: Vec<&'static str> = Vec::new();
    if advertised.contains("SSL://") {
        needed.extend([
            "KAFKA_SSL_KEYSTORE_FILENAME",
            "KAFKA_SSL_KEY_CREDENTIALS",
            "KAFKA_SSL_KEYSTORE_CREDENTIALS",
        ]);
        let client_auth = value("KAFKA_SSL_CLIENT_AUTH").flatten().unwrap_or_default();
        if client_auth.contains("required") || client_auth.contains("requested") {
            needed.extend([
                "KAFKA_SSL_TRUSTSTORE_FILENAME",
                "KAFKA_SSL_TRUSTSTORE_CREDENTIALS",
            ]);
        }
    }
    let sasl = advertised
        .find("SASL_")
        .is_some_and(|at| advertised[at..].contains("://"));
    if sasl {
        needed.push("KAFKA_OPTS");
    }
    let name = needed.into_iter().find(|name| !is_set(vars, name))?;
    Some((
        format!(
            "an {} advertised listener needs {name}, which is not set",
            if name == "KAFKA_OPTS" { "SASL" } else { "SSL" }
        ),
        if name == "KAFKA_OPTS" {
            "set KAFKA_OPTS to -Djava.security.auth.login.config=<the JAAS file mounted in the container>"
                .into()
        } else {
            format!("set {name} to the name of its file in /etc/kafka/secrets (a mounted volume)")
        },
    ))
}

/// Which start-up scripts a bitnami/kafka tag runs, as far as they decide a node's mode. From
/// bitnami/containers' bitnami/kafka README ("Notable Changes") and the line's libkafka.sh and
/// kafka-env.sh: KRaft became the default (`KAFKA_ENABLE_KRAFT=yes`, Kafka started from
/// `config/kraft/server.properties`) at 3.2.3-debian-11-r73, 3.3.2-debian-11-r29 and
/// 3.4.0-debian-11-r23; the refactor at 3.2.3-r161, 3.3.2-r176, 3.4.1-r50 and 3.5.1-r4 removed
/// `KAFKA_ENABLE_KRAFT` and made `KAFKA_CFG_PROCESS_ROLES` or `KAFKA_CFG_ZOOKEEPER_CONNECT`
/// required (libkafka.sh `kafka_validate`); every later line has the refactored scripts, and
/// 4.x requires the roles. A tag without a revision (`3.5`, `3.5.1`) pulls the newest build of
/// what it names. `None` for a tag that names no release (`latest`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitnamiBuild {
    /// Up to the KRaft default: a node without roles is a ZooKeeper broker.
    ZooKeeperDefault,
    /// A node without roles is a combined KRaft node from Kafka's KRaft sample file.
    KraftDefault,
    /// The roles (or, before 4.0, `zookeeper.connect`) must be set, or the container exits.
    ModeRequired,
}

pub fn bitnami_build(tag: &str) -> Option<BitnamiBuild> {
    use BitnamiBuild::*;
    let release = release_prefix(tag)?;
    let patch: Option<u32> = tag
        .split('-')
        .next()?
        .split('.')
        .nth(2)
        .and_then(|patch| patch.parse().ok());
    let revision: Option<u32> = tag
        .rsplit('-')
        .next()
        .filter(|last| *last != tag)
        .and_then(|last| last.strip_prefix('r'))
        .and_then(|number| number.parse().ok());
    // The build of `patch` at `revision`, given where the KRaft default and the refactor came in
    // (`None`: that patch release never had that stage).
    let stage = |patch_of_changes: u32, kraft_from: Option<u32>, refactor_from: Option<u32>| match (
        patch, revision,
    ) {
        (None, _) => ModeRequired,
        (Some(p), _) if p > patch_of_changes => ModeRequired,
        (Some(p), _) if p < patch_of_changes => ZooKeeperDefault,
        (Some(_), None) => {
            if refactor_from.is_some() {
                ModeRequired
            } else {
                KraftDefault
            }
        }
        (Some(_), Some(r)) => {
            if refactor_from.is_some_and(|from| r >= from) {
                ModeRequired
            } else if kraft_from.is_none_or(|from| r >= from) {
                KraftDefault
            } else {
                ZooKeeperDefault
            }
        }
    };
    Some(match (release.major, release.minor) {
        (0..=2, _) | (3, 0..=1) => ZooKeeperDefault,
        (3, 2) => stage(3, Some(73), Some(161)),
        (3, 3) => stage(2, Some(29), Some(176)),
        // 3.4.0 turned KRaft on at r23 and 3.4.1 was refactored at r50.
        (3, 4) => match patch {
            Some(0) => stage(0, Some(23), None),
            _ => stage(1, Some(0), Some(50)),
        },
        // Every 3.5.0 build defaults to KRaft; 3.5.1 was refactored at r4.
        (3, 5) => match patch {
            Some(0) => KraftDefault,
            _ => stage(1, Some(0), Some(4)),
        },
        _ => ModeRequired,
    })
}

/// Why bitnami/kafka's scripts stop a container with these settings before Kafka starts, for a
/// tag whose scripts are known (see [`bitnami_build`]).
pub fn bitnami_exit(
    tag: Option<&str>,
    vars: &[Var],
    settings: &[Setting],
) -> Option<(String, String)> {
    let tag = tag?;
    if bitnami_build(tag)? != BitnamiBuild::ModeRequired {
        return bitnami_plaintext_exit(vars, settings);
    }
    let set = |key: &str| {
        settings
            .iter()
            .any(|setting| setting.key == key && setting.origin != Origin::Image)
    };
    if set("process.roles") {
        return None;
    }
    let release = release_prefix(tag)?;
    let help = "set KAFKA_CFG_PROCESS_ROLES with KAFKA_CFG_NODE_ID, \
                KAFKA_CFG_CONTROLLER_QUORUM_VOTERS and KAFKA_CFG_CONTROLLER_LISTENER_NAMES, or on \
                3.x KAFKA_CFG_ZOOKEEPER_CONNECT for a ZooKeeper broker"
        .to_string();
    if release >= KafkaVersion::new(4, 0) {
        return Some((
            "KAFKA_CFG_PROCESS_ROLES is not set, and Kafka 4 has no ZooKeeper mode".into(),
            help,
        ));
    }
    (!set("zookeeper.connect")).then(|| {
        (
            "neither KAFKA_CFG_PROCESS_ROLES nor KAFKA_CFG_ZOOKEEPER_CONNECT is set, so the node \
             has no mode"
                .into(),
            help,
        )
    })
}

/// bitnami/kafka (libkafka.sh): `kafka_initialize` copies Kafka's `server.properties`,
/// comments out its ZooKeeper- and KRaft-specific lines (`kafka_server_unify_conf`), sets
/// `log.dirs` to `$KAFKA_DATA_DIR` (/bitnami/kafka/data), then `kafka_configure_from_
/// environment_variables` writes each `KAFKA_CFG_*` variable: prefix removed, `_` to `.`,
/// lower-cased, `sasl.ssl`/`sasl.plaintext` back to `sasl_ssl`/`sasl_plaintext`, and
/// `KAFKA_CFG_ZOOKEEPER_CLIENTCNXNSOCKET` to `zookeeper.clientCnxnSocket`. Before that,
/// `kafka_create_alias_environment_variables` copies the legacy `KAFKA_<SUFFIX>` variables
/// over their `KAFKA_CFG_<SUFFIX>` names.
/// The builds before the refactor (ZooKeeper by default, then KRaft by default) stop a
/// container whose listeners are all plaintext unless `ALLOW_PLAINTEXT_LISTENER` is yes:
/// `kafka_validate` in their libkafka.sh (bitnami/containers,
/// bitnami/kafka/<line>/debian-11/rootfs/opt/bitnami/scripts/libkafka.sh, read for the 3.x lines
/// before the refactor, and the 2.x line's) tests `KAFKA_CFG_LISTENERS` and the protocol map for
/// secure protocols (`SASL_SSL` in the 2.x scripts; `SSL` and `SASL` in later ones), and
/// otherwise prints "The KAFKA_CFG_LISTENERS environment variable does not configure a secure
/// listener" and exits; the refactor removed `ALLOW_PLAINTEXT_LISTENER`. Only listeners that
/// name no TLS or SASL protocol at all are judged, since every build stops on those; an
/// unknown value is not, and `true` or `1` count as yes although the oldest scripts took `yes`
/// only (a miss, never a false alarm).
fn bitnami_plaintext_exit(vars: &[Var], settings: &[Setting]) -> Option<(String, String)> {
    // kafka-env.sh reads `<NAME>_FILE` into `<NAME>`: a value kept in a file is not known.
    if [
        "ALLOW_PLAINTEXT_LISTENER_FILE",
        "KAFKA_CFG_LISTENERS_FILE",
        "KAFKA_CFG_LISTENER_SECURITY_PROTOCOL_MAP_FILE",
    ]
    .iter()
    .any(|name| lookup(vars, name).is_some())
    {
        return None;
    }
    // The scripts test their variables: the listeners their kafka-env.sh defaults, the
    // protocol map only as a variable sets it (not the sample file's line).
    let from_variable = |key: &str, setting: &&Setting| {
        setting.key == key && (key == "listeners" || setting.origin != Origin::Image)
    };
    let mut listed = String::new();
    for key in ["listeners", "listener.security.protocol.map"] {
        if let Some(setting) = settings.iter().rev().find(|s| from_variable(key, s)) {
            listed.push_str(setting.value.as_deref()?);
            listed.push(',');
        }
    }
    if listed.contains("SSL") || listed.contains("SASL") {
        return None;
    }
    if let Some((_, allow)) = lookup(vars, "ALLOW_PLAINTEXT_LISTENER") {
        let allow = allow.value.as_deref()?.to_ascii_lowercase();
        if ["yes", "true", "1"].contains(&allow.as_str()) {
            return None;
        }
    }
    Some((
        "every listener is plaintext and ALLOW_PLAINTEXT_LISTENER is not yes, which this build \
         refuses"
            .into(),
        "set ALLOW_PLAINTEXT_LISTENER=yes (for development), or configure an SSL or SASL_SSL \
         listener"
            .into(),
    ))
}

/// Kafka's `config/kraft/server.properties` (3.2 to 3.5, the same lines), which the builds that
/// default to KRaft start from (`KAFKA_CONF_FILE` in their kafka-env.sh), with the listeners
/// their kafka-env.sh exports by default (`KAFKA_CFG_LISTENERS`, `KAFKA_CFG_ADVERTISED_LISTENERS`):
/// a service that sets no roles is this combined node.
const BITNAMI_KRAFT_DEFAULTS: &[(&str, &str)] = &[
    ("process.roles", "broker,controller"),
    ("node.id", "1"),
    ("controller.quorum.voters", "1@localhost:9093"),
    ("listeners", "PLAINTEXT://:9092,CONTROLLER://:9093"),
    ("inter.broker.listener.name", "PLAINTEXT"),
    ("advertised.listeners", "PLAINTEXT://:9092"),
    ("controller.listener.names", "CONTROLLER"),
    (
        "listener.security.protocol.map",
        "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
    ),
];

fn bitnami(tag: Option<&str>, vars: &[Var]) -> Vec<Setting> {
    const ALIASED_SUFFIXES: &[&str] = &[
        "ADVERTISED_LISTENERS",
        "BROKER_ID",
        "NODE_ID",
        "CONTROLLER_QUORUM_VOTERS",
        "PROCESS_ROLES",
        "DEFAULT_REPLICATION_FACTOR",
        "DELETE_TOPIC_ENABLE",
        "INTER_BROKER_LISTENER_NAME",
        "LISTENERS",
        "LISTENER_SECURITY_PROTOCOL_MAP",
        "LOG_DIRS",
        "LOG_FLUSH_INTERVAL_MESSAGES",
        "LOG_FLUSH_INTERVAL_MS",
        "LOG_MESSAGE_FORMAT_VERSION",
        "LOG_RETENTION_BYTES",
        "LOG_RETENTION_CHECK_INTERVALS_MS",
        "LOG_RETENTION_HOURS",
        "LOG_SEGMENT_BYTES",
        "MESSAGE_MAX_BYTES",
        "NUM_IO_THREADS",
        "NUM_NETWORK_THREADS",
        "NUM_PARTITIONS",
        "NUM_RECOVERY_THREADS_PER_DATA_DIR",
        "OFFSETS_TOPIC_REPLICATION_FACTOR",
        "SOCKET_RECEIVE_BUFFER_BYTES",
        "SOCKET_REQUEST_MAX_BYTES",
        "SOCKET_SEND_BUFFER_BYTES",
        "SSL_ENDPOINT_IDENTIFICATION_ALGORITHM",
        "TRANSACTION_STATE_LOG_MIN_ISR",
        "TRANSACTION_STATE_LOG_REPLICATION_FACTOR",
        "ZOOKEEPER_CONNECT",
        "ZOOKEEPER_CONNECTION_TIMEOUT_MS",
    ];
    const RENAMED: &[(&str, &str)] = &[
        ("KAFKA_LOGS_DIRS", "LOG_DIRS"),
        ("KAFKA_SEGMENT_BYTES", "LOG_SEGMENT_BYTES"),
        ("KAFKA_MAX_MESSAGE_BYTES", "MESSAGE_MAX_BYTES"),
        (
            "KAFKA_ZOOKEEPER_CONNECT_TIMEOUT_MS",
            "ZOOKEEPER_CONNECTION_TIMEOUT_MS",
        ),
        (
            "KAFKA_AUTO_CREATE_TOPICS_ENABLE",
            "AUTO_CREATE_TOPICS_ENABLE",
        ),
    ];
    let kafka4 = tag
        .and_then(|tag| tag.split(['.', '-']).next())
        .and_then(|major| major.parse::<u32>().ok())
        .is_some_and(|major| major >= 4);
    let mut settings = stock_file_settings(kafka4);
    // `KAFKA_ENABLE_KRAFT=no` (or false) picks the ZooKeeper file on these builds.
    // `KAFKA_ENABLE_KRAFT` defaults to yes on these builds (`${KAFKA_ENABLE_KRAFT:-yes}`, so
    // empty is yes too), and the scripts' `is_boolean_yes` takes yes, true and 1 in any case:
    // any other value picks the ZooKeeper file.
    let kraft_file = tag.and_then(bitnami_build) == Some(BitnamiBuild::KraftDefault)
        && lookup(vars, "KAFKA_ENABLE_KRAFT").is_none_or(|(_, var)| {
            var.value.as_deref().is_none_or(|value| {
                ["", "yes", "true", "1"].contains(&value.to_ascii_lowercase().as_str())
            })
        });
    if kraft_file {
        settings.extend(BITNAMI_KRAFT_DEFAULTS.iter().map(|(key, value)| Setting {
            key: (*key).into(),
            value: Some((*value).into()),
            origin: Origin::Image,
        }));
    }
    settings.push(Setting {
        key: "log.dirs".into(),
        value: Some("/bitnami/kafka/data".into()),
        origin: Origin::Image,
    });
    // The kafka-env.sh of the 2.x and 3.x lines read exports this default, and every exported
    // KAFKA_CFG_ variable is written: not Kafka's GSSAPI. (Older lines' scripts were not read.)
    if tag
        .and_then(release_prefix)
        .is_none_or(|release| release >= KafkaVersion::new(2, 0))
    {
        settings.push(Setting {
            key: "sasl.enabled.mechanisms".into(),
            value: Some("PLAIN,SCRAM-SHA-256,SCRAM-SHA-512".into()),
            origin: Origin::Image,
        });
    }
    // Which variable ends up as each KAFKA_CFG_ name: the legacy alias overrides it.
    let mut effective: Vec<(String, usize)> = Vec::new();
    for (index, var) in vars.iter().enumerate() {
        if let Some(suffix) = var.name.strip_prefix("KAFKA_CFG_") {
            effective.retain(|(name, _)| name != suffix);
            effective.push((suffix.to_string(), index));
        }
    }
    let mut aliases: Vec<(&str, &str)> = RENAMED.to_vec();
    let legacy: Vec<String> = ALIASED_SUFFIXES
        .iter()
        .map(|s| format!("KAFKA_{s}"))
        .collect();
    aliases.extend(
        legacy
            .iter()
            .map(String::as_str)
            .zip(ALIASED_SUFFIXES.iter().copied()),
    );
    for (original, suffix) in aliases {
        if let Some((index, _)) = lookup(vars, original) {
            effective.retain(|(name, _)| name != suffix);
            effective.push((suffix.to_string(), index));
        }
    }
    effective.sort_by_key(|(_, index)| *index);
    for (suffix, index) in effective {
        let key = if suffix == "ZOOKEEPER_CLIENTCNXNSOCKET" {
            "zookeeper.clientCnxnSocket".to_string()
        } else {
            suffix
                .replace('_', ".")
                .to_lowercase()
                .replace("sasl.ssl", "sasl_ssl")
                .replace("sasl.plaintext", "sasl_plaintext")
        };
        settings.push(Setting {
            key,
            value: vars[index].value.clone(),
            origin: Origin::Var(index),
        });
    }
    settings
}

/// wurstmeister/kafka (start-kafka.sh): unset `KAFKA_BROKER_ID` becomes -1 (Kafka then
/// generates an id), unset `KAFKA_LOG_DIRS` becomes /kafka/kafka-logs-$HOSTNAME; every
/// `KAFKA_*` variable but the excluded ones replaces or appends its setting in Kafka's
/// `server.properties`: the name after the first `_`, lower-cased, `_` to `.`.
fn wurstmeister(vars: &[Var]) -> Vec<Setting> {
    // start-kafka.sh `EXCLUSIONS`, and the variables its helpers read for themselves
    // (create-topics.sh and the listener assembly from the protocol names).
    const EXCLUDED: &[&str] = &[
        "KAFKA_VERSION",
        "KAFKA_HOME",
        "KAFKA_DEBUG",
        "KAFKA_GC_LOG_OPTS",
        "KAFKA_HEAP_OPTS",
        "KAFKA_JMX_OPTS",
        "KAFKA_JVM_PERFORMANCE_OPTS",
        "KAFKA_LOG",
        "KAFKA_OPTS",
        "KAFKA_CREATE_TOPICS",
        "KAFKA_ADVERTISED_PROTOCOL_NAME",
        "KAFKA_PROTOCOL_NAME",
        "KAFKA_INTER_BROKER_PORT",
    ];
    let mut settings = stock_file_settings(false);
    if !is_set(vars, "KAFKA_BROKER_ID") {
        settings.push(Setting {
            key: "broker.id".into(),
            value: Some("-1".into()),
            origin: Origin::Image,
        });
    }
    if !is_set(vars, "KAFKA_LOG_DIRS") {
        settings.push(Setting {
            key: "log.dirs".into(),
            // One folder per container host name: a placeholder for what the script fills in.
            value: Some("/kafka/kafka-logs-${HOSTNAME}".into()),
            origin: Origin::Image,
        });
    }
    settings.extend(from_prefix(vars, |name| {
        (name.starts_with("KAFKA_") && !EXCLUDED.contains(&name))
            .then(|| {
                name.split_once('_')
                    .map(|(_, rest)| rest.to_lowercase().replace('_', "."))
            })
            .flatten()
    }));
    settings
}

#[cfg(test)]
pub(in crate::sources) mod tests {
    use super::*;

    /// Variables set to values, as a compose file lists them (also for the component images' tests).
    pub(in crate::sources) fn vars(pairs: &[(&str, &str)]) -> Vec<Var> {
        pairs
            .iter()
            .map(|(name, value)| Var {
                name: (*name).into(),
                value: Some((*value).into()),
            })
            .collect()
    }

    fn keys(settings: &[Setting]) -> Vec<(String, Option<String>)> {
        settings
            .iter()
            .map(|s| (s.key.clone(), s.value.clone()))
            .collect()
    }

    /// The setting Kafka uses for `key`: the last one.
    pub(in crate::sources) fn get<'a>(settings: &'a [Setting], key: &str) -> Option<&'a Setting> {
        settings.iter().rev().find(|s| s.key == key)
    }

    #[test]
    fn convert_key_as_the_utility_converts() {
        // The examples of utility.go's ConvertKey doc and ub_test.go.
        assert_eq!(
            convert_key("OFFSETS_TOPIC_REPLICATION_FACTOR"),
            "offsets.topic.replication.factor"
        );
        assert_eq!(
            convert_key("LISTENER_NAME_SASL__SSL_SCRAM___SHA___256_SASL_JAAS_CONFIG"),
            "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config"
        );
        assert_eq!(convert_key("FOO__BAR"), "foo_bar");
        assert_eq!(convert_key("FOO___BAR"), "foo-bar");
        // Matches do not overlap: a one-letter segment after a converted one keeps its `_`.
        assert_eq!(convert_key("A_B_C"), "a.b_c");
    }

    fn release(image: Image, tag: &str) -> Option<(u8, u8)> {
        tag_kafka_release(image, tag).map(|version| (version.major, version.minor))
    }

    #[test]
    fn apache_tags_are_kafka_releases() {
        assert_eq!(release(Image::Apache, "3.7.0"), Some((3, 7)));
        assert_eq!(release(Image::Apache, "3.6.0-rc0"), Some((3, 6)));
        assert_eq!(release(Image::Apache, "4.1.1"), Some((4, 1)));
        assert_eq!(release(Image::Apache, "latest"), None);
        assert_eq!(release(Image::Apache, "3"), None);
        assert_eq!(release(Image::Apache, "3.x"), None);
    }

    #[test]
    fn bitnami_tags_are_kafka_releases_with_revisions() {
        assert_eq!(release(Image::Bitnami, "3.6"), Some((3, 6)));
        assert_eq!(release(Image::Bitnami, "2.8.0-debian-10-r28"), Some((2, 8)));
        assert_eq!(release(Image::Bitnami, "1.1.1-r125"), Some((1, 1)));
        // A major line only: which minor runs is not said.
        assert_eq!(release(Image::Bitnami, "3"), None);
        assert_eq!(release(Image::Bitnami, "latest"), None);
    }

    #[test]
    fn wurstmeister_tags_are_scala_then_kafka() {
        assert_eq!(release(Image::Wurstmeister, "2.13-2.8.1"), Some((2, 8)));
        assert_eq!(release(Image::Wurstmeister, "2.11-0.10.2.2"), Some((0, 10)));
        // Not `<scala>-<kafka>`: the Scala version alone is no Kafka release.
        assert_eq!(release(Image::Wurstmeister, "2.13"), None);
        // Its last build, 2.13-2.8.1, is `latest`.
        assert_eq!(release(Image::Wurstmeister, "latest"), Some((2, 8)));
        assert_eq!(release(Image::Wurstmeister, "2.13-2.8.1-extra"), None);
    }

    #[test]
    fn confluent_tags_are_platform_releases() {
        assert_eq!(release(Image::Confluent, "7.4.0"), Some((3, 4)));
        assert_eq!(release(Image::Confluent, "6.2.1"), Some((2, 8)));
        assert_eq!(release(Image::Confluent, "5.5.0"), Some((2, 5)));
        assert_eq!(release(Image::Confluent, "7.6.1-1-ubi8"), Some((3, 6)));
        // No source read for these lines: no hint rather than a guess.
        assert_eq!(release(Image::Confluent, "7.7.0"), Some((3, 7)));
        assert_eq!(release(Image::Confluent, "8.0.1"), Some((4, 0)));
        assert_eq!(release(Image::Confluent, "8.3.0"), Some((4, 3)));
        assert_eq!(release(Image::Confluent, "8.4.0"), None);
        assert_eq!(release(Image::Confluent, "latest"), None);
    }

    #[test]
    fn a_team_image_is_read_as_the_known_image_it_names() {
        let mut aliases = Aliases::default();
        aliases.insert(
            "registry.example.com:5000/platform/kafka",
            "apache/kafka:3.9.0",
        );
        aliases.insert(
            "registry.example.com:5000/platform/kafka:legacy",
            "confluentinc/cp-kafka:6.1.0",
        );
        let resolve = |image: &str| aliases.resolve(image);
        assert_eq!(
            resolve("registry.example.com:5000/platform/kafka:2024.1"),
            Some("apache/kafka:3.9.0")
        );
        assert_eq!(
            resolve("registry.example.com:5000/platform/kafka"),
            Some("apache/kafka:3.9.0")
        );
        // A tag named on its own wins over the name without one.
        assert_eq!(
            resolve("registry.example.com:5000/platform/kafka:legacy"),
            Some("confluentinc/cp-kafka:6.1.0")
        );
        assert_eq!(
            resolve("registry.example.com:5000/platform/kafka:legacy@sha256:00"),
            Some("confluentinc/cp-kafka:6.1.0")
        );
        // Another registry's image of the same path is another image.
        assert_eq!(resolve("other.example.com/platform/kafka:1"), None);
        assert_eq!(resolve("platform/kafka:1"), None);
        assert_eq!(Aliases::refuse_target("apache/kafka:3.9.0"), None);
        assert!(Aliases::refuse_target("apache/kafka").is_some());
        assert!(Aliases::refuse_target("apache/kafka:latest").is_some());
        assert!(Aliases::refuse_target("mycorp/kafka:3.9.0").is_some());
        assert!(Aliases::refuse_name("a/b@sha256:00").is_some());
        assert!(Aliases::refuse_name("").is_some());
        assert_eq!(Aliases::refuse_name("a/b:1"), None);
    }

    #[test]
    fn image_names() {
        assert_eq!(
            classify("confluentinc/cp-kafka:7.5.0"),
            Some(Image::Confluent)
        );
        assert_eq!(
            classify("docker.io/bitnami/kafka:3.7"),
            Some(Image::Bitnami)
        );
        assert_eq!(classify("apache/kafka:3.8.0"), Some(Image::Apache));
        assert_eq!(classify("wurstmeister/kafka"), Some(Image::Wurstmeister));
        assert_eq!(
            classify("registry.example.com:5000/apache/kafka-native:3.8.0"),
            Some(Image::Apache)
        );
        assert_eq!(
            classify("confluentinc/cp-enterprise-kafka:5.3.1"),
            Some(Image::Confluent)
        );
        assert_eq!(classify("confluentinc/cp-zookeeper:7.5.0"), None);
        // Docker Hub's image under a mirror's path, and a path of a team's own.
        assert_eq!(
            repository(
                "swr.cn-north-4.myhuaweicloud.com/ddn-k8s/docker.io/confluentinc/cp-kafka:8.0.0"
            ),
            (
                "confluentinc/cp-kafka".to_string(),
                Some("8.0.0".to_string())
            )
        );
        assert_eq!(
            classify("mirror.example.com/hub/docker.io/library/kafka"),
            None
        );
        assert_eq!(
            classify("mirror.example.com/hub/docker.io/apache/kafka:3.9.0"),
            Some(Image::Apache)
        );
        assert_eq!(classify("harbor.example.com/proxy/bitnami/kafka:3.7"), None);
        assert!(looks_like_kafka("mycorp/kafka:1.0"));
        assert!(!looks_like_kafka("provectuslabs/kafka-ui"));
    }

    #[test]
    fn listeners_follow_advertised_listeners() {
        assert_eq!(
            listeners_from_advertised("PLAINTEXT://kafka-1:29092,PLAINTEXT_HOST://localhost:9092"),
            "PLAINTEXT://0.0.0.0:29092,PLAINTEXT_HOST://0.0.0.0:9092"
        );
    }

    #[test]
    fn confluent_example_from_the_image_docs() {
        // The cp-kafka quick start: ZooKeeper mode, one broker.
        let settings = translate(
            Image::Confluent,
            Some("7.5.0"),
            &vars(&[
                ("KAFKA_BROKER_ID", "1"),
                ("KAFKA_ZOOKEEPER_CONNECT", "zookeeper:2181"),
                ("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://localhost:9092"),
                ("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1"),
                ("KAFKA_HEAP_OPTS", "-Xmx1G"),
                ("KAFKA_JMX_PORT", "9101"),
            ]),
        );
        assert_eq!(
            keys(&settings),
            vec![
                ("broker.id".into(), Some("1".into())),
                ("zookeeper.connect".into(), Some("zookeeper:2181".into())),
                (
                    "advertised.listeners".into(),
                    Some("PLAINTEXT://localhost:9092".into())
                ),
                ("offsets.topic.replication.factor".into(), Some("1".into())),
                // Not in the excluded list: the image writes it (Kafka ignores it).
                ("jmx.port".into(), Some("9101".into())),
                ("listeners".into(), Some("PLAINTEXT://0.0.0.0:9092".into())),
                ("log.dirs".into(), Some("/var/lib/kafka/data".into())),
            ]
        );
    }

    #[test]
    fn confluent_tls_settings_come_from_the_secrets_folder() {
        let settings = translate(
            Image::Confluent,
            None,
            &vars(&[
                ("KAFKA_ADVERTISED_LISTENERS", "SSL://kafka:9093"),
                ("KAFKA_SSL_KEYSTORE_FILENAME", "kafka.keystore.jks"),
                ("KAFKA_SSL_KEY_CREDENTIALS", "key_creds"),
            ]),
        );
        assert_eq!(
            get(&settings, "ssl.keystore.location")
                .unwrap()
                .value
                .as_deref(),
            Some("/etc/kafka/secrets/kafka.keystore.jks")
        );
        assert_eq!(get(&settings, "ssl.key.password").unwrap().value, None);
        assert!(get(&settings, "ssl.keystore.filename").is_none());
    }

    #[test]
    fn apache_leaves_what_is_unset_to_kafka() {
        let settings = translate(
            Image::Apache,
            Some("3.8.0"),
            &vars(&[("KAFKA_NODE_ID", "2")]),
        );
        assert_eq!(
            get(&settings, "node.id").unwrap().value.as_deref(),
            Some("2")
        );
        assert_eq!(get(&settings, "node.id").unwrap().origin, Origin::Var(0));
        // The released image writes no default of its own (only CLUSTER_ID is defaulted).
        assert_eq!(settings.len(), 1);
        // Nothing written: the wrapper falls back to the sample file, which the caller reports.
        assert!(translate(Image::Apache, Some("3.9.0"), &vars(&[("CLUSTER_ID", "x")])).is_empty());
    }

    #[test]
    fn apache_writes_values_as_properties_lines() {
        let settings = translate(
            Image::Apache,
            None,
            &vars(&[
                ("KAFKA_ZOOKEEPER_CONNECT", "zk:2181"),
                ("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://kafka:9092"),
                ("KAFKA_SASL_JAAS_CONFIG", "x required username=\"a\";"),
                ("KAFKA_LOG_DIRS", "C:\\data"),
                ("KAFKA_LISTENER__NAME___X", "1"),
            ]),
        );
        assert!(get(&settings, "offsets.topic.replication.factor").is_none());
        // A value holding `=` is written whole; a backslash escapes as in any properties line.
        assert_eq!(
            get(&settings, "sasl.jaas.config").unwrap().value.as_deref(),
            Some("x required username=\"a\";")
        );
        assert_eq!(
            get(&settings, "log.dirs").unwrap().value.as_deref(),
            Some("C:data")
        );
        assert!(get(&settings, "listener_name-x").is_some());
        assert_eq!(
            get(&settings, "listeners").unwrap().value.as_deref(),
            Some("PLAINTEXT://0.0.0.0:9092")
        );
    }

    #[test]
    fn apache_exits_as_its_configure_does() {
        let exit =
            |tag, pairs: &[(&str, &str)]| apache_exit(Some(tag), &vars(pairs)).map(|(why, _)| why);
        let controller = [
            ("KAFKA_PROCESS_ROLES", "controller"),
            ("KAFKA_ADVERTISED_LISTENERS", "CONTROLLER://c:9093"),
        ];
        assert!(exit("3.9.0", &controller).is_some());
        // Empty is unset for the script.
        assert!(
            exit(
                "3.9.0",
                &[controller[0], ("KAFKA_ADVERTISED_LISTENERS", "")]
            )
            .is_none()
        );
        let ssl = ("KAFKA_ADVERTISED_LISTENERS", "SSL://kafka:9093");
        assert!(
            exit("3.8.0", &[ssl])
                .unwrap()
                .contains("KAFKA_SSL_KEYSTORE_FILENAME")
        );
        let stores = [
            ssl,
            ("KAFKA_SSL_KEYSTORE_FILENAME", "k.jks"),
            ("KAFKA_SSL_KEY_CREDENTIALS", "key_creds"),
            ("KAFKA_SSL_KEYSTORE_CREDENTIALS", "ks_creds"),
        ];
        assert!(exit("3.8.0", &stores).is_none());
        let mut client_auth = stores.to_vec();
        client_auth.push(("KAFKA_SSL_CLIENT_AUTH", "required"));
        assert!(
            exit("3.8.0", &client_auth)
                .unwrap()
                .contains("TRUSTSTORE_FILENAME")
        );
        let sasl = ("KAFKA_ADVERTISED_LISTENERS", "SASL_PLAINTEXT://kafka:9092");
        assert!(exit("3.7.0", &[sasl]).unwrap().contains("KAFKA_OPTS"));
        // Releases whose script kafkalint has not read, and no tag: not judged.
        assert!(exit("4.0.0", &controller).is_none());
        assert!(apache_exit(None, &vars(&controller)).is_none());
    }

    #[test]
    fn bitnami_builds_by_tag_and_revision() {
        use BitnamiBuild::*;
        let build = |tag| bitnami_build(tag);
        assert_eq!(build("2.8.1"), Some(ZooKeeperDefault));
        assert_eq!(build("3.3.1"), Some(ZooKeeperDefault));
        assert_eq!(build("3.3.2-debian-11-r28"), Some(ZooKeeperDefault));
        assert_eq!(build("3.3.2-debian-11-r29"), Some(KraftDefault));
        assert_eq!(build("3.3.2-debian-11-r176"), Some(ModeRequired));
        assert_eq!(build("3.4.0-debian-11-r22"), Some(ZooKeeperDefault));
        assert_eq!(build("3.4.0"), Some(KraftDefault));
        assert_eq!(build("3.4.1-debian-11-r49"), Some(KraftDefault));
        assert_eq!(build("3.4"), Some(ModeRequired));
        assert_eq!(build("3.5.0"), Some(KraftDefault));
        assert_eq!(build("3.5.1-debian-11-r3"), Some(KraftDefault));
        assert_eq!(build("3.5.1-debian-11-r4"), Some(ModeRequired));
        assert_eq!(build("3.5.1"), Some(ModeRequired));
        assert_eq!(build("3.9"), Some(ModeRequired));
        assert_eq!(build("4.0.0-debian-12-r5"), Some(ModeRequired));
        assert_eq!(build("latest"), None);
    }

    #[test]
    fn bitnami_exits_without_a_mode() {
        let exit = |tag, pairs: &[(&str, &str)]| {
            let vars = vars(pairs);
            bitnami_exit(
                Some(tag),
                &vars,
                &translate(Image::Bitnami, Some(tag), &vars),
            )
        };
        let listeners = ("KAFKA_CFG_LISTENERS", "PLAINTEXT://:9092");
        assert!(exit("3.9", &[listeners]).is_some());
        assert!(
            exit(
                "3.9",
                &[listeners, ("KAFKA_CFG_ZOOKEEPER_CONNECT", "zk:2181")]
            )
            .is_none()
        );
        assert!(exit("3.9", &[listeners, ("KAFKA_CFG_PROCESS_ROLES", "broker")]).is_none());
        // Kafka 4 needs the roles, whatever else is set.
        assert!(
            exit(
                "4.0",
                &[listeners, ("KAFKA_CFG_ZOOKEEPER_CONNECT", "zk:2181")]
            )
            .is_some()
        );
        // Builds that defaulted to a mode need no mode, but stop on plaintext listeners unless
        // ALLOW_PLAINTEXT_LISTENER says yes; a tag that names no release is not judged.
        let allow = ("ALLOW_PLAINTEXT_LISTENER", "yes");
        assert!(exit("3.5.0", &[listeners]).is_some());
        assert!(exit("2.8.1", &[]).is_some());
        assert!(exit("3.5.0", &[listeners, allow]).is_none());
        assert!(exit("2.8.1", &[("ALLOW_PLAINTEXT_LISTENER", "True")]).is_none());
        let secure = ("KAFKA_CFG_LISTENERS", "SASL_SSL://:9092");
        assert!(exit("2.8.1", &[secure]).is_none());
        let unknown = Var {
            name: "ALLOW_PLAINTEXT_LISTENER".into(),
            value: None,
        };
        assert!(bitnami_exit(Some("2.8.1"), &[unknown], &[]).is_none());
        assert!(exit("latest", &[listeners]).is_none());
    }

    #[test]
    fn bitnami_builds_that_default_to_kraft_start_from_the_kraft_sample() {
        let roles = |tag, pairs: &[(&str, &str)]| {
            translate(Image::Bitnami, Some(tag), &vars(pairs))
                .into_iter()
                .find(|setting| setting.key == "process.roles")
                .and_then(|setting| setting.value)
        };
        assert_eq!(roles("3.5.0", &[]).as_deref(), Some("broker,controller"));
        assert_eq!(roles("3.5.0", &[("KAFKA_ENABLE_KRAFT", "no")]), None);
        assert_eq!(
            roles("3.5.0", &[("KAFKA_CFG_PROCESS_ROLES", "broker")]).as_deref(),
            Some("broker")
        );
        assert_eq!(roles("3.5.1-debian-11-r4", &[]), None);
        assert_eq!(roles("2.8.1", &[]), None);
    }

    #[test]
    fn cp_kafka_exits_as_its_configure_does() {
        let exit = |tag, pairs: &[(&str, &str)]| confluent_exit(Some(tag), &vars(pairs));
        let kraft = [
            ("KAFKA_PROCESS_ROLES", "broker,controller"),
            ("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://kafka:9092"),
        ];
        // 7.4 to 7.9: a KRaft node needs CLUSTER_ID; a ZooKeeper one the ensemble.
        assert!(exit("7.4.0", &kraft).is_some());
        assert!(exit("7.9.1", &[kraft[0], kraft[1], ("CLUSTER_ID", "abc")]).is_none());
        assert!(exit("7.5.0", &[kraft[1]]).is_some());
        assert!(exit("7.5.0", &[kraft[1], ("KAFKA_ZOOKEEPER_CONNECT", "zk:2181")]).is_none());
        // Before 7.4 the script has no KRaft branch; from 8.0 the roles are required.
        assert!(exit("7.3.0", &[kraft[0], kraft[1], ("CLUSTER_ID", "abc")]).is_some());
        assert!(exit("8.0.0", &[kraft[1], ("CLUSTER_ID", "abc")]).is_some());
        assert!(exit("8.0.0", &[kraft[0], kraft[1], ("CLUSTER_ID", "abc")]).is_none());
        // A controller must not be given advertised listeners; the old port variable stops all.
        let controller = [("KAFKA_PROCESS_ROLES", "controller"), ("CLUSTER_ID", "abc")];
        assert!(exit("8.0.0", &controller).is_none());
        assert!(exit("8.0.0", &[controller[0], controller[1], kraft[1]]).is_some());
        assert!(
            exit(
                "6.2.0",
                &[
                    ("KAFKA_ZOOKEEPER_CONNECT", "zk:2181"),
                    kraft[1],
                    ("KAFKA_PORT", "9092")
                ]
            )
            .is_some()
        );
        // A variable Compose takes from the shell is there; no tag, no verdict.
        let inherited = Var {
            name: "CLUSTER_ID".into(),
            value: None,
        };
        let mut with_shell = vars(&kraft);
        with_shell.push(inherited);
        assert!(confluent_exit(Some("8.0.0"), &with_shell).is_none());
        assert!(confluent_exit(None, &vars(&kraft)).is_none());
    }

    #[test]
    fn confluent_local_fills_in_a_single_local_node() {
        let settings = translate(
            Image::ConfluentLocal,
            Some("7.6.0"),
            &vars(&[("KAFKA_NODE_ID", "5"), ("KAFKA_REST_HOST_NAME", "rest")]),
        );
        let get = |key: &str| settings.iter().rev().find(|setting| setting.key == key);
        assert_eq!(
            get("node.id").map(|s| s.origin.clone()),
            Some(Origin::Var(0))
        );
        let voters = get("controller.quorum.voters").unwrap();
        assert_eq!(voters.value.as_deref(), Some("1@localhost:29093"));
        assert_eq!(voters.origin, Origin::Image);
        assert_eq!(
            get("log.dirs").and_then(|s| s.value.as_deref()),
            Some("/tmp/kraft-combined-logs")
        );
        assert!(get("rest.host.name").is_none() && get("host.name").is_none());
        // A variable set empty gives way to the default, as configureDefaults does.
        let emptied = translate(
            Image::ConfluentLocal,
            Some("7.6.0"),
            &vars(&[("KAFKA_PROCESS_ROLES", "")]),
        );
        let roles: Vec<_> = emptied
            .iter()
            .filter(|setting| setting.key == "process.roles")
            .collect();
        assert_eq!(roles.len(), 1);
        assert_eq!(roles[0].value.as_deref(), Some("broker,controller"));
        assert_eq!(
            tag_kafka_release(Image::ConfluentLocal, "7.6.0"),
            Some(KafkaVersion::new(3, 6))
        );
    }

    #[test]
    fn the_docker_wrapper_names_keys_as_kafka_does() {
        let v39 = Some(KafkaVersion::new(3, 9));
        assert_eq!(docker_wrapper_key("KAFKA_NODE_ID", v39), "node.id");
        assert_eq!(docker_wrapper_key("KAFKA_A__B___C", None), "a_b-c");
        // Before 4.0 every `KAFKA_` goes, not only the prefix.
        assert_eq!(docker_wrapper_key("KAFKA_X_KAFKA_Y", v39), "x.y");
        assert_eq!(docker_wrapper_key("KAFKA_X_KAFKA_Y", None), "x.kafka.y");
        let heap = vars(&[("KAFKA_HEAP_OPTS", "-Xmx1G"), ("KAFKA_HEAP_OPT", "x")]);
        assert_eq!(docker_wrapper(&heap, v39).len(), 1);
    }

    #[test]
    fn bitnami_examples_from_the_image_readme() {
        let settings = translate(
            Image::Bitnami,
            Some("3.7"),
            &vars(&[
                ("KAFKA_CFG_NODE_ID", "0"),
                ("KAFKA_CFG_PROCESS_ROLES", "controller,broker"),
                (
                    "KAFKA_CFG_LISTENERS",
                    "PLAINTEXT://:9092,CONTROLLER://:9093",
                ),
                (
                    "KAFKA_CFG_LISTENER_SECURITY_PROTOCOL_MAP",
                    "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                ),
                (
                    "KAFKA_CFG_LISTENER_NAME_SASL_SSL_PLAIN_SASL_JAAS_CONFIG",
                    "x",
                ),
                (
                    "KAFKA_CFG_ZOOKEEPER_CLIENTCNXNSOCKET",
                    "org.apache.zookeeper.ClientCnxnSocketNetty",
                ),
                ("KAFKA_BROKER_ID", "7"),
                ("KAFKA_CLIENT_USERS", "user"),
            ]),
        );
        assert_eq!(
            get(&settings, "node.id").unwrap().value.as_deref(),
            Some("0")
        );
        assert_eq!(
            get(&settings, "broker.id").unwrap().value.as_deref(),
            Some("7")
        );
        assert!(get(&settings, "listener.name.sasl_ssl.plain.sasl.jaas.config").is_some());
        assert!(get(&settings, "zookeeper.clientCnxnSocket").is_some());
        assert!(get(&settings, "client.users").is_none());
        let rf = get(&settings, "offsets.topic.replication.factor").unwrap();
        assert_eq!(
            (rf.value.as_deref(), &rf.origin),
            (Some("1"), &Origin::Image)
        );
        assert!(
            get(
                &settings,
                "share.coordinator.state.topic.replication.factor"
            )
            .is_none()
        );
        assert_eq!(
            get(&settings, "log.dirs").unwrap().value.as_deref(),
            Some("/bitnami/kafka/data")
        );
    }

    #[test]
    fn wurstmeister_example_from_the_image_readme() {
        let settings = translate(
            Image::Wurstmeister,
            None,
            &vars(&[
                ("KAFKA_ADVERTISED_HOST_NAME", "192.168.99.100"),
                ("KAFKA_ZOOKEEPER_CONNECT", "zookeeper:2181"),
                ("KAFKA_CREATE_TOPICS", "Topic1:1:3"),
                ("KAFKA_HEAP_OPTS", "-Xmx1G"),
            ]),
        );
        assert_eq!(
            get(&settings, "advertised.host.name")
                .unwrap()
                .value
                .as_deref(),
            Some("192.168.99.100")
        );
        assert_eq!(
            get(&settings, "broker.id").unwrap().value.as_deref(),
            Some("-1")
        );
        assert!(get(&settings, "create.topics").is_none());
        assert!(get(&settings, "heap.opts").is_none());
    }
}
