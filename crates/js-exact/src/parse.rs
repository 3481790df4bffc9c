//! `JSON.parse`, exactly, for whole texts and for streams.
//!
//! Numbers become doubles, correctly rounded (`1e400` is Infinity); a
//! duplicated key keeps its first position and its last value; a lone
//! surrogate escape is a legal string. Two kinds of input are read:
//!
//! - bytes from outside ([`TextMode::LossyUtf8`]): decoded as Node decodes
//!   UTF-8, each maximal invalid sequence becoming U+FFFD;
//! - a JavaScript string's own text ([`TextMode::Wtf8`]): its lone
//!   surrogates are carried into the strings they stand in.
//!
//! The parser never recurses, so nesting costs heap, not stack; nesting
//! deeper than the reader's limit (none for text an op parses) is refused
//! with [`ParseErrorKind::TooDeep`].

use std::fmt;
use std::io::{self, Read};

use super::object::Object;
use super::string::{push_code_unit_to, push_wtf8_to, whole_characters_len, JsStr, JsString};
use super::value::Value;

#[path = "skip.rs"]
mod skip;

/// How the bytes of the input are to be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextMode {
    /// UTF-8 from outside: invalid sequences become U+FFFD, as Node's
    /// decoder makes them.
    LossyUtf8,
    /// The canonical WTF-8 of a [`JsString`]: lone surrogates are kept.
    Wtf8,
}

/// The nesting that every reader accepts unless told otherwise. The
/// contract guarantees 1000 levels; Node itself prints about 4100.
pub const DEFAULT_MAX_DEPTH: usize = 10_000;

/// What was wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd,
    /// A byte that JSON does not allow here.
    UnexpectedByte(u8),
    /// Containers nested deeper than the limit.
    TooDeep(usize),
    /// Reading the input failed.
    Io(String),
}

/// Why a text is not JSON, and where (a byte offset from the start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// The byte offset at which it was noticed.
    pub offset: u64,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::UnexpectedEnd => {
                write!(f, "unexpected end of input at byte {}", self.offset)
            }
            ParseErrorKind::UnexpectedByte(byte) if byte.is_ascii_graphic() => {
                write!(f, "unexpected '{}' at byte {}", *byte as char, self.offset)
            }
            ParseErrorKind::UnexpectedByte(byte) => {
                write!(f, "unexpected byte 0x{byte:02x} at byte {}", self.offset)
            }
            ParseErrorKind::TooDeep(limit) => {
                write!(
                    f,
                    "nesting deeper than {limit} levels at byte {}",
                    self.offset
                )
            }
            ParseErrorKind::Io(message) => write!(f, "read error: {message}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a whole JSON text (white space around it allowed, nothing else).
pub fn parse(bytes: &[u8], mode: TextMode) -> Result<Value, ParseError> {
    let mut reader = JsonReader::from_slice(bytes, mode);
    let value = reader.parse_value(0)?;
    reader.expect_end()?;
    Ok(value)
}

/// `JSON.parse(text)` of a JavaScript string, at any depth, as Node reads
/// it (JSON text that an op parses: `remoteConfig`'s `json`,
/// `--runtime-defaults`). The reader keeps its open containers on the
/// heap and a [`Value`] drops without recursion, so depth costs memory in
/// proportion to the text, never stack. A large text is read where it
/// is, a chunk at a time: the strings parsed out of it are its only copy.
pub fn parse_js_string<'a>(text: impl Into<JsStr<'a>>) -> Result<Value, ParseError> {
    let bytes = text.into().as_wtf8();
    if bytes.len() <= READ_CHUNK {
        parse_op_text(JsonReader::from_slice(bytes, TextMode::Wtf8))
    } else {
        parse_op_text(JsonReader::new(bytes, TextMode::Wtf8))
    }
}

fn parse_op_text<R: Read>(reader: JsonReader<R>) -> Result<Value, ParseError> {
    let mut reader = reader.without_depth_limit();
    let value = reader.parse_value(0)?;
    reader.expect_end()?;
    Ok(value)
}

const READ_CHUNK: usize = 64 * 1024;

/// A JSON reader over a byte stream, for a caller that walks the top level
/// itself (the batch reads its array element by element).
pub struct JsonReader<R> {
    source: R,
    buffer: Vec<u8>,
    position: usize,
    before_buffer: u64,
    exhausted: bool,
    mode: TextMode,
    max_depth: usize,
    trim_containers: bool,
    scratch: Vec<u8>,
}

