use super::*;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::record::CaseRecord;
use crate::report::{FileInfo, Problem};

/// A consumer that writes down what it is counted.
#[derive(Default)]
struct Log(Vec<String>);

impl Consumer for Log {
    fn explains(&self) -> bool {
        false
    }
    fn fingerprints(&self) -> bool {
        false
    }
    fn wants_detail(&self, _: &CaseRecord) -> bool {
        false
    }
    fn wants_passing(&self) -> bool {
        false
    }
    fn counted(&mut self, op: Option<&str>, unknown_op: bool, state: CaseState) -> io::Result<()> {
        self.0.push(format!("{op:?} {unknown_op} {state:?}"));
        Ok(())
    }
    fn begin_file(&mut self, _: FileInfo) -> io::Result<()> {
        Ok(())
    }
    fn case(&mut self, _: CaseRecord) -> io::Result<()> {
        Ok(())
    }
    fn problem(&mut self, _: Problem) -> io::Result<()> {
        Ok(())
    }
    fn warning(&mut self, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn end_file(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn orphaned_entry(&mut self, _: &Entry) {}
    fn rule_finding(&mut self, _: &RuleFinding) {}
}

#[test]
fn runs_count_every_case_in_its_order() {
    let cases: [(Option<&str>, bool); 7] = [
        (Some("a"), false),
        (Some("a"), false),
        (Some("b"), false),
        (None, false),
        (Some("zz"), true),
        (Some("zz"), true),
        (Some("a"), false),
    ];
    let mut direct = Log::default();
    let mut runs = PassingRuns::default();
    for (op, unknown) in cases {
        direct.counted(op, unknown, CaseState::Passed).unwrap();
        runs.push(op, unknown);
    }
    let mut counted = Log::default();
    runs.count_with(&mut counted).unwrap();
    assert_eq!(counted.0, direct.0);
    assert_eq!(runs.len(), 7);
    assert_eq!(runs.runs.len(), 5);
    assert_eq!(runs.ops, ["a", "b", "zz"]);
}

#[test]
fn a_million_cases_of_one_op_are_one_run() {
    let mut runs = PassingRuns::default();
    assert!(runs.is_empty());
    for _ in 0..1_000_000 {
        runs.push(Some("spawnArgs"), false);
    }
    assert_eq!(runs.runs.len(), 1);
    assert_eq!(runs.len(), 1_000_000);
}
