//! Running an oracle over one case file: a command (`sh -c CMD`, the case
//! file on its stdin, its result array on stdout). Every oracle is one:
//! parity-diff knows no contract, so it has no oracle of its own.
//!
//! A command runs in a process group of its own, so that stopping it
//! reaches everything it started (`sh -c` leaves grandchildren holding
//! the pipes otherwise). It is stopped when it outlives its timeout or
//! its stdout passes `--max-output`: SIGTERM to the group, so that its own
//! cleanup runs, then SIGKILL after the grace (see `oracle/command.rs`). A
//! command that exits non-zero, dies of a signal, is stopped, or prints
//! anything but one JSON array is a failure for that file, with the end
//! of its stderr kept for the report.
//!
//! A command that exits while something it started (a daemon that left
//! its group, a background job) still holds its stdout or stderr is done:
//! `--kill-grace` after its exit those processes are stopped, its output
//! is judged as printed, and the leak is noted as a warning
//! (`oracle/leaks.rs`), never a timeout.
//!
//! Every running command's group is registered process-wide
//! (`oracle/groups.rs`), so that [`install_signal_handlers`] can stop them all
//! when `parity-diff` itself gets SIGINT, SIGTERM or SIGHUP.

mod command;
mod failure;
mod groups;
#[cfg(test)]
mod leak_tests;
mod leaks;
mod options;
mod outcome;
pub mod results;
mod signals;
mod spooled;
#[cfg(test)]
mod streamed_tests;

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};

use command::Input;
pub use command::Watch;
pub use failure::{FailureKind, OracleFailure};
pub use groups::stopping;
pub use options::{
    corpus_max_output, OracleOptions, CORPUS_OUTPUT_FACTOR, DEFAULT_KILL_GRACE, FUZZ_MAX_OUTPUT,
    MIN_CORPUS_MAX_OUTPUT,
};
use spooled::Captured;

/// Stops every oracle command still running (SIGTERM, its grace,
/// SIGKILL) and starts no more; returns how many there were. For the end
/// of a run that failed where its own stops could not run (a panic):
/// no oracle is left behind.
pub fn stop_every_oracle() -> usize {
    groups::shut_down(|| false)
}
pub use leaks::{leak_warnings, Leak};
pub use signals::{before_signal_exit, install_signal_handlers, SignalGuard};

/// The oracle that produces the results: a shell command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oracle {
    command: String,
}

/// An oracle's stdout on disk: see [`Oracle::run_streamed`].
#[derive(Debug)]
pub struct Streamed {
    /// The stdout, read from its start.
    pub output: File,
    /// How many elements its array has.
    pub elements: usize,
    /// How many of them are not JSON: when any is, the array is not JSON
    /// as a whole, and is read with [`Mode::Lenient`](crate::judge::scan::Mode)
    /// and each element judged ([`results::element_failure`]).
    pub invalid: usize,
    /// Where its framing differs from what `JSON.stringify` prints, for
    /// people (`None`: exact, or not known for an array that is not JSON
    /// as a whole).
    pub framing: Option<String>,
}

/// The leaks of one file's (or batch's) oracle runs, in the order they
/// ran: each a warning of its own (see [`Leak`]).
#[derive(Debug, Default)]
pub struct LeakLog(RefCell<Vec<Leak>>);

impl LeakLog {
    fn note(&self, leak: Option<Leak>) {
        self.0.borrow_mut().extend(leak);
    }

    /// The leaks noted.
    pub fn into_leaks(self) -> Vec<Leak> {
        self.0.into_inner()
    }
}

impl Oracle {
    /// The oracle `sh -c command` runs.
    pub fn command(command: impl Into<String>) -> Self {
        Oracle {
            command: command.into(),
        }
    }

    /// Its command, as `sh -c` would run it.
    pub fn as_command(&self) -> &str {
        &self.command
    }

    /// Runs the command with `input` (a file) on its stdin and its stdout
    /// spooled to an anonymous temporary file, checked as
    /// [`run`](Self::run) checks it, with the same limits and messages
    /// (and counted: its elements, and those that are not JSON),
    /// so that a case file of a million cases costs disk, not memory.
    pub fn run_streamed(
        &self,
        input: File,
        options: OracleOptions,
        leaks: &LeakLog,
    ) -> Result<Streamed, OracleFailure> {
        let spool = new_spool()?;
        self.run_spooled(input, spool, options, leaks)
    }

