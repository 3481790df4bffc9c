//! Reports for people and for machines.
//!
//! A comparison hands a [`Sink`] one [`CaseRecord`] per case, file by
//! file. The sink keeps the aggregates (the tally, counts per file and per
//! op, failures grouped by signature, orphaned ledger entries) and hands
//! each event to the chosen format: [`human`] (grouped failures, a per-op
//! table, coloured on a terminal), [`json`] (the JSON report: its types,
//! its writer and its reader), [`junit`] or [`markdown`]; [`github`] adds annotations and
//! a job summary beside any of them. Whatever must wait is spooled
//! ([`spool`]), never held whole. Every format writes outside text (from
//! case files, file names, ledgers, ports) through
//! [`outside`](crate::base::outside). The tally decides the exit status: 0 all passed or
//! accepted, 1 any failure, 2 any usage or input error.

mod consumer;
pub mod detail;
pub mod fanout;
pub mod formats;
pub mod github;
pub mod groups;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod kept;
mod known_ops;
pub mod markdown;
mod narrow;
mod op_key;
pub mod record;
pub mod records;
pub mod render;
pub mod spool;

#[cfg(test)]
mod outside_tests;

use std::collections::BTreeMap;
use std::io::{self, Write};

use super::ledger::rules::RuleFinding;
use super::ledger::Entry;
pub use consumer::Consumer;
pub use fanout::{ExtraReport, Reports};
pub use formats::Format;
use groups::Groups;
pub use json::{CorpusInfo, LedgerChanges, LedgerInfo, RunInfo, ShardInfo};
pub use known_ops::KnownOps;
pub use op_key::{is_row_marker, key_of, op_key, NO_OP, UNKNOWN_OP};
use record::{CaseRecord, CaseState, EntryRef};
pub use records::{Needs, RecordEnd, RecordFormat, RecordHandlers, RecordPart, Records};
pub use render::Render;

/// How many failure groups the human report prints by default.
pub const DEFAULT_MAX_FAILURES: usize = 20;

/// How a report is made.
#[derive(Debug, Clone, Copy)]
pub struct ReportOptions {
    /// The format.
    pub format: Format,
    /// Human format: print the closing summary line alone.
    pub quiet: bool,
    /// Human format: colour with ANSI escapes.
    pub color: bool,
    /// Count *same value, different bytes* as a pass.
    pub semantic: bool,
    /// What makes two numbers the same value.
    pub numbers: crate::judge::numbers::Numbers,
    /// Human and Markdown formats: how many failure groups to print.
    pub max_failures: usize,
    /// Print GitHub Actions annotations on standard error.
    pub annotate: bool,
    /// Append the Markdown summary to the file `GITHUB_STEP_SUMMARY`
    /// names, when it names one.
    pub step_summary: bool,
    /// The suite's `redact = false`: secrets are shown as written
    /// ([`redact::show_secrets`](crate::base::redact::show_secrets)).
    pub show_secrets: bool,
}

impl ReportOptions {
    /// What makes two elements the same value, for judging.
    pub fn judging<'e>(
        &self,
        errors: &'e crate::judge::signature::ErrorProtocol,
    ) -> crate::judge::compare::Judging<'e> {
        crate::judge::compare::Judging {
            semantic: self.semantic,
            numbers: self.numbers,
            errors,
        }
    }
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            format: Format::Human,
            quiet: false,
            color: false,
            semantic: false,
            numbers: crate::judge::numbers::Numbers::Double,
            max_failures: DEFAULT_MAX_FAILURES,
            annotate: false,
            step_summary: false,
            show_secrets: false,
        }
    }
}

