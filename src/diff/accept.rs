//! `parity-diff accept`: runs the corpus as `run` does and records every
//! new or changed divergence in the selection in the ledger, with the
//! reason given; `--prune` removes the entries of cases that pass now
//! (stale) and, on a full run, of cases that are gone (orphaned). It
//! prints what it added, changed and removed, and writes the ledger
//! atomically, keeping its permissions.
//!
//! It refuses to run without `--reason` (unless it only prunes), and in
//! CI (the `CI` variable set) unless forced: a pipeline must not accept
//! its own divergences.

use std::io::{self, Write};

use super::error::InputError;
use super::identity::CaseId;
use super::judge::LedgerUse;
use super::ledger::Entry;
use super::record::{id_json, CaseRecord, CaseState, EntryState};
use super::report::{Consumer, FileInfo, Format, Problem, RunInfo, Sink};
use super::run::{run_corpus, RunArgs};
use crate::js::{Object, Value};

/// The `accept` command's inputs.
#[derive(Debug, Clone)]
pub struct AcceptArgs {
    /// The run (its `ledger` is the ledger to write).
    pub run: RunArgs,
    /// Why the divergences are accepted.
    pub reason: Option<String>,
    /// Record them as known bugs rather than deliberate differences.
    pub triaged: bool,
    /// Where a triaged bug is tracked.
    pub link: Option<String>,
    /// Remove stale and orphaned entries.
    pub prune: bool,
    /// Write even in CI.
    pub force: bool,
}

/// A change to the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Added(Entry),
    Changed(Entry),
    Removed(CaseId, &'static str),
}

/// Watches a run's records on their way to the report.
struct Collector<W: Write> {
    sink: Sink<W>,
    entries: Vec<Entry>,
    stale: Vec<CaseId>,
    orphaned: Vec<CaseId>,
    errors: Errors,
    /// The current file: whether it has an input error, and how many
    /// cases it compared.
    file_error: bool,
    file_cases: usize,
}

/// How many of the cases the oracle failed on `accept` names.
const NAMED_ERRORS: usize = 20;

/// The input errors of a run, by what they cost the ledger.
#[derive(Debug, Default, Clone)]
struct Errors {
    /// Files not compared at all: their entries are left alone.
    files: usize,
    /// Cases the oracle failed on: their entries are left alone.
    cases: usize,
    /// The first [`NAMED_ERRORS`] of them, described.
    named: Vec<String>,
    /// Files compared although the oracle failed on some of their cases
    /// only together: their divergences come from separate runs.
    split: usize,
}

impl<W: Write> Consumer for Collector<W> {
    fn explains(&self) -> bool {
        true
    }

    fn fingerprints(&self) -> bool {
        true
    }

    fn wants_detail(&self, _record: &CaseRecord) -> bool {
        // Paths go into the ledger.
        true
    }

    fn wants_passing(&self) -> bool {
        self.sink.wants_passing()
    }

    fn counted(&mut self, op: Option<&str>, state: CaseState) -> io::Result<()> {
        self.file_cases += 1;
        self.sink.counted(op, state)
    }

    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.file_error = false;
        self.file_cases = 0;
        self.sink.begin_file(file)
    }

    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        self.file_cases += 1;
        match record.state {
            CaseState::New | CaseState::Changed => self.entries.push(Entry {
                id: record.id.clone(),
                op: record.op.clone(),
                state: EntryState::Accepted,
                reason: String::new(),
                verdict: Some(record.verdict.name().to_owned()),
                paths: record
                    .paths
                    .iter()
                    .map(|path| path.pointer.to_utf8_lossy().into_owned())
                    .collect(),
                fingerprint: record.fingerprint.clone().unwrap_or_default(),
                comments: Vec::new(),
            }),
            CaseState::Stale => self.stale.push(record.id.clone()),
            CaseState::Error => {
                self.errors.cases += 1;
                if self.errors.named.len() < NAMED_ERRORS {
                    let (verdict, summary) = (record.verdict.name(), &record.summary);
                    let text = format!("{} ({verdict}: {summary})", record.id);
                    self.errors.named.push(text);
                }
            }
            _ => {}
        }
        self.sink.case(record)
    }

    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        self.file_error |= matches!(problem, Problem::Error { .. });
        self.sink.problem(problem)
    }

    fn end_file(&mut self) -> io::Result<()> {
        if self.file_error {
            if self.file_cases == 0 {
                self.errors.files += 1;
            } else {
                self.errors.split += 1;
            }
        }
        self.sink.end_file()
    }

    fn orphaned_entry(&mut self, entry: &Entry) {
        self.orphaned.push(entry.id.clone());
        self.sink.orphaned_entry(entry);
    }
}

