//! An adversarial run: a seeded generator combines hostile content at random, in shapes no other
//! test lists, and every output path is run over it.
//!
//! - Secrets: a random secret key (the catalogue's PASSWORD keys, `sasl.jaas.config`, under
//!   `listener.name.<listener>.<mechanism>.` and client prefixes, in other cases), a random
//!   separator (`=`, `:`, spaces, Unicode spaces, full-width equals, escaped separators, none),
//!   random quoting and YAML tags, written by a random reader: `.properties`, compose environment
//!   maps and lists, `.env`, Kubernetes `env` and ConfigMaps, Strimzi `spec.kafka.config`, chart
//!   values, Terraform, a cp-ansible inventory, start-up scripts, comments and URLs.
//! - Hostile names: line feeds, CR, U+2028, NEL, escape sequences, bidirectional controls and
//!   `::` workflow commands in file, folder, service and resource names.
//! - Bad input: deep nesting and interpolation, long arithmetic, many hosts, services and keys,
//!   at sizes of a few hundred kilobytes at most.
//!
//! Each tree goes through every `--format`, `--statistics`, `--show-settings`, `--diff`, `--fix`
//! (on a copy: what it writes into the user's files may keep secrets, only what is printed
//! counts), `--output-file`, `--stdin-filename` and the language server over stdio. Every run
//! must print no canary (nor 8 letters or digits in a row of one), no line that starts (after
//! whitespace) with `::` but kafkalint's own `--format github` annotations, no raw control or
//! bidirectional character, no panic, exit 2 at most, within a time guard.
//!
//! `KAFKALINT_ADVERSARIAL_SEED` picks another seed (the default is fixed, so a failure repeats);
//! `KAFKALINT_ADVERSARIAL_CASES` the number of trees of each kind; `KAFKALINT_ADVERSARIAL_KEEP=1`
//! keeps the trees (their folder is printed).

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const KAFKALINT: &str = env!("CARGO_BIN_EXE_kafkalint");
const FORMATS: [&str; 7] = [
    "full", "concise", "json", "github", "sarif", "gitlab", "junit",
];
/// Any run of this many characters of a canary's letters and digits, printed, is a leak.
const WINDOW: usize = 8;
const DEFAULT_SEED: u64 = 0xad5e_75a1_0f0e_0033;
const DEFAULT_CASES: usize = 4;
/// A run that takes longer is killed and reported as a hang (a debug build on a busy machine
/// checks these trees in well under a second).
const TIME_GUARD: Duration = Duration::from_secs(15);
const WORKERS: usize = 3;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

// ---------------------------------------------------------------------------------------------
// The pieces a generated tree is made of

/// Kafka's PASSWORD keys (catalog/data/kafka-4.4.json and the 3.x lines) and keys that hold a
/// credential without that type.
const SECRET_KEYS: &[&str] = &[
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.truststore.password",
    "ssl.keystore.key",
    "ssl.keystore.certificate.chain",
    "ssl.truststore.certificates",
    "sasl.jaas.config",
    "sasl.oauthbearer.client.credentials.client.secret",
    "sasl.oauthbearer.assertion.private.key.passphrase",
    "delegation.token.secret.key",
    "password.encoder.secret",
    "password.encoder.old.secret",
    "zookeeper.ssl.keystore.password",
    "zookeeper.ssl.truststore.password",
    "basic.auth.user.info",
    "bearer.auth.token",
];

/// What may stand before a secret key.
const KEY_PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "producer.",
    "consumer.",
    "admin.",
    "listener.name.internal.",
    "listener.name.sasl_ssl.plain.",
    "listener.name.external.scram-sha-512.",
    "listener.name.{}.",
];

/// Between a key and its value. Java's `Properties` ends a key at the first unescaped `=`, `:`
/// or whitespace (space, tab, form feed); every other character, Unicode spaces included, is
/// part of the key.
const SEPARATORS: &[&str] = &[
    "=", ":", " ", "\t", " = ", "\u{c}", "\u{a0}", "\u{2003}", "\u{3000}", "\u{2028}", "\u{b}",
    "\u{ff1d}", "\u{ff1a}", "\\=", "\\:", "\\ ", "\\t", "\\u003d", "\\u0020", "\\u003a", "",
];

/// Characters inside a secret at which a redaction that stops early would print the rest.
const JOINTS: &[&str] = &["", "", ",", "/", "@", ";", "'", "%", "+", "="];

/// Marks of a YAML scalar that a reader may take for part of the value.
const YAML_MARKS: &[&str] = &[
    "",
    "",
    "",
    "",
    "!x ",
    "!!str ",
    "!<tag:x> ",
    "&anchor ",
    "!!binary ",
];

/// Lines GitHub would take for workflow commands, and characters that rewrite a terminal.
const HOSTILE: &[&str] = &[
    "\n::stop-commands::adversarial",
    "\r\n::error::forged",
    "\u{2028}::warning::forged",
    "\u{2029}::notice::forged",
    "\u{85}::group::forged",
    "\u{b}::add-mask::forged",
    "\u{c}::set-output name=x::forged",
    "\t::debug::forged",
    "\n   ::error file=x::forged",
    "\u{1b}[2J\u{1b}]8;;http://evil\u{7}",
    "\u{9b}31m",
    "\u{202e}lmy.",
    "\u{2066}x\u{2069}",
    "\u{200f}",
    "\u{61c}",
    "\u{7f}",
    "%0A::error::forged",
];

/// What a generated tree holds: its files and the canaries in them.
struct Tree {
    name: String,
    files: Vec<(String, Vec<u8>)>,
    /// A YAML or properties file of the tree for `--stdin-filename`.
    stdin_file: Option<String>,
    /// Only a few output paths for trees of bad input (each may take seconds on a slow reader).
    bad_input: bool,
    /// Symbolic links: where each is, what it leads to.
    links: Vec<(String, String)>,
}

impl Tree {
    fn file(&mut self, path: String, text: String) {
        self.files.push((path, text.into_bytes()));
    }
}

