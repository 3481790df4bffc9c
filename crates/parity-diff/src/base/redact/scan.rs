//! The documented token patterns, found in text: what redaction falls back
//! on where no value can be read (a case file that does not parse, an
//! oracle's stderr), and what it looks for inside the strings of values
//! it can read (`NAME_TOKEN=…` in a message, JSON text in a string).
//!
//! Two passes over the text, both linear:
//! - [`free_text`]: `NAME=V`, `name: V` (`Authorization: Bearer V`),
//!   `--flag V`, `Bearer V` and `scheme://user:V@host`;
//! - [`structure`]: JSON as far as it can be read, leniently (a trailing
//!   comma, a cut text, text around it): a string member under a
//!   secret-named key, or the strings of an array there; the string after
//!   a secret flag; and the inside of every string holding escapes, which
//!   is where JSON text held in a string (a flag's JSON value, a config
//!   passed as text) shows its members.

use super::names::{is_authorization, is_secret_flag, is_secret_name};

/// How many levels of JSON text held in a string are followed.
const MAX_NESTING: usize = 4;

/// The longest value a pattern takes (a PEM private key fits).
const MAX_VALUE: usize = 16 * 1024;

/// The authentication schemes that may stand between `Authorization:`
/// and the credentials.
const SCHEMES: [&str; 6] = ["bearer", "basic", "token", "digest", "negotiate", "apikey"];

/// Pushes onto `found` every secret the patterns find in `text`.
pub(super) fn scan_text(text: &str, found: &mut Vec<String>) {
    scan_at(text, 0, found);
}

fn scan_at(text: &str, depth: usize, found: &mut Vec<String>) {
    // Every pattern needs one of these between a name and its value;
    // most strings of a result (`--cwd`, `/home/x`, `pub-r`) have none.
    let separated = text.bytes().any(|byte| {
        matches!(
            byte,
            b'=' | b':' | b'"' | b'\'' | b',' | b'\\' | b' ' | b'\t'
        )
    });
    if !separated {
        return;
    }
    free_text(text, found);
    if text.contains('"') {
        structure(text, depth, found);
    }
}

/// Bytes that end an unquoted value.
fn ends_value(byte: u8) -> bool {
    byte.is_ascii_whitespace()
        || matches!(
            byte,
            b'"' | b'\''
                | b'\\'
                | b'&'
                | b';'
                | b','
                | b'('
                | b')'
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'<'
                | b'>'
                | b'`'
                | b'|'
        )
}

/// Bytes of a name: `LINZUMI_RUNNER_TOKEN`, `--private-key`, `x.api_key`.
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'-' | b'.')
}

/// Whether a word may start at `at`: nothing of a name stands before it.
fn starts_word(bytes: &[u8], at: usize) -> bool {
    at == 0 || !is_name_byte(bytes[at - 1])
}

/// Where a value starting at `start` ends, and whether it was quoted: a
/// quoted value runs to its closing quote (or to a backslash, which
/// closes an escaped quote in JSON held in a string), an unquoted one to
/// the first byte of [`ends_value`], less a full stop or colon ending a
/// sentence. `None` when the value is empty.
fn value_at(text: &str, start: usize) -> Option<(usize, usize, bool)> {
    let bytes = text.as_bytes();
    let (start, quote) = match bytes.get(start) {
        Some(&b'\\') if matches!(bytes.get(start + 1), Some(&b'"')) => (start + 2, Some(b'"')),
        Some(&quote @ (b'"' | b'\'')) => (start + 1, Some(quote)),
        _ => (start, None),
    };
    let limit = bytes.len().min(start.saturating_add(MAX_VALUE));
    let mut end = start;
    while end < limit {
        let byte = bytes[end];
        let stop = match quote {
            Some(quote) => byte == quote || byte == b'\\' || byte == b'\n',
            None => ends_value(byte),
        };
        if stop {
            break;
        }
        end += 1;
    }
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if quote.is_none() {
        while end > start && matches!(bytes[end - 1], b'.' | b':' | b'!' | b'?') {
            end -= 1;
        }
    }
    (end > start).then_some((start, end, quote.is_some()))
}

/// Whether an unquoted word after `--token ` or `token: ` looks like a
/// credential rather than prose (`option --token requires a value`): it
/// holds a digit, a symbol tokens are made of, or a capital past its
/// first letter, and it is not a number.
fn looks_like_token(value: &str) -> bool {
    let number = value
        .bytes()
        .all(|byte| byte.is_ascii_digit() || matches!(byte, b'.' | b'-' | b'+' | b'e' | b'E'));
    !number
        && (value.bytes().any(|byte| {
            byte.is_ascii_digit() || matches!(byte, b'-' | b'_' | b'.' | b'/' | b'+' | b'=' | b'~')
        }) || value.chars().skip(1).any(char::is_uppercase))
}

