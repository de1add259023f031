//! `kafka-topics --create` run by a compose service's `entrypoint:`/`command:` or by a
//! Kubernetes container's `command`/`args` (a Job, a CronJob, a Pod, a workload's init
//! container), as people commit them:
//!
//! ```yaml
//! init-kafka:
//!   image: confluentinc/cp-kafka:7.5.0
//!   entrypoint: ['/bin/sh', '-c']
//!   command: |
//!     "
//!     kafka-topics --bootstrap-server kafka:29092 --create --if-not-exists \
//!       --topic orders --replication-factor 1 --partitions 3
//!     "
//! ```
//!
//! The process run is the entrypoint's words followed by the command's (compose), or
//! `command` followed by `args` (Kubernetes). A compose string is split into words as compose
//! splits it (compose-spec/compose-go `types.ShellCommand`, with mattn/go-shellwords: quotes
//! removed, no expansion), after compose's own interpolation (`$$` is a `$`; `$NAME` and
//! `${NAME}` take the value of the host's environment or `.env` when the file is loaded,
//! which kafkalint does not know here). When the first word is a shell run with `-c`, the
//! word after the flag is the script, read as `kafka-topics` lines of a `.sh` script are,
//! with the container's literal environment values as the variables it starts with; a
//! command whose own words run `kafka-topics` is read as one line. Kubernetes replaces
//! `$(NAME)` in `command` and `args` from the container's environment: such a word is
//! unknown.
//!
//! A value's span is exact (a fix may write there) only where the file holds its bytes: a
//! plain or quoted scalar on one line without escapes, or a line of a literal block scalar
//! (`|`) after its indentation. A folded (`>`) or multi-line quoted scalar gives values that
//! are known, placed on their line for labels, never written to.

use super::declared::{DeclaredTopic, TopicFile};
use super::shell::{self, Embedding};
use crate::properties::Span;
use crate::sources::yaml::{self, Node, Scalar, Style};

/// The topics the compose services' and Kubernetes containers' commands of a YAML text create.
pub fn read(text: &str) -> TopicFile {
    let mut read = TopicFile::default();
    let Ok(documents) = yaml::parse(text) else {
        return read;
    };
    let mut processes = Vec::new();
    for document in &documents {
        compose_services(document, &mut processes);
        kubernetes_containers(document, &mut processes);
    }
    let mut shown = Vec::new();
    let mut scripts = Vec::new();
    for process in &processes {
        process.topics(text, &mut read);
        scripts.extend(process.words.iter().map(|scalar| scalar.extent.clone()));
    }
    if read.topics.is_empty() && read.notes.is_empty() {
        return read;
    }
    for topic in &read.topics {
        shown.extend(shown_spans(text, topic));
    }
    let mut hidden = crate::sources::redact::hidden_spans(text, &documents);
    hidden.extend(script_secrets(text, &scripts));
    read.hidden = super::declared::uncover(hidden, &shown);
    read.hidden.sort_by_key(|span| (span.start, span.end));
    read.hidden.dedup();
    read
}

/// How a runtime substitutes variables in a process's words before it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Runtime {
    /// Compose interpolation: `$$` for a `$`, `$NAME`/`${NAME}` from the host; a string is
    /// split into words.
    Compose,
    /// Kubernetes: `$(NAME)` from the container's environment; always a list of words.
    Kubernetes,
}

/// One process a compose service or a Kubernetes container runs, as written.
struct Process<'a> {
    runtime: Runtime,
    /// The service or container, for notes (`service `init``).
    what: String,
    /// The scalars of its words, in order: a compose string, or the items of lists.
    words: Vec<&'a Scalar>,
    /// Whether each scalar of `words` is a string compose splits into words.
    split: Vec<bool>,
    /// Its environment values written as they are (no substitution in them).
    environment: Vec<(String, String)>,
}

fn compose_services<'a>(document: &'a Node, out: &mut Vec<Process<'a>>) {
    let Some(services) = document.get("services") else {
        return;
    };
    for (name, service) in services.entries() {
        let mut process = Process {
            runtime: Runtime::Compose,
            what: format!("service `{}`", name.text().unwrap_or("?")),
            words: Vec::new(),
            split: Vec::new(),
            environment: compose_environment(service.get("environment")),
        };
        for key in ["entrypoint", "command"] {
            match service.get(key) {
                Some(Node::Scalar(scalar)) if !scalar.is_null() => {
                    process.words.push(scalar);
                    process.split.push(true);
                }
                Some(Node::Seq(items)) => {
                    for scalar in items.iter().filter_map(Node::scalar) {
                        process.words.push(scalar);
                        process.split.push(false);
                    }
                }
                _ => {}
            }
        }
        out.push(process);
    }
}

