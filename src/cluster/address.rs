//! Kafka's address patterns, written out by hand: the listener regex of `SocketServerConfigs`,
//! the `host:port` regex of `Utils.getHost`/`getPort`, and commons-validator's
//! `InetAddressValidator`. Each follows the Java regex's backtracking order, so the groups found
//! are the ones Kafka sees (greedy parts take the longest match that lets the rest match).

use std::ops::Range;

/// `[0-9a-zA-Z\-%._:]`: the characters Kafka allows in a host.
pub fn is_host_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'%' | b'.' | b'_' | b':')
}

/// Java's `.` without DOTALL matches anything but a line terminator.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// `Utils.validHostPattern`: only host characters (the empty host included).
pub fn valid_host(host: &str) -> bool {
    host.bytes().all(is_host_char)
}

/// The groups of a listener entry, as byte ranges of the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListenerParts {
    pub name: Range<usize>,
    pub host: Range<usize>,
    pub port: Range<usize>,
}

/// `^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)`, matched against the whole entry. The greedy
/// name ends at the last `://` after which a host and port follow.
pub fn match_listener(entry: &str) -> Option<ListenerParts> {
    if entry.chars().any(is_line_terminator) {
        return None;
    }
    let separators: Vec<usize> = entry.match_indices("://").map(|(at, _)| at).collect();
    separators.into_iter().rev().find_map(|at| {
        let rest = at + 3;
        let (host, port) = match_host_port(&entry[rest..], true)?;
        Some(ListenerParts {
            name: 0..at,
            host: host.start + rest..host.end + rest,
            port: port.start + rest..port.end + rest,
        })
    })
}

/// `\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)` (the sign only when `signed`) matched against the
/// whole of `text`: the host and port ranges. Brackets are optional on either side.
fn match_host_port(text: &str, signed: bool) -> Option<(Range<usize>, Range<usize>)> {
    let bytes = text.as_bytes();
    let opens: &[bool] = if bytes.first() == Some(&b'[') {
        &[true, false]
    } else {
        &[false]
    };
    for &open in opens {
        let start = usize::from(open);
        let run = bytes[start..]
            .iter()
            .take_while(|c| is_host_char(**c))
            .count();
        for length in (0..=run).rev() {
            let host_end = start + length;
            let closes: &[bool] = if bytes.get(host_end) == Some(&b']') {
                &[true, false]
            } else {
                &[false]
            };
            for &close in closes {
                let colon = host_end + usize::from(close);
                if bytes.get(colon) != Some(&b':') {
                    continue;
                }
                let port_start = colon + 1;
                let digits_start = if signed && bytes.get(port_start) == Some(&b'-') {
                    port_start + 1
                } else {
                    port_start
                };
                let digits = &bytes[digits_start.min(bytes.len())..];
                if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                    return Some((start..host_end, port_start..bytes.len()));
                }
            }
        }
    }
    None
}

/// `Utils.getHost` and `getPort` of `address`: the host and the port digits, or `None` when
/// the pattern does not match. Kafka 3.x skips any prefix (`.*?`); 4.0 allows only a
/// `scheme://` before the host.
pub fn match_host_and_port(address: &str, any_prefix: bool) -> Option<(&str, &str)> {
    let found = |offset: usize| {
        match_host_port(&address[offset..], false)
            .map(|(host, port)| (host.start + offset..host.end + offset, port.start + offset))
    };
    let (host, port) = if any_prefix {
        // The lazy prefix: the shortest one after which a host and port follow.
        address
            .char_indices()
            .take_while(|(_, c)| !is_line_terminator(*c))
            .map(|(at, _)| at)
            .chain(
                std::iter::once(address.len()).filter(|_| !address.chars().any(is_line_terminator)),
            )
            .find_map(found)?
    } else {
        let scheme = address
            .bytes()
            .take_while(|c| is_host_char(*c) && *c != b':')
            .count();
        address[scheme..]
            .starts_with("://")
            .then(|| found(scheme + 3))
            .flatten()
            .or_else(|| found(0))?
    };
    Some((&address[host], &address[port..]))
}

