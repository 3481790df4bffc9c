//! `compare` reads its inputs as streams, element by element: what it may
//! find only at the end of an input (a cut array, trailing text, two cases
//! with one name, an `--op` that matched nothing) is still an input error
//! that leaves no report. `run` streams large files (every file, with
//! `PARITY_DIFF_STREAM_ABOVE=0`) and reports them byte for byte as it
//! reports files it holds in memory.

use crate::support;

use support::report::{Problem, Report};
use support::{golden_of, run_with, write, Corpus};

/// Results of many cases that differ here and there, then break at the
/// very end: the comparison has made records by the time it gets there.
fn long_results(ending: &str) -> String {
    let elements: Vec<String> = (0..2000).map(|n| format!("{{\"n\":{}}}", n % 7)).collect();
    format!("[{}{ending}", elements.join(","))
}

fn long_golden() -> String {
    let elements: Vec<String> = (0..2000).map(|n| format!("{{\"n\":{}}}", n % 5)).collect();
    let elements: Vec<&str> = elements.iter().map(String::as_str).collect();
    golden_of(&elements)
}

#[test]
fn an_input_found_malformed_at_its_end_leaves_no_report() {
    let corpus = Corpus::new();
    write(corpus.join("golden.json"), long_golden());
    write(corpus.join("cut.json"), long_results(","));
    write(corpus.join("trailing.json"), long_results("] x"));
    write(corpus.join("results.json"), long_results("]"));
    let cases: Vec<String> = (0..2000)
        .map(|n| format!("{{\"name\":\"c{n}\"}}"))
        .collect();
    write(
        corpus.join("cases.json"),
        format!("[{}] x", cases.join(",\n")),
    );
    let (cut, trailing) = (long_results(",").len(), long_results("] x").len());
    for (args, message) in [
        (
            vec!["cut.json", "golden.json"],
            format!(
                "results cut.json is not a JSON array: not a JSON array: \
                 EOF while parsing a value at line 1 column {cut}"
            ),
        ),
        (
            vec!["trailing.json", "golden.json"],
            format!(
                "results trailing.json is not a JSON array: not a JSON array: \
                 trailing characters at line 1 column {trailing}"
            ),
        ),
        (
            vec!["results.json", "golden.json", "--cases", "cases.json"],
            "case file cases.json is not a JSON array".to_owned(),
        ),
    ] {
        for format in ["human", "json", "junit"] {
            let mut full = vec!["compare", "--format", format];
            full.extend(&args);
            let ran = corpus.run(&full);
            assert_eq!(ran.code, 2, "{full:?}: {ran:?}");
            assert_eq!(ran.stdout, "", "{full:?}");
            assert!(ran.stderr.contains(&message), "{full:?}: {}", ran.stderr);
        }
    }
    // The same files, well formed, make a report.
    let ran = corpus.run(&["compare", "results.json", "golden.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.ends_with(" failed\n"), "{}", ran.stdout);
}

#[test]
fn the_case_file_may_be_standard_input_and_select_ops() {
    let corpus = Corpus::new();
    write(corpus.join("golden.json"), golden_of(&["1", "2", "3", "4"]));
    write(corpus.join("results.json"), "[1,20,3,40]");
    let cases = r#"[{"op":"a","name":"one"},{"op":"b","name":"two"},{"op":"a","name":"three"},{"op":"b","name":"four"}]"#;
    let ran = run_with(
        corpus.path(),
        &[
            "compare",
            "--cases",
            "-",
            "--op",
            "a",
            "results.json",
            "golden.json",
        ],
        cases.as_bytes(),
        &[],
    );
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "2 passed, 0 failed\n"));
    let ran = run_with(
        corpus.path(),
        &[
            "compare",
            "--cases",
            "-",
            "--op",
            "b",
            "results.json",
            "golden.json",
        ],
        cases.as_bytes(),
        &[],
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("-:1 #1 b \"two\""), "{}", ran.stdout);
    assert!(
        ran.stdout.ends_with("0 passed, 2 failed\n"),
        "{}",
        ran.stdout
    );
    // An op found in no case is an error, found only at the end.
    let ran = run_with(
        corpus.path(),
        &[
            "compare",
            "--cases",
            "-",
            "--op",
            "c",
            "--format",
            "json",
            "results.json",
            "golden.json",
        ],
        cases.as_bytes(),
        &[],
    );
    assert_eq!((ran.code, ran.stdout.as_str()), (2, ""));
    assert!(
        ran.stderr.contains("--op c matches no case in -"),
        "{}",
        ran.stderr
    );
}

