//! A node's listeners as `KafkaConfig` reads them: the effective
//! `listener.security.protocol.map` (with the PLAINTEXT mapping Kafka adds for controller
//! listeners), `listeners` and `advertised.listeners` as endpoints, `controller.listener.names`,
//! the advertised broker and controller endpoints, and the inter-broker listener.

use crate::catalog::KafkaVersion;
use crate::catalog::value::java_trim;
use crate::source::SourceFile;

use super::Node;
use super::address::{is_ip_literal, is_ipv4, is_ipv6, match_listener};
use super::quorum::{NON_ROUTABLE_HOST, ProcessRoles, Voter};
use super::setting::{Item, Lookup, Setting, Split, config_list_split, in_file, lookup, split};
use crate::properties::is_unresolved;

/// Kafka's security protocols.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecurityProtocol {
    Plaintext,
    Ssl,
    SaslPlaintext,
    SaslSsl,
}

impl SecurityProtocol {
    /// `SecurityProtocol.forName`: the name in any case.
    pub fn for_name(name: &str) -> Option<SecurityProtocol> {
        match name.to_uppercase().as_str() {
            "PLAINTEXT" => Some(SecurityProtocol::Plaintext),
            "SSL" => Some(SecurityProtocol::Ssl),
            "SASL_PLAINTEXT" => Some(SecurityProtocol::SaslPlaintext),
            "SASL_SSL" => Some(SecurityProtocol::SaslSsl),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SecurityProtocol::Plaintext => "PLAINTEXT",
            SecurityProtocol::Ssl => "SSL",
            SecurityProtocol::SaslPlaintext => "SASL_PLAINTEXT",
            SecurityProtocol::SaslSsl => "SASL_SSL",
        }
    }

    pub fn uses_sasl(self) -> bool {
        matches!(
            self,
            SecurityProtocol::SaslPlaintext | SecurityProtocol::SaslSsl
        )
    }
}

/// `ListenerName.normalised`: upper-cased; `None` for a blank name, which Kafka refuses.
pub fn normalised(name: &str) -> Option<String> {
    if java_trim(name).is_empty() {
        None
    } else {
        Some(name.to_uppercase())
    }
}

/// Where an entry of the effective map comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapOrigin {
    /// An item of `listener.security.protocol.map` as the file sets it.
    File,
    /// Kafka's default map (the key is not set).
    Default,
    /// The PLAINTEXT mapping Kafka adds for a controller listener name when the file does not
    /// set the map; the item is the one of `controller.listener.names`.
    ControllerName,
}

#[derive(Debug, Clone)]
pub struct Mapping<'a> {
    /// The listener name, upper-cased (for a controller name added by Kafka: as written).
    pub name: String,
    pub protocol: SecurityProtocol,
    pub origin: MapOrigin,
    pub item: Item<'a>,
}

/// The effective `listener.security.protocol.map`.
#[derive(Debug, Clone, Default)]
pub struct ProtocolMap<'a> {
    pub mappings: Vec<Mapping<'a>>,
}

impl<'a> ProtocolMap<'a> {
    /// The mapping of a listener name, compared exactly (Kafka's `ListenerName.equals`).
    pub fn get(&self, name: &str) -> Option<&Mapping<'a>> {
        self.mappings.iter().find(|mapping| mapping.name == name)
    }
}

