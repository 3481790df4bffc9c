//! The human report: what ran, the per-op table, the never-run spans by
//! function (allowlisted or not), stale allowlist entries, errors, and
//! the closing line, always last.

use std::fmt::Write as _;

use super::preview;
use crate::base::columns;
use crate::base::outside;
use crate::coverage::analysis::{Analysis, Totals};
use crate::coverage::attribution::OpCoverage;

/// The per-op rows, and the row of all cases (its op is `all`). An op is
/// outside text (a case file's).
pub fn table_rows(analysis: &Analysis) -> (&[OpCoverage], OpCoverage) {
    let totals = &analysis.totals;
    let functions = analysis
        .scripts
        .iter()
        .map(|script| {
            let mut entered = vec![false; script.spans.functions.len()];
            for span in &script.spans.spans {
                entered[span.function] |= !span.reach.is_empty();
            }
            entered.into_iter().filter(|&e| e).count()
        })
        .sum();
    let all = OpCoverage {
        op: "all".into(),
        cases: totals.cases,
        functions,
        spans: totals.spans,
        reached: totals.reached,
        never_run: totals.never_run,
    };
    (&analysis.by_op, all)
}

fn table(analysis: &Analysis) -> String {
    let (rows, all) = table_rows(analysis);
    let rows: Vec<&OpCoverage> = rows.iter().chain([&all]).collect();
    let width = rows
        .iter()
        .map(|row| columns::width(&outside::text(&super::shown_op(&row.op))))
        .max()
        .unwrap_or(2)
        .max(2);
    let mut out = format!(
        "{:<width$}  {:>6}  {:>9}  {:>6}  {:>7}  {:>4}  {:>9}  {:>9}\n",
        "op", "cases", "functions", "spans", "reached", "", "never run", "other ops"
    );
    for row in rows {
        let _ = writeln!(
            out,
            "{}  {:>6}  {:>9}  {:>6}  {:>7}  {:>3}%  {:>9}  {:>9}",
            columns::pad(&outside::text(&super::shown_op(&row.op)), width),
            row.cases,
            row.functions,
            row.spans,
            row.reached,
            Totals::percent(row.reached, row.spans),
            row.never_run,
            row.others()
        );
    }
    out
}

fn unrun(analysis: &Analysis) -> String {
    let totals = &analysis.totals;
    if totals.never_run == 0 {
        return String::new();
    }
    let groups = analysis.unrun_by_function();
    let mut out = format!(
        "\nnever run: {} in {} ({} allowlisted, {} not)\n",
        crate::report::human::cases(totals.never_run, "span"),
        crate::report::human::cases(groups.len(), "function"),
        totals.allowlisted,
        totals.not_allowlisted()
    );
    for ((script, function), list) in groups {
        let script = &analysis.scripts[script];
        let function = &script.spans.functions[function];
        let _ = writeln!(
            out,
            "  {}  {}",
            outside::text(&function.path),
            outside::text(&script.location(function.start).to_string())
        );
        for unrun in list {
            let span = &script.spans.spans[unrun.span];
            let tag = if unrun.allowed.is_some() {
                "allowlisted"
            } else {
                "UNRUN"
            };
            let _ = writeln!(
                out,
                "    {tag:<11}  {}  {}",
                outside::text(&script.location(span.start).to_string()),
                outside::text(&preview(&script.text(span), 60))
            );
            match &unrun.allowed {
                Some(reason) => {
                    let _ = writeln!(out, "                 reason: {}", outside::text(reason));
                }
                None => {
                    let _ = writeln!(
                        out,
                        "                 {}",
                        outside::text(&unrun.key.entry_line())
                    );
                }
            }
        }
    }
    out
}

fn stale(analysis: &Analysis) -> String {
    if analysis.stale.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("\nstale allowlist entries (no span that never runs has their key):\n");
    let path = analysis.allowlist.as_deref().unwrap_or("");
    for entry in &analysis.stale {
        let _ = writeln!(
            out,
            "  STALE {} ({}:{}): {}",
            outside::text(&entry.key.entry_line()),
            outside::text(path),
            entry.line,
            outside::text(&entry.reason)
        );
    }
    out
}

/// The whole human report, or its closing line alone.
pub fn render(analysis: &Analysis, quiet: bool) -> String {
    let totals = &analysis.totals;
    if quiet {
        return format!("{}\n", totals.summary_line());
    }
    let mut out = format!(
        "coverage: {} through `{}`, each case run alone\n",
        crate::report::human::cases(totals.cases, "case"),
        outside::text(&analysis.reference)
    );
    for script in &analysis.scripts {
        let _ = writeln!(
            out,
            "script {}: {}, {}",
            outside::text(&script.name),
            crate::report::human::cases(script.spans.functions.len(), "function"),
            crate::report::human::cases(script.spans.spans.len(), "span")
        );
        if let Some(error) = &script.map_error {
            let _ = writeln!(
                out,
                "  its source map could not be read ({}): lines are the script's own",
                outside::text(error)
            );
        } else if script.map.is_some() {
            out.push_str("  lines are the original sources', through its source map\n");
        }
    }
    if let Some(path) = &analysis.allowlist {
        let _ = writeln!(out, "allowlist {}", outside::text(path));
    }
    out.push('\n');
    out.push_str(&table(analysis));
    out.push_str(&unrun(analysis));
    out.push_str(&stale(analysis));
    if !analysis.errors.is_empty() {
        out.push('\n');
        for error in &analysis.errors {
            let _ = writeln!(out, "error: {}", outside::text(error));
        }
    }
    if totals.check && totals.exit_code() == 1 {
        out.push_str(
            "\ncheck failed: add a case that reaches each UNRUN span, or allowlist it with a \
             reason; remove each STALE entry\n",
        );
    }
    let _ = writeln!(out, "{}", totals.summary_line());
    out
}
