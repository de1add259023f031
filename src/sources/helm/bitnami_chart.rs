//! Values files of the bitnami/kafka Helm chart, read as the chart renders them: how many
//! brokers and controllers run, in which roles, and what their `server.properties` holds, per
//! chart major line. The reference is the chart itself in bitnami/charts at its release tags
//! (`bitnami/kafka/values.yaml` and `templates/`), read at the first and last tag of each line
//! from 12 to 32 and at every tag where a key changed:
//!
//! - **12 to 23** (bitnami/charts@kafka/12.0.0 .. kafka/23.0.7): one StatefulSet of
//!   `replicaCount` pods (default 1). The chart sets each broker key as a `KAFKA_CFG_*` variable,
//!   always, from a top-level value with the chart's default: `offsetsTopicReplicationFactor`,
//!   `transactionStateLogReplicationFactor`, `transactionStateLogMinIsr`,
//!   `defaultReplicationFactor`, `numPartitions` all default to **1**
//!   (templates/statefulset.yaml). KRaft from 21.3.0 with `kraft.enabled` (default false until
//!   22.0.0, true after): every pod `kraft.processRoles` (default `broker,controller`) and a voter.
//!   Ids: the pod's ordinal plus `minBrokerId` (12.4.0 to 21), `minId` (22, 23). `config` (a
//!   whole `server.properties`, mounted where the image then ignores its environment) or
//!   `existingConfigmap` replace all of it; `extraEnvVars` come after the chart's variables.
//! - **24 to 31** (kafka/24.0.0 .. kafka/31.5.0): two StatefulSets, `<name>-controller` with
//!   `controller.replicaCount` pods (default 3; `controller,broker` unless
//!   `controller.controllerOnly`; rendered when `kraft.enabled`, default true) and
//!   `<name>-broker` with `broker.replicaCount` (default 0; `broker`). Ids: ordinal plus
//!   `controller.minId` (0) or `broker.minId` (100). The chart renders `server.properties` itself
//!   and writes no replication factor: Kafka's defaults apply (README "To 24.0.0"). `config`
//!   (string, the role's first) replaces what it renders; `extraConfig` (top, then the role's)
//!   and from 29.2.0 `extraConfigYaml` (maps, the role's winning) are appended; `secretConfig`
//!   (25.1.6) is appended last (templates/controller-eligible/configmap.yaml,
//!   templates/scripts-configmap.yaml).
//! - **32** (kafka/32.0.0 .. kafka/32.4.3, Kafka 4.0): the same StatefulSets, KRaft only;
//!   `config` is a map replacing what the chart renders, `overrideConfiguration` (top, then the
//!   role's) is merged over it; `secretConfig` appended last.
//!
//! Keys the chart renders from its listener, TLS and SASL values (listeners, the quorum, the
//! security protocol map) are known to be set, not to what (placeholders): no rule judges them.

use std::path::Path;

use crate::catalog::KafkaVersion;
use crate::properties::{Provenance, Span};
use crate::sources::embedded;
use crate::sources::images;
use crate::sources::yaml::{Node, Scalar, Style};
use crate::sources::{Edit, ImageTag, NamedBy, NodeSpec, Orchestrator, Runtime, YamlEntry};

/// A major line of the chart, with what says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartLine {
    pub major: u32,
    /// How the line was found: "Chart.yaml", "helmfile.yaml", "its keys", "assumed".
    pub from: String,
}

impl ChartLine {
    /// What a note says of it: `bitnami/kafka chart values, read as chart line 32 (...)`.
    pub fn describe(&self) -> String {
        format!(
            "bitnami/kafka chart values, read as chart line {} ({})",
            self.major.clamp(OLDEST, NEWEST),
            self.from
        )
    }
}

/// Where the chart's values sit in a file: the whole document, or under `kafka:` in an umbrella
/// chart's values.
pub struct Values<'a> {
    pub root: &'a Node,
    /// The key that names the block (`kafka:`), where findings about defaults point.
    pub anchor: Span,
}

/// The bitnami/kafka image names the chart runs.
const IMAGES: &[&str] = &[
    "bitnami/kafka",
    "bitnamilegacy/kafka",
    "bitnamisecure/kafka",
];

/// Keys only the bitnami/kafka chart's values have, at the top of them.
const DISTINCT_KEYS: &[&str] = &[
    "kraft",
    "offsetsTopicReplicationFactor",
    "transactionStateLogReplicationFactor",
    "transactionStateLogMinIsr",
    "defaultReplicationFactor",
    "overrideConfiguration",
    "extraConfig",
    "extraConfigYaml",
    "minBrokerId",
    "externalZookeeper",
    "logsDirs",
    "autoCreateTopicsEnable",
    "interBrokerListenerName",
    "listenerSecurityProtocolMap",
];

/// Blocks of the chart's values, with keys only the chart's have in them.
const DISTINCT_BLOCKS: &[(&str, &[&str])] = &[
    ("controller", &["replicaCount", "controllerOnly", "minId"]),
    ("broker", &["replicaCount", "minId"]),
    ("kraft", &["enabled", "processRoles", "clusterId"]),
    ("zookeeper", &["enabled"]),
    (
        "auth",
        &[
            "clientProtocol",
            "interBrokerProtocol",
            "controllerProtocol",
        ],
    ),
    ("listeners", &["client", "interbroker", "controller"]),
    ("sasl", &["enabledMechanisms", "interBrokerMechanism"]),
    (
        "provisioning",
        &["topics", "numPartitions", "replicationFactor"],
    ),
    ("externalAccess", &["autoDiscovery", "controller", "broker"]),
];

/// The chart's values in `document` of the file at `path`, when they are bitnami/kafka's: its
/// image is bitnami's Kafka, or a `Chart.yaml` beside it depends on the bitnami chart (values
/// under the dependency's name), or a file named like values holds keys only this chart has,
/// no chart of its own (`templates/`) sits beside it, and something names the bitnami chart
/// for it (a helmfile release, a script or README that installs it with this file, the config
/// file's `bitnami-kafka-chart`). Keys alone are no evidence: a chart of a team's own may
/// well have a `replicaCount` and a `kraft` block.
pub fn values<'a>(path: &str, document: &'a Node, folder: &Folder) -> Option<Values<'a>> {
    let found = candidate(path, document, folder)?;
    (found.named || folder.names_the_chart()).then_some(found.values)
}

