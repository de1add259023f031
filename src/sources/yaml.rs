//! YAML read into a small tree whose scalars keep their byte spans in the file.
//!
//! Aliases (`*name`) are replaced by a copy of their anchor's node, so the spans of an aliased
//! value point at the anchor's scalars; merge keys (`<<: *common`, or a list of them) add the
//! merged mappings' entries that the mapping does not set itself, as YAML 1.1 merge keys do.
//!
//! Reading is bounded: copies made for aliases (an "alias bomb" of a few hundred bytes
//! expands to gigabytes), nesting (every walk of the tree recurses) and a key repeated in one
//! mapping (YAML 1.2 requires unique keys; Docker Compose refuses them) are each refused with
//! an error that says where.

use std::collections::{HashMap, HashSet};

use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

use crate::properties::Span;
pub use crate::yaml_view::Style;

/// A `.yml` or `.yaml` file name.
pub fn is_yaml_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".yml") || name.ends_with(".yaml")
}

#[derive(Debug, Clone)]
pub struct Scalar {
    /// The scalar's value after YAML unquoting and folding.
    pub value: String,
    pub style: Style,
    /// The bytes of the value: between the quotes for a quoted scalar. When `exact`, they are
    /// the value byte for byte; otherwise the scalar as written, from its first byte to the end
    /// of its first line (good for a label, not for an edit).
    pub span: Span,
    /// Whether `span` holds the value exactly, on one line (no escapes, no folding).
    pub exact: bool,
    /// The whole scalar as written: quotes, block indicator and every line of it, up to the
    /// next token (what redaction hides).
    pub extent: Span,
    /// Which scalar of the file this is (an alias's copy keeps its anchor's).
    id: usize,
}

impl Scalar {
    /// A scalar that no YAML text holds, such as a Terraform expression's value: `span` is
    /// where it is written (the value itself when `exact`), `extent` all of it.
    pub fn written_elsewhere(
        value: String,
        style: Style,
        span: Span,
        exact: bool,
        extent: Span,
    ) -> Scalar {
        Scalar {
            value,
            style,
            span,
            exact,
            extent,
            id: usize::MAX,
        }
    }

    /// A plain `~`, `null` or empty scalar: YAML's null.
    pub fn is_null(&self) -> bool {
        self.style == Style::Plain
            && matches!(self.value.as_str(), "" | "~" | "null" | "Null" | "NULL")
    }
}

#[derive(Debug, Clone)]
pub enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    pub fn scalar(&self) -> Option<&Scalar> {
        match self {
            Node::Scalar(scalar) => Some(scalar),
            _ => None,
        }
    }

    /// A scalar's value; `None` for collections and null.
    pub fn text(&self) -> Option<&str> {
        self.scalar()
            .filter(|scalar| !scalar.is_null())
            .map(|scalar| scalar.value.as_str())
    }

    pub fn entries(&self) -> &[(Node, Node)] {
        match self {
            Node::Map(entries) => entries,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match self {
            Node::Seq(items) => items,
            _ => &[],
        }
    }

    /// The value of `key` in a mapping (the last, if repeated).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.get_entry(key).map(|(_, value)| value)
    }

    /// The node at `path` of nested mappings (`["metadata", "name"]`).
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |node, key| node.get(key))
    }

    /// The key and value of `key` in a mapping (the last, if repeated).
    pub fn get_entry(&self, key: &str) -> Option<&(Node, Node)> {
        self.entries()
            .iter()
            .rev()
            .find(|(k, _)| k.scalar().is_some_and(|k| k.value == key))
    }

    /// The same tree, read from text that starts `offset` bytes into a larger one (a YAML
    /// heredoc in a Terraform file): every span moved by `offset`.
    pub fn shift(&mut self, offset: usize) {
        match self {
            Node::Scalar(scalar) => {
                scalar.span = scalar.span.start + offset..scalar.span.end + offset;
                scalar.extent = scalar.extent.start + offset..scalar.extent.end + offset;
            }
            Node::Seq(items) => items.iter_mut().for_each(|item| item.shift(offset)),
            Node::Map(entries) => {
                for (key, value) in entries {
                    key.shift(offset);
                    value.shift(offset);
                }
            }
        }
    }

    /// Every scalar in the tree, with the scalar key it is the value of (if it is one).
    pub fn visit_scalars<'a>(
        &'a self,
        key: Option<&'a Scalar>,
        visit: &mut dyn FnMut(Option<&'a Scalar>, &'a Scalar),
    ) {
        match self {
            Node::Scalar(scalar) => visit(key, scalar),
            Node::Seq(items) => items
                .iter()
                .for_each(|item| item.visit_scalars(None, visit)),
            Node::Map(entries) => {
                for (k, v) in entries {
                    k.visit_scalars(None, visit);
                    v.visit_scalars(k.scalar(), visit);
                }
            }
        }
    }
}

