//! `parity-diff run`: corpora, oracles that misbehave, filters and shards.
//!
//! Most corpora here use `cat` as the oracle: it prints its case file
//! back, so each case file *is* the result array its golden is held to.

use crate::support;

use std::time::{Duration, Instant};

use support::report::{Problem, Report};
use support::{golden_of, run, Corpus};

const A: &str = r#"[{"op":"x","name":"first","v":1},{"op":"x","name":"second","v":2}]"#;

const B: &str = r#"[{"op":"y","v":3}]"#;

fn corpus_of_two() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", A)
        .golden(
            "a.json",
            &golden_of(&[
                r#"{"op":"x","name":"first","v":1}"#,
                r#"{"op":"x","name":"second","v":2}"#,
            ]),
        )
        .case("sub/b.json", B)
        .golden("sub/b.json", &golden_of(&[r#"{"op":"y","v":3}"#]));
    corpus
}

#[test]
fn a_clean_corpus_passes() {
    let corpus = corpus_of_two();
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "ok a.json (2 cases)\n",
            "ok sub/b.json (1 case)\n",
            "op    passed  accepted    failed\n",
            "x         2         0         0\n",
            "y         1         0         0\n",
            "3 passed, 0 failed\n"
        )
    );
    // One op: no table.
    let ran = corpus.run(&["run", "--oracle", "cat", "--op", "x"]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "ok a.json (2 cases)\n2 passed, 0 failed\n")
    );
}

#[test]
fn failures_in_one_file_do_not_stop_the_run() {
    let corpus = corpus_of_two();
    corpus.golden(
        "a.json",
        &golden_of(&[
            r#"{"op":"x","name":"first","v":1}"#,
            r#"{"op":"x","name":"second","v":20}"#,
        ]),
    );
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.starts_with(concat!(
            "FAIL a.json (1 of 2 cases failed)\n",
            "ok sub/b.json (1 case)\n",
            "FAIL [1 case] x: different at /v (golden number, port number)\n",
            "  FAIL a.json:1 #1 x \"second\": different at /v\n",
            "      input: {\"op\":\"x\",\"name\":\"second\",\"v\":2}\n",
            "      at /v\n",
            "        golden: 20\n",
            "        actual: 2\n",
        )),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "2 passed, 1 failed");
}

#[test]
fn missing_and_orphaned_goldens_fail() {
    let corpus = corpus_of_two();
    corpus
        .case("new.json", "[1]")
        .golden("old/gone.json", "[\n1\n]\n");
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("MISSING new.json: no golden at golden/new.json\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("ORPHAN golden/old/gone.json: golden without a case file\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("ok sub/b.json"),
        "later files still run"
    );
    assert_eq!(ran.last_line(), "3 passed, 2 failed");
}

#[test]
fn an_oracle_that_crashes_on_a_whole_file_fails_it_with_its_stderr() {
    let corpus = corpus_of_two();
    // Echoes a.json back; fails on anything without op "x": sub/b.json,
    // and `[]`, so that no single case is to blame (a port that crashes
    // on one case is blame.rs).
    let ran = corpus.run(&[
        "run",
        "--oracle",
        r#"input=$(cat); case "$input" in *'"x"'*) printf '%s' "$input";; *) echo "boom: no such op" >&2; exit 3;; esac"#,
    ]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains("ok a.json (2 cases)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(concat!(
            "ERROR sub/b.json: the oracle exited with status 3; it fails on an empty array `[]` \
             too, so no case is to blame\n",
            "    1 golden case not compared\n",
            "    stderr:\n",
            "    | boom: no such op\n",
        )),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("error: 1 file could not be compared\n"));
    // The port failed on the file: a failure, not an input error.
    assert_eq!(ran.last_line(), "2 passed, 1 failed, 1 skipped");
}

