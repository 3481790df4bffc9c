//! What a report says about one case, whatever its format: the case's
//! label, a one-line summary of its verdict, and detail lines (differing
//! paths with both values, reasons, a unified diff), secrets masked.

use super::compare::{Comparison, PathDiff, Verdict};
use super::pointer;
use super::raw::RawTree;
use super::redact::Secrets;
use super::textdiff::{self, Line, LineKind};
use crate::js::{self, TextMode, Value};

/// One case's outcome, as a comparison hands it to a report.
#[derive(Debug)]
pub struct CaseOutcome<'a> {
    /// Its position in the array, from 0.
    pub index: usize,
    /// The case itself, when the cases are known.
    pub case: Option<&'a Value>,
    /// The golden's element.
    pub golden: Option<&'a [u8]>,
    /// The result's element.
    pub actual: Option<&'a [u8]>,
    /// The verdict, and the values read to reach it.
    pub comparison: Comparison,
}

/// Displayed values longer than this are cut.
const MAX_VALUE_CHARS: usize = 200;

/// `#index op name`: `#3 cliArgs "cliArgs: a required option missing"`;
/// the op and name only when the case has them as strings.
pub fn label(index: usize, case: Option<&Value>) -> String {
    let mut out = format!("#{index}");
    if let Some(case) = case {
        if let Some(op) = case.get("op").as_js_string() {
            out.push(' ');
            out.push_str(&op.to_utf8_lossy());
        }
        if let Some(name) = case.get("name").as_js_string() {
            out.push(' ');
            out.push_str(&String::from_utf8_lossy(&js::to_json(&Value::String(
                name.clone(),
            ))));
        }
    }
    out
}

