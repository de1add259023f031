//! Bytes → the files of a cluster (see `invariants::pipeline_input`) → diagnostics rendered in
//! every format, then `--fix` and `--diff` in memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    if let Some((files, config, options)) = invariants::pipeline_input(data) {
        invariants::pipeline_holds(files, config, &options);
    }
});
