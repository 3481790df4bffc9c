//! JSON Pointers (RFC 6901) naming places inside a result element.
//!
//! A pointer is kept as a [`JsString`] because object keys are JavaScript
//! strings: a key holding a lone surrogate must survive into the JSON
//! report exactly. People see it through [`display`].

use crate::js::JsString;

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

/// A pointer for people: the root (the empty pointer) is `(root)`, lone
/// surrogates show as U+FFFD.
pub fn display(pointer: &JsString) -> String {
    if pointer.is_empty() {
        "(root)".to_owned()
    } else {
        pointer.to_utf8_lossy().into_owned()
    }
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
    fn lone_surrogates_survive() {
        let key = JsString::from_utf16(&[0x61, 0xD800]);
        let pointer = child(&JsString::new(), &key);
        assert_eq!(pointer.to_utf16(), [0x2F, 0x61, 0xD800]);
        assert_eq!(display(&pointer), "/a\u{FFFD}");
    }
}
