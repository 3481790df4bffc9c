//! `accept` and `bless` over the suites selected: each suite in turn
//! (its own ledger, its own reference and goldens), under a heading when
//! there are several. `run` makes one report of every suite instead
//! (`command::suites`); these print their text per suite, which only the
//! human format can hold.

use std::io::Write;

use parity_diff::base::error::InputError;
use parity_diff::base::outside;
use parity_diff::command::accept::{accept_command, AcceptArgs};
use parity_diff::command::bless::{bless_command, BlessArgs};
use parity_diff::corpus::config::Suite;
use parity_diff::report::Format;

use super::flags::{CorpusFlags, OracleFlags, ReportFlags};
use super::project::Project;
use super::settle::Given;

/// `accept`'s own flags.
pub struct Accept {
    pub reason: Option<String>,
    pub triaged: bool,
    pub link: Option<String>,
    pub prune: bool,
    pub rule: bool,
    pub cases: Vec<String>,
    pub force: bool,
}

/// `bless`'s flags.
pub struct Bless<'a> {
    pub reference: Option<String>,
    pub corpus: &'a CorpusFlags,
    pub check: bool,
    pub force: bool,
    pub repeat: Option<u32>,
    pub allow_nondeterministic: bool,
    pub run: &'a OracleFlags,
    pub report: &'a ReportFlags,
}

/// Several suites are worked on in turn, each under a heading: only the
/// human text can hold them (a JSON, JUnit, Markdown or HTML report is
/// one document).
pub fn several_suites_print_text(
    suites: &[&Suite],
    report: &ReportFlags,
    command: &str,
) -> Result<(), InputError> {
    if suites.len() < 2 || report.format() == Format::Human {
        return Ok(());
    }
    let names: Vec<&str> = suites.iter().map(|suite| suite.name.as_str()).collect();
    Err(InputError::new(format!(
        "{command} over {} suites ({}) prints each suite's text in turn; --format {} takes one: \
         choose it with --suite NAME",
        suites.len(),
        names.join(", "),
        report.format().name()
    )))
}

/// The suites to work on, in turn: none selected (no config) is the run
/// the flags alone say.
fn each<'a>(suites: &[&'a Suite]) -> Vec<Option<&'a Suite>> {
    match suites.len() {
        0 => vec![None],
        _ => suites.iter().map(|suite| Some(*suite)).collect(),
    }
}

/// A suite's heading, when several are worked on.
fn heading(out: &mut impl Write, several: bool, suite: Option<&Suite>) -> std::io::Result<()> {
    match (several, suite) {
        (true, Some(suite)) => writeln!(out, "suite {}", outside::text(&suite.name)),
        _ => Ok(()),
    }
}

/// `accept` on each suite: the highest exit status.
pub fn accept(
    project: &Project,
    suites: &[&Suite],
    given: &Given,
    flags: &Accept,
    mut out: impl Write,
) -> anyhow::Result<u8> {
    let in_ci = crate::cli::project::in_ci();
    let each = each(suites);
    let mut status = 0;
    for &suite in &each {
        heading(&mut out, each.len() > 1, suite)?;
        let args = AcceptArgs {
            run: given.run_args(project, suite, None)?,
            reason: flags.reason.clone(),
            triaged: flags.triaged,
            link: flags.link.clone(),
            prune: flags.prune,
            rule: flags.rule,
            cases: flags.cases.clone(),
            force: flags.force,
        };
        status = status.max(accept_command(&args, in_ci, &mut out)?);
    }
    out.flush()?;
    Ok(status)
}

/// `bless` on each suite, once every suite's reference is known: the
/// highest exit status.
pub fn bless(
    project: &Project,
    suites: &[&Suite],
    flags: &Bless,
    mut out: impl Write,
) -> anyhow::Result<u8> {
    let each = each(suites);
    let mut blessings = Vec::new();
    for &suite in &each {
        let reference = flags
            .reference
            .clone()
            .or_else(|| suite.and_then(|suite| suite.reference.clone()));
        let Some(reference) = reference else {
            let whose = suite.map_or(String::new(), |suite| {
                format!(" (suite {})", outside::text(&suite.name))
            });
            return Err(InputError::new(format!(
                "bless needs a reference{whose}: --reference CMD, or `reference` in the suite's \
                 table of parity.toml"
            ))
            .into());
        };
        blessings.push((suite, reference));
    }
    project.enter()?;
    let in_ci = crate::cli::project::in_ci();
    let mut status = 0;
    for (suite, reference) in blessings {
        heading(&mut out, each.len() > 1, suite)?;
        let places = project.places(flags.corpus.given(None), suite)?;
        let mut run = flags.run.clone();
        run.settle(suite);
        let args = BlessArgs {
            reference,
            corpus: flags.corpus.corpus(&places, None)?,
            check: flags.check,
            force: flags.force,
            repeat: flags
                .repeat
                .or_else(|| suite.and_then(|suite| suite.repeat))
                .unwrap_or(1) as usize,
            allow_nondeterministic: flags.allow_nondeterministic,
            limits: run.limits(Some(&places))?,
            jobs: run.jobs(),
            format: flags.report.format(),
            quiet: flags.report.quiet,
        };
        status = status.max(bless_command(&args, in_ci, &mut out)?.exit_code());
    }
    out.flush()?;
    Ok(status)
}
