//! `run --rerun-failed REPORT.json` and `accept --rerun-failed`: a run
//! of a partial port reported in JSON, then only the cases that report
//! says did not pass run again, by identity: with `--op` and `--shard`
//! the cases both select, the cases that no longer exist counted, an
//! empty selection passing, and a report that cannot be read refused.
//!
//! The port is a POSIX `sh` script that answers `cat` would (each case
//! is its own result, so each golden decides what fails), crashes on a
//! case holding `"crash":true`, and logs every batch it is sent, so the
//! tests see what was run, not only what was reported.

use crate::support;

use std::collections::BTreeSet;

use support::report::{CaseState, Problem, Report, VerdictKind};
use support::{golden_of, Corpus, Ran};

const PORT: &str = "sh port.sh";

/// Echoes its input, framed as JSON.stringify frames it (the case files
/// put one case on a line; no case holds a line break), after logging it;
/// crashes on a case marked `crash`.
const PORT_SH: &str = r#"input=$(cat)
printf '%s\n' "$input" >> sent.log
case "$input" in *'"crash":true'*) echo "port: crashed" >&2; exit 3;; esac
printf '%s' "$input" | tr -d '\n'
"#;

/// a.json: five cases, two of which (a1 of op x, a3 of op y) the golden
/// holds otherwise; b.json: three, b2 crashing the port; c.json: two
/// that pass; d.json: one, with no golden.
fn partial_port() -> Corpus {
    let corpus = Corpus::new();
    support::write(corpus.join("port.sh"), PORT_SH);
    let a: Vec<String> = (0..5)
        .map(|n| {
            let op = if n == 3 { "y" } else { "x" };
            format!(r#"{{"op":"{op}","name":"a{n}","v":{n}}}"#)
        })
        .collect();
    let mut a_golden = a.clone();
    a_golden[1] = r#"{"op":"x","name":"a1","v":10}"#.into();
    a_golden[3] = r#"{"op":"y","name":"a3","v":30}"#.into();
    let b = [
        r#"{"op":"x","name":"b0"}"#,
        r#"{"op":"y","name":"b1"}"#,
        r#"{"op":"x","name":"b2","crash":true}"#,
    ];
    let c = [r#"{"op":"x","name":"c0"}"#, r#"{"op":"y","name":"c1"}"#];
    let lines = |cases: &[&str]| format!("[\n{}\n]\n", cases.join(",\n"));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let a_golden: Vec<&str> = a_golden.iter().map(String::as_str).collect();
    corpus
        .case("a.json", &lines(&a))
        .golden("a.json", &golden_of(&a_golden))
        .case("b.json", &lines(&b))
        .golden("b.json", &golden_of(&b))
        .case("c.json", &lines(&c))
        .golden("c.json", &golden_of(&c))
        .case("d.json", r#"[{"op":"x","name":"d0"}]"#);
    corpus
}

/// Runs `run --format json` with `args` and saves the report as `name`.
fn save_report(corpus: &Corpus, name: &str, args: &[&str]) -> Report {
    let mut all = vec!["run", "--oracle", PORT, "--format", "json"];
    all.extend(args);
    let ran = corpus.run(&all);
    assert!(matches!(ran.code, 0 | 1), "{ran:?}");
    support::write(corpus.join(name), &ran.stdout);
    Report::read(&ran.stdout)
}

/// The `file name` of every case a report holds.
fn names(report: &Report) -> BTreeSet<String> {
    report
        .cases()
        .map(|case| format!("{} {}", case.file, case.name.as_deref().unwrap_or("?")))
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| name.to_string()).collect()
}

/// What the port was sent, one batch a line, and the log emptied.
fn sent(corpus: &Corpus) -> String {
    let path = corpus.join("sent.log");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(path);
    text
}

fn rerun(corpus: &Corpus, report: &str, args: &[&str]) -> Ran {
    let mut all = vec!["run", "--oracle", PORT, "--rerun-failed", report];
    all.extend(args);
    corpus.run(&all)
}

#[test]
fn a_rerun_runs_exactly_the_cases_that_failed() {
    let corpus = partial_port();
    let first = save_report(&corpus, "r.json", &[]);
    assert_eq!(first.summary.exit_code, 1);
    let failed: BTreeSet<String> = first
        .cases()
        .filter(|case| !case.state.passes())
        .map(|case| format!("{} {}", case.file, case.name.as_deref().unwrap()))
        .collect();
    assert_eq!(failed, set(&["a.json a1", "a.json a3", "b.json b2"]));
    assert_eq!(first.case("b.json", "b2").verdict, VerdictKind::Crash);
    sent(&corpus);

    let ran = rerun(&corpus, "r.json", &["--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    // The three cases, and d.json's one: its missing golden failed the
    // whole file, which runs again.
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 4 cases selected from r.json; the report's cases taken: 3 failed\n"
    );
    let again = Report::read(&ran.stdout);
    assert_eq!(names(&again), failed);
    assert!(again.cases().all(|case| case.state == CaseState::Failed));
    let files: Vec<&str> = again.files.iter().filter_map(|file| file.name()).collect();
    assert_eq!(files, ["a.json", "b.json", "d.json"]);
    assert!(matches!(
        again.file("d.json").head.problem,
        Some(Problem::MissingGolden { .. })
    ));
    let totals = again.totals();
    assert_eq!((totals.passed, totals.failed), (0, 4));
    // The port was sent a.json's two cases and b.json's one, and never
    // c.json's. b2, which the report saw crash, ran alone: no bisection
    // (which would have sent the empty array too).
    let log = sent(&corpus);
    let batches: BTreeSet<&str> = log.lines().collect();
    assert_eq!(
        batches,
        BTreeSet::from([
            r#"[{"op":"x","name":"a1","v":1},{"op":"y","name":"a3","v":3}]"#,
            r#"[{"op":"x","name":"b2","crash":true}]"#,
        ]),
        "{log}"
    );
    // The rerun's report says it was one, so merge and the whole-run
    // checks know it for a selection.
    assert!(again.head.corpus.as_ref().unwrap().rerun.is_some());
    assert_eq!(first.head.corpus.as_ref().unwrap().rerun, None);
}

#[test]
fn a_rerun_with_op_filter_or_shard_takes_what_both_select() {
    let corpus = partial_port();
    save_report(&corpus, "r.json", &[]);

    let ran = rerun(&corpus, "r.json", &["--op", "y", "--format", "json"]);
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 1 case selected from r.json; the report's cases taken: 3 failed\n"
    );
    assert_eq!(names(&Report::read(&ran.stdout)), set(&["a.json a3"]));

    let ran = rerun(
        &corpus,
        "r.json",
        &["--filter", "b.json", "--format", "json"],
    );
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 1 case selected from r.json; the report's cases taken: 3 failed\n"
    );
    assert_eq!(names(&Report::read(&ran.stdout)), set(&["b.json b2"]));

    // Shards keep the ranges of the run without a rerun (11 cases: 0..5,
    // 5..11), each sending the cases of its range the report names.
    let shards: Vec<Report> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            let ran = rerun(&corpus, "r.json", &["--shard", shard, "--format", "json"]);
            assert_eq!(ran.code, 1, "{ran:?}");
            let name = format!("rerun-{}.json", &shard[..1]);
            support::write(corpus.join(&name), &ran.stdout);
            Report::read(&ran.stdout)
        })
        .collect();
    assert_eq!(names(&shards[0]), set(&["a.json a1", "a.json a3"]));
    assert_eq!(names(&shards[1]), set(&["b.json b2"]));
    let ranges: Vec<(usize, usize)> = shards
        .iter()
        .map(|shard| {
            let shard = shard.head.shard.unwrap();
            (shard.from, shard.to)
        })
        .collect();
    assert_eq!(ranges, [(0, 5), (5, 11)]);
    // They merge into the rerun's whole report; with a shard of the run
    // itself they do not.
    let merged = corpus.run(&["merge", "rerun-1.json", "rerun-2.json", "--format", "json"]);
    assert_eq!(merged.code, 1, "{merged:?}");
    assert_eq!(
        names(&Report::read(&merged.stdout)),
        set(&["a.json a1", "a.json a3", "b.json b2"])
    );
    save_report(&corpus, "run-2.json", &["--shard", "2/2"]);
    let refused = corpus.run(&["merge", "rerun-1.json", "run-2.json"]);
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "parity-diff: rerun-1.json and run-2.json selected different cases of the corpus \
         (their --filter, --op or --rerun-failed differ)\n"
    );

    // A shard's own report, rerun with that shard: that shard's failures.
    save_report(&corpus, "run-1.json", &["--shard", "1/2"]);
    let ran = rerun(
        &corpus,
        "run-1.json",
        &["--shard", "1/2", "--format", "json"],
    );
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 2 cases selected from run-1.json; the report's cases taken: 2 failed\n"
    );
    assert_eq!(
        names(&Report::read(&ran.stdout)),
        set(&["a.json a1", "a.json a3"])
    );
}

