//! One side of a case, pretty-printed for the HTML report with the lines
//! at the differing JSON Pointers marked, and long texts folded down to
//! the marked lines and a little context around them.
//!
//! The printing follows [`RawTree::pretty`] (two spaces a level, every
//! key and scalar exactly as written) and tracks which pointer each line
//! belongs to without building the pointers: each open container keeps
//! only the targets its own pointer is a prefix of, so an element that
//! nests twenty thousand levels costs no more than its size.

use crate::judge::pointer;
use crate::judge::raw::{Kind, RawTree};
use js_exact::{self as js, JsString, TextMode};

/// A pane of at most this many lines is shown whole.
pub const WHOLE_LINES: usize = 80;

/// Lines kept before and after each marked line in a folded pane.
pub const CONTEXT_LINES: usize = 4;

/// A pane never shows more lines than this.
pub const MAX_LINES: usize = 400;

/// A line longer than this many characters is cut.
pub const MAX_LINE_CHARS: usize = 2000;

/// Indentation stops growing here, as in [`RawTree::pretty`].
const MAX_INDENT_DEPTH: usize = 64;

/// One printed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneLine {
    /// Its text, without a newline.
    pub text: String,
    /// Whether it lies at or under a differing pointer.
    pub marked: bool,
}

/// What a folded pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The line at this index (from 0).
    Line(usize),
    /// This many lines left out here.
    Fold(usize),
}

struct Frame {
    container: usize,
    next: usize,
    /// Indices of the targets this container's pointer is a prefix of.
    alive: Vec<usize>,
    /// The length (WTF-8 bytes) of this container's pointer.
    length: usize,
    marked: bool,
}

/// The element's lines, each marked when it belongs to a value at or
/// under one of `targets`; `None` when the text is not well-formed JSON
/// (a cut element, say).
pub fn annotate(element: &str, targets: &[JsString]) -> Option<Vec<PaneLine>> {
    let tree = RawTree::parse(element.as_bytes())?;
    let mut lines = Vec::new();
    let mut line = Vec::new();
    let mut marked = targets.iter().any(JsString::is_empty);
    let mut stack: Vec<Frame> = Vec::new();
    // The next value to print, with its pointer's live targets, length
    // and mark.
    let mut next = Some((
        tree.root(),
        (0..targets.len()).collect::<Vec<_>>(),
        0,
        marked,
    ));
    loop {
        if let Some((node, alive, length, node_marked)) = next.take() {
            let kind = tree.node(node).kind;
            let container = matches!(kind, Kind::Object | Kind::Array);
            if container && !tree.members(node).is_empty() {
                line.push(if kind == Kind::Object { b'{' } else { b'[' });
                stack.push(Frame {
                    container: node,
                    next: 0,
                    alive,
                    length,
                    marked: node_marked,
                });
            } else if kind == Kind::Object {
                line.extend_from_slice(b"{}");
            } else if kind == Kind::Array {
                line.extend_from_slice(b"[]");
            } else {
                line.extend_from_slice(tree.bytes(node));
            }
        }
        let depth = stack.len();
        let Some(frame) = stack.last_mut() else {
            break;
        };
        let members = tree.members(frame.container);
        if let Some(member) = members.get(frame.next) {
            if frame.next > 0 {
                line.push(b',');
            }
            let index = frame.next;
            frame.next += 1;
            let (alive, length, hit) = match &member.key {
                _ if frame.alive.is_empty() => (Vec::new(), 0, false),
                Some(key) => {
                    let key = match js::parse(tree.slice(key), TextMode::LossyUtf8) {
                        Ok(value) => value.to_js_string(),
                        Err(_) => JsString::default(),
                    };
                    let mut token = JsString::default();
                    pointer::push_token(&mut token, &key);
                    descend(targets, frame, token.as_wtf8())
                }
                None => {
                    let mut token = JsString::default();
                    pointer::push_index(&mut token, index);
                    descend(targets, frame, token.as_wtf8())
                }
            };
            let child_marked = frame.marked || hit;
            finish_line(&mut lines, &mut line, marked);
            indent(&mut line, depth);
            marked = child_marked;
            if let Some(key) = &member.key {
                line.extend_from_slice(tree.slice(key));
                line.extend_from_slice(b": ");
            }
            next = Some((member.node, alive, length, child_marked));
        } else {
            let close = if tree.node(frame.container).kind == Kind::Object {
                b'}'
            } else {
                b']'
            };
            let container_marked = frame.marked;
            stack.pop();
            finish_line(&mut lines, &mut line, marked);
            indent(&mut line, depth - 1);
            marked = container_marked;
            line.push(close);
        }
    }
    finish_line(&mut lines, &mut line, marked);
    Some(lines)
}

