//! `kafkalint server` in memory: a client speaks the Language Server Protocol to
//! `kafkalint::server::run` over lsp-server's in-memory connection, on a copy of the
//! internal-topic-replication fixture (three brokers with offsets.topic.replication.factor=1).

use std::path::Path;
use std::thread::JoinHandle;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// The seed scenario's broker 0, with a Latin-1 word in a UTF-8 comment, a `\u` escape, a
/// non-ASCII value before which a finding ends, and a password.
const BROKER_0: &str = "# Gr\u{f6}\u{df}e: caf\u{e9}\nbroker.id=0\nzookeeper.connect=zk:2181\n\
offsets.topic.replication.factor=1\ntransaction.state.log.replication.factor=1\n\
log.dirs=/tmp/kafka-logs-\u{e9}\nlisteners=PLAINTEXT://:9092\nssl.key.password=hunter2secret\n\
reserved.broker.max.id=10\\u0030\n\
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.\
PlainLoginModule required username=\"admin\" password=\"jaasSecret77\";\n";

/// What must never leave the server.
const SECRETS: &[&str] = &["hunter2secret", "jaasSecret77"];

/// Long enough for a slow build machine; only a server that never answers reaches it.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(300);

struct Client {
    connection: Connection,
    server: Option<JoinHandle<Result<bool, kafkalint::server::ServerError>>>,
    next_id: i32,
    /// Every message the server sent, as JSON text.
    seen: Vec<String>,
}

impl Client {
    fn start() -> Client {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || kafkalint::server::run(&server));
        Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
            seen: Vec::new(),
        }
    }

    fn receive(&mut self) -> Message {
        let message = self
            .connection
            .receiver
            .recv_timeout(PATIENCE)
            .expect("the server answers");
        self.seen.push(serde_json::to_string(&message).unwrap());
        message
    }

    /// Sends a request and returns its response; notifications that come first are kept for
    /// [`Client::notification`].
    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection
            .sender
            .send(Request::new(id.clone(), method.to_string(), params).into())
            .unwrap();
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                _ => {}
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.to_string(), params).into())
            .unwrap();
    }

    /// The next notification of `method` whose params satisfy `wanted`.
    fn notification(&mut self, method: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            if let Message::Notification(notification) = self.receive()
                && notification.method == method
                && wanted(&notification.params)
            {
                return notification.params;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let params = self.notification("textDocument/publishDiagnostics", |params| {
            params["uri"] == uri
        });
        params["diagnostics"].as_array().unwrap().clone()
    }

    fn initialize(&mut self, encodings: &[&str]) -> Value {
        let response = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": { "general": { "positionEncodings": encodings } },
            }),
        );
        self.notify("initialized", json!({}));
        response.response_result.expect("initialize succeeds")
    }

    fn open(&self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri, "languageId": "properties", "version": 1, "text": text,
            }}),
        );
    }

    fn finish(mut self) -> Vec<String> {
        let shutdown = self.request("shutdown", Value::Null);
        assert_eq!(
            shutdown.response_result.clone().ok(),
            Some(Value::Null),
            "{shutdown:?}"
        );
        let after = self.request("textDocument/hover", json!({}));
        assert_eq!(
            after.response_result.err().map(|error| error.code),
            Some(lsp_server::ErrorCode::InvalidRequest as i32)
        );
        self.notify("exit", Value::Null);
        let served = self.server.take().unwrap().join().expect("no panic");
        assert!(matches!(served, Ok(true)), "{served:?}");
        std::mem::take(&mut self.seen)
    }
}

fn uri(path: &Path) -> String {
    kafkalint::server::uri::from_path(path)
        .unwrap()
        .as_str()
        .to_string()
}

/// The seed scenario in a folder of its own.
fn scenario() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/internal-topic-replication/bad");
    for name in [
        "server-0.properties",
        "server-1.properties",
        "server-2.properties",
    ] {
        std::fs::copy(fixture.join(name), dir.path().join(name)).unwrap();
    }
    std::fs::write(dir.path().join("server-0.properties"), BROKER_0).unwrap();
    dir
}