/// A compose service's `environment:` (a map, or a list of `NAME=value`), the values without
/// interpolation.
fn compose_environment(environment: Option<&Node>) -> Vec<(String, String)> {
    let mut variables = Vec::new();
    match environment {
        Some(Node::Seq(items)) => {
            for item in items.iter().filter_map(Node::text) {
                if let Some((name, value)) = item.split_once('=') {
                    variables.push((name.trim().to_string(), value.to_string()));
                }
            }
        }
        Some(map) => {
            for (key, value) in map.entries() {
                if let (Some(key), Some(value)) = (key.text(), value.scalar()) {
                    variables.push((key.to_string(), value.value.clone()));
                }
            }
        }
        None => {}
    }
    variables.retain(|(_, value)| !value.contains('$'));
    variables
}

/// Every `containers`/`initContainers` entry of a Kubernetes document, at any depth (a Pod, a
/// workload's template, a CronJob's job template).
fn kubernetes_containers<'a>(node: &'a Node, out: &mut Vec<Process<'a>>) {
    for (key, value) in node.entries() {
        if matches!(key.text(), Some("containers" | "initContainers")) {
            out.extend(value.items().iter().map(kubernetes_container));
        } else {
            kubernetes_containers(value, out);
        }
    }
    for item in node.items() {
        kubernetes_containers(item, out);
    }
}

fn kubernetes_container(container: &Node) -> Process<'_> {
    let words: Vec<&Scalar> = ["command", "args"]
        .iter()
        .filter_map(|key| container.get(key))
        .flat_map(Node::items)
        .filter_map(Node::scalar)
        .collect();
    let environment = container
        .get("env")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|variable| {
            let name = variable.get("name")?.text()?;
            let value = variable.get("value")?.text()?;
            (!value.contains("$(")).then(|| (name.to_string(), value.to_string()))
        })
        .collect();
    Process {
        runtime: Runtime::Kubernetes,
        what: format!(
            "container `{}`",
            container.get("name").and_then(Node::text).unwrap_or("?")
        ),
        split: vec![false; words.len()],
        words,
        environment,
    }
}

impl Process<'_> {
    fn topics(&self, file: &str, read: &mut TopicFile) {
        if !self
            .words
            .iter()
            .any(|scalar| scalar.value.contains("kafka-topics"))
        {
            return;
        }
        // A Helm template's actions (`{{ .Values.replicationFactor }}`) are filled in when the
        // chart is rendered: the words are not known here.
        if self
            .words
            .iter()
            .any(|scalar| yaml::is_template(&scalar.value))
        {
            read.notes.push(format!(
                "the command of {} is a Helm template: its kafka-topics commands are not read",
                self.what
            ));
            return;
        }
        let mut opaque = Vec::new();
        let mut argv = Vec::new();
        for (scalar, split) in self.words.iter().zip(&self.split) {
            let mut value = Mapped::of_scalar(file, scalar);
            if self.runtime == Runtime::Compose {
                value = interpolated(&value, &mut opaque);
            }
            match split {
                true => match shell_words(&value) {
                    Some(words) => argv.extend(words),
                    None => return,
                },
                false => argv.push(value),
            }
        }
        let fallback = self.words[0].span.clone();
        if let Some(script) = shell_script(&argv) {
            let locate = |span: Span| script.locate(span, &fallback);
            let embedding = Embedding {
                environment: &self.environment,
                opaque: &opaque,
                locate: &locate,
            };
            merge(read, shell::read_embedded(&script.text, &embedding));
        } else if argv.iter().any(|word| runs_kafka_topics(&word.text)) {
            // No shell: each word is one argument as it is; a `$` left in one is substituted
            // by the runtime, so the word is unknown.
            let line = command_line(&argv);
            let locate = |span: Span| line.locate(span, &fallback);
            let embedding = Embedding {
                environment: &[],
                opaque: &[],
                locate: &locate,
            };
            merge(read, shell::read_embedded(&line.text, &embedding));
        }
    }
}

