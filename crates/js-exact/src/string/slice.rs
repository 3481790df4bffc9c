//! [`JsStr`]: a borrowed piece of a JavaScript string.
//!
//! Trimming, splitting and stripping a prefix give pieces of the string
//! they started from, so an op can look through a gigabyte of worker
//! output line by line and copy only the piece it returns.

use std::borrow::Cow;
use std::fmt;

use super::wtf8::{
    char_len, char_start_before, decode_at, is_js_white_space, surrogate_pair, units_of_byte,
};
use super::JsString;

/// A borrowed JavaScript string: whole characters of canonical WTF-8 (a
/// piece of a [`JsString`], or Rust text). Any such piece is canonical
/// itself, since a surrogate pair is never split in two.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct JsStr<'a> {
    bytes: &'a [u8],
}

/// Where a UTF-16 index falls in a string: between two characters, or
/// between the two halves of a surrogate pair, which WTF-8 keeps as one
/// four-byte character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitCut<'a> {
    /// Between two characters (or at either end): the units before the
    /// index and the units from it on.
    Between(JsStr<'a>, JsStr<'a>),
    /// Inside a pair: what precedes the pair, its two halves, and what
    /// follows it.
    InsidePair {
        /// The characters before the pair.
        before: JsStr<'a>,
        /// The pair's high surrogate, the unit before the index.
        high: u16,
        /// The pair's low surrogate, the unit at the index.
        low: u16,
        /// The characters after the pair.
        after: JsStr<'a>,
    },
}

/// The byte offset of the first `needle` (non-empty) in `bytes` at or
/// after `from`.
fn find_bytes(bytes: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = bytes.len().checked_sub(needle.len())?;
    let mut at = from;
    while at <= last_start {
        at += bytes[at..=last_start].iter().position(|&b| b == first)?;
        if bytes[at + 1..at + needle.len()] == *rest {
            return Some(at);
        }
        at += 1;
    }
    None
}

impl<'a> JsStr<'a> {
    /// Wraps bytes that are whole characters of canonical WTF-8 (a piece
    /// of a string's own bytes cut at character boundaries). Nothing is
    /// checked, as for [`JsString::from_wtf8_unchecked`](crate::JsString::from_wtf8_unchecked).
    #[inline]
    pub fn from_wtf8_unchecked(bytes: &'a [u8]) -> Self {
        JsStr { bytes }
    }

