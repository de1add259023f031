//! The shape of the generated catalogue tables: plain data, one [`KeySpec`] per key and release.

use std::fmt;

/// A Kafka release line, `major.minor`: every patch release of a line has the same broker keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KafkaVersion {
    pub major: u8,
    pub minor: u8,
}

impl KafkaVersion {
    pub const fn new(major: u8, minor: u8) -> Self {
        KafkaVersion { major, minor }
    }
}

impl fmt::Display for KafkaVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// ConfigDef's types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigType {
    Boolean,
    String,
    Int,
    Short,
    Long,
    Double,
    List,
    Class,
    Password,
}

impl ConfigType {
    /// The name Kafka uses in its messages ("Not a number of type INT").
    pub fn kafka_name(self) -> &'static str {
        match self {
            ConfigType::Boolean => "BOOLEAN",
            ConfigType::String => "STRING",
            ConfigType::Int => "INT",
            ConfigType::Short => "SHORT",
            ConfigType::Long => "LONG",
            ConfigType::Double => "DOUBLE",
            ConfigType::List => "LIST",
            ConfigType::Class => "CLASS",
            ConfigType::Password => "PASSWORD",
        }
    }
}

/// A key's default in the text form a file would use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Default {
    /// No default: the broker refuses to start without the key.
    Required,
    /// The default is null: unset means "none" (often: derived from another key).
    Null,
    Value(&'static str),
}

/// One bound of a Range, as a number and as Kafka prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub value: f64,
    pub text: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Validator {
    None,
    /// Compared as doubles, as Kafka does.
    Range {
        min: Option<Bound>,
        max: Option<Bound>,
    },
    /// Case-sensitive.
    ValidString(&'static [&'static str]),
    /// The value upper-cased must be one of these.
    CaseInsensitiveValidString(&'static [&'static str]),
    /// Before Kafka 4.2: each element must be one of these (any when empty).
    ValidList(&'static [&'static str]),
    /// Kafka 4.2 and later: no empty elements, each one of `valid` (any when empty), and the
    /// list may be empty only when `empty_allowed`. Duplicates are dropped with a warning.
    StrictList {
        valid: &'static [&'static str],
        empty_allowed: bool,
    },
    NonEmptyString,
    NonNull,
    /// A lambda or one of Kafka's own validator classes, named by its class; the few that
    /// matter are implemented by hand in `custom.rs`. Version validators list the versions
    /// they accept.
    Custom {
        class: &'static str,
        accepted: &'static [&'static str],
    },
}

/// Whether a key can be changed on a running cluster (`kafka-configs.sh`) and at which level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateMode {
    ReadOnly,
    PerBroker,
    ClusterWide,
}

/// How much Kafka's documentation says a key matters (ConfigDef's `Importance`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Importance {
    High,
    Medium,
    Low,
}

impl Importance {
    /// The name Kafka's documentation prints.
    pub fn kafka_name(self) -> &'static str {
        match self {
            Importance::High => "high",
            Importance::Medium => "medium",
            Importance::Low => "low",
        }
    }
}

/// Everything the catalogue knows of one key in one release.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeySpec {
    pub config_type: ConfigType,
    pub default: Default,
    pub validator: Validator,
    pub update_mode: UpdateMode,
    /// `None` for the keys of components other than the broker, dumped without it.
    pub importance: Option<Importance>,
    /// Kafka's internal keys: accepted, undocumented.
    pub internal: bool,
    /// Kafka's documentation of the key says it is deprecated.
    pub deprecated: bool,
    /// Other keys of the same release that Kafka's documentation of this key names.
    pub mentions: &'static [&'static str],
}

/// A spec and the releases (bits indexing [`super::VERSIONS`]) in which it holds.
#[derive(Debug)]
pub struct Variant {
    pub releases: u32,
    pub spec: KeySpec,
}

#[derive(Debug)]
pub struct KeyEntry {
    pub name: &'static str,
    pub variants: &'static [Variant],
}

/// A family of keys outside the broker's ConfigDef that the broker or a plugin it loads reads,
/// such as `listener.name.{listener}.{mechanism}.sasl.jaas.config`.
#[derive(Debug)]
pub struct PrefixFamily {
    pub id: &'static str,
    /// Literal text with `{name}` segments: each one non-empty name without dots.
    pub pattern: &'static str,
    /// Segments Kafka builds in lower case (a listener name): upper case there is never read.
    pub lowercase: &'static [&'static str],
    /// The broker key that replaces the pattern's literal start, when set in the file
    /// (`remote.log.metadata.manager.impl.prefix` for `rlmm.config.`).
    pub prefix_key: Option<&'static str>,
    /// Bits indexing [`super::VERSIONS`].
    pub releases: u32,
    pub rest: FamilyRest,
    /// For families whose rest is any broker key: the ones Kafka really reads there.
    pub read_keys: &'static [&'static str],
}

/// What may follow a family's pattern.
#[derive(Debug)]
pub enum FamilyRest {
    Any,
    Keys(&'static [&'static str]),
    /// Keys of these components; `broker` means the broker's own ConfigDef.
    Components(&'static [&'static str]),
}

/// A key of another component with its default per run of releases: (component, key,
/// [(releases, default)]), `None` where it has no default.
pub type ComponentDefault = (
    &'static str,
    &'static str,
    &'static [(u32, Option<&'static str>)],
);

/// The public top-level classes of one of Kafka's packages, in every release dumped.
#[derive(Debug)]
pub struct ClassPackage {
    /// `org.apache.kafka.common.metrics`.
    pub name: &'static str,
    /// The classes' simple names, sorted, separated by one space.
    pub classes: &'static str,
    /// Per class, in the same order: the releases that ship it (bits indexing
    /// [`super::VERSIONS`]).
    pub releases: &'static [u32],
}

/// The classes of Kafka's own (those of [`ClassPackage`]) assignable to a type that a key
/// requires of the class it names (`org.apache.kafka.common.metrics.MetricsReporter`), in every
/// release dumped. Each class comes with the releases where it is such a class (bits indexing
/// [`super::VERSIONS`]).
#[derive(Debug)]
pub struct Implementations {
    /// The required type's full name.
    pub required: &'static str,
    /// Classes Kafka can create: neither an interface nor abstract.
    pub concrete: &'static [(&'static str, u32)],
    /// Interfaces (the type itself among them) and abstract classes.
    pub not_instantiable: &'static [(&'static str, u32)],
}
