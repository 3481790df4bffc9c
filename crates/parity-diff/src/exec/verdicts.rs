//! A run's verdicts: each pair of a golden's and a result's elements
//! judged (identical, same value, different, missing, extra), weighed
//! against the ledger in use, and made a record or only counted; and the
//! ledger in use, which notes the cases it met so that a full run can name
//! the entries whose case is gone. `run`, `accept` and `compare` judge
//! through here, whether a file is held in memory or streamed.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::corpus::cases::{Case, CaseFile};
use crate::corpus::identity::{position_id, CaseId};
use crate::judge::compare::{compare_elements_as, Comparison, Judging, Verdict};
use crate::ledger::rules::{RuleFinding, RuleProblem};
use crate::ledger::{Entry, Ledger};
use crate::report::record::build::{self, Compared};
use crate::report::record::CaseState;
use crate::report::{Consumer, LedgerInfo};

/// A ledger in use, and what a run learns about its entries.
#[derive(Debug)]
pub struct LedgerUse {
    /// Where it is.
    pub path: PathBuf,
    /// Its entries.
    pub ledger: Ledger,
    /// Entries whose case was found.
    seen: HashSet<CaseId>,
    /// Files whose cases could not be read: their entries are not
    /// orphaned, only unknown.
    unknown: HashSet<String>,
    /// Per rule: whether a case in its scope was found.
    rule_scoped: Vec<bool>,
    /// Per rule: whether it decided a case.
    rule_used: Vec<bool>,
}

impl LedgerUse {
    /// A ledger at `path`.
    pub fn new(path: PathBuf, ledger: Ledger) -> Self {
        let rules = ledger.rules().len();
        LedgerUse {
            path,
            ledger,
            seen: HashSet::new(),
            unknown: HashSet::new(),
            rule_scoped: vec![false; rules],
            rule_used: vec![false; rules],
        }
    }

    /// Opens the ledger: `explicit` (`--ledger`) must exist unless
    /// `create`; otherwise `default` is used when it exists (or, with
    /// `create`, made).
    pub fn open(
        explicit: Option<&Path>,
        default: &Path,
        create: bool,
    ) -> Result<Option<Self>, InputError> {
        let (path, given) = match explicit {
            Some(path) => (path.to_path_buf(), true),
            None => (default.to_path_buf(), false),
        };
        if path.exists() {
            return Ok(Some(LedgerUse::new(path.clone(), Ledger::load(&path)?)));
        }
        if create {
            return Ok(Some(LedgerUse::new(path, Ledger::default())));
        }
        if given {
            return Err(InputError::new(format!(
                "the ledger {} does not exist (`parity-diff accept` creates it)",
                path.display()
            )));
        }
        Ok(None)
    }

    /// What reports say about the ledger.
    pub fn info(&self) -> LedgerInfo {
        LedgerInfo {
            path: self.path.display().to_string(),
            fingerprint: self.ledger.fingerprint(),
            entries: self.ledger.entries().cloned().collect(),
        }
    }

    /// Notes the cases of a file that was read.
    pub fn saw_file(&mut self, file: &CaseFile) {
        if !file.is_array {
            self.unknown.insert(file.file.clone());
            return;
        }
        let scoping = self.scoping(&file.file);
        for (index, item) in file.items.iter().enumerate() {
            if let Some(id) = file.id(index) {
                self.saw_case(&id, item.op.as_deref(), &scoping);
            }
        }
    }

    /// The rules not yet known to have a case in scope that a case of
    /// `file` could be in the scope of: for [`saw_case`](Self::saw_case).
    pub fn scoping(&self, file: &str) -> Vec<usize> {
        let rules = self.ledger.rules();
        (0..rules.len())
            .filter(|&at| !self.rule_scoped[at] && rules[at].covers_file(file))
            .collect()
    }

    /// Notes a case that was read, of `op`; `scoping` is what
    /// [`scoping`](Self::scoping) said of its file.
    pub fn saw_case(&mut self, id: &CaseId, op: Option<&str>, scoping: &[usize]) {
        if self.ledger.get(id).is_some() {
            self.seen.insert(id.clone());
        }
        for &at in scoping {
            if !self.rule_scoped[at] && self.ledger.rules()[at].covers_op(op) {
                self.rule_scoped[at] = true;
            }
        }
    }

