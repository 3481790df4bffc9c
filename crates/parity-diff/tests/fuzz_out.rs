//! Where fuzz writes its findings: outside the cases directory
//! (`fuzz-findings/` beside it, or the suite's `fuzz-out`), so the next
//! `run` is not broken by case files without goldens; and `fuzz --promote
//! DIR`, which moves them into the corpus and blesses their goldens.

use crate::support;

use support::{golden_of, run_with, write, Corpus};

/// Renames every `op` member: every case diverges from `cat`'s.
const RENAMING: &str = "sed 's/\"op\"/\"OP\"/g'";

fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", r#"[{"op":"x","name":"a","v":1}]"#)
        .golden("a.json", &golden_of(&[r#"{"op":"x","name":"a","v":1}"#]));
    corpus
}

fn fuzz(corpus: &Corpus, extra: &[&str]) -> support::Ran {
    let mut args = vec!["fuzz", "--left", "cat", "--right", RENAMING];
    args.extend(["--seed", "1", "--count", "50"]);
    args.extend(extra);
    corpus.run(&args)
}

fn json_files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = walk(dir)
        .into_iter()
        .map(|path| path.strip_prefix(dir).unwrap().display().to_string())
        .collect();
    names.sort();
    names
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flat_map(|entry| {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

#[test]
fn findings_go_beside_the_cases_and_the_next_run_still_passes() {
    let corpus = corpus();
    let ran = fuzz(&corpus, &[]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains("written:   fuzz-findings/x-op-"),
        "{}",
        ran.stdout
    );
    assert_eq!(json_files(&corpus.join("cases")), ["a.json"]);
    assert_eq!(json_files(&corpus.join("fuzz-findings")).len(), 1);
    let ran = corpus.run(&["run", "--oracle", "cat", "--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "1 passed, 0 failed\n"));
}

#[test]
fn the_suite_s_fuzz_out_and_the_flag_over_it() {
    let corpus = corpus();
    write(
        corpus.join("parity.toml"),
        "[suite.s]\nreference = \"cat\"\noracle = \"sed 's/\\\"op\\\"/\\\"OP\\\"/g'\"\nfuzz-out = \"found\"\n",
    );
    // left and right from the suite: its reference and its oracle.
    let ran = corpus.run(&["fuzz", "--seed", "1", "--count", "50"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains("written:   found/x-op-"),
        "{}",
        ran.stdout
    );
    let ran = fuzz(&corpus, &["--out", "elsewhere"]);
    assert!(
        ran.stdout.contains("written:   elsewhere/x-op-"),
        "{}",
        ran.stdout
    );
}

#[test]
fn promote_moves_the_findings_into_the_corpus_and_blesses_them() {
    let corpus = corpus();
    fuzz(&corpus, &[]);
    let ran = corpus.run(&["fuzz", "--promote", "fuzz-findings", "--left", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stderr
            .contains("parity-diff: promoted regressions/x-op-"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stdout.starts_with("added      regressions/x-op-"),
        "{}",
        ran.stdout
    );
    assert!(json_files(&corpus.join("fuzz-findings")).is_empty());
    let cases = json_files(&corpus.join("cases"));
    assert_eq!(cases.len(), 2, "{cases:?}");
    assert_eq!(cases, json_files(&corpus.join("golden")));
    // `cat` echoes the case files, framing and all.
    let ran = corpus.run(&["run", "--oracle", "cat", "--framing", "json", "--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "2 passed, 0 failed\n"));
    // In CI it refuses, as bless does; without a reference it cannot bless.
    fuzz(&corpus, &["--seed", "2"]);
    let ran = run_with(
        corpus.path(),
        &["fuzz", "--promote", "fuzz-findings", "--left", "cat"],
        b"",
        &[("CI", "true")],
    );
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("refusing to promote"), "{}", ran.stderr);
    let ran = corpus.run(&["fuzz", "--promote", "fuzz-findings"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("it needs the reference"),
        "{}",
        ran.stderr
    );
}
