//! The judge stage, from elements to verdicts: [`scan`] (the one reader
//! of JSON arrays), [`syntax`] (where a JSON value ends, checked in one
//! pass), [`golden`] (the golden format), [`input`] (inputs read as
//! arrays, with the error a command shows), [`compare`] (the verdict on
//! one element), [`explain`] (why the bytes differ),
//! [`pointer`](mod@pointer) (JSON Pointers), [`raw`] (how an element is
//! written), [`textdiff`] (unified diffs), [`framing`] and [`numbers`]
//! (how a contract frames its array and writes its numbers),
//! [`signature`] (what names a divergence) and [`verdict`] (the kinds of
//! verdict). It knows nothing of a corpus, a ledger or a run.

pub mod compare;
pub mod explain;
pub mod first_difference;
pub mod framing;
pub mod golden;
pub mod input;
pub mod numbers;
pub mod pointer;
pub mod raw;
pub mod scan;
pub mod signature;
pub mod syntax;
pub mod textdiff;
pub mod verdict;
