//! The start-up scripts of Kafka containers in Kubernetes manifests, read as a POSIX shell runs
//! them, as far as they set the variables the image's scripts then turn into settings:
//!
//! ```sh
//! export KAFKA_NODE_ID=${HOSTNAME##*-} && \
//! export KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://${POD_NAME}.kafka-headless:9092
//! exec /etc/confluent/docker/run
//! ```
//!
//! Assignments, `export`, `unset`, parameter expansion (`$X`, `${X}`, `${X##*-}`, `${X#*-}`,
//! `${X:-default}`, `${X-default}`), arithmetic (`$((ORDINAL+1))`) and quoting are followed;
//! a command substitution (`$(cat file)`) gives an unknown value. A script with control flow
//! (`if`, `for`, `case`, a function) or a command run only on a condition (`a || b`) may set
//! anything: it is not followed, and says so; nor is one with control characters.

/// What a script leaves in the environment of the command it ends with.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Exported variables the script sets, in the order first set, with their last value
    /// (`None`: not known).
    pub exports: Vec<(String, Option<String>)>,
    /// False when the script does something kafkalint does not follow, after which any
    /// variable may hold anything.
    pub followed: bool,
    /// The script starts Kafka itself (`kafka-server-start.sh FILE`) rather than the image's
    /// own start-up, which turns the environment into settings.
    pub starts_kafka_itself: bool,
    /// The programs its commands run, in order (`/etc/confluent/docker/run`).
    pub programs: Vec<String>,
    /// An expansion nests deeper than kafkalint follows: what it sets is unknown.
    pub nested_too_deep: bool,
    /// The variables the last command gets for itself alone, in order, with their values
    /// (`None`: not known): `KAFKA_NODE_ID=${HOSTNAME##*-} exec /etc/confluent/docker/run`, or
    /// `env NAME=value program`. POSIX puts them in that command's environment only (Shell
    /// Command Language, 2.9.1 Simple Commands); when the command is the image's start-up,
    /// they are what its scripts read.
    pub command_environment: Vec<(String, Option<String>)>,
    /// Variables of the environment the script unsets (`unset KAFKA_ADVERTISED_LISTENERS`)
    /// and does not set again: the command it ends with does not get them.
    pub unsets: Vec<String>,
}

/// The programs that start a Kafka image the way its entry point does, checks included: the
/// `CMD` of confluentinc/cp-kafka and cp-server (kafka-images kafka/Dockerfile.ubi8,
/// server/Dockerfile.ubi8: `CMD ["/etc/confluent/docker/run"]`), apache/kafka's
/// (apache/kafka docker/jvm/Dockerfile: `/etc/kafka/docker/run`), bitnami/kafka's entry point
/// and `run.sh`, and wurstmeister/kafka's `CMD ["start-kafka.sh"]` (kafka-docker Dockerfile).
pub const IMAGE_START: &[&str] = &[
    "/etc/confluent/docker/run",
    "/etc/kafka/docker/run",
    "/opt/bitnami/scripts/kafka/run.sh",
    "/opt/bitnami/scripts/kafka/entrypoint.sh",
    "start-kafka.sh",
    "/usr/bin/start-kafka.sh",
];

/// Programs a start-up script may run before the image's start-up that change nothing the
/// image's scripts read: they print, wait or look. Any other (a script of the repository's own,
/// `sed`, `cp`) may edit the image's scripts or templates, as Confluent's own examples do to
/// drop a `dub ensure` line before `/etc/confluent/docker/run` (confluentinc/cp-all-in-one
/// cp-all-in-one/update_run.sh: `sed -i '/KAFKA_ZOOKEEPER_CONNECT/d' /etc/confluent/docker/
/// configure`).
const HARMLESS_BEFORE_START: &[&str] = &[
    "echo", "printf", "sleep", "cub", "ub", "true", ":", "test", "[", "mkdir", "ls", "cat", "date",
    "id", "hostname", "whoami",
];

