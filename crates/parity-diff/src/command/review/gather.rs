//! What there is to review, from a run of the corpus (a [`Consumer`] of
//! its records, as `accept` watches one) or from a JSON report read
//! back through the one reader ([`ReportReader`]); both fill one
//! [`Builder`].

use std::io;
use std::path::Path;

use crate::base::error::InputError;
use crate::base::glob::Glob;
use crate::base::redact::MASK;
use crate::command::run::{run_corpus, LedgerUse, RunArgs};
use crate::ledger::rules::{Form, RuleFinding};
use crate::ledger::Entry;
use crate::report::json::{Item as ReportItem, ReportReader};
use crate::report::record::{CaseRecord, CaseState, VerdictKind};
use crate::report::{op_key, Consumer, FileInfo, Problem};

use super::queue::{Builder, Queue};

/// What could not be reviewed: files the run could not compare.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Unreviewed {
    /// Files that could not be read (exit status 2, as `accept`).
    pub unreadable: usize,
    /// Files the port failed on with no case to blame (exit status 1).
    pub port_failed: usize,
}

impl Unreviewed {
    /// The exit status they make: `accept`'s.
    pub fn exit_status(&self) -> u8 {
        if self.unreadable > 0 {
            2
        } else if self.port_failed > 0 {
            1
        } else {
            0
        }
    }
}

/// Watches a run's records into a [`Builder`].
struct Watcher {
    builder: Builder,
    unreviewed: Unreviewed,
    /// The current file's name, whether its framing diverged, its first
    /// error (a port's?), and how many cases it compared.
    file: String,
    error: Option<bool>,
    cases: usize,
    failed: Option<io::Error>,
}

impl Consumer for Watcher {
    fn explains(&self) -> bool {
        true
    }

    fn fingerprints(&self) -> bool {
        true
    }

    fn wants_detail(&self, _record: &CaseRecord) -> bool {
        true
    }

    fn wants_passing(&self) -> bool {
        false
    }

    fn counted(
        &mut self,
        _op: Option<&str>,
        _unknown_op: bool,
        _state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        self.cases += cases as usize;
        Ok(())
    }

    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        if file.path.is_some() {
            self.builder.ran_file();
        }
        self.file = file.name.unwrap_or_else(|| "-".into());
        self.error = None;
        self.cases = 0;
        Ok(())
    }

    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        self.cases += 1;
        self.builder.case(&record)
    }

    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        match &problem {
            Problem::Framing { state, found, .. } if !state.passes() => {
                self.builder.framing(&self.file, found);
            }
            Problem::Error { port, .. } => {
                self.error.get_or_insert(*port);
            }
            _ => {}
        }
        Ok(())
    }

    fn warning(&mut self, _text: &str) -> io::Result<()> {
        Ok(())
    }

    fn end_file(&mut self) -> io::Result<()> {
        // As `accept` counts them: a file with an error but compared
        // cases was split by bisection, and its cases are reviewed.
        match self.error.take() {
            Some(true) if self.cases == 0 => self.unreviewed.port_failed += 1,
            Some(false) if self.cases == 0 => self.unreviewed.unreadable += 1,
            _ => {}
        }
        Ok(())
    }

    fn orphaned_entry(&mut self, entry: &Entry) {
        self.builder.orphaned(entry);
    }

    fn rule_finding(&mut self, finding: &RuleFinding) {
        self.builder.rule(finding);
    }
}

/// Runs the corpus against the ledger at `ledger` (an empty one when it
/// does not exist yet) and gathers what there is to review.
pub fn from_run(args: &RunArgs, ledger: &Path) -> Result<(Queue, Unreviewed), InputError> {
    let mut known = LedgerUse::open(Some(ledger), &args.corpus.cases, true)?;
    let mut watcher = Watcher {
        builder: Builder::default(),
        unreviewed: Unreviewed::default(),
        file: String::new(),
        error: None,
        cases: 0,
        failed: None,
    };
    run_corpus(args, known.as_mut(), &mut watcher)?;
    if let Some(error) = watcher.failed {
        return Err(error.into());
    }
    Ok((watcher.builder.finish(), watcher.unreviewed))
}

