//! JavaScript strings.
//!
//! A JavaScript string is a sequence of UTF-16 code units, and it may hold
//! *lone* surrogates (`"\ud800"`), which no Rust `String` can. [`JsString`]
//! stores the code units as canonical WTF-8: well-formed text is plain UTF-8,
//! a lone surrogate is the three-byte generalized UTF-8 sequence of its code
//! point, and a high surrogate is never directly followed by a low one (that
//! pair is stored as the four-byte sequence of the character it forms). The
//! encoding is canonical, so two `JsString`s are equal exactly when their
//! code units are, and printing a string is mostly a copy of its bytes.
//!
//! Everything that counts, slices or indexes works in UTF-16 code units, as
//! JavaScript's `length`, `slice` and `charCodeAt` do.

use std::borrow::Cow;
use std::fmt;

/// A JavaScript string: UTF-16 code units stored as canonical WTF-8.
///
/// It has no `Ord`: ordering the WTF-8 bytes is not JavaScript's order,
/// which compares UTF-16 code units (`"\u{FF61}" < "\u{1F600}"` by bytes,
/// but the pair `D83D DE00` comes before `FF61` in JavaScript). Where order
/// matters, compare [`JsString::to_utf16`].
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct JsString {
    bytes: Vec<u8>,
}

/// The code units that JavaScript's `trim`, `trimStart` and `trimEnd` remove.
/// U+0085 is deliberately absent (it is not white space in JavaScript), and
/// U+FEFF is present (it is).
pub const JS_WHITE_SPACE: [u32; 25] = [
    0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
    0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
];

/// Whether a code point is JavaScript white space (see [`JS_WHITE_SPACE`]).
pub fn is_js_white_space(code_point: u32) -> bool {
    JS_WHITE_SPACE.contains(&code_point)
}

/// Whether a code unit is a high (leading) surrogate.
pub fn is_high_surrogate(unit: u32) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

/// Whether a code unit is a low (trailing) surrogate.
pub fn is_low_surrogate(unit: u32) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// Decodes the code point that starts at `bytes[at]` in generalized UTF-8,
/// returning it and its length in bytes. The caller guarantees `at` is the
/// start of a sequence in valid WTF-8.
fn decode_at(bytes: &[u8], at: usize) -> (u32, usize) {
    let b0 = bytes[at] as u32;
    if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | (bytes[at + 1] as u32 & 0x3F), 2)
    } else if b0 < 0xF0 {
        let cp = ((b0 & 0x0F) << 12)
            | ((bytes[at + 1] as u32 & 0x3F) << 6)
            | (bytes[at + 2] as u32 & 0x3F);
        (cp, 3)
    } else {
        let cp = ((b0 & 0x07) << 18)
            | ((bytes[at + 1] as u32 & 0x3F) << 12)
            | ((bytes[at + 2] as u32 & 0x3F) << 6)
            | (bytes[at + 3] as u32 & 0x3F);
        (cp, 4)
    }
}

/// Appends the generalized UTF-8 encoding of a code point (surrogates
/// included) without looking at what precedes it.
fn encode_raw(code_point: u32, out: &mut Vec<u8>) {
    if code_point < 0x80 {
        out.push(code_point as u8);
    } else if code_point < 0x800 {
        out.push(0xC0 | (code_point >> 6) as u8);
        out.push(0x80 | (code_point & 0x3F) as u8);
    } else if code_point < 0x10000 {
        out.push(0xE0 | (code_point >> 12) as u8);
        out.push(0x80 | ((code_point >> 6) & 0x3F) as u8);
        out.push(0x80 | (code_point & 0x3F) as u8);
    } else {
        out.push(0xF0 | (code_point >> 18) as u8);
        out.push(0x80 | ((code_point >> 12) & 0x3F) as u8);
        out.push(0x80 | ((code_point >> 6) & 0x3F) as u8);
        out.push(0x80 | (code_point & 0x3F) as u8);
    }
}

/// The lone high surrogate that WTF-8 bytes end with, if any.
fn trailing_high_surrogate(bytes: &[u8]) -> Option<u32> {
    match bytes {
        [.., 0xED, b1 @ 0xA0..=0xAF, b2] => {
            Some(0xD000 | ((*b1 as u32 & 0x3F) << 6) | (*b2 as u32 & 0x3F))
        }
        _ => None,
    }
}

