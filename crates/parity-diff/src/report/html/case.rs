//! One failing case on the page: in full (its input, its ledger entry,
//! the differing paths with both values, and golden and actual side by
//! side with the lines at those paths marked), or in brief (one row).

use std::fmt::Write as _;

use super::pane::{self, PaneLine, Shown};
use super::parts::state_class;
use super::{esc, esc_json, Brief};
use crate::judge::pointer;
use crate::report::detail::{cut_first_difference, entry_text, first_difference_text, show_json};
use crate::report::record::{CaseRecord, VerdictKind};
use js_exact::JsString;

/// A pane's lines stop here, with a fold for the rest.
pub const PANE_BYTES: usize = 192 * 1024;

/// The head of a group's table of cases in brief.
pub const BRIEF_HEAD: &str =
    "<table class=\"brief\">\n<caption>More cases of this group</caption>\n\
    <thead><tr><th scope=\"col\">case</th><th scope=\"col\">where</th><th scope=\"col\">state</th>\
    <th scope=\"col\">summary</th></tr></thead>\n<tbody>\n";

/// The filter's attributes of one case.
fn attributes(op: &str, state: &str, verdict: &str, text: &str) -> String {
    format!(
        "data-row data-op=\"{}\" data-states=\"{state}\" data-verdicts=\"{verdict}\" data-text=\"{}\"",
        esc(op),
        esc(text)
    )
}

/// One row of a group's table of cases in brief.
pub fn brief_row(brief: &Brief) -> String {
    let text = format!("{} {} {}", brief.label, brief.location, brief.summary);
    format!(
        "<tr {}><td>{}</td><td><code>{}</code></td><td><span class=\"state {}\">{}</span></td><td>{}</td></tr>\n",
        attributes(&brief.op, brief.state, brief.verdict, &text),
        esc(&brief.label),
        esc(&brief.location),
        state_class(brief.state),
        brief.state,
        esc(&brief.summary)
    )
}

/// A case in full.
pub fn card(record: &CaseRecord) -> String {
    let op = crate::report::op_key(record);
    let state = record.state.name();
    let text = format!(
        "{} {} {} {}",
        record.label,
        record.location(),
        record.summary,
        record.input.as_deref().unwrap_or("")
    );
    let mut html = format!(
        "<article class=\"case\" {}>\n<header><span class=\"state {}\">{state}</span> \
         <h4>{}</h4> <code class=\"where\">{}</code> <span class=\"verdict\">{}</span></header>\n\
         <p class=\"summary\">{}</p>\n",
        attributes(op, state, record.verdict.name(), &text),
        state_class(state),
        esc(&record.label),
        esc(&record.location()),
        record.verdict.name(),
        esc(&record.summary)
    );
    let mut facts = String::new();
    if let Some(input) = &record.input {
        let _ = write!(
            facts,
            "<dt>input</dt><dd><code class=\"input\">{}</code></dd>",
            esc_json(&crate::base::outside::json_line(input))
        );
    }
    if let Some(entry) = entry_text(record) {
        let _ = write!(facts, "<dt>ledger</dt><dd>{}</dd>", esc(&entry));
    }
    if let Some(note) = &record.note {
        let _ = write!(facts, "<dt>note</dt><dd>{}</dd>", esc(note));
    }
    if let Some(fingerprint) = &record.fingerprint {
        let _ = write!(
            facts,
            "<dt>fingerprint</dt><dd><code>{}</code></dd>",
            esc(fingerprint)
        );
    }
    if !facts.is_empty() {
        let _ = writeln!(html, "<dl class=\"facts\">{facts}</dl>");
    }
    html.push_str(&paths_table(record));
    html.push_str(&reasons_table(record));
    html.push_str(&panes(record));
    html.push_str("</article>\n");
    html
}