/// Why Kafka cannot read `listener.security.protocol.map`.
#[derive(Debug, Clone)]
pub enum MapProblem<'a> {
    /// An item without a colon (`CONTROLLER`), or an empty one (`A:B,,C:D`).
    NoColon(Item<'a>),
    /// Nothing before the colon (`:SSL`).
    BlankName(Item<'a>),
    /// A protocol Kafka does not have (`FOO:BAR`, `A:`).
    UnknownProtocol { item: Item<'a>, protocol: &'a str },
    /// Kafka 4.1 and later: two items name one listener in different case.
    SameName {
        first: Item<'a>,
        second: Item<'a>,
        name: String,
    },
    /// Kafka 4.1: a controller listener name given twice while Kafka adds the PLAINTEXT
    /// mapping for controller names (items of `controller.listener.names`).
    RepeatedControllerName { first: Item<'a>, second: Item<'a> },
}

/// `Csv.parseCsvMap` and the normalisation of `effectiveListenerSecurityProtocolMap`.
fn explicit_map<'a>(
    setting: Setting<'a>,
    version: KafkaVersion,
) -> Result<Vec<Mapping<'a>>, Vec<MapProblem<'a>>> {
    let origin = if setting.is_set() {
        MapOrigin::File
    } else {
        MapOrigin::Default
    };
    let mut problems = Vec::new();
    // A HashMap of the raw names: a repeated name keeps its place and takes the later value.
    let mut raw: Vec<(&'a str, &'a str, Item<'a>)> = Vec::new();
    for item in split(setting.text, Split::CsvMap) {
        let Some(colon) = item.text.rfind(':') else {
            problems.push(MapProblem::NoColon(item));
            continue;
        };
        let name = java_trim(&item.text[..colon]);
        let protocol = java_trim(&item.text[colon + 1..]);
        match raw.iter_mut().find(|(known, _, _)| *known == name) {
            Some(slot) => *slot = (name, protocol, item),
            None => raw.push((name, protocol, item)),
        }
    }
    let names: Vec<&str> = raw.iter().map(|(name, _, _)| *name).collect();
    let mut mappings: Vec<Mapping<'a>> = Vec::new();
    for index in super::setting::java_hash_map_order(&names) {
        let (name, protocol_name, item) = raw[index];
        let Some(name) = normalised(name) else {
            problems.push(MapProblem::BlankName(item));
            continue;
        };
        let Some(protocol) = SecurityProtocol::for_name(protocol_name) else {
            problems.push(MapProblem::UnknownProtocol {
                item,
                protocol: protocol_name,
            });
            continue;
        };
        let mapping = Mapping {
            name,
            protocol,
            origin,
            item,
        };
        match mappings.iter_mut().find(|known| known.name == mapping.name) {
            // Kafka 4.1 collects with Collectors.toMap, which refuses a repeated key; 3.9 and
            // 4.0 build a Scala map, where the later one in iteration order wins.
            Some(known) if version >= KafkaVersion::new(4, 1) => {
                let (first, second) = if known.item.start < item.start {
                    (known.item, item)
                } else {
                    (item, known.item)
                };
                problems.push(MapProblem::SameName {
                    first,
                    second,
                    name: mapping.name,
                });
            }
            Some(known) => *known = mapping,
            None => mappings.push(mapping),
        }
    }
    if problems.is_empty() {
        mappings.sort_by_key(|mapping| mapping.item.start);
        Ok(mappings)
    } else {
        problems.sort_by_key(|problem| problem_start(problem));
        Err(problems)
    }
}

fn problem_start(problem: &MapProblem) -> usize {
    match problem {
        MapProblem::NoColon(item) | MapProblem::BlankName(item) => item.start,
        MapProblem::UnknownProtocol { item, .. } => item.start,
        MapProblem::SameName { second, .. } | MapProblem::RepeatedControllerName { second, .. } => {
            second.start
        }
    }
}

/// Whether a name is one of the protocols that stop Kafka from adding PLAINTEXT mappings for
/// controller names (compared exactly).
fn is_ssl_or_sasl(name: &str) -> bool {
    matches!(name, "SSL" | "SASL_SSL" | "SASL_PLAINTEXT")
}

/// `controller.listener.names` as the release splits it.
#[derive(Debug, Clone)]
pub struct ControllerNames<'a> {
    pub setting: Option<Setting<'a>>,
    /// 3.9 and 4.0 keep the items untrimmed (`CONTROLLER, C2` has ` C2`) and keep empty ones
    /// before the last; 4.1 trims and drops empty ones; 4.2 drops repeats.
    pub items: Vec<Item<'a>>,
}

impl<'a> ControllerNames<'a> {
    fn read(setting: Option<Setting<'a>>, version: KafkaVersion) -> ControllerNames<'a> {
        let how = if version < KafkaVersion::new(4, 1) {
            Split::BareCommas
        } else if version < KafkaVersion::new(4, 2) {
            Split::CsvList
        } else {
            config_list_split("controller.listener.names", version)
        };
        let items = setting.map_or_else(Vec::new, |setting| split(setting.text, how));
        ControllerNames { setting, items }
    }

    /// `controllerListenerNames.contains(name)`: an exact, case-sensitive match.
    pub fn contains(&self, name: &str) -> bool {
        self.items.iter().any(|item| item.text == name)
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// One endpoint of `listeners` or `advertised.listeners`.
#[derive(Debug, Clone)]
pub struct Endpoint<'a> {
    /// Upper-cased, as Kafka keeps it.
    pub name: String,
    /// `None` for the wildcard (an empty host).
    pub host: Option<&'a str>,
    pub port: i32,
    pub protocol: SecurityProtocol,
    pub item: Item<'a>,
}

/// Why Kafka refuses one entry of a listener list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryProblem {
    /// Not `NAME://host:port` (a missing port, a path, a space or `!` in the host, ...).
    Unparsable,
    /// Nothing before `://`.
    BlankName,
    /// More digits than an int holds.
    PortOverflow,
    /// The effective map has no protocol for the (upper-cased) name.
    NoProtocol(String),
}

/// How endpoints that share a port clash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortClash {
    /// Two or more with a hostname or the wildcard.
    Hosts,
    /// Two IP addresses that are not one IPv4 and one IPv6, or such a pair beside a hostname.
    NotOneOfEachFamily,
    /// One IP address beside hostnames, or more than two IP addresses.
    IpBesideOthers,
}

