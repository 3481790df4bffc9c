//! Comparing result arrays with goldens made by another implementation.
//!
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
//! - The commands: [`arrays`] (`compare`), [`run`] (`run`), [`accept`],
//!   [`bless`]; [`corpus`] lists a corpus's files.

pub mod accept;
pub mod arrays;
pub mod bless;
pub mod cases;
pub mod compare;
pub mod corpus;
pub mod explain;
pub mod glob;
pub mod golden;
pub mod identity;
pub mod ledger;
pub mod oracle;
pub mod pointer;
pub mod raw;
pub mod record;
pub mod redact;
pub mod report;
pub mod run;
pub mod textdiff;
