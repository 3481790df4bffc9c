//! Values of any depth: measuring their nesting, and dropping them,
//! without recursion.
//!
//! JSON text that an op parses may nest to any depth (contract 2.2: the
//! reference reads any depth there), and the derived drop of a nested
//! value takes stack frames for every level: a million levels overflow
//! any thread's stack. So `Value` drops itself: it drops its members
//! depth first, as the derived drop does, while fewer than
//! [`RECURSION_LEVELS`] drops are under way on the thread; below that
//! depth the rest of the value is taken apart on a heap stack instead.
//! A value shallower than that (as good as every value an op sees) drops
//! exactly as before, at the cost of a thread-local counter.

use std::cell::Cell;

use super::object::Object;
use super::value::Value;

/// How deep drops recurse before the rest goes to a heap stack: a few
/// kilobytes of stack, whatever the value.
const RECURSION_LEVELS: u32 = 64;

thread_local! {
    /// How many container drops are under way on this thread.
    static DROPS_UNDER_WAY: Cell<u32> = const { Cell::new(0) };
}

/// Whether `value` holds members whose drop is worth tracking.
fn has_members(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        Value::Object(object) => !object.is_empty(),
        _ => false,
    }
}

/// Moves the members of `value` onto `pending`, leaving it empty.
fn take_members(value: &mut Value, pending: &mut Vec<Value>) {
    match value {
        Value::Array(items) => pending.append(items),
        Value::Object(object) => object.drain_values_into(pending),
        _ => {}
    }
}

/// Drops the members of `value` without recursion: every value popped
/// from the heap stack hands its members on before it drops, so each
/// drop that runs has nothing below it.
fn drop_members_on_heap(value: &mut Value) {
    let mut pending = Vec::new();
    take_members(value, &mut pending);
    while let Some(mut value) = pending.pop() {
        take_members(&mut value, &mut pending);
    }
}

/// Drops the members of a value that has some: depth first while few
/// drops are under way, on the heap stack below that.
fn drop_members(value: &mut Value) {
    let under_way = DROPS_UNDER_WAY.get();
    if under_way >= RECURSION_LEVELS {
        drop_members_on_heap(value);
        return;
    }
    DROPS_UNDER_WAY.set(under_way + 1);
    // The members drop here, inside this call, so that the counter covers
    // them.
    match value {
        Value::Array(items) => items.clear(),
        Value::Object(object) => object.clear(),
        _ => {}
    }
    DROPS_UNDER_WAY.set(under_way);
}

impl Value {
    /// Whether containers nest more than `levels` deep in this value, the
    /// value itself being the first level when it is one (`5` nests 0
    /// levels, `[]` 1, `[{}]` 2).
    pub fn nests_deeper_than(&self, levels: usize) -> bool {
        nests_deeper(vec![(self, 1)], levels)
    }
}

impl Object {
    /// Whether containers nest more than `levels` deep in the object, the
    /// object itself being the first level.
    pub fn nests_deeper_than(&self, levels: usize) -> bool {
        levels == 0
            || nests_deeper(
                self.stored_values().map(|member| (member, 2)).collect(),
                levels,
            )
    }
}

/// Whether some container among `pending` (each with its level), or
/// below one, lies deeper than `levels`. Walks on a heap stack.
fn nests_deeper(mut pending: Vec<(&Value, usize)>, levels: usize) -> bool {
    while let Some((value, level)) = pending.pop() {
        let members: &mut dyn Iterator<Item = &Value> = match value {
            Value::Array(items) => &mut items.iter(),
            Value::Object(object) => &mut object.stored_values(),
            _ => continue,
        };
        if level > levels {
            return true;
        }
        pending.extend(members.map(|member| (member, level + 1)));
    }
    false
}

impl Drop for Value {
    // Inlined so that a leaf's drop stays a comparison.
    #[inline]
    fn drop(&mut self) {
        if has_members(self) {
            drop_members(self);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{to_json, JsonReader, Object, TextMode};

    /// A value `levels` containers deep, alternating arrays and objects,
    /// built without recursion.
    fn nested(levels: usize) -> Value {
        let mut value = Value::from("leaf");
        for level in 0..levels {
            value = if level % 2 == 0 {
                Value::Array(vec![Value::Null, value])
            } else {
                Value::Object(Object::new().with("k", value).with("2", 1.0))
            };
        }
        value
    }

    #[test]
    fn a_million_levels_drop_on_a_small_stack() {
        // Test threads have 2 MiB of stack; the derived drop would need
        // far more than that for a million levels.
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| drop(nested(1_000_000)))
            .unwrap()
            .join()
            .expect("the drop did not overflow the stack");
    }

    #[test]
    fn deep_parsed_text_drops_on_a_small_stack() {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let levels = 300_000;
                let text = format!("{}0{}", "[{\"a\":".repeat(levels), "}]".repeat(levels));
                let mut reader = JsonReader::from_slice(text.as_bytes(), TextMode::Wtf8)
                    .with_max_depth(usize::MAX);
                let value = reader.parse_value(0).expect("deep but valid");
                assert!(has_members(&value));
            })
            .unwrap()
            .join()
            .expect("the drop did not overflow the stack");
    }

    #[test]
    fn nesting_counts_containers_at_any_depth() {
        let value = |text: &str| crate::testing::value(text);
        for (text, levels) in [
            ("5", 0),
            ("\"[[\"", 0),
            ("[]", 1),
            ("{}", 1),
            ("[1,{}]", 2),
            ("[{},[[]],{\"a\":[]}]", 3),
            ("{\"a\":1,\"b\":{\"c\":[{}]},\"d\":[]}", 4),
        ] {
            let value = value(text);
            assert!(!value.nests_deeper_than(levels), "{text} nests {levels}");
            assert!(
                levels == 0 || value.nests_deeper_than(levels - 1),
                "{text} nests {levels}"
            );
            if let Some(object) = value.as_object() {
                assert!(!object.nests_deeper_than(levels), "{text}");
                assert!(object.nests_deeper_than(levels - 1), "{text}");
            }
        }
        let deep = nested(1_000_000);
        assert!(!deep.nests_deeper_than(1_000_000));
        assert!(deep.nests_deeper_than(999_999));
    }

    #[test]
    fn the_count_of_drops_under_way_returns_to_zero() {
        drop(nested(10));
        assert_eq!(DROPS_UNDER_WAY.get(), 0);
        drop(nested(RECURSION_LEVELS as usize * 3));
        assert_eq!(DROPS_UNDER_WAY.get(), 0);
    }

    #[test]
    fn the_heap_path_empties_the_value_it_takes_apart() {
        let mut value = nested(5);
        drop_members_on_heap(&mut value);
        assert_eq!(to_json(&value), b"[]");
        let mut leaf = Value::from("x");
        drop_members_on_heap(&mut leaf);
        assert_eq!(leaf, Value::from("x"));
    }
}