/// Whether `document` looks like the bitnami/kafka chart's values (a file named like values,
/// keys only that chart has, no chart of its own beside it) while nothing names the chart.
pub fn unnamed_values(path: &str, document: &Node, folder: &Folder) -> bool {
    candidate(path, document, folder).is_some_and(|found| !found.named) && !folder.names_the_chart()
}

/// Why values that look like the bitnami/kafka chart's are not read as its.
pub const UNNAMED: &str = "values that look like the bitnami/kafka chart's, but nothing names the chart they are for (a Chart.yaml dependency, a helmfile release, a Terraform helm_release, a script or README that installs bitnami/kafka with this file, or bitnami's image in them); not checked: to read them as bitnami/kafka's, set `bitnami-kafka-chart` in kafkalint.toml";

/// Values found in a document, and whether the document itself names the chart (its image).
struct Candidate<'a> {
    values: Values<'a>,
    named: bool,
}

fn candidate<'a>(path: &str, document: &'a Node, folder: &Folder) -> Option<Candidate<'a>> {
    let first_key = |node: &Node| {
        node.entries()
            .first()
            .and_then(|(key, _)| key.scalar())
            .map(|key| key.span.clone())
    };
    if let Some(dependency) = &folder.dependency {
        let (key, root) = document.get_entry(&dependency.alias)?;
        return Some(Candidate {
            values: Values {
                root,
                anchor: key.scalar()?.span.clone(),
            },
            named: true,
        });
    }
    if folder.own_chart {
        // A chart of its own (`Chart.yaml` and `templates/`) that does not depend on bitnami's:
        // its templates, not bitnami's, decide what its values mean (rendered with helm).
        return None;
    }
    for (root, anchor) in [
        (Some(document), first_key(document)),
        (
            document.get("kafka"),
            document
                .get_entry("kafka")
                .and_then(|(key, _)| key.scalar().map(|key| key.span.clone())),
        ),
    ] {
        let (Some(root), Some(anchor)) = (root, anchor) else {
            continue;
        };
        if !matches!(root, Node::Map(_)) {
            continue;
        }
        let image = root
            .at(&["image", "repository"])
            .and_then(Node::text)
            .map(|repository| images::repository(repository).0);
        let distinct = DISTINCT_KEYS
            .iter()
            .filter(|key| root.get(key).is_some())
            .count()
            + DISTINCT_BLOCKS
                .iter()
                .filter(|(block, keys)| {
                    root.get(block)
                        .is_some_and(|block| keys.iter().any(|key| block.get(key).is_some()))
                })
                .count();
        let named_like_values = Path::new(path)
            .file_name()
            .is_some_and(|name| name.to_string_lossy().contains("values"));
        let bitnami_image = image.is_some_and(|image| IMAGES.contains(&image.as_str()));
        if bitnami_image
            || folder.helmfile_release
            || (named_like_values && distinct >= 2 && !folder.own_chart)
        {
            return Some(Candidate {
                values: Values { root, anchor },
                named: bitnami_image || folder.helmfile_release,
            });
        }
    }
    None
}

/// What the folder of a values file says of it: a `Chart.yaml` that depends on the bitnami
/// chart (an umbrella chart), a chart of its own, a helmfile release that names it.
#[derive(Debug, Default)]
pub struct Folder {
    pub dependency: Option<Dependency>,
    /// A `Chart.yaml` with `templates/`: the values are that chart's, not bitnami's.
    pub own_chart: bool,
    /// The version a helmfile release of the bitnami chart gives to this values file.
    pub helmfile_version: Option<String>,
    /// A helmfile release of the bitnami chart reads this values file (with a version or not).
    pub helmfile_release: bool,
    /// A script or README beside the file (or in the two folders above) that installs the
    /// bitnami chart with this values file (`helm install ... bitnami/kafka -f values.yaml`).
    pub script: Option<String>,
    /// The version something else pins (a Terraform `helm_release`), with what says so.
    pub pinned: Option<(String, String)>,
    /// The version the config file states (`bitnami-kafka-chart`).
    pub stated: Option<String>,
}

/// An umbrella chart's dependency on the bitnami chart.
#[derive(Debug)]
pub struct Dependency {
    /// The key its values sit under: the dependency's alias, else `kafka`.
    pub alias: String,
    pub version: Option<String>,
}

