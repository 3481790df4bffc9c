//! `run --rerun-failed REPORT.json` on the bundled corpus with the
//! example partial port. Its behaviour on small corpora is parity-diff's
//! own tests' (crates/parity-diff/tests/rerun.rs).

use crate::parity_diff_support as support;

use std::collections::BTreeSet;

use support::report::Report;

/// The bundled corpus and the example partial port: the rerun of its
/// report takes exactly the 1269 cases that failed, and with --op the
/// op's own.
#[test]
#[ignore = "needs python3"]
fn the_example_port_s_failures_rerun_over_the_bundled_corpus() {
    support::require_python3();
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report.json");
    let root = support::root();
    let port = support::EXAMPLE_PORT;
    let whole = support::run(root, &["run", "--oracle", port, "--format", "json"]);
    assert_eq!(whole.code, 1, "{}", whole.stderr);
    support::write(&report, &whole.stdout);
    let parse = |text: &str| {
        let text = text.to_owned();
        // Reports of the bundled corpus hold deeply nested values.
        std::thread::Builder::new()
            .stack_size(256 * 1024 * 1024)
            .spawn(move || Report::read(&text))
            .unwrap()
            .join()
            .unwrap()
    };
    let failing = |report: &Report, op: Option<&str>| -> BTreeSet<String> {
        report
            .cases()
            .filter(|case| {
                !case.state.passes() && op.is_none_or(|op| case.op.as_deref() == Some(op))
            })
            .map(|case| case.id.to_string())
            .collect()
    };
    let first = parse(&whole.stdout);
    let failed = failing(&first, None);
    assert_eq!(failed.len(), 1269);
    let path = report.to_str().unwrap();
    let again = support::run(
        root,
        &[
            "run",
            "--oracle",
            port,
            "--rerun-failed",
            path,
            "--format",
            "json",
        ],
    );
    assert_eq!(again.code, 1, "{}", again.stderr);
    assert_eq!(
        again.stderr,
        // The repository's parity.toml names the corpus's suite.
        format!("parity-diff: rerun: suite worker-spawn: 1269 cases selected from {path}; the report's cases taken: 1269 failed\n")
    );
    let rerun = parse(&again.stdout);
    let ids: BTreeSet<String> = rerun.cases().map(|case| case.id.to_string()).collect();
    assert_eq!(ids, failed);
    assert_eq!(failing(&rerun, None), failed);
    let by_op = support::run(
        root,
        &[
            "run",
            "--oracle",
            port,
            "--rerun-failed",
            path,
            "--op",
            "readyTimeoutMs",
            "--format",
            "json",
        ],
    );
    let only = failing(&first, Some("readyTimeoutMs"));
    assert!(!only.is_empty());
    assert_eq!(
        by_op.stderr,
        format!(
            "parity-diff: rerun: suite worker-spawn: {} selected from {path}; the report's cases taken: 1269 failed\n",
            match only.len() {
                1 => "1 case".to_owned(),
                n => format!("{n} cases"),
            }
        )
    );
    let ids: BTreeSet<String> = parse(&by_op.stdout)
        .cases()
        .map(|case| case.id.to_string())
        .collect();
    assert_eq!(ids, only);
}
