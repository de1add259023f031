//! Secrets never printed: a generator of canary secrets, each written in one shape a person
//! might use (every spelling of a secret key, comments, continuation lines, YAML forms, URL
//! credentials, PEM blocks, `kafkalint.toml` errors, a link out of the tree) beside lines that
//! draw findings, so that each falls inside snippet context and `--diff` hunks. Every output
//! format, `--statistics`, `--show-settings`, `--diff`, `--fix`, `--stdin-filename`, `--with-cluster`, `--output-file`, `--config`
//! error paths and `coordinator` are run, and stdout and stderr of each are searched for every
//! canary and every fragment of it. A single canary found fails the test; what `--fix` writes
//! into the user's own files may keep them.
//!
//! `KAFKALINT_LEAKS_SEED` chooses another seed (the default one is fixed, so a failure repeats).

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

const KAFKALINT: &str = env!("CARGO_BIN_EXE_kafkalint");
const FORMATS: [&str; 7] = [
    "full", "concise", "json", "github", "sarif", "gitlab", "junit",
];
/// Any run of this many characters of a canary's letters and digits, printed anywhere, is a leak.
const WINDOW: usize = 8;
const MIN_CANARIES: usize = 500;
const WORKERS: usize = 3;
const DEFAULT_SEED: u64 = 0x1eaf_5eed_c0de_0016;

#[path = "support/rng.rs"]
mod rng;
use rng::Rng;

/// One generated secret and where it was put.
struct Canary {
    secret: String,
    /// The kind of shape, for the grouped report (`properties: misspelt key`).
    family: String,
    /// The exact shape (`ssl.key.pass` with separator `=`).
    shape: String,
}

/// Every canary of the run, made unique by its number and random letters.
struct Canaries {
    rng: Rng,
    all: Vec<Canary>,
}

impl Canaries {
    fn new(seed: u64) -> Self {
        Canaries {
            rng: Rng(seed),
            all: Vec::new(),
        }
    }

    /// A new secret `CANARY<n>x<random>`; when `joints` is not empty, one of its characters and a
    /// second random part follow (`CANARY0012xabcdefgh,ABCDEFGH`), the part a redaction that
    /// stops at that character would print.
    fn secret(&mut self, family: &str, shape: &str, joints: &str) -> String {
        let mut parts = self.parts(family, shape, 1);
        let secret = parts.remove(0);
        if joints.is_empty() {
            return secret;
        }
        let joints: Vec<char> = joints.chars().collect();
        let joint = joints[self.rng.below(joints.len())];
        let tail = self.rng.alnum(WINDOW);
        let canary = self.all.last_mut().unwrap();
        canary.secret = format!("{secret}{joint}{tail}");
        canary.secret.clone()
    }

    /// One canary in `count` parts, for shapes that spread a secret over lines.
    fn parts(&mut self, family: &str, shape: &str, count: usize) -> Vec<String> {
        let id = self.all.len();
        let mut parts = vec![format!("CANARY{id:04}x{}", self.rng.alnum(WINDOW))];
        parts.extend((1..count).map(|_| self.rng.alnum(WINDOW)));
        self.all.push(Canary {
            secret: parts.join(" "),
            family: family.to_string(),
            shape: shape.to_string(),
        });
        parts
    }
}

// ---------------------------------------------------------------------------------------------
// .properties shapes

/// Keys Kafka types as PASSWORD (or JAAS), as they are spelt.
const PASSWORD_KEYS: &[&str] = &[
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.truststore.password",
    "zookeeper.ssl.keystore.password",
    "zookeeper.ssl.truststore.password",
    "listener.name.internal.ssl.keystore.password",
    "password.encoder.secret",
    "delegation.token.secret.key",
    "ssl.keystore.key",
    "sasl.jaas.config",
    "listener.name.x.plain.sasl.jaas.config",
    "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
    "ssl.keystore.certificate.chain",
    "ssl.truststore.certificates",
    "listener.name.external.ssl.key.password",
];

/// Secret keys misspelt, or in another case: Kafka ignores them, the secret is still real.
const MISSPELT_KEYS: &[&str] = &[
    "ssl.keystore.pasword",
    "ssl.key.passwrod",
    "ssl.key.pass",
    "ssl.truststore.pwd",
    "ssl.truststore.pasword",
    "ssl.key.pw",
    "ssl.keystore.passphrase",
    "SSL.KEYSTORE.PASSWORD",
    "Ssl.Key.Password",
    "ssl.keystore.pass_word",
    "sasl.jass.config",
    "listener.name.x.plain.sasl.jaas.conf",
    "ssl.key.passwd",
    "SSL_KEYSTORE_PASSWORD",
    "ssl.keystore.password.old",
];

const TOKEN_KEYS: &[&str] = &[
    "bearer.auth.token",
    "confluent.metadata.bearer.auth.token",
    "config.providers.vault.param.vault.token",
    "config.providers.secrets.param.auth.token",
    "schema.registry.bearer.auth.token",
    "sasl.oauthbearer.access.token",
    "basic.auth.user.info",
];

const UNKNOWN_KEYS: &[&str] = &[
    "custom.setting",
    "my.app.value",
    "opaque",
    "interceptor.extra.conf",
];

const SEPARATORS: &[&str] = &["=", ":", " ", " = ", "\t", " : "];

/// Characters a secret may hold that end a naive redaction early.
const JOINTS: &str = ",/@: '\";";
/// The same inside a double-quoted JAAS value.
const JAAS_JOINTS: &str = ",/@: ';";
/// The same inside URL userinfo.
const URL_JOINTS: &str = ",/@:;";

fn jaas(password: &str) -> String {
    format!(
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"{password}\";"
    )
}

fn is_jaas_key(key: &str) -> bool {
    key.to_ascii_lowercase().contains("jaas.con") || key.contains("jass")
}

/// `key<sep>value` for one canary under a secret-like key.
fn keyed_line(c: &mut Canaries, family: &str, key: &str, sep: &str) -> String {
    let shape = format!("{key} (separator {sep:?})");
    if is_jaas_key(key) {
        let secret = c.secret(family, &shape, JAAS_JOINTS);
        return format!("{key}{sep}{}", jaas(&secret));
    }
    let secret = c.secret(family, &shape, JOINTS);
    format!("{key}{sep}{secret}")
}

fn keyed_shapes(c: &mut Canaries, round: usize) -> Vec<Vec<String>> {
    let mut blocks = Vec::new();
    let groups: [(&str, &[&str]); 4] = [
        ("properties: known PASSWORD key", PASSWORD_KEYS),
        ("properties: misspelt secret key", MISSPELT_KEYS),
        ("properties: token key", TOKEN_KEYS),
        ("properties: unknown key", UNKNOWN_KEYS),
    ];
    for (family, keys) in groups {
        for (index, key) in keys.iter().enumerate() {
            let sep = SEPARATORS[(index + round) % SEPARATORS.len()];
            blocks.push(vec![keyed_line(c, family, key, sep)]);
        }
    }
    blocks
}

fn credential_in_value_shapes(c: &mut Canaries) -> Vec<Vec<String>> {
    let family = "properties: credential inside a non-secret value";
    let mut blocks = Vec::new();
    for (key, template) in [
        ("sasl.kerberos.service.name", "kafka password = \"{}\""),
        (
            "ssl.endpoint.identification.algorithm",
            "https secret = '{}'",
        ),
        ("sasl.login.class", "x.Login passwd=\"{}\""),
        ("client.id", "app token = {}"),
    ] {
        let secret = c.secret(family, &format!("{key}={template}"), JAAS_JOINTS);
        blocks.push(vec![format!("{key}={}", template.replace("{}", &secret))]);
    }
    let family = "properties: URL credentials";
    for (key, template) in [
        ("sasl.oauthbearer.token.endpoint.url", "http://user:{}@host"),
        (
            "sasl.oauthbearer.jwks.endpoint.url",
            "https://u:{}@h:8081/path",
        ),
        (
            "schema.registry.url",
            "http://user:{}@host,http://other:8081",
        ),
        (
            "confluent.metadata.server.urls",
            "https://mds:{}@mds.example.com:8090",
        ),
        ("listeners", "SASL_SSL://u:{}@broker:9093"),
    ] {
        let secret = c.secret(family, &format!("{key}={template}"), URL_JOINTS);
        blocks.push(vec![format!("{key}={}", template.replace("{}", &secret))]);
    }
    blocks
}

fn pem_shapes(c: &mut Canaries) -> Vec<Vec<String>> {
    let family = "properties: PEM block";
    let body = c.parts(family, "ssl.keystore.key continued with backslashes", 3);
    let continued = vec![
        "ssl.keystore.key=-----BEGIN ENCRYPTED PRIVATE KEY----- \\".to_string(),
        format!("  {} \\", body[0]),
        format!("  {}{} \\", body[1], body[2]),
        "  -----END ENCRYPTED PRIVATE KEY-----".to_string(),
    ];
    let one = c.secret(family, "unknown key, PEM on one line", "");
    let one_line = vec![format!(
        "my.tls.key=-----BEGIN PRIVATE KEY-----{one}-----END PRIVATE KEY-----"
    )];
    // Pasted without backslashes: each body line becomes a key of its own.
    let body = c.parts(family, "ssl.truststore.certificates without backslashes", 2);
    let pasted = vec![
        "ssl.truststore.certificates=-----BEGIN CERTIFICATE-----".to_string(),
        format!("{}+{}", body[0], body[1]),
        "-----END CERTIFICATE-----".to_string(),
    ];
    vec![continued, one_line, pasted]
}

fn comment_shapes(c: &mut Canaries) -> Vec<Vec<String>> {
    let family = "properties: commented-out secret";
    let mut blocks = Vec::new();
    for template in [
        "#ssl.keystore.password={}",
        "!ssl.key.password={}",
        "# sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"{}\";",
        "#ssl.keystore.password={}\\uZZ12",
        "#  user_alice=\"{}\";",
        "# bearer.auth.token={}",
        "#ssl.keystore.pasword={}",
        "# old password: {}",
        "#ssl.key.pass = {}",
    ] {
        let joints = if template.contains('"') {
            JAAS_JOINTS
        } else {
            JOINTS
        };
        let secret = c.secret(family, template, joints);
        blocks.push(vec![template.replace("{}", &secret)]);
    }
    let halves = c.parts(family, "a secret continued over two comment lines", 2);
    blocks.push(vec![
        format!("#ssl.key.password={}\\", halves[0]),
        format!("#    {}", halves[1]),
    ]);
    let halves = c.parts(family, "a JAAS value continued over comment lines", 2);
    blocks.push(vec![
        "#listener.name.x.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\".into(),
        format!("#    username=\"admin\" password=\"{}\" \\", halves[0]),
        format!("#    user_bob=\"{}\";", halves[1]),
    ]);
    blocks
}

fn continuation_shapes(c: &mut Canaries) -> Vec<Vec<String>> {
    let family = "properties: continuation lines";
    let mut blocks = Vec::new();
    for key in [
        "listener.name.sasl_ssl.plain.sasl.jaas.config",
        "sasl.jaas.config",
    ] {
        let p = c.parts(family, &format!("{key} continued with backslashes"), 3);
        blocks.push(vec![
            format!("{key}=org.apache.kafka.common.security.plain.PlainLoginModule required \\"),
            "    username=\"admin\" \\".into(),
            format!("    password=\"{}\" \\", p[0]),
            format!("    user_admin=\"{}\" \\", p[1]),
            format!("    user_alice=\"{}\";", p[2]),
        ]);
    }
    let p = c.parts(family, "JAAS whose continuation backslash is missing", 2);
    blocks.push(vec![
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \\"
            .into(),
        format!("    username=\"admin\" password=\"{}\"", p[0]),
        format!("    user_alice=\"{}\";", p[1]),
    ]);
    for key in ["ssl.keystore.password", "ssl.key.passwrod", "custom.thing"] {
        let p = c.parts(family, &format!("{key} value continued"), 2);
        blocks.push(vec![format!("{key}={}\\", p[0]), format!("    {}", p[1])]);
    }
    blocks
}

fn properties_shapes(c: &mut Canaries, round: usize) -> Vec<Vec<String>> {
    let mut blocks = keyed_shapes(c, round);
    blocks.extend(credential_in_value_shapes(c));
    blocks.extend(pem_shapes(c));
    blocks.extend(comment_shapes(c));
    blocks.extend(continuation_shapes(c));
    blocks
}

