//! Plain JavaScript objects, as `JSON.parse` and `Object.fromEntries`
//! make them.
//!
//! Members are kept in JavaScript property order: array-index keys first
//! in ascending numeric order, then the other keys in the order they were
//! first inserted. A duplicate key keeps its first position and takes the
//! last value.
//!
//! The struct [`Object`] itself is defined in [`value`](crate::value),
//! beside [`Value`], since each holds the other; its methods are here.

use std::collections::HashMap;

use super::string::JsString;
pub use super::value::Object;
use super::value::Value;

/// Objects with more members than this get a hash index for lookups; below
/// it a linear scan is faster than hashing.
const LOOKUP_THRESHOLD: usize = 24;

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
            self.lookup = Some(Box::new(lookup));
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

    /// Empties the object, handing its values to `into` (keys and the
    /// lookup index are dropped).
    pub(super) fn drain_values_into(&mut self, into: &mut Vec<Value>) {
        into.extend(self.entries.drain(..).map(|(_, value)| value));
        self.lookup = None;
        self.index_keys = 0;
    }

    /// The values in storage order, for work that does not care about
    /// property order.
    pub(super) fn stored_values(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(_, value)| value)
    }

    /// How many members the object has room for without growing.
    #[cfg(test)]
    pub(super) fn capacity(&self) -> usize {
        self.entries.capacity()
    }

    /// Frees the room the members' storage kept for growth.
    pub(super) fn shrink_to_fit(&mut self) {
        self.entries.shrink_to_fit();
    }

    /// Drops every member, keeping the storage for the object's own drop.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.lookup = None;
        self.index_keys = 0;
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
}
