//! The install and integration snippets of the documentation name a release that exists: the
//! tag a release gets is `v` + Cargo.toml's version, so every `rev:` (pre-commit), `uses:
//! kafkalint/kafkalint@` (the Action), `version:` / `--version` / `--tag`, release download URL
//! and `cargo install` line in a code block of README.md and docs/**/*.md names
//! `v<version>`, and every `cargo install` has `--locked` (a build from Cargo.lock's versions).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let docs = root().join("docs");
    if docs.is_dir() {
        for entry in walkdir::WalkDir::new(&docs).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.path().extension().is_some_and(|e| e == "md") {
                files.push(entry.into_path());
            }
        }
    }
    files
}

/// The lines of the fenced code blocks of a Markdown text, with their line numbers.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let mut fence: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match fence {
            None if trimmed.starts_with("```") || trimmed.starts_with("~~~") => {
                fence = Some(&trimmed[..3]);
            }
            Some(open) if trimmed.starts_with(open) => fence = None,
            Some(_) => lines.push((n + 1, line)),
            None => {}
        }
    }
    lines
}

/// Which kind of versioned snippet a code line is, if any.
fn kind(line: &str) -> Option<&'static str> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
        .collect();
    let trimmed = line.trim_start().trim_start_matches("- ");
    if trimmed.starts_with("rev:") {
        Some("rev:")
    } else if line.contains("uses: kafkalint/kafkalint@") {
        Some("uses:")
    } else if trimmed.starts_with("version:") {
        Some("version:")
    } else if line.contains("cargo install") {
        Some("cargo install")
    } else if line.contains("/releases/download/") {
        Some("release URL")
    } else if words
        .windows(2)
        .any(|pair| (pair[0] == "--version" || pair[0] == "--tag") && !pair[1].is_empty())
    {
        Some("--version")
    } else {
        None
    }
}

/// Every `vX.Y.Z` in a line.
fn release_tags(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut tags = Vec::new();
    for (i, _) in line.match_indices('v') {
        if i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_') {
            continue;
        }
        let rest = &line[i + 1..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let candidate = rest[..end].trim_end_matches('.');
        if candidate.split('.').count() == 3 && candidate.split('.').all(|p| !p.is_empty()) {
            tags.push(&line[i..i + 1 + candidate.len()]);
        }
    }
    tags
}

#[test]
fn snippets_name_the_release_of_this_version_and_cargo_install_is_locked() {
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    let mut problems = Vec::new();
    let mut seen = 0;
    for file in markdown_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.strip_prefix(root()).unwrap().display().to_string();
        for (n, line) in code_lines(&text) {
            let Some(kind) = kind(line) else { continue };
            seen += 1;
            let tags = release_tags(line);
            let from_checkout = kind == "cargo install" && line.contains("--path");
            if !from_checkout && !tags.contains(&tag.as_str()) {
                problems.push(format!("{name}:{n}: {kind} names no {tag}: {line}"));
            }
            for other in tags.iter().filter(|t| **t != tag) {
                problems.push(format!("{name}:{n}: {other}, not {tag}: {line}"));
            }
            if kind == "cargo install" && !line.contains("--locked") {
                problems.push(format!(
                    "{name}:{n}: cargo install without --locked: {line}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The docs have such snippets (pre-commit, the Action, cargo install, the release files):
    // a change that hid them all from this test would pass it for nothing.
    assert!(seen >= 6, "only {seen} versioned snippets found");
}

#[test]
fn the_checker_finds_what_it_looks_for() {
    let text = "prose rev: v9.9.9\n```yaml\n  - repo: x\n    rev: v9.9.9\n```\n```sh\n\
                cargo install --git https://github.com/kafkalint/kafkalint --tag v0.1.0 kafkalint\n\
                kafkalint --version\n```\n";
    let lines = code_lines(text);
    assert_eq!(lines.len(), 4);
    assert_eq!(kind(lines[1].1), Some("rev:"));
    assert_eq!(release_tags(lines[1].1), ["v9.9.9"]);
    assert_eq!(kind(lines[2].1), Some("cargo install"));
    assert_eq!(release_tags(lines[2].1), ["v0.1.0"]);
    assert_eq!(
        kind(lines[3].1),
        None,
        "`kafkalint --version` names no release"
    );
    assert_eq!(release_tags("uses: kafkalint/kafkalint@v1.2.3"), ["v1.2.3"]);
    assert_eq!(release_tags("kafkalint-v1.2.3-x86_64.tar.gz"), ["v1.2.3"]);
    assert!(release_tags("dev0.1.0 v1.2").is_empty());
}
