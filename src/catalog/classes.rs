//! The classes of Kafka's own packages (`org.apache.kafka.`, `kafka.`) that each release ships,
//! dumped from its jars: what a key that names a class can find on a broker's classpath.

use super::VERSIONS;
use super::spec::{ClassPackage, KafkaVersion};
use super::tables::{CLASS_PACKAGES, IMPLEMENTATIONS};

/// What the catalogue can say of a class name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassName {
    /// Outside Kafka's packages: a plugin, which kafkalint cannot see.
    Plugin,
    /// In Kafka's packages, but in none the dumped jars hold in any release (a jar of the
    /// distribution outside the catalogue, such as the tools or MirrorMaker 2): not judged.
    Uncovered,
    /// In a package of Kafka's dumped jars: the releases that ship the class (none when no
    /// release has it, a misspelt name).
    Kafka(ClassReleases),
}

/// The releases that ship a class: bits indexing [`VERSIONS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassReleases(u32);

impl ClassReleases {
    pub fn ships(self, version: KafkaVersion) -> bool {
        version.release_bit().is_some_and(|bit| self.0 & bit != 0)
    }

    /// The releases that ship it, oldest first.
    fn releases(self) -> impl Iterator<Item = KafkaVersion> {
        VERSIONS
            .iter()
            .enumerate()
            .filter(move |(index, _)| self.0 & (1 << index) != 0)
            .map(|(_, version)| *version)
    }

    /// The release that removed it before `version`: the first without it after the last
    /// older release that has it.
    pub fn removed_before(self, version: KafkaVersion) -> Option<KafkaVersion> {
        let last = self
            .releases()
            .filter(|release| *release < version)
            .last()?;
        VERSIONS
            .iter()
            .copied()
            .find(|release| *release > last && !self.ships(*release))
    }

    /// The first release after `version` that ships it.
    pub fn added_after(self, version: KafkaVersion) -> Option<KafkaVersion> {
        self.releases().find(|release| *release > version)
    }
}

/// Whether `name` is in Kafka's own packages, where a missing class is Kafka's, not a plugin's.
pub fn in_kafka_packages(name: &str) -> bool {
    name.starts_with("org.apache.kafka.") || name.starts_with("kafka.")
}

/// What the catalogue knows of the class `name` (a binary name, `a.b.C`).
pub fn class_name(name: &str) -> ClassName {
    if !in_kafka_packages(name) {
        return ClassName::Plugin;
    }
    let Some((package, simple)) = name.rsplit_once('.') else {
        return ClassName::Uncovered;
    };
    let Ok(index) = CLASS_PACKAGES.binary_search_by(|entry| entry.name.cmp(package)) else {
        return ClassName::Uncovered;
    };
    let entry: &ClassPackage = &CLASS_PACKAGES[index];
    let releases = entry
        .classes
        .split(' ')
        .position(|class| class == simple)
        .map_or(0, |position| entry.releases[position]);
    ClassName::Kafka(ClassReleases(releases))
}

/// The class of `name`'s package that release `version` ships with the simple name nearest
/// to `name`'s (a typo), as `package.Name`.
pub fn nearest_shipped(name: &str, version: KafkaVersion) -> Option<String> {
    let (package, simple) = name.rsplit_once('.')?;
    let index = CLASS_PACKAGES
        .binary_search_by(|entry| entry.name.cmp(package))
        .ok()?;
    let entry = &CLASS_PACKAGES[index];
    let bit = version.release_bit()?;
    let shipped = entry
        .classes
        .split(' ')
        .zip(entry.releases)
        .filter(|(_, releases)| *releases & bit != 0)
        .map(|(class, _)| class);
    super::suggest::nearest(simple, shipped)
        .filter(|near| *near != simple)
        .map(|near| format!("{package}.{near}"))
}

/// What a class Kafka ships is, for a key that requires one of some types of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A class Kafka can create that is one of the types.
    Implements,
    /// One of the types, but an interface or an abstract class: Kafka cannot create it.
    NotInstantiable,
    /// None of the types.
    Other,
}

/// What the class `name` is in release `version` for a key that requires any of `required`
/// (full names): `None` when the catalogue cannot tell (a name outside Kafka's dumped
/// packages, a class the release does not ship, or no required type in the release).
pub fn kind(name: &str, required: &[&str], version: KafkaVersion) -> Option<Kind> {
    let bit = version.release_bit()?;
    let ships = |class: &str| matches!(class_name(class), ClassName::Kafka(releases) if releases.ships(version));
    if !ships(name) {
        return None;
    }
    let has = |classes: &[(&str, u32)]| {
        classes
            .iter()
            .any(|(class, releases)| *class == name && releases & bit != 0)
    };
    let mut known = None;
    for required in required.iter().filter(|required| ships(required)) {
        let Some(entry) = IMPLEMENTATIONS.iter().find(|e| e.required == *required) else {
            continue;
        };
        if has(entry.concrete) {
            return Some(Kind::Implements);
        }
        if has(entry.not_instantiable) {
            known = Some(Kind::NotInstantiable);
        } else {
            known = known.or(Some(Kind::Other));
        }
    }
    known
}

