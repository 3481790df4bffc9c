//! Comparing result arrays with goldens made by another implementation:
//! the library behind `parity-diff`.
//!
//! The commands:
//! - [`corpus`]: a corpus (case files and goldens at the same relative
//!   paths) and `parity-diff run`, every case file through an oracle and
//!   against its golden; [`glob`]: its `--filter` patterns.
//! - [`arrays`]: `parity-diff compare`, one result array against one
//!   golden, and the input checks every command shares.
//! - [`bless`]: `parity-diff bless`, goldens regenerated from a reference
//!   oracle.
//! - [`oracle`]: running an oracle on one case file: a shell command in a
//!   process group of its own, under a timeout, or our own batch in
//!   process.
//!
//! What they are built from:
//! - [`golden`]: the golden format, and reading any result array as raw
//!   element bytes.
//! - [`compare`]: the verdict on one element: identical, same value with
//!   different bytes ([`explain`] says why), or different (with JSON
//!   Pointers, [`pointer`](mod@pointer)).
//! - [`raw`]: how an element is written, for explanations and
//!   pretty-printing; [`textdiff`]: unified diffs of two elements.
//! - [`redact`]: secrets kept out of reports; [`view`]: what a report
//!   says about one case; [`report`]: the tally and the human, JSON and
//!   JUnit reports.
//! - [`lint`]: what a case file must not hold (placeholders, nameless or
//!   twice-named cases, names of another op, repeated cases).
//! - [`identity`]: stable case identities and divergence fingerprints;
//!   [`bisect`]: the cases that make an oracle fail; [`files`]: the one
//!   way files are written.

pub mod arrays;
pub mod bisect;
pub mod bless;
pub mod compare;
pub mod corpus;
pub mod explain;
pub mod files;
pub mod glob;
pub mod golden;
pub mod identity;
pub mod lint;
pub mod oracle;
pub mod pointer;
pub mod raw;
pub mod redact;
pub mod report;
pub mod textdiff;
pub mod view;
