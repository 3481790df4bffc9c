//! JavaScript values as `JSON.parse` makes them, plus `undefined`.
//!
//! [`Value`] is what every op reads and returns; its objects are
//! [`Object`]s, in JavaScript property order. `Value::Undefined` exists so
//! an op can build an object with an `undefined` member, which prints as
//! nothing. A value drops without recursion, whatever its depth (see the
//! `deep` module).

use std::collections::HashMap;

use super::number;
use super::string::{JsConcatPart, JsString};

/// A JavaScript value that JSON can carry, or `undefined`.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// `undefined`: a member left out, an array element printed as `null`.
    #[default]
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// Every JavaScript number is a double.
    Number(f64),
    /// A string of UTF-16 code units.
    String(JsString),
    /// An array.
    Array(Vec<Value>),
    /// A plain object (never an array).
    Object(Object),
}

/// The value of a member that is not there.
pub static UNDEFINED: Value = Value::Undefined;

/// A plain JavaScript object: members in JavaScript property order. Its
/// methods are in [`object`](crate::object); it is defined here, beside
/// [`Value`], since each holds the other.
#[derive(Clone, Debug, Default)]
pub struct Object {
    pub(super) entries: Vec<(JsString, Value)>,
    /// Boxed, which halves the size of every `Value`: most objects have
    /// no index, and a small value is cheaper to move and to hold by the
    /// million (a value nested a million levels deep).
    #[allow(clippy::box_collection)]
    pub(super) lookup: Option<Box<HashMap<JsString, usize>>>,
    pub(super) index_keys: usize,
}

impl Value {
    /// The items of an array, taken out. (A pattern cannot move them out:
    /// `Value` has a drop of its own, which never recurses.)
    pub fn into_array(mut self) -> Option<Vec<Value>> {
        match &mut self {
            Value::Array(items) => Some(std::mem::take(items)),
            _ => None,
        }
    }

    /// The object, taken out.
    pub fn into_object(mut self) -> Option<Object> {
        match &mut self {
            Value::Object(object) => Some(std::mem::take(object)),
            _ => None,
        }
    }

    /// The string, taken out.
    pub fn into_js_string(mut self) -> Option<JsString> {
        match &mut self {
            Value::String(text) => Some(std::mem::take(text)),
            _ => None,
        }
    }

    /// The member `key` of an object; `undefined` for any other value or a
    /// missing member (JavaScript's `value.key` for the names the contract
    /// reads, none of which `Object.prototype` has).
    pub fn get(&self, key: &str) -> &Value {
        match self {
            Value::Object(object) => object.get(key).unwrap_or(&UNDEFINED),
            _ => &UNDEFINED,
        }
    }

    /// Whether this is an object with an own member `key` (`Object.hasOwn`).
    pub fn has_own(&self, key: &str) -> bool {
        matches!(self, Value::Object(object) if object.contains_key(key))
    }

    /// `undefined` or `null`: the contract's "unset".
    pub fn is_unset(&self) -> bool {
        matches!(self, Value::Undefined | Value::Null)
    }

    /// Neither `undefined` nor `null`.
    pub fn is_set(&self) -> bool {
        !self.is_unset()
    }

    /// `undefined`.
    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Undefined)
    }

    /// `value ?? fallback`.
    pub fn or<'a>(&'a self, fallback: &'a Value) -> &'a Value {
        if self.is_unset() {
            fallback
        } else {
            self
        }
    }

    /// A plain object (arrays excluded).
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(object) => Some(object),
            _ => None,
        }
    }

    /// Whether this is a plain object (arrays excluded).
    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// An array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A string.
    pub fn as_js_string(&self) -> Option<&JsString> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    /// Whether this is a string.
    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    /// A number.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number(number) => Some(*number),
            _ => None,
        }
    }

    /// A boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(flag) => Some(*flag),
            _ => None,
        }
    }

    /// A string with at least one code unit.
    pub fn as_non_empty_string(&self) -> Option<&JsString> {
        self.as_js_string().filter(|text| !text.is_empty())
    }

    /// Whether this is a string with at least one code unit.
    pub fn is_non_empty_string(&self) -> bool {
        self.as_non_empty_string().is_some()
    }

    /// Whether this is a string that starts with `/`.
    pub fn is_absolute_path(&self) -> bool {
        matches!(self, Value::String(text) if text.starts_with("/"))
    }

    /// Whether this is an array whose elements are all strings.
    pub fn is_string_array(&self) -> bool {
        matches!(self, Value::Array(items) if items.iter().all(Value::is_string))
    }

    /// `Number.isInteger(value)`.
    pub fn is_integer(&self) -> bool {
        matches!(self, Value::Number(n) if number::is_integer(*n))
    }

    /// `Number.isInteger(value) && value > 0`.
    pub fn is_positive_integer(&self) -> bool {
        matches!(self, Value::Number(n) if number::is_integer(*n) && *n > 0.0)
    }

    /// JavaScript's `String(value)` for JSON values (the contract's `str`):
    /// arrays join their elements with `,` (`null` and `undefined` elements
    /// as the empty string), objects are `[object Object]`. A string is
    /// itself, shared when large; a part of a message is better given as
    /// [`Str`], which appends without building it first.
    pub fn to_js_string(&self) -> JsString {
        match self {
            Value::String(text) => text.clone(),
            Value::Number(n) => JsString::from(number::to_js_string(*n)),
            other => {
                let mut out = JsString::with_capacity(Str(other).wtf8_len());
                Str(other).append_to(&mut out);
                out
            }
        }
    }
}

