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
    refused(&jks, "keytool -exportcert -rfc -keystore trust.jks");
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

/// DescribeCluster, asked since these answers were recorded, answered as those brokers (no
/// authorizer) answer it: every operation on the cluster. The body after the correlation id.
fn describe_cluster_answer(version: i16) -> Vec<u8> {
    use kafka_protocol::messages::{ApiKey, DescribeClusterResponse, ResponseHeader};
    use kafka_protocol::protocol::Encodable;
    let mut body = bytes::BytesMut::new();
    ResponseHeader::default()
        .encode(
            &mut body,
            ApiKey::DescribeCluster.response_header_version(version),
        )
        .unwrap();
    DescribeClusterResponse::default()
        .with_cluster_authorized_operations(hostile::ALL_CLUSTER_OPERATIONS)
        .encode(&mut body, version)
        .unwrap();
    body[4..].to_vec()
}

/// Serves broker `broker`'s recorded answers: each request must be byte for byte one that was
/// recorded (kafkalint asks what it asked then), else the connection is closed; DescribeCluster
/// alone, asked since, is answered by [`describe_cluster_answer`].
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
                    const DESCRIBE_CLUSTER: [u8; 2] = [0, 60];
                    let response = match exchanges.iter().find(|(r, _)| *r == request) {
                        Some((_, response)) => moved(response, &ports),
                        None if request[..2] == DESCRIBE_CLUSTER => {
                            describe_cluster_answer(i16::from_be_bytes([request[2], request[3]]))
                        }
                        None => match recorded_topic_configs(&exchanges, &request) {
                            Some(response) => response,
                            None => return,
                        },
                    };
                    let body = [correlation, response].concat();
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

/// The topics' DescribeConfigs, asked since for every key (these recordings asked for
/// `min.insync.replicas` alone), answered with what the brokers answered then for the same
/// topics: each topic's effective `min.insync.replicas` and no config set on the topic, so the
/// replayed snapshots say `overrides=0` (the real `__consumer_offsets` has three).
fn recorded_topic_configs(exchanges: &[Exchange], request: &[u8]) -> Option<Vec<u8>> {
    let resources = |asked: kafka_protocol::messages::DescribeConfigsRequest| {
        let names = asked.resources.into_iter();
        names
            .map(|r| (r.resource_type, r.resource_name))
            .collect::<Vec<_>>()
    };
    let asked = resources(describe_configs_request(request)?);
    exchanges
        .iter()
        .find(|(recorded, _)| {
            describe_configs_request(recorded).is_some_and(|old| resources(old) == asked)
        })
        .map(|(_, response)| response.clone())
}