/// `blocks` each between two lines that draw a finding (`anchor`), so every block line is in a
/// snippet's context or a `--diff` hunk.
fn interleave(head: &str, blocks: &[Vec<String>], anchor: &str) -> String {
    let mut text = String::from(head);
    text.push_str(anchor);
    text.push('\n');
    for block in blocks {
        for line in block {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str(anchor);
        text.push('\n');
    }
    text
}

/// A ZooKeeper broker of the seed shape: the single-broker replication factors on 3 brokers,
/// logs in /tmp; `num.io.threads=8` repeated exactly (a fixed duplicate) is the anchor.
fn broker_file(c: &mut Canaries, id: usize, rounds: usize) -> String {
    let head = format!(
        "broker.id={id}\nlisteners=PLAINTEXT://localhost:909{id}\nlog.dirs=/tmp/kafka-logs-{id}\n\
         zookeeper.connect=localhost:2181\noffsets.topic.replication.factor=1\n\
         transaction.state.log.replication.factor=1\ntransaction.state.log.min.isr=1\n"
    );
    let blocks: Vec<Vec<String>> = (0..rounds)
        .flat_map(|round| properties_shapes(c, round + id))
        .collect();
    interleave(&head, &blocks, "num.io.threads=8")
}

/// A distributed Connect worker whose config topic has one replica, with token keys beside it.
fn connect_file(c: &mut Canaries) -> String {
    let family = "properties: Connect worker";
    let head = "bootstrap.servers=localhost:9090\ngroup.id=connect-cluster\n\
                config.storage.topic=connect-configs\noffset.storage.topic=connect-offsets\n\
                status.storage.topic=connect-status\nconfig.providers=vault,secrets\n";
    let mut blocks = Vec::new();
    for (index, key) in TOKEN_KEYS
        .iter()
        .chain(&[
            "sasl.jaas.config",
            "consumer.ssl.key.passwrod",
            "producer.bearer.auth.token",
        ])
        .enumerate()
    {
        let sep = SEPARATORS[index % SEPARATORS.len()];
        blocks.push(vec![keyed_line(c, family, key, sep)]);
    }
    let secret = c.secret(family, "# config.providers...token comment", JOINTS);
    blocks.push(vec![format!(
        "#config.providers.vault.param.vault.token={secret}"
    )]);
    interleave(head, &blocks, "config.storage.replication.factor=1")
}

// ---------------------------------------------------------------------------------------------
// docker-compose shapes

/// Environment entries of a compose Kafka service, map form: `(lines)` per shape.
fn compose_map_shapes(c: &mut Canaries, prefix: &str) -> Vec<Vec<String>> {
    let family = "compose: environment map";
    let mut blocks = Vec::new();
    let keyed = [
        ("SSL_KEYSTORE_PASSWORD", "{}"),
        ("SSL_KEY_PASSWORD", "\"{}\""),
        ("SSL_TRUSTSTORE_PASSWORD", "'{}'"),
        ("SSL_KEYSTORE_PASWORD", "{}"),
        ("SSL_KEY_PW", "{}"),
        ("SSL_KEY_PASS", "\"{}\""),
        ("SSL_TRUSTSTORE_PWD", "{}"),
        ("BEARER_AUTH_TOKEN", "{}"),
        ("CONFLUENT_METADATA_BEARER_AUTH_TOKEN", "{}"),
        ("CONFIG_PROVIDERS_VAULT_PARAM_VAULT_TOKEN", "{}"),
        ("CUSTOM_THING", "{}"),
        ("SASL_KERBEROS_SERVICE_NAME", "'kafka password = \"{}\"'"),
        (
            "SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL",
            "\"https://u:{}@h:8081/path\"",
        ),
        ("SASL_JAAS_CONFIG", "'{jaas}'"),
        ("LISTENER_NAME_INTERNAL_PLAIN_SASL_JAAS_CONFIG", "{jaas}"),
    ];
    for (name, template) in keyed {
        let key = format!("{prefix}{name}");
        let secret = c.secret(family, &format!("{key}: {template}"), ",/@;");
        let value = template
            .replace("{jaas}", &jaas(&secret))
            .replace("{}", &secret);
        blocks.push(vec![format!("      {key}: {value}")]);
    }
    let family = "compose: block scalar";
    let p = c.parts(family, "SASL_JAAS_CONFIG literal block |", 2);
    blocks.push(vec![
        format!("      {prefix}LISTENER_NAME_EXTERNAL_PLAIN_SASL_JAAS_CONFIG: |"),
        "        org.apache.kafka.common.security.plain.PlainLoginModule required".into(),
        format!("        username=\"admin\" password=\"{}\"", p[0]),
        format!("        user_alice=\"{}\";", p[1]),
    ]);
    let p = c.parts(family, "SSL_KEYSTORE_KEY folded block >-", 2);
    blocks.push(vec![
        format!("      {prefix}SSL_KEYSTORE_KEY: >-"),
        "        -----BEGIN PRIVATE KEY-----".into(),
        format!("        {}", p[0]),
        format!("        {}", p[1]),
        "        -----END PRIVATE KEY-----".into(),
    ]);
    blocks.extend(yaml_comment_shapes(c, prefix, "      "));
    blocks
}

fn yaml_comment_shapes(c: &mut Canaries, prefix: &str, indent: &str) -> Vec<Vec<String>> {
    let family = "compose: YAML comment";
    let mut blocks = Vec::new();
    for template in [
        "# {p}SSL_KEY_PASSWORD: {}",
        "#- {p}SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"{}\";",
        "#{p}SSL_KEYSTORE_PASWORD={}",
        "# the old password was {}",
    ] {
        let shape = template.replace("{p}", prefix);
        let secret = c.secret(family, &shape, ",/@:;");
        blocks.push(vec![format!("{indent}{}", shape.replace("{}", &secret))]);
    }
    blocks
}

fn compose_list_shapes(c: &mut Canaries) -> Vec<Vec<String>> {
    let family = "compose: environment list";
    let mut blocks = Vec::new();
    for template in [
        "- KAFKA_SSL_KEYSTORE_PASWORD={}",
        "- \"KAFKA_SSL_KEY_PW={}\"",
        "- 'KAFKA_SSL_KEY_PASSWORD={}'",
        "- KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"a\" password=\"{}\";",
        "- KAFKA_BEARER_AUTH_TOKEN={}",
        "- KAFKA_SCHEMA_REGISTRY_URL=http://user:{}@host",
        "- KAFKA_CUSTOM_THING={}",
    ] {
        let secret = c.secret(family, template, ",/@:;");
        blocks.push(vec![format!("      {}", template.replace("{}", &secret))]);
    }
    blocks.extend(yaml_comment_shapes(c, "KAFKA_", "      "));
    blocks
}

/// Integer broker keys: set to a word (invalid-value) or misspelt by a trailing `x`
/// (unknown-key), each draws a finding on its line in YAML, where a key cannot repeat.
const ANCHOR_KEYS: &[&str] = &[
    "num.io.threads",
    "num.network.threads",
    "num.partitions",
    "num.recovery.threads.per.data.dir",
    "log.retention.hours",
    "log.segment.bytes",
    "socket.send.buffer.bytes",
    "socket.receive.buffer.bytes",
    "socket.request.max.bytes",
    "log.retention.check.interval.ms",
    "message.max.bytes",
    "replica.fetch.max.bytes",
    "num.replica.fetchers",
    "background.threads",
    "queued.max.requests",
    "log.cleaner.threads",
    "log.roll.hours",
    "replica.lag.time.max.ms",
];

/// The `n`th YAML anchor: a broker key and a value that draw a finding.
fn yaml_anchor(n: usize) -> (String, &'static str) {
    let key = ANCHOR_KEYS[n / 2];
    if n.is_multiple_of(2) {
        (key.to_string(), "notanumber")
    } else {
        (format!("{key}x"), "1")
    }
}

fn env_name(prefix: &str, key: &str) -> String {
    format!("{prefix}{}", key.to_ascii_uppercase().replace('.', "_"))
}

/// Lines of one compose service: `head` then the shapes, each between unknown-key anchors,
/// the fixable replication factor in the middle so `--diff` hunks hold shapes too.
fn compose_env(
    head: &[String],
    blocks: &[Vec<String>],
    anchor: &dyn Fn(usize) -> String,
) -> String {
    let mut lines: Vec<String> = head.to_vec();
    let middle = blocks.len() / 2;
    for (index, block) in blocks.iter().enumerate() {
        lines.push(anchor(index));
        if index == middle {
            lines.push("__FIXABLE__".into());
        }
        lines.extend(block.iter().cloned());
    }
    lines.push(anchor(blocks.len()));
    lines.join("\n") + "\n"
}

fn compose_file(c: &mut Canaries) -> String {
    let anchors = "compose: YAML anchor and merge";
    let merged = c.secret(
        anchors,
        "KAFKA_SSL_KEY_PASSWORD in a merged &secrets map",
        ",/@;",
    );
    let merged_typo = c.secret(
        anchors,
        "KAFKA_SSL_KEYSTORE_PASWORD in a merged map",
        ",/@;",
    );
    let scalar = c.secret(anchors, "&pw anchor on a secret scalar, *pw alias", ",/@;");
    let mut text = format!(
        "x-kafka: &kafka\n  image: confluentinc/cp-kafka:7.5.0\n\
         x-secrets: &secrets\n  KAFKA_SSL_KEY_PASSWORD: {merged}\n  KAFKA_SSL_KEYSTORE_PASWORD: {merged_typo}\n\
         services:\n"
    );
    for id in 1..=2 {
        let head = vec![
            format!("  kafka-{id}:"),
            "    <<: *kafka".into(),
            "    environment:".into(),
            "      <<: *secrets".into(),
            format!("      KAFKA_BROKER_ID: {id}"),
            "      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181".into(),
            format!("      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka-{id}:9092"),
        ];
        let mut blocks = compose_map_shapes(c, "KAFKA_");
        if id == 1 {
            blocks.push(vec![format!(
                "      KAFKA_SSL_TRUSTSTORE_PASWORD: &pw {scalar}"
            )]);
        } else {
            blocks.push(vec!["      KAFKA_SSL_TRUSTSTORE_PASWORD: *pw".into()]);
        }
        let env = compose_env(&head, &blocks, &|n| {
            let (key, value) = yaml_anchor(n);
            format!("      {}: {value}", env_name("KAFKA_", &key))
        });
        text.push_str(&env.replace(
            "__FIXABLE__",
            "      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1",
        ));
    }
    let head = vec![
        "  kafka-3:".into(),
        "    <<: *kafka".into(),
        "    environment:".into(),
        "      - KAFKA_BROKER_ID=3".into(),
        "      - KAFKA_ZOOKEEPER_CONNECT=zookeeper:2181".into(),
        "      - KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://kafka-3:9092".into(),
    ];
    let env = compose_env(&head, &compose_list_shapes(c), &|n| {
        let (key, value) = yaml_anchor(n);
        format!("      - {}={value}", env_name("KAFKA_", &key))
    });
    text.push_str(&env.replace(
        "__FIXABLE__",
        "      - KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1",
    ));
    text.push_str(&flow_services(c));
    text.push_str(ENV_FILE_SERVICE);
    text.push_str(&connect_service(c));
    text.push_str(&other_services(c));
    text
}

fn flow_services(c: &mut Canaries) -> String {
    let family = "compose: flow form";
    let map = c.secret(
        family,
        "environment: {KAFKA_SSL_KEY_PASSWORD: \"...\"}",
        ",/@;",
    );
    let typo = c.secret(family, "environment: {KAFKA_SSL_KEY_PW: ...}", "/@;");
    let list = c.secret(
        family,
        "environment: [\"KAFKA_SSL_KEYSTORE_PASWORD=...\"]",
        ",/@;",
    );
    format!(
        "  kafka-4:\n    image: confluentinc/cp-kafka:7.5.0\n    environment: {{KAFKA_BROKER_ID: 4, KAFKA_ZOOKEEPER_CONNECT: \"zookeeper:2181\", KAFKA_SSL_KEY_PASSWORD: \"{map}\", KAFKA_SSL_KEY_PW: {typo}, KAFKA_LEAK_FLOW: 1}}\n\
         \x20 kafka-5:\n    image: confluentinc/cp-kafka:7.5.0\n    environment: [KAFKA_BROKER_ID=5, \"KAFKA_ZOOKEEPER_CONNECT=zookeeper:2181\", \"KAFKA_SSL_KEYSTORE_PASWORD={list}\", KAFKA_LEAK_FLOW=1]\n"
    )
}

fn connect_service(c: &mut Canaries) -> String {
    let head = vec![
        "  connect:".into(),
        "    image: confluentinc/cp-kafka-connect:7.5.0".into(),
        "    environment:".into(),
        "      CONNECT_BOOTSTRAP_SERVERS: kafka-1:9092".into(),
        "      CONNECT_GROUP_ID: compose-connect-group".into(),
        "      CONNECT_CONFIG_STORAGE_TOPIC: docker-connect-configs".into(),
        "      CONNECT_OFFSET_STORAGE_TOPIC: docker-connect-offsets".into(),
        "      CONNECT_STATUS_STORAGE_TOPIC: docker-connect-status".into(),
    ];
    // A worker draws findings only on its topics' replication factors: four shapes around them.
    let family = "compose: Connect worker environment";
    let mut lines = head;
    for (name, anchor) in [
        ("CONFIG_PROVIDERS_VAULT_PARAM_VAULT_TOKEN", "CONFIG"),
        ("SSL_KEYSTORE_PASWORD", "OFFSET"),
        ("CUSTOM_THING", "STATUS"),
    ] {
        let secret = c.secret(family, &format!("CONNECT_{name}"), ",/@;");
        lines.push(format!("      CONNECT_{name}: {secret}"));
        lines.push(format!(
            "      CONNECT_{anchor}_STORAGE_REPLICATION_FACTOR: 1"
        ));
    }
    let secret = c.secret(family, "# CONNECT_SASL_JAAS_CONFIG comment", ",/@;");
    lines.insert(
        lines.len() - 1,
        format!("      # CONNECT_SASL_JAAS_CONFIG: {}", jaas(&secret)),
    );
    lines.join("\n") + "\n"
}

fn other_services(c: &mut Canaries) -> String {
    let family = "compose: another service's environment";
    let flow = c.secret(
        family,
        "db: {environment: {POSTGRES_PASSWORD: ...}} flow",
        ",/@;",
    );
    let map = c.secret(family, "POSTGRES_PASSWORD map", ",/@;");
    let list = c.secret(family, "- MYSQL_ROOT_PASSWORD= list", ",/@;");
    let token = c.secret(family, "GITHUB_TOKEN map", ",/@;");
    format!(
        "  db-flow: {{image: postgres, environment: {{POSTGRES_PASSWORD: \"{flow}\"}}}}\n\
         \x20 db:\n    image: postgres\n    environment:\n      POSTGRES_PASSWORD: {map}\n      GITHUB_TOKEN: {token}\n\
         \x20 mysql:\n    image: mysql\n    environment:\n      - MYSQL_ROOT_PASSWORD={list}\n\
         \x20 zookeeper:\n    image: confluentinc/cp-zookeeper:7.5.0\n    environment:\n      ZOOKEEPER_CLIENT_PORT: 2181\n"
    )
}

/// A broker whose secrets come through the project's `.env` and its env files (one that
/// Compose refuses, one secret on a line that cannot be read): kafkalint reads them all.
const ENV_FILE_SERVICE: &str = "  kafka-6:
    image: confluentinc/cp-kafka:7.5.0
    env_file:
      - kafka-6.env
      - path: broken.env
    environment:
      KAFKA_BROKER_ID: 6
      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181
      KAFKA_SSL_TRUSTSTORE_PASSWORD: ${TRUSTSTORE_SECRET}
      KAFKA_SSL_KEY_PASSWORD: \"${KEY_SECRET:-fallback}\"
      KAFKA_LEAK_DOTENV: ${LEAK_VALUE}
";

fn dot_env_file(c: &mut Canaries) -> String {
    let family = "compose: .env file";
    let a = c.secret(family, "KAFKA_SSL_KEY_PASSWORD=", ",/@;");
    let b = c.secret(family, "POSTGRES_PASSWORD=", ",/@;");
    let truststore = c.secret(
        family,
        "TRUSTSTORE_SECRET= for ${TRUSTSTORE_SECRET}",
        ",/@;",
    );
    let key = c.secret(
        family,
        "export KEY_SECRET=\"...\" for ${KEY_SECRET:-...}",
        ",/@;",
    );
    let other = c.secret(family, "LEAK_VALUE= for an unknown key", ",/@;");
    format!(
        "KAFKA_SSL_KEY_PASSWORD={a}\nPOSTGRES_PASSWORD={b}\nTRUSTSTORE_SECRET={truststore}\nexport KEY_SECRET=\"{key}\"\nLEAK_VALUE={other} # a comment\n"
    )
}

/// A service's env file: secrets as people keep them there.
fn service_env_file(c: &mut Canaries) -> String {
    let family = "compose: env_file";
    let keystore = c.secret(
        family,
        "KAFKA_SSL_KEYSTORE_PASSWORD= in an env file",
        ",/@;",
    );
    let jaas_secret = c.secret(family, "KAFKA_SASL_JAAS_CONFIG= in an env file", ",/@;");
    let typo = c.secret(family, "KAFKA_SSL_KEYSTORE_PASWORD= in an env file", ",/@;");
    let quoted = c.secret(
        family,
        "KAFKA_SSL_KEY_PASSWORD='...' in an env file",
        ",/@;",
    );
    format!(
        "KAFKA_SSL_KEYSTORE_PASSWORD={keystore}\nKAFKA_SASL_JAAS_CONFIG={}\nKAFKA_SSL_KEYSTORE_PASWORD={typo}\nKAFKA_SSL_KEY_PASSWORD='{quoted}'\n",
        jaas(&jaas_secret)
    )
}

/// An env file Compose refuses, a secret on the line it stops at.
fn broken_env_file(c: &mut Canaries) -> String {
    let family = "compose: env_file Compose refuses";
    let secret = c.secret(family, "PASS word=... (a space in the name)", ",/@;");
    format!("KAFKA_NUM_PARTITIONS=3\nPASS word={secret}\n")
}

// ---------------------------------------------------------------------------------------------
// Strimzi shapes

fn strimzi_file(c: &mut Canaries) -> String {
    let family = "strimzi: spec.kafka.config";
    let mut blocks = Vec::new();
    for (index, key) in MISSPELT_KEYS
        .iter()
        .chain(TOKEN_KEYS)
        .chain(UNKNOWN_KEYS)
        .chain(&["ssl.keystore.password", "sasl.jaas.config"])
        .enumerate()
    {
        let quote = match ["", "\"", "'"][index % 3] {
            // A JAAS value holds double quotes.
            "\"" if is_jaas_key(key) => "'",
            quote => quote,
        };
        let shape = format!("{key}: {quote}...{quote}");
        let joints = if quote.is_empty() { ",/@;" } else { ",/@:;" };
        let value = if is_jaas_key(key) {
            jaas(&c.secret(family, &shape, joints))
        } else {
            c.secret(family, &shape, joints)
        };
        blocks.push(vec![format!("      {key}: {quote}{value}{quote}")]);
    }
    let family = "strimzi: comment";
    for template in [
        "      # ssl.keystore.password: {}",
        "      #ssl.keystore.pasword: {}",
        "      # sasl.jaas.config: org.apache.kafka.common.security.plain.PlainLoginModule required password=\"{}\";",
    ] {
        let secret = c.secret(family, template.trim(), ",/@;");
        blocks.push(vec![template.replace("{}", &secret)]);
    }
    let p = c.parts("strimzi: block scalar", "sasl.jaas.config: |", 2);
    blocks.push(vec![
        "      listener.name.tls.plain.sasl.jaas.config: |".into(),
        "        org.apache.kafka.common.security.plain.PlainLoginModule required".into(),
        format!("        password=\"{}\" user_alice=\"{}\";", p[0], p[1]),
    ]);
    let head = [
        "apiVersion: kafka.strimzi.io/v1beta2",
        "kind: Kafka",
        "metadata:",
        "  name: my-cluster",
        "spec:",
        "  kafka:",
        "    replicas: 3",
        "    listeners:",
        "      - name: tls",
        "        port: 9093",
        "        type: internal",
        "        tls: true",
        "    config:",
    ]
    .map(String::from);
    let text = compose_env(&head, &blocks, &|n| {
        let (key, value) = yaml_anchor(n);
        format!("      {key}: {value}")
    });
    text.replace("__FIXABLE__", "      offsets.topic.replication.factor: 1")
}

// ---------------------------------------------------------------------------------------------
// Kubernetes shapes

/// A file of Kubernetes manifests: a ConfigMap whose `data` holds the compose map shapes (the
/// StatefulSet takes it with `envFrom`), and a StatefulSet whose `env` list and start-up
/// script hold secrets.
fn kubernetes_file(c: &mut Canaries) -> String {
    let data: Vec<Vec<String>> = compose_map_shapes(c, "KAFKA_")
        .into_iter()
        .map(|block| {
            block
                .into_iter()
                .map(|line| line.strip_prefix("    ").map(String::from).unwrap_or(line))
                .collect()
        })
        .collect();
    let head = [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: kafka-env",
        "data:",
    ]
    .map(String::from);
    let config_map = compose_env(&head, &data, &|n| {
        let (key, value) = yaml_anchor(n);
        format!("  {}: \"{value}\"", env_name("KAFKA_", &key))
    })
    .replace("__FIXABLE__", "  KAFKA_DEFAULT_REPLICATION_FACTOR: \"1\"");
    let family = "kubernetes: env list";
    let mut env = Vec::new();
    for (name, template) in [
        ("KAFKA_SSL_KEYSTORE_PASSWORD", "{}"),
        ("KAFKA_SSL_KEY_PASWORD", "\"{}\""),
        ("KAFKA_SASL_JAAS_CONFIG", "'{jaas}'"),
        ("KAFKA_CUSTOM_TOKEN", "{}"),
    ] {
        let secret = c.secret(
            family,
            &format!("- name: {name} / value: {template}"),
            ",/@;",
        );
        let value = template
            .replace("{jaas}", &jaas(&secret))
            .replace("{}", &secret);
        env.push(format!(
            "            - name: {name}\n              value: {value}"
        ));
    }
    let script = c.secret(
        "kubernetes: start-up script",
        "export KAFKA_SSL_TRUSTSTORE_PASSWORD=... in sh -c",
        ",/@:",
    );
    let curl = c.secret(
        "kubernetes: start-up script",
        "curl -u admin:... in sh -c",
        ",/@",
    );
    let statefulset = format!(
        "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          command:\n            - sh\n            - -c\n            - |\n              export KAFKA_BROKER_ID=${{HOSTNAME##*-}}\n              export KAFKA_SSL_TRUSTSTORE_PASSWORD={script}\n              curl -fsS -u admin:{curl} http://registry:8081/subjects\n              exec /etc/confluent/docker/run\n          envFrom:\n            - configMapRef:\n                name: kafka-env\n          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n            - name: KAFKA_ADVERTISED_LISTENERS\n              value: PLAINTEXT://kafka:9092\n            - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR\n              value: \"1\"\n{}\n",
        env.join("\n")
    );
    format!("{config_map}---\n{statefulset}")
}

/// An apache/kafka StatefulSet that starts from a ConfigMap's `server.properties` (a whole broker
/// file of shapes, as a literal block) mounted at `/mnt/shared/config`.
fn kubernetes_mounted_file(c: &mut Canaries) -> String {
    let properties: String = broker_file(c, 0, 1)
        .lines()
        .map(|line| format!("    {line}\n"))
        .collect();
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: broker-config\ndata:\n  server.properties: |\n{properties}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: broker\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: apache/kafka:3.9.1\n          volumeMounts:\n            - name: config\n              mountPath: /mnt/shared/config\n      volumes:\n        - name: config\n          configMap:\n            name: broker-config\n"
    )
}

