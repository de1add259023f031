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

/// Whether a text holds Go template actions (`{{ .Values.x }}`).
pub fn is_template(text: &str) -> bool {
    text.find("{{").is_some_and(|at| text[at..].contains("}}"))
}

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
    /// The tag written before it (`!!str`, `!custom`), the `tag:yaml.org,2002:` prefix shown
    /// as `!!`; `None` when it has none.
    pub tag: Option<String>,
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
            tag: None,
            id: usize::MAX,
        }
    }

    /// The tag go-yaml v3 gives this scalar (`Node.ShortTag`): the one written (`!` aside),
    /// `!!str` for a quoted or block scalar, else the one its text resolves to ([`plain_tag`]).
    pub fn resolved_tag(&self) -> &str {
        match self.tag.as_deref() {
            Some(tag) if tag != "!" => tag,
            _ if self.style != Style::Plain => "!!str",
            _ => plain_tag(&self.value, true),
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

/// How many times a file is read again with lines padded (see [`parse`]): a file needs one
/// reading per quoted scalar or flow line its scanner refused, and real files have a few.
const MAX_REREADS: usize = 256;
/// The most spaces a line is padded with.
const MAX_PADDING: u32 = 4096;
/// In place of a padding: the line is a comment, read from the left margin.
const COMMENT_AT_MARGIN: u32 = u32::MAX;

/// Parses every document of `text`.
///
/// go-yaml v3 (the YAML of docker compose, kubectl and Helm, a port of libyaml) reads the
/// lines that continue a quoted scalar or a flow collection at any indentation, while
/// yaml-rust2's scanner refuses one that is less indented than the block it is in ("invalid
/// indentation in quoted scalar", `command: ["sh", "-c", "` continued at the left margin).
/// The leading white space of such a line is no part of any value (YAML folds it away), so
/// where the scanner refuses one, the file is read again with that line padded with spaces
/// (for a quoted scalar, every line it continues on), the spans mapped back to the text.
pub fn parse(text: &str) -> Result<Vec<Node>, YamlError> {
    let line_starts = crate::source::line_starts(text.as_bytes());
    let mut padding: Vec<u32> = Vec::new();
    let mut rereads = 0;
    loop {
        match parse_padded(text, &line_starts, &padding) {
            Err(Refusal::Scanner(error, mark, info)) => {
                if rereads < MAX_REREADS
                    && pad_refused_lines(text, &line_starts, &mut padding, mark, &info)
                {
                    rereads += 1;
                    continue;
                }
                return Err(error);
            }
            Err(Refusal::Reader(error)) => return Err(error),
            Ok(documents) => return Ok(documents),
        }
    }
}

enum Refusal {
    /// yaml-rust2's scanner refused the text: the error, where (with padding), and why.
    Scanner(YamlError, Marker, String),
    /// The tree is refused: kafkalint's bounds, a repeated key, a recursive alias.
    Reader(YamlError),
}

/// The characters of `text`, each line `padding[line]` spaces further right.
struct Padded<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line_starts: &'a [u32],
    padding: &'a [u32],
    next_line: usize,
    pending: u32,
}

impl Iterator for Padded<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.pending > 0 {
            self.pending -= 1;
            return Some(' ');
        }
        let &(at, c) = self.chars.peek()?;
        if self
            .line_starts
            .get(self.next_line)
            .is_some_and(|start| *start as usize == at)
        {
            let pad = self.padding.get(self.next_line).copied().unwrap_or(0);
            self.next_line += 1;
            if pad == COMMENT_AT_MARGIN {
                while self
                    .chars
                    .peek()
                    .is_some_and(|(_, c)| matches!(c, ' ' | '\t'))
                {
                    self.chars.next();
                }
                return self.next();
            }
            if pad > 0 {
                self.pending = pad - 1;
                return Some(' ');
            }
        }
        self.chars.next();
        Some(c)
    }
}

