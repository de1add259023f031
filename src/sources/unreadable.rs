//! Files of a form kafkalint reads that cannot be parsed (broken YAML, a mapping that repeats a
//! key, broken HCL, bytes that are not UTF-8): each is a file of its own, with where and why, so
//! that the `invalid-syntax` rule reports it at its line rather than the run passing over it.
//!
//! What is a parse error and what is a limit of kafkalint's own (nesting, aliases) follows the
//! readers' messages: the limits end in ": not read", and are no fault of the file.

use crate::properties::Span;
use crate::source::{SourceFile, SyntaxError, line_starts};

/// Whether a reader's refusal is the file's syntax (what the tools that read it refuse too),
/// not one of kafkalint's own limits (nesting depth, alias counts), which end in ": not read"
/// or name the alias bomb they stop.
pub fn is_syntax(reason: &str) -> bool {
    // yaml-rust2 stops nesting at a depth of its own ("recursion limit exceeded"), far below
    // go-yaml v3's (10,000): a limit too.
    !reason.contains(": not read") && !reason.contains("recursion limit exceeded")
}

/// The file `path` refused with `reason`, whose message ends in `(line L, column C)` as the YAML
/// and Terraform readers write it; without a position, the file's start.
pub fn file(path: String, bytes: Vec<u8>, reason: &str) -> SourceFile {
    let (message, position) = split_position(reason);
    let span = match position {
        Some((line, column)) => offset_of(&bytes, line, column),
        None => 0,
    };
    let error = SyntaxError {
        span: span..span,
        reason: message.to_string(),
    };
    let hidden = hidden_values(&bytes);
    SourceFile::unreadable(path, bytes, error, hidden)
}

/// A file that is not UTF-8 text: refused where its first byte that is not UTF-8 is.
pub fn not_utf8(path: String, bytes: Vec<u8>, error: std::str::Utf8Error) -> SourceFile {
    let at = error.valid_up_to();
    let error = SyntaxError {
        span: at..at,
        reason: "not UTF-8 text: YAML and HCL files are UTF-8".into(),
    };
    let hidden = hidden_values(&bytes);
    SourceFile::unreadable(path, bytes, error, hidden)
}

/// A compose project's `.env` whose syntax Compose refuses (compose-go's parser): at the
/// start of the line it names, once however many compose files of its folder read it.
pub fn push_env(
    unreadable: &mut Vec<SourceFile>,
    path: &std::path::Path,
    bytes: &[u8],
    error: &super::compose::dotenv::ParseError,
) {
    let shown = path.to_string_lossy().replace('\\', "/");
    let shown = shown.strip_prefix("./").unwrap_or(&shown).to_string();
    if unreadable.iter().any(|file| file.path == shown) {
        return;
    }
    let reason = format!(
        "docker compose refuses this .env at line {}: {} (line {}, column 1)",
        error.line, error.what, error.line
    );
    unreadable.push(file(shown, bytes.to_vec(), &reason));
}

/// The message and the 1-based line and column of `... (line L, column C)`.
fn split_position(reason: &str) -> (&str, Option<(usize, usize)>) {
    let parsed = reason
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" (line "))
        .and_then(|(message, position)| {
            let (line, column) = position.split_once(", column ")?;
            Some((message, (line.parse().ok()?, column.parse().ok()?)))
        });
    match parsed {
        Some((message, position)) => (message, Some(position)),
        None => (reason, None),
    }
}

/// The byte offset of the 1-based `line` and `column` (counted in characters), within the file.
fn offset_of(bytes: &[u8], line: usize, column: usize) -> usize {
    let starts = line_starts(bytes);
    let Some(start) = starts.get(line.max(1) - 1).map(|start| *start as usize) else {
        return bytes.len();
    };
    let end = starts
        .get(line.max(1))
        .map_or(bytes.len(), |next| *next as usize)
        .min(bytes.len());
    let text = String::from_utf8_lossy(&bytes[start..end]);
    let within: usize = text
        .chars()
        .take(column.max(1) - 1)
        .take_while(|c| *c != '\n' && *c != '\r')
        .map(char::len_utf8)
        .sum();
    (start + within).min(end).min(bytes.len())
}

