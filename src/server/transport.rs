//! The protocol's framing over stdio: `Content-Length: N` headers, a blank line, then N bytes
//! of JSON-RPC. lsp-server's own stdio transport sizes its buffer from the header before a byte
//! of the body arrives (lsp-server 0.10.0, `src/msg.rs`, `read_msg_text`: `buf.resize(size, 0)`),
//! so `Content-Length: 1000000000000` aborts the process on allocation. This reader checks the
//! length against [`MAX_MESSAGE_BYTES`] first, bounds each header line, and lets the body's
//! buffer grow only with the bytes that come; the messages it reads go to the server through
//! an lsp-server [`Connection`], as lsp-server's transport hands them over.

use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification};

/// The largest message read. An editor sends a document's whole text on each change (full
/// sync), and kafkalint reads files up to 16 MiB: four times that leaves room for JSON's
/// escapes.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;

/// The longest header line read (`Content-Length: 67108864` and `Content-Type: ...` are short).
const MAX_HEADER_LINE_BYTES: u64 = 1024;

/// Why the server stopped reading its input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FramingError {
    #[error(
        "the client sent a message of {0} bytes, more than the {max} MiB kafkalint reads",
        max = MAX_MESSAGE_BYTES >> 20
    )]
    TooLarge(String),
    #[error("the client sent a header line longer than {MAX_HEADER_LINE_BYTES} bytes")]
    HeaderTooLong,
    #[error("the client sent a header that is not `Name: value` ending in CR LF")]
    MalformedHeader,
    #[error("the client sent a message without a Content-Length header")]
    NoContentLength,
    #[error("the client sent a Content-Length that is not a number of bytes")]
    BadContentLength,
    #[error("the input ended inside a message")]
    Truncated,
    // The message is not quoted: it may hold a document's text.
    #[error("the client sent a message that is not JSON-RPC")]
    NotJsonRpc,
    #[error("{0}")]
    Io(std::io::ErrorKind),
}

impl From<std::io::Error> for FramingError {
    fn from(error: std::io::Error) -> FramingError {
        FramingError::Io(error.kind())
    }
}

/// One header line without its CR LF; `None` at the end of the input.
fn header_line(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut line = Vec::new();
    input
        .by_ref()
        .take(MAX_HEADER_LINE_BYTES + 2)
        .read_until(b'\n', &mut line)?;
    if line.is_empty() {
        return Ok(None);
    }
    let Some(text) = line.strip_suffix(b"\r\n") else {
        return Err(
            if line.ends_with(b"\n") || (line.len() as u64) <= MAX_HEADER_LINE_BYTES {
                FramingError::MalformedHeader
            } else {
                FramingError::HeaderTooLong
            },
        );
    };
    Ok(Some(text.to_vec()))
}

/// The body of the next message; `None` when the input ends before one starts.
pub fn read_body(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut length = None;
    let mut first = true;
    loop {
        let Some(line) = header_line(input)? else {
            return if first {
                Ok(None)
            } else {
                Err(FramingError::Truncated)
            };
        };
        first = false;
        if line.is_empty() {
            break;
        }
        let text = std::str::from_utf8(&line).map_err(|_| FramingError::MalformedHeader)?;
        let (name, value) = text.split_once(": ").ok_or(FramingError::MalformedHeader)?;
        if name.eq_ignore_ascii_case("Content-Length") {
            if value.is_empty() || !value.bytes().all(|byte| byte.is_ascii_digit()) {
                return Err(FramingError::BadContentLength);
            }
            // Digits too many for a u64 are too large all the same.
            match value.parse::<u64>() {
                Ok(bytes) if bytes <= MAX_MESSAGE_BYTES => length = Some(bytes),
                _ => return Err(FramingError::TooLarge(value.to_string())),
            }
        }
    }
    let length = length.ok_or(FramingError::NoContentLength)?;
    // The buffer grows with the bytes read, never from the header alone.
    let mut body = Vec::with_capacity(length.min(64 << 10) as usize);
    input.by_ref().take(length).read_to_end(&mut body)?;
    if (body.len() as u64) < length {
        return Err(FramingError::Truncated);
    }
    Ok(Some(body))
}

/// The next message; `None` when the input ends before one starts.
pub fn read_message(input: &mut impl BufRead) -> Result<Option<Message>, FramingError> {
    let Some(body) = read_body(input)? else {
        return Ok(None);
    };
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(|_| FramingError::NotJsonRpc)
}

