//! The sections of a Markdown report besides the failures: the headline,
//! the per-op table and its bars, orphaned ledger entries, the ops that
//! threw one message on every case, and what `accept` changed.

use std::fmt::Write as _;

use super::super::human::cases;
use super::super::{is_row_marker, Aggregates, Tally};
use super::text::{cell, code, Document, Part};
use super::UniformOp;
use crate::corpus::identity::CaseId;
use crate::judge::signature::op_display;
use crate::report::LedgerChanges;

/// How many identities a list of ledger changes names.
const CHANGES_NAMED: usize = 20;

/// Cells of a per-op bar.
const BAR_CELLS: usize = 20;

/// An op in a table cell: as reports print it, in a code span (the
/// per-op key of cases without an op as it is).
fn op_cell(op: &str) -> String {
    if is_row_marker(op) {
        op.to_owned()
    } else {
        cell(&op_display(Some(op)))
    }
}

pub fn headline(aggregates: &Aggregates) -> String {
    let totals = aggregates.totals;
    let run = &aggregates.run;
    let accept = run.command == "accept";
    // `accept` exits 0 unless a file could not be compared: its report
    // shows the run before the ledger changed.
    let status = if accept && totals.errors == 0 {
        0
    } else {
        totals.exit_code()
    };
    let (mark, word) = match status {
        0 if accept => ("✅", "done"),
        0 => ("✅", "passed"),
        1 => ("❌", "failed"),
        _ => ("⛔", "input errors"),
    };
    let command = if run.command.is_empty() {
        "report"
    } else {
        run.command
    };
    let mut out = format!("## {mark} parity-diff {command}: {word}\n\n");
    let mut counts = vec![
        format!("**{}** passed", totals.passed),
        format!("**{}** failed", totals.failed),
    ];
    if totals.triaged > 0 {
        counts.push(format!(
            "**{}** accepted ({} triaged)",
            totals.accepted, totals.triaged
        ));
    } else {
        counts.push(format!("**{}** accepted", totals.accepted));
    }
    if totals.skipped > 0 {
        counts.push(format!("**{}** skipped", totals.skipped));
    }
    let _ = write!(out, "{}\n\n", counts.join(" · "));
    if let Some(shard) = run.shard {
        let _ = write!(out, "Shard {} of {}.\n\n", shard.index, shard.count);
    }
    if let Some(notice) = run.unredacted_notice(code) {
        let _ = write!(out, "{notice}.\n\n");
    }
    if let Some(ledger) = &run.ledger {
        let _ = write!(
            out,
            "Ledger {}: {} new, {} changed, {} stale, {} orphaned{}.\n\n",
            code(&ledger.path),
            totals.new,
            totals.changed,
            totals.stale,
            totals.orphaned,
            match totals.rules {
                0 => String::new(),
                n => format!("; {n} stale or orphaned rules"),
            },
        );
    }
    let meaning = match status {
        0 if accept => {
            "the ledger is updated; the counts are the run's before the update".to_owned()
        }
        0 => "every case passed or diverged exactly as its ledger entry or a rule says".to_owned(),
        1 => "failures (divergences the ledger does not accept, the port's crashes, \
              timeouts and invalid output among them, missing or orphaned goldens, stale or \
              orphaned ledger entries and rules)"
            .to_owned(),
        _ => {
            format!(
                "{} input {} (a file that could not be read or compared)",
                totals.errors,
                if totals.errors == 1 {
                    "error"
                } else {
                    "errors"
                }
            )
        }
    };
    let _ = write!(out, "Exit status {status}: {meaning}.\n\n");
    out
}

/// `███▒░░` (passed, accepted, failed) in [`BAR_CELLS`] cells, every
/// count that is not zero in at least one, and the share that passes
/// without the ledger's help (an op accepted whole is 0%, not 100%).
pub fn bar(tally: &Tally) -> String {
    let total = tally.cases();
    if total == 0 {
        return String::new();
    }
    let counts = [tally.passed, tally.accepted, tally.failed];
    let mut cells = counts.map(|count| {
        let cells = count * BAR_CELLS / total;
        if count > 0 {
            cells.max(1)
        } else {
            0
        }
    });
    // The largest count takes (or gives) what rounding left over; it has
    // at least a third of the cells, more than the at most two it gives.
    let largest = (0..3).max_by_key(|&at| (counts[at], 3 - at)).unwrap_or(0);
    let others: usize = (0..3).filter(|&at| at != largest).map(|at| cells[at]).sum();
    cells[largest] = BAR_CELLS - others;
    let percent = match tally.passed * 100 / total {
        0 if tally.passed > 0 => "<1%".to_owned(),
        percent => format!("{percent}%"),
    };
    format!(
        "`{}{}{}` {percent}",
        "█".repeat(cells[0]),
        "▒".repeat(cells[1]),
        "░".repeat(cells[2])
    )
}

