//! The page, section by section, written once the run has ended.
//!
//! Every element the filter acts on carries `data-op`, `data-states`,
//! `data-verdicts` (space-separated) and, where free text applies,
//! `data-text`; the script hides what does not match with the `hidden`
//! attribute, so a dumped DOM shows exactly what a filter left.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::case::{self, brief_row, BRIEF_HEAD};
use super::{esc, Brief, Html, SIZE_LIMIT};
use crate::diff::record::signature::op_display;
use crate::diff::record::{id_from_json, CaseState, EntryState, VerdictKind};
use crate::diff::report::groups::Group;
use crate::diff::report::human::cases;
use crate::diff::report::{Aggregates, Problem, Tally, NO_OP};
use crate::js::{self, Value};

const STYLE: &str = include_str!("report.css");
const SCRIPT: &str = include_str!("report.js");

/// How many groups the index of failures lists.
const MAX_INDEX_ROWS: usize = 1000;

/// How many orphaned ledger entries (and ops that only threw) are listed.
const MAX_ORPHANS: usize = 500;

/// The states the filter offers, in the order it offers them.
const STATES: [&str; 8] = [
    "passed", "failed", "accepted", "new", "changed", "stale", "error", "orphaned",
];

/// Writes bytes out, counting them.
struct Page<'a> {
    out: &'a mut dyn Write,
    written: usize,
}

impl Page<'_> {
    fn put(&mut self, text: &str) -> io::Result<()> {
        self.written += text.len();
        self.out.write_all(text.as_bytes())
    }
}

/// Space-separated, for a `data-` attribute.
fn words(set: &BTreeSet<&'static str>) -> String {
    set.iter().copied().collect::<Vec<_>>().join(" ")
}

/// `1 entry`, `2 entries`.
fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

fn op_shown(op: &str) -> String {
    if op == NO_OP {
        op.to_owned()
    } else {
        op_display(Some(op))
    }
}

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
    extra: Option<(&str, Value)>,
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
    tail.push_str(&orphaned_section(aggregates));
    if let Some((key, value)) = &extra {
        tail.push_str(&extra_section(key, value));
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
    let mut meta = vec![format!("exit status {}", totals.exit_code())];
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

const VERDICTS: [VerdictKind; 8] = [
    VerdictKind::Identical,
    VerdictKind::SameValue,
    VerdictKind::Different,
    VerdictKind::Missing,
    VerdictKind::Extra,
    VerdictKind::Crash,
    VerdictKind::InvalidOutput,
    VerdictKind::Timeout,
];

fn ops_section(html: &Html, aggregates: &Aggregates) -> String {
    let mut out = String::from(
        "<section id=\"ops\" data-section>\n<h2>Per op</h2>\n<table class=\"ops\">\n\
         <caption>Cases per op: passed, accepted (diverging as the ledger says) and failed</caption>\n\
         <thead><tr><th scope=\"col\">op</th><th scope=\"col\" class=\"barcol\">cases</th>\
         <th scope=\"col\" class=\"num\">passed</th><th scope=\"col\" class=\"num\">accepted</th>\
         <th scope=\"col\" class=\"num\">failed</th><th scope=\"col\" class=\"num\">total</th>\
         <th scope=\"col\" class=\"num\">passing</th></tr></thead>\n<tbody>\n",
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
            percent(tally.passed + tally.accepted, tally.cases()),
        );
    }
    let _ = write!(
        out,
        "</tbody>\n<tfoot><tr><th scope=\"row\" id=\"sum-label\">all ops</th><td class=\"barcol\"></td>\
         <td class=\"num passed\" id=\"sum-passed\">{}</td><td class=\"num accepted\" id=\"sum-accepted\">{}</td>\
         <td class=\"num failed\" id=\"sum-failed\">{}</td><td class=\"num\" id=\"sum-cases\">{}</td>\
         <td class=\"num\" id=\"sum-passing\">{}</td></tr></tfoot>\n</table>\n\
         <p class=\"none\" hidden>No op matches the filter.</p>\n</section>\n",
        sum.passed,
        sum.accepted,
        sum.failed,
        sum.cases(),
        percent(sum.passed + sum.accepted, sum.cases())
    );
    out
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "–".to_owned();
    }
    // Floor, so that 99.9% passing never reads as 100%.
    format!("{}%", part * 100 / whole)
}

