//! Text from outside kafkalint as it is printed: one escaping function every output path
//! uses ([`printable`]), and the last guard where output is written ([`guard_lines`]). Below
//! the model and the report (the coordinator and `--fix` print names too); `output` re-exports
//! both.

/// Text that came from outside kafkalint (a path, a name, a value, a server's words) as it is
/// printed, in every format and on stderr: the one function every output path shows such text
/// through. Characters [`crate::source::shown_escaped`] names (control characters, line feeds
/// and carriage returns among them, NEL, U+2028 and U+2029, bidirectional overrides) are shown
/// escaped (`\u{a}`), so every line break in the output is one kafkalint wrote. So are the
/// characters that would let the text be read as a GitHub Actions workflow command
/// (actions/runner, `src/Runner.Common/ActionCommand.cs`): a `:` that could start a line with
/// `::` (`TryParseV2` reads a line that starts with `::` after its leading whitespace as
/// `::error::`, `::stop-commands::`; a line may start where this text starts or where a help
/// line is wrapped at a space, see `command_start`) is shown as `\u{3a}`, and the `[` of
/// `##[` (the legacy `TryParse` finds `##[error]` anywhere in a line) as `\u{5b}`.
pub fn printable(text: &str) -> String {
    // Printable ASCII, the text of nearly every name, value and message, needs escaping only
    // where a `:` could start a workflow command or a `[` follows `##`: one pass over the bytes
    // tells such text, a search of those few places settles it.
    if is_printable_ascii(text.as_bytes()) && !forges_command_in_ascii(text) {
        return text.to_string();
    }
    escape_each(text)
}

/// Whether `bytes` are all printable ASCII (a space to `~`).
fn is_printable_ascii(bytes: &[u8]) -> bool {
    !crate::byte_scan::any_byte(bytes, |b| u8::from(!(0x20..0x7f).contains(&b)))
}

/// Whether [`escape_each`] escapes a character of `text`, printable ASCII: a `:` that
/// [`command_start`] finds may begin a `::` (in ASCII the only blank is a space), or the `[`
/// of a `##[`.
fn forges_command_in_ascii(text: &str) -> bool {
    text.starts_with("::")
        || text == ":"
        || text.contains(" ::")
        || text.ends_with(" :")
        || text.contains("##[")
}

/// [`printable`], a character at a time.
fn escape_each(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    // The two characters before `c`, as written.
    let (mut before, mut previous): (Option<char>, Option<char>) = (None, None);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let escaped = crate::source::shown_escaped(c)
            || (c == ':' && command_start(previous, chars.peek().copied()))
            || (c == '[' && before == Some('#') && previous == Some('#'));
        if escaped {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
        (before, previous) = (previous, Some(c));
    }
    out
}

/// Whether a `:` between `previous` and `next` could begin a line's `::`: it follows the start
/// of the text or a blank (where a line may start, or be wrapped), and a `:` or the end of the
/// text (where the text around it may put one) follows it.
fn command_start(previous: Option<char>, next: Option<char>) -> bool {
    previous.is_none_or(blank) && matches!(next, None | Some(':'))
}

/// What a log reader may drop from the start of a line before it looks for `::`: whitespace
/// (`TryParseV2` calls .NET's `TrimStart()`, which drops what `Char.IsWhiteSpace` calls
/// whitespace, as Rust's `char::is_whitespace` does), and, to be safe, the invisible
/// characters other trims drop or that a reader cannot see (zero-width space, word joiner,
/// byte order mark, Mongolian vowel separator).
fn blank(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{180e}' | '\u{200b}' | '\u{2060}' | '\u{feff}')
}

