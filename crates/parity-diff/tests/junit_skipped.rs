//! JUnit tells the truth (issue 36): a case the ledger accepts or
//! triages is `<skipped>`, what its entry or rule says (and its link)
//! the message; `failures` counts what fails the run, so a green run
//! stays green, and `tests - skipped - failures` is what is identical.

use crate::daily_support::{Corpus, ORACLE_CMD};
use crate::reports::mixed;

fn attribute<'a>(xml: &'a str, tag: &str, name: &str) -> &'a str {
    let at = xml.find(tag).unwrap_or_else(|| panic!("no {tag} in {xml}"));
    let rest = &xml[at..];
    let key = format!(" {name}=\"");
    let start = rest.find(&key).unwrap() + key.len();
    let end = rest[start..].find('"').unwrap();
    &rest[start..start + end]
}

#[test]
#[ignore = "needs python3"]
fn accepted_and_triaged_cases_are_skipped_with_their_reason_and_link() {
    crate::support::require_python3();
    let corpus = mixed();
    let ran = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "junit"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let xml = ran.text();
    assert!(
        xml.contains(
            "<skipped message=\"triaged (https://example.com/issues/7): mul throws the wrong message\"/>"
        ),
        "{xml}"
    );
    assert!(
        xml.contains("<skipped message=\"accepted: mul rounds differently on purpose\"/>"),
        "{xml}"
    );
    // m1, m2 (a.json), d1 (b.json, a crash a rule accepts).
    assert_eq!(attribute(&xml, "<testsuites ", "skipped"), "3", "{xml}");
    assert_eq!(
        attribute(&xml, "<testsuite name=\"a.json\"", "skipped"),
        "2"
    );
    assert_eq!(
        attribute(&xml, "<testsuite name=\"b.json\"", "skipped"),
        "1"
    );
    // a2, a3 (new), b1 (stale), z1 (new).
    assert_eq!(attribute(&xml, "<testsuites ", "failures"), "4", "{xml}");
}

#[test]
#[ignore = "needs python3"]
fn a_green_run_with_accepted_cases_has_no_failure_and_counts_them_skipped() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"a","name":"same"},{"op":"b","name":"off","throw":"not implemented"}]"#,
        r#"[{"op":"a","name":"same"},{"op":"b","name":"off"}]"#,
    );
    corpus.write(
        "parity-ledger.txt",
        "rule op b\n  match: threw \"not implemented\"\n  state: accepted\n  reason: not ported\n",
    );
    let ran = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "junit"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let xml = ran.text();
    assert_eq!(attribute(&xml, "<testsuites ", "tests"), "2");
    assert_eq!(attribute(&xml, "<testsuites ", "failures"), "0");
    assert_eq!(attribute(&xml, "<testsuites ", "skipped"), "1");
    assert!(
        xml.contains("<skipped message=\"accepted: not ported\"/>"),
        "{xml}"
    );
    // The identical case has no body at all.
    assert!(xml.contains("<testcase name=\"a.json &quot;same&quot;\" classname=\"a.json\" file=\"cases/a.json\" line=\"1\"/>"), "{xml}");
}
