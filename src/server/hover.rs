//! Hover on a key: what Kafka's catalogue says of it for the cluster's release. Never the
//! key's value: a hover shows the catalogue, not the file.

use crate::catalog::{self, ConfigType, Default, KafkaVersion, KeySpec, UpdateMode, Validator};

/// The name of the key of `written` (each key's bytes and name, in the document's order)
/// whose written name covers byte `offset`, if any.
pub fn key_at(written: &[(std::ops::Range<usize>, String)], offset: usize) -> Option<&str> {
    written
        .iter()
        .find(|(span, _)| span.start <= offset && offset <= span.end)
        .map(|(_, key)| key.as_str())
}

/// Markdown for `key` in release `version`; `None` for a key the catalogue has in no release.
pub fn describe(key: &str, version: KafkaVersion) -> Option<String> {
    let entry = catalog::entry(key)?;
    let releases: Vec<KafkaVersion> = entry.releases().collect();
    let (first, last) = (*releases.first()?, *releases.last()?);
    let mut text = format!("**{key}** (Kafka {version} broker configuration)\n\n");
    match catalog::spec(key, version) {
        Some(spec) => describe_spec(&mut text, spec),
        None => text.push_str(&format!(
            "Kafka {version} has no broker key of this name: the catalogue has it in Kafka {}.\n\n",
            span_of(first, last)
        )),
    }
    let deprecated_since = releases
        .iter()
        .find(|release| catalog::spec(key, **release).is_some_and(|spec| spec.deprecated));
    if let Some(since) = deprecated_since {
        text.push_str(&format!("Deprecated since Kafka {since}.\n\n"));
    }
    text.push_str(&format!("In Kafka {}", span_of(first, last)));
    match catalog::VERSIONS.iter().find(|release| **release > last) {
        Some(removed) => text.push_str(&format!("; removed in Kafka {removed}.\n\n")),
        None => text.push_str(".\n\n"),
    }
    text.push_str(&format!(
        "[Kafka documentation]({})",
        catalog::documentation_url(key)
    ));
    Some(text)
}

fn span_of(first: KafkaVersion, last: KafkaVersion) -> String {
    if first == last {
        first.to_string()
    } else if last == KafkaVersion::newest() {
        format!("{first} and later")
    } else {
        format!("{first} to {last}")
    }
}

fn describe_spec(text: &mut String, spec: &KeySpec) {
    text.push_str(&format!("- type: {}\n", spec.config_type.kafka_name()));
    let default = match spec.default {
        Default::Required => "none: the broker refuses to start without it".to_string(),
        Default::Null => "null".to_string(),
        // A password's default is shown no more than its value would be.
        Default::Value(_) if spec.config_type == ConfigType::Password => "(hidden)".to_string(),
        Default::Value("") => "\"\"".to_string(),
        Default::Value(value) => format!("`{value}`"),
    };
    text.push_str(&format!("- default: {default}\n"));
    if let Some(valid) = valid_values(&spec.validator) {
        text.push_str(&format!("- valid values: {valid}\n"));
    }
    if let Some(importance) = spec.importance {
        text.push_str(&format!("- importance: {}\n", importance.kafka_name()));
    }
    let mode = match spec.update_mode {
        UpdateMode::ReadOnly => "read-only",
        UpdateMode::PerBroker => "per-broker",
        UpdateMode::ClusterWide => "cluster-wide",
    };
    text.push_str(&format!("- update mode: {mode}\n"));
    if spec.internal {
        text.push_str("- internal: accepted, not documented by Kafka\n");
    }
    text.push('\n');
}

fn list(values: &[&str]) -> String {
    values
        .iter()
        .map(|value| format!("`{value}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values the key's validator accepts, as Kafka's documentation words them.
fn valid_values(validator: &Validator) -> Option<String> {
    Some(match validator {
        Validator::None => return None,
        Validator::Range { min, max } => match (min, max) {
            (Some(min), Some(max)) => format!("[{},...,{}]", min.text, max.text),
            (Some(min), None) => format!("[{},...]", min.text),
            (None, Some(max)) => format!("[...,{}]", max.text),
            (None, None) => return None,
        },
        Validator::ValidString(values) => list(values),
        Validator::CaseInsensitiveValidString(values) => {
            format!("{} (in any case)", list(values))
        }
        Validator::ValidList(values) | Validator::StrictList { valid: values, .. }
            if !values.is_empty() =>
        {
            format!("a list of {}", list(values))
        }
        Validator::ValidList(_) | Validator::StrictList { .. } => return None,
        Validator::NonEmptyString => "a non-empty string".to_string(),
        Validator::NonNull => "any but null".to_string(),
        Validator::Custom { accepted, .. } if !accepted.is_empty() => list(accepted),
        Validator::Custom { class, .. } => {
            format!(
                "as `{}` accepts",
                class.rsplit(['.', '$']).next().unwrap_or(class)
            )
        }
    })
}
