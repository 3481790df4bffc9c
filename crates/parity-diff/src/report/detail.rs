//! What a report shows under a failing case, derived from its record:
//! the input, the ledger entry, the differing paths with both values (or
//! the reasons, or the lone element), and a unified diff when the
//! difference is more than one scalar. The lines are report text: their
//! outside parts are written through [`outside`] already, so a renderer
//! adds only its own escaping (XML, HTML), never the notation again.

use crate::base::outside;
use crate::judge::first_difference::{self, FirstDifference};
use crate::judge::pointer;
use crate::judge::raw::RawTree;
use crate::judge::textdiff::{self, Line, LineKind};
use crate::report::record::{CaseRecord, CaseState, EntryRef, EntryState, PathRecord, VerdictKind};
use js_exact::{self as js, Value};
use std::borrow::Cow;

/// Displayed values longer than this are cut.
pub const MAX_VALUE_CHARS: usize = 200;

/// A value for people: compact JSON, cut, or `(absent)`.
pub fn show_value(value: Option<&Value>) -> String {
    show_json(value.map(|value| String::from_utf8_lossy(&js::to_json(value)).into_owned()))
}

/// A value's JSON (its numbers as written: [`PathRecord::golden_json`])
/// for people: cut, or `(absent)`.
pub fn show_json(json: Option<impl AsRef<str>>) -> String {
    match json {
        None => "(absent)".to_owned(),
        Some(json) => cut(json.as_ref()),
    }
}

/// Whether [`show_json`] cuts this value.
pub fn is_cut(json: Option<impl AsRef<str>>) -> bool {
    json.is_some_and(|json| json.as_ref().chars().nth(MAX_VALUE_CHARS).is_some())
}

/// Where two differing strings first part, for people: the offset in
/// UTF-16 units and both lengths.
pub fn first_difference_text(first: &FirstDifference) -> String {
    format!(
        "first difference at UTF-16 offset {} (length: golden {}, actual {})",
        first.offset, first.golden_length, first.actual_length
    )
}

/// Where two strings part, when a value is long enough to be cut (a
/// short one is shown whole, its difference in plain sight).
pub fn cut_first_difference(path: &PathRecord) -> Option<FirstDifference> {
    let cut = is_cut(path.golden_json()) || is_cut(path.actual_json());
    cut.then(|| first_difference::of_values(path.golden.as_ref(), path.actual.as_ref()))
        .flatten()
}

/// The lines that say where two long strings part: the offset, and each
/// side's window around it.
fn first_difference_lines(path: &PathRecord, out: &mut Vec<Line>) {
    let Some(first) = cut_first_difference(path) else {
        return;
    };
    out.push(Line::new(
        LineKind::Note,
        format!("  {}", first_difference_text(&first)),
    ));
    out.push(Line::new(
        LineKind::Golden,
        format!("    golden: {}", outside::json(&first.golden.display())),
    ));
    out.push(Line::new(
        LineKind::Actual,
        format!("    actual: {}", outside::json(&first.actual.display())),
    ));
}

fn cut(text: &str) -> String {
    crate::judge::signature::cut_chars(text, MAX_VALUE_CHARS)
}

/// How a ledger entry reads in a report: `triaged (LINK): REASON`.
pub fn entry_text(record: &CaseRecord) -> Option<String> {
    record.entry.as_ref().map(entry_ref_text)
}

/// How what an entry or rule says reads in a report:
/// `triaged (LINK): REASON`.
pub fn entry_ref_text(entry: &EntryRef) -> String {
    let state = match &entry.state {
        EntryState::Accepted => "accepted".to_owned(),
        EntryState::Triaged { link: None } => "triaged".to_owned(),
        EntryState::Triaged { link: Some(link) } => format!("triaged ({link})"),
    };
    format!("{state}: {}", entry.reason)
}

/// An element pretty-printed (its text as it is when it does not parse).
pub fn pretty(element: &str) -> String {
    match RawTree::parse(element.as_bytes()) {
        Some(tree) => tree.pretty(),
        None => format!("{element}\n"),
    }
}

fn is_scalar(value: Option<&Value>) -> bool {
    !matches!(value, None | Some(Value::Array(_)) | Some(Value::Object(_)))
}

/// A value's line, neutral: [`show_json`] in JSON's notation.
fn value_text(json: Option<Cow<'_, str>>) -> String {
    outside::json(&show_json(json)).into_owned()
}

