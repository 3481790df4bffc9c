use super::*;
use proptest::prelude::*;

fn range(start: u32, end: u32, count: u64) -> Range {
    Range { start, end, count }
}

fn segments(counts: &Counts) -> Vec<(u32, u32, u64)> {
    counts
        .segments()
        .iter()
        .map(|s| (s.start, s.end, s.count))
        .collect()
}

#[test]
fn the_innermost_range_decides_not_the_sum_of_the_ranges_holding_an_offset() {
    // A function that ran 5 times, an `if` block in it that never ran,
    // and inside the function's tail a loop body that ran 12 times.
    let counts = Counts::of_process([range(0, 100, 5), range(10, 20, 0), range(40, 60, 12)]);
    assert_eq!(
        segments(&counts),
        [
            (0, 10, 5),
            (10, 20, 0),
            (20, 40, 5),
            (40, 60, 12),
            (60, 100, 5)
        ]
    );
    // Summing by offsets would give 5 + 0 at 15 and 5 + 12 at 50.
    assert_eq!(counts.count_at(15), Some(0));
    assert_eq!(counts.count_at(50), Some(12));
    assert_eq!(counts.count_at(100), None);
}

#[test]
fn a_range_nested_two_deep_takes_its_own_count_and_gives_back_its_parents() {
    let counts = Counts::of_process([
        range(0, 50, 1),
        range(5, 45, 3),
        range(10, 20, 0),
        range(30, 40, 7),
    ]);
    assert_eq!(
        segments(&counts),
        [
            (0, 5, 1),
            (5, 10, 3),
            (10, 20, 0),
            (20, 30, 3),
            (30, 40, 7),
            (40, 45, 3),
            (45, 50, 1)
        ]
    );
}

#[test]
fn of_two_equal_ranges_the_later_one_decides() {
    // `cond ? () => a : b`: the arrow function's range is exactly the
    // conditional's branch, and V8 lists the function after its parent.
    let counts = Counts::of_process([range(0, 30, 2), range(10, 20, 0), range(10, 20, 4)]);
    assert_eq!(segments(&counts), [(0, 10, 2), (10, 20, 4), (20, 30, 2)]);
}

#[test]
fn empty_ranges_and_equal_neighbours_leave_no_segment_of_their_own() {
    let counts = Counts::of_process([range(0, 10, 1), range(3, 3, 9), range(5, 10, 1)]);
    assert_eq!(segments(&counts), [(0, 10, 1)]);
    assert!(Counts::of_process([]).is_empty());
}

#[test]
fn across_processes_counts_add_up_where_either_ran_the_script() {
    // One process ran the block, the other skipped it; a third loaded
    // only part of the text.
    let one = Counts::of_process([range(0, 100, 1), range(10, 20, 1)]);
    let two = Counts::of_process([range(0, 100, 1), range(10, 20, 0)]);
    let three = Counts::of_process([range(50, 70, 2)]);
    let both = one.sum(&two);
    assert_eq!(segments(&both), [(0, 10, 2), (10, 20, 1), (20, 100, 2)]);
    let mut all = both.clone();
    all.add(&three);
    assert_eq!(
        segments(&all),
        [
            (0, 10, 2),
            (10, 20, 1),
            (20, 50, 2),
            (50, 70, 4),
            (70, 100, 2)
        ]
    );
    let skipped = two.sum(&two);
    assert_eq!(segments(&skipped), [(0, 10, 2), (10, 20, 0), (20, 100, 2)]);
    assert_eq!(skipped.reached(), [(0, 10), (20, 100)]);
}

#[test]
fn overlapping_ranges_that_v8_never_writes_still_get_an_answer() {
    let counts = Counts::of_process([range(0, 10, 1), range(5, 15, 2), range(12, 13, 0)]);
    assert_eq!(
        segments(&counts),
        [(0, 5, 1), (5, 12, 2), (12, 13, 0), (13, 15, 2)]
    );
}

/// Nested-or-disjoint ranges (what V8 writes for one process): random
/// ranges, each kept when it nests with every range kept before it.
fn laminar() -> impl Strategy<Value = Vec<Range>> {
    prop::collection::vec((0u32..40, 0u32..40, 0u64..4), 0..24).prop_map(|raw| {
        let mut kept: Vec<Range> = Vec::new();
        for (a, b, count) in raw {
            let (start, end) = (a.min(b), a.max(b));
            let nests = kept.iter().all(|k| {
                end <= k.start
                    || k.end <= start
                    || (k.start <= start && end <= k.end)
                    || (start <= k.start && k.end <= end)
            });
            if nests {
                kept.push(range(start, end, count));
            }
        }
        kept
    })
}

/// The law, offset by offset: the smallest range holding the offset, and
/// of equal ranges the later one.
fn innermost_at(ranges: &[Range], offset: u32) -> Option<u64> {
    ranges
        .iter()
        .enumerate()
        .filter(|(_, r)| r.start <= offset && offset < r.end)
        .min_by_key(|(seq, r)| (r.end - r.start, Reverse(*seq)))
        .map(|(_, r)| r.count)
}

fn well_formed(counts: &Counts) -> bool {
    counts.segments().windows(2).all(|pair| {
        pair[0].end <= pair[1].start
            && !(pair[0].end == pair[1].start && pair[0].count == pair[1].count)
    }) && counts.segments().iter().all(|s| s.start < s.end)
}

proptest! {
    #[test]
    fn one_process_counts_each_offset_by_its_innermost_range(ranges in laminar()) {
        let counts = Counts::of_process(ranges.iter().copied());
        prop_assert!(well_formed(&counts));
        for offset in 0..42 {
            prop_assert_eq!(counts.count_at(offset), innermost_at(&ranges, offset), "at {}", offset);
        }
    }

    #[test]
    fn processes_add_up_offset_by_offset(a in laminar(), b in laminar(), c in laminar()) {
        let (a, b, c) = (
            Counts::of_process(a),
            Counts::of_process(b),
            Counts::of_process(c),
        );
        let sum = a.sum(&b);
        prop_assert!(well_formed(&sum));
        for offset in 0..42 {
            let expected = match (a.count_at(offset), b.count_at(offset)) {
                (None, None) => None,
                (x, y) => Some(x.unwrap_or(0) + y.unwrap_or(0)),
            };
            prop_assert_eq!(sum.count_at(offset), expected);
        }
        prop_assert_eq!(&sum, &b.sum(&a));
        prop_assert_eq!(sum.sum(&c), a.sum(&b.sum(&c)));
    }

    #[test]
    fn any_ranges_give_sorted_disjoint_segments(
        raw in prop::collection::vec((0u32..40, 0u32..40, 0u64..4), 0..24)
    ) {
        let counts = Counts::of_process(raw.iter().map(|&(a, b, n)| range(a, b, n)));
        prop_assert!(well_formed(&counts));
        let reached = counts.reached();
        for offset in 0..42 {
            let ran = counts.count_at(offset).is_some_and(|n| n > 0);
            prop_assert_eq!(ran, reached.iter().any(|&(s, e)| s <= offset && offset < e));
        }
    }
}
