//! Finding the node files under the paths the user named and grouping them into clusters.
//!
//! Every directory holding node files is one cluster; the files named on the command line
//! together form one cluster. ZooKeeper-mode and KRaft nodes never share a cluster. Nodes that
//! sit alone in directories whose paths differ only in the trailing number of one component
//! (`brokers/b0/server.properties`, `brokers/b1/server.properties`) and that name the same
//! ZooKeeper or KRaft quorum are one cluster. A directory's alternative sets of the same nodes
//! are clusters of their own, and overlays are no nodes (see `membership`); each cluster
//! records why its files are together.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::membership;
use super::node::cluster_identity;
use super::{Cluster, Gathered, Member, Membership, Mode, Node, SetApart, Share, Target};
use crate::components::NODE_KEYS;
use crate::source::SourceFile;
use crate::sources::{self, Stated};

#[derive(Debug, thiserror::Error)]
pub enum DiscoveryError {
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    #[error("{path}: {reason}")]
    NotAConfig { path: String, reason: String },
}

/// What was found: every file read, and the clusters they form.
#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub clusters: Vec<Cluster>,
    /// Files passed over, with why (shown to the user, not errors).
    pub skipped: Vec<String>,
    /// What was assumed in reading the files (a Helm chart's line), shown to the user.
    pub notes: Vec<String>,
    /// Declared topics bound to no cluster (see [`super::topics`]): checked alone.
    pub unbound_topics: Vec<super::topics::DeclaredTopic>,
}

/// What a walk looks for, for a message when it finds none of it.
const NOTHING_FOUND: &str = "no broker or controller .properties file, compose file, Kubernetes manifest, bitnami/kafka Helm values, Strimzi or Confluent resource, cp-ansible inventory, or Terraform file that deploys Kafka";

/// File names that are node files whatever their keys.
fn has_node_file_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.ends_with(".properties")
        && ["server", "broker", "controller"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

fn is_properties_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("properties"))
}

fn display_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    text.strip_prefix("./").map(str::to_string).unwrap_or(text)
}

/// Why a file is not a node file, or `None` when it is one.
fn not_a_node(file: &SourceFile, name: &str) -> Option<String> {
    if file.bytes.is_empty() {
        return Some("empty file: not a Kafka broker or controller configuration".into());
    }
    if looks_binary(&file.bytes) {
        return Some("binary data: not a properties file".into());
    }
    if file.parse_error.is_some() || has_node_file_name(name) {
        return None;
    }
    // A Connect, MirrorMaker 2, Streams or Schema Registry file joins its folder's cluster as a
    // component (see `push_clusters`).
    if crate::components::classify(file, None).is_some() {
        return None;
    }
    let has_node_key = file
        .properties
        .entries
        .iter()
        .any(|entry| NODE_KEYS.contains(&entry.key.as_str()));
    (!has_node_key).then(|| "no broker or controller settings (node.id, broker.id, process.roles, zookeeper.connect, log.dirs, ...)".into())
}

fn looks_binary(bytes: &[u8]) -> bool {
    // A control byte other than a tab, a line end or a form feed. NUL is one: a file with one
    // is binary whatever the count.
    fn control(b: u8) -> bool {
        (b < 0x20) & (b != b'\t') & (b != b'\n') & (b != b'\r') & (b != 0x0c)
    }
    // Most blocks of a text hold no byte below 0x20 but line ends. Two counts that the compiler
    // turns into a few vector instructions (over blocks of a fixed size, summed without
    // branches) settle such a block; another is counted a byte at a time, NUL included. One
    // exact count of every byte was twice the instructions.
    const BLOCK: usize = 64;
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut controls = 0usize;
    let mut exactly = |block: &[u8]| -> bool {
        controls += block.iter().filter(|&&b| control(b)).count();
        block.contains(&0)
    };
    for block in &mut blocks {
        let block: &[u8; BLOCK] = block.try_into().expect("chunks_exact gives whole blocks");
        let (mut low, mut line_ends) = (0u8, 0u8);
        for &b in block {
            low += u8::from(b < 0x20);
            line_ends += u8::from(b == b'\n') + u8::from(b == b'\r');
        }
        if low != line_ends && exactly(block) {
            return true;
        }
    }
    exactly(blocks.remainder()) || controls * 10 > bytes.len()
}

fn read(path: &Path) -> Result<SourceFile, DiscoveryError> {
    let bytes = crate::source::read_file(path).map_err(|error| DiscoveryError::Io {
        path: display_path(path),
        message: io_message(&error),
    })?;
    Ok(SourceFile::new(display_path(path), bytes))
}

fn io_message(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => error.to_string(),
    }
}

use crate::source::excludes::{Excludes, Filter};

/// Reads the files under `paths` and groups the node files into clusters.
pub fn discover(
    paths: &[PathBuf],
    declared_brokers: Option<usize>,
) -> Result<Discovered, DiscoveryError> {
    discover_declared(paths, declared_brokers, &[])
}

/// A cluster that a config file declares by its files, wherever they lie.
#[derive(Debug, Clone)]
pub struct Declared {
    pub name: String,
    /// Its node files, as a walk of the config file's folder finds them.
    pub files: Vec<PathBuf>,
    /// Its declared broker count; `--brokers` wins over it.
    pub brokers: Option<usize>,
    /// The files that declare its topics (`topics` globs).
    pub topics: Vec<PathBuf>,
}

/// Every node file under `dir`, as a walk finds them (the same entries passed over).
pub fn node_files_under(dir: &Path, excludes: &Excludes) -> Result<Vec<PathBuf>, DiscoveryError> {
    let mut scratch = Discovered::default();
    let mut paths = Vec::new();
    let walker = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    let mut bounds = Bounds::new(dir, &[], excludes);
    for entry in walker.filter_entry(|entry| bounds.enters(entry)) {
        let entry = match entry {
            Err(error) if dangling_link(&error).is_some() => continue,
            entry => entry.map_err(|error| walk_error(error, dir))?,
        };
        if read_walked(&entry, &mut scratch)?.is_some() {
            paths.push(entry.path().to_path_buf());
        }
    }
    Ok(paths)
}

/// As [`discover`], except that a file of a `declared` cluster joins that cluster, which is
/// then read whole (its files outside `paths` too), so that every node of it is seen.
pub fn discover_declared(
    paths: &[PathBuf],
    declared_brokers: Option<usize>,
    declared: &[Declared],
) -> Result<Discovered, DiscoveryError> {
    discover_declared_in_batches(paths, declared_brokers, declared, &Stated::default(), None)
}

/// As [`discover_declared`]; with `finished`, a walked folder whose cluster nothing outside
/// it can join (two or more node files, no YAML beside them) is handed to it as soon as the
/// walk has left it, a batch of such folders at a time, each a `Discovered` of its own, and
/// the result holds the rest. A tree of many clusters is then never in memory whole:
/// `finished` can check each batch and keep only what its output needs.
pub fn discover_declared_in_batches(
    paths: &[PathBuf],
    declared_brokers: Option<usize>,
    declared: &[Declared],
    stated: &Stated,
    finished: Option<&mut dyn FnMut(Vec<Discovered>)>,
) -> Result<Discovered, DiscoveryError> {
    let touched = vec![false; declared.len()];
    let walk = Walk {
        shallow: false,
        named: &[],
        stated,
    };
    discover_from(paths, walk, declared_brokers, declared, touched, finished)
}

/// How [`discover_from`] walks a folder.
#[derive(Clone, Copy)]
struct Walk<'a> {
    /// Only the folder's own entries, not its subfolders'.
    shallow: bool,
    /// Files named on the command line (absolute): followed when they are links out of the
    /// folder, as a named file is.
    named: &'a [PathBuf],
    /// What the config file states of the files (a chart version).
    stated: &'a Stated,
}

