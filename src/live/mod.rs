//! `kafkalint live`: what a running cluster has, judged beside the files that describe it.
//!
//! One room, its layers one way:
//! - [`client`]: asks the cluster (read-only requests) and writes its answers down as a
//!   [`snapshot::Snapshot`] (built with the `live` feature only: the rest reads a saved
//!   snapshot too);
//! - [`snapshot`]: the answers as data and as a `.properties` document findings point into;
//! - [`partial`]: what the snapshot lacks (what the principal was not shown, brokers not
//!   reached), so that a partial view never reads as healthy;
//! - [`judge`]: runs the live rules over a snapshot beside the files' cluster;
//! - [`plan`]: the reassignment that resolves what the live rules found.

#[cfg(feature = "live")]
pub mod client;
pub mod judge;
pub mod partial;
pub mod plan;
pub mod snapshot;

#[cfg(feature = "live")]
pub use client::{
    CONNECTIONS_AT_ONCE, ClientConfig, Error, Target, decode_reply, gather, parse_bootstrap,
};
