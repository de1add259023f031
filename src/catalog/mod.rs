//! Kafka's own configuration catalogue: every broker key of every supported release, with its
//! type, default and validator, as dumped from the real Kafka jars by `catalog/generate.sh` and
//! compiled into static tables by `build.rs`.

pub mod classes;
mod component;
pub mod component_keys;
mod custom;
pub mod families;
mod parsed;
mod spec;
pub mod suggest;
pub mod topic;
pub mod value;

pub use component::ComponentKind;
pub use spec::{
    Bound, ClassPackage, ConfigType, Default, FamilyRest, Importance, KafkaVersion, KeyEntry,
    KeySpec, PrefixFamily, UpdateMode, Validator, Variant,
};

mod tables {
    use super::spec::*;
    include!(concat!(env!("OUT_DIR"), "/catalog_tables.rs"));
}

pub use tables::{
    COMPONENT_DEFAULTS, KEYS, OTHER_COMPONENT_KEYS, OTHER_COMPONENT_PASSWORD_KEYS, PREFIX_FAMILIES,
    TOPIC_CONFIG_SYNONYMS, VERSIONS,
};

/// Why a `--kafka-version` was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unsupported Kafka version `{given}`: kafkalint knows {}",
    supported_list()
)]
pub struct UnsupportedVersion {
    pub given: String,
}

/// The releases kafkalint knows, for messages.
pub fn supported_list() -> String {
    VERSIONS
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl KafkaVersion {
    /// The newest release line the catalogue covers: the default target.
    pub fn newest() -> KafkaVersion {
        *VERSIONS.last().expect("the catalogue has releases")
    }

    /// The newest release line that still has ZooKeeper mode.
    pub const LAST_WITH_ZOOKEEPER: KafkaVersion = KafkaVersion::new(3, 9);

    /// `4.1` or a release of that line such as `4.1.2`; only lines the catalogue covers.
    pub fn parse(text: &str) -> Result<KafkaVersion, UnsupportedVersion> {
        let unsupported = || UnsupportedVersion {
            given: text.to_owned(),
        };
        let mut parts = text.trim().split('.');
        let mut number = || -> Result<u8, UnsupportedVersion> {
            parts
                .next()
                .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|p| p.parse().ok())
                .ok_or_else(unsupported)
        };
        let version = KafkaVersion::new(number()?, number()?);
        match parts.next() {
            None => {}
            Some(patch) if !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()) => {}
            Some(_) => return Err(unsupported()),
        }
        if parts.next().is_some() || version.release_bit().is_none() {
            return Err(unsupported());
        }
        Ok(version)
    }

    pub(crate) fn release_bit(self) -> Option<u32> {
        self.release_index().map(|index| 1 << index)
    }

    /// The release's place in `VERSIONS` (oldest first).
    fn release_index(self) -> Option<u32> {
        // Asked on every catalogue lookup, a hundred times a file: a table by major and minor,
        // made once, answers what a binary search of `VERSIONS` did.
        const MAJORS: usize = 8;
        const MINORS: usize = 32;
        const NONE: u8 = u8::MAX;
        static BY_NUMBER: std::sync::OnceLock<[[u8; MINORS]; MAJORS]> = std::sync::OnceLock::new();
        let table = BY_NUMBER.get_or_init(|| {
            let mut table = [[NONE; MINORS]; MAJORS];
            for (index, version) in VERSIONS.iter().enumerate() {
                let slot = table
                    .get_mut(usize::from(version.major))
                    .and_then(|minors| minors.get_mut(usize::from(version.minor)));
                if let Some(slot) = slot {
                    *slot = index as u8;
                }
            }
            table
        });
        match table
            .get(usize::from(self.major))
            .and_then(|minors| minors.get(usize::from(self.minor)))
        {
            Some(&NONE) => None,
            Some(&index) => Some(u32::from(index)),
            // Beyond the table: only a release the catalogue does not have, unless a later
            // catalogue outgrows it.
            None => VERSIONS.binary_search(&self).ok().map(|index| index as u32),
        }
    }
}

/// The catalogue's entry for `key`, in whichever releases it exists.
pub fn entry(key: &str) -> Option<&'static KeyEntry> {
    key_index(key).map(|index| &KEYS[index as usize])
}

/// Where `key` sits in `KEYS`.
fn key_index(key: &str) -> Option<u32> {
    // Rules ask about the same strings over and over: each line's key once per rule, and
    // their own key names. A small cache by the string's address answers a repeat without
    // hashing the name; what it answers is checked against the name found, so a string that
    // reuses a freed address is looked up afresh.
    thread_local! {
        static RECENT: [std::cell::Cell<(usize, u32)>; RECENT_SLOTS] =
            const { [const { std::cell::Cell::new((0, 0)) }; RECENT_SLOTS] };
    }
    let address = key.as_ptr() as usize;
    let slot = ((address >> 3) ^ (address >> 12)) % RECENT_SLOTS;
    let cached = RECENT.with(|recent| recent[slot].get());
    if cached.0 == address && cached.1 != 0 && KEYS[cached.1 as usize - 1].name == key {
        return Some(cached.1 - 1);
    }
    let index = by_name().get(key).copied()?;
    RECENT.with(|recent| recent[slot].set((address, index + 1)));
    Some(index)
}

const RECENT_SLOTS: usize = 512;

