use super::super::queue::tests::record;
use super::super::queue::{Builder, Decided, Queue};
use super::*;
use crate::ledger::rules::Form;
use crate::report::record::{CaseRecord, CaseState, VerdictKind};

/// Each record's item, in review order.
fn items(records: &[CaseRecord]) -> Vec<Item> {
    let mut builder = Builder::default();
    for record in records {
        builder.case(record).unwrap();
    }
    let mut queue: Queue = builder.finish();
    let mut items = Vec::new();
    while let Some((_, item)) = queue.current() {
        items.push(item.clone());
        queue.decide(Decided::Skipped);
    }
    items
}

fn threw(name: &str, op: &str, state: CaseState) -> CaseRecord {
    CaseRecord {
        thrown: Some("not implemented".into()),
        form: Some(Form::Threw("not implemented".into())),
        ..record(name, op, state, "the port threw \"not implemented\"")
    }
}

fn accept(reason: &str) -> Decision {
    Decision::Accept {
        reason: reason.into(),
    }
}

/// The ledger's entries and rules, without its header.
fn body(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let header_end = text.find("\n\n").map_or(0, |at| at + 2);
    text[header_end..].to_owned()
}

#[test]
fn accepting_and_triaging_write_each_case_s_entry_as_accept_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("parity-ledger.txt");
    let items = items(&[
        record("a", "sum", CaseState::New, "x"),
        record("b", "sum", CaseState::New, "x"),
        record("c", "max", CaseState::New, "y"),
    ]);
    let changes = write(&path, &items[0], &accept("rounds half to even")).unwrap();
    assert_eq!(describe(&changes), "2 entries added");
    let triage = Decision::Triage {
        reason: "sorts keys".into(),
        link: Some("https://example.com/issues/7".into()),
    };
    assert_eq!(
        describe(&write(&path, &items[1], &triage).unwrap()),
        "1 entry added"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(crate::ledger::HEADER), "{text}");
    assert_eq!(
        body(&path),
        concat!(
            "case a.json \"a\"\n",
            "  op: sum\n",
            "  state: accepted\n",
            "  reason: rounds half to even\n",
            "  verdict: different\n",
            "  fingerprint: 00000000000000aa\n",
            "\n",
            "case a.json \"b\"\n",
            "  op: sum\n",
            "  state: accepted\n",
            "  reason: rounds half to even\n",
            "  verdict: different\n",
            "  fingerprint: 00000000000000aa\n",
            "\n",
            "case a.json \"c\"\n",
            "  op: max\n",
            "  state: triaged https://example.com/issues/7\n",
            "  reason: sorts keys\n",
            "  verdict: different\n",
            "  fingerprint: 00000000000000aa\n",
        )
    );
}

#[test]
fn a_changed_entry_is_replaced_and_keeps_its_comments() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.txt");
    std::fs::write(
        &path,
        "# the ledger\n\n# why we keep it\ncase a.json \"a\"\n  op: sum\n  state: accepted\n  \
         reason: old\n  verdict: different\n  fingerprint: 0000000000000001\n",
    )
    .unwrap();
    let items = items(&[record("a", "sum", CaseState::Changed, "x")]);
    let changes = write(&path, &items[0], &accept("new")).unwrap();
    assert_eq!(describe(&changes), "1 entry changed");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains(
            "# why we keep it\ncase a.json \"a\"\n  op: sum\n  state: accepted\n  reason: new\n"
        ),
        "{text}"
    );
    assert!(text.contains("fingerprint: 00000000000000aa"), "{text}");
}

#[test]
fn a_rule_is_written_for_a_group_of_one_op_and_one_form() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.txt");
    let items = items(&[
        threw("a", "sum", CaseState::New),
        threw("b", "sum", CaseState::New),
    ]);
    let rule = Decision::Rule {
        reason: "not ported yet".into(),
    };
    let changes = write(&path, &items[0], &rule).unwrap();
    assert_eq!(describe(&changes), "1 rule added");
    assert!(matches!(&changes[0], Change::AddedRule(_, 2)));
    assert_eq!(
        body(&path),
        "rule op sum\n  match: threw \"not implemented\"\n  state: accepted\n  reason: not ported yet\n"
    );
    // Said once, never twice.
    let again = write(&path, &items[0], &rule).unwrap_err().to_string();
    assert_eq!(
        again,
        "the ledger has that rule already (rule op sum (match: threw \"not implemented\"))"
    );
}

