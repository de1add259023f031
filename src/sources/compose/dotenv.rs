//! Docker Compose's variables, read as Compose reads them: the project's `.env`, a service's
//! `env_file:`, and the `${...}` interpolation of the compose file and of both kinds of file.
//!
//! The reference is compose-go v2.16.2, the Compose specification's loader that `docker compose`
//! runs: `dotenv/parser.go` (the file format), `template/template.go` (interpolation),
//! `cli/options.go` (`.env` in the project folder) and `types/project.go` (`resolveEnvironment`:
//! an env_file's variables, overridden by `environment:`). `tests/compose_env.rs` runs it on
//! generated projects and compares.
//!
//! Compose also takes variables from the shell it runs in, before `.env`. kafkalint cannot see
//! that shell: it reads the files as if it set nothing, and a value that needs a variable no
//! file sets is unknown rather than Compose's blank.

use std::collections::HashMap;

/// A variable as a lookup finds it: `None` when no file sets it; `Some(None)` when it is set to
/// a value that is not known (it depends on the shell).
pub type Found = Option<Option<String>>;

/// Variables by name; a `None` value is set but unknown.
pub type Vars = HashMap<String, Option<String>>;

/// Where a variable of an env file is set: its name and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub line: usize,
    /// Its value nests `${...}` defaults deeper than [`MAX_NESTING`]: not followed, unknown.
    pub nesting_too_deep: bool,
}

/// Why Compose refuses an env file: the line and what is wrong, never the line's text (an env
/// file holds passwords).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub what: &'static str,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Reads an env file into `vars` (later assignments override earlier ones and those already
/// there), as compose-go's `parser.parse`. A value's `${...}` looks in `lookup` first, then in
/// `vars`. A line holding a name alone takes its value from `lookup`, or leaves it unset.
pub fn parse(
    text: &str,
    vars: &mut Vars,
    lookup: &dyn Fn(&str) -> Found,
) -> Result<Vec<Assignment>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser { line: 1 };
    let mut assignments = Vec::new();
    let mut rest = text;
    loop {
        rest = parser.statement_start(rest);
        if rest.is_empty() {
            break;
        }
        let (name, after, inherited) = parser.key_name(rest)?;
        if name.contains(' ') {
            return Err(parser.error("a variable name cannot contain a space"));
        }
        let line = parser.line - usize::from(inherited);
        if inherited {
            if let Some(value) = lookup(&name) {
                vars.insert(name.clone(), value);
                assignments.push(Assignment {
                    name,
                    line,
                    nesting_too_deep: false,
                });
            }
            rest = after;
            continue;
        }
        let (value, after) = parser.value(after, vars, lookup)?;
        vars.insert(name.clone(), value.value);
        assignments.push(Assignment {
            name,
            line,
            nesting_too_deep: value.too_deep,
        });
        rest = after;
    }
    Ok(assignments)
}

struct Parser {
    line: usize,
}

/// Why Compose refuses a value: compose-go's "Invalid template".
const INVALID: &str = "a `${` that is not a valid template";

/// Go's `unicode.IsSpace`: Unicode's White_Space, as Rust's.
fn is_unicode_space(c: char) -> bool {
    c.is_whitespace()
}

/// The parser's `isSpace`: a space that does not end a line.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    )
}

impl Parser {
    fn error(&self, what: &'static str) -> ParseError {
        ParseError {
            line: self.line,
            what,
        }
    }

