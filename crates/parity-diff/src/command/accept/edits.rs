//! The edits `accept` and `review` make to a ledger, in one place, so
//! that a divergence accepted either way leaves the same ledger: the
//! entry a record makes, the rule an op's form makes, the framing rules,
//! the one-line check of reasons and links, and the changes applied.

use std::collections::HashSet;

use crate::base::error::InputError;
use crate::base::glob::Glob;
use crate::base::outside;
use crate::corpus::identity::CaseId;
use crate::ledger::rules::{Form, Match, Rule, RuleFinding, RuleOps};
use crate::ledger::{Entry, Ledger};
use crate::report::record::{CaseRecord, CaseState, EntryState};

/// A change to the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// An entry added.
    Added(Entry),
    /// An entry replaced.
    Changed(Entry),
    /// An entry removed, and why.
    Removed(CaseId, &'static str),
    /// A rule added, and how many divergences it accepts.
    AddedRule(Rule, usize),
    /// A rule removed (stale or orphaned).
    RemovedRule(RuleFinding),
}

/// Why a stale entry goes.
pub const STALE: &str = "stale: the case passes now";

/// Why an orphaned entry goes.
pub const ORPHANED: &str = "orphaned: no such case";

/// A divergence to record: its entry (without a reason yet), its form
/// when a rule can name it, and whether it has an entry already
/// (changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The entry that would accept it.
    pub entry: Entry,
    /// What a rule may name it by.
    pub form: Option<Form>,
    /// Whether its case has an entry that says otherwise.
    pub changed: bool,
}

impl Divergence {
    /// The divergence a new or changed record shows.
    pub fn of(record: &CaseRecord) -> Self {
        Divergence {
            entry: Entry {
                id: record.id.clone(),
                op: record.op.clone(),
                state: EntryState::Accepted,
                reason: String::new(),
                verdict: Some(record.verdict.name().to_owned()),
                paths: record
                    .paths
                    .iter()
                    .map(|path| path.pointer.to_utf8_lossy().into_owned())
                    .collect(),
                fingerprint: record.fingerprint.clone().unwrap_or_default(),
                comments: Vec::new(),
            },
            form: rule_form(record),
            changed: record.state == CaseState::Changed,
        }
    }
}

/// The form a rule may name a record's divergence by. A thrown message
/// counts only when the report shows it whole (nothing masked or cut);
/// one that cannot stand in the ledger as it is ([`plain_message`]) is
/// named there by its cause's glob, never as written.
pub fn rule_form(record: &CaseRecord) -> Option<Form> {
    match record.form.as_ref()? {
        Form::Threw(message) => {
            let shown = record.thrown.as_deref() == Some(message.as_str());
            shown.then(|| Form::Threw(message.clone()))
        }
        form => Some(form.clone()),
    }
}

/// Whether a thrown message can stand in a rule as it is: no control
/// character, none the reports escape.
pub fn plain_message(message: &str) -> bool {
    !message
        .chars()
        .any(|c| c.is_control() || outside::is_forbidden(c))
}

/// A reason or link goes into the ledger, a file that is reviewed in
/// terminals and pull requests: one line, and no character that the
/// reports would have to escape (a raw ESC would act on a reviewer's
/// terminal in `git diff`).
pub fn one_line(what: &str, text: &str) -> Result<(), InputError> {
    if text.contains(['\n', '\r']) {
        return Err(InputError::new(format!("{what} must be one line")));
    }
    if let Some(c) = text.chars().find(|&c| outside::is_forbidden(c)) {
        return Err(InputError::new(format!(
            "{what} must not hold the control character U+{:04X}",
            c as u32
        )));
    }
    if text.trim().is_empty() {
        return Err(InputError::new(format!("{what} must not be empty")));
    }
    Ok(())
}