#[test]
fn cases_that_no_longer_exist_are_counted_and_an_empty_selection_passes() {
    let corpus = partial_port();
    save_report(&corpus, "r.json", &[]);
    // a1 renamed, b.json gone (its golden too).
    let a = corpus
        .read("cases/a.json")
        .replace("\"a1\"", "\"a1 renamed\"");
    corpus.case("a.json", &a);
    std::fs::remove_file(corpus.join("cases/b.json")).unwrap();
    std::fs::remove_file(corpus.join("golden/b.json")).unwrap();
    let ran = rerun(&corpus, "r.json", &["--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 2 cases selected from r.json (2 cases it names no longer exist); the report's cases taken: 3 failed\n"
    );
    assert_eq!(names(&Report::read(&ran.stdout)), set(&["a.json a3"]));

    // With --op x, nothing the report names is left: nothing runs, and
    // that passes.
    sent(&corpus);
    let ran = rerun(&corpus, "r.json", &["--op", "x", "--filter", "a.json"]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "0 passed, 0 failed\n"),
        "{ran:?}"
    );
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: no case selected from r.json \
         (1 case it names no longer exists); the report's cases taken: 3 failed: nothing to run\n"
    );
    assert_eq!(sent(&corpus), "");

    // A report of a run that passed names nothing.
    let corpus = partial_port();
    corpus.golden("a.json", &corpus.read("cases/a.json"));
    corpus.case("b.json", r#"[{"op":"x","name":"b0"}]"#);
    corpus.golden("b.json", "[\n{\"op\":\"x\",\"name\":\"b0\"}\n]\n");
    corpus.golden("d.json", "[\n{\"op\":\"x\",\"name\":\"d0\"}\n]\n");
    assert_eq!(save_report(&corpus, "ok.json", &[]).summary.exit_code, 0);
    sent(&corpus);
    let ran = rerun(&corpus, "ok.json", &[]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "0 passed, 0 failed\n"),
        "{ran:?}"
    );
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: ok.json names no case that failed: nothing to run\n"
    );
    assert_eq!(sent(&corpus), "");
}

