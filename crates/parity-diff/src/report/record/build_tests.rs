//! Tests of [`super`]: records made from comparisons.

use super::*;
use crate::judge::compare::compare_elements;
use js_exact::{self as js, TextMode, Value};

fn compared<'a>(case: &'a str, golden: &'a str, actual: &'a str) -> Compared<'a> {
    let value = js::parse(case.as_bytes(), TextMode::LossyUtf8).ok();
    Compared {
        index: 4,
        line: Some(9),
        id: CaseId::of("f.json", case.as_bytes(), value.as_ref()),
        op: value.as_ref().and_then(crate::corpus::cases::op_of),
        raw_case: Some(case.as_bytes()),
        golden: Some(golden.as_bytes()),
        actual: Some(actual.as_bytes()),
        comparison: compare_elements(golden.as_bytes(), actual.as_bytes()),
        errors: &crate::judge::signature::DEFAULT_ERRORS,
    }
}

const NEEDS: Needs = Needs {
    semantic: false,
    explain: true,
    fingerprint: true,
    passing: true,
};

fn full(case: &str, golden: &str, actual: &str) -> CaseRecord {
    record(
        "f.json",
        compared(case, golden, actual),
        NEEDS,
        None,
        |_| true,
    )
}

#[test]
fn identical_cases_cost_nothing() {
    let found = full(r#"{"op":"x","name":"n"}"#, "[1]", "[1]");
    assert_eq!(found.state, CaseState::Passed);
    assert_eq!(found.label, "#4 x \"n\"");
    assert_eq!(found.line, Some(9));
    assert_eq!(found.fingerprint, None);
    assert_eq!(found.input, None);
}

#[test]
fn a_throw_where_the_golden_has_a_value_is_one_line() {
    let found = full(
        r#"{"op":"sum","name":"n","options":{}}"#,
        r#"{"defined":true,"value":["a"]}"#,
        r#"{"threw":true,"message":"not implemented"}"#,
    );
    assert_eq!(found.state, CaseState::Failed);
    assert_eq!(
        found.summary,
        r#"the port threw "not implemented" where the golden has {"defined":true,"value":["a"]}"#
    );
    let signature = found.signature.unwrap();
    assert_eq!(signature.kind, "threw");
    assert_eq!(
        signature.text,
        r#"sum: the port threw "not implemented" where the golden has a value"#
    );
    assert_eq!(found.thrown.as_deref(), Some("not implemented"));
    assert_eq!(
        found.input.as_deref(),
        Some(r#"{"op":"sum","name":"n","options":{}}"#)
    );
    assert_eq!(found.fingerprint.unwrap().len(), 16);

    let found = full(
        r#"{"op":"x"}"#,
        r#"{"threw":true,"message":"bad"}"#,
        r#"{"defined":true,"value":1}"#,
    );
    assert_eq!(
        found.summary,
        r#"the port returned {"defined":true,"value":1} where the golden threw "bad""#
    );
    assert_eq!(found.signature.unwrap().kind, "returned");
    assert_eq!(found.thrown, None);
}

#[test]
fn differing_values_are_signed_by_shape() {
    let found = full(
        r#"{"op":"round","configured":1500.9}"#,
        r#"{"defined":true,"value":1500}"#,
        r#"{"defined":true,"value":1501}"#,
    );
    assert_eq!(found.summary, "different at /value");
    assert_eq!(
        found.signature.unwrap().text,
        "round: different at /value (golden number, port number)"
    );
    assert_eq!(found.paths.len(), 1);
    assert_eq!(
        found.golden.as_deref(),
        Some(r#"{"defined":true,"value":1500}"#)
    );

    let found = full(
        r#"[1]"#,
        r#"{"threw":true,"message":"a"}"#,
        r#"{"threw":true,"message":"b"}"#,
    );
    assert_eq!(
        found.summary,
        r#"the port threw "b" where the golden threw "a""#
    );
    assert_eq!(
        found.signature.unwrap().text,
        "(no op): different at /message (golden string, port string)"
    );
    assert_eq!(found.label, "#4");

    let found = full(r#"{"op":"x"}"#, r#"[[1,2],[3]]"#, r#"[[1,2],[4,5]]"#);
    assert_eq!(found.summary, "different at /1/0 and 1 more path");
    assert_eq!(
        found.signature.unwrap().text,
        "x: different at /*/* (golden number, port number)"
    );
}

#[test]
fn secrets_are_masked_in_details_but_never_in_labels() {
    let case = r#"{"op":"sum","name":"tok-case","options":{"token":"tok-case"}}"#;
    let found = full(
        case,
        r#"["--token","tok-case","--cwd","/a"]"#,
        r#"["--token","tok-case","--cwd","/b"]"#,
    );
    assert_eq!(found.label, "#4 sum \"tok-case\"");
    assert_eq!(
        found.input.as_deref(),
        Some(r#"{"op":"sum","name":"<redacted>","options":{"token":"<redacted>"}}"#)
    );
    assert_eq!(
        found.golden.as_deref(),
        Some(r#"["--token","<redacted>","--cwd","/a"]"#)
    );
    let found = full(
        case,
        r#"["--token","tok-case"]"#,
        r#"["--token","tok-other"]"#,
    );
    // The golden's token is the case's own: it stays masked even where
    // it is the difference; the port's, which the case does not hold, shows.
    assert_eq!(found.paths[0].golden, Some(Value::from("<redacted>")));
    assert_eq!(found.paths[0].actual, Some(Value::from("tok-other")));
}

#[test]
fn a_port_quoting_the_case_s_token_prints_it_nowhere() {
    // Issue 18, defect 6: the sibling case showed `<redacted>`, this one
    // its token, because the token stood on the port's side only.
    let case = r#"{"op":"mask","name":"n","args":["--token","tok-Q7zx-4711"]}"#;
    let found = full(
        case,
        r#"{"defined":true,"value":["--token","<redacted>"]}"#,
        r#"{"threw":true,"message":"rejected token tok-Q7zx-4711"}"#,
    );
    let every_field = format!("{found:?}");
    assert!(!every_field.contains("Q7zx"), "{every_field}");
    assert_eq!(
        found.summary,
        r#"the port threw "rejected token <redacted>" where the golden has {"defined":true,"value":["--token","<redacted>"]}"#
    );
    assert_eq!(
        found.signature.unwrap().text,
        r#"mask: the port threw "rejected token <redacted>" where the golden has a value"#
    );
    assert_eq!(found.thrown.as_deref(), Some("rejected token <redacted>"));
    assert_eq!(
        found.input.as_deref(),
        Some(r#"{"op":"mask","name":"n","args":["--token","<redacted>"]}"#)
    );
    assert_eq!(
        found.actual.as_deref(),
        Some(r#"{"threw":true,"message":"rejected token <redacted>"}"#)
    );
}

#[test]
fn details_only_when_wanted_and_long_texts_are_cut() {
    let long = format!("[\"{}\"]", "x".repeat(ELEMENT_BYTES + 10));
    let found = record("f.json", compared("[1]", &long, "[2]"), NEEDS, None, |_| {
        false
    });
    assert_eq!(found.state, CaseState::Failed);
    assert!(found.golden.is_none() && found.input.is_none());
    let found = full("[1]", &long, "[2]");
    let golden = found.golden.unwrap();
    assert!(golden.ends_with(&format!("… ({} bytes in all)", long.len())));
    let input = full(&format!("[\"{}\"]", "y".repeat(1000)), "1", "2")
        .input
        .unwrap();
    assert_eq!(input.chars().count(), INPUT_CHARS + 1);
}

#[test]
fn oracle_failures_are_failures_with_their_input_that_a_ledger_can_accept() {
    let file = crate::corpus::cases::CaseFile::read(
        "f.json",
        br#"[1,{"op":"x","name":"n","token":"tok-1"}]"#.to_vec(),
    );
    let found = oracle_failure("f.json", &file, 1, VerdictKind::Crash, "the oracle crashed");
    assert_eq!(found.state, CaseState::Failed);
    let fingerprint = failure_fingerprint(None, VerdictKind::Crash);
    assert_eq!(found.fingerprint.as_deref(), Some(fingerprint.as_str()));
    // Its fingerprint is the kind of failure's, not the message's.
    assert_ne!(fingerprint, failure_fingerprint(None, VerdictKind::Timeout));
    assert_ne!(
        fingerprint,
        failure_fingerprint(Some(b"1"), VerdictKind::Crash)
    );
    let item = (&file.items[1], file.raw(1).unwrap());
    let judge = |ledger: &Ledger| {
        let judged = Judged {
            golden: None,
            ledger: Some(ledger),
        };
        oracle_failure_of(
            "f.json",
            1,
            Some(item),
            VerdictKind::Crash,
            "exit 139",
            judged,
        )
    };
    let entry = format!(
        "case f.json \"n\"\n  state: accepted\n  reason: r\n  fingerprint: {fingerprint}\n"
    );
    assert_eq!(
        judge(&Ledger::parse(&entry).unwrap()).state,
        CaseState::Accepted
    );
    let rule = "rule op x\n  match: crash\n  state: triaged\n  reason: recursion\n";
    let ruled = judge(&Ledger::parse(rule).unwrap());
    assert_eq!((ruled.state, ruled.rule), (CaseState::Accepted, Some(0)));
    let timeout = rule.replace("crash", "timeout");
    assert_eq!(
        judge(&Ledger::parse(&timeout).unwrap()).state,
        CaseState::New
    );
    assert_eq!(found.label, "#1 x \"n\"");
    assert_eq!(
        found.input.as_deref(),
        Some(r#"{"op":"x","name":"n","token":"<redacted>"}"#)
    );
    assert_eq!(found.signature.unwrap().text, "x: the oracle crashed");
}

#[test]
fn a_report_that_only_counts_gets_no_explanation() {
    let needs = Needs {
        semantic: false,
        explain: false,
        fingerprint: false,
        passing: false,
    };
    let found = record("f.json", compared("[1]", "1", "2"), needs, None, |_| true);
    assert_eq!(found.state, CaseState::Failed);
    assert_eq!(found.summary, "different");
    assert!(found.signature.is_none() && found.input.is_none());
    assert!(found.fingerprint.is_none());
    // A ledger decides by fingerprints: they are made for it.
    let ledger = Ledger::default();
    let found = record(
        "f.json",
        compared("[1]", "1", "2"),
        needs,
        Some(&ledger),
        |_| true,
    );
    assert_eq!(found.state, CaseState::New);
    assert!(found.fingerprint.is_some());
}

#[test]
fn the_ledger_decides_the_state() {
    let mut ledger = Ledger::default();
    let entry = |name: &str, fingerprint: String| crate::ledger::Entry {
        id: CaseId {
            file: "f.json".into(),
            key: CaseKey::Name(name.into()),
        },
        op: None,
        state: super::super::EntryState::Accepted,
        reason: "known".into(),
        verdict: None,
        paths: Vec::new(),
        fingerprint,
        comments: Vec::new(),
    };
    ledger.insert(entry("same", fingerprint(Some(b"1"), Some(b"2"))));
    ledger.insert(entry("other", "0000000000000000".into()));
    ledger.insert(entry("fixed", "0000000000000000".into()));
    let state = |name: &str, golden: &str, actual: &str, passing: bool| {
        let case = format!(r#"{{"name":"{name}"}}"#);
        let needs = Needs { passing, ..NEEDS };
        record(
            "f.json",
            compared(&case, golden, actual),
            needs,
            Some(&ledger),
            |_| true,
        )
    };
    let accepted = state("same", "1", "2", true);
    assert_eq!(accepted.state, CaseState::Accepted);
    assert_eq!(accepted.entry.as_ref().unwrap().reason, "known");
    assert_eq!(
        accepted.paths.len(),
        1,
        "explained for reports that list it"
    );
    assert!(accepted.signature.is_none() && accepted.input.is_none());
    let counted = state("same", "1", "2", false);
    assert_eq!(counted.state, CaseState::Accepted);
    assert!(
        counted.paths.is_empty(),
        "not explained for reports that do not"
    );
    assert_eq!(state("other", "1", "2", false).state, CaseState::Changed);
    let stale = state("fixed", "1", "1", false);
    assert_eq!(stale.state, CaseState::Stale);
    assert_eq!(stale.signature.unwrap().kind, "stale");
    assert!(stale.summary.contains("run `parity-diff accept --prune`"));
    assert_eq!(state("new", "1", "2", false).state, CaseState::New);
    assert_eq!(state("new", "1", "1", false).state, CaseState::Passed);
}

#[test]
fn same_value_passes_with_semantic() {
    let compared = compared("[1]", r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#);
    let found = record(
        "f.json",
        compared,
        Needs {
            semantic: true,
            explain: true,
            fingerprint: true,
            passing: true,
        },
        None,
        |_| true,
    );
    assert_eq!(found.state, CaseState::Passed);
    assert_eq!(found.verdict, VerdictKind::SameValue);
    assert_eq!(found.reasons[0].kind, "key order");
    assert!(found.signature.is_none() && found.golden.is_none());
    let found = full("[1]", r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#);
    assert_eq!(
        found.signature.unwrap().text,
        "(no op): same value, different bytes: key order at (root)"
    );
}
