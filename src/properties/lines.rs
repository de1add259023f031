//! Natural lines to logical lines, as `java.util.Properties.LineReader` does it.

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till};
use nom::combinator::eof;

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
pub(super) enum Line {
    Comment(Span),
    Data(LogicalLine),
}

/// One natural line: its content and its terminator (`\r\n`, `\r`, `\n`, or nothing at EOF).
fn natural_line(input: &[u8]) -> nom::IResult<&[u8], (&[u8], &[u8])> {
    (
        take_till(|b| b == b'\r' || b == b'\n'),
        alt((tag(&b"\r\n"[..]), tag(&b"\r"[..]), tag(&b"\n"[..]), eof)),
    )
        .parse(input)
}

pub(super) fn logical_lines(bytes: &[u8]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current = LogicalLine::default();
    let mut continuing = false;
    let mut pos = 0;
    while pos < bytes.len() {
        let Ok((_, (content, terminator))) = natural_line(&bytes[pos..]) else {
            unreachable!("a natural line always parses: its terminator may be end of input")
        };
        let content_end = pos + content.len();
        let next = content_end + terminator.len();
        let rest_start = pos + content.iter().take_while(|c| is_whitespace(**c)).count();
        let rest = &bytes[rest_start..content_end];
        pos = next;

        if rest.is_empty() {
            // A blank line ends a continued line; on its own it is nothing.
            if continuing {
                continuing = false;
                finish(&mut lines, &mut current, false);
            }
            continue;
        }
        if current.chars.is_empty() && (rest[0] == b'#' || rest[0] == b'!') {
            // Only a line that starts a logical line can be a comment: after a continued
            // line that took characters, `#` is data.
            lines.push(Line::Comment(rest_start..content_end));
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
            if next == bytes.len() && terminator.len() <= 1 {
                finish(&mut lines, &mut current, true);
                continuing = false;
            } else {
                continuing = true;
            }
        } else {
            continuing = false;
            finish(&mut lines, &mut current, false);
        }
    }
    finish(&mut lines, &mut current, false);
    lines
}

fn finish(lines: &mut Vec<Line>, current: &mut LogicalLine, even_if_empty: bool) {
    if even_if_empty || !current.chars.is_empty() {
        lines.push(Line::Data(std::mem::take(current)));
    }
}
