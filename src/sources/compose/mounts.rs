//! The `.properties` files a compose file's services bind-mount into their containers: a node
//! file read from such a folder runs in that service's container, a network and a disk of its
//! own, not beside the other files of its folder on one machine.
//!
//! Compose reads a service's `volumes` in its short form `SOURCE:TARGET[:MODE]`, where a
//! SOURCE that starts with `.`, `/` or `~` is a path on the host and anything else a named
//! volume, and in its long form `{type: bind, source, target}`; a relative SOURCE is resolved
//! against the project directory, the folder of the compose file (compose-go v2.16.2,
//! `format/volume.go` `ParseVolume` and `isFilePath`, `paths/resolve.go`
//! `ResolveRelativePaths`). A `~` source names a home folder kafkalint does not know: not read.

use std::path::{Path, PathBuf};

use crate::sources::yaml::Node;

/// A `.properties` file a compose service bind-mounts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountedProperties {
    /// The file on the host, the compose file's folder joined with the volume's source.
    pub source: PathBuf,
    pub service: String,
    /// The compose file, as it was found.
    pub compose: String,
    /// `network_mode: host`: the container shares the machine's network.
    pub host_network: bool,
}

/// Every `.properties` file the services of the compose document `document` (of the file
/// `compose_path`) bind-mount.
pub fn mounted_properties(compose_path: &str, document: &Node) -> Vec<MountedProperties> {
    let folder = Path::new(compose_path).parent().unwrap_or(Path::new(""));
    let mut mounted = Vec::new();
    for (name, service) in document
        .get("services")
        .map(Node::entries)
        .unwrap_or_default()
    {
        let Some(name) = name.text() else { continue };
        let host_network = service
            .get("network_mode")
            .and_then(Node::text)
            .is_some_and(|mode| mode.trim() == "host");
        let volumes = service.get("volumes").map(Node::items).unwrap_or_default();
        for source in volumes.iter().filter_map(bind_source) {
            if !source.to_ascii_lowercase().ends_with(".properties") {
                continue;
            }
            mounted.push(MountedProperties {
                source: folder.join(source),
                service: name.trim().to_string(),
                compose: compose_path.to_string(),
                host_network,
            });
        }
    }
    mounted
}

/// The host path a volume binds, or `None` for a named volume or a form not read.
fn bind_source(volume: &Node) -> Option<&str> {
    match volume {
        Node::Scalar(scalar) => {
            let source = scalar.value.trim().split(':').next()?;
            source
                .starts_with(['.', '/', '~'])
                .then_some(source)
                .filter(|source| !source.starts_with('~'))
        }
        Node::Map(_) => {
            let bind = volume.get("type").and_then(Node::text).map(str::trim) == Some("bind");
            bind.then(|| volume.get("source").and_then(Node::text))
                .flatten()
                .map(str::trim)
        }
        Node::Seq(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bind_mounts_of_properties_files_resolve_against_the_compose_folder() {
        let text = "services:\n  kafka-1:\n    image: apache/kafka:3.9.1\n    volumes:\n      \
                    - ./config/server-1.properties:/opt/kafka/config/server.properties:ro\n      \
                    - data:/var/lib/kafka\n  kafka-2:\n    network_mode: host\n    volumes:\n      \
                    - type: bind\n        source: config/server-2.properties\n        target: \
                    /opt/kafka/config/server.properties\n";
        let documents = crate::sources::yaml::parse(text).unwrap();
        let mounted = mounted_properties("repo/docker-compose.yml", &documents[0]);
        let seen: Vec<(&str, &Path, bool)> = mounted
            .iter()
            .map(|m| (m.service.as_str(), m.source.as_path(), m.host_network))
            .collect();
        assert_eq!(
            seen,
            [
                (
                    "kafka-1",
                    Path::new("repo/./config/server-1.properties"),
                    false
                ),
                (
                    "kafka-2",
                    Path::new("repo/config/server-2.properties"),
                    true
                ),
            ]
        );
    }
}
