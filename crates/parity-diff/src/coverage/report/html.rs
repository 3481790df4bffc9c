//! The HTML report: one self-contained page (inline style, no script, a
//! Content-Security-Policy that loads nothing), the picture a reviewer
//! wants: the counts, the per-op table, the never-run spans as links,
//! and each script as a source view with line numbers, its never-run
//! spans marked (red, or grey when allowlisted), each line telling how
//! many cases reach it and which. Text is escaped as the run report's
//! page escapes it ([`esc`]): the report notation, then markup.

use std::fmt::Write as _;

use super::{preview, table_rows};
use crate::coverage::analysis::{Analysis, Script, Totals, Unrun};
use crate::report::html::esc;

const STYLE: &str = "\
:root { --bg: #fff; --fg: #1f2328; --dim: #656d76; --line: #d0d7de; --panel: #f6f8fa;
  --ok: #1a7f37; --fail: #cf222e; --error: #bc4c00; --unrun: #ffd7d5; --allowed: #e7e9eb;
  --mono: ui-monospace, SFMono-Regular, \"DejaVu Sans Mono\", Menlo, Consolas, monospace;
  color-scheme: light dark; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --dim: #8d96a0;
  --line: #30363d; --panel: #161b22; --ok: #3fb950; --fail: #f85149; --error: #db6d28;
  --unrun: #5d1f1f; --allowed: #30363d; } }