/// Why a file is not YAML, or not YAML kafkalint reads, with where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} (line {line}, column {column})")]
pub struct YamlError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// How deep collections may nest: every walk of the tree recurses once per level. Compose
/// files and Strimzi resources nest about ten levels.
pub const MAX_DEPTH: usize = 256;
/// How many aliases a file may use: a compose file uses a few per service.
pub const MAX_ALIASES: usize = 100_000;
/// How much aliases may copy, counted as 64 bytes a node plus each scalar's length: about a
/// million nodes, far above any real file, far below what exhausts memory.
pub const MAX_EXPANSION: usize = 64 << 20;

/// Parses every document of `text`.
pub fn parse(text: &str) -> Result<Vec<Node>, YamlError> {
    let mut builder = Builder {
        text,
        // Lines end at `\n`, `\r\n` or `\r`, for YAML as for `Properties`.
        line_starts: crate::source::line_starts(text.as_bytes()),
        cursor: std::cell::Cell::new((0, 0, 0)),
        stack: Vec::new(),
        anchors: HashMap::new(),
        documents: Vec::new(),
        extents: Vec::new(),
        aliases: 0,
        expansion: 0,
    };
    // Events one by one rather than `Parser::load`, which recurses once per nesting level.
    let mut parser = Parser::new_from_str(text);
    loop {
        let (event, mark) = parser.next_token().map_err(|error| YamlError {
            message: format!("not valid YAML: {}", error.info()),
            line: error.marker().line(),
            column: error.marker().col() + 1,
        })?;
        if event == Event::StreamEnd {
            break;
        }
        builder.on_event(event, mark).map_err(|message| YamlError {
            message,
            line: mark.line(),
            column: mark.col() + 1,
        })?;
    }
    builder.close_extent(text.len());
    let extents = builder.extents;
    let mut documents = builder.documents;
    for document in &mut documents {
        set_extents(document, text.as_bytes(), &extents);
    }
    Ok(documents)
}

/// Gives each scalar its extent, trimmed of the whitespace before the next token; a scalar
/// that is not `exact` is labelled by its extent.
fn set_extents(node: &mut Node, bytes: &[u8], extents: &[Span]) {
    match node {
        Node::Scalar(scalar) => {
            let mut extent = extents
                .get(scalar.id)
                .cloned()
                .unwrap_or(scalar.span.clone());
            while extent.end > extent.start + 1 && bytes[extent.end - 1].is_ascii_whitespace() {
                extent.end -= 1;
            }
            extent.end = extent.end.max(scalar.span.end);
            if !scalar.exact && !scalar.value.is_empty() {
                scalar.span = extent.clone();
            }
            scalar.extent = extent;
        }
        Node::Seq(items) => items
            .iter_mut()
            .for_each(|item| set_extents(item, bytes, extents)),
        Node::Map(entries) => {
            for (key, value) in entries {
                set_extents(key, bytes, extents);
                set_extents(value, bytes, extents);
            }
        }
    }
}

/// The byte offset of each character (the scanner counts characters), and of the end.
/// What a node costs to copy, and how deep it nests (a scalar is 0).
#[derive(Debug, Clone, Copy, Default)]
struct Size {
    weight: usize,
    depth: usize,
}

