//! Stable names for cases and results, so that CI history, ledgers and
//! run deltas survive edits elsewhere in a corpus.
//!
//! A case is known by its case file (the path relative to the cases
//! directory, `/` between components) and its `name`. A case without a
//! string `name` (a non-object case, say) is known by its file and a short
//! hash of its raw bytes, so that inserting another case before it does
//! not rename it. Positions are never part of an identity.
//!
//! Hashes are FNV-1a over bytes: stable across platforms, versions and
//! runs (unlike std's `DefaultHasher`), and fast enough to run on every
//! case. They are names, not security: nothing trusts them.

use std::fmt;

use crate::js::Value;

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

/// The short hash that names a case without a name: 12 hex digits of the
/// FNV-1a hash of its raw bytes.
pub fn short_hash(bytes: &[u8]) -> String {
    format!("{:012x}", fnv1a(&[bytes]) >> 16)
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
    /// The case's `name` member (lone surrogates as U+FFFD).
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
            .and_then(Value::as_js_string)
            .map(|name| name.to_utf8_lossy().into_owned());
        CaseId {
            file: file.to_owned(),
            key: match name {
                Some(name) => CaseKey::Name(name),
                None => CaseKey::Hash(short_hash(raw)),
            },
        }
    }

    /// The key alone, as reports and ledgers write it: the name as a JSON
    /// string, or `#` and the hash.
    pub fn key_text(&self) -> String {
        match &self.key {
            CaseKey::Name(name) => serde_json::to_string(name).expect("a string always serializes"),
            CaseKey::Hash(hash) => format!("#{hash}"),
        }
    }
}

impl fmt::Display for CaseId {
    /// `argv.json "cliArgs: required options"`, or `argv.json #3fa2c91b0d7e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.file, self.key_text())
    }
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
    use crate::js::{self, TextMode};

    fn value(text: &str) -> Value {
        js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
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
}
