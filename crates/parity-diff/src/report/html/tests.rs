//! Tests of [`super`]: the page's content, escaping and bounds. The page
//! in a real browser (filtering, counts) is tests/html_report.rs.

use super::*;
use crate::corpus::identity::CaseId;
use crate::ledger::Entry;
use crate::report::record::example::Example;
use crate::report::record::EntryState;
use crate::report::{Format, ReportOptions, RunInfo, Sink};

fn failing(index: usize, case: &str, golden: &str, actual: &str) -> CaseRecord {
    let example = Example {
        file: "f.json",
        index,
        line: Some(index + 2),
        op: Example::op_of(case),
        case,
        golden,
        actual,
    };
    example.record()
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
        suite: None,
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
        esc("a\u{0}b\u{1b}c\u{7f}d\u{85}\n\t\u{202e}"),
        "a\\u{0}b\\u{1b}c\\u{7f}d\\u{85}\\u{a}\\u{9}\\u{202e}"
    );
    assert_eq!(esc_json("\"a\u{7f}<\""), "&quot;a\\u007f&lt;&quot;");
    assert_eq!(
        esc_lines("::error::x\n<\u{1b}>"),
        "\\u{3a}:error::x\n&lt;\\u{1b}&gt;"
    );
}

#[test]
fn a_failing_case_shows_its_input_paths_and_both_sides_marked() {
    let html = page(vec![failing(
        0,
        r#"{"op":"round","name":"fractional","configured":1500.9}"#,
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
        "<tr data-op-row data-op=\"round\" data-states=\"failed\" \
         data-verdicts=\"different\" data-passed=\"0\" data-accepted=\"0\" data-failed=\"1\">"
    ));
    // The group, and the case in full: where, input, the path, the panes.
    assert!(html.contains(
        "<section class=\"group\" id=\"g0\" data-group data-op=\"round\" \
         data-states=\"failed\" data-verdicts=\"different\" \
         data-text=\"round: different at /value (golden number, port number)\" data-count=\"1\">"
    ));
    assert!(html.contains("<code class=\"where\">f.json:2</code>"));
    assert!(html.contains(
        "<code class=\"input\">{&quot;op&quot;:&quot;round&quot;,&quot;name&quot;:&quot;fractional&quot;,&quot;configured&quot;:1500.9}</code>"
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
                &format!(r#"{{"op":"sum","name":"c{n}"}}"#),
                r#"{"defined":true,"value":1}"#,
                r#"{"threw":true,"message":"not implemented"}"#,
            )
        })
        .collect();
    let html = page(records);
    assert!(html.contains(
        "<tr data-filtered data-op=\"sum\" data-states=\"failed\" data-verdicts=\"different\" \
         data-text=\"sum not implemented\"><th scope=\"row\"><code>sum</code></th>\
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
        suite: None,
        name: Some("a.json".into()),
        path: Some("cases/a.json".into()),
    };
    sink.begin_file(file.clone()).unwrap();
    sink.problem(Problem::Error {
        message: "the oracle crashed <boom>".into(),
        stderr: Some("line 1\nline 2 & more\n".into()),
        skipped: 3,
        port: false,
    })
    .unwrap();
    sink.end_file().unwrap();
    sink.begin_file(file).unwrap();
    sink.problem(Problem::MissingGolden {
        golden: "golden/a.json".into(),
    })
    .unwrap();
    sink.end_file().unwrap();
    sink.orphaned_entry(&Entry {
        id: CaseId::of("gone.json", b"{}", None),
        op: Some("sum".into()),
        state: EntryState::Triaged {
            link: Some("https://example.test/1".into()),
        },
        reason: "sorted differently".into(),
        verdict: None,
        paths: Vec::new(),
        fingerprint: "0".repeat(16),
        comments: Vec::new(),
    });
    let changes = crate::report::LedgerChanges {
        path: "parity-ledger.txt".into(),
        added: vec![CaseId::of("a.json", b"{}", None)],
        not_accepted: 2,
        ..Default::default()
    };
    sink.finish_with(Some(&changes)).unwrap();
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
    assert!(html.contains("<dt>written</dt><dd><code>false</code></dd>"));
    assert!(html.contains("<dt>changed</dt><dd>none</dd>"));
    assert!(html.contains("<dt>notAccepted</dt><dd><code>2</code></dd>"));
    assert!(html.contains("data-exit-code=\"2\">input error</span>"));
}

/// A failing record made accepted by an entry of `state`.
fn accepted(index: usize, state: EntryState) -> CaseRecord {
    let case = format!(r#"{{"name":"c{index}","op":"sum"}}"#);
    CaseRecord {
        state: CaseState::Accepted,
        entry: Some(crate::report::record::EntryRef {
            state,
            reason: "a <bug>".into(),
        }),
        ..failing(index, &case, "1", "2")
    }
}

#[test]
fn triaged_and_accepted_cases_are_listed_with_the_state_filters_words() {
    let link = || EntryState::Triaged {
        link: Some("https://example.test/1?<x>".into()),
    };
    let mut records: Vec<CaseRecord> = (0..accepted::TRIAGED_LISTED + 2)
        .map(|index| accepted(index, link()))
        .collect();
    records.push(accepted(1000, EntryState::Accepted));
    let html = page(records);
    // The filter offers triaged; the op's row has both words.
    assert!(html.contains("<option>accepted</option><option>triaged</option>"));
    assert!(html.contains("data-op-row data-op=\"sum\" data-states=\"accepted triaged\""));
    let triaged = html.split("<section id=\"triaged\"").nth(1).unwrap();
    let triaged = triaged.split("</section>").next().unwrap();
    assert!(triaged.contains("<h2>Triaged <small>502 cases</small></h2>"));
    assert_eq!(
        triaged
            .matches("<tr data-filtered data-op=\"sum\" data-states=\"accepted triaged\"")
            .count(),
        accepted::TRIAGED_LISTED
    );
    // The link is text, never a live link.
    assert!(triaged.contains("<td><code>https://example.test/1?&lt;x&gt;</code></td>"));
    assert!(!triaged.contains("<a "));
    assert!(triaged.contains("… and 2 more not listed"));
    let deliberate = html.split("<section id=\"accepted\"").nth(1).unwrap();
    let deliberate = deliberate.split("</section>").next().unwrap();
    assert!(deliberate.contains("<h2>Accepted <small>1 case</small></h2>"));
    assert!(deliberate.contains(
        "<tr data-filtered data-op=\"sum\" data-states=\"accepted\" data-verdicts=\"different\" \
         data-text=\"f.json:1002 #1000 sum &quot;c1000&quot; a &lt;bug&gt;\">"
    ));
    assert!(!deliberate.contains("more not listed"));
}

#[test]
fn a_run_without_accepted_cases_has_neither_section() {
    let html = page(vec![failing(0, r#"{"op":"sum"}"#, "1", "2")]);
    assert!(!html.contains("id=\"triaged\""));
    assert!(!html.contains("id=\"accepted\""));
}
