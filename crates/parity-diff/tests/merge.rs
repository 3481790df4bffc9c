//! `run --shard K/N` and `parity-diff merge`: shards balanced by cases,
//! reports that record their corpus, and shard reports merged into the
//! report of the whole run, or refused with a reason.

use crate::support;

use std::path::{Path, PathBuf};

use support::report::Report;
use support::{golden_of, run, write, Corpus, Ran};

/// The JSON report's members after its head: everything a merge must
/// reproduce.
fn body(report: &str) -> &str {
    let at = report.find(",\"files\":").expect("a JSON report");
    &report[at..]
}

fn parse(report: &str) -> Report {
    let text = report.to_owned();
    // Reports of the bundled corpus hold deeply nested values: read them
    // on a big stack.
    std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(move || Report::read(&text))
        .unwrap()
        .join()
        .unwrap()
}

fn merge(dir: &Path, paths: &[PathBuf], format: &str) -> Ran {
    let mut args = vec!["merge".to_owned(), "--format".to_owned(), format.to_owned()];
    args.extend(paths.iter().map(|path| path.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(dir, &args)
}

/// Seven cases in two files, `cat` as the oracle (each case file is its
/// own result array); `c.json`'s golden has one element more than its
/// cases.
fn corpus_of_seven() -> Corpus {
    let corpus = Corpus::new();
    let a: Vec<String> = (0..5)
        .map(|n| format!(r#"{{"op":"x","name":"a{n}"}}"#))
        .collect();
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    corpus
        .case("a.json", &format!("[{}]", a.join(",")))
        .golden("a.json", &golden_of(&a))
        .case(
            "c.json",
            r#"[{"op":"y","name":"c0"},{"op":"y","name":"c1"}]"#,
        )
        .golden(
            "c.json",
            &golden_of(&[
                r#"{"op":"y","name":"c0"}"#,
                r#"{"op":"y","name":"c1"}"#,
                r#"{"op":"y","name":"stale"}"#,
            ]),
        )
        .golden("gone.json", &golden_of(&["1"]));
    corpus
}

fn shard_reports(corpus: &Corpus, n: usize, extra: &[&str]) -> Vec<PathBuf> {
    tagged_reports(corpus, "shard", n, extra)
}

fn tagged_reports(corpus: &Corpus, tag: &str, n: usize, extra: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut args = vec![
                "run", "--oracle", "cat", "--format", "json", "--shard", &shard,
            ];
            args.extend_from_slice(extra);
            let ran = corpus.run(&args);
            assert!(ran.code < 2, "{shard}: {ran:?}");
            let path = corpus.join(&format!("{tag}-{k}-of-{n}.json"));
            write(&path, &ran.stdout);
            path
        })
        .collect()
}

#[test]
fn a_file_straddling_shards_is_sent_in_parts_and_merges_whole() {
    let corpus = corpus_of_seven();
    // Seven cases in three shards: 0..2, 2..4, 4..7. The oracle (cat)
    // answers exactly what it was sent, so a shard passes only if it sent
    // its own cases and compared them at their positions.
    let paths = shard_reports(&corpus, 3, &[]);
    let texts: Vec<String> = paths
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let human = |k: usize| {
        let shard = format!("{k}/3");
        corpus
            .run(&["run", "--oracle", "cat", "--shard", &shard])
            .stdout
    };
    assert_eq!(human(1), "ok a.json (2 cases)\n2 passed, 0 failed\n");
    assert_eq!(human(2), "ok a.json (2 cases)\n2 passed, 0 failed\n");
    // The last part of c.json meets the golden's element past its cases;
    // orphaned goldens wait for the merge.
    let third = human(3);
    assert!(
        third.starts_with("ok a.json (1 case)\nFAIL c.json (1 of 3 cases failed)\n"),
        "{third}"
    );
    assert!(!third.contains("gone.json"), "{third}");
    assert!(texts[2].contains(r#""verdict":"missing""#));

    // Merged: what the unsharded run says, byte for byte.
    let whole = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    let merged = merge(corpus.path(), &paths, "json");
    assert_eq!((merged.code, whole.code), (1, 1), "{}", merged.stderr);
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    assert!(merged
        .stdout
        .contains(r#""problem":"orphaned golden","golden":"golden/gone.json""#));
    let human = merge(corpus.path(), &paths, "human");
    assert_eq!(human.stdout, corpus.run(&["run", "--oracle", "cat"]).stdout);
    // More shards than cases: empty shards, still whole once merged.
    let paths = shard_reports(&corpus, 9, &[]);
    let merged = merge(corpus.path(), &paths, "json");
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    // A shard run is deterministic.
    let again = shard_reports(&corpus, 3, &[]);
    for (a, b) in again.iter().zip(&texts) {
        assert_eq!(&std::fs::read_to_string(a).unwrap(), b);
    }
}

#[test]
fn shards_with_op_merge_without_the_whole_run_checks() {
    let corpus = corpus_of_seven();
    let paths = shard_reports(&corpus, 2, &["--op", "x"]);
    let merged = merge(corpus.path(), &paths, "json");
    let whole = corpus.run(&["run", "--oracle", "cat", "--format", "json", "--op", "x"]);
    assert_eq!((merged.code, whole.code), (0, 0), "{}", merged.stderr);
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    assert!(!merged.stdout.contains("orphaned golden"));
}

#[test]
fn orphaned_ledger_entries_are_found_on_the_merged_whole() {
    let corpus = corpus_of_seven();
    corpus.golden(
        "a.json",
        &golden_of(&[
            r#"{"op":"x","name":"a0"}"#,
            r#"{"op":"x","name":"a1"}"#,
            r#"{"op":"x","name":"a2"}"#,
            r#"{"op":"x","name":"a3"}"#,
            r#"{"op":"x","name":"a4","v":1}"#,
        ]),
    );
    let accepted = corpus.run(&["accept", "--oracle", "cat", "--reason", "known"]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    let ledger = corpus.read("parity-ledger.txt");
    write(
        corpus.join("parity-ledger.txt"),
        format!(
            "{ledger}\ncase a.json \"nobody\"\n  op: x\n  state: accepted\n  reason: gone\n  \
             verdict: different\n  fingerprint: 0000000000000000\n"
        ),
    );
    let paths = shard_reports(&corpus, 2, &[]);
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains(r#""orphanedEntries":[]"#), "{text}");
    }
    let merged = merge(corpus.path(), &paths, "json");
    let whole = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    // Only `nobody` is orphaned: the entry of c.json's golden element past
    // its cases (known by position) met its case, in the run as in the
    // merge.
    assert!(merged.stdout.contains(
        r#""orphanedEntries":[{"id":{"file":"a.json","name":"nobody"},"op":"x","entry":{"state":"accepted","reason":"gone","link":null},"fingerprint":"0000000000000000"}]"#
    ), "{}", merged.stdout);
    let human = merge(corpus.path(), &paths, "human");
    assert!(human
        .stdout
        .contains("ORPHANED a.json \"nobody\" (op x): no such case"));
    assert_eq!(human.stdout, corpus.run(&["run", "--oracle", "cat"]).stdout);
}

/// Rules over `corpus_of_seven`, run with `cat` in three shards (cases
/// 0..2, 2..4, 4..7: c.json's cases, and the golden element past them,
/// only in the third).
const RULES: &str = "\
rule op y
  match: any
  state: accepted
  reason: used in the third shard only

rule op y
  files: c.json
  match: threw \"nope\"
  state: accepted
  reason: stale in the third shard, orphaned in the others

rule op x
  match: crash
  state: accepted
  reason: stale in every shard

rule op x
  files: c.json
  match: any
  state: accepted
  reason: orphaned: c.json has no case of op x

rule op z
  match: any
  state: triaged https://example.com/issue/1
  reason: orphaned in every shard
";

#[test]
fn stale_and_orphaned_rules_are_found_on_the_merged_whole() {
    let corpus = corpus_of_seven();
    // c1 diverges (for the first rule to decide), besides the golden's
    // element past c.json's cases (an op-less case no rule covers).
    corpus.golden(
        "c.json",
        &golden_of(&[
            r#"{"op":"y","name":"c0"}"#,
            r#"{"op":"y","name":"c1","v":1}"#,
            r#"{"op":"y","name":"stale"}"#,
        ]),
    );
    write(corpus.join("parity-ledger.txt"), RULES);
    let paths = shard_reports(&corpus, 3, &[]);
    // Each shard says which rules its cases did not decide, by index, and
    // fails none of them (only the whole run knows).
    let shard = |k: usize| std::fs::read_to_string(&paths[k]).unwrap();
    assert!(shard(0).contains(r#""ledgerRules":[],"shardRules":[{"index":0,"rule":"rule op y""#));
    assert!(shard(2).contains(r#""shardRules":[{"index":1,"rule":"rule op y""#));
    let problems = |text: &str| -> Vec<(usize, String)> {
        let rules = parse(text).shard_rules.expect("shardRules");
        rules
            .iter()
            .map(|finding| (finding.index, finding.problem.name().to_owned()))
            .collect()
    };
    let listed = |pairs: &[(usize, &str)]| -> Vec<(usize, String)> {
        pairs.iter().map(|(i, p)| (*i, p.to_string())).collect()
    };
    let orphaned_in_part = listed(&[
        (0, "orphaned"),
        (1, "orphaned"),
        (2, "stale"),
        (3, "orphaned"),
        (4, "orphaned"),
    ]);
    assert_eq!(problems(&shard(0)), orphaned_in_part);
    assert_eq!(problems(&shard(1)), orphaned_in_part);
    assert_eq!(
        problems(&shard(2)),
        listed(&[(1, "stale"), (2, "stale"), (3, "orphaned"), (4, "orphaned")])
    );
    for k in 0..3 {
        assert!(shard(k).contains(r#""staleRules":0"#), "{}", shard(k));
    }

    // Merged: the unsharded run's findings, byte for byte, in every
    // format that shows them, and its exit status.
    let whole = corpus.run(&["run", "--oracle", "cat", "--format", "json"]);
    let merged = merge(corpus.path(), &paths, "json");
    assert_eq!((merged.code, whole.code), (1, 1), "{}", merged.stderr);
    assert_eq!(body(&merged.stdout), body(&whole.stdout));
    assert!(!merged.stdout.contains("shardRules"), "{}", merged.stdout);
    assert!(
        merged.stdout.contains(r#""staleRules":4"#),
        "{}",
        merged.stdout
    );
    for format in ["human", "markdown", "junit"] {
        let merged = merge(corpus.path(), &paths, format);
        let whole = corpus.run(&["run", "--oracle", "cat", "--format", format]);
        // (The Markdown title names the command.)
        let merged = merged
            .stdout
            .replace("parity-diff merge", "parity-diff run");
        assert_eq!(merged, whole.stdout, "{format}");
    }
    let human = merge(corpus.path(), &paths, "human").stdout;
    for line in [
        "STALE rule op y, files c.json (match: threw \"nope\"): matches no case",
        "STALE rule op x (match: crash): matches no case",
        "ORPHANED rule op x, files c.json (match: any): no case of its ops",
        "ORPHANED rule op z (match: any): no case of its ops",
    ] {
        assert!(human.contains(line), "{line}\n{human}");
    }
    assert!(!human.contains("used in the third shard only"), "{human}");

    // Every file streamed (the survey notes each case's scope): the same
    // shards' rules and the same merge.
    let stream = [("PARITY_DIFF_STREAM_ABOVE", "0")];
    let streamed: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let args = [
                "run", "--oracle", "cat", "--format", "json", "--shard", &shard,
            ];
            let ran = support::run_with(corpus.path(), &args, b"", &stream);
            let path = corpus.join(&format!("streamed-{k}.json"));
            write(&path, &ran.stdout);
            path
        })
        .collect();
    for (a, b) in paths.iter().zip(&streamed) {
        assert_eq!(
            problems(&std::fs::read_to_string(b).unwrap()),
            problems(&std::fs::read_to_string(a).unwrap())
        );
    }
    let merged = merge(corpus.path(), &streamed, "json");
    assert_eq!(body(&merged.stdout), body(&whole.stdout));

    // A shard that says another rule stands at an index than the others
    // say was edited: refused, naming both.
    let third = std::fs::read_to_string(&paths[2]).unwrap();
    let edited = third.replacen(
        "stale in the third shard, orphaned in the others",
        "edited",
        1,
    );
    assert_ne!(edited, third);
    write(&paths[2], &edited);
    let refused = merge(corpus.path(), &paths, "json");
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(
        refused.stderr.contains(&format!(
            "{} and {} disagree about the ledger's rule 2 \
             (rule op y, files c.json (match: threw \"nope\")): \
             merge combines the reports of one run",
            paths[0].display(),
            paths[2].display()
        )),
        "{}",
        refused.stderr
    );

    // A shard written before `shardRules`: the rules are not checked,
    // and merge says so.
    let older = third.replacen(r#","shardRules":["#, r#","olderRules":["#, 1);
    assert_ne!(older, third);
    write(&paths[2], &older);
    let merged = merge(corpus.path(), &paths, "json");
    assert_eq!(merged.code, 1, "{merged:?}");
    assert!(
        merged.stdout.contains(r#""ledgerRules":[]"#),
        "{}",
        merged.stdout
    );
    assert_eq!(
        merged.stderr,
        format!(
            "parity-diff: warning: {} does not list the ledger rules its cases did not decide \
             (a report of an older parity-diff): the ledger's rules are not checked\n",
            paths[2].display()
        )
    );

    // A selection is no whole run: its shards list no rules, and the
    // merge checks none.
    let paths = shard_reports(&corpus, 2, &["--op", "x"]);
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(!text.contains("shardRules"), "{text}");
    }
    let merged = merge(corpus.path(), &paths, "json");
    assert!(
        merged.stdout.contains(r#""ledgerRules":[]"#),
        "{}",
        merged.stdout
    );
}

#[test]
fn merge_refuses_what_is_not_one_run_in_shards() {
    let corpus = corpus_of_seven();
    let paths = shard_reports(&corpus, 3, &[]);
    let path = |p: &PathBuf| p.display().to_string();
    let refused = |paths: &[PathBuf]| {
        let ran = merge(corpus.path(), paths, "human");
        assert_eq!(ran.code, 2, "{ran:?}");
        assert_eq!(ran.stdout, "");
        ran.stderr.trim_end().to_owned()
    };
    let p = &paths;
    assert_eq!(
        refused(&[p[0].clone(), p[1].clone(), p[0].clone()]),
        format!(
            "parity-diff: overlapping shards: {} and {} are both shard 1/3",
            path(&p[0]),
            path(&p[0])
        )
    );
    assert_eq!(
        refused(&[p[1].clone()]),
        "parity-diff: missing shards: 1/3, 3/3 (merge needs every shard of the run)"
    );
    assert_eq!(
        refused(&[p[0].clone(), p[1].clone()]),
        "parity-diff: missing shard: 3/3 (merge needs every shard of the run)"
    );
    // Another N.
    let halves = shard_reports(&corpus, 2, &[]);
    assert_eq!(
        refused(&[p[0].clone(), halves[1].clone(), p[2].clone()]),
        format!(
            "parity-diff: {} is shard 1/3 but {} is shard 2/2: the shards of one run are all K/N for one N",
            path(&p[0]),
            path(&halves[1])
        )
    );
    // Another corpus: a golden changed between shards.
    corpus.golden("a.json", "[\n1\n]\n");
    let changed = tagged_reports(&corpus, "changed", 3, &[]);
    let message = refused(&[p[0].clone(), changed[1].clone(), p[2].clone()]);
    assert!(
        message.starts_with(&format!(
            "parity-diff: {} and {} are reports of different corpora (fingerprints ",
            path(&p[0]),
            path(&changed[1])
        )),
        "{message}"
    );
    let corpus = corpus_of_seven();
    let paths = shard_reports(&corpus, 3, &[]);
    // Another selection.
    let by_op = tagged_reports(&corpus, "by-op", 3, &["--op", "x"]);
    assert_eq!(
        refused(&[paths[0].clone(), by_op[1].clone(), paths[2].clone()]),
        format!(
            "parity-diff: {} and {} selected different cases of the corpus \
             (their --filter, --op or --rerun-failed differ)",
            path(&paths[0]),
            path(&by_op[1])
        )
    );
    // Another ledger.
    write(corpus.join("parity-ledger.txt"), "# empty\n");
    let ledgered = tagged_reports(&corpus, "ledgered", 3, &[]);
    let message = refused(&[paths[0].clone(), ledgered[1].clone(), paths[2].clone()]);
    assert!(
        message.starts_with(&format!(
            "parity-diff: {} and {} used different ledgers (fingerprints none and ",
            path(&paths[0]),
            path(&ledgered[1])
        )),
        "{message}"
    );
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    // Another format version.
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    let future = corpus.join("future.json");
    write(
        &future,
        text.replacen("{\"version\":2,", "{\"version\":3,", 1),
    );
    assert_eq!(
        refused(&[paths[0].clone(), future.clone(), paths[2].clone()]),
        format!(
            "parity-diff: {} is a report of format version 3; this parity-diff reads versions 1 and 2",
            path(&future)
        )
    );
    // Reports that are not shards of a run.
    let whole = corpus.join("whole.json");
    write(
        &whole,
        corpus
            .run(&["run", "--oracle", "cat", "--format", "json"])
            .stdout,
    );
    assert_eq!(
        refused(std::slice::from_ref(&whole)),
        format!(
            "parity-diff: {0} is the report of a run without --shard; merge combines the JSON reports of `parity-diff run --shard K/N` (`parity-diff report {0} --format F` renders one report in another format)",
            path(&whole)
        )
    );
    let compared = corpus.join("compare.json");
    write(
        &compared,
        corpus
            .run(&[
                "compare",
                "--format",
                "json",
                "golden/a.json",
                "golden/a.json",
            ])
            .stdout,
    );
    assert_eq!(
        refused(std::slice::from_ref(&compared)),
        format!(
            "parity-diff: {} is a `compare` report; merge combines the JSON reports of `parity-diff run --shard K/N`",
            path(&compared)
        )
    );
    let merged = corpus.join("merged.json");
    write(&merged, merge(corpus.path(), &paths, "json").stdout);
    assert!(refused(std::slice::from_ref(&merged)).contains("is a `merge` report"));
    // Not a report at all.
    let human = corpus.join("human.txt");
    write(&human, "3 passed, 0 failed\n");
    assert_eq!(
        refused(std::slice::from_ref(&human)),
        format!(
            "parity-diff: {} is not a parity-diff JSON report: unexpected '3' at byte 0",
            path(&human)
        )
    );
    let missing = corpus.join("nowhere.json");
    assert!(
        refused(std::slice::from_ref(&missing)).starts_with(&format!(
            "parity-diff: cannot read the report {}: ",
            path(&missing)
        ))
    );
    let ran = run(corpus.path(), &["merge"]);
    assert_eq!(ran.code, 2, "{ran:?}");
}

#[test]
fn the_shards_warnings_stay_with_their_file() {
    let corpus = corpus_of_seven();
    let paths = shard_reports(&corpus, 3, &[]);
    // a.json straddles shards 1 and 2: each shard's oracle run may warn
    // (processes it left holding its output), as a run's report says.
    for (path, warning) in [(&paths[0], "first"), (&paths[1], "second")] {
        let text = std::fs::read_to_string(path).unwrap();
        let at = text.find("\"cases\":[").unwrap();
        let text = format!(
            "{}\"warnings\":[\"{warning}\"],{}",
            &text[..at],
            &text[at..]
        );
        write(path, &text);
        assert_eq!(parse(&text).files[0].head.warnings, [warning]);
    }
    let merged = merge(corpus.path(), &paths, "json");
    let report = parse(&merged.stdout);
    let a = report.file("a.json");
    assert_eq!(a.head.warnings, ["first", "second"], "{}", merged.stdout);
    assert!(report.file("c.json").head.warnings.is_empty());
    let human = merge(corpus.path(), &paths, "human");
    assert!(
        human.stdout.contains("WARNING a.json: first\n"),
        "{}",
        human.stdout
    );
    assert!(
        human.stdout.contains("WARNING a.json: second\n"),
        "{}",
        human.stdout
    );
}

#[test]
fn oracle_failures_in_a_straddling_file_count_once() {
    let corpus = corpus_of_seven();
    // An oracle that fails on a.json, whichever part it is sent.
    let oracle = r#"x=$(cat); case "$x" in *'"a'*) echo boom >&2; exit 3;; esac; printf '%s' "$x""#;
    let paths: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let ran = corpus.run(&[
                "run", "--oracle", oracle, "--format", "json", "--shard", &shard,
            ]);
            let path = corpus.join(&format!("s{k}.json"));
            write(&path, &ran.stdout);
            path
        })
        .collect();
    let merged = merge(corpus.path(), &paths, "json");
    let whole = corpus.run(&["run", "--oracle", oracle, "--format", "json"]);
    assert_eq!((merged.code, whole.code), (1, 1), "{}", merged.stderr);
    let summary = |text: &str| {
        let totals = parse(text).totals();
        (totals.failed, totals.errors, totals.skipped)
    };
    // Each of a.json's five cases fails alone: five failures (besides
    // the corpus's two divergences) and no input error, whether the
    // file's cases were sent in one run or spread over shards.
    assert_eq!(summary(&merged.stdout), (7, 0, 0));
    let crashes = parse(&merged.stdout)
        .files
        .iter()
        .flat_map(|file| &file.cases)
        .filter(|case| case.verdict.name() == "crash")
        .count();
    assert_eq!(crashes, 5);
    assert_eq!(summary(&merged.stdout), summary(&whole.stdout));
}