#[derive(Debug, Clone)]
pub enum ListenerProblem<'a> {
    Entry {
        item: Item<'a>,
        problem: EntryProblem,
    },
    SameName {
        first: Item<'a>,
        second: Item<'a>,
        name: String,
    },
    SamePort {
        port: i32,
        items: Vec<Item<'a>>,
        clash: PortClash,
    },
}

/// An entry that matched the listener pattern, before its name is looked up in the map.
#[derive(Debug, Clone)]
struct Parsed<'a> {
    name: String,
    host: Option<&'a str>,
    port: i32,
    item: Item<'a>,
}

/// `listeners` or `advertised.listeners` as `listenerListToEndPoints` reads it.
#[derive(Debug, Clone)]
pub struct ListenerList<'a> {
    pub setting: Setting<'a>,
    /// Every entry, when none has a problem; an entry whose host a template fills in is one
    /// (its name, port and protocol are known).
    pub endpoints: Vec<Endpoint<'a>>,
    pub problems: Vec<ListenerProblem<'a>>,
    /// Whether the names could be looked up (the effective map is readable).
    pub resolved: bool,
    /// Entries a template fills in beyond their host (`${LISTENERS}`, `%NAME%://:9092`): not
    /// judged, and what needs the whole list is unknown. The others are judged all the same.
    pub unknown: Vec<Item<'a>>,
}

impl<'a> ListenerList<'a> {
    fn read(
        setting: Setting<'a>,
        key: &str,
        version: KafkaVersion,
        map: Option<&ProtocolMap<'a>>,
        distinct_ports: bool,
    ) -> ListenerList<'a> {
        let items = listener_items(setting, key, version);
        let mut problems = Vec::new();
        let mut parsed = Vec::new();
        let mut unknown = Vec::new();
        for item in items {
            match parse_entry(item) {
                Ok(entry) => parsed.push(entry),
                Err(_) if is_unresolved(item.text) => match placeholder_host_entry(item) {
                    Some(entry) => parsed.push(entry),
                    None => unknown.push(item),
                },
                Err(problem) => problems.push(ListenerProblem::Entry { item, problem }),
            }
        }
        let mut endpoints = Vec::new();
        if let Some(map) = map {
            for entry in parsed {
                match map.get(&entry.name) {
                    Some(mapping) => endpoints.push(Endpoint {
                        name: entry.name,
                        host: entry.host,
                        port: entry.port,
                        protocol: mapping.protocol,
                        item: entry.item,
                    }),
                    None => problems.push(ListenerProblem::Entry {
                        item: entry.item,
                        problem: EntryProblem::NoProtocol(entry.name),
                    }),
                }
            }
        }
        if problems.is_empty() {
            problems = validate(&endpoints, distinct_ports);
        }
        problems.sort_by_key(|problem| match problem {
            ListenerProblem::Entry { item, .. } => item.start,
            ListenerProblem::SameName { second, .. } => second.start,
            ListenerProblem::SamePort { items, .. } => items.last().map_or(0, |item| item.start),
        });
        if !problems.is_empty() {
            endpoints.clear();
        }
        ListenerList {
            setting,
            endpoints,
            problems,
            resolved: map.is_some(),
            unknown,
        }
    }

    /// The endpoints, when Kafka reads the whole list and every host is known (none is a
    /// placeholder a template fills in).
    pub fn endpoints(&self) -> Option<&[Endpoint<'a>]> {
        let known = self.unknown.is_empty()
            && self
                .endpoints
                .iter()
                .all(|endpoint| !endpoint.host.is_some_and(is_unresolved));
        (self.resolved && self.problems.is_empty() && known).then_some(&self.endpoints[..])
    }
}

