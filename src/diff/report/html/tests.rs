//! Tests of [`super`]: the page's content, escaping and bounds. The page
//! in a real browser (filtering, counts) is tests/html_report.rs.

use std::path::PathBuf;

use super::*;
use crate::diff::compare::compare_elements;
use crate::diff::identity::CaseId;
use crate::diff::ledger::Entry;
use crate::diff::record::build::{record, Compared, Needs};
use crate::diff::record::EntryState;
use crate::diff::report::{Format, ReportOptions, RunInfo, Sink};
use crate::js::{self, Object, TextMode};

fn failing(index: usize, case: &str, golden: &str, actual: &str) -> CaseRecord {
    let value = js::parse(case.as_bytes(), TextMode::LossyUtf8).ok();
    let compared = Compared {
        index,
        line: Some(index + 2),
        id: CaseId::of("f.json", case.as_bytes(), value.as_ref()),
        op: value.as_ref().and_then(crate::diff::cases::op_of),
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
    record("f.json", compared, needs, None, |_| true)
}

fn options() -> ReportOptions {
    ReportOptions {
        format: Format::Html,
        ..ReportOptions::default()
    }
}

fn run() -> RunInfo {
    RunInfo {
        command: "run",
        ..RunInfo::default()
    }
}

/// The page of these records, all in one file.
fn page(records: Vec<CaseRecord>) -> String {
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options(), run());
    sink.begin_file(FileInfo {
        name: Some("f.json".into()),
        path: Some("cases/f.json".into()),
    })
    .unwrap();
    for record in records {
        sink.case(record).unwrap();
    }
    sink.end_file().unwrap();
    sink.finish().unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn text_is_escaped_and_control_characters_show() {
    assert_eq!(
        esc("<a href=\"x\">&'</a>"),
        "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
    );
    assert_eq!(
        esc("a\u{0}b\u{1b}c\u{7f}d\u{85}\n\t"),
        "a\u{2400}b\u{241b}c\u{2421}d\u{fffd}\n\t"
    );
}

#[test]
fn a_failing_case_shows_its_input_paths_and_both_sides_marked() {
    let html = page(vec![failing(
        0,
        r#"{"op":"readyTimeoutMs","name":"fractional","configured":1500.9}"#,
        r#"{"defined":true,"value":1500}"#,
        r#"{"defined":true,"value":1501}"#,
    )]);
    assert!(
        html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"),
        "{html}"
    );
    assert!(html.ends_with("</body>\n</html>\n"));
    // The headline and the op's row, with the counts the script sums.
    assert!(html.contains("<dd id=\"count-passed\">0</dd>"));
    assert!(html.contains("<dd id=\"count-failed\">1</dd>"));
    assert!(html.contains(
        "<tr data-op-row data-op=\"readyTimeoutMs\" data-states=\"failed\" \
         data-verdicts=\"different\" data-passed=\"0\" data-accepted=\"0\" data-failed=\"1\">"
    ));
    // The group, and the case in full: where, input, the path, the panes.
    assert!(html.contains("<section class=\"group\" id=\"g0\" data-group data-op=\"readyTimeoutMs\" \
         data-states=\"failed\" data-verdicts=\"different\" \
         data-text=\"readyTimeoutMs: different at /value (golden number, port number)\" data-count=\"1\">"));
    assert!(html.contains("<code class=\"where\">f.json:2</code>"));
    assert!(html.contains(
        "<code class=\"input\">{&quot;op&quot;:&quot;readyTimeoutMs&quot;,&quot;name&quot;:&quot;fractional&quot;,&quot;configured&quot;:1500.9}</code>"
    ));
    assert!(html.contains(
        "<tr><th scope=\"row\"><code>/value</code></th><td class=\"golden\"><code>1500</code></td>\
         <td class=\"actual\"><code>1501</code></td></tr>"
    ));
    assert!(html.contains(concat!(
        "<figure class=\"pane golden\"><figcaption>golden <small>4 lines, 1 marked</small></figcaption><pre><code>",
        "<span class=\"l\" data-n=\"1\">{</span>",
        "<span class=\"l\" data-n=\"2\">  &quot;defined&quot;: true,</span>",
        "<span class=\"l m\" data-n=\"3\">  &quot;value&quot;: 1500</span>",
        "<span class=\"l\" data-n=\"4\">}</span></code></pre></figure>"
    )));
    assert!(html.contains("<span class=\"l m\" data-n=\"3\">  &quot;value&quot;: 1501</span>"));
    // Self-contained: nothing is fetched.
    for pattern in ["http://", "https://", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(pattern), "{pattern}");
    }
}

