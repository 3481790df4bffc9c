//! The sections besides the per-op table and the failures: file-level
//! problems (files that could not be compared, framing divergences), the
//! ops that only threw, orphaned ledger entries, stale and orphaned
//! ledger rules, and what a command adds (`accept`'s ledger changes).

use std::fmt::Write as _;

use super::parts::{op_shown, state_class, words, MAX_ROWS};
use super::Html;
use super::{esc, esc_json, esc_lines};
use crate::report::detail::entry_ref_text;
use crate::report::human::cases;
use crate::report::json::case::read_id;
use crate::report::record::EntryState;
use crate::report::{Aggregates, Problem, NO_OP};
use js_exact::{self as js, Value};

pub(super) fn problems_section(html: &Html) -> String {
    if html.problems.kept.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("<section id=\"errors\" data-section>\n<h2>File-level problems</h2>\n");
    for (file, problem) in &html.problems.kept {
        let name = file.name.as_deref().unwrap_or("-");
        let words = match problem {
            Problem::Error { message, .. } => message.clone(),
            Problem::MissingGolden { golden } | Problem::OrphanGolden { golden } => golden.clone(),
            Problem::Framing { found, .. } => found.clone(),
        };
        let (state, title, body) = match problem {
            Problem::MissingGolden { golden } => (
                "failed",
                "no golden",
                format!("<p>no golden at <code>{}</code></p>", esc(&golden.clone())),
            ),
            Problem::OrphanGolden { golden } => (
                "failed",
                "golden without a case file",
                format!("<p><code>{}</code></p>", esc(&golden.clone())),
            ),
            Problem::Error {
                message,
                stderr,
                skipped,
                ..
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
                            esc_lines(text)
                        );
                    }
                    None => {}
                }
                ("error", "error", body)
            }
            Problem::Framing {
                found,
                state,
                entry,
                ..
            } => {
                let mut body = format!("<p>{}</p>", esc(found));
                if let Some(entry) = entry {
                    let _ = write!(body, "<p class=\"dim\">{}</p>", esc(&entry_ref_text(entry)));
                }
                let state = if state.passes() { "accepted" } else { "failed" };
                (state, "framing", body)
            }
        };
        let _ = writeln!(
            out,
            "<article class=\"problem\" data-filtered data-states=\"{state}\" data-text=\"{}\">\
             <h3><span class=\"state s-{state}\">{title}</span> <code>{}</code></h3>{body}</article>",
            esc(&format!("{name} {title} {words}")),
            esc(name),
        );
    }
    if html.problems.left_out > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not shown (the JSON report lists them all)</p>",
            cases(html.problems.left_out, "problem")
        );
    }
    out.push_str("<p class=\"none\" hidden>No problem matches the filter.</p>\n</section>\n");
    out
}

pub(super) fn uniform_section(html: &Html, uniform: &[(String, usize, String)]) -> String {
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
    for (op, count, message) in uniform.iter().take(MAX_ROWS) {
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
            esc_json(&quoted),
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if uniform.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed</p>",
            uniform.len() - MAX_ROWS
        );
    }
    out.push_str("<p class=\"none\" hidden>No op of these matches the filter.</p>\n</section>\n");
    out
}

pub(super) fn orphaned_section(aggregates: &Aggregates) -> String {
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
    for entry in aggregates.orphaned.iter().take(MAX_ROWS) {
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
    if aggregates.orphaned.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed</p>",
            aggregates.orphaned.len() - MAX_ROWS
        );
    }
    out.push_str(
        "<p class=\"none\" hidden>No orphaned entry matches the filter.</p>\n</section>\n",
    );
    out
}

/// The ledger rules that match no case (stale) or whose ops have none
/// (orphaned): a row each, in the filter's states by their problem.
pub(super) fn rules_section(aggregates: &Aggregates) -> String {
    if aggregates.rules.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "<section id=\"rules\" data-section>\n<h2>Stale and orphaned ledger rules <small>{}</small></h2>\n\
         <table class=\"orphans\">\n<caption>Rules that match no case (stale) or whose ops have no case \
         (orphaned); remove them with <code>parity-diff accept --prune</code></caption>\n<thead><tr>\
         <th scope=\"col\">rule</th><th scope=\"col\">problem</th><th scope=\"col\">rule's state</th>\
         </tr></thead>\n<tbody>\n",
        aggregates.rules.len()
    );
    for finding in aggregates.rules.iter().take(MAX_ROWS) {
        let rule = &finding.rule;
        let state = match &rule.state {
            EntryState::Accepted => "accepted".to_owned(),
            EntryState::Triaged { link: None } => "triaged".to_owned(),
            EntryState::Triaged { link: Some(link) } => format!("triaged ({link})"),
        };
        let problem = finding.problem.name();
        let described = rule.describe();
        let _ = writeln!(
            out,
            "<tr data-filtered data-op=\"\" data-states=\"{problem}\" data-verdicts=\"\" data-text=\"{}\">\
             <td><code>{}</code></td><td><span class=\"state {}\">{problem}</span>: {}</td><td>{}: {}</td></tr>",
            esc(&format!("{described} {problem} {}", rule.reason)),
            esc(&described),
            state_class(problem),
            finding.problem.why(),
            esc(&state),
            esc(&rule.reason)
        );
    }
    out.push_str("</tbody>\n</table>\n");
    if aggregates.rules.len() > MAX_ROWS {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed</p>",
            aggregates.rules.len() - MAX_ROWS
        );
    }
    out.push_str("<p class=\"none\" hidden>No rule matches the filter.</p>\n</section>\n");
    out
}

/// A member a command adds to its report (`accept`'s ledger changes):
/// each of its members as a line, case identities by name.
pub(super) fn extra_section(key: &str, value: &Value) -> String {
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
            Some(items) if items.iter().all(|item| read_id(item).is_some()) => {
                if items.is_empty() {
                    "none".to_owned()
                } else {
                    items
                        .iter()
                        .filter_map(read_id)
                        .map(|id| format!("<code>{}</code>", esc(&id.to_string())))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            }
            _ => match item.as_js_string() {
                Some(text) => format!("<code>{}</code>", esc(&text.to_utf8_lossy())),
                None => format!(
                    "<code>{}</code>",
                    esc_json(&String::from_utf8_lossy(&js::to_json(item)))
                ),
            },
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
