//! Unified diffs of two pretty-printed elements, made with `similar`.

use std::time::Duration;

use similar::{Algorithm, ChangeTag, TextDiff};

/// What a line of a report's detail is, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Ordinary text (a path, a reason).
    Text,
    /// The value the golden has (a path's golden side).
    Golden,
    /// The value the result has.
    Actual,
    /// `--- golden` / `+++ actual`.
    FileHeader,
    /// `@@ -1,3 +1,3 @@`.
    Hunk,
    /// An unchanged line of the diff.
    Context,
    /// A line only the golden has.
    Removed,
    /// A line only the result has.
    Added,
    /// A remark about the report itself (lines left out).
    Note,
}

/// One line of a report's detail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// What it is.
    pub kind: LineKind,
    /// Its text, without a newline.
    pub text: String,
}

impl Line {
    /// A line of the given kind.
    pub fn new(kind: LineKind, text: impl Into<String>) -> Self {
        Line {
            kind,
            text: text.into(),
        }
    }
}

/// How many lines of one diff a report prints before it says how many
/// it left out.
pub const MAX_DIFF_LINES: usize = 200;

/// The diff gives up looking for the smallest edit after this long and
/// settles for a correct larger one.
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The unified diff (three lines of context) from the golden's text to
/// the result's, at most [`MAX_DIFF_LINES`] lines of it.
pub fn unified(golden: &str, actual: &str) -> Vec<Line> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .timeout(DIFF_DEADLINE)
        .diff_lines(golden, actual);
    let mut lines = vec![
        Line::new(LineKind::FileHeader, "--- golden"),
        Line::new(LineKind::FileHeader, "+++ actual"),
    ];
    let mut left_out = 0usize;
    let mut push = |lines: &mut Vec<Line>, line: Line| {
        if lines.len() < MAX_DIFF_LINES + 2 {
            lines.push(line);
        } else {
            left_out += 1;
        }
    };
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        push(
            &mut lines,
            Line::new(LineKind::Hunk, hunk.header().to_string()),
        );
        for change in hunk.iter_changes() {
            let (kind, sign) = match change.tag() {
                ChangeTag::Equal => (LineKind::Context, ' '),
                ChangeTag::Delete => (LineKind::Removed, '-'),
                ChangeTag::Insert => (LineKind::Added, '+'),
            };
            let text = change.value();
            let text = text.strip_suffix('\n').unwrap_or(text);
            push(&mut lines, Line::new(kind, format!("{sign}{text}")));
        }
    }
    if left_out > 0 {
        lines.push(Line::new(
            LineKind::Note,
            format!("… {left_out} more diff lines not shown"),
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line() {
        let lines = unified(
            "{\n  \"a\": 1,\n  \"b\": 2\n}\n",
            "{\n  \"a\": 1,\n  \"b\": 3\n}\n",
        );
        let texts: Vec<&str> = lines.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "--- golden",
                "+++ actual",
                "@@ -1,4 +1,4 @@",
                " {",
                "   \"a\": 1,",
                "-  \"b\": 2",
                "+  \"b\": 3",
                " }"
            ]
        );
        assert_eq!(lines[5].kind, LineKind::Removed);
        assert_eq!(lines[6].kind, LineKind::Added);
    }

    #[test]
    fn long_diffs_are_cut() {
        let golden: String = (0..500).map(|n| format!("{n}\n")).collect();
        let actual: String = (0..500).map(|n| format!("{}\n", n + 1000)).collect();
        let lines = unified(&golden, &actual);
        assert_eq!(lines.len(), MAX_DIFF_LINES + 3);
        assert_eq!(
            lines.last().unwrap().text,
            format!("… {} more diff lines not shown", 1001 - MAX_DIFF_LINES)
        );
    }
}
