//! What the readers saw but could not judge (a Helm template not rendered, a container of an
//! image kafkalint does not know, a vault, a value worked out at run time, a component whose
//! Kafka is not among the files read), as data: the summary counts it and `--format json` lists
//! it, so that a clean bill never hides it.
//!
//! The readers say so in their notes (`path: reason`), in the words below; each kind is one of
//! those phrasings. A note that only says what was assumed (a release read from a chart line)
//! is none: what it is about was checked.

/// Why something was not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// A Helm or Go template, which holds its values only once rendered.
    HelmTemplate,
    /// A container of an image whose start-up kafkalint does not know.
    UnknownImage,
    /// Variables in an Ansible vault.
    Vault,
    /// A value worked out at run time, or from a variable file not given.
    RunTimeValue,
    /// A component whose Kafka, or a file it reads, is not among the files read.
    NotAmongFilesRead,
    /// A node whose configuration is a mounted file, not its environment.
    MountedFile,
    /// Helm values that look like a chart's kafkalint knows, but nothing names that chart.
    ChartNotNamed,
    /// The broker configuration of a managed service (Amazon MSK), whose defaults and broker
    /// count are the service's, not Apache Kafka's.
    ManagedService,
    /// An Ansible role's Jinja that kafkalint does not render or evaluate (a tag over several
    /// lines, a compose template, an expression or condition it cannot work out).
    JinjaNotRendered,
    /// A kustomize overlay not built (no kustomize on the PATH, a remote base).
    KustomizeOverlay,
    /// What a running cluster did not show `kafkalint live` (topics or groups the principal
    /// may not describe, a broker not reached, settings refused).
    PartialView,
    /// Declared topics bound to no cluster among the files read: what depends on the cluster
    /// (its brokers, defaults, release) is not judged.
    TopicsWithoutCluster,
    /// Settings whose value holds template text (`%HOST%`, `${ID}`, `{{ id }}`) that something
    /// fills in before Kafka reads the file: the checks that read them are skipped.
    TemplateText,
}

impl Kind {
    /// The id `--format json` writes.
    pub fn id(self) -> &'static str {
        match self {
            Kind::HelmTemplate => "helm-template",
            Kind::UnknownImage => "unknown-image",
            Kind::Vault => "vault",
            Kind::RunTimeValue => "run-time-value",
            Kind::NotAmongFilesRead => "not-among-files-read",
            Kind::MountedFile => "mounted-file",
            Kind::ChartNotNamed => "chart-not-named",
            Kind::ManagedService => "managed-service",
            Kind::JinjaNotRendered => "jinja-not-rendered",
            Kind::KustomizeOverlay => "kustomize-overlay",
            Kind::PartialView => "partial-view",
            Kind::TopicsWithoutCluster => "topics-without-cluster",
            Kind::TemplateText => "template-text",
        }
    }

    /// How the summary counts it: `1 Helm template`, `2 unknown images`.
    pub fn counted(self, count: usize) -> String {
        let (one, many) = match self {
            Kind::HelmTemplate => ("Helm template", "Helm templates"),
            Kind::UnknownImage => ("unknown image", "unknown images"),
            Kind::Vault => ("Ansible vault", "Ansible vaults"),
            Kind::RunTimeValue => (
                "value worked out at run time",
                "values worked out at run time",
            ),
            Kind::NotAmongFilesRead => (
                "component or file not among the files read",
                "components or files not among the files read",
            ),
            Kind::MountedFile => (
                "configuration in a mounted file",
                "configurations in mounted files",
            ),
            Kind::ChartNotNamed => (
                "Helm values file of no named chart",
                "Helm values files of no named chart",
            ),
            Kind::ManagedService => ("Amazon MSK configuration", "Amazon MSK configurations"),
            Kind::JinjaNotRendered => (
                "Jinja template not fully rendered",
                "Jinja templates not fully rendered",
            ),
            Kind::KustomizeOverlay => (
                "kustomize overlay not built",
                "kustomize overlays not built",
            ),
            Kind::PartialView => (
                "part of a cluster's answers not known",
                "parts of a cluster's answers not known",
            ),
            Kind::TopicsWithoutCluster => (
                "file of topics bound to no cluster",
                "files of topics bound to no cluster",
            ),
            Kind::TemplateText => (
                "file of settings a template fills in",
                "files of settings a template fills in",
            ),
        };
        format!("{count} {}", if count == 1 { one } else { many })
    }
}

