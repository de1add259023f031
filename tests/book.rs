//! The manual: the README's rules table, the book's rules index and its rule pages are the
//! registry's, and the built book (`mdbook build docs`) has no broken link.
//!
//! The generated parts (the two rules tables, the rule entries of `docs/src/SUMMARY.md`, the
//! pages `docs/src/rules/<name>.md`) are checked here, and rewritten by
//! `UPDATE_README=1 cargo test --test book` after a rule is added or its summary changes.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use kafkalint::rules::{GROUPS, RULES};

const TABLE_START: &str = "<!-- rules table: generated from the registry; `UPDATE_README=1 cargo test --test book` rewrites it -->";
const TABLE_END: &str = "<!-- end of rules table -->";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn updating() -> bool {
    std::env::var_os("UPDATE_README").is_some_and(|value| value == "1")
}

/// Writes `text` to `path` whole: the other tests, running meanwhile, read either version.
fn rewrite(path: &Path, text: &str) {
    let temporary = path.with_extension("md.new");
    std::fs::write(&temporary, text).unwrap();
    std::fs::rename(&temporary, path).unwrap();
}

/// The registry's rules as a Markdown table, each name linking to `<prefix><name>.md`.
fn rules_table(prefix: &str) -> String {
    let mut table = String::from("| Rule | Severity | Summary |\n|---|---|---|\n");
    for rule in RULES {
        table.push_str(&format!(
            "| [{name}]({prefix}{name}.md) | {severity} | {summary} |\n",
            name = rule.name,
            severity = rule.severity.as_str(),
            summary = rule.summary.replace('|', "\\|"),
        ));
    }
    table
}

/// The registry's rules by group, for the README's front page: a row of linked names a group
/// (the book's rules index gives each one's severity and summary).
fn rules_by_group(prefix: &str) -> String {
    let mut table = String::from("| Group | Rules |\n|---|---|\n");
    for group in GROUPS {
        let names: Vec<String> = RULES
            .iter()
            .filter(|rule| rule.group == group)
            .map(|rule| format!("[{name}]({prefix}{name}.md)", name = rule.name))
            .collect();
        if !names.is_empty() {
            table.push_str(&format!("| {} | {} |\n", group.as_str(), names.join(", ")));
        }
    }
    table
}

/// The book's page of a rule: its doc, included whole (its links are to other rules' docs,
/// which sit beside it in the book as in `rules/`).
fn rule_page(name: &str) -> String {
    format!("{{{{#include ../../../rules/{name}.md}}}}\n")
}

/// The text between the markers of `path`, which must equal `expected`; with `UPDATE_README=1`,
/// rewritten to it.
fn check_generated_table(path: &Path, expected: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let start = text
        .find(TABLE_START)
        .unwrap_or_else(|| panic!("{path:?} has no line `{TABLE_START}`"))
        + TABLE_START.len()
        + 1;
    let end = text[start..]
        .find(TABLE_END)
        .unwrap_or_else(|| panic!("{path:?} has no line `{TABLE_END}`"))
        + start;
    if &text[start..end] == expected {
        return;
    }
    if updating() {
        rewrite(
            path,
            &format!("{}{expected}{}", &text[..start], &text[end..]),
        );
        eprintln!("rewrote the rules table of {path:?}");
        return;
    }
    panic!(
        "the rules table of {path:?} is not the registry's: run `UPDATE_README=1 cargo test --test \
         book`. Expected:\n{expected}\nfound:\n{}",
        &text[start..end]
    );
}

#[test]
fn the_readme_rules_table_is_the_registrys() {
    check_generated_table(&root().join("README.md"), &rules_by_group("rules/"));
}

#[test]
fn the_books_rules_index_is_the_registrys() {
    check_generated_table(&root().join("docs/src/rules/index.md"), &rules_table(""));
}

/// The links of `SUMMARY.md`, in order: (indent, title, path).
fn summary_entries(summary: &str) -> Vec<(usize, String, String)> {
    summary
        .lines()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let entry = trimmed.strip_prefix("- ").unwrap_or(trimmed);
            let title = entry.strip_prefix('[')?;
            let (title, rest) = title.split_once("](")?;
            let path = rest.strip_suffix(')')?;
            Some((indent, title.to_string(), path.to_string()))
        })
        .collect()
}

