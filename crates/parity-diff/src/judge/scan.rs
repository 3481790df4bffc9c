//! A JSON array read element by element from any [`Read`], so that a
//! result file, a golden or a case file of any size costs the largest
//! element in memory, not the file.
//!
//! This is the one scanner behind every way the diff layer splits an
//! array: [`golden::split_elements`](crate::judge::golden::split_elements) and
//! [`cases::element_spans`](crate::corpus::cases::element_spans) run it over bytes
//! in memory, `compare` and `run` over files and pipes. Two modes:
//!
//! - [`Mode::Lenient`], for case files: only brackets and string literals
//!   are followed, so that a case file with invalid UTF-8 in a string, or
//!   nested deeper than any parser's limit, still has its elements (the
//!   oracle decides what to make of them). An element runs from its first
//!   byte to its last non-space byte before the `,` or `]` that ends it.
//! - [`Mode::Strict`], for result arrays: the text must be a JSON array as
//!   serde_json reads one. The scanner checks what lies between elements
//!   itself and, when asked to validate, has serde_json read each element
//!   on its own (and checks it is UTF-8); the errors say what serde_json
//!   says of the whole text, at the same line and column.

use std::io::{self, Read};

use crate::judge::syntax;

/// Why bytes could not be read as a result array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnArray {
    /// What serde_json said, or that the text is not an array.
    pub reason: String,
}

impl std::fmt::Display for NotAnArray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for NotAnArray {}

/// How much is read at a time.
const CHUNK: usize = 64 * 1024;

/// How far past an element serde_json may read before it finds the
/// element wrong: the four digits of a `\u` escape.
const CONTEXT: usize = 4;

/// How an array is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Brackets and string literals only (a case file).
    Lenient,
    /// JSON (a result array); with `validate`, every element is read by
    /// serde_json and checked to be UTF-8. Without it, only what lies
    /// between elements is checked: for bytes validated before.
    Strict {
        /// Whether each element is checked.
        validate: bool,
    },
}

/// One element of the array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element<'a> {
    /// Its position in the array, from 0.
    pub index: usize,
    /// Where its bytes start in the input.
    pub offset: u64,
    /// The 1-based line where they start; 0 from a reader that does not
    /// count each element's ([`Lines`]).
    pub line: usize,
    /// Its bytes, exactly as they stand.
    pub bytes: &'a [u8],
}

