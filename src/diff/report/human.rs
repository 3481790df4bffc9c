//! The report for people. Each file's line (`ok` or `FAIL`, with its
//! counts) as the file ends, and its problems; then the failures grouped
//! by signature, largest group first, each printed once with its count,
//! its first cases in full and the names of a few more; the ops whose
//! every case failed with one thrown message, one line each; orphaned
//! ledger entries; input errors; a per-op table when more than one op
//! ran; and the closing line, always last: `N passed, N failed` (`, N accepted`,
//! `, N skipped` when not zero).

use std::io::{self, Write};

use super::detail;
use super::groups::{Group, GroupKey, SHOWN_IN_FULL};
use super::{Aggregates, FileInfo, Problem, Render, ReportOptions, Tally};
use crate::diff::record::signature::op_display;
use crate::diff::record::{CaseRecord, CaseState, VerdictKind};
use crate::diff::textdiff::LineKind;
use crate::js::Value;

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const CYAN: &str = "\x1b[36m";
const DIM: &str = "\x1b[2m";

/// How many lines of a unified diff a case shows.
pub const DIFF_LINES: usize = 30;

/// The human format.
pub struct Human {
    options: ReportOptions,
    had_problem: bool,
    /// Whether the current file has an input error of its own.
    file_error: bool,
    /// Input errors, by what they cost: files not compared at all, cases
    /// the oracle failed on, and files compared although the oracle
    /// failed on some of their cases only together.
    not_compared: usize,
    error_cases: usize,
    split_files: usize,
}

