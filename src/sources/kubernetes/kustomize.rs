//! kustomize bases and overlays. An overlay (a `kustomization.yaml` that names a base and
//! patches it, renames it with `namePrefix`, moves it to a `namespace`) holds its cluster only
//! once built: its patch files are partial resources (a Strimzi `Kafka` with only its name and
//! the keys it changes), never resources of their own.
//!
//! When `kustomize` (or `kubectl`, whose `kustomize` verb is the same build) is on the PATH,
//! each kustomization that no other of the walk names (an overlay, or a base used alone) is
//! built with `kustomize build DIR`, offline and bounded like `helm template` (see
//! `helm::render::run_bounded`), and what it prints is read as the
//! resources of that folder: one cluster per overlay, named by its folder. Each built resource
//! is written back in the order of the file it comes from (kustomize prints a patched
//! resource's keys sorted) and its lines set on that file's lines, so that a finding points
//! at the base file's key. The files an overlay built consumes are not read again on their
//! own. A remote base (a URL) is never fetched: the overlay is not checked, in one note.
//!
//! Without kustomize, patch files are not read (a partial resource read as whole gives false
//! findings), bases are read as written, and each overlay is said not checked in one note
//! naming the command that builds it.
//!
//! Which fields name files follows kustomize's own `Kustomization` type
//! (kubernetes-sigs/kustomize, api/types/kustomization.go, kustomize/v5.8.0): `resources`,
//! the deprecated `bases`, `components`, `patches` (`path`), `patchesStrategicMerge` (a file
//! or an inline patch) and `patchesJson6902` (`path`); a kustomization file is named
//! `kustomization.yaml`, `kustomization.yml` or `Kustomization`
//! (api/konfig/general.go, `RecognizedKustomizationFileNames`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use yaml_rust2::{Yaml, YamlEmitter, YamlLoader};

use crate::sources::helm::render::{Rendering, aligned, run_bounded};

/// The names kustomize reads a kustomization from (api/konfig/general.go, v5.8.0).
pub fn is_kustomization_name(name: &str) -> bool {
    matches!(
        name,
        "kustomization.yaml" | "kustomization.yml" | "Kustomization"
    )
}

/// A file of the walk: its path as shown and its bytes.
type WalkedFile = (String, Vec<u8>);

/// The most overlays one run builds; those beyond are said in a note.
const MAX_BUILDS: usize = 64;

/// One kustomization file, as far as it names other files.
#[derive(Debug, Default)]
struct Kustomization {
    /// The folder it is in, normalized.
    dir: PathBuf,
    /// Folders it builds on (`resources`, `bases`, `components` that are folders).
    folders: Vec<PathBuf>,
    /// Resource files it lists.
    resources: Vec<PathBuf>,
    /// Patch files it lists.
    patches: Vec<PathBuf>,
    /// Remote bases (URLs), which kafkalint never fetches.
    remote: Vec<String>,
    /// Whether it changes what it lists (patches, names, namespace, replicas, images,
    /// components): then its resources as written are not what runs.
    transforms: bool,
}

/// The path `path` names with `.` and `..` worked out on the text (kustomize resolves a
/// relative entry against the kustomization's folder the same way).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Whether a `resources` entry is a remote target: kustomize fetches a URL or a
/// `github.com/owner/repo//path?ref=` form (api/internal/git/repospec.go, v5.8.0).
fn is_remote(entry: &str) -> bool {
    entry.contains("://")
        || entry.starts_with("github.com/")
        || entry.starts_with("gitlab.com/")
        || entry.starts_with("bitbucket.org/")
        || entry.starts_with("git@")
        || entry.contains("?ref=")
}