#[test]
fn compare_with_a_ledger_refuses_two_cases_with_one_name() {
    let corpus = Corpus::new();
    write(corpus.join("golden.json"), golden_of(&["1", "2", "3"]));
    write(corpus.join("results.json"), "[1,2,3]");
    write(corpus.join("ledger.txt"), "");
    write(
        corpus.join("cases.json"),
        "[{\"name\":\"a\"},\n{\"name\":\"b\"},\n{\"op\":\"x\",\"name\":\"a\"}]",
    );
    let ran = corpus.run(&[
        "compare",
        "--format",
        "json",
        "--cases",
        "cases.json",
        "--ledger",
        "ledger.txt",
        "results.json",
        "golden.json",
    ]);
    assert_eq!((ran.code, ran.stdout.as_str()), (2, ""), "{ran:?}");
    assert!(
        ran.stderr.contains(
            "cases #0 (line 1) and #2 (line 3) of cases.json are both known as cases.json \"a\"; \
             a ledger needs each case's name to be unique within its file"
        ),
        "{}",
        ran.stderr
    );
}

/// Runs `args` with every file streamed, and with none; both must say the
/// same, byte for byte. Returns what they said.
fn streamed_as_in_memory(corpus: &Corpus, args: &[&str]) -> support::Ran {
    let streamed = run_with(
        corpus.path(),
        args,
        b"",
        &[("PARITY_DIFF_STREAM_ABOVE", "0")],
    );
    let in_memory = run_with(
        corpus.path(),
        args,
        b"",
        &[("PARITY_DIFF_STREAM_ABOVE", "1000000000")],
    );
    assert_eq!(streamed.stdout, in_memory.stdout, "{args:?}");
    assert_eq!(streamed.stderr, in_memory.stderr, "{args:?}");
    assert_eq!(streamed.code, in_memory.code, "{args:?}");
    streamed
}

#[test]
fn run_streams_a_file_as_it_runs_one_in_memory() {
    let corpus = Corpus::new();
    let cases: Vec<String> = (0..60)
        .map(|n| {
            format!(
                "{{\"op\":\"{}\",\"name\":\"c{n}\",\"v\":{n}}}",
                ["x", "y"][n % 2]
            )
        })
        .collect();
    let text = format!("[{}]", cases.join(",\n"));
    let elements: Vec<&str> = cases.iter().map(String::as_str).collect();
    // a: one case in ten differs, and the golden has two more elements.
    let mut a: Vec<String> = elements.iter().map(|e| e.to_string()).collect();
    for n in (0..60).step_by(10) {
        a[n] = a[n].replace("\"v\":", "\"v\":-");
    }
    a.push("1".into());
    a.push("2".into());
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let golden = golden_of(&elements);
    corpus
        .case("a.json", &text)
        .golden("a.json", &golden_of(&a))
        .case("b.json", &text)
        // b's golden is cut after its last element: no record of b.
        .golden("b.json", golden.trim_end().trim_end_matches(']'))
        .case("c.json", "{\"not\":\"an array\"}")
        .golden("c.json", "[]\n");
    for format in ["json", "human"] {
        let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", "cat", "--format", format]);
        assert_eq!(ran.code, 2, "{ran:?}");
        for args in [
            vec!["--op", "x"],
            vec!["--shard", "1/2"],
            vec!["--shard", "2/2"],
            vec!["--op", "y", "--shard", "2/3"],
        ] {
            let mut full = vec!["run", "--oracle", "cat", "--format", format];
            full.extend(args);
            streamed_as_in_memory(&corpus, &full);
        }
    }
    let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", "cat", "--format", "json"]);
    let report = Report::read(&ran.stdout);
    let files = &report.files;
    assert_eq!(
        (files[0].head.tally.passed, files[0].head.tally.failed),
        (54, 8)
    );
    assert!(files[1].cases.is_empty());
    let Some(Problem::Error { message, .. }) = &files[1].head.problem else {
        panic!("{:?}", files[1].head);
    };
    assert!(
        message.starts_with("golden golden/b.json is not a JSON array"),
        "{message}"
    );
    // Ports that print a result too many, or break after the last one,
    // or crash on one case: the file is run again in memory and its cases
    // to blame found, as for a small file.
    for oracle in [
        "sed 's/]$/,7]/'",
        "cat; printf x",
        "input=$(cat); case \"$input\" in *'\"c7\"'*) exit 3;; esac; printf '%s' \"$input\"",
    ] {
        for format in ["json", "human"] {
            streamed_as_in_memory(&corpus, &["run", "--oracle", oracle, "--format", format]);
            streamed_as_in_memory(
                &corpus,
                &["run", "--op", "x", "--oracle", oracle, "--format", format],
            );
        }
    }
}

