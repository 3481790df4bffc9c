//! Finding, among a shrinking round's candidates (smallest first), one
//! that still reaches what its case is kept for, alone, in few reference
//! runs.
//!
//! All the candidates run as one batch first: when together they do not
//! reach it, none does alone, and the round ends the shrinking. Beside
//! that batch runs the candidate at the place where the round before
//! found its own (the first one, in the first round): a round most often
//! finds its candidate there (the next element of the same array
//! dropped), and then costs two runs. Else chunks of 1, 2, 4, 8…
//! candidates after that place run, two at a time, then those before it,
//! until a chunk reaches it; inside that chunk the first is found by
//! halving (two runs per halving, the halves at once). So the candidate
//! found is the first that reaches it alone in that order: from the
//! place on, then from the start; the same for every `--jobs`.

use std::ops::Range;

use super::probe::{Probe, Prober};
use crate::coverage::collect::RunCoverage;
use crate::coverage::novelty::Reached;
use crate::fuzz::tree::Node;

/// A candidate found: its place in the round, what it reached, its
/// coverage.
pub type Found = (usize, Reached, RunCoverage);

/// The chunks from `start` on: 1, 2, 4, 8… candidates each, the last
/// cut at `count`.
fn chunks(start: usize, count: usize) -> Vec<Range<usize>> {
    let (mut chunks, mut start, mut size) = (Vec::new(), start, 1);
    while start < count {
        let end = (start + size).min(count);
        chunks.push(start..end);
        (start, size) = (end, size * 2);
    }
    chunks
}

/// The first of `candidates` that reaches all of `target` alone, looked
/// for from `hint` (where the round before found its own) on, then from
/// the start.
pub fn first_reaching(
    prober: &Prober<'_>,
    candidates: &[Node],
    target: &Reached,
    hint: usize,
) -> Option<Found> {
    if candidates.is_empty() {
        return None;
    }
    if candidates.len() == 1 {
        return halve(prober, candidates, 0, target, None);
    }
    let hint = hint.min(candidates.len() - 1);
    let (all, first) = prober.pair(candidates, &candidates[hint..=hint]);
    if !reaches(&all, target) {
        return None;
    }
    if let Some(found) = halve(prober, &candidates[hint..=hint], hint, target, Some(first)) {
        return Some(found);
    }
    // From the hint on, then the candidates before it.
    let after = chunks(hint + 1, candidates.len());
    let before = chunks(0, hint);
    for pair in after.chunks(2).chain(before.chunks(2)) {
        let probes: Vec<Probe> = match pair {
            [one, two] => {
                let (a, b) = prober.pair(&candidates[one.clone()], &candidates[two.clone()]);
                vec![a, b]
            }
            [one] => vec![prober.probe(&candidates[one.clone()])],
            _ => Vec::new(),
        };
        for (chunk, probe) in pair.iter().zip(probes) {
            let found = halve(
                prober,
                &candidates[chunk.clone()],
                chunk.start,
                target,
                Some(probe),
            );
            if found.is_some() {
                return found;
            }
        }
    }
    None
}

fn reaches(probe: &Probe, target: &Reached) -> bool {
    matches!(probe, Probe::Ran { reached, .. } if reached.holds(target))
}

/// The first of `candidates` (`offset`: the first one's place in the
/// round) that reaches all of `target` alone, by halving; `probe` is
/// what they did together, when it is known. The two halves run at once
/// when the prober may (the second is wasted when the first holds it).
fn halve(
    prober: &Prober<'_>,
    candidates: &[Node],
    offset: usize,
    target: &Reached,
    probe: Option<Probe>,
) -> Option<Found> {
    if candidates.is_empty() {
        return None;
    }
    match probe.unwrap_or_else(|| prober.probe(candidates)) {
        Probe::Ran { reached, coverage } => {
            if !reached.holds(target) {
                return None;
            }
            if candidates.len() == 1 {
                return Some((offset, reached, coverage));
            }
        }
        // A candidate the reference fails on is never kept.
        Probe::Failed(_) if candidates.len() == 1 => return None,
        Probe::Failed(_) => {}
    }
    let middle = candidates.len() / 2;
    let (first, second) = candidates.split_at(middle);
    let (a, b) = match prober.parallel() {
        true => {
            let (a, b) = prober.pair(first, second);
            (Some(a), Some(b))
        }
        false => (None, None),
    };
    halve(prober, first, offset, target, a)
        .or_else(|| halve(prober, second, offset + middle, target, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_double_and_cover_every_candidate_from_the_start() {
        assert_eq!(chunks(1, 1), []);
        assert_eq!(chunks(1, 2), vec![Range { start: 1, end: 2 }]);
        assert_eq!(chunks(1, 16), [1..2, 2..4, 4..8, 8..16]);
        assert_eq!(chunks(5, 15), [5..6, 6..8, 8..12, 12..15]);
    }
}