impl Folder {
    /// Reads the `Chart.yaml` and `helmfile.yaml` beside the values file at `path`.
    pub fn of(path: &str) -> Folder {
        let dir = match Path::new(path).parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => Path::new(".").to_path_buf(),
        };
        let mut folder = Folder::default();
        let read = |name: &str| -> Option<Vec<Node>> {
            let bytes = crate::source::read_file(&dir.join(name)).ok()?;
            crate::sources::yaml::parse(std::str::from_utf8(&bytes).ok()?).ok()
        };
        if let Some(chart) = read("Chart.yaml").and_then(|documents| documents.into_iter().next()) {
            folder.own_chart = dir.join("templates").is_dir();
            folder.dependency = chart
                .get("dependencies")
                .map(Node::items)
                .unwrap_or_default()
                .iter()
                .find(|dependency| {
                    dependency.get("name").and_then(Node::text) == Some("kafka")
                        && dependency
                            .get("repository")
                            .and_then(Node::text)
                            .is_some_and(|repository| repository.contains("bitnami"))
                })
                .map(|dependency| Dependency {
                    alias: dependency
                        .get("alias")
                        .and_then(Node::text)
                        .unwrap_or("kafka")
                        .to_string(),
                    version: dependency
                        .get("version")
                        .and_then(Node::text)
                        .map(str::to_string),
                });
        }
        let file_name = Path::new(path)
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        // A helmfile beside the values, or in one of the two folders above them (a
        // `helmfile.yaml` at the root giving `values/kafka.yaml` to a release).
        let mut helmfile_dir = dir.clone();
        for _ in 0..3 {
            let documents = crate::source::read_file(&helmfile_dir.join("helmfile.yaml"))
                .ok()
                .and_then(|bytes| {
                    crate::sources::yaml::parse(std::str::from_utf8(&bytes).ok()?).ok()
                });
            let release = documents.iter().flatten().find_map(|document| {
                document
                    .get("releases")
                    .map(Node::items)
                    .and_then(|releases| {
                        releases.iter().find(|release| {
                            release
                                .get("chart")
                                .and_then(Node::text)
                                .is_some_and(|chart| {
                                    chart.ends_with("/kafka") && chart.contains("bitnami")
                                })
                                && release
                                    .get("values")
                                    .map(Node::items)
                                    .unwrap_or_default()
                                    .iter()
                                    .filter_map(Node::text)
                                    .any(|values| {
                                        values.rsplit('/').next() == Some(file_name.as_str())
                                    })
                        })
                    })
            });
            if let Some(release) = release {
                folder.helmfile_release = true;
                folder.helmfile_version = release
                    .get("version")
                    .and_then(Node::text)
                    .map(str::to_string);
                break;
            }
            helmfile_dir = match helmfile_dir.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => helmfile_dir.join(".."),
            };
        }
        if let Some((script, version)) = script_naming_chart(&dir, &file_name) {
            if let Some(version) = version {
                folder.pinned = Some((version.clone(), format!("{script} pins version {version}")));
            }
            folder.script = Some(script);
        }
        folder
    }

    /// Whether something beside the values file names the bitnami chart for it.
    pub fn names_the_chart(&self) -> bool {
        self.dependency.is_some()
            || self.helmfile_release
            || self.script.is_some()
            || self.pinned.is_some()
            || self.stated.is_some()
    }
}

/// How a script names where the bitnami chart comes from: the chart (`bitnami/kafka`, the
/// OCI `oci://registry-1.docker.io/bitnamicharts/kafka`) or bitnami's repository, with the
/// chart named through a variable (`CHART_REPO := bitnami`, `CHART_NAME := kafka`).
const CHART_SOURCES: &[&str] = &[
    "bitnami/kafka",
    "bitnamicharts/kafka",
    "charts.bitnami.com/bitnami",
];

/// Whether a script's text runs helm with the bitnami chart and gives it the values file
/// `file_name` (`-f kafka-values.yaml`, `--values values.yaml`, `--values=...`); the values
/// themselves hold keys only that chart has. `Some` holds the `--version` the same command
/// (the lines around the one that gives the file) pins, if it pins one.
fn names_chart_with(text: &str, file_name: &str) -> Option<Option<String>> {
    if !text.contains("helm") || !CHART_SOURCES.iter().any(|source| text.contains(source)) {
        return None;
    }
    let given = |argument: &str| {
        let argument = argument.trim_matches(['"', '\'']);
        argument == file_name || argument.ends_with(&format!("/{file_name}"))
    };
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        words.iter().enumerate().any(|(at, word)| {
            (matches!(*word, "-f" | "--values")
                && words.get(at + 1).is_some_and(|next| given(next)))
                || word
                    .strip_prefix("--values=")
                    .or_else(|| word.strip_prefix("-f="))
                    .is_some_and(given)
        })
    })?;
    // A version written out (`--version 31.0.0`), not a variable (`$(CHART_VERSION)`).
    let version = lines[at.saturating_sub(4)..(at + 5).min(lines.len())]
        .iter()
        .find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            words.iter().enumerate().find_map(|(at, word)| {
                let value = if *word == "--version" {
                    words.get(at + 1).copied()
                } else {
                    word.strip_prefix("--version=")
                }?;
                let value = value.trim_matches(['"', '\'']);
                value
                    .starts_with(|c: char| c.is_ascii_digit())
                    .then(|| value.to_string())
            })
        });
    Some(version)
}

/// Files read for an install command, at most this many bytes each.
const SCRIPT_LIMIT: u64 = 256 * 1024;

/// A script, Makefile or README in `dir` or the two folders above it whose text names the
/// bitnami chart and the values file `file_name` (as `-f`/`--values` takes it): its path, and
/// the chart version its command pins.
fn script_naming_chart(dir: &Path, file_name: &str) -> Option<(String, Option<String>)> {
    if file_name.is_empty() {
        return None;
    }
    let is_script = |name: &str| {
        let lower = name.to_ascii_lowercase();
        [".sh", ".bash", ".ps1", ".md", ".mk"]
            .iter()
            .any(|extension| lower.ends_with(extension))
            || matches!(
                lower.as_str(),
                "makefile" | "justfile" | "taskfile.yml" | "taskfile.yaml"
            )
    };
    let mut folder = dir.to_path_buf();
    for _ in 0..3 {
        if let Ok(entries) = std::fs::read_dir(&folder) {
            let mut scripts: Vec<_> = entries
                .filter_map(Result::ok)
                .filter(|entry| {
                    entry.file_type().is_ok_and(|kind| kind.is_file())
                        && is_script(&entry.file_name().to_string_lossy())
                        && entry
                            .metadata()
                            .is_ok_and(|meta| meta.len() <= SCRIPT_LIMIT)
                })
                .map(|entry| entry.path())
                .collect();
            scripts.sort();
            for script in scripts.into_iter().take(200) {
                let Ok(bytes) = crate::source::read_file(&script) else {
                    continue;
                };
                let text = String::from_utf8_lossy(&bytes);
                if let Some(version) = names_chart_with(&text, file_name) {
                    let shown = script.strip_prefix(".").unwrap_or(&script);
                    return Some((shown.to_string_lossy().into_owned(), version));
                }
            }
        }
        folder = match folder.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => folder.join(".."),
        };
    }
    None
}

