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
/// The most environments of one chart rendered (each a `helm template` run); those beyond are
/// said in a note.
pub const MAX_ENVIRONMENTS: usize = 16;
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
            rendering.skipped.push(without_helm(&shown));
            continue;
        };
        let environments = environments(folder);
        let mut rendered = Vec::new();
        let mut any = false;
        for (environment, outcome) in render_chart(helm, chart, folder, &environments, None) {
            match outcome {
                Ok(files) => {
                    any = true;
                    rendered.extend(environment.clone());
                    if files.is_empty() {
                        continue;
                    }
                    // Each environment is a deployment of its own: its rendered files are
                    // one folder of the walk apart from the others'.
                    let key = match &environment {
                        Some(environment) => templates.join(format!("[{}]", environment.file)),
                        None => templates.clone(),
                    };
                    groups.entry(key).or_default().extend(files);
                }
                Err(reason) => rendering.skipped.push(reason),
            }
        }
        if any {
            rendering.info.push(rendered_note(
                &shown,
                &vendored,
                &rendered,
                published(folder),
            ));
        }
    }
    groups.retain(|_, files| !files.is_empty());
    rendering
}

/// The note for a chart kafkalint cannot render: helm is not on the PATH.
fn without_helm(shown: &str) -> String {
    format!(
        "{shown}: a Helm chart of its own, whose templates hold their values only once rendered, and `helm` is not on the PATH: install helm (kafkalint then runs `helm template`) or check what it renders (`helm template NAME {shown} | kafkalint check --stdin-filename rendered.yaml -`); its templates are not checked"
    )
}

/// What the note says of a chart rendered: with which values, once per environment.
fn rendered_note(
    shown: &str,
    vendored: &Path,
    environments: &[Environment],
    published: bool,
) -> String {
    let dependencies = if vendored.is_dir() {
        ", the dependencies vendored in charts/"
    } else {
        ""
    };
    if environments.is_empty() {
        return format!(
            "{shown}: a Helm chart of its own, rendered with `helm template` (its values.yaml{dependencies}); findings point at its templates"
        );
    }
    let each: Vec<String> = environments
        .iter()
        .map(|environment| format!("{} as release `{}`", environment.file, environment.release))
        .collect();
    format!(
        "{shown}: a Helm chart of its own with a values file per environment, rendered with `helm template` once per environment ({}), each over its values.yaml{dependencies}, each a deployment of its own; {}; findings point at its templates",
        each.join(", "),
        if published {
            format!(
                "values.yaml alone is rendered too, as release `{RELEASE}`: the chart is published for others to install as it stands (its Chart.yaml names its home, sources or maintainers)"
            )
        } else {
            "values.yaml alone is only their common base and is not rendered by itself".to_string()
        }
    )
}

/// A values file of one environment beside a chart's `values.yaml` (`values-prod.yaml`,
/// `environments/prod.yaml`): `helm template -f` layers it over the chart's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// The file, relative to the chart's folder (`values-prod.yaml`).
    pub file: String,
    /// The release it is rendered as: the environment's name, as a release name may be.
    pub release: String,
}

/// Whether a chart is published for others to install as it stands, its `values.yaml` alone
/// being one deployment besides its environments': its `Chart.yaml` names its home, its
/// sources or its maintainers (as charts in a chart repository do; `helm create` writes
/// none of them).
fn published(chart: &Path) -> bool {
    crate::source::read_file(&chart.join("Chart.yaml")).is_ok_and(|bytes| {
        String::from_utf8_lossy(&bytes).lines().any(|line| {
            ["home:", "sources:", "maintainers:"]
                .iter()
                .any(|key| line.starts_with(key))
        })
    })
}

/// Values files named like an environment's that are none: a layer every environment shares
/// or an example (`values-common.yaml`, `values-example.yaml`); what installs them with
/// which environment is not written beside the chart, so they are not rendered.
const NOT_ENVIRONMENTS: &[&str] = &[
    "example",
    "examples",
    "sample",
    "samples",
    "schema",
    "override",
    "overrides",
    "common",
    "base",
    "default",
    "defaults",
    "secret",
    "secrets",
    "global",
    "shared",
];

/// The folders beside `values.yaml` whose YAML files are one environment each, as teams name
/// them (`environments/prod.yaml`, `envs/dev/values.yaml`).
const ENVIRONMENT_FOLDERS: &[&str] = &["environments", "envs", "env", "values", "overlays"];

