//! `parity-diff progress`: the progress file written from a run (or a
//! JSON report) or checked against it (`--check`), or its history in
//! git (`--history`) as a table, Markdown or an HTML chart. The work is
//! the library's [`parity_diff::command::progress`]; this settles the file's
//! place, the suites and their runs, as `run` does.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use parity_diff::base::error::InputError;
use parity_diff::base::outside;
use parity_diff::command::progress::history::{self, By};
use parity_diff::command::progress::tally::{self, SuiteEntries, Tally};
use parity_diff::command::progress::{chart, file, git, moved, Progress, NO_SUITE};
use parity_diff::command::run::{run_corpus, LedgerUse};
use parity_diff::ledger::Ledger;
use parity_diff::report::Format;

use crate::cli::flags::{CorpusFlags, LedgerFlags, OracleFlags, ReportFlags, VerdictFlags};
use crate::cli::project::{one_suite_only, ConfigFlags, Project};
use crate::cli::settle::Given;

/// What `--history` draws a line for.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub(crate) enum ByArg {
    /// Each op of each suite.
    #[default]
    Op,
    /// Each suite, its ops summed.
    Suite,
}

/// `parity-diff progress`'s flags.
#[derive(Args)]
pub(crate) struct ProgressFlags {
    /// The oracle command (run with `sh -c`, cases on stdin) [default:
    /// the suite's `oracle`].
    #[arg(long, value_name = "CMD")]
    oracle: Option<String>,
    #[command(flatten)]
    corpus: CorpusFlags,
    #[command(flatten)]
    ledger: LedgerFlags,
    #[command(flatten)]
    run: OracleFlags,
    /// Count a JSON report (of run, merge or accept) instead of running.
    #[arg(long, value_name = "REPORT", conflicts_with_all = ["oracle", "cases", "golden", "filter"])]
    from_report: Option<PathBuf>,
    /// The progress file [default: parity.toml's `progress`, else
    /// parity-progress.json beside parity.toml, else in the current
    /// directory].
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Write nothing; exit 1 when the file differs from what the run
    /// gives, naming the ops that moved.
    #[arg(long, conflicts_with = "history")]
    check: bool,
    /// Run nothing: the file's versions in git, each line's passing cases
    /// over time (--format human, markdown or html).
    #[arg(long, conflicts_with_all = ["oracle", "from_report", "cases", "golden", "filter"])]
    history: bool,
    /// --history: a line per op or per suite.
    #[arg(long, value_enum, default_value_t = ByArg::Op, requires = "history")]
    by: ByArg,
    /// --history, human and markdown: the last N versions as columns (0:
    /// every one; html draws every one).
    #[arg(long, value_name = "N", default_value_t = 8, requires = "history")]
    last: usize,
}

/// Runs `progress`; its exit status.
pub(crate) fn progress(
    flags: ProgressFlags,
    config: &ConfigFlags,
    report: &ReportFlags,
    mut out: impl Write,
) -> anyhow::Result<u8> {
    let format = report.format();
    check_format(&flags, format)?;
    if flags.corpus.filter.is_some() {
        return Err(
            InputError::new("progress counts the whole corpus: --filter is not for it").into(),
        );
    }
    let project = Project::open(config)?;
    let suites = project.suites(&config.suites)?;
    one_suite_only(
        &suites,
        &[
            ("--cases", flags.corpus.cases.is_some()),
            ("--golden", flags.corpus.golden.is_some()),
            ("--ledger", flags.ledger.ledger.is_some()),
            ("--oracle", flags.oracle.is_some()),
        ],
    )?;
    project.enter()?;
    let path = project.progress_file(flags.file.clone())?;
    if flags.history {
        return print_history(&flags, config, &path, format, &mut out);
    }
    let (mut counted, uncompared) = match &flags.from_report {
        Some(report) => from_report(&project, &suites, &flags, &project.given(report.clone()))?,
        None => from_run(&project, &suites, &flags, report)?,
    };
    if uncompared > 0 {
        eprintln!(
            "parity-diff: warning: {uncompared} case file{} could not be compared; their cases are not counted (`parity-diff run` says why)",
            if uncompared == 1 { "" } else { "s" }
        );
    }
    let shown = outside::text(&path.display().to_string()).into_owned();
    let before = read_existing(&path)?;
    // `--suite` counts some suites: the file keeps the others as they are.
    if let (false, Some(before)) = (config.suites.is_empty(), &before) {
        for (suite, ops) in &before.suites {
            if !config.suites.contains(suite) {
                counted.suites.insert(suite.clone(), ops.clone());
            }
        }
    }
    if flags.check {
        return check_file(before, &counted, &shown, &mut out);
    }
    update_file(&path, before, counted, &shown, &mut out)
}

