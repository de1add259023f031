//! `kafka-topics --create` command lines in shell scripts (`create-topics.sh`):
//!
//! ```sh
//! kafka-topics.sh --bootstrap-server kafka:9092 --create --if-not-exists \
//!   --topic orders --partitions 6 --replication-factor 3 \
//!   --config retention.ms=604800000 --config min.insync.replicas=2
//! ```
//!
//! The options are TopicCommand's (apache/kafka `tools/src/main/java/org/apache/kafka/tools/
//! TopicCommand.java` from 3.5, `core/src/main/scala/kafka/admin/TopicCommand.scala` before):
//! `--topic`, `--partitions`, `--replication-factor`, `--config k=v` (repeatable),
//! `--replica-assignment` (refused with `--create` together with `--partitions` or
//! `--replication-factor`: `checkInvalidArgs(parser, options, replicaAssignmentOpt,
//! partitionsOpt, replicationFactorOpt)`), `--if-not-exists`. A factor or a partition count
//! left out is sent as "none" (`Optional.empty()`, -1 in CreateTopics): the broker's
//! `default.replication.factor` and `num.partitions` apply.
//!
//! A value written as a variable (`$RF`, `"${TOPIC}"`) is known only when the script sets it
//! to a literal text on a line of its own above (`RF=3`), outside any loop or condition;
//! otherwise it is unknown, and what depends on it is not judged. A loop's variable
//! (`for t in a b; do kafka-topics --create --topic $t ...`) is unknown.

use super::declared::{ClusterRef, DeclaredTopic, TopicFile, TopicForm, TopicSetting, Written};
use crate::properties::Span;

/// Whether the file at `path` may hold `kafka-topics --create` lines: a `.sh` script that
/// names the tool.
pub fn worth_reading(path: &str, bytes: &[u8]) -> bool {
    is_script_name(path) && memchr::memmem::find(bytes, b"kafka-topics").is_some()
}

/// Whether `path` names a shell script.
pub fn is_script_name(path: &str) -> bool {
    path.rsplit('/').next().unwrap_or(path).ends_with(".sh")
}

/// The topics the `kafka-topics --create` commands of a shell script declare.
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let in_place = |span: Span| (span, true);
    let script = Embedding {
        environment: &[],
        opaque: &[],
        locate: &in_place,
    };
    read_script(text, 0..text.len(), &mut read, 0, &script);
    read.hidden = hidden(text, &read.topics);
    read
}

/// Where a script's text comes from and what its shell starts with: a script a file holds as
/// it is (a `.sh` file), or one a YAML value holds (a compose service's or a Kubernetes
/// container's command), whose text is not the file's bytes.
pub(super) struct Embedding<'a> {
    /// The variables the shell starts with that have literal values (the container's
    /// environment).
    pub environment: &'a [(String, String)],
    /// Variables whose `$NAME` something else replaces before the shell runs (compose
    /// interpolation): never known, whatever the script sets.
    pub opaque: &'a [String],
    /// The file span of a range of the text, and whether the file holds that range byte for
    /// byte (only then may a fix write there).
    pub locate: &'a dyn Fn(Span) -> (Span, bool),
}

/// The topics and notes of a script whose text a YAML value holds (see [`Embedding`]).
pub(super) fn read_embedded(text: &str, script: &Embedding) -> TopicFile {
    let mut read = TopicFile::default();
    read_script(text, 0..text.len(), &mut read, 0, script);
    read
}

/// `written` placed in the file.
fn relocate(written: &mut Written, script: &Embedding) {
    let (span, exact) = (script.locate)(written.span.clone());
    written.span = span;
    written.literal &= exact;
}

