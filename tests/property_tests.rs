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
        brokers in 0u8..5,
    ) {
        invariants::pipeline_holds(files, None, &invariants::options_for(version, brokers));
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

/// Compose files and Strimzi resources of the fixtures, and a compose file with secrets beside
/// its findings: what the YAML property test mutates.
const YAML_FIXTURES: &[&[u8]] = &[
    include_bytes!("../fixtures/internal-topic-replication/bad-compose/docker-compose.yml"),
    include_bytes!("../fixtures/internal-topic-replication/bad-compose-anchors/docker-compose.yml"),
    include_bytes!(
        "../fixtures/internal-topic-replication/bad-compose-bitnami-list/docker-compose.yml"
    ),
    include_bytes!(
        "../fixtures/component-internal-topic-replication/bad-compose-connect/docker-compose.yml"
    ),
    include_bytes!("../fixtures/removed-key/bad-compose-image-4.0-zookeeper/docker-compose.yml"),
    include_bytes!("../fixtures/internal-topic-replication/bad-strimzi-node-pools/kafka.yaml"),
    include_bytes!("../fixtures/internal-topic-replication/bad-strimzi-replicas/kafka.yaml"),
    include_bytes!("../fixtures/strimzi-forbidden-key/bad/kafka.yaml"),
    b"services:\n  kafka-1:\n    image: apache/kafka:3.9.0\n    environment:\n      \
      KAFKA_NODE_ID: 1\n      KAFKA_LOG_DIRS: /tmp/kafka-logs\n      \
      KAFKA_SSL_KEYSTORE_PASSWORD: Zq7keystoreSecret\n      \
      KAFKA_SASL_JAAS_CONFIG: org.apache.kafka.common.security.plain.PlainLoginModule required \
      username=\"admin\" password=\"Zq7jaasSecret\";\n      \
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n  kafka-2:\n    image: apache/kafka:3.9.0\n    \
      environment:\n      - KAFKA_NODE_ID=2\n      - KAFKA_SSL_KEY_PASSWORD=Zq7keySecret\n      \
      - KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1\n",
];

/// Snippets that steer the YAML reader into its corners: anchors, aliases, merge keys, flow
/// collections, quoting, block scalars, comments, interpolation, documents, tabs, controls.
const YAML_SNIPPETS: &[&str] = &[
    ": ",
    "- ",
    "&a ",
    "*a",
    "<<: *a",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "'",
    "\"",
    "\\",
    "|",
    ">-",
    "# ",
    "${X:-1}",
    "$$",
    "---\n",
    "...\n",
    "\t",
    "\n",
    "  ",
    "=",
    "KAFKA_",
    "kafka",
    "\u{1b}[31m",
    "\u{202e}",
    "\r\n",
    "é",
    "~",
    "null",
    "!!str ",
    "? ",
];

/// One change to YAML bytes: a snippet inserted, a range removed, a line repeated, two lines
/// swapped.
#[derive(Debug, Clone)]
enum Mutation {
    Insert(prop::sample::Index, &'static str),
    Remove(prop::sample::Index, usize),
    RepeatLine(prop::sample::Index),
    SwapLines(prop::sample::Index, prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (
            any::<prop::sample::Index>(),
            prop::sample::select(YAML_SNIPPETS)
        )
            .prop_map(|(at, snippet)| Mutation::Insert(at, snippet)),
        (any::<prop::sample::Index>(), 1usize..12).prop_map(|(at, len)| Mutation::Remove(at, len)),
        any::<prop::sample::Index>().prop_map(Mutation::RepeatLine),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(a, b)| Mutation::SwapLines(a, b)),
    ]
}

fn mutate(bytes: &[u8], mutation: &Mutation) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = bytes
        .split_inclusive(|b| *b == b'\n')
        .map(<[u8]>::to_vec)
        .collect();
    match mutation {
        Mutation::Insert(at, snippet) => {
            let at = at.index(bytes.len() + 1);
            return [&bytes[..at], snippet.as_bytes(), &bytes[at..]].concat();
        }
        Mutation::Remove(at, len) => {
            let at = at.index(bytes.len() + 1);
            let end = (at + len).min(bytes.len());
            return [&bytes[..at], &bytes[end..]].concat();
        }
        Mutation::RepeatLine(at) if !lines.is_empty() => {
            let at = at.index(lines.len());
            lines.insert(at, lines[at].clone());
        }
        Mutation::SwapLines(a, b) if !lines.is_empty() => {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            lines.swap(a, b);
        }
        _ => {}
    }
    lines.concat()
}

