//! The report as GitHub-flavoured Markdown, for a job summary or a
//! pull-request comment: a headline (the counts and what the exit status
//! means), a per-op table with a bar each, the files that could not be
//! compared, orphaned ledger entries, the ops that threw one message on
//! every case, the first triaged cases (known bugs the ledger accepts),
//! then the failures grouped by signature, largest first,
//! each with its first cases (where each starts, its one-line summary, and
//! in a `<details>` its input, differences, golden and actual as code
//! blocks). It renders what the sink collected; it compares nothing.
//!
//! Link-free: other people's text stands only in code spans and code
//! blocks ([`text`]), so nothing in it becomes a link, a mention or
//! markup, and every block's body is neutral ([`outside`]). Records are
//! masked already; nothing else is quoted.
//!
//! [`outside`]: crate::base::outside

mod sections;
pub mod text;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::detail::entry_ref_text;
use super::groups::{Group, GroupKey, SHOWN_IN_FULL};
use super::human::{cases, DIFF_LINES};
use super::kept::KeptProblems;
use super::LedgerChanges;
use super::{
    detail, Aggregates, FileInfo, Needs, Problem, RecordFormat, RecordHandlers, ReportOptions,
    NO_OP,
};
use crate::base::outside;
use crate::report::record::{CaseRecord, CaseState};
use text::{code, fence, Document, Part};

/// How many file problems a report keeps to show; past it, only counts.
pub const MAX_PROBLEMS: usize = 100;

/// How much of an oracle's standard error a problem keeps.
const STDERR_CHARS: usize = 4096;

/// How many triaged cases the report names; the rest are counted.
pub const TRIAGED_LISTED: usize = 10;

/// The Markdown format.
pub struct Markdown {
    max_failures: usize,
    /// Each file's case file path, by name.
    paths: HashMap<String, String>,
    /// A lone comparison's case file path.
    lone_path: Option<String>,
    problems: KeptProblems,
    /// The triaged cases: how many, and the first few as list items.
    triaged: usize,
    triaged_listed: Vec<String>,
}

/// An op whose every case failed with the port throwing one message.
pub struct UniformOp {
    /// The op's key in the per-op counts.
    pub op: String,
    /// How many cases.
    pub count: usize,
    /// The message.
    pub message: String,
}

/// The ops whose every case failed with the port throwing one message.
pub fn uniform_ops(aggregates: &Aggregates) -> Vec<UniformOp> {
    aggregates
        .by_op
        .iter()
        .filter_map(|(op, tally)| {
            Some(UniformOp {
                op: op.clone(),
                count: tally.tally.failed,
                message: tally.all_threw()?.to_owned(),
            })
        })
        .collect()
}

/// The failure groups in the order a report shows them: largest first,
/// the groups of ops that threw one message on every case after all the
/// others (those ops are summarized in one line each: the rest is what a
/// porter has to look at). The flag says whether a group is such an op's.
pub fn ordered_groups(aggregates: &Aggregates, uniform: &[UniformOp]) -> Vec<(GroupKey, bool)> {
    let groups = &aggregates.groups;
    let summarized = |group: GroupKey| {
        let op = groups.op(group).unwrap_or(NO_OP);
        uniform.iter().any(|u| u.op == op)
    };
    let (mut first, rest): (Vec<_>, Vec<_>) = groups
        .sorted()
        .into_iter()
        .map(|group| (group, summarized(group)))
        .partition(|(_, summarized)| !summarized);
    first.extend(rest);
    first
}

/// The blocks of one kind of file problem: `block` makes each, under
/// the kind's heading when it is the first, and none for a problem of
/// another kind.
fn problem_kind(
    doc: &mut Document,
    problems: &[&(FileInfo, Problem)],
    block: fn(&FileInfo, &Problem, bool) -> Option<String>,
) {
    for (at, (file, problem)) in problems.iter().enumerate() {
        if let Some(out) = block(file, problem, at == 0) {
            doc.push(Part::Problem, out);
        }
    }
}

