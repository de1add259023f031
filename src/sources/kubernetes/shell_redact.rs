//! What output hides of a start-up script (a container's `command: [sh, -c, ...]`, its `args`,
//! a compose service's `command` or `entrypoint`): deny by default, word by word.
//!
//! A script's words are split as a POSIX shell splits them, at spaces and tabs outside quotes
//! (a no-break space joins, it does not split: `A=1<NBSP>X` is one word). A word is shown only
//! when it is one of:
//! - a command kafkalint knows (`exec`, `export`, `kafka-storage`, the images' start-up
//!   programs such as `/etc/confluent/docker/run`), in a command's place;
//! - a flag (`-c`, `--bootstrap-server`, `-storepass`), not its value;
//! - a value kafkalint reads: an assignment of a plain Kafka key's variable to no credential
//!   (`export KAFKA_NODE_ID=${HOSTNAME##*-}`), a name exported, a `.properties` file a command
//!   is given, a reference to a variable (`$KAFKA_HOME`);
//! - a shell operator or keyword (`&&`, `|`, `\`, `then`).
//!
//! Every other word is hidden: an argument (the value of `-storepass`, `admin:X` after `-u`), a
//! word alone on a continuation line, a heredoc's line (shown only when it sets a plain Kafka
//! key), a quoted text run over lines, any word with a character outside printable ASCII.
//! Comments are hidden as [`secrets::comment_mask`] hides them.

use crate::properties::{self, Span};
use crate::secrets::{self, KeyKind};

/// Commands a start-up script runs that kafkalint knows, by their name (a path to them is
/// judged by [`is_known_program`]): the shell's builtins and the tools start-up scripts use.
const KNOWN_COMMANDS: &[&str] = &[
    "[",
    "awk",
    "bash",
    "cat",
    "cd",
    "chmod",
    "chown",
    "cp",
    "curl",
    "cut",
    "dash",
    "dub",
    "echo",
    "env",
    "envsubst",
    "exec",
    "exit",
    "export",
    "false",
    "grep",
    "head",
    "hostname",
    "java",
    "keytool",
    "ln",
    "ls",
    "mkdir",
    "mv",
    "nc",
    "openssl",
    "printf",
    "readonly",
    "rm",
    "sed",
    "set",
    "sh",
    "sleep",
    "sort",
    // wurstmeister/kafka-docker's start-up (`start-kafka.sh`).
    "start-kafka.sh",
    "tail",
    "tee",
    "test",
    "touch",
    "tr",
    "trap",
    "true",
    "ub",
    "ulimit",
    "umask",
    "unset",
    "wait",
    "wget",
    "xargs",
];

/// Arguments that are no value of the user's: Kafka tools' subcommands (`kafka-storage
/// format`), `set -o`'s options, the system's devices.
const KNOWN_ARGUMENTS: &[&str] = &[
    "format",
    "random-uuid",
    "info",
    "version",
    "pipefail",
    "errexit",
    "nounset",
    "xtrace",
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
];

/// Words of the shell's grammar (POSIX, Shell Command Language, 2.4 Reserved Words), shown
/// where they stand.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "!", "{", "}", "[[", "]]", "]",
];

/// The programs the Kafka images start from (confluentinc/cp-kafka `/etc/confluent/docker/run`,
/// apache/kafka `/etc/kafka/docker/run`, bitnami/kafka `/opt/bitnami/scripts/kafka/run.sh`).
const IMAGE_PROGRAMS: &[&str] = &[
    "/etc/confluent/docker/run",
    "/etc/confluent/docker/configure",
    "/etc/confluent/docker/ensure",
    "/etc/confluent/docker/launch",
    "/etc/kafka/docker/run",
    "/etc/kafka/docker/configure",
    "/opt/bitnami/scripts/kafka/run.sh",
    "/opt/bitnami/scripts/kafka/entrypoint.sh",
    "/opt/bitnami/scripts/kafka/setup.sh",
];