/// The targets still alive under a child whose token is `token`, the
/// child pointer's length, and whether the child is one of the targets.
fn descend(targets: &[JsString], frame: &Frame, token: &[u8]) -> (Vec<usize>, usize, bool) {
    let length = frame.length + token.len();
    let mut alive = Vec::new();
    let mut hit = false;
    for &at in &frame.alive {
        let target = targets[at].as_wtf8();
        let rest = &target[frame.length.min(target.len())..];
        if !rest.starts_with(token) {
            continue;
        }
        match rest.get(token.len()) {
            None => hit = true,
            Some(b'/') => alive.push(at),
            Some(_) => {}
        }
    }
    (alive, length, hit)
}

fn indent(line: &mut Vec<u8>, depth: usize) {
    line.resize(depth.min(MAX_INDENT_DEPTH) * 2, b' ');
}

fn finish_line(lines: &mut Vec<PaneLine>, line: &mut Vec<u8>, marked: bool) {
    lines.push(PaneLine {
        text: cut_line(&String::from_utf8_lossy(line)),
        marked,
    });
    line.clear();
}

/// A line cut to [`MAX_LINE_CHARS`], saying how much it left out.
pub fn cut_line(text: &str) -> String {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        None => text.to_owned(),
        Some((at, _)) => {
            let left = text[at..].chars().count();
            format!("{} … ({left} more characters)", &text[..at])
        }
    }
}

/// A text that is not JSON (a cut element), as lines, none marked.
pub fn plain(text: &str) -> Vec<PaneLine> {
    text.lines()
        .map(|line| PaneLine {
            text: cut_line(line),
            marked: false,
        })
        .collect()
}

