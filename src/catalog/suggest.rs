//! "Did you mean": the broker key nearest to a misspelt one, and the nearest of any names.

use std::sync::{Arc, Mutex};

use super::{KafkaVersion, keys};

/// The known key of `version` nearest to `key`, when it is near enough to be a typo: within a
/// few edits (more for longer keys), or the same dot-separated words in another order.
pub fn nearest_key(key: &str, version: KafkaVersion) -> Option<&'static str> {
    let lower = key.to_ascii_lowercase();
    let budget = typo_budget(&lower);
    let mut words: Vec<&str> = lower.split('.').collect();
    words.sort_unstable();
    let mut best: Option<(usize, &'static str)> = None;
    let length = lower.chars().count();
    let bag = Bag::of(&lower);
    for candidate in candidates(version).iter() {
        // Each edit changes the length by at most one, and reordered words keep it: a candidate
        // whose length is further off than the budget cannot be near.
        if candidate.length.abs_diff(length) > budget {
            continue;
        }
        // Nor one whose letters differ by more than the budget allows (an edit changes at most
        // two letter counts by one; reordered words change none): most candidates stop here,
        // before the edit distance, so that a file of many unknown keys stays quick.
        if bag.difference(&candidate.bag) > 2 * budget {
            continue;
        }
        let distance = if candidate.key == lower {
            // Only the case differs: as near as a key gets.
            0
        } else {
            edit_distance(&lower, candidate.key)
        };
        let distance = if distance > budget && same_words(&words, candidate.key) {
            budget
        } else {
            distance
        };
        if distance <= budget && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate.key));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// A known key with what the quick tests of [`nearest_key`] read of it.
struct Candidate {
    key: &'static str,
    length: usize,
    bag: Bag,
}

/// The keys of `version` and the plugin keys, measured once per release for the process.
fn candidates(version: KafkaVersion) -> Arc<[Candidate]> {
    static MEASURED: Mutex<Vec<(KafkaVersion, Arc<[Candidate]>)>> = Mutex::new(Vec::new());
    let mut measured = MEASURED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, found)) = measured.iter().find(|(release, _)| *release == version) {
        return Arc::clone(found);
    }
    let found: Arc<[Candidate]> = keys(version)
        .map(|(key, _)| key)
        .chain(super::families::plugin_keys())
        .map(|key| Candidate {
            key,
            length: key.chars().count(),
            bag: Bag::of(key),
        })
        .collect();
    measured.push((version, Arc::clone(&found)));
    found
}

/// How many times each character occurs (by bucket: letters, digits, separators, the rest).
#[derive(Clone, Copy)]
struct Bag([u8; 40]);

impl Bag {
    fn of(word: &str) -> Bag {
        let mut counts = [0u8; 40];
        // By character, as the edit distance counts: one edit moves at most two counts.
        for c in word.chars() {
            let bucket = match c.to_ascii_lowercase() {
                c @ 'a'..='z' => c as usize - 'a' as usize,
                c @ '0'..='9' => 26 + (c as usize - '0' as usize),
                '.' => 36,
                '-' => 37,
                '_' => 38,
                _ => 39,
            };
            counts[bucket] = counts[bucket].saturating_add(1);
        }
        Bag(counts)
    }

    /// The sum of the count differences: at least the edit distance's lower bound times two.
    fn difference(&self, other: &Bag) -> usize {
        self.0
            .iter()
            .zip(other.0.iter())
            .map(|(a, b)| usize::from(a.abs_diff(*b)))
            .sum()
    }
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
