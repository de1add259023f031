//! Which entries a folder walk passes over: what `exclude` names (by default hidden folders,
//! `target` and `node_modules`), what `extend-exclude` and `--exclude` add, and what git
//! ignores or an `.ignore` file names. Patterns are gitignore's, read with the `ignore` crate
//! as ripgrep and ruff read them (ripgrep's rules of precedence: a deeper folder's file wins
//! over its parents', `.ignore` over `.gitignore` over `.git/info/exclude` over git's global
//! excludes, and git's files count inside a git repository only). A path named on the command
//! line is never passed over: only what a walk finds below it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::Match;

use crate::source::absolute;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// What `exclude` is when no config file sets it: hidden folders, a build's `target` and
/// `node_modules`.
pub const DEFAULT_EXCLUDE: &[&str] = &[".*/", "target/", "node_modules/"];

/// Gitignore-style patterns written in one place, relative to the folder they are anchored at
/// (a config file's folder; the working folder for `--exclude`).
#[derive(Clone, Debug)]
pub struct Patterns {
    /// Where they are anchored, and the patterns as written: what makes two equal.
    root: PathBuf,
    written: Vec<String>,
    matcher: Arc<Gitignore>,
}

impl PartialEq for Patterns {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root && self.written == other.written
    }
}

impl Eq for Patterns {}

/// A pattern that is no gitignore pattern: which one (its index), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPattern {
    pub index: usize,
    pub message: String,
}

impl Patterns {
    /// `patterns` anchored at `root`.
    pub fn new(root: &Path, patterns: &[impl AsRef<str>]) -> Result<Self, BadPattern> {
        let root = absolute(root);
        let mut builder = GitignoreBuilder::new(&root);
        for (index, pattern) in patterns.iter().enumerate() {
            builder
                .add_line(None, pattern.as_ref())
                .map_err(|error| BadPattern {
                    index,
                    message: error.to_string(),
                })?;
        }
        let matcher = builder.build().map_err(|error| BadPattern {
            index: 0,
            message: error.to_string(),
        })?;
        Ok(Patterns {
            root,
            written: patterns.iter().map(|p| p.as_ref().to_string()).collect(),
            matcher: Arc::new(matcher),
        })
    }

    fn excludes(&self, path: &Path, is_dir: bool) -> bool {
        self.matcher.matched(path, is_dir).is_ignore()
    }
}

/// What a run's walks pass over besides what git ignores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Excludes {
    /// `exclude`: `None` for [`DEFAULT_EXCLUDE`].
    pub exclude: Option<Patterns>,
    /// `extend-exclude` and `--exclude`.
    pub extend: Vec<Patterns>,
}

impl Excludes {
    /// The filter of one walk.
    pub fn filter(&self) -> Filter<'_> {
        Filter {
            excludes: self,
            default: self.exclude.is_none().then(default_patterns),
            folders: HashMap::new(),
            global: None,
        }
    }
}

fn default_patterns() -> Patterns {
    Patterns::new(Path::new("/"), DEFAULT_EXCLUDE).expect("the default patterns are valid")
}

/// The ignore files that hold for the entries of one folder, nearest first.
#[derive(Debug, Default)]
struct Folder {
    matchers: Vec<Arc<Gitignore>>,
    /// Whether the folder lies in a git repository (git's files count then).
    in_repository: bool,
}

/// One walk's filter: the ignore files it met, read once per folder.
pub struct Filter<'a> {
    excludes: &'a Excludes,
    default: Option<Patterns>,
    folders: HashMap<PathBuf, Arc<Folder>>,
    /// Git's global excludes (`core.excludesFile`), read when a repository is first met.
    global: Option<Gitignore>,
}

impl Filter<'_> {
    /// Whether a walk passes over `path` (found below the path it walks; `is_dir` when a
    /// folder).
    pub fn excludes(&mut self, path: &Path, is_dir: bool) -> bool {
        let path = absolute(path);
        let named = self.default.iter().chain(&self.excludes.exclude);
        if named
            .chain(&self.excludes.extend)
            .any(|patterns| patterns.excludes(&path, is_dir))
        {
            return true;
        }
        let Some(parent) = path.parent() else {
            return false;
        };
        let folder = self.folder(parent);
        for matcher in &folder.matchers {
            match matcher.matched(&path, is_dir) {
                Match::Ignore(_) => return true,
                Match::Whitelist(_) => return false,
                Match::None => {}
            }
        }
        folder.in_repository
            && self
                .global
                .get_or_insert_with(global_excludes)
                .matched(&path, is_dir)
                .is_ignore()
    }

    /// The ignore files of `dir` and of its parents up to its repository's top (all of them
    /// outside a repository), nearest first.
    fn folder(&mut self, dir: &Path) -> Arc<Folder> {
        if let Some(folder) = self.folders.get(dir) {
            return folder.clone();
        }
        let top = dir.join(".git").exists();
        let above = match dir.parent() {
            Some(parent) if !top => self.folder(parent),
            _ => Arc::new(Folder::default()),
        };
        let in_repository = top || above.in_repository;
        let mut builder = GitignoreBuilder::new(dir);
        let mut files = Vec::new();
        if top {
            files.push(dir.join(".git/info/exclude"));
        }
        if in_repository {
            files.push(dir.join(".gitignore"));
        }
        // Last: a later line wins over an earlier one, and `.ignore` over git's files.
        files.push(dir.join(".ignore"));
        let mut any = false;
        for file in files {
            if file.is_file() {
                // A line that is no pattern is passed over, as git passes over it.
                let _ = builder.add(&file);
                any = true;
            }
        }
        let mut matchers = Vec::new();
        if any && let Ok(matcher) = builder.build() {
            matchers.push(Arc::new(matcher));
        }
        matchers.extend(above.matchers.iter().cloned());
        let folder = Arc::new(Folder {
            matchers,
            in_repository,
        });
        self.folders.insert(dir.to_path_buf(), folder.clone());
        folder
    }
}

