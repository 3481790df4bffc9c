//! Numbers as the oracles wrote them, and "same value" per suite: a port
//! that prints its results from a file (`cat`), against goldens that
//! spell numbers past what a double holds.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

/// A project in `dir`: one case file of `cases`, its golden, a port
/// that prints `results`, and a `parity.toml` whose suite has `keys`.
pub fn project(dir: &Path, cases: &str, golden: &str, results: &str, keys: &str) {
    fs::create_dir_all(dir.join("cases")).unwrap();
    fs::create_dir_all(dir.join("golden")).unwrap();
    fs::write(dir.join("cases/c.json"), cases).unwrap();
    fs::write(dir.join("golden/c.json"), golden).unwrap();
    fs::write(dir.join("results.json"), results).unwrap();
    fs::write(
        dir.join("parity.toml"),
        format!("[suite.calc]\noracle = \"cat results.json\"\n{keys}\n"),
    )
    .unwrap();
}

/// `parity-diff ARGS` in `dir`, outside CI (`accept` and fuzz's findings
/// write there, which CI refuses; .ci/run sets it).
pub fn parity_diff(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_ACTIONS")
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const CASES: &str = r#"[{"name":"huge"},{"name":"big"},{"name":"zero"},{"name":"one"}]"#;
const GOLDEN: &str = "[\n1e1000,\n100000000000000000000001,\n0,\n1\n]\n";

#[test]
fn every_format_shows_numbers_as_written() {
    let dir = tempfile::tempdir().unwrap();
    // Unequal values in any mode: each side's spelling must show.
    let results = r#"[-1e1000,200000000000000000000002,"0",[2.50]]"#;
    project(dir.path(), CASES, GOLDEN, results, "");
    let human = parity_diff(dir.path(), &["run"]);
    let text = stdout(&human);
    assert_eq!(human.status.code(), Some(1), "{text}");
    for shown in [
        "golden: 1e1000",
        "actual: -1e1000",
        "golden: 100000000000000000000001",
        "actual: 200000000000000000000002",
        "actual: [2.50]",
    ] {
        assert!(text.contains(shown), "{shown:?} in {text}");
    }
    assert!(!text.contains("null"), "{text}");
    assert!(!text.contains("e+23"), "{text}");
    for format in ["json", "markdown", "junit", "html"] {
        let output = parity_diff(dir.path(), &["run", "--format", format]);
        let text = stdout(&output);
        for written in [
            "1e1000",
            "100000000000000000000001",
            "200000000000000000000002",
        ] {
            assert!(text.contains(written), "{format}: {written} in {text}");
        }
        assert!(!text.contains("e+23"), "{format}: {text}");
    }
    // The JSON report's value is the oracle's, its text beside it.
    let json = stdout(&parity_diff(dir.path(), &["run", "--format", "json"]));
    assert!(
        json.contains(r#""golden":1e1000,"goldenText":"1e1000""#),
        "{json}"
    );
    // GitHub's annotations quote the first difference.
    let annotated = parity_diff(dir.path(), &["run", "--annotate", "github"]);
    let all = format!(
        "{}{}",
        stdout(&annotated),
        String::from_utf8_lossy(&annotated.stderr)
    );
    assert!(all.contains("200000000000000000000002"), "{all}");
}

#[test]
fn double_numbers_are_the_default_and_exact_numbers_tell_decimals_apart() {
    let dir = tempfile::tempdir().unwrap();
    // Equal as doubles, every one; equal as decimals, only the last.
    let results = r#"[2e1000,100000000000000010000000,-0,1.0]"#;
    project(dir.path(), CASES, GOLDEN, results, "semantic = true");
    let double = parity_diff(dir.path(), &["run"]);
    assert_eq!(double.status.code(), Some(0), "{}", stdout(&double));

    let exact = parity_diff(dir.path(), &["run", "--numbers", "exact"]);
    let text = stdout(&exact);
    assert_eq!(exact.status.code(), Some(1), "{text}");
    for shown in [
        "actual: 2e1000",
        "actual: 100000000000000010000000",
        "golden: 0",
        "actual: -0",
    ] {
        assert!(text.contains(shown), "{shown:?} in {text}");
    }
    assert!(text.contains("3 failed"), "{text}");

    // The suite's key, and the flag over it.
    project(
        dir.path(),
        CASES,
        GOLDEN,
        results,
        "semantic = true\nnumbers = \"exact\"",
    );
    assert_eq!(parity_diff(dir.path(), &["run"]).status.code(), Some(1));
    let flag = parity_diff(dir.path(), &["run", "--numbers", "double"]);
    assert_eq!(flag.status.code(), Some(0), "{}", stdout(&flag));

    // Without `semantic` a same value in other bytes fails in either mode.
    project(dir.path(), CASES, GOLDEN, results, "");
    assert_eq!(parity_diff(dir.path(), &["run"]).status.code(), Some(1));
}

#[test]
fn a_bad_numbers_key_or_flag_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), CASES, GOLDEN, GOLDEN, "numbers = \"decimal\"");
    let output = parity_diff(dir.path(), &["run"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("parity.toml:3: suite.calc.numbers: \"double\" or \"exact\""),
        "{stderr}"
    );
    project(dir.path(), CASES, GOLDEN, GOLDEN, "");
    let output = parity_diff(dir.path(), &["run", "--numbers", "float"]);
    assert_eq!(output.status.code(), Some(2));
}
