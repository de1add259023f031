//! Where a node can be reached from and which machine it runs on, as far as its listeners say:
//! the reach of a host (loopback, a private network, the internet), the one host a node names
//! in all its listeners, and the log directories a node locks.

use crate::catalog::KafkaVersion;
use crate::source::SourceFile;

use super::address::{is_ipv4, is_ipv6};
use super::listeners::{Endpoint, NodeListeners};
use super::storage::log_dirs;
use super::{Effective, Line, Node};

/// How far a listener host can be reached from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// `localhost`, `127.0.0.0/8`, `::1`: this machine only.
    Loopback,
    /// A private, link-local or shared address (RFC 1918, RFC 6598, RFC 4193), or a name
    /// without a dot, under a suffix kept for internal networks, or under no public suffix
    /// (`kafka-1`, `*.internal`, `kafka-0.kafka-headless`,
    /// `*.svc.cluster.local`).
    Private,
    /// A public IP address or a fully qualified name under a public suffix.
    Public,
    /// The wildcard (no host, `0.0.0.0`, `::`): every interface, whichever the machine has.
    Wildcard,
}

/// Name suffixes kept for internal networks (RFC 6762, RFC 8375, Kubernetes, cloud DNS).
const INTERNAL_SUFFIXES: &[&str] = &[
    "localhost",
    "local",
    "localdomain",
    "internal",
    "intranet",
    "lan",
    "home",
    "home.arpa",
    "corp",
    "private",
    "svc",
    "cluster.local",
    "docker",
    "test",
    "invalid",
];

/// The reach of a listener host (`None` for the wildcard of an empty host).
pub fn reach(host: Option<&str>) -> Reach {
    let Some(host) = host else {
        return Reach::Wildcard;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let lower = host.to_ascii_lowercase();
    if is_ipv4(&lower) {
        return ipv4_reach(&lower);
    }
    if is_ipv6(&lower) {
        return ipv6_reach(&lower);
    }
    let name = lower.trim_end_matches('.');
    if name == "localhost" || name.ends_with(".localhost") {
        return Reach::Loopback;
    }
    let internal = INTERNAL_SUFFIXES.iter().any(|suffix| {
        name.strip_suffix(suffix)
            .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
    });
    // A name whose suffix is on no public list (`kafka-0.kafka-headless`, a Kubernetes
    // service's short name) resolves only inside some private network.
    let public_suffix = psl::suffix(name.as_bytes()).is_some_and(|suffix| suffix.is_known());
    if !name.contains('.') || internal || !public_suffix {
        Reach::Private
    } else {
        Reach::Public
    }
}

fn ipv4_reach(ip: &str) -> Reach {
    let octets: Vec<u8> = ip.split('.').filter_map(|part| part.parse().ok()).collect();
    let [a, b, ..] = octets[..] else {
        return Reach::Private;
    };
    match (a, b) {
        (0, _) if octets.iter().all(|octet| *octet == 0) => Reach::Wildcard,
        (127, _) => Reach::Loopback,
        (10, _) | (192, 168) | (169, 254) => Reach::Private,
        (172, 16..=31) | (100, 64..=127) => Reach::Private,
        _ => Reach::Public,
    }
}

fn ipv6_reach(ip: &str) -> Reach {
    if ip == "::" {
        return Reach::Wildcard;
    }
    if ip == "::1" {
        return Reach::Loopback;
    }
    if let Some(mapped) = ip.strip_prefix("::ffff:")
        && is_ipv4(mapped)
    {
        return ipv4_reach(mapped);
    }
    let first = ip.split(':').next().unwrap_or_default();
    let first = u16::from_str_radix(first, 16).unwrap_or(0);
    // fc00::/7 unique local, fe80::/10 link-local.
    if first & 0xfe00 == 0xfc00 || first & 0xffc0 == 0xfe80 {
        Reach::Private
    } else {
        Reach::Public
    }
}

/// Every endpoint a node binds or advertises, when Kafka reads both lists.
pub fn all_endpoints<'l, 'a>(listeners: &'l NodeListeners<'a>) -> Option<Vec<&'l Endpoint<'a>>> {
    let mut endpoints: Vec<&Endpoint> = listeners.listeners.endpoints()?.iter().collect();
    if let Some(advertised) = &listeners.advertised {
        endpoints.extend(advertised.endpoints()?.iter());
    }
    Some(endpoints)
}

/// The one host a node names in every listener it binds and advertises (`localhost`,
/// `kafka-1.example.com`), compared without case; `None` when it binds the wildcard somewhere
/// and advertises nothing else, or names several hosts (a container advertising `kafka-1` to
/// its peers and `localhost` to the machine it runs on is not on that machine). Two nodes with
/// the same one host run on one machine.
pub fn single_host(listeners: &NodeListeners) -> Option<String> {
    let advertised = listeners.advertised_or_listeners()?;
    let bound = listeners.listeners.endpoints()?;
    let mut hosts = advertised.iter().chain(bound).filter_map(|e| e.host);
    let first = hosts.next()?.to_ascii_lowercase();
    if reach(Some(&first)) == Reach::Wildcard {
        return None;
    }
    // A wildcard bind is fine when the node advertises its one host; any other host is not.
    let one = hosts
        .all(|host| host.eq_ignore_ascii_case(&first) || reach(Some(host)) == Reach::Wildcard)
        && advertised.iter().all(|e| e.host.is_some());
    one.then_some(first)
}

/// Whether a node serves only the machine it runs on: every listener it advertises names a
/// loopback host, or, for a controller-only node, every voter and bootstrap server of its
/// quorum does (the stock `controller.properties` binds the wildcard and is reached at
/// `localhost`).
pub fn serves_loopback_only(
    files: &[SourceFile],
    node: &Node,
    listeners: Option<&NodeListeners>,
) -> bool {
    if listeners
        .and_then(single_host)
        .is_some_and(|host| reach(Some(&host)) == Reach::Loopback)
    {
        return true;
    }
    if node.roles.broker || !node.roles.controller {
        return false;
    }
    let mut hosts = [
        "controller.quorum.voters",
        "controller.quorum.bootstrap.servers",
    ]
    .iter()
    .filter_map(|key| node.entry(files, key))
    .flat_map(|entry| entry.value.split(','))
    .filter(|item| !item.trim().is_empty())
    .map(|item| {
        let address = item.rsplit('@').next().unwrap_or_default().trim();
        address.rsplit_once(':').map_or(address, |(host, _)| host)
    })
    .peekable();
    hosts.peek().is_some() && hosts.all(|host| reach(Some(host)) == Reach::Loopback)
}

/// A directory a node locks, with the key and line it comes from.
#[derive(Debug, Clone)]
pub struct LockedDir<'a> {
    pub path: String,
    /// `log.dirs`, `log.dir` or `metadata.log.dir`.
    pub key: &'static str,
    pub effective: Effective<'a>,
}

