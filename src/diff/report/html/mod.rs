//! The HTML report: one self-contained page (inline style and script, no
//! network, no external assets) rendered from the same records and
//! aggregates as every other format.
//!
//! It shows the summary counts, a stacked bar per op (passed, accepted,
//! failed), the ops whose every case failed with the port throwing one
//! message, the failures grouped by signature (each group's first cases
//! in full: input, golden and actual side by side with the differing
//! paths marked; then a bounded list of more cases in brief), file-level
//! errors, orphaned ledger entries, and a filter (op, state, verdict,
//! free text) that the page also takes from its URL fragment
//! (`report.html#op=cliArgs&state=new&q=text`).
//!
//! Nothing is written until the run ends, and what is kept meanwhile is
//! bounded: a few rows in brief per group, the first file-level problems.
//! The page as a whole stays under [`SIZE_LIMIT`]; past it, cases are
//! shown in brief and then groups left out, and the page says so.

mod case;
mod failures;
mod page;
pub mod pane;
mod sections;

use std::collections::{BTreeSet, HashMap};
use std::io::{self, Write};

use super::groups::SHOWN_IN_FULL;
use super::kept::KeptProblems;
use super::{Aggregates, FileInfo, Problem, Render, NO_OP};
use crate::diff::record::{CaseRecord, CaseState};
use crate::js::Value;

/// The page stays under about this many bytes.
pub const SIZE_LIMIT: usize = 4 * 1024 * 1024;

/// How many cases of a group are listed in brief after those in full.
pub const LISTED_IN_BRIEF: usize = 20;

/// How many cases in brief the whole page lists at most.
pub const MAX_BRIEF: usize = 2000;

/// How many file-level problems the page shows.
pub const MAX_PROBLEMS: usize = 100;

/// How many characters of an oracle's stderr a problem shows.
pub const STDERR_CHARS: usize = 8 * 1024;

/// One case in brief.
#[derive(Debug, Clone)]
struct Brief {
    op: String,
    state: &'static str,
    verdict: &'static str,
    label: String,
    location: String,
    summary: String,
}

/// What the page needs about a group beyond the sink's [`super::groups::Group`].
#[derive(Debug, Default)]
struct GroupSeen {
    seen: usize,
    states: BTreeSet<&'static str>,
    verdicts: BTreeSet<&'static str>,
    brief: Vec<Brief>,
}

/// The states and verdicts of an op's listed cases, for the filter.
#[derive(Debug, Default)]
struct OpSeen {
    states: BTreeSet<&'static str>,
    verdicts: BTreeSet<&'static str>,
    passed: usize,
}

/// The HTML format.
#[derive(Debug, Default)]
pub struct Html {
    groups: HashMap<String, GroupSeen>,
    ops: HashMap<String, OpSeen>,
    briefs: usize,
    problems: KeptProblems,
}

impl Html {
    /// An HTML report.
    pub fn new() -> Self {
        Html::default()
    }
}

impl Render for Html {
    fn begin_file(&mut self, _out: &mut dyn Write, _file: &FileInfo) -> io::Result<()> {
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let op = record.op.as_deref().unwrap_or(NO_OP);
        let state = record.state.name();
        let verdict = record.verdict.name();
        let seen = self.ops.entry(op.to_owned()).or_default();
        seen.states.insert(state);
        seen.verdicts.insert(verdict);
        if record.state == CaseState::Passed {
            seen.passed += 1;
        }
        let Some(signature) = &record.signature else {
            return Ok(());
        };
        let group = self.groups.entry(signature.text.clone()).or_default();
        group.seen += 1;
        group.states.insert(state);
        group.verdicts.insert(verdict);
        if group.seen > SHOWN_IN_FULL
            && group.brief.len() < LISTED_IN_BRIEF
            && self.briefs < MAX_BRIEF
        {
            self.briefs += 1;
            group.brief.push(Brief {
                op: op.to_owned(),
                state,
                verdict,
                label: record.label.clone(),
                location: record.location(),
                summary: record.summary.clone(),
            });
        }
        Ok(())
    }

    fn problem(
        &mut self,
        _out: &mut dyn Write,
        file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        self.problems
            .keep(file, problem, MAX_PROBLEMS, STDERR_CHARS);
        Ok(())
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        extra: Option<(&str, Value)>,
    ) -> io::Result<()> {
        page::write(out, self, aggregates, extra)
    }

    fn wants_detail(&self) -> bool {
        false
    }

    fn shows_groups(&self) -> bool {
        true
    }

    fn lists_passing(&self) -> bool {
        false
    }
}

/// Text for HTML, in an element or a quoted attribute: markup characters
/// as references, and control characters (which no text here should hold
/// raw, but a case name may) as their visible pictures.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' | '\t' => out.push(c),
            '\u{0}'..='\u{1f}' => {
                out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}'))
            }
            '\u{7f}' => out.push('\u{2421}'),
            '\u{80}'..='\u{9f}' => out.push('\u{fffd}'),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests;