fn one_line(what: &str, text: &str) -> Result<(), InputError> {
    if text.contains(['\n', '\r']) {
        return Err(InputError::new(format!("{what} must be one line")));
    }
    if text.trim().is_empty() {
        return Err(InputError::new(format!("{what} must not be empty")));
    }
    Ok(())
}

/// Runs `accept`; `in_ci` is whether the `CI` variable is set. Returns the
/// exit status: 0 done, 2 when some files could not be compared (their
/// entries are left alone; the rest is written).
pub fn accept_command(
    args: &AcceptArgs,
    in_ci: bool,
    mut out: impl Write,
) -> Result<u8, InputError> {
    if in_ci && !args.force {
        return Err(InputError::new(
            "refusing to change the ledger in CI (the CI environment variable is set); \
             use --force to write anyway",
        ));
    }
    if args.reason.is_none() && !args.prune {
        return Err(InputError::new(
            "accept needs --reason TEXT, saying why these divergences are acceptable \
             (only --prune runs without one)",
        ));
    }
    if let Some(reason) = &args.reason {
        one_line("--reason", reason)?;
    }
    if let Some(link) = &args.link {
        one_line("--link", link)?;
        if !args.triaged {
            return Err(InputError::new("--link goes with --triaged"));
        }
    }
    let run = &args.run;
    let mut ledger = LedgerUse::open(run.ledger.as_deref(), &run.corpus.cases, true)?
        .ok_or_else(|| InputError::new("no ledger to write"))?;
    // The formats that show the run itself, with the ledger's changes in
    // it; the others print the changes alone.
    let json = matches!(
        run.report.format,
        Format::Json | Format::Markdown | Format::Html
    );
    let mut options = run.report;
    if !json {
        options.quiet = true;
        options.format = Format::Human;
    }
    let info = RunInfo {
        command: "accept",
        ledger: Some(ledger.info()),
        ..RunInfo::default()
    };
    if json {
        let collector = collect(args, &mut ledger, Sink::new(&mut out, options, info))?;
        let totals = collector.sink.totals();
        let (changes, left) = apply(
            args,
            &mut ledger,
            collector.entries,
            collector.stale,
            collector.orphaned,
        )?;
        let extra = changes_json(&changes, &ledger, left);
        collector.sink.finish_with(Some(("ledgerChanges", extra)))?;
        Ok(if totals.errors > 0 { 2 } else { 0 })
    } else {
        let collector = collect(args, &mut ledger, Sink::new(io::sink(), options, info))?;
        let totals = collector.sink.totals();
        let errors = collector.errors.clone();
        let (changes, left) = apply(
            args,
            &mut ledger,
            collector.entries,
            collector.stale,
            collector.orphaned,
        )?;
        print_changes(&mut out, &changes, &ledger, left, &errors)?;
        Ok(if totals.errors > 0 { 2 } else { 0 })
    }
}

/// Runs the corpus, watching the records.
fn collect<W: Write>(
    args: &AcceptArgs,
    ledger: &mut LedgerUse,
    sink: Sink<W>,
) -> Result<Collector<W>, InputError> {
    let mut collector = Collector {
        sink,
        entries: Vec::new(),
        stale: Vec::new(),
        orphaned: Vec::new(),
        errors: Errors::default(),
        file_error: false,
        file_cases: 0,
    };
    run_corpus(&args.run, Some(ledger), &mut collector)?;
    Ok(collector)
}