    /// Skips spaces, blank lines and comment lines (counting lines).
    fn statement_start<'a>(&mut self, mut src: &'a str) -> &'a str {
        loop {
            let Some(at) = src.find(|c: char| {
                if c == '\n' {
                    self.line += 1;
                }
                !is_unicode_space(c)
            }) else {
                return "";
            };
            src = &src[at..];
            if !src.starts_with('#') {
                return src;
            }
            match src.find('\n') {
                Some(end) => src = &src[end..],
                None => return "",
            }
        }
    }

    /// The variable's name, the text after `=` (or `:`), and whether the line holds the name
    /// alone.
    fn key_name<'a>(&mut self, mut src: &'a str) -> Result<(String, &'a str, bool), ParseError> {
        if let Some(after) = src.strip_prefix("export")
            // The regular expression `^export\s+`: RE2's `\s` is these five.
            && after.starts_with(['\t', '\n', '\u{c}', '\r', ' '])
        {
            src = after.trim_start_matches(is_space);
        }
        let mut key = "";
        let mut offset = 0;
        let mut inherited = false;
        for (at, c) in src.char_indices() {
            if is_space(c) {
                continue;
            }
            match c {
                '=' | ':' | '\n' => {
                    key = &src[..at];
                    offset = at + 1;
                    inherited = c == '\n';
                    break;
                }
                '_' | '.' | '-' | '[' | ']' => {}
                c if c.is_alphanumeric() => {}
                _ => return Err(self.error("unexpected character in a variable name")),
            }
        }
        if inherited && !key.contains(' ') {
            self.line += 1;
        }
        let key = key.trim_end_matches(is_unicode_space).to_string();
        Ok((key, src[offset..].trim_start_matches(is_space), inherited))
    }

    /// The value at the start of `src` and the text after it.
    fn value<'a>(
        &mut self,
        src: &'a str,
        vars: &Vars,
        lookup: &dyn Fn(&str) -> Found,
    ) -> Result<(Interpolated, &'a str), ParseError> {
        let mapping = |name: &str| lookup(name).or_else(|| vars.get(name).cloned());
        let quote = match src.as_bytes().first() {
            Some(&q @ (b'"' | b'\'')) => q as char,
            _ => {
                let (value, rest) = src.split_once('\n').unwrap_or((src, ""));
                self.line += 1;
                let value = value.split(" #").next().unwrap_or_default();
                let value = value.trim_end_matches(is_unicode_space);
                let value = interpolate(value, &mapping).map_err(|_| self.error(INVALID))?;
                return Ok((value, rest));
            }
        };
        let mut chars = String::new();
        let mut escaped = false;
        for (at, c) in src.char_indices().skip(1) {
            if c == '\n' {
                self.line += 1;
            }
            if c != quote {
                if !escaped && c == '\\' {
                    escaped = true;
                    continue;
                }
                if escaped {
                    escaped = false;
                    chars.push('\\');
                }
                chars.push(c);
                continue;
            }
            if escaped {
                escaped = false;
                chars.push(c);
                continue;
            }
            let value = if quote == '"' {
                interpolate(&expand_escapes(&chars), &mapping).map_err(|_| self.error(INVALID))?
            } else {
                Interpolated {
                    value: Some(chars),
                    too_deep: false,
                }
            };
            return Ok((value, &src[at + 1..]));
        }
        Err(self.error("a quoted value is not terminated"))
    }
}

/// The escapes of a double-quoted value (compose-go's `expandEscapes`): `\n`, `\t`, ... and
/// octal `\0NNN`; `\$` stays a `$` that interpolation leaves alone (`$$`).
fn expand_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&next) = chars.peek() else {
            out.push(c);
            break;
        };
        let simple = match next {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'c' => None,
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            _ => None,
        };
        if let Some(replacement) = simple {
            chars.next();
            out.push(replacement);
        } else if next == '$' {
            chars.next();
            out.push_str("$$");
        } else if next == '0' {
            // `\0` and up to three digits: Go rewrites `\0` to `\` and reads the digits as an
            // octal escape, which needs exactly three octal digits; any other form stays as
            // rewritten, the 0 gone (`"\01"` is `\1`).
            chars.next();
            let mut digits = String::new();
            while digits.len() < 3 && chars.peek().is_some_and(char::is_ascii_digit) {
                digits.push(chars.next().expect("peeked"));
            }
            match u8::from_str_radix(&digits, 8) {
                Ok(byte) if digits.len() == 3 => out.push(char::from(byte)),
                _ => {
                    out.push('\\');
                    out.push_str(&digits);
                }
            }
        } else {
            // `\c` and anything else: Go's UnquoteChar refuses or is not asked; kept.
            out.push(c);
        }
    }
    out
}

