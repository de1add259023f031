//! What output may show of a configuration, and what it hides: deny by default.
//!
//! kafkalint runs in CI logs, which are often public: a secret it prints is a secret published.
//! A value a person reads (a snippet, a diff, a message) is shown only when kafkalint knows it
//! is harmless: its key is a key of Kafka's catalogue (the broker's, or another Kafka
//! component's) whose type is not PASSWORD, and the value does not look like a credential.
//! Every other value is hidden: unknown keys and typos of any key, comment lines that hold a
//! key and a value, the continuation of a comment, values under a name with a secret-like word
//! in any spelling.

use std::ops::Range;

use crate::catalog::{self, ConfigType};

/// What output shows in place of a hidden value.
pub const REDACTED: &str = "[redacted]";

/// What Kafka's catalogue says of a key, for showing its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A key of the catalogue whose type is not PASSWORD in any release or component.
    Plain,
    /// A key some release or component types PASSWORD.
    Password,
    /// No key Kafka knows: a typo, a third-party key, anything.
    Unknown,
}

/// What the catalogue says of `key`, a Kafka key as a `.properties` file writes it.
pub fn key_kind(key: &str) -> KeyKind {
    if let Some(entry) = catalog::entry(key) {
        let password = entry
            .variants
            .iter()
            .any(|variant| variant.spec.config_type == ConfigType::Password);
        return if password {
            KeyKind::Password
        } else {
            KeyKind::Plain
        };
    }
    if catalog::OTHER_COMPONENT_KEYS
        .binary_search_by(|(name, _)| (*name).cmp(key))
        .is_ok()
    {
        return if catalog::OTHER_COMPONENT_PASSWORD_KEYS
            .binary_search(&key)
            .is_ok()
        {
            KeyKind::Password
        } else {
            KeyKind::Plain
        };
    }
    // `listener.name.<listener>.<key>` and `listener.name.<listener>.<mechanism>.<key>` are
    // the key they end with, read for one listener (and one SASL mechanism).
    if let Some(rest) = key.strip_prefix("listener.name.")
        && let Some((_, rest)) = rest.split_once('.')
    {
        return match key_kind(rest) {
            KeyKind::Unknown => rest
                .split_once('.')
                .map_or(KeyKind::Unknown, |(_, rest)| key_kind(rest)),
            kind => kind,
        };
    }
    // MirrorMaker 2 writes keys per replication flow (`primary->backup.enabled`) and per
    // cluster alias (`primary.bootstrap.servers`): Kafka's MirrorMakerConfig
    // (connect/mirror, `MirrorMakerConfig.java`) reads them as the key they end with.
    if let Some((_, rest)) = key.split_once("->")
        && let Some((_, rest)) = rest.split_once('.')
    {
        return if rest == "enabled" {
            KeyKind::Plain
        } else {
            key_kind(rest)
        };
    }
    if SCHEMA_REGISTRY_KEYS.contains(&key) {
        return KeyKind::Plain;
    }
    if let Some((_, rest)) = key.split_once('.')
        && catalog::OTHER_COMPONENT_KEYS
            .binary_search_by(|(name, _)| (*name).cmp(rest))
            .is_ok()
    {
        return key_kind(rest);
    }
    KeyKind::Unknown
}

/// Schema Registry's keys that kafkalint reads (confluentinc/schema-registry,
/// `SchemaRegistryConfig.java`): not in Kafka's catalogue, none of them a credential.
const SCHEMA_REGISTRY_KEYS: &[&str] = &[
    "kafkastore.bootstrap.servers",
    "kafkastore.topic",
    "kafkastore.topic.replication.factor",
];

/// What the catalogue says of a name as configuration files and containers write it: a Kafka
/// key, or an environment variable of the usual image conventions (`KAFKA_CFG_LOG_DIRS`,
/// `KAFKA_LOG_DIRS`, `CONNECT_OFFSET_STORAGE_TOPIC`).
pub fn name_kind(name: &str) -> KeyKind {
    let kind = key_kind(name);
    if kind != KeyKind::Unknown || !name.contains('_') || name.contains('.') {
        return kind;
    }
    let upper = name.to_ascii_uppercase();
    ["KAFKA_CFG_", "KAFKA_", "CONNECT_", "SCHEMA_REGISTRY_"]
        .iter()
        .filter_map(|prefix| upper.strip_prefix(prefix))
        .map(|rest| key_kind(&rest.to_ascii_lowercase().replace('_', ".")))
        .find(|kind| *kind != KeyKind::Unknown)
        .unwrap_or(KeyKind::Unknown)
}

/// May output show `value` as the value of the Kafka key `key`?
pub fn may_show(key: &str, value: &str) -> bool {
    key_kind(key) == KeyKind::Plain && !looks_like_credential(value)
}

/// Is the value of this key to be hidden (the opposite of [`may_show`])?
pub fn is_hidden(key: &str, value: &str) -> bool {
    !may_show(key, value)
}

/// Whether an unknown key reads as a name someone gave a setting (`my.custom-key_2`), rather
/// than text that became a key by accident: a line of a PEM block pasted without its
/// backslashes (`MIIEvQIBADANBgkqhkiG9w0BAQEFAASC...`, `+` and `/` and all), a token alone on
/// a line. Output hides those keys whole.
pub fn looks_like_a_name(key: &str) -> bool {
    // Name characters only (bytes, not chars: a character outside ASCII is no name character
    // either way), not one long run, and no value run on after a secret name.
    shown_key_len(key) == key.len()
}

/// What output shows of a key it names (in a message, a label, `--format json`'s `key`): the
/// key itself when it is a key of the catalogue or reads as a setting's name; else the part
/// that does ([`shown_key_len`]) with [`REDACTED`] in place of the rest
/// (`ssl.keystore.password[redacted]`, or `[redacted]` alone).
///
/// A value runs into its key when what stands between them is no separator the reader takes
/// (a no-break or other Unicode space, a full-width `＝`, an escaped `\=`, `\ `, `\:` or
/// `\u003d`, which `java.util.Properties` keeps in the key, or nothing at all): the key then
/// holds the secret, and every message that names the key would print it.
pub fn shown_key(key: &str) -> std::borrow::Cow<'_, str> {
    let shown = shown_key_len(key);
    if shown == key.len() {
        std::borrow::Cow::Borrowed(key)
    } else {
        std::borrow::Cow::Owned(format!("{}{REDACTED}", &key[..shown]))
    }
}

