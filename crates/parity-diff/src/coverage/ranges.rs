//! V8's block ranges made into counts per source offset: within one
//! process, and summed across processes.
//!
//! V8 reports, for each function, the function's own range and then
//! block ranges inside it, and it leaves a nested range out wherever its
//! count equals its parent's (that is what "merged" block coverage
//! means). So an offset's count is the count of the *innermost* range
//! that holds it; adding up every range that holds it would count a
//! parent's executions again for each block nested in it. Across
//! processes (a case whose reference starts a child, or many cases), the
//! counts of one offset add up.
//!
//! A [`Counts`] is that function of offsets, piecewise constant: sorted,
//! disjoint segments, adjacent ones with equal counts merged; an offset
//! outside every segment is one no range held (a script the process
//! never loaded, or text outside its functions).

use std::cmp::Reverse;

/// One range as V8 reports it: `[start, end)` in UTF-16 code units of
/// the script's source, and how many times it ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    /// The first offset.
    pub start: u32,
    /// The offset after the last.
    pub end: u32,
    /// How many times it ran.
    pub count: u64,
}

/// One piece of a [`Counts`]: every offset in `[start, end)` ran `count`
/// times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// The first offset.
    pub start: u32,
    /// The offset after the last.
    pub end: u32,
    /// How many times each offset in it ran.
    pub count: u64,
}

/// A count for each offset of a script, as sorted, disjoint segments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    segments: Vec<Segment>,
}

/// Appends a segment, merged with the last one when it continues it at
/// the same count.
fn push(segments: &mut Vec<Segment>, start: u32, end: u32, count: u64) {
    if start >= end {
        return;
    }
    if let Some(last) = segments.last_mut() {
        if last.end == start && last.count == count {
            last.end = end;
            return;
        }
    }
    segments.push(Segment { start, end, count });
}

impl Counts {
    /// One process's counts for one script, from its ranges in V8's order
    /// (each function in turn, its own range first, then its blocks):
    /// each offset gets the count of the innermost range holding it, and
    /// of two equal ranges the later one (a function whose range is
    /// exactly a block of the function around it is the inner one).
    /// Ranges that V8 never nests otherwise but that overlap here are
    /// taken as the later-starting one winning where they overlap, so
    /// that any input has an answer.
    pub fn of_process(ranges: impl IntoIterator<Item = Range>) -> Counts {
        let mut sorted: Vec<(usize, Range)> = ranges
            .into_iter()
            .filter(|range| range.start < range.end)
            .enumerate()
            .collect();
        // Outer before inner at the same start; of equal ranges, the
        // later is pushed later and so is on top.
        sorted.sort_by_key(|(seq, range)| (range.start, Reverse(range.end), *seq));
        let mut segments = Vec::new();
        // The ranges holding the sweep's position, innermost on top:
        // (end, count).
        let mut open: Vec<(u32, u64)> = Vec::new();
        let mut at = 0u32;
        for (_, range) in sorted {
            close_until(&mut open, &mut at, range.start, &mut segments);
            at = at.max(range.start);
            open.push((range.end, range.count));
        }
        close_until(&mut open, &mut at, u32::MAX, &mut segments);
        Counts { segments }
    }

    /// Counts made of segments (sorted and disjoint, or they are sorted
    /// and the later of two overlapping ones loses its overlap).
    pub fn from_segments(segments: impl IntoIterator<Item = Segment>) -> Counts {
        let mut sorted: Vec<Segment> = segments.into_iter().collect();
        sorted.sort_by_key(|segment| (segment.start, segment.end));
        let mut merged = Vec::with_capacity(sorted.len());
        let mut at = 0;
        for segment in sorted {
            let start = segment.start.max(at);
            push(&mut merged, start, segment.end, segment.count);
            at = at.max(segment.end);
        }
        Counts { segments: merged }
    }

    /// The segments, sorted and disjoint.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Whether no range held any offset.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The count at one offset, or `None` where no range held it.
    pub fn count_at(&self, offset: u32) -> Option<u64> {
        let after = self.segments.partition_point(|s| s.start <= offset);
        let segment = self.segments[..after].last()?;
        (offset < segment.end).then_some(segment.count)
    }

    /// The counts of two sets of processes together: offset by offset
    /// the sum, where either has a count.
    pub fn sum(&self, other: &Counts) -> Counts {
        let (a, b) = (&self.segments, &other.segments);
        let mut bounds: Vec<u32> = Vec::with_capacity(2 * (a.len() + b.len()));
        for segment in a.iter().chain(b) {
            bounds.push(segment.start);
            bounds.push(segment.end);
        }
        bounds.sort_unstable();
        bounds.dedup();
        let (mut i, mut j) = (0, 0);
        let mut segments = Vec::new();
        for pair in bounds.windows(2) {
            let (start, end) = (pair[0], pair[1]);
            let count_in = |list: &[Segment], index: &mut usize| {
                while *index < list.len() && list[*index].end <= start {
                    *index += 1;
                }
                list.get(*index)
                    .filter(|segment| segment.start <= start)
                    .map(|segment| segment.count)
            };
            let total = match (count_in(a, &mut i), count_in(b, &mut j)) {
                (None, None) => continue,
                (x, y) => x.unwrap_or(0).saturating_add(y.unwrap_or(0)),
            };
            push(&mut segments, start, end, total);
        }
        Counts { segments }
    }

    /// Adds another set of processes' counts to these.
    pub fn add(&mut self, other: &Counts) {
        if self.segments.is_empty() {
            self.segments = other.segments.clone();
        } else if !other.segments.is_empty() {
            *self = self.sum(other);
        }
    }

    /// The offsets that ran at least once, as sorted, disjoint
    /// `[start, end)` pairs with no two adjacent.
    pub fn reached(&self) -> Vec<(u32, u32)> {
        let mut reached: Vec<(u32, u32)> = Vec::new();
        for segment in self.segments.iter().filter(|s| s.count > 0) {
            match reached.last_mut() {
                Some(last) if last.1 == segment.start => last.1 = segment.end,
                _ => reached.push((segment.start, segment.end)),
            }
        }
        reached
    }
}

/// Ends the open ranges that end by `until`, writing what each of them
/// decided on the way: the top of `open` decides from `at` to the
/// nearer of its end and `until`.
fn close_until(open: &mut Vec<(u32, u64)>, at: &mut u32, until: u32, out: &mut Vec<Segment>) {
    while let Some(&(end, count)) = open.last() {
        if end <= *at {
            // Ended under a range that outlasted it.
            open.pop();
            continue;
        }
        let stop = end.min(until);
        if *at < stop {
            push(out, *at, stop, count);
            *at = stop;
        }
        if end <= until {
            open.pop();
        } else {
            break;
        }
    }
}

#[cfg(test)]
mod tests;