impl Size {
    fn of_scalar(value: &str) -> Size {
        Size {
            weight: 64 + value.len(),
            depth: 0,
        }
    }

    /// Takes in a child.
    fn add(&mut self, child: Size) {
        self.weight = self.weight.saturating_add(child.weight);
        self.depth = self.depth.max(child.depth + 1);
    }
}

/// A collection being read: its items or entries so far, its anchor, its size so far.
struct Open {
    kind: OpenKind,
    anchor: usize,
    size: Size,
}

enum OpenKind {
    Seq(Vec<Node>),
    /// Entries, a key waiting for its value, the scalar keys so far (to refuse a repeat).
    Map(Vec<(Node, Node)>, Option<Node>, HashSet<String>),
}

struct Builder<'a> {
    text: &'a str,
    line_starts: Vec<u32>,
    /// The line, column and byte offset of the last marker placed.
    cursor: std::cell::Cell<(usize, usize, usize)>,
    stack: Vec<Open>,
    anchors: HashMap<usize, (Node, Size)>,
    documents: Vec<Node>,
    /// The extent of every scalar so far; the last one is open until the next event.
    extents: Vec<Span>,
    /// Aliases read so far, and what their copies weigh.
    aliases: usize,
    expansion: usize,
}

impl Builder<'_> {
    /// Ends the open scalar's extent where the next event starts.
    fn close_extent(&mut self, at: usize) {
        if let Some(last) = self.extents.last_mut()
            && last.end == usize::MAX
        {
            last.end = at.max(last.start);
        }
    }

    /// Adds a finished node to the open collection; refuses a key the mapping already has.
    fn add(&mut self, node: Node, anchor: usize, size: Size) -> Result<(), String> {
        if self.stack.len() + size.depth > MAX_DEPTH {
            return Err(format!(
                "YAML nested deeper than {MAX_DEPTH} levels: not read"
            ));
        }
        if anchor > 0 {
            self.anchors.insert(anchor, (node.clone(), size));
        }
        let Some(open) = self.stack.last_mut() else {
            self.documents.push(node);
            return Ok(());
        };
        open.size.add(size);
        match &mut open.kind {
            OpenKind::Seq(items) => items.push(node),
            OpenKind::Map(entries, pending, keys) => match pending.take() {
                None => {
                    if let Some(key) = node.scalar()
                        && !keys.insert(key.value.clone())
                    {
                        return Err(repeated_key(&key.value));
                    }
                    *pending = Some(node);
                }
                Some(key) => entries.push((key, node)),
            },
        }
        Ok(())
    }

    /// The copy of an anchor's node for an alias, counted against the limits.
    fn alias(&mut self, anchor: usize) -> Result<(Node, Size), String> {
        // An unknown anchor is a scanner error already; a null stands in.
        let Some((node, size)) = self.anchors.get(&anchor) else {
            let null = Scalar {
                value: String::new(),
                style: Style::Plain,
                span: 0..0,
                exact: false,
                extent: 0..0,
                id: usize::MAX,
            };
            return Ok((Node::Scalar(null), Size::of_scalar("")));
        };
        self.aliases += 1;
        self.expansion = self.expansion.saturating_add(size.weight);
        if self.aliases > MAX_ALIASES {
            return Err(format!(
                "YAML uses more than {MAX_ALIASES} aliases: not read"
            ));
        }
        if self.expansion > MAX_EXPANSION {
            return Err(format!(
                "YAML aliases expand to more than {} MiB: not read (an alias bomb?)",
                MAX_EXPANSION >> 20
            ));
        }
        Ok((node.clone(), *size))
    }

    /// The byte offset of a marker, from its line and column: yaml-rust2 0.13 counts the
    /// characters of a block scalar's lines in bytes in `Marker::index`
    /// (`scan_block_scalar_content_line` adds `line_buffer.len()`), so every index after a
    /// block scalar holding non-ASCII text is off; lines and columns stay true elsewhere.
    fn offset(&self, mark: Marker) -> usize {
        let line = mark.line().clamp(1, self.line_starts.len());
        let start = self.line_starts[line - 1] as usize;
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |next| *next as usize);
        // Markers come in order: walk on from the last one on the same line, so that a long
        // line of many scalars is read once, not once per scalar.
        let (mut col, mut at) = match self.cursor.get() {
            (cursor_line, col, at) if cursor_line == line && col <= mark.col() => (col, at),
            _ => (0, start),
        };
        let line_text = &self.text[at..end];
        let mut chars = line_text.char_indices();
        while col < mark.col() {
            match chars.next() {
                Some(_) => col += 1,
                None => break,
            }
        }
        at += chars.next().map_or(line_text.len(), |(offset, _)| offset);
        if col < mark.col() {
            at = end;
        }
        self.cursor.set((line, col, at));
        at
    }

    fn scalar(&self, value: String, style: TScalarStyle, mark: Marker) -> Scalar {
        let start = self.offset(mark);
        let bytes = self.text.as_bytes();
        let line_end = self.text[start..]
            .find(['\n', '\r'])
            .map_or(self.text.len(), |at| start + at);
        let (style, span, exact) = match style {
            TScalarStyle::SingleQuoted | TScalarStyle::DoubleQuoted
                if matches!(bytes.get(start), Some(b'\'' | b'"')) =>
            {
                let double = style == TScalarStyle::DoubleQuoted;
                let close = closing_quote(bytes, start, double);
                let content = start + 1..close.unwrap_or(line_end).max(start + 1);
                let exact = close.is_some_and(|close| close <= line_end)
                    && self.text[content.clone()] == value;
                let style = if double {
                    Style::DoubleQuoted
                } else {
                    Style::SingleQuoted
                };
                (style, content, exact)
            }
            TScalarStyle::Literal | TScalarStyle::Folded => (Style::Block, start..line_end, false),
            _ => {
                let end = start + value.len();
                if !value.is_empty() && self.text.get(start..end) == Some(value.as_str()) {
                    (Style::Plain, start..end, true)
                } else {
                    (
                        Style::Plain,
                        start..if value.is_empty() { start } else { line_end },
                        false,
                    )
                }
            }
        };
        let id = self.extents.len();
        Scalar {
            value,
            style,
            extent: start..span.end,
            span,
            exact,
            id,
        }
    }
}