/// Something wrong with a whole file of a corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A case file has no golden (a failure).
    MissingGolden {
        /// Where the golden was looked for, as text: bytes that are not
        /// UTF-8 escaped as file names are ([`path_text`](crate::corpus::identity::path_text)),
        /// so two such goldens never read alike.
        golden: String,
    },
    /// A golden has no case file (a failure).
    OrphanGolden {
        /// The golden, as text (see `MissingGolden`).
        golden: String,
    },
    /// The file could not be compared at all (an input error).
    Error {
        /// What went wrong.
        message: String,
        /// The oracle's standard error (masked), when an oracle failed.
        stderr: Option<String>,
        /// How many golden cases went uncompared.
        skipped: usize,
        /// Whether the port failed (the oracle failed on the file with
        /// no case to blame): a failure, exit status 1, where anything
        /// else is an input error, exit status 2.
        port: bool,
    },
    /// The oracle's stdout is not framed as `JSON.stringify` frames an
    /// array (`framing = "exact"`): one divergence of the file, beside
    /// its cases' verdicts, which a `match: framing` rule can accept.
    Framing {
        /// Where the bytes around the elements differ, and what they
        /// were.
        found: String,
        /// Failed (no ledger), new, or accepted by a rule.
        state: CaseState,
        /// What the rule that accepts it says.
        entry: Option<EntryRef>,
        /// That rule's index among the ledger's rules (a run's own: not
        /// in reports).
        rule: Option<usize>,
    },
}

impl Problem {
    /// The problem with its stderr cut at `chars` characters: a report
    /// that keeps problems until it ends must not hold a thousand full
    /// stderrs.
    pub fn with_stderr_cut(&self, chars: usize) -> Problem {
        match self {
            Problem::Error {
                message,
                stderr,
                skipped,
                port,
            } => Problem::Error {
                message: message.clone(),
                stderr: stderr
                    .as_deref()
                    .map(|text| crate::judge::signature::cut_chars(text, chars)),
                skipped: *skipped,
                port: *port,
            },
            other => other.clone(),
        }
    }
}

/// A file of a report: its name (the identity file; `None` for a lone
/// comparison without a case file) and its case file's path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileInfo {
    /// The name relative to the cases directory.
    pub name: Option<String>,
    /// The case file's path, as given.
    pub path: Option<String>,
    /// The suite of `parity.toml` it belongs to, when a run names one.
    pub suite: Option<String>,
}

/// Passed, accepted and failed counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that diverge as their ledger entry says.
    pub accepted: usize,
    /// Cases that fail the run.
    pub failed: usize,
}

impl Tally {
    /// Every case counted.
    pub fn cases(&self) -> usize {
        self.passed + self.accepted + self.failed
    }

    fn count(&mut self, state: CaseState, cases: usize) {
        match state {
            CaseState::Passed => self.passed += cases,
            CaseState::Accepted => self.accepted += cases,
            _ => self.failed += cases,
        }
    }
}

/// Whether every failing case of an op was the port throwing one message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Uniform {
    /// No case yet.
    #[default]
    Unknown,
    /// Every case so far failed with the port throwing this message.
    Threw(String),
    /// Not so.
    Mixed,
}

/// One op's counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpTally {
    /// Its counts.
    pub tally: Tally,
    /// Whether it failed every case with one thrown message.
    pub uniform: Uniform,
}

impl OpTally {
    /// The message, when every case of the op failed with the port
    /// throwing it.
    pub fn all_threw(&self) -> Option<&str> {
        match &self.uniform {
            Uniform::Threw(message) if self.tally.failed == self.tally.cases() => Some(message),
            _ => None,
        }
    }
}

/// The counts of a report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that fail the run, plus missing and orphaned goldens.
    pub failed: usize,
    /// Cases that diverge exactly as their ledger entry says.
    pub accepted: usize,
    /// Of the accepted, those whose entry is triaged.
    pub triaged: usize,
    /// Divergences without a ledger entry.
    pub new: usize,
    /// Cases that diverge otherwise than their entry says.
    pub changed: usize,
    /// Cases with an entry that pass.
    pub stale: usize,
    /// Ledger entries without a case (full runs only).
    pub orphaned: usize,
    /// Ledger rules that are stale or orphaned (full runs only).
    pub rules: usize,
    /// Golden cases not compared because their file had an error.
    pub skipped: usize,
    /// Files that could not be compared for want of a readable input (not
    /// the port's failures: those fail).
    pub errors: usize,
}