/// Appends one UTF-16 code unit to WTF-8 bytes, joining a low surrogate with
/// a lone high surrogate that the bytes end with, as JavaScript
/// concatenation does.
pub(crate) fn push_code_unit_to(bytes: &mut Vec<u8>, unit: u16) {
    let unit = unit as u32;
    if is_low_surrogate(unit) {
        if let Some(high) = trailing_high_surrogate(bytes) {
            bytes.truncate(bytes.len() - 3);
            let code_point = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
            encode_raw(code_point, bytes);
            return;
        }
    }
    encode_raw(unit, bytes);
}

/// Appends WTF-8 bytes to WTF-8 bytes, keeping the result canonical.
pub(crate) fn push_wtf8_to(bytes: &mut Vec<u8>, tail: &[u8]) {
    if let [0xED, b1 @ 0xB0..=0xBF, b2, ..] = tail {
        if trailing_high_surrogate(bytes).is_some() {
            let low = 0xD000 | ((*b1 as u32 & 0x3F) << 6) | (*b2 as u32 & 0x3F);
            push_code_unit_to(bytes, low as u16);
            bytes.extend_from_slice(&tail[3..]);
            return;
        }
    }
    bytes.extend_from_slice(tail);
}

impl JsString {
    /// The empty string.
    pub const fn new() -> Self {
        JsString { bytes: Vec::new() }
    }

