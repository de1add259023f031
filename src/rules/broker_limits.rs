//! `broker-limits`: the numbers Kafka checks against a floor or against each other once every
//! key has parsed — log roll and retention times, the log directories, the log cleaner's buffer
//! per thread, replica fetch waits, the request queue, connection limits and the
//! failed-authentication delay. One of them out of bounds and the broker exits at start-up.

use super::refusal::NodeCheck;
use super::support::{numbered, pair_labels, quoted};
use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::catalog::KafkaVersion;
use crate::catalog::value::{Parsed, java_trim, split_list};
use crate::cluster::storage::{self, DerivedMillis};
use crate::cluster::{Cluster, Line};
use crate::diagnostic::{Diagnostic, Label, Severity};

pub const RULE: Rule = Rule {
    name: "broker-limits",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::ORACLE,
    summary: "log roll, retention and directories, cleaner buffer, replica fetch wait, request queue and connection limits out of the bounds Kafka checks at start-up",
    check: Check::Files(check),
};

/// The first release whose start-up checks this rule was verified against.
const OLDEST_CHECKED: KafkaVersion = KafkaVersion::new(3, 9);

/// Kafka wants more than this many bytes of dedupe buffer per log cleaner thread.
const DEDUPE_BYTES_PER_THREAD: i64 = 1024 * 1024;

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    let version = cluster.target.version;
    if version < OLDEST_CHECKED {
        return Vec::new();
    }
    let mut diagnostics = Vec::new();
    for node in &cluster.nodes {
        let scope = Scope {
            at: NodeCheck::new(&RULE, context, node, version),
        };
        let checks: [fn(&Scope) -> Option<Diagnostic>; 10] = [
            log_roll,
            log_roll_jitter,
            log_retention,
            log_dirs,
            cleaner_buffer_per_thread,
            fetch_wait_vs_socket_timeout,
            fetch_wait_vs_lag_time,
            queued_request_bytes,
            connections_per_ip,
            authentication_delay,
        ];
        diagnostics.extend(checks.iter().filter_map(|check| check(&scope)));
    }
    diagnostics
}

/// One node checked against one release.
struct Scope<'a> {
    at: NodeCheck<'a, 'a>,
}

impl<'a> Scope<'a> {
    /// A key without a default: `Some(None)` when the file leaves it unset (Kafka falls back to
    /// another key), `None` when the file sets it to something not judged here.
    fn optional_int(&self, key: &str) -> Option<Option<i64>> {
        if self.at.context.line(self.at.node, key).is_none() {
            return Some(None);
        }
        self.at.int(key).map(|(value, _)| Some(value))
    }

    fn entry(&self, key: &str) -> Option<Line<'a>> {
        self.at.context.line(self.at.node, key)
    }

    /// A label on `key`'s value, or where the file declares the node when it leaves it unset.
    fn label_on(&self, key: &str, message: String) -> Label {
        match self.entry(key) {
            Some(entry) => Label {
                file: self.at.node.file,
                span: entry.value_span().clone(),
                message,
            },
            None => Label {
                file: self.at.node.file,
                span: self.at.node.declared_at.clone(),
                message: format!("{key} is not set: Kafka's default applies ({message})"),
            },
        }
    }
}

fn log_roll(scope: &Scope) -> Option<Diagnostic> {
    let ms = scope.optional_int("log.roll.ms")?;
    let (hours, _) = scope.at.int("log.roll.hours")?;
    let DerivedMillis { millis, key } = storage::log_roll(ms, hours);
    if millis >= 1 {
        return None;
    }
    Some(scope.at.refusal(
        key,
        format!(
            "{key} {millis} would roll segments after {millis} ms: a segment must live at least 1 ms"
        ),
        vec![scope.label_on(key, "must be at least 1".to_string())],
        format!(
            "set {key} to a positive number of milliseconds, or remove it to roll after log.roll.hours (168 by default)"
        ),
    ))
}