/// The Terraform file (in the values file's folder, the two above, or a folder right below
/// those) one of whose
/// bitnami/kafka releases reads the values file at `path` with `file(...)`: the values are
/// read as that release's, not alone.
pub fn terraform_release_of(path: &str) -> Option<String> {
    let target = std::fs::canonicalize(path).ok()?;
    // Folders as the path names them, so that a note shows them so.
    let up = |dir: &Path| match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() && dir.file_name().is_some() => {
            parent.to_path_buf()
        }
        _ => dir.join(".."),
    };
    let dir = match Path::new(path).parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => Path::new(".").to_path_buf(),
    };
    let parent = up(&dir);
    let grandparent = up(&parent);
    // Each folder, and the folders right below the two above it (a `terraform/` beside a
    // `helm/`).
    let mut dirs = vec![dir];
    for above in [parent, grandparent] {
        if let Ok(entries) = std::fs::read_dir(&above) {
            let mut below: Vec<_> = entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
                .map(|entry| entry.path())
                .collect();
            below.sort();
            dirs.extend(below);
        }
        dirs.push(above);
    }
    let mut folders = crate::sources::terraform::Folders::default();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut tf: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| crate::sources::terraform::is_terraform_name(&path.to_string_lossy()))
            .collect();
        tf.sort();
        for file in tf {
            let Ok(bytes) = crate::source::read_file(&file) else {
                continue;
            };
            if !crate::sources::terraform::worth_reading(&bytes) {
                continue;
            }
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            let shown = file.to_string_lossy().into_owned();
            let Ok(read) =
                crate::sources::terraform::read_in(&shown, text, &mut Vec::new(), &mut folders)
            else {
                continue;
            };
            if read
                .values_files
                .iter()
                .any(|values| std::fs::canonicalize(values).is_ok_and(|values| values == target))
            {
                return Some(shown);
            }
        }
    }
    None
}