/// Values of the bitnami/kafka chart (line 31): its SASL passwords, `extraConfig` and
/// `secretConfig` texts, and variables.
fn helm_values_file(c: &mut Canaries) -> String {
    let family = "helm values";
    let client = c.secret(family, "sasl.client.passwords: ...", ",/@:");
    let inter = c.secret(family, "sasl.interbroker.password: \"...\"", ",/@:");
    let keystore = c.secret(family, "extraConfig: ssl.keystore.password=...", JOINTS);
    let jaas_password = c.secret(
        family,
        "extraConfig: ...jaas.config=... password=\"...\"",
        ",/@:",
    );
    let misspelt = c.secret(family, "extraConfig: ssl.keystore.pasword=...", JOINTS);
    let secret_config = c.secret(family, "secretConfig: ssl.key.password=...", JOINTS);
    let env = c.secret(
        family,
        "extraEnvVars KAFKA_CFG_SSL_TRUSTSTORE_PASSWORD value",
        ",/@:",
    );
    format!(
        "image:\n  repository: bitnami/kafka\n  tag: 3.9.0-debian-12-r1\ncontroller:\n  replicaCount: 3\nsasl:\n  client:\n    passwords: {client}\n  interbroker:\n    password: \"{inter}\"\nextraConfig: |\n  offsets.topic.replication.factor=1\n  ssl.keystore.password={keystore}\n  listener.name.client.plain.sasl.jaas.config={}\n  ssl.keystore.pasword={misspelt}\nsecretConfig: |\n  ssl.key.password={secret_config}\nextraEnvVars:\n  - name: KAFKA_CFG_SSL_TRUSTSTORE_PASSWORD\n    value: {env}\n",
        jaas(&jaas_password)
    )
}

/// A cp-ansible inventory: passwords in its variables, secrets in custom properties.
fn inventory_file(c: &mut Canaries) -> String {
    let family = "cp-ansible inventory";
    let store = c.secret(family, "ssl_keystore_store_password: ...", ",/@:");
    let admin = c.secret(family, "sasl_plain_users admin password", ",/@:");
    let keystore = c.secret(
        family,
        "kafka_broker_custom_properties ssl.keystore.password",
        ",/@:",
    );
    let jaas_password = c.secret(
        family,
        "custom properties ...jaas.config password=\"...\"",
        ",/@:",
    );
    let misspelt = c.secret(family, "custom properties ssl.keystore.pasword", ",/@:");
    format!(
        "all:\n  vars:\n    ssl_enabled: true\n    ssl_keystore_store_password: \"{store}\"\n    sasl_plain_users:\n      admin:\n        principal: admin\n        password: {admin}\nkafka_broker:\n  vars:\n    kafka_broker_custom_properties:\n      offsets.topic.replication.factor: 1\n      ssl.keystore.password: \"{keystore}\"\n      listener.name.internal.plain.sasl.jaas.config: '{}'\n      ssl.keystore.pasword: {misspelt}\n  hosts:\n    kafka1.example.internal:\n    kafka2.example.internal:\n    kafka3.example.internal:\n",
        jaas(&jaas_password)
    )
}

/// A Terraform file: a bitnami/kafka release (values heredoc, `set`, `set_sensitive`, a
/// variable's default) and a Strimzi `Kafka` manifest, with secrets in each and in comments.
fn terraform_files(c: &mut Canaries) -> (String, String) {
    let family = "terraform";
    let heredoc = c.secret(family, "values heredoc sasl.client.passwords", ",/@:");
    let extra = c.secret(
        family,
        "values heredoc extraConfig ssl.key.password=",
        JOINTS,
    );
    let set = c.secret(family, "set sasl.interbroker.password", ",/@:");
    let sensitive = c.secret(family, "set_sensitive value", ",/@:");
    let default = c.secret(family, "variable default of a set value", ",/@:");
    let token = c.secret(family, "provider token", ",/@:");
    let comment = c.secret(family, "// comment password=", ",/@:");
    let hash_comment = c.secret(family, "# comment ssl.keystore.password=", ",/@:");
    let block_comment = c.secret(family, "/* comment */", ",/@:");
    let manifest = c.secret(family, "manifest config ssl.keystore.password", ",/@:");
    let call = c.secret(family, "base64encode(\"...\") in a manifest", ",/@:");
    let local = c.secret(family, "locals { kafka_password = ... }", ",/@:");
    let default_here = c.secret(family, "variable default in the file", ",/@:");
    let indexed = c.secret(family, "set = [{ name = \"x[0]\", value = ... }]", ",/@:");
    let bailed_values = c.secret(family, "values heredoc of a release not read", ",/@:");
    let bailed_sensitive = c.secret(family, "set_sensitive of a release not read", ",/@:");
    let others = format!(
        "locals {{\n  kafka_password = \"{local}\"\n}}\nvariable \"admin_password\" {{\n  default = \"{default_here}\"\n}}\nresource \"helm_release\" \"other\" {{\n  repository = \"https://charts.bitnami.com/bitnami\"\n  chart = \"kafka\"\n  version = \"22.1.6\"\n  values = [<<-EOF\n    replicaCount: ${{var.count}}\n    auth:\n      interBrokerPassword: {bailed_values}\n    EOF\n  ]\n  set_sensitive = [{{ name = \"auth.password\", value = \"{bailed_sensitive}\" }}]\n}}\n"
    );
    let main = format!(
        "{others}provider \"helm\" {{\n  kubernetes {{\n    token = \"{token}\"\n  }}\n}}\n\n// password={comment}\n# ssl.keystore.password={hash_comment}\n/* {block_comment} */\nresource \"helm_release\" \"kafka\" {{\n  repository = \"https://charts.bitnami.com/bitnami\"\n  chart      = \"kafka\"\n  version    = \"22.1.6\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    auth:\n      sasl:\n        jaas:\n          clientPasswords: [{heredoc}]\n    extraConfig: |\n      offsets.topic.replication.factor=1\n      ssl.key.password={extra}\n    EOF\n  ]\n  set {{\n    name  = \"sasl.interbroker.password\"\n    value = \"{set}\"\n  }}\n  set_sensitive {{\n    name  = \"auth.tls.password\"\n    value = \"{sensitive}\"\n  }}\n  set {{\n    name  = \"sasl.client.passwords\"\n    value = var.client_password\n  }}\n  set_list = [{{ name = \"extraEnvVars[0].value\", value = \"{indexed}\" }}]\n}}\n\nresource \"kubernetes_manifest\" \"kafka\" {{\n  manifest = {{\n    apiVersion = \"kafka.strimzi.io/v1beta2\"\n    kind       = \"Kafka\"\n    metadata   = {{ name = \"events\" }}\n    spec = {{\n      kafka = {{\n        replicas = 3\n        listeners = [{{ name = \"plain\", port = 9092, tls = false, type = \"internal\" }}]\n        config = {{\n          \"offsets.topic.replication.factor\" = 1\n          \"ssl.keystore.password\" = \"{manifest}\"\n          \"ssl.truststore.location\" = base64encode(\"{call}\")\n        }}\n        storage = {{ type = \"ephemeral\" }}\n      }}\n      zookeeper = {{\n        replicas = 3\n        storage = {{ type = \"ephemeral\" }}\n      }}\n    }}\n  }}\n}}\n"
    );
    let variables = format!(
        "variable \"client_password\" {{\n  type    = string\n  default = \"{default}\"\n}}\n"
    );
    (main, variables)
}