/// One thing not checked: the file it is in, why, and the reader's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotChecked {
    pub file: String,
    pub kind: Kind,
    pub reason: String,
}

/// What `note` (a reader's `path: reason`) says was not checked, if it says so.
pub fn of_note(note: &str) -> Option<NotChecked> {
    let (file, reason) = split_path(note)?;
    let has = |phrase: &str| reason.contains(phrase);
    let gave_up = has("not checked") || has("not read") || has("are unknown");
    let kind = if has("not checked against a cluster") {
        Kind::TopicsWithoutCluster
    } else if has("a Helm or Go template") || (has("a Helm chart") && gave_up) {
        Kind::HelmTemplate
    } else if has("kafkalint does not render") || has("Jinja kafkalint cannot evaluate") {
        Kind::JinjaNotRendered
    } else if has("a kustomization") && gave_up {
        Kind::KustomizeOverlay
    } else if has("does not know how image") || has("an image kafkalint does not know") {
        Kind::UnknownImage
    } else if has("vault") && gave_up {
        Kind::Vault
    } else if has("nothing names the chart") && gave_up {
        Kind::ChartNotNamed
    } else if has("an Amazon MSK cluster") && gave_up {
        Kind::ManagedService
    } else if has("comes from the mounted") {
        Kind::MountedFile
    } else if (has("of the files read") || has("not among the files read"))
        || has("runs no broker kafkalint reads")
    {
        Kind::NotAmongFilesRead
    } else if (has("worked out")
        || has("Terraform works out")
        || has("set from the environment")
        || has("variables it sets"))
        && gave_up
    {
        Kind::RunTimeValue
    } else {
        return None;
    };
    Some(NotChecked {
        file: file.to_string(),
        kind,
        reason: reason.to_string(),
    })
}

/// Every note of `notes` that says what was not checked.
pub fn of_notes(notes: &[String]) -> Vec<NotChecked> {
    notes.iter().filter_map(|note| of_note(note)).collect()
}

/// The path of a `path: reason` note: up to the first `: ` after which the path's own name
/// ends (a path holds no `: ` but in rare names, which then read as part of the reason).
fn split_path(note: &str) -> Option<(&str, &str)> {
    note.split_once(": ")
}

/// The summary's words for `not_checked`: `3 files not checked: 2 Helm templates, 1 unknown
/// image`, each kind counted once per file; `None` when there is nothing. A file of settings a
/// template fills in was checked but for the checks that read them: it is counted apart, `1
/// file checked in part: 1 file of settings a template fills in`, unless something else of it
/// was not checked at all.
pub fn summary(not_checked: &[NotChecked]) -> Option<String> {
    use std::collections::BTreeSet;
    let in_part = |kind: Kind| kind == Kind::TemplateText;
    let not_at_all: BTreeSet<&str> = not_checked
        .iter()
        .filter(|item| !in_part(item.kind))
        .map(|item| item.file.as_str())
        .collect();
    let (apart, whole): (Vec<&NotChecked>, Vec<&NotChecked>) = not_checked
        .iter()
        .partition(|item| in_part(item.kind) && !not_at_all.contains(item.file.as_str()));
    let clauses: Vec<String> = [(whole, "not checked"), (apart, "checked in part")]
        .into_iter()
        .filter(|(items, _)| !items.is_empty())
        .map(|(items, how)| counted(&items, how))
        .collect();
    (!clauses.is_empty()).then(|| clauses.join("; "))
}