#[test]
fn every_rule_has_its_page_and_summary_entry_and_nothing_else_is_listed() {
    let summary_path = root().join("docs/src/SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    let index = lines
        .iter()
        .position(|line| *line == "- [Rules](rules/index.md)")
        .expect("SUMMARY.md lists `- [Rules](rules/index.md)`");
    let listed_end = lines[index + 1..]
        .iter()
        .position(|line| !line.starts_with("  "))
        .map_or(lines.len(), |n| index + 1 + n);
    let expected: Vec<String> = RULES
        .iter()
        .map(|rule| format!("  - [{0}](rules/{0}.md)", rule.name))
        .collect();
    let listed: Vec<&str> = lines[index + 1..listed_end].to_vec();
    let rules_dir = root().join("docs/src/rules");
    let pages: BTreeSet<String> = std::fs::read_dir(&rules_dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected_pages: BTreeSet<String> = RULES
        .iter()
        .map(|rule| format!("{}.md", rule.name))
        .chain(["index.md".to_string()])
        .collect();

    if updating() {
        if listed != expected {
            let mut new_lines: Vec<String> = lines[..=index]
                .iter()
                .map(|line| line.to_string())
                .collect();
            new_lines.extend(expected.iter().cloned());
            new_lines.extend(lines[listed_end..].iter().map(|line| line.to_string()));
            rewrite(&summary_path, &(new_lines.join("\n") + "\n"));
            eprintln!("rewrote the rule entries of {summary_path:?}");
        }
        for page in pages.difference(&expected_pages) {
            std::fs::remove_file(rules_dir.join(page)).unwrap();
            eprintln!("removed docs/src/rules/{page}");
        }
        for rule in RULES {
            let path = rules_dir.join(format!("{}.md", rule.name));
            if std::fs::read_to_string(&path).ok().as_deref() != Some(&rule_page(rule.name)) {
                rewrite(&path, &rule_page(rule.name));
                eprintln!("wrote {path:?}");
            }
        }
        return;
    }

    assert_eq!(
        listed, expected,
        "SUMMARY.md lists under Rules each rule of the registry, in its order, and nothing else \
         (`UPDATE_README=1 cargo test --test book` rewrites them)"
    );
    assert_eq!(
        pages, expected_pages,
        "docs/src/rules/ holds index.md and one page per rule of the registry, nothing else"
    );
    for rule in RULES {
        let path = rules_dir.join(format!("{}.md", rule.name));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            rule_page(rule.name),
            "{path:?} includes rules/{}.md and nothing else",
            rule.name
        );
    }
}

#[test]
fn every_page_is_listed_once_and_every_entry_is_a_page() {
    let src = root().join("docs/src");
    let summary = std::fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let mut listed = BTreeSet::new();
    for (_, title, path) in summary_entries(&summary) {
        assert!(
            src.join(&path).is_file(),
            "SUMMARY.md: `{title}` names {path}, which is no page"
        );
        assert!(listed.insert(path.clone()), "SUMMARY.md lists {path} twice");
    }
    let mut pages = BTreeSet::new();
    let mut folders = vec![src.clone()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                let relative = path
                    .strip_prefix(&src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if relative != "SUMMARY.md" {
                    pages.insert(relative);
                }
            }
        }
    }
    let unlisted: Vec<&String> = pages.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "pages that SUMMARY.md does not list: {unlisted:?}"
    );
}

/// An HTML tag: its name and its attributes.
type Tag = (String, BTreeMap<String, String>);

/// The tags of an HTML document, as (name, attributes), outside comments and the bodies of
/// `<script>` and `<style>`. Enough for what mdBook writes; attribute values are unescaped for
/// `&amp;`, `&quot;`, `&lt;`, `&gt;` and `&#39;`.
fn tags(html: &str) -> Vec<Tag> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let Some(close) = tag_end(rest) else { break };
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '/' || *c == '!')
            .collect::<String>()
            .to_ascii_lowercase();
        let attributes = attributes(&tag[name.len()..]);
        if name == "script" || name == "style" {
            let end = format!("</{name}");
            rest = rest.find(&end).map_or("", |at| &rest[at..]);
        }
        tags.push((name, attributes));
    }
    tags
}

/// Where the tag that `text` starts ends: its `>`, outside quoted attribute values.
fn tag_end(text: &str) -> Option<usize> {
    let mut quote = None;
    for (at, c) in text.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return Some(at),
            _ => {}
        }
    }
    None
}

