//! The report for people. Each file's line (`ok` or `FAIL`, with its
//! counts) as the file ends, and its problems; then the failures grouped
//! by signature, largest group first, each printed once with its count,
//! its first cases in full and the names of a few more; the ops whose
//! every case failed with one thrown message, one line each; orphaned
//! ledger entries; input errors; a per-op table when more than one op
//! ran; the triaged cases (accepted as known bugs to fix), the first
//! [`TRIAGED_LISTED`] by name; and the closing line, always last: `N
//! passed, N failed` (`, N accepted`, `, N skipped` when not zero).

mod failures;

use std::io::{self, Write};

use super::detail::{self, entry_ref_text};
use super::LedgerChanges;
use super::{
    Aggregates, FileInfo, Needs, Problem, RecordFormat, RecordHandlers, ReportOptions, Tally,
};
use crate::base::columns;
use crate::base::outside;
use crate::judge::signature::op_display;
use crate::ledger::rules::RuleProblem;
use crate::report::record::{CaseRecord, CaseState};

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const DIM: &str = "\x1b[2m";

/// How many lines of a unified diff a case shows.
pub const DIFF_LINES: usize = 30;

/// How many triaged cases the report names; the rest are counted.
pub const TRIAGED_LISTED: usize = 20;

/// The human format.
pub struct Human {
    options: ReportOptions,
    had_problem: bool,
    /// The current file's stale cases: they pass now, so its line does
    /// not call them failed.
    stale: usize,
    /// The current file's framing divergence: whether it is accepted.
    framing: Option<bool>,
    /// Whether the current file has an input error of its own.
    file_error: bool,
    /// Input errors, by what they cost: files not compared at all, cases
    /// the oracle failed on, and files compared although the oracle
    /// failed on some of their cases only together.
    not_compared: usize,
    error_cases: usize,
    split_files: usize,
    /// The suite of the files being reported.
    suite: Option<String>,
    /// The triaged cases: how many, and the first few as lines (each with
    /// its suite, named when the run has several).
    triaged: usize,
    triaged_listed: Vec<(Option<String>, String)>,
}

/// A suite's counts: `N passed, N failed`, and `, N accepted` when not 0.
fn suite_line(tally: &Tally) -> String {
    let mut line = format!("{} passed, {} failed", tally.passed, tally.failed);
    if tally.accepted > 0 {
        line.push_str(&format!(", {} accepted", tally.accepted));
    }
    line
}