/// Pads the lines yaml-rust2 refused for an indentation that go-yaml does not ask for; false
/// when the refusal is another, or padding does not help.
fn pad_refused_lines(
    text: &str,
    line_starts: &[u32],
    padding: &mut Vec<u32>,
    mark: Marker,
    info: &str,
) -> bool {
    let line = mark.line().clamp(1, line_starts.len()) - 1;
    let pad_of = |padding: &Vec<u32>, line: usize| padding.get(line).copied().unwrap_or(0);
    // A document marker at the left margin ends a quoted scalar or a flow collection in
    // go-yaml too: never padded away.
    let is_document_marker = |line: usize| {
        let start = line_starts[line] as usize;
        let rest = &text.as_bytes()[start..];
        (rest.starts_with(b"---") || rest.starts_with(b"..."))
            && rest.get(3).is_none_or(|b| b" \t\r\n".contains(b))
    };
    let mut lines = Vec::new();
    let mut amount = 0;
    match info {
        // A comment line less indented than the block scalar before it and more than the
        // block the scalar is in: it ends the scalar (YAML 1.2, `l-trail-comments`), as go-yaml
        // reads it, where yaml-rust2 refuses it. Read from the left margin, where yaml-rust2
        // too ends the scalar there and skips the comment (indentation counts for no comment):
        // the scalar keeps what it had, its kept line ends (`|+`) included.
        "wrongly indented line in block scalar" => {
            let start = line_starts[line] as usize;
            let rest = &text.as_bytes()[start..];
            let is_comment = rest
                .iter()
                .find(|b| !matches!(b, b' ' | b'\t'))
                .is_some_and(|b| *b == b'#');
            if !is_comment || pad_of(padding, line) != 0 {
                return false;
            }
            if padding.len() <= line {
                padding.resize(line + 1, 0);
            }
            padding[line] = COMMENT_AT_MARGIN;
            return true;
        }
        // At the opening quote: every line the scalar continues on is padded past it.
        "invalid indentation in quoted scalar" => {
            let start = column_offset(text, line_starts, line, mark.col() as u32, pad_of(padding, line));
            let bytes = text.as_bytes();
            let Some(close) = matches!(bytes.get(start), Some(b'"' | b'\''))
                .then(|| closing_quote(bytes, start, bytes[start] == b'"'))
                .flatten()
            else {
                return false;
            };
            amount = u32::try_from(mark.col() + 1).unwrap_or(MAX_PADDING);
            lines.extend(
                (line + 1..line_starts.len())
                    .take_while(|next| line_starts[*next] as usize <= close),
            );
        }
        // At a line in a flow collection (yaml-rust2 raises these in flow context only: in a
        // block, `unroll_indent` has made the indentation the line's before they are tested),
        // or a continuation line of a quoted scalar that starts with a tab.
        "invalid indentation in flow construct"
        | "invalid indentation"
        | "tab cannot be used as indentation"
        // A tab at the start of a line, which go-yaml skips in a flow collection only: once
        // read, the line must be in one (`tab_indented_line`), or the file is refused.
        | "tabs disallowed within this context (block indentation)" => {
            amount = (pad_of(padding, line) * 2).max(16);
            lines.push(line);
        }
        _ => {}
    }
    if amount > MAX_PADDING {
        return false;
    }
    let mut changed = false;
    for line in lines {
        if is_document_marker(line) || pad_of(padding, line) >= amount {
            continue;
        }
        if padding.len() <= line {
            padding.resize(line + 1, 0);
        }
        padding[line] = amount;
        changed = true;
    }
    changed
}

/// The byte offset of the character at column `col` of line `line` (0-based), the column
/// counted with `pad` spaces of padding before the line.
fn column_offset(text: &str, line_starts: &[u32], line: usize, col: u32, pad: u32) -> usize {
    let start = line_starts[line] as usize;
    let end = line_starts
        .get(line + 1)
        .map_or(text.len(), |next| *next as usize);
    let col = col.saturating_sub(pad) as usize;
    text[start..end]
        .char_indices()
        .nth(col)
        .map_or(end, |(at, _)| start + at)
}

fn parse_padded(text: &str, line_starts: &[u32], padding: &[u32]) -> Result<Vec<Node>, Refusal> {
    let mut builder = Builder {
        text,
        line_starts,
        padding,
        cursor: std::cell::Cell::new((0, 0, 0)),
        stack: Vec::new(),
        anchors: HashMap::new(),
        documents: Vec::new(),
        extents: Vec::new(),
        flow_ranges: Vec::new(),
        multi_line: Vec::new(),
        aliases: 0,
        expansion: 0,
    };
    let unpadded_column = |mark: Marker| {
        let pad = padding
            .get(mark.line().saturating_sub(1))
            .copied()
            .unwrap_or(0) as usize;
        mark.col().saturating_sub(pad) + 1
    };
    // Events one by one rather than `Parser::load`, which recurses once per nesting level.
    let mut parser = Parser::new(Padded {
        chars: text.char_indices().peekable(),
        line_starts,
        padding,
        next_line: 0,
        pending: 0,
    });
    loop {
        let (event, mark) = parser.next_token().map_err(|error| {
            Refusal::Scanner(
                YamlError {
                    message: format!("not valid YAML: {}", error.info()),
                    line: error.marker().line(),
                    column: unpadded_column(*error.marker()),
                },
                *error.marker(),
                error.info().to_string(),
            )
        })?;
        if event == Event::StreamEnd {
            break;
        }
        builder.on_event(event, mark).map_err(|message| {
            Refusal::Reader(YamlError {
                message,
                line: mark.line(),
                column: unpadded_column(mark),
            })
        })?;
    }
    builder.close_extent(text.len());
    let bytes = text.as_bytes();
    let multi_line: Vec<Span> = builder
        .multi_line
        .iter()
        .map(|(start, end)| match end {
            Ok(end) => *start..*end,
            Err(id) => {
                let extent = builder.extents.get(*id).cloned().unwrap_or(0..0);
                let mut end = extent.end.min(bytes.len()).max(extent.start);
                // A plain scalar ends at a comment (a `#` after a blank or at a line's start):
                // the comment lines after it are no part of it, and go-yaml refuses a tab
                // before one as it does anywhere in a block.
                if !matches!(bytes.get(*start), Some(b'|' | b'>')) {
                    let comment = (extent.start..end).find(|at| {
                        bytes[*at] == b'#'
                            && (*at == 0 || matches!(bytes[*at - 1], b' ' | b'\t' | b'\n' | b'\r'))
                    });
                    end = comment.unwrap_or(end);
                }
                while end > extent.start && bytes[end - 1].is_ascii_whitespace() {
                    end -= 1;
                }
                *start..end
            }
        })
        .collect();
    if let Some(line) = tab_indented_line(text, line_starts, &multi_line, &builder.flow_ranges) {
        return Err(Refusal::Reader(YamlError {
            message: "YAML line is indented with a tab, which YAML readers of Go (compose, \
                      kubectl, Helm) refuse"
                .to_string(),
            line: line + 1,
            column: 1,
        }));
    }
    let extents = builder.extents;
    let mut documents = builder.documents;
    for document in &mut documents {
        set_extents(document, text.as_bytes(), &extents);
    }
    Ok(documents)
}

