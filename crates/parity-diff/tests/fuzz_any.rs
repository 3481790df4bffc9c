//! Fuzz over a corpus whose cases have no `op`: one implicit op.

use std::fs;

use crate::numbers::{parity_diff, stdout};

#[test]
#[ignore = "needs python3"]
fn a_corpus_without_ops_fuzzes_as_one_implicit_op() {
    crate::support::require_python3();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("cases")).unwrap();
    fs::write(root.join("cases/c.json"), r#"[{"x":1},{"x":[2,3]}]"#).unwrap();
    // Both sides answer with each case's length as JSON text: the same.
    let side = "python3 -c 'import json,sys; print(json.dumps([len(json.dumps(c)) for c in json.load(sys.stdin)]))'";
    let output = parity_diff(
        root,
        &[
            "fuzz",
            "--no-config",
            "--left",
            side,
            "--right",
            side,
            "--seed",
            "1",
            "--count",
            "50",
            "--batch-size",
            "25",
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let text = format!("{}{stderr}", stdout(&output));
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(text.contains("50 cases"), "{text}");
    assert!(text.contains("0 diverged"), "{text}");
}

#[test]
#[ignore = "needs python3"]
fn no_minimize_keeps_findings_as_found_and_says_so() {
    crate::support::require_python3();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("cases")).unwrap();
    fs::write(
        root.join("cases/c.json"),
        r#"[{"x":[1,2,3],"y":"long text"}]"#,
    )
    .unwrap();
    let side = |answer: u8| {
        format!("python3 -c 'import json,sys; print(json.dumps([{answer} for c in json.load(sys.stdin)]))'")
    };
    let (left, right) = (side(0), side(1));
    let fuzz = |extra: &[&str]| {
        let mut args = vec![
            "fuzz",
            "--no-config",
            "--left",
            &left,
            "--right",
            &right,
            "--seed",
            "3",
            "--count",
            "20",
            "--batch-size",
            "10",
            "--out",
            "found",
        ];
        args.extend_from_slice(extra);
        let output = parity_diff(root, &args);
        assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
        stdout(&output)
    };
    let kept = fuzz(&["--no-minimize"]);
    assert!(kept.contains("1 finding kept as found"), "{kept}");
    assert!(
        kept.contains("minimizing: 0 oracle runs, 1 finding kept as found"),
        "{kept}"
    );
    // Minimized, the finding is the smallest case with the divergence.
    let minimized = fuzz(&["--shrink-budget", "100"]);
    assert!(minimized.contains("minimized: {}"), "{minimized}");
    assert!(
        minimized.contains("(budget: 100× the session's 4 runs)"),
        "{minimized}"
    );
    assert!(!minimized.contains("kept as found"), "{minimized}");
    let bad = parity_diff(root, &["fuzz", "--shrink-budget", "0"]);
    assert_eq!(bad.status.code(), Some(2));
}