impl Outcome {
    /// Whether the script, followed whole, ends by running the image's own start-up.
    pub fn runs_image(&self) -> bool {
        self.followed
            && self
                .programs
                .last()
                .is_some_and(|program| IMAGE_START.contains(&program.as_str()))
    }

    /// Whether the script ends by running the image's own start-up and runs nothing before it
    /// that may change the image's scripts: the image's checks then run as written.
    pub fn runs_image_as_shipped(&self) -> bool {
        self.runs_image()
            && self.programs[..self.programs.len() - 1]
                .iter()
                .all(|program| {
                    HARMLESS_BEFORE_START.contains(&program.rsplit('/').next().unwrap_or(program))
                })
    }
}

/// A command line written as one string, split into words as Compose splits `command:` and
/// `entrypoint:` strings (compose-go uses mattn/go-shellwords: blanks separate words outside
/// quotes, single quotes keep everything, double quotes keep all but `\\`, `\"` and `\$`
/// escapes, a backslash outside quotes escapes the next character); `None` when a quote does
/// not close.
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let (mut single, mut double) = (false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => {
                single = !single;
                in_word = true;
            }
            '"' if !single => {
                double = !double;
                in_word = true;
            }
            '\\' if !single => {
                let next = chars.next()?;
                if double && !matches!(next, '\\' | '"' | '$') {
                    current.push('\\');
                }
                current.push(next);
                in_word = true;
            }
            c if c.is_whitespace() && !single && !double => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            c => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if single || double {
        return None;
    }
    if in_word {
        words.push(current);
    }
    Some(words)
}

/// Where the script is in a container's command words: the word after a shell's `-c` flag
/// (`["sh", "-c", "..."]`, `["/bin/bash", "-ec", "..."]`); `None` when the command is no
/// shell running a script.
pub fn script_word(words: &[&str]) -> Option<usize> {
    let program = words.first()?.trim().rsplit('/').next().unwrap_or_default();
    if !matches!(program, "sh" | "bash" | "ash" | "dash") {
        return None;
    }
    let flag = words[1..]
        .iter()
        .position(|word| word.starts_with('-') && word.contains('c'))?;
    (flag + 2 < words.len()).then_some(flag + 2)
}

/// A variable as the script sees it: `None` when unset, `Some(None)` when set to a value that
/// is not known.
pub type Lookup<'a> = &'a dyn Fn(&str) -> Option<Option<String>>;

