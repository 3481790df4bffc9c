//! `parity-diff run` with the worker-spawn oracle as `--oracle` (the
//! support gives it): it runs as a command like any other, and the
//! bundled corpus passes. Its behaviour with any other oracle is
//! parity-diff's own tests' (crates/parity-diff/tests/run.rs).

use crate::parity_diff_support as support;

use std::path::Path;

use support::{golden_of, run, Corpus};

/// The `worker-spawn-oracle` binary, given as `--oracle` by the support,
/// runs as a command like any other.
#[test]
fn our_own_oracle_binary_runs_by_default() {
    let corpus = Corpus::new();
    corpus.case("a.json", r#"[5, {"op":"nope"}]"#).golden(
        "a.json",
        &golden_of(&[
            r#"{"threw":true,"message":"case must be a JSON object"}"#,
            r#"{"threw":true,"message":"unknown op nope"}"#,
        ]),
    );
    let ran = corpus.run(&["run", "--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "2 passed, 0 failed\n"));
    // A case file our oracle refuses is an input error for that file,
    // with the oracle's own words.
    corpus.case("bad.json", "{}").golden("bad.json", "[]\n");
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR bad.json: the oracle exited with status 2"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("batch refused: standard input is not a JSON array"),
        "{}",
        ran.stdout
    );
}

#[test]
fn the_repository_corpus_passes_with_our_oracle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("cases").is_dir() {
        eprintln!("no cases/ in the repository yet: nothing to run");
        return;
    }
    let ran = run(root, &["run", "--quiet"]);
    let line = ran.last_line();
    assert!(
        line.ends_with(" failed") || line.contains(" failed, "),
        "{ran:?}"
    );
    assert_eq!(
        ran.code, 0,
        "run `parity-diff run` in the repository root: {line}"
    );
}