/// A recorded or replayed request (its correlation id cut out) read as DescribeConfigs.
fn describe_configs_request(
    request: &[u8],
) -> Option<kafka_protocol::messages::DescribeConfigsRequest> {
    use kafka_protocol::messages::{ApiKey, DescribeConfigsRequest, RequestHeader};
    use kafka_protocol::protocol::Decodable;
    if request.len() < 4 || request[..2] != (ApiKey::DescribeConfigs as i16).to_be_bytes() {
        return None;
    }
    let version = i16::from_be_bytes([request[2], request[3]]);
    let framed = [&request[..4], &[0u8; 4][..], &request[4..]].concat();
    let mut body = bytes::Bytes::from(framed);
    RequestHeader::decode(
        &mut body,
        ApiKey::DescribeConfigs.request_header_version(version),
    )
    .ok()?;
    DescribeConfigsRequest::decode(&mut body, version).ok()
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
        // ZooKeeper-mode brokers do not offer DescribeQuorum; the KRaft recording predates it,
        // so the replay hangs up on it: the run says the quorum is not known and goes on.
        let quorum = if release.contains("zookeeper") {
            "\nquorum=zookeeper\n"
        } else {
            "\nquorum.unknown=no answer to DescribeQuorum"
        };
        assert!(snapshot.contains(quorum), "{release}");
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

// ---------------------------------------------------------------------------------------------
// Hostile and broken servers: lengths, sizes, counts, time and text a server chooses. Each fake
// broker is built from Kafka's own message types (the kafka-protocol crate kafkalint uses), on
// 127.0.0.1, and changed where the test says.

mod hostile {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::process::{Command, Output, Stdio};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    use kafka_protocol::messages::api_versions_response::ApiVersion;
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult,
    };
    use kafka_protocol::messages::metadata_response::{
        MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
    };
    use kafka_protocol::messages::{
        ApiKey, ApiVersionsResponse, BrokerId, DescribeClusterResponse, DescribeConfigsRequest,
        DescribeConfigsResponse, DescribeQuorumResponse, FindCoordinatorResponse,
        ListGroupsResponse, MetadataRequest, MetadataResponse, RequestHeader, ResponseHeader,
        SaslAuthenticateRequest, SaslAuthenticateResponse, SaslHandshakeResponse, TopicName,
    };
    use kafka_protocol::protocol::{Decodable, Encodable, StrBytes};

    /// A request as the fake broker read it.
    pub struct Request {
        pub key: ApiKey,
        pub version: i16,
        pub correlation: i32,
        pub body: bytes::Bytes,
    }

    /// What the fake broker does with a request.
    pub enum Reply {
        /// Writes these bytes (a whole frame, or anything).
        Bytes(Vec<u8>),
        /// Writes these bytes one at a time, `Duration` apart.
        Trickle(Vec<u8>, Duration),
        /// The default answer of a healthy broker.
        Healthy,
        /// The default answer, changed.
        Edited(Box<dyn FnOnce(Vec<u8>) -> Vec<u8> + Send>),
    }

    /// How many connections are open at once, at most.
    #[derive(Default)]
    pub struct Load {
        open: AtomicUsize,
        pub peak: AtomicUsize,
        pub broker_configs_asked: AtomicUsize,
    }

    /// A fake cluster of `brokers` brokers, all behind one port of 127.0.0.1 (each advertised
    /// under its own id), answering as `behave` says, else as a healthy Kafka 3.9 broker would.
    pub struct Cluster {
        pub port: u16,
        pub load: Arc<Load>,
    }

    impl Cluster {
        pub fn start(
            brokers: usize,
            behave: impl Fn(&Request) -> Reply + Send + Sync + 'static,
        ) -> Cluster {
            Cluster::with_hosts(brokers, |_| "127.0.0.1".to_string(), behave)
        }

        pub fn with_hosts(
            brokers: usize,
            host: impl Fn(usize) -> String,
            behave: impl Fn(&Request) -> Reply + Send + Sync + 'static,
        ) -> Cluster {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let hosts: Vec<String> = (0..brokers).map(host).collect();
            let metadata = Arc::new(metadata(&hosts, port));
            let behave = Arc::new(behave);
            let load = Arc::new(Load::default());
            let shared = load.clone();
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    let Ok(stream) = stream else { return };
                    let (behave, metadata, load) =
                        (behave.clone(), metadata.clone(), shared.clone());
                    let open = load.open.fetch_add(1, Ordering::SeqCst) + 1;
                    load.peak.fetch_max(open, Ordering::SeqCst);
                    std::thread::spawn(move || {
                        serve(stream, &*behave, &metadata, &load);
                        load.open.fetch_sub(1, Ordering::SeqCst);
                    });
                }
            });
            Cluster { port, load }
        }

        pub fn address(&self) -> String {
            format!("127.0.0.1:{}", self.port)
        }
    }

    fn serve(
        mut stream: TcpStream,
        behave: &(dyn Fn(&Request) -> Reply + Send + Sync),
        metadata: &MetadataResponse,
        load: &Load,
    ) {
        loop {
            let mut size = [0u8; 4];
            if stream.read_exact(&mut size).is_err() {
                return;
            }
            let mut frame = vec![0u8; u32::from_be_bytes(size) as usize];
            if stream.read_exact(&mut frame).is_err() {
                return;
            }
            let mut body = bytes::Bytes::from(frame);
            let key = ApiKey::try_from(i16::from_be_bytes([body[0], body[1]])).unwrap();
            let version = i16::from_be_bytes([body[2], body[3]]);
            let header =
                RequestHeader::decode(&mut body, key.request_header_version(version)).unwrap();
            let request = Request {
                key,
                version,
                correlation: header.correlation_id,
                body,
            };
            if key == ApiKey::DescribeConfigs {
                let asked =
                    DescribeConfigsRequest::decode(&mut request.body.clone(), version).unwrap();
                if asked.resources.iter().any(|r| r.resource_type == 4) {
                    load.broker_configs_asked.fetch_add(1, Ordering::SeqCst);
                }
            }
            let written = match behave(&request) {
                Reply::Bytes(bytes) => stream.write_all(&bytes).is_ok(),
                Reply::Trickle(bytes, every) => bytes.iter().all(|byte| {
                    std::thread::sleep(every);
                    stream.write_all(&[*byte]).is_ok()
                }),
                Reply::Healthy => stream.write_all(&healthy(&request, metadata)).is_ok(),
                Reply::Edited(edit) => stream.write_all(&edit(healthy(&request, metadata))).is_ok(),
            };
            if !written {
                return;
            }
        }
    }

    /// The response in `frame` (a whole frame answering a `key` request at `version`),
    /// decoded.
    pub fn decoded_at<R: Decodable>(key: ApiKey, version: i16, frame: &[u8]) -> R {
        let mut body = bytes::Bytes::copy_from_slice(&frame[4..]);
        ResponseHeader::decode(&mut body, key.response_header_version(version)).unwrap();
        R::decode(&mut body, version).unwrap()
    }

    /// `response` as the whole frame answering a `key` request at `version` of correlation
    /// id `correlation`.
    pub fn encoded_at<R: Encodable>(
        key: ApiKey,
        version: i16,
        correlation: i32,
        response: &R,
    ) -> Vec<u8> {
        let request = Request {
            key,
            version,
            correlation,
            body: bytes::Bytes::new(),
        };
        frame(&request, response)
    }

    /// The topics a Metadata request names (`None`: all).
    pub fn metadata_request(request: &Request) -> Option<Vec<TopicName>> {
        let asked = MetadataRequest::decode(&mut request.body.clone(), request.version).unwrap();
        asked
            .topics
            .map(|topics| topics.into_iter().filter_map(|topic| topic.name).collect())
    }

    /// `response` as the frame that answers `request`: size, response header, body.
    pub fn frame<R: Encodable>(request: &Request, response: &R) -> Vec<u8> {
        let mut body = bytes::BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(request.correlation)
            .encode(
                &mut body,
                request.key.response_header_version(request.version),
            )
            .unwrap();
        response.encode(&mut body, request.version).unwrap();
        let mut frame = (body.len() as u32).to_be_bytes().to_vec();
        frame.extend_from_slice(&body);
        frame
    }

    fn metadata(hosts: &[String], port: u16) -> MetadataResponse {
        let brokers = hosts
            .iter()
            .enumerate()
            .map(|(id, host)| {
                MetadataResponseBroker::default()
                    .with_node_id(BrokerId(id as i32))
                    .with_host(StrBytes::from_string(host.clone()))
                    .with_port(i32::from(port))
            })
            .collect();
        let replicas: Vec<BrokerId> = (0..hosts.len().min(3) as i32).map(BrokerId).collect();
        MetadataResponse::default()
            .with_brokers(brokers)
            .with_cluster_id(Some(StrBytes::from_static_str("fake")))
            .with_controller_id(BrokerId(0))
            .with_topics(vec![
                MetadataResponseTopic::default()
                    .with_name(Some(TopicName(StrBytes::from_static_str("orders"))))
                    .with_partitions(vec![
                        MetadataResponsePartition::default()
                            .with_partition_index(0)
                            .with_leader_id(BrokerId(0))
                            .with_replica_nodes(replicas.clone())
                            .with_isr_nodes(replicas),
                    ]),
            ])
    }

    /// The operations on the cluster a broker without an authorizer says any principal may
    /// perform (`AclEntry.supportedOperations(CLUSTER)`: CREATE, ALTER, DESCRIBE,
    /// CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, as `AclOperation`
    /// code bits).
    pub const ALL_CLUSTER_OPERATIONS: i32 =
        1 << 5 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 11 | 1 << 12;

    /// Metadata's answer to `request`: every topic when it asks for all, else the topics it
    /// names, one that does not exist with UNKNOWN_TOPIC_OR_PARTITION.
    pub fn metadata_answer(request: &Request, metadata: &MetadataResponse) -> MetadataResponse {
        let asked = MetadataRequest::decode(&mut request.body.clone(), request.version).unwrap();
        let Some(named) = asked.topics else {
            return metadata.clone();
        };
        let topics = named
            .iter()
            .map(|wanted| {
                let name = wanted.name.clone().unwrap();
                metadata
                    .topics
                    .iter()
                    .find(|topic| topic.name.as_ref() == Some(&name))
                    .cloned()
                    .unwrap_or_else(|| {
                        MetadataResponseTopic::default()
                            .with_name(Some(name))
                            .with_error_code(3)
                    })
            })
            .collect();
        metadata.clone().with_topics(topics)
    }

    /// What a healthy Kafka 3.9 broker answers.
    pub fn healthy(request: &Request, metadata: &MetadataResponse) -> Vec<u8> {
        match request.key {
            ApiKey::ApiVersions => {
                let range = |key: ApiKey, max: i16| {
                    ApiVersion::default()
                        .with_api_key(key as i16)
                        .with_min_version(0)
                        .with_max_version(max)
                };
                frame(
                    request,
                    &ApiVersionsResponse::default().with_api_keys(vec![
                        range(ApiKey::ApiVersions, 3),
                        range(ApiKey::Metadata, 12),
                        range(ApiKey::DescribeConfigs, 4),
                        range(ApiKey::ListGroups, 5),
                        range(ApiKey::FindCoordinator, 6),
                        range(ApiKey::SaslHandshake, 1),
                        range(ApiKey::SaslAuthenticate, 2),
                        range(ApiKey::DescribeCluster, 1),
                        range(ApiKey::DescribeQuorum, 2),
                    ]),
                )
            }
            ApiKey::Metadata => frame(request, &metadata_answer(request, metadata)),
            ApiKey::DescribeCluster => frame(
                request,
                &DescribeClusterResponse::default()
                    .with_cluster_authorized_operations(ALL_CLUSTER_OPERATIONS),
            ),
            ApiKey::DescribeConfigs => {
                let asked =
                    DescribeConfigsRequest::decode(&mut request.body.clone(), request.version)
                        .unwrap();
                let results = asked
                    .resources
                    .iter()
                    .map(|resource| {
                        DescribeConfigsResult::default()
                            .with_resource_type(resource.resource_type)
                            .with_resource_name(resource.resource_name.clone())
                            .with_configs(vec![
                                DescribeConfigsResourceResult::default()
                                    .with_name(StrBytes::from_static_str("min.insync.replicas"))
                                    .with_value(Some(StrBytes::from_static_str("1")))
                                    .with_config_source(5),
                            ])
                    })
                    .collect();
                frame(
                    request,
                    &DescribeConfigsResponse::default().with_results(results),
                )
            }
            ApiKey::ListGroups => frame(request, &ListGroupsResponse::default()),
            ApiKey::FindCoordinator => frame(request, &FindCoordinatorResponse::default()),
            ApiKey::SaslHandshake => frame(
                request,
                &SaslHandshakeResponse::default()
                    .with_mechanisms(vec![StrBytes::from_static_str("PLAIN")]),
            ),
            ApiKey::SaslAuthenticate => frame(request, &SaslAuthenticateResponse::default()),
            ApiKey::DescribeQuorum => frame(request, &quorum(&[0, 1, 2], 1, &[])),
            other => panic!("kafkalint asked {other:?}"),
        }
    }

    /// A quorum of `voters` led by `leader`, as a 3.9 controller describes it (version 2): every
    /// voter fetched and caught up 100 ms before the leader's answer, but those of `silent`, 40 s
    /// before; each voter advertises a controller listener.
    pub fn quorum(voters: &[i32], leader: i32, silent: &[i32]) -> DescribeQuorumResponse {
        use kafka_protocol::messages::describe_quorum_response::{
            Listener, Node, PartitionData, ReplicaState, TopicData,
        };
        const NOW: i64 = 1_765_000_000_000;
        let state = |id: i32| {
            let time = if id == leader {
                NOW
            } else if silent.contains(&id) {
                NOW - 40_000
            } else {
                NOW - 100
            };
            ReplicaState::default()
                .with_replica_id(BrokerId(id))
                .with_log_end_offset(if silent.contains(&id) { 500 } else { 900 })
                .with_last_fetch_timestamp(time)
                .with_last_caught_up_timestamp(time)
        };
        let nodes = voters
            .iter()
            .map(|id| {
                Node::default()
                    .with_node_id(BrokerId(*id))
                    .with_listeners(vec![
                        Listener::default()
                            .with_name(StrBytes::from_static_str("CONTROLLER"))
                            .with_host(StrBytes::from_static_str("127.0.0.1"))
                            .with_port(19190 + *id as u16),
                    ])
            })
            .collect();
        DescribeQuorumResponse::default()
            .with_error_message(None)
            .with_topics(vec![
                TopicData::default()
                    .with_topic_name(TopicName(StrBytes::from_static_str("__cluster_metadata")))
                    .with_partitions(vec![
                        PartitionData::default()
                            .with_error_message(None)
                            .with_leader_id(BrokerId(leader))
                            .with_leader_epoch(3)
                            .with_high_watermark(900)
                            .with_current_voters(voters.iter().map(|id| state(*id)).collect()),
                    ]),
            ])
            .with_nodes(nodes)
    }

    /// The SASL token a SaslAuthenticate request carries.
    pub fn sasl_token(request: &Request) -> Vec<u8> {
        SaslAuthenticateRequest::decode(&mut request.body.clone(), request.version)
            .unwrap()
            .auth_bytes
            .to_vec()
    }

    /// Runs kafkalint and measures its peak resident memory (KiB): the high-water mark the kernel
    /// keeps of the program's own memory (`VmHWM` of `/proc/PID/status`, read while it runs).
    /// Not `wait4`'s `ru_maxrss`: that carries over the memory of the test process at the fork
    /// (Linux keeps the high-water mark across `exec`), and the tests beside this one, run in
    /// the same process, hold fake brokers' replies of hundreds of MiB.
    pub fn measured(args: &[&str]) -> (Output, u64, Duration) {
        let (output, rss, elapsed, _) = measured_with_threads(args);
        (output, rss, elapsed)
    }

    /// `measured`, and the most threads the child was seen to run at once (`/proc/PID/status`,
    /// read every millisecond while it runs).
    pub fn measured_with_threads(args: &[&str]) -> (Output, u64, Duration, usize) {
        let started = Instant::now();
        // Reaped by wait4 below, which gives the child's resource use.
        #[allow(clippy::zombie_processes)]
        let mut child = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout_pipe = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stdout_pipe.read_to_end(&mut bytes);
            bytes
        });
        let stderr = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = stderr_pipe.read_to_end(&mut bytes);
            bytes
        });
        let watching = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let watched = watching.clone();
        let status_file = format!("/proc/{}/status", child.id());
        let threads = std::thread::spawn(move || {
            let (mut peak, mut high_water) = (0, 0u64);
            while watched.load(Ordering::SeqCst) {
                if let Ok(status) = std::fs::read_to_string(&status_file) {
                    let field = |name: &str| {
                        status
                            .lines()
                            .find_map(|line| line.strip_prefix(name))
                            .map(str::trim)
                    };
                    // Until `exec`, the child is a copy of this test process.
                    if field("Name:").is_some_and(|name| name.starts_with("kafkalint")) {
                        let now = field("Threads:").and_then(|count| count.parse().ok());
                        peak = peak.max(now.unwrap_or(0));
                        let kib = field("VmHWM:")
                            .and_then(|value| value.trim_end_matches("kB").trim().parse().ok());
                        high_water = high_water.max(kib.unwrap_or(0));
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            (peak, high_water)
        });
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value; wait4 fills it for the child spawned above.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = child.id() as libc::pid_t;
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        watching.store(false, Ordering::SeqCst);
        assert_eq!(waited, pid);
        let elapsed = started.elapsed();
        let (threads, high_water) = threads.join().unwrap();
        use std::os::unix::process::ExitStatusExt;
        let output = Output {
            status: std::process::ExitStatus::from_raw(status),
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        };
        // A child too quick to be read while it ran had little memory to measure: the
        // kernel's account then, as the larger bound.
        let rss = if high_water > 0 {
            high_water
        } else {
            usage.ru_maxrss as u64
        };
        (output, rss, elapsed, threads)
    }

    pub fn text(output: &Output) -> String {
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    }

    /// Exited by itself (no signal: no abort on a failed allocation), at most 2, no panic.
    pub fn exited_cleanly(output: &Output, what: &str) {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            matches!(output.status.code(), Some(0..=2)),
            "{what}: {:?} {stderr}",
            output.status
        );
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(!stderr.contains("memory allocation"), "{what}: {stderr}");
    }
}

