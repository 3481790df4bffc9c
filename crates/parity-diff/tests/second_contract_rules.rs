//! The rules a second contract needs: number spelling alone, a value
//! where the golden threw, a message glob; `accept --rule` proposing
//! them; and `accept --case` taking one case.

use std::fs;
use std::path::Path;

use crate::numbers::{parity_diff, project, stdout};

fn ledger(dir: &Path) -> String {
    fs::read_to_string(dir.join("parity-ledger.txt")).unwrap_or_default()
}

fn accept_rule(dir: &Path) {
    let accept = parity_diff(dir, &["accept", "--rule", "--reason", "known"]);
    assert_eq!(accept.status.code(), Some(0), "{}", stdout(&accept));
    let run = parity_diff(dir, &["run"]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
}

#[test]
fn accept_rule_proposes_a_glob_for_one_cause_with_varying_values() {
    let dir = tempfile::tempdir().unwrap();
    let cases = r#"[{"name":"a"},{"name":"b"}]"#;
    let golden = "[\n[1],\n[2]\n]\n";
    let results = r#"[{"threw":true,"message":"index 3 out of bounds"},{"threw":true,"message":"index 7 out of bounds"}]"#;
    project(dir.path(), cases, golden, results, "");
    accept_rule(dir.path());
    let written = ledger(dir.path());
    assert!(
        written.contains("match: threw-like \"index * out of bounds\""),
        "{written}"
    );
    assert!(!written.contains("case "), "{written}");
}

#[test]
fn accept_rule_proposes_returned_threw_and_spelling() {
    for (golden, results, expected) in [
        (
            "[\n{\"threw\":true,\"message\":\"no\"},\n{\"threw\":true,\"message\":\"nope\"}\n]\n",
            "[1,2]",
            "match: returned",
        ),
        (
            "[\n1,\n2\n]\n",
            r#"[{"threw":true,"message":"no"},{"threw":true,"message":"bad"}]"#,
            "match: threw\n",
        ),
        ("[\n1,\n[2]\n]\n", "[1.0,[2e0]]", "match: spelling"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        project(
            dir.path(),
            r#"[{"name":"a"},{"name":"b"}]"#,
            golden,
            results,
            "",
        );
        accept_rule(dir.path());
        let written = ledger(dir.path());
        assert!(written.contains(expected), "{expected:?} in {written}");
    }
}

#[test]
fn accept_case_takes_one_case_by_file_and_name() {
    let dir = tempfile::tempdir().unwrap();
    let cases = r#"[{"name":"a: first"},{"name":"b"}]"#;
    project(dir.path(), cases, "[\n1,\n2\n]\n", "[3,4]", "");
    let accept = parity_diff(
        dir.path(),
        &["accept", "--case", "c.json:a: first", "--reason", "known"],
    );
    assert_eq!(accept.status.code(), Some(0), "{}", stdout(&accept));
    let written = ledger(dir.path());
    assert!(written.contains("case c.json \"a: first\""), "{written}");
    assert!(!written.contains("\"b\""), "{written}");
    // A case that does not diverge (or does not exist) is an error.
    let missing = parity_diff(
        dir.path(),
        &["accept", "--case", "c.json:zz", "--reason", "x"],
    );
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no new or changed divergence"), "{stderr}");
    let malformed = parity_diff(dir.path(), &["accept", "--case", "c.json", "--reason", "x"]);
    assert_eq!(malformed.status.code(), Some(2));
}

#[test]
fn accept_rule_proposes_a_glob_of_a_causes_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = r#"[{"name":"a"},{"name":"b"}]"#;
    let golden = "[\n[1],\n[2]\n]\n";
    let results = r#"[{"threw":true,"message":"Error: undefined filter\n1 | path(.a)"},{"threw":true,"message":"Error: undefined filter\n1 | setpath([1]; null)"}]"#;
    project(dir.path(), cases, golden, results, "");
    accept_rule(dir.path());
    let written = ledger(dir.path());
    assert!(
        written.contains("match: threw-like \"Error: undefined filter*\""),
        "{written}"
    );
    assert!(!written.contains("case "), "{written}");

    // One message of two lines: a rule cannot hold it as written.
    let dir = tempfile::tempdir().unwrap();
    let results =
        r#"[{"threw":true,"message":"boom\nat x"},{"threw":true,"message":"boom\nat x"}]"#;
    project(dir.path(), cases, golden, results, "");
    accept_rule(dir.path());
    let written = ledger(dir.path());
    assert!(written.contains("match: threw-like \"boom*\""), "{written}");
}
