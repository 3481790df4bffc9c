//! `run --record-timings FILE` and `run --shard K/N --timings FILE`:
//! each case file's oracle time written to a file of its own (never in
//! the report), and shards balanced by those times: the same timings
//! give the same shards, a file they do not know weighs the median, the
//! shards cover the selection once and merge, an empty shard passes, and
//! misuse is refused. No test here claims anything about how long a run
//! takes (scripts/bench-shards.sh measures the balance).

use crate::support;

use std::collections::BTreeSet;

use support::report::Report;
use support::{golden_of, Corpus, Ran};

/// `a.json`, `b.json`, `c.json`: four passing cases each, op `x` but
/// the last of each file, op `y` (`cat` is the port).
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    for file in ["a", "b", "c"] {
        let cases: Vec<String> = (0..4)
            .map(|n| {
                let op = if n == 3 { "y" } else { "x" };
                format!(r#"{{"op":"{op}","name":"{file}{n}"}}"#)
            })
            .collect();
        let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
        corpus
            .case(&format!("{file}.json"), &format!("[{}]", cases.join(",")))
            .golden(&format!("{file}.json"), &golden_of(&cases));
    }
    corpus
}

/// A timings file: each file's cases and microseconds.
fn timings(files: &[(&str, usize, u64)]) -> String {
    let files: Vec<String> = files
        .iter()
        .map(|(file, cases, micros)| {
            format!(r#"{{"file":"{file}","cases":{cases},"microseconds":{micros}}}"#)
        })
        .collect();
    format!("{{\"version\":1,\"files\":[{}]}}\n", files.join(","))
}

fn run(corpus: &Corpus, args: &[&str]) -> Ran {
    let mut all = vec!["run", "--oracle", "cat"];
    all.extend(args);
    corpus.run(&all)
}

/// Each shard's JSON report, by `--timings FILE` when given.
fn shards(corpus: &Corpus, n: usize, timings: Option<&str>) -> Vec<Ran> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut args = vec!["--shard", &shard, "--format", "json"];
            if let Some(file) = timings {
                args.extend(["--timings", file]);
            }
            let ran = run(corpus, &args);
            assert_eq!(ran.code, 0, "{ran:?}");
            ran
        })
        .collect()
}

fn ranges(shards: &[Ran]) -> Vec<(usize, usize)> {
    shards
        .iter()
        .map(|ran| {
            let shard = Report::read(&ran.stdout).head.shard.unwrap();
            (shard.from, shard.to)
        })
        .collect()
}