/// How many leading bytes of `key` output may show (see [`shown_key`]). Deny by default: the
/// name characters at the key's start (ASCII letters, digits, `.`, `_`, `-`), up to where a
/// value may have run on:
/// - inside a segment (between `.`, `_` and `-`), right after a secret name of the catalogue
///   (`ssl.keystore.password` in `ssl.keystore.passwordhunter2`): a value written without
///   its separator;
/// - at a segment that holds a secret word (`pass`, `token`, ...) but does not end with a
///   secret word's spelling (`passwordhunter2`, but not `keystorePassword` or `pasword`);
/// - after a secret key of the catalogue, whatever follows it (`ssl.keystore.password.old`
///   is shown as `ssl.keystore.password[redacted]`);
/// - at a segment after one with a secret word that is not a short word of letters of one
///   case (`bearer.auth.token` is shown, `my.password.Xy7` is not);
/// - the whole key when it is one long run without a separator (a pasted token or PEM line).
pub fn shown_key_len(key: &str) -> usize {
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    let is_separator = |b: u8| matches!(b, b'.' | b'_' | b'-');
    // A key of the catalogue (or its environment name) as written, `->` of MirrorMaker 2's
    // flows included: shown whole.
    if name_kind(key) != KeyKind::Unknown && key.bytes().all(|b| is_name_byte(b) || b == b'>') {
        return key.len();
    }
    let run = key.bytes().take_while(|b| is_name_byte(*b)).count();
    let name = &key[..run];
    if !name.bytes().any(is_separator) && run >= 24 {
        return 0;
    }
    // Kafka's keys are lower case, but a key in another case still carries what runs on after
    // it (`SSL.KEYSTORE.KEYhunter2`): prefixes are looked up in lower case (the same bytes).
    let lower = name.to_ascii_lowercase();
    let mut after_secret = false;
    let mut start = 0;
    while start <= run {
        let end = name[start..]
            .bytes()
            .position(is_separator)
            .map_or(run, |at| start + at);
        let segment = &name[start..end];
        if let Some(at) = (start + 1..end).find(|at| name_kind(&lower[..*at]) == KeyKind::Password)
        {
            return at;
        }
        if after_secret {
            if !is_plain_word(segment) {
                return start;
            }
        } else {
            if has_secret_word(segment) {
                if !is_spelt_as_a_secret_name(segment) {
                    return start;
                }
                after_secret = true;
            }
        }
        // A secret key of the catalogue and more after it: what follows is its value, the
        // separator between them lost (`ssl.keystore.password-hunter`).
        if end < key.len() && name_kind(&lower[..end]) == KeyKind::Password {
            return end;
        }
        start = end + 1;
    }
    run
}

/// A segment that may follow one with a secret word in a name (`old` in `my.password.old`,
/// `config` in `sasl.jaas.config`): a short word of letters, all of one case.
fn is_plain_word(segment: &str) -> bool {
    (1..=12).contains(&segment.len())
        && (segment.bytes().all(|b| b.is_ascii_lowercase())
            || segment.bytes().all(|b| b.is_ascii_uppercase()))
}

/// Whether a segment that holds a secret word ends with one, as a name does (`password`,
/// `keystorePassword`, `pasword`, `tokens`), rather than running on past it into a value
/// (`passwordhunter2`).
fn is_spelt_as_a_secret_name(segment: &str) -> bool {
    /// How names end that hold a secret word, typos Kafka users make included.
    const ENDINGS: &[&str] = &[
        "password",
        "passwd",
        "pasword",
        "passwrd",
        "passwort",
        "passphrase",
        "pass",
        "pwd",
        "pw",
        "psw",
        "pin",
        "secret",
        "secretkey",
        "token",
        "credential",
        "apikey",
        "accesskey",
        "privatekey",
        "key",
        "jaas",
        "auth",
        "userinfo",
        "license",
        "licence",
    ];
    let lower = segment.to_ascii_lowercase();
    let stems = [Some(lower.as_str()), lower.strip_suffix('s')];
    stems.into_iter().flatten().any(|stem| {
        ENDINGS.iter().any(|ending| {
            stem.strip_suffix(ending)
                .is_some_and(|before| !has_secret_word(before))
        })
    })
}

/// `text` with every mention of `key`'s hidden part (after [`shown_key_len`]) shown as
/// [`REDACTED`], or `None` when there is none: the guard of every text of a finding about a
/// key, whatever form of the key a message writes (as written, lower-cased, per listener, as
/// an environment name).
pub fn hide_key_in(text: &str, key: &str) -> Option<String> {
    let shown = shown_key_len(key);
    let hidden = &key[shown..];
    if hidden.is_empty() {
        return None;
    }
    let prefix = &key.as_bytes()[..shown];
    let bytes = text.as_bytes();
    let is_name_byte = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    let same = |a: u8, b: u8| {
        a.eq_ignore_ascii_case(&b)
            || (matches!(a, b'.' | b'_' | b'-') && matches!(b, b'.' | b'_' | b'-'))
    };
    let lower = hidden.to_lowercase();
    let upper = hidden.to_uppercase();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = 0;
    let mut changed = false;
    while at < bytes.len() {
        let rest = &bytes[at..];
        // The hidden part as written, lower-cased or upper-cased: its length in the text.
        let found = if rest
            .get(..hidden.len())
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(hidden.as_bytes()))
        {
            Some(hidden.len())
        } else if rest.starts_with(lower.as_bytes()) {
            Some(lower.len())
        } else if rest.starts_with(upper.as_bytes()) {
            Some(upper.len())
        } else {
            None
        };
        let Some(length) = found.filter(|_| text.is_char_boundary(at)) else {
            at += 1;
            continue;
        };
        // How much of the shown part precedes it in the text, in any case and separator.
        let before = bytes[..at]
            .iter()
            .rev()
            .zip(prefix.iter().rev())
            .take_while(|(a, b)| same(**a, **b))
            .count();
        // The key whole, or from one of its segments on (a message naming the key a listener's
        // key ends with), or a hidden part long enough to be no word of a message.
        let whole = before == prefix.len();
        let from_a_segment = matches!(
            prefix.get(prefix.len().wrapping_sub(before + 1)),
            Some(b'.' | b'_' | b'-')
        ) && (at == before || !is_name_byte(bytes[at - before - 1]));
        if whole || from_a_segment || hidden.len() >= 8 {
            out.push_str(&text[copied..at]);
            out.push_str(REDACTED);
            at += length;
            while !text.is_char_boundary(at) {
                at += 1;
            }
            copied = at;
            changed = true;
        } else {
            at += 1;
        }
    }
    if !changed {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// Words that mark a name as a credential's, looked for in the name lower-cased with every
/// character but letters and digits removed, so that every spelling meets them
/// (`ssl.keystore.pasword`, `KAFKA_SSL_KEY_PASSWRD`, `bearer-auth-token`, `apiKey`).
const SECRET_WORDS: &[&str] = &[
    "pass",
    "pasw",
    "pwd",
    "secret",
    "token",
    "credential",
    "jaas",
    "apikey",
    "privatekey",
    "accesskey",
    "userinfo",
];

static SECRET_WORD_FINDER: Words = Words::new(SECRET_WORDS);

/// Segments of a name that mark it as a credential's when they stand alone (`KAFKA_SSL_KEY_PW`).
const SECRET_SEGMENTS: &[&str] = &["pw", "psw", "pin", "auth", "license", "licence"];

/// Does the name hold a secret-like word, in any spelling?
pub fn has_secret_word(name: &str) -> bool {
    if name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        // One word (most names in prose comments): nothing to squeeze.
        return SECRET_WORD_FINDER.in_text(name)
            || SECRET_SEGMENTS
                .iter()
                .any(|word| name.eq_ignore_ascii_case(word));
    }
    // The letters and digits alone (the finder ignores case), in a buffer on the stack for a
    // name of the usual length: this runs on every host name of every listener shown.
    let mut buffer = [0u8; 128];
    let mut squeezed = name.bytes().filter(u8::is_ascii_alphanumeric);
    let found = if name.len() <= buffer.len() {
        let mut len = 0;
        for (slot, b) in buffer.iter_mut().zip(&mut squeezed) {
            *slot = b;
            len += 1;
        }
        SECRET_WORD_FINDER.in_bytes(&buffer[..len])
    } else {
        SECRET_WORD_FINDER.in_bytes(&squeezed.collect::<Vec<u8>>())
    };
    found
        || name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|segment| {
                SECRET_SEGMENTS
                    .iter()
                    .any(|word| segment.eq_ignore_ascii_case(word))
            })
}

