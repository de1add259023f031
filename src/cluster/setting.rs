//! A key's value as `KafkaConfig` reads it on one node, and the ways Kafka splits a value into
//! items. Every item keeps its byte range in the value, so that a finding can point at the one
//! bad item of a list.

use std::ops::Range;

use crate::catalog::{self, Default, KafkaVersion, value};
use crate::source::SourceFile;

use super::{Line, Node};

pub use crate::properties::is_placeholder;

/// Whether the node's file sets one of `keys` to a value something fills in before Kafka reads
/// it ([`is_placeholder`], or a format field): what reads those keys is unknown, and only that.
pub fn any_unresolved(files: &[SourceFile], node: &Node, keys: &[&str]) -> bool {
    // The entry a key's lookup finds is the effective one: the same question, asked of the
    // few (most often no) unresolved entries the file keeps listed, not of every key.
    node.properties(files)
        .unresolved_entries()
        .any(|entry| keys.contains(&entry.key.as_str()))
}

/// The text Kafka reads for a key on a node, and the line it comes from.
#[derive(Debug, Clone, Copy)]
pub struct Setting<'a> {
    /// As the file has it (untrimmed), or Kafka's default.
    pub text: &'a str,
    /// The line that sets it; for `node.id` copied from `broker.id` (or the reverse), that line.
    pub line: Option<Line<'a>>,
}

impl<'a> Setting<'a> {
    pub fn trimmed(&self) -> &'a str {
        value::java_trim(self.text)
    }

    /// Whether the value comes from the file rather than Kafka's default.
    pub fn is_set(&self) -> bool {
        self.line.is_some()
    }
}

/// What a lookup of a key finds.
#[derive(Debug, Clone, Copy)]
pub enum Lookup<'a> {
    /// Not set and without a default (null in Kafka), or a key this release does not know.
    Null,
    Set(Setting<'a>),
    /// ConfigDef refuses the value, or a required key is missing: Kafka stops before any
    /// cross-field check (invalid-value and missing-required-key report it).
    Refused,
}

impl<'a> Lookup<'a> {
    /// `Some(None)` for null, `Some(Some(_))` for a value, `None` when refused.
    pub fn known(self) -> Option<Option<Setting<'a>>> {
        match self {
            Lookup::Null => Some(None),
            Lookup::Set(setting) => Some(Some(setting)),
            Lookup::Refused => None,
        }
    }
}

/// The value of `key` on `node` for release `version`, after `populateSynonyms` (`node.id` and
/// `broker.id` stand in for each other when only one is set) and ConfigDef's parse.
pub fn lookup<'a>(
    files: &'a [SourceFile],
    node: &Node,
    key: &str,
    version: KafkaVersion,
) -> Lookup<'a> {
    let Some(known) = catalog::known(key, version) else {
        return Lookup::Null;
    };
    let properties = node.properties(files);
    let synonym = match key {
        "node.id" => Some("broker.id"),
        "broker.id" => Some("node.id"),
        _ => None,
    };
    let entry = properties
        .get(key)
        .or_else(|| synonym.and_then(|other| properties.get(other)));
    let (text, accepted) = match (entry, known.spec.default) {
        (Some(entry), _) => (
            entry.value.as_str(),
            value::check(key, known.spec, &entry.value).is_ok(),
        ),
        (None, Default::Value(text)) => (
            text,
            known
                .checked_default()
                .is_some_and(|checked| checked.is_ok()),
        ),
        (None, Default::Null) => return Lookup::Null,
        (None, Default::Required) => return Lookup::Refused,
    };
    if accepted {
        Lookup::Set(Setting {
            text,
            line: entry.map(|entry| Line::new(node.file, entry)),
        })
    } else {
        Lookup::Refused
    }
}

/// Whether the file itself sets `key` (Kafka's `originals().containsKey`).
pub fn in_file(files: &[SourceFile], node: &Node, key: &str) -> bool {
    node.properties(files).get(key).is_some()
}

/// One element of a comma-separated value and where it sits in the value's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item<'a> {
    pub text: &'a str,
    /// Byte range in the text the item was split from (the setting's text).
    pub start: usize,
}

impl<'a> Item<'a> {
    pub fn range(&self) -> Range<usize> {
        self.start..self.start + self.text.len()
    }

    /// The item without the spaces Java's `trim` strips.
    pub fn trimmed(&self) -> Item<'a> {
        let text = value::java_trim(self.text);
        Item {
            text,
            start: self.start + (text.as_ptr() as usize - self.text.as_ptr() as usize),
        }
    }

    fn within(outer: &'a str, inner: &'a str) -> Item<'a> {
        Item {
            text: inner,
            start: inner.as_ptr() as usize - outer.as_ptr() as usize,
        }
    }
}

/// Java regex `\s`.
fn is_java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// `text.split(separator)` as Java does it: `\s*,\s*` when `spaced`, a bare `,` otherwise; with
/// limit 0 (`keep_trailing` false) trailing empty pieces are dropped. Pieces are slices of
/// `text`. The text is trimmed by every caller, so spaces only ever sit next to commas.
fn java_split(text: &str, spaced: bool, keep_trailing: bool) -> Vec<&str> {
    let mut pieces: Vec<&str> = text
        .split(',')
        .map(|piece| {
            if spaced {
                piece.trim_matches(is_java_space)
            } else {
                piece
            }
        })
        .collect();
    if !keep_trailing && pieces.len() > 1 {
        while pieces.last() == Some(&"") {
            pieces.pop();
        }
    }
    pieces
}