    /// Runs the oracle on a case file, its stdout spooled to a new file
    /// that is not read: the caller learns what it holds
    /// ([`check_spooled`]), when it needs to, or as it comes (`watch`).
    pub fn run_unchecked(
        &self,
        input: File,
        options: OracleOptions,
        leaks: &LeakLog,
        watch: Option<Watch>,
    ) -> Result<File, OracleFailure> {
        let spool = command::Spool {
            file: new_spool()?,
            check: false,
            watch,
        };
        let (ran, leak) =
            command::run_command_with(&self.command, Input::File(input), Some(spool), options);
        leaks.note(leak);
        match ran?.0 {
            Captured::File(file) => Ok(file),
            Captured::Memory(_) => Err(OracleFailure::new(
                FailureKind::Crash,
                "the oracle's output was not spooled".to_owned(),
            )),
        }
    }

    fn run_spooled(
        &self,
        input: File,
        spool: File,
        options: OracleOptions,
        leaks: &LeakLog,
    ) -> Result<Streamed, OracleFailure> {
        let spool = command::Spool {
            file: spool,
            check: true,
            watch: None,
        };
        let (ran, leak) =
            command::run_command_with(&self.command, Input::File(input), Some(spool), options);
        leaks.note(leak);
        ran.and_then(|(output, counted)| match output {
            Captured::File(output) => Ok(Streamed {
                output,
                elements: counted.elements,
                invalid: counted.invalid,
                framing: counted.framing,
            }),
            Captured::Memory(_) => Err(OracleFailure::new(
                FailureKind::Crash,
                "the oracle's output was not spooled".to_owned(),
            )),
        })
    }

    /// Runs the oracle on one case file and returns its stdout, checked to
    /// be an array whose elements can be told apart: some may not be JSON,
    /// which [`results::read_results`] says, element by element.
    /// Processes it leaves holding its output are stopped and noted in
    /// `leaks` (see [`Leak`]).
    pub fn run_noting(
        &self,
        input: &[u8],
        options: OracleOptions,
        leaks: &LeakLog,
    ) -> Result<Vec<u8>, OracleFailure> {
        let (ran, leak) = command::run_command(&self.command, input, options);
        leaks.note(leak);
        ran
    }

    /// [`run_noting`](Self::run_noting) for a caller that reports no
    /// leaks itself: each is a warning on stderr.
    pub fn run(&self, input: &[u8], options: OracleOptions) -> Result<Vec<u8>, OracleFailure> {
        let leaks = LeakLog::default();
        let ran = self.run_noting(input, options, &leaks);
        for leak in leaks.into_leaks() {
            let _ = writeln!(io::stderr(), "parity-diff: warning: {leak}");
        }
        ran
    }
}

/// What an output spooled unchecked ([`Oracle::run_unchecked`]) holds,
/// read through as [`Oracle::run_streamed`] reads its own: its counts, or
/// why it is no result array (without the oracle's stderr, which the
/// caller has no use for then: it runs the file again).
pub fn check_spooled(output: File) -> Result<Streamed, OracleFailure> {
    match spooled::check_file(output) {
        Ok(Ok((counted, Captured::File(output)))) => Ok(Streamed {
            output,
            elements: counted.elements,
            invalid: counted.invalid,
            framing: counted.framing,
        }),
        Ok(Ok((_, Captured::Memory(_)))) => Err(OracleFailure::new(
            FailureKind::Crash,
            "the oracle's output was not spooled".to_owned(),
        )),
        Ok(Err((failure, _, _))) => Err(failure),
        Err(message) => Err(OracleFailure::new(FailureKind::Crash, message)),
    }
}

/// An unnamed temporary file for an oracle's output.
pub fn new_spool() -> Result<File, OracleFailure> {
    tempfile::tempfile().map_err(|error| {
        OracleFailure::new(
            FailureKind::Crash,
            format!("cannot spool the oracle's output to a temporary file: {error}"),
        )
    })
}

/// `text` as one word of a shell command: as it is when nothing in it is
/// special to `sh`, else in single quotes (each `'` written `'\''`).
pub fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests;