/// The formats `progress` takes: human alone, and markdown and html too
/// with `--history`.
fn check_format(flags: &ProgressFlags, format: Format) -> anyhow::Result<()> {
    let formats: &[Format] = if flags.history {
        &[Format::Human, Format::Markdown, Format::Html]
    } else {
        &[Format::Human]
    };
    if !formats.contains(&format) {
        let names: Vec<&str> = formats.iter().map(|format| format.name()).collect();
        return Err(InputError::new(format!(
            "progress{} takes --format {}, not {}",
            if flags.history { " --history" } else { "" },
            names.join(", "),
            format.name()
        ))
        .into());
    }
    Ok(())
}

/// `--history`: the file's versions in git, as `format` draws them.
fn print_history(
    flags: &ProgressFlags,
    config: &ConfigFlags,
    path: &Path,
    format: Format,
    out: &mut impl Write,
) -> anyhow::Result<u8> {
    let by = match flags.by {
        ByArg::Op => By::Op,
        ByArg::Suite => By::Suite,
    };
    let versions = git::versions(path)?;
    let shown = path.display().to_string();
    let mut history = history::history(&shown, versions, by);
    if !config.suites.is_empty() {
        history
            .series
            .retain(|series| config.suites.contains(&series.suite));
    }
    for skipped in &history.skipped {
        eprintln!(
            "parity-diff: warning: a version left out: {}",
            outside::text(skipped)
        );
    }
    let text = match format {
        Format::Markdown => history::markdown(&history, flags.last),
        Format::Html => chart::page(&history),
        _ => history::human(&history, flags.last),
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// `--check`: 0 when the file holds `counted`, else 1 and the ops that
/// moved.
fn check_file(
    before: Option<Progress>,
    counted: &Progress,
    shown: &str,
    out: &mut impl Write,
) -> anyhow::Result<u8> {
    let Some(before) = before else {
        writeln!(
            out,
            "{shown} does not exist: `parity-diff progress` writes it"
        )?;
        return Ok(1);
    };
    let changes = moved(&before, counted);
    if changes.is_empty() {
        writeln!(out, "{shown} is up to date")?;
        return Ok(0);
    }
    writeln!(
        out,
        "{shown} is out of date: {} op{} moved (`parity-diff progress` writes it)",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    )?;
    for change in &changes {
        writeln!(out, "  {}", change.describe())?;
    }
    Ok(1)
}

/// The file written with `counted` (unless its counts are the same), and
/// the ops that moved.
fn update_file(
    path: &Path,
    before: Option<Progress>,
    mut counted: Progress,
    shown: &str,
    out: &mut impl Write,
) -> anyhow::Result<u8> {
    if let Some(before) = &before {
        if before.same_counts(&counted) {
            writeln!(out, "{shown} is up to date (not written)")?;
            return Ok(0);
        }
    }
    let changes = moved(&before.clone().unwrap_or_default(), &counted);
    counted.commit = git::head_commit(parent_of(path));
    write(path, &counted)?;
    writeln!(
        out,
        "{shown} written: {} op{} moved",
        changes.len(),
        if changes.len() == 1 { "" } else { "s" }
    )?;
    for change in &changes {
        writeln!(out, "  {}", change.describe())?;
    }
    Ok(0)
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// The file as it is, when there is one.
fn read_existing(path: &Path) -> anyhow::Result<Option<Progress>> {
    match parity_diff::base::files::input::read(path, parity_diff::base::files::input::PROGRESS) {
        Ok(bytes) => Ok(Some(file::parse(&bytes, &path.display().to_string())?)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => {
            Err(InputError::new(format!("cannot read {}: {error}", path.display())).into())
        }
    }
}

fn write(path: &Path, progress: &Progress) -> anyhow::Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| InputError::new(format!("{} names no file", path.display())))?;
    std::fs::create_dir_all(parent_of(path)).map_err(|error| {
        InputError::new(format!(
            "cannot make the directory of {}: {error}",
            path.display()
        ))
    })?;
    parity_diff::base::files::write_atomic(
        parent_of(path),
        Path::new(name),
        file::render(progress).as_bytes(),
    )
    .map_err(|error| InputError::new(format!("cannot write {}: {error}", path.display())))?;
    Ok(())
}

/// Each suite's corpus run as `run` runs it (its oracle, ledger and
/// limits), its records counted.
fn from_run(
    project: &Project,
    suites: &[&parity_diff::corpus::config::Suite],
    flags: &ProgressFlags,
    report: &ReportFlags,
) -> anyhow::Result<(Progress, usize)> {
    let mut options = report.options(&VerdictFlags::default());
    options.format = Format::Human;
    let given = Given {
        oracle: &flags.oracle,
        corpus: &flags.corpus,
        ledger: &flags.ledger,
        run: &flags.run,
        ops: &[],
        report: options,
        framing: None,
        numbers: None,
        rerun: None,
        timings: None,
        record_timings: None,
        repeat: None,
        extra: Vec::new(),
    };
    let mut tally = Tally::new();
    let mut each = |suite: Option<&parity_diff::corpus::config::Suite>| -> anyhow::Result<()> {
        let args = given.run_args(project, suite, None)?;
        let mut ledger = LedgerUse::open(args.ledger.as_deref(), &args.ledger_path(), false)?;
        tally.suite(suite.map(|suite| suite.name.as_str()));
        run_corpus(&args, ledger.as_mut(), &mut tally).map_err(|error| match suite {
            Some(suite) => InputError {
                message: format!("suite {}: {}", suite.name, error.message),
                ..error
            },
            None => error,
        })?;
        Ok(())
    };
    if suites.is_empty() {
        each(None)?;
    }
    for suite in suites {
        each(Some(suite))?;
    }
    let uncompared = tally.uncompared;
    Ok((tally.finish(), uncompared))
}

/// A JSON report's counts. Its accepted cases are split into entries'
/// and rules' by the ledger the report lists, else by each suite's
/// ledger as it is now.
fn from_report(
    project: &Project,
    suites: &[&parity_diff::corpus::config::Suite],
    flags: &ProgressFlags,
    path: &Path,
) -> anyhow::Result<(Progress, usize)> {
    let mut entries: SuiteEntries = HashMap::new();
    let mut add = |name: &str, places: crate::cli::project::Places| -> anyhow::Result<()> {
        let ledger = places.ledger.unwrap_or(places.ledger_default);
        if ledger.exists() {
            let ids: HashSet<_> = Ledger::load(&ledger)?
                .entries()
                .map(|entry| entry.id.clone())
                .collect();
            entries.insert(name.to_owned(), ids);
        }
        Ok(())
    };
    if suites.is_empty() {
        add(
            NO_SUITE,
            project.places(flags.corpus.given(Some(&flags.ledger)), None)?,
        )?;
    }
    for suite in suites {
        add(
            &suite.name,
            project.places(flags.corpus.given(Some(&flags.ledger)), Some(suite))?,
        )?;
    }
    let read = tally::from_report(path, &entries)?;
    for suite in &read.unsplit {
        eprintln!(
            "parity-diff: warning: {}: suite {}: no ledger to tell entries from rules; its accepted cases count as entries'",
            outside::text(&path.display().to_string()),
            outside::text(suite)
        );
    }
    Ok((read.progress, read.uncompared))
}
