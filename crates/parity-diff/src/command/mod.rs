//! The commands, one module each, the flags' structs and the work they
//! start: [`arrays`] (`compare`, and the input checks every command
//! shares), [`init`], [`run`](mod@run), [`accept`], [`bless`], [`merge`]
//! and [`delta`]; [`suites`]: `run` over several suites of a `parity.toml`
//! into one report. `fuzz` is [`crate::fuzz::command`]; `coverage` and `cmin`
//! are [`crate::coverage::command`].

pub mod accept;
pub mod arrays;
pub mod bless;
pub mod delta;
pub mod init;
pub mod merge;
pub mod report;
pub mod rerun;
pub mod review;
pub mod run;
pub mod suites;
