//! Fuzz over a corpus whose cases have no `op`: one implicit op.

use std::fs;

use crate::numbers::{parity_diff, stdout};

#[test]
fn a_corpus_without_ops_fuzzes_as_one_implicit_op() {
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
