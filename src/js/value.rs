//! JavaScript values as `JSON.parse` makes them, plus `undefined`.
//!
//! [`Value`] is what every op reads and returns. Objects keep JavaScript
//! property order: array-index keys first in ascending numeric order, then
//! the other keys in the order they were first inserted. A duplicate key
//! keeps its first position and takes the last value, as `JSON.parse` and
//! `Object.fromEntries` do. `Value::Undefined` exists so an op can build an
//! object with an `undefined` member, which prints as nothing.

use std::collections::HashMap;

use super::number;
use super::string::JsString;

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

/// Objects with more members than this get a hash index for lookups; below
/// it a linear scan is faster than hashing.
const LOOKUP_THRESHOLD: usize = 24;

/// A plain JavaScript object: members in JavaScript property order.
#[derive(Clone, Debug, Default)]
pub struct Object {
    entries: Vec<(JsString, Value)>,
    lookup: Option<HashMap<JsString, usize>>,
    index_keys: usize,
}

/// The array index a key names, if it is one: the canonical decimal form of
/// an integer from 0 to 4294967294 (`"0"`, `"7"`; not `"01"`, `"-1"`,
/// `"4294967295"`). Such keys come first in JavaScript property order.
pub fn array_index(key: &[u8]) -> Option<u32> {
    match key {
        [] => None,
        [b'0'] => Some(0),
        [b'0', ..] => None,
        _ if key.len() > 10 || !key.iter().all(u8::is_ascii_digit) => None,
        _ => {
            let value = key
                .iter()
                .fold(0u64, |acc, &digit| acc * 10 + u64::from(digit - b'0'));
            (value <= 4_294_967_294).then_some(value as u32)
        }
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Self {
        Object::default()
    }

    /// An empty object with room for `capacity` members.
    pub fn with_capacity(capacity: usize) -> Self {
        Object {
            entries: Vec::with_capacity(capacity),
            lookup: None,
            index_keys: 0,
        }
    }

    fn position(&self, key: &[u8]) -> Option<usize> {
        match &self.lookup {
            Some(lookup) => lookup
                .get(&JsString::from_wtf8_unchecked(key.to_vec()))
                .copied(),
            None => self.entries.iter().position(|(k, _)| k.as_wtf8() == key),
        }
    }

    /// Defines a member (`CreateDataProperty`): an existing key keeps its
    /// position and takes the new value; a new key goes last.
    pub fn insert(&mut self, key: impl Into<JsString>, value: Value) {
        let key = key.into();
        if let Some(at) = self.position(key.as_wtf8()) {
            self.entries[at].1 = value;
            return;
        }
        if array_index(key.as_wtf8()).is_some() {
            self.index_keys += 1;
        }
        if let Some(lookup) = &mut self.lookup {
            lookup.insert(key.clone(), self.entries.len());
        } else if self.entries.len() >= LOOKUP_THRESHOLD {
            let mut lookup: HashMap<JsString, usize> = self
                .entries
                .iter()
                .enumerate()
                .map(|(at, (k, _))| (k.clone(), at))
                .collect();
            lookup.insert(key.clone(), self.entries.len());
            self.lookup = Some(lookup);
        }
        self.entries.push((key, value));
    }

    /// Builder form of [`Object::insert`].
    pub fn with(mut self, key: impl Into<JsString>, value: impl Into<Value>) -> Self {
        self.insert(key, value.into());
        self
    }

    /// The member named `key`, if the object has it (`Object.hasOwn`).
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.get_wtf8(key.as_bytes())
    }

    /// The member named by a JavaScript string.
    pub fn get_js(&self, key: &JsString) -> Option<&Value> {
        self.get_wtf8(key.as_wtf8())
    }

    fn get_wtf8(&self, key: &[u8]) -> Option<&Value> {
        self.position(key).map(|at| &self.entries[at].1)
    }

    /// A mutable reference to the member named `key`.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.position(key.as_bytes())
            .map(move |at| &mut self.entries[at].1)
    }

    /// Whether the object has an own member named `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key.as_bytes()).is_some()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the object has no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The members in JavaScript property order (`Object.entries`).
    pub fn iter(&self) -> impl Iterator<Item = (&JsString, &Value)> {
        let order: Box<dyn Iterator<Item = usize>> = if self.index_keys == 0 {
            Box::new(0..self.entries.len())
        } else {
            Box::new(self.js_order().into_iter())
        };
        order.map(move |at| {
            let (key, value) = &self.entries[at];
            (key, value)
        })
    }

    /// Entry positions in JavaScript property order.
    fn js_order(&self) -> Vec<usize> {
        let mut indexed: Vec<(u32, usize)> = Vec::with_capacity(self.index_keys);
        let mut named = Vec::with_capacity(self.entries.len() - self.index_keys);
        for (at, (key, _)) in self.entries.iter().enumerate() {
            match array_index(key.as_wtf8()) {
                Some(index) => indexed.push((index, at)),
                None => named.push(at),
            }
        }
        indexed.sort_unstable();
        indexed.into_iter().map(|(_, at)| at).chain(named).collect()
    }

    /// The values in JavaScript property order (`Object.values`).
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.iter().map(|(_, value)| value)
    }

    /// The members in JavaScript property order, by value.
    pub fn into_entries(self) -> Vec<(JsString, Value)> {
        if self.index_keys == 0 {
            return self.entries;
        }
        let order = self.js_order();
        let mut slots: Vec<Option<(JsString, Value)>> =
            self.entries.into_iter().map(Some).collect();
        order
            .into_iter()
            .map(|at| slots[at].take().expect("each position once"))
            .collect()
    }
}

