//! One connection to one broker: TCP (and TLS), the size-prefixed frames of Kafka's protocol,
//! ApiVersions negotiation, SASL. Blocking, with every name look-up, connect, read and write
//! bounded by what is left of the run's one deadline, and every reply's size by what is left of
//! the run's answer bound ([`Run`]); read-only requests alone are ever built (`super::gather`).
//!
//! A server's text (error messages, SASL errors, the mechanisms it lists) is never shown: it
//! may carry anything, the PLAIN password it was just sent included. Kafka's name and standard
//! message for the error code are shown instead (`super::kafka_errors`).

use std::io::{Read, Write};

use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, RequestHeader, SaslAuthenticateRequest,
    SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
};
use kafka_protocol::protocol::{
    Decodable, Encodable, Message, StrBytes, encode_request_header_into_buffer,
};

use super::Error;
use super::client_config::{ClientConfig, Login, Mechanism};
use super::transport::{Run, Timed, connect};

/// A frame larger than this is no Kafka answer to what kafkalint asks (the first bytes of an
/// HTTP or TLS reply read as a size are larger): refused before anything is allocated. A
/// smaller one still counts against the run's answer bound ([`Run`]) before it is read.
const LARGEST_FRAME: usize = 256 << 20;

/// A reply is read a piece at a time, its buffer growing with the bytes that came (at most
/// doubling): a size said and not sent holds no memory.
const FIRST_PIECE: usize = 64 << 10;

/// What kafkalint sends as its client id and software name (KIP-511).
const CLIENT_ID: &str = "kafkalint";

enum Stream {
    Plain(Timed),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, Timed>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(stream) => stream.read(buf),
            Stream::Tls(stream) => stream.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Plain(stream) => stream.write(buf),
            Stream::Tls(stream) => stream.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Plain(stream) => stream.flush(),
            Stream::Tls(stream) => stream.flush(),
        }
    }
}

pub struct Connection<'run> {
    stream: Stream,
    /// `host:port`, for messages.
    pub address: String,
    correlation_id: i32,
    /// The versions the broker supports, by API key.
    versions: Vec<(i16, i16, i16)>,
    run: &'run Run,
}

