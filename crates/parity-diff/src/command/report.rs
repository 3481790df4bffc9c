//! `parity-diff report SAVED.json`: a saved JSON report rendered again,
//! in any records format, byte for byte what the run would have written
//! in that format ([`Sink::take_wide`](crate::report::Sink::take_wide) hands each record as the run would
//! have made it for that format alone). The counts, per-op table and
//! groups are recomputed from the records, as `merge` does.

use std::io::Write;
use std::path::PathBuf;

use crate::base::error::InputError;
use crate::report::json::{Item, ReportHead, ReportReader};
use crate::report::{Consumer, ExtraReport, Problem, ReportOptions, Reports, RunInfo, Totals};

/// The `report` command's inputs.
#[derive(Debug, Clone)]
pub struct ReportArgs {
    /// The saved JSON report.
    pub saved: PathBuf,
    /// How to report.
    pub report: ReportOptions,
    /// `--report FORMAT=PATH`: more formats, each to its file.
    pub extra: Vec<ExtraReport>,
}

/// The head's command as a run names it (a report of another command is
/// refused).
fn command_of(head: &ReportHead, saved: &str) -> Result<&'static str, InputError> {
    match head.command.as_str() {
        "run" => Ok("run"),
        "merge" => Ok("merge"),
        "accept" => Ok("accept"),
        "compare" => Ok("compare"),
        other => Err(InputError::new(format!(
            "{saved} is a report of `{}`; parity-diff report renders the JSON reports of \
             run, merge, accept and compare",
            crate::base::outside::text(other)
        ))),
    }
}

/// Runs `report`: returns the saved run's tally (its exit status is the
/// run's).
pub fn report_command(args: &ReportArgs, out: impl Write) -> Result<Totals, InputError> {
    let saved = crate::corpus::identity::path_text(&args.saved);
    let (mut reader, head) = ReportReader::open(&args.saved)?;
    let run = RunInfo {
        command: command_of(&head, &saved)?,
        shard: head.shard,
        corpus: head.corpus.clone(),
        ledger: head.ledger.clone(),
        suites: head.suites.clone(),
        suite_ledgers: head.suite_ledgers.clone(),
        unredacted: head.unredacted.clone(),
    };
    let mut reports = Reports::new(out, args.report, run, &args.extra)?;
    // A file's problem and warnings come, as a run makes them, after its
    // cases (a framing divergence before them).
    let mut after: (Option<Problem>, Vec<String>) = (None, Vec::new());
    let mut changes = None;
    while let Some(item) = reader.next_item()? {
        match item {
            Item::File(file) => {
                reports.begin_file(file.info)?;
                after = match file.problem {
                    Some(problem @ Problem::Framing { .. }) => {
                        reports.problem(problem)?;
                        (None, file.warnings)
                    }
                    problem => (problem, file.warnings),
                };
            }
            Item::Case(record) => reports.take_wide(*record)?,
            Item::EndFile => {
                let (problem, warnings) = std::mem::take(&mut after);
                if let Some(problem) = problem {
                    reports.problem(problem)?;
                }
                for warning in &warnings {
                    reports.warning(warning)?;
                }
                reports.end_file()?;
            }
            Item::OrphanedEntry(entry) => reports.orphaned_entry(&entry),
            Item::RuleFinding(finding) => reports.rule_finding(&finding),
            Item::ShardRules(findings) => reports.shard_rules(findings),
            Item::LedgerChanges(saved) => changes = Some(saved),
            // Recomputed from the records.
            Item::Group(_) | Item::ByOp(_) | Item::Summary(_) => {}
        }
    }
    Ok(reports.finish_with(changes.as_ref())?)
}
