//! Markdown that cannot be misread, for every Markdown writer (`run`,
//! `merge` and `accept`, the job summary, `delta`): other people's text
//! (case names, messages, values, paths, signatures) only ever stands in
//! code spans and fenced code blocks, whose delimiters are longer than
//! any backtick run inside, so that nothing in it is markup, raw HTML, a
//! link or autolink, an `@mention` or an issue reference, and a pipe in
//! a table cell is `\|`. Span text is written in the report notation
//! ([`outside::text`]: no control character, no line break, no workflow
//! command); a block's body is neutral lines already. And a [`Document`]
//! of whole blocks, cut to a byte limit by dropping blocks from its end,
//! never a part of one.

use std::fmt::Write as _;

use super::super::human::cases;
use crate::base::outside;

/// The longest run of backticks in a text.
fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

fn span(text: &str, in_table: bool) -> String {
    // A code span is one line, and a table row must be: the notation
    // writes line breaks and every other control as escapes.
    let mut inner = outside::text(text).into_owned();
    if in_table {
        // GFM splits a row at every unescaped pipe, code spans included;
        // `\|` is a pipe inside a cell, even in a code span.
        inner = inner.replace('|', "\\|");
    }
    let ticks = "`".repeat(longest_backtick_run(&inner) + 1);
    // A span strips one space from each end when both ends have one, and
    // a backtick at an end would merge with the delimiter: pad with a
    // space on both sides in either case.
    let pad = inner.starts_with('`')
        || inner.ends_with('`')
        || (inner.starts_with(' ') && inner.ends_with(' ') && inner.trim() != "")
        || inner.is_empty();
    if pad {
        format!("{ticks} {inner} {ticks}")
    } else {
        format!("{ticks}{inner}{ticks}")
    }
}

/// Text as an inline code span.
pub fn code(text: &str) -> String {
    span(text, false)
}

/// Text as an inline code span in a table cell.
pub fn cell(text: &str) -> String {
    span(text, true)
}

/// Lines of a code block that a report shows: at most this many.
pub const BLOCK_LINES: usize = 40;

/// And at most this many bytes.
pub const BLOCK_BYTES: usize = 4096;

/// A line of a code block longer than this is cut.
pub const LINE_CHARS: usize = 300;

/// A fenced code block of `body` (cut to [`BLOCK_LINES`] lines,
/// [`BLOCK_BYTES`] bytes and lines of [`LINE_CHARS`] characters), with a
/// line after it saying what was cut. The fence is longer than any
/// backtick run in the body, so no line of it can close the block. The
/// body is neutral already: [`outside::json`] for JSON, [`outside::block`]
/// for other outside text, or detail lines.
pub fn fence(info: &str, body: &str) -> String {
    let mut kept = String::new();
    let mut lines = 0;
    let mut cut_lines = false;
    let total = body.lines().count();
    for raw in body.lines() {
        let line = crate::judge::signature::cut_chars(raw, LINE_CHARS);
        if lines == BLOCK_LINES || kept.len() + line.len() + 1 > BLOCK_BYTES {
            break;
        }
        cut_lines |= raw.chars().nth(LINE_CHARS).is_some();
        kept.push_str(&line);
        kept.push('\n');
        lines += 1;
    }
    let ticks = "`".repeat(longest_backtick_run(&kept).max(2) + 1);
    let mut out = format!("{ticks}{info}\n{kept}{ticks}\n");
    let left = total - lines;
    if left > 0 {
        let noun = if left == 1 { "line" } else { "lines" };
        let _ = writeln!(out, "\n*… {left} more {noun} not shown.*");
    } else if cut_lines {
        out.push_str("\n*Long lines are cut (…).*\n");
    }
    out
}

/// What a block of a document is, to say what a cut left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// The headline: always kept.
    Head,
    /// A row of the per-op table.
    OpRow,
    /// A file that could not be compared, or a missing or orphaned golden.
    Problem,
    /// A row of the table of ops that threw one message on every case.
    Uniform,
    /// The list of triaged cases.
    Triaged,
    /// A failure group.
    Group,
    /// An orphaned ledger entry.
    Orphan,
    /// What `accept` changed in the ledger.
    Changes,
}

impl Part {
    fn describe(self, count: usize) -> String {
        let (one, many) = match self {
            Part::Head => ("headline", "headlines"),
            Part::OpRow => ("row of the per-op table", "rows of the per-op table"),
            Part::Problem => ("file problem", "file problems"),
            Part::Uniform => ("op that threw one message", "ops that threw one message"),
            Part::Triaged => ("list of triaged cases", "lists of triaged cases"),
            Part::Group => ("failure group", "failure groups"),
            Part::Orphan => ("orphaned ledger entry", "orphaned ledger entries"),
            Part::Changes => ("list of ledger changes", "lists of ledger changes"),
        };
        format!("{count} {}", if count == 1 { one } else { many })
    }
}

/// One block: whole sections, table rows or groups, never cut apart.
#[derive(Debug, Clone)]
struct Block {
    part: Part,
    text: String,
    cases: usize,
}

/// A Markdown document as whole blocks, and a tail that is always
/// written last.
#[derive(Debug, Clone, Default)]
pub struct Document {
    blocks: Vec<Block>,
    tail: String,
}

/// Room kept for the note that says what a cut left out.
const NOTE_ROOM: usize = 1024;

impl Document {
    /// Adds a block.
    pub fn push(&mut self, part: Part, text: String) {
        self.push_cases(part, text, 0);
    }

    /// Adds a block standing for `cases` cases (a failure group).
    pub fn push_cases(&mut self, part: Part, text: String, cases: usize) {
        self.blocks.push(Block { part, text, cases });
    }

