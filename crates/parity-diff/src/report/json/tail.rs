//! What a report says after its files: the orphaned ledger entries, the
//! failure groups, the counts per op, the ledger's changes (`accept`
//! only) and the summary, written and read back here.

use super::case::{id_json, read_id, write_array, write_id, Members};
use super::head::{read_ledger_entry, write_ledger_entry};
use super::{size, string};
use crate::corpus::identity::CaseId;
use crate::ledger::rules::{RuleFinding, RuleProblem};
use crate::ledger::{Entry, Ledger};
use crate::report::record::EntryState;
use crate::report::record::Signature;
use crate::report::{Tally, Totals};
use js_exact::{Object, Value};

/// A failure group as a report lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupInfo {
    /// What its cases share.
    pub signature: Signature,
    /// How many cases.
    pub count: usize,
    /// The first cases' identities (at most
    /// [`NAMED`](crate::report::groups::NAMED)).
    pub cases: Vec<CaseId>,
}

/// What `accept` changed in the ledger (its report's `ledgerChanges`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LedgerChanges {
    /// The ledger's path.
    pub path: String,
    /// Whether it was written (anything changed).
    pub written: bool,
    /// The entries added.
    pub added: Vec<CaseId>,
    /// The entries updated.
    pub changed: Vec<CaseId>,
    /// The entries removed.
    pub removed: Vec<CaseId>,
    /// New or changed divergences left out for want of a reason.
    pub not_accepted: usize,
    /// The rules added, each described in one line.
    pub added_rules: Vec<String>,
    /// The rules removed, each described in one line.
    pub removed_rules: Vec<String>,
}

/// The summary member: the counts, and the exit status they make.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// The counts.
    pub totals: Totals,
    /// The process's exit status.
    pub exit_code: u8,
}

/// The `orphanedEntries` array.
pub(super) fn write_orphaned(entries: &[Entry], out: &mut Vec<u8>) {
    write_array(entries, out, |entry, out| {
        write_ledger_entry(entry, true, out)
    });
}

/// The `ledgerRules` array: the stale and orphaned rules, each
/// `{"rule","files","match","state","reason","problem"}`.
pub(super) fn write_rule_findings(findings: &[RuleFinding], out: &mut Vec<u8>) {
    let values = findings
        .iter()
        .map(|finding| rule_finding_json(finding, None));
    out.extend_from_slice(&js_exact::to_json(&Value::Array(values.collect())));
}

/// The `shardRules` array of a shard's report: the rules its cases did
/// not decide, each as in `ledgerRules` after an `index`, its place
/// among the ledger's rules (by which `merge` knows it in every shard).
pub(super) fn write_shard_rules(findings: &[RuleFinding], out: &mut Vec<u8>) {
    let values = findings
        .iter()
        .map(|finding| rule_finding_json(finding, Some(finding.index)));
    out.extend_from_slice(&js_exact::to_json(&Value::Array(values.collect())));
}

fn rule_finding_json(finding: &RuleFinding, index: Option<usize>) -> Value {
    let rule = &finding.rule;
    let files = rule
        .files
        .as_ref()
        .map_or(Value::Null, |glob| Value::from(glob.pattern()));
    let state = match &rule.state {
        EntryState::Accepted => "accepted",
        EntryState::Triaged { .. } => "triaged",
    };
    let mut object = match index {
        Some(index) => Object::new().with("index", index as f64),
        None => Object::new(),
    };
    object = object
        .with("rule", rule.head())
        .with("files", files)
        .with("match", rule.matches.render())
        .with("state", state);
    if let EntryState::Triaged { link: Some(link) } = &rule.state {
        object = object.with("link", link.as_str());
    }
    Value::Object(
        object
            .with("reason", rule.reason.as_str())
            .with("problem", finding.problem.name()),
    )
}

/// A shard's `shardRules` read back, each rule's index with it.
pub(super) fn read_shard_rules(value: &Value) -> Option<Vec<RuleFinding>> {
    let read = |value: &Value| {
        let index = size(value.get("index"))?;
        let finding = read_rule_finding(value)?;
        Some(RuleFinding { index, ..finding })
    };
    value.as_array()?.iter().map(read).collect()
}

/// A stale or orphaned rule read back from `ledgerRules` (its index
/// among the ledger's rules is not in the report: 0 stands for it). The
/// rule is read as the ledger would read the block its members make.
pub(super) fn read_rule_finding(value: &Value) -> Option<RuleFinding> {
    let member = |key: &str| string(value.get(key));
    let mut block = format!("{}\n", member("rule")?);
    if let Some(files) = member("files") {
        block.push_str(&format!(
            "  files: {}\n",
            serde_json::to_string(&files).ok()?
        ));
    }
    block.push_str(&format!("  match: {}\n", member("match")?));
    match (member("state")?.as_str(), member("link")) {
        ("triaged", Some(link)) => block.push_str(&format!("  state: triaged {link}\n")),
        (state, _) => block.push_str(&format!("  state: {state}\n")),
    }
    block.push_str(&format!("  reason: {}\n", member("reason")?));
    let problem = match member("problem")?.as_str() {
        "stale" => RuleProblem::Stale,
        "orphaned" => RuleProblem::Orphaned,
        _ => return None,
    };
    let ledger = Ledger::parse(&block).ok()?;
    Some(RuleFinding {
        rule: ledger.rules().first()?.clone(),
        index: 0,
        problem,
    })
}

