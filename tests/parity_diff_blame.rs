//! A port that fails on one case of a file (it crashes, prints invalid
//! JSON or the wrong number of results, or hangs) costs that case, not
//! the file: `run` names the case as an error and compares every other
//! case; `accept` records the rest and leaves the case's entry alone;
//! `bless` keeps the case's old golden element.
//!
//! The ports are `cat` (each case file is its own golden) with a fault
//! planted on the case named "c2".

#[path = "parity_diff_support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use support::{golden_of, Corpus};

/// Six cases; "c2" holds a token, which must never be shown.
const CASES: [&str; 6] = [
    r#"{"op":"x","name":"c0","v":0}"#,
    r#"{"op":"x","name":"c1","v":1}"#,
    r#"{"op":"x","name":"c2","token":"tok-secret-9"}"#,
    r#"{"op":"x","name":"c3","v":3}"#,
    r#"{"op":"x","name":"c4","v":4}"#,
    r#"{"op":"x","name":"c5","v":5}"#,
];

/// a.json: the six cases, one a line, whose golden differs at "c4";
/// b.json: two cases that pass.
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    let mut golden = CASES;
    golden[4] = r#"{"op":"x","name":"c4","v":40}"#;
    corpus
        .case("a.json", &format!("[\n{}\n]\n", CASES.join(",\n")))
        .golden("a.json", &golden_of(&golden))
        .case("b.json", r#"[{"op":"y","n":1},{"op":"y","n":2}]"#)
        .golden(
            "b.json",
            &golden_of(&[r#"{"op":"y","n":1}"#, r#"{"op":"y","n":2}"#]),
        );
    corpus
}

/// `cat`, except on any batch holding "c2", where it runs `fault`.
fn port(fault: &str) -> String {
    format!(r#"input=$(cat); case "$input" in *'"c2"'*) {fault};; esac; printf '%s' "$input""#)
}

const CRASH: &str = r#"echo "port: cannot handle $input" >&2; exit 3"#;

fn json(ran: &support::Ran) -> serde_json::Value {
    serde_json::from_str(&ran.stdout).unwrap_or_else(|e| panic!("{e}: {}", ran.stdout))
}

/// The verdict and state of each case of a JSON report's first file.
fn verdicts(report: &serde_json::Value) -> Vec<(String, String)> {
    report["files"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            (
                case["verdict"].as_str().unwrap().to_owned(),
                case["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(v, s)| (v.to_string(), s.to_string()))
        .collect()
}

#[test]
fn a_port_that_crashes_on_one_case_costs_that_case_only() {
    let corpus = corpus();
    let ran = corpus.run(&["run", "--oracle", &port(CRASH)]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let expected = concat!(
        "ERROR [1 case] x: the oracle exited with status 3\n",
        "  ERROR a.json:4 #2 x \"c2\": the oracle exited with status 3\n",
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
        "error: the oracle failed on 1 case (crash, invalid output or timeout; \
         each is named above as ERROR)\n"
    ));
    assert!(
        !ran.stdout.contains("could not be compared"),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "6 passed, 2 failed");

    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--format", "json"]);
    assert_eq!(ran.code, 2);
    let report = json(&ran);
    assert_eq!(
        verdicts(&report),
        pairs(&[
            ("identical", "passed"),
            ("identical", "passed"),
            ("crash", "error"),
            ("identical", "passed"),
            ("different", "failed"),
            ("identical", "passed"),
        ])
    );
    let c2 = &report["files"][0]["cases"][2];
    assert_eq!(c2["summary"], "the oracle exited with status 3");
    assert_eq!(
        c2["stderr"],
        "port: cannot handle [{\"op\":\"x\",\"name\":\"c2\",\"token\":\"<redacted>\"}]\n"
    );
    assert_eq!(c2["signature"]["kind"], "crash");
    assert!(report["files"][0].get("problem").is_none());
    let summary = &report["summary"];
    assert_eq!(
        (&summary["passed"], &summary["failed"], &summary["errors"]),
        (&6.into(), &2.into(), &1.into())
    );
    assert_eq!(summary["skipped"], 0);
    assert_eq!(summary["exitCode"], 2);

    // JUnit: the case is an <error> with the stderr.
    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--format", "junit"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stdout
            .contains("<error type=\"crash\" message=\"the oracle exited with status 3\">"),
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
    assert_eq!(ran.code, 2, "{ran:?}");
    let report = json(&ran);
    assert_eq!(
        verdicts(&report),
        pairs(&[
            ("identical", "passed"),
            ("identical", "passed"),
            ("invalid-output", "error"),
            ("invalid-output", "error"),
            ("different", "failed"),
            ("identical", "passed"),
        ])
    );
    let cases = &report["files"][0]["cases"];
    assert!(
        cases[2]["summary"]
            .as_str()
            .unwrap()
            .starts_with("the oracle printed an incomplete or malformed array"),
        "{}",
        cases[2]["summary"]
    );
    assert_eq!(
        cases[3]["summary"],
        "the oracle printed 2 results for 1 case"
    );
    assert_eq!(report["summary"]["errors"], 2);

    let ran = corpus.run(&["run", "--oracle", oracle]);
    assert!(ran
        .stdout
        .contains("  ERROR a.json:5 #3 x \"c3\": the oracle printed 2 results for 1 case\n"));
    assert!(ran
        .stdout
        .contains("      (the oracle wrote nothing on stderr)\n"));
    assert!(ran.stdout.contains("error: the oracle failed on 2 cases"));
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
    assert_eq!(ran.code, 2, "{ran:?}");
    let report = json(&ran);
    assert_eq!(
        verdicts(&report),
        pairs(&[
            ("identical", "passed"),
            ("identical", "passed"),
            ("timeout", "error"),
            ("identical", "passed"),
            ("different", "failed"),
            ("identical", "passed"),
        ])
    );
    assert_eq!(
        report["files"][0]["cases"][2]["summary"],
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
    assert_eq!(ran.code, 2, "{ran:?}");
    let report = json(&ran);
    let found: Vec<(u64, String)> = report["files"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["index"].as_u64().unwrap(),
                c["state"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, "passed".to_owned()),
            (3, "error".to_owned()),
            (4, "passed".to_owned())
        ]
    );
    assert_eq!(report["files"][0]["cases"][1]["label"], "#3 y \"c3\"");
}

#[test]
fn cases_that_fail_only_together_are_compared_and_reported() {
    let corpus = corpus();
    // Fails on any batch of more than three cases: every half passes.
    let oracle = r#"input=$(cat); n=$(printf '%s' "$input" | grep -o '"op"' | wc -l); if [ "$n" -gt 3 ]; then echo "too many: $n" >&2; exit 5; fi; printf '%s' "$input""#;
    let ran = corpus.run(&["run", "--oracle", oracle]);
    assert_eq!(ran.code, 2, "{ran:?}");
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
    assert_eq!(ran.last_line(), "7 passed, 1 failed");
}

#[test]
fn accept_records_the_rest_and_leaves_the_failing_case_alone() {
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
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran
        .stdout
        .contains("added    a.json \"c4\" (x, different at /v)\n"));
    assert!(ran.stdout.contains(
        "error    a.json \"c2\" (crash: the oracle exited with status 3)\n\
         error: the oracle failed on 1 case (crash, invalid output or timeout); \
         their entries were left alone\n"
    ));
    assert!(!ran.stdout.contains("could not be compared"));
    let text = corpus.read("ledger.txt");
    assert!(text.contains("case a.json \"c4\""));
    assert!(!text.contains("\"c2\""), "{text}");
    // With the ledger, run still errs on c2 alone.
    let ran = corpus.run(&["run", "--oracle", &port(CRASH), "--ledger", ledger]);
    assert_eq!(ran.code, 2);
    assert_eq!(ran.last_line(), "6 passed, 1 failed, 1 accepted");
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
    let report = json(&ran);
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