fn with_code<'a>(diagnostics: &'a [Value], code: &str) -> Vec<&'a Value> {
    diagnostics.iter().filter(|d| d["code"] == code).collect()
}

fn range(line: u32, start: u32, end: u32) -> Value {
    json!({ "start": { "line": line, "character": start }, "end": { "line": line, "character": end } })
}

/// Applies `edits` (of one line each) to `text`, counting columns in UTF-8 bytes.
fn apply_utf8(text: &str, edits: &[Value]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|edit| std::cmp::Reverse(edit["range"]["start"]["character"].as_u64()));
    for edit in edits {
        let start = &edit["range"]["start"];
        let end = &edit["range"]["end"];
        assert_eq!(start["line"], end["line"], "{edit}");
        let line = &mut lines[start["line"].as_u64().unwrap() as usize];
        let (from, to) = (
            start["character"].as_u64().unwrap() as usize,
            end["character"].as_u64().unwrap() as usize,
        );
        line.replace_range(from..to, edit["newText"].as_str().unwrap());
    }
    lines.join("\n")
}

#[test]
fn diagnostics_code_actions_and_hover_over_utf16() {
    let dir = scenario();
    let broker_0 = uri(&dir.path().join("server-0.properties"));
    let broker_1 = uri(&dir.path().join("server-1.properties"));
    let mut client = Client::start();
    let initialized = client.initialize(&["utf-16"]);
    let capabilities = &initialized["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["hoverProvider"], true);

    client.open(&broker_0, BROKER_0);
    let diagnostics = client.diagnostics(&broker_0);
    let offsets = with_code(&diagnostics, "internal-topic-replication");
    assert_eq!(offsets.len(), 2, "{diagnostics:#?}");
    let offsets = offsets[0];
    assert_eq!(offsets["range"], range(3, 33, 34));
    assert_eq!(offsets["severity"], 1);
    assert_eq!(offsets["source"], "kafkalint");
    assert!(
        offsets["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("/rules/internal-topic-replication.md")
    );
    let message = offsets["message"].as_str().unwrap();
    assert!(
        // The document says which broker: its name does not lead the message.
        message.starts_with("offsets.topic.replication.factor=1"),
        "{message}"
    );
    assert!(message.contains("\nhelp: "), "{message}");
    // `é` is one UTF-16 unit and two bytes: the value ends at unit 26.
    let tmp = with_code(&diagnostics, "log-dirs-in-tmp");
    assert_eq!(tmp.len(), 1, "{diagnostics:#?}");
    assert_eq!(tmp[0]["range"], range(5, 9, 26));
    assert_eq!(tmp[0]["severity"], 2);
    // A finding of the three brokers: the other two as related information.
    let auto = with_code(&diagnostics, "auto-create-single-replica");
    let related = auto[0]["relatedInformation"].as_array().unwrap();
    let related: Vec<&str> = related
        .iter()
        .map(|r| r["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        related,
        [
            broker_1.as_str(),
            &uri(&dir.path().join("server-2.properties"))
        ]
    );
    assert_eq!(with_code(&diagnostics, "plaintext-secret").len(), 2);

    // Hover: the catalogue entry for the cluster's release (3.9, from zookeeper.connect).
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": broker_0 }, "position": { "line": 3, "character": 5 } }),
    );
    let text = hover.response_result.ok().unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    for expected in [
        "**offsets.topic.replication.factor** (Kafka 3.9",
        "- type: SHORT",
        "- default: `3`",
        "- valid values: [1,...]",
        "- importance: high",
        "https://kafka.apache.org/documentation/#brokerconfigs_offsets.topic.replication.factor",
    ] {
        assert!(text.contains(expected), "{expected} not in {text}");
    }
    let password = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": broker_0 }, "position": { "line": 7, "character": 2 } }),
    );
    let password = password.response_result.ok().unwrap()["contents"]["value"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(password.contains("- type: PASSWORD"), "{password}");
    // The JAAS line, key and value: whatever comes back is checked for the password below.
    for character in [40, 120] {
        client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": broker_0 }, "position": { "line": 9, "character": character } }),
        );
    }
    let on_value = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": broker_0 }, "position": { "line": 7, "character": 20 } }),
    );
    assert_eq!(on_value.response_result.ok(), Some(Value::Null));

    // The fix as a quick fix: the edit --fix makes.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": broker_0 },
            "range": range(3, 33, 34),
            "context": { "diagnostics": [offsets] },
        }),
    );
    let actions = actions.response_result.ok().unwrap();
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:#?}");
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    // An unsafe fix (as ruff's server offers one): offered, never preferred, and said so.
    assert_eq!(action["isPreferred"], false);
    assert_eq!(
        action["title"],
        "set offsets.topic.replication.factor=3 (internal-topic-replication, unsafe fix)"
    );
    assert_eq!(
        action["diagnostics"][0]["code"],
        "internal-topic-replication"
    );
    let edits = action["edit"]["changes"][broker_0.as_str()]
        .as_array()
        .unwrap();
    let fixed = apply_utf8(BROKER_0, edits);
    assert!(
        fixed.contains("\noffsets.topic.replication.factor=3\n"),
        "{fixed}"
    );
    assert_eq!(fixed.len(), BROKER_0.len());

    // Every fix at once: the edits `kafkalint check --fix` writes.
    let all = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": broker_0 },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 99, "character": 0 } },
            "context": { "diagnostics": [] },
        }),
    );
    let all = all.response_result.ok().unwrap();
    let edits: Vec<Value> = all
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|action| {
            action["edit"]["changes"][broker_0.as_str()]
                .as_array()
                .unwrap()
                .clone()
        })
        .collect();
    let options = kafkalint::Options::default();
    let path = dir.path().join("server-0.properties");
    let buffer = kafkalint::cluster::Buffer {
        path: &path,
        bytes: BROKER_0.as_bytes(),
    };
    let report = kafkalint::check_buffer(buffer, &options).unwrap();
    let fixed_by_cli = kafkalint::fix::fix(
        report,
        &options,
        kafkalint::diagnostic::Applicability::Unsafe,
    )
    .unwrap();
    let change = fixed_by_cli
        .changes
        .iter()
        .find(|change| change.path.ends_with("server-0.properties"))
        .unwrap();
    assert_eq!(
        apply_utf8(BROKER_0, &edits),
        String::from_utf8(change.after.clone()).unwrap()
    );

    // Broker 1 open beside it: its findings are published too.
    client.open(
        &broker_1,
        &std::fs::read_to_string(dir.path().join("server-1.properties")).unwrap(),
    );
    let before = client.diagnostics(&broker_1);
    assert!(
        with_code(&before, "inconsistent-cluster-value").is_empty(),
        "{before:#?}"
    );

    // The change, unsaved: broker 0's findings update.
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": broker_0, "version": 2 },
            "contentChanges": [{ "text": fixed }],
        }),
    );
    // (Opening broker 1 republished broker 0 as of version 1 first.)
    let params = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == broker_0.as_str() && p["version"] == 2
    });
    let changed = params["diagnostics"].as_array().unwrap();
    let remaining = with_code(changed, "internal-topic-replication");
    assert_eq!(remaining.len(), 1, "{changed:#?}");
    assert_eq!(remaining[0]["range"], range(4, 41, 42));
    // Now broker 0's offsets.topic.replication.factor differs from brokers 1 and 2.
    assert_eq!(
        with_code(changed, "inconsistent-cluster-value").len(),
        1,
        "{changed:#?}"
    );

    // Broker 1, of the same cluster, is checked again with broker 0's unsaved text.
    let unsaved = client.diagnostics(&broker_1);
    let differs = with_code(&unsaved, "inconsistent-cluster-value");
    assert_eq!(differs.len(), 1, "{unsaved:#?}");
    let related = differs[0]["relatedInformation"].as_array().unwrap();
    assert!(
        related
            .iter()
            .any(|r| r["location"]["uri"] == broker_0.as_str()),
        "{related:#?}"
    );

    // Saved: both are checked again.
    std::fs::write(dir.path().join("server-0.properties"), &fixed).unwrap();
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": broker_0 } }),
    );
    let saved = client.diagnostics(&broker_0);
    assert_eq!(with_code(&saved, "inconsistent-cluster-value").len(), 1);
    let after = client.diagnostics(&broker_1);
    assert_eq!(with_code(&after, "inconsistent-cluster-value").len(), 1);

    // The file on disk changed back by another program, then the document closed: an empty
    // list for it, and broker 1 checked again against the file on disk.
    std::fs::write(dir.path().join("server-0.properties"), BROKER_0).unwrap();
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": broker_0 } }),
    );
    let closed = client.notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == broker_0.as_str()
    });
    assert_eq!(closed["diagnostics"], json!([]));
    let back = client.diagnostics(&broker_1);
    assert!(
        with_code(&back, "inconsistent-cluster-value").is_empty(),
        "{back:#?}"
    );

    let seen = client.finish();
    assert!(seen.len() > 10, "{seen:#?}");
    let leaked: Vec<&String> = seen
        .iter()
        .filter(|m| SECRETS.iter().any(|secret| m.contains(secret)))
        .collect();
    assert!(leaked.is_empty(), "a password was sent: {leaked:#?}");
}