/// Git's global excludes as `Gitignore::global` reads them: the file a git config's
/// `core.excludesFile` names, else `$XDG_CONFIG_HOME/git/ignore` (`~/.config/git/ignore`).
/// Finding `excludesFile` in a config builds a regular expression, about a seventh of the
/// instructions of a one-file run; when no config the crate reads mentions it, the crate's
/// answer is the default file, and when that is absent the excludes are empty, so neither is
/// built. The files and their order are the crate's (ignore 0.4.35, src/gitignore.rs,
/// `gitconfig_excludes_path`), which matches the key without regard to case.
fn global_excludes() -> Gitignore {
    #[allow(deprecated)] // the crate's own choice of home folder, kept to read what it reads
    let home = std::env::home_dir();
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let config_home = set("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|home| home.join(".config")));
    let configs = [
        set("GIT_CONFIG_GLOBAL").map(PathBuf::from),
        home.as_ref().map(|home| home.join(".gitconfig")),
        config_home.as_ref().map(|folder| folder.join("git/config")),
        Some(
            set("GIT_CONFIG_SYSTEM").map_or_else(|| PathBuf::from("/etc/gitconfig"), PathBuf::from),
        ),
    ];
    let names_a_file = configs.iter().flatten().any(|config| {
        std::fs::read(config).is_ok_and(|text| {
            text.windows(b"excludesfile".len())
                .any(|word| word.eq_ignore_ascii_case(b"excludesfile"))
        })
    });
    let default_exists = config_home.is_some_and(|folder| folder.join("git/ignore").is_file());
    if names_a_file || default_exists {
        Gitignore::global().0
    } else {
        Gitignore::empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let root = std::env::temp_dir().join(format!(
            "kafkalint-excludes-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    #[test]
    fn the_defaults_pass_over_hidden_folders_target_and_node_modules_only() {
        let excludes = Excludes::default();
        let mut filter = excludes.filter();
        let root = tree(&[]);
        assert!(filter.excludes(&root.join(".cache"), true));
        assert!(filter.excludes(&root.join("a/target"), true));
        assert!(filter.excludes(&root.join("node_modules"), true));
        assert!(!filter.excludes(&root.join("target"), false));
        assert!(!filter.excludes(&root.join(".server.properties"), false));
        assert!(!filter.excludes(&root.join("conf"), true));
        std::fs::remove_dir_all(root).ok();
    }

    #[test]
    fn gitignore_counts_in_a_repository_only_and_ignore_files_everywhere() {
        let root = tree(&[
            ("repo/.git/HEAD", ""),
            (
                "repo/.gitignore",
                "old/\n*.bak.properties\n!keep.bak.properties\n",
            ),
            ("repo/conf/.gitignore", "!old/\n"),
            ("plain/.gitignore", "old/\n"),
            ("plain/.ignore", "draft.properties\n"),
        ]);
        let excludes = Excludes::default();
        let mut filter = excludes.filter();
        assert!(filter.excludes(&root.join("repo/old"), true));
        assert!(filter.excludes(&root.join("repo/a/server.bak.properties"), false));
        assert!(!filter.excludes(&root.join("repo/keep.bak.properties"), false));
        // The nearer file wins.
        assert!(!filter.excludes(&root.join("repo/conf/old"), true));
        assert!(!filter.excludes(&root.join("plain/old"), true));
        assert!(filter.excludes(&root.join("plain/draft.properties"), false));
        std::fs::remove_dir_all(root).ok();
    }

    #[test]
    fn exclude_replaces_the_defaults_and_extend_adds() {
        let root = tree(&[]);
        let excludes = Excludes {
            exclude: Some(Patterns::new(&root, &["/legacy"]).unwrap()),
            extend: vec![Patterns::new(&root, &["*.draft.properties"]).unwrap()],
        };
        let mut filter = excludes.filter();
        assert!(filter.excludes(&root.join("legacy"), true));
        assert!(!filter.excludes(&root.join("a/legacy"), true));
        assert!(!filter.excludes(&root.join(".hidden"), true));
        assert!(filter.excludes(&root.join("a/b/x.draft.properties"), false));
        std::fs::remove_dir_all(root).ok();
    }

    #[test]
    fn a_bad_pattern_is_named_by_its_index() {
        let error = Patterns::new(Path::new("/"), &["ok", "a{", "b"]).unwrap_err();
        assert_eq!(error.index, 1);
    }
}
