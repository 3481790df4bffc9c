use super::*;
use proptest::prelude::*;
use serde::de::IgnoredAny;

/// What the check says of a whole text: a value, and only white space
/// around it (as `serde_json::from_slice` reads one).
fn whole(bytes: &[u8]) -> bool {
    let start = space(bytes, 0);
    value_end(bytes, start).is_some_and(|end| space(bytes, end) == bytes.len())
}

fn serde_reads(bytes: &[u8]) -> bool {
    serde_json::from_slice::<IgnoredAny>(bytes).is_ok()
}

#[test]
fn values_end_where_they_end() {
    let ends: &[(&[u8], usize)] = &[
        (b"0", 1),
        (b"-0", 2),
        (b"-12.5e+3,", 8),
        (b"1E9]", 3),
        (b"01", 1),
        (b"true ", 4),
        (b"null}", 4),
        (b"false", 5),
        (br#""a\"b\\c\/\b\f\n\r\t\u00e9\uD800""#, 33),
        (b"\"\xff\xfe\"", 4),
        (br#"{"a":[1,{"b":{}},[]],"c":"}"}x"#, 29),
        (b"[ 1 , [ ] , { } ]", 17),
        (b"{ \"k\" : \"v\" }", 13),
        (b"[]", 2),
        (b"{}", 2),
    ];
    for &(bytes, end) in ends {
        assert_eq!(
            value_end(bytes, 0),
            Some(end),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn faults_and_cut_values_are_not_answered() {
    let refused: &[&[u8]] = &[
        b"",
        b"-",
        b"-a",
        b"1.",
        b"1.e5",
        b"1e",
        b"1e+",
        b".5",
        b"+1",
        b"tru",
        b"nul",
        b"True",
        b"\"abc",
        b"\"a\x01b\"",
        b"\"a\nb\"",
        br#""\x""#,
        br#""\u12g4""#,
        br#""\u12""#,
        b"\"\\",
        b"[1,]",
        b"[,1]",
        b"[1 2]",
        b"[1",
        b"{\"a\"}",
        b"{\"a\":}",
        b"{\"a\" 1}",
        b"{1:2}",
        b"{\"a\":1,}",
        b"{\"a\":1",
        b"[}",
        b"{]",
        b"[1}",
        b"{\"a\":1]",
        b"\xef\xbb\xbf1",
        b"'a'",
        b"NaN",
        b"Infinity",
    ];
    for &bytes in refused {
        assert_eq!(
            value_end(bytes, 0),
            None,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
        assert!(!whole(bytes));
    }
    // Past the depth, serde_json decides; at it, the check does.
    let nested = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
    assert_eq!(value_end(&nested(128), 0), Some(256));
    assert_eq!(value_end(&nested(129), 0), None);
    let objects = |n: usize| {
        [
            "{\"a\":".repeat(n).into_bytes(),
            b"1".to_vec(),
            vec![b'}'; n],
        ]
        .concat()
    };
    assert!(whole(&objects(128)));
    assert!(!whole(&objects(129)));
}

#[test]
fn every_plain_byte_of_a_long_string_is_skipped_and_every_special_one_seen() {
    // Each position of a word of eight: a quote, a backslash or a control
    // character there ends the run of plain bytes.
    for len in 0..24 {
        for at in 0..len {
            let mut body = vec![b'x'; len];
            for special in [b'"', 0x01, 0x1f, b'\n'] {
                body[at] = special;
                let text = [b"\"".as_slice(), &body, b"\""].concat();
                let expected = match special {
                    b'"' => Some(at + 2),
                    _ => None,
                };
                assert_eq!(value_end(&text, 0), expected, "{len} {at} {special}");
            }
            body[at] = b'\\';
            let cut = [b"\"".as_slice(), &body, b"\""].concat();
            assert_eq!(value_end(&cut, 0), serde_reads(&cut).then_some(len + 2));
        }
        let text = [b"\"".as_slice(), &vec![0xc3; len], b"\""].concat();
        assert_eq!(value_end(&text, 0), Some(len + 2));
    }
}

/// JSON values as serde_json writes them.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(serde_json::Value::from),
        ".{0,12}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(".{0,6}", inner, 0..6)
                .prop_map(|map| serde_json::Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Bits of JSON and of what is not, to be strung together.
const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\"a\"",
    "\"\"",
    "\"\\u00e9\"",
    "\"\\u12g4\"",
    "\"\\x\"",
    "\"\u{1}\"",
    "\"\\\"\"",
    "\"é\"",
    "\"",
    "\\",
    "0",
    "01",
    "-",
    "-0",
    "1.",
    "1.5",
    "1e",
    "1e+5",
    "2E-3",
    ".5",
    "true",
    "tru",
    "null",
    "false",
    "nul",
    "x",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// What serde_json writes, compact or pretty, is valid and ends at
    /// its end.
    #[test]
    fn what_serde_json_writes_is_accepted(value in json_value()) {
        let compact = serde_json::to_vec(&value).unwrap();
        prop_assert_eq!(value_end(&compact, 0), Some(compact.len()));
        let pretty = serde_json::to_vec_pretty(&value).unwrap();
        prop_assert_eq!(value_end(&pretty, 0), Some(pretty.len()));
    }

    /// Strung-together bits: the check and serde_json agree on every text
    /// (none nests past the depth).
    #[test]
    fn the_check_agrees_with_serde_json(tokens in prop::collection::vec(prop::sample::select(TOKENS), 0..14)) {
        let text = tokens.concat();
        prop_assert_eq!(whole(text.as_bytes()), serde_reads(text.as_bytes()), "{:?}", text);
    }

    /// Valid text with one byte changed, dropped or added: never accepted
    /// where serde_json refuses it, and accepted where serde_json reads it.
    #[test]
    fn one_byte_off_is_judged_as_serde_json_judges_it(
        value in json_value(),
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"{}[],:\" \\ux0-.e1tfn\x01\xff".to_vec()),
        edit in 0..3u8,
    ) {
        let mut text = serde_json::to_vec(&value).unwrap();
        let at = at.index(text.len() + 1);
        match edit {
            0 if at < text.len() => text[at] = byte,
            1 if at < text.len() => { text.remove(at); }
            _ => text.insert(at, byte),
        }
        prop_assert_eq!(whole(&text), serde_reads(&text), "{:?}", String::from_utf8_lossy(&text));
    }
}
