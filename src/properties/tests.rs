use super::*;

fn pairs(text: &[u8]) -> Vec<(String, String)> {
    parse(text)
        .expect("parses")
        .entries
        .into_iter()
        .map(|e| (e.key, e.value))
        .collect()
}

fn pair(key: &str, value: &str) -> (String, String) {
    (key.to_string(), value.to_string())
}

#[test]
fn separators_equals_colon_and_whitespace() {
    assert_eq!(
        pairs(b"a=1\nb:2\nc 3\nd\t4\ne = 5\nf : 6\ng  =  7\nh\x0c8\n"),
        vec![
            pair("a", "1"),
            pair("b", "2"),
            pair("c", "3"),
            pair("d", "4"),
            pair("e", "5"),
            pair("f", "6"),
            pair("g", "7"),
            pair("h", "8")
        ]
    );
}

#[test]
fn only_the_first_separator_counts() {
    assert_eq!(
        pairs(b"a==b\nc =:d\ne: =f\n"),
        vec![pair("a", "=b"), pair("c", ":d"), pair("e", "=f")]
    );
}

#[test]
fn key_without_value() {
    assert_eq!(
        pairs(b"cheeses\nempty=\nspace \n"),
        vec![pair("cheeses", ""), pair("empty", ""), pair("space", "")]
    );
}

#[test]
fn comments_need_to_start_the_line() {
    assert_eq!(
        pairs(b"# comment\n! also\n   # indented\nk=v # not a comment\n"),
        vec![pair("k", "v # not a comment")]
    );
}

#[test]
fn trailing_whitespace_of_a_value_is_kept() {
    assert_eq!(pairs(b"k = v  \t\n"), vec![pair("k", "v  \t")]);
}

#[test]
fn continuation_drops_the_next_lines_leading_whitespace() {
    assert_eq!(
        pairs(b"k = a,\\\n    b,\\\n\tc\n"),
        vec![pair("k", "a,b,c")]
    );
}

#[test]
fn an_even_number_of_backslashes_does_not_continue() {
    assert_eq!(
        pairs(b"k=a\\\\\nnext=1\n"),
        vec![pair("k", "a\\"), pair("next", "1")]
    );
    assert_eq!(pairs(b"k=a\\\\\\\n b\n"), vec![pair("k", "a\\b")]);
}

#[test]
fn a_hash_after_a_continued_line_is_data() {
    assert_eq!(pairs(b"k=a\\\n# b\n"), vec![pair("k", "a# b")]);
}

#[test]
fn a_blank_line_ends_a_continuation() {
    assert_eq!(
        pairs(b"k=a\\\n\nb=1\n"),
        vec![pair("k", "a"), pair("b", "1")]
    );
    assert_eq!(
        pairs(b"k=a\\\n   \nb=1\n"),
        vec![pair("k", "a"), pair("b", "1")]
    );
}

#[test]
fn a_lone_backslash_line_then_a_comment() {
    // The continued line took no characters, so the next line still starts a logical line.
    assert_eq!(pairs(b"\\\n# c\nk=v\n"), vec![pair("k", "v")]);
}

#[test]
fn trailing_backslash_at_end_of_file() {
    assert_eq!(pairs(b"k=v\\"), vec![pair("k", "v")]);
    assert_eq!(pairs(b"k=v\\\n"), vec![pair("k", "v")]);
    // LineReader returns the (empty) line when the continued line's terminator is the last byte.
    assert_eq!(pairs(b"\\"), vec![pair("", "")]);
    assert_eq!(pairs(b"\\\n"), vec![pair("", "")]);
    assert_eq!(pairs(b"\\\r"), vec![pair("", "")]);
    assert_eq!(pairs(b"\\\r\n"), vec![]);
    assert_eq!(pairs(b"\\\n  "), vec![]);
}

#[test]
fn escapes() {
    assert_eq!(
        pairs(b"k=\\t\\n\\r\\f\\b\\q\\\\\\=\\:\\ \\#\n"),
        vec![pair("k", "\t\n\r\x0cbq\\=: #")]
    );
    assert_eq!(
        pairs(b"k=\\u0041\\u00e9\\u20AC\n"),
        vec![pair("k", "A\u{e9}\u{20ac}")]
    );
    assert_eq!(pairs(b"k=\\uD83D\\uDE00\n"), vec![pair("k", "\u{1F600}")]);
}

#[test]
fn escaped_separators_in_keys() {
    assert_eq!(
        pairs(b"a\\=b=c\nd\\:e:f\ng\\ h i\n\\#x=1\n"),
        vec![
            pair("a=b", "c"),
            pair("d:e", "f"),
            pair("g h", "i"),
            pair("#x", "1")
        ]
    );
}

#[test]
fn malformed_unicode_escape_is_an_error_with_its_span() {
    let error = parse(b"good=1\nk=\\u12g4\n").unwrap_err();
    assert_eq!(error.error, EscapeError::MalformedUnicode);
    assert_eq!(error.span, 9..15);
    // The four digits must lie inside the value itself.
    assert!(parse(b"k=\\u12").is_err());
    // In a key, the escape cannot reach over the separator.
    assert!(parse(b"\\u00=4111\n").is_err());
}

#[test]
fn spans_of_a_continued_line_point_into_each_natural_line() {
    // `k=a\` then `   \uZZ`: the value's characters come from bytes 2 and 8 to 11.
    let error = parse(b"k=a\\\n   \\uZZ").unwrap_err();
    assert_eq!(error.error, EscapeError::MalformedUnicode);
    assert_eq!(error.span, 8..12);
    // A lone backslash line gives no character: the next line's start where it says.
    let file = parse(b"k=a\\\n\\\n  bc\n").unwrap();
    let entry = &file.entries[0];
    assert_eq!(entry.value, "abc");
    assert_eq!(entry.value_span, 2..11);
    let file = parse(b"k=\\\n  v").unwrap();
    assert_eq!(file.entries[0].value_span, 6..7);
}

