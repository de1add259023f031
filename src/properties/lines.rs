//! Natural lines to logical lines, as `java.util.Properties.LineReader` does it.

use super::bytes::{Span, is_whitespace};

/// A logical line: the characters `Properties` sees after joining continued lines,
/// each with the byte offset it came from.
#[derive(Debug, Default)]
pub(super) struct LogicalLine {
    pub chars: Vec<u8>,
    pub offsets: Vec<usize>,
    /// Byte offset just past the last character taken into the line.
    pub end: usize,
}

impl LogicalLine {
    /// The original bytes behind `chars[range]`; an empty range sits where it would start.
    pub fn span_of(&self, range: std::ops::Range<usize>) -> Span {
        if range.is_empty() {
            let at = self.offsets.get(range.start).copied().unwrap_or(self.end);
            return at..at;
        }
        self.offsets[range.start]..self.offsets[range.end - 1] + 1
    }
}

#[derive(Debug)]
pub(super) enum Line<'a> {
    Comment(Span),
    Data(&'a LogicalLine),
    /// A logical line that is one natural line without a backslash (most of them): its
    /// characters are the bytes of the span, one each, nothing to join or decode.
    Plain(Span),
}

/// One natural line: its content and the length of its terminator (`\r\n`, `\r`, `\n`, or
/// nothing at the end of the input).
fn natural_line(input: &[u8]) -> (&[u8], usize) {
    // Most of a stock server.properties is comment lines: find their ends a word at a time.
    match memchr::memchr2(b'\r', b'\n', input) {
        None => (input, 0),
        Some(end) => {
            let terminator = if input[end] == b'\r' && input.get(end + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            (&input[..end], terminator)
        }
    }
}

/// Whether [`logical_lines`] hands plain lines apart ([`Line::Plain`]), or every line as
/// [`Line::Data`] (the general path, which tests hold the plain one to).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Lines {
    PlainApart,
    #[cfg(test)]
    AllJoined,
}

/// Hands `each` every logical line of `bytes`, in order. One buffer holds the line being
/// joined and is reused for the next: a file's lines cost no allocation each.
pub(super) fn logical_lines(bytes: &[u8], lines: Lines, mut each: impl FnMut(Line<'_>)) {
    let mut current = LogicalLine::default();
    let mut continuing = false;
    let mut pos = 0;
    while pos < bytes.len() {
        let (content, terminator) = natural_line(&bytes[pos..]);
        let content_end = pos + content.len();
        let next = content_end + terminator;
        let rest_start = pos + content.iter().take_while(|c| is_whitespace(**c)).count();
        let rest = &bytes[rest_start..content_end];
        pos = next;

        if rest.is_empty() {
            // A blank line ends a continued line; on its own it is nothing.
            if continuing {
                continuing = false;
                finish(&mut each, &mut current, false);
            }
            continue;
        }
        if current.chars.is_empty() && (rest[0] == b'#' || rest[0] == b'!') {
            // Only a line that starts a logical line can be a comment: after a continued
            // line that took characters, `#` is data.
            each(Line::Comment(rest_start..content_end));
            continuing = false;
            continue;
        }

        if lines == Lines::PlainApart
            && current.chars.is_empty()
            && memchr::memchr(b'\\', rest).is_none()
        {
            // Neither continued nor continuing: the line is its bytes.
            each(Line::Plain(rest_start..content_end));
            continuing = false;
            continue;
        }
        current.chars.extend_from_slice(rest);
        current.offsets.extend(rest_start..content_end);
        current.end = content_end;
        let trailing_backslashes = rest.iter().rev().take_while(|c| **c == b'\\').count();
        if trailing_backslashes % 2 == 1 {
            current.chars.pop();
            current.offsets.pop();
            current.end = content_end - 1;
            // `LineReader` hands back the line as it stands when the backslash's terminator is the
            // very last byte (or there is none): then even an empty line becomes an entry `""=""`.
            // A `\r\n` at the end is read as a continuation whose next line is empty.
            if next == bytes.len() && terminator <= 1 {
                finish(&mut each, &mut current, true);
                continuing = false;
            } else {
                continuing = true;
            }
        } else {
            continuing = false;
            finish(&mut each, &mut current, false);
        }
    }
    finish(&mut each, &mut current, false);
}

fn finish(each: &mut impl FnMut(Line<'_>), current: &mut LogicalLine, even_if_empty: bool) {
    if even_if_empty || !current.chars.is_empty() {
        each(Line::Data(current));
    }
    current.chars.clear();
    current.offsets.clear();
    current.end = 0;
}
