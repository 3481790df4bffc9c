//! Text that came from outside, made harmless for every output.
//!
//! Outside text is anything a pull request or a port controls: what a
//! case file holds (ops, names, values), file names, the ledger (reasons,
//! links, names), and the port's standard output and standard error. A
//! report can land on a terminal, in a CI log that GitHub's runner reads
//! for workflow commands, or in a pull-request comment. So every renderer
//! writes outside text through this module, never raw:
//!
//! - no raw *forbidden* character ([`is_forbidden`]): C0 controls, DEL,
//!   C1 controls, the bidi controls (the marks U+200E, U+200F and U+061C,
//!   U+202A–U+202E and U+2066–U+2069), the invisible ones (U+200B–U+200D,
//!   U+2060, the BOM U+FEFF, the tags U+E0000–U+E007F), and the
//!   separators U+2028 and U+2029;
//! - no line whose first characters after white space are `::` (GitHub's
//!   runner trims a line, then reads `::command::` from its start);
//! - no `##[` (the runner's legacy commands are found anywhere in a line).
//!
//! Two notations, one for each kind of text (docs/REPORT.md, "Outside
//! text"):
//!
//! - [`text`]: plain text (a file name, a reason, a line of stderr, and
//!   the report's sentences that quote them). Each forbidden character is
//!   `\u{HEX}` (lowercase hex, as Rust writes it: `\u{1b}`); a `\` that
//!   would otherwise start `\u{` is `\u{5c}`; the `[` of `##[` is
//!   `\u{5b}`, and the first `:` of a leading `::` is `\u{3a}`. Decoding
//!   every `\u{HEX}` gives the text back ([`decode`]); nothing else is an
//!   escape, so ordinary backslashes (`a\b.json`, JSON's `\n`) read as
//!   they are.
//! - [`json`]: text that is JSON (values, elements, JSON strings). JSON
//!   has an escape notation already, and `JSON.stringify` leaves DEL, C1,
//!   the bidi controls and U+2028/U+2029 raw: those become `\uXXXX`, as
//!   do `[` after `##` and a leading `:` of `::`, so the text is the same
//!   JSON value. Line breaks stay: a pretty-printed element is lines.
//!
//! Multi-line outside text (stderr) is shown as lines, each neutral
//! ([`lines`]), so a renderer can prefix every one.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use js_exact::JsString;

/// Whether a character never reaches an output raw: C0 controls, DEL and
/// C1 controls; the bidi marks, embeddings, overrides and isolates
/// (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which
/// reorder what a reader sees; the invisible characters (zero-width
/// space, non-joiner and joiner U+200B to U+200D, word joiner U+2060,
/// BOM U+FEFF, the tags U+E0000 to U+E007F), which make two names that
/// look alike differ, or hide text; the line and paragraph separators
/// U+2028 and U+2029.
pub fn is_forbidden(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'
            | '\u{2066}'..='\u{2069}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{feff}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// White space that the runner trims before it looks for `::` and that
/// stays raw in the output (the forbidden kinds are escaped anyway).
fn is_blank(c: char) -> bool {
    c.is_whitespace() && !is_forbidden(c)
}

/// The bytes [`is_plain`] must look at: C0, DEL, the lead bytes of C1
/// (`C2`), of U+061C (`D8`), of the bidi controls, invisible characters
/// and separators (`E2`), of the BOM (`EF`) and of the tags (`F3`), `[`
/// and `\`.
const SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[0x7f] = true;
    table[0xc2] = true;
    table[0xd8] = true;
    table[0xe2] = true;
    table[0xef] = true;
    table[0xf3] = true;
    table[b'[' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// Whether a line surely does not start `::` after white space: a line
/// that starts with a byte of a non-ASCII character (white space,
/// perhaps) is left to the slow path.
fn line_start_is_plain(line: &[u8]) -> bool {
    let first = line.iter().position(|&byte| byte != b' ');
    !matches!(
        first.map(|at| (line[at], line.get(at + 1))),
        Some((b':', Some(b':')) | (0x80.., _))
    )
}

/// Whether `text` surely needs no change, in one fast pass over its bytes
/// (every piece of a JSON report goes through here): no forbidden
/// character (C0, DEL; C1 is `C2 80`–`C2 9F` in UTF-8, the bidi controls
/// and separators `E2 80 A8`–`E2 80 AE` and `E2 81 A6`–`E2 81 A9`), no
/// `##[`, no `::` at a line's start; in plain text no LF and no `\u{`
/// either.
fn is_plain(text: &str, multiline: bool) -> bool {
    is_plain_bytes(text.as_bytes(), multiline)
}

/// [`is_plain`] over bytes: UTF-8 need not be checked first.
fn is_plain_bytes(bytes: &[u8], multiline: bool) -> bool {
    if !line_start_is_plain(bytes) {
        return false;
    }
    let mut from = 0;
    while let Some(offset) = bytes[from..].iter().position(|&b| SPECIAL[usize::from(b)]) {
        let at = from + offset;
        let next = |n: usize| bytes.get(at + n).copied();
        let plain = match bytes[at] {
            b'\n' if multiline => line_start_is_plain(&bytes[at + 1..]),
            0..=0x1f | 0x7f => false,
            0xc2 => !matches!(next(1), Some(0x80..=0x9f)),
            // U+061C.
            0xd8 => next(1) != Some(0x9c),
            // U+200B–U+200F, U+2028–U+202E; U+2060, U+2066–U+2069.
            0xe2 => !matches!(
                (next(1), next(2)),
                (Some(0x80), Some(0x8b..=0x8f | 0xa8..=0xae))
                    | (Some(0x81), Some(0xa0 | 0xa6..=0xa9))
            ),
            // U+FEFF.
            0xef => !(next(1) == Some(0xbb) && next(2) == Some(0xbf)),
            // U+E0000–U+E007F: F3 A0 80 xx and F3 A0 81 xx.
            0xf3 => !(next(1) == Some(0xa0) && matches!(next(2), Some(0x80 | 0x81))),
            b'[' => !(at >= 2 && &bytes[at - 2..at] == b"##"),
            _ => multiline || !(next(1) == Some(b'u') && next(2) == Some(b'{')),
        };
        if !plain {
            return false;
        }
        from = at + 1;
    }
    true
}

/// Outside text in the report notation, for any one-line place: a
/// forbidden character is `\u{HEX}`, a `\` before `u{` is `\u{5c}`, the
/// `[` of `##[` is `\u{5b}`, and a leading `::` (after white space) starts
/// `\u{3a}`. [`decode`] reverses it.
pub fn text(text: &str) -> Cow<'_, str> {
    text_keeping(text, |_| false)
}

/// [`text`], but the forbidden characters `keep` chooses stay raw, for a
/// writer that has an escape of its own for them (XML's character
/// references for tab, LF and CR in an attribute).
pub fn text_keeping(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if is_plain(text, false) {
        return Cow::Borrowed(text);
    }
    unchanged_or(text, escape_text(text, keep))
}

/// The text itself when escaping changed nothing: every escape is longer
/// than the character it stands for, so the same length means the same
/// text.
fn unchanged_or(text: &str, escaped: String) -> Cow<'_, str> {
    if escaped.len() == text.len() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(escaped)
    }
}

