//! `kafkalint server` driven by real clients over stdio: pytest-lsp (PyPI, the tests in
//! `tests/lsp/test_server.py`) and Neovim (Debian's package; `tests/lsp/diagnostics.lua`).
//! Both are found on the PATH, where `.ci/run` puts them (`target/ci/bin/pytest`, from a venv
//! under target/ci/; `nvim` from apt); a missing one fails its test with how to install it.

mod support;

use std::path::Path;
use std::process::Command;

/// The seed scenario: three brokers with offsets.topic.replication.factor=1.
fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/internal-topic-replication/bad")
}

#[test]
fn pytest_lsp_drives_the_server_over_stdio() {
    if !support::external_tools("tests/editors.rs (pytest-lsp)") {
        return;
    }
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp");
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new("pytest")
        .args(["-q", "-p", "no:cacheprovider", "-o"])
        .arg("asyncio_default_fixture_loop_scope=function")
        .arg("--basetemp")
        .arg(dir.path().join("tmp"))
        .arg(tests.join("test_server.py"))
        .env("KAFKALINT", env!("CARGO_BIN_EXE_kafkalint"))
        .env("FIXTURE", fixture())
        .current_dir(dir.path())
        .output()
        .expect("pytest runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "pytest failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[test]
fn neovim_shows_the_servers_diagnostics() {
    if !support::external_tools("tests/editors.rs (Neovim)") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for name in ["server-1.properties", "server-2.properties"] {
        std::fs::copy(fixture().join(name), dir.path().join(name)).unwrap();
    }
    // A UTF-8 comment and value: Neovim counts columns in bytes, the server in UTF-16 units
    // (Neovim 0.7 offers no other encoding), so a wrong conversion moves the columns.
    let broker_0 = "# Gr\u{f6}\u{df}e: caf\u{e9}\nbroker.id=0\nzookeeper.connect=zk:2181\n\
        offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n\
        log.dirs=/tmp/kafka-logs-\u{e9}\nssl.key.password=hunter2secret\n";
    std::fs::write(dir.path().join("server-0.properties"), broker_0).unwrap();
    let out = dir.path().join("diagnostics.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp/diagnostics.lua");
    let status = Command::new("nvim")
        .args([
            "--headless",
            "--clean",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "-n",
            "-c",
        ])
        .arg(format!("luafile {}", script.display()))
        .arg("server-0.properties")
        .env("KAFKALINT", env!("CARGO_BIN_EXE_kafkalint"))
        .env("KAFKALINT_NVIM_OUT", &out)
        .current_dir(dir.path())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim: {status}");
    let text = std::fs::read_to_string(&out).expect("the script wrote its file");
    let lines: Vec<&str> = text.lines().collect();
    let has = |prefix: &str| lines.iter().any(|line| line.starts_with(prefix));
    // 0-based lines, byte columns, severity 1 error, 2 warning.
    for expected in [
        "3:33:3:34 1 internal-topic-replication offsets.topic.replication.factor=1",
        "4:41:4:42 1 internal-topic-replication ",
        "5:9:5:27 2 log-dirs-in-tmp ",
        "6:17:6:30 2 plaintext-secret ",
    ] {
        assert!(has(expected), "{expected} not in:\n{text}");
    }
    assert!(!text.contains("hunter2secret"), "{text}");
}