/// An Ansible role's template, with the playbook, inventory and variables it is rendered
/// with: secrets written in the template, in a statement, in a comment, in `group_vars` (named
/// by the template), and in the inventory's host variables.
fn ansible_role_files(c: &mut Canaries) -> Vec<(&'static str, String)> {
    let family = "ansible role";
    let literal = c.secret(family, "template ssl.keystore.password=...", JOINTS);
    let statement = c.secret(family, "template {% set password = '...' %}", ",/@:");
    let comment = c.secret(family, "template # password ...", ",/@:");
    let group_var = c.secret(
        family,
        "group_vars kafka_key_password, named by the template",
        ",/@:",
    );
    let host_var = c.secret(family, "inventory ansible_password=...", ",/@:");
    let jaas_password = c.secret(family, "template ...jaas.config password=\"...\"", ",/@:");
    let loop_secret = c.secret(
        family,
        "template {% for %} over a literal with a secret",
        ",/@:",
    );
    vec![
        (
            "tree/ansible/site.yml",
            "- hosts: kafka\n  roles:\n    - kafka\n".to_string(),
        ),
        (
            "tree/ansible/hosts.ini",
            format!(
                "[kafka]\nk1 node_id=1 ansible_password={host_var}\nk2 node_id=2\nk3 node_id=3\n"
            ),
        ),
        (
            "tree/ansible/group_vars/all.yml",
            format!("kafka_key_password: \"{group_var}\"\nkafka_rf: 1\n"),
        ),
        (
            "tree/ansible/roles/kafka/templates/server.properties.j2",
            format!(
                "# password {comment}\nbroker.id={{{{ node_id }}}}\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor={{{{ kafka_rf }}}}\n{{% set password = '{statement}' %}}\nssl.keystore.password={literal}\nssl.key.password={{{{ kafka_key_password }}}}\nlistener.name.internal.plain.sasl.jaas.config={}\n{{% for k, v in {{'ssl.key.password': '{loop_secret}'}}.items() %}}\n{{{{ k }}}}={{{{ v }}}}\n{{% endfor %}}\n",
                jaas(&jaas_password)
            ),
        ),
    ]
}

fn kubernetes_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("kubernetes");
    case.file("tree/broker.yaml", kubernetes_mounted_file(c));
    case.file("tree/kafka-values.yaml", helm_values_file(c));
    case.file("tree/inventory/hosts.yml", inventory_file(c));
    case.named.push("tree/inventory/hosts.yml".into());
    case.stdin.push("tree/inventory/hosts.yml".into());
    case.named.push("tree/kafka-values.yaml".into());
    case.stdin.push("tree/kafka-values.yaml".into());
    case.named.push("tree/broker.yaml".into());
    case.stdin.push("tree/broker.yaml".into());
    let (main, variables) = terraform_files(c);
    case.file("tree/terraform/main.tf", main);
    case.file("tree/terraform/variables.tf", variables);
    case.named.push("tree/terraform/main.tf".into());
    case.stdin.push("tree/terraform/main.tf".into());
    for (path, text) in ansible_role_files(c) {
        case.file(path, text);
    }
    case.named
        .push("tree/ansible/roles/kafka/templates/server.properties.j2".into());
    case.stdin
        .push("tree/ansible/roles/kafka/templates/server.properties.j2".into());
    case.file("tree/kafka.yaml", kubernetes_file(c));
    case.named.push("tree/kafka.yaml".into());
    case.stdin.push("tree/kafka.yaml".into());
    case.must_show = [
        "KAFKA_SSL_KEYSTORE_PASWORD",
        "KAFKA_SSL_KEY_PASWORD",
        "ssl.keystore.pasword",
        // The Terraform file's findings, so that its snippets are drawn.
        "main.tf:",
        "Kafka `events`",
        // The role template's.
        "server.properties.j2:",
    ]
    .map(String::from)
    .to_vec();
    case
}

// ---------------------------------------------------------------------------------------------
// Cases and runs

/// A tree to check: files under `tree/`, link targets under `outside/`.
struct Case {
    name: String,
    files: Vec<(String, String)>,
    links: Vec<(String, String)>,
    /// Paths under the case's root (`tree/server-0.properties`) for `--with-cluster`.
    named: Vec<String>,
    /// Paths whose contents go through `--stdin-filename`.
    stdin: Vec<String>,
    /// Only the error paths: a broken `kafkalint.toml`.
    config_only: Option<String>,
    /// Text the case's `full` output must show, or the case does not test what it claims.
    must_show: Vec<String>,
}

impl Case {
    fn new(name: &str) -> Self {
        Case {
            name: name.into(),
            files: Vec::new(),
            links: Vec::new(),
            named: Vec::new(),
            stdin: Vec::new(),
            config_only: None,
            must_show: Vec::new(),
        }
    }

    fn text(&self, path: &str) -> &str {
        let (_, text) = self.files.iter().find(|(p, _)| p == path).unwrap();
        text
    }

    fn file(&mut self, path: &str, text: String) {
        self.files.push((path.into(), text));
    }

    fn write(&self, root: &Path) {
        for (path, text) in &self.files {
            let path = root.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        for (link, target) in &self.links {
            let link = root.join(link);
            fs::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(target, link).unwrap();
        }
    }
}

fn seed_brokers(case: &mut Case) {
    for id in 0..3 {
        case.file(
            &format!("tree/server-{id}.properties"),
            format!(
                "broker.id={id}\nzookeeper.connect=localhost:2181\nlog.dirs=/tmp/kafka-logs-{id}\n\
                 offsets.topic.replication.factor=1\nnum.io.threads=8\nnum.io.threads=8\n"
            ),
        );
    }
}

fn properties_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("properties");
    for id in 0..3 {
        let path = format!("tree/server-{id}.properties");
        case.file(&path, broker_file(c, id, 2));
        case.named.push(path.clone());
        case.stdin.push(path);
    }
    case.file("tree/connect-distributed.properties", connect_file(c));
    case.named
        .push("tree/connect-distributed.properties".into());
    case.stdin
        .push("tree/connect-distributed.properties".into());
    case.must_show = [
        "ssl.keystore.pasword",
        "bearer.auth.token",
        "user_alice",
        "-----END",
    ]
    .map(String::from)
    .to_vec();
    case
}

/// Files Kafka refuses to load (a malformed `\u` escape in a secret's value): shown around
/// their error.
fn unloadable_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("unloadable");
    let family = "properties: file that cannot be loaded";
    seed_brokers(&mut case);
    for (id, key) in [
        (3, "ssl.keystore.password"),
        (4, "ssl.key.pass"),
        (5, "custom.value"),
    ] {
        let before = c.secret(family, "ssl.key.pass before the broken line", JOINTS);
        let broken = c.secret(
            family,
            &format!("{key}=...\\uZZ12 (malformed escape)"),
            ",/@:",
        );
        let after = c.secret(
            family,
            "#ssl.keystore.password after the broken line",
            JOINTS,
        );
        let path = format!("tree/server-{id}.properties");
        case.file(
            &path,
            format!(
                "broker.id={id}\nzookeeper.connect=localhost:2181\nssl.key.pass={before}\n\
                 {key}={broken}\\uZZ12\n#ssl.keystore.password={after}\noffsets.topic.replication.factor=1\n"
            ),
        );
        case.named.push(path.clone());
        case.stdin.push(path);
    }
    let truncated = c.secret(
        family,
        "ssl.truststore.password=...\\u12 at the end of the file",
        ",/@:",
    );
    case.file(
        "tree/server-6.properties",
        format!("broker.id=6\nzookeeper.connect=localhost:2181\nssl.truststore.password={truncated}\\u12"),
    );
    case.named.push("tree/server-6.properties".into());
    case
}

fn compose_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("compose");
    case.file("tree/docker-compose.yml", compose_file(c));
    case.file("tree/.env", dot_env_file(c));
    case.file("tree/kafka-6.env", service_env_file(c));
    case.file("tree/broken.env", broken_env_file(c));
    case.named.push("tree/docker-compose.yml".into());
    case.stdin.push("tree/docker-compose.yml".into());
    case.must_show = [
        "KAFKA_SSL_KEYSTORE_PASWORD",
        "KAFKA_NUM_IO_THREADSX",
        "CONNECT_CUSTOM_THING",
        "db-flow",
    ]
    .map(String::from)
    .to_vec();
    case
}

fn strimzi_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("strimzi");
    case.file("tree/kafka.yaml", strimzi_file(c));
    case.named.push("tree/kafka.yaml".into());
    case.must_show = [
        "ssl.keystore.pasword",
        "num.io.threadsx",
        "bearer.auth.token",
    ]
    .map(String::from)
    .to_vec();
    case
}

/// A node-named link in the tree pointing out of it, at a credentials file; a link to a folder
/// of node files outside it.
fn link_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("link out of the tree");
    let family = "link: credentials file outside the tree";
    seed_brokers(&mut case);
    let mut credentials = String::from("[default]\n");
    for key in [
        "aws_access_key_id = AKIA",
        "aws_secret_access_key = ",
        "password=",
        "ssl.keystore.password=",
        "token: ",
    ] {
        let secret = c.secret(family, key, JOINTS);
        credentials.push_str(&format!(
            "{key}{secret}\noffsets.topic.replication.factor=1\n"
        ));
    }
    case.file("outside/credentials", credentials);
    let inner = c.secret(family, "server-7.properties in a linked folder", JOINTS);
    case.file(
        "outside/nodes/server-7.properties",
        format!("broker.id=7\nssl.key.pass={inner}\noffsets.topic.replication.factor=1\n"),
    );
    case.links.push((
        "tree/server-9.properties".into(),
        "../outside/credentials".into(),
    ));
    case.links
        .push(("tree/more".into(), "../outside/nodes".into()));
    case.named = vec!["tree/server-0.properties".into()];
    case
}

/// `kafkalint.toml` errors: each case is one broken config beside the seed brokers.
fn config_cases(c: &mut Canaries) -> Vec<Case> {
    let family = "kafkalint.toml: error";
    let templates = [
        "kafka-version = \"password={}\"\n",
        "kafka-version = \"https://u:{}@h\"\n",
        "kafka-version = password={}\n",
        "[[clusters]]\nname = \"c\"\nfiles = [\"*.properties\"]\nkafka-version = \"secret={}\"\n",
        "[[clusters]]\nname = \"password={}\"\nfiles = [\"a.properties\"]\n[[clusters]]\nname = \"password={}\"\nfiles = [\"b.properties\"]\n",
        "[[clusters]]\nname = \"password={}\"\n",
        "[[clusters]]\nname = \"c\"\nfiles = [\"password={}[x\"]\n",
        "[rules.unknown-key]\nseverity = \"password={}\"\n",
        "select = [\"password={}\"]\n",
        "ignore = \"password={}\"\n",
        "strict = \"password={}\"\n",
        "password = \"{}\"\n",
        "[per-path-ignores]\n\"password={}[\" = [\"unknown-key\"]\n",
        "[[clusters]]\nname = \"c\"\nfiles = [\"*.properties\"]\nbrokers = \"password={}\"\n",
    ];
    let mut cases = Vec::new();
    for template in templates {
        // One line per shape in the report.
        let shape = template.trim().replace('\n', " \\n ");
        let secret = c.secret(family, &shape, ",/@;");
        let mut case = Case::new(&format!("kafkalint.toml `{shape}`"));
        seed_brokers(&mut case);
        let text = template.replace("{}", &secret);
        case.file("tree/kafkalint.toml", text);
        case.config_only = Some("tree/kafkalint.toml".into());
        cases.push(case);
    }
    let mut case = Case::new("--config at a credentials file");
    seed_brokers(&mut case);
    let family = "--config: not a TOML file";
    let a = c.secret(family, "ssl.keystore.password=", JOINTS);
    let b = c.secret(family, "sasl.jaas.config=", JAAS_JOINTS);
    case.file(
        "outside/creds.properties",
        format!("ssl.keystore.password={a}\nsasl.jaas.config={}\n", jaas(&b)),
    );
    case.config_only = Some("outside/creds.properties".into());
    cases.push(case);
    cases
}

/// How a run gets its tree.
#[derive(Clone, Copy, PartialEq)]
enum Tree {
    /// The case's tree, shared by the runs that change nothing.
    Shared,
    /// A copy of its own (`--fix`).
    Copy,
}

struct Run {
    case: usize,
    label: String,
    args: Vec<String>,
    tree: Tree,
    stdin: Option<String>,
    /// A file the run writes its report to (`--output-file`), read with its output.
    output_file: Option<String>,
}

fn run(case: usize, label: &str, args: &[&str]) -> Run {
    Run {
        case,
        label: label.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        tree: Tree::Shared,
        stdin: None,
        output_file: None,
    }
}

fn tree_runs(index: usize, case: &Case) -> Vec<Run> {
    let mut runs: Vec<Run> = FORMATS
        .iter()
        .flat_map(|format| format_runs(index, case, format))
        .collect();
    runs.push(run(
        index,
        "check --diff --unsafe-fixes",
        &["check", "--diff", "--unsafe-fixes", "tree"],
    ));
    runs.push(run(
        index,
        "check --show-settings",
        &["check", "--show-settings", "tree"],
    ));
    runs.push(run(
        index,
        "check --statistics",
        &["check", "--statistics", "tree"],
    ));
    runs.push(run(
        index,
        "check --color always",
        &["check", "--color", "always", "tree"],
    ));
    let to_file = ["check", "--output-file", "report.txt", "tree"];
    let mut file = run(index, "check --output-file", &to_file);
    file.output_file = Some("report.txt".into());
    runs.push(file);
    runs.push(run(
        index,
        "coordinator",
        &["coordinator", "leak-group", "tree"],
    ));
    runs
}