/// How Kafka turns a value into a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    /// ConfigDef's LIST: trimmed, empty is no items, split on `\s*,\s*` keeping empty items.
    ConfigList,
    /// ConfigDef's LIST with Kafka 4.2's list rules: as `ConfigList`, repeats dropped (empty
    /// items are refused by ConfigDef before anything reads the list).
    DistinctConfigList,
    /// `Csv.parseCsvList` of the trimmed value: split on `\s*,\s*`, empty items dropped.
    CsvList,
    /// `Csv.parseCsvMap`'s split of the trimmed value: on `\s*,\s*`, trailing empty items
    /// dropped, the others kept.
    CsvMap,
    /// `value.split(",")` of the trimmed value: items untrimmed, trailing empties dropped.
    BareCommas,
}

/// The items of `text` as `split` makes them, ranges in `text`.
pub fn split<'a>(text: &'a str, split: Split) -> Vec<Item<'a>> {
    let trimmed = value::java_trim(text);
    if trimmed.is_empty() {
        return Vec::new();
    }
    let pieces = match split {
        Split::ConfigList | Split::DistinctConfigList => java_split(trimmed, true, true),
        Split::CsvList => java_split(trimmed, true, false)
            .into_iter()
            .filter(|piece| !piece.is_empty())
            .collect(),
        Split::CsvMap => java_split(trimmed, true, false),
        Split::BareCommas => java_split(trimmed, false, false),
    };
    let mut items: Vec<Item> = pieces
        .into_iter()
        .map(|piece| Item::within(text, piece))
        .collect();
    if split == Split::DistinctConfigList {
        let mut seen = std::collections::HashSet::new();
        items.retain(|item| seen.insert(item.text));
    }
    items
}

/// How ConfigDef splits a LIST key in `version`: 4.2 drops repeats of keys with a list
/// validator.
pub fn config_list_split(key: &str, version: KafkaVersion) -> Split {
    match catalog::spec(key, version).map(|spec| spec.validator) {
        Some(catalog::Validator::StrictList { .. }) => Split::DistinctConfigList,
        _ => Split::ConfigList,
    }
}

/// Java's `String.hashCode`.
fn java_hash(text: &str) -> i32 {
    text.encode_utf16().fold(0i32, |hash, unit| {
        hash.wrapping_mul(31).wrapping_add(i32::from(unit))
    })
}

/// The order in which a `java.util.HashMap<String, _>` filled with `keys` (distinct, in
/// insertion order) iterates them: by bucket of the table it has grown to, then by insertion.
/// Kafka 3.9 and 4.0 resolve clashing listener names in this order.
pub fn java_hash_map_order(keys: &[&str]) -> Vec<usize> {
    let mut capacity = 16usize;
    while keys.len() * 4 > capacity * 3 {
        capacity *= 2;
    }
    let bucket = |key: &str| {
        let hash = java_hash(key);
        let spread = hash ^ ((hash as u32) >> 16) as i32;
        (spread as u32 as usize) & (capacity - 1)
    };
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|index| (bucket(keys[*index]), *index));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(items: &[Item]) -> Vec<String> {
        items.iter().map(|item| item.text.to_owned()).collect()
    }

    #[test]
    fn splits_follow_each_kafka_parser() {
        let text = " a , ,b,, ";
        assert_eq!(
            texts(&split(text, Split::ConfigList)),
            ["a", "", "b", "", ""]
        );
        assert_eq!(texts(&split(text, Split::CsvList)), ["a", "b"]);
        assert_eq!(texts(&split(text, Split::BareCommas)), ["a ", " ", "b"]);
        assert_eq!(texts(&split(text, Split::CsvMap)), ["a", "", "b"]);
        assert_eq!(
            texts(&split("a,b,a", Split::DistinctConfigList)),
            ["a", "b"]
        );
        assert!(split("  ", Split::ConfigList).is_empty());
        assert_eq!(texts(&split(",a", Split::BareCommas)), ["", "a"]);
        let items = split(" x , y", Split::CsvList);
        assert_eq!(items[1].range(), 5..6);
    }

    #[test]
    fn hash_map_order_is_javas() {
        // "b" (98) and "a" (97) land in buckets 2 and 1 of 16.
        assert_eq!(java_hash_map_order(&["b", "a"]), [1, 0]);
        assert_eq!(java_hash("ab"), 3105);
        // What Java 17 prints for a HashMap filled in this order (19 keys: 32 buckets).
        let keys = [
            "CONTROLLER",
            "controller",
            "PLAINTEXT",
            "Controller",
            "SSL",
            "ssl",
            "a",
            "b",
            "c",
            "d",
            "e",
            "f",
            "g",
            "h",
            "i",
            "j",
            "k",
            "l",
            "m",
        ];
        let order: Vec<&str> = java_hash_map_order(&keys)
            .into_iter()
            .map(|i| keys[i])
            .collect();
        assert_eq!(
            order,
            [
                "a",
                "controller",
                "PLAINTEXT",
                "b",
                "c",
                "d",
                "e",
                "f",
                "g",
                "h",
                "i",
                "j",
                "k",
                "Controller",
                "l",
                "SSL",
                "ssl",
                "m",
                "CONTROLLER"
            ]
        );
        // Overflow wraps as Java's int arithmetic does.
        assert_eq!(java_hash("CONTROLLER"), 1_122_520_988);
    }
}
