//! `inter.broker.protocol.version` and `log.message.format.version` as Kafka 3.x reads them
//! (`MetadataVersion.fromVersionString`), ordered as the release orders them. The versions are
//! those the catalogue dumped from the release's validator, oldest first.

use crate::catalog::{self, Default, KafkaVersion, Validator};

/// One `MetadataVersion` of a release: its index in the release's list, oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ProtocolVersion {
    index: usize,
}

/// The record format versions of Kafka's log (the message format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RecordVersion {
    V0,
    V1,
    V2,
}

/// The metadata versions a release knows, and the newest production one (the default of
/// `inter.broker.protocol.version`).
#[derive(Debug, Clone, Copy)]
pub struct ProtocolVersions {
    names: &'static [&'static str],
    latest_production: usize,
}

impl ProtocolVersions {
    /// The versions of release `version`; `None` from 4.0, which has no such keys.
    pub fn of(version: KafkaVersion) -> Option<ProtocolVersions> {
        let spec = catalog::spec("inter.broker.protocol.version", version)?;
        let Validator::Custom { accepted, .. } = spec.validator else {
            return None;
        };
        let Default::Value(default) = spec.default else {
            return None;
        };
        let latest_production = accepted.iter().position(|name| *name == default)?;
        Some(ProtocolVersions {
            names: accepted,
            latest_production,
        })
    }

    /// `MetadataVersion.fromVersionString` of a trimmed value: a full version (`3.0-IV1`), the
    /// short name of a production release (`3.0`, its newest IV), or either with more segments
    /// (`3.0.1`: two segments are kept, three for `0.x`).
    pub fn parse(&self, text: &str) -> Option<ProtocolVersion> {
        let mut segments: Vec<&str> = text.split('.').collect();
        // Java's split drops trailing empty segments.
        while segments.len() > 1 && segments.last() == Some(&"") {
            segments.pop();
        }
        let wanted = if text.starts_with("0.") { 3 } else { 2 };
        let key = if wanted >= segments.len() {
            text.to_owned()
        } else {
            segments[..wanted].join(".")
        };
        if let Some(index) = self.names.iter().position(|name| *name == key) {
            return Some(ProtocolVersion { index });
        }
        // A short name stands for the newest production version of its release line.
        self.names[..=self.latest_production]
            .iter()
            .rposition(|name| release_of(name) == key)
            .map(|index| ProtocolVersion { index })
    }

    /// A version the release must know (Kafka names it in its checks).
    pub fn known(&self, name: &str) -> Option<ProtocolVersion> {
        self.names
            .iter()
            .position(|known| *known == name)
            .map(|index| ProtocolVersion { index })
    }

    pub fn name(&self, version: ProtocolVersion) -> &'static str {
        self.names[version.index]
    }

    /// The newest record format the version writes.
    pub fn record_version(&self, version: ProtocolVersion) -> RecordVersion {
        let at_least = |name: &str| self.known(name).is_some_and(|known| version >= known);
        if at_least("0.11.0-IV0") {
            RecordVersion::V2
        } else if at_least("0.10.0-IV0") {
            RecordVersion::V1
        } else {
            RecordVersion::V0
        }
    }
}

/// `3.0` of `3.0-IV1`; versions before IVs (`0.8.0`) are their own release.
fn release_of(name: &str) -> &str {
    name.split_once("-IV").map_or(name, |(release, _)| release)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_as_kafka_3_9_reads_them() {
        let versions = ProtocolVersions::of(KafkaVersion::new(3, 9)).expect("3.9 has them");
        let parsed = |text: &str| versions.parse(text).map(|v| versions.name(v));
        assert_eq!(parsed("3.0.1"), Some("3.0-IV1"));
        assert_eq!(parsed("3.0.1.7"), Some("3.0-IV1"));
        assert_eq!(parsed("0.10.0.1"), Some("0.10.0-IV1"));
        assert_eq!(parsed("1.0.0"), Some("1.0-IV0"));
        assert_eq!(parsed("0.8.2.2"), Some("0.8.2"));
        assert_eq!(parsed("3.9"), Some("3.9-IV0"));
        assert_eq!(parsed("3.0-IV0"), Some("3.0-IV0"));
        assert_eq!(parsed("4.0-IV1"), Some("4.0-IV1"));
        // 4.0 is not a production release of 3.9, so its short name is unknown.
        for bad in ["4.0", "3.0-iv1", "3", "0.10", "3.9.", "3..0", "10.0", ""] {
            assert_eq!(parsed(bad), None, "{bad:?}");
        }
        // `3.9.` keeps its text as the key: Java drops the empty segment, leaving two.
        let v = |text| versions.parse(text).expect(text);
        assert!(v("2.8") < v("3.0-IV1"));
        assert_eq!(versions.record_version(v("0.9.0")), RecordVersion::V0);
        assert_eq!(versions.record_version(v("0.10.2")), RecordVersion::V1);
        assert_eq!(versions.record_version(v("2.0")), RecordVersion::V2);
        assert!(ProtocolVersions::of(KafkaVersion::new(4, 0)).is_none());
    }
}
