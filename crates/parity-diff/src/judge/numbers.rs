//! Numbers as the oracles wrote them.
//!
//! A value read by [`js_exact::parse()`] keeps a number as a double, which
//! is what "same value" means by default (JavaScript's, jq's), but which
//! re-spells `1e1000` as `null` and `100000000000000000000001` as
//! `1.0000000000000001e+23`. The element's own bytes are kept beside the
//! value ([`RawTree`]), so that:
//! - a report shows every number as it was written ([`spelled`]): the
//!   value is printed as `JSON.stringify` would, but each number is the
//!   oracle's own token;
//! - a suite may compare numbers as decimals ([`Numbers::Exact`]): the
//!   written values, exactly, with `-0` apart from `0` ([`Decimal`]).
//!
//! Why not serde_json's `arbitrary_precision`: values here are
//! JavaScript's (UTF-16 strings, lone surrogates, `__proto__` keys),
//! shared with the contracts' own code through `js_exact`, and that
//! feature would change every `serde_json::Value` of the crate. The
//! element's bytes are at hand already wherever a value was read.

use std::collections::HashMap;

use crate::judge::raw::{Kind, RawTree};
use js_exact::{self as js, JsString, TextMode, Value};

/// What makes two numbers the same value: a suite's `numbers` key.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Numbers {
    /// IEEE doubles, as JavaScript and jq read JSON: `1.0` is `1`,
    /// `-0` is `0`, `1e400` is `2e400` (both infinite), and integers past
    /// 2^53 meet their nearest double.
    #[default]
    Double,
    /// Decimal values exactly as written: `1.0` is `1` and `1e2` is
    /// `100`, but `-0` is not `0` and no two different decimals are equal.
    Exact,
}

impl Numbers {
    /// The mode a name (`double`, `exact`) names.
    pub fn from_name(name: &str) -> Option<Numbers> {
        match name {
            "double" => Some(Numbers::Double),
            "exact" => Some(Numbers::Exact),
            _ => None,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Numbers::Double => "double",
            Numbers::Exact => "exact",
        }
    }
}

/// A number token's decimal value: its sign, its significant digits (no
/// leading or trailing zeros; none for zero) and the power of ten of the
/// last one. Two tokens are the same decimal exactly when their
/// `Decimal`s are equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    scale: Scale,
}

/// The power of ten of the last significant digit. An exponent too long
/// for an `i128` is kept as written (its digits, and what the fraction
/// moved it by): such numbers are equal only when written alike.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Scale {
    Small(i128),
    Huge {
        negative: bool,
        digits: Vec<u8>,
        shift: i128,
    },
}

impl Decimal {
    /// Reads a JSON number token (`-12.50e+3`); `None` when it is not one.
    pub fn parse(token: &[u8]) -> Option<Decimal> {
        let (negative, rest) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        let int_end = rest
            .iter()
            .position(|b| !b.is_ascii_digit())
            .unwrap_or(rest.len());
        if int_end == 0 {
            return None;
        }
        let (int, mut rest) = rest.split_at(int_end);
        let mut fraction: &[u8] = &[];
        if let Some((b'.', after)) = rest.split_first() {
            let end = after
                .iter()
                .position(|b| !b.is_ascii_digit())
                .unwrap_or(after.len());
            if end == 0 {
                return None;
            }
            fraction = &after[..end];
            rest = &after[end..];
        }
        let (exp_negative, exp_digits) = match rest.split_first() {
            None => (false, &[][..]),
            Some((b'e' | b'E', after)) => {
                let (sign, digits) = match after.split_first() {
                    Some((b'-', digits)) => (true, digits),
                    Some((b'+', digits)) => (false, digits),
                    _ => (false, after),
                };
                if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                    return None;
                }
                (sign, digits)
            }
            Some(_) => return None,
        };
        let mut digits: Vec<u8> = int.iter().chain(fraction).copied().collect();
        let leading = digits.iter().take_while(|&&d| d == b'0').count();
        digits.drain(..leading);
        let trailing = digits.iter().rev().take_while(|&&d| d == b'0').count();
        digits.truncate(digits.len() - trailing);
        // The token's length bounds both shifts, far inside an i128.
        let shift = trailing as i128 - fraction.len() as i128;
        let exp_digits = {
            let zeros = exp_digits.iter().take_while(|&&d| d == b'0').count();
            &exp_digits[zeros..]
        };
        let scale = if digits.is_empty() {
            Scale::Small(0)
        } else if exp_digits.len() <= 36 {
            let magnitude = exp_digits
                .iter()
                .fold(0i128, |n, d| n * 10 + i128::from(d - b'0'));
            let exponent = if exp_negative { -magnitude } else { magnitude };
            Scale::Small(exponent + shift)
        } else {
            Scale::Huge {
                negative: exp_negative,
                digits: exp_digits.to_vec(),
                shift,
            }
        };
        Some(Decimal {
            negative,
            digits,
            scale,
        })
    }
}

/// Whether two number tokens are the same decimal (`-0` is not `0`);
/// tokens that do not read as numbers are equal only byte for byte.
pub fn same_decimal(golden: &[u8], actual: &[u8]) -> bool {
    match (Decimal::parse(golden), Decimal::parse(actual)) {
        (Some(g), Some(a)) => g == a,
        _ => golden == actual,
    }
}

