//! Why two elements that hold the same value are written differently.
//!
//! Called only once the values are known equal, this walks the written
//! shapes ([`RawTree`]) of both elements side by side and names each
//! place where the bytes part: keys in another order, a duplicated key,
//! a number or a string written another way, or white space.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::judge::pointer::{self, Places, Step, ROOT};
use crate::judge::raw::{Kind, RawTree};
use js_exact::{self as js, JsString, TextMode, Value};

/// How many reasons a report keeps; the rest are counted.
pub const SHOWN_REASONS: usize = 10;

/// What kind of difference in writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonKind {
    /// The same members in another order.
    KeyOrder,
    /// A key written more than once (`JSON.parse` keeps the last value).
    DuplicateKey,
    /// A number written another way (`1.0` for `1`, `1e3` for `1000`).
    NumberForm,
    /// A string, or a key, escaped another way (`\u00e9` for `é`).
    EscapeForm,
    /// White space outside strings.
    WhiteSpace,
}

impl ReasonKind {
    /// A short name, for machine output.
    pub fn name(self) -> &'static str {
        match self {
            ReasonKind::KeyOrder => "key order",
            ReasonKind::DuplicateKey => "duplicate key",
            ReasonKind::NumberForm => "number form",
            ReasonKind::EscapeForm => "escape form",
            ReasonKind::WhiteSpace => "white space",
        }
    }
}

/// One place where equal values are written differently.
#[derive(Debug, Clone, PartialEq)]
pub struct ByteReason {
    /// What differs.
    pub kind: ReasonKind,
    /// Where, as a JSON Pointer into the element.
    pub pointer: JsString,
    /// How the golden writes it (an excerpt; empty for white space).
    pub golden: String,
    /// How the actual result writes it.
    pub actual: String,
}

impl ByteReason {
    /// One line for people, the actual form first and the golden's in
    /// brackets: ``number written `1.0` (golden `1`) at /value/0``.
    pub fn describe(&self) -> String {
        let at = pointer::display(&self.pointer);
        match self.kind {
            ReasonKind::KeyOrder => {
                format!("key order {} (golden {}) at {at}", self.actual, self.golden)
            }
            ReasonKind::DuplicateKey if self.actual.is_empty() => {
                format!("duplicate key {} in golden at {at}", self.golden)
            }
            ReasonKind::DuplicateKey => format!("duplicate key {} at {at}", self.actual),
            ReasonKind::NumberForm => format!(
                "number written `{}` (golden `{}`) at {at}",
                self.actual, self.golden
            ),
            ReasonKind::EscapeForm => format!(
                "escape form `{}` (golden `{}`) at {at}",
                self.actual, self.golden
            ),
            ReasonKind::WhiteSpace => format!("white space at {at}"),
        }
    }
}

/// The reasons found: the first [`SHOWN_REASONS`], and how many in all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Explanation {
    /// The first reasons, in document order.
    pub reasons: Vec<ByteReason>,
    /// How many reasons there are in all.
    pub total: usize,
}

impl Explanation {
    /// Records a reason. The pointer is spelled out even for reasons past
    /// the shown ones; they are rare enough not to matter.
    fn add(&mut self, kind: ReasonKind, pointer: JsString, golden: String, actual: String) {
        if self.reasons.len() < SHOWN_REASONS {
            self.reasons.push(ByteReason {
                kind,
                pointer,
                golden,
                actual,
            });
        }
        self.total += 1;
    }
}