impl Totals {
    /// `N passed, N failed`, then `, N accepted` and `, N skipped` when
    /// not zero.
    pub fn summary_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.accepted > 0 {
            line.push_str(&format!(", {} accepted", self.accepted));
        }
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }

    /// 2 when any input error, else 1 when anything failed (orphaned
    /// ledger entries, stale and orphaned rules included), else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 || self.orphaned > 0 || self.rules > 0 {
            1
        } else {
            0
        }
    }

    fn count(&mut self, record: &CaseRecord) {
        match record.state {
            CaseState::Passed => self.passed += 1,
            CaseState::Accepted => {
                self.accepted += 1;
                if record.is_triaged() {
                    self.triaged += 1;
                }
            }
            state => {
                self.failed += 1;
                match state {
                    CaseState::New => self.new += 1,
                    CaseState::Changed => self.changed += 1,
                    CaseState::Stale => self.stale += 1,
                    CaseState::Error => self.errors += 1,
                    _ => {}
                }
            }
        }
    }
}

/// Everything a report keeps besides the records themselves.
#[derive(Debug, Default)]
pub struct Aggregates {
    /// What ran.
    pub run: RunInfo,
    /// The tally.
    pub totals: Totals,
    /// Counts per op (`(no op)` for cases without a string op).
    pub by_op: BTreeMap<String, OpTally>,
    /// Counts per file, in report order.
    pub by_file: Vec<(String, Tally)>,
    /// Counts per suite, in report order (files without a suite left
    /// out).
    pub by_suite: Vec<(String, Tally)>,
    /// Failures grouped by signature.
    pub groups: Groups,
    /// Ledger entries whose case is gone.
    pub orphaned: Vec<Entry>,
    /// Ledger rules that are stale or orphaned.
    pub rules: Vec<RuleFinding>,
    /// In a shard's report (a whole run's selection but for `--shard`,
    /// with a ledger): the rules this shard's cases did not decide,
    /// each stale or orphaned within the shard. `merge` finds the whole
    /// run's stale and orphaned rules from every shard's.
    pub shard_rules: Option<Vec<RuleFinding>>,
}

impl Aggregates {
    /// Adds a file's counts to its suite's.
    fn count_suite(&mut self, suite: &str, file: Tally) {
        let index = match self.by_suite.iter().position(|(name, _)| name == suite) {
            Some(index) => index,
            None => {
                self.by_suite.push((suite.to_owned(), Tally::default()));
                self.by_suite.len() - 1
            }
        };
        let tally = &mut self.by_suite[index].1;
        tally.passed += file.passed;
        tally.accepted += file.accepted;
        tally.failed += file.failed;
    }
}

/// Keeps the aggregates and drives a format.
pub struct Sink<W: Write> {
    out: W,
    options: ReportOptions,
    render: Box<dyn Render<Records>>,
    needs: Needs,
    aggregates: Aggregates,
    file: FileInfo,
    tally: Tally,
}

impl<W: Write> Sink<W> {
    /// A sink writing to `out`.
    pub fn new(out: W, options: ReportOptions, run: RunInfo) -> Self {
        let format = match options.format {
            Format::Human => human::Human::format(options),
            Format::Json => json::Json::format(run.clone()),
            Format::Junit => junit::Junit::format(),
            Format::Markdown => markdown::Markdown::format(options),
            Format::Html => html::Html::format(),
        };
        let RecordFormat { render, needs } = github::wrap(format, options);
        let groups = Groups::new(needs.groups);
        Sink {
            out,
            options,
            render,
            needs,
            aggregates: Aggregates {
                run,
                groups,
                ..Aggregates::default()
            },
            file: FileInfo::default(),
            tally: Tally::default(),
        }
    }

    /// Where the report goes.
    pub fn out_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The report's options.
    pub fn options(&self) -> &ReportOptions {
        &self.options
    }