#[test]
fn utf8_is_chosen_when_offered() {
    let dir = scenario();
    let broker_0 = uri(&dir.path().join("server-0.properties"));
    let mut client = Client::start();
    let initialized = client.initialize(&["utf-8", "utf-16"]);
    assert_eq!(initialized["capabilities"]["positionEncoding"], "utf-8");
    client.open(&broker_0, BROKER_0);
    let diagnostics = client.diagnostics(&broker_0);
    let tmp = with_code(&diagnostics, "log-dirs-in-tmp");
    // Two bytes for `é`.
    assert_eq!(tmp[0]["range"], range(5, 9, 27));
    client.finish();
}

#[test]
fn bad_input_gets_errors_and_diagnostics_not_a_crash() {
    let dir = scenario();
    let mut client = Client::start();
    // A request before initialize is refused; initialize still works after it.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(
        early.response_result.err().map(|e| e.code),
        Some(lsp_server::ErrorCode::ServerNotInitialized as i32)
    );
    client.initialize(&[]);
    let malformed = client.request("textDocument/hover", json!({ "bogus": 1 }));
    assert_eq!(
        malformed.response_result.err().map(|e| e.code),
        Some(lsp_server::ErrorCode::InvalidParams as i32)
    );
    let unknown = client.request("kafkalint/nothing", json!({}));
    assert_eq!(
        unknown.response_result.err().map(|e| e.code),
        Some(lsp_server::ErrorCode::MethodNotFound as i32)
    );
    // A malformed notification is logged.
    client.notify("textDocument/didOpen", json!({ "textDocument": 7 }));
    let logged = client.notification("window/logMessage", |_| true);
    assert!(
        logged["message"]
            .as_str()
            .unwrap()
            .starts_with("textDocument/didOpen: ")
    );
    // A folder named like a broker file: one diagnostic says why it is not checked.
    let folder = dir.path().join("server-9.properties");
    std::fs::create_dir(&folder).unwrap();
    let folder = uri(&folder);
    client.open(&folder, "broker.id=9\n");
    let diagnostics = client.diagnostics(&folder);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("is a directory"),
        "{diagnostics:#?}"
    );
    // A YAML file that deploys no Kafka: a log line, no findings.
    let workflow = uri(&dir.path().join("docker-compose.yml"));
    client.open(&workflow, "services:\n  web:\n    image: nginx\n");
    let diagnostics = client.diagnostics(&workflow);
    assert_eq!(diagnostics, Vec::<Value>::new());
    // A document that is no file.
    client.open("untitled:Untitled-1", "broker.id=0\n");
    let logged = client.notification("window/logMessage", |_| true);
    assert!(
        logged["message"].as_str().unwrap().contains("not a file"),
        "{logged}"
    );
    // Hover and code actions on a document never opened: nothing, no error.
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": "file:///nowhere/server.properties" }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(hover.response_result.ok(), Some(Value::Null));
    client.finish();
}

