//! A case's `op` and `name` read without building its value: what a run
//! needs of every case (its op, for the per-op counts, and its identity),
//! at a fraction of a JavaScript-exact parse, which allocates every
//! member of every case (issue 23).
//!
//! The answer must be the one the parse gives ([`CaseItem::read`] falls
//! back to it): serde_json checks that the case is JSON (then
//! [`js_exact::parse()`], which reads any JSON text nested 512 levels or
//! fewer, reads it too: serde_json stops at 128); the top-level members
//! are then walked, and only the `op` and `name` values are parsed. What
//! the walk does not decide alone (a key with an escape, which might
//! spell `op`; a second `op` or `name`, of which JavaScript keeps the
//! last; an `op` or `name` that is not UTF-8; a case serde_json refuses:
//! deep nesting, or no JSON at all) is left to the parse. Other members
//! need not be UTF-8: the parse reads them lossily, which changes neither
//! `op` nor `name`.
//!
//! [`CaseItem::read`]: crate::corpus::cases::CaseItem::read

use js_exact::{self as js, JsString, TextMode, Value};
use serde::de::IgnoredAny;

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

/// The head of the case whose raw bytes are `raw`, or `None` when only a
/// full parse can tell.
pub fn read(raw: &[u8]) -> Option<Head> {
    // Not an object: neither member, whatever else it is.
    if raw.first() != Some(&b'{') {
        return Some(Head::default());
    }
    // Skipped, not kept as a RawValue: that checks the whole case is
    // UTF-8, which the walk needs only of `op` and `name` (checked below;
    // the parse reads any other member's bytes as lossy UTF-8, which
    // changes neither).
    serde_json::from_slice::<IgnoredAny>(raw).ok()?;
    let mut op = None;
    let mut name = None;
    let mut at = space(raw, 1);
    if raw.get(at) == Some(&b'}') {
        return Some(Head::default());
    }
    loop {
        // A key: valid JSON, so a string; one with an escape is the parse's.
        let key_start = at + 1;
        let key_end = key_start + memchr::memchr2(b'"', b'\\', &raw[key_start..])?;
        if raw[key_end] == b'\\' {
            return None;
        }
        at = space(raw, key_end + 1);
        // The `:`.
        at = space(raw, at + 1);
        let value_end = value_end(raw, at)?;
        let slot = match &raw[key_start..key_end] {
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
        at = space(raw, value_end);
        match raw.get(at)? {
            b',' => at = space(raw, at + 1),
            _ => break,
        }
    }
    let string = |bytes: Option<&[u8]>| -> Option<Option<JsString>> {
        match bytes {
            // No escape: the string is its bytes (serde_json checked they
            // are UTF-8 and hold no control character), as the parse
            // would read them.
            Some([b'"', inner @ .., b'"']) if memchr::memchr(b'\\', inner).is_none() => {
                std::str::from_utf8(inner)
                    .ok()
                    .map(|text| Some(JsString::from(text)))
            }
            Some(bytes) if bytes.first() == Some(&b'"') => {
                let value = js::parse(bytes, TextMode::LossyUtf8).ok()?;
                value.as_js_string().cloned().map(Some)
            }
            _ => Some(None),
        }
    };
    Some(Head {
        op: string(op)?,
        name: string(name)?,
    })
}

/// The first position at or after `at` that is not white space.
fn space(raw: &[u8], mut at: usize) -> usize {
    while raw
        .get(at)
        .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// How deep the walk goes inside a member's value (far below the parse's
/// limit, [`js::parse::DEFAULT_MAX_DEPTH`]).
const WALKED_DEPTH: usize = 64;

/// Where the value starting at `at` ends (the text is valid JSON).
fn value_end(raw: &[u8], at: usize) -> Option<usize> {
    match *raw.get(at)? {
        b'"' => string_end(raw, at + 1),
        b'[' | b'{' => {
            let (mut depth, mut pos) = (1usize, at + 1);
            while depth > 0 {
                match *raw.get(pos)? {
                    b'"' => pos = string_end(raw, pos + 1)?,
                    // serde_json checks no depth when it only skips, and the
                    // parse refuses past its limit: deep cases are its.
                    b'[' | b'{' if depth >= WALKED_DEPTH => return None,
                    b'[' | b'{' => {
                        depth += 1;
                        pos += 1;
                    }
                    b']' | b'}' => {
                        depth -= 1;
                        pos += 1;
                    }
                    _ => pos += 1,
                }
            }
            Some(pos)
        }
        // A number or a literal: up to what ends it.
        _ => Some(
            raw[at..]
                .iter()
                .position(|byte| matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .map_or(raw.len(), |len| at + len),
        ),
    }
}

/// Just past the string whose body starts at `at`.
fn string_end(raw: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += memchr::memchr2(b'"', b'\\', &raw[at..])?;
        if raw[at] == b'"' {
            return Some(at + 1);
        }
        at += 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(raw: &[u8]) -> Head {
        Head::of_value(js::parse(raw, TextMode::LossyUtf8).ok().as_ref())
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
        }
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
