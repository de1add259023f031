//! Differential test: the environment kafkalint reads for compose services against the one
//! Docker Compose resolves, by Compose's own code.
//!
//! `oracle/compose` is a small Go program over compose-go v2.16.2, the Compose specification's
//! loader that `docker compose` runs: it loads a project folder (its `compose.yml`, its `.env`,
//! the services' env files) and prints each service's image and environment. This test
//! generates project folders (`.env` and env files with quotes, escapes, `export`, comments,
//! inline comments, lines holding a name alone, `${...}` of every operator; services with
//! `environment` as a mapping and as a list, `env_file` as a string, a list and a list of
//! mappings), runs the oracle twice (with no shell variable, and with every variable name the
//! generator uses set in the shell), and asserts for every service:
//!
//! - every value kafkalint knows is the one Compose gives with no shell variable;
//! - every value kafkalint calls unknown is one the shell changes, or one Compose leaves unset;
//! - kafkalint knows which variables the service gets, unless it says an env file is unread;
//! - when Compose refuses the project, kafkalint knows less than all of it (an unknown value, an
//!   unread env file, or a note).
//!
//! Needs Go (the oracle is built with `go build`; the Go module proxy serves compose-go).

#[path = "support/rng.rs"]
mod rng;
mod support;

use rng::Rng;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use kafkalint::sources::compose::{ServiceEnvironment, service_environments};

const PROJECTS: usize = 400;

/// Every variable name the generator interpolates or inherits: the second oracle run sets
/// each in the shell.
const NAMES: &[&str] = &["RF", "TAG", "HOST", "EMPTY", "NOPE", "A", "B"];

#[test]
fn compose_resolves_the_environment_kafkalint_reads() {
    if !support::external_tools("tests/compose_env.rs") {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let mut random = Rng(0x00c0_ffee_5eed);
    let dirs: Vec<PathBuf> = (0..PROJECTS)
        .map(|n| {
            let dir = root.path().join(format!("p{n}"));
            std::fs::create_dir(&dir).unwrap();
            write_project(&dir, &mut random);
            dir
        })
        .collect();
    let oracle = build_oracle();
    let quiet = run_oracle(&oracle, &dirs, &[]);
    let shell: Vec<(String, String)> = NAMES
        .iter()
        .map(|name| (name.to_string(), format!("shell-{name}")))
        .collect();
    let with_shell = run_oracle(&oracle, &dirs, &shell);

    let mut problems = Vec::new();
    let (mut compared, mut unknown, mut refused) = (0, 0, 0);
    for (n, dir) in dirs.iter().enumerate() {
        let (read, notes) = service_environments(&dir.join("compose.yml")).unwrap();
        let case = || project_text(dir);
        let Some(resolved) = quiet[n].get("services").and_then(|s| s.as_object()) else {
            refused += 1;
            if std::env::var_os("COMPOSE_ENV_SHOW_REFUSED").is_some() {
                eprintln!("refused: {}", quiet[n]["error"]);
            }
            let knows_less = !notes.is_empty()
                || read.iter().any(|service| {
                    service.unread_env_file
                        || service.image.is_none()
                        || service.environment.iter().any(|(_, value)| value.is_none())
                });
            if !knows_less {
                problems.push(format!(
                    "Compose refuses the project ({}) but kafkalint knows every value\n{}",
                    quiet[n]["error"],
                    case()
                ));
            }
            continue;
        };
        for ServiceEnvironment {
            service,
            image,
            environment,
            unread_env_file,
        } in &read
        {
            let compose = &resolved[service.as_str()];
            let shelled = &with_shell[n]["services"][service.as_str()];
            if let Some(image) = image
                && compose["image"].as_str() != Some(image.as_str())
            {
                problems.push(format!(
                    "{service}: image {image:?}, Compose {}\n{}",
                    compose["image"],
                    case()
                ));
            }
            let ours: BTreeMap<&str, &Option<String>> = environment
                .iter()
                .map(|(name, value)| (name.as_str(), value))
                .collect();
            let theirs = compose["environment"].as_object().unwrap();
            for (name, value) in &ours {
                compared += 1;
                let compose_value = &theirs.get(*name);
                match value {
                    Some(value) => {
                        if compose_value.and_then(|v| v.as_str()) != Some(value.as_str()) {
                            problems.push(format!(
                                "{service}: {name}={value:?}, Compose {compose_value:?}\n{}",
                                case()
                            ));
                        }
                    }
                    None => {
                        unknown += 1;
                        let unset = compose_value.is_none_or(|v| v.is_null());
                        let shell_changes = shelled["environment"].get(*name) != *compose_value;
                        if !unset && !shell_changes {
                            problems.push(format!(
                                "{service}: {name} unknown, but Compose gives {compose_value:?} whatever the shell\n{}",
                                case()
                            ));
                        }
                    }
                }
            }
            if !unread_env_file {
                for name in theirs.keys() {
                    if !ours.contains_key(name.as_str()) {
                        problems.push(format!(
                            "{service}: Compose sets {name}, kafkalint does not\n{}",
                            case()
                        ));
                    }
                }
            }
        }
    }
    eprintln!(
        "{PROJECTS} projects: {compared} variables compared, {unknown} unknown to kafkalint, {refused} projects Compose refuses"
    );
    assert!(
        problems.is_empty(),
        "{} disagreements; first:\n{}",
        problems.len(),
        problems[..problems.len().min(5)].join("\n---\n")
    );
    // The generator must exercise what it is for.
    assert!(compared > PROJECTS * 2, "{compared} variables compared");
    assert!(
        unknown > 0 && unknown * 3 < compared,
        "{unknown} unknown of {compared}"
    );
    assert!(refused > 0 && refused * 3 < PROJECTS, "{refused} refused");
}

/// The project's files, for a failure message.
fn project_text(dir: &Path) -> String {
    let mut text = String::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let _ = writeln!(
            text,
            "--- {}\n{}",
            path.file_name().unwrap().to_string_lossy(),
            std::fs::read_to_string(&path).unwrap()
        );
    }
    text
}

