//! `--rerun-failed` reruns what the report says is not done (issue 36):
//! failed, new, changed, stale and triaged cases, and says which kinds
//! it took; `--rerun-only-failed` keeps to the cases that fail.

use crate::daily_support::ORACLE_CMD;
use crate::reports::mixed;

#[test]
#[ignore = "needs python3"]
fn a_rerun_takes_the_triaged_cases_and_names_the_kinds() {
    crate::support::require_python3();
    let corpus = mixed();
    let report = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "json"]);
    corpus.write("last.json", &report.text());
    let rerun = corpus.run(&[
        "run",
        "--oracle",
        ORACLE_CMD,
        "--rerun-failed",
        "last.json",
        "--format",
        "json",
    ]);
    assert_eq!(rerun.code, 1, "{}", rerun.stderr);
    assert!(
        rerun.stderr.contains(
            "rerun: 5 cases selected from last.json; the report's cases taken: \
             3 new, 1 stale, 1 triaged"
        ),
        "{}",
        rerun.stderr
    );
    let json = rerun.text();
    assert!(
        json.contains(r#""name":"m2""#),
        "the triaged case runs again"
    );
    assert!(
        !json.contains(r#""name":"m1""#),
        "an accepted case does not"
    );

    let strict = corpus.run(&[
        "run",
        "--oracle",
        ORACLE_CMD,
        "--rerun-failed",
        "last.json",
        "--rerun-only-failed",
        "--format",
        "json",
    ]);
    assert!(
        strict.stderr.contains(
            "rerun: 4 cases selected from last.json; the report's cases taken: 3 new, 1 stale"
        ),
        "{}",
        strict.stderr
    );
    assert!(!strict.text().contains(r#""name":"m2""#));
}

#[test]
#[ignore = "needs python3"]
fn a_fixed_triaged_bug_is_rerun_when_nothing_else_failed() {
    crate::support::require_python3();
    let corpus = crate::daily_support::Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"a","name":"x"},{"op":"b","name":"bug","throw":"wrong"}]"#,
        r#"[{"op":"a","name":"x"},{"op":"b","name":"bug"}]"#,
    );
    corpus.write(
        "parity-ledger.txt",
        "rule op b\n  match: threw \"wrong\"\n  state: triaged https://example.com/1\n  reason: bug\n",
    );
    let report = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "json"]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    corpus.write("last.json", &report.text());
    // The bug is fixed: the rerun sees its rule go stale, not "nothing
    // to run".
    corpus.write(
        "cases/a.json",
        r#"[{"op":"a","name":"x"},{"op":"b","name":"bug"}]"#,
    );
    let rerun = corpus.run(&["run", "--oracle", ORACLE_CMD, "--rerun-failed", "last.json"]);
    assert!(
        rerun
            .stderr
            .contains("1 case selected from last.json; the report's cases taken: 1 triaged"),
        "{}",
        rerun.stderr
    );
    assert!(rerun.text().contains("1 passed"), "{}", rerun.text());
}