/// A value for people: compact JSON, cut to 200
/// characters, or `(absent)`.
pub fn show_value(value: Option<&Value>) -> String {
    match value {
        None => "(absent)".to_owned(),
        Some(value) => cut(&String::from_utf8_lossy(&js::to_json(value))),
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// Everything a report says about one case.
#[derive(Debug)]
pub struct CaseView<'o> {
    /// What was compared.
    pub outcome: &'o CaseOutcome<'o>,
    /// `#index op name`, secrets masked.
    pub label: String,
    /// Whether the case passes.
    pub passes: bool,
    /// One line: the verdict and where.
    pub summary: String,
    /// The explanation, one line each, secrets masked.
    pub details: Vec<Line>,
    /// The secrets this case's report masks.
    pub secrets: Secrets,
}

impl<'o> CaseView<'o> {
    /// The label and verdict only, for a case that passed and needs no
    /// explaining (cheap: nothing is parsed or printed).
    pub fn brief(outcome: &'o CaseOutcome<'o>, semantic: bool) -> Self {
        let secrets = Secrets::harvest(outcome.case);
        CaseView {
            outcome,
            label: secrets.mask(&label(outcome.index, outcome.case)),
            passes: outcome.comparison.verdict.passes(semantic),
            summary: outcome.comparison.verdict.name().to_owned(),
            details: Vec::new(),
            secrets,
        }
    }

    /// The full explanation of a case.
    pub fn explained(outcome: &'o CaseOutcome<'o>, semantic: bool) -> Self {
        let comparison = &outcome.comparison;
        let parsed = |bytes: Option<&[u8]>| {
            bytes.and_then(|bytes| js::parse(bytes, TextMode::LossyUtf8).ok())
        };
        // Missing and extra elements were never read; read them for secrets.
        let (golden_read, actual_read) = match &comparison.verdict {
            Verdict::Missing => (parsed(outcome.golden), None),
            Verdict::Extra => (None, parsed(outcome.actual)),
            _ => (None, None),
        };
        let golden_value = comparison.golden.as_ref().or(golden_read.as_ref());
        let actual_value = comparison.actual.as_ref().or(actual_read.as_ref());
        let mut secrets = Secrets::harvest(
            outcome
                .case
                .into_iter()
                .chain(golden_value)
                .chain(actual_value),
        );
        if let Verdict::Different(divergence) = &comparison.verdict {
            secrets = secrets.except(
                divergence
                    .paths
                    .iter()
                    .flat_map(|path| path.golden.iter().chain(path.actual.iter())),
            );
        }
        let (summary, mut details) = describe(outcome, semantic);
        if !secrets.is_empty() {
            for line in &mut details {
                line.text = secrets.mask(&line.text);
            }
        }
        CaseView {
            outcome,
            label: secrets.mask(&label(outcome.index, outcome.case)),
            passes: comparison.verdict.passes(semantic),
            summary: secrets.mask(&summary),
            details,
            secrets,
        }
    }

    /// The details as plain text, one line each.
    pub fn plain_details(&self) -> String {
        let mut out = String::new();
        for line in &self.details {
            out.push_str(&line.text);
            out.push('\n');
        }
        out
    }
}

fn describe(outcome: &CaseOutcome, semantic: bool) -> (String, Vec<Line>) {
    let mut details = Vec::new();
    let show_element =
        |bytes: Option<&[u8]>| cut(&String::from_utf8_lossy(bytes.unwrap_or_default()));
    let summary = match &outcome.comparison.verdict {
        Verdict::Identical => "identical".to_owned(),
        Verdict::SameValue(explanation) => {
            for reason in &explanation.reasons {
                details.push(Line::new(LineKind::Text, reason.describe()));
            }
            let more = explanation.total.saturating_sub(explanation.reasons.len());
            if more > 0 {
                details.push(Line::new(LineKind::Note, format!("… and {more} more")));
            }
            if semantic {
                "same value, different bytes (passes with --semantic)".to_owned()
            } else {
                "same value, different bytes".to_owned()
            }
        }
        Verdict::Different(divergence) => {
            for path in &divergence.paths {
                path_lines(path, &mut details);
            }
            let more = divergence.total.saturating_sub(divergence.paths.len());
            if more > 0 {
                details.push(Line::new(
                    LineKind::Note,
                    format!(
                        "… and {more} more differing {}",
                        if more == 1 { "path" } else { "paths" }
                    ),
                ));
            }
            if let Some(note) = &divergence.note {
                details.push(Line::new(LineKind::Note, note.clone()));
            }
            if let (Some(golden), Some(actual)) = (outcome.golden, outcome.actual) {
                details.extend(textdiff::unified(&pretty(golden), &pretty(actual)));
            }
            match divergence.paths.first() {
                Some(first) if divergence.total == 1 => {
                    format!("different at {}", pointer::display(&first.pointer))
                }
                Some(first) => format!(
                    "different at {} and {} more {}",
                    pointer::display(&first.pointer),
                    divergence.total - 1,
                    if divergence.total == 2 {
                        "path"
                    } else {
                        "paths"
                    }
                ),
                None => "different".to_owned(),
            }
        }
        Verdict::Missing => {
            details.push(Line::new(
                LineKind::Golden,
                format!("golden: {}", show_element(outcome.golden)),
            ));
            "missing: the results end before this case".to_owned()
        }
        Verdict::Extra => {
            details.push(Line::new(
                LineKind::Actual,
                format!("actual: {}", show_element(outcome.actual)),
            ));
            "extra: the golden ends before this case".to_owned()
        }
    };
    (summary, details)
}

fn path_lines(path: &PathDiff, details: &mut Vec<Line>) {
    details.push(Line::new(
        LineKind::Text,
        format!("at {}", pointer::display(&path.pointer)),
    ));
    details.push(Line::new(
        LineKind::Golden,
        format!("  golden: {}", show_value(path.golden.as_ref())),
    ));
    details.push(Line::new(
        LineKind::Actual,
        format!("  actual: {}", show_value(path.actual.as_ref())),
    ));
}

fn pretty(element: &[u8]) -> String {
    match RawTree::parse(element) {
        Some(tree) => tree.pretty(),
        None => format!("{}\n", String::from_utf8_lossy(element)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::compare::compare_elements;

    fn case(text: &str) -> Value {
        js::parse(text.as_bytes(), TextMode::LossyUtf8).unwrap()
    }

    fn view_text(case_json: &str, golden: &str, actual: &str) -> (String, String, String) {
        let case = case(case_json);
        let outcome = CaseOutcome {
            index: 4,
            case: Some(&case),
            golden: Some(golden.as_bytes()),
            actual: Some(actual.as_bytes()),
            comparison: compare_elements(golden.as_bytes(), actual.as_bytes()),
        };
        let view = CaseView::explained(&outcome, false);
        (
            view.label.clone(),
            view.summary.clone(),
            view.plain_details(),
        )
    }

    #[test]
    fn labels() {
        assert_eq!(label(0, None), "#0");
        assert_eq!(
            label(3, Some(&case(r#"{"op":"cliArgs","name":"a \"b\""}"#))),
            r#"#3 cliArgs "a \"b\"""#
        );
        assert_eq!(label(3, Some(&case(r#"{"op":7}"#))), "#3");
        assert_eq!(label(3, Some(&case("[1]"))), "#3");
    }

    #[test]
    fn different_shows_paths_and_diff() {
        let (label, summary, details) = view_text(
            r#"{"op":"x","name":"n"}"#,
            r#"{"threw":true,"message":"a"}"#,
            r#"{"threw":true,"message":"b"}"#,
        );
        assert_eq!(label, "#4 x \"n\"");
        assert_eq!(summary, "different at /message");
        assert_eq!(
            details,
            concat!(
                "at /message\n",
                "  golden: \"a\"\n",
                "  actual: \"b\"\n",
                "--- golden\n",
                "+++ actual\n",
                "@@ -1,4 +1,4 @@\n",
                " {\n",
                "   \"threw\": true,\n",
                "-  \"message\": \"a\"\n",
                "+  \"message\": \"b\"\n",
                " }\n"
            )
        );
    }

    #[test]
    fn secrets_are_masked_unless_they_differ() {
        let case_json = r#"{"op":"cliArgs","name":"tok-case","options":{"token":"tok-case"}}"#;
        let (label, _, details) = view_text(
            case_json,
            r#"["--token","tok-case","--cwd","/a"]"#,
            r#"["--token","tok-case","--cwd","/b"]"#,
        );
        assert_eq!(label, "#4 cliArgs \"<redacted>\"");
        assert!(!details.contains("tok-case"), "{details}");
        assert!(details.contains("\"<redacted>\""));
        let (_, summary, details) = view_text(
            case_json,
            r#"["--token","tok-case"]"#,
            r#"["--token","tok-other"]"#,
        );
        assert_eq!(summary, "different at /1");
        assert!(details.contains("golden: \"tok-case\""), "{details}");
        assert!(details.contains("actual: \"tok-other\""), "{details}");
    }

    #[test]
    fn long_values_are_cut() {
        let long = format!("\"{}\"", "x".repeat(500));
        let shown = show_value(Some(&case(&long)));
        assert_eq!(shown.chars().count(), MAX_VALUE_CHARS + 1);
        assert!(shown.ends_with('…'));
        assert_eq!(show_value(None), "(absent)");
    }
}
