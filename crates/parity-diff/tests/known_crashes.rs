//! Known crashes cost their cases, not reruns (issue 36): the cases the
//! ledger knows crash run apart from the rest of their file, which runs
//! in one batch without bisection; a crash nobody knew of is still found.
//! `known_batches` holds how `run` runs them across files.

use crate::daily_support::{Corpus, ORACLE_CMD};

/// 40 cases of op `a`, those at `crashing` crashing the oracle.
fn corpus(crashing: &[usize]) -> Corpus {
    let corpus = Corpus::new();
    let cases: Vec<String> = (0..40)
        .map(|n| {
            let crash = if crashing.contains(&n) {
                r#","crash":true"#
            } else {
                ""
            };
            format!(
                r#"{{"op":"{}","name":"c{n}"{crash}}}"#,
                if n < 20 { "a" } else { "b" }
            )
        })
        .collect();
    let array = format!("[{}]", cases.join(",\n"));
    corpus.case("f.json", &array, &array);
    corpus
}

fn run(corpus: &Corpus) -> (crate::daily_support::Ran, usize) {
    corpus.run_counted(ORACLE_CMD)
}

/// The corpus's file at `path` with `from` written as `to`.
fn edit(corpus: &Corpus, path: &str, from: &str, to: &str) {
    let text = String::from_utf8(corpus.read(path))
        .unwrap()
        .replace(from, to);
    corpus.write(path, &text);
}

#[test]
#[ignore = "needs python3"]
fn cases_the_ledger_knows_crash_run_apart_and_the_rest_in_one_batch() {
    crate::support::require_python3();
    let corpus = corpus(&[3, 17, 30]);
    let accepted = corpus.run(&["accept", "--oracle", ORACLE_CMD, "--reason", "crashes"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(corpus.oracle_runs() > 4, "accept found them by bisection");
    let (known, runs) = run(&corpus);
    assert_eq!(known.code, 0, "{}", known.stderr);
    // The rest once, and the known cases once, together.
    assert_eq!(runs, 1 + 1);
    assert!(
        known.summary().contains(r#""passed":37"#),
        "{}",
        known.summary()
    );
    assert!(
        known.summary().contains(r#""accepted":3"#),
        "{}",
        known.summary()
    );

    // Without the ledger, the same cases pass and the crashes are found
    // again by bisection, at a cost.
    std::fs::rename(corpus.join("parity-ledger.txt"), corpus.join("saved.txt")).unwrap();
    let (unknown, bisecting) = run(&corpus);
    assert_eq!(unknown.code, 1);
    assert!(bisecting > runs + 10, "{bisecting} runs bisecting");
    assert!(unknown.summary().contains(r#""passed":37"#));
}

#[test]
#[ignore = "needs python3"]
fn cases_the_last_recorded_run_saw_crash_run_alone_in_its_rerun() {
    crate::support::require_python3();
    let corpus = corpus(&[3, 17, 30]);
    // c5 differs too: it reruns with the rest of its file, in one batch.
    edit(
        &corpus,
        "golden/f.json",
        r#""name":"c5"}"#,
        r#""name":"c5","x":1}"#,
    );
    let (first, bisecting) = run(&corpus);
    assert_eq!(first.code, 1, "{}", first.stderr);
    assert!(bisecting > 4, "{bisecting} runs: the first run bisects");
    corpus.write("saved.json", &first.text());
    corpus.oracle_runs();
    let rerun = corpus.run(&[
        "run",
        "--oracle",
        ORACLE_CMD,
        "--format",
        "json",
        "--rerun-failed",
        "saved.json",
    ]);
    assert_eq!(rerun.code, 1, "{}", rerun.stderr);
    // c5 once, and each case the report saw crash alone: no bisection.
    assert_eq!(corpus.oracle_runs(), 1 + 3);
    assert!(
        rerun.summary().contains(r#""failed":4"#),
        "{}",
        rerun.summary()
    );
    assert_eq!(rerun.text().matches(r#""verdict":"crash""#).count(), 3);
}

#[test]
#[ignore = "needs python3"]
fn a_new_crash_beside_known_ones_is_found_as_before() {
    crate::support::require_python3();
    let corpus = corpus(&[3]);
    let accepted = corpus.run(&["accept", "--oracle", ORACLE_CMD, "--reason", "crashes"]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    // Case 25 crashes now too.
    edit(
        &corpus,
        "cases/f.json",
        r#""name":"c25"}"#,
        r#""name":"c25","crash":true}"#,
    );
    let (ran, _) = run(&corpus);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let text = ran.text();
    assert!(text.contains(r#""accepted":1"#), "{}", ran.summary());
    assert!(text.contains(r#""new":1"#), "{}", ran.summary());
}

#[test]
#[ignore = "needs python3"]
fn a_crash_rule_runs_its_ops_cases_as_a_batch_of_their_own() {
    crate::support::require_python3();
    let corpus = corpus(&[21, 30]);
    corpus.write(
        "parity-ledger.txt",
        "rule op b\n  match: crash\n  state: accepted\n  reason: b crashes\n",
    );
    let (ran, runs) = run(&corpus);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.summary().contains(r#""accepted":2"#),
        "{}",
        ran.summary()
    );
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    let (_, bisecting) = run(&corpus);
    assert!(
        runs < bisecting,
        "{runs} runs with the rule, {bisecting} without"
    );
}

/// Crashes on any batch holding a case of op `c` whose `n` is a multiple
/// of 7; echoes otherwise.
const CRASHING_RIGHT: &str = r#"import json, sys
cases = json.load(sys.stdin)
if any(c.get("op") == "c" and c.get("n", 1) % 7 == 0 for c in cases):
    sys.exit(3)
print(json.dumps(cases, separators=(",", ":")))
"#;

const GENERATOR: &str = r#"import json, sys
args = dict(zip(sys.argv[1::2], sys.argv[2::2]))
op, seed, count = args["--op"], int(args["--seed"]), int(args["--count"])
print(json.dumps([{"op": op, "n": seed + n} for n in range(count)]))
"#;

fn fuzz_json(corpus: &Corpus) -> String {
    let ran = corpus.run(&[
        "fuzz",
        "--left",
        "python3 left.py",
        "--right",
        "python3 right.py",
        "--generator",
        "python3 gen.py",
        "--op",
        "c",
        "--seed",
        "1",
        "--count",
        "60",
        "--batch-size",
        "30",
        "--out",
        "findings",
        "--format",
        "json",
    ]);
    assert!(ran.code == 0 || ran.code == 1, "{}", ran.stderr);
    ran.text()
}

#[test]
#[ignore = "needs python3"]
fn fuzz_knows_a_crash_of_a_batch_whose_every_op_a_rule_accepts_crashing() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.write(
        "left.py",
        "import sys\nsys.stdout.write(sys.stdin.read())\n",
    );
    corpus.write("right.py", CRASHING_RIGHT);
    corpus.write("gen.py", GENERATOR);
    corpus.write(
        "parity-ledger.txt",
        "rule op c\n  match: crash\n  state: accepted\n  reason: c crashes\n",
    );
    let known = fuzz_json(&corpus);
    assert!(known.contains(r#""bisectRuns":0"#), "{known}");
    assert!(known.contains(r#""divergences":[]"#), "{known}");
    assert!(
        known.contains(r#""signature":"c crash (right)","cases":60"#),
        "{known}"
    );
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    let bisected = fuzz_json(&corpus);
    assert!(!bisected.contains(r#""bisectRuns":0"#), "{bisected}");
}
