//! SASL OAUTHBEARER with the client-credentials grant (RFC 6749 section 4.4), as Kafka's
//! `OAuthBearerLoginCallbackHandler` gets its token: `sasl.oauthbearer.token.endpoint.url`, the
//! client id, secret and scope from `sasl.oauthbearer.client.credentials.client.id` /
//! `.client.secret` and `sasl.oauthbearer.scope` (4.1 and later, KIP-1139) or else the JAAS
//! options `clientId`, `clientSecret` and `scope` (apache/kafka
//! clients/src/main/java/org/apache/kafka/common/security/oauthbearer/internals/secured/AccessTokenRetrieverFactory.java
//! and HttpAccessTokenRetriever.java at tag 3.9.0; ConfigOrJaas and ClientSecretRequestFormatter
//! in the 4.4.0 client); a `file:` endpoint is a file holding the token (`FileTokenRetriever`).
//!
//! The token is asked for once a run, within the run's deadline, over HTTPS verified as the
//! brokers are (the JAAS options' `ssl.truststore.*`, as Kafka's `JaasOptionsUtils` takes them,
//! else the system's certificates). Neither the secret, the token nor the endpoint's answer is
//! ever shown: an error says the endpoint's host, its HTTP status or what was missing.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use base64::Engine;

use super::Error;
use super::stores::Tls;
use super::transport::Run;

/// What one token answer may hold: an access token is a few KiB.
const LARGEST_ANSWER: usize = 1 << 20;

/// Where the token comes from, and the run's one token once asked for (the first connection
/// that logs in asks, the others wait for its answer).
#[derive(Debug, Clone)]
pub struct ClientCredentials {
    source: Source,
    token: Arc<OnceLock<Result<Token, String>>>,
}

/// Where the token comes from and with what.
#[derive(Debug, Clone)]
enum Source {
    /// `file:` URL: the token itself, read at each run.
    File(PathBuf),
    Endpoint(Box<Endpoint>),
}

#[derive(Clone)]
pub struct Endpoint {
    /// Scheme, host and port, for messages (never the path or query, which may hold anything).
    pub shown: String,
    host: String,
    port: u16,
    /// The request target: path and query.
    target: String,
    /// `None` over `http:`.
    tls: Option<Tls>,
    client_id: String,
    client_secret: String,
    scope: Option<String>,
    /// `sasl.oauthbearer.header.urlencode` (KIP-1075): the id and secret URL-encoded in the
    /// Basic header, as RFC 6749 section 2.3.1 says; off by default, as in Kafka.
    urlencode_header: bool,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("endpoint", &self.shown)
            .field("client_id", &self.client_id)
            .field("client_secret", &"<hidden>")
            .finish()
    }
}

/// A bearer token; its `Debug` hides it.
pub struct Token(pub String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(<hidden>)")
    }
}

