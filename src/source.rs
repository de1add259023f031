//! A file as read from disk, and the text of it that output may show: secrets redacted,
//! control characters escaped, positions mapped back to the original bytes.

use std::io::Read;
use std::sync::{Arc, OnceLock};

use crate::properties::{self, ParseError, PropertiesFile, Span};
use crate::secrets;
use crate::yaml_view::{YamlFile, YamlPart, YamlView};

pub mod excludes;

/// The largest file kafkalint reads, in bytes (16 MiB). A broker's configuration is a few
/// kilobytes (Kafka's own `server.properties` is 7 KB): a larger file is no configuration
/// (a log, a disk image named `.properties`), and checking it would hold it in memory several
/// times over. Larger files are refused before they are read.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads the file at `path` whole, refusing one larger than [`MAX_FILE_BYTES`] (an error of
/// kind `FileTooLarge` whose message says so) without reading it, and anything but a regular
/// file (see [`open_regular`]).
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let (file, len) = open_regular(path)?;
    if len > MAX_FILE_BYTES {
        return Err(too_large(Some(len)));
    }
    // Sized to the file (and one byte to see its end): a buffer grown by doubling holds up
    // to twice the file, for as long as the file is kept.
    read_limited_into(file, Vec::with_capacity(len as usize + 1))
}

/// Opens `path` for reading when it is a regular file (a symbolic link is followed). A named
/// pipe, a socket or a device is refused with an error saying which it is, and a folder with
/// one of kind `IsADirectory`: reading a pipe waits for a writer that may never come, a device
/// may never end. The file is opened without blocking (opening a pipe would wait for a writer
/// too; a terminal is not made the controlling one) and its type is asked of the opened file,
/// so a path swapped for a pipe between a look and the open is refused as well. With the file,
/// its length.
pub fn open_regular(path: &std::path::Path) -> std::io::Result<(std::fs::File, u64)> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOCTTY,
    );
    // A socket cannot be opened at all (ENXIO): said as what it is.
    let file = options
        .open(path)
        .map_err(|error| match std::fs::metadata(path) {
            Ok(metadata) if is_special(metadata.file_type()) => not_regular(metadata.file_type()),
            _ => error,
        })?;
    // One `fstat` answers both the type and the length.
    let metadata = file.metadata()?;
    let file_type = metadata.file_type();
    if file_type.is_file() {
        // Regular files ignore O_NONBLOCK: reads block on the disk as usual.
        return Ok((file, metadata.len()));
    }
    if file_type.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    Err(not_regular(file_type))
}

fn is_special(file_type: std::fs::FileType) -> bool {
    !file_type.is_file() && !file_type.is_dir()
}

fn not_regular(file_type: std::fs::FileType) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}, not a regular file", special_kind(file_type)),
    )
}

/// What a file that is neither a regular file nor a folder is, for messages.
pub fn special_kind(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    let _ = file_type;
    "a special file"
}

/// Reads `input` to its end, or to [`MAX_FILE_BYTES`] and one more byte: then an error of kind
/// `FileTooLarge` (for what may not say its size: standard input, a pipe, a growing file).
pub fn read_limited(input: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    read_limited_into(input, Vec::new())
}

fn read_limited_into(input: impl std::io::Read, mut bytes: Vec<u8>) -> std::io::Result<Vec<u8>> {
    input.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large(None));
    }
    Ok(bytes)
}

fn too_large(len: Option<u64>) -> std::io::Error {
    let size = match len {
        Some(len) => format!("{} MiB, ", len.div_ceil(1024 * 1024)),
        None => String::new(),
    };
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!(
            "{size}more than the {} MiB kafkalint reads: not a Kafka configuration file",
            MAX_FILE_BYTES / (1024 * 1024)
        ),
    )
}