    /// An empty string with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        JsString {
            bytes: Vec::with_capacity(capacity),
        }
    }

    /// Wraps bytes that are already canonical WTF-8. Only the JSON reader
    /// and this module produce such bytes.
    pub(crate) fn from_wtf8_unchecked(bytes: Vec<u8>) -> Self {
        JsString { bytes }
    }

    /// The string made of these UTF-16 code units (lone surrogates allowed).
    pub fn from_utf16(units: &[u16]) -> Self {
        let mut bytes = Vec::with_capacity(units.len());
        for &unit in units {
            push_code_unit_to(&mut bytes, unit);
        }
        JsString { bytes }
    }

    /// The canonical WTF-8 bytes of this string.
    pub fn as_wtf8(&self) -> &[u8] {
        &self.bytes
    }

    /// The string as Rust text, when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }

    /// The string as UTF-8 with each lone surrogate replaced by U+FFFD: what
    /// Node writes when it turns a string into bytes (file names included).
    pub fn to_utf8_lossy(&self) -> Cow<'_, str> {
        if let Ok(text) = std::str::from_utf8(&self.bytes) {
            return Cow::Borrowed(text);
        }
        let mut text = String::with_capacity(self.bytes.len());
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(&self.bytes, at);
            at += width;
            text.push(char::from_u32(code_point).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        Cow::Owned(text)
    }

    /// Whether the string has no code units.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The number of UTF-16 code units: JavaScript's `length`.
    pub fn len_utf16(&self) -> usize {
        self.bytes
            .iter()
            .map(|&b| match b {
                0x80..=0xBF => 0,
                0xF0..=0xFF => 2,
                _ => 1,
            })
            .sum()
    }

    /// The UTF-16 code units of the string.
    pub fn to_utf16(&self) -> Vec<u16> {
        let mut units = Vec::with_capacity(self.bytes.len());
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(&self.bytes, at);
            at += width;
            if code_point >= 0x10000 {
                let offset = code_point - 0x10000;
                units.push((0xD800 + (offset >> 10)) as u16);
                units.push((0xDC00 + (offset & 0x3FF)) as u16);
            } else {
                units.push(code_point as u16);
            }
        }
        units
    }

    /// The code unit at a UTF-16 index: JavaScript's `charCodeAt`, with
    /// `None` where JavaScript gives `NaN`.
    pub fn code_unit_at(&self, index: usize) -> Option<u16> {
        let mut position = 0;
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(&self.bytes, at);
            at += width;
            if code_point >= 0x10000 {
                let offset = code_point - 0x10000;
                if index == position {
                    return Some((0xD800 + (offset >> 10)) as u16);
                }
                if index == position + 1 {
                    return Some((0xDC00 + (offset & 0x3FF)) as u16);
                }
                position += 2;
            } else {
                if index == position {
                    return Some(code_point as u16);
                }
                position += 1;
            }
        }
        None
    }

    /// JavaScript's `slice(start, end)` for in-range, non-negative indices
    /// (clamped to the length). A pair cut in two leaves lone surrogates.
    pub fn slice_utf16(&self, start: usize, end: usize) -> JsString {
        let units = self.to_utf16();
        let end = end.min(units.len());
        let start = start.min(end);
        JsString::from_utf16(&units[start..end])
    }

    /// Appends Rust text.
    pub fn push_str(&mut self, text: &str) {
        push_wtf8_to(&mut self.bytes, text.as_bytes());
    }

    /// Appends another JavaScript string (`a + b`).
    pub fn push_js(&mut self, other: &JsString) {
        push_wtf8_to(&mut self.bytes, &other.bytes);
    }

    /// Appends one UTF-16 code unit.
    pub fn push_code_unit(&mut self, unit: u16) {
        push_code_unit_to(&mut self.bytes, unit);
    }

    /// `startsWith` for a prefix without lone surrogates.
    pub fn starts_with(&self, prefix: &str) -> bool {
        self.bytes.starts_with(prefix.as_bytes())
    }

    /// `endsWith` for a suffix without lone surrogates.
    pub fn ends_with(&self, suffix: &str) -> bool {
        self.bytes.ends_with(suffix.as_bytes())
    }

    /// `startsWith` for any JavaScript string prefix.
    pub fn starts_with_js(&self, prefix: &JsString) -> bool {
        if self.bytes.starts_with(&prefix.bytes) {
            return true;
        }
        // A prefix that ends with a lone high surrogate also matches the
        // first half of a pair.
        trailing_high_surrogate(&prefix.bytes).is_some()
            && self.to_utf16().starts_with(&prefix.to_utf16())
    }

    /// Whether this string equals Rust text.
    pub fn eq_str(&self, text: &str) -> bool {
        self.bytes == text.as_bytes()
    }

    /// The byte offset of the first occurrence of `needle` (text without
    /// lone surrogates, so it can only match whole characters).
    fn find_bytes(&self, needle: &[u8], from: usize) -> Option<usize> {
        if needle.is_empty() {
            return Some(from);
        }
        self.bytes[from..]
            .windows(needle.len())
            .position(|window| window == needle)
            .map(|offset| from + offset)
    }

    /// Whether `needle` occurs in the string.
    pub fn contains(&self, needle: &str) -> bool {
        self.find_bytes(needle.as_bytes(), 0).is_some()
    }

    /// JavaScript's `split(separator)` for a non-empty separator without
    /// lone surrogates.
    pub fn split(&self, separator: &str) -> Vec<JsString> {
        let needle = separator.as_bytes();
        assert!(!needle.is_empty(), "split needs a non-empty separator");
        let mut parts = Vec::new();
        let mut from = 0;
        while let Some(at) = self.find_bytes(needle, from) {
            parts.push(JsString::from_wtf8_unchecked(self.bytes[from..at].to_vec()));
            from = at + needle.len();
        }
        parts.push(JsString::from_wtf8_unchecked(self.bytes[from..].to_vec()));
        parts
    }

    /// `split(from).join(to)`: every occurrence of `from` (non-empty, no
    /// lone surrogates) replaced by `to`, left to right, non-overlapping.
    pub fn replace_all(&self, from: &str, to: &str) -> JsString {
        let needle = from.as_bytes();
        let Some(first) = self.find_bytes(needle, 0) else {
            return self.clone();
        };
        let mut out = Vec::with_capacity(self.bytes.len());
        out.extend_from_slice(&self.bytes[..first]);
        let mut from_at = first;
        loop {
            push_wtf8_to(&mut out, to.as_bytes());
            from_at += needle.len();
            match self.find_bytes(needle, from_at) {
                Some(next) => {
                    push_wtf8_to(&mut out, &self.bytes[from_at..next]);
                    from_at = next;
                }
                None => {
                    push_wtf8_to(&mut out, &self.bytes[from_at..]);
                    break;
                }
            }
        }
        JsString { bytes: out }
    }

    /// The bytes after the leading JavaScript white space.
    fn white_space_prefix_len(&self) -> usize {
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(&self.bytes, at);
            if !is_js_white_space(code_point) {
                break;
            }
            at += width;
        }
        at
    }

    /// The byte offset where the trailing JavaScript white space starts.
    fn white_space_suffix_start(&self, floor: usize) -> usize {
        let mut end = self.bytes.len();
        while end > floor {
            let mut start = end - 1;
            while start > floor && (self.bytes[start] & 0xC0) == 0x80 {
                start -= 1;
            }
            let (code_point, _) = decode_at(&self.bytes, start);
            if !is_js_white_space(code_point) {
                break;
            }
            end = start;
        }
        end
    }

    /// JavaScript's `trimStart`.
    pub fn trim_start(&self) -> JsString {
        let start = self.white_space_prefix_len();
        JsString::from_wtf8_unchecked(self.bytes[start..].to_vec())
    }

    /// JavaScript's `trimEnd`.
    pub fn trim_end(&self) -> JsString {
        let end = self.white_space_suffix_start(0);
        JsString::from_wtf8_unchecked(self.bytes[..end].to_vec())
    }

    /// JavaScript's `trim`.
    pub fn trim(&self) -> JsString {
        let start = self.white_space_prefix_len();
        let end = self.white_space_suffix_start(start);
        JsString::from_wtf8_unchecked(self.bytes[start..end].to_vec())
    }

    /// Whether `trim` of the string would be empty.
    pub fn is_blank(&self) -> bool {
        self.white_space_prefix_len() == self.bytes.len()
    }

    /// The string after a prefix that it is known to start with (a prefix of
    /// whole characters, such as ASCII text).
    pub fn strip_prefix(&self, prefix: &str) -> Option<JsString> {
        self.bytes
            .strip_prefix(prefix.as_bytes())
            .map(|rest| JsString::from_wtf8_unchecked(rest.to_vec()))
    }

    /// The string before a suffix of whole characters.
    pub fn strip_suffix(&self, suffix: &str) -> Option<JsString> {
        self.bytes
            .strip_suffix(suffix.as_bytes())
            .map(|rest| JsString::from_wtf8_unchecked(rest.to_vec()))
    }

    /// The text up to the first `\n` (all of it when there is none).
    pub fn first_line(&self) -> JsString {
        match self.bytes.iter().position(|&b| b == b'\n') {
            Some(at) => JsString::from_wtf8_unchecked(self.bytes[..at].to_vec()),
            None => self.clone(),
        }
    }

    /// The strings without duplicates, the first of each kept
    /// (`[...new Set(strings)]`).
    pub fn without_duplicates<'a>(
        strings: impl IntoIterator<Item = &'a JsString>,
    ) -> Vec<JsString> {
        let mut seen = std::collections::HashSet::new();
        strings
            .into_iter()
            .filter(|text| seen.insert(*text))
            .cloned()
            .collect()
    }

    /// Whether the string is one or more ASCII digits (`/^[0-9]+$/`).
    pub fn is_ascii_digits(&self) -> bool {
        !self.bytes.is_empty() && self.bytes.iter().all(u8::is_ascii_digit)
    }
}

