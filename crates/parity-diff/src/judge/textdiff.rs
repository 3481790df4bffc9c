//! Unified diffs of two pretty-printed elements, made with `similar`.
//!
//! A report must be the same bytes on every machine, so the diff has no
//! deadline: its work is bounded by the input's size instead. Myers'
//! algorithm costs about (lines × differing lines); up to
//! [`EXACT_LINES`] lines between the first and the last difference it
//! finds the smallest diff, and above that it diffs the two middles
//! block by block ([`BLOCK_LINES`] lines of each side at a time), which
//! costs time linear in the lines and is still a correct diff.

use std::ops::Range;

use similar::algorithms::IdentifyDistinct;
use similar::udiff::UnifiedHunkHeader;
use similar::{capture_diff, group_diff_ops, Algorithm, ChangeTag, DiffOp, DiffableStr};

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

/// Up to this many lines in all (both sides, between the first and the
/// last difference) the diff is the smallest one. Myers' algorithm costs
/// about (lines × differing lines) steps: at most 4 million here.
pub const EXACT_LINES: usize = 2_000;

/// Above [`EXACT_LINES`], the middles are diffed in blocks of at most
/// this many lines of each side: at most about 2 × this many steps per
/// line, so a 64 KiB element (32 000 lines a side) costs about 30 million.
pub const BLOCK_LINES: usize = 250;