/// The threads that read and write the connection.
pub struct Transport {
    reader: JoinHandle<Result<(), FramingError>>,
    writer: JoinHandle<std::io::Result<()>>,
}

impl Transport {
    /// Waits for both threads (the writer ends once every sender of the connection is
    /// dropped): why reading stopped, else why writing did.
    pub fn join(self) -> Result<(), FramingError> {
        let read = self.reader.join().unwrap_or(Err(FramingError::NotJsonRpc));
        let written = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(std::io::ErrorKind::Other.into()));
        read?;
        written.map_err(FramingError::from)
    }
}

/// A connection over stdin and stdout.
pub fn stdio() -> (Connection, Transport) {
    over(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
}

/// A connection reading `input` and writing `output`, each on a thread of its own. As in
/// lsp-server's transport, a channel of no capacity between them: the reader is one message
/// ahead of the server at most.
pub fn over(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (Connection, Transport) {
    let (to_writer, for_writer) = crossbeam_channel::bounded::<Message>(0);
    let (to_server, for_server) = crossbeam_channel::bounded::<Message>(0);
    let writer = std::thread::spawn(move || {
        let mut output = output;
        for message in for_writer {
            message.write(&mut output)?;
            output.flush()?;
        }
        Ok(())
    });
    let to_client = to_writer.clone();
    let reader = std::thread::spawn(move || {
        let mut input = input;
        loop {
            let message = match read_message(&mut input) {
                Ok(Some(message)) => message,
                Ok(None) => return Ok(()),
                Err(error) => {
                    // The editor shows why its server stopped; a client that reads nothing
                    // is not waited for.
                    let shown = Notification::new(
                        "window/showMessage".to_string(),
                        serde_json::json!({ "type": 1, "message": format!("kafkalint: {error}; the server stops") }),
                    );
                    let _ = to_client.send_timeout(shown.into(), Duration::from_secs(1));
                    return Err(error);
                }
            };
            let exit = matches!(&message, Message::Notification(notification) if notification.method == "exit");
            if to_server.send(message).is_err() || exit {
                return Ok(());
            }
        }
    });
    (
        Connection {
            sender: to_writer,
            receiver: for_server,
        },
        Transport { reader, writer },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(headers: &str, body: &str) -> Vec<u8> {
        format!("{headers}\r\n{body}").into_bytes()
    }

    #[test]
    fn lengths_are_checked_before_a_byte_is_kept() {
        let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
        let good = framed(&format!("Content-Length: {}\r\n", exit.len()), exit);
        let read = read_message(&mut &good[..]).unwrap().unwrap();
        assert!(matches!(read, Message::Notification(n) if n.method == "exit"));
        for (headers, body, error) in [
            (
                "Content-Length: 1000000000000\r\n".to_string(),
                "",
                FramingError::TooLarge("1000000000000".into()),
            ),
            (
                format!("Content-Length: {}\r\n", MAX_MESSAGE_BYTES + 1),
                "",
                FramingError::TooLarge((MAX_MESSAGE_BYTES + 1).to_string()),
            ),
            (
                format!("Content-Length: 1{}\r\n", "0".repeat(40)),
                "",
                FramingError::TooLarge(format!("1{}", "0".repeat(40))),
            ),
            (
                "Content-Length: -1\r\n".into(),
                "",
                FramingError::BadContentLength,
            ),
            (
                "Content-Type: x\r\n".into(),
                "{}",
                FramingError::NoContentLength,
            ),
            (
                "Content-Length: 10\r\n".into(),
                "{}",
                FramingError::Truncated,
            ),
            (
                "Content-Length: 2\n".into(),
                "{}",
                FramingError::MalformedHeader,
            ),
            (
                "Content-Length: 2\r\n".into(),
                "{}",
                FramingError::NotJsonRpc,
            ),
            (
                format!("X-{}: y\r\n", "a".repeat(4096)),
                "",
                FramingError::HeaderTooLong,
            ),
        ] {
            assert_eq!(
                read_message(&mut &framed(&headers, body)[..]).unwrap_err(),
                error,
                "{headers:?}"
            );
        }
        assert!(matches!(read_message(&mut &b""[..]), Ok(None)));
    }
}
