//! A value a template fills in (`%HOST%`, `${ID}`, `{{ .Values.x }}`, `@ID@`, `{0}`) is unknown
//! for what reads it, and only for that: every other check of the file still runs.
//!
//! Generated: each valid base of the start-up oracle gets one known refusal, then a placeholder
//! in one key (or one part of a key: a listener's host, a voter's host) in several shapes; the
//! refusal must still be reported unless it reads what the placeholder stands for.

use std::path::PathBuf;

/// The valid node files the start-up oracle mutates (read, never written, here).
const BASES: &[(&str, &str)] = &[
    (
        "kraft-broker-bootstrap",
        include_str!("oracle/bases/kraft-broker-bootstrap.properties"),
    ),
    (
        "kraft-broker",
        include_str!("oracle/bases/kraft-broker.properties"),
    ),
    (
        "kraft-combined-bootstrap",
        include_str!("oracle/bases/kraft-combined-bootstrap.properties"),
    ),
    (
        "kraft-combined",
        include_str!("oracle/bases/kraft-combined.properties"),
    ),
    (
        "kraft-controller-bootstrap",
        include_str!("oracle/bases/kraft-controller-bootstrap.properties"),
    ),
    (
        "kraft-controller",
        include_str!("oracle/bases/kraft-controller.properties"),
    ),
    (
        "zk-minimal",
        include_str!("oracle/bases/zk-minimal.properties"),
    ),
    (
        "zk-named-listeners",
        include_str!("oracle/bases/zk-named-listeners.properties"),
    ),
    ("zk-plain", include_str!("oracle/bases/zk-plain.properties")),
];

/// The forms templates write: Windows batch and sed (`%X%`), Maven and Ant (`@X@`), shell and
/// config providers (`${X}`), Go and Jinja (`{{ x }}`, `{% if %}`), Java's MessageFormat (`{0}`).
const SHAPES: &[&str] = &[
    "%ENV%",
    "%ID%",
    "${X}",
    "${env:KAFKA_X}",
    "{{ x }}",
    "{{ .Values.x }}",
    "{% if x %}a{% endif %}",
    "@ID@",
    "{0}",
];

/// One refusal Kafka makes at start-up, written into a base: the rule that reports it, the key
/// it is reported on, and the keys it reads (a placeholder in one of these may silence it).
/// `process.roles` decides Kafka's mode, and so which listener checks apply: the listener
/// refusals read it.
struct Refusal {
    rule: &'static str,
    key: &'static str,
    edit: fn(&str) -> Option<String>,
    reads: &'static [&'static str],
}

const MAP: &str = "listener.security.protocol.map";

const REFUSALS: &[Refusal] = &[
    Refusal {
        rule: "invalid-value",
        key: "num.io.threads",
        edit: |text| Some(set(text, "num.io.threads", "abc")),
        reads: &["num.io.threads"],
    },
    // Kafka looks the inter-broker listener up in the security protocol map.
    Refusal {
        rule: "inter-broker-config",
        key: "inter.broker.listener.name",
        edit: |text| {
            let text = set(text, "inter.broker.listener.name", "BOGUS");
            Some(set(&text, MAP, &value(&text, MAP)?))
        },
        reads: &[
            "inter.broker.listener.name",
            "security.inter.broker.protocol",
            MAP,
            "process.roles",
            "controller.listener.names",
        ],
    },
    // A protocol that does not exist: Kafka cannot read the map, whatever the listeners.
    Refusal {
        rule: "listener-config",
        key: MAP,
        edit: |text| Some(set(text, MAP, &format!("{},EXTRA:FOO", value(text, MAP)?))),
        reads: &[MAP, "process.roles"],
    },
    // Two listeners of one name: the names are known whatever host a template fills in.
    Refusal {
        rule: "listener-config",
        key: "listeners",
        edit: |text| {
            let listeners = value(text, "listeners")?;
            let name = listeners.split("://").next()?;
            Some(set(
                text,
                "listeners",
                &format!("{listeners},{name}://:19999"),
            ))
        },
        reads: &[
            "listeners",
            MAP,
            "controller.listener.names",
            "process.roles",
        ],
    },
    Refusal {
        rule: "kraft-controller-config",
        key: "process.roles",
        edit: |text| {
            let roles = value(text, "process.roles")?;
            let first = roles.split(',').next()?;
            Some(set(text, "process.roles", &format!("{roles},{first}")))
        },
        reads: &["process.roles"],
    },
];