struct Canary {
    secret: String,
    shape: String,
}

struct Gen {
    rng: Rng,
    canaries: Vec<Canary>,
}

impl Gen {
    /// A new canary `CANARY<n>x<random>`, a random joint and more random letters after it.
    fn canary(&mut self, shape: String, joints: bool) -> String {
        let id = self.canaries.len();
        let mut secret = format!("CANARY{id:04}x{}", self.rng.alnum(WINDOW));
        let joint = if joints { *self.rng.pick(JOINTS) } else { "" };
        if !joint.is_empty() || self.rng.chance(50) {
            secret.push_str(joint);
            secret.push_str(&self.rng.alnum(WINDOW));
        }
        self.canaries.push(Canary {
            secret: secret.clone(),
            shape,
        });
        secret
    }

    fn secret_key(&mut self) -> String {
        let prefix = self
            .rng
            .pick(KEY_PREFIXES)
            .replace("{}", &self.rng.alnum(5).to_ascii_lowercase());
        let key = *self.rng.pick(SECRET_KEYS);
        let key = if key == "sasl.jaas.config" && prefix.starts_with("listener.name.") {
            // listener.name.<listener>.<mechanism>.sasl.jaas.config
            let mechanism = *self.rng.pick(&["plain.", "scram-sha-256.", "oauthbearer."]);
            if prefix.matches('.').count() == 2 {
                format!("{prefix}{mechanism}{key}")
            } else {
                format!("{prefix}{key}")
            }
        } else {
            format!("{prefix}{key}")
        };
        match self.rng.below(8) {
            0 => key.to_ascii_uppercase(),
            1 => key.replacen("password", "pasword", 1),
            _ => key,
        }
    }

    /// A secret's value for `key`: a JAAS line for a JAAS key, else the canary alone.
    fn value_for(&mut self, key: &str, shape: String) -> String {
        if key.to_ascii_lowercase().contains("jaas") {
            let canary = self.canary(shape, false);
            let module = *self.rng.pick(&[
                "org.apache.kafka.common.security.plain.PlainLoginModule",
                "org.apache.kafka.common.security.scram.ScramLoginModule",
            ]);
            return format!(
                "{module} required username=\"admin\" password=\"{canary}\" user_admin=\"{canary}\";"
            );
        }
        self.canary(shape, true)
    }

    fn separator(&mut self) -> &'static str {
        self.rng.pick::<&str>(SEPARATORS)
    }

    /// A name with one to three hostile pieces among plain letters.
    fn hostile_name(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        for _ in 0..self.rng.between(1, 3) {
            name.push_str(self.rng.pick::<&str>(HOSTILE));
            name.push_str(&self.rng.alnum(3).to_ascii_lowercase());
        }
        name
    }

    /// A comment's text that holds a credential without a secret word before it.
    fn comment_secret(&mut self, reader: &str) -> String {
        let templates = [
            "keytool -importkeystore -storepass {} -keypass {}",
            "keytool -list -storepass {}",
            "curl -u admin:{} https://registry:8081/subjects",
            "mysql -uroot -p{} kafka",
            "Authorization: Bearer {}",
            "Authorization: Basic {}",
            "token={}",
            "export TOKEN {}",
            "use -keypass {} here",
            "see https://user:{}@git.example.com/repo.git",
            "https://hooks.example.com/x?sig={}&v=1",
        ];
        let template = *self.rng.pick(&templates);
        let canary = self.canary(format!("{reader}: comment `{template}`"), false);
        template.replace("{}", &canary)
    }

    /// A URL that carries a credential, in one of the shapes URLs carry them.
    fn credential_url(&mut self, reader: &str) -> String {
        let templates = [
            "https://user:{}@host.example.com:8081",
            "https://{}@host.example.com/path",
            "https://user%3A{}@host.example.com",
            "https://host.example.com/x?sig={}",
            "https://host.example.com/cb?code={}&state=1",
            "https://host.example.com/a?token={}",
            "https://host.example.com/b?X-Amz-Signature={}",
            "oci://robot:{}@registry.example.com/charts",
            "SASL_SSL://user:{}@broker.example.com:9093",
        ];
        let template = *self.rng.pick(&templates);
        let canary = self.canary(format!("{reader}: URL `{template}`"), false);
        template.replace("{}", &canary)
    }
}

/// `text` as a YAML double-quoted scalar, every character that is not plain ASCII escaped.
fn yaml_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(ch),
            _ => out.push_str(&format!("\\u{:04X}", ch as u32)),
        }
    }
    out.push('"');
    out
}

/// `value` as a YAML scalar in a random style (plain, quoted, tagged, a flow collection).
fn yaml_value(g: &mut Gen, value: &str) -> String {
    let mark = *g.rng.pick(YAML_MARKS);
    let plain_ok = !value.contains([':', '#', '\'', '"', '{', '}', '[', ']', ',', '&', '!', '%'])
        && !value.starts_with(['@', '`', '|', '>', '*', '-', '?']);
    match g.rng.below(6) {
        0 if plain_ok => format!("{mark}{value}"),
        1 => format!("{mark}'{}'", value.replace('\'', "''")),
        2 => format!("[{}]", yaml_quoted(value)),
        3 => format!("{{v: {}}}", yaml_quoted(value)),
        _ => format!("{mark}{}", yaml_quoted(value)),
    }
}

/// A key as an environment variable's name (`KAFKA_SSL_KEY_PASSWORD`).
fn env_name(prefix: &str, key: &str) -> String {
    format!(
        "{prefix}{}",
        key.to_ascii_uppercase()
            .replace('.', "_")
            .replace('-', "__")
    )
}

/// `key<sep>value`, the value quoted at random: a `.properties` line that holds a secret.
fn properties_secret(g: &mut Gen, reader: &str) -> String {
    let key = g.secret_key();
    let sep = g.separator();
    let value = g.value_for(&key, format!("{reader}: `{key}` separator {sep:?}"));
    let quote = *g.rng.pick(&["", "", "\"", "'"]);
    format!("{key}{sep}{quote}{value}{quote}")
}

