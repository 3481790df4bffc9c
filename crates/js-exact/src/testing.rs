//! Shorthands for tests: a value from JSON text, and a value's JSON.

use super::{parse, to_json, TextMode, Value};

/// `JSON.parse(text)`; panics on text that is not JSON.
pub fn value(text: &str) -> Value {
    parse(text.as_bytes(), TextMode::LossyUtf8).unwrap_or_else(|error| panic!("{error}: {text}"))
}

/// `JSON.stringify(value)`, as text.
pub fn json(value: &Value) -> String {
    String::from_utf8(to_json(value)).expect("JSON output is UTF-8")
}