/// A name of `$NAME` and `${NAME...}`: `[_a-zA-Z][_a-zA-Z0-9]*`. Go matches the pattern
/// without regard to case, so the long s (U+017F) and the Kelvin sign (U+212A), which fold to
/// `s` and `k`, count as letters there: text holding either is not judged (`usize::MAX`).
fn name_len(text: &str) -> usize {
    if text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .any(|c| c == '\u{17f}' || c == '\u{212a}')
    {
        return usize::MAX;
    }
    let bytes = text.as_bytes();
    if !bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return 0;
    }
    bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(bytes.len())
}

/// How deep `${NAME:-${OTHER:-...}}` defaults are followed. Compose files nest two or three
/// levels; Compose itself (Go, whose stacks grow) follows any depth. Deeper, kafkalint does not
/// follow the value: it is unknown, and the reader says where.
pub const MAX_NESTING: usize = 64;

/// A template with what interpolation looks up in it, found in one pass: which `}` closes each
/// `${`, and where its line breaks are. Nested defaults are ranges of the one text, so no
/// level scans again what an outer one has scanned.
struct Template<'a> {
    text: &'a str,
    /// `(offset of the $, offset of the closing })` for each `${` that is closed, by the
    /// offset of its `$`.
    closes: Vec<(usize, usize)>,
    line_breaks: Vec<usize>,
    mapping: &'a dyn Fn(&str) -> Found,
    too_deep: std::cell::Cell<bool>,
}

impl<'a> Template<'a> {
    fn new(text: &'a str, mapping: &'a dyn Fn(&str) -> Found) -> Template<'a> {
        Template {
            text,
            closes: brace_closes(text),
            line_breaks: memchr::memchr_iter(b'\n', text.as_bytes()).collect(),
            mapping,
            too_deep: std::cell::Cell::new(false),
        }
    }

    /// The `}` closing the `${` whose `$` is at `dollar`, if it lies before `end`.
    fn close_of(&self, dollar: usize, end: usize) -> Option<usize> {
        let at = self
            .closes
            .binary_search_by_key(&dollar, |(open, _)| *open)
            .ok()?;
        Some(self.closes[at].1).filter(|close| *close < end)
    }

    fn has_line_break(&self, start: usize, end: usize) -> bool {
        let first = self.line_breaks.partition_point(|at| *at < start);
        self.line_breaks.get(first).is_some_and(|at| *at < end)
    }

    /// Interpolates `text[start..end]`, `depth` defaults deep.
    fn expand(
        &self,
        start: usize,
        end: usize,
        depth: usize,
    ) -> Result<Option<String>, InvalidTemplate> {
        if depth > MAX_NESTING {
            self.too_deep.set(true);
            return Ok(None);
        }
        let text = self.text;
        let mut out = String::with_capacity(end - start);
        let mut known = true;
        let mut position = start;
        while let Some(found) = memchr::memchr(b'$', &text.as_bytes()[position..end]) {
            let at = position + found;
            out.push_str(&text[position..at]);
            let after = &text[at + 1..end];
            if after.starts_with('$') {
                out.push('$');
                position = at + 2;
                continue;
            }
            let named = name_len(after);
            if named == usize::MAX {
                return Ok(None);
            }
            if named > 0 {
                match (self.mapping)(&after[..named]).flatten() {
                    Some(value) => out.push_str(&value),
                    None => known = false,
                }
                position = at + 1 + named;
                continue;
            }
            if !after.starts_with('{') {
                out.push('$');
                position = at + 1;
                continue;
            }
            let close = self.close_of(at, end).ok_or(InvalidTemplate)?;
            // Go's template pattern does not match across a line break.
            if self.has_line_break(at + 2, close) {
                return Err(InvalidTemplate);
            }
            position = close + 1;
            match self.braced(at + 2, close, depth)? {
                Some(value) => out.push_str(&value),
                None => known = false,
            }
        }
        out.push_str(&text[position..end]);
        Ok(known.then_some(out))
    }

    /// The value of `${inner}`, `inner` being `text[start..end]`.
    fn braced(
        &self,
        start: usize,
        end: usize,
        depth: usize,
    ) -> Result<Option<String>, InvalidTemplate> {
        let inner = &self.text[start..end];
        let mapping = self.mapping;
        let named = name_len(inner);
        if named == usize::MAX {
            return Ok(None);
        }
        if named == 0 {
            return Err(InvalidTemplate);
        }
        let operation = &inner[named..];
        if operation.is_empty() {
            return Ok(mapping(inner).flatten());
        }
        let operator = ["?", "-", "+"].into_iter().find_map(|sign| {
            operation
                .strip_prefix(':')
                .and_then(|tail| tail.strip_prefix(sign))
                .map(|argument| (sign, true, argument))
                .or_else(|| {
                    operation
                        .strip_prefix(sign)
                        .map(|argument| (sign, false, argument))
                })
        });
        // Anything else after the name (`${A B}`, `${A:x}`) is not a template.
        let (sign, colon, argument) = operator.ok_or(InvalidTemplate)?;
        let found = mapping(&inner[..named]);
        // Set, and (with a colon) not empty: `None` when set to an unknown value.
        let present = match &found {
            None => Some(false),
            Some(None) => None,
            Some(Some(value)) => Some(!colon || !value.is_empty()),
        };
        // The argument is a template too, read only when it is used (as Go does).
        let argument = || self.expand(end - argument.len(), end, depth + 1);
        Ok(match sign {
            "-" => match present {
                None => None,
                Some(true) => found.flatten(),
                Some(false) => argument()?,
            },
            "+" => match (colon, &found, present) {
                // `+`: set at all, whatever its value.
                (false, Some(_), _) => argument()?,
                (_, _, None) => None,
                (_, _, Some(true)) => argument()?,
                (_, _, Some(false)) => Some(found.flatten().unwrap_or_default()),
            },
            _ => match present {
                Some(true) => found.flatten(),
                // A required variable missing: Compose stops (or the shell sets it).
                _ => None,
            },
        })
    }
}