/// Lines of a start-up script that hold a secret.
fn script_secret(g: &mut Gen, reader: &str) -> Vec<String> {
    let shape = g.rng.below(7);
    let canary = g.canary(format!("{reader}: script shape {shape}"), false);
    match shape {
        0 => vec![format!(
            "export KAFKA_{}={canary}",
            env_name("", &g.secret_key())
        )],
        1 => vec![
            "kafka-configs.sh --bootstrap-server localhost:9092 \\".into(),
            format!("  {canary} \\"),
            "  --describe".into(),
        ],
        2 => vec![
            "cat > /tmp/client.properties <<EOF".into(),
            canary.to_string(),
            format!("ssl.key.password={canary}"),
            "EOF".into(),
        ],
        3 => vec![format!("keytool -list -storepass\t{canary} -v")],
        4 => vec![format!("keytool -list -storepass\u{a0}{canary}")],
        5 => vec![format!("curl -fsS -u admin:{canary} http://registry:8081")],
        _ => vec![format!("echo {canary} | kinit kafka")],
    }
}

// ---------------------------------------------------------------------------------------------
// Readers: each writes a file of its kind with random secrets and hostile names

/// A broker `.properties` file: lines that draw findings around the secrets, so each sits in a
/// snippet's context and a `--diff` hunk.
fn properties_file(g: &mut Gen, id: usize) -> String {
    let mut lines = vec![
        format!("broker.id={id}"),
        "zookeeper.connect=localhost:2181".into(),
        format!("log.dirs=/tmp/kafka-logs-{id}"),
        "offsets.topic.replication.factor=1".into(),
    ];
    for _ in 0..g.rng.between(4, 9) {
        lines.push("num.io.threads=8".into());
        match g.rng.below(5) {
            0 => lines.push(format!("# {}", g.comment_secret(".properties"))),
            1 => {
                let url = g.credential_url(".properties");
                let key = *g.rng.pick(&[
                    "advertised.listeners",
                    "schema.registry.url",
                    "sasl.oauthbearer.token.endpoint.url",
                    "confluent.metadata.server.urls",
                ]);
                lines.push(format!("{key}={url}"));
            }
            2 => {
                // An unknown key that runs a secret on (no separator, a Unicode space).
                let canary = g.canary(".properties: secret run into its key".into(), false);
                let key = g.secret_key();
                lines.push(format!("{key}{canary}"));
            }
            _ => lines.push(properties_secret(g, ".properties")),
        }
    }
    lines.push("num.io.threads=8".into());
    lines.join("\n") + "\n"
}

/// A compose project: Kafka services with hostile names, environment maps and lists, start-up
/// scripts, comments; a `.env` beside it.
fn compose_files(g: &mut Gen, tree: &mut Tree, dir: &str) {
    let mut text = String::from("services:\n");
    let mut dot_env = String::new();
    for id in 1..=g.rng.between(1, 3) {
        let name = if g.rng.chance(70) {
            yaml_quoted(&g.hostile_name(&format!("kafka-{id}")))
        } else {
            format!("kafka-{id}")
        };
        text.push_str(&format!(
            "  {name}:\n    image: confluentinc/cp-kafka:7.6.1\n"
        ));
        let script: Vec<String> = script_secret(g, "compose command");
        text.push_str("    command:\n      - sh\n      - -c\n      - |\n");
        for line in script {
            text.push_str(&format!("        {line}\n"));
        }
        text.push_str("        exec /etc/confluent/docker/run\n");
        let list = g.rng.chance(40);
        text.push_str("    environment:\n");
        let mut entries = vec![
            ("KAFKA_BROKER_ID".to_string(), id.to_string()),
            (
                "KAFKA_ZOOKEEPER_CONNECT".to_string(),
                "zookeeper:2181".to_string(),
            ),
            (
                "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR".to_string(),
                "1".to_string(),
            ),
        ];
        for _ in 0..g.rng.between(2, 5) {
            let key = g.secret_key();
            let value = g.value_for(&key, format!("compose environment: `{key}`"));
            entries.push((env_name("KAFKA_", &key), value));
        }
        if g.rng.chance(50) {
            let url = g.credential_url("compose environment");
            entries.push(("KAFKA_ADVERTISED_LISTENERS".into(), url));
        }
        if g.rng.chance(50) {
            let default = g.canary("compose: ${VAR:-default} interpolation".into(), false);
            entries.push((
                "KAFKA_SSL_KEY_PASSWORD".into(),
                format!("${{KEY_SECRET_{id}:-{default}}}"),
            ));
        }
        for (name, value) in entries {
            if g.rng.chance(20) {
                text.push_str(&format!(
                    "      # {}\n",
                    g.comment_secret("compose comment")
                ));
            }
            if list {
                let sep = if g.rng.chance(80) { "=" } else { g.separator() };
                text.push_str(&format!(
                    "      - {}\n",
                    yaml_quoted(&format!("{name}{sep}{value}"))
                ));
            } else {
                text.push_str(&format!("      {name}: {}\n", yaml_value(g, &value)));
            }
        }
    }
    for _ in 0..g.rng.between(1, 4) {
        let key = g.secret_key();
        let value = g.value_for(&key, format!(".env: `{key}`"));
        let export = if g.rng.chance(30) { "export " } else { "" };
        let sep = if g.rng.chance(70) { "=" } else { g.separator() };
        dot_env.push_str(&format!("{export}{}{sep}{value}\n", env_name("", &key)));
        if g.rng.chance(30) {
            dot_env.push_str(&format!("# {}\n", g.comment_secret(".env comment")));
        }
    }
    tree.file(format!("{dir}/docker-compose.yml"), text);
    tree.file(format!("{dir}/.env"), dot_env);
}