/// The first number of a version or a version constraint (`32.4.3`, `^26.0.0`, `~24`, `32.x`).
fn major_of(version: &str) -> Option<u32> {
    let start = version.find(|c: char| c.is_ascii_digit())?;
    let digits: String = version[start..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Lines kafkalint knows the chart's rendering of.
const OLDEST: u32 = 12;
const NEWEST: u32 = 32;

/// The chart line the values are for: from the folder's `Chart.yaml` or `helmfile.yaml`, a
/// Terraform release, the config file's `bitnami-kafka-chart`, else from the keys they use,
/// else the newest line (said in a note).
pub fn line(values: &Values, folder: &Folder) -> ChartLine {
    let pinned = folder
        .dependency
        .as_ref()
        .and_then(|dependency| dependency.version.as_deref())
        .map(|version| (version, "its Chart.yaml"))
        .or_else(|| {
            folder
                .helmfile_version
                .as_deref()
                .map(|version| (version, "helmfile.yaml"))
        });
    if let Some((version, from)) = pinned
        && let Some(major) = major_of(version)
    {
        return ChartLine {
            major,
            from: format!("{from} pins version {version}"),
        };
    }
    if let Some((version, from)) = &folder.pinned
        && let Some(major) = major_of(version)
    {
        return ChartLine {
            major,
            from: from.clone(),
        };
    }
    if let Some(version) = &folder.stated
        && let Some(major) = major_of(version)
    {
        return ChartLine {
            major,
            from: format!("kafkalint.toml states bitnami-kafka-chart {version}"),
        };
    }
    let root = values.root;
    let role_count = ["controller", "broker"].iter().any(|role| {
        root.get(role).is_some_and(|role| {
            [
                "replicaCount",
                "controllerOnly",
                "minId",
                "extraConfig",
                "config",
            ]
            .iter()
            .any(|key| role.get(key).is_some())
        })
    });
    let config_map = matches!(root.get("config"), Some(Node::Map(entries)) if !entries.is_empty());
    let image_release = root
        .at(&["image", "tag"])
        .and_then(Node::text)
        .and_then(images::release_prefix);
    let (major, why) = if root.get("overrideConfiguration").is_some() || config_map {
        (
            32,
            "its keys (overrideConfiguration or a config map are 32's)",
        )
    } else if root.get("extraConfigYaml").is_some() {
        (31, "its keys (extraConfigYaml is 29.2 to 31's)")
    } else if role_count || root.get("extraConfig").is_some() {
        match image_release {
            Some(release) if release >= KafkaVersion::new(4, 0) => {
                (32, "its image tag (Kafka 4 is 32's)")
            }
            _ => (
                31,
                "its keys (controller and broker counts, extraConfig: lines 24 to 31)",
            ),
        }
    } else if root.get("replicaCount").is_some()
        || root.get("minBrokerId").is_some()
        || root.get("offsetsTopicReplicationFactor").is_some()
    {
        match image_release {
            Some(release) if release < KafkaVersion::new(3, 4) => (
                20,
                "its keys (replicaCount: lines 12 to 23) and its image tag",
            ),
            _ => (23, "its keys (replicaCount: lines 12 to 23)"),
        }
    } else if root.get("kraft").is_some() || root.get("zookeeper").is_some() {
        (
            31,
            "its keys (kraft and zookeeper are gone from 32; no replicaCount: lines 24 to 31)",
        )
    } else {
        (NEWEST, "assumed: nothing in or beside the file says which")
    };
    let from = match &folder.script {
        Some(script) => format!("{why}; {script} installs the bitnami chart with it"),
        None => why.to_string(),
    };
    ChartLine { major, from }
}

/// The Kafka release a line's default image runs (Chart.yaml `appVersion` at the line's last
/// tag).
fn app_version(major: u32) -> KafkaVersion {
    let (a, b) = match major {
        ..=12 => (2, 8),
        13 | 14 => (2, 8),
        15 => (3, 1),
        16 => (3, 1),
        17 | 18 => (3, 2),
        19 => (3, 3),
        20..=22 => (3, 4),
        23..=25 => (3, 5),
        26 => (3, 6),
        27..=29 => (3, 7),
        30 => (3, 8),
        31 => (3, 9),
        _ => (4, 0),
    };
    KafkaVersion::new(a, b)
}

/// How the chart's values become the settings of each pod.
struct Reader<'a> {
    values: &'a Node,
    text: &'a str,
    anchor: Span,
    line: u32,
    image_tag: Option<ImageTag>,
}

/// A StatefulSet of the chart: its pods' label, roles, first id, count.
struct Set {
    label: String,
    role: Option<&'static str>,
    roles: Option<&'static str>,
    first_id: usize,
    count: usize,
    count_at: Span,
    /// Whether `count` is what runs; when not, its pods stand for an unknown number.
    count_known: bool,
    mount_path: String,
}

/// Reads the chart's values (of the file whose text is `text`) as the chart line `line`
/// renders them: a node per pod, with notes on what is assumed or not read.
pub fn read(
    values: &Values,
    text: &str,
    line: &ChartLine,
    notes: &mut Vec<String>,
) -> Vec<NodeSpec> {
    let root = values.root;
    let major = line.major.clamp(OLDEST, NEWEST);
    if line.major < OLDEST || line.major > NEWEST {
        notes.push(format!(
            "bitnami/kafka chart {} is outside the lines kafkalint knows ({OLDEST} to {NEWEST}); read as {major}",
            line.major
        ));
    }
    let tag = root.at(&["image", "tag"]).and_then(Node::scalar);
    let image_tag = match tag {
        Some(tag) => {
            images::tag_kafka_release(images::Image::Bitnami, &tag.value).map(|release| ImageTag {
                reference: format!("bitnami/kafka:{}", tag.value.trim()),
                span: tag.span.clone(),
                release,
                named_by: NamedBy::ImageTag,
            })
        }
        None => Some(ImageTag {
            reference: format!("{major}"),
            span: values.anchor.clone(),
            release: app_version(major),
            named_by: NamedBy::HelmChart,
        }),
    };
    let reader = Reader {
        values: root,
        text,
        anchor: values.anchor.clone(),
        line: major,
        image_tag,
    };
    // `{{- if or .Values.config .Values.existingConfigmap }}` (templates/statefulset.yaml):
    // a name Helm holds for true.
    if let Some(existing) = root
        .get("existingConfigmap")
        .filter(|node| is_set(node))
        .and_then(Node::text)
    {
        notes.push(format!(
            "its Kafka configuration is ConfigMap `{}` (existingConfigmap), which the values do not hold; not checked",
            existing.trim()
        ));
        return Vec::new();
    }
    // From line 24 each role may name its own: `kafka.controller.createConfigmap` and
    // `kafka.broker.createConfigmap` render the role's server.properties only when
    // `<role>.existingConfigmap` and `existingConfigmap` are both unset
    // (templates/_helpers.tpl, read at bitnami/charts kafka/26.6.2 and in the later files
    // that define them; the per-role blocks came with 24.0.0). A broker set of no pods
    // renders nothing.
    if major >= 24 {
        let brokers = root
            .at(&["broker", "replicaCount"])
            .and_then(Node::text)
            .is_some_and(|count| count.trim() != "0");
        for role in ["controller", "broker"] {
            if role == "broker" && !brokers {
                continue;
            }
            if let Some(existing) = root
                .at(&[role, "existingConfigmap"])
                .filter(|node| is_set(node))
                .and_then(Node::text)
            {
                notes.push(format!(
                    "the {role}s' Kafka configuration is ConfigMap `{}` ({role}.existingConfigmap), which the values do not hold; not checked",
                    existing.trim()
                ));
                return Vec::new();
            }
        }
    }
    if let Some((path, value)) = reader.unknown_layout() {
        notes.push(format!(
            "which pods run as brokers and controllers depends on `{path}`, set to `{value}`, which is worked out elsewhere; not checked"
        ));
        return Vec::new();
    }
    if major <= 23 {
        reader.env_era(notes)
    } else {
        reader.file_era(notes)
    }
}

impl Reader<'_> {
    fn get(&self, path: &[&str]) -> Option<&Node> {
        self.values.at(path)
    }

    fn scalar(&self, path: &[&str]) -> Option<&Scalar> {
        self.get(path)
            .and_then(Node::scalar)
            .filter(|scalar| !scalar.is_null())
    }

    /// A switch the templates test with `{{ if }}`: the chart's default when the values do
    /// not write it, else what Helm holds the written value for (`yes` is true, `"false"` a
    /// non-empty string and so true, `null` deletes the key and so is false).
    fn flag(&self, path: &[&str], default: bool) -> bool {
        self.get(path).map_or(default, is_set)
    }

    /// The value at `path` when Helm holds it for set (see [`is_set`]).
    fn set(&self, path: &[&str]) -> Option<&Node> {
        self.get(path).filter(|node| is_set(node))
    }

    /// A pod count, where it is set, and whether it is known: one set to a value worked out
    /// elsewhere (`${var.broker_count}`) is a pod that stands for an unknown number.
    fn count(&self, path: &[&str], default: usize) -> (usize, Span, bool) {
        match self.scalar(path) {
            Some(scalar) if is_placeholder(&scalar.value) => (1, scalar.span.clone(), false),
            Some(scalar) => (
                scalar.value.trim().parse().unwrap_or(default).min(1000),
                scalar.span.clone(),
                true,
            ),
            None => (default, self.anchor.clone(), true),
        }
    }

    /// The first value that decides which pods run in which roles and is worked out
    /// elsewhere, with its path.
    fn unknown_layout(&self) -> Option<(String, String)> {
        [
            &["kraft", "enabled"][..],
            &["kraft", "processRoles"],
            &["controller", "controllerOnly"],
        ]
        .iter()
        .find_map(|path| {
            let scalar = self.scalar(path)?;
            is_placeholder(&scalar.value).then(|| (path.join("."), scalar.value.clone()))
        })
    }

    /// A setting the values write (`value_path`), else the chart's default for it, at `at`.
    fn chart_setting(&self, key: &str, value_path: &[&str], default: &str, at: &Span) -> YamlEntry {
        match self.scalar(value_path) {
            Some(scalar) => {
                // The chart strips `_` from sizes written `_1073741824`.
                let value = scalar.value.trim().replace('_', "");
                YamlEntry {
                    key: key.to_string(),
                    edit: (scalar.exact && scalar.style != Style::Block && value == scalar.value)
                        .then_some(Edit {
                            style: scalar.style,
                        }),
                    value,
                    key_span: self.key_span(value_path).unwrap_or(scalar.span.clone()),
                    value_span: scalar.span.clone(),
                    provenance: Provenance::Written,
                }
            }
            None => self.chart_sets(key, default.to_string(), at),
        }
    }

    /// A setting the chart writes of itself, at `at` (the count of the pods it is about, else
    /// where the values' block starts).
    fn chart_sets(&self, key: &str, value: String, at: &Span) -> YamlEntry {
        YamlEntry::rendered(key, value, at, Provenance::Chart)
    }

    fn key_span(&self, path: &[&str]) -> Option<Span> {
        let (last, parents) = path.split_last()?;
        let parent = if parents.is_empty() {
            self.values
        } else {
            self.get(parents)?
        };
        parent
            .get_entry(last)
            .and_then(|(key, _)| key.scalar())
            .map(|key| key.span.clone())
    }

    /// The chart renders these from its listener, TLS and SASL values: set, to values kafkalint
    /// does not work out.
    fn rendered(&self, kraft: bool, at: &Span) -> Vec<YamlEntry> {
        crate::sources::spec::network_keys(kraft)
            .map(|key| self.chart_sets(key, format!("${{chart:{key}}}"), at))
            .collect()
    }

    /// Lines 12 to 23: one StatefulSet; every broker key a variable the chart always sets.
    fn env_era(&self, notes: &mut Vec<String>) -> Vec<NodeSpec> {
        let kraft = self.flag(&["kraft", "enabled"], self.line >= 22);
        let (count, count_at, count_known) = self.count(&["replicaCount"], 1);
        let min_id = self
            .scalar(&["minId"])
            .or_else(|| self.scalar(&["minBrokerId"]))
            .and_then(|scalar| scalar.value.trim().parse().ok())
            .unwrap_or(0);
        // `{{- if or .Values.config .Values.existingConfigmap }}` mounts it
        // (templates/statefulset.yaml): `config: ""`, the chart's own default, mounts nothing.
        let config = self.set(&["config"]);
        let mut entries = if let Some(Node::Scalar(config)) = config {
            // A whole server.properties, mounted where the image then ignores its environment.
            embedded::entries(config, self.text)
        } else if config.is_some() {
            notes.push(format!(
                "`config` is not a string, which chart line {} renders as its server.properties; not checked",
                self.line
            ));
            return Vec::new();
        } else {
            let mut entries = Vec::new();
            for (key, path, default) in ENV_ERA_KEYS {
                // Until 18.4.0 the chart misspelled this one's variable: it sets no key Kafka reads.
                if *key == "log.retention.check.interval.ms" && self.line <= 18 {
                    continue;
                }
                entries.push(self.chart_setting(key, path, default, &count_at));
            }
            entries.extend(self.rendered(kraft, &count_at));
            if kraft {
                entries.push(self.chart_setting(
                    "process.roles",
                    &["kraft", "processRoles"],
                    "broker,controller",
                    &count_at,
                ));
            }
            // `extraEnvVars` come after the chart's own variables in the container's `env`
            // (templates/statefulset.yaml, bitnami/charts@bfcc3d9, the same from kafka/12.0.0
            // to 23.0.7) and Kubernetes gives the container the last of a name: the documented
            // way to override what the chart sets, not a key written twice.
            let extra = self.extra_env_vars(notes);
            entries.retain(|entry| {
                entry.provenance != Provenance::Chart
                    || !extra.iter().any(|later| later.key == entry.key)
            });
            entries.extend(extra);
            entries
        };
        let id_key = if kraft { "node.id" } else { "broker.id" };
        entries.retain(|entry| entry.key != id_key);
        let set = Set {
            label: "the chart's StatefulSet".into(),
            role: None,
            roles: None,
            first_id: min_id,
            count,
            count_at: count_at.clone(),
            count_known,
            mount_path: "/bitnami/kafka".into(),
        };
        self.pods(&set, id_key, &entries)
    }

    /// `extraEnvVars` of `KAFKA_CFG_*` names, after the chart's own variables (the last of a
    /// name wins): bitnami's image makes `KAFKA_CFG_LOG_DIRS` `log.dirs`.
    fn extra_env_vars(&self, notes: &mut Vec<String>) -> Vec<YamlEntry> {
        let mut entries = Vec::new();
        // `{{- if .Values.extraEnvVars }}`: an empty list renders nothing.
        for item in self
            .set(&["extraEnvVars"])
            .map(Node::items)
            .unwrap_or_default()
        {
            let Some(name) = item.get("name").and_then(Node::scalar) else {
                continue;
            };
            let Some(key) = name.value.strip_prefix("KAFKA_CFG_") else {
                continue;
            };
            let key = key.to_ascii_lowercase().replace('_', ".");
            match item.get("value").and_then(Node::scalar) {
                Some(value) => entries.push(YamlEntry {
                    key,
                    value: value.value.clone(),
                    key_span: name.span.clone(),
                    value_span: value.span.clone(),
                    edit: (value.exact && value.style != Style::Block)
                        .then_some(Edit { style: value.style }),
                    provenance: Provenance::Written,
                }),
                None => {
                    notes.push(format!(
                        "extraEnvVars `{}` takes its value from elsewhere; unknown",
                        name.value
                    ));
                    entries.push(YamlEntry {
                        value: format!("${{{key}}}"),
                        key,
                        key_span: name.span.clone(),
                        value_span: name.span.clone(),
                        edit: None,
                        provenance: Provenance::Written,
                    });
                }
            }
        }
        entries
    }

    /// Lines 24 to 32: a controller-eligible StatefulSet and a broker one; the chart renders
    /// `server.properties` with no replication factor.
    fn file_era(&self, notes: &mut Vec<String>) -> Vec<NodeSpec> {
        let kraft = self.line >= 32 || self.flag(&["kraft", "enabled"], true);
        let mut sets = Vec::new();
        if kraft {
            let (count, count_at, count_known) = self.count(&["controller", "replicaCount"], 3);
            let only = self.flag(&["controller", "controllerOnly"], false);
            sets.push(Set {
                label: "the chart's controller StatefulSet".into(),
                role: Some("controller"),
                roles: Some(if only {
                    "controller"
                } else {
                    "controller,broker"
                }),
                first_id: self.min_id("controller", 0),
                count,
                count_at,
                count_known,
                mount_path: self.mount_path("controller"),
            });
        }
        let (count, count_at, count_known) = self.count(&["broker", "replicaCount"], 0);
        sets.push(Set {
            label: "the chart's broker StatefulSet".into(),
            role: Some("broker"),
            roles: kraft.then_some("broker"),
            first_id: self.min_id("broker", 100),
            count,
            count_at,
            count_known,
            mount_path: self.mount_path("broker"),
        });
        let id_key = if kraft { "node.id" } else { "broker.id" };
        let mut nodes = Vec::new();
        for set in &sets {
            let entries = self.file_entries(set, kraft, notes);
            nodes.extend(self.pods(set, id_key, &entries));
        }
        nodes
    }

    fn min_id(&self, role: &str, default: usize) -> usize {
        self.scalar(&[role, "minId"])
            .and_then(|scalar| scalar.value.trim().parse().ok())
            .unwrap_or(default)
    }

    fn mount_path(&self, role: &str) -> String {
        self.scalar(&[role, "persistence", "mountPath"])
            .map_or("/bitnami/kafka".into(), |scalar| {
                scalar.value.trim().trim_end_matches('/').to_string()
            })
    }

    /// What a StatefulSet's `server.properties` holds, layer after layer (a later key wins).
    fn file_entries(&self, set: &Set, kraft: bool, notes: &mut Vec<String>) -> Vec<YamlEntry> {
        let role = set.role.unwrap_or_default();
        let mut layers: Vec<Vec<YamlEntry>> = Vec::new();
        let role_first = |key: &str| {
            // `{{- if or .Values.config .Values.controller.config }}` and
            // `coalesce .Values.controller.config .Values.config`
            // (templates/controller-eligible/configmap.yaml, kafka/24.0.0 .. 31.5.0).
            self.set(&[role, key]).or_else(|| self.set(&[key]))
        };
        match role_first("config") {
            Some(Node::Scalar(config)) if self.line <= 31 => {
                layers.push(embedded::entries(config, self.text));
            }
            Some(config @ Node::Map(_)) if self.line >= 32 => {
                layers.push(self.map_entries(config));
            }
            Some(_) => notes.push(format!(
                "`config` of the {} is not what chart line {} takes; not read",
                set.label, self.line
            )),
            None => {
                let mut generated = self.rendered(kraft, &set.count_at);
                generated.push(self.chart_sets(
                    "log.dir",
                    format!("{}/data", set.mount_path),
                    &set.count_at,
                ));
                layers.push(generated);
                if self.line <= 31 {
                    for path in [vec!["extraConfig"], vec![role, "extraConfig"]] {
                        if let Some(Node::Scalar(extra)) = self.set(&path) {
                            layers.push(embedded::entries(extra, self.text));
                        }
                    }
                    // Merged, the role's keys winning.
                    for path in [vec!["extraConfigYaml"], vec![role, "extraConfigYaml"]] {
                        if let Some(extra) = self.set(&path) {
                            layers.push(self.map_entries(extra));
                        }
                    }
                }
            }
        }
        if self.line >= 32 {
            for path in [
                vec!["overrideConfiguration"],
                vec![role, "overrideConfiguration"],
            ] {
                if let Some(overrides) = self.set(&path) {
                    layers.push(self.map_entries(overrides));
                }
            }
        }
        for path in [vec!["secretConfig"], vec![role, "secretConfig"]] {
            if let Some(Node::Scalar(secret)) = self.set(&path) {
                layers.push(embedded::entries(secret, self.text));
            }
        }
        let mut entries: Vec<YamlEntry> = Vec::new();
        for layer in layers {
            entries.retain(|entry| !layer.iter().any(|later| later.key == entry.key));
            entries.extend(layer);
        }
        if let Some(roles) = set.roles {
            entries.retain(|entry| entry.key != "process.roles");
            entries.push(self.chart_sets("process.roles", roles.to_string(), &set.count_at));
        }
        entries
    }

    /// A map of settings (`overrideConfiguration`, `extraConfigYaml`, a line-32 `config`).
    fn map_entries(&self, map: &Node) -> Vec<YamlEntry> {
        map.entries()
            .iter()
            .filter_map(|(key, value)| Some(YamlEntry::written(key.scalar()?, value.scalar()?)))
            .collect()
    }

    /// A node per pod of `set`, each with its id (the init script's ordinal plus the set's
    /// first id).
    fn pods(&self, set: &Set, id_key: &str, entries: &[YamlEntry]) -> Vec<NodeSpec> {
        (0..set.count)
            .map(|ordinal| {
                let id = set.first_id + ordinal;
                let mut entries = entries.to_vec();
                entries.retain(|entry| entry.key != id_key);
                entries.insert(
                    0,
                    YamlEntry {
                        key: id_key.to_string(),
                        value: id.to_string(),
                        key_span: set.count_at.clone(),
                        value_span: set.count_at.clone(),
                        edit: None,
                        provenance: Provenance::Chart,
                    },
                );
                NodeSpec {
                    id: format!("chart {} {ordinal}", set.label),
                    declared_at: set.count_at.clone(),
                    label: format!("{}, pod {ordinal}", set.label),
                    entries,
                    count_known: set.count_known,
                    image: None,
                    image_tag: self.image_tag.clone(),
                    component: None,
                    forbidden: Vec::new(),
                    ignored_by_release: Vec::new(),
                    runtime: Runtime::Container {
                        image: "bitnami/kafka".into(),
                        orchestrator: Orchestrator::Kubernetes,
                        host_network: false,
                        volumes: vec![set.mount_path.clone()],
                    },
                    image_exit: None,
                    settings_elsewhere: false,
                }
            })
            .collect()
    }
}

