//! One connection to one broker: TCP (and TLS), the size-prefixed frames of Kafka's protocol,
//! ApiVersions negotiation, SASL. Blocking, with every connect, read and write bounded by the
//! timeout; read-only requests alone are ever built (`super::gather`).

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use kafka_protocol::messages::{
    ApiKey, ApiVersionsRequest, ApiVersionsResponse, RequestHeader, SaslAuthenticateRequest,
    SaslAuthenticateResponse, SaslHandshakeRequest, SaslHandshakeResponse,
};
use kafka_protocol::protocol::{
    Decodable, Encodable, Message, StrBytes, encode_request_header_into_buffer,
};

use super::Error;
use super::client_config::{ClientConfig, Mechanism};

/// A frame larger than this is no Kafka answer to what kafkalint asks (the first bytes of an
/// HTTP or TLS reply read as a size are larger): refused before anything is allocated.
const LARGEST_FRAME: usize = 256 << 20;

/// What kafkalint sends as its client id and software name (KIP-511).
const CLIENT_ID: &str = "kafkalint";

enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
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

pub struct Connection {
    stream: Stream,
    /// `host:port`, for messages.
    pub address: String,
    correlation_id: i32,
    /// The versions the broker supports, by API key.
    versions: Vec<(i16, i16, i16)>,
    timeout: Duration,
}

impl Connection {
    /// Connects to `host:port`, negotiates versions and logs in as `config` says.
    pub fn open(
        host: &str,
        port: u16,
        config: &ClientConfig,
        timeout: Duration,
    ) -> Result<Connection, Error> {
        let address = if host.contains(':') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let connect_error = |message: String| Error::Connect {
            address: address.clone(),
            message,
        };
        let addresses: Vec<_> = (host, port)
            .to_socket_addrs()
            .map_err(|error| connect_error(format!("cannot resolve the host ({error})")))?
            .collect();
        let mut last_error = None;
        let mut tcp = None;
        for socket_address in &addresses {
            match TcpStream::connect_timeout(socket_address, timeout) {
                Ok(stream) => {
                    tcp = Some(stream);
                    break;
                }
                Err(error) => last_error = Some(error),
            }
        }
        let tcp = tcp.ok_or_else(|| {
            connect_error(match last_error {
                Some(error) if error.kind() == std::io::ErrorKind::TimedOut => {
                    format!("no answer within {} s", timeout.as_secs())
                }
                Some(error) => error.to_string(),
                None => "the host has no address".to_string(),
            })
        })?;
        let _ = tcp.set_nodelay(true);
        tcp.set_read_timeout(Some(timeout))
            .and_then(|()| tcp.set_write_timeout(Some(timeout)))
            .map_err(|error| connect_error(error.to_string()))?;
        let stream = match &config.tls {
            Some(tls) => Stream::Tls(Box::new(super::tls::wrap(tcp, host, tls, &address)?)),
            None => Stream::Plain(tcp),
        };
        let mut connection = Connection {
            stream,
            address,
            correlation_id: 0,
            versions: Vec::new(),
            timeout,
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
            let response: ApiVersionsResponse =
                self.exchange(ApiKey::ApiVersions, version, &request)?;
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
            return Err(self.refused("ApiVersions", response.error_code, None));
        }
        self.versions = response
            .api_keys
            .iter()
            .map(|key| (key.api_key, key.min_version, key.max_version))
            .collect();
        Ok(())
    }

