//! A progress file's versions as series: one per op (or per suite), its
//! counts at each version; and the series as a table for people or in
//! Markdown, the last versions as columns.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::git::Version;
use super::Counts;
use crate::base::columns;
use crate::base::outside;
use crate::report::markdown::text::cell;

/// What one line of the history follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum By {
    /// Each op of each suite.
    #[default]
    Op,
    /// Each suite, its ops summed.
    Suite,
}

/// One version as the history shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    /// The commit that made it.
    pub commit: String,
    /// Its date, `YYYY-MM-DD`.
    pub date: String,
    /// Seconds since the epoch.
    pub time: i64,
}

impl Point {
    /// The commit, short.
    pub fn short(&self) -> &str {
        &self.commit[..self.commit.len().min(7)]
    }
}

/// One line: an op of a suite (or a suite), and its counts at each
/// version (`None` where it was not in the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The suite.
    pub suite: String,
    /// The op (none when the line is the suite's).
    pub op: Option<String>,
    /// Its counts, one per version.
    pub values: Vec<Option<Counts>>,
}

impl Series {
    /// Its name in one line: `suite op`, or the suite.
    pub fn name(&self) -> String {
        match &self.op {
            Some(op) => format!("{} {op}", self.suite),
            None => self.suite.clone(),
        }
    }

    /// The counts of its last version that had it.
    pub fn last(&self) -> Option<Counts> {
        self.values.iter().rev().find_map(|value| *value)
    }
}

/// The history of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// The file, as given.
    pub file: String,
    /// Its versions that read, oldest first.
    pub points: Vec<Point>,
    /// Its lines, sorted by suite and op.
    pub series: Vec<Series>,
    /// The versions left out, each with why.
    pub skipped: Vec<String>,
}

/// The history of `versions` (oldest first), a line per op or suite.
pub fn history(file: &str, versions: Vec<Version>, by: By) -> History {
    let mut points = Vec::new();
    let mut skipped = Vec::new();
    let mut lines: BTreeMap<(String, Option<String>), Vec<Option<Counts>>> = BTreeMap::new();
    for version in versions {
        let progress = match version.progress {
            Ok(progress) => progress,
            Err(message) => {
                skipped.push(message);
                continue;
            }
        };
        let at = points.len();
        points.push(Point {
            commit: version.commit,
            date: version.date,
            time: version.time,
        });
        let mut put = |key: (String, Option<String>), counts: Counts| {
            let values = lines.entry(key).or_default();
            values.resize(at, None);
            values.push(Some(counts));
        };
        for (suite, ops) in &progress.suites {
            match by {
                By::Op => {
                    for (op, counts) in ops {
                        put((suite.clone(), Some(op.clone())), *counts);
                    }
                }
                By::Suite => put((suite.clone(), None), progress.suite_total(suite)),
            }
        }
    }
    let series = lines
        .into_iter()
        .map(|((suite, op), mut values)| {
            values.resize(points.len(), None);
            Series { suite, op, values }
        })
        .collect();
    History {
        file: file.to_owned(),
        points,
        series,
        skipped,
    }
}

/// The columns a table shows: the last `last` versions (0: every one).
fn shown(history: &History, last: usize) -> std::ops::Range<usize> {
    let count = history.points.len();
    let first = if last == 0 {
        0
    } else {
        count.saturating_sub(last)
    };
    first..count
}

fn passing(value: Option<Counts>) -> String {
    value.map_or_else(|| "-".to_owned(), |counts| counts.passing.to_string())
}

/// The change in passing cases between two versions, signed.
fn change(first: Option<Counts>, last: Option<Counts>) -> String {
    let from = first.map_or(0, |counts| counts.passing as i128);
    let to = last.map_or(0, |counts| counts.passing as i128);
    match to - from {
        0 => "0".to_owned(),
        delta if delta > 0 => format!("+{delta}"),
        delta => delta.to_string(),
    }
}

