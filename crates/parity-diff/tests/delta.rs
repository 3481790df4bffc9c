//! `parity-diff delta BASE.json HEAD.json`: what changed between two
//! runs, case by case, by identity, in text and in Markdown.
//!
//! Corpora here use `cat` as the oracle: each case file is its own result
//! array, so a golden that differs from its case file is a failure.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use parity_diff::corpus::identity::fingerprint;
use support::{golden_of, run, write, Corpus, Ran};

/// A JSON report of a corpus of `(file, cases, golden)`, run with
/// `oracle`, saved as `dir/name`.
fn report(dir: &Path, name: &str, files: &[(&str, &[&str], &[&str])], oracle: &str) -> PathBuf {
    let corpus = Corpus::new();
    for (file, cases, golden) in files {
        corpus
            .case(file, &format!("[{}]", cases.join(",")))
            .golden(file, &golden_of(golden));
    }
    let ran = corpus.run(&["run", "--oracle", oracle, "--format", "json"]);
    assert!(ran.code <= 2 && ran.stdout.starts_with('{'), "{ran:?}");
    let path = dir.join(name);
    write(&path, &ran.stdout);
    path
}

fn delta(dir: &Path, base: &Path, head: &Path, format: &str) -> Ran {
    let (base, head) = (base.display().to_string(), head.display().to_string());
    run(dir, &["delta", "--format", format, &base, &head])
}

const P1: &str = r#"{"op":"x","name":"p1","v":1}"#;
const P2: &str = r#"{"op":"x","name":"p2","v":2}"#;
const F1: &str = r#"{"op":"y","name":"f1","v":3}"#;
const F2: &str = r#"{"op":"y","name":"f2","v":4}"#;
const F3: &str = r#"{"op":"y","name":"f3","v":5}"#;
const GONE: &str = r#"{"op":"x","name":"gone","v":6}"#;
const N1: &str = r#"{"op":"x","name":"n1","v":7}"#;
const N2: &str = r#"{"op":"w","name":"n2","v":8}"#;

