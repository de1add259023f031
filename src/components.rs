//! Other Kafka components configured beside the brokers: Connect distributed workers,
//! MirrorMaker 2, Kafka Streams applications and Schema Registry. Each creates topics of its own
//! on the cluster, with a replication factor from its own file, so their files are read with the
//! brokers of their cluster (see [`classify`] and `Cluster::components`).

pub use crate::catalog::ComponentKind;
use crate::properties::PropertiesFile;
use crate::source::SourceFile;

/// Keys only a broker or controller file sets.
pub const NODE_KEYS: &[&str] = &[
    "process.roles",
    "node.id",
    "broker.id",
    "zookeeper.connect",
    "controller.quorum.voters",
    "controller.quorum.bootstrap.servers",
    "log.dirs",
    "log.dir",
    "offsets.topic.replication.factor",
];

/// A component file of a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Component {
    /// Index of its file in the checked files.
    pub file: usize,
    /// Its part of a YAML file (see [`SourceFile::part`]).
    pub part: Option<u32>,
    pub kind: ComponentKind,
}

/// What a parsed file (or part `part` of a YAML file) configures, if it is a component. Works
/// on any [`SourceFile`], whatever source it was read from. Decided by the keys, first match
/// wins:
///
/// 1. a broker or controller key (`node.id`, `broker.id`, `process.roles`, `zookeeper.connect`,
///    `log.dirs`, ...): a node file, not a component;
/// 2. `clusters` naming an alias that has `<alias>.bootstrap.servers`: MirrorMaker 2 (before
///    Connect, since its file may hold Connect worker keys for its internal herders);
/// 3. `offset.storage.file.filename`: a standalone Connect worker, which keeps its state in
///    local files and creates no topics: not a component;
/// 4. `group.id` with `config.storage.topic`, `offset.storage.topic` or `status.storage.topic`:
///    a distributed Connect worker;
/// 5. `kafkastore.bootstrap.servers` or `kafkastore.topic`: Schema Registry;
/// 6. `application.id`: a Kafka Streams application.
///
/// A part of a YAML file is a component by its image alone (`YamlView::component`): a compose
/// service's keys come from its image, which already said what it runs.
pub fn classify(file: &SourceFile, part: Option<u32>) -> Option<ComponentKind> {
    match file.view(part) {
        Some(view) => view.component.as_ref().map(|service| service.kind),
        None => classify_properties(&file.properties),
    }
}

impl Component {
    /// The settings the component reads.
    pub fn properties<'a>(&self, files: &'a [SourceFile]) -> &'a PropertiesFile {
        files[self.file].settings(self.part)
    }
}

fn classify_properties(properties: &PropertiesFile) -> Option<ComponentKind> {
    let has = |key: &str| properties.get(key).is_some();
    if NODE_KEYS.iter().any(|key| has(key)) {
        return None;
    }
    if mirror_maker_aliases(properties).is_some() {
        return Some(ComponentKind::MirrorMaker);
    }
    if has("offset.storage.file.filename") {
        return None;
    }
    if has("group.id")
        && [
            "config.storage.topic",
            "offset.storage.topic",
            "status.storage.topic",
        ]
        .iter()
        .any(|key| has(key))
    {
        return Some(ComponentKind::ConnectDistributed);
    }
    if has("kafkastore.bootstrap.servers") || has("kafkastore.topic") {
        return Some(ComponentKind::SchemaRegistry);
    }
    if has("application.id") {
        return Some(ComponentKind::Streams);
    }
    None
}

/// The aliases of `clusters`, when one of them has `<alias>.bootstrap.servers`.
pub fn mirror_maker_aliases(properties: &PropertiesFile) -> Option<Vec<String>> {
    let aliases: Vec<String> = properties
        .get("clusters")?
        .value
        .split(',')
        .map(|alias| alias.trim().to_string())
        .filter(|alias| !alias.is_empty())
        .collect();
    aliases
        .iter()
        .any(|alias| {
            properties
                .get(&format!("{alias}.bootstrap.servers"))
                .is_some()
        })
        .then_some(aliases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Option<ComponentKind> {
        classify(
            &SourceFile::new("f.properties".into(), text.as_bytes().to_vec()),
            None,
        )
    }

    #[test]
    fn each_component_by_its_keys() {
        assert_eq!(
            kind("bootstrap.servers=k:9092\ngroup.id=connect\nconfig.storage.topic=c\n"),
            Some(ComponentKind::ConnectDistributed)
        );
        assert_eq!(
            kind("clusters=A, B\nA.bootstrap.servers=a:9092\nB.bootstrap.servers=b:9092\n"),
            Some(ComponentKind::MirrorMaker)
        );
        assert_eq!(
            kind("application.id=app\nbootstrap.servers=k:9092\n"),
            Some(ComponentKind::Streams)
        );
        assert_eq!(
            kind("kafkastore.bootstrap.servers=PLAINTEXT://k:9092\n"),
            Some(ComponentKind::SchemaRegistry)
        );
    }

    #[test]
    fn precedence() {
        // MirrorMaker 2 files carry Connect worker keys for their internal herders.
        assert_eq!(
            kind("clusters=A,B\nA.bootstrap.servers=a:9092\ngroup.id=g\nconfig.storage.topic=c\n"),
            Some(ComponentKind::MirrorMaker)
        );
        // A node key makes a node file, whatever else it holds.
        assert_eq!(
            kind("broker.id=0\ngroup.id=g\nconfig.storage.topic=c\n"),
            None
        );
        // `clusters` without any alias's bootstrap servers is not MirrorMaker 2.
        assert_eq!(
            kind("clusters=A\napplication.id=x\n"),
            Some(ComponentKind::Streams)
        );
    }

    #[test]
    fn standalone_workers_and_clients_are_not_components() {
        assert_eq!(
            kind(
                "bootstrap.servers=k:9092\noffset.storage.file.filename=/tmp/o\noffset.storage.topic=x\ngroup.id=g\n"
            ),
            None
        );
        assert_eq!(kind("bootstrap.servers=k:9092\ngroup.id=g\n"), None);
    }
}