fn read_kustomization(file: &Path) -> Option<Kustomization> {
    let bytes = crate::source::read_file(file).ok()?;
    let text = String::from_utf8(bytes.to_vec()).ok()?;
    let document = YamlLoader::load_from_str(&text).ok()?.into_iter().next()?;
    let dir = normalize(file.parent().unwrap_or(Path::new("")));
    let mut found = Kustomization {
        dir: dir.clone(),
        ..Kustomization::default()
    };
    let texts = |key: &str| -> Vec<String> {
        document[key]
            .as_vec()
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    for key in ["resources", "bases", "components"] {
        for entry in texts(key) {
            if is_remote(&entry) {
                found.remote.push(entry);
                continue;
            }
            let path = normalize(&dir.join(&entry));
            if path.is_dir() {
                found.folders.push(path);
            } else {
                found.resources.push(path);
            }
        }
    }
    // A patch is a file unless written inline (a YAML document in the list itself).
    for entry in texts("patchesStrategicMerge") {
        if !entry.contains('\n') && !entry.contains(": ") {
            found.patches.push(normalize(&dir.join(entry)));
        }
    }
    for key in ["patches", "patchesJson6902"] {
        for item in document[key].as_vec().into_iter().flatten() {
            if let Some(path) = item["path"].as_str() {
                found.patches.push(normalize(&dir.join(path)));
            }
        }
    }
    let sets = |key: &str| !document[key].is_badvalue() && !document[key].is_null();
    found.transforms = !found.folders.is_empty()
        || !found.patches.is_empty()
        || [
            "patches",
            "patchesStrategicMerge",
            "patchesJson6902",
            "namePrefix",
            "nameSuffix",
            "namespace",
            "replicas",
            "images",
            "components",
            "configMapGenerator",
            "secretGenerator",
            "commonLabels",
            "labels",
            "transformers",
            "generators",
            "helmCharts",
        ]
        .iter()
        .any(|key| sets(key));
    Some(found)
}

/// The `kustomize` command on the PATH: `kustomize build`, else `kubectl kustomize`.
fn kustomize_on_path() -> Option<(PathBuf, &'static str)> {
    let path = std::env::var_os("PATH")?;
    let find = |tool: &str| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(tool))
            .find(|candidate| candidate.is_file())
    };
    find("kustomize")
        .map(|tool| (tool, "build"))
        .or_else(|| find("kubectl").map(|tool| (tool, "kustomize")))
}

