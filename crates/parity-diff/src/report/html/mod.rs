//! The HTML report: one self-contained page (inline style and script, no
//! network, no external assets) rendered from the same records and
//! aggregates as every other format.
//!
//! It shows the summary counts, a stacked bar per op (passed, accepted,
//! failed), the ops whose every case failed with the port throwing one
//! message, the failures grouped by signature (each group's first cases
//! in full: input, golden and actual side by side with the differing
//! paths marked; then a bounded list of more cases in brief), file-level
//! errors, the triaged and the other accepted cases, orphaned ledger
//! entries, and a filter (op, state, verdict,
//! free text) that the page also takes from its URL fragment
//! (`report.html#op=sum&state=new&q=text`).
//!
//! Nothing is written until the run ends, and what is kept meanwhile is
//! bounded: a few rows in brief per group, the first file-level problems.
//! The page as a whole stays under [`SIZE_LIMIT`]; past it, cases are
//! shown in brief and then groups left out, and the page says so.

mod accepted;
mod case;
mod failures;
mod page;
pub mod pane;
mod parts;
mod sections;

use std::collections::{BTreeSet, HashMap};
use std::io::{self, Write};

use super::groups::SHOWN_IN_FULL;
use super::kept::KeptProblems;
use super::{Aggregates, FileInfo, Needs, Problem, RecordFormat, RecordHandlers};
use crate::base::outside;
use crate::report::record::{CaseRecord, CaseState};
use crate::report::LedgerChanges;

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
    accepted: accepted::Accepted,
}

impl Html {
    /// An HTML report.
    pub fn new() -> Self {
        Html::default()
    }
}

impl RecordHandlers for Html {
    fn begin_file(&mut self, _out: &mut dyn Write, _file: &FileInfo) -> io::Result<()> {
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let op = super::op_key(record);
        let state = record.state.name();
        let verdict = record.verdict.name();
        let seen = self.ops.entry(op.to_owned()).or_default();
        seen.states.insert(state);
        seen.verdicts.insert(verdict);
        if record.state == CaseState::Passed {
            seen.passed += 1;
        }
        if record.is_triaged() {
            seen.states.insert("triaged");
        }
        self.accepted.keep(record);
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

    fn end(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        changes: Option<&LedgerChanges>,
    ) -> io::Result<()> {
        page::write(out, self, aggregates, changes)
    }
}

impl Html {
    /// The format, with what it needs of the records.
    pub fn format() -> RecordFormat {
        RecordFormat::new(Html::new(), Needs::FROM_GROUPS)
    }
}

/// Markup characters as references, for an element or a quoted
/// attribute; the text is neutral already.
fn markup(neutral: &str) -> String {
    let mut out = String::with_capacity(neutral.len() + 8);
    for c in neutral.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Text for HTML, in an element or a quoted attribute: in the report
/// notation ([`outside::text`]: control characters, line breaks and the
/// bidi controls a name may hold show as `\u{1b}`), markup characters as
/// references.
pub fn esc(text: &str) -> String {
    markup(&outside::text(text))
}

/// JSON text (an input, a value, a line of an element) for HTML: in
/// JSON's notation ([`outside::json`]), markup characters as references.
pub fn esc_json(text: &str) -> String {
    markup(&outside::json(text))
}

/// Multi-line outside text (a stderr) for a `<pre>`: its lines, each
/// neutral ([`outside::lines`]), markup characters as references.
pub fn esc_lines(text: &str) -> String {
    let lines: Vec<_> = outside::lines(text).collect();
    markup(&lines.join("\n"))
}

#[cfg(test)]
mod tests;
