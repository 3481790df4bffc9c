//! A port whose output has one element per case, some of them not JSON
//! (`Infinity`, `undefined`), costs those cases and no rerun: each such
//! element is an `invalid-output` record of its own case, in `run`
//! (files in memory and streamed alike), `accept`, `bless` and `fuzz`,
//! and the port runs once per file (or batch). Each port appends a line
//! to `runs.txt` per run.

use crate::support;

use support::report::Report;
use support::{golden_of, run_with, six_case_corpus as corpus, Corpus, SIX_CASES as CASES};

/// `cat`, counting its runs, except that c2's result is `Infinity` and
/// c5's `undefined`.
const PORT: &str = r#"echo run >> runs.txt; sed -e 's/{"op":"x","name":"c2"[^}]*}/Infinity/' -e 's/{"op":"x","name":"c5"[^}]*}/undefined/'"#;

/// How many times the port ran since the last call.
fn runs(corpus: &Corpus) -> usize {
    let path = corpus.join("runs.txt");
    let count = std::fs::read_to_string(&path).map_or(0, |text| text.lines().count());
    let _ = std::fs::remove_file(path);
    count
}

fn run(corpus: &Corpus, args: &[&str], stream_above: &str) -> support::Ran {
    run_with(
        corpus.path(),
        args,
        b"",
        &[("PARITY_DIFF_STREAM_ABOVE", stream_above)],
    )
}

const HUMAN: &str = concat!(
    "  FAIL a.json:4 #2 x \"c2\": the oracle printed `Infinity`, which is not JSON\n",
    "      input: {\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}\n",
);

#[test]
fn run_makes_a_record_of_each_element_that_is_not_json_without_a_rerun() {
    let corpus = corpus();
    let mut reports = Vec::new();
    // In memory (files under 8 MiB), streamed (every file), and with
    // several jobs: the same report, and one run per file.
    for (stream_above, jobs) in [
        ("999999999", "1"),
        ("0", "1"),
        ("999999999", "4"),
        ("0", "3"),
    ] {
        let ran = run(
            &corpus,
            &["run", "--oracle", PORT, "--jobs", jobs],
            stream_above,
        );
        assert_eq!(ran.code, 1, "{ran:?}");
        assert_eq!(
            runs(&corpus),
            2,
            "stream above {stream_above}, --jobs {jobs}"
        );
        assert!(ran.stdout.contains(HUMAN), "{}", ran.stdout);
        assert!(
            ran.stdout.contains(
                "  FAIL a.json:7 #5 x \"c5\": the oracle printed `undefined`, which is not JSON\n"
            ),
            "{}",
            ran.stdout
        );
        assert!(ran
            .stdout
            .contains("  FAIL a.json:6 #4 x \"c4\": different at /v\n"));
        assert!(ran.stdout.contains("ok b.json (2 cases)\n"));
        assert!(!ran.stdout.contains("tok-secret-9"));
        assert!(
            !ran.stdout.contains("could not be compared"),
            "{}",
            ran.stdout
        );
        assert_eq!(ran.last_line(), "5 passed, 3 failed");
        reports.push(ran.stdout);
    }
    assert!(reports.windows(2).all(|pair| pair[0] == pair[1]));

    for stream_above in ["999999999", "0"] {
        let args = ["run", "--oracle", PORT, "--format", "json"];
        let ran = run(&corpus, &args, stream_above);
        assert_eq!(ran.code, 1, "{ran:?}");
        assert_eq!(runs(&corpus), 2);
        let report = Report::read(&ran.stdout);
        let cases = &report.files[0].cases;
        assert_eq!(
            report.files[0].verdicts(),
            [
                ("identical", "passed"),
                ("identical", "passed"),
                ("invalid-output", "failed"),
                ("identical", "passed"),
                ("different", "failed"),
                ("invalid-output", "failed"),
            ]
        );
        assert_eq!(cases[2].signature.as_ref().unwrap().kind, "invalid-output");
        assert_eq!(cases[2].stderr, None);
        assert_eq!(report.totals().errors, 0);
        assert_eq!(report.summary.exit_code, 1);
    }
}

