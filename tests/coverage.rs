//! `parity-diff coverage` and `parity-diff cmin` on a small Node
//! reference of the tests' own (tests/fixtures/coverage: a reference in
//! two files, one op that starts a child process, a corpus of seven
//! cases; and a bundled reference with a source map). Each test copies
//! the fixture into a temporary directory and runs there, so paths are
//! relative and an allowlist can be written.

use crate::support;

use crate::parity_diff_support as parity_support;

use std::path::Path;
use std::time::Duration;

use parity_diff::base::glob::Glob;
use parity_diff::corpus::Corpus;
use parity_diff::coverage::collect::run_batch;
use parity_diff::coverage::measure::{measure, Selection};
use parity_diff::coverage::novelty::Reached;
use parity_diff::exec::oracle::OracleOptions;
use parity_support::{run, write, Ran};
use serde_json::Value;
use support::require_node;

const REFERENCE: &str = "node reference.mjs";

/// A copy of `tests/fixtures/coverage/<from>` in a temporary directory.
fn fixture(from: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let source = support::repo_root()
        .join("tests/fixtures/coverage")
        .join(from);
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        let relative = entry.path().strip_prefix(&source).unwrap();
        if entry.file_type().is_file() && !relative.starts_with("bundle") {
            write(
                dir.path().join(relative),
                std::fs::read(entry.path()).unwrap(),
            );
        }
    }
    dir
}

fn coverage(dir: &Path, args: &[&str]) -> Ran {
    let mut full = vec!["coverage", "--reference", REFERENCE];
    full.extend_from_slice(args);
    run(dir, &full)
}

fn json(ran: &Ran) -> Value {
    serde_json::from_str(&ran.stdout).unwrap_or_else(|error| {
        panic!("not JSON ({error}): {}\nstderr: {}", ran.stdout, ran.stderr)
    })
}

/// The never-run spans of a JSON report: (function, at, allowlisted).
fn never_run(report: &Value) -> Vec<(String, String, bool)> {
    report["neverRun"]
        .as_array()
        .unwrap()
        .iter()
        .map(|span| {
            (
                span["function"].as_str().unwrap().to_owned(),
                span["at"].as_str().unwrap().to_owned(),
                !span["allowlisted"].is_null(),
            )
        })
        .collect()
}

