//! Why two elements that hold the same value are written differently.
//!
//! Called only once the values are known equal, this walks the written
//! shapes ([`RawTree`]) of both elements side by side and names each
//! place where the bytes part: keys in another order, a duplicated key,
//! a number or a string written another way, or white space.

use super::pointer;
use super::raw::{Kind, RawTree};
use crate::js::{self, JsString, TextMode, Value};

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
    fn add(&mut self, kind: ReasonKind, pointer: &JsString, golden: String, actual: String) {
        if self.reasons.len() < SHOWN_REASONS {
            self.reasons.push(ByteReason {
                kind,
                pointer: pointer.clone(),
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
            &JsString::new(),
            String::new(),
            String::new(),
        );
        return found;
    };
    let mut stack = vec![(g.root(), a.root(), JsString::new())];
    while let Some((gn, an, at)) = stack.pop() {
        let (gb, ab) = (g.bytes(gn), a.bytes(an));
        if gb == ab {
            continue;
        }
        let kind = g.node(gn).kind;
        if kind != a.node(an).kind {
            // Equal values always have equal kinds; say something anyway.
            found.add(ReasonKind::WhiteSpace, &at, String::new(), String::new());
            continue;
        }
        let mut children = Vec::new();
        match kind {
            Kind::Number => found.add(ReasonKind::NumberForm, &at, excerpt(gb), excerpt(ab)),
            Kind::String | Kind::Literal => {
                let (ge, ae) = differing_excerpts(gb, ab);
                found.add(ReasonKind::EscapeForm, &at, ge, ae);
            }
            Kind::Array => {
                for (index, (gm, am)) in g.members(gn).iter().zip(a.members(an)).enumerate() {
                    children.push((gm.node, am.node, pointer::child_index(&at, index)));
                }
            }
            Kind::Object => object_pair(&g, gn, &a, an, &at, &mut found, &mut children),
        }
        // With a duplicated key the members do not pair up, nor do the gaps.
        let paired = g.members(gn).len() == a.members(an).len();
        if matches!(kind, Kind::Object | Kind::Array) && paired && gaps(&g, gn) != gaps(&a, an) {
            found.add(ReasonKind::WhiteSpace, &at, String::new(), String::new());
        }
        stack.extend(children.into_iter().rev());
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

/// A decoded key, as `JSON.parse` reads it.
fn decode_key(raw: &[u8]) -> JsString {
    let inner = raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default();
    if !inner.contains(&b'\\') {
        if let Ok(text) = std::str::from_utf8(inner) {
            return JsString::from(text);
        }
    }
    match js::parse(raw, TextMode::LossyUtf8) {
        Ok(Value::String(key)) => key,
        _ => JsString::from(String::from_utf8_lossy(inner).into_owned()),
    }
}

/// One object's keys: (decoded key, raw key, value node), in the order
/// written.
fn keys<'t>(tree: &RawTree<'t>, node: usize) -> Vec<(JsString, &'t [u8], usize)> {
    tree.members(node)
        .iter()
        .filter_map(|member| {
            let raw = tree.slice(member.key.as_ref()?);
            Some((decode_key(raw), raw, member.node))
        })
        .collect()
}

/// The distinct keys in order of first appearance, each with the raw form
/// and value node of its last appearance (the one `JSON.parse` keeps), and
/// the keys that appear more than once.
#[allow(clippy::type_complexity)]
fn distinct<'t>(
    all: &[(JsString, &'t [u8], usize)],
) -> (Vec<(JsString, &'t [u8], usize)>, Vec<JsString>) {
    let mut out: Vec<(JsString, &'t [u8], usize)> = Vec::with_capacity(all.len());
    let mut repeated = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (key, raw, node) in all {
        if let Some(&at) = index.get(key) {
            let entry: &mut (JsString, &[u8], usize) = &mut out[at];
            entry.1 = raw;
            entry.2 = *node;
            if !repeated.contains(key) {
                repeated.push(key.clone());
            }
        } else {
            index.insert(key.clone(), out.len());
            out.push((key.clone(), raw, *node));
        }
    }
    (out, repeated)
}

fn object_pair(
    g: &RawTree,
    gn: usize,
    a: &RawTree,
    an: usize,
    at: &JsString,
    found: &mut Explanation,
    children: &mut Vec<(usize, usize, JsString)>,
) {
    let (g_all, a_all) = (keys(g, gn), keys(a, an));
    let (g_keys, g_repeated) = distinct(&g_all);
    let (a_keys, a_repeated) = distinct(&a_all);
    if !g_repeated.is_empty() || !a_repeated.is_empty() {
        found.add(
            ReasonKind::DuplicateKey,
            at,
            key_list(&g_repeated),
            key_list(&a_repeated),
        );
    }
    let in_order =
        g_keys.len() == a_keys.len() && g_keys.iter().zip(&a_keys).all(|(x, y)| x.0 == y.0);
    if !in_order {
        let names = |list: &[(JsString, &[u8], usize)]| {
            key_list(&list.iter().map(|entry| entry.0.clone()).collect::<Vec<_>>())
        };
        found.add(ReasonKind::KeyOrder, at, names(&g_keys), names(&a_keys));
    }
    let lookup: std::collections::HashMap<&JsString, (&[u8], usize)> = a_keys
        .iter()
        .map(|(key, raw, node)| (key, (*raw, *node)))
        .collect();
    for (key, g_raw, g_node) in &g_keys {
        let Some(&(a_raw, a_node)) = lookup.get(key) else {
            continue;
        };
        let here = pointer::child(at, key);
        if *g_raw != a_raw {
            let (ge, ae) = differing_excerpts(g_raw, a_raw);
            found.add(ReasonKind::EscapeForm, &here, ge, ae);
        }
        children.push((*g_node, a_node, here));
    }
}

/// How many keys a key list names before it says `…`.
const LISTED_KEYS: usize = 8;

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
