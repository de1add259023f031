//! `kafkalint coordinator`: the partition formula agrees with Java's String.hashCode on many
//! generated ids (ASCII, Latin-1, other scripts, surrogate pairs), and the command explains the
//! seed cluster's outage.

mod support;

use std::path::Path;
use std::process::Command;

use kafkalint::coordinator::{java_string_hash, partition_for};

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

/// A small xorshift generator: the same ids on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn random_id(rng: &mut Rng) -> String {
    const PIECES: &[&str] = &[
        "group", "-", "_", ".", "tx", "0", "9", "é", "ß", "ü", "日本", "😀", "Ω",
    ];
    let length = rng.next() % 12;
    (0..length)
        .map(|_| match rng.next() % 4 {
            0 => PIECES[(rng.next() % PIECES.len() as u64) as usize].to_string(),
            // Any char but the line ends the list file is split on.
            _ => char::from_u32((rng.next() % 0x11_0000) as u32)
                .filter(|c| *c != '\n' && *c != '\r')
                .unwrap_or('x')
                .to_string(),
        })
        .collect()
}

#[test]
fn partitions_agree_with_java_string_hash_code() {
    if !support::external_tools("tests/coordinator.rs (Java's hashCode)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/java/CoordinatorPartition.java");
    run(
        "javac",
        &["-d".as_ref(), dir.path().as_os_str(), source.as_os_str()],
    );
    let mut rng = Rng(0x636f_6f72_6469_6e61);
    let mut ids: Vec<String> = vec![
        "testGroup".into(),
        "polygenelubricants".into(),
        String::new(),
        "grüppe".into(),
    ];
    while ids.len() < 5_000 {
        ids.push(random_id(&mut rng));
    }
    let list = dir.path().join("ids.txt");
    std::fs::write(&list, ids.join("\n") + "\n").unwrap();
    let java = run(
        "java",
        &[
            "-cp".as_ref(),
            dir.path().as_os_str(),
            "CoordinatorPartition".as_ref(),
            list.as_os_str(),
        ],
    );
    let lines: Vec<&str> = java.lines().collect();
    assert_eq!(lines.len(), ids.len(), "one answer per id");
    for (id, line) in ids.iter().zip(lines) {
        let ours = format!(
            "{} {} {}",
            java_string_hash(id),
            partition_for(id, 50),
            partition_for(id, 7)
        );
        assert_eq!(ours, line, "id {id:?}");
    }
}

#[test]
fn the_seed_group_lives_on_partition_49_with_one_replica() {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["coordinator", "testGroup", "fixtures/seed-zk-3-brokers"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("group `testGroup` -> __consumer_offsets partition 49 (of 50)"),
        "{text}"
    );
    assert!(
        text.contains("offsets.topic.replication.factor=1"),
        "{text}"
    );
    let fixed = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args([
            "coordinator",
            "testGroup",
            "fixtures/seed-zk-3-brokers-fixed",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8(fixed.stdout).unwrap();
    assert!(text.contains("partition 49"), "{text}");
    assert!(!text.contains("one replica"), "{text}");
}

#[test]
fn transactional_ids_and_explicit_partition_counts() {
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args([
            "coordinator",
            "--transactional",
            "--partitions",
            "7",
            "my-tx",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let expected = partition_for("my-tx", 7);
    assert!(
        text.contains(&format!(
            "transactional id `my-tx` -> __transaction_state partition {expected} (of 7)"
        )),
        "{text}"
    );
    let zero = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["coordinator", "--partitions", "0", "g"])
        .output()
        .unwrap();
    assert_eq!(zero.status.code(), Some(2), "0 partitions is a usage error");
}
