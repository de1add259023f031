//! A node's place in KRaft as `KafkaConfig` reads it: `process.roles` and the controller quorum
//! (`controller.quorum.voters`, `controller.quorum.bootstrap.servers`).

use crate::catalog::KafkaVersion;

use super::Roles;
use super::address::{match_host_and_port, valid_host};
use super::setting::{Item, Setting, Split, config_list_split, split};

/// `process.roles` as `parseProcessRoles` reads it.
#[derive(Debug)]
pub struct ProcessRoles<'a> {
    pub roles: Roles,
    pub setting: Setting<'a>,
    /// Kafka 3.9 to 4.1: items that repeat an earlier one, which Kafka refuses (4.2 drops
    /// repeats silently).
    pub repeated: Vec<Item<'a>>,
}

impl ProcessRoles<'_> {
    pub fn is_empty(&self) -> bool {
        !self.roles.broker && !self.roles.controller
    }

    /// Kafka 3.9 runs a node without roles in ZooKeeper mode.
    pub fn zookeeper_mode(&self, version: KafkaVersion) -> bool {
        self.is_empty() && version <= KafkaVersion::LAST_WITH_ZOOKEEPER
    }

    pub fn broker_only(&self) -> bool {
        self.roles.broker && !self.roles.controller
    }

    pub fn controller_only(&self) -> bool {
        self.roles.controller && !self.roles.broker
    }

    pub fn combined(&self) -> bool {
        self.roles.broker && self.roles.controller
    }
}

/// Reads `process.roles` once ConfigDef accepted it (every item is `broker` or `controller`).
pub fn process_roles<'a>(setting: Setting<'a>, version: KafkaVersion) -> ProcessRoles<'a> {
    let items = split(setting.text, config_list_split("process.roles", version));
    let mut roles = Roles::default();
    let mut repeated = Vec::new();
    for item in items {
        let seen = match item.text {
            "broker" => std::mem::replace(&mut roles.broker, true),
            "controller" => std::mem::replace(&mut roles.controller, true),
            _ => false,
        };
        if seen {
            repeated.push(item);
        }
    }
    ProcessRoles {
        roles,
        setting,
        repeated,
    }
}

/// One `{id}@{host}:{port}` of `controller.quorum.voters`.
#[derive(Debug, Clone, Copy)]
pub struct Voter<'a> {
    pub id: i32,
    pub host: &'a str,
    pub port: u16,
    pub item: Item<'a>,
}

/// Why Kafka refuses an item of `controller.quorum.voters` or of
/// `controller.quorum.bootstrap.servers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressProblem {
    /// A voter that is not `{id}@…` (no `@`, two of them, or nothing after it; an empty item).
    VoterShape,
    /// The voter id is not an integer (it is not trimmed: `1 @h:9093` fails).
    VoterId,
    /// No `host:port` (a missing port, a path, characters no host has).
    HostPort,
    /// The port is above 65535.
    PortRange,
}

/// A refused item and why.
#[derive(Debug, Clone, Copy)]
pub struct QuorumProblem<'a> {
    pub item: Item<'a>,
    pub problem: AddressProblem,
}

/// Kafka 4.0 allows only a `scheme://` before a host; 3.x skips any prefix.
fn any_prefix(version: KafkaVersion) -> bool {
    version < KafkaVersion::new(4, 0)
}

/// `host:port` as `Utils.getHost`/`getPort` and `InetSocketAddress` take it.
fn host_and_port(address: &str, version: KafkaVersion) -> Result<(&str, u16), AddressProblem> {
    let (host, port) =
        match_host_and_port(address, any_prefix(version)).ok_or(AddressProblem::HostPort)?;
    if !valid_host(host) {
        return Err(AddressProblem::HostPort);
    }
    // Digits that overflow an int escape as a NumberFormatException; above 65535,
    // InetSocketAddress refuses the port.
    let port: i32 = port.parse().map_err(|_| AddressProblem::PortRange)?;
    let port = u16::try_from(port).map_err(|_| AddressProblem::PortRange)?;
    Ok((host, port))
}

/// Java's `split("@")` with limit 0: trailing empty pieces dropped.
fn split_at_signs(text: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split('@').collect();
    if pieces.len() > 1 {
        while pieces.last() == Some(&"") {
            pieces.pop();
        }
    }
    pieces
}

fn voter<'a>(item: Item<'a>, version: KafkaVersion) -> Result<Voter<'a>, AddressProblem> {
    let pieces = split_at_signs(item.text);
    let [id, address] = pieces[..] else {
        return Err(AddressProblem::VoterShape);
    };
    // Integer.parseInt, untrimmed: a sign and digits of any script.
    let id = crate::catalog::value::parse_java_integer(id, i32::MIN.into(), i32::MAX.into())
        .and_then(|id| i32::try_from(id).ok())
        .ok_or(AddressProblem::VoterId)?;
    let (host, port) = host_and_port(address, version)?;
    Ok(Voter {
        id,
        host,
        port,
        item,
    })
}