/// Up to four YAML files (a fixture with a few mutations each) at paths a walk would read as
/// compose files, Strimzi resources or a node file beside them.
fn yaml_files() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    let file = (
        any::<u8>(),
        prop::sample::select(YAML_FIXTURES),
        prop::collection::vec(mutation(), 0..4),
    );
    prop::collection::vec(file, 1..4).prop_map(|files| {
        let mut placed: Vec<(String, Vec<u8>)> = Vec::new();
        for (index, (place, fixture, mutations)) in files.into_iter().enumerate() {
            let bytes = mutations
                .iter()
                .fold(fixture.to_vec(), |bytes, m| mutate(&bytes, m));
            let mut path = invariants::yaml_path_by_number(place, index);
            if placed.iter().any(|(known, _)| *known == path) {
                path = format!("more-{index}/{path}");
            }
            placed.push((path, bytes));
        }
        placed
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The whole check on mutated compose files and Strimzi resources: what the `yaml` fuzz
    /// target checks (every format renders, `--fix` and `--diff` hold their own checks, no
    /// value the reader knows to be secret is shown).
    #[test]
    fn yaml_sources_keep_the_pipeline_invariants(
        files in yaml_files(),
        version in any::<u8>(),
        brokers in 0u8..5,
    ) {
        invariants::pipeline_holds(files, None, &invariants::options_for(version, brokers));
    }
}

/// The in-memory check the YAML property test and fuzz target run reads compose files,
/// Strimzi resources and Terraform files as a walk of their folder does: the same report,
/// format for format.
#[test]
fn in_memory_yaml_is_read_as_a_walk_reads_it() {
    let mut compared = 0;
    for entry in std::fs::read_dir("fixtures").unwrap() {
        let rule = entry.unwrap().path();
        if !rule.is_dir() {
            continue;
        }
        for case in std::fs::read_dir(rule).unwrap() {
            let dir = case.unwrap().path();
            if !dir.is_dir() {
                continue;
            }
            let paths: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|file| file.unwrap().path())
                .collect();
            // Files in folders below (an Ansible role's layout) are read by a walk only.
            if paths.iter().any(|path| path.is_dir()) {
                continue;
            }
            // A folder of declared topics: its node files too, which the topics bind to.
            let declares_topics = paths.iter().any(|path| {
                let bytes = std::fs::read(path).unwrap_or_default();
                kafkalint::sources::topics::worth_reading(&path.to_string_lossy(), &bytes)
            });
            let files: Vec<(String, Vec<u8>)> = paths
                .iter()
                .filter(|path| {
                    let path = path.to_string_lossy();
                    kafkalint::sources::is_deployment_name(&path)
                        || kafkalint::sources::topics::may_declare(&path)
                        || (declares_topics && path.ends_with(".properties"))
                })
                .map(|path| (path.display().to_string(), std::fs::read(path).unwrap()))
                .collect();
            if files.is_empty() || dir.join("kafkalint.toml").exists() {
                continue;
            }
            let options = Options::default();
            let walked = kafkalint::check(std::slice::from_ref(&dir), &options).unwrap();
            let in_memory = kafkalint::check_in_memory(files, None, &options);
            assert_eq!(
                invariants::render_all(&in_memory),
                invariants::render_all(&walked),
                "{}",
                dir.display()
            );
            compared += 1;
        }
    }
    assert!(compared >= 10, "{compared} YAML fixtures compared");
}

