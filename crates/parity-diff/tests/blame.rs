//! A port that fails on one case of a file (it crashes, prints invalid
//! JSON or the wrong number of results, or hangs) costs that case, not
//! the file: `run` names the case as a failure (exit status 1) and
//! compares every other case; `accept` records the case's failure like
//! any divergence; `bless` keeps the case's old golden element.
//!
//! The ports are `cat` (each case file is its own golden) with a fault
//! planted on the case named "c2".

use crate::support;

use std::time::{Duration, Instant};

use support::report::Report;
use support::{golden_of, six_case_corpus as corpus, Corpus, SIX_CASES as CASES};

/// `cat`, except on any batch holding "c2", where it runs `fault`.
fn port(fault: &str) -> String {
    format!(r#"input=$(cat); case "$input" in *'"c2"'*) {fault};; esac; printf '%s' "$input""#)
}

const CRASH: &str = r#"echo "port: cannot handle $input" >&2; exit 3"#;

/// `bless --format json`'s object (its own format, not a report).
fn bless_json(ran: &support::Ran) -> serde_json::Value {
    serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.stdout))
}

#[test]
fn a_port_that_crashes_on_one_case_costs_that_case_only() {
    let corpus = corpus();
    let ran = corpus.run(&["run", "--oracle", &port(CRASH)]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let expected = concat!(
        "ERROR [1 case] x: the oracle exited with status 3\n",
        "  FAIL a.json:4 #2 x \"c2\": the oracle exited with status 3\n",
        "      input: {\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}\n",
        "      stderr (the oracle on this case alone):\n",
        "      | port: cannot handle [{\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}]\n",
    );
    assert!(ran.stdout.contains(expected), "{}", ran.stdout);
    // The other cases were compared: c4's divergence is found.
    assert!(ran.stdout.contains("FAIL a.json (2 of 6 cases failed)\n"));
    assert!(ran
        .stdout
        .contains("  FAIL a.json:6 #4 x \"c4\": different at /v\n"));
    assert!(ran.stdout.contains("ok b.json (2 cases)\n"));
    assert!(!ran.stdout.contains("tok-secret-9"));
    // Cases, not files: no file went uncompared.
    assert!(ran.stdout.contains(
        "FAIL the oracle failed on 1 case (crash, invalid output or timeout; \
         each is named above, and an entry or a rule can accept it)\n"
    ));
    assert!(
        !ran.stdout.contains("could not be compared"),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "6 passed, 2 failed");

    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--format", "json"]);
    assert_eq!(ran.code, 1);
    let report = Report::read(&ran.stdout);
    assert_eq!(
        report.files[0].verdicts(),
        [
            ("identical", "passed"),
            ("identical", "passed"),
            ("crash", "failed"),
            ("identical", "passed"),
            ("different", "failed"),
            ("identical", "passed"),
        ]
    );
    let c2 = &report.files[0].cases[2];
    assert_eq!(c2.summary, "the oracle exited with status 3");
    assert_eq!(
        c2.stderr.as_deref(),
        Some("port: cannot handle [{\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}]\n")
    );
    assert_eq!(c2.signature.as_ref().unwrap().kind, "crash");
    assert!(report.files[0].head.problem.is_none());
    let totals = report.totals();
    assert_eq!((totals.passed, totals.failed, totals.errors), (6, 2, 0));
    assert_eq!(totals.skipped, 0);
    assert_eq!(report.summary.exit_code, 1);

    // JUnit: the case is a <failure> of its kind, with the stderr (as
    // nextest counts a crashing test as a failed one).
    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--format", "junit"]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains("<failure type=\"crash\" message=\"the oracle exited with status 3\">"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("| port: cannot handle"));
}