use hostile::{Cluster, Reply};
use kafka_protocol::messages::ApiKey;

/// Every position of each healthy reply kafkalint asks for (at the versions a 3.9 broker speaks)
/// overwritten with the largest element count a compact array's length can say (0xFFFFFFFF):
/// kafkalint must stop with one line or a note, never allocate what the count says (137 GB of
/// brokers: the process aborts).
#[test]
fn a_huge_array_length_in_any_reply_is_refused_before_it_is_allocated() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    const LENGTH: [u8; 5] = [0xFF, 0xFF, 0xFF, 0xFF, 0x0F];
    for key in [
        ApiKey::ApiVersions,
        ApiKey::Metadata,
        ApiKey::DescribeConfigs,
        ApiKey::ListGroups,
        ApiKey::FindCoordinator,
        ApiKey::DescribeCluster,
        ApiKey::DescribeQuorum,
    ] {
        for at in 0.. {
            let past_the_end = Arc::new(AtomicBool::new(false));
            let past = past_the_end.clone();
            let cluster = Cluster::start(2, move |request| {
                if request.key != key {
                    return Reply::Healthy;
                }
                let past = past.clone();
                Reply::Edited(Box::new(move |mut frame| {
                    // Past the size and the correlation id: the header's tags and the body.
                    let start = 8 + at;
                    if start + LENGTH.len() > frame.len() {
                        past.store(true, Ordering::SeqCst);
                    } else {
                        frame[start..start + LENGTH.len()].copy_from_slice(&LENGTH);
                    }
                    frame
                }))
            });
            let address = cluster.address();
            let args = [
                "live",
                "--bootstrap-server",
                &address,
                "--group",
                "g",
                "--timeout",
                "5",
            ];
            let (output, rss, _) = hostile::measured(&args);
            if past_the_end.load(Ordering::SeqCst) {
                break;
            }
            let what = format!("{key:?} at {at}");
            hostile::exited_cleanly(&output, &what);
            assert!(rss < 256 * 1024, "{what}: {rss} KiB");
        }
    }
}

/// A Metadata answer naming many brokers: kafkalint asks each of them for its settings, over a
/// bounded number of connections at once (16, and the bootstrap connection), not a thread and a
/// connection each. Each broker answers ApiVersions after a short pause, so that connections
/// overlap as far as the client lets them.
#[test]
fn many_brokers_are_asked_over_a_bounded_number_of_connections() {
    use std::sync::atomic::Ordering;
    let brokers = 800;
    let cluster = Cluster::start(brokers, |request| {
        if request.key == ApiKey::ApiVersions {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        Reply::Healthy
    });
    let address = cluster.address();
    let (output, rss, _, threads) = hostile::measured_with_threads(&[
        "live",
        "--bootstrap-server",
        &address,
        "--timeout",
        "60",
        "--format",
        "concise",
    ]);
    hostile::exited_cleanly(&output, "many brokers");
    assert_ne!(output.status.code(), Some(2), "{}", hostile::text(&output));
    assert_eq!(
        cluster.load.broker_configs_asked.load(Ordering::SeqCst),
        brokers,
        "every broker asked"
    );
    // The main thread and 16 askers; a fake broker's count of open connections lags behind
    // the client's closing them, so it is only a rough bound.
    assert!(threads <= 17, "{threads} threads at once");
    let peak = cluster.load.peak.load(Ordering::SeqCst);
    assert!(peak <= 40, "{peak} connections open at once");
    assert!(rss < 256 * 1024, "{rss} KiB");
}

/// A reply whose size says more than `--max-answer-mib` allows is refused before it is read:
/// one line naming the broker and the bound, exit 2, and the memory of no such frame.
#[test]
fn a_frame_larger_than_the_answer_bound_is_refused_unread() {
    let cluster = Cluster::start(1, |request| {
        if request.key != ApiKey::Metadata {
            return Reply::Healthy;
        }
        // 200 MiB said, and sent: a client that reads it holds it.
        let size: u32 = 200 << 20;
        let mut frame = size.to_be_bytes().to_vec();
        frame.extend_from_slice(&request.correlation.to_be_bytes());
        frame.resize(4 + size as usize, 0);
        Reply::Bytes(frame)
    });
    let address = cluster.address();
    let (output, rss, _) = hostile::measured(&["live", "--bootstrap-server", &address]);
    refused(&output, &address);
    refused(&output, "--max-answer-mib 64");
    assert!(rss < 64 * 1024, "{rss} KiB");
}

/// Eight brokers each answering DescribeConfigs with a real reply of `value_mib` MiB, read side
/// by side: the fake cluster's address.
fn brokers_with_big_settings(value_mib: usize) -> Cluster {
    use kafka_protocol::messages::DescribeConfigsResponse;
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult,
    };
    use kafka_protocol::protocol::StrBytes;
    Cluster::start(8, move |request| {
        if request.key != ApiKey::DescribeConfigs {
            return Reply::Healthy;
        }
        let asked =
            kafka_protocol::protocol::Decodable::decode(&mut request.body.clone(), request.version);
        let is_broker =
            asked.is_ok_and(|asked: kafka_protocol::messages::DescribeConfigsRequest| {
                asked.resources.iter().any(|r| r.resource_type == 4)
            });
        if !is_broker {
            return Reply::Healthy;
        }
        let big = "x".repeat(value_mib << 20);
        let response = DescribeConfigsResponse::default().with_results(vec![
            DescribeConfigsResult::default()
                .with_resource_type(4)
                .with_configs(vec![
                    DescribeConfigsResourceResult::default()
                        .with_name(StrBytes::from_static_str("log.dirs"))
                        .with_value(Some(StrBytes::from_string(big)))
                        .with_config_source(4),
                ]),
        ]);
        Reply::Bytes(hostile::frame(request, &response))
    })
}

/// The answers of one run are bounded in total, not each: eight brokers answering 30 MiB each
/// (240 MiB read side by side) stop the run past 64 MiB, one line naming a broker, exit 2, and
/// the memory stays within a few times the bound.
/// `--max-answer-mib` moves the bound: 8 MiB of answers pass 16 and not 4.
#[test]
fn the_answers_of_a_run_are_bounded_in_total() {
    let cluster = brokers_with_big_settings(30);
    let address = cluster.address();
    let (output, rss, _) = hostile::measured(&["live", "--bootstrap-server", &address]);
    refused(&output, "--max-answer-mib 64");
    refused(&output, "127.0.0.1:");
    // The replies (at most the bound), the settings copied out of them and a buffer's growth
    // (each at most as much again): under three times the bound, beside the ~20 MiB of a run
    // without a cluster. Without the bound, all 240 MiB were read, and copied.
    assert!(rss < 256 * 1024, "{rss} KiB");
    let cluster = brokers_with_big_settings(1);
    let address = cluster.address();
    let bounded = |mib: &str| {
        hostile::measured(&[
            "live",
            "--bootstrap-server",
            &address,
            "--max-answer-mib",
            mib,
            "--format",
            "concise",
            "--quiet",
        ])
        .0
    };
    refused(&bounded("4"), "--max-answer-mib 4");
    let output = bounded("16");
    hostile::exited_cleanly(&output, "a larger bound");
    assert_ne!(output.status.code(), Some(2), "{}", hostile::text(&output));
}

/// A server that sends one byte a moment, never pausing long enough for a read to time out:
/// `--timeout` bounds the whole run, at the bootstrap broker (one line, exit 2) and at any
/// other (a note, and the run goes on to its end), whatever request it trickles.
#[test]
fn a_trickling_server_is_bounded_by_the_timeout_of_the_whole_run() {
    use std::time::{Duration, Instant};
    for key in [
        ApiKey::ApiVersions,
        ApiKey::Metadata,
        ApiKey::DescribeConfigs,
    ] {
        let cluster = Cluster::start(2, move |request| {
            if request.key != key {
                return Reply::Healthy;
            }
            // A frame of 1,000 bytes said, a byte each 100 ms: 100 s in all.
            let mut frame = 1000u32.to_be_bytes().to_vec();
            frame.extend_from_slice(&request.correlation.to_be_bytes());
            frame.resize(1004, 0);
            Reply::Trickle(frame, Duration::from_millis(100))
        });
        let address = cluster.address();
        let started = Instant::now();
        let (output, _, _) =
            hostile::measured(&["live", "--bootstrap-server", &address, "--timeout", "2"]);
        let elapsed = started.elapsed();
        assert!(
            elapsed < Duration::from_secs(5),
            "{key:?}: {elapsed:?}: {}",
            hostile::text(&output)
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("2 s"), "{key:?}: {stderr}");
        hostile::exited_cleanly(&output, &format!("{key:?}"));
    }
}

