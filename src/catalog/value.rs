//! How Kafka reads a value: ConfigDef's `parseType` and validators, mirrored exactly, so that
//! "Kafka will refuse to start" is said when, and only when, Kafka would.

pub use super::parsed::{Parsed, Refusal, java_trim};
use super::spec::{ConfigType, KeySpec, Validator};

fn refuse(reason: impl Into<String>) -> Refusal {
    Refusal {
        reason: reason.into(),
    }
}

/// Java regex `\s`: the separators of `\s*,\s*`.
fn is_java_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// ConfigDef's LIST parsing: empty after trimming is the empty list; otherwise split on
/// `\s*,\s*` keeping empty elements (`a,,b` has three).
pub fn split_list(raw: &str) -> Vec<String> {
    let trimmed = java_trim(raw);
    if trimmed.is_empty() {
        return Vec::new();
    }
    // At the commas by bytes (a comma is one byte in UTF-8): the lists are short, most of one
    // element, and `str::split`'s searcher cost more than the rest of the parse.
    let mut parts = Vec::new();
    let mut start = 0;
    for (at, byte) in trimmed.bytes().enumerate() {
        if byte == b',' {
            parts.push(trimmed[start..at].trim_matches(is_java_space).to_owned());
            start = at + 1;
        }
    }
    parts.push(trimmed[start..].trim_matches(is_java_space).to_owned());
    parts
}

/// ConfigDef's `parseType` for a value read from a file.
pub fn parse(config_type: ConfigType, raw: &str) -> Result<Parsed, Refusal> {
    let trimmed = java_trim(raw);
    let not_a_number = || {
        refuse(format!(
            "`{}` is not a number of type {}",
            trimmed,
            config_type.kafka_name()
        ))
    };
    Ok(match config_type {
        ConfigType::Boolean => {
            if trimmed.eq_ignore_ascii_case("true") {
                Parsed::Boolean(true)
            } else if trimmed.eq_ignore_ascii_case("false") {
                Parsed::Boolean(false)
            } else {
                return Err(refuse("must be `true` or `false`"));
            }
        }
        ConfigType::Int => Parsed::Integer(
            parse_java_integer(trimmed, i32::MIN.into(), i32::MAX.into())
                .ok_or_else(not_a_number)?,
        ),
        ConfigType::Short => Parsed::Integer(
            parse_java_integer(trimmed, i16::MIN.into(), i16::MAX.into())
                .ok_or_else(not_a_number)?,
        ),
        ConfigType::Long => Parsed::Integer(
            parse_java_integer(trimmed, i64::MIN, i64::MAX).ok_or_else(not_a_number)?,
        ),
        ConfigType::Double => Parsed::Double(parse_java_double(trimmed).ok_or_else(not_a_number)?),
        ConfigType::String | ConfigType::Password => Parsed::Text(trimmed.to_owned()),
        // Kafka loads the class at once. Whether a well-formed name is on the broker's
        // classpath is beyond a static check; a name no class can have is not.
        ConfigType::Class => {
            if !is_class_name(trimmed) {
                return Err(refuse(if trimmed.is_empty() {
                    "is empty: no class has an empty name".to_string()
                } else {
                    format!("`{trimmed}` cannot be the name of a Java class")
                }));
            }
            Parsed::Text(trimmed.to_owned())
        }
        ConfigType::List => Parsed::List(split_list(trimmed)),
    })
}

/// Whether a class could have this binary name: non-empty dot-separated parts without spaces
/// or control characters. (The JVM allows more than javac does, so nothing stricter.)
fn is_class_name(name: &str) -> bool {
    // Every part non-empty: no dot first, last or twice in a row.
    !name.is_empty()
        && !name.starts_with('.')
        && !name.ends_with('.')
        && !name.contains("..")
        && !name.chars().any(|c| c.is_whitespace() || c.is_control())
}

/// Parses `raw` as `spec` says and runs its validator: `Err` when Kafka refuses to start.
pub fn check(key: &str, spec: &KeySpec, raw: &str) -> Result<Parsed, Refusal> {
    let parsed = parse(spec.config_type, raw)?;
    validate(key, spec, &parsed)?;
    Ok(parsed)
}