    /// The piece `bytes[range]`, whose ends the caller knows to be
    /// character boundaries.
    fn piece(self, start: usize, end: usize) -> JsStr<'a> {
        JsStr {
            bytes: &self.bytes[start..end],
        }
    }

    /// The canonical WTF-8 bytes.
    #[inline]
    pub fn as_wtf8(self) -> &'a [u8] {
        self.bytes
    }

    /// Whether it has no code units.
    pub fn is_empty(self) -> bool {
        self.bytes.is_empty()
    }

    /// The number of UTF-16 code units: JavaScript's `length`.
    pub fn len_utf16(self) -> usize {
        // Written as two counts so that it vectorizes: every byte that
        // starts a character is one unit, and a four-byte one is two.
        self.bytes
            .iter()
            .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
            .sum()
    }

    /// The text as UTF-8 with each lone surrogate replaced by U+FFFD.
    pub fn to_utf8_lossy(self) -> Cow<'a, str> {
        if let Ok(text) = std::str::from_utf8(self.bytes) {
            return Cow::Borrowed(text);
        }
        let mut text = String::with_capacity(self.bytes.len());
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(self.bytes, at);
            at += width;
            text.push(char::from_u32(code_point).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        Cow::Owned(text)
    }

    /// A copy that owns its bytes.
    pub fn to_js_string(self) -> JsString {
        JsString::from_wtf8_unchecked(self.bytes.to_vec())
    }

    /// Whether it equals Rust text.
    pub fn eq_str(self, text: &str) -> bool {
        self.bytes == text.as_bytes()
    }

    /// `startsWith` for a prefix without lone surrogates.
    pub fn starts_with(self, prefix: &str) -> bool {
        self.bytes.starts_with(prefix.as_bytes())
    }

    /// `endsWith` for a suffix without lone surrogates.
    pub fn ends_with(self, suffix: &str) -> bool {
        self.bytes.ends_with(suffix.as_bytes())
    }

    /// Whether `needle` (text without lone surrogates, so it can only match
    /// whole characters) occurs in it.
    pub fn contains(self, needle: &str) -> bool {
        needle.is_empty() || find_bytes(self.bytes, needle.as_bytes(), 0).is_some()
    }

    /// What follows a prefix of whole characters, when it starts with it.
    pub fn strip_prefix(self, prefix: &str) -> Option<JsStr<'a>> {
        self.bytes
            .strip_prefix(prefix.as_bytes())
            .map(|bytes| JsStr { bytes })
    }

    /// What precedes a suffix of whole characters, when it ends with it.
    pub fn strip_suffix(self, suffix: &str) -> Option<JsStr<'a>> {
        self.bytes
            .strip_suffix(suffix.as_bytes())
            .map(|bytes| JsStr { bytes })
    }

    /// The pieces before and after the first `separator` (non-empty text
    /// without lone surrogates), when it occurs.
    pub fn split_once(self, separator: &str) -> Option<(JsStr<'a>, JsStr<'a>)> {
        let at = find_bytes(self.bytes, separator.as_bytes(), 0)?;
        Some((
            self.piece(0, at),
            self.piece(at + separator.len(), self.bytes.len()),
        ))
    }

    /// JavaScript's `split(separator)` for a non-empty separator without
    /// lone surrogates, as pieces of this string.
    ///
    /// # Panics
    /// When the separator is empty (which JavaScript splits into code
    /// units, and no caller asks for).
    pub fn split<'s>(self, separator: &'s str) -> Split<'a, 's> {
        assert!(!separator.is_empty(), "split needs a non-empty separator");
        Split {
            rest: Some(self.bytes),
            separator: separator.as_bytes(),
        }
    }

    /// The text up to the first `\n` (all of it when there is none).
    pub fn first_line(self) -> JsStr<'a> {
        match self.bytes.iter().position(|&b| b == b'\n') {
            Some(at) => self.piece(0, at),
            None => self,
        }
    }

    /// The length in bytes of the leading JavaScript white space.
    fn white_space_prefix_len(self) -> usize {
        let mut at = 0;
        while at < self.bytes.len() {
            let (code_point, width) = decode_at(self.bytes, at);
            if !is_js_white_space(code_point) {
                break;
            }
            at += width;
        }
        at
    }

    /// The byte offset where the trailing JavaScript white space starts,
    /// looking no further back than `floor`.
    fn white_space_suffix_start(self, floor: usize) -> usize {
        let mut end = self.bytes.len();
        while end > floor {
            let start = char_start_before(self.bytes, end).max(floor);
            let (code_point, _) = decode_at(self.bytes, start);
            if !is_js_white_space(code_point) {
                break;
            }
            end = start;
        }
        end
    }

    /// JavaScript's `trimStart`.
    pub fn trim_start(self) -> JsStr<'a> {
        self.piece(self.white_space_prefix_len(), self.bytes.len())
    }

    /// JavaScript's `trimEnd`.
    pub fn trim_end(self) -> JsStr<'a> {
        self.piece(0, self.white_space_suffix_start(0))
    }

    /// JavaScript's `trim`.
    pub fn trim(self) -> JsStr<'a> {
        let start = self.white_space_prefix_len();
        self.piece(start, self.white_space_suffix_start(start))
    }

    /// Whether `trim` of it would be empty.
    pub fn is_blank(self) -> bool {
        self.white_space_prefix_len() == self.bytes.len()
    }

    /// Where the UTF-16 index `index` falls, counted from the start; an
    /// index past the end falls at the end. Reads the characters before
    /// the index.
    pub fn cut_at_unit(self, index: usize) -> UnitCut<'a> {
        let bytes = self.bytes;
        let mut position = 0;
        let mut at = 0;
        while at < bytes.len() && position < index {
            let width = char_len(bytes[at]);
            if width == 4 && position + 1 == index {
                return self.inside_pair(at);
            }
            position += units_of_byte(bytes[at]);
            at += width;
        }
        UnitCut::Between(self.piece(0, at), self.piece(at, bytes.len()))
    }

    /// Where the index falls that leaves `count` UTF-16 units after it; at
    /// the start when the string is no longer than that. Reads only the
    /// characters after the index, so keeping the tail of a long string
    /// costs the tail.
    pub fn cut_from_end(self, count: usize) -> UnitCut<'a> {
        let bytes = self.bytes;
        let mut remaining = count;
        let mut at = bytes.len();
        while remaining > 0 && at > 0 {
            let start = char_start_before(bytes, at);
            if bytes[start] >= 0xF0 {
                if remaining == 1 {
                    return self.inside_pair(start);
                }
                remaining -= 2;
            } else {
                remaining -= 1;
            }
            at = start;
        }
        UnitCut::Between(self.piece(0, at), self.piece(at, bytes.len()))
    }

    /// The cut inside the four-byte character at `at`.
    fn inside_pair(self, at: usize) -> UnitCut<'a> {
        let (code_point, width) = decode_at(self.bytes, at);
        let (high, low) = surrogate_pair(code_point);
        UnitCut::InsidePair {
            before: self.piece(0, at),
            high,
            low,
            after: self.piece(at + width, self.bytes.len()),
        }
    }
}

