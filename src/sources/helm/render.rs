//! Charts of a repository's own (a `Chart.yaml` with `templates/`), rendered with the real
//! `helm template` when `helm` is on the PATH: a template holds its values only once rendered,
//! so the rendered manifests are what the Kubernetes, Strimzi and Confluent readers read, each
//! under its template's path, its lines placed on the template's lines they come from.
//!
//! Rendering is offline and bounded: the chart's own `values.yaml`, the dependencies vendored
//! in its `charts/` (helm never downloads one in `helm template`; `helm dependency update` is
//! never run), a deadline after which helm is killed, and a cap on what it prints. A chart
//! helm cannot render is said in one note, with helm's first line of error.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one `helm template` may run before it is killed.
pub const DEADLINE: Duration = Duration::from_secs(20);
/// The most a rendering may print; a chart that prints more is not read.
pub const OUTPUT_LIMIT: usize = 16 * 1024 * 1024;
/// The most charts one run renders; those beyond are said in a note.
pub const MAX_CHARTS: usize = 64;

/// The release name the charts are rendered under (it appears in resource names).
const RELEASE: &str = "kafkalint";

/// What rendering the charts of a walk said.
#[derive(Debug, Default)]
pub struct Rendering {
    /// What was not checked, with why (`path: reason`).
    pub skipped: Vec<String>,
    /// What was done (`path: rendered with ...`).
    pub info: Vec<String>,
}

/// The files of a walk, by folder: every chart of the repository's own that one of them
/// belongs to (a template under its `templates/`, or its values file) is rendered with helm,
/// and its templates are replaced by what they render to, as one folder of files (the chart's
/// resources are one deployment). Without helm on the PATH, one note per chart names the
/// command to run, and its templates are not read.
pub fn render_charts(groups: &mut BTreeMap<PathBuf, Vec<(String, Vec<u8>)>>) -> Rendering {
    let mut rendering = Rendering::default();
    let mut charts: Vec<PathBuf> = groups
        .values()
        .flatten()
        .filter_map(|(path, _)| chart_of(Path::new(path)))
        .collect();
    charts.sort();
    charts.dedup();
    if charts.is_empty() {
        return rendering;
    }
    let helm = helm_on_path();
    for (index, chart) in charts.iter().enumerate() {
        // The folder walked from `.` is named by the empty path in the walk's paths.
        let folder = if chart.as_os_str().is_empty() {
            Path::new(".")
        } else {
            chart.as_path()
        };
        let shown = folder.to_string_lossy().into_owned();
        if index >= MAX_CHARTS {
            rendering.skipped.push(format!(
                "{shown}: a Helm chart beyond the first {MAX_CHARTS} of this run, not rendered; not checked"
            ));
            continue;
        }
        let templates = chart.join("templates");
        let vendored = chart.join("charts");
        // The chart's templates leave the walk: what they render to stands for them.
        for files in groups.values_mut() {
            files.retain(|(path, _)| {
                let path = Path::new(path);
                !(path.starts_with(&templates)
                    || (path.starts_with(&vendored)
                        && path
                            .components()
                            .any(|part| part.as_os_str() == "templates")))
            });
        }
        let Some(helm) = &helm else {
            rendering.skipped.push(format!(
                "{shown}: a Helm chart of its own, whose templates hold their values only once rendered, and `helm` is not on the PATH: install helm (kafkalint then runs `helm template`) or check what it renders (`helm template NAME {shown} | kafkalint check --stdin-filename rendered.yaml -`); its templates are not checked"
            ));
            continue;
        };
        match render(helm, folder) {
            Ok(rendered) => {
                rendering.info.push(format!(
                    "{shown}: a Helm chart of its own, rendered with `helm template` (its values.yaml{}); findings point at its templates",
                    if vendored.is_dir() {
                        ", the dependencies vendored in charts/"
                    } else {
                        ""
                    }
                ));
                let files = split(chart, &rendered);
                if !files.is_empty() {
                    groups.entry(templates).or_default().extend(files);
                }
            }
            Err(reason) => rendering.skipped.push(format!(
                "{shown}: a Helm chart of its own that `helm template {RELEASE} {shown}` does not render ({reason}); its templates are not checked"
            )),
        }
    }
    groups.retain(|_, files| !files.is_empty());
    rendering
}