/// Makes and writes the changes; returns them, and how many divergences
/// were left out for want of a reason.
fn apply(
    args: &AcceptArgs,
    ledger: &mut LedgerUse,
    entries: Vec<Entry>,
    stale: Vec<CaseId>,
    orphaned: Vec<CaseId>,
) -> Result<(Vec<Change>, usize), InputError> {
    let state = if args.triaged {
        EntryState::Triaged {
            link: args.link.clone(),
        }
    } else {
        EntryState::Accepted
    };
    let mut changes = Vec::new();
    let mut left = 0;
    for mut entry in entries {
        let Some(reason) = &args.reason else {
            left += 1;
            continue;
        };
        entry.state = state.clone();
        entry.reason = reason.clone();
        match ledger.ledger.get(&entry.id) {
            Some(old) => {
                entry.comments = old.comments.clone();
                changes.push(Change::Changed(entry));
            }
            None => changes.push(Change::Added(entry)),
        }
    }
    if args.prune {
        for id in stale {
            changes.push(Change::Removed(id, "stale: the case passes now"));
        }
        for id in orphaned {
            changes.push(Change::Removed(id, "orphaned: no such case"));
        }
    }
    for change in &changes {
        match change {
            Change::Added(entry) | Change::Changed(entry) => {
                ledger.ledger.insert(entry.clone());
            }
            Change::Removed(id, _) => {
                ledger.ledger.remove(id);
            }
        }
    }
    if !changes.is_empty() {
        ledger.ledger.save(&ledger.path)?;
    }
    Ok((changes, left))
}

/// The `ledgerChanges` member of a JSON report.
fn changes_json(changes: &[Change], ledger: &LedgerUse, left: usize) -> Value {
    let ids = |pick: fn(&Change) -> Option<Value>| -> Vec<Value> {
        changes.iter().filter_map(pick).collect()
    };
    Value::Object(
        Object::new()
            .with("path", ledger.path.display().to_string())
            .with("written", !changes.is_empty())
            .with(
                "added",
                ids(|c| match c {
                    Change::Added(entry) => Some(id_json(&entry.id)),
                    _ => None,
                }),
            )
            .with(
                "changed",
                ids(|c| match c {
                    Change::Changed(entry) => Some(id_json(&entry.id)),
                    _ => None,
                }),
            )
            .with(
                "removed",
                ids(|c| match c {
                    Change::Removed(id, _) => Some(id_json(id)),
                    _ => None,
                }),
            )
            .with("notAccepted", left as f64),
    )
}

fn print_changes(
    out: &mut impl Write,
    changes: &[Change],
    ledger: &LedgerUse,
    left: usize,
    errors: &Errors,
) -> io::Result<()> {
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    let describe = |entry: &Entry| {
        let op = super::record::signature::op_display(entry.op.as_deref());
        let verdict = entry.verdict.as_deref().unwrap_or("?");
        match entry.paths.first() {
            Some(path) => format!("({op}, {verdict} at {})", super::ledger::display_path(path)),
            None => format!("({op}, {verdict})"),
        }
    };
    for change in changes {
        match change {
            Change::Added(entry) => {
                added += 1;
                writeln!(out, "added    {} {}", entry.id, describe(entry))?;
            }
            Change::Changed(entry) => {
                changed += 1;
                writeln!(out, "changed  {} {}", entry.id, describe(entry))?;
            }
            Change::Removed(id, why) => {
                removed += 1;
                writeln!(out, "removed  {id} ({why})")?;
            }
        }
    }
    if left > 0 {
        writeln!(
            out,
            "{left} new or changed divergences left out: give --reason TEXT to accept them"
        )?;
    }
    let cases = super::report::human::cases;
    if errors.files > 0 {
        writeln!(
            out,
            "error: {} could not be compared; their entries were left alone",
            cases(errors.files, "file")
        )?;
    }
    for named in &errors.named {
        writeln!(out, "error    {named}")?;
    }
    if errors.cases > errors.named.len() {
        writeln!(out, "… and {} more", errors.cases - errors.named.len())?;
    }
    if errors.cases > 0 {
        writeln!(
            out,
            "error: the oracle failed on {} (crash, invalid output or timeout); \
             their entries were left alone",
            cases(errors.cases, "case")
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
    let kept = ledger.ledger.len() - added;
    if changes.is_empty() {
        writeln!(
            out,
            "ledger {}: nothing to change ({} entries)",
            ledger.path.display(),
            ledger.ledger.len()
        )
    } else {
        writeln!(
            out,
            "ledger {}: {added} added, {changed} changed, {removed} removed, {} unchanged",
            ledger.path.display(),
            kept - changed
        )
    }
}
