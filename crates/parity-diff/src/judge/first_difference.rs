//! Where two unequal strings first part, in UTF-16 code units (the
//! units JavaScript's `length` and indices count), and a window of each
//! around that place. A report cuts a long value to its first
//! characters, so a difference near the end of a long string would
//! otherwise be cut away on both sides alike.

use js_exact::{self as js, JsString, Value};

/// Code units shown before the first difference.
pub const BEFORE: usize = 20;
/// Code units shown from the first difference on.
pub const AFTER: usize = 20;

/// One side's window: the units from `start` to `end`.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// The units in the window.
    pub text: JsString,
    /// Whether the string goes on before the window.
    pub cut_before: bool,
    /// Whether the string goes on after the window.
    pub cut_after: bool,
}

impl Window {
    /// The window as JSON text, with `…` outside the quotes where the
    /// string was cut: `…"abc"…`.
    pub fn display(&self) -> String {
        let quoted = js::to_json(&Value::String(self.text.clone()));
        format!(
            "{}{}{}",
            if self.cut_before { "…" } else { "" },
            String::from_utf8_lossy(&quoted),
            if self.cut_after { "…" } else { "" }
        )
    }
}

/// Where two strings part.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstDifference {
    /// The offset of the first unit that differs (or the shorter
    /// string's length, when it is a prefix of the other).
    pub offset: usize,
    /// Where both windows start.
    pub start: usize,
    /// The golden's length, in units.
    pub golden_length: usize,
    /// The actual string's length, in units.
    pub actual_length: usize,
    /// The golden's window.
    pub golden: Window,
    /// The actual string's window.
    pub actual: Window,
}

/// Where `golden` and `actual` part, when both are strings and differ.
pub fn of_values(golden: Option<&Value>, actual: Option<&Value>) -> Option<FirstDifference> {
    match (golden, actual) {
        (Some(Value::String(golden)), Some(Value::String(actual))) => {
            first_difference(golden, actual)
        }
        _ => None,
    }
}

/// Where two strings part; `None` when they are equal.
pub fn first_difference(golden: &JsString, actual: &JsString) -> Option<FirstDifference> {
    let golden_units = golden.to_utf16();
    let actual_units = actual.to_utf16();
    let offset = golden_units
        .iter()
        .zip(&actual_units)
        .position(|(x, y)| x != y)
        .or_else(|| {
            (golden_units.len() != actual_units.len())
                .then(|| golden_units.len().min(actual_units.len()))
        })?;
    let start = widen_start(&golden_units, &actual_units, offset.saturating_sub(BEFORE));
    let window = |units: &[u16]| {
        let end = widen_end(units, (offset + AFTER).min(units.len()));
        let start = start.min(end);
        Window {
            text: JsString::from_utf16(&units[start..end]),
            cut_before: start > 0,
            cut_after: end < units.len(),
        }
    };
    Some(FirstDifference {
        offset,
        start,
        golden_length: golden_units.len(),
        actual_length: actual_units.len(),
        golden: window(&golden_units),
        actual: window(&actual_units),
    })
}

fn is_high(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// A start that splits a surrogate pair on either side moves back one,
/// so that no window begins with half a character the string has whole.
fn widen_start(golden: &[u16], actual: &[u16], start: usize) -> usize {
    let splits = |units: &[u16]| {
        start > 0 && start < units.len() && is_low(units[start]) && is_high(units[start - 1])
    };
    if splits(golden) || splits(actual) {
        start - 1
    } else {
        start
    }
}

/// An end that splits a surrogate pair moves on one.
fn widen_end(units: &[u16], end: usize) -> usize {
    if end > 0 && end < units.len() && is_high(units[end - 1]) && is_low(units[end]) {
        end + 1
    } else {
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn js(text: &str) -> JsString {
        JsString::from(text)
    }

    fn at(golden: &str, actual: &str) -> (usize, String, String) {
        let found = first_difference(&js(golden), &js(actual)).expect("a difference");
        (found.offset, found.golden.display(), found.actual.display())
    }

    #[test]
    fn equal_strings_have_none() {
        assert_eq!(first_difference(&js("abc"), &js("abc")), None);
        assert_eq!(first_difference(&js(""), &js("")), None);
    }

    #[test]
    fn a_difference_at_the_end_of_a_long_string_is_in_the_window() {
        let golden = format!("{}A{}", "x".repeat(5000), "y".repeat(50));
        let actual = format!("{}B{}", "x".repeat(5000), "y".repeat(50));
        let (offset, g, a) = at(&golden, &actual);
        assert_eq!(offset, 5000);
        let x20 = "x".repeat(20);
        let y19 = "y".repeat(19);
        assert_eq!(g, format!("…\"{x20}A{y19}\"…"));
        assert_eq!(a, format!("…\"{x20}B{y19}\"…"));
    }

    #[test]
    fn a_prefix_differs_where_the_shorter_ends() {
        let (offset, g, a) = at("abc", "abcdef");
        assert_eq!(
            (offset, g.as_str(), a.as_str()),
            (3, "\"abc\"", "\"abcdef\"")
        );
        let (offset, _, _) = at("", "x");
        assert_eq!(offset, 0);
    }

    #[test]
    fn offsets_count_utf16_units_and_windows_keep_pairs_whole() {
        // U+1F600 is two units: the difference is at unit 2, not char 1.
        let (offset, g, a) = at("\u{1F600}a", "\u{1F600}b");
        assert_eq!(
            (offset, g.as_str(), a.as_str()),
            (2, "\"\u{1F600}a\"", "\"\u{1F600}b\"")
        );
        // A window start that would split a pair starts one unit earlier.
        let prefix = format!("{}\u{1F600}", "x".repeat(3));
        let golden = format!("{prefix}{}A", "y".repeat(BEFORE - 1));
        let actual = format!("{prefix}{}B", "y".repeat(BEFORE - 1));
        let found = first_difference(&js(&golden), &js(&actual)).unwrap();
        assert_eq!(found.offset, 3 + 2 + BEFORE - 1);
        assert_eq!(found.start, 3);
        assert!(found.golden.text.to_utf8_lossy().starts_with('\u{1F600}'));
        // An end that would split a pair ends one unit later.
        let golden = format!("A{}\u{1F600}", "y".repeat(AFTER - 2));
        let found = first_difference(&js(&golden), &js("B")).unwrap();
        assert!(found.golden.text.to_utf8_lossy().ends_with('\u{1F600}'));
        assert!(!found.golden.cut_after);
    }

    #[test]
    fn lone_surrogates_are_shown_in_json_notation() {
        let golden = JsString::from_utf16(&[0x61, 0xD800]);
        let actual = JsString::from_utf16(&[0x61, 0xDC00]);
        let found = first_difference(&golden, &actual).unwrap();
        assert_eq!(found.offset, 1);
        assert_eq!(found.golden.display(), "\"a\\ud800\"");
        assert_eq!(found.actual.display(), "\"a\\udc00\"");
    }

    #[test]
    fn only_two_strings_have_a_first_difference() {
        let string = Value::String(js("a"));
        assert_eq!(of_values(Some(&string), Some(&Value::Number(1.0))), None);
        assert_eq!(of_values(None, Some(&string)), None);
        assert!(of_values(Some(&string), Some(&Value::String(js("b")))).is_some());
    }
}