/// The entries of a listener list: 3.9 to 4.1 split the trimmed string with `Csv.parseCsvList`
/// (empty entries dropped); 4.2 reads a ConfigDef list (repeats dropped).
fn listener_items<'a>(setting: Setting<'a>, key: &str, version: KafkaVersion) -> Vec<Item<'a>> {
    if version < KafkaVersion::new(4, 2) {
        split(setting.text, Split::CsvList)
    } else {
        split(setting.text, config_list_split(key, version))
    }
}

fn parse_entry(item: Item<'_>) -> Result<Parsed<'_>, EntryProblem> {
    let parts = match_listener(item.text).ok_or(EntryProblem::Unparsable)?;
    let name = normalised(&item.text[parts.name]).ok_or(EntryProblem::BlankName)?;
    let host = &item.text[parts.host];
    let port: i32 = item.text[parts.port]
        .parse()
        .map_err(|_| EntryProblem::PortOverflow)?;
    Ok(Parsed {
        name,
        host: (!host.is_empty()).then_some(host),
        port,
        item,
    })
}

/// An entry whose host a template fills in (`PLAINTEXT://${HOST}:9092`, `INTERNAL://{{ .host
/// }}:9093`): its name and port are written, so it is read with the placeholder as its host.
/// `None` when the placeholder reaches into the name or the port.
fn placeholder_host_entry(item: Item<'_>) -> Option<Parsed<'_>> {
    let (name, address) = item.text.split_once("://")?;
    let (host, port) = address.rsplit_once(':')?;
    let name = normalised(name).filter(|name| !is_unresolved(name))?;
    let port: i32 = port
        .strip_prefix('-')
        .unwrap_or(port)
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| port.parse().ok())??;
    Some(Parsed {
        name,
        host: Some(host),
        port,
        item,
    })
}

/// The checks of `listenerListToEndPoints` on a parsed list: distinct names, and for
/// `listeners` distinct ports, except one IPv4 and one IPv6 address on one port (port 0 never
/// clashes).
fn validate<'a>(endpoints: &[Endpoint<'a>], distinct_ports: bool) -> Vec<ListenerProblem<'a>> {
    let mut problems = Vec::new();
    for (index, endpoint) in endpoints.iter().enumerate() {
        if let Some(first) = endpoints[..index].iter().find(|e| e.name == endpoint.name) {
            problems.push(ListenerProblem::SameName {
                first: first.item,
                second: endpoint.item,
                name: endpoint.name.clone(),
            });
        }
    }
    if !problems.is_empty() || !distinct_ports {
        return problems;
    }
    let mut ports: Vec<i32> = endpoints
        .iter()
        .map(|e| e.port)
        .filter(|port| *port != 0)
        .collect();
    ports.sort_unstable();
    ports.dedup();
    for port in ports {
        let group: Vec<&Endpoint> = endpoints.iter().filter(|e| e.port == port).collect();
        if group.len() < 2 {
            continue;
        }
        let hosts: Vec<Option<&str>> = group.iter().map(|e| e.host).collect();
        if let Some(clash) = clash_whatever_fills_in(&hosts) {
            problems.push(ListenerProblem::SamePort {
                port,
                items: group.iter().map(|e| e.item).collect(),
                clash,
            });
        }
    }
    problems
}

/// How endpoints of one port clash, whatever a template fills into a placeholder host: the
/// clash of a hostname, `None` when an IPv4 or an IPv6 address there would not clash.
fn clash_whatever_fills_in(hosts: &[Option<&str>]) -> Option<PortClash> {
    // A hostname, an IPv4 and an IPv6 address (RFC 5737, RFC 3849 documentation ranges).
    const STAND_INS: [&str; 3] = ["placeholder.invalid", "192.0.2.1", "2001:db8::1"];
    let unresolved: Vec<usize> = (0..hosts.len())
        .filter(|at| hosts[*at].is_some_and(is_unresolved))
        .collect();
    // Past a few placeholders on one port, say nothing rather than try every filling.
    if unresolved.len() > 3 {
        return None;
    }
    let mut filled = hosts.to_vec();
    let mut first = None;
    for combination in 0..STAND_INS.len().pow(unresolved.len() as u32) {
        let mut rest = combination;
        for at in &unresolved {
            filled[*at] = Some(STAND_INS[rest % STAND_INS.len()]);
            rest /= STAND_INS.len();
        }
        let clash = clash_of(&filled)?;
        first.get_or_insert(clash);
    }
    first
}