/// The log directories of a node (`log.dirs`, else `log.dir` or its default `/tmp/kafka-logs`)
/// and its `metadata.log.dir` when the file sets one: each is locked by the process that runs
/// the node. A value that a template fills in is left out.
pub fn locked_dirs<'a>(
    files: &'a [SourceFile],
    node: &Node,
    version: KafkaVersion,
) -> Vec<LockedDir<'a>> {
    let mut dirs = Vec::new();
    let (key, effective) = match node.entry(files, "log.dirs") {
        Some(entry) => ("log.dirs", Effective::Set(Line::new(node.file, entry))),
        None => match node.effective(files, "log.dir", version) {
            Some(effective) => ("log.dir", effective),
            None => return dirs,
        },
    };
    if !is_templated(effective.value()) {
        for path in log_dirs(Some(effective.value()), "", version) {
            dirs.push(LockedDir {
                path,
                key,
                effective,
            });
        }
    }
    if let Some(entry) = node.entry(files, "metadata.log.dir")
        && !is_templated(&entry.value)
        && !entry.value.trim().is_empty()
    {
        dirs.push(LockedDir {
            path: entry.value.trim().to_owned(),
            key: "metadata.log.dir",
            effective: Effective::Set(Line::new(node.file, entry)),
        });
    }
    dirs
}

fn is_templated(value: &str) -> bool {
    value.contains('$') || value.contains("{{") || value.contains('%') || value.contains('@')
}

/// Whether a path is under `/tmp`, which tmp cleaners (systemd-tmpfiles, tmpreaper) and a
/// tmpfs `/tmp` empty on reboot.
pub fn is_under_tmp(path: &str) -> bool {
    let path = path.trim();
    path == "/tmp" || path.starts_with("/tmp/")
}

/// A path as compared between nodes: absolute paths only (a relative one depends on the
/// directory each process starts in), without trailing slashes.
pub fn comparable_path(path: &str) -> Option<&str> {
    let path = path.trim();
    if !path.starts_with('/') {
        return None;
    }
    let trimmed = path.trim_end_matches('/');
    Some(if trimmed.is_empty() { "/" } else { trimmed })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_by_reach() {
        assert_eq!(reach(Some("localhost")), Reach::Loopback);
        assert_eq!(reach(Some("127.0.0.1")), Reach::Loopback);
        assert_eq!(reach(Some("::1")), Reach::Loopback);
        assert_eq!(reach(Some("10.0.0.5")), Reach::Private);
        assert_eq!(reach(Some("172.20.1.1")), Reach::Private);
        assert_eq!(reach(Some("192.168.1.10")), Reach::Private);
        assert_eq!(reach(Some("100.64.0.1")), Reach::Private);
        assert_eq!(reach(Some("fd00::1")), Reach::Private);
        assert_eq!(reach(Some("kafka-1")), Reach::Private);
        assert_eq!(reach(Some("kafka.kafka.svc.cluster.local")), Reach::Private);
        assert_eq!(reach(Some("ip-10-0-0-1.ec2.internal")), Reach::Private);
        assert_eq!(reach(Some("203.0.113.7")), Reach::Public);
        assert_eq!(reach(Some("172.32.0.1")), Reach::Public);
        assert_eq!(reach(Some("kafka.example.com")), Reach::Public);
        assert_eq!(reach(Some("kafka-0.kafka-headless")), Reach::Private);
        assert_eq!(reach(Some("kafka-0.kafka.streaming.svc")), Reach::Private);
        assert_eq!(reach(Some("broker.corp")), Reach::Private);
        assert_eq!(reach(Some("kafka.example.io")), Reach::Public);
        assert_eq!(reach(Some("2001:db8::1")), Reach::Public);
        assert_eq!(reach(Some("0.0.0.0")), Reach::Wildcard);
        assert_eq!(reach(None), Reach::Wildcard);
    }

    #[test]
    fn tmp_paths() {
        assert!(is_under_tmp("/tmp/kafka-logs"));
        assert!(is_under_tmp("/tmp"));
        assert!(!is_under_tmp("/tmpfs/kafka"));
        assert!(!is_under_tmp("/var/lib/kafka/tmp"));
        assert_eq!(comparable_path("/data/kafka/"), Some("/data/kafka"));
        assert_eq!(comparable_path("data"), None);
    }
}