/// `1 case`, `2 cases`.
pub fn cases(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// An op's key in the per-op counts as the report prints it, neutral.
fn shown_op(op: &str) -> String {
    if super::is_row_marker(op) {
        op.to_owned()
    } else {
        outside::text(&op_display(Some(op))).into_owned()
    }
}

impl Human {
    /// A human report.
    pub fn new(options: ReportOptions) -> Self {
        Human {
            options,
            had_problem: false,
            stale: 0,
            framing: None,
            file_error: false,
            not_compared: 0,
            error_cases: 0,
            split_files: 0,
            suite: None,
            triaged: 0,
            triaged_listed: Vec::new(),
        }
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.options.color && !style.is_empty() {
            format!("{style}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    fn red(&self, text: &str) -> String {
        self.paint(&format!("{BOLD}{RED}"), text)
    }

    /// What the input errors cost, each kind in its own words.
    fn errors(&self, out: &mut dyn Write, errors: usize) -> io::Result<()> {
        let error = self.paint(&format!("{BOLD}{YELLOW}"), "error:");
        if self.not_compared > 0 {
            writeln!(
                out,
                "{error} {} could not be compared",
                cases(self.not_compared, "file")
            )?;
        }
        if self.error_cases > 0 {
            writeln!(
                out,
                "{} the oracle failed on {} (crash, invalid output or timeout; \
                 each is named above, and an entry or a rule can accept it)",
                self.red("FAIL"),
                cases(self.error_cases, "case")
            )?;
        }
        if self.split_files > 0 {
            writeln!(
                out,
                "{error} the oracle failed on some cases of {} only when they ran together; \
                 their results come from separate runs",
                cases(self.split_files, "file")
            )?;
        }
        let told = self.not_compared + self.split_files;
        if errors > told {
            writeln!(out, "{error} {}", cases(errors - told, "input error"))?;
        }
        Ok(())
    }

    fn orphaned(&self, out: &mut dyn Write, aggregates: &Aggregates) -> io::Result<()> {
        for entry in &aggregates.orphaned {
            writeln!(
                out,
                "{} {} (op {}): no such case; remove the entry with `parity-diff accept --prune`",
                self.red("ORPHANED"),
                entry.id.neutral(),
                outside::text(&op_display(entry.op.as_deref()))
            )?;
        }
        for finding in &aggregates.rules {
            let tag = match finding.problem {
                RuleProblem::Stale => "STALE",
                RuleProblem::Orphaned => "ORPHANED",
            };
            writeln!(
                out,
                "{} {}",
                self.red(tag),
                outside::text(&finding.describe())
            )?;
        }
        Ok(())
    }

    /// The triaged cases: a count line, then one line each for the first
    /// [`TRIAGED_LISTED`] (where, label, the entry's link and reason),
    /// then how many more.
    fn triaged(&self, out: &mut dyn Write, suites: usize) -> io::Result<()> {
        if self.triaged == 0 {
            return Ok(());
        }
        let what = if self.triaged == 1 {
            "a known bug"
        } else {
            "known bugs"
        };
        writeln!(
            out,
            "{} ({what}, not yet fixed):",
            self.paint(YELLOW, &cases(self.triaged, "triaged case"))
        )?;
        for (suite, line) in &self.triaged_listed {
            match suite {
                Some(suite) if suites > 1 => {
                    writeln!(out, "  suite {}: {line}", outside::text(suite))?
                }
                _ => writeln!(out, "  {line}")?,
            }
        }
        let more = self.triaged - self.triaged_listed.len();
        if more > 0 {
            writeln!(out, "  … and {more} more")?;
        }
        Ok(())
    }

    fn op_table(&self, out: &mut dyn Write, aggregates: &Aggregates) -> io::Result<()> {
        let rows: Vec<(String, Tally)> = aggregates
            .by_op
            .iter()
            .map(|(op, tally)| (shown_op(op), tally.tally))
            .collect();
        if rows.len() < 2 {
            return Ok(());
        }
        let width = rows
            .iter()
            .map(|(op, _)| columns::width(op))
            .max()
            .unwrap_or(2);
        writeln!(
            out,
            "{:<width$}  {:>8}  {:>8}  {:>8}",
            "op", "passed", "accepted", "failed"
        )?;
        for (op, tally) in rows {
            writeln!(
                out,
                "{}  {:>8}  {:>8}  {:>8}",
                columns::pad(&op, width),
                tally.passed,
                tally.accepted,
                tally.failed
            )?;
        }
        Ok(())
    }
}

impl RecordHandlers for Human {
    fn begin_file(&mut self, out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        self.had_problem = false;
        self.file_error = false;
        self.framing = None;
        self.stale = 0;
        // A section per suite: a heading where its files start.
        if file.suite.is_some() && file.suite != self.suite {
            self.suite.clone_from(&file.suite);
            if !self.options.quiet {
                let heading = format!(
                    "suite {}",
                    outside::text(file.suite.as_deref().unwrap_or(""))
                );
                writeln!(out, "{}", self.paint(BOLD, &heading))?;
            }
        }
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        if record.state == CaseState::Stale {
            self.stale += 1;
        }
        if record.verdict.is_oracle_failure() && !record.passes() {
            self.error_cases += 1;
        }
        if record.is_triaged() {
            self.triaged += 1;
            if self.triaged_listed.len() < TRIAGED_LISTED {
                let entry = detail::entry_text(record).unwrap_or_default();
                let line = format!(
                    "{} {}: {}",
                    outside::text(&record.location()),
                    outside::text(&record.label),
                    outside::text(&entry)
                );
                self.triaged_listed.push((self.suite.clone(), line));
            }
        }
        Ok(())
    }

    fn problem(
        &mut self,
        out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        self.had_problem |= !matches!(problem, Problem::Framing { .. });
        self.file_error |= matches!(problem, Problem::Error { .. });
        if self.options.quiet {
            return Ok(());
        }
        let name = outside::text(file.name.as_deref().unwrap_or("-"));
        match problem {
            Problem::MissingGolden { golden } => writeln!(
                out,
                "{} {name}: no golden at {}",
                self.red("MISSING"),
                outside::text(&golden.clone())
            ),
            Problem::OrphanGolden { golden } => writeln!(
                out,
                "{} {}: golden without a case file",
                self.red("ORPHAN"),
                outside::text(&golden.clone())
            ),
            Problem::Error {
                message,
                stderr,
                skipped,
                ..
            } => {
                writeln!(
                    out,
                    "{} {name}: {}",
                    self.red("ERROR"),
                    outside::text(message)
                )?;
                if *skipped > 0 {
                    writeln!(out, "    {} not compared", cases(*skipped, "golden case"))?;
                }
                match stderr.as_deref().map(str::trim_end) {
                    Some("") => writeln!(out, "    (the oracle wrote nothing on stderr)"),
                    Some(text) => {
                        writeln!(out, "    stderr:")?;
                        for line in outside::lines(text) {
                            writeln!(out, "    {} {line}", self.paint(DIM, "|"))?;
                        }
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
            Problem::Framing {
                found,
                state,
                entry,
                ..
            } => {
                self.framing = Some(state.passes());
                let label = match state.passes() {
                    true => self.paint(DIM, "framing"),
                    false => self.red("FRAMING"),
                };
                let entry = entry.as_ref().map_or(String::new(), |entry| {
                    format!(" ({})", entry_ref_text(entry))
                });
                writeln!(
                    out,
                    "{label} {name}: {}{}",
                    outside::text(found),
                    outside::text(&entry)
                )
            }
        }
    }

    fn warning(&mut self, out: &mut dyn Write, file: &FileInfo, text: &str) -> io::Result<()> {
        if self.options.quiet {
            return Ok(());
        }
        let name = outside::text(file.name.as_deref().unwrap_or("-"));
        writeln!(
            out,
            "{} {name}: {}",
            self.paint(YELLOW, "WARNING"),
            outside::text(text)
        )
    }

    fn end_file(&mut self, out: &mut dyn Write, file: &FileInfo, tally: &Tally) -> io::Result<()> {
        if self.file_error {
            // Cases compared beside a file's error: the oracle failed on
            // some of them only together.
            if tally.cases() == 0 {
                self.not_compared += 1;
            } else {
                self.split_files += 1;
            }
        }
        let Some(name) = &file.name else {
            return Ok(());
        };
        let name = outside::text(name);
        if self.options.quiet || (self.had_problem && tally.cases() == 0) {
            return Ok(());
        }
        let mut notes = if tally.accepted > 0 {
            format!(", {} accepted", tally.accepted)
        } else {
            String::new()
        };
        match self.framing {
            Some(true) => notes.push_str(", framing accepted"),
            Some(false) => notes.push_str(", framing differs"),
            None => {}
        }
        if tally.failed == 0 {
            let ok = match self.framing {
                Some(false) => self.red("FAIL"),
                _ => self.paint(GREEN, "ok"),
            };
            writeln!(out, "{ok} {name} ({}{notes})", cases(tally.cases(), "case"))
        } else if self.stale == tally.failed {
            // Stale cases pass: what fails is the ledger's entries.
            writeln!(
                out,
                "{} {name} ({} of {} stale{notes})",
                self.red("STALE"),
                self.stale,
                cases(tally.cases(), "case")
            )
        } else {
            let stale = match self.stale {
                0 => String::new(),
                stale => format!(", {stale} stale"),
            };
            writeln!(
                out,
                "{} {name} ({} of {} failed{stale}{notes})",
                self.red("FAIL"),
                tally.failed - self.stale.min(tally.failed),
                cases(tally.cases(), "case")
            )
        }
    }

    fn end(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        _changes: Option<&LedgerChanges>,
    ) -> io::Result<()> {
        let totals = aggregates.totals;
        if !self.options.quiet {
            self.groups(out, aggregates)?;
            self.orphaned(out, aggregates)?;
            self.errors(out, totals.errors)?;
            if totals.new + totals.changed > 0 && aggregates.run.ledger.is_some() {
                writeln!(
                    out,
                    "{} new and {} changed divergences: fix them, or record them with \
                     `parity-diff accept --reason TEXT`",
                    totals.new, totals.changed
                )?;
            }
            self.op_table(out, aggregates)?;
            // Several suites: each one's counts, then the one closing line.
            if aggregates.by_suite.len() > 1 {
                for (suite, tally) in &aggregates.by_suite {
                    writeln!(out, "suite {}: {}", outside::text(suite), suite_line(tally))?;
                }
            }
            self.triaged(out, aggregates.by_suite.len())?;
        }
        // Even a quiet report says so: its reader may paste it anywhere.
        if let Some(notice) = aggregates
            .run
            .unredacted_notice(|suite| outside::text(suite).into_owned())
        {
            writeln!(out, "{notice}")?;
        }
        writeln!(out, "{}", totals.summary_line())
    }
}

impl Human {
    /// The format, with what it needs of the records.
    pub fn format(options: ReportOptions) -> RecordFormat {
        RecordFormat::new(
            Human::new(options),
            Needs {
                detail: false,
                groups: !options.quiet,
                explains: !options.quiet,
                passing: false,
                fingerprints: false,
            },
        )
    }
}
