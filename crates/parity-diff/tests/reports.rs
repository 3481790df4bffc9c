//! One run, every report (issue 36): `run --report FORMAT=PATH` writes
//! each format beside the main output, and `parity-diff report SAVED.json
//! --format F` renders a saved JSON report; both byte for byte what `run
//! --format F` alone prints.

use crate::daily_support::{Corpus, ORACLE_CMD};

const FORMATS: [&str; 5] = ["human", "json", "junit", "markdown", "html"];

/// Identical, different, same-value, thrown, accepted by a rule, triaged
/// by a rule, stale, crashed (and accepted), and an unknown op.
pub fn mixed() -> Corpus {
    let corpus = Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"add","name":"a1","x":1},{"op":"add","name":"a2","x":2},
{"op":"add","name":"a3","x":3.0},{"op":"mul","name":"m1","x":1},
{"op":"mul","name":"m2","throw":"boom"}]"#,
        r#"[{"op":"add","name":"a1","x":1},{"op":"add","name":"a2","x":20},
{"op":"add","name":"a3","x":3},{"op":"mul","name":"m1","x":5},
{"threw":true,"message":"bang"}]"#,
    );
    corpus.case(
        "b.json",
        r#"[{"op":"add","name":"b1","y":1},{"op":"div","name":"d1","crash":true},
{"op":"div","name":"d2"},{"op":"zap","name":"z1"}]"#,
        r#"[{"op":"add","name":"b1","y":2},{"op":"div","name":"d1","crash":true},
{"op":"div","name":"d2"},{"threw":true,"message":"unknown op zap"}]"#,
    );
    corpus.write(
        "parity-ledger.txt",
        r#"rule op mul
  match: paths /x
  state: accepted
  reason: mul rounds differently on purpose

rule op mul
  match: threw "boom"
  state: triaged https://example.com/issues/7
  reason: mul throws the wrong message

rule op div
  match: crash
  state: accepted
  reason: div crashes on purpose
"#,
    );
    // b1 accepted while it differed, then fixed: a stale entry.
    let accepted = corpus.run(&[
        "accept", "--oracle", ORACLE_CMD, "--reason", "was off", "--filter", "b.json", "--op",
        "add",
    ]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    corpus.write(
        "golden/b.json",
        r#"[{"op":"add","name":"b1","y":1},{"op":"div","name":"d1","crash":true},
{"op":"div","name":"d2"},{"threw":true,"message":"unknown op zap"}]"#,
    );
    corpus
}

#[test]
#[ignore = "needs python3"]
fn every_report_of_one_run_is_the_run_in_that_format() {
    crate::support::require_python3();
    let corpus = mixed();
    corpus.oracle_runs();
    let mut args = vec!["run", "--oracle", ORACLE_CMD, "--format", "json"];
    let extra: Vec<String> = FORMATS
        .iter()
        .map(|format| format!("--report={format}=out/report.{format}"))
        .collect();
    args.extend(extra.iter().map(String::as_str));
    corpus.write("out/.keep", "");
    let together = corpus.run(&args);
    assert_eq!(together.code, 1, "{}", together.stderr);
    // The oracle ran once per file, and a bisection's runs: not once per
    // format.
    let runs_together = corpus.oracle_runs();
    corpus.write("saved.json", &together.text());
    for format in FORMATS {
        let alone = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", format]);
        assert_eq!(alone.code, 1, "{format}: {}", alone.stderr);
        assert_eq!(corpus.oracle_runs(), runs_together, "{format}");
        let written = corpus.read(&format!("out/report.{format}"));
        assert_eq!(
            String::from_utf8_lossy(&written),
            alone.text(),
            "--report {format}=PATH is not `run --format {format}`"
        );
        let rendered = corpus.run(&["report", "saved.json", "--format", format]);
        assert_eq!(rendered.code, 1, "{format}: {}", rendered.stderr);
        assert_eq!(
            rendered.text(),
            alone.text(),
            "`report --format {format}` is not `run --format {format}`"
        );
        let to_file = corpus.run(&[
            "report",
            "saved.json",
            "--format",
            format,
            "-o",
            "out/again",
        ]);
        assert_eq!(to_file.code, 1, "{format}: {}", to_file.stderr);
        assert!(to_file.stdout.is_empty());
        assert_eq!(corpus.read("out/again"), alone.stdout, "{format} -o");
    }
    // The main output of a run with extra reports is its own format's.
    assert_eq!(
        corpus
            .run(&["run", "--oracle", ORACLE_CMD, "--format", "json"])
            .stdout,
        together.stdout
    );
}

