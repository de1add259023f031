//! `kafkalint.toml`: the default Kafka release, which rules run and at what severity, paths
//! some rules skip, and clusters declared by their files. Every problem in the file is an
//! error that names the file and the line and column of the offending key or value.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobMatcher};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::catalog::KafkaVersion;
use crate::catalog::suggest::nearest;
use crate::diagnostic::Severity;

/// The name kafkalint looks for in a linted path's folder and its parents.
pub const FILE_NAME: &str = "kafkalint.toml";

/// The keys of the file's top table, in the order the docs give them.
pub const TOP_KEYS: &[&str] = &[
    "kafka-version",
    "bitnami-kafka-chart",
    "images",
    "strict",
    "all-topics-declared",
    "exclude",
    "extend-exclude",
    "select",
    "ignore",
    "rules",
    "per-path-ignores",
    "clusters",
];
/// The keys of a `[rules.NAME]` table.
pub const RULE_KEYS: &[&str] = &["severity"];
/// The keys of a `[[clusters]]` entry.
pub const CLUSTER_KEYS: &[&str] = &["name", "files", "topics", "brokers", "kafka-version"];
/// What `severity` may be: the words every output of kafkalint's own prints (`info`, never
/// `note`).
pub const SEVERITIES: &[&str] = &["error", "warning", "info", "off"];
/// What other formats and tools call the `info` severity, for a hint when one is written.
const OTHER_WORDS_FOR_INFO: &[&str] = &["note", "notice", "information", "infos", "hint"];

/// The rules a config file may name, in registry order, each with its group's name
/// (`groups[i]` is the group of `rules[i]`): the rules sit above the config, and pass it
/// `rules::NAMES`.
#[derive(Debug)]
pub struct RuleNames {
    pub rules: &'static [&'static str],
    pub groups: &'static [&'static str],
}