/// `check --with-cluster`: each of `changed` within its whole cluster, its `declared` one or
/// else its folder's node files (as a walk of that folder reads them, not its subfolders).
/// Named files that do not exist or are no node files are passed over. Returns what was
/// found and the indices of the changed files among `files`.
pub fn discover_changed(
    changed: &[PathBuf],
    declared_brokers: Option<usize>,
    declared: &[Declared],
    stated: &Stated,
) -> Result<(Discovered, Vec<usize>), DiscoveryError> {
    let owners = owners(declared);
    let mut touched = vec![false; declared.len()];
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut named = std::collections::BTreeSet::new();
    for path in changed {
        // Missing files and folders are passed over; a pipe or device is refused when read.
        if std::fs::metadata(path).is_ok_and(|metadata| metadata.is_dir()) || !path.exists() {
            continue;
        }
        let file = read(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let yaml = sources::is_deployment_name(&name);
        if yaml {
            let read = sources::read_named(path, file.path.clone(), file.bytes.to_vec(), stated);
            // A broken file is checked when a walk would read it: a pre-commit run names
            // every changed YAML file, most of which are no Kafka file.
            let broken =
                !read.unreadable.is_empty() && sources::worth_reading(&file.path, &file.bytes);
            if read.clusters.is_empty() && !broken {
                continue;
            }
        }
        if !yaml && not_a_node(&file, &name).is_some() {
            continue;
        }
        let absolute = crate::config::absolute(path);
        if let Some(owner) = owners.get(&absolute) {
            touched[*owner] = true;
        } else {
            let dir = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let dir_absolute = crate::config::absolute(&dir);
            if !dirs
                .iter()
                .any(|known| crate::config::absolute(known) == dir_absolute)
            {
                dirs.push(dir);
            }
        }
        named.insert(absolute);
    }
    let named_paths: Vec<PathBuf> = named.iter().cloned().collect();
    let walk = Walk {
        shallow: true,
        named: &named_paths,
        stated,
    };
    let found = discover_from(&dirs, walk, declared_brokers, declared, touched, None)?;
    // An inventory Ansible cannot parse that the role of a named template reads: its hosts
    // are that template's, so the run reports it (`invalid-syntax`).
    let refused_inventory = |file: &SourceFile| {
        file.syntax_error.as_deref().is_some_and(|error| {
            error
                .reason
                .starts_with(sources::ansible::inventory_syntax::REFUSED)
        })
    };
    let only = (0..found.files.len())
        .filter(|i| {
            named.contains(&crate::config::absolute(Path::new(&found.files[*i].path)))
                || refused_inventory(&found.files[*i])
        })
        .collect();
    Ok((found, only))
}

fn owners(declared: &[Declared]) -> std::collections::HashMap<PathBuf, usize> {
    declared
        .iter()
        .enumerate()
        .flat_map(|(index, cluster)| {
            cluster
                .files
                .iter()
                .map(move |path| (crate::config::absolute(path), index))
        })
        .collect()
}

/// Reads `paths` (folders only to depth 1 when `walk.shallow`) and groups what it finds; a
/// file of a declared cluster joins it, and each declared cluster met (or `touched` already)
/// is read whole.
fn discover_from(
    paths: &[PathBuf],
    walk_how: Walk,
    declared_brokers: Option<usize>,
    declared: &[Declared],
    mut touched: Vec<bool>,
    mut finished: Option<&mut dyn FnMut(Vec<Discovered>)>,
) -> Result<Discovered, DiscoveryError> {
    let owners = owners(declared);
    // The topic files `[[clusters]]` entries claim: one read touches its cluster too.
    let topic_owners: std::collections::HashMap<PathBuf, usize> = declared
        .iter()
        .enumerate()
        .flat_map(|(index, cluster)| {
            let topics = cluster.topics.iter();
            topics.map(move |path| (crate::config::absolute(path), index))
        })
        .collect();
    // The `.properties` files compose files of the walk mount into their containers.
    let mut mounts: Vec<sources::compose::mounts::MountedProperties> = Vec::new();
    let compose_above = ComposeAbove::default();
    let topics_beside = TopicsBeside::default();
    let mut read_files: std::collections::HashMap<PathBuf, usize> = Default::default();
    let mut found = Discovered::default();
    let mut named_files = Vec::new();
    // Directory -> node files found in it by walking (none of a declared cluster).
    let mut walked: BTreeMap<PathBuf, Vec<SourceFile>> = BTreeMap::new();
    // Files that may declare topics, read for them once the clusters are known.
    let mut topic_sources: Vec<super::topics::TopicSource> = Vec::new();
    // Their folders: a cluster there waits for them before it is handed on.
    let mut topic_dirs: std::collections::BTreeSet<PathBuf> = Default::default();

    for path in paths {
        let metadata = std::fs::metadata(path).map_err(|error| DiscoveryError::Io {
            path: display_path(path),
            message: io_message(&error),
        })?;
        if !metadata.is_dir() {
            let file = read(path)?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            // A shell script that creates topics (`kafka-topics --create`) is read for them.
            if sources::topics::shell::is_script_name(&name) {
                let declares_topics = sources::topics::read(&file.path, &file.bytes)
                    .is_some_and(|read| !read.topics.is_empty());
                if declares_topics {
                    if let Some(owner) = topic_owners.get(&crate::config::absolute(path)) {
                        touched[*owner] = true;
                    }
                    topic_sources.push((file.path.clone(), file.bytes.to_vec()));
                    continue;
                }
            }
            if sources::is_deployment_name(&name) {
                let shown = file.path.clone();
                // A file that declares topics is checked for them, cluster or not.
                let declares_topics = sources::topics::read(&shown, &file.bytes)
                    .is_some_and(|read| !read.topics.is_empty());
                if declares_topics {
                    if let Some(owner) = topic_owners.get(&crate::config::absolute(path)) {
                        touched[*owner] = true;
                    }
                    topic_sources.push((shown.clone(), file.bytes.to_vec()));
                }
                let read =
                    sources::read_named(path, file.path, file.bytes.to_vec(), walk_how.stated);
                let named = (!declares_topics).then_some(shown.as_str());
                add_yaml(&mut found, read, declared_brokers, named)?;
                continue;
            }
            // An Ansible inventory named alone that Ansible cannot parse: `invalid-syntax`.
            if let Some(refused) = sources::ansible::role::refused_inventory(&file) {
                let read = sources::Found {
                    unreadable: vec![refused],
                    ..sources::Found::default()
                };
                add_yaml(&mut found, read, declared_brokers, Some(&file.path))?;
                continue;
            }
            if let Some(reason) = not_a_node(&file, &name) {
                return Err(DiscoveryError::NotAConfig {
                    path: file.path,
                    reason,
                });
            }
            let absolute = crate::config::absolute(path);
            if let Some(owner) = owners.get(&absolute) {
                touched[*owner] = true;
            } else {
                named_files.push(found.files.len());
            }
            read_files.insert(absolute, found.files.len());
            found.files.push(file);
            continue;
        }
        let mut walker = walkdir::WalkDir::new(path)
            .follow_links(true)
            .sort_by_file_name();
        if walk_how.shallow {
            walker = walker.max_depth(1);
        }
        // A named folder that holds nothing to check is a wrong path, not a clean cluster.
        let seen_before = (found.files.len(), found.skipped.len(), topic_sources.len());
        let mut accepted = 0;
        let mut yaml_by_dir: BTreeMap<PathBuf, Vec<(String, Vec<u8>)>> = BTreeMap::new();
        // kustomization files met: their overlays are built (or said not checked) below.
        let mut kustomizations: Vec<PathBuf> = Vec::new();
        // Folders are handed on early only when no other path named can reach into them.
        let absolute = crate::config::absolute(path);
        let alone = paths
            .iter()
            .map(|other| crate::config::absolute(other))
            .filter(|other| other.starts_with(&absolute) || absolute.starts_with(other))
            .count()
            == 1;
        // The walk's notes go where they went when the whole walk came first.
        let walk_notes_at = found.skipped.len();
        let mut entries = Walking::new(walker, path, &walk_how);
        // Each batch is read on the pool while the walk lists the next one; the first is
        // small, so that the reading threads start early.
        let first: Vec<_> = entries.by_ref().take(FIRST_READ_BATCH).collect();
        let mut reading = (!first.is_empty()).then(|| start_reading(first));
        while let Some(pending) = reading.take() {
            let upcoming: Vec<_> = entries.by_ref().take(READ_BATCH).collect();
            // The entry the walk comes to next: `Some(None)` at the walk's end, `None` when it
            // is an error (returned once its batch is gathered).
            let next: Option<Option<PathBuf>> = match upcoming.first() {
                Some(Ok(entry)) => Some(Some(entry.path().to_path_buf())),
                Some(Err(_)) => None,
                None => Some(None),
            };
            let batch = pending.wait();
            reading = (!upcoming.is_empty()).then(|| start_reading(upcoming));
            for (entry, read_file) in batch {
                let entry = entry?;
                if note_special_file(&entry, &mut found) {
                    continue;
                }
                if entry.file_type().is_file()
                    && sources::kubernetes::kustomize::is_kustomization_name(
                        &entry.file_name().to_string_lossy(),
                    )
                {
                    kustomizations.push(entry.path().to_path_buf());
                }
                // Shell scripts that create topics: read for them once the clusters are known.
                if entry.file_type().is_file()
                    && sources::topics::shell::is_script_name(&entry.file_name().to_string_lossy())
                {
                    let file = read(entry.path())?;
                    if offer_topics(
                        entry.path(),
                        &file,
                        &topic_owners,
                        &mut touched,
                        &mut topic_dirs,
                        &mut topic_sources,
                    ) {
                        continue;
                    }
                }
                if entry.file_type().is_file()
                    && sources::is_deployment_name(&entry.file_name().to_string_lossy())
                {
                    let file = read(entry.path())?;
                    offer_topics(
                        entry.path(),
                        &file,
                        &topic_owners,
                        &mut touched,
                        &mut topic_dirs,
                        &mut topic_sources,
                    );
                    if sources::worth_reading(&file.path, &file.bytes) {
                        yaml_by_dir
                            .entry(parent_dir(entry.path()))
                            .or_default()
                            .push((file.path, file.bytes.to_vec()));
                    }
                    continue;
                }
                // A broker's `.properties` file of an Ansible role (`roles/<role>/files/`,
                // `templates/`) is read for each host that runs the role, not as one node.
                if entry.file_type().is_file()
                    && (sources::ansible::role::is_role_properties(entry.path())
                        || sources::ansible::role::is_compose_template(entry.path()))
                {
                    let file = read(entry.path())?;
                    if sources::worth_reading(&file.path, &file.bytes) {
                        yaml_by_dir
                            .entry(parent_dir(entry.path()))
                            .or_default()
                            .push((file.path, file.bytes.to_vec()));
                        continue;
                    }
                }
                if let Some(file) = accept_walked(&entry, read_file, &mut found)? {
                    accepted += 1;
                    // Without declared clusters no file has an owner to look up.
                    let owned = (!owners.is_empty())
                        .then(|| crate::config::absolute(entry.path()))
                        .and_then(|absolute| Some((*owners.get(&absolute)?, absolute)));
                    if let Some((owner, absolute)) = owned {
                        touched[owner] = true;
                        read_files.insert(absolute, found.files.len());
                        found.files.push(file);
                    } else {
                        walked
                            .entry(parent_dir(entry.path()))
                            .or_default()
                            .push(file);
                    }
                }
            }
            if let Some(finished) = finished.as_mut().filter(|_| alone) {
                let Some(next) = next else {
                    continue;
                };
                // A folder whose files a compose file above it may mount waits for it.
                let beside_yaml = |dir: &Path| {
                    yaml_by_dir.contains_key(dir)
                        || topic_dirs.contains(dir)
                        || compose_above.mounts(dir, path)
                        || topics_beside.near(dir, path)
                };
                let done = take_finished(&mut walked, next.as_deref(), beside_yaml);
                if !done.is_empty() {
                    finished(
                        done.into_iter()
                            .map(|(dir, files)| folder_cluster(dir, files, declared_brokers))
                            .collect(),
                    );
                }
            }
        }
        found
            .skipped
            .splice(walk_notes_at..walk_notes_at, entries.notes());
        // Charts of the repository's own: their templates read as `helm template` renders
        // them, when helm is on the PATH.
        let rendering = sources::helm::render::render_charts(&mut yaml_by_dir);
        found.skipped.extend(rendering.skipped);
        found.notes.extend(rendering.info);
        // kustomize overlays: built with `kustomize build` when it is on the PATH.
        let rendering = sources::kubernetes::kustomize::render_kustomizations(
            &kustomizations,
            &mut yaml_by_dir,
            sources::worth_reading,
        );
        found.skipped.extend(rendering.skipped);
        found.notes.extend(rendering.info);
        mounts.extend(
            yaml_by_dir
                .values()
                .flat_map(|files| sources::compose_mounts(files)),
        );
        add_walked_yaml(&mut found, yaml_by_dir, walk_how.stated, declared_brokers);
        // A chart rendered once per environment says the same of a template each time.
        let mut said = std::collections::HashSet::new();
        found.skipped.retain(|note| said.insert(note.clone()));
        if !walk_how.shallow
            && accepted == 0
            && (found.files.len(), found.skipped.len(), topic_sources.len()) == seen_before
        {
            // The working folder (a repository's root, the GitHub Action's default) may hold
            // no Kafka at all: said, not an error. Another folder named is a wrong path.
            if path == Path::new(".") {
                found.notes.push(format!(
                    "{}: no Kafka configuration in it or below ({NOTHING_FOUND})",
                    display_path(path)
                ));
                continue;
            }
            return Err(DiscoveryError::NotAConfig {
                path: display_path(path),
                reason: "a folder with no broker or controller files in it or below".into(),
            });
        }
    }

    for (index, cluster) in declared.iter().enumerate() {
        if !touched[index] {
            continue;
        }
        let mut members = Vec::new();
        for path in &cluster.files {
            let absolute = crate::config::absolute(path);
            let member = match read_files.get(&absolute) {
                Some(member) => *member,
                None => {
                    let file = read(path)?;
                    read_files.insert(absolute, found.files.len());
                    found.files.push(file);
                    found.files.len() - 1
                }
            };
            if !members.contains(&member) {
                members.push(member);
            }
        }
        let before = found.clusters.len();
        push_clusters(
            &mut found,
            cluster.name.clone(),
            Gathered::Declared {
                name: cluster.name.clone(),
            },
            &whole_files(&members),
            declared_brokers.or(cluster.brokers),
        );
        for pushed in &mut found.clusters[before..] {
            pushed.declared = Some(index);
        }
    }

    let mut by_dir: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    for (dir, files) in walked {
        let indices = by_dir.entry(dir).or_default();
        for file in files {
            indices.push(found.files.len());
            found.files.push(file);
        }
    }
    let mut found = group(found, &named_files, &by_dir, declared_brokers);
    place_mounted(&mut found, &mounts);
    // The topic files a `[[clusters]]` entry claims: read when its cluster is, wherever they are.
    let mut claims = Vec::new();
    for (index, cluster) in declared.iter().enumerate() {
        for path in &cluster.topics {
            let absolute = crate::config::absolute(path);
            let shown = display_path(path);
            let known = topic_sources
                .iter()
                .any(|(read, _)| crate::config::absolute(Path::new(read)) == absolute);
            if !known && touched[index] {
                topic_sources.push((shown, read(path)?.bytes.to_vec()));
            }
            claims.push((absolute, index));
        }
    }
    let unbound = super::topics::bind(
        &mut found.files,
        &mut found.clusters,
        topic_sources,
        &claims,
    );
    found.skipped.extend(unbound.notes);
    found.unbound_topics = unbound.topics;
    Ok(found)
}

/// Records, for each cluster, the node files a compose service of the walk bind-mounts into its
/// container (see [`super::MountedFile`]).
fn place_mounted(found: &mut Discovered, mounts: &[sources::compose::mounts::MountedProperties]) {
    if mounts.is_empty() {
        return;
    }
    let by_path: std::collections::HashMap<PathBuf, &sources::compose::mounts::MountedProperties> =
        mounts
            .iter()
            .map(|mount| (crate::config::absolute(&mount.source), mount))
            .collect();
    let mut placed: Vec<(String, String)> = Vec::new();
    for cluster in &mut found.clusters {
        for node in cluster.nodes.iter().filter(|node| node.part.is_none()) {
            let path = crate::config::absolute(Path::new(&found.files[node.file].path));
            if let Some(mount) = by_path.get(&path) {
                cluster.mounted.push(super::MountedFile {
                    file: node.file,
                    service: mount.service.clone(),
                    compose: mount.compose.clone(),
                    host_network: mount.host_network,
                    shares_container: false,
                });
            }
        }
        let services: Vec<(String, String)> = cluster
            .mounted
            .iter()
            .map(|mounted| (mounted.compose.clone(), mounted.service.clone()))
            .collect();
        for mounted in &mut cluster.mounted {
            let key = (mounted.compose.clone(), mounted.service.clone());
            mounted.shares_container = services.iter().filter(|other| **other == key).count() > 1;
        }
        placed.extend(services);
    }
    // A service whose configuration is a mounted file the walk read was checked through that
    // file: the compose reader's note that it was not read from the environment counts no
    // file as not checked.
    found.skipped.retain(|note| {
        !placed.iter().any(|(compose, service)| {
            note.starts_with(&format!(
                "{compose}: service `{service}`: its Kafka configuration comes from the mounted"
            ))
        })
    });
}

/// Whether a compose file in a folder from a walked folder up to the walk's root mounts
/// `.properties` files: such a folder's cluster waits for the compose files to be read.
/// Answers are kept by folder (a tree of many folders asks of the same ones).
#[derive(Default)]
struct ComposeAbove {
    known: std::cell::RefCell<std::collections::HashMap<PathBuf, bool>>,
}

impl ComposeAbove {
    fn mounts(&self, dir: &Path, root: &Path) -> bool {
        dir.ancestors()
            .take_while(|ancestor| ancestor.starts_with(root))
            .any(|ancestor| self.holds(ancestor))
    }

    fn holds(&self, folder: &Path) -> bool {
        if let Some(known) = self.known.borrow().get(folder) {
            return *known;
        }
        let holds = std::fs::read_dir(folder)
            .map(|entries| {
                entries.filter_map(Result::ok).any(|entry| {
                    let name = entry.file_name().to_string_lossy().to_ascii_lowercase();
                    (name.contains("compose") && sources::is_deployment_name(&name))
                        && entry.file_type().is_ok_and(|kind| kind.is_file())
                        && crate::source::read_file(&entry.path()).is_ok_and(|bytes| {
                            memchr::memmem::find(&bytes, b".properties").is_some()
                        })
                })
            })
            .unwrap_or(false);
        self.known.borrow_mut().insert(folder.to_path_buf(), holds);
        holds
    }
}

/// Keeps a walked file that may declare topics (read for them once the clusters are known) and
/// its folder (whose cluster waits for them); one a `[[clusters]]` entry claims touches that
/// cluster. Whether it was kept.
fn offer_topics(
    path: &Path,
    file: &SourceFile,
    owners: &std::collections::HashMap<PathBuf, usize>,
    touched: &mut [bool],
    dirs: &mut std::collections::BTreeSet<PathBuf>,
    kept: &mut Vec<super::topics::TopicSource>,
) -> bool {
    if !sources::topics::worth_reading(&file.path, &file.bytes) {
        return false;
    }
    if let Some(owner) = owners.get(&crate::config::absolute(path)) {
        touched[*owner] = true;
    }
    dirs.insert(parent_dir(path));
    kept.push((file.path.clone(), file.bytes.to_vec()));
    true
}

/// Whether a file that may declare topics sits in a walked folder's parent or in a folder
/// beside it (`scripts/create-topics.sh` beside `config/`): such a folder's cluster waits for
/// them, as a topic there may bind to it (see [`super::topics`]). Answers are kept by parent.
#[derive(Default)]
struct TopicsBeside {
    known: std::cell::RefCell<std::collections::HashMap<PathBuf, bool>>,
}

impl TopicsBeside {
    fn near(&self, dir: &Path, root: &Path) -> bool {
        match dir.parent() {
            Some(parent) if parent.starts_with(root) => self.holds(parent),
            _ => false,
        }
    }

    fn holds(&self, parent: &Path) -> bool {
        if let Some(known) = self.known.borrow().get(parent) {
            return *known;
        }
        let in_folder = |folder: &Path| {
            std::fs::read_dir(folder)
                .map(|entries| {
                    entries.filter_map(Result::ok).any(|entry| {
                        let path = entry.path();
                        entry.file_type().is_ok_and(|kind| kind.is_file())
                            && sources::topics::may_declare(&path.to_string_lossy())
                            && crate::source::read_file(&path).is_ok_and(|bytes| {
                                sources::topics::worth_reading(&path.to_string_lossy(), &bytes)
                            })
                    })
                })
                .unwrap_or(false)
        };
        // The folders beside are listed on every core: the walk waits for the answer before
        // it hands on its first folder, and a tree of a thousand cluster folders is a thousand
        // listings.
        let holds = in_folder(parent)
            || std::fs::read_dir(parent).is_ok_and(|entries| {
                let folders: Vec<PathBuf> = entries
                    .filter_map(Result::ok)
                    .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
                    .map(|entry| entry.path())
                    .collect();
                crate::parallel::any(&folders, |folder| in_folder(folder))
            });
        self.known.borrow_mut().insert(parent.to_path_buf(), holds);
        holds
    }
}

/// Walked entries read at a time: enough to keep every core busy, few enough that a tree of
/// many clusters is not in memory whole.
const READ_BATCH: usize = 128;

/// The walk's first batch: the reading threads have nothing to do until it is listed.
const FIRST_READ_BATCH: usize = 32;

/// The folders of `walked` that the walk has left for good (`next` is the next entry to come,
/// `None` at the end) and whose cluster is settled: two or more node files, or only
/// components, and no compose file or Strimzi resource beside them (`beside_yaml`: YAML
/// nodes are read at the end). A lone node waits: a sibling folder's node may join it.
fn take_finished(
    walked: &mut BTreeMap<PathBuf, Vec<SourceFile>>,
    next: Option<&Path>,
    beside_yaml: impl Fn(&Path) -> bool,
) -> Vec<(PathBuf, Vec<SourceFile>)> {
    let settled: Vec<PathBuf> = walked
        .iter()
        .filter(|(dir, files)| {
            next.is_none_or(|next| !next.starts_with(dir))
                && !beside_yaml(dir)
                && super::component::node_count(files) != 1
        })
        .map(|(dir, _)| dir.clone())
        .collect();
    settled
        .into_iter()
        .filter_map(|dir| walked.remove_entry(&dir))
        .collect()
}

/// One walked folder's files grouped as [`group`] groups a folder that is no lone node's.
fn folder_cluster(
    dir: PathBuf,
    mut files: Vec<SourceFile>,
    declared_brokers: Option<usize>,
) -> Discovered {
    // A folder's files are kept until output: no room for more.
    files.shrink_to_fit();
    let by_dir = BTreeMap::from([(dir, (0..files.len()).collect())]);
    let found = Discovered {
        files,
        ..Discovered::default()
    };
    group(found, &[], &by_dir, declared_brokers)
}

/// Adds the clusters of the YAML and Terraform files beside `path` (an open buffer's unsaved
/// text in place of its file), each read as when it is named: the clusters a topic declared in
/// `path` may bind to.
fn add_clusters_beside(
    found: &mut Discovered,
    path: &Path,
    open: &[Buffer],
    declared_brokers: Option<usize>,
    stated: &Stated,
) {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut siblings: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|entry| entry.path())
        .filter(|sibling| {
            sibling.file_name() != path.file_name()
                && sibling
                    .file_name()
                    .is_some_and(|name| sources::is_deployment_name(&name.to_string_lossy()))
        })
        .collect();
    siblings.sort();
    for sibling in siblings {
        let bytes = match open.iter().find(|other| other.path == sibling) {
            Some(other) => other.bytes.to_vec(),
            None => match crate::source::read_file(&sibling) {
                Ok(bytes) => bytes,
                Err(_) => continue,
            },
        };
        let shown = display_path(&sibling);
        if !sources::worth_reading(&shown, &bytes) {
            continue;
        }
        let read = sources::read_named(&sibling, shown, bytes, stated);
        // What cannot be read beside the buffer is said when that file is checked itself.
        let read = sources::Found {
            notes: Vec::new(),
            info: Vec::new(),
            errors: Vec::new(),
            unreadable: Vec::new(),
            ..read
        };
        let _ = add_yaml(found, read, declared_brokers, None);
    }
}

