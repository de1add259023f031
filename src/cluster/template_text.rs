//! The settings whose value a template fills in before Kafka reads the file (`%HOST%`,
//! `${ID}`, `{{ id }}`, `@ID@`, `{0}`): their real value is unknown, so every check that reads
//! them is skipped, and only those (see [`super::setting::any_unresolved`]). Said once per
//! file, so that a clean bill is never given over what was not judged.

use std::collections::BTreeMap;

use super::Cluster;
use crate::properties::{Entry, Provenance};
use crate::source::SourceFile;
use crate::sources::not_checked::{Kind, NotChecked};

/// How many keys, and how many placeholders, a note names before it counts the rest.
const SHOWN_KEYS: usize = 5;
const SHOWN_PLACEHOLDERS: usize = 3;

/// One note for each file whose nodes' or components' settings hold template text, in file
/// order. A file whose reader already said which of its values it could not work out
/// (`reported`: a Jinja template's lines, a Helm template, a Terraform value, a vault's
/// variables) gets none: that note covers them.
pub fn not_judged(
    files: &[SourceFile],
    clusters: &[Cluster],
    reported: &[NotChecked],
) -> Vec<NotChecked> {
    let mut by_file: BTreeMap<usize, Vec<Unknown>> = BTreeMap::new();
    for (file, part) in members(clusters) {
        let found = by_file.entry(file).or_default();
        for entry in files[file].settings(part).unresolved_entries() {
            let Some((form, written)) = template_text(&files[file], entry) else {
                continue;
            };
            if !found.iter().any(|seen| seen.entry.key == entry.key) {
                found.push(Unknown {
                    entry,
                    form,
                    written,
                });
            }
        }
    }
    by_file
        .into_iter()
        .filter(|(_, entries)| !entries.is_empty())
        .map(|(file, entries)| (&files[file].path, entries))
        .filter(|(path, _)| !reported.iter().any(|item| covers(item, path)))
        .map(|(path, entries)| NotChecked {
            file: path.clone(),
            kind: Kind::TemplateText,
            reason: reason(&entries),
        })
        .collect()
}

/// Whether `item` already says that values of the file at `path` are not worked out.
fn covers(item: &NotChecked, path: &str) -> bool {
    item.file == path
        && matches!(
            item.kind,
            Kind::JinjaNotRendered | Kind::HelmTemplate | Kind::RunTimeValue | Kind::Vault
        )
}

/// A setting whose value is unknown, what it is, and the text written for it.
struct Unknown<'a> {
    entry: &'a Entry,
    form: Form,
    written: &'a str,
}

/// Every node, overlay and component of the clusters, once each.
fn members(clusters: &[Cluster]) -> std::collections::BTreeSet<(usize, Option<u32>)> {
    clusters
        .iter()
        .flat_map(|cluster| {
            let nodes = cluster.nodes.iter().chain(&cluster.overlays);
            let nodes = nodes.map(|node| (node.file, node.part));
            nodes.chain(cluster.components.iter().map(|c| (c.file, c.part)))
        })
        .collect()
}

/// What an unknown value is, as the note words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// Template text something fills in before Kafka reads the file.
    Template,
    /// A config-provider reference (`${env:HOST}`, `${file:/path:key}`) Kafka resolves when it
    /// starts (`AbstractConfig.resolveConfigVariables`, apache/kafka
    /// clients/src/main/java/org/apache/kafka/common/config/AbstractConfig.java at 3.9.0).
    ProviderReference,
}

/// What the entry's value is and the text written in the file for it, when the author wrote
/// a placeholder there and a check would have read the value. `None` for:
/// - a credential (a PASSWORD key, a name with a secret word): a template or a config provider
///   is how it is kept out of the file, and no check reads its value but plaintext-secret,
///   which a placeholder satisfies;
/// - a config-provider reference in a key no Kafka release knows (a Confluent
///   `confluent.*.placement.constraints=${dir:...}`): no check reads its value;
/// - a value a reader set unknown itself (an unset compose variable, a per-pod value, an
///   operator's or an image's setting), with no placeholder written at its place: that
///   reader's own note says why, or the value is none of the author's.
fn template_text<'a>(file: &'a SourceFile, entry: &Entry) -> Option<(Form, &'a str)> {
    let written_by_author = matches!(
        entry.provenance,
        Provenance::Written
            | Provenance::Derived
            | Provenance::ProjectEnv
            | Provenance::EnvFile
            | Provenance::ConfigMap
    );
    if !written_by_author || is_credential(&entry.key) {
        return None;
    }
    let written = file.bytes.get(entry.value_span.clone())?;
    let written = std::str::from_utf8(written).ok()?;
    let template =
        |text: &str| crate::properties::is_unresolved(&without_provider_references(text));
    if template(&entry.value) && template(written) {
        return Some((Form::Template, written));
    }
    let known_key = crate::secrets::key_kind(&entry.key) == crate::secrets::KeyKind::Plain;
    let referenced = |text: &str| without_provider_references(text).len() < text.len();
    (known_key && referenced(&entry.value) && referenced(written))
        .then_some((Form::ProviderReference, written))
}

