//! The page, written once the run has ended: its head, the headline, the
//! filter, the per-op table and the footer here; the other sections in
//! [`super::sections`] and [`super::failures`].
//!
//! Every element the filter acts on carries `data-op`, `data-states`,
//! `data-verdicts` (space-separated) and, where free text applies,
//! `data-text`; the script hides what does not match with the `hidden`
//! attribute, so a dumped DOM shows exactly what a filter left.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::accepted::{accepted_section, triaged_section};
use super::failures::failures;
use super::parts::{op_shown, plural, words, Page};
use super::sections::{
    extra_section, orphaned_section, problems_section, rules_section, uniform_section,
};
use super::{esc, Brief, Html};
use crate::report::json::tail::ledger_changes_json;
use crate::report::record::VerdictKind;
use crate::report::LedgerChanges;
use crate::report::{Aggregates, Tally};

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// The states the filter offers, in the order it offers them.
const STATES: [&str; 9] = [
    "passed", "failed", "accepted", "triaged", "new", "changed", "stale", "error", "orphaned",
];

/// The bar of a tally: one segment per count, sized by flex-grow.
fn bar(tally: &Tally, class: &str) -> String {
    let label = format!(
        "{} passed, {} accepted, {} failed",
        tally.passed, tally.accepted, tally.failed
    );
    let mut html = format!("<div class=\"bar {class}\" role=\"img\" aria-label=\"{label}\">");
    for (name, count) in [
        ("passed", tally.passed),
        ("accepted", tally.accepted),
        ("failed", tally.failed),
    ] {
        if count > 0 {
            let _ = write!(
                html,
                "<span class=\"seg {name}\" style=\"flex-grow:{count}\" title=\"{count} {name}\"></span>"
            );
        }
    }
    html.push_str("</div>");
    html
}

/// The ops whose every case failed with the port throwing one message:
/// (op, cases, message).
fn uniform(aggregates: &Aggregates) -> Vec<(String, usize, String)> {
    aggregates
        .by_op
        .iter()
        .filter_map(|(op, tally)| {
            let message = tally.all_threw()?;
            Some((op.clone(), tally.tally.failed, message.to_owned()))
        })
        .collect()
}

/// Writes the whole page.
pub(super) fn write(
    out: &mut dyn Write,
    html: &Html,
    aggregates: &mut Aggregates,
    changes: Option<&LedgerChanges>,
) -> io::Result<()> {
    let mut page = Page { out, written: 0 };
    page.put(&head(aggregates))?;
    page.put(&headline(aggregates))?;
    page.put(&filter_form(aggregates))?;
    page.put("<main>\n")?;
    page.put(&ops_section(html, aggregates))?;
    page.put(&problems_section(html))?;
    let uniform = uniform(aggregates);
    let mut tail = uniform_section(html, &uniform);
    tail.push_str(&triaged_section(html));
    tail.push_str(&accepted_section(html));
    tail.push_str(&orphaned_section(aggregates));
    tail.push_str(&rules_section(aggregates));
    if let Some(changes) = changes {
        tail.push_str(&extra_section(
            "ledgerChanges",
            &ledger_changes_json(changes),
        ));
    }
    let reserve = tail.len() + SCRIPT.len() + 4096;
    let notes = failures(&mut page, html, aggregates, &uniform, reserve)?;
    page.put(&tail)?;
    page.put(&footer(&notes))?;
    page.put("</main>\n<script>\n")?;
    page.put(SCRIPT)?;
    page.put("</script>\n</body>\n</html>\n")
}

fn head(aggregates: &Aggregates) -> String {
    let run = &aggregates.run;
    let command = if run.command.is_empty() {
        "report"
    } else {
        run.command
    };
    format!(
        concat!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ",
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n",
            "<meta name=\"generator\" content=\"parity-diff {version}\">\n",
            "<title>parity-diff {command}: {line}</title>\n<style>\n{style}</style>\n</head>\n",
            "<body data-rendered=\"false\">\n"
        ),
        version = env!("CARGO_PKG_VERSION"),
        command = esc(command),
        line = esc(&aggregates.totals.summary_line()),
        style = STYLE,
    )
}