fn problems_section(html: &Html) -> String {
    if html.problems.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section id=\"errors\" data-section>\n<h2>Files that could not be compared</h2>\n",
    );
    for (file, problem) in &html.problems {
        let name = file.name.as_deref().unwrap_or("-");
        let (state, title, body) = match problem {
            Problem::MissingGolden { golden } => (
                "failed",
                "no golden",
                format!(
                    "<p>no golden at <code>{}</code></p>",
                    esc(&golden.display().to_string())
                ),
            ),
            Problem::OrphanGolden { golden } => (
                "failed",
                "golden without a case file",
                format!("<p><code>{}</code></p>", esc(&golden.display().to_string())),
            ),
            Problem::Error {
                message,
                stderr,
                skipped,
            } => {
                let mut body = format!("<p>{}</p>", esc(message));
                if *skipped > 0 {
                    let _ = write!(
                        body,
                        "<p>{} not compared</p>",
                        cases(*skipped, "golden case")
                    );
                }
                match stderr.as_deref().map(str::trim_end) {
                    Some("") => {
                        body.push_str("<p class=\"dim\">(the oracle wrote nothing on stderr)</p>")
                    }
                    Some(text) => {
                        let _ = write!(
                            body,
                            "<details open><summary>the oracle's stderr</summary><pre class=\"stderr\">{}</pre></details>",
                            esc(text)
                        );
                    }
                    None => {}
                }
                ("error", "error", body)
            }
        };
        let _ = writeln!(
            out,
            "<article class=\"problem\" data-filtered data-states=\"{state}\" data-text=\"{}\">\
             <h3><span class=\"state s-{state}\">{title}</span> <code>{}</code></h3>{body}</article>",
            esc(&format!("{name} {title}")),
            esc(name),
        );
    }
    if html.problems_left_out > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not shown (the JSON report lists them all)</p>",
            cases(html.problems_left_out, "problem")
        );
    }
    out.push_str("<p class=\"none\" hidden>No error matches the filter.</p>\n</section>\n");
    out
}

fn uniform_section(html: &Html, uniform: &[(String, usize, String)]) -> String {
    if uniform.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section id=\"unimplemented\" data-section>\n<h2>Ops that only threw <small>{}</small></h2>\n\
         <table class=\"uniform\">\n<caption>Every case of these ops failed with the port throwing \
         one message (their groups are not listed below)</caption>\n<thead><tr><th scope=\"col\">op</th>\
         <th scope=\"col\" class=\"num\">cases</th><th scope=\"col\">the port threw</th></tr></thead>\n<tbody>\n",
        cases(uniform.len(), "op")
    );
    let empty = super::OpSeen::default();
    for (op, count, message) in uniform.iter().take(MAX_ORPHANS) {
        let seen = html.ops.get(op).unwrap_or(&empty);
        let quoted = serde_json::to_string(message).unwrap_or_default();
        let _ = writeln!(
            out,
            "<tr data-filtered data-op=\"{}\" data-states=\"{}\" data-verdicts=\"{}\" data-text=\"{}\">\
             <th scope=\"row\"><code>{}</code></th><td class=\"num failed\">{count}</td>\
             <td><code>{}</code></td></tr>",
            esc(op),
            words(&seen.states),
            words(&seen.verdicts),
            esc(&format!("{} {message}", op_shown(op))),
            esc(&op_shown(op)),
            esc(&quoted),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if uniform.len() > MAX_ORPHANS {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed</p>",
            uniform.len() - MAX_ORPHANS
        );
    }
    out.push_str("<p class=\"none\" hidden>No op of these matches the filter.</p>\n</section>\n");
    out
}

fn group_attributes(group: &Group, seen: Option<&super::GroupSeen>) -> String {
    let op = group.signature.op.as_deref().unwrap_or(NO_OP);
    let (states, verdicts) = seen.map_or((String::new(), String::new()), |seen| {
        (words(&seen.states), words(&seen.verdicts))
    });
    format!(
        "data-op=\"{}\" data-states=\"{states}\" data-verdicts=\"{verdicts}\" data-text=\"{}\" data-count=\"{}\"",
        esc(op),
        esc(&group.signature.text),
        group.count
    )
}