/// How a problem's file is named: its path, else its name.
fn problem_file(file: &FileInfo) -> &str {
    file.path.as_deref().or(file.name.as_deref()).unwrap_or("-")
}

/// A file that could not be compared: the error, how many golden cases
/// it left uncompared, and the oracle's standard error.
fn error_block(file: &FileInfo, problem: &Problem, first: bool) -> Option<String> {
    let mut out = String::new();
    if first {
        out.push_str("### Files that could not be compared\n\n");
    }
    let Problem::Error {
        message,
        stderr,
        skipped,
        ..
    } = problem
    else {
        return None;
    };
    let name = problem_file(file);
    let _ = write!(out, "**error** {}: {}", code(name), code(message));
    if *skipped > 0 {
        let _ = write!(out, " ({} not compared)", cases(*skipped, "golden case"));
    }
    out.push_str("\n\n");
    match stderr.as_deref().map(str::trim_end) {
        Some("") => out.push_str("The oracle wrote nothing on standard error.\n\n"),
        Some(text) => {
            let text = crate::judge::signature::cut_chars(text, STDERR_CHARS);
            let _ = write!(
                out,
                "<details><summary>the oracle's standard error</summary>\n\n{}\n</details>\n\n",
                fence("text", &outside::block(&text))
            );
        }
        None => {}
    }
    Some(out)
}

/// A case file's framing, marked when it fails, with what accepts it.
fn framing_block(file: &FileInfo, problem: &Problem, first: bool) -> Option<String> {
    let Problem::Framing {
        found,
        state,
        entry,
        ..
    } = problem
    else {
        return None;
    };
    let mut out = String::new();
    if first {
        out.push_str("### Framing\n\n");
    }
    let name = problem_file(file);
    let word = if state.passes() {
        "framing"
    } else {
        "**framing**"
    };
    let _ = write!(out, "{word} {}: {}", code(name), code(found));
    if let Some(entry) = entry {
        let _ = write!(out, " ({})", code(&entry_ref_text(entry)));
    }
    out.push_str("\n\n");
    Some(out)
}

/// A missing or orphaned golden.
fn golden_block(file: &FileInfo, problem: &Problem, first: bool) -> Option<String> {
    let mut out = String::new();
    if first {
        out.push_str("### Missing and orphaned goldens\n\n");
    }
    let name = problem_file(file);
    match problem {
        Problem::MissingGolden { golden } => {
            let golden = golden.clone();
            let _ = write!(
                out,
                "**missing** {}: no golden at {}\n\n",
                code(name),
                code(&golden)
            );
        }
        Problem::OrphanGolden { golden } => {
            let golden = golden.clone();
            let _ = write!(
                out,
                "**orphaned** {}: a golden without a case file\n\n",
                code(&golden)
            );
        }
        Problem::Error { .. } | Problem::Framing { .. } => return None,
    }
    Some(out)
}

impl Markdown {
    /// A Markdown report.
    pub fn new(options: ReportOptions) -> Self {
        Markdown {
            max_failures: options.max_failures,
            paths: HashMap::new(),
            lone_path: None,
            problems: KeptProblems::default(),
            triaged: 0,
            triaged_listed: Vec::new(),
        }
    }

    /// The file problems kept, and how many more there were.
    pub fn problems(&self) -> (&[(FileInfo, Problem)], usize) {
        (&self.problems.kept, self.problems.left_out)
    }

    /// The case file path of a record's file, as given, when known.
    pub fn path_of(&self, file: &str) -> Option<&str> {
        self.paths
            .get(file)
            .or(self.lone_path.as_ref())
            .map(String::as_str)
    }

    /// Where a case starts: `cases/argv.json:14` (the identity file when
    /// the case file's path is not known).
    pub fn location(&self, record: &CaseRecord) -> String {
        let path = self.path_of(&record.file).unwrap_or(&record.file);
        match record.line {
            Some(line) => format!("{path}:{line}"),
            None => path.to_owned(),
        }
    }