/// `KEYS` by name, built once. Rules look keys up many times a file: a binary search, which
/// compares whole names at every step, was a fifth of a large tree's run.
fn by_name() -> &'static std::collections::HashMap<&'static str, u32, foldhash::fast::FixedState> {
    static BY_NAME: std::sync::OnceLock<
        std::collections::HashMap<&'static str, u32, foldhash::fast::FixedState>,
    > = std::sync::OnceLock::new();
    BY_NAME.get_or_init(|| {
        KEYS.iter()
            .enumerate()
            .map(|(index, entry)| (entry.name, index as u32))
            .collect()
    })
}

/// What release `version` knows of `key`; `None` when that release has no such broker key.
pub fn spec(key: &str, version: KafkaVersion) -> Option<&'static KeySpec> {
    known(key, version).map(|known| known.spec)
}

/// A broker key as one release knows it.
#[derive(Debug, Clone, Copy)]
pub struct Known {
    pub spec: &'static KeySpec,
    /// Where the key sits in `KEYS`, and the release's place in `VERSIONS`.
    key_index: u32,
    release_index: u32,
}

/// `key` as release `version` knows it; `None` when that release has no such broker key.
pub fn known(key: &str, version: KafkaVersion) -> Option<Known> {
    let release_index = version.release_index()?;
    let key_index = key_index(key)?;
    KEYS[key_index as usize]
        .variants
        .iter()
        .find(|variant| variant.releases & (1 << release_index) != 0)
        .map(|variant| Known {
            spec: &variant.spec,
            key_index,
            release_index,
        })
}

impl Known {
    /// The key's default as ConfigDef parses and validates it ([`value::check`]); `None` when
    /// it has none. Worked out once per key and release: every node that leaves a key unset
    /// reads the same default, and rules read it once per node.
    pub fn checked_default(&self) -> Option<&'static Result<value::Parsed, value::Refusal>> {
        type Checked = std::sync::OnceLock<Result<value::Parsed, value::Refusal>>;
        // One table per release, made when a run first reads that release's defaults.
        static BY_RELEASE: [std::sync::OnceLock<Box<[Checked]>>; 32] =
            [const { std::sync::OnceLock::new() }; 32];
        let Default::Value(text) = self.spec.default else {
            return None;
        };
        let table = BY_RELEASE[self.release_index as usize]
            .get_or_init(|| KEYS.iter().map(|_| Checked::new()).collect());
        let name = KEYS[self.key_index as usize].name;
        Some(table[self.key_index as usize].get_or_init(|| value::check(name, self.spec, text)))
    }
}

impl KeyEntry {
    /// The releases that have this key, oldest first.
    pub fn releases(&self) -> impl Iterator<Item = KafkaVersion> + '_ {
        let all = self.variants.iter().fold(0, |bits, v| bits | v.releases);
        VERSIONS
            .iter()
            .enumerate()
            .filter(move |(index, _)| all & (1 << index) != 0)
            .map(|(_, version)| *version)
    }
}

/// Every broker key of release `version`, sorted by name.
pub fn keys(version: KafkaVersion) -> impl Iterator<Item = (&'static str, &'static KeySpec)> {
    let bit = version.release_bit();
    KEYS.iter().filter_map(move |entry| {
        let bit = bit?;
        entry
            .variants
            .iter()
            .find(|variant| variant.releases & bit != 0)
            .map(|variant| (entry.name, &variant.spec))
    })
}

/// The broker keys of release `version` that have no default (a node that leaves one out does
/// not start), sorted by name: listed once per release, as every node asks.
pub fn required_keys(version: KafkaVersion) -> &'static [&'static str] {
    static BY_RELEASE: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let Some(index) = version.release_index() else {
        return &[];
    };
    let by_release = BY_RELEASE.get_or_init(|| {
        VERSIONS
            .iter()
            .map(|release| {
                keys(*release)
                    .filter(|(_, spec)| spec.default == Default::Required)
                    .map(|(key, _)| key)
                    .collect()
            })
            .collect()
    });
    &by_release[index as usize]
}

/// Kafka's default for a broker key in release `version`, in the text form a file would use;
/// `None` when the key has no default there or is not known.
pub fn default_value(key: &str, version: KafkaVersion) -> Option<&'static str> {
    match spec(key, version)?.default {
        Default::Value(text) => Some(text),
        Default::Null | Default::Required => None,
    }
}

/// Kafka's default for `key` of another component (`connect-distributed`, `mirror-maker`,
/// `mirror-connector`, `streams`) in release `version`, as dumped from that release's jars, and
/// the release it comes from. When the component was not dumped for `version` (`connect-mirror`
/// is missing from Maven Central for some releases), the newest older release that has it
/// answers. `None`: the key is unknown there; `Some((None, _))`: it has no default.
pub fn component_default(
    component: &str,
    key: &str,
    version: KafkaVersion,
) -> Option<(Option<&'static str>, KafkaVersion)> {
    let dumped = |bit: u32| {
        COMPONENT_DEFAULTS.iter().any(|(name, _, variants)| {
            *name == component && variants.iter().any(|(m, _)| m & bit != 0)
        })
    };
    let (index, release) = VERSIONS
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, release)| **release <= version)
        .find(|(index, _)| dumped(1 << index))?;
    let (_, _, variants) = COMPONENT_DEFAULTS
        .iter()
        .find(|(name, name_key, _)| *name == component && *name_key == key)?;
    variants
        .iter()
        .find(|(mask, _)| mask & (1 << index) != 0)
        .map(|(_, default)| (*default, *release))
}

/// The link to Kafka's documentation of a broker key.
pub fn documentation_url(key: &str) -> String {
    format!("https://kafka.apache.org/documentation/#brokerconfigs_{key}")
}

#[cfg(test)]
mod tests;