/// One configuration file: its path as the user named it, its bytes, and what they parse to.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as shown in output (as given on the command line or found under it).
    pub path: String,
    /// Shared with what keeps the bytes as read (`--fix` compares its result with them).
    pub bytes: Arc<[u8]>,
    /// What the bytes parse to. When they do not parse (see `parse_error`), the entries read
    /// on past the error: good enough to redact, not to lint. Empty for a YAML file, whose
    /// settings are its parts'.
    pub properties: PropertiesFile,
    /// Why `Properties.load` would throw on this file, if it would.
    pub parse_error: Option<ParseError>,
    /// For a YAML file (a compose file, Strimzi resources): the nodes and components read from
    /// it, each with the settings Kafka gets and the spans of the YAML scalars they come from.
    pub yaml: Option<Box<YamlFile>>,
    /// For a document some other layer wrote (a running cluster's answers, `kafkalint live`):
    /// the spans of its text that output hides, found by that layer, which knows its lines.
    pub hidden_spans: Option<fn(&PropertiesFile) -> Vec<Span>>,
    /// Why the file, of a form kafkalint reads (YAML, Terraform), cannot be parsed: the tool
    /// that reads it would refuse it too. Such a file has no parts.
    pub syntax_error: Option<Box<SyntaxError>>,
    /// Where each line starts, found when a position is first asked for (most files of a
    /// tree never are: no finding points into them).
    line_starts: OnceLock<Box<[u32]>>,
    /// Set by [`SourceFile::keep_positions_only`]: the offset, line and column of each offset
    /// kept, by offset, in place of the bytes (32 bits each, as [`line_starts`]: a tree's
    /// files are held until output).
    positions: Option<Box<[(u32, u32, u32)]>>,
}

/// Why a file cannot be parsed, and where: the parser's reason in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the parser stopped (empty at the end of the file).
    pub span: Span,
    pub reason: String,
}

impl SourceFile {
    /// Parses `bytes` read from `path`.
    pub fn new(path: String, bytes: Vec<u8>) -> Self {
        let (mut properties, parse_error) = properties::parse_lenient(&bytes);
        // Every file of a tree stays in memory until output: no spare capacity kept.
        properties.entries.shrink_to_fit();
        properties.comments.shrink_to_fit();
        SourceFile {
            path,
            bytes: Arc::from(bytes),
            properties,
            parse_error,
            yaml: None,
            hidden_spans: None,
            syntax_error: None,
            line_starts: OnceLock::new(),
            positions: None,
        }
    }

    /// A `.properties` document written by kafkalint itself (a running cluster's answers),
    /// named `path`, whose spans `hidden_spans` finds are never shown.
    pub fn written(
        path: String,
        bytes: Vec<u8>,
        hidden_spans: fn(&PropertiesFile) -> Vec<Span>,
    ) -> Self {
        SourceFile {
            hidden_spans: Some(hidden_spans),
            ..SourceFile::new(path, bytes)
        }
    }

    /// A YAML file: `yaml` read from `bytes` by [`crate::sources`].
    pub fn from_yaml(path: String, bytes: Vec<u8>, yaml: YamlFile) -> Self {
        SourceFile {
            path,
            bytes: Arc::from(bytes),
            properties: PropertiesFile::default(),
            parse_error: None,
            yaml: Some(Box::new(yaml)),
            hidden_spans: None,
            syntax_error: None,
            line_starts: OnceLock::new(),
            positions: None,
        }
    }

    /// A file of a form kafkalint reads that cannot be parsed: `error` says where and why;
    /// output shows only what `hidden` leaves of its bytes (nothing parsed says which values
    /// are secret).
    pub fn unreadable(path: String, bytes: Vec<u8>, error: SyntaxError, hidden: Vec<Span>) -> Self {
        let yaml = YamlFile {
            secrets: hidden,
            ..YamlFile::default()
        };
        SourceFile {
            syntax_error: Some(Box::new(error)),
            ..SourceFile::from_yaml(path, bytes, yaml)
        }
    }

    /// Part `part` of a YAML file (a compose service, a Strimzi pool); `None` for a
    /// `.properties` file, or a part it does not have.
    pub fn part(&self, part: Option<u32>) -> Option<&YamlPart> {
        self.yaml.as_ref()?.parts.get(part? as usize)
    }

    /// The parts of the file to read as nodes: each part of a YAML file, or the whole file.
    pub fn parts(&self) -> impl Iterator<Item = Option<u32>> + use<> {
        let parts = self.yaml.as_ref().map(|yaml| yaml.parts.len() as u32);
        let whole = parts.is_none().then_some(None);
        whole.into_iter().chain((0..parts.unwrap_or(0)).map(Some))
    }

    /// Every line of settings of the file: its own, or each of its parts' (a YAML scalar that
    /// parts share, an anchor merged into several services, once per part).
    pub fn entries(&self) -> impl Iterator<Item = &properties::Entry> {
        self.parts().flat_map(|part| &self.settings(part).entries)
    }

    /// The settings of `part` of the file (see [`SourceFile::part`]), or the file's own for a
    /// `.properties` file.
    pub fn settings(&self, part: Option<u32>) -> &PropertiesFile {
        match self.part(part) {
            Some(part) => &part.properties,
            None => &self.properties,
        }
    }

