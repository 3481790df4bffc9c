//! Which cases a run takes. `--filter` picked the files; `--op` picks the
//! cases of some ops; `--shard K/N` takes the K-th of N contiguous ranges
//! of what is selected, in corpus order, balanced by count (sizes differ
//! by one at most) or, with `--timings`, by recorded time
//! ([`balance`](crate::corpus::balance)); `--rerun-failed` keeps, in
//! each range, the cases its report names
//! ([`wanted`](crate::corpus::wanted)). A file whose cases straddle two
//! shards is sent to each shard's oracle as the array of that shard's
//! cases, as `--op` sends a file's selected cases. What holds no case (a
//! file without cases, or one that cannot be read) goes to exactly one
//! shard: the one whose range it stands in.
//!
//! Planning reads every selected case file once, one case at a time, to
//! count its cases, and hashes the case files and goldens, so that a
//! report records the corpus it ran ([`CorpusInfo`]) and `merge` can tell
//! shards of one corpus from shards of two.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::Arc;

use crate::base::error::InputError;
use crate::corpus::balance::Split;
use crate::corpus::cases::{op_of, CaseFile, CaseItem};
use crate::corpus::identity::{CaseId, CaseKey};
use crate::corpus::info::{CorpusInfo, ShardInfo};
use crate::corpus::op_runs::OpRuns;
use crate::corpus::plan_info::{corpus_info, count_gone, hash_files, Hashes};
use crate::corpus::rerun::RerunCount;
use crate::corpus::timings::Timings;
use crate::corpus::wanted::{FileWanted, Wanted};
use crate::corpus::{Corpus, Entry as FileEntry};
use crate::judge::scan::{ElementReader, Lines, Mode, ReadError};
use js_exact::{self as js, TextMode};

/// What a run does with one file of the listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Another shard's: left out of this report.
    Skip,
    /// Every selected case (as without a shard).
    Whole,
    /// The selected cases from `from` to `to` (counted among the file's
    /// selected cases); `tail` when they end the file.
    Cases {
        /// The first.
        from: usize,
        /// One past the last.
        to: usize,
        /// Whether the file's last selected case is among them.
        tail: bool,
    },
}

/// The cases of one file that a run sends, by position in the case file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The positions, in order.
    pub positions: Vec<usize>,
    /// Whether what stands past the file's cases (golden elements
    /// without a case, results without one) is compared here, as a run
    /// without a selection compares it: every op is wanted and these
    /// cases end the file.
    pub tail: bool,
}

/// What a rerun takes of one file of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pick {
    /// Every selected case (the report took the whole file, or the file
    /// cannot be read case by case now: its problem is the rerun's to show).
    Every,
    /// These positions among the file's selected cases.
    Positions(Vec<usize>),
    /// None (the report names nothing of the file).
    Nothing,
}

/// The plan of a run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Per file of the listing: where its selected cases start among all
    /// selected cases, and how many it has.
    files: Vec<Range<usize>>,
    /// Per file of the listing: whether it was read as one array of
    /// cases (when its cases are all selected, `files` counts them all);
    /// `None` when it could not be read through.
    arrays: Vec<Option<bool>>,
    /// With `--rerun-failed`: per file of the listing, what it takes.
    picks: Option<Vec<Pick>>,
    split: Option<Split>,
    /// With `--timings`: their fingerprint, which reports record.
    timings: Option<u64>,
    /// Per file of the listing: its cases' ops, when [`Planning::op_runs`]
    /// asked for them and the file is an array of cases.
    /// Shared, not copied, with the file's run: they hold about a run a
    /// case when ops alternate.
    op_runs: Vec<Option<Arc<OpRuns>>>,
    /// What reports record about the corpus.
    pub info: CorpusInfo,
    /// With `--rerun-failed`: how many cases it takes, and how many of the
    /// report's no longer exist.
    pub rerun: Option<RerunCount>,
}