/// An element's bytes beside its value: the node of each place, found by
/// key (the last of duplicate keys, as the value keeps) or index.
pub struct Written<'a> {
    tree: RawTree<'a>,
    keys: HashMap<usize, HashMap<JsString, usize>>,
}

impl<'a> Written<'a> {
    /// The element's written shape; `None` when it is not JSON.
    pub fn parse(element: &'a [u8]) -> Option<Self> {
        RawTree::parse(element).map(|tree| Written {
            tree,
            keys: HashMap::new(),
        })
    }

    /// The outermost node.
    pub fn root(&self) -> usize {
        self.tree.root()
    }

    /// The written tree.
    pub fn tree(&self) -> &RawTree<'a> {
        &self.tree
    }

    /// The node of member `key` of object `node`.
    pub fn member(&mut self, node: usize, key: &JsString) -> Option<usize> {
        if self.tree.node(node).kind != Kind::Object {
            return None;
        }
        let tree = &self.tree;
        let keys = self.keys.entry(node).or_insert_with(|| {
            let mut keys = HashMap::new();
            for member in tree.members(node) {
                let Some(span) = &member.key else { continue };
                let key = js::parse(tree.slice(span), TextMode::LossyUtf8);
                if let Some(key) = key.ok().as_ref().and_then(Value::as_js_string) {
                    keys.insert(key.clone(), member.node);
                }
            }
            keys
        });
        keys.get(key).copied()
    }

    /// The node of item `index` of array `node`.
    pub fn item(&self, node: usize, index: usize) -> Option<usize> {
        if self.tree.node(node).kind != Kind::Array {
            return None;
        }
        self.tree.members(node).get(index).map(|member| member.node)
    }

    /// The node a JSON Pointer names.
    pub fn at_pointer(&mut self, pointer: &JsString) -> Option<usize> {
        let mut node = self.root();
        let bytes = pointer.as_wtf8();
        if bytes.is_empty() {
            return Some(node);
        }
        for token in bytes.strip_prefix(b"/")?.split(|&b| b == b'/') {
            node = match self.tree.node(node).kind {
                Kind::Array => {
                    let index = std::str::from_utf8(token).ok()?.parse().ok()?;
                    self.item(node, index)?
                }
                Kind::Object => {
                    let key = unescape_token(token);
                    self.member(node, &JsString::from_wtf8_unchecked(key))?
                }
                _ => return None,
            };
        }
        Some(node)
    }

    /// The token of number `node`, when it is one.
    pub fn number(&self, node: usize) -> Option<&'a [u8]> {
        (self.tree.node(node).kind == Kind::Number).then(|| self.tree.bytes(node))
    }
}

/// A pointer's reference token unescaped: `~1` is `/`, `~0` is `~`.
fn unescape_token(token: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(token.len());
    let mut at = 0;
    while at < token.len() {
        match (token[at], token.get(at + 1)) {
            (b'~', Some(b'1')) => {
                out.push(b'/');
                at += 2;
            }
            (b'~', Some(b'0')) => {
                out.push(b'~');
                at += 2;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    out
}

/// Whether a value holds a number anywhere.
pub fn has_number(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Number(_) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(object) => stack.extend(object.values()),
            _ => {}
        }
    }
    false
}

/// A value as `JSON.stringify` prints it, but each number as written at
/// `node` of `written`; `None` when that is what `JSON.stringify` prints
/// (no number is spelled otherwise), so that callers keep one text.
pub fn spelled(value: &Value, written: &mut Written<'_>, node: usize) -> Option<String> {
    if !has_number(value) {
        return None;
    }
    let mut out = Vec::new();
    let mut differs = false;
    spell(value, written, Some(node), &mut out, &mut differs);
    differs.then(|| String::from_utf8_lossy(&out).into_owned())
}

/// [`spelled`] of a whole element: its value and its bytes.
pub fn spelled_element(value: &Value, element: &[u8]) -> Option<String> {
    if !has_number(value) {
        return None;
    }
    let mut written = Written::parse(element)?;
    let root = written.root();
    spelled(value, &mut written, root)
}

// Recursion as deep as the value, which `js_exact::parse` bounds (and
// `js_exact::to_json` recurses alike).
fn spell(
    value: &Value,
    written: &mut Written<'_>,
    node: Option<usize>,
    out: &mut Vec<u8>,
    differs: &mut bool,
) {
    match value {
        Value::Number(_) => {
            let start = out.len();
            js::print::write_value(value, out);
            if let Some(token) = node.and_then(|node| written.number(node)) {
                if out[start..] != *token {
                    *differs = true;
                    out.truncate(start);
                    out.extend_from_slice(token);
                }
            }
        }
        Value::Array(items) => {
            out.push(b'[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                let child = node.and_then(|node| written.item(node, at));
                spell(item, written, child, out, differs);
            }
            out.push(b']');
        }
        Value::Object(object) => {
            out.push(b'{');
            let mut first = true;
            for (key, item) in object.iter() {
                if item.is_undefined() {
                    continue;
                }
                if !first {
                    out.push(b',');
                }
                first = false;
                js::print::write_string(key, out);
                out.push(b':');
                let child = node.and_then(|node| written.member(node, key));
                spell(item, written, child, out, differs);
            }
            out.push(b'}');
        }
        other => js::print::write_value(other, out),
    }
}

#[cfg(test)]
#[path = "numbers_tests.rs"]
mod tests;