/// `topic`, read from a script's text, placed in the file.
fn relocate_topic(topic: &mut DeclaredTopic, script: &Embedding) {
    relocate(&mut topic.name, script);
    topic.declared_at = (script.locate)(topic.declared_at.clone()).0;
    for written in [&mut topic.partitions, &mut topic.replicas]
        .into_iter()
        .flatten()
    {
        relocate(written, script);
    }
    for setting in &mut topic.configs {
        setting.key_span = (script.locate)(setting.key_span.clone()).0;
        relocate(&mut setting.value, script);
    }
    if let Some(ClusterRef::Service { span, .. }) = &mut topic.cluster {
        *span = (script.locate)(span.clone()).0;
    }
}

/// `docker compose exec [OPTIONS] SERVICE` (or `docker-compose exec`) before the tool: the
/// service the command runs in.
fn compose_exec_service(before: &[Word]) -> Option<ClusterRef> {
    let exec = before.iter().position(|word| word.text == "exec")?;
    let compose = exec > 0
        && (before[exec - 1].text == "docker-compose"
            || before[exec - 1].text == "compose" && exec > 1 && before[exec - 2].text == "docker");
    if !compose {
        return None;
    }
    // docker compose exec's options that take a value (docker/compose `cmd/compose/exec.go`).
    const TAKES_VALUE: &[&str] = &["-e", "--env", "-u", "--user", "-w", "--workdir", "--index"];
    let mut at = exec + 1;
    while let Some(word) = before.get(at) {
        if !word.text.starts_with('-') {
            return service_ref(word);
        }
        at += if TAKES_VALUE.contains(&word.text.as_str()) {
            2
        } else {
            1
        };
    }
    None
}

/// A word naming a compose service, as a reference; `None` when it is not a plain name.
fn service_ref(word: &Word) -> Option<ClusterRef> {
    let plain = !word.text.is_empty()
        && !word.expands
        && word
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    plain.then(|| ClusterRef::Service {
        name: word.text.clone(),
        span: word.span.clone(),
    })
}

/// How deep `sh -c '...'` scripts are followed into one another.
const MAX_NESTED_SCRIPTS: usize = 4;

/// Reads the script written at `range` of `text` into `read`.
fn read_script(text: &str, range: Span, read: &mut TopicFile, depth: usize, script: &Embedding) {
    let mut variables = Variables {
        known: script.environment.to_vec(),
        opaque: script.opaque.to_vec(),
        depth: 0,
    };
    for statement in statements(text, range) {
        variables.follow(&statement);
        // `docker exec kafka sh -c 'kafka-topics --create ...'`: the script the shell runs,
        // when its bytes are its text.
        if let Some(nested) = nested_script(&statement).filter(|_| depth < MAX_NESTED_SCRIPTS) {
            let before = read.topics.len();
            read_script(text, nested, read, depth + 1, script);
            // `docker compose exec kafka bash -c '...'`: the topics of the script are the
            // service's.
            if let Some(ClusterRef::Service { name, span }) = compose_exec_service(&statement) {
                let span = (script.locate)(span).0;
                for topic in &mut read.topics[before..] {
                    topic.cluster = Some(ClusterRef::Service {
                        name: name.clone(),
                        span: span.clone(),
                    });
                }
            }
            continue;
        }
        let Some(tool) = statement.iter().position(is_kafka_topics) else {
            continue;
        };
        let arguments = &statement[tool + 1..];
        if !arguments.iter().any(|word| word.text == "--create") {
            continue;
        }
        match command(&statement[tool], arguments, &variables) {
            Some(mut topic) => {
                if let Some(service) = compose_exec_service(&statement[..tool]) {
                    topic.cluster = Some(service);
                }
                relocate_topic(&mut topic, script);
                read.topics.push(topic);
            }
            None => read.notes.push(format!(
                "a kafka-topics --create command at byte {} names no --topic: not read",
                (script.locate)(statement[tool].span.clone()).0.start
            )),
        }
    }
}

