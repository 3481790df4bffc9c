//! `run` settles the ledger's known failures of every file in one run per
//! failure (issue 36): six known crashes in six files cost one run, not
//! six. A batch that fails otherwise than its entries say runs each case
//! alone; `accept` always runs each alone, and so sees each one fixed.

use crate::daily_support::{Corpus, Ran};

/// Echoes its cases; crashes on a batch holding a case `crashing.json`
/// names (printing the whole batch on stderr), and prints no array on a
/// batch holding one `garbling.json` names.
const ORACLE: &str = r#"import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "runs.log"), "a") as f:
    f.write("run\n")
def named(file):
    try:
        return json.load(open(os.path.join(here, file)))
    except FileNotFoundError:
        return []
cases = json.load(sys.stdin)
if any(c["name"] in named("garbling.json") for c in cases):
    sys.stdout.write("nope")
    sys.exit(0)
if any(c["name"] in named("crashing.json") for c in cases):
    sys.stderr.write("crashed on " + json.dumps(cases) + "\n")
    sys.exit(3)
sys.stdout.write(json.dumps(cases, separators=(",", ":")))
"#;

const ORACLE_CMD: &str = "python3 batch_oracle.py";

/// Files a.json, b.json and c.json of 5 cases each (`a0` … `c4`); `a0`
/// carries a token.
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus.write("batch_oracle.py", ORACLE);
    for file in ["a", "b", "c"] {
        let cases: Vec<String> = (0..5)
            .map(|n| match (file, n) {
                ("a", 0) => r#"{"op":"x","name":"a0","token":"tok-aaaa-secret-1111"}"#.to_owned(),
                _ => format!(r#"{{"op":"x","name":"{file}{n}"}}"#),
            })
            .collect();
        let array = format!("[{}]", cases.join(","));
        corpus.case(&format!("{file}.json"), &array, &array);
    }
    corpus
}

fn names(corpus: &Corpus, list: &str, names: &[&str]) {
    corpus.write(list, &serde_json::to_string(names).unwrap());
}

fn run(corpus: &Corpus) -> (Ran, usize) {
    corpus.run_counted(ORACLE_CMD)
}

fn accept(corpus: &Corpus, flags: &[&str]) -> usize {
    corpus.oracle_runs();
    let mut args = vec!["accept", "--oracle", ORACLE_CMD, "--reason", "crashes"];
    args.extend_from_slice(flags);
    let accepted = corpus.run(&args);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    corpus.oracle_runs()
}

#[test]
#[ignore = "needs python3"]
fn run_settles_every_files_known_crashes_in_one_run() {
    crate::support::require_python3();
    let corpus = corpus();
    names(&corpus, "crashing.json", &["a0", "b0", "c0"]);
    accept(&corpus, &[]);
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // Each file's other cases once, and the three known crashes once.
    assert_eq!(runs, 3 + 1);
    let summary = ran.summary();
    assert!(summary.contains(r#""passed":12"#), "{summary}");
    assert!(summary.contains(r#""accepted":3"#), "{summary}");
    assert_eq!(
        ran.text()
            .matches(
                "[parity-diff: this stderr is of one run of the 3 cases whose entries say crash]"
            )
            .count(),
        3,
        "{}",
        ran.text()
    );
    // accept runs each known case alone.
    assert_eq!(accept(&corpus, &[]), 3 + 3);
}

#[test]
#[ignore = "needs python3"]
fn a_fixed_known_crash_shows_once_it_runs_alone() {
    crate::support::require_python3();
    let corpus = corpus();
    names(&corpus, "crashing.json", &["a0", "b0", "c0"]);
    accept(&corpus, &[]);
    // b0 is fixed; a0 and c0 still crash.
    names(&corpus, "crashing.json", &["a0", "c0"]);
    // What the shortcut cannot see: run with the others, b0 still
    // crashes.
    let (ran, _) = run(&corpus);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.summary().contains(r#""accepted":3"#),
        "{}",
        ran.summary()
    );
    // accept runs it alone and finds its entry stale.
    accept(&corpus, &["--prune"]);
    let ledger = String::from_utf8(corpus.read("parity-ledger.txt")).unwrap();
    assert!(!ledger.contains("b0"), "{ledger}");
    let entries = ledger.lines().filter(|line| line.starts_with("case "));
    assert_eq!(entries.count(), 2, "{ledger}");
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(runs, 3 + 1);
    assert!(
        ran.summary().contains(r#""passed":13"#),
        "{}",
        ran.summary()
    );
    // Every one fixed: the batch gives each its result, and both
    // entries are stale.
    names(&corpus, "crashing.json", &[]);
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(runs, 3 + 1);
    assert!(ran.summary().contains(r#""stale":2"#), "{}", ran.summary());
}

#[test]
#[ignore = "needs python3"]
fn a_batch_that_fails_otherwise_runs_each_case_alone() {
    crate::support::require_python3();
    let corpus = corpus();
    names(&corpus, "crashing.json", &["a0", "b0"]);
    accept(&corpus, &[]);
    // Both now print no array instead of crashing.
    names(&corpus, "crashing.json", &[]);
    names(&corpus, "garbling.json", &["a0", "b0"]);
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // The rest of each file, the batch, then a0 and b0 alone.
    assert_eq!(runs, 3 + 1 + 2);
    let text = ran.text();
    assert_eq!(
        text.matches(r#""verdict":"invalid-output""#).count(),
        2,
        "{text}"
    );
    assert!(
        ran.summary().contains(r#""changed":2"#),
        "{}",
        ran.summary()
    );
    assert!(!text.contains("this stderr is of one run"), "{text}");
}

#[test]
#[ignore = "needs python3"]
fn a_batchs_stderr_is_masked_with_the_secrets_of_every_file_in_it() {
    crate::support::require_python3();
    let corpus = corpus();
    names(&corpus, "crashing.json", &["a0", "b0"]);
    accept(&corpus, &[]);
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert_eq!(runs, 3 + 1);
    let text = ran.text();
    // b0's record holds the batch's stderr, which echoes a.json's token.
    assert!(!text.contains("tok-aaaa-secret-1111"), "{text}");
    let record = r#""id":{"file":"b.json","name":"b0"}"#;
    let b0 = text.split(record).nth(1).expect("b0's record");
    let stderr = &b0[b0.find(r#""stderr":"#).expect("its stderr")..];
    assert!(
        stderr.starts_with(
            r#""stderr":"crashed on [{\"op\": \"x\", \"name\": \"a0\", \"token\": \"<redacted>\"}"#
        ),
        "{text}"
    );
}
