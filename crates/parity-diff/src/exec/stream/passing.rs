//! The counts a file of passing cases gives its report, learned ahead
//! (issue 23): when a large file's results turn out to be its golden's
//! very bytes, every case is identical, and a report that lists no
//! passing case only counts each one under its op ([`Consumer::counted`],
//! as [`compare_case`](crate::judge::compare_case) would). [`PassingRuns`]
//! holds those counts as runs of one op, so that a million cases cost a
//! few runs, and hands them on in order.

use std::io;

use crate::record::CaseState;
use crate::report::Consumer;

/// Cases that pass, in order, as runs of one op and per-op row.
#[derive(Debug, Default)]
pub struct PassingRuns {
    /// Each run: its op (an index into `ops`), whether it stands on the
    /// unknown-op row, and how many cases it has.
    runs: Vec<(Option<u32>, bool, u64)>,
    ops: Vec<String>,
}

impl PassingRuns {
    /// The next case passes: its op, and whether its golden says its op
    /// is unknown.
    pub fn push(&mut self, op: Option<&str>, unknown_op: bool) {
        let op = op.map(|op| self.op_index(op));
        match self.runs.last_mut() {
            Some((last_op, last_unknown, count))
                if (*last_op, *last_unknown) == (op, unknown_op) =>
            {
                *count += 1
            }
            _ => self.runs.push((op, unknown_op, 1)),
        }
    }

    fn op_index(&mut self, op: &str) -> u32 {
        match self.ops.iter().rposition(|known| known == op) {
            Some(at) => at as u32,
            None => {
                self.ops.push(op.to_owned());
                (self.ops.len() - 1) as u32
            }
        }
    }

    /// How many cases it holds.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|&(_, _, count)| count).sum()
    }

    /// Whether it holds no case.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Counts every case, in order, with `consumer`.
    pub fn count_with<C: Consumer>(&self, consumer: &mut C) -> io::Result<()> {
        for &(op, unknown_op, count) in &self.runs {
            let op = op.map(|at| self.ops[at as usize].as_str());
            for _ in 0..count {
                consumer.counted(op, unknown_op, CaseState::Passed)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "passing_tests.rs"]
mod tests;
