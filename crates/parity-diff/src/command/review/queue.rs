//! The review's model, which needs no terminal: the queue of items to
//! decide (divergence groups by signature, as the reports group them,
//! the files whose framing diverges, stale cases, orphaned entries, stale
//! and orphaned rules), where the reviewer stands in it (an item, one of
//! its cases), and what was decided. Records are kept in a spool, not in
//! memory: a run may hold many failures, each with its elements.

use std::collections::HashMap;
use std::io;

use crate::command::accept::edits::Divergence;
use crate::corpus::identity::CaseId;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::{CaseRecord, CaseState, Signature};
use crate::report::spool::Spool;

/// One case of an item, its record in the [`Records`] store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Its identity.
    pub id: CaseId,
    /// What accepting it writes (divergences only).
    pub divergence: Option<Divergence>,
    /// Where its record is in the store.
    stored: (u64, usize),
}

/// Something to decide about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// New or changed divergences of one signature.
    Divergences {
        /// What they share.
        signature: Signature,
        /// Its cases, in corpus order.
        cases: Vec<Case>,
    },
    /// Files whose framing diverges, and no rule accepts it.
    Framing {
        /// Each file's name, and what its framing was.
        files: Vec<(String, String)>,
        /// How many case files ran (a rule for every file is written
        /// when all of them diverge).
        ran: usize,
    },
    /// Cases that pass now but have an entry, of one signature.
    Stale {
        /// What they share.
        signature: Signature,
        /// Its cases.
        cases: Vec<Case>,
    },
    /// Entries whose case is gone, of one file.
    Orphaned {
        /// The file their identities name.
        file: String,
        /// The entries.
        entries: Vec<Entry>,
    },
    /// A rule that is stale (it decided no case) or orphaned (no case of
    /// its ops).
    Rule(RuleFinding),
}

impl Item {
    /// Its cases with records (none for framing, orphans and rules).
    pub fn cases(&self) -> &[Case] {
        match self {
            Item::Divergences { cases, .. } | Item::Stale { cases, .. } => cases,
            _ => &[],
        }
    }

    /// How many things it holds: cases, files, entries, or one rule.
    pub fn count(&self) -> usize {
        match self {
            Item::Divergences { cases, .. } | Item::Stale { cases, .. } => cases.len(),
            Item::Framing { files, .. } => files.len(),
            Item::Orphaned { entries, .. } => entries.len(),
            Item::Rule(_) => 1,
        }
    }

    /// Whether it is pruned (`p`) rather than accepted.
    pub fn is_prunable(&self) -> bool {
        matches!(
            self,
            Item::Stale { .. } | Item::Orphaned { .. } | Item::Rule(_)
        )
    }

    /// Its kind in a word, for the screen.
    pub fn kind(&self) -> &'static str {
        match self {
            Item::Divergences { cases, .. } => {
                let changed = cases
                    .iter()
                    .filter(|case| case.divergence.as_ref().is_some_and(|d| d.changed))
                    .count();
                match changed {
                    0 => "new",
                    n if n == cases.len() => "changed",
                    _ => "new and changed",
                }
            }
            Item::Framing { .. } => "framing",
            Item::Stale { .. } => "stale",
            Item::Orphaned { .. } => "orphaned",
            Item::Rule(finding) => finding.problem.name(),
        }
    }
}

/// What was decided about an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decided {
    /// Accepted with entries (or framing rules).
    Accepted,
    /// Triaged as a known bug.
    Triaged,
    /// Accepted with an op rule.
    Rule,
    /// Pruned from the ledger.
    Pruned,
    /// Left as it was.
    Skipped,
}

/// The records the items' cases point at.
#[derive(Debug, Default)]
pub struct Records {
    spool: Spool,
}

impl Records {
    /// Keeps a record; returns the case that points at it.
    fn keep(&mut self, record: &CaseRecord, divergence: Option<Divergence>) -> io::Result<Case> {
        Ok(Case {
            id: record.id.clone(),
            divergence,
            stored: self.spool.put_record(record)?,
        })
    }

    /// A case's record, read back.
    pub fn get(&mut self, case: &Case) -> io::Result<CaseRecord> {
        let (at, len) = case.stored;
        self.spool.get_record(at, len)
    }
}

/// The items as a run or a report gives them, put in review order by
/// [`finish`](Builder::finish).
#[derive(Debug, Default)]
pub struct Builder {
    records: Records,
    divergences: Groups,
    stale: Groups,
    framing: Vec<(String, String)>,
    ran: usize,
    orphaned: Vec<(String, Vec<Entry>)>,
    rules: Vec<RuleFinding>,
}

/// Cases by signature, in order of first appearance.
#[derive(Debug, Default)]
struct Groups {
    index: HashMap<String, usize>,
    groups: Vec<(Signature, Vec<Case>)>,
}

impl Groups {
    fn add(&mut self, signature: &Signature, case: Case) {
        let at = *self.index.entry(signature.text.clone()).or_insert_with(|| {
            self.groups.push((signature.clone(), Vec::new()));
            self.groups.len() - 1
        });
        self.groups[at].1.push(case);
    }

    /// Largest first, ties in order of first appearance: as reports
    /// order their groups.
    fn sorted(mut self) -> Vec<(Signature, Vec<Case>)> {
        self.groups
            .sort_by_key(|(_, cases)| std::cmp::Reverse(cases.len()));
        self.groups
    }
}