/// The chart a walked file belongs to: the nearest folder above it with a `Chart.yaml` and a
/// `templates/`, the file being in `templates/` or the chart's own folder (its values); a
/// chart vendored in another's `charts/` belongs to that one.
fn chart_of(path: &Path) -> Option<PathBuf> {
    let parent = path.parent()?;
    let is_chart = |dir: &Path| dir.join("Chart.yaml").is_file() && dir.join("templates").is_dir();
    let mut chart = if is_chart(parent) {
        parent.to_path_buf()
    } else {
        parent
            .ancestors()
            .skip(1)
            .take(8)
            .find(|dir| is_chart(dir) && path.starts_with(dir.join("templates")))?
            .to_path_buf()
    };
    // A subchart vendored in an umbrella chart is rendered with it.
    while let Some(above) = chart
        .parent()
        .filter(|above| above.file_name().is_some_and(|name| name == "charts"))
        && let Some(umbrella) = above.parent().filter(|umbrella| is_chart(umbrella))
    {
        chart = umbrella.to_path_buf();
    }
    Some(chart)
}

/// `helm` on the PATH, when it is there.
fn helm_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("helm"))
        .find(|candidate| candidate.is_file())
}

/// Runs `helm template` on `chart`, bounded in time and output.
fn render(helm: &Path, chart: &Path) -> Result<String, String> {
    let mut command = Command::new(helm);
    command
        .arg("template")
        .arg(RELEASE)
        .arg(chart)
        .args(["--namespace", "default"]);
    run_bounded(command, "helm")
}

