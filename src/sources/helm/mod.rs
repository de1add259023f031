//! Helm: values files of the charts whose templates kafkalint knows.

pub mod bitnami_chart;
