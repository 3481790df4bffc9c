//! Where `--shard K/N`'s ranges fall. Shards are always N contiguous
//! ranges of the selected cases in corpus order, so a file is cut into
//! few pieces and `merge` fits shards together by their ranges alone. By
//! default the ranges are balanced by count (sizes differ by one at
//! most, [`Shard::range`]). With `--timings FILE`, they are balanced by
//! time: each case weighs its file's recorded time per case (a file the
//! timings do not know, the median time per case), and shard K starts at
//! the case where the running weight comes nearest to K/N of the whole,
//! the earlier case on a tie. The same plan and timings always give the
//! same ranges.

use std::ops::Range;

use crate::corpus::Shard;

/// How a run's selected cases are split into shards.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    shard: Shard,
    /// `None`: by count.
    weights: Option<Weights>,
}

/// Each file's cases and what each of them weighs.
#[derive(Debug, Clone, PartialEq)]
struct Weights {
    /// Where each file's cases start among the selected cases.
    starts: Vec<usize>,
    /// The weight of every case before each file's.
    before: Vec<f64>,
    /// What each of a file's cases weighs.
    per_case: Vec<f64>,
    /// The whole.
    total: f64,
}

impl Weights {
    /// The weight of the cases before `position`.
    fn before(&self, position: usize) -> f64 {
        // The last file that starts at or before the position (files
        // without cases start where the next one does, and weigh
        // nothing).
        let file = self.starts.partition_point(|&start| start <= position);
        match file.checked_sub(1) {
            None => 0.0,
            Some(file) => {
                self.before[file] + (position - self.starts[file]) as f64 * self.per_case[file]
            }
        }
    }