/// A server's text (an error message, a SASL error, the mechanisms it lists, a SCRAM error)
/// can carry anything, the PLAIN password it was just sent included: kafkalint names the error
/// code and Kafka's standard message for it, never the server's words, in every format and in
/// the snapshot it saves.
#[test]
fn a_servers_error_text_is_never_printed() {
    use kafka_protocol::messages::describe_configs_response::DescribeConfigsResult;
    use kafka_protocol::messages::{
        DescribeConfigsResponse, SaslAuthenticateResponse, SaslHandshakeResponse,
    };
    use kafka_protocol::protocol::StrBytes;
    const CANARY: &str = "canary-9Zq4";
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.properties");
    std::fs::write(
        &plain,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n\
             sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required \
             username=\"u\" password=\"{CANARY}-password\";\n"
        ),
    )
    .unwrap();
    let scram = dir.path().join("scram.properties");
    std::fs::write(
        &scram,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n\
             sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \
             username=\"u\" password=\"{CANARY}-password\";\n"
        ),
    )
    .unwrap();
    // Where the server puts its text, each with the text it chooses: the token it was sent, and
    // a line that GitHub would read as a workflow command.
    type Hostile = fn(&hostile::Request, &str) -> Option<Vec<u8>>;
    let places: [(&str, &std::path::Path, Hostile, &str); 5] = [
        (
            "SaslAuthenticate's error message",
            &plain,
            |request, text| {
                (request.key == ApiKey::SaslAuthenticate).then(|| {
                    let echoed = String::from_utf8_lossy(&hostile::sasl_token(request)).to_string();
                    hostile::frame(
                        request,
                        &SaslAuthenticateResponse::default()
                            .with_error_code(58)
                            .with_error_message(Some(StrBytes::from_string(format!(
                                "{text} {echoed}"
                            )))),
                    )
                })
            },
            "SASL_AUTHENTICATION_FAILED",
        ),
        (
            "SaslHandshake's mechanisms",
            &plain,
            |request, text| {
                (request.key == ApiKey::SaslHandshake).then(|| {
                    hostile::frame(
                        request,
                        &SaslHandshakeResponse::default()
                            .with_error_code(33)
                            .with_mechanisms(vec![
                                StrBytes::from_static_str("SCRAM-SHA-512"),
                                StrBytes::from_string(text.to_string()),
                            ]),
                    )
                })
            },
            "SCRAM-SHA-512",
        ),
        (
            "a SCRAM error",
            &scram,
            |request, text| {
                (request.key == ApiKey::SaslAuthenticate).then(|| {
                    hostile::frame(
                        request,
                        &SaslAuthenticateResponse::default()
                            .with_auth_bytes(format!("e={text}").into_bytes().into()),
                    )
                })
            },
            "SCRAM",
        ),
        (
            "DescribeConfigs' error message",
            &plain,
            |request, text| {
                if request.key != ApiKey::DescribeConfigs {
                    return None;
                }
                let asked: kafka_protocol::messages::DescribeConfigsRequest =
                    kafka_protocol::protocol::Decodable::decode(
                        &mut request.body.clone(),
                        request.version,
                    )
                    .ok()?;
                (request.key == ApiKey::DescribeConfigs
                    && asked.resources.iter().any(|r| r.resource_type == 4))
                .then(|| {
                    hostile::frame(
                        request,
                        &DescribeConfigsResponse::default().with_results(vec![
                            DescribeConfigsResult::default()
                                .with_error_code(31)
                                .with_error_message(Some(StrBytes::from_string(text.into())))
                                .with_resource_type(4),
                        ]),
                    )
                })
            },
            "CLUSTER_AUTHORIZATION_FAILED",
        ),
        (
            "SaslAuthenticate's error message with an unknown code",
            &plain,
            |request, text| {
                (request.key == ApiKey::SaslAuthenticate).then(|| {
                    hostile::frame(
                        request,
                        &SaslAuthenticateResponse::default()
                            .with_error_code(31000)
                            .with_error_message(Some(StrBytes::from_string(text.into()))),
                    )
                })
            },
            "error 31000",
        ),
    ];
    for (place, config, answer, named) in places {
        let text = format!("{CANARY} said\n::error file=x::forged {CANARY}");
        let cluster = Cluster::start(2, move |request| match answer(request, &text) {
            Some(frame) => Reply::Bytes(frame),
            None => Reply::Healthy,
        });
        let address = cluster.address();
        for format in ["full", "concise", "json", "github", "sarif"] {
            let saved = dir.path().join("saved.snapshot");
            let (output, _, _) = hostile::measured(&[
                "live",
                "--bootstrap-server",
                &address,
                "--command-config",
                config.to_str().unwrap(),
                "--format",
                format,
                "--save-snapshot",
                saved.to_str().unwrap(),
            ]);
            let text = hostile::text(&output);
            let saved = std::fs::read_to_string(&saved).unwrap_or_default();
            hostile::exited_cleanly(&output, place);
            assert!(text.contains(named), "{place}, {format}: {text}");
            assert!(!text.contains(CANARY), "{place}, {format}: {text}");
            assert!(!saved.contains(CANARY), "{place}, {format}: {saved}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                !stderr
                    .lines()
                    .any(|line| line.trim_start().starts_with("::")),
                "{place}, {format}: {stderr}"
            );
        }
    }
}

/// A broker host from Metadata that is no host name (a line feed and a workflow command in
/// it, spaces, a NUL) is not connected to, and the note about it does not print it raw.
#[test]
fn a_metadata_host_that_is_no_host_name_is_not_printed_raw() {
    let cluster = Cluster::with_hosts(
        3,
        |id| match id {
            0 => "127.0.0.1".to_string(),
            1 => "kafka-1\n::error file=x::forged".to_string(),
            _ => "kafka 2\u{0}\u{202e}".to_string(),
        },
        |_| Reply::Healthy,
    );
    let address = cluster.address();
    let (output, _, _) = hostile::measured(&[
        "live",
        "--bootstrap-server",
        &address,
        "--format",
        "concise",
    ]);
    hostile::exited_cleanly(&output, "hosts");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("broker 1"), "{stderr}");
    assert!(
        !stderr
            .lines()
            .any(|line| line.trim_start().starts_with("::")),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{0}') && !stderr.contains('\u{202e}'),
        "{stderr}"
    );
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
    // The hosts reached kafkalint, which said so without showing them (a host that is no host
    // name is named by its length), or showed them escaped: the test saw what it guards.
    assert!(
        printed.contains("is no host name or IP address") || printed.contains("\\u{"),
        "{printed}"
    );
}

/// What a cluster with an authorizer (StandardAuthorizer, `allow.everyone.if.no.acl.found`
/// false) answers a principal that has no ACL, as Kafka's `KafkaApis` does: Metadata lists no
/// topic, and names `__consumer_offsets` asked by name TOPIC_AUTHORIZATION_FAILED; DescribeCluster
/// says it may do nothing on the cluster; DescribeConfigs of a broker answers
/// CLUSTER_AUTHORIZATION_FAILED; ListGroups lists no group (those it may describe), no error.
fn unauthorized(request: &hostile::Request) -> Reply {
    use kafka_protocol::messages::describe_configs_response::DescribeConfigsResult;
    use kafka_protocol::messages::{
        DescribeClusterResponse, DescribeConfigsResponse, MetadataResponse,
    };
    match request.key {
        ApiKey::Metadata => {
            let (version, correlation) = (request.version, request.correlation);
            let asked = hostile::metadata_request(request);
            Reply::Edited(Box::new(move |frame| {
                let healthy: MetadataResponse =
                    hostile::decoded_at(ApiKey::Metadata, version, &frame);
                let topics = match asked {
                    None => Vec::new(),
                    Some(names) => names
                        .into_iter()
                        .map(|name| {
                            kafka_protocol::messages::metadata_response::MetadataResponseTopic::default()
                                .with_name(Some(name))
                                .with_error_code(29)
                        })
                        .collect(),
                };
                hostile::encoded_at(
                    ApiKey::Metadata,
                    version,
                    correlation,
                    &healthy.with_topics(topics),
                )
            }))
        }
        ApiKey::DescribeCluster => Reply::Bytes(hostile::frame(
            request,
            &DescribeClusterResponse::default().with_cluster_authorized_operations(0),
        )),
        ApiKey::DescribeConfigs => Reply::Bytes(hostile::frame(
            request,
            &DescribeConfigsResponse::default().with_results(vec![
                DescribeConfigsResult::default()
                    .with_error_code(31)
                    .with_resource_type(4),
            ]),
        )),
        _ => Reply::Healthy,
    }
}

fn exit_and_text(args: &[&str]) -> (Option<i32>, String) {
    let output = kafkalint(args);
    (output.status.code(), hostile::text(&output))
}

