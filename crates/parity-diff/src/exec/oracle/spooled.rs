//! An oracle's stdout spooled to a file (a large output costs disk, not
//! memory), read back through as [`results::read_results`] reads one in
//! memory: how many results it holds, how many are not JSON, how its
//! framing differs, or why it is no result array (with its first bytes).

use std::fs::File;
use std::io::{self, BufReader, Read, Seek};

use super::failure::OracleFailure;
use super::results;
use crate::judge::framing::{self, FramingCheck};
use crate::judge::scan::{ElementReader, Mode, ReadError};

/// Where the oracle's stdout goes: into memory, or into a file (an
/// anonymous temporary one), so that a large output costs disk.
#[derive(Debug)]
pub enum Captured {
    /// In memory.
    Memory(Vec<u8>),
    /// In this file, from its start.
    File(File),
}

/// An output spooled to a file, read through: its counts, or why it is
/// no result array, with its first bytes and its length.
type CheckedFile = Result<(Counted, Captured), (OracleFailure, Vec<u8>, u64)>;

/// How many elements an output has, and how many of them are not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub elements: usize,
    pub invalid: usize,
    /// How its framing differs (see [`framing`]), for an output spooled
    /// to a file: the one read that finds it.
    pub framing: Option<String>,
}

impl Counted {
    /// The counts of an output spooled and not read (left to the
    /// caller), which no caller reads.
    pub const UNCHECKED: Counted = Counted {
        elements: 0,
        invalid: 0,
        framing: None,
    };
}

/// Reads an output spooled to a file through, as [`results::read_results`]
/// reads one in memory: its counts, or why it is not an array whose
/// elements can be told apart; an error only when the file cannot be
/// read back.
pub fn check_file(mut file: File) -> Result<CheckedFile, String> {
    let again = |error: io::Error| format!("cannot read the oracle's output back: {error}");
    file.rewind().map_err(again)?;
    let strict = framed_elements(&file);
    file.rewind().map_err(again)?;
    let error = match strict {
        Ok((elements, gaps)) => {
            let len = file.metadata().map_err(again)?.len();
            let gaps = gaps.finish(len);
            let counted = Counted {
                elements,
                invalid: 0,
                framing: framing::describe(&gaps, |range| gap_bytes(&file, range)),
            };
            return Ok(Ok((counted, Captured::File(file))));
        }
        Err(ReadError::Io(error)) => return Err(again(error)),
        Err(error) => error,
    };
    let mut lenient = ElementReader::new(&file, Mode::Lenient);
    let mut invalid = 0;
    let delimited = loop {
        match lenient.next_element() {
            Ok(Some(element)) => {
                invalid += usize::from(results::element_failure(element.bytes).is_some())
            }
            Ok(None) => break true,
            Err(ReadError::Io(error)) => return Err(again(error)),
            Err(ReadError::NotAnArray(_)) => break false,
        }
    };
    let elements = lenient.elements_read();
    file.rewind().map_err(again)?;
    if delimited && invalid > 0 {
        let counted = Counted {
            elements,
            invalid,
            framing: None,
        };
        return Ok(Ok((counted, Captured::File(file))));
    }
    let first = BufReader::new(&file)
        .bytes()
        .map_while(Result::ok)
        .find(|byte| !byte.is_ascii_whitespace());
    let len = file.metadata().map_err(again)?.len();
    let head = gap_bytes(&file, 0..len.min(results::STDOUT_HEAD_BYTES as u64));
    let failure = results::not_an_array_from(first, &error.to_string());
    Ok(Err((failure, head, len)))
}

/// Reads a spooled output's elements strictly, noting where each
/// stands for the framing check.
fn framed_elements(file: &File) -> Result<(usize, FramingCheck), ReadError> {
    let mut reader = ElementReader::new(file, Mode::Strict { validate: true });
    let mut check = FramingCheck::default();
    while let Some(element) = reader.next_element()? {
        check.element(element.offset..element.offset + element.bytes.len() as u64);
    }
    Ok((reader.elements_read(), check))
}

/// The bytes of a spooled output in `range` (a gap between elements, or
/// its start: at most as many as a report quotes).
fn gap_bytes(file: &File, range: std::ops::Range<u64>) -> Vec<u8> {
    use std::os::unix::fs::FileExt;
    let most = results::STDOUT_HEAD_BYTES as u64;
    let len = (range.end - range.start).min(most) as usize;
    let mut bytes = vec![0; len];
    match file.read_exact_at(&mut bytes, range.start) {
        Ok(()) => bytes,
        Err(_) => Vec::new(),
    }
}