    /// What `part` of a YAML file stands for.
    pub fn view(&self, part: Option<u32>) -> Option<&YamlView> {
        self.part(part).map(|part| &part.view)
    }

    /// How messages name the file, and for a part of a YAML file which one.
    pub fn short_name(&self, part: Option<u32>) -> String {
        let file_name = self.path.rsplit('/').next().unwrap_or_default();
        match self.view(part) {
            None => file_name.to_string(),
            Some(view) => format!("{file_name}, {}", view.label),
        }
    }

    /// 1-based line of a byte offset (see [`SourceFile::line_column`]).
    pub fn line(&self, offset: usize) -> usize {
        if self.positions.is_some() {
            return self.line_column(offset).0;
        }
        self.line_starts()
            .partition_point(|start| *start as usize <= offset)
            .max(1)
    }

    /// 1-based line and column of a byte offset. Lines end at `\n`, `\r` or `\r\n`, as for
    /// `Properties`; the column counts characters (UTF-8 when the line is valid UTF-8, else bytes).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        if let Some(positions) = &self.positions {
            let found = positions.binary_search_by_key(&narrow(offset), |(at, _, _)| *at);
            debug_assert!(found.is_ok(), "{}: offset {offset} was not kept", self.path);
            return found.map_or((1, 1), |index| {
                let (_, line, column) = positions[index];
                (line as usize, column as usize)
            });
        }
        let line = self.line(offset);
        let start = self.line_starts()[line - 1] as usize;
        (
            line,
            column(&self.bytes[start..offset.min(self.bytes.len())]),
        )
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts
            .get_or_init(|| line_starts(&self.bytes).into_boxed_slice())
    }

    /// The text output may show for this file.
    pub fn display_text(&self) -> DisplayText {
        self.display_text_within(None)
    }

    /// The text output may show of the bytes `shown` (each a range of whole lines, see
    /// [`SourceFile::lines_around`]): a comment outside them is hidden whole rather than
    /// judged for secrets, which was most of drawing a finding in a file of many comment
    /// lines. Only those ranges may be shown of it.
    pub fn display_text_of(&self, shown: &[Span]) -> DisplayText {
        self.display_text_within(Some(shown))
    }

    fn display_text_within(&self, shown: Option<&[Span]>) -> DisplayText {
        // Validated once for both passes over the file.
        let utf8 = std::str::from_utf8(&self.bytes).ok();
        match &self.yaml {
            Some(yaml) => DisplayText::build(&self.bytes, utf8, &yaml.secrets),
            None => {
                let hidden = match self.hidden_spans {
                    Some(hidden_spans) => hidden_spans(&self.properties),
                    None => secret_spans_within(&self.bytes, utf8, &self.properties, shown),
                };
                DisplayText::build(&self.bytes, utf8, &hidden)
            }
        }
    }

    /// The bytes of the lines `span` is on, and of `margin` lines before and after them.
    pub fn lines_around(&self, span: &Span, margin: usize) -> Span {
        let starts = self.line_starts();
        let first = self.line(span.start).saturating_sub(1 + margin);
        let last = self.line(span.end.max(span.start)) + margin;
        let at = |line: usize| starts.get(line).map_or(self.bytes.len(), |at| *at as usize);
        at(first)..at(last).max(at(first))
    }

    /// Keeps only the path of a file no finding points into, and what the parts of a YAML
    /// file stand for: output names them, nothing more.
    pub fn keep_path_only(&mut self) {
        self.path.shrink_to_fit();
        self.bytes = Arc::from(Vec::new());
        self.properties = PropertiesFile::default();
        self.line_starts = OnceLock::new();
        if let Some(yaml) = &mut self.yaml {
            yaml.secrets = Vec::new();
            for part in &mut yaml.parts {
                part.properties = PropertiesFile::default();
                part.view.editable = Vec::new();
                part.view.forbidden = Vec::new();
            }
        }
    }

    /// Keeps the path and the line and column of each of `offsets`, which is all that the
    /// formats without snippets show of a file ([`SourceFile::line_column`] answers for
    /// those offsets only).
    pub fn keep_positions_only(&mut self, mut offsets: Vec<usize>) {
        offsets.sort_unstable();
        offsets.dedup();
        let positions = positions_by_line_feeds(&self.bytes, &offsets).unwrap_or_else(|| {
            offsets
                .into_iter()
                .map(|offset| {
                    let (line, column) = self.line_column(offset);
                    (narrow(offset), narrow(line), narrow(column))
                })
                .collect()
        });
        self.keep_path_only();
        self.positions = Some(positions.into_boxed_slice());
    }
}