/// The principal shown nothing is told so: the summary says the view is partial and what it
/// lacks, never "No problems found"; `--stopping` answers no go/no-go (exit 2), never "can
/// stop"; JSON lists what is missing; a saved snapshot says it again. The same questions to a
/// cluster that shows everything answer as before.
#[test]
fn a_principal_shown_nothing_gets_a_partial_view_never_a_clean_bill() {
    let whole = Cluster::start(3, |_| Reply::Healthy);
    let address = whole.address();
    let (code, text) = exit_and_text(&["live", "--bootstrap-server", &address, "--stopping", "0"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("broker 0 can stop"), "{text}");
    assert!(!text.contains("partial"), "{text}");

    let refused = Cluster::start(3, unauthorized);
    let address = refused.address();
    let (code, text) = exit_and_text(&["live", "--bootstrap-server", &address]);
    assert!(!text.contains("No problems"), "{text}");
    assert!(
        text.contains("Found 0 errors, 0 warnings (the cluster behind"),
        "{text}"
    );
    assert!(
        text.contains(
            "a partial view, not known: groups, topic __consumer_offsets, broker 0's settings"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "kafkalint: note: not known: topic __consumer_offsets: TOPIC_AUTHORIZATION_FAILED"
        ),
        "{text}"
    );
    assert_eq!(code, Some(0), "{text}");

    let (code, text) = exit_and_text(&["live", "--bootstrap-server", &address, "--stopping", "0"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(!text.contains("can stop"), "{text}");
    assert!(
        text.contains("--stopping 0: no go/no-go on a partial view"),
        "{text}"
    );

    let output = kafkalint(&["live", "--bootstrap-server", &address, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let partial: Vec<&serde_json::Value> = json["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|item| item["kind"] == "partial-view")
        .collect();
    assert_eq!(partial.len(), 5, "{json}");
    assert!(
        partial[1]["reason"]
            .as_str()
            .unwrap()
            .starts_with("topic __consumer_offsets: TOPIC_AUTHORIZATION_FAILED"),
        "{json}"
    );

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("live.snapshot");
    let saved = saved.to_str().unwrap();
    kafkalint(&[
        "live",
        "--bootstrap-server",
        &address,
        "--save-snapshot",
        saved,
    ]);
    let document = std::fs::read_to_string(saved).unwrap();
    assert!(document.contains("\ncluster.operations=\n"), "{document}");
    assert!(
        document.contains("\nunlisted-topic.__consumer_offsets=TOPIC_AUTHORIZATION_FAILED\n"),
        "{document}"
    );
    let (code, text) = exit_and_text(&["live", "--snapshot", saved, "--stopping", "0"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("topic __consumer_offsets"), "{text}");
}

/// A broker that cannot be reached, and brokers that refuse ListGroups, leave out their
/// settings and groups: the view is partial, `--stopping` answers no go/no-go.
#[test]
fn an_unreachable_broker_or_a_refused_list_groups_makes_the_view_partial() {
    use kafka_protocol::messages::ListGroupsResponse;
    // 127.0.0.2 is loopback too, where nothing listens: connection refused at once.
    let cluster = Cluster::with_hosts(
        2,
        |id| if id == 1 { "127.0.0.2" } else { "127.0.0.1" }.to_string(),
        |request| match request.key {
            ApiKey::ListGroups => Reply::Bytes(hostile::frame(
                request,
                &ListGroupsResponse::default().with_error_code(14),
            )),
            _ => Reply::Healthy,
        },
    );
    let address = cluster.address();
    let (code, text) = exit_and_text(&["live", "--bootstrap-server", &address, "--stopping", "0"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(!text.contains("can stop"), "{text}");
    assert!(
        text.contains("not known: the groups broker 0 coordinates, broker 1's settings and groups"),
        "{text}"
    );
    assert!(text.contains("COORDINATOR_LOAD_IN_PROGRESS"), "{text}");
}

/// A snapshot saved before kafkalint asked what the principal may see reads as before, and
/// its view is not taken for whole: `--stopping` answers no go/no-go.
#[test]
fn a_snapshot_of_the_older_format_is_no_go_no_go() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("old.snapshot");
    std::fs::write(
        &old,
        "bootstrap=kafka-0:9092\nbroker.0=kafka-0:9092\nbroker.1=kafka-1:9092\n\
         topic.__consumer_offsets=internal=true partitions=1 min.insync.replicas=1\n\
         partition.__consumer_offsets-0=leader=0 replicas=0,1 isr=0,1\n",
    )
    .unwrap();
    let old = old.to_str().unwrap();
    let (code, text) = exit_and_text(&["live", "--snapshot", old]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("a partial view, not known: what this principal may see"),
        "{text}"
    );
    let (code, text) = exit_and_text(&["live", "--snapshot", old, "--stopping", "0"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(!text.contains("can stop"), "{text}");
}

/// A group this principal may not describe: FindCoordinator answers GROUP_AUTHORIZATION_FAILED
/// though its coordinator partition has a leader. Not a group without a coordinator: the view
/// is partial, the group's coordinator not known.
#[test]
fn a_group_hidden_from_the_principal_is_not_known_not_without_a_coordinator() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("live.snapshot");
    std::fs::write(
        &snapshot,
        "bootstrap=kafka-0:9092\n\
         cluster.operations=DESCRIBE,DESCRIBE_CONFIGS\n\
         broker.0=kafka-0:9092\nbroker.1=kafka-1:9092\n\
         topic.__consumer_offsets=internal=true partitions=1 min.insync.replicas=1\n\
         partition.__consumer_offsets-0=leader=0 replicas=0,1 isr=0,1\n\
         group.payments=coordinator=none state=GROUP_AUTHORIZATION_FAILED\n",
    )
    .unwrap();
    let (code, text) = exit_and_text(&[
        "live",
        "--snapshot",
        snapshot.to_str().unwrap(),
        "--group",
        "payments",
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(!text.contains("has no coordinator"), "{text}");
    assert!(
        text.contains("a partial view, not known: the coordinator of group payments"),
        "{text}"
    );
}

/// A snapshot of three brokers' cluster with broker 2 down and `__consumer_offsets` at one
/// replica a partition, broker 0 running `offsets.topic.replication.factor=3`.
const ONE_BROKER_DOWN: &str = "bootstrap=127.0.0.1:9092
broker.0=127.0.0.1:9092
broker.1=127.0.0.1:9093
topic.__consumer_offsets=internal=true partitions=3
partition.__consumer_offsets-0=leader=none replicas=2 isr=2
partition.__consumer_offsets-1=leader=0 replicas=0 isr=0
partition.__consumer_offsets-2=leader=1 replicas=1 isr=1
config.0.static.offsets.topic.replication.factor=3
reassignments=0
";

/// `--fix` while a broker is down: the plan names live brokers only, leaves out (and names)
/// the partition whose only replica is on the stopped broker, says it falls short of the 3
/// intended, and the command carries the throttle; with nothing to raise, one line says so.
#[test]
fn a_plan_made_while_a_broker_is_down_uses_live_brokers_and_names_what_it_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("live.snapshot");
    std::fs::write(&snapshot, ONE_BROKER_DOWN).unwrap();
    let plan = dir.path().join("plan.json");
    let args = |snapshot: &std::path::Path| {
        kafkalint(&[
            "live",
            "--snapshot",
            snapshot.to_str().unwrap(),
            "--fix",
            "--plan-file",
            plan.to_str().unwrap(),
            "--throttle",
            "10000000",
            "--format",
            "concise",
        ])
    };
    let output = args(&snapshot);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let written = std::fs::read_to_string(&plan).unwrap();
    assert_eq!(
        written,
        "{\"version\":1,\"partitions\":[\n\
         {\"topic\":\"__consumer_offsets\",\"partition\":1,\"replicas\":[0,1]},\n\
         {\"topic\":\"__consumer_offsets\",\"partition\":2,\"replicas\":[1,0]}\n]}\n"
    );
    assert!(
        stderr.contains(
            "kafkalint: --fix: left out partition 0 of __consumer_offsets: no replica of them is on a live \
             broker (only on broker(s) 2)"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("raises __consumer_offsets to 2 replicas, not the 3 intended"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--execute --throttle 10000000 "),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("on 2 live brokers of 3"), "{stdout}");

    std::fs::remove_file(&plan).unwrap();
    let healthy = ONE_BROKER_DOWN
        .replace("replicas=2 isr=2", "replicas=2,0,1 isr=0,1")
        .replace("replicas=0 isr=0", "replicas=0,1,2 isr=0,1")
        .replace("replicas=1 isr=1", "replicas=1,2,0 isr=0,1");
    std::fs::write(&snapshot, healthy).unwrap();
    let output = args(&snapshot);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "kafkalint: --fix: nothing to raise: every internal topic has the replicas intended"
        ),
        "{stderr}"
    );
    assert!(!plan.exists());
}

/// `--transactional-id`: its partition of `__transaction_state` (`Utils.abs(hashCode) % 50`:
/// `orders-tx` is 48) and the broker FindCoordinator named; with one in-sync replica, a
/// warning, and `--stopping` that broker stops it.
#[test]
fn a_transactional_id_is_placed_on_its_partition_of_the_transaction_log() {
    let mut text = "bootstrap=127.0.0.1:9092\ncluster.operations=DESCRIBE\n\
                    broker.0=127.0.0.1:9092\nbroker.1=127.0.0.1:9093\n\
                    topic.__transaction_state=internal=true partitions=50 min.insync.replicas=1\n"
        .to_string();
    for index in 0..50 {
        let broker = index % 2;
        text.push_str(&format!(
            "partition.__transaction_state-{index}=leader={broker} replicas={broker} isr={broker}\n"
        ));
    }
    text.push_str("transactional.orders-tx=coordinator=0 state=found\n");
    let dir = tempfile::tempdir().unwrap();
    let snapshot = dir.path().join("live.snapshot");
    std::fs::write(&snapshot, text).unwrap();
    let path = snapshot.to_str().unwrap();
    let args = [
        "live",
        "--snapshot",
        path,
        "--transactional-id",
        "orders-tx",
        "--format",
        "concise",
    ];
    let output = kafkalint(&args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "warning[live-group-coordinator] transactional id `orders-tx` is coordinated by broker 0, the leader \
             of partition 48 of __transaction_state (replicas 0, in sync 0): when broker 0 stops, InitProducerId \
             and commits fail with COORDINATOR_NOT_AVAILABLE"
        ),
        "{stdout}"
    );
    let stopping = kafkalint(&[&args[..], &["--stopping", "0"]].concat());
    let stdout = String::from_utf8_lossy(&stopping.stdout);
    assert_eq!(stopping.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "stopping broker 0 stops transactional id `orders-tx`: its partition of __transaction_state has"
        ),
        "{stdout}"
    );
    let other = kafkalint(&[&args[..], &["--stopping", "1"]].concat());
    let stdout = String::from_utf8_lossy(&other.stdout);
    assert!(!stdout.contains("orders-tx"), "{stdout}");
}

/// A cluster-wide `min.insync.replicas` override (as eligible leader replicas create one) that
/// differs from the files: the help sets it to the files' value, never deletes it (Kafka 4.1+
/// refuses to delete the cluster-level min.insync.replicas).
#[test]
fn a_cluster_wide_min_isr_override_is_set_to_the_files_value_not_deleted() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/live-config-drift/good"
    );
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture).unwrap() {
        let entry = entry.unwrap();
        let mut text = std::fs::read_to_string(entry.path()).unwrap();
        if entry.file_name() == "live.snapshot" {
            for broker in 0..3 {
                text.push_str(&format!(
                    "config.{broker}.dynamic-default.min.insync.replicas=1\n"
                ));
            }
        } else {
            text.push_str("min.insync.replicas=2\n");
        }
        std::fs::write(dir.path().join(entry.file_name()), text).unwrap();
    }
    let snapshot = dir.path().join("live.snapshot");
    let output = kafkalint(&[
        "live",
        "--snapshot",
        snapshot.to_str().unwrap(),
        dir.path().to_str().unwrap(),
        "--format",
        "concise",
        "--show-help",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "kafka-configs.sh --bootstrap-server HOST:PORT --alter --add-config min.insync.replicas=2 \
             --entity-type brokers --entity-default"
        ),
        "{stdout}"
    );
    assert!(
        !stdout.contains("--delete-config min.insync.replicas"),
        "{stdout}"
    );
}

/// `kafkalint live --snapshot` on `text`, with `args` after it.
fn judged(text: &str, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.snapshot");
    // A whole view, as a principal that may describe the cluster gets: a partial one gives
    // `--stopping` no go/no-go.
    let whole = format!("{text}cluster.operations=DESCRIBE,DESCRIBE_CONFIGS\n");
    std::fs::write(&path, whole).unwrap();
    let mut all = vec![
        "live",
        "--snapshot",
        path.to_str().unwrap(),
        "--format",
        "concise",
        "--show-help",
    ];
    all.extend_from_slice(args);
    kafkalint(&all)
}

const FIVE_VOTERS: &str = "bootstrap=k1:9092\nbroker.0=k0:9092\nbroker.1=k1:9092\nbroker.2=k2:9092\n\
    quorum=leader=1 epoch=3 high.watermark=900\n\
    quorum.voter.0=log.end.offset=900 last.fetch=1000000039000 last.caught.up=1000000039000\n\
    quorum.voter.1=log.end.offset=900 last.fetch=1000000040000 last.caught.up=1000000040000\n\
    quorum.voter.2=log.end.offset=900 last.fetch=1000000039900 last.caught.up=1000000039900\n\
    quorum.voter.3=log.end.offset=900 last.fetch=1000000039900 last.caught.up=1000000039900\n\
    quorum.voter.4=log.end.offset=900 last.fetch=1000000039900 last.caught.up=1000000039900\n";

/// `--stopping` counts the controller quorum: with voter 0 silent for 40 s, stopping another
/// voter of five leaves two, no majority; a controller that is no broker can be named; an id that
/// is neither is refused with the ids it could name.
#[test]
fn stopping_counts_the_controller_quorum() {
    let silent = FIVE_VOTERS.replace(
        "quorum.voter.0=log.end.offset=900 last.fetch=1000000039000 last.caught.up=1000000039000",
        "quorum.voter.0=log.end.offset=200 last.fetch=1000000000000 last.caught.up=1000000000000",
    );
    let silent = silent.replace(
        "quorum.voter.4=log.end.offset=900 last.fetch=1000000039900",
        "quorum.voter.4=log.end.offset=900 last.fetch=1000000010000",
    );
    let output = judged(&silent, &["--stopping", "2"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("stopping node 2 leaves the controller quorum 2 of its 5 voters"),
        "{stdout}"
    );
    // Voter 3 is no broker: it can be named, and with every voter in sync it can stop.
    let output = judged(FIVE_VOTERS, &["--stopping", "3"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("controller 3 can stop"), "{stderr}");
    assert!(stderr.contains("keeps a majority"), "{stderr}");
    // An observer that is no live broker (a controller never added to a dynamic quorum).
    let observer = format!("{FIVE_VOTERS}quorum.observer.7=log.end.offset=900\n");
    let output = judged(&observer, &["--stopping", "7"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("node 7 can stop: it is no live broker, and no voter"),
        "{stderr}"
    );
    refused(
        &judged(FIVE_VOTERS, &["--stopping", "9"]),
        "no live broker or controller has id 9",
    );
    // Without a quorum line (a snapshot saved before it was asked) the go says so.
    let old = "bootstrap=k1:9092\nbroker.1=k1:9092\n";
    let output = judged(old, &["--stopping", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the controller quorum was not asked"),
        "{stderr}"
    );
    // ZooKeeper mode: stopping the controller broker moves the controller, a note.
    let zookeeper =
        "bootstrap=k0:9092\ncontroller=0\nbroker.0=k0:9092\nbroker.1=k1:9092\nquorum=zookeeper\n";
    let output = judged(zookeeper, &["--stopping", "0"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("info[live-stopping-broker] broker 0 is the controller"),
        "{stdout}"
    );
}

/// Two replicas and min.insync.replicas=2: no replica may ever stop, so the help says to raise
/// the factor, not to wait.
#[test]
fn stopping_a_replica_of_a_factor_at_min_isr_says_to_raise_the_factor() {
    let text = "bootstrap=k0:9092\nbroker.0=k0:9092\nbroker.1=k1:9092\nbroker.2=k2:9092\n\
        topic.orders=internal=false partitions=1 min.insync.replicas=2\n\
        partition.orders-0=leader=0 replicas=0,1 isr=0,1\n";
    let output = judged(text, &["--stopping", "0"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("raise orders's replication factor above min.insync.replicas=2"),
        "{stdout}"
    );
}

/// A KRaft broker forwards DescribeQuorum to the leader of the quorum: its answer becomes the
/// snapshot's quorum lines. Voter 0 silent for 40 s leaves 2 of 3 counted: no majority to spare,
/// an error; a host that is no host name in a voter's endpoint is not written down.
#[test]
fn the_controller_quorum_is_asked_and_judged() {
    let cluster = Cluster::start(3, |request| match request.key {
        ApiKey::DescribeQuorum => {
            let mut quorum = hostile::quorum(&[0, 1, 2], 1, &[0]);
            quorum.nodes[2].listeners[0].host =
                kafka_protocol::protocol::StrBytes::from_static_str("evil\nhost");
            Reply::Bytes(hostile::frame(request, &quorum))
        }
        _ => Reply::Healthy,
    });
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("live.snapshot");
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--format",
        "concise",
        "--save-snapshot",
        saved.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "error[live-controller-quorum] the controller quorum counts on 2 of its 3 voters"
        ),
        "{stdout}"
    );
    let snapshot = std::fs::read_to_string(&saved).unwrap();
    assert!(
        snapshot.contains("quorum=leader=1 epoch=3 high.watermark=900\n"),
        "{snapshot}"
    );
    assert!(
        snapshot.contains("quorum.voter.0=log.end.offset=500 last.fetch=1764999960000 last.caught.up=1764999960000 endpoints=CONTROLLER://127.0.0.1:19190\n"),
        "{snapshot}"
    );
    assert!(snapshot.contains("quorum.voter.2=log.end.offset=900 last.fetch=1764999999900 last.caught.up=1764999999900\n"), "{snapshot}");
    assert!(!snapshot.contains("evil"), "{snapshot}");
}

/// A principal without Describe on the cluster gets CLUSTER_AUTHORIZATION_FAILED: the quorum is
/// not known, one note says so, and nothing of it is judged.
#[test]
fn a_refused_describe_quorum_leaves_the_quorum_not_known() {
    let cluster = Cluster::start(3, |request| match request.key {
        ApiKey::DescribeQuorum => Reply::Bytes(hostile::frame(
            request,
            &kafka_protocol::messages::DescribeQuorumResponse::default()
                .with_error_code(31)
                .with_error_message(Some(kafka_protocol::protocol::StrBytes::from_static_str(
                    "secret server text",
                ))),
        )),
        _ => Reply::Healthy,
    });
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--format",
        "concise",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let notes: Vec<&str> = stdout
        .lines()
        .filter(|line| line.contains("live-controller-quorum"))
        .collect();
    assert_eq!(notes.len(), 1, "{stdout}");
    assert!(
        notes[0].contains("info[live-controller-quorum] the controller quorum is not known"),
        "{stdout}"
    );
    assert!(
        notes[0].contains("CLUSTER_AUTHORIZATION_FAILED (error 31)"),
        "{stdout}"
    );
    assert!(!stdout.contains("secret server text"), "{stdout}");
    let stopping = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--stopping",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&stopping.stderr);
    assert!(
        stderr.contains("the controller quorum is not known, so not counted"),
        "{stderr}"
    );
}

/// Four voters tolerate one failure, as three do: a warning; five in sync, none.
#[test]
fn an_even_quorum_is_reported() {
    let four = FIVE_VOTERS.replace(
        "quorum.voter.4=log.end.offset=900 last.fetch=1000000039900 last.caught.up=1000000039900\n",
        "",
    );
    let output = judged(&four, &[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "warning[live-controller-quorum] the controller quorum has 4 voters (0,1,2,3): it tolerates 1 failure, no more than 3 voters would"
        ),
        "{stdout}"
    );
    let output = judged(FIVE_VOTERS, &[]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

/// Each broker is asked for its log directories (DescribeLogDirs with an empty topic list: the
/// directories, no partition) and for its groups' types; the snapshot keeps both, and an offline
/// directory and a share group are reported as such.
#[test]
fn log_directories_and_group_types_are_asked_of_each_broker() {
    use kafka_protocol::messages::api_versions_response::ApiVersion;
    use kafka_protocol::messages::describe_log_dirs_response::DescribeLogDirsResult;
    use kafka_protocol::messages::list_groups_response::ListedGroup;
    use kafka_protocol::messages::{
        ApiVersionsResponse, DescribeLogDirsRequest, DescribeLogDirsResponse, GroupId,
        ListGroupsResponse,
    };
    use kafka_protocol::protocol::{Decodable, StrBytes};
    let cluster = Cluster::start(2, |request| match request.key {
        ApiKey::ApiVersions => {
            let range = |key: ApiKey, max: i16| {
                ApiVersion::default()
                    .with_api_key(key as i16)
                    .with_min_version(0)
                    .with_max_version(max)
            };
            Reply::Bytes(hostile::frame(
                request,
                &ApiVersionsResponse::default().with_api_keys(vec![
                    range(ApiKey::ApiVersions, 3),
                    range(ApiKey::Metadata, 12),
                    range(ApiKey::DescribeConfigs, 4),
                    range(ApiKey::ListGroups, 5),
                    range(ApiKey::FindCoordinator, 6),
                    range(ApiKey::DescribeLogDirs, 4),
                ]),
            ))
        }
        ApiKey::DescribeLogDirs => {
            let asked =
                DescribeLogDirsRequest::decode(&mut request.body.clone(), request.version).unwrap();
            assert_eq!(asked.topics, Some(Vec::new()), "no partition asked for");
            let dir = |path: &'static str, error_code: i16| {
                DescribeLogDirsResult::default()
                    .with_log_dir(StrBytes::from_static_str(path))
                    .with_error_code(error_code)
            };
            Reply::Bytes(hostile::frame(
                request,
                &DescribeLogDirsResponse::default()
                    .with_results(vec![dir("/data/a", 0), dir("/data/b", 56)]),
            ))
        }
        ApiKey::ListGroups => Reply::Bytes(hostile::frame(
            request,
            &ListGroupsResponse::default().with_groups(vec![
                ListedGroup::default()
                    .with_group_id(GroupId(StrBytes::from_static_str("checkout")))
                    .with_group_state(StrBytes::from_static_str("Stable"))
                    .with_group_type(StrBytes::from_static_str("share")),
            ]),
        )),
        _ => Reply::Healthy,
    });
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("live.snapshot");
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--save-snapshot",
        saved.to_str().unwrap(),
        "--format",
        "concise",
    ]);
    let snapshot = std::fs::read_to_string(&saved).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    for line in [
        "logdir.0./data/a=ok\n",
        "logdir.0./data/b=KAFKA_STORAGE_ERROR\n",
        "logdir.1./data/b=KAFKA_STORAGE_ERROR\n",
        "group.checkout=coordinator=",
        " type=share\n",
    ] {
        assert!(
            snapshot.contains(line),
            "{line:?} in {snapshot} {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert!(
        stdout.contains("error[live-log-dirs] broker 0 runs with log directory /data/b offline"),
        "{stdout}"
    );
}

/// A TLS client to a listener that hangs up on it (a PLAINTEXT listener reads a ClientHello as a
/// size past `socket.request.max.bytes` and closes): the hint says the TLS side is kafkalint's.
/// No trust store is configured: the system's roots are read (here `SSL_CERT_FILE`, a test CA).
#[test]
fn a_plaintext_listener_reached_over_tls_is_named_so() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut hello = [0u8; 5];
        let _ = stream.read_exact(&mut hello);
        assert_eq!(&hello[..2], [0x16, 0x03], "a TLS ClientHello");
    });
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("client.properties");
    std::fs::write(&config, "security.protocol=SSL\n").unwrap();
    let ca = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/live/tls/ca.pem");
    let output = Command::new(env!("CARGO_BIN_EXE_kafkalint"))
        .args(["live", "--bootstrap-server", &address, "--command-config"])
        .arg(&config)
        .env("SSL_CERT_FILE", ca)
        .env_remove("SSL_CERT_DIR")
        .output()
        .unwrap();
    refused(
        &output,
        "a PLAINTEXT or SASL_PLAINTEXT listener reached over TLS",
    );
    server.join().unwrap();
}

/// Client certificates: a Java key store is refused with the commands that make a PEM one from
/// the configured path; an encrypted key is refused with the command that decrypts it; neither
/// error, nor one about a malformed key, shows a byte of the key.
#[test]
fn client_certificates_are_read_as_pem_and_their_keys_never_shown() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        kafkalint(&[
            "live",
            "--bootstrap-server",
            "127.0.0.1:9",
            "--command-config",
            &path.display().to_string(),
        ])
    };
    let ssl = "security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location=ca.pem\n";
    std::fs::write(dir.path().join("ca.pem"), "").unwrap();
    let jks = run(
        "jks.properties",
        &format!(
            "{ssl}ssl.keystore.location=/etc/kafka/client.keystore.jks\nssl.keystore.password=store-secret-9\n"
        ),
    );
    refused(
        &jks,
        "keytool -importkeystore -srckeystore /etc/kafka/client.keystore.jks",
    );
    assert!(!String::from_utf8_lossy(&jks.stderr).contains("store-secret"));
    let key_text = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgCANARYKEYBYTES";
    let encrypted = run(
        "encrypted.properties",
        &format!(
            "{ssl}ssl.keystore.type=PEM\nssl.key.password=key-secret-7\n\
             ssl.keystore.key=-----BEGIN ENCRYPTED PRIVATE KEY----- \\\n  {key_text} \\\n  -----END ENCRYPTED PRIVATE KEY-----\n\
             ssl.keystore.certificate.chain=-----BEGIN CERTIFICATE----- QUJD -----END CERTIFICATE-----\n"
        ),
    );
    refused(&encrypted, "openssl pkcs8 -topk8 -nocrypt");
    let malformed = run(
        "malformed.properties",
        &format!(
            "{ssl}ssl.keystore.type=PEM\n\
             ssl.keystore.key=-----BEGIN PRIVATE KEY----- {key_text}!! -----END PRIVATE KEY-----\n\
             ssl.keystore.certificate.chain=-----BEGIN CERTIFICATE----- {key_text}!! -----END CERTIFICATE-----\n"
        ),
    );
    refused(&malformed, "ssl.keystore.certificate.chain");
    for output in [&encrypted, &malformed] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("CANARYKEY") && !stderr.contains("key-secret"),
            "{stderr}"
        );
    }
}

/// A broker before 2.4 does not know ApiVersions v3 and answers UNSUPPORTED_VERSION in version
/// 0's format with no versions (Kafka 2.3's `ApiVersionsRequest.getErrorResponse`): one line
/// saying which releases kafkalint speaks to, exit 2.
#[test]
fn a_broker_before_2_4_is_told_apart_in_one_line() {
    let cluster = Cluster::start(1, |request| {
        if request.key != ApiKey::ApiVersions {
            return Reply::Healthy;
        }
        let mut body = request.correlation.to_be_bytes().to_vec();
        body.extend_from_slice(&35i16.to_be_bytes());
        body.extend_from_slice(&0i32.to_be_bytes());
        let mut frame = (body.len() as u32).to_be_bytes().to_vec();
        frame.extend_from_slice(&body);
        Reply::Bytes(frame)
    });
    let output = kafkalint(&["live", "--bootstrap-server", &cluster.address()]);
    refused(
        &output,
        "runs a Kafka release before 2.4 (it answered ApiVersions in the old format): kafkalint live supports Kafka 2.8 and later",
    );
}

/// A token endpoint on 127.0.0.1 that answers every request with `answer`, and hands the
/// requests it read to the test.
fn token_endpoint(answer: &'static str) -> (String, std::sync::mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/realms/kafka/token",
        listener.local_addr().unwrap()
    );
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut request = Vec::new();
            let mut piece = [0u8; 4096];
            while !String::from_utf8_lossy(&request).contains("grant_type") {
                match stream.read(&mut piece) {
                    Ok(0) | Err(_) => break,
                    Ok(read) => request.extend_from_slice(&piece[..read]),
                }
            }
            let _ = sender.send(String::from_utf8_lossy(&request).into_owned());
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    (url, receiver)
}

/// OAUTHBEARER with the client-credentials grant: kafkalint asks the token endpoint once, as
/// Kafka's HttpAccessTokenRetriever does (Basic client id and secret, a form body with the
/// scope), and logs in with the token (RFC 7628's first message); neither the secret nor the
/// token is printed. An endpoint that refuses, whatever its body says, is one line with its
/// HTTP status, exit 2.
#[test]
fn oauthbearer_logs_in_with_a_client_credentials_token_never_shown() {
    const TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJrYWZrYWxpbnQifQ.c2lnbmF0dXJlLWNhbmFyeQ";
    let json = format!("{{\"access_token\":\"{TOKEN}\",\"token_type\":\"Bearer\"}}");
    let answer: &'static str = Box::leak(
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
             {:x}\r\n{json}\r\n0\r\n\r\n",
            json.len()
        )
        .into_boxed_str(),
    );
    let (url, requests) = token_endpoint(answer);
    let logins = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = logins.clone();
    let cluster = Cluster::start(1, move |request| match request.key {
        ApiKey::SaslHandshake => Reply::Bytes(hostile::frame(
            request,
            &kafka_protocol::messages::SaslHandshakeResponse::default().with_mechanisms(vec![
                kafka_protocol::protocol::StrBytes::from_static_str("OAUTHBEARER"),
            ]),
        )),
        ApiKey::SaslAuthenticate => {
            seen.lock().unwrap().push(hostile::sasl_token(request));
            Reply::Healthy
        }
        _ => Reply::Healthy,
    });
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("client.properties");
    std::fs::write(
        &config,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n\
             sasl.oauthbearer.token.endpoint.url={url}\n\
             sasl.login.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler\n\
             sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required \
             clientId=\"kafkalint\" clientSecret=\"client-secret-canary\" scope=\"kafka read\";\n"
        ),
    )
    .unwrap();
    let config = config.display().to_string();
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--command-config",
        &config,
        "--format",
        "json",
    ]);
    let shown = hostile::text(&output);
    assert_eq!(output.status.code(), Some(0), "{shown}");
    let asked = requests.recv().unwrap();
    assert!(
        asked.starts_with("POST /realms/kafka/token HTTP/1.1\r\n"),
        "{asked}"
    );
    // base64("kafkalint:client-secret-canary")
    assert!(asked.contains("Authorization: Basic a2Fma2FsaW50OmNsaWVudC1zZWNyZXQtY2FuYXJ5\r\n"));
    assert!(
        asked.ends_with("grant_type=client_credentials&scope=kafka+read"),
        "{asked}"
    );
    assert!(requests.try_recv().is_err(), "one token a run");
    let logins = logins.lock().unwrap();
    // The bootstrap connection, the broker's own and the controller's (asked for the
    // reassignments in progress), each with the one token.
    let first_message = format!("n,,\u{1}auth=Bearer {TOKEN}\u{1}\u{1}").into_bytes();
    assert_eq!(logins.len(), 3);
    assert!(logins.iter().all(|login| *login == first_message));
    assert!(
        !shown.contains("client-secret") && !shown.contains("c2lnbmF0dXJl"),
        "{shown}"
    );

    let (refusing, _requests) = token_endpoint(
        "HTTP/1.1 401 Unauthorized\r\nContent-Length: 41\r\n\r\n{\"error\":\"client-secret-canary is wrong\"}",
    );
    std::fs::write(
        &config,
        format!(
            "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=OAUTHBEARER\n\
             sasl.oauthbearer.token.endpoint.url={refusing}\n\
             sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required \
             clientId=\"kafkalint\" clientSecret=\"client-secret-canary\";\n"
        ),
    )
    .unwrap();
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--command-config",
        &config,
    ]);
    refused(
        &output,
        "no OAUTHBEARER token: the token endpoint http://127.0.0.1:",
    );
    refused(&output, "it answered HTTP 401");
    refused(&output, "cannot log in to 127.0.0.1:");
    assert!(!hostile::text(&output).contains("canary"));
}

