//! The trust store and the key store of a TLS client: the certificates to trust
//! (`ssl.truststore.*`, else the system's), and the client's certificate and key, for a
//! listener with `ssl.client.auth=required` (mutual TLS), read from the keys Kafka's clients
//! take, as `DefaultSslEngineFactory.createTruststore` and `.createKeystore` read them
//! (apache/kafka,
//! clients/src/main/java/org/apache/kafka/common/security/ssl/DefaultSslEngineFactory.java, tag
//! 3.9.0): `ssl.keystore.key` with `ssl.keystore.certificate.chain` (PEM in the file, type PEM),
//! or a PEM file at `ssl.keystore.location` (type PEM) holding the key and the chain. A JKS or
//! PKCS12 key store, and an encrypted key, are refused with the command that makes a PEM one.
//!
//! The key is never shown: no error quotes the key's text, nor the PEM reader's message about
//! it (which may quote a line of it).

use std::path::{Path, PathBuf};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::Error;

#[derive(Debug, Clone)]
pub struct Tls {
    /// PEM text of the certificates to trust; `None`, when no trust store is configured: the
    /// system's trusted roots, as Kafka's Java client then trusts the JDK's (a null trust store
    /// in `DefaultSslEngineFactory.getTrustManagers`, apache/kafka
    /// clients/src/main/java/org/apache/kafka/common/security/ssl/DefaultSslEngineFactory.java,
    /// tag 3.9.0).
    pub trusted_pem: Option<Vec<u8>>,
    /// `ssl.endpoint.identification.algorithm=https` (Kafka's default since 2.0): the broker's
    /// certificate must name the host connected to. Empty turns it off.
    pub verify_host_name: bool,
    /// The client's own certificate and key, for a listener with `ssl.client.auth=required`.
    pub identity: Option<Identity>,
}

/// The certificates to trust: `ssl.truststore.certificates` (PEM in the file), or
/// `ssl.truststore.location` of type PEM, or, with neither, the system's. Java key stores (JKS,
/// PKCS12) are refused with the command that exports their certificates as PEM.
pub fn trust_store(
    get: &dyn Fn(&str) -> Option<String>,
    folder: &Path,
    invalid: &dyn Fn(&str, &str) -> Error,
) -> Result<Tls, Error> {
    let store_type = get("ssl.truststore.type").unwrap_or_else(|| "JKS".to_string());
    let verify_host_name =
        get("ssl.endpoint.identification.algorithm").is_none_or(|algorithm| !algorithm.is_empty());
    let tls = |trusted_pem| Tls {
        trusted_pem,
        verify_host_name,
        identity: None,
    };
    if let Some(pem) = get("ssl.truststore.certificates") {
        return Ok(tls(Some(pem_lines(pem.as_bytes()))));
    }
    let Some(location) = get("ssl.truststore.location") else {
        return Ok(tls(None));
    };
    if !store_type.eq_ignore_ascii_case("PEM") {
        let command = format!(
            "kafkalint reads PEM trust stores: export the CA with `keytool -exportcert -rfc -keystore {location} -alias ALIAS -file ca.pem` and set ssl.truststore.type=PEM and ssl.truststore.location=ca.pem"
        );
        return Err(invalid("ssl.truststore.type", &command));
    }
    let location = resolved(folder, &location);
    let trusted_pem = crate::source::read_file(&location).map_err(|error| {
        invalid(
            "ssl.truststore.location",
            &format!("{}: {error}", location.display()),
        )
    })?;
    Ok(tls(Some(pem_lines(&trusted_pem))))
}

/// A path of the file, relative to the file's folder when it is not absolute.
pub fn resolved(folder: &Path, location: &str) -> PathBuf {
    let location = PathBuf::from(location);
    if location.is_relative() {
        folder.join(location)
    } else {
        location
    }
}

/// A client certificate chain and its private key, decoded.
pub struct Identity {
    pub certificate_chain: Vec<CertificateDer<'static>>,
    pub private_key: PrivateKeyDer<'static>,
}