/// The detail lines of a failing case, neutral; a diff keeps at most
/// `diff_lines` lines.
pub fn lines(record: &CaseRecord, diff_lines: usize) -> Vec<Line> {
    let mut out = Vec::new();
    if let Some(input) = &record.input {
        out.push(Line::new(
            LineKind::Text,
            format!("input: {}", outside::json_line(input)),
        ));
    }
    if let Some(entry) = entry_text(record) {
        out.push(Line::new(
            LineKind::Note,
            format!("ledger: {}", outside::text(&entry)),
        ));
    }
    let one_line = record.state == CaseState::Stale
        || record
            .signature
            .as_ref()
            .is_some_and(|s| s.kind == "threw" || s.kind == "returned");
    if one_line {
        return out;
    }
    match record.verdict {
        VerdictKind::Different => different_lines(record, diff_lines, &mut out),
        VerdictKind::SameValue => {
            for reason in &record.reasons {
                out.push(Line::new(LineKind::Text, outside::text(&reason.text)));
            }
            let more = record.total_reasons.saturating_sub(record.reasons.len());
            if more > 0 {
                out.push(Line::new(LineKind::Note, format!("… and {more} more")));
            }
        }
        VerdictKind::Missing => {
            let golden = record.golden.as_deref().unwrap_or_default();
            out.push(Line::new(
                LineKind::Golden,
                format!("golden: {}", outside::json_line(&cut(golden))),
            ));
        }
        VerdictKind::Extra => {
            let actual = record.actual.as_deref().unwrap_or_default();
            out.push(Line::new(
                LineKind::Actual,
                format!("actual: {}", outside::json_line(&cut(actual))),
            ));
        }
        VerdictKind::Crash | VerdictKind::InvalidOutput | VerdictKind::Timeout => {
            stderr_lines(record.stderr.as_deref(), &mut out)
        }
        VerdictKind::Nondeterministic => nondeterministic_lines(record, &mut out),
        VerdictKind::Identical => {}
    }
    out
}

/// A divergence's lines: each differing path with both values, what was
/// left out, and a diff of the elements unless one scalar differs.
fn different_lines(record: &CaseRecord, diff_lines: usize, out: &mut Vec<Line>) {
    for path in &record.paths {
        out.push(Line::new(
            LineKind::Text,
            format!("at {}", outside::text(&pointer::display(&path.pointer))),
        ));
        out.push(Line::new(
            LineKind::Golden,
            format!("  golden: {}", value_text(path.golden_json())),
        ));
        out.push(Line::new(
            LineKind::Actual,
            format!("  actual: {}", value_text(path.actual_json())),
        ));
        first_difference_lines(path, out);
    }
    let more = record.total_paths.saturating_sub(record.paths.len());
    if more > 0 {
        out.push(Line::new(
            LineKind::Note,
            format!(
                "… and {more} more differing {}",
                if more == 1 { "path" } else { "paths" }
            ),
        ));
    }
    if let Some(note) = &record.note {
        out.push(Line::new(LineKind::Note, outside::text(note)));
    }
    let simple = record.total_paths == 1
        && record
            .paths
            .first()
            .is_some_and(|p| is_scalar(p.golden.as_ref()) && is_scalar(p.actual.as_ref()));
    if let (false, Some(golden), Some(actual)) = (simple, &record.golden, &record.actual) {
        out.extend(element_diff(golden, actual, diff_lines));
    }
}

/// A unified diff of two elements pretty-printed, neutral, cut to
/// `diff_lines` lines and a note.
fn element_diff(golden: &str, actual: &str, diff_lines: usize) -> Vec<Line> {
    let mut diff = textdiff::unified(&pretty(golden), &pretty(actual));
    for line in &mut diff {
        if let Cow::Owned(neutral) = outside::json(&line.text) {
            line.text = neutral;
        }
    }
    if diff.len() > diff_lines {
        let left_out = diff.len() - diff_lines;
        diff.truncate(diff_lines);
        diff.push(Line::new(
            LineKind::Note,
            format!("… {left_out} more diff lines not shown"),
        ));
    }
    diff
}

/// What the oracle wrote on stderr when it failed on the case alone.
fn stderr_lines(stderr: Option<&str>, out: &mut Vec<Line>) {
    match stderr.map(str::trim_end) {
        Some("") => out.push(Line::new(
            LineKind::Note,
            "(the oracle wrote nothing on stderr)",
        )),
        Some(text) => {
            out.push(Line::new(
                LineKind::Text,
                "stderr (the oracle on this case alone):",
            ));
            for line in outside::lines(text) {
                out.push(Line::new(LineKind::Note, format!("| {line}")));
            }
        }
        None => {}
    }
}

