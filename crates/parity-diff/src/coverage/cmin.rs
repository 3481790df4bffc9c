//! `parity-diff cmin`: the smallest part of the corpus found with the
//! same per-op coverage. For each op it is a set cover (the spans its
//! cases reach, covered by as few of its cases as possible), solved
//! greedily: the case that reaches the most spans not yet covered, the
//! earlier in corpus order on a tie, until every span is. Greedy is
//! within a factor `ln n` of the smallest, and the same corpus always
//! gives the same answer.

use super::analysis::CaseInfo;
use super::attribution::runs_by_op;
use super::reach::RunSet;
use super::spans::ScriptSpans;

/// Which cases keep the coverage, and which could go.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cover {
    /// The runs kept, in corpus order.
    pub keep: Vec<usize>,
    /// The runs that add nothing, in corpus order.
    pub drop: Vec<usize>,
}

/// The cover of each op's spans. Runs in `unknown` (whose coverage could
/// not be read) are always kept: nothing says they add nothing.
pub fn cover(cases: &[CaseInfo], scripts: &[&ScriptSpans], unknown: &RunSet) -> Cover {
    let mut kept = RunSet::with_runs(cases.len());
    for (_, runs) in runs_by_op(cases) {
        // The op's spans, each as the op's runs that reach it.
        let spans: Vec<RunSet> = scripts
            .iter()
            .flat_map(|script| &script.spans)
            .filter(|span| span.reach.intersects(&runs))
            .map(|span| {
                span.reach
                    .iter()
                    .filter(|&run| runs.contains(run))
                    .collect()
            })
            .collect();
        // Each run's spans, as bits over the op's spans.
        let members: Vec<usize> = runs.iter().collect();
        let mut reaches: Vec<RunSet> = members
            .iter()
            .map(|&run| {
                spans
                    .iter()
                    .enumerate()
                    .filter(|(_, span)| span.contains(run))
                    .map(|(index, _)| index)
                    .collect()
            })
            .collect();
        let mut uncovered: RunSet = (0..spans.len()).collect();
        for (at, &run) in members.iter().enumerate() {
            if unknown.contains(run) {
                kept.insert(run);
                remove_all(&mut uncovered, &reaches[at]);
            }
        }
        while !uncovered.is_empty() {
            let gains = reaches.iter().map(|reach| overlap(reach, &uncovered));
            let (best, gain) =
                gains.enumerate().fold(
                    (0, 0),
                    |best, (at, gain)| if gain > best.1 { (at, gain) } else { best },
                );
            if gain == 0 {
                break;
            }
            kept.insert(members[best]);
            let taken = std::mem::take(&mut reaches[best]);
            remove_all(&mut uncovered, &taken);
        }
    }
    let (keep, drop) = (0..cases.len()).partition(|&run| kept.contains(run));
    Cover { keep, drop }
}

fn overlap(a: &RunSet, b: &RunSet) -> usize {
    a.iter().filter(|&item| b.contains(item)).count()
}

fn remove_all(from: &mut RunSet, items: &RunSet) {
    let left: RunSet = from.iter().filter(|&item| !items.contains(item)).collect();
    *from = left;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::identity::{CaseId, CaseKey};
    use crate::coverage::spans::{Function, Span};

    fn case(op: &str) -> CaseInfo {
        CaseInfo {
            id: CaseId {
                file: "a.json".into(),
                key: CaseKey::Hash(String::new()),
            },
            op: Some(op.into()),
            line: 1,
        }
    }

    fn script(spans: &[&[usize]]) -> ScriptSpans {
        ScriptSpans {
            functions: vec![Function {
                name: String::new(),
                start: 0,
                end: 0,
                parent: None,
                path: "(top level)".into(),
            }],
            spans: spans
                .iter()
                .map(|runs| Span {
                    function: 0,
                    start: 0,
                    end: 0,
                    reach: runs.iter().copied().collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_case_that_reaches_nothing_the_others_do_not_is_dropped() {
        // op a: run 0 reaches spans 0, 1; run 1 only span 1 (redundant);
        // run 2 span 2. op b: run 3 reaches span 1 too: per op, so kept.
        let cases = [case("a"), case("a"), case("a"), case("b")];
        let spans = script(&[&[0], &[0, 1, 3], &[2]]);
        let cover = cover(&cases, &[&spans], &RunSet::default());
        assert_eq!(
            cover,
            Cover {
                keep: vec![0, 2, 3],
                drop: vec![1]
            }
        );
    }

    #[test]
    fn ties_keep_the_earlier_case_and_unknown_runs_are_kept() {
        let cases = [case("a"), case("a"), case("a")];
        let spans = script(&[&[0, 1, 2]]);
        let none = cover(&cases, &[&spans], &RunSet::default());
        assert_eq!(
            none,
            Cover {
                keep: vec![0],
                drop: vec![1, 2]
            }
        );
        let unknown: RunSet = [2].into_iter().collect();
        let kept = cover(&cases, &[&spans], &unknown);
        assert_eq!(
            kept,
            Cover {
                keep: vec![2],
                drop: vec![0, 1]
            }
        );
    }
}
