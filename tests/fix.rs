//! `kafkalint check --fix` and `--diff`: byte-exact results, consistency of related fixes,
//! idempotence, atomic writes that keep permissions and refuse a file changed meanwhile.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `--fix` with the unsafe fixes too, on the current folder: what most tests here run.
const FIX_ALL: &[&str] = &[
    "check",
    "--fix",
    "--unsafe-fixes",
    "--format",
    "concise",
    ".",
];

fn kafkalint(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A ZooKeeper-mode broker file with `extra` after its basics, lines ended by `eol`.
fn broker(id: usize, extra: &str, eol: &str) -> Vec<u8> {
    let basics = format!(
        "broker.id={id}\nzookeeper.connect=zk:2181\nlog.dirs=/var/lib/kafka/data\n\
         listeners=PLAINTEXT://kafka-{id}.example.com:9092\n"
    );
    (basics + extra).replace('\n', eol).into_bytes()
}

/// A folder holding `files` (name, bytes).
fn cluster(files: &[(String, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in files {
        fs::write(dir.path().join(name), bytes).unwrap();
    }
    dir
}

/// `count` brokers, each with `extra`.
fn brokers(count: usize, extra: &str) -> tempfile::TempDir {
    cluster(
        &(0..count)
            .map(|id| (format!("server-{id}.properties"), broker(id, extra, "\n")))
            .collect::<Vec<_>>(),
    )
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    fs::read(dir.join(name)).unwrap()
}

/// The rules of the findings `kafkalint check --format json` reports for `dir`.
/// The rule of each finding, once per node a finding about several nodes is about.
fn rules_reported(dir: &Path) -> Vec<String> {
    let output = kafkalint(&["check", "--format", "json", "."], dir);
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| {
            let places = 1 + d["also_on"].as_array().map_or(0, Vec::len);
            std::iter::repeat_n(d["rule"].as_str().unwrap().to_string(), places)
        })
        .collect()
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn values_are_replaced_in_place_keeping_every_other_byte() {
    // CRLF line ends, comments, separators with spaces, whitespace after a value, a value
    // continued over two lines, an escaped value, no final line break.
    let tail = "# Internal topics: keep this comment\n\
                offsets.topic.replication.factor = \\\n   1   \n\
                ! another comment\n\
                transaction.state.log.replication.factor:1\\\n    0\n\
                transaction.state.log.min.isr \\u0033\n\
                num.partitions=3\n\
                # no final line break";
    let first = broker(0, tail, "\r\n");
    let dir = cluster(&[
        ("server-0.properties".into(), first.clone()),
        ("server-1.properties".into(), broker(1, "", "\n")),
        ("server-2.properties".into(), broker(2, "", "\n")),
    ]);
    let output = kafkalint(FIX_ALL, dir.path());
    assert!(
        stderr(&output).contains("Fixed 3 findings in 1 file."),
        "{}",
        stderr(&output)
    );
    let expected = broker(
        0,
        "# Internal topics: keep this comment\n\
         offsets.topic.replication.factor = \\\n   3   \n\
         ! another comment\n\
         transaction.state.log.replication.factor:3\n\
         transaction.state.log.min.isr 2\n\
         num.partitions=3\n\
         # no final line break",
        "\r\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&read(dir.path(), "server-0.properties")),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(read(dir.path(), "server-1.properties"), broker(1, "", "\n"));
    let remaining = rules_reported(dir.path());
    assert!(
        !remaining
            .iter()
            .any(|rule| rule == "internal-topic-replication" || rule == "min-isr-headroom"),
        "{remaining:?}"
    );
}

#[test]
fn replication_and_min_isr_follow_the_broker_count() {
    for count in [1usize, 2, 3, 5] {
        let extra = format!(
            "offsets.topic.replication.factor=1\n\
             transaction.state.log.replication.factor={above}\n\
             transaction.state.log.min.isr={above}\n",
            above = count + 1
        );
        let dir = brokers(count, &extra);
        let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
        assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
        let factor = count.min(3);
        // A lone broker's factor of 1 needs one replica in sync whatever the min ISR (Kafka 3.7
        // and later take the smaller of the two): its min ISR is left as it is.
        let min_isr = if factor == 1 { count + 1 } else { factor - 1 };
        for id in 0..count {
            let expected = broker(
                id,
                &format!(
                    "offsets.topic.replication.factor={factor}\n\
                     transaction.state.log.replication.factor={factor}\n\
                     transaction.state.log.min.isr={min_isr}\n"
                ),
                "\n",
            );
            assert_eq!(
                String::from_utf8_lossy(&read(dir.path(), &format!("server-{id}.properties"))),
                String::from_utf8_lossy(&expected),
                "{count} brokers"
            );
        }
        let remaining = rules_reported(dir.path());
        assert!(
            !remaining
                .iter()
                .any(|rule| rule == "internal-topic-replication" || rule == "min-isr-headroom"),
            "{count} brokers: {remaining:?}"
        );
    }
}

#[test]
fn a_min_isr_already_right_for_the_fixed_factor_stays() {
    // Factor 2 and min ISR 2 on 3 brokers: the factor goes to 3, and 2 is then one less.
    let extra = "transaction.state.log.replication.factor=2\ntransaction.state.log.min.isr=2\n";
    let dir = brokers(3, extra);
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(
        stdout(&output).contains("Fixed 6 findings in 3 files."),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        read(dir.path(), "server-0.properties"),
        broker(
            0,
            "transaction.state.log.replication.factor=3\ntransaction.state.log.min.isr=2\n",
            "\n"
        )
    );
}

#[test]
fn unset_keys_and_broker_defaults_are_left_to_people() {
    // Kafka's default min ISR of 2 equals a factor of 2 on 2 brokers: no line to edit. And
    // min.insync.replicas against default.replication.factor is a judgement call.
    let extra = "transaction.state.log.replication.factor=2\n\
                 default.replication.factor=2\nmin.insync.replicas=2\n";
    let dir = brokers(2, extra);
    let before = read(dir.path(), "server-0.properties");
    let output = kafkalint(&["check", "--diff", "--unsafe-fixes", "."], dir.path());
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "No fixes available.\n");
    let fixed = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(!stdout(&fixed).contains("Fixed"));
    assert_eq!(read(dir.path(), "server-0.properties"), before);
    let remaining = rules_reported(dir.path());
    assert_eq!(
        remaining
            .iter()
            .filter(|rule| *rule == "min-isr-headroom")
            .count(),
        4,
        "{remaining:?}"
    );
}

#[test]
fn exact_repeats_are_removed_and_different_values_kept() {
    let extra = "log.retention.hours=168\n\
                 num.partitions=1\n\
                 # the same value again\n\
                 log.retention.hours=168\n\
                 num.partitions=2\n\
                 \x20 log.retention.hours = 1\\\n    68\n\
                 socket.send.buffer.bytes=102400\n\
                 socket.send.buffer.bytes=102400";
    let dir = cluster(&[("server-0.properties".into(), broker(0, extra, "\r\n"))]);
    // Safe fixes: `--fix` alone makes them.
    let output = kafkalint(&["check", "--fix", "--format", "concise", "."], dir.path());
    assert!(
        stderr(&output).contains("Fixed 2 findings in 1 file."),
        "{}",
        stderr(&output)
    );
    let expected = broker(
        0,
        "log.retention.hours=168\n\
         num.partitions=1\n\
         # the same value again\n\
         num.partitions=2\n\
         socket.send.buffer.bytes=102400",
        "\r\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&read(dir.path(), "server-0.properties")),
        String::from_utf8_lossy(&expected)
    );
    // The repeat with another value stays reported, unfixed.
    let remaining = stdout(&output);
    assert!(
        remaining
            .contains("warning[duplicate-key] num.partitions is set 2 times with different values"),
        "{remaining}"
    );
    assert_eq!(remaining.matches("duplicate-key").count(), 1, "{remaining}");
}

#[test]
fn repeats_that_differ_in_whitespace_are_not_exact() {
    let extra = "num.partitions=1\nnum.partitions=1 \n";
    let dir = brokers(1, extra);
    let before = read(dir.path(), "server-0.properties");
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(
        stdout(&output).contains("num.partitions is set 2 times to the same value"),
        "{}",
        stdout(&output)
    );
    assert_eq!(read(dir.path(), "server-0.properties"), before);
}

#[test]
fn a_second_fix_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let seed = root().join("fixtures/seed-zk-3-brokers");
    for name in listing(&seed) {
        fs::copy(seed.join(&name), dir.path().join(&name)).unwrap();
    }
    let first = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(
        stdout(&first).contains("Fixed 6 findings in 3 files."),
        "{}",
        stdout(&first)
    );
    let bytes: Vec<Vec<u8>> = listing(dir.path())
        .iter()
        .map(|name| read(dir.path(), name))
        .collect();
    let times: Vec<_> = listing(dir.path())
        .iter()
        .map(|name| {
            fs::metadata(dir.path().join(name))
                .unwrap()
                .modified()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let second = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(!stdout(&second).contains("Fixed"), "{}", stdout(&second));
    assert_eq!(second.status.code(), first.status.code());
    for (index, name) in listing(dir.path()).iter().enumerate() {
        assert_eq!(read(dir.path(), name), bytes[index], "{name}");
        let modified = fs::metadata(dir.path().join(name))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(modified, times[index], "{name} was rewritten");
    }
    let diff = kafkalint(&["check", "--diff", "--unsafe-fixes", "."], dir.path());
    assert_eq!(diff.status.code(), Some(0));
    assert_eq!(stdout(&diff), "");
}

#[test]
fn the_fixed_seed_passes_the_internal_topic_rules() {
    let dir = tempfile::tempdir().unwrap();
    let seed = root().join("fixtures/seed-zk-3-brokers");
    for name in listing(&seed) {
        fs::copy(seed.join(&name), dir.path().join(&name)).unwrap();
    }
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(
        stdout(&output).ends_with(
            "Found 0 errors, 1 warning, 3 infos (3 files in 1 cluster, checked against Kafka 3.9).\n\
             Fixed 6 findings in 3 files.\n"
        ),
        "{}",
        stdout(&output)
    );
    // What is left is not the fixes' to make: Kafka's auto-creation default and /tmp paths.
    let mut remaining = rules_reported(dir.path());
    remaining.sort();
    assert_eq!(
        remaining,
        [
            "auto-create-single-replica",
            "log-dirs-in-tmp",
            "log-dirs-in-tmp",
            "log-dirs-in-tmp"
        ]
    );
    let fixed = String::from_utf8(read(dir.path(), "server-0.properties")).unwrap();
    let original = fs::read_to_string(seed.join("server-0.properties")).unwrap();
    assert_eq!(
        fixed,
        original
            .replace(
                "offsets.topic.replication.factor=1",
                "offsets.topic.replication.factor=3"
            )
            .replace(
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.replication.factor=3"
            )
    );
}

#[test]
fn diff_shows_the_change_and_changes_nothing() {
    let extra = "# internal topics\n\
                 offsets.topic.replication.factor=1\n\
                 num.partitions=3\n";
    let dir = brokers(3, extra);
    let before = read(dir.path(), "server-1.properties");
    let output = kafkalint(
        &[
            "check",
            "--diff",
            "--unsafe-fixes",
            "--brokers",
            "3",
            "server-1.properties",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "--- a/server-1.properties\n\
         +++ b/server-1.properties\n\
         @@ -3,5 +3,5 @@\n \
         log.dirs=/var/lib/kafka/data\n \
         listeners=PLAINTEXT://kafka-1.example.com:9092\n \
         # internal topics\n\
         -offsets.topic.replication.factor=1\n\
         +offsets.topic.replication.factor=3\n \
         num.partitions=3\n"
    );
    assert_eq!(stderr(&output), "Would fix 1 finding in 1 file.\n");
    assert_eq!(read(dir.path(), "server-1.properties"), before);
    // --diff wins over --fix: still nothing written.
    let both = kafkalint(
        &["check", "--fix", "--unsafe-fixes", "--diff", "."],
        dir.path(),
    );
    assert_eq!(both.status.code(), Some(1));
    assert!(stdout(&both).starts_with("--- a/server-0.properties\n"));
    assert_eq!(read(dir.path(), "server-1.properties"), before);
}

#[test]
fn diff_context_redacts_secrets_and_escapes_control_characters() {
    let extra = "ssl.key.password=hunter2\n\
                 listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"s3cr3t\";\n\
                 offsets.topic.replication.factor=1\n\
                 #ssl.keystore.password=old-secret\n\
                 broker.rack=caf\u{e9} \x1b[31mred\n\
                 x.note=an unknown key's value\n";
    let mut bytes = broker(0, extra, "\n");
    // Latin-1, as Kafka reads it: é is the byte 0xE9.
    let at = bytes.windows(2).position(|w| w == "é".as_bytes()).unwrap();
    bytes.splice(at..at + 2, [0xe9]);
    let dir = cluster(&[
        ("server-0.properties".into(), bytes),
        ("server-1.properties".into(), broker(1, "", "\n")),
        ("server-2.properties".into(), broker(2, "", "\n")),
    ]);
    let output = kafkalint(&["check", "--diff", "--unsafe-fixes", "."], dir.path());
    let diff = stdout(&output);
    for secret in ["hunter2", "s3cr3t", "old-secret", "admin"] {
        assert!(!diff.contains(secret), "{secret} in\n{diff}");
    }
    assert!(!diff.contains('\x1b'));
    // A hidden line is never context (it would not match the file); the change between two
    // of them is said in a note, its lines as every output shows them.
    assert!(!diff.contains("[redacted]"), "{diff}");
    assert!(
        diff.contains(
            "# kafkalint: server-0.properties:7: a change left out of this diff, as a line \
             beside it holds text kafkalint hides or escapes"
        ),
        "{diff}"
    );
    assert!(
        diff.contains(
            "\n#   -offsets.topic.replication.factor=1\n#   +offsets.topic.replication.factor=3\n"
        ),
        "{diff}"
    );
    // Nothing else changes: no hunk.
    assert!(!diff.contains("--- a/"), "{diff}");
}

/// `git` in a folder, or `None` (with the reason printed) where git is missing.
fn git(args: &[&str], dir: &Path) -> Option<Output> {
    match Command::new("git").args(args).current_dir(dir).output() {
        Ok(output) => Some(output),
        Err(error) => {
            eprintln!("skipped: git is not available ({error})");
            None
        }
    }
}

/// A diff beside hidden values applies with a plain `git apply`, with exactly `--fix`'s
/// result where it shows every change, and never shows the hidden values: context stops short
/// of a hidden line; a change with a hidden line right after it (which `git apply` would need
/// as context) or in a hidden line is left out, said in a note `git apply` passes over.
#[test]
fn a_diff_beside_hidden_values_applies_with_git_apply() {
    let secrets = ["hunter2secret", "otherSecret9", "repeatedSecret7"];
    // Broker 0: a password line right before the factor, one two lines after; broker 1:
    // a password right after it; broker 2: a repeated password line (a safe fix in hidden
    // text) and the factor in the open.
    let files = [
        (
            "server-0.properties",
            "broker.id=0\nzookeeper.connect=zk:2181\nssl.keystore.password=hunter2secret\n\
             offsets.topic.replication.factor=1\nnum.partitions=3\nssl.key.password=otherSecret9\n\
             log.dirs=/var/lib/kafka\n",
        ),
        (
            "server-1.properties",
            "broker.id=1\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n\
             ssl.key.password=otherSecret9\nlog.dirs=/var/lib/kafka\n",
        ),
        (
            "server-2.properties",
            "broker.id=2\nzookeeper.connect=zk:2181\nssl.key.password=repeatedSecret7\n\
             num.partitions=3\nssl.key.password=repeatedSecret7\nlog.dirs=/var/lib/kafka\n\
             offsets.topic.replication.factor=1\nnum.io.threads=8\n",
        ),
    ];
    let dir = cluster(
        &files
            .iter()
            .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
            .collect::<Vec<_>>(),
    );
    let output = kafkalint(&["check", "--diff", "--unsafe-fixes", "."], dir.path());
    let diff = stdout(&output);
    for secret in secrets {
        assert!(!diff.contains(secret), "{secret} in\n{diff}");
    }
    // Hidden text shows in notes only, never in a hunk.
    assert!(
        diff.lines()
            .filter(|line| !line.starts_with("# kafkalint: ") && !line.starts_with("#   "))
            .all(|line| !line.contains("[redacted]")),
        "{diff}"
    );
    // Broker 0's change applies, its context cut at the hidden lines.
    assert!(
        diff.contains(
            "--- a/server-0.properties\n+++ b/server-0.properties\n@@ -4,2 +4,2 @@\n\
             -offsets.topic.replication.factor=1\n+offsets.topic.replication.factor=3\n \
             num.partitions=3\n"
        ),
        "{diff}"
    );
    // Broker 1's is a note: the hidden line after it would be its context.
    assert!(
        diff.contains("# kafkalint: server-1.properties:3: a change left out of this diff"),
        "{diff}"
    );
    assert!(!diff.contains("--- a/server-1.properties"), "{diff}");
    // Broker 2's removal of a hidden line is a note; its factor's change a hunk.
    assert!(
        diff.contains(
            "# kafkalint: server-2.properties:5: a change left out of this diff, as it \
             changes text kafkalint hides"
        ),
        "{diff}"
    );
    assert!(
        diff.contains("\n#   -ssl.key.password=[redacted]\n"),
        "{diff}"
    );
    assert!(diff.contains("--- a/server-2.properties"), "{diff}");

    // Applied by git to a copy, the diff gives `--fix`'s bytes where it shows the change.
    let Some(init) = git(&["init", "-q", "."], dir.path()) else {
        return;
    };
    assert!(init.status.success());
    std::fs::write(dir.path().join("fix.diff"), &diff).unwrap();
    let applied = git(&["apply", "fix.diff"], dir.path()).unwrap();
    assert!(
        applied.status.success(),
        "git apply: {}\n{diff}",
        String::from_utf8_lossy(&applied.stderr)
    );
    let by_git: Vec<Vec<u8>> = files
        .iter()
        .map(|(name, _)| read(dir.path(), name))
        .collect();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    let by_fix: Vec<Vec<u8>> = files
        .iter()
        .map(|(name, _)| read(dir.path(), name))
        .collect();
    assert_eq!(by_git[0], by_fix[0]);
    assert_eq!(by_git[1], files[1].1.as_bytes(), "left out: unchanged");
    let expected_2 = files[2].1.replace(
        "offsets.topic.replication.factor=1",
        "offsets.topic.replication.factor=3",
    );
    assert_eq!(String::from_utf8_lossy(&by_git[2]), expected_2);
    assert_ne!(
        by_fix[1],
        files[1].1.as_bytes(),
        "--fix makes what the note says"
    );
}

#[test]
fn permissions_are_kept() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let path = dir.path().join("server-0.properties");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    // A read-only file in a writable folder is replaced like any other, and stays read-only.
    let read_only = dir.path().join("server-1.properties");
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(stdout(&output).contains("Fixed 3 findings in 3 files."));
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o640);
    let mode = fs::metadata(&read_only).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o444);
    assert!(
        fs::read_to_string(&read_only)
            .unwrap()
            .contains("offsets.topic.replication.factor=3\n")
    );
    assert!(
        String::from_utf8(fs::read(&path).unwrap())
            .unwrap()
            .contains("offsets.topic.replication.factor=3\n")
    );
    // No temporary file is left behind.
    assert_eq!(
        listing(dir.path()),
        [
            "server-0.properties",
            "server-1.properties",
            "server-2.properties"
        ]
    );
}

#[test]
fn a_symbolic_link_keeps_pointing_at_the_fixed_file() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let elsewhere = tempfile::tempdir().unwrap();
    let real = elsewhere.path().join("server-0.properties");
    fs::rename(dir.path().join("server-0.properties"), &real).unwrap();
    std::os::unix::fs::symlink(&real, dir.path().join("server-0.properties")).unwrap();
    // Met in a folder walk, a link that leads out of the folder is passed over, unwritten.
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(
        stderr(&output).starts_with("kafkalint: skipped server-0.properties: a symbolic link that leads out of the folder walked: not followed (name it to check it)\n"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        fs::read(&real).unwrap(),
        broker(0, "offsets.topic.replication.factor=1\n", "\n")
    );
    // Named, it is followed.
    let names = [
        "server-0.properties",
        "server-1.properties",
        "server-2.properties",
    ];
    let output = kafkalint(
        &[&["check", "--fix", "--unsafe-fixes"][..], &names].concat(),
        dir.path(),
    );
    assert!(
        stdout(&output).contains("Fixed 3 findings in 3 files."),
        "{}",
        stdout(&output)
    );
    let link = fs::symlink_metadata(dir.path().join("server-0.properties")).unwrap();
    assert!(link.file_type().is_symlink());
    assert!(
        fs::read_to_string(&real)
            .unwrap()
            .contains("offsets.topic.replication.factor=3\n")
    );
}

#[test]
fn a_read_only_folder_is_an_error_naming_the_file_and_nothing_changes() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let before: Vec<Vec<u8>> = listing(dir.path())
        .iter()
        .map(|name| read(dir.path(), name))
        .collect();
    let folder = dir.path().to_path_buf();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o555)).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_kafkalint"));
    command
        .args(["check", "--fix", "--unsafe-fixes", "."])
        .current_dir(&folder);
    // Root writes anywhere: run as nobody then, for whom the folder is read-only too.
    if is_root() {
        use std::os::unix::process::CommandExt;
        command.uid(65534).gid(65534);
    }
    let output = command.output().unwrap();
    fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "kafkalint: error: server-0.properties: cannot write the fixed file: permission denied; nothing written\n"
    );
    assert_eq!(stdout(&output), "");
    let after: Vec<Vec<u8>> = listing(&folder)
        .iter()
        .map(|name| read(&folder, name))
        .collect();
    assert_eq!(after, before);
}