/// A file's cases as a plan counts them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    /// The cases of the ops wanted.
    count: usize,
    /// Per op of `--op`, its cases.
    per_op: Vec<usize>,
    /// Whether it could be read through (it is hashed on another pass).
    readable: bool,
    /// Whether it is one array, whose cases can be told apart.
    array: bool,
    /// With a rerun's keys: the positions, among the counted cases, of
    /// those it names.
    keyed: Vec<usize>,
    /// With a rerun's keys: how many of them the file holds, whatever
    /// their op.
    met: usize,
    /// When asked for (every case wanted): each case's op.
    op_runs: Option<OpRuns>,
}

/// How a run is planned, besides which cases it wants.
#[derive(Debug, Clone, Copy, Default)]
pub struct Planning<'t> {
    /// Balance a shard by recorded time.
    pub timings: Option<&'t Timings>,
    /// Fingerprint the corpus (else [`CorpusInfo::fingerprint`] is
    /// empty): it hashes every byte of every file, and only the JSON
    /// report records it.
    pub fingerprint: bool,
    /// The files whose cases' ops the count keeps ([`Plan::op_runs`]),
    /// when the run wants every case: those a run compares as they come
    /// (large files), which then need not read their case file again.
    pub op_runs: Option<fn(&FileEntry) -> bool>,
}

/// A file's selected cases, counted as [`CaseFile::read`] splits them
/// (the one array reader, [`ElementReader`]); with its per-op counts and,
/// given a rerun's `keys`, which of its cases they name; with `op_runs`
/// and every case wanted, each case's op.
fn count_cases(
    entry: &FileEntry,
    ops: &[String],
    keys: Option<&BTreeSet<CaseKey>>,
    op_runs: bool,
) -> Counted {
    let every = ops.is_empty() && keys.is_none();
    let mut counted = Counted {
        per_op: vec![0; ops.len()],
        op_runs: (every && op_runs).then(OpRuns::default),
        ..Counted::default()
    };
    if entry.broken.is_some() {
        return counted;
    }
    let Ok(file) =
        crate::base::files::input::open(&entry.case_path, crate::base::files::input::CORPUS_FILE)
    else {
        return counted;
    };
    // Counting needs no line, and a lenient read words no error with one.
    let mut elements = ElementReader::new(file, Mode::Lenient).counting(Lines::None);
    let mut met = BTreeSet::new();
    let array = loop {
        match elements.next_element() {
            Ok(Some(element)) if every => {
                if let Some(runs) = &mut counted.op_runs {
                    CaseItem::with_op_of_raw(element.bytes, |op| runs.push(op));
                }
                counted.count += 1;
            }
            Ok(Some(element)) => {
                let value = js::parse(element.bytes, TextMode::LossyUtf8).ok();
                let at = match ops.is_empty() {
                    true => None,
                    false => value
                        .as_ref()
                        .and_then(op_of)
                        .and_then(|op| ops.iter().position(|o| *o == op)),
                };
                if let Some(at) = at {
                    counted.per_op[at] += 1;
                }
                let selected = ops.is_empty() || at.is_some();
                if let Some(keys) = keys {
                    let id = CaseId::of(&entry.name, element.bytes, value.as_ref());
                    if keys.contains(&id.key) {
                        if selected {
                            counted.keyed.push(counted.count);
                        }
                        met.insert(id.key);
                    }
                }
                if selected {
                    counted.count += 1;
                }
            }
            Ok(None) => break true,
            Err(ReadError::NotAnArray(_)) => break false,
            Err(ReadError::Io(_)) => {
                return Counted {
                    per_op: vec![0; ops.len()],
                    ..Counted::default()
                }
            }
        }
    };
    counted.readable = true;
    counted.array = array;
    counted.met = met.len();
    if !array {
        counted.per_op.iter_mut().for_each(|n| *n = 0);
        counted.count = 0;
        counted.keyed.clear();
        counted.op_runs = None;
    }
    counted
}

