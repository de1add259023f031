//! `invalid-value`: a value Kafka's ConfigDef rejects, so the broker refuses to start.

use super::support::{is_placeholder, line_label, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::component_keys;
use crate::catalog::{self, Default, Validator};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Severity};
use crate::secrets;

pub const RULE: Rule = Rule {
    name: "invalid-value",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "a value of the wrong type or outside what Kafka accepts: the broker refuses to start",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    let mut diagnostics = Vec::new();
    for (node, entry) in context.effective_lines(cluster) {
        let Some(spec) = catalog::spec(entry.key(), version) else {
            continue;
        };
        if is_placeholder(entry.value()) {
            continue;
        }
        let Err(refusal) = catalog::value::check(entry.key(), spec, entry.value()) else {
            continue;
        };
        // A refusal may quote the value; a secret's value is never shown.
        let reason = if secrets::is_hidden(entry.key(), entry.value()) {
            "is not a value Kafka accepts for this key".to_string()
        } else {
            refusal.reason
        };
        let fallback = fallback(entry.key(), spec);
        diagnostics.push(
            RULE.finding(format!(
                "Kafka {version} refuses to start: {} {}",
                entry.key(),
                reason
            ))
            .about(context.node_ref(node))
            .stopping_startup()
            .with_key(entry.key())
            .with_label(line_label(entry, reason.clone()))
            .with_help(format!(
                "set {} to {}{fallback}",
                entry.key(),
                expectation(spec)
            )),
        );
    }
    diagnostics.extend(component_values(cluster, context));
    diagnostics
}

/// The values of a Connect worker's, MirrorMaker 2's or a Streams application's file that the
/// ConfigDef it parses when it starts rejects (`DistributedConfig`, `MirrorMakerConfig`,
/// `StreamsConfig`, dumped per release): the constructor throws a `ConfigException` and the
/// process stops.
fn component_values(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    context
        .component_lines(cluster)
        .filter_map(|(component, entry)| {
            let key = entry.key();
            let spec = component_keys::startup_spec(component.kind, key, version)?;
            if is_placeholder(entry.value()) {
                return None;
            }
            let refusal = catalog::value::check(key, spec, entry.value()).err()?;
            let reason = if secrets::is_hidden(key, entry.value()) {
                "is not a value Kafka accepts for this key".to_string()
            } else {
                refusal.reason
            };
            Some(
                RULE.finding(format!(
                    "{} refuses to start: {key} {reason}",
                    component.kind.of_release(version)
                ))
                .about_component(context.component_ref(component))
                .stopping_startup()
                .with_key(key)
                .with_label(line_label(entry, reason.clone()))
                .with_help(format!(
                    "set {key} to {}{}",
                    expectation(spec),
                    fallback(key, spec)
                )),
            )
        })
        .collect()
}

/// How to fall back to the key's default, when it has one.
fn fallback(key: &str, spec: &catalog::KeySpec) -> String {
    match spec.default {
        Default::Value(value) => format!(
            "; remove the line to use Kafka's default {}",
            quoted(key, value)
        ),
        Default::Null | Default::Required => String::new(),
    }
}

/// What Kafka accepts for a key, in a few words.
fn expectation(spec: &catalog::KeySpec) -> String {
    use catalog::ConfigType::{Boolean, Class, Double, Int, List, Long, Password, Short};
    let kind = match spec.config_type {
        Boolean => "`true` or `false`",
        Int => "a 32-bit integer",
        Short => "a 16-bit integer",
        Long => "a 64-bit integer",
        Double => "a number",
        List => "a comma-separated list",
        catalog::ConfigType::String | Password | Class => "a string",
    };
    let choices = |valid: &[&str]| {
        valid
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match spec.validator {
        Validator::Range { min, max } => match (min, max) {
            (Some(min), Some(max)) => format!("{kind} from {} to {}", min.text, max.text),
            (Some(min), None) => format!("{kind} of at least {}", min.text),
            (None, Some(max)) => format!("{kind} of at most {}", max.text),
            (None, None) => kind.to_string(),
        },
        Validator::ValidString(valid) => format!("one of {}", choices(valid)),
        Validator::CaseInsensitiveValidString(valid) => {
            format!("one of {} (any case)", choices(valid))
        }
        Validator::ValidList(valid) if !valid.is_empty() => {
            format!("a comma-separated list of {}", choices(valid))
        }
        Validator::StrictList {
            valid,
            empty_allowed,
        } => {
            let of = if valid.is_empty() {
                String::new()
            } else {
                format!(" of {}", choices(valid))
            };
            let empty = if empty_allowed { "" } else { "non-empty " };
            format!("a {empty}comma-separated list{of} without empty elements")
        }
        Validator::NonEmptyString => "a non-empty string".to_string(),
        Validator::Custom { class, .. } if class.contains("VersionValidator") => {
            "a Kafka protocol version such as `3.9` or `3.9-IV0`".to_string()
        }
        Validator::Custom { .. } if spec.config_type == Int => {
            format!("{kind} Kafka accepts")
        }
        _ => kind.to_string(),
    }
}