impl<'run> Connection<'run> {
    /// Connects to `host:port`, negotiates versions and logs in as `config` says, within what
    /// is left of `run`'s deadline.
    pub fn open(
        host: &str,
        port: u16,
        config: &ClientConfig,
        run: &'run Run,
    ) -> Result<Connection<'run>, Error> {
        let address = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let tcp = connect(host, port, run).map_err(|message| Error::Connect {
            address: address.clone(),
            message,
        })?;
        let stream = match &config.tls {
            Some(tls) => Stream::Tls(Box::new(super::tls::wrap(tcp, host, tls, &address)?)),
            None => Stream::Plain(tcp),
        };
        let mut connection = Connection {
            stream,
            address,
            correlation_id: 0,
            versions: Vec::new(),
            run,
        };
        connection.negotiate()?;
        if let Some(sasl) = &config.sasl {
            connection.authenticate(sasl)?;
        }
        Ok(connection)
    }

    /// ApiVersions (v3, which names the client; a broker that only knows older versions
    /// answers v0 with its range, KIP-511): what the broker supports.
    fn negotiate(&mut self) -> Result<(), Error> {
        let request = ApiVersionsRequest::default()
            .with_client_software_name(StrBytes::from_static_str(CLIENT_ID))
            .with_client_software_version(StrBytes::from_static_str(env!("CARGO_PKG_VERSION")));
        let mut version = 3;
        let response: ApiVersionsResponse = loop {
            let response = self.api_versions(version, &request)?;
            if response.error_code == 35 && version > 0 {
                version = response
                    .api_keys
                    .iter()
                    .find(|key| key.api_key == ApiKey::ApiVersions as i16)
                    .map_or(0, |key| key.max_version.min(version - 1));
                continue;
            }
            break response;
        };
        if response.error_code != 0 {
            return Err(self.refused("ApiVersions", response.error_code));
        }
        self.versions = response
            .api_keys
            .iter()
            .map(|key| (key.api_key, key.min_version, key.max_version))
            .collect();
        Ok(())
    }

    /// One ApiVersions exchange at `version`. A broker that does not know that version answers
    /// UNSUPPORTED_VERSION in version 0's format, which Kafka's client reads by decoding again
    /// at version 0 (`ApiVersionsResponse.parse`, apache/kafka
    /// clients/src/main/java/org/apache/kafka/common/requests/ApiVersionsResponse.java, tag
    /// 3.9.0). From 2.4 on (KIP-511) such an answer lists the ApiVersions versions the broker
    /// has, and is read at the version asked; one that is only readable at version 0 comes from
    /// a broker before 2.4, whose requests kafkalint does not speak.
    fn api_versions(
        &mut self,
        version: i16,
        request: &ApiVersionsRequest,
    ) -> Result<ApiVersionsResponse, Error> {
        let frame = self.send(ApiKey::ApiVersions, version, request)?;
        let error = match self.decoded(ApiKey::ApiVersions, version, frame.clone()) {
            Ok(response) => return Ok(response),
            Err(error) => error,
        };
        match self.decoded::<ApiVersionsResponse>(ApiKey::ApiVersions, 0, frame) {
            Ok(old) if version > 0 && old.error_code == 35 => Err(self.protocol(
                "the broker runs a Kafka release before 2.4 (it answered ApiVersions in the \
                 old format): kafkalint live supports Kafka 2.8 and later"
                    .to_string(),
            )),
            _ => Err(error),
        }
    }

    /// SaslHandshake, then SaslAuthenticate rounds (KIP-152).
    fn authenticate(&mut self, sasl: &super::client_config::Sasl) -> Result<(), Error> {
        let handshake = SaslHandshakeRequest::default()
            .with_mechanism(StrBytes::from_static_str(sasl.mechanism.name()));
        let (_, response): (_, SaslHandshakeResponse) =
            self.call(ApiKey::SaslHandshake, &handshake, 1)?;
        if response.error_code != 0 {
            return Err(Error::Auth {
                address: self.address.clone(),
                message: format!(
                    "the listener does not take {} (it takes {})",
                    sasl.mechanism.name(),
                    mechanisms_named(&response.mechanisms)
                ),
            });
        }
        match &sasl.login {
            Login::Password(credentials) => self.password_login(sasl.mechanism, credentials),
            Login::Token(source) => self.token_login(source),
        }
    }

    /// PLAIN (RFC 4616) or SCRAM (RFC 5802) with the JAAS line's user and password.
    fn password_login(
        &mut self,
        mechanism: Mechanism,
        credentials: &super::client_config::Credentials,
    ) -> Result<(), Error> {
        let who = format!("user `{}`", credentials.username);
        let auth_error = |address: &str, message: String| Error::Auth {
            address: address.to_string(),
            message: format!("{who}: {message}"),
        };
        let hash = match mechanism {
            Mechanism::ScramSha256 => super::scram::Hash::Sha256,
            Mechanism::ScramSha512 => super::scram::Hash::Sha512,
            _ => {
                let mut token = vec![0u8];
                token.extend_from_slice(credentials.username.as_bytes());
                token.push(0);
                token.extend_from_slice(credentials.password.as_bytes());
                self.sasl_round(token, &who)?;
                return Ok(());
            }
        };
        let (mut scram, first) =
            super::scram::Scram::start(hash, &credentials.username, &credentials.password)
                .map_err(|message| auth_error(&self.address, message))?;
        let server_first = self.sasl_round(first, &who)?;
        let last = scram
            .answer(&server_first)
            .map_err(|message| auth_error(&self.address, message))?;
        let server_final = self.sasl_round(last, &who)?;
        scram
            .finish(&server_final)
            .map_err(|message| auth_error(&self.address, message))
    }

    /// OAUTHBEARER (RFC 7628) with the run's one token. A broker that refuses the token
    /// answers with an error challenge (JSON, not shown), to which the client sends a lone
    /// 0x01 and the broker then fails the login with its error code
    /// (`OAuthBearerSaslClient`, `OAuthBearerSaslServer`, apache/kafka tag 3.9.0).
    fn token_login(&mut self, source: &super::oauth::ClientCredentials) -> Result<(), Error> {
        let token = source.token(self.run).map_err(|message| Error::Login {
            address: self.address.clone(),
            message: format!("no OAUTHBEARER token: {message}"),
        })?;
        let who = "the OAUTHBEARER token";
        let challenge = self.sasl_round(super::oauth::initial_response(token), who)?;
        if !challenge.is_empty() {
            self.sasl_round(vec![1], who)?;
            return Err(Error::Auth {
                address: self.address.clone(),
                message: format!("{who}: refused (its error challenge is not shown)"),
            });
        }
        Ok(())
    }

    /// One SaslAuthenticate round; `who` names the login in an error.
    fn sasl_round(&mut self, token: Vec<u8>, who: &str) -> Result<Vec<u8>, Error> {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(token.into());
        let (_, response): (_, SaslAuthenticateResponse) =
            self.call(ApiKey::SaslAuthenticate, &request, 2)?;
        if response.error_code != 0 {
            // The server's error message is not shown: it may echo the token (a PLAIN
            // token holds the password).
            return Err(Error::Auth {
                address: self.address.clone(),
                message: format!("{who}: {}", kafka_error(response.error_code)),
            });
        }
        Ok(response.auth_bytes.to_vec())
    }

    /// The version both sides speak of `key`, at most `highest`; `None` when there is none.
    pub fn version<Request: Message>(&self, key: ApiKey, highest: i16) -> Option<i16> {
        let (_, min, max) = self
            .versions
            .iter()
            .find(|(api_key, _, _)| *api_key == key as i16)?;
        let top = (*max).min(Request::VERSIONS.max).min(highest);
        let bottom = (*min).max(Request::VERSIONS.min);
        (top >= bottom).then_some(top)
    }

    /// Sends `request` at the highest common version (at most `highest`) and reads its answer.
    pub fn call<Request: Encodable + Message, Response: Decodable>(
        &mut self,
        key: ApiKey,
        request: &Request,
        highest: i16,
    ) -> Result<(i16, Response), Error> {
        let version = self
            .version::<Request>(key, highest)
            .ok_or_else(|| Error::Protocol {
                address: self.address.clone(),
                message: format!(
                    "the broker speaks no version of {key:?} that kafkalint speaks (Kafka 2.8 or later is needed)"
                ),
            })?;
        Ok((version, self.exchange(key, version, request)?))
    }

    /// One request and its response, at `version`.
    fn exchange<Request: Encodable, Response: Decodable>(
        &mut self,
        key: ApiKey,
        version: i16,
        request: &Request,
    ) -> Result<Response, Error> {
        let frame = self.send(key, version, request)?;
        self.decoded(key, version, frame)
    }

    /// A reply's frame, read as `key`'s response at `version`, and answering the last request.
    fn decoded<Response: Decodable>(
        &self,
        key: ApiKey,
        version: i16,
        frame: bytes::Bytes,
    ) -> Result<Response, Error> {
        let (correlation_id, response) =
            super::wire::decode(key, version, frame).map_err(|why| self.protocol(why))?;
        if correlation_id != self.correlation_id {
            return Err(self.protocol(
                "it does not answer as a Kafka broker (a reply to another request)".to_string(),
            ));
        }
        Ok(response)
    }

    /// Sends one request at `version` and reads the frame of its reply.
    fn send<Request: Encodable>(
        &mut self,
        key: ApiKey,
        version: i16,
        request: &Request,
    ) -> Result<bytes::Bytes, Error> {
        self.correlation_id += 1;
        let header = RequestHeader::default()
            .with_request_api_key(key as i16)
            .with_request_api_version(version)
            .with_correlation_id(self.correlation_id)
            .with_client_id(Some(StrBytes::from_static_str(CLIENT_ID)));
        let mut frame = bytes::BytesMut::new();
        frame.extend_from_slice(&[0; 4]);
        let encoded = encode_request_header_into_buffer(&mut frame, &header)
            .and_then(|()| request.encode(&mut frame, version));
        encoded.map_err(|error| self.protocol(format!("cannot encode {key:?}: {error}")))?;
        let size = (frame.len() - 4) as u32;
        frame[..4].copy_from_slice(&size.to_be_bytes());
        self.stream
            .write_all(&frame)
            .and_then(|()| self.stream.flush())
            .map_err(|error| self.io_error(error))?;
        let mut size = [0u8; 4];
        self.stream
            .read_exact(&mut size)
            .map_err(|error| self.io_error(error))?;
        let first = size;
        let size = u32::from_be_bytes(size) as usize;
        if !(4..=LARGEST_FRAME).contains(&size) {
            // A TLS record (alert or handshake, version 3.x) or an HTTP status line, read as a size.
            let speaks = match first {
                [0x15 | 0x16, 0x03, ..] => {
                    " (it speaks TLS: set security.protocol=SSL or SASL_SSL with --command-config)"
                }
                [b'H', b'T', b'T', b'P'] => " (it speaks HTTP)",
                _ => "",
            };
            return Err(self.protocol(format!(
                "it does not answer as a Kafka broker{speaks}: a reply of {size} bytes to {key:?}"
            )));
        }
        if let Err(answered) = self.run.admit(size) {
            return Err(Error::AnswerLimit {
                address: self.address.clone(),
                message: format!(
                    "a {key:?} reply of {size} bytes, after {answered} bytes of replies, passes \
                     what one run reads (--max-answer-mib {}; raise it for a cluster this large)",
                    self.run.max_answer_mib()
                ),
            });
        }
        let mut body = Vec::new();
        while body.len() < size {
            let piece = (size - body.len()).min(body.len().max(FIRST_PIECE));
            let start = body.len();
            body.reserve_exact(piece);
            body.resize(start + piece, 0);
            let read = self.stream.read(&mut body[start..]);
            let read = match read {
                Ok(0) => Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(read) => Ok(read),
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => Ok(0),
                Err(error) => Err(error),
            }
            .map_err(|error| self.io_error(error))?;
            body.truncate(start + read);
        }
        Ok(bytes::Bytes::from(body))
    }

    fn protocol(&self, message: String) -> Error {
        Error::Protocol {
            address: self.address.clone(),
            message,
        }
    }

    fn io_error(&self, error: std::io::Error) -> Error {
        use std::io::ErrorKind;
        let message = match error.kind() {
            ErrorKind::WouldBlock | ErrorKind::TimedOut => self.run.too_late(),
            ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset | ErrorKind::BrokenPipe => {
                self.closed_why().to_string()
            }
            _ => match error
                .get_ref()
                .and_then(|e| e.downcast_ref::<rustls::Error>())
            {
                Some(tls) => format!("TLS: {tls}"),
                None => error.to_string(),
            },
        };
        Error::Connect {
            address: self.address.clone(),
            message,
        }
    }

    /// The broker hung up: which listener kinds it may be, seen from the side kafkalint
    /// speaks. A PLAINTEXT listener reads a TLS ClientHello's first bytes as a size of about
    /// 369 MB and closes the connection (`NetworkReceive`, `socket.request.max.bytes`); a SASL
    /// listener closes it on a request other than ApiVersions before the login
    /// (`SaslServerAuthenticator`); a TLS listener reached without TLS answers a TLS alert,
    /// said where the reply is read.
    fn closed_why(&self) -> &'static str {
        match self.stream {
            Stream::Tls(_) => {
                "the broker closed the connection (a PLAINTEXT or SASL_PLAINTEXT listener \
                 reached over TLS, or a port that is no Kafka listener? --command-config sets \
                 security.protocol)"
            }
            Stream::Plain(_) => {
                "the broker closed the connection (a TLS or SASL listener reached as \
                 PLAINTEXT, or a port that is no Kafka listener? --command-config sets \
                 security.protocol)"
            }
        }
    }

    /// An error code in a reply, as one line: Kafka's name and message for it, never the
    /// server's own text.
    pub fn refused(&self, request: &str, code: i16) -> Error {
        Error::Refused {
            address: self.address.clone(),
            message: format!("{request}: {}", kafka_error(code)),
        }
    }
}

