//! Terraform's string templates as the text they render: a heredoc whose `${local.x}` and
//! `${var.x}` are known, and a `templatefile()`'s file with its variables.
//!
//! Terraform renders a template by writing each literal as it stands (`$${` and `%%{` are the
//! escapes of `${` and `%{`) and each interpolation as its value's string; a directive
//! (`%{ if }`, `%{ for }`) chooses what is written. A `templatefile()` template sees only the
//! variables its call gives (hashicorp/terraform internal/lang/funcs/filesystem.go,
//! `MakeTemplateFileFunc`, at v1.9.8: "vars map does not contain key" for any other name).

use hcl_edit::Span as _;
use hcl_edit::expr::Expression;
use hcl_edit::template::{Element, Template};

use crate::properties::Span;
use crate::sources::yaml::Node;

/// A text rendered from text written in the file, with where each of its pieces was written.
#[derive(Debug)]
pub struct Rendered {
    pub text: String,
    pieces: Vec<Piece>,
}

/// A run of the rendered text: copied from the file byte for byte (`verbatim`), or a value put
/// in place of what was written there.
#[derive(Debug)]
struct Piece {
    rendered: Span,
    written: Span,
    verbatim: bool,
}

/// The written text `body` (the bytes `start..` of the file) with each of `cuts` (spans of the
/// file inside it, in order, not overlapping) replaced by its value, and the escapes `$${` and
/// `%%{` outside them written as Terraform writes them.
pub fn substitute(body: &str, start: usize, cuts: &[(Span, String)]) -> Rendered {
    let mut rendered = Rendered {
        text: String::with_capacity(body.len()),
        pieces: Vec::new(),
    };
    let mut at = start;
    let end = start + body.len();
    let copy = |rendered: &mut Rendered, from: usize, to: usize| {
        // Literal text, with its escapes unescaped.
        let mut run = from;
        let text = &body[from - start..to - start];
        let mut offset = 0;
        while let Some(found) = text[offset..].find(['$', '%']) {
            let escape = offset + found;
            let rest = &text[escape..];
            if rest.starts_with("$${") || rest.starts_with("%%{") {
                rendered.verbatim(&body[run - start..from + escape - start], run);
                rendered.value(&rest[1..3], from + escape..from + escape + 3);
                run = from + escape + 3;
                offset = escape + 3;
            } else {
                offset = escape + 1;
            }
        }
        rendered.verbatim(&body[run - start..to - start], run);
    };
    for (cut, value) in cuts {
        if cut.start < at || cut.end > end {
            continue;
        }
        copy(&mut rendered, at, cut.start);
        rendered.value(value, cut.clone());
        at = cut.end;
    }
    copy(&mut rendered, at, end);
    rendered
}

impl Rendered {
    fn verbatim(&mut self, text: &str, written_at: usize) {
        if text.is_empty() {
            return;
        }
        let from = self.text.len();
        self.text.push_str(text);
        self.pieces.push(Piece {
            rendered: from..self.text.len(),
            written: written_at..written_at + text.len(),
            verbatim: true,
        });
    }

    fn value(&mut self, value: &str, written: Span) {
        let from = self.text.len();
        self.text.push_str(value);
        self.pieces.push(Piece {
            rendered: from..self.text.len(),
            written,
            verbatim: false,
        });
    }

    /// Where a span of the rendered text was written: the same bytes when it lies in text
    /// copied as written, else (`false`) all that was written where its pieces are.
    fn written(&self, span: &Span) -> (Span, bool) {
        let touched: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|piece| {
                piece.rendered.start < span.end.max(span.start + 1)
                    && span.start < piece.rendered.end.max(piece.rendered.start + 1)
            })
            .collect();
        match touched[..] {
            [piece] if piece.verbatim => {
                let shift = |at: usize| piece.written.start + (at - piece.rendered.start);
                (
                    shift(span.start)..shift(span.end.min(piece.rendered.end)),
                    true,
                )
            }
            [] => {
                let at = self.pieces.last().map_or(0, |piece| piece.written.end);
                (at..at, false)
            }
            _ => {
                let start = touched
                    .iter()
                    .map(|piece| {
                        if piece.verbatim && span.start >= piece.rendered.start {
                            piece.written.start + (span.start - piece.rendered.start)
                        } else {
                            piece.written.start
                        }
                    })
                    .min()
                    .unwrap_or(0);
                let end = touched
                    .iter()
                    .map(|piece| piece.written.end)
                    .max()
                    .unwrap_or(start);
                (start..end, false)
            }
        }
    }

    /// Moves every span of `node` (parsed from the rendered text) to where it was written;
    /// a scalar that holds a value put in is no longer written exactly.
    pub fn place(&self, node: &mut Node) {
        match node {
            Node::Scalar(scalar) => {
                let (span, verbatim) = self.written(&scalar.span);
                scalar.span = span;
                scalar.exact &= verbatim;
                scalar.extent = self.written(&scalar.extent).0;
            }
            Node::Seq(items) => items.iter_mut().for_each(|item| self.place(item)),
            Node::Map(entries) => {
                for (key, value) in entries {
                    self.place(key);
                    self.place(value);
                }
            }
        }
    }
}