/// Folders programs are run from in the images (`/usr/bin`, `/opt/kafka/bin`,
/// `/opt/bitnami/kafka/bin`); a folder named for Kafka's release (`kafka_2.13-3.9.0`) too.
const PROGRAM_FOLDERS: &[&str] = &[
    "bin",
    "usr",
    "local",
    "sbin",
    "opt",
    "kafka",
    "bitnami",
    "confluent",
    "apache",
];

/// The spans of a start-up script's lines (each with its span in the file) that output hides.
pub fn hidden_spans(lines: &[(Span, &str)]) -> Vec<Span> {
    let mut judge = Judge::default();
    let mut hidden = Vec::new();
    for (span, line) in lines {
        // Words are placed by their offset in the line: only where the line is written as is.
        if span.len() != line.len() {
            judge.reset();
            hidden.push(span.clone());
            continue;
        }
        hidden.extend(
            judge
                .line(line)
                .into_iter()
                .map(|part| span.start + part.start..span.start + part.end),
        );
    }
    hidden
}

/// What the judge knows of the script read so far.
#[derive(Default)]
struct Judge {
    /// Heredocs opened on the current line, read after it: their delimiters, in order.
    pending: Vec<String>,
    /// The heredoc whose body the next lines are, by its delimiter.
    body: Option<String>,
    /// A quote left open at the end of the last line: the next lines are inside it.
    open_quote: Option<char>,
    /// The last line ended with `\`: this one goes on with its command.
    continued: bool,
    /// The last line's last word was glued to its `\`: this line's first word goes on with it.
    glued: bool,
    /// The next word stands where a command starts.
    command_place: bool,
    /// The command is `export` (or `unset`, `readonly`): a bare word is a variable's name.
    naming: bool,
    /// The last word was a flag that takes a secret: the next word is one.
    secret_next: bool,
    /// The last word was `<<` or `<<-`: the next word is a heredoc's delimiter.
    delimiter_next: bool,
}

impl Judge {
    fn reset(&mut self) {
        *self = Judge::default();
    }

    /// The parts of `line` to hide, as ranges of it.
    fn line(&mut self, line: &str) -> Vec<Span> {
        if let Some(delimiter) = &self.body {
            let ends =
                line.trim_start_matches('\t').trim_end() == delimiter || line.trim() == delimiter;
            if ends {
                self.body = None;
                return self.next_body();
            }
            return data_line_hidden(line).into_iter().collect();
        }
        if let Some(quote) = self.open_quote {
            // Inside a quoted text run over lines: hidden whole, up to and with the line
            // that closes it.
            if !line.matches(quote).count().is_multiple_of(2) {
                self.open_quote = None;
                self.command_place = false;
                self.continued = false;
            }
            return (!line.is_empty())
                .then_some(0..line.len())
                .into_iter()
                .collect();
        }
        if !self.continued {
            self.command_place = true;
            self.naming = false;
            self.secret_next = false;
        }
        let glued = std::mem::take(&mut self.glued) && !line.starts_with([' ', '\t']);
        self.continued = false;
        let words = match shell_words(line) {
            Ok(words) => words,
            Err((words, quote)) => {
                // A quote left open runs on to the next lines: its word is hidden to the end.
                self.open_quote = Some(quote);
                words
            }
        };
        let mut hidden: Vec<Span> = Vec::new();
        let hide = |part: Span, hidden: &mut Vec<Span>| match hidden.last_mut() {
            // Words hidden one after another, with only blanks between, are hidden as one.
            Some(last)
                if line[last.end..part.start]
                    .trim_matches([' ', '\t'])
                    .is_empty() =>
            {
                last.end = part.end;
            }
            _ => hidden.push(part),
        };
        let count = words.len();
        for (index, &(at, word)) in words.iter().enumerate() {
            let part = at..at + word.len();
            let last = index + 1 == count;
            if word.starts_with('#') {
                // A comment, to the end of the line.
                let body = &line[at + 1..];
                if let Some(masked) = secrets::comment_mask(body) {
                    hide(at + 1 + masked.start..line.len(), &mut hidden);
                }
                break;
            }
            if index == 0 && glued {
                self.command_place = false;
                hide(part, &mut hidden);
                continue;
            }
            if last && self.open_quote.is_some() {
                hide(at..line.len(), &mut hidden);
                break;
            }
            if word == "\\" && last {
                self.continued = true;
                continue;
            }
            if last && word.ends_with('\\') && !word.ends_with("\\\\") {
                // Glued to the next line's first word: both hidden.
                self.continued = true;
                self.glued = true;
                self.command_place = false;
                hide(part, &mut hidden);
                continue;
            }
            if !self.word(word) {
                // Of an assignment to a variable Kafka's catalogue names, the value: its name
                // is shown as a YAML key is (`KAFKA_SSL_KEY_PASSWORD=[redacted]`).
                let value_at = assignment(word)
                    .filter(|(name, _)| secrets::name_kind(name) != KeyKind::Unknown)
                    .map_or(0, |(name, _)| name.len() + 1);
                hide(at + value_at..part.end, &mut hidden);
            }
        }
        if self.open_quote.is_none() && !self.continued {
            self.body = self.next_body_delimiter();
        }
        hidden
    }