/// commons-validator's `isValidInet4Address`: four dotted decimal groups of 1 to 3 digits, each
/// at most 255 and without a leading zero.
pub fn is_ipv4(text: &str) -> bool {
    // Asked of every host a listener names, most of them names: seven to fifteen digits and
    // dots or no address, settled before the groups are split out.
    (7..=15).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && four_groups(text)
}

/// [`is_ipv4`] by its definition, group by group.
fn four_groups(text: &str) -> bool {
    let groups: Vec<&str> = text.split('.').collect();
    groups.len() == 4
        && groups.iter().all(|group| {
            (1..=3).contains(&group.len())
                && group.bytes().all(|b| b.is_ascii_digit())
                && group.parse::<u16>().is_ok_and(|n| n <= 255)
                && !(group.len() > 1 && group.starts_with('0'))
        })
}

/// commons-validator's `isValidInet6Address`: eight hex groups, `::` once for a run of zeros,
/// an IPv4 tail, a `%zone` and a `/prefix`.
pub fn is_ipv6(text: &str) -> bool {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() > 2 {
        return false;
    }
    if let Some(prefix) = parts.get(1)
        && !(!prefix.is_empty()
            && prefix.bytes().all(|b| b.is_ascii_digit())
            && prefix.parse::<u32>().is_ok_and(|bits| bits <= 128))
    {
        return false;
    }
    let zoned: Vec<&str> = parts[0].split('%').collect();
    if zoned.len() > 2 {
        return false;
    }
    if let Some(zone) = zoned.get(1)
        && (zone.is_empty()
            || zone
                .chars()
                .any(|c| c.is_whitespace() || c == '/' || c == '%'))
    {
        return false;
    }
    let address = zoned[0];
    let compressed = address.contains("::");
    if compressed && address.find("::") != address.rfind("::") {
        return false;
    }
    if (address.starts_with(':') && !address.starts_with("::"))
        || (address.ends_with(':') && !address.ends_with("::"))
    {
        return false;
    }
    let mut octets = java_split(address, ':');
    if compressed {
        if address.ends_with("::") {
            // Java's split drops the empty groups at the end.
            octets.push("");
        } else if address.starts_with("::") && !octets.is_empty() {
            octets.remove(0);
        }
    }
    if octets.len() > 8 {
        return false;
    }
    let mut valid = 0;
    let mut empty_run = 0;
    for (index, octet) in octets.iter().enumerate() {
        if octet.is_empty() {
            empty_run += 1;
            if empty_run > 1 {
                return false;
            }
        } else {
            empty_run = 0;
            if index == octets.len() - 1 && octet.contains('.') {
                if !is_ipv4(octet) {
                    return false;
                }
                valid += 2;
                continue;
            }
            if octet.len() > 4 {
                return false;
            }
            match i32::from_str_radix(octet, 16) {
                Ok(value) if (0..=0xffff).contains(&value) => {}
                _ => return false,
            }
        }
        valid += 1;
    }
    valid <= 8 && (valid == 8 || compressed)
}

/// `InetAddressValidator.isValid`: an IPv4 or IPv6 literal.
pub fn is_ip_literal(text: &str) -> bool {
    is_ipv4(text) || is_ipv6(text)
}