fn log_roll_jitter(scope: &Scope) -> Option<Diagnostic> {
    let ms = scope.optional_int("log.roll.jitter.ms")?;
    let (hours, _) = scope.at.int("log.roll.jitter.hours")?;
    let DerivedMillis { millis, key } = storage::log_roll_jitter(ms, hours);
    if millis >= 0 {
        return None;
    }
    Some(scope.at.refusal(
        key,
        format!("{key} {millis} is negative: the segment roll jitter must be 0 or more"),
        vec![scope.label_on(key, "must be 0 or more".to_string())],
        format!(
            "set {key} to 0 or more, or remove it (log.roll.jitter.hours applies, 0 by default)"
        ),
    ))
}

fn log_retention(scope: &Scope) -> Option<Diagnostic> {
    let ms = scope.optional_int("log.retention.ms")?;
    let minutes = scope.optional_int("log.retention.minutes")?;
    let (hours, _) = scope.at.int("log.retention.hours")?;
    let DerivedMillis { millis, key } = storage::log_retention(ms, minutes, hours);
    if millis != 0 {
        return None;
    }
    // Keys of lower precedence the file sets too: the reader may think they apply.
    let precedence = [
        "log.retention.ms",
        "log.retention.minutes",
        "log.retention.hours",
    ];
    let shadowed: Vec<&str> = precedence
        .iter()
        .skip_while(|k| **k != key)
        .skip(1)
        .copied()
        .filter(|k| scope.entry(k).is_some())
        .collect();
    let mut labels = vec![scope.label_on(key, "a retention of 0 ms".to_string())];
    labels.extend(
        shadowed
            .iter()
            .map(|k| scope.label_on(k, format!("ignored: {key} takes precedence"))),
    );
    let over = if shadowed.is_empty() {
        String::new()
    } else {
        format!(" (it overrides {})", shadowed.join(" and "))
    };
    Some(scope.at.refusal(
        key,
        format!(
            "{key} 0 means 0 ms of retention{over}: at least 1 ms, or -1 for forever, is needed"
        ),
        labels,
        format!("set {key} to a positive value or to -1 to keep logs forever, or remove it"),
    ))
}

fn log_dirs(scope: &Scope) -> Option<Diagnostic> {
    // The raw text, once it is known to parse.
    let raw = |key: &str| -> Option<&str> {
        scope
            .at
            .context
            .parsed_value(scope.at.node, key, scope.at.version)
            .map(|(_, value)| value.value())
    };
    let dirs_set = scope.entry("log.dirs").is_some();
    if dirs_set {
        // A placeholder, or a value Kafka refuses: unknown.
        raw("log.dirs")?;
    }
    let log_dir = raw("log.dir")?;
    let facts = scope.at.context.facts.node(scope.at.node)?;
    if !facts.log_dirs.as_ref()?.is_empty() {
        return None;
    }
    if dirs_set {
        let mut labels = vec![scope.label_on("log.dirs", "no directory".to_string())];
        let help = match scope.entry("log.dir") {
            Some(_) => {
                labels.push(scope.label_on("log.dir", "ignored: log.dirs is set".to_string()));
                format!(
                    "remove log.dirs to use log.dir={log_dir}, or list the directories in log.dirs"
                )
            }
            None => "list at least one directory in log.dirs, e.g. log.dirs=/var/lib/kafka/data"
                .to_string(),
        };
        return Some(scope.at.refusal(
            "log.dirs",
            "log.dirs names no directory, and even empty it replaces log.dir: the broker has no log directory".to_string(),
            labels,
            help,
        ));
    }
    Some(
        scope.at.refusal(
            "log.dir",
            "log.dir names no directory and log.dirs is not set: the broker has no log directory"
                .to_string(),
            vec![scope.label_on("log.dir", "no directory".to_string())],
            "list at least one directory in log.dirs, e.g. log.dirs=/var/lib/kafka/data"
                .to_string(),
        ),
    )
}