/// How endpoints of one port clash in `listenerListToEndPoints`, by their hosts.
fn clash_of(hosts: &[Option<&str>]) -> Option<PortClash> {
    let (ips, others): (Vec<Option<&str>>, Vec<Option<&str>>) = hosts
        .iter()
        .copied()
        .partition(|host| host.is_some_and(is_ip_literal));
    if others.len() >= 2 {
        Some(PortClash::Hosts)
    } else if ips.is_empty() {
        None
    } else if let [first, second] = ips[..] {
        let (a, b) = (first.unwrap_or(""), second.unwrap_or(""));
        let one_of_each = (is_ipv4(a) && is_ipv6(b)) || (is_ipv6(a) && is_ipv4(b));
        (!one_of_each || !others.is_empty()).then_some(PortClash::NotOneOfEachFamily)
    } else {
        Some(PortClash::IpBesideOthers)
    }
}

/// What `KafkaConfig` reads of a node's listeners.
#[derive(Debug, Clone)]
pub struct NodeListeners<'a> {
    pub version: KafkaVersion,
    pub map_setting: Setting<'a>,
    /// The effective map, or why Kafka cannot read it. A listener entry without a colon, met
    /// while Kafka decides whether to add controller mappings, also stops it: that entry is
    /// reported with the listeners, and the map is then `Err` without problems of its own. So
    /// is the map when a template fills in the name of such an entry: it is unknown.
    pub map: Result<ProtocolMap<'a>, Vec<MapProblem<'a>>>,
    pub controller_names: ControllerNames<'a>,
    pub listeners: ListenerList<'a>,
    /// `None` when the key is not set (Kafka falls back to `listeners`).
    pub advertised: Option<ListenerList<'a>>,
}

impl<'a> NodeListeners<'a> {
    /// Reads the listener keys of a node; `None` when ConfigDef refuses one of them (then
    /// Kafka stops before any of this, and another rule says why).
    pub fn read(
        files: &'a [SourceFile],
        node: &Node,
        version: KafkaVersion,
        roles: &ProcessRoles,
    ) -> Option<NodeListeners<'a>> {
        let Lookup::Set(map_setting) =
            lookup(files, node, "listener.security.protocol.map", version)
        else {
            return None;
        };
        let controller_names = ControllerNames::read(
            lookup(files, node, "controller.listener.names", version).known()?,
            version,
        );
        let Lookup::Set(listeners_setting) = lookup(files, node, "listeners", version) else {
            return None;
        };
        let advertised_setting = lookup(files, node, "advertised.listeners", version).known()?;