#[test]
#[ignore = "needs python3"]
fn a_quiet_human_report_renders_from_a_saved_report() {
    crate::support::require_python3();
    let corpus = mixed();
    let json = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "json"]);
    corpus.write("saved.json", &json.text());
    let alone = corpus.run(&["run", "--oracle", ORACLE_CMD, "--quiet"]);
    let rendered = corpus.run(&["report", "saved.json", "--quiet"]);
    assert_eq!(rendered.text(), alone.text());
    assert_eq!(rendered.code, alone.code);
}

#[test]
#[ignore = "needs python3"]
fn a_green_run_renders_green() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"a","name":"x"}]"#,
        r#"[{"op":"a","name":"x"}]"#,
    );
    let ran = corpus.run(&[
        "run",
        "--oracle",
        ORACLE_CMD,
        "--report",
        "json=saved.json",
        "--report",
        "junit=junit.xml",
    ]);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let rendered = corpus.run(&["report", "saved.json", "--format", "junit"]);
    assert_eq!(rendered.code, 0);
    assert_eq!(rendered.stdout, corpus.read("junit.xml"));
}

#[test]
#[ignore = "needs python3"]
fn bad_report_flags_and_reports_are_input_errors() {
    crate::support::require_python3();
    let corpus = Corpus::new();
    corpus.case("a.json", r#"[{"op":"a"}]"#, r#"[{"op":"a"}]"#);
    for (flag, says) in [
        ("junit", "FORMAT=PATH"),
        ("xml=out.xml", "no format \"xml\""),
        ("junit=", "names no file"),
    ] {
        let ran = corpus.run(&["run", "--oracle", ORACLE_CMD, "--report", flag]);
        assert_eq!(ran.code, 2, "{flag}");
        assert!(ran.stderr.contains(says), "{flag}: {}", ran.stderr);
    }
    let ran = corpus.run(&[
        "run",
        "--oracle",
        ORACLE_CMD,
        "--report",
        "junit=no/such/dir/out.xml",
    ]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("cannot write the junit report"),
        "{}",
        ran.stderr
    );
    assert_eq!(corpus.oracle_runs(), 0, "the run stops before it starts");
    corpus.write("not.json", "[1,2");
    let ran = corpus.run(&["report", "not.json"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    let ran = corpus.run(&["report", "missing.json"]);
    assert_eq!(ran.code, 2, "{}", ran.stderr);
}

#[test]
#[ignore = "needs python3"]
fn merge_writes_extra_reports_too() {
    crate::support::require_python3();
    let corpus = mixed();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let ran = corpus.run(&[
            "run", "--oracle", ORACLE_CMD, "--format", "json", "--shard", &shard,
        ]);
        corpus.write(&format!("shard-{k}.json"), &ran.text());
    }
    let merged = corpus.run(&[
        "merge",
        "shard-1.json",
        "shard-2.json",
        "--report",
        "junit=merged.xml",
    ]);
    assert_eq!(merged.code, 1, "{}", merged.stderr);
    let alone = corpus.run(&["merge", "shard-1.json", "shard-2.json", "--format", "junit"]);
    assert_eq!(corpus.read("merged.xml"), alone.stdout);
    let whole = corpus.run(&["run", "--oracle", ORACLE_CMD, "--format", "junit"]);
    assert_eq!(alone.text(), whole.text());
}
