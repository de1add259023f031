//! A `.properties` text held in a YAML scalar (a ConfigMap's `server.properties: |`, a Helm
//! chart's `extraConfig`), read as Kafka reads the file it becomes, with each entry's spans in
//! the YAML file.

use super::yaml::{Scalar, Style};
use super::{Edit, YamlEntry};
use crate::properties::{self, Provenance, Span};

/// The entries of the properties text `scalar` holds (in `file`, the YAML file's text), in
/// order. Where the text's bytes are the file's (a one-line scalar written exactly, a literal
/// block `|`), each entry points at its own key and value; otherwise at the scalar.
pub fn entries(scalar: &Scalar, file: &str) -> Vec<YamlEntry> {
    let (parsed, _) = properties::parse_lenient(scalar.value.as_bytes());
    let place = Placement::of(scalar, file);
    parsed
        .entries
        .into_iter()
        .map(|entry| {
            let span_of = |span: &Span| place.as_ref().and_then(|place| place.span(span));
            let spans = span_of(&entry.key_span).zip(span_of(&entry.value_span));
            // A value written on one line, as the file holds it, may be replaced in place.
            let edit = spans.as_ref().and_then(|(_, value_span)| {
                let written = file.get(value_span.clone())?;
                (!entry.value.is_empty() && written == entry.value && !written.contains('\n'))
                    .then_some(Edit {
                        style: Style::Plain,
                    })
            });
            let (key_span, value_span) =
                spans.unwrap_or_else(|| (scalar.extent.clone(), scalar.extent.clone()));
            YamlEntry {
                key: entry.key,
                value: entry.value,
                key_span,
                value_span,
                edit,
                provenance: Provenance::Written,
            }
        })
        .collect()
}

/// The lines of the text `scalar` holds, each with its span in `file`; `None` when its bytes
/// are not the file's (see [`entries`]).
pub fn lines<'a>(scalar: &'a Scalar, file: &str) -> Option<Vec<(Span, &'a str)>> {
    let place = Placement::of(scalar, file)?;
    let value = scalar.value.strip_suffix('\n').unwrap_or(&scalar.value);
    let mut at = 0;
    value
        .split('\n')
        .map(|line| {
            let span = place.span(&(at..at + line.len()));
            at += line.len() + 1;
            Some((span?, line))
        })
        .collect()
}

/// What output hides of the properties text `scalar` holds, as of a `.properties` file (see
/// [`crate::source`]), as spans of `file`; `None` when its bytes are not the file's (then the
/// whole scalar is hidden).
pub fn hidden_spans(scalar: &Scalar, file: &str) -> Option<Vec<Span>> {
    let place = Placement::of(scalar, file)?;
    let (parsed, _) = properties::parse_lenient(scalar.value.as_bytes());
    crate::source::secret_spans(scalar.value.as_bytes(), Some(&scalar.value), &parsed)
        .iter()
        .map(|span| place.span(span))
        .collect()
}

/// Where the bytes of a scalar's value lie in its file: line `n` of the value (starting at
/// byte `value[n]` of it) starts at byte `file[n]` of the file. `None` in `of` when they are
/// not the file's bytes (a folded block, an escape, a quoted scalar over several lines).
struct Placement {
    value: Vec<usize>,
    file: Vec<usize>,
    /// For each line: `Some(its length in the file)` when its bytes differ from the value's
    /// by Terraform's template escapes (`$${` written for `${`, `%%{` for `%{`, in a heredoc):
    /// a span in it is then the whole line.
    escaped: Vec<Option<usize>>,
}

