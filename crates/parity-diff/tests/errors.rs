//! A suite's error protocol: a result that threw, by the suite's
//! `error-flag` and `error-message`, is reported, grouped and matched by
//! rules as one that threw.

use std::fs;

use crate::numbers::{parity_diff, project, stdout};

const CASES: &str = r#"[{"name":"a"},{"name":"b"},{"name":"c"}]"#;
const GOLDEN: &str = "[\n{\"value\":1},\n{\"value\":2},\n{\"value\":3}\n]\n";
const RESULTS: &str = r#"[{"error":"not implemented"},{"error":"not implemented"},{"value":3}]"#;
const KEYS: &str = "error-flag = \"/error\"\nerror-message = \"/error\"";

#[test]
fn the_suite_s_protocol_says_what_threw() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), CASES, GOLDEN, RESULTS, KEYS);
    let output = parity_diff(dir.path(), &["run"]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains(r#"the port threw "not implemented" where the golden has a value"#),
        "{text}"
    );
    let json = stdout(&parity_diff(dir.path(), &["run", "--format", "json"]));
    assert!(json.contains(r#""thrown":"not implemented""#), "{json}");

    // By the default protocol the same results are only different values.
    project(dir.path(), CASES, GOLDEN, RESULTS, "");
    let text = stdout(&parity_diff(dir.path(), &["run"]));
    assert!(!text.contains("the port threw"), "{text}");
}

#[test]
fn match_threw_and_accept_rule_work_through_the_protocol() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), CASES, GOLDEN, RESULTS, KEYS);
    fs::write(
        dir.path().join("parity-ledger.txt"),
        "rule op *\n  match: threw \"not implemented\"\n  state: accepted\n  reason: not ported\n",
    )
    .unwrap();
    let output = parity_diff(dir.path(), &["run"]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));

    fs::remove_file(dir.path().join("parity-ledger.txt")).unwrap();
    let accept = parity_diff(dir.path(), &["accept", "--rule", "--reason", "not ported"]);
    assert_eq!(accept.status.code(), Some(0), "{}", stdout(&accept));
    let ledger = fs::read_to_string(dir.path().join("parity-ledger.txt")).unwrap();
    assert!(
        ledger.contains("match: threw \"not implemented\""),
        "{ledger}"
    );
    assert_eq!(parity_diff(dir.path(), &["run"]).status.code(), Some(0));
}

#[test]
fn one_cause_makes_one_group_whatever_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let results = r#"[{"threw":true,"message":"index 3 out of bounds"},{"threw":true,"message":"index 7 out of bounds"},{"threw":true,"message":"cannot index \"x\" at line 2, column 10"}]"#;
    project(dir.path(), CASES, GOLDEN, results, "");
    let text = stdout(&parity_diff(dir.path(), &["run"]));
    assert!(
        text.contains(r#"FAIL [2 cases] (no op): the port threw "index # out of bounds" where the golden has a value"#),
        "{text}"
    );
    assert!(
        text.contains(
            r#"FAIL [1 case] (no op): the port threw "cannot index \"…\" at line #, column #""#
        ),
        "{text}"
    );
    // Each case still shows its own message.
    assert!(
        text.contains(r#"the port threw "index 7 out of bounds""#),
        "{text}"
    );
}

#[test]
fn a_cause_is_the_messages_first_line_its_values_masked() {
    let dir = tempfile::tempdir().unwrap();
    let cases = r#"[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"},{"name":"e"}]"#;
    let golden = "[\n1,\n2,\n3,\n4,\n5\n]\n";
    // A diagnostic quoting each program under its cause; one error value
    // quoted whole; arrays and JSON's literals as values.
    let results = concat!(
        r#"[{"threw":true,"message":"Error: undefined filter\n1 | path(.a)\n  ^^^^"},"#,
        r#"{"threw":true,"message":"Error: undefined filter\n1 | setpath([1]; 2)\n  ^^^^^^^"},"#,
        r#"{"threw":true,"message":"Error: \"index 2 out of bounds\""},"#,
        r#"{"threw":true,"message":"cannot index [1,2,3] with null"},"#,
        r#"{"threw":true,"message":"cannot index [4] with true"}]"#
    );
    project(dir.path(), cases, golden, results, "");
    let text = stdout(&parity_diff(dir.path(), &["run"]));
    for group in [
        r#"FAIL [2 cases] (no op): the port threw "Error: undefined filter…" where the golden has a value"#,
        r#"FAIL [2 cases] (no op): the port threw "cannot index […] with #" where the golden has a value"#,
        r#"FAIL [1 case] (no op): the port threw "Error: \"index # out of bounds\"" where the golden has a value"#,
    ] {
        assert!(text.contains(group), "{group}\n{text}");
    }
    // Each case still shows its whole message.
    assert!(text.contains(r#"1 | setpath([1]; 2)"#), "{text}");
}
