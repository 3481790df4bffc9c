//! What a review screen shows, as rows of styled text for a terminal of
//! a given size (80×24 and up; smaller ones are cut): a head (where the
//! reviewer is, the group's signature and count), a body (one case: its
//! input, where it differs, golden and actual side by side or unified;
//! or a framing, orphan or rule item; or the help), the message line and
//! the keys, or the line being typed. Everything from outside (names,
//! case text, elements, messages, reasons) is written through
//! [`outside`], as every report writes it.

use crate::base::columns;
use crate::base::outside;
use crate::judge::pointer;
use crate::judge::textdiff::{self, LineKind};
use crate::report::detail;
use crate::report::record::{CaseRecord, VerdictKind};

use super::queue::Item;
use super::session::{Session, Tone};
use super::window::window;

/// How a span is painted (plain text when colour is off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Ordinary text.
    Plain,
    /// The head and headings.
    Title,
    /// Remarks, rules and separators.
    Dim,
    /// The golden's side of a difference.
    Golden,
    /// The result's side.
    Actual,
    /// A hunk's header.
    Hunk,
    /// A key's letter.
    Key,
    /// What could not be done.
    Warn,
}

/// One row: spans of text, together at most the screen's width.
pub type Row = Vec<(Style, String)>;

/// A row of one span.
fn row(style: Style, text: impl AsRef<str>, width: usize) -> Row {
    vec![(style, columns::fit(text.as_ref(), width))]
}

/// The screen: exactly `height` rows (the body scrolled as the session
/// says, its scroll kept within the body).
pub fn draw(session: &mut Session, width: usize, height: usize) -> Vec<Row> {
    let width = width.max(20);
    let mut rows = head(session, width);
    let body = match (session.help, session.queue.current()) {
        (true, _) => help(width),
        (false, None) => done(session, width),
        (false, Some(_)) => body(session, width),
    };
    let room = height.saturating_sub(rows.len() + 2).max(1);
    let last = body.len().saturating_sub(room);
    session.scroll = session.scroll.min(last);
    let shown = body.iter().skip(session.scroll).take(room);
    rows.extend(shown.cloned());
    let below = body.len().saturating_sub(session.scroll + room);
    if below > 0 {
        rows.pop();
        let more = format!("… {below} more lines: ↓ and Page Down scroll");
        rows.push(row(Style::Dim, more, width));
    }
    rows.resize(height.saturating_sub(2).max(rows.len()), Vec::new());
    rows.push(message(session, width));
    rows.push(keys(session, width));
    rows.truncate(height);
    rows
}

