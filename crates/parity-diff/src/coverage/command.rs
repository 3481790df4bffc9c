//! `parity-diff coverage` and `parity-diff cmin`: the corpus through a
//! Node reference with coverage on ([`measure`]), then the report (and
//! `--check` against the allowlist), or the smallest cover of each op's
//! coverage.

use std::io::Write;
use std::path::PathBuf;

use super::allowlist::{default_path, Allowlist};
use super::analysis::Analysis;
use super::cmin::cover;
use super::measure::{measure, Selection};
use super::report;
use crate::base::error::InputError;
use crate::report::formats::{not_mine, Command, Renderer};
use crate::report::Format;

/// `coverage`'s inputs.
#[derive(Debug, Clone)]
pub struct CoverageArgs {
    /// What to run.
    pub selection: Selection,
    /// `--allowlist` (default: `coverage-allowlist.txt` beside the cases
    /// directory, when it exists).
    pub allowlist: Option<PathBuf>,
    /// `--check`: exit 1 on a never-run span that is not allowlisted, or
    /// a stale entry.
    pub check: bool,
    /// Human, JSON, Markdown or HTML.
    pub format: Format,
    /// The closing line alone (human).
    pub quiet: bool,
}

/// Runs `coverage`; returns the exit status.
pub fn coverage_command(args: &CoverageArgs, mut out: impl Write) -> Result<u8, InputError> {
    let renderer = Command::Coverage.check(args.format)?;
    let path = match &args.allowlist {
        Some(path) => Some(path.clone()),
        None => Some(default_path(&args.selection.corpus.cases)).filter(|path| path.exists()),
    };
    // Read before the runs, so that a bad allowlist costs no minute.
    let allowlist = match &path {
        Some(path) => Some((path.as_path(), Allowlist::load(path)?)),
        None => None,
    };
    let measured = measure(&args.selection)?;
    let analysis = Analysis::new(
        args.selection.reference.clone(),
        measured.cases,
        measured.scripts,
        allowlist,
        measured.errors,
        args.check,
    );
    report::write(&analysis, renderer, args.quiet, &mut out)?;
    Ok(analysis.totals.exit_code())
}

/// `cmin`'s inputs.
#[derive(Debug, Clone)]
pub struct CminArgs {
    /// What to run.
    pub selection: Selection,
    /// Human or JSON.
    pub format: Format,
    /// The closing line alone (human).
    pub quiet: bool,
}

/// Runs `cmin`; returns the exit status (2 when some case could not be
/// measured: those cases are kept).
pub fn cmin_command(args: &CminArgs, mut out: impl Write) -> Result<u8, InputError> {
    let renderer = Command::Cmin.check(args.format)?;
    let measured = measure(&args.selection)?;
    let spans: Vec<_> = measured
        .scripts
        .iter()
        .map(|script| &script.spans)
        .collect();
    let cover = cover(&measured.cases, &spans, &measured.unknown);
    let exit_code = if measured.errors.is_empty() { 0 } else { 2 };
    let bytes = match renderer {
        Renderer::CminJson => report::cmin::json(
            &args.selection.reference,
            &measured.cases,
            &cover,
            &measured.errors,
            exit_code,
        ),
        Renderer::CminHuman => {
            report::cmin::human(&measured.cases, &cover, &measured.errors, args.quiet).into_bytes()
        }
        other => return Err(not_mine(Command::Cmin, other)),
    };
    out.write_all(&bytes)
        .and_then(|()| out.flush())
        .map_err(InputError::from)?;
    Ok(exit_code)
}
