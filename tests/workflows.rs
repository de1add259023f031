//! The GitHub workflows cannot run here (the release workflow needs a tag, GitHub's runners and
//! its token): actionlint (a Go module; `scripts/test-all` installs the version CI uses) checks
//! them, the workflow of docs/src/integrations.md with them, and any finding fails the test.
//! The release workflow builds what the docs and the Action download: its targets and file
//! names are held to theirs here.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn workflows() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(".github/workflows"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn actionlint_finds_nothing_in_the_workflows() {
    if !support::external_tools("tests/workflows.rs") {
        return;
    }
    let files = workflows();
    assert!(
        files.iter().any(|f| f.ends_with("release.yml")),
        "{files:?}"
    );

    // The docs' workflow, as a user copies it into .github/workflows/.
    let docs = std::fs::read_to_string(root().join("docs/src/integrations.md")).unwrap();
    let snippet = docs
        .split("\n## GitHub Action\n")
        .nth(1)
        .and_then(|section| section.split("```yaml\n").nth(1))
        .and_then(|rest| rest.split("\n```").next())
        .expect("docs/src/integrations.md has the workflow");
    let scratch = tempfile::tempdir().unwrap();
    let copied = scratch.path().join(".github/workflows/kafkalint.yml");
    std::fs::create_dir_all(copied.parent().unwrap()).unwrap();
    std::fs::write(&copied, format!("{snippet}\n")).unwrap();

    for file in files.iter().chain([&copied]) {
        let output = Command::new("actionlint")
            .args(["-no-color", "-oneline"])
            .arg(file)
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "actionlint {}:\n{}{}",
            file.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    // And it does find a mistake: a job that needs one that does not exist.
    let broken = scratch.path().join(".github/workflows/broken.yml");
    std::fs::write(
        &broken,
        "on: push\njobs:\n  a:\n    needs: nowhere\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n",
    )
    .unwrap();
    let output = Command::new("actionlint").arg(&broken).output().unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stdout).contains("nowhere"));
}

#[test]
fn the_release_builds_every_archive_the_action_and_the_docs_download() {
    let release = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let install = std::fs::read_to_string(root().join("docs/src/install.md")).unwrap();
    for target in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
        "x86_64-pc-windows-msvc",
    ] {
        assert!(
            release.contains(&format!("- target: {target}\n")),
            "release.yml builds no {target}"
        );
        assert!(
            action.contains(&format!("target={target} ;;")),
            "action.yml downloads no {target}"
        );
        let file = format!("kafkalint-{}-{target}.", env!("CARGO_PKG_VERSION"));
        assert!(install.contains(&file), "install.md lists no {file}");
    }
    // The archive and checksum names the Action builds, the release makes.
    assert!(release.contains(r#"name="kafkalint-$VERSION-$TARGET""#));
    assert!(release.contains(r#"> "$archive.sha256""#));
    assert!(action.contains(r#"archive="kafkalint-$version-$target.tar.gz""#));
    assert!(action.contains(r#""$url.sha256""#));
}

/// The release workflow publishes packaging/pre-commit as it is, after checking that it names
/// the release: the check here catches a version bump that forgot it, before the tag.
#[test]
fn the_pre_commit_package_installs_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    let pyproject =
        std::fs::read_to_string(root().join("packaging/pre-commit/pyproject.toml")).unwrap();
    let lines: Vec<&str> = pyproject.lines().collect();
    assert!(
        lines.contains(&format!("version = \"{version}\"").as_str()),
        "{pyproject}"
    );
    assert!(
        lines.contains(&format!("dependencies = [\"kafkalint=={version}\"]").as_str()),
        "{pyproject}"
    );
    let workflow = std::fs::read_to_string(root().join(".github/workflows/release.yml")).unwrap();
    assert!(
        workflow.contains("cp -R packaging/pre-commit/. mirror/"),
        "the release workflow publishes packaging/pre-commit"
    );
}
