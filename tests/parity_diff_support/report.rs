//! A JSON report read whole through parity-diff's own reader
//! (`diff::report::json::ReportReader`), for tests: every test reads
//! reports this way, never by hand, so a test reads what `merge` and
//! `delta` read. The bytes themselves are the snapshots' to check.

use parity_diff::ledger::rules::RuleFinding;
use parity_diff::ledger::Entry;
use parity_diff::report::json::{
    FileHead, GroupInfo, Item, LedgerChanges, ReportHead, ReportReader, Summary,
};
use parity_diff::report::Tally;

// What tests name in assertions; each test uses some.
#[allow(unused_imports)]
pub use parity_diff::corpus::identity::{CaseId, CaseKey};
#[allow(unused_imports)]
pub use parity_diff::report::json::Version;
#[allow(unused_imports)]
pub use parity_diff::report::record::{CaseRecord, CaseState, EntryState, VerdictKind};
#[allow(unused_imports)]
pub use parity_diff::report::{Problem, Totals};

/// One file of a report, with its cases.
#[derive(Debug)]
pub struct ReportFile {
    /// Its name, path, counts and problem.
    pub head: FileHead,
    /// Its cases, in order.
    pub cases: Vec<CaseRecord>,
}

impl ReportFile {
    /// The name (`None` for a lone `compare`).
    pub fn name(&self) -> Option<&str> {
        self.head.info.name.as_deref()
    }

    /// Each case's verdict and state, by name.
    pub fn verdicts(&self) -> Vec<(&'static str, &'static str)> {
        self.cases
            .iter()
            .map(|case| (case.verdict.name(), case.state.name()))
            .collect()
    }

    /// The case at position `index` of the case file.
    pub fn case_at(&self, index: usize) -> &CaseRecord {
        self.cases
            .iter()
            .find(|case| case.index == index)
            .unwrap_or_else(|| panic!("no case #{index} in {:?}", self.name()))
    }
}

/// A whole report.
#[derive(Debug)]
pub struct Report {
    /// What it says before its files.
    pub head: ReportHead,
    /// Its files, in order.
    pub files: Vec<ReportFile>,
    /// `orphanedEntries`.
    pub orphaned: Vec<Entry>,
    /// `groups`, largest first.
    pub groups: Vec<GroupInfo>,
    /// `byOp`, in order.
    pub by_op: Vec<(String, Tally)>,
    /// `ledgerChanges` (`accept`).
    pub ledger_changes: Option<LedgerChanges>,
    /// `shardRules` (a shard's report with a ledger).
    pub shard_rules: Option<Vec<RuleFinding>>,
    /// The summary.
    pub summary: Summary,
}

impl Report {
    /// Reads a report; panics, quoting it, when it is not one.
    pub fn read(text: &str) -> Report {
        Report::try_read(text.as_bytes()).unwrap_or_else(|error| panic!("{error}:\n{text}"))
    }

    /// Reads a report, or says why it is not one.
    pub fn try_read(bytes: &[u8]) -> Result<Report, String> {
        let (mut reader, head) =
            ReportReader::new(bytes, "the report").map_err(|error| error.message)?;
        let mut report = Report {
            head,
            files: Vec::new(),
            orphaned: Vec::new(),
            groups: Vec::new(),
            by_op: Vec::new(),
            ledger_changes: None,
            shard_rules: None,
            summary: Summary::default(),
        };
        let mut summary = None;
        while let Some(item) = reader.next_item().map_err(|error| error.message)? {
            match item {
                Item::File(head) => report.files.push(ReportFile {
                    head,
                    cases: Vec::new(),
                }),
                Item::Case(record) => match report.files.last_mut() {
                    Some(file) => file.cases.push(*record),
                    None => return Err("a case outside any file".into()),
                },
                Item::EndFile => {}
                Item::OrphanedEntry(entry) => report.orphaned.push(*entry),
                Item::Group(group) => report.groups.push(group),
                Item::RuleFinding(_) => {}
                Item::ByOp(by_op) => report.by_op = by_op,
                Item::LedgerChanges(changes) => report.ledger_changes = Some(changes),
                Item::ShardRules(rules) => report.shard_rules = Some(rules),
                Item::Summary(read) => summary = Some(read),
            }
        }
        report.summary = summary.ok_or("no summary")?;
        Ok(report)
    }

    /// The summary's counts.
    pub fn totals(&self) -> Totals {
        self.summary.totals
    }

    /// The file named `name`.
    pub fn file(&self, name: &str) -> &ReportFile {
        self.files
            .iter()
            .find(|file| file.name() == Some(name))
            .unwrap_or_else(|| panic!("no file {name} in the report"))
    }

    /// Every case, file after file.
    pub fn cases(&self) -> impl Iterator<Item = &CaseRecord> {
        self.files.iter().flat_map(|file| &file.cases)
    }

    /// The case of `file` named `name`.
    pub fn case(&self, file: &str, name: &str) -> &CaseRecord {
        self.cases()
            .find(|case| case.file == file && case.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no case {file} {name:?} in the report"))
    }

    /// `byOp`'s counts of `op`.
    pub fn op(&self, op: &str) -> Tally {
        self.by_op
            .iter()
            .find(|(name, _)| name == op)
            .map(|(_, tally)| *tally)
            .unwrap_or_else(|| panic!("no op {op} in byOp: {:?}", self.by_op))
    }
}

/// `Tally { passed, failed, accepted }`, in the report's order.
pub fn tally(passed: usize, failed: usize, accepted: usize) -> Tally {
    Tally {
        passed,
        accepted,
        failed,
    }
}

/// The identity `{"file","name"}`.
pub fn named(file: &str, name: &str) -> CaseId {
    CaseId {
        file: file.into(),
        key: CaseKey::Name(name.into()),
    }
}
