//! A case file's elements read from a stream, one at a time, split
//! exactly as [`element_spans`](super::cases::element_spans) splits a
//! whole file (brackets and string literals only, nothing validated), so
//! that counting the cases of a large corpus (for `--shard`) holds one
//! case at a time, never a file. The bytes read are hashed on the way,
//! for the corpus's fingerprint.

use std::io::{self, Read};

use super::identity::Fnv1a;

const CHUNK: usize = 64 * 1024;

/// What the stream found next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// An element; its bytes are [`ElementStream::element`].
    Element,
    /// The array ended, and nothing but white space follows it.
    End,
    /// The text is not one array (found perhaps only at its end: the
    /// elements yielded before do not count).
    NotArray,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Start,
    Inside,
    Closed,
    Over(Step),
}

/// The elements of one JSON array, from a reader.
pub struct ElementStream<R> {
    reader: R,
    buffer: Vec<u8>,
    at: usize,
    eof: bool,
    hash: Fnv1a,
    state: State,
    element: Vec<u8>,
    yielded: usize,
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

impl<R: Read> ElementStream<R> {
    /// A stream over `reader`.
    pub fn new(reader: R) -> Self {
        ElementStream {
            reader,
            buffer: Vec::new(),
            at: 0,
            eof: false,
            hash: Fnv1a::new(),
            state: State::Start,
            element: Vec::new(),
            yielded: 0,
        }
    }

    /// The last element's raw bytes.
    pub fn element(&self) -> &[u8] {
        &self.element
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        if self.at == self.buffer.len() {
            if self.eof {
                return Ok(None);
            }
            self.buffer.resize(CHUNK, 0);
            let read = loop {
                match self.reader.read(&mut self.buffer) {
                    Ok(read) => break read,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(error),
                }
            };
            self.buffer.truncate(read);
            self.hash.update(&self.buffer);
            self.at = 0;
            if read == 0 {
                self.eof = true;
                return Ok(None);
            }
        }
        self.at += 1;
        Ok(Some(self.buffer[self.at - 1]))
    }

    fn over(&mut self, step: Step) -> io::Result<Step> {
        self.state = State::Over(step);
        Ok(step)
    }

    /// The next element, the end, or the news that this is no array.
    pub fn next_step(&mut self) -> io::Result<Step> {
        match self.state {
            State::Over(step) => return Ok(step),
            State::Closed => {
                while let Some(byte) = self.byte()? {
                    if !is_space(byte) {
                        return self.over(Step::NotArray);
                    }
                }
                return self.over(Step::End);
            }
            State::Start => {
                let first = loop {
                    match self.byte()? {
                        Some(byte) if is_space(byte) => continue,
                        other => break other,
                    }
                };
                if first != Some(b'[') {
                    return self.over(Step::NotArray);
                }
                self.state = State::Inside;
            }
            State::Inside => {}
        }
        self.element.clear();
        let mut started = false;
        let mut depth = 0usize;
        let mut end = 0;
        loop {
            let Some(byte) = self.byte()? else {
                return self.over(Step::NotArray);
            };
            match byte {
                b'"' => {
                    started = true;
                    self.element.push(byte);
                    loop {
                        let Some(next) = self.byte()? else {
                            return self.over(Step::NotArray);
                        };
                        self.element.push(next);
                        if next == b'\\' {
                            let Some(escaped) = self.byte()? else {
                                return self.over(Step::NotArray);
                            };
                            self.element.push(escaped);
                        } else if next == b'"' {
                            break;
                        }
                    }
                }
                b'[' | b'{' => {
                    started = true;
                    depth += 1;
                    self.element.push(byte);
                }
                b']' | b'}' if depth > 0 => {
                    depth -= 1;
                    self.element.push(byte);
                }
                b']' => {
                    self.state = State::Closed;
                    if started {
                        self.element.truncate(end);
                        self.yielded += 1;
                        return Ok(Step::Element);
                    }
                    if self.yielded > 0 {
                        // `[1,]`
                        return self.over(Step::NotArray);
                    }
                    return self.next_step();
                }
                b',' if depth == 0 => {
                    if !started {
                        return self.over(Step::NotArray);
                    }
                    self.element.truncate(end);
                    self.yielded += 1;
                    return Ok(Step::Element);
                }
                byte if is_space(byte) => {
                    if started {
                        self.element.push(byte);
                    }
                    continue;
                }
                _ => {
                    started = true;
                    self.element.push(byte);
                }
            }
            end = self.element.len();
        }
    }

    /// Reads what is left, and returns the FNV-1a hash of every byte.
    pub fn finish(mut self) -> io::Result<u64> {
        self.at = self.buffer.len();
        while !self.eof {
            self.byte()?;
            self.at = self.buffer.len();
        }
        Ok(self.hash.finish())
    }
}

/// The FNV-1a hash of everything `reader` holds, read in chunks.
pub fn hash_reader(reader: impl Read) -> io::Result<u64> {
    ElementStream::new(reader).finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::cases::element_spans;
    use crate::diff::identity::fnv1a;
    use proptest::prelude::*;

    /// What the stream yields: the elements, or `None` for no array.
    fn streamed(bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        let mut stream = ElementStream::new(bytes);
        let mut elements = Vec::new();
        loop {
            match stream.next_step().unwrap() {
                Step::Element => elements.push(stream.element().to_vec()),
                Step::End => break,
                Step::NotArray => return None,
            }
        }
        assert_eq!(stream.next_step().unwrap(), Step::End, "the end stays");
        assert_eq!(stream.finish().unwrap(), fnv1a(&[bytes]));
        Some(elements)
    }

    fn whole(bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        element_spans(bytes).map(|spans| spans.into_iter().map(|s| bytes[s].to_vec()).collect())
    }

    #[test]
    fn splits_as_the_whole_file_splitter_does() {
        for text in [
            "[]",
            " [ ] \n",
            "[1, \"a,]\\\"\" ,{\"x\":[1,2]},[[]],null,-1e3]",
            "[\n{\"a\":1},\n2\n]\n",
            "[ { \"a\" : 1 } , 2 ]",
            "[1}]",
            "",
            "{}",
            "[1,]",
            "[,1]",
            "[1",
            "[1] x",
            "[1,,2]",
            "x",
            "[\"a",
            "[\"a\\",
        ] {
            assert_eq!(
                streamed(text.as_bytes()),
                whole(text.as_bytes()),
                "{text:?}"
            );
        }
        assert_eq!(
            streamed(b"[\"\xff\",2]"),
            Some(vec![b"\"\xff\"".to_vec(), b"2".to_vec()])
        );
    }

    #[test]
    fn elements_larger_than_a_chunk_come_whole() {
        let big = format!(
            "[\"{}\",[{}]]",
            "x".repeat(CHUNK * 2),
            "[".repeat(3) + "]]]"
        );
        let elements = streamed(big.as_bytes()).unwrap();
        assert_eq!(elements.len(), 2);
        assert_eq!(elements[0].len(), CHUNK * 2 + 2);
        assert_eq!(
            hash_reader(big.as_bytes()).unwrap(),
            fnv1a(&[big.as_bytes()])
        );
    }

    proptest! {
        #[test]
        fn any_text_splits_alike(text in "[\\[\\]{}\",\\\\ 1a\n]{0,24}") {
            let text = format!("[{text}");
            prop_assert_eq!(streamed(text.as_bytes()), whole(text.as_bytes()));
            prop_assert_eq!(streamed(&text.as_bytes()[1..]), whole(&text.as_bytes()[1..]));
        }
    }
}
