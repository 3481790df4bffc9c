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
