//! `kafkalint live` against what is not a healthy Kafka cluster: an address nobody listens on, a
//! port that speaks HTTP, one that never answers, bad arguments and bad snapshots. Each is one
//! line naming the address or the file, exit 2, within the timeout; never a panic. (Real
//! clusters, with every listener kind, are in tests/cluster.)

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn kafkalint(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(args)
        .output()
        .expect("runs")
}

/// Exit 2 with one line on stderr that contains `expected`, nothing on stdout.
fn refused(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(expected), "`{expected}` in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn an_address_nobody_listens_on() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let address = format!("127.0.0.1:{port}");
    let output = kafkalint(&["live", "--bootstrap-server", &address]);
    refused(&output, &format!("cannot connect to {address}"));
}

#[test]
fn a_port_that_speaks_http_is_no_kafka_broker() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut request = [0u8; 64];
        let _ = stream.read(&mut request);
        let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    });
    let output = kafkalint(&["live", "--bootstrap-server", &address]);
    refused(&output, "does not answer as a Kafka broker");
    server.join().unwrap();
}

#[test]
fn a_port_that_never_answers_is_bounded_by_the_timeout() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        // Holds the connection open without a word until kafkalint gives up.
        std::thread::sleep(Duration::from_secs(3));
        drop(stream);
    });
    let started = Instant::now();
    let output = kafkalint(&["live", "--bootstrap-server", &address, "--timeout", "1"]);
    refused(&output, "no answer within 1 s");
    // A bound, not a speed target: without one, the run would wait for the server to hang up.
    assert!(started.elapsed() < Duration::from_secs(5));
    server.join().unwrap();
}

#[test]
fn bad_arguments_and_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    refused(
        &kafkalint(&["live", "--bootstrap-server", "kafka-0"]),
        "`kafka-0` is not host:port",
    );
    let with_config = |name: &str| {
        kafkalint(&[
            "live",
            "--bootstrap-server",
            "127.0.0.1:9",
            "--command-config",
            &path(name),
        ])
    };
    refused(&with_config("missing.properties"), "missing.properties");
    std::fs::write(path("gssapi.properties"), "security.protocol=SASL_SSL\n").unwrap();
    refused(&with_config("gssapi.properties"), "sasl.mechanism");
    // A JAAS line's password never appears in an error about the file.
    std::fs::write(
        path("jks.properties"),
        "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nssl.truststore.location=trust.jks\n\
         sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \
         username=\"u\" password=\"hunter2-secret\";\n",
    )
    .unwrap();
    let jks = with_config("jks.properties");
    refused(&jks, "keytool -exportcert -rfc");
    assert!(!String::from_utf8_lossy(&jks.stderr).contains("hunter2"));
    std::fs::write(path("bad.snapshot"), "broker.0=kafka-0:9092\n").unwrap();
    refused(
        &kafkalint(&["live", "--snapshot", &path("bad.snapshot")]),
        "bad.snapshot: no `bootstrap` line",
    );
    std::fs::write(
        path("good.snapshot"),
        "bootstrap=kafka-0:9092\nbroker.0=kafka-0:9092\n",
    )
    .unwrap();
    refused(
        &kafkalint(&[
            "live",
            "--snapshot",
            &path("good.snapshot"),
            "--stopping",
            "7",
        ]),
        "no live broker has id 7",
    );
}

#[test]
fn a_saved_snapshot_is_judged_in_every_format_without_a_cluster() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/live-internal-topic-replication/bad-no-files/live.snapshot"
    );
    for format in ["full", "concise", "json", "github", "sarif"] {
        let output = kafkalint(&["live", "--snapshot", fixture, "--format", format]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{format}: {stdout}");
        assert!(
            stdout.contains("live-internal-topic-replication"),
            "{format}: {stdout}"
        );
    }
}

/// A request as recorded (its correlation id cut out) and the broker's answer (likewise).
type Exchange = (Vec<u8>, Vec<u8>);

