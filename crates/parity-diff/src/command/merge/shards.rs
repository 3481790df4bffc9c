//! The shards' heads checked, before any record is read, to be the
//! reports of one run: each a `run --shard K/N` report that records its
//! corpus, one N, each K once, one corpus and selection, one balance and
//! one ledger, and ranges that cover the selected cases.

use std::path::{Path, PathBuf};

use crate::base::error::InputError;
use crate::report::json::{ReportHead, ReportReader};

fn shard_name(index: usize, count: usize) -> String {
    format!("{index}/{count}")
}

/// Reads every head and checks that the reports are the shards of one
/// run; returns the first head and the paths in shard order.
pub(super) fn check_shards(paths: &[PathBuf]) -> Result<(ReportHead, Vec<&Path>), InputError> {
    let heads = read_heads(paths)?;
    let Some((first, first_path)) = heads.first() else {
        return Err(InputError::new("merge needs the shards' reports"));
    };
    let (Some(shard), Some(corpus)) = (first.shard, &first.corpus) else {
        unreachable!("checked above");
    };
    for (head, path) in &heads[1..] {
        check_same_run((first, first_path), (head, path))?;
    }
    let by_index = by_index(&heads, shard.count)?;
    check_ranges(&heads, shard.count, corpus.cases)?;
    let first = first.clone();
    let ordered = by_index.into_iter().map(|(_, path)| path).collect();
    Ok((first, ordered))
}

/// Each report's head, checked to be a `run --shard`'s that records its
/// corpus.
fn read_heads(paths: &[PathBuf]) -> Result<Vec<(ReportHead, &Path)>, InputError> {
    let mut heads: Vec<(ReportHead, &Path)> = Vec::with_capacity(paths.len());
    for path in paths {
        let (_, head) = ReportReader::open(path)?;
        let name = path.display();
        if head.command != "run" {
            return Err(InputError::new(format!(
                "{name} is a `{}` report; merge combines the JSON reports of \
                 `parity-diff run --shard K/N`",
                head.command
            )));
        }
        if head.shard.is_none() {
            return Err(InputError::new(format!(
                "{name} is the report of a run without --shard; merge combines the JSON \
                 reports of `parity-diff run --shard K/N` (`parity-diff report {name} \
                 --format F` renders one report in another format)"
            )));
        }
        if head.corpus.is_none() {
            return Err(InputError::new(format!(
                "{name} does not record its corpus; run the shards again with this parity-diff"
            )));
        }
        heads.push((head, path));
    }
    Ok(heads)
}

/// Whether a shard's head is of the same run as the first's: one N, one
/// corpus and selection, one balance and one ledger.
fn check_same_run(
    (first, first_path): (&ReportHead, &Path),
    (head, path): (&ReportHead, &Path),
) -> Result<(), InputError> {
    let (Some(shard), Some(corpus)) = (first.shard, &first.corpus) else {
        unreachable!("checked above");
    };
    let (a, b) = (first_path.display(), path.display());
    let (Some(other), Some(other_corpus)) = (head.shard, &head.corpus) else {
        unreachable!("checked above");
    };
    if other.count != shard.count {
        return Err(InputError::new(format!(
            "{a} is shard {} but {b} is shard {}: the shards of one run are \
             all K/N for one N",
            shard_name(shard.index, shard.count),
            shard_name(other.index, other.count)
        )));
    }
    if other_corpus.fingerprint != corpus.fingerprint
        || other_corpus.case_files != corpus.case_files
        || other_corpus.golden_files != corpus.golden_files
    {
        return Err(InputError::new(format!(
            "{a} and {b} are reports of different corpora (fingerprints {} and {})",
            corpus.fingerprint, other_corpus.fingerprint
        )));
    }
    if other_corpus.filter != corpus.filter
        || other_corpus.ops != corpus.ops
        || other_corpus.cases != corpus.cases
        || other_corpus.rerun != corpus.rerun
    {
        return Err(InputError::new(format!(
            "{a} and {b} selected different cases of the corpus \
             (their --filter, --op or --rerun-failed differ)"
        )));
    }
    if other.timings != shard.timings {
        let balance = |timings: Option<u64>| match timings {
            Some(timings) => format!("by the times of --timings {timings:016x}"),
            None => "by count".to_owned(),
        };
        return Err(InputError::new(format!(
            "{a} was balanced {} but {b} {}: the shards of one run are all balanced \
             by the same --timings (or all without)",
            balance(shard.timings),
            balance(other.timings)
        )));
    }
    let fingerprint = |head: &ReportHead| head.ledger.as_ref().map(|l| l.fingerprint.clone());
    if fingerprint(head) != fingerprint(first) {
        let name = |print: Option<String>| print.unwrap_or_else(|| "none".to_owned());
        return Err(InputError::new(format!(
            "{a} and {b} used different ledgers (fingerprints {} and {})",
            name(fingerprint(first)),
            name(fingerprint(head))
        )));
    }
    Ok(())
}

