//! Which Kafka release a cluster is checked against: `--kafka-version`, else what its files
//! show (ZooKeeper mode and `inter.broker.protocol.version` exist only up to 3.9; a compose
//! service's image tag names its release), else the newest release the catalogue covers.

use std::sync::Arc;

use crate::catalog::{KafkaVersion, VERSIONS};
use crate::source::SourceFile;
use crate::sources::ImageTag;

use super::target::{ChosenBy, Target};
use super::{Cluster, Line, Mode};

/// What one file says of the release it runs on.
#[derive(Debug, Clone, Copy)]
pub struct Hint<'a> {
    pub file: usize,
    pub shown_by: ShownBy<'a>,
    /// The newest release this is possible on.
    pub at_most: KafkaVersion,
    /// The oldest release this is possible on (a protocol version needs a broker that has it).
    pub at_least: Option<KafkaVersion>,
}

/// What shows a file's release.
#[derive(Debug, Clone, Copy)]
pub enum ShownBy<'a> {
    /// `zookeeper.connect` or `inter.broker.protocol.version`.
    Line(Line<'a>),
    /// The image tag of a compose service: exactly one release.
    ImageTag(&'a ImageTag),
}

impl Hint<'_> {
    pub fn allows(&self, version: KafkaVersion) -> bool {
        version <= self.at_most && self.at_least.is_none_or(|least| least <= version)
    }
}

/// The release of the catalogue a tag's release is checked against: itself, else the oldest
/// (for an older image: the least surprising, as it has the fewest removals) or the newest
/// (for a newer one) the catalogue covers. The hint then allows that release alone, so a
/// `--kafka-version` of it is no contradiction: no closer one can be given.
pub fn nearest_known(release: KafkaVersion) -> KafkaVersion {
    let oldest = *VERSIONS.first().expect("the catalogue has releases");
    release.clamp(oldest, KafkaVersion::newest())
}

/// Every hint in the cluster's files, in file order.
pub fn hints<'a>(cluster: &Cluster, files: &'a [SourceFile]) -> Vec<Hint<'a>> {
    let mut hints = Vec::new();
    for node in &cluster.nodes {
        let properties = node.properties(files);
        if node.mode == Mode::ZooKeeper
            && let Some(entry) = properties.get("zookeeper.connect")
        {
            hints.push(Hint {
                file: node.file,
                shown_by: ShownBy::Line(Line::new(node.file, entry)),
                at_most: KafkaVersion::LAST_WITH_ZOOKEEPER,
                at_least: None,
            });
        }
        if let Some(entry) = properties.get("inter.broker.protocol.version") {
            hints.push(Hint {
                file: node.file,
                shown_by: ShownBy::Line(Line::new(node.file, entry)),
                at_most: KafkaVersion::LAST_WITH_ZOOKEEPER,
                at_least: protocol_release(&entry.value),
            });
        }
        if let Some(tag) = node.view(files).and_then(|view| view.image_tag.as_ref()) {
            let release = nearest_known(tag.release);
            hints.push(Hint {
                file: node.file,
                shown_by: ShownBy::ImageTag(tag),
                at_most: release,
                at_least: Some(release),
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

/// The catalogue release an image hint pins, with its tag; `None` for other hints.
fn image_release<'a>(hint: &Hint<'a>) -> Option<(KafkaVersion, &'a ImageTag)> {
    match hint.shown_by {
        ShownBy::ImageTag(tag) => Some((hint.at_most, tag)),
        ShownBy::Line(_) => None,
    }
}

/// The target of a cluster: the flag if given; else the newest release every hint allows. An
/// image tag names the release the service really runs, so when hints contradict each other
/// (an image of Kafka 4 with `zookeeper.connect`, two images of different releases) the
/// newest image release wins: the file's other hints are then what is wrong.
pub fn choose(cluster: &Cluster, files: &[SourceFile], flag: Option<KafkaVersion>) -> Target {
    if let Some(version) = flag {
        return Target {
            version,
            chosen_by: ChosenBy::Flag,
        };
    }
    let hints = hints(cluster, files);
    let newest_allowed = VERSIONS
        .iter()
        .rev()
        .find(|version| hints.iter().all(|hint| hint.allows(**version)))
        .copied();
    let newest_image = hints
        .iter()
        .filter_map(image_release)
        .max_by_key(|(v, _)| *v);
    let version = match (newest_allowed, newest_image) {
        (Some(version), _) => version,
        (None, Some((version, _))) => version,
        // Hints that contradict each other: the newest release that still has ZooKeeper.
        (None, None) => KafkaVersion::LAST_WITH_ZOOKEEPER,
    };
    // The first image that names the chosen release explains it.
    let named_by_image = hints
        .iter()
        .filter_map(image_release)
        .find(|(release, _)| *release == version);
    let chosen_by = match named_by_image {
        Some((_, tag)) => ChosenBy::Image(Arc::new(tag.clone())),
        None if version == KafkaVersion::newest() => ChosenBy::Newest,
        None => ChosenBy::Hint,
    };
    Target { version, chosen_by }
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

    #[test]
    fn an_image_release_outside_the_catalogue_is_checked_against_the_nearest_known() {
        let oldest = *VERSIONS.first().unwrap();
        assert_eq!(nearest_known(KafkaVersion::new(0, 10)), oldest);
        assert_eq!(
            nearest_known(KafkaVersion::new(3, 7)),
            KafkaVersion::new(3, 7)
        );
        assert_eq!(
            nearest_known(KafkaVersion::new(99, 0)),
            KafkaVersion::newest()
        );
    }

    #[test]
    fn an_old_image_is_not_contradicted_by_the_oldest_known_release_only() {
        let tag = ImageTag {
            reference: "wurstmeister/kafka:2.12-2.2.1".into(),
            span: 0..1,
            release: KafkaVersion::new(2, 2),
            named_by: crate::sources::NamedBy::ImageTag,
        };
        let release = nearest_known(tag.release);
        let hint = Hint {
            file: 0,
            shown_by: ShownBy::ImageTag(&tag),
            at_most: release,
            at_least: Some(release),
        };
        assert!(hint.allows(release));
        assert!(!hint.allows(KafkaVersion::new(3, 9)));
    }
}
