//! The cases the ledger accepts, as two sections: **Triaged** (known bugs
//! to fix: an entry's or a rule's `state: triaged`, with its link) and
//! **Accepted** (deliberate differences). Their rows carry the state
//! filter's words (`accepted`, and `triaged` for the first), so that
//! choosing either state shows the cases it names, not only per-op rows.
//!
//! Both are bounded while the run goes: the first rows are kept, the rest
//! counted.

use std::fmt::Write as _;

use super::parts::op_shown;
use super::{esc, Html};
use crate::report::human::cases;
use crate::report::record::{CaseRecord, CaseState, EntryState};

/// How many triaged cases the page lists.
pub const TRIAGED_LISTED: usize = 500;

/// How many other accepted cases the page lists.
pub const ACCEPTED_LISTED: usize = 100;

/// One accepted case as a row: everything kept is outside text, escaped
/// when the page is written.
#[derive(Debug, Clone)]
pub(super) struct AcceptedRow {
    op: String,
    verdict: &'static str,
    label: String,
    location: String,
    link: Option<String>,
    reason: String,
}

/// The accepted cases kept for the page: the first of each kind, and how
/// many in all.
#[derive(Debug, Default)]
pub(super) struct Accepted {
    triaged: Vec<AcceptedRow>,
    triaged_count: usize,
    deliberate: Vec<AcceptedRow>,
    deliberate_count: usize,
}

impl Accepted {
    /// Keeps `record` when it is accepted and its kind has room.
    pub(super) fn keep(&mut self, record: &CaseRecord) {
        let Some(entry) = record.entry.as_ref() else {
            return;
        };
        if record.state != CaseState::Accepted {
            return;
        }
        let (rows, count, max, link) = match &entry.state {
            EntryState::Triaged { link } => (
                &mut self.triaged,
                &mut self.triaged_count,
                TRIAGED_LISTED,
                link.clone(),
            ),
            EntryState::Accepted => (
                &mut self.deliberate,
                &mut self.deliberate_count,
                ACCEPTED_LISTED,
                None,
            ),
        };
        *count += 1;
        if rows.len() < max {
            rows.push(AcceptedRow {
                op: crate::report::op_key(record).to_owned(),
                verdict: record.verdict.name(),
                label: record.label.clone(),
                location: record.location(),
                link,
                reason: entry.reason.clone(),
            });
        }
    }
}

/// A section's table of rows, each `data-filtered` with its states.
fn table(out: &mut String, caption: &str, rows: &[AcceptedRow], states: &str, with_link: bool) {
    let _ = write!(
        out,
        "<table class=\"accepted\">\n<caption>{caption}</caption>\n<thead><tr><th scope=\"col\">case</th>\
         <th scope=\"col\">op</th><th scope=\"col\">verdict</th>"
    );
    if with_link {
        out.push_str("<th scope=\"col\">link</th>");
    }
    out.push_str("<th scope=\"col\">reason</th></tr></thead>\n<tbody>\n");
    for row in rows {
        let link = row.link.as_deref().unwrap_or("");
        let _ = write!(
            out,
            "<tr data-filtered data-op=\"{}\" data-states=\"{states}\" data-verdicts=\"{}\" data-text=\"{}\">\
             <td><code>{}</code> {}</td><td><code>{}</code></td><td>{}</td>",
            esc(&row.op),
            row.verdict,
            esc(&[row.location.as_str(), &row.label, link, &row.reason]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect::<Vec<_>>()
                .join(" ")),
            esc(&row.location),
            esc(&row.label),
            esc(&op_shown(&row.op)),
            row.verdict,
        );
        // A link is shown as text, never as a live link: it is the
        // ledger's, and the page follows nothing.
        if with_link {
            match &row.link {
                Some(link) => {
                    let _ = write!(out, "<td><code>{}</code></td>", esc(link));
                }
                None => out.push_str("<td class=\"dim\">none</td>"),
            }
        }
        let _ = writeln!(out, "<td>{}</td></tr>", esc(&row.reason));
    }
    out.push_str("</tbody>\n</table>\n");
}

fn more(out: &mut String, count: usize, listed: usize) {
    if count > listed {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more not listed (the JSON report lists them all)</p>",
            count - listed
        );
    }
}

/// The triaged cases, when there are any.
pub(super) fn triaged_section(html: &Html) -> String {
    let accepted = &html.accepted;
    if accepted.triaged_count == 0 {
        return String::new();
    }
    let mut out = format!(
        "<section id=\"triaged\" data-section>\n<h2>Triaged <small>{}</small></h2>\n",
        cases(accepted.triaged_count, "case")
    );
    let caption = "Known bugs, not yet fixed: the ledger accepts them (an entry or a rule with \
                   <code>state: triaged</code>) until the port is fixed";
    table(
        &mut out,
        caption,
        &accepted.triaged,
        "accepted triaged",
        true,
    );
    more(&mut out, accepted.triaged_count, accepted.triaged.len());
    out.push_str("<p class=\"none\" hidden>No triaged case matches the filter.</p>\n</section>\n");
    out
}

/// The accepted cases that are not triaged, when there are any.
pub(super) fn accepted_section(html: &Html) -> String {
    let accepted = &html.accepted;
    if accepted.deliberate_count == 0 {
        return String::new();
    }
    let mut out = format!(
        "<section id=\"accepted\" data-section>\n<h2>Accepted <small>{}</small></h2>\n",
        cases(accepted.deliberate_count, "case")
    );
    let caption = "Deliberate differences: the ledger accepts them (an entry or a rule with \
                   <code>state: accepted</code>)";
    table(&mut out, caption, &accepted.deliberate, "accepted", false);
    more(
        &mut out,
        accepted.deliberate_count,
        accepted.deliberate.len(),
    );
    out.push_str("<p class=\"none\" hidden>No accepted case matches the filter.</p>\n</section>\n");
    out
}