/// An orphaned entry read back.
pub(super) fn read_orphaned(value: &Value) -> Option<Entry> {
    read_ledger_entry(value, value.get("id"))
}

/// One element of `groups`.
pub(super) fn write_group(signature: &Signature, count: usize, ids: &[CaseId], out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.str("signature", &signature.text);
    members.str_or_null("op", signature.op.as_deref());
    members.str("kind", &signature.kind);
    members.count("count", count);
    members.with("cases", |out| write_array(ids, out, write_id));
    members.close();
}

/// A group read back.
pub(super) fn read_group(value: &Value) -> Option<GroupInfo> {
    Some(GroupInfo {
        signature: Signature {
            op: string(value.get("op")),
            kind: string(value.get("kind"))?,
            text: string(value.get("signature"))?,
        },
        count: size(value.get("count"))?,
        cases: value
            .get("cases")
            .as_array()?
            .iter()
            .map(read_id)
            .collect::<Option<Vec<_>>>()?,
    })
}

/// `{"passed","failed","accepted"}`, as a value (`byOp` is an object of
/// them, its keys in JavaScript property order).
pub(super) fn tally_json(tally: &Tally) -> Value {
    Value::Object(
        Object::new()
            .with("passed", tally.passed as f64)
            .with("failed", tally.failed as f64)
            .with("accepted", tally.accepted as f64),
    )
}

/// A tally read back.
pub(super) fn read_tally(value: &Value) -> Option<Tally> {
    Some(Tally {
        passed: size(value.get("passed"))?,
        failed: size(value.get("failed"))?,
        accepted: size(value.get("accepted"))?,
    })
}

/// The `byOp` member read back, in its order.
pub(super) fn read_by_op(value: &Value) -> Option<Vec<(String, Tally)>> {
    value
        .as_object()?
        .iter()
        .map(|(op, tally)| Some((op.to_utf8_lossy().into_owned(), read_tally(tally)?)))
        .collect()
}

/// The `ledgerChanges` member, as a value (the HTML report shows its
/// members as they stand).
pub fn ledger_changes_json(changes: &LedgerChanges) -> Value {
    let ids = |ids: &[CaseId]| Value::Array(ids.iter().map(id_json).collect());
    Value::Object(
        Object::new()
            .with("path", changes.path.as_str())
            .with("written", changes.written)
            .with("added", ids(&changes.added))
            .with("changed", ids(&changes.changed))
            .with("removed", ids(&changes.removed))
            .with("notAccepted", changes.not_accepted as f64)
            .with("addedRules", texts(&changes.added_rules))
            .with("removedRules", texts(&changes.removed_rules)),
    )
}

/// Texts as a JSON array.
fn texts(texts: &[String]) -> Value {
    Value::Array(
        texts
            .iter()
            .map(|text| Value::from(text.as_str()))
            .collect(),
    )
}

/// A JSON array of texts read back; none when absent.
fn read_texts(value: &Value) -> Option<Vec<String>> {
    match value {
        Value::Undefined => Some(Vec::new()),
        other => other.as_array()?.iter().map(string).collect(),
    }
}

/// The `ledgerChanges` member read back.
pub(super) fn read_ledger_changes(value: &Value) -> Option<LedgerChanges> {
    let ids = |key: &str| -> Option<Vec<CaseId>> {
        value.get(key).as_array()?.iter().map(read_id).collect()
    };
    Some(LedgerChanges {
        path: string(value.get("path"))?,
        written: value.get("written").as_bool()?,
        added: ids("added")?,
        changed: ids("changed")?,
        removed: ids("removed")?,
        not_accepted: size(value.get("notAccepted"))?,
        // Reports from before ledger rules have none.
        added_rules: read_texts(value.get("addedRules"))?,
        removed_rules: read_texts(value.get("removedRules"))?,
    })
}

/// The summary member.
pub(super) fn write_summary(totals: &Totals, out: &mut Vec<u8>) {
    let mut members = Members::open(out);
    members.count("passed", totals.passed);
    members.count("failed", totals.failed);
    members.count("accepted", totals.accepted);
    members.count("triaged", totals.triaged);
    members.count("new", totals.new);
    members.count("changed", totals.changed);
    members.count("stale", totals.stale);
    members.count("orphaned", totals.orphaned);
    members.count("staleRules", totals.rules);
    members.count("skipped", totals.skipped);
    members.count("errors", totals.errors);
    members.count("exitCode", usize::from(totals.exit_code()));
    members.close();
}

/// The summary read back.
pub(super) fn read_summary(value: &Value) -> Option<Summary> {
    let count = |key: &str| size(value.get(key));
    Some(Summary {
        totals: Totals {
            passed: count("passed")?,
            failed: count("failed")?,
            accepted: count("accepted")?,
            triaged: count("triaged")?,
            new: count("new")?,
            changed: count("changed")?,
            stale: count("stale")?,
            orphaned: count("orphaned")?,
            // Reports from before ledger rules have none.
            rules: count("staleRules").unwrap_or(0),
            skipped: count("skipped")?,
            errors: count("errors")?,
        },
        exit_code: u8::try_from(count("exitCode")?).ok()?,
    })
}