/// The span of a script whose text is `text`.
fn span<'a>(report: &'a Value, script: &str, text: &str) -> &'a Value {
    let script = report["scripts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == script)
        .unwrap_or_else(|| panic!("no script {script}"));
    script["spans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|span| span["text"] == text)
        .unwrap_or_else(|| panic!("no span {text:?} in {script}"))
}

#[test]
#[ignore = "needs node"]
fn exact_span_counts_with_a_file_and_a_function_never_run() {
    require_node();
    let dir = fixture("");
    let ran = coverage(dir.path(), &["--format", "json"]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report = json(&ran);
    let summary = &report["summary"];
    assert_eq!(summary["cases"], 7);
    assert_eq!(summary["spans"], 24);
    assert_eq!(summary["reached"], 22);
    assert_eq!(summary["neverRun"], 2);
    // A file whose one function no case calls, and a function that
    // nothing calls in the other file.
    assert_eq!(
        never_run(&report),
        [
            ("whisper".into(), "helper.mjs:6".into(), false),
            ("unused".into(), "reference.mjs:19".into(), false)
        ]
    );
    let whisper = span(
        &report,
        "helper.mjs",
        "function whisper(text) {\n  return String(text).toLowerCase() + \"…\";\n}",
    );
    assert_eq!(whisper["cases"], 0);
    assert_eq!(
        report["byOp"]["double"],
        serde_json::json!({"cases": 2, "functions": 4, "spans": 17, "reached": 11, "neverRun": 0, "otherOps": 6})
    );
    assert_eq!(report["byOp"]["shout"]["functions"], 4);
    let human = coverage(dir.path(), &[]);
    assert_eq!(
        human.last_line(),
        "22 of 24 spans reached (91%) by 7 cases; 2 never run: 0 allowlisted, 2 not; 0 stale allowlist entries"
    );
    assert!(
        human.stdout.contains("  unused  reference.mjs:19\n"),
        "{}",
        human.stdout
    );
}

#[test]
#[ignore = "needs node"]
fn nested_ranges_merge_within_a_process_and_add_up_across_processes() {
    require_node();
    let dir = fixture("");
    // Alone, the small cases run `double` but never its block: V8 says
    // so with a range of count 0 inside the function's.
    let small = json(&coverage(
        dir.path(),
        &["--format", "json", "--filter", "small.json"],
    ));
    let block = "{\n    return \"big\";\n  }";
    assert_eq!(span(&small, "reference.mjs", block)["cases"], 0);
    let rest = span(&small, "reference.mjs", "\n  return n * 2;\n}");
    assert_eq!(rest["reachedBy"], serde_json::json!([[0, 2]]));
    // The child case (the second of more.json, which comes first) runs
    // `double` only in the process it starts: the block is reached, by
    // that case and no other, and the rest of `double` by the small ones.
    let all = json(&coverage(dir.path(), &["--format", "json"]));
    let cases = all["cases"].as_array().unwrap();
    assert_eq!(cases[1]["name"], "child: big, in a child process");
    assert_eq!(
        span(&all, "reference.mjs", block)["reachedBy"],
        serde_json::json!([[1, 2]])
    );
    let doubled = span(&all, "reference.mjs", "\n  return n * 2;\n");
    assert_eq!(doubled["reachedBy"], serde_json::json!([[3, 5]]));
    let first = span(
        &all,
        "reference.mjs",
        "function double(n) {\n  if (n > 10) ",
    );
    assert_eq!(first["reachedBy"], serde_json::json!([[1, 2], [3, 5]]));
}

/// An allowlist naming every never-run span of a report.
fn allowlist_of(report: &Value) -> String {
    report["neverRun"]
        .as_array()
        .unwrap()
        .iter()
        .map(|span| {
            let function = serde_json::to_string(&span["function"]).unwrap();
            let hash = span["hash"].as_str().unwrap();
            format!("span {function} {hash}\n  reason: the test says so\n\n")
        })
        .collect()
}

#[test]
#[ignore = "needs node"]
fn check_fails_and_passes_once_the_allowlist_is_updated() {
    require_node();
    let dir = fixture("");
    let small = ["--filter", "small.json"];
    let failed = coverage(dir.path(), &[&small[..], &["--check"]].concat());
    assert_eq!(failed.code, 1, "{}", failed.stdout);
    assert!(failed
        .stdout
        .contains("UNRUN        reference.mjs:19  function unused()"));
    assert!(failed.stdout.contains("check failed"));
    // The allowlist, beside the cases, names each never-run span.
    let report = json(&coverage(
        dir.path(),
        &[&small[..], &["--format", "json"]].concat(),
    ));
    write(
        dir.path().join("coverage-allowlist.txt"),
        allowlist_of(&report),
    );
    let passed = coverage(dir.path(), &[&small[..], &["--check"]].concat());
    assert_eq!(passed.code, 0, "{}", passed.stdout);
    assert!(
        passed.last_line().contains("0 not; 0 stale"),
        "{}",
        passed.last_line()
    );
    // The whole corpus reaches the big block, `?? "world"` and the child
    // op: their entries are stale now.
    let stale = coverage(dir.path(), &["--check"]);
    assert_eq!(stale.code, 1, "{}", stale.stdout);
    assert!(
        stale.stdout.contains("STALE span \"double\""),
        "{}",
        stale.stdout
    );
    assert!(stale.stdout.contains("STALE span \"greet\""));
    // Without --check the same report exits 0.
    assert_eq!(coverage(dir.path(), &[]).code, 0);
}

#[test]
#[ignore = "needs node"]
fn cmin_finds_a_known_redundant_case_and_deletes_nothing() {
    require_node();
    let dir = fixture("");
    let before = std::fs::read(dir.path().join("cases/small.json")).unwrap();
    let ran = run(
        dir.path(),
        &["cmin", "--reference", REFERENCE, "--format", "json"],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report = json(&ran);
    // "double: small again" reaches exactly what "double: small" does;
    // "greet: a name" skips the `?? "world"` that "greet: nobody" runs,
    // and V8 has no span for a branch not taken.
    assert_eq!(
        report["drop"],
        serde_json::json!([
            {"file": "small.json", "name": "double: small again", "op": "double", "line": 3},
            {"file": "small.json", "name": "greet: a name", "op": "greet", "line": 4}
        ])
    );
    assert_eq!(report["summary"]["kept"], 5);
    assert_eq!(
        std::fs::read(dir.path().join("cases/small.json")).unwrap(),
        before
    );
    let human = run(dir.path(), &["cmin", "--reference", REFERENCE]);
    assert!(human
        .stdout
        .contains("  drop small.json:3 small.json \"double: small again\"\n"));
    assert_eq!(
        human.last_line(),
        "5 of 7 cases keep the same per-op coverage; 2 could be dropped (nothing was deleted)"
    );
}

#[test]
#[ignore = "needs node"]
fn a_bundled_reference_is_reported_in_its_original_source() {
    require_node();
    let dir = tempfile::tempdir().unwrap();
    let source = support::repo_root().join("tests/fixtures/coverage/bundle");
    for file in [
        "src/main.ts",
        "dist/bundle.js",
        "dist/bundle.js.map",
        "cases/small.json",
    ] {
        write(
            dir.path().join(file),
            std::fs::read(source.join(file)).unwrap(),
        );
    }
    let ran = run(
        dir.path(),
        &[
            "coverage",
            "--reference",
            "node dist/bundle.js",
            "--format",
            "json",
        ],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report = json(&ran);
    assert_eq!(
        never_run(&report),
        [("double".into(), "src/main.ts:3".into(), false)]
    );
    assert_eq!(report["scripts"][0]["name"], "dist/bundle.js");
    assert_eq!(report["scripts"][0]["sourceMap"], true);
}

/// What a coverage-guided fuzzer calls (issue 22, `fuzz --grow`): the
/// corpus measured once, then any batch run with coverage on, and what it
/// reaches beyond the corpus, named by function and line.
#[test]
#[ignore = "needs node"]
fn a_batch_run_with_coverage_tells_what_it_reaches_beyond_the_corpus() {
    require_node();
    let dir = fixture("");
    let limits = OracleOptions::new(Duration::from_secs(60), 64 << 20);
    let selection = Selection {
        reference: format!("node {}/reference.mjs", dir.path().display()),
        corpus: Corpus {
            cases: dir.path().join("cases"),
            golden: std::path::PathBuf::new(),
            filter: Some(Glob::new("small.json").unwrap()),
            shard: None,
        },
        ops: Vec::new(),
        limits,
        jobs: 1,
    };
    let measured = measure(&selection).unwrap();
    let known = &measured.reached;
    // Greeting nobody runs the `?? "world"` that the small cases never do.
    let ran = run_batch(&selection.reference, br#"[{"op":"greet"}]"#, limits);
    assert!(ran.failure.is_none(), "{:?}", ran.failure);
    let new = Reached::of(&ran.coverage.unwrap()).beyond(known);
    let (url, start, end) = new.first().expect("something new");
    assert_eq!(new.intervals().count(), 1);
    let script = measured.scripts.iter().find(|s| s.url == url).unwrap();
    assert_eq!(script.source.text(start, end), "?? \"world\"");
    let (function, at) = script.function_at(start).unwrap();
    assert_eq!((function, at.line), ("greet", 16));
    assert!(at.file.ends_with("/reference.mjs"), "{at}");
    // Doubling again reaches nothing the corpus does not.
    let again = run_batch(&selection.reference, br#"[{"op":"double","n":4}]"#, limits);
    assert!(Reached::of(&again.coverage.unwrap())
        .beyond(known)
        .is_empty());
}