/// The runs of one format: the tree, `--fix` on a copy, `--with-cluster`, standard input.
fn format_runs(index: usize, case: &Case, format: &str) -> Vec<Run> {
    let mut runs = vec![run(
        index,
        &format!("check --format {format}"),
        &["check", "--format", format, "tree"],
    )];
    let mut fix = run(
        index,
        &format!("check --fix --unsafe-fixes --format {format}"),
        &[
            "check",
            "--fix",
            "--unsafe-fixes",
            "--format",
            format,
            "tree",
        ],
    );
    fix.tree = Tree::Copy;
    runs.push(fix);
    let mut args = vec!["check", "--with-cluster", "--format", format];
    args.extend(case.named.iter().map(String::as_str));
    runs.push(run(
        index,
        &format!("check --with-cluster --format {format}"),
        &args,
    ));
    // Every format for the first buffer, `full` (which shows the most) for the others.
    let buffers = match format {
        "full" => &case.stdin[..],
        _ => &case.stdin[..case.stdin.len().min(1)],
    };
    for path in buffers {
        let mut stdin = run(
            index,
            &format!("check --stdin-filename --format {format}"),
            &["check", "--format", format, "--stdin-filename", path, "-"],
        );
        stdin.stdin = Some(case.text(path).to_string());
        runs.push(stdin);
    }
    runs
}

fn config_runs(index: usize, config: &str, case: &Case) -> Vec<Run> {
    let mut runs = Vec::new();
    if config.starts_with("tree/") {
        runs.push(run(
            index,
            "check --format full (nearest kafkalint.toml)",
            &["check", "tree"],
        ));
        runs.push(run(
            index,
            "check --format json (nearest kafkalint.toml)",
            &["check", "--format", "json", "tree"],
        ));
        runs.push(run(
            index,
            "check --diff --unsafe-fixes (nearest kafkalint.toml)",
            &["check", "--diff", "--unsafe-fixes", "tree"],
        ));
    }
    runs.push(run(
        index,
        "check --config",
        &["check", "--config", config, "--format", "sarif", "tree"],
    ));
    runs.push(run(
        index,
        "check --config --with-cluster",
        &[
            "check",
            "--config",
            config,
            "--with-cluster",
            "tree/server-0.properties",
        ],
    ));
    let mut stdin = run(
        index,
        "check --config --stdin-filename",
        &[
            "check",
            "--config",
            config,
            "--stdin-filename",
            "tree/server-0.properties",
            "-",
        ],
    );
    stdin.stdin = Some(case.files[0].1.clone());
    runs.push(stdin);
    runs
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(entry.path()).unwrap(), target).unwrap();
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// stdout, stderr and the report file of one run, as one text.
fn execute(run: &Run, root: &Path, scratch: &Path) -> String {
    let cwd = match run.tree {
        Tree::Shared => root.to_path_buf(),
        Tree::Copy => {
            copy_tree(root, scratch);
            scratch.to_path_buf()
        }
    };
    let mut child = Command::new(KAFKALINT)
        .args(&run.args)
        .current_dir(&cwd)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .stdin(if run.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kafkalint runs");
    if let Some(input) = &run.stdin {
        // A run that refuses standard input may close it early: that is no failure here.
        let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    }
    let output = child.wait_with_output().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if let Some(file) = &run.output_file {
        let path = cwd.join(file);
        text.push_str(&fs::read_to_string(&path).unwrap_or_default());
        let _ = fs::remove_file(path);
    }
    text
}

// ---------------------------------------------------------------------------------------------
// Finding canaries in output

/// Every window of `WINDOW` letters and digits of each canary, mapped to its canary; windows two
/// canaries share (`CANARY00`) are dropped.
struct Detector {
    windows: HashMap<[u8; WINDOW], usize>,
}

impl Detector {
    fn new(canaries: &[Canary]) -> Self {
        let mut owners: HashMap<[u8; WINDOW], Option<usize>> = HashMap::new();
        for (id, canary) in canaries.iter().enumerate() {
            for run in canary.secret.split(|ch: char| !ch.is_ascii_alphanumeric()) {
                for window in run.as_bytes().windows(WINDOW) {
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
        let windows = owners
            .into_iter()
            .filter_map(|(key, owner)| owner.map(|id| (key, id)))
            .collect();
        Detector { windows }
    }

    /// Each canary `text` shows, with the first line that shows it.
    fn scan(&self, text: &str) -> BTreeMap<usize, String> {
        let mut found = BTreeMap::new();
        let bytes = text.as_bytes();
        let mut line_start = 0;
        for start in 0..bytes.len().saturating_sub(WINDOW - 1) {
            if bytes[start] == b'\n' {
                line_start = start + 1;
            }
            let window: [u8; WINDOW] = bytes[start..start + WINDOW].try_into().unwrap();
            if !window.iter().all(u8::is_ascii_alphanumeric) {
                continue;
            }
            if let Some(&id) = self.windows.get(&window) {
                found.entry(id).or_insert_with(|| {
                    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
                    text[line_start..end].to_string()
                });
            }
        }
        found
    }
}

struct Leak {
    canary: usize,
    case: String,
    label: String,
    command: String,
    line: String,
}

fn seed() -> u64 {
    std::env::var("KAFKALINT_LEAKS_SEED")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

fn build_cases(c: &mut Canaries) -> Vec<Case> {
    let mut cases = vec![
        properties_case(c),
        unloadable_case(c),
        compose_case(c),
        strimzi_case(c),
        kubernetes_case(c),
        link_case(c),
    ];
    cases.extend(config_cases(c));
    cases
}

fn plan(cases: &[Case]) -> Vec<Run> {
    cases
        .iter()
        .enumerate()
        .flat_map(|(index, case)| match &case.config_only {
            Some(config) => config_runs(index, config, case),
            None => tree_runs(index, case),
        })
        .collect()
}

/// Runs everything on `WORKERS` threads; each run's output, by run.
fn execute_all(runs: &[Run], roots: &[PathBuf], scratch: &Path) -> Vec<String> {
    let next = AtomicUsize::new(0);
    let outputs = Mutex::new(vec![String::new(); runs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(run) = runs.get(index) else { break };
                    let copy = scratch.join(format!("run-{index}"));
                    let text = execute(run, &roots[run.case], &copy);
                    outputs.lock().unwrap()[index] = text;
                }
            });
        }
    });
    outputs.into_inner().unwrap()
}

fn report(leaks: &[Leak], canaries: &[Canary]) {
    // Grouped: shape family and run, with one example line each.
    let mut groups: BTreeMap<(String, String), (usize, &Leak)> = BTreeMap::new();
    for leak in leaks {
        let family = canaries[leak.canary].family.clone();
        let label = format!("{}: {}", leak.case, leak.label);
        groups.entry((family, label)).or_insert((0, leak)).0 += 1;
    }
    eprintln!("\nleaks by shape and run (count, example):");
    for ((family, label), (count, leak)) in &groups {
        let canary = &canaries[leak.canary];
        eprintln!(
            "  [{family}] {label}: {count}\n      {} | {}",
            canary.shape,
            leak.line.trim_end()
        );
    }
    eprintln!("\nevery leak (canary, shape, command, output line):");
    for leak in leaks {
        let canary = &canaries[leak.canary];
        eprintln!(
            "  {} [{}: {}] `kafkalint {}` ({}) -> {}",
            canary.secret,
            canary.family,
            canary.shape,
            leak.command,
            leak.case,
            leak.line.trim_end()
        );
    }
}

/// The case's `full` output shows the keys beside its canaries: a case whose tree no longer
/// draws findings (and so shows nothing) would pass without testing anything.
fn check_coverage(cases: &[Case], runs: &[Run], outputs: &[String]) -> Vec<String> {
    let mut missing = Vec::new();
    for (index, case) in cases.iter().enumerate() {
        let shown: String = runs
            .iter()
            .zip(outputs)
            .filter(|(run, _)| run.case == index && run.label == "check --format full")
            .map(|(_, text)| text.as_str())
            .collect();
        for text in &case.must_show {
            if !shown.contains(text.as_str()) {
                missing.push(format!(
                    "{}: `full` output does not show {text:?}",
                    case.name
                ));
            }
        }
    }
    missing
}

#[test]
fn no_canary_secret_appears_in_any_output() {
    let mut canaries = Canaries::new(seed());
    let cases = build_cases(&mut canaries);
    let scratch = tempfile::tempdir().unwrap();
    // KAFKALINT_LEAKS_KEEP=1 keeps the generated trees, to run kafkalint on them by hand.
    let _removed_at_the_end;
    let base = if std::env::var_os("KAFKALINT_LEAKS_KEEP").is_some() {
        let kept = scratch.keep();
        eprintln!("trees kept in {}", kept.display());
        kept
    } else {
        let base = scratch.path().to_path_buf();
        _removed_at_the_end = scratch;
        base
    };
    let roots: Vec<PathBuf> = (0..cases.len())
        .map(|index| base.join(format!("case-{index}")))
        .collect();
    for (case, root) in cases.iter().zip(&roots) {
        case.write(root);
    }
    let runs = plan(&cases);
    let outputs = execute_all(&runs, &roots, &base);
    let detector = Detector::new(&canaries.all);
    let mut leaks = Vec::new();
    for (run, text) in runs.iter().zip(&outputs) {
        for (canary, line) in detector.scan(text) {
            leaks.push(Leak {
                canary,
                case: cases[run.case].name.clone(),
                label: run.label.clone(),
                command: run.args.join(" "),
                line,
            });
        }
    }
    let shapes: std::collections::BTreeSet<&str> =
        canaries.all.iter().map(|c| c.shape.as_str()).collect();
    eprintln!(
        "leak test: {} canaries in {} shapes, {} cases, {} runs: {} leaks",
        canaries.all.len(),
        shapes.len(),
        cases.len(),
        runs.len(),
        leaks.len()
    );
    if !leaks.is_empty() {
        report(&leaks, &canaries.all);
    }
    let missing = check_coverage(&cases, &runs, &outputs);
    assert!(missing.is_empty(), "{missing:#?}");
    assert!(
        canaries.all.len() >= MIN_CANARIES,
        "only {} canaries",
        canaries.all.len()
    );
    assert_eq!(leaks.len(), 0, "secrets printed: see the list above");
}

// =============================================================================================
// Secrets with no secret-like name beside them: start-up script words, secrets passed on a
// command line or in an HTTP header, URL userinfo and query parameters. Each class is a test of
// its own, its shapes generated as products of parts (sampled by the seed), run through the
// same runs as above (every format, `--fix`, `--diff`, ...) and searched by the same detector.

/// Builds the class's cases, runs them all, and fails on any canary printed.
fn assert_class_keeps_its_secrets(class: &str, build: fn(&mut Canaries) -> Vec<Case>) {
    let salt = class.bytes().fold(0u64, |hash, b| {
        hash.wrapping_mul(0x100_0000_01b3) ^ u64::from(b)
    });
    let mut canaries = Canaries::new(seed() ^ salt);
    let cases = build(&mut canaries);
    let scratch = tempfile::tempdir().unwrap();
    let roots: Vec<PathBuf> = (0..cases.len())
        .map(|index| scratch.path().join(format!("case-{index}")))
        .collect();
    for (case, root) in cases.iter().zip(&roots) {
        case.write(root);
    }
    let runs = plan(&cases);
    let outputs = execute_all(&runs, &roots, scratch.path());
    let detector = Detector::new(&canaries.all);
    let mut leaks = Vec::new();
    for (run, text) in runs.iter().zip(&outputs) {
        for (canary, line) in detector.scan(text) {
            leaks.push(Leak {
                canary,
                case: cases[run.case].name.clone(),
                label: run.label.clone(),
                command: run.args.join(" "),
                line,
            });
        }
    }
    eprintln!(
        "{class}: {} canaries, {} cases, {} runs: {} leaks",
        canaries.all.len(),
        cases.len(),
        runs.len(),
        leaks.len()
    );
    if !leaks.is_empty() {
        report(&leaks, &canaries.all);
    }
    let missing = check_coverage(&cases, &runs, &outputs);
    assert!(missing.is_empty(), "{missing:#?}");
    assert_eq!(
        leaks.len(),
        0,
        "{class}: secrets printed: see the list above"
    );
}

/// One of `choices`, by the canaries' generator.
fn pick<'a>(c: &mut Canaries, choices: &[&'a str]) -> &'a str {
    choices[c.rng.below(choices.len())]
}