/// An editor's unsaved buffer: the bytes of `path`, read from standard input.
#[derive(Debug, Clone, Copy)]
pub struct Buffer<'a> {
    pub path: &'a Path,
    pub bytes: &'a [u8],
}

/// Discovers the folder `buffer.path` is in as a walk of that folder would (its own files; not
/// its subfolders, which are clusters of their own), with the buffer's bytes in place of the
/// file on disk, whether or not it exists yet. Returns what was found and the buffer's index in
/// `files`. A buffer that is no node file is an error naming its path, as for a named file.
pub fn discover_buffer(
    buffer: Buffer,
    declared_brokers: Option<usize>,
    stated: &Stated,
) -> Result<(Discovered, usize), DiscoveryError> {
    discover_buffer_among(buffer, &[], declared_brokers, stated)
}

/// [`discover_buffer`], with the unsaved text of other open buffers (an editor's documents) in
/// place of their files where the walk of the buffer's folder meets them.
pub fn discover_buffer_among(
    buffer: Buffer,
    open: &[Buffer],
    declared_brokers: Option<usize>,
    stated: &Stated,
) -> Result<(Discovered, usize), DiscoveryError> {
    let Some(name) = buffer.path.file_name() else {
        return Err(DiscoveryError::Io {
            path: display_path(buffer.path),
            message: "not a file name".into(),
        });
    };
    if buffer.path.is_dir() {
        return Err(DiscoveryError::Io {
            path: display_path(buffer.path),
            message: "is a directory".into(),
        });
    }
    if sources::is_deployment_name(&name.to_string_lossy()) {
        // A YAML file is a cluster of its own, read with what the YAML files beside it add
        // (node pools, ConfigMaps), as when it is named.
        let shown = display_path(buffer.path);
        let declares_topics =
            sources::topics::read(&shown, buffer.bytes).is_some_and(|read| !read.topics.is_empty());
        let read = sources::read_named(buffer.path, shown.clone(), buffer.bytes.to_vec(), stated);
        let mut found = Discovered::default();
        let named = (!declares_topics).then_some(shown.as_str());
        add_yaml(&mut found, read, declared_brokers, named)?;
        if !declares_topics {
            let index = found.files.len().saturating_sub(1);
            return Ok((found, index));
        }
        // Its topics bind to its own clusters or to those of the YAML files beside it.
        add_clusters_beside(&mut found, buffer.path, open, declared_brokers, stated);
        let topic_source = vec![(shown.clone(), buffer.bytes.to_vec())];
        let unbound = super::topics::bind(&mut found.files, &mut found.clusters, topic_source, &[]);
        found.skipped.extend(unbound.notes);
        found.unbound_topics = unbound.topics;
        let index = found.files.iter().rposition(|file| file.path == shown);
        return Ok((found, index.unwrap_or_default()));
    }
    let file = SourceFile::new(display_path(buffer.path), buffer.bytes.to_vec());
    if let Some(refused) = sources::ansible::role::refused_inventory(&file) {
        let read = sources::Found {
            unreadable: vec![refused],
            ..sources::Found::default()
        };
        let mut found = Discovered::default();
        let shown = file.path.clone();
        add_yaml(&mut found, read, declared_brokers, Some(&shown))?;
        let index = found.files.len().saturating_sub(1);
        return Ok((found, index));
    }
    if let Some(reason) = not_a_node(&file, &name.to_string_lossy()) {
        return Err(DiscoveryError::NotAConfig {
            path: file.path,
            reason,
        });
    }
    let dir = match buffer.path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut found = Discovered::default();
    let mut members = Vec::new();
    let mut pending = Some(file);
    let mut index = 0;
    // A folder that does not exist yet holds no siblings: the buffer is a cluster of its own.
    if dir.is_dir() {
        let walker = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .max_depth(1)
            .sort_by_file_name()
            .into_iter();
        // The buffer stands in for its path, named: no note about what it replaces.
        let named = [crate::config::absolute(buffer.path)];
        let mut bounds = Bounds::new(dir, &named, &stated.excludes);
        for entry in walker.filter_entry(|entry| bounds.enters(entry)) {
            let entry = match entry {
                Err(error) if let Some(note) = dangling_link(&error) => {
                    found.skipped.push(note);
                    continue;
                }
                entry => entry.map_err(|error| walk_error(error, dir))?,
            };
            if entry.depth() == 0 || entry.file_name() == name {
                continue;
            }
            // The buffer takes its place in file-name order, as the file on disk would.
            if entry.file_name() > name
                && let Some(file) = pending.take()
            {
                index = found.files.len();
                members.push(index);
                found.files.push(file);
            }
            let unsaved = open.iter().find(|other| other.path == entry.path());
            let file = match unsaved {
                Some(other) if is_candidate(&entry) => {
                    let file = SourceFile::new(display_path(other.path), other.bytes.to_vec());
                    let reason = not_a_node(&file, &entry.file_name().to_string_lossy());
                    accept_walked(&entry, Some(Ok((file, reason))), &mut found)?
                }
                _ => read_walked(&entry, &mut found)?,
            };
            if let Some(file) = file {
                members.push(found.files.len());
                found.files.push(file);
            }
        }
        found.skipped.append(&mut bounds.notes);
    }
    if let Some(file) = pending.take() {
        index = found.files.len();
        members.push(index);
        found.files.push(file);
    }
    let by_dir = BTreeMap::from([(dir.to_path_buf(), members)]);
    Ok((group(found, &[], &by_dir, declared_brokers), index))
}

