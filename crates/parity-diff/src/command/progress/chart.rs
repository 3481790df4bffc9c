//! The history as one self-contained HTML page: an inline SVG line chart
//! of each line's passing cases over the file's versions, a legend, and
//! the versions' dates and commits. The page has no script at all and
//! loads nothing (its Content-Security-Policy says so); every name is
//! text, escaped ([`esc`]), never markup.

use std::fmt::Write as _;

use super::history::{History, Series};
use crate::report::html::esc;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 20.0;
const BOTTOM: f64 = 48.0;

/// Distinct colours; past them, lines are dashed too.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22",
];

/// Versions up to this many get a dot at each point.
const DOTS_UP_TO: usize = 60;

const STYLE: &str = "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.3em}svg{max-width:100%;height:auto;border:1px solid #ddd}\
.axis{stroke:#888;stroke-width:1}.grid{stroke:#eee;stroke-width:1}\
.tick{font-size:11px;fill:#555}.line{fill:none;stroke-width:2}\
ol.legend{list-style:none;padding:0;columns:2}ol.legend li{margin:.2em 0}\
.name{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}\
table{border-collapse:collapse;margin-top:1em}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}\
.commit{font-family:ui-monospace,monospace}";

fn colour(at: usize) -> (&'static str, &'static str) {
    let dash = match (at / PALETTE.len()) % 3 {
        0 => "",
        1 => " stroke-dasharray=\"6 3\"",
        _ => " stroke-dasharray=\"2 3\"",
    };
    (PALETTE[at % PALETTE.len()], dash)
}

/// The x of version `at` of `count`.
fn x_of(at: usize, count: usize) -> f64 {
    let width = WIDTH - LEFT - RIGHT;
    if count <= 1 {
        LEFT + width / 2.0
    } else {
        LEFT + width * at as f64 / (count - 1) as f64
    }
}

fn y_of(value: u64, top: u64) -> f64 {
    let height = HEIGHT - TOP - BOTTOM;
    TOP + height * (1.0 - value as f64 / top.max(1) as f64)
}

/// The path of a series: a segment per run of versions that had it.
fn path_of(series: &Series, count: usize, top: u64) -> String {
    let mut d = String::new();
    let mut drawing = false;
    for (at, value) in series.values.iter().enumerate() {
        match value {
            Some(counts) => {
                let verb = if drawing { 'L' } else { 'M' };
                let (x, y) = (x_of(at, count), y_of(counts.passing, top));
                let _ = write!(d, "{verb}{x:.1} {y:.1} ");
                drawing = true;
            }
            None => drawing = false,
        }
    }
    d.trim_end().to_owned()
}

/// The page.
pub fn page(history: &History) -> String {
    let top = top_of(history);
    let file = esc(&history.file);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
<title>Parity progress: {file}</title><style>{STYLE}</style></head><body>\n\
<h1>Parity progress: <span class=\"name\">{file}</span></h1>\n"
    );
    let _ = writeln!(out, "<p id=\"summary\">{}</p>", summary(history));
    let _ = writeln!(
        out,
        "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"passing cases per version\">"
    );
    axes(&mut out, top);
    dates(&mut out, history);
    lines(&mut out, history, top);
    out.push_str("</svg>\n");
    legend(&mut out, history);
    versions(&mut out, history);
    out.push_str("</body></html>\n");
    out
}