/// Which `}` closes each `${` of `text`, as compose-go's `getFirstBraceClosingIndex` finds it
/// from that `${`, for every `${` at once. That function counts a `{` as an opening and skips
/// the byte after it, and a `}` as a closing: every scan from a `${` steps through the same
/// bytes from its `{` on (a byte after anything but a `{` is stepped on by every scan that
/// passes it), so the scans are one bracket matching over those bytes.
fn brace_closes(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut open = Vec::new();
    let mut closes = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'}' => {
                if let Some(brace) = open.pop()
                    && brace > 0
                    && bytes[brace - 1] == b'$'
                {
                    closes.push((brace - 1, at));
                }
            }
            b'{' => {
                open.push(at);
                at += 1;
            }
            _ => {}
        }
        at += 1;
    }
    closes.sort_unstable();
    closes
}

/// Interpolates `template` as compose-go's `template.Substitute`: `$$` is `$`; `$NAME` and
/// `${NAME}`; `${NAME:-default}`, `${NAME-default}`, `${NAME:+other}`, `${NAME+other}`,
/// `${NAME:?error}`, `${NAME?error}`, defaults themselves interpolated. `None` when the value is
/// not known: it needs a variable no file sets (Compose would take the shell's, or a blank), or
/// Compose refuses it (a required variable missing, `${` that is not a template).
pub fn substitute(template: &str, mapping: &dyn Fn(&str) -> Found) -> Option<String> {
    checked(template, mapping).ok().flatten()
}

/// `${` that is not a template (`${}`, `${A B}`, no closing brace, a line break inside):
/// Compose refuses the file that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidTemplate;

/// [`substitute`], telling a value that is not known (`Ok(None)`) from a template Compose
/// refuses.
pub fn checked(
    template: &str,
    mapping: &dyn Fn(&str) -> Found,
) -> Result<Option<String>, InvalidTemplate> {
    interpolate(template, mapping).map(|interpolated| interpolated.value)
}

/// What interpolating a template gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interpolated {
    /// The value; `None` when not known.
    pub value: Option<String>,
    /// Defaults nest deeper than [`MAX_NESTING`]: not followed, so the value is unknown.
    pub too_deep: bool,
}

