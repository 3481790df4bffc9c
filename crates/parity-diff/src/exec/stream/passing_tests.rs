use std::collections::BTreeMap;

use super::*;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::CaseRecord;
use crate::report::{FileInfo, Problem};

/// A consumer that writes down what it is counted, call by call.
#[derive(Default)]
struct Log(Vec<(String, u64)>);

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
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        self.0
            .push((format!("{op:?} {unknown_op} {state:?}"), cases));
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

/// What a report makes of counted cases: a sum per op and row.
fn sums(log: &Log) -> BTreeMap<String, u64> {
    let mut sums = BTreeMap::new();
    for (key, cases) in &log.0 {
        *sums.entry(key.clone()).or_default() += cases;
    }
    sums
}

#[test]
fn counts_sum_every_case_per_op_and_row_in_one_call_each() {
    let cases: [(Option<&str>, bool); 8] = [
        (Some("a"), false),
        (Some("a"), false),
        (Some("b"), false),
        (None, false),
        (Some("zz"), true),
        (Some("a"), true),
        (Some("zz"), true),
        (Some("a"), false),
    ];
    let mut ops = OpRuns::default();
    let mut direct = Log::default();
    for (op, unknown) in cases {
        direct.counted(op, unknown, CaseState::Passed, 1).unwrap();
        ops.push(op);
    }
    let mut passing = PassingCounts::of(&ops);
    for (op, (_, unknown)) in ops.cases().zip(cases) {
        passing.push(op, unknown);
    }
    let mut counted = Log::default();
    passing.count_with(&mut counted).unwrap();
    assert_eq!(sums(&counted), sums(&direct));
    assert_eq!(counted.0.len(), 5, "{:?}", counted.0);
    assert_eq!(passing.len(), 8);
}

#[test]
fn a_million_cases_of_one_op_are_one_call() {
    let mut ops = OpRuns::default();
    ops.push(Some("spawnArgs"));
    let mut passing = PassingCounts::of(&ops);
    assert!(passing.is_empty());
    for _ in 0..1_000_000 {
        passing.push(Some(0), false);
    }
    assert_eq!(passing.len(), 1_000_000);
    let mut counted = Log::default();
    passing.count_with(&mut counted).unwrap();
    assert_eq!(
        counted.0,
        [(r#"Some("spawnArgs") false Passed"#.to_owned(), 1_000_000)]
    );
}
