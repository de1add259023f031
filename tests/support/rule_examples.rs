//! The examples of a rule's doc (`rules/<name>.md`): each `### Bad...` or `### Good...`
//! section with its files, as `tests/rule_docs.rs` checks them and `tests/message_length.rs`
//! measures their messages (`#[path = "support/rule_examples.rs"] mod rule_examples;`).

/// One `### Bad...` or `### Good...` section: its title and its files.
pub struct Example {
    /// The title and kind are read by `tests/rule_docs.rs`, which says which example fails.
    #[allow(dead_code)]
    pub title: String,
    #[allow(dead_code)]
    pub bad: bool,
    pub files: Vec<(String, String)>,
    /// `kafka=X.Y` on a block: the example is checked with `--kafka-version X.Y`. A
    /// ```` ```toml file=kafkalint.toml ```` block is the example's config file (strict mode).
    pub kafka_version: Option<String>,
}

impl Example {
    /// The example's files written to a folder of their own and checked as `kafkalint check`
    /// checks a folder, against its `kafka=` release when it names one.
    pub fn report(&self) -> kafkalint::Report {
        let dir = tempfile::tempdir().unwrap();
        for (name, body) in &self.files {
            std::fs::write(dir.path().join(name), body).unwrap();
        }
        let options = kafkalint::Options {
            kafka_version: self
                .kafka_version
                .as_deref()
                .map(|v| kafkalint::catalog::KafkaVersion::parse(v).unwrap()),
            ..kafkalint::Options::default()
        };
        crate::support::check_folder(dir.path(), &options).report
    }
}

pub fn examples(doc: &str) -> Vec<Example> {
    let mut examples: Vec<Example> = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(title) = line.strip_prefix("### ") {
            let bad = title.starts_with("Bad");
            assert!(
                bad || title.starts_with("Good"),
                "example titles start with Bad or Good: {title}"
            );
            examples.push(Example {
                title: title.to_string(),
                bad,
                files: Vec::new(),
                kafka_version: None,
            });
        } else if line.starts_with("## ") && !examples.is_empty() {
            break;
        } else if let Some(info) = line
            .strip_prefix("```properties")
            .or_else(|| line.strip_prefix("```toml"))
            .or_else(|| line.strip_prefix("```yaml"))
            .or_else(|| line.strip_prefix("```hcl"))
            // A live rule's example: `live.snapshot`, what a running cluster answered, and
            // `live.args`, the arguments of `kafkalint live`.
            .or_else(|| line.strip_prefix("```text"))
        {
            let mut words = info.split_whitespace();
            let name = words
                .next()
                .and_then(|word| word.strip_prefix("file="))
                .expect("a properties block names its file=")
                .to_string();
            let kafka_version = words
                .next()
                .map(|word| word.strip_prefix("kafka=").expect("kafka=X.Y").to_string());
            let mut body = String::new();
            for line in lines.by_ref() {
                if line.starts_with("```") {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            let example = examples.last_mut().expect("a block belongs to an example");
            example.files.push((name, body));
            if kafka_version.is_some() {
                example.kafka_version = kafka_version;
            }
        }
    }
    examples
}