/// f2 fails alike in both, with other bytes: these fingerprints.
static F2_WAS: LazyLock<String> = LazyLock::new(|| {
    fingerprint(
        Some(br#"{"op":"y","name":"f2","v":40}"#),
        Some(F2.as_bytes()),
    )
});
static F2_NOW: LazyLock<String> = LazyLock::new(|| {
    fingerprint(
        Some(br#"{"op":"y","name":"f2","v":41}"#),
        Some(F2.as_bytes()),
    )
});

fn base_and_head(dir: &Path) -> (PathBuf, PathBuf) {
    let base = report(
        dir,
        "base.json",
        &[(
            "a.json",
            &[P1, P2, F1, F2, F3, GONE],
            &[
                P1,
                P2,
                r#"{"op":"y","name":"f1","v":30}"#,
                r#"{"op":"y","name":"f2","v":40}"#,
                r#"{"op":"y","name":"f3","v":"5"}"#,
                GONE,
            ],
        )],
        "cat",
    );
    let head = report(
        dir,
        "head.json",
        &[(
            "a.json",
            &[P1, P2, F1, F2, F3, N1, N2],
            &[
                P1,
                r#"{"op":"x","name":"p2","v":20}"#,
                F1,
                r#"{"op":"y","name":"f2","v":41}"#,
                r#"{"op":"y","name":"f3","v":50}"#,
                r#"{"op":"x","name":"n1","v":70}"#,
                N2,
            ],
        )],
        "cat",
    );
    (base, head)
}

#[test]
fn every_kind_of_change_by_identity() {
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = base_and_head(dir.path());
    let ran = delta(dir.path(), &base, &head, "human");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stdout,
        format!(
            concat!(
            "Newly failing (1):\n",
            "  a.json \"p2\": passed → failed: x: different at /v (golden number, port number)\n",
            "Failing differently (2):\n",
            "  a.json \"f2\": failed: y: different at /v (golden number, port number) → failed: the same failure with other bytes (fingerprint {} → {})\n",
            "  a.json \"f3\": failed: y: different at /v (golden string, port number) → failed: y: different at /v (golden number, port number)\n",
            "Newly passing (1):\n",
            "  a.json \"f1\": failed: y: different at /v (golden number, port number) → passed\n",
            "Added (2):\n",
            "  a.json \"n1\": failed: x: different at /v (golden number, port number)\n",
            "  a.json \"n2\": passed\n",
            "Removed (1):\n",
            "  a.json \"gone\": was passed\n",
            "op           base           head   change\n",
            "w             0/0            1/1       +1\n",
            "x             3/3            1/3       -2\n",
            "y             0/3            1/3       +1\n",
            "3 → 3 passed (0), 0 → 0 accepted; 1 newly failing, 2 failing differently, 1 newly passing, 2 added, 1 removed\n",
            ),
            *F2_WAS, *F2_NOW
        )
    );
    // Reversed: f1 newly fails, and n1 and n2 are removed.
    let ran = delta(dir.path(), &head, &base, "human");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran
        .stdout
        .contains("Newly failing (1):\n  a.json \"f1\": passed → failed"));
    assert_eq!(
        ran.last_line(),
        "3 → 3 passed (0), 0 → 0 accepted; 1 newly failing, 2 failing differently, 1 newly passing, 1 added, 2 removed"
    );
    // --quiet: the closing line alone. The same report twice: no change.
    let quiet = run(
        dir.path(),
        &[
            "delta",
            "-q",
            &base.display().to_string(),
            &head.display().to_string(),
        ],
    );
    assert_eq!(quiet.stdout.lines().count(), 1);
    let same = delta(dir.path(), &base, &base, "human");
    assert_eq!(
        (same.code, same.stdout.as_str()),
        (
            0,
            "no op's pass count changed\n3 → 3 passed (0), 0 → 0 accepted; 0 newly failing, 0 failing differently, 0 newly passing, 0 added, 0 removed\n"
        )
    );
}

#[test]
fn exit_status_is_1_when_an_added_case_fails_and_0_when_only_failures_change() {
    let dir = tempfile::tempdir().unwrap();
    let base = report(dir.path(), "b.json", &[("a.json", &[P1], &[P1])], "cat");
    let added = report(
        dir.path(),
        "h1.json",
        &[("a.json", &[P1, N1], &[P1, P1])],
        "cat",
    );
    let ran = delta(dir.path(), &base, &added, "human");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran
        .stdout
        .starts_with("Added (1):\n  a.json \"n1\": failed: "));
    let failing = report(dir.path(), "b2.json", &[("a.json", &[F1], &[F2])], "cat");
    let other = report(dir.path(), "h2.json", &[("a.json", &[F1], &[F3])], "cat");
    let ran = delta(dir.path(), &failing, &other, "human");
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.starts_with("Failing differently (1):\n"));
}

#[test]
fn cases_sharing_an_identity_pair_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let one = r#"{"op":"x","name":"twice","v":1}"#;
    let two = r#"{"op":"x","name":"twice","v":2}"#;
    let base = report(
        dir.path(),
        "b.json",
        &[("a.json", &[one, two], &[one, one])],
        "cat",
    );
    let head = report(
        dir.path(),
        "h.json",
        &[("a.json", &[one, two], &[one, two])],
        "cat",
    );
    let ran = delta(dir.path(), &base, &head, "human");
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout
            .starts_with("Newly passing (1):\n  a.json \"twice\": failed: "),
        "{}",
        ran.stdout
    );
    assert!(ran.last_line().ends_with(" 0 added, 0 removed"));
}

