//! `--format markdown` through the binary: the example partial port's
//! report (headline, per-op table with the JSON report's counts, the
//! failure groups), escaping, file problems and orphaned entries,
//! `accept` and `compare` in Markdown, and the formats `bless` refuses.

use crate::support;

use support::{assert_markdown_well_formed, golden_of, Corpus};

#[test]
fn other_peoples_text_is_escaped() {
    let corpus = Corpus::new();
    let cases = [
        r#"{"op":"a|b","name":"pipe | `tick` ``two``","v":1}"#,
        r#"{"op":"50%:x,y","name":"<b>@someone #12</b>","v":2}"#,
    ];
    corpus.case(
        "we,ird:name.json",
        &format!("[\n{}\n]\n", cases.join(",\n")),
    );
    corpus.golden(
        "we,ird:name.json",
        &golden_of(&[
            r#"{"op":"a|b","name":"pipe | `tick` ``two``","v":"```"}"#,
            r#"{"op":"50%:x,y","name":"<b>@someone #12</b>","v":3}"#,
        ]),
    );
    let ran = corpus.run(&["run", "--oracle", "cat", "--format", "markdown"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let md = &ran.stdout;
    assert_markdown_well_formed(md);
    // In a table, a pipe is escaped even in a code span.
    assert!(md.contains("\n| `a\\|b` | 0 | 0 | 1 | `"), "{md}");
    assert!(md.contains("\n| `50%:x,y` | 0 | 0 | 1 | `"), "{md}");
    // Elsewhere it is not; a span's backticks outnumber the text's.
    assert!(
        md.contains("#### 1. `a|b: different at /v (golden string, port number)` (1 case)\n"),
        "{md}"
    );
    assert!(
        md.contains("**failed** `cases/we,ird:name.json:2` ```#0 a|b \"pipe | `tick` ``two``\"```: `different at /v`\n"),
        "{md}"
    );
    // HTML, mentions and issue references stay code.
    assert!(md.contains("`#1 50%:x,y \"<b>@someone #12</b>\"`"), "{md}");
    // A fence outlasts the backticks of the element it holds.
    assert!(
        md.contains("Golden:\n\n````json\n{\n  \"op\": \"a|b\",\n  \"name\": \"pipe | `tick` ``two``\",\n  \"v\": \"```\"\n}\n````\n"),
        "{md}"
    );
}

fn problem_corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[{\"op\":\"x\",\"name\":\"one\",\"v\":1}]")
        .golden(
            "a.json",
            &golden_of(&["{\"op\":\"x\",\"name\":\"one\",\"v\":2}"]),
        )
        .case("b.json", "[{\"op\":\"boom\"}]")
        .golden("b.json", &golden_of(&["1"]))
        .case("c.json", "[{\"op\":\"x\"}]")
        .golden("d.json", &golden_of(&["1"]));
    support::write(
        corpus.join("parity-ledger.txt"),
        "case a.json \"gone\"\n  op: x\n  state: accepted\n  reason: it `was` | odd\n  \
         fingerprint: 0123456789abcdef\n",
    );
    corpus
}

/// Fails on the file holding a `boom` case, after saying so on stderr.
/// Fails on b.json's case and on `[]`, so that no case is to blame and
/// b.json is a file that could not be compared.
const BOOMING: &str =
    "input=$(cat); case \"$input\" in *boom*|'[]') echo 'it went `boom`' >&2; exit 3;; esac; printf %s \"$input\"";

#[test]
fn file_problems_and_orphaned_entries_have_their_sections() {
    let corpus = problem_corpus();
    let ran = corpus.run(&["run", "--oracle", BOOMING, "--format", "markdown"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let md = &ran.stdout;
    assert_markdown_well_formed(md);
    assert!(
        md.starts_with(
            "## ❌ parity-diff run: failed\n\n\
             **0** passed · **4** failed · **0** accepted · **1** skipped\n\n\
             Ledger `parity-ledger.txt`: 1 new, 0 changed, 0 stale, 1 orphaned.\n\n\
             Exit status 1: failures (divergences the ledger does not accept, the port's \
             crashes, timeouts and invalid output among them, missing or orphaned goldens, \
             stale or orphaned ledger entries and rules).\n\n### Per op\n"
        ),
        "{md}"
    );
    assert!(
        md.contains(concat!(
            "### Files that could not be compared\n\n",
            "**error** `cases/b.json`: ``the oracle exited with status 3; it fails on an empty array `[]` too, so no case is to blame`` (1 golden case not compared)\n\n",
            "<details><summary>the oracle's standard error</summary>\n\n",
            "```text\nit went `boom`\n```\n\n</details>\n\n",
            "### Missing and orphaned goldens\n\n",
            "**missing** `cases/c.json`: no golden at `golden/c.json`\n\n",
            "**orphaned** `golden/d.json`: a golden without a case file\n\n",
            "### Orphaned ledger entries\n\n",
            "These entries name cases that do not exist; `parity-diff accept --prune` removes them.\n\n",
            "**orphaned** `a.json \"gone\"` (op `x`): ``it `was` | odd``\n\n",
        )),
        "{md}"
    );
    assert!(
        md.contains("**new** `cases/a.json:1` `#0 x \"one\"`: `different at /v`\n"),
        "{md}"
    );
}

#[test]
fn accept_and_compare_report_in_markdown() {
    let corpus = Corpus::new();
    corpus
        .case(
            "a.json",
            "[{\"op\":\"x\",\"name\":\"one\",\"v\":1},\n{\"op\":\"x\",\"v\":2}]",
        )
        .golden(
            "a.json",
            &golden_of(&[
                "{\"op\":\"x\",\"name\":\"one\",\"v\":0}",
                "{\"op\":\"x\",\"v\":2}",
            ]),
        );
    // `cat` echoes the case file, framing and all.
    let ran = corpus.run(&[
        "accept",
        "--oracle",
        "cat",
        "--framing",
        "json",
        "--reason",
        "why",
        "--format",
        "markdown",
    ]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let md = &ran.stdout;
    assert_markdown_well_formed(md);
    assert!(
        md.starts_with(
            "## ✅ parity-diff accept: done\n\n**1** passed · **1** failed · **0** accepted\n\n\
             Ledger `parity-ledger.txt`: 1 new, 0 changed, 0 stale, 0 orphaned.\n\n\
             Exit status 0: the ledger is updated; the counts are the run's before the update.\n\n\
             ### Ledger changes\n\n`parity-ledger.txt`: written.\n\nAdded (1): `a.json \"one\"`.\n\n"
        ),
        "{md}"
    );
    let args = [
        "run",
        "--oracle",
        "cat",
        "--framing",
        "json",
        "--format",
        "markdown",
    ];
    let ran = corpus.run(&args);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.starts_with(
            "## ✅ parity-diff run: passed\n\n**1** passed · **0** failed · **1** accepted\n\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("### Failures"), "{}", ran.stdout);
    // A lone comparison: the case file is where cases start.
    corpus.case(
        "results.json",
        &golden_of(&[
            "{\"op\":\"x\",\"name\":\"one\",\"v\":1}",
            "{\"op\":\"x\",\"v\":2}",
        ]),
    );
    let ran = corpus.run(&[
        "compare",
        "cases/results.json",
        "golden/a.json",
        "--cases",
        "cases/a.json",
        "--format",
        "markdown",
    ]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .starts_with("## ❌ parity-diff compare: failed\n\n"),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout
            .contains("**failed** `cases/a.json:1` `#0 x \"one\"`: `different at /v`\n"),
        "{}",
        ran.stdout
    );
}

#[test]
fn bless_and_fuzz_refuse_markdown_and_accept_refuses_junit() {
    let corpus = Corpus::new();
    corpus
        .case("a.json", "[1]")
        .golden("a.json", &golden_of(&["1"]));
    for (args, message) in [
        (
            &["bless", "--reference", "cat", "--format", "markdown"][..],
            "parity-diff: bless reports in human or json format only\n",
        ),
        (
            &[
                "fuzz", "--left", "cat", "--count", "1", "--format", "markdown",
            ][..],
            "parity-diff: fuzz reports in human or json format only\n",
        ),
        (
            &[
                "accept", "--oracle", "cat", "--reason", "r", "--format", "junit",
            ][..],
            "parity-diff: accept reports in human, json, markdown or html format only\n",
        ),
    ] {
        let ran = corpus.run(args);
        assert_eq!(ran.code, 2, "{ran:?}");
        assert_eq!(ran.stderr, message);
    }
}