fn attributes(text: &str) -> BTreeMap<String, String> {
    let mut attributes = BTreeMap::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_ascii_lowercase();
        rest = rest[name_end..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (raw, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = after[1..].find(q).map_or(after.len(), |n| n + 1);
                    (&after[1..end], after.get(end + 1..).unwrap_or(""))
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            value = unescape(raw);
            rest = remaining;
        } else if name.is_empty() {
            rest = &rest[1.min(rest.len())..];
        }
        if !name.is_empty() {
            attributes.insert(name, value);
        }
        rest = rest.trim_start();
    }
    attributes
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `%XX` escapes of a URL's path or fragment, decoded.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let Some(byte) = text
                .get(at + 1..at + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            at += 3;
            continue;
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `base` joined with the relative `path`, `..` resolved; None when it leaves `root`.
fn resolve(root: &Path, base: &Path, path: &str) -> Option<PathBuf> {
    let mut parts: Vec<String> = base
        .strip_prefix(root)
        .ok()?
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    for part in Path::new(path).components() {
        match part {
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(name) => parts.push(name.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => parts.clear(),
        }
    }
    Some(
        parts
            .iter()
            .fold(root.to_path_buf(), |path, part| path.join(part)),
    )
}

fn is_external(url: &str) -> bool {
    let scheme = url
        .split_once(':')
        .map(|(scheme, _)| scheme)
        .filter(|scheme| {
            scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
    scheme.is_some() || url.starts_with("//")
}

/// Every relative `href` and `src` of every HTML file under `book` that does not resolve to a
/// file of the build, or whose `#fragment` is no `id` of the page it names, as one line each.
fn broken_links(book: &Path) -> (usize, Vec<String>) {
    let mut files = Vec::new();
    let mut folders = vec![book.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut pages: BTreeMap<PathBuf, Vec<Tag>> = BTreeMap::new();
    for file in &files {
        if file.extension().is_some_and(|ext| ext == "html") {
            let html = std::fs::read_to_string(file).unwrap();
            pages.insert(file.clone(), tags(&html));
        }
    }
    let ids = |page: &Path| -> BTreeSet<String> {
        pages[page]
            .iter()
            .flat_map(|(_, attributes)| {
                ["id", "name"]
                    .into_iter()
                    .filter_map(|key| attributes.get(key).cloned())
            })
            .collect()
    };
    let mut checked = 0;
    let mut broken = Vec::new();
    for (page, page_tags) in &pages {
        let shown = page.strip_prefix(book).unwrap().display().to_string();
        // mdBook's 404 page resolves its links against `<base href>` (site-url, `/` by
        // default): the book's root.
        let base = page_tags
            .iter()
            .find(|(name, attributes)| name == "base" && attributes.contains_key("href"))
            .map(|(_, attributes)| attributes["href"].clone());
        let folder = match base.as_deref() {
            Some(base) if base.starts_with('/') => {
                resolve(book, book, base.trim_start_matches('/')).unwrap()
            }
            _ => page.parent().unwrap().to_path_buf(),
        };
        for (name, attributes) in page_tags {
            for key in ["href", "src"] {
                let Some(url) = attributes.get(key) else {
                    continue;
                };
                if name == "base" || url.is_empty() || is_external(url) {
                    continue;
                }
                checked += 1;
                let (path, fragment) = url.split_once('#').unwrap_or((url, ""));
                let path = path.split_once('?').map_or(path, |(path, _)| path);
                let target = if path.is_empty() {
                    Some(page.clone())
                } else {
                    resolve(book, &folder, &percent_decode(path)).map(|target| {
                        if target.is_dir() {
                            target.join("index.html")
                        } else {
                            target
                        }
                    })
                };
                let Some(target) = target.filter(|target| target.is_file()) else {
                    broken.push(format!(
                        "{shown}: <{name} {key}=\"{url}\">: no such file in the book"
                    ));
                    continue;
                };
                if fragment.is_empty() || !pages.contains_key(&target) {
                    continue;
                }
                if !ids(&target).contains(&percent_decode(fragment)) {
                    broken.push(format!(
                        "{shown}: <{name} {key}=\"{url}\">: no id `{fragment}` in {}",
                        target.strip_prefix(book).unwrap().display()
                    ));
                }
            }
        }
    }
    (checked, broken)
}

#[test]
fn the_built_book_has_no_broken_link() {
    if !support::external_tools("tests/book.rs (the built book)") {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let output = Command::new("mdbook")
        .arg("build")
        .arg(root().join("docs"))
        .arg("--dest-dir")
        .arg(out.path())
        .output()
        .expect("mdbook runs");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "mdbook build docs failed:\n{log}");
    // mdBook reports a missing include or a page it cannot render as a warning or an error in
    // its log, and builds anyway.
    for line in log.lines() {
        assert!(
            !line.contains("WARN") && !line.contains("ERROR"),
            "mdbook build docs: {line}\n{log}"
        );
    }
    let (checked, broken) = broken_links(out.path());
    assert!(
        broken.is_empty(),
        "broken links in the book:\n{}",
        broken.join("\n")
    );
    // Every page of SUMMARY.md links to the others (the sidebar), so a book whose links were
    // not found would check few.
    let summary = std::fs::read_to_string(root().join("docs/src/SUMMARY.md")).unwrap();
    assert!(
        checked > summary_entries(&summary).len(),
        "only {checked} links checked"
    );
    // The rule docs are in: each rule's page holds its doc's examples, not the include line.
    for rule in RULES {
        let page = out.path().join(format!("rules/{}.html", rule.name));
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            !html.contains("{{#include"),
            "{page:?} kept its include line"
        );
        assert!(
            html.contains("What it catches"),
            "{page:?} does not hold rules/{}.md",
            rule.name
        );
    }
}

/// The checker finds what it is there to find: a missing file, a missing id, a link out of the
/// book; and passes a good link.
#[test]
fn the_link_checker_reports_broken_links() {
    let book = tempfile::tempdir().unwrap();
    std::fs::create_dir(book.path().join("rules")).unwrap();
    std::fs::write(
        book.path().join("index.html"),
        "<html><body><h1 id=\"top\">x</h1>\
         <a href=\"rules/a.html#why-it-breaks-production\">ok</a>\
         <a href='rules/a.html#nowhere'>no id</a>\
         <a href=\"missing.html\">no file</a>\
         <a href=\"../outside.html\">out of the book</a>\
         <a href=\"#top\">self</a>\
         <a href=\"https://kafka.apache.org/#nowhere\">external</a>\
         <!-- <a href=\"commented.html\"> -->\
         <script>var a = '<a href=\"script.html\">';</script>\
         <img src=\"rules/a%2Ehtml\" alt=\"percent-encoded\"></body></html>",
    )
    .unwrap();
    std::fs::write(
        book.path().join("rules/a.html"),
        "<h2 id=\"why-it-breaks-production\">Why</h2><a href=\"../index.html#top\">up</a>",
    )
    .unwrap();
    let (checked, broken) = broken_links(book.path());
    assert_eq!(checked, 7, "{broken:#?}");
    assert_eq!(
        broken,
        [
            "index.html: <a href=\"rules/a.html#nowhere\">: no id `nowhere` in rules/a.html",
            "index.html: <a href=\"missing.html\">: no such file in the book",
            "index.html: <a href=\"../outside.html\">: no such file in the book",
        ]
    );
}

/// The README is the front page (what, why, install, quick start, rules, links): the manual
/// holds the rest, and the front page stays under 12 KB.
#[test]
fn the_readme_is_a_front_page() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.len() < 12_000, "README.md is {} bytes", readme.len());
    let headings: Vec<&str> = readme
        .lines()
        .filter(|line| line.starts_with("## "))
        .collect();
    assert_eq!(
        headings,
        [
            "## Quick start",
            "## Why",
            "## Install",
            "## Rules",
            "## Documentation"
        ]
    );
}

/// The README's first screen (what comes before `## Why`, at most 40 lines) says what kafkalint
/// reads and gives the two commands a newcomer runs: kafkalint on the bundled example, and the
/// tests.
#[test]
fn the_readme_first_screen_says_what_kafkalint_reads_and_how_to_run_it() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let first = &readme[..readme.find("## Why").expect("a Why section")];
    assert!(
        first.lines().count() <= 40,
        "{} lines",
        first.lines().count()
    );
    let flat = first.split_whitespace().collect::<Vec<_>>().join(" ");
    for form in [
        ".properties",
        "compose",
        "Helm",
        "Kubernetes",
        "Strimzi",
        "Confluent",
        "ansible",
        "Terraform",
        "topics",
    ] {
        assert!(flat.contains(form), "the first screen does not name {form}");
    }
    for command in [
        "```sh\ncargo run --release -- check fixtures/seed-zk-3-brokers\n```",
        "```sh\nscripts/test-all\n```",
    ] {
        assert!(first.contains(command), "the first screen lacks {command}");
    }
    assert!(
        flat.contains("`cargo test`"),
        "the first screen lacks cargo test"
    );
}

/// What the README says of the seed's finding is what the rule says, word for word: the
/// message of `internal-topic-replication` on `offsets.topic.replication.factor=1`, as the
/// binary prints it.
#[test]
fn the_readme_words_the_seed_finding_as_the_rule_does() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["check", "--format", "concise", "fixtures/seed-zk-3-brokers"])
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let marker = "error[internal-topic-replication] offsets.topic.replication.factor=1: ";
    let message = stdout
        .lines()
        .find_map(|line| line.split_once(marker).map(|(_, message)| message))
        .unwrap_or_else(|| panic!("no offsets finding in:\n{stdout}"));
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("`{message}`")),
        "README.md does not quote the rule's message `{message}`"
    );
    assert!(
        !flat.contains("every consumer"),
        "README.md says `every consumer`; the rule says `{message}`"
    );
}
