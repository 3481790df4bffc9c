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
//!
//! Memory: a case may hold a string of a gigabyte, and the peak is held to
//! twice its size (issue 14). So a large string is shared, as JavaScript
//! shares its immutable strings: a copy of one (an op's result that echoes
//! it, a case rewritten for a scratch directory) costs a reference count.
//! [`JsStr`] borrows a piece of a string (a line, a trimmed remainder), and
//! [`js_concat!`](crate::js_concat) reserves a message's exact length once.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

mod slice;
mod wtf8;

pub use slice::{JsStr, Split, UnitCut};
use wtf8::{decode_at, encode_raw, surrogate_pair, trailing_high_surrogate};
pub use wtf8::{is_high_surrogate, is_js_white_space, is_low_surrogate, JS_WHITE_SPACE};
pub(crate) use wtf8::{push_code_unit_to, push_wtf8_to, whole_characters_len};

/// Strings of at least this many bytes share their bytes between copies.
/// Below it a copy is cheaper than the reference count's allocation.
pub const SHARED_FROM: usize = 4096;

/// A JavaScript string: UTF-16 code units stored as canonical WTF-8.
///
/// It has no `Ord`: ordering the WTF-8 bytes is not JavaScript's order,
/// which compares UTF-16 code units (`"\u{FF61}" < "\u{1F600}"` by bytes,
/// but the pair `D83D DE00` comes before `FF61` in JavaScript). Where order
/// matters, compare [`JsString::to_utf16`].
#[derive(Clone, Default)]
pub struct JsString {
    bytes: Bytes,
}

/// A string's bytes: its own while small, shared once large. Appending to
/// a shared string copies it first only when another copy still uses it.
#[derive(Clone)]
enum Bytes {
    Own(Vec<u8>),
    Shared(Arc<Vec<u8>>),
}

impl Default for Bytes {
    fn default() -> Self {
        Bytes::Own(Vec::new())
    }
}

impl JsString {
    /// The empty string.
    #[inline]
    pub const fn new() -> Self {
        JsString {
            bytes: Bytes::Own(Vec::new()),
        }
    }