/// A rule chosen by `select` or `ignore`, and whether by its own name (`true`) or its group's:
/// a rule's name wins over its group's, as on the command line.
pub type Chosen = (&'static str, bool);

/// A problem in a config file, at a line and column (1-based) of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{column}: {message}")]
pub struct ConfigError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A cluster declared by its files: `[[clusters]]`.
#[derive(Debug, Clone)]
pub struct DeclaredCluster {
    pub name: String,
    /// The globs as written, relative to the config file's folder.
    pub globs: Vec<String>,
    matchers: Vec<(GlobMatcher, usize)>,
    /// Where each glob is written (line, column), for errors.
    glob_positions: Vec<(usize, usize)>,
    pub brokers: Option<usize>,
    pub kafka_version: Option<KafkaVersion>,
    /// The globs of the files that declare its topics (`topics = ["topics/*.yaml"]`), as written.
    pub topic_globs: Vec<String>,
    topic_matchers: Vec<GlobMatcher>,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// The config file, as it is shown in messages.
    pub path: String,
    /// Its folder: globs are relative to it.
    pub dir: PathBuf,
    pub kafka_version: Option<KafkaVersion>,
    /// `bitnami-kafka-chart`: the bitnami/kafka chart version the values files under the
    /// config's folder are for, where nothing beside them pins one.
    pub bitnami_kafka_chart: Option<String>,
    /// `[images]`: the team's own images, each read as the known image (with its tag) it is
    /// built from.
    pub images: crate::sources::images::Aliases,
    pub strict: bool,
    /// `all-topics-declared`: the topic declarations beside a cluster are all of its topics,
    /// so that `kafkalint live` may say which running topics none declares.
    pub all_topics_declared: bool,
    /// `exclude` (in place of the default) and `extend-exclude`: what folder walks pass over,
    /// gitignore-style patterns relative to the config file's folder.
    pub excludes: crate::source::excludes::Excludes,
    /// `select`: the rules that run (every rule when absent), each named or of a group named.
    pub select: Option<Vec<Chosen>>,
    /// `ignore`: the rules that do not run, as `select`.
    pub ignore: Vec<Chosen>,
    /// `[rules.NAME] severity`: `None` is `off`.
    pub severities: BTreeMap<&'static str, Option<Severity>>,
    per_path_ignores: Vec<(GlobMatcher, Vec<&'static str>)>,
    pub clusters: Vec<DeclaredCluster>,
}

impl Config {
    /// Reads and checks the config file at `path`; `rules` are the names of every rule, in
    /// registry order (`rules::NAMES`: the rules sit above the config, which they may read).
    pub fn load(path: &Path, rules: &RuleNames) -> Result<Config, ConfigError> {
        let shown = display(path);
        let bytes = crate::source::read_file(path).map_err(|error| ConfigError {
            path: shown.clone(),
            line: 1,
            column: 1,
            message: match error.kind() {
                std::io::ErrorKind::NotFound => "no such file".into(),
                std::io::ErrorKind::PermissionDenied => "permission denied".into(),
                std::io::ErrorKind::IsADirectory => "is a directory".into(),
                _ => error.to_string(),
            },
        })?;
        let text = String::from_utf8(bytes).map_err(|error| ConfigError {
            path: shown.clone(),
            line: 1,
            column: 1,
            message: format!(
                "not UTF-8 (byte {} is not valid UTF-8): a TOML file is UTF-8",
                error.utf8_error().valid_up_to() + 1
            ),
        })?;
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Config::parse(&shown, dir, &text, rules)
    }

    /// Checks the config `text` of the file shown as `path`, whose folder is `dir`; `rules`
    /// as for [`Config::load`].
    pub fn parse(
        path: &str,
        dir: PathBuf,
        text: &str,
        rules: &RuleNames,
    ) -> Result<Config, ConfigError> {
        let parser = Parser {
            path,
            dir: &dir,
            text,
            rules,
            line_starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(at, _)| at + 1))
                .collect(),
        };
        let document = DeTable::parse(text).map_err(|error| {
            let message = error.message().trim_end().to_string();
            parser.error(error.span().map_or(0, |span| span.start), message)
        })?;
        let mut config = Config {
            path: path.to_string(),
            dir: dir.clone(),
            kafka_version: None,
            bitnami_kafka_chart: None,
            images: crate::sources::images::Aliases::default(),
            strict: false,
            all_topics_declared: false,
            excludes: crate::source::excludes::Excludes::default(),
            select: None,
            ignore: Vec::new(),
            severities: BTreeMap::new(),
            per_path_ignores: Vec::new(),
            clusters: Vec::new(),
        };
        for (key, value) in in_source_order(document.get_ref()) {
            match key.get_ref().as_ref() {
                "kafka-version" => config.kafka_version = Some(parser.version(value)?),
                "bitnami-kafka-chart" => {
                    config.bitnami_kafka_chart = Some(parser.chart_version(value)?)
                }
                "images" => config.images = parser.images(value)?,
                "strict" => config.strict = parser.boolean("strict", value)?,
                "all-topics-declared" => {
                    config.all_topics_declared = parser.boolean("all-topics-declared", value)?
                }
                "exclude" => config.excludes.exclude = Some(parser.patterns("exclude", value)?),
                "extend-exclude" => {
                    config.excludes.extend = vec![parser.patterns("extend-exclude", value)?]
                }
                "select" => config.select = Some(parser.chosen("select", value)?),
                "ignore" => config.ignore = parser.chosen("ignore", value)?,
                "rules" => {
                    for (name, table) in in_source_order(parser.table("rules", value)?) {
                        let rule = parser.rule_name(name.get_ref(), name.span().start)?;
                        let context = format!("[rules.{rule}]");
                        for (key, value) in in_source_order(parser.table(&context, table)?) {
                            parser.known(key, RULE_KEYS, &context)?;
                            config.severities.insert(rule, parser.severity(value)?);
                        }
                    }
                }
                "per-path-ignores" => {
                    for (glob, names) in in_source_order(parser.table("per-path-ignores", value)?) {
                        let matcher = parser.glob(glob.get_ref(), glob.span().start)?;
                        let context = format!("per-path-ignores.\"{}\"", glob.get_ref());
                        let names = parser.rule_names(&context, names)?;
                        config.per_path_ignores.push((matcher, names));
                    }
                }
                "clusters" => {
                    let DeValue::Array(array) = value.get_ref() else {
                        return Err(parser.error(
                            value.span().start,
                            "`clusters` must be an array of tables: write each as [[clusters]]",
                        ));
                    };
                    let mut names = std::collections::HashSet::new();
                    for item in array {
                        let cluster = parser.cluster(item)?;
                        if !names.insert(cluster.name.clone()) {
                            return Err(parser.error(
                                item.span().start,
                                "this [[clusters]] entry has the name of an earlier one: name each cluster once",
                            ));
                        }
                        config.clusters.push(cluster);
                    }
                }
                _ => return Err(parser.unknown(key, TOP_KEYS, "")),
            }
        }
        parser.some_rule_runs(&config, document.get_ref())?;
        Ok(config)
    }

    /// Whether `rule` runs at all: selected (by its name or its group's), not ignored, not
    /// `off`. Between a rule's name and its group's, the name wins; between `select` and
    /// `ignore` naming it alike, `ignore` does (as `--select` and `--ignore`).
    pub fn runs(&self, rule: &str) -> bool {
        let mut verdict = None;
        for by_name in [false, true] {
            let names = |chosen: &&Chosen| chosen.0 == rule && chosen.1 == by_name;
            if self.select.iter().flatten().any(|chosen| names(&chosen)) {
                verdict = Some(true);
            }
            if self.ignore.iter().any(|chosen| names(&chosen)) {
                verdict = Some(false);
            }
        }
        verdict.unwrap_or(self.select.is_none()) && !matches!(self.severities.get(rule), Some(None))
    }

    /// The severity `rule` reports at: its override, else `default`.
    pub fn severity(&self, rule: &str, default: Severity) -> Severity {
        match self.severities.get(rule) {
            Some(Some(severity)) => *severity,
            _ => default,
        }
    }

    /// Whether `per-path-ignores` turns `rule` off for the file at `path`.
    pub fn ignores_in(&self, rule: &str, path: &Path) -> bool {
        let Some(relative) = relative_to(path, &self.dir) else {
            return false;
        };
        self.per_path_ignores
            .iter()
            .any(|(matcher, names)| names.contains(&rule) && matcher.is_match(&relative))
    }

    /// The files of every declared cluster, found by walking the config file's folder:
    /// `files[cluster]` in walk order. A file that two clusters match is an error.
    pub fn cluster_files(&self, walked: &[PathBuf]) -> Result<Vec<Vec<PathBuf>>, ConfigError> {
        let mut files = vec![Vec::new(); self.clusters.len()];
        let by_prefix = self.globs_by_prefix();
        for path in walked {
            let Some(relative) = relative_to(path, &self.dir) else {
                continue;
            };
            let mut owner: Option<usize> = None;
            for (index, matchers) in self.candidates(&by_prefix, &relative) {
                let cluster = &self.clusters[index];
                let Some(glob) = matchers
                    .iter()
                    .filter(|at| cluster.matchers[**at].0.is_match(&relative))
                    .map(|at| cluster.matchers[*at].1)
                    .next()
                else {
                    continue;
                };
                if let Some(first) = owner {
                    let (line, column) = cluster.glob_positions[glob];
                    return Err(ConfigError {
                        path: self.path.clone(),
                        line,
                        column,
                        message: format!(
                            "`{}` is matched by clusters `{}` and `{}`: a file belongs to one cluster",
                            relative.to_string_lossy().replace('\\', "/"),
                            self.clusters[first].name,
                            cluster.name
                        ),
                    });
                }
                owner = Some(index);
                files[index].push(path.clone());
            }
        }
        Ok(files)
    }
}