/// The change that records `entry` with `state` and `reason`: added, or
/// changed (keeping the comments above the entry it replaces).
pub fn record_entry(ledger: &Ledger, mut entry: Entry, state: &EntryState, reason: &str) -> Change {
    entry.state = state.clone();
    entry.reason = reason.to_owned();
    match ledger.get(&entry.id) {
        Some(old) => {
            entry.comments = old.comments.clone();
            Change::Changed(entry)
        }
        None => Change::Added(entry),
    }
}

/// The rule that accepts every divergence `matches` matches of an op (`op`), or,
/// for cases without an op, of one file (`file`: `rule op *` narrowed to
/// it); `None` when no rule can name that scope (a file whose name holds
/// a glob character).
pub fn op_rule(
    op: Option<String>,
    file: Option<String>,
    matches: Match,
    state: &EntryState,
    reason: &str,
) -> Option<Rule> {
    // A file's name is its own glob when it holds no glob character.
    let files = file
        .filter(|file| !file.contains(['*', '?', '[', '\\']))
        .and_then(|file| Glob::new(&file).ok());
    let (ops, files) = match (op, files) {
        (Some(op), _) => (RuleOps::Named(vec![op]), None),
        (None, Some(glob)) => (RuleOps::Every, Some(glob)),
        (None, None) => return None,
    };
    Some(Rule {
        ops,
        files,
        matches,
        state: state.clone(),
        reason: reason.to_owned(),
        comments: Vec::new(),
    })
}

/// Whether a rule of `existing` says what `rule` says (its scope and
/// match; the reason may differ).
pub fn said(existing: &[Rule], rule: &Rule) -> bool {
    existing.iter().any(|other| {
        (&other.ops, &other.files, &other.matches) == (&rule.ops, &rule.files, &rule.matches)
    })
}

/// The `match: framing` rules that accept the framing divergences of
/// `diverging` files, with how many files each accepts: one rule for
/// every op when every file that ran diverges, else one per file, its
/// `files:` the file's name.
pub fn framing_rules(
    diverging: &[String],
    ran: usize,
    state: &EntryState,
    reason: &str,
) -> Vec<(Rule, usize)> {
    let rule = |files: Option<Glob>| Rule {
        ops: RuleOps::Every,
        files,
        matches: Match::Framing,
        state: state.clone(),
        reason: reason.to_owned(),
        comments: Vec::new(),
    };
    if diverging.is_empty() {
        return Vec::new();
    }
    if diverging.len() == ran && ran > 1 {
        return vec![(rule(None), ran)];
    }
    diverging
        .iter()
        .map(|file| (rule(Some(Glob::literal(file))), 1))
        .collect()
}

/// Makes the changes in the ledger (not yet written).
pub fn apply(ledger: &mut Ledger, changes: &[Change]) {
    let mut removed_rules = Vec::new();
    for change in changes {
        match change {
            Change::Added(entry) | Change::Changed(entry) => {
                ledger.insert(entry.clone());
            }
            Change::Removed(id, _) => {
                ledger.remove(id);
            }
            Change::AddedRule(rule, _) => ledger.push_rule(rule.clone()),
            Change::RemovedRule(finding) => removed_rules.push(finding.index),
        }
    }
    ledger.remove_rules(&removed_rules);
}

/// How many entries of the written ledger no change touched: counted, not
/// worked out by subtraction, so that it cannot wrap whatever the
/// changes hold (issue 18: `18446744073709551615 unchanged`).
pub fn unchanged(ledger: &crate::ledger::Ledger, changes: &[Change]) -> usize {
    let touched: HashSet<&CaseId> = changes
        .iter()
        .filter_map(|change| match change {
            Change::Added(entry) | Change::Changed(entry) => Some(&entry.id),
            Change::Removed(id, _) => Some(id),
            Change::AddedRule(..) | Change::RemovedRule(_) => None,
        })
        .collect();
    ledger
        .entries()
        .filter(|entry| !touched.contains(&entry.id))
        .count()
}