/// The bytes of the script a `sh -c SCRIPT` (`bash -ec`, ...) of the statement runs, when it
/// names kafka-topics and is written as it is (single quotes, or double quotes without
/// expansions or escapes).
fn nested_script(statement: &[Word]) -> Option<Span> {
    let shell = statement.iter().position(|word| {
        let name = word.text.rsplit('/').next().unwrap_or_default();
        matches!(name, "sh" | "bash" | "ash" | "dash")
    })?;
    let rest = &statement[shell + 1..];
    let flag = rest
        .iter()
        .position(|word| word.text.starts_with('-') && word.text.contains('c'))?;
    let script = rest.get(flag + 1)?;
    script
        .text
        .contains("kafka-topics")
        .then(|| script.exact.clone())
        .flatten()
}

/// What output hides of the script: what the start-up scripts' judge hides, but for the
/// values read here (a topic's name, its counts, its non-secret configs), which the findings
/// point at.
fn hidden(text: &str, topics: &[DeclaredTopic]) -> Vec<Span> {
    let mut lines = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        lines.push((start..start + body.len(), body));
        start += line.len();
    }
    let shown: Vec<&Span> = topics
        .iter()
        .flat_map(|topic| {
            let counts = [&topic.partitions, &topic.replicas].into_iter().flatten();
            let configs = topic
                .configs
                .iter()
                .filter(|setting| crate::secrets::may_show(&setting.key, &setting.value.text))
                .flat_map(|setting| [&setting.key_span, &setting.value.span]);
            std::iter::once(&topic.name.span)
                .chain(counts.map(|written| &written.span))
                .chain(configs)
        })
        .collect();
    let hidden = crate::sources::kubernetes::shell_redact::hidden_spans(&lines);
    super::declared::uncover(hidden, &shown)
}

/// One shell word: its text after quote removal, and where it is written.
#[derive(Debug, Clone)]
struct Word {
    text: String,
    /// The whole word as written (quotes included).
    span: Span,
    /// The bytes that hold `text` exactly, when some do (`'a b'` -> the bytes inside the quotes).
    exact: Option<Span>,
    /// Whether it expands something (`$X`, `$(...)`, a backquote) the shell fills in.
    expands: bool,
    /// The variable the word is, whole (`$X`, `${X}`, `"$X"`).
    variable: Option<String>,
}

fn is_kafka_topics(word: &Word) -> bool {
    let name = word.text.rsplit('/').next().unwrap_or_default();
    matches!(name, "kafka-topics" | "kafka-topics.sh")
}

/// Variables the script sets to a literal value, on their own statement, outside any loop or
/// condition.
#[derive(Default)]
struct Variables {
    known: Vec<(String, String)>,
    /// Never known (see [`Embedding::opaque`]).
    opaque: Vec<String>,
    /// Inside `for`/`while`/`if`... up to its `done`/`fi`: an assignment there may or may not run.
    depth: usize,
}

