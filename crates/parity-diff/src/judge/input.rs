//! Inputs read as result arrays (files, standard input for `-`, streams),
//! with the error a command shows: which argument was wrong, and how.
//! Every command that reads a case file, a golden or a result array reads
//! it here.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::base::error::InputError;
use crate::base::files::input;
use crate::judge::golden::{split_elements, NotAnArray};
use crate::judge::scan::ReadError;

/// Reads a file, or standard input for `-`, saying which argument was
/// wrong and how.
pub fn read_input(what: &str, path: &str) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    open_input(what, path)?
        .read_to_end(&mut bytes)
        .map_err(|error| read_failed(what, path, &error))?;
    Ok(bytes)
}

/// Reads a file, saying which argument was wrong and how.
pub fn read_file(what: &str, path: &Path) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    open_file(what, path)?
        .read_to_end(&mut bytes)
        .map_err(|error| read_failed(what, &path.display().to_string(), &error))?;
    Ok(bytes)
}

/// Opens a file, or standard input for `-`, to be read as a stream.
pub fn open_input(what: &str, path: &str) -> Result<Box<dyn Read + Send>, InputError> {
    if path == "-" {
        // Not locked: a case file is read on a thread of its own.
        return Ok(Box::new(io::stdin()));
    }
    Ok(Box::new(open_file(what, Path::new(path))?))
}

/// Opens a file to be read as a stream, saying which argument was wrong
/// and how.
pub fn open_file(what: &str, path: &Path) -> Result<File, InputError> {
    input::open(path, input::CORPUS_FILE)
        .map_err(|error| read_failed(what, &path.display().to_string(), &error))
}

/// `cannot read …`, naming the input (`-` is standard input).
pub fn read_failed(what: &str, path: &str, error: &io::Error) -> InputError {
    InputError::new(if path == "-" {
        format!("cannot read {what} from standard input: {error}")
    } else {
        format!("cannot read {what} {path}: {error}")
    })
}

/// The elements of a result array, or an error naming the input.
pub fn elements<'b>(what: &str, name: &str, bytes: &'b [u8]) -> Result<Vec<&'b [u8]>, InputError> {
    split_elements(bytes).map_err(|error| not_an_array(what, name, &error))
}

fn not_an_array(what: &str, name: &str, error: &NotAnArray) -> InputError {
    InputError::new(format!("{what} {name} is not a JSON array: {error}"))
}

/// What went wrong reading a result array as a stream, naming the input.
pub fn stream_error(what: &str, name: &str, error: ReadError) -> InputError {
    match error {
        ReadError::NotAnArray(error) => not_an_array(what, name, &error),
        ReadError::Io(error) => read_failed(what, name, &error),
    }
}
