//! Validators that Kafka writes as code (lambdas and validator classes) rather than as data.
//! Each is matched by key and class, and mirrors the Kafka source it names.

use super::parsed::{Parsed, Refusal};

pub fn validate(key: &str, class: &str, accepted: &[&str], value: &Parsed) -> Result<(), Refusal> {
    let refuse = |reason: String| Err(Refusal { reason });
    match (key, value) {
        // CompressionType / GzipCompression: Deflater's levels 1..9, or -1 for zlib's default.
        ("compression.gzip.level", Parsed::Integer(level)) => {
            if *level == -1 || (1..=9).contains(level) {
                Ok(())
            } else {
                refuse("must be -1 or a gzip level from 1 to 9".to_owned())
            }
        }
        // RemoteLogManagerConfig (3.9): -1 means "use remote.log.manager.thread.pool.size".
        (
            "remote.log.manager.copier.thread.pool.size"
            | "remote.log.manager.expiration.thread.pool.size",
            Parsed::Integer(size),
        ) => {
            if *size == -1 || *size >= 1 {
                Ok(())
            } else {
                refuse("must be -1 or a pool size of at least 1".to_owned())
            }
        }
        // ThrottledReplicaListValidator (kafka.server in Scala to 3.4, then
        // org.apache.kafka.storage.internals.log): the literal `*`, or every element
        // `<partition>:<broker>` (or empty), each trimmed.
        (_, Parsed::List(items)) if class.contains("ThrottledReplicaListValidator") => {
            let replica = |item: &str| {
                item.is_empty()
                    || item.split_once(':').is_some_and(|(partition, broker)| {
                        [partition, broker]
                            .iter()
                            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    })
            };
            let trimmed: Vec<&str> = items
                .iter()
                .map(|item| super::parsed::java_trim(item))
                .collect();
            if trimmed.iter().all(|item| replica(item)) || trimmed.concat() == "*" {
                Ok(())
            } else {
                refuse(format!(
                    "{key} must be the literal '*' or a list of replicas in the following format: [partitionId]:[brokerId],[partitionId]:[brokerId],..."
                ))
            }
        }
        // MetadataVersion.fromVersionString / ApiVersion.apply.
        (_, Parsed::Text(text)) if class.contains("VersionValidator") => {
            if metadata_version_known(text, accepted) {
                Ok(())
            } else {
                refuse(format!(
                    "`{text}` is not a Kafka protocol version this release knows (oldest {}, newest {})",
                    accepted.first().unwrap_or(&"?"),
                    accepted.last().unwrap_or(&"?")
                ))
            }
        }
        // The quorum validators (voters, bootstrap servers) are cross-field matters handled by
        // the start-up rules, which parse both keys.
        _ => Ok(()),
    }
}

/// Kafka accepts a full version (`3.6-IV2`), its short form (`3.6`, the newest IV of the line),
/// and anything whose first segments name one (`3.6.1`: two segments, three for `0.x`).
fn metadata_version_known(text: &str, accepted: &[&str]) -> bool {
    let segments: Vec<&str> = text.split('.').collect();
    let wanted = if text.starts_with("0.") { 3 } else { 2 };
    let key = if wanted >= segments.len() {
        text.to_owned()
    } else {
        segments[..wanted].join(".")
    };
    accepted
        .iter()
        .any(|version| *version == key || version.split("-IV").next() == Some(key.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOME: &[&str] = &["0.8.0", "0.10.0-IV0", "0.10.0-IV1", "3.6-IV0", "3.6-IV2"];

    #[test]
    fn metadata_versions_take_kafkas_forms() {
        for ok in [
            "3.6",
            "3.6-IV2",
            "3.6.1",
            "0.10.0",
            "0.10.0-IV1",
            "0.10.0.1",
            "0.8.0",
        ] {
            assert!(metadata_version_known(ok, SOME), "{ok}");
        }
        for bad in ["3.7", "3.6-IV9", "3", "0.10", "latest", ""] {
            assert!(!metadata_version_known(bad, SOME), "{bad}");
        }
    }
}
