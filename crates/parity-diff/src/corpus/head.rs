//! A case's `op` and `name` read without building its value: what a run
//! needs of every case (its op, for the per-op counts, and its identity),
//! at a fraction of a JavaScript-exact parse, which allocates every
//! member of every case (issue 23).
//!
//! The answer must be the one the parse gives ([`CaseItem::read`] falls
//! back to it). One pass ([`syntax`]) checks that the case is JSON, as
//! serde_json checks it, and walks its top-level members (then
//! [`js_exact::parse()`], which reads any JSON text nested 512 levels or
//! fewer, reads it too: the check follows 128); only the `op` and `name`
//! values are parsed. What the walk does not decide alone (a key with an
//! escape, which might spell `op`; a second `op` or `name`, of which
//! JavaScript keeps the last; an `op` or `name` that is not UTF-8; a case
//! the check does not answer: deep nesting, or no JSON at all) is left
//! to the parse. Other members need not be UTF-8: the parse reads them
//! lossily, which changes neither `op` nor `name`.
//!
//! [`CaseItem::read`]: crate::corpus::cases::CaseItem::read

use js_exact::{self as js, JsString, TextMode, Value};

use crate::judge::syntax;

/// The members a run reads of a case.
#[derive(Debug, Default, PartialEq)]
pub struct Head {
    /// Its `op`, when it is a string.
    pub op: Option<JsString>,
    /// Its `name`, when it is a string.
    pub name: Option<JsString>,
}

impl Head {
    /// The head of a parsed case (`None`: it did not parse).
    pub fn of_value(case: Option<&Value>) -> Self {
        let member = |key| case.and_then(|case| case.get(key).as_js_string()).cloned();
        Head {
            op: member("op"),
            name: member("name"),
        }
    }
}

/// The raw values of a case's top-level `op` and `name`, as they stand in
/// its bytes.
#[derive(Debug, Default, PartialEq)]
pub struct Members<'a> {
    pub op: Option<&'a [u8]>,
    pub name: Option<&'a [u8]>,
}