#[test]
fn a_rule_is_refused_where_accept_rule_would_write_entries() {
    let ledger = Ledger::default();
    let rule = Decision::Rule { reason: "r".into() };
    let refused = |records: &[CaseRecord]| changes(&items(records)[0], &rule, &ledger).unwrap_err();
    assert!(refused(&[threw("a", "sum", CaseState::Changed)]).starts_with("a changed case"));
    assert!(refused(&[record("a", "sum", CaseState::New, "x")]).starts_with("no rule can name"));
    let mut crash = record("b", "sum", CaseState::New, "x");
    crash.verdict = VerdictKind::Crash;
    crash.form = Some(Form::Failed(VerdictKind::Crash));
    // One group (one signature), two forms.
    let mut alike = crash.clone();
    alike.signature = threw("a", "sum", CaseState::New).signature;
    assert!(refused(&[threw("a", "sum", CaseState::New), alike]).starts_with("its cases differ"));
    // A crash alone is a rule of its own.
    let Change::AddedRule(rule, 1) = &changes(&items(&[crash])[0], &rule, &ledger).unwrap()[0]
    else {
        panic!("a rule");
    };
    assert_eq!(rule.describe(), "rule op sum (match: crash)");
}

#[test]
fn pruning_removes_stale_and_orphaned_entries_and_rules_found_again_by_what_they_say() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("l.txt");
    std::fs::write(
        &path,
        "# l\n\nrule op first\n  match: any\n  state: accepted\n  reason: one\n\n\
         rule op gone\n  match: any\n  state: accepted\n  reason: two\n\n\
         case a.json \"d\"\n  op: sum\n  state: accepted\n  reason: r\n  fingerprint: 0000000000000001\n\n\
         case gone.json \"g\"\n  state: accepted\n  reason: r\n  fingerprint: 0000000000000002\n",
    )
    .unwrap();
    let mut builder = Builder::default();
    builder
        .case(&record("d", "sum", CaseState::Stale, "s"))
        .unwrap();
    let loaded = Ledger::load(&path).unwrap();
    let orphan = loaded.entries().find(|e| e.id.file == "gone.json").unwrap();
    builder.orphaned(orphan);
    // The run saw the rule at index 1; the ledger has it there still.
    builder.rule(&RuleFinding {
        rule: loaded.rules()[1].clone(),
        index: 0,
        problem: crate::ledger::rules::RuleProblem::Orphaned,
    });
    let mut queue = builder.finish();
    let mut said = Vec::new();
    while let Some((_, item)) = queue.current() {
        let item = item.clone();
        said.push(describe(&write(&path, &item, &Decision::Prune).unwrap()));
        queue.decide(Decided::Pruned);
    }
    assert_eq!(
        said,
        ["1 entry removed", "1 entry removed", "1 rule removed"]
    );
    assert_eq!(
        body(&path),
        "rule op first\n  match: any\n  state: accepted\n  reason: one\n"
    );
    // Pruned already: the ledger no longer holds it, and nothing is written.
    let stale = items(&[record("d", "sum", CaseState::Stale, "s")]);
    let gone = write(&path, &stale[0], &Decision::Prune).unwrap_err();
    assert_eq!(gone.to_string(), "the ledger no longer holds it");
}

#[test]
fn a_decision_that_does_not_fit_its_item_says_why() {
    let ledger = Ledger::default();
    let items = items(&[
        record("a", "sum", CaseState::New, "x"),
        record("d", "sum", CaseState::Stale, "s"),
    ]);
    assert_eq!(
        changes(&items[0], &Decision::Prune, &ledger).unwrap_err(),
        "only stale entries, orphaned entries and rules are pruned"
    );
    assert_eq!(
        changes(&items[1], &accept("r"), &ledger).unwrap_err(),
        "this one is not a divergence: prune it (p) or skip it (s)"
    );
}

#[test]
fn framing_divergences_are_accepted_by_framing_rules() {
    let mut builder = Builder::default();
    builder.ran_file();
    builder.ran_file();
    builder.framing("b.json", "after the last result \"]\\n\"");
    let mut queue = builder.finish();
    let item = queue.current().unwrap().1.clone();
    let triage = Decision::Triage {
        reason: "prints a newline".into(),
        link: None,
    };
    let made = changes(&item, &triage, &Ledger::default()).unwrap();
    let Change::AddedRule(rule, 1) = &made[0] else {
        panic!("{made:?}");
    };
    let mut text = String::new();
    rule.render(&mut text);
    assert_eq!(
        text,
        "rule op *\n  files: b.json\n  match: framing\n  state: triaged\n  reason: prints a newline\n"
    );
    queue.decide(Decided::Triaged);
}