fn paths_table(record: &CaseRecord) -> String {
    if record.paths.is_empty() {
        return String::new();
    }
    let listed = if record.total_paths > record.paths.len() {
        format!(", the first {} listed and marked", record.paths.len())
    } else {
        String::new()
    };
    let mut html = format!(
        "<table class=\"paths\">\n<caption>{} differing {}{listed}</caption>\n<thead><tr>\
         <th scope=\"col\">JSON Pointer</th><th scope=\"col\">golden</th><th scope=\"col\">actual</th></tr></thead>\n<tbody>\n",
        record.total_paths,
        if record.total_paths == 1 { "path" } else { "paths" }
    );
    for path in &record.paths {
        let _ = writeln!(
            html,
            "<tr><th scope=\"row\"><code>{}</code></th><td class=\"golden\"><code>{}</code></td>\
             <td class=\"actual\"><code>{}</code></td></tr>",
            esc(&pointer::display(&path.pointer)),
            esc_json(&show_json(path.golden_json())),
            esc_json(&show_json(path.actual_json()))
        );
        if let Some(first) = cut_first_difference(path) {
            let _ = writeln!(
                html,
                "<tr class=\"first-difference\"><th scope=\"row\">{}</th><td class=\"golden\"><code>{}</code></td>\
                 <td class=\"actual\"><code>{}</code></td></tr>",
                esc(&first_difference_text(&first)),
                esc_json(&first.golden.display()),
                esc_json(&first.actual.display())
            );
        }
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

fn reasons_table(record: &CaseRecord) -> String {
    if record.reasons.is_empty() {
        return String::new();
    }
    let mut html = format!(
        "<table class=\"paths\">\n<caption>The same value written differently: {} {}</caption>\n<thead><tr>\
         <th scope=\"col\">JSON Pointer</th><th scope=\"col\">why</th><th scope=\"col\">golden</th>\
         <th scope=\"col\">actual</th></tr></thead>\n<tbody>\n",
        record.total_reasons,
        if record.total_reasons == 1 { "reason" } else { "reasons" }
    );
    for reason in &record.reasons {
        let _ = writeln!(
            html,
            "<tr><th scope=\"row\"><code>{}</code></th><td>{}</td><td class=\"golden\"><code>{}</code></td>\
             <td class=\"actual\"><code>{}</code></td></tr>",
            esc(&pointer::display(&reason.pointer)),
            esc(&reason.kind),
            esc_json(&reason.golden),
            esc_json(&reason.actual)
        );
    }
    html.push_str("</tbody>\n</table>\n");
    html
}

/// Golden and actual side by side, when the record has either.
fn panes(record: &CaseRecord) -> String {
    if record.golden.is_none() && record.actual.is_none() {
        return String::new();
    }
    let targets: Vec<JsString> = record
        .paths
        .iter()
        .map(|path| path.pointer.clone())
        .chain(record.reasons.iter().map(|reason| reason.pointer.clone()))
        .collect();
    let absent = match record.verdict {
        VerdictKind::Missing => "the results have no element for this case",
        VerdictKind::Extra => "the golden has no element for this case",
        _ => "no element",
    };
    format!(
        "<div class=\"panes\">\n{}{}</div>\n",
        pane("golden", record.golden.as_deref(), &targets, absent),
        pane("actual", record.actual.as_deref(), &targets, absent)
    )
}

fn pane(side: &str, element: Option<&str>, targets: &[JsString], absent: &str) -> String {
    let Some(element) = element else {
        return format!(
            "<figure class=\"pane {side} absent\"><figcaption>{side}</figcaption><p>({absent})</p></figure>\n"
        );
    };
    let (lines, parsed) = match pane::annotate(element, targets) {
        Some(lines) => (lines, true),
        None => (pane::plain(element), false),
    };
    let marked = lines.iter().filter(|line| line.marked).count();
    let mut about = format!(
        "{} {}",
        lines.len(),
        if lines.len() == 1 { "line" } else { "lines" }
    );
    if marked > 0 {
        let _ = write!(about, ", {marked} marked");
    }
    if !parsed {
        about.push_str(", as written (not well-formed JSON: cut, perhaps)");
    }
    let mut body = String::new();
    let shown = pane::fold(&lines);
    for (at, item) in shown.iter().enumerate() {
        if body.len() > PANE_BYTES {
            let rest: usize = shown[at..]
                .iter()
                .map(|item| match item {
                    Shown::Line(_) => 1,
                    Shown::Fold(count) => *count,
                })
                .sum();
            let _ = write!(
                body,
                "<span class=\"fold\">⋯ {rest} more lines not shown</span>"
            );
            break;
        }
        match *item {
            Shown::Line(index) => body.push_str(&line(index, &lines[index])),
            Shown::Fold(count) => {
                let _ = write!(
                    body,
                    "<span class=\"fold\">⋯ {count} {} not shown</span>",
                    if count == 1 { "line" } else { "lines" }
                );
            }
        }
    }
    format!(
        "<figure class=\"pane {side}\"><figcaption>{side} <small>{about}</small></figcaption>\
         <pre><code>{body}</code></pre></figure>\n"
    )
}

fn line(index: usize, line: &PaneLine) -> String {
    format!(
        "<span class=\"l{}\" data-n=\"{}\">{}</span>",
        if line.marked { " m" } else { "" },
        index + 1,
        esc_json(&line.text)
    )
}
