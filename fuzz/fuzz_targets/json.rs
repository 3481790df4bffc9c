//! The JSON layer on arbitrary bytes: what parses prints as JSON that
//! parses back to the same value and prints the same bytes again; the
//! same holds for the text read as a JavaScript string's code units.
#![no_main]

use libfuzzer_sys::fuzz_target;
use worker_spawn_oracle::js::{parse, parse_js_string, to_json, JsString, TextMode};

fuzz_target!(|data: &[u8]| {
    if let Ok(value) = parse(data, TextMode::LossyUtf8) {
        let printed = to_json(&value);
        let again = parse(&printed, TextMode::LossyUtf8).expect("printed JSON parses");
        assert_eq!(to_json(&again), printed, "printing is stable");
    }
    let units: Vec<u16> = data.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect();
    let text = JsString::from_utf16(&units);
    assert_eq!(text.to_utf16(), units, "code units survive WTF-8");
    assert_eq!(text.len_utf16(), units.len());
    if let Ok(value) = parse_js_string(&text) {
        let printed = to_json(&value);
        let again = parse(&printed, TextMode::LossyUtf8).expect("printed JSON parses");
        assert_eq!(to_json(&again), printed);
    }
    let _ = text.trim();
    let _ = text.slice_utf16(units.len() / 3, units.len() / 2);
});
