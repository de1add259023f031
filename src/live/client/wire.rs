//! The shape of a reply, walked before kafka-protocol decodes it.
//!
//! kafka-protocol 0.18 sizes every array from its length on the wire before it reads an element
//! (`Vec::with_capacity(n)` in `Array::decode` and `CompactArray::decode`, src/protocol/types.rs):
//! a reply of a few bytes whose length says 0xFFFFFFFF asks for 137 GB, and the process aborts.
//! So each reply is first walked here, field by field, without allocating: every length must fit
//! in the bytes left, every element must be there. Only a reply that walks to its end is handed
//! to the decoder, whose arrays then hold at most as many elements as the frame has bytes.
//!
//! The shapes mirror Kafka's message definitions (apache/kafka,
//! clients/src/main/resources/common/message/*Response.json, tag 3.8.0) as kafka-protocol 0.18
//! decodes them (src/messages/*_response.rs): the fields, the versions each is in, and the
//! version from which a message is "flexible" (compact lengths, tagged fields). A known tagged
//! field must fill exactly the size its tag says (kafka-protocol reads it without that bound).
//! `tests` checks each shape against kafka-protocol's own encoding of every version.

use bytes::Buf;
use kafka_protocol::messages::{
    ApiKey, ApiVersionsResponse, ResponseHeader, SaslAuthenticateResponse, SaslHandshakeResponse,
};
use kafka_protocol::protocol::Decodable;

