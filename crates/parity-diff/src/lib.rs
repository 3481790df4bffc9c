//! Comparing result arrays with goldens made by another implementation:
//! the library behind `parity-diff`. It knows no contract: of the
//! workspace it depends on `js-exact`, `case-tree` and `sys-unix` only,
//! and runs every oracle, ours too, as a command.
//!
//! The library is a stack of stages, declared below from the bottom up.
//! A stage imports from the stages below it, never from one above
//! (`tests/layering.rs` at the workspace's root reads this file's order
//! and holds every import to it, and no file imports itself through a
//! circle); the binary's `cli/` and `main.rs` stand on top. A run reads
//! top to bottom: a command builds a plan from the project and its corpus,
//! hands it to execution, which runs the oracles and judges what comes
//! back against the ledger, and reports consume the records.
//!
//! - [`base`]: the shared leaves: outside text made harmless
//!   ([`outside`](base::outside)), secrets masked ([`redact`](base::redact)),
//!   the one way files are written ([`files`](base::files)), the input
//!   error ([`error`](base::error)), text width ([`columns`](base::columns)),
//!   `--filter` patterns ([`glob`](base::glob)), sizes ([`size`](base::size)).
//! - [`judge`]: elements to verdicts: the one reader of JSON arrays
//!   ([`scan`](judge::scan)), inputs read as arrays ([`input`](judge::input)),
//!   the golden format, the verdict on one element and why it differs.
//! - [`corpus`]: what a run reads before any oracle runs: `parity.toml`
//!   ([`config`](corpus::config)), the corpus's files, case files, stable
//!   case identities, the plan of a run (`--op`, `--shard`), the lint.
//! - [`ledger`]: a port's known divergences: entries and rules, read,
//!   written and locked.
//! - [`report`]: one record per case ([`record`](report::record)), the sink
//!   that tallies, groups and spools records, the one table of formats by
//!   command, and the formats, written and read back.
//! - [`exec`]: oracles run (one batch in a process group of its own,
//!   `--jobs`, bisection, large files streamed) and their output paired
//!   with the cases and judged against the ledger in use
//!   ([`verdicts`](exec::verdicts)).
//! - [`fuzz`]: cases from a generator or mutated from a corpus, through two
//!   oracles, each divergence minimized, findings promoted into the corpus.
//! - [`coverage`]: `coverage` and `cmin`: how much of a Node reference the
//!   corpus runs.
//! - [`command`]: one module per command (`compare`, `init`, `run`,
//!   `accept`, `bless`, `merge`, `delta`, `report`, `review`, `progress`),
//!   each building its plan and handing it down.

// The shared leaves.
pub mod base;

// Elements to verdicts.
pub mod judge;

// The project and its corpus.
pub mod corpus;

// Known divergences.
pub mod ledger;

// Records and the formats that render them.
pub mod report;

// Oracles run, their output judged.
pub mod exec;

// Two oracles against each other.
pub mod fuzz;

// How much of the reference the corpus runs.
pub mod coverage;

// The commands.
pub mod command;