/// The environments of a chart: its values files named after one (`values-prod.yaml`,
/// `values.prod.yaml`, `values_prod.yaml`, `prod-values.yaml`) and the YAML files of an
/// environments folder, by name. Empty for a chart with its `values.yaml` only.
pub fn environments(chart: &Path) -> Vec<Environment> {
    let yaml_stem = |name: &str| {
        let lower = name.to_ascii_lowercase();
        lower
            .strip_suffix(".yaml")
            .or_else(|| lower.strip_suffix(".yml"))
            .map(str::to_string)
    };
    let names = |dir: &Path| -> Vec<(String, bool)> {
        let mut names: Vec<(String, bool)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let kind = entry.file_type().ok()?;
                Some((entry.file_name().to_str()?.to_string(), kind.is_dir()))
            })
            .collect();
        names.sort();
        names
    };
    let mut found = Vec::new();
    let mut add = |file: String, name: &str| {
        let release = release_name(name);
        if !release.is_empty() && !NOT_ENVIRONMENTS.contains(&release.as_str()) {
            found.push(Environment { file, release });
        }
    };
    for (name, is_dir) in names(chart) {
        if is_dir {
            continue;
        }
        let Some(stem) = yaml_stem(&name) else {
            continue;
        };
        let environment = ["values-", "values.", "values_"]
            .iter()
            .find_map(|prefix| stem.strip_prefix(prefix))
            .or_else(|| {
                ["-values", ".values", "_values"]
                    .iter()
                    .find_map(|suffix| stem.strip_suffix(suffix))
            });
        if let Some(environment) = environment.filter(|environment| !environment.is_empty()) {
            add(name.clone(), environment);
        }
    }
    for folder in ENVIRONMENT_FOLDERS {
        let dir = chart.join(folder);
        if !dir.is_dir() {
            continue;
        }
        for (name, is_dir) in names(&dir) {
            if is_dir {
                // `envs/prod/values.yaml`: the folder names the environment.
                if dir.join(&name).join("values.yaml").is_file() {
                    add(format!("{folder}/{name}/values.yaml"), &name);
                }
                continue;
            }
            if let Some(stem) = yaml_stem(&name) {
                let environment = stem
                    .strip_prefix("values-")
                    .or_else(|| stem.strip_suffix("-values"))
                    .unwrap_or(&stem)
                    .to_string();
                add(format!("{folder}/{name}"), &environment);
            }
        }
    }
    found
}

/// An environment's name as a Helm release name may be: lower case letters, digits and `-`,
/// at most 53 characters (helm's limit).
fn release_name(environment: &str) -> String {
    let mut name: String = environment
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    name = name.trim_matches('-').to_string();
    name.truncate(53);
    name.trim_end_matches('-').to_string()
}

/// What rendering one chart gave, per environment (`None`: its values.yaml alone): the
/// rendered files, or the note of why it did not render. With `buffer`, one template's
/// unsaved text stands in for its file: the chart is rendered from a copy holding it.
pub fn render_chart(
    helm: &Path,
    chart: &Path,
    folder: &Path,
    environments: &[Environment],
    buffer: Option<(&Path, &[u8])>,
) -> Vec<(Option<Environment>, Outcome)> {
    let shown = folder.to_string_lossy().into_owned();
    let copy = match buffer {
        Some((path, bytes)) => match Copy::of(folder, path, bytes) {
            Ok(copy) => Some(copy),
            Err(reason) => {
                return vec![(
                    None,
                    Err(format!(
                        "{shown}: a Helm chart of its own that could not be copied to render the unsaved template ({reason}); its templates are not checked"
                    )),
                )];
            }
        },
        None => None,
    };
    let source = copy.as_ref().map_or(folder, |copy| copy.dir.as_path());
    let mut beyond = Vec::new();
    if let Some(rest) = environments.get(MAX_ENVIRONMENTS..) {
        for environment in rest {
            beyond.push((
                Some(environment.clone()),
                Err(format!(
                    "{shown}: a Helm chart of its own whose environment {} is beyond the first {MAX_ENVIRONMENTS} of this chart, not rendered; its templates are not checked for it",
                    environment.file
                )),
            ));
        }
    }
    let environments = &environments[..environments.len().min(MAX_ENVIRONMENTS)];
    let mut runs: Vec<Option<&Environment>> = environments.iter().map(Some).collect();
    if environments.is_empty() || published(folder) {
        runs.push(None);
    }
    runs.into_iter()
        .map(|environment| {
            let (release, values) = match environment {
                Some(environment) => (
                    environment.release.as_str(),
                    Some(source.join(&environment.file)),
                ),
                None => (RELEASE, None),
            };
            let outcome = match render(helm, source, release, values.as_deref()) {
                Ok(rendered) => Ok(split(chart, &rendered, buffer)),
                Err(reason) => {
                    let values = environment
                        .map(|environment| format!(" -f {shown}/{}", environment.file))
                        .unwrap_or_default();
                    Err(format!(
                        "{shown}: a Helm chart of its own that `helm template {release} {shown}{values}` does not render ({reason}); its templates are not checked{}",
                        environment
                            .map(|environment| format!(" for {}", environment.file))
                            .unwrap_or_default()
                    ))
                }
            };
            (environment.cloned(), outcome)
        })
        .chain(beyond)
        .collect()
}

/// A chart's rendered files (path, text), or the note of why it did not render.
pub type Outcome = Result<Vec<(String, Vec<u8>)>, String>;