fn build_oracle() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let binary = manifest.join("target/oracle/compose-env");
    let status = Command::new("go")
        .args(["build", "-o"])
        .arg(&binary)
        .arg(".")
        .current_dir(manifest.join("oracle/compose"))
        .status()
        .expect("go is needed to build oracle/compose");
    assert!(status.success(), "go build of oracle/compose failed");
    binary
}

fn run_oracle(
    binary: &Path,
    dirs: &[PathBuf],
    shell: &[(String, String)],
) -> Vec<serde_json::Value> {
    let output = Command::new(binary)
        .env_clear()
        .envs(shell.iter().map(|(k, v)| (k, v)))
        .args(dirs)
        .output()
        .unwrap();
    support::json_lines(output, dirs.len())
}

/// Values as people write them on the right of `=` in an env file, some referring to the
/// project's variables.
const ENV_FILE_VALUES: &[&str] = &[
    "3",
    "PLAINTEXT://kafka:9092",
    "\"quoted value\"",
    "'single $RF'",
    "\"line\\nbreak\"",
    "\"tab\\there\"",
    "\"escaped \\\" quote\"",
    "'it''s'",
    "plain # a comment",
    "plain#not-a-comment",
    "${RF}",
    "${RF:-1}",
    "${NOPE:-fallback}",
    "${EMPTY:-was-empty}",
    "${EMPTY-kept}",
    "${RF:+on}",
    "${NOPE+on}",
    "$HOST:9092",
    "${HOST}:${RF}",
    "$$literal",
    "\"\\$RF\"",
    "${NOPE}",
    "${A:-${B:-deep}}",
    "",
    "  spaced  ",
    "\"\\0101\"",
    "\"\\01\"",
    "\"x\\0y\"",
    "\"\\0400\"",
    "\"${NOPE:-a\\nb}\"",
];

/// Values of a compose file's `environment`.
const COMPOSE_VALUES: &[&str] = &[
    "3",
    "${RF}",
    "${RF:-1}",
    "${NOPE:-1}",
    "${EMPTY:-d}",
    "${EMPTY-d}",
    "${RF:+on}",
    "${NOPE:+on}",
    "${NOPE+on}",
    "pre-${HOST}-post",
    "$$x",
    "$HOST",
    "${NOPE}",
    "${A:-${B}}",
    "'${TAG}'",
];