/// [`text_keeping`], character by character.
fn escape_text(text: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut at_start = true;
    for (at, c) in text.char_indices() {
        let rest = &text[at + c.len_utf8()..];
        let escape = (is_forbidden(c) && !keep(c))
            || (c == '\\' && rest.starts_with("u{"))
            || (c == '[' && text[..at].ends_with("##"))
            || (c == ':' && at_start && rest.starts_with(':'));
        if escape {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
        at_start &= is_blank(c);
    }
    out
}

/// Multi-line outside text (a port's stderr) as its lines, each in the
/// report notation ([`text`]): split at LF (a CR before it is part of the
/// line break); a lone CR stays in its line, escaped.
pub fn lines(text: &str) -> impl Iterator<Item = Cow<'_, str>> {
    text.lines().map(self::text)
}

/// Multi-line outside text as one text of neutral lines, each ending in
/// LF: for a code block, a `<pre>` or an XML element.
pub fn block(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in lines(text) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// JSON text (a value, an element, a JSON string, or an element as
/// written when it is not JSON) made neutral in JSON's notation: a
/// forbidden character but LF is `\uXXXX`, the `[` of `##[` is `\u005b`,
/// and a `:` that starts `::` at the start of a line (after white space)
/// is `\u003a`. Inside JSON strings, where all of these can only stand in
/// JSON that `JSON.stringify` wrote, the value is unchanged.
pub fn json(text: &str) -> Cow<'_, str> {
    if is_plain(text, true) {
        return Cow::Borrowed(text);
    }
    unchanged_or(text, escape_json(text))
}

/// [`json`], character by character.
fn escape_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut at_start = true;
    for (at, c) in text.char_indices() {
        let rest = &text[at + c.len_utf8()..];
        let escape = (c != '\n' && is_forbidden(c))
            || (c == '[' && text[..at].ends_with("##"))
            || (c == ':' && at_start && rest.starts_with(':'));
        if escape {
            // Beyond U+FFFF (a tag), JSON's notation is a surrogate pair.
            let mut units = [0; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{unit:04x}");
            }
        } else {
            out.push(c);
        }
        at_start = c == '\n' || (at_start && is_blank(c));
    }
    out
}

/// JSON text for a one-line place (an input, an element as written): its
/// tabs, CRs and LFs as spaces first (in JSON they stand only between
/// tokens, where a space means the same), then [`json`].
pub fn json_line(text: &str) -> Cow<'_, str> {
    if !text.contains(['\t', '\r', '\n']) {
        return json(text);
    }
    let spaced = text.replace(['\t', '\r', '\n'], " ");
    Cow::Owned(json(&spaced).into_owned())
}

