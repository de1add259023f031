//! The generator of `tests/oracle.rs`: valid base configs, and mutations of them driven by Kafka's
//! own catalogue (`catalog/data/kafka-<minor>.json`) and by the cross-field checks of
//! `KafkaConfig.validateValues`. Every file records what was done to it, so that a disagreement
//! can be told in a line.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// xorshift64*: small, deterministic, good enough to pick mutations.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    ZooKeeper,
    Broker,
    Controller,
    Combined,
}

impl Mode {
    fn kraft(self) -> bool {
        self != Mode::ZooKeeper
    }
    fn broker(self) -> bool {
        matches!(self, Mode::ZooKeeper | Mode::Broker | Mode::Combined)
    }
    fn controller(self) -> bool {
        matches!(self, Mode::Controller | Mode::Combined)
    }
}

pub struct Base {
    pub name: &'static str,
    pub mode: Mode,
    pub text: &'static str,
}

/// Whether the release line still has ZooKeeper mode (removed in 4.0).
fn zk_release(minor: &str) -> bool {
    minor
        .split('.')
        .next()
        .and_then(|major| major.parse::<u32>().ok())
        .is_some_and(|major| major < 4)
}

/// The valid starting points for one release line: ZooKeeper mode only up to 3.9. Older lines
/// may refuse some KRaft ones (the oracle test asks Kafka and drops those).
pub fn bases(minor: &str) -> Vec<Base> {
    let mut bases = Vec::new();
    if zk_release(minor) {
        bases.extend([
            Base {
                name: "zk-minimal",
                mode: Mode::ZooKeeper,
                text: include_str!("bases/zk-minimal.properties"),
            },
            Base {
                name: "zk-plain",
                mode: Mode::ZooKeeper,
                text: include_str!("bases/zk-plain.properties"),
            },
            Base {
                name: "zk-named-listeners",
                mode: Mode::ZooKeeper,
                text: include_str!("bases/zk-named-listeners.properties"),
            },
        ]);
    }
    bases.extend([
        Base {
            name: "kraft-broker",
            mode: Mode::Broker,
            text: include_str!("bases/kraft-broker.properties"),
        },
        Base {
            name: "kraft-broker-bootstrap",
            mode: Mode::Broker,
            text: include_str!("bases/kraft-broker-bootstrap.properties"),
        },
        Base {
            name: "kraft-controller",
            mode: Mode::Controller,
            text: include_str!("bases/kraft-controller.properties"),
        },
        Base {
            name: "kraft-controller-bootstrap",
            mode: Mode::Controller,
            text: include_str!("bases/kraft-controller-bootstrap.properties"),
        },
        Base {
            name: "kraft-combined",
            mode: Mode::Combined,
            text: include_str!("bases/kraft-combined.properties"),
        },
        Base {
            name: "kraft-combined-bootstrap",
            mode: Mode::Combined,
            text: include_str!("bases/kraft-combined-bootstrap.properties"),
        },
    ]);
    bases
}

#[derive(Debug, Clone)]
enum Line {
    Entry {
        key: String,
        value: String,
    },
    /// Written as is: comments and deliberately odd syntax.
    Raw(String),
}

/// A config file as lines, so that a mutation can set, drop or repeat a key.
#[derive(Debug, Clone)]
pub struct Config {
    lines: Vec<Line>,
}