    /// An empty string with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        JsString {
            bytes: Bytes::Own(Vec::with_capacity(capacity)),
        }
    }

    /// Wraps bytes that are already canonical WTF-8: the JSON reader's and
    /// this module's, or a piece of a `JsString`'s own bytes cut at
    /// character boundaries (as `parity-diff`'s pointers and explanations
    /// cut them). Nothing is checked: other bytes make a string that
    /// compares and prints wrongly.
    #[inline]
    pub fn from_wtf8_unchecked(bytes: Vec<u8>) -> Self {
        let bytes = if bytes.len() >= SHARED_FROM {
            Bytes::Shared(Arc::new(bytes))
        } else {
            Bytes::Own(bytes)
        };
        JsString { bytes }
    }

    /// The string made of these UTF-16 code units (lone surrogates allowed).
    pub fn from_utf16(units: &[u16]) -> Self {
        let mut bytes = Vec::with_capacity(units.len());
        for &unit in units {
            push_code_unit_to(&mut bytes, unit);
        }
        JsString::from_wtf8_unchecked(bytes)
    }

    /// Moves large bytes behind a reference count, so that copies share them.
    #[inline]
    fn share_if_large(&mut self) {
        if let Bytes::Own(bytes) = &mut self.bytes {
            if bytes.len() >= SHARED_FROM {
                self.bytes = Bytes::Shared(Arc::new(std::mem::take(bytes)));
            }
        }
    }

    /// The bytes, to append to: a shared string is copied first only when
    /// another copy uses it too.
    #[inline]
    fn bytes_mut(&mut self) -> &mut Vec<u8> {
        match &mut self.bytes {
            Bytes::Own(bytes) => bytes,
            Bytes::Shared(shared) => Arc::make_mut(shared),
        }
    }

    /// Appends with `push`, then shares the bytes if they grew large.
    #[inline]
    fn append(&mut self, push: impl FnOnce(&mut Vec<u8>)) {
        push(self.bytes_mut());
        self.share_if_large();
    }

    /// The canonical WTF-8 bytes of this string.
    #[inline]
    pub fn as_wtf8(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Own(bytes) => bytes,
            Bytes::Shared(shared) => shared,
        }
    }

    /// The whole string, borrowed.
    #[inline]
    pub fn as_js_str(&self) -> JsStr<'_> {
        JsStr::from_wtf8_unchecked(self.as_wtf8())
    }

    /// A piece of this string as a string of its own: a copy, or when the
    /// piece is the whole string, this string shared.
    pub fn to_piece(&self, piece: JsStr<'_>) -> JsString {
        let whole = self.as_wtf8();
        if std::ptr::eq(piece.as_wtf8(), whole) {
            self.clone()
        } else {
            piece.to_js_string()
        }
    }

    /// The string as Rust text, when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(self.as_wtf8()).ok()
    }

    /// The string as UTF-8 with each lone surrogate replaced by U+FFFD: what
    /// Node writes when it turns a string into bytes (file names included).
    pub fn to_utf8_lossy(&self) -> Cow<'_, str> {
        self.as_js_str().to_utf8_lossy()
    }

    /// [`to_utf8_lossy`](Self::to_utf8_lossy), owned: a string with no lone
    /// surrogate is its own bytes, not copied.
    pub fn into_utf8_lossy(self) -> String {
        match self.bytes {
            // Canonical WTF-8 is UTF-8 exactly when it encodes no surrogate.
            Bytes::Own(bytes) => String::from_utf8(bytes).unwrap_or_else(|error| {
                JsString::from_wtf8_unchecked(error.into_bytes())
                    .to_utf8_lossy()
                    .into_owned()
            }),
            Bytes::Shared(_) => self.to_utf8_lossy().into_owned(),
        }
    }

    /// Whether the string has no code units.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.as_wtf8().is_empty()
    }

    /// The number of UTF-16 code units: JavaScript's `length`.
    pub fn len_utf16(&self) -> usize {
        self.as_js_str().len_utf16()
    }

    /// The UTF-16 code units of the string: two bytes a unit, so only for
    /// strings known to be short.
    pub fn to_utf16(&self) -> Vec<u16> {
        let bytes = self.as_wtf8();
        let mut units = Vec::with_capacity(bytes.len());
        let mut at = 0;
        while at < bytes.len() {
            let (code_point, width) = decode_at(bytes, at);
            at += width;
            if code_point >= 0x10000 {
                let (high, low) = surrogate_pair(code_point);
                units.push(high);
                units.push(low);
            } else {
                units.push(code_point as u16);
            }
        }
        units
    }

    /// The code unit at a UTF-16 index: JavaScript's `charCodeAt`, with
    /// `None` where JavaScript gives `NaN`.
    pub fn code_unit_at(&self, index: usize) -> Option<u16> {
        match self.as_js_str().cut_at_unit(index) {
            UnitCut::InsidePair { low, .. } => Some(low),
            UnitCut::Between(_, after) if !after.is_empty() => {
                let (code_point, _) = decode_at(after.as_wtf8(), 0);
                Some(if code_point >= 0x10000 {
                    surrogate_pair(code_point).0
                } else {
                    code_point as u16
                })
            }
            UnitCut::Between(..) => None,
        }
    }

    /// JavaScript's `slice(start, end)` for in-range, non-negative indices
    /// (clamped to the length). A pair cut in two leaves lone surrogates.
    /// Costs the slice, not the string.
    pub fn slice_utf16(&self, start: usize, end: usize) -> JsString {
        let text = self.as_js_str();
        let (head, high) = match text.cut_at_unit(end) {
            UnitCut::Between(head, _) => (head, None),
            UnitCut::InsidePair { before, high, .. } => (before, Some(high)),
        };
        // `head` holds the units before `end`, less the half pair.
        let head_units = end.min(text.len_utf16()) - usize::from(high.is_some());
        if start >= head_units + usize::from(high.is_some()) {
            return JsString::new();
        }
        let mut out = Vec::with_capacity(head.as_wtf8().len() + 6);
        match head.cut_at_unit(start) {
            UnitCut::Between(_, body) => out.extend_from_slice(body.as_wtf8()),
            UnitCut::InsidePair { low, after, .. } => {
                encode_raw(u32::from(low), &mut out);
                out.extend_from_slice(after.as_wtf8());
            }
        }
        if let Some(high) = high {
            push_code_unit_to(&mut out, high);
        }
        JsString::from_wtf8_unchecked(out)
    }

    /// Makes room for `additional` more bytes, so that appending them
    /// allocates once.
    pub fn reserve(&mut self, additional: usize) {
        self.bytes_mut().reserve(additional);
    }

    /// Appends Rust text.
    pub fn push_str(&mut self, text: &str) {
        self.append(|bytes| push_wtf8_to(bytes, text.as_bytes()));
    }

    /// Appends another JavaScript string (`a + b`).
    pub fn push_js(&mut self, other: &JsString) {
        self.push_js_str(other.as_js_str());
    }

    /// Appends a borrowed JavaScript string.
    pub fn push_js_str(&mut self, other: JsStr<'_>) {
        self.append(|bytes| push_wtf8_to(bytes, other.as_wtf8()));
    }

    /// Appends one UTF-16 code unit.
    pub fn push_code_unit(&mut self, unit: u16) {
        self.append(|bytes| push_code_unit_to(bytes, unit));
    }

    /// `startsWith` for a prefix without lone surrogates.
    pub fn starts_with(&self, prefix: &str) -> bool {
        self.as_wtf8().starts_with(prefix.as_bytes())
    }

    /// `endsWith` for a suffix without lone surrogates.
    pub fn ends_with(&self, suffix: &str) -> bool {
        self.as_wtf8().ends_with(suffix.as_bytes())
    }

    /// `startsWith` for any JavaScript string prefix.
    pub fn starts_with_js(&self, prefix: &JsString) -> bool {
        let (bytes, prefix) = (self.as_wtf8(), prefix.as_wtf8());
        if bytes.starts_with(prefix) {
            return true;
        }
        // A prefix that ends with a lone high surrogate also matches the
        // first half of a pair.
        let Some(high) = trailing_high_surrogate(prefix) else {
            return false;
        };
        let whole = &prefix[..prefix.len() - 3];
        bytes.starts_with(whole)
            && bytes.get(whole.len()).is_some_and(|&first| first >= 0xF0)
            && surrogate_pair(decode_at(bytes, whole.len()).0).0 == high as u16
    }

    /// Whether this string equals Rust text.
    #[inline]
    pub fn eq_str(&self, text: &str) -> bool {
        self.as_wtf8() == text.as_bytes()
    }

    /// Whether `needle` occurs in the string.
    pub fn contains(&self, needle: &str) -> bool {
        self.as_js_str().contains(needle)
    }

    /// JavaScript's `split(separator)` for a non-empty separator without
    /// lone surrogates, each piece copied. [`JsStr::split`] borrows them.
    pub fn split(&self, separator: &str) -> Vec<JsString> {
        self.as_js_str()
            .split(separator)
            .map(JsStr::to_js_string)
            .collect()
    }

    /// `split(from).join(to)`: every occurrence of `from` (non-empty, no
    /// lone surrogates) replaced by `to`, left to right, non-overlapping.
    /// With no occurrence it is this string, shared.
    pub fn replace_all(&self, from: &str, to: &str) -> JsString {
        let mut pieces = self.as_js_str().split(from);
        let first = pieces.next().unwrap_or_default();
        if first.as_wtf8().len() == self.as_wtf8().len() {
            return self.clone();
        }
        let mut out = Vec::with_capacity(self.as_wtf8().len());
        out.extend_from_slice(first.as_wtf8());
        for piece in pieces {
            push_wtf8_to(&mut out, to.as_bytes());
            push_wtf8_to(&mut out, piece.as_wtf8());
        }
        JsString::from_wtf8_unchecked(out)
    }

    /// [`replace_all`](Self::replace_all) where the string stands: when
    /// `to` is not empty and no longer than `from`, the bytes are
    /// rewritten in place (copied first only when another copy shares
    /// them), so that a large string is never held twice. Text between
    /// two pieces never joins them into one character, `to` being
    /// non-empty text without surrogates, so the bytes stay canonical.
    pub fn replace_all_in_place(&mut self, from: &str, to: &str) {
        if to.is_empty() || to.len() > from.len() {
            *self = self.replace_all(from, to);
            return;
        }
        let whole = self.as_wtf8();
        let base = whole.as_ptr() as usize;
        let pieces: Vec<std::ops::Range<usize>> = self
            .as_js_str()
            .split(from)
            .map(|piece| {
                let start = piece.as_wtf8().as_ptr() as usize - base;
                start..start + piece.as_wtf8().len()
            })
            .collect();
        if pieces.len() == 1 {
            return;
        }
        let bytes = self.bytes_mut();
        let mut written = 0;
        for (at, piece) in pieces.into_iter().enumerate() {
            if at > 0 {
                bytes[written..written + to.len()].copy_from_slice(to.as_bytes());
                written += to.len();
            }
            let len = piece.len();
            bytes.copy_within(piece, written);
            written += len;
        }
        bytes.truncate(written);
    }

    /// JavaScript's `trimStart` ([`JsStr::trim_start`] borrows it).
    pub fn trim_start(&self) -> JsString {
        self.to_piece(self.as_js_str().trim_start())
    }

    /// JavaScript's `trimEnd` ([`JsStr::trim_end`] borrows it).
    pub fn trim_end(&self) -> JsString {
        self.to_piece(self.as_js_str().trim_end())
    }

    /// JavaScript's `trim` ([`JsStr::trim`] borrows it).
    pub fn trim(&self) -> JsString {
        self.to_piece(self.as_js_str().trim())
    }

    /// Whether `trim` of the string would be empty.
    pub fn is_blank(&self) -> bool {
        self.as_js_str().is_blank()
    }

    /// The string after a prefix that it is known to start with (a prefix of
    /// whole characters, such as ASCII text).
    pub fn strip_prefix(&self, prefix: &str) -> Option<JsString> {
        let rest = self.as_js_str().strip_prefix(prefix)?;
        Some(self.to_piece(rest))
    }

    /// The string before a suffix of whole characters.
    pub fn strip_suffix(&self, suffix: &str) -> Option<JsString> {
        let rest = self.as_js_str().strip_suffix(suffix)?;
        Some(self.to_piece(rest))
    }

    /// The text up to the first `\n` (all of it when there is none).
    pub fn first_line(&self) -> JsString {
        self.to_piece(self.as_js_str().first_line())
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
        let bytes = self.as_wtf8();
        !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit)
    }
}