#[test]
fn a_ledger_s_new_changed_and_stale_cases_are_taken_and_accept_takes_them_too() {
    let corpus = partial_port();
    corpus.golden("d.json", "[\n{\"op\":\"x\",\"name\":\"d0\"}\n]\n");
    let accepted = corpus.run(&["accept", "--oracle", PORT, "--reason", "known"]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    // a1 fixed (stale), a3 diverging otherwise (changed), a new case a5
    // diverging (new); b2's crash stays accepted.
    let a = corpus.read("golden/a.json");
    let a = a
        .replace(r#""name":"a1","v":10"#, r#""name":"a1","v":1"#)
        .replace(r#""name":"a3","v":30"#, r#""name":"a3","v":31"#)
        .replace("\n]\n", ",\n{\"op\":\"x\",\"name\":\"a5\",\"v\":50}\n]\n");
    corpus.golden("a.json", &a);
    let cases = corpus
        .read("cases/a.json")
        .replace("\n]\n", ",\n{\"op\":\"x\",\"name\":\"a5\",\"v\":5}\n]\n");
    corpus.case("a.json", &cases);
    let report = save_report(&corpus, "r.json", &[]);
    let state = |name: &str| report.case("a.json", name).state;
    assert_eq!(
        [state("a1"), state("a3"), state("a5")],
        [CaseState::Stale, CaseState::Changed, CaseState::New]
    );
    assert_eq!(report.case("b.json", "b2").state, CaseState::Accepted);

    let ran = rerun(&corpus, "r.json", &["--format", "json"]);
    assert_eq!(
        ran.stderr,
        "parity-diff: rerun: 3 cases selected from r.json; the report's cases taken: 1 changed, 1 new, 1 stale\n"
    );
    assert_eq!(
        names(&Report::read(&ran.stdout)),
        set(&["a.json a1", "a.json a3", "a.json a5"])
    );

    // accept takes the same selection: with --op x, a5 only (a1 is
    // stale, which --prune would remove).
    let accepted = corpus.run(&[
        "accept",
        "--oracle",
        PORT,
        "--rerun-failed",
        "r.json",
        "--op",
        "x",
        "--reason",
        "later",
    ]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert_eq!(
        accepted.stderr,
        "parity-diff: rerun: 2 cases selected from r.json; the report's cases taken: 1 changed, 1 new, 1 stale\n"
    );
    assert!(
        accepted
            .stdout
            .ends_with("ledger parity-ledger.txt: 1 added, 0 changed, 0 removed, 3 unchanged\n"),
        "{}",
        accepted.stdout
    );
    let ledger = corpus.read("parity-ledger.txt");
    assert!(ledger.contains("case a.json \"a5\""), "{ledger}");
    assert!(ledger.contains("case a.json \"a1\""), "{ledger}");
}

#[test]
fn a_report_that_cannot_be_read_is_refused() {
    let corpus = partial_port();
    let ran = rerun(&corpus, "nope.json", &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.starts_with(
            "parity-diff: --rerun-failed nope.json: cannot read the report nope.json: "
        ),
        "{}",
        ran.stderr
    );
    assert_eq!(ran.stdout, "");
    support::write(corpus.join("text.json"), "3 passed, 0 failed\n");
    let ran = rerun(&corpus, "text.json", &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.starts_with(
            "parity-diff: --rerun-failed text.json: text.json is not a parity-diff JSON report"
        ),
        "{}",
        ran.stderr
    );
    // A compare report names no case of a corpus.
    let compared = corpus.run(&[
        "compare",
        "golden/a.json",
        "golden/a.json",
        "--format",
        "json",
    ]);
    support::write(corpus.join("compare.json"), &compared.stdout);
    let ran = rerun(&corpus, "compare.json", &[]);
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr,
        "parity-diff: --rerun-failed compare.json: a `compare` report names no case of a \
         corpus; it takes the JSON report of run, merge or accept (--format json)\n"
    );
    // Cut short.
    let report = save_report(&corpus, "r.json", &[]);
    assert_eq!(report.summary.exit_code, 1);
    let text = corpus.read("r.json");
    support::write(corpus.join("cut.json"), &text[..text.len() / 2]);
    let ran = rerun(&corpus, "cut.json", &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("unexpected end of input"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_streamed_file_is_rerun_as_a_file_held_in_memory() {
    let corpus = partial_port();
    save_report(&corpus, "r.json", &[]);
    for extra in [&[][..], &["--op", "x"], &["--shard", "2/2"]] {
        let mut args = vec![
            "run",
            "--oracle",
            PORT,
            "--rerun-failed",
            "r.json",
            "--format",
            "json",
        ];
        args.extend(extra);
        sent(&corpus);
        let memory = corpus.run(&args);
        let sent_memory: BTreeSet<String> = sent(&corpus).lines().map(str::to_owned).collect();
        // Every file streamed, as files of 8 MiB or more are.
        let env = [("PARITY_DIFF_STREAM_ABOVE", "0")];
        let streamed = support::run_with(corpus.path(), &args, b"", &env);
        let sent_streamed: BTreeSet<String> = sent(&corpus).lines().map(str::to_owned).collect();
        assert_eq!(streamed.code, memory.code, "{extra:?}");
        assert_eq!(streamed.stdout, memory.stdout, "{extra:?}");
        assert_eq!(streamed.stderr, memory.stderr, "{extra:?}");
        assert_eq!(sent_streamed, sent_memory, "{extra:?}");
        assert!(!sent_memory.iter().any(|batch| batch.contains("\"c0\"")));
    }
}