/// [`checked`], saying also whether the template nests deeper than kafkalint follows.
pub fn interpolate(
    template: &str,
    mapping: &dyn Fn(&str) -> Found,
) -> Result<Interpolated, InvalidTemplate> {
    let template_read = Template::new(template, mapping);
    let value = template_read.expand(0, template.len(), 0)?;
    Ok(Interpolated {
        value,
        too_deep: template_read.too_deep.get(),
    })
}

/// The first line (1-based) of `text` on which `${` nest deeper than [`MAX_NESTING`], to
/// say where a value was not followed (a template cannot run over a line break).
pub fn first_line_nested_too_deep(text: &str) -> Option<usize> {
    text.split('\n')
        .position(|line| {
            let mut depth = 0usize;
            let mut deepest = 0usize;
            let bytes = line.as_bytes();
            for (at, byte) in bytes.iter().enumerate() {
                match byte {
                    b'{' if at > 0 && bytes[at - 1] == b'$' => {
                        depth += 1;
                        deepest = deepest.max(depth);
                    }
                    b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            deepest > MAX_NESTING
        })
        .map(|index| index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vars {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Some(v.to_string())))
            .collect()
    }

    fn with(vars: &Vars, template: &str) -> Option<String> {
        substitute(template, &|name| vars.get(name).cloned())
    }

    #[test]
    fn interpolation_follows_compose() {
        let set = vars(&[("RF", "3"), ("EMPTY", "")]);
        assert_eq!(with(&set, "a$$b").as_deref(), Some("a$b"));
        assert_eq!(with(&set, "${RF}x$RF").as_deref(), Some("3x3"));
        assert_eq!(with(&set, "${NOPE:-1}").as_deref(), Some("1"));
        assert_eq!(with(&set, "${EMPTY:-1}").as_deref(), Some("1"));
        assert_eq!(with(&set, "${EMPTY-1}").as_deref(), Some(""));
        assert_eq!(with(&set, "${RF:+on}").as_deref(), Some("on"));
        assert_eq!(with(&set, "${NOPE+on}").as_deref(), Some(""));
        assert_eq!(with(&set, "${NOPE:-${RF}}").as_deref(), Some("3"));
        assert_eq!(with(&set, "${RF:?set it}").as_deref(), Some("3"));
        assert_eq!(with(&set, "$1 $ x").as_deref(), Some("$1 $ x"));
        assert_eq!(with(&set, "${NOPE}"), None);
        assert_eq!(with(&set, "$NOPE"), None);
        assert_eq!(with(&set, "${NOPE:?set it}"), None);
        assert_eq!(with(&set, "${EMPTY:?set it}"), None);
        assert_eq!(with(&set, "${A B}"), None);
        assert_eq!(with(&set, "${RF"), None);
        assert_eq!(with(&set, "${NOPE:-a\nb}"), None);
        assert_eq!(with(&set, "$\u{17f}"), None);
    }

    /// compose-go's `getFirstBraceClosingIndex` as written, scanning from one `${`: the
    /// reference the one-pass matching of every `${` must agree with.
    fn closing_brace_scanned(text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let mut open = 0i32;
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] == b'}' {
                open -= 1;
                if open == 0 {
                    return Some(at);
                }
            }
            if bytes[at] == b'{' {
                open += 1;
                at += 1;
            }
            at += 1;
        }
        None
    }

    #[test]
    fn one_pass_brace_matching_agrees_with_a_scan_from_each_template() {
        // Every string of up to 9 bytes over the bytes that matter, and every `${` in it,
        // within every end a nested default may have.
        let alphabet = [b'$', b'{', b'}', b'a'];
        for len in 0..=9u32 {
            for number in 0..alphabet.len().pow(len) {
                let mut digits = number;
                let text: String = (0..len)
                    .map(|_| {
                        let byte = alphabet[digits % alphabet.len()];
                        digits /= alphabet.len();
                        byte as char
                    })
                    .collect();
                let template = Template::new(&text, &|_| None);
                for (dollar, _) in text.match_indices("${") {
                    for end in dollar + 2..=text.len() {
                        assert_eq!(
                            template.close_of(dollar, end),
                            closing_brace_scanned(&text[dollar..end]).map(|close| dollar + close),
                            "{text:?} from {dollar} to {end}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn deep_defaults_are_unknown_past_the_bound_and_linear_in_time() {
        let nested =
            |levels: usize| format!("{}3{}", "${NOPE:-".repeat(levels), "}".repeat(levels));
        let set = vars(&[]);
        assert_eq!(with(&set, &nested(MAX_NESTING)).as_deref(), Some("3"));
        let too_deep = interpolate(&nested(MAX_NESTING + 1), &|_| None).unwrap();
        assert_eq!((too_deep.value, too_deep.too_deep), (None, true));
        // 200,000 levels: no stack overflow, and no rescan of the rest at each level (which
        // took minutes at this size).
        let started = std::time::Instant::now();
        let deep = interpolate(&nested(200_000), &|_| None).unwrap();
        assert!(deep.too_deep && deep.value.is_none());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        // An env file says on which line it stopped following, and reads on.
        let text = format!("A=1\nB={}\nC=2\n", nested(100_000));
        let mut read = Vars::new();
        let assignments = parse(&text, &mut read, &|_| None).unwrap();
        let deep: Vec<usize> = assignments
            .iter()
            .filter(|assignment| assignment.nesting_too_deep)
            .map(|assignment| assignment.line)
            .collect();
        assert_eq!(deep, [2]);
        assert_eq!(
            (
                read["A"].as_deref(),
                read["B"].as_deref(),
                read["C"].as_deref()
            ),
            (Some("1"), None, Some("2"))
        );
        assert_eq!(first_line_nested_too_deep(&text), Some(2));
    }

    #[test]
    fn octal_escapes_drop_the_zero_as_go_does() {
        let mut read = Vars::new();
        parse(
            "A=\"x\\01y\"\nB=\"\\0101\"\nC=\"x\\0400\"\n",
            &mut read,
            &|_| None,
        )
        .unwrap();
        assert_eq!(read["A"].as_deref(), Some("x\\1y"));
        assert_eq!(read["B"].as_deref(), Some("A"));
        assert_eq!(read["C"].as_deref(), Some("x\\400"));
    }

    #[test]
    fn env_files_read_as_compose_reads_them() {
        let text = "\u{feff}# comment\nRF=3\nexport A = x # inline\nB=\"q\\n$RF\"\nC='lit $RF'\n\nD=${RF}${NOPE:-d}\nINHERITED\n";
        let mut read = Vars::new();
        let lookup = |name: &str| (name == "INHERITED").then(|| Some("from shell".to_string()));
        let assignments = parse(text, &mut read, &lookup).unwrap();
        assert_eq!(read["RF"].as_deref(), Some("3"));
        assert_eq!(read["A"].as_deref(), Some("x"));
        assert_eq!(read["B"].as_deref(), Some("q\n3"));
        assert_eq!(read["C"].as_deref(), Some("lit $RF"));
        assert_eq!(read["D"].as_deref(), Some("3d"));
        assert_eq!(read["INHERITED"].as_deref(), Some("from shell"));
        let lines: Vec<(String, usize)> =
            assignments.into_iter().map(|a| (a.name, a.line)).collect();
        assert_eq!(
            lines,
            [
                ("RF", 2),
                ("A", 3),
                ("B", 4),
                ("C", 5),
                ("D", 7),
                ("INHERITED", 8)
            ]
            .map(|(n, l)| (n.to_string(), l))
        );
    }

    #[test]
    fn refused_env_files_name_the_line_not_its_text() {
        let mut read = Vars::new();
        let error = parse("A=1\nPASS word=secret\n", &mut read, &|_| None).unwrap_err();
        assert_eq!(error.line, 2);
        assert!(!error.to_string().contains("secret"));
        let error = parse("A=\"open\n", &mut Vars::new(), &|_| None).unwrap_err();
        assert_eq!(error.what, "a quoted value is not terminated");
    }
}
