//! The records' kind of report ([`Records`]), which `compare`, `run`,
//! `accept` and `merge` make: its parts, its end, what a format needs of
//! the records ([`Needs`]), and the shape every records format has
//! ([`RecordHandlers`], a [`Render`] of [`Records`] by that alone).

use std::io::{self, Write};

use super::render::{self, Render};
use super::{Aggregates, FileInfo, LedgerChanges, Problem, Tally};
use crate::report::record::CaseRecord;

/// The report of `compare`, `run`, `accept` and `merge`: one record per
/// case, file by file, then the aggregates. Its formats are [`Render`]s
/// of it, driven by a [`Sink`](super::Sink).
#[derive(Debug)]
pub struct Records;

/// One part of a [`Records`] report, as it comes.
#[derive(Debug, Clone, Copy)]
pub enum RecordPart<'a> {
    /// A file starts.
    BeginFile(&'a FileInfo),
    /// One case.
    Case(&'a CaseRecord),
    /// A file-level problem, in place of (or beside) its cases.
    Problem(&'a FileInfo, &'a Problem),
    /// A warning about the file that changes no verdict (processes the
    /// oracle left holding its output: [`Leak`](crate::exec::oracle::Leak));
    /// a format without a place for it ignores it.
    Warning(&'a FileInfo, &'a str),
    /// The file ends (a format that writes at its end ignores it).
    EndFile(&'a FileInfo, &'a Tally),
}

/// The end of a [`Records`] report.
#[derive(Debug)]
pub struct RecordEnd<'a> {
    /// Everything kept besides the records.
    pub aggregates: &'a mut Aggregates,
    /// What `accept` changed in the ledger.
    pub changes: Option<&'a LedgerChanges>,
}

impl render::Report for Records {
    type Part<'a> = RecordPart<'a>;
    type End<'a> = RecordEnd<'a>;
}

/// What a records format needs of the records it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// Whether failing cases need their details (input, elements).
    pub detail: bool,
    /// Whether the groups keep their first records in full.
    pub groups: bool,
    /// Whether failing cases need their signature and summary.
    pub explains: bool,
    /// Whether passing, identical cases are listed (or only counted).
    pub passing: bool,
    /// Whether the format prints fingerprints.
    pub fingerprints: bool,
}

impl Default for Needs {
    fn default() -> Self {
        Needs {
            detail: true,
            groups: false,
            explains: true,
            passing: true,
            fingerprints: false,
        }
    }
}

impl Needs {
    /// A report made at its end from the groups' first records in full
    /// and the counts (Markdown, HTML): no passing case listed, no
    /// detail beyond the groups'.
    pub const FROM_GROUPS: Needs = Needs {
        detail: false,
        groups: true,
        explains: true,
        passing: false,
        fingerprints: false,
    };
}

/// A records format, with what it needs.
pub struct RecordFormat {
    /// The format.
    pub render: Box<dyn Render<Records>>,
    /// What it needs of the records.
    pub needs: Needs,
}

impl RecordFormat {
    /// The format `render`, which needs `needs` of the records.
    pub fn new(render: impl Render<Records> + 'static, needs: Needs) -> Self {
        RecordFormat {
            render: Box::new(render),
            needs,
        }
    }
}

/// A records format as a handler for each kind of part (the default
/// leaves a part alone) and one for the end; every such format is a
/// [`Render`] of [`Records`].
pub trait RecordHandlers {
    /// A file starts.
    fn begin_file(&mut self, out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        let _ = (out, file);
        Ok(())
    }
    /// One case.
    fn case(&mut self, out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let _ = (out, record);
        Ok(())
    }
    /// A file-level problem.
    fn problem(
        &mut self,
        out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        let _ = (out, file, problem);
        Ok(())
    }
    /// A warning that changes no verdict.
    fn warning(&mut self, out: &mut dyn Write, file: &FileInfo, text: &str) -> io::Result<()> {
        let _ = (out, file, text);
        Ok(())
    }
    /// The file ends.
    fn end_file(&mut self, out: &mut dyn Write, file: &FileInfo, tally: &Tally) -> io::Result<()> {
        let _ = (out, file, tally);
        Ok(())
    }
    /// The report ends.
    fn end(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        changes: Option<&LedgerChanges>,
    ) -> io::Result<()>;
}

impl<T: RecordHandlers> Render<Records> for T {
    fn part(&mut self, out: &mut dyn Write, part: RecordPart<'_>) -> io::Result<()> {
        match part {
            RecordPart::BeginFile(file) => self.begin_file(out, file),
            RecordPart::Case(record) => self.case(out, record),
            RecordPart::Problem(file, problem) => self.problem(out, file, problem),
            RecordPart::Warning(file, text) => self.warning(out, file, text),
            RecordPart::EndFile(file, tally) => self.end_file(out, file, tally),
        }
    }

    fn finish(&mut self, out: &mut dyn Write, end: RecordEnd<'_>) -> io::Result<()> {
        self.end(out, end.aggregates, end.changes)
    }
}