#[test]
fn exit_without_shutdown_is_reported() {
    let mut client = Client::start();
    client.initialize(&[]);
    client.notify("exit", Value::Null);
    let served = client.server.take().unwrap().join().expect("no panic");
    assert!(matches!(served, Ok(false)), "{served:?}");
}

/// A compose file and a Strimzi resource: the YAML forms are checked as `check` reads them,
/// hover reads the key a variable or a `config` entry sets.
#[test]
fn yaml_forms_get_diagnostics_and_hover() {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/internal-topic-replication");
    let mut client = Client::start();
    client.initialize(&["utf-8"]);
    for (folder, file, key) in [
        (
            "bad-compose",
            "docker-compose.yml",
            "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
        ),
        (
            "bad-strimzi-replicas",
            "kafka.yaml",
            "offsets.topic.replication.factor",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(fixtures.join(folder).join(file)).unwrap();
        std::fs::write(&path, &text).unwrap();
        let document = uri(&path);
        client.open(&document, &text);
        let diagnostics = client.diagnostics(&document);
        let found = with_code(&diagnostics, "internal-topic-replication");
        assert!(!found.is_empty(), "{folder}: {diagnostics:#?}");
        let (line, column) = text
            .lines()
            .enumerate()
            .find_map(|(line, content)| content.find(key).map(|column| (line, column)))
            .unwrap();
        let hover = client.request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": document }, "position": { "line": line, "character": column + 2 } }),
        );
        let hover = hover.response_result.ok().unwrap();
        let text = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            text.contains("**offsets.topic.replication.factor**"),
            "{folder}: {hover}"
        );
    }
    client.finish();
}

