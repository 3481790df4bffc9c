//! Comparing result arrays with goldens made by another implementation:
//! the library behind `parity-diff`.
//!
//! The commands:
//! - [`arrays`]: `parity-diff compare`, one result array against one
//!   golden, and the input checks every command shares.
//! - [`run`](mod@run): `parity-diff run`, every selected case of a corpus
//!   through an oracle and against its golden; [`accept`]: `parity-diff
//!   accept`, the ledger brought up to date; [`bless`]: goldens
//!   regenerated from a reference oracle.
//! - [`merge`]: shard reports into one run's; [`delta`]: two runs'
//!   reports, case by case; both read reports back with
//!   [`report_reader`].
//!
//! How a run goes:
//! - [`plan`]: which cases a run sends (`--op`, `--shard` ranges of
//!   cases), counted a case at a time by [`case_stream`]; [`corpus`]
//!   lists the corpus's files, [`glob`] is its `--filter`.
//! - [`pool`]: oracle runs in parallel (`--jobs`), their results taken in
//!   corpus order; [`file_run`]: one file of `run`, its oracle run and its
//!   records; [`execute`]: one case file through an oracle, bisected
//!   ([`bisect`]) when it fails; [`stream`]: large files read, run and
//!   compared element by element.
//! - [`oracle`]: running an oracle on one batch: a shell command in a
//!   process group of its own, under a timeout and an output cap, or our
//!   own batch in process.
//! - [`judge`]: each pair of elements judged, weighed against the ledger
//!   in use, and made a record.
//!
//! What they are built from:
//! - [`record`]: one record per case, everything any report needs;
//!   [`report`]: the sink that tallies, groups and spools records, and the
//!   human, JSON, JUnit, Markdown and HTML formats.
//! - [`ledger`]: a port's known divergences; [`identity`]: stable case
//!   identities and fingerprints.
//! - [`compare`]: the verdict on one element: identical, same value with
//!   different bytes ([`explain`] says why), or different (with JSON
//!   Pointers, [`pointer`](mod@pointer)); [`raw`]: how an element is
//!   written; [`textdiff`]: unified diffs.
//! - [`golden`]: the golden format; [`cases`]: a case file's cases, lines,
//!   ops and identities; [`scan`]: the one reader of JSON arrays, element
//!   by element, from any source.
//! - [`redact`]: secrets kept out of reports; [`lint`]: what a case file
//!   must not hold; [`files`]: the one way files are written; [`error`]:
//!   the input error every command reports as exit status 2.

pub mod accept;
pub mod arrays;
pub mod bisect;
pub mod bless;
pub mod case_stream;
pub mod cases;
pub mod compare;
pub mod corpus;
pub mod delta;
pub mod error;
pub mod execute;
pub mod explain;
pub mod file_run;
pub mod files;
pub mod glob;
pub mod golden;
pub mod identity;
pub mod judge;
pub mod ledger;
pub mod lint;
pub mod merge;
pub mod oracle;
pub mod plan;
pub mod pointer;
pub mod pool;
pub mod raw;
pub mod record;
pub mod redact;
pub mod report;
pub mod report_reader;
pub mod run;
pub mod scan;
pub mod stream;
pub mod textdiff;