/// A chart copied to a folder of its own, one template's text replaced: removed when dropped.
struct Copy {
    dir: PathBuf,
}

/// The most files a chart copied to render an unsaved template may hold.
const COPY_LIMIT: usize = 4096;

impl Copy {
    fn of(chart: &Path, replaced: &Path, bytes: &[u8]) -> Result<Copy, String> {
        static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "kafkalint-chart-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let copy = Copy { dir };
        let _ = std::fs::remove_dir_all(&copy.dir);
        let mut copied = 0;
        copy_tree(chart, &copy.dir, &mut copied).map_err(|error| error.to_string())?;
        let replaced = absolute(replaced);
        let inside = replaced
            .strip_prefix(absolute(chart))
            .map_err(|_| "the template is not in the chart".to_string())?;
        std::fs::write(copy.dir.join(inside), bytes).map_err(|error| error.to_string())?;
        Ok(copy)
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Copies the files of `from` to `to`, links not followed, at most [`COPY_LIMIT`] files.
fn copy_tree(from: &Path, to: &Path, copied: &mut usize) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if entry.file_name() == ".git" {
            continue;
        }
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target, copied)?;
        } else if kind.is_file() {
            *copied += 1;
            if *copied > COPY_LIMIT {
                return Err(std::io::Error::other(format!(
                    "more than {COPY_LIMIT} files"
                )));
            }
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// The chart a template belongs to, for a file named alone: a file under a chart's
/// `templates/` (or a vendored dependency's), the chart holding a `Chart.yaml`.
pub fn chart_of_template(path: &Path) -> Option<PathBuf> {
    let in_templates = |chart: &Path, path: &Path| {
        path.strip_prefix(chart).is_ok_and(|inside| {
            inside
                .components()
                .any(|part| part.as_os_str() == "templates")
        })
    };
    if let Some(chart) = chart_of(path).filter(|chart| in_templates(chart, path)) {
        return Some(chart);
    }
    // Named from inside the chart (`statefulset.yaml` in its `templates/`): the chart is
    // the folder as many levels up, named by `..`.
    let parent = path.parent().filter(|parent| !parent.is_absolute())?;
    (1..=8).find_map(|up| {
        let chart: PathBuf = parent.join(std::iter::repeat_n("..", up).collect::<PathBuf>());
        if !(chart.join("Chart.yaml").is_file() && chart.join("templates").is_dir()) {
            return None;
        }
        let absolute = std::fs::canonicalize(&chart).ok()?;
        let file = std::fs::canonicalize(path).ok()?;
        in_templates(&absolute, &file).then_some(chart)
    })
}

/// `helm` on the PATH, when it is there; public for a template named alone.
pub fn helm() -> Option<PathBuf> {
    helm_on_path()
}

/// The note for a chart whose template is named alone and `helm` is not on the PATH.
pub fn not_rendered_without_helm(chart: &Path) -> String {
    let folder = if chart.as_os_str().is_empty() {
        Path::new(".")
    } else {
        chart
    };
    without_helm(&folder.to_string_lossy())
}

/// The note for a chart rendered for a template named alone.
pub fn rendered(chart: &Path) -> String {
    let folder = if chart.as_os_str().is_empty() {
        Path::new(".")
    } else {
        chart
    };
    rendered_note(
        &folder.to_string_lossy(),
        &chart.join("charts"),
        &environments(folder),
        published(folder),
    )
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

/// `path` from the working folder, `.` and `..` resolved as written (links not followed): two
/// ways of naming one file compare equal.
fn absolute(path: &Path) -> PathBuf {
    let joined = std::env::current_dir().unwrap_or_default().join(path);
    let mut normal = PathBuf::new();
    for component in joined.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other.as_os_str()),
        }
    }
    normal
}

/// `helm` on the PATH, when it is there.
fn helm_on_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("helm"))
        .find(|candidate| candidate.is_file())
}

/// Runs `helm template` on `chart`, bounded in time and output.
fn render(
    helm: &Path,
    chart: &Path,
    release: &str,
    values: Option<&Path>,
) -> Result<String, String> {
    let mut command = Command::new(helm);
    command
        .arg("template")
        .arg(release)
        .arg(chart)
        .args(["--namespace", "default"]);
    // Layered over the chart's own values.yaml, which helm always reads first.
    if let Some(values) = values {
        command.arg("--values").arg(values);
    }
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
fn split(chart: &Path, rendered: &str, buffer: Option<(&Path, &[u8])>) -> Vec<(String, Vec<u8>)> {
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
            let is_buffer = |named: &Path| absolute(named) == absolute(&path);
            let template = match buffer.filter(|(named, _)| is_buffer(named)) {
                Some((_, bytes)) => String::from_utf8_lossy(bytes).into_owned(),
                None => crate::source::read_file(&path)
                    .ok()
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                    .unwrap_or_default(),
            };
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
pub(super) fn pattern(line: &str) -> Option<Vec<String>> {
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
pub(super) fn matches(pieces: &[String], rendered: &str) -> bool {
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
