//! `compare` and `run` over inputs of any size: the case file, the golden
//! and the results are read element by element ([`scan`](crate::judge::scan)),
//! compared pair by pair, and each record handed to the report at once,
//! so that memory holds a few elements and the report's aggregates, never
//! a whole input.
//!
//! - [`cases`]: a case file's cases one at a time, and what a pass over
//!   them learns (the selected positions, two cases with one identity).
//! - [`prefetch`]: a case file read on a thread of its own, ahead of
//!   the comparison (`compare --cases`).
//! - [`run`](mod@run): `run`'s large files, streamed through the oracle.
//! - [`live`]: a large file's oracle run on a thread of its own while
//!   its cases are counted as identical ([`passing`]), which is the
//!   report when the output is the golden's bytes.
//! - [`as_golden`]: whether a live run's output is exactly its golden's
//!   elements, matched as it is spooled.
//! - [`gate`]: a report held back until every input has been read whole,
//!   since an input found malformed at its last byte must leave no report.

pub mod as_golden;
pub mod cases;
pub mod gate;
pub mod live;
pub mod passing;
pub mod prefetch;
pub mod run;
