//! The bundled corpus in four shards, with the example partial port,
//! merges into the report of the unsharded run in every format. The rest
//! of shards and merge is parity-diff's own tests'
//! (crates/parity-diff/tests/merge.rs).

use crate::parity_diff_support as support;

use std::path::{Path, PathBuf};

use support::report::Report;
use support::{require_python3, root, run, write, Ran, EXAMPLE_PORT};

/// The JSON report's members after its head: everything a merge must
/// reproduce.
fn body(report: &str) -> &str {
    let at = report.find(",\"files\":").expect("a JSON report");
    &report[at..]
}

fn parse(report: &str) -> Report {
    let text = report.to_owned();
    // Reports of the bundled corpus hold deeply nested values: read them
    // on a big stack.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || Report::read(&text))
        .unwrap()
        .join()
        .unwrap()
}

/// Writes each report to `dir` and returns the paths.
fn save(dir: &Path, reports: &[(&str, &Ran)]) -> Vec<PathBuf> {
    reports
        .iter()
        .map(|(name, ran)| {
            let path = dir.join(name);
            write(&path, &ran.stdout);
            path
        })
        .collect()
}

fn merge(dir: &Path, paths: &[PathBuf], format: &str) -> Ran {
    let mut args = vec!["merge".to_owned(), "--format".to_owned(), format.to_owned()];
    args.extend(paths.iter().map(|path| path.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(dir, &args)
}

#[test]
#[ignore = "needs python3"]
fn the_bundled_corpus_in_four_shards_merges_into_the_unsharded_run() {
    require_python3();
    let out = tempfile::tempdir().unwrap();
    let whole = run(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "json"],
    );
    assert_eq!(whole.code, 1, "{}", whole.stderr);
    let shards: Vec<Ran> = (1..=4)
        .map(|k| {
            let shard = format!("{k}/4");
            let ran = run(
                root(),
                &[
                    "run",
                    "--oracle",
                    EXAMPLE_PORT,
                    "--format",
                    "json",
                    "--shard",
                    &shard,
                ],
            );
            assert_eq!(ran.code, 1, "{shard}: {}", ran.stderr);
            ran
        })
        .collect();

    // Balanced by cases: every shard records its range, and holds it.
    let mut sizes = Vec::new();
    let whole_report = parse(&whole.stdout);
    let total = whole_report.head.corpus.as_ref().unwrap().cases;
    assert_eq!(total, 1354);
    let mut next = 0;
    for (k, shard) in shards.iter().enumerate() {
        let report = parse(&shard.stdout);
        let range = report.head.shard.unwrap();
        assert_eq!(range.index, k + 1);
        assert_eq!(range.count, 4);
        assert_eq!(range.from, next);
        next = range.to;
        let held = report.cases().count();
        assert_eq!(held, next - range.from, "shard {}", k + 1);
        sizes.push(held);
        // The corpus is the same for every shard and the whole run.
        assert_eq!(report.head.corpus, whole_report.head.corpus);
    }
    assert_eq!(next, total);
    let (largest, smallest) = (sizes.iter().max().unwrap(), sizes.iter().min().unwrap());
    assert!(
        *largest as f64 <= 1.2 * *smallest as f64,
        "shards of {sizes:?} cases"
    );

    // In any order, the shards merge into the whole run: the same files,
    // cases, groups, per-op counts and summary, byte for byte.
    let named: Vec<(String, &Ran)> = shards
        .iter()
        .enumerate()
        .map(|(k, ran)| (format!("shard-{}.json", k + 1), ran))
        .collect();
    let named: Vec<(&str, &Ran)> = named.iter().rev().map(|(n, r)| (n.as_str(), *r)).collect();
    let paths = save(out.path(), &named);
    let merged = merge(root(), &paths, "json");
    assert_eq!(merged.code, 1, "{}", merged.stderr);
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    let report = parse(&merged.stdout);
    assert_eq!(report.head.command, "merge");
    assert_eq!(report.head.shard, None);
    assert_eq!((report.totals().passed, report.totals().failed), (85, 1269));
    assert_eq!(report.op("scriptPath").passed, 29);

    // Every format renders the merged records as the run's own.
    for format in ["human", "junit"] {
        let unsharded = run(
            root(),
            &["run", "--oracle", EXAMPLE_PORT, "--format", format],
        );
        let merged = merge(root(), &paths, format);
        assert_eq!(merged.code, 1, "{format}: {}", merged.stderr);
        assert_eq!(merged.stdout, unsharded.stdout, "{format}");
    }
    // JUnit from a merge is never empty (vitest's merge wrote an empty one).
    let junit = merge(root(), &paths, "junit");
    assert_eq!(junit.stdout.matches("<testcase ").count(), 1354);
    assert!(junit.stdout.contains(
        "<testsuites name=\"parity-diff\" tests=\"1354\" failures=\"1269\" errors=\"0\" skipped=\"0\">"
    ));
}
