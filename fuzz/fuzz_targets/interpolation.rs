//! Bytes → Compose's interpolation and `.env` reading (`kafkalint::sources::compose::dotenv`): an env
//! file, then (after byte 0x1E) a template interpolated with the variables it set. Neither
//! panics nor overflows the stack however deep its defaults nest; what they give is Compose's
//! where that can be told without Compose (text without `$` is itself, `$$` is `$`), a value
//! past the depth bound is unknown, and an error names a line of the file.
#![no_main]

use kafkalint::sources::compose::dotenv::{self, Vars};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (env_file, template) = text.split_once('\u{1e}').unwrap_or((&text, ""));
    let mut vars = Vars::new();
    let lines = env_file.split('\n').count();
    match dotenv::parse(env_file, &mut vars, &|name| {
        (name == "FROM_SHELL").then(|| Some("shell".to_string()))
    }) {
        Ok(assignments) => {
            for assignment in &assignments {
                assert!(assignment.line >= 1 && assignment.line <= lines, "{assignment:?}");
                assert!(vars.contains_key(&assignment.name), "{assignment:?}");
            }
        }
        Err(error) => assert!(error.line >= 1 && error.line <= lines + 1, "{error}"),
    }
    let lookup = |name: &str| vars.get(name).cloned();
    if let Ok(interpolated) = dotenv::interpolate(template, &lookup) {
        if interpolated.too_deep {
            assert_eq!(interpolated.value, None);
        }
        if !template.contains('$') {
            assert_eq!(interpolated.value.as_deref(), Some(template));
        }
    }
    // Every `$` doubled: the text itself, whatever it holds.
    let escaped = template.replace('$', "$$");
    assert_eq!(
        dotenv::interpolate(&escaped, &lookup).map(|i| i.value),
        Ok(Some(template.to_string()))
    );
    // The line named for deep nesting is a line of the text.
    if let Some(line) = dotenv::first_line_nested_too_deep(template) {
        assert!(line <= template.split('\n').count());
    }
});