    /// The whole report as a document of blocks (so that a summary can be
    /// cut to a size between them).
    pub fn document(
        &self,
        aggregates: &mut Aggregates,
        changes: Option<&LedgerChanges>,
    ) -> io::Result<Document> {
        let mut doc = Document::default();
        doc.push(Part::Head, sections::headline(aggregates));
        if let Some(changes) = changes {
            doc.push(Part::Changes, sections::ledger_changes(changes));
        }
        sections::op_table(&mut doc, aggregates);
        self.problem_blocks(&mut doc);
        sections::orphans(&mut doc, aggregates);
        let uniform = uniform_ops(aggregates);
        sections::uniform_table(&mut doc, &uniform);
        self.triaged_block(&mut doc);
        self.groups(&mut doc, aggregates, &uniform)?;
        Ok(doc)
    }

    /// The triaged cases: how many, the first [`TRIAGED_LISTED`] (where,
    /// label, the entry's link and reason, each in a code span: a link
    /// stays text), and how many more.
    fn triaged_block(&self, doc: &mut Document) {
        if self.triaged == 0 {
            return;
        }
        let mut out = format!(
            "### Triaged: {}\n\nKnown bugs, not yet fixed: the ledger accepts them until the port \
             is fixed.\n\n",
            cases(self.triaged, "case")
        );
        for item in &self.triaged_listed {
            let _ = writeln!(out, "- {item}");
        }
        let more = self.triaged - self.triaged_listed.len();
        if more > 0 {
            let _ = writeln!(out, "- … and {more} more");
        }
        out.push('\n');
        doc.push(Part::Triaged, out);
    }

    /// The file problems: the files that could not be compared, framing,
    /// then missing and orphaned goldens, each kind under its heading.
    fn problem_blocks(&self, doc: &mut Document) {
        let (errors, others): (Vec<_>, Vec<_>) = self
            .problems
            .kept
            .iter()
            .partition(|(_, problem)| matches!(problem, Problem::Error { .. }));
        let (framings, others): (Vec<_>, Vec<_>) = others
            .into_iter()
            .partition(|(_, problem)| matches!(problem, Problem::Framing { .. }));
        problem_kind(doc, &errors, error_block);
        problem_kind(doc, &framings, framing_block);
        problem_kind(doc, &others, golden_block);
        if self.problems.left_out > 0 {
            doc.push(
                Part::Problem,
                format!(
                    "… and {} more not shown.\n\n",
                    cases(self.problems.left_out, "file problem")
                ),
            );
        }
    }

    fn groups(
        &self,
        doc: &mut Document,
        aggregates: &mut Aggregates,
        uniform: &[UniformOp],
    ) -> io::Result<()> {
        let shown: Vec<GroupKey> = ordered_groups(aggregates, uniform)
            .into_iter()
            .filter_map(|(group, summarized)| (!summarized).then_some(group))
            .collect();
        let groups = &mut aggregates.groups;
        let max = self.max_failures;
        for (at, &key) in shown.iter().take(max).enumerate() {
            let group = groups.load(key)?;
            let mut out = String::new();
            if at == 0 {
                let failing: usize = shown.iter().map(|&group| groups.count(group)).sum();
                let _ = write!(
                    out,
                    "### Failures: {}, {}\n\n",
                    cases(shown.len(), "group"),
                    cases(failing, "case")
                );
            }
            self.group_block(&mut out, at + 1, &group, group.shown());
            doc.push_cases(Part::Group, out, group.count);
        }
        if shown.len() > max {
            let left: usize = shown[max..].iter().map(|&group| groups.count(group)).sum();
            let more = shown.len() - max;
            doc.set_tail(format!(
                "*… {} more failure {} ({}) not shown: `--max-failures {}` shows them.*\n",
                more,
                if more == 1 { "group" } else { "groups" },
                cases(left, "case"),
                shown.len()
            ));
        }
        Ok(())
    }