/// Runs `script` (what `sh -c` gets) over an environment that `environment` describes.
pub fn run(script: &str, environment: Lookup) -> Outcome {
    let mut shell = Shell {
        environment,
        nesting: std::cell::Cell::new(0),
        nested_too_deep: std::cell::Cell::new(false),
        locals: Vec::new(),
        exported: Vec::new(),
        unset: Vec::new(),
    };
    let mut outcome = Outcome {
        followed: true,
        ..Outcome::default()
    };
    // Control characters (a NUL, an escape) are no shell text kafkalint reads the words of.
    if script
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
    {
        outcome.followed = false;
        return outcome;
    }
    for statement in statements(script) {
        let statement = match statement {
            Some(statement) => statement,
            None => {
                outcome.followed = false;
                break;
            }
        };
        let Some(words) = split_words(&statement) else {
            outcome.followed = false;
            break;
        };
        let Some(first) = words.first() else { continue };
        if CONTROL.contains(&first.as_str()) || first.ends_with("()") || first.contains("()") {
            outcome.followed = false;
            break;
        }
        if first == "unset" {
            // `unset NAME` and `unset -v NAME` remove a variable; `-f` names functions,
            // which a followed script has none of.
            if words.get(1).is_some_and(|word| word == "-f") {
                continue;
            }
            for word in words[1..].iter().filter(|word| !word.starts_with('-')) {
                if assignment(&format!("{word}=")).is_none() {
                    outcome.followed = false;
                    break;
                }
                shell.unset(word);
            }
            continue;
        }
        if first == "export" {
            for word in &words[1..] {
                if word.starts_with('-') {
                    continue;
                }
                match assignment(word) {
                    Some((name, value)) => {
                        let value = shell.expand(value);
                        shell.set(name, value, true);
                    }
                    None => shell.export(word),
                }
            }
            continue;
        }
        let assignments: Vec<_> = words.iter().map_while(|word| assignment(word)).collect();
        if assignments.len() == words.len() {
            for (name, value) in assignments {
                let value = shell.expand(value);
                let exported = shell.is_exported(name);
                shell.set(name, value, exported);
            }
            continue;
        }
        // A command (with assignments for it alone): it changes no variable of the shell.
        let mut command = &words[assignments.len()..];
        let mut command_environment: Vec<(String, Option<String>)> = assignments
            .iter()
            .map(|(name, value)| (name.to_string(), shell.expand(value)))
            .collect();
        if command.first().is_some_and(|word| word == "exec") {
            command = &command[1..];
        }
        // `env NAME=value program`: env(1) adds the assignments to the program's environment.
        // With an option (`env -i` starts from an empty one) it is not followed.
        if command
            .first()
            .is_some_and(|word| word == "env" || word == "/usr/bin/env")
        {
            if command.get(1).is_some_and(|word| word.starts_with('-')) {
                outcome.followed = false;
                break;
            }
            let more: Vec<_> = command[1..]
                .iter()
                .map_while(|word| assignment(word))
                .collect();
            command_environment.extend(
                more.iter()
                    .map(|(name, value)| (name.to_string(), shell.expand(value))),
            );
            command = &command[1 + more.len()..];
        }
        outcome.command_environment = command_environment;
        let runs = |word: &String| word.contains("kafka-server-start") || word == "kafka.Kafka";
        if command.iter().any(runs) {
            outcome.starts_kafka_itself = true;
        }
        outcome.programs.extend(command.first().cloned());
    }
    outcome.exports = shell.exported;
    outcome.unsets = shell.unset;
    outcome.nested_too_deep = shell.nested_too_deep.get();
    outcome
}

/// How deep parentheses, `$((...))` or `${...}` defaults may nest before a value is called
/// unknown.
pub const MAX_NESTING: usize = 32;

/// Words that open or close a compound command or a function.
const CONTROL: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "function", "{", "}", "(", ")", "[[", "select", "trap", "source", ".", "eval", "read", "shift",
    "cd", "declare", "local", "readonly", "typeset",
];

struct Shell<'a> {
    environment: Lookup<'a>,
    /// How many expansions (`$((...))`, `${...}` defaults) enclose the one being read.
    nesting: std::cell::Cell<usize>,
    /// An expansion nested deeper than [`MAX_NESTING`] was met, and left unknown.
    nested_too_deep: std::cell::Cell<bool>,
    /// Variables the script set without exporting them.
    locals: Vec<(String, Option<String>)>,
    exported: Vec<(String, Option<String>)>,
    /// Variables of the environment the script unset, and has not exported again.
    unset: Vec<String>,
}

