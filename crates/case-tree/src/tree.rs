//! Cases as JSON syntax trees.
//!
//! A differential fuzzer must exercise the *text* of JSON, not only its
//! values: `1.0` and `1`, `"\u0041"` and `"A"`, a duplicated key. So a
//! case is a [`Node`] tree that keeps each number's spelling, each
//! string's code units and escape style, and each object's members as
//! written (duplicates included). Cases from a generator command or a
//! corpus are read into trees ([`parse`](mod@parse)); the same tree is
//! what the mutator changes and the minimizer shrinks.

pub mod parse;

use std::sync::Arc;

use js_exact::{JsString, Value};

/// How a string's characters are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Escapes {
    /// As JSON.stringify writes them (raw UTF-8, short escapes).
    Plain,
    /// Every non-ASCII code unit as `\uXXXX`.
    Unicode,
    /// Exactly these bytes, quotes included, as a case file spelled them
    /// (`"\u00e9"`, `"\/"`): a spelling neither of the others writes.
    Written(Arc<[u8]>),
}

/// A JSON value as it is written.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, spelled exactly so (`1.0`, `-0`, `1e400`).
    Number(String),
    /// A string of UTF-16 code units.
    String(JsString, Escapes),
    /// An array.
    Array(Vec<Node>),
    /// An object's members in the order written, duplicates included.
    Object(Vec<(JsString, Node)>),
}

impl Node {
    /// Reads JSON text, keeping its spelling (see [`parse`](mod@parse)).
    pub fn parse(text: &[u8]) -> Result<Node, String> {
        parse::parse(text)
    }

    /// A plain string.
    pub fn str(text: &str) -> Node {
        Node::String(JsString::from(text), Escapes::Plain)
    }

    /// A number written as Rust writes the integer.
    pub fn int(number: i64) -> Node {
        Node::Number(number.to_string())
    }