/// What the count of every file of the listing learned, in its order.
struct Counts {
    /// Per file: its cases' ops, when kept.
    op_runs: Vec<Option<Arc<OpRuns>>>,
    /// Per file: where its selected cases start among all, and how many.
    ranges: Vec<Range<usize>>,
    /// Per file: whether it is one array of cases (`None`: unreadable).
    arrays: Vec<Option<bool>>,
    /// Per file: whether it could be read through.
    readable: Vec<bool>,
    /// With a rerun: per file, what it takes.
    picks: Vec<Pick>,
    /// Per op of `--op`, its cases.
    op_counts: Vec<usize>,
    /// The selected cases.
    total: usize,
    /// With a rerun: the cases it names that the files no longer hold.
    gone: usize,
}

impl Counts {
    /// Counts each file's cases that `wanted` selects, keeping the ops
    /// of those files `op_runs_of` says.
    fn of(
        files: &[FileEntry],
        wanted: Wanted<'_>,
        op_runs_of: Option<fn(&FileEntry) -> bool>,
    ) -> Counts {
        let ops = wanted.ops;
        let mut counts = Counts {
            op_runs: Vec::with_capacity(files.len()),
            ranges: Vec::with_capacity(files.len()),
            arrays: Vec::with_capacity(files.len()),
            readable: Vec::with_capacity(files.len()),
            picks: Vec::new(),
            op_counts: vec![0; ops.len()],
            total: 0,
            gone: 0,
        };
        for entry in files {
            let of_file = wanted.file(&entry.name);
            let keys = of_file.and_then(|file| file.keys);
            let keeps_ops = op_runs_of.is_some_and(|of| of(entry));
            let mut counted = count_cases(entry, ops, keys, keeps_ops);
            let whole = counted.op_runs.take().filter(OpRuns::is_whole);
            counts.op_runs.push(whole.map(Arc::new));
            let total = counts.total;
            counts.ranges.push(total..total + counted.count);
            counts
                .arrays
                .push(counted.readable.then_some(counted.array));
            counts.readable.push(counted.readable);
            counts.total += counted.count;
            counts
                .op_counts
                .iter_mut()
                .zip(&counted.per_op)
                .for_each(|(n, more)| *n += more);
            if wanted.rerun.is_some() {
                counts.picks.push(match (of_file, keys) {
                    (None, _) => Pick::Nothing,
                    (Some(_), None) => Pick::Every,
                    (Some(_), Some(_)) if !counted.readable || !counted.array => Pick::Every,
                    (Some(_), Some(keys)) => {
                        counts.gone += keys.len() - counted.met;
                        Pick::Positions(counted.keyed)
                    }
                });
            }
        }
        counts
    }
}

impl Plan {
    /// Plans a run of `files` (the corpus's listing): counts the cases
    /// `wanted` selects of each, and fingerprints the corpus; `timings`
    /// balance a shard by time. An op that matches no case is an input
    /// error (whatever a rerun takes), so that a typo in `--op` is not an
    /// empty pass.
    pub fn new(
        corpus: &Corpus,
        files: &[FileEntry],
        wanted: Wanted<'_>,
        timings: Option<&Timings>,
    ) -> Result<Self, InputError> {
        let planning = Planning {
            timings,
            fingerprint: true,
            op_runs: None,
        };
        Plan::planned(corpus, files, wanted, planning)
    }