/// The 1-based column of the byte after `before`, the start of its line: characters when the
/// line is valid UTF-8 up to there, else bytes.
fn column(before: &[u8]) -> usize {
    let characters = match std::str::from_utf8(before) {
        Ok(text) => text.chars().count(),
        Err(_) => before.len(),
    };
    characters + 1
}

/// [`SourceFile::line_column`] of each of `offsets` (sorted), as `(offset, line, column)`,
/// counted in one pass over the bytes up to the last offset; `None` when a line of `bytes`
/// ends in a `\r` (then [`line_starts`] settles them). A file's findings point into a few of
/// its lines, and finding where each of its lines starts cost five times the counting.
fn positions_by_line_feeds(bytes: &[u8], offsets: &[usize]) -> Option<Vec<(u32, u32, u32)>> {
    if memchr::memchr(b'\r', bytes).is_some() {
        return None;
    }
    let mut line = 1;
    let mut counted = 0;
    let positions = offsets.iter().map(|&offset| {
        let at = offset.min(bytes.len());
        line += crate::byte_scan::count_byte(&bytes[counted..at], b'\n');
        counted = at;
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |end| end + 1);
        (
            narrow(offset),
            narrow(line),
            narrow(column(&bytes[start..at])),
        )
    });
    Some(positions.collect())
}

/// An offset, line or column in 32 bits: past 4 GiB (an in-memory document, never a file
/// read from disk), the last one.
fn narrow(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Half the size of `usize` offsets, for the lines of every file findings point into. A file
/// read from disk is at most [`MAX_FILE_BYTES`]; bytes past 4 GiB of an in-memory one count
/// as its last line.
pub(crate) fn line_starts(bytes: &[u8]) -> Vec<u32> {
    let mut starts = vec![0];
    // Where the next line starts: the `\n` of a `\r\n` is part of the line ending before it.
    let mut next = 0;
    for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if at < next {
            continue;
        }
        next = if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            at + 2
        } else {
            at + 1
        };
        starts.push(narrow(next));
    }
    starts
}

/// The spans output hides in a `.properties` file ([`secrets`]): the value of every entry
/// output may not show, and of comments what [`secrets::comment_mask`] hides. A comment that
/// continues one ending in a backslash (`#ssl.key.password=abc\` then `#defgh`: the second half
/// of a commented-out secret) is hidden whole.
pub(crate) fn secret_spans(
    bytes: &[u8],
    utf8: Option<&str>,
    properties: &PropertiesFile,
) -> Vec<Span> {
    secret_spans_within(bytes, utf8, properties, None)
}

/// [`secret_spans`], with every comment outside `shown` (when given) hidden whole, unjudged.
fn secret_spans_within(
    bytes: &[u8],
    utf8: Option<&str>,
    properties: &PropertiesFile,
    shown: Option<&[Span]>,
) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for entry in &properties.entries {
        // A key output may not show whole (a value run into it: see `secrets::shown_key`)
        // hides its line from the key on.
        if secrets::key_kind(&entry.key) == secrets::KeyKind::Unknown
            && secrets::shown_key_len(&entry.key) < entry.key.len()
        {
            spans.push(entry.key_span.start..entry.value_span.end.max(entry.key_span.end));
        } else if !entry.value_span.is_empty() && secrets::is_hidden(&entry.key, &entry.value) {
            spans.push(entry.value_span.clone());
        }
    }
    let mut continued_at = None;
    for comment in &properties.comments {
        let body_start = comment.span.start + 1;
        let body = &bytes[body_start..comment.span.end];
        let judged = shown.is_none_or(|shown| {
            shown
                .iter()
                .any(|range| range.start < comment.span.end && comment.span.start < range.end)
        });
        if !judged {
            if !body.is_empty() {
                spans.push(body_start..comment.span.end);
            }
            let trailing_backslashes = body.iter().rev().take_while(|b| **b == b'\\').count();
            continued_at =
                (trailing_backslashes % 2 == 1).then(|| line_start(bytes, comment.span.start));
            continue;
        }
        // A comment of a UTF-8 file is sliced from the file validated once: a comment starts
        // after an ASCII `#` or `!` and ends before a line end, on char boundaries.
        let text = match utf8.and_then(|utf8| utf8.get(body_start..comment.span.end)) {
            Some(text) => std::borrow::Cow::Borrowed(text),
            None => latin1_or_utf8(body),
        };
        let line = line_start(bytes, comment.span.start);
        let follows_continued =
            continued_at.is_some_and(|previous| line_before(bytes, line) == previous);
        if follows_continued {
            let indent = body.iter().take_while(|b| b.is_ascii_whitespace()).count();
            if indent < body.len() {
                spans.push(body_start + indent..comment.span.end);
            }
        } else if let Some(hidden) = secrets::comment_mask(&text) {
            spans.push(body_start + byte_offset(&text, body, hidden.start)..comment.span.end);
        }
        let trailing_backslashes = body.iter().rev().take_while(|b| **b == b'\\').count();
        continued_at = (trailing_backslashes % 2 == 1).then_some(line);
    }
    spans.sort_by_key(|span| span.start);
    spans
}