/// A large file whose results are its golden's elements, printed as
/// `JSON.stringify` prints the array: counted while the oracle runs and
/// reported from those counts (issue 23), byte for byte as a run held in
/// memory reports it, in every format; with the per-op rows, the
/// unknown-op row and cases that are no object. Its golden broken at its
/// last element is the same problem as before the oracle runs.
#[test]
fn a_file_whose_results_are_its_goldens_is_reported_as_in_memory() {
    let corpus = Corpus::new();
    let mut cases: Vec<String> = (0..300)
        .map(|n| {
            format!(
                "{{\"op\":\"{}\",\"name\":\"c{n}\"}}",
                ["x", "y", "x"][n % 3]
            )
        })
        .collect();
    // With `cat` as the oracle each case is its own result: this one's
    // golden says its op is unknown, and it has no op of its own.
    cases[7] = r#"{"threw":true,"message":"unknown op nope"}"#.into();
    cases[8] = "5".into();
    cases[9] = r#"{"op":7}"#.into();
    let elements: Vec<&str> = cases.iter().map(String::as_str).collect();
    corpus
        .case("a.json", &format!("[{}]", elements.join(",")))
        .golden("a.json", &golden_of(&elements));
    for format in ["human", "json", "junit", "markdown", "html"] {
        let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", "cat", "--format", format]);
        assert_eq!(ran.code, 0, "{ran:?}");
        streamed_as_in_memory(
            &corpus,
            &["run", "--oracle", "cat", "--format", format, "--op", "y"],
        );
    }
    let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", "cat", "--format", "json"]);
    let report = Report::read(&ran.stdout);
    assert_eq!(report.files[0].head.tally.passed, 300);
    assert_eq!(
        streamed_as_in_memory(&corpus, &["run", "--oracle", "cat", "-q"]).stdout,
        "300 passed, 0 failed\n"
    );
    // The same results in other framing, or one result other: judged
    // after the run, as before.
    for oracle in ["sed 's/},{/}, {/'", "sed 's/c299/c2999/'", "cat; echo"] {
        let args = ["run", "--oracle", oracle, "--framing", "exact"];
        let ran = streamed_as_in_memory(&corpus, &args);
        assert_eq!(ran.code, 1, "{oracle}: {ran:?}");
    }
    let mut broken = golden_of(&elements);
    broken.replace_range(broken.rfind("c299").unwrap().., "c299\":}\n]\n");
    corpus.golden("a.json", &broken);
    let ran = streamed_as_in_memory(&corpus, &["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stdout.contains("is not a JSON array"), "{}", ran.stdout);
}