/// The first line (0-based) whose leading blanks hold a tab where go-yaml refuses one: outside a
/// scalar that runs over lines and outside a flow collection, where go-yaml's scanner skips
/// spaces only at the start of a line (go-yaml/yaml, scannerc.go, v3.0.1,
/// `yaml_parser_scan_to_next_token`: "found a tab character that violates indentation"), a
/// blank or comment line included.
fn tab_indented_line(
    text: &str,
    line_starts: &[u32],
    multi_line: &[Span],
    flow_ranges: &[Span],
) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut inside: Vec<Span> = multi_line
        .iter()
        .cloned()
        .chain(flow_ranges.iter().cloned())
        .filter(|range| range.end > range.start)
        .collect();
    inside.sort_by_key(|range| range.start);
    let (mut next, mut reach) = (0, 0);
    for (line, start) in line_starts.iter().enumerate() {
        let start = *start as usize;
        let blanks = bytes[start..]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        if !bytes[start..start + blanks].contains(&b'\t') {
            continue;
        }
        // go-yaml v3 reads a run of comment lines as one (`yaml_parser_scan_comments`, kept
        // for its Node API): a comment line that follows a comment line, or a `--- # ...`
        // line, is taken in whatever its indentation.
        let is_comment_at = |line: usize| {
            let start = line_starts[line] as usize;
            let rest = &bytes[start..];
            let text = rest
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t'))
                .map_or(&rest[rest.len()..], |at| &rest[at..]);
            text.first() == Some(&b'#')
                || (rest.starts_with(b"---")
                    && rest[3..]
                        .iter()
                        .find(|b| !matches!(b, b' ' | b'\t'))
                        .is_some_and(|b| *b == b'#'))
        };
        if line > 0 && is_comment_at(line) && is_comment_at(line - 1) {
            continue;
        }
        while next < inside.len() && inside[next].start < start + blanks {
            reach = reach.max(inside[next].end);
            next += 1;
        }
        if reach <= start {
            return Some(line);
        }
    }
    None
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
    /// A flow collection (`[...]`, `{...}`): where it opens.
    flow_start: Option<usize>,
}

enum OpenKind {
    Seq(Vec<Node>),
    /// Entries, a key waiting for its value, the scalar keys so far (to refuse a repeat).
    Map(Vec<(Node, Node)>, Option<Node>, HashSet<String>),
}

