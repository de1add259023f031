//! Bytes → a Terraform file (`kafkalint::sources::terraform`, HCL through hcl-edit): the reader
//! never panics nor overflows the stack, however its expressions and blocks nest, and refuses
//! in one line; then the whole check holds what `check` holds (see
//! `invariants::pipeline_holds`) on the file.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

const PATH: &str = "terraform/kafka.tf";

fuzz_target!(|data: &[u8]| {
    let Some(([version, brokers], file)) = data.split_first_chunk::<2>() else {
        return;
    };
    let text = String::from_utf8_lossy(file);
    let mut notes = Vec::new();
    if let Err(why) = kafkalint::sources::terraform::read(PATH, &text, &mut notes) {
        assert!(!why.contains('\n'), "{why:?}");
    }
    for note in &notes {
        assert!(!note.contains('\n'), "{note:?}");
    }
    let options = invariants::options_for(*version, *brokers);
    invariants::pipeline_holds(vec![(PATH.to_string(), file.to_vec())], None, &options);
});
