//! Helm: values files of the charts whose templates kafkalint knows, and charts of a
//! repository's own rendered with `helm template`.

pub mod bitnami_chart;
pub mod render;
pub mod trace;