#[test]
fn recorded_timings_name_each_file_and_leave_the_report_alone() {
    let corpus = corpus();
    let plain = run(&corpus, &["--format", "json", "--jobs", "1"]);
    let timed = run(
        &corpus,
        &[
            "--format",
            "json",
            "--jobs",
            "2",
            "--record-timings",
            "t.json",
        ],
    );
    assert_eq!((plain.code, timed.code), (0, 0), "{timed:?}");
    assert_eq!(timed.stdout, plain.stdout);
    let text = corpus.read("t.json");
    let value: serde_like::Timings = serde_like::read(&text);
    assert_eq!(value.version, 1);
    assert_eq!(
        value
            .files
            .iter()
            .map(|(file, cases)| (file.as_str(), *cases))
            .collect::<Vec<_>>(),
        [("a.json", 4), ("b.json", 4), ("c.json", 4)]
    );
    // With --op, the cases each file was sent; a file with none is not
    // run, so not recorded.
    let ran = run(
        &corpus,
        &[
            "--op",
            "y",
            "--filter",
            "[ab].json",
            "--record-timings",
            "y.json",
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    let value = serde_like::read(&corpus.read("y.json"));
    assert_eq!(
        value
            .files
            .iter()
            .map(|(file, cases)| (file.as_str(), *cases))
            .collect::<Vec<_>>(),
        [("a.json", 1), ("b.json", 1)]
    );
    // What it writes, --timings reads.
    let ran = run(&corpus, &["--shard", "1/2", "--timings", "t.json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn shards_balanced_by_timings_are_deterministic_and_unknown_files_weigh_the_median() {
    let corpus = corpus();
    // a's cases take 1 ms, b's 3 ms; c is unknown, so weighs the median
    // (2 ms): 4 + 12 + 8 = 24 ms, halved at 12, nearest after b's third
    // case (13; after its second, 10).
    support::write(
        corpus.join("t.json"),
        timings(&[("a.json", 4, 4000), ("b.json", 4, 12000)]),
    );
    let first = shards(&corpus, 2, Some("t.json"));
    assert_eq!(ranges(&first), [(0, 7), (7, 12)]);
    // The same timings, the same shards, byte for byte.
    let again = shards(&corpus, 2, Some("t.json"));
    for (one, other) in first.iter().zip(&again) {
        assert_eq!(one.stdout, other.stdout);
    }
    // Had c weighed 1 µs a case rather than the median, the half would
    // fall after b's first case; by count, after b's second.
    assert_eq!(ranges(&shards(&corpus, 2, None)), [(0, 6), (6, 12)]);
    // Each shard records the timings it was balanced by; by count, none.
    let head = Report::read(&first[0].stdout).head.shard.unwrap();
    assert!(head.timings.is_some());
    assert_eq!(
        Report::read(&shards(&corpus, 2, None)[0].stdout)
            .head
            .shard
            .unwrap()
            .timings,
        None
    );
    // Timings that know no file balance by count (every case weighs 1).
    support::write(corpus.join("none.json"), timings(&[]));
    assert_eq!(
        ranges(&shards(&corpus, 2, Some("none.json"))),
        [(0, 6), (6, 12)]
    );
}

#[test]
fn time_balanced_shards_cover_the_selection_once_and_merge() {
    let corpus = corpus();
    support::write(
        corpus.join("t.json"),
        timings(&[
            ("a.json", 4, 400),
            ("b.json", 4, 90000),
            ("c.json", 4, 4000),
        ]),
    );
    let whole = run(&corpus, &["--format", "json"]);
    for n in [2, 3, 5] {
        let reports = shards(&corpus, n, Some("t.json"));
        let mut seen = BTreeSet::new();
        let mut count = 0;
        for ran in &reports {
            for case in Report::read(&ran.stdout).cases() {
                seen.insert(case.id.clone());
                count += 1;
            }
        }
        // Every case once.
        assert_eq!((seen.len(), count), (12, 12), "{n} shards");
        let paths: Vec<String> = (1..=n).map(|k| format!("shard-{k}-of-{n}.json")).collect();
        for (path, ran) in paths.iter().zip(&reports) {
            support::write(corpus.join(path), &ran.stdout);
        }
        let mut args = vec!["merge", "--format", "json"];
        args.extend(paths.iter().map(String::as_str));
        let merged = corpus.run(&args);
        assert_eq!(merged.code, 0, "{merged:?}");
        let body = |report: &str| report[report.find(",\"files\":").unwrap()..].to_owned();
        assert_eq!(body(&merged.stdout), body(&whole.stdout), "{n} shards");
    }
    // With --op, the shards split the op's cases.
    let ran = run(
        &corpus,
        &[
            "--op",
            "x",
            "--shard",
            "2/2",
            "--timings",
            "t.json",
            "--format",
            "json",
        ],
    );
    let report = Report::read(&ran.stdout);
    assert!(report.cases().all(|case| case.op.as_deref() == Some("x")));
}

#[test]
fn an_empty_shard_passes_and_shards_balanced_otherwise_do_not_merge() {
    let corpus = corpus();
    // a's four cases weigh everything, each a quarter of the whole: of
    // eight shards, every other holds none.
    support::write(
        corpus.join("t.json"),
        timings(&[("a.json", 4, 4_000_000), ("b.json", 4, 0), ("c.json", 4, 0)]),
    );
    let reports = shards(&corpus, 8, Some("t.json"));
    let sizes: Vec<usize> = reports
        .iter()
        .map(|ran| Report::read(&ran.stdout).cases().count())
        .collect();
    // Shard K starts where the weight comes nearest to K/8 of it, the
    // earlier case on a tie.
    assert_eq!(sizes, [0, 1, 0, 1, 0, 1, 0, 9]);
    let empty = reports
        .iter()
        .position(|ran| Report::read(&ran.stdout).cases().count() == 0)
        .unwrap();
    let shard = format!("{}/8", empty + 1);
    let ran = run(&corpus, &["--shard", &shard, "--timings", "t.json"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (0, "0 passed, 0 failed\n"));

    // One shard balanced by time, the other by count.
    support::write(
        corpus.join("timed-1.json"),
        &shards(&corpus, 2, Some("t.json"))[0].stdout,
    );
    support::write(
        corpus.join("count-2.json"),
        &shards(&corpus, 2, None)[1].stdout,
    );
    let refused = corpus.run(&["merge", "timed-1.json", "count-2.json"]);
    assert_eq!(refused.code, 2);
    let fingerprint = Report::read(&corpus.read("timed-1.json"))
        .head
        .shard
        .unwrap()
        .timings
        .unwrap();
    assert_eq!(
        refused.stderr,
        format!(
            "parity-diff: timed-1.json was balanced by the times of --timings {fingerprint:016x} \
             but count-2.json by count: the shards of one run are all balanced by the same \
             --timings (or all without)\n"
        )
    );
}

#[test]
fn misuse_is_refused() {
    let corpus = corpus();
    support::write(corpus.join("t.json"), timings(&[("a.json", 4, 4)]));
    // --timings balances shards: without --shard it is a usage error.
    let ran = run(&corpus, &["--timings", "t.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .contains("the following required arguments were not provided")
            && ran.stderr.contains("--shard <K/N>"),
        "{}",
        ran.stderr
    );
    let hint = " (a timings file is what run --record-timings writes)";
    for (text, message) in [
        ("{\"version\":1}", format!("no `files` array{hint}")),
        ("[]", format!("not a JSON object{hint}")),
        (
            "{\"version\":9,\"files\":[]}",
            "a timings file of version 9; this parity-diff reads version 1".to_owned(),
        ),
        (
            "{\"version\":1,\"files\":[{\"file\":\"a.json\",\"cases\":-1,\"microseconds\":3}]}",
            format!("files[0]: `cases` is not a whole number of 0 or more{hint}"),
        ),
    ] {
        support::write(corpus.join("bad.json"), text);
        let ran = run(&corpus, &["--shard", "1/2", "--timings", "bad.json"]);
        assert_eq!(ran.code, 2, "{text}");
        assert_eq!(
            ran.stderr,
            format!("parity-diff: --timings bad.json: {message}\n")
        );
        assert_eq!(ran.stdout, "");
    }
    let ran = run(&corpus, &["--shard", "1/2", "--timings", "nope.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr
            .starts_with("parity-diff: --timings nope.json: cannot read it: "),
        "{}",
        ran.stderr
    );
    // A timings file that cannot be written: after the report, exit 2.
    std::fs::create_dir(corpus.join("dir.json")).unwrap();
    let ran = run(&corpus, &["--record-timings", "dir.json"]);
    assert_eq!(ran.code, 2);
    assert!(
        ran.stdout.ends_with("12 passed, 0 failed\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stderr
            .starts_with("parity-diff: --record-timings: cannot write dir.json: "),
        "{}",
        ran.stderr
    );
}

/// The timings file read back without parity-diff's own reader (whose
/// unit tests read it): its version, and each file's name and cases.
mod serde_like {
    pub struct Timings {
        pub version: u64,
        pub files: Vec<(String, u64)>,
    }

    pub fn read(text: &str) -> Timings {
        let value = js_exact::parse(text.as_bytes(), js_exact::TextMode::LossyUtf8).unwrap();
        let files = value
            .get("files")
            .as_array()
            .unwrap()
            .iter()
            .map(|file| {
                let micros = file.get("microseconds").as_number().unwrap();
                assert!(micros >= 0.0 && micros.fract() == 0.0, "{text}");
                (
                    file.get("file")
                        .as_js_string()
                        .unwrap()
                        .to_utf8_lossy()
                        .into_owned(),
                    file.get("cases").as_number().unwrap() as u64,
                )
            })
            .collect();
        Timings {
            version: value.get("version").as_number().unwrap() as u64,
            files,
        }
    }
}
