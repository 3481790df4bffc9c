//! `JSON.stringify`, exactly: compact output, JavaScript property order,
//! JavaScript number formatting, and its string escapes.

use super::number;
use super::object::Object;
use super::string::JsString;
use super::value::Value;

/// Which bytes of a string need more than a copy: control characters, `"`,
/// `\`, and 0xED, the lead byte of a (possibly lone) surrogate sequence.
const fn attention_table() -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table[0xED] = true;
    table
}

static NEEDS_ATTENTION: [bool; 256] = attention_table();

const HEX: &[u8; 16] = b"0123456789abcdef";

fn write_unicode_escape(unit: u32, out: &mut Vec<u8>) {
    out.extend_from_slice(b"\\u");
    for shift in [12, 8, 4, 0] {
        out.push(HEX[((unit >> shift) & 0xF) as usize]);
    }
}

/// Appends a string literal as JSON.stringify writes it: `"` and `\`
/// escaped, `\b \f \n \r \t` short, other controls as lowercase `\u00xx`,
/// lone surrogates as lowercase `\udxxx`, everything else raw UTF-8
/// (U+007F, U+2028 and U+2029 included).
pub fn write_string(text: &JsString, out: &mut Vec<u8>) {
    write_wtf8(text.as_wtf8(), out);
}

/// [`write_string`] of a Rust string, without making a [`JsString`] of
/// it first (UTF-8 is WTF-8 without surrogates).
pub fn write_str(text: &str, out: &mut Vec<u8>) {
    write_wtf8(text.as_bytes(), out);
}

fn write_wtf8(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if !NEEDS_ATTENTION[byte as usize] {
            at += 1;
            continue;
        }
        if byte == 0xED && bytes[at + 1] < 0xA0 {
            // An ordinary character of U+D000..U+D7FF.
            at += 3;
            continue;
        }
        out.extend_from_slice(&bytes[copied..at]);
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0xED => {
                let unit = 0xD000
                    | ((u32::from(bytes[at + 1]) & 0x3F) << 6)
                    | (u32::from(bytes[at + 2]) & 0x3F);
                write_unicode_escape(unit, out);
                at += 2;
            }
            control => write_unicode_escape(u32::from(control), out),
        }
        at += 1;
        copied = at;
    }
    out.extend_from_slice(&bytes[copied..]);
    out.push(b'"');
}

/// Where printed JSON goes: a byte buffer that its owner may empty
/// between the members and elements of a value, so that a result holding
/// several large strings (shared, in memory once) is never printed whole
/// into memory.
pub trait JsonSink {
    /// The buffer the next bytes are appended to.
    fn buffer(&mut self) -> &mut Vec<u8>;
    /// Called after each member or element: a chance to move the buffer
    /// on (to a file, say).
    fn between(&mut self);
}

impl JsonSink for Vec<u8> {
    #[inline]
    fn buffer(&mut self) -> &mut Vec<u8> {
        self
    }
    #[inline]
    fn between(&mut self) {}
}

fn write_object<S: JsonSink>(object: &Object, out: &mut S) {
    out.buffer().push(b'{');
    let mut first = true;
    for (key, value) in object.iter() {
        if value.is_undefined() {
            continue;
        }
        let buffer = out.buffer();
        if !first {
            buffer.push(b',');
        }
        first = false;
        write_string(key, buffer);
        buffer.push(b':');
        write_value_to(value, out);
        out.between();
    }
    out.buffer().push(b'}');
}

/// Appends a value as JSON.stringify writes it. An `undefined` member is
/// left out and an `undefined` array element is `null`; so is `undefined`
/// given here directly (JSON.stringify would return no text at all, which
/// no caller wants).
pub fn write_value(value: &Value, out: &mut Vec<u8>) {
    write_value_to(value, out);
}

/// [`write_value`] into a [`JsonSink`], which may be emptied between the
/// value's members and elements.
pub fn write_value_to<S: JsonSink>(value: &Value, out: &mut S) {
    match value {
        Value::Undefined | Value::Null => out.buffer().extend_from_slice(b"null"),
        Value::Bool(true) => out.buffer().extend_from_slice(b"true"),
        Value::Bool(false) => out.buffer().extend_from_slice(b"false"),
        Value::Number(n) => number::write_json(*n, out.buffer()),
        Value::String(text) => write_string(text, out.buffer()),
        Value::Array(items) => {
            out.buffer().push(b'[');
            for (at, item) in items.iter().enumerate() {
                if at > 0 {
                    out.buffer().push(b',');
                }
                write_value_to(item, out);
                out.between();
            }
            out.buffer().push(b']');
        }
        Value::Object(object) => write_object(object, out),
    }
}

/// JSON.stringify of a value, as bytes (always valid UTF-8).
pub fn to_json(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_value(value, &mut out);
    out
}

/// JSON.stringify of a value, as the JavaScript string it returns.
pub fn stringify(value: &Value) -> JsString {
    JsString::from(String::from_utf8(to_json(value)).expect("JSON output is UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js_object;
    use crate::testing::json;

    #[test]
    fn strings_escape_as_json_stringify_does() {
        let text = JsString::from(
            "\"\\/\u{8}\u{c}\n\r\t\u{0}\u{1f}\u{7f}\u{2028}\u{2029}é😀\u{d7ff}\u{e000}",
        );
        assert_eq!(
            json(&Value::String(text)),
            "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}\u{2028}\u{2029}é😀\u{d7ff}\u{e000}\""
        );
        let lone = JsString::from_utf16(&[0x61, 0xD800, 0xDBFF, 0x62, 0xDC00, 0xDFFF]);
        assert_eq!(
            json(&Value::String(lone)),
            r#""a\ud800\udbffb\udc00\udfff""#
        );
    }

    #[test]
    fn a_rust_string_is_written_as_its_js_string_is() {
        for text in [
            "",
            "plain",
            "\"\\\u{0}\u{1f}\n\u{7f}\u{2028}é😀\u{d7ff}\u{e000}",
        ] {
            let mut direct = Vec::new();
            write_str(text, &mut direct);
            assert_eq!(direct, json(&Value::from(text)).into_bytes(), "{text:?}");
        }
    }

    #[test]
    fn undefined_members_are_left_out_and_elements_become_null() {
        let value = js_object! {
            "a" => Value::Undefined,
            "b" => Value::Array(vec![Value::Undefined, Value::Null]),
            "c" => Value::Undefined,
        };
        assert_eq!(json(&value), r#"{"b":[null,null]}"#);
    }

    #[test]
    fn objects_print_in_javascript_property_order() {
        let value = js_object! { "b" => 1.0, "10" => 2.0, "2" => 3.0, "02" => 4.0 };
        assert_eq!(json(&value), r#"{"2":3,"10":2,"b":1,"02":4}"#);
    }

    #[test]
    fn numbers_and_literals() {
        let value = Value::Array(vec![
            (-0.0).into(),
            f64::INFINITY.into(),
            1e21.into(),
            true.into(),
            false.into(),
            Value::Null,
        ]);
        assert_eq!(json(&value), "[0,null,1e+21,true,false,null]");
        assert_eq!(stringify(&js_object! {}).to_string(), "{}");
    }
}
