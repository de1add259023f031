//! Differential test: the `server.properties` kafkalint reads from an apache/kafka service's
//! environment against the one the image builds, by the image's own code.
//!
//! The apache/kafka image (3.7 and later) turns its environment into `server.properties` with
//! `kafka.docker.KafkaDockerWrapper setup`, which ships in the Kafka jar. For each release below,
//! this test generates container environments (names with every run of underscores, `KAFKA_`
//! inside names, the variables the wrapper leaves out; values with separators, escapes, spaces
//! and non-ASCII text), has the wrapper of the real jars write each file through
//! `oracle/run.sh --docker-wrapper` (one JVM per release), reads it as Kafka does, and asserts
//! that `kafkalint::sources::images::docker_wrapper` gives the same properties for every one.
//! An environment that writes nothing gets the release's sample file from the wrapper, and an
//! empty translation from kafkalint.
//!
//! Not generated, because the wrapper's answer depends on the order of its environment map
//! rather than on the environment: two variables writing one key (`KAFKA_A_B` and
//! `KAFKA_KAFKA_A_B`), and values ending in a backslash or holding a line break (the line then
//! runs into whichever line the map puts next).
//!
//! Needs Java 17+ and Maven, as `tests/oracle.rs` does.

mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use kafkalint::catalog::KafkaVersion;
use kafkalint::sources::images::{Var, docker_wrapper, docker_wrapper_key};

const ENVIRONMENTS: usize = 600;

#[test]
fn kafka_3_7_docker_wrapper_writes_what_kafkalint_reads() {
    agree("3.7.2");
}

#[test]
fn kafka_3_9_docker_wrapper_writes_what_kafkalint_reads() {
    agree("3.9.2");
}

#[test]
fn kafka_4_0_docker_wrapper_writes_what_kafkalint_reads() {
    agree("4.0.0");
}

#[test]
fn kafka_4_4_docker_wrapper_writes_what_kafkalint_reads() {
    agree("4.4.0");
}

fn agree(release: &str) {
    if !support::external_tools("tests/docker_wrapper.rs") {
        return;
    }
    let minor = KafkaVersion::parse(&release[..release.rfind('.').unwrap()]).unwrap();
    let environments = generate(0x5eed_0000 ^ minor.minor as u64, minor);
    let written = run_wrapper(release, &environments);
    assert_eq!(
        written.len(),
        environments.len(),
        "one answer per environment"
    );
    let mut disagreements = Vec::new();
    let mut fallbacks = 0;
    for (vars, wrapper) in environments.iter().zip(&written) {
        let settings = docker_wrapper(vars, Some(minor));
        let ours: BTreeMap<String, String> = if settings.is_empty() {
            fallbacks += 1;
            // The wrapper's stand-in for the sample file it copies when nothing is written.
            BTreeMap::from([("kafkalint.default.sample".into(), "true".into())])
        } else {
            settings
                .into_iter()
                .map(|setting| (setting.key, setting.value.expect("every value is known")))
                .collect()
        };
        if &ours != wrapper {
            disagreements.push(format!(
                "environment {vars:?}\n  wrapper:   {wrapper:?}\n  kafkalint: {ours:?}"
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "Kafka {release}: {} of {} environments differ:\n{}",
        disagreements.len(),
        environments.len(),
        disagreements.join("\n")
    );
    // Both kinds of environment were tried.
    assert!(
        fallbacks > 0 && fallbacks < environments.len() / 2,
        "{fallbacks} fallbacks"
    );
}

/// Environments as a container gets them: unique names, known values.
fn generate(seed: u64, minor: KafkaVersion) -> Vec<Vec<Var>> {
    const WORDS: &[&str] = &[
        "NODE", "ID", "LOG", "DIRS", "LISTENER", "NAME", "X", "KAFKA", "A1", "ssl", "Mixed",
    ];
    const LEFT_OUT: &[&str] = &[
        "KAFKA_HEAP_OPTS",
        "KAFKA_HEAP_OPT",
        "KAFKA_OPTS",
        "KAFKA_JMX_HOSTNAME",
        "KAFKA_LOG4J_LOGGERS",
        "KAFKA_VERSION",
        "KAFKA_GC_LOG_OPTS",
    ];
    const CHARACTERS: &[&str] = &[
        "a", "Z", "0", "9", " ", "=", ":", "#", "!", "\\", "é", "\t", ",", "/", "\"", "$", "{",
        "}", "@", ".", "-", "_", "\\u0041", "\\t",
    ];
    let mut rng = Rng(seed);
    let mut environments = Vec::with_capacity(ENVIRONMENTS);
    while environments.len() < ENVIRONMENTS {
        let mut vars: Vec<Var> = Vec::new();
        for _ in 0..rng.below(7) {
            let name = match rng.below(10) {
                0 => LEFT_OUT[rng.below(LEFT_OUT.len())].to_string(),
                1 => ["CLUSTER_ID", "KAFKAX_ID", "kafka_node_id", "KAFKA_"][rng.below(4)].into(),
                _ => {
                    let mut name = String::from("KAFKA_");
                    for word in 0..1 + rng.below(4) {
                        if word > 0 {
                            name.push_str(&"_".repeat(1 + rng.below(4)));
                        }
                        name.push_str(WORDS[rng.below(WORDS.len())]);
                    }
                    name
                }
            };
            let mut value = String::new();
            for _ in 0..rng.below(12) {
                value.push_str(CHARACTERS[rng.below(CHARACTERS.len())]);
            }
            if value.ends_with('\\') {
                value.push('x');
            }
            if !vars.iter().any(|var| var.name == name) {
                vars.push(Var {
                    name,
                    value: Some(value),
                });
            }
        }
        // Two names writing one key: left out (see the module comment).
        let keys: Vec<String> = vars
            .iter()
            .filter(|var| var.name.starts_with("KAFKA_"))
            .map(|var| docker_wrapper_key(&var.name, Some(minor)))
            .collect();
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        if unique.len() == keys.len() {
            environments.push(vars);
        }
    }
    environments
}

/// Has the release's wrapper write each environment's file; its properties, by environment.
fn run_wrapper(release: &str, environments: &[Vec<Var>]) -> Vec<BTreeMap<String, String>> {
    let work = tempfile::tempdir().unwrap();
    let input = work.path().join("environments.txt");
    let mut text = String::new();
    for vars in environments {
        for var in vars {
            let value = var.value.as_deref().unwrap();
            writeln!(text, "{}\t{}", var.name, hex(value.as_bytes())).unwrap();
        }
        text.push('\n');
    }
    std::fs::write(&input, text).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("oracle/run.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg("--docker-wrapper")
        .arg(release)
        .arg(&input)
        .output()
        .expect("bash runs oracle/run.sh");
    assert!(
        output.status.success(),
        "oracle/run.sh --docker-wrapper {release} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut written: Vec<BTreeMap<String, String>> = Vec::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        if line.starts_with('#') {
            written.push(BTreeMap::new());
            continue;
        }
        let (key, value) = line.split_once('\t').expect("KEY<TAB>VALUE");
        written
            .last_mut()
            .expect("a property after its environment's #N")
            .insert(unhex(key), unhex(value));
    }
    written
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn unhex(text: &str) -> String {
    let bytes: Vec<u8> = (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&text[at..at + 2], 16).unwrap())
        .collect();
    String::from_utf8(bytes).unwrap()
}

/// xorshift64*: the same environments on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % bound
    }
}