/// The last guard at the sinks (stdout, stderr, `--output-file`) and over the file text an
/// output shows as it is (snippets, `--diff`): a line of `text` that starts with `::` after its
/// blanks gets that `:` shown as `\u{3a}`, and every `##[` its `[` shown as `\u{5b}`, whatever
/// wrote them. Text shown through [`printable`] never makes either; this keeps a line
/// kafkalint did not mean from reaching a CI log as a workflow command all the same. With
/// `annotations`, the text is `--format github`'s: its lines that start with `::error `,
/// `::warning ` or `::notice ` at their first column are kafkalint's own annotations (their
/// data percent-encoded, so no line break inside one) and stay as they are.
pub fn guard_lines(text: &str, annotations: bool) -> std::borrow::Cow<'_, str> {
    let own = |line: &str| {
        annotations
            && ["::error ", "::warning ", "::notice "]
                .iter()
                .any(|command| line.starts_with(command))
    };
    let forged = |line: &str| line.trim_start_matches(blank).starts_with("::") && !own(line);
    let lines = || text.split_inclusive(['\n', '\r']);
    if !text.contains("##[") && !has_forged_line(text, own) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for line in lines() {
        let line = line.replace("##[", "##\\u{5b}");
        if forged(&line) {
            let blanks = line.len() - line.trim_start_matches(blank).len();
            out.push_str(&line[..blanks]);
            out.push_str("\\u{3a}");
            out.push_str(&line[blanks + 1..]);
        } else {
            out.push_str(&line);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a line of `text` starts with `::` after its blanks and is not one of `own`: the
/// lines of [`guard_lines`], found from each `::` back to its line's start, so that a text
/// without a `::` (nearly all output) is passed over at memchr speed rather than a character
/// at a time.
fn has_forged_line(text: &str, own: impl Fn(&str) -> bool) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), b"::").any(|at| {
        let start = memchr::memrchr2(b'\n', b'\r', &text.as_bytes()[..at]).map_or(0, |end| end + 1);
        text[start..at].chars().all(blank) && !own(&text[start..])
    })
}

/// The same guard as [`guard_lines`], for output written as it is made (`--format json` of
/// 10,000 files is 17 MB, no need to hold it whole): lines are passed to `sink` through
/// [`guard_lines`] once they end, a chunk at a time, the last unfinished one kept back until
/// it ends or [`GuardedWriter::finish`]. The guard works a line at a time, so the bytes are
/// those [`guard_lines`] makes of the whole text, however it is cut into writes.
pub struct GuardedWriter<W: std::io::Write> {
    sink: W,
    annotations: bool,
    /// Written, not yet passed on: whole lines, fewer than [`PASSED_AT`] bytes of them, then an
    /// unfinished one.
    pending: Vec<u8>,
}

/// How many bytes are gathered before the whole lines among them are passed on: large enough
/// that the sink sees few writes, small enough to be no memory worth counting.
const PASSED_AT: usize = 64 * 1024;

impl<W: std::io::Write> GuardedWriter<W> {
    /// `annotations`: as for [`guard_lines`].
    pub fn new(sink: W, annotations: bool) -> GuardedWriter<W> {
        GuardedWriter {
            sink,
            annotations,
            pending: Vec::with_capacity(PASSED_AT + 1024),
        }
    }

    /// Passes on what is left (a last line without its end too), flushes, and returns the sink.
    pub fn finish(mut self) -> std::io::Result<W> {
        write_guarded(&mut self.sink, &self.pending, self.annotations)?;
        self.sink.flush()?;
        Ok(self.sink)
    }

    /// Passes on the whole lines of `pending`, keeping an unfinished last one.
    fn pass_whole_lines(&mut self) -> std::io::Result<()> {
        if let Some(end) = memchr::memrchr2(b'\n', b'\r', &self.pending) {
            write_guarded(&mut self.sink, &self.pending[..=end], self.annotations)?;
            self.pending.drain(..=end);
        }
        Ok(())
    }
}

/// Writes `bytes`, which end where a line ends (or the output does), through [`guard_lines`].
fn write_guarded(
    sink: &mut impl std::io::Write,
    bytes: &[u8],
    annotations: bool,
) -> std::io::Result<()> {
    // Every output writes text; bytes that are not UTF-8 are guarded as the text they would be
    // shown as.
    // The standard check first: it passes ASCII a word at a time, where the lossy decoder
    // goes a character at a time.
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    };
    sink.write_all(guard_lines(&text, annotations).as_bytes())
}