/// Keys of lines 12 to 23 the chart always sets from a top-level value, with the value's
/// default (bitnami/charts@kafka/12.0.0 and @kafka/23.0.7: values.yaml, templates/statefulset.yaml).
const ENV_ERA_KEYS: &[(&str, &[&str], &str)] = &[
    ("delete.topic.enable", &["deleteTopicEnable"], "false"),
    (
        "auto.create.topics.enable",
        &["autoCreateTopicsEnable"],
        "true",
    ),
    (
        "log.flush.interval.messages",
        &["logFlushIntervalMessages"],
        "10000",
    ),
    ("log.flush.interval.ms", &["logFlushIntervalMs"], "1000"),
    ("log.retention.bytes", &["logRetentionBytes"], "1073741824"),
    (
        "log.retention.check.interval.ms",
        &["logRetentionCheckIntervalMs"],
        "300000",
    ),
    ("log.retention.hours", &["logRetentionHours"], "168"),
    ("log.segment.bytes", &["logSegmentBytes"], "1073741824"),
    ("log.dirs", &["logsDirs"], "/bitnami/kafka/data"),
    ("message.max.bytes", &["maxMessageBytes"], "1000012"),
    (
        "default.replication.factor",
        &["defaultReplicationFactor"],
        "1",
    ),
    (
        "offsets.topic.replication.factor",
        &["offsetsTopicReplicationFactor"],
        "1",
    ),
    (
        "transaction.state.log.replication.factor",
        &["transactionStateLogReplicationFactor"],
        "1",
    ),
    (
        "transaction.state.log.min.isr",
        &["transactionStateLogMinIsr"],
        "1",
    ),
    ("num.io.threads", &["numIoThreads"], "8"),
    ("num.network.threads", &["numNetworkThreads"], "3"),
    ("num.partitions", &["numPartitions"], "1"),
    (
        "num.recovery.threads.per.data.dir",
        &["numRecoveryThreadsPerDataDir"],
        "1",
    ),
    (
        "socket.receive.buffer.bytes",
        &["socketReceiveBufferBytes"],
        "102400",
    ),
    (
        "socket.request.max.bytes",
        &["socketRequestMaxBytes"],
        "104857600",
    ),
    (
        "socket.send.buffer.bytes",
        &["socketSendBufferBytes"],
        "102400",
    ),
];

