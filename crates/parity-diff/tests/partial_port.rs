//! Reports a partial port can live with: JUnit names that survive an
//! inserted case, --op selection that sends only the selected cases, and
//! a corpus with a broken link in it.

use crate::support;

use support::report::{tally, Report};
use support::{golden_of, Corpus};

#[test]
fn junit_names_survive_an_inserted_case() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"x","name":"first"}"#,
        r#"{"op":"x"}"#,
        r#"{"op":"x","name":"third"}"#,
    ];
    let write = |cases: &[&str]| {
        corpus
            .case("a.json", &format!("[\n{}\n]", cases.join(",\n")))
            .golden("a.json", &golden_of(cases));
    };
    write(&cases);
    let names = || {
        // `cat` echoes the case file, framing and all.
        let args = [
            "run",
            "--oracle",
            "cat",
            "--framing",
            "json",
            "--format",
            "junit",
        ];
        let ran = corpus.run(&args);
        assert_eq!(ran.code, 0, "{ran:?}");
        ran.stdout
            .lines()
            .filter_map(|line| line.trim().strip_prefix("<testcase name=\""))
            .map(|rest| rest.split('"').next().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let before = names();
    let hash = parity_diff::corpus::identity::short_hash(cases[1].as_bytes());
    assert_eq!(
        before,
        [
            "a.json &quot;first&quot;".to_owned(),
            format!("a.json #{hash}"),
            "a.json &quot;third&quot;".to_owned()
        ]
    );
    write(&[
        r#"{"op":"x","name":"zeroth"}"#,
        cases[0],
        cases[1],
        cases[2],
    ]);
    let after = names();
    assert_eq!(after[1..], before[..]);
    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "junit"]);
    assert!(
        ran.stdout.contains(&format!(
            "<testcase name=\"a.json #{hash}\" classname=\"a.json\" file=\"cases/a.json\" line=\"4\"/>"
        )),
        "{}",
        ran.stdout
    );
}

#[test]
fn op_selection_sends_only_the_selected_cases() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            "[{\"op\":\"x\",\"v\":1},\n {\"op\":\"y\",\"v\":2},\n {\"op\":\"x\",\"v\":3}]",
        )
        .golden(
            "a.json",
            &golden_of(&[
                r#"{"op":"x","v":1}"#,
                r#"{"op":"y","v":2}"#,
                r#"{"op":"x","v":30}"#,
            ]),
        )
        .case("b.json", r#"[{"op":"y"}]"#)
        .golden("b.json", &golden_of(&[r#"{"op":"y"}"#]))
        .golden("gone.json", "[]\n");
    let ran = corpus.run(&["run", "--oracle", "tee -a seen.txt", "--op", "x"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        corpus.read("seen.txt"),
        "[{\"op\":\"x\",\"v\":1},{\"op\":\"x\",\"v\":3}]",
        "only a.json's x cases, raw bytes kept"
    );
    assert!(
        ran.stdout
            .starts_with("FAIL a.json (1 of 2 cases failed)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("  FAIL a.json:3 #2 x: different at /v\n"),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("b.json"), "{}", ran.stdout);
    assert!(
        !ran.stdout.contains("ORPHAN"),
        "an --op run cannot know: {}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "1 passed, 1 failed");
    let ran = corpus.run(&[
        "run", "--oracle", "cat", "--op", "x", "--op", "y", "--format", "json",
    ]);
    let report = Report::read(&ran.stdout);
    assert_eq!(
        report.by_op,
        [
            ("x".to_owned(), tally(1, 1, 0)),
            ("y".to_owned(), tally(2, 0, 0))
        ]
    );
    let ran = corpus.run(&["run", "--oracle", "cat", "--op", "x", "--op", "z"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .contains("--op z matches no case in the selected case files"),
        "{}",
        ran.stderr
    );
}

#[test]
fn one_broken_link_costs_its_file_not_the_corpus() {
    use std::os::unix::fs::symlink;
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[1]")
        .golden("a.json", &golden_of(&["1"]));
    symlink("nowhere.json", corpus.join("cases/gone.json")).unwrap();
    symlink("loop.json", corpus.join("cases/loop.json")).unwrap();
    symlink("nowhere.json", corpus.join("golden/a2.json")).unwrap();
    corpus.case("a2.json", "[2]");
    let ran = corpus.run(&["run", "--oracle", "cat"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout.contains("ok a.json (1 case)\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("ERROR gone.json: cases/gone.json is a symbolic link to nothing\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("ERROR loop.json: cases/loop.json is a symbolic link that loops\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "ERROR a2.json: golden golden/a2.json is a symbolic link to nothing, or one that loops\n"
        ),
        "{}",
        ran.stdout
    );
    let ran = corpus.run(&["bless", "--reference", "cat", "--check"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stdout
            .contains("ERROR      gone.json: cases/gone.json is a symbolic link to nothing\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("unchanged  a.json (1 case)\n"),
        "{}",
        ran.stdout
    );
}