/// Why an array could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The bytes are not a JSON array (in lenient mode, without a reason).
    NotAnArray(NotAnArray),
    /// The input could not be read.
    Io(io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotAnArray(error) => error.fmt(f),
            ReadError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadError {}

pub(super) fn not_an_array(reason: impl Into<String>) -> ReadError {
    ReadError::NotAnArray(NotAnArray {
        reason: reason.into(),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the `[`.
    Start,
    /// After the `[`.
    Open,
    /// After a `,` (strict mode; lenient mode stays `Open`).
    AfterComma,
    /// After an element (strict mode).
    AfterElement,
    /// After the `]`: only white space may follow.
    Closed,
    /// The input ended well, or an error was returned.
    Done,
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

/// Reads a JSON array's elements one at a time.
pub struct ElementReader<R> {
    source: R,
    mode: Mode,
    /// Bytes read and not yet given up; `buf[..filled]` holds data.
    buf: Vec<u8>,
    filled: usize,
    /// Where `buf[0]` stands in the input.
    base: u64,
    /// The next byte to look at.
    pos: usize,
    /// Where the element being scanned starts, while it is.
    mark: Option<usize>,
    /// Lenient mode: the end of the element's last non-space byte.
    end: usize,
    /// Lenient mode: the nesting inside the element being scanned.
    depth: usize,
    eof: bool,
    state: State,
    /// How many elements were given.
    index: usize,
    /// Lines are counted up to this offset of the input...
    counted: u64,
    /// ...which stands on this line (from 1)...
    line: usize,
    /// ...which starts at this offset.
    line_start: u64,
    lines: Lines,
}

/// Which lines a reader counts. Counting each element's is a tenth of a
/// pass over a file of small elements (issue 23), and a pass that only
/// counts, or only checks, needs none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// Each element's (the default).
    Each,
    /// Only those an error is worded with (strict mode's): elements say
    /// line 0, and lines are counted a buffer at a time.
    ForErrors,
    /// None: elements say line 0 (lenient mode, which words no error
    /// with a line).
    None,
}

impl<R: Read> ElementReader<R> {
    /// A reader of the array in `source`.
    pub fn new(source: R, mode: Mode) -> Self {
        ElementReader {
            source,
            mode,
            buf: Vec::new(),
            filled: 0,
            base: 0,
            pos: 0,
            mark: None,
            end: 0,
            depth: 0,
            eof: false,
            state: State::Start,
            index: 0,
            counted: 0,
            line: 1,
            line_start: 0,
            lines: Lines::Each,
        }
    }

    /// The same reader, counting only `lines`.
    pub fn counting(mut self, lines: Lines) -> Self {
        debug_assert!(
            lines != Lines::None || self.mode == Mode::Lenient,
            "strict mode words errors with lines"
        );
        self.lines = lines;
        self
    }

    /// The next element, `None` once the array has ended (and nothing but
    /// white space followed it).
    pub fn next_element(&mut self) -> Result<Option<Element<'_>>, ReadError> {
        let found = match self.mode {
            Mode::Lenient => self.next_lenient(),
            Mode::Strict { validate } => self.next_strict(validate),
        };
        let (start, end) = match found {
            Ok(Some(span)) => span,
            Ok(None) => return Ok(None),
            Err(error) => {
                self.state = State::Done;
                return Err(error);
            }
        };
        let offset = self.base + start as u64;
        let line = match self.lines {
            Lines::Each => {
                self.count_to(offset);
                self.line
            }
            Lines::ForErrors | Lines::None => 0,
        };
        let element = Element {
            index: self.index,
            offset,
            line,
            bytes: &self.buf[start..end],
        };
        self.index += 1;
        Ok(Some(element))
    }

    /// Reads the rest of the array; returns how many elements it has in
    /// all.
    pub fn count(mut self) -> Result<usize, ReadError> {
        while self.next_element()?.is_some() {}
        Ok(self.index)
    }

    /// How many elements were given so far.
    pub fn elements_read(&self) -> usize {
        self.index
    }

    /// Counts lines up to `offset` (bytes before it must still be held).
    fn count_to(&mut self, offset: u64) {
        if self.lines == Lines::None || offset <= self.counted {
            return;
        }
        let from = (self.counted - self.base) as usize;
        let to = (offset - self.base) as usize;
        let bytes = &self.buf[from..to];
        // memchr's count, over the previous element and what follows it:
        // about a tenth less than a byte loop on a large corpus (issue 23).
        if let Some(last) = memchr::memrchr(b'\n', bytes) {
            self.line += memchr::memchr_iter(b'\n', bytes).count();
            self.line_start = self.counted + last as u64 + 1;
        }
        self.counted = offset;
    }

    /// Reads more input, giving up the bytes before the element being
    /// scanned (or before `pos`). Returns whether any byte came.
    fn more(&mut self) -> Result<bool, ReadError> {
        if self.eof {
            return Ok(false);
        }
        let keep = self.mark.unwrap_or(self.pos).min(self.pos);
        if keep > 0 {
            self.count_to(self.base + keep as u64);
            self.buf.copy_within(keep..self.filled, 0);
            self.filled -= keep;
            self.pos -= keep;
            self.end = self.end.saturating_sub(keep);
            self.mark = self.mark.map(|mark| mark - keep);
            self.base += keep as u64;
            // One huge element grew the buffer: give that memory back.
            if self.buf.len() > 4 * CHUNK && self.filled < CHUNK {
                self.buf.truncate(2 * CHUNK);
                self.buf.shrink_to_fit();
            }
        }
        if self.buf.len() - self.filled < CHUNK / 2 {
            let wanted = (self.buf.len() * 2).max(self.filled + CHUNK);
            self.buf.resize(wanted, 0);
        }
        loop {
            match self.source.read(&mut self.buf[self.filled..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.filled += read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(ReadError::Io(error)),
            }
        }
    }

    /// The next byte that is not white space, left unread; `None` at the
    /// end of the input.
    fn peek_past_space(&mut self) -> Result<Option<u8>, ReadError> {
        loop {
            while self.pos < self.filled {
                let byte = self.buf[self.pos];
                if !is_space(byte) {
                    return Ok(Some(byte));
                }
                self.pos += 1;
            }
            if !self.more()? {
                return Ok(None);
            }
        }
    }

    /// Moves `pos` past the string literal it is inside (just after its
    /// opening quote). Returns false when the input ends first.
    fn skip_string(&mut self) -> Result<bool, ReadError> {
        loop {
            let found = memchr::memchr2(b'"', b'\\', &self.buf[self.pos..self.filled]);
            match found {
                Some(at) => {
                    let at = self.pos + at;
                    if self.buf[at] == b'"' {
                        self.pos = at + 1;
                        return Ok(true);
                    }
                    if at + 1 < self.filled {
                        self.pos = at + 2;
                        continue;
                    }
                    // A backslash last in the buffer: its escaped byte is
                    // yet to come.
                    self.pos = at;
                    if !self.more()? {
                        self.pos = self.filled;
                        return Ok(false);
                    }
                }
                None => {
                    self.pos = self.filled;
                    if !self.more()? {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// Lenient mode, at an element's first byte: when the one-pass check
    /// ([`syntax`]) finds a JSON value there, followed by nothing but white
    /// space up to a `,` or `]` that is held, that value is the element
    /// (what the byte loop below would find, at a fraction of its cost):
    /// it is marked and passed. Otherwise the byte loop reads it.
    fn checked_lenient(&mut self) -> bool {
        let held = &self.buf[..self.filled];
        let Some(end) = syntax::value_end(held, self.pos) else {
            return false;
        };
        if !matches!(held.get(syntax::space(held, end)), Some(b',' | b']')) {
            return false;
        }
        self.mark = Some(self.pos);
        self.pos = end;
        self.end = end;
        true
    }

    /// Lenient mode: the next element's span.
    fn next_lenient(&mut self) -> Result<Option<(usize, usize)>, ReadError> {
        let refused = || not_an_array("not a JSON array");
        loop {
            match self.state {
                State::Start => match self.peek_past_space()? {
                    Some(b'[') => {
                        self.pos += 1;
                        self.state = State::Open;
                    }
                    _ => return Err(refused()),
                },
                State::Open | State::AfterComma | State::AfterElement => {
                    if self.pos == self.filled {
                        if !self.more()? {
                            return Err(refused());
                        }
                        continue;
                    }
                    if self.mark.is_none() && self.checked_lenient() {
                        continue;
                    }
                    let byte = self.buf[self.pos];
                    match byte {
                        b'"' => {
                            self.mark.get_or_insert(self.pos);
                            self.pos += 1;
                            if !self.skip_string()? {
                                return Err(refused());
                            }
                            self.end = self.pos;
                            continue;
                        }
                        b'[' | b'{' => {
                            self.mark.get_or_insert(self.pos);
                            self.depth += 1;
                        }
                        b']' | b'}' if self.depth > 0 => self.depth -= 1,
                        b']' => {
                            self.pos += 1;
                            self.state = State::Closed;
                            match self.mark.take() {
                                Some(start) => return Ok(Some((start, self.end))),
                                // `[1,]`
                                None if self.index > 0 => return Err(refused()),
                                None => continue,
                            }
                        }
                        b',' if self.depth == 0 => {
                            self.pos += 1;
                            // `[,1]`, `[1,,2]`
                            let start = self.mark.take().ok_or_else(refused)?;
                            return Ok(Some((start, self.end)));
                        }
                        byte if is_space(byte) => {
                            self.pos += 1;
                            continue;
                        }
                        _ => {
                            self.mark.get_or_insert(self.pos);
                        }
                    }
                    self.pos += 1;
                    self.end = self.pos;
                }
                State::Closed => match self.peek_past_space()? {
                    None => {
                        self.state = State::Done;
                        return Ok(None);
                    }
                    Some(_) => return Err(refused()),
                },
                State::Done => return Ok(None),
            }
        }
    }
}

/// The spans of an array's elements in bytes held in memory.
pub fn spans(bytes: &[u8], mode: Mode) -> Result<Vec<std::ops::Range<usize>>, ReadError> {
    let mut reader = ElementReader::new(bytes, mode);
    let mut spans = Vec::new();
    while let Some(element) = reader.next_element()? {
        let start = element.offset as usize;
        spans.push(start..start + element.bytes.len());
    }
    Ok(spans)
}

mod strict;
#[cfg(test)]
mod tests;
