//! The client: a small speaker of Kafka's protocol that asks a running cluster what it has
//! (Metadata, DescribeConfigs, ListGroups, FindCoordinator) and writes it down as a
//! [`Snapshot`](crate::live::snapshot::Snapshot). It sends no request that changes anything:
//! the only requests built are in `gather.rs`, all of them reads.

mod client_config;
mod connection;
mod error;
mod gather;
mod kafka_errors;
mod oauth;
mod scram;
mod stores;
mod tls;
mod transport;
mod wire;

use std::time::Duration;

pub use client_config::ClientConfig;
pub use error::Error;
pub use gather::gather;
pub use wire::decode_reply;

/// How many brokers are asked at once (each over a connection of its own).
pub const CONNECTIONS_AT_ONCE: usize = 16;

/// Where and how to ask.
pub struct Target {
    /// `host:port` pairs, as `--bootstrap-server` takes them.
    pub bootstrap: Vec<(String, u16)>,
    pub client: ClientConfig,
    /// The one deadline of the whole run: every look-up, connect, read and write gets what is
    /// left of it.
    pub timeout: Duration,
    /// What all replies of the run may hold together, in bytes.
    pub max_answer_bytes: usize,
    /// Groups to find the coordinator of, besides those the brokers list.
    pub groups: Vec<String>,
    /// Transactional ids to find the coordinator of (`--transactional-id`).
    pub transactional_ids: Vec<String>,
}

/// `host:port[,host:port...]`, as Kafka's tools take `--bootstrap-server` (an IPv6 host in
/// brackets).
pub fn parse_bootstrap(text: &str) -> Result<Vec<(String, u16)>, Error> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let bad = || Error::Address {
                text: part.to_string(),
            };
            let (host, port) = part.rsplit_once(':').ok_or_else(bad)?;
            let host = host
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .unwrap_or(host);
            let port: u16 = port.parse().map_err(|_| bad())?;
            if host.is_empty() || port == 0 {
                return Err(bad());
            }
            Ok((host.to_string(), port))
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(|servers| {
            if servers.is_empty() {
                Err(Error::Address {
                    text: text.to_string(),
                })
            } else {
                Ok(servers)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_servers() {
        let servers = parse_bootstrap("a:9092, [::1]:9093").unwrap();
        assert_eq!(
            servers,
            [("a".to_string(), 9092), ("::1".to_string(), 9093)]
        );
        assert!(parse_bootstrap("a").is_err());
        assert!(parse_bootstrap("a:0").is_err());
        assert!(parse_bootstrap(",").is_err());
    }
}