/// The offset of the quote that closes the quoted scalar opening at `start`.
fn closing_quote(bytes: &[u8], start: usize, double: bool) -> Option<usize> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if double => at += 2,
            b'"' if double => return Some(at),
            b'\'' if !double && bytes.get(at + 1) == Some(&b'\'') => at += 2,
            b'\'' if !double => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// The error for a key a mapping already has; the key is named when it reads as a name.
fn repeated_key(key: &str) -> String {
    // A key that holds a value run into it is no name to quote (`crate::secrets::shown_key`).
    let name_like = key.len() <= 64
        && !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-<".contains(&b))
        && (key == "<<" || crate::secrets::shown_key_len(key) == key.len());
    if name_like {
        format!("YAML mapping repeats the key `{key}` (keys of a mapping must be unique)")
    } else {
        "YAML mapping repeats a key (keys of a mapping must be unique)".to_string()
    }
}

impl Builder<'_> {
    fn on_event(&mut self, event: Event, mark: Marker) -> Result<(), String> {
        let at = self.offset(mark);
        self.close_extent(at);
        match event {
            Event::Scalar(value, style, anchor, _) => {
                let size = Size::of_scalar(&value);
                let scalar = self.scalar(value, style, mark);
                self.extents.push(at..usize::MAX);
                self.add(Node::Scalar(scalar), anchor, size)
            }
            Event::Alias(anchor) => {
                let (node, size) = self.alias(anchor)?;
                self.add(node, 0, size)
            }
            Event::SequenceStart(anchor, _) => self.open(OpenKind::Seq(Vec::new()), anchor),
            Event::MappingStart(anchor, _) => {
                self.open(OpenKind::Map(Vec::new(), None, HashSet::new()), anchor)
            }
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Open {
                    kind: OpenKind::Seq(items),
                    anchor,
                    size,
                }) => self.add(Node::Seq(items), anchor, size),
                Some(Open {
                    kind: OpenKind::Map(entries, _, _),
                    anchor,
                    size,
                }) => self.add(Node::Map(merge(entries)), anchor, size),
                None => Ok(()),
            },
            // Anchors name nodes of their own document only.
            Event::DocumentStart => {
                self.anchors.clear();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn open(&mut self, kind: OpenKind, anchor: usize) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!(
                "YAML nested deeper than {MAX_DEPTH} levels: not read"
            ));
        }
        self.stack.push(Open {
            kind,
            anchor,
            size: Size::default(),
        });
        Ok(())
    }
}