        let mut map = explicit_map(map_setting, version);
        let map_in_file = in_file(files, node, "listener.security.protocol.map");
        // Kafka adds PLAINTEXT for controller names when the file leaves the map to its
        // default (3.9: in KRaft mode only), unless a controller name or a listener uses SSL
        // or SASL.
        let implicit = !map_in_file && (version >= KafkaVersion::new(4, 0) || !roles.is_empty());
        if implicit && let Ok(mappings) = &mut map {
            match controller_mappings(&controller_names, listeners_setting, version) {
                Ok(added) => {
                    for mapping in added {
                        match mappings.iter_mut().find(|known| known.name == mapping.name) {
                            Some(known) => *known = mapping,
                            None => mappings.push(mapping),
                        }
                    }
                }
                Err(problems) => map = Err(problems),
            }
        }
        let map = map.map(|mappings| ProtocolMap { mappings });
        let listeners = ListenerList::read(
            listeners_setting,
            "listeners",
            version,
            map.as_ref().ok(),
            true,
        );
        let advertised = advertised_setting.map(|setting| {
            ListenerList::read(
                setting,
                "advertised.listeners",
                version,
                map.as_ref().ok(),
                false,
            )
        });
        Some(NodeListeners {
            version,
            map_setting,
            map,
            controller_names,
            listeners,
            advertised,
        })
    }

    /// `controllerListeners`: the endpoints of `listeners` whose name is a controller name.
    pub fn controller_listeners(&self) -> Option<Vec<&Endpoint<'a>>> {
        Some(
            self.listeners
                .endpoints()?
                .iter()
                .filter(|e| self.controller_names.contains(&e.name))
                .collect(),
        )
    }

    /// The advertised list Kafka starts from: `advertised.listeners`, else `listeners`.
    pub fn advertised_or_listeners(&self) -> Option<&[Endpoint<'a>]> {
        match &self.advertised {
            Some(advertised) => advertised.endpoints(),
            None => self.listeners.endpoints(),
        }
    }

    /// `effectiveAdvertisedBrokerListeners`: the advertised endpoints that are not controller
    /// listeners. (Kafka 3.9 keeps a controller listener that is also the control plane
    /// listener during a ZooKeeper migration: `keep_control_plane`.)
    pub fn advertised_brokers(
        &self,
        keep_control_plane: Option<&str>,
    ) -> Option<Vec<&Endpoint<'a>>> {
        Some(
            self.advertised_or_listeners()?
                .iter()
                .filter(|e| {
                    !self.controller_names.contains(&e.name) || keep_control_plane == Some(&e.name)
                })
                .collect(),
        )
    }

    /// `effectiveAdvertisedControllerListeners`: for each controller name in order, its
    /// endpoint in `advertised.listeners`, else in `listeners` (where the wildcard `0.0.0.0`
    /// becomes "no host"; from 4.2 the first name without a host takes the node's voter
    /// address).
    pub fn advertised_controllers(
        &self,
        node_id: Option<i32>,
        voters: &[Voter<'a>],
    ) -> Option<Result<Vec<ControllerEndpoint<'a>>, ControllerProblem<'a>>> {
        let advertised: Vec<&Endpoint> = match &self.advertised {
            Some(list) => list
                .endpoints()?
                .iter()
                .filter(|e| self.controller_names.contains(&e.name))
                .collect(),
            None => Vec::new(),
        };
        let listeners = self.controller_listeners()?;
        let mut found = Vec::new();
        for (index, item) in self.controller_names.items.iter().enumerate() {
            // The name is normalised only when there is an endpoint to compare it with.
            let Some(name) = normalised(item.text) else {
                if advertised.is_empty() && listeners.is_empty() {
                    continue;
                }
                return Some(Err(ControllerProblem::BlankName(*item)));
            };
            if let Some(endpoint) = advertised.iter().find(|e| e.name == name) {
                found.push(ControllerEndpoint {
                    host: endpoint.host,
                    port: endpoint.port,
                    from: ControllerSource::Advertised(endpoint.item),
                });
                continue;
            }
            let Some(endpoint) = listeners.iter().find(|e| e.name == name) else {
                continue;
            };
            let wildcard = endpoint.host.is_none_or(|host| host == NON_ROUTABLE_HOST);
            if self.version >= KafkaVersion::new(4, 2) && index == 0 && wildcard {
                // Kafka parses the voters again, now refusing the unroutable address.
                if let Some(voter) = voters.iter().find(|v| v.host == NON_ROUTABLE_HOST) {
                    return Some(Err(ControllerProblem::UnroutableVoter(voter.item)));
                }
                // The last voter of the node's id wins, as in Kafka's map.
                if let Some(voter) = voters.iter().rev().find(|v| Some(v.id) == node_id) {
                    found.push(ControllerEndpoint {
                        host: Some(voter.host),
                        port: i32::from(voter.port),
                        from: ControllerSource::Voter(voter.item),
                    });
                    continue;
                }
            }
            found.push(ControllerEndpoint {
                host: endpoint.host.filter(|host| *host != NON_ROUTABLE_HOST),
                port: endpoint.port,
                from: ControllerSource::Listener(endpoint.item),
            });
        }
        Some(Ok(found))
    }
}

/// The PLAINTEXT mappings Kafka adds for controller names, or none when a controller name is
/// SSL or SASL, or a listener's name (the text before its first colon) is.
fn controller_mappings<'a>(
    names: &ControllerNames<'a>,
    listeners: Setting<'a>,
    version: KafkaVersion,
) -> Result<Vec<Mapping<'a>>, Vec<MapProblem<'a>>> {
    if names.items.iter().any(|item| is_ssl_or_sasl(item.text)) {
        return Ok(Vec::new());
    }
    for entry in listener_items(listeners, "listeners", version) {
        let Some(colon) = entry.text.find(':') else {
            // `parseListenerName` throws; the entry is refused with the listeners too. (Or a
            // template fills in the whole entry: which mappings Kafka adds is unknown.)
            return Err(Vec::new());
        };
        if is_unresolved(&entry.text[..colon]) {
            // A template fills in the name, which may be SSL or SASL: unknown, as above.
            return Err(Vec::new());
        }
        if is_ssl_or_sasl(&entry.text[..colon].to_uppercase()) {
            return Ok(Vec::new());
        }
    }
    let added: Vec<Item> = names
        .items
        .iter()
        .copied()
        .filter(|item| item.text != "PLAINTEXT")
        .collect();
    // 4.1 collects them with Collectors.toMap (4.2 already dropped repeats).
    if version == KafkaVersion::new(4, 1) {
        for (index, item) in added.iter().enumerate() {
            if let Some(first) = added[..index].iter().find(|f| f.text == item.text) {
                return Err(vec![MapProblem::RepeatedControllerName {
                    first: *first,
                    second: *item,
                }]);
            }
        }
    }
    Ok(added
        .into_iter()
        .map(|item| Mapping {
            name: item.text.to_owned(),
            protocol: SecurityProtocol::Plaintext,
            origin: MapOrigin::ControllerName,
            item,
        })
        .collect())
}

