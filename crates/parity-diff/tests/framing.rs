//! Exact framing, end to end (issue 19, item 4): with `framing = "exact"`
//! (given here: the default is `json`, any array) a port whose stdout holds more than what
//! `JSON.stringify` prints around its results (a trailing newline, white
//! space) fails with one divergence of the file, in memory and streamed
//! alike; `--framing json` or the suite's key takes any JSON array; a
//! `rule op *` with `match: framing` accepts it, `accept` writes such
//! rules and `--prune` removes them once stale; a stdout that is no array
//! at all shows its start, masked.

use crate::support;

use support::{run_with, Corpus, Ran};

/// Prints `[1]` for each case file of one case, then what `$AFTER` says
/// (`\n` by default: a trailing newline).
const PORT: &str = r#"cat > /dev/null; printf '[1]'; printf "${AFTER-\n}""#;

fn corpus(files: &[&str]) -> Corpus {
    let corpus = Corpus::new();
    for file in files {
        corpus
            .case(file, r#"[{"name":"one","op":"echo"}]"#)
            .golden(file, "[1]");
    }
    corpus
}

/// `run` with PORT, exact framing unless `args` say otherwise.
fn run(corpus: &Corpus, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut full = vec!["run", "--oracle", PORT];
    if !args.contains(&"--framing") {
        full.extend(["--framing", "exact"]);
    }
    full.extend(args);
    run_with(corpus.path(), &full, b"", env)
}

const NEWLINE: &str = "FRAMING a.json: stdout is not framed as JSON.stringify frames an array: \
                       after the last result \"]\\n\" where \"]\" belongs\n";

#[test]
fn a_trailing_newline_fails_the_file_once_in_memory_and_streamed() {
    let corpus = corpus(&["a.json"]);
    for env in [&[][..], &[("PARITY_DIFF_STREAM_ABOVE", "0")]] {
        let ran = run(&corpus, &[], env);
        assert_eq!(ran.code, 1, "{env:?}: {ran:?}");
        assert!(ran.stdout.starts_with(NEWLINE), "{env:?}: {ran:?}");
        assert!(
            ran.stdout
                .contains("FAIL a.json (1 case, framing differs)\n"),
            "{ran:?}"
        );
        assert_eq!(ran.last_line(), "1 passed, 1 failed", "{env:?}");
    }
    // Exact framing passes; white space inside the array does not.
    let ran = run(&corpus, &[], &[("AFTER", "")]);
    assert_eq!(
        (ran.code, ran.last_line()),
        (0, "1 passed, 0 failed"),
        "{ran:?}"
    );
    let spaced = "cat > /dev/null; printf '[ 1 ]'";
    let ran = corpus.run(&[
        "run",
        "--oracle",
        spaced,
        "--framing",
        "exact",
        "--format",
        "json",
    ]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            r#""problem":"framing","message":"stdout is not framed as JSON.stringify frames an array: before the first result \"[ \" where \"[\" belongs; after the last result \" ]\" where \"]\" belongs","state":"failed""#
        ),
        "{}",
        ran.stdout
    );
}

