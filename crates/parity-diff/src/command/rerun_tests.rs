//! A report's failures read into a rerun's selection, and the line a
//! rerun prints.

use super::*;
use crate::corpus::identity::CaseId;
use crate::corpus::identity::CaseKey;
use crate::report::{FileInfo, Format, ReportOptions, RunInfo, Sink};
use std::collections::BTreeSet;

const STATES: [CaseState; 7] = [
    CaseState::Passed,
    CaseState::Failed,
    CaseState::Accepted,
    CaseState::New,
    CaseState::Changed,
    CaseState::Stale,
    CaseState::Error,
];
const VERDICTS: [VerdictKind; 8] = [
    VerdictKind::Identical,
    VerdictKind::SameValue,
    VerdictKind::Different,
    VerdictKind::Missing,
    VerdictKind::Extra,
    VerdictKind::Crash,
    VerdictKind::InvalidOutput,
    VerdictKind::Timeout,
];

#[test]
fn every_case_that_neither_passed_nor_was_accepted_is_taken() {
    for state in STATES {
        for verdict in VERDICTS {
            let failing_verdict = matches!(
                verdict,
                VerdictKind::Missing
                    | VerdictKind::Crash
                    | VerdictKind::Timeout
                    | VerdictKind::InvalidOutput
            );
            let expected = !state.passes() || (failing_verdict && state != CaseState::Accepted);
            assert_eq!(is_taken(state, verdict), expected, "{state:?} {verdict:?}");
        }
    }
}

fn record(file: &str, key: CaseKey, state: CaseState, verdict: VerdictKind) -> CaseRecord {
    CaseRecord {
        file: file.into(),
        index: 0,
        line: Some(1),
        label: "#0".into(),
        id: CaseId {
            file: file.into(),
            key,
        },
        state,
        verdict,
        summary: verdict.name().into(),
        ..CaseRecord::passing_default()
    }
}

fn name(text: &str) -> CaseKey {
    CaseKey::Name(text.into())
}

/// A JSON report of `command` over these files, each with its suite,
/// its problem and its records.
fn report(
    command: &'static str,
    files: Vec<(FileInfo, Option<Problem>, Vec<CaseRecord>)>,
) -> Vec<u8> {
    let options = ReportOptions {
        format: Format::Json,
        ..ReportOptions::default()
    };
    let run = RunInfo {
        command,
        ..RunInfo::default()
    };
    let mut out = Vec::new();
    let mut sink = Sink::new(&mut out, options, run);
    for (info, problem, records) in files {
        sink.begin_file(info).unwrap();
        for record in records {
            sink.case(record).unwrap();
        }
        if let Some(problem) = problem {
            sink.problem(problem).unwrap();
        }
        sink.end_file().unwrap();
    }
    sink.finish().unwrap();
    out
}

fn file(name: &str, suite: Option<&str>) -> FileInfo {
    FileInfo {
        name: Some(name.into()),
        path: Some(format!("cases/{name}")),
        suite: suite.map(str::to_owned),
    }
}

#[test]
fn a_report_gives_its_failing_cases_by_identity_and_whole_files() {
    let extra = CaseRecord {
        line: None,
        ..record(
            "c.json",
            CaseKey::Hash("2".into()),
            CaseState::New,
            VerdictKind::Extra,
        )
    };
    let bytes = report(
        "run",
        vec![
            (
                file("a.json", None),
                None,
                vec![
                    record(
                        "a.json",
                        name("ok"),
                        CaseState::Passed,
                        VerdictKind::Identical,
                    ),
                    record(
                        "a.json",
                        name("new"),
                        CaseState::New,
                        VerdictKind::Different,
                    ),
                    record(
                        "a.json",
                        name("known"),
                        CaseState::Accepted,
                        VerdictKind::Crash,
                    ),
                    record(
                        "a.json",
                        name("stale"),
                        CaseState::Stale,
                        VerdictKind::Identical,
                    ),
                    record(
                        "a.json",
                        CaseKey::Hash("0123456789ab".into()),
                        CaseState::Changed,
                        VerdictKind::Timeout,
                    ),
                ],
            ),
            (
                file("b.json", None),
                Some(Problem::Error {
                    message: "the oracle exited with status 1".into(),
                    stderr: None,
                    skipped: 3,
                    port: true,
                }),
                Vec::new(),
            ),
            (file("c.json", None), None, vec![extra]),
            (
                file("d.json", None),
                Some(Problem::MissingGolden {
                    golden: "golden/d.json".into(),
                }),
                Vec::new(),
            ),
            (
                file("e.json", None),
                Some(Problem::OrphanGolden {
                    golden: "golden/e.json".into(),
                }),
                Vec::new(),
            ),
            (
                file("f.json", None),
                None,
                vec![record(
                    "f.json",
                    name("fine"),
                    CaseState::Passed,
                    VerdictKind::SameValue,
                )],
            ),
        ],
    );
    let rerun = Rerun::from_bytes(&bytes[..], "r.json").unwrap();
    let taken = rerun.for_suite(None);
    assert_eq!(taken.source, "r.json");
    let cases = FileRerun::Cases(BTreeSet::from([
        name("new"),
        name("stale"),
        CaseKey::Hash("0123456789ab".into()),
    ]));
    assert_eq!(
        taken.files,
        BTreeMap::from([
            ("a.json".to_owned(), cases),
            ("b.json".to_owned(), FileRerun::Whole),
            ("c.json".to_owned(), FileRerun::Whole),
            ("d.json".to_owned(), FileRerun::Whole),
        ])
    );
    assert_eq!(taken.orphans, BTreeSet::from(["e.json".to_owned()]));
    assert!(!taken.is_empty());
    // The fingerprint follows the selection.
    assert_eq!(taken.fingerprint(), rerun.for_suite(None).fingerprint());
    let mut other = taken.clone();
    other.orphans.clear();
    assert_ne!(other.fingerprint(), taken.fingerprint());

    // Version 1 reads the same.
    let text = String::from_utf8(bytes).unwrap();
    let old = text
        .replacen("\"version\":2", "\"version\":1", 1)
        .replacen(",\"suites\":[]", "", 1)
        .replacen(",\"bySuite\":{}", "", 1);
    assert_ne!(old, text);
    let old = Rerun::from_bytes(old.as_bytes(), "r.json").unwrap();
    assert_eq!(old.for_suite(None), taken);
}