/// Kubernetes manifests: a ConfigMap of environment variables, a StatefulSet with an `env` list
/// and a start-up script, names hostile.
fn kubernetes_file(g: &mut Gen) -> String {
    let name = yaml_quoted(&g.hostile_name("kafka"));
    let mut data = String::new();
    for _ in 0..g.rng.between(1, 4) {
        let key = g.secret_key();
        let value = g.value_for(&key, format!("ConfigMap data: `{key}`"));
        data.push_str(&format!(
            "  {}: {}\n",
            env_name("KAFKA_", &key),
            yaml_value(g, &value)
        ));
    }
    let mut env = String::new();
    for _ in 0..g.rng.between(1, 4) {
        let key = g.secret_key();
        let value = g.value_for(&key, format!("Kubernetes env: `{key}`"));
        env.push_str(&format!(
            "            - name: {}\n              value: {}\n",
            env_name("KAFKA_", &key),
            yaml_value(g, &value)
        ));
    }
    let script: String = script_secret(g, "Kubernetes command")
        .into_iter()
        .map(|line| format!("              {line}\n"))
        .collect();
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kafka-env\ndata:\n  KAFKA_DEFAULT_REPLICATION_FACTOR: \"1\"\n{data}---\n\
         apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {name}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: {name}\n          image: confluentinc/cp-kafka:7.6.1\n          command:\n            - sh\n            - -c\n            - |\n              export KAFKA_BROKER_ID=${{HOSTNAME##*-}}\n{script}              exec /etc/confluent/docker/run\n          envFrom:\n            - configMapRef:\n                name: kafka-env\n          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n            - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR\n              value: \"1\"\n{env}"
    )
}

/// A Strimzi `Kafka` whose `spec.kafka.config` holds secrets under their keys, and whole
/// `key=value` lines written as keys.
fn strimzi_file(g: &mut Gen) -> String {
    let name = yaml_quoted(&g.hostile_name("events"));
    let mut config = String::from("      offsets.topic.replication.factor: 1\n");
    for _ in 0..g.rng.between(2, 5) {
        if g.rng.chance(35) {
            let line = properties_secret(g, "Strimzi config key");
            config.push_str(&format!("      {}: x\n", yaml_quoted(&line)));
        } else {
            let key = g.secret_key();
            let value = g.value_for(&key, format!("Strimzi config: `{key}`"));
            config.push_str(&format!("      {key}: {}\n", yaml_value(g, &value)));
        }
        if g.rng.chance(25) {
            config.push_str(&format!(
                "      # {}\n",
                g.comment_secret("Strimzi comment")
            ));
        }
    }
    format!(
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: {name}\nspec:\n  kafka:\n    replicas: 3\n    listeners:\n      - name: tls\n        port: 9093\n        type: internal\n        tls: true\n    config:\n{config}    storage:\n      type: ephemeral\n  zookeeper:\n    replicas: 3\n    storage:\n      type: ephemeral\n"
    )
}

/// Values of the bitnami/kafka chart: `extraConfig` lines, SASL passwords, variables.
fn helm_values_file(g: &mut Gen) -> String {
    let mut extra = String::from("  offsets.topic.replication.factor=1\n");
    for _ in 0..g.rng.between(1, 4) {
        extra.push_str(&format!(
            "  {}\n",
            properties_secret(g, "chart extraConfig")
        ));
    }
    let key = g.secret_key();
    let password = g.value_for(&key, "chart sasl.client.passwords".into());
    let env = g.canary("chart extraEnvVars value".into(), true);
    let comment = g.comment_secret("chart values comment");
    format!(
        "image:\n  repository: bitnami/kafka\n  tag: 3.9.0-debian-12-r1\n# {comment}\ncontroller:\n  replicaCount: 3\nsasl:\n  client:\n    passwords: {}\nextraConfig: |\n{extra}extraEnvVars:\n  - name: KAFKA_CFG_SSL_TRUSTSTORE_PASSWORD\n    value: {}\n",
        yaml_value(g, &password),
        yaml_value(g, &env)
    )
}

fn hcl_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' => out.push_str("$$"),
            '%' => out.push_str("%%"),
            ' '..='~' => out.push(ch),
            _ => out.push_str(&format!("\\u{:04X}", ch as u32)),
        }
    }
    out.push('"');
    out
}

/// A Terraform file: a chart release (its repository URL, a values heredoc, `set`) and a Strimzi
/// manifest, secrets in each and in comments.
fn terraform_file(g: &mut Gen) -> String {
    let repository = g.credential_url("Terraform helm_release repository");
    let heredoc = properties_secret(g, "Terraform values heredoc");
    let key = g.secret_key();
    let set = g.value_for(&key, format!("Terraform set `{key}`"));
    let manifest_key = g.secret_key();
    let manifest = g.value_for(
        &manifest_key,
        format!("Terraform manifest `{manifest_key}`"),
    );
    let comment = g.comment_secret("Terraform comment");
    let name = hcl_quoted(&g.hostile_name("events"));
    format!(
        "# {comment}\nresource \"helm_release\" \"kafka\" {{\n  repository = {}\n  chart      = \"kafka\"\n  version    = \"22.1.6\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    extraConfig: |\n      offsets.topic.replication.factor=1\n      {heredoc}\n    EOF\n  ]\n  set {{\n    name  = {}\n    value = {}\n  }}\n}}\n\nresource \"kubernetes_manifest\" \"kafka\" {{\n  manifest = {{\n    apiVersion = \"kafka.strimzi.io/v1beta2\"\n    kind       = \"Kafka\"\n    metadata   = {{ name = {name} }}\n    spec = {{\n      kafka = {{\n        replicas = 3\n        listeners = [{{ name = \"plain\", port = 9092, tls = false, type = \"internal\" }}]\n        config = {{\n          \"offsets.topic.replication.factor\" = 1\n          {} = {}\n        }}\n        storage = {{ type = \"ephemeral\" }}\n      }}\n      zookeeper = {{\n        replicas = 3\n        storage = {{ type = \"ephemeral\" }}\n      }}\n    }}\n  }}\n}}\n",
        hcl_quoted(&repository),
        hcl_quoted(&key),
        hcl_quoted(&set),
        hcl_quoted(&manifest_key),
        hcl_quoted(&manifest),
    )
}