/// Adds what YAML files gave: their nodes, one cluster per compose file or Strimzi `Kafka`,
/// and notes on what was passed over. A `named` file (its path) that gives no cluster, or is
/// no YAML, is an error; a walked one that is no YAML is noted.
fn add_yaml(
    found: &mut Discovered,
    read: sources::Found,
    declared_brokers: Option<usize>,
    named: Option<&str>,
) -> Result<(), DiscoveryError> {
    // A named file that cannot be parsed is a finding of its own (`invalid-syntax`).
    if let Some(path) = named.filter(|_| read.unreadable.is_empty()) {
        if let Some((path, reason)) = read.errors.first().cloned() {
            return Err(DiscoveryError::NotAConfig { path, reason });
        }
        if read.clusters.is_empty() {
            // A note says why a Kafka service it found is not checked.
            let lower = path.to_ascii_lowercase();
            let mut reason = if !read.notes.is_empty() {
                "no Kafka node kafkalint can check"
            } else if lower.ends_with(".tf") {
                "no helm_release of the bitnami/kafka chart, and no kubernetes_manifest or kubectl_manifest of a Kafka workload or a Strimzi Kafka"
            } else if lower.ends_with(".j2") {
                "no template of a broker's or controller's .properties file in an Ansible role (roles/<role>/templates/)"
            } else {
                "no compose service or Kubernetes workload with a Kafka image kafkalint knows (apache/kafka, confluentinc/cp-kafka, confluentinc/confluent-local, bitnami/kafka, wurstmeister/kafka) and no Strimzi Kafka resource"
            }
            .to_string();
            // One line, as every error: a line break inside it would be one a file's name or
            // a service's could forge too (output shows them escaped).
            for note in &read.notes {
                reason.push_str(&format!("; {note}"));
            }
            return Err(DiscoveryError::NotAConfig {
                path: path.to_string(),
                reason,
            });
        }
    }
    add_yaml_read(found, read, declared_brokers);
    Ok(())
}