/// Runs `command` (a tool that renders manifests: helm, kustomize) with no input, for at most
/// [`DEADLINE`], reading at most [`OUTPUT_LIMIT`] of what it prints: what it printed, or why
/// not in one line (the tool's first lines of error when it failed).
pub(crate) fn run_bounded(mut command: Command, tool: &str) -> Result<String, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("{tool} does not start: {error}"))?;
    let mut stdout = child.stdout.take().ok_or("no output")?;
    let mut stderr = child.stderr.take().ok_or("no output")?;
    let reader = std::thread::spawn(move || {
        let mut output = Vec::new();
        let read = (&mut stdout)
            .take(OUTPUT_LIMIT as u64 + 1)
            .read_to_end(&mut output);
        read.map(|_| output)
    });
    let errors = std::thread::spawn(move || {
        let mut output = Vec::new();
        let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut output);
        output
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < DEADLINE && !reader.is_finished() => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(None) if reader.is_finished() && started.elapsed() < DEADLINE => {
                // All it printed is read (or the cap is reached): wait a little more.
                match child.try_wait() {
                    Ok(Some(status)) => break Some(status),
                    _ => std::thread::sleep(Duration::from_millis(10)),
                }
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let output = reader
        .join()
        .map_err(|_| "its output could not be read".to_string())?
        .map_err(|error| format!("its output could not be read: {error}"))?;
    let errors = errors.join().unwrap_or_default();
    let Some(status) = status else {
        return Err(format!(
            "it ran longer than {} seconds and was stopped",
            DEADLINE.as_secs()
        ));
    };
    if output.len() > OUTPUT_LIMIT {
        return Err(format!(
            "it printed more than {} MiB",
            OUTPUT_LIMIT / (1024 * 1024)
        ));
    }
    if !status.success() {
        // helm's error, on one line: its first lines name the template and what failed.
        let said: Vec<String> = String::from_utf8_lossy(&errors)
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .take(4)
            .map(str::to_string)
            .collect();
        let mut said = said.join(" ");
        if said.is_empty() {
            said = "it failed".into();
        }
        if let Some((cut, _)) = said.char_indices().nth(300) {
            said.truncate(cut);
            said.push_str("...");
        }
        return Err(crate::escape::printable(&said));
    }
    String::from_utf8(output).map_err(|_| "its output is not UTF-8".to_string())
}

/// The rendered manifests of `chart`, one file per template: the path of the template
/// (`<chart>/templates/x.yaml`, a vendored dependency's under `<chart>/charts/`) and what it
/// renders to, its lines placed on the template's.
fn split(chart: &Path, rendered: &str) -> Vec<(String, Vec<u8>)> {
    let mut by_source: BTreeMap<String, Vec<Vec<&str>>> = BTreeMap::new();
    let mut current: Option<&mut Vec<&str>> = None;
    let mut lines = rendered.lines().peekable();
    while let Some(line) = lines.next() {
        if line == "---"
            && let Some(source) = lines
                .peek()
                .and_then(|next| next.strip_prefix("# Source: "))
        {
            lines.next();
            let documents = by_source.entry(source.to_string()).or_default();
            documents.push(Vec::new());
            current = documents.last_mut();
            continue;
        }
        if let Some(document) = current.as_mut() {
            document.push(line);
        }
    }
    by_source
        .into_iter()
        .filter_map(|(source, documents)| {
            // `<chart name>/templates/x.yaml`: the chart's folder stands for its name.
            let (_, inside) = source.split_once('/')?;
            let path = chart.join(inside);
            let template = crate::source::read_file(&path)
                .ok()
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .unwrap_or_default();
            let text = aligned(&template, &documents);
            Some((path.to_string_lossy().into_owned(), text.into_bytes()))
        })
        .collect()
}

/// The rendered documents of one template as one text whose lines sit on the lines of the
/// template they come from where that can be told: a rendered line that matches a template
/// line further down (its text around the `{{ ... }}` actions) is moved down to it with
/// empty lines, which YAML ignores. A line made by an action (an `include`, a `range`) stays
/// where it falls.
pub(crate) fn aligned(template: &str, documents: &[Vec<&str>]) -> String {
    let patterns: Vec<Option<Vec<String>>> = template.lines().map(pattern).collect();
    // helm prints a template's documents in install order (a Service before a StatefulSet),
    // not in the template's: each goes back to where its `kind:` line is written.
    let mut seen: Vec<&str> = Vec::new();
    let mut order: Vec<(usize, &Vec<&str>)> = documents
        .iter()
        .map(|document| {
            let kind = document
                .iter()
                .find(|line| line.starts_with("kind:"))
                .map(|line| line.trim())
                .unwrap_or_default();
            let earlier = seen.iter().filter(|other| **other == kind).count();
            seen.push(kind);
            let anchor = template
                .lines()
                .enumerate()
                .filter(|(_, line)| line.trim() == kind)
                .nth(earlier)
                .map_or(usize::MAX, |(at, _)| at);
            (anchor, document)
        })
        .collect();
    order.sort_by_key(|(anchor, _)| *anchor);
    let documents: Vec<&Vec<&str>> = order.into_iter().map(|(_, document)| document).collect();
    let mut text = String::new();
    let mut line = 1;
    let mut next_template = 0;
    for (index, document) in documents.iter().enumerate() {
        let separator = (index > 0).then_some("---");
        for rendered in separator.iter().chain(document.iter()) {
            // Near the last line placed: a line of an `include` may look like one much
            // further down (labels, `- name:` items), which would push all after it too far.
            let start = next_template.min(patterns.len());
            let end = (start + LOOKAHEAD).min(patterns.len());
            let found = patterns[start..end]
                .iter()
                .position(|pattern| pattern.as_ref().is_some_and(|p| matches(p, rendered)))
                .map(|at| at + start)
                .or_else(|| {
                    // Past a long block the values leave out: a line written out in full
                    // that the rest of the template holds once.
                    let literal = |pattern: &Option<Vec<String>>| {
                        pattern.as_ref().is_some_and(|pieces| {
                            pieces.len() == 1
                                && pieces[0].trim().len() >= 8
                                && matches(pieces, rendered)
                        })
                    };
                    let mut places = patterns[start..]
                        .iter()
                        .enumerate()
                        .filter(|(_, pattern)| literal(pattern));
                    match (places.next(), places.next()) {
                        (Some((at, _)), None) => Some(at + start),
                        _ => None,
                    }
                });
            if let Some(at) = found {
                while line < at + 1 {
                    text.push('\n');
                    line += 1;
                }
                next_template = at + 1;
            }
            text.push_str(rendered);
            text.push('\n');
            line += 1;
        }
    }
    text
}

/// How many template lines below the last one placed a rendered line is looked for.
const LOOKAHEAD: usize = 12;

/// A template line as the literal pieces around its actions, trimmed; `None` for a line
/// with nothing literal worth matching (only actions, blank, or a lone `-`).
fn pattern(line: &str) -> Option<Vec<String>> {
    let mut pieces = Vec::new();
    let mut rest = line;
    let mut trim_next = false;
    let trimmed = |piece: &str, start: bool| {
        if start {
            piece.trim_start().to_string()
        } else {
            piece.to_string()
        }
    };
    while let Some(start) = rest.find("{{") {
        let mut piece = trimmed(&rest[..start], trim_next);
        // `{{-` eats the white space before it, `-}}` the white space after it.
        if rest[start..].starts_with("{{-") {
            piece = piece.trim_end().to_string();
        }
        pieces.push(piece);
        let Some(end) = rest[start..].find("}}") else {
            rest = "";
            trim_next = false;
            break;
        };
        trim_next = rest[start..start + end].ends_with('-');
        rest = &rest[start + end + 2..];
    }
    pieces.push(trimmed(rest, trim_next));
    let literal: usize = pieces.iter().map(|piece| piece.trim().len()).sum();
    (literal >= 2).then_some(pieces)
}

/// Whether a rendered line is what a template line (as [`pattern`]) renders to: its first
/// piece begins it, its last ends it, the others in order between.
fn matches(pieces: &[String], rendered: &str) -> bool {
    let rendered = rendered.trim();
    let (first, rest) = match pieces.split_first() {
        Some(split) => split,
        None => return false,
    };
    let first = first.trim_start();
    if pieces.len() == 1 {
        return rendered == first.trim_end();
    }
    let Some(mut remaining) = rendered.strip_prefix(first) else {
        return false;
    };
    let (last, middle) = rest.split_last().unwrap_or((&rest[0], &[]));
    for piece in middle {
        match remaining.find(piece.as_str()) {
            Some(at) => remaining = &remaining[at + piece.len()..],
            None => return false,
        }
    }
    remaining.ends_with(last.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_lines_sit_on_their_template_lines() {
        let template = "{{- if .Values.kafka }}\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-config\n{{- end }}\ndata:\n  replicas: {{ .Values.replicas | quote }}\n";
        let documents = vec![vec![
            "apiVersion: v1",
            "kind: ConfigMap",
            "metadata:",
            "  name: demo-config",
            "data:",
            "  replicas: \"3\"",
        ]];
        let text = aligned(template, &documents);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], "apiVersion: v1");
        assert_eq!(lines[4], "  name: demo-config");
        assert_eq!(lines[6], "data:");
        assert_eq!(lines[7], "  replicas: \"3\"");
    }

    #[test]
    fn lines_an_action_makes_stay_in_order() {
        let template = "spec:\n  env: {{- toYaml .Values.env | nindent 4 }}\n  replicas: 3\n";
        let documents = vec![vec![
            "spec:",
            "  env:",
            "    - name: A",
            "      value: b",
            "  replicas: 3",
        ]];
        let text = aligned(template, &documents);
        assert_eq!(
            text,
            "spec:\n  env:\n    - name: A\n      value: b\n  replicas: 3\n"
        );
    }
}