fn headline(aggregates: &Aggregates) -> String {
    let totals = &aggregates.totals;
    let run = &aggregates.run;
    let (status, class) = match totals.exit_code() {
        0 => ("passed", "ok"),
        1 => ("failed", "fail"),
        _ => ("input error", "error"),
    };
    let mut html = format!(
        "<header class=\"top\">\n<h1>parity-diff <span class=\"command\">{}</span> \
         <span class=\"status {class}\" id=\"status\" data-exit-code=\"{}\">{status}</span></h1>\n\
         <p class=\"line\" id=\"summary-line\">{}</p>\n",
        esc(run.command),
        totals.exit_code(),
        esc(&totals.summary_line())
    );
    let whole = Tally {
        passed: totals.passed,
        accepted: totals.accepted,
        failed: totals.failed,
    };
    html.push_str(&bar(&whole, "big"));
    html.push_str("\n<dl class=\"counts\">\n");
    for (name, count, tone) in [
        ("passed", totals.passed, "passed"),
        ("accepted", totals.accepted, "accepted"),
        ("triaged", totals.triaged, "accepted"),
        ("failed", totals.failed, "failed"),
        ("new", totals.new, "failed"),
        ("changed", totals.changed, "failed"),
        ("stale", totals.stale, "failed"),
        ("orphaned", totals.orphaned, "failed"),
        ("errors", totals.errors, "error"),
        ("skipped", totals.skipped, "error"),
    ] {
        let zero = if count == 0 { " zero" } else { "" };
        let _ = writeln!(
            html,
            "<div class=\"count {tone}{zero}\" data-count=\"{name}\"><dt>{name}</dt>\
             <dd id=\"count-{name}\">{count}</dd></div>"
        );
    }
    html.push_str("</dl>\n<p class=\"meta\">");
    // `accept` exits by whether it could write the ledger; the page, like
    // the JSON report's `exitCode`, tells how the run stood before.
    let mut meta = vec![if run.command == "accept" {
        format!(
            "the run before accepting: exit status {}",
            totals.exit_code()
        )
    } else {
        format!("exit status {}", totals.exit_code())
    }];
    if let Some(shard) = run.shard {
        meta.push(format!("shard {}/{}", shard.index, shard.count));
    }
    match &run.ledger {
        Some(ledger) => meta.push(format!(
            "ledger <code>{}</code> ({}, fingerprint <code>{}</code>)",
            esc(&ledger.path),
            plural(ledger.entries.len(), "entry", "entries"),
            esc(&ledger.fingerprint)
        )),
        None => meta.push("no ledger".to_owned()),
    }
    meta.extend(run.unredacted_notice(|suite| format!("<code>{}</code>", esc(suite))));
    html.push_str(&meta.join(" · "));
    html.push_str("</p>\n</header>\n");
    html
}

fn filter_form(aggregates: &Aggregates) -> String {
    let mut html = String::from(
        "<form id=\"filter\" class=\"filter\" role=\"search\" aria-label=\"Filter the report\">\n\
         <label for=\"f-op\">op</label> <select id=\"f-op\" name=\"op\"><option value=\"\">all ops</option>",
    );
    for (op, tally) in &aggregates.by_op {
        let _ = write!(
            html,
            "<option value=\"{}\">{} ({})</option>",
            esc(op),
            esc(&op_shown(op)),
            tally.tally.cases()
        );
    }
    html.push_str(
        "</select>\n<label for=\"f-state\">state</label> <select id=\"f-state\" name=\"state\">\
         <option value=\"\">any state</option>",
    );
    for state in STATES {
        let _ = write!(html, "<option>{state}</option>");
    }
    html.push_str(
        "</select>\n<label for=\"f-verdict\">verdict</label> <select id=\"f-verdict\" name=\"verdict\">\
         <option value=\"\">any verdict</option>",
    );
    for verdict in VERDICTS {
        let _ = write!(html, "<option>{}</option>", verdict.name());
    }
    html.push_str(
        "</select>\n<label for=\"f-q\">text</label> <input id=\"f-q\" name=\"q\" type=\"search\" \
         placeholder=\"label, file, summary, input…\" autocomplete=\"off\">\n\
         <button type=\"reset\">clear</button>\n\
         <output id=\"filter-status\" for=\"f-op f-state f-verdict f-q\" aria-live=\"polite\"></output>\n\
         </form>\n",
    );
    html
}

