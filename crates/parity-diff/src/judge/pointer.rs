//! JSON Pointers (RFC 6901) naming places inside a result element.
//!
//! A pointer is kept as a [`JsString`] because object keys are JavaScript
//! strings: a key holding a lone surrogate must survive into the JSON
//! report exactly. People see it through [`display`].

use js_exact::JsString;

/// Appends one reference token: `~` is written `~0` and `/` is `~1`.
pub fn push_token(pointer: &mut JsString, key: &JsString) {
    pointer.push_str("/");
    if key.contains("~") || key.contains("/") {
        pointer.push_js(&key.replace_all("~", "~0").replace_all("/", "~1"));
    } else {
        pointer.push_js(key);
    }
}

/// Appends an array index.
pub fn push_index(pointer: &mut JsString, index: usize) {
    pointer.push_str("/");
    pointer.push_str(&index.to_string());
}

/// Pointers longer than this many characters are shown cut in the
/// middle (machine reports keep them whole).
const MAX_SHOWN_CHARS: usize = 160;

/// A pointer for people: the root (the empty pointer) is `(root)`, lone
/// surrogates show as U+FFFD, and a very long pointer (deep nesting)
/// keeps its two ends around a `…`.
pub fn display(pointer: &JsString) -> String {
    if pointer.is_empty() {
        return "(root)".to_owned();
    }
    let text = pointer.to_utf8_lossy();
    let count = text.chars().count();
    if count <= MAX_SHOWN_CHARS {
        return text.into_owned();
    }
    let half = MAX_SHOWN_CHARS / 2;
    let head: String = text.chars().take(half).collect();
    let tail: String = text.chars().skip(count - half).collect();
    format!("{head}…{tail}")
}

/// The pointer with one more key; a convenience for building paths.
pub fn child(pointer: &JsString, key: &JsString) -> JsString {
    let mut out = pointer.clone();
    push_token(&mut out, key);
    out
}

/// The pointer with one more array index.
pub fn child_index(pointer: &JsString, index: usize) -> JsString {
    let mut out = pointer.clone();
    push_index(&mut out, index);
    out
}

/// One step down from a place in an element.
#[derive(Debug, Clone)]
pub enum Step<'v> {
    /// An object member, by its key.
    Key(&'v JsString),
    /// An object member, by its key as canonical WTF-8 bytes.
    RawKey(std::borrow::Cow<'v, [u8]>),
    /// An array element.
    Index(usize),
}

/// Places in an element, each a step from its parent, so that a walk can
/// name every place it visits without building a pointer string for each:
/// only the places that get reported are spelled out ([`Places::pointer`]).
#[derive(Debug, Default)]
pub struct Places<'v> {
    steps: Vec<(usize, Step<'v>)>,
}

/// The place of the element itself.
pub const ROOT: usize = usize::MAX;

impl<'v> Places<'v> {
    /// No places yet but the root.
    pub fn new() -> Self {
        Places { steps: Vec::new() }
    }

    /// The place one step down from `parent`.
    pub fn push(&mut self, parent: usize, step: Step<'v>) -> usize {
        self.steps.push((parent, step));
        self.steps.len() - 1
    }

    /// The JSON Pointer of a place.
    pub fn pointer(&self, mut place: usize) -> JsString {
        let mut path = Vec::new();
        while let Some((parent, step)) = self.steps.get(place) {
            path.push(step);
            place = *parent;
        }
        let mut out = JsString::new();
        for step in path.into_iter().rev() {
            match step {
                Step::Key(key) => push_token(&mut out, key),
                Step::RawKey(bytes) => {
                    push_token(&mut out, &JsString::from_wtf8_unchecked(bytes.to_vec()))
                }
                Step::Index(index) => push_index(&mut out, *index),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_escaped() {
        let root = JsString::new();
        assert_eq!(display(&root), "(root)");
        let pointer = child(&child(&root, &"a/b".into()), &"m~n".into());
        assert_eq!(pointer, "/a~1b/m~0n");
        assert_eq!(child_index(&pointer, 3), "/a~1b/m~0n/3");
        // `~1` written literally must not be read back as `/`.
        assert_eq!(child(&root, &"~1".into()), "/~01");
        assert_eq!(child(&root, &"".into()), "/");
    }

    #[test]
    fn long_pointers_are_cut_for_display() {
        let mut pointer = JsString::new();
        for _ in 0..500 {
            push_index(&mut pointer, 0);
        }
        let shown = display(&pointer);
        assert_eq!(shown.chars().count(), MAX_SHOWN_CHARS + 1);
        assert!(shown.starts_with("/0/0/") && shown.ends_with("/0/0") && shown.contains('…'));
    }

    #[test]
    fn places_spell_pointers() {
        let key = JsString::from("a/b");
        let mut places = Places::new();
        let a = places.push(ROOT, Step::Key(&key));
        let b = places.push(a, Step::Index(2));
        let c = places.push(b, Step::RawKey(b"~".as_slice().into()));
        assert_eq!(places.pointer(ROOT), "");
        assert_eq!(places.pointer(c), "/a~1b/2/~0");
        assert_eq!(places.pointer(b), "/a~1b/2");
    }

    #[test]
    fn lone_surrogates_survive() {
        let key = JsString::from_utf16(&[0x61, 0xD800]);
        let pointer = child(&JsString::new(), &key);
        assert_eq!(pointer.to_utf16(), [0x2F, 0x61, 0xD800]);
        assert_eq!(display(&pointer), "/a\u{FFFD}");
    }
}