/// The comment's bytes as text: UTF-8 when they are, else Latin-1 (as Kafka reads them).
fn latin1_or_utf8(body: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(body) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => std::borrow::Cow::Owned(body.iter().map(|b| char::from(*b)).collect()),
    }
}

/// The byte offset in `body` of the character at byte `at` of its text.
fn byte_offset(text: &str, body: &[u8], at: usize) -> usize {
    if text.len() == body.len() {
        at
    } else {
        text[..at].chars().count()
    }
}

/// Where the line holding byte `offset` starts.
fn line_start(bytes: &[u8], offset: usize) -> usize {
    bytes[..offset]
        .iter()
        .rposition(|b| *b == b'\n' || *b == b'\r')
        .map_or(0, |at| at + 1)
}

/// Where the line before the one starting at `start` starts.
fn line_before(bytes: &[u8], start: usize) -> usize {
    let mut end = start;
    if end > 0 && bytes[end - 1] == b'\n' {
        end -= 1;
    }
    if end > 0 && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    line_start(bytes, end)
}

/// Text for display with a map from original byte offsets to its own byte offsets.
#[derive(Debug)]
pub struct DisplayText {
    pub text: String,
    /// (original offset, display offset) at every point where the two stop advancing together.
    checkpoints: Vec<(usize, usize)>,
}

impl DisplayText {
    /// `utf8` is `bytes` as text when they are valid UTF-8.
    fn build(bytes: &[u8], utf8: Option<&str>, redactions: &[Span]) -> Self {
        let mut text = String::with_capacity(bytes.len());
        let mut checkpoints = vec![(0, 0)];
        let mut redactions = redactions.iter().peekable();
        let mut i = 0;
        while i < bytes.len() {
            if let Some(span) = redactions.next_if(|span| span.start <= i) {
                if span.end <= i {
                    continue;
                }
                checkpoints.push((i, text.len()));
                text.push_str(secrets::REDACTED);
                // Keep the line breaks of a continued value so that line numbers stay true.
                for b in &bytes[i..span.end] {
                    if *b == b'\n' || *b == b'\r' {
                        text.push('\n');
                    }
                }
                i = span.end;
                checkpoints.push((i, text.len()));
                continue;
            }
            // A run of printable ASCII, line feeds and tabs is shown as it is: copied at once
            // up to the next byte that needs a look (or the next redaction), where one char at
            // a time was most of drawing a file.
            let stop = redactions
                .peek()
                .map_or(bytes.len(), |span| span.start.min(bytes.len()));
            let run = plain_prefix(&bytes[i..stop]);
            if run > 0 {
                let plain = match utf8 {
                    // ASCII ends on a char boundary: no second validation.
                    Some(utf8) => &utf8[i..i + run],
                    None => std::str::from_utf8(&bytes[i..i + run]).expect("ASCII is UTF-8"),
                };
                text.push_str(plain);
                i += run;
                continue;
            }
            // Decode in place from the text validated once above: re-validating the rest of
            // the file at every character would make large files quadratic.
            let (c, width) = match utf8
                .and_then(|text| text.get(i..))
                .and_then(|rest| rest.chars().next())
            {
                Some(c) => (c, c.len_utf8()),
                None => (char::from(bytes[i]), 1),
            };
            let before = text.len();
            match c {
                '\r' if bytes.get(i + 1) == Some(&b'\n') => text.push('\r'),
                // miette breaks lines at `\n` only; a lone `\r` ends a line for Kafka too.
                '\r' => text.push('\n'),
                '\n' | '\t' => text.push(c),
                c if shown_escaped(c) => text.push_str(&escape_control(c)),
                c => text.push(c),
            }
            if text.len() - before != width {
                checkpoints.push((i + width, text.len()));
            }
            i += width;
        }
        DisplayText { text, checkpoints }
    }

