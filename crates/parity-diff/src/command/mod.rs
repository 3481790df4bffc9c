//! The commands, one module each, the flags' structs and the work they
//! start: [`compare`] (one result array against one golden), [`init`],
//! [`run`](mod@run), [`accept`], [`bless`], [`merge`]
//! and [`delta`]; [`suites`]: `run` over several suites of a `parity.toml`
//! into one report. `fuzz` is [`crate::fuzz::command`]; `coverage` and `cmin`
//! are [`crate::coverage::command`].

pub mod accept;
pub mod bless;
pub mod compare;
pub mod delta;
pub mod init;
pub mod merge;
pub mod progress;
pub mod report;
pub mod rerun;
pub mod review;
pub mod run;
pub mod suites;