enum Frame {
    Array(Vec<Value>),
    Object(Object, JsString),
}

impl JsonReader<io::Empty> {
    /// A reader over bytes already in memory.
    pub fn from_slice(bytes: &[u8], mode: TextMode) -> Self {
        JsonReader {
            source: io::empty(),
            buffer: bytes.to_vec(),
            position: 0,
            before_buffer: 0,
            exhausted: true,
            mode,
            max_depth: DEFAULT_MAX_DEPTH,
            trim_containers: false,
            scratch: Vec::new(),
        }
    }
}

impl<R: Read> JsonReader<R> {
    /// A reader that pulls bytes from `source` as it needs them.
    pub fn new(source: R, mode: TextMode) -> Self {
        JsonReader {
            source,
            buffer: Vec::with_capacity(READ_CHUNK),
            position: 0,
            before_buffer: 0,
            exhausted: false,
            mode,
            max_depth: DEFAULT_MAX_DEPTH,
            trim_containers: false,
            scratch: Vec::new(),
        }
    }

    /// Sets the deepest nesting accepted (counted from the top level).
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// Accepts any nesting, and trims every container to its length as
    /// it closes: a million levels of `[` then take a few tens of bytes
    /// each, not the few hundred of containers with room to grow.
    pub fn without_depth_limit(mut self) -> Self {
        self.trim_containers = true;
        self.with_max_depth(usize::MAX)
    }

    /// The offset of the next unread byte.
    pub fn offset(&self) -> u64 {
        self.before_buffer + self.position as u64
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError {
            kind,
            offset: self.offset(),
        }
    }

    /// Makes at least `wanted` unread bytes available, unless the input
    /// ends first. Returns how many are available.
    fn fill(&mut self, wanted: usize) -> Result<usize, ParseError> {
        while self.buffer.len() - self.position < wanted && !self.exhausted {
            if self.position > 0 {
                self.buffer.drain(..self.position);
                self.before_buffer += self.position as u64;
                self.position = 0;
            }
            let kept = self.buffer.len();
            self.buffer.resize(kept + READ_CHUNK, 0);
            let read = loop {
                match self.source.read(&mut self.buffer[kept..]) {
                    Ok(read) => break read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => {
                        self.buffer.truncate(kept);
                        return Err(self.error(ParseErrorKind::Io(error.to_string())));
                    }
                }
            };
            self.buffer.truncate(kept + read);
            if read == 0 {
                self.exhausted = true;
            }
        }
        Ok(self.buffer.len() - self.position)
    }

    /// The next byte, without consuming it; `None` at the end of input.
    pub fn peek(&mut self) -> Result<Option<u8>, ParseError> {
        if self.position == self.buffer.len() {
            self.fill(1)?;
        }
        Ok(self.buffer.get(self.position).copied())
    }

    fn bump(&mut self) {
        self.position += 1;
    }

