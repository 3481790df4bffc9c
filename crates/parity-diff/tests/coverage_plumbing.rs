//! `parity-diff coverage`, `cmin` and `fuzz --grow` as far as they need
//! no Node: a reference that writes no coverage, or none given, and an
//! allowlist or a format that is refused before anything runs. What they
//! measure with a Node reference is the root package's tests
//! (tests/coverage.rs, tests/coverage_grow.rs), which run node.

use crate::support::{run, write};

#[test]
fn a_reference_that_writes_no_coverage_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path().join("cases/a.json"), "[{\"op\":\"x\"}]");
    let ran = run(dir.path(), &["coverage", "--reference", "printf '[0]'"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("the reference wrote no coverage") && ran.stderr.contains("Node"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stdout, "");
}

#[test]
fn a_bad_allowlist_or_format_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path().join("cases/a.json"), "[{\"op\":\"x\"}]");
    write(
        dir.path().join("coverage-allowlist.txt"),
        "span \"f\" 0123456789ab\n  at: x:1\n",
    );
    // `false` would fail every run: the allowlist is refused first.
    let ran = run(dir.path(), &["coverage", "--reference", "false"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("allowlist coverage-allowlist.txt line 1: an entry needs a reason"),
        "{}",
        ran.stderr
    );
    let junit = run(
        dir.path(),
        &["coverage", "--reference", "false", "--format", "junit"],
    );
    assert_eq!(junit.code, 2);
    assert!(junit
        .stderr
        .contains("coverage reports in human, json, markdown or html format only"));
    let html = run(
        dir.path(),
        &["cmin", "--reference", "false", "--format", "html"],
    );
    assert_eq!(html.code, 2);
    assert!(html
        .stderr
        .contains("cmin reports in human or json format only"));
}

#[test]
fn a_reference_that_writes_no_coverage_or_none_given_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path().join("cases/a.json"), "[{\"op\":\"x\"}]");
    let ran = run(
        dir.path(),
        &[
            "fuzz",
            "--grow",
            "grown",
            "--reference",
            "printf '[0]'",
            "--seed",
            "1",
        ],
    );
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("the reference wrote no coverage")
            && ran
                .stderr
                .contains("`fuzz --grow` needs a reference that runs on Node"),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stdout, "");
    assert!(!dir.path().join("grown").exists());
    let none = run(dir.path(), &["fuzz", "--no-config", "--grow", "grown"]);
    assert_eq!(none.code, 2);
    assert!(
        none.stderr
            .contains("fuzz --grow runs a Node reference with coverage on: give --reference CMD"),
        "{}",
        none.stderr
    );
    let junit = run(
        dir.path(),
        &[
            "fuzz",
            "--grow",
            "grown",
            "--reference",
            "false",
            "--format",
            "junit",
        ],
    );
    assert!(
        junit
            .stderr
            .contains("fuzz --grow reports in human or json format only"),
        "{}",
        junit.stderr
    );
    let stray = run(dir.path(), &["fuzz", "--reference", "node r.mjs"]);
    assert_eq!(stray.code, 2);
    assert!(stray.stderr.contains("--grow"), "{}", stray.stderr);
}
