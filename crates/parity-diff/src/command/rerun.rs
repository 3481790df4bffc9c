//! `--rerun-failed REPORT.json`: the cases a JSON report says are not
//! done, by identity, for a run to take again (`run` and `accept` now; a
//! command that walks divergences can take the same selection): every
//! case that neither passed nor was accepted, and the triaged ones (known
//! bugs, which a fix is rerun for), unless `--rerun-only-failed` keeps
//! to the first ([`Scope`]). The run says which kinds it took.
//!
//! The report is read through the one JSON report reader
//! ([`ReportReader`]), so every format version it reads is read here. A
//! case is taken again when a row of [`TAKEN`] says so; a file the
//! report could not compare as a whole (a missing golden, a file the
//! oracle failed on with no case to blame, one that could not be read)
//! and a file with results known only by position (an extra result, a
//! golden element past the cases) are taken whole, since no identity
//! names what failed there. An orphaned golden is taken by its name: a
//! rerun looks for it again. Orphaned ledger entries and rules name no
//! case to run: a full run checks them.
//!
//! Identities are those of [`identity`](crate::corpus::identity): the
//! file relative to the cases directory and the case's name, or the hash
//! of its bytes. So a case renamed since the report, or whose file moved,
//! no longer exists for the rerun, which counts it as such.
//!
//! The report is also the last recorded run: the cases it saw crash,
//! time out or write invalid output run apart from the rest
//! ([`known_crash`](crate::exec::known_crash)), as the ledger's known
//! crashes do, whether it takes them again or not.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use crate::base::error::InputError;
pub use crate::corpus::rerun::{FileRerun, RerunCount, RerunFiles};
use crate::report::json::{Item, ReportReader};
use crate::report::record::{CaseRecord, CaseState, VerdictKind};
use crate::report::Problem;

/// One row of [`TAKEN`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taken {
    /// A case in this state.
    State(CaseState),
    /// A case with this verdict, unless an entry or a rule accepted it.
    Verdict(VerdictKind),
}

/// What a rerun takes from a report: every case that neither passed nor
/// was accepted. The states cover every such case a report writes; the
/// verdict rows say the same of the oracle's failures and missing
/// results whatever state a report gives them, so that a verdict added
/// later (one for a case whose results differ between runs, say) is one
/// more row here.
pub const TAKEN: [Taken; 10] = [
    Taken::State(CaseState::Failed),
    Taken::State(CaseState::New),
    Taken::State(CaseState::Changed),
    Taken::State(CaseState::Stale),
    Taken::State(CaseState::Error),
    Taken::Verdict(VerdictKind::Missing),
    Taken::Verdict(VerdictKind::Crash),
    Taken::Verdict(VerdictKind::Timeout),
    Taken::Verdict(VerdictKind::InvalidOutput),
    Taken::Verdict(VerdictKind::Nondeterministic),
];

/// Whether a report's case is taken again ([`TAKEN`]).
pub fn is_taken(state: CaseState, verdict: VerdictKind) -> bool {
    TAKEN.iter().any(|row| match *row {
        Taken::State(taken) => state == taken,
        Taken::Verdict(taken) => verdict == taken && state != CaseState::Accepted,
    })
}

/// Which of a report's cases a rerun takes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Scope {
    /// What is not done: the cases [`TAKEN`] names, and the triaged.
    #[default]
    NotDone,
    /// `--rerun-only-failed`: the cases [`TAKEN`] names only.
    Failed,
}

/// The kind a rerun takes a report's case as (its state's name, or
/// `triaged`), or `None` when it does not take it.
pub fn taken_kind(record: &CaseRecord, scope: Scope) -> Option<&'static str> {
    if is_taken(record.state, record.verdict) {
        Some(record.state.name())
    } else if scope == Scope::NotDone && record.is_triaged() {
        Some("triaged")
    } else {
        None
    }
}

/// What a report says to run again, by the suite its files name (`None`
/// for a report without suites).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rerun {
    source: String,
    scope: Scope,
    suites: BTreeMap<Option<String>, RerunFiles>,
}

/// The commands whose JSON reports name cases of a corpus.
const READ_FROM: [&str; 3] = ["run", "merge", "accept"];

fn in_report(source: &str, error: InputError) -> InputError {
    InputError::new(format!("--rerun-failed {source}: {}", error.message))
}

impl Rerun {
    /// Reads the report at `path`, named `name` in messages (the path as
    /// given): an input error (exit status 2) when it cannot be read, or
    /// is not the report of a run.
    pub fn read(path: &Path, name: &str) -> Result<Rerun, InputError> {
        Rerun::read_scoped(path, name, Scope::default())
    }

