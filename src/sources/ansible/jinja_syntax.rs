//! Whether Jinja can parse a template Ansible's `template` module renders, and where it stops
//! when it cannot: a tag never closed (the lexer, pallets/jinja src/jinja2/lexer.py at 3.1.6:
//! "unexpected end of template", "Missing end of comment tag"), and blocks that do not nest
//! (the parser, src/jinja2/parser.py: `subparse` stops at an end tag it was not looking for,
//! "Encountered unknown tag 'endfor'. Jinja was looking for the following tags: 'endif'"; a
//! block the template ends inside is "Unexpected end of template"). Ansible renders nothing
//! of such a file, and the task that templates it fails.
//!
//! Only the blocks of Jinja itself are followed (`if`, `for`, `macro`, `call`, `filter`,
//! `with`, `autoescape`, `block`, a `set` without `=`); a tag of an extension is passed over.

/// How the reason of a template Jinja refuses starts.
pub const REFUSED: &str = "Jinja cannot parse this template";

/// The blocks Jinja's parser closes with an `end<name>` tag.
const BLOCKS: &[&str] = &[
    "if",
    "for",
    "macro",
    "call",
    "filter",
    "with",
    "autoescape",
    "block",
    "set",
];

/// Where (a byte offset) and why Jinja refuses `text`, if it does.
pub fn refusal(text: &str) -> Option<(usize, String)> {
    // Each open block: its name and where its tag starts.
    let mut open: Vec<(&str, usize)> = Vec::new();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        let Some((offset, tag)) = ["{{", "{%", "{#"]
            .iter()
            .filter_map(|tag| rest.find(tag).map(|offset| (offset, *tag)))
            .min_by_key(|(offset, _)| *offset)
        else {
            break;
        };
        let start = at + offset;
        let inside = start + 2;
        let close = match tag {
            "{{" => "}}",
            "{%" => "%}",
            _ => "#}",
        };
        let Some(length) = text[inside..].find(close) else {
            let what = match tag {
                "{{" => "an expression `{{` that is never closed with `}}`",
                "{%" => "a statement `{%` that is never closed with `%}`",
                _ => "a comment `{#` that is never closed with `#}`",
            };
            return Some((start, what.to_string()));
        };
        // A tag that opens another before it closes: Jinja reads the inner opener as part
        // of the expression (`{` and then `%` or `#`), which is no expression; an unclosed
        // `{{ x` on one line and the next tag's `}}` make one such.
        let content = &text[inside..inside + length];
        if tag != "{#"
            && let Some(inner) = ["{{", "{%", "{#"]
                .iter()
                .filter_map(|opener| content.find(opener))
                .min()
        {
            let closer = if tag == "{{" { "}}" } else { "%}" };
            return Some((
                start,
                format!(
                    "a `{tag}` whose `{closer}` is missing: the next tag opens inside it (at line {})",
                    line_of(text, inside + inner)
                ),
            ));
        }
        at = inside + length + 2;
        if tag != "{%" {
            continue;
        }
        let statement = text[inside..inside + length]
            .trim_start_matches(['-', '+'])
            .trim_end_matches(['-', '+'])
            .trim();
        let word = statement
            .split(|c: char| c.is_whitespace())
            .next()
            .unwrap_or_default();
        match word {
            "raw" => {
                // Up to its `{% endraw %}`, the text is no template.
                let Some(end) = endraw(&text[at..]) else {
                    // Jinja drops the template's last newline before lexing
                    // (`keep_trailing_newline` off): a `{% raw %}` with nothing after it
                    // ends the template quietly.
                    if text[at..]
                        .strip_suffix('\n')
                        .unwrap_or(&text[at..])
                        .is_empty()
                    {
                        break;
                    }
                    return Some((
                        start,
                        "a `{% raw %}` that is never closed with `{% endraw %}`".to_string(),
                    ));
                };
                at += end;
            }
            "endraw" => {
                return Some((
                    start,
                    "a `{% endraw %}` that closes no `{% raw %}`".to_string(),
                ));
            }
            // `{% set name = value %}` is a statement; `{% set name %}` opens a block.
            "set" if statement.contains('=') => {}
            word if BLOCKS.contains(&word) => open.push((word, start)),
            "elif" | "else" => {
                let fits = match open.last() {
                    Some(("if", _)) => true,
                    Some(("for", _)) => word == "else",
                    _ => false,
                };
                if !fits {
                    let within = if word == "else" {
                        "`{% if %}` or `{% for %}`"
                    } else {
                        "`{% if %}`"
                    };
                    return Some((start, format!("a `{{% {word} %}}` outside any {within}")));
                }
            }
            word if word
                .strip_prefix("end")
                .is_some_and(|name| BLOCKS.contains(&name)) =>
            {
                let name = &word[3..];
                match open.last() {
                    Some((innermost, _)) if *innermost == name => {
                        open.pop();
                    }
                    Some((innermost, opened)) => {
                        let line = line_of(text, *opened);
                        return Some((
                            start,
                            format!(
                                "a `{{% {word} %}}` where Jinja expects `{{% end{innermost} %}}` (for the `{{% {innermost} %}}` at line {line})"
                            ),
                        ));
                    }
                    None => {
                        return Some((
                            start,
                            format!("a `{{% {word} %}}` that closes no `{{% {name} %}}`"),
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    let (name, opened) = open.last()?;
    Some((
        *opened,
        format!("a `{{% {name} %}}` that is never closed with `{{% end{name} %}}`"),
    ))
}

/// The offset just past the first `{% endraw %}` (with any `-`/`+` and spaces) of `text`.
fn endraw(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(offset) = text[from..].find("{%") {
        let inside = from + offset + 2;
        let close = inside + text[inside..].find("%}")?;
        let statement = text[inside..close]
            .trim_start_matches(['-', '+'])
            .trim_end_matches(['-', '+'])
            .trim();
        if statement == "endraw" {
            return Some(close + 2);
        }
        from = inside;
    }
    None
}

fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The reason with its position, as [`crate::sources::unreadable::file`] reads it.
pub fn positioned(text: &str, offset: usize, why: &str) -> String {
    let line = line_of(text, offset);
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |at| at + 1);
    let column = text[line_start..offset.min(text.len())].chars().count() + 1;
    format!("{REFUSED}: {why} (line {line}, column {column})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Option<usize> {
        refusal(text).map(|(offset, _)| line_of(text, offset))
    }

    #[test]
    fn templates_jinja_parses() {
        for text in [
            "a={{ x }}\n{% if y %}\nb=1\n{% elif z %}\nb=2\n{% else %}\nb=3\n{% endif %}\n",
            "{% for k, v in m.items() %}\n{{ k }}={{ v }}\n{% else %}\n{% endfor %}\n",
            "{%- if a -%}x{%- endif -%}\n{# {% if %} #}\n{% set n = 1 %}\n",
            "{% raw %}{% if {{ %}{% endraw %}\n{% set block %}x{% endset %}\n",
            "{% do x.append(1) %}\n{% break %}\n",
        ] {
            assert_eq!(refusal(text), None, "{text}");
        }
    }

    #[test]
    fn templates_jinja_refuses_where_it_stops() {
        assert_eq!(line("a=1\n{% if x %}\nb=1\n"), Some(2));
        assert_eq!(line("a=1\nb={{ x\n"), Some(2));
        assert_eq!(line("a=1\n{# note\n"), Some(2));
        assert_eq!(line("a=1\n{% if x\n"), Some(2));
        assert_eq!(line("a=1\n{% endif %}\n"), Some(2));
        assert_eq!(line("{% if x %}\n{% for i in y %}\n{% endif %}\n"), Some(3));
        assert_eq!(line("a=1\n\n{% else %}\n"), Some(3));
        assert_eq!(
            line("{% for i in y %}\n{% elif z %}\n{% endfor %}\n"),
            Some(2)
        );
        assert_eq!(line("{% raw %}\n{% if %}\n"), Some(1));
        let (_, why) = refusal("{% if x %}\n{% endfor %}\n").unwrap();
        assert!(why.contains("expects `{% endif %}`"), "{why}");
    }

    #[test]
    fn the_position_is_line_and_column() {
        let text = "a=1\n  {{ x\n";
        let (offset, why) = refusal(text).unwrap();
        assert!(positioned(text, offset, &why).ends_with("(line 2, column 3)"));
    }
}