#[test]
fn json_framing_takes_any_array_from_the_flag_or_the_suite() {
    let corpus = corpus(&["a.json"]);
    let ran = run(&corpus, &["--framing", "json"], &[]);
    assert_eq!(
        (ran.code, ran.last_line()),
        (0, "1 passed, 0 failed"),
        "{ran:?}"
    );
    let suite = |framing: &str| {
        format!("[suite.s]\ncases = \"cases\"\noracle = '''{PORT}'''\nframing = \"{framing}\"\n")
    };
    support::write(corpus.join("parity.toml"), suite("json"));
    let ran = corpus.run(&["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    // The flag wins over the key.
    let ran = corpus.run(&["run", "--framing", "exact"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    support::write(corpus.join("parity.toml"), suite("exact"));
    assert_eq!(corpus.run(&["run"]).code, 1);
    assert_eq!(corpus.run(&["run", "--framing", "json"]).code, 0);
    let ran = corpus.run(&["run", "--framing", "loose"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("`exact` or `json`, not \"loose\""),
        "{ran:?}"
    );
}

#[test]
fn rules_accept_framing_and_go_stale_when_the_port_is_fixed() {
    let corpus = corpus(&["a.json", "b.json"]);
    // A rule for a.json alone: b.json still fails.
    let ledger = corpus.join("parity-ledger.txt");
    support::write(
        &ledger,
        "rule op *\n  files: a.json\n  match: framing\n  state: triaged https://example.com/1\n  reason: a newline\n",
    );
    let ran = run(&corpus, &[], &[]);
    assert_eq!(ran.code, 1, "b.json is not accepted: {ran:?}");
    assert!(
        ran.stdout.contains(
            "framing a.json: stdout is not framed as JSON.stringify frames an array: after the last \
             result \"]\\n\" where \"]\" belongs (triaged (https://example.com/1): a newline)\n"
        ),
        "{ran:?}"
    );
    assert!(ran.stdout.contains("FRAMING b.json: "), "{ran:?}");
    // accept writes the rule b.json needs, by its name.
    let accepted = corpus.run(&[
        "accept",
        "--oracle",
        PORT,
        "--framing",
        "exact",
        "--reason",
        "newline",
    ]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert!(
        accepted
            .stdout
            .contains("added    rule op *, files b.json (match: framing) (1 file)\n"),
        "{accepted:?}"
    );
    let ran = run(&corpus, &["--format", "json"], &[]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains(r#""problem":"framing","#), "{ran:?}");
    assert!(
        ran.stdout.contains(
            r#""state":"accepted","entry":{"state":"accepted","reason":"newline","link":null}"#
        ),
        "{}",
        ran.stdout
    );
    // The port fixed: both rules are stale, and --prune removes them.
    let ran = run(&corpus, &[], &[("AFTER", "")]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stdout.matches("STALE rule op *, files ").count(),
        2,
        "{ran:?}"
    );
    let fixed = "cat > /dev/null; printf '[1]'";
    let pruned = corpus.run(&["accept", "--oracle", fixed, "--framing", "exact", "--prune"]);
    assert_eq!(pruned.code, 0, "{pruned:?}");
    assert_eq!(
        std::fs::read_to_string(&ledger)
            .unwrap()
            .matches("rule op")
            .count(),
        0
    );
    assert_eq!(corpus.run(&["run", "--oracle", fixed]).code, 0);
}

#[test]
fn accept_writes_one_rule_when_every_file_diverges_and_refuses_framing_by_op() {
    let corpus = corpus(&["a.json", "b.json", "c.json"]);
    let accepted = corpus.run(&[
        "accept",
        "--oracle",
        PORT,
        "--framing",
        "exact",
        "--reason",
        "newline",
    ]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert!(
        accepted
            .stdout
            .starts_with("added    rule op * (match: framing) (3 files)\n"),
        "{accepted:?}"
    );
    assert_eq!(run(&corpus, &[], &[]).code, 0);
    // A framing rule scoped by op is refused: framing is a file's.
    support::write(
        corpus.join("parity-ledger.txt"),
        "rule op echo\n  match: framing\n  state: accepted\n",
    );
    let ran = run(&corpus, &[], &[]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains(
            "line 1: `match: framing` is about a file's whole output, not an op's cases: \
             its rule is `rule op *` (narrowed by `files:`), not `rule op echo`"
        ),
        "{ran:?}"
    );
}

#[test]
fn a_stdout_that_is_no_array_shows_its_start_masked() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            r#"[{"name":"one","op":"echo","token":"tok-secret-1234567"}]"#,
        )
        .golden("a.json", "[1]");
    // It prints its input back after a debug line, on every batch (the
    // empty one too): no case is to blame, the file fails.
    let debug = r#"printf 'debug: got '; cat"#;
    let ran = corpus.run(&["run", "--oracle", debug]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "ERROR a.json: the oracle printed no JSON array: not a JSON array; it fails on an empty \
             array `[]` too, so no case is to blame; its stdout (68 bytes) begins \"debug: got \
             [{\\\"name\\\":\\\"one\\\",\\\"op\\\":\\\"echo\\\",\\\"token\\\":\\\"<redacted>\\\"}]\"\n"
        ),
        "{ran:?}"
    );
    assert!(!ran.stdout.contains("tok-secret"), "{ran:?}");
    assert!(
        ran.stdout.contains("(the oracle wrote nothing on stderr)"),
        "{ran:?}"
    );
}

#[test]
fn delta_names_a_file_whose_framing_newly_fails_or_passes() {
    let corpus = corpus(&["a.json"]);
    let report = |after: &str, name: &str| {
        let ran = run(&corpus, &["--format", "json"], &[("AFTER", after)]);
        support::write(corpus.join(name), &ran.stdout);
    };
    report("", "exact.json");
    report("\n", "newline.json");
    let delta = |base: &str, head: &str| corpus.run(&["delta", base, head]);
    let ran = delta("exact.json", "newline.json");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("a.json (framing)"), "{ran:?}");
    assert!(ran.stdout.contains("newly failing"), "{ran:?}");
    let ran = delta("newline.json", "exact.json");
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("a.json (framing)"), "{ran:?}");
    let ran = delta("newline.json", "newline.json");
    assert!(!ran.stdout.contains("(framing)"), "{ran:?}");
}
