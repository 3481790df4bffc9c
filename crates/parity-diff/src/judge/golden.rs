//! The golden format: a result array with one element per line.
//!
//! `[` and a newline, then each element's bytes exactly as the
//! implementation printed them, separated by `,` and a newline, then a
//! newline, `]` and a newline; an empty array is `[]` and a newline. Git
//! diffs of goldens then show one case per line. Readers accept any JSON
//! array (compact output included) and keep each element's bytes as they
//! stand, so comparisons are byte for byte.

use crate::judge::scan::{self, Mode, ReadError};

pub use crate::judge::scan::NotAnArray;

/// The raw bytes of each element of a JSON array, as they stand in `text`
/// (see [`scan`] for what a JSON array is, and the errors).
pub fn split_elements(text: &[u8]) -> Result<Vec<&[u8]>, NotAnArray> {
    match scan::spans(text, Mode::Strict { validate: true }) {
        Ok(spans) => Ok(spans.into_iter().map(|span| &text[span]).collect()),
        Err(ReadError::NotAnArray(error)) => Err(error),
        Err(ReadError::Io(error)) => Err(NotAnArray {
            reason: error.to_string(),
        }),
    }
}

/// Writes elements in the golden format.
pub fn format_golden<'a>(elements: impl IntoIterator<Item = &'a [u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut any = false;
    for element in elements {
        out.extend_from_slice(if any { b",\n" } else { b"[\n" });
        out.extend_from_slice(element);
        any = true;
    }
    out.extend_from_slice(if any { b"\n]\n" } else { b"[]\n" });
    out
}

/// Rewrites a compact result array (an oracle's stdout) in the golden
/// format, keeping every element's bytes.
pub fn golden_from_output(output: &[u8]) -> Result<Vec<u8>, NotAnArray> {
    Ok(format_golden(split_elements(output)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_format_round_trip() {
        let output = br#"[{"a":1},[1,2],"x\ud800",null]"#;
        let golden = golden_from_output(output).unwrap();
        assert_eq!(
            String::from_utf8(golden.clone()).unwrap(),
            "[\n{\"a\":1},\n[1,2],\n\"x\\ud800\",\nnull\n]\n"
        );
        let elements = split_elements(&golden).unwrap();
        assert_eq!(elements, split_elements(output).unwrap());
        assert_eq!(golden_from_output(b"[]").unwrap(), b"[]\n");
        assert_eq!(golden_from_output(b" [ ] ").unwrap(), b"[]\n");
    }

    #[test]
    fn elements_keep_their_bytes() {
        let elements = split_elements(b"[ 1.0 , {\"b\":1,\"a\":2} ]").unwrap();
        assert_eq!(elements, [&b"1.0"[..], &br#"{"b":1,"a":2}"#[..]]);
    }

    #[test]
    fn non_arrays_are_refused() {
        assert!(split_elements(b"{}").is_err());
        assert!(split_elements(b"[1,").is_err());
        assert!(split_elements(b"\xff").is_err());
    }
}