    /// SaslHandshake, then SaslAuthenticate rounds (KIP-152).
    fn authenticate(&mut self, sasl: &super::client_config::Sasl) -> Result<(), Error> {
        let handshake = SaslHandshakeRequest::default()
            .with_mechanism(StrBytes::from_static_str(sasl.mechanism.name()));
        let (_, response): (_, SaslHandshakeResponse) =
            self.call(ApiKey::SaslHandshake, &handshake, 1)?;
        if response.error_code != 0 {
            let offered: Vec<&str> = response.mechanisms.iter().map(|m| m.as_str()).collect();
            return Err(Error::Auth {
                address: self.address.clone(),
                message: format!(
                    "the listener does not take {} (it takes {})",
                    sasl.mechanism.name(),
                    if offered.is_empty() {
                        "none".to_string()
                    } else {
                        offered.join(", ")
                    }
                ),
            });
        }
        let credentials = &sasl.credentials;
        let auth_error = |address: &str, message: String| Error::Auth {
            address: address.to_string(),
            message: format!("user `{}`: {message}", credentials.username),
        };
        match sasl.mechanism {
            Mechanism::Plain => {
                let mut token = vec![0u8];
                token.extend_from_slice(credentials.username.as_bytes());
                token.push(0);
                token.extend_from_slice(credentials.password.as_bytes());
                self.sasl_round(token, &credentials.username)?;
            }
            Mechanism::ScramSha256 | Mechanism::ScramSha512 => {
                let hash = if sasl.mechanism == Mechanism::ScramSha256 {
                    super::scram::Hash::Sha256
                } else {
                    super::scram::Hash::Sha512
                };
                let (mut scram, first) =
                    super::scram::Scram::start(hash, &credentials.username, &credentials.password)
                        .map_err(|message| auth_error(&self.address, message))?;
                let server_first = self.sasl_round(first, &credentials.username)?;
                let last = scram
                    .answer(&server_first)
                    .map_err(|message| auth_error(&self.address, message))?;
                let server_final = self.sasl_round(last, &credentials.username)?;
                scram
                    .finish(&server_final)
                    .map_err(|message| auth_error(&self.address, message))?;
            }
        }
        Ok(())
    }

    fn sasl_round(&mut self, token: Vec<u8>, username: &str) -> Result<Vec<u8>, Error> {
        let request = SaslAuthenticateRequest::default().with_auth_bytes(token.into());
        let (_, response): (_, SaslAuthenticateResponse) =
            self.call(ApiKey::SaslAuthenticate, &request, 2)?;
        if response.error_code != 0 {
            return Err(Error::Auth {
                address: self.address.clone(),
                message: format!(
                    "user `{username}`: {}",
                    response
                        .error_message
                        .as_ref()
                        .map_or("authentication failed", |m| m.as_str())
                ),
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
        let mut body = vec![0u8; size];
        self.stream
            .read_exact(&mut body)
            .map_err(|error| self.io_error(error))?;
        let mut body = bytes::Bytes::from(body);
        let header_version = key.response_header_version(version);
        let response_header =
            kafka_protocol::messages::ResponseHeader::decode(&mut body, header_version)
                .map_err(|error| self.protocol(format!("a malformed {key:?} reply ({error})")))?;
        if response_header.correlation_id != self.correlation_id {
            return Err(self.protocol(
                "it does not answer as a Kafka broker (a reply to another request)".to_string(),
            ));
        }
        Response::decode(&mut body, version)
            .map_err(|error| self.protocol(format!("a malformed {key:?} reply ({error})")))
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
            ErrorKind::WouldBlock | ErrorKind::TimedOut => {
                format!("no answer within {} s", self.timeout.as_secs())
            }
            ErrorKind::UnexpectedEof | ErrorKind::ConnectionReset | ErrorKind::BrokenPipe => {
                "the broker closed the connection (a TLS or SASL listener reached as PLAINTEXT, \
                 or a port that is no Kafka listener? --command-config sets security.protocol)"
                    .to_string()
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

    /// An error code in a reply, as one line.
    pub fn refused(&self, request: &str, code: i16, message: Option<&StrBytes>) -> Error {
        Error::Refused {
            address: self.address.clone(),
            message: format!(
                "{request}: {}{}",
                error_name(code),
                message
                    .map(|m| format!(" ({})", m.as_str()))
                    .unwrap_or_default()
            ),
        }
    }
}

/// Kafka's name for the error codes kafkalint's requests can meet (`Errors.java`), with the
/// code.
pub fn error_name(code: i16) -> String {
    match code_name(code) {
        Some(name) => format!("{name} (error {code})"),
        None => format!("error {code}"),
    }
}

/// Kafka's name of an error code, when kafkalint knows it.
pub fn code_name(code: i16) -> Option<&'static str> {
    Some(match code {
        3 => "UNKNOWN_TOPIC_OR_PARTITION",
        14 => "COORDINATOR_LOAD_IN_PROGRESS",
        15 => "COORDINATOR_NOT_AVAILABLE",
        16 => "NOT_COORDINATOR",
        29 => "TOPIC_AUTHORIZATION_FAILED",
        30 => "GROUP_AUTHORIZATION_FAILED",
        31 => "CLUSTER_AUTHORIZATION_FAILED",
        33 => "UNSUPPORTED_SASL_MECHANISM",
        34 => "ILLEGAL_SASL_STATE",
        35 => "UNSUPPORTED_VERSION",
        58 => "SASL_AUTHENTICATION_FAILED",
        _ => return None,
    })
}