impl Clone for Identity {
    fn clone(&self) -> Identity {
        Identity {
            certificate_chain: self.certificate_chain.clone(),
            private_key: self.private_key.clone_key(),
        }
    }
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("certificates", &self.certificate_chain.len())
            .field("private_key", &"<hidden>")
            .finish()
    }
}

/// The identity the file configures, or `None` when it configures none (a listener that does
/// not ask for one).
pub fn identity(
    get: &dyn Fn(&str) -> Option<String>,
    folder: &Path,
    invalid: &dyn Fn(&str, &str) -> Error,
) -> Result<Option<Identity>, Error> {
    let store_type = get("ssl.keystore.type").unwrap_or_else(|| "JKS".to_string());
    let is_pem = store_type.eq_ignore_ascii_case("PEM");
    let key = get("ssl.keystore.key");
    let chain = get("ssl.keystore.certificate.chain");
    let location = get("ssl.keystore.location");
    if let Some(key) = key {
        if !is_pem {
            return Err(invalid(
                "ssl.keystore.key",
                "a PEM key needs ssl.keystore.type=PEM",
            ));
        }
        let chain = chain.ok_or_else(|| {
            invalid(
                "ssl.keystore.certificate.chain",
                "missing: ssl.keystore.key needs its certificate chain",
            )
        })?;
        refuse_encrypted(get, key.as_bytes(), "KEY.pem", invalid)?;
        let names = ("ssl.keystore.certificate.chain", "ssl.keystore.key");
        return decoded(chain.as_bytes(), key.as_bytes(), names, invalid).map(Some);
    }
    if chain.is_some() {
        return Err(invalid(
            "ssl.keystore.key",
            "missing: ssl.keystore.certificate.chain needs its private key",
        ));
    }
    let Some(location) = location else {
        return Ok(None);
    };
    if !is_pem {
        return Err(invalid("ssl.keystore.type", &export_command(&location)));
    }
    let path = resolved(folder, &location);
    let pem = crate::source::read_file(&path).map_err(|error| {
        invalid(
            "ssl.keystore.location",
            &format!("{}: {error}", path.display()),
        )
    })?;
    refuse_encrypted(get, &pem, &location, invalid)?;
    let names = ("ssl.keystore.location", "ssl.keystore.location");
    decoded(&pem, &pem, names, invalid).map(Some)
}

/// How to make a PEM key store of a Java one, with the configured path: PKCS12 is what
/// `openssl pkcs12` reads; a JKS store is first converted by keytool.
fn export_command(location: &str) -> String {
    format!(
        "kafkalint reads PEM key stores: `keytool -importkeystore -srckeystore {location} -destkeystore client.p12 -deststoretype PKCS12` (for JKS), then `openssl pkcs12 -in client.p12 -out client.pem -nodes`, and set ssl.keystore.type=PEM and ssl.keystore.location=client.pem"
    )
}

/// An encrypted key (`ssl.key.password`, PKCS#8 `ENCRYPTED PRIVATE KEY` or an OpenSSL
/// `Proc-Type: 4,ENCRYPTED` header): rustls reads plain keys only.
fn refuse_encrypted(
    get: &dyn Fn(&str) -> Option<String>,
    pem: &[u8],
    shown: &str,
    invalid: &dyn Fn(&str, &str) -> Error,
) -> Result<(), Error> {
    let text = String::from_utf8_lossy(pem);
    if get("ssl.key.password").is_some() || text.contains("ENCRYPTED") {
        let command = format!(
            "kafkalint reads unencrypted keys only: `openssl pkcs8 -topk8 -nocrypt -in {shown} -out client-key.pem` decrypts it (keep it readable by you alone), then drop ssl.key.password"
        );
        return Err(invalid("ssl.key.password", &command));
    }
    Ok(())
}