/// Parts of a key that mark its value as a credential. Covers every key Kafka types as
/// PASSWORD (`*.password`, `ssl.keystore.key`, `ssl.keystore.certificate.chain`,
/// `ssl.truststore.certificates`, `sasl.jaas.config`, `delegation.token.secret.key`, ...) in
/// every prefixed form (`listener.name.<l>.<mechanism>.sasl.jaas.config`, `rlmm.config.*`).
/// Rules use it to tell a literal secret of a key Kafka reads; output hides more.
const SECRET_KEY_PARTS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "jaas.config",
    "credential",
    "apikey",
    "api.key",
    "private.key",
    "keystore.key",
    "keystore.certificate.chain",
    "truststore.certificates",
    "master.key",
    // Confluent's `basic.auth.user.info` (`user:password` for Schema Registry and MDS clients,
    // typed PASSWORD in its `AbstractKafkaSchemaSerDeConfig`), in every prefixed form.
    "user.info",
];

/// Is the value of this key a credential by its name?
pub fn is_secret_key(key: &str) -> bool {
    // Rules ask this of every line of every file, and the files of an estate set the same keys:
    // a key met before is answered from a per-thread memo (looking it up costs a fraction of
    // the search).
    thread_local! {
        static MEMO: std::cell::RefCell<Memo<bool>> = std::cell::RefCell::default();
    }
    memoized(&MEMO, key, || holds_secret_key_part(key))
}

/// A per-thread memo of answers by their question.
type Memo<V> = std::collections::HashMap<Box<str>, V, foldhash::fast::FixedState>;

/// The memo's answer to `question`, else `work`'s, kept for next time; the memo is emptied when
/// it grows past a bound, so that a run of many different questions keeps its memory.
fn memoized<V: Clone>(
    memo: &'static std::thread::LocalKey<std::cell::RefCell<Memo<V>>>,
    question: &str,
    work: impl FnOnce() -> V,
) -> V {
    const BOUND: usize = 4096;
    if let Some(known) = memo.with(|memo| memo.borrow().get(question).cloned()) {
        return known;
    }
    let answer = work();
    memo.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.len() >= BOUND {
            memo.clear();
        }
        memo.insert(question.into(), answer.clone());
    });
    answer
}

/// [`is_secret_key`], worked out: one pass over the key, no lower-cased copy, nothing built
/// at start-up.
fn holds_secret_key_part(key: &str) -> bool {
    static PARTS: Words = Words::new(SECRET_KEY_PARTS);
    PARTS.in_text(key)
}

/// Does this value look like a credential, whatever its key? JAAS lines, PEM blocks,
/// `password = "..."` pairs in any spacing and quoting, `user_<name>="..."` (the users of
/// Kafka's `PlainLoginModule`), and URLs with a password (`http://user:pa,ss@host`).
pub fn looks_like_credential(value: &str) -> bool {
    static MARKS: Words = Words::new(&["loginmodule", "-----begin"]);
    if MARKS.in_text(value) {
        return true;
    }
    if passes_a_secret(value) {
        return true;
    }
    if value.contains("://") && has_url_credentials(value) {
        return true;
    }
    if !value.contains(['=', ':']) {
        return false;
    }
    // Read with whitespace and quotes left out and in lower case, the name before each `=` or
    // `:`: the run of name characters that ends there. Gathered in one pass, the run started
    // again at each character that is not one.
    let mut name = String::new();
    for c in value.chars() {
        if c.is_whitespace() || matches!(c, '"' | '\'') {
            continue;
        }
        if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
            name.push(c.to_ascii_lowercase());
            continue;
        }
        if matches!(c, '=' | ':') && names_a_secret(&name) {
            return true;
        }
        name.clear();
    }
    false
}

/// Words looked for in any case, in one pass over a text and without allocating: this runs
/// on every value and comment line output shows (a per-word loop was a tenth of `full`). Its
/// table is made when kafkalint is compiled: the automaton it replaced was built at every
/// start, an eighth of the instructions of checking one file.
struct Words {
    /// Lower case (ASCII letters are matched in any case, other bytes as they are).
    words: &'static [&'static str],
    /// For each byte, the words that start with it in lower case, as bits of `words`.
    starting: [u64; 256],
}

impl Words {
    const fn new(words: &'static [&'static str]) -> Self {
        assert!(words.len() <= 64, "a word is a bit of a u64");
        let mut starting = [0u64; 256];
        let mut index = 0;
        while index < words.len() {
            let word = words[index].as_bytes();
            assert!(!word.is_empty(), "an empty word is in every text");
            let mut at = 0;
            while at < word.len() {
                assert!(
                    !word[at].is_ascii_uppercase(),
                    "words are written in lower case"
                );
                at += 1;
            }
            starting[word[0] as usize] |= 1 << index;
            index += 1;
        }
        Words { words, starting }
    }

    fn in_text(&self, text: &str) -> bool {
        self.in_bytes(text.as_bytes())
    }

    fn in_bytes(&self, text: &[u8]) -> bool {
        text.iter().enumerate().any(|(at, byte)| {
            let mut candidates = self.starting[usize::from(byte.to_ascii_lowercase())];
            while candidates != 0 {
                let word = self.words[candidates.trailing_zeros() as usize].as_bytes();
                if text[at..]
                    .get(..word.len())
                    .is_some_and(|here| here.eq_ignore_ascii_case(word))
                {
                    return true;
                }
                candidates &= candidates - 1;
            }
            false
        })
    }
}

