//! Values whose real text is not in the file: a template fills them in, or Kafka resolves them
//! from a config provider. No rule can judge them.

/// Whether a value is a placeholder that something fills in before Kafka reads the file (a
/// template's `%ID%`, `{{ id }}`, `{% if x %}`, `@ID@`), or a config-provider reference
/// `${provider:path:key}` that Kafka resolves itself. Its real value is unknown, so no rule
/// judges it.
pub fn is_placeholder(value: &str) -> bool {
    // Most values have none of the marks: one pass over the bytes settles them.
    if !value
        .bytes()
        .any(|b| matches!(b, b'$' | b'{' | b'%' | b'@'))
    {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
