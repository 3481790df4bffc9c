//! The counts a file of passing cases gives its report, learned ahead
//! (issue 23): when a large file's results turn out to be its golden's
//! very bytes, every case is identical, and a report that lists no
//! passing case only counts each one under its op ([`Consumer::counted`],
//! as [`compare_case`](crate::exec::verdicts::compare_case) would). What a report
//! makes of counted cases is a sum per op and row, whatever their order,
//! so [`PassingCounts`] holds one count per op and row, and hands each on
//! in one call: a million cases of ten ops cost ten.

use std::io;

use crate::corpus::op_runs::OpRuns;
use crate::report::record::CaseState;
use crate::report::Consumer;

/// Cases that pass, counted per op and row.
#[derive(Debug, Default)]
pub struct PassingCounts<'o> {
    /// The ops, as the [`OpRuns`] they were given by has them.
    ops: &'o [String],
    /// Per op (no op first, then each of `ops`) and row (the op's own,
    /// then the unknown-op row): how many cases.
    counts: Vec<u64>,
}

impl<'o> PassingCounts<'o> {
    /// None yet, of the cases whose ops `ops` holds.
    pub fn of(ops: &'o OpRuns) -> Self {
        PassingCounts {
            ops: ops.ops(),
            counts: vec![0; 2 * (ops.ops().len() + 1)],
        }
    }

    /// The next case passes: its op (an index into the [`OpRuns`]'
    /// ops), and whether its golden says its op is unknown.
    pub fn push(&mut self, op: Option<u32>, unknown_op: bool) {
        let at = op.map_or(0, |op| op as usize + 1) * 2 + usize::from(unknown_op);
        if let Some(count) = self.counts.get_mut(at) {
            *count += 1;
        }
    }

    /// How many cases it holds.
    pub fn len(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether it holds no case.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Counts every case with `consumer`, one call per op and row.
    pub fn count_with<C: Consumer>(&self, consumer: &mut C) -> io::Result<()> {
        for (at, &count) in self.counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let op = (at / 2).checked_sub(1).map(|op| self.ops[op].as_str());
            consumer.counted(op, at % 2 == 1, CaseState::Passed, count)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "passing_tests.rs"]
mod tests;