/// Adds what the walked YAML files of each folder gave (see [`add_yaml`]). A Strimzi
/// `KafkaConnect` or `KafkaMirrorMaker2` whose bootstrap address names no `Kafka` of its own
/// folder joins the `Kafka` of the walk it names (see [`strimzi_elsewhere`]): an operator's
/// resources are applied to one namespace from wherever a repository keeps them.
fn add_walked_yaml(
    found: &mut Discovered,
    yaml_by_dir: BTreeMap<PathBuf, Vec<(String, Vec<u8>)>>,
    stated: &sources::Stated,
    declared_brokers: Option<usize>,
) {
    let mut elsewhere = strimzi_elsewhere(&yaml_by_dir);
    // Each Strimzi `Kafka` read: its folder, its name and its cluster in `found`.
    let mut kafka_clusters: Vec<(PathBuf, String, usize)> = Vec::new();
    // A component bound to a `Kafka` of another folder: that folder, the name, file and part.
    let mut bound: Vec<(PathBuf, String, usize, u32)> = Vec::new();
    for (dir, files) in yaml_by_dir {
        let wanted = elsewhere.remove(&dir).unwrap_or_default();
        let beside = sources::Beside {
            stated: stated.clone(),
            kafkas_elsewhere: wanted.iter().map(|(_, kafka)| kafka.clone()).collect(),
            ..sources::Beside::default()
        };
        let read = sources::read_files_beside(files, &beside);
        let file_offset = found.files.len();
        let kafkas = read.strimzi_kafkas.clone();
        let bound_here = read.bound_elsewhere.clone();
        let clusters = add_yaml_read(found, read, declared_brokers);
        for (name, index) in kafkas {
            if let Some(Some(cluster)) = clusters.get(index) {
                kafka_clusters.push((dir.clone(), name, *cluster));
            }
        }
        for (name, file, part) in bound_here {
            if let Some((folder, _)) = wanted.iter().find(|(_, kafka)| kafka.name == name) {
                bound.push((folder.clone(), name, file_offset + file, part));
            }
        }
    }
    for (folder, name, file, part) in bound {
        let (components, _) = super::component::split(&found.files, &[(file, Some(part))]);
        for (_, _, cluster) in kafka_clusters
            .iter()
            .filter(|(dir, kafka, _)| *dir == folder && *kafka == name)
        {
            found.clusters[*cluster]
                .components
                .extend(components.iter().cloned());
        }
    }
}

/// For each folder whose Strimzi `KafkaConnect`s or `KafkaMirrorMaker2`s name a `Kafka` (by
/// its bootstrap service, the only tie Strimzi knows between them) that no file of the folder
/// holds, the `Kafka`s of other folders they name, with their folders. Of the `Kafka`s an
/// address may name, the one nearest the folder wins (the deepest common folder: a
/// repository's `target/connect/` names `target/kafka/`'s, not `source/kafka/`'s of the same
/// name); a tie at that depth between folders binds to none, and the note that the resource
/// names no `Kafka` stays.
fn strimzi_elsewhere(
    yaml_by_dir: &BTreeMap<PathBuf, Vec<(String, Vec<u8>)>>,
) -> BTreeMap<PathBuf, Vec<(PathBuf, sources::strimzi::KafkaName)>> {
    let ties: Vec<(&PathBuf, Vec<sources::strimzi::KafkaName>, Vec<String>)> = yaml_by_dir
        .iter()
        .map(|(dir, files)| {
            let (kafkas, addresses) = sources::strimzi_ties(files);
            (dir, kafkas, addresses)
        })
        .filter(|(_, kafkas, addresses)| !kafkas.is_empty() || !addresses.is_empty())
        .collect();
    let mut wanted: BTreeMap<PathBuf, Vec<(PathBuf, sources::strimzi::KafkaName)>> =
        BTreeMap::new();
    for (dir, local, addresses) in &ties {
        for address in addresses {
            if !sources::strimzi::bootstrap_matches(address, local).is_empty() {
                continue;
            }
            let mut nearest: Vec<(&PathBuf, &sources::strimzi::KafkaName)> = Vec::new();
            let mut depth = 0;
            for (other, kafkas, _) in ties.iter().filter(|(other, ..)| other != dir) {
                let shared = dir
                    .components()
                    .zip(other.components())
                    .take_while(|(a, b)| a == b)
                    .count();
                for kafka in sources::strimzi::bootstrap_matches(address, kafkas) {
                    if shared > depth || nearest.is_empty() {
                        nearest.clear();
                        depth = shared;
                    }
                    if shared == depth {
                        nearest.push((other, kafka));
                    }
                }
            }
            // Two of one name in one folder are alternatives of one `Kafka` (one name in one
            // namespace): the resource runs against whichever is applied, so against each.
            let one_folder = nearest.windows(2).all(|pair| pair[0] == pair[1]);
            if let Some(&(other, kafka)) = nearest.first().filter(|_| one_folder) {
                let list = wanted.entry((*dir).clone()).or_default();
                if !list.iter().any(|(_, known)| known == kafka) {
                    list.push((other.clone(), kafka.clone()));
                }
            }
        }
    }
    wanted
}

