//! `fuzz --grow` regains what a case file of the bundled corpus reached
//! (issue 22's "done when"): with `cases/liveness.json` left out of a
//! copy of the corpus, `fuzz --grow --op liveness` with our generator
//! and a fixed seed keeps cases that reach at least 80% of the reference
//! code that file alone reached, measured in UTF-16 code units of the
//! reference's text, through the same V8 coverage.
//!
//! This is the short version: 200 generated cases, well inside a minute
//! on 2 cores. `scripts/grow-check.sh` runs it with the budget
//! of 20 000 (`GROW_CHECK_COUNT`) and prints the figure the book
//! gives (docs/guide/coverage.md).

use crate::support;

use crate::parity_diff_support as parity_support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use parity_diff::coverage::collect::run_batch;
use parity_diff::coverage::novelty::Reached;
use parity_diff::exec::oracle::OracleOptions;
use parity_support::run;
use serde_json::Value;

/// The file left out, and the op grown back.
const LEFT_OUT: &str = "liveness.json";
const OP: &str = "liveness";

/// What the case files `paths` reach together, each run as one batch
/// from the repository's root (where the reference's command is
/// relative to).
fn reached(reference: &str, paths: &[PathBuf]) -> Reached {
    let limits = OracleOptions::new(Duration::from_secs(120), 256 << 20);
    let mut all = Reached::default();
    for path in paths {
        let input = std::fs::read(path).unwrap();
        let ran = run_batch(reference, &input, limits);
        assert!(
            ran.failure.is_none(),
            "{}: {:?}",
            path.display(),
            ran.failure
        );
        all.add(&Reached::of(&ran.coverage.unwrap()));
    }
    all
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn grow_regains_what_the_liveness_file_reached() {
    let reference = support::require_reference();
    let count = std::env::var("GROW_CHECK_COUNT").unwrap_or_else(|_| "200".into());
    let root = support::repo_root();
    let work = tempfile::tempdir().unwrap();
    let cases = work.path().join("cases");
    std::fs::create_dir_all(&cases).unwrap();
    let corpus = json_files(&root.join("cases"));
    assert!(corpus.iter().any(|path| path.ends_with(LEFT_OUT)));
    for path in &corpus {
        if !path.ends_with(LEFT_OUT) {
            std::fs::copy(path, cases.join(path.file_name().unwrap())).unwrap();
        }
    }
    let generator = format!("'{}' generate", support::oracle_binary().display());
    let (cases_arg, grown) = (cases.display().to_string(), work.path().join("grown"));
    let grown_arg = grown.display().to_string();
    let started = Instant::now();
    let ran = run(
        &root,
        &[
            "fuzz",
            "--no-config",
            "--grow",
            &grown_arg,
            "--reference",
            &reference,
            "--cases",
            &cases_arg,
            "--generator",
            &generator,
            "--op",
            OP,
            "--seed",
            "1",
            "--count",
            &count,
            "--format",
            "json",
        ],
    );
    let elapsed = started.elapsed();
    assert_eq!(ran.code, 0, "{}\n{}", ran.stdout, ran.stderr);
    let report: Value = serde_json::from_str(&ran.stdout).unwrap();
    // What liveness.json alone reached, and how much of it the kept
    // cases reach.
    let full = reached(&reference, &corpus);
    let without: Vec<PathBuf> = corpus
        .iter()
        .filter(|path| !path.ends_with(LEFT_OUT))
        .cloned()
        .collect();
    let lost = full.beyond(&reached(&reference, &without));
    let kept = reached(&reference, &json_files(&grown));
    let regained = lost.both(&kept);
    let percent = 100.0 * regained.units() as f64 / lost.units() as f64;
    println!(
        "grow-check: {count} cases generated, {} kept, in {:.1} s ({} reference runs): \
         {} of the {} code units only {LEFT_OUT} reached are reached again ({percent:.1}%); \
         {} of the corpus's {} never-run spans reached",
        report["kept"].as_array().unwrap().len(),
        elapsed.as_secs_f64(),
        report["runs"],
        regained.units(),
        lost.units(),
        report["newlyReached"],
        report["neverRun"],
    );
    assert!(lost.units() > 1000, "{LEFT_OUT} reached little of its own");
    assert!(percent >= 80.0, "only {percent:.1}% regained");
    // Every kept case is a liveness case, named for what it reaches.
    for kept in report["kept"].as_array().unwrap() {
        let name = kept["name"].as_str().unwrap();
        assert!(name.starts_with("liveness: reaches "), "{name}");
    }
}