    /// [`Rerun::read`], taking the cases `scope` says.
    pub fn read_scoped(path: &Path, name: &str, scope: Scope) -> Result<Rerun, InputError> {
        let (reader, head) = ReportReader::open(path).map_err(|e| in_report(name, e))?;
        Rerun::from_reader(reader, &head.command, (name, scope))
    }

    /// Reads a report from `source`, named `name` in messages.
    pub fn from_bytes(source: impl Read, name: &str) -> Result<Rerun, InputError> {
        Rerun::from_bytes_scoped(source, name, Scope::default())
    }

    /// [`Rerun::from_bytes`], taking the cases `scope` says.
    pub fn from_bytes_scoped(
        source: impl Read,
        name: &str,
        scope: Scope,
    ) -> Result<Rerun, InputError> {
        let (reader, head) = ReportReader::new(source, name).map_err(|e| in_report(name, e))?;
        Rerun::from_reader(reader, &head.command, (name, scope))
    }

    fn from_reader<R: Read>(
        mut reader: ReportReader<R>,
        command: &str,
        (source, scope): (&str, Scope),
    ) -> Result<Rerun, InputError> {
        if !READ_FROM.contains(&command) {
            return Err(InputError::new(format!(
                "--rerun-failed {source}: a `{command}` report names no case of a corpus; \
                 it takes the JSON report of run, merge or accept (--format json)"
            )));
        }
        let mut rerun = Rerun {
            source: source.to_owned(),
            scope,
            suites: BTreeMap::new(),
        };
        let mut file: Option<(Option<String>, String)> = None;
        while let Some(item) = reader.next_item().map_err(|e| in_report(source, e))? {
            match item {
                Item::File(head) => {
                    let Some(name) = head.info.name.clone() else {
                        file = None;
                        continue;
                    };
                    let taken = rerun.suite(head.info.suite.clone());
                    match head.problem {
                        Some(Problem::OrphanGolden { .. }) => {
                            taken.orphans.insert(name.clone());
                        }
                        Some(Problem::MissingGolden { .. } | Problem::Error { .. }) => {
                            taken.take(&name, FileRerun::Whole);
                        }
                        // The framing is the whole output's: every case
                        // runs again to see it.
                        Some(Problem::Framing { state, .. }) if !state.passes() => {
                            taken.take(&name, FileRerun::Whole);
                        }
                        Some(Problem::Framing { .. }) | None => {}
                    }
                    file = Some((head.info.suite, name));
                }
                Item::Case(record) => {
                    if let Some((suite, name)) = &file {
                        rerun.case(suite.clone(), name, &record);
                    }
                }
                Item::EndFile => file = None,
                _ => {}
            }
        }
        Ok(rerun)
    }

    fn suite(&mut self, suite: Option<String>) -> &mut RerunFiles {
        let source = self.source.clone();
        self.suites.entry(suite).or_insert_with(|| RerunFiles {
            source,
            ..RerunFiles::default()
        })
    }

    fn case(&mut self, suite: Option<String>, file: &str, record: &CaseRecord) {
        if record.line.is_some()
            && matches!(
                record.verdict,
                VerdictKind::Crash | VerdictKind::Timeout | VerdictKind::InvalidOutput
            )
        {
            self.suite(suite.clone()).crashed.insert(record.id.clone());
        }
        let Some(kind) = taken_kind(record, self.scope) else {
            return;
        };
        let taken = self.suite(suite);
        *taken.kinds.entry(kind).or_default() += 1;
        // A record without a line is known by its position only (an
        // extra result, a golden element past the cases): only a run of
        // the whole file compares those again.
        if record.line.is_none() || record.verdict == VerdictKind::Extra {
            taken.take(file, FileRerun::Whole);
        } else {
            taken.take_case(file, record.id.key.clone());
        }
    }

    /// What the run of `suite` takes again: the report's part for that
    /// suite and the part of its files that name none; for a run without
    /// a suite, every part.
    pub fn for_suite(&self, suite: Option<&str>) -> RerunFiles {
        let mut files = RerunFiles {
            source: self.source.clone(),
            ..RerunFiles::default()
        };
        for (named, part) in &self.suites {
            if suite.is_none() || named.is_none() || named.as_deref() == suite {
                files.join(part);
            }
        }
        files
    }
}

#[cfg(test)]
#[path = "rerun_tests.rs"]
mod tests;