fn is_credential(key: &str) -> bool {
    crate::secrets::key_kind(key) == crate::secrets::KeyKind::Password
        || crate::secrets::has_secret_word(key)
}

/// `value` without its config-provider references: `${provider:key}` or
/// `${provider:path:key}`, as `ConfigTransformer.DEFAULT_PATTERN` (`\$\{([^}]*?):(([^}]*?):)?([^}]*?)\}`)
/// finds them, the provider a name. A shell's `${VAR:-default}` (`:-`, `:=`, `:?`, `:+`) is
/// no reference.
fn without_provider_references(value: &str) -> std::borrow::Cow<'_, str> {
    if !value.contains("${") {
        return std::borrow::Cow::Borrowed(value);
    }
    let mut kept = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        kept.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find('}') {
            Some(end) if is_provider_reference(&after[..end]) => rest = &after[end + 1..],
            _ => {
                kept.push_str("${");
                rest = after;
            }
        }
    }
    kept.push_str(rest);
    std::borrow::Cow::Owned(kept)
}

/// `file:/path:key`, `env:HOST`, `vault:secret/kafka:password`: a provider's name, a colon,
/// and what it looks up.
fn is_provider_reference(inner: &str) -> bool {
    let Some((provider, lookup)) = inner.split_once(':') else {
        return false;
    };
    !provider.is_empty()
        && provider
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !lookup.is_empty()
        && !lookup.starts_with(['-', '=', '?', '+'])
}

/// `listeners, advertised.listeners hold template text (%HOST%) filled in before Kafka reads
/// the file: what depends on them is not judged`; the keys whose value is a config-provider
/// reference are said apart (`..., and ssl.truststore.location a config-provider reference
/// (${env:TRUSTSTORE}) Kafka resolves when it starts: ...`).
fn reason(unknown: &[Unknown]) -> String {
    let of = |form: Form| -> Vec<&Unknown> { unknown.iter().filter(|u| u.form == form).collect() };
    let (template, referenced) = (of(Form::Template), of(Form::ProviderReference));
    let template_words = (!template.is_empty()).then(|| {
        let what = if template.len() == 1 { "holds" } else { "hold" };
        format!(
            "{} {what} template text{} filled in before Kafka reads the file",
            keys(&template),
            placeholders(&template)
        )
    });
    let reference_words = (!referenced.is_empty()).then(|| {
        let (one, many) = if template.is_empty() {
            (
                "holds a config-provider reference",
                "hold config-provider references",
            )
        } else {
            ("a config-provider reference", "config-provider references")
        };
        let what = if referenced.len() == 1 { one } else { many };
        format!(
            "{} {what}{} Kafka resolves when it starts",
            keys(&referenced),
            placeholders(&referenced)
        )
    });
    let said = match (template_words, reference_words) {
        (Some(template), Some(referenced)) => format!("{template}, and {referenced}"),
        (Some(words), None) | (None, Some(words)) => words,
        (None, None) => String::new(),
    };
    let pronoun = if unknown.len() == 1 { "it" } else { "them" };
    format!("{said}: what depends on {pronoun} is not judged")
}

/// The keys, as output shows keys: `a, b, c, d, e and 2 more`.
fn keys(unknown: &[&Unknown]) -> String {
    let keys: Vec<String> = unknown
        .iter()
        .map(|u| crate::secrets::shown_key(&u.entry.key).into_owned())
        .collect();
    listed(&keys)
}

/// ` (%HOST%, %ID%)`: the placeholders as written, of values output may show only.
fn placeholders(unknown: &[&Unknown]) -> String {
    let mut found: Vec<&str> = Vec::new();
    for u in unknown {
        if !crate::secrets::may_show(&u.entry.key, &u.entry.value) {
            continue;
        }
        for placeholder in crate::properties::placeholders_in(u.written) {
            if !found.contains(&placeholder) {
                found.push(placeholder);
            }
        }
    }
    match found.len() {
        0 => String::new(),
        count if count > SHOWN_PLACEHOLDERS => {
            format!(" ({}, ...)", found[..SHOWN_PLACEHOLDERS].join(", "))
        }
        _ => format!(" ({})", found.join(", ")),
    }
}