impl Builder {
    /// A case's record: kept when it is new, changed or failed (a
    /// divergence without a ledger), or stale; others are not reviewed.
    pub fn case(&mut self, record: &CaseRecord) -> io::Result<()> {
        let Some(signature) = &record.signature else {
            return Ok(());
        };
        match record.state {
            CaseState::New | CaseState::Changed | CaseState::Failed => {
                let divergence = Divergence::of(record);
                let case = self.records.keep(record, Some(divergence))?;
                self.divergences.add(signature, case);
            }
            CaseState::Stale => {
                let case = self.records.keep(record, None)?;
                self.stale.add(signature, case);
            }
            _ => {}
        }
        Ok(())
    }

    /// A case file that ran.
    pub fn ran_file(&mut self) {
        self.ran += 1;
    }

    /// A file whose framing diverges, unaccepted.
    pub fn framing(&mut self, file: &str, found: &str) {
        self.framing.push((file.to_owned(), found.to_owned()));
    }

    /// An entry whose case is gone.
    pub fn orphaned(&mut self, entry: &Entry) {
        match self
            .orphaned
            .iter_mut()
            .find(|(file, _)| *file == entry.id.file)
        {
            Some((_, entries)) => entries.push(entry.clone()),
            None => self
                .orphaned
                .push((entry.id.file.clone(), vec![entry.clone()])),
        }
    }

    /// A stale or orphaned rule.
    pub fn rule(&mut self, finding: &RuleFinding) {
        self.rules.push(finding.clone());
    }

    /// The queue: divergence groups, the framing divergences, stale
    /// groups, orphaned entries by file, then rules.
    pub fn finish(self) -> Queue {
        let mut items: Vec<Item> = self
            .divergences
            .sorted()
            .into_iter()
            .map(|(signature, cases)| Item::Divergences { signature, cases })
            .collect();
        if !self.framing.is_empty() {
            items.push(Item::Framing {
                files: self.framing,
                ran: self.ran,
            });
        }
        items.extend(
            self.stale
                .sorted()
                .into_iter()
                .map(|(signature, cases)| Item::Stale { signature, cases }),
        );
        items.extend(
            self.orphaned
                .into_iter()
                .map(|(file, entries)| Item::Orphaned { file, entries }),
        );
        items.extend(self.rules.into_iter().map(Item::Rule));
        Queue::new(items, self.records)
    }
}

/// The items, where the reviewer stands, and what was decided.
#[derive(Debug)]
pub struct Queue {
    items: Vec<Item>,
    decided: Vec<Option<Decided>>,
    /// The current item; `items.len()` once every item was passed.
    at: usize,
    /// The current case of the current item.
    case: usize,
    /// The records of the items' cases.
    pub records: Records,
}

impl Queue {
    /// A queue of `items`, at the first.
    pub fn new(items: Vec<Item>, records: Records) -> Self {
        Queue {
            decided: vec![None; items.len()],
            items,
            at: 0,
            case: 0,
            records,
        }
    }

    /// Whether there is nothing to review.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// The current item and its index; `None` once every item was
    /// passed.
    pub fn current(&self) -> Option<(usize, &Item)> {
        self.items.get(self.at).map(|item| (self.at, item))
    }

    /// The current case's index in its item.
    pub fn case_index(&self) -> usize {
        self.case
    }

    /// The current case, when the current item has cases.
    pub fn current_case(&self) -> Option<&Case> {
        self.current()?.1.cases().get(self.case)
    }

    /// The next case of the item (the last stays); whether it moved.
    pub fn next_case(&mut self) -> bool {
        let cases = self.current().map_or(0, |(_, item)| item.cases().len());
        let moved = self.case + 1 < cases;
        self.case += usize::from(moved);
        moved
    }

    /// The previous case of the item (the first stays); whether it
    /// moved.
    pub fn previous_case(&mut self) -> bool {
        let moved = self.case > 0;
        self.case -= usize::from(moved);
        moved
    }

    /// Notes what was decided about the current item and moves to the
    /// next.
    pub fn decide(&mut self, decided: Decided) {
        if let Some(slot) = self.decided.get_mut(self.at) {
            *slot = Some(decided);
            self.at += 1;
            self.case = 0;
        }
    }

    /// Whether every item was passed.
    pub fn is_done(&self) -> bool {
        self.at >= self.items.len()
    }

    /// How many items were decided each way, in [`Decided`]'s order, and
    /// how many were not reached.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for decided in &self.decided {
            match decided {
                Some(Decided::Accepted) => tally.accepted += 1,
                Some(Decided::Triaged) => tally.triaged += 1,
                Some(Decided::Rule) => tally.rules += 1,
                Some(Decided::Pruned) => tally.pruned += 1,
                Some(Decided::Skipped) => tally.skipped += 1,
                None => tally.left += 1,
            }
        }
        tally
    }
}

/// How many items were decided each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Accepted with entries (or framing rules).
    pub accepted: usize,
    /// Triaged.
    pub triaged: usize,
    /// Accepted with an op rule.
    pub rules: usize,
    /// Pruned.
    pub pruned: usize,
    /// Skipped.
    pub skipped: usize,
    /// Not reached (the review was quit).
    pub left: usize,
}

impl Tally {
    /// `2 accepted, 1 triaged, 0 as rules, 1 pruned, 0 skipped, 3 left`.
    pub fn line(&self) -> String {
        format!(
            "{} accepted, {} triaged, {} as rules, {} pruned, {} skipped, {} left",
            self.accepted, self.triaged, self.rules, self.pruned, self.skipped, self.left
        )
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
pub(super) mod tests;