/// On a partial view `--stopping` gives no "go", but a no-go that what is known proves stands:
/// exit 1 with the finding and a note that the view is partial; with nothing found, exit 2.
#[test]
fn a_partial_view_gives_a_no_go_it_can_prove_and_no_go_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.snapshot");
    // No `cluster.operations` line: what the principal may see is not known.
    let stops = "bootstrap=k0:9092\nbroker.0=k0:9092\nbroker.1=k1:9092\n\
        topic.orders=internal=false partitions=1 min.insync.replicas=1\n\
        partition.orders-0=leader=0 replicas=0 isr=0\n";
    std::fs::write(&path, stops).unwrap();
    let snapshot = path.to_str().unwrap();
    let (code, text) = exit_and_text(&["live", "--snapshot", snapshot, "--stopping", "0"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("error[live-stopping-broker]") || text.contains("live-stopping-broker"),
        "{text}"
    );
    assert!(
        text.contains("--stopping 0: a no-go on what is known; the view is partial"),
        "{text}"
    );
    assert!(!text.contains("can stop"), "{text}");
    let (code, text) = exit_and_text(&["live", "--snapshot", snapshot, "--stopping", "1"]);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("--stopping 1: no go/no-go on"), "{text}");
    assert!(!text.contains("can stop"), "{text}");
}