/// Whether the tests run as root (CI containers do), read from /proc rather than libc.
fn is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("Uid:"))
                .and_then(|line| line.split_whitespace().nth(2).map(|uid| uid == "0"))
        })
        .unwrap_or(false)
}

#[test]
fn a_file_changed_after_the_check_is_not_overwritten() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let paths: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let report = kafkalint::check(&paths, &kafkalint::Options::default()).unwrap();
    let fixed = kafkalint::fix::fix(
        report,
        &kafkalint::Options::default(),
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap();
    assert_eq!(fixed.changes.len(), 3);
    // Someone saves the second file between the check and the write. The first is renamed
    // before the second is looked at, and must be put back: the very file.
    let edited = broker(1, "offsets.topic.replication.factor=2\n", "\n");
    let second = dir.path().join("server-1.properties");
    fs::write(&second, &edited).unwrap();
    let inode = |name: &str| {
        std::os::unix::fs::MetadataExt::ino(&fs::metadata(dir.path().join(name)).unwrap())
    };
    let first = inode("server-0.properties");
    let error = kafkalint::fix::write(&fixed.changes).unwrap_err();
    assert_eq!(inode("server-0.properties"), first);
    assert_eq!(
        error.to_string(),
        format!(
            "{}: changed since it was checked; nothing written (run kafkalint again)",
            second.display()
        )
    );
    // Nothing written, not even the files that did not change, and no temporary file left.
    assert_eq!(fs::read(&second).unwrap(), edited);
    assert_eq!(
        read(dir.path(), "server-0.properties"),
        broker(0, "offsets.topic.replication.factor=1\n", "\n")
    );
    assert_eq!(listing(dir.path()).len(), 3);
}