struct Builder<'a> {
    text: &'a str,
    line_starts: &'a [u32],
    /// The spaces each line is read with before its text (see [`parse`]).
    padding: &'a [u32],
    /// The line, column and byte offset of the last marker placed.
    cursor: std::cell::Cell<(usize, usize, usize)>,
    stack: Vec<Open>,
    anchors: HashMap<usize, (Node, Size)>,
    documents: Vec<Node>,
    /// The extent of every scalar so far; the last one is open until the next event.
    extents: Vec<Span>,
    /// The flow collections read so far, from their opening bracket to their closing one.
    flow_ranges: Vec<Span>,
    /// The scalars that run over lines: where each starts, and its end when known (a quoted
    /// scalar's closing quote) or the id of the scalar whose extent ends it.
    multi_line: Vec<(usize, Result<usize, usize>)>,
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
        // yaml-rust2 refuses an anchor it has not seen; one it has seen but whose node is not
        // finished is an alias inside its own anchor's node, which go-yaml refuses ("anchor
        // value contains itself").
        let Some((node, size)) = self.anchors.get(&anchor) else {
            return Err(
                "YAML alias inside the node its anchor names (a node that contains itself): not read"
                    .to_string(),
            );
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
        let pad = self.padding.get(line - 1).copied().unwrap_or(0) as usize;
        let mark_col = mark.col().saturating_sub(pad);
        let start = self.line_starts[line - 1] as usize;
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |next| *next as usize);
        // Markers come in order: walk on from the last one on the same line, so that a long
        // line of many scalars is read once, not once per scalar.
        let (mut col, mut at) = match self.cursor.get() {
            (cursor_line, col, at) if cursor_line == line && col <= mark_col => (col, at),
            _ => (0, start),
        };
        let line_text = &self.text[at..end];
        let mut chars = line_text.char_indices();
        while col < mark_col {
            match chars.next() {
                Some(_) => col += 1,
                None => break,
            }
        }
        at += chars.next().map_or(line_text.len(), |(offset, _)| offset);
        if col < mark_col {
            at = end;
        }
        self.cursor.set((line, col, at));
        at
    }

    fn scalar(&self, mut value: String, style: TScalarStyle, mark: Marker) -> Scalar {
        let start = self.offset(mark);
        let bytes = self.text.as_bytes();
        // A block scalar of empty lines only, clipped (no `-` or `+` in its header), is empty
        // (YAML 1.2, 8.1.1.2, as go-yaml reads it); yaml-rust2 keeps a line break.
        if matches!(style, TScalarStyle::Literal | TScalarStyle::Folded)
            && value.bytes().all(|b| b == b'\n')
        {
            let clipped = self.block_header(start).is_some_and(|header| {
                !bytes[header + 1..]
                    .iter()
                    .take_while(|b| matches!(b, b'-' | b'+' | b'0'..=b'9'))
                    .any(|b| matches!(b, b'-' | b'+'))
            });
            // Nor has one whose header ends the text any line of its own: go-yaml reads it
            // empty, yaml-rust2 keeps the header's line break.
            let header_ends_text = self.block_header(start).is_some_and(|header| {
                let rest = &bytes[header..];
                let line_end = rest
                    .iter()
                    .position(|b| matches!(b, b'\n' | b'\r'))
                    .map_or(rest.len(), |end| end);
                matches!(&rest[line_end..], b"" | b"\n" | b"\r" | b"\r\n")
            });
            if clipped || header_ends_text {
                value.clear();
            }
        }
        // A block scalar that runs to the end of a text without a final line break has none
        // to keep (go-yaml/yaml v3.0.1, scannerc.go, yaml_parser_scan_block_scalar: the
        // trailing break is only ever one read); yaml-rust2 adds one. It runs to the end when
        // every line after its header is blank or indented as far as its first line.
        if matches!(style, TScalarStyle::Literal | TScalarStyle::Folded)
            && !self.text.ends_with(['\n', '\r'])
            && value.ends_with('\n')
            && self.block_header(start).is_some_and(|header| {
                let lines = self.text[header..].split(['\n', '\r']).skip(1);
                let indent = |line: &str| line.len() - line.trim_start_matches(' ').len();
                let mut content = lines.filter(|line| !line.trim().is_empty());
                match content.next() {
                    Some(first) => {
                        let depth = indent(first);
                        content.all(|line| indent(line) >= depth)
                    }
                    None => false,
                }
            })
        {
            value.pop();
        }
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
            tag: None,
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
            Event::Scalar(value, style, anchor, tag) => {
                let size = Size::of_scalar(&value);
                let mut scalar = self.scalar(value, style, mark);
                scalar.tag = tag.map(|tag| match tag.handle.as_str() {
                    "tag:yaml.org,2002:" => format!("!!{}", tag.suffix),
                    handle => format!("{handle}{}", tag.suffix),
                });
                self.check_scalar(&scalar, at)?;
                self.entry_separated_by_tab(at)?;
                let id = self.extents.len();
                let bytes = self.text.as_bytes();
                match scalar.style {
                    Style::DoubleQuoted | Style::SingleQuoted if !scalar.exact => {
                        if let Some(close) = matches!(bytes.get(at), Some(b'"' | b'\''))
                            .then(|| closing_quote(bytes, at, bytes[at] == b'"'))
                            .flatten()
                        {
                            self.multi_line.push((at, Ok(close + 1)));
                        }
                    }
                    Style::Block => {
                        let header = self.block_header(at).unwrap_or(at);
                        self.multi_line.push((header, Err(id)));
                    }
                    // An empty scalar (a `-` or `key:` with nothing after it) runs over no
                    // line, whatever comes before the next node.
                    Style::Plain if !scalar.exact && !scalar.value.is_empty() => {
                        self.multi_line.push((at, Err(id)))
                    }
                    _ => {}
                }
                self.extents.push(at..usize::MAX);
                self.add(Node::Scalar(scalar), anchor, size)
            }
            Event::Alias(anchor) => {
                self.entry_separated_by_tab(at)?;
                let (node, size) = self.alias(anchor)?;
                // go-yaml merges a sequence of mappings written in place (`<<: [*a, *b]`), but
                // an alias must name a mapping itself (decode.go `merge`, v3.0.1: an AliasNode
                // whose target is no MappingNode fails), so `<<: *list` is refused.
                let merging = self.stack.last().is_some_and(|open| {
                    matches!(&open.kind, OpenKind::Map(_, Some(key), _)
                        if key.scalar().is_some_and(|key| key.style == Style::Plain && key.value == "<<"))
                });
                if merging && matches!(node, Node::Seq(_)) {
                    return Err(MERGE_WANTS_A_MAPPING.to_string());
                }
                self.add(node, 0, size)
            }
            Event::SequenceStart(anchor, _) => {
                self.entry_separated_by_tab(at)?;
                self.open(OpenKind::Seq(Vec::new()), anchor)?;
                let opening = self.text.as_bytes().get(at).copied();
                if let Some(open) = self.stack.last_mut() {
                    open.flow_start = (opening == Some(b'[')).then_some(at);
                }
                Ok(())
            }
            Event::MappingStart(anchor, _) => {
                self.entry_separated_by_tab(at)?;
                self.open(OpenKind::Map(Vec::new(), None, HashSet::new()), anchor)?;
                let opening = self.text.as_bytes().get(at).copied();
                if let Some(open) = self.stack.last_mut() {
                    open.flow_start = (opening == Some(b'{')).then_some(at);
                }
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(start) = self.stack.last().and_then(|open| open.flow_start) {
                    // The event may stand at the token after the closing bracket.
                    let bytes = self.text.as_bytes();
                    let close = if bytes[start] == b'[' { b']' } else { b'}' };
                    let end = bytes[start..(at + 1).min(bytes.len())]
                        .iter()
                        .rposition(|b| *b == close)
                        .map_or(at, |found| start + found);
                    self.flow_ranges.push(start..end + 1);
                }
                self.close()
            }
            // An anchor is named for the rest of the stream, later documents included, as in
            // go-yaml v3 (its parser keeps one table of anchors per stream).
            _ => Ok(()),
        }
    }

    fn close(&mut self) -> Result<(), String> {
        match self.stack.pop() {
            Some(Open {
                kind: OpenKind::Seq(items),
                anchor,
                size,
                ..
            }) => self.add(Node::Seq(items), anchor, size),
            Some(Open {
                kind: OpenKind::Map(entries, _, _),
                anchor,
                size,
                ..
            }) => self.add(Node::Map(merge(entries)?), anchor, size),
            None => Ok(()),
        }
    }

    /// Refuses a block sequence entry whose `-` a tab follows (`- \tvalue`): go-yaml's scanner
    /// skips tabs after `-` in flow context only (go-yaml/yaml, scannerc.go, v3.0.1,
    /// `yaml_parser_scan_to_next_token`: "Tabs are allowed ... in the block context, but not
    /// ... after '-'"), so compose and kubectl refuse the file.
    fn entry_separated_by_tab(&self, at: usize) -> Result<(), String> {
        let in_block_sequence = self
            .stack
            .last()
            .is_some_and(|open| matches!(open.kind, OpenKind::Seq(_)) && open.flow_start.is_none());
        if !in_block_sequence {
            return Ok(());
        }
        // The `-`s that open entries on this line before the node, and the blanks after each.
        let bytes = self.text.as_bytes();
        let line = self
            .line_starts
            .partition_point(|start| *start as usize <= at)
            - 1;
        let mut i = self.line_starts[line] as usize;
        while i < at && bytes[i] == b' ' {
            i += 1;
        }
        while i < at && bytes[i] == b'-' && matches!(bytes.get(i + 1), Some(b' ' | b'\t')) {
            i += 1;
            let blanks = bytes[i..at]
                .iter()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            if bytes[i..i + blanks].contains(&b'\t') {
                return Err(
                    "YAML sequence entry has a tab after its `-`, which YAML readers of \
                            Go (compose, kubectl, Helm) refuse"
                        .to_string(),
                );
            }
            i += blanks;
        }
        Ok(())
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
            flow_start: None,
        });
        Ok(())
    }
}