impl Variables {
    fn follow(&mut self, statement: &[Word]) {
        let Some(first) = statement.first() else {
            return;
        };
        match first.text.as_str() {
            "for" | "while" | "until" | "if" | "case" | "select" => self.depth += 1,
            "done" | "fi" | "esac" => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        // `for NAME in ...`, `read NAME...`: set to what kafkalint does not know.
        if matches!(first.text.as_str(), "for" | "select") {
            self.forget(statement.get(1).map(|word| word.text.as_str()));
        }
        for (at, word) in statement.iter().enumerate() {
            if word.text == "read" && (at == 0 || is_keyword(&statement[at - 1].text)) {
                for name in &statement[at + 1..] {
                    self.forget(Some(name.text.as_str()));
                }
            }
        }
        let exported = first.text == "export" || first.text == "readonly";
        let assignments = &statement[usize::from(exported)..];
        if assignments.is_empty() || !assignments.iter().all(|word| assignment(word).is_some()) {
            return;
        }
        for word in assignments {
            let (name, value) = assignment(word).expect("checked above");
            self.forget(Some(name));
            if self.depth == 0 && !word.expands {
                self.known.push((name.to_string(), value.to_string()));
            }
        }
    }

    fn forget(&mut self, name: Option<&str>) {
        if let Some(name) = name {
            self.known.retain(|(known, _)| known != name);
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        if self.opaque.iter().any(|opaque| opaque == name) {
            return None;
        }
        self.known
            .iter()
            .rev()
            .find(|(known, _)| known == name)
            .map(|(_, value)| value.as_str())
    }
}

fn is_keyword(word: &str) -> bool {
    matches!(word, "do" | "then" | "else" | "while" | "until" | "!")
}

/// `NAME=value` as a word: the name and the value (after quote removal).
fn assignment(word: &Word) -> Option<(&str, &str)> {
    let (name, value) = word.text.split_once('=')?;
    let mut chars = name.chars();
    let starts = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    (starts && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some((name, value))
}

/// TopicCommand's options that take a value (the ones of `--create` and those a create line
/// carries along); any other `--name` is taken as a flag.
const TAKES_VALUE: &[&str] = &[
    "--topic",
    "--partitions",
    "--replication-factor",
    "--config",
    "--replica-assignment",
    "--bootstrap-server",
    "--zookeeper",
    "--command-config",
    "--topic-id",
    "--delete-config",
];

/// The topic one `kafka-topics ... --create` command declares; `None` without `--topic`.
fn command(tool: &Word, arguments: &[Word], variables: &Variables) -> Option<DeclaredTopic> {
    let mut topic = DeclaredTopic {
        file: 0,
        form: TopicForm::KafkaTopicsCommand,
        name: Written::unknown("", tool.span.clone()),
        declared_at: tool.span.clone(),
        partitions: None,
        replicas: None,
        configs: Vec::new(),
        cluster: None,
    };
    let mut named = false;
    let mut assignment = None;
    let mut at = 0;
    while at < arguments.len() {
        let word = &arguments[at];
        at += 1;
        let (option, value) = match word.text.split_once('=') {
            Some((option, _)) if option.starts_with("--") => {
                (option, Some(suffix(word, option.len() + 1)))
            }
            _ if TAKES_VALUE.contains(&word.text.as_str()) => {
                let value = arguments.get(at).map(|value| whole(value, variables));
                at += 1;
                (word.text.as_str(), value)
            }
            _ => continue,
        };
        let Some(value) = value else { continue };
        match option {
            "--topic" => {
                topic.name = value;
                named = true;
            }
            "--partitions" => topic.partitions = Some(value),
            "--replication-factor" => topic.replicas = Some(value),
            "--replica-assignment" => assignment = Some(value),
            "--bootstrap-server" => topic.cluster = bootstrap_service(&value),
            "--config" => topic.configs.extend(setting(value)),
            _ => {}
        }
    }
    // `--replica-assignment 0:1:2,1:2:0`: the factor is the replica count of each partition.
    if let Some(assignment) = assignment {
        topic.replicas = Some(assigned_factor(&assignment));
    }
    named.then_some(topic)
}

/// The host of the first address of `--bootstrap-server`, as a compose service it may name;
/// `None` for an address of the machine itself or one not known.
fn bootstrap_service(value: &Written) -> Option<ClusterRef> {
    if !value.known {
        return None;
    }
    let first = value.text.split(',').next().unwrap_or_default().trim();
    let host = first.rsplit_once(':').map_or(first, |(host, _)| host);
    let plain = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    (plain && !matches!(host, "localhost" | "127.0.0.1" | "0.0.0.0")).then(|| ClusterRef::Service {
        name: host.to_string(),
        span: value.span.clone(),
    })
}

/// The factor a `--replica-assignment` gives: its first partition's replica count, with the
/// list's span (not a number a fix may replace).
fn assigned_factor(assignment: &Written) -> Written {
    let first = assignment.text.split(',').next().unwrap_or_default();
    let count = first.split(':').filter(|id| !id.trim().is_empty()).count();
    Written {
        text: count.to_string(),
        span: assignment.span.clone(),
        known: assignment.known,
        literal: false,
    }
}

/// `--config key=value` as a setting; `None` when the key is not written as it is.
fn setting(value: Written) -> Option<TopicSetting> {
    let (key, rest) = value.text.split_once('=')?;
    if !value.literal {
        // `--config "$SETTING"`, `--config retention.ms=$RETENTION`: the key must still be
        // readable; the value is unknown.
        if !value.known && key.contains('$') {
            return None;
        }
        return Some(TopicSetting {
            key: key.to_string(),
            key_span: value.span.clone(),
            value: Written {
                text: rest.to_string(),
                ..value.clone()
            },
        });
    }
    let key_end = value.span.start + key.len();
    Some(TopicSetting {
        key: key.to_string(),
        key_span: value.span.start..key_end,
        value: Written::literal(rest, key_end + 1..value.span.end),
    })
}

/// A whole word as a value.
fn whole(word: &Word, variables: &Variables) -> Written {
    if let Some(name) = &word.variable {
        return match variables.get(name) {
            Some(value) => Written {
                text: value.to_string(),
                span: word.span.clone(),
                known: true,
                literal: false,
            },
            None => Written::unknown(word.text.clone(), word.span.clone()),
        };
    }
    if word.expands {
        return Written::unknown(word.text.clone(), word.span.clone());
    }
    match &word.exact {
        Some(span) => Written::literal(word.text.clone(), span.clone()),
        None => Written {
            text: word.text.clone(),
            span: word.span.clone(),
            known: true,
            literal: false,
        },
    }
}

/// The value of `--option=value`, from byte `skip` of the word's text.
fn suffix(word: &Word, skip: usize) -> Written {
    let text = word.text[skip..].to_string();
    match &word.exact {
        Some(span) => Written::literal(text, span.start + skip..span.end),
        None => Written {
            text,
            span: word.span.clone(),
            known: !word.expands,
            literal: false,
        },
    }
}

/// The script's simple commands, each as its words: split at newlines, `;`, `&`, `|` and
/// parentheses outside quotes, with line continuations joined and comments dropped.
fn statements(text: &str, range: Span) -> Vec<Vec<Word>> {
    let mut lexer = Lexer {
        // Up to the range's end only: what lies after is not this script's.
        text: &text[..range.end],
        statements: Vec::new(),
        words: Vec::new(),
        word: None,
    };
    lexer.run(range.start);
    lexer.statements
}

struct Lexer<'a> {
    text: &'a str,
    statements: Vec<Vec<Word>>,
    words: Vec<Word>,
    word: Option<Partial>,
}

/// A word being read.
struct Partial {
    start: usize,
    text: String,
    expands: bool,
    /// Whether a backslash escape or a joined continuation changed it from its bytes.
    escaped: bool,
}

impl Lexer<'_> {
    fn run(&mut self, start: usize) {
        let bytes = self.text.as_bytes();
        let mut at = start;
        while at < bytes.len() {
            let c = self.text[at..].chars().next().expect("in bounds");
            match c {
                '\\' if bytes.get(at + 1) == Some(&b'\n') => {
                    if let Some(word) = &mut self.word {
                        word.escaped = true;
                    }
                    at += 2;
                }
                '\\' => {
                    let next = self.text[at + 1..].chars().next();
                    let word = self.partial(at);
                    word.escaped = true;
                    word.text.extend(next);
                    at += 1 + next.map_or(0, char::len_utf8);
                }
                '\'' => {
                    let end = self.text[at + 1..]
                        .find('\'')
                        .map_or(bytes.len(), |end| at + 1 + end);
                    let inner = self.text[at + 1..end].to_string();
                    self.partial(at).text.push_str(&inner);
                    at = (end + 1).min(bytes.len());
                }
                '"' => at = self.double_quoted(at),
                '$' | '`' => at = self.expansion(at),
                '#' if self.word.is_none() => {
                    at = self.text[at..]
                        .find('\n')
                        .map_or(bytes.len(), |end| at + end);
                }
                ' ' | '\t' | '\r' => {
                    self.end_word(at);
                    at += 1;
                }
                '\n' | ';' | '&' | '|' | '(' | ')' => {
                    self.end_word(at);
                    self.end_statement();
                    at += 1;
                }
                c => {
                    self.partial(at).text.push(c);
                    at += c.len_utf8();
                }
            }
        }
        self.end_word(bytes.len());
        self.end_statement();
    }

    fn partial(&mut self, at: usize) -> &mut Partial {
        self.word.get_or_insert_with(|| Partial {
            start: at,
            text: String::new(),
            expands: false,
            escaped: false,
        })
    }

    /// A double-quoted part from `at` (its opening quote); where it ends.
    fn double_quoted(&mut self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        self.partial(at);
        let mut at = at + 1;
        while at < bytes.len() && bytes[at] != b'"' {
            let c = self.text[at..].chars().next().expect("in bounds");
            match c {
                '\\' if matches!(bytes.get(at + 1), Some(b'$' | b'`' | b'"' | b'\\' | b'\n')) => {
                    let word = self.partial(at);
                    word.escaped = true;
                    if bytes[at + 1] != b'\n' {
                        word.text.push(bytes[at + 1] as char);
                    }
                    at += 2;
                }
                '$' | '`' => at = self.expansion(at),
                c => {
                    self.partial(at).text.push(c);
                    at += c.len_utf8();
                }
            }
        }
        (at + 1).min(bytes.len())
    }

    /// `$NAME`, `${...}`, `$(...)` or a backquoted command from `at`; where it ends. The word
    /// keeps the expression as written.
    fn expansion(&mut self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let end = match (bytes[at], bytes.get(at + 1)) {
            (b'`', _) => self.text[at + 1..]
                .find('`')
                .map_or(bytes.len(), |end| at + end + 2),
            (_, Some(b'{')) => closing(bytes, at + 1, b'{', b'}'),
            (_, Some(b'(')) => closing(bytes, at + 1, b'(', b')'),
            (_, Some(c)) if c.is_ascii_alphabetic() || *c == b'_' => {
                at + 1
                    + bytes[at + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                        .count()
            }
            (_, Some(c)) if c.is_ascii_digit() || b"@*#?$!-".contains(c) => at + 2,
            // A `$` alone is itself.
            _ => {
                self.partial(at).text.push('$');
                return at + 1;
            }
        };
        let written = self.text[at..end].to_string();
        let word = self.partial(at);
        word.text.push_str(&written);
        word.expands = true;
        end
    }

    fn end_word(&mut self, at: usize) {
        let Some(word) = self.word.take() else { return };
        let raw = &self.text[word.start..at];
        let exact = if word.escaped || word.expands {
            None
        } else if raw == word.text {
            Some(word.start..at)
        } else if raw.len() >= 2
            && (raw.starts_with('\'') && raw.ends_with('\'')
                || raw.starts_with('"') && raw.ends_with('"'))
            && raw[1..raw.len() - 1] == word.text
        {
            Some(word.start + 1..at - 1)
        } else {
            None
        };
        let variable = word
            .expands
            .then(|| variable_of(raw.trim_matches('"')))
            .flatten();
        self.words.push(Word {
            text: word.text,
            span: word.start..at,
            exact,
            expands: word.expands,
            variable,
        });
    }

    fn end_statement(&mut self) {
        if !self.words.is_empty() {
            self.statements.push(std::mem::take(&mut self.words));
        }
    }
}

/// Where the bracket opened at `open` closes (just after it), nesting counted.
fn closing(bytes: &[u8], open: usize, left: u8, right: u8) -> usize {
    let mut depth = 0usize;
    for (at, byte) in bytes.iter().enumerate().skip(open) {
        if *byte == left {
            depth += 1;
        } else if *byte == right {
            depth -= 1;
            if depth == 0 {
                return at + 1;
            }
        }
    }
    bytes.len()
}

/// The variable `$NAME` or `${NAME}` names, when the text is only that.
fn variable_of(raw: &str) -> Option<String> {
    let name = raw.strip_prefix('$')?;
    let name = name
        .strip_prefix('{')
        .and_then(|name| name.strip_suffix('}'))
        .unwrap_or(name);
    let mut chars = name.chars();
    let starts = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    (starts && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, written: &Written) -> &'a str {
        &text[written.span.clone()]
    }

    #[test]
    fn a_multi_line_create_with_continuations_and_repeated_configs() {
        let text = "#!/bin/bash\n# topics\nkafka-topics.sh --bootstrap-server kafka:9092 \\\n  --create --if-not-exists \\\n  --topic orders \\\n  --partitions 6 \\\n  --replication-factor 1 \\\n  --config retention.ms=604800000 \\\n  --config cleanup.policy=compact\nkafka-topics.sh --bootstrap-server kafka:9092 --list\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 1, "{:?}", read.notes);
        let topic = &read.topics[0];
        assert_eq!(topic.name.text, "orders");
        assert!(topic.name.literal);
        assert_eq!(at(text, &topic.name), "orders");
        let partitions = topic.partitions.as_ref().unwrap();
        assert_eq!((partitions.integer(), at(text, partitions)), (Some(6), "6"));
        let replicas = topic.replicas.as_ref().unwrap();
        assert!(replicas.literal);
        assert_eq!((replicas.integer(), at(text, replicas)), (Some(1), "1"));
        let keys: Vec<_> = topic.configs.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["retention.ms", "cleanup.policy"]);
        let policy = &topic.configs[1];
        assert_eq!(&text[policy.key_span.clone()], "cleanup.policy");
        assert_eq!(at(text, &policy.value), "compact");
        assert_eq!(&text[topic.declared_at.clone()], "kafka-topics.sh");
    }

