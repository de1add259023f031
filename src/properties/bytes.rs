//! What every step of the reader shares: byte spans into the file, and what `Properties`
//! calls whitespace.

use std::ops::Range;

/// A byte range in the original file.
pub type Span = Range<usize>;

/// Whitespace for `Properties`: space, tab and form feed, nothing else.
pub(crate) fn is_whitespace(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\x0c'
}