    /// Skips JSON white space (space, tab, line feed, carriage return; not
    /// a byte-order mark).
    pub fn skip_white_space(&mut self) -> Result<(), ParseError> {
        loop {
            while let Some(&byte) = self.buffer.get(self.position) {
                if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                    return Ok(());
                }
                self.position += 1;
            }
            if self.fill(1)? == 0 {
                return Ok(());
            }
        }
    }

    /// Skips white space and consumes `expected`, or fails.
    pub fn expect_byte(&mut self, expected: u8) -> Result<(), ParseError> {
        self.skip_white_space()?;
        match self.peek()? {
            Some(byte) if byte == expected => {
                self.bump();
                Ok(())
            }
            Some(byte) => Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
            None => Err(self.error(ParseErrorKind::UnexpectedEnd)),
        }
    }

    /// Skips white space and consumes whichever of `choices` comes next.
    pub fn expect_one_of(&mut self, choices: &[u8]) -> Result<u8, ParseError> {
        self.skip_white_space()?;
        match self.peek()? {
            Some(byte) if choices.contains(&byte) => {
                self.bump();
                Ok(byte)
            }
            Some(byte) => Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
            None => Err(self.error(ParseErrorKind::UnexpectedEnd)),
        }
    }

    /// Skips white space and fails unless the input ends there.
    pub fn expect_end(&mut self) -> Result<(), ParseError> {
        self.skip_white_space()?;
        match self.peek()? {
            None => Ok(()),
            Some(byte) => Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
        }
    }

    /// Parses one value. `depth` is how many containers enclose it (the
    /// batch's elements are at depth 1).
    pub fn parse_value(&mut self, depth: usize) -> Result<Value, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            self.skip_white_space()?;
            let mut value = match self.peek()? {
                None => return Err(self.error(ParseErrorKind::UnexpectedEnd)),
                Some(b'[') => {
                    self.open_container(depth + stack.len())?;
                    if self.expect_one_of_or_value(b']')? {
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array(Vec::new()));
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.open_container(depth + stack.len())?;
                    if self.expect_one_of_or_value(b'}')? {
                        Value::Object(Object::new())
                    } else {
                        let key = self.parse_key()?;
                        stack.push(Frame::Object(Object::new(), key));
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    self.bump();
                    Value::String(self.parse_string_body()?)
                }
                Some(b'-' | b'0'..=b'9') => Value::Number(self.parse_number()?),
                Some(b't') => self.parse_literal(b"true", Value::Bool(true))?,
                Some(b'f') => self.parse_literal(b"false", Value::Bool(false))?,
                Some(b'n') => self.parse_literal(b"null", Value::Null)?,
                Some(byte) => return Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
            };
            // A value is complete: hand it to the container it is in,
            // closing every container that ends with it.
            loop {
                match stack.last_mut() {
                    None => return Ok(value),
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        if self.expect_one_of(b",]")? == b',' {
                            continue 'value;
                        }
                        let Some(Frame::Array(mut items)) = stack.pop() else {
                            unreachable!("the top frame is an array")
                        };
                        if self.trim_containers {
                            items.shrink_to_fit();
                        }
                        value = Value::Array(items);
                    }
                    Some(Frame::Object(object, key)) => {
                        object.insert(std::mem::take(key), value);
                        if self.expect_one_of(b",}")? == b',' {
                            *key = self.parse_key()?;
                            continue 'value;
                        }
                        let Some(Frame::Object(mut object, _)) = stack.pop() else {
                            unreachable!("the top frame is an object")
                        };
                        if self.trim_containers {
                            object.shrink_to_fit();
                        }
                        value = Value::Object(object);
                    }
                }
            }
        }
    }

    fn open_container(&mut self, enclosing: usize) -> Result<(), ParseError> {
        if enclosing + 1 > self.max_depth {
            return Err(self.error(ParseErrorKind::TooDeep(self.max_depth)));
        }
        self.bump();
        Ok(())
    }

    /// After an opening bracket: consumes `close` and says so when the
    /// container is empty.
    fn expect_one_of_or_value(&mut self, close: u8) -> Result<bool, ParseError> {
        self.skip_white_space()?;
        if self.peek()? == Some(close) {
            self.bump();
            return Ok(true);
        }
        Ok(false)
    }

    fn parse_key(&mut self) -> Result<JsString, ParseError> {
        self.expect_byte(b'"')?;
        let key = self.parse_string_body()?;
        self.expect_byte(b':')?;
        Ok(key)
    }

    fn parse_literal(&mut self, word: &[u8], value: Value) -> Result<Value, ParseError> {
        for &expected in word {
            match self.peek()? {
                Some(byte) if byte == expected => self.bump(),
                Some(byte) => return Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
                None => return Err(self.error(ParseErrorKind::UnexpectedEnd)),
            }
        }
        Ok(value)
    }

    fn take_digits(&mut self, text: &mut Vec<u8>) -> Result<usize, ParseError> {
        let mut count = 0;
        while let Some(byte @ b'0'..=b'9') = self.peek()? {
            text.push(byte);
            self.bump();
            count += 1;
        }
        Ok(count)
    }

    fn require_digits(&mut self, text: &mut Vec<u8>) -> Result<(), ParseError> {
        if self.take_digits(text)? == 0 {
            return Err(match self.peek()? {
                Some(byte) => self.error(ParseErrorKind::UnexpectedByte(byte)),
                None => self.error(ParseErrorKind::UnexpectedEnd),
            });
        }
        Ok(())
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, rounded to the
    /// nearest double (too large is Infinity, too small is zero).
    fn parse_number(&mut self) -> Result<f64, ParseError> {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        if self.peek()? == Some(b'-') {
            text.push(b'-');
            self.bump();
        }
        match self.peek()? {
            Some(b'0') => {
                text.push(b'0');
                self.bump();
            }
            _ => self.require_digits(&mut text)?,
        }
        if self.peek()? == Some(b'.') {
            text.push(b'.');
            self.bump();
            self.require_digits(&mut text)?;
        }
        if let Some(e @ (b'e' | b'E')) = self.peek()? {
            text.push(e);
            self.bump();
            if let Some(sign @ (b'+' | b'-')) = self.peek()? {
                text.push(sign);
                self.bump();
            }
            self.require_digits(&mut text)?;
        }
        let number = std::str::from_utf8(&text)
            .ok()
            .and_then(|digits| digits.parse::<f64>().ok())
            .expect("the JSON number grammar is a subset of Rust's");
        self.scratch = text;
        Ok(number)
    }

    fn parse_hex4(&mut self) -> Result<u16, ParseError> {
        let mut unit = 0u16;
        for _ in 0..4 {
            let digit = match self.peek()? {
                Some(byte @ b'0'..=b'9') => byte - b'0',
                Some(byte @ b'a'..=b'f') => byte - b'a' + 10,
                Some(byte @ b'A'..=b'F') => byte - b'A' + 10,
                Some(byte) => return Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
                None => return Err(self.error(ParseErrorKind::UnexpectedEnd)),
            };
            unit = unit * 16 + u16::from(digit);
            self.bump();
        }
        Ok(unit)
    }

    /// The rest of a string literal, after its opening quote.
    fn parse_string_body(&mut self) -> Result<JsString, ParseError> {
        let mut out: Vec<u8> = Vec::new();
        loop {
            if self.position == self.buffer.len() && self.fill(1)? == 0 {
                return Err(self.error(ParseErrorKind::UnexpectedEnd));
            }
            let available = &self.buffer[self.position..];
            let run = available
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(available.len());
            if run > 0 {
                let stopped_at_special = run < available.len();
                self.take_text_run(run, stopped_at_special, &mut out)?;
                continue;
            }
            match available[0] {
                b'"' => {
                    self.bump();
                    return Ok(JsString::from_wtf8_unchecked(out));
                }
                b'\\' => {
                    self.bump();
                    self.parse_escape(&mut out)?;
                }
                control => return Err(self.error(ParseErrorKind::UnexpectedByte(control))),
            }
        }
    }

    /// Appends the `run` bytes of plain string text at the read position.
    fn take_text_run(
        &mut self,
        run: usize,
        stopped_at_special: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), ParseError> {
        let start = self.position;
        let text = &self.buffer[start..start + run];
        if self.mode == TextMode::Wtf8 {
            // Trusted canonical WTF-8: only a run's first character can
            // pair with what precedes it (an escape), so runs are taken in
            // whole characters. One cut by the end of a streamed chunk is
            // taken once the rest of it has been read.
            let whole = if stopped_at_special || self.exhausted {
                run
            } else {
                whole_characters_len(text)
            };
            if whole == 0 {
                self.fill(4)?;
                return Ok(());
            }
            push_wtf8_to(out, &text[..whole]);
            self.position += whole;
            return Ok(());
        }
        match std::str::from_utf8(text) {
            Ok(_) => {
                out.extend_from_slice(text);
                self.position += run;
            }
            Err(error) => {
                let valid = error.valid_up_to();
                out.extend_from_slice(&text[..valid]);
                self.position += valid;
                match error.error_len() {
                    Some(invalid) => {
                        out.extend_from_slice("\u{FFFD}".as_bytes());
                        self.position += invalid;
                    }
                    // A sequence cut short. Before a quote, backslash or
                    // control (or at the end of all input) it is truly
                    // truncated: one U+FFFD. At the end of the buffer, read
                    // on and look at it again.
                    None if stopped_at_special || self.exhausted => {
                        out.extend_from_slice("\u{FFFD}".as_bytes());
                        self.position += run - valid;
                    }
                    None => {
                        self.fill(4)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn parse_escape(&mut self, out: &mut Vec<u8>) -> Result<(), ParseError> {
        let Some(byte) = self.peek()? else {
            return Err(self.error(ParseErrorKind::UnexpectedEnd));
        };
        let simple = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                self.bump();
                let unit = self.parse_hex4()?;
                push_code_unit_to(out, unit);
                return Ok(());
            }
            other => return Err(self.error(ParseErrorKind::UnexpectedByte(other))),
        };
        self.bump();
        out.push(simple);
        Ok(())
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
