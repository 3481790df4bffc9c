//! Globs in ledger rules and `--filter` are compiled once and matched in
//! time linear in the path, with a bound on their length (issue 40,
//! item 4): a rule glob of 16 000 `[` is refused with a clear error, and
//! one of the longest length taken, `[[]` after `[[]`, is matched against
//! 200 failing cases (a rule's `files:` is tried for each). The time is
//! measured by hand (see the commit); the test holds the behaviour.

use std::path::Path;
use std::process::Command;

fn corpus(rule_glob: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    let cases: Vec<String> = (0..200)
        .map(|n| format!(r#"{{"op":"x","name":"c{n}"}}"#))
        .collect();
    std::fs::write(
        dir.path().join("cases/a.json"),
        format!("[{}]", cases.join(",")),
    )
    .unwrap();
    let golden = vec![r#"{"v":1}"#; 200];
    std::fs::write(
        dir.path().join("golden/a.json"),
        format!("[{}]", golden.join(",")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("parity-ledger.txt"),
        format!(
            "rule op x\n  files: {rule_glob}\n  match: paths /v\n  state: accepted\n  reason: r\n"
        ),
    )
    .unwrap();
    dir
}

/// The port answers `{"v":2}` to every case: all 200 fail.
fn run(dir: &Path, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(["run", "--no-config", "--oracle"])
        .arg(r#"python3 -c 'import json,sys; print(json.dumps([{"v":2}]*len(json.load(sys.stdin)),separators=(",",":")),end="")'"#)
        .args(extra)
        .current_dir(dir)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
#[ignore = "needs python3"]
fn a_glob_longer_than_the_bound_is_refused() {
    crate::support::require_python3();
    let dir = corpus(&"[".repeat(16_000));
    let (code, out) = run(dir.path(), &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("16000 characters"), "{out}");
    assert!(out.contains("4096"), "{out}");
    let dir = corpus("a.json");
    let (code, out) = run(dir.path(), &["--filter", &"*".repeat(5000)]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("--filter"), "{out}");
}

#[test]
#[ignore = "needs python3"]
fn the_longest_glob_taken_is_matched_against_every_failing_case() {
    crate::support::require_python3();
    // 1 365 classes of one `[` each: no file name matches, all 200 fail.
    let classes = "[[]".repeat(4096 / 3);
    let dir = corpus(&classes);
    let (code, out) = run(dir.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("200 failed"), "{out}");
    // A glob as long, of classes and stars, that a name of 200 `[`
    // matches (a name has at most 255 bytes): all accepted.
    let glob = format!("{}{}.json", "[[]".repeat(200), "*".repeat(3000));
    let dir = corpus(&glob);
    let name = format!("{}.json", "[".repeat(200));
    std::fs::rename(
        dir.path().join("cases/a.json"),
        dir.path().join("cases").join(&name),
    )
    .unwrap();
    std::fs::rename(
        dir.path().join("golden/a.json"),
        dir.path().join("golden").join(&name),
    )
    .unwrap();
    let (code, out) = run(dir.path(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("200 accepted"), "{out}");
}
