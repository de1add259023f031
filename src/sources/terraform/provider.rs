//! The kubernetes provider's own resources (`kubernetes_stateful_set`, `kubernetes_deployment`,
//! `kubernetes_config_map` and their `_v1` twins) as the Kubernetes objects they create: HCL blocks and snake_case
//! names, turned into the manifest shape the Kubernetes reader knows.
//!
//! The provider's expanders build the API object from the schema: a repeated block is one item
//! of a list (`container` → `containers`, `env` → `env`, `port` → `ports`, `volume_mount` →
//! `volumeMounts`), a single block one object, and every field name is the API's in snake case
//! (`container_port` → `containerPort`). See hashicorp/terraform-provider-kubernetes,
//! kubernetes/structures_container.go (`expandContainers`, `expandContainerEnv`,
//! `expandContainerPort`), kubernetes/structures_pod.go (`expandPodSpec`: `container`,
//! `init_container`, `volume`) and kubernetes/structures_stateful_set.go
//! (`expandStatefulSetSpec`: `replicas`, `service_name`, `template`, `volume_claim_template`),
//! at commit 0f372dae9d7315923f9599f59274a65dca852596.

use hcl_edit::Span as _;
use hcl_edit::expr::Expression;
use hcl_edit::structure::Body;

use crate::properties::Span;
use crate::sources::yaml::{Node, Scalar, Style};

/// The API kind and version a provider resource type creates, when it is one read here.
pub fn kind_of(resource_type: &str) -> Option<(&'static str, &'static str)> {
    match resource_type {
        "kubernetes_stateful_set" | "kubernetes_stateful_set_v1" => {
            Some(("apps/v1", "StatefulSet"))
        }
        "kubernetes_deployment" | "kubernetes_deployment_v1" => Some(("apps/v1", "Deployment")),
        "kubernetes_config_map" | "kubernetes_config_map_v1" => Some(("v1", "ConfigMap")),
        _ => None,
    }
}

/// Blocks the schema repeats: each is an item of the list the API names so.
const LIST_BLOCKS: &[(&str, &str)] = &[
    ("container", "containers"),
    ("init_container", "initContainers"),
    ("env", "env"),
    ("env_from", "envFrom"),
    ("port", "ports"),
    ("volume_mount", "volumeMounts"),
    ("volume", "volumes"),
    ("volume_claim_template", "volumeClaimTemplates"),
    ("toleration", "tolerations"),
    ("image_pull_secrets", "imagePullSecrets"),
    ("host_aliases", "hostAliases"),
    ("items", "items"),
    ("topology_spread_constraint", "topologySpreadConstraints"),
];

/// Attributes whose value is a map of the user's own keys (labels, a ConfigMap's data): its
/// keys are kept as written.
const MAP_ATTRIBUTES: &[&str] = &[
    "labels",
    "annotations",
    "data",
    "binary_data",
    "match_labels",
    "selector",
    "node_selector",
    "requests",
    "limits",
];

/// Why a resource is not read: a part of it Terraform works out when it runs.
pub const DYNAMIC: &str = "a `dynamic` block, whose items Terraform works out when it runs";

/// The Kubernetes object a provider resource's body creates, each value worked out by `value`;
/// `Err` with why when it cannot be read (a `dynamic` block may add any container or variable).
pub fn object(
    api_version: &str,
    kind: &str,
    body: &Body,
    anchor: Span,
    value: &mut dyn FnMut(&Expression, &str) -> Node,
) -> Result<Node, &'static str> {
    let mut entries = vec![
        (plain("apiVersion", &anchor), plain(api_version, &anchor)),
        (plain("kind", &anchor), plain(kind, &anchor)),
    ];
    let Node::Map(fields) = block_body(body, value)? else {
        return Err(DYNAMIC);
    };
    entries.extend(fields);
    Ok(Node::Map(entries))
}

fn block_body(
    body: &Body,
    value: &mut dyn FnMut(&Expression, &str) -> Node,
) -> Result<Node, &'static str> {
    let mut entries: Vec<(Node, Node)> = Vec::new();
    for attribute in body.attributes() {
        let name = attribute.key.value().as_str();
        let span = attribute.key.span().unwrap_or(0..0);
        let key = plain(&camel(name), &span);
        let mut node = value(&attribute.value, name);
        if !MAP_ATTRIBUTES.contains(&name) {
            node = camel_keys(node);
        }
        entries.push((key, node));
    }
    for block in body.blocks() {
        let name = block.ident.value().as_str();
        if name == "dynamic" {
            return Err(DYNAMIC);
        }
        let span = block.ident.span().unwrap_or(0..0);
        let item = block_body(&block.body, value)?;
        match LIST_BLOCKS.iter().find(|(block, _)| *block == name) {
            Some((_, list)) => match entries.iter_mut().find(|(key, _)| key.text() == Some(list)) {
                Some((_, Node::Seq(items))) => items.push(item),
                _ => entries.push((plain(list, &span), Node::Seq(vec![item]))),
            },
            None => entries.push((plain(&camel(name), &span), item)),
        }
    }
    Ok(Node::Map(entries))
}

/// An object written as an HCL object (`security_context = { run_as_user = 1000 }`): its keys
/// in the API's case, as a block's.
fn camel_keys(node: Node) -> Node {
    match node {
        Node::Map(entries) => Node::Map(
            entries
                .into_iter()
                .map(|(key, value)| {
                    let key = match key {
                        Node::Scalar(mut scalar) => {
                            scalar.value = camel(&scalar.value);
                            Node::Scalar(scalar)
                        }
                        other => other,
                    };
                    (key, camel_keys(value))
                })
                .collect(),
        ),
        Node::Seq(items) => Node::Seq(items.into_iter().map(camel_keys).collect()),
        scalar => scalar,
    }
}

/// `container_port` → `containerPort`.
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

fn plain(value: &str, at: &Span) -> Node {
    Node::Scalar(Scalar::written_elsewhere(
        value.to_string(),
        Style::Plain,
        at.clone(),
        false,
        at.clone(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_api() {
        assert_eq!(camel("container_port"), "containerPort");
        assert_eq!(camel("volume_claim_template"), "volumeClaimTemplate");
        assert_eq!(camel("image"), "image");
    }
}
