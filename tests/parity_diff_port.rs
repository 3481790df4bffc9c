//! The three-op example port (examples/partial_port.py) over the bundled
//! corpus: a short report that shows its bug, the JSON report's summary
//! and byOp, and the ledger docs/LEDGER.md documents. The rest of a
//! partial port's reports is parity-diff's own tests'
//! (crates/parity-diff/tests/partial_port.rs).

use crate::parity_diff_support as support;

use parity_diff::report::Tally;
use support::report::{named, tally, CaseState, Report, Version};
use support::{require_python3, root, run, EXAMPLE_PORT};

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