#[test]
fn tokens_in_an_oracles_stderr_are_masked() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"op":"argv","options":{"token":"tok-secret-1"}}]"#,
        )
        .golden("a.json", "[]\n");
    let ran = corpus.run(&["run", "--oracle", "cat >&2; exit 1"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains(r#"| [{"op":"argv","options":{"token":"<redacted>"}}]"#),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("tok-secret-1"));
}

#[test]
fn an_oracle_that_hangs_is_killed_at_the_timeout() {
    let corpus = corpus_of_two();
    let started = Instant::now();
    let ran = corpus.run(&["run", "--oracle", "sleep 30", "--timeout", "0.5"]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "bounded by --timeout"
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR a.json: the oracle did not finish within 0.5 s and was killed"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("ERROR sub/b.json"),
        "every file is tried"
    );
}

#[test]
fn an_oracle_that_prints_half_an_array_or_none() {
    let corpus = corpus_of_two();
    let ran = corpus.run(&["run", "--oracle", "cat >/dev/null; printf '[{\"op\":'"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR a.json: the oracle printed an incomplete or malformed array"),
        "{}",
        ran.stdout
    );
    let ran = corpus.run(&["run", "--oracle", "cat >/dev/null; echo nothing useful"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains("ERROR a.json: the oracle printed no JSON array"),
        "{}",
        ran.stdout
    );
    let ran = corpus.run(&["run", "--oracle", "cat >/dev/null"]);
    assert!(
        ran.stdout
            .contains("ERROR a.json: the oracle printed nothing on stdout"),
        "{}",
        ran.stdout
    );
}

#[test]
fn malformed_corpora_are_input_errors() {
    let corpus = corpus_of_two();
    corpus.golden("a.json", r#"{"not":"an array"}"#);
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains("ERROR a.json: golden "),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("is not a JSON array"));

    let corpus = corpus_of_two();
    std::fs::remove_file(corpus.join("golden/a.json")).unwrap();
    std::fs::create_dir(corpus.join("golden/a.json")).unwrap();
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR a.json: cannot read golden golden/a.json: a directory, not a regular file"
        ),
        "{}",
        ran.stdout
    );

    let dir = tempfile::tempdir().unwrap();
    let ran = run(dir.path(), &["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("the cases directory cases does not exist"),
        "{}",
        ran.stderr
    );
    support::write(dir.path().join("cases"), "a file");
    let ran = run(dir.path(), &["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("is not a directory"), "{}", ran.stderr);

    let corpus = corpus_of_two();
    std::fs::remove_dir_all(corpus.join("golden")).unwrap();
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("the golden directory golden does not exist"),
        "{}",
        ran.stderr
    );

    let ran = corpus_of_two().run(&["run", "--shard", "3/2"]);
    assert_eq!(ran.code, 2, "usage error: {ran:?}");
    let ran = corpus_of_two().run(&["run", "--timeout", "0"]);
    assert_eq!(ran.code, 2, "usage error: {ran:?}");
}

fn file_names(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("ok "))
        .map(|rest| rest.split(' ').next().unwrap().to_owned())
        .collect()
}

#[test]
fn filters_and_shards_pick_files() {
    let corpus = Corpus::new();
    for name in ["a.json", "b.json", "c.json", "ipc/d.json", "ipc/e.json"] {
        corpus.case(name, "[1]").golden(name, "[\n1\n]\n");
    }
    let names = |args: &[&str]| {
        let mut full = vec!["run", "--oracle", "cat"];
        full.extend_from_slice(args);
        let ran = corpus.run(&full);
        assert_eq!(ran.code, 0, "{ran:?}");
        file_names(&ran.stdout)
    };
    assert_eq!(
        names(&[]),
        ["a.json", "b.json", "c.json", "ipc/d.json", "ipc/e.json"]
    );
    assert_eq!(names(&["--filter", "ipc/*"]), ["ipc/d.json", "ipc/e.json"]);
    assert_eq!(names(&["--filter", "[ab]*"]), ["a.json", "b.json"]);
    // Shards split the cases: five cases, two shards.
    assert_eq!(names(&["--shard", "1/2"]), ["a.json", "b.json"]);
    assert_eq!(
        names(&["--shard", "2/2"]),
        ["c.json", "ipc/d.json", "ipc/e.json"]
    );
    assert_eq!(
        names(&["--filter", "ipc/**", "--shard", "2/2"]),
        ["ipc/e.json"]
    );
    let ran = corpus.run(&["run", "--oracle", "cat", "--filter", "nothing*"]);
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.contains("--filter matches no case file"));
}

#[test]
fn run_reports_in_json_and_junit() {
    let corpus = corpus_of_two();
    corpus.case("new.json", "[1]");
    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    assert_eq!(ran.code, 1);
    let report = Report::read(&ran.stdout);
    let files = &report.files;
    assert_eq!(files.len(), 3);
    assert_eq!(files[0].name(), Some("a.json"));
    assert_eq!(files[0].cases.len(), 2);
    assert_eq!(files[1].name(), Some("new.json"));
    assert!(
        matches!(files[1].head.problem, Some(Problem::MissingGolden { .. })),
        "{:?}",
        files[1].head
    );
    assert_eq!(report.summary.exit_code, 1);

    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "junit"]);
    assert!(
        ran.stdout
            .contains(r#"<testsuite name="a.json" tests="2" failures="0" errors="0" skipped="0">"#),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(r#"<failure type="missing golden""#),
        "{}",
        ran.stdout
    );
}

#[test]
fn failures_are_grouped_and_capped() {
    let corpus = Corpus::new();
    // Ten cases of op g differ alike; five ops differ once each.
    let mut cases: Vec<String> = (0..10)
        .map(|n| format!(r#"{{"op":"g","name":"c{n}","v":1}}"#))
        .collect();
    cases.extend((0..5).map(|n| format!(r#"{{"op":"o{n}","v":"s"}}"#)));
    let golden: Vec<String> = cases
        .iter()
        .map(|case| {
            case.replace(r#""v":1"#, r#""v":2"#)
                .replace(r#""v":"s""#, r#""v":["s"]"#)
        })
        .collect();
    corpus
        .case("a.json", &format!("[\n{}\n]", cases.join(",\n")))
        .golden(
            "a.json",
            &golden_of(&golden.iter().map(String::as_str).collect::<Vec<_>>()),
        );
    // `cat` echoes the case file, framing and all.
    let args = [
        "run",
        "--oracle",
        "cat",
        "--framing",
        "json",
        "--max-failures",
        "2",
    ];
    let ran = corpus.run(&args);
    assert_eq!(ran.code, 1, "{ran:?}");
    let out = &ran.stdout;
    assert!(
        out.contains("FAIL [10 cases] g: different at /v (golden number, port number)\n"),
        "{out}"
    );
    assert_eq!(
        out.matches("  FAIL a.json:").count(),
        4,
        "three in full, then one: {out}"
    );
    assert!(
        out.contains(
            "  and 7 more: a.json \"c3\", a.json \"c4\", a.json \"c5\", a.json \"c6\", a.json \"c7\", …\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("FAIL [1 case] o0: different at /v (golden array, port string)\n"),
        "{out}"
    );
    assert!(
        out.contains("… 4 more failure groups (4 cases) not shown; --max-failures 6 shows them\n"),
        "{out}"
    );
    // The per-op table, then the closing line.
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            "0 passed, 15 failed",
            "o4         0         0         1",
            "o3         0         0         1"
        ]
    );
    let ran = corpus.run(&["run", "--oracle", "cat", "--max-failures", "0"]);
    assert!(!ran.stdout.contains("FAIL ["), "{}", ran.stdout);
    assert!(ran
        .stdout
        .contains("… 6 more failure groups (15 cases) not shown"));
}
