//! Coverage per op: each span knows the cases that reached it, so an op's
//! figure is the spans reached by its cases out of the spans of the
//! functions its cases enter (a function is entered when one of its spans
//! is reached).

use std::collections::BTreeMap;

use super::reach::RunSet;
use super::spans::ScriptSpans;
use crate::corpus::identity::CaseId;

/// One case of the corpus, by its run's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseInfo {
    /// Its identity.
    pub id: CaseId,
    /// Its op, when it has a string one.
    pub op: Option<String>,
    /// The line of its case file where it starts.
    pub line: usize,
}

/// What an op's cases cover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpCoverage {
    /// The op (`(no op)` for cases without a string op).
    pub op: String,
    /// Its cases.
    pub cases: usize,
    /// The functions its cases enter.
    pub functions: usize,
    /// The spans of those functions.
    pub spans: usize,
    /// Of those, the spans its cases reach.
    pub reached: usize,
    /// Of those, the spans no case at all reaches.
    pub never_run: usize,
}

impl OpCoverage {
    /// The spans of those functions that only other ops' cases reach (an
    /// op switch's other branches, other ops' paths through a helper):
    /// neither reached by this op nor a gap.
    pub fn others(&self) -> usize {
        self.spans - self.reached - self.never_run
    }
}

/// The op a case counts under.
pub fn op_key(case: &CaseInfo) -> &str {
    case.op.as_deref().unwrap_or(crate::report::NO_OP)
}

/// The runs of each op's cases, by op (sorted).
pub fn runs_by_op(cases: &[CaseInfo]) -> BTreeMap<&str, RunSet> {
    let mut ops: BTreeMap<&str, RunSet> = BTreeMap::new();
    for (run, case) in cases.iter().enumerate() {
        ops.entry(op_key(case))
            .or_insert_with(|| RunSet::with_runs(cases.len()))
            .insert(run);
    }
    ops
}

/// Every op's coverage, sorted by op.
pub fn by_op(cases: &[CaseInfo], scripts: &[&ScriptSpans]) -> Vec<OpCoverage> {
    runs_by_op(cases)
        .into_iter()
        .map(|(op, runs)| {
            let mut coverage = OpCoverage {
                op: op.to_owned(),
                cases: runs.len(),
                ..OpCoverage::default()
            };
            for script in scripts {
                let mut entered = vec![false; script.functions.len()];
                for span in &script.spans {
                    entered[span.function] |= span.reach.intersects(&runs);
                }
                coverage.functions += entered.iter().filter(|&&e| e).count();
                for span in script.spans.iter().filter(|span| entered[span.function]) {
                    coverage.spans += 1;
                    coverage.reached += usize::from(span.reach.intersects(&runs));
                    coverage.never_run += usize::from(span.reach.is_empty());
                }
            }
            coverage
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::{CaseId, CaseKey};
    use crate::coverage::spans::{Function, Span};

    fn case(op: Option<&str>) -> CaseInfo {
        CaseInfo {
            id: CaseId {
                file: "a.json".into(),
                key: CaseKey::Hash(String::new()),
            },
            op: op.map(str::to_owned),
            line: 1,
        }
    }

    fn function(name: &str) -> Function {
        Function {
            name: name.into(),
            start: 0,
            end: 0,
            parent: None,
            path: name.into(),
        }
    }

    fn span(function: usize, runs: &[usize]) -> Span {
        Span {
            function,
            start: 0,
            end: 0,
            reach: runs.iter().copied().collect(),
        }
    }

    #[test]
    fn an_op_counts_the_spans_of_the_functions_its_cases_enter() {
        // Runs 0 and 1 are op a, run 2 op b, run 3 has no op.
        let cases = [
            case(Some("a")),
            case(Some("a")),
            case(Some("b")),
            case(None),
        ];
        let script = ScriptSpans {
            functions: vec![
                function("top"),
                function("fa"),
                function("fb"),
                function("dead"),
            ],
            spans: vec![
                span(0, &[0, 1, 2, 3]),
                span(1, &[0]),
                span(1, &[]),
                span(1, &[2]),
                span(2, &[2]),
                span(3, &[]),
            ],
        };
        let ops = by_op(&cases, &[&script]);
        let row = |op: &str| ops.iter().find(|row| row.op == op).unwrap().clone();
        // a enters top and fa (4 spans): reaches top and one of fa's; fa's
        // third span b reaches, so it counts as not reached by a.
        assert_eq!(
            row("a"),
            OpCoverage {
                op: "a".into(),
                cases: 2,
                functions: 2,
                spans: 4,
                reached: 2,
                never_run: 1
            }
        );
        assert_eq!(row("a").others(), 1);
        assert_eq!(
            row("b"),
            OpCoverage {
                op: "b".into(),
                cases: 1,
                functions: 3,
                spans: 5,
                reached: 3,
                never_run: 1
            }
        );
        assert_eq!(
            row("(no op)"),
            OpCoverage {
                op: "(no op)".into(),
                cases: 1,
                functions: 1,
                spans: 1,
                reached: 1,
                never_run: 0
            }
        );
        assert_eq!(
            ops.iter().map(|r| r.op.as_str()).collect::<Vec<_>>(),
            ["(no op)", "a", "b"]
        );
    }
}
