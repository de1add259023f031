//! Property tests: a short run (256 cases each) of what the fuzz targets (fuzz/) check at
//! length, on generated input: the parser and the whole pipeline never panic and keep their
//! invariants (tests/invariants), escaped pairs read back as written, and secrets never reach
//! any output.

mod invariants;

use proptest::prelude::*;

use kafkalint::Options;

/// Bytes that steer the parser into its corners: separators, whitespace, escapes, line ends,
/// comment markers, hex digits, controls, Latin-1 and UTF-8 lead bytes.
fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
    let alphabet: Vec<u8> =
        b"=: \t\x0c\\\r\n#!uU0aF9xk.\x1b\x07\x00\x80\x9b\xe9\xc3\xe2\xff".to_vec();
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..512),
        prop::collection::vec(prop::sample::select(alphabet), 0..512),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_parser_never_panics_and_its_spans_hold(bytes in tricky_bytes()) {
        invariants::parse_holds(&bytes);
        invariants::source_holds(&bytes);
    }
}

/// Inputs the fuzz targets found, kept as tests (tests/regressions/).
#[test]
fn fuzz_findings_hold() {
    // A malformed `\u004` escape whose fourth "character" (Kafka reads bytes as Latin-1) is
    // the first byte of a UTF-8 character: its span ended inside that character on display.
    let bytes = include_bytes!("regressions/properties-escape-splits-utf8");
    invariants::parse_holds(bytes);
    invariants::source_holds(bytes);
    let small = b"broker.id=0\nlog.dirs=/data\na=\\u004\xd9\xa3b\n";
    invariants::parse_holds(small);
    invariants::source_holds(small);
}

/// `Properties.store`'s escaping (`saveConvert`): `\`, `=`, `:`, `#`, `!`, tab, line ends and
/// form feed escaped; spaces escaped in keys, and at the start of a value; characters outside
/// printable ASCII as `\uXXXX` (UTF-16 units), or, for Latin-1 ones, the raw byte when `raw`.
fn escape(text: &str, is_key: bool, raw_latin1: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, c) in text.chars().enumerate() {
        match c {
            ' ' if is_key || index == 0 => out.extend_from_slice(b"\\ "),
            '\\' | '=' | ':' | '#' | '!' => out.extend_from_slice(&[b'\\', c as u8]),
            '\t' => out.extend_from_slice(b"\\t"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\x0c' => out.extend_from_slice(b"\\f"),
            ' '..='~' => out.push(c as u8),
            '\u{a0}'..='\u{ff}' if raw_latin1 => out.push(c as u32 as u8),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.extend_from_slice(format!("\\u{unit:04X}").as_bytes());
                }
            }
        }
    }
    out
}

/// Splits escaped `bytes` with a continuation (`\`, a line end, indentation) before the byte at
/// `at`, when that is not inside an escape sequence.
fn continue_line(bytes: &[u8], at: usize, line_end: &[u8]) -> Vec<u8> {
    let mut boundaries = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        boundaries.push(i);
        i += match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'u') => 6,
            b'\\' => 2,
            _ => 1,
        };
    }
    // Not at the start, nor before a space: the reader drops the next line's leading
    // whitespace (as Kafka's does), the value's own with it.
    let Some(split) = boundaries
        .into_iter()
        .filter(|b| *b > 0 && bytes[*b] != b' ')
        .nth(at)
    else {
        return bytes.to_vec();
    };
    [&bytes[..split], b"\\", line_end, b"    ", &bytes[split..]].concat()
}