/// Which of a report's cases are reviewed: those of one suite (when the
/// report names suites), `--filter`'s files, `--op`'s ops.
#[derive(Debug, Clone, Default)]
pub struct ReportSelection<'a> {
    /// The suite reviewed.
    pub suite: Option<&'a str>,
    /// `--filter`.
    pub filter: Option<&'a Glob>,
    /// `--op`.
    pub ops: &'a [String],
}

impl ReportSelection<'_> {
    fn is_whole(&self) -> bool {
        self.filter.is_none() && self.ops.is_empty()
    }
}

/// A report's case's form, which the report does not hold: a crash,
/// timeout or invalid output, or the message the port threw where it
/// differs, when the report shows it whole (not cut, nothing masked).
fn form_of_reported(record: &CaseRecord) -> Option<Form> {
    if record.verdict.is_oracle_failure() {
        return Some(Form::Failed(record.verdict));
    }
    let thrown = record.thrown.as_ref()?;
    // Reports cut a thrown message at 200 characters, with `…`.
    let whole = thrown.chars().count() <= 200 && !thrown.contains(MASK);
    (record.verdict == VerdictKind::Different && whole).then(|| Form::Threw(thrown.clone()))
}

/// Reads what there is to review from the JSON report at `path` (of
/// `run`, `merge` or `accept`).
pub fn from_report(path: &Path, selection: &ReportSelection) -> Result<Queue, InputError> {
    let (mut reader, head) = ReportReader::open(path)?;
    if head.command == "compare" {
        return Err(InputError::new(format!(
            "{} is a report of compare, which names no corpus to review",
            path.display()
        )));
    }
    let by_suite = !head.suites.is_empty();
    let mut builder = Builder::default();
    let mut taken = false;
    while let Some(item) = reader.next_item()? {
        match item {
            ReportItem::File(file) => {
                let name = file.info.name.clone().unwrap_or_default();
                let suite_ok = !by_suite || file.info.suite.as_deref() == selection.suite;
                taken = suite_ok && selection.filter.is_none_or(|glob| glob.matches(&name));
                if taken && file.info.path.is_some() {
                    builder.ran_file();
                }
                if let Some(Problem::Framing { state, found, .. }) = &file.problem {
                    if taken && !state.passes() && selection.ops.is_empty() {
                        builder.framing(&name, found);
                    }
                }
            }
            ReportItem::Case(mut record) => {
                let wanted = selection.ops.is_empty()
                    || selection.ops.iter().any(|op| op == op_key(&record));
                if taken && wanted {
                    record.form = form_of_reported(&record);
                    builder.case(&record)?;
                }
            }
            ReportItem::OrphanedEntry(entry) if selection.is_whole() => builder.orphaned(&entry),
            ReportItem::RuleFinding(finding) if selection.is_whole() => builder.rule(&finding),
            _ => {}
        }
    }
    Ok(builder.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reported_case_s_form_is_what_the_report_shows_whole() {
        let mut record = CaseRecord {
            verdict: VerdictKind::Different,
            thrown: Some("not implemented".into()),
            ..CaseRecord::passing_default()
        };
        assert_eq!(
            form_of_reported(&record),
            Some(Form::Threw("not implemented".into()))
        );
        record.thrown = Some(format!("{}…", "x".repeat(200)));
        assert_eq!(form_of_reported(&record), None, "cut");
        record.thrown = Some(format!("token {MASK}"));
        assert_eq!(form_of_reported(&record), None, "masked");
        record.thrown = None;
        assert_eq!(form_of_reported(&record), None);
        record.verdict = VerdictKind::Timeout;
        assert_eq!(
            form_of_reported(&record),
            Some(Form::Failed(VerdictKind::Timeout))
        );
    }
}
