//! The `run` command's inputs, and what they say of the corpus and the
//! ledger.

use std::path::PathBuf;

use crate::corpus::rerun::RerunFiles;
use crate::corpus::timings::Timings;
use crate::corpus::wanted::Wanted;
use crate::corpus::Corpus;
use crate::exec::oracle::{Oracle, OracleOptions};
use crate::judge::framing::Framing;
use crate::judge::signature::ErrorProtocol;
use crate::report::{ExtraReport, KnownOps, ReportOptions};

/// The `run` command's inputs.
#[derive(Debug, Clone)]
pub struct RunArgs {
    /// Who produces the results.
    pub oracle: Oracle,
    /// The corpus.
    pub corpus: Corpus,
    /// `--op`: only these ops' cases (empty: every case).
    pub ops: Vec<String>,
    /// `--ledger`: the ledger's path (default: beside the cases, when
    /// that file exists).
    pub ledger: Option<PathBuf>,
    /// Where the ledger is looked for without `--ledger` (none: beside
    /// the cases); a file that does not exist there means no ledger.
    pub ledger_default: Option<PathBuf>,
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many oracle runs at once.
    pub jobs: usize,
    /// How to report.
    pub report: ReportOptions,
    /// How a result says it threw (the suite's `error-flag` and
    /// `error-message`).
    pub errors: ErrorProtocol,
    /// `--framing`: whether the bytes around the results must be exactly
    /// what `JSON.stringify` prints.
    pub framing: Framing,
    /// `--repeat N`: each file runs N times, and a case whose result
    /// differs between runs is `nondeterministic` (1: once).
    pub repeat: usize,
    /// The suite of `parity.toml` this corpus is, which the report names
    /// on each of its files.
    pub suite: Option<String>,
    /// The suite's `ops`: a case of any other op counts on the `(unknown
    /// op)` row (without: a case whose golden threw `unknown op …`).
    pub known_ops: Option<KnownOps>,
    /// `--rerun-failed`: what its report takes again of this suite.
    pub rerun: Option<RerunFiles>,
    /// `--timings`: the times `--shard` is balanced by.
    pub timings: Option<Timings>,
    /// `--record-timings`: where each file's oracle time is written.
    pub record_timings: Option<PathBuf>,
    /// `--report FORMAT=PATH`: the reports written beside the main one.
    pub extra: Vec<ExtraReport>,
    /// Whether the ledger's known failures of every file run first, one
    /// batch per failure
    /// ([`run_batches`](crate::exec::known_crash::KnownCrashes::run_batches)):
    /// `run`'s choice. `accept` and `review` run each alone, to see each one
    /// fixed.
    pub known_failure_batches: bool,
}

impl RunArgs {
    /// What the run wants of its corpus's cases.
    pub fn wanted(&self) -> Wanted<'_> {
        Wanted {
            ops: &self.ops,
            rerun: self.rerun.as_ref(),
        }
    }

    /// The suite named as showing its secrets (its `redact = false`),
    /// for the report's head; none when it redacts.
    pub fn unredacted(&self) -> Vec<String> {
        match self.report.show_secrets {
            true => vec![self.suite.clone().unwrap_or_default()],
            false => Vec::new(),
        }
    }

    /// The ledger's path: `--ledger`, else the default.
    pub fn ledger_path(&self) -> PathBuf {
        match (&self.ledger, &self.ledger_default) {
            (Some(path), _) | (None, Some(path)) => path.clone(),
            (None, None) => crate::ledger::default_path(&self.corpus.cases),
        }
    }
}