/// The OAUTHBEARER settings of a client file; `jaas` is its JAAS line's options.
pub fn read(
    get: &dyn Fn(&str) -> Option<String>,
    jaas: &[(String, String)],
    folder: &Path,
    invalid: &dyn Fn(&str, &str) -> Error,
) -> Result<ClientCredentials, Error> {
    const URL_KEY: &str = "sasl.oauthbearer.token.endpoint.url";
    let url = get(URL_KEY).ok_or_else(|| {
        invalid(
            URL_KEY,
            "missing: kafkalint gets OAUTHBEARER tokens with the client-credentials grant",
        )
    })?;
    if let Some(path) = url.strip_prefix("file:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        return Ok(ClientCredentials::new(Source::File(
            super::stores::resolved(folder, path),
        )));
    }
    let option = |name: &str| {
        jaas.iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    // The configuration wins over the deprecated JAAS option (ConfigOrJaas, 4.4.0).
    let either = |config: &str, jaas: &str| get(config).or_else(|| option(jaas));
    let client_id = either("sasl.oauthbearer.client.credentials.client.id", "clientId")
        .ok_or_else(|| invalid("sasl.jaas.config", "no clientId=\"...\" option in it"))?;
    let client_secret = either(
        "sasl.oauthbearer.client.credentials.client.secret",
        "clientSecret",
    )
    .ok_or_else(|| invalid("sasl.jaas.config", "no clientSecret=\"...\" option in it"))?;
    let scope = either("sasl.oauthbearer.scope", "scope").filter(|s| !s.trim().is_empty());
    let bad_url = || {
        invalid(
            URL_KEY,
            "not an http:, https: or file: URL with a host (kafkalint reads host[:port]/path)",
        )
    };
    let (https, rest) = if let Some(rest) = url.strip_prefix("https://") {
        (true, rest)
    } else if let Some(rest) = url.strip_prefix("http://") {
        (false, rest)
    } else {
        return Err(bad_url());
    };
    let (authority, target) = match rest.find(['/', '?']) {
        Some(at) => (&rest[..at], rest[at..].to_string()),
        None => (rest, "/".to_string()),
    };
    let target = if target.starts_with('?') {
        format!("/{target}")
    } else {
        target
    };
    let (host, port) =
        host_and_port(authority, if https { 443 } else { 80 }).ok_or_else(bad_url)?;
    let tls = if https {
        let jaas_get = |key: &str| option(key);
        let mut tls = super::stores::trust_store(&jaas_get, folder, invalid)?;
        tls.verify_host_name = true;
        Some(tls)
    } else {
        None
    };
    let scheme = if https { "https" } else { "http" };
    Ok(ClientCredentials::new(Source::Endpoint(Box::new(
        Endpoint {
            shown: format!("{scheme}://{authority}"),
            host,
            port,
            target,
            tls,
            client_id,
            client_secret,
            scope,
            urlencode_header: get("sasl.oauthbearer.header.urlencode")
                .is_some_and(|value| value.eq_ignore_ascii_case("true")),
        },
    ))))
}

/// `host`, `host:port` or `[v6]:port`; a user before `@` is refused (it would be shown).
fn host_and_port(authority: &str, default_port: u16) -> Option<(String, u16)> {
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(port) => port.parse().ok()?,
            None if after.is_empty() => default_port,
            None => return None,
        };
        return Some((host.to_string(), port));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) => Some((host.to_string(), port.parse().ok()?)),
        None => Some((authority.to_string(), default_port)),
    }
}

impl ClientCredentials {
    fn new(source: Source) -> ClientCredentials {
        ClientCredentials {
            source,
            token: Arc::new(OnceLock::new()),
        }
    }

    /// The run's token, asked for within what is left of `run`'s deadline the first time; else
    /// why not, in one line that shows no secret.
    pub fn token(&self, run: &Run) -> Result<&Token, String> {
        self.token
            .get_or_init(|| self.source.token(run))
            .as_ref()
            .map_err(Clone::clone)
    }
}

impl Source {
    fn token(&self, run: &Run) -> Result<Token, String> {
        match self {
            Source::File(path) => {
                let bytes = crate::source::read_file(path)
                    .map_err(|error| format!("{}: {error}", path.display()))?;
                let token = String::from_utf8_lossy(&bytes).trim().to_string();
                if token.is_empty() {
                    return Err(format!("{}: no token in it", path.display()));
                }
                Ok(Token(token))
            }
            Source::Endpoint(endpoint) => endpoint
                .token(run)
                .map_err(|why| format!("the token endpoint {}: {why}", endpoint.shown)),
        }
    }
}