/// The files of a walk, by folder, and the kustomization files the walk met: overlays are
/// built with kustomize when it is on the PATH (what they build replaces the files they
/// consume), else their patch files leave the walk and each is said not checked.
/// `worth_reading` tells a file that may hold Kafka settings (the walk's own test), for the
/// files of a base outside the walk.
pub fn render_kustomizations(
    kustomization_files: &[PathBuf],
    groups: &mut BTreeMap<PathBuf, Vec<(String, Vec<u8>)>>,
    worth_reading: fn(&str, &[u8]) -> bool,
) -> Rendering {
    let mut rendering = Rendering::default();
    let all: Vec<Kustomization> = kustomization_files
        .iter()
        .filter_map(|file| read_kustomization(file))
        .collect();
    if all.is_empty() {
        return rendering;
    }
    let by_dir: BTreeMap<&Path, &Kustomization> = all
        .iter()
        .map(|kustomization| (kustomization.dir.as_path(), kustomization))
        .collect();
    let named: BTreeSet<&Path> = all
        .iter()
        .flat_map(|kustomization| kustomization.folders.iter().map(PathBuf::as_path))
        .collect();
    // A patch file is part of the overlay that names it, never a resource of its own.
    let patches: BTreeSet<PathBuf> = all
        .iter()
        .flat_map(|kustomization| kustomization.patches.iter().cloned())
        .collect();
    let is_in = |set: &BTreeSet<PathBuf>, path: &str| set.contains(&normalize(Path::new(path)));
    // The files of the walk that may hold Kafka settings (patches among them): an overlay that
    // consumes none of them is none of kafkalint's business, and is neither built nor said.
    let kafka_files: BTreeSet<PathBuf> = groups
        .values()
        .flatten()
        .map(|(path, _)| normalize(Path::new(path)))
        .collect();
    for files in groups.values_mut() {
        files.retain(|(path, _)| !is_in(&patches, path));
    }
    let tool = kustomize_on_path();
    let mut outside: BTreeMap<PathBuf, Option<Kustomization>> = BTreeMap::new();
    let mut builds = 0;
    let mut built_files: Vec<(PathBuf, Vec<WalkedFile>)> = Vec::new();
    let mut consumed_by_built: BTreeSet<PathBuf> = BTreeSet::new();
    for root in all.iter().filter(|k| !named.contains(k.dir.as_path())) {
        // Everything the root builds on, through the folders it names.
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        let mut queue: Vec<PathBuf> = vec![root.dir.clone()];
        let mut consumed: BTreeSet<PathBuf> = BTreeSet::new();
        let mut sources: Vec<PathBuf> = Vec::new();
        let mut remote: Vec<String> = Vec::new();
        let mut missing: Option<PathBuf> = None;
        let mut transforms = false;
        while let Some(folder) = queue.pop() {
            if !seen.insert(folder.clone()) {
                continue;
            }
            // A base outside the walk (another path named, a folder above) is read from
            // where it is, as kustomize does.
            if !by_dir.contains_key(folder.as_path()) && !outside.contains_key(&folder) {
                outside.insert(
                    folder.clone(),
                    read_kustomization(&kustomization_file(&folder)),
                );
            }
            let Some(kustomization) = by_dir
                .get(folder.as_path())
                .copied()
                .or_else(|| outside.get(&folder).and_then(Option::as_ref))
            else {
                // A folder with no kustomization: kustomize refuses it.
                missing.get_or_insert(folder);
                continue;
            };
            transforms |= kustomization.transforms;
            remote.extend(kustomization.remote.iter().cloned());
            consumed.extend(kustomization.resources.iter().cloned());
            consumed.extend(kustomization.patches.iter().cloned());
            sources.extend(kustomization.resources.iter().cloned());
            queue.extend(kustomization.folders.iter().cloned());
        }
        // A remote base that names Kafka may hold a cluster no file of the walk does.
        let remote_kafka = remote.iter().any(|url| {
            let url = url.to_ascii_lowercase();
            ["kafka", "strimzi", "confluent"]
                .iter()
                .any(|word| url.contains(word))
        });
        // A base outside the walk (`kafkalint check overlays/prod`) is looked at where it is.
        let holds_kafka = |file: &PathBuf| {
            kafka_files.contains(file)
                || crate::source::read_file(file)
                    .is_ok_and(|bytes| worth_reading(&file.to_string_lossy(), &bytes))
        };
        if !remote_kafka && !consumed.iter().any(holds_kafka) {
            continue;
        }
        let dir = if root.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            root.dir.as_path()
        };
        let shown = crate::escape::printable(&dir.to_string_lossy());
        if let Some(url) = remote.first() {
            rendering.skipped.push(format!(
                "{shown}: a kustomization built on the remote base `{}`, which kafkalint does not fetch; the resources it builds are not checked",
                crate::escape::printable(url)
            ));
            continue;
        }
        if !transforms {
            // A plain list of resources: they are what runs, read as written.
            continue;
        }
        if let Some(folder) = missing {
            rendering.skipped.push(format!(
                "{shown}: a kustomization built on `{}`, a folder with no kustomization file, which kustomize refuses; the resources it builds are not checked",
                crate::escape::printable(&folder.to_string_lossy())
            ));
            continue;
        }
        let Some((program, verb)) = &tool else {
            rendering.skipped.push(format!(
                "{shown}: a kustomization overlay, whose resources are what `kustomize build` makes of its bases and patches, and `kustomize` is not on the PATH: install kustomize (kafkalint then runs `kustomize build`) or check what it builds (`kustomize build {shown} | kafkalint check --stdin-filename rendered.yaml -`); its bases are read as written, the overlay is not checked"
            ));
            continue;
        };
        builds += 1;
        if builds > MAX_BUILDS {
            rendering.skipped.push(format!(
                "{shown}: a kustomization beyond the first {MAX_BUILDS} of this run, not built; not checked"
            ));
            continue;
        }
        let mut command = Command::new(program);
        command.arg(verb).arg(dir);
        match run_bounded(command, "kustomize") {
            Ok(built) => {
                rendering.info.push(format!(
                    "{shown}: a kustomization, built with `kustomize build`; findings point at the files it builds on"
                ));
                built_files.push((root.dir.clone(), place(&root.dir, &built, &sources)));
                consumed_by_built.extend(consumed);
            }
            Err(reason) => rendering.skipped.push(format!(
                "{shown}: a kustomization that `kustomize build {shown}` does not build ({reason}); not checked"
            )),
        }
    }
    // The files a built overlay consumed are read as built, not again on their own.
    for files in groups.values_mut() {
        files.retain(|(path, _)| !is_in(&consumed_by_built, path));
    }
    for (dir, files) in built_files {
        groups.entry(dir).or_default().extend(files);
    }
    groups.retain(|_, files| !files.is_empty());
    rendering
}

