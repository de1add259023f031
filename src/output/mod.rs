//! Turning a report into bytes. Output never decides severity or filters findings.

mod full;
mod json;

pub use full::{FullStyle, full};
pub use json::json;