    /// The tally so far.
    pub fn totals(&self) -> Totals {
        self.aggregates.totals
    }

    /// Whether a failing record should carry its details: the format
    /// shows every failure, or its group still has room.
    pub fn wants_detail(&self, record: &CaseRecord) -> bool {
        self.needs.detail
            || record
                .signature
                .as_ref()
                .is_some_and(|signature| self.aggregates.groups.has_room(signature))
    }

    /// A file of cases starts.
    pub fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.file = file;
        self.tally = Tally::default();
        let part = RecordPart::BeginFile(&self.file);
        self.render.part(&mut self.out, part)
    }

    /// One case's record.
    pub fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        self.aggregates.totals.count(&record);
        self.tally.count(record.state, 1);
        self.count_op(op_key(&record), (record.state, 1), record.thrown.as_deref());
        if !record.passes() {
            self.aggregates.groups.add(&record)?;
        }
        self.render.part(&mut self.out, RecordPart::Case(&record))
    }

    /// Counts `cases` cases of `op` in one state (and whether the op
    /// still failed every case with one thrown message: as many cases
    /// alike say what one says).
    fn count_op(&mut self, key: &str, (state, cases): (CaseState, usize), thrown: Option<&str>) {
        let by_op = &mut self.aggregates.by_op;
        if !by_op.contains_key(key) {
            by_op.insert(key.to_owned(), OpTally::default());
        }
        let Some(op) = by_op.get_mut(key) else {
            return;
        };
        op.tally.count(state, cases);
        let failed = !state.passes();
        let same = match (&op.uniform, thrown) {
            (Uniform::Threw(seen), Some(message)) => failed && seen == message,
            _ => false,
        };
        if !same {
            op.uniform = match (&op.uniform, thrown) {
                (Uniform::Unknown, Some(message)) if failed => Uniform::Threw(message.to_owned()),
                _ => Uniform::Mixed,
            };
        }
    }

    /// A file-level problem.
    pub fn problem(&mut self, problem: Problem) -> io::Result<()> {
        let totals = &mut self.aggregates.totals;
        match &problem {
            Problem::MissingGolden { .. } | Problem::OrphanGolden { .. } => totals.failed += 1,
            Problem::Error {
                skipped,
                port: true,
                ..
            } => {
                totals.failed += 1;
                totals.skipped += skipped;
            }
            Problem::Error { skipped, .. } => {
                totals.errors += 1;
                totals.skipped += skipped;
            }
            Problem::Framing { state, .. } if !state.passes() => totals.failed += 1,
            Problem::Framing { .. } => {}
        }
        let part = RecordPart::Problem(&self.file, &problem);
        self.render.part(&mut self.out, part)
    }

    /// The current file ends.
    pub fn end_file(&mut self) -> io::Result<()> {
        if let Some(name) = &self.file.name {
            self.aggregates.by_file.push((name.clone(), self.tally));
        }
        if let Some(suite) = &self.file.suite {
            self.aggregates.count_suite(suite, self.tally);
        }
        let part = RecordPart::EndFile(&self.file, &self.tally);
        self.render.part(&mut self.out, part)
    }

    /// A ledger entry whose case does not exist (a failure).
    pub fn orphaned_entry(&mut self, entry: &Entry) {
        self.aggregates.totals.orphaned += 1;
        self.aggregates.orphaned.push(entry.clone());
    }

    /// Ends the report and returns the tally.
    pub fn finish(self) -> io::Result<Totals> {
        self.finish_with(None)
    }

    /// Ends the report, with what `accept` changed in the ledger.
    pub fn finish_with(mut self, changes: Option<&LedgerChanges>) -> io::Result<Totals> {
        let end = RecordEnd {
            aggregates: &mut self.aggregates,
            changes,
        };
        self.render.finish(&mut self.out, end)?;
        self.out.flush()?;
        Ok(self.aggregates.totals)
    }
}

#[cfg(test)]
mod tests;