impl<'a> From<&'a str> for JsStr<'a> {
    fn from(text: &'a str) -> Self {
        JsStr {
            bytes: text.as_bytes(),
        }
    }
}

impl<'a> From<&'a JsString> for JsStr<'a> {
    fn from(text: &'a JsString) -> Self {
        text.as_js_str()
    }
}

impl PartialEq<str> for JsStr<'_> {
    fn eq(&self, other: &str) -> bool {
        self.eq_str(other)
    }
}

impl PartialEq<&str> for JsStr<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.eq_str(other)
    }
}

/// Writes WTF-8 text with each lone surrogate as `\u{d800}`, quoted as
/// `Debug` quotes a `str`.
pub(super) fn debug_wtf8(bytes: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let mut shown = String::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let (code_point, width) = decode_at(bytes, at);
        at += width;
        match char::from_u32(code_point) {
            Some(c) => shown.push(c),
            None => shown.push_str(&format!("\\u{{{code_point:x}}}")),
        }
    }
    write!(f, "{shown:?}")
}

/// Shows the text with each lone surrogate as `\u{d800}`, for diagnostics.
impl fmt::Debug for JsStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_wtf8(self.bytes, f)
    }
}

/// Shows the text with lone surrogates as U+FFFD.
impl fmt::Display for JsStr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_utf8_lossy())
    }
}

/// The pieces of [`JsStr::split`], left to right.
#[derive(Clone, Debug)]
pub struct Split<'a, 's> {
    /// What is left to split; `None` once the last piece was given.
    rest: Option<&'a [u8]>,
    separator: &'s [u8],
}

impl<'a> Iterator for Split<'a, '_> {
    type Item = JsStr<'a>;

    fn next(&mut self) -> Option<JsStr<'a>> {
        let rest = self.rest?;
        match find_bytes(rest, self.separator, 0) {
            Some(at) => {
                self.rest = Some(&rest[at + self.separator.len()..]);
                Some(JsStr { bytes: &rest[..at] })
            }
            None => {
                self.rest = None;
                Some(JsStr { bytes: rest })
            }
        }
    }
}
