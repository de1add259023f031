//! Which configurations call a folder as a module: environment folders (`envs/prod`,
//! `live/prod`, `environments/dev`) whose `module "kafka" { source = "../../modules/kafka" }`
//! gives the module's variables.
//!
//! Terraform reads `terraform.tfvars` and `*.auto.tfvars` of the root module only (the folder
//! it runs in); a module called by another gets its variables from the arguments of the
//! `module` block that calls it, and each variable no argument sets from its `default`
//! (hashicorp/terraform internal/terraform/node_module_variable.go, `evalModuleVariable`, and
//! internal/command/meta_config.go, `collectVariableValues`, at v1.9.8). A local `source`
//! (`./` or `../`) is a folder beside the caller (internal/addrs/module_source.go,
//! `ModuleSourceLocal`).

use std::path::{Path, PathBuf};

use hcl_edit::expr::Expression;

/// The module blocks arguments that are not the module's variables
/// (internal/configs/module_call.go, `moduleBlockSchema`, at v1.9.8).
const META_ARGUMENTS: &[&str] = &[
    "source",
    "version",
    "providers",
    "depends_on",
    "count",
    "for_each",
];

/// Folders above a module searched for its callers, at most.
const LEVELS_UP: usize = 3;
/// Folders below that searched, at most.
const LEVELS_DOWN: usize = 5;
/// Files looked at in that search, at most: a bound on a run in a large tree.
const MAX_FILES: usize = 4000;

/// A `module` block that calls a folder.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The calling configuration's folder, where its variables files are.
    pub folder: PathBuf,
    /// `envs/prod: module.kafka`.
    pub label: String,
    /// The block's name: `kafka` of `module "kafka"`.
    pub name: String,
    /// The file the block is in, as shown.
    pub file: String,
    /// Its arguments that set the module's variables, by name.
    pub inputs: Vec<(String, Expression)>,
}

/// The `module` blocks of the configuration around `module_dir` whose local `source` is it, in
/// the order of their files' paths.
pub fn callers(module_dir: &Path) -> Vec<Caller> {
    let Ok(target) = std::fs::canonicalize(module_dir) else {
        return Vec::new();
    };
    let top = search_top(module_dir);
    let mut files = Vec::new();
    collect_tf_files(&top, 0, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if !text.contains("module") || !text.contains("source") {
            continue;
        }
        let Ok(body) = hcl_edit::parser::parse_body(&text) else {
            continue;
        };
        let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for block in body.get_blocks("module") {
            let Some(name) = block.labels.first().map(|label| label.as_str()) else {
                continue;
            };
            let Some(Expression::String(source)) = block
                .body
                .get_attribute("source")
                .map(|source| &source.value)
            else {
                continue;
            };
            let source = source.value().as_str();
            if !(source.starts_with("./") || source.starts_with("../")) {
                continue;
            }
            if std::fs::canonicalize(folder.join(source)).ok().as_ref() != Some(&target) {
                continue;
            }
            // `count = 0`: the module is not created.
            if let Some(count) = block.body.get_attribute("count")
                && let Expression::Number(number) = &count.value
                && number.value().as_u64() == Some(0)
            {
                continue;
            }
            let inputs = block
                .body
                .attributes()
                .filter(|attribute| !META_ARGUMENTS.contains(&attribute.key.value().as_str()))
                .map(|attribute| (attribute.key.value().to_string(), attribute.value.clone()))
                .collect();
            found.push(Caller {
                label: format!("{}: module.{name}", shown_caller(&folder, module_dir)),
                name: name.to_string(),
                file: shown(&file),
                folder: folder.clone(),
                inputs,
            });
        }
    }
    found
}

/// The folder searched for callers: up to [`LEVELS_UP`] above the module, never above the
/// folder the path is given from (a relative path's first component) nor a repository's root.
fn search_top(module_dir: &Path) -> PathBuf {
    let mut top = module_dir.to_path_buf();
    for _ in 0..LEVELS_UP {
        if top.join(".git").exists() {
            break;
        }
        match top.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => top = parent.to_path_buf(),
            Some(_) if top.is_relative() && top != Path::new(".") => {
                top = PathBuf::from(".");
                break;
            }
            _ => break,
        }
    }
    top
}

fn collect_tf_files(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) {
    if depth > LEVELS_DOWN || files.len() >= MAX_FILES {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if files.len() >= MAX_FILES {
            return;
        }
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        // Symbolic links are not followed: a link back up would loop.
        let Ok(kind) = std::fs::symlink_metadata(&path).map(|meta| meta.file_type()) else {
            continue;
        };
        if kind.is_dir() {
            collect_tf_files(&path, depth + 1, files);
        } else if kind.is_file() && name.to_ascii_lowercase().ends_with(".tf") {
            files.push(path);
        }
    }
}

/// How a calling folder is named: from where its path parts from the module's
/// (`envs/prod`), or whole when the module lies below it.
fn shown_caller(folder: &Path, module_dir: &Path) -> String {
    let beyond = beyond_common(folder, module_dir);
    if beyond.as_os_str().is_empty() {
        shown(folder)
    } else {
        shown(&beyond)
    }
}

/// `folder` from where it parts from `other` (`envs/prod` of `x/envs/prod` and `x/modules/kafka`).
fn beyond_common(folder: &Path, other: &Path) -> PathBuf {
    let clean = |path: &Path| -> Vec<std::ffi::OsString> {
        path.components()
            .filter(|part| !matches!(part, std::path::Component::CurDir))
            .map(|part| part.as_os_str().to_os_string())
            .collect()
    };
    let (folder, other) = (clean(folder), clean(other));
    let common = folder
        .iter()
        .zip(&other)
        .take_while(|(a, b)| a == b)
        .count();
    folder[common..].iter().collect()
}

/// A path as output shows it: relative ones without a leading `./`.
pub fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let text = text.strip_prefix("./").unwrap_or(&text);
    if text.is_empty() {
        ".".into()
    } else {
        text.to_string()
    }
}
