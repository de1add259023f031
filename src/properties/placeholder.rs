//! Values whose real text is not in the file: a template fills them in, or Kafka resolves them
//! from a config provider. No rule can judge them.

/// Whether a value is a placeholder that something fills in before Kafka reads the file (a
/// template's `%ID%`, `{{ id }}`, `{% if x %}`, `@ID@`), or a config-provider reference
/// `${provider:path:key}` that Kafka resolves itself. Its real value is unknown, so no rule
/// judges it.
pub fn is_placeholder(value: &str) -> bool {
    // Most values have none of the marks: one pass over the bytes settles them.
    if !has_mark(value.as_bytes()) {
        return false;
    }
    // `{% if ... %}`: a Jinja statement a template left in the value (an Ansible role's
    // `listener.security.protocol.map=PLAINTEXT:PLAINTEXT{% if ssl %},SSL:SSL{% endif %}`).
    if value.contains("${") || value.contains("{{") || value.contains("{%") {
        return true;
    }
    let wrapped = |mark: char| {
        // The pieces between two marks (`a%B%c`: an odd mark count leaves no closed pair).
        let mut pieces = value.split(mark).skip(1).peekable();
        while let Some(name) = pieces.next() {
            if pieces.peek().is_none() {
                break;
            }
            if !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '@' | '.'))
            {
                return true;
            }
        }
        false
    };
    wrapped('%') || wrapped('@')
}

/// Whether `bytes` holds a `$`, `{`, `%` or `@`, the marks every placeholder has (the two
/// `memchr` calls this replaced spent 145 of a call's 200 instructions setting up, on a
/// bench of 100,000 values).
fn has_mark(bytes: &[u8]) -> bool {
    crate::byte_scan::any_byte(bytes, |b| {
        u8::from(b == b'$') | u8::from(b == b'{') | u8::from(b == b'%') | u8::from(b == b'@')
    })
}

/// `{0}`, `{host}`: a field a format string fills in.
pub fn has_format_field(value: &str) -> bool {
    if !value.contains('{') {
        return false;
    }
    value.split('{').skip(1).any(|rest| {
        rest.split_once('}').is_some_and(|(name, _)| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        })
    })
}

/// A value something fills in before Kafka reads it: a placeholder, or a format field, which
/// no broker value has of itself.
pub fn is_unresolved(value: &str) -> bool {
    is_placeholder(value) || has_format_field(value)
}

/// The placeholders of `value`, in order, as a note names them (`%HOST%`, `${ID}`,
/// `{{ host }}`, `{% if ssl %}`, `@ID@`, `{0}`): each of the forms [`is_unresolved`] tells, as
/// written, short enough to read in a line.
pub fn placeholders_in(value: &str) -> Vec<&str> {
    const LONGEST: usize = 40;
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = value[at..].find(['$', '{', '%', '@']) {
        let start = at + offset;
        match placeholder_at(&value[start..]) {
            Some(length) => {
                if length <= LONGEST {
                    found.push(&value[start..start + length]);
                }
                at = start + length;
            }
            None => at = start + 1,
        }
    }
    found
}

/// The length of the placeholder `text` starts with, if it starts with one.
fn placeholder_at(text: &str) -> Option<usize> {
    let closed_by = |open: &str, close: &str| {
        let inner = text.strip_prefix(open)?;
        inner.find(close).map(|end| open.len() + end + close.len())
    };
    let name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    let wrapped = |mark: char, also: char| {
        let inner = text.strip_prefix(mark)?;
        let end = inner.find(mark)?;
        let body = &inner[..end];
        (!body.is_empty() && body.chars().all(|c| name(c) || c == also)).then_some(end + 2)
    };
    if text.starts_with("${") {
        closed_by("${", "}")
    } else if text.starts_with("{{") {
        closed_by("{{", "}}")
    } else if text.starts_with("{%") {
        closed_by("{%", "%}")
    } else if text.starts_with('{') {
        let end = text.find('}')?;
        let body = &text[1..end];
        (!body.is_empty() && body.chars().all(name)).then_some(end + 1)
    } else if text.starts_with('%') {
        wrapped('%', '@')
    } else {
        wrapped('@', '@').filter(|_| text.starts_with('@'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_found_at_every_place_and_length() {
        for len in 0..80 {
            let plain = vec![b'a'; len];
            assert!(!has_mark(&plain));
            for at in 0..len {
                for mark in [b'$', b'{', b'%', b'@', b'}', b'#', 0xa4] {
                    let mut bytes = plain.clone();
                    bytes[at] = mark;
                    let by_search = bytes.iter().any(|b| b"${%@".contains(b));
                    assert_eq!(has_mark(&bytes), by_search, "{bytes:?}");
                }
            }
        }
    }

    /// `is_placeholder` as first written: every piece collected, no shortcut.
    fn placeholder_by_pieces(value: &str) -> bool {
        if value.contains("${") || value.contains("{{") || value.contains("{%") {
            return true;
        }
        let wrapped = |mark: char| {
            let inner: Vec<&str> = value.split(mark).skip(1).collect();
            inner.len() >= 2
                && inner[..inner.len() - 1].iter().any(|name| {
                    !name.is_empty()
                        && name.chars().all(|c| {
                            c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '@' | '.')
                        })
                })
        };
        wrapped('%') || wrapped('@')
    }

    #[test]
    fn placeholders_are_told_without_collecting_pieces() {
        let marks = ['%', '@', '$', '{', '}', 'a', '.', ' ', '-', 'é'];
        // Every string of up to five of these characters.
        let mut values = vec![String::new()];
        let mut last = values.clone();
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|v| marks.iter().map(move |c| format!("{v}{c}")))
                .collect();
            values.extend(last.iter().cloned());
        }
        for value in &values {
            assert_eq!(
                is_placeholder(value),
                placeholder_by_pieces(value),
                "{value:?}"
            );
        }
        assert!(is_placeholder("%ID%"));
        assert!(is_placeholder("x@a@y@"));
        assert!(is_placeholder("PLAINTEXT:PLAINTEXT{% if ssl %}"));
        assert!(!is_placeholder("100%"));
        assert!(!has_format_field("plain"));
        assert!(has_format_field("a{0}"));
    }

    #[test]
    fn placeholders_are_named_as_written() {
        assert_eq!(
            placeholders_in("PLAINTEXT://eht-kafka-%ENV%0%ID%:9092"),
            ["%ENV%", "%ID%"]
        );
        assert_eq!(
            placeholders_in("PUBLIC://%@PUBLIC_BIND@%:9092"),
            ["%@PUBLIC_BIND@%"]
        );
        assert_eq!(
            placeholders_in("${A}/{{ b }}{% if c %}x{% endif %}@D@{0} 100%"),
            ["${A}", "{{ b }}", "{% if c %}", "{% endif %}", "@D@", "{0}"]
        );
        assert_eq!(placeholders_in("100% of {"), Vec::<&str>::new());
    }
}