    /// After a heredoc's delimiter line: the next heredoc of the same command line, if any.
    fn next_body(&mut self) -> Vec<Span> {
        self.body = self.next_body_delimiter();
        Vec::new()
    }

    fn next_body_delimiter(&mut self) -> Option<String> {
        (!self.pending.is_empty()).then(|| self.pending.remove(0))
    }

    /// Whether output may show `word`, read where it stands; moves the judge past it.
    fn word(&mut self, word: &str) -> bool {
        if !word.bytes().all(|b| b.is_ascii_graphic()) {
            // A no-break space, a control or any character beyond ASCII: no word kafkalint
            // reads, and what joins a secret to a shown one.
            self.command_place = false;
            self.secret_next = false;
            return false;
        }
        if std::mem::take(&mut self.delimiter_next) {
            let delimiter: String = word
                .chars()
                .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                .collect();
            let shown = is_delimiter_word(word);
            self.pending.push(delimiter);
            return shown;
        }
        if matches!(word, "<<" | "<<-") {
            self.delimiter_next = true;
            return true;
        }
        if let Some(delimiter) = heredoc_delimiter(word) {
            // `<<EOF`, `<<-'EOF'`: the operator and a delimiter that is a name are shown.
            let shown = is_delimiter_word(word.trim_start_matches("<<").trim_start_matches('-'));
            self.pending.push(delimiter);
            return shown;
        }
        if is_operator(word) {
            self.command_place = !is_redirection(word);
            self.naming = false;
            self.secret_next = false;
            return true;
        }
        if std::mem::take(&mut self.secret_next) {
            self.command_place = false;
            return false;
        }
        if self.command_place && !word.starts_with('-') {
            if KEYWORDS.contains(&word) {
                return true;
            }
            if let Some((name, value)) = assignment(word) {
                return shown_assignment(name, value);
            }
            self.command_place = false;
            if is_known_program(word) {
                self.naming = matches!(word, "export" | "unset" | "readonly");
                return true;
            }
            return false;
        }
        if word.starts_with('-') {
            self.command_place = false;
            let (shown, takes_secret) = flag(word);
            self.secret_next = takes_secret;
            return shown;
        }
        if let Some((name, value)) = assignment(word) {
            return self.naming && shown_assignment(name, value);
        }
        if self.naming {
            return is_variable_name(word) && shown_name(word);
        }
        KNOWN_ARGUMENTS.contains(&word)
            || is_variable_reference(word)
            || is_properties_file(word)
            || is_kafka_setting(word)
            || is_known_program(word)
    }
}