impl Endpoint {
    fn token(&self, run: &Run) -> Result<Token, String> {
        let answer = self.post(run)?;
        let (status, body) = http_answer(&answer, true)?;
        if !(200..300).contains(&status) {
            // The body is not shown: an endpoint may echo what it was sent.
            return Err(format!("it answered HTTP {status}"));
        }
        let json: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|_| "its answer is not JSON (RFC 6749 section 5.1)".to_string())?;
        match json.get("access_token").and_then(|token| token.as_str()) {
            Some(token) if !token.trim().is_empty() => Ok(Token(token.trim().to_string())),
            _ => Err("its answer has no access_token".to_string()),
        }
    }

    /// The client-credentials request, as HttpAccessTokenRetriever sends it (Basic
    /// authorization, a form body, `Accept: application/json`), and the whole answer.
    fn post(&self, run: &Run) -> Result<Vec<u8>, String> {
        let request = self.request();
        let tcp = super::transport::connect(&self.host, self.port, run)?;
        match &self.tls {
            None => exchange(tcp, &request, run),
            Some(tls) => {
                let config = super::tls::client_config(tls)?;
                let name = rustls::pki_types::ServerName::try_from(self.host.clone())
                    .map_err(|_| format!("`{}` is no host name", self.host))?;
                let connection = rustls::ClientConnection::new(Arc::new(config), name)
                    .map_err(|error| format!("TLS: {error}"))?;
                exchange(rustls::StreamOwned::new(connection, tcp), &request, run)
            }
        }
    }

    fn request(&self) -> Vec<u8> {
        let (id, secret) = if self.urlencode_header {
            (
                form_encoded(&self.client_id),
                form_encoded(&self.client_secret),
            )
        } else {
            (self.client_id.clone(), self.client_secret.clone())
        };
        // RFC 7617: the standard (not URL-safe) alphabet, as Kafka's KAFKA-14496 fix uses.
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}"));
        let mut body = "grant_type=client_credentials".to_string();
        if let Some(scope) = &self.scope {
            body.push_str("&scope=");
            body.push_str(&form_encoded(scope.trim()));
        }
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!(
            "POST {} HTTP/1.1\r\nHost: {host}:{}\r\nAccept: application/json\r\n\
             Authorization: Basic {basic}\r\nCache-Control: no-cache\r\n\
             Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\
             Connection: close\r\nUser-Agent: kafkalint\r\n\r\n{body}",
            self.target,
            self.port,
            body.len()
        )
        .into_bytes()
    }
}

/// Writes `request` and reads the answer until the server closes, at most [`LARGEST_ANSWER`]
/// bytes, within the run's deadline (each read and write of `Timed` is).
fn exchange(mut stream: impl Read + Write, request: &[u8], run: &Run) -> Result<Vec<u8>, String> {
    let io = |error: std::io::Error| match error.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => run.too_late(),
        _ => match error
            .get_ref()
            .and_then(|e| e.downcast_ref::<rustls::Error>())
        {
            Some(tls) => format!("TLS: {tls}"),
            None => error.kind().to_string(),
        },
    };
    stream
        .write_all(request)
        .and_then(|()| stream.flush())
        .map_err(io)?;
    let mut answer = Vec::new();
    let mut piece = [0u8; 16 << 10];
    loop {
        match stream.read(&mut piece) {
            Ok(0) => break,
            Ok(read) => answer.extend_from_slice(&piece[..read]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            // A server that closes without TLS's close_notify: the answer is judged by its
            // own length below.
            Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(error) => return Err(io(error)),
        }
        if answer.len() > LARGEST_ANSWER {
            return Err(format!("an answer past {} KiB", LARGEST_ANSWER >> 10));
        }
        if http_answer(&answer, false).is_ok() {
            break;
        }
    }
    Ok(answer)
}

/// The status and body of a whole HTTP/1.1 answer (`Content-Length`, chunked, or to the end
/// once `ended`, the server having closed); `Err` while it is incomplete or when it is no HTTP.
fn http_answer(answer: &[u8], ended: bool) -> Result<(u16, Vec<u8>), String> {
    let incomplete = || "an incomplete HTTP answer".to_string();
    let end = memchr::memmem::find(answer, b"\r\n\r\n").ok_or_else(incomplete)?;
    let head = std::str::from_utf8(&answer[..end]).map_err(|_| "no HTTP answer".to_string())?;
    let body = &answer[end + 4..];
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .filter(|line| line.starts_with("HTTP/1."))
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| "no HTTP answer".to_string())?;
    let header = |name: &str| {
        head.split("\r\n").skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case(name)
                .then(|| value.trim().to_ascii_lowercase())
        })
    };
    if header("transfer-encoding").is_some_and(|coding| coding.contains("chunked")) {
        return dechunked(body)
            .map(|body| (status, body))
            .ok_or_else(incomplete);
    }
    match header("content-length").and_then(|length| length.parse::<usize>().ok()) {
        Some(length) if body.len() >= length => Ok((status, body[..length].to_vec())),
        Some(_) => Err(incomplete()),
        // Neither: the body ends with the connection.
        None if ended => Ok((status, body.to_vec())),
        None => Err(incomplete()),
    }
}

