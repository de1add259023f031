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
                assignments.push(Assignment { name, line });
            }
            rest = after;
            continue;
        }
        let (value, after) = parser.value(after, vars, lookup)?;
        vars.insert(name.clone(), value);
        assignments.push(Assignment { name, line });
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
    ) -> Result<(Option<String>, &'a str), ParseError> {
        let mapping = |name: &str| lookup(name).or_else(|| vars.get(name).cloned());
        let quote = match src.as_bytes().first() {
            Some(&q @ (b'"' | b'\'')) => q as char,
            _ => {
                let (value, rest) = src.split_once('\n').unwrap_or((src, ""));
                self.line += 1;
                let value = value.split(" #").next().unwrap_or_default();
                let value = value.trim_end_matches(is_unicode_space);
                let value = checked(value, &mapping).map_err(|_| self.error(INVALID))?;
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
                checked(&expand_escapes(&chars), &mapping).map_err(|_| self.error(INVALID))?
            } else {
                Some(chars)
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

/// compose-go's `getFirstBraceClosingIndex`, on text starting at `${`.
fn closing_brace(text: &str) -> Option<usize> {
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
    let mut out = String::with_capacity(template.len());
    let mut known = true;
    let mut rest = template;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
            continue;
        }
        let named = name_len(after);
        if named == usize::MAX {
            return Ok(None);
        }
        if named > 0 {
            match mapping(&after[..named]).flatten() {
                Some(value) => out.push_str(&value),
                None => known = false,
            }
            rest = &after[named..];
            continue;
        }
        if !after.starts_with('{') {
            out.push('$');
            rest = after;
            continue;
        }
        let close = closing_brace(&rest[at..]).ok_or(InvalidTemplate)?;
        let inner = &rest[at + 2..at + close];
        // Go's template pattern does not match across a line break.
        if inner.contains('\n') {
            return Err(InvalidTemplate);
        }
        rest = &rest[at + close + 1..];
        match braced(inner, mapping)? {
            Some(value) => out.push_str(&value),
            None => known = false,
        }
    }
    out.push_str(rest);
    Ok(known.then_some(out))
}

/// The value of `${inner}`.
fn braced(inner: &str, mapping: &dyn Fn(&str) -> Found) -> Result<Option<String>, InvalidTemplate> {
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
    let argument = || checked(argument, mapping);
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
