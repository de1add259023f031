//! Bytes → `.properties` entries: the parser never panics, its spans are sound, the lenient
//! parse agrees with the strict one, and the display text maps every span.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    invariants::parse_holds(data);
    invariants::source_holds(data);
});