    /// Notes the rules that decided cases.
    pub fn used_rules(&mut self, rules: impl IntoIterator<Item = usize>) {
        for at in rules {
            if let Some(used) = self.rule_used.get_mut(at) {
                *used = true;
            }
        }
    }

    /// The rules that are orphaned (no case in scope) or stale (they
    /// decided no case): meaningful after a full run.
    pub fn rule_findings(&self) -> Vec<RuleFinding> {
        let rules = self.ledger.rules();
        (0..rules.len())
            .filter_map(|at| {
                let problem = if !self.rule_scoped[at] {
                    RuleProblem::Orphaned
                } else if !self.rule_used[at] {
                    RuleProblem::Stale
                } else {
                    return None;
                };
                Some(RuleFinding {
                    rule: rules[at].clone(),
                    index: at,
                    problem,
                })
            })
            .collect()
    }

    /// Notes cases whose records carried their entry (those known only
    /// by position included).
    pub fn saw_entries(&mut self, ids: impl IntoIterator<Item = CaseId>) {
        self.seen.extend(ids);
    }

    /// Notes a file whose cases could not be read.
    pub fn unreadable(&mut self, file: &str) {
        self.unknown.insert(file.to_owned());
    }

    /// The entries whose case was not found (meaningful after a full run).
    pub fn orphans(&self) -> Vec<&Entry> {
        self.ledger
            .entries()
            .filter(|entry| {
                !self.seen.contains(&entry.id) && !self.unknown.contains(&entry.id.file)
            })
            .collect()
    }
}

/// One case to compare: its position in the case file, what the case
/// file says of it (when known), and its two elements.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// Its position in the case file.
    pub index: usize,
    /// The case, when the case file has it.
    pub case: Option<Case<'a>>,
    /// The golden's element.
    pub golden: Option<&'a [u8]>,
    /// The result's element.
    pub actual: Option<&'a [u8]>,
}

/// One case against its golden: its record (or its count) to `consumer`.
pub fn compare_case<C: Consumer>(
    consumer: &mut C,
    file: &str,
    pair: Pair<'_>,
    ledger: Option<&Ledger>,
    judging: Judging<'_>,
) -> io::Result<()> {
    let semantic = judging.semantic;
    let Pair {
        index,
        case,
        golden,
        actual,
    } = pair;
    let comparison = match (golden, actual) {
        (Some(g), Some(a)) => compare_elements_as(g, a, judging.numbers),
        (None, None) => return Ok(()),
        (g, _) => Comparison {
            verdict: if g.is_some() {
                Verdict::Missing
            } else {
                Verdict::Extra
            },
            golden: None,
            actual: None,
        },
    };
    let item = case.map(|case| case.item);
    // Counted without a record, a case still counts under its per-op key
    // (report::op_key): an op the reference does not know is one row.
    let op = item.and_then(|item| item.op.as_deref());
    let unknown_op = golden.is_some_and(build::is_unknown_op);
    if !consumer.wants_passing() {
        // Most cases of a run pass: a report that does not list them
        // only counts them, unless the ledger expects a divergence;
        // and one that explains nothing (--quiet) only counts failures.
        let has_entry = ledger.is_some_and(|ledger| match &case {
            Some(case) => ledger.get(&case.id(file)).is_some(),
            None => ledger.get(&position_id(file, index)).is_some(),
        });
        if matches!(comparison.verdict, Verdict::Identical) && !has_entry {
            return consumer.counted(op, unknown_op, CaseState::Passed, 1);
        }
        if ledger.is_none() && !consumer.explains() {
            let passes = comparison.verdict.passes(semantic);
            let state = if passes {
                CaseState::Passed
            } else {
                CaseState::Failed
            };
            return consumer.counted(op, unknown_op, state, 1);
        }
    }
    let compared = Compared {
        index,
        line: item.map(|item| item.line),
        id: case.map_or_else(
            || position_id(file, index),
            |case| case.id(file).into_owned(),
        ),
        op: item.and_then(|item| item.op.clone()),
        raw_case: case.map(|case| case.raw),
        golden,
        actual,
        comparison,
        errors: judging.errors,
    };
    let needs = build::Needs {
        semantic,
        explain: consumer.explains(),
        fingerprint: consumer.fingerprints(),
        passing: consumer.wants_passing(),
    };
    let record = build::record(file, compared, needs, ledger, |record| {
        consumer.wants_detail(record)
    });
    consumer.case(record)
}