/// Words of a line, each with its offset in it.
type Words<'a> = Vec<(usize, &'a str)>;

/// The words of a line split at blanks (space, tab) outside quotes, with their offsets, as
/// written (quotes kept); `Err` with the words and the quote when one is left open (its word
/// runs to the end of the line).
fn shell_words(line: &str) -> Result<Words<'_>, (Words<'_>, char)> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in line.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"') | None, '\\') => {
                start.get_or_insert(at);
                escaped = true;
            }
            (Some(_), _) => {}
            (None, ' ' | '\t') => {
                if let Some(from) = start.take() {
                    words.push((from, &line[from..at]));
                }
            }
            (None, '\'' | '"') => {
                start.get_or_insert(at);
                quote = Some(c);
            }
            (None, _) => {
                start.get_or_insert(at);
            }
        }
    }
    if let Some(from) = start {
        words.push((from, &line[from..]));
    }
    match quote {
        Some(quote) => Err((words, quote)),
        None => Ok(words),
    }
}

/// `&&`, `||`, `;`, `|`, `&`, `(`, `)`, and the redirections (`>`, `2>&1`, `<`, `>>`).
fn is_operator(word: &str) -> bool {
    matches!(word, "&&" | "||" | ";" | ";;" | "|" | "&" | "(" | ")") || is_redirection(word)
}

fn is_redirection(word: &str) -> bool {
    let operator = word.trim_start_matches(|c: char| c.is_ascii_digit());
    matches!(operator, ">" | ">>" | "<" | ">&1" | ">&2" | "<&0" | ">|")
        || (operator.starts_with(">&") && operator[2..].bytes().all(|b| b.is_ascii_digit()))
}

/// The delimiter of a heredoc operator written as one word (`<<EOF`, `<<-EOF`, `<<'EOF'`,
/// `<<"EOF"`), its quotes removed.
fn heredoc_delimiter(word: &str) -> Option<String> {
    let rest = word.strip_prefix("<<")?;
    if rest.starts_with('<') {
        // `<<<`: a here-string, no heredoc.
        return None;
    }
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let delimiter: String = rest
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect();
    (!delimiter.is_empty()).then_some(delimiter)
}

