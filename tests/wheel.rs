//! The Python wheel (`pyproject.toml`, maturin with `bindings = "bin"`) as a user meets it: built
//! from this checkout with the real maturin (from PyPI; `scripts/test-all` installs the version CI
//! uses), installed with pip into a fresh virtual environment, and run on the seed cluster from
//! the environment's `bin/`.
//!
//! The build uses a target folder of its own under `target/` (shared with the other tests that
//! build a release binary), so that a rerun builds incrementally.

mod support;

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn run(command: &mut Command) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?}: {e}"));
    assert!(output.status.success(), "{command:?}:\n{}", text(&output));
    output
}

#[test]
fn the_wheel_installs_kafkalint_into_a_fresh_venv() {
    if !support::external_tools("tests/wheel.rs") {
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let wheel = support::build_wheel(&scratch.path().join("dist"));

    // Named as pip expects: the Cargo version, no Python ABI (the binary serves every Python).
    let name = wheel.file_name().unwrap().to_str().unwrap().to_string();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        name.starts_with(&format!("kafkalint-{version}-py3-none-")),
        "{name}"
    );
    // On Linux the static musl binary, for glibc and musl systems alike (as the release tags it).
    if cfg!(target_os = "linux") {
        assert!(
            name.contains("manylinux_2_17") && name.contains("musllinux_1_2"),
            "{name}"
        );
    }

    // A fresh venv, offline: the wheel needs nothing else.
    let venv = scratch.path().join("venv");
    run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    run(Command::new(venv.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--disable-pip-version-check",
        ])
        .arg(&wheel));
    let kafkalint = venv.join("bin/kafkalint");
    assert!(
        kafkalint.is_file(),
        "pip put no kafkalint in the venv's bin/"
    );

    // The installed binary is this build's: its version line is the one `cargo build` made.
    let output = run(Command::new(&kafkalint).arg("--version"));
    let built = run(Command::new(env!("CARGO_BIN_EXE_kafkalint")).arg("--version"));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&built.stdout)
    );
    assert!(
        String::from_utf8_lossy(&output.stdout).starts_with(&format!("kafkalint {version} ")),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );

    // The seed: three brokers with offsets.topic.replication.factor=1; exit 1, the finding.
    let output = Command::new(&kafkalint)
        .args(["check", "--format", "concise", "fixtures/seed-zk-3-brokers"])
        .current_dir(root())
        .output()
        .unwrap();
    let report = text(&output);
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        report.contains(
            "fixtures/seed-zk-3-brokers/server-0.properties:28:34: error[internal-topic-replication] \
             offsets.topic.replication.factor=1: one broker down"
        ),
        "{report}"
    );
    assert!(
        report.contains("Found 6 errors, 1 warning, 3 infos"),
        "{report}"
    );

    // pip can take it away again.
    run(Command::new(venv.join("bin/python")).args([
        "-m",
        "pip",
        "uninstall",
        "--yes",
        "--quiet",
        "kafkalint",
    ]));
    assert!(!kafkalint.exists());
}