/// What one kustomization built, as files: each resource under the path of the resource file
/// it comes from (the same kind and a name that holds the file's name, which `namePrefix` and
/// `nameSuffix` only wrap), written in that file's order and on its lines; a resource of no
/// file read (a generated ConfigMap) under the kustomization's own file.
fn place(dir: &Path, built: &str, sources: &[PathBuf]) -> Vec<WalkedFile> {
    let Ok(documents) = YamlLoader::load_from_str(built) else {
        return Vec::new();
    };
    // The resources of the files it builds on: (file, its text, kind, name, document).
    let mut written: Vec<(PathBuf, String, String, String, Yaml)> = Vec::new();
    let mut texts: BTreeMap<PathBuf, String> = BTreeMap::new();
    for source in sources {
        let Ok(bytes) = crate::source::read_file(source) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for document in YamlLoader::load_from_str(&text).unwrap_or_default() {
            let kind = document["kind"].as_str().unwrap_or_default().to_string();
            let name = document["metadata"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            written.push((source.clone(), text.clone(), kind, name, document));
        }
        texts.insert(source.clone(), text);
    }
    let mut by_file: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for mut document in documents {
        let kind = document["kind"].as_str().unwrap_or_default().to_string();
        let name = document["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let from = written.iter().find(|(_, _, their_kind, their_name, _)| {
            *their_kind == kind && !their_name.is_empty() && name.contains(their_name.as_str())
        });
        let mut flows = Vec::new();
        let file = match from {
            Some((file, _, _, _, original)) => {
                ordered_like(&mut document, original, &mut flows);
                file.clone()
            }
            None => kustomization_file(dir),
        };
        let mut text = String::new();
        if YamlEmitter::new(&mut text).dump(&document).is_err() {
            continue;
        }
        let mut text = text.strip_prefix("---\n").unwrap_or(&text).to_string();
        for (at, flow) in flows.iter().enumerate().rev() {
            text = text.replace(&flow_token(at), flow);
        }
        by_file.entry(file).or_default().push(text);
    }
    by_file
        .into_iter()
        .map(|(file, documents)| {
            let lines: Vec<Vec<&str>> = documents
                .iter()
                .map(|document| document.lines().collect())
                .collect();
            let original = texts.get(&file).map(String::as_str).unwrap_or_default();
            let text = aligned(original, &lines);
            (file.to_string_lossy().into_owned(), text.into_bytes())
        })
        .collect()
}

/// The kustomization file of `dir` (the one kustomize reads first when several are there).
fn kustomization_file(dir: &Path) -> PathBuf {
    ["kustomization.yaml", "kustomization.yml", "Kustomization"]
        .iter()
        .map(|name| dir.join(name))
        .find(|file| file.is_file())
        .unwrap_or_else(|| dir.join("kustomization.yaml"))
}