/// A declared topic the cluster did not list is absent only on a whole view: a snapshot that
/// does not record what the principal may do on the cluster (no `cluster.operations=` line)
/// may leave out every topic it may not describe, so the topic's presence is not known. The
/// same snapshot with the line says it is absent.
#[test]
fn a_declared_topic_is_never_called_absent_on_a_partial_view() {
    let fixture = format!(
        "{}/fixtures/live-topic-drift/bad-not-applied",
        env!("CARGO_MANIFEST_DIR")
    );
    let dir = tempfile::tempdir().unwrap();
    for name in ["kafka.yaml", "topic.yaml"] {
        std::fs::copy(format!("{fixture}/{name}"), dir.path().join(name)).unwrap();
    }
    let whole = std::fs::read_to_string(format!("{fixture}/live.snapshot")).unwrap();
    assert!(whole.contains("cluster.operations="));
    let partial: String = whole
        .lines()
        .filter(|line| !line.starts_with("cluster.operations="))
        .map(|line| format!("{line}\n"))
        .collect();
    let judged = |snapshot: &str| {
        let path = dir.path().join("live.snapshot");
        std::fs::write(&path, snapshot).unwrap();
        let output = kafkalint(&[
            "live",
            "--snapshot",
            path.to_str().unwrap(),
            "--format",
            "json",
            dir.path().to_str().unwrap(),
        ]);
        String::from_utf8_lossy(&output.stdout).to_string()
    };
    let said = judged(&whole);
    assert!(
        said.contains("is declared but not on the cluster"),
        "{said}"
    );
    let said = judged(&partial);
    assert!(!said.contains("not on the cluster"), "{said}");
    assert!(
        said.contains("1 declared topic not listed by the cluster (`orders`)")
            && said.contains("whether they exist is not known"),
        "{said}"
    );
}

