//! A `.properties` reader with the exact semantics of `java.util.Properties.load(InputStream)`,
//! which is how Kafka reads `server.properties` (`Utils.loadProps`).
//!
//! Kafka hands the loader a byte stream, so every byte is one ISO-8859-1 character; keys and
//! values are decoded that way here too. Unlike `Properties`, every entry keeps the byte spans
//! of its key and value in the original file, and duplicate keys are all kept (the last wins).

mod bytes;
mod escape;
mod lines;
mod placeholder;

pub use bytes::Span;
pub(crate) use bytes::is_whitespace;
pub use escape::{EscapeError, ParseError};
pub use placeholder::{has_format_field, is_placeholder, is_unresolved, placeholders_in};

/// One `key=value` pair as Kafka sees it, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The key after escape processing.
    pub key: String,
    /// The value after escape processing (trailing whitespace kept, as `Properties` keeps it).
    pub value: String,
    /// Bytes of the key as written (escapes included).
    pub key_span: Span,
    /// Bytes of the value as written; empty and placed after the separator when the value is empty.
    /// A value continued over several lines spans all of them.
    pub value_span: Span,
    /// True when the raw key or value holds bytes >= 0x80 that form valid UTF-8: Kafka reads
    /// them as Latin-1, so the text it sees differs from what an editor shows.
    pub utf8_mismatch: bool,
    /// Who wrote the setting: its file's author, or a program the file hands it to.
    pub provenance: Provenance,
}

/// Who wrote a setting Kafka reads. Its place (`key_span`, `value_span`) is in the file
/// either way: for a setting a program writes, the file's place that makes the program write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Provenance {
    /// The file's author: a `.properties` line, a compose variable that names the key, a key of
    /// a Strimzi resource's `spec.kafka.config`.
    #[default]
    Written,
    /// An image's scripts, from a variable the author wrote (`listeners` from
    /// `KAFKA_ADVERTISED_LISTENERS`); the place is that variable's value.
    Derived,
    /// An image's scripts, of themselves (its defaults); the place is the `image:` value.
    Image,
    /// An operator that manages the key (Strimzi: node ids, roles, listeners, the quorum); the
    /// place is the resource's name.
    Operator,
    /// A compose variable whose `${...}` the project's `.env` fills in; the place is the
    /// variable's value.
    ProjectEnv,
    /// A variable set by a compose service's `env_file`; the place is that `env_file` entry.
    EnvFile,
    /// A variable a Kubernetes container takes from a ConfigMap of another file with
    /// `envFrom`; the place is that `envFrom` item.
    ConfigMap,
    /// A variable Kubernetes gives every pod of a namespace for one of its Services (a service
    /// link); the place is the Service's name.
    ServiceLink,
    /// cp-ansible, which renders the key itself for an inventory's host; the place is the host.
    Ansible,
    /// A Helm chart that renders the key itself (the bitnami/kafka chart's defaults, ids and
    /// listeners); the place is where the chart's values start, or the count it follows.
    Chart,
    /// An Ansible template's line whose value names variables (`{{ kafka_rf }}`) that an
    /// inventory, `group_vars` or the role's defaults set; the place is the line's value.
    AnsibleVariable,
}

/// A comment line (`#` or `!`), kept so that redaction and suppressions can see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Bytes of the whole comment line, marker included, terminator excluded.
    pub span: Span,
}

/// A parsed file: every entry in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PropertiesFile {
    pub entries: Vec<Entry>,
    pub comments: Vec<Comment>,
    /// What lookups need, worked out on first use: rules look keys up once per entry and walk
    /// the effective entries once per rule, which would otherwise redo the same work each time.
    index: KeyIndex,
}

/// Key -> index of its last entry, and which entries are the last of their key. Not part of
/// what a file is: equal files may differ in whether it is built yet. Boxed when first
/// asked for: a tree's files are held until output, most of them emptied by then, and an
/// index not built takes 16 bytes, not 72.
#[derive(Debug, Clone, Default)]
struct KeyIndex(std::sync::OnceLock<Box<Lookups>>);

impl std::ops::Deref for KeyIndex {
    type Target = Lookups;

    fn deref(&self) -> &Lookups {
        self.0.get_or_init(Box::default)
    }
}

/// What [`KeyIndex`] holds once built.
#[derive(Debug, Clone, Default)]
struct Lookups {
    by_key: std::sync::OnceLock<KeyTable>,
    /// The indices of the effective entries whose value is unresolved ([`is_unresolved`]).
    unresolved: std::sync::OnceLock<Box<[u32]>>,
}

impl PartialEq for KeyIndex {
    fn eq(&self, _: &KeyIndex) -> bool {
        true
    }
}

impl Eq for KeyIndex {}

/// Open addressing from a key to its last entry, over the file's own entries: a slot holds
/// the upper half of the key's hash and the entry's index + 1 (0: empty), so that a probe
/// compares strings only when the hashes agree, and no key is copied. Rules look up a few
/// hundred keys a node, most of them unset: a scan compared each with every entry.
#[derive(Debug, Clone)]
struct KeyTable {
    slots: Box<[(u32, u32)]>,
    /// The indices of the entries `Properties` keeps (the last of each key), in file order:
    /// known from the build, where a later entry of a key takes its slot.
    effective: Box<[u32]>,
}

