//! `--command-config FILE`: the client properties Kafka's own tools take
//! (`kafka-topics.sh --command-config`), read with the same `Properties` parser as broker
//! files: `security.protocol`, `sasl.mechanism`, `sasl.jaas.config`, `ssl.truststore.*`,
//! `ssl.keystore.*` (`super::stores`) and `ssl.endpoint.identification.algorithm`.
//!
//! Secrets read here (a password of the JAAS line, a private key) live in [`Credentials`] and
//! `Identity`, whose `Debug` hides them, and no error message quotes a value of this file but a
//! store's path.

use std::path::Path;

use super::Error;

/// How to reach the cluster: the listener's security protocol and what it needs.
#[derive(Clone, Default)]
pub struct ClientConfig {
    pub protocol: SecurityProtocol,
    /// With SASL: the mechanism and the JAAS line's user.
    pub sasl: Option<Sasl>,
    /// With SSL: the certificates to trust (PEM), and whether the broker's name is checked.
    pub tls: Option<super::stores::Tls>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SecurityProtocol {
    #[default]
    Plaintext,
    Ssl,
    SaslPlaintext,
    SaslSsl,
}

impl SecurityProtocol {
    fn parse(text: &str) -> Option<SecurityProtocol> {
        // Kafka upper-cases the value (`SecurityProtocol.forName`).
        match text.trim().to_ascii_uppercase().as_str() {
            "PLAINTEXT" => Some(SecurityProtocol::Plaintext),
            "SSL" => Some(SecurityProtocol::Ssl),
            "SASL_PLAINTEXT" => Some(SecurityProtocol::SaslPlaintext),
            "SASL_SSL" => Some(SecurityProtocol::SaslSsl),
            _ => None,
        }
    }

    pub fn uses_tls(self) -> bool {
        matches!(self, SecurityProtocol::Ssl | SecurityProtocol::SaslSsl)
    }

    pub fn uses_sasl(self) -> bool {
        matches!(
            self,
            SecurityProtocol::SaslPlaintext | SecurityProtocol::SaslSsl
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    Plain,
    ScramSha256,
    ScramSha512,
    OAuthBearer,
}

impl Mechanism {
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::Plain => "PLAIN",
            Mechanism::ScramSha256 => "SCRAM-SHA-256",
            Mechanism::ScramSha512 => "SCRAM-SHA-512",
            Mechanism::OAuthBearer => "OAUTHBEARER",
        }
    }
}

#[derive(Clone)]
pub struct Sasl {
    pub mechanism: Mechanism,
    pub login: Login,
}

/// What the mechanism logs in with.
#[derive(Debug, Clone)]
pub enum Login {
    /// PLAIN and SCRAM: the JAAS line's user and password.
    Password(Credentials),
    /// OAUTHBEARER: where its token comes from.
    Token(super::oauth::ClientCredentials),
}

/// A user and password from `sasl.jaas.config`.
#[derive(Clone)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .field("password", &"<hidden>")
            .finish()
    }
}

impl ClientConfig {
    /// Reads `path`; errors name the file and the key, never a value.
    pub fn read(path: &Path) -> Result<ClientConfig, Error> {
        let shown = path.display().to_string();
        let bytes = crate::source::read_file(path).map_err(|error| Error::Config {
            file: shown.clone(),
            message: error.to_string(),
        })?;
        let properties = crate::properties::parse(&bytes).map_err(|error| Error::Config {
            file: shown.clone(),
            message: format!("not a properties file ({error})"),
        })?;
        let get = |key: &str| {
            properties
                .get(key)
                .map(|entry| entry.value.trim().to_string())
        };
        let invalid = |key: &str, why: &str| Error::Config {
            file: shown.clone(),
            message: format!("{key}: {why}"),
        };
        let protocol = match get("security.protocol") {
            None => SecurityProtocol::Plaintext,
            Some(text) => SecurityProtocol::parse(&text).ok_or_else(|| {
                invalid(
                    "security.protocol",
                    "not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL",
                )
            })?,
        };
        let sasl = if protocol.uses_sasl() {
            let mechanism = match get("sasl.mechanism").as_deref().unwrap_or("GSSAPI") {
                "PLAIN" => Mechanism::Plain,
                "SCRAM-SHA-256" => Mechanism::ScramSha256,
                "SCRAM-SHA-512" => Mechanism::ScramSha512,
                "OAUTHBEARER" => Mechanism::OAuthBearer,
                _ => {
                    return Err(invalid(
                        "sasl.mechanism",
                        "kafkalint live speaks PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER (GSSAPI is not supported)",
                    ));
                }
            };
            let jaas = get("sasl.jaas.config")
                .ok_or_else(|| invalid("sasl.jaas.config", "missing: SASL needs a login"))?;
            let login = if mechanism == Mechanism::OAuthBearer {
                let folder = path.parent().unwrap_or(Path::new("."));
                let options = jaas_options(&jaas);
                Login::Token(super::oauth::read(&get, &options, folder, &invalid)?)
            } else {
                Login::Password(jaas_credentials(&jaas).ok_or_else(|| {
                    invalid(
                        "sasl.jaas.config",
                        "no username=\"...\" and password=\"...\" options in it",
                    )
                })?)
            };
            Some(Sasl { mechanism, login })
        } else {
            None
        };
        let tls = if protocol.uses_tls() {
            let folder = path.parent().unwrap_or(Path::new("."));
            let mut tls = super::stores::trust_store(&get, folder, &invalid)?;
            tls.identity = super::stores::identity(&get, folder, &invalid)?;
            Some(tls)
        } else {
            None
        };
        Ok(ClientConfig {
            protocol,
            sasl,
            tls,
        })
    }
}

/// `username="u" password="p"` of a JAAS line (`...LoginModule required username="u"
/// password="p";`), its values quoted or not, as Kafka's `JaasConfig` parser reads options.
fn jaas_credentials(jaas: &str) -> Option<Credentials> {
    let options = jaas_options(jaas);
    let find = |name: &str| {
        options
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    Some(Credentials {
        username: find("username")?,
        password: find("password")?,
    })
}

/// The `name=value` options of a JAAS line, after the login module and its flag.
fn jaas_options(jaas: &str) -> Vec<(String, String)> {
    let mut options = Vec::new();
    let mut chars = jaas.chars().peekable();
    let mut words = 0;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace() || *c == ';') {
            chars.next();
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' || c == ';' {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            return options;
        }
        if chars.peek() != Some(&'=') {
            // The login module's class and its control flag.
            words += 1;
            if words > 2 {
                return options;
            }
            continue;
        }
        chars.next();
        let mut value = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => value.extend(chars.next()),
                    _ => value.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' {
                    break;
                }
                value.push(c);
                chars.next();
            }
        }
        options.push((name, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaas_options_quoted_and_not() {
        let credentials = jaas_credentials(
            r#"org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="a \"b\" c";"#,
        )
        .unwrap();
        assert_eq!(credentials.username, "admin");
        assert_eq!(credentials.password, "a \"b\" c");
        let bare = jaas_credentials(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=u password=p;",
        )
        .unwrap();
        assert_eq!((bare.username.as_str(), bare.password.as_str()), ("u", "p"));
        assert!(jaas_credentials("Module required username=\"u\";").is_none());
        assert!(!format!("{bare:?}").contains("\"p\""));
    }
}