/// Where an advertised controller endpoint comes from.
#[derive(Debug, Clone, Copy)]
pub enum ControllerSource<'a> {
    Advertised(Item<'a>),
    Listener(Item<'a>),
    /// Kafka 4.2: the node's voter (an item of `controller.quorum.voters`).
    Voter(Item<'a>),
}

#[derive(Debug, Clone, Copy)]
pub struct ControllerEndpoint<'a> {
    pub host: Option<&'a str>,
    pub port: i32,
    pub from: ControllerSource<'a>,
}

/// Why Kafka cannot work out the advertised controller endpoints.
#[derive(Debug, Clone, Copy)]
pub enum ControllerProblem<'a> {
    /// Kafka 3.9 and 4.0: an empty or blank item of `controller.listener.names`.
    BlankName(Item<'a>),
    /// Kafka 4.2: a voter at `0.0.0.0` while the node takes its address from the voters.
    UnroutableVoter(Item<'a>),
}

/// The listener inter-broker traffic uses.
#[derive(Debug, Clone)]
pub struct InterBroker<'a> {
    /// Upper-cased.
    pub name: String,
    pub protocol: SecurityProtocol,
    /// `inter.broker.listener.name` when set, else `security.inter.broker.protocol` (or its
    /// default).
    pub setting: Setting<'a>,
    pub by_name: bool,
}

#[derive(Debug, Clone)]
pub enum InterBrokerProblem<'a> {
    /// Both keys are in the file.
    BothSet {
        name: Setting<'a>,
        protocol: Setting<'a>,
    },
    /// `inter.broker.listener.name` is blank.
    BlankName(Setting<'a>),
    /// The effective map has no protocol for the name.
    Unmapped { name: String, setting: Setting<'a> },
}

/// `getInterBrokerListenerNameAndSecurityProtocol`; `None` when a key is refused by ConfigDef.
pub fn inter_broker<'a>(
    files: &'a [SourceFile],
    node: &Node,
    version: KafkaVersion,
    map: &ProtocolMap<'a>,
) -> Option<Result<InterBroker<'a>, InterBrokerProblem<'a>>> {
    let name = lookup(files, node, "inter.broker.listener.name", version).known()?;
    let Lookup::Set(protocol) = lookup(files, node, "security.inter.broker.protocol", version)
    else {
        return None;
    };
    let Some(name_setting) = name else {
        let protocol_value = SecurityProtocol::for_name(protocol.trimmed())?;
        return Some(Ok(InterBroker {
            name: protocol_value.name().to_owned(),
            protocol: protocol_value,
            setting: protocol,
            by_name: false,
        }));
    };
    if protocol.is_set() {
        return Some(Err(InterBrokerProblem::BothSet {
            name: name_setting,
            protocol,
        }));
    }
    let Some(name) = normalised(name_setting.trimmed()) else {
        return Some(Err(InterBrokerProblem::BlankName(name_setting)));
    };
    Some(match map.get(&name) {
        Some(mapping) => Ok(InterBroker {
            name,
            protocol: mapping.protocol,
            setting: name_setting,
            by_name: true,
        }),
        None => Err(InterBrokerProblem::Unmapped {
            name,
            setting: name_setting,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const V39: KafkaVersion = KafkaVersion::new(3, 9);
    const V40: KafkaVersion = KafkaVersion::new(4, 0);
    const V44: KafkaVersion = KafkaVersion::new(4, 4);

    fn set(text: &str) -> Setting<'_> {
        // A file line is not needed: these settings count as Kafka's default map.
        Setting { text, line: None }
    }

    fn map(text: &str, version: KafkaVersion) -> Result<Vec<(String, &'static str)>, usize> {
        explicit_map(set(text), version)
            .map(|mappings| {
                mappings
                    .into_iter()
                    .map(|m| (m.name, m.protocol.name()))
                    .collect()
            })
            .map_err(|problems| problems.len())
    }

    #[test]
    fn protocol_maps_parse_like_csv_parse_csv_map() {
        assert_eq!(
            map(" a:plaintext , CONTROLLER : SSL ,", V44),
            Ok(vec![
                ("A".to_owned(), "PLAINTEXT"),
                ("CONTROLLER".to_owned(), "SSL")
            ])
        );
        // The last colon separates: the name keeps the first.
        assert_eq!(map("A:B:SSL", V44), Ok(vec![("A:B".to_owned(), "SSL")]));
        // A repeated raw name takes the later value, which alone is checked.
        assert_eq!(map("A:FOO,A:SSL", V44), Ok(vec![("A".to_owned(), "SSL")]));
        assert_eq!(map("", V44), Ok(vec![]));
        assert_eq!(map("A:SSL,CONTROLLER", V44), Err(1));
        assert_eq!(map(",A:SSL", V44), Err(1));
        assert_eq!(map("A:SSL,,B:SSL", V44), Err(1));
        assert_eq!(map(":SSL", V44), Err(1));
        assert_eq!(map("A:", V44), Err(1));
        assert_eq!(map("FOO:BAR,A:TLS", V44), Err(2));
        // Names that clash once upper-cased: refused from 4.1, one wins before.
        assert_eq!(map("CONTROLLER:PLAINTEXT,controller:SSL", V44), Err(1));
        assert_eq!(
            map("CONTROLLER:PLAINTEXT,controller:SSL", V40).map(|m| m.len()),
            Ok(1)
        );
    }

    #[test]
    fn listener_entries_resolve_through_the_map() {
        let map = ProtocolMap {
            mappings: explicit_map(set("PLAINTEXT:PLAINTEXT,EXTERNAL:SSL"), V44).unwrap(),
        };
        let list = ListenerList::read(
            set("PLAINTEXT://:9092, external://[::1]:9093"),
            "listeners",
            V39,
            Some(&map),
            true,
        );
        let endpoints = list.endpoints().expect("valid");
        assert_eq!(endpoints[1].name, "EXTERNAL");
        assert_eq!(endpoints[1].host, Some("::1"));
        assert_eq!(endpoints[1].protocol, SecurityProtocol::Ssl);
        assert_eq!(endpoints[1].item.range(), 19..40);

        let problems = |text: &'static str| {
            ListenerList::read(set(text), "listeners", V39, Some(&map), true).problems
        };
        assert!(matches!(
            problems("PLAINTEXT://:9092,OTHER://:9093")[..],
            [ListenerProblem::Entry {
                problem: EntryProblem::NoProtocol(_),
                ..
            }]
        ));
        assert!(matches!(
            problems("PLAINTEXT://h:99999999999")[..],
            [ListenerProblem::Entry {
                problem: EntryProblem::PortOverflow,
                ..
            }]
        ));
        assert!(matches!(
            problems("PLAINTEXT://:9092,plaintext://:9093")[..],
            [ListenerProblem::SameName { .. }]
        ));
        assert!(matches!(
            problems("PLAINTEXT://:9092,EXTERNAL://:9092")[..],
            [ListenerProblem::SamePort {
                clash: PortClash::Hosts,
                ..
            }]
        ));
        assert!(matches!(
            problems("PLAINTEXT://127.0.0.1:9092,EXTERNAL://h:9092")[..],
            [ListenerProblem::SamePort {
                clash: PortClash::IpBesideOthers,
                ..
            }]
        ));
        assert!(matches!(
            problems("PLAINTEXT://127.0.0.1:9092,EXTERNAL://0.0.0.0:9092")[..],
            [ListenerProblem::SamePort {
                clash: PortClash::NotOneOfEachFamily,
                ..
            }]
        ));
        // One IPv4 and one IPv6 address may share a port; port 0 never clashes.
        assert!(problems("PLAINTEXT://0.0.0.0:9092,EXTERNAL://[::]:9092").is_empty());
        assert!(problems("PLAINTEXT://:0,EXTERNAL://:0").is_empty());
        // Before 4.2 empty entries are dropped.
        assert!(problems(",PLAINTEXT://:9092,,").is_empty());
    }
}