/// The classes of Kafka's own, in release `version`, that Kafka can create and that are of any
/// of the `required` types, sorted.
pub fn concrete_implementations(required: &[&str], version: KafkaVersion) -> Vec<&'static str> {
    let Some(bit) = version.release_bit() else {
        return Vec::new();
    };
    let mut classes: Vec<&'static str> = IMPLEMENTATIONS
        .iter()
        .filter(|entry| required.contains(&entry.required))
        .flat_map(|entry| entry.concrete.iter())
        .filter(|(_, releases)| releases & bit != 0)
        .map(|(class, _)| *class)
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
}

/// The classes release `version` ships whose simple name is `simple`, as full names, sorted.
pub fn with_simple_name(simple: &str, version: KafkaVersion) -> Vec<String> {
    let Some(bit) = version.release_bit() else {
        return Vec::new();
    };
    CLASS_PACKAGES
        .iter()
        .filter_map(|package| {
            let position = package
                .classes
                .split(' ')
                .position(|class| class == simple)?;
            (package.releases[position] & bit != 0).then(|| format!("{}.{simple}", package.name))
        })
        .collect()
}

/// Whether any release dumped has a class of Kafka's own whose simple name is `simple`.
pub fn is_simple_name_of_kafka_class(simple: &str) -> bool {
    CLASS_PACKAGES
        .iter()
        .any(|package| package.classes.split(' ').any(|class| class == simple))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_and_their_classes_are_sorted_and_matched() {
        assert!(
            CLASS_PACKAGES
                .windows(2)
                .all(|pair| pair[0].name < pair[1].name)
        );
        for package in CLASS_PACKAGES {
            let names: Vec<&str> = package.classes.split(' ').collect();
            assert_eq!(names.len(), package.releases.len(), "{}", package.name);
            assert!(
                names.windows(2).all(|pair| pair[0] < pair[1]),
                "{}",
                package.name
            );
        }
    }

    #[test]
    fn the_old_authorizers_go_as_kafka_removed_them() {
        let v = KafkaVersion::new;
        let ClassName::Kafka(simple) = class_name("kafka.security.auth.SimpleAclAuthorizer") else {
            panic!("kafka.security.auth is a package of Kafka's jars");
        };
        assert!(simple.ships(v(2, 8)) && !simple.ships(v(3, 0)));
        assert_eq!(simple.removed_before(v(3, 9)), Some(v(3, 0)));
        let ClassName::Kafka(acl) = class_name("kafka.security.authorizer.AclAuthorizer") else {
            panic!("kafka.security.authorizer is a package of Kafka's jars");
        };
        assert!(acl.ships(v(3, 9)) && !acl.ships(v(4, 0)));
        assert_eq!(acl.removed_before(v(4, 4)), Some(v(4, 0)));
        let ClassName::Kafka(standard) =
            class_name("org.apache.kafka.metadata.authorizer.StandardAuthorizer")
        else {
            panic!("a package of Kafka's jars");
        };
        assert_eq!(standard.added_after(v(3, 1)), Some(v(3, 2)));
        assert!(standard.ships(v(4, 4)));
    }

    #[test]
    fn kinds_come_from_the_jars_per_release() {
        let v = KafkaVersion::new;
        let metrics = &["org.apache.kafka.common.metrics.MetricsReporter"];
        let yammer = &["kafka.metrics.KafkaMetricsReporter"];
        let authorizer = &[
            "org.apache.kafka.server.authorizer.Authorizer",
            "kafka.security.auth.Authorizer",
        ];
        let jmx = "org.apache.kafka.common.metrics.JmxReporter";
        assert_eq!(kind(jmx, metrics, v(4, 1)), Some(Kind::Implements));
        assert_eq!(kind(jmx, yammer, v(4, 1)), Some(Kind::Other));
        assert_eq!(
            kind("kafka.metrics.KafkaCSVMetricsReporter", metrics, v(3, 9)),
            Some(Kind::Other)
        );
        assert_eq!(
            kind(metrics[0], metrics, v(3, 9)),
            Some(Kind::NotInstantiable)
        );
        // Kafka 2.8 still takes the Scala authorizer; 3.0 removed it with its trait.
        let simple = "kafka.security.auth.SimpleAclAuthorizer";
        assert_eq!(kind(simple, authorizer, v(2, 8)), Some(Kind::Implements));
        assert_eq!(kind(simple, authorizer, v(3, 0)), None);
        assert_eq!(kind("com.example.Authorizer", authorizer, v(4, 4)), None);
    }

    #[test]
    fn names_outside_the_dumped_packages_are_not_judged() {
        assert_eq!(class_name("com.example.MyAuthorizer"), ClassName::Plugin);
        assert_eq!(class_name("kafkaesque.Authorizer"), ClassName::Plugin);
        assert_eq!(
            class_name("org.apache.kafka.connect.mirror.MirrorSourceConnector"),
            ClassName::Uncovered
        );
        assert_eq!(
            class_name("org.apache.kafka.common.metrics.JmxReporterr"),
            ClassName::Kafka(ClassReleases(0))
        );
    }
}