    #[test]
    fn one_line_per_topic_with_quoted_names() {
        let long = "t".repeat(250);
        let text = format!(
            "kafka-topics.sh --bootstrap-server localhost:9092 --create --topic 'a b' --partitions 3 --replication-factor 2 --config min.insync.replicas=2\n\
             kafka-topics.sh --bootstrap-server localhost:9092 --create --topic \"x\\$y\" --partitions 1 --replication-factor 3\n\
             kafka-topics.sh --bootstrap-server localhost:9092 --create --topic 'x$y' --partitions 1 --replication-factor 3\n\
             kafka-topics.sh --bootstrap-server localhost:9092 --create --topic {long} --partitions 1 --replication-factor 1\n"
        );
        let read = read(&text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["a b", "x$y", "x$y", long.as_str()]);
        // Each topic points at its own line.
        let lines: Vec<_> = read
            .topics
            .iter()
            .map(|t| {
                text[..t.replicas.as_ref().unwrap().span.start]
                    .lines()
                    .count()
            })
            .collect();
        assert_eq!(lines, [1, 2, 3, 4]);
        assert!(read.topics[0].name.literal && at(&text, &read.topics[0].name) == "a b");
        // Escaped: known, but its bytes are not the name.
        assert!(read.topics[1].name.known && !read.topics[1].name.literal);
        assert!(read.topics[2].name.literal);
        // Names and counts are what findings show: not hidden.
        for topic in &read.topics {
            let replicas = topic.replicas.as_ref().unwrap();
            assert!(
                !read
                    .hidden
                    .iter()
                    .any(|span| span.start < replicas.span.end && replicas.span.start < span.end)
            );
        }
    }

