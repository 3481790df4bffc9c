//! Stable names for cases and results, so that CI history, ledgers and
//! run deltas survive edits elsewhere in a corpus.
//!
//! A case is known by its case file (the path relative to the cases
//! directory, `/` between components) and its `name`. A case without a
//! string `name` (a non-object case, say) is known by its file and a short
//! hash of its raw bytes, so that inserting another case before it does
//! not rename it. Positions are never part of an identity.
//!
//! File names are bytes, and identities are text: [`name_of_bytes`]
//! writes a name's bytes as they are where they are UTF-8, and each byte
//! that is not as `\x` and two lowercase hex digits (docs/LEDGER.md, "File
//! names", says why this cannot collide with a real name).
//!
//! Hashes are FNV-1a over bytes: stable across platforms, versions and
//! runs (unlike std's `DefaultHasher`), and fast enough to run on every
//! case. They are names, not security: nothing trusts them.

use std::fmt;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use js_exact::{JsString, Value};

/// FNV-1a, 64 bits.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash = Fnv1a::new();
    for (position, part) in parts.iter().enumerate() {
        if position > 0 {
            // A separator that no part's length can imitate: "ab"+"c"
            // and "a"+"bc" must not collide.
            hash.update(&(part.len() as u64).to_le_bytes());
        }
        hash.update(part);
    }
    hash.finish()
}

/// FNV-1a over bytes that arrive in pieces (a file read in chunks): the
/// same hash as [`fnv1a`] of one part holding them all.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a::new()
    }
}

impl Fnv1a {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// Nothing hashed yet.
    pub fn new() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    /// Hashes more bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A reader that hashes (FNV-1a) every byte read through it, so that a
/// file is hashed on the same pass that splits it
/// ([`ElementReader`](crate::judge::scan::ElementReader)), never read twice.
#[derive(Debug)]
pub struct HashingReader<R> {
    inner: R,
    hash: Fnv1a,
}

impl<R: Read> HashingReader<R> {
    /// Hashes what is read from `inner`.
    pub fn new(inner: R) -> Self {
        HashingReader {
            inner,
            hash: Fnv1a::new(),
        }
    }

    /// Reads what is left, and returns the hash of every byte.
    pub fn finish(mut self) -> io::Result<u64> {
        // Large reads: a file's hash is one pass over it (issue 23).
        let mut chunk = vec![0; 256 * 1024];
        loop {
            match self.read(&mut chunk) {
                Ok(0) => return Ok(self.hash.finish()),
                Ok(_) => {}
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.hash.update(&buf[..read]);
        Ok(read)
    }
}

/// The short hash that names a case without a name: 12 hex digits of the
/// FNV-1a hash of its raw bytes.
pub fn short_hash(bytes: &[u8]) -> String {
    // `format!("{:012x}")` of the 48 bits kept, without the formatter:
    // every unnamed case of a run is hashed.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = fnv1a(&[bytes]) >> 16;
    let mut digits = [0u8; 12];
    for (at, digit) in digits.iter_mut().enumerate() {
        *digit = HEX[(hash >> (4 * (11 - at))) as usize & 0xf];
    }
    digits
        .iter()
        .map(|&digit| char::from(digit))
        .collect::<String>()
}

/// The fingerprint of a divergence: 16 hex digits hashing the golden's
/// and the actual element's bytes, so that any change of form is seen.
/// An absent side (a missing or extra case) hashes differently from any
/// present one.
pub fn fingerprint(golden: Option<&[u8]>, actual: Option<&[u8]>) -> String {
    let tag = |side: Option<&[u8]>| -> &'static [u8] {
        if side.is_some() {
            b"+"
        } else {
            b"-"
        }
    };
    format!(
        "{:016x}",
        fnv1a(&[
            tag(golden),
            golden.unwrap_or_default(),
            tag(actual),
            actual.unwrap_or_default(),
        ])
    )
}

/// What names a case within its file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CaseKey {
    /// The case's `name` member (a lone surrogate as the six characters
    /// `\ud800`, [`outside::js_text`], so that names differing there
    /// stay distinct).
    ///
    /// [`outside::js_text`]: crate::base::outside::js_text
    Name(String),
    /// The [`short_hash`] of the case's raw bytes, for a case without a
    /// string `name`.
    Hash(String),
}

/// A case's identity: its file and its key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CaseId {
    /// The case file, relative to the cases directory.
    pub file: String,
    /// The case within it.
    pub key: CaseKey,
}