/// Explains how two texts of the same value differ in writing. Texts that
/// cannot be read as JSON structure give one white-space reason at the
/// root rather than nothing.
pub fn explain(golden: &[u8], actual: &[u8]) -> Explanation {
    let mut found = Explanation::default();
    let (Some(g), Some(a)) = (RawTree::parse(golden), RawTree::parse(actual)) else {
        found.add(
            ReasonKind::WhiteSpace,
            JsString::new(),
            String::new(),
            String::new(),
        );
        return found;
    };
    let mut places = Places::new();
    let mut stack = vec![(g.root(), a.root(), ROOT)];
    let mut children = Vec::new();
    while let Some((gn, an, at)) = stack.pop() {
        let (gb, ab) = (g.bytes(gn), a.bytes(an));
        if gb == ab {
            continue;
        }
        let kind = g.node(gn).kind;
        if kind != a.node(an).kind {
            // Equal values always have equal kinds; say something anyway.
            found.add(
                ReasonKind::WhiteSpace,
                places.pointer(at),
                String::new(),
                String::new(),
            );
            continue;
        }
        match kind {
            Kind::Number => found.add(
                ReasonKind::NumberForm,
                places.pointer(at),
                excerpt(gb),
                excerpt(ab),
            ),
            Kind::String | Kind::Literal => {
                let (ge, ae) = differing_excerpts(gb, ab);
                found.add(ReasonKind::EscapeForm, places.pointer(at), ge, ae);
            }
            Kind::Array => {
                for (index, (gm, am)) in g.members(gn).iter().zip(a.members(an)).enumerate() {
                    children.push((gm.node, am.node, places.push(at, Step::Index(index))));
                }
            }
            Kind::Object => {
                let pair = Pair {
                    g: &g,
                    gn,
                    a: &a,
                    an,
                    at,
                };
                object_pair(pair, &mut places, &mut found, &mut children);
            }
        }
        // With a duplicated key the members do not pair up, nor do the gaps.
        let paired = g.members(gn).len() == a.members(an).len();
        if matches!(kind, Kind::Object | Kind::Array) && paired && gaps(&g, gn) != gaps(&a, an) {
            found.add(
                ReasonKind::WhiteSpace,
                places.pointer(at),
                String::new(),
                String::new(),
            );
        }
        stack.extend(children.drain(..).rev());
    }
    found
}

/// The bytes between a container's tokens: after the opening bracket,
/// around each colon and comma, and before the closing bracket.
fn gaps<'t>(tree: &RawTree<'t>, node: usize) -> Vec<&'t [u8]> {
    let span = &tree.node(node).span;
    let mut out = Vec::new();
    let mut from = span.start + 1;
    for member in tree.members(node) {
        if let Some(key) = &member.key {
            out.push(tree.slice(&(from..key.start)));
            from = key.end;
        }
        let value = &tree.node(member.node).span;
        out.push(tree.slice(&(from..value.start)));
        from = value.end;
    }
    out.push(tree.slice(&(from..span.end - 1)));
    out
}

/// A key as `JSON.parse` reads it, as canonical WTF-8 (equal bytes, equal
/// code units); borrowed when the key has no escapes.
fn decode_key(raw: &[u8]) -> Cow<'_, [u8]> {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains(&b'\\') {
        return Cow::Borrowed(inner);
    }
    match js::parse(raw, TextMode::LossyUtf8) {
        Ok(Value::String(ref key)) => Cow::Owned(key.as_wtf8().to_vec()),
        _ => Cow::Borrowed(inner),
    }
}

/// An object's key: decoded, as written, and the node of its value.
struct Key<'t> {
    name: Cow<'t, [u8]>,
    raw: &'t [u8],
    node: usize,
}

/// Objects up to this size are searched by scanning, not hashing.
const SCAN_LIMIT: usize = 16;

/// Where a key is in a list of keys.
fn find(keys: &[Key], name: &[u8], index: Option<&HashMap<&[u8], usize>>) -> Option<usize> {
    match index {
        Some(index) => index.get(name).copied(),
        None => keys.iter().position(|key| key.name.as_ref() == name),
    }
}

/// An object's distinct keys in order of first appearance, each with the
/// raw form and value node of its last appearance (the one `JSON.parse`
/// keeps), and the keys that appear more than once.
fn distinct<'t>(tree: &RawTree<'t>, node: usize) -> (Vec<Key<'t>>, Vec<JsString>) {
    let members = tree.members(node);
    let mut keys: Vec<Key<'t>> = Vec::with_capacity(members.len());
    let mut repeated: Vec<JsString> = Vec::new();
    let mut index: Option<HashMap<Vec<u8>, usize>> =
        (members.len() > SCAN_LIMIT).then(HashMap::new);
    for member in members {
        let Some(span) = &member.key else { continue };
        let raw = tree.slice(span);
        let name = decode_key(raw);
        let seen = match &index {
            Some(index) => index.get(name.as_ref()).copied(),
            None => find(&keys, &name, None),
        };
        match seen {
            Some(at) => {
                let key = &mut keys[at];
                key.raw = raw;
                key.node = member.node;
                let repeat = wtf8(&name);
                if !repeated.contains(&repeat) {
                    repeated.push(repeat);
                }
            }
            None => {
                if let Some(index) = &mut index {
                    index.insert(name.to_vec(), keys.len());
                }
                keys.push(Key {
                    name,
                    raw,
                    node: member.node,
                });
            }
        }
    }
    (keys, repeated)
}