/// Whether `name` (lower case, before a `=` or `:`) is a credential's.
fn names_a_secret(name: &str) -> bool {
    !name.is_empty() && (has_secret_word(name) || name.starts_with("user_"))
}

fn has_url_credentials(value: &str) -> bool {
    // scheme://userinfo@host: any userinfo is a credential, not only `user:password` (a token
    // as the user, `https://TOKEN@host`; a colon written `%3A`), in any characters (`,` and
    // `/` included): an `@` after `://`, before the next URL or space. And a query or fragment
    // that carries a signature or a secret (`?sig=`, `X-Amz-Signature=`, `#access_token=`).
    value.split("://").skip(1).any(|rest| {
        let rest = rest.split(char::is_whitespace).next().unwrap_or("");
        rest.contains('@') || query_holds_secret(rest)
    })
}

/// `text` with every back-quoted part that looks like a credential (`` `http://u:p@h` ``)
/// shown as [`REDACTED`]: the last guard of messages, which quote values in back quotes.
pub fn scrub_quoted(text: &str) -> Option<String> {
    let mut parts = text.split('`');
    let mut scrubbed = String::with_capacity(text.len());
    let mut changed = false;
    scrubbed.push_str(parts.next().unwrap_or_default());
    let mut quoted = true;
    for part in parts {
        scrubbed.push('`');
        if quoted && looks_like_credential(part) {
            scrubbed.push_str(REDACTED);
            changed = true;
        } else {
            scrubbed.push_str(part);
        }
        quoted = !quoted;
    }
    changed.then_some(scrubbed)
}

/// The part of a comment's text (what follows its `#` or `!`) that output hides, as a range
/// of `body`, or `None` when all of it may be shown. A comment that holds a name and a value
/// (`#ssl.key.password=x`, `# KAFKA_SSL_KEY_PASSWORD: x`, `#- NAME=value`,
/// `#  user_alice="x";`) shows the value only when the name is a non-PASSWORD key of the
/// catalogue and the value looks like no credential; prose is shown unless it holds a
/// secret-like word or a credential, and a kafkalint directive is shown as written.
pub fn comment_mask(body: &str) -> Option<Range<usize>> {
    // Files of one estate repeat the same comment lines (a license, the stock file's section
    // banners) and judging one takes several word searches: a line met before is answered from
    // a per-thread memo.
    thread_local! {
        static MEMO: std::cell::RefCell<Memo<Option<Range<usize>>>> = std::cell::RefCell::default();
    }
    memoized(&MEMO, body, || judge_comment(body))
}

/// [`comment_mask`], worked out.
fn judge_comment(body: &str) -> Option<Range<usize>> {
    let indent = body.len() - body.trim_start().len();
    let mut start = indent;
    if let Some(rest) = body[start..].strip_prefix('-') {
        start = body.len() - rest.trim_start().len();
    }
    let text = &body[start..];
    let token_end = text
        .find(|c: char| c.is_whitespace() || c == '=' || c == ':')
        .unwrap_or(text.len());
    let token = &text[..token_end];
    let after = &text[token_end..];
    let after_trimmed = after.trim_start();
    let separated = (after_trimmed.starts_with('=') || after_trimmed.starts_with(':'))
        && !after_trimmed.starts_with("://");
    let value_offset = if separated {
        let after_separator = &after_trimmed[1..];
        text.len() - after_separator.trim_start().len()
    } else {
        text.len() - after_trimmed.len()
    };
    let value = &text[value_offset..];
    let hidden = start + value_offset..body.len();
    if value.trim().is_empty() {
        // One word, which may pass a secret itself (`# -pX`, mysql's password attached).
        return passes_a_secret(&body[indent..]).then_some(indent..body.len());
    }
    if token == "kafkalint" && separated {
        return (has_secret_word(value) || looks_like_credential(value)).then_some(hidden);
    }
    // `key: value` and `key=value` name a setting when the key is a name (`a.b`, `A_B`, not
    // `wurstmeister/kafka:2.12`); `key value` when the value is a word or two, not a sentence
    // (`# server.properties that ships with Kafka.` is prose).
    let is_name = token
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    let names_a_setting = has_secret_word(token)
        || (is_name && separated)
        || (is_name && token.contains(['.', '_']) && value.split_whitespace().nth(2).is_none());
    if names_a_setting {
        let shown = name_kind(token) == KeyKind::Plain && !looks_like_credential(value);
        return (!shown).then_some(hidden);
    }
    // Prose: shown, unless it speaks of a secret (`# the password is hunter2`) or passes one
    // (`# keytool -storepass X`, `# Bearer X`).
    (speaks_of_a_secret(value) || looks_like_credential(value) || passes_a_secret(text))
        .then_some(hidden)
}

/// Whether some word of prose names a secret (`password`, `pw`, `tokens`), in any case. Word
/// by word: squeezed prose would find `pass` in `cap as sign`.
fn speaks_of_a_secret(text: &str) -> bool {
    static WORDS: Words = Words::new(&[
        "password",
        "passwd",
        "pasword",
        "pwd",
        "secret",
        "token",
        "credential",
        "apikey",
        "privatekey",
    ]);
    const SHORT_WORDS: &[&str] = &["pass", "pw", "psw"];
    static SHORT: Words = Words::new(SHORT_WORDS);
    WORDS.in_text(text)
        || (SHORT.in_text(text)
            && text.split_whitespace().any(|word| {
                let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
                SHORT_WORDS
                    .iter()
                    .any(|short| word.eq_ignore_ascii_case(short))
            }))
}

// ---------------------------------------------------------------------------------------------
// Secrets without a secret-like name: passed on a command line, in an HTTP header, in a URL

/// Whether `text` passes a secret the way command lines and HTTP pass one, with no name ending
/// in `=` or `:` before it: a flag that takes a secret (keytool's `-storepass X`, `-keypass X`,
/// `-srcstorepass X`; openssl's `-passin pass:X`; `--password X`, `--token=X`; mysql's `-pX`;
/// curl's `-u user:X`), or an HTTP authorization (`Bearer X`, `Authorization: Basic X`).
pub fn passes_a_secret(text: &str) -> bool {
    // Most text holds neither a flag nor an authorization scheme: answered without splitting.
    static SCHEMES: Words = Words::new(AUTHORIZATION_WORDS);
    let flag_like = text
        .as_bytes()
        .windows(2)
        .any(|pair| pair[0] == b'-' && pair[1].is_ascii_alphabetic());
    if !flag_like && !SCHEMES.in_text(text) {
        return false;
    }
    let words: Vec<&str> = command_line_words(text).collect();
    words.iter().enumerate().any(|(at, word)| {
        let next = words.get(at + 1).copied();
        takes_a_secret(word, next) || authorizes_with(word, next, words.get(at + 2).copied())
    })
}