#[test]
fn an_array_whose_elements_cannot_be_told_apart_is_still_bisected() {
    let corpus = corpus();
    // c2's result is cut open: `[` and no end, so no comma is top-level.
    let port = r#"echo run >> runs.txt; sed -e 's/{"op":"x","name":"c2"[^}]*}/[1/'"#;
    let ran = run(&corpus, &["run", "--oracle", port], "999999999");
    assert_eq!(ran.code, 1, "{ran:?}");
    // a.json: its run, `[]`, then 3 + 3, then 1 + 2 and 1 + 1; b.json once.
    assert_eq!(runs(&corpus), 1 + 1 + 2 + 2 + 2 + 1);
    assert!(
        ran.stdout.contains(
            "  FAIL a.json:4 #2 x \"c2\": the oracle printed an incomplete or malformed array: "
        ),
        "{}",
        ran.stdout
    );
}

#[test]
fn accept_records_those_cases_like_any_divergence_without_a_rerun() {
    let corpus = corpus();
    let ledger = corpus.join("ledger.txt");
    let ledger = ledger.to_str().unwrap();
    let args = [
        "accept", "--oracle", PORT, "--reason", "v is off", "--ledger", ledger,
    ];
    let ran = corpus.run(&args);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(runs(&corpus), 2);
    assert!(ran
        .stdout
        .contains("added    a.json \"c4\" (x, different at /v)\n"));
    assert!(
        ran.stdout
            .contains("added    a.json \"c2\" (x, invalid-output)\n"),
        "{}",
        ran.stdout
    );
    let text = corpus.read("ledger.txt");
    assert!(text.contains("case a.json \"c4\""));
    assert!(
        text.contains("\"c2\"") && text.contains("  verdict: invalid-output\n"),
        "{text}"
    );
}

#[test]
fn bless_keeps_the_old_golden_elements_of_those_cases_without_a_rerun() {
    let corpus = corpus();
    let ran = corpus.run(&["bless", "--reference", PORT]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert_eq!(runs(&corpus), 2);
    assert!(
        ran.stdout.contains(
            "    ERROR #2 x \"c2\" (invalid-output): the oracle printed `Infinity`, which is not JSON; \
             its golden element is left as it was\n"
        ),
        "{}",
        ran.stdout
    );
    assert_eq!(
        ran.last_line(),
        "0 added, 1 changed, 1 unchanged, 0 orphaned, 2 cases the reference failed on"
    );
    // c4 takes the reference's element; c2 and c5 keep their old ones.
    let mut expected = CASES;
    expected[4] = r#"{"op":"x","name":"c4","v":4}"#;
    assert_eq!(corpus.read("golden/a.json"), golden_of(&expected));
}

#[test]
fn fuzz_judges_each_result_and_bisects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("runs.txt");
    // `cat` that prints `Infinity` for each case whose `v` is 990 or
    // more (the fixture generator's `v`), counting its runs.
    let port = r#"echo run >> "$PORT_RUNS"; sed 's/{[^{}]*"v":99[0-9]}/Infinity/g'"#;
    let generator = support::oracle::generator(dir.path());
    let out = dir.path().join("out");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args([
            "fuzz",
            "--op",
            "timeoutMs",
            "--seed",
            "1",
            "--count",
            "1000",
        ])
        .args([
            "--jobs", "1", "--format", "json", "--left", port, "--right", "cat",
        ])
        .args(["--generator", &generator])
        .arg("--out")
        .arg(&out)
        .env("PORT_RUNS", &counter)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cases"], 1000);
    assert_eq!(report["failedBatches"], 1);
    assert_eq!(report["bisectedBatches"], 0);
    assert_eq!(report["bisectRuns"], 0);
    let [group] = report["divergences"].as_array().unwrap().as_slice() else {
        panic!("{report}");
    };
    assert_eq!(group["signature"], "timeoutMs invalid-output (left)");
    assert_eq!(
        group["leftFailure"]["message"],
        "the oracle printed `Infinity`, which is not JSON"
    );
    // The port ran once for the batch; every other run minimized (each
    // of those counts a run of both sides).
    let runs = std::fs::read_to_string(&counter).unwrap().lines().count();
    let minimize = report["minimizeRuns"].as_u64().unwrap() as usize;
    assert_eq!(runs, 1 + minimize / 2, "{report}");
    assert!(
        stderr.contains("fuzz: the left oracle failed on a batch of 1000 cases (invalid-output: ")
            && stderr.contains(" results are not JSON); each result judged alone\n"),
        "{stderr}"
    );
}
