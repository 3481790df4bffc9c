//! A case file as reports and ledgers see it: each case's raw bytes, the
//! line it starts on, its op and its stable identity; and `--op`
//! selection.
//!
//! Elements are found by a scanner that follows only brackets and string
//! literals, so that a case file with invalid UTF-8 in a string, or cases
//! nested deeper than any parser's limit, still has positions, lines and
//! identities. Each case is parsed on its own, for its `op` and `name`.

use std::borrow::Cow;
use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;

use crate::corpus::head::{self, Head};
use crate::corpus::identity::{CaseId, CaseKey};
use crate::judge::scan::{self, Mode};
use js_exact::{self as js, JsString, TextMode, Value};

/// One case of a case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseItem {
    /// Where its raw bytes stand in the file.
    pub span: Range<usize>,
    /// The 1-based line where they start.
    pub line: usize,
    /// Its `op`, when that is a string (lone surrogates as U+FFFD).
    pub op: Option<String>,
    /// Its identity as it was read; `None` for a case read lazily with no
    /// string `name`, whose key (the short hash of its bytes) [`id`](Self::id)
    /// makes when asked.
    id: Option<CaseId>,
}

impl CaseItem {
    /// The case whose raw bytes, `raw`, stand at `span` of `file`, from
    /// `line` on: parsed once, for its op and its identity.
    pub fn read(file: &str, raw: &[u8], span: Range<usize>, line: usize) -> Self {
        let mut item = CaseItem::read_lazily(file, raw, span, line);
        if item.id.is_none() {
            item.id = Some(CaseId::named(file, raw, None));
        }
        item
    }

    /// [`read`](Self::read), but a case without a string `name` is not
    /// hashed until its identity is asked for: most cases of a large file
    /// pass and are only counted (issue 23: the hash, its text and the
    /// file's name were a fifth of `compare --cases`).
    pub fn read_lazily(file: &str, raw: &[u8], span: Range<usize>, line: usize) -> Self {
        let head = head_of(raw);
        CaseItem {
            line,
            id: head
                .name
                .as_ref()
                .map(|name| CaseId::named(file, raw, Some(name))),
            op: head.op.map(JsString::into_utf8_lossy),
            span,
        }
    }

    /// Its identity, as a case of `file` whose raw bytes are `raw` (the
    /// ones it was read from).
    pub fn id(&self, file: &str, raw: &[u8]) -> Cow<'_, CaseId> {
        match &self.id {
            Some(id) => Cow::Borrowed(id),
            None => Cow::Owned(CaseId::named(file, raw, None)),
        }
    }

    /// Hands `with` the op of the case whose raw bytes are `raw`, as
    /// [`read`](Self::read) finds it, without its identity (and, when it
    /// has no escape, without a copy).
    pub fn with_op_of_raw<T>(raw: &[u8], with: impl FnOnce(Option<&str>) -> T) -> T {
        // The common case: an op with no escape is its bytes (and the
        // name is not read at all).
        if let Some(members) = head::members(raw) {
            match members.op {
                None => return with(None),
                Some(op) if op.first() != Some(&b'"') => return with(None),
                Some(op) => {
                    if let Some(text) = head::plain_text(op) {
                        return with(Some(text));
                    }
                }
            }
        }
        let op = head_of(raw).op;
        with(op.as_ref().map(|op| op.to_utf8_lossy()).as_deref())
    }
}

/// A case's `op` and `name`: most cases need no value built ([`head`]);
/// the rest are parsed.
fn head_of(raw: &[u8]) -> Head {
    head::read(raw)
        .unwrap_or_else(|| Head::of_value(js::parse(raw, TextMode::LossyUtf8).ok().as_ref()))
}

/// The cases of one case file, by position.
#[derive(Debug, Clone, Default)]
pub struct CaseFile {
    /// The identity file name (relative to the cases directory).
    pub file: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// Each case, in order; empty when the file is not an array.
    pub items: Vec<CaseItem>,
    /// Whether the file could be read as an array at all.
    pub is_array: bool,
}

/// The spans of the top-level elements of a JSON array, found without
/// validating them ([`Mode::Lenient`]); `None` when the text is not one
/// array.
pub fn element_spans(bytes: &[u8]) -> Option<Vec<Range<usize>>> {
    scan::spans(bytes, Mode::Lenient).ok()
}