/// What output hides of a file nothing parsed: every value and comment. A line shows its
/// indentation, a list's dash and its key up to `:` or `=`; the rest of it is hidden, as
/// nothing says whether it is a secret.
pub fn hidden_values(bytes: &[u8]) -> Vec<Span> {
    let starts = line_starts(bytes);
    let mut hidden = Vec::new();
    for (index, start) in starts.iter().enumerate() {
        let start = *start as usize;
        let end = starts
            .get(index + 1)
            .map_or(bytes.len(), |next| *next as usize)
            .min(bytes.len());
        let line = &bytes[start..end];
        let body_end = line
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(0, |at| at + 1);
        let mut shown = line[..body_end]
            .iter()
            .take_while(|b| b.is_ascii_whitespace() || **b == b'-')
            .count();
        if let Some(key_end) = key_end(&line[shown..body_end]) {
            // A key with a secret run into it (`ssl_key_passwordhunter2:`) is shown only as far
            // as it reads as a name, as every key is (`secrets::shown_key_len`).
            let quote = usize::from(matches!(line.get(shown), Some(b'"' | b'\'')));
            let name = &line[shown + quote..shown + key_end];
            let name_len = name
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || b"_-.".contains(b))
                .count();
            let name = std::str::from_utf8(&name[..name_len]).unwrap_or_default();
            let name_shown = crate::secrets::shown_key_len(name);
            if name_shown < name.len() {
                hidden.push(start + shown + quote + name_shown..start + body_end);
                continue;
            }
            shown += key_end;
            shown += line[shown..body_end]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        }
        if shown < body_end {
            hidden.push(start + shown..start + body_end);
        }
    }
    hidden
}

/// The length of a line's key and its separator (`name:`, `name =`), when it starts with one
/// written in letters, digits, `_`, `-`, `.` and quotes.
fn key_end(body: &[u8]) -> Option<usize> {
    let key = body
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || b"_-.\"'".contains(b))
        .count();
    if key == 0 {
        return None;
    }
    let spaces = body[key..].iter().take_while(|b| **b == b' ').count();
    match body.get(key + spaces) {
        Some(b':') | Some(b'=') => Some(key + spaces + 1),
        _ if key == body.len() => Some(key),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_a_reader_writes_is_the_offset_of_that_character() {
        let bytes = b"a: 1\nb: \xc3\xa9x\n";
        let file = file("f.yaml".into(), bytes.to_vec(), "bad (line 2, column 5)");
        let error = file.syntax_error.as_deref().unwrap();
        assert_eq!(error.reason, "bad");
        // `é` is two bytes: the fifth character of line 2 starts at byte 5 + 5.
        assert_eq!(error.span, 10..10);
        assert_eq!(file.line_column(error.span.start), (2, 5));
    }

    #[test]
    fn a_reason_without_a_position_points_at_the_start() {
        let file = file("f.tf".into(), b"x".to_vec(), "nested too deep");
        assert_eq!(file.syntax_error.unwrap().span, 0..0);
        let past_the_end = file_at(b"a\n", 9, 1);
        assert_eq!(past_the_end, 2);
    }

    fn file_at(bytes: &[u8], line: usize, column: usize) -> usize {
        offset_of(bytes, line, column)
    }

    #[test]
    fn only_keys_and_structure_of_a_broken_file_are_shown() {
        let text = b"services:\n\n   \n  kafka:\n    environment:\n      - KAFKA_SASL_PASSWORD=s3cret\n      password: \"hunter2\n# token abc\n";
        let hidden = hidden_values(text);
        let shown: Vec<&str> = hidden
            .iter()
            .map(|span| std::str::from_utf8(&text[span.clone()]).unwrap())
            .collect();
        assert_eq!(shown, ["s3cret", "\"hunter2", "# token abc"]);
    }

    #[test]
    fn limits_of_kafkalint_are_no_syntax_errors() {
        assert!(!is_syntax("YAML nested deeper than 256 levels: not read"));
        assert!(!is_syntax(
            "not valid YAML: recursion limit exceeded (line 4, column 263)"
        ));
        assert!(!is_syntax(
            "YAML aliases expand to more than 64 MiB: not read (an alias bomb?)"
        ));
        assert!(is_syntax(
            "YAML mapping repeats the key `a` (keys of a mapping must be unique)"
        ));
    }
}