    #[test]
    fn variables_set_above_are_known_others_are_not() {
        let text = "RF=3\nBOOTSTRAP=${BOOTSTRAP:-kafka:9092}\nP=\"${PARTITIONS:-6}\"\nkafka-topics --bootstrap-server $BOOTSTRAP --create --topic=events --partitions $P --replication-factor $RF --config retention.ms=$RETENTION\n";
        let read = read(text);
        let topic = &read.topics[0];
        assert_eq!(topic.name.text, "events");
        assert_eq!(at(text, &topic.name), "events");
        assert!(topic.name.literal);
        let replicas = topic.replicas.as_ref().unwrap();
        assert_eq!(replicas.integer(), Some(3));
        assert!(!replicas.literal);
        assert_eq!(at(text, replicas), "$RF");
        assert_eq!(topic.partitions.as_ref().unwrap().integer(), None);
        let retention = &topic.configs[0];
        assert_eq!(retention.key, "retention.ms");
        assert!(!retention.value.known);
    }

    #[test]
    fn loops_leave_the_name_unknown() {
        let text = "RF=1\nfor t in a b c; do\n  RF=2\n  docker exec kafka kafka-topics --create --topic \"$t\" --partitions 1 --replication-factor $RF --bootstrap-server kafka:9092\ndone\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 1);
        let topic = &read.topics[0];
        assert!(!topic.name.known);
        // Set in the loop: may or may not run first, so unknown.
        assert_eq!(topic.replicas.as_ref().unwrap().integer(), None);
    }

