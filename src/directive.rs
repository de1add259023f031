//! `# kafkalint: ignore[...]` and `# kafkalint: ignore-file[...]` comments as written: what one
//! says, and which diagnostics a suppression can reach. Applying them to findings is the
//! report's work (`suppress`); `unused-suppression` words what is wrong with one.

use std::ops::RangeInclusive;

use crate::properties::{Span, is_whitespace};

/// What a suppression comment says, with spans relative to the comment's first byte (its marker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// `ignore-file[...]` rather than `ignore[...]`.
    pub whole_file: bool,
    /// Each rule name as written, with its bytes in the comment.
    pub names: Vec<(String, Span)>,
    /// The text after `]`, if any.
    pub reason: Option<String>,
}

/// Reads one comment line (marker included). `None` when it is no kafkalint comment (it does not
/// start `kafkalint:`); `Some(Err(problem))` when it does but cannot be read.
pub fn parse_comment(text: &[u8]) -> Option<Result<Directive, &'static str>> {
    let marker = *text.first()?;
    if marker != b'#' && marker != b'!' {
        return None;
    }
    let mut at = skip_whitespace(text, 1);
    at = text[at..]
        .starts_with(b"kafkalint")
        .then_some(at + "kafkalint".len())?;
    at = skip_whitespace(text, at);
    if text.get(at) != Some(&b':') {
        return None;
    }
    Some(parse_directive(text, skip_whitespace(text, at + 1)))
}

fn parse_directive(text: &[u8], mut at: usize) -> Result<Directive, &'static str> {
    let whole_file = if text[at..].starts_with(b"ignore-file") {
        at += "ignore-file".len();
        true
    } else if text[at..].starts_with(b"ignore") {
        at += "ignore".len();
        false
    } else {
        return Err("`kafkalint:` is followed by neither `ignore[...]` nor `ignore-file[...]`");
    };
    at = skip_whitespace(text, at);
    if text.get(at) != Some(&b'[') {
        return Err("the rule names must follow in brackets, `ignore[rule-name]`");
    }
    let open = at + 1;
    let close = open
        + text[open..]
            .iter()
            .position(|b| *b == b']')
            .ok_or("the `[` of the rule names is never closed by `]`")?;
    let mut names = Vec::new();
    let mut start = open;
    for item in text[open..close].split(|b| *b == b',') {
        let leading = item.iter().take_while(|b| is_whitespace(**b)).count();
        let trailing = item[leading..]
            .iter()
            .rev()
            .take_while(|b| is_whitespace(**b))
            .count();
        let name = &item[leading..item.len() - trailing];
        if name.is_empty() {
            return Err("a rule name between the brackets is empty");
        }
        let span = start + leading..start + leading + name.len();
        names.push((latin1(name), span));
        start += item.len() + 1;
    }
    let reason = latin1(&text[close + 1..]).trim().to_string();
    Ok(Directive {
        whole_file,
        names,
        reason: (!reason.is_empty()).then_some(reason),
    })
}

fn skip_whitespace(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| is_whitespace(*b)) {
        at += 1;
    }
    at
}

/// Kafka reads files as ISO-8859-1: one byte, one character.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|b| char::from(*b)).collect()
}

/// Which diagnostics a suppression reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// `ignore-file[...]`: the whole file.
    File,
    /// `ignore[...]` above an entry: the entry's lines (1-based; several when it is continued).
    Entry(RangeInclusive<usize>),
    /// `ignore[...]` with a blank line or the end of the file below it: nothing.
    NoEntry,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(directive: &Directive) -> Vec<&str> {
        directive.names.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn one_rule_with_a_reason() {
        let text = b"# kafkalint: ignore[duplicate-key] the second line wins on purpose";
        let directive = parse_comment(text).unwrap().unwrap();
        assert!(!directive.whole_file);
        assert_eq!(names(&directive), ["duplicate-key"]);
        assert_eq!(&text[directive.names[0].1.clone()], b"duplicate-key");
        assert_eq!(
            directive.reason.as_deref(),
            Some("the second line wins on purpose")
        );
    }

    #[test]
    fn spacing_is_free() {
        for text in [
            &b"#kafkalint:ignore[unknown-key]"[..],
            b"#   kafkalint :  ignore [ unknown-key ]   ",
            b"#\tkafkalint:\tignore[unknown-key]",
        ] {
            let directive = parse_comment(text).unwrap().unwrap();
            assert_eq!(names(&directive), ["unknown-key"], "{text:?}");
            assert_eq!(
                &text[directive.names[0].1.clone()],
                b"unknown-key",
                "{text:?}"
            );
            assert_eq!(directive.reason, None);
        }
    }

    #[test]
    fn several_names() {
        let text = b"# kafkalint: ignore[unknown-key,removed-key ,  deprecated-key] legacy";
        let directive = parse_comment(text).unwrap().unwrap();
        assert_eq!(
            names(&directive),
            ["unknown-key", "removed-key", "deprecated-key"]
        );
        for (name, span) in &directive.names {
            assert_eq!(&text[span.clone()], name.as_bytes());
        }
    }

    #[test]
    fn bang_comments_and_ignore_file() {
        let directive = parse_comment(b"! kafkalint: ignore-file[log-dirs-in-tmp] dev box")
            .unwrap()
            .unwrap();
        assert!(directive.whole_file);
        assert_eq!(names(&directive), ["log-dirs-in-tmp"]);
        assert_eq!(directive.reason.as_deref(), Some("dev box"));
    }

    #[test]
    fn other_comments_are_no_directives() {
        for text in [
            &b"# a comment"[..],
            b"# kafkalint checks this file",
            b"#ignore[duplicate-key]",
            b"",
        ] {
            assert_eq!(parse_comment(text), None, "{text:?}");
        }
    }

    #[test]
    fn unreadable_directives() {
        for text in [
            &b"# kafkalint: ignore"[..],
            b"# kafkalint: ignore duplicate-key",
            b"# kafkalint: ignore[duplicate-key",
            b"# kafkalint: ignore[]",
            b"# kafkalint: ignore[a,,b]",
            b"# kafkalint: noqa",
        ] {
            assert!(matches!(parse_comment(text), Some(Err(_))), "{text:?}");
        }
    }
}
