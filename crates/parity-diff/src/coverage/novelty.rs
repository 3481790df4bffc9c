//! What a run reaches that others do not: the offsets reached, per
//! script, as sets of intervals, with union, difference and
//! intersection. This is the interface a coverage-guided fuzzer needs:
//! run a batch through [`run_batch`](super::collect::run_batch), take
//! [`Reached::of`] it, and keep the batch when
//! [`beyond`](Reached::beyond) the corpus's reach is not empty; bisect
//! it by the same test; name a kept case by [`Reached::first`].

use std::collections::BTreeMap;

use super::collect::RunCoverage;

/// Reached offsets, per script URL: sorted, disjoint `[start, end)`
/// intervals, no two adjacent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reached {
    scripts: BTreeMap<String, Vec<(u32, u32)>>,
}

/// Sorted, disjoint, non-adjacent intervals of a sorted list of
/// intervals that may overlap.
fn normalized(mut intervals: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    intervals.retain(|(start, end)| start < end);
    intervals.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(intervals.len());
    for (start, end) in intervals {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// `a` without `b` (both normalized).
fn minus(a: &[(u32, u32)], b: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut j = 0;
    for &(mut start, end) in a {
        while j < b.len() && b[j].1 <= start {
            j += 1;
        }
        let mut k = j;
        while start < end {
            match b.get(k) {
                Some(&(cut_start, cut_end)) if cut_start < end => {
                    if start < cut_start {
                        out.push((start, cut_start));
                    }
                    start = start.max(cut_end);
                    k += 1;
                }
                _ => {
                    out.push((start, end));
                    break;
                }
            }
        }
    }
    out
}

impl Reached {
    /// Intervals of one script (in any order, overlapping or not).
    pub fn of_intervals(url: &str, intervals: impl IntoIterator<Item = (u32, u32)>) -> Reached {
        let intervals = normalized(intervals.into_iter().collect());
        let mut scripts = BTreeMap::new();
        if !intervals.is_empty() {
            scripts.insert(url.to_owned(), intervals);
        }
        Reached { scripts }
    }

    /// What one run reached.
    pub fn of(run: &RunCoverage) -> Reached {
        let scripts = run
            .scripts
            .iter()
            .map(|(url, script)| (url.clone(), script.counts.reached()))
            .filter(|(_, reached)| !reached.is_empty())
            .collect();
        Reached { scripts }
    }

    /// Adds what another reached.
    pub fn add(&mut self, other: &Reached) {
        for (url, intervals) in &other.scripts {
            let entry = self.scripts.entry(url.clone()).or_default();
            let mut all = std::mem::take(entry);
            all.extend_from_slice(intervals);
            *entry = normalized(all);
        }
    }

    /// What this reached that `known` did not.
    pub fn beyond(&self, known: &Reached) -> Reached {
        let scripts = self
            .scripts
            .iter()
            .map(|(url, intervals)| {
                let known = known.scripts.get(url).map_or(&[][..], Vec::as_slice);
                (url.clone(), minus(intervals, known))
            })
            .filter(|(_, left)| !left.is_empty())
            .collect();
        Reached { scripts }
    }

    /// What both reached.
    pub fn both(&self, other: &Reached) -> Reached {
        let scripts = self
            .scripts
            .iter()
            .filter_map(|(url, intervals)| {
                let theirs = other.scripts.get(url)?;
                let only_mine = minus(intervals, theirs);
                let common = minus(intervals, &only_mine);
                (!common.is_empty()).then(|| (url.clone(), common))
            })
            .collect();
        Reached { scripts }
    }

    /// The intervals that `keep` keeps, given each one's script URL,
    /// start and end (a fuzzer leaves out those of white space alone).
    pub fn filtered(&self, mut keep: impl FnMut(&str, u32, u32) -> bool) -> Reached {
        let scripts = self
            .scripts
            .iter()
            .map(|(url, intervals)| {
                let kept: Vec<(u32, u32)> = intervals
                    .iter()
                    .copied()
                    .filter(|&(start, end)| keep(url, start, end))
                    .collect();
                (url.clone(), kept)
            })
            .filter(|(_, kept)| !kept.is_empty())
            .collect();
        Reached { scripts }
    }

    /// Whether this reached every offset that `other` did.
    pub fn holds(&self, other: &Reached) -> bool {
        other.beyond(self).is_empty()
    }

    /// Whether nothing was reached.
    pub fn is_empty(&self) -> bool {
        self.scripts.is_empty()
    }

    /// How many code units were reached in all.
    pub fn units(&self) -> u64 {
        self.scripts
            .values()
            .flatten()
            .map(|(start, end)| u64::from(end - start))
            .sum()
    }

    /// The first reached interval: (script URL, start, end).
    pub fn first(&self) -> Option<(&str, u32, u32)> {
        let (url, intervals) = self.scripts.iter().next()?;
        let &(start, end) = intervals.first()?;
        Some((url, start, end))
    }

    /// Every reached interval: (script URL, start, end), in order.
    pub fn intervals(&self) -> impl Iterator<Item = (&str, u32, u32)> {
        self.scripts.iter().flat_map(|(url, intervals)| {
            intervals
                .iter()
                .map(move |&(start, end)| (url.as_str(), start, end))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reached(intervals: &[(u32, u32)]) -> Reached {
        Reached::of_intervals("file:///r.mjs", intervals.iter().copied())
    }

    fn holds(r: &Reached, offset: u32) -> bool {
        r.intervals().any(|(_, s, e)| s <= offset && offset < e)
    }

    #[test]
    fn a_batch_that_reaches_a_new_block_shows_just_that_block() {
        let corpus = reached(&[(0, 10), (20, 100)]);
        let batch = reached(&[(0, 30), (40, 50)]);
        let new = batch.beyond(&corpus);
        assert_eq!(new, reached(&[(10, 20)]));
        assert_eq!(new.first(), Some(("file:///r.mjs", 10, 20)));
        assert_eq!(new.units(), 10);
        assert!(reached(&[(40, 50)]).beyond(&corpus).is_empty());
        assert!(corpus.holds(&reached(&[(2, 8), (30, 40)])));
        assert!(!corpus.holds(&new));
        let wide = batch.filtered(|url, start, end| url == "file:///r.mjs" && end - start > 10);
        assert_eq!(wide, reached(&[(0, 30)]));
        assert!(batch.filtered(|_, _, _| false).is_empty());
        assert_eq!(batch.both(&corpus), reached(&[(0, 10), (20, 30), (40, 50)]));
    }

    proptest! {
        #[test]
        fn union_difference_and_intersection_hold_offset_by_offset(
            a in prop::collection::vec((0u32..50, 0u32..50), 0..8),
            b in prop::collection::vec((0u32..50, 0u32..50), 0..8),
        ) {
            let order = |v: Vec<(u32, u32)>| v.into_iter().map(|(x, y)| (x.min(y), x.max(y))).collect::<Vec<_>>();
            let (a, b) = (reached(&order(a)), reached(&order(b)));
            let mut union = a.clone();
            union.add(&b);
            let (beyond, both) = (a.beyond(&b), a.both(&b));
            for offset in 0..52 {
                let (in_a, in_b) = (holds(&a, offset), holds(&b, offset));
                prop_assert_eq!(holds(&union, offset), in_a || in_b);
                prop_assert_eq!(holds(&beyond, offset), in_a && !in_b);
                prop_assert_eq!(holds(&both, offset), in_a && in_b);
            }
            for r in [&union, &beyond, &both] {
                let list: Vec<_> = r.intervals().map(|(_, s, e)| (s, e)).collect();
                prop_assert!(list.windows(2).all(|w| w[0].1 < w[1].0));
            }
        }
    }
}