fn key_hash(key: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(key)
}

impl KeyTable {
    fn build(entries: &[Entry]) -> KeyTable {
        // At most half full, so that probes stay short.
        let size = (entries.len() * 2).next_power_of_two().max(4);
        let mut table = KeyTable {
            slots: vec![(0, 0); size].into_boxed_slice(),
            effective: Box::default(),
        };
        let mut replaced = vec![false; entries.len()];
        for (at, entry) in entries.iter().enumerate() {
            let hash = key_hash(&entry.key);
            let slot = table.probe(entries, &entry.key, hash);
            if let (_, earlier @ 1..) = table.slots[slot] {
                replaced[earlier as usize - 1] = true;
            }
            table.slots[slot] = ((hash >> 32) as u32, at as u32 + 1);
        }
        table.effective = (0..entries.len() as u32)
            .filter(|at| !replaced[*at as usize])
            .collect();
        table
    }

    /// The slot that holds `key` (of hash `hash`), or the empty one where it would go.
    fn probe(&self, entries: &[Entry], key: &str, hash: u64) -> usize {
        let tag = (hash >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let (slot_tag, index) = self.slots[slot];
            if index == 0 || (slot_tag == tag && entries[index as usize - 1].key == key) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The index of the last entry of `key`.
    fn find(&self, entries: &[Entry], key: &str) -> Option<usize> {
        match self.slots[self.probe(entries, key, key_hash(key))] {
            (_, 0) => None,
            (_, index) => Some(index as usize - 1),
        }
    }
}

impl PropertiesFile {
    /// The entry that Kafka uses for `key`: the last one in the file.
    pub fn get(&self, key: &str) -> Option<&Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let at = self.key_table().find(&self.entries, key)?;
        self.entries.get(at)
    }

    /// Builds the index that [`PropertiesFile::get`] builds on first use, now: a walk reads
    /// files on every core and groups them on one thread, whose first lookups would otherwise
    /// build it there.
    pub fn index_keys(&self) {
        if !self.entries.is_empty() {
            self.key_table();
        }
    }

    fn key_table(&self) -> &KeyTable {
        self.index
            .by_key
            .get_or_init(|| KeyTable::build(&self.entries))
    }

    /// A file of `entries` and `comments` (in file order; never changed after).
    pub fn new(entries: Vec<Entry>, comments: Vec<Comment>) -> PropertiesFile {
        PropertiesFile {
            entries,
            comments,
            index: KeyIndex::default(),
        }
    }

    /// The effective entries whose value something fills in before Kafka reads it
    /// ([`is_unresolved`]), worked out once: most files have none, and start-up rules ask
    /// about a dozen keys of every node.
    pub fn unresolved_entries(&self) -> impl Iterator<Item = &Entry> {
        let unresolved = self.index.unresolved.get_or_init(|| {
            let effective = self.effective_indices();
            effective
                .iter()
                .copied()
                .filter(|at| is_unresolved(&self.entries[*at as usize].value))
                .collect()
        });
        unresolved.iter().map(|at| &self.entries[*at as usize])
    }

    /// The entries as `Properties` would hold them: one per key, the last one winning.
    pub fn effective_entries(&self) -> impl Iterator<Item = &Entry> {
        let effective = self.effective_indices();
        effective.iter().map(|at| &self.entries[*at as usize])
    }

    /// Whether some key is set more than once.
    pub fn has_repeated_keys(&self) -> bool {
        self.effective_indices().len() < self.entries.len()
    }

    fn effective_indices(&self) -> &[u32] {
        if self.entries.is_empty() {
            return &[];
        }
        &self.key_table().effective
    }
}

/// Parses a file's bytes exactly as `java.util.Properties.load(InputStream)` does.
pub fn parse(bytes: &[u8]) -> Result<PropertiesFile, ParseError> {
    match parse_lenient(bytes) {
        (file, None) => Ok(file),
        (_, Some(error)) => Err(error),
    }
}

/// Like [`parse`], but reads on past a malformed escape (keeping it as written) so that every
/// entry is known, e.g. to redact secrets around the error. Returns the first error.
pub fn parse_lenient(bytes: &[u8]) -> (PropertiesFile, Option<ParseError>) {
    parse_lines(bytes, lines::Lines::PlainApart)
}

fn parse_lines(bytes: &[u8], lines: lines::Lines) -> (PropertiesFile, Option<ParseError>) {
    // Each thread gathers a file's entries and comments in lists it keeps, and hands them on
    // in lists of their exact length: every file stays in memory until output, and growing
    // its own lists by doubling, then shrinking them, was a copy of them each time.
    thread_local! {
        static GATHERED: std::cell::RefCell<(Vec<Entry>, Vec<Comment>)> =
            const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    GATHERED.with(|gathered| {
        let mut gathered = gathered.borrow_mut();
        let (entries, comments) = &mut *gathered;
        let mut first_error = None;
        lines::logical_lines(bytes, lines, |line| match line {
            lines::Line::Comment(span) => comments.push(Comment { span }),
            lines::Line::Data(line) => {
                let (entry, error) = split_entry(bytes, line);
                entries.push(entry);
                if first_error.is_none() {
                    first_error = error;
                }
            }
            lines::Line::Plain(span) => entries.push(split_plain(bytes, span)),
        });
        let file = PropertiesFile::new(exactly(entries), exactly(comments));
        // A huge file's lists are not kept for the rest of the run.
        entries.shrink_to(GATHERED_KEPT);
        comments.shrink_to(GATHERED_KEPT);
        (file, first_error)
    })
}

/// The items of `gathered`, moved to a list of their number, leaving it empty with its room.
fn exactly<T>(gathered: &mut Vec<T>) -> Vec<T> {
    let mut exact = Vec::with_capacity(gathered.len());
    exact.append(gathered);
    exact
}

/// The entries and comments a thread keeps room for between files.
const GATHERED_KEPT: usize = 1024;

/// Splits a logical line into key and value the way `Properties.load0` does.
fn split_entry(bytes: &[u8], line: &lines::LogicalLine) -> (Entry, Option<ParseError>) {
    let chars = &line.chars;
    let limit = chars.len();
    let (key_len, value_start) = split_point(chars);
    let (key, key_error) = escape::unescape(&chars[..key_len], &line.offsets[..key_len]);
    let (value, value_error) =
        escape::unescape(&chars[value_start..], &line.offsets[value_start..]);
    let key_span = line.span_of(0..key_len);
    let value_span = line.span_of(value_start..limit);
    let utf8_mismatch = utf8_mismatch(bytes, &key_span, &value_span);
    (
        written_entry(key, value, key_span, value_span, utf8_mismatch),
        key_error.or(value_error),
    )
}

/// [`split_entry`] of a [`lines::Line::Plain`] line: its characters are the bytes of `span`,
/// with no escape to decode (nor to go wrong).
fn split_plain(bytes: &[u8], span: Span) -> Entry {
    let chars = &bytes[span.clone()];
    let (key_len, value_start) = split_point(chars);
    let key_span = span.start..span.start + key_len;
    let value_span = span.start + value_start..span.end;
    if chars.is_ascii() {
        // Nothing to decode, and no UTF-8 sequence that Kafka would read otherwise: one look
        // at the line settles what four would (3.5M instructions on 1,000 files).
        let text = |part: &[u8]| String::from_utf8(part.to_vec()).unwrap_or_default();
        let (key, value) = (text(&chars[..key_len]), text(&chars[value_start..]));
        return written_entry(key, value, key_span, value_span, false);
    }
    let key = escape::latin1(&chars[..key_len]);
    let value = escape::latin1(&chars[value_start..]);
    let utf8_mismatch = utf8_mismatch(bytes, &key_span, &value_span);
    written_entry(key, value, key_span, value_span, utf8_mismatch)
}

/// Whether the key or the value as written holds UTF-8 that Kafka reads as Latin-1.
fn utf8_mismatch(bytes: &[u8], key_span: &Span, value_span: &Span) -> bool {
    has_utf8_sequence(&bytes[key_span.clone()]) || has_utf8_sequence(&bytes[value_span.clone()])
}

fn written_entry(
    key: String,
    value: String,
    key_span: Span,
    value_span: Span,
    utf8_mismatch: bool,
) -> Entry {
    Entry {
        key,
        value,
        key_span,
        value_span,
        utf8_mismatch,
        provenance: Provenance::Written,
    }
}

/// Where the key of a logical line's characters ends and its value starts, as
/// `Properties.load0` finds them: the key ends at the first `=`, `:` or whitespace that no
/// backslash escapes; the value starts after the whitespace that follows, and one `=` or `:`
/// within it when the key did not end at one.
fn split_point(chars: &[u8]) -> (usize, usize) {
    let limit = chars.len();
    let mut key_len = 0;
    let mut value_start = limit;
    let mut has_separator = false;
    let mut preceding_backslash = false;
    while key_len < limit {
        let c = chars[key_len];
        if (c == b'=' || c == b':') && !preceding_backslash {
            value_start = key_len + 1;
            has_separator = true;
            break;
        } else if is_whitespace(c) && !preceding_backslash {
            value_start = key_len + 1;
            break;
        }
        preceding_backslash = c == b'\\' && !preceding_backslash;
        key_len += 1;
    }
    while value_start < limit {
        let c = chars[value_start];
        if !is_whitespace(c) {
            if !has_separator && (c == b'=' || c == b':') {
                has_separator = true;
            } else {
                break;
            }
        }
        value_start += 1;
    }
    (key_len, value_start)
}

fn has_utf8_sequence(raw: &[u8]) -> bool {
    !raw.is_ascii() && std::str::from_utf8(raw).is_ok()
}

#[cfg(test)]
mod tests;
