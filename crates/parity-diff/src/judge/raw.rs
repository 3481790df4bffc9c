//! The written shape of one JSON element: every value's bytes and every
//! object's members in the order they were written, duplicates included.
//!
//! [`js_exact::parse()`] answers what a text *means*; this answers how it
//! was *written*, which is what a report needs to say why two equal values
//! print differently, and to pretty-print an element without changing a
//! byte of its scalars. Nodes live in one arena and every walk is a loop,
//! so neither building nor dropping a tree recurses, however deep it nests.

use std::ops::Range;

/// What kind of value a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `{...}`.
    Object,
    /// `[...]`.
    Array,
    /// A string literal, quotes included.
    String,
    /// A number as written.
    Number,
    /// `true`, `false` or `null`.
    Literal,
}

/// One value of the element.
#[derive(Debug, Clone)]
pub struct Node {
    /// What it is.
    pub kind: Kind,
    /// Its bytes in the element text.
    pub span: Range<usize>,
    members: Range<usize>,
}

/// A member of a container: an object member has the span of its key
/// (quotes included); an array element has none.
#[derive(Debug, Clone)]
pub struct Member {
    /// The key's bytes, for object members.
    pub key: Option<Range<usize>>,
    /// The node of the member's value.
    pub node: usize,
}

/// The written shape of one element.
#[derive(Debug)]
pub struct RawTree<'a> {
    text: &'a [u8],
    nodes: Vec<Node>,
    members: Vec<Member>,
}

struct Frame {
    node: usize,
    members: Vec<Member>,
    key: Option<Range<usize>>,
}

fn is_white_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

impl<'a> RawTree<'a> {
    /// Reads the shape of a JSON text; `None` when it is not one value of
    /// well-formed JSON structure. Scalars are delimited, not validated:
    /// callers hand in text that a validating parser has already accepted.
    pub fn parse(text: &'a [u8]) -> Option<Self> {
        let mut tree = RawTree {
            text,
            nodes: Vec::new(),
            members: Vec::new(),
        };
        let mut at = tree.skip_white_space(0);
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            // One value starts at `at`.
            let start = at;
            let kind = match *text.get(at)? {
                b'{' => Kind::Object,
                b'[' => Kind::Array,
                b'"' => Kind::String,
                b'-' | b'0'..=b'9' => Kind::Number,
                b't' | b'f' | b'n' => Kind::Literal,
                _ => return None,
            };
            let node = tree.nodes.len();
            tree.nodes.push(Node {
                kind,
                span: start..start,
                members: 0..0,
            });
            let mut complete = match kind {
                Kind::Object | Kind::Array => {
                    at = tree.skip_white_space(at + 1);
                    let close = if kind == Kind::Object { b'}' } else { b']' };
                    if *text.get(at)? == close {
                        at += 1;
                        tree.nodes[node].span = start..at;
                        Some(node)
                    } else {
                        let key = if kind == Kind::Object {
                            let (key, next) = tree.key(at)?;
                            at = next;
                            Some(key)
                        } else {
                            None
                        };
                        stack.push(Frame {
                            node,
                            members: Vec::new(),
                            key,
                        });
                        continue;
                    }
                }
                Kind::String => {
                    at = tree.string_end(at)?;
                    tree.nodes[node].span = start..at;
                    Some(node)
                }
                Kind::Number | Kind::Literal => {
                    at += 1;
                    while text.get(at).is_some_and(|&byte| {
                        byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.')
                    }) {
                        at += 1;
                    }
                    tree.nodes[node].span = start..at;
                    Some(node)
                }
            };
            // Hand each finished value to its container, closing every
            // container that ends with it.
            while let Some(done) = complete.take() {
                let Some(frame) = stack.last_mut() else {
                    return (tree.skip_white_space(at) == text.len()).then_some(tree);
                };
                frame.members.push(Member {
                    key: frame.key.take(),
                    node: done,
                });
                at = tree.skip_white_space(at);
                let container = frame.node;
                let is_object = tree.nodes[container].kind == Kind::Object;
                match (*text.get(at)?, is_object) {
                    (b',', true) => {
                        let (key, next) = tree.key(tree.skip_white_space(at + 1))?;
                        frame.key = Some(key);
                        at = next;
                    }
                    (b',', false) => at = tree.skip_white_space(at + 1),
                    (b'}', true) | (b']', false) => {
                        at += 1;
                        let frame = stack.pop()?;
                        let first = tree.members.len();
                        tree.members.extend(frame.members);
                        let entry = &mut tree.nodes[container];
                        entry.members = first..tree.members.len();
                        entry.span.end = at;
                        complete = Some(container);
                    }
                    _ => return None,
                }
            }
        }
    }

    fn skip_white_space(&self, mut at: usize) -> usize {
        while self.text.get(at).copied().is_some_and(is_white_space) {
            at += 1;
        }
        at
    }

    /// The end of the string literal that starts at `at`.
    fn string_end(&self, at: usize) -> Option<usize> {
        let mut at = at + 1;
        loop {
            match *self.text.get(at)? {
                b'"' => return Some(at + 1),
                b'\\' => at += 2,
                _ => at += 1,
            }
        }
    }

    /// A key at `at`, then its colon: the key's span and where its value
    /// starts.
    fn key(&self, at: usize) -> Option<(Range<usize>, usize)> {
        if self.text.get(at) != Some(&b'"') {
            return None;
        }
        let end = self.string_end(at)?;
        let colon = self.skip_white_space(end);
        (self.text.get(colon) == Some(&b':')).then(|| (at..end, self.skip_white_space(colon + 1)))
    }

    /// The element text the tree describes.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The outermost value.
    pub fn root(&self) -> usize {
        0
    }

    /// A node by number.
    pub fn node(&self, node: usize) -> &Node {
        &self.nodes[node]
    }

    /// The bytes of a node.
    pub fn bytes(&self, node: usize) -> &'a [u8] {
        &self.text[self.nodes[node].span.clone()]
    }

    /// The bytes of a span of the text (a key's, say).
    pub fn slice(&self, span: &Range<usize>) -> &'a [u8] {
        &self.text[span.clone()]
    }

    /// The members of a container, in the order written (none for scalars).
    pub fn members(&self, node: usize) -> &[Member] {
        &self.members[self.nodes[node].members.clone()]
    }

    /// The element pretty-printed: two spaces per level, one member per
    /// line, `"key": value`, and every key and scalar exactly as written.
    /// Equal texts print equally, and so do texts that differ only in
    /// white space. Indentation stops growing at 64 levels.
    pub fn pretty(&self) -> String {
        let mut out = Vec::with_capacity(self.text.len() * 2);
        // (container, next member) for each open container.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut next = Some(self.root());
        loop {
            if let Some(node) = next.take() {
                let entry = &self.nodes[node];
                match entry.kind {
                    Kind::Object | Kind::Array if !entry.members.is_empty() => {
                        out.push(if entry.kind == Kind::Object {
                            b'{'
                        } else {
                            b'['
                        });
                        stack.push((node, 0));
                    }
                    Kind::Object => out.extend_from_slice(b"{}"),
                    Kind::Array => out.extend_from_slice(b"[]"),
                    _ => out.extend_from_slice(self.bytes(node)),
                }
            }
            let depth = stack.len();
            let Some((container, index)) = stack.last_mut() else {
                break;
            };
            let members = self.members(*container);
            if let Some(member) = members.get(*index) {
                if *index > 0 {
                    out.push(b',');
                }
                *index += 1;
                indent(&mut out, depth);
                if let Some(key) = &member.key {
                    out.extend_from_slice(self.slice(key));
                    out.extend_from_slice(b": ");
                }
                next = Some(member.node);
            } else {
                let close = if self.nodes[*container].kind == Kind::Object {
                    b'}'
                } else {
                    b']'
                };
                stack.pop();
                indent(&mut out, depth - 1);
                out.push(close);
            }
        }
        out.push(b'\n');
        String::from_utf8(out)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }
}