/// A heredoc's delimiter as scripts write it: a name in capitals (`EOF`, `END_OF_CONFIG`),
/// bare or in one pair of quotes.
fn is_delimiter_word(word: &str) -> bool {
    let bare = ['\'', '"'].iter().find_map(|quote| {
        word.strip_prefix(*quote)
            .and_then(|word| word.strip_suffix(*quote))
    });
    let name = bare.unwrap_or(word);
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Whether a flag may be shown, and whether it takes a secret (its value, the next word, is
/// hidden whatever it is). A flag's name is shown (`-storepass`, `--password`); what is
/// attached to it is not (`--password=X`, mysql's `-pX`), save a cluster of a few letters
/// (`-fsS`, `-euo`).
fn flag(word: &str) -> (bool, bool) {
    let takes_secret = secrets::passes_a_secret(&format!("{word} x"))
        || matches!(word, "-u" | "-U" | "--user" | "-p" | "-P");
    let name = word.trim_start_matches('-');
    let long = word.starts_with("--");
    let name_characters = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_'));
    let shown = name_characters
        && if long {
            name.bytes().all(|b| !b.is_ascii_uppercase())
        } else {
            // `-c`, `-fsS`, `-euo`; keytool's and openssl's `-storepass`, `-keystore`.
            let cluster = name.len() <= 4 && name.bytes().all(|b| b.is_ascii_alphabetic());
            let word_flag = name.bytes().all(|b| b.is_ascii_lowercase());
            // A `-p` with more is mysql's password attached, unless a known flag.
            (cluster || word_flag) && (name.len() == 1 || !secrets::passes_a_secret(word))
        };
    (shown, takes_secret)
}

/// `NAME=value`: the name and the value as written.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    is_variable_name(name).then_some((name, value))
}

fn is_variable_name(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with(|c: char| c.is_ascii_digit())
        && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// An assignment kafkalint reads: a plain Kafka key's variable (in the images' spellings) to
/// a value that looks like no credential, whole (its quotes closed, no command in it).
fn shown_assignment(name: &str, value: &str) -> bool {
    // The statement's `;` may end its last word.
    let value = value.strip_suffix(';').unwrap_or(value);
    let whole = value.matches('"').count().is_multiple_of(2)
        && value.matches('\'').count().is_multiple_of(2)
        && !value.ends_with('\\')
        && !value.contains([';', '&', '|', '<', '>', '`', ' ', '\t'])
        && !value.contains("$(");
    let value = value.trim_matches(['"', '\'']);
    // Quotes only around it: text quoted in the middle joins other words on.
    let whole = whole && !value.contains(['"', '\'']);
    whole && secrets::name_kind(name) == KeyKind::Plain && !secrets::looks_like_credential(value)
}

/// A variable's name exported or unset: shown when it names a plain Kafka key's variable.
fn shown_name(name: &str) -> bool {
    secrets::name_kind(name) == KeyKind::Plain
}

/// `$NAME`, `${NAME}`, `"$NAME"`, `"$@"`, `$1`: a reference, no literal text.
fn is_variable_reference(word: &str) -> bool {
    let word = word
        .strip_prefix('"')
        .and_then(|word| word.strip_suffix('"'))
        .unwrap_or(word);
    let Some(name) = word.strip_prefix('$') else {
        return false;
    };
    let name = name
        .strip_prefix('{')
        .and_then(|name| name.strip_suffix('}'))
        .unwrap_or(name);
    // An environment variable's name as the convention writes it (`KAFKA_HOME`): text glued
    // on after it in another case is no name of one.
    matches!(name, "@" | "*" | "#" | "?")
        || (name.len() == 1 && name.bytes().all(|b| b.is_ascii_digit()))
        || (is_variable_name(name)
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'))
}

/// `key=value` of a plain Kafka key to a value output may show (`--override
/// num.partitions=3`, `--add-config retention.ms=1000`).
fn is_kafka_setting(word: &str) -> bool {
    word.split_once('=').is_some_and(|(key, value)| {
        // One value, no quoted text joined on.
        !value.contains(['"', '\'', '`', '\\', ';', '&', '|', '<', '>'])
            && secrets::key_kind(key) == KeyKind::Plain
            && secrets::may_show(key, value)
    })
}

/// A `.properties` file given to a command (`kafka-server-start.sh /opt/kafka/config/server.properties`):
/// kafkalint reads the file a container starts from.
fn is_properties_file(word: &str) -> bool {
    word.ends_with(".properties")
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-'))
        && !secrets::has_secret_word(word)
}

/// A command kafkalint knows: one of [`KNOWN_COMMANDS`], a Kafka tool (`kafka-storage`,
/// `kafka-server-start.sh`), an image's start-up program, or a path to one of those from the
/// folders programs are run from.
fn is_known_program(word: &str) -> bool {
    if IMAGE_PROGRAMS.contains(&word) {
        return true;
    }
    let (folders, name) = word.rsplit_once('/').unwrap_or(("", word));
    let kafka_tool = |name: &str| {
        ["kafka-", "zookeeper-", "connect-"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-.".contains(&b))
    };
    let known = KNOWN_COMMANDS.contains(&name) || kafka_tool(name);
    known
        && folders.split('/').all(|folder| {
            folder.is_empty()
                || PROGRAM_FOLDERS.contains(&folder)
                || (folder.starts_with("kafka")
                    && folder
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)))
        })
}

/// What output hides of a heredoc's line: the text a command is fed (a `.properties` file, as
/// often as not). Shown only blank, as a comment shows, or as an entry of a plain Kafka key to
/// a value that may be shown; else hidden whole.
fn data_line_hidden(line: &str) -> Option<Span> {
    let trimmed = line.trim_start_matches([' ', '\t']);
    let indent = line.len() - trimmed.len();
    if trimmed.is_empty() {
        return None;
    }
    if let Some(body) = trimmed
        .strip_prefix('#')
        .or_else(|| trimmed.strip_prefix('!'))
    {
        return secrets::comment_mask(body).map(|masked| indent + 1 + masked.start..line.len());
    }
    let whole = Some(0..line.len());
    if !trimmed.bytes().all(|b| b.is_ascii_graphic() || b == b' ') || line.ends_with('\\') {
        return whole;
    }
    let (parsed, error) = properties::parse_lenient(trimmed.as_bytes());
    match (parsed.entries.as_slice(), error) {
        ([entry], None)
            if secrets::key_kind(&entry.key) == KeyKind::Plain
                && secrets::may_show(&entry.key, &entry.value)
                && !entry.value.contains(' ') =>
        {
            None
        }
        _ => whole,
    }
}

#[cfg(test)]
mod tests {
    use super::hidden_spans;

    /// The hidden parts of a script, line by line.
    fn hidden(script: &str) -> Vec<String> {
        let mut at = 0;
        let lines: Vec<(std::ops::Range<usize>, &str)> = script
            .split('\n')
            .map(|line| {
                let span = at..at + line.len();
                at += line.len() + 1;
                (span, line)
            })
            .collect();
        hidden_spans(&lines)
            .into_iter()
            .map(|span| script[span].to_string())
            .collect()
    }

    #[test]
    fn what_kafkalint_reads_is_shown() {
        for script in [
            "export KAFKA_NODE_ID=${HOSTNAME##*-}",
            "export KAFKA_NODE_ID=1 KAFKA_PROCESS_ROLES=broker && \\",
            "export KAFKA_NODE_ID=${HOSTNAME##*-};",
            "exec /etc/confluent/docker/run",
            "set -euo pipefail",
            "kafka-server-start.sh /opt/kafka/config/server.properties --override num.partitions=3",
            "/opt/kafka_2.13-3.9.0/bin/kafka-storage.sh format -t $CLUSTER_ID -c \"$CONFIG\"",
            "export KAFKA_LOG_DIRS",
            "cat <<EOF > /dev/null\nnum.partitions=3\n# partitions\nEOF",
        ] {
            assert!(hidden(script).is_empty(), "{script}: {:?}", hidden(script));
        }
    }

    #[test]
    fn script_words_are_hidden_unless_known() {
        assert_eq!(
            hidden("export KAFKA_LISTENERS=PLAINTEXT://:9092 hunter-2 x=y"),
            ["hunter-2 x=y"]
        );
        assert_eq!(
            hidden("export KAFKA_NODE_ID=1 SSL_PASSWORD=hunter2 # password s3cret"),
            ["SSL_PASSWORD=hunter2", "s3cret"]
        );
        assert_eq!(
            hidden("export KAFKA_OPTS=\"-Xmx1g s3cret\" x"),
            ["KAFKA_OPTS=\"-Xmx1g s3cret\" x"]
        );
        assert_eq!(hidden("echo hunter2"), ["hunter2"]);
        assert_eq!(
            hidden("export KAFKA_NODE_ID=1 && echo hunter2"),
            ["hunter2"]
        );
        assert_eq!(
            hidden("KAFKA_NODE_ID=1;echo Hunter2Secret99"),
            ["1;echo Hunter2Secret99"]
        );
        assert_eq!(hidden("KAFKA_NODE_ID=1 echo Secret"), ["Secret"]);
        assert_eq!(
            hidden("kafka-configs --add-config password=hunter2"),
            ["password=hunter2"]
        );
        assert_eq!(hidden("export KAFKA_SSL_KEY_PASSWORD=hunter2"), ["hunter2"]);
        assert_eq!(hidden("hunter2"), ["hunter2"]);
        assert_eq!(hidden("exec hunter2"), ["hunter2"]);
    }

    #[test]
    fn continuation_heredoc_and_joints() {
        assert_eq!(
            hidden("keytool -importcert \\\n  -storepass \\\n  Hunter2 \\\n  -noprompt"),
            ["Hunter2"]
        );
        assert_eq!(hidden("kafka-storage format \\\n  Hunter2"), ["Hunter2"]);
        assert_eq!(
            hidden(
                "cat > /tmp/a <<'EOF'\nHunter2\nssl.key.password=x\nnum.partitions=1\nEOF\necho"
            ),
            ["/tmp/a", "Hunter2", "ssl.key.password=x"]
        );
        assert_eq!(hidden("export KAFKA_NODE_ID=1\tHunter2"), ["Hunter2"]);
        assert_eq!(
            hidden("export KAFKA_NODE_ID=1\u{a0}Hunter2"),
            ["1\u{a0}Hunter2"]
        );
        assert_eq!(hidden("mysql -pHunter2"), ["mysql -pHunter2"]);
        assert_eq!(hidden("curl -u admin:Hunter2 x"), ["admin:Hunter2 x"]);
        assert_eq!(
            hidden("echo \"a\nHunter2\nb\" && exec /etc/kafka/docker/run"),
            ["\"a", "Hunter2", "b\" && exec /etc/kafka/docker/run"]
        );
        assert_eq!(hidden("ab\\\nHunter2 -x"), ["ab\\", "Hunter2"]);
    }

    /// Scripts generated from shown words, joints and a secret put anywhere a word goes: the
    /// secret is hidden whole in every one. (Comments follow the comment rules of every file,
    /// [`crate::secrets::comment_mask`], tested there.)
    #[test]
    fn a_secret_anywhere_in_a_generated_script_is_hidden() {
        const SECRET: &str = "Zq7xSecretWord";
        const WORDS: &[&str] = &[
            "export",
            "exec",
            "kafka-storage",
            "format",
            "-c",
            "--bootstrap-server",
            "-storepass",
            "-p",
            "-u",
            "&&",
            "||",
            ";",
            "|",
            ">",
            "2>&1",
            "\\",
            "then",
            "$CLUSTER_ID",
            "KAFKA_NODE_ID=1",
            "/etc/confluent/docker/run",
            "<<EOF",
            "EOF",
            "\"",
            "'",
            "set",
            "-euo",
            "pipefail",
            "/opt/kafka/config/server.properties",
            "num.partitions=3",
            "x=",
            "=",
            "${HOSTNAME##*-}",
        ];
        // Joints that end a word: a secret glued on to a plain key's value is that value,
        // which output shows as it shows `num.partitions=3x` in a `.properties` file.
        const JOINTS: &[&str] = &[" ", "\t", "\u{a0}", " \\\n  ", "\n", "\"", "'"];
        let mut state = 0x5eed_u64;
        let mut next = |n: usize| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            ((z ^ (z >> 31)) % n as u64) as usize
        };
        for _ in 0..20_000 {
            let length = 1 + next(12);
            let secret_at = next(length + 1);
            let mut script = String::new();
            for index in 0..=length {
                let word = if index == secret_at {
                    SECRET
                } else {
                    WORDS[next(WORDS.len())]
                };
                script.push_str(word);
                script.push_str(JOINTS[next(JOINTS.len())]);
            }
            let mut at = 0;
            let lines: Vec<(std::ops::Range<usize>, &str)> = script
                .split('\n')
                .map(|line| {
                    let span = at..at + line.len();
                    at += line.len() + 1;
                    (span, line)
                })
                .collect();
            let hidden = hidden_spans(&lines);
            let start = script.find(SECRET).unwrap();
            let secret = start..start + SECRET.len();
            let covered = (secret.start..secret.end)
                .all(|byte| hidden.iter().any(|span| span.contains(&byte)));
            assert!(covered, "{script:?}: hidden {hidden:?}");
        }
    }
}