impl Config {
    /// Reads a base file: `key=value` lines and comments, nothing fancier.
    pub fn parse(text: &str) -> Config {
        let lines = text
            .lines()
            .map(|line| match line.split_once('=') {
                Some((key, value)) if !line.starts_with('#') => Line::Entry {
                    key: key.to_owned(),
                    value: value.to_owned(),
                },
                _ => Line::Raw(line.to_owned()),
            })
            .collect();
        Config { lines }
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.lines.iter().rev().find_map(|line| match line {
            Line::Entry { key: k, value } if k == key => Some(value.as_str()),
            _ => None,
        })
    }

    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` where it already is (dropping any repeat), or at the end.
    fn set(&mut self, key: &str, value: &str) {
        let mut seen = false;
        self.lines.retain_mut(|line| match line {
            Line::Entry { key: k, value: v } if k == key => {
                if seen {
                    return false;
                }
                seen = true;
                *v = value.to_owned();
                true
            }
            _ => true,
        });
        if !seen {
            self.push(key, value);
        }
    }

    fn remove(&mut self, key: &str) {
        self.lines
            .retain(|line| !matches!(line, Line::Entry { key: k, .. } if k == key));
    }

    /// Sets `key` to `value`, or removes it for `None`.
    fn set_or_remove(&mut self, key: &str, value: Option<&str>) {
        match value {
            Some(value) => self.set(key, value),
            None => self.remove(key),
        }
    }

    /// Appends `key`, even when it is already set (Kafka takes the last).
    fn push(&mut self, key: &str, value: &str) {
        self.lines.push(Line::Entry {
            key: key.to_owned(),
            value: value.to_owned(),
        });
    }

    fn push_raw(&mut self, raw: &str) {
        self.lines.push(Line::Raw(raw.to_owned()));
    }

    fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self
            .lines
            .iter()
            .filter_map(|line| match line {
                Line::Entry { key, .. } => Some(key.clone()),
                Line::Raw(_) => None,
            })
            .collect();
        keys.dedup();
        keys
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            match line {
                Line::Entry { key, value } => {
                    out.push_str(key);
                    out.push('=');
                    out.push_str(&escape_value(value));
                }
                Line::Raw(raw) => out.push_str(raw),
            }
            out.push('\n');
        }
        out
    }
}

/// A value in `Properties` syntax that loads back as exactly `value`: leading whitespace would be
/// dropped by the loader, so the first blank is escaped (that is how " 7 " reaches Kafka, which
/// then trims it).
fn escape_value(value: &str) -> String {
    let mut out = String::new();
    for (i, c) in value.chars().enumerate() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0c' => out.push_str("\\f"),
            ' ' if i == 0 => out.push_str("\\ "),
            c => out.push(c),
        }
    }
    out
}

/// One broker key of a release, as the catalogue dump describes it.
pub struct Key {
    pub name: String,
    ty: String,
    default: Option<String>,
    validator: Option<Value>,
}

pub struct Catalogue {
    pub keys: Vec<Key>,
    /// Keys of other releases' broker catalogues that this release does not have.
    foreign: Vec<String>,
    /// The classes of Kafka's own packages this release ships (`package.Name`).
    classes: BTreeSet<String>,
    /// The keys of this release's broker catalogue.
    names: BTreeSet<String>,
}

pub fn load_catalogue(minor: &str) -> Catalogue {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/data");
    let read = |path: &Path| -> Value {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    let own = read(&dir.join(format!("kafka-{minor}.json")));
    let keys: Vec<Key> = own["configs"]
        .as_array()
        .expect("configs")
        .iter()
        .map(|c| Key {
            name: c["name"].as_str().expect("name").to_owned(),
            ty: c["type"].as_str().expect("type").to_owned(),
            default: c["default"].as_str().map(str::to_owned),
            validator: Some(c["validator"].clone()).filter(|v| !v.is_null()),
        })
        .collect();
    let own_names: BTreeSet<&str> = keys.iter().map(|k| k.name.as_str()).collect();
    let mut foreign = BTreeSet::new();
    let mut dumps: Vec<_> = std::fs::read_dir(&dir)
        .expect("catalog/data")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("kafka-") && n.ends_with(".json"))
        })
        .collect();
    dumps.sort();
    for path in dumps {
        for c in read(&path)["configs"].as_array().expect("configs") {
            let name = c["name"].as_str().expect("name");
            if !own_names.contains(name) {
                foreign.insert(name.to_owned());
            }
        }
    }
    let mut classes = BTreeSet::new();
    for (package, names) in own["classes"].as_object().expect("classes") {
        for name in names.as_array().expect("class names") {
            classes.insert(format!(
                "{package}.{}",
                name.as_str().expect("a class name")
            ));
        }
    }
    let names = keys.iter().map(|k| k.name.clone()).collect();
    Catalogue {
        keys,
        foreign: foreign.into_iter().collect(),
        classes,
        names,
    }
}

/// What was done to a file: the kind of change, the key it is about, and the lines it wrote.
#[derive(Debug, Clone)]
pub struct Mutation {
    pub kind: &'static str,
    pub key: String,
    pub detail: String,
}

pub struct Case {
    pub base: &'static str,
    pub mutations: Vec<Mutation>,
    pub content: String,
}

/// One mutated file: one to three mutations of one base.
pub fn generate(rng: &mut Rng, bases: &[Base], catalogue: &Catalogue, minor: &str) -> Case {
    let base = rng.pick(bases);
    let mut config = Config::parse(base.text);
    let count = match rng.below(100) {
        0..55 => 1,
        55..85 => 2,
        _ => 3,
    };
    let mut mutations = Vec::new();
    while mutations.len() < count {
        let mutation = match rng.below(110) {
            100.. => startup_steps(rng, catalogue, &mut config),
            0..48 => Some(key_value(rng, catalogue, &mut config)),
            48..81 => cross_field(rng, base.mode, minor, &mut config),
            81..84 => listener_and_quorum_edges(rng, base.mode, minor, &mut config),
            84..87 => startup_limits(rng, minor, &mut config),
            87..94 => unknown_key(rng, catalogue, &mut config),
            _ => syntax(rng, &mut config),
        };
        mutations.extend(mutation);
    }
    Case {
        base: base.name,
        mutations,
        content: config.render(),
    }
}

fn show(key: &str, value: &str) -> String {
    format!("{key}={value:?}")
}

/// Keys whose values name classes or plugins. kafkalint cannot know the classpath a broker runs
/// with beyond Kafka's own classes, so these get emptiness, blanks and their own default, and
/// CLASS keys also names of Kafka's packages that the release lacks and classes of Kafka's
/// dependencies.
fn names_classes(key: &Key) -> bool {
    const CLASS_LISTS: &[&str] = &[
        "config.providers",
        "group.consumer.assignors",
        "group.share.assignors",
        "group.streams.assignors",
        "kafka.metrics.reporters",
        "metric.reporters",
    ];
    key.ty == "CLASS"
        || key.name.ends_with(".class")
        || key.name.ends_with(".class.name")
        || CLASS_LISTS.contains(&key.name.as_str())
}

/// A per-key value mutation: first the kind of value, then a random key of the release it fits,
/// so that the rarer shapes (enums, lists, ranges) are not drowned by the plain keys.
fn key_value(rng: &mut Rng, catalogue: &Catalogue, config: &mut Config) -> Mutation {
    let pick_key = |rng: &mut Rng, fits: &dyn Fn(&Key) -> bool| -> &Key {
        (0..1000)
            .map(|_| rng.pick(&catalogue.keys))
            .find(|k| fits(k))
            .expect("a key of that kind")
    };
    let (key, (kind, value)) = match rng.below(100) {
        0..5 => {
            let key = pick_key(rng, &names_classes);
            (key, class_value(rng, key, catalogue))
        }
        5..48 => {
            let key = pick_key(rng, &|k| !names_classes(k));
            (key, ("junk", junk(rng, key)))
        }
        48..66 => {
            let key = pick_key(rng, &|k| !names_classes(k) && has_numbers(k));
            (key, range_edge(rng, key).expect("a key with numbers"))
        }
        66..76 => {
            let key = pick_key(rng, &|k| !names_classes(k) && allowed(k).is_some());
            (
                key,
                valid_values(rng, key).expect("a key with allowed values"),
            )
        }
        76..84 => {
            let key = pick_key(rng, &|k| !names_classes(k) && k.ty == "LIST");
            (key, lists(rng, key).expect("a list key"))
        }
        84..90 => {
            let key = pick_key(rng, &|k| !names_classes(k));
            let value = valid_values(rng, key).unwrap_or_else(|| ("junk", junk(rng, key)));
            (key, value)
        }
        90..95 => {
            let key = pick_key(rng, &|k| !names_classes(k) && k.default.is_some());
            (key, ("default", key.default.clone().expect("a default")))
        }
        _ => {
            let key = pick_key(rng, &|k| {
                !names_classes(k) && k.default.as_ref().is_some_and(|d| !d.is_empty())
            });
            let default = key.default.as_deref().expect("a default");
            (key, ("space", format!(" {default} ")))
        }
    };
    config.set(&key.name, &value);
    Mutation {
        kind,
        key: key.name.clone(),
        detail: show(&key.name, &value),
    }
}

fn class_value(rng: &mut Rng, key: &Key, catalogue: &Catalogue) -> (&'static str, String) {
    let default = key.default.clone().filter(|d| !d.is_empty());
    // ConfigDef loads a CLASS key's class while KafkaConfig is built; the other keys that name
    // classes are loaded later, out of the oracle's sight, so only CLASS keys get names.
    let choices = if key.ty == "CLASS" { 7 } else { 4 };
    match (rng.below(choices), default) {
        (0, _) => ("class-empty", String::new()),
        (1, _) => ("class-empty", " ".to_owned()),
        (2, Some(d)) => ("space", format!(" {d} ")),
        (4, default) => ("class-missing", missing_kafka_class(rng, default)),
        (5, default) => {
            // Removed before this release, as its jars say (2.8 still has them).
            let removed: Vec<&str> = REMOVED_KAFKA_CLASSES
                .iter()
                .copied()
                .filter(|class| !catalogue.classes.contains(*class))
                .collect();
            if removed.is_empty() {
                ("class-missing", missing_kafka_class(rng, default))
            } else {
                ("class-removed", rng.pick(&removed).to_string())
            }
        }
        // A node makes the class of a key of PLUGIN_KEYS at start-up and refuses one of another
        // kind; whether a class outside Kafka's packages has the right kind is beyond a static
        // check, so plugin classes go only on the keys whose class is merely loaded.
        (6, _)
            if !PLUGIN_KEYS
                .iter()
                .any(|(plugin_key, _)| *plugin_key == key.name) =>
        {
            ("class-plugin", rng.pick(PLUGIN_CLASSES).to_string())
        }
        (_, Some(d)) => ("default", d),
        (_, None) => ("class-empty", String::new()),
    }
}

/// Classes of Kafka's own packages removed in 3.0 (the Scala authorizer, the old principal
/// builders): named only for the releases whose jars lack them.
const REMOVED_KAFKA_CLASSES: &[&str] = &[
    "kafka.security.auth.SimpleAclAuthorizer",
    "org.apache.kafka.common.security.auth.DefaultPrincipalBuilder",
    "org.apache.kafka.common.security.auth.PrincipalBuilder",
];

/// Classes outside Kafka's packages that are on every release's classpath (Kafka's own
/// dependencies): plugins to kafkalint, which must not judge them; KafkaConfig only loads them.
const PLUGIN_CLASSES: &[&str] = &[
    "com.fasterxml.jackson.databind.ObjectMapper",
    "com.yammer.metrics.core.MetricsRegistry",
];

/// A name in one of Kafka's packages that no class has: the key's default misspelt, or a made-up
/// class beside a real one.
fn missing_kafka_class(rng: &mut Rng, default: Option<String>) -> String {
    match default {
        Some(d) if d.starts_with("org.apache.kafka.") && rng.below(2) == 0 => format!("{d}s"),
        _ => rng
            .pick(&[
                "org.apache.kafka.server.quota.NopeQuotaCallback",
                "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuildr",
                "kafka.server.NopePolicy",
            ])
            .to_string(),
    }
}

/// Values that do not parse as the key's type, or only just do.
fn junk(rng: &mut Rng, key: &Key) -> String {
    let options: &[&str] = match key.ty.as_str() {
        "INT" => &[
            "abc",
            "1.5",
            "2147483648",
            "-2147483649",
            "+5",
            " 7 ",
            "0x10",
            "",
            "1_000",
            "1e3",
            "5 # five",
            "-0",
            "00012",
        ],
        "SHORT" => &[
            "32768", "-32769", "abc", "1.5", "+3", " 2 ", "", "0x3", "3s",
        ],
        "LONG" => &[
            "9223372036854775808",
            "-9223372036854775809",
            "abc",
            "1.5",
            "+5",
            " 7 ",
            "0x10",
            "",
            "100L",
            "1e3",
            "60000ms",
        ],
        "DOUBLE" => &[
            "NaN",
            "1e3",
            "abc",
            "",
            "Infinity",
            "-Infinity",
            "0x1p3",
            "1.5f",
            "1,5",
            ".5",
            "5.",
            " 0.5 ",
            "-0.0",
            "1d",
        ],
        "BOOLEAN" => &[
            "yes",
            "TRUE",
            "False",
            " true ",
            "1",
            "on",
            "",
            "t",
            "false # off",
            "truee",
            "no",
        ],
        "LIST" => &["", ",", "a,,b", "a,a", " a , b ", "a,", ",a", "a b", "x"],
        "PASSWORD" => &["", "s3cr3t", " spaced "],
        _ => &["", " ", "abc", "a,b", "x y", "#", "ABC:DEF"],
    };
    (*rng.pick(options)).to_owned()
}

fn type_bounds(ty: &str) -> Option<(i128, i128)> {
    match ty {
        "SHORT" => Some((i16::MIN.into(), i16::MAX.into())),
        "INT" => Some((i32::MIN.into(), i32::MAX.into())),
        "LONG" => Some((i64::MIN.into(), i64::MAX.into())),
        _ => None,
    }
}

/// The key's range validator, found alone or inside a composite.
fn range_of(validator: &Value) -> Option<(Option<f64>, Option<f64>)> {
    match validator["kind"].as_str() {
        Some("range") => Some((validator["min"].as_f64(), validator["max"].as_f64())),
        Some("composite") => validator["validators"]
            .as_array()?
            .iter()
            .find_map(range_of),
        _ => None,
    }
}

/// The numbers a key's validator names: the bounds of its range, or the numbers in the text of
/// a validator of Kafka's own (`[1,...,9] or -1`).
fn validator_numbers(key: &Key) -> Vec<f64> {
    let Some(validator) = key.validator.as_ref() else {
        return Vec::new();
    };
    let mut points = Vec::new();
    if let Some((min, max)) = range_of(validator) {
        points.extend(min);
        points.extend(max);
    } else if matches!(validator["kind"].as_str(), Some("other" | "lambda")) {
        let text = validator["string"].as_str().unwrap_or("");
        points.extend(
            text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
                .filter_map(|n| n.parse::<i64>().ok())
                .map(|n| n as f64),
        );
    }
    points
}

fn has_numbers(key: &Key) -> bool {
    (key.ty == "DOUBLE" || type_bounds(&key.ty).is_some()) && !validator_numbers(key).is_empty()
}

fn allowed(key: &Key) -> Option<Vec<String>> {
    key.validator.as_ref().and_then(allowed_strings)
}

/// min-1, min, max, max+1 of the key's range, or of the numbers its validator's text names
/// (`[1,...,9] or -1`).
fn range_edge(rng: &mut Rng, key: &Key) -> Option<(&'static str, String)> {
    let points = validator_numbers(key);
    if points.is_empty() {
        return None;
    }
    let point = *rng.pick(&points);
    if key.ty == "DOUBLE" {
        let step = *rng.pick(&[-0.5, 0.0, 0.0, 0.5]);
        return Some(("range-edge", format!("{}", point + step)));
    }
    let (lowest, highest) = type_bounds(&key.ty)?;
    let point = point.round() as i128;
    let step = *rng.pick(&[-1i128, 0, 0, 1]);
    let value = (point + step).clamp(lowest - 1, highest + 1);
    Some(("range-edge", value.to_string()))
}

/// The allowed strings of an enum-like validator.
fn allowed_strings(validator: &Value) -> Option<Vec<String>> {
    if let Some(values) = validator["valid_values"].as_array() {
        let values: Vec<String> = values
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        return Some(values).filter(|v| !v.is_empty());
    }
    if validator["kind"].as_str() == Some("composite") {
        return validator["validators"]
            .as_array()?
            .iter()
            .find_map(allowed_strings);
    }
    // Validators of Kafka's own, such as the metadata versions: their text lists the values.
    let text = validator["string"].as_str()?;
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    if inner.contains("...") {
        return None;
    }
    Some(inner.split(", ").map(str::to_owned).collect())
}

/// A valid value, or a near miss of one: in the wrong case, unknown, padded, empty; numbers
/// inside the range. Many of these must be accepted.
fn valid_values(rng: &mut Rng, key: &Key) -> Option<(&'static str, String)> {
    if let Some(allowed) = allowed(key) {
        let good = rng.pick(&allowed).clone();
        let value = match rng.below(8) {
            0 | 1 => return Some(("valid", good)),
            2 => good.to_uppercase(),
            3 => good.to_lowercase(),
            4 => {
                let mut chars = good.chars();
                match chars.next() {
                    Some(first) => first
                        .to_uppercase()
                        .chain(chars.map(|c| c.to_ascii_lowercase()))
                        .collect(),
                    None => good,
                }
            }
            5 => format!(" {good} "),
            6 => format!("{good}x"),
            _ => String::new(),
        };
        return Some(("enum", value));
    }
    match key.ty.as_str() {
        "BOOLEAN" => Some((
            "valid",
            (*rng.pick(&["true", "false", "TRUE", "False"])).to_owned(),
        )),
        "INT" | "SHORT" | "LONG" => {
            let (lowest, highest) = type_bounds(&key.ty)?;
            let (min, max) = key
                .validator
                .as_ref()
                .and_then(range_of)
                .unwrap_or((None, None));
            let min = min.map_or(0, |m| m as i128).max(lowest);
            let max = max.map_or(min + 100_000, |m| m as i128).min(highest);
            let span = (max - min).clamp(0, 1_000_000) as u64;
            let value = min + (rng.next() % (span + 1)) as i128;
            Some(("valid", value.to_string()))
        }
        "DOUBLE" => {
            let (min, max) = key
                .validator
                .as_ref()
                .and_then(range_of)
                .unwrap_or((None, None));
            let min = min.unwrap_or(0.0);
            let max = max.unwrap_or(min + 10.0);
            Some(("valid", format!("{}", min + (max - min) / 2.0)))
        }
        _ => None,
    }
}

/// Lists with empty elements, duplicates and padding, made from the key's own default.
fn lists(rng: &mut Rng, key: &Key) -> Option<(&'static str, String)> {
    if key.ty != "LIST" {
        return None;
    }
    let items: Vec<String> = match key.default.as_deref() {
        Some(d) if !d.is_empty() => d.split(',').map(str::to_owned).collect(),
        _ => allowed(key).unwrap_or_else(|| vec!["a".to_owned(), "b".to_owned()]),
    };
    let first = items[0].clone();
    let value = match rng.below(6) {
        0 => format!("{first},{first}"),
        1 => format!("{first},,{}", items.last().expect("an item")),
        2 => format!(" {} ", items.join(" , ")),
        3 => format!("{first},"),
        4 => format!(",{first}"),
        _ => items.join(","),
    };
    Some(("list-shape", value))
}

/// A key Kafka does not declare: another release's key, or a misspelling of one of this file's.
fn unknown_key(rng: &mut Rng, catalogue: &Catalogue, config: &mut Config) -> Option<Mutation> {
    match rng.below(3) {
        0 => {
            let key = rng.pick(&catalogue.foreign).clone();
            let value = (*rng.pick(&["1", "abc", "", "true", "-1", "localhost:2181"])).to_owned();
            config.set(&key, &value);
            Some(Mutation {
                kind: "foreign-key",
                key: key.clone(),
                detail: show(&key, &value),
            })
        }
        1 => {
            let keys = config.keys();
            let key = rng.pick(&keys).clone();
            let value = config.get(&key).unwrap_or("").to_owned();
            let misspelt = match rng.below(4) {
                0 => key.replacen('.', "_", 1),
                1 => format!("{key}s"),
                2 => key.to_uppercase(),
                _ => key.replacen('.', "..", 1),
            };
            config.remove(&key);
            config.set(&misspelt, &value);
            Some(Mutation {
                kind: "misspelt-key",
                key: key.clone(),
                detail: format!("{key} written as {misspelt}"),
            })
        }
        _ => {
            let keys = config.keys();
            let key = rng.pick(&keys).clone();
            config.remove(&key);
            Some(Mutation {
                kind: "remove-key",
                key: key.clone(),
                detail: format!("{key} removed"),
            })
        }
    }
}

/// Changes of `Properties` syntax that the loader, not the ConfigDef, decides.
fn syntax(rng: &mut Rng, config: &mut Config) -> Option<Mutation> {
    let (kind, key, detail) = match rng.below(9) {
        0 => {
            // Last one wins: junk first and a good value after is fine; the reverse is not.
            let good_last = rng.percent(50);
            let (first, last) = if good_last {
                ("abc", "4")
            } else {
                ("4", "abc")
            };
            config.set("num.io.threads", first);
            config.push("num.io.threads", last);
            (
                "duplicate-key",
                "num.io.threads",
                format!("num.io.threads={first} then ={last}"),
            )
        }
        1 => {
            config.push_raw("log.retention.hours=16\\");
            config.push_raw("    8");
            (
                "continuation",
                "log.retention.hours",
                "log.retention.hours=16\\⏎8".to_owned(),
            )
        }
        2 => {
            config.push_raw("# broker.rack=\\u12");
            (
                "escape-in-comment",
                "broker.rack",
                "# broker.rack=\\u12".to_owned(),
            )
        }
        3 => {
            let bad = *rng.pick(&["\\u12", "\\u00G1", "\\u", "\\uXYZW"]);
            config.push_raw(&format!("broker.rack=rack{bad}"));
            (
                "malformed-escape",
                "broker.rack",
                format!("broker.rack=rack{bad}"),
            )
        }
        4 => {
            config.push_raw("auto.create.topics.enable=false # no auto-creation");
            (
                "inline-comment",
                "auto.create.topics.enable",
                "auto.create.topics.enable=false # no auto-creation".to_owned(),
            )
        }
        5 => {
            config.push_raw("log.cleaner.enable : true");
            (
                "colon-separator",
                "log.cleaner.enable",
                "log.cleaner.enable : true".to_owned(),
            )
        }
        6 => {
            config.push_raw("num.partitions \\u0033");
            (
                "unicode-escape",
                "num.partitions",
                "num.partitions \\u0033".to_owned(),
            )
        }
        7 => {
            config.push_raw("broker.rack=z\u{00fc}rich-1");
            (
                "utf8-value",
                "broker.rack",
                "broker.rack=zürich-1 (UTF-8)".to_owned(),
            )
        }
        _ => {
            config.push_raw("message.max.bytes=1048588\\");
            (
                "trailing-backslash",
                "message.max.bytes",
                "message.max.bytes=1048588\\ at the end".to_owned(),
            )
        }
    };
    Some(Mutation {
        kind,
        key: key.to_owned(),
        detail,
    })
}

/// One `NAME://host:port` entry of a listener list.
#[derive(Debug, Clone)]
struct Listener {
    name: String,
    host: String,
    port: String,
}

fn parse_listeners(value: &str) -> Vec<Listener> {
    value
        .split(',')
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once("://")?;
            let (host, port) = rest.rsplit_once(':')?;
            Some(Listener {
                name: name.to_owned(),
                host: host.to_owned(),
                port: port.to_owned(),
            })
        })
        .collect()
}