#[test]
fn each_suite_takes_its_own_part() {
    let failing = |file: &str| record(file, name("x"), CaseState::Failed, VerdictKind::Different);
    let bytes = report(
        "merge",
        vec![
            (file("a.json", Some("one")), None, vec![failing("a.json")]),
            (
                file("a.json", Some("two")),
                None,
                vec![record(
                    "a.json",
                    name("y"),
                    CaseState::New,
                    VerdictKind::Missing,
                )],
            ),
            (file("b.json", Some("two")), None, vec![failing("b.json")]),
        ],
    );
    let rerun = Rerun::from_bytes(&bytes[..], "r.json").unwrap();
    let keys = |taken: &RerunFiles| -> Vec<(String, FileRerun)> {
        taken.files.clone().into_iter().collect()
    };
    let only = |names: &[&str]| FileRerun::Cases(names.iter().map(|n| name(n)).collect());
    assert_eq!(
        keys(&rerun.for_suite(Some("one"))),
        [("a.json".to_owned(), only(&["x"]))]
    );
    assert_eq!(
        keys(&rerun.for_suite(Some("two"))),
        [
            ("a.json".to_owned(), only(&["y"])),
            ("b.json".to_owned(), only(&["x"]))
        ]
    );
    assert!(rerun.for_suite(Some("three")).is_empty());
    assert_eq!(
        keys(&rerun.for_suite(None)),
        [
            ("a.json".to_owned(), only(&["x", "y"])),
            ("b.json".to_owned(), only(&["x"]))
        ]
    );
}

#[test]
fn the_line_says_what_is_selected_and_what_is_gone() {
    let count = |named, selected, gone, gone_files| RerunCount {
        named,
        selected,
        gone,
        gone_files,
    };
    assert_eq!(
        count(true, 3, 0, 0).note("r.json", None, None),
        "rerun: 3 cases selected from r.json"
    );
    assert_eq!(
        count(true, 1, 1, 0).note("r.json", Some("main"), None),
        "rerun: suite main: 1 case selected from r.json (1 case it names no longer exists)"
    );
    assert_eq!(
        count(true, 0, 2, 1).note("r.json", None, None),
        "rerun: no case selected from r.json (2 cases and 1 file it names no longer exist): \
         nothing to run"
    );
    assert_eq!(
        count(true, 2, 0, 1).note("r.json", None, None),
        "rerun: 2 cases selected from r.json (1 file it names no longer exists)"
    );
    assert_eq!(
        count(false, 0, 0, 0).note("r.json", None, None),
        "rerun: r.json names no case that failed: nothing to run"
    );
    // A path is outside text.
    assert_eq!(
        count(true, 1, 0, 0).note("a\u{1b}]0;x\u{7}.json", None, None),
        "rerun: 1 case selected from a\\u{1b}]0;x\\u{7}.json"
    );
}

#[test]
fn what_is_not_a_run_report_is_refused_with_a_reason() {
    let bytes = report("compare", Vec::new());
    let error = Rerun::from_bytes(&bytes[..], "c.json").unwrap_err();
    assert_eq!(
        error.message,
        "--rerun-failed c.json: a `compare` report names no case of a corpus; \
         it takes the JSON report of run, merge or accept (--format json)"
    );
    let error = Rerun::from_bytes(&b"[1]"[..], "x.json").unwrap_err();
    assert!(
        error
            .message
            .starts_with("--rerun-failed x.json: x.json is not a parity-diff JSON report"),
        "{error}"
    );
    let bytes = report("run", Vec::new());
    let cut = &bytes[..bytes.len() - 5];
    let error = Rerun::from_bytes(cut, "r.json").unwrap_err();
    assert!(error.message.contains("unexpected end of input"), "{error}");
    let error = Rerun::read(Path::new("/nonexistent/r.json"), "/nonexistent/r.json").unwrap_err();
    assert!(
        error
            .message
            .starts_with("--rerun-failed /nonexistent/r.json: cannot read the report"),
        "{error}"
    );
    let empty = Rerun::from_bytes(&report("run", Vec::new())[..], "r.json").unwrap();
    assert!(empty.for_suite(None).is_empty());
}
