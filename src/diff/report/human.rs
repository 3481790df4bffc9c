//! The report for people: failing cases only, each with its label, its
//! verdict and where, then the details; coloured when asked; the closing
//! line `N passed, N failed`.
//!
//! A lone comparison is printed as it goes. In a corpus, each file's
//! cases are held until the file ends, so that the file's own line
//! (`ok` or `FAIL`, with counts) comes first.

use std::io::{self, Write};

use super::{FileTally, Problem, Render, ReportOptions, Totals};
use crate::diff::textdiff::LineKind;
use crate::diff::view::CaseView;

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const DIM: &str = "\x1b[2m";

/// The human format.
pub struct Human {
    options: ReportOptions,
    /// The current file's name, in a corpus.
    file: Option<String>,
    /// The current file's case blocks, held until it ends.
    held: Vec<u8>,
    /// Whether the current file already printed a problem line.
    had_problem: bool,
}

impl Human {
    /// A human report.
    pub fn new(options: ReportOptions) -> Self {
        Human {
            options,
            file: None,
            held: Vec::new(),
            had_problem: false,
        }
    }

    fn paint(&self, style: &str, text: &str) -> String {
        if self.options.color && !style.is_empty() {
            format!("{style}{text}{RESET}")
        } else {
            text.to_owned()
        }
    }

    fn case_block(&self, view: &CaseView, out: &mut Vec<u8>) {
        let indent = if self.file.is_some() { "  " } else { "" };
        let tag = if view.passes {
            self.paint(GREEN, "ok")
        } else {
            self.paint(&format!("{BOLD}{RED}"), "FAIL")
        };
        let _ = writeln!(
            out,
            "{indent}{tag} {}: {}",
            self.paint(BOLD, &view.label),
            view.summary
        );
        for line in &view.details {
            let style = match line.kind {
                LineKind::Text | LineKind::Context => "",
                LineKind::Golden | LineKind::Removed => RED,
                LineKind::Actual | LineKind::Added => GREEN,
                LineKind::FileHeader => BOLD,
                LineKind::Hunk => CYAN,
                LineKind::Note => DIM,
            };
            let _ = writeln!(out, "{indent}    {}", self.paint(style, &line.text));
        }
    }
}

/// `1 case`, `2 cases`.
pub fn cases(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

impl Render for Human {
    fn begin_file(&mut self, _out: &mut dyn Write, name: Option<&str>) -> io::Result<()> {
        self.file = name.map(str::to_owned);
        self.held.clear();
        self.had_problem = false;
        Ok(())
    }

    fn case(&mut self, out: &mut dyn Write, view: &CaseView) -> io::Result<()> {
        if self.options.quiet {
            return Ok(());
        }
        let mut block = Vec::new();
        self.case_block(view, &mut block);
        if self.file.is_some() {
            self.held.extend_from_slice(&block);
            Ok(())
        } else {
            out.write_all(&block)
        }
    }

    fn problem(&mut self, out: &mut dyn Write, name: &str, problem: &Problem) -> io::Result<()> {
        self.had_problem = true;
        if self.options.quiet {
            return Ok(());
        }
        let red = format!("{BOLD}{RED}");
        match problem {
            Problem::MissingGolden { golden } => writeln!(
                out,
                "{} {name}: no golden at {}",
                self.paint(&red, "MISSING"),
                golden.display()
            ),
            Problem::OrphanGolden { golden } => writeln!(
                out,
                "{} {}: golden without a case file",
                self.paint(&red, "ORPHAN"),
                golden.display()
            ),
            Problem::Error {
                message,
                stderr,
                skipped,
            } => {
                writeln!(out, "{} {name}: {message}", self.paint(&red, "ERROR"))?;
                if *skipped > 0 {
                    writeln!(out, "    {} not compared", cases(*skipped, "golden case"))?;
                }
                match stderr.as_deref().map(str::trim_end) {
                    Some("") => writeln!(out, "    (the oracle wrote nothing on stderr)"),
                    Some(text) => {
                        writeln!(out, "    stderr:")?;
                        for line in text.lines() {
                            writeln!(out, "    {} {line}", self.paint(DIM, "|"))?;
                        }
                        Ok(())
                    }
                    None => Ok(()),
                }
            }
        }
    }

    fn end_file(&mut self, out: &mut dyn Write, tally: FileTally) -> io::Result<()> {
        let Some(name) = self.file.take() else {
            return Ok(());
        };
        if self.options.quiet || (self.had_problem && tally.cases == 0) {
            return Ok(());
        }
        if tally.failed == 0 {
            writeln!(
                out,
                "{} {name} ({})",
                self.paint(GREEN, "ok"),
                cases(tally.cases, "case")
            )?;
        } else {
            writeln!(
                out,
                "{} {name} ({} of {} failed)",
                self.paint(&format!("{BOLD}{RED}"), "FAIL"),
                tally.failed,
                cases(tally.cases, "case")
            )?;
        }
        out.write_all(&std::mem::take(&mut self.held))
    }

    fn finish(&mut self, out: &mut dyn Write, totals: &Totals) -> io::Result<()> {
        if !self.options.quiet && totals.errors > 0 {
            let files = if totals.errors == 1 { "file" } else { "files" };
            writeln!(
                out,
                "{} {} {files} could not be compared",
                self.paint(&format!("{BOLD}{YELLOW}"), "error:"),
                totals.errors
            )?;
        }
        writeln!(out, "{}", totals.summary_line())
    }

    fn wants_passing(&self) -> bool {
        false
    }

    fn wants_failing(&self) -> bool {
        !self.options.quiet
    }
}