/// Indentation stops growing here, so that printing a deeply nested
/// element takes space in proportion to it rather than to its depth squared.
const MAX_INDENT_DEPTH: usize = 64;

fn indent(out: &mut Vec<u8>, depth: usize) {
    out.push(b'\n');
    out.resize(out.len() + depth.min(MAX_INDENT_DEPTH) * 2, b' ');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty(text: &str) -> String {
        RawTree::parse(text.as_bytes()).unwrap().pretty()
    }

    #[test]
    fn pretty_keeps_scalars_and_order() {
        assert_eq!(
            pretty(r#"{"b":1.0,"a":[true,"x\u0041",{}],"c":{"d":[]}}"#),
            concat!(
                "{\n",
                "  \"b\": 1.0,\n",
                "  \"a\": [\n",
                "    true,\n",
                "    \"x\\u0041\",\n",
                "    {}\n",
                "  ],\n",
                "  \"c\": {\n",
                "    \"d\": []\n",
                "  }\n",
                "}\n"
            )
        );
        assert_eq!(pretty(" 5 "), "5\n");
        assert_eq!(pretty("[ ]"), "[]\n");
        assert_eq!(pretty(r#" { "a" : [ 1 , 2 ] } "#), pretty(r#"{"a":[1,2]}"#));
    }

    #[test]
    fn members_keep_duplicates_and_spans() {
        let text = br#"{"a":1,"a":[2,"]"],"b\"":null}"#;
        let tree = RawTree::parse(text).unwrap();
        let members = tree.members(tree.root());
        assert_eq!(members.len(), 3);
        let keys: Vec<&[u8]> = members
            .iter()
            .map(|member| tree.slice(member.key.as_ref().unwrap()))
            .collect();
        assert_eq!(keys, [&b"\"a\""[..], b"\"a\"", b"\"b\\\"\""]);
        assert_eq!(tree.bytes(members[1].node), br#"[2,"]"]"#);
        assert_eq!(tree.node(members[2].node).kind, Kind::Literal);
        assert_eq!(tree.members(members[1].node).len(), 2);
    }

    #[test]
    fn malformed_structure_is_refused() {
        for text in [
            "",
            "[1,",
            "{\"a\" 1}",
            "{1:2}",
            "[1] 2",
            "\"abc",
            "[1}",
            "}",
        ] {
            assert!(RawTree::parse(text.as_bytes()).is_none(), "{text}");
        }
    }

    #[test]
    fn deep_nesting_does_not_recurse() {
        let depth = 200_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let tree = RawTree::parse(text.as_bytes()).unwrap();
        assert_eq!(tree.pretty().lines().count(), 2 * depth - 1);
    }
}