    #[test]
    fn replica_assignment_gives_the_factor_and_other_commands_are_not_topics() {
        let text = "/opt/kafka/bin/kafka-topics.sh --create --topic a --replica-assignment 0:1,1:2 --zookeeper zk:2181\nkafka-topics --list --bootstrap-server x:9092\nkafka-topics --create --bootstrap-server x:9092\necho kafka-topics\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 1);
        let replicas = read.topics[0].replicas.as_ref().unwrap();
        assert_eq!(replicas.integer(), Some(2));
        assert!(!replicas.literal);
        assert_eq!(read.notes.len(), 1, "{:?}", read.notes);
        assert!(read.notes[0].contains("no --topic"));
    }

    #[test]
    fn scripts_run_by_a_shell_in_a_container() {
        let text = "docker exec kafka bash -c 'kafka-topics --bootstrap-server kafka:9092 --create --topic a --replication-factor 1 && kafka-topics --create --topic b --replication-factor 2'\ndocker exec kafka sh -c \"kafka-topics --create --topic c --replication-factor $RF\"\n";
        let read = read(text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        let replicas = read.topics[1].replicas.as_ref().unwrap();
        assert!(replicas.literal);
        assert_eq!((at(text, replicas), replicas.integer()), ("2", Some(2)));
    }

    #[test]
    fn the_compose_service_a_command_connects_to() {
        let text = "docker compose exec -T -u root kafka-2 kafka-topics --bootstrap-server localhost:9092 --create --topic a\n\
                    kafka-topics --bootstrap-server kafka-3:29092,kafka-1:29092 --create --topic b\n\
                    docker-compose exec kafka-1 bash -c 'kafka-topics --bootstrap-server kafka-3:9092 --create --topic c'\n\
                    kafka-topics --bootstrap-server localhost:9092 --create --topic d\n\
                    docker exec kafka-1 kafka-topics --bootstrap-server $HOST --create --topic e\n";
        let read = read(text);
        let services: Vec<Option<&str>> = read
            .topics
            .iter()
            .map(|topic| match &topic.cluster {
                Some(ClusterRef::Service { name, span }) => {
                    assert!(text[span.clone()].contains(name.as_str()));
                    Some(name.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            services,
            [
                Some("kafka-2"),
                Some("kafka-3"),
                Some("kafka-1"),
                None,
                None
            ]
        );
    }

    #[test]
    fn only_scripts_that_name_the_tool_are_read() {
        assert!(worth_reading(
            "a/create-topics.sh",
            b"kafka-topics --create"
        ));
        assert!(!worth_reading("a/create-topics.sh", b"echo hi"));
        assert!(!worth_reading(
            "a/create-topics.py",
            b"kafka-topics --create"
        ));
    }
}