/// Which lines a pane shows: all of a short one; of a long one, the
/// marked lines with [`CONTEXT_LINES`] around each (the first
/// [`WHOLE_LINES`] when none is marked), at most [`MAX_LINES`] in all,
/// with a fold for each run left out.
pub fn fold(lines: &[PaneLine]) -> Vec<Shown> {
    if lines.len() <= WHOLE_LINES {
        return (0..lines.len()).map(Shown::Line).collect();
    }
    let mut keep = vec![false; lines.len()];
    if lines.iter().any(|line| line.marked) {
        for (at, line) in lines.iter().enumerate() {
            if line.marked {
                let from = at.saturating_sub(CONTEXT_LINES);
                let to = (at + CONTEXT_LINES + 1).min(lines.len());
                keep[from..to].iter_mut().for_each(|k| *k = true);
            }
        }
    } else {
        keep[..WHOLE_LINES].iter_mut().for_each(|k| *k = true);
    }
    let mut shown = Vec::new();
    let mut kept = 0;
    let mut skipped = 0;
    for (at, &wanted) in keep.iter().enumerate() {
        if wanted && kept < MAX_LINES {
            if skipped > 0 {
                shown.push(Shown::Fold(skipped));
                skipped = 0;
            }
            shown.push(Shown::Line(at));
            kept += 1;
        } else {
            skipped += 1;
        }
    }
    if skipped > 0 {
        shown.push(Shown::Fold(skipped));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pointers(list: &[&str]) -> Vec<JsString> {
        list.iter().map(|p| JsString::from(*p)).collect()
    }

    fn marked(element: &str, targets: &[&str]) -> Vec<String> {
        annotate(element, &pointers(targets))
            .unwrap()
            .into_iter()
            .map(|line| format!("{}{}", if line.marked { "*" } else { " " }, line.text))
            .collect()
    }

    #[test]
    fn lines_at_and_under_a_pointer_are_marked() {
        assert_eq!(
            marked(
                r#"{"a":1,"b":{"c":[true,2.50]},"a/b":3,"e":{}}"#,
                &["/b/c/1", "/a~1b"]
            ),
            [
                " {",
                "   \"a\": 1,",
                "   \"b\": {",
                "     \"c\": [",
                "       true,",
                "*      2.50",
                "     ]",
                "   },",
                "*  \"a/b\": 3,",
                "   \"e\": {}",
                " }",
            ]
        );
        // A container: its opening line, members and closing line.
        assert_eq!(
            marked(r#"{"v":[1,[2]],"w":0}"#, &["/v"]),
            [
                " {",
                "*  \"v\": [",
                "*    1,",
                "*    [",
                "*      2",
                "*    ]",
                "*  ],",
                "   \"w\": 0",
                " }",
            ]
        );
        // The root, and a pointer that names nothing here.
        assert!(marked("[1]", &[""])
            .iter()
            .all(|line| line.starts_with('*')));
        assert!(marked(r#"{"ab":1}"#, &["/a", "/ab/0", "/abc"])
            .iter()
            .all(|line| line.starts_with(' ')));
        // Escaped keys are decoded before they are compared.
        assert_eq!(
            marked(r#"{"\u0061~":1}"#, &["/a~0"]),
            [" {", "*  \"\\u0061~\": 1", " }"]
        );
        assert_eq!(marked("5", &[]), [" 5"]);
        assert!(annotate("[1,", &[]).is_none());
    }

    #[test]
    fn deep_nesting_is_printed_without_recursion() {
        let depth = 20_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let target = "/0".repeat(depth - 1);
        let lines = annotate(&text, &pointers(&[&target])).unwrap();
        assert_eq!(lines.len(), 2 * depth - 1);
        let hits: Vec<usize> = (0..lines.len()).filter(|&at| lines[at].marked).collect();
        assert_eq!(hits, [depth - 1]);
        assert_eq!(lines[depth - 1].text, format!("{}[]", " ".repeat(128)));
    }

    #[test]
    fn long_panes_fold_to_the_marked_lines() {
        let line = |marked| PaneLine {
            text: String::new(),
            marked,
        };
        let short: Vec<PaneLine> = (0..WHOLE_LINES).map(|_| line(false)).collect();
        assert_eq!(fold(&short).len(), WHOLE_LINES);
        let mut long: Vec<PaneLine> = (0..200).map(|_| line(false)).collect();
        long[100].marked = true;
        long[103].marked = true;
        assert_eq!(
            fold(&long),
            [
                vec![Shown::Fold(96)],
                (96..108).map(Shown::Line).collect(),
                vec![Shown::Fold(92)],
            ]
            .concat()
        );
        long[100].marked = false;
        long[103].marked = false;
        let unmarked = fold(&long);
        assert_eq!(unmarked.len(), WHOLE_LINES + 1);
        assert_eq!(unmarked.last(), Some(&Shown::Fold(200 - WHOLE_LINES)));
        let all: Vec<PaneLine> = (0..1000).map(|_| line(true)).collect();
        let folded = fold(&all);
        assert_eq!(folded.len(), MAX_LINES + 1);
        assert_eq!(folded.last(), Some(&Shown::Fold(1000 - MAX_LINES)));
    }

    #[test]
    fn long_lines_are_cut_and_plain_text_is_unmarked() {
        let long = "é".repeat(MAX_LINE_CHARS + 5);
        let cut = cut_line(&long);
        assert!(cut.ends_with(" … (5 more characters)"), "{cut}");
        assert_eq!(cut.chars().count(), MAX_LINE_CHARS + 22);
        assert_eq!(
            plain("a\nb"),
            [
                PaneLine {
                    text: "a".into(),
                    marked: false
                },
                PaneLine {
                    text: "b".into(),
                    marked: false
                }
            ]
        );
    }
}
