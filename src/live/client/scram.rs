//! The client side of SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677) as Kafka's
//! `ScramSaslClient` speaks it: no channel binding (`n,,`), the user name escaped (`=2C`,
//! `=3D`), the server's signature checked before the session is trusted.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use ring::{digest, hmac, pbkdf2};

/// Kafka's `ScramMechanism` refuses fewer iterations (its `minIterations`); many more would be a
/// server making the client spin.
const ITERATIONS: std::ops::RangeInclusive<u32> = 4096..=1_000_000;

#[derive(Clone, Copy)]
pub enum Hash {
    Sha256,
    Sha512,
}

impl Hash {
    fn pbkdf2(self) -> pbkdf2::Algorithm {
        match self {
            Hash::Sha256 => pbkdf2::PBKDF2_HMAC_SHA256,
            Hash::Sha512 => pbkdf2::PBKDF2_HMAC_SHA512,
        }
    }

    fn hmac(self) -> hmac::Algorithm {
        match self {
            Hash::Sha256 => hmac::HMAC_SHA256,
            Hash::Sha512 => hmac::HMAC_SHA512,
        }
    }

    fn digest(self) -> &'static digest::Algorithm {
        match self {
            Hash::Sha256 => &digest::SHA256,
            Hash::Sha512 => &digest::SHA512,
        }
    }

    fn len(self) -> usize {
        self.digest().output_len()
    }
}

/// One exchange, from the client's first message to checking the server's last.
pub struct Scram {
    hash: Hash,
    password: String,
    client_first_bare: String,
    nonce: String,
    /// The server's signature the final message must carry, once the proof is sent.
    expected_server_signature: Option<Vec<u8>>,
}

impl Scram {
    /// The exchange for `username` with a fresh random nonce, and the client's first message.
    pub fn start(hash: Hash, username: &str, password: &str) -> Result<(Scram, Vec<u8>), String> {
        let mut random = [0u8; 24];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut random)
            .map_err(|_| "no random numbers for the SCRAM nonce".to_string())?;
        Ok(Scram::start_with_nonce(
            hash,
            username,
            password,
            &STANDARD.encode(random),
        ))
    }

    fn start_with_nonce(
        hash: Hash,
        username: &str,
        password: &str,
        nonce: &str,
    ) -> (Scram, Vec<u8>) {
        let name = username.replace('=', "=3D").replace(',', "=2C");
        let client_first_bare = format!("n={name},r={nonce}");
        let first = format!("n,,{client_first_bare}").into_bytes();
        let scram = Scram {
            hash,
            password: password.to_string(),
            client_first_bare,
            nonce: nonce.to_string(),
            expected_server_signature: None,
        };
        (scram, first)
    }

    /// The client's final message (with its proof), from the server's first.
    pub fn answer(&mut self, server_first: &[u8]) -> Result<Vec<u8>, String> {
        let server_first = std::str::from_utf8(server_first)
            .map_err(|_| "the server's SCRAM message is not UTF-8".to_string())?;
        let field = |name: char| {
            server_first
                .split(',')
                .find_map(|part| part.strip_prefix(name)?.strip_prefix('='))
        };
        if let Some(error) = field('e') {
            return Err(format!(
                "the broker refused the SCRAM exchange ({})",
                server_error(error)
            ));
        }
        let nonce = field('r').ok_or("the server's SCRAM message has no nonce")?;
        if !nonce.starts_with(&self.nonce) || nonce.len() == self.nonce.len() {
            return Err("the server's SCRAM nonce does not extend the client's".to_string());
        }
        let salt = field('s')
            .and_then(|salt| STANDARD.decode(salt).ok())
            .ok_or("the server's SCRAM message has no salt")?;
        let iterations: u32 = field('i')
            .and_then(|i| i.parse().ok())
            .filter(|i| ITERATIONS.contains(i))
            .ok_or("the server's SCRAM iteration count is missing or out of range")?;
        let mut salted = vec![0u8; self.hash.len()];
        pbkdf2::derive(
            self.hash.pbkdf2(),
            std::num::NonZeroU32::new(iterations).expect("at least 4096"),
            &salt,
            self.password.as_bytes(),
            &mut salted,
        );
        let salted_key = hmac::Key::new(self.hash.hmac(), &salted);
        let client_key = hmac::sign(&salted_key, b"Client Key");
        let stored_key = digest::digest(self.hash.digest(), client_key.as_ref());
        let without_proof = format!("c=biws,r={nonce}");
        let auth_message = format!("{},{server_first},{without_proof}", self.client_first_bare);
        let client_signature = hmac::sign(
            &hmac::Key::new(self.hash.hmac(), stored_key.as_ref()),
            auth_message.as_bytes(),
        );
        let proof: Vec<u8> = client_key
            .as_ref()
            .iter()
            .zip(client_signature.as_ref())
            .map(|(a, b)| a ^ b)
            .collect();
        let server_key = hmac::sign(&salted_key, b"Server Key");
        let server_signature = hmac::sign(
            &hmac::Key::new(self.hash.hmac(), server_key.as_ref()),
            auth_message.as_bytes(),
        );
        self.expected_server_signature = Some(server_signature.as_ref().to_vec());
        Ok(format!("{without_proof},p={}", STANDARD.encode(proof)).into_bytes())
    }

    /// Checks the server's final message: its signature proves it knows the password too.
    pub fn finish(&self, server_final: &[u8]) -> Result<(), String> {
        let text = std::str::from_utf8(server_final).unwrap_or("");
        if let Some(error) = text.strip_prefix("e=") {
            return Err(format!(
                "the broker refused the SCRAM proof ({})",
                server_error(error)
            ));
        }
        let signature = text
            .split(',')
            .find_map(|part| part.strip_prefix("v="))
            .and_then(|v| STANDARD.decode(v).ok());
        match (&self.expected_server_signature, signature) {
            (Some(expected), Some(signature)) if *expected == signature => Ok(()),
            _ => Err("the broker's SCRAM signature is wrong: it does not know the password".into()),
        }
    }
}

