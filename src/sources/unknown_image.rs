//! A container of an image kafkalint does not know is never passed over in silence when it is a
//! Kafka node: its image's name says Kafka, its environment sets what only a broker or
//! controller sets, or it mounts a node's `.properties` file. The note names the image, the
//! container and where its settings come from, and says how to tell kafkalint what the image
//! is (`[images]` in `kafkalint.toml`).
//!
//! A container that only talks to Kafka (an application with `KAFKA_BOOTSTRAP_SERVERS`, a
//! database) is none: in the repositories of the layout corpus such containers outnumber the
//! brokers, and a note on each would bury the ones that matter.

use super::images;
use super::yaml::Node;

/// Variables that only a node's start-up reads: the apache/kafka, confluentinc and
/// wurstmeister images turn `KAFKA_<KEY>` into `<key>`, and these keys are the broker's or
/// controller's (`node.id`, `process.roles`, `listeners`, ...); a client reads none of them.
const NODE_VARIABLES: &[&str] = &[
    "KAFKA_BROKER_ID",
    "KAFKA_NODE_ID",
    "KAFKA_PROCESS_ROLES",
    "KAFKA_ZOOKEEPER_CONNECT",
    "KAFKA_CONTROLLER_QUORUM_VOTERS",
    "KAFKA_CONTROLLER_QUORUM_BOOTSTRAP_SERVERS",
    "KAFKA_LISTENERS",
    "KAFKA_ADVERTISED_LISTENERS",
    "KAFKA_ADVERTISED_HOST_NAME",
    "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
    "KAFKA_INTER_BROKER_LISTENER_NAME",
    "KAFKA_CONTROLLER_LISTENER_NAMES",
    "KAFKA_LOG_DIRS",
    "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR",
];

/// Whether `name` is a variable only a node reads (bitnami's `KAFKA_CFG_<KEY>` included).
fn is_node_variable(name: &str) -> bool {
    NODE_VARIABLES.contains(&name) || name.starts_with("KAFKA_CFG_")
}

/// Whether a mount at `target` holds a node's configuration file.
fn is_node_config_mount(target: &str) -> bool {
    let name = target.rsplit('/').next().unwrap_or_default();
    let name = name.to_ascii_lowercase();
    name.ends_with(".properties")
        && ["server", "broker", "controller", "kraft"]
            .iter()
            .any(|prefix| name.starts_with(prefix))
}

/// The names a compose service's `environment` sets (a mapping, or `KEY=VALUE` items).
pub fn compose_variables(service: &Node) -> Vec<String> {
    let Some(environment) = service.get("environment") else {
        return Vec::new();
    };
    let from_map = environment
        .entries()
        .iter()
        .filter_map(|(key, _)| key.text().map(str::to_string));
    let from_list = environment.items().iter().filter_map(|item| {
        let text = item.text()?;
        Some(
            text.split_once('=')
                .map_or(text, |(name, _)| name)
                .to_string(),
        )
    });
    from_map.chain(from_list).collect()
}

/// The names a Kubernetes container's `env` sets.
pub fn container_variables(container: &Node) -> Vec<String> {
    container
        .get("env")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .filter_map(|item| Some(item.get("name")?.text()?.to_string()))
        .collect()
}