fn key_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}(\\.[a-z]{1,8}){0,3}",
        any::<String>().prop_filter("a key is not empty", |k| !k.is_empty()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Pairs written with escapes (separator, line ends, continuations and Latin-1 bytes
    /// varied) are read back as they were, in order.
    #[test]
    fn escaped_pairs_read_back_as_written(
        pairs in prop::collection::vec((key_text(), any::<String>(), 0usize..3, any::<bool>(), 0usize..40), 1..8),
        line_end in prop::sample::select(vec![&b"\n"[..], b"\r\n", b"\r"]),
    ) {
        let mut file = Vec::new();
        for (key, value, separator, raw_latin1, split) in &pairs {
            file.extend(escape(key, true, *raw_latin1));
            file.extend_from_slice([&b"="[..], b" : ", b" "][*separator]);
            file.extend(continue_line(&escape(value, false, *raw_latin1), *split, line_end));
            file.extend_from_slice(line_end);
        }
        let parsed = invariants::parse_holds(&file);
        let read: Vec<(String, String)> = parsed
            .entries
            .into_iter()
            .map(|entry| (entry.key, entry.value))
            .collect();
        let written: Vec<(String, String)> = pairs
            .into_iter()
            .map(|(key, value, ..)| (key, value))
            .collect();
        prop_assert_eq!(read, written);
    }
}

/// A broker file with a few keys that rules look at, so that generated noise lands among
/// findings (snippets, fixes, cluster-wide comparisons).
fn broker(id: usize) -> String {
    format!(
        "broker.id={id}\nzookeeper.connect=zk-1:2181,zk-2:2181\nlog.dirs=/tmp/kafka-logs\n\
         offsets.topic.replication.factor=1\nlisteners=PLAINTEXT://:9092\n\
         num.partitions=3\nnum.partitions=3\n"
    )
}

fn cluster_files() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    let file = prop_oneof![
        tricky_bytes(),
        (0usize..3, tricky_bytes(), any::<prop::sample::Index>()).prop_map(|(id, noise, at)| {
            let mut bytes = broker(id).into_bytes();
            let at = at.index(bytes.len() + 1);
            bytes.splice(at..at, noise);
            bytes
        }),
    ];
    prop::collection::vec((any::<u8>(), file), 1..4).prop_map(|files| {
        files
            .into_iter()
            .enumerate()
            .map(|(index, (place, bytes))| (invariants::path_by_number(place, index), bytes))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The whole check on generated clusters: every format renders and holds no raw control
    /// character, `--fix` and `--diff` hold their own checks.
    #[test]
    fn the_pipeline_never_panics_and_renders_every_format(
        files in cluster_files(),
        version in any::<u8>(),
        brokers in 0usize..5,
    ) {
        let options = Options {
            brokers: Some(brokers).filter(|n| *n > 0),
            kafka_version: invariants::version_by_number(version),
            ..Options::default()
        };
        invariants::pipeline_holds(files, None, &options);
    }
}

/// A secret value: letters and digits after a prefix no other text of the files holds.
fn secret() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{10,20}".prop_map(|tail| format!("Zq{tail}"))
}

/// Where a secret is written: each a line (or two) of a broker file, `{}` the secret.
const SECRET_LINES: &[&str] = &[
    "ssl.keystore.password={}",
    "ssl.key.password = {}",
    "listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"{}\";",
    "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n    username=\"u\" password=\"{}\";",
    "#ssl.truststore.password={}",
    "confluent.metadata.basic.auth.user.info=admin:{}",
    "x.registry.url=https://admin:{}@registry:8081",
    "ssl.keystore.password={}\nssl.keystore.password={}",
    "ssl.truststore.password=\\\n  {}",
    "delegation.token.secret.key:{}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Secrets, each in a broker file among keys that draw findings (snippets around them, a
    /// duplicate line that `--fix` removes, values compared across brokers), never appear in
    /// any format, the diff, or the report of the fixed files.
    #[test]
    fn secrets_never_appear_in_any_output(
        placed in prop::collection::vec((prop::sample::select(SECRET_LINES), secret(), 0usize..3), 1..6),
        version in any::<u8>(),
    ) {
        let mut files: Vec<String> = (0..3).map(broker).collect();
        for (line, secret, file) in &placed {
            files[*file].push_str(&line.replace("{}", secret));
            files[*file].push('\n');
        }
        let files = files
            .into_iter()
            .enumerate()
            .map(|(index, text)| (format!("cluster/server-{index}.properties"), text.into_bytes()))
            .collect();
        let options = Options {
            kafka_version: invariants::version_by_number(version),
            ..Options::default()
        };
        for (format, text) in invariants::pipeline_holds(files, None, &options) {
            for (_, secret, _) in &placed {
                prop_assert!(!text.contains(secret.as_str()), "{} shows {}:\n{}", format, secret, text);
            }
        }
    }
}