/// Adds what walked YAML files gave (see [`add_yaml`]): their clusters and notes. Returns, for
/// each cluster of `read`, the first cluster of `found` it became (none when it held no node).
fn add_yaml_read(
    found: &mut Discovered,
    read: sources::Found,
    declared_brokers: Option<usize>,
) -> Vec<Option<usize>> {
    let mut first_clusters = Vec::with_capacity(read.clusters.len());
    found.skipped.extend(read.notes);
    found.notes.extend(read.info);
    // Only files that look like compose files or Strimzi resources are read: one that cannot
    // be is said in one line, never dropped in silence (a repeated key, an alias bomb).
    for (path, reason) in read.errors {
        found.skipped.push(format!("{path}: {reason}"));
    }
    let offset = found.files.len();
    found.files.extend(read.files);
    for cluster in read.clusters {
        let members: Vec<Member> = cluster
            .members
            .iter()
            .map(|(file, part)| (offset + file, Some(*part)))
            .collect();
        // A compose file's cluster is named by its path; a Strimzi `Kafka`'s by its file and
        // name; Kubernetes workloads by their file (and namespace).
        let gathered = match cluster.form {
            sources::Form::Compose => Gathered::Compose {
                path: cluster.name.clone(),
            },
            sources::Form::Strimzi => Gathered::Strimzi {
                resource: cluster.name.clone(),
            },
            sources::Form::Kubernetes => Gathered::Manifests {
                name: cluster.name.clone(),
            },
            sources::Form::HelmValues => Gathered::HelmValues {
                path: cluster.name.clone(),
            },
            sources::Form::Confluent => Gathered::Confluent {
                resource: cluster.name.clone(),
            },
            sources::Form::Ansible => Gathered::Ansible {
                path: cluster.name.clone(),
            },
            sources::Form::Terraform => Gathered::Terraform {
                release: cluster.name.clone(),
            },
            sources::Form::AnsibleRole => Gathered::AnsibleRole {
                template: cluster.name.clone(),
            },
        };
        let before = found.clusters.len();
        push_clusters(found, cluster.name, gathered, &members, declared_brokers);
        first_clusters.push((found.clusters.len() > before).then_some(before));
    }
    // In no cluster: the `invalid-syntax` rule reports each (see `report::run`).
    found.files.extend(read.unreadable);
    first_clusters
}

fn parent_dir(path: &Path) -> PathBuf {
    path.parent().map(Path::to_path_buf).unwrap_or_default()
}

/// The note for a walk's error that is a symbolic link below the walked folder leading to
/// nothing (`docs/README.link` to a file not checked out): such a link is passed over, as a
/// file that cannot be read and is no Kafka file is. A link named on the command line is no
/// walk's entry, and stays an error; so do loops.
fn dangling_link(error: &walkdir::Error) -> Option<String> {
    if error.depth() == 0 || error.loop_ancestor().is_some() {
        return None;
    }
    let path = error.path()?;
    if error.io_error()?.kind() != std::io::ErrorKind::NotFound
        || !path.symlink_metadata().ok()?.file_type().is_symlink()
        || path.exists()
    {
        return None;
    }
    Some(format!(
        "{}: a symbolic link that leads nowhere: passed over",
        display_path(path)
    ))
}

fn walk_error(error: walkdir::Error, root: &Path) -> DiscoveryError {
    DiscoveryError::Io {
        path: error
            .path()
            .map(display_path)
            .unwrap_or_else(|| display_path(root)),
        message: match error.loop_ancestor() {
            Some(ancestor) => format!("symbolic link loop back to {}", display_path(ancestor)),
            None => error
                .io_error()
                .map(io_message)
                .unwrap_or_else(|| error.to_string()),
        },
    }
}

/// A file met while walking a folder: `Some` when it is a node file. A node-named file that is
/// not one is noted in `found.skipped`, as is a pipe, socket or device named like a file a
/// walk reads.
fn read_walked(
    entry: &walkdir::DirEntry,
    found: &mut Discovered,
) -> Result<Option<SourceFile>, DiscoveryError> {
    if note_special_file(entry, found) {
        return Ok(None);
    }
    let read = is_candidate(entry).then(|| read_judged(entry));
    accept_walked(entry, read, found)
}

/// Whether a walk reads this entry: a `.properties` file.
fn is_candidate(entry: &walkdir::DirEntry) -> bool {
    entry.file_type().is_file() && is_properties_file(entry.path())
}

/// Whether `entry` bears the name of a file a walk reads (`.properties`, YAML).
fn has_read_name(entry: &walkdir::DirEntry) -> bool {
    is_properties_file(entry.path())
        || sources::is_deployment_name(&entry.file_name().to_string_lossy())
}

/// Notes a named pipe, socket or device that bears the name of a file a walk reads, and says
/// whether it was one: it is passed over unread, as reading it could wait forever.
fn note_special_file(entry: &walkdir::DirEntry, found: &mut Discovered) -> bool {
    let file_type = entry.file_type();
    if file_type.is_file() || file_type.is_dir() || !has_read_name(entry) {
        return false;
    }
    found.skipped.push(format!(
        "{}: {}, not a regular file",
        display_path(entry.path()),
        crate::source::special_kind(file_type)
    ));
    true
}

/// Where a walk goes: below its root. A symbolic link that leads out of it (to a folder or
/// to a file the walk would read) is passed over with a note: a `server-9.properties` in a
/// tree that links to a credentials file elsewhere is no broker file to show. A link named on
/// the command line is followed.
struct Bounds<'a> {
    /// The root with every link resolved; `None` when it cannot be (then it is not walked).
    root: Option<PathBuf>,
    /// Files named on the command line (absolute), followed wherever they lead.
    named: &'a [PathBuf],
    /// What the walk passes over: excluded and ignored entries.
    filter: Filter<'a>,
    /// What was passed over, and why.
    notes: Vec<String>,
}

impl<'a> Bounds<'a> {
    fn new(root: &Path, named: &'a [PathBuf], excludes: &'a Excludes) -> Self {
        Bounds {
            root: std::fs::canonicalize(root).ok(),
            named,
            filter: excludes.filter(),
            notes: Vec::new(),
        }
    }

    /// Whether the walk enters `entry` (reads it, or walks into it).
    fn enters(&mut self, entry: &walkdir::DirEntry) -> bool {
        if entry.depth() == 0 {
            return true;
        }
        if self
            .filter
            .excludes(entry.path(), entry.file_type().is_dir())
        {
            return false;
        }
        if !entry.path_is_symlink() {
            return true;
        }
        // A link that cannot be resolved (dangling, a loop) is left to the walk's own error.
        let (Some(root), Ok(target)) = (&self.root, std::fs::canonicalize(entry.path())) else {
            return true;
        };
        if target.starts_with(root) || self.named.contains(&crate::config::absolute(entry.path())) {
            return true;
        }
        if entry.file_type().is_dir() || has_read_name(entry) {
            self.notes.push(format!(
                "{}: a symbolic link that leads out of the folder walked: not followed (name it to check it)",
                display_path(entry.path())
            ));
        }
        false
    }
}

/// Every entry of a walk, in walk order (paths only: nothing is read), as the walk goes: the
/// first files are read and checked while the rest of the tree is walked. The links passed
/// over are noted by [`Walking::notes`] once the walk is done.
struct Walking<'a> {
    walker: walkdir::IntoIter,
    root: &'a Path,
    bounds: Bounds<'a>,
    dangling: Vec<String>,
}

impl<'a> Walking<'a> {
    fn new(walker: walkdir::WalkDir, root: &'a Path, how: &'a Walk) -> Self {
        Walking {
            walker: walker.into_iter(),
            root,
            bounds: Bounds::new(root, how.named, &how.stated.excludes),
            dangling: Vec::new(),
        }
    }

    /// What the walk passed over and why: dangling links, then links out of the root and
    /// excluded entries.
    fn notes(self) -> impl Iterator<Item = String> {
        self.dangling.into_iter().chain(self.bounds.notes)
    }
}

impl Iterator for Walking<'_> {
    type Item = Result<walkdir::DirEntry, DiscoveryError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.walk_on()
    }
}

impl Walking<'_> {
    fn walk_on(&mut self) -> Option<Result<walkdir::DirEntry, DiscoveryError>> {
        // As walkdir's `filter_entry`: a folder the bounds keep out is not walked into.
        loop {
            match self.walker.next()? {
                Ok(entry) if !self.bounds.enters(&entry) => {
                    if entry.file_type().is_dir() {
                        self.walker.skip_current_dir();
                    }
                }
                Ok(entry) => return Some(Ok(entry)),
                Err(error) => match dangling_link(&error) {
                    Some(note) => self.dangling.push(note),
                    None => return Some(Err(walk_error(error, self.root))),
                },
            }
        }
    }
}

/// Walked entries in walk order, each with its file read and parsed when it is a candidate.
/// Reading and parsing, most of the time of a large tree, run on every core, started now and
/// gathered later; the walk itself and what follows stay in order, so errors and results are
/// the same as one by one.
fn start_reading(
    entries: Vec<Result<walkdir::DirEntry, DiscoveryError>>,
) -> crate::parallel::Started<Vec<WalkedEntry>> {
    crate::parallel::start(entries.len(), move || {
        let reads = crate::parallel::map(&entries, |entry| match entry {
            Ok(entry) if is_candidate(entry) => Some(read_judged(entry)),
            _ => None,
        });
        entries.into_iter().zip(reads).collect()
    })
}