/// Renders a `templatefile()` template: each interpolation of a plain name takes its value from
/// `vars` (`None` there: unknown, written as `${name}` so that no rule judges it); `Err` with
/// why for a template kafkalint does not render (a directive, an expression other than a name).
pub fn render_file(
    template: &Template,
    vars: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::new();
    for element in template.iter() {
        match element {
            Element::Literal(literal) => out.push_str(literal.value()),
            Element::Interpolation(interpolation) => {
                if interpolation.strip.strip_start() || interpolation.strip.strip_end() {
                    return Err("a template that strips whitespace (`${~ ... ~}`)".into());
                }
                let Expression::Variable(name) = &interpolation.expr else {
                    return Err(
                        "a template interpolating an expression Terraform works out (not a plain variable)"
                            .into(),
                    );
                };
                let name = name.value().as_str();
                match vars(name) {
                    Some(value) => out.push_str(&value),
                    None => {
                        out.push_str("${");
                        out.push_str(name);
                        out.push('}');
                    }
                }
            }
            Element::Directive(_) => {
                return Err("a template with a directive (`%{ if }`, `%{ for }`)".into());
            }
        }
    }
    Ok(out)
}

/// The interpolations of a heredoc written in the file, with their spans, or `None` when it has
/// a directive or strips whitespace (what it renders is then not its written lines).
pub fn interpolations(template: &Template) -> Option<Vec<(&Expression, Span)>> {
    let mut found = Vec::new();
    for element in template.iter() {
        match element {
            Element::Literal(_) => {}
            Element::Interpolation(interpolation) => {
                if interpolation.strip.strip_start() || interpolation.strip.strip_end() {
                    return None;
                }
                found.push((&interpolation.expr, interpolation.span()?));
            }
            Element::Directive(_) => return None,
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::yaml;

    #[test]
    fn a_value_put_in_is_placed_where_its_interpolation_is_written() {
        let file = "xx\nreplicas: ${var.n}\nfactor: 1 $${HOME}\n";
        let body = &file[3..];
        let cut = file.find("${var.n}").unwrap();
        let rendered = substitute(body, 3, &[(cut..cut + 8, "3".into())]);
        assert_eq!(rendered.text, "replicas: 3\nfactor: 1 ${HOME}\n");
        let mut documents = yaml::parse(&rendered.text).unwrap();
        rendered.place(&mut documents[0]);
        let replicas = documents[0].get("replicas").unwrap().scalar().unwrap();
        assert_eq!(&file[replicas.span.clone()], "${var.n}");
        assert!(!replicas.exact);
        let factor = documents[0].get("factor").unwrap().scalar().unwrap();
        assert_eq!(factor.value, "1 ${HOME}");
        let key = &documents[0].entries()[1].0;
        assert_eq!(&file[key.scalar().unwrap().span.clone()], "factor");
    }

    #[test]
    fn a_template_file_takes_only_its_variables() {
        let template = hcl_edit::parser::parse_template("a: ${x}\nb: ${y}\n").unwrap();
        let out = render_file(&template, &mut |name| (name == "x").then(|| "1".into())).unwrap();
        assert_eq!(out, "a: 1\nb: ${y}\n");
        let template = hcl_edit::parser::parse_template("%{ if x }a%{ endif }").unwrap();
        assert!(render_file(&template, &mut |_| None).is_err());
    }
}
