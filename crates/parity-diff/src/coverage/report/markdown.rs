//! The Markdown report, for a job summary or a pull-request comment:
//! a headline, the per-op table, the never-run spans that are not
//! allowlisted in full (each with its source text in a code block and
//! the allowlist line that would cover it), the allowlisted ones in a
//! folded table, stale entries and errors. Outside text stands only in
//! code spans and code blocks (`report/markdown/text.rs`).

use std::fmt::Write as _;

use super::preview;
use super::table_rows;
use crate::base::outside;
use crate::coverage::analysis::{Analysis, Totals};
use crate::report::markdown::text::{cell, code, fence};

fn headline(analysis: &Analysis) -> String {
    let totals = &analysis.totals;
    let (mark, status) = match totals.exit_code() {
        2 => ("⛔", "input errors".to_owned()),
        1 => ("❌", "failed".to_owned()),
        _ if totals.not_allowlisted() == 0 => {
            ("✅", "every span reached or allowlisted".to_owned())
        }
        _ => (
            "⚠️",
            format!("{} never run and not allowlisted", totals.not_allowlisted()),
        ),
    };
    format!(
        "## {mark} parity-diff coverage: {status}\n\n\
         **{}** of **{}** spans reached ({}%) by **{}** cases · **{}** never run \
         (**{}** allowlisted) · **{}** stale allowlist {}\n\n\
         Reference: {}, each case run alone.\n",
        totals.reached,
        totals.spans,
        Totals::percent(totals.reached, totals.spans),
        totals.cases,
        totals.never_run,
        totals.allowlisted,
        totals.stale,
        if totals.stale == 1 {
            "entry"
        } else {
            "entries"
        },
        code(&analysis.reference)
    )
}

fn per_op(analysis: &Analysis) -> String {
    let mut out = String::from(
        "\n### Per op\n\nThe spans of the functions an op's cases enter: reached by its cases, never run by any case, \
         and reached by other ops' cases only.\n\n\
         | op | cases | functions | spans reached | | never run | other ops |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    let (rows, all) = table_rows(analysis);
    let rows = rows
        .iter()
        .map(|row| (cell(&super::shown_op(&row.op)), row));
    for (op, row) in rows.chain([("**all**".to_owned(), &all)]) {
        let _ = writeln!(
            out,
            "| {op} | {} | {} | {} of {} | {}% | {} | {} |",
            row.cases,
            row.functions,
            row.reached,
            row.spans,
            Totals::percent(row.reached, row.spans),
            row.never_run,
            row.others()
        );
    }
    out
}

fn unrun(analysis: &Analysis) -> String {
    let mut out = String::new();
    let totals = &analysis.totals;
    if totals.not_allowlisted() > 0 {
        let _ = writeln!(
            out,
            "\n### Never run, not allowlisted: {}\n",
            crate::report::human::cases(totals.not_allowlisted(), "span")
        );
        for ((script, function), list) in analysis.unrun_by_function() {
            let list: Vec<_> = list.into_iter().filter(|u| u.allowed.is_none()).collect();
            if list.is_empty() {
                continue;
            }
            let script = &analysis.scripts[script];
            let function = &script.spans.functions[function];
            let _ = writeln!(
                out,
                "#### {} ({})\n",
                code(&function.path),
                code(&script.location(function.start).to_string())
            );
            for unrun in list {
                let span = &script.spans.spans[unrun.span];
                let _ = writeln!(
                    out,
                    "{}, allowlist it as {}:\n",
                    code(&script.location(span.start).to_string()),
                    code(&unrun.key.entry_line())
                );
                out.push_str(&fence("js", &outside::block(&script.text(span))));
                out.push('\n');
            }
        }
    }
    if totals.allowlisted > 0 {
        let _ = writeln!(
            out,
            "\n<details><summary>{} allowlisted</summary>\n\n| function | where | text | reason |\n|---|---|---|---|",
            crate::report::human::cases(totals.allowlisted, "span")
        );
        for unrun in analysis.unrun.iter().filter(|u| u.allowed.is_some()) {
            let (script, span) = analysis.span_of(unrun);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                cell(&unrun.key.function),
                cell(&script.location(span.start).to_string()),
                cell(&preview(&script.text(span), 60)),
                cell(unrun.allowed.as_deref().unwrap_or(""))
            );
        }
        out.push_str("\n</details>\n");
    }
    out
}

fn stale_and_errors(analysis: &Analysis) -> String {
    let mut out = String::new();
    if !analysis.stale.is_empty() {
        out.push_str(
            "\n### Stale allowlist entries\n\nNo span that never runs has their key: the span is reached now, or its text changed.\n\n| entry | line | reason |\n|---|---:|---|\n",
        );
        for entry in &analysis.stale {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                cell(&entry.key.entry_line()),
                entry.line,
                cell(&entry.reason)
            );
        }
    }
    if !analysis.errors.is_empty() {
        out.push_str("\n### Errors\n\n");
        for error in &analysis.errors {
            let _ = writeln!(out, "- {}", code(error));
        }
    }
    out
}

/// The whole Markdown report.
pub fn render(analysis: &Analysis) -> String {
    let mut out = headline(analysis);
    out.push_str(&per_op(analysis));
    out.push_str(&unrun(analysis));
    out.push_str(&stale_and_errors(analysis));
    out
}
