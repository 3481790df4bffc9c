//! Where a JSON value ends, checked as serde_json checks a value it skips
//! (`IgnoredAny`, and the `RawValue` each element of a result array is
//! read as): the grammar of RFC 8259, no UTF-8 check (the callers make
//! the one they need), in one pass and with no set-up per call. A
//! corpus's cases and a golden's elements are a few dozen bytes each,
//! and serde_json's set-up and end checks were most of the plan's pass
//! over a case file and of the golden's check (issue 23).
//!
//! It answers only "valid, and it ends here". Anything else (a fault, a
//! value cut short by the end of the bytes, nesting past 128 levels) is
//! `None`, and the caller asks serde_json, whose answer and whose words
//! stand. So it must never accept what serde_json refuses: the tests hold
//! it to that, and to accepting what serde_json writes.

/// How deep nesting is followed; a deeper value is serde_json's to read.
const DEPTH: u32 = 128;

/// Where the JSON value whose first byte is at `at` ends (just past its
/// last byte), when `bytes` hold all of it and it is valid; `None`
/// otherwise. A number or a literal ends at the first byte that cannot
/// go on it, or at the end of `bytes`: what may follow it is the
/// caller's to check.
pub fn value_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    // One bit per open container, the innermost lowest: 1 for an object.
    let mut objects: u128 = 0;
    let mut depth: u32 = 0;
    loop {
        match *bytes.get(at)? {
            b'"' => at = string_end(bytes, at + 1)?,
            open @ (b'{' | b'[') => {
                if depth == DEPTH {
                    return None;
                }
                let object = open == b'{';
                objects = objects << 1 | u128::from(object);
                depth += 1;
                at = space(bytes, at + 1);
                let close = if object { b'}' } else { b']' };
                if *bytes.get(at)? == close {
                    at += 1;
                    objects >>= 1;
                    depth -= 1;
                } else {
                    if object {
                        at = member_value(bytes, at)?;
                    }
                    continue;
                }
            }
            b't' => at = literal(bytes, at, b"true")?,
            b'f' => at = literal(bytes, at, b"false")?,
            b'n' => at = literal(bytes, at, b"null")?,
            b'-' | b'0'..=b'9' => at = number_end(bytes, at)?,
            _ => return None,
        }
        // After a value: close what it ends, or on to the next one.
        loop {
            if depth == 0 {
                return Some(at);
            }
            at = space(bytes, at);
            let object = objects & 1 == 1;
            match *bytes.get(at)? {
                b',' => {
                    at = space(bytes, at + 1);
                    if object {
                        at = member_value(bytes, at)?;
                    }
                    break;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            at += 1;
            objects >>= 1;
            depth -= 1;
        }
    }
}

/// The first position at or after `at` that is not JSON white space.
pub fn space(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at += 1;
    }
    at
}

/// Past a member's key and its `:`, from the key's opening quote at
/// `at`: where the member's value starts.
fn member_value(bytes: &[u8], at: usize) -> Option<usize> {
    if *bytes.get(at)? != b'"' {
        return None;
    }
    let at = space(bytes, string_end(bytes, at + 1)?);
    if *bytes.get(at)? != b':' {
        return None;
    }
    Some(space(bytes, at + 1))
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any of the eight bytes in `word` is below `n` (`n` ≤ 128):
/// exact, since only such a byte starts a borrow.
fn any_below(word: u64, n: u8) -> bool {
    word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS != 0
}

/// Whether any of the eight bytes in `word` ends a string's run of plain
/// bytes: a quote, a backslash, or a control character.
fn any_special(word: u64) -> bool {
    any_below(word, 0x20)
        || any_below(word ^ (ONES * u64::from(b'"')), 1)
        || any_below(word ^ (ONES * u64::from(b'\\')), 1)
}

/// Just past the string whose body starts at `at` (after its opening
/// quote), when it is whole and valid: no control character, and every
/// escape one of JSON's (a `\u` with any four hex digits, as serde_json
/// skips it).
pub fn string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        // Eight plain bytes at a time: most of a string.
        while let Some(word) = bytes.get(at..at + 8) {
            let word = u64::from_le_bytes(word.try_into().ok()?);
            if any_special(word) {
                break;
            }
            at += 8;
        }
        match *bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => match *bytes.get(at + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => at += 2,
                b'u' => {
                    let digits = bytes.get(at + 2..at + 6)?;
                    if !digits.iter().all(u8::is_ascii_hexdigit) {
                        return None;
                    }
                    at += 6;
                }
                _ => return None,
            },
            byte if byte < 0x20 => return None,
            _ => at += 1,
        }
    }
}

/// Past `word`, when it stands at `at`.
fn literal(bytes: &[u8], at: usize, word: &[u8]) -> Option<usize> {
    let end = at + word.len();
    (bytes.get(at..end)? == word).then_some(end)
}

/// Past the digits from `at`.
fn digits(bytes: &[u8], mut at: usize) -> usize {
    while bytes.get(at).is_some_and(u8::is_ascii_digit) {
        at += 1;
    }
    at
}

/// Past the number at `at`: `-`, an integer with no leading zero, an
/// optional fraction and an optional exponent, each with a digit at
/// least. A digit after a leading `0` ends the number there, for the
/// caller to find out of place (as serde_json refuses `01`).
fn number_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    if bytes[at] == b'-' {
        at += 1;
    }
    match *bytes.get(at)? {
        b'0' => at += 1,
        b'1'..=b'9' => at = digits(bytes, at + 1),
        _ => return None,
    }
    if bytes.get(at) == Some(&b'.') {
        let end = digits(bytes, at + 1);
        if end == at + 1 {
            return None;
        }
        at = end;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let end = digits(bytes, at);
        if end == at {
            return None;
        }
        at = end;
    }
    Some(at)
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
