//! Differential test: kafkalint's properties parser against the real `java.util.Properties`.
//!
//! Generates many random files that mix every syntax feature (separators, comments, continuation
//! lines, escapes, `\uXXXX`, Latin-1 and UTF-8 bytes, CR/LF/CRLF, trailing backslashes), loads them
//! all in one JVM with `Properties.load(InputStream)` as Kafka does, and asserts the same map, or the
//! same failure, for every file.
//!
//! `KAFKALINT_DIFF_FILES` (default 10000) and `KAFKALINT_DIFF_SEED` change the run.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: small, deterministic, good enough to pick syntax.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
    fn pick<'a>(&mut self, items: &[&'a [u8]]) -> &'a [u8] {
        items[self.below(items.len())]
    }
}

const WHITESPACE: &[&[u8]] = &[b" ", b"  ", b"\t", b"\x0c", b" \t "];
const SEPARATORS: &[&[u8]] = &[
    b"=", b":", b" ", b"\t", b" = ", b" : ", b"  ", b"\x0c", b"=:", b" =", b"= ", b"::", b"",
];
const TERMINATORS: &[&[u8]] = &[b"\n", b"\n", b"\r\n", b"\r"];
const KEY_TOKENS: &[&[u8]] = &[
    b"offsets",
    b".topic",
    b".replication.factor",
    b"broker.id",
    b"k",
    b"x1",
    b"\\=",
    b"\\:",
    b"\\ ",
    b"\\#",
    b"\\!",
    b"\\\\",
    b"\\t",
    b"\\u0041",
    b"\\u00e9",
    b"\\uD83D\\uDE00",
    b"\xe9",
    b"\xc3\xa9",
    b"#",
    b"!",
    b"\x00",
    b"\x0b",
];
const VALUE_TOKENS: &[&[u8]] = &[
    b"1",
    b"3",
    b"localhost:9092",
    b"PLAINTEXT://:9092",
    b"/tmp/kafka-logs",
    b" ",
    b"\t",
    b"\x0c",
    b"=",
    b":",
    b"#",
    b"!",
    b" # comment",
    b"\\t",
    b"\\n",
    b"\\r",
    b"\\f",
    b"\\b",
    b"\\q",
    b"\\\\",
    b"\\=",
    b"\\ ",
    b"\\u20AC",
    b"\\u0000",
    b"\\uFFFF",
    b"\\uDBFF\\uDFFF",
    b"\xff",
    b"\x80",
    b"\xe2\x82\xac",
    b"\x00",
    b"\x1b[31m",
];
const MALFORMED: &[&[u8]] = &[b"\\u", b"\\u1", b"\\u12", b"\\u123", b"\\u12g4", b"\\uXYZW"];

fn random_unicode_escape(rng: &mut Rng) -> Vec<u8> {
    // Any BMP unit but a surrogate: a lone surrogate has no Rust string form (see escape.rs).
    let mut unit = rng.below(0x1_0000) as u32;
    if (0xD800..0xE000).contains(&unit) {
        unit -= 0x800;
    }
    let hex = if rng.percent(50) {
        format!("\\u{unit:04x}")
    } else {
        format!("\\u{unit:04X}")
    };
    hex.into_bytes()
}

fn tokens(rng: &mut Rng, out: &mut Vec<u8>, set: &[&[u8]], max: usize) {
    for _ in 0..rng.below(max + 1) {
        if rng.percent(8) {
            out.extend(random_unicode_escape(rng));
        } else if rng.percent(1) && rng.percent(20) {
            out.extend_from_slice(rng.pick(MALFORMED));
        } else {
            out.extend_from_slice(rng.pick(set));
        }
    }
}

fn random_file(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    let lines = rng.below(14);
    for line in 0..lines {
        if rng.percent(40) {
            out.extend_from_slice(rng.pick(WHITESPACE));
        }
        match rng.below(10) {
            0 => {}
            1 => out.extend_from_slice(rng.pick(WHITESPACE)),
            2 => {
                out.extend_from_slice(if rng.percent(70) { b"#" } else { b"!" });
                tokens(rng, &mut out, VALUE_TOKENS, 4);
            }
            3 => out.push(b'\\'),
            _ => {
                tokens(rng, &mut out, KEY_TOKENS, 3);
                out.extend_from_slice(rng.pick(SEPARATORS));
                tokens(rng, &mut out, VALUE_TOKENS, 5);
            }
        }
        match rng.below(10) {
            0 => out.push(b'\\'),
            1 => out.extend_from_slice(b"\\\\"),
            2 => out.extend_from_slice(b"\\\\\\"),
            _ => {}
        }
        let last = line + 1 == lines;
        if !last || rng.percent(70) {
            out.extend_from_slice(rng.pick(TERMINATORS));
        }
    }
    out
}