    /// Sets the tail.
    pub fn set_tail(&mut self, text: String) {
        self.tail = text;
    }

    /// The whole document's size in bytes.
    pub fn len(&self) -> usize {
        self.blocks.iter().map(|b| b.text.len()).sum::<usize>() + self.tail.len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The document, whole.
    pub fn text(&self) -> String {
        self.cut(usize::MAX, "")
    }

    /// The document in at most `limit` bytes (the headline is kept even
    /// when it alone is longer): when it is longer, the blocks that do not
    /// fit are left out from the end, and a note saying what was left out
    /// and `why` (`to stay under …`) takes their place, before the tail.
    pub fn cut(&self, limit: usize, why: &str) -> String {
        let mut out = String::new();
        if self.len() <= limit {
            for block in &self.blocks {
                out.push_str(&block.text);
            }
            out.push_str(&self.tail);
            return out;
        }
        let budget = limit.saturating_sub(self.tail.len() + NOTE_ROOM);
        let mut kept = 0;
        for block in &self.blocks {
            if block.part != Part::Head && out.len() + block.text.len() > budget {
                break;
            }
            out.push_str(&block.text);
            kept += 1;
        }
        let mut left: Vec<(Part, usize, usize)> = Vec::new();
        for block in &self.blocks[kept..] {
            match left.iter_mut().find(|(part, ..)| *part == block.part) {
                Some((_, count, cases)) => {
                    *count += 1;
                    *cases += block.cases;
                }
                None => left.push((block.part, 1, block.cases)),
            }
        }
        left.sort();
        let what: Vec<String> = left
            .iter()
            .map(|&(part, count, cases)| match cases {
                0 => part.describe(count),
                cases => format!("{} ({})", part.describe(count), self::cases(cases, "case")),
            })
            .collect();
        let _ = write!(out, "\n> **Cut {why}:** left out {}.\n\n", what.join(", "));
        out.push_str(&self.tail);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_outlast_their_backticks() {
        assert_eq!(code("sum"), "`sum`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("a``b`c"), "```a``b`c```");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("x`"), "`` x` ``");
        assert_eq!(code(" x "), "`  x  `");
        assert_eq!(code(" x"), "` x`");
        assert_eq!(code(""), "`  `");
        assert_eq!(code("   "), "`   `");
        assert_eq!(code("a\nb\u{1b}c"), "`a\\u{a}b\\u{1b}c`");
        assert_eq!(
            code("::x ##[y \u{202e}"),
            "`\\u{3a}:x ##\\u{5b}y \\u{202e}`"
        );
        assert_eq!(
            code("@octocat https://evil/x <b>"),
            "`@octocat https://evil/x <b>`"
        );
        assert_eq!(code("a|b"), "`a|b`");
        assert_eq!(cell("a|b"), "`a\\|b`");
        assert_eq!(cell("a\\|b"), "`a\\\\|b`");
    }

    #[test]
    fn fences_outlast_their_backticks_and_are_cut() {
        assert_eq!(fence("json", "[1]"), "```json\n[1]\n```\n");
        assert_eq!(fence("", "a\n````\nb\n"), "`````\na\n````\nb\n`````\n");
        let long: String = (0..100).map(|n| format!("{n}\n")).collect();
        let block = fence("text", &long);
        assert!(block.starts_with("```text\n0\n1\n"), "{block}");
        assert!(block.contains("\n39\n```\n"), "{block}");
        assert!(
            block.ends_with("\n```\n\n*… 60 more lines not shown.*\n"),
            "{block}"
        );
        let wide = "x".repeat(LINE_CHARS + 10);
        let block = fence("text", &wide);
        assert!(
            block.contains(&format!("{}…\n```", "x".repeat(LINE_CHARS))),
            "{block}"
        );
        assert!(block.ends_with("*Long lines are cut (…).*\n"), "{block}");
        let heavy: String = (0..39).map(|_| format!("{}\n", "y".repeat(200))).collect();
        let block = fence("", &heavy);
        assert!(block.len() < BLOCK_BYTES + 100, "{}", block.len());
        assert!(block.contains("more lines not shown"), "{block}");
    }

    #[test]
    fn a_cut_document_drops_whole_blocks_from_the_end_and_says_which() {
        let mut doc = Document::default();
        doc.push(Part::Head, "# head\n\n".into());
        doc.push(Part::OpRow, "| a |\n".into());
        for n in 0..5 {
            doc.push_cases(Part::Group, format!("group {n} {}\n\n", "z".repeat(500)), 3);
        }
        doc.push(Part::Orphan, "orphan\n\n".into());
        doc.set_tail("tail\n".into());
        let whole = doc.text();
        assert_eq!(whole.len(), doc.len());
        assert_eq!(doc.cut(doc.len(), "x"), whole);
        assert!(doc.len() > 1600);
        let cut = doc.cut(1600, "to fit");
        assert!(cut.len() <= 1600, "{}", cut.len());
        assert!(
            cut.contains("group 0 ") && !cut.contains("group 1 "),
            "{cut}"
        );
        assert!(cut.ends_with(
            "\n> **Cut to fit:** left out 4 failure groups (12 cases), 1 orphaned ledger entry.\n\ntail\n"
        ), "{cut}");
        // The headline stays, whatever the limit.
        let tiny = doc.cut(10, "to fit");
        assert!(tiny.starts_with("# head\n\n\n> **Cut to fit:** left out 1 row of the per-op table, 5 failure groups (15 cases), 1 orphaned ledger entry."), "{tiny}");
    }
}