fn join_listeners(listeners: &[Listener]) -> String {
    listeners
        .iter()
        .map(|l| format!("{}://{}:{}", l.name, l.host, l.port))
        .collect::<Vec<_>>()
        .join(",")
}

/// A listener as the file states it, with the default Kafka gives `listeners` when unset.
fn listeners_of(config: &Config) -> Vec<Listener> {
    parse_listeners(config.get("listeners").unwrap_or("PLAINTEXT://:9092"))
}

fn controller_names(config: &Config) -> Vec<String> {
    config
        .get("controller.listener.names")
        .unwrap_or("")
        .split(',')
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The listeners that serve clients and brokers (not the controller ones).
fn broker_listeners(config: &Config) -> Vec<Listener> {
    let controllers = controller_names(config);
    listeners_of(config)
        .into_iter()
        .filter(|l| !controllers.contains(&l.name))
        .collect()
}

/// Adds `name:protocol` to an explicit protocol map; without one Kafka's default map holds only
/// the protocol names, so a new name needs the map written out.
fn map_listener(config: &mut Config, name: &str, protocol: &str) {
    let mut map = config
        .get("listener.security.protocol.map")
        .unwrap_or("PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL")
        .to_owned();
    if !map.split(',').any(|e| e.split(':').next() == Some(name)) {
        map.push_str(&format!(",{name}:{protocol}"));
    }
    // A controller name unmapped in a map written out here would break what the base had.
    for controller in controller_names(config) {
        if !map
            .split(',')
            .any(|e| e.split(':').next() == Some(controller.as_str()))
        {
            map.push_str(&format!(",{controller}:PLAINTEXT"));
        }
    }
    config.set("listener.security.protocol.map", &map);
}

fn node_id(config: &Config) -> i64 {
    config
        .get("node.id")
        .or(config.get("broker.id"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(1)
}

/// The cross-field checks of `KafkaConfig.validateValues` (see KAFKA-FACTS.md §2b), each broken
/// or just kept. None when the check does not apply to this mode; the caller picks again.
fn cross_field(rng: &mut Rng, mode: Mode, minor: &str, config: &mut Config) -> Option<Mutation> {
    let zk_release = zk_release(minor);
    let m = |kind: &'static str, key: &str, detail: String| {
        Some(Mutation {
            kind,
            key: key.to_owned(),
            detail,
        })
    };
    match rng.below(35) {
        0 => {
            // Advertising the wildcard address.
            if !mode.broker() {
                let value = "CONTROLLER://0.0.0.0:9093";
                config.set("advertised.listeners", value);
                return m(
                    "advertise-0.0.0.0",
                    "advertised.listeners",
                    show("advertised.listeners", value),
                );
            }
            let mut listeners = broker_listeners(config);
            if listeners.is_empty() {
                return None;
            }
            let pick = rng.below(listeners.len());
            listeners[pick].host = "0.0.0.0".to_owned();
            let value = join_listeners(&listeners);
            config.set("advertised.listeners", &value);
            m(
                "advertise-0.0.0.0",
                "advertised.listeners",
                show("advertised.listeners", &value),
            )
        }
        1 => {
            // Binding the wildcard without advertising it: fine, the host is filled in.
            let mut listeners = listeners_of(config);
            for l in &mut listeners {
                l.host = (*rng.pick(&["0.0.0.0", "", "[::]"])).to_owned();
            }
            let value = join_listeners(&listeners);
            config.set("listeners", &value);
            if rng.percent(50) {
                config.remove("advertised.listeners");
            }
            m("listeners-wildcard", "listeners", show("listeners", &value))
        }
        2 => {
            // A listener whose name has no security protocol.
            let mut listeners = listeners_of(config);
            listeners.push(Listener {
                name: "REPLICATION".to_owned(),
                host: String::new(),
                port: "9097".to_owned(),
            });
            let value = join_listeners(&listeners);
            config.set("listeners", &value);
            if rng.percent(50) {
                map_listener(config, "REPLICATION", "PLAINTEXT");
                m(
                    "listener-mapped",
                    "listener.security.protocol.map",
                    show("listeners", &value),
                )
            } else {
                m(
                    "listener-unmapped",
                    "listener.security.protocol.map",
                    show("listeners", &value),
                )
            }
        }
        3 => {
            // Two listeners of one name.
            let mut listeners = listeners_of(config);
            let mut twin = listeners.first()?.clone();
            twin.port = "9099".to_owned();
            listeners.push(twin);
            let value = join_listeners(&listeners);
            config.set("listeners", &value);
            m(
                "listener-name-twice",
                "listeners",
                show("listeners", &value),
            )
        }
        4 => {
            // Two listeners on one port, or an IPv4 and an IPv6 listener sharing one.
            let mut listeners = listeners_of(config);
            let port = listeners.first()?.port.clone();
            let (kind, host, other) = match rng.below(3) {
                0 => ("listener-port-twice", "", ""),
                1 => ("listener-port-v4-v6", "0.0.0.0", "[::]"),
                _ => ("listener-port-v4-v4", "127.0.0.1", "0.0.0.0"),
            };
            listeners[0].host = host.to_owned();
            listeners.push(Listener {
                name: "SECOND".to_owned(),
                host: other.to_owned(),
                port,
            });
            let value = join_listeners(&listeners);
            config.set("listeners", &value);
            map_listener(config, "SECOND", "PLAINTEXT");
            m(kind, "listeners", show("listeners", &value))
        }
        5 => {
            // inter.broker.listener.name and security.inter.broker.protocol together.
            let name = listeners_of(config).first()?.name.clone();
            config.set("inter.broker.listener.name", &name);
            config.set("security.inter.broker.protocol", "PLAINTEXT");
            m(
                "inter-broker-both",
                "security.inter.broker.protocol",
                format!(
                    "inter.broker.listener.name={name} and security.inter.broker.protocol=PLAINTEXT"
                ),
            )
        }
        6 => {
            // An inter-broker listener that is not a listener, or one in another case.
            let listeners = broker_listeners(config);
            let value = match (rng.below(3), listeners.first()) {
                (0, Some(l)) => l.name.to_lowercase(),
                (1, _) => "CONTROLLER".to_owned(),
                _ => "REPLICATION".to_owned(),
            };
            config.remove("security.inter.broker.protocol");
            config.set("inter.broker.listener.name", &value);
            m(
                "inter-broker-listener",
                "inter.broker.listener.name",
                show("inter.broker.listener.name", &value),
            )
        }
        7 => {
            // controller.listener.names: gone, elsewhere, or in a ZooKeeper broker.
            let names = controller_names(config);
            if !mode.kraft() {
                if !zk_release {
                    return None;
                }
                config.set("controller.listener.names", "CONTROLLER");
                return m(
                    "controller-names-in-zk",
                    "controller.listener.names",
                    show("controller.listener.names", "CONTROLLER"),
                );
            }
            let (kind, value) = match rng.below(6) {
                0 => ("controller-names-removed", None),
                1 => ("controller-names-unknown", Some("CTRL".to_owned())),
                2 => (
                    "controller-names-lowercase",
                    Some(names.join(",").to_lowercase()),
                ),
                3 => (
                    "controller-names-twice",
                    Some(format!("{0},{0}", names.join(","))),
                ),
                4 => (
                    "controller-names-second",
                    Some(format!("{},CTRL2", names.join(","))),
                ),
                _ => ("controller-names-empty", Some(String::new())),
            };
            config.set_or_remove("controller.listener.names", value.as_deref());
            m(
                kind,
                "controller.listener.names",
                format!("controller.listener.names={value:?}"),
            )
        }
        8 => {
            // The controller listener in `listeners`, on a broker-only node or not at all.
            if !mode.kraft() {
                return None;
            }
            let mut listeners = listeners_of(config);
            let names = controller_names(config);
            let name = names.first().cloned().unwrap_or("CONTROLLER".to_owned());
            if listeners.iter().any(|l| l.name == name) {
                if listeners.len() == 1 {
                    listeners[0].name = "PLAINTEXT".to_owned();
                } else {
                    listeners.retain(|l| l.name != name);
                }
            } else {
                listeners.push(Listener {
                    name,
                    host: String::new(),
                    port: "9093".to_owned(),
                });
            }
            let value = join_listeners(&listeners);
            config.set("listeners", &value);
            m(
                "controller-listener-placement",
                "listeners",
                show("listeners", &value),
            )
        }
        9 => {
            // node.id or broker.id missing.
            let key = if mode.kraft() { "node.id" } else { "broker.id" };
            config.remove(key);
            m("id-removed", key, format!("{key} removed"))
        }
        10 => {
            // broker.id next to node.id: equal, or not.
            let id = node_id(config);
            let (kind, other) = if rng.percent(50) {
                ("broker-id-equal", id)
            } else {
                ("broker-id-differs", id + 1)
            };
            config.set("node.id", &id.to_string());
            config.set("broker.id", &other.to_string());
            m(kind, "broker.id", format!("node.id={id} broker.id={other}"))
        }
        11 => {
            // A node id against the voters: a controller outside them, a broker inside.
            if !mode.kraft() || !config.has("controller.quorum.voters") {
                return None;
            }
            let value = if mode.controller() { "7" } else { "2" };
            config.set("node.id", value);
            m("node-id-vs-voters", "node.id", show("node.id", value))
        }
        12 => {
            // Malformed or odd voter strings.
            if !mode.kraft() && !zk_release {
                return None;
            }
            let value = *rng.pick(&[
                "1@controller-1",
                "x@controller-1:9093",
                "1@:9093",
                "1@controller-1:abc",
                "1@0.0.0.0:9093",
                "1@controller-1:9093,2@0.0.0.0:9093",
                "1@0.0.0.0:0",
                "1@controller-1:9093,1@controller-2:9093",
                "1@controller-1:9093,,2@controller-2:9093",
                "1 @controller-1:9093",
                " 1@controller-1:9093 , 2@controller-2:9093 ",
                "",
                "1@[::1]:9093",
                "1@controller-1:99999",
                "-1@controller-1:9093",
                "1@controller_1:9093",
                "1@localhost:9093",
                "1:controller-1:9093",
            ]);
            config.set("controller.quorum.voters", value);
            m(
                "voters",
                "controller.quorum.voters",
                show("controller.quorum.voters", value),
            )
        }
        13 => {
            // Bootstrap servers instead of, with, or without voters.
            if !mode.kraft() {
                return None;
            }
            let value = *rng.pick(&[
                "controller-1:9093",
                "controller-1:abc",
                "controller-1",
                "",
                "controller-1:9093,,controller-2:9093",
                "localhost:9093",
            ]);
            match rng.below(3) {
                0 => config.remove("controller.quorum.voters"),
                1 => {}
                _ => {
                    config.remove("controller.quorum.voters");
                    config.remove("controller.quorum.bootstrap.servers");
                    return m(
                        "quorum-none",
                        "controller.quorum.voters",
                        "controller.quorum.voters and bootstrap.servers removed".to_owned(),
                    );
                }
            }
            config.set("controller.quorum.bootstrap.servers", value);
            m(
                "bootstrap-servers",
                "controller.quorum.bootstrap.servers",
                show("controller.quorum.bootstrap.servers", value),
            )
        }
        14 => {
            // process.roles junk, duplicates, spacing, order.
            let value = *rng.pick(&[
                "brokers",
                "broker,broker",
                "",
                "Broker",
                "BROKER",
                " broker , controller ",
                "controller,broker",
                "broker,,controller",
                "broker controller",
                "broker,controller,",
                "controller",
                "broker",
            ]);
            config.set("process.roles", value);
            m(
                "process-roles",
                "process.roles",
                show("process.roles", value),
            )
        }
        15 => {
            // log.dirs empty, missing, or only log.dir.
            let (kind, detail) = match rng.below(5) {
                0 => {
                    config.set("log.dirs", "");
                    ("log-dirs-empty", "log.dirs=\"\"")
                }
                1 => {
                    config.set("log.dirs", ",");
                    ("log-dirs-comma", "log.dirs=\",\"")
                }
                2 => {
                    config.remove("log.dirs");
                    ("log-dirs-removed", "log.dirs removed (log.dir's default)")
                }
                3 => {
                    config.set("log.dirs", "");
                    config.set("log.dir", "/data/kafka");
                    (
                        "log-dirs-empty-log-dir",
                        "log.dirs=\"\" log.dir=/data/kafka",
                    )
                }
                _ => {
                    config.set("log.dirs", " /data/a , /data/b ");
                    ("log-dirs-spaced", "log.dirs=\" /data/a , /data/b \"")
                }
            };
            m(kind, "log.dirs", detail.to_owned())
        }
        16 => {
            // replica.fetch.wait.max.ms against the lag time and the socket timeout.
            let bound = *rng.pick(&[500u64, 1000, 10000, 30000]);
            let delta = *rng.pick(&[-1i64, 0, 1]);
            let wait = (bound as i64 + delta).to_string();
            let other = if rng.percent(50) {
                "replica.lag.time.max.ms"
            } else {
                "replica.socket.timeout.ms"
            };
            config.set(other, &bound.to_string());
            config.set("replica.fetch.wait.max.ms", &wait);
            m(
                "fetch-wait-vs-bound",
                "replica.fetch.wait.max.ms",
                format!("replica.fetch.wait.max.ms={wait} {other}={bound}"),
            )
        }
        17 => {
            // The dedupe buffer of each cleaner thread must be over 1 MiB.
            let threads = 1 + rng.below(8) as i64;
            let delta = *rng.pick(&[-1i64, 0, 1, 1 << 20, threads, -(1 << 19)]);
            let size = threads * (1 << 20) + delta;
            config.set("log.cleaner.threads", &threads.to_string());
            config.set("log.cleaner.dedupe.buffer.size", &size.to_string());
            m(
                "dedupe-per-thread",
                "log.cleaner.dedupe.buffer.size",
                format!("log.cleaner.threads={threads} log.cleaner.dedupe.buffer.size={size}"),
            )
        }
        18 => {
            // queued.max.request.bytes is off (<= 0) or at least socket.request.max.bytes.
            let socket = *rng.pick(&[104857600i64, 1048576, 1000]);
            let queued = *rng.pick(&[-1i64, 0, 1, socket - 1, socket, socket + 1, -5]);
            if rng.percent(60) {
                config.set("socket.request.max.bytes", &socket.to_string());
            }
            let socket = config
                .get("socket.request.max.bytes")
                .map_or(104857600, |s| s.parse().unwrap_or(104857600));
            config.set("queued.max.request.bytes", &queued.to_string());
            m(
                "queued-bytes-vs-request",
                "queued.max.request.bytes",
                format!("queued.max.request.bytes={queued} socket.request.max.bytes={socket}"),
            )
        }
        19 => {
            // max.connections.per.ip=0 needs overrides; overrides must name hosts.
            let overrides = *rng.pick(&[
                None,
                Some("host-1:10"),
                Some("127.0.0.1:5,host-2:7"),
                Some("bad host:5"),
                Some("host-1:abc"),
                Some("host-1"),
                Some("::1:3"),
                Some(""),
                Some("host-1:10,"),
            ]);
            let limit = *rng.pick(&["0", "0", "10"]);
            config.set("max.connections.per.ip", limit);
            config.set_or_remove("max.connections.per.ip.overrides", overrides);
            m(
                "connections-per-ip",
                "max.connections.per.ip",
                format!("max.connections.per.ip={limit} overrides={overrides:?}"),
            )
        }
        20 => {
            // The failed-authentication delay must be under the idle timeout (when it is on).
            let idle = *rng.pick(&[600000i64, 1000, 100, -1]);
            let delay = *rng.pick(&[100i64, 99, 101, 1000, 0, 600000]);
            config.set("connections.max.idle.ms", &idle.to_string());
            config.set(
                "connection.failed.authentication.delay.ms",
                &delay.to_string(),
            );
            m(
                "auth-delay-vs-idle",
                "connection.failed.authentication.delay.ms",
                format!(
                    "connection.failed.authentication.delay.ms={delay} connections.max.idle.ms={idle}"
                ),
            )
        }
        21 => {
            // SASL between brokers: the mechanism must be enabled on the inter-broker listener.
            if !mode.broker() {
                return None;
            }
            let mut listeners = listeners_of(config);
            listeners.push(Listener {
                name: "SASL_PLAINTEXT".to_owned(),
                host: String::new(),
                port: "9096".to_owned(),
            });
            config.set("listeners", &join_listeners(&listeners));
            if let Some(advertised) = config.get("advertised.listeners") {
                let value = format!("{advertised},SASL_PLAINTEXT://broker.example.com:9096");
                config.set("advertised.listeners", &value);
            }
            if config.has("listener.security.protocol.map") {
                map_listener(config, "SASL_PLAINTEXT", "SASL_PLAINTEXT");
            }
            config.remove("security.inter.broker.protocol");
            config.set("inter.broker.listener.name", "SASL_PLAINTEXT");
            let mechanism = *rng.pick(&["PLAIN", "GSSAPI", "SCRAM-SHA-256"]);
            config.set("sasl.mechanism.inter.broker.protocol", mechanism);
            let enabled = *rng.pick(&[None, Some("PLAIN"), Some("PLAIN,SCRAM-SHA-256"), Some("")]);
            config.set_or_remove("sasl.enabled.mechanisms", enabled);
            let per_listener = rng.percent(30);
            if per_listener {
                config.set(
                    "listener.name.sasl_plaintext.sasl.enabled.mechanisms",
                    mechanism,
                );
            }
            m(
                "sasl-inter-broker",
                "sasl.mechanism.inter.broker.protocol",
                format!(
                    "sasl.mechanism.inter.broker.protocol={mechanism} sasl.enabled.mechanisms={enabled:?} per-listener={per_listener}"
                ),
            )
        }
        22 => {
            // early.start.listeners must name listeners.
            let mut names: Vec<String> = listeners_of(config).into_iter().map(|l| l.name).collect();
            names.extend(controller_names(config));
            let value = match rng.below(4) {
                0 => "FOO".to_owned(),
                1 => names.join(","),
                2 => names.first()?.to_lowercase(),
                _ => String::new(),
            };
            config.set("early.start.listeners", &value);
            m(
                "early-start",
                "early.start.listeners",
                show("early.start.listeners", &value),
            )
        }
        23 => {
            // control.plane.listener.name: ZooKeeper only, its own advertised listener.
            if !zk_release {
                return None;
            }
            let name = if rng.percent(50) || !mode.broker() {
                listeners_of(config).first()?.name.clone()
            } else {
                let mut listeners = listeners_of(config);
                listeners.push(Listener {
                    name: "CONTROL".to_owned(),
                    host: String::new(),
                    port: "9098".to_owned(),
                });
                config.set("listeners", &join_listeners(&listeners));
                config.remove("advertised.listeners");
                map_listener(config, "CONTROL", "PLAINTEXT");
                "CONTROL".to_owned()
            };
            config.set("control.plane.listener.name", &name);
            m(
                "control-plane-listener",
                "control.plane.listener.name",
                show("control.plane.listener.name", &name),
            )
        }
        24 => {
            // Log roll and retention bounds checked after parsing.
            let (key, value) = *rng.pick(&[
                ("log.roll.ms", "0"),
                ("log.roll.ms", "1"),
                ("log.roll.hours", "0"),
                ("log.roll.jitter.ms", "-1"),
                ("log.roll.jitter.ms", "0"),
                ("log.retention.ms", "0"),
                ("log.retention.ms", "-1"),
                ("log.retention.ms", "-2"),
                ("log.retention.ms", "1"),
                ("log.retention.minutes", "0"),
                ("log.retention.minutes", "-1"),
                ("log.retention.hours", "0"),
                ("log.retention.hours", "-1"),
                ("log.flush.interval.ms", "0"),
            ]);
            config.set(key, value);
            m("log-time", key, show(key, value))
        }
        25 => {
            // ZooKeeper-mode ids: generated ids and the reserved range.
            if mode != Mode::ZooKeeper {
                return None;
            }
            let (id, generation, reserved) = *rng.pick(&[
                ("-1", None, None),
                ("-1", Some("false"), None),
                ("1001", None, None),
                ("1001", None, Some("2000")),
                ("-2", None, None),
                ("1000", None, None),
            ]);
            config.set("broker.id", id);
            if let Some(g) = generation {
                config.set("broker.id.generation.enable", g);
            }
            if let Some(r) = reserved {
                config.set("reserved.broker.max.id", r);
            }
            m(
                "zk-broker-id",
                "broker.id",
                format!(
                    "broker.id={id} generation={generation:?} reserved.broker.max.id={reserved:?}"
                ),
            )
        }
        26 => {
            // zookeeper.connect in a ZooKeeper broker, or next to process.roles.
            if !zk_release {
                return None;
            }
            if mode == Mode::ZooKeeper {
                config.remove("zookeeper.connect");
                m(
                    "zk-connect-removed",
                    "zookeeper.connect",
                    "zookeeper.connect removed".to_owned(),
                )
            } else {
                config.set("zookeeper.connect", "zk-1:2181");
                m(
                    "zk-connect-in-kraft",
                    "zookeeper.connect",
                    "zookeeper.connect=zk-1:2181".to_owned(),
                )
            }
        }
        27 => {
            // The group coordinator's protocols: classic is a must, consumer needs KRaft in 3.x.
            let value = *rng.pick(&[
                "consumer",
                "classic,consumer",
                "classic",
                "CLASSIC",
                "classic,share",
                "classic,streams",
                "classic,consumer,streams",
                "",
            ]);
            config.set("group.coordinator.rebalance.protocols", value);
            m(
                "rebalance-protocols",
                "group.coordinator.rebalance.protocols",
                show("group.coordinator.rebalance.protocols", value),
            )
        }
        28 => {
            // The inter-broker protocol and message format versions (3.x).
            if !zk_release {
                return None;
            }
            let (ibp, format) = *rng.pick(&[
                (Some("2.8"), None),
                (Some("3.3-IV0"), None),
                (Some("3.9"), None),
                (Some("0.10.0"), Some("0.11.0")),
                (Some("2.0"), Some("2.1")),
                (Some("2.8"), Some("2.8")),
                (None, Some("2.1")),
                (Some("3.9-IV1"), None),
            ]);
            if let Some(v) = ibp {
                config.set("inter.broker.protocol.version", v);
            }
            if let Some(v) = format {
                config.set("log.message.format.version", v);
            }
            m(
                "protocol-versions",
                "inter.broker.protocol.version",
                format!(
                    "inter.broker.protocol.version={ibp:?} log.message.format.version={format:?}"
                ),
            )
        }
        29 => {
            // zstd offsets need a recent inter-broker protocol.
            if !zk_release || mode != Mode::ZooKeeper {
                return None;
            }
            let ibp = *rng.pick(&["2.0", "2.1", "3.9"]);
            config.set("offsets.topic.compression.codec", "4");
            config.set("inter.broker.protocol.version", ibp);
            m(
                "zstd-offsets",
                "offsets.topic.compression.codec",
                format!("offsets.topic.compression.codec=4 inter.broker.protocol.version={ibp}"),
            )
        }
        30 => {
            // Group session and heartbeat bounds of the consumer, share and streams groups.
            let group = *rng.pick(&["consumer", "share", "streams"]);
            let (what, value) = *rng.pick(&[
                ("session.timeout.ms", "1000"),
                ("session.timeout.ms", "100000"),
                ("heartbeat.interval.ms", "45000"),
                ("heartbeat.interval.ms", "100"),
                ("min.session.timeout.ms", "50000"),
                ("max.session.timeout.ms", "40000"),
                ("min.heartbeat.interval.ms", "6000"),
                ("max.heartbeat.interval.ms", "4000"),
            ]);
            let key = format!("group.{group}.{what}");
            config.set(&key, value);
            m("group-timeouts", &key, show(&key, value))
        }
        31 => {
            // Advertised names must be listeners.
            if !mode.broker() {
                return None;
            }
            let value = "OTHER://broker.example.com:9099";
            config.set("advertised.listeners", value);
            map_listener(config, "OTHER", "PLAINTEXT");
            m(
                "advertised-not-listener",
                "advertised.listeners",
                show("advertised.listeners", value),
            )
        }
        32 => {
            // The protocol map itself malformed.
            let mut value = config
                .get("listener.security.protocol.map")
                .unwrap_or("PLAINTEXT:PLAINTEXT")
                .to_owned();
            let change = *rng.pick(&[
                ",PLAINTEXT",
                ",FOO:BAR",
                ",PLAINTEXT:SSL",
                ",",
                ",plaintext:plaintext",
                " , SSL:SSL ",
            ]);
            value.push_str(change);
            config.set("listener.security.protocol.map", &value);
            m(
                "protocol-map",
                "listener.security.protocol.map",
                show("listener.security.protocol.map", &value),
            )
        }
        33 => {
            // Unwise but not refused (only logged, or failing later), and one role rule of 4.x.
            let (kind, sets): (&'static str, &[(&str, &str)]) = *rng.pick(&[
                (
                    "heartbeat-vs-session",
                    &[
                        ("broker.heartbeat.interval.ms", "5000"),
                        ("broker.session.timeout.ms", "9000"),
                    ][..],
                ),
                (
                    "min-isr-above-rf",
                    &[
                        ("transaction.state.log.min.isr", "5"),
                        ("transaction.state.log.replication.factor", "3"),
                    ][..],
                ),
                (
                    "rf-above-brokers",
                    &[("offsets.topic.replication.factor", "7")][..],
                ),
                (
                    "auto-join",
                    &[("controller.quorum.auto.join.enable", "true")][..],
                ),
                // A broker file with no identity at all: no roles, no id, no ensemble (what
                // is left says where it listens and logs, so it is no fragment).
                ("no-identity", &[("process.roles", "")][..]),
            ]);
            if kind == "no-identity" {
                for key in ["process.roles", "node.id", "broker.id", "zookeeper.connect"] {
                    config.remove(key);
                }
                return m(
                    kind,
                    "process.roles",
                    "no process.roles, node.id, broker.id or zookeeper.connect".into(),
                );
            }
            for (key, value) in sets {
                config.set(key, value);
            }
            let detail = sets
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            m(kind, sets[0].0, detail)
        }
        _ => {
            // Malformed listener entries.
            let mut listeners = listeners_of(config);
            if listeners.is_empty() {
                return None;
            }
            let first = listeners.remove(0);
            let broken = match rng.below(9) {
                0 => format!("{}:/:{}", first.name, first.port),
                1 => format!("{}://{}", first.name, "host-1"),
                2 => format!("{}://:abc", first.name),
                3 => format!("{}://:-1", first.name),
                4 => format!("{}://:65536", first.name),
                5 => format!("{}://[::1]:{}", first.name, first.port),
                6 => format!("{}://:{}", first.name.to_lowercase(), first.port),
                7 => format!(" {}://host_1:{} ", first.name, first.port),
                _ => format!("{}://:0", first.name),
            };
            let rest = join_listeners(&listeners);
            let value = if rest.is_empty() {
                broken
            } else {
                format!("{broken},{rest}")
            };
            config.set("listeners", &value);
            m("listener-malformed", "listeners", show("listeners", &value))
        }
    }
}

/// Start-up limits and coordinator settings the generic mutations rarely reach: Kafka's own
/// assignor and principal builder classes in the wrong place, codec ids, the 3.9 commit acks,
/// duplicate rack tags, the share group's delivery and lock bounds, cleaner threads and the
/// parsing of the connection overrides. Only Kafka's own and the JDK's classes are named, so
/// every verdict is decidable without knowing a broker's classpath.
fn startup_limits(rng: &mut Rng, minor: &str, config: &mut Config) -> Option<Mutation> {
    type Sets = &'static [(&'static str, &'static str)];
    fn choose(rng: &mut Rng, options: &[Sets]) -> Sets {
        options[rng.below(options.len())]
    }
    let zk_release = zk_release(minor);
    let sets: Sets = match rng.below(16) {
        0 => choose(
            rng,
            &[
                &[("principal.builder.class", "java.lang.String")][..],
                &[(
                    "principal.builder.class",
                    "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder",
                )][..],
                &[(
                    "principal.builder.class",
                    "org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder",
                )][..],
            ],
        ),
        1 | 2 => choose(
            rng,
            &[
                &[("group.consumer.assignors", "uniform")][..],
                &[("group.consumer.assignors", "range,uniform")][..],
                &[(
                    "group.consumer.assignors",
                    "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
                )][..],
                &[(
                    "group.consumer.assignors",
                    "uniform,org.apache.kafka.coordinator.group.assignor.UniformAssignor",
                )][..],
                &[(
                    "group.consumer.assignors",
                    "org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
                )][..],
                &[(
                    "group.consumer.assignors",
                    "org.apache.kafka.coordinator.group.assignor.RangeAssignor,",
                )][..],
                &[("group.consumer.assignors", "java.lang.String")][..],
                &[("group.consumer.assignors", "uniform,uniform")][..],
                &[("group.consumer.assignors", "rangee")][..],
                &[("group.consumer.assignors", "Range,uniform")][..],
            ],
        ),
        3 => choose(
            rng,
            &[
                &[("group.share.assignors", "simple,simple")][..],
                &[(
                    "group.share.assignors",
                    "simple,org.apache.kafka.coordinator.group.assignor.SimpleAssignor",
                )][..],
                &[("group.share.assignors", "uniform")][..],
                &[(
                    "group.share.assignors",
                    "org.apache.kafka.coordinator.group.assignor.SimpleAssignor",
                )][..],
            ],
        ),
        4 => choose(
            rng,
            &[
                &[(
                    "group.streams.assignors",
                    "sticky,org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor",
                )][..],
                &[("group.streams.assignors", "range")][..],
                &[(
                    "group.streams.assignors",
                    "org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor",
                )][..],
            ],
        ),
        5 => choose(
            rng,
            &[
                &[("offsets.topic.compression.codec", "5")][..],
                &[("offsets.topic.compression.codec", "-1")][..],
                &[("offsets.topic.compression.codec", "4")][..],
                &[("share.coordinator.state.topic.compression.codec", "7")][..],
                &[("share.coordinator.state.topic.compression.codec", "3")][..],
            ],
        ),
        6 => {
            if !zk_release {
                return None;
            }
            choose(
                rng,
                &[
                    &[("offsets.commit.required.acks", "4")][..],
                    &[("offsets.commit.required.acks", "-2")][..],
                    &[("offsets.commit.required.acks", "3")][..],
                    &[
                        ("offsets.commit.required.acks", "2"),
                        ("offsets.topic.replication.factor", "1"),
                    ][..],
                ],
            )
        }
        7 => choose(
            rng,
            &[
                &[("group.streams.rack.aware.assignment.tags", "zone,zone")][..],
                &[(
                    "group.streams.rack.aware.assignment.tags",
                    "zone , rack, zone",
                )][..],
                &[("group.streams.rack.aware.assignment.tags", "zone,rack")][..],
            ],
        ),
        8 | 9 => choose(
            rng,
            &[
                &[
                    ("group.share.delivery.count.limit", "3"),
                    ("group.share.min.delivery.count.limit", "4"),
                ][..],
                &[("group.share.max.delivery.count.limit", "4")][..],
                &[("group.share.partition.max.record.locks", "100")][..],
                &[("group.share.max.partition.max.record.locks", "1000")][..],
                &[
                    ("group.share.record.lock.duration.ms", "10000"),
                    ("group.share.min.record.lock.duration.ms", "20000"),
                ][..],
                &[("group.share.max.record.lock.duration.ms", "20000")][..],
                &[("group.share.max.share.sessions", "100")][..],
            ],
        ),
        10 | 11 => {
            let group = *rng.pick(&["consumer", "share", "streams"]);
            let (what, value) = *rng.pick(&[
                ("assignment.interval.ms", "20000"),
                ("min.assignment.interval.ms", "2000"),
                ("max.assignment.interval.ms", "500"),
                ("heartbeat.interval.ms", "15000"),
            ]);
            let key = format!("group.{group}.{what}");
            config.set(&key, value);
            return Some(Mutation {
                kind: "startup-limit",
                key: key.clone(),
                detail: show(&key, value),
            });
        }
        12 => choose(
            rng,
            &[
                &[("group.streams.num.standby.replicas", "3")][..],
                &[("group.streams.max.warmup.replicas", "1")][..],
                &[("group.streams.min.task.offset.interval.ms", "90000")][..],
            ],
        ),
        13 => choose(
            rng,
            &[
                &[("log.cleaner.threads", "0")][..],
                &[("log.cleaner.threads", "128")][..],
                &[("log.cleaner.dedupe.buffer.size", "-1")][..],
            ],
        ),
        14 => choose(
            rng,
            &[
                &[("max.connections.per.ip.overrides", "h1:x,h1:5")][..],
                &[("max.connections.per.ip.overrides", "h1:5,h1:x")][..],
                &[("max.connections.per.ip.overrides", ",h1:5")][..],
                &[("max.connections.per.ip.overrides", "[::2]:6")][..],
                &[("max.connections.per.ip.overrides", " h1 : 5 , h2 : 6 ")][..],
                &[
                    ("max.connections.per.ip", "0"),
                    ("max.connections.per.ip.overrides", ","),
                ][..],
            ],
        ),
        _ => choose(
            rng,
            &[
                &[("log.roll.jitter.ms", "-5"), ("log.roll.jitter.hours", "1")][..],
                &[("log.retention.ms", "7"), ("log.retention.minutes", "0")][..],
                &[("log.retention.minutes", "0"), ("log.retention.hours", "5")][..],
                &[("log.dirs", "/data/a,,/data/b")][..],
                &[("queued.max.request.bytes", "104857599")][..],
                &[("connections.max.idle.ms", "0")][..],
            ],
        ),
    };
    for (key, value) in sets {
        config.set(key, value);
    }
    let detail = sets
        .iter()
        .map(|(k, v)| show(k, v))
        .collect::<Vec<_>>()
        .join(" ");
    Some(Mutation {
        kind: "startup-limit",
        key: sets[0].0.to_owned(),
        detail,
    })
}

/// The corners of Kafka's listener, quorum and id model: names that clash only in case (whose
/// winner before 4.1 is decided by Java's hash order), lower-case and spaced listener names, one
/// IPv4 and one IPv6 address on one port, `://` inside a name, the settings of a SASL
/// inter-broker listener, voter addresses, ids taken from `broker.id`, and the ZooKeeper-mode
/// migration and control plane of 3.9. Each set is complete for its mode: it brings the
/// listeners and the map it needs. `None` removes a key.
fn listener_and_quorum_edges(
    rng: &mut Rng,
    mode: Mode,
    minor: &str,
    config: &mut Config,
) -> Option<Mutation> {
    type Sets = &'static [(&'static str, Option<&'static str>)];
    const SASL_LISTENERS: &str = "PLAINTEXT://:9092,CONTROLLER://:9093,SASL_PLAINTEXT://:9094";
    const SASL_MAP: &str = "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT";
    const SASL_ADVERTISED: &str = "PLAINTEXT://h:9092,SASL_PLAINTEXT://h:9094";
    let combined: &[(&'static str, Sets)] = &[
        (
            "map-case-clash",
            &[
                ("listeners", Some("INTERNAL://:9092,CONTROLLER://:9093")),
                ("advertised.listeners", Some("INTERNAL://h:9092")),
                ("inter.broker.listener.name", Some("INTERNAL")),
                ("security.inter.broker.protocol", None),
                (
                    "listener.security.protocol.map",
                    Some("INTERNAL:PLAINTEXT,INTERNAl:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT"),
                ),
                ("sasl.enabled.mechanisms", Some("PLAIN")),
            ],
        ),
        (
            "map-case-clash",
            &[
                ("listeners", Some("EXT://:9092,CONTROLLER://:9093")),
                ("advertised.listeners", Some("EXT://h:9092")),
                ("inter.broker.listener.name", Some("EXT")),
                ("security.inter.broker.protocol", None),
                (
                    "listener.security.protocol.map",
                    Some("ext:PLAINTEXT,EXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT"),
                ),
                ("sasl.enabled.mechanisms", Some("PLAIN")),
            ],
        ),
        (
            "listener-lower-case",
            &[
                ("listeners", Some("PLAINTEXT://:9092,controller://:9093")),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
                ("listener.security.protocol.map", None),
                ("inter.broker.listener.name", None),
            ],
        ),
        (
            "controller-names-spaced",
            &[
                (
                    "listeners",
                    Some("PLAINTEXT://:9092,CONTROLLER://:9093,C2://:9094"),
                ),
                ("controller.listener.names", Some("CONTROLLER, C2")),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
                ("listener.security.protocol.map", None),
                ("inter.broker.listener.name", None),
            ],
        ),
        (
            "port-ipv4-ipv6",
            &[
                (
                    "listeners",
                    Some("PLAINTEXT://127.0.0.1:9092,EXTERNAL://[::1]:9092,CONTROLLER://:9093"),
                ),
                (
                    "listener.security.protocol.map",
                    Some("PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                ),
                (
                    "advertised.listeners",
                    Some("PLAINTEXT://h:9092,EXTERNAL://h:9092"),
                ),
                ("inter.broker.listener.name", Some("PLAINTEXT")),
            ],
        ),
        (
            "port-ipv4-ipv6-and-host",
            &[
                (
                    "listeners",
                    Some(
                        "PLAINTEXT://127.0.0.1:9092,EXTERNAL://[::1]:9092,OTHER://h:9092,CONTROLLER://:9093",
                    ),
                ),
                (
                    "listener.security.protocol.map",
                    Some(
                        "PLAINTEXT:PLAINTEXT,EXTERNAL:PLAINTEXT,OTHER:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    ),
                ),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
                ("inter.broker.listener.name", Some("PLAINTEXT")),
            ],
        ),
        (
            "listener-name-with-separator",
            &[
                ("listeners", Some("A://B://h:9092,CONTROLLER://:9093")),
                (
                    "listener.security.protocol.map",
                    Some("A://B:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                ),
                ("inter.broker.listener.name", Some("A://B")),
                ("advertised.listeners", None),
            ],
        ),
        (
            "controller-listener-wildcard",
            &[
                (
                    "listeners",
                    Some("PLAINTEXT://h:9092,CONTROLLER://0.0.0.0:9093"),
                ),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
            ],
        ),
        (
            "advertised-name-twice",
            &[
                ("listeners", Some("PLAINTEXT://:9092,CONTROLLER://:9093")),
                (
                    "advertised.listeners",
                    Some("PLAINTEXT://h:9092,plaintext://h:9094"),
                ),
            ],
        ),
        (
            "sasl-listener-settings",
            &[
                ("listeners", Some(SASL_LISTENERS)),
                ("listener.security.protocol.map", Some(SASL_MAP)),
                ("advertised.listeners", Some(SASL_ADVERTISED)),
                ("inter.broker.listener.name", None),
                ("security.inter.broker.protocol", Some("SASL_PLAINTEXT")),
                ("sasl.enabled.mechanisms", Some("GSSAPI")),
                (
                    "listener.name.sasl_plaintext.foo.num.network.threads",
                    Some("abc"),
                ),
            ],
        ),
        (
            "sasl-listener-settings",
            &[
                ("listeners", Some(SASL_LISTENERS)),
                ("listener.security.protocol.map", Some(SASL_MAP)),
                ("advertised.listeners", Some(SASL_ADVERTISED)),
                ("inter.broker.listener.name", None),
                ("security.inter.broker.protocol", Some("SASL_PLAINTEXT")),
                (
                    "listener.name.sasl_plaintext.a.b.num.network.threads",
                    Some("abc"),
                ),
                ("listener.name.SASL_PLAINTEXT.num.io.threads", Some("abc")),
            ],
        ),
        (
            "sasl-listener-settings",
            &[
                ("listeners", Some(SASL_LISTENERS)),
                ("listener.security.protocol.map", Some(SASL_MAP)),
                ("advertised.listeners", Some(SASL_ADVERTISED)),
                ("inter.broker.listener.name", None),
                ("security.inter.broker.protocol", Some("SASL_PLAINTEXT")),
                ("sasl.mechanism.inter.broker.protocol", Some("PLAIN")),
                (
                    "listener.name.sasl_plaintext.sasl.enabled.mechanisms",
                    Some("PLAIN,"),
                ),
            ],
        ),
        ("map-empty", &[("listener.security.protocol.map", Some(""))]),
        (
            "listener-ports",
            &[
                ("listeners", Some("PLAINTEXT://:-1,CONTROLLER://:099999")),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
            ],
        ),
        (
            "listener-ports",
            &[
                ("listeners", Some("PLAINTEXT://:+9092,CONTROLLER://:9093")),
                ("advertised.listeners", Some("PLAINTEXT://h:9092")),
            ],
        ),
        ("advertised-empty", &[("advertised.listeners", Some(""))]),
        (
            "id-from-broker-id",
            &[("node.id", None), ("broker.id", Some("-1"))],
        ),
        (
            "id-from-broker-id",
            &[("node.id", None), ("broker.id", Some("1"))],
        ),
        (
            "early-start-spaced",
            &[("early.start.listeners", Some(" CONTROLLER , PLAINTEXT "))],
        ),
        (
            "protocol-version-short-name",
            &[("inter.broker.protocol.version", Some("4.0"))],
        ),
    ];
    let controller: &[(&'static str, Sets)] = &[
        (
            "controller-advertised-wildcard",
            &[("advertised.listeners", Some("CONTROLLER://0.0.0.0:9093"))],
        ),
        (
            "controller-inter-broker-listener",
            &[("inter.broker.listener.name", Some("CONTROLLER"))],
        ),
        (
            "controller-sasl-inter-broker",
            &[
                ("security.inter.broker.protocol", Some("SASL_PLAINTEXT")),
                ("sasl.mechanism.inter.broker.protocol", Some("PLAIN")),
            ],
        ),
        (
            "controller-names-advertised-only",
            &[
                ("controller.listener.names", Some("CONTROLLER,C2")),
                ("advertised.listeners", Some("C2://h:9094")),
                (
                    "listener.security.protocol.map",
                    Some("CONTROLLER:PLAINTEXT,C2:PLAINTEXT"),
                ),
            ],
        ),
    ];
    let broker: &[(&'static str, Sets)] = &[
        (
            "broker-early-start-controller",
            &[("early.start.listeners", Some("CONTROLLER"))],
        ),
        (
            "broker-controller-unmapped",
            &[(
                "listener.security.protocol.map",
                Some("PLAINTEXT:PLAINTEXT,INTERNAL:PLAINTEXT,EXTERNAL:SASL_SSL"),
            )],
        ),
    ];
    const ZK_MIGRATION: &[(&str, Option<&str>)] = &[
        ("zookeeper.metadata.migration.enable", Some("true")),
        ("controller.listener.names", Some("CONTROLLER")),
        ("listeners", Some("PLAINTEXT://:9092")),
        ("advertised.listeners", Some("PLAINTEXT://h:9092")),
        ("inter.broker.listener.name", None),
        (
            "listener.security.protocol.map",
            Some("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
        ),
    ];
    let zookeeper: &[(&'static str, Sets)] = &[
        ("zk-migration", ZK_MIGRATION),
        (
            "zk-migration",
            &[("controller.quorum.voters", Some("3000@c:9093"))],
        ),
        (
            "zk-migration",
            &[
                ("controller.quorum.voters", Some("3000@c:9093")),
                ("inter.broker.protocol.version", Some("3.3")),
            ],
        ),
        (
            "zk-control-plane",
            &[
                ("listeners", Some("PLAINTEXT://:9092,CONTROL://:9094")),
                (
                    "listener.security.protocol.map",
                    Some("PLAINTEXT:PLAINTEXT,CONTROL:PLAINTEXT"),
                ),
                ("advertised.listeners", None),
                ("inter.broker.listener.name", None),
                ("control.plane.listener.name", Some("control")),
            ],
        ),
        (
            "zk-control-plane",
            &[
                ("listeners", Some("PLAINTEXT://:9092")),
                ("listener.security.protocol.map", None),
                ("advertised.listeners", None),
                ("inter.broker.listener.name", None),
                ("control.plane.listener.name", Some("PLAINTEXT")),
            ],
        ),
        ("zk-node-id", &[("broker.id", None), ("node.id", Some("5"))]),
        ("zk-node-id", &[("broker.id", Some("-1"))]),
        (
            "zk-old-protocol",
            &[
                ("inter.broker.protocol.version", Some("0.10.2")),
                ("log.message.format.version", Some("0.10.2")),
            ],
        ),
    ];
    let choices = match mode {
        Mode::Combined => combined,
        Mode::Controller => controller,
        Mode::Broker => broker,
        Mode::ZooKeeper if zk_release(minor) => zookeeper,
        Mode::ZooKeeper => return None,
    };
    let (kind, sets) = *rng.pick(choices);
    // The migration sets build on the first one.
    if kind == "zk-migration" && sets.len() < ZK_MIGRATION.len() {
        for (key, value) in ZK_MIGRATION {
            config.set_or_remove(key, *value);
        }
    }
    for (key, value) in sets {
        config.set_or_remove(key, *value);
    }
    let detail = sets
        .iter()
        .map(|(key, value)| match value {
            Some(value) => show(key, value),
            None => format!("{key} removed"),
        })
        .collect::<Vec<_>>()
        .join(" ");
    Some(Mutation {
        kind,
        key: sets[0].0.to_owned(),
        detail,
    })
}

/// The kinds of mutation aimed at the start-up steps Kafka takes after `KafkaConfig` (the
/// oracle's `StartupSteps`): log directories, plugin classes, placeholders beside a refusal.
pub const STARTUP_STEP_KINDS: &[&str] = &[
    "logdir-exact-repeat",
    "logdir-trailing-slash",
    "logdir-dot",
    "logdir-dot-dot",
    "logdir-distinct",
    "class-wrong-kind",
    "class-right-kind",
    "class-empty-name",
    "class-bare-name",
    "placeholder-beside-refusal",
];

/// Keys whose class a node makes at start-up, with the interface Kafka holds it to (in the
/// oracle's `StartupSteps`, or `KafkaConfig` for the principal builder and the assignors), and
/// classes Kafka ships that implement it.
const PLUGIN_KEYS: &[(&str, &[&str])] = &[
    (
        "kafka.metrics.reporters",
        &["kafka.metrics.KafkaCSVMetricsReporter"],
    ),
    (
        "metric.reporters",
        &["org.apache.kafka.common.metrics.JmxReporter"],
    ),
    (
        "authorizer.class.name",
        &[
            "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "kafka.security.authorizer.AclAuthorizer",
        ],
    ),
    (
        "replica.selector.class",
        &["org.apache.kafka.common.replica.RackAwareReplicaSelector"],
    ),
    (
        "principal.builder.class",
        &["org.apache.kafka.common.security.authenticator.DefaultKafkaPrincipalBuilder"],
    ),
    ("client.quota.callback.class", &[]),
    ("create.topic.policy.class.name", &[]),
    ("alter.config.policy.class.name", &[]),
    (
        "group.consumer.assignors",
        &[
            "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
            "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
        ],
    ),
];

/// Refusals kafkalint already reports, to stand beside a placeholder: a file that goes silent
/// because of the placeholder misses them.
const PLAIN_REFUSALS: &[(&str, &str)] = &[
    ("num.io.threads", "abc"),
    ("num.network.threads", "0"),
    ("num.partitions", "0"),
    ("background.threads", "-1"),
];

/// Mutations of what a node makes of its config after `KafkaConfig`: its log directories
/// (compared by canonical path in `LogManager`), its plugin classes (made and held to their
/// interface), and template placeholders beside an unrelated refusal.
fn startup_steps(rng: &mut Rng, catalogue: &Catalogue, config: &mut Config) -> Option<Mutation> {
    match rng.below(10) {
        0..4 => Some(log_dirs(rng, config)),
        4..6 => plugin_class(rng, catalogue, config),
        6 => empty_or_bare_class(rng, catalogue, config),
        7 => empty_or_bare_class(rng, catalogue, config),
        _ => Some(placeholder_beside_refusal(rng, config)),
    }
}

/// Two spellings of one directory, or two directories: Kafka's `LogManager` refuses two paths of
/// one canonical path; 4.2 and later drop exact repeats of `log.dirs` while parsing the list.
fn log_dirs(rng: &mut Rng, config: &mut Config) -> Mutation {
    let base = config
        .get("log.dirs")
        .unwrap_or("/var/lib/kafka/data")
        .to_owned();
    let first = base
        .split(',')
        .next()
        .unwrap_or("/var/lib/kafka/data")
        .trim()
        .to_owned();
    let (parent, leaf) = first.rsplit_once('/').unwrap_or(("", first.as_str()));
    let (kind, value) = match rng.below(6) {
        0 => ("logdir-exact-repeat", format!("{first},{first}")),
        1 => ("logdir-trailing-slash", format!("{first},{first}/")),
        2 => ("logdir-dot", format!("{first},{parent}/./{leaf}")),
        3 => ("logdir-dot-dot", format!("{parent}/x/../{leaf},{first}")),
        4 => (
            "logdir-trailing-slash",
            format!("{first}/,/srv/kafka,{first}"),
        ),
        _ => (
            "logdir-distinct",
            format!("{first},{first}-2,{parent}/./{leaf}-3"),
        ),
    };
    let key = if rng.percent(80) || !config.has("log.dirs") {
        "log.dirs"
    } else {
        // `log.dir` counts only when `log.dirs` is unset.
        config.remove("log.dirs");
        "log.dir"
    };
    config.set(key, &value);
    Mutation {
        kind,
        key: key.to_owned(),
        detail: show(key, &value),
    }
}

/// The classes of `PLUGIN_KEYS` this release ships, with the key each one fits.
fn shipped_plugins(catalogue: &Catalogue) -> Vec<(&'static str, &'static str)> {
    PLUGIN_KEYS
        .iter()
        .filter(|(key, _)| catalogue.names.contains(*key))
        .flat_map(|(key, classes)| classes.iter().map(move |class| (*key, *class)))
        .filter(|(_, class)| catalogue.classes.contains(*class))
        .collect()
}

/// A class Kafka ships named on a key whose interface it implements, or on one whose interface
/// it does not (`metric.reporters=kafka.metrics.KafkaCSVMetricsReporter`).
fn plugin_class(rng: &mut Rng, catalogue: &Catalogue, config: &mut Config) -> Option<Mutation> {
    let plugins = shipped_plugins(catalogue);
    let keys: Vec<&str> = PLUGIN_KEYS
        .iter()
        .map(|(key, _)| *key)
        .filter(|key| catalogue.names.contains(*key))
        .collect();
    let key = *rng.pick(&keys);
    let right: Vec<&str> = plugins
        .iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, c)| *c)
        .collect();
    let (kind, class) = if !right.is_empty() && rng.percent(35) {
        ("class-right-kind", *rng.pick(&right))
    } else {
        let wrong: Vec<&str> = plugins
            .iter()
            .filter(|(k, _)| *k != key)
            .map(|(_, c)| *c)
            .collect();
        ("class-wrong-kind", *rng.pick(&wrong))
    };
    config.set(key, class);
    Some(Mutation {
        kind,
        key: key.to_owned(),
        detail: show(key, class),
    })
}

/// An empty name on a STRING key that names a class (`replica.selector.class=`: a broker loads a
/// class named ""), or a class Kafka ships named without its package.
fn empty_or_bare_class(
    rng: &mut Rng,
    catalogue: &Catalogue,
    config: &mut Config,
) -> Option<Mutation> {
    if rng.percent(40) {
        let key = *rng.pick(&["replica.selector.class", "authorizer.class.name"]);
        let value = *rng.pick(&["", " "]);
        config.set(key, value);
        return Some(Mutation {
            kind: "class-empty-name",
            key: key.to_owned(),
            detail: show(key, value),
        });
    }
    let plugins = shipped_plugins(catalogue);
    let (key, class) = *rng.pick(&plugins);
    let bare = class.rsplit('.').next().expect("a class name");
    config.set(key, bare);
    Some(Mutation {
        kind: "class-bare-name",
        key: key.to_owned(),
        detail: show(key, bare),
    })
}

/// A template placeholder in a listener host or another value, beside a plain refusal of
/// another key: only what depends on the placeholder may go unjudged.
fn placeholder_beside_refusal(rng: &mut Rng, config: &mut Config) -> Mutation {
    let placeholder = *rng.pick(&["%ENV%", "%ID%", "${HOSTNAME}", "{{ inventory_hostname }}"]);
    let (key, value) = match rng.below(3) {
        0 if config.has("advertised.listeners") => {
            let mut listeners = parse_listeners(config.get("advertised.listeners").unwrap_or(""));
            if let Some(first) = listeners.first_mut() {
                first.host = placeholder.to_owned();
            }
            ("advertised.listeners", join_listeners(&listeners))
        }
        1 => ("broker.rack", placeholder.to_owned()),
        _ => {
            let mut listeners = listeners_of(config);
            if let Some(first) = listeners.first_mut() {
                first.host = placeholder.to_owned();
            }
            ("listeners", join_listeners(&listeners))
        }
    };
    config.set(key, &value);
    let (refused_key, refused_value) = *rng.pick(PLAIN_REFUSALS);
    config.set(refused_key, refused_value);
    Mutation {
        kind: "placeholder-beside-refusal",
        key: refused_key.to_owned(),
        detail: format!("{} {}", show(key, &value), show(refused_key, refused_value)),
    }
}
