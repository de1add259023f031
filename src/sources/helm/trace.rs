//! Where a rendered value came from: a finding located in a template of a chart of the
//! repository's own (rendered by [`super::render`]) also points at the line of the values file
//! that holds the value, when that can be told exactly: the template line the finding sits on
//! reads one value (`{{ .Values.kafka.replicationFactor | quote }}`) and renders as that line,
//! and of the chart's values files (its `values.yaml` and its environments') exactly one holds
//! the value found under that key. Otherwise nothing more is said (a value from a default, an
//! `include`, or the same value in two files of the chart).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Label};
use crate::properties::Span;
use crate::source::SourceFile;
use crate::sources::yaml;

/// Per chart folder, its values files read: path, text and documents.
type ValuesFiles = HashMap<PathBuf, Vec<(PathBuf, String, Vec<yaml::Node>)>>;

/// Adds to each finding located in a rendered template a label at the values line its value
/// came from (see the module). A values file pointed at joins `files`, showing only the lines
/// pointed at, up to the value (a value that looks secret hidden too): the rest of a values
/// file may hold anything.
pub fn label_values(files: &mut Vec<SourceFile>, diagnostics: &mut [Diagnostic]) {
    let mut values_files = ValuesFiles::new();
    // (finding, values file, the value's span, its key, whether output shows the value where
    // it is rendered), in the order found.
    let mut traced: Vec<(usize, PathBuf, Span, String, bool)> = Vec::new();
    // Which files are templates of a chart, asked once a file: the question costs a look at
    // the folders above the file, and a cluster's findings label its files many times over.
    let mut charts: HashMap<usize, Option<PathBuf>> = HashMap::new();
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        for label in &diagnostic.labels {
            let Some(file) = files.get(label.file) else {
                continue;
            };
            let chart = charts
                .entry(label.file)
                .or_insert_with(|| chart_of_rendered(file));
            let Some(chart) = chart else {
                continue;
            };
            if let Some((path, span, key)) = trace(file, chart, &label.span, &mut values_files) {
                // Shown in the values file only where the rendered template shows it.
                let hidden = file.yaml.as_ref().is_none_or(|yaml| {
                    yaml.secrets.iter().any(|secret| {
                        secret.start < label.span.end && label.span.start < secret.end
                    })
                });
                traced.push((index, path, span, key, !hidden));
            }
        }
    }
    let mut added: HashMap<PathBuf, usize> = HashMap::new();
    for (_, path, _, _, _) in &traced {
        if added.contains_key(path) {
            continue;
        }
        // Already among the files (read again from the report's own files, as `--fix` does).
        let shown_path = path.to_string_lossy();
        if let Some(index) = files.iter().position(|file| file.path == shown_path) {
            added.insert(path.clone(), index);
            continue;
        }
        let Ok(bytes) = crate::source::read_file(path) else {
            continue;
        };
        let shown: Vec<Span> = traced
            .iter()
            .filter(|(_, other, _, _, _)| other == path)
            .filter_map(|(_, _, span, _, shown)| {
                let line_start = bytes
                    .get(..span.start)?
                    .iter()
                    .rposition(|b| *b == b'\n')
                    .map_or(0, |at| at + 1);
                let end = if *shown { span.end } else { span.start };
                // Up to the end of its line when nothing but blanks follows the value.
                let rest = bytes.get(end..)?;
                let eol = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
                let end = if *shown && rest[..eol].iter().all(u8::is_ascii_whitespace) {
                    (end + eol + 1).min(bytes.len())
                } else {
                    end
                };
                Some(line_start..end)
            })
            .collect();
        let yaml = crate::yaml_view::YamlFile {
            secrets: complement(&shown, bytes.len()),
            ..Default::default()
        };
        files.push(SourceFile::from_yaml(
            path.to_string_lossy().into_owned(),
            bytes,
            yaml,
        ));
        added.insert(path.clone(), files.len() - 1);
    }
    for (index, path, span, key, _) in traced {
        let Some(file) = added.get(&path) else {
            continue;
        };
        diagnostics[index].labels.push(Label {
            file: *file,
            span,
            message: format!("the value comes from `{key}` here"),
        });
    }
}

