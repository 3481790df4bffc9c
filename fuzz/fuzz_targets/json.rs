//! The JSON layer on arbitrary bytes: what parses prints as JSON that
//! parses back to the same value (non-finite numbers having become null)
//! and prints the same bytes again; the same holds for the text read as a
//! JavaScript string's code units, which survive WTF-8 and slice as
//! UTF-16.
#![no_main]

use js_exact::{parse, parse_js_string, to_json, JsString, Object, TextMode, Value};
use libfuzzer_sys::fuzz_target;

/// The value that printing `value` stands for: JSON has no Infinity, so
/// `JSON.stringify` prints non-finite numbers as null.
fn as_printed(value: &Value) -> Value {
    match value {
        Value::Number(n) if !n.is_finite() => Value::Null,
        Value::Array(items) => Value::Array(items.iter().map(as_printed).collect()),
        Value::Object(object) => Value::Object(
            object
                .iter()
                .map(|(key, value)| (key.clone(), as_printed(value)))
                .collect::<Object>(),
        ),
        other => other.clone(),
    }
}

/// Printing `value` gives JSON that reads back as the printed value and
/// prints the same bytes again.
fn round_trips(value: &Value) {
    let printed = to_json(value);
    let again = parse(&printed, TextMode::LossyUtf8).expect("printed JSON parses");
    assert_eq!(
        again,
        as_printed(value),
        "printed JSON reads back as the same value"
    );
    assert_eq!(to_json(&again), printed, "printing is stable");
}

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = parse(data, TextMode::LossyUtf8) {
        round_trips(&value);
    }
    let units: Vec<u16> = data
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    let text = JsString::from_utf16(&units);
    assert_eq!(text.to_utf16(), units, "code units survive WTF-8");
    assert_eq!(text.len_utf16(), units.len());
    if let Ok(value) = parse_js_string(&text) {
        round_trips(&value);
    }
    let trimmed = text.trim();
    assert!(trimmed.len_utf16() <= units.len());
    let (start, end) = (units.len() / 3, units.len() / 2);
    assert_eq!(text.slice_utf16(start, end).to_utf16(), units[start..end]);
});