/// A cp-ansible inventory: passwords in variables, secrets in custom properties, hostile host
/// names.
fn inventory_file(g: &mut Gen) -> String {
    let store = g.canary("inventory ssl_keystore_store_password".into(), true);
    let mut custom = String::from("      offsets.topic.replication.factor: 1\n");
    for _ in 0..g.rng.between(1, 4) {
        let key = g.secret_key();
        let value = g.value_for(&key, format!("inventory custom property `{key}`"));
        custom.push_str(&format!("      {key}: {}\n", yaml_value(g, &value)));
    }
    let host = yaml_quoted(&g.hostile_name("kafka1.example.internal"));
    format!(
        "all:\n  vars:\n    ssl_enabled: true\n    ssl_keystore_store_password: {}\nkafka_broker:\n  vars:\n    kafka_broker_custom_properties:\n{custom}  hosts:\n    {host}:\n    kafka2.example.internal:\n    kafka3.example.internal:\n",
        yaml_value(g, &store)
    )
}

/// A file name: a safe base with hostile pieces (no `/`, no NUL, at most 200 bytes).
fn file_name(g: &mut Gen, base: &str, extension: &str) -> String {
    let mut name = g.hostile_name(base).replace('/', "_");
    while name.len() > 200 {
        name.pop();
    }
    format!("{name}{extension}")
}

/// A tree with one folder per reader, secrets and hostile names in each.
fn hostile_tree(g: &mut Gen, index: usize) -> Tree {
    let mut tree = Tree {
        name: format!("hostile-{index}"),
        files: Vec::new(),
        stdin_file: None,
        bad_input: false,
        links: Vec::new(),
    };
    let brokers = if g.rng.chance(50) {
        file_name(g, "brokers", "")
    } else {
        "brokers".to_string()
    };
    for id in 0..g.rng.between(1, 3) {
        let name = if g.rng.chance(60) {
            file_name(g, &format!("server-{id}"), ".properties")
        } else {
            format!("server-{id}.properties")
        };
        let text = properties_file(g, id);
        tree.file(format!("{brokers}/{name}"), text);
    }
    tree.stdin_file = Some(tree.files[0].0.clone());
    // What a walk passes over with a note on stderr, under hostile names: an empty node file, a
    // link that leads nowhere.
    let empty = file_name(g, "server-empty", ".properties");
    tree.file(format!("{brokers}/{empty}"), String::new());
    let dangling = file_name(g, "server-gone", ".properties");
    tree.links
        .push((format!("{brokers}/{dangling}"), "nowhere.properties".into()));
    compose_files(g, &mut tree, "compose");
    let text = kubernetes_file(g);
    tree.file("kubernetes/kafka.yaml".into(), text);
    let text = strimzi_file(g);
    tree.file("strimzi/kafka.yaml".into(), text);
    let text = helm_values_file(g);
    tree.file("chart/values.yaml".into(), text);
    let text = terraform_file(g);
    tree.file("terraform/main.tf".into(), text);
    let text = inventory_file(g);
    tree.file("ansible/hosts.yml".into(), text);
    if g.rng.chance(50) {
        let cluster = g.hostile_name("prod");
        tree.file(
            "kafkalint.toml".into(),
            format!(
                "[[clusters]]\nname = {}\nfiles = [{}]\n",
                toml_quoted(&cluster),
                toml_quoted(&format!("{brokers}/*.properties"))
            ),
        );
    }
    tree
}

fn toml_quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(ch),
            _ => out.push_str(&format!("\\u{:04X}", ch as u32)),
        }
    }
    out.push('"');
    out
}

/// A tree of bad input: nesting, interpolation, arithmetic and counts of random sizes.
fn bad_input_tree(g: &mut Gen, index: usize) -> Tree {
    let mut tree = Tree {
        name: format!("bad-input-{index}"),
        files: Vec::new(),
        stdin_file: None,
        bad_input: true,
        links: Vec::new(),
    };
    match index % 6 {
        0 => {
            let depth = g.rng.between(2_000, 20_000);
            let value = "${A:-".repeat(depth) + "x" + &"}".repeat(depth);
            tree.file(
                "compose/docker-compose.yml".into(),
                format!(
                    "services:\n  kafka:\n    image: apache/kafka:3.9.0\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_LOG_DIRS: \"{value}\"\n"
                ),
            );
            tree.file("compose/.env".into(), format!("B={value}\n"));
            tree.stdin_file = Some("compose/docker-compose.yml".into());
        }
        1 => {
            let depth = g.rng.between(2_000, 50_000);
            let script = if g.rng.chance(50) {
                format!("echo $(({}1))", "-".repeat(depth * 3))
            } else {
                format!("echo {}1{}", "$((".repeat(depth), "))".repeat(depth))
            };
            tree.file(
                "compose/docker-compose.yml".into(),
                format!(
                    "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.6.1\n    command: [\"sh\", \"-c\", \"{script}\"]\n    environment:\n      KAFKA_BROKER_ID: 1\n"
                ),
            );
            tree.stdin_file = Some("compose/docker-compose.yml".into());
        }
        2 => {
            let depth = g.rng.between(1_000, 10_000);
            let open = *g.rng.pick(&["[", "{a: ", "- "]);
            let text = match open {
                "[" => format!("services: {}1{}\n", "[".repeat(depth), "]".repeat(depth)),
                "{a: " => format!("services: {}1{}\n", "{a: ".repeat(depth), "}".repeat(depth)),
                _ => {
                    let mut text = String::from("services:\n");
                    for level in 0..depth.min(1_500) {
                        text.push_str(&" ".repeat(level + 2));
                        text.push_str("- \n");
                    }
                    text
                }
            };
            tree.file("compose/docker-compose.yml".into(), text);
            tree.stdin_file = Some("compose/docker-compose.yml".into());
        }
        3 => {
            // A cp-ansible inventory: host ranges, and groups that form a diamond at every level
            // above the broker group (each path to it counted would be 2^depth).
            let mut text = String::from("kafka_broker:\n  hosts:\n");
            for range in 0..g.rng.between(3, 8) {
                text.push_str(&format!(
                    "    host{range}-[0:{}].example.internal:\n",
                    g.rng.between(200, 1_000)
                ));
            }
            let depth = g.rng.between(15, 30);
            for level in 0..depth {
                for side in ["a", "b"] {
                    text.push_str(&format!("g{level}{side}:\n  children:\n"));
                    if level + 1 < depth {
                        text.push_str(&format!("    g{}a:\n    g{}b:\n", level + 1, level + 1));
                    } else {
                        text.push_str("    kafka_broker:\n");
                    }
                }
            }
            tree.file("ansible/hosts.yml".into(), text);
            tree.stdin_file = Some("ansible/hosts.yml".into());
        }
        4 => {
            let services = g.rng.between(150, 400);
            let mut text = String::from("services:\n");
            for id in 0..services {
                text.push_str(&format!(
                    "  kafka-{id}:\n    image: apache/kafka:3.9.0\n    ports: [\"9092:9092\"]\n    environment:\n      KAFKA_NODE_ID: {id}\n      KAFKA_PROCESS_ROLES: broker,controller\n"
                ));
            }
            tree.file("compose/docker-compose.yml".into(), text);
        }
        _ => {
            let keys = g.rng.between(2_000, 5_000);
            let mut text = String::from("broker.id=1\nlog.dirs=/tmp/k\n");
            for key in 0..keys {
                text.push_str(&format!(
                    "listener.name.l{key}.ssl.keystore.password=x{key}\n"
                ));
            }
            tree.file("brokers/server.properties".into(), text);
            tree.stdin_file = Some("brokers/server.properties".into());
        }
    }
    tree
}

