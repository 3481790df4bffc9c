//! Reports for people and for machines.
//!
//! A comparison hands a [`Sink`] one [`CaseRecord`] per case, file by
//! file. The sink keeps the aggregates (the tally, counts per file and per
//! op, failures grouped by signature, orphaned ledger entries) and hands
//! each event to the chosen format: [`human`] (grouped failures, a per-op
//! table, coloured on a terminal), [`json`] (the JSON report, format
//! version 1), [`junit`] or [`markdown`]; [`github`] adds annotations and
//! a job summary beside any of them. Whatever must wait is spooled
//! ([`spool`]), never held whole. The tally decides the exit status: 0 all passed or
//! accepted, 1 any failure, 2 any usage or input error.

pub mod detail;
pub mod github;
pub mod groups;
pub mod head;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod kept;
pub mod markdown;
pub mod spool;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;

use super::ledger::Entry;
use super::record::{CaseRecord, CaseState, EntryState};
use crate::js::Value;
use groups::Groups;
pub use head::{CorpusInfo, LedgerInfo, RunInfo, ShardInfo};

/// The report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Text for people.
    #[default]
    Human,
    /// One JSON object.
    Json,
    /// JUnit XML.
    Junit,
    /// GitHub-flavoured Markdown, for a job summary or a PR comment.
    Markdown,
    /// One self-contained HTML page.
    Html,
}

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
    /// Human and Markdown formats: how many failure groups to print.
    pub max_failures: usize,
    /// Print GitHub Actions annotations on standard error.
    pub annotate: bool,
    /// Append the Markdown summary to the file `GITHUB_STEP_SUMMARY`
    /// names, when it names one.
    pub step_summary: bool,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            format: Format::Human,
            quiet: false,
            color: false,
            semantic: false,
            max_failures: DEFAULT_MAX_FAILURES,
            annotate: false,
            step_summary: false,
        }
    }
}

