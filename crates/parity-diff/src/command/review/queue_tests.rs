use super::*;
use crate::corpus::identity::CaseKey;
use crate::ledger::rules::{Match, Rule, RuleOps, RuleProblem};
use crate::report::record::{EntryState, VerdictKind};

/// A failing record of `op`, in state `state`, named `name`, whose
/// signature says `what`.
pub(crate) fn record(name: &str, op: &str, state: CaseState, what: &str) -> CaseRecord {
    CaseRecord {
        file: "a.json".into(),
        id: CaseId {
            file: "a.json".into(),
            key: CaseKey::Name(name.into()),
        },
        op: Some(op.into()),
        name: Some(name.into()),
        label: format!("#0 {op} \"{name}\""),
        verdict: match state {
            CaseState::Stale => VerdictKind::Identical,
            _ => VerdictKind::Different,
        },
        state,
        fingerprint: Some("00000000000000aa".into()),
        signature: Some(Signature::new(Some(op), "different", what)),
        summary: format!("different: {what}"),
        input: Some(format!("{{\"op\":\"{op}\",\"name\":\"{name}\"}}")),
        ..CaseRecord::passing_default()
    }
}

fn entry(file: &str, name: &str) -> Entry {
    Entry {
        id: CaseId {
            file: file.into(),
            key: CaseKey::Name(name.into()),
        },
        op: None,
        state: EntryState::Accepted,
        reason: "r".into(),
        verdict: Some("different".into()),
        paths: Vec::new(),
        fingerprint: "0000000000000001".into(),
        comments: Vec::new(),
    }
}

fn rule_finding() -> RuleFinding {
    RuleFinding {
        rule: Rule {
            ops: RuleOps::Named(vec!["gone".into()]),
            files: None,
            matches: Match::Any,
            state: EntryState::Accepted,
            reason: "r".into(),
            comments: Vec::new(),
        },
        index: 0,
        problem: RuleProblem::Orphaned,
    }
}

/// What each item is, in a word and a count.
fn shape(queue: &Queue) -> Vec<(String, usize)> {
    queue
        .items
        .iter()
        .map(|item| {
            let name = match item {
                Item::Divergences { signature, .. } | Item::Stale { signature, .. } => {
                    format!("{} {}", item.kind(), signature.text)
                }
                Item::Orphaned { file, .. } => format!("orphaned {file}"),
                other => other.kind().to_owned(),
            };
            (name, item.count())
        })
        .collect()
}

#[test]
fn items_come_in_review_order_and_groups_as_reports_order_them() {
    let mut builder = Builder::default();
    builder
        .case(&record("a", "sum", CaseState::New, "x"))
        .unwrap();
    builder
        .case(&record("b", "max", CaseState::Changed, "y"))
        .unwrap();
    builder
        .case(&record("c", "max", CaseState::New, "y"))
        .unwrap();
    builder
        .case(&record("d", "sum", CaseState::Stale, "s"))
        .unwrap();
    builder
        .case(&record("e", "min", CaseState::Failed, "z"))
        .unwrap();
    // Neither passing nor accepted cases are reviewed.
    builder
        .case(&record("f", "sum", CaseState::Accepted, "x"))
        .unwrap();
    builder.case(&CaseRecord::passing_default()).unwrap();
    builder.framing("b.json", "after the last result \"]\\n\"");
    builder.ran_file();
    builder.orphaned(&entry("gone.json", "g1"));
    builder.orphaned(&entry("old.json", "o1"));
    builder.orphaned(&entry("gone.json", "g2"));
    builder.rule(&rule_finding());
    let queue = builder.finish();
    assert_eq!(
        shape(&queue),
        [
            ("new and changed max: y".to_owned(), 2),
            ("new sum: x".to_owned(), 1),
            ("new min: z".to_owned(), 1),
            ("framing".to_owned(), 1),
            ("stale sum: s".to_owned(), 1),
            ("orphaned gone.json".to_owned(), 2),
            ("orphaned old.json".to_owned(), 1),
            ("orphaned".to_owned(), 1),
        ]
    );
    assert!(!queue.items[0].is_prunable() && queue.items[4].is_prunable());
    assert!(queue.items[6].is_prunable() && queue.items[7].is_prunable());
    let Item::Framing { ran, .. } = &queue.items[3] else {
        panic!("{:?}", queue.items[3]);
    };
    assert_eq!(*ran, 1);
}

#[test]
fn a_divergence_keeps_the_entry_that_accepts_it_and_its_record() {
    let mut builder = Builder::default();
    let changed = record("b", "max", CaseState::Changed, "y");
    builder.case(&changed).unwrap();
    let mut queue = builder.finish();
    let case = queue.current_case().unwrap().clone();
    let divergence = case.divergence.clone().unwrap();
    assert!(divergence.changed);
    assert_eq!(divergence.entry.fingerprint, "00000000000000aa");
    assert_eq!(divergence.entry.op.as_deref(), Some("max"));
    assert_eq!(queue.records.get(&case).unwrap(), changed);
}

#[test]
fn cases_are_walked_within_an_item_and_decisions_move_on() {
    let mut builder = Builder::default();
    for name in ["a", "b", "c"] {
        builder
            .case(&record(name, "sum", CaseState::New, "x"))
            .unwrap();
    }
    builder
        .case(&record("d", "sum", CaseState::Stale, "s"))
        .unwrap();
    let mut queue = builder.finish();
    assert_eq!(queue.len(), 2);
    assert!(!queue.previous_case());
    assert!(queue.next_case() && queue.next_case());
    assert!(!queue.next_case(), "the last case stays");
    assert_eq!(queue.case_index(), 2);
    assert_eq!(queue.current_case().unwrap().id.key_text(), "\"c\"");
    assert!(queue.previous_case());
    assert_eq!(queue.case_index(), 1);
    queue.decide(Decided::Accepted);
    assert_eq!(queue.current().unwrap().0, 1);
    assert_eq!(queue.case_index(), 0, "a new item starts at its first case");
    assert!(!queue.is_done());
    assert_eq!(queue.tally().left, 1);
    queue.decide(Decided::Pruned);
    assert!(queue.is_done() && queue.current().is_none());
    assert!(!queue.next_case() && queue.current_case().is_none());
    // Deciding past the end changes nothing.
    queue.decide(Decided::Skipped);
    let tally = queue.tally();
    assert_eq!((tally.accepted, tally.pruned, tally.skipped), (1, 1, 0));
    assert_eq!(
        tally.line(),
        "1 accepted, 0 triaged, 0 as rules, 1 pruned, 0 skipped, 0 left"
    );
}

#[test]
fn nothing_to_review_is_an_empty_queue() {
    let queue = Builder::default().finish();
    assert!(queue.is_empty() && queue.is_done());
}