/// The topics' configs are asked in one DescribeConfigs, every key; the snapshot keeps those set
/// on the topic itself (source DYNAMIC_TOPIC_CONFIG), never a sensitive one nor one the topic
/// takes from the brokers, and a saved snapshot read back compares them with a declaration: a
/// value set otherwise is drift, pointed at its snapshot line, and a value Kafka writes in
/// another form (a list's spaces) is not.
#[test]
fn the_configs_set_on_a_topic_are_asked_saved_and_compared() {
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult,
    };
    use kafka_protocol::messages::{DescribeConfigsRequest, DescribeConfigsResponse};
    use kafka_protocol::protocol::{Decodable, StrBytes};
    let cluster = Cluster::start(3, |request| {
        if request.key != ApiKey::DescribeConfigs {
            return Reply::Healthy;
        }
        let asked =
            DescribeConfigsRequest::decode(&mut request.body.clone(), request.version).unwrap();
        if asked.resources.iter().all(|r| r.resource_type != 2) {
            return Reply::Healthy;
        }
        assert!(
            asked
                .resources
                .iter()
                .all(|r| r.configuration_keys.is_none())
        );
        let entry = |name: &'static str, value: Option<&'static str>, source: i8| {
            DescribeConfigsResourceResult::default()
                .with_name(StrBytes::from_static_str(name))
                .with_value(value.map(StrBytes::from_static_str))
                .with_config_source(source)
        };
        let results = asked
            .resources
            .iter()
            .map(|resource| {
                DescribeConfigsResult::default()
                    .with_resource_type(2)
                    .with_resource_name(resource.resource_name.clone())
                    .with_configs(vec![
                        entry("cleanup.policy", Some("compact,delete"), 1),
                        entry("min.insync.replicas", Some("2"), 4),
                        entry("retention.ms", Some("86400000"), 1),
                        entry("segment.bytes", Some("1073741824"), 5),
                        entry("x.secret", None, 1).with_is_sensitive(true),
                    ])
            })
            .collect();
        Reply::Bytes(hostile::frame(
            request,
            &DescribeConfigsResponse::default().with_results(results),
        ))
    });
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("live.snapshot");
    let output = kafkalint(&[
        "live",
        "--bootstrap-server",
        &cluster.address(),
        "--save-snapshot",
        saved.to_str().unwrap(),
    ]);
    let snapshot = std::fs::read_to_string(&saved).unwrap();
    assert!(
        snapshot.contains(
            "topic.orders=internal=false partitions=1 min.insync.replicas=2 overrides=2\n\
             topic.orders/cleanup.policy=compact,delete\n\
             topic.orders/retention.ms=86400000\n"
        ),
        "{snapshot} {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!snapshot.contains("segment.bytes") && !snapshot.contains("x.secret"));

    let fixture = format!(
        "{}/fixtures/live-topic-drift/good/kafka.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    std::fs::copy(fixture, files.join("kafka.yaml")).unwrap();
    std::fs::write(
        files.join("topic.yaml"),
        "apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n  name: orders\n  \
         labels:\n    strimzi.io/cluster: my-cluster\nspec:\n  config:\n    \
         cleanup.policy: compact, delete\n    retention.ms: 604800000\n",
    )
    .unwrap();
    let output = kafkalint(&[
        "live",
        "--snapshot",
        saved.to_str().unwrap(),
        "--format",
        "concise",
        files.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let drift: Vec<&str> = stdout
        .lines()
        .filter(|line| line.contains("[live-topic-drift]"))
        .collect();
    assert_eq!(drift.len(), 1, "{stdout}");
    assert!(
        drift[0].contains(
            "topic.yaml:10:19: warning[live-topic-drift] topic `orders` is declared with \
             retention.ms=`604800000` but runs with retention.ms=`86400000` set on it"
        ),
        "{stdout}"
    );
}