    /// The position, from 0 to `cases`, whose weight before it comes
    /// nearest to `target`: the earlier of two as near.
    fn nearest(&self, target: f64, cases: usize) -> usize {
        // The first position whose weight before reaches the target.
        let (mut low, mut high) = (0, cases);
        while low < high {
            let middle = low + (high - low) / 2;
            if self.before(middle) >= target {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        if low > 0 && target - self.before(low - 1) <= self.before(low) - target {
            low - 1
        } else {
            low
        }
    }
}

impl Split {
    /// Ranges balanced by count.
    pub fn by_count(shard: Shard) -> Split {
        Split {
            shard,
            weights: None,
        }
    }

    /// Ranges balanced by weight: `files` are each file's range of the
    /// selected cases (in order, end to end), `per_case` what each of its
    /// cases weighs. Weights that add up to nothing (or to what is not a
    /// number) balance by count.
    pub fn by_weight(shard: Shard, files: &[Range<usize>], per_case: &[f64]) -> Split {
        let mut starts = Vec::with_capacity(files.len());
        let mut before = Vec::with_capacity(files.len());
        let mut weights = Vec::with_capacity(files.len());
        let mut total = 0.0;
        for (range, &weight) in files.iter().zip(per_case) {
            let weight = if weight.is_finite() && weight > 0.0 {
                weight
            } else {
                0.0
            };
            starts.push(range.start);
            before.push(total);
            weights.push(weight);
            total += range.len() as f64 * weight;
        }
        let weights = (total.is_finite() && total > 0.0).then_some(Weights {
            starts,
            before,
            per_case: weights,
            total,
        });
        Split { shard, weights }
    }

    /// The shard.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// Where the `k`-th range (from 0; `count` is the end) starts among
    /// `cases` selected cases.
    fn start(&self, k: usize, cases: usize) -> usize {
        let count = self.shard.count;
        match &self.weights {
            _ if k == 0 => 0,
            _ if k >= count => cases,
            None => ((k as u128 * cases as u128) / count as u128) as usize,
            Some(weights) => weights.nearest(weights.total * k as f64 / count as f64, cases),
        }
    }

    /// The positions, among `cases` selected cases, this shard takes.
    pub fn range(&self, cases: usize) -> Range<usize> {
        let k = self.shard.index;
        self.start(k - 1, cases)..self.start(k, cases)
    }

    /// Whether this shard takes what stands before the case at `cursor`
    /// and holds no case itself (a file without cases): the last shard
    /// whose range starts at or before it, so that exactly one does.
    pub fn owns_gap(&self, cursor: usize, cases: usize) -> bool {
        // Starts grow with K: the owner is found by halving.
        let (mut low, mut high) = (1, self.shard.count);
        while low < high {
            let middle = low + (high - low).div_ceil(2);
            if self.start(middle - 1, cases) <= cursor {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        low == self.shard.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(k: usize, n: usize) -> Shard {
        Shard { index: k, count: n }
    }

    fn ranges(n: usize, split: impl Fn(Shard) -> Split, cases: usize) -> Vec<Range<usize>> {
        (1..=n).map(|k| split(shard(k, n)).range(cases)).collect()
    }

    #[test]
    fn by_count_is_what_shards_always_were() {
        for (n, cases) in [(3, 8), (4, 2), (1, 5), (7, 100), (5, 0)] {
            for k in 1..=n {
                let split = Split::by_count(shard(k, n));
                assert_eq!(
                    split.range(cases),
                    shard(k, n).range(cases),
                    "{k}/{n} of {cases}"
                );
                for cursor in 0..=cases {
                    assert_eq!(
                        split.owns_gap(cursor, cases),
                        shard(k, n).owns_gap(cursor, cases),
                        "{k}/{n} at {cursor}"
                    );
                }
            }
        }
    }

    #[test]
    fn by_weight_the_heavy_cases_are_spread() {
        // Two files of 4 cases: the first's weigh 1, the second's 3.
        let files = [0..4, 4..8];
        let split = |shard| Split::by_weight(shard, &files, &[1.0, 3.0]);
        // The whole weighs 16: halves at 8 (position 5: 4 + 1×3 = 7, 6: 10;
        // 7 is nearer).
        assert_eq!(ranges(2, split, 8), [0..5, 5..8]);
        // Quarters at 4, 8, 12: positions 4 (4), 5 (7, nearer than 10)
        // and 7 (13; 10 is farther).
        assert_eq!(ranges(4, split, 8), [0..4, 4..5, 5..7, 7..8]);
        // One file of three cases weighing 2 each (and one without
        // cases): its thirds fall after one case and after two.
        let one_file = [0..3, 3..3];
        let even = |shard| Split::by_weight(shard, &one_file, &[2.0, 1.0]);
        assert_eq!(ranges(3, even, 3), [0..1, 1..2, 2..3]);
        let halves = |shard| Split::by_weight(shard, &one_file, &[2.0, 1.0]);
        // A tie goes to the earlier case: half of 6 is 3, as near after
        // one case (2) as after two (4).
        assert_eq!(ranges(2, halves, 3), [0..1, 1..3]);
    }

    #[test]
    fn the_ranges_cover_every_case_once_whatever_the_weights() {
        let files = [0..3, 3..3, 3..10, 10..10, 10..11];
        for per_case in [
            [1.0, 5.0, 2.0, 0.0, 100.0],
            [0.0, 0.0, 0.0, 0.0, 0.0],
            [f64::NAN, 1.0, f64::INFINITY, 1.0, 1.0],
            [1e-9, 1.0, 1e9, 1.0, 1.0],
        ] {
            for n in 1..=13 {
                let split = |shard| Split::by_weight(shard, &files, &per_case);
                let ranges = ranges(n, split, 11);
                let mut next = 0;
                for range in &ranges {
                    assert_eq!(range.start, next, "{per_case:?} {n}: {ranges:?}");
                    assert!(range.end >= range.start);
                    next = range.end;
                }
                assert_eq!(next, 11);
                // What holds no case goes to exactly one shard.
                for cursor in 0..=11 {
                    let owners = (1..=n)
                        .filter(|&k| split(shard(k, n)).owns_gap(cursor, 11))
                        .count();
                    assert_eq!(owners, 1, "{per_case:?} {n} at {cursor}");
                }
            }
        }
        // Nothing weighs anything: by count.
        let zero = Split::by_weight(shard(2, 3), &files, &[0.0; 5]);
        assert_eq!(zero.range(11), shard(2, 3).range(11));
    }
}
