//! A script's spans: the pieces of its functions that the same cases
//! run.
//!
//! Each case's run gives a count for every offset ([`Counts`]); the
//! boundaries of all of them, and of every function V8 reported, cut the
//! script into elementary pieces. A *span* is a maximal run of adjacent
//! pieces in the same function (the innermost one holding them) that
//! the same set of cases reached. So a span is exactly what V8's block
//! coverage can tell apart at the granularity of cases, whatever blocks
//! V8 merged in one run or the other; and a *never-run* span is a
//! maximal stretch of a function that no case ran, the same however the
//! cases were split into processes.
//!
//! Two adjustments keep the list to what a reader means by a span:
//! - a function that never ran and sits in a never-run stretch of the
//!   function around it (a callback in an `if` that never ran) is part of
//!   that stretch, not a span of its own (V8 itself leaves such a
//!   function out when the function around it never ran at all);
//! - a span of white space alone (the gap before an `else`, after a
//!   loop that never ends) holds no code and is left out.

use std::collections::BTreeMap;

use super::ranges::Counts;
use super::reach::RunSet;
use super::source::Source;

/// A function of the script, as V8 reported it in some run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Its name as V8 gives it (empty for anonymous ones).
    pub name: String,
    /// Where it starts.
    pub start: u32,
    /// Where it ends.
    pub end: u32,
    /// The function around it.
    pub parent: Option<usize>,
    /// How a report and the allowlist name it: the names from the
    /// outermost named scope in, `a > b > (anonymous)`; the script's top
    /// level is `(top level)`.
    pub path: String,
}

/// One span.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    /// The function it is in (an index into [`ScriptSpans::functions`]).
    pub function: usize,
    /// Where it starts.
    pub start: u32,
    /// Where it ends.
    pub end: u32,
    /// The runs (cases) that reached it.
    pub reach: RunSet,
}

/// A script's functions and spans, both in source order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptSpans {
    /// Every function some run reported, outer before inner.
    pub functions: Vec<Function>,
    /// Every span, in source order.
    pub spans: Vec<Span>,
}

/// The name a function shows: its own, `(anonymous)`, or `(top level)`
/// for the script's outermost function.
fn shown_name(name: &str, top: bool) -> &str {
    match (name.is_empty(), top) {
        (false, _) => name,
        (true, true) => "(top level)",
        (true, false) => "(anonymous)",
    }
}

/// The functions in order, each with its parent and path.
fn function_tree(functions: &BTreeMap<(u32, u32), String>) -> Vec<Function> {
    let mut sorted: Vec<(&(u32, u32), &String)> = functions.iter().collect();
    sorted.sort_by_key(|((start, end), _)| (*start, std::cmp::Reverse(*end)));
    let mut tree: Vec<Function> = Vec::with_capacity(sorted.len());
    let mut open: Vec<usize> = Vec::new();
    for (&(start, end), name) in sorted {
        while open.last().is_some_and(|&top| tree[top].end <= start) {
            open.pop();
        }
        let parent = open.last().copied();
        let own = shown_name(name, parent.is_none()).to_owned();
        let path = match parent {
            // Names below the top level say where a function is; the
            // top level itself adds nothing to them.
            Some(parent) if tree[parent].parent.is_some() => {
                format!("{} > {own}", tree[parent].path)
            }
            _ => own,
        };
        tree.push(Function {
            name: name.clone(),
            start,
            end,
            parent,
            path,
        });
        open.push(tree.len() - 1);
    }
    tree
}

/// Builds a script's spans from its functions and each run's counts
/// (`runs[i]` is run `i`'s, summed over its processes; `None` where the
/// run never loaded the script).
pub fn build(
    functions: &BTreeMap<(u32, u32), String>,
    runs: &[Option<Counts>],
    source: &Source,
) -> ScriptSpans {
    let functions = function_tree(functions);
    let mut bounds: Vec<u32> = Vec::new();
    for function in &functions {
        bounds.extend([function.start, function.end]);
    }
    for counts in runs.iter().flatten() {
        for segment in counts.segments() {
            bounds.extend([segment.start, segment.end]);
        }
    }
    bounds.sort_unstable();
    bounds.dedup();
    let pieces = bounds.len().saturating_sub(1);
    let mut reach = vec![RunSet::with_runs(runs.len()); pieces];
    for (run, counts) in runs.iter().enumerate() {
        let Some(counts) = counts else { continue };
        let mut piece = 0;
        for segment in counts.segments().iter().filter(|s| s.count > 0) {
            piece += bounds[piece..].partition_point(|&b| b < segment.start);
            while piece < pieces && bounds[piece + 1] <= segment.end {
                reach[piece].insert(run);
                piece += 1;
            }
        }
    }
    let mut owner = innermost_functions(&functions, &bounds);
    fold_unrun_functions(&functions, &bounds, &reach, &mut owner);
    let mut spans: Vec<Span> = Vec::new();
    for piece in 0..pieces {
        let Some(function) = owner[piece] else {
            continue;
        };
        let (start, end) = (bounds[piece], bounds[piece + 1]);
        if let Some(last) = spans.last_mut() {
            if last.end == start && last.function == function && last.reach == reach[piece] {
                last.end = end;
                continue;
            }
        }
        spans.push(Span {
            function,
            start,
            end,
            reach: reach[piece].clone(),
        });
    }
    spans.retain(|span| !source.is_blank(span.start, span.end));
    ScriptSpans { functions, spans }
}

/// The innermost function holding each piece (`None` outside them all).
fn innermost_functions(functions: &[Function], bounds: &[u32]) -> Vec<Option<usize>> {
    let pieces = bounds.len().saturating_sub(1);
    let mut owner = vec![None; pieces];
    // Functions come outer before inner: each inner one overwrites.
    for (index, function) in functions.iter().enumerate() {
        let first = bounds.partition_point(|&b| b < function.start);
        let last = bounds.partition_point(|&b| b < function.end);
        for piece in owner.iter_mut().take(last).skip(first) {
            *piece = Some(index);
        }
    }
    owner
}

/// Gives a function that no run entered, and that touches a never-run
/// piece of its parent, to that parent; innermost first, so a never-run
/// callback inside a never-run callback goes all the way out.
fn fold_unrun_functions(
    functions: &[Function],
    bounds: &[u32],
    reach: &[RunSet],
    owner: &mut [Option<usize>],
) {
    let mut order: Vec<usize> = (0..functions.len()).collect();
    order.sort_by_key(|&index| {
        let function = &functions[index];
        (function.end - function.start, function.start)
    });
    for index in order {
        let function = &functions[index];
        let Some(parent) = function.parent else {
            continue;
        };
        let first = bounds.partition_point(|&b| b < function.start);
        let last = bounds.partition_point(|&b| b < function.end);
        if first >= last || !reach[first..last].iter().all(RunSet::is_empty) {
            continue;
        }
        let unrun_parent = |piece: usize| owner[piece] == Some(parent) && reach[piece].is_empty();
        let before = first > 0 && unrun_parent(first - 1);
        let after = last < owner.len() && unrun_parent(last);
        if before || after {
            for piece in owner.iter_mut().take(last).skip(first) {
                *piece = Some(parent);
            }
        }
    }
}

#[cfg(test)]
mod tests;