impl CaseId {
    /// The identity of a case read from `file`, given its raw bytes and
    /// its value (when it could be read).
    pub fn of(file: &str, raw: &[u8], case: Option<&Value>) -> Self {
        let name = case
            .map(|case| case.get("name"))
            .and_then(Value::as_js_string);
        CaseId::named(file, raw, name)
    }

    /// The identity of a case read from `file`, given its raw bytes and
    /// its `name` member, when that is a string.
    pub fn named(file: &str, raw: &[u8], name: Option<&JsString>) -> Self {
        let name = name.map(|name| crate::base::outside::js_text(name).into_owned());
        CaseId {
            file: file.to_owned(),
            key: match name {
                Some(name) => CaseKey::Name(name),
                None => CaseKey::Hash(short_hash(raw)),
            },
        }
    }

    /// The key alone, as reports and ledgers write it: the name as a JSON
    /// string (with the characters `JSON.stringify` leaves raw escaped,
    /// [`outside::json_string`]), or `#` and the hash.
    ///
    /// [`outside::json_string`]: crate::base::outside::json_string
    pub fn key_text(&self) -> String {
        match &self.key {
            CaseKey::Name(name) => crate::base::outside::json_string(name),
            CaseKey::Hash(hash) => format!("#{hash}"),
        }
    }
}

impl CaseId {
    /// [`Display`](fmt::Display)'s text with a long name cut
    /// ([`outside::name`](crate::base::outside::name)): for a report's names,
    /// not for identities read back. Still outside text (the file).
    pub fn shown(&self) -> String {
        match &self.key {
            CaseKey::Name(name) => format!("{} {}", self.file, crate::base::outside::name(name)),
            CaseKey::Hash(_) => self.to_string(),
        }
    }

    /// The identity as reports print it (`argv.json "name"`), neutral:
    /// the file in the report notation, the key (a JSON string, cut as
    /// [`outside::name`](crate::base::outside::name) cuts it, or `#` and a
    /// hash) in JSON's.
    pub fn neutral(&self) -> String {
        use crate::base::outside;
        let key = match &self.key {
            CaseKey::Name(key) => outside::name(key),
            CaseKey::Hash(_) => outside::json(&self.key_text()).into_owned(),
        };
        format!("{} {key}", outside::text(&self.file))
    }
}

impl fmt::Display for CaseId {
    /// `sums.json "sum: no values"`, or `sums.json #3fa2c91b0d7e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.file, self.key_text())
    }
}

/// One piece of a name being written: a character that is there as it
/// is, or a byte that is not UTF-8.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    Char(char),
    Byte(u8),
}

/// Whether `pieces` start with what reads back as an escaped byte: one,
/// or the text `x` and two lowercase hex digits from `80` to `ff`.
fn reads_as_escape(pieces: &[Piece]) -> bool {
    match pieces {
        [Piece::Byte(_), ..] => true,
        [Piece::Char('x'), Piece::Char(high), Piece::Char(low), ..] => {
            matches!(high, '8'..='9' | 'a'..='f') && matches!(low, '0'..='9' | 'a'..='f')
        }
        _ => false,
    }
}

/// A name's bytes as text that says them all: UTF-8 as it is, each byte
/// that is not UTF-8 (always 0x80 or above) as `\xhh`. So that no real
/// name reads like an escaped one, a run of backslashes directly before
/// what would read as an escape is doubled; every other backslash stays
/// single. A name that is UTF-8 and holds no backslash before `x8`…`xf`
/// and a hex digit (every name in practice) is its own text.
pub fn name_of_bytes(bytes: &[u8]) -> String {
    if let Ok(text) = std::str::from_utf8(bytes) {
        if !text.contains('\\') {
            return text.to_owned();
        }
    }
    let mut pieces = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        pieces.extend(chunk.valid().chars().map(Piece::Char));
        pieces.extend(chunk.invalid().iter().copied().map(Piece::Byte));
    }
    let mut text = String::with_capacity(bytes.len());
    let mut at = 0;
    while at < pieces.len() {
        match pieces[at] {
            Piece::Char('\\') => {
                let run = pieces[at..]
                    .iter()
                    .take_while(|piece| **piece == Piece::Char('\\'))
                    .count();
                let doubled = if reads_as_escape(&pieces[at + run..]) {
                    2
                } else {
                    1
                };
                text.extend(std::iter::repeat_n('\\', run * doubled));
                at += run;
            }
            Piece::Char(c) => {
                text.push(c);
                at += 1;
            }
            Piece::Byte(byte) => {
                text.push_str(&format!("\\x{byte:02x}"));
                at += 1;
            }
        }
    }
    text
}