/// Words of HTTP authorization: the header's name and the schemes of RFC 9110 section 11 and
/// the IANA registry, as people write them in comments and values.
const AUTHORIZATION_WORDS: &[&str] = &[
    "authorization",
    "bearer",
    "basic",
    "digest",
    "negotiate",
    "hoba",
    "mutual",
];

/// The words of a command line as a reader sees them: split at any space (a no-break space
/// too: text shown is not a shell's), quotes and the brackets and commas around arguments.
fn command_line_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | ',' | ';' | '(' | ')' | '[' | ']' | '{' | '}'
            )
    })
    .filter(|word| !word.is_empty())
}

/// Whether `word` is a flag given a secret, attached (`--password=X`, `-pX`, `-uuser:X`) or
/// as the `next` word.
fn takes_a_secret(word: &str, next: Option<&str>) -> bool {
    let Some(flag) = word.strip_prefix('-') else {
        return false;
    };
    let long = flag.starts_with('-');
    let flag = flag.trim_start_matches('-');
    let (name, attached) = match flag.split_once(['=', ':']) {
        Some((name, value)) => (name, Some(value)),
        None => (flag, None),
    };
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return false;
    }
    let given = attached.is_some_and(|value| !value.is_empty()) || next.is_some();
    // A flag named for a secret in any tool's spelling: `-storepass`, `--keystore-password`,
    // `-passin`, `--token`, `--client-secret`, `--api-key`.
    if has_secret_word(name) {
        return given;
    }
    // `-u user:password` (curl), `--user user:password`, `--proxy-user user:password`: a user
    // flag given a colon gives a password with it.
    if name.eq_ignore_ascii_case("u") || name.to_ascii_lowercase().contains("user") {
        let value = attached.or(next).unwrap_or_default();
        return value.contains(':');
    }
    if !long && let Some(value) = name.strip_prefix('u') {
        // `-uadmin:x`: curl's user with its password attached.
        return attached.is_some() && !value.is_empty();
    }
    // mysql's and mariadb's `-pPASSWORD` (the password attached to `-p`); a flag of another
    // tool that starts with `p` is a word of its own (`-port`, `-print`, `-pubkey`).
    if !long && let Some(value) = name.strip_prefix('p') {
        return !value.is_empty() && !P_FLAGS.contains(&name);
    }
    false
}

/// Single-dash flags of common tools (openssl, keytool, JVMs, kafka-run-class) that start with
/// `p` and are no password attached to `-p`.
const P_FLAGS: &[&str] = &[
    "path",
    "pid",
    "pipe",
    "port",
    "pretty",
    "print",
    "profile",
    "property",
    "providerarg",
    "providerclass",
    "providername",
    "providerpath",
    "proxy",
    "pubin",
    "pubkey",
    "pubout",
];

/// Whether `word` starts an HTTP authorization whose credential follows: `Authorization: X`,
/// `Bearer X`, `Basic X` when X reads as a token (not the prose of `Basic settings`).
fn authorizes_with(word: &str, next: Option<&str>, after: Option<&str>) -> bool {
    // The header's name may hold its value on (`Authorization:Bearer`).
    let (head, tail) = word.split_once([':', '=']).unwrap_or((word, ""));
    let scheme = head.to_ascii_lowercase();
    if matches!(scheme.as_str(), "authorization" | "proxy-authorization") {
        return !tail.is_empty() || next.is_some();
    }
    let scheme = word.trim_end_matches([':', '=']).to_ascii_lowercase();
    let Some(next) = next else { return false };
    match scheme.as_str() {
        "bearer" => true,
        "basic" | "digest" | "negotiate" | "hoba" | "mutual" | "token" => {
            reads_as_a_token(next) || (next.ends_with(['=', ':']) && after.is_some())
        }
        _ => false,
    }
}

/// Whether a word reads as a token rather than prose: base64 or hex characters with a digit,
/// a `+`, `/` or `=`, or more than one capital letter.
fn reads_as_a_token(word: &str) -> bool {
    let characters = word
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"+/=._~-:".contains(&b));
    let marked = word
        .bytes()
        .any(|b| b.is_ascii_digit() || b"+/=".contains(&b))
        || word.bytes().filter(u8::is_ascii_uppercase).count() > 1;
    word.len() >= 4 && characters && marked
}

/// Parts of a URL query parameter's name that mark its value as a secret: signatures
/// (`sig`, `signature`, `X-Amz-Signature`), keys (`key`, `api_key`, `subscription-key`),
/// OAuth's `code` and `*_token`, credentials (`X-Amz-Credential`), sessions, tickets; a name
/// with a secret-like word (`client_secret`, `access_token`, `password`) besides.
const QUERY_SECRET_PARTS: &[&str] = &["sig", "key", "code", "auth", "cred", "session", "ticket"];

/// Whether the query or fragment of a URL (`rest`, what follows its `://`) has a parameter
/// whose name marks a secret, in any case and percent-encoding.
fn query_holds_secret(rest: &str) -> bool {
    let Some(at) = rest.find(['?', '#']) else {
        return false;
    };
    rest[at + 1..]
        .split(['&', ';', '?', '#'])
        .filter_map(|parameter| parameter.split_once('='))
        .any(|(name, _)| {
            let name = percent_decoded(name).to_ascii_lowercase();
            let squeezed: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
            has_secret_word(&name)
                || name.starts_with("x-amz-")
                || name.starts_with("x-goog-")
                || QUERY_SECRET_PARTS
                    .iter()
                    .any(|part| squeezed.contains(part))
        })
}