/// The first run's result, the golden's, and where another run differed
/// (the note).
fn nondeterministic_lines(record: &CaseRecord, out: &mut Vec<Line>) {
    if let Some(actual) = record.actual.as_deref() {
        out.push(Line::new(
            LineKind::Actual,
            format!("run 1: {}", outside::json_line(&cut(actual))),
        ));
    }
    if let Some(golden) = record.golden.as_deref() {
        out.push(Line::new(
            LineKind::Golden,
            format!("golden: {}", outside::json_line(&cut(golden))),
        ));
    }
    if let Some(note) = &record.note {
        out.push(Line::new(LineKind::Actual, outside::text(note)));
    }
}

/// The detail lines as plain text, one line each.
pub fn plain(lines: &[Line]) -> String {
    let mut out = String::new();
    for line in lines {
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::record::example::Example;

    fn detail(case: &str, golden: &str, actual: &str) -> String {
        let example = Example {
            file: "f.json",
            index: 0,
            line: None,
            op: None,
            case,
            golden,
            actual,
        };
        plain(&lines(&example.record(), 30))
    }

    #[test]
    fn one_scalar_needs_no_diff() {
        assert_eq!(
            detail(
                "{\"op\":\"x\"}",
                r#"{"threw":true,"message":"a"}"#,
                r#"{"threw":true,"message":"b"}"#
            ),
            "input: {\"op\":\"x\"}\nat /message\n  golden: \"a\"\n  actual: \"b\"\n"
        );
    }

    #[test]
    fn a_difference_at_the_end_of_a_long_string_is_shown_with_its_offset() {
        let head = "x".repeat(300);
        let golden = format!("{{\"value\":\"{head}A\\u001b\"}}");
        let actual = format!("{{\"value\":\"{head}B\\u001b\"}}");
        let text = detail("1", &golden, &actual);
        let x20 = "x".repeat(20);
        assert!(
            text.contains(&format!(
                "  first difference at UTF-16 offset 300 (length: golden 302, actual 302)\n\
                 \x20   golden: …\"{x20}A\\u001b\"\n\
                 \x20   actual: …\"{x20}B\\u001b\"\n"
            )),
            "{text}"
        );
        // Short strings are shown whole: no window.
        assert!(!detail("1", "\"ab\"", "\"ac\"").contains("first difference"));
    }

    #[test]
    fn more_gets_a_diff() {
        assert_eq!(
            detail("1", r#"["a","b"]"#, r#"["b"]"#),
            concat!(
                "input: 1\n",
                "at /0\n",
                "  golden: \"a\"\n",
                "  actual: \"b\"\n",
                "at /1\n",
                "  golden: \"b\"\n",
                "  actual: (absent)\n",
                "--- golden\n",
                "+++ actual\n",
                "@@ -1,4 +1,3 @@\n",
                " [\n",
                "-  \"a\",\n",
                "   \"b\"\n",
                " ]\n",
            )
        );
    }

    #[test]
    fn oracle_failures_show_their_stderr() {
        let cases = crate::corpus::cases::CaseFile::read("f.json", b"[{\"op\":\"x\"}]".to_vec());
        let mut failed = crate::report::record::build::oracle_failure(
            "f.json",
            &cases,
            0,
            VerdictKind::Crash,
            "the oracle exited with status 1",
        );
        assert_eq!(plain(&lines(&failed, 30)), "input: {\"op\":\"x\"}\n");
        failed.stderr = Some("first\nsecond\n\n".into());
        assert_eq!(
            plain(&lines(&failed, 30)),
            concat!(
                "input: {\"op\":\"x\"}\n",
                "stderr (the oracle on this case alone):\n",
                "| first\n",
                "| second\n",
            )
        );
        failed.stderr = Some(" \n".into());
        assert!(plain(&lines(&failed, 30)).ends_with("(the oracle wrote nothing on stderr)\n"));
    }

    #[test]
    fn throws_are_one_line() {
        assert_eq!(
            detail(
                "1",
                r#"{"defined":true,"value":[1]}"#,
                r#"{"threw":true,"message":"no"}"#
            ),
            "input: 1\n"
        );
    }

    #[test]
    fn long_diffs_are_cut() {
        let golden: Vec<String> = (0..100).map(|n| n.to_string()).collect();
        let actual: Vec<String> = (0..100).map(|n| (n + 1000).to_string()).collect();
        let text = detail(
            "1",
            &format!("[{}]", golden.join(",")),
            &format!("[{}]", actual.join(",")),
        );
        assert!(text.ends_with("more diff lines not shown\n"), "{text}");
        assert!(text.contains("… and 90 more differing paths\n"));
    }
}
