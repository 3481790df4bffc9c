//! Each case's op, in order, as runs of one op (issue 23): what the plan
//! learns of a large file while it counts its cases, so that the file's
//! live run need not read the case file again to count its identical
//! cases under their ops. A million cases of a few ops cost a few runs.

/// The ops of a file's cases, in order, as runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OpRuns {
    /// Each op met, once, in the order met.
    ops: Vec<String>,
    /// Each run: its op (an index into `ops`; `None`: no op) and how many
    /// cases it has.
    runs: Vec<(Option<u32>, u64)>,
}

impl OpRuns {
    /// The next case has `op`.
    pub fn push(&mut self, op: Option<&str>) {
        if let Some((last, count)) = self.runs.last_mut() {
            let same = match (*last, op) {
                (Some(at), Some(op)) => self.ops[at as usize] == op,
                (None, None) => true,
                _ => false,
            };
            if same {
                *count += 1;
                return;
            }
        }
        let op = op.map(|op| self.op_index(op));
        self.runs.push((op, 1));
    }

    fn op_index(&mut self, op: &str) -> u32 {
        match self.ops.iter().position(|known| known == op) {
            Some(at) => at as u32,
            None => {
                self.ops.push(op.to_owned());
                (self.ops.len() - 1) as u32
            }
        }
    }

    /// How many cases it holds.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|&(_, count)| count).sum()
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
        self.runs
            .iter()
            .flat_map(|&(op, count)| std::iter::repeat_n(op, count as usize))
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