body { margin: 0; padding: 20px 28px; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, \"Segoe UI\", \"DejaVu Sans\", sans-serif; }
code, pre { font-family: var(--mono); font-size: 12.5px; }
h1 { font-size: 22px; margin: 0 0 6px; } h2 { font-size: 18px; margin: 28px 0 10px; }
.status { font-size: 13px; padding: 2px 8px; border-radius: 10px; color: #fff; }
.status.ok { background: var(--ok); } .status.fail { background: var(--fail); }
.status.error { background: var(--error); }
dl.counts { display: flex; gap: 18px; margin: 10px 0; } dl.counts div { text-align: center; }
dl.counts dt { color: var(--dim); font-size: 12px; } dl.counts dd { margin: 0; font-size: 18px; }
table { border-collapse: collapse; } th, td { padding: 3px 10px; border-bottom: 1px solid var(--line); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: flex; width: 160px; height: 10px; background: var(--unrun); border-radius: 3px; overflow: hidden; }
.bar span { background: var(--ok); }
ul.unrun { list-style: none; padding-left: 0; } ul.unrun li { margin: 3px 0 3px 18px; }
.why { color: var(--dim); }
pre.source { background: var(--panel); border: 1px solid var(--line); padding: 8px 0; overflow-x: auto; }
pre.source .line { display: block; padding-right: 12px; }
pre.source .line:target { outline: 2px solid var(--fail); }
pre.source .ln { display: inline-block; width: 5em; padding-right: 12px; text-align: right;
  color: var(--dim); user-select: none; }
pre.source .line[data-cases=\"0\"] .ln { color: var(--fail); }
mark.unrun { background: var(--unrun); color: inherit; }
mark.allowed { background: var(--allowed); color: inherit; }
";

/// Text of a piece of a line, tabs as spaces to the next stop of 8
/// (a tab is a control character, which the notation would show as
/// `\u{9}`), then escaped.
fn code_text(text: &str, column: &mut usize) -> String {
    let mut spaced = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\t' {
            let stop = (*column / 8 + 1) * 8;
            spaced.extend(std::iter::repeat_n(' ', stop - *column));
            *column = stop;
        } else {
            spaced.push(c);
            *column += 1;
        }
    }
    esc(&spaced)
}

fn mark_title(unrun: &Unrun) -> String {
    let function = &unrun.key.function;
    match &unrun.allowed {
        Some(reason) => format!("never run ({function}), allowlisted: {reason}"),
        None => format!(
            "never run ({function}), not allowlisted: {}",
            unrun.key.entry_line()
        ),
    }
}

/// "reached by 3 cases: a.json "x", …": the cases that reach the most
/// specific span on a line (the one the fewest cases reach).
fn line_title(analysis: &Analysis, reach: &crate::coverage::reach::RunSet) -> String {
    let count = reach.len();
    let mut title = format!("reached by {}", crate::report::human::cases(count, "case"));
    let names: Vec<String> = reach
        .iter()
        .take(3)
        .filter_map(|run| analysis.cases.get(run))
        .map(|case| case.id.to_string())
        .collect();
    if !names.is_empty() {
        title.push_str(": ");
        title.push_str(&names.join(", "));
        if count > names.len() {
            title.push_str(", …");
        }
    }
    title
}

fn source_view(analysis: &Analysis, at: usize, script: &Script) -> String {
    let source = &script.source;
    let unrun: Vec<&Unrun> = analysis.unrun.iter().filter(|u| u.script == at).collect();
    let spans = &script.spans.spans;
    let mut out = format!(
        "<section class=\"script\" id=\"s{at}\">\n<h2>{}</h2>\n<pre class=\"source\"><code>",
        esc(&script.name)
    );
    let (mut next_span, mut next_unrun) = (0, 0);
    for line in 0..source.lines() {
        let (start, mut end) = source.line_span(line);
        if end > start && source.text(end - 1, end) == "\r" {
            end -= 1;
        }
        while next_span < spans.len() && spans[next_span].end <= start {
            next_span += 1;
        }
        let narrowest = spans[next_span..]
            .iter()
            .take_while(|span| span.start < end.max(start + 1))
            .min_by_key(|span| span.reach.len());
        let (cases, title) = match narrowest {
            Some(span) => (
                span.reach.len().to_string(),
                line_title(analysis, &span.reach),
            ),
            None => (String::new(), String::new()),
        };
        let _ = write!(
            out,
            "<span class=\"line\" id=\"s{at}-L{n}\" data-cases=\"{cases}\" title=\"{}\">\
             <span class=\"ln\">{n}</span>",
            esc(&title),
            n = line + 1
        );
        while next_unrun < unrun.len() && analysis.span_of(unrun[next_unrun]).1.end <= start {
            next_unrun += 1;
        }
        let (mut cursor, mut column) = (start, 0);
        for unrun in unrun[next_unrun..].iter() {
            let span = &spans[unrun.span];
            if span.start >= end {
                break;
            }
            let (from, to) = (span.start.max(start), span.end.min(end));
            out.push_str(&code_text(&source.text(cursor, from), &mut column));
            let class = if unrun.allowed.is_some() {
                "allowed"
            } else {
                "unrun"
            };
            let _ = write!(
                out,
                "<mark class=\"{class}\" title=\"{}\">{}</mark>",
                esc(&mark_title(unrun)),
                code_text(&source.text(from, to), &mut column)
            );
            cursor = to;
        }
        out.push_str(&code_text(&source.text(cursor, end), &mut column));
        out.push_str("</span>\n");
    }
    out.push_str("</code></pre>\n</section>\n");
    out
}

fn header(analysis: &Analysis) -> String {
    let totals = &analysis.totals;
    let (status, class) = match totals.exit_code() {
        0 => ("passed", "ok"),
        1 => ("failed", "fail"),
        _ => ("input error", "error"),
    };
    let mut out = format!(
        "<header>\n<h1>parity-diff coverage <span class=\"status {class}\" id=\"status\" \
         data-exit-code=\"{}\">{status}</span></h1>\n<p id=\"summary-line\">{}</p>\n<dl class=\"counts\">\n",
        totals.exit_code(),
        esc(&totals.summary_line())
    );
    for (name, count) in [
        ("cases", totals.cases),
        ("spans", totals.spans),
        ("reached", totals.reached),
        ("never-run", totals.never_run),
        ("allowlisted", totals.allowlisted),
        ("not-allowlisted", totals.not_allowlisted()),
        ("stale", totals.stale),
        ("errors", totals.errors),
    ] {
        let _ = writeln!(
            out,
            "<div><dt>{}</dt><dd id=\"count-{name}\">{count}</dd></div>",
            name.replace('-', " ")
        );
    }
    let _ = writeln!(
        out,
        "</dl>\n<p>Reference <code>{}</code>, each case run alone.</p>\n</header>",
        esc(&analysis.reference)
    );
    out
}

fn ops_table(analysis: &Analysis) -> String {
    let mut out = String::from(
        "<section id=\"ops\">\n<h2>Per op</h2>\n<table>\n<thead><tr><th>op</th><th>cases</th>\
         <th>functions</th><th>spans</th><th>reached</th><th></th><th>never run</th><th>other ops</th></tr></thead>\n<tbody>\n",
    );
    let (rows, all) = table_rows(analysis);
    for (row, tag) in rows.iter().map(|row| (row, "td")).chain([(&all, "th")]) {
        let percent = Totals::percent(row.reached, row.spans);
        let _ = writeln!(
            out,
            "<tr data-op=\"{op}\"><{tag}>{op}</{tag}><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td><div class=\"bar\" title=\"{percent}%\">\
             <span style=\"width:{percent}%\"></span></div></td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            row.cases,
            row.functions,
            row.spans,
            row.reached,
            row.never_run,
            row.others(),
            op = esc(&super::shown_op(&row.op)),
        );
    }
    out.push_str("</tbody>\n</table>\n</section>\n");
    out
}

fn unrun_list(analysis: &Analysis) -> String {
    let mut out = String::from("<section id=\"never-run\">\n<h2>Never run</h2>\n");
    if analysis.unrun.is_empty() {
        out.push_str("<p>Every span ran.</p>\n");
    }
    for ((at, function), list) in analysis.unrun_by_function() {
        let script = &analysis.scripts[at];
        let function = &script.spans.functions[function];
        let _ = writeln!(
            out,
            "<h3><code>{}</code> <small>{}</small></h3>\n<ul class=\"unrun\">",
            esc(&function.path),
            esc(&script.location(function.start).to_string())
        );
        for unrun in list {
            let span = &script.spans.spans[unrun.span];
            let line = script.source.line_of(span.start);
            let why = match &unrun.allowed {
                Some(reason) => format!("allowlisted: {}", esc(reason)),
                None => format!(
                    "<strong>not allowlisted</strong>: <code>{}</code>",
                    esc(&unrun.key.entry_line())
                ),
            };
            let _ = writeln!(
                out,
                "<li data-allowlisted=\"{}\"><a href=\"#s{at}-L{line}\">{}</a> <code>{}</code> <span class=\"why\">{why}</span></li>",
                unrun.allowed.is_some(),
                esc(&script.location(span.start).to_string()),
                esc(&preview(&script.text(span), 80)),
            );
        }
        out.push_str("</ul>\n");
    }
    if !analysis.stale.is_empty() {
        out.push_str("<h2 id=\"stale\">Stale allowlist entries</h2>\n<ul class=\"unrun\">\n");
        for entry in &analysis.stale {
            let _ = writeln!(
                out,
                "<li><code>{}</code> <span class=\"why\">line {}: {}</span></li>",
                esc(&entry.key.entry_line()),
                entry.line,
                esc(&entry.reason)
            );
        }
        out.push_str("</ul>\n");
    }
    if !analysis.errors.is_empty() {
        out.push_str("<h2 id=\"errors\">Errors</h2>\n<ul>\n");
        for error in &analysis.errors {
            let _ = writeln!(out, "<li>{}</li>", esc(error));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The whole page.
pub fn render(analysis: &Analysis) -> String {
    let mut out = format!(
        concat!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ",
            "style-src 'unsafe-inline'\">\n",
            "<meta name=\"generator\" content=\"parity-diff {version}\">\n",
            "<title>parity-diff coverage: {line}</title>\n<style>\n{style}</style>\n</head>\n<body>\n"
        ),
        version = env!("CARGO_PKG_VERSION"),
        line = esc(&analysis.totals.summary_line()),
        style = STYLE,
    );
    out.push_str(&header(analysis));
    out.push_str("<main>\n");
    out.push_str(&ops_table(analysis));
    out.push_str(&unrun_list(analysis));
    for (at, script) in analysis.scripts.iter().enumerate() {
        out.push_str(&source_view(analysis, at, script));
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}
