//! Terraform's built-in functions that shape configuration text and collections, evaluated
//! as Terraform evaluates them where every argument is known: `replace`, `lower`, `upper`,
//! `trimspace`, `join`, `split`, `format`, `coalesce`, `lookup`, `merge`, `concat` and the
//! type conversions. An argument Terraform works out when it runs (a `${...}` value), a
//! function not listed here, or a call Terraform would refuse gives `None`: the caller makes
//! the value unknown, never a guess.
//!
//! Each mirrors its source at hashicorp/terraform v1.9.8 `internal/lang/functions.go` (which
//! function each name is) and the code it names: `internal/lang/funcs/string.go` (`replace`:
//! a substring between slashes is a regular expression, else every occurrence is replaced),
//! `internal/lang/funcs/collection.go` (`coalesce`: the first argument neither null nor an
//! empty string, unknown when an unknown comes first; `lookup`: the map's value, else the
//! default, else an error), and zclconf/go-cty v1.14.4 `cty/function/stdlib/` (`string.go`:
//! `lower`/`upper` as Go's `strings.ToLower`/`ToUpper`, `trimspace` as `strings.TrimSpace`,
//! `join`, `split` as `strings.Split`; `format.go`; `collection.go`: `merge`, later maps
//! winning, and `concat`).

use crate::properties::Span;
use crate::sources::yaml::{Node, Scalar, Style};

/// Whether `name` is a function this module evaluates.
pub fn is_known(name: &str) -> bool {
    matches!(
        name,
        "replace"
            | "lower"
            | "upper"
            | "trimspace"
            | "join"
            | "split"
            | "format"
            | "coalesce"
            | "lookup"
            | "merge"
            | "concat"
            | "tostring"
            | "tonumber"
            | "tobool"
            | "toset"
            | "tolist"
            | "tomap"
    )
}

/// A scalar's text when Terraform knows it: `None` for a collection, null, or an unknown value.
pub fn known_text(node: &Node) -> Option<&str> {
    node.text().filter(|text| !text.contains("${"))
}

/// Whether a node holds a value Terraform works out when it runs, at any depth.
fn has_unknown(node: &Node) -> bool {
    match node {
        Node::Scalar(scalar) => scalar.value.contains("${"),
        Node::Seq(items) => items.iter().any(has_unknown),
        Node::Map(entries) => entries
            .iter()
            .any(|(key, value)| has_unknown(key) || has_unknown(value)),
    }
}

fn text_at(value: String, at: &Span) -> Node {
    Node::Scalar(Scalar::written_elsewhere(
        value,
        Style::Plain,
        at.clone(),
        false,
        at.clone(),
    ))
}

