//! Escape processing of a key or value, as `Properties.loadConvert` does it.

use nom::Parser;
use nom::bytes::complete::{tag, take_while_m_n};
use nom::combinator::map_res;
use nom::sequence::preceded;

use super::bytes::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum EscapeError {
    /// `\u` not followed by four hex digits within the key or value: `Properties.load` throws
    /// `IllegalArgumentException: Malformed \uxxxx encoding.` and Kafka does not start.
    #[error("malformed \\uxxxx escape: `\\u` must be followed by exactly four hex digits")]
    MalformedUnicode,
}

/// Why `Properties.load` would throw on this file; Kafka then refuses to start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct ParseError {
    pub error: EscapeError,
    /// The bytes of the offending escape sequence.
    pub span: Span,
}

fn unicode_escape(input: &[u8]) -> nom::IResult<&[u8], u16> {
    preceded(
        tag(&b"u"[..]),
        map_res(
            take_while_m_n(4, 4, |c: u8| c.is_ascii_hexdigit()),
            |hex: &[u8]| {
                // Four ASCII hex digits always fit a u16.
                u16::from_str_radix(std::str::from_utf8(hex).unwrap_or("!"), 16)
            },
        ),
    )
    .parse(input)
}

/// `chars` without escapes: one Latin-1 character each, as `Properties.load(InputStream)`
/// reads bytes.
pub(super) fn latin1(chars: &[u8]) -> String {
    if chars.is_ascii() {
        return String::from_utf8(chars.to_vec()).unwrap_or_default();
    }
    chars.iter().map(|&byte| char::from(byte)).collect()
}

/// Decodes `chars` (Latin-1 characters of one key or value); `offsets` gives each one's byte
/// offset, used to place an error. A malformed escape is kept as written and reported.
pub(super) fn unescape(chars: &[u8], offsets: &[usize]) -> (String, Option<ParseError>) {
    if !chars.contains(&b'\\') {
        // The common case: nothing to decode.
        return (latin1(chars), None);
    }
    let mut error = None;
    let mut units: Vec<u16> = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != b'\\' {
            units.push(u16::from(c));
            continue;
        }
        // A lone backslash never ends a key or value: the line reader and the key split
        // leave only escaped ones, so there is always a next character.
        let Some(&next) = chars.get(i) else {
            break;
        };
        if next == b'u' {
            match unicode_escape(&chars[i..]) {
                Ok((_, unit)) => {
                    units.push(unit);
                    i += 5;
                }
                Err(_) => {
                    let start = offsets[i - 1];
                    let end = offsets[(i + 4).min(chars.len() - 1)] + 1;
                    let malformed = ParseError {
                        error: EscapeError::MalformedUnicode,
                        span: start..end,
                    };
                    error = error.or(Some(malformed));
                    units.push(u16::from(b'\\'));
                }
            }
            continue;
        }
        i += 1;
        units.push(u16::from(match next {
            b't' => b'\t',
            b'r' => b'\r',
            b'n' => b'\n',
            b'f' => b'\x0c',
            other => other,
        }));
    }
    // Java strings are UTF-16: `\uD83D\uDE00` is one character. A lone surrogate cannot be
    // held in a Rust string; it becomes U+FFFD.
    (String::from_utf16_lossy(&units), error)
}