/// A chunked body's bytes, once its last chunk is there.
fn dechunked(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let line_end = memchr::memmem::find(body, b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..line_end]).ok()?;
        let size_text = size_text.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Some(out);
        }
        if body.len() < size + 2 {
            return None;
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}

/// `application/x-www-form-urlencoded`, as Java's `URLEncoder.encode(s, UTF_8)`: letters,
/// digits and `.-*_` kept, space as `+`, every other byte `%XX`.
fn form_encoded(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'*' | b'_' => {
                out.push(byte as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// The client's first message (RFC 7628 section 3.1), as Kafka's
/// `OAuthBearerClientInitialResponse.toBytes` writes it with no authorization id and no
/// extensions: `n,,` then `auth=Bearer TOKEN` between 0x01 separators.
pub fn initial_response(token: &Token) -> Vec<u8> {
    format!("n,,\u{1}auth=Bearer {}\u{1}\u{1}", token.0).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_by_length_chunks_or_close() {
        let by_length = b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcdEXTRA";
        assert_eq!(
            http_answer(by_length, false).unwrap(),
            (200, b"abcd".to_vec())
        );
        assert!(http_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabcd", true).is_err());
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x\r\nde\r\n0\r\n\r\n";
        assert_eq!(
            http_answer(chunked, false).unwrap(),
            (200, b"abcde".to_vec())
        );
        let cut = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab";
        assert!(http_answer(cut, true).is_err());
        let to_the_end = b"HTTP/1.0 401 No\r\n\r\nsecret";
        assert!(http_answer(to_the_end, false).is_err());
        assert_eq!(
            http_answer(to_the_end, true).unwrap(),
            (401, b"secret".to_vec())
        );
        assert!(http_answer(b"SSH-2.0\r\n\r\n", true).is_err());
    }

    #[test]
    fn encoded_as_java_does() {
        assert_eq!(form_encoded("a b/c~é*"), "a+b%2Fc%7E%C3%A9*");
        assert_eq!(
            initial_response(&Token("t.k.n".to_string())),
            b"n,,\x01auth=Bearer t.k.n\x01\x01"
        );
        assert!(!format!("{:?}", Token("t.k.n".to_string())).contains("t.k.n"));
    }

    #[test]
    fn endpoints_are_shown_without_path_or_user() {
        let invalid = |key: &str, why: &str| Error::Config {
            file: "c".to_string(),
            message: format!("{key}: {why}"),
        };
        let jaas = [
            ("clientId".to_string(), "kafkalint".to_string()),
            ("clientSecret".to_string(), "s3cret".to_string()),
        ];
        let read_url = |url: &'static str| {
            read(
                &move |key: &str| {
                    (key == "sasl.oauthbearer.token.endpoint.url").then(|| url.to_string())
                },
                &jaas,
                Path::new("."),
                &invalid,
            )
        };
        let Source::Endpoint(endpoint) = read_url("http://idp:8080/realms/x/token?a=b")
            .unwrap()
            .source
        else {
            panic!("an endpoint")
        };
        assert_eq!(endpoint.shown, "http://idp:8080");
        assert_eq!(
            (endpoint.port, endpoint.target.as_str()),
            (8080, "/realms/x/token?a=b")
        );
        assert!(!format!("{endpoint:?}").contains("s3cret"));
        let error = read_url("https://user:pw@idp/token")
            .unwrap_err()
            .to_string();
        assert!(!error.contains("pw"), "{error}");
        assert!(matches!(
            read_url("file:///run/token").unwrap().source,
            Source::File(path) if path == Path::new("/run/token")
        ));
    }
}
