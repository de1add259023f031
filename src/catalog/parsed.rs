//! What reading a value gives: the value as ConfigDef parsed it, or why Kafka refuses it.
//! Apart from `value` so that the validators Kafka writes as code (`custom`) share them.

/// A value as ConfigDef parsed it.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Boolean(bool),
    /// INT, SHORT and LONG.
    Integer(i64),
    Double(f64),
    /// STRING, PASSWORD and CLASS: trimmed.
    Text(String),
    List(Vec<String>),
}

impl Parsed {
    pub fn as_integer(&self) -> Option<i64> {
        match self {
            Parsed::Integer(n) => Some(*n),
            _ => None,
        }
    }
}

/// Why Kafka refuses a value, in our words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
}

/// Java's `String.trim()`: strips every char up to U+0020 from both ends (control characters
/// included), not Unicode whitespace.
pub fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= '\u{20}')
}
