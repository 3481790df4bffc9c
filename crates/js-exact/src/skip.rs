//! Reading past a value without building it: a reader of a saved report
//! skips the members it does not use, and a forged report may hold a
//! member of millions of nested arrays. The syntax is checked as
//! [`JsonReader::parse_value`] checks it; what is kept is one bit per open
//! container (to know which bracket closes it) and a few bytes of the
//! escape being read.

use std::io::Read;

use super::{JsonReader, ParseError, ParseErrorKind, Value};

/// Which containers are open: one bit each, set for an object.
#[derive(Default)]
struct Open {
    bits: Vec<u64>,
    depth: usize,
}

impl Open {
    fn push(&mut self, object: bool) {
        let (word, bit) = (self.depth / 64, self.depth % 64);
        if word == self.bits.len() {
            self.bits.push(0);
        }
        if object {
            self.bits[word] |= 1 << bit;
        } else {
            self.bits[word] &= !(1 << bit);
        }
        self.depth += 1;
    }

    /// Whether the innermost open container is an object; `None` when
    /// none is open.
    fn top(&self) -> Option<bool> {
        let at = self.depth.checked_sub(1)?;
        Some(self.bits[at / 64] & (1 << (at % 64)) != 0)
    }

    fn pop(&mut self) {
        self.depth -= 1;
        if self.depth.is_multiple_of(64) {
            self.bits.truncate(self.depth / 64);
        }
    }
}

impl<R: Read> JsonReader<R> {
    /// Reads past one value, checking its syntax and building nothing.
    /// `depth` is how many containers enclose it, as for
    /// [`JsonReader::parse_value`].
    pub fn skip_value(&mut self, depth: usize) -> Result<(), ParseError> {
        let mut open = Open::default();
        let mut scratch = Vec::new();
        'value: loop {
            self.skip_white_space()?;
            match self.peek()? {
                None => return Err(self.error(ParseErrorKind::UnexpectedEnd)),
                Some(b'[') => {
                    self.open_container(depth + open.depth)?;
                    if !self.expect_one_of_or_value(b']')? {
                        open.push(false);
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.open_container(depth + open.depth)?;
                    if !self.expect_one_of_or_value(b'}')? {
                        self.skip_key(&mut scratch)?;
                        open.push(true);
                        continue 'value;
                    }
                }
                Some(b'"') => {
                    self.bump();
                    self.skip_string_body(&mut scratch)?;
                }
                Some(b'-' | b'0'..=b'9') => {
                    self.parse_number()?;
                }
                Some(b't') => {
                    self.parse_literal(b"true", Value::Null)?;
                }
                Some(b'f') => {
                    self.parse_literal(b"false", Value::Null)?;
                }
                Some(b'n') => {
                    self.parse_literal(b"null", Value::Null)?;
                }
                Some(byte) => return Err(self.error(ParseErrorKind::UnexpectedByte(byte))),
            }
            // A value is complete: close every container that ends with it.
            while let Some(object) = open.top() {
                if object {
                    if self.expect_one_of(b",}")? == b',' {
                        self.skip_key(&mut scratch)?;
                        continue 'value;
                    }
                } else if self.expect_one_of(b",]")? == b',' {
                    continue 'value;
                }
                open.pop();
            }
            return Ok(());
        }
    }

    fn skip_key(&mut self, scratch: &mut Vec<u8>) -> Result<(), ParseError> {
        self.expect_byte(b'"')?;
        self.skip_string_body(scratch)?;
        self.expect_byte(b':')
    }

    /// Reads past a string's text and its closing quote (the opening one
    /// read).
    fn skip_string_body(&mut self, scratch: &mut Vec<u8>) -> Result<(), ParseError> {
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
                self.position += run;
                continue;
            }
            match available[0] {
                b'"' => {
                    self.bump();
                    return Ok(());
                }
                b'\\' => {
                    self.bump();
                    scratch.clear();
                    self.parse_escape(scratch)?;
                }
                control => return Err(self.error(ParseErrorKind::UnexpectedByte(control))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{JsonReader, TextMode};

    /// Skips one value of `text` and returns where the reader stands, or
    /// the error; `parse_value` must agree.
    fn skip(text: &str) -> Result<u64, String> {
        let mut skipper = JsonReader::new(text.as_bytes(), TextMode::LossyUtf8);
        let skipped = skipper.skip_value(0).map(|()| skipper.offset());
        let mut parser = JsonReader::new(text.as_bytes(), TextMode::LossyUtf8);
        let parsed = parser.parse_value(0).map(|_| parser.offset());
        assert_eq!(
            skipped.as_ref().map_err(ToString::to_string),
            parsed.as_ref().map_err(ToString::to_string),
            "{text}"
        );
        skipped.map_err(|error| error.to_string())
    }

    #[test]
    fn skipping_reads_as_far_as_parsing_and_fails_alike() {
        for text in [
            "1",
            "-2.5e3 ",
            "true,",
            "null]",
            r#""a\"b\u00e9""#,
            "[]",
            "{}",
            "[1,[2,{}],3] x",
            r#"{"a":[{"b":"c"}],"d":{}}"#,
            "[1,]",
            "[1}",
            r#"{"a" 1}"#,
            r#"{"a":1,}"#,
            "[",
            r#""\q""#,
            "\"a\u{1}\"",
            "tru",
            "[[[[]]]]]",
            r#"{"a":{"b":[}}"#,
        ] {
            let _ = skip(text);
        }
        assert_eq!(skip("[1,[2,{}],3] x"), Ok(12));
    }

    #[test]
    fn deep_nesting_costs_a_bit_a_level() {
        let depth = 1_000_000;
        let text = format!("{}0{}", "[{\"k\":".repeat(depth), "}]".repeat(depth));
        let mut reader =
            JsonReader::new(text.as_bytes(), TextMode::LossyUtf8).without_depth_limit();
        reader.skip_value(0).unwrap();
        assert_eq!(reader.offset(), text.len() as u64);
        let mut reader = JsonReader::new(text.as_bytes(), TextMode::LossyUtf8).with_max_depth(10);
        assert!(reader.skip_value(0).is_err());
    }
}
