//! Unit tests of the JSON reader.

use super::*;
use crate::print::to_json;

fn round_trip(text: &str) -> String {
    let value = parse(text.as_bytes(), TextMode::LossyUtf8).expect(text);
    String::from_utf8(to_json(&value)).unwrap()
}

#[test]
fn numbers_are_doubles() {
    assert_eq!(round_trip("12345678901234567890"), "12345678901234567000");
    assert_eq!(round_trip("1e400"), "null");
    assert_eq!(round_trip("-1e400"), "null");
    assert_eq!(round_trip("1e-400"), "0");
    assert_eq!(round_trip("-0"), "0");
    assert_eq!(round_trip("1.0"), "1");
    assert_eq!(round_trip("1E2"), "100");
    assert_eq!(round_trip("0.1e1"), "1");
    assert_eq!(
        round_trip("[1e21,1.5e-7,0.000001]"),
        "[1e+21,1.5e-7,0.000001]"
    );
    let value = parse(b"-0", TextMode::LossyUtf8).unwrap();
    assert!(matches!(value, Value::Number(n) if n == 0.0 && n.is_sign_negative()));
}

#[test]
fn invalid_numbers_are_refused() {
    for text in [
        "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "Infinity", "NaN", "1.e3", "--1",
    ] {
        assert!(
            parse(text.as_bytes(), TextMode::LossyUtf8).is_err(),
            "{text}"
        );
    }
}

