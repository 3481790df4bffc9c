//! What `accept` prints in text: a line per change to the ledger and per
//! input error, then the ledger's closing line. Identities, ops, paths
//! and messages are outside text, written through [`outside`].

use std::convert::Infallible;
use std::io::{self, Write};

use super::edits::{unchanged, Change};
use super::errors::Errors;
use crate::base::outside;
use crate::exec::verdicts::LedgerUse;
use crate::ledger::rules::Match;
use crate::ledger::Entry;
use crate::report::render::{Render, Report};

/// What `accept` changed, for people: its report in text, known whole
/// at its end.
pub(super) struct Changes;

/// The end of [`Changes`].
pub(super) struct ChangesEnd<'a> {
    pub(super) changes: &'a [Change],
    pub(super) ledger: &'a LedgerUse,
    /// Divergences left out for want of a reason.
    pub(super) left: usize,
    pub(super) errors: &'a Errors,
    /// That a suite's `redact = false` showed its values, when it did.
    pub(super) unredacted: Option<String>,
}

impl Report for Changes {
    type Part<'a> = Infallible;
    type End<'a> = ChangesEnd<'a>;
}

/// A line per change and per error, then the ledger's closing line.
pub(super) struct ChangeLines;

impl Render<Changes> for ChangeLines {
    fn part(&mut self, _out: &mut dyn Write, part: Infallible) -> io::Result<()> {
        match part {}
    }

    fn finish(&mut self, out: &mut dyn Write, end: ChangesEnd<'_>) -> io::Result<()> {
        let ChangesEnd {
            changes,
            ledger,
            left,
            errors,
            unredacted,
        } = end;
        if let Some(notice) = unredacted {
            writeln!(out, "{notice}")?;
        }
        print_changes(out, changes, ledger, left, errors)
    }
}

fn print_changes(
    out: &mut dyn Write,
    changes: &[Change],
    ledger: &LedgerUse,
    left: usize,
    errors: &Errors,
) -> io::Result<()> {
    let (added, changed, removed) = print_change_lines(out, changes)?;
    if left > 0 {
        writeln!(
            out,
            "{left} new or changed divergences left out: give --reason TEXT to accept them"
        )?;
    }
    print_errors(out, errors)?;
    let cases = crate::report::human::cases;
    if changes.is_empty() {
        writeln!(
            out,
            "ledger {}: nothing to change ({}, {})",
            outside::text(&ledger.path.display().to_string()),
            match ledger.ledger.len() {
                1 => "1 entry".to_owned(),
                entries => format!("{entries} entries"),
            },
            cases(ledger.ledger.rules().len(), "rule")
        )
    } else {
        writeln!(
            out,
            "ledger {}: {added} added, {changed} changed, {removed} removed, {} unchanged",
            outside::text(&ledger.path.display().to_string()),
            unchanged(&ledger.ledger, changes)
        )
    }
}

/// A line per change; returns how many were added, changed and removed.
fn print_change_lines(
    out: &mut dyn Write,
    changes: &[Change],
) -> io::Result<(usize, usize, usize)> {
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    // Ids, ops, paths and messages are outside text.
    let describe = |entry: &Entry| {
        let op = crate::judge::signature::op_display(entry.op.as_deref());
        let verdict = entry.verdict.as_deref().unwrap_or("?");
        let text = match entry.paths.first() {
            Some(path) => format!("({op}, {verdict} at {})", crate::ledger::display_path(path)),
            None => format!("({op}, {verdict})"),
        };
        outside::text(&text).into_owned()
    };
    for change in changes {
        match change {
            Change::Added(entry) => {
                added += 1;
                writeln!(out, "added    {} {}", entry.id.neutral(), describe(entry))?;
            }
            Change::Changed(entry) => {
                changed += 1;
                writeln!(out, "changed  {} {}", entry.id.neutral(), describe(entry))?;
            }
            Change::Removed(id, why) => {
                removed += 1;
                writeln!(out, "removed  {} ({why})", id.neutral())?;
            }
            Change::AddedRule(rule, count) => {
                added += 1;
                // A framing rule accepts files, every other rule cases.
                let what = match rule.matches {
                    Match::Framing => "file",
                    _ => "case",
                };
                writeln!(
                    out,
                    "added    {} ({})",
                    outside::text(&rule.describe()),
                    crate::report::human::cases(*count, what)
                )?;
            }
            Change::RemovedRule(finding) => {
                removed += 1;
                writeln!(
                    out,
                    "removed  {} ({}: {})",
                    outside::text(&finding.rule.describe()),
                    finding.problem.name(),
                    finding.problem.why()
                )?;
            }
        }
    }
    Ok((added, changed, removed))
}

/// The files that could not be compared (the first few named, the rest
/// counted), and those whose cases were judged from separate runs.
fn print_errors(out: &mut dyn Write, errors: &Errors) -> io::Result<()> {
    let cases = crate::report::human::cases;
    for named in &errors.named_files {
        writeln!(out, "error    {named}")?;
    }
    if errors.files > errors.named_files.len() {
        writeln!(
            out,
            "… and {} more",
            errors.files - errors.named_files.len()
        )?;
    }
    if errors.files > 0 {
        writeln!(
            out,
            "error: {} could not be compared; their entries were left alone",
            cases(errors.files, "file")
        )?;
    }
    if errors.split > 0 {
        writeln!(
            out,
            "error: the oracle failed on some cases of {} only when they ran together; \
             their divergences were judged from separate runs",
            cases(errors.split, "file")
        )?;
    }
    Ok(())
}
