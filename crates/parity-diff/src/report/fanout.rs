//! One run, several reports: the report on standard output and each
//! `--report FORMAT=PATH`, every one handed the run's records as it
//! would have been alone ([`Sink::take_wide`]), so that each file is
//! byte for byte what a run in its format writes, and what `parity-diff
//! report` renders from the run's JSON report.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use super::{
    CaseState, Consumer, FileInfo, Format, LedgerChanges, Problem, ReportOptions, RunInfo, Sink,
    Totals,
};
use crate::base::error::InputError;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::CaseRecord;

/// One `--report FORMAT=PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraReport {
    /// Its format.
    pub format: Format,
    /// Where it is written.
    pub path: PathBuf,
}

impl ExtraReport {
    /// Reads `FORMAT=PATH`.
    pub fn parse(text: &str) -> Result<ExtraReport, String> {
        let Some((name, path)) = text.split_once('=') else {
            return Err(format!("`FORMAT=PATH` (junit=out.xml, say), not {text:?}"));
        };
        let format = Format::ALL
            .iter()
            .copied()
            .find(|format| format.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!("no format {name:?}: one of {}", names.join(", "))
            })?;
        if path.is_empty() {
            return Err(format!("{name}= names no file"));
        }
        Ok(ExtraReport {
            format,
            path: PathBuf::from(path),
        })
    }
}

/// The options of a report written to a file beside the main one: its
/// format, never coloured, and no annotations or job summary (the main
/// report's to write, once).
pub fn file_options(main: ReportOptions, format: Format) -> ReportOptions {
    ReportOptions {
        format,
        color: false,
        annotate: false,
        step_summary: false,
        ..main
    }
}

/// The run's report and the reports written beside it.
pub struct Reports<W: Write> {
    main: Sink<W>,
    extra: Vec<Sink<BufWriter<File>>>,
    /// Whether the run weighs its cases against a ledger.
    ledger: bool,
    /// Of several suites, those with a ledger.
    suite_ledgers: Vec<String>,
    /// Whether the current file's cases are weighed against a ledger
    /// (the run's, or its suite's).
    file_ledger: bool,
}

impl<W: Write> Reports<W> {
    /// The main report to `out`, and each of `extra`, its file created
    /// now (so that a path that cannot be written stops the run before
    /// it starts).
    pub fn new(
        out: W,
        options: ReportOptions,
        run: RunInfo,
        extra: &[ExtraReport],
    ) -> Result<Self, InputError> {
        let ledger = run.ledger.is_some();
        let suite_ledgers = run.suite_ledgers.clone();
        let mut sinks = Vec::with_capacity(extra.len());
        for report in extra {
            let file = File::create(&report.path).map_err(|error| {
                InputError::new(format!(
                    "cannot write the {} report {}: {error}",
                    report.format.name(),
                    crate::corpus::identity::path_text(&report.path)
                ))
            })?;
            let options = file_options(options, report.format);
            sinks.push(Sink::new(BufWriter::new(file), options, run.clone()));
        }
        Ok(Reports {
            main: Sink::new(out, options, run),
            extra: sinks,
            ledger,
            suite_ledgers,
            file_ledger: ledger,
        })
    }

    /// The main report.
    pub fn main(&self) -> &Sink<W> {
        &self.main
    }

    /// Ends every report, with what `accept` changed in the ledger;
    /// returns the main one's tally.
    pub fn finish_with(self, changes: Option<&LedgerChanges>) -> io::Result<Totals> {
        for sink in self.extra {
            sink.finish_with(changes)?;
        }
        self.main.finish_with(changes)
    }

    /// Ends every report.
    pub fn finish(self) -> io::Result<Totals> {
        self.finish_with(None)
    }

    /// A record made for the widest report (a saved JSON report's), to
    /// each report as it alone would have been given it.
    pub fn take_wide(&mut self, record: CaseRecord) -> io::Result<()> {
        for sink in &mut self.extra {
            sink.take_wide(record.clone(), self.file_ledger)?;
        }
        self.main.take_wide(record, self.file_ledger)
    }

    fn each(&mut self, mut act: impl FnMut(&mut dyn Consumer) -> io::Result<()>) -> io::Result<()> {
        for sink in &mut self.extra {
            act(sink)?;
        }
        act(&mut self.main)
    }
}

impl<W: Write> Consumer for Reports<W> {
    fn explains(&self) -> bool {
        self.main.explains() || self.extra.iter().any(Consumer::explains)
    }
    fn fingerprints(&self) -> bool {
        self.main.fingerprints() || self.extra.iter().any(Consumer::fingerprints)
    }
    fn wants_detail(&self, record: &CaseRecord) -> bool {
        self.main.wants_detail(record) || self.extra.iter().any(|sink| sink.wants_detail(record))
    }
    fn wants_passing(&self) -> bool {
        self.main.wants_passing() || self.extra.iter().any(Consumer::wants_passing)
    }
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        self.each(|sink| sink.counted(op, unknown_op, state, cases))
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.file_ledger = self.ledger
            || file
                .suite
                .as_ref()
                .is_some_and(|suite| self.suite_ledgers.contains(suite));
        self.each(|sink| sink.begin_file(file.clone()))
    }
    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        if self.extra.is_empty() {
            return self.main.case(record);
        }
        self.take_wide(record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        self.each(|sink| sink.problem(problem.clone()))
    }
    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.each(|sink| sink.warning(text))
    }
    fn end_file(&mut self) -> io::Result<()> {
        self.each(|sink| sink.end_file())
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        let _ = self.each(|sink| {
            sink.orphaned_entry(entry);
            Ok(())
        });
    }
    fn rule_finding(&mut self, finding: &RuleFinding) {
        let _ = self.each(|sink| {
            sink.rule_finding(finding);
            Ok(())
        });
    }
    fn shard_rules(&mut self, findings: Vec<RuleFinding>) {
        let _ = self.each(|sink| {
            sink.shard_rules(findings.clone());
            Ok(())
        });
    }
}