/// A SCRAM `e=` error as RFC 5802 (section 7, `server-error-value`) names it; other text,
/// which is the server's own, is not shown.
fn server_error(error: &str) -> &'static str {
    const NAMED: [&str; 11] = [
        "invalid-encoding",
        "extensions-not-supported",
        "invalid-proof",
        "channel-bindings-dont-match",
        "server-does-support-channel-binding",
        "channel-binding-not-supported",
        "unsupported-channel-binding-type",
        "unknown-user",
        "invalid-username-encoding",
        "no-resources",
        "other-error",
    ];
    NAMED
        .iter()
        .find(|named| **named == error)
        .copied()
        .unwrap_or("an error RFC 5802 does not name")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7677's SCRAM-SHA-256 example, byte for byte.
    #[test]
    fn rfc_7677_example() {
        let (mut scram, first) =
            Scram::start_with_nonce(Hash::Sha256, "user", "pencil", "rOprNGfwEbeRWgbNEkqO");
        assert_eq!(first, b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
        let server_first =
            b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
        let last = scram.answer(server_first).unwrap();
        assert_eq!(
            String::from_utf8(last).unwrap(),
            "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
        );
        scram
            .finish(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
            .unwrap();
        assert!(
            scram
                .finish(b"v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
                .is_err()
        );
    }

    #[test]
    fn refuses_a_nonce_that_is_not_the_clients_and_few_iterations() {
        let (mut scram, _) = Scram::start_with_nonce(Hash::Sha512, "u,=", "p", "abc");
        assert!(scram.answer(b"r=xyz1,s=AAAA,i=4096").is_err());
        assert!(scram.answer(b"r=abc1,s=AAAA,i=10").is_err());
        assert!(scram.answer(b"e=invalid-proof").is_err());
        let (_, first) = Scram::start_with_nonce(Hash::Sha512, "u,=", "p", "abc");
        assert_eq!(first, b"n,,n=u=2C=3D,r=abc");
    }
}