/// `1 case`, `2 cases`.
pub fn cases(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

impl Human {
    /// A human report.
    pub fn new(options: ReportOptions) -> Self {
        Human {
            options,
            had_problem: false,
            file_error: false,
            not_compared: 0,
            error_cases: 0,
            split_files: 0,
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

    fn case_block(&self, out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let tag = match record.state {
            CaseState::New => "NEW",
            CaseState::Changed => "CHANGED",
            CaseState::Stale => "STALE",
            CaseState::Error => "ERROR",
            _ => "FAIL",
        };
        let location = match record.line {
            Some(line) => format!("{}:{line} ", record.file),
            None => String::new(),
        };
        writeln!(
            out,
            "  {} {location}{}: {}",
            self.red(tag),
            self.paint(BOLD, &record.label),
            record.summary
        )?;
        for line in detail::lines(record, DIFF_LINES) {
            let style = match line.kind {
                LineKind::Text | LineKind::Context => "",
                LineKind::Golden | LineKind::Removed => RED,
                LineKind::Actual | LineKind::Added => GREEN,
                LineKind::FileHeader => BOLD,
                LineKind::Hunk => CYAN,
                LineKind::Note => DIM,
            };
            writeln!(out, "      {}", self.paint(style, &line.text))?;
        }
        Ok(())
    }

    fn group(&self, out: &mut dyn Write, group: &Group, shown: &[CaseRecord]) -> io::Result<()> {
        let oracle_failed = VerdictKind::from_name(&group.signature.kind)
            .is_some_and(VerdictKind::is_oracle_failure);
        writeln!(
            out,
            "{} [{}] {}",
            self.red(if oracle_failed { "ERROR" } else { "FAIL" }),
            cases(group.count, "case"),
            self.paint(BOLD, &group.signature.text)
        )?;
        for record in shown {
            self.case_block(out, record)?;
        }
        let more = group.count.saturating_sub(shown.len());
        if more > 0 {
            let names: Vec<String> = group
                .ids
                .iter()
                .skip(shown.len().min(SHOWN_IN_FULL))
                .map(ToString::to_string)
                .collect();
            let etc = if more > names.len() { ", …" } else { "" };
            writeln!(out, "  and {more} more: {}{etc}", names.join(", "))?;
        }
        Ok(())
    }

    fn groups(&self, out: &mut dyn Write, aggregates: &mut Aggregates) -> io::Result<()> {
        let uniform: Vec<(String, usize, String)> = aggregates
            .by_op
            .iter()
            .filter_map(|(op, tally)| {
                let message = tally.all_threw()?;
                Some((op.clone(), tally.tally.failed, message.to_owned()))
            })
            .collect();
        let groups = &mut aggregates.groups;
        let sorted: Vec<GroupKey> = groups
            .sorted()
            .into_iter()
            .filter(|&group| {
                let op = groups.op(group).unwrap_or(super::NO_OP);
                !uniform.iter().any(|(name, ..)| name == op)
            })
            .collect();
        let max = self.options.max_failures;
        for &key in sorted.iter().take(max) {
            let group = groups.load(key)?;
            self.group(out, &group, group.shown())?;
        }
        if sorted.len() > max {
            let left: usize = sorted[max..].iter().map(|&group| groups.count(group)).sum();
            let more = sorted.len() - max;
            writeln!(
                out,
                "… {more} more failure {} ({}) not shown; --max-failures {} shows them",
                if more == 1 { "group" } else { "groups" },
                cases(left, "case"),
                sorted.len()
            )?;
        }
        if !uniform.is_empty() {
            writeln!(
                out,
                "{} every case of {} failed with the port throwing one message:",
                self.red("FAIL"),
                cases(uniform.len(), "op")
            )?;
            for (op, count, message) in &uniform {
                let op = if op == super::NO_OP {
                    op.clone()
                } else {
                    op_display(Some(op))
                };
                writeln!(
                    out,
                    "  {op} ({}): {}",
                    cases(*count, "case"),
                    serde_json::to_string(message).unwrap_or_default()
                )?;
            }
        }
        Ok(())
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
                "{error} the oracle failed on {} (crash, invalid output or timeout; \
                 each is named above as ERROR)",
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
        let told = self.not_compared + self.error_cases + self.split_files;
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
                entry.id,
                op_display(entry.op.as_deref())
            )?;
        }
        Ok(())
    }

    fn op_table(&self, out: &mut dyn Write, aggregates: &Aggregates) -> io::Result<()> {
        let rows: Vec<(String, Tally)> = aggregates
            .by_op
            .iter()
            .map(|(op, tally)| {
                let shown = if op == super::NO_OP {
                    op.clone()
                } else {
                    op_display(Some(op))
                };
                (shown, tally.tally)
            })
            .collect();
        if rows.len() < 2 {
            return Ok(());
        }
        let width = rows
            .iter()
            .map(|(op, _)| op.chars().count())
            .max()
            .unwrap_or(2);
        writeln!(
            out,
            "{:<width$}  {:>8}  {:>8}  {:>8}",
            "op", "passed", "accepted", "failed"
        )?;
        for (op, tally) in rows {
            let pad = width.saturating_sub(op.chars().count());
            writeln!(
                out,
                "{op}{}  {:>8}  {:>8}  {:>8}",
                " ".repeat(pad),
                tally.passed,
                tally.accepted,
                tally.failed
            )?;
        }
        Ok(())
    }
}

impl Render for Human {
    fn begin_file(&mut self, _out: &mut dyn Write, _file: &FileInfo) -> io::Result<()> {
        self.had_problem = false;
        self.file_error = false;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        if record.state == CaseState::Error {
            self.error_cases += 1;
        }
        Ok(())
    }

    fn problem(
        &mut self,
        out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        self.had_problem = true;
        self.file_error |= matches!(problem, Problem::Error { .. });
        if self.options.quiet {
            return Ok(());
        }
        let name = file.name.as_deref().unwrap_or("-");
        match problem {
            Problem::MissingGolden { golden } => writeln!(
                out,
                "{} {name}: no golden at {}",
                self.red("MISSING"),
                golden.display()
            ),
            Problem::OrphanGolden { golden } => writeln!(
                out,
                "{} {}: golden without a case file",
                self.red("ORPHAN"),
                golden.display()
            ),
            Problem::Error {
                message,
                stderr,
                skipped,
            } => {
                writeln!(out, "{} {name}: {message}", self.red("ERROR"))?;
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
        if self.options.quiet || (self.had_problem && tally.cases() == 0) {
            return Ok(());
        }
        let accepted = if tally.accepted > 0 {
            format!(", {} accepted", tally.accepted)
        } else {
            String::new()
        };
        if tally.failed == 0 {
            writeln!(
                out,
                "{} {name} ({}{accepted})",
                self.paint(GREEN, "ok"),
                cases(tally.cases(), "case")
            )
        } else {
            writeln!(
                out,
                "{} {name} ({} of {} failed{accepted})",
                self.red("FAIL"),
                tally.failed,
                cases(tally.cases(), "case")
            )
        }
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        _extra: Option<(&str, Value)>,
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
        }
        writeln!(out, "{}", totals.summary_line())
    }

    fn wants_detail(&self) -> bool {
        false
    }

    fn shows_groups(&self) -> bool {
        !self.options.quiet
    }

    fn explains(&self) -> bool {
        !self.options.quiet
    }

    fn lists_passing(&self) -> bool {
        false
    }
}
