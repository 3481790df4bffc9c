//! docs/YOUR_CONTRACT.md's example, end to end: the calc contract in
//! examples/contract-calc (a reference and a port in python3, their
//! cases, goldens, ledger and parity.toml), run as the guide runs it.

use std::fs;
use std::path::Path;

use crate::numbers::{parity_diff, stdout};

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn example() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/contract-calc");
    copy_dir(&source, dir.path());
    dir
}

#[test]
#[ignore = "needs python3"]
fn the_goldens_are_the_reference_s() {
    crate::support::require_python3();
    let dir = example();
    let check = parity_diff(dir.path(), &["bless", "--check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

#[test]
#[ignore = "needs python3"]
fn the_ledger_accounts_for_every_divergence() {
    crate::support::require_python3();
    let dir = example();
    let run = parity_diff(dir.path(), &["run"]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(0), "{text}");
    assert!(text.contains("5 passed, 0 failed, 5 accepted"), "{text}");
}

#[test]
#[ignore = "needs python3"]
fn without_the_ledger_each_divergence_shows_as_the_guide_says() {
    crate::support::require_python3();
    let dir = example();
    fs::remove_file(dir.path().join("parity-ledger.txt")).unwrap();
    let run = parity_diff(dir.path(), &["run"]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{text}");
    for shown in [
        "number written `1.0000000000000001e+23` (golden `100000000000000000000001`) at /value",
        r#"the port returned {"value":null} where the golden threw "division by zero""#,
        r#"neg (2 cases): "not implemented: neg""#,
        "5 passed, 5 failed",
    ] {
        assert!(text.contains(shown), "{shown:?} in {text}");
    }
    // accept --rule writes the guide's three rules.
    let accept = parity_diff(dir.path(), &["accept", "--rule", "--reason", "known"]);
    assert_eq!(accept.status.code(), Some(0), "{}", stdout(&accept));
    let ledger = fs::read_to_string(dir.path().join("parity-ledger.txt")).unwrap();
    for rule in [
        "match: spelling",
        "match: returned",
        "match: threw \"not implemented: neg\"",
    ] {
        assert!(ledger.contains(rule), "{rule:?} in {ledger}");
    }
}

#[test]
#[ignore = "needs python3"]
fn exact_numbers_tell_the_big_integer_apart() {
    crate::support::require_python3();
    let dir = example();
    let run = parity_diff(dir.path(), &["run", "--numbers", "exact"]);
    let text = stdout(&run);
    assert_eq!(run.status.code(), Some(1), "{text}");
    assert!(text.contains("golden: 100000000000000000000001"), "{text}");
    assert!(text.contains("actual: 1.0000000000000001e+23"), "{text}");
    assert!(text.contains("5 passed, 1 failed, 4 accepted"), "{text}");
}
