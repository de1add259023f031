//! Bytes → an Ansible role's `server.properties.j2` (the Jinja subset of
//! `kafkalint::sources::ansible::role`): the reader never panics, however its tags nest, and
//! says what it passed over in one line each; then the whole check holds what `check` holds
//! (see `invariants::pipeline_holds`) on the template.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/invariants/mod.rs"]
mod invariants;

const PATH: &str = "ansible/roles/kafka/templates/server.properties.j2";

fuzz_target!(|data: &[u8]| {
    let Some(([version, brokers], template)) = data.split_first_chunk::<2>() else {
        return;
    };
    let text = String::from_utf8_lossy(template);
    let mut notes = Vec::new();
    kafkalint::sources::ansible::role::read(PATH, &text, &mut notes, &mut Vec::new());
    for note in &notes {
        assert!(!note.contains('\n'), "{note:?}");
    }
    let options = invariants::options_for(*version, *brokers);
    invariants::pipeline_holds(vec![(PATH.to_string(), template.to_vec())], None, &options);
});