/// The spans of `0..len` that none of `shown` covers.
fn complement(shown: &[Span], len: usize) -> Vec<Span> {
    let mut shown = shown.to_vec();
    shown.sort_by_key(|span| span.start);
    let mut hidden = Vec::new();
    let mut at = 0;
    for span in shown {
        if span.start > at {
            hidden.push(at..span.start);
        }
        at = at.max(span.end);
    }
    if at < len {
        hidden.push(at..len);
    }
    hidden
}

/// The values file, the span of the value and its key (`kafka.replicationFactor`) that the
/// value at `span` of a rendered template came from, when exactly one values file holds it.
/// The chart whose template `file` is, rendered: only a YAML file can be one (a broker's
/// `.properties` file is never rendered), so no other file costs a look at the disk.
fn chart_of_rendered(file: &SourceFile) -> Option<PathBuf> {
    file.yaml.as_ref()?;
    super::render::chart_of_template(Path::new(&file.path))
}

fn trace(
    file: &SourceFile,
    chart: &Path,
    span: &Span,
    values_files: &mut ValuesFiles,
) -> Option<(PathBuf, Span, String)> {
    let path = Path::new(&file.path);
    let template = String::from_utf8(crate::source::read_file(path).ok()?).ok()?;
    let rendered = std::str::from_utf8(&file.bytes).ok()?;
    if rendered == template {
        return None;
    }
    let line = rendered[..span.start.min(rendered.len())]
        .matches('\n')
        .count();
    let template_line = template.lines().nth(line)?;
    let rendered_line = rendered.lines().nth(line)?;
    // The rendered line is what this template line renders to, not a line of an `include`
    // that fell on it.
    let pieces = super::render::pattern(template_line)?;
    if !super::render::matches(&pieces, rendered_line) {
        return None;
    }
    let key = one_value_read(template_line)?;
    let value = rendered.get(span.clone())?.trim();
    let value = value.trim_matches('"').trim_matches('\'');
    let folder = if chart.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        chart.to_path_buf()
    };
    let candidates = values_files.entry(folder.clone()).or_insert_with(|| {
        let mut names = vec!["values.yaml".to_string()];
        names.extend(
            super::render::environments(&folder)
                .into_iter()
                .map(|environment| environment.file),
        );
        names
            .into_iter()
            .filter_map(|name| {
                let path = chart.join(&name);
                let text = String::from_utf8(crate::source::read_file(&path).ok()?).ok()?;
                let documents = yaml::parse(&text).ok()?;
                Some((path, text, documents))
            })
            .collect()
    });
    let segments: Vec<&str> = key.split('.').collect();
    let mut found = candidates.iter().filter_map(|(path, _, documents)| {
        let scalar = documents.first()?.at(&segments)?.scalar()?;
        (scalar.value == value).then(|| (path.clone(), scalar.span.clone()))
    });
    match (found.next(), found.next()) {
        (Some((path, span)), None) => Some((path, span, key)),
        _ => None,
    }
}

/// The one value a template line reads (`.Values.kafka.replicationFactor`, `$.Values.x`),
/// as its key path; `None` for a line that reads none or several.
fn one_value_read(line: &str) -> Option<String> {
    let mut keys: Vec<String> = Vec::new();
    for (at, _) in line.match_indices(".Values.") {
        let rest = &line[at + ".Values.".len()..];
        let key: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let key = key.trim_end_matches('.').to_string();
        if key.is_empty() {
            return None;
        }
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    match keys.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_reads_one_value_names_it() {
        assert_eq!(
            one_value_read("  value: {{ .Values.kafka.replicationFactor | quote }}").as_deref(),
            Some("kafka.replicationFactor")
        );
        assert_eq!(
            one_value_read("image: \"{{ .Values.image.repository }}:{{ .Values.image.tag }}\""),
            None
        );
        assert_eq!(one_value_read("replicas: 3"), None);
    }
}
