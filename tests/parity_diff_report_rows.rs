//! The per-op table of the example partial port on the bundled corpus:
//! ops the reference does not know stand on one row, and an op the ledger
//! accepts whole is 0% identical. The rest is parity-diff's own tests'
//! (crates/parity-diff/tests/report_rows.rs).

use crate::parity_diff_support as support;

use support::report::Report;
use support::{require_python3, root, run, EXAMPLE_PORT};

/// The per-op table's rows of a human report: `(op, [passed, accepted,
/// failed])`.
fn op_rows(stdout: &str) -> Vec<(String, [usize; 3])> {
    let table = stdout
        .split("\nop ")
        .nth(1)
        .expect("a per-op table")
        .lines()
        .skip(1);
    table
        .map_while(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let (op, counts) = words.split_at(words.len().checked_sub(3)?);
            let count = |w: &str| w.parse::<usize>().ok();
            Some((
                op.join(" "),
                [count(counts[0])?, count(counts[1])?, count(counts[2])?],
            ))
        })
        .collect()
}

#[test]
#[ignore = "needs python3"]
fn ops_the_reference_does_not_know_are_one_row() {
    require_python3();
    let ran = run(root(), &["run", "--oracle", EXAMPLE_PORT]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let rows = op_rows(&ran.stdout);
    let unknown: Vec<_> = rows.iter().filter(|(op, _)| op == "(unknown op)").collect();
    assert_eq!(unknown.len(), 1, "{rows:?}");
    // The corpus's unknown ops (`CLIARGS`, `__proto__`, `toString`, an
    // empty name, a missing or null op, …): 20 cases, none passing.
    assert_eq!(unknown[0].1, [0, 0, 20]);
    for (op, _) in &rows {
        assert!(
            !["CLIARGS", "__proto__", "toString", "\"\""].contains(&op.as_str()),
            "{op} has a row of its own: {rows:?}"
        );
    }
    // Their groups go with the row: one line, as for an op the port has
    // not implemented.
    assert!(
        ran.stdout
            .contains("\n  (unknown op) (20 cases): \"not implemented\"\n"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("CLIARGS"), "{}", ran.stdout);
    // Cases that are no object at all keep their `(no op)` row.
    assert!(rows.iter().any(|(op, _)| op == "(no op)"), "{rows:?}");

    // The JSON report marks each such case, and byOp counts them once.
    let json = run(
        root(),
        &[
            "run",
            "--oracle",
            EXAMPLE_PORT,
            "--filter",
            "protocol.json",
            "--format",
            "json",
        ],
    );
    let report = Report::read(&json.stdout);
    let missing = report.case("protocol.json", "op missing");
    assert!(missing.unknown_op, "{missing:?}");
    assert_eq!(missing.op, None);
    assert!(report.by_op.iter().any(|(op, _)| op == "(unknown op)"));
    assert!(!report.by_op.iter().any(|(op, _)| op == "CLIARGS"));
}

#[test]
#[ignore = "needs python3"]
fn an_op_the_ledger_accepts_whole_is_0_percent_identical() {
    require_python3();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger.txt");
    let ledger = ledger.to_str().unwrap();
    let accepted = run(
        root(),
        &[
            "accept",
            "--oracle",
            EXAMPLE_PORT,
            "--op",
            "cliArgs",
            "--ledger",
            ledger,
            "--reason",
            "not ported yet",
        ],
    );
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    let ran = run(
        root(),
        &[
            "run",
            "--oracle",
            EXAMPLE_PORT,
            "--op",
            "cliArgs",
            "--op",
            "envOverlay",
            "--ledger",
            ledger,
            "--format",
            "markdown",
        ],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    assert!(
        ran.stdout
            .contains("| op | passed | accepted | failed | identical |"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("\n| `cliArgs` | 0 | 121 | 0 | `▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒` 0% |\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("\n| `envOverlay` | 32 | 0 | 0 | `████████████████████` 100% |\n"),
        "{}",
        ran.stdout
    );
}