// ---------------------------------------------------------------------------------------------
// Runs and what they print

#[derive(Clone)]
struct Run {
    tree: usize,
    label: String,
    args: Vec<String>,
    /// Run on a copy of the tree (`--fix` writes into it).
    copy: bool,
    stdin: Option<String>,
    /// A file the run writes its output to, read as printed output.
    output_file: Option<String>,
    /// `--format github`: lines starting `::` are its own annotations, checked as such.
    github: bool,
    server: bool,
}

impl Run {
    fn new(tree: usize, label: &str, args: &[&str]) -> Run {
        Run {
            tree,
            label: label.to_string(),
            args: args.iter().map(|arg| arg.to_string()).collect(),
            copy: false,
            stdin: None,
            output_file: None,
            github: false,
            server: false,
        }
    }
}

fn runs_of(index: usize, tree: &Tree) -> Vec<Run> {
    let mut runs = Vec::new();
    let formats: &[&str] = if tree.bad_input {
        &["json", "github"]
    } else {
        &FORMATS
    };
    for format in formats {
        let mut run = Run::new(
            index,
            &format!("--format {format}"),
            &["check", "--format", format, "."],
        );
        run.github = *format == "github";
        runs.push(run);
    }
    let mut server = Run::new(index, "language server (stdio)", &["server"]);
    server.server = true;
    runs.push(server);
    if let Some(path) = &tree.stdin_file {
        let text = String::from_utf8_lossy(&tree.files.iter().find(|(p, _)| p == path).unwrap().1)
            .into_owned();
        let format = if tree.bad_input { "json" } else { "full" };
        let mut run = Run::new(
            index,
            "--stdin-filename",
            &["check", "--format", format, "--stdin-filename", path, "-"],
        );
        run.stdin = Some(text);
        runs.push(run);
    }
    if tree.bad_input {
        return runs;
    }
    runs.push(Run::new(
        index,
        "--statistics",
        &["check", "--statistics", "."],
    ));
    runs.push(Run::new(
        index,
        "--statistics --format json",
        &["check", "--statistics", "--format", "json", "."],
    ));
    runs.push(Run::new(
        index,
        "--show-settings",
        &["check", "--show-settings", "."],
    ));
    runs.push(Run::new(
        index,
        "--diff",
        &["check", "--diff", "--unsafe-fixes", "."],
    ));
    let mut fix = Run::new(
        index,
        "--fix",
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "concise",
            ".",
        ],
    );
    fix.copy = true;
    runs.push(fix);
    for format in ["full", "github"] {
        let mut run = Run::new(
            index,
            &format!("--output-file ({format})"),
            &[
                "check",
                "--format",
                format,
                "--output-file",
                "report.out",
                ".",
            ],
        );
        run.output_file = Some("report.out".into());
        run.github = format == "github";
        run.copy = true;
        runs.push(run);
    }
    runs
}