/// `text` with its `%XX` escapes decoded (bytes not UTF-8 replaced).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .filter(|pair| pair.iter().all(u8::is_ascii_hexdigit))
            .and_then(|pair| std::str::from_utf8(pair).ok())
            .and_then(|pair| u8::from_str_radix(pair, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                at += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

#[cfg(test)]
mod words {
    use super::Words;
    use proptest::prelude::*;

    const SAMPLE: &[&str] = &["pass", "pw", "-----begin", "token", "loginmodule", "é"];
    static FINDER: Words = Words::new(SAMPLE);

    /// The plain reading: some word is a part of the text with its ASCII letters in lower case.
    fn by_lowering(text: &[u8]) -> bool {
        let lowered = text.to_ascii_lowercase();
        SAMPLE.iter().any(|word| {
            lowered
                .windows(word.len())
                .any(|here| here == word.as_bytes())
        })
    }

    #[test]
    fn words_are_found_in_any_case_anywhere() {
        for (text, found) in [
            ("PassWord", true),
            ("a pW", true),
            ("-----BEGIN PRIVATE KEY", true),
            ("tokeN", true),
            ("toke", false),
            ("p-w", false),
            ("É", false),
            ("café", true),
            ("", false),
        ] {
            assert_eq!(FINDER.in_text(text), found, "{text}");
        }
    }

    proptest! {
        #[test]
        fn finds_what_lowering_the_text_finds(text in "[pPaAsSwWtToOkKeEnN \\-éÉ]{0,24}") {
            prop_assert_eq!(FINDER.in_bytes(text.as_bytes()), by_lowering(text.as_bytes()));
        }
    }
}

#[cfg(test)]
mod secrets_without_a_name {
    use super::*;

    #[test]
    fn flags_and_schemes_that_pass_a_secret() {
        for text in [
            "keytool -importkeystore -srcstorepass x -deststorepass y",
            "-storepass x",
            "-keypass x",
            "openssl pkcs12 -passin pass:x",
            "mysql -uroot -pHunter2",
            "psql --password=x",
            "kcat -b h --token x",
            "curl -u admin:x http://h",
            "curl --user=admin:x",
            "curl -uadmin:x",
            "Bearer eyJhbGciOi",
            "bearer x",
            "Authorization: Basic YWRtaW46eA==",
            "authorization: token x",
            "\"-storepass\", \"x\"",
            "--client-secret\u{a0}x",
        ] {
            assert!(passes_a_secret(text), "{text}");
            assert!(looks_like_credential(text), "{text}");
        }
        for text in [
            "Basic settings for the broker",
            "kafka-topics --bootstrap-server h:9092 --partitions 3",
            "keytool -list -keystore k.jks",
            "-port 9092",
            "-p",
            "--password",
            "/var/lib/kafka-pdata",
            "OAUTHBEARER",
            "set -euo pipefail",
        ] {
            assert!(!passes_a_secret(text), "{text}");
        }
    }

    #[test]
    fn any_userinfo_and_secret_query_parameters() {
        for url in [
            "https://TOKEN@host/x",
            "https://user%3Ax@host",
            "SASL_SSL://tok@broker:9093",
            "https://h/b?sig=x",
            "https://h/b?a=1&code=x",
            "https://h/b?X-Amz-Algorithm=a&X-Amz-Credential=x&X-Amz-Signature=y",
            "https://h/cb#access_token=x",
            "https://h/t?client_secret=x",
            "https://h/t?api_key=x",
            "https://h/t?%73ig=x",
            "https://h/t?KEY=x",
        ] {
            assert!(looks_like_credential(url), "{url}");
        }
        for url in [
            "https://h:8081/subjects?deleted=true",
            "http://registry:8081",
            "PLAINTEXT://:9092,SSL://b:9093",
            "https://kafka.apache.org/documentation/#brokerconfigs",
        ] {
            assert!(!looks_like_credential(url), "{url}");
        }
    }

    #[test]
    fn comments_that_pass_a_secret_without_a_name() {
        let hidden = |body: &str| comment_mask(body).map(|range| body[range].to_string());
        assert_eq!(
            hidden(" keytool -storepass x").as_deref(),
            Some("-storepass x")
        );
        assert_eq!(hidden(" Bearer x").as_deref(), Some("x"));
        assert_eq!(hidden(" mysql -pHunter2").as_deref(), Some("-pHunter2"));
        assert_eq!(hidden(" -pHunter2").as_deref(), Some("-pHunter2"));
        assert_eq!(hidden(" Basic settings for the broker"), None);
    }

    /// splitmix64, for the generated shapes below.
    fn generator(seed: u64) -> impl FnMut(usize) -> usize {
        let mut state = seed;
        move |n| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        }
    }

    /// Comments of prose and tools with a flag that takes a secret (a prefix, a core, one or two
    /// dashes, a joint) or an authorization: the secret is in what the comment hides.
    #[test]
    fn generated_comments_passing_a_secret_hide_it() {
        const SECRET: &str = "Zq7xSecret9";
        let prose = [
            "",
            "run ",
            "then: ",
            "keytool -list ",
            "see the runbook; ",
            "kcat -b h:9092 ",
        ];
        let prefixes = ["", "src", "dest", "new", "key", "store-", "client-", "Sasl"];
        let cores = [
            "pass",
            "password",
            "storepass",
            "keypass",
            "passin",
            "passout",
            "token",
            "secret",
            "apikey",
            "api-key",
            "pwd",
            "passphrase",
            "auth-token",
        ];
        let joints = [" ", "=", "\t", "\u{a0}", "  ", ":", " \"", "='"];
        let mut next = generator(0x5ec2e7);
        for _ in 0..20_000 {
            let lead = prose[next(prose.len())];
            let text = match next(4) {
                0 | 1 => format!(
                    "{}{}{}{}",
                    ["-", "--"][next(2)],
                    prefixes[next(prefixes.len())],
                    cores[next(cores.len())],
                    joints[next(joints.len())]
                ),
                2 => format!(
                    "{}{}",
                    ["-u ", "--user=", "--proxy-user ", "-U\t", "-uadmin"][next(5)],
                    ["admin:", "x:", ":"][next(3)]
                ),
                _ => format!(
                    "{}{} ",
                    [
                        "Authorization: ",
                        "authorization:",
                        "Proxy-Authorization: ",
                        ""
                    ][next(4)],
                    ["Bearer", "Basic", "Digest", "token", "Negotiate"][next(5)]
                ),
            };
            let body = format!(" {lead}{text}{SECRET} and more");
            let hidden = comment_mask(&body);
            let start = body.find(SECRET).unwrap();
            assert!(
                hidden
                    .clone()
                    .is_some_and(|range| range.start <= start && start + SECRET.len() <= range.end),
                "{body:?}: {hidden:?}"
            );
        }
    }

    /// URLs with userinfo of any form or a parameter that carries a secret, built from parts.
    #[test]
    fn generated_urls_with_credentials_read_as_credentials() {
        let schemes = [
            "https",
            "http",
            "SASL_SSL",
            "PLAINTEXT",
            "oci",
            "git+https",
            "s3",
            "ldaps",
        ];
        let userinfo = [
            "{S}@",
            "u%3A{S}@",
            "u%3a{S}@",
            "{S}:@",
            "u:{S}@",
            "%40u:{S}@",
            "{S}:x-oauth-basic@",
        ];
        let prefixes = [
            "",
            "x-amz-",
            "X-Goog-",
            "client_",
            "access_",
            "oauth_",
            "api-",
            "session_",
            "refresh_",
            "Ocp-Apim-Subscription-",
        ];
        let cores = [
            "sig",
            "signature",
            "code",
            "token",
            "secret",
            "key",
            "credential",
            "auth",
            "password",
            "security-token",
        ];
        let places = ["?{N}=", "?a=1&{N}=", "?v=2;{N}=", "#{N}=", "?x=1#{N}="];
        let mut next = generator(0x0a11);
        for _ in 0..20_000 {
            let scheme = schemes[next(schemes.len())];
            let url = if next(2) == 0 {
                let form = userinfo[next(userinfo.len())].replace("{S}", "Zq7x");
                format!("{scheme}://{form}host:9092/p")
            } else {
                let mut name = format!(
                    "{}{}",
                    prefixes[next(prefixes.len())],
                    cores[next(cores.len())]
                );
                if next(2) == 0 {
                    name = name.to_ascii_uppercase();
                }
                let place = places[next(places.len())].replace("{N}", &name);
                format!("{scheme}://host/p{place}Zq7x")
            };
            let value = ["{}", "x,{}", "see {} now"][next(3)].replace("{}", &url);
            assert!(looks_like_credential(&value), "{value}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_keys_are_told_as_by_lower_casing() {
        let by_lower_casing = |key: &str| {
            let key = key.to_ascii_lowercase();
            SECRET_KEY_PARTS.iter().any(|part| key.contains(part))
        };
        let keys = [
            "ssl.key.password",
            "SSL.KEYSTORE.KEY",
            "listener.name.x.plain.sasl.jaas.config",
            "apikey",
            "my.api.ke",
            "passwor",
            "x.user.info.y",
            "ssl.keystore.location",
            "",
            "é.password",
            "PaSsWd",
            "master.keys",
            "truststore.certificate",
        ];
        for key in keys {
            assert_eq!(is_secret_key(key), by_lower_casing(key), "{key}");
        }
    }

    #[test]
    fn password_type_keys_are_secret() {
        for key in [
            "ssl.keystore.password",
            "ssl.key.password",
            "ssl.truststore.password",
            "listener.name.sasl_ssl.plain.sasl.jaas.config",
            "sasl.jaas.config",
            "delegation.token.secret.key",
            "delegation.token.master.key",
            "ssl.keystore.key",
            "password.encoder.secret",
            "zookeeper.ssl.keystore.password",
            "rlmm.config.remote.log.metadata.common.client.sasl.jaas.config",
            "confluent.metadata.basic.auth.user.info",
            "schema.registry.basic.auth.user.info",
        ] {
            assert!(is_secret_key(key), "{key}");
            assert!(is_hidden(key, "x"), "{key}");
        }
    }

    #[test]
    fn ordinary_keys_are_not_secret() {
        for key in [
            "offsets.topic.replication.factor",
            "delegation.token.max.lifetime.ms",
            "listeners",
            "sasl.enabled.mechanisms",
            "ssl.keystore.location",
            "broker.id",
        ] {
            assert!(!is_secret_key(key), "{key}");
            assert!(may_show(key, "3"), "{key}");
        }
    }

    #[test]
    fn only_known_plain_keys_are_shown() {
        assert_eq!(key_kind("num.partitions"), KeyKind::Plain);
        assert_eq!(key_kind("ssl.key.password"), KeyKind::Password);
        // Another component's PASSWORD key, and one of its plain ones.
        assert_eq!(key_kind("ssl.truststore.password"), KeyKind::Password);
        assert_eq!(key_kind("offset.storage.topic"), KeyKind::Plain);
        // MirrorMaker 2 flows and cluster aliases, Schema Registry.
        assert_eq!(key_kind("primary->backup.enabled"), KeyKind::Plain);
        assert_eq!(key_kind("primary.bootstrap.servers"), KeyKind::Plain);
        assert_eq!(key_kind("primary.ssl.key.password"), KeyKind::Password);
        assert_eq!(
            key_kind("kafkastore.topic.replication.factor"),
            KeyKind::Plain
        );
        // Per listener and per mechanism.
        assert_eq!(
            key_kind("listener.name.internal.ssl.keystore.location"),
            KeyKind::Plain
        );
        assert_eq!(
            key_kind("listener.name.internal.scram-sha-256.sasl.jaas.config"),
            KeyKind::Password
        );
        for key in [
            "ssl.keystore.pasword",
            "ssl.key.passwrod",
            "ssl.key.pass",
            "ssl.truststore.pwd",
            "bearer.auth.token",
            "confluent.metadata.bearer.auth.token",
            "config.providers.vault.param.auth.token",
            "num.partitons",
            "user_alice",
        ] {
            assert_eq!(key_kind(key), KeyKind::Unknown, "{key}");
            assert!(is_hidden(key, "x"), "{key}");
        }
    }

    #[test]
    fn environment_names_follow_the_image_conventions() {
        assert_eq!(
            name_kind("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"),
            KeyKind::Plain
        );
        assert_eq!(name_kind("KAFKA_CFG_LOG_DIRS"), KeyKind::Plain);
        assert_eq!(name_kind("KAFKA_SSL_KEY_PASSWORD"), KeyKind::Password);
        assert_eq!(name_kind("KAFKA_SSL_KEYSTORE_PASWORD"), KeyKind::Unknown);
        assert_eq!(name_kind("POSTGRES_PASSWORD"), KeyKind::Unknown);
    }

    #[test]
    fn pasted_text_is_no_name() {
        assert!(looks_like_a_name("my.custom-key_2"));
        assert!(looks_like_a_name("broker"));
        assert!(!looks_like_a_name(
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7"
        ));
        assert!(!looks_like_a_name("abc+def/ghi"));
    }

    #[test]
    fn keys_are_shown_up_to_a_value_run_into_them() {
        for key in [
            "ssl.keystore.password",
            "KAFKA_SSL_KEY_PASSWORD",
            "primary->backup.enabled",
            "ssl.keystore.pasword",
            "ssl.keystore.passphrase",
            "my.password.old",
            "SSL.KEYSTORE.PASSWORD",
            "bearer.auth.token",
            "basic.auth.user.info",
            "num.partitons",
            "user_alice",
            "my.custom-key_2",
        ] {
            assert_eq!(shown_key(key), key, "{key}");
        }
        for (key, shown) in [
            (
                "ssl.keystore.password\u{a0}hunter2",
                "ssl.keystore.password[redacted]",
            ),
            (
                "ssl.key.password\u{ff1d}hunter2",
                "ssl.key.password[redacted]",
            ),
            (
                "ssl.truststore.password:hunter2",
                "ssl.truststore.password[redacted]",
            ),
            (
                "ssl.truststore.password=hunter2",
                "ssl.truststore.password[redacted]",
            ),
            (
                "ssl.keystore.passwordhunter2",
                "ssl.keystore.password[redacted]",
            ),
            (
                "ssl.keystore.passwordHunter",
                "ssl.keystore.password[redacted]",
            ),
            ("sasl.jaas.configX", "sasl.jaas.config[redacted]"),
            (
                "SSL.KEYSTORE.KEYCANARY0101xcE8KSK7M",
                "SSL.KEYSTORE.KEY[redacted]",
            ),
            ("Sasl.Jaas.ConfigX", "Sasl.Jaas.Config[redacted]"),
            ("SSL.KEYSTORE.PASSWORD", "SSL.KEYSTORE.PASSWORD"),
            (
                "ssl.keystore.password.Xy7",
                "ssl.keystore.password[redacted]",
            ),
            (
                "ssl.keystore.password.old",
                "ssl.keystore.password[redacted]",
            ),
            (
                "ssl.keystore.password-hunter",
                "ssl.keystore.password[redacted]",
            ),
            ("my.password.Xy7", "my.password.[redacted]"),
            (
                "KAFKA_SSL_KEY_PASSWORDHUNTER2",
                "KAFKA_SSL_KEY_PASSWORD[redacted]",
            ),
            ("my.app.secrethunter2", "my.app.[redacted]"),
            ("my.app.token-x9", "my.app.token-[redacted]"),
            ("bearer.auth.tokenX", "bearer.auth.[redacted]"),
            (
                "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
                "[redacted]",
            ),
            ("abc+def/ghi", "abc[redacted]"),
            ("\u{a0}x", "[redacted]"),
        ] {
            assert_eq!(shown_key(key), shown, "{key:?}");
        }
    }

    #[test]
    fn a_key_run_into_its_value_is_hidden_in_every_form_of_it() {
        let key = "listener.name.internal.ssl.key.password\u{a0}Hunter2";
        assert_eq!(
            hide_key_in(&format!("{key} is unknown to Kafka 4.0"), key).as_deref(),
            Some("listener.name.internal.ssl.key.password[redacted] is unknown to Kafka 4.0")
        );
        assert_eq!(
            hide_key_in("ssl.key.password\u{a0}hunter2: not read per listener", key).as_deref(),
            Some("ssl.key.password[redacted]: not read per listener")
        );
        assert_eq!(
            hide_key_in(
                "rename it to LISTENER_NAME_INTERNAL_SSL_KEY_PASSWORD\u{a0}HUNTER2",
                key
            )
            .as_deref(),
            Some("rename it to LISTENER_NAME_INTERNAL_SSL_KEY_PASSWORD[redacted]")
        );
        assert_eq!(hide_key_in("did you mean ssl.key.password?", key), None);
        // A short hidden part is hidden where the key is, not in every word of the message.
        let key = "ssl.keystore.passwordX";
        assert_eq!(
            hide_key_in("ssl.keystore.passwordX: fix, then check next", key).as_deref(),
            Some("ssl.keystore.password[redacted]: fix, then check next")
        );
    }

    #[test]
    fn secret_words_in_any_spelling() {
        for name in [
            "ssl.keystore.pasword",
            "KAFKA_SSL_KEY_PW",
            "ssl.truststore.pwd",
            "bearer.auth.token",
            "apiKey",
            "AWS_SECRET_ACCESS_KEY",
            "basic.auth.user.info",
        ] {
            assert!(has_secret_word(name), "{name}");
        }
        for name in ["listeners", "log.dirs", "KAFKA_BROKER_ID", "num.partitions"] {
            assert!(!has_secret_word(name), "{name}");
        }
    }

    #[test]
    fn credential_looking_values() {
        for value in [
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"b\";",
            "http://user:hunter2@registry:8081",
            "http://user:pa,ss@host",
            "http://user:pa/ss@host:8081/path",
            "-----BEGIN PRIVATE KEY----- abc",
            "password = \"x\"",
            "a b secret: x",
            "user_alice=\"x\";",
            "token=abc",
        ] {
            assert!(looks_like_credential(value), "{value}");
        }
        for value in [
            "PLAINTEXT://broker-1:9092,SSL://broker-1:9093",
            "http://registry:8081",
            "/var/lib/kafka/data",
            "3",
            "SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT",
        ] {
            assert!(!looks_like_credential(value), "{value}");
        }
    }

    #[test]
    fn quoted_credentials_in_messages() {
        assert_eq!(
            scrub_quoted("entry `SASL://u:p@h:9` is bad, `3` is fine").as_deref(),
            Some("entry `[redacted]` is bad, `3` is fine")
        );
        assert_eq!(scrub_quoted("`3` and `PLAINTEXT://:9092`"), None);
    }

    fn hidden(body: &str) -> Option<&str> {
        comment_mask(body).map(|range| &body[range])
    }

    #[test]
    fn comments_that_hold_a_setting() {
        assert_eq!(hidden("ssl.key.password=hunter2"), Some("hunter2"));
        assert_eq!(hidden(" KAFKA_SSL_KEY_PASSWORD: hunter2"), Some("hunter2"));
        assert_eq!(
            hidden("- KAFKA_SASL_JAAS_CONFIG=x password=\"y\""),
            Some("x password=\"y\"")
        );
        assert_eq!(hidden("  user_alice=\"x\";"), Some("\"x\";"));
        assert_eq!(hidden("ssl.key.pass hunter2"), Some("hunter2"));
        assert_eq!(hidden("custom.key canary"), Some("canary"));
        assert_eq!(hidden(" server.properties that ships with Kafka."), None);
        assert_eq!(
            hidden(" wurstmeister/kafka:2.12-2.2.1 runs Kafka 2.2, older than"),
            None
        );
        assert_eq!(hidden("Hostname: db"), Some("db"));
        assert_eq!(hidden("num.partitions=3"), None);
        assert_eq!(hidden(" KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1"), None);
        assert_eq!(hidden("listeners = PLAINTEXT://your.host.name:9092"), None);
    }

    #[test]
    fn prose_and_directives() {
        assert_eq!(
            hidden(" Licensed to the Apache Software Foundation (ASF) under one"),
            None
        );
        assert_eq!(hidden(" see https://kafka.apache.org/documentation"), None);
        assert_eq!(hidden(" https://kafka.apache.org/documentation"), None);
        assert_eq!(hidden(" kafkalint: ignore[unknown-key] a cache"), None);
        assert_eq!(
            hidden(" the password is hunter2"),
            Some("password is hunter2")
        );
        assert_eq!(hidden(" see http://u:p,w@host"), Some("http://u:p,w@host"));
        assert_eq!(hidden(""), None);
        assert_eq!(
            hidden(" contributor license agreements.  See the NOTICE file"),
            None
        );
    }
}