fn merge(read: &mut TopicFile, more: TopicFile) {
    read.topics.extend(more.topics);
    read.notes.extend(more.notes);
}

fn runs_kafka_topics(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or_default();
    matches!(name, "kafka-topics" | "kafka-topics.sh")
}

/// The script of `SHELL [-flags] -c SCRIPT ...`: the word after the first flag holding `c`,
/// when the first word is a shell.
fn shell_script(argv: &[Mapped]) -> Option<&Mapped> {
    let shell = argv.first()?.text.rsplit('/').next()?;
    if !matches!(shell, "sh" | "bash" | "ash" | "dash") {
        return None;
    }
    let flags = &argv[1..];
    let flag = flags
        .iter()
        .take_while(|word| word.text.starts_with('-'))
        .position(|word| !word.text.starts_with("--") && word.text.contains('c'))?;
    flags.get(flag + 1)
}

/// Text that comes from a file's bytes, with the file offsets of the pieces it copies.
#[derive(Debug, Clone, Default)]
struct Mapped {
    text: String,
    pieces: Vec<Piece>,
}

/// `len` bytes of a [`Mapped`] text from `at`, copied from the file at `file`; `exact` when
/// the file holds them as they are for an edit.
#[derive(Debug, Clone)]
struct Piece {
    at: usize,
    len: usize,
    file: usize,
    exact: bool,
}

impl Mapped {
    /// A scalar's value, its lines placed in the file.
    fn of_scalar(file: &str, scalar: &Scalar) -> Mapped {
        let value = scalar.value.clone();
        if scalar.exact {
            let len = value.len();
            return Mapped {
                text: value,
                pieces: vec![Piece {
                    at: 0,
                    len,
                    file: scalar.span.start,
                    exact: true,
                }],
            };
        }
        let (start, literal_block) = match scalar.style {
            Style::Block => match block_body(file, &scalar.extent) {
                Some(body) => body,
                None => {
                    return Mapped {
                        text: value,
                        pieces: Vec::new(),
                    };
                }
            },
            _ => (scalar.extent.start, false),
        };
        let written = &file[start..scalar.extent.end];
        let pieces = align(&value, written, start, scalar.style, literal_block);
        Mapped {
            text: value,
            pieces,
        }
    }

    fn push_copy(&mut self, from: &Mapped, range: Span) {
        let at = self.text.len();
        self.text.push_str(&from.text[range.clone()]);
        for piece in &from.pieces {
            let start = piece.at.max(range.start);
            let end = (piece.at + piece.len).min(range.end);
            if start < end {
                self.push_piece(Piece {
                    at: at + start - range.start,
                    len: end - start,
                    file: piece.file + start - piece.at,
                    exact: piece.exact,
                });
            }
        }
    }

    /// Adds `piece`, joined to the last one when it continues it in the text and the file.
    fn push_piece(&mut self, piece: Piece) {
        if let Some(last) = self.pieces.last_mut() {
            let continues = last.at + last.len == piece.at
                && last.file + last.len == piece.file
                && last.exact == piece.exact;
            if continues {
                last.len += piece.len;
                return;
            }
        }
        self.pieces.push(piece);
    }

