//! Comparing result arrays with goldens made by another implementation:
//! the library behind `parity-diff`.
//!
//! The commands:
//! - [`arrays`]: `parity-diff compare`, one result array against one
//!   golden, and the input checks every command shares.
//! - [`run`](mod@run): `parity-diff run`, every selected case of a corpus
//!   through an oracle and against its golden; [`corpus`] lists the
//!   corpus's files, [`glob`] is its `--filter`.
//! - [`accept`]: `parity-diff accept`, the ledger brought up to date.
//! - [`bless`]: `parity-diff bless`, goldens regenerated from a reference
//!   oracle.
//! - [`oracle`]: running an oracle on one batch: a shell command in a
//!   process group of its own, under a timeout, or our own batch in
//!   process.
//!
//! What they are built from:
//! - [`golden`]: the golden format, and reading any result array as raw
//!   element bytes; [`cases`]: a case file's cases, lines, ops and
//!   identities ([`identity`]).
//! - [`compare`]: the verdict on one element: identical, same value with
//!   different bytes ([`explain`] says why), or different (with JSON
//!   Pointers, [`pointer`](mod@pointer)).
//! - [`record`]: one record per case, everything any report needs;
//!   [`ledger`]: a port's known divergences; [`report`]: human, JSON and
//!   JUnit reports from records.
//! - [`raw`]: how an element is written, for explanations and
//!   pretty-printing; [`textdiff`]: unified diffs of two elements;
//!   [`redact`]: secrets kept out of reports.
//! - [`lint`]: what a case file must not hold (placeholders, nameless or
//!   twice-named cases, names of another op, repeated cases).
//! - [`bisect`]: the cases that make an oracle fail; [`execute`]: one
//!   case file through an oracle, bisected when it fails; [`file_run`]:
//!   one file of `run`, its oracle run and its records; [`pool`]: oracle
//!   runs in parallel (`--jobs`), results taken in order; [`files`]: the
//!   one way files are written.

pub mod accept;
pub mod arrays;
pub mod bisect;
pub mod bless;
pub mod case_stream;
pub mod cases;
pub mod compare;
pub mod corpus;
pub mod delta;
pub mod execute;
pub mod explain;
pub mod file_run;
pub mod files;
pub mod glob;
pub mod golden;
pub mod identity;
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