    /// [`new`](Self::new), as `planning` says.
    pub fn planned(
        corpus: &Corpus,
        files: &[FileEntry],
        wanted: Wanted<'_>,
        planning: Planning<'_>,
    ) -> Result<Self, InputError> {
        let Planning {
            timings,
            fingerprint,
            op_runs: op_runs_of,
        } = planning;
        let ops = wanted.ops;
        // Every file is hashed on a second thread while the case files
        // are counted: the passes share no state. (A golden listing that
        // fails is reported after the case files' own errors, as before.)
        let goldens = corpus.golden_files();
        let (counts, (case_hashes, golden_hashes)) = std::thread::scope(|scope| {
            let hashing = scope.spawn(|| {
                if !fingerprint {
                    return (Vec::new(), Vec::new());
                }
                hash_files(files, goldens.as_deref().unwrap_or_default())
            });
            let counts = Counts::of(files, wanted, op_runs_of);
            match hashing.join() {
                Ok(hashes) => (counts, hashes),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        });
        if let Some(at) = counts.op_counts.iter().position(|&n| n == 0) {
            return Err(InputError::new(format!(
                "--op {} matches no case in the selected case files",
                ops[at]
            )));
        }
        let mut rerun = RerunCount {
            gone: counts.gone,
            ..RerunCount::default()
        };
        if let Some(taken) = wanted.rerun {
            count_gone(corpus, files, taken, &mut rerun);
            rerun.named = !taken.is_empty();
        }
        let goldens = goldens?;
        let hashes = fingerprint.then_some(Hashes {
            cases: case_hashes,
            readable: &counts.readable,
            goldens: golden_hashes,
        });
        let info = corpus_info(
            corpus,
            (files, goldens),
            hashes,
            (counts.total, ops),
            wanted.rerun,
        );
        let split = corpus.shard.map(|shard| match timings {
            Some(timings) => {
                let weights = timings.weights(files.iter().map(|entry| entry.name.as_str()));
                Split::by_weight(shard, &counts.ranges, &weights)
            }
            None => Split::by_count(shard),
        });
        let mut plan = Plan {
            files: counts.ranges,
            arrays: counts.arrays,
            picks: wanted.rerun.map(|_| counts.picks),
            split,
            timings: timings.map(Timings::fingerprint),
            op_runs: counts.op_runs,
            info,
            rerun: None,
        };
        if wanted.rerun.is_some() {
            rerun.selected = plan.rerun_selected();
            plan.rerun = Some(rerun);
        }
        Ok(plan)
    }

    /// The positions, among the selected cases, this run takes.
    fn range(&self) -> Range<usize> {
        match &self.split {
            Some(split) => split.range(self.info.cases),
            None => 0..self.info.cases,
        }
    }

    /// How many cases a rerun sends.
    fn rerun_selected(&self) -> usize {
        let range = self.range();
        let Some(picks) = &self.picks else {
            return 0;
        };
        let overlap =
            |from: usize, to: usize| to.min(range.end).saturating_sub(from.max(range.start));
        self.files
            .iter()
            .zip(picks)
            .map(|(file, pick)| match pick {
                Pick::Every => overlap(file.start, file.end),
                Pick::Positions(positions) => positions
                    .iter()
                    .filter(|&&at| range.contains(&(file.start + at)))
                    .count(),
                Pick::Nothing => 0,
            })
            .sum()
    }

    /// The shard's place, for the report.
    pub fn shard_info(&self) -> Option<ShardInfo> {
        self.split.as_ref().map(|split| {
            let shard = split.shard();
            let range = self.range();
            ShardInfo {
                index: shard.index,
                count: shard.count,
                from: range.start,
                to: range.end,
                timings: self.timings,
            }
        })
    }

    /// What planning learned of the file at `position` when no `--op`
    /// was given: whether it is one array of cases, and how many it has
    /// (what reading it through would learn again, unless it changed
    /// since; a run that then gets another number of results than it
    /// sent runs the file again in memory, reading it afresh).
    pub fn counted(&self, position: usize) -> Option<(bool, usize)> {
        if !self.info.ops.is_empty() {
            return None;
        }
        let array = (*self.arrays.get(position)?)?;
        Some((array, self.files.get(position)?.len()))
    }

    /// The ops of the cases of the file at `position`, in order, when
    /// [`Planning::op_runs`] asked for them (and it is an array of cases).
    pub fn op_runs(&self, position: usize) -> Option<&Arc<OpRuns>> {
        self.op_runs.get(position)?.as_ref()
    }

    /// What the run does with the file at `position` in the listing.
    pub fn part(&self, position: usize) -> Part {
        let pick = self.picks.as_ref().and_then(|picks| picks.get(position));
        match pick {
            Some(Pick::Nothing) => return Part::Skip,
            Some(Pick::Positions(positions)) if positions.is_empty() => return Part::Skip,
            _ => {}
        }
        let part = self.shard_part(position);
        match (pick, part) {
            (Some(Pick::Positions(positions)), Part::Cases { from, to, .. })
                if !positions.iter().any(|at| (from..to).contains(at)) =>
            {
                Part::Skip
            }
            _ => part,
        }
    }

    /// What the shard (if any) takes of the file at `position`.
    fn shard_part(&self, position: usize) -> Part {
        let (Some(split), Some(file)) = (&self.split, self.files.get(position)) else {
            return Part::Whole;
        };
        let total = self.info.cases;
        if file.is_empty() {
            return if split.owns_gap(file.start, total) {
                Part::Whole
            } else {
                Part::Skip
            };
        }
        let range = split.range(total);
        let (from, to) = (file.start.max(range.start), file.end.min(range.end));
        if from >= to {
            Part::Skip
        } else if from == file.start && to == file.end {
            Part::Whole
        } else {
            Part::Cases {
                from: from - file.start,
                to: to - file.start,
                tail: to == file.end,
            }
        }
    }

    /// What the run wants of the file `name` at `position` in the listing:
    /// `wanted`'s choice, or every selected case of a file the rerun can
    /// no longer read case by case.
    pub fn wanted_of<'a>(&self, position: usize, name: &str, wanted: Wanted<'a>) -> FileWanted<'a> {
        let pick = self.picks.as_ref().and_then(|picks| picks.get(position));
        match (pick, wanted.file(name)) {
            (Some(Pick::Positions(_)), Some(file)) => file,
            _ => FileWanted::ops(wanted.ops),
        }
    }
}