/// The SASL mechanisms a listener offers, as Kafka names them; a name Kafka does not have is
/// counted, not shown (the list is the server's text).
fn mechanisms_named(offered: &[StrBytes]) -> String {
    // Kafka's SaslConfigs and the mechanisms its brokers ship (GSSAPI, PLAIN, SCRAM,
    // OAUTHBEARER).
    const KNOWN: [&str; 5] = [
        "GSSAPI",
        "PLAIN",
        "SCRAM-SHA-256",
        "SCRAM-SHA-512",
        "OAUTHBEARER",
    ];
    let mut named: Vec<&str> = offered
        .iter()
        .filter_map(|mechanism| KNOWN.iter().find(|known| **known == mechanism.as_str()))
        .copied()
        .collect();
    let others = offered.len() - named.len();
    let others = match others {
        0 => String::new(),
        1 => "1 other".to_string(),
        n => format!("{n} others"),
    };
    if !others.is_empty() {
        named.push(&others);
    }
    if named.is_empty() {
        "none".to_string()
    } else {
        named.join(", ")
    }
}

/// Kafka's name and standard message of an error code, with the code (the `Errors` enum,
/// `super::kafka_errors`); a code it does not name, by number.
pub fn kafka_error(code: i16) -> String {
    match super::kafka_errors::ERRORS.binary_search_by_key(&code, |(code, _, _)| *code) {
        Ok(index) => {
            let (_, name, message) = super::kafka_errors::ERRORS[index];
            format!("{name} (error {code}): {message}")
        }
        Err(_) => format!("error {code}"),
    }
}

