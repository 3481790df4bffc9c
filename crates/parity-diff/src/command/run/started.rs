//! Oracle runs started before the run is planned (issue 23). Planning
//! reads every case file through (to count its cases and fingerprint the
//! corpus); for a large file that is tens of milliseconds in which the
//! oracle could already be reading it. When the run takes every case of
//! every file, once, with no ledger, what a large file's oracle is given
//! (the case file itself) does not hang on the plan: its live run
//! ([`live`]) starts as soon as the files are listed.
//!
//! Only the files among the first `--jobs` of the listing start so:
//! those are the jobs the pool would start first, so that no more than
//! `--jobs` oracles ever run at once.

use std::sync::Mutex;

use super::prepare::{golden_problem, runs_live};
use super::RunArgs;
use crate::corpus::Entry as FileEntry;
use crate::exec::stream::live::{self, Live};
use crate::exec::stream::run::streams;

/// The live runs started early, by their file's position in the listing.
#[derive(Default)]
pub struct Started {
    lives: Vec<Mutex<Option<Live>>>,
}

impl Started {
    /// None started.
    pub fn none() -> Started {
        Started::default()
    }

    /// Starts the live run of each large file among the first `--jobs`
    /// of `files` that a run of `args` would run live, when the run
    /// takes every case of every file and has no ledger (`ledger`: it
    /// has one).
    pub fn start(args: &RunArgs, files: &[FileEntry], ledger: bool) -> Started {
        let whole = args.ops.is_empty() && args.corpus.shard.is_none() && args.rerun.is_none();
        if !whole || ledger || !runs_live(args) {
            return Started::none();
        }
        let lives = files
            .iter()
            .take(args.jobs.max(1))
            .map(|entry| {
                let eligible =
                    entry.broken.is_none() && streams(entry) && golden_problem(entry).is_none();
                let live = eligible
                    .then(|| live::start(entry, None, &args.oracle, args.limits))
                    .flatten();
                Mutex::new(live)
            })
            .collect();
        Started { lives }
    }

    /// The live run started for the file at `position`, if any (once).
    pub fn take(&self, position: usize) -> Option<Live> {
        let slot = self.lives.get(position)?;
        slot.lock().map_or(None, |mut live| live.take())
    }
}