#[test]
fn a_file_that_could_not_be_compared_fails_its_cases() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &[&str], &[&str])] =
        &[("a.json", &[P1, P2], &[P1, P2]), ("b.json", &[F1], &[F1])];
    let base = report(dir.path(), "b.json", files, "cat");
    // It fails on every input but b.json's, `[]` included, so that no
    // case of a.json is to blame: the file is one error.
    let oracle =
        r#"x=$(cat); case "$x" in *'"f1"'*) printf '%s' "$x";; *) echo boom >&2; exit 3;; esac"#;
    let head = report(dir.path(), "h.json", files, oracle);
    let ran = delta(dir.path(), &base, &head, "human");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.starts_with(concat!(
            "Newly failing (2):\n",
            "  a.json \"p1\": passed → its file could not be compared: the oracle exited with status 3",
        )),
        "{}",
        ran.stdout
    );
    assert!(ran
        .stdout
        .contains("\n  a.json \"p2\": passed → its file could not be compared"));
    assert!(!ran.stdout.contains("Removed"));
    let ran = delta(dir.path(), &head, &base, "human");
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.starts_with(concat!(
            "Newly passing (2):\n",
            "  a.json \"p1\": its file could not be compared: the oracle exited with status 3",
        )),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("Added"));
}

#[test]
fn a_case_the_oracle_fails_on_alone_is_the_only_one_newly_failing() {
    let dir = tempfile::tempdir().unwrap();
    let files: &[(&str, &[&str], &[&str])] =
        &[("a.json", &[P1, P2], &[P1, P2]), ("b.json", &[F1], &[F1])];
    let base = report(dir.path(), "b.json", files, "cat");
    let oracle =
        r#"x=$(cat); case "$x" in *'"p1"'*) echo boom >&2; exit 3;; esac; printf '%s' "$x""#;
    let head = report(dir.path(), "h.json", files, oracle);
    let ran = delta(dir.path(), &base, &head, "human");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.starts_with(concat!(
            "Newly failing (1):\n",
            "  a.json \"p1\": passed → failed: x: the oracle exited with status 3\n",
        )),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("\"p2\""), "{}", ran.stdout);
}

#[test]
fn markdown_for_a_pull_request_comment() {
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = base_and_head(dir.path());
    let ran = delta(dir.path(), &base, &head, "markdown");
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(
        ran.stdout,
        format!(
            concat!(
            "### parity-diff delta\n\n",
            "**3 → 3 passed (0)** · 0 → 0 accepted · 1 newly failing · 2 failing differently · 1 newly passing · 2 added · 1 removed\n\n",
            "| op | base | head | change |\n|:---|---:|---:|---:|\n",
            "| `w` | 0 / 0 | 1 / 1 | +1 |\n",
            "| `x` | 3 / 3 | 1 / 3 | -2 |\n",
            "| `y` | 0 / 3 | 1 / 3 | +1 |\n\n",
            "#### Newly failing (1)\n\n",
            "- `a.json \"p2\"`: `passed` → `failed: x: different at /v (golden number, port number)`\n\n",
            "#### Failing differently (2)\n\n",
            "- `a.json \"f2\"`: `failed: y: different at /v (golden number, port number)` → `failed: the same failure with other bytes (fingerprint {} → {})`\n",
            "- `a.json \"f3\"`: `failed: y: different at /v (golden string, port number)` → `failed: y: different at /v (golden number, port number)`\n\n",
            "#### Newly passing (1)\n\n",
            "- `a.json \"f1\"`: `failed: y: different at /v (golden number, port number)` → `passed`\n\n",
            "#### Added (2)\n\n",
            "- `a.json \"n1\"`: `failed: x: different at /v (golden number, port number)`\n",
            "- `a.json \"n2\"`: `passed`\n\n",
            "#### Removed (1)\n\n",
            "- `a.json \"gone\"`: was `passed`\n\n",
            ),
            *F2_WAS, *F2_NOW
        )
    );
}