pub fn op_table(doc: &mut Document, aggregates: &Aggregates) {
    if aggregates.by_op.is_empty() {
        return;
    }
    let mut all = Tally::default();
    let last = aggregates.by_op.len() - 1;
    for (at, (op, tally)) in aggregates.by_op.iter().enumerate() {
        let tally = tally.tally;
        all.passed += tally.passed;
        all.accepted += tally.accepted;
        all.failed += tally.failed;
        let mut out = String::new();
        if at == 0 {
            out.push_str(
                "### Per op\n\n| op | passed | accepted | failed | identical |\n\
                 |:--|--:|--:|--:|:--|\n",
            );
        }
        let name = op_cell(op);
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            tally.passed,
            tally.accepted,
            tally.failed,
            bar(&tally)
        );
        if at == last {
            let _ = write!(
                out,
                "| **all** | **{}** | **{}** | **{}** | {} |\n\n\
                 Bars: █ passed, ▒ accepted, ░ failed.\n\n",
                all.passed,
                all.accepted,
                all.failed,
                bar(&all)
            );
        }
        doc.push(Part::OpRow, out);
    }
}

pub fn orphans(doc: &mut Document, aggregates: &Aggregates) {
    for (at, entry) in aggregates.orphaned.iter().enumerate() {
        let mut out = String::new();
        if at == 0 {
            out.push_str(
                "### Orphaned ledger entries\n\n\
                 These entries name cases that do not exist; \
                 `parity-diff accept --prune` removes them.\n\n",
            );
        }
        let _ = write!(
            out,
            "**orphaned** {} (op {}): {}\n\n",
            code(&entry.id.to_string()),
            code(&op_display(entry.op.as_deref())),
            code(&entry.reason)
        );
        doc.push(Part::Orphan, out);
    }
    for (at, finding) in aggregates.rules.iter().enumerate() {
        let mut out = String::new();
        if at == 0 {
            out.push_str(
                "### Stale and orphaned ledger rules

\
                 These rules match no case, or their ops have none; \
                 `parity-diff accept --prune` removes them.\n\n",
            );
        }
        let _ = write!(
            out,
            "**{}** {}: {}\n\n",
            finding.problem.name(),
            code(&finding.rule.describe()),
            code(&finding.rule.reason)
        );
        doc.push(Part::Orphan, out);
    }
}

pub fn uniform_table(doc: &mut Document, uniform: &[UniformOp]) {
    let last = uniform.len().saturating_sub(1);
    for (at, op) in uniform.iter().enumerate() {
        let mut out = String::new();
        if at == 0 {
            let _ = write!(
                out,
                "### Every case failed with the port throwing one message: {}\n\n\
                 | op | cases | the port threw |\n|:--|--:|:--|\n",
                cases(uniform.len(), "op")
            );
        }
        let name = op_cell(&op.op);
        let message = crate::base::outside::json_string(&op.message);
        let _ = writeln!(out, "| {name} | {} | {} |", op.count, cell(&message));
        if at == last {
            out.push('\n');
        }
        doc.push(Part::Uniform, out);
    }
}

/// What `accept` changed in the ledger, as a section.
pub fn ledger_changes(changes: &LedgerChanges) -> String {
    let ids = |ids: &[CaseId]| -> Vec<String> { ids.iter().map(|id| id.to_string()).collect() };
    let (path, written) = (&changes.path, changes.written);
    let mut out = format!(
        "### Ledger changes\n\n{}: {}.\n\n",
        code(path),
        if written { "written" } else { "unchanged" }
    );
    for (ids, what) in [
        (ids(&changes.added), "Added"),
        (ids(&changes.changed), "Changed"),
        (ids(&changes.removed), "Removed"),
    ] {
        if ids.is_empty() {
            continue;
        }
        let named: Vec<String> = ids.iter().take(CHANGES_NAMED).map(|id| code(id)).collect();
        let _ = write!(out, "{what} ({}): {}", ids.len(), named.join(", "));
        if ids.len() > CHANGES_NAMED {
            let _ = write!(out, ", and {} more", ids.len() - CHANGES_NAMED);
        }
        out.push_str(".\n\n");
    }
    let left = changes.not_accepted;
    if left > 0 {
        let _ = write!(
            out,
            "{left} new or changed divergences were left out: `--reason TEXT` accepts them.\n\n"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(passed: usize, accepted: usize, failed: usize) -> Tally {
        Tally {
            passed,
            accepted,
            failed,
        }
    }

    #[test]
    fn bars_show_every_count_that_is_not_zero() {
        assert_eq!(bar(&tally(0, 0, 0)), "");
        assert_eq!(bar(&tally(10, 0, 0)), format!("`{}` 100%", "█".repeat(20)));
        assert_eq!(bar(&tally(0, 0, 3)), format!("`{}` 0%", "░".repeat(20)));
        assert_eq!(bar(&tally(1, 0, 999)), format!("`█{}` <1%", "░".repeat(19)));
        assert_eq!(
            bar(&tally(999, 1, 1)),
            format!("`{}▒░` 99%", "█".repeat(18))
        );
        assert_eq!(
            bar(&tally(1, 1, 2)),
            format!("`{}{}{}` 25%", "█".repeat(5), "▒".repeat(5), "░".repeat(10))
        );
        // An op the ledger accepts whole is not done.
        assert_eq!(bar(&tally(0, 121, 0)), format!("`{}` 0%", "▒".repeat(20)));
        for (p, a, f) in [(7, 3, 11), (1, 1, 1), (0, 5, 1), (33, 33, 34)] {
            let bar = bar(&tally(p, a, f));
            let cells = bar.chars().filter(|c| "█▒░".contains(*c)).count();
            assert_eq!(cells, BAR_CELLS, "{bar}");
        }
    }
}