impl From<&str> for JsString {
    fn from(text: &str) -> Self {
        JsString {
            bytes: text.as_bytes().to_vec(),
        }
    }
}

impl From<String> for JsString {
    fn from(text: String) -> Self {
        JsString {
            bytes: text.into_bytes(),
        }
    }
}

impl From<&JsString> for JsString {
    fn from(text: &JsString) -> Self {
        text.clone()
    }
}

impl PartialEq<str> for JsString {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for JsString {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

/// Shows the text with each lone surrogate as `\u{d800}`, for diagnostics.
impl fmt::Debug for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = String::with_capacity(self.bytes.len());
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(&self.bytes, at);
            at += width;
            match char::from_u32(code_point) {
                Some(c) => shown.push(c),
                None => shown.push_str(&format!("\\u{{{code_point:x}}}")),
            }
        }
        write!(f, "{shown:?}")
    }
}

/// Shows the text with lone surrogates as U+FFFD.
impl fmt::Display for JsString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_utf8_lossy())
    }
}

/// Something that can be appended to a [`JsString`]: the parts of
/// [`js_concat!`](crate::js_concat).
pub trait JsConcatPart {
    /// Appends this part.
    fn append_to(&self, out: &mut JsString);
}

impl JsConcatPart for str {
    fn append_to(&self, out: &mut JsString) {
        out.push_str(self);
    }
}

impl JsConcatPart for &str {
    fn append_to(&self, out: &mut JsString) {
        out.push_str(self);
    }
}

impl JsConcatPart for String {
    fn append_to(&self, out: &mut JsString) {
        out.push_str(self);
    }
}

impl JsConcatPart for JsString {
    fn append_to(&self, out: &mut JsString) {
        out.push_js(self);
    }
}

impl JsConcatPart for &JsString {
    fn append_to(&self, out: &mut JsString) {
        out.push_js(self);
    }
}