/// The `op` and `name` members of the case whose raw bytes are `raw`,
/// or `None` when only a full parse can tell.
pub fn members(raw: &[u8]) -> Option<Members<'_>> {
    // Not an object: neither member, whatever else it is.
    if raw.first() != Some(&b'{') {
        return Some(Members::default());
    }
    // One pass checks the case is JSON (as serde_json would, but for
    // UTF-8, which the walk needs only of `op` and `name`: checked below)
    // and finds the top-level members.
    let mut op = None;
    let mut name = None;
    let mut at = syntax::space(raw, 1);
    if raw.get(at) == Some(&b'}') {
        at += 1;
    } else {
        loop {
            // A key; one with an escape is the parse's.
            if raw.get(at) != Some(&b'"') {
                return None;
            }
            let key_end = syntax::string_end(raw, at + 1)?;
            let key = &raw[at + 1..key_end - 1];
            if memchr::memchr(b'\\', key).is_some() {
                return None;
            }
            at = syntax::space(raw, key_end);
            if raw.get(at) != Some(&b':') {
                return None;
            }
            at = syntax::space(raw, at + 1);
            let value_end = syntax::value_end(raw, at)?;
            let slot = match key {
                b"op" => Some(&mut op),
                b"name" => Some(&mut name),
                _ => None,
            };
            if let Some(slot) = slot {
                if slot.is_some() {
                    return None;
                }
                *slot = Some(&raw[at..value_end]);
            }
            at = syntax::space(raw, value_end);
            match raw.get(at)? {
                b',' => at = syntax::space(raw, at + 1),
                b'}' => {
                    at += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
    // Nothing but white space after the object.
    if syntax::space(raw, at) != raw.len() {
        return None;
    }
    Some(Members { op, name })
}

/// The text of a raw string value with no escape, when it is UTF-8 (its
/// bytes hold no control character: [`members`] checked): what the parse
/// reads it as, with no copy.
pub fn plain_text(value: &[u8]) -> Option<&str> {
    match value {
        [b'"', inner @ .., b'"'] if memchr::memchr(b'\\', inner).is_none() => {
            std::str::from_utf8(inner).ok()
        }
        _ => None,
    }
}

/// The head of the case whose raw bytes are `raw`, or `None` when only a
/// full parse can tell.
pub fn read(raw: &[u8]) -> Option<Head> {
    let Members { op, name } = members(raw)?;
    let string = |value: Option<&[u8]>| -> Option<Option<JsString>> {
        match value {
            Some(value) if value.first() == Some(&b'"') => match plain_text(value) {
                Some(text) => Some(Some(JsString::from(text))),
                // A plain string that is not UTF-8 is the parse's.
                None if memchr::memchr(b'\\', value).is_none() => None,
                None => {
                    let value = js::parse(value, TextMode::LossyUtf8).ok()?;
                    value.as_js_string().cloned().map(Some)
                }
            },
            _ => Some(None),
        }
    };
    Some(Head {
        op: string(op)?,
        name: string(name)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(raw: &[u8]) -> Head {
        Head::of_value(js::parse(raw, TextMode::LossyUtf8).ok().as_ref())
    }

    /// The op as the plan reads it, alone.
    fn op_alone(raw: &[u8]) -> Option<String> {
        crate::corpus::cases::CaseItem::with_op_of_raw(raw, |op| op.map(str::to_owned))
    }

    fn parsed_op(raw: &[u8]) -> Option<String> {
        parsed(raw).op.map(|op| op.to_utf8_lossy().into_owned())
    }

    /// The walk agrees with the parse wherever it answers, and answers
    /// for the cases a corpus is made of.
    #[test]
    fn the_head_is_the_parse_s() {
        let answered: &[&[u8]] = &[
            br#"{"op":"roundTrip","configured":5}"#,
            br#"{ "op" : "a" , "name" : "n one" }"#,
            br#"{"x":{"op":"inner","name":["a",{"b":"}"}]},"op":"outer"}"#,
            br#"{"op":1,"name":null}"#,
            br#"{"op":"a\"b\\","name":"\u00e9\n"}"#,
            br#"{"a":[1,2,{"c":"]"}],"b":-1.5e3,"c":true,"op":"x"}"#,
            br#"{"name":"only"}"#,
            b"{}",
            b"{ }",
            b"[\"op\",\"x\"]",
            b"5",
            b"\"op\"",
            b"null",
            b"\xff",
            "{\"op\":\"\u{e9}\u{2713}\u{1f600}\",\"name\":\"x y\"}".as_bytes(),
            br#"{"op":"","name":"\/"}"#,
            // Bytes that are not UTF-8 outside `op` and `name`: the parse
            // reads them lossily, and its op and name are the walk's.
            b"{\"x\":\"\xff\xfe\",\"op\":\"a\",\"name\":\"n\"}",
            b"{\"\xc3\":[\"\xe2\x82\"],\"op\":\"b\"}",
            b"{\"o\xffp\":\"not op\",\"op\":\"c\"}",
        ];
        for raw in answered {
            let head = read(raw).unwrap_or_else(|| panic!("{:?}", String::from_utf8_lossy(raw)));
            assert_eq!(head, parsed(raw), "{:?}", String::from_utf8_lossy(raw));
            assert_eq!(
                op_alone(raw),
                parsed_op(raw),
                "{:?}",
                String::from_utf8_lossy(raw)
            );
        }
        let left_to_the_parse: &[&[u8]] = &[
            br#"{"\u006fp":"escaped"}"#,
            br#"{"op":"first","op":"last"}"#,
            b"{",
            b"{\"op\":\"\xff\"}",
            br#"{"op":"a",}"#,
            br#"{"op":"a"} x"#,
            b"{\"op\":\"a\x01b\"}",
            b"{\"op\":\"a\tb\"}",
        ];
        for raw in left_to_the_parse {
            assert_eq!(read(raw), None, "{:?}", String::from_utf8_lossy(raw));
            assert_eq!(
                op_alone(raw),
                parsed_op(raw),
                "{:?}",
                String::from_utf8_lossy(raw)
            );
        }
        // A name only the parse reads leaves the op the walk's.
        let odd_name = b"{\"op\":\"a\",\"name\":\"\xff\"}";
        assert_eq!(read(odd_name), None);
        assert_eq!(op_alone(odd_name), Some("a".to_owned()));
        assert_eq!(parsed_op(odd_name), Some("a".to_owned()));
        // serde_json may or may not take a lone surrogate: either way the
        // head is the parse's.
        let lone = br#"{"op":"a","name":"\ud800"}"#;
        assert!(read(lone).is_none_or(|head| head == parsed(lone)));
        let deep = format!(
            "{{\"op\":\"d\",\"x\":{}1{}}}",
            "[".repeat(200),
            "]".repeat(200)
        );
        assert_eq!(read(deep.as_bytes()), None);
        assert_eq!(parsed(deep.as_bytes()).op.unwrap().as_str(), Some("d"));
        let levels = js::parse::DEFAULT_MAX_DEPTH + 1;
        let too_deep = format!(
            "{{\"op\":\"d\",\"x\":{}1{}}}",
            "[".repeat(levels),
            "]".repeat(levels)
        );
        assert_eq!(read(too_deep.as_bytes()), None);
        assert_eq!(parsed(too_deep.as_bytes()), Head::default());
        let shallow = format!(
            "{{\"x\":{}1{},\"op\":\"s\"}}",
            "[".repeat(60),
            "]".repeat(60)
        );
        assert_eq!(
            read(shallow.as_bytes()).unwrap().op.unwrap().as_str(),
            Some("s")
        );
    }

    proptest::proptest! {
        /// Wherever the walk answers, it answers as the parse does, for
        /// objects whose `op` and `name` hold any characters, escaped or
        /// not.
        #[test]
        fn a_head_read_is_the_parse_s(
            op in "(\\PC|[\"\\\\/\u{1}\t\u{7f}\u{e9}\u{1f600}]|\\\\[nt\"\\\\/]|\\\\u00[0-9a-f]{2}){0,6}",
            name in proptest::option::of("[ a-z\\\\\"\u{e9}]{0,4}"),
            other in "[a-z]{0,3}",
        ) {
            let mut raw = format!("{{\"{other}\":[1],\"op\":\"{op}\"");
            if let Some(name) = &name {
                raw.push_str(&format!(",\"name\":\"{name}\""));
            }
            raw.push('}');
            let plain = |text: &str| !text.chars().any(|c| c == '\\' || c == '"' || c < ' ');
            proptest::prop_assert_eq!(op_alone(raw.as_bytes()), parsed_op(raw.as_bytes()), "{}", raw);
            match read(raw.as_bytes()) {
                Some(head) => proptest::prop_assert_eq!(head, parsed(raw.as_bytes()), "{}", raw),
                // Without an escape, a quote or a control character, the
                // walk needs no parse, unless `other` is a second `op`.
                None => proptest::prop_assert!(
                    !(plain(&op) && name.as_deref().is_none_or(plain) && other != "op"),
                    "{}",
                    raw
                ),
            }
        }
    }
}