impl Placement {
    fn of(scalar: &Scalar, file: &str) -> Option<Placement> {
        if scalar.exact && !scalar.value.contains('\n') {
            return Some(Placement {
                value: vec![0],
                file: vec![scalar.span.start],
                escaped: vec![None],
            });
        }
        if scalar.style != Style::Block {
            return None;
        }
        // A literal block: every line of the value, indented alike, from the line its extent
        // starts on (after the `|` indicator's).
        let text = file.get(scalar.extent.clone())?;
        let body_start = if text.starts_with('|') {
            scalar.extent.start + text.find('\n')? + 1
        } else {
            let line_start = file[..scalar.extent.start]
                .rfind('\n')
                .map_or(0, |at| at + 1);
            file[line_start..scalar.extent.start]
                .bytes()
                .all(|byte| byte == b' ')
                .then_some(line_start)?
        };
        let lines: Vec<(usize, &str)> = file[body_start..]
            .split_inclusive('\n')
            .scan(body_start, |at, line| {
                let start = *at;
                *at += line.len();
                Some((start, line.trim_end_matches(['\n', '\r'])))
            })
            .collect();
        let indent = lines
            .iter()
            .find(|(_, line)| !line.trim().is_empty())
            .map(|(_, line)| line.len() - line.trim_start_matches(' ').len())?;
        let mut placement = Placement {
            value: Vec::new(),
            file: Vec::new(),
            escaped: Vec::new(),
        };
        let mut value_at = 0;
        // The value's last newline ends its last line.
        let value = scalar.value.strip_suffix('\n').unwrap_or(&scalar.value);
        for (index, value_line) in value.split('\n').enumerate() {
            let (start, line) = lines.get(index)?;
            let mut escaped = None;
            if value_line.is_empty() {
                if !line.trim().is_empty() {
                    return None;
                }
            } else if line.get(indent..) != Some(value_line) {
                let written = line.get(indent..)?;
                if !(written.contains("$${") || written.contains("%%{"))
                    || written.replace("$${", "${").replace("%%{", "%{") != value_line
                {
                    return None;
                }
                escaped = Some(written.len());
            }
            placement.escaped.push(escaped);
            placement.value.push(value_at);
            placement.file.push(start + indent.min(line.len()));
            value_at += value_line.len() + 1;
        }
        Some(placement)
    }

    /// The file's span of `span`, a span of the value.
    fn span(&self, span: &Span) -> Option<Span> {
        let offset = |at: usize, end: bool| {
            let line = self
                .value
                .partition_point(|start| *start <= at)
                .checked_sub(1)?;
            Some(match self.escaped[line] {
                Some(length) if end => self.file[line] + length,
                Some(_) => self.file[line],
                None => self.file[line] + at - self.value[line],
            })
        };
        Some(offset(span.start, false)?..offset(span.end, true)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::yaml;

    fn entries_of(text: &str, key: &str) -> Vec<(String, String, String, String)> {
        let documents = yaml::parse(text).unwrap();
        let scalar = documents[0].get(key).and_then(yaml::Node::scalar).unwrap();
        entries(scalar, text)
            .into_iter()
            .map(|entry| {
                (
                    entry.key,
                    entry.value,
                    text[entry.key_span].to_string(),
                    text[entry.value_span].to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn a_literal_block_points_at_each_line() {
        let text = "data: 1\nserver.properties: |\n  node.id=1\n\n  # a comment\n  log.dirs = /var/lib/kafka\\\n    /more\n  x: y\nnext: 2\n";
        let found = entries_of(text, "server.properties");
        assert_eq!(
            found,
            vec![
                ("node.id".into(), "1".into(), "node.id".into(), "1".into()),
                (
                    "log.dirs".into(),
                    "/var/lib/kafka/more".into(),
                    "log.dirs".into(),
                    "/var/lib/kafka\\\n    /more".into()
                ),
                ("x".into(), "y".into(), "x".into(), "y".into()),
            ]
        );
    }

    #[test]
    fn a_folded_or_escaped_text_points_at_the_scalar() {
        let text = "a: >\n  k=v\n  l=w\nb: \"k=v\\nl=w\"\nc: 'one=1'\n";
        assert_eq!(
            entries_of(text, "a")
                .into_iter()
                .map(|(key, value, _, at)| (key, value, at))
                .collect::<Vec<_>>(),
            vec![(
                "k".to_string(),
                "v l=w".to_string(),
                "k=v\n  l=w".to_string()
            )]
        );
        assert_eq!(entries_of(text, "b").len(), 2);
        assert_eq!(
            entries_of(text, "c"),
            vec![("one".into(), "1".into(), "one".into(), "1".into())]
        );
    }
}