/// The free-text patterns, in one pass. Each pattern that takes a value
/// resumes the scan after it, so that the scan stays linear.
fn free_text(text: &str, found: &mut Vec<String>) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let taken = match bytes[at] {
            b'=' => assignment(text, at, found),
            b':' => userinfo(text, at, found).or_else(|| header(text, at, found)),
            b'-' if starts_word(bytes, at) => flag(text, at, found),
            b'b' | b'B' if starts_word(bytes, at) => bearer(text, at, found),
            _ => None,
        };
        at = taken.filter(|&end| end > at).unwrap_or(at + 1);
    }
}

/// `NAME=V` where the name is secret-named or a secret flag:
/// `LINZUMI_RUNNER_TOKEN=V`, `--auth=V`, `-t=V`, `?access_token=V&`.
fn assignment(text: &str, at: usize, found: &mut Vec<String>) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut start = at;
    while start > 0 && is_name_byte(bytes[start - 1]) {
        start -= 1;
    }
    let name = &text[start..at];
    let secret = if name.starts_with('-') {
        is_secret_flag(name)
    } else {
        is_secret_name(name)
    };
    if !secret {
        return None;
    }
    let (mut from, mut to, _) = value_at(text, at + 1)?;
    if let Some(rest) = after_scheme(text, from, to) {
        (from, to) = rest;
    }
    found.push(text[from..to].to_owned());
    Some(to)
}

/// `scheme://user:V@host`: the password of a URL's userinfo.
fn userinfo(text: &str, at: usize, found: &mut Vec<String>) -> Option<usize> {
    let bytes = text.as_bytes();
    if !bytes[at..].starts_with(b"://") {
        return None;
    }
    let mut start = at + 3;
    let mut end = start;
    let mut colon = None;
    while end < bytes.len() && end - start <= MAX_VALUE {
        match bytes[end] {
            b'@' => break,
            b':' if colon.is_none() => colon = Some(end),
            byte if byte == b'/' || byte == b'?' || byte == b'#' || ends_value(byte) => {
                return None
            }
            _ => {}
        }
        end += 1;
    }
    if bytes.get(end) != Some(&b'@') {
        return None;
    }
    start = colon? + 1;
    if end > start {
        found.push(text[start..end].to_owned());
    }
    Some(end)
}

/// `name: V` where the name is secret-named, quoted or not:
/// `Authorization: Bearer V`, `'token': 'V'`, `X-Api-Key: V`. An
/// `Authorization` value is taken whatever it looks like; another
/// unquoted value only when it [looks like a token](looks_like_token).
fn header(text: &str, at: usize, found: &mut Vec<String>) -> Option<usize> {
    let bytes = text.as_bytes();
    // Step back over the quotes that close a quoted name.
    let mut name_end = at;
    while name_end > 0
        && at - name_end < 4
        && matches!(bytes[name_end - 1], b'"' | b'\'' | b'\\' | b' ')
    {
        name_end -= 1;
    }
    let mut start = name_end;
    while start > 0 && is_name_byte(bytes[start - 1]) {
        start -= 1;
    }
    // A name in JSON quotes is a member's: [`structure`] reads those.
    let json_key = bytes.get(name_end) == Some(&b'"');
    let name = &text[start..name_end];
    if json_key || name.is_empty() || !is_secret_name(name) {
        return None;
    }
    let mut from = at + 1;
    while from < bytes.len() && matches!(bytes[from], b' ' | b'\t') {
        from += 1;
    }
    let (mut value_from, mut value_to, quoted) = value_at(text, from)?;
    if let Some(rest) = after_scheme(text, value_from, value_to) {
        (value_from, value_to) = rest;
    } else if is_scheme(&text[value_from..value_to]) {
        // `Authorization: Bearer` and nothing after it.
        return None;
    }
    let value = &text[value_from..value_to];
    if quoted || is_authorization(name) || looks_like_token(value) {
        found.push(value.to_owned());
    }
    // Resume after the value even when it is prose: it holds no pattern
    // of its own, and rescanning it from every colon would be quadratic.
    Some(value_to)
}

fn is_scheme(word: &str) -> bool {
    SCHEMES
        .iter()
        .any(|scheme| word.eq_ignore_ascii_case(scheme))
}

/// The credentials after an authentication scheme (`Bearer V`), when the
/// value at `from..to` is a scheme followed by spaces and more.
fn after_scheme(text: &str, from: usize, to: usize) -> Option<(usize, usize)> {
    if !is_scheme(&text[from..to]) {
        return None;
    }
    let bytes = text.as_bytes();
    let mut next = to;
    while next < bytes.len() && matches!(bytes[next], b' ' | b'\t') {
        next += 1;
    }
    if next == to {
        return None;
    }
    let (start, end, _) = value_at(text, next)?;
    Some((start, end))
}