/// `a, b, c, d, e and 2 more`.
fn listed(keys: &[String]) -> String {
    if keys.len() <= SHOWN_KEYS {
        return keys.join(", ");
    }
    format!(
        "{} and {} more",
        keys[..SHOWN_KEYS].join(", "),
        keys.len() - SHOWN_KEYS
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, value: &str) -> Entry {
        Entry {
            key: key.into(),
            value: value.into(),
            key_span: 0..0,
            value_span: 0..value.len(),
            utf8_mismatch: false,
            provenance: Provenance::Written,
        }
    }

    /// What `entry` is, read from a file that holds its value alone.
    fn form(entry: &Entry) -> Option<Form> {
        let file = SourceFile::new("server.properties".into(), entry.value.clone().into_bytes());
        template_text(&file, entry).map(|(form, _)| form)
    }

    #[test]
    fn template_text_config_provider_references_and_credentials_are_told_apart() {
        for value in [
            "${HOST}",
            "PLAINTEXT://${HOST:-localhost}:9092",
            "${file:/x:pw}-%ID%",
            "%HOST%",
            "{{ host }}",
        ] {
            assert_eq!(
                form(&entry("listeners", value)),
                Some(Form::Template),
                "{value}"
            );
        }
        for value in ["${env:HOST}", "PLAINTEXT://${env:HOST}:9092"] {
            let found = form(&entry("listeners", value));
            assert_eq!(found, Some(Form::ProviderReference), "{value}");
        }
        let constraints = "${dir:/mnt/placements:observers.json}";
        let unknown_key = entry("confluent.log.placement.constraints", constraints);
        assert_eq!(form(&unknown_key), None);
        let keystore = "${file:/etc/kafka/secrets.properties:password}";
        assert_eq!(form(&entry("ssl.keystore.password", keystore)), None);
        assert_eq!(form(&entry("ssl.keystore.password", "%PW%")), None);
        assert_eq!(form(&entry("admin.password", "${ADMIN_PW}")), None);
        let mut derived = entry("listeners", "PLAINTEXT://${HOSTNAME}:9092");
        derived.provenance = Provenance::Image;
        assert_eq!(form(&derived), None);
    }

    #[test]
    fn a_value_a_reader_set_unknown_is_no_template_text_of_the_file() {
        // An unset compose variable: the reader's `${key}`, where the file says `broker-1`.
        let file = SourceFile::new("compose.yml".into(), b"broker-1".to_vec());
        let mut unknown = entry("advertised.listeners", "${advertised.listeners}");
        unknown.value_span = 0..8;
        assert_eq!(template_text(&file, &unknown), None);
    }

    fn unknown<'a>(entry: &'a Entry, form: Form) -> Unknown<'a> {
        Unknown {
            entry,
            form,
            written: &entry.value,
        }
    }

    #[test]
    fn the_reason_names_keys_and_placeholders_as_written() {
        let listeners = entry("listeners", "PLAINTEXT://%HOST%:9092");
        let id = entry("broker.id", "%ID%");
        let truststore = entry("ssl.truststore.location", "${env:TRUSTSTORE}");
        let found = [
            unknown(&listeners, Form::Template),
            unknown(&id, Form::Template),
        ];
        assert_eq!(
            reason(&found),
            "listeners, broker.id hold template text (%HOST%, %ID%) filled in before Kafka reads the file: what depends on them is not judged"
        );
        let found = [
            unknown(&listeners, Form::Template),
            unknown(&truststore, Form::ProviderReference),
        ];
        assert_eq!(
            reason(&found),
            "listeners holds template text (%HOST%) filled in before Kafka reads the file, and ssl.truststore.location a config-provider reference (${env:TRUSTSTORE}) Kafka resolves when it starts: what depends on them is not judged"
        );
        assert_eq!(
            reason(&[unknown(&truststore, Form::ProviderReference)]),
            "ssl.truststore.location holds a config-provider reference (${env:TRUSTSTORE}) Kafka resolves when it starts: what depends on it is not judged"
        );
        let keys = [
            "broker.id",
            "log.dirs",
            "num.io.threads",
            "num.network.threads",
            "listeners",
            "advertised.listeners",
            "zookeeper.connect",
        ];
        let many: Vec<Entry> = keys
            .iter()
            .enumerate()
            .map(|(at, key)| entry(key, &format!("%V{at}%")))
            .collect();
        let found: Vec<Unknown> = many.iter().map(|e| unknown(e, Form::Template)).collect();
        assert_eq!(
            reason(&found),
            "broker.id, log.dirs, num.io.threads, num.network.threads, listeners and 2 more hold template text (%V0%, %V1%, %V2%, ...) filled in before Kafka reads the file: what depends on them is not judged"
        );
    }
}
