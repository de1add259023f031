//! TLS for SSL and SASL_SSL listeners (rustls, with ring): the certificates of the trust store
//! only, TLS 1.2 and 1.3, and the broker's name checked unless
//! `ssl.endpoint.identification.algorithm` is empty, as Kafka's Java client does.

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};

use super::Error;
use super::client_config::Tls;

/// A TLS client over `tcp` for `host`, trusting the certificates of `tls` alone.
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
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(&tls.trusted_pem) {
        let certificate = certificate
            .map_err(|error| failed(format!("the trust store's PEM is malformed ({error})")))?;
        roots
            .add(certificate)
            .map_err(|error| failed(format!("a trusted certificate is unusable ({error})")))?;
    }
    if roots.is_empty() {
        return Err(failed(
            "the trust store holds no certificate (-----BEGIN CERTIFICATE-----)".to_string(),
        ));
    }
    // rustls marks ring's provider deprecated for lacking post-quantum key exchange, which
    // Kafka's brokers (Java's TLS) offer only from JDK 24 on; aws-lc-rs, which has it, would
    // add the C build of a whole cryptography library to every build of kafkalint.
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .map_err(|error| failed(error.to_string()))?;
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| failed(error.to_string()))?;
    let config = if tls.verify_host_name {
        builder.with_webpki_verifier(verifier).with_no_client_auth()
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyName(verifier)))
            .with_no_client_auth()
    };
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| failed(format!("`{host}` is no host name")))?;
    let connection = rustls::ClientConnection::new(Arc::new(config), name)
        .map_err(|error| failed(error.to_string()))?;
    Ok(rustls::StreamOwned::new(connection, tcp))
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