/// What the YAML property test's secret check looks for: the values the reader marks secret,
/// written once, here the three canaries of the secrets fixture.
#[test]
fn the_yaml_secret_check_knows_the_canaries() {
    let files = vec![(
        "compose/docker-compose.yml".to_string(),
        YAML_FIXTURES.last().unwrap().to_vec(),
    )];
    let report = kafkalint::check_in_memory(files.clone(), None, &Options::default());
    let secrets = invariants::recognized_secrets(&report, &files);
    for canary in ["Zq7keystoreSecret", "Zq7jaasSecret", "Zq7keySecret"] {
        assert!(
            secrets.iter().any(|secret| secret == canary),
            "{canary} not among {secrets:?}"
        );
    }
}

/// A fuzz input: a key with a DEL character, written twice; removing the repeated line must
/// remove the finding.
#[test]
fn repeated_key_with_a_control_character_is_fixed() {
    let data = include_bytes!("regressions/duplicate-key-fix-control-char-key");
    let (files, config, options) = invariants::pipeline_input(data).expect("a fuzz input");
    invariants::pipeline_holds(files, config, &options);
}

/// Text for the output guard: workflow command starts, `##[`, every line end, blanks a log
/// reader drops, kafkalint's own annotations, multi-byte characters, and long lines so that
/// a text passes the writer's chunk size.
fn guarded_text() -> impl Strategy<Value = String> {
    let long_line = "y".repeat(16 * 1024);
    let pieces: Vec<String> = [
        "::",
        ":",
        "#",
        "##[",
        "##",
        "[",
        "\r",
        "\n",
        "\r\n",
        " ",
        "\t",
        "\u{feff}",
        "\u{3000}",
        "a",
        "\u{e9}",
        "::error ",
        "::warning ",
        "::notice x",
        &long_line,
    ]
    .iter()
    .map(|piece| piece.to_string())
    .collect();
    prop::collection::vec(prop::sample::select(pieces), 0..80).prop_map(|pieces| pieces.concat())
}

/// What `GuardedWriter` passes to its sink when `text` is written to it in the pieces that
/// `cuts` (byte offsets) make, with a flush after the pieces that `flushes` names.
fn written_through_guard(
    text: &str,
    cuts: &[usize],
    flushes: &[bool],
    annotations: bool,
) -> Vec<u8> {
    use std::io::Write;
    let mut writer = kafkalint::output::GuardedWriter::new(Vec::new(), annotations);
    let mut from = 0;
    for (index, &cut) in cuts.iter().chain([&text.len()]).enumerate() {
        writer.write_all(&text.as_bytes()[from..cut]).unwrap();
        if flushes.get(index) == Some(&true) {
            writer.flush().unwrap();
        }
        from = cut;
    }
    writer.finish().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The writer that guards output as it is written makes the very bytes `guard_lines` makes
    /// of the whole text, wherever the writes cut it (inside a line, a `::`, a `##[`, a `\r\n`
    /// or a character) and whenever it is flushed.
    #[test]
    fn the_guarded_writer_writes_what_guard_lines_makes(
        text in guarded_text(),
        annotations in any::<bool>(),
        cut_seeds in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
        flushes in prop::collection::vec(any::<bool>(), 0..40),
    ) {
        let whole = kafkalint::output::guard_lines(&text, annotations);
        let expected = whole.as_bytes();
        // At once, and cut where the generator says.
        prop_assert_eq!(written_through_guard(&text, &[], &[], annotations), expected);
        let mut cuts: Vec<usize> = cut_seeds.iter().map(|seed| seed.index(text.len() + 1)).collect();
        cuts.sort_unstable();
        prop_assert_eq!(written_through_guard(&text, &cuts, &flushes, annotations), expected);
        if text.len() <= 512 {
            // A byte at a time, and cut in two at every byte.
            let every: Vec<usize> = (1..text.len()).collect();
            prop_assert_eq!(written_through_guard(&text, &every, &flushes, annotations), expected);
            for cut in 0..=text.len() {
                prop_assert_eq!(written_through_guard(&text, &[cut], &[true], annotations), expected);
            }
        }
    }
}
