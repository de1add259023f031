//! `kafkalint check --watch` as a person runs it: the real binary on a folder, a file changed
//! while it watches, and the check it then runs again. Every wait is bounded.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A watching kafkalint, killed on drop; its stdout and stderr lines, tagged, in one channel.
struct Watching {
    child: Child,
    lines: Receiver<(&'static str, String)>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watching {
    fn start(args: &[&str], dir: &Path) -> Watching {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(args)
            .current_dir(dir)
            .env_remove("FORCE_COLOR")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (send, lines) = channel();
        let out = send.clone();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = out.send(("stdout", line));
            }
        });
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let _ = send.send(("stderr", line));
            }
        });
        Watching { child, lines }
    }

    /// Every line up to the next "Watching for file changes." (within 60 s).
    fn until_watching(&self) -> Vec<(&'static str, String)> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no `Watching` line; so far: {seen:#?}"));
            let done = line == ("stderr", "Watching for file changes.".to_string());
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

fn copy_fixture(fixture: &str, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(root().join(fixture)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

#[test]
fn a_change_while_watching_is_checked_again() {
    let scratch = tempfile::tempdir().unwrap();
    copy_fixture(
        "fixtures/seed-zk-3-brokers-fixed",
        &scratch.path().join("kafka"),
    );
    let watching = Watching::start(
        &["check", "--watch", "--format", "concise", "kafka"],
        scratch.path(),
    );
    let first = watching.until_watching();
    assert!(
        !first.iter().any(|(stream, _)| *stream == "stdout"),
        "the fixed cluster has no finding: {first:#?}"
    );

    // The seed's broker 0, with offsets.topic.replication.factor=1, saved over the fixed one.
    std::fs::copy(
        root().join("fixtures/seed-zk-3-brokers/server-0.properties"),
        scratch.path().join("kafka/server-0.properties"),
    )
    .unwrap();
    let second = watching.until_watching();
    assert_eq!(
        second.first(),
        Some(&(
            "stderr",
            "File change detected: checking again.".to_string()
        )),
        "{second:#?}"
    );
    assert!(
        second.iter().any(|(stream, line)| *stream == "stdout"
            && line.starts_with("kafka/server-0.properties:")
            && line.contains("error[internal-topic-replication]")),
        "{second:#?}"
    );
}

#[test]
fn watch_refuses_what_writes_files() {
    for other in ["--fix", "--diff"] {
        let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(["check", "--watch", other, "."])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains("cannot be used with"), "{stderr}");
    }
}