/// Concatenates Rust text and JavaScript strings into a [`JsString`], as a
/// JavaScript template literal does: `js_concat!("unexpected argument ", arg)`.
#[macro_export]
macro_rules! js_concat {
    ($($part:expr),+ $(,)?) => {{
        let mut out = $crate::js::JsString::new();
        $( $crate::js::string::JsConcatPart::append_to(&$part, &mut out); )+
        out
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &[u16]) -> JsString {
        JsString::from_utf16(text)
    }

    #[test]
    fn length_counts_utf16_code_units() {
        assert_eq!(JsString::from("").len_utf16(), 0);
        assert_eq!(JsString::from("abc").len_utf16(), 3);
        assert_eq!(JsString::from("é").len_utf16(), 1);
        assert_eq!(JsString::from("😀").len_utf16(), 2);
        assert_eq!(units(&[0xD800]).len_utf16(), 1);
        assert_eq!(units(&[0xD83D, 0xDE00, 0xDC00]).len_utf16(), 3);
    }

    #[test]
    fn adjacent_surrogates_join_into_one_character() {
        let pair = units(&[0xD83D, 0xDE00]);
        assert_eq!(pair, JsString::from("😀"));
        let mut joined = units(&[0xD83D]);
        joined.push_js(&units(&[0xDE00]));
        assert_eq!(joined, JsString::from("😀"));
        let mut code_unit = units(&[0xD83D]);
        code_unit.push_code_unit(0xDE00);
        assert_eq!(code_unit, JsString::from("😀"));
        // A low surrogate before a high one stays two lone surrogates.
        let reversed = units(&[0xDE00, 0xD83D]);
        assert_eq!(reversed.len_utf16(), 2);
        assert_eq!(reversed.to_utf16(), vec![0xDE00, 0xD83D]);
    }

    #[test]
    fn slice_cuts_pairs_into_lone_surrogates() {
        let text = JsString::from("a😀b");
        assert_eq!(text.slice_utf16(0, 2).to_utf16(), vec![0x61, 0xD83D]);
        assert_eq!(text.slice_utf16(2, 4).to_utf16(), vec![0xDE00, 0x62]);
        assert_eq!(text.slice_utf16(1, 3), JsString::from("😀"));
        assert_eq!(text.slice_utf16(3, 99), JsString::from("b"));
        assert_eq!(text.code_unit_at(1), Some(0xD83D));
        assert_eq!(text.code_unit_at(2), Some(0xDE00));
        assert_eq!(text.code_unit_at(4), None);
    }

    #[test]
    fn trim_uses_javascript_white_space() {
        let text = JsString::from("\u{FEFF}\u{3000} a b\u{2028}\t\u{A0}");
        assert_eq!(text.trim(), JsString::from("a b"));
        assert_eq!(text.trim_start(), JsString::from("a b\u{2028}\t\u{A0}"));
        assert_eq!(text.trim_end(), JsString::from("\u{FEFF}\u{3000} a b"));
        // U+0085 is not JavaScript white space.
        assert_eq!(
            JsString::from("\u{85}x\u{85}").trim(),
            JsString::from("\u{85}x\u{85}")
        );
        assert!(JsString::from(" \n\u{200A}").is_blank());
        assert_eq!(JsString::from(" \n ").trim(), JsString::new());
        assert_eq!(units(&[0x20, 0xD800, 0x20]).trim().to_utf16(), vec![0xD800]);
    }

    #[test]
    fn split_and_replace_are_javascript_split_and_join() {
        let text = JsString::from("$DIR/a$DIR$DIR");
        let parts: Vec<String> = text.split("$DIR").iter().map(|p| p.to_string()).collect();
        assert_eq!(parts, vec!["", "/a", "", ""]);
        assert_eq!(text.replace_all("$DIR", "/t"), JsString::from("/t/a/t/t"));
        assert_eq!(
            JsString::from("none").replace_all("$DIR", "/t"),
            JsString::from("none")
        );
        let surrogates = units(&[0xD83D, 0x2C, 0xDE00]);
        assert_eq!(surrogates.replace_all(",", ""), JsString::from("😀"));
    }

    #[test]
    fn concat_macro_joins_parts() {
        let arg = units(&[0x78, 0xD800]);
        let message = crate::js_concat!("unexpected argument ", arg, "!");
        assert_eq!(message.to_utf16()[20..], [0x78, 0xD800, 0x21]);
    }

    #[test]
    fn lossy_utf8_replaces_lone_surrogates() {
        assert_eq!(units(&[0x61, 0xD800]).to_utf8_lossy(), "a\u{FFFD}");
        assert_eq!(units(&[0xDC00, 0xD800]).to_utf8_lossy(), "\u{FFFD}\u{FFFD}");
        assert_eq!(units(&[0x61, 0xD800]).as_str(), None);
        assert_eq!(JsString::from("é").as_str(), Some("é"));
    }

    #[test]
    fn starts_with_a_lone_high_surrogate_matches_half_a_pair() {
        let text = JsString::from("😀x");
        assert!(text.starts_with_js(&units(&[0xD83D])));
        assert!(!text.starts_with_js(&units(&[0xD83C])));
    }
}
