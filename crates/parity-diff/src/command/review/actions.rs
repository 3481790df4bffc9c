//! A review decision written to the ledger, as `accept` writes it: the
//! same entries, rules and removals (`accept::edits`), the same lock and
//! the same atomic writer. Each decision takes the lock, reads the
//! ledger afresh, makes its changes and writes it, then lets go, so a
//! reviewer who thinks for minutes never holds off another writer, and
//! never writes back what another wrote meanwhile.

use std::path::Path;
use std::time::Duration;

use crate::base::error::InputError;
use crate::command::accept::edits::{self, Change};
use crate::ledger::lock::LedgerLock;
use crate::ledger::rules::{Rule, RuleFinding};
use crate::ledger::Ledger;
use crate::report::record::EntryState;

use super::queue::Item;

/// How long a decision waits for another writer of the ledger: less than
/// `accept`'s, since a reviewer waits before a frozen screen.
const WAIT: Duration = Duration::from_secs(5);

/// What the reviewer decided about an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Entries accepting its divergences (`a`).
    Accept {
        /// Why.
        reason: String,
    },
    /// Entries triaging them as a known bug (`t`).
    Triage {
        /// Why.
        reason: String,
        /// Where it is tracked.
        link: Option<String>,
    },
    /// One rule of the group's op and form (`r`).
    Rule {
        /// Why.
        reason: String,
    },
    /// Stale entries, orphaned entries or a rule removed (`p`).
    Prune,
}

/// The changes a decision makes to `ledger` (the one read just now), or
/// why it cannot be made.
pub fn changes(item: &Item, decision: &Decision, ledger: &Ledger) -> Result<Vec<Change>, String> {
    let (state, reason) = match decision {
        Decision::Accept { reason } | Decision::Rule { reason } => (EntryState::Accepted, reason),
        Decision::Triage { reason, link } => (EntryState::Triaged { link: link.clone() }, reason),
        Decision::Prune => return prune(item, ledger),
    };
    if item.is_prunable() {
        return Err("this one is not a divergence: prune it (p) or skip it (s)".into());
    }
    match (item, decision) {
        (Item::Framing { files, ran }, _) => {
            let names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
            Ok(edits::framing_rules(&names, *ran, &state, reason)
                .into_iter()
                .map(|(rule, count)| Change::AddedRule(rule, count))
                .collect())
        }
        (Item::Divergences { .. }, Decision::Rule { .. }) => {
            let (rule, count) = op_rule(item, &state, reason, ledger.rules())?;
            Ok(vec![Change::AddedRule(rule, count)])
        }
        (Item::Divergences { cases, .. }, _) => Ok(cases
            .iter()
            .filter_map(|case| case.divergence.as_ref())
            .map(|divergence| edits::record_entry(ledger, divergence.entry.clone(), &state, reason))
            .collect()),
        _ => Err("nothing to accept here".into()),
    }
}

/// The one rule `accept --rule` would write for a group: the group's op
/// (or, without one, its file) and its one form.
fn op_rule(
    item: &Item,
    state: &EntryState,
    reason: &str,
    existing: &[Rule],
) -> Result<(Rule, usize), String> {
    let divergences: Vec<_> = item
        .cases()
        .iter()
        .filter_map(|case| case.divergence.as_ref())
        .collect();
    let Some(first) = divergences.first() else {
        return Err("no divergence to write a rule for".into());
    };
    if divergences.iter().any(|d| d.changed) {
        return Err(
            "a changed case has an entry, which wins over any rule: accept it with a".into(),
        );
    }
    let Some(form) = first.form.as_ref() else {
        return Err(
            "no rule can name this divergence (only a thrown message, a crash, a timeout or \
             invalid output): accept it with a"
                .into(),
        );
    };
    let file = |d: &&edits::Divergence| d.entry.id.file.clone();
    let one_scope = divergences
        .iter()
        .all(|d| d.form.as_ref() == Some(form) && d.entry.op == first.entry.op)
        && (first.entry.op.is_some() || divergences.iter().all(|d| file(d) == file(first)));
    if !one_scope {
        return Err("its cases differ in op, file or form: accept them with a".into());
    }
    let file = first.entry.op.is_none().then(|| file(first));
    let rule = edits::op_rule(first.entry.op.clone(), file, form.to_match(), state, reason)
        .ok_or("no rule can name its file (its name holds a glob character): accept it with a")?;
    if edits::said(existing, &rule) {
        return Err(format!(
            "the ledger has that rule already ({})",
            rule.describe()
        ));
    }
    Ok((rule, divergences.len()))
}