/// The cases of `cases` that a part takes; `None` for every case, sent
/// as the file stands.
pub fn select(part: Part, cases: &CaseFile, wanted: FileWanted<'_>) -> Option<Selection> {
    let selection = select_among(part, wanted.every(), || {
        if wanted.ops.is_empty() {
            (0..cases.items.len()).collect()
        } else {
            cases.select(wanted.ops)
        }
    });
    keep_named(selection, wanted, |at| {
        cases.id(at).is_some_and(|id| wanted.by_key(&id))
    })
}

/// A selection narrowed to the cases a rerun names (`named`: whether the
/// case at a position is one).
pub fn keep_named(
    selection: Option<Selection>,
    wanted: FileWanted<'_>,
    named: impl Fn(usize) -> bool,
) -> Option<Selection> {
    match (selection, wanted.keys) {
        (Some(mut selection), Some(_)) => {
            selection.positions.retain(|&at| named(at));
            Some(selection)
        }
        (selection, _) => selection,
    }
}

/// [`select`], given whether every op is wanted and (when asked) the
/// positions of the file's selected cases.
pub fn select_among(
    part: Part,
    every_op: bool,
    selected: impl FnOnce() -> Vec<usize>,
) -> Option<Selection> {
    match part {
        Part::Skip => Some(Selection {
            positions: Vec::new(),
            tail: false,
        }),
        Part::Whole if every_op => None,
        Part::Whole => Some(Selection {
            positions: selected(),
            tail: false,
        }),
        Part::Cases { from, to, tail } => {
            // The file may have changed since it was planned: never
            // index past what it holds now.
            let mut positions = selected();
            let to = to.min(positions.len());
            positions.truncate(to);
            positions.drain(..from.min(to));
            Some(Selection {
                positions,
                tail: tail && every_op,
            })
        }
    }
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