fn validate(key: &str, spec: &KeySpec, parsed: &Parsed) -> Result<(), Refusal> {
    match (spec.validator, parsed) {
        (Validator::None | Validator::NonNull, _) => Ok(()),
        (Validator::Range { min, max }, value) => {
            let number = match value {
                Parsed::Integer(n) => *n as f64,
                Parsed::Double(n) => *n,
                _ => return Ok(()),
            };
            // Kafka compares as doubles; NaN passes both comparisons, as in Java.
            if let Some(min) = min.filter(|min| number < min.value) {
                return Err(refuse(format!("must be at least {}", min.text)));
            }
            if let Some(max) = max.filter(|max| number > max.value) {
                return Err(refuse(format!("must be at most {}", max.text)));
            }
            Ok(())
        }
        (Validator::ValidString(valid), Parsed::Text(text)) => one_of(text, valid, false),
        (Validator::CaseInsensitiveValidString(valid), Parsed::Text(text)) => {
            one_of(&text.to_uppercase(), valid, true)
        }
        (Validator::ValidList(valid), Parsed::List(items)) => {
            items.iter().try_for_each(|item| one_of(item, valid, false))
        }
        (
            Validator::StrictList {
                valid,
                empty_allowed,
            },
            Parsed::List(items),
        ) => {
            // Kafka 4.2+ drops duplicates (with a warning) before validating.
            if items.is_empty() && !empty_allowed {
                return Err(refuse("must not be an empty list"));
            }
            for item in items {
                if item.is_empty() {
                    return Err(refuse(
                        "has an empty list element (a stray or doubled comma)",
                    ));
                }
                if !valid.is_empty() {
                    one_of(item, valid, false)?;
                }
            }
            Ok(())
        }
        (Validator::NonEmptyString, Parsed::Text(text)) if text.is_empty() => {
            Err(refuse("must not be empty"))
        }
        (Validator::NonEmptyString, _) => Ok(()),
        (Validator::Custom { class, accepted }, value) => {
            super::custom::validate(key, class, accepted, value)
        }
        // A validator of another type's value cannot occur in Kafka's ConfigDef.
        _ => Ok(()),
    }
}

fn one_of(text: &str, valid: &[&str], case_insensitive: bool) -> Result<(), Refusal> {
    if valid.contains(&text) {
        return Ok(());
    }
    let choices = valid
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Err(refuse(if valid.is_empty() {
        format!("`{text}` is not accepted")
    } else if case_insensitive {
        format!("`{text}` is not one of {choices} (in any case)")
    } else {
        format!("`{text}` is not one of {choices} (case matters)")
    }))
}

/// Java's `Integer.parseInt` / `Short.parseShort` / `Long.parseLong`: an optional sign, then one
/// or more decimal digits of any script (`Character.digit(c, 10)`: `\u0665` is 5), within
/// `min..=max`.
pub fn parse_java_integer(text: &str, min: i64, max: i64) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        return None;
    }
    // Accumulated negatively, as Java does, so that the minimum fits.
    let mut value: i64 = 0;
    for c in digits.chars() {
        let digit = i64::from(java_decimal_digit(c)?);
        value = value.checked_mul(10)?.checked_sub(digit)?;
    }
    let value = if negative {
        value
    } else {
        value.checked_neg()?
    };
    (min..=max).contains(&value).then_some(value)
}