/// A string as a JSON string literal, neutral ([`json`]): what
/// `JSON.stringify` writes, with the characters it leaves raw escaped.
pub fn json_string(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    json(&quoted).into_owned()
}

/// JSON bytes (a report, a summary) made neutral ([`json`]); bytes that
/// are not UTF-8 are left as they are (JSON writers here write UTF-8).
pub fn json_bytes(bytes: &[u8]) -> Cow<'_, [u8]> {
    if is_plain_bytes(bytes, true) {
        return Cow::Borrowed(bytes);
    }
    match std::str::from_utf8(bytes).map(json) {
        Ok(Cow::Owned(text)) => Cow::Owned(text.into_bytes()),
        _ => Cow::Borrowed(bytes),
    }
}

/// A JavaScript string as text, every lone surrogate written `\uXXXX` as
/// `JSON.stringify` writes it, so that two strings that differ only there
/// (`"s\ud800"`, `"s\ud801"`) stay two texts where the lossy conversion
/// would make both `s\u{fffd}`.
pub fn js_text(text: &JsString) -> Cow<'_, str> {
    if let Some(plain) = text.as_str() {
        return Cow::Borrowed(plain);
    }
    let mut out = String::new();
    for unit in char::decode_utf16(text.to_utf16()) {
        match unit {
            Ok(c) => out.push(c),
            Err(lone) => {
                let _ = write!(out, "\\u{:04x}", lone.unpaired_surrogate());
            }
        }
    }
    Cow::Owned(out)
}

/// A writer of plain text lines (progress on standard error) that
/// writes each line in the report notation ([`text`]) as it ends, for a
/// stream made only of sentences and the outside text they quote.
pub struct NeutralLines<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> NeutralLines<W> {
    /// Lines written to `inner`, each neutral.
    pub fn new(inner: W) -> Self {
        NeutralLines {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        let line = String::from_utf8_lossy(line);
        self.inner.write_all(text(&line).as_bytes())
    }
}

impl<W: Write> Write for NeutralLines<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let mut line = std::mem::take(&mut self.pending);
            line.extend_from_slice(&rest[..end]);
            self.write_line(&line)?;
            self.inner.write_all(b"\n")?;
            rest = &rest[end + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(bytes.len())
    }

    /// A line not ended yet is written as it is so far.
    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.write_line(&line)?;
        }
        self.inner.flush()
    }
}

impl<W: Write> Drop for NeutralLines<W> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

/// The most characters of a case's name a report shows; the rest is
/// counted, not printed (a 100 KB name would fill a screen and a log).
pub const NAME_CHARS: usize = 200;

/// A case's name as reports show it: a JSON string of at most
/// [`NAME_CHARS`] of its characters, then ` … (N more characters)` when
/// it was cut. Neutral in JSON's notation.
pub fn name(name: &str) -> String {
    match name.char_indices().nth(NAME_CHARS) {
        None => json_string(name),
        Some((at, _)) => format!(
            "{} … ({} more characters)",
            json_string(&name[..at]),
            name[at..].chars().count()
        ),
    }
}

/// The text [`text`] was given back from its output: every `\u{HEX}` is
/// the character U+HEX; nothing else is an escape.
pub fn decode(shown: &str) -> String {
    let mut out = String::with_capacity(shown.len());
    let mut rest = shown;
    while let Some(at) = rest.find("\\u{") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 3..];
        let decoded = after.find('}').and_then(|end| {
            let hex = &after[..end];
            let valid = (1..=6).contains(&hex.len()) && hex.bytes().all(|b| b.is_ascii_hexdigit());
            let c = valid
                .then(|| u32::from_str_radix(hex, 16).ok())
                .flatten()
                .and_then(char::from_u32)?;
            Some((c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str("\\u{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What is wrong with an output, when anything is: a forbidden character
/// other than LF (and, with `colour`, the SGR escapes `ESC [ … m` a
/// terminal report paints with), a line that starts `::` after white
/// space, or a `##[`. Tests check whole reports with it.
pub fn violation(output: &str, colour: bool) -> Option<String> {
    for (number, line) in output.split('\n').enumerate() {
        let number = number + 1;
        if line.trim_start().starts_with("::") {
            return Some(format!("line {number} starts with `::`: {line:?}"));
        }
        if line.contains("##[") {
            return Some(format!("line {number} holds `##[`: {line:?}"));
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' && colour && chars.peek() == Some(&'[') {
                chars.next();
                let sgr = chars.by_ref().find(|c| !(c.is_ascii_digit() || *c == ';'));
                if sgr == Some('m') {
                    continue;
                }
                return Some(format!(
                    "line {number}: an escape that is not SGR: {line:?}"
                ));
            }
            if is_forbidden(c) {
                return Some(format!(
                    "line {number} holds U+{:04X} raw: {line:?}",
                    c as u32
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests;