/// `word` in lower, upper or a mixed case, as people write names.
fn any_case(c: &mut Canaries, word: &str) -> String {
    match c.rng.below(4) {
        0 => word.to_ascii_uppercase(),
        1 => word
            .char_indices()
            .map(|(at, ch)| if at == 0 { ch.to_ascii_uppercase() } else { ch })
            .collect(),
        _ => word.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Start-up scripts: script words × joints × readers

/// What joins a secret to the word before it: what a shell splits at (a space, a tab), what
/// it does not (a no-break space, which a redaction splitting at Unicode spaces would take for
/// a gap), a continuation line (the secret alone on the next line).
const SCRIPT_JOINTS: &[(&str, &str)] = &[
    ("space", " "),
    ("tab", "\t"),
    ("no-break space", "\u{a0}"),
    ("continuation line", " \\\n  "),
];

/// Statements with a word before the secret: `{J}` is the joint, `{S}` the secret. Every place
/// a script holds a word: after an assignment kafkalint reads, as an argument of a known
/// command, after a flag that takes a secret and one that does not, after the image's program.
const SCRIPT_STATEMENTS: &[&str] = &[
    "export KAFKA_NODE_ID=1{J}{S}",
    "export KAFKA_PROCESS_ROLES=broker{J}{S}",
    "KAFKA_BROKER_ID=2{J}{S}",
    "kafka-storage format -t $CLUSTER_ID{J}{S}",
    "kafka-storage{J}{S}",
    "keytool -importcert -noprompt -storepass{J}{S}",
    "openssl pkcs12 -export -passout{J}{S}",
    "kafka-configs --bootstrap-server b:9092 --add-config{J}{S}",
    "echo{J}{S}",
    "set -e{J}{S}",
    "exec /etc/confluent/docker/run{J}{S}",
    "exec{J}{S}",
];

/// Statements over lines that start on an anchor's line (after `&&`): the secret alone in a
/// heredoc's body, in a quoted text over lines.
const SCRIPT_MULTILINE: &[&str] = &[
    "&& cat > /tmp/client.properties <<EOF\n{S}\nEOF",
    "&& cat > /tmp/client.properties <<'EOF'\n  {S}\nEOF",
    "&& cat <<-\"END\" >/dev/null\nsasl.password{J}{S}\nEND",
    "&& cat <<EOF\n{S}{J}x\nEOF",
    "&& echo \"start\n{S}\"",
    "&& echo 'start\n{S}{J}end'",
];

/// Script blocks, one canary each: every statement with every joint, the multi-line forms with
/// a joint each. `one_line` keeps the statements that stay on one line (for readers that show a
/// one-line command).
fn script_blocks(c: &mut Canaries, reader: &str, one_line: bool) -> Vec<Vec<String>> {
    let family = format!("script word: {reader}");
    let mut blocks = Vec::new();
    for statement in SCRIPT_STATEMENTS {
        for (joint_name, joint) in SCRIPT_JOINTS {
            if one_line && joint.contains('\n') {
                continue;
            }
            let shape = format!("{statement} ({joint_name})");
            let secret = c.secret(&family, &shape, ",/@");
            let text = statement.replace("{J}", joint).replace("{S}", &secret);
            blocks.push(text.split('\n').map(String::from).collect());
        }
    }
    if !one_line {
        for statement in SCRIPT_MULTILINE {
            let (joint_name, joint) = SCRIPT_JOINTS[c.rng.below(3)];
            let shape = format!("{} ({joint_name})", statement.replace('\n', " \\n "));
            let secret = c.secret(&family, &shape, ",/@");
            let text = statement.replace("{J}", joint).replace("{S}", &secret);
            blocks.push(text.split('\n').map(String::from).collect());
        }
    }
    blocks
}

/// A script of `blocks`, each between two exports that draw a finding (a misspelt or invalid
/// broker key, which kafkalint reads from the script), so that each line is in a snippet's
/// context; a block starting `&&` goes on the anchor's line.
fn anchored_script(blocks: &[Vec<String>], indent: &str) -> String {
    let anchor = |n: usize| {
        let (key, value) = yaml_anchor(n);
        format!("{indent}export {}={value}", env_name("KAFKA_", &key))
    };
    let mut lines = vec![format!("{indent}export KAFKA_BROKER_ID=${{HOSTNAME##*-}}")];
    for (index, block) in blocks.iter().enumerate() {
        let mut anchor_line = anchor(index);
        let mut rest = &block[..];
        if let Some(first) = block.first().filter(|first| first.starts_with("&&")) {
            anchor_line = format!("{anchor_line} {first}");
            rest = &block[1..];
        }
        lines.push(anchor_line);
        lines.extend(rest.iter().map(|line| format!("{indent}{line}")));
    }
    lines.push(anchor(blocks.len()));
    lines.push(format!("{indent}exec /etc/confluent/docker/run"));
    lines.join("\n") + "\n"
}

/// StatefulSets whose containers run `blocks` through `sh -c` (the script in `command`) or
/// `bash -c` (the script in `args`), as many as the anchors allow.
fn script_statefulsets(blocks: Vec<Vec<String>>, in_args: bool, name: &str) -> String {
    let per_set = ANCHOR_KEYS.len() * 2 - 2;
    blocks
        .chunks(per_set)
        .enumerate()
        .map(|(index, chunk)| {
            let script = anchored_script(chunk, "              ");
            let command = if in_args {
                format!("          command: [\"/bin/bash\", \"-c\"]\n          args:\n            - |\n{script}")
            } else {
                format!("          command:\n            - sh\n            - -c\n            - |\n{script}")
            };
            format!(
                "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: {name}-{index}\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n{command}          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n            - name: KAFKA_ADVERTISED_LISTENERS\n              value: PLAINTEXT://kafka:9092\n"
            )
        })
        .collect::<Vec<_>>()
        .join("---\n")
}

/// Compose services whose one-line `command` or `entrypoint` (plain, or a flow list of
/// `sh -c`) holds a block, each right after an environment entry that draws a finding.
fn script_compose_file(c: &mut Canaries) -> String {
    let mut services = String::from("services:\n");
    let mut index = 0;
    for form in ["command plain", "command list", "entrypoint list"] {
        for block in script_blocks(c, &format!("compose {form}"), true) {
            let line = &block[0];
            let command = match form {
                "command plain" => format!("    command: {line}"),
                "command list" => format!("    command: [\"sh\", \"-c\", \"{line}\"]"),
                _ => format!("    entrypoint: [\"bash\", \"-c\", \"{line}\"]"),
            };
            services.push_str(&format!(
                "  kafka-{index}:\n    image: confluentinc/cp-kafka:7.6.1\n    environment:\n      KAFKA_BROKER_ID: {index}\n      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka-{index}:9092\n      KAFKA_NUM_IO_THREADSX: 1\n{command}\n    hostname: kafka-{index}\n"
            ));
            index += 1;
        }
    }
    services
}

/// A ConfigMap of start-up scripts (one a line, each after an entry that draws a finding),
/// taken whole by a StatefulSet's `envFrom`.
fn script_config_map(c: &mut Canaries) -> String {
    let mut blocks = script_blocks(c, "ConfigMap script file", true);
    // One anchor a block and one after the last, of the anchors there are.
    while blocks.len() > ANCHOR_KEYS.len() * 2 - 1 {
        let at = c.rng.below(blocks.len());
        blocks.remove(at);
    }
    let mut data = vec![
        "apiVersion: v1".to_string(),
        "kind: ConfigMap".into(),
        "metadata:".into(),
        "  name: scripts".into(),
        "data:".into(),
    ];
    for (index, block) in blocks.iter().enumerate() {
        let (key, value) = yaml_anchor(index);
        data.push(format!("  {}: \"{value}\"", env_name("KAFKA_", &key)));
        data.push(format!("  run-{index}.sh: {}", block[0]));
    }
    let (key, value) = yaml_anchor(blocks.len());
    data.push(format!("  {}: \"{value}\"", env_name("KAFKA_", &key)));
    format!(
        "{}\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: scripted\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          command: [\"sh\", \"/scripts/run-0.sh\"]\n          envFrom:\n            - configMapRef:\n                name: scripts\n          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n            - name: KAFKA_ADVERTISED_LISTENERS\n              value: PLAINTEXT://kafka:9092\n",
        data.join("\n")
    )
}

fn script_cases(c: &mut Canaries) -> Vec<Case> {
    let mut kubernetes = Case::new("start-up scripts: Kubernetes");
    let in_command = script_blocks(c, "Kubernetes command sh -c", false);
    let in_args = script_blocks(c, "Kubernetes args of bash -c", false);
    kubernetes.file(
        "tree/command.yaml",
        script_statefulsets(in_command, false, "command"),
    );
    kubernetes.file("tree/args.yaml", script_statefulsets(in_args, true, "args"));
    kubernetes.file("tree/scripts.yaml", script_config_map(c));
    for path in ["tree/command.yaml", "tree/args.yaml", "tree/scripts.yaml"] {
        kubernetes.named.push(path.into());
        kubernetes.stdin.push(path.into());
    }
    kubernetes.must_show = [
        "num.io.threadsx",
        "command.yaml:",
        "args.yaml:",
        "scripts.yaml:",
    ]
    .map(String::from)
    .to_vec();
    let mut compose = Case::new("start-up scripts: compose");
    compose.file("tree/docker-compose.yml", script_compose_file(c));
    compose.named.push("tree/docker-compose.yml".into());
    compose.stdin.push("tree/docker-compose.yml".into());
    compose.must_show = vec!["num.io.threadsx".into()];
    vec![kubernetes, compose]
}

#[test]
fn no_script_word_leaks_a_secret() {
    assert_class_keeps_its_secrets("start-up script words", script_cases);
}

// ---------------------------------------------------------------------------------------------
// Secrets passed without a name: secret flags × spacing × comment styles

/// Parts of a flag's name that takes a secret, in the spellings of keytool (`-storepass`,
/// `-srckeypass`), openssl (`-passin`), database and Kafka clients (`--password`, `--token`).
const FLAG_CORES: &[&str] = &[
    "pass",
    "password",
    "passwd",
    "pwd",
    "storepass",
    "keypass",
    "passin",
    "passout",
    "passphrase",
    "token",
    "secret",
    "apikey",
    "api-key",
    "credentials",
];
const FLAG_PREFIXES: &[&str] = &[
    "",
    "",
    "src",
    "dest",
    "new",
    "keystore-",
    "truststore-",
    "client-",
    "sasl-",
    "admin-",
];
/// What joins a flag and its value: a space, `=`, a tab, a no-break space.
const FLAG_JOINTS: &[&str] = &[" ", "=", "\t", "\u{a0}", "  "];
const TOOLS: &[&str] = &[
    "",
    "keytool -importkeystore ",
    "openssl pkcs12 -export ",
    "kafka-configs --bootstrap-server b:9092 ",
    "kcat -b b:9092 ",
    "psql -h db ",
    "vault login ",
    "run: ",
];

/// Lines that pass a secret with no secret-like name before a `=` or `:` (what they are is the
/// secret's shape), generated: every flag core, the other forms with random parts.
fn secret_flag_texts(c: &mut Canaries, family: &str) -> Vec<String> {
    let mut texts = Vec::new();
    for core in FLAG_CORES {
        for dashes in ["-", "--"] {
            let prefix = pick(c, FLAG_PREFIXES);
            let joint = pick(c, FLAG_JOINTS);
            let tool = pick(c, TOOLS);
            let flag = format!("{dashes}{prefix}{core}");
            let shape = format!("{tool}{flag}{joint:?}SECRET");
            let secret = c.secret(family, &shape, ",/@");
            texts.push(format!("{tool}{flag}{joint}{secret}"));
        }
    }
    // mysql's password attached to `-p`.
    for tool in ["mysql -h db -uroot ", "mariadb ", "mysqldump ", ""] {
        let secret = c.secret(family, &format!("{tool}-pSECRET"), "");
        texts.push(format!("{tool}-p{secret}"));
    }
    // curl's user and password.
    for flag in ["-u", "--user", "-U", "--proxy-user", "-u"] {
        let joint = if flag == "-u" {
            pick(c, &["", " ", "\t"])
        } else {
            pick(c, &[" ", "="])
        };
        let user = pick(c, &["admin", "svc-kafka", "ci"]);
        let secret = c.secret(family, &format!("curl {flag}{joint:?}{user}:SECRET"), ",/@");
        texts.push(format!(
            "curl -fsS {flag}{joint}{user}:{secret} https://registry:8081"
        ));
    }
    // HTTP authorization: a header's name, its separator and a scheme, or a scheme alone.
    for scheme in ["Basic", "Bearer", "Digest", "token", "Negotiate", "bearer"] {
        let header = pick(
            c,
            &[
                "Authorization",
                "authorization",
                "Proxy-Authorization",
                "AUTHORIZATION",
                "",
            ],
        );
        let separator = pick(c, &[": ", ":", " "]);
        let lead = if header.is_empty() {
            String::new()
        } else {
            format!("{header}{separator}")
        };
        let quote = pick(c, &["", "-H \"", "--header '"]);
        let secret = c.secret(family, &format!("{quote}{lead}{scheme} SECRET"), "");
        texts.push(format!("{quote}{lead}{scheme} {secret}"));
    }
    // `token=`, `secret=`, `apikey=` in any case, after other words.
    for name in [
        "token",
        "secret",
        "apikey",
        "api_key",
        "access_token",
        "client_secret",
    ] {
        let name = any_case(c, name);
        let separator = pick(c, &["=", ": ", " = "]);
        let secret = c.secret(family, &format!("... {name}{separator}SECRET"), ",/@");
        texts.push(format!("curl https://h/x -d {name}{separator}{secret}"));
    }
    texts
}

/// A broker file whose comments pass secrets, in `#` and `!` comments, between lines that draw
/// a finding.
fn secret_flag_properties(c: &mut Canaries, id: usize) -> String {
    let family = "comment passing a secret: .properties";
    let blocks: Vec<Vec<String>> = secret_flag_texts(c, family)
        .into_iter()
        .map(|text| {
            let style = pick(c, &["#", "# ", "!", "! ", "#  ", "#\t"]);
            vec![format!("{style}{text}")]
        })
        .collect();
    let head = format!(
        "broker.id={id}\nlisteners=PLAINTEXT://localhost:909{id}\nlog.dirs=/tmp/kafka-logs-{id}\n\
         zookeeper.connect=localhost:2181\noffsets.topic.replication.factor=1\n"
    );
    interleave(&head, &blocks, "num.io.threads=8")
}

/// A compose Kafka service and a Kubernetes ConfigMap whose YAML comments pass secrets.
fn secret_flag_yaml(c: &mut Canaries) -> (String, String) {
    let family = "comment passing a secret: YAML";
    let blocks: Vec<Vec<String>> = secret_flag_texts(c, family)
        .into_iter()
        .map(|text| {
            let style = pick(c, &["# ", "#", "#  "]);
            vec![format!("      {style}{text}")]
        })
        .collect();
    let head = [
        "services:",
        "  kafka:",
        "    image: confluentinc/cp-kafka:7.6.1",
        "    environment:",
        "      KAFKA_BROKER_ID: 1",
        "      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181",
        "      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka:9092",
    ]
    .map(String::from);
    let (half, rest) = blocks.split_at(blocks.len() / 2);
    let compose = compose_env(&head, half, &|n| {
        let (key, value) = yaml_anchor(n % (ANCHOR_KEYS.len() * 2));
        format!("      {}: \"{value}\"", env_name("KAFKA_", &key))
    })
    .replace(
        "__FIXABLE__",
        "      KAFKA_DEFAULT_REPLICATION_FACTOR: \"1\"",
    );
    let data: Vec<Vec<String>> = rest
        .iter()
        .map(|block| block.iter().map(|line| line[4..].to_string()).collect())
        .collect();
    let head = [
        "apiVersion: v1",
        "kind: ConfigMap",
        "metadata:",
        "  name: kafka-env",
        "data:",
    ]
    .map(String::from);
    let config_map = compose_env(&head, &data, &|n| {
        let (key, value) = yaml_anchor(n % (ANCHOR_KEYS.len() * 2));
        format!("  {}: \"{value}\"", env_name("KAFKA_", &key))
    })
    .replace("__FIXABLE__", "  KAFKA_DEFAULT_REPLICATION_FACTOR: \"1\"");
    let kubernetes = format!(
        "{config_map}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          envFrom:\n            - configMapRef:\n                name: kafka-env\n          env:\n            - name: KAFKA_ZOOKEEPER_CONNECT\n              value: zookeeper:2181\n            - name: KAFKA_ADVERTISED_LISTENERS\n              value: PLAINTEXT://kafka:9092\n"
    );
    (compose, kubernetes)
}

fn secret_flag_cases(c: &mut Canaries) -> Vec<Case> {
    let mut properties = Case::new("comments passing a secret: .properties");
    for id in 0..2 {
        let path = format!("tree/server-{id}.properties");
        properties.file(&path, secret_flag_properties(c, id));
        properties.named.push(path.clone());
        properties.stdin.push(path);
    }
    properties.must_show = vec!["num.io.threads=8".into()];
    let (compose, kubernetes) = secret_flag_yaml(c);
    let mut yaml = Case::new("comments passing a secret: YAML");
    yaml.file("tree/docker-compose.yml", compose);
    yaml.file("tree/kafka.yaml", kubernetes);
    for path in ["tree/docker-compose.yml", "tree/kafka.yaml"] {
        yaml.named.push(path.into());
        yaml.stdin.push(path.into());
    }
    yaml.must_show = ["docker-compose.yml:", "kafka.yaml:", "num.io.threadsx"]
        .map(String::from)
        .to_vec();
    let mut role = Case::new("comments passing a secret: Ansible role template");
    let family = "comment passing a secret: Ansible template";
    let blocks: Vec<Vec<String>> = secret_flag_texts(c, family)
        .into_iter()
        .map(|text| {
            let style = pick(c, &["# ", "#", "! "]);
            vec![format!("{style}{text}")]
        })
        .collect();
    let template = interleave(
        "broker.id={{ node_id }}\nzookeeper.connect=zk:2181\noffsets.topic.replication.factor=1\n",
        &blocks,
        "num.io.threads=8",
    );
    let template_path = "tree/ansible/roles/kafka/templates/server.properties.j2";
    role.file(
        "tree/ansible/site.yml",
        "- hosts: kafka\n  roles:\n    - kafka\n".into(),
    );
    role.file(
        "tree/ansible/hosts.ini",
        "[kafka]\nk1 node_id=1\nk2 node_id=2\nk3 node_id=3\n".into(),
    );
    role.file(template_path, template);
    role.named.push(template_path.into());
    role.stdin.push(template_path.into());
    role.must_show = vec!["server.properties.j2:".into(), "num.io.threads=8".into()];
    vec![properties, yaml, role]
}

#[test]
fn no_secret_passed_without_a_name_leaks() {
    assert_class_keeps_its_secrets("secrets passed without a name", secret_flag_cases);
}

// ---------------------------------------------------------------------------------------------
// URL shapes: userinfo and query parameters × places (values, advertised.listeners, comments)

/// A URL whose userinfo is a credential, whatever its form: a token as the user, a colon
/// percent-encoded, a password.
fn userinfo_url(c: &mut Canaries, family: &str, scheme: &str, host: &str) -> String {
    let form = pick(
        c,
        &[
            "{S}@",
            "user%3A{S}@",
            "user%3a{S}@",
            "{S}:x-oauth-basic@",
            "{S}:@",
            "%40ci:{S}@",
        ],
    );
    let secret = c.secret(family, &format!("{scheme}://{form}{host}"), "");
    format!("{scheme}://{}{host}", form.replace("{S}", &secret))
}

/// A URL whose query or fragment carries a secret: a parameter name made of a prefix, a core
/// and a case, placed first, after another, or in the fragment.
fn query_url(c: &mut Canaries, family: &str) -> String {
    let prefix = pick(
        c,
        &[
            "", "", "x-amz-", "X-Goog-", "client_", "access_", "oauth_", "api-", "session_",
            "X-Amz-",
        ],
    );
    let core = pick(
        c,
        &[
            "sig",
            "signature",
            "code",
            "token",
            "secret",
            "key",
            "credential",
            "auth",
            "password",
            "security-token",
        ],
    );
    let name = any_case(c, &format!("{prefix}{core}"));
    let place = pick(
        c,
        &["?{N}=", "?a=1&{N}=", "?v=2;{N}=", "#{N}=", "?x=1#{N}="],
    );
    let shape = format!(
        "https://idp.example.com/oauth2/token{}",
        place.replace("{N}", &name)
    );
    let secret = c.secret(family, &shape, "");
    format!("{shape}{secret}")
}

/// A broker whose endpoint URLs and advertised listener hold a credential, in values (of plain
/// keys, whose values are shown) and in comments; the last `advertised.listeners` is the
/// broker's, which messages quote.
fn url_broker_file(c: &mut Canaries, id: usize) -> String {
    let mut blocks = Vec::new();
    for _ in 0..6 {
        let family = "URL: value of a plain key";
        let url = query_url(c, family);
        let key = pick(
            c,
            &[
                "sasl.oauthbearer.token.endpoint.url",
                "sasl.oauthbearer.jwks.endpoint.url",
            ],
        );
        blocks.push(vec![format!("{key}={url}")]);
        let scheme = pick(c, &["https", "http"]);
        let url = userinfo_url(c, family, scheme, "idp.example.com/token");
        blocks.push(vec![format!("{key}={url}")]);
        let family = "URL: comment";
        let url = query_url(c, family);
        let style = pick(c, &["# see ", "#", "! ", "# token endpoint: "]);
        blocks.push(vec![format!("{style}{url}")]);
        let url = userinfo_url(c, family, "https", "git.example.com/ops/kafka.git");
        blocks.push(vec![format!("{style}{url}")]);
    }
    let family = "URL: advertised.listeners";
    let listeners: Vec<String> = (0..3)
        .map(|_| {
            let scheme = pick(c, &["PLAINTEXT", "SASL_SSL", "SSL", "EXTERNAL"]);
            userinfo_url(c, family, scheme, &format!("broker-{id}.example.com:9092"))
        })
        .collect();
    for listener in &listeners[..2] {
        blocks.push(vec![format!("advertised.listeners={listener}")]);
    }
    let head = format!(
        "broker.id={id}\nlisteners=PLAINTEXT://:9092\nlog.dirs=/tmp/kafka-logs-{id}\n\
         zookeeper.connect=localhost:2181\noffsets.topic.replication.factor=1\n"
    );
    let mut text = interleave(&head, &blocks, "num.io.threads=8");
    text.push_str(&format!(
        "advertised.listeners=PLAINTEXT://ok:9092,{}\n",
        listeners[2]
    ));
    text
}

/// A compose service whose advertised listeners and endpoint URLs hold credentials.
fn url_compose_file(c: &mut Canaries) -> String {
    let mut services = String::from("services:\n");
    for index in 0..4 {
        let family = "URL: compose";
        let listener = userinfo_url(c, family, "PLAINTEXT", &format!("kafka-{index}:9092"));
        let endpoint = query_url(c, family);
        let jwks = userinfo_url(c, family, "https", "idp.example.com/jwks");
        services.push_str(&format!(
            "  kafka-{index}:\n    image: confluentinc/cp-kafka:7.6.1\n    environment:\n      KAFKA_BROKER_ID: {index}\n      KAFKA_ZOOKEEPER_CONNECT: zookeeper:2181\n      KAFKA_NUM_IO_THREADSX: 1\n      KAFKA_ADVERTISED_LISTENERS: {listener}\n      KAFKA_NUM_NETWORK_THREADSX: 1\n      KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: {endpoint}\n      KAFKA_NUM_PARTITIONSX: 1\n      KAFKA_SASL_OAUTHBEARER_JWKS_ENDPOINT_URL: \"{jwks}\"\n      KAFKA_LOG_RETENTION_HOURSX: 1\n"
        ));
    }
    services
}

fn url_cases(c: &mut Canaries) -> Vec<Case> {
    let mut properties = Case::new("URL shapes: .properties");
    for id in 0..3 {
        let path = format!("tree/server-{id}.properties");
        properties.file(&path, url_broker_file(c, id));
        properties.named.push(path.clone());
        properties.stdin.push(path);
    }
    properties.must_show = ["num.io.threads=8", "advertised.listeners"]
        .map(String::from)
        .to_vec();
    let mut compose = Case::new("URL shapes: compose");
    compose.file("tree/docker-compose.yml", url_compose_file(c));
    compose.named.push("tree/docker-compose.yml".into());
    compose.stdin.push("tree/docker-compose.yml".into());
    compose.must_show = ["num.io.threadsx", "advertised.listeners"]
        .map(String::from)
        .to_vec();
    vec![properties, compose]
}

#[test]
fn no_url_userinfo_or_secret_parameter_leaks() {
    assert_class_keeps_its_secrets("URL shapes", url_cases);
}

// =============================================================================================
// Keys that hold a secret: keys × joints × readers × outputs
// =============================================================================================
//
// A value runs into its key when what stands between them is no separator the reader takes:
// a Unicode space, a full-width sign, an escaped separator (`java.util.Properties` makes `\=`,
// `\ `, `\t`, `\:` and `\u003d` part of the key), or nothing at all. The key then carries the
// secret into every message that names it. The generator writes every joint after secret keys
// in every reader's form, one file a reader and joint (a joint that breaks a YAML document
// loses that file alone), and runs every output format, `--diff`, `--fix`, `--statistics`,
// `--show-settings` and the language server over them. Output may lower-case or upper-case a
// key (environment names), so canaries are looked for in any case.

/// Names whose value is a secret: keys of Kafka's catalogue typed PASSWORD (with a secret word
/// in their name or without), per listener, and names with a secret word that no catalogue
/// knows.
const KEY_SECRET_NAMES: &[&str] = &[
    "ssl.keystore.password",
    "ssl.key.password",
    "ssl.truststore.password",
    "sasl.jaas.config",
    "listener.name.internal.ssl.key.password",
    "my.app.secret",
    "bearer.auth.token",
    // PASSWORD keys with no secret word in their name.
    "ssl.keystore.key",
    "ssl.keystore.certificate.chain",
];

/// What stands between a key and its value in place of a separator, by name.
const KEY_JOINTS: &[(&str, &str)] = &[
    ("no-break space", "\u{a0}"),
    ("em space", "\u{2003}"),
    ("thin space", "\u{2009}"),
    ("ideographic space", "\u{3000}"),
    ("line separator", "\u{2028}"),
    ("paragraph separator", "\u{2029}"),
    ("next line", "\u{85}"),
    ("vertical tab", "\u{b}"),
    ("zero-width space", "\u{200b}"),
    ("soft hyphen", "\u{ad}"),
    ("full-width equals", "\u{ff1d}"),
    ("full-width colon", "\u{ff1a}"),
    ("escaped equals", "\\="),
    ("escaped space", "\\ "),
    ("escaped tab", "\\t"),
    ("escaped colon", "\\:"),
    ("escaped \\u003d", "\\u003d"),
    ("escaped \\u0020", "\\u0020"),
    ("escaped \\u00a0", "\\u00a0"),
    ("missing separator", ""),
    ("missing separator, value after a dot", "."),
    ("missing separator, value after a dash", "-"),
    ("missing separator, value after an underscore", "_"),
];

/// How one reader writes a key and its value, and the file it goes in.
struct KeyReader {
    name: &'static str,
    /// The file's path under the case's folder for this reader and joint.
    path: &'static str,
    /// The file's text around the lines (`{lines}` marks where they go).
    template: &'static str,
    /// One line (or a few) for a key run into its value (`{key}` already joined).
    line: fn(&str) -> String,
}

fn key_env_name(key_and_value: &str) -> String {
    format!(
        "KAFKA_{}",
        key_and_value.to_ascii_uppercase().replace(['.', '-'], "_")
    )
}

fn key_hcl_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

const KEY_READERS: &[KeyReader] = &[
    KeyReader {
        name: "properties",
        path: "server.properties",
        template: "node.id=1\nprocess.roles=broker,controller\ncontroller.listener.names=CONTROLLER\ncontroller.quorum.voters=1@localhost:9093\nlisteners=PLAINTEXT://:9092,CONTROLLER://:9093\nlog.dirs=/var/lib/kafka\n{lines}offsets.topic.replication.factor=1\n",
        line: |key| format!("{key}\n"),
    },
    KeyReader {
        name: "compose map environment",
        path: "docker-compose.yml",
        template: "services:\n  kafka:\n    image: apache/kafka:3.9.1\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n{lines}",
        line: |key| format!("      {}: \"1\"\n", key_env_name(key)),
    },
    KeyReader {
        name: "compose list environment",
        path: "docker-compose.yml",
        template: "services:\n  kafka:\n    image: confluentinc/cp-kafka:7.6.1\n    environment:\n      - KAFKA_BROKER_ID=1\n      - KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR=1\n{lines}",
        line: |key| {
            format!(
                "      - {}=1\n      - {}\n",
                key_env_name(key),
                key_env_name(key)
            )
        },
    },
    KeyReader {
        name: "kubernetes env",
        path: "kafka.yaml",
        template: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          env:\n            - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR\n              value: \"1\"\n{lines}",
        line: |key| {
            format!(
                "            - name: {}\n              value: \"1\"\n",
                key_env_name(key)
            )
        },
    },
    KeyReader {
        name: "strimzi config",
        path: "kafka.yaml",
        template: "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my-cluster\nspec:\n  kafka:\n    replicas: 3\n    listeners:\n      - name: tls\n        port: 9093\n        type: internal\n        tls: true\n    config:\n      offsets.topic.replication.factor: 1\n{lines}",
        line: |key| format!("      {key}: 1\n"),
    },
    KeyReader {
        name: "chart values extraConfig",
        path: "kafka-values.yaml",
        template: "image:\n  repository: bitnami/kafka\n  tag: 3.9.0-debian-12-r1\ncontroller:\n  replicaCount: 3\nextraConfig: |\n  offsets.topic.replication.factor=1\n{lines}",
        line: |key| format!("  {key}\n"),
    },
    KeyReader {
        name: "terraform strimzi manifest",
        path: "main.tf",
        template: "resource \"kubernetes_manifest\" \"kafka\" {\n  manifest = {\n    apiVersion = \"kafka.strimzi.io/v1beta2\"\n    kind       = \"Kafka\"\n    metadata   = { name = \"events\" }\n    spec = {\n      kafka = {\n        replicas = 3\n        listeners = [{ name = \"plain\", port = 9092, tls = false, type = \"internal\" }]\n        config = {\n          \"offsets.topic.replication.factor\" = 1\n{lines}        }\n        storage = { type = \"ephemeral\" }\n      }\n      zookeeper = {\n        replicas = 3\n        storage = { type = \"ephemeral\" }\n      }\n    }\n  }\n}\n",
        line: |key| format!("          \"{}\" = 1\n", key_hcl_string(key)),
    },
    KeyReader {
        name: "terraform values heredoc",
        path: "main.tf",
        template: "resource \"helm_release\" \"kafka\" {\n  repository = \"https://charts.bitnami.com/bitnami\"\n  chart      = \"kafka\"\n  version    = \"22.1.6\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    extraConfig: |\n      offsets.topic.replication.factor=1\n{lines}    EOF\n  ]\n}\n",
        line: |key| format!("      {key}\n"),
    },
    KeyReader {
        name: "cp-ansible custom properties",
        path: "hosts.yml",
        template: "all:\n  vars:\n    ssl_enabled: true\nkafka_broker:\n  vars:\n    kafka_broker_custom_properties:\n      offsets.topic.replication.factor: 1\n{lines}  hosts:\n    kafka1.example.internal:\n    kafka2.example.internal:\n    kafka3.example.internal:\n",
        line: |key| format!("      {key}: 1\n"),
    },
];

/// One case: a folder a reader and joint, each file holding a key run into a canary after
/// each secret name (cycled), plus the Strimzi shape of a key that holds its own `=`.
fn key_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("keys that hold a secret");
    let mut next_name = 0;
    for (reader_index, reader) in KEY_READERS.iter().enumerate() {
        for (joint_index, (joint_name, joint)) in KEY_JOINTS.iter().enumerate() {
            let mut lines = String::new();
            for _ in 0..2 {
                let name = KEY_SECRET_NAMES[next_name % KEY_SECRET_NAMES.len()];
                next_name += 1;
                let family = format!("key: {}", reader.name);
                let shape = format!("{name}<{joint_name}>...");
                let secret = c.secret(&family, &shape, "");
                lines.push_str(&(reader.line)(&format!("{name}{joint}{secret}")));
            }
            if reader.name.contains("strimzi") {
                let family = format!("key: {}", reader.name);
                let secret = c.secret(&family, "\"ssl.keystore.password=...\" as one key", "");
                lines.push_str(&match reader.name {
                    "strimzi config" => format!("      \"ssl.keystore.password={secret}\": \"\"\n"),
                    _ => format!("          \"ssl.keystore.password={secret}\" = \"\"\n"),
                });
            }
            let path = format!("tree/r{reader_index}-j{joint_index}/{}", reader.path);
            case.file(&path, reader.template.replace("{lines}", &lines));
            if joint_index == 0 {
                case.named.push(path.clone());
                case.stdin.push(path.clone());
            }
            // Each folder draws findings in `full`, or it tests nothing.
            if !matches!(*joint_name, "vertical tab") {
                case.must_show
                    .push(format!("r{reader_index}-j{joint_index}"));
            }
        }
    }
    case
}

/// YAML files that repeat a key run into its value: the reader's error names the file and
/// the line, never the key.
fn repeated_key_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("a key that holds a secret, repeated");
    for (joint_index, (joint_name, joint)) in KEY_JOINTS.iter().enumerate() {
        let secret = c.secret("key: repeated in YAML", &format!("<{joint_name}>"), "");
        let key = key_env_name(&format!("ssl.key.password{joint}{secret}"));
        let path = format!("tree/dup-j{joint_index}/docker-compose.yml");
        case.file(
            &path,
            format!(
                "services:\n  kafka:\n    image: apache/kafka:3.9.1\n    environment:\n      {key}: 1\n      {key}: 1\n"
            ),
        );
        if joint_index == 0 {
            case.named.push(path.clone());
            case.stdin.push(path);
        }
        case.must_show.push(format!("dup-j{joint_index}"));
    }
    case
}