impl Shell<'_> {
    fn get(&self, name: &str) -> Option<Option<String>> {
        let find = |vars: &[(String, Option<String>)]| {
            vars.iter()
                .find(|(set, _)| set == name)
                .map(|(_, value)| value.clone())
        };
        find(&self.exported)
            .or_else(|| find(&self.locals))
            .or_else(|| {
                (!self.unset.iter().any(|unset| unset == name))
                    .then(|| (self.environment)(name))
                    .flatten()
            })
    }

    fn is_exported(&self, name: &str) -> bool {
        self.exported.iter().any(|(set, _)| set == name)
            || ((self.environment)(name).is_some()
                && !self.locals.iter().any(|(set, _)| set == name)
                && !self.unset.iter().any(|unset| unset == name))
    }

    /// `unset NAME`: gone from the shell, and from the environment of what it runs.
    fn unset(&mut self, name: &str) {
        self.exported.retain(|(set, _)| set != name);
        self.locals.retain(|(set, _)| set != name);
        if !self.unset.iter().any(|unset| unset == name) {
            self.unset.push(name.to_string());
        }
    }

    fn set(&mut self, name: &str, value: Option<String>, exported: bool) {
        let vars = if exported {
            self.locals.retain(|(set, _)| set != name);
            self.unset.retain(|unset| unset != name);
            &mut self.exported
        } else {
            &mut self.locals
        };
        match vars.iter_mut().find(|(set, _)| set == name) {
            Some((_, old)) => *old = value,
            None => vars.push((name.to_string(), value)),
        }
    }

    /// `export NAME`: a local becomes exported; a variable of the environment already is.
    fn export(&mut self, name: &str) {
        if let Some(at) = self.locals.iter().position(|(set, _)| set == name) {
            let (name, value) = self.locals.remove(at);
            self.set(&name, value, true);
        }
    }

    /// A word after quote removal and expansion; `None` when any part is not known.
    fn expand(&self, word: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = word;
        let mut quoted = false;
        while let Some(c) = rest.chars().next() {
            match c {
                '\'' if !quoted => {
                    let end = rest[1..].find('\'')? + 1;
                    out.push_str(&rest[1..end]);
                    rest = &rest[end + 1..];
                }
                '"' => {
                    quoted = !quoted;
                    rest = &rest[1..];
                }
                '\\' => {
                    let next = rest[1..].chars().next()?;
                    // Inside double quotes a backslash escapes only these.
                    if quoted && !"$`\"\\".contains(next) {
                        out.push('\\');
                    }
                    out.push(next);
                    rest = &rest[1 + next.len_utf8()..];
                }
                '`' => return None,
                '$' => {
                    let (value, used) = self.parameter(&rest[1..])?;
                    out.push_str(&value);
                    rest = &rest[1 + used..];
                }
                _ => {
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        Some(out)
    }

    /// The expansion after a `$` and how many bytes it took; `None` when not known, as it is
    /// nested deeper than [`MAX_NESTING`] expansions (`$(($((...))))`, arithmetic and defaults
    /// recurse into each other: the bound keeps the stack and the rescans of the rest small).
    fn parameter(&self, text: &str) -> Option<(String, usize)> {
        let nesting = self.nesting.get();
        if nesting >= MAX_NESTING {
            self.nested_too_deep.set(true);
            return None;
        }
        self.nesting.set(nesting + 1);
        let expanded = self.parameter_within_bound(text);
        self.nesting.set(nesting);
        expanded
    }

    fn parameter_within_bound(&self, text: &str) -> Option<(String, usize)> {
        if let Some(inner) = text.strip_prefix("((") {
            let end = arithmetic_end(inner)?;
            let value = self.arithmetic(&inner[..end])?;
            return Some((value.to_string(), end + 4));
        }
        if text.starts_with('(') {
            return None;
        }
        if let Some(inner) = text.strip_prefix('{') {
            let end = inner.find('}')?;
            let body = &inner[..end];
            let name_end = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(body.len());
            let (name, operation) = body.split_at(name_end);
            let value = self.get(name);
            let expanded = match operation {
                "" => value.unwrap_or(Some(String::new()))?,
                "##*-" => value
                    .unwrap_or(Some(String::new()))?
                    .rsplit('-')
                    .next()?
                    .to_string(),
                "#*-" => {
                    let value = value.unwrap_or(Some(String::new()))?;
                    value
                        .split_once('-')
                        .map_or(value.clone(), |(_, rest)| rest.to_string())
                }
                _ => {
                    let (empty_too, default) = if let Some(default) = operation.strip_prefix(":-") {
                        (true, default)
                    } else if let Some(default) = operation.strip_prefix('-') {
                        (false, default)
                    } else {
                        return None;
                    };
                    match value {
                        Some(Some(value)) if !(empty_too && value.is_empty()) => value,
                        Some(None) => return None,
                        _ => self.expand(default)?,
                    }
                }
            };
            return Some((expanded, end + 2));
        }
        let name_len = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        if name_len == 0 {
            // A `$` before anything else is itself.
            return Some(("$".into(), 0));
        }
        let value = self.get(&text[..name_len]).unwrap_or(Some(String::new()))?;
        Some((value, name_len))
    }

    /// `$((...))`: integers, variables and `+ - * / %` with parentheses, as the shell does
    /// (64-bit); `None` when a variable is not a known integer.
    fn arithmetic(&self, expression: &str) -> Option<i64> {
        let mut tokens = Vec::new();
        let mut rest = expression.trim();
        while !rest.is_empty() {
            let c = rest.chars().next()?;
            if c.is_whitespace() {
                rest = rest.trim_start();
                continue;
            }
            if "+-*/%()".contains(c) {
                tokens.push(Token::Op(c));
                rest = &rest[1..];
                continue;
            }
            let (value, used) = if c == '$' {
                let (value, used) = self.parameter(&rest[1..])?;
                (value, used + 1)
            } else {
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                if len == 0 {
                    return None;
                }
                let word = &rest[..len];
                let value = if word.chars().all(|c| c.is_ascii_digit()) {
                    word.to_string()
                } else {
                    // A name whose value is empty or unset counts as 0.
                    self.get(word).unwrap_or(Some(String::new()))?
                };
                (value, len)
            };
            let value = value.trim();
            tokens.push(Token::Number(if value.is_empty() {
                0
            } else {
                value.parse().ok()?
            }));
            rest = &rest[used..];
        }
        // Parentheses nest as deep as the text says: beyond a bound, unknown rather than a
        // recursion that could exhaust the stack.
        let mut depth = 0usize;
        for token in &tokens {
            match token {
                Token::Op('(') => depth += 1,
                Token::Op(')') => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth > MAX_NESTING {
                self.nested_too_deep.set(true);
                return None;
            }
        }
        let mut at = 0;
        let value = sum(&tokens, &mut at)?;
        (at == tokens.len()).then_some(value)
    }
}

/// Where the `))` that closes an arithmetic expansion starts in `inner` (what follows `$((`).
fn arithmetic_end(inner: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = inner.as_bytes();
    for (at, byte) in bytes.iter().enumerate() {
        match byte {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b')' => return (bytes.get(at + 1) == Some(&b')')).then_some(at),
            _ => {}
        }
    }
    None
}

#[derive(Debug, Clone, Copy)]
enum Token {
    Number(i64),
    Op(char),
}

fn sum(tokens: &[Token], at: &mut usize) -> Option<i64> {
    let mut value = product(tokens, at)?;
    while let Some(Token::Op(op @ ('+' | '-'))) = tokens.get(*at) {
        *at += 1;
        let right = product(tokens, at)?;
        value = if *op == '+' {
            value.checked_add(right)?
        } else {
            value.checked_sub(right)?
        };
    }
    Some(value)
}

fn product(tokens: &[Token], at: &mut usize) -> Option<i64> {
    let mut value = unary(tokens, at)?;
    while let Some(Token::Op(op @ ('*' | '/' | '%'))) = tokens.get(*at) {
        *at += 1;
        let right = unary(tokens, at)?;
        value = match op {
            '*' => value.checked_mul(right)?,
            '/' => value.checked_div(right)?,
            _ => value.checked_rem(right)?,
        };
    }
    Some(value)
}

/// Signs, then a number or a parenthesised sum. The signs are counted, not recursed into: a
/// script may write 300,000 of them.
fn unary(tokens: &[Token], at: &mut usize) -> Option<i64> {
    let mut negations = 0usize;
    while let Some(Token::Op(sign @ ('-' | '+'))) = tokens.get(*at) {
        negations += usize::from(*sign == '-');
        *at += 1;
    }
    let value = match tokens.get(*at)? {
        Token::Number(value) => {
            *at += 1;
            *value
        }
        Token::Op('(') => {
            *at += 1;
            let value = sum(tokens, at)?;
            matches!(tokens.get(*at), Some(Token::Op(')'))).then(|| *at += 1)?;
            value
        }
        Token::Op(_) => return None,
    };
    // Each `-` negates in turn: the smallest integer has no negation, so any `-` before it
    // overflows, and the rest cancel in pairs.
    match negations {
        0 => Some(value),
        _ if value == i64::MIN => None,
        _ if negations % 2 == 1 => Some(-value),
        _ => Some(value),
    }
}

/// `NAME=value`: the name and the value as written.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some((name, value))
}

/// The script's simple commands in order, each as its text; `None` in place of one run only on
/// a condition (after `||`) or in a background or a subshell, which is not followed.
fn statements(script: &str) -> Vec<Option<String>> {
    let mut statements = Vec::new();
    let mut current = String::new();
    let mut chars = script.chars().peekable();
    let (mut single, mut double) = (false, false);
    let mut depth = 0usize;
    let push = |current: &mut String, statements: &mut Vec<Option<String>>| {
        let text = current.trim();
        if !text.is_empty() {
            statements.push(Some(text.to_string()));
        }
        current.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                match chars.next() {
                    // A line continuation.
                    Some('\n') => {}
                    Some(next) => {
                        current.push('\\');
                        current.push(next);
                    }
                    None => {}
                }
                continue;
            }
            '(' if !single && (depth > 0 || current.ends_with('$')) => depth += 1,
            ')' if !single && depth > 0 => depth -= 1,
            '#' if !single
                && !double
                && depth == 0
                && current.chars().last().is_none_or(char::is_whitespace) =>
            {
                // A comment, to the end of the line.
                while chars.peek().is_some_and(|c| *c != '\n') {
                    chars.next();
                }
                continue;
            }
            '\n' | ';' if !single && !double && depth == 0 => {
                push(&mut current, &mut statements);
                continue;
            }
            '&' | '|' if !single && !double && depth == 0 => {
                let twice = chars.peek() == Some(&c);
                if twice {
                    chars.next();
                }
                match (c, twice) {
                    // `a && b`: b runs when a succeeds, as a start-up script expects.
                    ('&', true) => push(&mut current, &mut statements),
                    // `a | b` runs both, and sets no variable of the shell.
                    ('|', false) => current.push_str(" | "),
                    _ => {
                        push(&mut current, &mut statements);
                        statements.push(None);
                    }
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if single || double {
        statements.push(None);
    }
    push(&mut current, &mut statements);
    statements
}

/// A statement's words, split where the shell splits them (outside quotes and `$(...)`), still
/// quoted; `None` when its quotes do not close.
fn split_words(statement: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut current = String::new();
    let (mut single, mut double) = (false, false);
    let mut depth = 0usize;
    let mut chars = statement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
                continue;
            }
            '(' if !single && (depth > 0 || current.ends_with('$')) => depth += 1,
            ')' if !single && depth > 0 => depth -= 1,
            c if c.is_whitespace() && !single && !double && depth == 0 => {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if single || double || depth > 0 {
        return None;
    }
    if !current.is_empty() {
        words.push(current);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(name: &str) -> Option<Option<String>> {
        match name {
            "HOSTNAME" | "POD_NAME" => Some(Some("kafka-2".into())),
            "SECRET" => Some(None),
            _ => None,
        }
    }

    fn exports(script: &str) -> Vec<(String, Option<String>)> {
        let outcome = run(script, &pod);
        assert!(outcome.followed, "{script}");
        outcome.exports
    }

    fn known(name: &str, value: &str) -> (String, Option<String>) {
        (name.into(), Some(value.into()))
    }

    #[test]
    fn assignments_before_the_image_start_up_are_its_environment() {
        for script in [
            "KAFKA_NODE_ID=${HOSTNAME##*-} exec /etc/confluent/docker/run",
            "KAFKA_NODE_ID=${HOSTNAME##*-} /etc/confluent/docker/run",
            "exec env KAFKA_NODE_ID=${HOSTNAME##*-} /etc/confluent/docker/run",
            "echo starting; env KAFKA_NODE_ID=${POD_NAME##*-} /etc/confluent/docker/run",
        ] {
            let outcome = run(script, &pod);
            assert!(outcome.runs_image(), "{script}");
            assert_eq!(
                outcome.command_environment,
                vec![known("KAFKA_NODE_ID", "2")],
                "{script}"
            );
            // For that command alone: the shell's own variables are unchanged.
            assert!(outcome.exports.is_empty(), "{script}");
        }
        // An assignment for an earlier command is not the start-up's.
        let outcome = run("X=1 echo x; exec /etc/confluent/docker/run", &pod);
        assert!(outcome.runs_image());
        assert!(outcome.command_environment.is_empty());
        // `env -i` empties the environment: not followed.
        assert!(!run("env -i A=1 /etc/confluent/docker/run", &pod).followed);
        // A script that ends in something else does not start the image.
        assert!(!run("KAFKA_NODE_ID=1 exec sleep infinity", &pod).runs_image());
        // A script of its own run first may edit the image's scripts: its checks are not
        // known to run as shipped, though the image starts.
        let edited = run("/tmp/update-run.sh && /etc/confluent/docker/run", &pod);
        assert!(edited.runs_image() && !edited.runs_image_as_shipped());
        let waited = run(
            "echo waiting; cub zk-ready zk:2181 30 && exec /etc/confluent/docker/run",
            &pod,
        );
        assert!(waited.runs_image_as_shipped());
    }

    #[test]
    fn unset_variables_leave_the_environment_of_the_start_up() {
        let env = |name: &str| match name {
            "KAFKA_ADVERTISED_LISTENERS" => Some(Some(String::new())),
            "A" => Some(Some("1".into())),
            _ => None,
        };
        let outcome = run(
            "unset KAFKA_ADVERTISED_LISTENERS; exec /etc/confluent/docker/run",
            &env,
        );
        assert!(outcome.runs_image_as_shipped());
        assert_eq!(
            outcome.unsets,
            vec!["KAFKA_ADVERTISED_LISTENERS".to_string()]
        );
        // Set again and exported: not unset.
        let outcome = run("unset A; export A=2; B=$A; export B", &env);
        assert!(outcome.unsets.is_empty());
        assert_eq!(outcome.exports, vec![known("A", "2"), known("B", "2")]);
        // Unset, then read: empty, and what it was is gone.
        let outcome = run("unset -v A; export C=\"x${A}y\"", &env);
        assert_eq!(outcome.unsets, vec!["A".to_string()]);
        assert_eq!(outcome.exports, vec![known("C", "xy")]);
        assert!(!run("unset 'A B'", &env).followed);
    }

    #[test]
    fn compose_command_strings_split_as_shellwords_does() {
        assert_eq!(
            split_command(r#"sh -c "KAFKA_NODE_ID=1 exec /etc/confluent/docker/run""#),
            Some(vec![
                "sh".to_string(),
                "-c".to_string(),
                "KAFKA_NODE_ID=1 exec /etc/confluent/docker/run".to_string()
            ])
        );
        assert_eq!(
            split_command(r#"bash -c 'echo "$A"' \x "a\"b\n""#),
            Some(vec![
                "bash".to_string(),
                "-c".to_string(),
                "echo \"$A\"".to_string(),
                "x".to_string(),
                "a\"b\\n".to_string()
            ])
        );
        assert_eq!(split_command("sh -c 'unclosed"), None);
        assert_eq!(script_word(&["sh", "-c", "x"]), Some(2));
        assert_eq!(script_word(&["/bin/bash", "-ec", "x"]), Some(2));
        assert_eq!(script_word(&["sh", "-c"]), None);
        assert_eq!(script_word(&["/etc/confluent/docker/run"]), None);
    }

    #[test]
    fn exports_with_the_pod_ordinal() {
        let script = "export KAFKA_NODE_ID=${HOSTNAME##*-} && \\\nexport KAFKA_ADVERTISED_LISTENERS=SASL://${POD_NAME}.kafka-headless.kafka.svc.cluster.local:9092\n\nexec /etc/confluent/docker/run\n";
        assert_eq!(
            exports(script),
            vec![
                known("KAFKA_NODE_ID", "2"),
                known(
                    "KAFKA_ADVERTISED_LISTENERS",
                    "SASL://kafka-2.kafka-headless.kafka.svc.cluster.local:9092"
                ),
            ]
        );
    }

    #[test]
    fn signs_and_nested_expansions_are_bounded_not_recursed() {
        // Signs are counted: 300,000 of them neither recurse nor take long.
        for (signs, expected) in [(300_000, "7"), (300_001, "-7")] {
            let script = format!("export N=$(({}7))", "-".repeat(signs));
            assert_eq!(exports(&script), [known("N", expected)]);
        }
        assert_eq!(exports("export N=$((- + -3 * -(2)))"), [known("N", "-6")]);
        assert_eq!(
            exports("export N=$((--9223372036854775807-1))"),
            [known("N", "9223372036854775806")]
        );
        assert_eq!(
            exports("export N=$((-(-9223372036854775807-1)))"),
            [("N".to_string(), None)]
        );
        // Nested expansions: followed to the bound, unknown beyond it, said so.
        let nested =
            |levels: usize| format!("export N={}1{}", "$((".repeat(levels), "))".repeat(levels));
        let within = run(&nested(MAX_NESTING), &pod);
        assert_eq!(within.exports, [known("N", "1")]);
        assert!(!within.nested_too_deep);
        for levels in [MAX_NESTING + 1, 100_000] {
            let started = std::time::Instant::now();
            let beyond = run(&format!("{}\nexport M=2", nested(levels)), &pod);
            assert_eq!(beyond.exports, [("N".to_string(), None), known("M", "2")]);
            assert!(beyond.nested_too_deep && beyond.followed);
            assert!(started.elapsed() < std::time::Duration::from_secs(10));
        }
        let defaults = format!(
            "export N={}1{}",
            "${A:-".repeat(100_000),
            "}".repeat(100_000)
        );
        assert_eq!(run(&defaults, &pod).exports, [("N".to_string(), None)]);
    }

    #[test]
    fn locals_and_arithmetic() {
        let script = "ORDINAL=${HOSTNAME##*-}\nexport KAFKA_NODE_ID=$((ORDINAL+1))\n# a comment $(x)\nexport CLUSTER_ID=$(cat /etc/kafka-config/CLUSTER_ID)\nexport A=\"x y\" B='$HOSTNAME' C=${UNSET:-dflt} D=$(( (ORDINAL + 1) * 2 ))\nexec /etc/kafka/docker/run";
        assert_eq!(
            exports(script),
            vec![
                known("KAFKA_NODE_ID", "3"),
                ("CLUSTER_ID".into(), None),
                known("A", "x y"),
                known("B", "$HOSTNAME"),
                known("C", "dflt"),
                known("D", "6"),
            ]
        );
    }

    #[test]
    fn a_variable_of_the_environment_stays_exported_and_unknowns_spread() {
        let script = "POD_NAME=other; X=${SECRET}; export X\nexport Y=$((SECRET+1)) Z=`hostname`";
        assert_eq!(
            exports(script),
            vec![
                known("POD_NAME", "other"),
                ("X".into(), None),
                ("Y".into(), None),
                ("Z".into(), None),
            ]
        );
    }

    #[test]
    fn control_flow_and_conditions_are_not_followed() {
        for script in [
            "if [ -f x ]; then export A=1; fi",
            "test -f x || export A=1",
            "f() { export A=1; }; f",
            "export A='unclosed",
            "for i in 1 2; do export A=$i; done",
        ] {
            assert!(!run(script, &pod).followed, "{script}");
        }
    }

    #[test]
    fn deep_nesting_is_unknown_not_a_crash() {
        let deep = format!(
            "export A=$(({}1{}))",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        assert_eq!(exports(&deep), vec![("A".to_string(), None)]);
        let nested = format!("export B={}x{}", "${U:-".repeat(10_000), "}".repeat(10_000));
        assert_eq!(exports(&nested), vec![("B".to_string(), None)]);
    }

    #[test]
    fn a_script_that_starts_kafka_itself() {
        let outcome = run(
            "exec kafka-server-start.sh /etc/kafka/server.properties --override broker.id=${HOSTNAME##*-}",
            &pod,
        );
        assert!(outcome.starts_kafka_itself && outcome.followed);
        assert!(!run("exec /etc/confluent/docker/run", &pod).starts_kafka_itself);
    }
}