#[test]
fn line_terminators_cr_lf_crlf() {
    assert_eq!(
        pairs(b"a=1\rb=2\r\nc=3\nd=4"),
        vec![
            pair("a", "1"),
            pair("b", "2"),
            pair("c", "3"),
            pair("d", "4")
        ]
    );
    assert_eq!(pairs(b"k=a\\\r\n  b\r\n"), vec![pair("k", "ab")]);
    assert_eq!(pairs(b"k=a\\\r  b\r"), vec![pair("k", "ab")]);
}

#[test]
fn bytes_are_latin1() {
    // UTF-8 "é" is two bytes; Kafka reads them as two Latin-1 characters.
    let file = parse("k=caf\u{e9}\n".as_bytes()).unwrap();
    assert_eq!(file.entries[0].value, "caf\u{c3}\u{a9}");
    assert!(file.entries[0].utf8_mismatch);
    let file = parse(b"k=caf\xe9\n").unwrap();
    assert_eq!(file.entries[0].value, "caf\u{e9}");
    assert!(!file.entries[0].utf8_mismatch);
}

#[test]
fn a_utf8_bom_becomes_part_of_the_first_key() {
    let file = parse(b"\xef\xbb\xbfbroker.id=0\n").unwrap();
    assert_eq!(file.entries[0].key, "\u{ef}\u{bb}\u{bf}broker.id");
}

#[test]
fn vertical_tab_and_nul_are_not_whitespace() {
    assert_eq!(
        pairs(b"\x0bk=v\n\x00=1\n"),
        vec![pair("\x0bk", "v"), pair("\0", "1")]
    );
}

#[test]
fn spans_point_at_the_written_bytes() {
    let text = b"# c\n  key.one = value one  \nk2=a,\\\n   b\nempty=\n";
    let file = parse(text).unwrap();
    let e = &file.entries[0];
    assert_eq!(&text[e.key_span.clone()], b"key.one");
    assert_eq!(&text[e.value_span.clone()], b"value one  ");
    let e = &file.entries[1];
    assert_eq!(&text[e.value_span.clone()], b"a,\\\n   b");
    let e = &file.entries[2];
    assert!(e.value_span.is_empty());
    assert_eq!(e.value_span.start, text.len() - 1);
    assert_eq!(file.comments[0].span, 0..3);
}

#[test]
fn duplicate_keys_are_kept_and_the_last_wins() {
    let file = parse(b"k=1\nother=x\nk=2\n").unwrap();
    assert_eq!(file.entries.len(), 3);
    assert_eq!(file.get("k").unwrap().value, "2");
    let effective: Vec<_> = file.effective_entries().map(|e| e.value.as_str()).collect();
    assert_eq!(effective, vec!["x", "2"]);
}

#[test]
fn lenient_parsing_reads_on_past_a_malformed_escape() {
    let (file, error) = parse_lenient(b"a=C:\\users\nssl.key.password=secret\n");
    assert!(error.is_some());
    assert_eq!(file.entries.len(), 2);
    assert_eq!(file.entries[1].value, "secret");
}

#[test]
fn lookups_agree_with_a_scan_of_the_entries() {
    // Keys repeated at several distances, names sharing their start and end, an empty key.
    let mut text = String::new();
    for i in 0..150 {
        let key = match i % 7 {
            0 => format!("listener.name.l{}.ssl.key.password", i % 11),
            1 => String::new(),
            _ => format!("k{}", i % 23),
        };
        text.push_str(&format!("{key}=v{i}\n"));
    }
    let file = parse(text.as_bytes()).unwrap();
    let scanned = |key: &str| file.entries.iter().rev().find(|entry| entry.key == key);
    for probe in file
        .entries
        .iter()
        .map(|entry| entry.key.as_str())
        .chain(["absent", "k"])
    {
        assert_eq!(file.get(probe), scanned(probe), "{probe}");
    }
    let effective: Vec<&Entry> = file.effective_entries().collect();
    let expected: Vec<&Entry> = file
        .entries
        .iter()
        .enumerate()
        .filter(|(at, entry)| {
            !file.entries[at + 1..]
                .iter()
                .any(|later| later.key == entry.key)
        })
        .map(|(_, entry)| entry)
        .collect();
    assert_eq!(effective, expected);
    assert_eq!(PropertiesFile::default().get("k"), None);
    assert_eq!(PropertiesFile::default().effective_entries().count(), 0);
}

#[test]
fn plain_lines_parse_as_the_general_path_parses_them() {
    // Every text of up to four pieces: separators, whitespace, comment marks, Latin-1 and
    // UTF-8 bytes, backslashes (which send a line down the general path) and every line end.
    let pieces: [&[u8]; 13] = [
        b"k",
        b"=",
        b":",
        b" ",
        b"\t",
        b"#",
        b"!",
        b"\xe9",
        b"\xc3\xa9",
        b"\\",
        b"\n",
        b"\r\n",
        b"\r",
    ];
    for text in &crate::testing::texts_of(&pieces, 4, usize::MAX) {
        let (plain, plain_error) = parse_lines(text, lines::Lines::PlainApart);
        let (joined, joined_error) = parse_lines(text, lines::Lines::AllJoined);
        assert_eq!(plain.entries, joined.entries, "{text:?}");
        assert_eq!(plain.comments, joined.comments, "{text:?}");
        assert_eq!(plain_error, joined_error, "{text:?}");
    }
}
