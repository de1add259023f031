//! A compose file an Ansible role templates (`roles/<role>/templates/docker-compose.yml.j2`),
//! rendered on each host of the group its play targets (see [`super::role::render_compose`])
//! and read as the compose file Ansible writes there. Each host is a machine of its own: its
//! services share it as the services of one compose file do, and never a port or a disk with
//! another host's. All hosts of one inventory (environment) are one cluster. Findings point
//! at the template: at the rendered byte's place when the line holds no Jinja, else within
//! the template line it was rendered from.

use super::role::{self, HostCompose, RefusedInventory};
use crate::properties::Span;
use crate::sources::{NodeSpec, Runtime, compose, images, redact, yaml};

/// What one host's rendering of a compose template gives: its environment, its Kafka nodes
/// and components (their spans in the rendered text, placed in the template by
/// [`HostRead::place`]), and the template's bytes that hide a secret it renders.
pub struct HostRead {
    pub environment: Option<String>,
    pub nodes: Vec<NodeSpec>,
    pub secrets: Vec<Span>,
    host: HostCompose,
    template_lines: Vec<Span>,
}

impl HostRead {
    /// A span of the rendered text at its place in the template: the same bytes on a line
    /// without Jinja, else within the template line it was rendered from.
    pub fn place(&self, span: &Span) -> Span {
        to_template(span, &self.host, &self.template_lines)
    }
}

/// Reads the compose template at `path` (its text `text`, after any byte-order mark) on each
/// host its role runs on. `Err` says why it is not rendered: nothing of it is read.
/// Inventories Ansible cannot parse go to `refused`.
pub fn read(
    path: &str,
    text: &str,
    images: &images::Aliases,
    notes: &mut Vec<String>,
    refused: &mut Vec<RefusedInventory>,
) -> Result<Vec<HostRead>, String> {
    let environments = role::render_compose(path, text, notes, refused)?;
    let template_lines = line_ranges(text);
    let mut reads = Vec::new();
    for environment in environments {
        for host in environment.hosts {
            let documents = yaml::parse(&host.text).map_err(|_| {
                format!(
                    "on host `{}` it renders to text that is not YAML",
                    host.host
                )
            })?;
            let Some(first) = documents.first() else {
                continue;
            };
            if !first
                .get("services")
                .is_some_and(|services| matches!(services, yaml::Node::Map(_)))
            {
                continue;
            }
            let project = compose::Project::on_remote_host().with_images(images.clone());
            let mut host_notes = Vec::new();
            let mut nodes = compose::read(first, &project, &mut host_notes);
            // Services on the host's network share the host's ports: one host's, which the
            // model would take for every compose file's.
            if nodes.iter().any(|node| {
                matches!(
                    node.runtime,
                    Runtime::Container {
                        host_network: true,
                        ..
                    }
                )
            }) {
                return Err("a Kafka service of it runs on the host's network".into());
            }
            let place = match &environment.environment {
                Some(environment) => format!("host `{}`, environment `{environment}`", host.host),
                None => format!("host `{}`", host.host),
            };
            notes.extend(
                host_notes
                    .into_iter()
                    .map(|note| format!("{place}: {note}")),
            );
            for spec in &mut nodes {
                spec.id = format!("{place}: {}", spec.id);
                spec.label = format!("{} on {place}", spec.label);
                // A fix would edit the template at a place rendered from it, not the text
                // the value was written as.
                for entry in &mut spec.entries {
                    entry.edit = None;
                }
            }
            let mut read = HostRead {
                environment: environment.environment.clone(),
                nodes,
                secrets: Vec::new(),
                host,
                template_lines: template_lines.clone(),
            };
            // A secret of the rendered text: its template lines hidden whole.
            for span in redact::hidden_spans(&read.host.text, &documents) {
                let mapped = read.place(&span);
                let first = template_lines
                    .iter()
                    .find(|line| mapped.start <= line.end)
                    .map_or(mapped.start, |line| line.start.min(mapped.start));
                let last = template_lines
                    .iter()
                    .find(|line| mapped.end <= line.end)
                    .map_or(mapped.end, |line| line.end.max(mapped.end));
                read.secrets.push(first..last);
            }
            reads.push(read);
        }
    }
    let mut seen = std::collections::HashSet::new();
    notes.retain(|note| seen.insert(note.clone()));
    Ok(reads)
}

/// Each line's bytes of `text` (without its line break).
fn line_ranges(text: &str) -> Vec<Span> {
    let mut ranges = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']).len();
        ranges.push(start..start + content);
        start += line.len();
    }
    if ranges.is_empty() {
        ranges.push(0..0);
    }
    ranges
}

/// A span of `host`'s rendered text, at its place in the template: the same bytes on a line
/// without Jinja, else within the template line it was rendered from (the template's first
/// line when it was rendered from none).
fn to_template(span: &Span, host: &HostCompose, template: &[Span]) -> Span {
    let rendered = line_ranges(&host.text);
    let place = |at: usize| -> usize {
        let line = rendered
            .partition_point(|range| range.start <= at)
            .saturating_sub(1);
        let column = at.saturating_sub(rendered.get(line).map_or(0, |range| range.start));
        match host.lines.get(line) {
            Some(&from) => {
                let range = &template[from.min(template.len() - 1)];
                range.start + column.min(range.end - range.start)
            }
            None => template[0].start,
        }
    };
    let start = place(span.start);
    let end = place(span.end).max(start);
    start..end
}