/// `controller.quorum.voters` as its ConfigDef validator parses it: every voter, or every item
/// Kafka refuses. Repeated ids are not an error (the last one wins).
pub fn voters<'a>(
    setting: Setting<'a>,
    version: KafkaVersion,
) -> Result<Vec<Voter<'a>>, Vec<QuorumProblem<'a>>> {
    collect(
        split(setting.text, Split::ConfigList)
            .into_iter()
            .map(|item| voter(item, version).map_err(|problem| QuorumProblem { item, problem })),
    )
}

/// One `host:port` of `controller.quorum.bootstrap.servers`.
#[derive(Debug, Clone, Copy)]
pub struct BootstrapServer<'a> {
    pub host: &'a str,
    pub port: u16,
    pub item: Item<'a>,
}

/// `controller.quorum.bootstrap.servers` as its ConfigDef validator parses it.
pub fn bootstrap_servers<'a>(
    setting: Setting<'a>,
    version: KafkaVersion,
) -> Result<Vec<BootstrapServer<'a>>, Vec<QuorumProblem<'a>>> {
    collect(
        split(setting.text, Split::ConfigList)
            .into_iter()
            .map(|item| {
                host_and_port(item.text, version)
                    .map(|(host, port)| BootstrapServer { host, port, item })
                    .map_err(|problem| QuorumProblem { item, problem })
            }),
    )
}

fn collect<T, E>(results: impl Iterator<Item = Result<T, E>>) -> Result<Vec<T>, Vec<E>> {
    let (good, bad): (Vec<_>, Vec<_>) = results.partition(Result::is_ok);
    if bad.is_empty() {
        Ok(good.into_iter().filter_map(Result::ok).collect())
    } else {
        Err(bad.into_iter().filter_map(Result::err).collect())
    }
}

/// The address Kafka refuses as a place to reach a controller.
pub const NON_ROUTABLE_HOST: &str = "0.0.0.0";

#[cfg(test)]
mod tests {
    use super::*;

    const V39: KafkaVersion = KafkaVersion::new(3, 9);
    const V44: KafkaVersion = KafkaVersion::new(4, 4);

    fn setting(text: &str) -> Setting<'_> {
        Setting { text, line: None }
    }

    fn problems(text: &str, version: KafkaVersion) -> Vec<(String, AddressProblem)> {
        match voters(setting(text), version) {
            Ok(_) => Vec::new(),
            Err(problems) => problems
                .into_iter()
                .map(|p| (p.item.text.to_owned(), p.problem))
                .collect(),
        }
    }

    #[test]
    fn voters_in_every_form_kafka_takes() {
        let parsed = voters(
            setting(" 1@c-1:9093 , 2@[::1]:9094,+3@:9095,-1@0.0.0.0:1"),
            V44,
        )
        .expect("all valid");
        let ids: Vec<i32> = parsed.iter().map(|v| v.id).collect();
        assert_eq!(ids, [1, 2, 3, -1]);
        assert_eq!(parsed[1].host, "::1");
        assert_eq!(parsed[2].host, "");
        assert_eq!(parsed[0].item.range(), 1..11);
        // A trailing `@` is dropped by Java's split.
        assert!(problems("1@c-1:9093@", V44).is_empty());
        // Java reads digits of any script.
        assert!(problems("\u{665}@c-1:9093", V44).is_empty());
        // 3.x skips any prefix before the host.
        assert!(problems("1@foo/bar:9093", V39).is_empty());
        assert!(voters(setting(""), V44).expect("empty").is_empty());
    }

    #[test]
    fn voters_kafka_refuses() {
        use AddressProblem::*;
        assert_eq!(problems("1@c-1", V44), [("1@c-1".to_owned(), HostPort)]);
        assert_eq!(
            problems("x@c-1:9093", V44),
            [("x@c-1:9093".to_owned(), VoterId)]
        );
        assert_eq!(
            problems("1 @c-1:9093", V44),
            [("1 @c-1:9093".to_owned(), VoterId)]
        );
        assert_eq!(
            problems("c-1:9093", V44),
            [("c-1:9093".to_owned(), VoterShape)]
        );
        assert_eq!(problems("1@", V44), [("1@".to_owned(), VoterShape)]);
        assert_eq!(problems("1@@c:1", V44), [("1@@c:1".to_owned(), VoterShape)]);
        assert_eq!(problems("1@c:1,", V44), [(String::new(), VoterShape)]);
        assert_eq!(
            problems("1@c:99999", V44),
            [("1@c:99999".to_owned(), PortRange)]
        );
        assert_eq!(
            problems("1@c:99999999999", V44),
            [("1@c:99999999999".to_owned(), PortRange)]
        );
        assert_eq!(
            problems("1@foo/bar:9093", V44),
            [("1@foo/bar:9093".to_owned(), HostPort)]
        );
        assert_eq!(problems("1@c_1:9093", V44), Vec::new());
    }

    #[test]
    fn bootstrap_servers_before_and_after_kafka_4() {
        let ok = |text, version| bootstrap_servers(setting(text), version).is_ok();
        assert!(ok("c-1:9093,c-2:9093", V44));
        assert!(ok(":9093", V44));
        assert!(ok("1@c-1:9093", V39));
        assert!(!ok("1@c-1:9093", V44));
        assert!(!ok("c-1", V44));
        assert!(!ok("c-1:9093,", V44));
        assert!(!ok("c-1:70000", V44));
    }
}