/// One field's encoding.
#[derive(Clone, Copy)]
enum Field {
    Int8,
    Int16,
    Int32,
    Int64,
    Boolean,
    Uuid,
    /// STRING / NULLABLE_STRING, or COMPACT_STRING when flexible.
    String,
    /// BYTES, or COMPACT_BYTES when flexible.
    Bytes,
    /// An array of INT32.
    Int32s,
    /// An array of STRING.
    Strings,
    /// An array of structs.
    Structs(&'static [Part]),
}

/// A field and the versions that carry it (both ends included).
#[derive(Clone, Copy)]
struct Part {
    field: Field,
    first: i16,
    last: i16,
}

const fn all(field: Field) -> Part {
    Part {
        field,
        first: 0,
        last: i16::MAX,
    }
}

const fn since(first: i16, field: Field) -> Part {
    Part {
        field,
        first,
        last: i16::MAX,
    }
}

const fn until(last: i16, field: Field) -> Part {
    Part {
        field,
        first: 0,
        last,
    }
}

const fn between(first: i16, last: i16, field: Field) -> Part {
    Part { field, first, last }
}

/// A message: its versions, the first flexible one, its fields and its known tagged fields
/// (top level only: no reply kafkalint reads has them deeper).
struct Shape {
    versions: (i16, i16),
    flexible_from: i16,
    fields: &'static [Part],
    tagged: &'static [(u32, Field)],
}

use Field::{Boolean, Bytes, Int8, Int16, Int32, Int32s, Int64, String, Strings, Structs, Uuid};

/// ResponseHeader.json: flexible from version 1.
const RESPONSE_HEADER: Shape = Shape {
    versions: (0, 1),
    flexible_from: 1,
    fields: &[all(Int32)],
    tagged: &[],
};

/// ApiVersionsResponse.json: flexible from 3; SupportedFeatures, FinalizedFeaturesEpoch,
/// FinalizedFeatures and ZkMigrationReady are tagged 0 to 3.
const API_VERSIONS: Shape = Shape {
    versions: (0, 4),
    flexible_from: 3,
    fields: &[
        all(Int16),
        all(Structs(&[all(Int16), all(Int16), all(Int16)])),
        since(1, Int32),
    ],
    tagged: &[
        (
            0,
            Structs(&[since(3, String), since(3, Int16), since(3, Int16)]),
        ),
        (1, Int64),
        (
            2,
            Structs(&[since(3, String), since(3, Int16), since(3, Int16)]),
        ),
        (3, Boolean),
    ],
};

/// SaslHandshakeResponse.json: never flexible.
const SASL_HANDSHAKE: Shape = Shape {
    versions: (0, 1),
    flexible_from: i16::MAX,
    fields: &[all(Int16), all(Strings)],
    tagged: &[],
};

/// SaslAuthenticateResponse.json: flexible from 2.
const SASL_AUTHENTICATE: Shape = Shape {
    versions: (0, 2),
    flexible_from: 2,
    fields: &[all(Int16), all(String), all(Bytes), since(1, Int64)],
    tagged: &[],
};

/// MetadataResponse.json: flexible from 9.
const METADATA: Shape = Shape {
    versions: (0, 13),
    flexible_from: 9,
    fields: &[
        since(3, Int32),
        // Brokers: node id, host, port, rack.
        all(Structs(&[
            all(Int32),
            all(String),
            all(Int32),
            since(1, String),
        ])),
        since(2, String),
        since(1, Int32),
        // Topics.
        all(Structs(&[
            all(Int16),
            all(String),
            since(10, Uuid),
            since(1, Boolean),
            // Partitions: error, index, leader, leader epoch, replicas, ISR, offline.
            all(Structs(&[
                all(Int16),
                all(Int32),
                all(Int32),
                since(7, Int32),
                all(Int32s),
                all(Int32s),
                since(5, Int32s),
            ])),
            since(8, Int32),
        ])),
        between(8, 10, Int32),
        since(13, Int16),
    ],
    tagged: &[],
};

/// DescribeConfigsResponse.json: versions 1 to 4 as kafka-protocol reads them, flexible from 4.
const DESCRIBE_CONFIGS: Shape = Shape {
    versions: (1, 4),
    flexible_from: 4,
    fields: &[
        all(Int32),
        // Results: error, message, resource type and name, configs.
        all(Structs(&[
            all(Int16),
            all(String),
            all(Int8),
            all(String),
            // Configs: name, value, read-only, source, sensitive, synonyms, type, documentation.
            all(Structs(&[
                all(String),
                all(String),
                all(Boolean),
                all(Int8),
                all(Boolean),
                all(Structs(&[all(String), all(String), all(Int8)])),
                since(3, Int8),
                since(3, String),
            ])),
        ])),
    ],
    tagged: &[],
};

/// ListGroupsResponse.json: flexible from 3.
const LIST_GROUPS: Shape = Shape {
    versions: (0, 5),
    flexible_from: 3,
    fields: &[
        since(1, Int32),
        all(Int16),
        // Groups: id, protocol type, state, type.
        all(Structs(&[
            all(String),
            all(String),
            since(4, String),
            since(5, String),
        ])),
    ],
    tagged: &[],
};

/// FindCoordinatorResponse.json: flexible from 3; one key before 4, a batch since (KIP-699).
const FIND_COORDINATOR: Shape = Shape {
    versions: (0, 6),
    flexible_from: 3,
    fields: &[
        since(1, Int32),
        until(3, Int16),
        between(1, 3, String),
        until(3, Int32),
        until(3, String),
        until(3, Int32),
        // Coordinators: key, node id, host, port, error, message.
        since(
            4,
            Structs(&[
                since(4, String),
                since(4, Int32),
                since(4, String),
                since(4, Int32),
                since(4, Int16),
                since(4, String),
            ]),
        ),
    ],
    tagged: &[],
};

/// DescribeClusterResponse.json: flexible at every version; EndpointType from 1, a broker's
/// IsFenced from 2.
const DESCRIBE_CLUSTER: Shape = Shape {
    versions: (0, 2),
    flexible_from: 0,
    fields: &[
        all(Int32),
        all(Int16),
        all(String),
        since(1, Int8),
        all(String),
        all(Int32),
        // Brokers: id, host, port, rack, fenced.
        all(Structs(&[
            all(Int32),
            all(String),
            all(Int32),
            all(String),
            since(2, Boolean),
        ])),
        all(Int32),
    ],
    tagged: &[],
};

/// ListPartitionReassignmentsResponse.json: version 0 only, flexible (KIP-455, Kafka 2.4).
const LIST_PARTITION_REASSIGNMENTS: Shape = Shape {
    versions: (0, 0),
    flexible_from: 0,
    fields: &[
        all(Int32),
        all(Int16),
        all(String),
        // Topics: name, then partitions: index, replicas, adding, removing.
        all(Structs(&[
            all(String),
            all(Structs(&[
                all(Int32),
                all(Int32s),
                all(Int32s),
                all(Int32s),
            ])),
        ])),
    ],
    tagged: &[],
};

/// DescribeLogDirsResponse.json: versions 1 to 4 as kafka-protocol reads them, flexible from 2.
const DESCRIBE_LOG_DIRS: Shape = Shape {
    versions: (1, 4),
    flexible_from: 2,
    fields: &[
        all(Int32),
        since(3, Int16),
        // Results: error, log dir, topics, total and usable bytes.
        all(Structs(&[
            all(Int16),
            all(String),
            // Topics: name, partitions (index, size, offset lag, future key).
            all(Structs(&[
                all(String),
                all(Structs(&[all(Int32), all(Int64), all(Int64), all(Boolean)])),
            ])),
            since(4, Int64),
            since(4, Int64),
        ])),
    ],
    tagged: &[],
};

/// DescribeQuorumResponse.json's ReplicaState: id, directory id (2+), log end offset, last
/// fetch and last caught-up times (1+).
const REPLICA_STATE: &[Part] = &[
    all(Int32),
    since(2, Uuid),
    all(Int64),
    since(1, Int64),
    since(1, Int64),
];

/// DescribeQuorumResponse.json (apache/kafka tag 3.9.0): flexible from 0; version 1 adds the
/// fetch times (KIP-836), version 2 the error messages, directory ids and the voters' nodes
/// (KIP-853).
const DESCRIBE_QUORUM: Shape = Shape {
    versions: (0, 2),
    flexible_from: 0,
    fields: &[
        all(Int16),
        since(2, String),
        // Topics: name, partitions.
        all(Structs(&[
            all(String),
            // Partitions: index, error, message, leader, epoch, high watermark, voters,
            // observers.
            all(Structs(&[
                all(Int32),
                all(Int16),
                since(2, String),
                all(Int32),
                all(Int32),
                all(Int64),
                all(Structs(REPLICA_STATE)),
                all(Structs(REPLICA_STATE)),
            ])),
        ])),
        // Nodes: id, listeners (name, host, port as uint16).
        since(
            2,
            Structs(&[
                since(2, Int32),
                since(
                    2,
                    Structs(&[since(2, String), since(2, String), since(2, Int16)]),
                ),
            ]),
        ),
    ],
    tagged: &[],
};

fn shape(key: ApiKey) -> Option<&'static Shape> {
    Some(match key {
        ApiKey::ApiVersions => &API_VERSIONS,
        ApiKey::SaslHandshake => &SASL_HANDSHAKE,
        ApiKey::SaslAuthenticate => &SASL_AUTHENTICATE,
        ApiKey::Metadata => &METADATA,
        ApiKey::DescribeConfigs => &DESCRIBE_CONFIGS,
        ApiKey::ListGroups => &LIST_GROUPS,
        ApiKey::FindCoordinator => &FIND_COORDINATOR,
        ApiKey::DescribeCluster => &DESCRIBE_CLUSTER,
        ApiKey::ListPartitionReassignments => &LIST_PARTITION_REASSIGNMENTS,
        ApiKey::DescribeQuorum => &DESCRIBE_QUORUM,
        ApiKey::DescribeLogDirs => &DESCRIBE_LOG_DIRS,
        _ => return None,
    })
}

