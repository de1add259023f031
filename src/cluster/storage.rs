//! Where a node keeps its logs and for how long: the log directories, the retention time and the
//! segment roll times, derived from their keys the way `KafkaConfig` derives them. The inputs
//! are values already parsed as their ConfigDef parses them; `None` stands for a key the file
//! leaves unset when the key has no default (Kafka then falls back to another key).

use crate::catalog::KafkaVersion;
use crate::properties::is_unresolved;

use super::setting::{Item, Split, split};

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

/// Kafka 4.2 (KIP-1161) made `log.dirs` and `log.dir` LIST keys: before, both are strings that
/// `Csv.parseCsvList` splits (apache/kafka core/src/main/scala/kafka/server/KafkaConfig.scala
/// `logDirs` at 3.9.1, server/src/main/java/org/apache/kafka/server/config/AbstractKafkaConfig.java
/// `logDirs()` at 4.1.2); from 4.2 `getList` reads the list ConfigDef parsed
/// (storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java at 4.2.0).
const LIST_TYPED_FROM: KafkaVersion = KafkaVersion::new(4, 2);

/// How Kafka `version` splits the log directories' value. Before 4.2, `Csv.parseCsvList` of the
/// trimmed string: split on `\s*,\s*`, empty pieces dropped, repeats kept. From 4.2, ConfigDef's
/// LIST: empty pieces kept (its validator then refuses them), exact repeats dropped with a
/// warning (`ConfigDef.parseValue`, clients/src/main/java/org/apache/kafka/common/config/
/// ConfigDef.java at 4.2.0).
pub fn log_dir_split(version: KafkaVersion) -> Split {
    if version >= LIST_TYPED_FROM {
        Split::DistinctConfigList
    } else {
        Split::CsvList
    }
}

/// The log directories in `text` (the value of `log.dirs`, else of `log.dir`) as Kafka
/// `version` reads them, each with its place in `text`.
pub fn log_dir_items(text: &str, version: KafkaVersion) -> Vec<Item<'_>> {
    split(text, log_dir_split(version))
}

/// The log directories Kafka `version` uses, from the raw values of `log.dirs` (`None` when the
/// file does not set it) and `log.dir` (the file's or the default). `log.dirs` wins whenever the
/// file sets it, even to an empty value. See [`log_dir_split`] for how each release splits it.
pub fn log_dirs(log_dirs: Option<&str>, log_dir: &str, version: KafkaVersion) -> Vec<String> {
    log_dir_items(log_dirs.unwrap_or(log_dir), version)
        .iter()
        .map(|item| item.text.to_owned())
        .collect()
}

/// The directory `path` names as `File.getCanonicalPath` finds it once Kafka has created it,
/// worked out from the text alone: repeated and trailing slashes and `.` removed, `..` taken
/// back with the name before it (`..` of the root is the root). On disk, `getCanonicalPath`
/// also resolves symbolic links, before it takes `..` back: a link kafkalint cannot see can make
/// two paths that read alike differ, or two that differ one directory. A relative path keeps
/// its leading `..` and is never equal to an absolute one (the directory the process starts in
/// is unknown). A path with a backslash or a drive letter (Windows) is compared as written.
/// `None` for a path with a placeholder, whose text is not known.
pub fn lexical_canonical_path(path: &str) -> Option<String> {
    if is_unresolved(path) {
        return None;
    }
    if path.contains('\\') || path.as_bytes().get(1) == Some(&b':') {
        return Some(path.to_owned());
    }
    let absolute = path.starts_with('/');
    let mut names: Vec<&str> = Vec::new();
    for name in path.split('/') {
        match name {
            "" | "." => {}
            ".." => match names.last() {
                Some(&last) if last != ".." => {
                    names.pop();
                }
                _ if absolute => {}
                _ => names.push(".."),
            },
            _ => names.push(name),
        }
    }
    Some(match (absolute, names.is_empty()) {
        (true, _) => format!("/{}", names.join("/")),
        (false, true) => ".".to_owned(),
        (false, false) => names.join("/"),
    })
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
    fn canonical_paths_are_worked_out_from_the_text() {
        let canonical = |path| lexical_canonical_path(path).unwrap();
        assert_eq!(canonical("/var/lib/kafka/data/"), "/var/lib/kafka/data");
        assert_eq!(canonical("/a//./b/"), "/a/b");
        assert_eq!(canonical("/a/../a/b"), "/a/b");
        assert_eq!(canonical("/../a"), "/a");
        assert_eq!(canonical("/"), "/");
        assert_eq!(canonical("data/"), "data");
        assert_eq!(canonical("./data"), "data");
        assert_eq!(canonical("../data/x/.."), "../data");
        assert_eq!(canonical("a/.."), ".");
        assert_eq!(canonical("C:\\kafka\\logs\\"), "C:\\kafka\\logs\\");
        assert_eq!(lexical_canonical_path("/data/${ID}"), None);
        assert_eq!(lexical_canonical_path("/data/%ID%"), None);
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