    /// Text the file does not hold as it is (a `$` written `$$`, a quote added).
    fn push_text(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// The file span of `range` of the text, and whether the file holds it exactly; a range
    /// no one piece holds is placed where its first byte is (else at `fallback`), inexact.
    fn locate(&self, range: Span, fallback: &Span) -> (Span, bool) {
        let holding = |at: usize, piece: &Piece| piece.at <= at && at < piece.at + piece.len;
        if let Some(piece) = self
            .pieces
            .iter()
            .find(|piece| holding(range.start, piece) && range.end <= piece.at + piece.len)
        {
            let start = piece.file + range.start - piece.at;
            return (start..start + range.len(), piece.exact);
        }
        match self.pieces.iter().find(|piece| holding(range.start, piece)) {
            Some(piece) => {
                let start = piece.file + range.start - piece.at;
                (start..piece.file + piece.len, false)
            }
            None => (fallback.clone(), false),
        }
    }
}

/// Where the lines of a block scalar whose extent is `extent` start (after its header line),
/// and whether it is a literal block (`|`, `|-`, `|2`...) rather than a folded one (`>`).
/// `None` when the header is not where it is looked for.
fn block_body(file: &str, extent: &Span) -> Option<(usize, bool)> {
    let written = file.get(extent.clone())?;
    let (header, body) = if written.starts_with(['|', '>']) {
        let end = written.find('\n')?;
        (&written[..end], extent.start + end + 1)
    } else {
        // The extent starts at the first line of content; the header ends the line above.
        let line_start = file[..extent.start].rfind('\n').map_or(0, |at| at + 1);
        if !file[line_start..extent.start]
            .bytes()
            .all(|byte| byte == b' ')
        {
            return None;
        }
        let above = file[..line_start.checked_sub(1)?]
            .rsplit('\n')
            .next()
            .unwrap_or_default();
        (above, line_start)
    };
    let header = header.split(" #").next().unwrap_or_default().trim_end();
    let indicator = header.rsplit([' ', '\t']).next().unwrap_or_default();
    let valid = indicator.chars().all(|c| "|>-+123456789".contains(c))
        && indicator.chars().filter(|c| matches!(c, '|' | '>')).count() == 1;
    valid.then(|| (body, indicator.contains('|')))
}

/// The pieces of `value` that the lines of `written` (a scalar's bytes, from file offset
/// `offset`) hold: each line's content found in the value in order. Exact only for a
/// literal block scalar, whose lines are the value's lines after the indentation.
fn align(value: &str, written: &str, offset: usize, style: Style, literal: bool) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut cursor = 0;
    let mut line_start = 0;
    for line in written.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let (lead, content) = content_of(body, style);
        if content.is_empty() {
            continue;
        }
        let found = if literal {
            // Between two lines of a literal block: only line breaks and indentation.
            let gap = value[cursor..]
                .find(|c: char| !matches!(c, ' ' | '\t' | '\n'))
                .map_or(value.len(), |gap| cursor + gap);
            value[gap..].starts_with(content).then_some(gap)
        } else {
            value[cursor..].find(content).map(|at| cursor + at)
        };
        let Some(at) = found else {
            if literal {
                break;
            }
            continue;
        };
        pieces.push(Piece {
            at,
            len: content.len(),
            file: offset + start + lead,
            exact: literal,
        });
        cursor = at + content.len();
    }
    pieces
}

/// A scalar line's content: its bytes without indentation, the quotes of a quoted scalar and
/// an escaped line break; and where it starts in the line.
fn content_of(body: &str, style: Style) -> (usize, &str) {
    let trimmed = body.trim_start_matches([' ', '\t']);
    let mut lead = body.len() - trimmed.len();
    let mut content = trimmed.trim_end_matches([' ', '\t']);
    if matches!(style, Style::DoubleQuoted | Style::SingleQuoted) {
        let quote = if style == Style::DoubleQuoted {
            '"'
        } else {
            '\''
        };
        if let Some(rest) = content.strip_prefix(quote) {
            content = rest;
            lead += 1;
        }
        // The closing quote, when the line ends the scalar (a key may follow on no line: a
        // scalar's extent ends with it).
        content = content.strip_suffix(quote).unwrap_or(content);
        if style == Style::DoubleQuoted {
            content = content.strip_suffix('\\').unwrap_or(content).trim_end();
        }
    }
    (lead, content)
}

/// `value` after compose's interpolation: `$$` is a `$` (not the file's bytes), and each
/// `$NAME`/`${NAME...}` stays as written, its name added to `opaque` (compose fills it from the
/// host, not from the service's environment).
fn interpolated(value: &Mapped, opaque: &mut Vec<String>) -> Mapped {
    let mut out = Mapped::default();
    let bytes = value.text.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'$' {
            at += 1;
            continue;
        }
        if bytes.get(at + 1) == Some(&b'$') {
            out.push_copy(value, copied..at);
            out.push_text("$");
            at += 2;
            copied = at;
            continue;
        }
        let name_start = at + 1 + usize::from(bytes.get(at + 1) == Some(&b'{'));
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if name_len > 0 {
            opaque.push(value.text[name_start..name_start + name_len].to_string());
        }
        at += 1;
    }
    out.push_copy(value, copied..bytes.len());
    out
}

