//! `file:` URIs, as editors name documents, to paths and back (RFC 8089: the path's bytes
//! percent-encoded, except the unreserved characters and `/`).

use std::path::{Path, PathBuf};

use lsp_types::Uri;

/// The file a `file:` URI names; `None` for another scheme (`untitled:`, a remote file) or a
/// URI that names no absolute path.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str();
    let rest = text
        .strip_prefix("file://")
        .or_else(|| text.strip_prefix("FILE://"))?;
    // An authority of `localhost` (or none) names this machine; another host, a share.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let bytes = decode(rest)?;
    path_from_bytes(bytes)
}

/// The `file:` URI of `path`, made absolute against the current folder when it is relative.
pub fn from_path(path: &Path) -> Option<Uri> {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    let mut text = String::from("file://");
    for byte in path_bytes(&absolute) {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                text.push(byte as char)
            }
            _ => text.push_str(&format!("%{byte:02X}")),
        }
    }
    text.parse().ok()
}

fn decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    Some(decoded)
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> Option<PathBuf> {
    // `/C:/folder/file` on Windows.
    let text = String::from_utf8(bytes).ok()?;
    let text = match text.as_bytes() {
        [b'/', _, b':', ..] => &text[1..],
        _ => &text,
    };
    Some(PathBuf::from(text))
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    let text = path.to_string_lossy().replace('\\', "/");
    if text.starts_with('/') {
        text.into_bytes()
    } else {
        format!("/{text}").into_bytes()
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_with_spaces_and_non_ascii() {
        let path = Path::new("/srv/kafka conf/caf\u{e9}/server-0.properties");
        let uri = from_path(path).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///srv/kafka%20conf/caf%C3%A9/server-0.properties"
        );
        assert_eq!(to_path(&uri).unwrap(), path);
        let other: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(to_path(&other), None);
        let bad: Uri = "file:///a%2".parse().unwrap_or(uri);
        let _ = to_path(&bad);
    }
}