/// An edit saved into the last file of a large fix while the files before it are being
/// renamed: each file is read again right before its own rename (and the original it
/// replaced is looked at right after), so the edit is either seen, and every file put back,
/// or lands on the fixed file. It is never lost, and a message that says "nothing written"
/// is true.
#[test]
fn an_edit_during_the_renames_is_never_lost() {
    const FILES: usize = 400;
    let name = |id: usize| format!("server-{id:03}.properties");
    let original = |id: usize| broker(id, "offsets.topic.replication.factor=1\n", "\n");
    let edited = b"broker.id=399\n# edited while kafkalint --fix ran\n".to_vec();
    let mut attacked = false;
    for _ in 0..5 {
        let dir = cluster(
            &(0..FILES)
                .map(|id| (name(id), original(id)))
                .collect::<Vec<_>>(),
        );
        let first = dir.path().join(name(0));
        let last = dir.path().join(name(FILES - 1));
        let inode = || fs::metadata(&first).map(|m| std::os::unix::fs::MetadataExt::ino(&m));
        let before = inode().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(FIX_ALL)
            .current_dir(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The first file's rename starts the renames: then the last file is edited.
        let started = std::time::Instant::now();
        let mut running = true;
        while inode().is_ok_and(|now| now == before) {
            running = child.try_wait().unwrap().is_none();
            assert!(started.elapsed().as_secs() < 60, "--fix hangs");
            if !running {
                break;
            }
        }
        fs::write(&last, &edited).unwrap();
        let output = child.wait_with_output().unwrap();
        attacked |= running;
        assert_eq!(
            String::from_utf8_lossy(&fs::read(&last).unwrap()),
            String::from_utf8_lossy(&edited),
            "the edit is lost"
        );
        match output.status.code() {
            Some(2) => {
                assert_eq!(
                    stderr(&output),
                    format!(
                        "kafkalint: error: {}: changed since it was checked; nothing written (run kafkalint again)\n",
                        name(FILES - 1)
                    )
                );
                for id in 0..FILES - 1 {
                    assert_eq!(read(dir.path(), &name(id)), original(id), "{}", name(id));
                }
                assert_eq!(listing(dir.path()).len(), FILES, "files left beside");
            }
            _ => assert!(stderr(&output).contains("Fixed"), "{}", stderr(&output)),
        }
        if attacked {
            break;
        }
    }
    assert!(attacked, "the renames were never caught under way");
}

#[test]
fn a_fix_that_does_not_resolve_its_finding_is_refused() {
    let dir = brokers(3, "# a comment\noffsets.topic.replication.factor=1\n");
    let paths: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let mut report = kafkalint::check(&paths, &kafkalint::Options::default()).unwrap();
    let diagnostic = report
        .diagnostics
        .iter_mut()
        .find(|d| d.rule == "internal-topic-replication")
        .unwrap();
    let fix = diagnostic.fix.as_mut().unwrap();
    let file = fix.edits[0].file;
    // A broken fix: it edits the comment instead of the value.
    let comment = report.files[file].properties.comments[0].span.clone();
    fix.edits[0].span = comment;
    fix.edits[0].replacement = b"# edited".to_vec();
    let error = kafkalint::fix::fix(
        report,
        &kafkalint::Options::default(),
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the fix `set offsets.topic.replication.factor=3` (internal-topic-replication) leaves its finding in place; nothing written"),
        "{error}"
    );
}

#[test]
fn a_fix_that_changes_another_key_is_refused() {
    let dir = brokers(3, "num.partitions=4\noffsets.topic.replication.factor=1\n");
    let paths: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let mut report = kafkalint::check(&paths, &kafkalint::Options::default()).unwrap();
    let diagnostic = report
        .diagnostics
        .iter_mut()
        .find(|d| d.rule == "internal-topic-replication")
        .unwrap();
    let fix = diagnostic.fix.as_mut().unwrap();
    let file = fix.edits[0].file;
    // Joins the line before onto the value: `num.partitions=4\` swallows the factor's line.
    let entry = report.files[file].properties.get("num.partitions").unwrap();
    fix.edits.push(kafkalint::diagnostic::Edit {
        file,
        span: entry.value_span.end..entry.value_span.end,
        replacement: b"\\".to_vec(),
    });
    let error = kafkalint::fix::fix(
        report,
        &kafkalint::Options::default(),
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap_err();
    assert!(
        error.to_string().contains("changes `num.partitions`"),
        "{error}"
    );
}

#[test]
fn fix_and_diff_do_not_read_standard_input() {
    for flag in ["--fix", "--diff"] {
        let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(["check", flag, "--stdin-filename", "server.properties", "-"])
            .current_dir(root())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{flag}");
        assert!(
            stderr(&output).contains("`--fix` and `--diff` change files on disk"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn a_suppressed_finding_is_not_fixed() {
    let extra = "# kafkalint: ignore[internal-topic-replication] a trial cluster\n\
                 offsets.topic.replication.factor=1\n";
    let dir = brokers(3, extra);
    let before = read(dir.path(), "server-0.properties");
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(!stdout(&output).contains("Fixed"), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("3 suppressed"),
        "{}",
        stdout(&output)
    );
    assert_eq!(read(dir.path(), "server-0.properties"), before);
}

#[test]
fn a_repeated_factor_is_fixed_over_two_rounds() {
    // Both fixes touch the last line: the repeat goes first, the factor is set next round.
    let extra = "offsets.topic.replication.factor=1\noffsets.topic.replication.factor=1\n";
    let dir = brokers(3, extra);
    let output = kafkalint(FIX_ALL, dir.path());
    assert!(
        stderr(&output).contains("Fixed 6 findings in 3 files."),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        read(dir.path(), "server-2.properties"),
        broker(2, "offsets.topic.replication.factor=3\n", "\n")
    );
}

#[test]
fn fix_output_can_go_to_a_file() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let output = kafkalint(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "json",
            "--output-file",
            "report.json",
            "server-0.properties",
            "server-1.properties",
            "server-2.properties",
        ],
        dir.path(),
    );
    assert_eq!(stderr(&output), "Fixed 3 findings in 3 files.\n");
    let document: serde_json::Value =
        serde_json::from_slice(&read(dir.path(), "report.json")).unwrap();
    assert!(
        document["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["rule"] != "internal-topic-replication" && d.get("fix").is_none())
    );
}

#[test]
fn json_describes_each_fix() {
    let dir = brokers(
        3,
        "# internal topics\noffsets.topic.replication.factor=1  \n",
    );
    let output = kafkalint(
        &[
            "check",
            "--format",
            "json",
            "server-1.properties",
            "--brokers",
            "3",
        ],
        dir.path(),
    );
    let document: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let fixes: Vec<&serde_json::Value> = document["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d.get("fix"))
        .collect();
    assert_eq!(
        fixes,
        [&serde_json::json!({
            "description": "set offsets.topic.replication.factor=3",
            "applicability": "unsafe",
            "edits": [{
                "file": "server-1.properties",
                "line": 6, "column": 34, "end_line": 6, "end_column": 35,
                "content": "3"
            }]
        })]
    );
}

#[test]
fn one_file_in_two_clusters_with_different_fixes_is_refused() {
    // Named alone it is a one-broker cluster (a factor of 5 becomes 1); in its folder, one of
    // three (it becomes 3).
    let dir = brokers(3, "offsets.topic.replication.factor=5\n");
    let before = read(dir.path(), "server-0.properties");
    let output = kafkalint(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            ".",
            "server-0.properties",
        ],
        dir.path(),
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "kafkalint: error: server-0.properties: read twice (named and found in a folder, or named twice), \
         in clusters whose fixes differ; nothing written (name it once)\n"
    );
    assert_eq!(read(dir.path(), "server-0.properties"), before);
}

#[test]
fn a_fix_that_breaks_the_file_is_refused() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let paths: Vec<PathBuf> = vec![dir.path().to_path_buf()];
    let mut report = kafkalint::check(&paths, &kafkalint::Options::default()).unwrap();
    let diagnostic = report
        .diagnostics
        .iter_mut()
        .find(|d| d.rule == "internal-topic-replication")
        .unwrap();
    // `\u00` is a malformed escape: Properties.load throws.
    diagnostic.fix.as_mut().unwrap().edits[0].replacement = b"3\\u00".to_vec();
    let error = kafkalint::fix::fix(
        report,
        &kafkalint::Options::default(),
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("makes the file unreadable for Kafka"),
        "{error}"
    );
}

#[test]
fn kraft_nodes_and_the_share_group_state_topic_are_fixed_too() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = root().join("fixtures/internal-topic-replication/bad-kraft-combined-3");
    let share = "share.coordinator.state.topic.replication.factor=1\n\
                 share.coordinator.state.topic.min.isr=3\n";
    for name in listing(&fixture) {
        let mut bytes = fs::read(fixture.join(&name)).unwrap();
        bytes.extend_from_slice(share.as_bytes());
        fs::write(dir.path().join(&name), bytes).unwrap();
    }
    let original = fs::read_to_string(fixture.join("server-1.properties")).unwrap();
    let output = kafkalint(FIX_ALL, dir.path());
    assert!(
        stderr(&output).contains("Fixed 9 findings in 3 files."),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        String::from_utf8(read(dir.path(), "server-1.properties")).unwrap(),
        original.replace(
            "offsets.topic.replication.factor=1",
            "offsets.topic.replication.factor=3"
        ) + "share.coordinator.state.topic.replication.factor=3\n\
             share.coordinator.state.topic.min.isr=2\n"
    );
    let remaining = rules_reported(dir.path());
    assert!(
        !remaining
            .iter()
            .any(|rule| rule == "internal-topic-replication" || rule == "min-isr-headroom"),
        "{remaining:?}"
    );
}

#[test]
fn lone_carriage_returns_end_lines_too() {
    let dir = cluster(&[(
        "server.properties".into(),
        b"broker.id=0\rzookeeper.connect=zk:2181\rlog.dirs=/var/k\rnum.partitions=2\r\
          num.partitions=2\roffsets.topic.replication.factor=5"
            .to_vec(),
    )]);
    let diff = kafkalint(&["check", "--diff", "--unsafe-fixes", "."], dir.path());
    assert_eq!(
        stdout(&diff),
        "--- a/server.properties\n+++ b/server.properties\n@@ -2,5 +2,4 @@\n \
         zookeeper.connect=zk:2181\n log.dirs=/var/k\n num.partitions=2\n-num.partitions=2\n\
         -offsets.topic.replication.factor=5\n\\ No newline at end of file\n\
         +offsets.topic.replication.factor=1\n\\ No newline at end of file\n"
    );
    kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert_eq!(
        read(dir.path(), "server.properties"),
        b"broker.id=0\rzookeeper.connect=zk:2181\rlog.dirs=/var/k\rnum.partitions=2\r\
          offsets.topic.replication.factor=1"
    );
}

#[test]
fn the_owner_is_kept_where_the_system_allows() {
    use std::os::unix::fs::MetadataExt;
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    let path = dir.path().join("server-0.properties");
    if is_root() {
        std::os::unix::fs::chown(&path, Some(65534), Some(65534)).unwrap();
    }
    let before = fs::metadata(&path).unwrap();
    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    assert!(stdout(&output).contains("Fixed 3 findings in 3 files."));
    let after = fs::metadata(&path).unwrap();
    assert_ne!(
        after.ino(),
        before.ino(),
        "the file was replaced, not edited"
    );
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
}

#[test]
fn a_min_isr_fix_does_not_raise_a_factor_whose_finding_is_suppressed() {
    let extra = "# kafkalint: ignore[internal-topic-replication] a trial cluster\n\
                 transaction.state.log.replication.factor=1\n\
                 transaction.state.log.min.isr=2\n";
    let dir = brokers(3, extra);
    let before = read(dir.path(), "server-0.properties");
    // Up to Kafka 3.6 a min ISR above the factor is out of reach (3.7 takes the smaller).
    let output = kafkalint(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--kafka-version",
            "3.6",
            "--format",
            "concise",
            ".",
        ],
        dir.path(),
    );
    assert!(!stderr(&output).contains("Fixed"), "{}", stderr(&output));
    assert_eq!(read(dir.path(), "server-0.properties"), before);
    assert_eq!(
        stdout(&output).matches("error[min-isr-headroom]").count(),
        3,
        "{}",
        stdout(&output)
    );
}

#[test]
fn one_file_read_twice_with_the_same_fix_is_written_once() {
    let dir = brokers(3, "offsets.topic.replication.factor=1\n");
    // The folder as `.` and as `../NAME`: two clusters of the same three files.
    let name = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let again = format!("../{name}");
    let output = kafkalint(
        &["check", "--fix", "--unsafe-fixes", ".", &again],
        dir.path(),
    );
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("in 3 files."),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        read(dir.path(), "server-0.properties"),
        broker(0, "offsets.topic.replication.factor=3\n", "\n")
    );
}

#[test]
fn a_rule_the_config_file_turns_off_is_not_fixed() {
    let extra = "offsets.topic.replication.factor=1\n";
    for config in [
        "ignore = [\"internal-topic-replication\"]\n",
        "[rules.internal-topic-replication]\nseverity = \"off\"\n",
        "[per-path-ignores]\n\"server-1.properties\" = [\"internal-topic-replication\"]\n",
    ] {
        let dir = brokers(3, extra);
        fs::write(dir.path().join("kafkalint.toml"), config).unwrap();
        let before = read(dir.path(), "server-1.properties");
        kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
        assert_eq!(
            read(dir.path(), "server-1.properties"),
            before,
            "{config}: a rule the config turns off for the file is not fixed in it"
        );
        let fixed_elsewhere = !config.contains("per-path-ignores");
        assert_eq!(
            read(dir.path(), "server-0.properties") == broker(0, extra, "\n"),
            fixed_elsewhere,
            "{config}: the other brokers are fixed only when the rule runs for them"
        );
    }
}

#[test]
fn with_cluster_fixes_only_the_files_it_is_given() {
    let extra = "offsets.topic.replication.factor=1\n";
    let dir = brokers(3, extra);
    let output = kafkalint(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--with-cluster",
            "server-1.properties",
        ],
        dir.path(),
    );
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        String::from_utf8_lossy(&read(dir.path(), "server-1.properties"))
            .contains("offsets.topic.replication.factor=3"),
        "the named file is fixed"
    );
    for id in [0, 2] {
        assert_eq!(
            read(dir.path(), &format!("server-{id}.properties")),
            broker(id, extra, "\n"),
            "broker {id} is context, not changed"
        );
    }
}