fn span_line(history: &History) -> String {
    let count = history.points.len();
    let plural = if count == 1 { "" } else { "s" };
    match (history.points.first(), history.points.last()) {
        (Some(first), Some(last)) => format!(
            "{count} version{plural}, {} ({}) to {} ({})",
            first.date,
            first.short(),
            last.date,
            last.short()
        ),
        _ => "no version in git".to_owned(),
    }
}

/// The history for people: the versions shown, then a row per line with
/// its passing cases at each, its change over them and its cases at the
/// last. Names are neutral, columns lined up.
pub fn human(history: &History, last: usize) -> String {
    let mut out = String::new();
    let file = outside::text(&history.file);
    let _ = writeln!(
        out,
        "{file}: {}: passing cases per version",
        span_line(history)
    );
    let range = shown(history, last);
    if range.start > 0 {
        let _ = writeln!(
            out,
            "(the last {} of {} versions; --last 0 shows every one)",
            range.len(),
            history.points.len()
        );
    }
    if history.points.is_empty() {
        return out;
    }
    out.push('\n');
    for (at, point) in history.points[range.clone()].iter().enumerate() {
        let _ = writeln!(out, "  v{}  {}  {}", at + 1, point.date, point.commit);
    }
    out.push('\n');
    let by_op = history.series.iter().any(|series| series.op.is_some());
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["suite".to_owned()];
    if by_op {
        head.push("op".to_owned());
    }
    head.extend((1..=range.len()).map(|at| format!("v{at}")));
    head.extend(["change".to_owned(), "cases".to_owned()]);
    rows.push(head);
    for series in &history.series {
        let mut row = vec![outside::text(&series.suite).into_owned()];
        if by_op {
            row.push(outside::text(series.op.as_deref().unwrap_or("")).into_owned());
        }
        let values = &series.values[range.clone()];
        row.extend(values.iter().map(|value| passing(*value)));
        row.push(change(values[0], values[values.len() - 1]));
        row.push(series.last().map_or(0, |counts| counts.cases).to_string());
        rows.push(row);
    }
    let names = if by_op { 2 } else { 1 };
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|column| {
            rows.iter()
                .map(|row| columns::width(&row[column]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (column, text) in row.iter().enumerate() {
            if column > 0 {
                line.push_str("  ");
            }
            let pad = widths[column] - columns::width(text);
            if column < names {
                line.push_str(text);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(text);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The history as a compact Markdown table, for a pull request or a
/// weekly summary: names in code spans, a column per version shown (its
/// date and commit), the change over them and the cases at the last.
pub fn markdown(history: &History, last: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "**Parity progress** ({}, {}): passing cases per version.",
        cell(&history.file),
        span_line(history)
    );
    let range = shown(history, last);
    if range.start > 0 {
        let _ = writeln!(
            out,
            "\nThe last {} of {} versions.",
            range.len(),
            history.points.len()
        );
    }
    if history.points.is_empty() {
        return out;
    }
    let by_op = history.series.iter().any(|series| series.op.is_some());
    out.push_str("\n| suite |");
    if by_op {
        out.push_str(" op |");
    }
    for point in &history.points[range.clone()] {
        let _ = write!(out, " {} `{}` |", point.date, point.short());
    }
    out.push_str(" change | cases |\n|---|");
    if by_op {
        out.push_str("---|");
    }
    out.push_str(&"--:|".repeat(range.len() + 2));
    out.push('\n');
    for series in &history.series {
        let _ = write!(out, "| {} |", cell(&series.suite));
        if let Some(op) = &series.op {
            let _ = write!(out, " {} |", cell(op));
        }
        let values = &series.values[range.clone()];
        for value in values {
            let _ = write!(out, " {} |", passing(*value));
        }
        let cases = series.last().map_or(0, |counts| counts.cases);
        let _ = writeln!(
            out,
            " {} | {cases} |",
            change(values[0], values[values.len() - 1])
        );
    }
    out
}