/// A case's `op`, when it is a string.
pub fn op_of(case: &Value) -> Option<String> {
    case.get("op")
        .as_js_string()
        .map(|op| op.to_utf8_lossy().into_owned())
}

impl CaseFile {
    /// Reads a case file's cases. A file that is not an array has none
    /// (the oracle decides what to make of it).
    pub fn read(file: &str, bytes: Vec<u8>) -> Self {
        let Some(spans) = element_spans(&bytes) else {
            return CaseFile {
                file: file.to_owned(),
                bytes,
                items: Vec::new(),
                is_array: false,
            };
        };
        let mut items = Vec::with_capacity(spans.len());
        let (mut line, mut counted) = (1, 0);
        for span in spans {
            line += bytes[counted..span.start]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            counted = span.start;
            let raw = &bytes[span.clone()];
            items.push(CaseItem::read(file, raw, span, line));
        }
        CaseFile {
            file: file.to_owned(),
            bytes,
            items,
            is_array: true,
        }
    }

    /// One case's raw bytes.
    pub fn raw(&self, index: usize) -> Option<&[u8]> {
        self.items
            .get(index)
            .map(|item| &self.bytes[item.span.clone()])
    }

    /// One case's identity.
    pub fn id(&self, index: usize) -> Option<Cow<'_, CaseId>> {
        let item = self.items.get(index)?;
        Some(item.id(&self.file, &self.bytes[item.span.clone()]))
    }

    /// One case's value, parsed again (cases are not kept parsed: a
    /// report needs few of them).
    pub fn value(&self, index: usize) -> Option<Value> {
        self.raw(index)
            .and_then(|raw| js::parse(raw, TextMode::LossyUtf8).ok())
    }

    /// The positions of the cases whose op is one of `ops`.
    pub fn select(&self, ops: &[String]) -> Vec<usize> {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, item)| item.op.as_ref().is_some_and(|op| ops.contains(op)))
            .map(|(index, _)| index)
            .collect()
    }

    /// The first two cases that share an identity (a ledger cannot tell
    /// them apart), as a message naming both.
    pub fn duplicate_identity(&self) -> Option<String> {
        let mut duplicates = Duplicates::default();
        for (index, item) in self.items.iter().enumerate() {
            let raw = &self.bytes[item.span.clone()];
            duplicates.see(index, item.line, &item.id(&self.file, raw));
        }
        duplicates.message().map(str::to_owned)
    }
}

/// One case: what the case file says of it, and its raw bytes.
#[derive(Debug, Clone, Copy)]
pub struct Case<'a> {
    /// Its position, line, op and identity.
    pub item: &'a CaseItem,
    /// Its bytes, as they stand in the file.
    pub raw: &'a [u8],
}

impl Case<'_> {
    /// Its identity, as a case of `file` (the file it was read from).
    pub fn id(&self, file: &str) -> Cow<'_, CaseId> {
        self.item.id(file, self.raw)
    }
}

/// Two cases of one file known by one identity, found while reading the
/// file: each case costs a hash of its key and two numbers, not its key.
/// Two different keys with one 64-bit hash would pass for one (about one
/// chance in 10^7 for a file of a million cases).
#[derive(Debug, Default)]
pub struct Duplicates {
    /// Each key's hash: the first case that had it (index, line).
    seen: HashMap<u64, (usize, usize)>,
    /// The first case whose key was seen before, with the case before, as
    /// a message naming both.
    found: Option<String>,
}

impl Duplicates {
    /// Notes the case at `index`, on `line`, known as `id` (cases come in
    /// order).
    pub fn see(&mut self, index: usize, line: usize, id: &CaseId) {
        if self.found.is_some() {
            return;
        }
        let mut hasher = DefaultHasher::new();
        match &id.key {
            CaseKey::Name(name) => (0u8, name).hash(&mut hasher),
            CaseKey::Hash(hash) => (1u8, hash).hash(&mut hasher),
        }
        match self.seen.entry(hasher.finish()) {
            Entry::Occupied(first) => {
                let (first, first_line) = *first.get();
                self.found = Some(format!(
                    "cases #{first} (line {first_line}) and #{index} (line {}) of {} are both \
                     known as {}; a ledger needs each case's name to be unique within its file",
                    line, id.file, id
                ));
                self.seen = HashMap::new();
            }
            Entry::Vacant(slot) => {
                slot.insert((index, line));
            }
        }
    }