impl Config {
    /// The files under the config file's folder that `[[clusters]]` entries name in `topics`:
    /// per cluster, in walk order (the same folders skipped as a walk skips).
    pub fn topic_files(&self) -> Vec<Vec<PathBuf>> {
        let mut files = vec![Vec::new(); self.clusters.len()];
        if self
            .clusters
            .iter()
            .all(|cluster| cluster.topic_matchers.is_empty())
        {
            return files;
        }
        let mut filter = self.excludes.filter();
        let walker = walkdir::WalkDir::new(&self.dir)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0 || !filter.excludes(entry.path(), entry.file_type().is_dir())
            });
        for entry in walker.filter_map(Result::ok) {
            if !entry.file_type().is_file() {
                continue;
            }
            let Some(relative) = relative_to(entry.path(), &self.dir) else {
                continue;
            };
            let owner = self.clusters.iter().position(|cluster| {
                cluster
                    .topic_matchers
                    .iter()
                    .any(|matcher| matcher.is_match(&relative))
            });
            if let Some(owner) = owner {
                files[owner].push(entry.path().to_path_buf());
            }
        }
        files
    }
}

/// Every glob of every cluster by the literal text it starts with (before its first
/// wildcard): a file is tried against the globs whose literal start it has, not against every
/// cluster (a file of many clusters would make the walk quadratic).
type ByPrefix<'a> = std::collections::HashMap<&'a str, Vec<(usize, usize)>>;