#[test]
fn invalid_output_and_a_wrong_number_of_results_are_each_one_case() {
    let corpus = corpus();
    // Infinity in place of c2's result; c3's result printed twice.
    let oracle = r#"input=$(cat); printf '%s' "$input" | sed -e 's/{"op":"x","name":"c2"[^}]*}/Infinity/' -e 's/\({"op":"x","name":"c3"[^}]*}\)/\1,\1/'"#;
    let ran = corpus.run(&["run", "--oracle", oracle, "--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let report = Report::read(&ran.stdout);
    assert_eq!(
        report.files[0].verdicts(),
        [
            ("identical", "passed"),
            ("identical", "passed"),
            ("invalid-output", "failed"),
            ("invalid-output", "failed"),
            ("different", "failed"),
            ("identical", "passed"),
        ]
    );
    let cases = &report.files[0].cases;
    // The half that holds c2 prints one element per case: c2's is its own
    // failure, found without running it alone.
    assert_eq!(
        cases[2].summary,
        "the oracle printed `Infinity`, which is not JSON"
    );
    assert_eq!(cases[3].summary, "the oracle printed 2 results for 1 case");
    assert_eq!(report.totals().errors, 0);

    let ran = corpus.run(&["run", "--oracle", oracle]);
    assert!(ran
        .stdout
        .contains("  FAIL a.json:5 #3 x \"c3\": the oracle printed 2 results for 1 case\n"));
    assert!(ran.stdout.contains(
        "  FAIL a.json:4 #2 x \"c2\": the oracle printed `Infinity`, which is not JSON\n"
    ));
    assert!(ran.stdout.contains("FAIL the oracle failed on 2 cases"));
    assert_eq!(ran.last_line(), "5 passed, 3 failed");
}

#[test]
fn a_case_that_hangs_costs_a_few_timeouts_and_only_itself() {
    let corpus = corpus();
    let started = Instant::now();
    let ran = corpus.run(&[
        "run",
        "--oracle",
        &port("sleep 30"),
        "--timeout",
        "0.5",
        "--format",
        "json",
    ]);
    // The file, then [0..3], [1..3] and [2]: four timeouts.
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(ran.code, 1, "{ran:?}");
    let report = Report::read(&ran.stdout);
    assert_eq!(
        report.files[0].verdicts(),
        [
            ("identical", "passed"),
            ("identical", "passed"),
            ("timeout", "failed"),
            ("identical", "passed"),
            ("different", "failed"),
            ("identical", "passed"),
        ]
    );
    assert_eq!(
        report.files[0].cases[2].summary,
        "the oracle did not finish within 0.5 s and was killed"
    );
}

#[test]
fn selected_cases_are_blamed_by_their_place_in_the_case_file() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"x","name":"c0"}"#,
        r#"{"op":"y","name":"c1"}"#,
        r#"{"op":"x","name":"c2"}"#,
        r#"{"op":"y","name":"c3"}"#,
        r#"{"op":"y","name":"c4"}"#,
    ];
    corpus
        .case("m.json", &format!("[{}]", cases.join(",")))
        .golden("m.json", &golden_of(&cases));
    let oracle = port(CRASH).replace(r#"*'"c2"'*"#, r#"*'"c3"'*"#);
    let ran = corpus.run(&["run", "--oracle", &oracle, "--op", "y", "--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let report = Report::read(&ran.stdout);
    let found: Vec<(usize, &str)> = report.files[0]
        .cases
        .iter()
        .map(|c| (c.index, c.state.name()))
        .collect();
    assert_eq!(found, [(1, "passed"), (3, "failed"), (4, "passed")]);
    assert_eq!(report.files[0].cases[1].label, "#3 y \"c3\"");
}

#[test]
fn cases_that_fail_only_together_are_compared_and_reported() {
    let corpus = corpus();
    // Fails on any batch of more than three cases: every half passes.
    let oracle = r#"input=$(cat); n=$(printf '%s' "$input" | grep -o '"op"' | wc -l); if [ "$n" -gt 3 ]; then echo "too many: $n" >&2; exit 5; fi; printf '%s' "$input""#;
    let ran = corpus.run(&["run", "--oracle", oracle]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(concat!(
            "ERROR a.json: the oracle failed (crash: the oracle exited with status 5) on ",
            "cases #0 to #5 (6 cases) run together, but not on either half of them; ",
            "their results come from separate runs\n",
            "    stderr:\n",
            "    | too many: 6\n",
        )),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("FAIL a.json (1 of 6 cases failed)\n"));
    assert!(ran.stdout.contains(
        "error: the oracle failed on some cases of 1 file only when they ran together; \
         their results come from separate runs\n"
    ));
    assert!(!ran.stdout.contains("could not be compared"));
    // The port's failure together fails the run as a file of its own.
    assert_eq!(ran.last_line(), "7 passed, 2 failed");
}

#[test]
fn accept_records_the_crash_like_any_divergence() {
    let corpus = corpus();
    let ledger = corpus.join("ledger.txt");
    let ledger = ledger.to_str().unwrap();
    let ran = corpus.run(&[
        "accept",
        "--oracle",
        &port(CRASH),
        "--reason",
        "v is off",
        "--ledger",
        ledger,
    ]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "added    a.json \"c2\" (x, crash)\n",
            "added    a.json \"c4\" (x, different at /v)\n",
        )
        .to_owned()
            + &format!("ledger {ledger}: 2 added, 0 changed, 0 removed, 0 unchanged\n")
    );
    let text = corpus.read("ledger.txt");
    assert!(text.contains("case a.json \"c4\""));
    assert!(text.contains("case a.json \"c2\"\n  op: x\n  state: accepted\n  reason: v is off\n  verdict: crash\n"), "{text}");
    // With the ledger, the run passes: the crash is known.
    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--ledger", ledger]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "6 passed, 0 failed, 2 accepted");
    // The case passing now, its entry is stale.
    let ran = corpus.run(&["run", "--oracle", &port(":"), "--ledger", ledger]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains("  STALE a.json:4 #2 x \"c2\""),
        "{}",
        ran.stdout
    );
}

#[test]
fn bless_keeps_the_old_golden_element_of_a_case_the_reference_fails_on() {
    let corpus = corpus();
    // A reference that adds 10 to every v, and crashes on c2.
    let reference = port(CRASH).replace(
        r#"printf '%s' "$input""#,
        r#"printf '%s' "$input" | sed 's/"v":\([0-9]\)/"v":1\1/g'"#,
    );
    let before = corpus.read("golden/a.json");
    let ran = corpus.run(&["bless", "--reference", &reference, "--check"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert_eq!(
        corpus.read("golden/a.json"),
        before,
        "--check writes nothing"
    );
    let ran = corpus.run(&["bless", "--reference", &reference]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains(concat!(
            "changed    a.json (5 of 6 cases)\n",
            "    #0 x \"c0\"\n",
            "    #1 x \"c1\"\n",
            "    #3 x \"c3\"\n",
            "    #4 x \"c4\"\n",
            "    #5 x \"c5\"\n",
            "    ERROR #2 x \"c2\" (crash): the oracle exited with status 3; ",
            "its golden element is left as it was\n",
            "        stderr:\n",
            "        | port: cannot handle [{\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}]\n",
        )),
        "{}",
        ran.stdout
    );
    assert_eq!(
        ran.last_line(),
        "0 added, 1 changed, 1 unchanged, 0 orphaned, 1 case the reference failed on"
    );
    let expected = [
        r#"{"op":"x","name":"c0","v":10}"#,
        r#"{"op":"x","name":"c1","v":11}"#,
        CASES[2],
        r#"{"op":"x","name":"c3","v":13}"#,
        r#"{"op":"x","name":"c4","v":14}"#,
        r#"{"op":"x","name":"c5","v":15}"#,
    ];
    assert_eq!(corpus.read("golden/a.json"), golden_of(&expected));

    // Without an old golden there is nothing to keep: nothing is written.
    std::fs::remove_file(corpus.join("golden/a.json")).unwrap();
    let ran = corpus.run(&["bless", "--reference", &reference, "--format", "json"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let report = bless_json(&ran);
    let file = &report["files"][0];
    assert_eq!(file["status"], "error");
    assert_eq!(
        file["message"],
        "the reference failed on 1 of 6 cases, and there is no golden to keep their \
         elements from: golden not written"
    );
    assert_eq!(file["failedCases"][0]["label"], "#2 x \"c2\"");
    assert_eq!(file["failedCases"][0]["verdict"], "crash");
    assert_eq!(report["summary"]["failedCases"], 1);
    assert!(!corpus.join("golden/a.json").exists());
}
