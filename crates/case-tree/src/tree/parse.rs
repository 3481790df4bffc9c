//! JSON text into [`Node`] trees that keep its spelling: each number as
//! written (`1.0`, `-0`, `1e400`), each string's escapes, every member of
//! an object in order, duplicates included. Cases from a generator
//! command or a corpus become trees this way, and are written back to the
//! same bytes (less the white space between tokens, and a key's escapes:
//! keys are written as `JSON.stringify` writes them).

use std::sync::Arc;

use super::{write_string, Escapes, Node};
use js_exact::JsString;

/// The deepest nesting a parsed tree may have. The minimizer and the
/// writer recurse over a tree, on threads with the default stack; a case
/// nested deeper is refused with a message, never a stack overflow.
pub const MAX_DEPTH: usize = 512;

/// Reads one JSON text (white space around it allowed) as a tree.
pub fn parse(text: &[u8]) -> Result<Node, String> {
    let mut parser = Parser { text, at: 0 };
    parser.blank();
    let node = parser.value(0)?;
    parser.blank();
    if parser.at < text.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {}", self.at)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), String> {
        self.blank();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        self.blank();
        match self.peek() {
            None => Err(self.error("the text ends where a value was expected")),
            Some(b'{' | b'[') if depth >= MAX_DEPTH => {
                Err(self.error(&format!("nesting deeper than {MAX_DEPTH} levels")))
            }
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let (text, escapes) = self.string()?;
                Ok(Node::String(text, escapes))
            }
            Some(b't') => self.word(b"true", Node::Bool(true)),
            Some(b'f') => self.word(b"false", Node::Bool(false)),
            Some(b'n') => self.word(b"null", Node::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("not a JSON value")),
        }
    }

    fn word(&mut self, word: &[u8], node: Node) -> Result<Node, String> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(node)
        } else {
            Err(self.error("not a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as written.
    fn number(&mut self) -> Result<Node, String> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let leading_zero = self.peek() == Some(b'0');
        let whole = self.digits();
        if whole == 0 || (leading_zero && whole > 1) {
            return Err(self.error("not a JSON number"));
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return Err(self.error("not a JSON number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("not a JSON number"));
            }
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).expect("ASCII");
        Ok(Node::Number(text.to_owned()))
    }

    fn hex4(&mut self) -> Result<u16, String> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error("a \\u escape needs four hex digits"))?;
        self.at += 4;
        Ok(u16::from_str_radix(digits, 16).expect("hex digits"))
    }

    /// A string's code units, and how it was written: as `JSON.stringify`
    /// writes it, with every non-ASCII unit escaped, or else exactly so.
    fn string(&mut self) -> Result<(JsString, Escapes), String> {
        let start = self.at;
        self.at += 1;
        let mut units: Vec<u16> = Vec::new();
        loop {
            let run = self.at;
            while !matches!(self.peek(), None | Some(b'"' | b'\\' | 0..=0x1f)) {
                self.at += 1;
            }
            // Node decodes invalid UTF-8 as U+FFFD per maximal invalid
            // sequence, as from_utf8_lossy does.
            units.extend(String::from_utf8_lossy(&self.text[run..self.at]).encode_utf16());
            match self.peek() {
                None => return Err(self.error("the text ends inside a string")),
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self
                        .peek()
                        .ok_or_else(|| self.error("the text ends inside a string"))?;
                    self.at += 1;
                    units.push(match escaped {
                        b'"' => 0x22,
                        b'\\' => 0x5C,
                        b'/' => 0x2F,
                        b'b' => 0x08,
                        b'f' => 0x0C,
                        b'n' => 0x0A,
                        b'r' => 0x0D,
                        b't' => 0x09,
                        b'u' => self.hex4()?,
                        _ => {
                            self.at -= 1;
                            return Err(self.error("not a JSON escape"));
                        }
                    });
                }
                Some(_) => return Err(self.error("a control character inside a string")),
            }
        }
        let text = JsString::from_utf16(&units);
        let raw = &self.text[start..self.at];
        let escapes = [Escapes::Plain, Escapes::Unicode]
            .into_iter()
            .find(|escapes| {
                let mut written = Vec::with_capacity(raw.len());
                write_string(&text, escapes, &mut written);
                written == raw
            })
            .unwrap_or_else(|| Escapes::Written(Arc::from(raw)));
        Ok((text, escapes))
    }

    fn array(&mut self, depth: usize) -> Result<Node, String> {
        self.at += 1;
        let mut items = Vec::new();
        self.blank();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(Node::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            self.blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(Node::Array(items));
                }
                _ => return Err(self.error("expected `,` or `]` in an array")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Node, String> {
        self.at += 1;
        let mut members = Vec::new();
        self.blank();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(Node::Object(members));
        }
        loop {
            self.blank();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a string key in an object"));
            }
            let (key, _) = self.string()?;
            self.expect(b':', "expected `:` after a key")?;
            members.push((key, self.value(depth + 1)?));
            self.blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(Node::Object(members));
                }
                _ => return Err(self.error("expected `,` or `}` in an object")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn round_trip(text: &str) -> String {
        String::from_utf8(parse(text.as_bytes()).unwrap().to_text()).unwrap()
    }

    #[test]
    fn spelling_is_kept() {
        for text in [
            r#"{"op":"x","a":1.0,"a":-0,"b":[1e400,1E+2,0.50],"c":"\u00e9\ud800\n\/"}"#,
            r#"["é",true,false,null,{},[],"\u00E9",""]"#,
            r#"{"k":"\u0041\t","2":1,"1":2}"#,
            "-12345678901234567890",
        ] {
            assert_eq!(round_trip(text), text);
        }
        // White space between tokens goes; a key's escapes too.
        assert_eq!(
            round_trip(" { \"\\u0061\" : [ 1 , 2 ] } \n"),
            r#"{"a":[1,2]}"#
        );
    }

    #[test]
    fn strings_know_how_they_were_written() {
        let spelled = |text: &str| match parse(text.as_bytes()).unwrap() {
            Node::String(_, escapes) => escapes,
            other => panic!("{other:?}"),
        };
        assert_eq!(spelled(r#""é\n""#), Escapes::Plain);
        assert_eq!(spelled(r#""\u00E9\u000A""#), Escapes::Unicode);
        assert!(matches!(spelled(r#""\u00e9""#), Escapes::Written(_)));
        let Node::String(text, _) = parse(br#""a\ud83d\ude00\udc00""#).unwrap() else {
            panic!()
        };
        assert_eq!(text.to_utf16(), [0x61, 0xD83D, 0xDE00, 0xDC00]);
        // Invalid UTF-8 is U+FFFD, as Node reads it.
        let Node::String(text, _) = parse(b"\"a\xffb\"").unwrap() else {
            panic!()
        };
        assert_eq!(text.to_string(), "a\u{fffd}b");
    }

    #[test]
    fn what_is_not_json_is_refused_with_its_offset() {
        for (text, message) in [
            ("", "the text ends where a value was expected at byte 0"),
            ("[1,]", "not a JSON value at byte 3"),
            ("01", "not a JSON number at byte 2"),
            ("1.", "not a JSON number at byte 2"),
            ("-", "not a JSON number at byte 1"),
            ("{\"a\" 1}", "expected `:` after a key at byte 5"),
            ("{1:2}", "expected a string key in an object at byte 1"),
            (
                "\"a\u{1}\"",
                "a control character inside a string at byte 2",
            ),
            ("\"\\x\"", "not a JSON escape at byte 2"),
            ("\"\\u12\"", "a \\u escape needs four hex digits at byte 3"),
            ("\"abc", "the text ends inside a string at byte 4"),
            ("[1] 2", "unexpected text after the JSON value at byte 4"),
            ("nul", "not a JSON value at byte 0"),
            ("NaN", "not a JSON value at byte 0"),
        ] {
            assert_eq!(parse(text.as_bytes()).unwrap_err(), message, "{text:?}");
        }
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = |levels: usize| format!("{}{}", "[".repeat(levels), "]".repeat(levels));
        assert!(parse(deep(MAX_DEPTH).as_bytes()).is_ok());
        assert_eq!(
            parse(deep(100_000).as_bytes()).unwrap_err(),
            format!("nesting deeper than {MAX_DEPTH} levels at byte {MAX_DEPTH}")
        );
    }

    fn tree() -> impl Strategy<Value = Node> {
        let leaf = prop_oneof![
            Just(Node::Null),
            any::<bool>().prop_map(Node::Bool),
            prop::sample::select(vec!["0", "-0", "1.0", "1e400", "-1.5E-7", "12"])
                .prop_map(|n| Node::Number(n.into())),
            (prop::collection::vec(any::<u16>(), 0..6), any::<bool>()).prop_map(|(units, u)| {
                let escapes = if u { Escapes::Unicode } else { Escapes::Plain };
                Node::String(JsString::from_utf16(&units), escapes)
            }),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Node::Array),
                prop::collection::vec(("[a-c0-2]{0,2}", inner), 0..4).prop_map(|members| {
                    Node::Object(
                        members
                            .into_iter()
                            .map(|(k, v)| (JsString::from(k.as_str()), v))
                            .collect(),
                    )
                }),
            ]
        })
    }

    proptest! {
        /// A tree written and read back is the same bytes, and reads as
        /// the same value as JSON.parse makes of them.
        #[test]
        fn written_trees_read_back_to_the_same_bytes(node in tree()) {
            let text = node.to_text();
            let back = parse(&text).unwrap();
            prop_assert_eq!(back.to_text(), text.clone());
            let value = js_exact::parse(&text, js_exact::TextMode::LossyUtf8).unwrap();
            prop_assert_eq!(js_exact::stringify(&back.to_value()), js_exact::stringify(&value));
        }
    }
}
