//! `plaintext-secret`: a password, key or JAAS credential written in the file itself rather
//! than read through a config provider. Messages name the key, never the value.

use super::support::{is_placeholder, line_label};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::{self, ConfigType, KafkaVersion};
use crate::cluster::Cluster;
use crate::cluster::Line;
use crate::cluster::Provenance;
use crate::diagnostic::{Diagnostic, Severity};
use crate::secrets;

pub const RULE: Rule = Rule {
    name: "plaintext-secret",
    severity: Severity::Warning,
    group: Group::Exposure,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a password, key or JAAS credential written in the file instead of a config-provider reference",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for (node, entry) in context.effective_lines(cluster) {
        let Some(what) = literal_secret(entry, version) else {
            continue;
        };
        let key = entry.key();
        diagnostics.push(
            RULE.finding(format!(
                "{key} holds {what} in plain text: whoever reads the file can use it"
            ))
            .about(context.node_ref(node))
            .with_key(key)
            .with_label(line_label(
                entry,
                "a literal secret (redacted here)".to_string(),
            ))
            .with_help(match compose_defaults(context, entry)[..] {
                [] => help(key),
                ref names => compose_help(key, names),
            }),
        );
    }
    diagnostics
}

/// The variables whose `${NAME:-default}` (or `${NAME-default}`) defaults Compose wrote into
/// the value, the variable being set neither in `.env` nor in an `env_file` (such a value is
/// the project's, not this file's, and no finding): the value as written differs from the value
/// read, and names them. Only the names: the default is the secret.
fn compose_defaults(context: &Context, line: Line) -> Vec<String> {
    let written = context.bytes(line.file).get(line.value_span());
    let Some(written) = written.and_then(|bytes| std::str::from_utf8(bytes).ok()) else {
        return Vec::new();
    };
    if written.trim() == line.value().trim() {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    for (at, _) in written.match_indices("${") {
        let inner = &written[at + 2..];
        let length = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let (name, operation) = inner.split_at(length);
        let defaulted = operation.starts_with(":-") || operation.starts_with('-');
        // A `${NAME` the value still holds was not interpolated (no Compose file).
        let replaced = !line.value().contains(&format!("${{{name}"));
        if !name.is_empty() && defaulted && replaced && !names.iter().any(|known| known == name) {
            names.push(name.to_string());
        }
    }
    names
}

/// The help for a secret that is a compose default: in Compose's terms, naming the variables.
fn compose_help(key: &str, names: &[String]) -> String {
    let shown: Vec<String> = names
        .iter()
        .map(|name| format!("${{{name}:-...}}"))
        .collect();
    let first = &names[0];
    format!(
        "the secret is the default written in {} (.env does not set {}): delete the default \
         and set {} in .env (kept out of the repository) or the environment, writing \
         ${{{first}:?{first} must be set}} so that Compose refuses to start without it, or \
         mount the secret as a Compose secret and read {key} through a config provider; then \
         rotate the secret",
        shown.join(", "),
        names.join(", "),
        names.join(", ")
    )
}

/// What secret a line holds literally, or `None` when it holds none or refers to one.
fn literal_secret(line: Line, version: KafkaVersion) -> Option<&'static str> {
    let key = line.key();
    let value = line.value().trim();
    // A value Compose takes from `.env` or an env_file, a container from a ConfigMap of
    // another file, or an Ansible template from a variable, is not written in this file: the
    // file holds a reference, as it should.
    if matches!(
        line.provenance(),
        Provenance::ProjectEnv
            | Provenance::EnvFile
            | Provenance::ConfigMap
            | Provenance::AnsibleVariable
    ) {
        return None;
    }
    if value.is_empty() || !is_secret_key_of_kafka(key, version) || is_reference(value) {
        return None;
    }
    if key.to_ascii_lowercase().contains("jaas.config") {
        return jaas_has_literal_secret(value).then_some("a JAAS password");
    }
    Some(
        if key.contains("keystore.key") || key.contains("private.key") {
            "a private key"
        } else {
            "a secret"
        },
    )
}