fn wtf8(bytes: &[u8]) -> JsString {
    JsString::from_wtf8_unchecked(bytes.to_vec())
}

/// The two objects (or arrays) being explained, and their place.
struct Pair<'p, 't> {
    g: &'p RawTree<'t>,
    gn: usize,
    a: &'p RawTree<'t>,
    an: usize,
    at: usize,
}

fn object_pair<'t>(
    pair: Pair<'_, 't>,
    places: &mut Places<'t>,
    found: &mut Explanation,
    children: &mut Vec<(usize, usize, usize)>,
) {
    let (g_keys, g_repeated) = distinct(pair.g, pair.gn);
    let (a_keys, a_repeated) = distinct(pair.a, pair.an);
    if !g_repeated.is_empty() || !a_repeated.is_empty() {
        found.add(
            ReasonKind::DuplicateKey,
            places.pointer(pair.at),
            key_list(&g_repeated),
            key_list(&a_repeated),
        );
    }
    let in_order =
        g_keys.len() == a_keys.len() && g_keys.iter().zip(&a_keys).all(|(x, y)| x.name == y.name);
    if !in_order {
        // A window of each list from just before the first place where
        // the orders part, so that a swap late in a long object shows.
        let parts = g_keys
            .iter()
            .zip(&a_keys)
            .position(|(x, y)| x.name != y.name)
            .unwrap_or(g_keys.len().min(a_keys.len()));
        let from = parts.saturating_sub(1);
        let names = |keys: &[Key]| {
            let names: Vec<JsString> = keys.iter().map(|key| wtf8(&key.name)).collect();
            key_window(&names, from)
        };
        found.add(
            ReasonKind::KeyOrder,
            places.pointer(pair.at),
            names(&g_keys),
            names(&a_keys),
        );
    }
    let index: Option<HashMap<&[u8], usize>> = (a_keys.len() > SCAN_LIMIT).then(|| {
        a_keys
            .iter()
            .enumerate()
            .map(|(at, key)| (key.name.as_ref(), at))
            .collect()
    });
    for g_key in &g_keys {
        let Some(a_key) = find(&a_keys, &g_key.name, index.as_ref()).map(|at| &a_keys[at]) else {
            continue;
        };
        let here = places.push(pair.at, Step::RawKey(g_key.name.clone()));
        if g_key.raw != a_key.raw {
            let (ge, ae) = differing_excerpts(g_key.raw, a_key.raw);
            found.add(ReasonKind::EscapeForm, places.pointer(here), ge, ae);
        }
        children.push((g_key.node, a_key.node, here));
    }
}

/// How many keys a key list names before it says `…`.
const LISTED_KEYS: usize = 8;

/// The keys from position `from` on, as [`key_list`] shows them, with
/// `…` in front when keys before it are left out.
fn key_window(keys: &[JsString], from: usize) -> String {
    let from = from.min(keys.len());
    match from {
        0 => key_list(keys),
        _ => format!("…,{}", key_list(&keys[from..])),
    }
}

fn key_list(keys: &[JsString]) -> String {
    let mut shown: Vec<String> = keys
        .iter()
        .take(LISTED_KEYS)
        .map(|key| String::from_utf8_lossy(&js::to_json(&Value::String(key.clone()))).into_owned())
        .collect();
    if keys.len() > LISTED_KEYS {
        shown.push("…".into());
    }
    shown.join(",")
}

/// Texts up to this long are shown whole.
const WHOLE_EXCERPT: usize = 48;
/// Around the first difference, this much is shown before it.
const EXCERPT_BEFORE: usize = 12;
/// And this much from it on.
const EXCERPT_AFTER: usize = 24;

fn excerpt(bytes: &[u8]) -> String {
    window(bytes, 0, WHOLE_EXCERPT)
}

/// Excerpts of two texts around the first byte where they part.
fn differing_excerpts(golden: &[u8], actual: &[u8]) -> (String, String) {
    if golden.len() <= WHOLE_EXCERPT && actual.len() <= WHOLE_EXCERPT {
        return (excerpt(golden), excerpt(actual));
    }
    let first = golden
        .iter()
        .zip(actual)
        .position(|(x, y)| x != y)
        .unwrap_or(golden.len().min(actual.len()));
    let start = first.saturating_sub(EXCERPT_BEFORE);
    (
        window(golden, start, first + EXCERPT_AFTER),
        window(actual, start, first + EXCERPT_AFTER),
    )
}