    /// An object from members.
    pub fn object<K: Into<JsString>>(members: impl IntoIterator<Item = (K, Node)>) -> Node {
        Node::Object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// The member `key` of an object (the last, as JSON.parse keeps).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(members) => members
                .iter()
                .rev()
                .find(|(k, _)| k.eq_str(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// How many nodes the tree has: what "a case of at most a few
    /// members" counts.
    pub fn size(&self) -> usize {
        match self {
            Node::Array(items) => 1 + items.iter().map(Node::size).sum::<usize>(),
            Node::Object(members) => 1 + members.iter().map(|(_, v)| v.size()).sum::<usize>(),
            _ => 1,
        }
    }

    /// Appends the JSON text of the tree.
    pub fn write(&self, out: &mut Vec<u8>) {
        match self {
            Node::Null => out.extend_from_slice(b"null"),
            Node::Bool(flag) => out.extend_from_slice(if *flag { b"true" } else { b"false" }),
            Node::Number(text) => out.extend_from_slice(text.as_bytes()),
            Node::String(text, escapes) => write_string(text, escapes, out),
            Node::Array(items) => {
                out.push(b'[');
                for (at, item) in items.iter().enumerate() {
                    if at > 0 {
                        out.push(b',');
                    }
                    item.write(out);
                }
                out.push(b']');
            }
            Node::Object(members) => {
                out.push(b'{');
                for (at, (key, value)) in members.iter().enumerate() {
                    if at > 0 {
                        out.push(b',');
                    }
                    write_string(key, &Escapes::Plain, out);
                    out.push(b':');
                    value.write(out);
                }
                out.push(b'}');
            }
        }
    }

    /// The JSON text of the tree.
    pub fn to_text(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// The value JSON.parse makes of the tree.
    pub fn to_value(&self) -> Value {
        js_exact::parse(&self.to_text(), js_exact::TextMode::LossyUtf8)
            .expect("a generated tree is valid JSON")
    }

    /// Every tree one step simpler than this one: a member or element
    /// dropped, a string or number shortened, a container replaced by a
    /// leaf. The minimizer keeps the first that still diverges. Members
    /// named in `keep` at the top level (the case's `op`) are never
    /// dropped.
    pub fn simplifications(&self, keep: &[&str]) -> Vec<Node> {
        let mut out = Vec::new();
        self.simplify_into(keep, &mut out);
        out
    }

    fn simplify_into(&self, keep: &[&str], out: &mut Vec<Node>) {
        match self {
            Node::Null => {}
            Node::Bool(_) => out.push(Node::Null),
            Node::Number(text) => {
                for simpler in ["0", "1"] {
                    if text != simpler {
                        out.push(Node::Number(simpler.to_owned()));
                    }
                }
                if let Some(shorter) = shorter_number(text) {
                    out.push(Node::Number(shorter));
                }
            }
            Node::String(text, escapes) => {
                let units = text.to_utf16();
                if units.is_empty() {
                    return;
                }
                // A shortened string written exactly as before cannot be:
                // it is written plainly.
                let kept = match escapes {
                    Escapes::Written(_) => Escapes::Plain,
                    other => other.clone(),
                };
                out.push(Node::String(JsString::new(), kept.clone()));
                if units.len() > 1 {
                    let half = units.len() / 2;
                    for part in [
                        &units[..half],
                        &units[half..],
                        &units[1..],
                        &units[..units.len() - 1],
                    ] {
                        out.push(Node::String(JsString::from_utf16(part), kept.clone()));
                    }
                }
                if *escapes != Escapes::Plain {
                    out.push(Node::String(text.clone(), Escapes::Plain));
                }
            }
            Node::Array(items) => {
                if !items.is_empty() {
                    out.push(Node::Array(Vec::new()));
                }
                for at in 0..items.len() {
                    let mut fewer = items.clone();
                    fewer.remove(at);
                    out.push(Node::Array(fewer));
                }
                for (at, item) in items.iter().enumerate() {
                    for simpler in item.simplifications(&[]) {
                        let mut changed = items.clone();
                        changed[at] = simpler;
                        out.push(Node::Array(changed));
                    }
                }
                out.push(Node::Null);
            }
            Node::Object(members) => {
                let droppable = |key: &JsString| !keep.iter().any(|k| key.eq_str(k));
                for at in 0..members.len() {
                    if droppable(&members[at].0) {
                        let mut fewer = members.clone();
                        fewer.remove(at);
                        out.push(Node::Object(fewer));
                    }
                }
                for (at, (key, value)) in members.iter().enumerate() {
                    for simpler in value.simplifications(&[]) {
                        let mut changed = members.clone();
                        changed[at] = (key.clone(), simpler);
                        out.push(Node::Object(changed));
                    }
                }
                if keep.is_empty() {
                    out.push(Node::Null);
                }
            }
        }
    }
}

/// The number with one digit fewer, or a shorter spelling, if any.
fn shorter_number(text: &str) -> Option<String> {
    if text.len() <= 1 {
        return None;
    }
    // Drop an exponent, then a fraction, then a digit.
    if let Some(at) = text.find(['e', 'E']) {
        return Some(text[..at].to_owned());
    }
    if let Some(at) = text.find('.') {
        return Some(text[..at].to_owned());
    }
    let shorter = &text[..text.len() - 1];
    (shorter != "-" && !shorter.is_empty()).then(|| shorter.to_owned())
}

fn write_string(text: &JsString, escapes: &Escapes, out: &mut Vec<u8>) {
    match escapes {
        Escapes::Written(raw) => out.extend_from_slice(raw),
        Escapes::Plain => js_exact::print::write_string(text, out),
        Escapes::Unicode => {
            out.push(b'"');
            for unit in text.to_utf16() {
                match unit {
                    0x22 => out.extend_from_slice(b"\\\""),
                    0x5C => out.extend_from_slice(b"\\\\"),
                    0x20..=0x7E => out.push(unit as u8),
                    _ => out.extend_from_slice(format!("\\u{unit:04X}").as_bytes()),
                }
            }
            out.push(b'"');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_keep_their_spelling() {
        let tree = Node::Object(vec![
            ("a".into(), Node::Number("1.0".into())),
            (
                "a".into(),
                Node::String(JsString::from_utf16(&[0xE9, 0xD800]), Escapes::Unicode),
            ),
            ("b".into(), Node::Array(vec![Node::Null, Node::Bool(true)])),
        ]);
        assert_eq!(
            String::from_utf8(tree.to_text()).unwrap(),
            r#"{"a":1.0,"a":"\u00E9\uD800","b":[null,true]}"#
        );
        assert_eq!(tree.size(), 6);
        assert_eq!(
            tree.get("a"),
            Some(&Node::String(
                JsString::from_utf16(&[0xE9, 0xD800]),
                Escapes::Unicode
            ))
        );
        let value = tree.to_value();
        assert_eq!(value.get("b").as_array().map(<[Value]>::len), Some(2));
    }

    #[test]
    fn simplifications_never_drop_kept_members_and_all_parse() {
        let tree = Node::object([
            ("op", Node::str("sum")),
            ("options", Node::object([("cwd", Node::str("/abc"))])),
        ]);
        let simpler = tree.simplifications(&["op"]);
        assert!(!simpler.is_empty());
        for candidate in &simpler {
            assert!(candidate.get("op").is_some(), "{candidate:?}");
            assert!(candidate.size() <= tree.size());
            js_exact::parse(&candidate.to_text(), js_exact::TextMode::LossyUtf8).unwrap();
        }
    }

    #[test]
    fn numbers_shorten() {
        assert_eq!(shorter_number("1e400"), Some("1".into()));
        assert_eq!(shorter_number("12.5"), Some("12".into()));
        assert_eq!(shorter_number("123"), Some("12".into()));
        assert_eq!(shorter_number("-1"), None);
        assert_eq!(shorter_number("7"), None);
    }
}
