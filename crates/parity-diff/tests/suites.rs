//! Several suites of one `parity.toml` in one run: one report naming each
//! file's and case's suite (JSON version 2: `suite`, `suites`, `bySuite`),
//! a section per suite in the human report, a JUnit testsuite per suite
//! and file, `--suite`, the flags that name one suite's files, and
//! `delta` across the version upgrade. Then the real thing: the bundled
//! corpus and the toy cluster (`tests/clusters.toml`) in one report.

use crate::support;

use serde_json::Value;
use support::{golden_of, write, Corpus};

/// Two suites, `one` (a passing file) and `two` (a file whose second case
/// diverges), both with `cat` as the oracle, and both with an `a.json`.
fn two_suites() -> Corpus {
    let project = Corpus::new();
    write(
        project.join("parity.toml"),
        "[suite.one]\ncases = \"one/cases\"\noracle = \"cat\"\n\n\
         [suite.two]\ncases = \"two/cases\"\noracle = \"cat\"\n",
    );
    write(project.join("one/cases/a.json"), "[1,2]");
    write(project.join("one/golden/a.json"), golden_of(&["1", "2"]));
    write(project.join("two/cases/a.json"), "[3,4]");
    write(project.join("two/golden/a.json"), golden_of(&["3", "5"]));
    project
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

#[test]
fn every_suite_runs_into_one_json_report_that_names_each_suite() {
    let project = two_suites();
    let ran = project.run(&["run", "--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let report = json(&ran.stdout);
    assert_eq!(report["version"], 2);
    assert_eq!(report["suites"], serde_json::json!(["one", "two"]));
    // Several suites: no one corpus or ledger in the head.
    assert_eq!(report["corpus"], Value::Null);
    let files = report["files"].as_array().unwrap();
    let suites: Vec<&Value> = files.iter().map(|file| &file["suite"]).collect();
    assert_eq!(suites, ["one", "two"]);
    assert_eq!(files[1]["path"], "two/cases/a.json");
    for file in files {
        for case in file["cases"].as_array().unwrap() {
            assert_eq!(case["suite"], file["suite"], "{case}");
        }
    }
    assert_eq!(
        report["bySuite"],
        serde_json::json!({
            "one": {"passed": 2, "failed": 0, "accepted": 0},
            "two": {"passed": 1, "failed": 1, "accepted": 0},
        })
    );
    assert_eq!(report["summary"]["failed"], 1);
}

#[test]
fn the_human_report_has_a_section_per_suite_and_one_closing_line() {
    let project = two_suites();
    let ran = project.run(&["run", "--color", "never"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let lines: Vec<&str> = ran.stdout.lines().collect();
    let one = lines.iter().position(|line| *line == "suite one").unwrap();
    let two = lines.iter().position(|line| *line == "suite two").unwrap();
    assert_eq!(lines[one + 1], "ok a.json (2 cases)");
    assert!(lines[two + 1].starts_with("FAIL a.json"), "{}", ran.stdout);
    assert!(
        ran.stdout.ends_with(
            "suite one: 2 passed, 0 failed\nsuite two: 1 passed, 1 failed\n3 passed, 1 failed\n"
        ),
        "{}",
        ran.stdout
    );
    let ran = project.run(&["run", "--quiet"]);
    assert_eq!(ran.stdout, "3 passed, 1 failed\n");
}

#[test]
fn junit_has_a_testsuite_per_suite_and_file() {
    let project = two_suites();
    let ran = project.run(&["run", "--format", "junit"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("<testsuite name=\"one/a.json\" tests=\"2\" failures=\"0\""),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("<testsuite name=\"two/a.json\" tests=\"2\" failures=\"1\""),
        "{}",
        ran.stdout
    );
}

#[test]
fn suite_selects_and_one_suite_s_flags_need_one_suite() {
    let project = two_suites();
    let ran = project.run(&["run", "--suite", "one"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        "suite one\nok a.json (2 cases)\n2 passed, 0 failed\n"
    );
    let ran = project.run(&["run", "--suite", "two", "--suite", "one", "--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (1, "3 passed, 1 failed\n"));
    for flag in [
        ["--cases", "one/cases"],
        ["--golden", "one/golden"],
        ["--ledger", "l.txt"],
        ["--oracle", "cat"],
        ["--shard", "1/2"],
    ] {
        let ran = project.run(&["run", flag[0], flag[1]]);
        assert_eq!(ran.code, 2, "{flag:?}: {ran:?}");
        assert_eq!(
            ran.stderr,
            format!(
                "parity-diff: {} names one suite's, and 2 suites are selected (one, two): \
                 choose one with --suite NAME\n",
                flag[0]
            )
        );
        let ran = project.run(&["run", "--suite", "one", flag[0], flag[1]]);
        assert!(
            !ran.stderr.contains("names one suite's"),
            "{flag:?}: {ran:?}"
        );
    }
    // A reference given on the command line is one suite's too.
    let ran = project.run(&["bless", "--check", "--reference", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("--reference names one suite's, and 2 suites are selected"),
        "{}",
        ran.stderr
    );
    // A command that works on one suite says so.
    let ran = project.run(&["fuzz", "--count", "1"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("works on one suite, and 2 are selected (one, two)"),
        "{}",
        ran.stderr
    );
}

#[test]
fn accept_and_bless_work_on_every_suite_in_turn() {
    let project = two_suites();
    let toml = std::fs::read_to_string(project.join("parity.toml")).unwrap();
    write(
        project.join("parity.toml"),
        toml.replace(
            "oracle = \"cat\"\n",
            "oracle = \"cat\"\nreference = \"cat\"\n",
        ),
    );
    // Each suite's ledger, under its heading; then every suite passes.
    let ran = project.run(&["accept", "--reason", "why"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        "suite one\n\
         ledger parity-ledger-one.txt: nothing to change (0 entries, 0 rules)\n\
         suite two\n\
         added    a.json #af63a94c8601 ((no op), different at (root))\n\
         ledger parity-ledger-two.txt: 1 added, 0 changed, 0 removed, 0 unchanged\n"
    );
    assert_eq!(
        project.run(&["run", "--quiet"]).stdout,
        "3 passed, 0 failed, 1 accepted\n"
    );
    // One document cannot hold several suites' accept: one suite, or text.
    let ran = project.run(&["accept", "--reason", "why", "--format", "json"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert_eq!(
        ran.stderr,
        "parity-diff: accept over 2 suites (one, two) prints each suite's text in turn; \
         --format json takes one: choose it with --suite NAME\n"
    );
    // bless checks, then writes, every suite's goldens from its reference.
    let ran = project.run(&["bless", "--check"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.starts_with("suite one\n"), "{ran:?}");
    assert!(ran.stdout.contains("suite two\n"), "{ran:?}");
    let ran = project.run(&["bless"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(project.read("two/golden/a.json"), golden_of(&["3", "4"]));
}

#[test]
fn an_input_error_names_its_suite_and_nothing_runs() {
    let project = two_suites();
    std::fs::remove_dir_all(project.join("two/golden")).unwrap();
    let ran = project.run(&["run"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert_eq!(ran.stdout, "");
    assert!(
        ran.stderr.starts_with("parity-diff: suite two: "),
        "{}",
        ran.stderr
    );
}

/// A version 2 report made version 1: no `suites`, `suite` or `bySuite`
/// (edited as text: `version` must stay the first member).
fn as_version_1(report: &str) -> String {
    let cut = |text: &str, from: &str, to: &str| -> String {
        let start = text
            .find(from)
            .unwrap_or_else(|| panic!("no {from} in {text}"));
        let end = start + text[start..].find(to).unwrap();
        format!("{}{}", &text[..start], &text[end..])
    };
    let text = report.replacen("{\"version\":2,", "{\"version\":1,", 1);
    let text = cut(&text, "\"suites\":[", "\"files\":");
    let text = cut(&text, ",\"bySuite\":", ",\"summary\":");
    text.replace("\"suite\":\"one\",", "")
        .replace("\"suite\":\"two\",", "")
}

#[test]
fn delta_and_merge_read_version_1_and_know_suites() {
    let project = two_suites();
    let ran = project.run(&["run", "--suite", "one", "--format", "json"]);
    let old = as_version_1(&ran.stdout);
    assert!(!old.contains("suite"), "{old}");
    write(project.join("base.json"), old);
    write(project.join("head.json"), &ran.stdout);
    // Across the upgrade every case pairs: nothing changed.
    let ran = project.run(&["delta", "base.json", "head.json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.ends_with(
            "2 → 2 passed (0), 0 → 0 accepted; 0 newly failing, 0 failing differently, 0 newly passing, \
             0 added, 0 removed\n"
        ),
        "{}",
        ran.stdout
    );
    // Both naming suites: the same file and case in another suite is
    // another case.
    let both = project.run(&["run", "--format", "json"]);
    write(project.join("both.json"), &both.stdout);
    let ran = project.run(&["delta", "head.json", "both.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.starts_with("Added (2):\n  two: a.json #"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(" 2 added, 0 removed\n"),
        "{}",
        ran.stdout
    );
    // merge keeps a shard's suite (and reads version 1).
    let shard = project.run(&[
        "run", "--suite", "one", "--shard", "1/1", "--format", "json",
    ]);
    write(project.join("shard.json"), &shard.stdout);
    let merged = project.run(&["merge", "shard.json", "--format", "json"]);
    assert_eq!(merged.code, 0, "{merged:?}");
    let merged = json(&merged.stdout);
    assert_eq!(merged["files"][0]["suite"], "one");
    assert_eq!(merged["suites"], serde_json::json!(["one"]));
    write(project.join("shard.json"), as_version_1(&shard.stdout));
    let merged = project.run(&["merge", "shard.json", "--quiet"]);
    assert_eq!(
        (merged.code, merged.stdout.as_str()),
        (0, "2 passed, 0 failed\n")
    );
}

/// Several suites, `two` with a ledger and `one` without, each with a
/// divergence: every report of the run is the run in that format alone,
/// whether written beside it (`--report`) or rendered again from its JSON
/// report (`parity-diff report`). A record is made for its suite's ledger
/// (a case weighed against one keeps its fingerprint, which HTML shows),
/// so the JSON report names the suites that had one (`suiteLedgers`).
#[test]
fn every_report_of_several_suites_is_the_run_in_that_format() {
    let project = two_suites();
    write(project.join("one/golden/a.json"), golden_of(&["1", "7"]));
    write(project.join("two/ledger.txt"), "");
    write(
        project.join("parity.toml"),
        "[suite.one]\ncases = \"one/cases\"\noracle = \"cat\"\n\n\
         [suite.two]\ncases = \"two/cases\"\noracle = \"cat\"\nledger = \"two/ledger.txt\"\n",
    );
    let formats = ["human", "json", "junit", "markdown", "html"];
    let mut args = vec!["run", "--format", "json"];
    let extra: Vec<String> = formats
        .iter()
        .map(|format| format!("--report={format}=out.{format}"))
        .collect();
    args.extend(extra.iter().map(String::as_str));
    let together = project.run(&args);
    assert_eq!(together.code, 1, "{together:?}");
    assert_eq!(
        json(&together.stdout)["suiteLedgers"],
        serde_json::json!(["two"])
    );
    write(project.join("saved.json"), &together.stdout);
    for format in formats {
        let alone = project.run(&["run", "--format", format]);
        assert_eq!(alone.code, 1, "{format}: {alone:?}");
        assert_eq!(
            project.read(&format!("out.{format}")),
            alone.stdout,
            "--report {format}=PATH of several suites is not `run --format {format}`"
        );
        let rendered = project.run(&["report", "saved.json", "--format", format]);
        assert_eq!(
            (rendered.code, rendered.stdout.as_str()),
            (1, alone.stdout.as_str()),
            "`report --format {format}` of several suites is not `run --format {format}`"
        );
    }
    assert!(
        project.read("out.html").contains("<dt>fingerprint</dt>"),
        "the suite with a ledger shows its case's fingerprint"
    );
}