impl Builder<'_> {
    /// Refuses a scalar that yaml-rust2 reads but go-yaml v3 (the YAML of compose, kubectl and
    /// Helm) refuses: an escape it does not know, a tab where a block scalar's indentation is
    /// due, a value its `!!` tag does not fit. Messages never quote the value (a secret).
    fn check_scalar(&self, scalar: &Scalar, at: usize) -> Result<(), String> {
        let bytes = self.text.as_bytes();
        match scalar.style {
            Style::DoubleQuoted if bytes.get(at) == Some(&b'"') => {
                if let Some(escape) = unknown_escape(bytes, at) {
                    return Err(format!(
                        "YAML double-quoted scalar holds the escape `\\{}`, which YAML readers \
                         of Go (compose, kubectl, Helm) refuse",
                        crate::escape::printable(&escape.to_string())
                    ));
                }
            }
            Style::Block if self.block_scalar_has_tab_indentation(at) => {
                return Err("YAML block scalar has a tab where its indentation is due".to_string());
            }
            _ => {}
        }
        if let Some(tag) = scalar.tag.as_deref()
            && !tag_fits(tag, &scalar.value)
        {
            return Err(format!(
                "YAML scalar tagged {} is no value of that type",
                crate::escape::printable(tag)
            ));
        }
        Ok(())
    }

    /// Where the header (`|`, `>-`, `|2`, ...) of the block scalar whose event is at `at` is:
    /// yaml-rust2 places the event at its first line of text, after the header's line and any
    /// empty lines.
    fn block_header(&self, at: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        let is_header_at = |p: usize| {
            matches!(bytes.get(p), Some(b'|' | b'>')) && {
                let rest = &bytes[p + 1..];
                let end = rest
                    .iter()
                    .position(|b| matches!(b, b'\n' | b'\r'))
                    .unwrap_or(rest.len());
                let rest = &rest[..end];
                let indicators = rest
                    .iter()
                    .take_while(|b| matches!(b, b'-' | b'+' | b'0'..=b'9'))
                    .count();
                let after = rest[indicators..].trim_ascii_start();
                after.is_empty() || (after[0] == b'#' && indicators < rest.len())
            }
        };
        if is_header_at(at) {
            return Some(at);
        }
        let mut line = self
            .line_starts
            .partition_point(|start| *start as usize <= at)
            - 1;
        while line > 0 {
            line -= 1;
            let start = self.line_starts[line] as usize;
            let end = self
                .line_starts
                .get(line + 1)
                .map_or(bytes.len(), |next| *next as usize);
            if bytes[start..end].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return (start..end).rev().find(|p| is_header_at(*p));
        }
        None
    }

    /// A tab among the spaces that indent a block scalar's lines (go-yaml/yaml, scannerc.go,
    /// v3.0.1, `yaml_parser_scan_block_scalar_breaks`: "found a tab character where an
    /// indentation space is expected"), for the block scalar whose header is at `at`. Its
    /// parent's indentation is taken as that of the header's line.
    fn block_scalar_has_tab_indentation(&self, at: usize) -> bool {
        let bytes = self.text.as_bytes();
        let Some(at) = self.block_header(at) else {
            return false;
        };
        let header_line = self
            .line_starts
            .partition_point(|start| *start as usize <= at)
            - 1;
        let parent = bytes[self.line_starts[header_line] as usize..]
            .iter()
            .take_while(|b| **b == b' ')
            .count();
        let header_end = bytes[at..]
            .iter()
            .position(|b| matches!(b, b'\n' | b'\r' | b' ' | b'\t' | b'#'))
            .map_or(bytes.len(), |end| at + end);
        // An indentation indicator fixes the indentation; otherwise the first line with text
        // does, and a tab before it is refused.
        let mut indent = bytes[at + 1..header_end]
            .iter()
            .find(|b| b.is_ascii_digit())
            .map(|digit| parent + usize::from(digit - b'0'));
        for line in header_line + 1..self.line_starts.len() {
            let start = self.line_starts[line] as usize;
            let rest = &bytes[start..];
            let spaces = match indent {
                Some(indent) => rest.iter().take(indent).take_while(|b| **b == b' ').count(),
                None => rest.iter().take_while(|b| **b == b' ').count(),
            };
            let next = rest.get(spaces).copied();
            let empty = matches!(next, None | Some(b'\n' | b'\r'));
            match indent {
                None if next == Some(b'\t') => return true,
                None if empty => {}
                None if spaces <= parent => return false,
                None => indent = Some(spaces),
                Some(indent) if spaces < indent => {
                    if next == Some(b'\t') {
                        return true;
                    }
                    if !empty {
                        return false;
                    }
                }
                Some(_) => {}
            }
        }
        false
    }
}