#[test]
fn markup_in_cases_never_reaches_the_page_as_markup() {
    let html = page(vec![failing(
        0,
        r#"{"op":"<script>alert(1)</script>","name":"</textarea><img onerror=x>"}"#,
        r#"{"defined":true,"value":"<b>\"&"}"#,
        r#"{"threw":true,"message":"<script>"}"#,
    )]);
    assert_eq!(html.matches("<script").count(), 1, "{html}");
    assert!(!html.contains("<img"));
    assert!(!html.contains("<b>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn a_group_shows_three_cases_in_full_twenty_in_brief_and_counts_the_rest() {
    let records = (0..30)
        .map(|n| {
            failing(
                n,
                &format!(r#"{{"op":"x","name":"case {n}"}}"#),
                "[1]",
                "[2]",
            )
        })
        .collect();
    let html = page(records);
    assert_eq!(html.matches("<article class=\"case\"").count(), 3);
    assert_eq!(html.matches("<tr data-row").count(), LISTED_IN_BRIEF);
    assert!(html.contains("<td>#3 x &quot;case 3&quot;</td>"));
    assert!(html.contains("<td>#22 x &quot;case 22&quot;</td>"));
    assert!(!html.contains("&quot;case 23&quot;"));
    assert!(html.contains(
        "<p class=\"more\">… and 7 more cases not listed (the JSON report lists every case)</p>"
    ));
    assert!(html.contains("<footer>\n<p>7 failing cases are counted but not listed here.</p>"));
}

#[test]
fn ops_that_only_threw_are_one_row_each() {
    let records = (0..4)
        .map(|n| {
            failing(
                n,
                &format!(r#"{{"op":"cliArgs","name":"c{n}"}}"#),
                r#"{"defined":true,"value":1}"#,
                r#"{"threw":true,"message":"not implemented"}"#,
            )
        })
        .collect();
    let html = page(records);
    assert!(html.contains(
        "<tr data-filtered data-op=\"cliArgs\" data-states=\"failed\" data-verdicts=\"different\" \
         data-text=\"cliArgs not implemented\"><th scope=\"row\"><code>cliArgs</code></th>\
         <td class=\"num failed\">4</td><td><code>&quot;not implemented&quot;</code></td></tr>"
    ));
    assert!(!html.contains("id=\"failures\""));
}

#[test]
fn the_page_stays_under_its_size_and_says_what_it_left_out() {
    // 40 groups (one path shape each), each case with a 60 KiB element
    // of 400 lines, every one of them marked.
    let line = format!("\"{}\"", "x".repeat(150));
    let big = format!("[{}]", vec![line; 400].join(","));
    let records = (0..160)
        .map(|n| {
            let group = n % 40;
            failing(
                n,
                &format!(r#"{{"op":"x","name":"c{n}"}}"#),
                &format!(r#"{{"k{group}":{big}}}"#),
                &format!(r#"{{"k{group}":1}}"#),
            )
        })
        .collect();
    let html = page(records);
    assert!(html.len() <= SIZE_LIMIT, "{} bytes", html.len());
    assert!(html.len() > SIZE_LIMIT / 2, "{} bytes", html.len());
    assert!(
        html.contains("id=\"size-note\">This page keeps under 4 MiB: "),
        "size note"
    );
    assert!(html.contains("cases shown in brief rather than in full."));
    assert!(html.contains("The JSON report (--format json) has every case."));
    // Every group is there, those past the budget in brief.
    assert_eq!(html.matches("<section class=\"group\"").count(), 40);
    let full = html.matches("<article class=\"case\"").count();
    assert!((3..120).contains(&full), "{full} in full");
    assert_eq!(html.matches("<tr data-row").count(), 160 - full);
    assert!(html.ends_with("</body>\n</html>\n"));
}

#[test]
fn problems_orphans_and_a_commands_extra_member_are_shown() {
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options(), run());
    let file = FileInfo {
        name: Some("a.json".into()),
        path: Some("cases/a.json".into()),
    };
    sink.begin_file(file.clone()).unwrap();
    sink.problem(Problem::Error {
        message: "the oracle crashed <boom>".into(),
        stderr: Some("line 1\nline 2 & more\n".into()),
        skipped: 3,
    })
    .unwrap();
    sink.end_file().unwrap();
    sink.begin_file(file).unwrap();
    sink.problem(Problem::MissingGolden {
        golden: PathBuf::from("golden/a.json"),
    })
    .unwrap();
    sink.end_file().unwrap();
    sink.orphaned_entry(&Entry {
        id: CaseId::of("gone.json", b"{}", None),
        op: Some("cliArgs".into()),
        state: EntryState::Triaged {
            link: Some("https://example.test/1".into()),
        },
        reason: "sorted differently".into(),
        verdict: None,
        paths: Vec::new(),
        fingerprint: "0".repeat(16),
        comments: Vec::new(),
    });
    let changes = Value::Object(
        Object::new()
            .with("path", "parity-ledger.txt")
            .with(
                "added",
                vec![crate::diff::record::id_json(&CaseId::of(
                    "a.json", b"{}", None,
                ))],
            )
            .with("notAccepted", 2.0),
    );
    sink.finish_with(Some(("ledgerChanges", changes))).unwrap();
    let html = String::from_utf8(out).unwrap();
    assert!(html.contains(
        "<article class=\"problem\" data-filtered data-states=\"error\" data-text=\"a.json error the oracle crashed &lt;boom&gt;\">"
    ));
    assert!(
        html.contains("<p>the oracle crashed &lt;boom&gt;</p><p>3 golden cases not compared</p>")
    );
    assert!(html.contains("<pre class=\"stderr\">line 1\nline 2 &amp; more</pre>"));
    assert!(html.contains("<p>no golden at <code>golden/a.json</code></p>"));
    assert!(html.contains("<dd id=\"count-errors\">1</dd>"));
    assert!(html.contains("<dd id=\"count-orphaned\">1</dd>"));
    assert!(html.contains("data-states=\"orphaned\""));
    assert!(html.contains("triaged (https://example.test/1): sorted differently"));
    assert!(html.contains("<h2>Ledger changes</h2>"));
    assert!(html.contains("<dt>path</dt><dd><code>parity-ledger.txt</code></dd>"));
    assert!(html.contains("<dt>added</dt><dd><code>a.json #"));
    assert!(html.contains("<dt>notAccepted</dt><dd><code>2</code></dd>"));
    assert!(html.contains("data-exit-code=\"2\">input error</span>"));
}