/// The failures: an index of the groups, then each group with its first
/// cases in full and more in brief, within the page's size. Returns the
/// notes on what the size left out.
fn failures(
    page: &mut Page,
    html: &Html,
    aggregates: &mut Aggregates,
    uniform: &[(String, usize, String)],
    reserve: usize,
) -> io::Result<Vec<String>> {
    let summarized = |group: &Group| {
        let op = group.signature.op.as_deref().unwrap_or(NO_OP);
        uniform.iter().any(|(name, ..)| name == op)
    };
    let groups: Vec<Group> = aggregates
        .groups
        .sorted()
        .into_iter()
        .filter(|group| !summarized(group))
        .cloned()
        .collect();
    if groups.is_empty() {
        return Ok(Vec::new());
    }
    let total: usize = groups.iter().map(|group| group.count).sum();
    let threw: usize = uniform.iter().map(|(_, count, _)| count).sum();
    let besides = if threw > 0 {
        format!(
            "; {} more in <a href=\"#unimplemented\">ops that only threw</a>",
            cases(threw, "case")
        )
    } else {
        String::new()
    };
    let mut index = format!(
        "<section id=\"failures\" data-section>\n<h2>Failures <small>{} in {}{besides}</small></h2>\n\
         <table class=\"index\">\n<caption>Failing cases grouped by signature (op, kind, first \
         differing path and the shapes there), largest group first</caption>\n<thead><tr>\
         <th scope=\"col\" class=\"num\">cases</th><th scope=\"col\">kind</th><th scope=\"col\">signature</th>\
         </tr></thead>\n<tbody>\n",
        cases(total, "case"),
        cases(groups.len(), "group")
    );
    for (n, group) in groups.iter().take(MAX_INDEX_ROWS).enumerate() {
        let seen = html.groups.get(&group.signature.text);
        let _ = writeln!(
            index,
            "<tr data-ref=\"g{n}\" {}><td class=\"num failed\">{}</td><td><span class=\"kind\">{}</span></td>\
             <td><a href=\"#g{n}\">{}</a></td></tr>",
            group_attributes(group, seen),
            group.count,
            esc(&group.signature.kind),
            esc(&group.signature.text)
        );
    }
    index.push_str("</tbody>\n</table>\n");
    if groups.len() > MAX_INDEX_ROWS {
        let _ = writeln!(
            index,
            "<p class=\"note\">… and {} more groups not listed here</p>",
            groups.len() - MAX_INDEX_ROWS
        );
    }
    page.put(&index)?;
    let limit = SIZE_LIMIT.saturating_sub(reserve);
    let mut briefed = 0usize;
    let mut unlisted = 0usize;
    let mut left_out = 0usize;
    for (n, group) in groups.iter().enumerate() {
        let seen = html.groups.get(&group.signature.text);
        let head = format!(
            "<section class=\"group\" id=\"g{n}\" data-group {}>\n<h3><span class=\"n\">{}</span> \
             <span class=\"kind\">{}</span> {}</h3>\n",
            group_attributes(group, seen),
            cases(group.count, "case"),
            esc(&group.signature.kind),
            esc(&group.signature.text)
        );
        if page.written + head.len() > limit {
            left_out = groups.len() - n;
            break;
        }
        page.put(&head)?;
        let shown = aggregates.groups.shown(&group.signature)?;
        let mut listed = 0usize;
        let mut rows: Vec<Brief> = Vec::new();
        for record in &shown {
            let card = case::card(record);
            if page.written + card.len() + 1024 > limit {
                briefed += 1;
                rows.push(Brief::of(record));
            } else {
                page.put(&card)?;
                listed += 1;
            }
        }
        rows.extend(
            seen.map(|seen| seen.brief.iter().cloned())
                .into_iter()
                .flatten(),
        );
        let mut table = String::new();
        for row in &rows {
            let line = brief_row(row);
            if page.written + table.len() + line.len() + 512 > limit {
                break;
            }
            table.push_str(&line);
            listed += 1;
        }
        if !table.is_empty() {
            page.put(BRIEF_HEAD)?;
            page.put(&table)?;
            page.put("</tbody>\n</table>\n")?;
        }
        let more = group.count.saturating_sub(listed);
        if more > 0 {
            unlisted += more;
            page.put(&format!(
                "<p class=\"more\">… and {} not listed (the JSON report lists every case)</p>\n",
                plural(more, "more case", "more cases")
            ))?;
        }
        page.put("</section>\n")?;
    }
    let mut notes = Vec::new();
    if briefed > 0 || left_out > 0 {
        let mut note = format!("This page keeps under {} MiB: ", SIZE_LIMIT / (1024 * 1024));
        let mut parts = Vec::new();
        if briefed > 0 {
            parts.push(format!(
                "{} shown in brief rather than in full",
                cases(briefed, "case")
            ));
        }
        if left_out > 0 {
            parts.push(format!("{} left out", cases(left_out, "failure group")));
        }
        note.push_str(&parts.join(", and "));
        note.push_str(". The JSON report (--format json) has every case.");
        page.put(&format!(
            "<p class=\"note\" id=\"size-note\">{}</p>\n",
            esc(&note)
        ))?;
        notes.push(note);
    }
    if unlisted > 0 {
        notes.push(format!(
            "{} counted but not listed here.",
            plural(unlisted, "failing case is", "failing cases are")
        ));
    }
    page.put("<p class=\"none\" hidden>No failure matches the filter.</p>\n</section>\n")?;
    Ok(notes)
}

