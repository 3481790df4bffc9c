//! Reports a partial port can live with: the three-op example port
//! (examples/partial_port.py) over the bundled corpus, the JSON report's
//! `summary` and `byOp`, JUnit names that survive an inserted case, `--op`
//! selection, and a corpus with a broken link in it.

use crate::parity_diff_support as support;

use parity_diff::report::Tally;
use support::report::{named, tally, CaseState, Report, Version};
use support::{golden_of, require_python3, root, run, Corpus, EXAMPLE_PORT};

#[test]
#[ignore = "needs python3"]
fn a_three_op_port_gets_a_short_report_that_shows_its_bug() {
    require_python3();
    let ran = run(root(), &["run", "--oracle", EXAMPLE_PORT]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let lines = ran.stdout.lines().count();
    assert!(lines <= 300, "{lines} lines:\n{}", ran.stdout);
    // The rounding bug, in full: where, the input, both values.
    assert!(
        ran.stdout.contains(concat!(
            "FAIL [1 case] readyTimeoutMs: different at /value (golden number, port number)\n",
            "  FAIL env-ready.json:104 #102 readyTimeoutMs \"readyTimeoutMs: fractional\": different at /value\n",
            "      input: {\"name\":\"readyTimeoutMs: fractional\",\"op\":\"readyTimeoutMs\",\"configured\":1500.9}\n",
            "      at /value\n",
            "        golden: 1500\n",
            "        actual: 1501\n",
        )),
        "{}",
        ran.stdout
    );
    // The ops it does not implement: one line each.
    assert!(
        ran.stdout
            .contains("\n  cliArgs (121 cases): \"not implemented\"\n"),
        "{}",
        ran.stdout
    );
    assert!(
        !ran.stdout.contains("FAIL [121 cases] cliArgs"),
        "{}",
        ran.stdout
    );
    // The per-op table, then the closing line, last.
    assert!(ran
        .stdout
        .contains("\nenvOverlay                    32         0         0\n"));
    assert!(ran
        .stdout
        .contains("\nscriptPath                    29         0         0\n"));
    let last = ran.last_line();
    assert!(
        last.ends_with(" failed") && last.contains(" passed, "),
        "{last}"
    );
}

#[test]
#[ignore = "needs python3"]
fn the_json_report_has_summary_and_by_op() {
    require_python3();
    let ran = run(
        root(),
        &["run", "--oracle", EXAMPLE_PORT, "--format", "json"],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // The corpus nests 20 000 levels deep, past serde_json's limit: read
    // the report with our own reader, on a thread with room for it.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || check_report(&ran.stdout))
        .unwrap()
        .join()
        .unwrap();
}

/// The JSON report of the bundled corpus: its summary and `byOp` agree,
/// and each case carries its identity, state and fingerprint. (Its
/// members' names and order are the snapshot's to check:
/// tests/snapshots/run-json.snap.)
fn check_report(stdout: &str) {
    let report = Report::read(stdout);
    assert_eq!(report.head.version, Version::V2);
    assert_eq!(report.head.command, "run");
    let totals = report.totals();
    assert_eq!(report.op("scriptPath"), tally(29, 0, 0));
    assert_eq!(report.op("envOverlay").failed, 0);
    assert_eq!(report.op("readyTimeoutMs").failed, 1);
    assert_eq!(report.op("cliArgs").passed, 0);
    let sum =
        |count: fn(&Tally) -> usize| report.by_op.iter().map(|(_, t)| count(t)).sum::<usize>();
    assert_eq!(sum(|t| t.passed), totals.passed);
    assert_eq!(sum(|t| t.failed), totals.failed);
    assert_eq!(sum(|t| t.accepted), totals.accepted);
    assert_eq!(report.summary.exit_code, 1);
    // Each case carries its identity, state and fingerprint.
    let fractional = report.case("env-ready.json", "readyTimeoutMs: fractional");
    assert_eq!(
        fractional.id,
        named("env-ready.json", "readyTimeoutMs: fractional")
    );
    assert_eq!(fractional.state, CaseState::Failed);
    assert_eq!(fractional.line, Some(104));
    assert_eq!(fractional.fingerprint.as_ref().unwrap().len(), 16);
    assert_eq!(fractional.signature.as_ref().unwrap().kind, "different");
    assert_eq!(
        fractional.actual.as_deref(),
        Some(r#"{"defined":true,"value":1501}"#)
    );
    let passing = report.cases().find(|case| case.passes()).unwrap();
    assert_eq!(passing.state, CaseState::Passed);
    assert_eq!(passing.fingerprint, None);
    // The largest group comes first, naming at most 8 cases.
    let counts: Vec<usize> = report.groups.iter().map(|g| g.count).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert!(report.groups[0].cases.len() <= 8);
}

#[test]
fn junit_names_survive_an_inserted_case() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"x","name":"first"}"#,
        r#"{"op":"x"}"#,
        r#"{"op":"x","name":"third"}"#,
    ];
    let write = |cases: &[&str]| {
        corpus
            .case("a.json", &format!("[\n{}\n]", cases.join(",\n")))
            .golden("a.json", &golden_of(cases));
    };
    write(&cases);
    let names = || {
        // `cat` echoes the case file, framing and all.
        let args = [
            "run",
            "--oracle",
            "cat",
            "--framing",
            "json",
            "--format",
            "junit",
        ];
        let ran = corpus.run(&args);
        assert_eq!(ran.code, 0, "{ran:?}");
        ran.stdout
            .lines()
            .filter_map(|line| line.trim().strip_prefix("<testcase name=\""))
            .map(|rest| rest.split('"').next().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let before = names();
    let hash = parity_diff::corpus::identity::short_hash(cases[1].as_bytes());
    assert_eq!(
        before,
        [
            "a.json &quot;first&quot;".to_owned(),
            format!("a.json #{hash}"),
            "a.json &quot;third&quot;".to_owned()
        ]
    );
    write(&[
        r#"{"op":"x","name":"zeroth"}"#,
        cases[0],
        cases[1],
        cases[2],
    ]);
    let after = names();
    assert_eq!(after[1..], before[..]);
    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "junit"]);
    assert!(
        ran.stdout.contains(&format!(
            "<testcase name=\"a.json #{hash}\" classname=\"a.json\" file=\"cases/a.json\" line=\"4\"/>"
        )),
        "{}",
        ran.stdout
    );
}