    /// Where an original byte offset lands in the display text.
    pub fn offset(&self, original: usize) -> usize {
        let index = self
            .checkpoints
            .partition_point(|(orig, _)| *orig <= original)
            - 1;
        let (orig, disp) = self.checkpoints[index];
        let mapped = disp + (original - orig);
        match self.checkpoints.get(index + 1) {
            Some((_, next_disp)) => mapped.min(*next_disp),
            None => mapped.min(self.text.len()),
        }
    }

    /// An original span as a display span, widened to whole characters: Kafka reads bytes as
    /// Latin-1, so a span (a malformed `\u` escape's four "characters") can end inside what
    /// the display shows as one UTF-8 character.
    pub fn span(&self, span: &Span) -> Span {
        let mut start = self.offset(span.start);
        while !self.text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = self.offset(span.end).max(start);
        while !self.text.is_char_boundary(end) {
            end += 1;
        }
        start..end
    }
}

/// How many bytes at the start of `bytes` are shown as they are: printable ASCII, line feeds
/// and tabs. Sixteen bytes at a time, in a loop the compiler turns into vector compares: a
/// byte at a time was most of building a file's display text.
fn plain_prefix(bytes: &[u8]) -> usize {
    fn plain(b: u8) -> bool {
        matches!(b, 0x20..=0x7e | b'\n' | b'\t')
    }
    const CHUNK: usize = 16;
    let mut done = 0;
    for chunk in bytes.chunks_exact(CHUNK) {
        // No early exit inside the chunk: that keeps the loop vectorized.
        if !chunk.iter().fold(true, |all, b| all & plain(*b)) {
            break;
        }
        done += CHUNK;
    }
    done + bytes[done..].iter().take_while(|b| plain(**b)).count()
}

/// Whether output shows `c` escaped rather than as itself: control characters (ESC, BEL, CR,
/// LF, NEL and the other C1 controls such as U+009B, which some terminals read as ESC `[`), the
/// line and paragraph separators U+2028 and U+2029 (which editors, browsers and log viewers
/// break lines at), and the bidirectional marks, overrides and isolates that make a terminal
/// or an editor show text in another order than it is read ("Trojan Source",
/// CVE-2021-42574).
pub fn shown_escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// Terminal control characters are shown escaped, never sent raw to a terminal.
fn escape_control(c: char) -> String {
    format!("\\u{{{:x}}}", c as u32)
}

/// The working folder, asked of the system once: kafkalint never changes it, and a walk of
/// thousands of files makes paths absolute many times a file.
pub fn absolute_cwd() -> &'static std::path::Path {
    static CWD: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    CWD.get_or_init(|| {
        std::env::current_dir()
            .map_or_else(|_| std::path::PathBuf::from("/"), |cwd| normalize(&cwd))
    })
}

/// `path` made absolute and without `.` or `..` components, by the path alone (symbolic links
/// are not resolved): two spellings of one file compare equal.
pub fn absolute(path: &std::path::Path) -> std::path::PathBuf {
    // The paths a walk hands over are plain already: joined as they are, where taking each
    // apart and building it again was a sixth of the walking thread's work.
    #[cfg(unix)]
    if is_plain(path) {
        return if path.is_absolute() {
            path.to_path_buf()
        } else {
            absolute_cwd().join(path)
        };
    }
    if path.is_absolute() {
        return normalize(path);
    }
    normalize(&absolute_cwd().join(path))
}

/// Whether `normalize` would give `path` back as it is: no `.` or `..`, no separator repeated
/// or at the end.
#[cfg(unix)]
fn is_plain(path: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let names = bytes.strip_prefix(b"/").unwrap_or(bytes);
    !names.is_empty()
        && names
            .split(|&b| b == b'/')
            .all(|name| !matches!(name, b"" | b"." | b".."))
}