impl<W: std::io::Write> std::io::Write for GuardedWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.pending.len() + bytes.len() < PASSED_AT {
            self.pending.extend_from_slice(bytes);
            return Ok(bytes.len());
        }
        // Enough to pass on: the line under way ends at the first line end of `bytes`, the
        // whole lines after it are passed on from `bytes` itself (a text written at once is not
        // copied), and what follows the last line end waits.
        let Some(last_end) = memchr::memrchr2(b'\n', b'\r', bytes) else {
            self.pending.extend_from_slice(bytes);
            return Ok(bytes.len());
        };
        let first_end = memchr::memchr2(b'\n', b'\r', bytes).unwrap_or(last_end);
        self.pending.extend_from_slice(&bytes[..=first_end]);
        write_guarded(&mut self.sink, &self.pending, self.annotations)?;
        self.pending.clear();
        write_guarded(
            &mut self.sink,
            &bytes[first_end + 1..=last_end],
            self.annotations,
        )?;
        self.pending.extend_from_slice(&bytes[last_end + 1..]);
        Ok(bytes.len())
    }

    /// `write` takes every byte it is given: no loop of writes around it.
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.write(bytes).map(drop)
    }

    /// Passes on the whole lines written so far; a line not yet ended waits for its end, as
    /// whether it is guarded depends on how it starts and what it holds.
    fn flush(&mut self) -> std::io::Result<()> {
        self.pass_whole_lines()?;
        self.sink.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_ascii_is_escaped_as_a_character_at_a_time() {
        // Every text of up to five pieces: colons, brackets and hashes around blanks (a space,
        // a tab, an ideographic space), a line break, a letter and a Latin-1 one.
        let pieces = ["a", ":", "[", "#", " ", "\t", "\u{3000}", "\n", "\u{e9}"];
        for text in &crate::testing::strings_of(&pieces, 5, usize::MAX) {
            assert_eq!(printable(text), escape_each(text), "{text:?}");
        }
        // Across the blocks of the printable check.
        for len in 0..50 {
            for at in 0..len {
                let mut text = vec![b'x'; len];
                for byte in [0x1f, 0x7f, b':', b'~', b' '] {
                    text[at] = byte;
                    let text = String::from_utf8(text.clone()).unwrap();
                    assert_eq!(printable(&text), escape_each(&text), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn outside_text_breaks_no_line_and_starts_no_workflow_command() {
        for (text, shown) in [
            ("a\nb\rc\r\nd", "a\\u{a}b\\u{d}c\\u{d}\\u{a}d"),
            (
                "a\u{85}b\u{2028}c\u{2029}d",
                "a\\u{85}b\\u{2028}c\\u{2029}d",
            ),
            ("\u{1b}[2K\u{202e}\u{2066}", "\\u{1b}[2K\\u{202e}\\u{2066}"),
            ("::error::x", "\\u{3a}:error::x"),
            (
                "set it to \u{3000}::stop-commands::x",
                "set it to \u{3000}\\u{3a}:stop-commands::x",
            ),
            ("\t::x", "\\u{9}\\u{3a}:x"),
            ("a##[error]x", "a##\\u{5b}error]x"),
            // A lone `:` at an end may meet one the output writes beside it.
            (":", "\\u{3a}"),
            ("x :", "x \\u{3a}"),
            // Colons inside words stay.
            (
                "[::1]:9092 PLAINTEXT://:9092 a::b x:",
                "[::1]:9092 PLAINTEXT://:9092 a::b x:",
            ),
            ("caf\u{e9} [x]", "caf\u{e9} [x]"),
        ] {
            assert_eq!(printable(text), shown, "{text:?}");
            // Shown text shows as it is: escaping twice changes nothing.
            assert_eq!(printable(shown), shown, "{shown:?}");
        }
    }

    #[test]
    fn the_sink_guard_leaves_only_own_annotations_at_a_line_start() {
        let text = "::error file=a,line=1::m\n  ::warning::x\nok ##[error]y\n\u{feff}::z\n";
        assert_eq!(
            guard_lines(text, true),
            "::error file=a,line=1::m\n  \\u{3a}:warning::x\nok ##\\u{5b}error]y\n\u{feff}\\u{3a}:z\n"
        );
        assert_eq!(
            guard_lines(text, false).lines().next(),
            Some("\\u{3a}:error file=a,line=1::m")
        );
        assert!(matches!(
            guard_lines("a: b\n x::y\n", false),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