/// `tests/live/recorded/<release>/broker-N.bin`: what kafkalint asked broker N of a real 3-broker
/// cluster and what it answered, as `[size][request without correlation id][size][response
/// without correlation id]`..., recorded by a proxy between them (the brokers advertised the
/// proxy's ports 29090 to 29092).
fn recorded(release: &str, broker: usize) -> Vec<Exchange> {
    let path = format!(
        "{}/tests/live/recorded/{release}/broker-{broker}.bin",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap();
    let mut exchanges = Vec::new();
    let mut rest = bytes.as_slice();
    let take = |rest: &mut &[u8]| {
        let size = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        let frame = rest[4..4 + size].to_vec();
        *rest = &rest[4 + size..];
        frame
    };
    while !rest.is_empty() {
        let request = take(&mut rest);
        let response = take(&mut rest);
        exchanges.push((request, response));
    }
    exchanges
}

/// Replaces, in a recorded answer, every broker address `127.0.0.1` + the recorded port (the
/// host as a compact or plain string, then the port as a 32-bit integer: Metadata's and
/// FindCoordinator's layout) with the port this test's server listens on.
fn moved(response: &[u8], ports: &[(u16, u16)]) -> Vec<u8> {
    let mut out = response.to_vec();
    for (recorded, now) in ports {
        let mut from = b"127.0.0.1".to_vec();
        from.extend_from_slice(&i32::from(*recorded).to_be_bytes());
        let mut to = b"127.0.0.1".to_vec();
        to.extend_from_slice(&i32::from(*now).to_be_bytes());
        let mut at = 0;
        while let Some(found) = out[at..].windows(from.len()).position(|w| w == from) {
            let start = at + found;
            out[start..start + to.len()].copy_from_slice(&to);
            at = start + to.len();
        }
    }
    out
}

/// Serves broker `broker`'s recorded answers: each request must be byte for byte one that was
/// recorded (kafkalint asks what it asked then), else the connection is closed.
fn replay(listener: TcpListener, exchanges: Vec<Exchange>, ports: Vec<(u16, u16)>) {
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let exchanges = exchanges.clone();
            let ports = ports.clone();
            std::thread::spawn(move || {
                loop {
                    let mut size = [0u8; 4];
                    if stream.read_exact(&mut size).is_err() {
                        return;
                    }
                    let mut frame = vec![0u8; u32::from_be_bytes(size) as usize];
                    if stream.read_exact(&mut frame).is_err() || frame.len() < 8 {
                        return;
                    }
                    let correlation = frame[4..8].to_vec();
                    let request: Vec<u8> = [&frame[..4], &frame[8..]].concat();
                    let Some((_, response)) = exchanges.iter().find(|(r, _)| *r == request) else {
                        return;
                    };
                    let body = [correlation, moved(response, &ports)].concat();
                    let mut answer = (body.len() as u32).to_be_bytes().to_vec();
                    answer.extend_from_slice(&body);
                    if stream.write_all(&answer).is_err() {
                        return;
                    }
                }
            });
        }
    });
}

/// kafkalint live against the recorded answers of a real cluster of `release` gives the snapshot
/// it gave against the cluster itself (`expected.snapshot`, saved then), and its findings.
fn replayed(release: &str) -> (String, Output) {
    let listeners: Vec<TcpListener> = (0..3)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let ports: Vec<(u16, u16)> = listeners
        .iter()
        .enumerate()
        .map(|(broker, listener)| (29090 + broker as u16, listener.local_addr().unwrap().port()))
        .collect();
    for (broker, listener) in listeners.into_iter().enumerate() {
        replay(listener, recorded(release, broker), ports.clone());
    }
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("live.snapshot");
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &format!("127.0.0.1:{}", ports[0].1),
        "--group",
        "testGroup",
        "--group",
        "otherGroup",
        "--save-snapshot",
        saved.to_str().unwrap(),
        "--format",
        "concise",
    ]);
    let mut snapshot = std::fs::read_to_string(&saved).unwrap_or_default();
    for (recorded, now) in &ports {
        snapshot = snapshot.replace(
            &format!("127.0.0.1:{now}"),
            &format!("127.0.0.1:{recorded}"),
        );
    }
    let expected = std::fs::read_to_string(format!(
        "{}/tests/live/recorded/{release}/expected.snapshot",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(
        snapshot,
        expected,
        "{release}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (snapshot, output)
}

#[test]
fn recorded_answers_of_kafka_4_4_in_kraft_mode_and_3_9_in_zookeeper_mode() {
    for release in ["kafka-4.4.0-kraft", "kafka-3.9.2-zookeeper"] {
        let (snapshot, output) = replayed(release);
        assert!(snapshot.contains("partition.__consumer_offsets-49=leader="));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{release}: {stdout}");
        assert!(
            stdout.contains(
                "error[live-internal-topic-replication] __consumer_offsets has 1 replica"
            ),
            "{release}: {stdout}"
        );
        assert!(
            stdout.contains("warning[live-group-coordinator] group `testGroup`"),
            "{release}: {stdout}"
        );
    }
}

/// Kafka never sends a sensitive setting's value, but a snapshot is a file people may edit, and
/// a broker file beside it holds passwords: no output format shows either, even when a finding
/// points at their very lines.
#[test]
fn no_format_shows_a_password_of_the_snapshot_or_the_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("server-0.properties"),
        "process.roles=broker,controller\nnode.id=0\ncontroller.quorum.voters=0@kafka-0:9093\n\
         listeners=PLAINTEXT://kafka-0:9092,CONTROLLER://kafka-0:9093\ncontroller.listener.names=CONTROLLER\n\
         log.dirs=/var/lib/kafka/data\nssl.keystore.password=file-pass-secret\n\
         sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \
         username=\"u\" password=\"jaas-file-secret\";\n",
    )
    .unwrap();
    let snapshot = dir.path().join("live.snapshot");
    std::fs::write(
        &snapshot,
        "# kafkalint live: what the cluster behind kafka-0:9092 answered. token=comment-secret\n\
         bootstrap=kafka-0:9092\nbroker.0=kafka-0:9092\nconfig.0.static.node.id=0\n\
         config.0.static.ssl.keystore.password=snapshot-pass-secret\n\
         config.0.static.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \
         username=\"u\" password=\"jaas-snapshot-secret\";\n\
         config.0.static.my.custom.token=custom-secret\n",
    )
    .unwrap();
    for format in ["full", "concise", "json", "github", "sarif"] {
        let output = kafkalint(&[
            "live",
            "--snapshot",
            snapshot.to_str().unwrap(),
            dir.path().to_str().unwrap(),
            "--format",
            format,
            "--color",
            "never",
        ]);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            text.contains("live-config-drift"),
            "{format}: the drift findings point at the secret lines: {text}"
        );
        for secret in [
            "file-pass-secret",
            "snapshot-pass-secret",
            "jaas-file-secret",
            "jaas-snapshot-secret",
            "custom-secret",
            "comment-secret",
        ] {
            assert!(!text.contains(secret), "{format} shows {secret}: {text}");
        }
    }
}