/// The value of `name(args...)`, written at `at`; `None` when it is unknown or refused. A
/// text made from one text (a `file()` with placeholders replaced) stays where that text was
/// written, so that what is found in it points at the file that holds it.
pub fn call(name: &str, args: &[Node], at: &Span) -> Option<Node> {
    let text = |index: usize| args.get(index).and_then(known_text);
    let arity = |count: usize| args.len() == count;
    let from = |index: usize| {
        args.get(index)
            .and_then(Node::scalar)
            .map_or_else(|| at.clone(), |scalar| scalar.span.clone())
    };
    match name {
        "replace" if arity(3) => {
            let (string, substring, replacement) = (text(0)?, text(1)?, text(2)?);
            // `/.../` is a regular expression (Go's RE2 syntax): not evaluated here.
            if substring.len() > 1 && substring.starts_with('/') && substring.ends_with('/') {
                return None;
            }
            // Go's strings.Replace with an empty substring inserts the replacement between
            // every rune; Rust's `replace` does the same, at the same places.
            Some(text_at(string.replace(substring, replacement), &from(0)))
        }
        // Go's ToLower/ToUpper map rune by rune; Rust's differ for a few non-ASCII letters
        // (a final sigma): only ASCII text is evaluated.
        "lower" if arity(1) => {
            let value = text(0).filter(|value| value.is_ascii())?;
            Some(text_at(value.to_ascii_lowercase(), &from(0)))
        }
        "upper" if arity(1) => {
            let value = text(0).filter(|value| value.is_ascii())?;
            Some(text_at(value.to_ascii_uppercase(), &from(0)))
        }
        "trimspace" if arity(1) => Some(text_at(text(0)?.trim().to_string(), &from(0))),
        "join" if args.len() >= 2 => {
            let separator = text(0)?;
            let mut parts = Vec::new();
            for list in &args[1..] {
                let Node::Seq(items) = list else { return None };
                for item in items {
                    parts.push(known_text(item)?.to_string());
                }
            }
            Some(text_at(parts.join(separator), at))
        }
        "split" if arity(2) => {
            let (separator, string) = (text(0)?, text(1)?);
            // Go splits into single runes on an empty separator, Rust does not.
            if separator.is_empty() {
                return None;
            }
            Some(Node::Seq(
                string
                    .split(separator)
                    .map(|part| text_at(part.to_string(), &from(1)))
                    .collect(),
            ))
        }
        "format" if !args.is_empty() => {
            format(text(0)?, &args[1..]).map(|value| text_at(value, at))
        }
        "coalesce" if !args.is_empty() => {
            for arg in args {
                if has_unknown(arg) {
                    return None;
                }
                match arg {
                    Node::Scalar(scalar) if scalar.is_null() || scalar.value.is_empty() => {}
                    other => return Some(other.clone()),
                }
            }
            // Terraform: "no non-null, non-empty-string arguments", an error.
            None
        }
        "lookup" if arity(2) || arity(3) => {
            let Node::Map(entries) = &args[0] else {
                return None;
            };
            let key = text(1)?;
            // A key Terraform works out may be any of them.
            if entries.iter().any(|(name, _)| known_text(name).is_none()) {
                return None;
            }
            match entries
                .iter()
                .rev()
                .find(|(name, _)| name.text() == Some(key))
            {
                Some((_, value)) => Some(value.clone()),
                None => args.get(2).cloned(),
            }
        }
        "merge" => {
            let mut merged: Vec<(Node, Node)> = Vec::new();
            for map in args {
                match map {
                    Node::Map(entries) => {
                        for (key, value) in entries {
                            let name = known_text(key)?;
                            merged.retain(|(existing, _)| existing.text() != Some(name));
                            merged.push((key.clone(), value.clone()));
                        }
                    }
                    // A null argument is skipped.
                    Node::Scalar(scalar) if scalar.is_null() => {}
                    _ => return None,
                }
            }
            Some(Node::Map(merged))
        }
        "concat" => {
            let mut items = Vec::new();
            for list in args {
                let Node::Seq(list) = list else { return None };
                items.extend(list.iter().cloned());
            }
            Some(Node::Seq(items))
        }
        "tostring" if arity(1) => Some(text_at(text(0)?.to_string(), &from(0))),
        "tonumber" if arity(1) => {
            let value = text(0)?;
            value.trim().parse::<f64>().ok()?;
            Some(text_at(value.to_string(), at))
        }
        "tobool" if arity(1) => {
            let value = text(0).filter(|value| matches!(*value, "true" | "false"))?;
            Some(text_at(value.to_string(), at))
        }
        "toset" if arity(1) => {
            let Node::Seq(items) = &args[0] else {
                return None;
            };
            // A set holds each value once; the order of its items is not one Terraform keeps.
            let mut unique: Vec<Node> = Vec::new();
            for item in items {
                let value = known_text(item)?;
                if !unique.iter().any(|seen| seen.text() == Some(value)) {
                    unique.push(item.clone());
                }
            }
            Some(Node::Seq(unique))
        }
        "tolist" if arity(1) => matches!(args[0], Node::Seq(_)).then(|| args[0].clone()),
        "tomap" if arity(1) => matches!(args[0], Node::Map(_)).then(|| args[0].clone()),
        _ => None,
    }
}

