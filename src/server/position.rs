//! Byte offsets (kafkalint's spans) to the Language Server Protocol's positions and back.
//!
//! A position is a 0-based line and a column counted in the code units of the encoding the
//! client and server agreed on: UTF-8 bytes, or UTF-16 units (the protocol's default). Lines end
//! at `\n`, `\r\n` or `\r`, as the protocol and `java.util.Properties` both have it. Bytes that
//! are not UTF-8 (a Latin-1 file on disk) count one unit each, as one character.

use lsp_types::{Position, PositionEncodingKind, Range};

/// The encoding positions are counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it (no conversion then), else the protocol's default.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

/// Where each line of `bytes` starts, and where it ends before its line terminator.
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => {
                lines.push((start, at));
                at += 1;
                start = at;
            }
            b'\r' => {
                lines.push((start, at));
                at += if bytes.get(at + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                start = at;
            }
            _ => at += 1,
        }
    }
    lines.push((start, bytes.len()));
    lines
}

/// Code units of `bytes` (part of one line) in `encoding`.
fn units(bytes: &[u8], encoding: Encoding) -> usize {
    match encoding {
        Encoding::Utf8 => bytes.len(),
        Encoding::Utf16 => bytes
            .utf8_chunks()
            .map(|chunk| {
                let valid: usize = chunk.valid().chars().map(char::len_utf16).sum();
                valid + chunk.invalid().len()
            })
            .sum(),
    }
}

/// A file's positions, worked out once for its lines.
pub struct Positions<'a> {
    bytes: &'a [u8],
    lines: Vec<(usize, usize)>,
    encoding: Encoding,
}

impl<'a> Positions<'a> {
    pub fn new(bytes: &'a [u8], encoding: Encoding) -> Self {
        Positions {
            bytes,
            lines: lines(bytes),
            encoding,
        }
    }

    /// The position of byte `offset` (clamped to the file; an offset inside a line terminator
    /// is the line's end).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.bytes.len());
        let line = self
            .lines
            .partition_point(|(start, _)| *start <= offset)
            .max(1)
            - 1;
        let (start, end) = self.lines[line];
        let column = units(&self.bytes[start..offset.min(end)], self.encoding);
        Position::new(line as u32, column as u32)
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }

    /// The byte offset of `position`: a line past the end is the end of the file, a column past
    /// the end of its line the line's end, a column inside a character that character's start.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&(start, end)) = self.lines.get(position.line as usize) else {
            return self.bytes.len();
        };
        let wanted = position.character as usize;
        let mut counted = 0;
        let mut at = start;
        while at < end {
            let width = char_width(&self.bytes[at..end]);
            let step = units(&self.bytes[at..at + width], self.encoding);
            if counted + step > wanted {
                break;
            }
            counted += step;
            at += width;
        }
        at
    }
}

/// Bytes of the character at the start of `bytes` (one for a byte that starts no UTF-8
/// character).
fn char_width(bytes: &[u8]) -> usize {
    let width = match bytes[0] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    match bytes.get(..width).map(std::str::from_utf8) {
        Some(Ok(_)) => width,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_counts_units_of_characters_beyond_ascii() {
        // `é` is 2 bytes and 1 UTF-16 unit; `𝄞` is 4 bytes and 2 units.
        let text = "a=1\n# caf\u{e9} \u{1d11e}\nkey=v\\u00e9x\r\nlast";
        let bytes = text.as_bytes();
        let positions = Positions::new(bytes, Encoding::Utf16);
        let after_clef = text.find("\u{1d11e}").unwrap() + 4;
        assert_eq!(positions.position(after_clef), Position::new(1, 9));
        let utf8 = Positions::new(bytes, Encoding::Utf8);
        assert_eq!(utf8.position(after_clef), Position::new(1, 12));
        let last = text.find("last").unwrap();
        assert_eq!(positions.position(last), Position::new(3, 0));
        // Back again, every character boundary.
        for (offset, _) in text.char_indices() {
            for encoding in [Encoding::Utf8, Encoding::Utf16] {
                let positions = Positions::new(bytes, encoding);
                let position = positions.position(offset);
                let back = positions.offset(position);
                // A line terminator's bytes map to the line's end.
                let on_terminator = matches!(bytes[offset], b'\r' | b'\n');
                if !on_terminator {
                    assert_eq!(back, offset, "{encoding:?} {position:?}");
                }
            }
        }
    }

    #[test]
    fn latin1_bytes_count_one_unit_each() {
        let bytes = b"# caf\xe9\nk=v";
        let positions = Positions::new(bytes, Encoding::Utf16);
        assert_eq!(positions.position(6), Position::new(0, 6));
        assert_eq!(positions.offset(Position::new(0, 6)), 6);
        assert_eq!(positions.offset(Position::new(1, 2)), 9);
        assert_eq!(positions.offset(Position::new(7, 0)), bytes.len());
        assert_eq!(positions.offset(Position::new(1, 99)), bytes.len());
    }

    #[test]
    fn a_column_inside_a_surrogate_pair_is_the_character_start() {
        let text = "\u{1d11e}x";
        let positions = Positions::new(text.as_bytes(), Encoding::Utf16);
        assert_eq!(positions.offset(Position::new(0, 1)), 0);
        assert_eq!(positions.offset(Position::new(0, 2)), 4);
    }
}