/// The binary over stdio: `shutdown` then `exit` exits 0, `exit` alone 1, a message that is not
/// JSON-RPC 2 with a one-line error that does not quote it.
#[test]
fn the_binary_exits_as_the_protocol_asks() {
    use std::io::Write;
    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }
    let initialize =
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
    let shutdown = r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
    let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
    let malformed = r#"{"password":"hunter2secret"x}"#;
    let cases: [(&[&str], i32); 3] = [
        (&[initialize, initialized, shutdown, exit], 0),
        (&[initialize, initialized, exit], 1),
        (&[initialize, initialized, malformed], 2),
    ];
    for (messages, code) in cases {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .arg("server")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for message in messages {
            stdin.write_all(&framed(message)).unwrap();
        }
        drop(stdin);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{messages:?}: {stderr}");
        assert!(!stderr.contains("hunter2secret"), "{stderr}");
        if code == 2 {
            assert_eq!(
                stderr,
                "kafkalint: error: server: the client sent a message that is not JSON-RPC\n"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile framing: a header may claim any length; the server reads no more than its cap.
// ---------------------------------------------------------------------------------------------

/// The binary fed `headers` (after a valid `initialize`), its input left open as a client that
/// sends nothing more would leave it: it must stop on its own, one line on stderr, exit 2,
/// without allocating what the header claims.
fn server_fed_headers(headers: &str) -> std::process::Output {
    use std::io::Write;
    let initialize =
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .arg("server")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = format!(
        "Content-Length: {}\r\n\r\n{initialize}{headers}",
        initialize.len()
    );
    // The server may stop reading (and close its end) before all of it is written.
    let _ = stdin.write_all(input.as_bytes());
    let _ = stdin.flush();
    let id = child.id();
    let waiting = std::thread::spawn(move || child.wait_with_output().unwrap());
    let started = std::time::Instant::now();
    while !waiting.is_finished() {
        if started.elapsed() > std::time::Duration::from_secs(60) {
            let _ = std::process::Command::new("kill")
                .args(["-9", &id.to_string()])
                .status();
            panic!("{headers:?}: the server still waits after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stdin);
    waiting.join().unwrap()
}

#[test]
fn a_message_longer_than_the_cap_stops_the_server_with_one_line() {
    let cap = kafkalint::server::transport::MAX_MESSAGE_BYTES;
    // Lengths from just past the cap to past what a u64 holds, as one header among others.
    let lengths = [
        (cap + 1).to_string(),
        (cap * 3 + 7).to_string(),
        "1000000000000".to_string(),
        u64::MAX.to_string(),
        format!("9{}", "9".repeat(30)),
    ];
    for (index, length) in lengths.iter().enumerate() {
        let headers = match index % 3 {
            0 => format!("Content-Length: {length}\r\n\r\n{{"),
            1 => format!("content-length: {length}\r\nContent-Type: application/json\r\n\r\n"),
            _ => format!("Content-Type: x\r\nContent-Length: {length}\r\n\r\n"),
        };
        let output = server_fed_headers(&headers);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{length}: {stderr}");
        assert_eq!(
            stderr,
            format!(
                "kafkalint: error: server: the client sent a message of {length} bytes, more than the 64 MiB kafkalint reads\n"
            ),
        );
        // The editor is told why, after the answer to `initialize`.
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains("window/showMessage"), "{stdout}");
    }
    // A header line with no end, or no blank line after the headers, is read only so far.
    for headers in [
        format!("X-Filler: {}", "a".repeat(1 << 20)),
        "Content-Length: 12\n\n".to_string(),
    ] {
        let output = server_fed_headers(&headers);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("kafkalint: error: server: the client sent a header"));
    }
}

// ---- Time and size bounds: what is published grows with the findings, a hover reads the
// last check.

/// A compose file of `services` KRaft services, none with a log directory (one
/// log-dirs-in-tmp finding grouped over every service) and each naming only the first three as
/// voters (a kraft-controller-config finding grouped over all but those).
fn kraft_compose(services: usize) -> String {
    let mut text = String::from("services:\n");
    for node in 1..=services {
        text.push_str(&format!(
            "  kafka-{node}:\n    image: apache/kafka:3.9.0\n    environment:\n\
             \x20     KAFKA_PROCESS_ROLES: broker,controller\n\
             \x20     KAFKA_NODE_ID: {node}\n\
             \x20     KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093\n\
             \x20     KAFKA_LISTENERS: PLAINTEXT://:9092,CONTROLLER://:9093\n\
             \x20     KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://kafka-{node}:9092\n\
             \x20     KAFKA_CONTROLLER_LISTENER_NAMES: CONTROLLER\n\
             \x20     KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\n\
             \x20     CLUSTER_ID: ohEfzflmT6-TloTKzfp5YA\n"
        ));
    }
    text
}

/// Opens `text` as `name` in a folder of its own; returns the published diagnostics, how
/// long they took, and the client.
fn open_alone(
    name: &str,
    text: &str,
) -> (Vec<Value>, std::time::Duration, Client, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    let mut client = Client::start();
    client.initialize(&[]);
    let started = std::time::Instant::now();
    client.open(&uri(&path), text);
    let diagnostics = client.diagnostics(&uri(&path));
    (diagnostics, started.elapsed(), client, dir)
}

/// The capped related places of a finding about every service say how many more there are;
/// the one finding at a sibling's place and every node's own are there still.
#[test]
fn related_places_are_capped_and_say_how_many_more() {
    for services in [4, 11, 12, 30] {
        let (diagnostics, _, client, _dir) =
            open_alone("docker-compose.yml", &kraft_compose(services));
        let grouped = with_code(&diagnostics, "log-dirs-in-tmp");
        assert_eq!(grouped.len(), services, "{services}: {grouped:#?}");
        for diagnostic in &diagnostics {
            let related = diagnostic["relatedInformation"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert!(related.len() <= 10, "{services}: {diagnostic:#}");
        }
        // A finding about every service has a place on each: the others are related.
        let widest = grouped
            .iter()
            .map(|d| d["relatedInformation"].as_array().map_or(0, Vec::len))
            .max()
            .unwrap();
        let others = services - 1;
        assert_eq!(widest, others.min(10), "{services}: {grouped:#?}");
        let said: Vec<&str> = grouped
            .iter()
            .filter_map(|d| d["relatedInformation"].as_array()?.last()?["message"].as_str())
            .collect();
        let more = others.saturating_sub(10);
        let places = if more == 1 { "place" } else { "places" };
        let wording = format!("(and {more} more {places}: `kafkalint check` lists them all)");
        assert_eq!(
            said.iter().any(|message| message.ends_with(&wording)),
            more > 0,
            "{services}: {said:#?}"
        );
        client.finish();
    }
}

/// Many services: what is published a change grows with the findings, not with their square
/// (each service's finding listed every other service: 400 services, 38 MB in 11 s).
#[test]
fn a_compose_file_of_many_services_is_published_in_time() {
    let services = 600;
    let (diagnostics, took, client, _dir) =
        open_alone("docker-compose.yml", &kraft_compose(services));
    assert!(diagnostics.len() >= services, "{}", diagnostics.len());
    let published = serde_json::to_string(&diagnostics).unwrap().len();
    // About 2 KB a diagnostic with ten related places; a quadratic list is 20 times that.
    assert!(
        published < diagnostics.len() * 4096,
        "{published} bytes for {} diagnostics",
        diagnostics.len()
    );
    // Well above what a debug build takes on a loaded machine; the quadratic list took
    // several times this.
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    client.finish();
}

/// Hovers read the document's last check: many hovers on a large file come at once, and a
/// change is read by the next hover.
#[test]
fn many_hovers_on_a_large_file_are_answered_in_time() {
    let mut text = String::from("broker.id=0\nlisteners=PLAINTEXT://:9092\n");
    for key in 0..5000 {
        text.push_str(&format!("num.io.threads.{key}=8\n"));
    }
    let (_, _, mut client, dir) = open_alone("server.properties", &text);
    let document = uri(&dir.path().join("server.properties"));
    let hover = |client: &mut Client, line: u32| {
        client
            .request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": document }, "position": { "line": line, "character": 2 } }),
            )
            .response_result
            .expect("a hover answers")
    };
    let started = std::time::Instant::now();
    for line in 0..40 {
        let answer = hover(&mut client, line);
        let value = answer["contents"]["value"].as_str().unwrap_or_default();
        match line {
            0 => assert!(value.starts_with("**broker.id**"), "{answer}"),
            1 => assert!(value.starts_with("**listeners**"), "{answer}"),
            _ => assert_eq!(answer, Value::Null),
        }
    }
    // A check of this file takes about a second in a debug build: forty checks would not fit.
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    // The next hover reads the changed text.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": document, "version": 2 },
                "contentChanges": [{ "text": "log.dirs=/data\nbroker.id=0\n" }] }),
    );
    client.diagnostics(&document);
    let answer = hover(&mut client, 0);
    assert!(
        answer["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .starts_with("**log.dirs**"),
        "{answer}"
    );
    client.finish();
}

/// A safe fix (a repeated line removed) is the preferred quick fix, its title as the rule's
/// fix says it; beside it, an unsafe one is offered, not preferred, and says it is unsafe.
#[test]
fn safe_fixes_are_preferred_and_unsafe_ones_say_so() {
    let text = "broker.id=0\nzookeeper.connect=zk:2181\nlog.retention.hours=24\n\
                log.retention.hours=24\ntransaction.state.log.replication.factor=5\n";
    let (diagnostics, _, mut client, dir) = open_alone("server.properties", text);
    let path = uri(&dir.path().join("server.properties"));
    let mut actions = Vec::new();
    // The repeated key from line 3, the factor on line 5 (0-based: 2 and 4).
    for (code, line) in [("duplicate-key", 2), ("internal-topic-replication", 4)] {
        let found: Vec<&Value> = with_code(&diagnostics, code)
            .into_iter()
            .filter(|found| found["range"]["start"]["line"] == line)
            .collect();
        assert!(!found.is_empty(), "{code}: {diagnostics:#?}");
        let answer = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": path },
                "range": found[0]["range"],
                "context": { "diagnostics": [found[0]] },
            }),
        );
        let answer = answer.response_result.ok().unwrap();
        let answer = answer.as_array().unwrap();
        let action = answer
            .iter()
            .find(|action| action["diagnostics"][0]["code"] == code)
            .unwrap_or_else(|| panic!("{code}: {answer:#?}"))
            .clone();
        actions.push(action);
    }
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(
        actions[0]["title"],
        "remove the repeated log.retention.hours line (duplicate-key)"
    );
    assert_eq!(actions[1]["isPreferred"], false);
    assert!(
        actions[1]["title"]
            .as_str()
            .unwrap()
            .ends_with("(internal-topic-replication, unsafe fix)"),
        "{:#}",
        actions[1]
    );
    client.finish();
}
