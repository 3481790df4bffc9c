//! Each case's op, in order, as runs of one op (issue 23): what the plan
//! learns of a large file while it counts its cases, so that the file's
//! live run need not read the case file again to count its identical
//! cases under their ops. A million cases of a few ops cost a few runs.

use std::collections::HashMap;

/// A run's op when its cases have none.
const NO_OP: u32 = u32::MAX;

/// The ops of a file's cases, in order, as runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpRuns {
    /// Each op met, once, in the order met.
    ops: Vec<String>,
    /// Each op's index in `ops`: a file of many ops (a hostile one, of
    /// one op per case) costs a lookup a case, not a scan of every op.
    index: HashMap<String, u32>,
    /// Each run: its op (an index into `ops`, or [`NO_OP`]) and how many
    /// cases it has; eight bytes a run, as a file whose ops alternate has
    /// nearly a run a case.
    runs: Vec<(u32, u32)>,
    /// How many distinct ops it may hold; past them it is no longer
    /// whole ([`is_whole`](Self::is_whole)).
    most_ops: usize,
    /// Whether every case pushed is held.
    whole: bool,
}

impl Default for OpRuns {
    fn default() -> Self {
        OpRuns::with_most_ops(NO_OP as usize)
    }
}

impl OpRuns {
    /// Runs that hold at most `most_ops` distinct ops.
    fn with_most_ops(most_ops: usize) -> Self {
        OpRuns {
            ops: Vec::new(),
            index: HashMap::new(),
            runs: Vec::new(),
            most_ops: most_ops.min(NO_OP as usize),
            whole: true,
        }
    }

    /// The next case has `op`.
    pub fn push(&mut self, op: Option<&str>) {
        if !self.whole {
            return;
        }
        let op = match op {
            None => NO_OP,
            Some(op) => match self.index.get(op) {
                Some(&at) => at,
                None if self.ops.len() >= self.most_ops => {
                    // Four billion ops: the plan keeps none, and the file
                    // is read again instead.
                    self.whole = false;
                    self.ops = Vec::new();
                    self.index = HashMap::new();
                    self.runs = Vec::new();
                    return;
                }
                None => {
                    let at = self.ops.len() as u32;
                    self.ops.push(op.to_owned());
                    self.index.insert(op.to_owned(), at);
                    at
                }
            },
        };
        match self.runs.last_mut() {
            Some((last, count)) if *last == op && *count < u32::MAX => *count += 1,
            _ => self.runs.push((op, 1)),
        }
    }

    /// Whether it holds every case pushed (it gives up past four
    /// billion distinct ops).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// How many cases it holds.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|&(_, count)| u64::from(count)).sum()
    }

    /// Whether it holds no case.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Each op met, once; [`cases`](Self::cases) gives indices into them.
    pub fn ops(&self) -> &[String] {
        &self.ops
    }

    /// Each case's op, in order, as an index into [`ops`](Self::ops).
    pub fn cases(&self) -> impl Iterator<Item = Option<u32>> + '_ {
        self.runs.iter().flat_map(|&(op, count)| {
            std::iter::repeat_n((op != NO_OP).then_some(op), count as usize)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_give_back_every_case_s_op_in_order() {
        let cases = [
            Some("a"),
            Some("a"),
            Some("b"),
            None,
            None,
            Some("a"),
            Some(""),
        ];
        let mut runs = OpRuns::default();
        assert!(runs.is_empty());
        for op in cases {
            runs.push(op);
        }
        assert_eq!(runs.len(), 7);
        assert_eq!(runs.runs.len(), 5);
        assert_eq!(runs.ops(), ["a", "b", ""]);
        let back: Vec<Option<&str>> = runs
            .cases()
            .map(|op| op.map(|at| runs.ops()[at as usize].as_str()))
            .collect();
        assert_eq!(back, cases);
    }

    /// A case file of one op per case (a hostile one) is held in a
    /// lookup a case: 200 000 distinct ops, each met twice, in a run each.
    #[test]
    fn many_distinct_ops_are_looked_up_not_scanned() {
        let mut runs = OpRuns::default();
        let ops: Vec<String> = (0..200_000).map(|n| format!("op{n}")).collect();
        for op in ops.iter().chain(&ops) {
            runs.push(Some(op));
        }
        assert!(runs.is_whole());
        assert_eq!(runs.ops().len(), 200_000);
        assert_eq!(runs.runs.len(), 400_000);
        let back: Vec<u32> = runs.cases().map(Option::unwrap).collect();
        let expected: Vec<u32> = (0..200_000).chain(0..200_000).collect();
        assert_eq!(back, expected);
    }

    /// Past its most ops the runs hold nothing and say they are not whole
    /// (the plan then keeps none for the file).
    #[test]
    fn past_the_most_ops_the_runs_are_not_whole() {
        let mut runs = OpRuns::with_most_ops(2);
        for op in [Some("a"), None, Some("b"), Some("a")] {
            runs.push(op);
        }
        assert!(runs.is_whole());
        assert_eq!(runs.len(), 4);
        runs.push(Some("c"));
        assert!(!runs.is_whole());
        runs.push(Some("a"));
        assert_eq!((runs.len(), runs.ops().len()), (0, 0));
    }

    #[test]
    fn a_million_cases_of_one_op_are_one_run() {
        let mut runs = OpRuns::default();
        for _ in 0..1_000_000 {
            runs.push(Some("spawnArgs"));
        }
        assert_eq!(runs.runs.len(), 1);
        assert_eq!(runs.len(), 1_000_000);
        assert_eq!(runs.cases().count(), 1_000_000);
    }
}
