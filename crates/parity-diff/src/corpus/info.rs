//! What a run read, as its report records it: the corpus and the
//! shard. The plan makes them; reports write them and `merge` checks
//! shards against each other by them.

/// A shard's place in its run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShardInfo {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
    /// The first selected case it took (counted from 0 over the whole
    /// selection, in corpus order).
    pub from: usize,
    /// One past the last.
    pub to: usize,
    /// With `--timings`: the fingerprint of the times the ranges were
    /// balanced by (`None`: by count).
    pub timings: Option<u64>,
}

/// The corpus a run read, as reports record it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusInfo {
    /// A hash over the listed case files' and goldens' relative paths
    /// and bytes (empty in a run whose report is not JSON: it is not
    /// computed).
    pub fingerprint: String,
    /// The case files the filter selected, relative to the cases
    /// directory, in order.
    pub case_files: Vec<String>,
    /// The goldens the filter selected, likewise.
    pub golden_files: Vec<String>,
    /// How many cases were selected (after `--filter` and `--op`, before
    /// `--shard`).
    pub cases: usize,
    /// The cases directory, as given.
    pub case_dir: String,
    /// The goldens directory, as given.
    pub golden_dir: String,
    /// `--filter`, when given.
    pub filter: Option<String>,
    /// `--op`, in the order given (empty: every op).
    pub ops: Vec<String>,
    /// With `--rerun-failed`: the fingerprint of what its report took.
    pub rerun: Option<String>,
}

impl CorpusInfo {
    /// Whether the whole-run checks apply (no filter, no op chosen, no
    /// rerun).
    pub fn is_whole(&self) -> bool {
        self.filter.is_none() && self.ops.is_empty() && self.rerun.is_none()
    }
}