fn cleaner_buffer_per_thread(scope: &Scope) -> Option<Diagnostic> {
    let buffer_key = "log.cleaner.dedupe.buffer.size";
    let threads_key = "log.cleaner.threads";
    let (buffer, buffer_value) = scope.at.int(buffer_key)?;
    let (threads, threads_value) = scope.at.int(threads_key)?;
    if threads == 0 {
        return Some(scope.at.refusal(
            threads_key,
            format!(
                "{threads_key} 0: Kafka divides {buffer_key} by it and fails"
            ),
            vec![scope.label_on(threads_key, "no cleaner thread".to_string())],
            format!(
                "set {threads_key} to at least 1 (to stop compaction, set log.cleaner.enable=false instead)"
            ),
        ));
    }
    // Integer division, as Kafka does it.
    let per_thread = buffer / threads;
    if per_thread > DEDUPE_BYTES_PER_THREAD {
        return None;
    }
    let needed = (DEDUPE_BYTES_PER_THREAD + 1) * threads;
    let fewer_threads = buffer / (DEDUPE_BYTES_PER_THREAD + 1);
    let alternative = if fewer_threads >= 1 {
        format!(", or lower {threads_key} to {fewer_threads}")
    } else {
        String::new()
    };
    Some(scope.at.refusal(
        buffer_key,
        format!(
            "{} over {} is {per_thread} bytes per cleaner thread: each needs over 1 MiB",
            numbered(buffer_key, buffer, &buffer_value),
            numbered(threads_key, threads, &threads_value),
        ),
        pair_labels(
            scope.at.node,
            (
                &buffer_value,
                format!("{per_thread} bytes per cleaner thread"),
            ),
            (&threads_value, format!("{threads} cleaner threads")),
        ),
        format!("set {buffer_key} to at least {needed}{alternative}"),
    ))
}

/// `replica.fetch.wait.max.ms` against a bound it must not exceed.
fn fetch_wait_within(scope: &Scope, bound_key: &str, why: &str) -> Option<Diagnostic> {
    let wait_key = "replica.fetch.wait.max.ms";
    let (wait, wait_value) = scope.at.int(wait_key)?;
    let (bound, bound_value) = scope.at.int(bound_key)?;
    if wait <= bound {
        return None;
    }
    Some(scope.at.refusal(
        wait_key,
        format!(
            "{} is above {}: {why}",
            numbered(wait_key, wait, &wait_value),
            numbered(bound_key, bound, &bound_value)
        ),
        pair_labels(
            scope.at.node,
            (&wait_value, format!("above {bound_key} {bound}")),
            (&bound_value, format!("below {wait_key} {wait}")),
        ),
        format!("lower {wait_key} to at most {bound}, or raise {bound_key} to at least {wait}"),
    ))
}

fn fetch_wait_vs_socket_timeout(scope: &Scope) -> Option<Diagnostic> {
    fetch_wait_within(
        scope,
        "replica.socket.timeout.ms",
        "a follower's fetch could outlast its socket timeout",
    )
}

fn fetch_wait_vs_lag_time(scope: &Scope) -> Option<Diagnostic> {
    fetch_wait_within(
        scope,
        "replica.lag.time.max.ms",
        "a waiting follower could drop out of the ISR",
    )
}

fn queued_request_bytes(scope: &Scope) -> Option<Diagnostic> {
    let queued_key = "queued.max.request.bytes";
    let request_key = "socket.request.max.bytes";
    let (queued, queued_value) = scope.at.int(queued_key)?;
    let (request, request_value) = scope.at.int(request_key)?;
    // Zero or less turns the limit off.
    if queued <= 0 || queued >= request {
        return None;
    }
    Some(scope.at.refusal(
        queued_key,
        format!(
            "{} is below {}: the queue could not hold the largest request",
            numbered(queued_key, queued, &queued_value),
            numbered(request_key, request, &request_value)
        ),
        pair_labels(
            scope.at.node,
            (&queued_value, format!("below {request_key} {request}")),
            (&request_value, format!("above {queued_key} {queued}")),
        ),
        format!("set {queued_key} to at least {request}, or to -1 for no limit on queued bytes"),
    ))
}

/// How `max.connections.per.ip.overrides` fails to be read, as Kafka reads it.
#[derive(Debug, PartialEq, Eq)]
enum OverridesError {
    /// An entry without a `:` (an empty one too: a stray comma).
    NoLimit(String),
    /// A limit `Integer.parseInt` refuses.
    NotAnInteger { host: String, limit: String },
    /// Hosts with characters outside Kafka's host pattern.
    BadHosts(Vec<String>),
    /// A limit in digits beyond ASCII: Java may read it, kafkalint does not judge it.
    Unknown,
}