const VERDICTS: [VerdictKind; 9] = [
    VerdictKind::Identical,
    VerdictKind::SameValue,
    VerdictKind::Different,
    VerdictKind::Missing,
    VerdictKind::Extra,
    VerdictKind::Crash,
    VerdictKind::InvalidOutput,
    VerdictKind::Timeout,
    VerdictKind::Nondeterministic,
];

fn ops_section(html: &Html, aggregates: &Aggregates) -> String {
    let mut out = String::from(
        "<section id=\"ops\" data-section>\n<h2>Per op</h2>\n<table class=\"ops\">\n\
         <caption>Cases per op: passed, accepted (diverging as the ledger says) and failed</caption>\n\
         <thead><tr><th scope=\"col\">op</th><th scope=\"col\" class=\"barcol\">cases</th>\
         <th scope=\"col\" class=\"num\">passed</th><th scope=\"col\" class=\"num\">accepted</th>\
         <th scope=\"col\" class=\"num\">failed</th><th scope=\"col\" class=\"num\">total</th>\
         <th scope=\"col\" class=\"num\">identical</th></tr></thead>\n<tbody>\n",
    );
    let empty = super::OpSeen::default();
    let mut sum = Tally::default();
    for (op, tally) in &aggregates.by_op {
        let tally = tally.tally;
        sum.passed += tally.passed;
        sum.accepted += tally.accepted;
        sum.failed += tally.failed;
        let seen = html.ops.get(op).unwrap_or(&empty);
        let mut states = seen.states.clone();
        let mut verdicts = seen.verdicts.clone();
        if tally.passed > 0 {
            states.insert("passed");
        }
        if tally.passed > seen.passed {
            verdicts.insert("identical");
        }
        let _ = writeln!(
            out,
            "<tr data-op-row data-op=\"{}\" data-states=\"{}\" data-verdicts=\"{}\" \
             data-passed=\"{}\" data-accepted=\"{}\" data-failed=\"{}\">\
             <th scope=\"row\"><code>{}</code></th><td class=\"barcol\">{}</td>\
             <td class=\"num passed\">{}</td><td class=\"num accepted\">{}</td>\
             <td class=\"num failed\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(op),
            words(&states),
            words(&verdicts),
            tally.passed,
            tally.accepted,
            tally.failed,
            esc(&op_shown(op)),
            bar(&tally, ""),
            tally.passed,
            tally.accepted,
            tally.failed,
            tally.cases(),
            percent(tally.passed, tally.cases()),
        );
    }
    let _ = write!(
        out,
        "</tbody>\n<tfoot><tr><th scope=\"row\" id=\"sum-label\">all ops</th><td class=\"barcol\"></td>\
         <td class=\"num passed\" id=\"sum-passed\">{}</td><td class=\"num accepted\" id=\"sum-accepted\">{}</td>\
         <td class=\"num failed\" id=\"sum-failed\">{}</td><td class=\"num\" id=\"sum-cases\">{}</td>\
         <td class=\"num\" id=\"sum-identical\">{}</td></tr></tfoot>\n</table>\n\
         <p class=\"none\" hidden>No op matches the filter.</p>\n</section>\n",
        sum.passed,
        sum.accepted,
        sum.failed,
        sum.cases(),
        percent(sum.passed, sum.cases())
    );
    out
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".to_owned();
    }
    // Floor, so that 99.9% identical never reads as 100%. Accepted
    // cases are not counted: an op its ledger accepts whole is not done.
    format!("{}%", part * 100 / whole)
}

fn footer(notes: &[String]) -> String {
    let mut out = String::from("<footer>\n");
    for note in notes {
        let _ = writeln!(out, "<p>{}</p>", esc(note));
    }
    let _ = writeln!(
        out,
        "<p>Made by parity-diff {}. One self-contained file: it loads nothing from the network. \
         The filter also reads the address's fragment, as in <code>report.html#op=sum&amp;state=new&amp;q=text</code>.</p>\n</footer>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

impl Brief {
    /// A case in brief, from its record.
    pub(super) fn of(record: &crate::report::record::CaseRecord) -> Self {
        Brief {
            op: crate::report::op_key(record).to_owned(),
            state: record.state.name(),
            verdict: record.verdict.name(),
            label: record.label.clone(),
            location: record.location(),
            summary: record.summary.clone(),
        }
    }
}