/// The text between two byte offsets, widened to character boundaries,
/// with `…` where it was cut.
fn window(bytes: &[u8], start: usize, end: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut start = start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(&text[start..end]);
    if end < text.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reasons(golden: &str, actual: &str) -> Vec<String> {
        let found = explain(golden.as_bytes(), actual.as_bytes());
        found.reasons.iter().map(ByteReason::describe).collect()
    }

    #[test]
    fn numbers() {
        assert_eq!(
            reasons(r#"{"value":[1,2]}"#, r#"{"value":[1.0,2]}"#),
            ["number written `1.0` (golden `1`) at /value/0"]
        );
        assert_eq!(
            reasons("100", "1e2"),
            ["number written `1e2` (golden `100`) at (root)"]
        );
    }

    #[test]
    fn key_order() {
        assert_eq!(
            reasons(
                r#"{"a":1,"b":{"c":1,"d":2}}"#,
                r#"{"b":{"d":2,"c":1},"a":1}"#
            ),
            [
                r#"key order "b","a" (golden "a","b") at (root)"#,
                r#"key order "d","c" (golden "c","d") at /b"#
            ]
        );
    }

    #[test]
    fn a_late_swap_in_a_long_object_shows_where_the_orders_part() {
        let keys: Vec<String> = (0..20).map(|n| format!("\"k{n}\":{n}")).collect();
        let mut swapped = keys.clone();
        swapped.swap(15, 16);
        let golden = format!("{{{}}}", keys.join(","));
        let actual = format!("{{{}}}", swapped.join(","));
        assert_eq!(
            reasons(&golden, &actual),
            [
                r#"key order …,"k14","k16","k15","k17","k18","k19" (golden …,"k14","k15","k16","k17","k18","k19") at (root)"#
            ]
        );
    }

    #[test]
    fn duplicate_keys() {
        assert_eq!(
            reasons(r#"{"a":2}"#, r#"{"a":1,"a":2}"#),
            [r#"duplicate key "a" at (root)"#]
        );
        assert_eq!(
            reasons(r#"{"a":1,"a":2}"#, r#"{"a":2}"#),
            [r#"duplicate key "a" in golden at (root)"#]
        );
    }

    #[test]
    fn escapes_in_strings_and_keys() {
        assert_eq!(
            reasons(r#"{"m":"é"}"#, r#"{"m":"\u00e9"}"#),
            [r#"escape form `"\u00e9"` (golden `"é"`) at /m"#]
        );
        assert_eq!(
            reasons(r#"{"a/b":1}"#, r#"{"a\/b":1}"#),
            [r#"escape form `"a\/b"` (golden `"a/b"`) at /a~1b"#]
        );
        assert_eq!(
            reasons(r#""\ud800""#, r#""\uD800""#),
            [r#"escape form `"\uD800"` (golden `"\ud800"`) at (root)"#]
        );
        let long_golden = format!("\"{}é{}\"", "x".repeat(60), "y".repeat(60));
        let long_actual = format!("\"{}\\u00e9{}\"", "x".repeat(60), "y".repeat(60));
        let found = explain(long_golden.as_bytes(), long_actual.as_bytes());
        let reason = &found.reasons[0];
        assert_eq!(
            reason.golden,
            format!("…{}é{}…", "x".repeat(12), "y".repeat(22))
        );
        assert!(reason.actual.starts_with("…xxxxxxxxxxxx\\u00e9y"));
    }

    #[test]
    fn white_space() {
        assert_eq!(
            reasons(r#"{"a":[1,2],"b":3}"#, r#"{"a":[1, 2], "b":3}"#),
            ["white space at (root)", "white space at /a"]
        );
    }

    #[test]
    fn reasons_are_counted_past_the_shown_ones() {
        let golden = format!("[{}]", vec!["1"; 25].join(","));
        let actual = format!("[{}]", vec!["1.0"; 25].join(","));
        let found = explain(golden.as_bytes(), actual.as_bytes());
        assert_eq!(found.reasons.len(), SHOWN_REASONS);
        assert_eq!(found.total, 25);
        assert_eq!(found.reasons[9].pointer, "/9");
    }
}
