//! Fuzz reads the ledger: a divergence an accepted or triaged rule
//! matches is known, counted apart, neither minimized nor written; every
//! other divergence is found, minimized and written as before. The
//! cases are the fixture generator's (`support::oracle::generator`), the
//! reference is `cat`.

use crate::support;

use support::{oracle, run_with, Ran};

/// `cat`, but timeoutMs half ported (it throws "not implemented"
/// for each case whose `v` is odd) and closedGuard's `v` printed
/// as `"yes"` when it is below 100 (a bug).
const PORT: &str = r#"sed -E 's/\{"op":"timeoutMs","seed":"[0-9]*","n":[0-9]*,"v":[0-9]*[13579]\}/{"threw":true,"message":"not implemented"}/g; s/("op":"closedGuard",[^}]*"v":)([0-9]|[0-9][0-9])\}/\1"yes"}/g'"#;

const LEDGER: &str = "\
rule op timeoutMs
  match: threw \"not implemented\"
  state: accepted
  reason: not ported yet
";

fn fuzz(dir: &std::path::Path, extra: &[&str]) -> Ran {
    let generator = oracle::generator(dir);
    let mut args = vec![
        "fuzz",
        "--left",
        "cat",
        "--right",
        PORT,
        "--generator",
        &generator,
        "--op",
        "timeoutMs",
        "--op",
        "closedGuard",
        "--seed",
        "3",
        "--count",
        "400",
        "--out",
        "out",
    ];
    args.extend(extra);
    run_with(dir, &args, b"", &[])
}

fn written(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("out"))
        .map(|entries| {
            entries
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn known_divergences_are_counted_apart_and_neither_minimized_nor_written() {
    let dir = tempfile::tempdir().unwrap();
    support::write(dir.path().join("ledger.txt"), LEDGER);
    // Named once, with --verbose (by default, counted per op).
    let ran = fuzz(dir.path(), &["--ledger", "ledger.txt", "--verbose"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "KNOWN timeoutMs /op (100 cases): the ledger accepts it; \
             not minimized, not written\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("DIVERGENCE closedGuard /v (28 cases)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        !ran.stdout.contains("DIVERGENCE timeoutMs"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.last_line().ends_with(
            ": 28 diverged, 1 signature; 100 known (1 signature, accepted by the ledger; \
             by op: timeoutMs 100)"
        ),
        "{}",
        ran.stdout
    );
    assert!(!ran.stderr.contains("known divergence"), "{}", ran.stderr);
    assert_eq!(written(dir.path()), ["closedGuard-v-2521fd879424.json"]);

    // JSON: the known signatures in their own list.
    let ran = fuzz(dir.path(), &["--ledger", "ledger.txt", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(
        report["known"],
        serde_json::json!([{"signature": "timeoutMs /op", "cases": 100}])
    );
    assert_eq!(report["divergences"].as_array().unwrap().len(), 1);

    // Without the ledger, both are new, and both written.
    let dir = tempfile::tempdir().unwrap();
    let ran = fuzz(dir.path(), &[]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(!ran.stdout.contains("KNOWN"), "{}", ran.stdout);
    assert!(
        ran.last_line().ends_with(": 128 diverged, 2 signatures"),
        "{}",
        ran.stdout
    );
    assert_eq!(written(dir.path()).len(), 2);
}

#[test]
fn a_session_whose_divergences_are_all_known_passes() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = format!(
        "{LEDGER}\nrule op closedGuard\n  match: paths /v\n  state: triaged\n  reason: prints yes\n"
    );
    support::write(dir.path().join("ledger.txt"), ledger);
    let ran = fuzz(dir.path(), &["--ledger", "ledger.txt"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.last_line().ends_with(
            ": 0 diverged, 0 signatures; 128 known (2 signatures, accepted by the ledger; \
             by op: closedGuard 28, timeoutMs 100; --verbose lists them)"
        ),
        "{}",
        ran.stdout
    );
    assert!(written(dir.path()).is_empty());
    // A ledger named that does not exist is an input error.
    let ran = fuzz(dir.path(), &["--ledger", "none.txt"]);
    assert_eq!(ran.code, 2, "{ran:?}");
}
