//! Canonical WTF-8, byte by byte: decoding and encoding code points, and
//! appending code units or WTF-8 text while keeping the result canonical
//! (a high surrogate followed by a low one is always one four-byte
//! character, never two three-byte sequences).

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

/// The two surrogates of a code point above U+FFFF.
pub(crate) fn surrogate_pair(code_point: u32) -> (u16, u16) {
    let offset = code_point - 0x10000;
    (
        (0xD800 + (offset >> 10)) as u16,
        (0xDC00 + (offset & 0x3FF)) as u16,
    )
}

/// How many UTF-16 code units the character whose first byte this is
/// takes: 2 for a four-byte sequence, 1 for any other first byte, 0 for a
/// continuation byte.
pub(crate) fn units_of_byte(byte: u8) -> usize {
    match byte {
        0x80..=0xBF => 0,
        0xF0..=0xFF => 2,
        _ => 1,
    }
}

/// The length in bytes of the character whose first byte this is.
pub(crate) fn char_len(first: u8) -> usize {
    match first {
        0x00..=0x7F => 1,
        0x80..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

/// How many bytes of WTF-8 are whole characters: all of them, less a last
/// character that the end cuts short.
pub(crate) fn whole_characters_len(bytes: &[u8]) -> usize {
    let last = (bytes.len().saturating_sub(4)..bytes.len())
        .rev()
        .find(|&at| bytes[at] & 0xC0 != 0x80);
    match last {
        Some(at) if at + char_len(bytes[at]) > bytes.len() => at,
        _ => bytes.len(),
    }
}

/// Decodes the code point that starts at `bytes[at]` in generalized UTF-8,
/// returning it and its length in bytes. The caller guarantees `at` is the
/// start of a sequence in valid WTF-8.
pub(crate) fn decode_at(bytes: &[u8], at: usize) -> (u32, usize) {
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

/// Where the character that ends at `end` starts (`end` is a character
/// boundary after at least one character).
pub(crate) fn char_start_before(bytes: &[u8], end: usize) -> usize {
    let mut start = end - 1;
    while start > 0 && (bytes[start] & 0xC0) == 0x80 {
        start -= 1;
    }
    start
}

/// Appends the generalized UTF-8 encoding of a code point (surrogates
/// included) without looking at what precedes it.
pub(crate) fn encode_raw(code_point: u32, out: &mut Vec<u8>) {
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
pub(crate) fn trailing_high_surrogate(bytes: &[u8]) -> Option<u32> {
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