/// Java's `String.split` with a one-character separator and limit 0: trailing empty pieces
/// are dropped; no separator at all gives the whole text.
fn java_split(text: &str, separator: char) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split(separator).collect();
    if pieces.len() > 1 {
        while pieces.last() == Some(&"") {
            pieces.pop();
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listener(entry: &str) -> Option<(&str, &str, &str)> {
        match_listener(entry)
            .map(|parts| (&entry[parts.name], &entry[parts.host], &entry[parts.port]))
    }

    #[test]
    fn listener_entries_split_like_kafkas_regex() {
        assert_eq!(
            listener("PLAINTEXT://:9092"),
            Some(("PLAINTEXT", "", "9092"))
        );
        assert_eq!(
            listener("SSL://broker-1.example.com:9093"),
            Some(("SSL", "broker-1.example.com", "9093"))
        );
        // Brackets are optional and either may be missing; the host keeps its colons.
        assert_eq!(listener("A://[::1]:9092"), Some(("A", "::1", "9092")));
        assert_eq!(listener("A://::1:9092"), Some(("A", "::1", "9092")));
        assert_eq!(listener("A://[::1:9092"), Some(("A", "::1", "9092")));
        assert_eq!(listener("A://::1]:9092"), Some(("A", "::1", "9092")));
        assert_eq!(
            listener("A://[fe80::1%eth0]:9092"),
            Some(("A", "fe80::1%eth0", "9092"))
        );
        // The host runs to the last colon that only port digits follow.
        assert_eq!(listener("A://h:1:2"), Some(("A", "h:1", "2")));
        // The name is greedy: it ends at the last `://`.
        assert_eq!(listener("A://B://h:9092"), Some(("A://B", "h", "9092")));
        assert_eq!(listener("://h:9092"), Some(("", "h", "9092")));
        assert_eq!(listener("A B://h:9092"), Some(("A B", "h", "9092")));
        assert_eq!(listener("A://:-1"), Some(("A", "", "-1")));
        assert_eq!(listener("A://:099999"), Some(("A", "", "099999")));
        for bad in [
            "A://h",
            "A://h:",
            "A://h:+1",
            "A://h:9092/x",
            "A://h!:9092",
            "A://a b:9092",
            "A:/:9092",
            "A//h:9092",
            "PLAINTEXT",
            "A\n://h:9092",
        ] {
            assert_eq!(listener(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn host_and_port_before_and_after_kafka_4() {
        // 3.x skips any prefix, 4.0 only a scheme.
        assert_eq!(match_host_and_port("h:9093", true), Some(("h", "9093")));
        assert_eq!(
            match_host_and_port("foo/bar:9093", true),
            Some(("bar", "9093"))
        );
        assert_eq!(match_host_and_port("h!1:9093", true), Some(("1", "9093")));
        assert_eq!(match_host_and_port("1@h1:9093", true), Some(("h1", "9093")));
        assert_eq!(match_host_and_port("foo/bar:9093", false), None);
        assert_eq!(match_host_and_port("h!1:9093", false), None);
        assert_eq!(match_host_and_port("1@h1:9093", false), None);
        assert_eq!(
            match_host_and_port("x://h:9093", false),
            Some(("h", "9093"))
        );
        assert_eq!(
            match_host_and_port("[::1]:9093", false),
            Some(("::1", "9093"))
        );
        assert_eq!(match_host_and_port(":9093", false), Some(("", "9093")));
        for bad in ["h", "h:", "h:abc", "h1:9093/x", "", "h:-1"] {
            assert_eq!(match_host_and_port(bad, false), None, "{bad:?}");
            assert_eq!(match_host_and_port(bad, true), None, "{bad:?}");
        }
    }

    #[test]
    fn ipv4_is_four_groups_however_the_text_is_looked_at_first() {
        // The look at length and bytes changes no answer of the definition, on every text of up
        // to seven of these pieces that ends within 20 bytes.
        let pieces = ["1", ".", "255", "0", "256", "09", "a", "12"];
        for text in &crate::testing::strings_of(&pieces, 7, 20) {
            assert_eq!(is_ipv4(text), four_groups(text), "{text:?}");
        }
    }

    #[test]
    fn ip_literals_as_commons_validator_sees_them() {
        for ok in ["127.0.0.1", "0.0.0.0", "255.255.255.255"] {
            assert!(is_ipv4(ok), "{ok}");
        }
        for bad in ["256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "a.b.c.d", ""] {
            assert!(!is_ipv4(bad), "{bad}");
        }
        for ok in [
            "::",
            "::1",
            "fe80::1%eth0",
            "::ffff:1.2.3.4",
            "2001:db8:0:0:0:0:2:1",
            "2001:db8::2:1",
            "1::",
        ] {
            assert!(is_ipv6(ok), "{ok}");
        }
        for bad in [
            ":1",
            "1:",
            "1::2::3",
            "12345::",
            "1:2:3:4:5:6:7",
            "g::1",
            "1:2:3:4:5:6:7:8:9",
            "localhost",
            "",
        ] {
            assert!(!is_ipv6(bad), "{bad}");
        }
    }
}
