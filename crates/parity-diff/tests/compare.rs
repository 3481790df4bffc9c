//! `parity-diff compare`: every verdict, every exit status, every format.

use crate::support;

use js_exact as js;
use support::report::{
    named, tally, CaseId, CaseKey, CaseState, Report, Totals, VerdictKind, Version,
};
use support::{golden_of, run_with, write, Corpus};

/// A corpus directory with `results.json`, `golden.json` and `cases.json`.
fn files(results: &str, golden: &str, cases: &str) -> Corpus {
    let corpus = Corpus::new();
    write(corpus.join("results.json"), results);
    write(corpus.join("golden.json"), golden);
    write(corpus.join("cases.json"), cases);
    corpus
}

fn compare(corpus: &Corpus, extra: &[&str]) -> support::Ran {
    let mut args = vec!["compare", "results.json", "golden.json"];
    args.extend_from_slice(extra);
    corpus.run(&args)
}

#[test]
fn identical_arrays_pass() {
    let corpus = files(
        r#"[{"a":1},"x\ud800",null]"#,
        &golden_of(&[r#"{"a":1}"#, r#""x\ud800""#, "null"]),
        "[]",
    );
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.stdout, "3 passed, 0 failed\n");
    assert_eq!(ran.stderr, "");
}

#[test]
fn same_value_different_bytes_fails_and_says_why() {
    let corpus = files(
        r#"[{"b":2,"a":1},[1.0],"\u00e9","\uD800",{"a":1,"a":2}]"#,
        &golden_of(&[
            r#"{"a":1,"b":2}"#,
            "[1]",
            r#""é""#,
            r#""\ud800""#,
            r#"{"a":2}"#,
        ]),
        "[]",
    );
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let out = &ran.stdout;
    assert!(
        out.contains("FAIL #0: same value, different bytes\n"),
        "{out}"
    );
    assert!(
        out.contains(r#"key order "b","a" (golden "a","b") at (root)"#),
        "{out}"
    );
    assert!(
        out.contains("number written `1.0` (golden `1`) at /0"),
        "{out}"
    );
    assert!(
        out.contains(r#"escape form `"\u00e9"` (golden `"é"`) at (root)"#),
        "{out}"
    );
    assert!(
        out.contains(r#"escape form `"\uD800"` (golden `"\ud800"`) at (root)"#),
        "{out}"
    );
    assert!(out.contains(r#"duplicate key "a" at (root)"#), "{out}");
    assert_eq!(ran.last_line(), "0 passed, 5 failed");

    let ran = compare(&corpus, &["--semantic"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.stdout, "5 passed, 0 failed\n");
}

#[test]
fn different_values_show_paths_values_and_a_diff() {
    let corpus = files(
        r#"[{"threw":true,"message":"b"},{"defined":true,"value":["x","--cwd","/a"]},{"defined":true,"value":["--cwd","/b"]}]"#,
        &golden_of(&[
            r#"{"threw":true,"message":"a"}"#,
            r#"{"defined":true,"value":["x","--cwd","/a"]}"#,
            r#"{"defined":true,"value":["x","--cwd","/b"]}"#,
        ]),
        "[{\"op\":\"argv\",\"name\":\"a required option missing\"},\n{\"op\":\"argv\"},\n{\"op\":\"argv\",\"name\":\"shifted\"}]",
    );
    let ran = compare(&corpus, &["--cases", "cases.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "FAIL [1 case] argv: different at /message (golden string, port string)\n",
            "  FAIL cases.json:1 #0 argv \"a required option missing\": the port threw \"b\" where the golden threw \"a\"\n",
            "      input: {\"op\":\"argv\",\"name\":\"a required option missing\"}\n",
            "      at /message\n",
            "        golden: \"a\"\n",
            "        actual: \"b\"\n",
            "FAIL [1 case] argv: different at /value/* (golden string, port string)\n",
            "  FAIL cases.json:3 #2 argv \"shifted\": different at /value/0 and 2 more paths\n",
            "      input: {\"op\":\"argv\",\"name\":\"shifted\"}\n",
            "      at /value/0\n",
            "        golden: \"x\"\n",
            "        actual: \"--cwd\"\n",
            "      at /value/1\n",
            "        golden: \"--cwd\"\n",
            "        actual: \"/b\"\n",
            "      at /value/2\n",
            "        golden: \"/b\"\n",
            "        actual: (absent)\n",
            "      --- golden\n",
            "      +++ actual\n",
            "      @@ -1,7 +1,6 @@\n",
            "       {\n",
            "         \"defined\": true,\n",
            "         \"value\": [\n",
            "      -    \"x\",\n",
            "           \"--cwd\",\n",
            "           \"/b\"\n",
            "         ]\n",
            "1 passed, 2 failed\n"
        )
    );
}

#[test]
fn a_throw_where_the_golden_has_a_value_is_one_line() {
    let corpus = files(
        r#"[{"threw":true,"message":"not implemented"},{"defined":true,"value":7},1]"#,
        &golden_of(&[
            r#"{"defined":true,"value":["x"]}"#,
            r#"{"threw":true,"message":"must be a string"}"#,
            "1",
        ]),
        r#"[{"op":"a","name":"one"},{"op":"b","name":"two"},{"op":"a","name":"three"}]"#,
    );
    let ran = compare(&corpus, &["--cases", "cases.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "FAIL [1 case] a: the port threw \"not implemented\" where the golden has a value\n",
            "  FAIL cases.json:1 #0 a \"one\": the port threw \"not implemented\" where the golden has {\"defined\":true,\"value\":[\"x\"]}\n",
            "      input: {\"op\":\"a\",\"name\":\"one\"}\n",
            "FAIL [1 case] b: the port returned a value where the golden threw\n",
            "  FAIL cases.json:1 #1 b \"two\": the port returned {\"defined\":true,\"value\":7} where the golden threw \"must be a string\"\n",
            "      input: {\"op\":\"b\",\"name\":\"two\"}\n",
            "op    passed  accepted    failed\n",
            "a         1         0         1\n",
            "b         0         0         1\n",
            "1 passed, 2 failed\n"
        )
    );
}

#[test]
fn many_paths_are_counted() {
    let actual: Vec<String> = (0..25).map(|n| (n + 100).to_string()).collect();
    let golden: Vec<String> = (0..25).map(|n| n.to_string()).collect();
    let corpus = files(
        &format!("[[{}]]", actual.join(",")),
        &format!("[[{}]]", golden.join(",")),
        "[]",
    );
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 1);
    assert!(
        ran.stdout
            .contains("  FAIL #0: different at /0 and 24 more paths\n"),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("      at /9\n"));
    assert!(!ran.stdout.contains("      at /10\n"));
    assert!(ran.stdout.contains("      … and 15 more differing paths\n"));
    assert!(ran
        .stdout
        .contains("      … 25 more diff lines not shown\n"));
}

#[test]
fn lone_surrogates_compare_as_code_units() {
    let corpus = files(r#"["\udc00"]"#, r#"["\ud800"]"#, "[]");
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 1);
    assert!(ran.stdout.contains(r#"golden: "\ud800""#), "{}", ran.stdout);
    assert!(ran.stdout.contains(r#"actual: "\udc00""#), "{}", ran.stdout);
}

#[test]
fn missing_and_extra_cases_are_reported_not_crashed_on() {
    let corpus = files(
        "[1]",
        "[1,2,3]",
        r#"[{},{"op":"a"},{"op":"b","name":"third"}]"#,
    );
    let ran = compare(&corpus, &["--cases", "cases.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(concat!(
            "  FAIL cases.json:1 #1 a: missing: the results end before this case\n",
            "      input: {\"op\":\"a\"}\n",
            "      golden: 2\n"
        )),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("  FAIL cases.json:1 #2 b \"third\": missing"),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "1 passed, 2 failed");

    let corpus = files("[1,2]", "[]", "[]");
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 1);
    assert!(ran.stdout.starts_with(concat!(
        "FAIL [2 cases] (no op): extra: the golden ends before the case\n",
        "  FAIL #0: extra: the golden ends before this case\n",
        "      actual: 1\n"
    )));
    assert_eq!(ran.last_line(), "0 passed, 2 failed");
}

#[test]
fn standard_input_is_either_file() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path().join("golden.json"), golden_of(&["1", "2"]));
    let ran = run_with(dir.path(), &["compare", "-", "golden.json"], b"[1,2]", &[]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "2 passed, 0 failed\n"));
    write(dir.path().join("results.json"), "[1,3]");
    let ran = run_with(dir.path(), &["compare", "results.json", "-"], b"[1,2]", &[]);
    assert_eq!(ran.code, 1);
    let ran = run_with(dir.path(), &["compare", "-", "-"], b"[1]", &[]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains("only one input can be standard input"),
        "{}",
        ran.stderr
    );
}

#[test]
fn input_errors_exit_2_and_say_what() {
    let corpus = files("[1]", "[1]", "{}");
    std::fs::create_dir(corpus.join("dir")).unwrap();
    write(corpus.join("object.json"), r#"{"a":1}"#);
    write(corpus.join("half.json"), "[1,{\"a\":");
    write(corpus.join("binary.json"), b"[\"\xff\"]");
    for (args, message) in [
        (
            vec!["results.json", "nope.json"],
            "cannot read golden nope.json",
        ),
        (
            vec!["nope.json", "golden.json"],
            "cannot read results nope.json",
        ),
        (
            vec!["results.json", "dir"],
            "cannot read golden dir: a directory, not a regular file",
        ),
        (
            vec!["results.json", "object.json"],
            "golden object.json is not a JSON array",
        ),
        (
            vec!["half.json", "golden.json"],
            "results half.json is not a JSON array",
        ),
        (
            vec!["binary.json", "golden.json"],
            "results binary.json is not a JSON array: not UTF-8",
        ),
        (
            vec!["results.json", "golden.json", "--cases", "cases.json"],
            "case file cases.json is not a JSON array",
        ),
    ] {
        let mut full = vec!["compare"];
        full.extend(args);
        let ran = corpus.run(&full);
        assert_eq!(ran.code, 2, "{full:?}: {ran:?}");
        assert_eq!(ran.stdout, "", "{full:?}");
        assert!(ran.stderr.contains(message), "{full:?}: {}", ran.stderr);
    }
    let ran = corpus.run(&["compare", "results.json"]);
    assert_eq!(ran.code, 2, "usage error: {ran:?}");
    let ran = corpus.run(&["frobnicate"]);
    assert_eq!(ran.code, 2, "usage error: {ran:?}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let corpus = files("[2]", "[1]", "[]");
    let ran = compare(&corpus, &[]);
    assert!(!ran.stdout.contains('\x1b'), "piped output is plain");
    let ran = compare(&corpus, &["--color", "always"]);
    assert!(
        ran.stdout.contains("      \x1b[31m  golden: 1\x1b[0m\n"),
        "{:?}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("      \x1b[32m  actual: 2\x1b[0m\n"),
        "{:?}",
        ran.stdout
    );
    assert!(ran
        .stdout
        .starts_with("\x1b[1m\x1b[31mFAIL\x1b[0m [1 case] "));
    // A diff, when there is one, is coloured too.
    write(corpus.join("results.json"), "[[2]]");
    write(corpus.join("golden.json"), "[[1,3]]");
    let ran = compare(&corpus, &["--color", "always"]);
    assert!(
        ran.stdout.contains(
            "      \x1b[31m-  1,\x1b[0m\n      \x1b[31m-  3\x1b[0m\n      \x1b[32m+  2\x1b[0m\n"
        ),
        "{:?}",
        ran.stdout
    );
    // The closing line stays plain for whatever reads it.
    assert!(ran.stdout.ends_with("\n0 passed, 1 failed\n"));
    let ran = run_with(
        corpus.path(),
        &["compare", "results.json", "golden.json", "--color", "auto"],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert!(!ran.stdout.contains('\x1b'));
}

#[test]
fn quiet_prints_the_summary_alone() {
    let corpus = files("[2,1]", "[1,1]", "[]");
    let ran = compare(&corpus, &["--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (1, "1 passed, 1 failed\n"));
}

#[test]
fn json_report() {
    let corpus = files(
        r#"[1,{"b":1,"a":"x"},{"v":[1,3]},5]"#,
        r#"[1,{"a":"x","b":1},{"v":[1,2],"w":"\ud800"}]"#,
        r#"[{"op":"o","name":"n"}]"#,
    );
    let ran = compare(&corpus, &["--format", "json", "--cases", "cases.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    // The lone surrogate is kept as an escape.
    assert!(
        ran.stdout.contains(r#""golden":"\ud800""#),
        "{}",
        ran.stdout
    );
    let report = Report::read(&ran.stdout);
    let cases = &report.files[0].cases;
    assert_eq!(cases.len(), 4);
    assert_eq!(cases[0].verdict, VerdictKind::Identical);
    assert!(cases[0].passes());
    assert_eq!(cases[0].op.as_deref(), Some("o"));
    assert_eq!(cases[0].label, "#0 o \"n\"");
    assert_eq!(cases[1].verdict, VerdictKind::SameValue);
    assert_eq!(cases[1].state, CaseState::Failed);
    assert_eq!(cases[1].summary, "same value, different bytes");
    assert_eq!(cases[1].reasons[0].kind, "key order");
    assert_eq!(cases[1].reasons[0].pointer.to_string(), "");
    assert_eq!(cases[2].verdict, VerdictKind::Different);
    let paths = &cases[2].paths;
    assert_eq!(paths[0].pointer.to_string(), "/v/1");
    assert_eq!(paths[0].golden, Some(js::Value::Number(2.0)));
    assert_eq!(paths[0].actual, Some(js::Value::Number(3.0)));
    assert_eq!(paths[1].pointer.to_string(), "/w");
    assert_eq!(
        paths[1].golden,
        Some(js::Value::String(js::JsString::from_utf16(&[0xd800])))
    );
    assert_eq!(paths[1].actual, None);
    assert_eq!(cases[2].total_paths, 2);
    assert_eq!(
        cases[2].golden.as_deref(),
        Some(r#"{"v":[1,2],"w":"\ud800"}"#)
    );
    assert_eq!(cases[2].actual.as_deref(), Some(r#"{"v":[1,3]}"#));
    assert_eq!(cases[2].input, None);
    assert_eq!(
        cases[2].id,
        CaseId {
            file: "cases.json".into(),
            key: CaseKey::Hash("2".into())
        }
    );
    assert_eq!(cases[2].fingerprint.as_ref().unwrap().len(), 16);
    assert_eq!(cases[3].verdict, VerdictKind::Extra);
    assert_eq!(cases[0].id, named("cases.json", "n"));
    assert_eq!(cases[0].line, Some(1));
    assert_eq!(report.head.version, Version::V2);
    assert_eq!(report.head.command, "compare");
    assert_eq!(
        report.files[0].head.info.path.as_deref(),
        Some("cases.json")
    );
    assert_eq!(
        report.by_op,
        [
            ("(no op)".to_owned(), tally(0, 3, 0)),
            ("o".to_owned(), tally(1, 0, 0))
        ]
    );
    assert_eq!(report.groups.len(), 3);
    assert_eq!(
        report.totals(),
        Totals {
            passed: 1,
            failed: 3,
            ..Totals::default()
        }
    );
    assert_eq!(report.summary.exit_code, 1);
}

#[test]
fn junit_report() {
    let corpus = files(
        r#"[1,"<b>"]"#,
        r#"[1,"<a>"]"#,
        r#"[{"op":"o"},{"op":"o","name":"a & b"}]"#,
    );
    let ran = compare(&corpus, &["--format", "junit", "--cases", "cases.json"]);
    assert_eq!(ran.code, 1);
    let xml = &ran.stdout;
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"));
    assert!(
        xml.contains(
            r#"<testsuites name="parity-diff" tests="2" failures="1" errors="0" skipped="0">"#
        ),
        "{xml}"
    );
    // Named by identity: the case file and the name, or a hash of the
    // case's bytes; never by position.
    let hash = parity_diff::corpus::identity::short_hash(br#"{"op":"o"}"#);
    assert!(
        xml.contains(&format!(
            r#"<testcase name="cases.json #{hash}" classname="cases.json" file="cases.json" line="1"/>"#
        )),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<testcase name="cases.json &quot;a &amp; b&quot;" classname="cases.json" file="cases.json" line="1">"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<failure type="different" message="different at (root)">input: "#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<property name="op.o.failed" value="1"/>"#),
        "{xml}"
    );
    assert!(xml.contains("golden: &quot;&lt;a&gt;&quot;"), "{xml}");
    assert!(xml.trim_end().ends_with("</testsuites>"));
}

#[test]
fn tokens_stay_out_of_reports_unless_the_port_made_them_up() {
    let cases = r#"[{"op":"argv","options":{"token":"tok-1234"}},{"op":"argv","options":{"token":"tok-5678"}}]"#;
    let corpus = files(
        r#"[["--token","tok-1234","--cwd","/b"],["--token","tok-9999"]]"#,
        r#"[["--token","tok-1234","--cwd","/a"],["--token","tok-5678"]]"#,
        cases,
    );
    for format in ["human", "json", "junit"] {
        let ran = compare(&corpus, &["--cases", "cases.json", "--format", format]);
        assert_eq!(ran.code, 1);
        assert!(!ran.stdout.contains("tok-1234"), "{format}: {}", ran.stdout);
        if format != "json" {
            // The diff shows the first case's token line, masked (JSON
            // reports carry only the differing values).
            assert!(
                ran.stdout.contains("redacted&gt;") || ran.stdout.contains("<redacted>"),
                "{format}"
            );
        }
        // The second case's golden token is the differing value, but it is
        // the case's own: masked. The port's, which the case does not
        // hold, is shown.
        assert!(!ran.stdout.contains("tok-5678"), "{format}: {}", ran.stdout);
        assert!(ran.stdout.contains("tok-9999"), "{format}");
    }
}

#[test]
fn deeply_nested_elements_do_not_overflow() {
    let nest =
        |inner: &str, depth: usize| format!("[{}{inner}{}]", "[".repeat(depth), "]".repeat(depth));
    let corpus = files(&nest("2", 5000), &nest("1", 5000), "[]");
    for format in ["human", "json", "junit"] {
        let ran = compare(&corpus, &["--format", format]);
        assert_eq!(ran.code, 1, "{format}: {}", ran.stderr);
    }
    let ran = compare(&corpus, &[]);
    assert!(
        ran.stdout.contains("\n  FAIL #0: different at /0/0/0/"),
        "{}",
        &ran.stdout[..400]
    );
    assert!(
        ran.stdout.contains('…'),
        "a long pointer is cut for display"
    );
    write(corpus.join("results.json"), nest("1.0", 5000));
    let ran = compare(&corpus, &[]);
    assert!(ran
        .stdout
        .contains("number written `1.0` (golden `1`) at /0/0/"));
    // Past the reader's limit, elements are compared as bytes.
    let corpus = files(&nest("2", 12000), &nest("1", 12000), "[]");
    let ran = compare(&corpus, &[]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(ran.stdout.contains("compared as bytes only"));
}