/// Walks the response header (at `key`'s header version for `version`) and the response of
/// `key` at `version` over `frame`: the number of bytes they fill, or why they do not fit.
pub fn walk(key: ApiKey, version: i16, frame: &[u8]) -> Result<usize, std::string::String> {
    let body_shape = shape(key).ok_or_else(|| format!("kafkalint reads no {key:?} reply"))?;
    let mut reader = Reader { rest: frame };
    reader.message(&RESPONSE_HEADER, key.response_header_version(version))?;
    reader.message(body_shape, version)?;
    Ok(frame.len() - reader.rest.len())
}

struct Reader<'a> {
    rest: &'a [u8],
}

type Walked = Result<(), std::string::String>;

impl Reader<'_> {
    fn take(&mut self, count: usize) -> Walked {
        if count > self.rest.len() {
            return Err(format!(
                "a length of {count} bytes where {} are left",
                self.rest.len()
            ));
        }
        self.rest = &self.rest[count..];
        Ok(())
    }

    fn signed(&mut self, bytes: usize) -> Result<i64, std::string::String> {
        let taken = self.rest.get(..bytes).ok_or("it ends inside a number")?;
        let value = taken
            .iter()
            .fold(0i64, |value, byte| value << 8 | i64::from(*byte));
        self.rest = &self.rest[bytes..];
        // Sign-extends the `bytes`-wide integer.
        let shift = 64 - 8 * bytes as u32;
        Ok((value << shift) >> shift)
    }

    /// kafka-protocol's `UnsignedVarInt`: up to five bytes, the bits past 32 dropped.
    fn varint(&mut self) -> Result<u32, std::string::String> {
        let mut value = 0u32;
        for index in 0..5 {
            let (&byte, rest) = self.rest.split_first().ok_or("it ends inside a length")?;
            self.rest = rest;
            value |= (u32::from(byte) & 0x7F).wrapping_shl(index * 7);
            if byte < 0x80 {
                break;
            }
        }
        Ok(value)
    }

    /// An element count: null (`None`), or a count no larger than the bytes left (each element
    /// fills one byte at least).
    fn count(&mut self, flexible: bool) -> Result<Option<usize>, std::string::String> {
        let count = if flexible {
            match self.varint()? {
                0 => return Ok(None),
                n => (n - 1) as usize,
            }
        } else {
            match self.signed(4)? {
                -1 => return Ok(None),
                n if n < 0 => return Err(format!("a negative length ({n})")),
                n => n as usize,
            }
        };
        if count > self.rest.len() {
            return Err(format!(
                "an array of {count} elements where {} bytes are left",
                self.rest.len()
            ));
        }
        Ok(Some(count))
    }

    /// A string's or bytes' length (`None` for null).
    fn length(&mut self, flexible: bool, wide: bool) -> Result<Option<usize>, std::string::String> {
        if flexible {
            return Ok(match self.varint()? {
                0 => None,
                n => Some((n - 1) as usize),
            });
        }
        match self.signed(if wide { 4 } else { 2 })? {
            -1 => Ok(None),
            n if n < 0 => Err(format!("a negative length ({n})")),
            n => Ok(Some(n as usize)),
        }
    }

    fn field(&mut self, field: Field, version: i16, flexible: bool) -> Walked {
        match field {
            Int8 | Boolean => self.take(1),
            Int16 => self.take(2),
            Int32 => self.take(4),
            Int64 => self.take(8),
            Uuid => self.take(16),
            String | Bytes => match self.length(flexible, matches!(field, Bytes))? {
                Some(length) => self.take(length),
                None => Ok(()),
            },
            Int32s | Strings | Structs(_) => {
                let Some(count) = self.count(flexible)? else {
                    return Ok(());
                };
                for _ in 0..count {
                    match field {
                        Int32s => self.take(4)?,
                        Strings => self.field(String, version, flexible)?,
                        Structs(parts) => self.fields(parts, version, flexible, &[])?,
                        _ => unreachable!("an array field"),
                    }
                }
                Ok(())
            }
        }
    }

    fn fields(
        &mut self,
        parts: &[Part],
        version: i16,
        flexible: bool,
        tagged: &[(u32, Field)],
    ) -> Walked {
        for part in parts {
            if (part.first..=part.last).contains(&version) {
                self.field(part.field, version, flexible)?;
            }
        }
        if flexible {
            let tags = self.varint()?;
            for _ in 0..tags {
                let tag = self.varint()?;
                let size = self.varint()? as usize;
                if size > self.rest.len() {
                    return Err(format!(
                        "a tagged field of {size} bytes where {} are left",
                        self.rest.len()
                    ));
                }
                let (inside, after) = self.rest.split_at(size);
                if let Some((_, field)) = tagged.iter().find(|(known, _)| *known == tag) {
                    let mut within = Reader { rest: inside };
                    within.field(*field, version, flexible)?;
                    if !within.rest.is_empty() {
                        return Err(format!("tagged field {tag} is not the size it says"));
                    }
                }
                self.rest = after;
            }
        }
        Ok(())
    }

    fn message(&mut self, shape: &Shape, version: i16) -> Walked {
        if !(shape.versions.0..=shape.versions.1).contains(&version) {
            return Err(format!("version {version}, which kafkalint does not read"));
        }
        let flexible = version >= shape.flexible_from;
        self.fields(shape.fields, version, flexible, shape.tagged)
    }
}