/// `Character.digit(c, 10)`: the zero of every run of ten Unicode decimal digits (general
/// category Nd), as Java 17 lists them (printed by a loop over `Character.digit(c, 10) == 0`).
const DECIMAL_ZEROS: &[u32] = &[
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0,
    0x11650, 0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

fn java_decimal_digit(c: char) -> Option<u32> {
    let code = u32::from(c);
    let index = DECIMAL_ZEROS
        .partition_point(|zero| *zero <= code)
        .checked_sub(1)?;
    let digit = code - DECIMAL_ZEROS[index];
    (digit < 10).then_some(digit)
}

/// Java's `Double.parseDouble` grammar (already trimmed): an optional sign, then `NaN`,
/// `Infinity`, a decimal with optional exponent, or a hexadecimal float with a binary
/// exponent; either number form may end in `f`, `F`, `d` or `D`.
pub fn parse_java_double(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let sign = if negative { -1.0 } else { 1.0 };
    match body {
        "NaN" => return Some(f64::NAN),
        "Infinity" => return Some(sign * f64::INFINITY),
        _ => {}
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        return parse_hex_float(hex).map(|v| sign * v);
    }
    let bytes = body.as_bytes();
    let mut index = 0;
    let digits = |index: &mut usize| {
        let start = *index;
        while *index < bytes.len() && bytes[*index].is_ascii_digit() {
            *index += 1;
        }
        *index - start
    };
    let mut mantissa_digits = digits(&mut index);
    if index < bytes.len() && bytes[index] == b'.' {
        index += 1;
        mantissa_digits += digits(&mut index);
    }
    if mantissa_digits == 0 {
        return None;
    }
    if index < bytes.len() && (bytes[index] == b'e' || bytes[index] == b'E') {
        index += 1;
        if index < bytes.len() && (bytes[index] == b'+' || bytes[index] == b'-') {
            index += 1;
        }
        if digits(&mut index) == 0 {
            return None;
        }
    }
    if index != bytes.len() {
        return None;
    }
    body.parse::<f64>().ok().map(|v| sign * v)
}

/// `1.8p1` after `0x`: hex digits with an optional point, then a mandatory `p` exponent.
fn parse_hex_float(text: &str) -> Option<f64> {
    let (mantissa, exponent) = text.split_once(['p', 'P'])?;
    let exponent: i32 = match exponent.strip_prefix('+') {
        Some(rest) if !rest.starts_with(['+', '-']) => rest.parse().ok()?,
        _ => exponent.parse().ok()?,
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in whole.chars() {
        value = value * 16.0 + f64::from(c.to_digit(16)?);
    }
    let mut scale = 1.0 / 16.0;
    for c in fraction.chars() {
        value += f64::from(c.to_digit(16)?) * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exponent))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trimming_is_javas() {
        assert_eq!(java_trim("\u{1} 5\t\u{0}"), "5");
        // U+00A0 is above U+0020: Java keeps it.
        assert_eq!(java_trim("\u{a0}5"), "\u{a0}5");
    }

    #[test]
    fn lists_split_like_configdef() {
        assert_eq!(split_list("  "), Vec::<String>::new());
        assert_eq!(split_list("a , b"), ["a", "b"]);
        assert_eq!(split_list("a,,b"), ["a", "", "b"]);
        assert_eq!(split_list("a,"), ["a", ""]);
        assert_eq!(split_list(",a"), ["", "a"]);
        assert_eq!(split_list("a b, c"), ["a b", "c"]);
        assert_eq!(split_list("é,ü , x"), ["é", "ü", "x"]);
        assert_eq!(split_list(","), ["", ""]);
    }

    #[test]
    fn class_names_are_dot_separated_non_empty_parts() {
        // The definition, part by part, against every name of up to four of these pieces.
        let by_parts = |name: &str| {
            name.split('.').all(|part| {
                !part.is_empty() && !part.chars().any(|c| c.is_whitespace() || c.is_control())
            })
        };
        let pieces = ["", "a", ".", "b1", " ", "\u{1}", "é", "$"];
        for name in &crate::testing::strings_of(&pieces, 4, usize::MAX) {
            assert_eq!(is_class_name(name), by_parts(name), "{name:?}");
        }
    }

    #[test]
    fn numbers_follow_java() {
        use ConfigType::*;
        assert_eq!(parse(Int, " +5 "), Ok(Parsed::Integer(5)));
        assert!(parse(Int, "2147483648").is_err());
        assert!(parse(Int, "0x10").is_err());
        assert!(parse(Int, "1_000").is_err());
        assert!(parse(Int, "").is_err());
        assert!(parse(Short, "32768").is_err());
        assert_eq!(parse(Short, "-32768"), Ok(Parsed::Integer(-32768)));
        assert!(parse(Long, "9223372036854775808").is_err());
        assert_eq!(parse(Boolean, " TRUE "), Ok(Parsed::Boolean(true)));
        assert!(parse(Boolean, "yes").is_err());
        // Java reads decimal digits of every script.
        assert_eq!(parse(Int, "\u{665}\u{ff11}"), Ok(Parsed::Integer(51)));
        assert_eq!(parse(Int, "-2147483648"), Ok(Parsed::Integer(-2147483648)));
        assert!(parse(Int, "+-1").is_err());
        assert!(parse(Int, "-").is_err());
        assert!(
            parse(Int, "\u{b2}").is_err(),
            "a superscript is not a decimal digit"
        );
    }

    #[test]
    fn class_names_must_be_possible() {
        use ConfigType::Class;
        assert!(parse(Class, " org.example.My$Inner ").is_ok());
        for bad in ["", "  ", "org..Example", "org.Exa mple", "org.Example."] {
            assert!(parse(Class, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn doubles_follow_java() {
        for ok in [
            "1",
            "1.",
            ".5",
            "1e3",
            "1E-3",
            "+1.5f",
            "-2D",
            "NaN",
            "-Infinity",
            "0x1.8p1",
        ] {
            assert!(parse_java_double(ok).is_some(), "{ok}");
        }
        for bad in [
            "", ".", "e3", "1e", "inf", "nan", "infinity", "1.5x", "0x1.8", "1,5", "--1",
        ] {
            assert!(parse_java_double(bad).is_none(), "{bad}");
        }
        assert_eq!(parse_java_double("0x1.8p1"), Some(3.0));
    }
}
