//! The JSON report, format version 1: one object, members in this order
//! (docs/REPORT.md describes each):
//!
//! ```text
//! {"version":1,"command":"run","shard":null | {"index","count","from","to"},
//!  "corpus":null | {"fingerprint","caseFiles","goldenFiles","cases","caseDir",
//!                   "goldenDir","filter","ops"},
//!  "ledger":null | {"path","fingerprint",
//!                   "entries":[{"file","name"|"hash","op","entry","fingerprint"},…]},
//!  "files":[{"name","path","passed","failed","accepted",
//!            ["problem","golden"|"message","stderr","skipped",] "cases":[…]}],
//!  "orphanedEntries":[{"id","op","state","reason","fingerprint"}],
//!  "groups":[{"signature","op","kind","count","cases":[ids of the first 8]}],
//!  "byOp":{"cliArgs":{"passed","failed","accepted"},…},
//!  "summary":{"passed","failed","accepted","triaged","new","changed","stale",
//!             "orphaned","skipped","errors","exitCode"}}
//! ```
//!
//! Every case is listed, as its record's case object
//! ([`CaseRecord::to_json`]). A file's cases are spooled until the file
//! ends, since its counts come first.

use std::io::{self, Write};

use super::spool::Spool;
use super::{Aggregates, FileInfo, Problem, Render, RunInfo, Tally};
use crate::diff::record::{entry_json, id_json, CaseRecord, EntryRef};
use crate::js::{write_value, Object, Value};

/// The JSON format.
#[derive(Default)]
pub struct Json {
    run: RunInfo,
    started: bool,
    any_file: bool,
    cases: Spool,
    any_case: bool,
    problem: Option<Object>,
}

fn count(value: usize) -> Value {
    Value::Number(value as f64)
}

fn text(value: Option<&str>) -> Value {
    value.map_or(Value::Null, Value::from)
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
        let head = self.run.head_json();
        let mut bytes = Vec::new();
        write_value(&Value::Object(head), &mut bytes);
        // Reopen the object to stream the files array.
        bytes.pop();
        bytes.extend_from_slice(b",\"files\":[");
        out.write_all(&bytes)
    }
}

impl Render for Json {
    fn prints_fingerprints(&self) -> bool {
        true
    }

    fn begin_file(&mut self, out: &mut dyn Write, _file: &FileInfo) -> io::Result<()> {
        self.start(out)?;
        self.any_case = false;
        self.problem = None;
        Ok(())
    }

    fn case(&mut self, _out: &mut dyn Write, record: &CaseRecord) -> io::Result<()> {
        let mut bytes = Vec::new();
        if self.any_case {
            bytes.push(b',');
        }
        self.any_case = true;
        record.write_json(&mut bytes);
        self.cases.append(&bytes)?;
        Ok(())
    }

    fn problem(
        &mut self,
        _out: &mut dyn Write,
        _file: &FileInfo,
        problem: &Problem,
    ) -> io::Result<()> {
        self.problem = Some(match problem {
            Problem::MissingGolden { golden } => Object::new()
                .with("problem", "missing golden")
                .with("golden", golden.display().to_string()),
            Problem::OrphanGolden { golden } => Object::new()
                .with("problem", "orphaned golden")
                .with("golden", golden.display().to_string()),
            Problem::Error {
                message,
                stderr,
                skipped,
            } => Object::new()
                .with("problem", "error")
                .with("message", message.as_str())
                .with("stderr", text(stderr.as_deref()))
                .with("skipped", count(*skipped)),
        });
        Ok(())
    }

    fn end_file(&mut self, out: &mut dyn Write, file: &FileInfo, tally: &Tally) -> io::Result<()> {
        let mut head = Object::new()
            .with("name", text(file.name.as_deref()))
            .with("path", text(file.path.as_deref()))
            .with("passed", count(tally.passed))
            .with("failed", count(tally.failed))
            .with("accepted", count(tally.accepted));
        if let Some(problem) = self.problem.take() {
            for (key, value) in problem.into_entries() {
                head.insert(key, value);
            }
        }
        let mut bytes = Vec::new();
        if self.any_file {
            bytes.push(b',');
        }
        self.any_file = true;
        write_value(&Value::Object(head), &mut bytes);
        bytes.pop();
        bytes.extend_from_slice(b",\"cases\":[");
        out.write_all(&bytes)?;
        self.cases.drain_to(out)?;
        out.write_all(b"]}")
    }

    fn finish(
        &mut self,
        out: &mut dyn Write,
        aggregates: &mut Aggregates,
        extra: Option<(&str, Value)>,
    ) -> io::Result<()> {
        self.start(out)?;
        let orphaned: Vec<Value> = aggregates
            .orphaned
            .iter()
            .map(|entry| {
                let state = entry_json(&EntryRef {
                    state: entry.state.clone(),
                    reason: entry.reason.clone(),
                });
                Value::Object(
                    Object::new()
                        .with("id", id_json(&entry.id))
                        .with("op", text(entry.op.as_deref()))
                        .with("entry", state)
                        .with("fingerprint", entry.fingerprint.as_str()),
                )
            })
            .collect();
        let by_op: Object = aggregates
            .by_op
            .iter()
            .map(|(op, tally)| {
                let tally = tally.tally;
                (
                    op.as_str(),
                    Value::Object(
                        Object::new()
                            .with("passed", count(tally.passed))
                            .with("failed", count(tally.failed))
                            .with("accepted", count(tally.accepted)),
                    ),
                )
            })
            .collect();
        let totals = &aggregates.totals;
        let summary = Object::new()
            .with("passed", count(totals.passed))
            .with("failed", count(totals.failed))
            .with("accepted", count(totals.accepted))
            .with("triaged", count(totals.triaged))
            .with("new", count(totals.new))
            .with("changed", count(totals.changed))
            .with("stale", count(totals.stale))
            .with("orphaned", count(totals.orphaned))
            .with("skipped", count(totals.skipped))
            .with("errors", count(totals.errors))
            .with("exitCode", f64::from(totals.exit_code()));
        // The groups are written one at a time: a run may have as many as
        // it has failures, and they are read back from the spool.
        let mut bytes = b"],\"orphanedEntries\":".to_vec();
        write_value(&Value::Array(orphaned), &mut bytes);
        bytes.extend_from_slice(b",\"groups\":[");
        let groups = &mut aggregates.groups;
        for (n, key) in groups.sorted().into_iter().enumerate() {
            let group = groups.load(key)?;
            if n > 0 {
                bytes.push(b',');
            }
            let group = Object::new()
                .with("signature", group.signature.text.as_str())
                .with("op", text(group.signature.op.as_deref()))
                .with("kind", group.signature.kind.as_str())
                .with("count", count(group.count))
                .with("cases", group.ids.iter().map(id_json).collect::<Vec<_>>());
            write_value(&Value::Object(group), &mut bytes);
            if bytes.len() >= 64 * 1024 {
                out.write_all(&bytes)?;
                bytes.clear();
            }
        }
        bytes.push(b']');
        let mut tail = Object::new().with("byOp", by_op);
        if let Some((key, value)) = extra {
            tail.insert(key, value);
        }
        tail.insert("summary", Value::Object(summary));
        let at = bytes.len();
        write_value(&Value::Object(tail), &mut bytes);
        // The tail's own braces: its opening one becomes a comma.
        bytes[at] = b',';
        bytes.push(b'\n');
        out.write_all(&bytes)
    }
}
