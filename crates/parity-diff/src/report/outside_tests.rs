//! Every format over records whose every field is hostile: the whole
//! output never holds a raw control character, a line starting `::` or a
//! `##[` ([`outside::violation`]), and the JSON report is still the same
//! JSON value.

use super::*;
use crate::base::outside;
use crate::corpus::cases::CaseFile;
use crate::corpus::identity::{CaseId, CaseKey};
use crate::judge::compare::compare_elements;
use crate::ledger::rules::{Match, Rule, RuleFinding, RuleOps, RuleProblem};
use crate::report::record::build::{oracle_failure, record, Compared, Needs};
use crate::report::record::example::Example;
use crate::report::record::{EntryRef, EntryState, VerdictKind};
use js_exact::{self as js, TextMode};

/// Workflow commands, terminal escapes (a title, a clear, an OSC 8 link),
/// a bidi override, separators, DEL and C1, a mention, an autolink, HTML
/// and a pipe.
const HOSTILE: &str = "x\n::error title=PWNED::y\r\n  ::warning::z ##[stop-commands]tok \
    \u{1b}]0;pwn\u{7}\u{1b}[2J\u{1b}]8;;https://evil/\u{1b}\\link\u{1b}]8;;\u{1b}\\ \
    \u{202e}\u{2066}\u{2028}\u{2029}\u{7f}\u{85}\u{9b} @octocat https://evil/x www.evil.x <b>a</b> | \\u{1b}";

fn quoted() -> String {
    serde_json::to_string(HOSTILE).unwrap()
}