/// The first escape of the double-quoted scalar opening at `start` that go-yaml does not know
/// (go-yaml/yaml, scannerc.go, v3.0.1, `yaml_parser_scan_flow_scalar`: YAML 1.1's escapes,
/// without 1.2's `\/`).
fn unknown_escape(bytes: &[u8], start: usize) -> Option<char> {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => return None,
            b'\\' => {
                let next = *bytes.get(at + 1)?;
                if !b"0abt\tnvfre \"'\\N_LPxuU\r\n".contains(&next) {
                    let text = std::str::from_utf8(&bytes[at + 1..]).ok()?;
                    return text.chars().next();
                }
                at += 2;
            }
            _ => at += 1,
        }
    }
    None
}

/// Whether a value fits its tag as go-yaml v3 decodes it (resolve.go, v3.0.1, `resolve`): a
/// `!!int`, `!!float`, `!!bool`, `!!null` or `!!timestamp` value must resolve to that type (an
/// integer fits `!!float` too); any other tag takes any text.
fn tag_fits(tag: &str, value: &str) -> bool {
    if !matches!(
        tag,
        "!!int" | "!!float" | "!!bool" | "!!null" | "!!timestamp"
    ) {
        return true;
    }
    let resolved = plain_tag(value, tag == "!!timestamp");
    resolved == tag || (tag == "!!float" && resolved == "!!int")
}

/// The tag go-yaml v3 resolves an untagged plain scalar to (go-yaml/yaml, resolve.go, v3.0.1,
/// `resolve`): `!!null`, `!!bool` (YAML 1.2's `true`/`false` only: `yes` and `on` are
/// strings), `!!int` (decimal, `0x`, `0o`, `0b` and a leading `0` for octal, `_` ignored),
/// `!!float`, `!!timestamp` (dates, with `timestamps`), `!!merge` or `!!str`.
pub fn plain_tag(value: &str, timestamps: bool) -> &'static str {
    match value {
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return "!!bool",
        "" | "~" | "null" | "Null" | "NULL" => return "!!null",
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return "!!float",
        "<<" => return "!!merge",
        _ => {}
    }
    match value.as_bytes()[0] {
        b'.' if go_float(value) => "!!float",
        b'+' | b'-' | b'0'..=b'9' => {
            if timestamps && is_timestamp(value) {
                return "!!timestamp";
            }
            let plain = value.replace('_', "");
            if go_int(&plain) {
                "!!int"
            } else if go_float(&plain) {
                "!!float"
            } else {
                "!!str"
            }
        }
        _ => "!!str",
    }
}

