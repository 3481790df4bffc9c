//! `review`'s flags, settled as `accept` settles its own, for the one
//! suite it works on (the config's only one, or `--suite NAME`): a
//! review is one person's walk through one ledger.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use parity_diff::base::error::InputError;
use parity_diff::command::review::{review_command, ReviewArgs, Source};
use parity_diff::report::Format;

use super::flags::{CorpusFlags, CorpusRunFlags, ReportFlags};
use super::project::{ConfigFlags, Project};
use super::settle::{lone_suite, Given};

/// `review`'s flags.
#[derive(Args)]
pub struct ReviewFlags {
    /// The oracle command (run with `sh -c`, cases on stdin) [default:
    /// the suite's `oracle`].
    #[arg(long)]
    oracle: Option<String>,
    /// Review the divergences a JSON report (of run, merge or accept)
    /// holds instead of running the corpus; --filter and --op narrow it.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "oracle", "rerun_failed", "framing", "semantic", "timeout", "kill_grace",
        "max_output", "jobs", "repeat",
    ])]
    report: Option<PathBuf>,
    #[command(flatten)]
    corpus: CorpusFlags,
    #[command(flatten)]
    with: CorpusRunFlags,
}

/// Runs `review`.
pub fn review(
    flags: ReviewFlags,
    config: &ConfigFlags,
    report: &ReportFlags,
    out: impl Write,
) -> anyhow::Result<u8> {
    if report.format() != Format::Human {
        return Err(InputError::new(format!(
            "review shows a terminal screen, not a report: --format {} is for run and accept",
            report.format().name()
        ))
        .into());
    }
    let project = Project::open(config)?;
    let suite = lone_suite(&project, &config.suites)?;
    project.enter()?;
    let places = project.places(flags.corpus.given(Some(&flags.with.ledger)), suite)?;
    let ledger = places
        .ledger
        .clone()
        .unwrap_or_else(|| places.ledger_default.clone());
    let source = match flags.report {
        Some(path) => Source::Report {
            path: project.given(path),
            suite: suite.map(|suite| suite.name.clone()),
            filter: flags.corpus.corpus(&places, None)?.filter,
            ops: flags.with.select.ops.clone(),
        },
        None => {
            let rerun = flags.with.rerun.read(&project)?;
            let given = Given::of(
                &flags.oracle,
                &flags.corpus,
                &flags.with,
                report,
                rerun.as_ref(),
            );
            Source::Run(Box::new(given.run_args(&project, suite, None)?))
        }
    };
    let args = ReviewArgs {
        source,
        ledger,
        color: report.color(),
    };
    let in_ci = crate::cli::project::in_ci();
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    Ok(review_command(&args, in_ci, terminal, out)?)
}
