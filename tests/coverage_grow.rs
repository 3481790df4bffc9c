//! `parity-diff fuzz --grow` on the small Node reference of
//! tests/fixtures/coverage, its corpus cut down to `small.json` (which
//! never greets nobody, never doubles past 10, never starts a child):
//! the cases it keeps reach what that corpus misses, are named for it,
//! have their goldens from the reference, and `fuzz --promote` moves
//! both into the corpus, whose coverage then holds them.

use crate::support;

use crate::parity_diff_support as parity_support;

use std::path::Path;
use std::time::Duration;

use parity_diff::coverage::collect::run_batch;
use parity_diff::coverage::novelty::Reached;
use parity_diff::exec::oracle::OracleOptions;
use parity_support::{run, write, Ran};
use serde_json::Value;
use support::require_node;

const REFERENCE: &str = "node reference.mjs";

/// The fixture's reference, with `small.json` alone as its corpus.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let source = support::repo_root().join("tests/fixtures/coverage");
    for file in ["reference.mjs", "helper.mjs", "cases/small.json"] {
        write(
            dir.path().join(file),
            std::fs::read(source.join(file)).unwrap(),
        );
    }
    dir
}

fn grow(dir: &Path, extra: &[&str]) -> Ran {
    let mut args = vec![
        "fuzz",
        "--grow",
        "grown",
        "--reference",
        REFERENCE,
        "--seed",
        "1",
        "--count",
        "200",
        "--batch-size",
        "50",
    ];
    args.extend_from_slice(extra);
    run(dir, &args)
}

/// What a case array reaches in the reference, run from `dir`.
fn reached(dir: &Path, input: &[u8]) -> Reached {
    let limits = OracleOptions::new(Duration::from_secs(60), 64 << 20);
    let reference = format!("node {}/reference.mjs", dir.display());
    let ran = run_batch(&reference, input, limits);
    assert!(ran.failure.is_none(), "{:?}", ran.failure);
    Reached::of(&ran.coverage.unwrap())
}

/// The staged case files of `grown/` (not its goldens), by name.
fn staged(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("grown"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect();
    names.sort();
    names
}

#[test]
#[ignore = "needs node"]
fn kept_cases_reach_what_the_corpus_missed_with_their_names_and_goldens() {
    require_node();
    let dir = fixture();
    let ran = grow(dir.path(), &["--format", "json"]);
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    let names: Vec<&str> = report["kept"]
        .as_array()
        .unwrap()
        .iter()
        .map(|kept| kept["name"].as_str().unwrap())
        .collect();
    // Mutating `small.json` reaches `?? "world"` and the big block of
    // `double`: greeting nobody, doubling past 10. No mutation makes the
    // op `child` (an op is never changed).
    assert_eq!(
        names,
        ["greet: reaches greet:16", "double: reaches double:9"]
    );
    assert_eq!(report["kept"][0]["case"], r#"{"op":"greet"}"#);
    assert_eq!(report["kept"][0]["reaches"][0]["text"], "?? \"world\"");
    assert_eq!(report["newlyReached"], 2);
    // Each kept case, run alone, reaches what the corpus does not.
    let corpus = reached(
        dir.path(),
        &std::fs::read(dir.path().join("cases/small.json")).unwrap(),
    );
    for kept in report["kept"].as_array().unwrap() {
        let case = kept["case"].as_str().unwrap();
        let new = reached(dir.path(), format!("[{case}]").as_bytes()).beyond(&corpus);
        assert!(!new.is_empty(), "{case} reaches nothing new");
    }
    // Staged: a case file per op, each case named, its golden beside it
    // from the reference.
    let files = staged(dir.path());
    assert_eq!(files.len(), 2, "{files:?}");
    let greet = files.iter().find(|f| f.starts_with("grow-greet-")).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("grown").join(greet)).unwrap(),
        "[\n{\"name\":\"greet: reaches greet:16\",\"op\":\"greet\"}\n]\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("grown/golden").join(greet)).unwrap(),
        "[\n\"hello world\"\n]\n"
    );
    // The same seed again finds the staged cases in the corpus it starts
    // from, and keeps nothing.
    let again = grow(dir.path(), &[]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .last_line()
            .ends_with("0 of the corpus's 6 never-run spans reached, 0 cases kept"),
        "{}",
        again.last_line()
    );
    assert_eq!(staged(dir.path()), files);
    // Promoted with their goldens, the corpus's coverage holds them.
    let before = run(dir.path(), &["coverage", "--reference", REFERENCE]);
    let promoted = run(
        dir.path(),
        &["fuzz", "--promote", "grown", "--left", REFERENCE],
    );
    assert_eq!(promoted.code, 0, "{}\n{}", promoted.stdout, promoted.stderr);
    assert!(
        promoted
            .last_line()
            .contains("0 added, 0 changed, 2 unchanged"),
        "{}",
        promoted.last_line()
    );
    assert!(dir.path().join("golden/regressions").join(greet).is_file());
    assert!(staged(dir.path()).is_empty());
    let after = run(dir.path(), &["coverage", "--reference", REFERENCE]);
    let never_run = |ran: &Ran| {
        let line = ran.last_line();
        line[line.find("; ").unwrap() + 2..line.find(" never run").unwrap()].to_owned()
    };
    assert_eq!(
        (never_run(&before), never_run(&after)),
        ("8".into(), "6".into())
    );
}