#[test]
fn op_selection_sends_only_the_selected_cases() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            "[{\"op\":\"x\",\"v\":1},\n {\"op\":\"y\",\"v\":2},\n {\"op\":\"x\",\"v\":3}]",
        )
        .golden(
            "a.json",
            &golden_of(&[
                r#"{"op":"x","v":1}"#,
                r#"{"op":"y","v":2}"#,
                r#"{"op":"x","v":30}"#,
            ]),
        )
        .case("b.json", r#"[{"op":"y"}]"#)
        .golden("b.json", &golden_of(&[r#"{"op":"y"}"#]))
        .golden("gone.json", "[]\n");
    let ran = corpus.run(&["run", "--oracle", "tee -a seen.txt", "--op", "x"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        corpus.read("seen.txt"),
        "[{\"op\":\"x\",\"v\":1},{\"op\":\"x\",\"v\":3}]",
        "only a.json's x cases, raw bytes kept"
    );
    assert!(
        ran.stdout
            .starts_with("FAIL a.json (1 of 2 cases failed)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("  FAIL a.json:3 #2 x: different at /v\n"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("b.json"), "{}", ran.stdout);
    assert!(
        !ran.stdout.contains("ORPHAN"),
        "an --op run cannot know: {}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "1 passed, 1 failed");
    let ran = corpus.run(&[
        "run", "--oracle", "cat", "--op", "x", "--op", "y", "--format", "json",
    ]);
    let report = Report::read(&ran.stdout);
    assert_eq!(
        report.by_op,
        [
            ("x".to_owned(), tally(1, 1, 0)),
            ("y".to_owned(), tally(2, 0, 0))
        ]
    );
    let ran = corpus.run(&["run", "--oracle", "cat", "--op", "x", "--op", "z"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("--op z matches no case in the selected case files"),
        "{}",
        ran.stderr
    );
}

#[test]
fn one_broken_link_costs_its_file_not_the_corpus() {
    use std::os::unix::fs::symlink;
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[1]")
        .golden("a.json", &golden_of(&["1"]));
    symlink("nowhere.json", corpus.join("cases/gone.json")).unwrap();
    symlink("loop.json", corpus.join("cases/loop.json")).unwrap();
    symlink("nowhere.json", corpus.join("golden/a2.json")).unwrap();
    corpus.case("a2.json", "[2]");
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains("ok a.json (1 case)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("ERROR gone.json: cases/gone.json is a symbolic link to nothing\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("ERROR loop.json: cases/loop.json is a symbolic link that loops\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "ERROR a2.json: golden golden/a2.json is a symbolic link to nothing, or one that loops\n"
        ),
        "{}",
        ran.stdout
    );
    let ran = corpus.run(&["bless", "--reference", "cat", "--check"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR      gone.json: cases/gone.json is a symbolic link to nothing\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("unchanged  a.json (1 case)\n"),
        "{}",
        ran.stdout
    );
}

#[test]
#[ignore = "needs python3"]
fn the_documented_ledger_accepts_the_example_ports_rounding_bug() {
    require_python3();
    let doc = std::fs::read_to_string(root().join("docs/LEDGER.md")).unwrap();
    let start = doc.find("```\n# parity-diff ledger").unwrap() + 4;
    let end = start + doc[start..].find("```").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.txt");
    std::fs::write(&ledger, &doc[start..end]).unwrap();
    let ran = run(
        root(),
        &[
            "run",
            "--oracle",
            EXAMPLE_PORT,
            "--ledger",
            ledger.to_str().unwrap(),
        ],
    );
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    // The rounding bug fails nothing: it is named once, as triaged.
    let named: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|line| line.contains("readyTimeoutMs: fractional"))
        .collect();
    assert_eq!(
        named,
        [
            "  env-ready.json:104 #102 readyTimeoutMs \"readyTimeoutMs: fractional\": triaged \
          (https://github.com/acme/port/issues/12): Python's round() rounds half to even; the \
          contract floors"
        ],
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("ORPHANED"), "{}", ran.stdout);
    let env_ready = ran
        .stdout
        .lines()
        .find(|line| line.starts_with("FAIL env-ready.json ("))
        .unwrap();
    assert!(env_ready.ends_with(" failed, 1 accepted)"), "{env_ready}");
    assert!(
        ran.last_line().ends_with(", 3 accepted"),
        "{}",
        ran.last_line()
    );
}
