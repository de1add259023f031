//! Which Kafka release a cluster is checked against: `--kafka-version`, else what its files
//! show (ZooKeeper mode and `inter.broker.protocol.version` exist only up to 3.9), else the
//! newest release the catalogue covers.

use crate::catalog::KafkaVersion;
use crate::properties::Entry;
use crate::source::SourceFile;

use super::{Cluster, Mode};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub version: KafkaVersion,
    pub chosen_by: ChosenBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChosenBy {
    /// `--kafka-version`.
    Flag,
    /// `kafka-version` in `kafkalint.toml` (the cluster's, else the file's).
    Config,
    /// No flag and no hint: the newest release.
    Newest,
    /// No flag; a file shows a release older than the newest.
    Hint,
}

impl Target {
    pub fn newest() -> Target {
        Target {
            version: KafkaVersion::newest(),
            chosen_by: ChosenBy::Newest,
        }
    }
}

/// What one file says of the release it runs on.
#[derive(Debug, Clone, Copy)]
pub struct Hint<'a> {
    pub file: usize,
    /// The entry that shows it: `zookeeper.connect` or `inter.broker.protocol.version`.
    pub entry: &'a Entry,
    /// The newest release this is possible on.
    pub at_most: KafkaVersion,
    /// The oldest release this is possible on (a protocol version needs a broker that has it).
    pub at_least: Option<KafkaVersion>,
}

impl Hint<'_> {
    pub fn allows(&self, version: KafkaVersion) -> bool {
        version <= self.at_most && self.at_least.is_none_or(|least| least <= version)
    }
}

/// Every hint in the cluster's files, in file order.
pub fn hints<'a>(cluster: &Cluster, files: &'a [SourceFile]) -> Vec<Hint<'a>> {
    let mut hints = Vec::new();
    for node in &cluster.nodes {
        let properties = &files[node.file].properties;
        if node.mode == Mode::ZooKeeper
            && let Some(entry) = properties.get("zookeeper.connect")
        {
            hints.push(Hint {
                file: node.file,
                entry,
                at_most: KafkaVersion::LAST_WITH_ZOOKEEPER,
                at_least: None,
            });
        }
        if let Some(entry) = properties.get("inter.broker.protocol.version") {
            hints.push(Hint {
                file: node.file,
                entry,
                at_most: KafkaVersion::LAST_WITH_ZOOKEEPER,
                at_least: protocol_release(&entry.value),
            });
        }
    }
    hints
}

/// The release line a protocol version such as `3.6-IV2` or `3.6` belongs to; `None` for the
/// 0.x forms and for text that is not a version (another rule reports that).
fn protocol_release(value: &str) -> Option<KafkaVersion> {
    let value = value.trim();
    let line = value.split("-IV").next()?;
    let mut parts = line.split('.');
    let major: u8 = parts.next()?.parse().ok()?;
    let minor: u8 = parts.next()?.parse().ok()?;
    (major > 0).then(|| KafkaVersion::new(major, minor))
}

/// The target of a cluster: the flag if given; else the newest release every hint allows.
pub fn choose(cluster: &Cluster, files: &[SourceFile], flag: Option<KafkaVersion>) -> Target {
    if let Some(version) = flag {
        return Target {
            version,
            chosen_by: ChosenBy::Flag,
        };
    }
    let hints = hints(cluster, files);
    let newest_allowed = crate::catalog::VERSIONS
        .iter()
        .rev()
        .find(|version| hints.iter().all(|hint| hint.allows(**version)));
    match newest_allowed {
        Some(version) if *version == KafkaVersion::newest() => Target::newest(),
        Some(version) => Target {
            version: *version,
            chosen_by: ChosenBy::Hint,
        },
        // Hints that contradict each other: the newest release that still has ZooKeeper.
        None => Target {
            version: KafkaVersion::LAST_WITH_ZOOKEEPER,
            chosen_by: ChosenBy::Hint,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_versions_name_their_release() {
        assert_eq!(protocol_release("3.6-IV2"), Some(KafkaVersion::new(3, 6)));
        assert_eq!(protocol_release(" 3.6 "), Some(KafkaVersion::new(3, 6)));
        assert_eq!(protocol_release("3.6.1"), Some(KafkaVersion::new(3, 6)));
        assert_eq!(protocol_release("0.10.2"), None);
        assert_eq!(protocol_release("latest"), None);
    }
}
