//! "Did you mean": the broker key nearest to a misspelt one, and the nearest of any names.

use super::{KafkaVersion, keys};

/// The known key of `version` nearest to `key`, when it is near enough to be a typo: within a
/// few edits (more for longer keys), or the same dot-separated words in another order.
pub fn nearest_key(key: &str, version: KafkaVersion) -> Option<&'static str> {
    let lower = key.to_ascii_lowercase();
    let budget = typo_budget(&lower);
    let mut words: Vec<&str> = lower.split('.').collect();
    words.sort_unstable();
    let mut best: Option<(usize, &'static str)> = None;
    let candidates = keys(version)
        .map(|(key, _)| key)
        .chain(super::families::plugin_keys());
    let length = lower.chars().count();
    for candidate in candidates {
        // Each edit changes the length by at most one, and reordered words keep it: a candidate
        // whose length is further off than the budget cannot be near.
        if candidate.chars().count().abs_diff(length) > budget {
            continue;
        }
        let distance = if candidate == lower {
            // Only the case differs: as near as a key gets.
            0
        } else {
            edit_distance(&lower, candidate)
        };
        let distance = if distance > budget && same_words(&words, candidate) {
            budget
        } else {
            distance
        };
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// How many edits still make a typo of `word`: more for longer words.
fn typo_budget(word: &str) -> usize {
    match word.len() {
        0..=5 => 1,
        6..=14 => 2,
        _ => 3,
    }
}

/// The candidate nearest to `word` (ignoring ASCII case), when it is within a typo's reach;
/// the first of equally near candidates.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    let budget = typo_budget(&lower);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let distance = edit_distance(&lower, &candidate.to_ascii_lowercase());
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

fn same_words(sorted_words: &[&str], candidate: &str) -> bool {
    let mut other: Vec<&str> = candidate.split('.').collect();
    if other.len() != sorted_words.len() || other.len() < 2 {
        return false;
    }
    other.sort_unstable();
    other == sorted_words
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbours, each one edit.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    for (j, cell) in rows.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        rows[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[(i - 1) * width + j] + 1)
                .min(rows[i * width + j - 1] + 1)
                .min(rows[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[(i - 2) * width + j - 2] + 1);
            }
            rows[i * width + j] = best;
        }
    }
    rows[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("offset", "offsets"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn nearest_of_any_names() {
        let names = ["duplicate-key", "unknown-key", "removed-key"];
        assert_eq!(nearest("duplicat-key", names), Some("duplicate-key"));
        assert_eq!(nearest("Unknown-Key", names), Some("unknown-key"));
        assert_eq!(nearest("something-else", names), None);
    }

    #[test]
    fn typos_find_their_key() {
        let v = KafkaVersion::new(4, 1);
        for (typo, key) in [
            (
                "offset.topic.replication.factor",
                "offsets.topic.replication.factor",
            ),
            ("auto.create.topic.enable", "auto.create.topics.enable"),
            ("log.retention.hour", "log.retention.hours"),
            ("Num.Partitions", "num.partitions"),
            ("replication.factor.default", "default.replication.factor"),
        ] {
            assert_eq!(nearest_key(typo, v), Some(key), "{typo}");
        }
        assert_eq!(nearest_key("super.user", v), Some("super.users"));
        assert_eq!(nearest_key("my.plugin.setting", v), None);
    }
}