/// A language server session over standard input: every file of the case opened, then
/// `shutdown` and `exit`.
fn key_server_input(case: &Case, root: &Path) -> String {
    fn framed(body: &serde_json::Value) -> String {
        let body = body.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }
    let mut input = framed(&serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} }
    }));
    input.push_str(&framed(
        &serde_json::json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
    ));
    for (path, text) in &case.files {
        let language = if path.ends_with(".properties") {
            "properties"
        } else if path.ends_with(".tf") {
            "terraform"
        } else {
            "yaml"
        };
        input.push_str(&framed(&serde_json::json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": { "textDocument": {
                "uri": format!("file://{}/{path}", root.display()),
                "languageId": language,
                "version": 1,
                "text": text,
            } },
        })));
    }
    input.push_str(&framed(
        &serde_json::json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }),
    ));
    input.push_str(&framed(
        &serde_json::json!({ "jsonrpc": "2.0", "method": "exit" }),
    ));
    input
}

#[test]
fn no_secret_run_into_a_key_appears_in_any_output() {
    let mut canaries = Canaries::new(seed() ^ 0x6b65_7973);
    let cases = vec![key_case(&mut canaries), repeated_key_case(&mut canaries)];
    let leaks = key_leaks(&cases, &canaries);
    assert_eq!(
        leaks.len(),
        0,
        "secrets run into keys printed: see the list above"
    );
}