/// Sets the keys of every mapping of `built` in the order they have in `original` (the file
/// it was built from), the keys `original` lacks (added by the overlay: a `namespace`, a
/// patched-in setting) after them. A mapping of scalars that gained keys is written on one
/// line, in flow style (`metadata: {"name": "prod-kafka", "namespace": "kafka"}`), so that
/// the lines after it stay on the lines of the file: it stands in `built` as a token that
/// `flows` maps to its text.
fn ordered_like(built: &mut Yaml, original: &Yaml, flows: &mut Vec<String>) {
    match (&mut *built, original) {
        (Yaml::Hash(entries), Yaml::Hash(written)) => {
            let gained = entries.keys().any(|key| !written.contains_key(key));
            if gained && let Some(flow) = flow_text(entries) {
                *built = Yaml::String(flow_token(flows.len()));
                flows.push(flow);
                return;
            }
            let mut sorted: Vec<(Yaml, Yaml)> = std::mem::take(entries).into_iter().collect();
            sorted.sort_by_key(|(key, _)| {
                written
                    .keys()
                    .position(|other| other == key)
                    .unwrap_or(usize::MAX)
            });
            for (key, mut value) in sorted {
                if let Some(was) = written.get(&key) {
                    ordered_like(&mut value, was, flows);
                }
                entries.insert(key, value);
            }
        }
        (Yaml::Array(items), Yaml::Array(written)) => {
            for (item, was) in items.iter_mut().zip(written.iter()) {
                ordered_like(item, was, flows);
            }
        }
        _ => {}
    }
}

/// What stands in the built tree for the `at`th flow mapping (plain text the emitter writes
/// as it is, and no manifest holds).
fn flow_token(at: usize) -> String {
    format!("kafkalintflowmapping{at}x")
}

/// A mapping of scalars as one line of flow YAML (JSON, which YAML reads); `None` when a
/// value is a collection.
fn flow_text(entries: &yaml_rust2::yaml::Hash) -> Option<String> {
    let scalar = |node: &Yaml| -> Option<String> {
        Some(match node {
            Yaml::String(text) => serde_json::to_string(text).ok()?,
            Yaml::Integer(number) => number.to_string(),
            Yaml::Real(number) => serde_json::to_string(number).ok()?,
            Yaml::Boolean(value) => value.to_string(),
            Yaml::Null => "null".to_string(),
            _ => return None,
        })
    };
    let mut pieces = Vec::new();
    for (key, value) in entries {
        pieces.push(format!("{}: {}", scalar(key)?, scalar(value)?));
    }
    Some(format!("{{{}}}", pieces.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_entries_are_worked_out_on_the_text() {
        assert_eq!(
            normalize(Path::new("./a/production/../base/")),
            PathBuf::from("a/base")
        );
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
    }

    #[test]
    fn remote_bases_are_told_from_folders() {
        assert!(is_remote(
            "github.com/strimzi/strimzi-kafka-operator//packaging/install?ref=0.45.0"
        ));
        assert!(is_remote("https://example.com/kafka.yaml"));
        assert!(!is_remote("../base"));
    }

    #[test]
    fn a_patched_resource_keeps_the_order_of_its_file() {
        let original =
            &YamlLoader::load_from_str("kind: Kafka\nspec:\n  b: 1\n  a: 2\n").unwrap()[0];
        let mut built = YamlLoader::load_from_str("kind: Kafka\nspec:\n  a: 3\n  b: 1\n  c: 4\n")
            .unwrap()
            .remove(0);
        let mut flows = Vec::new();
        ordered_like(&mut built, original, &mut flows);
        let mut text = String::new();
        YamlEmitter::new(&mut text).dump(&built).unwrap();
        assert_eq!(text, format!("---\nkind: Kafka\nspec: {}", flow_token(0)));
        assert_eq!(flows, [r#"{"a": 3, "b": 1, "c": 4}"#]);
    }
}