impl Config {
    fn globs_by_prefix(&self) -> ByPrefix<'_> {
        let mut by_prefix: ByPrefix = std::collections::HashMap::new();
        for (index, cluster) in self.clusters.iter().enumerate() {
            for (at, (_, glob)) in cluster.matchers.iter().enumerate() {
                let pattern = cluster.globs[*glob].as_str();
                let literal = pattern
                    .find(['*', '?', '[', '{', '\\'])
                    .map_or(pattern, |end| &pattern[..end]);
                by_prefix.entry(literal).or_default().push((index, at));
            }
        }
        by_prefix
    }

    /// The clusters whose globs may match `relative`, in cluster order, each with the indices
    /// of those globs in order.
    fn candidates(&self, by_prefix: &ByPrefix, relative: &Path) -> Vec<(usize, Vec<usize>)> {
        let text = relative.to_string_lossy().replace('\\', "/");
        let mut found: Vec<(usize, usize)> = (0..=text.len())
            .filter(|end| text.is_char_boundary(*end))
            .filter_map(|end| by_prefix.get(&text[..end]))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        let mut clusters: Vec<(usize, Vec<usize>)> = Vec::new();
        for (index, at) in found {
            match clusters.last_mut() {
                Some((last, globs)) if *last == index => globs.push(at),
                _ => clusters.push((index, vec![at])),
            }
        }
        clusters
    }
}

/// The `kafkalint.toml` nearest to `path`: in its folder (or in it, when it is a folder) or
/// the closest parent folder. Shown relative to the current folder when it is below it.
pub fn find(path: &Path) -> Option<PathBuf> {
    let absolute = absolute(path);
    let start = if absolute.is_dir() {
        absolute.as_path()
    } else {
        absolute.parent()?
    };
    let found = start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        // Any file but a folder: a named pipe called kafkalint.toml is refused when read, not
        // passed over for a config file further up.
        .find(|candidate| {
            candidate
                .metadata()
                .is_ok_and(|metadata| !metadata.is_dir())
        })?;
    let cwd = absolute_cwd();
    Some(match found.strip_prefix(cwd) {
        Ok(relative) => relative.to_path_buf(),
        Err(_) => {
            // Above the current folder: `../kafkalint.toml`, as a person would write it.
            let dir = found.parent().unwrap_or(Path::new("/"));
            match cwd.strip_prefix(dir) {
                Ok(below) => {
                    let mut up = PathBuf::new();
                    for _ in below.components() {
                        up.push("..");
                    }
                    up.join(FILE_NAME)
                }
                Err(_) => found,
            }
        }
    })
}

pub use crate::source::absolute;
use crate::source::absolute_cwd;

/// `path` relative to `dir`, when it lies below it.
fn relative_to(path: &Path, dir: &Path) -> Option<PathBuf> {
    absolute(path)
        .strip_prefix(absolute(dir))
        .ok()
        .map(Path::to_path_buf)
}

fn display(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    text.strip_prefix("./").map(str::to_string).unwrap_or(text)
}

type Entry<'a, 'i> = (
    &'a Spanned<toml::de::DeString<'i>>,
    &'a Spanned<DeValue<'i>>,
);

/// A table's entries in the order they are written (the parser's map sorts them by key).
fn in_source_order<'a, 'i>(table: &'a DeTable<'i>) -> Vec<Entry<'a, 'i>> {
    let mut entries: Vec<Entry> = table.iter().collect();
    entries.sort_by_key(|(key, _)| key.span().start);
    entries
}