impl PartialEq for JsString {
    fn eq(&self, other: &Self) -> bool {
        self.as_wtf8() == other.as_wtf8()
    }
}

impl Eq for JsString {}

impl Hash for JsString {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_wtf8().hash(state);
    }
}

impl From<&str> for JsString {
    #[inline]
    fn from(text: &str) -> Self {
        JsString::from_wtf8_unchecked(text.as_bytes().to_vec())
    }
}

impl From<String> for JsString {
    #[inline]
    fn from(text: String) -> Self {
        JsString::from_wtf8_unchecked(text.into_bytes())
    }
}

impl From<&JsString> for JsString {
    fn from(text: &JsString) -> Self {
        text.clone()
    }
}

impl From<JsStr<'_>> for JsString {
    fn from(text: JsStr<'_>) -> Self {
        text.to_js_string()
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
        slice::debug_wtf8(self.as_wtf8(), f)
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
    /// How many bytes appending this part adds, at most: the message is
    /// reserved at its full length once.
    fn wtf8_len(&self) -> usize;
    /// Appends this part.
    fn append_to(&self, out: &mut JsString);
}

impl JsConcatPart for str {
    fn wtf8_len(&self) -> usize {
        self.len()
    }
    fn append_to(&self, out: &mut JsString) {
        out.push_str(self);
    }
}