fn many(count: usize, name: impl Fn(usize) -> String) -> (Vec<String>, Vec<String>) {
    let cases: Vec<String> = (0..count)
        .map(|n| {
            format!(
                r#"{{"op":"x","name":{},"v":1}}"#,
                serde_json::to_string(&name(n)).unwrap()
            )
        })
        .collect();
    let broken = cases
        .iter()
        .map(|case| case.replace("\"v\":1", "\"v\":2"))
        .collect();
    (cases, broken)
}

#[test]
fn long_markdown_lists_are_folded_capped_and_kept_under_a_comment_s_size() {
    let dir = tempfile::tempdir().unwrap();
    let (cases, broken) = many(150, |n| format!("case *{n}* | <b>"));
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let broken: Vec<&str> = broken.iter().map(String::as_str).collect();
    let base = report(dir.path(), "b.json", &[("a.json", &cases, &cases)], "cat");
    let head = report(dir.path(), "h.json", &[("a.json", &cases, &broken)], "cat");
    let ran = delta(dir.path(), &base, &head, "markdown");
    assert_eq!(ran.code, 1);
    // Names stand in code spans: no emphasis, no HTML, a pipe as it is.
    assert!(ran.stdout.contains("<details><summary>Newly failing (150)</summary>\n\n- `a.json \"case *0* | <b>\"`: `passed` → `failed: "), "{}", ran.stdout);
    assert_eq!(ran.stdout.matches("\n- `").count(), 100);
    assert!(ran.stdout.contains("\n- … and 50 more\n\n</details>\n"));
    assert!(ran
        .stdout
        .contains("| `x` | 150 / 150 | 0 / 150 | -150 |\n"));

    // Long names: cut to stay under GitHub's 65 536 characters.
    let (cases, broken) = many(120, |n| format!("{n} {}", "long name ".repeat(60)));
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    let broken: Vec<&str> = broken.iter().map(String::as_str).collect();
    let base = report(dir.path(), "b2.json", &[("a.json", &cases, &cases)], "cat");
    let head = report(dir.path(), "h2.json", &[("a.json", &cases, &broken)], "cat");
    let ran = delta(dir.path(), &base, &head, "markdown");
    assert!(ran.stdout.len() < 60_000, "{} bytes", ran.stdout.len());
    let named = ran.stdout.matches("\n- `").count();
    assert!((50..100).contains(&named), "{named}");
    assert!(ran.stdout.contains(&format!(
        "\n- … and {} more (cut to fit a pull request comment)\n\n</details>\n",
        120 - named
    )));
}

#[test]
fn input_errors_exit_2_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (base, head) = base_and_head(dir.path());
    let missing = dir.path().join("nowhere.json");
    let ran = delta(dir.path(), &base, &missing, "human");
    assert_eq!(ran.code, 2);
    assert!(ran.stderr.starts_with(&format!(
        "parity-diff: cannot read the report {}: ",
        missing.display()
    )));
    let text = dir.path().join("text.txt");
    write(&text, "3 passed, 0 failed\n");
    let ran = delta(dir.path(), &text, &head, "human");
    assert_eq!(
        (ran.code, ran.stderr.as_str()),
        (
            2,
            format!(
                "parity-diff: {} is not a parity-diff JSON report: unexpected '3' at byte 0\n",
                text.display()
            )
            .as_str()
        )
    );
    let future = dir.path().join("future.json");
    let report = std::fs::read_to_string(&head).unwrap();
    write(
        &future,
        report.replacen("{\"version\":2,", "{\"version\":3,", 1),
    );
    let ran = delta(dir.path(), &base, &future, "human");
    assert_eq!(ran.code, 2);
    assert_eq!(
        ran.stderr,
        format!(
            "parity-diff: {} is a report of format version 3; this parity-diff reads versions 1 and 2\n",
            future.display()
        )
    );
    for format in ["json", "junit", "html"] {
        let ran = delta(dir.path(), &base, &head, format);
        assert_eq!(
            (ran.code, ran.stderr.as_str()),
            (
                2,
                "parity-diff: delta reports in human or markdown format only\n"
            )
        );
    }
}