/// Whether `name` is a value of the chart that it writes as a plain Kafka setting
/// (`offsetsTopicReplicationFactor`): output may show it.
pub fn is_setting_value(name: &str) -> bool {
    ENV_ERA_KEYS
        .iter()
        .any(|(_, path, _)| path.last() == Some(&name))
}

/// A value worked out elsewhere (`${var.x}` of a Terraform release): not one to judge.
fn is_placeholder(value: &str) -> bool {
    crate::properties::is_placeholder(value)
}

/// Whether Helm holds a value for set, as the chart's `{{ if .Values.x }}`, `or`, `coalesce`
/// and `default` test it: Go's text/template truth (`isTrue`, go/src/text/template/exec.go)
/// of the value Helm reads (YAML 1.1 through sigs.k8s.io/yaml: `yes`, `on`, `y` are true,
/// `no`, `off`, `n` false; numbers are numbers). False: `false`, zero, an empty string (a
/// block scalar whose lines are all less indented comments is one), `{}`, `[]`, and `null`,
/// which deletes the key. A block scalar of indented `# ...` lines is a non-empty string:
/// set. Checked against `helm template` in tests/helm.rs.
pub fn is_set(node: &Node) -> bool {
    match node {
        Node::Map(entries) => !entries.is_empty(),
        Node::Seq(items) => !items.is_empty(),
        Node::Scalar(scalar) if scalar.is_null() => false,
        Node::Scalar(scalar) if scalar.style != Style::Plain => !scalar.value.is_empty(),
        Node::Scalar(scalar) => {
            let value = scalar.value.as_str();
            if let Some(truth) = yaml_1_1_bool(value) {
                return truth;
            }
            match number_of(value) {
                Some(number) => number != 0.0,
                None => !value.is_empty(),
            }
        }
    }
}