/// A broker's host name is the server's word: Metadata naming brokers 1 and 2 at hosts that
/// hold a line break (LF, CR, CRLF, NEL, U+2028, a terminal escape) and a GitHub Actions
/// workflow command (`::error::`, `##[error]`) reaches no output raw. The recorded answers of
/// broker 0 are replayed with those hosts in place of `127.0.0.1` (the same length, so the
/// frames stay whole); kafkalint cannot reach brokers 1 and 2 and says so, naming them.
#[test]
fn a_broker_host_from_metadata_is_never_printed_raw() {
    // Nine bytes each, as `127.0.0.1`; the port that follows the host makes `::error::29091`.
    let hosts: [&[u8]; 8] = [
        b"\n::error:",
        b"\r::error:",
        b"\r\n::stop:",
        "\u{85}::error".as_bytes(),
        "\u{2028}::erro".as_bytes(),
        b"\x1b[2K\n::x:",
        b"##[error]",
        b" \t\n \t::e:",
    ];
    let forbidden = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    let own_annotation = |line: &str| {
        ["::error file=", "::warning file=", "::notice file="]
            .iter()
            .any(|start| line.starts_with(start))
    };
    let mut printed = String::new();
    for (round, pair) in hosts.chunks(2).enumerate() {
        for format in ["full", "concise", "github", "json"] {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let release = ["kafka-4.4.0-kraft", "kafka-3.9.2-zookeeper"][round % 2];
            let exchanges = recorded(release, 0)
                .into_iter()
                .map(|(request, mut response)| {
                    for (broker, host) in pair.iter().enumerate() {
                        let mut from = b"127.0.0.1".to_vec();
                        from.extend_from_slice(&(29091 + broker as i32).to_be_bytes());
                        let mut to = host.to_vec();
                        to.extend_from_slice(&(29091 + broker as i32).to_be_bytes());
                        let mut at = 0;
                        while let Some(found) =
                            response[at..].windows(from.len()).position(|w| w == from)
                        {
                            response[at + found..at + found + to.len()].copy_from_slice(&to);
                            at += found + to.len();
                        }
                    }
                    (request, response)
                })
                .collect();
            replay(listener, exchanges, vec![(29090, port)]);
            let output = kafkalint(&[
                "live",
                "--bootstrap-server",
                &format!("127.0.0.1:{port}"),
                "--timeout",
                "5",
                "--format",
                format,
            ]);
            for (stream, text, annotations) in [
                ("stdout", &output.stdout, format == "github"),
                ("stderr", &output.stderr, false),
            ] {
                let text = String::from_utf8_lossy(text);
                for line in text.split('\n') {
                    let trimmed = line.trim_start();
                    assert!(
                        !trimmed.starts_with("::") || (annotations && own_annotation(line)),
                        "{format}, {stream}: a workflow command: {line:?}\n{text}"
                    );
                    assert!(!line.contains("##["), "{format}, {stream}: {line:?}");
                    assert!(
                        !line.chars().any(forbidden),
                        "{format}, {stream}: a raw control character: {line:?}"
                    );
                }
                assert!(!text.contains("panicked"), "{text}");
                printed.push_str(&text);
            }
        }
    }
    // The hosts reached the output (escaped): the test saw what it guards.
    assert!(printed.contains("\\u{"), "{printed}");
}