/// Where the reviewer is, and what the item is.
fn head(session: &Session, width: usize) -> Vec<Row> {
    let ledger = outside::text(&session.ledger.display().to_string()).into_owned();
    let Some((at, item)) = session.queue.current() else {
        let title = format!("parity-diff review · done · ledger {ledger}");
        return vec![row(Style::Title, title, width), Vec::new(), rule(width)];
    };
    let of = session.queue.len();
    let count = item.count();
    let what = match item {
        Item::Divergences { .. } | Item::Stale { .. } => plural(count, "case", "cases"),
        Item::Framing { .. } => plural(count, "file", "files"),
        Item::Orphaned { .. } => plural(count, "entry", "entries"),
        Item::Rule(_) => "1 rule".to_owned(),
    };
    let title = format!(
        "parity-diff review · {} of {of} · {} · {what} · ledger {ledger}",
        at + 1,
        item.kind()
    );
    let subject = match item {
        Item::Divergences { signature, .. } | Item::Stale { signature, .. } => {
            outside::text(&signature.text).into_owned()
        }
        Item::Framing { .. } => "stdout is not framed as JSON.stringify frames an array".into(),
        Item::Orphaned { file, .. } => {
            format!("entries of cases no longer in {}", outside::text(file))
        }
        Item::Rule(finding) => outside::text(&finding.rule.describe()).into_owned(),
    };
    vec![
        row(Style::Title, title, width),
        row(Style::Plain, subject, width),
        rule(width),
    ]
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn rule(width: usize) -> Row {
    vec![(Style::Dim, "─".repeat(width))]
}

/// The current item's body.
fn body(session: &mut Session, width: usize) -> Vec<Row> {
    let Some((_, item)) = session.queue.current() else {
        return Vec::new();
    };
    match item {
        Item::Framing { files, .. } => {
            let mut rows = vec![row(
                Style::Plain,
                "These files' results are framed otherwise (a accepts, t triages: a framing rule):",
                width,
            )];
            for (file, found) in files {
                let text = format!("{}: {}", outside::text(file), outside::text(found));
                rows.push(row(Style::Plain, text, width));
            }
            rows
        }
        Item::Orphaned { entries, .. } => {
            let mut rows = vec![row(
                Style::Plain,
                "No case has these identities any more (p prunes them):",
                width,
            )];
            for entry in entries {
                let said = detail::entry_ref_text(&entry.entry_ref());
                let text = format!("{}: {}", entry.id.neutral(), outside::text(&said));
                rows.push(row(Style::Plain, text, width));
            }
            rows
        }
        Item::Rule(finding) => {
            let said = detail::entry_ref_text(&finding.rule.entry_ref());
            vec![
                row(
                    Style::Plain,
                    format!("This rule {} (p prunes it).", finding.problem.why()),
                    width,
                ),
                row(Style::Plain, outside::text(&said), width),
            ]
        }
        Item::Divergences { .. } | Item::Stale { .. } => {
            let count = item.cases().len();
            let index = session.queue.case_index();
            let Some(case) = session.queue.current_case().cloned() else {
                return Vec::new();
            };
            match session.queue.records.get(&case) {
                Ok(record) => case_body(&record, (index, count), session.unified, width),
                Err(error) => vec![row(
                    Style::Warn,
                    format!(
                        "cannot read this case back: {}",
                        outside::text(&error.to_string())
                    ),
                    width,
                )],
            }
        }
    }
}

/// One case: where it is, what it is, its input, where it differs, and
/// golden and actual.
fn case_body(
    record: &CaseRecord,
    (index, count): (usize, usize),
    unified: bool,
    width: usize,
) -> Vec<Row> {
    let place = format!(
        "case {} of {count} · {} {}",
        index + 1,
        outside::text(&record.location()),
        outside::text(&record.label)
    );
    let mut rows = vec![row(Style::Title, place, width)];
    rows.push(row(Style::Plain, outside::text(&record.summary), width));
    if let Some(input) = &record.input {
        let text = format!("input: {}", outside::json_line(input));
        rows.push(row(Style::Plain, text, width));
    }
    if let Some(entry) = detail::entry_text(record) {
        let text = format!("ledger: {}", outside::text(&entry));
        rows.push(row(Style::Dim, text, width));
    }
    where_it_differs(record, width, &mut rows);
    rows.push(Vec::new());
    let (golden, actual) = (record.golden.as_deref(), record.actual.as_deref());
    let same = golden.is_some() && golden == actual;
    // Bounded work at every key, whatever the report holds.
    let golden = golden.map(|text| window("golden", text));
    let actual = if same {
        None
    } else {
        actual.map(|text| window("actual", text))
    };
    for side in golden.iter().chain(actual.iter()) {
        if let Some(left_out) = &side.left_out {
            rows.push(row(Style::Dim, outside::text(left_out), width));
        }
    }
    let (golden, actual) = (
        golden.as_ref().map(|side| side.text.as_str()),
        actual.as_ref().map(|side| side.text.as_str()),
    );
    match (golden, actual) {
        (Some(golden), _) if same => {
            rows.push(row(Style::Dim, "golden and actual, the same bytes:", width));
            element(golden, Style::Plain, width, &mut rows);
        }
        (Some(golden), Some(actual)) if unified => {
            for line in textdiff::unified(golden, actual) {
                let style = match line.kind {
                    LineKind::Removed | LineKind::Golden => Style::Golden,
                    LineKind::Added | LineKind::Actual => Style::Actual,
                    LineKind::Hunk => Style::Hunk,
                    LineKind::FileHeader | LineKind::Note => Style::Dim,
                    LineKind::Text | LineKind::Context => Style::Plain,
                };
                rows.push(row(style, outside::json(&line.text), width));
            }
        }
        _ => side_by_side(golden, actual, record.verdict, width, &mut rows),
    }
    rows
}

/// The element's lines, pretty-printed already.
fn element(text: &str, style: Style, width: usize, rows: &mut Vec<Row>) {
    for line in text.lines() {
        rows.push(row(style, outside::json(line), width));
    }
}

/// Where the case differs: the first paths with both values (and where
/// two long strings part, with a window of each), the reasons of a same
/// value, an oracle failure's stderr.
fn where_it_differs(record: &CaseRecord, width: usize, rows: &mut Vec<Row>) {
    const PATHS: usize = 3;
    for path in record.paths.iter().take(PATHS) {
        let text = format!(
            "at {}  golden: {}  actual: {}",
            outside::text(&pointer::display(&path.pointer)),
            outside::json(&detail::show_json(path.golden_json())),
            outside::json(&detail::show_json(path.actual_json()))
        );
        rows.push(row(Style::Plain, text, width));
        if let Some(first) = detail::cut_first_difference(path) {
            let note = format!("  {}", detail::first_difference_text(&first));
            rows.push(row(Style::Dim, note, width));
            let golden = format!("    golden: {}", outside::json(&first.golden.display()));
            rows.push(row(Style::Golden, golden, width));
            let actual = format!("    actual: {}", outside::json(&first.actual.display()));
            rows.push(row(Style::Actual, actual, width));
        }
    }
    let more = record
        .total_paths
        .saturating_sub(record.paths.len().min(PATHS));
    if record.verdict == VerdictKind::Different && more > 0 {
        let text = format!(
            "… and {}",
            plural(more, "more differing path", "more differing paths")
        );
        rows.push(row(Style::Dim, text, width));
    }
    for reason in &record.reasons {
        rows.push(row(Style::Plain, outside::text(&reason.text), width));
    }
    if let Some(stderr) = record.stderr.as_deref().map(str::trim_end) {
        rows.push(row(
            Style::Plain,
            "stderr (the oracle on this case alone):",
            width,
        ));
        for line in outside::lines(stderr) {
            rows.push(row(Style::Dim, format!("| {line}"), width));
        }
    }
}

/// Golden and actual in two columns, the rows that differ painted; a
/// side the case has not (missing, extra, an oracle failure) is
/// `(none)`.
fn side_by_side(
    golden: Option<&str>,
    actual: Option<&str>,
    verdict: VerdictKind,
    width: usize,
    rows: &mut Vec<Row>,
) {
    let column = (width - 3) / 2;
    let pair = |left: (Style, String), right: (Style, String)| -> Row {
        let left_text = columns::fit(&left.1, column);
        vec![
            (left.0, columns::pad(&left_text, column)),
            (Style::Dim, " │ ".to_owned()),
            (right.0, columns::fit(&right.1, column)),
        ]
    };
    rows.push(pair(
        (Style::Title, "golden".into()),
        (Style::Title, "actual".into()),
    ));
    let none = |side: Option<&str>| match side {
        Some(_) => String::new(),
        None => format!("(none: {})", verdict.name()),
    };
    let pairs = textdiff::paired(golden.unwrap_or_default(), actual.unwrap_or_default());
    if golden.is_none() || actual.is_none() {
        rows.push(pair((Style::Dim, none(golden)), (Style::Dim, none(actual))));
    }
    for paired in pairs {
        let (left, right) = match paired.changed {
            true => (Style::Golden, Style::Actual),
            false => (Style::Plain, Style::Plain),
        };
        let text = |line: Option<String>| outside::json(&line.unwrap_or_default()).into_owned();
        rows.push(pair(
            (left, text(paired.golden)),
            (right, text(paired.actual)),
        ));
    }
}

/// What each key does.
fn help(width: usize) -> Vec<Row> {
    let keys = [
        (
            "a",
            "accept the group: asks a reason (the last one is offered)",
        ),
        ("t", "triage it as a known bug: asks a reason, then a link"),
        (
            "r",
            "accept it with one rule of its op and form (accept --rule)",
        ),
        ("s", "skip it: nothing is written"),
        ("p", "prune a stale entry, orphaned entries or a stale rule"),
        ("n N", "the next and the previous case of the group"),
        ("v", "golden and actual side by side, or unified"),
        ("↑ ↓", "scroll (Page Up, Page Down: by ten lines)"),
        ("?", "this help (any other key closes it; q quits)"),
        (
            "q",
            "quit (Ctrl-C too); what was decided is written already",
        ),
    ];
    let mut rows = vec![row(Style::Title, "Keys", width)];
    for (key, what) in keys {
        rows.push(vec![
            (Style::Key, format!("{key:>5}  ")),
            (Style::Plain, columns::fit(what, width.saturating_sub(7))),
        ]);
    }
    rows.push(Vec::new());
    rows.push(row(
        Style::Dim,
        "While typing: Enter records, Esc drops the decision, Ctrl-U clears the line.",
        width,
    ));
    rows
}

/// The end: what was decided.
fn done(session: &Session, width: usize) -> Vec<Row> {
    vec![
        row(Style::Plain, "Every item has been seen.", width),
        row(Style::Plain, session.queue.tally().line(), width),
        Vec::new(),
        row(
            Style::Dim,
            "q quits; every decision is in the ledger already.",
            width,
        ),
    ]
}

/// The message line: a hint, what was done, or why not.
fn message(session: &Session, width: usize) -> Row {
    match &session.message {
        Some((Tone::Said, text)) => row(Style::Dim, outside::text(text), width),
        Some((Tone::Refused, text)) => row(Style::Warn, outside::text(text), width),
        None => Vec::new(),
    }
}

/// The keys, or the line being typed (its end in sight, the cursor
/// shown as `▏`).
fn keys(session: &Session, width: usize) -> Row {
    if let Some(prompt) = &session.prompt {
        let label = format!("{}: ", prompt.label());
        let room = width.saturating_sub(columns::width(&label) + 1);
        let before: String = prompt.text[..prompt.cursor].iter().collect();
        let after: String = prompt.text[prompt.cursor..].iter().collect();
        let before = outside::text(&before);
        let before = columns::last(&before, room).to_owned();
        let after = columns::fit(
            &outside::text(&after),
            room.saturating_sub(columns::width(&before)),
        );
        return vec![
            (Style::Key, label),
            (Style::Plain, before),
            (Style::Key, "▏".into()),
            (Style::Plain, after),
        ];
    }
    let pairs: &[(&str, &str)] = match session.queue.current() {
        None => &[("q", "quit")],
        Some((_, item)) if item.is_prunable() => &[
            ("p", "prune"),
            ("s", "skip"),
            ("n/N", "case"),
            ("v", "view"),
            ("?", "help"),
            ("q", "quit"),
        ],
        Some(_) => &[
            ("a", "accept"),
            ("t", "triage"),
            ("r", "rule"),
            ("s", "skip"),
            ("n/N", "case"),
            ("v", "view"),
            ("?", "help"),
            ("q", "quit"),
        ],
    };
    let mut spans = Vec::new();
    let mut used = 0;
    for (key, what) in pairs {
        let len = columns::width(key) + columns::width(what) + 3;
        if used + len > width {
            break;
        }
        used += len;
        spans.push((Style::Key, (*key).to_owned()));
        spans.push((Style::Plain, format!(" {what}  ")));
    }
    spans
}

#[cfg(test)]
#[path = "screen_tests.rs"]
mod tests;