    fn group_block(&self, out: &mut String, number: usize, group: &Group, shown: &[CaseRecord]) {
        let _ = write!(
            out,
            "#### {number}. {} ({})\n\n",
            code(&group.signature.text),
            cases(group.count, "case")
        );
        for record in shown {
            self.case_block(out, record);
        }
        let more = group.count.saturating_sub(shown.len());
        if more > 0 {
            let names: Vec<String> = group
                .ids
                .iter()
                .skip(shown.len().min(SHOWN_IN_FULL))
                .map(|id| code(&id.to_string()))
                .collect();
            let _ = write!(out, "And {more} more");
            if !names.is_empty() {
                let _ = write!(out, ": {}", names.join(", "));
                if more > names.len() {
                    out.push_str(", …");
                }
            }
            out.push_str(".\n\n");
        }
    }

    fn case_block(&self, out: &mut String, record: &CaseRecord) {
        let tag = match record.state {
            CaseState::New => "new",
            CaseState::Changed => "changed",
            CaseState::Stale => "stale",
            CaseState::Error => "error",
            _ => "failed",
        };
        let _ = write!(
            out,
            "**{tag}** {} {}: {}\n\n",
            code(&self.location(record)),
            code(&record.label),
            code(&record.summary)
        );
        if let Some(entry) = detail::entry_text(record) {
            let _ = write!(out, "Ledger entry: {}\n\n", code(&entry));
        }
        let mut named = Vec::new();
        let mut body = String::new();
        if let Some(input) = &record.input {
            named.push("input");
            let _ = write!(body, "Input:\n\n{}\n", fence("json", &outside::json(input)));
        }
        // The input and the entry are shown above; the rest of the detail
        // is the differing paths (or reasons) and the diff.
        let bare = CaseRecord {
            input: None,
            entry: None,
            ..record.clone()
        };
        let lines = detail::lines(&bare, DIFF_LINES);
        if !lines.is_empty() {
            named.push("differences");
            let _ = write!(
                body,
                "Differences:\n\n{}\n",
                fence("diff", &detail::plain(&lines))
            );
        }
        for (name, element) in [("golden", &record.golden), ("actual", &record.actual)] {
            if let Some(element) = element {
                named.push(name);
                let title = if name == "golden" { "Golden" } else { "Actual" };
                let _ = write!(
                    body,
                    "{title}:\n\n{}\n",
                    fence("json", &outside::json(&detail::pretty(element)))
                );
            }
        }
        if !body.is_empty() {
            let summary = match named.split_last() {
                Some((last, [])) => (*last).to_owned(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            };
            let _ = write!(
                out,
                "<details><summary>{summary}</summary>\n\n{body}</details>\n\n"
            );
        }
    }
}

impl RecordHandlers for Markdown {
    fn begin_file(&mut self, _out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        match (&file.name, &file.path) {
            (Some(name), Some(path)) => {
                self.paths.insert(name.clone(), path.clone());
            }
            (None, path) => self.lone_path = path.clone(),
            _ => {}
        }
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        if record.is_triaged() {
            self.triaged += 1;
            if self.triaged_listed.len() < TRIAGED_LISTED {
                let entry = detail::entry_text(record).unwrap_or_default();
                let item = format!(
                    "{} {}: {}",
                    code(&self.location(record)),
                    code(&record.label),
                    code(&entry)
                );
                self.triaged_listed.push(item);
            }
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
        let doc = self.document(aggregates, changes)?;
        out.write_all(doc.text().as_bytes())
    }
}

impl Markdown {
    /// The format, with what it needs of the records.
    pub fn format(options: ReportOptions) -> RecordFormat {
        RecordFormat::new(Markdown::new(options), Needs::FROM_GROUPS)
    }
}