/// Go's `strconv.ParseInt(s, 0, 64)` or `ParseUint(s, 0, 64)` succeeds: a sign, then `0x`,
/// `0o`, `0b`, a leading `0` (octal) or decimal digits, in range.
fn go_int(s: &str) -> bool {
    let (negative, unsigned) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let lower = unsigned.to_ascii_lowercase();
    let (radix, digits) = if let Some(rest) = lower.strip_prefix("0x") {
        (16, rest)
    } else if let Some(rest) = lower.strip_prefix("0o") {
        (8, rest)
    } else if let Some(rest) = lower.strip_prefix("0b") {
        (2, rest)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return false;
    }
    match u128::from_str_radix(digits, radix) {
        Ok(magnitude) if negative => magnitude <= 1 << 63,
        // ParseUint takes an unsigned number ParseInt overflows; a `+` is ParseInt's only.
        Ok(magnitude) if s.starts_with('+') => magnitude < 1 << 63,
        Ok(magnitude) => magnitude <= u128::from(u64::MAX),
        Err(_) => false,
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$` (resolve.go's `yamlStyleFloat`) and
/// in range (Go's `ParseFloat` refuses what overflows).
fn go_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len() && s.parse::<f64>().is_ok_and(f64::is_finite)
}

/// A timestamp as go-yaml reads one (resolve.go, `allowedTimestampFormats`): `2006-1-2`, then
/// optionally `T`, `t` or a space and `15:4:5` with a fraction; after `T`/`t` a zone (`Z` or
/// `±07:00`).
fn is_timestamp(s: &str) -> bool {
    let number = |part: &str, min: usize, max: usize| {
        (min..=max).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_digit())
    };
    let (date, time) = match s.find(['T', 't', ' ']) {
        Some(at) => (&s[..at], Some((s.as_bytes()[at], &s[at + 1..]))),
        None => (s, None),
    };
    let parts: Vec<&str> = date.split('-').collect();
    if parts.len() != 3
        || !number(parts[0], 4, 4)
        || !number(parts[1], 1, 2)
        || !number(parts[2], 1, 2)
    {
        return false;
    }
    let (month, day): (u32, u32) = (parts[1].parse().unwrap_or(0), parts[2].parse().unwrap_or(0));
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return false;
    }
    let Some((separator, time)) = time else {
        return true;
    };
    let (clock, zone) = if separator == b' ' {
        (time, "")
    } else {
        match time.find(['Z', '+', '-']) {
            Some(at) => (&time[..at], &time[at..]),
            None => return false,
        }
    };
    let zone_fits = (zone.is_empty() && separator == b' ')
        || zone == "Z"
        || (zone.len() == 6
            && number(&zone[1..3], 2, 2)
            && &zone[3..4] == ":"
            && number(&zone[4..6], 2, 2));
    let (clock, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let hms: Vec<u32> = clock
        .split(':')
        .filter(|part| number(part, 1, 2))
        .filter_map(|part| part.parse().ok())
        .collect();
    zone_fits
        && clock.split(':').count() == 3
        && hms.len() == 3
        && hms[0] < 24
        && hms[1] < 60
        && hms[2] < 60
        && fraction.len() <= 9
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

const MERGE_WANTS_A_MAPPING: &str =
    "YAML merge key `<<` takes a mapping or a list of mappings: not read";

/// Resolves merge keys: `<<: *a` or `<<: [*a, *b]` adds the entries of the merged mappings
/// that neither the mapping nor an earlier merged mapping sets.
fn merge(entries: Vec<(Node, Node)>) -> Result<Vec<(Node, Node)>, String> {
    let is_merge = |key: &Node| {
        key.scalar()
            .is_some_and(|key| key.style == Style::Plain && key.value == "<<")
    };
    if !entries.iter().any(|(key, _)| is_merge(key)) {
        return Ok(entries);
    }
    let mut own = Vec::new();
    let mut merged = Vec::new();
    for (key, value) in entries {
        if !is_merge(&key) {
            own.push((key, value));
            continue;
        }
        // go-yaml refuses a merge of anything else (decode.go `merge`, v3.0.1: "map merge
        // requires map or sequence of maps as the value").
        let no_mapping = || MERGE_WANTS_A_MAPPING.to_string();
        match value {
            Node::Map(entries) => merged.push(entries),
            Node::Seq(items) => {
                for item in items {
                    match item {
                        Node::Map(entries) => merged.push(entries),
                        _ => return Err(no_mapping()),
                    }
                }
            }
            _ => return Err(no_mapping()),
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
    Ok(result)
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

    /// A `sh -c` script continued at the left margin inside a flow sequence: go-yaml (compose,
    /// kubectl, Helm) reads it, and so must kafkalint, with the spans where they are written.
    #[test]
    fn quoted_scalars_continued_left_of_their_block_are_read() {
        let text = "services:\n  kafka:\n    command: [\"sh\", \"-c\", \"\n  echo hi &&\n\texec run\"]\n    image: 'apache/kafka:3.9.0'\n";
        let doc = &parse(text).unwrap()[0];
        let kafka = doc.at(&["services", "kafka"]).unwrap();
        let command: Vec<&str> = kafka
            .get("command")
            .unwrap()
            .items()
            .iter()
            .map(|item| item.text().unwrap())
            .collect();
        assert_eq!(command, ["sh", "-c", " echo hi && exec run"]);
        assert_eq!(
            scalar_at(text, kafka.get("image").unwrap()),
            "apache/kafka:3.9.0"
        );
        let flow = "a:\n  b: [x,\ny, {c: d\n}]\n  e: f\n";
        let doc = &parse(flow).unwrap()[0];
        assert_eq!(doc.at(&["a", "b"]).unwrap().items().len(), 3);
        assert_eq!(scalar_at(flow, doc.at(&["a", "e"]).unwrap()), "f");
    }

    /// A comment line less indented than a block scalar ends it, as go-yaml reads it: the
    /// scalar keeps its kept line ends (`|+`) and gains none from the comment.
    #[test]
    fn a_less_indented_comment_ends_a_block_scalar() {
        let text = "x: >+2\n # trailing\n---\ny: |+\n  a\n\n # c\nz: 1\n";
        let documents = parse(text).unwrap();
        assert_eq!(documents[0].at(&["x"]).and_then(Node::text), Some(""));
        assert_eq!(documents[1].at(&["y"]).and_then(Node::text), Some("a\n\n"));
        assert_eq!(documents[1].at(&["z"]).and_then(Node::text), Some("1"));
    }

    /// What go-yaml refuses, kafkalint refuses: compose and kubectl never run such a file.
    #[test]
    fn what_go_yaml_refuses_is_refused() {
        for (text, why) in [
            ("a: &x\n  b: *x\n", "contains itself"),
            ("a: 1\nb:\n  <<: 1\n", "merge key"),
            ("a: &l [{x: 1}]\nb:\n  <<: *l\n", "merge key"),
            ("a: 3\n 4\n\t # c\nb: 1\n", "tab"),
            ("-\n-\n\t # c\n  r: []\n", "tab"),
            ("r:\n-\n- &a1\n\t true: 1\n", "tab"),
            ("a: \"x\\/y\"\n", "escape"),
            ("a: !!int abc\n", "tagged"),
            ("a: >\n  \tx\n", "tab"),
            ("a: |\n  x\n \t\n  y\n", "tab"),
            ("- \tb\n", "tab"),
            ("a:\n  - - \tb\n", "tab"),
            ("a: 1\n\t\nb: 2\n", "tab"),
            ("a: 1 # c\n\t# d\nb: 1\n", "tab"),
            ("a:\n- []\n-\n\t b: 1\n", "tab"),
            ("a:\n  b: 1\n \tc: 2\n", "tab"),
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.message.contains(why), "{text:?}: {error}");
        }
        for text in [
            "a: |\n  x\n  \ty\n",
            "a: !!float 1\n",
            "a: \"\\t\\u00e9\"\n",
            "a: \tb\n",
            "- a: \tb\n",
            "- &x 1\n---\n- *x\n",
            "x:\n  a: [\n\t b]\n",
            "a: \"x\n\ty\"\n",
            "# x\n\t# d\na: 1\n",
            "--- # doc\n\t# d\na: 1\n",
            "a: |2\n # trailing\nb: [x]\n",
        ] {
            assert!(parse(text).is_ok(), "{text:?}");
        }
    }

    #[test]
    fn a_clipped_block_scalar_of_empty_lines_is_empty() {
        let doc = &parse("a: >2\n\n\nb: |+\n\nc: 1\n").unwrap()[0];
        assert_eq!(doc.get("a").unwrap().scalar().unwrap().value, "");
        assert_eq!(doc.get("b").unwrap().scalar().unwrap().value, "\n");
        let doc = &parse("x: |+\n").unwrap()[0];
        assert_eq!(doc.get("x").unwrap().scalar().unwrap().value, "");
    }

    #[test]
    fn a_block_scalar_that_ends_a_text_without_a_line_break_has_none() {
        for (text, value) in [
            ("a: |\n  x\n  y", "x\ny"),
            ("a: |+\n  x\n  y", "x\ny"),
            ("a: >\n  x\n  y", "x y"),
            ("a:\n  b: |\n    x\n    - y: z", "x\n- y: z"),
            ("a: |\n  x\n  y\n", "x\ny\n"),
        ] {
            let doc = &parse(text).unwrap()[0];
            let scalar = doc.get("a").unwrap();
            let scalar = scalar.get("b").unwrap_or(scalar);
            assert_eq!(scalar.scalar().unwrap().value, value, "{text:?}");
        }
        for text in ["a: |\n  x\nb: x", "a: |\n  x\nb:\n  x"] {
            let doc = &parse(text).unwrap()[0];
            assert_eq!(
                doc.get("a").unwrap().scalar().unwrap().value,
                "x\n",
                "{text:?}"
            );
        }
    }

    #[test]
    fn tags_resolve_as_go_yaml_resolves_them() {
        let doc = &parse("a: 0777\nb: 08\nc: yes\nd: 2024-01-02\ne: '1'\nf: ~\ng: 1_000\nh: .5\n")
            .unwrap()[0];
        let tag = |key: &str| {
            doc.get(key)
                .unwrap()
                .scalar()
                .unwrap()
                .resolved_tag()
                .to_string()
        };
        assert_eq!(
            ["a", "b", "c", "d", "e", "f", "g", "h"].map(tag),
            [
                "!!int",
                "!!float",
                "!!str",
                "!!timestamp",
                "!!str",
                "!!null",
                "!!int",
                "!!float"
            ]
        );
    }

    #[test]
    fn errors_say_where() {
        let error = parse("a: [1\n").unwrap_err();
        assert!(error.line >= 1, "{error}");
    }
}