/// A plain scalar YAML 1.1 reads as a boolean (go-yaml v2's resolve table).
fn yaml_1_1_bool(value: &str) -> Option<bool> {
    match value {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Some(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Some(false)
        }
        _ => None,
    }
}

/// A plain scalar YAML reads as a number (decimal, `0x` hex, `0o`/`0` octal, `.inf`).
fn number_of(value: &str) -> Option<f64> {
    let unsigned = value.trim_start_matches(['+', '-']);
    let unsigned = unsigned.replace('_', "");
    if let Some(hex) = unsigned.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(|n| n as f64);
    }
    if let Some(octal) = unsigned.strip_prefix("0o") {
        return i64::from_str_radix(octal, 8).ok().map(|n| n as f64);
    }
    if matches!(unsigned.as_str(), ".inf" | ".Inf" | ".INF") {
        return Some(f64::INFINITY);
    }
    if unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return unsigned.parse::<f64>().ok();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn majors_of_versions_and_constraints() {
        for (text, major) in [
            ("32.4.3", Some(32)),
            ("^26.0.0", Some(26)),
            ("~24", Some(24)),
            ("32.x.x", Some(32)),
            (">= 20.0.0", Some(20)),
            ("latest", None),
        ] {
            assert_eq!(major_of(text), major, "{text}");
        }
    }
}
