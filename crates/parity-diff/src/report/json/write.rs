//! The JSON report's one writer, a records format
//! ([`RecordHandlers`]): the head
//! when the first file starts, each file with its cases, then the tail
//! (see the [module](super) for the layout).
//!
//! Every case is listed, as its case object ([`write_case_of`]). A file's
//! cases are spooled until the file ends, since its counts come first.
//! Every piece is neutral ([`outside::json_bytes`]) before it is
//! written: the characters `JSON.stringify` leaves raw in strings (DEL,
//! C1, bidi controls, U+2028, U+2029) and the `[` of `##[` are `\uXXXX`
//! escapes, so the report is the same JSON value, safe on a terminal or
//! in a CI log.

use std::io::{self, Write};

use super::case::{write_case_of, write_entry, write_strings, Members};
use super::head::write_head;
use super::tail::{
    ledger_changes_json, tally_json, write_group, write_orphaned, write_rule_findings,
    write_shard_rules, write_summary,
};
use super::LedgerChanges;
use crate::base::outside;
use crate::report::record::CaseRecord;
use crate::report::spool::Spool;
use crate::report::{
    Aggregates, FileInfo, Needs, Problem, RecordFormat, RecordHandlers, RunInfo, Tally,
};
use js_exact::{write_value, Object, Value};

/// The groups are written in pieces of about this size: a run may have
/// as many as it has failures.
const PIECE: usize = 64 * 1024;

/// The JSON format.
#[derive(Default)]
pub struct Json {
    run: RunInfo,
    started: bool,
    any_file: bool,
    cases: Spool,
    any_case: bool,
    problem: Option<Problem>,
    /// The current file's warnings (see [`Render::warning`]).
    warnings: Vec<String>,
    /// The current file's suite.
    suite: Option<String>,
}

impl Json {
    /// A JSON report of this run.
    pub fn new(run: RunInfo) -> Self {
        Json {
            run,
            ..Json::default()
        }
    }

    fn start(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.started {
            return Ok(());
        }
        self.started = true;
        let mut bytes = Vec::new();
        let mut members = Members::open(&mut bytes);
        write_head(&self.run, &mut members);
        // The object stays open: the files array is streamed.
        members.with("files", |out| out.push(b'['));
        out.write_all(&outside::json_bytes(&bytes))
    }
}

/// A file's problem, as members of its object.
fn write_problem(problem: &Problem, members: &mut Members<'_>) {
    match problem {
        Problem::MissingGolden { golden } => {
            members.str("problem", "missing golden");
            members.str("golden", &golden.clone());
        }
        Problem::OrphanGolden { golden } => {
            members.str("problem", "orphaned golden");
            members.str("golden", &golden.clone());
        }
        Problem::Error {
            message,
            stderr,
            skipped,
            port,
        } => {
            members.str("problem", "error");
            members.str("message", message);
            members.str_or_null("stderr", stderr.as_deref());
            members.count("skipped", *skipped);
            if *port {
                members.value("port", &Value::Bool(true));
            }
        }
        Problem::Framing {
            found,
            state,
            entry,
            ..
        } => {
            members.str("problem", "framing");
            members.str("message", found);
            members.str("state", state.name());
            if let Some(entry) = entry {
                members.with("entry", |out| write_entry(entry, out));
            }
        }
    }
}

impl RecordHandlers for Json {
    fn begin_file(&mut self, out: &mut dyn Write, file: &FileInfo) -> io::Result<()> {
        self.start(out)?;
        self.suite.clone_from(&file.suite);
        self.any_case = false;
        self.problem = None;
        self.warnings.clear();
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let mut bytes = Vec::new();
        if self.any_case {
            bytes.push(b',');
        }
        self.any_case = true;
        write_case_of(record, self.suite.as_deref(), &mut bytes);
        self.cases.append(&outside::json_bytes(&bytes))?;
        Ok(())
    }

    fn problem(
        &mut self,
        _out: &mut dyn Write,
        _file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        self.problem = Some(problem.clone());
        Ok(())
    }

    fn warning(&mut self, _out: &mut dyn Write, _file: &FileInfo, text: &str) -> io::Result<()> {
        self.warnings.push(text.to_owned());
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, file: &FileInfo, tally: &Tally) -> io::Result<()> {
        let mut bytes = Vec::new();
        if self.any_file {
            bytes.push(b',');
        }
        self.any_file = true;
        let mut members = Members::open(&mut bytes);
        members.str_or_null("name", file.name.as_deref());
        members.str_or_null("path", file.path.as_deref());
        members.str_if("suite", file.suite.as_deref());
        members.count("passed", tally.passed);
        members.count("failed", tally.failed);
        members.count("accepted", tally.accepted);
        if let Some(problem) = self.problem.take() {
            write_problem(&problem, &mut members);
        }
        if !self.warnings.is_empty() {
            let warnings = &self.warnings;
            members.with("warnings", |out| write_strings(warnings, out));
            self.warnings.clear();
        }
        // The object stays open: its cases come from the spool.
        members.with("cases", |out| out.push(b'['));
        out.write_all(&outside::json_bytes(&bytes))?;
        self.cases.drain_to(out)?;
        out.write_all(b"]}")
    }

    fn end(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        changes: Option<&LedgerChanges>,
    ) -> io::Result<()> {
        self.start(out)?;
        let mut bytes = b"],\"orphanedEntries\":".to_vec();
        write_orphaned(&aggregates.orphaned, &mut bytes);
        bytes.extend_from_slice(b",\"ledgerRules\":");
        write_rule_findings(&aggregates.rules, &mut bytes);
        if let Some(shard_rules) = &aggregates.shard_rules {
            bytes.extend_from_slice(b",\"shardRules\":");
            write_shard_rules(shard_rules, &mut bytes);
        }
        bytes.extend_from_slice(b",\"groups\":[");
        let groups = &mut aggregates.groups;
        for (n, key) in groups.sorted().into_iter().enumerate() {
            let group = groups.load(key)?;
            if n > 0 {
                bytes.push(b',');
            }
            write_group(&group.signature, group.count, &group.ids, &mut bytes);
            if bytes.len() >= PIECE {
                out.write_all(&outside::json_bytes(&bytes))?;
                bytes.clear();
            }
        }
        bytes.extend_from_slice(b"],\"byOp\":");
        // An object, so that its keys stand in JavaScript property
        // order (an op named `10` before one named `b`), as everywhere.
        let by_op: Object = aggregates
            .by_op
            .iter()
            .map(|(op, tally)| (op.as_str(), tally_json(&tally.tally)))
            .collect();
        write_value(&Value::Object(by_op), &mut bytes);
        bytes.extend_from_slice(b",\"bySuite\":");
        let by_suite: Object = aggregates
            .by_suite
            .iter()
            .map(|(suite, tally)| (suite.as_str(), tally_json(tally)))
            .collect();
        write_value(&Value::Object(by_suite), &mut bytes);
        if let Some(changes) = changes {
            bytes.extend_from_slice(b",\"ledgerChanges\":");
            write_value(&ledger_changes_json(changes), &mut bytes);
        }
        bytes.extend_from_slice(b",\"summary\":");
        write_summary(&aggregates.totals, &mut bytes);
        bytes.extend_from_slice(b"}\n");
        out.write_all(&outside::json_bytes(&bytes))
    }
}

impl Json {
    /// The format, with what it needs of the records.
    pub fn format(run: RunInfo) -> RecordFormat {
        RecordFormat::new(
            Json::new(run),
            Needs {
                fingerprints: true,
                ..Needs::default()
            },
        )
    }
}
