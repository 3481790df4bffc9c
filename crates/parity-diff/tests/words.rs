//! One meaning per word (issue 36): a file whose failing cases are all
//! stale is not "failed"; the ops that failed every case are counted
//! without the rows that stand for no op, which are named apart.

use crate::daily_support::{Corpus, ORACLE_CMD};

#[test]
#[ignore = "needs python3"]
fn a_file_of_stale_cases_is_stale_not_failed() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.case(
        "s.json",
        r#"[{"op":"a","name":"one","throw":"x"},{"op":"a","name":"two","throw":"x"}]"#,
        r#"[{"op":"a","name":"one"},{"op":"a","name":"two"}]"#,
    );
    let accepted = corpus.run(&["accept", "--oracle", ORACLE_CMD, "--reason", "later"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    // Fixed: both entries are stale now.
    corpus.write(
        "cases/s.json",
        r#"[{"op":"a","name":"one"},{"op":"a","name":"two"}]"#,
    );
    let ran = corpus.run(&["run", "--oracle", ORACLE_CMD]);
    assert_eq!(ran.code, 1);
    let text = ran.text();
    assert!(
        text.contains("STALE s.json (2 of 2 cases stale)\n"),
        "{text}"
    );
    assert!(!text.contains("FAIL s.json"), "{text}");
}

#[test]
#[ignore = "needs python3"]
fn every_case_failed_counts_ops_and_names_the_other_rows() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.case(
        "u.json",
        r#"[{"op":"a","throw":"no"},{"op":"b","throw":"no"},{"throw":"no"},{"op":"zz","throw":"no"}]"#,
        r#"[{"op":"a"},{"op":"b"},{},{"threw":true,"message":"unknown op zz"}]"#,
    );
    let ran = corpus.run(&["run", "--oracle", ORACLE_CMD]);
    assert_eq!(ran.code, 1);
    let text = ran.text();
    assert!(
        text.contains(
            "FAIL every case of 2 ops and the (no op) row and the (unknown op) row failed \
             with the port throwing one message:"
        ),
        "{text}"
    );
}