/// Secret keys whose value Kafka types PASSWORD, in any prefixed form; keys Kafka types
/// otherwise (`password.encoder.iterations`) and public material (certificates) are not.
fn is_secret_key_of_kafka(key: &str, version: KafkaVersion) -> bool {
    let lower = key.to_ascii_lowercase();
    // Confluent's `basic.auth.credentials.source` and `bearer.auth.credentials.source` name
    // where the credentials come from (`USER_INFO`, `URL`, `SASL_INHERIT`: schema-registry
    // `AbstractKafkaSchemaSerDeConfig`), not a credential.
    if !secrets::is_secret_key(&lower)
        || lower.contains("certificate.chain")
        || lower.contains("truststore.certificates")
        || lower.ends_with("credentials.source")
    {
        return false;
    }
    // The longest known suffix decides (`listener.name.x.ssl.key.password` is `ssl.key.password`).
    let mut rest = lower.as_str();
    loop {
        if let Some(spec) = catalog::spec(rest, version) {
            return spec.config_type == ConfigType::Password;
        }
        // A key of another release (`password.encoder.*` left over from ZooKeeper mode).
        if let Some(entry) = catalog::entry(rest) {
            return entry
                .variants
                .iter()
                .any(|variant| variant.spec.config_type == ConfigType::Password);
        }
        match rest.split_once('.') {
            Some((_, tail)) => rest = tail,
            None => return true,
        }
    }
}

/// A value Kafka resolves from a config provider (`${file:/path:key}`), or one a template or
/// the environment fills in before Kafka reads the file.
fn is_reference(value: &str) -> bool {
    is_placeholder(value) || value.starts_with('$')
}

/// Whether a JAAS configuration sets a credential option (`password`, `user_<name>`, a client
/// secret) to a literal. A login module without one (Kerberos with a keytab, OAUTHBEARER's
/// unsecured tokens) holds no secret.
fn jaas_has_literal_secret(jaas: &str) -> bool {
    jaas_options(jaas).into_iter().any(|(name, value)| {
        let name = name.to_ascii_lowercase();
        let secret =
            name.contains("password") || name.contains("secret") || name.starts_with("user_");
        secret && !value.trim().is_empty() && !is_reference(value)
    })
}

/// The `name=value` options of JAAS text, values unquoted.
fn jaas_options(jaas: &str) -> Vec<(&str, &str)> {
    let mut options = Vec::new();
    let mut rest = jaas;
    while let Some(eq) = rest.find('=') {
        let name_start = rest[..eq]
            .rfind(|c: char| c.is_whitespace() || c == ';')
            .map_or(0, |at| at + 1);
        let name = rest[name_start..eq].trim();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            let end = after
                .find(|c: char| c.is_whitespace() || c == ';')
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        options.push((name, value));
        rest = next;
    }
    options
}

fn help(key: &str) -> String {
    let example = if key.to_ascii_lowercase().contains("jaas.config") {
        format!(
            "{key}=... password=\"${{file:/etc/kafka/secrets/broker.properties:admin.password}}\";"
        )
    } else {
        format!("{key}=${{file:/etc/kafka/secrets/broker.properties:{key}}}")
    };
    format!(
        "write {example} (config.providers=file with FileConfigProvider, in a file only the broker reads), \
         then rotate the secret"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaas_credentials() {
        assert!(jaas_has_literal_secret(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"x\" user_admin=\"x\";"
        ));
        assert!(!jaas_has_literal_secret(
            "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"${file:/s:p}\";"
        ));
        assert!(!jaas_has_literal_secret(
            "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true keyTab=\"/k.keytab\" principal=\"kafka/h@R\";"
        ));
        assert!(jaas_has_literal_secret(
            "org.apache.kafka.common.security.scram.ScramLoginModule required username=u password=p;"
        ));
    }

    #[test]
    fn only_password_typed_keys() {
        let v = KafkaVersion::new(4, 1);
        assert!(is_secret_key_of_kafka("ssl.key.password", v));
        assert!(is_secret_key_of_kafka(
            "listener.name.external.ssl.keystore.password",
            v
        ));
        assert!(is_secret_key_of_kafka(
            "listener.name.sasl_ssl.plain.sasl.jaas.config",
            v
        ));
        assert!(!is_secret_key_of_kafka("password.encoder.iterations", v));
        assert!(!is_secret_key_of_kafka("ssl.truststore.certificates", v));
        assert!(!is_secret_key_of_kafka("ssl.keystore.location", v));
    }
}
