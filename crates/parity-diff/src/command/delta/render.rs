//! A delta for people: text for a terminal, or Markdown for a pull
//! request comment (a compact table of the ops whose pass count changed,
//! then each list, long ones folded in `<details>`, the whole kept well
//! under GitHub's 65 536 characters per comment).
//!
//! Identities, ops and signatures come from the reports, so from case
//! files and ports: the text report writes them in the report notation
//! ([`outside::text`]), the Markdown report in code spans
//! ([`markdown::text`], the one escaping layer of every Markdown writer).
//!
//! [`markdown::text`]: crate::report::markdown::text

use std::convert::Infallible;
use std::io::{self, Write};

use super::{Change, Delta, Kind, OpCounts};
use crate::base::columns;
use crate::base::outside;
use crate::judge::signature::op_display;
use crate::report::markdown::text::{cell, code};
use crate::report::render::{Render, Report};

/// `delta`'s report: the changes, known whole at the end.
#[derive(Debug)]
pub struct Changes;

impl Report for Changes {
    type Part<'a> = Infallible;
    type End<'a> = &'a mut Delta;
}

/// The text report: each list, the ops whose pass count changed, and the
/// closing line, always last.
pub struct Text {
    /// The closing line alone.
    pub quiet: bool,
}

impl Render<Changes> for Text {
    fn part(&mut self, _out: &mut dyn Write, part: Infallible) -> io::Result<()> {
        match part {}
    }

    fn finish(&mut self, out: &mut dyn Write, delta: &mut Delta) -> io::Result<()> {
        human(delta, self.quiet, out)
    }
}

/// The Markdown report, for a pull-request comment.
pub struct Comment;

impl Render<Changes> for Comment {
    fn part(&mut self, _out: &mut dyn Write, part: Infallible) -> io::Result<()> {
        match part {}
    }

    fn finish(&mut self, out: &mut dyn Write, delta: &mut Delta) -> io::Result<()> {
        markdown(delta, out)
    }
}

/// How many cases a Markdown list names.
pub const MARKDOWN_LIST: usize = 100;

/// A Markdown list longer than this is folded.
pub const MARKDOWN_OPEN: usize = 10;

/// The most a Markdown delta writes (GitHub refuses comments over 65 536
/// characters).
pub const MARKDOWN_BUDGET: usize = 60_000;

/// The most the head and the table of ops take of [`MARKDOWN_BUDGET`]:
/// the rest is the lists'. With 3 000 ops whose pass count changed, the
/// table alone would pass GitHub's limit.
pub const MARKDOWN_TABLE_BUDGET: usize = MARKDOWN_BUDGET / 2;

/// How many characters of one word (a failure's signature) are kept.
const WORD_CHARS: usize = 300;

fn signed(change: i64) -> String {
    if change > 0 {
        format!("+{change}")
    } else {
        change.to_string()
    }
}

fn change_of(counts: &OpCounts) -> i64 {
    counts.head_passed as i64 - counts.base_passed as i64
}

/// `84 → 94 passed (+10), 12 → 2 accepted; 2 newly failing, 1 failing
/// differently, …`: passed as `run` counts it (identical), the accepted
/// apart.
pub fn closing_line(delta: &Delta) -> String {
    let totals = delta.totals();
    let kinds: Vec<String> = Kind::ALL
        .iter()
        .map(|&kind| format!("{} {}", delta.count(kind), kind.phrase()))
        .collect();
    format!(
        "{} → {} passed ({}), {} → {} accepted; {}",
        totals.base_passed,
        totals.head_passed,
        signed(change_of(&totals)),
        totals.base_accepted,
        totals.head_accepted,
        kinds.join(", ")
    )
}

/// The ops whose cases or passes changed, as reports print them.
fn changed_ops(delta: &Delta) -> Vec<(String, &OpCounts)> {
    delta
        .by_op
        .iter()
        .filter(|(_, c)| c.base_passed != c.head_passed || c.base_cases != c.head_cases)
        .map(|(op, counts)| (op_display(op.as_deref()), counts))
        .collect()
}

