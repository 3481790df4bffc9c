//! The exec stage, oracles run: [`oracle`] (one batch through an oracle
//! command, in a process group of its own, under a timeout and an output
//! cap), [`pool`] (`--jobs`: runs in parallel, results in corpus order),
//! [`execute`] (one case file through an oracle, bisected by [`bisect`]
//! when it fails), [`file_run`] (one file of `run`: its oracle run and
//! its records), [`repeat`] (`--repeat N`: a file run again, its results
//! compared run with run) and [`stream`] (large files read, run and
//! compared element by element).

pub mod bisect;
pub mod execute;
pub mod file_run;
pub mod known_crash;
pub mod oracle;
pub mod pairing;
pub mod pool;
pub mod repeat;
pub mod stream;
pub mod verdicts;