fn hostile_records() -> Vec<CaseRecord> {
    let q = quoted();
    let case = format!(r#"{{"op":{q},"name":{q},"input":{q}}}"#);
    let golden = format!(r#"{{"defined":true,"value":{{{q}:[{q},1]}}}}"#);
    let actual = format!(r#"{{"defined":true,"value":{{{q}:[{q},2]}}}}"#);
    let example = Example {
        file: HOSTILE,
        index: 0,
        line: Some(1),
        op: Some(HOSTILE.to_owned()),
        case: &case,
        golden: &golden,
        actual: &actual,
    };
    let mut different = example.record();
    let needs = Needs {
        semantic: false,
        explain: true,
        fingerprint: true,
        passing: true,
    };
    different.state = CaseState::Changed;
    different.entry = Some(EntryRef {
        state: EntryState::Triaged {
            link: Some(HOSTILE.to_owned()),
        },
        reason: HOSTILE.to_owned(),
    });
    let threw_actual = format!(r#"{{"threw":true,"message":{q}}}"#);
    let threw = record(
        HOSTILE,
        Compared {
            index: 1,
            line: Some(2),
            id: CaseId {
                file: HOSTILE.to_owned(),
                key: CaseKey::Hash("0123456789ab".into()),
            },
            op: Some(HOSTILE.to_owned()),
            raw_case: Some(case.as_bytes()),
            golden: Some(golden.as_bytes()),
            actual: Some(threw_actual.as_bytes()),
            comparison: compare_elements(golden.as_bytes(), threw_actual.as_bytes()),
            errors: &crate::judge::signature::DEFAULT_ERRORS,
        },
        needs,
        None,
        |_| true,
    );
    let cases = CaseFile::read(HOSTILE, format!("[{case}]").into_bytes());
    let mut crashed = oracle_failure(HOSTILE, &cases, 0, VerdictKind::Crash, HOSTILE);
    crashed.stderr = Some(format!("{HOSTILE}\n{HOSTILE}"));
    let mut accepted = different.clone();
    accepted.state = CaseState::Accepted;
    accepted.index = 3;
    vec![different, threw, crashed, accepted]
}

fn problems() -> Vec<Problem> {
    vec![
        Problem::MissingGolden {
            golden: HOSTILE.into(),
        },
        Problem::Error {
            message: HOSTILE.to_owned(),
            stderr: Some(format!("{HOSTILE}\n\n{HOSTILE}\n")),
            skipped: 2,
            port: false,
        },
        Problem::OrphanGolden {
            golden: HOSTILE.into(),
        },
    ]
}

fn orphan() -> Entry {
    Entry {
        id: CaseId {
            file: HOSTILE.to_owned(),
            key: CaseKey::Name(HOSTILE.to_owned()),
        },
        op: Some(HOSTILE.to_owned()),
        state: EntryState::Triaged {
            link: Some(HOSTILE.to_owned()),
        },
        reason: HOSTILE.to_owned(),
        verdict: None,
        paths: Vec::new(),
        fingerprint: "0123456789abcdef".into(),
        comments: Vec::new(),
    }
}

/// A stale rule whose every member is hostile.
fn stale_rule() -> RuleFinding {
    RuleFinding {
        rule: Rule {
            ops: RuleOps::Named(vec![HOSTILE.to_owned()]),
            files: None,
            matches: Match::Threw(HOSTILE.to_owned()),
            state: EntryState::Triaged {
                link: Some(HOSTILE.to_owned()),
            },
            reason: HOSTILE.to_owned(),
            comments: Vec::new(),
        },
        index: 0,
        problem: RuleProblem::Stale,
    }
}

fn report(format: Format, color: bool) -> String {
    let options = ReportOptions {
        format,
        color,
        ..ReportOptions::default()
    };
    let run = RunInfo {
        command: "run",
        ledger: Some(LedgerInfo {
            path: HOSTILE.to_owned(),
            fingerprint: "0123456789abcdef".into(),
            entries: vec![orphan()],
        }),
        ..RunInfo::default()
    };
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options, run);
    for problem in problems() {
        sink.begin_file(FileInfo {
            suite: None,
            name: Some(HOSTILE.to_owned()),
            path: Some(HOSTILE.to_owned()),
        })
        .unwrap();
        sink.problem(problem).unwrap();
        sink.end_file().unwrap();
    }
    sink.begin_file(FileInfo {
        suite: None,
        name: Some(HOSTILE.to_owned()),
        path: Some(HOSTILE.to_owned()),
    })
    .unwrap();
    for record in hostile_records() {
        sink.case(record).unwrap();
    }
    Consumer::warning(&mut sink, HOSTILE).unwrap();
    sink.end_file().unwrap();
    sink.orphaned_entry(&orphan());
    Consumer::rule_finding(&mut sink, &stale_rule());
    sink.finish().unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn no_format_prints_outside_text_raw() {
    for format in [
        Format::Human,
        Format::Json,
        Format::Junit,
        Format::Markdown,
        Format::Html,
    ] {
        let text = report(format, false);
        assert_eq!(
            outside::violation(&text, false),
            None,
            "{format:?}:\n{text}"
        );
        for word in ["PWNED", "stop-commands", "pwn", "octocat"] {
            assert!(text.contains(word), "{format:?} lost {word}:\n{text}");
        }
    }
    // Colour paints our words; outside text stays escaped under it.
    let text = report(Format::Human, true);
    assert!(text.contains("\u{1b}[1m"), "{text}");
    assert_eq!(outside::violation(&text, true), None, "{text}");
}

#[test]
fn the_human_report_shows_outside_text_in_the_notation() {
    let text = report(Format::Human, false);
    let shown = outside::text(HOSTILE);
    assert!(
        text.contains(&format!("MISSING {shown}: no golden at {shown}")),
        "{text}"
    );
    assert!(text.contains(&format!("ERROR {shown}: {shown}")), "{text}");
    assert!(
        text.contains(&format!("WARNING {shown}: {shown}\n")),
        "{text}"
    );
    // Stderr: one prefixed line per line.
    for line in outside::lines(HOSTILE) {
        assert!(text.contains(&format!("    | {line}\n")), "{line}\n{text}");
    }
    assert!(text.contains("\\u{1b}]0;pwn\\u{7}\\u{1b}[2J"), "{text}");
    assert!(text.contains("##\\u{5b}stop-commands]tok"), "{text}");
    // The notation reads back: a file name as the report printed it.
    let line = text
        .lines()
        .find(|line| line.starts_with("MISSING "))
        .unwrap();
    let name = line
        .strip_prefix("MISSING ")
        .unwrap()
        .split(": no golden")
        .next()
        .unwrap();
    assert_eq!(outside::decode(name), HOSTILE);
}

#[test]
fn the_json_report_is_the_same_value_written_neutral() {
    let text = report(Format::Json, false);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["files"][0]["name"], HOSTILE);
    assert_eq!(
        value["files"][1]["stderr"],
        format!("{HOSTILE}\n\n{HOSTILE}\n")
    );
    assert_eq!(value["ledger"]["path"], HOSTILE);
    assert_eq!(value["orphanedEntries"][0]["entry"]["reason"], HOSTILE);
    assert!(text.contains("\\u202e\\u2066\\u2028\\u2029\\u007f\\u0085\\u009b"));
    assert!(text.contains("##\\u005bstop-commands"));
    // Parsed our own way too: the JSON of the report's JavaScript values.
    let ours = js::parse(text.trim_end().as_bytes(), TextMode::LossyUtf8).unwrap();
    let first = ours.get("files").as_array().unwrap()[0].get("name");
    assert_eq!(first.as_js_string().unwrap().to_utf8_lossy(), HOSTILE);
}

#[test]
fn junit_attributes_keep_tab_lf_and_cr_as_references() {
    let text = report(Format::Junit, false);
    assert!(
        text.contains("classname=\"x&#10;::error title=PWNED::y&#13;&#10;  ::warning::z ##\\u{5b}"),
        "{text}"
    );
}