/// `max.connections.per.ip.overrides` read as Kafka reads it (`Csv.parseCsvMap`, then
/// `Integer.parseInt` of each limit, then the host pattern): the hosts and their limits.
fn parse_overrides(value: &str) -> Result<Vec<(String, i64)>, OverridesError> {
    let mut pieces = split_list(value);
    // Java's split drops trailing empty pieces; leading and inner ones are kept.
    while pieces.last().is_some_and(String::is_empty) {
        pieces.pop();
    }
    // A HashMap: a host named twice keeps its last limit.
    let mut map: Vec<(String, String)> = Vec::new();
    for piece in pieces {
        let Some(colon) = piece.rfind(':') else {
            return Err(OverridesError::NoLimit(piece));
        };
        let host = java_trim(&piece[..colon]).to_string();
        let limit = java_trim(&piece[colon + 1..]).to_string();
        match map.iter_mut().find(|(known, _)| *known == host) {
            Some(entry) => entry.1 = limit,
            None => map.push((host, limit)),
        }
    }
    let mut parsed = Vec::with_capacity(map.len());
    for (host, limit) in map {
        if !limit.is_ascii() {
            return Err(OverridesError::Unknown);
        }
        match limit.parse::<i32>() {
            Ok(number) => parsed.push((host, i64::from(number))),
            Err(_) => return Err(OverridesError::NotAnInteger { host, limit }),
        }
    }
    let bad_hosts: Vec<String> = parsed
        .iter()
        .filter(|(host, _)| !is_valid_host(host))
        .map(|(host, _)| host.clone())
        .collect();
    if !bad_hosts.is_empty() {
        return Err(OverridesError::BadHosts(bad_hosts));
    }
    Ok(parsed)
}

/// Kafka's `Utils.validHostPattern`: letters, digits and `-%._:` only (empty allowed).
fn is_valid_host(host: &str) -> bool {
    host.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '%' | '.' | '_' | ':'))
}

fn connections_per_ip(scope: &Scope) -> Option<Diagnostic> {
    let overrides_key = "max.connections.per.ip.overrides";
    let limit_key = "max.connections.per.ip";
    let (overrides, overrides_value) =
        match scope
            .at
            .context
            .parsed_value(scope.at.node, overrides_key, scope.at.version)?
        {
            (Parsed::Text(text), effective) => (text, effective),
            _ => return None,
        };
    let overrides_label = |message: String| {
        overrides_value
            .line()
            .map(|entry| Label {
                file: scope.at.node.file,
                span: entry.value_span().clone(),
                message,
            })
            .into_iter()
            .collect::<Vec<_>>()
    };
    let entry_help = format!(
        "write {overrides_key} as host:limit entries separated by commas, e.g. {overrides_key}=10.0.0.5:200,broker-1.example.com:100"
    );
    let hosts = match parse_overrides(&overrides) {
        Ok(hosts) => hosts,
        Err(OverridesError::Unknown) => return None,
        Err(OverridesError::NoLimit(piece)) => {
            let what = if piece.is_empty() {
                "has an empty entry (a stray comma)".to_string()
            } else {
                format!(
                    "has the entry {} without a `:limit`",
                    quoted(overrides_key, &piece)
                )
            };
            return Some(scope.at.refusal(
                overrides_key,
                format!("{overrides_key} {what}: Kafka cannot read the overrides"),
                overrides_label("every entry must be host:limit".to_string()),
                entry_help,
            ));
        }
        Err(OverridesError::NotAnInteger { host, limit }) => {
            return Some(scope.at.refusal(
                overrides_key,
                format!(
                    "{overrides_key} gives host {} the limit {}, which is not a 32-bit integer",
                    quoted(overrides_key, &host),
                    quoted(overrides_key, &limit)
                ),
                overrides_label(format!(
                    "limit {} is not a number",
                    quoted(overrides_key, &limit)
                )),
                entry_help,
            ));
        }
        Err(OverridesError::BadHosts(hosts)) => {
            let names = hosts
                .iter()
                .map(|host| quoted(overrides_key, host))
                .collect::<Vec<_>>()
                .join(", ");
            return Some(scope.at.refusal(
                overrides_key,
                format!(
                    "{overrides_key} names {names}, not a host to Kafka (letters, digits and `-%._:` only)"
                ),
                overrides_label(format!("not a host: {names}")),
                format!(
                    "name each host by its IP address or host name without brackets, e.g. {overrides_key}=::1:100,broker-1.example.com:100"
                ),
            ));
        }
    };
    let (limit, limit_value) = scope.at.int(limit_key)?;
    if limit != 0 || !hosts.is_empty() {
        return None;
    }
    let labels = pair_labels(
        scope.at.node,
        (&limit_value, "no connection allowed".to_string()),
        (&overrides_value, "names no host".to_string()),
    );
    Some(scope.at.refusal(
        limit_key,
        format!(
            "{limit_key} 0 and no host in {overrides_key}: no address may connect"
        ),
        labels,
        format!(
            "set {limit_key} to a positive limit, or list the hosts that may connect in {overrides_key} (host:limit,...)"
        ),
    ))
}

