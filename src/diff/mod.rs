//! Comparing result arrays with goldens made by another implementation.
//!
//! - [`golden`]: the golden format, and reading any result array as raw
//!   element bytes.
//! - [`compare`]: the verdict on one element: identical, same value with
//!   different bytes ([`explain`] says why), or different (with JSON
//!   Pointers, [`pointer`](mod@pointer)).
//! - [`raw`]: how an element is written, for explanations and
//!   pretty-printing; [`textdiff`]: unified diffs of two elements.
//! - [`redact`]: secrets kept out of reports; [`view`]: what a report
//!   says about one case; [`report`]: human, JSON and JUnit reports.
//! - [`lint`]: what a case file must not hold (placeholders, nameless or
//!   twice-named cases, names of another op, repeated cases).

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