/// Objects are equal when they have the same members in the same JavaScript
/// property order.
impl PartialEq for Object {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<K: Into<JsString>> FromIterator<(K, Value)> for Object {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(members: I) -> Self {
        let mut object = Object::new();
        for (key, value) in members {
            object.insert(key, value);
        }
        object
    }
}

impl Value {
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
    /// as the empty string), objects are `[object Object]`.
    pub fn to_js_string(&self) -> JsString {
        match self {
            Value::Undefined => JsString::from("undefined"),
            Value::Null => JsString::from("null"),
            Value::Bool(flag) => JsString::from(if *flag { "true" } else { "false" }),
            Value::Number(n) => JsString::from(number::to_js_string(*n)),
            Value::String(text) => text.clone(),
            Value::Array(items) => {
                let mut joined = JsString::new();
                for (at, item) in items.iter().enumerate() {
                    if at > 0 {
                        joined.push_str(",");
                    }
                    if item.is_set() {
                        joined.push_js(&item.to_js_string());
                    }
                }
                joined
            }
            Value::Object(_) => JsString::from("[object Object]"),
        }
    }
}

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
    () => { $crate::js::Value::Object($crate::js::Object::new()) };
    ($($key:expr => $value:expr),+ $(,)?) => {{
        let mut object = $crate::js::Object::new();
        $( object.insert($key, $crate::js::Value::from($value)); )+
        $crate::js::Value::Object(object)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_index_keys_are_canonical_u32_below_the_maximum() {
        assert_eq!(array_index(b"0"), Some(0));
        assert_eq!(array_index(b"7"), Some(7));
        assert_eq!(array_index(b"4294967294"), Some(4_294_967_294));
        for key in [
            "",
            "01",
            "-1",
            "1.0",
            "4294967295",
            "99999999999",
            " 1",
            "1e3",
            "+1",
        ] {
            assert_eq!(array_index(key.as_bytes()), None, "{key:?}");
        }
    }

    #[test]
    fn property_order_puts_index_keys_first() {
        let object: Object = ["b", "4294967295", "4294967294", "01", "1", "-1", "0"]
            .into_iter()
            .enumerate()
            .map(|(at, key)| (key, Value::from(at as u32)))
            .collect();
        let keys: Vec<String> = object.iter().map(|(k, _)| k.to_string()).collect();
        assert_eq!(
            keys,
            ["0", "1", "4294967294", "b", "4294967295", "01", "-1"]
        );
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        let mut object = Object::new();
        object.insert("a", Value::from(1u32));
        object.insert("b", Value::from(2u32));
        object.insert("a", Value::from(3u32));
        let members: Vec<(String, Value)> = object
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        assert_eq!(
            members,
            vec![("a".into(), 3u32.into()), ("b".into(), 2u32.into())]
        );
    }

    #[test]
    fn large_objects_switch_to_a_hash_index_without_changing_behaviour() {
        let mut object = Object::new();
        for round in 0..2u32 {
            for at in 0..100u32 {
                object.insert(format!("k{at}"), Value::from(at + round));
            }
        }
        assert_eq!(object.len(), 100);
        assert_eq!(object.get("k42"), Some(&Value::from(43u32)));
        assert_eq!(object.iter().next().unwrap().0.to_string(), "k0");
        assert!(object.get("k100").is_none());
    }

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
