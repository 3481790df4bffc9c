//! The failures: an index of the groups by signature, then each group
//! with its first cases in full and more in brief, within the page's
//! size.

use std::fmt::Write as _;
use std::io;

use super::case::{self, brief_row, BRIEF_HEAD};
use super::parts::{plural, words, Page};
use super::{esc, Brief, GroupSeen, Html, SIZE_LIMIT};
use crate::report::groups::{Group, GroupKey, Groups};
use crate::report::human::cases;
use crate::report::{Aggregates, NO_OP};

/// How many groups the index of failures lists.
const MAX_INDEX_ROWS: usize = 1000;

fn group_attributes(group: &Group, seen: Option<&GroupSeen>) -> String {
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
pub(super) fn failures(
    page: &mut Page,
    html: &Html,
    aggregates: &mut Aggregates,
    uniform: &[(String, usize, String)],
    reserve: usize,
) -> io::Result<Vec<String>> {
    let keys = failing_groups(aggregates, uniform);
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let groups = &mut aggregates.groups;
    let threw: usize = uniform.iter().map(|(_, count, _)| count).sum();
    let index = index_table(groups, html, &keys, threw)?;
    page.put(&index)?;
    let limit = SIZE_LIMIT.saturating_sub(reserve);
    let mut shortfall = Shortfall::default();
    for (n, &key) in keys.iter().enumerate() {
        let group = &groups.load(key)?;
        let seen = html.groups.get(&group.signature.text);
        if !group_section(page, group, seen, n, limit, &mut shortfall)? {
            shortfall.left_out = keys.len() - n;
            break;
        }
    }
    let notes = shortfall.notes(page)?;
    page.put("<p class=\"none\" hidden>No failure matches the filter.</p>\n</section>\n")?;
    Ok(notes)
}

/// The groups the failures section lists, largest first: those of the ops
/// that only threw have their own section.
fn failing_groups(aggregates: &Aggregates, uniform: &[(String, usize, String)]) -> Vec<GroupKey> {
    aggregates
        .groups
        .sorted()
        .into_iter()
        .filter(|&group| {
            let op = aggregates.groups.op(group).unwrap_or(NO_OP);
            !uniform.iter().any(|(name, ..)| name == op)
        })
        .collect()
}

/// The section's heading and the index of its groups; `threw` counts the
/// cases of the ops that only threw, which the heading points to.
fn index_table(
    groups: &mut Groups,
    html: &Html,
    keys: &[GroupKey],
    threw: usize,
) -> io::Result<String> {
    let total: usize = keys.iter().map(|&group| groups.count(group)).sum();
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
        cases(keys.len(), "group")
    );
    for (n, &key) in keys.iter().take(MAX_INDEX_ROWS).enumerate() {
        let group = &groups.load(key)?;
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
    if keys.len() > MAX_INDEX_ROWS {
        let _ = writeln!(
            index,
            "<p class=\"note\">… and {} more groups not listed here</p>",
            keys.len() - MAX_INDEX_ROWS
        );
    }
    Ok(index)
}

/// What the page's size kept from being shown in full.
#[derive(Default)]
struct Shortfall {
    /// Cases shown in brief for want of room for their card.
    briefed: usize,
    /// Cases counted in a group but in no card or row.
    unlisted: usize,
    /// Groups whose section did not fit.
    left_out: usize,
}

impl Shortfall {
    /// Puts the note on what the size left out, if it left anything out,
    /// and returns the notes for the report's end.
    fn notes(&self, page: &mut Page) -> io::Result<Vec<String>> {
        let mut notes = Vec::new();
        if self.briefed > 0 || self.left_out > 0 {
            let mut note = format!("This page keeps under {} MiB: ", SIZE_LIMIT / (1024 * 1024));
            let mut parts = Vec::new();
            if self.briefed > 0 {
                parts.push(format!(
                    "{} shown in brief rather than in full",
                    cases(self.briefed, "case")
                ));
            }
            if self.left_out > 0 {
                parts.push(format!(
                    "{} left out",
                    cases(self.left_out, "failure group")
                ));
            }
            note.push_str(&parts.join(", and "));
            note.push_str(". The JSON report (--format json) has every case.");
            page.put(&format!(
                "<p class=\"note\" id=\"size-note\">{}</p>\n",
                esc(&note)
            ))?;
            notes.push(note);
        }
        if self.unlisted > 0 {
            notes.push(format!(
                "{} counted but not listed here.",
                plural(self.unlisted, "failing case is", "failing cases are")
            ));
        }
        Ok(notes)
    }
}

/// Puts group `n`'s section: its first cases in full while they fit under
/// `limit`, then rows in brief. Returns false, having put nothing, when
/// not even its heading fits.
fn group_section(
    page: &mut Page,
    group: &Group,
    seen: Option<&GroupSeen>,
    n: usize,
    limit: usize,
    shortfall: &mut Shortfall,
) -> io::Result<bool> {
    let head = format!(
        "<section class=\"group\" id=\"g{n}\" data-group {}>\n<h3><span class=\"n\">{}</span> \
         <span class=\"kind\">{}</span> {}</h3>\n",
        group_attributes(group, seen),
        cases(group.count, "case"),
        esc(&group.signature.kind),
        esc(&group.signature.text)
    );
    if page.written + head.len() > limit {
        return Ok(false);
    }
    page.put(&head)?;
    let mut listed = 0usize;
    let mut rows: Vec<Brief> = Vec::new();
    for record in group.shown() {
        let card = case::card(record);
        if page.written + card.len() + 1024 > limit {
            shortfall.briefed += 1;
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
    listed += brief_table(page, &rows, limit)?;
    let more = group.count.saturating_sub(listed);
    if more > 0 {
        shortfall.unlisted += more;
        page.put(&format!(
            "<p class=\"more\">… and {} not listed (the JSON report lists every case)</p>\n",
            plural(more, "more case", "more cases")
        ))?;
    }
    page.put("</section>\n")?;
    Ok(true)
}

/// Puts the table of `rows` in brief, as many as fit under `limit`, and
/// returns how many it listed.
fn brief_table(page: &mut Page, rows: &[Brief], limit: usize) -> io::Result<usize> {
    let mut table = String::new();
    let mut listed = 0usize;
    for row in rows {
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
    Ok(listed)
}