/// Where a placeholder goes: a whole key, or the host of a key's first entry.
#[derive(Clone, Copy, Debug)]
enum Part {
    Whole,
    /// `NAME://HOST:port` of a listener, `id@HOST:port` of a voter, `HOST:port` of a server.
    Host,
}

/// The keys a placeholder is put into, in turn.
const KEYS: &[&str] = &[
    "listeners",
    "advertised.listeners",
    "node.id",
    "broker.id",
    "controller.quorum.voters",
    "controller.quorum.bootstrap.servers",
    "process.roles",
    "log.dirs",
    "zookeeper.connect",
    MAP,
    "inter.broker.listener.name",
    "controller.listener.names",
];

/// The keys whose entries name hosts.
const HOST_KEYS: &[&str] = &[
    "listeners",
    "advertised.listeners",
    "controller.quorum.voters",
    "controller.quorum.bootstrap.servers",
    "zookeeper.connect",
];

/// The last value the file gives `key`.
fn value(text: &str, key: &str) -> Option<String> {
    text.lines()
        .rev()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
        .map(str::to_string)
}

/// The file with `key` set to `value`: its last line replaced, or one added.
fn set(text: &str, key: &str, value: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let prefix = format!("{key}=");
    let line = format!("{key}={value}");
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_string()).collect();
    match lines.iter().rposition(|l| l.starts_with(&prefix)) {
        Some(at) => out[at] = line,
        None => out.push(line),
    }
    out.join("\n") + "\n"
}

/// The value with the host of its first entry replaced by `shape`, when it has one.
fn with_host(value: &str, shape: &str) -> Option<String> {
    let (first, rest) = match value.split_once(',') {
        Some((first, rest)) => (first, Some(rest)),
        None => (value, None),
    };
    let (head, host_port) = match first.split_once("://") {
        Some((name, after)) => (format!("{name}://"), after),
        None => match first.split_once('@') {
            Some((id, after)) => (format!("{id}@"), after),
            None => (String::new(), first),
        },
    };
    let (_, port) = host_port.rsplit_once(':')?;
    let first = format!("{head}{shape}:{port}");
    Some(match rest {
        Some(rest) => format!("{first},{rest}"),
        None => first,
    })
}

fn findings(dir: &std::path::Path, text: &str) -> Vec<(String, String)> {
    let path: PathBuf = dir.join("server.properties");
    std::fs::write(&path, text).unwrap();
    let report = kafkalint::check(&[path], &kafkalint::Options::default()).expect("checks");
    report
        .diagnostics
        .iter()
        .map(|d| (d.rule.to_string(), d.key.clone().unwrap_or_default()))
        .collect()
}