fn authentication_delay(scope: &Scope) -> Option<Diagnostic> {
    let delay_key = "connection.failed.authentication.delay.ms";
    let idle_key = "connections.max.idle.ms";
    let (delay, delay_value) = scope.at.int(delay_key)?;
    let (idle, idle_value) = scope.at.int(idle_key)?;
    // A negative idle time never closes idle connections: no bound then.
    if idle < 0 || delay < idle {
        return None;
    }
    Some(scope.at.refusal(
        delay_key,
        format!(
            "{} is not below {}: the idle timeout would close connections before a failed login is answered",
            numbered(delay_key, delay, &delay_value),
            numbered(idle_key, idle, &idle_value)
        ),
        pair_labels(
            scope.at.node,
            (&delay_value, format!("not below {idle_key} {idle}")),
            (&idle_value, format!("not above {delay_key} {delay}")),
        ),
        if idle > 0 {
            format!(
                "lower {delay_key} below {idle}, or raise {idle_key} above {delay}"
            )
        } else {
            format!("raise {idle_key} above {delay} (600000, ten minutes, by default)")
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_read_like_csv_parse_csv_map() {
        assert_eq!(parse_overrides(""), Ok(vec![]));
        assert_eq!(parse_overrides(","), Ok(vec![]));
        assert_eq!(
            parse_overrides(" h1 : 5 , h2:+6 ,"),
            Ok(vec![("h1".to_string(), 5), ("h2".to_string(), 6)])
        );
        // The last colon splits: an IPv6 address keeps its own colons.
        assert_eq!(parse_overrides("::1:3"), Ok(vec![("::1".to_string(), 3)]));
        assert_eq!(parse_overrides(":5"), Ok(vec![(String::new(), 5)]));
        assert_eq!(parse_overrides("h1:-5"), Ok(vec![("h1".to_string(), -5)]));
    }

    #[test]
    fn overrides_that_kafka_cannot_read() {
        assert_eq!(
            parse_overrides("h1"),
            Err(OverridesError::NoLimit("h1".to_string()))
        );
        assert_eq!(
            parse_overrides(",h1:5"),
            Err(OverridesError::NoLimit(String::new()))
        );
        assert_eq!(
            parse_overrides("h1:5, ,h2:6"),
            Err(OverridesError::NoLimit(String::new()))
        );
        assert_eq!(
            parse_overrides("h1:x"),
            Err(OverridesError::NotAnInteger {
                host: "h1".to_string(),
                limit: "x".to_string()
            })
        );
        assert!(matches!(
            parse_overrides("h1:"),
            Err(OverridesError::NotAnInteger { .. })
        ));
        assert_eq!(
            parse_overrides("[::2]:6,h!1:5"),
            Err(OverridesError::BadHosts(vec![
                "[::2]".to_string(),
                "h!1".to_string()
            ]))
        );
        assert_eq!(parse_overrides("h1:\u{665}"), Err(OverridesError::Unknown));
    }

    #[test]
    fn a_host_named_twice_keeps_its_last_limit() {
        assert_eq!(
            parse_overrides("h1:x,h1:5"),
            Ok(vec![("h1".to_string(), 5)])
        );
        assert!(matches!(
            parse_overrides("h1:5,h1:x"),
            Err(OverridesError::NotAnInteger { .. })
        ));
    }
}