/// What `kafkalint server` writes for `input`, written from another thread: the server
/// answers while it reads, and a pipe left unread would stop both.
fn key_server_output(input: &str, cwd: &Path) -> String {
    let mut child = Command::new(KAFKALINT)
        .arg("server")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kafkalint runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

/// Runs every output of `cases` (and the language server over the first), and returns the
/// leaks of `canaries`, looked for in any case.
fn key_leaks(cases: &[Case], canaries: &Canaries) -> Vec<Leak> {
    let scratch = tempfile::tempdir().unwrap();
    let base = scratch.path().to_path_buf();
    let roots: Vec<PathBuf> = (0..cases.len())
        .map(|index| base.join(format!("case-{index}")))
        .collect();
    for (case, root) in cases.iter().zip(&roots) {
        case.write(root);
    }
    let mut runs = plan(cases);
    let mut outputs = execute_all(&runs, &roots, &base);
    for (index, case) in cases.iter().enumerate() {
        let input = key_server_input(case, &roots[index]);
        outputs.push(key_server_output(&input, &roots[index]));
        runs.push(run(index, "server (language server)", &["server"]));
    }
    let lowered: Vec<Canary> = canaries
        .all
        .iter()
        .map(|canary| Canary {
            secret: canary.secret.to_ascii_lowercase(),
            family: canary.family.clone(),
            shape: canary.shape.clone(),
        })
        .collect();
    let detector = Detector::new(&lowered);
    let mut leaks = Vec::new();
    for (run, text) in runs.iter().zip(&outputs) {
        for (canary, line) in detector.scan(&text.to_ascii_lowercase()) {
            leaks.push(Leak {
                canary,
                case: cases[run.case].name.clone(),
                label: run.label.clone(),
                command: run.args.join(" "),
                line,
            });
        }
    }
    for (run, text) in runs.iter().zip(&outputs) {
        if run.label.starts_with("server") {
            assert!(
                text.contains("publishDiagnostics"),
                "the language server published nothing: {text}"
            );
        }
    }
    let missing = check_coverage(cases, &runs, &outputs);
    assert!(missing.is_empty(), "{missing:#?}");
    eprintln!(
        "{} canaries, {} runs: {} leaks",
        canaries.all.len(),
        runs.len(),
        leaks.len()
    );
    if !leaks.is_empty() {
        report(&leaks, &canaries.all);
    }
    leaks
}

// ---------------------------------------------------------------------------------------------
// YAML values judged as written: tags, anchors, flow collections

/// How a value may be written in YAML so that the scalar YAML reads is not all of it: a tag
/// (local, secondary, verbatim), an anchor, alone or before a value, a flow collection.
/// `{}` is the canary (a tag's or anchor's name takes it whole).
const YAML_VALUE_SHAPES: &[&str] = &[
    "!{}",
    "!!{}",
    "!<{}>",
    "&{}",
    "!{} plain",
    "&{} plain",
    "!!str &{} plain",
    "[{}]",
    "[ok, {}]",
    "{{}}",
    "{k: {}}",
    "{{}: v}",
    "[!{}]",
    "[&{} x]",
    "{k: !{}}",
    "! {}",
];

/// How a YAML reader writes a secret's name and value, the file it goes in.
struct YamlReader {
    name: &'static str,
    path: &'static str,
    template: &'static str,
    line: fn(&str) -> String,
}

const YAML_READERS: &[YamlReader] = &[
    YamlReader {
        name: "compose environment",
        path: "docker-compose.yml",
        template: "services:\n  kafka:\n    image: apache/kafka:3.9.1\n    environment:\n      KAFKA_NODE_ID: 1\n      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: 1\n      KAFKA_NUM_PARTITIONSX: 3\n{lines}",
        line: |value| {
            format!("      KAFKA_SSL_KEYSTORE_PASSWORD: {value}\n      MY_APP_TOKEN: {value}\n")
        },
    },
    YamlReader {
        name: "kubernetes env",
        path: "kafka.yaml",
        template: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: kafka\n          image: confluentinc/cp-kafka:7.6.1\n          env:\n            - name: KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR\n              value: \"1\"\n            - name: KAFKA_NUM_PARTITIONSX\n              value: \"3\"\n{lines}",
        line: |value| {
            format!("            - name: KAFKA_SSL_KEY_PASSWORD\n              value: {value}\n")
        },
    },
    YamlReader {
        name: "strimzi config",
        path: "kafka.yaml",
        template: "apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata:\n  name: my-cluster\nspec:\n  kafka:\n    replicas: 3\n    listeners:\n      - name: tls\n        port: 9093\n        type: internal\n        tls: true\n    config:\n      offsets.topic.replication.factor: 1\n      num.partitionsx: 3\n{lines}",
        line: |value| {
            format!("      ssl.keystore.password: {value}\n      my.app.secret: {value}\n")
        },
    },
    YamlReader {
        name: "chart values",
        path: "kafka-values.yaml",
        template: "image:\n  repository: bitnami/kafka\n  tag: 3.9.0-debian-12-r1\ncontroller:\n  replicaCount: 3\nextraConfig: |\n  offsets.topic.replication.factor=1\n  num.partitionsx=3\n{lines}",
        line: |value| format!("sasl:\n  interbroker:\n    password: {value}\n"),
    },
    YamlReader {
        name: "cp-ansible inventory",
        path: "hosts.yml",
        template: "all:\n  vars:\n    ssl_enabled: true\n{lines}kafka_broker:\n  vars:\n    kafka_broker_custom_properties:\n      offsets.topic.replication.factor: 1\n      num.partitionsx: 3\n  hosts:\n    kafka1.example.internal:\n    kafka2.example.internal:\n    kafka3.example.internal:\n",
        line: |value| format!("    ssl_keystore_store_password: {value}\n"),
    },
    YamlReader {
        name: "terraform values heredoc",
        path: "main.tf",
        template: "resource \"helm_release\" \"kafka\" {\n  repository = \"https://charts.bitnami.com/bitnami\"\n  chart      = \"kafka\"\n  version    = \"22.1.6\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    extraConfig: |\n      offsets.topic.replication.factor=1\n      num.partitionsx=3\n{lines}    EOF\n  ]\n}\n",
        line: |value| format!("    auth:\n      interBrokerPassword: {value}\n"),
    },
];

fn yaml_value_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("YAML values as written");
    for (reader_index, reader) in YAML_READERS.iter().enumerate() {
        for (shape_index, shape) in YAML_VALUE_SHAPES.iter().enumerate() {
            let family = format!("yaml value: {}", reader.name);
            let secret = c.secret(&family, shape, "");
            let lines = (reader.line)(&shape.replace("{}", &secret));
            let path = format!("tree/y{reader_index}-s{shape_index}/{}", reader.path);
            case.file(&path, reader.template.replace("{lines}", &lines));
            if shape_index == 0 {
                case.named.push(path.clone());
                case.stdin.push(path);
            }
            case.must_show
                .push(format!("y{reader_index}-s{shape_index}"));
        }
    }
    case
}

#[test]
fn yaml_values_are_judged_as_written() {
    let mut canaries = Canaries::new(seed() ^ 0x7961_6d6c);
    let cases = vec![yaml_value_case(&mut canaries)];
    let leaks = key_leaks(&cases, &canaries);
    assert_eq!(leaks.len(), 0, "tagged, anchored or flow values printed");
}

// ---------------------------------------------------------------------------------------------
// Terraform attributes shown on purpose

/// The attributes of a `helm_release` that output shows (which chart, where from, which
/// release), each written with a credential in a URL.
fn terraform_shown_case(c: &mut Canaries) -> Case {
    let mut case = Case::new("terraform attributes shown");
    let family = "terraform shown attribute";
    let shapes: &[(&str, &str)] = &[
        ("repository", "https://user:{}@charts.bitnami.com/bitnami"),
        (
            "repository",
            "oci://robot:{}@registry-1.docker.io/bitnamicharts",
        ),
        ("repository", "https://{}:x@charts.bitnami.com/bitnami"),
        (
            "chart",
            "oci://robot:{}@registry-1.docker.io/bitnamicharts/kafka",
        ),
        (
            "chart",
            "https://user:{}@registry-1.docker.io/bitnamicharts/kafka",
        ),
        ("name", "kafka password={}"),
        ("namespace", "token: {}"),
        ("version", "https://u:{}@h"),
    ];
    for (index, (attribute, template)) in shapes.iter().enumerate() {
        let secret = c.secret(family, &format!("{attribute} = \"{template}\""), "");
        let value = template.replace("{}", &secret);
        let (repository, chart, name, namespace, version) = {
            let pick = |which: &str, default: &str| {
                if *attribute == which {
                    value.clone()
                } else {
                    default.to_string()
                }
            };
            (
                pick("repository", "https://charts.bitnami.com/bitnami"),
                pick("chart", "kafka"),
                pick("name", "kafka"),
                pick("namespace", "kafka"),
                pick("version", "22.1.6"),
            )
        };
        case.file(
            &format!("tree/t{index}/main.tf"),
            format!(
                "resource \"helm_release\" \"kafka\" {{\n  name       = \"{name}\"\n  namespace  = \"{namespace}\"\n  repository = \"{repository}\"\n  chart      = \"{chart}\"\n  version    = \"{version}\"\n  values = [\n    <<-EOF\n    replicaCount: 3\n    extraConfig: |\n      offsets.topic.replication.factor=1\n      num.partitionsx=3\n    EOF\n  ]\n}}\n"
            ),
        );
        case.must_show.push(format!("t{index}"));
    }
    case.named.push("tree/t0/main.tf".into());
    case.stdin.push("tree/t0/main.tf".into());
    case
}

#[test]
fn terraform_shown_attributes_pass_the_credential_check() {
    let mut canaries = Canaries::new(seed() ^ 0x7466);
    let cases = vec![terraform_shown_case(&mut canaries)];
    let leaks = key_leaks(&cases, &canaries);
    assert_eq!(leaks.len(), 0, "credentials in shown attributes printed");
}