impl JsConcatPart for String {
    fn wtf8_len(&self) -> usize {
        self.len()
    }
    fn append_to(&self, out: &mut JsString) {
        out.push_str(self);
    }
}

impl JsConcatPart for JsString {
    fn wtf8_len(&self) -> usize {
        self.as_wtf8().len()
    }
    fn append_to(&self, out: &mut JsString) {
        out.push_js(self);
    }
}

impl JsConcatPart for JsStr<'_> {
    fn wtf8_len(&self) -> usize {
        self.as_wtf8().len()
    }
    fn append_to(&self, out: &mut JsString) {
        out.push_js_str(*self);
    }
}

impl<T: JsConcatPart + ?Sized> JsConcatPart for &T {
    fn wtf8_len(&self) -> usize {
        (**self).wtf8_len()
    }
    fn append_to(&self, out: &mut JsString) {
        (**self).append_to(out);
    }
}

/// The parts one after another, in a string reserved at their length:
/// what [`js_concat!`](crate::js_concat) expands to.
pub fn concat(parts: &[&dyn JsConcatPart]) -> JsString {
    let mut out = JsString::with_capacity(parts.iter().map(|part| part.wtf8_len()).sum());
    for part in parts {
        part.append_to(&mut out);
    }
    out
}

/// Concatenates Rust text and JavaScript strings into a [`JsString`], as a
/// JavaScript template literal does: `js_concat!("unexpected argument ", arg)`.
/// Each part is evaluated once; the result is allocated once, at its length.
#[macro_export]
macro_rules! js_concat {
    ($($part:expr),+ $(,)?) => {
        // The double borrow makes every part sized (`*flag` is a `str`).
        $crate::string::concat(&[$(&&$part as &dyn $crate::string::JsConcatPart),+])
    };
}

#[cfg(test)]
mod tests;