/// Resolves merge keys: `<<: *a` or `<<: [*a, *b]` adds the entries of the merged mappings
/// that neither the mapping nor an earlier merged mapping sets.
fn merge(entries: Vec<(Node, Node)>) -> Vec<(Node, Node)> {
    let is_merge = |key: &Node| {
        key.scalar()
            .is_some_and(|key| key.style == Style::Plain && key.value == "<<")
    };
    if !entries.iter().any(|(key, _)| is_merge(key)) {
        return entries;
    }
    let mut own = Vec::new();
    let mut merged = Vec::new();
    for (key, value) in entries {
        if !is_merge(&key) {
            own.push((key, value));
            continue;
        }
        match value {
            Node::Map(entries) => merged.push(entries),
            Node::Seq(items) => merged.extend(items.into_iter().filter_map(|item| match item {
                Node::Map(entries) => Some(entries),
                _ => None,
            })),
            _ => {}
        }
    }
    let name = |node: &Node| node.scalar().map(|scalar| scalar.value.clone());
    // Keys seen so far, by name: a set, so that merging many mappings stays linear.
    let mut set: HashSet<Option<String>> = own.iter().map(|(key, _)| name(key)).collect();
    let mut result: Vec<(Node, Node)> = Vec::new();
    for (key, value) in merged.into_iter().flatten() {
        if set.insert(name(&key)) {
            result.push((key, value));
        }
    }
    // Merged entries first: the mapping's own come after and so win a `get`.
    result.extend(own);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar_at<'a>(text: &'a str, node: &Node) -> &'a str {
        &text[node.scalar().unwrap().span.clone()]
    }

    #[test]
    fn spans_of_plain_and_quoted_scalars() {
        let text = "a: 1\nb: 'x y'\nc: \"p\\tq\"\nd: é-ü\n";
        let doc = &parse(text).unwrap()[0];
        assert_eq!(scalar_at(text, doc.get("a").unwrap()), "1");
        assert_eq!(scalar_at(text, doc.get("b").unwrap()), "x y");
        assert!(doc.get("b").unwrap().scalar().unwrap().exact);
        assert!(!doc.get("c").unwrap().scalar().unwrap().exact);
        assert_eq!(scalar_at(text, doc.get("d").unwrap()), "é-ü");
    }

    #[test]
    fn aliases_point_at_the_anchor_and_merge_keys_merge() {
        let text = "x: &common\n  A: 1\n  B: 2\ny:\n  <<: *common\n  B: 3\n";
        let doc = &parse(text).unwrap()[0];
        let y = doc.get("y").unwrap();
        let a = y.get("A").unwrap().scalar().unwrap();
        assert_eq!(a.value, "1");
        assert_eq!(&text[a.span.clone()], "1");
        assert_eq!(a.span.start, text.find("A: 1").unwrap() + 3);
        assert_eq!(y.get("B").unwrap().text(), Some("3"));
    }

    #[test]
    fn errors_say_where() {
        let error = parse("a: [1\n").unwrap_err();
        assert!(error.line >= 1, "{error}");
    }
}