/// The unified diff (three lines of context) from the golden's text to
/// the result's, at most [`MAX_DIFF_LINES`] lines of it.
pub fn unified(golden: &str, actual: &str) -> Vec<Line> {
    let old = golden.tokenize_lines();
    let new = actual.tokenize_lines();
    let ops = line_ops(&old, &new, EXACT_LINES, BLOCK_LINES);
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
    for hunk in group_diff_ops(ops, 3) {
        push(
            &mut lines,
            Line::new(LineKind::Hunk, UnifiedHunkHeader::new(&hunk).to_string()),
        );
        for change in hunk.iter().flat_map(|op| op.iter_changes(&old, &new)) {
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

/// One row of a side-by-side diff: a golden line, an actual line, or
/// both; `changed` when they are not one line both sides share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired {
    /// The golden's line, when the row has one.
    pub golden: Option<String>,
    /// The result's line, when the row has one.
    pub actual: Option<String>,
    /// Whether the row is a difference.
    pub changed: bool,
}

/// The whole diff from the golden's text to the result's as rows side
/// by side (the same diff [`unified`] prints): lines both share on one
/// row, and each run of lines only one side has beside the other side's
/// run, row by row.
pub fn paired(golden: &str, actual: &str) -> Vec<Paired> {
    let old = golden.tokenize_lines();
    let new = actual.tokenize_lines();
    let line = |text: &str| text.strip_suffix('\n').unwrap_or(text).to_owned();
    let mut rows: Vec<Paired> = Vec::new();
    // Where the current run of changed rows starts: deleted lines fill
    // its left side first, inserted lines its right side.
    let mut run = rows.len();
    // How many lines of the run each side has: its rows hold the golden's
    // first, the result's first, so the next free place of a side is
    // found by counting, not by a search (a run of 100 000 changed lines
    // searched from its start each time took minutes).
    let (mut deleted, mut inserted) = (0, 0);
    for op in line_ops(&old, &new, EXACT_LINES, BLOCK_LINES) {
        for change in op.iter_changes(&old, &new) {
            let text = line(change.value());
            match change.tag() {
                ChangeTag::Equal => {
                    rows.push(Paired {
                        golden: Some(text.clone()),
                        actual: Some(text),
                        changed: false,
                    });
                    run = rows.len();
                    (deleted, inserted) = (0, 0);
                }
                ChangeTag::Delete => {
                    match rows.get_mut(run + deleted) {
                        Some(row) => row.golden = Some(text),
                        None => rows.push(Paired {
                            golden: Some(text),
                            actual: None,
                            changed: true,
                        }),
                    }
                    deleted += 1;
                }
                ChangeTag::Insert => {
                    match rows.get_mut(run + inserted) {
                        Some(row) => row.actual = Some(text),
                        None => rows.push(Paired {
                            golden: None,
                            actual: Some(text),
                            changed: true,
                        }),
                    }
                    inserted += 1;
                }
            }
        }
    }
    rows
}

/// The diff of two sequences of lines: the smallest when at most `exact`
/// lines lie between the first and the last difference, else the common
/// ends and the middles diffed in `block`-line pieces, paired in order.
fn line_ops(old: &[&str], new: &[&str], exact: usize, block: usize) -> Vec<DiffOp> {
    // Myers on small integers, one per distinct line, not on the lines.
    let ids = IdentifyDistinct::<u32>::new(old, 0..old.len(), new, 0..new.len());
    let (old_ids, new_ids) = (ids.old_lookup(), ids.new_lookup());
    let myers = |old_range: Range<usize>, new_range: Range<usize>| {
        capture_diff(Algorithm::Myers, old_ids, old_range, new_ids, new_range)
    };
    let prefix = old.iter().zip(new).take_while(|(x, y)| x == y).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let old_middle = prefix..old.len() - suffix;
    let new_middle = prefix..new.len() - suffix;
    let mut ops = Ops::default();
    if old_middle.len() + new_middle.len() <= exact {
        ops.extend(myers(0..old.len(), 0..new.len()));
        return ops.0;
    }
    ops.equal(prefix);
    let blocks = old_middle.len().max(new_middle.len()).div_ceil(block);
    // The block's share of a middle: the middles are cut at the same
    // fractions, so two sides that differ line for line stay paired.
    let share = |middle: &Range<usize>, at: usize| middle.start + middle.len() * at / blocks;
    for at in 0..blocks {
        ops.extend(myers(
            share(&old_middle, at)..share(&old_middle, at + 1),
            share(&new_middle, at)..share(&new_middle, at + 1),
        ));
    }
    ops.equal(suffix);
    ops.0
}

/// Diff ops laid end to end: each starts where the one before it ended
/// on both sides, and equal runs that meet are one op (the grouping into
/// hunks would otherwise see a hunk where two blocks meet).
#[derive(Default)]
struct Ops(Vec<DiffOp>);

impl Ops {
    /// Where the ops so far end, in the golden and in the result.
    fn ends(&self) -> (usize, usize) {
        self.0
            .last()
            .map_or((0, 0), |op| (op.old_range().end, op.new_range().end))
    }

    fn equal(&mut self, len: usize) {
        let (old_index, new_index) = self.ends();
        self.push(DiffOp::Equal {
            old_index,
            new_index,
            len,
        });
    }

    /// Appends ops in order, by their lengths only: similar's `Compact`
    /// leaves the empty side of a `Delete` or `Insert` at a stale index,
    /// which would put a wrong line number in a hunk's header.
    fn extend(&mut self, ops: Vec<DiffOp>) {
        for op in ops {
            let (old_index, new_index) = self.ends();
            let (_, old, new) = op.as_tag_tuple();
            let (old_len, new_len) = (old.len(), new.len());
            self.push(match op {
                DiffOp::Equal { len, .. } => DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                },
                DiffOp::Delete { .. } => DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                },
                DiffOp::Insert { .. } => DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                },
                DiffOp::Replace { .. } => DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                },
            });
        }
    }

    fn push(&mut self, op: DiffOp) {
        if let (Some(DiffOp::Equal { len, .. }), DiffOp::Equal { len: more, .. }) =
            (self.0.last_mut(), op)
        {
            *len += more;
            return;
        }
        let (_, old, new) = op.as_tag_tuple();
        if !old.is_empty() || !new.is_empty() {
            self.0.push(op);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_rows_pair_the_changed_runs() {
        let rows = paired(
            "[\n  1,\n  2,\n  3\n]\n",
            "[\n  1,\n  20,\n  30,\n  40\n]\n",
        );
        let shown: Vec<(Option<&str>, Option<&str>, bool)> = rows
            .iter()
            .map(|row| (row.golden.as_deref(), row.actual.as_deref(), row.changed))
            .collect();
        assert_eq!(
            shown,
            [
                (Some("["), Some("["), false),
                (Some("  1,"), Some("  1,"), false),
                (Some("  2,"), Some("  20,"), true),
                (Some("  3"), Some("  30,"), true),
                (None, Some("  40"), true),
                (Some("]"), Some("]"), false),
            ]
        );
        assert!(paired("x\n", "x\n").iter().all(|row| !row.changed));
    }

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

    /// Lines `0..count`, every odd one changed on the actual side: the
    /// smallest diff changes half of them, and finding it takes Myers
    /// about count² steps, so the old deadline cut it short.
    fn every_other_line(count: usize) -> (String, String) {
        let golden = (0..count).map(|n| format!("{n}\n")).collect();
        let actual = (0..count)
            .map(|n| {
                if n % 2 == 0 {
                    format!("{n}\n")
                } else {
                    format!("x{n}\n")
                }
            })
            .collect();
        (golden, actual)
    }

    #[test]
    fn a_pathological_diff_is_the_same_every_time_and_bounded_by_its_size() {
        let count = 30_000;
        let (golden, actual) = every_other_line(count);
        let mut expected = vec![
            "--- golden".to_owned(),
            "+++ actual".to_owned(),
            format!("@@ -1,{count} +1,{count} @@"),
        ];
        for n in 0..count {
            if n % 2 == 0 {
                expected.push(format!(" {n}"));
            } else {
                expected.push(format!("-{n}"));
                expected.push(format!("+x{n}"));
            }
        }
        let all = expected.len() - 2;
        expected.truncate(MAX_DIFF_LINES + 2);
        expected.push(format!(
            "… {} more diff lines not shown",
            all - MAX_DIFF_LINES
        ));
        let lines = unified(&golden, &actual);
        let texts: Vec<&str> = lines.iter().map(|line| line.text.as_str()).collect();
        assert_eq!(texts, expected);
        assert_eq!(unified(&golden, &actual), lines);
    }

    #[test]
    fn above_the_exact_limit_blocks_still_find_a_change_in_place() {
        // 5 000 lines, one changed in the middle and one near each end:
        // the middle is too long to diff whole, the blocks pair it up.
        let golden: Vec<String> = (0..5_000).map(|n| format!("{n}\n")).collect();
        let mut actual = golden.clone();
        for n in [10, 2_500, 4_990] {
            actual[n] = format!("changed {n}\n");
        }
        let lines = unified(&golden.concat(), &actual.concat());
        let changed: Vec<&str> = lines
            .iter()
            .filter(|line| matches!(line.kind, LineKind::Removed | LineKind::Added))
            .map(|line| line.text.as_str())
            .collect();
        assert_eq!(
            changed,
            [
                "-10",
                "+changed 10",
                "-2500",
                "+changed 2500",
                "-4990",
                "+changed 4990"
            ]
        );
        let hunks: Vec<&str> = lines
            .iter()
            .filter(|line| line.kind == LineKind::Hunk)
            .map(|line| line.text.as_str())
            .collect();
        assert_eq!(
            hunks,
            [
                "@@ -8,7 +8,7 @@",
                "@@ -2498,7 +2498,7 @@",
                "@@ -4988,7 +4988,7 @@"
            ]
        );
    }

    /// The lines a side reads from a diff: `Equal` and its own changes.
    fn side<'l>(ops: &[DiffOp], lines: &[&'l str], tag: ChangeTag) -> Vec<&'l str> {
        let mut out = Vec::new();
        let mut next = 0;
        for op in ops {
            let range = if tag == ChangeTag::Delete {
                op.old_range()
            } else {
                op.new_range()
            };
            // Each op starts where the one before it ended.
            assert_eq!(range.start, next, "{ops:?}");
            next = range.end;
            out.extend_from_slice(&lines[range]);
        }
        assert_eq!(next, lines.len(), "{ops:?}");
        out
    }

    /// Every hunk header says where its lines start and how many each
    /// side has (`@@ -a,b +c,d @@`, a length of 1 left out), and the
    /// lines between two hunks are as many on both sides.
    fn assert_headers_count_their_lines(lines: &[String]) {
        let parse = |range: &str| -> (usize, usize) {
            match range.split_once(',') {
                Some((start, len)) => (start.parse().unwrap(), len.parse().unwrap()),
                None => (range.parse().unwrap(), 1),
            }
        };
        let mut ends: Option<(usize, usize)> = None;
        let mut at = 0;
        while at < lines.len() {
            let header = &lines[at];
            let ranges: Vec<&str> = header
                .trim_start_matches("@@ -")
                .trim_end_matches(" @@")
                .split(" +")
                .collect();
            let (old_start, old_len) = parse(ranges[0]);
            let (new_start, new_len) = parse(ranges[1]);
            let body: Vec<&String> = lines[at + 1..]
                .iter()
                .take_while(|line| !line.starts_with("@@"))
                .collect();
            let count = |signs: &[char]| {
                body.iter()
                    .filter(|line| signs.iter().any(|&sign| line.starts_with(sign)))
                    .count()
            };
            assert_eq!(count(&[' ', '-']), old_len, "{header} in {lines:?}");
            assert_eq!(count(&[' ', '+']), new_len, "{header} in {lines:?}");
            // An empty side's start is the line before it (unified diff).
            let first = |start: usize, len: usize| if len == 0 { start + 1 } else { start };
            let (old_first, new_first) = (first(old_start, old_len), first(new_start, new_len));
            if let Some((old_end, new_end)) = ends {
                assert_eq!(old_first - old_end, new_first - new_end, "{lines:?}");
            } else {
                assert_eq!(old_first as isize - new_first as isize, 0, "{lines:?}");
            }
            ends = Some((old_first + old_len, new_first + new_len));
            at += 1 + body.len();
        }
    }

    proptest::proptest! {
        #[test]
        fn every_diff_turns_the_golden_into_the_actual(
            old in proptest::collection::vec("[abc]", 0..40),
            new in proptest::collection::vec("[abc]", 0..40),
            exact in 0usize..12,
            block in 1usize..6,
        ) {
            let old: Vec<&str> = old.iter().map(String::as_str).collect();
            let new: Vec<&str> = new.iter().map(String::as_str).collect();
            let ops = line_ops(&old, &new, exact, block);
            proptest::prop_assert_eq!(side(&ops, &old, ChangeTag::Delete), old.clone());
            proptest::prop_assert_eq!(side(&ops, &new, ChangeTag::Insert), new.clone());
            // The lines an op says are equal are equal.
            for op in &ops {
                if let DiffOp::Equal { old_index, new_index, len } = *op {
                    proptest::prop_assert_eq!(
                        &old[old_index..old_index + len],
                        &new[new_index..new_index + len]
                    );
                }
            }
        }

        #[test]
        fn under_the_limit_the_changes_are_similar_s_own_and_headers_count_them(
            old in proptest::collection::vec("[abc]\n", 0..60),
            new in proptest::collection::vec("[abc]\n", 0..60),
        ) {
            let (golden, actual) = (old.concat(), new.concat());
            let diff = similar::TextDiff::configure()
                .algorithm(Algorithm::Myers)
                .diff_lines(&golden, &actual);
            let mut expected = Vec::new();
            for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
                expected.push("@@".to_owned());
                for change in hunk.iter_changes() {
                    let sign = match change.tag() {
                        ChangeTag::Equal => ' ',
                        ChangeTag::Delete => '-',
                        ChangeTag::Insert => '+',
                    };
                    expected.push(format!("{sign}{}", change.value().trim_end_matches('\n')));
                }
            }
            let found: Vec<String> = unified(&golden, &actual)
                .into_iter()
                .skip(2)
                .map(|line| line.text)
                .collect();
            let unheaded: Vec<&str> = found
                .iter()
                .map(|line| if line.starts_with("@@") { "@@" } else { line.as_str() })
                .collect();
            proptest::prop_assert_eq!(unheaded, expected);
            assert_headers_count_their_lines(&found);
        }
    }
}