/// [`changed_ops`] for a terminal: each op neutral.
fn changed_ops_text(delta: &Delta) -> Vec<(String, &OpCounts)> {
    changed_ops(delta)
        .into_iter()
        .map(|(op, counts)| (outside::text(&op).into_owned(), counts))
        .collect()
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(WORD_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// One change in a line of text.
fn text_line(kind: Kind, change: &Change) -> String {
    let id = outside::text(&change.id);
    let before = outside::text(&cut(&change.before)).into_owned();
    let after = outside::text(&cut(&change.after)).into_owned();
    match kind {
        Kind::Added => format!("{id}: {after}"),
        Kind::Removed => format!("{id}: was {before}"),
        _ => format!("{id}: {before} → {after}"),
    }
}

/// The text report ([`Text`]).
fn human(delta: &mut Delta, quiet: bool, out: &mut dyn Write) -> io::Result<()> {
    if !quiet {
        for kind in Kind::ALL {
            let count = delta.count(kind);
            if count == 0 {
                continue;
            }
            writeln!(out, "{} ({count}):", kind.title())?;
            let mut failed = Ok(());
            delta.of(kind).each(|change| {
                failed = writeln!(out, "  {}", text_line(kind, &change));
                failed.is_ok()
            })?;
            failed?;
        }
        let ops = changed_ops_text(delta);
        if ops.is_empty() {
            writeln!(out, "no op's pass count changed")?;
        } else {
            let width = ops
                .iter()
                .map(|(op, _)| columns::width(op))
                .max()
                .unwrap_or(2);
            let width = width.max(2);
            writeln!(
                out,
                "{:<width$}  {:>13}  {:>13}  {:>7}",
                "op", "base", "head", "change"
            )?;
            for (op, counts) in ops {
                writeln!(
                    out,
                    "{}  {:>13}  {:>13}  {:>7}",
                    columns::pad(&op, width),
                    format!("{}/{}", counts.base_passed, counts.base_cases),
                    format!("{}/{}", counts.head_passed, counts.head_cases),
                    signed(change_of(counts))
                )?;
            }
        }
    }
    writeln!(out, "{}", closing_line(delta))
}

fn markdown_item(kind: Kind, change: &Change) -> String {
    let id = code(&change.id);
    let (before, after) = (code(&cut(&change.before)), code(&cut(&change.after)));
    match kind {
        Kind::Added => format!("- {id}: {after}\n"),
        Kind::Removed => format!("- {id}: was {before}\n"),
        _ => format!("- {id}: {before} → {after}\n"),
    }
}

/// The Markdown report ([`Comment`]).
fn markdown(delta: &mut Delta, out: &mut dyn Write) -> io::Result<()> {
    let mut text = String::from("### parity-diff delta\n\n");
    let totals = delta.totals();
    text.push_str(&format!(
        "**{} → {} passed ({})** · {} → {} accepted",
        totals.base_passed,
        totals.head_passed,
        signed(change_of(&totals)),
        totals.base_accepted,
        totals.head_accepted
    ));
    for kind in Kind::ALL {
        text.push_str(&format!(" · {} {}", delta.count(kind), kind.phrase()));
    }
    text.push_str("\n\n");
    let ops = changed_ops(delta);
    if ops.is_empty() {
        text.push_str("No op's pass count changed.\n\n");
    } else {
        text.push_str("| op | base | head | change |\n|:---|---:|---:|---:|\n");
        let mut rows = 0;
        for (op, counts) in &ops {
            let row = format!(
                "| {} | {} / {} | {} / {} | {} |\n",
                cell(&cut(op)),
                counts.base_passed,
                counts.base_cases,
                counts.head_passed,
                counts.head_cases,
                signed(change_of(counts))
            );
            if text.len() + row.len() > MARKDOWN_TABLE_BUDGET {
                break;
            }
            text.push_str(&row);
            rows += 1;
        }
        if rows < ops.len() {
            text.push_str(&format!(
                "\n… and {} more ops whose pass count changed (cut to fit a pull request \
                 comment; the text report lists them all)\n",
                ops.len() - rows
            ));
        }
        text.push('\n');
    }
    // Room for every list's closing lines, whatever is cut.
    let reserve = 200 * Kind::ALL.len();
    for kind in Kind::ALL {
        let count = delta.count(kind);
        if count == 0 {
            continue;
        }
        let title = format!("{} ({count})", kind.title());
        let folded = count > MARKDOWN_OPEN;
        if folded {
            text.push_str(&format!("<details><summary>{title}</summary>\n\n"));
        } else {
            text.push_str(&format!("#### {title}\n\n"));
        }
        let mut named = 0;
        let mut full = false;
        delta.of(kind).each(|change| {
            let item = markdown_item(kind, &change);
            if named == MARKDOWN_LIST || text.len() + item.len() + reserve > MARKDOWN_BUDGET {
                full = text.len() + item.len() + reserve > MARKDOWN_BUDGET;
                return false;
            }
            text.push_str(&item);
            named += 1;
            true
        })?;
        if named < count {
            let why = if full {
                " (cut to fit a pull request comment)"
            } else {
                ""
            };
            text.push_str(&format!("- … and {} more{why}\n", count - named));
        }
        text.push_str(if folded { "\n</details>\n\n" } else { "\n" });
    }
    // Bytes, not characters: the bound holds whatever the characters.
    debug_assert!(text.len() <= MARKDOWN_BUDGET, "{}", text.len());
    out.write_all(text.as_bytes())
}
