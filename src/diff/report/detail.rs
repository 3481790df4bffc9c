//! What a report shows under a failing case, derived from its record:
//! the input, the ledger entry, the differing paths with both values (or
//! the reasons, or the lone element), and a unified diff when the
//! difference is more than one scalar.

use crate::diff::pointer;
use crate::diff::raw::RawTree;
use crate::diff::record::{CaseRecord, CaseState, EntryState, VerdictKind};
use crate::diff::textdiff::{self, Line, LineKind};
use crate::js::{self, Value};

/// Displayed values longer than this are cut.
pub const MAX_VALUE_CHARS: usize = 200;

/// A value for people: compact JSON, cut, or `(absent)`.
pub fn show_value(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_owned(),
        Some(value) => cut(&String::from_utf8_lossy(&js::to_json(value))),
    }
}

fn cut(text: &str) -> String {
    crate::diff::record::signature::cut_chars(text, MAX_VALUE_CHARS)
}

/// How a ledger entry reads in a report: `triaged (LINK): REASON`.
pub fn entry_text(record: &CaseRecord) -> Option<String> {
    let entry = record.entry.as_ref()?;
    let state = match &entry.state {
        EntryState::Accepted => "accepted".to_owned(),
        EntryState::Triaged { link: None } => "triaged".to_owned(),
        EntryState::Triaged { link: Some(link) } => format!("triaged ({link})"),
    };
    Some(format!("{state}: {}", entry.reason))
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

/// The detail lines of a failing case; a diff keeps at most `diff_lines`
/// lines.
pub fn lines(record: &CaseRecord, diff_lines: usize) -> Vec<Line> {
    let mut out = Vec::new();
    if let Some(input) = &record.input {
        out.push(Line::new(LineKind::Text, format!("input: {input}")));
    }
    if let Some(entry) = entry_text(record) {
        out.push(Line::new(LineKind::Note, format!("ledger: {entry}")));
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
        VerdictKind::Different => {
            for path in &record.paths {
                out.push(Line::new(
                    LineKind::Text,
                    format!("at {}", pointer::display(&path.pointer)),
                ));
                out.push(Line::new(
                    LineKind::Golden,
                    format!("  golden: {}", show_value(path.golden.as_ref())),
                ));
                out.push(Line::new(
                    LineKind::Actual,
                    format!("  actual: {}", show_value(path.actual.as_ref())),
                ));
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
                out.push(Line::new(LineKind::Note, note.clone()));
            }
            let simple = record.total_paths == 1
                && record
                    .paths
                    .first()
                    .is_some_and(|p| is_scalar(p.golden.as_ref()) && is_scalar(p.actual.as_ref()));
            if let (false, Some(golden), Some(actual)) = (simple, &record.golden, &record.actual) {
                let mut diff = textdiff::unified(&pretty(golden), &pretty(actual));
                if diff.len() > diff_lines {
                    let left_out = diff.len() - diff_lines;
                    diff.truncate(diff_lines);
                    diff.push(Line::new(
                        LineKind::Note,
                        format!("… {left_out} more diff lines not shown"),
                    ));
                }
                out.extend(diff);
            }
        }
        VerdictKind::SameValue => {
            for reason in &record.reasons {
                out.push(Line::new(LineKind::Text, reason.text.clone()));
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
                format!("golden: {}", cut(golden)),
            ));
        }
        VerdictKind::Extra => {
            let actual = record.actual.as_deref().unwrap_or_default();
            out.push(Line::new(
                LineKind::Actual,
                format!("actual: {}", cut(actual)),
            ));
        }
        VerdictKind::Crash | VerdictKind::InvalidOutput | VerdictKind::Timeout => {
            match record.stderr.as_deref().map(str::trim_end) {
                Some("") => out.push(Line::new(
                    LineKind::Note,
                    "(the oracle wrote nothing on stderr)",
                )),
                Some(text) => {
                    out.push(Line::new(
                        LineKind::Text,
                        "stderr (the oracle on this case alone):",
                    ));
                    for line in text.lines() {
                        out.push(Line::new(LineKind::Note, format!("| {line}")));
                    }
                }
                None => {}
            }
        }
        VerdictKind::Identical => {}
    }
    out
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
    use crate::diff::compare::compare_elements;
    use crate::diff::identity::CaseId;
    use crate::diff::record::build::{record, Compared, Needs};
    use crate::js::TextMode;

    fn detail(case: &str, golden: &str, actual: &str) -> String {
        let value = js::parse(case.as_bytes(), TextMode::LossyUtf8).ok();
        let compared = Compared {
            index: 0,
            line: None,
            id: CaseId::of("f.json", case.as_bytes(), value.as_ref()),
            op: None,
            raw_case: Some(case.as_bytes()),
            golden: Some(golden.as_bytes()),
            actual: Some(actual.as_bytes()),
            comparison: compare_elements(golden.as_bytes(), actual.as_bytes()),
        };
        let needs = Needs {
            semantic: false,
            explain: true,
            fingerprint: true,
            passing: true,
        };
        plain(&lines(
            &record("f.json", compared, needs, None, |_| true),
            30,
        ))
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
        let cases = crate::diff::cases::CaseFile::read("f.json", b"[{\"op\":\"x\"}]".to_vec());
        let mut failed = crate::diff::record::build::oracle_failure(
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