/// The note for container `label` of image `image` (as written, or `built from <context>`),
/// when it is a Kafka node kafkalint cannot read; `None` for a container that is none.
pub fn note(label: &str, image: &str, variables: &[String], mounts: &[String]) -> Option<String> {
    let node_variables: Vec<&str> = variables
        .iter()
        .map(String::as_str)
        .filter(|name| is_node_variable(name))
        .collect();
    let config_mounts: Vec<&str> = mounts
        .iter()
        .map(String::as_str)
        .filter(|target| is_node_config_mount(target))
        .collect();
    let named_kafka = images::looks_like_kafka(image);
    if !named_kafka && node_variables.is_empty() && config_mounts.is_empty() {
        return None;
    }
    let mut sources = Vec::new();
    if !node_variables.is_empty() {
        let shown: Vec<&str> = node_variables.iter().take(3).copied().collect();
        let more = node_variables.len() - shown.len();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        sources.push(format!("{}{more} in its environment", shown.join(", ")));
    }
    for target in &config_mounts {
        sources.push(format!("`{target}` mounted"));
    }
    let (what, hint) = match image.strip_prefix("built from ") {
        Some(context) => (
            format!("is built from `{context}`, an image kafkalint does not know"),
            "name the image it is built on in kafkalint.toml (`[images]`)".to_string(),
        ),
        None => (
            format!("runs image `{image}`, an image kafkalint does not know"),
            format!(
                "if it starts Kafka as a known image does, say which in kafkalint.toml: `[images]` `\"{}\" = \"apache/kafka:3.9.0\"`",
                without_tag(image)
            ),
        ),
    };
    // Where its settings come from is the image's start-up, which is what kafkalint does not
    // know: the note says what the container is given, not what the image makes of it.
    let given = if sources.is_empty() {
        String::new()
    } else {
        format!(", given {}", sources.join(" and "))
    };
    Some(format!("{label}: {what}{given}; not read: {hint}"))
}

/// The image as written without its tag or digest (`registry.example.com/platform/kafka`):
/// the name a team writes in `[images]`.
fn without_tag(image: &str) -> &str {
    let image = image.trim();
    let image = image.split_once('@').map_or(image, |(name, _)| name);
    match image.rfind(':') {
        Some(colon) if !image[colon..].contains('/') => &image[..colon],
        _ => image,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| name.to_string()).collect()
    }

    #[test]
    fn a_node_of_an_unknown_image_is_noted_with_where_its_settings_come_from() {
        let variables = names(&["KAFKA_NODE_ID", "KAFKA_PROCESS_ROLES", "TZ"]);
        let note = note(
            "service `broker`",
            "registry.example.com/platform/broker:1.4",
            &variables,
            &[],
        )
        .unwrap();
        assert_eq!(
            note,
            "service `broker`: runs image `registry.example.com/platform/broker:1.4`, an image kafkalint does not know, given KAFKA_NODE_ID, KAFKA_PROCESS_ROLES in its environment; not read: if it starts Kafka as a known image does, say which in kafkalint.toml: `[images]` `\"registry.example.com/platform/broker\" = \"apache/kafka:3.9.0\"`"
        );
        let mounted = note_of(
            "ghcr.io/acme/kraft:2",
            &[],
            &["/opt/kafka/config/server.properties"],
        );
        assert!(mounted.contains("given `/opt/kafka/config/server.properties` mounted"));
        assert!(note_of("quay.io/ogunalp/kafka-native:latest", &[], &[]).contains("does not know"));
    }

    #[test]
    fn the_name_to_write_keeps_the_registry_and_its_port() {
        assert_eq!(
            without_tag("registry:5000/kafka:1.2"),
            "registry:5000/kafka"
        );
        assert_eq!(without_tag("registry:5000/kafka"), "registry:5000/kafka");
        assert_eq!(without_tag("acme/kafka@sha256:abc"), "acme/kafka");
    }

    fn note_of(image: &str, variables: &[&str], mounts: &[&str]) -> String {
        note("service `x`", image, &names(variables), &names(mounts)).unwrap()
    }

    #[test]
    fn a_client_or_a_database_is_no_node() {
        let client = names(&["KAFKA_BOOTSTRAP_SERVERS", "KAFKA_TOPIC", "SPRING_PROFILES"]);
        assert_eq!(note("service `app`", "acme/orders:1", &client, &[]), None);
        let postgres = names(&["POSTGRES_PASSWORD"]);
        let data = names(&["/var/lib/postgresql/data"]);
        assert_eq!(note("service `db`", "postgres:16", &postgres, &data), None);
        assert_eq!(
            note("service `ui`", "provectuslabs/kafka-ui", &[], &[]),
            None
        );
    }
}