fn normalize(path: &std::path::Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut normal = std::path::PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other.as_os_str()),
        }
    }
    normal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_is_the_joined_path_normalized() {
        let names = ["", ".", "..", "a", "b.properties", "...", ".a", "a.", "ü"];
        let mut paths = vec![String::new(), "/".to_string(), "//".to_string()];
        for first in names {
            for second in names {
                for third in names {
                    let joined = format!("{first}/{second}/{third}");
                    paths.push(joined.trim_start_matches('/').to_string());
                    paths.push(format!("/{joined}"));
                    paths.push(format!("{joined}/"));
                    paths.push(format!("{first}//{second}"));
                }
            }
        }
        for path in paths {
            let path = std::path::Path::new(&path);
            let expected = if path.is_absolute() {
                normalize(path)
            } else {
                normalize(&absolute_cwd().join(path))
            };
            // As bytes: paths compare equal by their components, a trailing `/` aside.
            assert_eq!(absolute(path).as_os_str(), expected.as_os_str(), "{path:?}");
        }
    }

    fn source(text: &[u8]) -> SourceFile {
        SourceFile::new("f".into(), text.to_vec())
    }

    #[test]
    fn lines_and_columns() {
        let file = source(b"a=1\nb=2\r\nc=3\rd=\xc3\xa9x");
        assert_eq!(file.line_column(0), (1, 1));
        assert_eq!(file.line_column(6), (2, 3));
        assert_eq!(file.line_column(9), (3, 1));
        assert_eq!(file.line_column(13), (4, 1));
        assert_eq!(file.line_column(17), (4, 4));
    }

    #[test]
    fn line_starts_follow_every_kind_of_line_end() {
        // Byte by byte, as Properties' line reader ends lines.
        fn by_bytes(bytes: &[u8]) -> Vec<u32> {
            let mut starts = vec![0];
            let mut i = 0;
            while i < bytes.len() {
                match bytes[i] {
                    b'\n' => starts.push(i as u32 + 1),
                    b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                        starts.push(i as u32 + 2);
                        i += 1;
                    }
                    b'\r' => starts.push(i as u32 + 1),
                    _ => {}
                }
                i += 1;
            }
            starts
        }
        let pieces: [&[u8]; 5] = [b"a", b"\n", b"\r", b"\r\n", b"\n\r"];
        for text in &crate::testing::texts_of(&pieces, 4, usize::MAX) {
            assert_eq!(line_starts(text), by_bytes(text), "{text:?}");
        }
        // Longer files of `\n` lines only (the word-at-a-time path): line ends at every place
        // in a word and across words, runs of empty lines, bytes with the high bit set.
        for len in 0..200usize {
            for step in [1, 2, 3, 7, 8, 9, 17] {
                let text: Vec<u8> = (0..len)
                    .map(|i| match i % step {
                        0 => b'\n',
                        1 => 0x8a,
                        _ => b'a' + (i % 26) as u8,
                    })
                    .collect();
                assert_eq!(line_starts(&text), by_bytes(&text), "{text:?}");
            }
        }
    }

    #[test]
    fn positions_counted_by_line_feeds_are_those_of_the_line_starts() {
        // Every text of up to four pieces, and longer ones across the counting blocks: each
        // offset's line and column as `line_column` finds them, past the end too.
        let pieces: [&[u8]; 5] = [b"a", b"\n", b"\xc3\xa9", b"\xe9", b"\r"];
        for text in &crate::testing::texts_of(&pieces, 4, usize::MAX) {
            let offsets: Vec<usize> = (0..text.len() + 3).collect();
            assert_positions(text, &offsets);
        }
        for step in [1, 2, 7, 63, 64, 65, 200] {
            let text: Vec<u8> = (0..700)
                .map(|i| if i % step == 0 { b'\n' } else { b'x' })
                .collect();
            assert_positions(&text, &[0, 1, 63, 64, 65, 128, 129, 500, 699, 700, 800]);
            assert_positions(&text, &[640]);
        }
    }

    fn assert_positions(text: &[u8], offsets: &[usize]) {
        let file = source(text);
        let by_line_starts: Vec<(u32, u32, u32)> = offsets
            .iter()
            .map(|&offset| {
                let (line, column) = file.line_column(offset);
                (narrow(offset), narrow(line), narrow(column))
            })
            .collect();
        match positions_by_line_feeds(text, offsets) {
            Some(counted) => assert_eq!(counted, by_line_starts, "{text:?}"),
            None => assert!(text.contains(&b'\r'), "{text:?}"),
        }
    }

    #[test]
    fn secrets_are_redacted_and_positions_follow() {
        let text = b"ssl.key.password=hunter2\n#ssl.keystore.password = old-secret\nlisteners=PLAINTEXT://:9092\n";
        let file = source(text);
        let display = file.display_text();
        assert!(!display.text.contains("hunter2"));
        assert!(!display.text.contains("old-secret"));
        assert!(display.text.contains("ssl.key.password=[redacted]\n"));
        let listeners = &file.properties.entries[1];
        assert_eq!(
            &display.text[display.span(&listeners.value_span)],
            "PLAINTEXT://:9092"
        );
        let secret = &file.properties.entries[0];
        assert_eq!(
            &display.text[display.span(&secret.value_span)],
            "[redacted]"
        );
    }

    #[test]
    fn only_values_of_known_plain_keys_are_shown() {
        let text = b"num.partitions=3\n\
            ssl.keystore.pasword=canary1\n\
            bearer.auth.token canary2\n\
            custom.thing=canary3\n\
            #ssl.key.password=canary4\\\n\
            #canary5\n\
            #  user_alice=\"canary6\";\n\
            #ssl.key.password=\\u00zz canary7\n\
            # the password is canary8\n\
            sasl.jaas.config=org.example.PlainLoginModule required \\\n\
            \x20 password=\"canary9\"\n\
            \x20 user_bob=\"canary10\";\n\
            log.dirs=/var/lib/kafka\n\
            # Licensed to the Apache Software Foundation\n";
        let shown = source(text).display_text().text;
        for canary in 1..=10 {
            let canary = format!("canary{canary}");
            assert!(!shown.contains(&canary), "{canary} shown:\n{shown}");
        }
        for kept in [
            "num.partitions=3",
            "ssl.keystore.pasword=[redacted]",
            "log.dirs=/var/lib/kafka",
            "# Licensed to the Apache Software Foundation",
        ] {
            assert!(shown.contains(kept), "{kept} not shown:\n{shown}");
        }
        assert_eq!(shown.lines().count(), 14);
    }

    #[test]
    fn jaas_values_are_redacted_whatever_the_key() {
        let file = source(b"x.custom=org.Foo LoginModule required password=\"p\";\n");
        assert!(!file.display_text().text.contains("password=\"p\""));
    }

    #[test]
    fn control_characters_are_escaped() {
        let file = source(b"log.dirs=\x1b[31mred\nnum.partitions=1\n");
        let display = file.display_text();
        assert_eq!(display.text, "log.dirs=\\u{1b}[31mred\nnum.partitions=1\n");
        let z = &file.properties.entries[1];
        assert_eq!(&display.text[display.span(&z.value_span)], "1");
    }

    #[test]
    fn plain_prefix_stops_at_the_first_byte_shown_otherwise() {
        for len in 0..40 {
            for stop in 0..=len {
                for odd in [0x00, b'\r', 0x1b, 0x7f, 0x80, 0xff] {
                    let mut bytes = vec![b'a'; len];
                    bytes.iter_mut().step_by(7).for_each(|b| *b = b'\n');
                    if stop < len {
                        bytes[stop] = odd;
                    }
                    assert_eq!(plain_prefix(&bytes), stop, "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn latin1_files_are_shown_as_kafka_reads_them() {
        let file = source(b"log.dirs=caf\xe9\nnum.partitions=1\n");
        let display = file.display_text();
        assert_eq!(display.text, "log.dirs=caf\u{e9}\nnum.partitions=1\n");
        let z = &file.properties.entries[1];
        assert_eq!(&display.text[display.span(&z.value_span)], "1");
    }

    #[test]
    fn only_the_lines_shown_are_judged() {
        let mut text = String::from(
            "# far away, plain prose
",
        );
        for n in 0..30 {
            text.push_str(&format!(
                "key.{n}=v\
"
            ));
            text.push_str(
                "  continued
",
            );
        }
        text.push_str(
            "# close by, plain prose
# ssl.key.password=hunter2
log.dirs=/a
",
        );
        let file = source(text.as_bytes());
        let dirs = &file.properties.entries.last().expect("an entry").value_span;
        let shown = file.lines_around(dirs, 2);
        // The two lines before the label's line, its line, and nothing after the file's end.
        assert_eq!(
            &file.bytes[shown.clone()],
            b"# close by, plain prose\n# ssl.key.password=hunter2\nlog.dirs=/a\n"
        );
        let within = file.display_text_of(&[shown]);
        let whole = file.display_text();
        // Shown lines read as the whole file's text reads them, secrets hidden alike.
        assert!(
            within
                .text
                .ends_with(&whole.text[whole.text.find("# close").unwrap()..])
        );
        assert!(!within.text.contains("hunter2"));
        // A comment outside them is hidden without being judged.
        assert!(whole.text.contains("far away"));
        assert!(!within.text.contains("far away"));
    }
}
