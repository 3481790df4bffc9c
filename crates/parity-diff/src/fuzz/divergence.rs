//! Where two results part ways, and the signature that groups the cases
//! that part the same way.

use js_exact::{parse, to_json, TextMode, Value};

/// The JSON Pointer of the first place where two result elements differ,
/// compared as values (objects member by member in JavaScript order);
/// `None` when they are the same value written differently. Text that is
/// not JSON differs at the root.
pub fn first_difference(left: &[u8], right: &[u8]) -> Option<String> {
    match (
        parse(left, TextMode::LossyUtf8),
        parse(right, TextMode::LossyUtf8),
    ) {
        (Ok(left), Ok(right)) => {
            let mut path = String::new();
            differ_at(&left, &right, &mut path).then_some(path)
        }
        _ => Some(String::new()),
    }
}

fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}

/// Whether the values differ; if so, `path` is where they first do.
fn differ_at(left: &Value, right: &Value, path: &mut String) -> bool {
    match (left, right) {
        (Value::Array(a), Value::Array(b)) => {
            for at in 0..a.len().max(b.len()) {
                let before = path.len();
                push_segment(path, &at.to_string());
                match (a.get(at), b.get(at)) {
                    (Some(x), Some(y)) if !differ_at(x, y, path) => path.truncate(before),
                    _ => return true,
                }
            }
            false
        }
        (Value::Object(a), Value::Object(b)) => {
            let keys = a
                .iter()
                .map(|(k, _)| k)
                .chain(b.iter().map(|(k, _)| k).filter(|k| a.get_js(k).is_none()));
            for key in keys {
                let before = path.len();
                push_segment(path, &key.to_utf8_lossy());
                match (a.get_js(key), b.get_js(key)) {
                    (Some(x), Some(y)) if !differ_at(x, y, path) => path.truncate(before),
                    _ => return true,
                }
            }
            false
        }
        _ => to_json(left) != to_json(right),
    }
}

/// A pointer with its array indices replaced by `*`: divergences at
/// `/trace/3/message` and `/trace/7/message` share the shape
/// `/trace/*/message`.
pub fn path_shape(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|segment| {
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                segment
            }
        })
        .fold(String::new(), |mut shape, segment| {
            shape.push('/');
            shape.push_str(segment);
            shape
        })
}

/// What groups divergences: the op and the shape of the path where the
/// results first differ (`(bytes)` when they differ only in how the same
/// value is written).
pub fn signature(op: &str, left: &[u8], right: &[u8]) -> String {
    match first_difference(left, right) {
        None => format!("{op} (bytes)"),
        Some(pointer) => format!("{op} {}", path_shape(&pointer))
            .trim_end()
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_difference_finds_the_path() {
        let at = |a: &[u8], b: &[u8]| first_difference(a, b);
        assert_eq!(
            at(br#"{"a":[1,{"b":2}]}"#, br#"{"a":[1,{"b":3}]}"#).as_deref(),
            Some("/a/1/b")
        );
        assert_eq!(
            at(br#"{"a":1}"#, br#"{"a":1,"c/d":2}"#).as_deref(),
            Some("/c~1d")
        );
        assert_eq!(at(b"[1]", b"[1,2]").as_deref(), Some("/1"));
        assert_eq!(at(br#"{"a":1,"b":2}"#, br#"{"b":2,"a":1}"#), None);
        assert_eq!(at(b"1.0", b"1"), None);
        assert_eq!(at(b"1", b"\"1\"").as_deref(), Some(""));
        assert_eq!(at(br#"{"x":1}"#, br#"{"x":"1"}"#).as_deref(), Some("/x"));
    }

    #[test]
    fn shapes_and_signatures() {
        assert_eq!(path_shape("/trace/3/message"), "/trace/*/message");
        assert_eq!(path_shape(""), "");
        assert_eq!(
            signature("trace", br#"{"trace":[1,2]}"#, br#"{"trace":[1,3]}"#),
            "trace /trace/*"
        );
        assert_eq!(
            signature("x", br#"{"a":1,"b":2}"#, br#"{"b":2,"a":1}"#),
            "x (bytes)"
        );
    }
}