#[test]
fn a_placeholder_silences_only_what_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut silenced = Vec::new();
    let mut cases = 0;
    for (base, text) in BASES {
        for refusal in REFUSALS {
            let Some(refused) = (refusal.edit)(text) else {
                continue;
            };
            let expected = (refusal.rule.to_string(), refusal.key.to_string());
            // Only refusals the base shows without a placeholder count.
            if !findings(dir.path(), &refused).contains(&expected) {
                continue;
            }
            for key in KEYS {
                for part in [Part::Whole, Part::Host] {
                    if matches!(part, Part::Host) && !HOST_KEYS.contains(key) {
                        continue;
                    }
                    if matches!(part, Part::Whole) && refusal.reads.contains(key) {
                        continue;
                    }
                    for shape in SHAPES {
                        let written = value(&refused, key);
                        let placed = match (part, &written) {
                            (Part::Whole, _) => shape.to_string(),
                            (Part::Host, Some(written)) => match with_host(written, shape) {
                                Some(placed) => placed,
                                None => continue,
                            },
                            (Part::Host, None) => continue,
                        };
                        cases += 1;
                        let file = set(&refused, key, &placed);
                        if !findings(dir.path(), &file).contains(&expected) {
                            silenced.push(format!(
                                "{base}: {} on {} not reported with {key}={placed}",
                                refusal.rule, refusal.key
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(cases > 1000, "{cases} cases");
    assert!(
        silenced.is_empty(),
        "{} of {cases} cases lost a finding that does not read the placeholder:\n{}",
        silenced.len(),
        silenced.join("\n")
    );
}

/// Runs `kafkalint check ARGS server.properties` on `text` in `dir`: standard output, standard
/// error.
fn run(dir: &std::path::Path, text: &str, args: &[&str]) -> (String, String) {
    std::fs::write(dir.join("server.properties"), text).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .arg("check")
        .args(args)
        .arg("server.properties")
        .current_dir(dir)
        .output()
        .expect("runs");
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (text(output.stdout), text(output.stderr))
}

/// A clean single-node file whose advertised host and keystore password a template fills in.
fn templated() -> String {
    let base = BASES
        .iter()
        .find(|(name, _)| *name == "kraft-combined")
        .unwrap()
        .1;
    let file = set(base, "advertised.listeners", "PLAINTEXT://%HOST%:9092");
    let file = set(&file, "log.dirs", "{{ data_dir }}");
    format!("{file}ssl.keystore.password=hunter2-%SUFFIX%\n")
}

#[test]
fn a_file_a_template_fills_in_says_so_once_and_gets_no_clean_bill() {
    let dir = tempfile::tempdir().unwrap();
    let (shown, notes) = run(dir.path(), &templated(), &[]);
    assert!(
        shown.contains("No problems found in what was checked (1 file in 1 cluster")
            && shown.contains(
                "; 1 file checked in part: 1 file of settings a template fills in; see the notes."
            ),
        "{shown}"
    );
    assert!(!shown.contains("No problems found ("), "{shown}");
    let said: Vec<&str> = notes
        .lines()
        .filter(|line| line.contains("template text"))
        .collect();
    assert_eq!(
        said,
        [
            "kafkalint: note: server.properties: advertised.listeners, log.dirs hold template text (%HOST%, {{ data_dir }}) filled in before Kafka reads the file: what depends on them is not judged"
        ],
        "{notes}"
    );
    // The password's placeholder is how it is kept out of the file: neither named nor shown.
    assert!(!notes.contains("ssl.keystore.password"), "{notes}");
    assert!(!format!("{shown}{notes}").contains("hunter2"));
}

#[test]
fn json_lists_the_file_a_template_fills_in_as_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (shown, _) = run(dir.path(), &templated(), &["--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(
        json["not_checked"],
        serde_json::json!([{
            "file": "server.properties",
            "kind": "template-text",
            "reason": "advertised.listeners, log.dirs hold template text (%HOST%, {{ data_dir }}) filled in before Kafka reads the file: what depends on them is not judged"
        }])
    );
    assert!(!shown.contains("hunter2"));
}

#[test]
fn credentials_kept_out_of_the_file_leave_the_clean_bill() {
    let base = BASES
        .iter()
        .find(|(name, _)| *name == "kraft-combined")
        .unwrap()
        .1;
    let file = format!(
        "{base}ssl.keystore.password=${{file:/etc/kafka/secrets.properties:keystore}}\nssl.key.password=%KEY_PASSWORD%\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let (shown, notes) = run(dir.path(), &file, &[]);
    assert!(
        shown.contains("No problems found (1 file in 1 cluster"),
        "{shown}"
    );
    assert!(!notes.contains("template text"), "{notes}");
    // A non-credential key Kafka reads from a config provider is unknown: said so.
    let file = set(base, "log.dirs", "${env:KAFKA_LOG_DIRS}");
    let (shown, notes) = run(dir.path(), &file, &[]);
    assert!(shown.contains("1 file checked in part"), "{shown}");
    assert!(
        notes.contains("server.properties: log.dirs holds a config-provider reference (${env:KAFKA_LOG_DIRS}) Kafka resolves when it starts: what depends on it is not judged"),
        "{notes}"
    );
}
