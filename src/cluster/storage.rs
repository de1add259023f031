//! Where a node keeps its logs and for how long: the log directories, the retention time and the
//! segment roll times, derived from their keys the way `KafkaConfig` derives them. The inputs
//! are values already parsed as their ConfigDef parses them; `None` stands for a key the file
//! leaves unset when the key has no default (Kafka then falls back to another key).

use crate::catalog::KafkaVersion;
use crate::catalog::value::split_list;

const MILLIS_PER_MINUTE: i64 = 60_000;
const MILLIS_PER_HOUR: i64 = 3_600_000;

/// A time Kafka derives from several keys, and the key whose value decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DerivedMillis {
    pub millis: i64,
    pub key: &'static str,
}

/// The log retention: `log.retention.ms` when set, else `log.retention.minutes` when set, else
/// `log.retention.hours`. Kafka turns any negative result into -1 (keep logs forever).
pub fn log_retention(ms: Option<i64>, minutes: Option<i64>, hours: i64) -> DerivedMillis {
    let (millis, key) = match (ms, minutes) {
        (Some(ms), _) => (ms, "log.retention.ms"),
        (None, Some(minutes)) => (minutes * MILLIS_PER_MINUTE, "log.retention.minutes"),
        (None, None) => (hours * MILLIS_PER_HOUR, "log.retention.hours"),
    };
    DerivedMillis {
        millis: if millis < 0 { -1 } else { millis },
        key,
    }
}

/// The time after which a log segment rolls: `log.roll.ms` when set, else `log.roll.hours`.
pub fn log_roll(ms: Option<i64>, hours: i64) -> DerivedMillis {
    match ms {
        Some(ms) => DerivedMillis {
            millis: ms,
            key: "log.roll.ms",
        },
        None => DerivedMillis {
            millis: hours * MILLIS_PER_HOUR,
            key: "log.roll.hours",
        },
    }
}

/// The random jitter subtracted from the roll time: `log.roll.jitter.ms` when set, else
/// `log.roll.jitter.hours`.
pub fn log_roll_jitter(ms: Option<i64>, hours: i64) -> DerivedMillis {
    match ms {
        Some(ms) => DerivedMillis {
            millis: ms,
            key: "log.roll.jitter.ms",
        },
        None => DerivedMillis {
            millis: hours * MILLIS_PER_HOUR,
            key: "log.roll.jitter.hours",
        },
    }
}

/// The log directories Kafka `version` uses, from the raw values of `log.dirs` (`None` when the
/// file does not set it) and `log.dir` (the file's or the default). `log.dirs` wins whenever the
/// file sets it, even to an empty value. Before 4.2 both are strings split at commas, empty
/// pieces dropped and duplicates kept; from 4.2 they are lists (empty elements are refused
/// while parsing) whose duplicates Kafka drops.
pub fn log_dirs(log_dirs: Option<&str>, log_dir: &str, version: KafkaVersion) -> Vec<String> {
    let raw = log_dirs.unwrap_or(log_dir);
    let mut dirs = split_list(raw);
    if version >= KafkaVersion::new(4, 2) {
        let mut seen = std::collections::HashSet::new();
        dirs.retain(|dir| seen.insert(dir.clone()));
    } else {
        dirs.retain(|dir| !dir.is_empty());
    }
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_takes_the_most_precise_key_set() {
        assert_eq!(
            log_retention(Some(5), Some(0), 0),
            DerivedMillis {
                millis: 5,
                key: "log.retention.ms"
            }
        );
        assert_eq!(
            log_retention(None, Some(2), 0),
            DerivedMillis {
                millis: 120_000,
                key: "log.retention.minutes"
            }
        );
        assert_eq!(log_retention(None, None, 168).millis, 604_800_000);
        assert_eq!(log_retention(None, None, 0).millis, 0);
    }

    #[test]
    fn negative_retention_means_forever() {
        assert_eq!(log_retention(Some(-5), None, 168).millis, -1);
        assert_eq!(log_retention(None, Some(-1), 168).millis, -1);
        assert_eq!(log_retention(None, None, -3).millis, -1);
        // Hours are multiplied in 64 bits: the largest INT does not wrap.
        assert_eq!(
            log_retention(None, None, i32::MAX.into()).millis,
            i64::from(i32::MAX) * 3_600_000
        );
    }

    #[test]
    fn roll_times_fall_back_to_hours() {
        assert_eq!(log_roll(Some(0), 168).key, "log.roll.ms");
        assert_eq!(log_roll(None, 168).millis, 604_800_000);
        assert_eq!(log_roll_jitter(Some(-1), 0).millis, -1);
        assert_eq!(
            log_roll_jitter(None, 0),
            DerivedMillis {
                millis: 0,
                key: "log.roll.jitter.hours"
            }
        );
    }

    #[test]
    fn log_dirs_win_even_when_empty() {
        let v39 = KafkaVersion::new(3, 9);
        assert!(log_dirs(Some(""), "/x", v39).is_empty());
        assert!(log_dirs(Some(" , "), "/x", v39).is_empty());
        assert_eq!(log_dirs(None, "/tmp/kafka-logs", v39), ["/tmp/kafka-logs"]);
        assert_eq!(log_dirs(Some(" /a , /b ,"), "/x", v39), ["/a", "/b"]);
    }

    #[test]
    fn duplicate_log_dirs_are_kept_before_4_2_and_dropped_after() {
        assert_eq!(
            log_dirs(Some("/a,/a"), "/x", KafkaVersion::new(4, 1)),
            ["/a", "/a"]
        );
        assert_eq!(
            log_dirs(Some("/a,/a"), "/x", KafkaVersion::new(4, 2)),
            ["/a"]
        );
    }
}
