//! `image-start-refusal`: a compose service whose image's start-up scripts stop the container
//! before Kafka starts.

use super::{Check, Context, FixAvailability, Group, Rule, Verified};
use crate::cluster::Cluster;
use crate::diagnostic::{Diagnostic, Label, Severity};
use crate::yaml_view::Runtime;

pub const RULE: Rule = Rule {
    name: "image-start-refusal",
    severity: Severity::Error,
    group: Group::StartupRefusal,
    fix: FixAvailability::None,
    verified: Verified::CATALOGUE,
    summary: "a container whose image's start-up scripts stop it before Kafka starts (bitnami/kafka without a mode; apache/kafka 3.7 to 3.9 missing its TLS, SASL or controller inputs; cp-kafka given KAFKA_PORT by a Service named kafka)",
    check: Check::Files(check),
};

fn check(cluster: &Cluster, context: &Context) -> Vec<Diagnostic> {
    // A service without an id or a mode reads as an overlay; its container still starts.
    cluster
        .nodes
        .iter()
        .chain(&cluster.overlays)
        .filter_map(|node| {
            let view = context.view(node.file, node.part)?;
            let exit = view.image_exit.as_ref()?;
            let image = match &view.runtime {
                Runtime::Container { image, .. } => image.as_str(),
                Runtime::Pod { .. } | Runtime::Machine { .. } => return None,
            };
            Some(
                RULE.finding(format!("{image} stops before Kafka starts: {}", exit.why))
                    .about(context.node_ref(node))
                    .stopping_startup()
                    .with_label(Label {
                        file: node.file,
                        span: exit.span.clone(),
                        message: "exits at start".into(),
                    })
                    .with_help(exit.help.clone()),
            )
        })
        .collect()
}
