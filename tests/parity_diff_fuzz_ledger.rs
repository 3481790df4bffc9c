//! Fuzz reads the ledger: a divergence an accepted or triaged rule
//! matches is known, counted apart, neither minimized nor written; every
//! other divergence is found, minimized and written as before.

use crate::parity_diff_support as support;

use support::{run_with, Ran};

const ORACLE: &str = env!("CARGO_BIN_EXE_worker-spawn-oracle");

/// Our oracle, but readyTimeoutMs not ported (it throws "not
/// implemented" where a value is due) and sessionClosedGuard's `true`
/// printed as `"yes"` (a bug).
fn port() -> String {
    format!(
        r#"{ORACLE} | sed 's/{{"defined":true,"value":[0-9]*}}/{{"threw":true,"message":"not implemented"}}/g; s/"value":true/"value":"yes"/g'"#
    )
}

const LEDGER: &str = "\
rule op readyTimeoutMs
  match: threw \"not implemented\"
  state: accepted
  reason: not ported yet
";

fn fuzz(dir: &std::path::Path, extra: &[&str]) -> Ran {
    let generator = format!("{ORACLE} generate");
    let port = port();
    let mut args = vec![
        "fuzz",
        "--left",
        ORACLE,
        "--right",
        &port,
        "--generator",
        &generator,
        "--op",
        "readyTimeoutMs",
        "--op",
        "sessionClosedGuard",
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
            "KNOWN readyTimeoutMs /defined (147 cases): the ledger accepts it; \
             not minimized, not written\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("DIVERGENCE sessionClosedGuard /value (43 cases)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        !ran.stdout.contains("DIVERGENCE readyTimeoutMs"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.last_line().ends_with(
            ": 43 diverged, 1 signature; 147 known (1 signature, accepted by the ledger; \
             by op: readyTimeoutMs 147)"
        ),
        "{}",
        ran.stdout
    );
    assert!(!ran.stderr.contains("known divergence"), "{}", ran.stderr);
    assert_eq!(
        written(dir.path()),
        ["sessionClosedGuard-value-d6ba1114f65f.json"]
    );

    // JSON: the known signatures in their own list.
    let ran = fuzz(dir.path(), &["--ledger", "ledger.txt", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(
        report["known"],
        serde_json::json!([{"signature": "readyTimeoutMs /defined", "cases": 147}])
    );
    assert_eq!(report["divergences"].as_array().unwrap().len(), 1);

    // Without the ledger, both are new, and both written.
    let dir = tempfile::tempdir().unwrap();
    let ran = fuzz(dir.path(), &[]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(!ran.stdout.contains("KNOWN"), "{}", ran.stdout);
    assert!(
        ran.last_line().ends_with(": 190 diverged, 2 signatures"),
        "{}",
        ran.stdout
    );
    assert_eq!(written(dir.path()).len(), 2);
}

#[test]
fn a_session_whose_divergences_are_all_known_passes() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = format!(
        "{LEDGER}\nrule op sessionClosedGuard\n  match: paths /value\n  state: triaged\n  reason: prints yes\n"
    );
    support::write(dir.path().join("ledger.txt"), ledger);
    let ran = fuzz(dir.path(), &["--ledger", "ledger.txt"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.last_line().ends_with(
            ": 0 diverged, 0 signatures; 190 known (2 signatures, accepted by the ledger; \
             by op: readyTimeoutMs 147, sessionClosedGuard 43; --verbose lists them)"
        ),
        "{}",
        ran.stdout
    );
    assert!(written(dir.path()).is_empty());
    // A ledger named that does not exist is an input error.
    let ran = fuzz(dir.path(), &["--ledger", "none.txt"]);
    assert_eq!(ran.code, 2, "{ran:?}");
}