/// `format`'s text for the verbs every configuration uses: `%s`, `%d`, `%v` and `%%`; any
/// flag, width or other verb gives `None` (go-cty's format.go reads many, not evaluated here).
fn format(spec: &str, args: &[Node]) -> Option<String> {
    let mut out = String::new();
    let mut next = 0;
    let mut chars = spec.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '%' => out.push('%'),
            verb @ ('s' | 'd' | 'v') => {
                let value = known_text(args.get(next)?)?;
                next += 1;
                // `%d` takes a whole number (go-cty refuses a fraction).
                if verb == 'd' && value.parse::<i64>().is_err() {
                    return None;
                }
                out.push_str(value);
            }
            _ => return None,
        }
    }
    // go-cty refuses more arguments than verbs ("too many arguments").
    (next == args.len()).then_some(out)
}

/// The documents of a multi-document YAML text as the kubectl provider's
/// `kubectl_file_documents` splits it (gavinbunney/terraform-provider-kubectl v1.14.0
/// `yaml/yaml.go`, `SplitMultiDocumentYAML`: at each `---` line, each part trimmed, empty
/// ones dropped), and as `split("---", ...)` followed by a filter of blank parts reads it.
pub fn yaml_documents(text: &str) -> Vec<String> {
    let mut documents = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end();
        if bare == "---" || bare.starts_with("--- ") || bare.starts_with("---\t") {
            documents.push(std::mem::take(&mut current));
            continue;
        }
        current.push_str(line);
    }
    documents.push(current);
    documents
        .into_iter()
        .map(|document| document.trim().to_string())
        .filter(|document| !document.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &str) -> Node {
        text_at(value.to_string(), &(0..0))
    }

    fn eval(name: &str, args: &[Node]) -> Option<String> {
        call(name, args, &(0..0)).and_then(|node| node.text().map(str::to_string))
    }

    #[test]
    fn string_functions_as_terraform_evaluates_them() {
        assert_eq!(
            eval(
                "replace",
                &[text("a {{N}} b {{N}}"), text("{{N}}"), text("3")]
            )
            .as_deref(),
            Some("a 3 b 3")
        );
        assert_eq!(
            eval("replace", &[text("a1"), text("/[0-9]/"), text("x")]),
            None
        );
        assert_eq!(eval("upper", &[text("kafka")]).as_deref(), Some("KAFKA"));
        assert_eq!(eval("trimspace", &[text("  3\n")]).as_deref(), Some("3"));
        assert_eq!(
            eval("format", &[text("%s-%d"), text("kafka"), text("3")]).as_deref(),
            Some("kafka-3")
        );
        assert_eq!(eval("format", &[text("%05d"), text("3")]), None);
        assert_eq!(eval("format", &[text("%s"), text("a"), text("b")]), None);
        assert_eq!(
            eval("join", &[text(","), Node::Seq(vec![text("a"), text("b")])]).as_deref(),
            Some("a,b")
        );
        assert_eq!(
            eval("coalesce", &[text(""), text("3"), text("4")]).as_deref(),
            Some("3")
        );
        assert_eq!(eval("coalesce", &[text("${var.x}"), text("3")]), None);
        assert_eq!(eval("upper", &[text("${var.x}")]), None);
    }

    #[test]
    fn collections_as_terraform_builds_them() {
        let map = |pairs: &[(&str, &str)]| {
            Node::Map(pairs.iter().map(|(k, v)| (text(k), text(v))).collect())
        };
        let merged = call(
            "merge",
            &[map(&[("a", "1"), ("b", "2")]), map(&[("b", "3")])],
            &(0..0),
        )
        .unwrap();
        assert_eq!(merged.get("b").and_then(Node::text), Some("3"));
        assert_eq!(merged.entries().len(), 2);
        assert_eq!(
            eval("lookup", &[map(&[("a", "1")]), text("b"), text("9")]).as_deref(),
            Some("9")
        );
        assert_eq!(eval("lookup", &[map(&[("a", "1")]), text("b")]), None);
        let split = call("split", &[text(","), text("a,b")], &(0..0)).unwrap();
        assert_eq!(split.items().len(), 2);
    }

    #[test]
    fn yaml_documents_split_as_the_kubectl_provider_splits_them() {
        let documents = yaml_documents("---\na: 1\n---\n\n--- # c\nb: 2\n");
        assert_eq!(documents, vec!["a: 1".to_string(), "b: 2".to_string()]);
    }
}