/// The reports' paths by their shard's index, checked to hold each of
/// the `count` shards once.
fn by_index<'a>(
    heads: &[(ReportHead, &'a Path)],
    count: usize,
) -> Result<Vec<(usize, &'a Path)>, InputError> {
    // Nothing is allocated by the N a report claims: it is checked
    // against the reports given first.
    let mut by_index: Vec<(usize, &Path)> = heads
        .iter()
        .filter_map(|(head, path)| Some((head.shard?.index, *path)))
        .collect();
    by_index.sort_by_key(|&(index, _)| index);
    for pair in by_index.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(InputError::new(format!(
                "overlapping shards: {} and {} are both shard {}",
                pair[0].1.display(),
                pair[1].1.display(),
                shard_name(pair[0].0, count)
            )));
        }
    }
    if by_index.len() != count {
        return Err(missing_shards(&by_index, count));
    }
    Ok(by_index)
}

/// Whether the `count` shards' ranges follow one another and cover the
/// `cases` selected.
fn check_ranges(
    heads: &[(ReportHead, &Path)],
    count: usize,
    cases: usize,
) -> Result<(), InputError> {
    // The ranges follow from N and the case count; a mismatch means a
    // report was edited or made by another planner.
    let mut ranges: Vec<(usize, usize)> = vec![(0, 0); count];
    for (head, _) in heads {
        if let Some(this) = head.shard {
            ranges[this.index - 1] = (this.from, this.to);
        }
    }
    let mut expected = 0;
    for (at, &(from, to)) in ranges.iter().enumerate() {
        if from != expected {
            return Err(InputError::new(format!(
                "shard {} took cases {from}..{to}, but the shard before it ended at {expected}: \
                 the shards do not fit together",
                shard_name(at + 1, count)
            )));
        }
        expected = to;
    }
    if expected != cases {
        return Err(InputError::new(format!(
            "the shards took {expected} cases of the {cases} selected: they do not cover the run"
        )));
    }
    Ok(())
}

/// How many missing shards are named; the rest are counted.
const MISSING_NAMED: usize = 10;

/// The error for shards that were not given (`present`: the indexes
/// given, sorted and distinct, all in 1..=`count`), naming the first few
/// only: a forged N of 10^8 must not make a message of 10^8 names.
fn missing_shards(present: &[(usize, &Path)], count: usize) -> InputError {
    let mut named = Vec::new();
    let mut next = 1;
    for index in present
        .iter()
        .map(|&(index, _)| index)
        .chain(std::iter::once(count + 1))
    {
        while next < index && named.len() < MISSING_NAMED {
            named.push(shard_name(next, count));
            next += 1;
        }
        next = index + 1;
    }
    let missing = count - present.len();
    let more = missing - named.len();
    InputError::new(format!(
        "missing {}: {}{} (merge needs every shard of the run)",
        if missing == 1 { "shard" } else { "shards" },
        named.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    ))
}
