//! `duplicate-log-dir`: one log directory listed twice in `log.dirs` (or `log.dir`), as written
//! or in two spellings of one path. Kafka's LogManager refuses it at start-up: it adds the
//! canonical path of every directory to a set and throws "Duplicate log directory found" at the
//! first that is already there (`createAndValidateLogDirs`, apache/kafka
//! core/src/main/scala/kafka/log/LogManager.scala at 2.8.2 to 4.3.1; the Java LogManager of
//! storage/src/main/java/org/apache/kafka/storage/internals/log/LogManager.java in 4.4.0).

use super::refusal::NodeCheck;
use super::support::quoted;
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::cluster::setting::Item;
use crate::cluster::storage::{lexical_canonical_path, log_dir_items};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "duplicate-log-dir",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "one directory listed twice in log.dirs (or log.dir), as written or spelled another way (`/data/`, `/data/./`): the broker refuses to start (from Kafka 4.2 an exact repeat is dropped and starts)",
    check: Check::Files(check),
};

/// What decides whether the node opens a LogManager; the directories themselves are judged one
/// by one (an entry with a placeholder is left out, the others still compared).
const INPUTS: &[&str] = &["process.roles"];

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for at in NodeCheck::judged(&RULE, cluster, context, INPUTS) {
        if !opens_log_manager(&at) {
            continue;
        }
        let Some((key, setting)) = context.log_dir_setting(at.node, version) else {
            continue;
        };
        let repeats = repeats(&log_dir_items(setting.text, version));
        let Some((first, second)) = repeats.first() else {
            continue;
        };
        let labels: Vec<Label> = repeats
            .iter()
            .map(|(earlier, repeat)| {
                at.label(
                    key,
                    &setting,
                    Some(*repeat),
                    format!("the same directory as {}", quoted(key, earlier.text)),
                )
            })
            .collect();
        let (spelling, repeat) = if first.text == second.text {
            (
                "twice".to_owned(),
                format!("the second {}", quoted(key, second.text)),
            )
        } else {
            (
                format!("again as {}", quoted(key, second.text)),
                quoted(key, second.text),
            )
        };
        diagnostics.push(at.refusal(
            key,
            format!(
                "{key} lists the directory {} {spelling}",
                quoted(key, first.text)
            ),
            labels,
            format!(
                "the node exits with \"Duplicate log directory found\"; list every directory \
                 once in {key}: remove {repeat}"
            ),
        ));
    }
    diagnostics
}

/// Whether the node opens Kafka's LogManager, the step that refuses a repeated directory: a
/// ZooKeeper-mode broker, and a KRaft node with the broker role (BrokerServer). A
/// controller-only node keeps only its metadata log, which the Raft manager opens.
fn opens_log_manager(at: &NodeCheck) -> bool {
    at.roles()
        .is_some_and(|roles| roles.roles.broker || roles.zookeeper_mode(at.version))
}

/// Each directory that names one already listed, with the first entry that names it, in list
/// order. Entries whose text is not known (a placeholder) are left out.
fn repeats<'a>(items: &[Item<'a>]) -> Vec<(Item<'a>, Item<'a>)> {
    // Most nodes list one directory: nothing to put in canonical form.
    if items.len() < 2 {
        return Vec::new();
    }
    let mut seen: Vec<(String, Item<'a>)> = Vec::new();
    let mut repeats = Vec::new();
    for item in items {
        let Some(canonical) = lexical_canonical_path(item.text) else {
            continue;
        };
        match seen.iter().find(|(path, _)| *path == canonical) {
            Some((_, earlier)) => repeats.push((*earlier, *item)),
            None => seen.push((canonical, *item)),
        }
    }
    repeats
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::KafkaVersion;

    fn repeated(value: &str, version: KafkaVersion) -> Vec<(&str, &str)> {
        repeats(&log_dir_items(value, version))
            .into_iter()
            .map(|(earlier, repeat)| (earlier.text, repeat.text))
            .collect()
    }

    #[test]
    fn spellings_of_one_path_repeat_it_in_every_release() {
        for version in [KafkaVersion::new(2, 8), KafkaVersion::new(4, 4)] {
            assert_eq!(
                repeated("/var/lib/kafka/data,/var/lib/kafka/data/", version),
                [("/var/lib/kafka/data", "/var/lib/kafka/data/")]
            );
            assert_eq!(repeated("/a/b, /a/./b", version), [("/a/b", "/a/./b")]);
            assert_eq!(repeated("/a/../a/b,/a/b", version), [("/a/../a/b", "/a/b")]);
            assert_eq!(repeated("/a//b,/a/b", version), [("/a//b", "/a/b")]);
            assert!(repeated("/a/b,/a/bb,/a/b/c", version).is_empty());
        }
    }

    #[test]
    fn exact_repeats_are_dropped_from_4_2() {
        let v41 = KafkaVersion::new(4, 1);
        assert_eq!(repeated("/a,/a", v41), [("/a", "/a")]);
        assert_eq!(repeated(" /a , /a ", v41), [("/a", "/a")]);
        // Csv.parseCsvList drops the empty entry: the two that remain are one directory.
        assert_eq!(repeated("/a,,/a", v41), [("/a", "/a")]);
        assert!(repeated("/a,/a", KafkaVersion::new(4, 2)).is_empty());
        assert!(repeated("/a , /a", KafkaVersion::new(4, 4)).is_empty());
    }

    #[test]
    fn an_entry_with_a_placeholder_is_not_compared() {
        let v39 = KafkaVersion::new(3, 9);
        assert!(repeated("${DATA_DIR},/data", v39).is_empty());
        assert!(repeated("/data/%ID%,/data/%ID%/", v39).is_empty());
        assert_eq!(
            repeated("${DATA_DIR},/data,/data/", v39),
            [("/data", "/data/")]
        );
    }
}