/// A case file's name in identities: its path relative to the cases (or
/// golden) directory, `/` between components, as [`name_of_bytes`]
/// writes it.
pub fn relative_name(relative: &Path) -> String {
    let mut bytes = Vec::new();
    for (at, part) in relative.components().enumerate() {
        if at > 0 {
            bytes.push(b'/');
        }
        bytes.extend_from_slice(part.as_os_str().as_bytes());
    }
    name_of_bytes(&bytes)
}

/// A path as reports show it: like [`Path::display`], but with the bytes
/// that are not UTF-8 escaped as in names, not all made U+FFFD.
pub fn path_text(path: &Path) -> String {
    name_of_bytes(path.as_os_str().as_bytes())
}

/// The identity of a case whose case file is unknown: its position.
pub fn position_id(file: &str, index: usize) -> CaseId {
    CaseId {
        file: file.to_owned(),
        key: CaseKey::Hash(index.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::{self as js, TextMode};

    fn value(text: &str) -> Value {
        js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    #[test]
    fn a_short_hash_is_the_hash_s_top_48_bits_in_12_hex_digits() {
        for bytes in [&b""[..], b"a", b"foobar", b"[1,2]", &[0xff; 40]] {
            assert_eq!(short_hash(bytes), format!("{:012x}", fnv1a(&[bytes]) >> 16));
        }
        assert_eq!(short_hash(b"foobar"), "85944171f739");
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a(&[b""]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(&[b"a"]), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(&[b"foobar"]), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn hashing_in_pieces_is_hashing_the_whole() {
        let mut hash = Fnv1a::new();
        hash.update(b"foo");
        hash.update(b"");
        hash.update(b"bar");
        assert_eq!(hash.finish(), fnv1a(&[b"foobar"]));
        assert_eq!(Fnv1a::default().finish(), fnv1a(&[b""]));
    }

    #[test]
    fn a_hashing_reader_hashes_what_was_read_and_what_is_left() {
        let bytes = "x".repeat(200_000);
        let mut reader = HashingReader::new(bytes.as_bytes());
        let mut start = [0; 7];
        reader.read_exact(&mut start).unwrap();
        assert_eq!(reader.finish().unwrap(), fnv1a(&[bytes.as_bytes()]));
        assert_eq!(
            HashingReader::new(&b""[..]).finish().unwrap(),
            fnv1a(&[b""])
        );
    }

    #[test]
    fn parts_do_not_run_together() {
        assert_ne!(fnv1a(&[b"ab", b"c"]), fnv1a(&[b"a", b"bc"]));
        assert_ne!(fingerprint(Some(b"1"), None), fingerprint(None, Some(b"1")));
        assert_ne!(fingerprint(Some(b""), None), fingerprint(None, None));
        assert_eq!(fingerprint(Some(b"1"), Some(b"2")).len(), 16);
    }

    #[test]
    fn named_cases_are_known_by_name_and_others_by_their_bytes() {
        let raw = br#"{"op":"x","name":"a \"b\""}"#;
        let id = CaseId::of(
            "argv.json",
            raw,
            Some(&value(std::str::from_utf8(raw).unwrap())),
        );
        assert_eq!(id.key, CaseKey::Name("a \"b\"".into()));
        assert_eq!(id.to_string(), r#"argv.json "a \"b\"""#);

        let raw = b"[1,2]";
        let id = CaseId::of("sub/x.json", raw, Some(&value("[1,2]")));
        assert_eq!(id.key, CaseKey::Hash(short_hash(raw)));
        assert_eq!(id.to_string(), format!("sub/x.json #{}", short_hash(raw)));
        assert_eq!(short_hash(raw).len(), 12);

        // A name that is not a string does not name the case.
        let raw = br#"{"op":"x","name":7}"#;
        let id = CaseId::of(
            "a.json",
            raw,
            Some(&value(std::str::from_utf8(raw).unwrap())),
        );
        assert!(matches!(id.key, CaseKey::Hash(_)));
        // Nor does a case that could not be read.
        assert!(matches!(
            CaseId::of("a.json", b"{", None).key,
            CaseKey::Hash(_)
        ));
    }

    #[test]
    fn the_same_bytes_get_the_same_hash_wherever_they_stand() {
        let a = CaseId::of("f.json", b"null", None);
        let b = CaseId::of("f.json", b"null", None);
        assert_eq!(a, b);
        assert_ne!(a, CaseId::of("f.json", b"0", None));
    }

    /// The reader of [`name_of_bytes`]'s text, here to show it is
    /// reversible: a run of n backslashes before `x` and two hex digits
    /// from 80 to ff is n/2 backslashes and that text when n is even, and
    /// (n-1)/2 backslashes and the byte when n is odd; any other run is
    /// itself.
    fn bytes_of_name(text: &str) -> Vec<u8> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            if bytes[at] != b'\\' {
                out.push(bytes[at]);
                at += 1;
                continue;
            }
            let run = bytes[at..].iter().take_while(|&&b| b == b'\\').count();
            at += run;
            let hex = |b: u8| matches!(b, b'0'..=b'9' | b'a'..=b'f');
            let escape = bytes.get(at) == Some(&b'x')
                && bytes
                    .get(at + 1)
                    .is_some_and(|&b| matches!(b, b'8'..=b'9' | b'a'..=b'f'))
                && bytes.get(at + 2).is_some_and(|&b| hex(b));
            if !escape {
                out.extend(std::iter::repeat_n(b'\\', run));
                continue;
            }
            out.extend(std::iter::repeat_n(b'\\', run / 2));
            if run % 2 == 1 {
                let digits = std::str::from_utf8(&bytes[at + 1..at + 3]).unwrap();
                out.push(u8::from_str_radix(digits, 16).unwrap());
                at += 3;
            }
        }
        out
    }

    #[test]
    fn names_that_are_not_utf8_stay_distinct_and_utf8_names_stay_as_they_are() {
        assert_eq!(name_of_bytes(b"a\xff.json"), r"a\xff.json");
        assert_eq!(name_of_bytes(b"a\xfe.json"), r"a\xfe.json");
        // A real name that reads like an escape has its backslash doubled.
        assert_eq!(name_of_bytes(br"a\xff.json"), r"a\\xff.json");
        assert_eq!(name_of_bytes(b"a\\\xff.json"), r"a\\\xff.json");
        assert_eq!(name_of_bytes(br"a\\xff.json"), r"a\\\\xff.json");
        // Every other name, backslashes and all, is its own text.
        for name in [
            "argv.json",
            "sub/é 名.json",
            r"a\b.json",
            r"a\x41.json",
            r"a\xFF",
            r"\\",
            r"x\",
        ] {
            assert_eq!(name_of_bytes(name.as_bytes()), name);
        }
        // A sequence that is not UTF-8 is escaped byte by byte; the UTF-8
        // around it is kept.
        assert_eq!(
            name_of_bytes(b"\xe9t\xc3\xa9\xed\xa0\x80"),
            r"\xe9té\xed\xa0\x80"
        );
        assert_eq!(
            relative_name(Path::new(std::ffi::OsStr::from_bytes(b"d\x80/f.json"))),
            r"d\x80/f.json"
        );
        assert_eq!(
            path_text(Path::new(std::ffi::OsStr::from_bytes(b"/t/\xff"))),
            r"/t/\xff"
        );
    }

    proptest::proptest! {
        #[test]
        fn the_escape_reads_back_to_the_bytes(bytes in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(b"\\xf8a0".to_vec()),
                proptest::num::u8::ANY,
            ],
            0..24,
        )) {
            let text = name_of_bytes(&bytes);
            proptest::prop_assert_eq!(bytes_of_name(&text), bytes.clone());
            // UTF-8 is its own text unless a backslash stands right before
            // what reads as an escape.
            if let Ok(utf8) = std::str::from_utf8(&bytes) {
                let escape_like = (0..utf8.len()).any(|at| {
                    let rest = &utf8.as_bytes()[at..];
                    rest.len() >= 4
                        && rest[0] == b'\\'
                        && rest[1] == b'x'
                        && matches!(rest[2], b'8'..=b'9' | b'a'..=b'f')
                        && matches!(rest[3], b'0'..=b'9' | b'a'..=b'f')
                });
                proptest::prop_assert_eq!(text == utf8, !escape_like);
            }
        }
    }
}