/// Kafka's name of an error code, when it has one.
pub fn code_name(code: i16) -> Option<&'static str> {
    super::kafka_errors::ERRORS
        .binary_search_by_key(&code, |(code, _, _)| *code)
        .ok()
        .map(|index| super::kafka_errors::ERRORS[index].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is in code order with each code once (the look-up is a binary search), and
    /// names the codes kafkalint's requests meet.
    #[test]
    fn kafkas_errors_by_code() {
        let codes: Vec<i16> = super::super::kafka_errors::ERRORS
            .iter()
            .map(|(code, _, _)| *code)
            .collect();
        assert!(codes.windows(2).all(|pair| pair[0] < pair[1]));
        assert_eq!(
            kafka_error(58),
            "SASL_AUTHENTICATION_FAILED (error 58): SASL Authentication failed."
        );
        assert_eq!(code_name(16), Some("NOT_COORDINATOR"));
        assert_eq!(kafka_error(31000), "error 31000");
    }

    #[test]
    fn only_kafkas_mechanisms_are_named() {
        let offered = |names: &[&str]| -> Vec<StrBytes> {
            names
                .iter()
                .map(|name| StrBytes::from_string(name.to_string()))
                .collect()
        };
        assert_eq!(
            mechanisms_named(&offered(&["PLAIN", "SCRAM-SHA-512"])),
            "PLAIN, SCRAM-SHA-512"
        );
        assert_eq!(
            mechanisms_named(&offered(&["secret\n::x", "GSSAPI", "plain"])),
            "GSSAPI, 2 others"
        );
        assert_eq!(mechanisms_named(&[]), "none");
    }
}
