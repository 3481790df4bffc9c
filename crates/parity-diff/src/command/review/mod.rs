//! `parity-diff review`: the divergences of a run (or of a JSON report)
//! walked in a terminal, group by group and case by case, each decision
//! written to the ledger as `accept` writes it.
//!
//! - [`queue`]: the model, what there is to decide and what was decided;
//! - [`gather`]: the queue from a run's records or a report's;
//! - [`actions`]: a decision's changes to the ledger, written under its
//!   lock (`accept`'s edits, [`accept::edits`](crate::command::accept::edits));
//! - [`prompt`], [`session`]: the line a reason is typed into, and the
//!   session as a state machine over keys;
//! - [`screen`]: what the screen shows; [`terminal`]: raw mode, keys
//!   and drawing (crossterm), the one part that needs a terminal.

pub mod actions;
pub mod gather;
pub mod prompt;
pub mod queue;
pub mod screen;
pub mod session;
pub mod terminal;
pub mod window;

use std::io::Write;
use std::path::PathBuf;

use crate::base::error::InputError;
use crate::base::glob::Glob;
use crate::base::outside;
use crate::command::run::RunArgs;

use gather::{ReportSelection, Unreviewed};
use session::Session;

/// Where the divergences come from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A run of the corpus, as `accept` runs it.
    Run(Box<RunArgs>),
    /// A JSON report (`--report FILE`), narrowed to a suite, `--filter`'s
    /// files and `--op`'s ops.
    Report {
        /// The report.
        path: PathBuf,
        /// The suite reviewed, when the report names suites.
        suite: Option<String>,
        /// `--filter`.
        filter: Option<Glob>,
        /// `--op`.
        ops: Vec<String>,
    },
}

/// The `review` command's inputs.
#[derive(Debug, Clone)]
pub struct ReviewArgs {
    /// What is reviewed.
    pub source: Source,
    /// The ledger written (created at the first decision).
    pub ledger: PathBuf,
    /// Whether the screen is coloured.
    pub color: bool,
}

/// Why `review` refuses in CI.
pub const IN_CI: &str = "refusing to review in CI (the CI environment variable is set): \
     review asks a person at a terminal; a script records divergences with \
     `parity-diff accept --reason TEXT`";

/// Why `review` refuses without a terminal.
pub const NO_TERMINAL: &str = "review needs a terminal: its standard input and output must \
     both be one; a script records divergences with `parity-diff accept --reason TEXT`";

/// Runs `review`: `in_ci` is whether `CI` is set, `terminal` whether
/// stdin and stdout are a terminal. What it did is said on `out` once
/// the screen is left. The exit status is `accept`'s: 2 when some files
/// could not be read, 1 when the port failed on whole files, else 0.
pub fn review_command(
    args: &ReviewArgs,
    in_ci: bool,
    terminal: bool,
    mut out: impl Write,
) -> Result<u8, InputError> {
    // Refused before anything runs, as `cargo insta review` refuses.
    if in_ci {
        return Err(InputError::new(IN_CI));
    }
    if !terminal {
        return Err(InputError::new(NO_TERMINAL));
    }
    let (queue, unreviewed) = match &args.source {
        Source::Run(run) => {
            // The screen starts once the run is over: until then, this.
            eprintln!("parity-diff: review: running the corpus (Ctrl-C stops it)");
            gather::from_run(run, &args.ledger)?
        }
        Source::Report {
            path,
            suite,
            filter,
            ops,
        } => {
            let selection = ReportSelection {
                suite: suite.as_deref(),
                filter: filter.as_ref(),
                ops,
            };
            (
                gather::from_report(path, &selection)?,
                Unreviewed::default(),
            )
        }
    };
    let ledger = outside::text(&args.ledger.display().to_string()).into_owned();
    if queue.is_empty() {
        writeln!(
            out,
            "nothing to review: no new, changed or stale case, and no orphaned entry or stale \
             rule (ledger {ledger})"
        )?;
    } else {
        let mut session = Session::new(queue, args.ledger.clone());
        terminal::run(&mut session, args.color)
            .map_err(|error| InputError::new(format!("the terminal failed: {error}")))?;
        writeln!(
            out,
            "review: {}; ledger {ledger}",
            session.queue.tally().line()
        )?;
    }
    let Unreviewed {
        unreadable,
        port_failed,
    } = unreviewed;
    if unreadable + port_failed > 0 {
        writeln!(
            out,
            "not reviewed: {} the run could not compare ({unreadable} unreadable, \
             {port_failed} the port failed on as a whole); `parity-diff run` says why",
            if unreadable + port_failed == 1 {
                "1 file".to_owned()
            } else {
                format!("{} files", unreadable + port_failed)
            }
        )?;
    }
    out.flush()?;
    Ok(unreviewed.exit_status())
}