fn env_line(random: &mut Rng, name: &str, values: &[&str]) -> String {
    let value = random.pick(values);
    match random.below(10) {
        0 => format!("export {name}={value}"),
        1 => format!("{name} = {value}"),
        2 => format!("{name}: {value}"),
        3 => name.to_string(),
        _ => format!("{name}={value}"),
    }
}

fn write_project(dir: &Path, random: &mut Rng) {
    let newline = if random.chance(10) { "\r\n" } else { "\n" };
    if random.chance(80) {
        let mut dotenv = String::new();
        if random.chance(30) {
            dotenv.push_str("# the project's variables\n");
        }
        for name in NAMES {
            if *name == "NOPE" || random.chance(25) {
                continue;
            }
            let values: &[&str] = match *name {
                "EMPTY" => &["", "\"\""],
                "TAG" => &["3.9.0", "\"4.0.0\"", "3.8.1 # pinned"],
                "HOST" => &["kafka", "'broker-1'", "${TAG}"],
                _ => &["3", "1", "\"2\"", "${RF}", "'x'"],
            };
            dotenv.push_str(&env_line(random, name, values));
            dotenv.push_str(newline);
            if random.chance(10) {
                dotenv.push_str(newline);
            }
        }
        std::fs::write(dir.join(".env"), dotenv).unwrap();
    }
    let mut compose = String::from("services:\n");
    for service in 0..1 + random.below(2) {
        let _ = writeln!(compose, "  kafka-{service}:");
        let image = random.pick(&[
            "apache/kafka:3.9.0",
            "apache/kafka:${TAG}",
            "apache/kafka:${TAG:-3.9.0}",
            "bitnami/kafka:${NOPE}",
        ]);
        let _ = writeln!(compose, "    image: {image}");
        // env files, written beside the compose file.
        let files = random.below(3);
        let mut named = Vec::new();
        for file in 0..files {
            let name = format!("s{service}-{file}.env");
            let mut text = String::new();
            for var in 0..1 + random.below(5) {
                let var_name = random.pick(&[
                    "KAFKA_NODE_ID",
                    "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
                    "KAFKA_LISTENERS",
                    "KAFKA_LOG_DIRS",
                    "RF",
                    "HOST",
                ]);
                if var == 0 && random.chance(20) {
                    text.push_str("# settings\n");
                }
                text.push_str(&env_line(random, var_name, ENV_FILE_VALUES));
                text.push_str(newline);
            }
            // A file that is not there, required or not.
            if !random.chance(8) {
                std::fs::write(dir.join(&name), text).unwrap();
            }
            named.push(name);
        }
        match (named.len(), random.below(3)) {
            (0, _) => {}
            (1, 0) => {
                let _ = writeln!(compose, "    env_file: {}", named[0]);
            }
            (_, 1) => {
                compose.push_str("    env_file:\n");
                for name in &named {
                    let required =
                        random.pick(&["", "        required: false\n", "        required: true\n"]);
                    let _ = write!(compose, "      - path: {name}\n{required}");
                }
            }
            _ => {
                compose.push_str("    env_file:\n");
                for name in &named {
                    let _ = writeln!(compose, "      - {name}");
                }
            }
        }
        let vars = random.below(5);
        if vars > 0 {
            compose.push_str("    environment:\n");
            let list = random.chance(40);
            let mut used = Vec::new();
            for _ in 0..vars {
                let name = random.pick(&[
                    "KAFKA_NODE_ID",
                    "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
                    "KAFKA_ADVERTISED_LISTENERS",
                    "KAFKA_NUM_PARTITIONS",
                    "RF",
                    "HOST",
                ]);
                // A mapping cannot repeat a key.
                if used.contains(&name) {
                    continue;
                }
                used.push(name);
                let value = random.pick(COMPOSE_VALUES);
                let inherit = random.chance(10);
                let _ = match (list, inherit) {
                    (true, true) => writeln!(compose, "      - {name}"),
                    (true, false) => writeln!(compose, "      - {name}={value}"),
                    (false, true) => writeln!(compose, "      {name}:"),
                    (false, false) => writeln!(compose, "      {name}: \"{value}\""),
                };
            }
        }
    }
    std::fs::write(dir.join("compose.yml"), compose).unwrap();
}
