//! Strict mode: a result array as serde_json reads it. serde_json reads
//! each element (which checks it and finds its end at once); what stands
//! between elements is checked here, with serde_json's words and places.

use std::io::Read;

use serde_json::value::RawValue;

use super::{not_an_array, ElementReader, ReadError, State, CHUNK, CONTEXT};
use crate::judge::syntax;

impl<R: Read> ElementReader<R> {
    /// Strict mode: the next element's span, checking what stands between
    /// elements.
    pub(super) fn next_strict(
        &mut self,
        validate: bool,
    ) -> Result<Option<(usize, usize)>, ReadError> {
        loop {
            match self.state {
                State::Start => match self.peek_past_space()? {
                    Some(b'[') => {
                        self.pos += 1;
                        self.state = State::Open;
                    }
                    Some(byte) if byte >= 0x80 => return Err(self.utf8_or_not_an_array()),
                    _ => return Err(not_an_array("not a JSON array")),
                },
                State::Open | State::AfterComma => {
                    let open = self.state == State::Open;
                    match self.peek_past_space()? {
                        None if open => return Err(self.syntax_at_end("EOF while parsing a list")),
                        None => return Err(self.syntax_at_end("EOF while parsing a value")),
                        Some(b']') if open => {
                            self.pos += 1;
                            self.state = State::Closed;
                        }
                        Some(b']') => return Err(self.syntax_at_pos("trailing comma")),
                        Some(_) => {
                            let span = self.strict_element(validate)?;
                            self.state = State::AfterElement;
                            return Ok(Some(span));
                        }
                    }
                }
                State::AfterElement => match self.peek_past_space()? {
                    None => return Err(self.syntax_at_end("EOF while parsing a list")),
                    Some(b',') => {
                        self.pos += 1;
                        self.state = State::AfterComma;
                    }
                    Some(b']') => {
                        self.pos += 1;
                        self.state = State::Closed;
                    }
                    Some(_) => return Err(self.syntax_at_pos("expected `,` or `]`")),
                },
                State::Closed => match self.peek_past_space()? {
                    None => {
                        self.state = State::Done;
                        return Ok(None);
                    }
                    Some(_) => return Err(self.syntax_at_pos("trailing characters")),
                },
                State::Done => return Ok(None),
            }
        }
    }

    /// Strict mode: scans one element from `pos` (its first byte).
    fn strict_element(&mut self, validate: bool) -> Result<(usize, usize), ReadError> {
        if validate {
            if let Some(span) = self.parsed_element()? {
                return Ok(span);
            }
            // Not an element serde_json reads: the scanner finds its
            // bounds, and serde_json then says what is wrong, and where.
        }
        self.mark = Some(self.pos);
        let first = self.buf[self.pos];
        self.pos += 1;
        let complete = match first {
            b'"' => self.skip_string()?,
            b'[' | b'{' => self.skip_nested()?,
            _ => {
                self.skip_scalar()?;
                true
            }
        };
        if !complete || validate {
            // serde_json reads a little past a value's end (the 4 digits
            // of a `\u` escape, the byte after a number): the element is
            // checked with what follows it, as it is read in the array.
            while self.filled - self.pos < CONTEXT && self.more()? {}
            let start = self.mark.unwrap_or_default();
            self.check_element(start, self.pos)?;
        }
        let start = self.mark.take().unwrap_or_default();
        let end = self.pos;
        if !complete {
            // serde_json found nothing wrong with a cut element: unlikely,
            // but the array is cut all the same.
            return Err(self.syntax_at_end("EOF while parsing a value"));
        }
        Ok((start, end))
    }

    /// The element at `pos` as serde_json reads it (which validates it
    /// and finds its end at once, faster than scanning then parsing), or
    /// `None` when serde_json finds it wrong.
    fn parsed_element(&mut self) -> Result<Option<(usize, usize)>, ReadError> {
        if let Some(span) = self.checked_element() {
            return Ok(Some(span));
        }
        loop {
            let read = serde_json::Deserializer::from_slice(&self.buf[self.pos..self.filled])
                .into_iter::<&RawValue>()
                .next()
                .map(|read| read.map(|raw| raw.get().len()));
            match read {
                // A number at the end of what was read may go on.
                Some(Ok(len)) if self.pos + len + CONTEXT <= self.filled || self.eof => {
                    let start = self.pos;
                    self.pos += len;
                    return Ok(Some((start, self.pos)));
                }
                Some(Ok(_)) => {}
                Some(Err(error)) if error.is_eof() && !self.eof => {}
                _ => return Ok(None),
            }
            self.mark = Some(self.pos);
            let more = self.at_least_double();
            self.mark = None;
            more?;
        }
    }