    /// The first two cases that share an identity, as a message naming
    /// both.
    pub fn message(&self) -> Option<&str> {
        self.found.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::CaseKey;

    fn spans(text: &str) -> Option<Vec<&str>> {
        element_spans(text.as_bytes()).map(|spans| spans.into_iter().map(|s| &text[s]).collect())
    }

    #[test]
    fn elements_are_found_by_brackets_and_strings() {
        assert_eq!(spans("[]"), Some(vec![]));
        assert_eq!(spans(" [ ] \n"), Some(vec![]));
        assert_eq!(
            spans("[1, \"a,]\\\"\" ,{\"x\":[1,2]},[[]],null,-1e3]"),
            Some(vec![
                "1",
                "\"a,]\\\"\"",
                "{\"x\":[1,2]}",
                "[[]]",
                "null",
                "-1e3"
            ])
        );
        assert_eq!(spans("[\n{\"a\":1},\n2\n]\n"), Some(vec!["{\"a\":1}", "2"]));
        for bad in [
            "", "{}", "[1,]", "[,1]", "[1", "[1] x", "[1,,2]", "x", "[\"a",
        ] {
            assert_eq!(spans(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn invalid_utf8_inside_a_string_still_splits() {
        let bytes = b"[\"\xff\",2]";
        assert_eq!(element_spans(bytes).unwrap(), [1..4, 5..6]);
    }

    #[test]
    fn lines_ops_identities_and_selection() {
        let text = "[\n{\"op\":\"a\",\"name\":\"one\"},\n\n{\"op\":\"b\"}, 5,\n{\"op\":\"a\",\"name\":\"two\"}]";
        let file = CaseFile::read("x.json", text.as_bytes().to_vec());
        assert!(file.is_array);
        let lines: Vec<usize> = file.items.iter().map(|item| item.line).collect();
        assert_eq!(lines, [2, 4, 4, 5]);
        let ops: Vec<Option<&str>> = file.items.iter().map(|i| i.op.as_deref()).collect();
        assert_eq!(ops, [Some("a"), Some("b"), None, Some("a")]);
        assert_eq!(file.id(0).unwrap().to_string(), "x.json \"one\"");
        assert!(matches!(file.id(2).unwrap().key, CaseKey::Hash(_)));
        assert_eq!(file.id(4), None);
        assert_eq!(file.select(&["a".into()]), [0, 3]);
        assert_eq!(file.duplicate_identity(), None);
        assert_eq!(file.value(2), Some(Value::Number(5.0)));
    }

    /// A case read lazily has the identity of one read whole: named, it
    /// is made as it is read; unnamed, when asked for, from its bytes.
    #[test]
    fn a_case_read_lazily_has_the_identity_of_one_read_whole() {
        for raw in [
            &br#"{"op":"a","name":"one"}"#[..],
            br#"{"op":"b"}"#,
            b"5",
            b"{\"name\":\"\\ud800\"}",
            b"{not json",
        ] {
            let whole = CaseItem::read("x.json", raw, 0..raw.len(), 1);
            let lazy = CaseItem::read_lazily("x.json", raw, 0..raw.len(), 1);
            assert_eq!(lazy.id("x.json", raw), whole.id("x.json", raw));
            assert!(matches!(whole.id("x.json", raw), Cow::Borrowed(_)));
            assert_eq!(lazy.op, whole.op);
            let named = matches!(whole.id("x.json", raw).key, CaseKey::Name(_));
            assert_eq!(matches!(lazy.id("x.json", raw), Cow::Borrowed(_)), named);
        }
    }

    #[test]
    fn duplicate_identities_name_both_cases() {
        let text = "[{\"name\":\"n\"},\n1,\n{\"op\":\"x\",\"name\":\"n\"}]";
        let file = CaseFile::read("d.json", text.as_bytes().to_vec());
        assert_eq!(
            file.duplicate_identity().unwrap(),
            "cases #0 (line 1) and #2 (line 3) of d.json are both known as d.json \"n\"; \
             a ledger needs each case's name to be unique within its file"
        );
        let file = CaseFile::read("d.json", b"[1,2,1]".to_vec());
        assert!(file
            .duplicate_identity()
            .unwrap()
            .starts_with("cases #0 (line 1) and #2"));
    }

    #[test]
    fn a_file_that_is_no_array_has_no_cases() {
        let file = CaseFile::read("x.json", b"{}".to_vec());
        assert!(!file.is_array);
        assert!(file.items.is_empty());
    }
}