/// A walked file read, with why it is no node file ([`not_a_node`]), worked out beside the read
/// on the reading threads rather than after it on the one that gathers the files.
fn read_judged(entry: &walkdir::DirEntry) -> Result<(SourceFile, Option<String>), DiscoveryError> {
    let file = read(entry.path())?;
    let reason = not_a_node(&file, &entry.file_name().to_string_lossy());
    if reason.is_none() {
        file.properties.index_keys();
    }
    Ok((file, reason))
}

type WalkedEntry = (
    Result<walkdir::DirEntry, DiscoveryError>,
    Option<Result<(SourceFile, Option<String>), DiscoveryError>>,
);

/// [`read_walked`] after the read: `read` is `None` when the entry is no candidate.
fn accept_walked(
    entry: &walkdir::DirEntry,
    read: Option<Result<(SourceFile, Option<String>), DiscoveryError>>,
    found: &mut Discovered,
) -> Result<Option<SourceFile>, DiscoveryError> {
    let Some(read) = read else {
        return Ok(None);
    };
    let (file, not_a_node) = read?;
    if let Some(reason) = not_a_node {
        let name = entry.file_name().to_string_lossy().into_owned();
        if has_node_file_name(&name) {
            found.skipped.push(format!("{}: {reason}", file.path));
        }
        return Ok(None);
    }
    Ok(Some(file))
}