/// `--flag V` where the flag is a secret flag (`--token`, `--bearer`,
/// `-t`, `--private-key`), the value after spaces or, as in a JSON
/// argv, after `", "`. An unquoted value that does not look like a token
/// is prose (`option --token requires a value`) and is left alone.
fn flag(text: &str, at: usize, found: &mut Vec<String>) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = at;
    while end < bytes.len()
        && (bytes[end].is_ascii_alphanumeric() || matches!(bytes[end], b'-' | b'_'))
    {
        end += 1;
    }
    if !is_secret_flag(&text[at..end]) {
        return None;
    }
    let mut from = end;
    while from < bytes.len() && matches!(bytes[from], b' ' | b'\t' | b'"' | b'\'' | b',' | b'\\') {
        from += 1;
    }
    if from == end || bytes.get(from) == Some(&b'-') {
        return None;
    }
    let quoted = matches!(bytes[from - 1], b'"' | b'\'');
    let (value_from, value_to, _) = value_at(text, from - usize::from(quoted))?;
    let value = &text[value_from..value_to];
    if quoted || looks_like_token(value) {
        found.push(value.to_owned());
    }
    Some(value_to)
}

/// `Bearer V` on its own, V looking like a token.
fn bearer(text: &str, at: usize, found: &mut Vec<String>) -> Option<usize> {
    let word = text.as_bytes().get(at..at + 6)?;
    if !word.eq_ignore_ascii_case(b"bearer") {
        return None;
    }
    let (from, to) = after_scheme(text, at, at + 6)?;
    let value = &text[from..to];
    if looks_like_token(value) {
        found.push(value.to_owned());
    }
    Some(to)
}

/// The credentials of `Bearer V` (any scheme of [`SCHEMES`], any case),
/// found whole under a secret-named key or after `Authorization:`.
pub(super) fn credentials(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim().split_once(char::is_whitespace)?;
    is_scheme(scheme).then(|| rest.trim())
}

/// The structural rules over JSON read leniently: a string after a
/// secret-named key and `:`, the strings of an array there, the string
/// after a secret flag (with or without a comma between), and the inside
/// of every string holding escapes, scanned again one level down.
fn structure(text: &str, depth: usize, found: &mut Vec<String>) {
    let bytes = text.as_bytes();
    // What the tokens just read make of the next string.
    let mut last_key_secret = false;
    let mut after_secret_key = false;
    let mut in_secret_array = false;
    let mut after_secret_flag = false;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let (raw, next) = literal(text, at + 1);
                let escaped = raw.contains('\\');
                let decoded = if escaped {
                    std::borrow::Cow::Owned(unescape(raw))
                } else {
                    std::borrow::Cow::Borrowed(raw)
                };
                if after_secret_key || in_secret_array || after_secret_flag {
                    found.push(decoded.clone().into_owned());
                }
                if escaped && depth < MAX_NESTING {
                    scan_at(&decoded, depth + 1, found);
                }
                // Only a key (a string before `:`) needs its name read.
                let colon_next = bytes[next.min(bytes.len())..]
                    .iter()
                    .find(|byte| !byte.is_ascii_whitespace())
                    == Some(&b':');
                last_key_secret = colon_next && is_secret_name(&decoded);
                after_secret_flag =
                    decoded.starts_with('-') && !decoded.contains('=') && is_secret_flag(&decoded);
                after_secret_key = false;
                at = next;
                continue;
            }
            b':' => {
                after_secret_key = last_key_secret;
                after_secret_flag = false;
            }
            b',' => after_secret_key = false,
            b'[' => {
                in_secret_array = after_secret_key;
                after_secret_key = false;
                after_secret_flag = false;
            }
            byte if byte.is_ascii_whitespace() => {
                at += 1;
                continue;
            }
            _ => {
                // `]`, `{`, `}`, a number, a word: the run is broken.
                in_secret_array = false;
                after_secret_key = false;
                after_secret_flag = false;
            }
        }
        last_key_secret = false;
        at += 1;
    }
}

/// The raw inside of a string literal that starts at `start` (after its
/// opening quote), and where scanning goes on. An unclosed literal runs
/// to the end of the text, as in a cut text.
fn literal(text: &str, start: usize) -> (&str, usize) {
    let bytes = text.as_bytes();
    let mut end = start;
    while end < bytes.len() && bytes[end] != b'"' {
        end += if bytes[end] == b'\\' { 2 } else { 1 };
    }
    let end = end.min(bytes.len());
    // A backslash before a multi-byte character can step inside it.
    let mut cut = end;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    (&text[start..cut], end + 1)
}

/// A JSON string literal's inside, its escapes decoded; an escape that is
/// not JSON is kept as written, and a lone surrogate becomes U+FFFD.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('/') => out.push('/'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let rest = chars.as_str();
                let Some(high) = hex4(rest) else {
                    out.push_str("\\u");
                    continue;
                };
                chars = rest[4..].chars();
                if (0xD800..0xDC00).contains(&high) {
                    let low = chars.as_str().strip_prefix("\\u").and_then(hex4);
                    if let Some(low @ 0xDC00..=0xDFFF) = low {
                        chars = chars.as_str()[6..].chars();
                        let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                        out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        continue;
                    }
                }
                out.push(char::from_u32(high).unwrap_or('\u{FFFD}'));
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn hex4(text: &str) -> Option<u32> {
    let digits = text.get(..4)?;
    if !digits.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}