/// Folders with config files of their own are checked apart and their reports merged: each
/// fix must still land in its own folder's files (the edits' file indices move with the merge).
#[test]
fn fixes_land_in_their_own_files_when_folders_have_their_own_config() {
    let root = tempfile::tempdir().unwrap();
    let extra = "offsets.topic.replication.factor=1\n";
    for folder in ["east", "west"] {
        let dir = root.path().join(folder);
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("kafkalint.toml"), "").unwrap();
        for id in 0..3 {
            fs::write(
                dir.join(format!("server-{id}.properties")),
                broker(id, extra, "\n"),
            )
            .unwrap();
        }
    }
    let output = kafkalint(
        &["check", "--fix", "--unsafe-fixes", "east", "west"],
        root.path(),
    );
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    for folder in ["east", "west"] {
        for id in 0..3 {
            let expected = broker(id, "offsets.topic.replication.factor=3\n", "\n");
            let path = format!("{folder}/server-{id}.properties");
            assert_eq!(
                String::from_utf8_lossy(&read(root.path(), &path)),
                String::from_utf8_lossy(&expected),
                "{path}"
            );
        }
    }
}

/// The services of one compose file share its bytes: their fixes are written to it once.
#[test]
fn a_compose_fix_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("docker-compose.yml");
    std::fs::copy(
        root().join("fixtures/internal-topic-replication/bad-compose/docker-compose.yml"),
        &path,
    )
    .unwrap();
    let options = kafkalint::Options::default();
    let report = kafkalint::check(std::slice::from_ref(&path), &options).unwrap();
    let fixed = kafkalint::fix::fix(
        report,
        &options,
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap();
    assert_eq!(fixed.changes.len(), 1, "one file written once");
    kafkalint::fix::write(&fixed.changes).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("REPLICATION_FACTOR: 3").count(), 2);
    assert_eq!(text.matches("REPLICATION_FACTOR=3").count(), 1);
    let again = kafkalint::check(std::slice::from_ref(&path), &options).unwrap();
    assert!(
        again
            .diagnostics
            .iter()
            .all(|d| d.rule != "internal-topic-replication")
    );
}