/// The words compose splits a string command into (compose-spec/compose-go
/// `types/command.go`: `shellwords.Parse`, mattn/go-shellwords `shellwords.go`): blanks
/// separate words; single quotes keep their text; double quotes group; a backslash outside
/// single quotes takes the next character as it is (`\t` and `\n` a tab and a line break, so
/// a `\` that continues a line inside double quotes leaves the line break to the shell that
/// runs the script); `$(...)` and backquotes group; an unquoted `;`, `&`, `|`, `<` or `>` ends
/// the command (what follows is dropped). `None` when compose refuses it (an unquoted `(`
/// or `)`, an unclosed quote).
fn shell_words(value: &Mapped) -> Option<Vec<Mapped>> {
    let text = &value.text;
    let mut words = Vec::new();
    let mut word: Option<Mapped> = None;
    // The quote, `(` of a `$(`, or backquote a word is inside.
    let mut group: Option<char> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let end = at + c.len_utf8();
        match (group, c) {
            (Some('\''), '\'') | (Some('"'), '"') => group = None,
            (Some('\''), _) => current(&mut word).push_copy(value, at..end),
            (_, '\\') => {
                let (next_at, next) = chars.next()?;
                match next {
                    't' => current(&mut word).push_text("\t"),
                    'n' => current(&mut word).push_text("\n"),
                    _ => current(&mut word).push_copy(value, next_at..next_at + next.len_utf8()),
                }
            }
            (Some('('), ')') | (Some('`'), '`') => {
                group = None;
                current(&mut word).push_copy(value, at..end);
            }
            (Some(_), _) => current(&mut word).push_copy(value, at..end),
            (None, '\'' | '"') => {
                current(&mut word);
                group = Some(c);
            }
            (None, '`') => {
                group = Some(c);
                current(&mut word).push_copy(value, at..end);
            }
            (None, '(') if word.as_ref().is_some_and(|word| word.text.ends_with('$')) => {
                group = Some(c);
                current(&mut word).push_copy(value, at..end);
            }
            (None, '(' | ')') => return None,
            (None, ';' | '&' | '|' | '<' | '>') => break,
            (None, ' ' | '\t' | '\r' | '\n') => words.extend(word.take()),
            (None, _) => current(&mut word).push_copy(value, at..end),
        }
    }
    if matches!(group, Some('\'' | '"')) {
        return None;
    }
    words.extend(word);
    Some(words)
}

/// The word being read, begun when there is none.
fn current(word: &mut Option<Mapped>) -> &mut Mapped {
    word.get_or_insert_with(Mapped::default)
}

/// The words of a process run without a shell, as one shell line whose words are each of
/// them: a word of plain characters as it is, others quoted (the quotes are not the file's),
/// a word holding a `$` in double quotes so that it reads as substituted.
fn command_line(argv: &[Mapped]) -> Mapped {
    let mut line = Mapped::default();
    for (index, word) in argv.iter().enumerate() {
        if index > 0 {
            line.push_text(" ");
        }
        let plain = !word.text.is_empty()
            && word
                .text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._:/=,@%+-".contains(c));
        let all = 0..word.text.len();
        if plain {
            line.push_copy(word, all);
        } else if word.text.contains('$') && !word.text.contains(['"', '\\', '`']) {
            line.push_text("\"");
            line.push_copy(word, all);
            line.push_text("\"");
        } else if !word.text.contains('\'') {
            line.push_text("'");
            line.push_copy(word, all);
            line.push_text("'");
        } else {
            // A quote inside: escaped, so no longer the file's bytes for the shell's reader.
            line.push_text(&format!("'{}'", word.text.replace('\'', "'\\''")));
        }
    }
    line
}

/// What findings show of a topic: its name, counts and configs a secret cannot be in, each
/// where the file's bytes are exactly what it is (a span that only places a value for a label
/// shows nothing more).
fn shown_spans(text: &str, topic: &DeclaredTopic) -> Vec<Span> {
    let exactly = |span: &Span, value: &str| text.get(span.clone()) == Some(value);
    let counts = [&topic.partitions, &topic.replicas].into_iter().flatten();
    let configs = topic
        .configs
        .iter()
        .filter(|setting| crate::secrets::may_show(&setting.key, &setting.value.text))
        .flat_map(|setting| {
            [
                (setting.key_span.clone(), setting.key.as_str()),
                (setting.value.span.clone(), setting.value.text.as_str()),
            ]
        });
    std::iter::once(&topic.name)
        .chain(counts)
        .map(|written| (written.span.clone(), written.text.as_str()))
        .chain(configs)
        .filter(|(span, value)| exactly(span, value))
        .map(|(span, _)| span)
        .collect()
}