/// Something wrong with a whole file of a corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A case file has no golden (a failure).
    MissingGolden {
        /// Where the golden was looked for.
        golden: PathBuf,
    },
    /// A golden has no case file (a failure).
    OrphanGolden {
        /// The golden.
        golden: PathBuf,
    },
    /// The file could not be compared at all (an input error).
    Error {
        /// What went wrong.
        message: String,
        /// The oracle's standard error (masked), when an oracle failed.
        stderr: Option<String>,
        /// How many golden cases went uncompared.
        skipped: usize,
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
            } => Problem::Error {
                message: message.clone(),
                stderr: stderr
                    .as_deref()
                    .map(|text| crate::diff::record::signature::cut_chars(text, chars)),
                skipped: *skipped,
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

    fn count(&mut self, state: CaseState) {
        match state {
            CaseState::Passed => self.passed += 1,
            CaseState::Accepted => self.accepted += 1,
            _ => self.failed += 1,
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
    /// Golden cases not compared because their file had an error.
    pub skipped: usize,
    /// Files that could not be compared, and cases the oracle failed on.
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
    /// ledger entries included), else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 || self.orphaned > 0 {
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
                if matches!(
                    record.entry.as_ref().map(|entry| &entry.state),
                    Some(EntryState::Triaged { .. })
                ) {
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
    /// Failures grouped by signature.
    pub groups: Groups,
    /// Ledger entries whose case is gone.
    pub orphaned: Vec<Entry>,
}

/// The key of the cases without a string op in per-op counts.
pub const NO_OP: &str = "(no op)";

/// What a report format does with each event.
pub trait Render {
    /// A file starts.
    fn begin_file(&mut self, out: &mut dyn Write, file: &FileInfo) -> io::Result<()>;
    /// One case.
    fn case(&mut self, out: &mut dyn Write, record: &CaseRecord) -> io::Result<()>;
    /// A file-level problem, in place of (or beside) its cases.
    fn problem(
        &mut self,
        out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()>;
    /// The file ends (a format that writes at its end ignores it).
    fn end_file(&mut self, out: &mut dyn Write, file: &FileInfo, tally: &Tally) -> io::Result<()> {
        let _ = (out, file, tally);
        Ok(())
    }
    /// The report ends; `extra` is a member a command adds to a JSON
    /// report before its summary.
    fn finish(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        extra: Option<(&str, Value)>,
    ) -> io::Result<()>;
    /// Whether failing cases need their details (input, elements).
    fn wants_detail(&self) -> bool {
        true
    }
    /// Whether the groups keep their first records in full.
    fn shows_groups(&self) -> bool {
        false
    }
    /// Whether failing cases need their signature and summary.
    fn explains(&self) -> bool {
        true
    }
    /// Whether passing, identical cases are listed (or only counted).
    fn lists_passing(&self) -> bool {
        true
    }
    /// Whether the format prints fingerprints.
    fn prints_fingerprints(&self) -> bool {
        false
    }
}

/// Whatever takes a run's records: a report, or `accept` watching one.
pub trait Consumer {
    /// Whether failing cases need their signature and summary.
    fn explains(&self) -> bool;
    /// Whether cases need their fingerprints even without a ledger.
    fn fingerprints(&self) -> bool;
    /// Whether a failing record should carry its details.
    fn wants_detail(&self, record: &CaseRecord) -> bool;
    /// Whether passing, identical cases need records.
    fn wants_passing(&self) -> bool;
    /// A case that needs no record (a passing one that is not listed, or
    /// any one when nothing is explained), counted.
    fn counted(&mut self, op: Option<&str>, state: CaseState) -> io::Result<()>;
    /// A file of cases starts.
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()>;
    /// One case's record.
    fn case(&mut self, record: CaseRecord) -> io::Result<()>;
    /// A file-level problem.
    fn problem(&mut self, problem: Problem) -> io::Result<()>;
    /// The current file ends.
    fn end_file(&mut self) -> io::Result<()>;
    /// A ledger entry whose case does not exist.
    fn orphaned_entry(&mut self, entry: &Entry);
}

impl<W: Write> Consumer for Sink<W> {
    fn explains(&self) -> bool {
        self.render.explains()
    }
    fn fingerprints(&self) -> bool {
        self.render.prints_fingerprints()
    }
    fn wants_detail(&self, record: &CaseRecord) -> bool {
        Sink::wants_detail(self, record)
    }
    fn wants_passing(&self) -> bool {
        self.render.lists_passing()
    }
    fn counted(&mut self, op: Option<&str>, state: CaseState) -> io::Result<()> {
        match state {
            CaseState::Passed => self.aggregates.totals.passed += 1,
            _ => self.aggregates.totals.failed += 1,
        }
        self.tally.count(state);
        self.count_op(op, state, None);
        Ok(())
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        Sink::begin_file(self, file)
    }
    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        Sink::case(self, record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        Sink::problem(self, problem)
    }
    fn end_file(&mut self) -> io::Result<()> {
        Sink::end_file(self)
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        Sink::orphaned_entry(self, entry)
    }
}

/// Keeps the aggregates and drives a format.
pub struct Sink<W: Write> {
    out: W,
    options: ReportOptions,
    render: Box<dyn Render>,
    aggregates: Aggregates,
    file: FileInfo,
    tally: Tally,
}

impl<W: Write> Sink<W> {
    /// A sink writing to `out`.
    pub fn new(out: W, options: ReportOptions, run: RunInfo) -> Self {
        let render: Box<dyn Render> = match options.format {
            Format::Human => Box::new(human::Human::new(options)),
            Format::Json => Box::new(json::Json::new(run.clone())),
            Format::Junit => Box::new(junit::Junit::default()),
            Format::Markdown => Box::new(markdown::Markdown::new(options)),
            Format::Html => Box::new(html::Html::new()),
        };
        let render = github::wrap(render, options);
        let groups = Groups::new(render.shows_groups());
        Sink {
            out,
            options,
            render,
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
        self.render.wants_detail()
            || record
                .signature
                .as_ref()
                .is_some_and(|signature| self.aggregates.groups.has_room(signature))
    }

    /// A file of cases starts.
    pub fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.file = file;
        self.tally = Tally::default();
        self.render.begin_file(&mut self.out, &self.file)
    }

    /// One case's record.
    pub fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        self.aggregates.totals.count(&record);
        self.tally.count(record.state);
        self.count_op(record.op.as_deref(), record.state, record.thrown.as_deref());
        if !record.passes() {
            self.aggregates.groups.add(&record)?;
        }
        self.render.case(&mut self.out, &record)
    }

    /// Counts a case of `op` (and whether the op still failed every case
    /// with one thrown message).
    fn count_op(&mut self, op: Option<&str>, state: CaseState, thrown: Option<&str>) {
        let by_op = &mut self.aggregates.by_op;
        let key = op.unwrap_or(NO_OP);
        if !by_op.contains_key(key) {
            by_op.insert(key.to_owned(), OpTally::default());
        }
        let Some(op) = by_op.get_mut(key) else {
            return;
        };
        op.tally.count(state);
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
            Problem::Error { skipped, .. } => {
                totals.errors += 1;
                totals.skipped += skipped;
            }
        }
        self.render.problem(&mut self.out, &self.file, &problem)
    }

    /// The current file ends.
    pub fn end_file(&mut self) -> io::Result<()> {
        if let Some(name) = &self.file.name {
            self.aggregates.by_file.push((name.clone(), self.tally));
        }
        self.render.end_file(&mut self.out, &self.file, &self.tally)
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

    /// Ends the report, adding a member to a JSON report.
    pub fn finish_with(mut self, extra: Option<(&str, Value)>) -> io::Result<Totals> {
        self.render
            .finish(&mut self.out, &mut self.aggregates, extra)?;
        self.out.flush()?;
        Ok(self.aggregates.totals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_and_exit_codes() {
        let mut totals = Totals {
            passed: 3,
            ..Totals::default()
        };
        assert_eq!(totals.summary_line(), "3 passed, 0 failed");
        assert_eq!(totals.exit_code(), 0);
        totals.accepted = 2;
        assert_eq!(totals.summary_line(), "3 passed, 0 failed, 2 accepted");
        assert_eq!(totals.exit_code(), 0);
        totals.orphaned = 1;
        assert_eq!(totals.exit_code(), 1);
        totals.orphaned = 0;
        totals.failed = 2;
        assert_eq!(totals.exit_code(), 1);
        totals.skipped = 4;
        totals.errors = 1;
        assert_eq!(
            totals.summary_line(),
            "3 passed, 2 failed, 2 accepted, 4 skipped"
        );
        assert_eq!(totals.exit_code(), 2);
    }

    #[test]
    fn an_op_that_threw_one_message_on_every_case_is_uniform() {
        let mut sink = Sink::new(Vec::new(), ReportOptions::default(), RunInfo::default());
        let failing = |message: &str| CaseRecord {
            op: Some("x".into()),
            state: CaseState::Failed,
            thrown: Some(message.into()),
            ..CaseRecord::passing_default()
        };
        sink.case(failing("no")).unwrap();
        sink.case(failing("no")).unwrap();
        assert_eq!(sink.aggregates.by_op["x"].all_threw(), Some("no"));
        sink.case(failing("other")).unwrap();
        assert_eq!(sink.aggregates.by_op["x"].all_threw(), None);
        sink.case(CaseRecord::passing_default()).unwrap();
        assert_eq!(sink.aggregates.by_op[NO_OP].tally.passed, 1);
        assert_eq!(sink.totals().failed, 3);
        // A case only counted counts the same, and breaks uniformity.
        sink.case(failing("no")).unwrap();
        let mut sink = Sink::new(Vec::new(), ReportOptions::default(), RunInfo::default());
        sink.case(failing("no")).unwrap();
        assert!(!Consumer::wants_passing(&sink));
        Consumer::counted(&mut sink, Some("x"), CaseState::Passed).unwrap();
        assert_eq!(sink.aggregates.by_op["x"].tally.passed, 1);
        assert_eq!(sink.aggregates.by_op["x"].all_threw(), None);
        assert_eq!(sink.totals().passed, 1);
        assert_eq!(sink.tally.passed, 1);
        Consumer::counted(&mut sink, None, CaseState::Failed).unwrap();
        assert_eq!(sink.totals().failed, 2);
        assert_eq!(sink.aggregates.by_op[NO_OP].tally.failed, 1);
    }
}