/// What one run printed and how it ended.
struct Printed {
    streams: Vec<(&'static str, String)>,
    code: Option<i32>,
    hang: bool,
    seconds: f64,
}

fn framed(body: &serde_json::Value) -> Vec<u8> {
    let body = body.to_string();
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.as_os_str().as_encoded_bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(*byte as char)
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

/// The language server's input: initialize, open every file of the tree, hover over each of
/// its first lines (not in trees of bad input: a hover checks the document again), ask for its code actions, shut down and exit.
fn server_input(tree: &Tree, root: &Path) -> Vec<u8> {
    let hovers = if tree.bad_input { 0 } else { 12 };
    use serde_json::json;
    let mut input = framed(&json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": { "processId": null, "rootUri": file_uri(root), "capabilities": {} }
    }));
    input.extend(framed(
        &json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
    ));
    let mut id = 1;
    for (path, bytes) in &tree.files {
        let uri = file_uri(&root.join(path));
        let text = String::from_utf8_lossy(bytes);
        input.extend(framed(&json!({
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": { "textDocument": {
                "uri": uri, "languageId": "yaml", "version": 1, "text": text,
            }}
        })));
        for (line, content) in text.lines().take(hovers).enumerate() {
            let character = content.len() - content.trim_start().len() + 1;
            input.extend(framed(&json!({
                "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                "params": { "textDocument": { "uri": uri },
                            "position": { "line": line, "character": character } }
            })));
            id += 1;
        }
        input.extend(framed(&json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/codeAction",
            "params": { "textDocument": { "uri": uri },
                        "range": { "start": { "line": 0, "character": 0 },
                                   "end": { "line": 100000, "character": 0 } },
                        "context": { "diagnostics": [] } }
        })));
        id += 1;
    }
    input.extend(framed(
        &json!({ "jsonrpc": "2.0", "id": id, "method": "shutdown" }),
    ));
    input.extend(framed(&json!({ "jsonrpc": "2.0", "method": "exit" })));
    input
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else if entry.path_is_symlink() {
            let to = std::fs::read_link(entry.path()).unwrap();
            std::os::unix::fs::symlink(to, &target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn execute(run: &Run, tree: &Tree, root: &Path, scratch: &Path) -> Printed {
    let cwd = if run.copy {
        copy_tree(root, scratch);
        scratch.to_path_buf()
    } else {
        root.to_path_buf()
    };
    let input = if run.server {
        Some(server_input(tree, &cwd))
    } else {
        run.stdin.clone().map(String::into_bytes)
    };
    let start = Instant::now();
    let mut child = Command::new(KAFKALINT)
        .args(&run.args)
        .current_dir(&cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("GITHUB_ACTIONS")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kafkalint runs");
    let writer = input.map(|input| {
        let mut stdin = child.stdin.take().unwrap();
        // A run that stops reading early closes its end: no failure here.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        })
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let mut hang = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIME_GUARD {
            hang = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let seconds = start.elapsed().as_secs_f64();
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let mut streams = vec![
        (
            "stdout",
            String::from_utf8_lossy(&stdout.join().unwrap()).into_owned(),
        ),
        (
            "stderr",
            String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
        ),
    ];
    if let Some(file) = &run.output_file {
        let written = std::fs::read(cwd.join(file)).unwrap_or_default();
        streams.push((
            "--output-file",
            String::from_utf8_lossy(&written).into_owned(),
        ));
    }
    if run.copy {
        let _ = std::fs::remove_dir_all(scratch);
    }
    Printed {
        streams,
        code: status.code(),
        hang,
        seconds,
    }
}

// ---------------------------------------------------------------------------------------------
// Judging what was printed

/// Every window of `WINDOW` letters and digits of each canary (in lower case), mapped to its
/// canary; windows two canaries share are dropped.
struct Detector {
    windows: HashMap<[u8; WINDOW], usize>,
}

impl Detector {
    fn new(canaries: &[Canary]) -> Self {
        let mut owners: HashMap<[u8; WINDOW], Option<usize>> = HashMap::new();
        for (id, canary) in canaries.iter().enumerate() {
            for part in canary.secret.split(|ch: char| !ch.is_ascii_alphanumeric()) {
                let part = part.to_ascii_lowercase();
                for window in part.as_bytes().windows(WINDOW) {
                    let key: [u8; WINDOW] = window.try_into().unwrap();
                    owners
                        .entry(key)
                        .and_modify(|owner| {
                            if *owner != Some(id) {
                                *owner = None;
                            }
                        })
                        .or_insert(Some(id));
                }
            }
        }
        Detector {
            windows: owners
                .into_iter()
                .filter_map(|(key, owner)| owner.map(|id| (key, id)))
                .collect(),
        }
    }

    /// Each canary `text` shows, with the line that shows it.
    fn scan(&self, text: &str) -> BTreeMap<usize, String> {
        let mut found = BTreeMap::new();
        let bytes = text.as_bytes();
        let mut line_start = 0;
        for start in 0..bytes.len().saturating_sub(WINDOW - 1) {
            if bytes[start] == b'\n' {
                line_start = start + 1;
            }
            let mut window: [u8; WINDOW] = bytes[start..start + WINDOW].try_into().unwrap();
            if !window.iter().all(u8::is_ascii_alphanumeric) {
                continue;
            }
            // A secret shown in another case (an environment variable's name made a key) is
            // still shown.
            window.make_ascii_lowercase();
            if let Some(&id) = self.windows.get(&window) {
                found.entry(id).or_insert_with(|| {
                    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
                    let line_start = (0..=line_start.max(start.saturating_sub(200)))
                        .rev()
                        .find(|&at| text.is_char_boundary(at))
                        .unwrap_or(0);
                    let end = (end.min(start + 200)..=text.len())
                        .find(|&at| text.is_char_boundary(at))
                        .unwrap_or(text.len());
                    text[line_start..end].to_string()
                });
            }
        }
        found
    }
}

/// A `--format github` line of kafkalint's own: `::<level> file=<path>,...,title=kafkalint(<rule>)::`,
/// the path with `:` and `,` escaped (`%3A`, `%2C`) as its property escaping does.
fn own_annotation(line: &str) -> bool {
    let Some(rest) = ["::error file=", "::warning file=", "::notice file="]
        .iter()
        .find_map(|head| line.strip_prefix(head))
    else {
        return false;
    };
    let Some(title) = rest.find(",title=kafkalint(") else {
        return false;
    };
    let properties = &rest[..title];
    let after = &rest[title + ",title=kafkalint(".len()..];
    !properties.contains(':')
        && after.split_once(")::").is_some_and(|(rule, _)| {
            rule.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        })
}

/// Characters a terminal or a log viewer acts on: controls (but line feed and tab), line and
/// paragraph separators, bidirectional controls.
fn is_raw(ch: char) -> bool {
    (ch.is_control() && ch != '\n' && ch != '\t')
        || matches!(ch,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
            | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[derive(Clone)]
struct Failure {
    class: &'static str,
    tree: String,
    run: String,
    stream: &'static str,
    detail: String,
}

fn judge(
    run: &Run,
    tree: &Tree,
    printed: &Printed,
    detector: &Detector,
    canaries: &[Canary],
) -> Vec<Failure> {
    let mut failures = Vec::new();
    let mut fail = |class: &'static str, stream: &'static str, detail: String| {
        failures.push(Failure {
            class,
            tree: tree.name.clone(),
            run: run.label.clone(),
            stream,
            detail,
        })
    };
    if printed.hang {
        fail(
            "hang",
            "",
            format!("killed after {} s", TIME_GUARD.as_secs()),
        );
    } else {
        match printed.code {
            Some(0..=2) => {}
            Some(code) => fail("exit code above 2", "", format!("exit {code}")),
            None => fail("crash (killed by a signal)", "", "no exit code".into()),
        }
    }
    for (stream, text) in &printed.streams {
        if text.contains("panicked") || text.contains("RUST_BACKTRACE") {
            let line = text
                .lines()
                .find(|line| line.contains("panicked"))
                .unwrap_or("");
            fail("panic", stream, format!("{line:?}"));
        }
        for (id, line) in detector.scan(text) {
            fail(
                "secret printed",
                stream,
                format!("{} in {line:?}", canaries[id].shape),
            );
        }
        // The server's stdout is JSON-RPC for an editor, not lines for a terminal or a log.
        if run.server && *stream == "stdout" {
            continue;
        }
        let github = run.github && *stream != "stderr";
        if let Some(line) = text
            .split('\n')
            .find(|line| line.trim_start().starts_with("::") && !(github && own_annotation(line)))
        {
            fail("forged workflow command", stream, format!("{line:?}"));
        }
        if let Some(at) = text.find(is_raw) {
            let ch = text[at..].chars().next().unwrap();
            let start = (0..=at.saturating_sub(60))
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let end = (at + 60..=text.len())
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(text.len());
            fail(
                "raw control character",
                stream,
                format!("U+{:04X} in {:?}", ch as u32, &text[start..end]),
            );
        }
    }
    failures
}

fn seed() -> u64 {
    std::env::var("KAFKALINT_ADVERSARIAL_SEED")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

fn cases() -> usize {
    std::env::var("KAFKALINT_ADVERSARIAL_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

fn write_tree(tree: &Tree, root: &Path) {
    for (path, bytes) in &tree.files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    for (link, target) in &tree.links {
        std::os::unix::fs::symlink(target, root.join(link)).unwrap();
    }
}

#[test]
fn hostile_trees_through_every_output_path() {
    let seed = seed();
    let mut g = Gen {
        rng: Rng(seed),
        canaries: Vec::new(),
    };
    let mut trees = Vec::new();
    for index in 0..cases() {
        trees.push(hostile_tree(&mut g, index));
    }
    for index in 0..cases().max(6) {
        trees.push(bad_input_tree(&mut g, index));
    }
    let scratch = tempfile::tempdir().unwrap();
    if std::env::var_os("KAFKALINT_ADVERSARIAL_KEEP").is_some() {
        eprintln!("trees kept in {}", scratch.path().display());
    }
    let roots: Vec<PathBuf> = trees
        .iter()
        .map(|tree| {
            let root = scratch.path().join(&tree.name);
            write_tree(tree, &root);
            root
        })
        .collect();
    let runs: Vec<Run> = trees
        .iter()
        .enumerate()
        .flat_map(|(index, tree)| runs_of(index, tree))
        .collect();
    let detector = Detector::new(&g.canaries);
    let next = Mutex::new(0usize);
    let failures = Mutex::new(Vec::new());
    let slowest = Mutex::new((0.0f64, String::new()));
    std::thread::scope(|scope| {
        for worker in 0..WORKERS {
            let (next, failures, slowest) = (&next, &failures, &slowest);
            let (runs, trees, roots, detector, canaries) =
                (&runs, &trees, &roots, &detector, &g.canaries);
            let scratch = scratch.path().join(format!("copy-{worker}"));
            scope.spawn(move || {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    let Some(run) = runs.get(index) else { break };
                    let tree = &trees[run.tree];
                    let printed = execute(run, tree, &roots[run.tree], &scratch);
                    let found = judge(run, tree, &printed, detector, canaries);
                    failures.lock().unwrap().extend(found);
                    let mut slowest = slowest.lock().unwrap();
                    if printed.seconds > slowest.0 {
                        *slowest = (printed.seconds, format!("{} {}", tree.name, run.label));
                    }
                }
            });
        }
    });
    let kept = std::env::var_os("KAFKALINT_ADVERSARIAL_KEEP").map(|_| scratch.keep());
    let failures = failures.into_inner().unwrap();
    let (seconds, which) = slowest.into_inner().unwrap();
    eprintln!(
        "adversarial run, seed {seed}: {} trees, {} canaries, {} runs; slowest run {seconds:.1} s ({which})",
        trees.len(),
        g.canaries.len(),
        runs.len()
    );
    if failures.is_empty() {
        return;
    }
    // Grouped by class and output path, a few examples each.
    let mut grouped: BTreeMap<(&str, String, &str), Vec<Failure>> = BTreeMap::new();
    for failure in &failures {
        grouped
            .entry((failure.class, failure.run.clone(), failure.stream))
            .or_default()
            .push(failure.clone());
    }
    if let Some(kept) = &kept {
        let all: String = failures
            .iter()
            .map(|f| {
                format!(
                    "{}\t{}\t{}\t{}\t{}\n",
                    f.class, f.run, f.stream, f.tree, f.detail
                )
            })
            .collect();
        std::fs::write(kept.join("failures.tsv"), all).unwrap();
    }
    let mut report = format!("{} failures (seed {seed}):\n", failures.len());
    for ((class, run, stream), found) in &grouped {
        report.push_str(&format!("- {class}: {run} [{stream}] x{}\n", found.len()));
        for failure in found.iter().take(3) {
            report.push_str(&format!("    {}: {}\n", failure.tree, failure.detail));
        }
    }
    panic!("{report}");
}