/// A fix whose change lies wholly in text output hides (here a compose anchor under a key that
/// holds a control character, hidden with its value) is still named by `--diff`: `--diff` never
/// says less than `--fix` writes. Found by the `yaml` fuzz target.
#[test]
fn a_change_in_hidden_text_is_still_named_by_diff() {
    let dir = tempfile::tempdir().unwrap();
    let compose = "x-ka\u{1d}fka-env: &env\n  KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181\n  \
                   KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n\nservices:\n  zookeeper:\n    \
                   image: confluentinc/cp-zookeeper:7.6.1\n  kafka-1:\n    image: \
                   confluentinc/cp-kafka:7.6.1\n    environment:\n      <<: *env\n      \
                   KAFKA_BROKER_ID: 1\n  kafka-2:\n    image: confluentinc/cp-kafka:7.6.1\n    \
                   environment:\n      <<: *env\n      KAFKA_BROKER_ID: 2\n  kafka-3:\n    \
                   image: confluentinc/cp-kafka:7.6.1\n    environment:\n      <<: *env\n      \
                   KAFKA_BROKER_ID: 3\n";
    std::fs::write(dir.path().join("docker-compose.yml"), compose).unwrap();
    let diff = kafkalint(
        &["check", "--diff", "--unsafe-fixes", "docker-compose.yml"],
        dir.path(),
    );
    let fixed = kafkalint(
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            "docker-compose.yml",
        ],
        dir.path(),
    );
    let written = read(dir.path(), "docker-compose.yml");
    if written != compose.as_bytes() {
        let shown = stdout(&diff);
        assert!(
            (shown.contains("--- a/docker-compose.yml")
                && shown.contains("+++ b/docker-compose.yml"))
                || shown.contains("# kafkalint: docker-compose.yml:"),
            "--fix changed the file, --diff shows: {shown}\n{}",
            stderr(&fixed)
        );
    } else {
        panic!("no fix written: {}{}", stdout(&fixed), stderr(&fixed));
    }
}