/// The same escaping as PropertiesDump.java, over UTF-16 units.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for unit in s.encode_utf16() {
        if (0x20..0x7f).contains(&unit) && unit != u16::from(b'\\') {
            out.push(char::from(unit as u8));
        } else {
            out.push_str(&format!("\\u{unit:04X}"));
        }
    }
    out
}

#[derive(Debug, PartialEq, Eq)]
enum Loaded {
    Map(BTreeMap<String, String>),
    Error,
}

fn load_with_kafkalint(bytes: &[u8]) -> Loaded {
    match kafkalint::properties::parse(bytes) {
        Err(_) => Loaded::Error,
        Ok(file) => Loaded::Map(
            file.effective_entries()
                .map(|e| (escape(&e.key), escape(&e.value)))
                .collect(),
        ),
    }
}

fn parse_java_output(stdout: &str, files: usize) -> Vec<Loaded> {
    let mut loaded = Vec::with_capacity(files);
    let mut key = None;
    for line in stdout.lines() {
        if line.starts_with("FILE ") {
            loaded.push(Loaded::Map(BTreeMap::new()));
        } else if line.starts_with("ERROR") {
            *loaded.last_mut().expect("FILE first") = Loaded::Error;
        } else if let Some(k) = line.strip_prefix("K ") {
            key = Some(k.to_string());
        } else if let Some(v) = line.strip_prefix("V ") {
            let Some(Loaded::Map(map)) = loaded.last_mut() else {
                panic!("V outside a file")
            };
            map.insert(key.take().expect("K before V"), v.to_string());
        } else {
            panic!("unexpected line from PropertiesDump: {line:?}");
        }
    }
    loaded
}

fn run(program: &str, args: &[&std::ffi::OsStr]) -> String {
    let output = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program} (a JDK is needed for this test): {e}"));
    assert!(
        output.status.success(),
        "{program} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("ASCII output")
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn parser_agrees_with_java_util_properties() {
    if !support::external_tools("tests/properties_differential.rs") {
        return;
    }
    let count = env_number("KAFKALINT_DIFF_FILES", 10_000) as usize;
    let seed = env_number("KAFKALINT_DIFF_SEED", 0x6b61_666b_616c_696e);
    let dir = tempfile::tempdir().unwrap();
    let java_source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java/PropertiesDump.java");
    run(
        "javac",
        &[
            "-d".as_ref(),
            dir.path().as_os_str(),
            java_source.as_os_str(),
        ],
    );

    let mut rng = Rng(seed | 1);
    let mut files = Vec::with_capacity(count);
    let mut list = String::new();
    for n in 0..count {
        let bytes = random_file(&mut rng);
        let path = dir.path().join(format!("{n}.properties"));
        std::fs::write(&path, &bytes).unwrap();
        list.push_str(path.to_str().unwrap());
        list.push('\n');
        files.push(bytes);
    }
    let list_path = dir.path().join("files.txt");
    std::fs::write(&list_path, list).unwrap();

    let stdout = run(
        "java",
        &[
            "-cp".as_ref(),
            dir.path().as_os_str(),
            "PropertiesDump".as_ref(),
            list_path.as_os_str(),
        ],
    );
    let java = parse_java_output(&stdout, count);
    assert_eq!(
        java.len(),
        count,
        "PropertiesDump printed a result per file"
    );

    let mut errors = 0;
    let mut entries = 0;
    for (n, (bytes, expected)) in files.iter().zip(&java).enumerate() {
        let actual = load_with_kafkalint(bytes);
        assert_eq!(
            actual,
            *expected,
            "file {n} (seed {seed:#x}) differs from java.util.Properties; its bytes: {:?}",
            String::from_utf8_lossy(bytes)
        );
        match expected {
            Loaded::Error => errors += 1,
            Loaded::Map(map) => entries += map.len(),
        }
    }
    // The generator must exercise both outcomes, or this test proves little.
    assert!(
        errors > 0 && errors < count / 10,
        "malformed files: {errors} of {count}"
    );
    assert!(entries > count, "entries: {entries}");
    println!(
        "{count} files agree with java.util.Properties ({entries} entries, {errors} malformed)"
    );
}
