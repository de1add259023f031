//! kafkalint: a static linter for Apache Kafka broker configuration.
//!
//! The pipeline is plain data flowing one way: bytes → files → clusters → findings → report
//! → output. Its modules form a stack of layers, each using only those below it, and nothing
//! imports in a circle (`tests/layers.rs` checks both):
//!
//! 1. foundation: [`properties`], [`catalog`], [`secrets`], [`diagnostic`], `parallel`,
//!    `byte_scan`;
//! 2. sources: [`yaml_view`], [`source`], [`components`], [`directive`], [`sources`];
//! 3. config: [`config`], `kafkalint.toml` as data;
//! 4. model: [`cluster`], [`coordinator`];
//! 5. [`rules`];
//! 6. report: [`report`], [`suppress`], [`fix`]; [`live`]: the client of a running cluster,
//!    its snapshot, the judge and the plan;
//! 7. [`output`];
//! 8. check: [`check()`], [`check_with_cluster`], [`check_buffer`], [`check_in_memory`],
//!    [`check_live`];
//! 9. [`server`], the language server, which checks an editor's documents as [`check_buffer`];
//! 10. the command line (`main.rs`).

mod byte_scan;
pub mod catalog;
mod check;
pub mod cluster;
pub mod components;
pub mod config;
pub mod coordinator;
pub mod diagnostic;
pub mod directive;
pub mod escape;
pub mod fix;
pub mod live;
pub mod output;
pub mod output_path;
mod parallel;
pub mod properties;
pub mod report;
pub mod rules;
pub mod secrets;
pub mod server;
pub mod source;
pub mod sources;
pub mod suppress;
#[cfg(test)]
mod testing;
pub mod yaml_view;

pub use check::{
    ConfigGroup, Error, check, check_buffer, check_in_memory, check_live, check_with_cluster,
    config_groups,
};
pub use report::{Options, Report, Retain};