/// What the start-up scripts' judge hides of the lines of the command scalars at `extents`
/// (a password set in an inline script).
fn script_secrets(text: &str, extents: &[Span]) -> Vec<Span> {
    let mut hidden = Vec::new();
    for extent in extents {
        let mut lines = Vec::new();
        let mut start = extent.start;
        for line in text[extent.clone()].split_inclusive('\n') {
            let body = line.trim_end_matches(['\n', '\r']);
            lines.push((start..start + body.len(), body));
            start += line.len();
        }
        hidden.extend(crate::sources::kubernetes::shell_redact::hidden_spans(
            &lines,
        ));
    }
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at<'a>(text: &'a str, span: &Span) -> &'a str {
        &text[span.clone()]
    }

    fn replicas(topic: &DeclaredTopic) -> &super::super::declared::Written {
        topic.replicas.as_ref().expect("a factor")
    }

    #[test]
    fn a_compose_init_service_running_a_quoted_block_script() {
        let text = "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.5.0\n  init-kafka:\n    image: confluentinc/cp-kafka:7.5.0\n    entrypoint: [ '/bin/sh', '-c' ]\n    command: |\n      \"\n      # blocks until kafka is reachable\n      kafka-topics --bootstrap-server kafka:29092 --list\n\n      kafka-topics --bootstrap-server kafka:29092 --create --if-not-exists --topic my-topic-1 --replication-factor 1 --partitions 3 --config retention.ms=1000\n      kafka-topics --bootstrap-server kafka:29092 --create --if-not-exists --topic my-topic-2 --replication-factor 2\n      \"\n";
        let read = read(text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["my-topic-1", "my-topic-2"], "{:?}", read.notes);
        let first = &read.topics[0];
        assert!(first.name.literal);
        assert_eq!(at(text, &first.name.span), "my-topic-1");
        let factor = replicas(first);
        assert!(factor.literal);
        assert_eq!((at(text, &factor.span), factor.integer()), ("1", Some(1)));
        // On its own line of the file.
        let line = text[..factor.span.start].lines().count();
        assert_eq!(line, 12);
        assert_eq!(at(text, &first.configs[0].value.span), "1000");
        assert_eq!(at(text, &first.declared_at), "kafka-topics");
        assert_eq!(at(text, &replicas(&read.topics[1]).span), "2");
    }

    #[test]
    fn a_continued_line_inside_the_quotes_loses_its_continuation() {
        // compose splits the command with go-shellwords, which turns `\` and a line break
        // into a line break: the shell runs `kafka-topics ... --create` without --topic.
        let text = "services:\n  init:\n    image: confluentinc/cp-kafka:7.5.0\n    entrypoint: ['/bin/sh', '-c']\n    command: |\n      \"\n      kafka-topics --bootstrap-server kafka:9092 --create --if-not-exists \\\n        --topic payments --replication-factor 3\n      \"\n";
        let read = read(text);
        assert!(read.topics.is_empty());
        assert_eq!(read.notes.len(), 1, "{:?}", read.notes);
        assert!(read.notes[0].contains("names no --topic"));
        // The same script in a list item is passed as it is: the continuation holds.
        let listed = "services:\n  init:\n    image: confluentinc/cp-kafka:7.5.0\n    command:\n      - bash\n      - -c\n      - |\n        kafka-topics --bootstrap-server kafka:9092 --create --if-not-exists \\\n          --topic payments --replication-factor 3\n";
        let read = super::read(listed);
        assert_eq!(read.topics.len(), 1, "{:?}", read.notes);
        let factor = replicas(&read.topics[0]);
        assert!(factor.literal);
        assert_eq!(at(listed, &factor.span), "3");
    }

    #[test]
    fn a_quoted_command_over_several_lines_is_known_but_not_written_to() {
        let text = "services:\n  init:\n    image: confluentinc/cp-kafka:7.8.0\n    command: \"bash -c 'echo waiting && \\\n               kafka-topics --create --topic users --partitions 3 --replication-factor 1 --bootstrap-server kafka1:29092 && \\\n               kafka-topics --create --topic messages --partitions 2 --replication-factor 2 --bootstrap-server kafka0:29092'\"\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 2, "{:?}", read.notes);
        for (topic, (name, factor, line)) in read
            .topics
            .iter()
            .zip([("users", 1, 5), ("messages", 2, 6)])
        {
            assert_eq!(topic.name.text, name);
            assert!(topic.name.known && !topic.name.literal);
            let written = replicas(topic);
            assert_eq!(written.integer(), Some(factor));
            assert!(!written.literal);
            // Placed on its own line, for labels.
            assert_eq!(text[..written.span.start].lines().count(), line);
            assert_eq!(at(text, &written.span), factor.to_string());
        }
    }

    #[test]
    fn an_exec_form_list_and_a_plain_string() {
        let text = "services:\n  a:\n    image: apache/kafka:3.9.0\n    command: [\"/opt/kafka/bin/kafka-topics.sh\", \"--create\", \"--topic\", \"orders\", \"--replication-factor\", \"1\", \"--bootstrap-server\", \"kafka:9092\"]\n  b:\n    image: apache/kafka:3.9.0\n    command: /opt/kafka/bin/kafka-topics.sh --create --topic 'audit log' --replication-factor 2 --bootstrap-server kafka:9092\n  c:\n    image: apache/kafka:3.9.0\n    command: >\n      kafka-topics --create --topic folded\n      --replication-factor 1\n";
        let read = read(text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["orders", "audit log", "folded"], "{:?}", read.notes);
        let orders = replicas(&read.topics[0]);
        assert!(orders.literal && at(text, &orders.span) == "1");
        assert_eq!(at(text, &read.topics[0].name.span), "orders");
        let audit = &read.topics[1];
        assert!(audit.name.literal && at(text, &audit.name.span) == "audit log");
        assert!(replicas(audit).literal);
        // Folded: known, on its line, never written to.
        let folded = replicas(&read.topics[2]);
        assert_eq!(folded.integer(), Some(1));
        assert!(!folded.literal);
        assert_eq!(at(text, &folded.span), "1");
    }

    #[test]
    fn compose_interpolation_and_the_service_environment() {
        // `$$RF` is the shell's `$RF`: the service's environment sets it. `$PARTITIONS` is
        // compose's, from the host: unknown, whatever the script sets.
        let text = "services:\n  init:\n    image: confluentinc/cp-kafka:7.5.0\n    environment:\n      RF: 2\n      PARTITIONS: 6\n      SECRET: ${FROM_HOST}\n    entrypoint: ['/bin/sh', '-c']\n    command: |\n      \"\n      PARTITIONS=4\n      kafka-topics --create --topic a --replication-factor $$RF --partitions $PARTITIONS --bootstrap-server kafka:9092\n      kafka-topics --create --topic b --replication-factor $$SECRET --bootstrap-server kafka:9092\n      \"\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 2, "{:?}", read.notes);
        let a = &read.topics[0];
        let factor = replicas(a);
        assert_eq!(factor.integer(), Some(2));
        assert!(!factor.literal);
        let partitions = a.partitions.as_ref().unwrap();
        assert!(!partitions.known);
        assert!(!replicas(&read.topics[1]).known);
    }

    #[test]
    fn a_kubernetes_job_with_a_shell_script_in_args() {
        let text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: topics\nspec:\n  template:\n    spec:\n      initContainers:\n        - name: wait\n          image: busybox\n          command: ['sh', '-c', 'until nc -z kafka 9092; do sleep 1; done']\n      containers:\n        - name: create\n          image: confluentinc/cp-kafka:7.5.0\n          env:\n            - name: RF\n              value: \"3\"\n            - name: FROM_FIELD\n              valueFrom:\n                fieldRef:\n                  fieldPath: metadata.name\n          command: ['/bin/bash', '-c']\n          args:\n            - |\n              kafka-topics --bootstrap-server kafka:9092 --create --topic events --partitions 3 --replication-factor 1 --if-not-exists\n              kafka-topics --bootstrap-server kafka:9092 --create --topic audit --replication-factor $RF\n              kafka-topics --bootstrap-server kafka:9092 --create --topic other --replication-factor $FROM_FIELD\n";
        let read = read(text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["events", "audit", "other"], "{:?}", read.notes);
        let events = replicas(&read.topics[0]);
        assert!(events.literal);
        assert_eq!(at(text, &events.span), "1");
        assert_eq!(replicas(&read.topics[1]).integer(), Some(3));
        assert!(!replicas(&read.topics[2]).known);
    }

    #[test]
    fn kubernetes_substitution_in_an_exec_form_is_unknown() {
        let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: apache/kafka:3.9.0\n      env:\n        - name: RF\n          value: \"3\"\n      command: [/opt/kafka/bin/kafka-topics.sh]\n      args: [--create, --topic, t, --replication-factor, $(RF), --partitions, \"2\"]\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 1, "{:?}", read.notes);
        let topic = &read.topics[0];
        assert!(!replicas(topic).known);
        let partitions = topic.partitions.as_ref().unwrap();
        assert!(partitions.literal && at(text, &partitions.span) == "2");
    }

    #[test]
    fn secrets_in_the_script_stay_hidden_and_topic_values_are_shown() {
        let text = "services:\n  init:\n    image: confluentinc/cp-kafka:7.5.0\n    environment:\n      KAFKA_PASSWORD: hunter2\n    command:\n      - sh\n      - -c\n      - |\n        export SASL_PASSWORD=s3cret-value\n        kafka-topics --bootstrap-server kafka:9092 --create --topic t --replication-factor 1\n";
        let read = read(text);
        assert_eq!(read.topics.len(), 1);
        let hidden_text = |needle: &str| {
            let at = text.find(needle).unwrap();
            read.hidden
                .iter()
                .any(|span| span.start <= at && at + needle.len() <= span.end)
        };
        assert!(hidden_text("hunter2"));
        assert!(hidden_text("s3cret-value"));
        let factor = replicas(&read.topics[0]);
        assert!(
            !read
                .hidden
                .iter()
                .any(|span| span.start < factor.span.end && factor.span.start < span.end)
        );
    }

    #[test]
    fn a_cronjob_and_a_statefulset_init_container() {
        let text = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: c\nspec:\n  schedule: '@hourly'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n            - name: create\n              image: apache/kafka:3.9.0\n              command: [/opt/kafka/bin/kafka-topics.sh, --create, --topic, hourly, --replication-factor, '2', --bootstrap-server, kafka:9092]\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: app\nspec:\n  template:\n    spec:\n      initContainers:\n        - name: topics\n          image: apache/kafka:3.9.0\n          command:\n            - sh\n            - -ec\n            - /opt/kafka/bin/kafka-topics.sh --create --if-not-exists --topic app-events --replication-factor 1 --bootstrap-server kafka:9092\n      containers:\n        - name: app\n          image: example/app:1\n";
        let read = read(text);
        let names: Vec<_> = read.topics.iter().map(|t| t.name.text.as_str()).collect();
        assert_eq!(names, ["hourly", "app-events"], "{:?}", read.notes);
        for (topic, factor) in read.topics.iter().zip(["2", "1"]) {
            let written = replicas(topic);
            assert!(written.literal);
            assert_eq!(at(text, &written.span), factor);
        }
    }

    #[test]
    fn a_templated_command_is_said_not_read() {
        let text = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: t\nspec:\n  template:\n    spec:\n      containers:\n        - name: create\n          image: bitnami/kafka:3.9\n          command: [sh, -c, \"kafka-topics.sh --create --topic a --replication-factor {{ .Values.rf }}\"]\n";
        let read = read(text);
        assert!(read.topics.is_empty());
        assert_eq!(
            read.notes,
            [
                "the command of container `create` is a Helm template: its kafka-topics commands are not read"
            ]
        );
    }

    #[test]
    fn go_shellwords_splitting() {
        let words = |text: &str| {
            shell_words(&Mapped {
                text: text.to_string(),
                pieces: Vec::new(),
            })
            .map(|words| words.into_iter().map(|word| word.text).collect::<Vec<_>>())
        };
        assert_eq!(
            words("sh -c \"a 'b' \\\"c\\\"\" d\\ e"),
            Some(vec![
                "sh".into(),
                "-c".into(),
                "a 'b' \"c\"".into(),
                "d e".into()
            ])
        );
        assert_eq!(words("a b; c"), Some(vec!["a".into(), "b".into()]));
        assert_eq!(
            words("echo $(date) x"),
            Some(vec!["echo".into(), "$(date)".into(), "x".into()])
        );
        assert_eq!(words("a (b)"), None);
        assert_eq!(words("a 'b"), None);
    }
}
