//! The Kafka release a cluster is checked against, and what chose it (see `version`, which
//! chooses it from the files).

use std::sync::Arc;

use crate::catalog::KafkaVersion;
use crate::sources::ImageTag;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub version: KafkaVersion,
    pub chosen_by: ChosenBy,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChosenBy {
    /// `--kafka-version`.
    Flag,
    /// `kafka-version` in `kafkalint.toml` (the cluster's, else the file's).
    Config,
    /// No flag and no hint: the newest release.
    Newest,
    /// No flag; a file shows a release older than the newest.
    Hint,
    /// No flag; a compose service's image tag names the release (kept here: output may no
    /// longer hold the file's YAML).
    Image(Arc<ImageTag>),
}

impl Target {
    pub fn newest() -> Target {
        Target {
            version: KafkaVersion::newest(),
            chosen_by: ChosenBy::Newest,
        }
    }

    /// The image tag that chose the release, if one did.
    pub fn image(&self) -> Option<&ImageTag> {
        match &self.chosen_by {
            ChosenBy::Image(tag) => Some(tag),
            _ => None,
        }
    }

    /// Why an image tag chose the release, for people: "from the image tag
    /// wurstmeister/kafka:2.13-2.8.1", saying so when the tag names a release the catalogue
    /// does not cover and the nearest one it covers is used instead.
    pub fn image_reason(&self) -> Option<String> {
        let tag = self.image()?;
        Some(if tag.release == self.version {
            format!("from {}", tag.shown())
        } else {
            let which = if tag.release < self.version {
                "oldest"
            } else {
                "newest"
            };
            format!(
                "{} runs Kafka {}; the {which} release kafkalint knows is used",
                tag.shown(),
                tag.release
            )
        })
    }
}