#[test]
fn duplicate_keys_keep_first_position_and_last_value() {
    assert_eq!(round_trip(r#"{"a":1,"b":2,"a":3}"#), r#"{"a":3,"b":2}"#);
    assert_eq!(
        round_trip(r#"{"__proto__":1,"x":{}}"#),
        r#"{"__proto__":1,"x":{}}"#
    );
    assert_eq!(
        round_trip(r#"{"b":1,"1":2,"0":3}"#),
        r#"{"0":3,"1":2,"b":1}"#
    );
}

#[test]
fn escapes_and_surrogates() {
    assert_eq!(round_trip(r#""\ud800""#), r#""\ud800""#);
    assert_eq!(round_trip(r#""\uD83D\uDE00""#), "\"😀\"");
    assert_eq!(round_trip(r#""\ude00\ud83d""#), r#""\ude00\ud83d""#);
    assert_eq!(
        round_trip(r#""\/\b\f\n\r\t\"\\\u0041\u2028""#),
        "\"/\\b\\f\\n\\r\\t\\\"\\\\A\u{2028}\""
    );
    for text in [
        r#""\x""#,
        r#""\u12""#,
        r#""\u12g4""#,
        "\"a\nb\"",
        "\"\t\"",
        "\"abc",
    ] {
        assert!(
            parse(text.as_bytes(), TextMode::LossyUtf8).is_err(),
            "{text:?}"
        );
    }
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let cases: [(&[u8], &str); 6] = [
        (b"\"a\xffb\"", "a\u{FFFD}b"),
        (b"\"\xed\xa0\x80\"", "\u{FFFD}\u{FFFD}\u{FFFD}"),
        (b"\"\xe2\x82\"", "\u{FFFD}"),
        (b"\"\xe2\x82A\"", "\u{FFFD}A"),
        (b"\"\xf0\x9f\x98\x80\xc0\"", "😀\u{FFFD}"),
        (b"\"\xc3\"", "\u{FFFD}"),
    ];
    for (input, expected) in cases {
        let value = parse(input, TextMode::LossyUtf8).unwrap();
        assert_eq!(value, Value::from(expected), "{input:?}");
    }
    assert!(
        parse(b"\xef\xbb\xbf[]", TextMode::LossyUtf8).is_err(),
        "a BOM is not white space"
    );
    assert!(parse(b"[\xff]", TextMode::LossyUtf8).is_err());
}

#[test]
fn wtf8_text_keeps_and_joins_lone_surrogates() {
    // A JavaScript string whose text holds a raw lone high surrogate,
    // then the escape of a low one: JSON.parse joins them.
    let mut text = JsString::from("\"");
    text.push_code_unit(0xD83D);
    text.push_str("\\uDE00\"");
    assert_eq!(parse_js_string(&text).unwrap(), Value::from("😀"));
    let mut lone = JsString::from("[\"");
    lone.push_code_unit(0xDC00);
    lone.push_str("\"]");
    let value = parse_js_string(&lone).unwrap();
    assert_eq!(String::from_utf8(to_json(&value)).unwrap(), r#"["\udc00"]"#);
    // Outside a string a lone surrogate is not JSON.
    let mut outside = JsString::new();
    outside.push_code_unit(0xD800);
    assert!(parse_js_string(&outside).is_err());
}

#[test]
fn structure_errors() {
    for text in [
        "",
        " ",
        "[",
        "[1,]",
        "[1 2]",
        "{\"a\"}",
        "{\"a\":}",
        "{,}",
        "{\"a\":1,}",
        "[1]x",
        "tru",
        "nul",
        "{1:2}",
        "[]]",
    ] {
        assert!(
            parse(text.as_bytes(), TextMode::LossyUtf8).is_err(),
            "{text:?}"
        );
    }
    assert_eq!(round_trip(" \t\n\r[ { } , [ ] , \"\" ] "), "[{},[],\"\"]");
}

#[test]
fn depth_is_limited_without_recursion() {
    let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    assert!(parse(deep(DEFAULT_MAX_DEPTH).as_bytes(), TextMode::LossyUtf8).is_ok());
    let error = parse(deep(DEFAULT_MAX_DEPTH + 1).as_bytes(), TextMode::LossyUtf8).unwrap_err();
    assert_eq!(error.kind, ParseErrorKind::TooDeep(DEFAULT_MAX_DEPTH));
    let mut reader = JsonReader::from_slice(b"[[[]]]", TextMode::LossyUtf8).with_max_depth(2);
    assert!(reader.parse_value(0).is_err());
}

#[test]
fn text_an_op_parses_may_nest_to_any_depth() {
    let deep = |levels: usize, inner: &str| {
        JsString::from(format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels)).as_str())
    };
    // A million levels parse, and the value and every partial value
    // of a refusal drop, on a test thread's ordinary stack.
    let value = parse_js_string(&deep(1_000_000, "")).unwrap();
    let mut levels = 0;
    let mut at = &value;
    while let Some([inner]) = at.as_array() {
        levels += 1;
        at = inner;
    }
    assert_eq!(
        (levels, at.as_array().map(<[Value]>::len)),
        (999_999, Some(0))
    );
    drop(value);
    let error = parse_js_string(&deep(1_000_000, "x")).unwrap_err();
    assert_eq!(error.kind, ParseErrorKind::UnexpectedByte(b'x'));
    assert_eq!(error.offset, 1_000_000);
    let mut trailing = deep(1_000_000, "");
    trailing.push_str(" 1");
    let error = parse_js_string(&trailing).unwrap_err();
    assert_eq!(error.kind, ParseErrorKind::UnexpectedByte(b'1'));
    let mut sibling = JsString::from("[");
    sibling.push_str(deep(500_000, "").to_utf8_lossy().as_ref());
    sibling.push_str(",");
    let error = parse_js_string(&sibling).unwrap_err();
    assert_eq!(error.kind, ParseErrorKind::UnexpectedEnd);
}

#[test]
fn text_an_op_parses_keeps_no_room_to_grow() {
    // A million single-member containers cost a million spare slots
    // each unless trimmed: op text is trimmed, the batch's is not.
    let capacities = |reader: &mut JsonReader<io::Empty>| {
        let value = reader.parse_value(0).unwrap();
        let Value::Array(outer) = &value else {
            panic!("an array")
        };
        let Value::Object(inner) = &outer[0] else {
            panic!("an object")
        };
        (outer.capacity(), inner.capacity())
    };
    let text = br#"[{"a":1}]"#;
    let mut trimmed = JsonReader::from_slice(text, TextMode::Wtf8).without_depth_limit();
    assert_eq!(capacities(&mut trimmed), (1, 1));
    let mut batch = JsonReader::from_slice(text, TextMode::LossyUtf8);
    assert!(capacities(&mut batch).0 > 1);
}

/// A source that hands out one byte per read, to cut every sequence.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.0.split_first() {
            Some((&byte, rest)) if !buf.is_empty() => {
                buf[0] = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn streamed_op_text_keeps_characters_whole_across_reads() {
    // Every kind of character, and an escaped high surrogate before a
    // literal lone low one (the two join), cut by every read.
    let mut text = JsString::from("{\"k\u{e9}\":\"a\u{1F600}\u{e9}\u{2028}\\ud83d");
    text.push_code_unit(0xDE00);
    text.push_code_unit(0xDC00);
    text.push_str("z\\u00e9\"}");
    let whole = parse_js_string(&text).unwrap();
    let mut expected_value = JsString::from("a\u{1F600}\u{e9}\u{2028}\u{1F600}");
    expected_value.push_code_unit(0xDC00);
    expected_value.push_str("z\u{e9}");
    let expected = Value::Object(Object::new().with("k\u{e9}", expected_value));
    assert_eq!(whole, expected);
    let mut reader = JsonReader::new(Trickle(text.as_wtf8()), TextMode::Wtf8);
    assert_eq!(reader.parse_value(0).unwrap(), expected);
    reader.expect_end().unwrap();
    // A text larger than one read chunk is streamed, not copied: the
    // characters at the chunk's end come out whole.
    for pad in READ_CHUNK - 8..READ_CHUNK + 2 {
        let mut large = JsString::from(format!("[\"{}", "x".repeat(pad)).as_str());
        large.push_str("\u{1F600}\u{e9}\u{2028}\\ud83d");
        large.push_code_unit(0xDE00);
        large.push_str("\"]");
        let items = parse_js_string(&large).unwrap().into_array().unwrap();
        let parsed = items[0].as_js_string().unwrap();
        assert!(
            parsed.ends_with("x\u{1F600}\u{e9}\u{2028}\u{1F600}"),
            "{pad}"
        );
        assert_eq!(parsed.len_utf16(), pad + 6);
    }
}

#[test]
fn streamed_input_decodes_like_whole_input() {
    let inputs: [&[u8]; 5] = [
        b"[\"\xf0\x9f\x98\x80\xe2\x82\xac\xc3\xa9\",1]",
        b"[\"\xe2\x82\"]",
        b"[\"a\xed\xa0\x80\xff\"]",
        b"[\"\xf0\x9f\x98\"]",
        b"{\"k\xc3\":\"\\ud83d\\ude00\"}",
    ];
    for input in inputs {
        let whole = parse(input, TextMode::LossyUtf8).unwrap();
        let mut reader = JsonReader::new(Trickle(input), TextMode::LossyUtf8);
        let streamed = reader.parse_value(0).unwrap();
        reader.expect_end().unwrap();
        assert_eq!(whole, streamed, "{input:?}");
        let lossy = String::from_utf8_lossy(input).into_owned();
        assert_eq!(
            round_trip(&lossy),
            String::from_utf8(to_json(&whole)).unwrap()
        );
    }
}
