//! TLS for SSL and SASL_SSL listeners (rustls, with ring): the certificates of the trust store,
//! or the system's when none is configured, TLS 1.2 and 1.3, the client's own certificate when
//! one is configured, and the broker's name checked unless
//! `ssl.endpoint.identification.algorithm` is empty, as Kafka's Java client does.

use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};

use super::Error;
use super::stores::Tls;

/// A TLS client over `tcp` for `host`, trusting the certificates of `tls` alone (the system's
/// when it names none).
pub fn wrap<Tcp: Read + Write>(
    tcp: Tcp,
    host: &str,
    tls: &Tls,
    address: &str,
) -> Result<rustls::StreamOwned<rustls::ClientConnection, Tcp>, Error> {
    let failed = |message: String| Error::Connect {
        address: address.to_string(),
        message: format!("TLS: {message}"),
    };
    let config = client_config(tls).map_err(failed)?;
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| failed(format!("`{host}` is no host name")))?;
    let connection = rustls::ClientConnection::new(Arc::new(config), name)
        .map_err(|error| failed(error.to_string()))?;
    Ok(rustls::StreamOwned::new(connection, tcp))
}

/// The rustls configuration `tls` says: roots, name check, client certificate.
pub fn client_config(tls: &Tls) -> Result<rustls::ClientConfig, String> {
    let roots = match &tls.trusted_pem {
        Some(pem) => Arc::new(configured_roots(pem)?),
        None => system_roots()?,
    };
    // rustls marks ring's provider deprecated for lacking post-quantum key exchange, which
    // Kafka's brokers (Java's TLS) offer only from JDK 24 on; aws-lc-rs, which has it, would
    // add the C build of a whole cryptography library to every build of kafkalint.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
        .build()
        .map_err(|error| error.to_string())?;
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| error.to_string())?;
    let builder = if tls.verify_host_name {
        builder.with_webpki_verifier(verifier)
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyName(verifier)))
    };
    match &tls.identity {
        None => Ok(builder.with_no_client_auth()),
        // rustls's error names what is wrong with the key (its kind), never its bytes.
        Some(identity) => builder
            .with_client_auth_cert(
                identity.certificate_chain.clone(),
                identity.private_key.clone_key(),
            )
            .map_err(|error| {
                format!(
                    "the client certificate or its key is unusable ({error}; an EC key as Java \
                     writes it lacks its public key, which `openssl ec -in KEY -out key.pem` adds)"
                )
            }),
    }
}

fn configured_roots(pem: &[u8]) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(pem) {
        let certificate =
            certificate.map_err(|error| format!("the trust store's PEM is malformed ({error})"))?;
        roots
            .add(certificate)
            .map_err(|error| format!("a trusted certificate is unusable ({error})"))?;
    }
    if roots.is_empty() {
        return Err(
            "the trust store holds no certificate (-----BEGIN CERTIFICATE-----)".to_string(),
        );
    }
    Ok(roots)
}

/// The operating system's trusted roots (on Linux the files OpenSSL reads, `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` included), read once a run: every connection of it shares them.
fn system_roots() -> Result<Arc<RootCertStore>, String> {
    static ROOTS: OnceLock<Result<Arc<RootCertStore>, String>> = OnceLock::new();
    ROOTS
        .get_or_init(|| {
            let mut roots = RootCertStore::empty();
            roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
            if roots.is_empty() {
                return Err(
                    "no trust store is configured and the system has no trusted \
                            certificates: set ssl.truststore.location (ssl.truststore.type=PEM)"
                        .to_string(),
                );
            }
            Ok(Arc::new(roots))
        })
        .clone()
}

/// `ssl.endpoint.identification.algorithm=` (empty): the chain must still lead to a trusted
/// certificate, but the name it is issued for is not checked.
#[derive(Debug)]
struct AnyName(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::NotValidForName
                | rustls::CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}