/// The top of the chart's scale: the most cases any line had, at least
/// 1.
fn top_of(history: &History) -> u64 {
    history
        .series
        .iter()
        .flat_map(|series| series.values.iter().flatten())
        .map(|counts| counts.cases.max(counts.passing))
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The line above the chart: how many versions, from when to when.
fn summary(history: &History) -> String {
    let count = history.points.len();
    match (history.points.first(), history.points.last()) {
        (Some(first), Some(last)) => format!(
            "{count} version{}, {} to {}: passing cases per {}.",
            if count == 1 { "" } else { "s" },
            esc(&first.date),
            esc(&last.date),
            if history.series.iter().any(|series| series.op.is_some()) {
                "op"
            } else {
                "suite"
            }
        ),
        _ => "No version of the file in git.".to_owned(),
    }
}

/// The scale's grid lines, with their values, and the two axes.
fn axes(out: &mut String, top: u64) {
    let mut ticks: Vec<u64> = (0..=4u64).map(|step| top * step / 4).collect();
    ticks.dedup();
    for value in ticks {
        let y = y_of(value, top);
        let _ = writeln!(
            out,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\"/>\
<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{value}</text>",
            WIDTH - RIGHT,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let bottom = HEIGHT - BOTTOM;
    let _ = writeln!(
        out,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{bottom}\" y2=\"{bottom}\"/>\
<line class=\"axis\" x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{bottom}\"/>",
        WIDTH - RIGHT
    );
}

/// Versions' dates and commits under the axis.
fn dates(out: &mut String, history: &History) {
    let count = history.points.len();
    let bottom = HEIGHT - BOTTOM;
    // At most eight dates under the axis, evenly spread, the last always.
    let labels = count.min(8);
    let mut labelled: Vec<usize> = (0..labels)
        .map(|at| {
            if labels <= 1 {
                count - 1
            } else {
                at * (count - 1) / (labels - 1)
            }
        })
        .collect();
    labelled.dedup();
    for at in labelled {
        let point = &history.points[at];
        let _ = writeln!(
            out,
            "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\
<text class=\"tick commit\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            x_of(at, count),
            bottom + 16.0,
            esc(&point.date),
            x_of(at, count),
            bottom + 30.0,
            esc(point.short())
        );
    }
}

/// Each series' line, with a dot at each point when the versions are
/// few.
fn lines(out: &mut String, history: &History, top: u64) {
    let count = history.points.len();
    for (at, series) in history.series.iter().enumerate() {
        let (stroke, dash) = colour(at);
        let name = esc(&series.name());
        let last = series.last().unwrap_or_default();
        let _ = write!(
            out,
            "<g class=\"series\" data-series=\"{at}\"><title>{name}: {} of {} passing</title>\
<path class=\"line\" stroke=\"{stroke}\"{dash} d=\"{}\"/>",
            last.passing,
            last.cases,
            path_of(series, count, top)
        );
        if count <= DOTS_UP_TO {
            for (point, value) in series.values.iter().enumerate() {
                if let Some(counts) = value {
                    let _ = write!(
                        out,
                        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{stroke}\"/>",
                        x_of(point, count),
                        y_of(counts.passing, top)
                    );
                }
            }
        }
        out.push_str("</g>\n");
    }
}

/// The legend: each series' stroke, name and last counts.
fn legend(out: &mut String, history: &History) {
    out.push_str("<ol class=\"legend\" id=\"legend\">\n");
    for (at, series) in history.series.iter().enumerate() {
        let (stroke, dash) = colour(at);
        let last = series.last().unwrap_or_default();
        let _ = writeln!(
            out,
            "<li data-series=\"{at}\"><svg width=\"24\" height=\"10\" aria-hidden=\"true\">\
<line x1=\"0\" x2=\"24\" y1=\"5\" y2=\"5\" stroke=\"{stroke}\" stroke-width=\"3\"{dash}/></svg> \
<span class=\"name\">{}</span> <span class=\"count\">{} of {} passing</span></li>",
            esc(&series.name()),
            last.passing,
            last.cases
        );
    }
    out.push_str("</ol>\n");
}

/// The versions' table, and the versions left out.
fn versions(out: &mut String, history: &History) {
    out.push_str(
        "<table id=\"versions\"><thead><tr><th>#</th><th>date</th><th>commit</th></tr></thead><tbody>\n",
    );
    for (at, point) in history.points.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"commit\">{}</td></tr>",
            at + 1,
            esc(&point.date),
            esc(&point.commit)
        );
    }
    out.push_str("</tbody></table>\n");
    if !history.skipped.is_empty() {
        out.push_str("<p>Versions left out:</p><ul id=\"skipped\">\n");
        for skipped in &history.skipped {
            let _ = writeln!(out, "<li>{}</li>", esc(skipped));
        }
        out.push_str("</ul>\n");
    }
}