/// `3 files {how}: 2 Helm templates, 1 unknown image`.
fn counted(items: &[&NotChecked], how: &str) -> String {
    use std::collections::{BTreeMap, BTreeSet};
    let files: BTreeSet<&str> = items.iter().map(|item| item.file.as_str()).collect();
    let mut by_kind: BTreeMap<Kind, BTreeSet<&str>> = BTreeMap::new();
    for item in items {
        by_kind.entry(item.kind).or_default().insert(&item.file);
    }
    let kinds: Vec<String> = by_kind
        .iter()
        .map(|(kind, files)| kind.counted(files.len()))
        .collect();
    let noun = if files.len() == 1 { "file" } else { "files" };
    format!("{} {noun} {how}: {}", files.len(), kinds.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readers_notes_of_what_they_gave_up_are_counted_by_kind() {
        let notes = [
            "charts/kafka/templates/kafka.yaml: a Helm or Go template (`{{ ... }}`), which holds its values only once rendered: check what `helm template` prints".to_string(),
            "charts/connect/templates/c.yaml: a Helm or Go template (`{{ ... }}`)".to_string(),
            "docker-compose.yml: service `broker1`: kafkalint does not know how image `quay.io/x/kafka-native:latest` turns its environment into Kafka settings; not read".to_string(),
            "docker-compose.yml: service `broker2`: kafkalint does not know how image `quay.io/x/kafka-native:latest` turns its environment into Kafka settings; not read".to_string(),
            // Assumed, and checked: none of these.
            "compose.yml: service `kafka-1`: its image tag in `bitnami/kafka:${V}` is set from the environment, so its Kafka release is unknown; read as bitnami/kafka of no known release".to_string(),
            "compose.yml: service `init`: runs a command of its own and sets no broker key (a tool container, not a broker); not read".to_string(),
        ];
        let found = of_notes(&notes);
        let kinds: Vec<Kind> = found.iter().map(|item| item.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::HelmTemplate,
                Kind::HelmTemplate,
                Kind::UnknownImage,
                Kind::UnknownImage
            ]
        );
        assert_eq!(found[2].file, "docker-compose.yml");
        assert_eq!(
            summary(&found).unwrap(),
            "3 files not checked: 2 Helm templates, 1 unknown image"
        );
        assert_eq!(summary(&[]), None);
    }

    #[test]
    fn a_file_a_template_fills_in_is_counted_as_checked_in_part() {
        let item = |file: &str, kind| NotChecked {
            file: file.to_string(),
            kind,
            reason: String::new(),
        };
        let templated = item("server.properties", Kind::TemplateText);
        assert_eq!(
            summary(std::slice::from_ref(&templated)).unwrap(),
            "1 file checked in part: 1 file of settings a template fills in"
        );
        let image = item("compose.yml", Kind::UnknownImage);
        assert_eq!(
            summary(&[templated.clone(), image.clone()]).unwrap(),
            "1 file not checked: 1 unknown image; \
             1 file checked in part: 1 file of settings a template fills in"
        );
        // A file something else of which was not checked at all is counted once, there.
        let same_file = item("compose.yml", Kind::TemplateText);
        assert_eq!(
            summary(&[image, same_file]).unwrap(),
            "1 file not checked: 1 unknown image, 1 file of settings a template fills in"
        );
    }

    #[test]
    fn run_time_values_count_only_where_something_was_given_up() {
        let given_up = "main.tf: helm_release.kafka: which pods run as brokers and controllers depends on `kraft.enabled`, set to `${var.kraft_enabled}`, which is worked out elsewhere; not checked";
        assert_eq!(of_note(given_up).unwrap().kind, Kind::RunTimeValue);
        let assumed = "main.tf: helm_release.kafka: its chart version `var.kafka_version` is worked out when Terraform runs; the chart line is read from its values";
        assert_eq!(of_note(assumed), None);
        let vault = "roles/kafka/templates/server.properties.j2: role `kafka`: its variables come from group_vars/all/vault.yml, which kafkalint cannot read (a vault, not YAML); not checked";
        assert_eq!(of_note(vault).unwrap().kind, Kind::Vault);
    }

    #[test]
    fn charts_not_rendered_and_values_of_no_named_chart_are_counted() {
        let no_helm = "charts/kafka: a Helm chart of its own, whose templates hold their values only once rendered, and `helm` is not on the PATH: install helm; its templates are not checked";
        assert_eq!(of_note(no_helm).unwrap().kind, Kind::HelmTemplate);
        let refused = "charts/kafka: a Helm chart of its own that `helm template kafkalint charts/kafka` does not render (Error: x); its templates are not checked";
        assert_eq!(of_note(refused).unwrap().kind, Kind::HelmTemplate);
        let unnamed = "kafka-values.yaml: values that look like the bitnami/kafka chart's, but nothing names the chart they are for (a Chart.yaml dependency, ...); not checked: to read them as bitnami/kafka's, set `bitnami-kafka-chart`";
        assert_eq!(of_note(unnamed).unwrap().kind, Kind::ChartNotNamed);
    }
}
