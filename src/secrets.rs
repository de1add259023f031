//! What counts as a secret, so that no output ever shows one.
//!
//! A value is secret when its key is one Kafka types as PASSWORD (or follows the naming of those:
//! `*.password`, `*.secret`, key material), when it is a JAAS configuration, or when the value
//! itself looks like a credential whatever its key.

/// Parts of a key that mark its value as a credential. Covers every key Kafka types as
/// PASSWORD (`*.password`, `ssl.keystore.key`, `ssl.keystore.certificate.chain`,
/// `ssl.truststore.certificates`, `sasl.jaas.config`, `delegation.token.secret.key`, ...) in
/// every prefixed form (`listener.name.<l>.<mechanism>.sasl.jaas.config`, `rlmm.config.*`).
const SECRET_KEY_PARTS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "jaas.config",
    "credential",
    "apikey",
    "api.key",
    "private.key",
    "keystore.key",
    "keystore.certificate.chain",
    "truststore.certificates",
    "master.key",
    // Confluent's `basic.auth.user.info` (`user:password` for Schema Registry and MDS clients,
    // typed PASSWORD in its `AbstractKafkaSchemaSerDeConfig`), in every prefixed form.
    "user.info",
];

/// Is the value of this key a secret?
pub fn is_secret_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    SECRET_KEY_PARTS.iter().any(|part| key.contains(part))
}

/// Does this value look like a credential, whatever its key? (JAAS lines, PEM key blocks,
/// `password=...` pairs, basic-auth URLs.)
pub fn looks_like_credential(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    lower.contains("loginmodule")
        || lower.contains("password=")
        || lower.contains("password\"")
        || lower.contains("secret=")
        || lower.contains("-----begin")
        || has_url_credentials(&lower)
}

fn has_url_credentials(value: &str) -> bool {
    // scheme://user:pass@host
    value.split("://").skip(1).any(|rest| {
        let authority = rest.split(['/', ' ', ',']).next().unwrap_or("");
        authority.contains('@')
            && authority
                .split('@')
                .next()
                .is_some_and(|user| user.contains(':'))
    })
}

/// Is this key/value pair to be hidden?
pub fn is_secret(key: &str, value: &str) -> bool {
    is_secret_key(key) || looks_like_credential(value)
}

/// What output shows in place of a secret value.
pub const REDACTED: &str = "[redacted]";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_type_keys_are_secret() {
        for key in [
            "ssl.keystore.password",
            "ssl.key.password",
            "ssl.truststore.password",
            "listener.name.sasl_ssl.plain.sasl.jaas.config",
            "sasl.jaas.config",
            "delegation.token.secret.key",
            "delegation.token.master.key",
            "ssl.keystore.key",
            "password.encoder.secret",
            "zookeeper.ssl.keystore.password",
            "rlmm.config.remote.log.metadata.common.client.sasl.jaas.config",
            "confluent.metadata.basic.auth.user.info",
            "schema.registry.basic.auth.user.info",
        ] {
            assert!(is_secret_key(key), "{key}");
        }
    }

    #[test]
    fn ordinary_keys_are_not_secret() {
        for key in [
            "offsets.topic.replication.factor",
            "delegation.token.max.lifetime.ms",
            "listeners",
            "sasl.enabled.mechanisms",
            "ssl.keystore.location",
            "broker.id",
        ] {
            assert!(!is_secret_key(key), "{key}");
        }
    }

    #[test]
    fn credential_looking_values() {
        assert!(looks_like_credential(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"b\";"
        ));
        assert!(looks_like_credential("http://user:hunter2@registry:8081"));
        assert!(looks_like_credential("-----BEGIN PRIVATE KEY----- abc"));
        assert!(!looks_like_credential(
            "PLAINTEXT://broker-1:9092,SSL://broker-1:9093"
        ));
        assert!(!looks_like_credential("http://registry:8081"));
    }
}