/// `frame` (a response header and a response of `key` at `version`) decoded, once its shape
/// has walked to the end without allocating ([`walk`]): the correlation id and the
/// response.
pub fn decode<Response: Decodable>(
    key: ApiKey,
    version: i16,
    frame: bytes::Bytes,
) -> Result<(i32, Response), std::string::String> {
    let malformed = |why: std::string::String| format!("a malformed {key:?} reply ({why})");
    let walked = walk(key, version, &frame).map_err(malformed)?;
    let mut body = frame;
    let size = body.len();
    let header = ResponseHeader::decode(&mut body, key.response_header_version(version))
        .map_err(|error| malformed(error.to_string()))?;
    let response =
        Response::decode(&mut body, version).map_err(|error| malformed(error.to_string()))?;
    // The walk mirrors the decoder: both read the same bytes (checked by the fuzz target).
    debug_assert_eq!(size - body.remaining(), walked, "{key:?} v{version}");
    Ok((header.correlation_id, response))
}

/// A reply to the request `api_key` at `version` (response header and body), decoded as
/// `kafkalint live` decodes it: `Ok` when it decodes, else why not. For the fuzz target.
pub fn decode_reply(api_key: i16, version: i16, frame: &[u8]) -> Result<(), std::string::String> {
    use kafka_protocol::messages::{
        DescribeClusterResponse, DescribeConfigsResponse, DescribeLogDirsResponse,
        DescribeQuorumResponse, FindCoordinatorResponse, ListGroupsResponse,
        ListPartitionReassignmentsResponse, MetadataResponse,
    };
    let key = ApiKey::try_from(api_key).map_err(|_| format!("no API key {api_key}"))?;
    let frame = bytes::Bytes::copy_from_slice(frame);
    match key {
        ApiKey::ApiVersions => decode::<ApiVersionsResponse>(key, version, frame).map(drop),
        ApiKey::SaslHandshake => decode::<SaslHandshakeResponse>(key, version, frame).map(drop),
        ApiKey::SaslAuthenticate => {
            decode::<SaslAuthenticateResponse>(key, version, frame).map(drop)
        }
        ApiKey::Metadata => decode::<MetadataResponse>(key, version, frame).map(drop),
        ApiKey::DescribeConfigs => decode::<DescribeConfigsResponse>(key, version, frame).map(drop),
        ApiKey::ListGroups => decode::<ListGroupsResponse>(key, version, frame).map(drop),
        ApiKey::FindCoordinator => decode::<FindCoordinatorResponse>(key, version, frame).map(drop),
        ApiKey::DescribeCluster => decode::<DescribeClusterResponse>(key, version, frame).map(drop),
        ApiKey::ListPartitionReassignments => {
            decode::<ListPartitionReassignmentsResponse>(key, version, frame).map(drop)
        }
        ApiKey::DescribeQuorum => decode::<DescribeQuorumResponse>(key, version, frame).map(drop),
        ApiKey::DescribeLogDirs => decode::<DescribeLogDirsResponse>(key, version, frame).map(drop),
        _ => Err(format!("kafkalint reads no {key:?} reply")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kafka_protocol::messages::api_versions_response::{
        ApiVersion, FinalizedFeatureKey, SupportedFeatureKey,
    };
    use kafka_protocol::messages::describe_cluster_response::DescribeClusterBroker;
    use kafka_protocol::messages::describe_configs_response::{
        DescribeConfigsResourceResult, DescribeConfigsResult, DescribeConfigsSynonym,
    };
    use kafka_protocol::messages::describe_log_dirs_response::{
        DescribeLogDirsPartition, DescribeLogDirsResult, DescribeLogDirsTopic,
    };
    use kafka_protocol::messages::find_coordinator_response::Coordinator;
    use kafka_protocol::messages::list_groups_response::ListedGroup;
    use kafka_protocol::messages::list_partition_reassignments_response::{
        OngoingPartitionReassignment, OngoingTopicReassignment,
    };
    use kafka_protocol::messages::metadata_response::{
        MetadataResponseBroker, MetadataResponsePartition, MetadataResponseTopic,
    };
    use kafka_protocol::messages::*;
    use kafka_protocol::protocol::{Encodable, Message, StrBytes};

    /// A small deterministic generator (xorshift): many shapes of each message.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> usize {
            (self.next() % n) as usize
        }
        fn text(&mut self) -> StrBytes {
            StrBytes::from_string("k".repeat(self.below(40)))
        }
        fn maybe(&mut self) -> Option<StrBytes> {
            (self.below(4) != 0).then(|| self.text())
        }
        fn ids(&mut self) -> Vec<BrokerId> {
            (0..self.below(5)).map(|i| BrokerId(i as i32)).collect()
        }
    }

    /// A DescribeQuorum reply with the fields `version` has, filled at random.
    fn describe_quorum_response(r: &mut Random, version: i16) -> DescribeQuorumResponse {
        use kafka_protocol::messages::describe_quorum_response::{
            Listener, Node, PartitionData, ReplicaState, TopicData,
        };
        let replicas = |r: &mut Random| -> Vec<ReplicaState> {
            (0..r.below(4))
                .map(|i| {
                    let mut replica = ReplicaState::default()
                        .with_replica_id(BrokerId(i as i32))
                        .with_log_end_offset(r.next() as i64);
                    if version >= 1 {
                        replica = replica
                            .with_last_fetch_timestamp(r.next() as i64)
                            .with_last_caught_up_timestamp(r.next() as i64);
                    }
                    replica
                })
                .collect()
        };
        let partitions = (0..r.below(3))
            .map(|i| {
                let mut partition = PartitionData::default()
                    .with_partition_index(i as i32)
                    .with_leader_id(BrokerId(1))
                    .with_current_voters(replicas(r))
                    .with_observers(replicas(r));
                if version >= 2 {
                    partition = partition.with_error_message(r.maybe());
                }
                partition
            })
            .collect();
        let mut quorum = DescribeQuorumResponse::default().with_topics(vec![
            TopicData::default()
                .with_topic_name(TopicName(r.text()))
                .with_partitions(partitions),
        ]);
        if version >= 2 {
            let nodes = (0..r.below(3))
                .map(|i| {
                    Node::default()
                        .with_node_id(BrokerId(i as i32))
                        .with_listeners(
                            (0..r.below(3))
                                .map(|_| {
                                    Listener::default().with_name(r.text()).with_host(r.text())
                                })
                                .collect(),
                        )
                })
                .collect();
            quorum = quorum.with_error_message(r.maybe()).with_nodes(nodes);
        }
        quorum
    }

    /// The frame kafka-protocol encodes, or `None` when the message holds a field `version`
    /// has not (the crate refuses it).
    fn encoded<M: Encodable + Message>(message: &M, key: ApiKey, version: i16) -> Option<Vec<u8>> {
        let mut frame = bytes::BytesMut::new();
        ResponseHeader::default()
            .with_correlation_id(7)
            .encode(&mut frame, key.response_header_version(version))
            .unwrap();
        message.encode(&mut frame, version).ok()?;
        Some(frame.to_vec())
    }

    /// Every message kafkalint reads, filled at random and encoded by kafka-protocol at every
    /// version it has: the walk fills exactly the frame (the shapes are the crate's), and a
    /// frame cut short anywhere does not walk.
    #[test]
    fn each_shape_walks_what_kafka_protocol_encodes_at_every_version() {
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        let mut walked = std::collections::BTreeMap::new();
        for _ in 0..40 {
            let r = &mut random;
            let mut frames: Vec<(ApiKey, i16, Vec<u8>)> = Vec::new();
            let api_versions = ApiVersionsResponse::default()
                .with_error_code(35)
                .with_api_keys(
                    (0..r.below(6))
                        .map(|i| ApiVersion::default().with_api_key(i as i16))
                        .collect(),
                )
                .with_supported_features(if r.below(2) == 0 {
                    vec![SupportedFeatureKey::default().with_name(r.text())]
                } else {
                    Vec::new()
                })
                .with_finalized_features_epoch(if r.below(2) == 0 { 5 } else { -1 })
                .with_finalized_features(if r.below(2) == 0 {
                    vec![FinalizedFeatureKey::default().with_name(r.text())]
                } else {
                    Vec::new()
                })
                .with_zk_migration_ready(r.below(2) == 0);
            for version in 0..=ApiVersionsResponse::VERSIONS.max {
                frames.extend(
                    encoded(&api_versions, ApiKey::ApiVersions, version)
                        .map(|frame| (ApiKey::ApiVersions, version, frame)),
                );
            }
            let handshake = SaslHandshakeResponse::default()
                .with_mechanisms((0..r.below(4)).map(|_| r.text()).collect());
            for version in 0..=SaslHandshakeResponse::VERSIONS.max {
                frames.extend(
                    encoded(&handshake, ApiKey::SaslHandshake, version)
                        .map(|frame| (ApiKey::SaslHandshake, version, frame)),
                );
            }
            let authenticate = SaslAuthenticateResponse::default()
                .with_error_message(r.maybe())
                .with_auth_bytes(vec![1u8; r.below(30)].into());
            for version in 0..=SaslAuthenticateResponse::VERSIONS.max {
                frames.extend(
                    encoded(&authenticate, ApiKey::SaslAuthenticate, version)
                        .map(|frame| (ApiKey::SaslAuthenticate, version, frame)),
                );
            }
            let metadata = MetadataResponse::default()
                .with_cluster_id(r.maybe())
                .with_brokers(
                    (0..r.below(4))
                        .map(|i| {
                            MetadataResponseBroker::default()
                                .with_node_id(BrokerId(i as i32))
                                .with_host(r.text())
                                .with_rack(r.maybe())
                        })
                        .collect(),
                )
                .with_topics(
                    (0..r.below(4))
                        .map(|_| {
                            MetadataResponseTopic::default()
                                .with_name(Some(TopicName(r.text())))
                                .with_partitions(
                                    (0..r.below(4))
                                        .map(|_| {
                                            MetadataResponsePartition::default()
                                                .with_replica_nodes(r.ids())
                                                .with_isr_nodes(r.ids())
                                                .with_offline_replicas(r.ids())
                                        })
                                        .collect(),
                                )
                        })
                        .collect(),
                );
            for version in 0..=MetadataResponse::VERSIONS.max {
                // Versions before 5 have no offline replicas to encode.
                let metadata = if version < 5 {
                    let mut plain = metadata.clone();
                    for topic in &mut plain.topics {
                        for partition in &mut topic.partitions {
                            partition.offline_replicas.clear();
                        }
                    }
                    plain
                } else {
                    metadata.clone()
                };
                frames.extend(
                    encoded(&metadata, ApiKey::Metadata, version)
                        .map(|frame| (ApiKey::Metadata, version, frame)),
                );
            }
            let configs = DescribeConfigsResponse::default().with_results(
                (0..r.below(3))
                    .map(|_| {
                        DescribeConfigsResult::default()
                            .with_error_message(r.maybe())
                            .with_resource_name(r.text())
                            .with_configs(
                                (0..r.below(4))
                                    .map(|_| {
                                        DescribeConfigsResourceResult::default()
                                            .with_name(r.text())
                                            .with_value(r.maybe())
                                            .with_documentation(r.maybe())
                                            .with_synonyms(
                                                (0..r.below(3))
                                                    .map(|_| {
                                                        DescribeConfigsSynonym::default()
                                                            .with_name(r.text())
                                                            .with_value(r.maybe())
                                                    })
                                                    .collect(),
                                            )
                                    })
                                    .collect(),
                            )
                    })
                    .collect(),
            );
            for version in
                DescribeConfigsResponse::VERSIONS.min..=DescribeConfigsResponse::VERSIONS.max
            {
                frames.extend(
                    encoded(&configs, ApiKey::DescribeConfigs, version)
                        .map(|frame| (ApiKey::DescribeConfigs, version, frame)),
                );
            }
            let groups = ListGroupsResponse::default().with_groups(
                (0..r.below(4))
                    .map(|_| {
                        ListedGroup::default()
                            .with_group_id(GroupId(r.text()))
                            .with_protocol_type(r.text())
                            .with_group_state(r.text())
                            .with_group_type(r.text())
                    })
                    .collect(),
            );
            for version in 0..=ListGroupsResponse::VERSIONS.max {
                frames.extend(
                    encoded(&groups, ApiKey::ListGroups, version)
                        .map(|frame| (ApiKey::ListGroups, version, frame)),
                );
            }
            for version in 0..=FindCoordinatorResponse::VERSIONS.max {
                let coordinator = if version >= 4 {
                    FindCoordinatorResponse::default().with_coordinators(
                        (0..r.below(3))
                            .map(|_| {
                                Coordinator::default()
                                    .with_key(r.text())
                                    .with_host(r.text())
                                    .with_error_message(r.maybe())
                            })
                            .collect(),
                    )
                } else {
                    FindCoordinatorResponse::default()
                        .with_host(r.text())
                        .with_error_message(if version >= 1 { r.maybe() } else { None })
                };
                frames.extend(
                    encoded(&coordinator, ApiKey::FindCoordinator, version)
                        .map(|frame| (ApiKey::FindCoordinator, version, frame)),
                );
            }
            let cluster = DescribeClusterResponse::default()
                .with_error_message(r.maybe())
                .with_cluster_id(r.text())
                .with_cluster_authorized_operations(r.below(1 << 16) as i32)
                .with_brokers(
                    (0..r.below(4))
                        .map(|i| {
                            DescribeClusterBroker::default()
                                .with_broker_id(BrokerId(i as i32))
                                .with_host(r.text())
                                .with_rack(r.maybe())
                        })
                        .collect(),
                );
            for version in 0..=DescribeClusterResponse::VERSIONS.max {
                frames.extend(
                    encoded(&cluster, ApiKey::DescribeCluster, version)
                        .map(|frame| (ApiKey::DescribeCluster, version, frame)),
                );
            }
            let moving = ListPartitionReassignmentsResponse::default()
                .with_error_message(r.maybe())
                .with_topics(
                    (0..r.below(3))
                        .map(|_| {
                            OngoingTopicReassignment::default()
                                .with_name(TopicName(r.text()))
                                .with_partitions(
                                    (0..r.below(3))
                                        .map(|_| {
                                            OngoingPartitionReassignment::default()
                                                .with_replicas(r.ids())
                                                .with_adding_replicas(r.ids())
                                                .with_removing_replicas(r.ids())
                                        })
                                        .collect(),
                                )
                        })
                        .collect(),
                );
            frames.extend(
                encoded(&moving, ApiKey::ListPartitionReassignments, 0)
                    .map(|frame| (ApiKey::ListPartitionReassignments, 0, frame)),
            );
            for version in 0..=DescribeQuorumResponse::VERSIONS.max {
                let quorum = describe_quorum_response(r, version);
                frames.extend(
                    encoded(&quorum, ApiKey::DescribeQuorum, version)
                        .map(|frame| (ApiKey::DescribeQuorum, version, frame)),
                );
            }
            let log_dirs = DescribeLogDirsResponse::default().with_results(
                (0..r.below(3))
                    .map(|_| {
                        DescribeLogDirsResult::default()
                            .with_log_dir(r.text())
                            .with_topics(
                                (0..r.below(3))
                                    .map(|_| {
                                        DescribeLogDirsTopic::default()
                                            .with_name(TopicName(r.text()))
                                            .with_partitions(
                                                (0..r.below(3))
                                                    .map(|_| DescribeLogDirsPartition::default())
                                                    .collect(),
                                            )
                                    })
                                    .collect(),
                            )
                    })
                    .collect(),
            );
            for version in
                DescribeLogDirsResponse::VERSIONS.min..=DescribeLogDirsResponse::VERSIONS.max
            {
                frames.extend(
                    encoded(&log_dirs, ApiKey::DescribeLogDirs, version)
                        .map(|frame| (ApiKey::DescribeLogDirs, version, frame)),
                );
            }
            for (key, version, frame) in frames {
                *walked.entry((key as i16, version)).or_insert(0) += 1;
                assert_eq!(
                    walk(key, version, &frame),
                    Ok(frame.len()),
                    "{key:?} v{version}"
                );
                for cut in 0..frame.len() {
                    let walked = walk(key, version, &frame[..cut]);
                    assert!(walked.is_err(), "{key:?} v{version} cut at {cut}");
                }
                // Each position overwritten with the largest lengths a field can say, and the
                // decoder after the walk: never more elements than bytes.
                for length in [
                    &[0xFF, 0xFF, 0xFF, 0xFF, 0x0F][..],
                    &[0x7F, 0xFF, 0xFF, 0xFF],
                ] {
                    for at in 0..frame.len().saturating_sub(length.len()) {
                        let mut changed = frame.clone();
                        changed[at..at + length.len()].copy_from_slice(length);
                        let _ = decode_reply(key as i16, version, &changed);
                    }
                }
            }
        }
        // Every version of every reply walked at least once.
        let versions = [
            (ApiKey::ApiVersions, 0..=4),
            (ApiKey::SaslHandshake, 0..=1),
            (ApiKey::SaslAuthenticate, 0..=2),
            (ApiKey::Metadata, 0..=13),
            (ApiKey::DescribeConfigs, 1..=4),
            (ApiKey::ListGroups, 0..=5),
            (ApiKey::FindCoordinator, 0..=6),
            (ApiKey::DescribeCluster, 0..=2),
            (ApiKey::ListPartitionReassignments, 0..=0),
            (ApiKey::DescribeQuorum, 0..=2),
            (ApiKey::DescribeLogDirs, 1..=4),
        ];
        for (key, range) in versions {
            for version in range {
                assert!(
                    walked.contains_key(&(key as i16, version)),
                    "{key:?} v{version} never encoded"
                );
            }
        }
    }
}
