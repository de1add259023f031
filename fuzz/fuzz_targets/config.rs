//! Bytes → `kafkalint.toml`: parsing never panics, and a config that parses answers every
//! question the check asks of it.
#![no_main]

use libfuzzer_sys::fuzz_target;

use kafkalint::config::Config;
use kafkalint::diagnostic::Severity;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Config::parse("kafkalint.toml", ".".into(), text, kafkalint::rules::NAMES) {
        Ok(config) => {
            for rule in kafkalint::rules::RULES {
                config.runs(rule.name);
                config.severity(rule.name, Severity::Warning);
                for path in ["server.properties", "a/b/broker-1.properties", "../x.properties"] {
                    config.ignores_in(rule.name, std::path::Path::new(path));
                }
            }
            let _ = config.cluster_files(&["cluster/server-0.properties".into()]);
        }
        Err(error) => {
            assert!(error.line >= 1 && error.column >= 1, "{error}");
            assert!(
                error.line <= text.lines().count().max(1) + 1,
                "{error}: past the end of the file"
            );
        }
    }
});