fn orphaned_section(aggregates: &Aggregates) -> String {
    if aggregates.orphaned.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section id=\"orphaned\" data-section>\n<h2>Orphaned ledger entries <small>{}</small></h2>\n\
         <table class=\"orphans\">\n<caption>Ledger entries whose case no longer exists; remove them \
         with <code>parity-diff accept --prune</code></caption>\n<thead><tr><th scope=\"col\">case</th>\
         <th scope=\"col\">op</th><th scope=\"col\">entry</th></tr></thead>\n<tbody>\n",
        aggregates.orphaned.len()
    );
    for entry in aggregates.orphaned.iter().take(MAX_ORPHANS) {
        let op = entry.op.as_deref().unwrap_or(NO_OP);
        let state = match &entry.state {
            EntryState::Accepted => "accepted".to_owned(),
            EntryState::Triaged { link: None } => "triaged".to_owned(),
            EntryState::Triaged { link: Some(link) } => format!("triaged ({link})"),
        };
        let id = entry.id.to_string();
        let _ = writeln!(
            out,
            "<tr data-filtered data-op=\"{}\" data-states=\"orphaned\" data-verdicts=\"\" data-text=\"{}\">\
             <td><code>{}</code></td><td><code>{}</code></td><td>{}: {}</td></tr>",
            esc(op),
            esc(&format!("{id} {} {}", op_shown(op), entry.reason)),
            esc(&id),
            esc(&op_shown(op)),
            esc(&state),
            esc(&entry.reason)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if aggregates.orphaned.len() > MAX_ORPHANS {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed</p>",
            aggregates.orphaned.len() - MAX_ORPHANS
        );
    }
    out.push_str(
        "<p class=\"none\" hidden>No orphaned entry matches the filter.</p>\n</section>\n",
    );
    out
}

/// A member a command adds to its report (`accept`'s ledger changes):
/// each of its members as a line, case identities by name.
fn extra_section(key: &str, value: &Value) -> String {
    let title = if key == "ledgerChanges" {
        "Ledger changes".to_owned()
    } else {
        key.to_owned()
    };
    let mut out = format!(
        "<section id=\"extra-{}\">\n<h2>{}</h2>\n<dl class=\"facts\">\n",
        esc(key),
        esc(&title)
    );
    let Some(object) = value.as_object() else {
        return String::new();
    };
    for (member, item) in object.iter() {
        let shown = match item.as_array() {
            Some(items) if items.iter().all(|item| id_from_json(item).is_some()) => {
                if items.is_empty() {
                    "none".to_owned()
                } else {
                    items
                        .iter()
                        .filter_map(id_from_json)
                        .map(|id| format!("<code>{}</code>", esc(&id.to_string())))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            }
            _ => format!(
                "<code>{}</code>",
                esc(&String::from_utf8_lossy(&js::to_json(item)))
            ),
        };
        let _ = writeln!(
            out,
            "<dt>{}</dt><dd>{shown}</dd>",
            esc(&member.to_utf8_lossy())
        );
    }
    out.push_str("</dl>\n</section>\n");
    out
}

fn footer(notes: &[String]) -> String {
    let mut out = String::from("<footer>\n");
    for note in notes {
        let _ = writeln!(out, "<p>{}</p>", esc(note));
    }
    let _ = writeln!(
        out,
        "<p>Made by parity-diff {}. One self-contained file: it loads nothing from the network. \
         The filter also reads the address's fragment, as in <code>report.html#op=cliArgs&amp;state=new&amp;q=text</code>.</p>\n</footer>",
        env!("CARGO_PKG_VERSION")
    );
    out
}

impl Brief {
    /// A case in brief, from its record.
    pub(super) fn of(record: &crate::diff::record::CaseRecord) -> Self {
        Brief {
            op: record.op.clone().unwrap_or_else(|| NO_OP.to_owned()),
            state: record.state.name(),
            verdict: record.verdict.name(),
            label: record.label.clone(),
            location: record.location(),
            summary: record.summary.clone(),
        }
    }
}

/// The state's class name, for colour.
pub(super) fn state_class(state: &str) -> &'static str {
    match CaseState::from_name(state) {
        Some(CaseState::Passed) => "s-passed",
        Some(CaseState::Accepted) => "s-accepted",
        Some(CaseState::Stale) => "s-stale",
        Some(CaseState::Error) => "s-error",
        _ => "s-failed",
    }
}
