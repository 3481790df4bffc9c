//! The part of an element a review screen diffs: the screen is drawn
//! again at every key, so its work must be bounded whatever a report
//! holds. `run` keeps 64 KiB of each element, but a report can be forged
//! or edited (300 000 elements a side once kept review from drawing its
//! first screen, and from reading `q`). Each side is pretty-printed only
//! up to [`PRETTY_BYTES`] and shown up to [`SHOWN_LINES`] lines; the
//! screen says what it left out.

use crate::report::detail;

/// A longer element is not pretty-printed: its first [`RAW_BYTES`] are
/// shown as they are. `run` keeps 64 KiB of an element, so only a forged
/// report's are longer.
pub const PRETTY_BYTES: usize = 256 * 1024;

/// How much of an element too long to pretty-print is shown.
pub const RAW_BYTES: usize = 64 * 1024;

/// How many pretty-printed lines of each side are diffed and shown.
pub const SHOWN_LINES: usize = 2_000;

/// An element's text as the screen diffs it, and what was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The pretty-printed lines kept, each ending in a newline.
    pub text: String,
    /// What was left out, for people; `None` when nothing was.
    pub left_out: Option<String>,
}

/// The window of one side (`which`: `golden` or `actual`).
pub fn window(which: &str, element: &str) -> Window {
    if element.len() > PRETTY_BYTES {
        let mut end = RAW_BYTES;
        while !element.is_char_boundary(end) {
            end -= 1;
        }
        return Window {
            text: format!("{}\n", &element[..end]),
            left_out: Some(format!(
                "{which}: {} bytes, too long to lay out: its first {end} shown raw",
                element.len()
            )),
        };
    }
    let pretty = detail::pretty(element);
    let mut lines = 0;
    for (at, byte) in pretty.bytes().enumerate() {
        if byte != b'\n' {
            continue;
        }
        lines += 1;
        if lines == SHOWN_LINES && at + 1 < pretty.len() {
            let all = lines + pretty[at + 1..].lines().count();
            return Window {
                text: pretty[..at + 1].to_owned(),
                left_out: Some(format!(
                    "{which}: the first {SHOWN_LINES} of its {all} lines are shown and diffed"
                )),
            };
        }
    }
    Window {
        text: pretty,
        left_out: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_elements_are_whole_long_ones_cut_and_said_so() {
        let small = window("golden", "[1,2]");
        assert_eq!(small.text, detail::pretty("[1,2]"));
        assert_eq!(small.left_out, None);
        let many = format!("[{}0]", "0,".repeat(100_000));
        let cut = window("actual", &many);
        assert_eq!(cut.text.lines().count(), SHOWN_LINES);
        assert_eq!(
            cut.left_out.as_deref(),
            Some("actual: the first 2000 of its 100003 lines are shown and diffed")
        );
        let huge = format!("\"{}\"", "é".repeat(PRETTY_BYTES));
        let raw = window("golden", &huge);
        assert!(raw.text.len() <= RAW_BYTES + 1);
        assert!(raw.left_out.unwrap().contains("too long to lay out"));
    }
}
