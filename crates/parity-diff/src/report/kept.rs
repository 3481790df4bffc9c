//! The file problems a report that renders at its end keeps until then:
//! the first few, their stderr cut, and a count of the rest, so that a
//! thousand failing files cost a bounded amount of memory.

use super::{FileInfo, Problem};

/// The first problems of a run, and how many more there were.
#[derive(Debug, Default)]
pub struct KeptProblems {
    /// The problems kept, with their files, in report order.
    pub kept: Vec<(FileInfo, Problem)>,
    /// How many came after the first `max` and were only counted.
    pub left_out: usize,
}

impl KeptProblems {
    /// Keeps `problem` (its stderr cut at `stderr_chars` characters) while
    /// fewer than `max` are kept; counts it otherwise.
    pub fn keep(&mut self, file: &FileInfo, problem: &Problem, max: usize, stderr_chars: usize) {
        if self.kept.len() >= max {
            self.left_out += 1;
        } else {
            self.kept
                .push((file.clone(), problem.with_stderr_cut(stderr_chars)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_problems_cut_and_counts_the_rest() {
        let mut problems = KeptProblems::default();
        let error = Problem::Error {
            message: "m".into(),
            stderr: Some("x".repeat(50)),
            skipped: 2,
            port: false,
        };
        for _ in 0..3 {
            problems.keep(&FileInfo::default(), &error, 2, 10);
        }
        assert_eq!(problems.kept.len(), 2);
        assert_eq!(problems.left_out, 1);
        let Problem::Error { stderr, .. } = &problems.kept[0].1 else {
            panic!("an error");
        };
        assert!(stderr.as_deref().unwrap().chars().count() < 50);
    }
}
