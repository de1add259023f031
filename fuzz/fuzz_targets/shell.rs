//! Bytes → a container's start-up script read as `sh -c` runs it (`kafkalint::sources::kubernetes::shell`):
//! it never panics nor overflows the stack however deep its arithmetic or defaults nest; the
//! variables it exports have shell names; an integer assigned plainly is exported as written.
#![no_main]

use kafkalint::sources::kubernetes::shell;
use libfuzzer_sys::fuzz_target;

fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fuzz_target!(|data: &[u8]| {
    let script = String::from_utf8_lossy(data);
    let environment = |name: &str| match name {
        "HOSTNAME" => Some(Some("kafka-2".to_string())),
        "UNKNOWN" => Some(None),
        _ => None,
    };
    let outcome = shell::run(&script, &environment);
    for (name, _) in &outcome.exports {
        assert!(is_name(name), "{name:?}");
    }
    // The script, then a plain export: followed scripts end with it set as written.
    let followed = format!("{script}\nexport FUZZ_LAST=42\n");
    let outcome = shell::run(&followed, &environment);
    // Plain words only: a trailing `|`, `&&`, quote or continuation joins the export to the
    // script's last command.
    let plain = script
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '\n' | '=' | '_' | '-' | '.' | '/' | ';'));
    if outcome.followed && plain {
        assert!(
            outcome
                .exports
                .iter()
                .any(|(name, value)| name == "FUZZ_LAST" && value.as_deref() == Some("42")),
            "{:?}",
            outcome.exports
        );
    }
});