/// Groups the files found into clusters: the named files together, each folder's files, and
/// lone nodes of sibling folders that name the same quorum.
fn group(
    mut found: Discovered,
    named_files: &[usize],
    by_dir: &BTreeMap<PathBuf, Vec<usize>>,
    declared_brokers: Option<usize>,
) -> Discovered {
    if !named_files.is_empty() {
        let name = named_files
            .iter()
            .map(|i| found.files[*i].path.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let members = whole_files(named_files);
        push_clusters(
            &mut found,
            name,
            Gathered::Named,
            &members,
            declared_brokers,
        );
    }
    let mut loners = Vec::new();
    // A lone node's folder's components, which go where the node goes.
    let mut loner_components: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (dir, files) in by_dir {
        let members = whole_files(files);
        let (components, nodes) = super::component::split(&found.files, &members);
        if let [(node, _)] = nodes[..] {
            loners.push((dir.clone(), node));
            loner_components.insert(node, components.iter().map(|c| c.file).collect());
        } else {
            let path = display_path(dir);
            let gathered = Gathered::Folder { path: path.clone() };
            push_clusters(&mut found, path, gathered, &members, declared_brokers);
        }
    }
    for (name, gathered, mut files) in group_loners(&found.files, &loners) {
        let components: Vec<usize> = files
            .iter()
            .flat_map(|file| loner_components.get(file).into_iter().flatten().copied())
            .collect();
        files.extend(components);
        let members = whole_files(&files);
        push_clusters(&mut found, name, gathered, &members, declared_brokers);
    }
    found.clusters.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// `.properties` files as members of a gathering.
fn whole_files(files: &[usize]) -> Vec<Member> {
    files.iter().map(|file| (*file, None)).collect()
}

/// The clusters of one gathering of `files`: one per mode (a ZooKeeper broker and a KRaft node
/// never run together; nodes of unknown mode join the first), Kafka's combined-mode sample
/// apart from its broker + controller pair, and, in a folder, one per alternative set (see
/// `membership::alternatives`). Overlays (see `membership::split_overlays`), files that do
/// not parse and components go with the first cluster.
fn push_clusters(
    found: &mut Discovered,
    name: String,
    gathered: Gathered,
    members: &[Member],
    declared_brokers: Option<usize>,
) {
    let (components, members) = super::component::split(&found.files, members);
    let nodes: Vec<Node> = members
        .iter()
        .filter(|(file, _)| found.files[*file].parse_error.is_none())
        .map(|(file, part)| Node::new(*file, *part, &found.files[*file]))
        .collect();
    let unparsed: Vec<usize> = members
        .iter()
        .map(|(file, _)| *file)
        .filter(|file| found.files[*file].parse_error.is_some())
        .collect();
    // A compose service or a Strimzi pool is a container of its own: always a node.
    let (overlays, nodes) = match gathered {
        Gathered::Compose { .. }
        | Gathered::Strimzi { .. }
        | Gathered::Manifests { .. }
        | Gathered::HelmValues { .. }
        | Gathered::Confluent { .. }
        | Gathered::Ansible { .. }
        | Gathered::Terraform { .. }
        | Gathered::AnsibleRole { .. } => (Vec::new(), nodes),
        _ => membership::split_overlays(&found.files, nodes),
    };
    let mut parts = shares(&found.files, nodes, &gathered);
    let first = parts
        .iter()
        .position(|part| part.share != Some(Share::StockSample))
        .unwrap_or(0);
    let mut components = Some(components);
    let mut overlays = Some(overlays);
    // Each share's files, its share, and why it is apart from each other share.
    let apart: Vec<(Vec<usize>, Option<Share>, Vec<String>)> = parts
        .iter()
        .map(|part| {
            (
                file_indices(&part.nodes),
                part.share.clone(),
                parts.iter().map(|other| other.why_apart(part)).collect(),
            )
        })
        .collect();
    for (index, part) in parts.drain(..).enumerate() {
        let overlays = if index == first {
            overlays.take().unwrap_or_default()
        } else {
            Vec::new()
        };
        let mut cluster_files = file_indices(part.nodes.iter().chain(&overlays));
        if index == first {
            cluster_files.extend(&unparsed);
        }
        let set_apart = apart
            .iter()
            .enumerate()
            .filter(|(other, _)| *other != index)
            .map(|(_, (files, share, why))| SetApart {
                files: files.clone(),
                share: share.clone(),
                why: why[index].clone(),
            })
            .collect();
        found.clusters.push(Cluster {
            name: part.name(&name, &found.files),
            nodes: part.nodes,
            files: cluster_files,
            declared_brokers,
            target: Target::newest(),
            declared: None,
            config: None,
            // The gathering's components belong with its first cluster (ZooKeeper mode's when
            // a folder holds both modes).
            components: if index == first {
                components.take().unwrap_or_default()
            } else {
                Vec::new()
            },
            overlays,
            placements: Vec::new(),
            mounted: Vec::new(),
            topics: Vec::new(),
            membership: Membership {
                gathered: gathered.clone(),
                share: part.share,
                set_apart,
            },
        });
    }
}

/// The files of `nodes`, each once (the nodes of a YAML file share it), in order.
fn file_indices<'a>(nodes: impl IntoIterator<Item = &'a Node>) -> Vec<usize> {
    let mut files: Vec<usize> = nodes.into_iter().map(|node| node.file).collect();
    files.sort_unstable();
    files.dedup();
    files
}

/// One cluster's share of a gathering.
struct Part {
    nodes: Vec<Node>,
    share: Option<Share>,
    /// For an alternative set: why each set is apart from it, by set.
    alternatives_apart: Vec<String>,
}

impl Part {
    fn new(nodes: Vec<Node>, share: Option<Share>) -> Part {
        Part {
            nodes,
            share,
            alternatives_apart: Vec::new(),
        }
    }

    fn name(&self, gathering: &str, files: &[SourceFile]) -> String {
        match &self.share {
            None => gathering.to_string(),
            Some(Share::Mode(Mode::ZooKeeper)) => format!("{gathering} (ZooKeeper mode)"),
            Some(Share::Mode(_)) => format!("{gathering} (KRaft mode)"),
            Some(Share::StockSample) => files[self.nodes[0].file].path.clone(),
            Some(share @ Share::Alternative { variant, .. }) => {
                format!("{gathering} ({}: {variant})", share.text())
            }
        }
    }

    /// Why `other`'s files are not this share's, in words.
    fn why_apart(&self, other: &Part) -> String {
        const MODES: &str = "ZooKeeper-mode brokers and KRaft nodes never run together";
        const SAMPLES: &str = "the other way to run Kafka's KRaft samples";
        match (&self.share, &other.share) {
            (_, Some(Share::StockSample)) => {
                format!("Kafka's combined-mode single-node sample: {SAMPLES}")
            }
            (Some(Share::StockSample), _) => {
                format!("the broker and controller samples beside it: {SAMPLES}")
            }
            (_, Some(share @ Share::Mode(_))) => format!("{}: {MODES}", share.text()),
            (_, Some(Share::Alternative { index, .. })) => self
                .alternatives_apart
                .get(index - 1)
                .cloned()
                .unwrap_or_default(),
            _ => String::new(),
        }
    }
}

/// The shares of a gathering's nodes: by mode, the stock sample, the alternative sets.
fn shares(files: &[SourceFile], nodes: Vec<Node>, gathered: &Gathered) -> Vec<Part> {
    let has_zookeeper = nodes.iter().any(|node| node.mode == Mode::ZooKeeper);
    let has_kraft = nodes.iter().any(|node| node.mode == Mode::KRaft);
    let (mut kraft, mut other): (Vec<Node>, Vec<Node>) = nodes
        .into_iter()
        .partition(|node| has_zookeeper && has_kraft && node.mode == Mode::KRaft);
    // Kafka's distribution ships config/kraft/{server,broker,controller}.properties: a
    // single-node combined sample beside a broker + controller pair. They are alternatives,
    // not one cluster.
    let stock_sample = take_stock_combined_sample(
        files,
        if kraft.is_empty() {
            &mut other
        } else {
            &mut kraft
        },
    );
    let mut parts = Vec::new();
    if let Some(sample) = stock_sample {
        parts.push(Part::new(vec![sample], Some(Share::StockSample)));
    }
    if !kraft.is_empty() {
        parts.push(Part::new(other, Some(Share::Mode(Mode::ZooKeeper))));
        parts.push(Part::new(kraft, Some(Share::Mode(Mode::KRaft))));
        return parts;
    }
    let folder = matches!(gathered, Gathered::Folder { .. });
    match folder
        .then(|| split_alternatives(files, &mut other))
        .flatten()
    {
        Some(alternatives) => parts.extend(alternatives),
        None => parts.push(Part::new(other, None)),
    }
    parts
}

/// `nodes` as alternative sets (taken out of `nodes`), when they are.
fn split_alternatives(files: &[SourceFile], nodes: &mut Vec<Node>) -> Option<Vec<Part>> {
    let sets = membership::alternatives(files, nodes)?;
    let mut taken: Vec<Option<Node>> = std::mem::take(nodes).into_iter().map(Some).collect();
    let of = sets.len();
    let parts = sets
        .iter()
        .enumerate()
        .map(|(index, set)| Part {
            nodes: set
                .nodes
                .iter()
                .filter_map(|node| taken[*node].take())
                .collect(),
            share: Some(Share::Alternative {
                index: index + 1,
                of,
                variant: set.variant.clone(),
            }),
            alternatives_apart: sets
                .iter()
                .enumerate()
                .map(|(other, other_set)| set.why_apart(other_set, other))
                .collect(),
        })
        .collect();
    Some(parts)
}

/// Takes the combined-mode `server.properties` out of a folder that holds Kafka's three KRaft
/// samples (`server.properties` combined, `broker.properties` broker-only,
/// `controller.properties` controller-only).
fn take_stock_combined_sample(files: &[SourceFile], nodes: &mut Vec<Node>) -> Option<Node> {
    let named = |name: &str| {
        nodes
            .iter()
            .position(|node| files[node.file].path.rsplit('/').next() == Some(name))
    };
    let (server, broker, controller) = (
        named("server.properties")?,
        named("broker.properties")?,
        named("controller.properties")?,
    );
    let roles = |index: usize| {
        (
            nodes[index].mode,
            nodes[index].roles.broker,
            nodes[index].roles.controller,
        )
    };
    let stock = roles(server) == (Mode::KRaft, true, true)
        && roles(broker) == (Mode::KRaft, true, false)
        && roles(controller) == (Mode::KRaft, false, true);
    stock.then(|| nodes.remove(server))
}

/// Groups single-node directories that differ in one path component and name the same quorum.
fn group_loners(
    files: &[SourceFile],
    loners: &[(PathBuf, usize)],
) -> Vec<(String, Gathered, Vec<usize>)> {
    // (path components with the varying one blanked, its index, identity) -> members
    let mut groups: BTreeMap<(Vec<String>, usize, String), Vec<usize>> = BTreeMap::new();
    let mut grouped = vec![false; loners.len()];
    for (i, (dir, file)) in loners.iter().enumerate() {
        let Some(identity) = cluster_identity(&files[*file].properties) else {
            continue;
        };
        let components: Vec<String> = dir
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for varying in 0..components.len() {
            // Only names that differ in a trailing number vary like broker folders: b0/b1, kafka-1/kafka-2.
            let mut shape = components.clone();
            shape[varying] = components[varying]
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .to_string();
            if shape[varying] == components[varying] || shape[varying].is_empty() {
                continue;
            }
            groups
                .entry((shape, varying, identity.clone()))
                .or_default()
                .push(i);
        }
    }
    let mut result = Vec::new();
    // Prefer the deepest varying component: brokers/b0/config and brokers/b1/config vary at `b*`.
    let mut candidates: Vec<_> = groups
        .into_iter()
        .filter(|(_, members)| members.len() > 1)
        .collect();
    candidates.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    for ((shape, varying, quorum), members) in candidates {
        if members.iter().any(|m| grouped[*m]) {
            continue;
        }
        for m in &members {
            grouped[*m] = true;
        }
        let mut name = PathBuf::from_iter(&shape[..varying]);
        name.push(format!("{}*", shape[varying]));
        name.extend(&shape[varying + 1..]);
        // A path, so that an absolute one starts with one `/` (`/srv/kafka/b*`), not two.
        let pattern = display_path(&name);
        result.push((
            pattern.clone(),
            Gathered::NumberedFolders { pattern, quorum },
            members.iter().map(|m| loners[*m].1).collect(),
        ));
    }
    for (i, (dir, file)) in loners.iter().enumerate() {
        if !grouped[i] {
            let path = display_path(dir);
            let gathered = Gathered::Folder { path: path.clone() };
            result.push((path, gathered, vec![*file]));
        }
    }
    result
}

/// Files held in memory, `(path, bytes)`, grouped as a walk that met them at those paths
/// would group them: one cluster per folder, lone nodes of sibling folders joined, files that
/// are no node files passed over, every compose file and Strimzi `Kafka` (read with the other
/// YAML files of its folder) a cluster. Nothing is read from disk (for fuzzing and property
/// tests).
pub fn discover_in_memory(
    files: Vec<(String, Vec<u8>)>,
    declared_brokers: Option<usize>,
) -> Discovered {
    let mut found = Discovered::default();
    // As a walk does: files that may declare topics, bound once the clusters are known.
    let topic_sources: Vec<super::topics::TopicSource> = files
        .iter()
        .filter(|(path, bytes)| sources::topics::worth_reading(path, bytes))
        .cloned()
        .collect();
    let (yaml, properties): (Vec<_>, Vec<_>) = files
        .into_iter()
        .filter(|(path, _)| !sources::topics::shell::is_script_name(path))
        .partition(|(path, _)| sources::is_deployment_name(path));
    // As a walk does: YAML that may hold Kafka settings, read with its folder's, first.
    let mut yaml_by_dir: BTreeMap<PathBuf, Vec<(String, Vec<u8>)>> = BTreeMap::new();
    for (path, bytes) in yaml {
        if sources::worth_reading(&path, &bytes) {
            let dir = parent_dir(Path::new(&path));
            yaml_by_dir.entry(dir).or_default().push((path, bytes));
        }
    }
    for (_, mut files) in yaml_by_dir {
        // In the order a walk reads a folder's files: by name.
        files.sort_by(|one, other| one.0.cmp(&other.0));
        add_yaml_read(
            &mut found,
            sources::read_files(files, &[]),
            declared_brokers,
        );
    }
    let mut by_dir: BTreeMap<PathBuf, Vec<usize>> = BTreeMap::new();
    // In the order a walk reads them: by name, folder by folder.
    let mut properties = properties;
    properties.sort_by(|(one, _), (other, _)| {
        Path::new(one)
            .components()
            .cmp(Path::new(other).components())
    });
    for (path, bytes) in properties {
        let file = SourceFile::new(path, bytes);
        let path = Path::new(&file.path);
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(reason) = not_a_node(&file, &name) {
            if has_node_file_name(&name) {
                found.skipped.push(format!("{}: {reason}", file.path));
            }
            continue;
        }
        let dir = parent_dir(path);
        by_dir.entry(dir).or_default().push(found.files.len());
        found.files.push(file);
    }
    let mut found = group(found, &[], &by_dir, declared_brokers);
    let unbound = super::topics::bind(&mut found.files, &mut found.clusters, topic_sources, &[]);
    found.skipped.extend(unbound.notes);
    found.unbound_topics = unbound.topics;
    found
}

#[cfg(test)]
mod tests {
    use super::looks_binary;

    /// The definition, a byte at a time.
    fn by_bytes(bytes: &[u8]) -> bool {
        let controls = bytes
            .iter()
            .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c))
            .count();
        bytes.contains(&0) || controls * 10 > bytes.len()
    }

    #[test]
    fn looks_binary_counts_as_a_byte_at_a_time() {
        // Lengths around the block size, control bytes at every density and place, and bytes
        // that are not controls (DEL, high bytes) beside them.
        for len in 0..300 {
            for step in [1, 2, 3, 7, 9, 10, 11, 64] {
                for mark in [0x01u8, 0x00, 0x1f, b'\t', 0x0c, b'\n', 0x7f, 0x80, 0xff] {
                    let bytes: Vec<u8> = (0..len)
                        .map(|i| if i % step == 0 { mark } else { b'a' })
                        .collect();
                    assert_eq!(
                        looks_binary(&bytes),
                        by_bytes(&bytes),
                        "{len} {step} {mark}"
                    );
                }
            }
            // One NUL, last: in the tail after the blocks, or the last byte of a block.
            let mut bytes = vec![b'a'; len];
            if let Some(last) = bytes.last_mut() {
                *last = 0;
                assert!(looks_binary(&bytes), "{len}");
            }
        }
    }
}