struct Parser<'a> {
    path: &'a str,
    /// The config file's folder: patterns are anchored at it.
    dir: &'a Path,
    text: &'a str,
    /// Every rule name, with its group's, in registry order.
    rules: &'a RuleNames,
    /// Where each line starts: a position is found by search, not by counting lines from the
    /// top (a file of many clusters asks for the position of every glob).
    line_starts: Vec<usize>,
}

impl Parser<'_> {
    fn error(&self, offset: usize, message: impl Into<String>) -> ConfigError {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|start| *start <= offset);
        let line_start = self.line_starts[line - 1];
        ConfigError {
            path: self.path.to_string(),
            line,
            column: self.text[line_start..offset].chars().count() + 1,
            message: message.into(),
        }
    }

    fn unknown(
        &self,
        key: &Spanned<toml::de::DeString>,
        known: &[&'static str],
        context: &str,
    ) -> ConfigError {
        let name = key.get_ref();
        let within = if context.is_empty() {
            String::new()
        } else {
            format!(" in {context}")
        };
        let hint = nearest(name, known.iter().copied())
            .map(|near| format!("; did you mean `{near}`?"))
            .unwrap_or_else(|| format!(" (known: {})", known.join(", ")));
        self.error(
            key.span().start,
            format!("unknown setting `{name}`{within}{hint}"),
        )
    }

    fn known(
        &self,
        key: &Spanned<toml::de::DeString>,
        known: &[&'static str],
        context: &str,
    ) -> Result<(), ConfigError> {
        if known.contains(&key.get_ref().as_ref()) {
            Ok(())
        } else {
            Err(self.unknown(key, known, context))
        }
    }

    fn string<'v>(&self, name: &str, value: &'v Spanned<DeValue>) -> Result<&'v str, ConfigError> {
        match value.get_ref() {
            DeValue::String(text) => Ok(text.as_ref()),
            _ => Err(self.error(value.span().start, format!("`{name}` must be a string"))),
        }
    }

    fn boolean(&self, name: &str, value: &Spanned<DeValue>) -> Result<bool, ConfigError> {
        match value.get_ref() {
            DeValue::Boolean(flag) => Ok(*flag),
            _ => Err(self.error(
                value.span().start,
                format!("`{name}` must be true or false"),
            )),
        }
    }

    fn table<'v, 'i>(
        &self,
        name: &str,
        value: &'v Spanned<DeValue<'i>>,
    ) -> Result<&'v DeTable<'i>, ConfigError> {
        match value.get_ref() {
            DeValue::Table(table) => Ok(table),
            _ => Err(self.error(value.span().start, format!("`{name}` must be a table"))),
        }
    }

    fn strings<'v>(
        &self,
        name: &str,
        value: &'v Spanned<DeValue>,
    ) -> Result<Vec<(&'v str, usize)>, ConfigError> {
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.error(
                value.span().start,
                format!("`{name}` must be an array of strings"),
            ));
        };
        items
            .iter()
            .map(|item| match item.get_ref() {
                DeValue::String(text) => Ok((text.as_ref(), item.span().start)),
                _ => Err(self.error(
                    item.span().start,
                    format!("`{name}` must be an array of strings"),
                )),
            })
            .collect()
    }

    fn version(&self, value: &Spanned<DeValue>) -> Result<KafkaVersion, ConfigError> {
        let text = self.string("kafka-version", value)?;
        // The error names no value of the file (it may hold anything, a secret included): the
        // line and column point at it.
        KafkaVersion::parse(text).map_err(|_| {
            self.error(
                value.span().start,
                format!(
                    "kafka-version: not a Kafka release kafkalint knows ({})",
                    crate::catalog::supported_list()
                ),
            )
        })
    }

    /// A chart version (`26.4.0`, `26`): its first part a number.
    /// `[images]`: `"<the team's image>" = "<known image>:<tag>"`, each checked.
    fn images(
        &self,
        value: &Spanned<DeValue>,
    ) -> Result<crate::sources::images::Aliases, ConfigError> {
        use crate::sources::images::Aliases;
        let mut images = Aliases::default();
        for (name, known) in in_source_order(self.table("images", value)?) {
            let declared: &str = name.get_ref().as_ref();
            if let Some(why) = Aliases::refuse_name(declared) {
                return Err(self.error(name.span().start, format!("[images]: {why}")));
            }
            if images
                .entries()
                .iter()
                .any(|(earlier, _)| earlier == declared)
            {
                return Err(self.error(
                    name.span().start,
                    format!("[images]: `{declared}` is named twice: name each image once"),
                ));
            }
            let context = format!("images.\"{declared}\"");
            let known_text = self.string(&context, known)?.trim();
            if let Some(why) = Aliases::refuse_target(known_text) {
                return Err(self.error(known.span().start, format!("[images]: {why}")));
            }
            images.insert(declared, known_text);
        }
        Ok(images)
    }

    fn chart_version(&self, value: &Spanned<DeValue>) -> Result<String, ConfigError> {
        let text = self.string("bitnami-kafka-chart", value)?.trim();
        let major = text.split('.').next().unwrap_or_default();
        if major.is_empty() || !major.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(self.error(
                value.span().start,
                "bitnami-kafka-chart: not a chart version (such as `26.4.0`)",
            ));
        }
        Ok(text.to_string())
    }

    fn rule_name(&self, name: &str, offset: usize) -> Result<&'static str, ConfigError> {
        match self.rules.rules.iter().find(|rule| **rule == name) {
            Some(rule) => Ok(*rule),
            None => {
                let hint = nearest(name, self.rules.rules.iter().copied())
                    .map(|near| format!("; did you mean `{near}`?"))
                    .unwrap_or_else(|| " (`kafkalint rules` lists them)".into());
                Err(self.error(offset, format!("no rule of that name{hint}")))
            }
        }
    }

    /// Gitignore-style patterns, anchored at the config file's folder.
    fn patterns(
        &self,
        name: &str,
        value: &Spanned<DeValue>,
    ) -> Result<crate::source::excludes::Patterns, ConfigError> {
        let patterns = self.strings(name, value)?;
        let texts: Vec<&str> = patterns.iter().map(|(text, _)| *text).collect();
        crate::source::excludes::Patterns::new(self.dir, &texts).map_err(|bad| {
            let offset = patterns
                .get(bad.index)
                .map_or(value.span().start, |at| at.1);
            self.error(
                offset,
                format!("not a gitignore-style pattern: {}", bad.message),
            )
        })
    }

    /// `select` or `ignore`: rule names and group names (a group stands for its rules).
    fn chosen(&self, name: &str, value: &Spanned<DeValue>) -> Result<Vec<Chosen>, ConfigError> {
        let mut chosen = Vec::new();
        for (text, offset) in self.strings(name, value)? {
            if let Some(rule) = self.rules.rules.iter().find(|rule| **rule == text) {
                chosen.push((*rule, true));
                continue;
            }
            let members: Vec<Chosen> = self
                .rules
                .rules
                .iter()
                .zip(self.rules.groups)
                .filter(|(_, group)| **group == text)
                .map(|(rule, _)| (*rule, false))
                .collect();
            if members.is_empty() {
                let mut groups: Vec<&str> = self.rules.groups.to_vec();
                groups.dedup();
                let names = self.rules.rules.iter().chain(&groups).copied();
                let hint = nearest(text, names)
                    .map(|near| format!("; did you mean `{near}`?"))
                    .unwrap_or_else(|| {
                        " (`kafkalint rules` lists the rules and their groups)".into()
                    });
                return Err(self.error(offset, format!("no rule or rule group of that name{hint}")));
            }
            chosen.extend(members);
        }
        Ok(chosen)
    }

    /// An error at `select` (else `ignore`, else the first `[rules.NAME]`) when the file leaves
    /// no rule to run: a check that can find nothing is a mistake, not a clean result. A rule
    /// of the `strict` group counts with `strict = true` only.
    fn some_rule_runs(&self, config: &Config, document: &DeTable) -> Result<(), ConfigError> {
        let runs = self
            .rules
            .rules
            .iter()
            .zip(self.rules.groups)
            .any(|(rule, group)| (*group != "strict" || config.strict) && config.runs(rule));
        if runs {
            return Ok(());
        }
        let offset = ["select", "ignore", "rules"]
            .iter()
            .find_map(|key| document.get_key_value(*key))
            .map_or(0, |(key, _)| key.span().start);
        Err(self.error(
            offset,
            "`select`, `ignore` and `[rules]` leave no rule to run, so nothing would be checked: \
             select a rule or a group (`kafkalint rules` lists them)",
        ))
    }

    fn rule_names(
        &self,
        name: &str,
        value: &Spanned<DeValue>,
    ) -> Result<Vec<&'static str>, ConfigError> {
        self.strings(name, value)?
            .into_iter()
            .map(|(rule, offset)| self.rule_name(rule, offset))
            .collect()
    }

    fn severity(&self, value: &Spanned<DeValue>) -> Result<Option<Severity>, ConfigError> {
        let text = self.string("severity", value)?;
        match text {
            "error" => Ok(Some(Severity::Error)),
            "warning" => Ok(Some(Severity::Warning)),
            "info" => Ok(Some(Severity::Info)),
            "off" => Ok(None),
            _ => {
                // Other tools' words for the least severity (SARIF's `note`, GitHub's
                // `notice`, LSP's `information`) are refused, not read as `info`: kafkalint
                // has one word for each severity, in its config as in its output.
                let hint = if OTHER_WORDS_FOR_INFO.contains(&text.to_ascii_lowercase().as_str()) {
                    Some("info")
                } else {
                    nearest(text, SEVERITIES.iter().copied())
                };
                let hint = hint
                    .map(|near| format!("; did you mean `{near}`?"))
                    .unwrap_or_default();
                Err(self.error(
                    value.span().start,
                    format!("severity is none of {}{hint}", SEVERITIES.join(", ")),
                ))
            }
        }
    }

    fn glob(&self, pattern: &str, offset: usize) -> Result<GlobMatcher, ConfigError> {
        build_glob(pattern)
            .map(|glob| glob.compile_matcher())
            .map_err(|error| self.error(offset, format!("invalid glob: {}", error.kind())))
    }

    fn cluster(&self, item: &Spanned<DeValue>) -> Result<DeclaredCluster, ConfigError> {
        let table = self.table("clusters", item)?;
        let mut name = None;
        let mut globs = Vec::new();
        let mut glob_positions = Vec::new();
        let mut matchers = Vec::new();
        let mut brokers = None;
        let mut kafka_version = None;
        let mut has_files = false;
        let mut topic_globs = Vec::new();
        let mut topic_matchers = Vec::new();
        for (key, value) in in_source_order(table) {
            match key.get_ref().as_ref() {
                "name" => name = Some(self.string("name", value)?.to_string()),
                "files" => {
                    has_files = true;
                    for (pattern, offset) in self.strings("files", value)? {
                        matchers.push((self.glob(pattern, offset)?, globs.len()));
                        globs.push(pattern.to_string());
                        let at = self.error(offset, "");
                        glob_positions.push((at.line, at.column));
                    }
                }
                "brokers" => {
                    let count = match value.get_ref() {
                        DeValue::Integer(integer) if integer.radix() == 10 => {
                            integer.as_str().replace('_', "").parse::<usize>().ok()
                        }
                        _ => None,
                    };
                    brokers = Some(count.filter(|n| *n >= 1).ok_or_else(|| {
                        self.error(
                            value.span().start,
                            "`brokers` must be a whole number of at least 1",
                        )
                    })?);
                }
                "kafka-version" => kafka_version = Some(self.version(value)?),
                "topics" => {
                    for (pattern, offset) in self.strings("topics", value)? {
                        topic_matchers.push(self.glob(pattern, offset)?);
                        topic_globs.push(pattern.to_string());
                    }
                }
                _ => return Err(self.unknown(key, CLUSTER_KEYS, "[[clusters]]")),
            }
        }
        let name = name
            .ok_or_else(|| self.error(item.span().start, "a [[clusters]] entry needs a `name`"))?;
        if !has_files {
            return Err(self.error(
                item.span().start,
                "a [[clusters]] entry needs `files`: globs of its node files",
            ));
        }
        Ok(DeclaredCluster {
            name,
            globs,
            matchers,
            glob_positions,
            brokers,
            kafka_version,
            topic_globs,
            topic_matchers,
        })
    }
}

/// A glob as `.gitignore` reads one: `*` stays within a folder, `**` crosses folders.
fn build_glob(pattern: &str) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern).literal_separator(true).build()
}
