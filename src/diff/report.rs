//! Reports for people and for machines.
//!
//! A comparison feeds a [`Reporter`] file by file and case by case; the
//! reporter keeps the tally and hands each event to the chosen format:
//! [`human`] (streamed, coloured on a terminal), [`json`] (one report
//! object) or [`junit`] (one test case per case). The tally decides the
//! exit status: 0 all passed, 1 any divergence, 2 any usage or input
//! error.

pub mod human;
pub mod json;
pub mod junit;

use std::io::{self, Write};
use std::path::PathBuf;

use super::view::{CaseOutcome, CaseView};

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
}

/// How a report is made.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReportOptions {
    /// The format.
    pub format: Format,
    /// Human format: print the closing summary line alone.
    pub quiet: bool,
    /// Human format: colour with ANSI escapes.
    pub color: bool,
    /// Count *same value, different bytes* as a pass.
    pub semantic: bool,
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
        /// The oracle's standard error, when an oracle failed.
        stderr: Option<String>,
        /// How many golden cases went uncompared.
        skipped: usize,
    },
}

/// The counts of a report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Cases that passed.
    pub passed: usize,
    /// Cases that diverged, plus missing and orphaned goldens.
    pub failed: usize,
    /// Golden cases not compared because their file had an error.
    pub skipped: usize,
    /// Files that could not be compared.
    pub errors: usize,
}

impl Totals {
    /// `N passed, N failed`, and `, N skipped` when some were.
    pub fn summary_line(&self) -> String {
        let mut line = format!("{} passed, {} failed", self.passed, self.failed);
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", self.skipped));
        }
        line
    }

    /// 2 when any input error, else 1 when any failure, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors > 0 {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

/// Per-file counts, for the formats that print them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileTally {
    /// Cases compared.
    pub cases: usize,
    /// Of which passed.
    pub passed: usize,
    /// Of which failed.
    pub failed: usize,
}

/// What a report format does with each event.
pub trait Render {
    /// A file starts; `name` is `None` for a lone comparison.
    fn begin_file(&mut self, out: &mut dyn Write, name: Option<&str>) -> io::Result<()>;
    /// One case.
    fn case(&mut self, out: &mut dyn Write, view: &CaseView) -> io::Result<()>;
    /// A file-level problem, in place of (or after) its cases.
    fn problem(&mut self, out: &mut dyn Write, name: &str, problem: &Problem) -> io::Result<()>;
    /// The file ends.
    fn end_file(&mut self, out: &mut dyn Write, tally: FileTally) -> io::Result<()>;
    /// The report ends.
    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) -> io::Result<()>;
    /// Whether a passing case needs its full explanation (or only a label).
    fn wants_passing_detail(&self) -> bool {
        false
    }
    /// Whether passing cases are reported at all.
    fn wants_passing(&self) -> bool {
        true
    }
    /// Whether failing cases are reported case by case (not when only a
    /// summary is printed: explaining a case costs more than comparing it).
    fn wants_failing(&self) -> bool {
        true
    }
}

/// Keeps the tally and drives a format.
pub struct Reporter<W: Write> {
    out: W,
    options: ReportOptions,
    render: Box<dyn Render>,
    totals: Totals,
    file: FileTally,
}

impl<W: Write> Reporter<W> {
    /// A reporter writing to `out`.
    pub fn new(out: W, options: ReportOptions) -> Self {
        let render: Box<dyn Render> = match options.format {
            Format::Human => Box::new(human::Human::new(options)),
            Format::Json => Box::new(json::Json::default()),
            Format::Junit => Box::new(junit::Junit::default()),
        };
        Reporter {
            out,
            options,
            render,
            totals: Totals::default(),
            file: FileTally::default(),
        }
    }

    /// The tally so far.
    pub fn totals(&self) -> Totals {
        self.totals
    }

    /// A file of cases starts (`None` for a lone comparison).
    pub fn begin_file(&mut self, name: Option<&str>) -> io::Result<()> {
        self.file = FileTally::default();
        self.render.begin_file(&mut self.out, name)
    }

    /// One case's outcome.
    pub fn case(&mut self, outcome: CaseOutcome) -> io::Result<()> {
        let verdict = &outcome.comparison.verdict;
        let passes = verdict.passes(self.options.semantic);
        self.file.cases += 1;
        if passes {
            self.totals.passed += 1;
            self.file.passed += 1;
        } else {
            self.totals.failed += 1;
            self.file.failed += 1;
        }
        let explain = !passes
            || (self.render.wants_passing_detail()
                && *verdict != super::compare::Verdict::Identical);
        let wanted = if passes {
            self.render.wants_passing()
        } else {
            self.render.wants_failing()
        };
        if !wanted {
            return Ok(());
        }
        let view = if explain {
            CaseView::explained(&outcome, self.options.semantic)
        } else {
            CaseView::brief(&outcome, self.options.semantic)
        };
        self.render.case(&mut self.out, &view)
    }

    /// A file-level problem.
    pub fn problem(&mut self, name: &str, problem: Problem) -> io::Result<()> {
        match &problem {
            Problem::MissingGolden { .. } | Problem::OrphanGolden { .. } => self.totals.failed += 1,
            Problem::Error { skipped, .. } => {
                self.totals.errors += 1;
                self.totals.skipped += skipped;
            }
        }
        self.render.problem(&mut self.out, name, &problem)
    }

    /// The current file ends.
    pub fn end_file(&mut self) -> io::Result<()> {
        self.render.end_file(&mut self.out, self.file)
    }

    /// Ends the report and returns the tally.
    pub fn finish(mut self) -> io::Result<Totals> {
        self.render.finish(&mut self.out, &self.totals)?;
        self.out.flush()?;
        Ok(self.totals)
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
        totals.failed = 2;
        assert_eq!(totals.exit_code(), 1);
        totals.skipped = 4;
        totals.errors = 1;
        assert_eq!(totals.summary_line(), "3 passed, 2 failed, 4 skipped");
        assert_eq!(totals.exit_code(), 2);
    }
}