/// What pruning an item removes: the entries it names that the ledger
/// still has, or its rule, found again by what it says (its index may
/// have moved since the run).
fn prune(item: &Item, ledger: &Ledger) -> Result<Vec<Change>, String> {
    let removed = |id: &crate::corpus::identity::CaseId, why| {
        ledger
            .get(id)
            .is_some()
            .then(|| Change::Removed(id.clone(), why))
    };
    let changes: Vec<Change> = match item {
        Item::Stale { cases, .. } => cases
            .iter()
            .filter_map(|case| removed(&case.id, edits::STALE))
            .collect(),
        Item::Orphaned { entries, .. } => entries
            .iter()
            .filter_map(|entry| removed(&entry.id, edits::ORPHANED))
            .collect(),
        Item::Rule(finding) => {
            let index = ledger.rules().iter().position(|rule| {
                (
                    &rule.ops,
                    &rule.files,
                    &rule.matches,
                    &rule.state,
                    &rule.reason,
                ) == (
                    &finding.rule.ops,
                    &finding.rule.files,
                    &finding.rule.matches,
                    &finding.rule.state,
                    &finding.rule.reason,
                )
            });
            index
                .map(|index| {
                    Change::RemovedRule(RuleFinding {
                        index,
                        ..finding.clone()
                    })
                })
                .into_iter()
                .collect()
        }
        _ => return Err("only stale entries, orphaned entries and rules are pruned".into()),
    };
    if changes.is_empty() {
        return Err("the ledger no longer holds it".into());
    }
    Ok(changes)
}

/// Makes a decision in the ledger at `path`: locks it, reads it (an
/// empty one when there is none yet), makes the changes and writes it
/// atomically. Returns the changes; nothing is written when they cannot
/// be made (the reason is the error's).
pub fn write(path: &Path, item: &Item, decision: &Decision) -> Result<Vec<Change>, InputError> {
    // A note about a writer that waits or a temporary file removed would
    // land on the screen: it is dropped, as the error says what matters.
    let lock = LedgerLock::acquire_within(path, WAIT, &mut std::io::sink())?;
    let mut ledger = match path.exists() {
        true => Ledger::load(path)?,
        false => Ledger::default(),
    };
    let changes = changes(item, decision, &ledger).map_err(InputError::new)?;
    edits::apply(&mut ledger, &changes);
    ledger.save(&lock)?;
    Ok(changes)
}

/// What a decision changed, in one line: `3 entries added, 1 changed`.
pub fn describe(changes: &[Change]) -> String {
    let count = |pick: fn(&Change) -> bool| changes.iter().filter(|c| pick(c)).count();
    let parts = [
        (
            count(|c| matches!(c, Change::Added(_))),
            "entry added",
            "entries added",
        ),
        (
            count(|c| matches!(c, Change::Changed(_))),
            "entry changed",
            "entries changed",
        ),
        (
            count(|c| matches!(c, Change::Removed(..))),
            "entry removed",
            "entries removed",
        ),
        (
            count(|c| matches!(c, Change::AddedRule(..))),
            "rule added",
            "rules added",
        ),
        (
            count(|c| matches!(c, Change::RemovedRule(_))),
            "rule removed",
            "rules removed",
        ),
    ];
    let said: Vec<String> = parts
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
        .collect();
    match said.is_empty() {
        true => "nothing changed".to_owned(),
        false => said.join(", "),
    }
}

#[cfg(test)]
#[path = "actions_tests.rs"]
mod tests;