    /// The element at `pos` when the one-pass check ([`syntax`]) finds it
    /// whole, valid and UTF-8, and followed by what may follow an element
    /// (white space, `,`, `]`) or by enough that serde_json would not read
    /// on: serde_json's answer, without its set-up per element. Anything
    /// else is serde_json's to read, as before.
    fn checked_element(&mut self) -> Option<(usize, usize)> {
        let held = &self.buf[..self.filled];
        let end = syntax::value_end(held, self.pos)?;
        if end + CONTEXT > self.filled && !self.eof {
            return None;
        }
        let ends_it = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | b',' | b']');
        if !held.get(end).is_none_or(ends_it) {
            return None;
        }
        std::str::from_utf8(&held[self.pos..end]).ok()?;
        let start = self.pos;
        self.pos = end;
        Some((start, end))
    }

    /// Reads until twice as much as is held from `pos` on is held (or the
    /// input ends), so that an element parsed again after each read costs
    /// in all a few times its size, whatever the size of each read.
    fn at_least_double(&mut self) -> Result<(), ReadError> {
        let wanted = 2 * (self.filled - self.pos).max(CHUNK / 2);
        while self.filled - self.pos < wanted && self.more()? {}
        Ok(())
    }

    /// Moves `pos` past a container whose opening bracket it follows.
    fn skip_nested(&mut self) -> Result<bool, ReadError> {
        let mut depth = 1usize;
        loop {
            while self.pos < self.filled {
                let byte = self.buf[self.pos];
                self.pos += 1;
                match byte {
                    b'"' if !self.skip_string()? => return Ok(false),
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(true);
                        }
                    }
                    _ => {}
                }
            }
            if !self.more()? {
                return Ok(false);
            }
        }
    }

    /// Moves `pos` past the rest of a number or literal.
    fn skip_scalar(&mut self) -> Result<(), ReadError> {
        loop {
            while self.pos < self.filled && is_scalar(self.buf[self.pos]) {
                self.pos += 1;
            }
            if self.pos < self.filled || !self.more()? {
                return Ok(());
            }
        }
    }

    /// Checks one element (`buf[start..end]`) as serde_json reads it in
    /// the array: UTF-8, then one JSON value that spans the element.
    /// Errors name the place in the whole input.
    fn check_element(&mut self, start: usize, end: usize) -> Result<(), ReadError> {
        let offset = self.base + start as u64;
        if let Err(error) = std::str::from_utf8(&self.buf[start..end]) {
            return Err(utf8_error(&error, offset));
        }
        let after = &self.buf[end..self.filled.min(end + CONTEXT)];
        let context = match std::str::from_utf8(after) {
            Ok(_) => after.len(),
            Err(error) => error.valid_up_to(),
        };
        let Ok(text) = std::str::from_utf8(&self.buf[start..end + context]) else {
            return Err(not_an_array("not a JSON array"));
        };
        // The first value alone: what follows it is the array's business.
        let first = serde_json::Deserializer::from_str(text)
            .into_iter::<&RawValue>()
            .next();
        let error = match first {
            Some(Ok(value)) if value.get().len() == end - start => return Ok(()),
            Some(Ok(value)) => {
                let at = offset + value.get().len() as u64;
                return Err(self.syntax_at("expected `,` or `]`", at + 1));
            }
            Some(Err(error)) => error,
            None => return Err(self.syntax_at("expected value", offset + 1)),
        };
        self.count_to(offset);
        let (line, column) = (self.line, offset - self.line_start);
        let (at_line, at_column) = match error.line() {
            0 => (line, column),
            1 => (line, column + error.column() as u64),
            more => (line + more - 1, error.column() as u64),
        };
        let text = error.to_string();
        let suffix = format!(" at line {} column {}", error.line(), error.column());
        let what = match text.strip_suffix(&suffix).unwrap_or(&text) {
            // A number followed by a letter (`1x`): in the array, the
            // letter is where a `,` or `]` should be.
            "trailing characters" => "expected `,` or `]`",
            what => what,
        };
        Err(not_an_array(format!(
            "not a JSON array: {what} at line {at_line} column {at_column}"
        )))
    }

    /// An error found at the byte at `pos`, placed as serde_json places it.
    fn syntax_at_pos(&mut self, what: &str) -> ReadError {
        let offset = self.base + self.pos as u64 + 1;
        self.syntax_at(what, offset)
    }

    /// An error found at the end of the input.
    fn syntax_at_end(&mut self, what: &str) -> ReadError {
        let offset = self.base + self.filled as u64;
        self.syntax_at(what, offset)
    }

    fn syntax_at(&mut self, what: &str, offset: u64) -> ReadError {
        self.count_to(offset);
        not_an_array(format!(
            "not a JSON array: {what} at line {} column {}",
            self.line,
            offset - self.line_start
        ))
    }

    /// A first byte that is not `[` and not ASCII: the text may not be
    /// UTF-8 at all, which is what is worth saying then.
    pub(super) fn utf8_or_not_an_array(&mut self) -> ReadError {
        while self.filled - self.pos < 4 && self.more().unwrap_or(false) {}
        let window = &self.buf[self.pos..self.filled.min(self.pos + 4)];
        match std::str::from_utf8(window) {
            Err(error) if error.error_len().is_some() => {
                utf8_error(&error, self.base + self.pos as u64)
            }
            _ => not_an_array("not a JSON array"),
        }
    }
}

/// The bytes a number or a literal is made of, and any non-ASCII byte
/// (so that a stray character is read whole): a scalar element ends at
/// the first other byte.
fn is_scalar(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'+' | b'-') || !byte.is_ascii()
}

/// `not UTF-8: …`, in the words of [`std::str::Utf8Error`], with the index
/// counted in the whole input.
fn utf8_error(error: &std::str::Utf8Error, offset: u64) -> ReadError {
    let at = offset + error.valid_up_to() as u64;
    not_an_array(match error.error_len() {
        Some(len) => format!("not UTF-8: invalid utf-8 sequence of {len} bytes from index {at}"),
        None => format!("not UTF-8: incomplete utf-8 byte sequence from index {at}"),
    })
}