/// `str(value)` as a part of [`js_concat!`](crate::js_concat):
/// `js_concat!("exit code ", Str(code))` appends the text of `code`
/// straight into the message, so a large string (or an array of them) is
/// copied once, into the message, and never on its own first.
#[derive(Clone, Copy, Debug)]
pub struct Str<'a>(pub &'a Value);

impl JsConcatPart for Str<'_> {
    fn wtf8_len(&self) -> usize {
        match self.0 {
            Value::Undefined => "undefined".len(),
            Value::Null => "null".len(),
            Value::Bool(flag) => if *flag { "true" } else { "false" }.len(),
            Value::Number(n) => number::to_js_string(*n).len(),
            Value::String(text) => text.as_wtf8().len(),
            Value::Array(items) => {
                let joined: usize = items
                    .iter()
                    .filter(|item| item.is_set())
                    .map(|item| Str(item).wtf8_len())
                    .sum();
                joined + items.len().saturating_sub(1)
            }
            Value::Object(_) => OBJECT_STRING.len(),
        }
    }

    fn append_to(&self, out: &mut JsString) {
        match self.0 {
            Value::Undefined => out.push_str("undefined"),
            Value::Null => out.push_str("null"),
            Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
            Value::Number(n) => out.push_str(&number::to_js_string(*n)),
            Value::String(text) => out.push_js(text),
            Value::Array(items) => {
                for (at, item) in items.iter().enumerate() {
                    if at > 0 {
                        out.push_str(",");
                    }
                    if item.is_set() {
                        Str(item).append_to(out);
                    }
                }
            }
            Value::Object(_) => out.push_str(OBJECT_STRING),
        }
    }
}

/// `String(object)` for every plain object.
const OBJECT_STRING: &str = "[object Object]";

impl From<bool> for Value {
    fn from(flag: bool) -> Self {
        Value::Bool(flag)
    }
}

impl From<f64> for Value {
    fn from(number: f64) -> Self {
        Value::Number(number)
    }
}

impl From<u32> for Value {
    fn from(number: u32) -> Self {
        Value::Number(f64::from(number))
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::String(JsString::from(text))
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::String(JsString::from(text))
    }
}

impl From<JsString> for Value {
    fn from(text: JsString) -> Self {
        Value::String(text)
    }
}

impl From<&JsString> for Value {
    fn from(text: &JsString) -> Self {
        Value::String(text.clone())
    }
}

impl From<Vec<Value>> for Value {
    fn from(items: Vec<Value>) -> Self {
        Value::Array(items)
    }
}

impl From<Object> for Value {
    fn from(object: Object) -> Self {
        Value::Object(object)
    }
}

impl From<&Value> for Value {
    fn from(value: &Value) -> Self {
        value.clone()
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is `undefined`.
    fn from(value: Option<T>) -> Self {
        value.map_or(Value::Undefined, Into::into)
    }
}

/// Builds a [`Value::Object`] with members in the order written:
/// `js_object! { "type" => "codex-response", "id" => id }`.
#[macro_export]
macro_rules! js_object {
    () => { $crate::Value::Object($crate::Object::new()) };
    ($($key:expr => $value:expr),+ $(,)?) => {{
        let mut object = $crate::Object::new();
        $( object.insert($key, $crate::Value::from($value)); )+
        $crate::Value::Object(object)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_matches_javascript_string_conversion() {
        let cases: Vec<(Value, &str)> = vec![
            (Value::Undefined, "undefined"),
            (Value::Null, "null"),
            (true.into(), "true"),
            (Value::from(-0.0), "0"),
            (Value::from(1e21), "1e+21"),
            (Value::from(f64::INFINITY), "Infinity"),
            (Value::from(f64::NEG_INFINITY), "-Infinity"),
            (
                Value::Array(vec![
                    1u32.into(),
                    Value::Null,
                    Value::Array(vec!["a".into(), "b".into()]),
                    Value::Undefined,
                    crate::js_object! {},
                ]),
                "1,,a,b,,[object Object]",
            ),
            (crate::js_object! { "a" => 1u32 }, "[object Object]"),
        ];
        for (value, expected) in cases {
            assert_eq!(value.to_js_string().to_string(), expected, "{value:?}");
        }
    }

    #[test]
    fn predicates_follow_the_contract() {
        assert!(Value::from(3.0).is_positive_integer());
        assert!(!Value::from(0.0).is_positive_integer());
        assert!(!Value::from(1.5).is_positive_integer());
        assert!(!Value::from(f64::INFINITY).is_integer());
        assert!(Value::from(-0.0).is_integer());
        assert!(Value::Null.is_unset() && Value::Undefined.is_unset());
        assert!(Value::from("/x").is_absolute_path());
        assert!(!Value::from("x/").is_absolute_path());
        assert!(Value::Array(vec![]).is_string_array());
        assert!(!Value::Array(vec![Value::Null]).is_string_array());
        let object = crate::js_object! { "a" => Value::Undefined };
        assert!(object.has_own("a"));
        assert!(object.get("a").is_undefined());
        assert!(!object.has_own("b"));
    }
}
