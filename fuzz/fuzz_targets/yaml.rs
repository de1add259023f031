//! Bytes → compose files and Strimzi resources (see `invariants::yaml_input`) → diagnostics
//! rendered in every format, then `--fix` and `--diff` in memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    if let Some((files, config, options)) = invariants::yaml_input(data) {
        invariants::pipeline_holds(files, config, &options);
    }
});