/// As ruff: `--fix` makes safe fixes only (a repeated line removed), `--unsafe-fixes` the
/// unsafe ones too (a replication factor raised); `[*]` marks the fixes `--fix` would make,
/// and the summary says how many it leaves hidden.
#[test]
fn fix_makes_safe_fixes_and_unsafe_ones_only_when_asked() {
    let dir = brokers(
        3,
        "offsets.topic.replication.factor=1\nlog.retention.hours=24\nlog.retention.hours=24\n",
    );
    let concise = |extra: &[&str]| {
        let output = kafkalint(
            &[&["check", "--format", "concise"][..], extra, &["."]].concat(),
            dir.path(),
        );
        let shown = stdout(&output);
        let marked = |rule: &str| {
            let lines: Vec<&str> = shown
                .lines()
                .filter(|line| line.contains(&format!("[{rule}]")))
                .collect();
            assert!(!lines.is_empty(), "{rule}: {shown}");
            lines.iter().all(|line| line.contains(" [*] "))
        };
        (
            marked("duplicate-key"),
            marked("internal-topic-replication"),
            stderr(&output),
        )
    };
    let (safe_marked, unsafe_marked, summary) = concise(&[]);
    assert!(safe_marked && !unsafe_marked);
    assert!(
        summary.contains(
            "[*] 3 fixable with the `--fix` option (3 hidden fixes can be enabled with the \
             `--unsafe-fixes` option)."
        ),
        "{summary}"
    );
    let (safe_marked, unsafe_marked, summary) = concise(&["--unsafe-fixes"]);
    assert!(safe_marked && unsafe_marked);
    assert!(
        summary.contains("[*] 6 fixable with the `--fix` option.\n"),
        "{summary}"
    );

    let diff = kafkalint(&["check", "--diff", "."], dir.path());
    let shown = stdout(&diff);
    assert!(shown.contains("-log.retention.hours=24"), "{shown}");
    assert!(
        !shown.contains("+offsets.topic.replication.factor=3"),
        "{shown}"
    );
    assert!(
        stderr(&diff).contains(
            "Would fix 3 findings in 3 files (3 hidden fixes can be enabled with the \
             `--unsafe-fixes` option)."
        ),
        "{}",
        stderr(&diff)
    );

    let output = kafkalint(&["check", "--fix", "."], dir.path());
    let written = String::from_utf8(read(dir.path(), "server-0.properties")).unwrap();
    assert_eq!(
        written.matches("log.retention.hours=24").count(),
        1,
        "{written}"
    );
    assert!(
        written.contains("offsets.topic.replication.factor=1\n"),
        "{written}"
    );
    let shown = stdout(&output);
    assert!(
        shown.contains(
            "No fixes available (3 hidden fixes can be enabled with the `--unsafe-fixes` option)."
        ),
        "{shown}"
    );

    let output = kafkalint(&["check", "--fix", "--unsafe-fixes", "."], dir.path());
    let written = String::from_utf8(read(dir.path(), "server-0.properties")).unwrap();
    assert!(
        written.contains("offsets.topic.replication.factor=3\n"),
        "{written}"
    );
    assert!(
        !stdout(&output).contains("hidden fix"),
        "{}",
        stdout(&output)
    );
}