/// The certificates of `chain_pem` and the first private key of `key_pem`.
fn decoded(
    chain_pem: &[u8],
    key_pem: &[u8],
    (chain_name, key_name): (&str, &str),
    invalid: &dyn Fn(&str, &str) -> Error,
) -> Result<Identity, Error> {
    let chain_pem = pem_lines(chain_pem);
    let certificate_chain = CertificateDer::pem_slice_iter(&chain_pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| invalid(chain_name, "a certificate of the chain is not PEM"))?;
    if certificate_chain.is_empty() {
        return Err(invalid(
            chain_name,
            "no certificate (-----BEGIN CERTIFICATE-----) for the key",
        ));
    }
    let private_key = PrivateKeyDer::from_pem_slice(&pem_lines(key_pem)).map_err(|_| {
        invalid(
            key_name,
            "no PEM private key (-----BEGIN PRIVATE KEY-----, RSA or EC) in it",
        )
    })?;
    Ok(Identity {
        certificate_chain,
        private_key,
    })
}

/// PEM blocks with their lines: a value continued over lines of a properties file with `\`
/// loses its line breaks, and Kafka's `PemStore` still reads it (its pattern takes any
/// whitespace between the markers and the base64, `DefaultSslEngineFactory.PemParser`, tag
/// 3.9.0); rustls's reader wants lines. Text outside the blocks is dropped.
pub fn pem_lines(text: &[u8]) -> Vec<u8> {
    const BEGIN: &str = "-----BEGIN ";
    let text = String::from_utf8_lossy(text);
    let mut out = String::new();
    let mut rest = &*text;
    while let Some(start) = rest.find(BEGIN) {
        let after = &rest[start + BEGIN.len()..];
        let Some(label_end) = after.find("-----") else {
            break;
        };
        let label = &after[..label_end];
        let body = &after[label_end + 5..];
        let end = format!("-----END {label}-----");
        let Some(body_end) = body.find(&end) else {
            break;
        };
        let base64: Vec<char> = body[..body_end]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        out.push_str(&format!("{BEGIN}{label}-----\n"));
        for line in base64.chunks(64) {
            out.extend(line);
            out.push('\n');
        }
        out.push_str(&end);
        out.push('\n');
        rest = &body[body_end + end.len()..];
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pem_on_one_line_gets_its_lines_back() {
        let one_line = "-----BEGIN CERTIFICATE----- QUJD REVG -----END CERTIFICATE----- \
                        -----BEGIN PRIVATE KEY----- R0hJ -----END PRIVATE KEY-----";
        assert_eq!(
            String::from_utf8(pem_lines(one_line.as_bytes())).unwrap(),
            "-----BEGIN CERTIFICATE-----\nQUJDREVG\n-----END CERTIFICATE-----\n\
             -----BEGIN PRIVATE KEY-----\nR0hJ\n-----END PRIVATE KEY-----\n"
        );
        let long = format!("-----BEGIN X-----\n{}\n-----END X-----\n", "A".repeat(100));
        let lines = String::from_utf8(pem_lines(long.as_bytes())).unwrap();
        assert_eq!(
            lines.lines().map(str::len).collect::<Vec<_>>(),
            [17, 64, 36, 15]
        );
    }

    #[test]
    fn a_key_is_never_in_an_error_or_debug() {
        let invalid = |key: &str, why: &str| Error::Config {
            file: "client.properties".to_string(),
            message: format!("{key}: {why}"),
        };
        let secret =
            "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----";
        let chain = "-----BEGIN CERTIFICATE-----\n!!notbase64-secret!!\n-----END CERTIFICATE-----";
        let get = |key: &str| match key {
            "ssl.keystore.type" => Some("PEM".to_string()),
            "ssl.keystore.key" => Some(secret.to_string()),
            "ssl.keystore.certificate.chain" => Some(chain.to_string()),
            _ => None,
        };
        let error = identity(&get, Path::new("."), &invalid)
            .unwrap_err()
            .to_string();
        assert!(
            !error.contains("c2VjcmV0") && !error.contains("secret"),
            "{error}"
        );
        assert!(error.contains("ssl.keystore.certificate.chain"), "{error}");
    }
}
