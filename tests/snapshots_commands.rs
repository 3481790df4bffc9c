//! The snapshots of the commands besides a run's reports: `delta`,
//! `merge` (and what each shard says of the ledger's rules), the rerun's,
//! `bless`'s and `accept`'s messages, `fuzz`'s summary, and the coverage
//! of the reference (`coverage`, `cmin`, `grow`), over the hostile corpus.

use super::{check, find, hostile_coverage, parity_diff, reflow_json, section, with_ledger, Ran};
use crate::support;

use super::hostile::{Hostile, PORT};

/// JSON reports of the base run and of this one, for `delta`.
fn reports(corpus: &Hostile) -> (String, String) {
    let mut names = Vec::new();
    for (name, mode) in [("base.json", "base"), ("head.json", "head")] {
        let ran = parity_diff(
            corpus.path(),
            &["run", "--oracle", PORT, "--format", "json"],
            &[("PORT_MODE", mode)],
        );
        assert!(matches!(ran.code, Some(1 | 2)), "{}", ran.render());
        std::fs::write(corpus.join(name), &ran.stdout).unwrap();
        names.push(name.to_owned());
    }
    (names.remove(0), names.remove(0))
}

#[test]
fn delta_in_both_formats() {
    let corpus = with_ledger();
    let (base, head) = reports(&corpus);
    for (name, format) in [("delta-human", "human"), ("delta-markdown", "markdown")] {
        let ran = parity_diff(
            corpus.path(),
            &[
                "delta", &base, &head, "--format", format, "--color", "never",
            ],
            &[],
        );
        check(name, &ran.render());
    }
}

/// `merge` of the two shards of a run over `corpus`, in `format`.
fn merge(corpus: &Hostile, format: &str) -> Ran {
    for shard in ["1/2", "2/2"] {
        let ran = parity_diff(
            corpus.path(),
            &[
                "run", "--oracle", PORT, "--format", "json", "--shard", shard,
            ],
            &[],
        );
        assert!(matches!(ran.code, Some(1 | 2)), "{}", ran.render());
        let name = format!("shard-{}.json", &shard[..1]);
        std::fs::write(corpus.join(&name), &ran.stdout).unwrap();
    }
    parity_diff(
        corpus.path(),
        &[
            "merge",
            "shard-2.json",
            "shard-1.json",
            "--format",
            format,
            "--color",
            "never",
        ],
        &[],
    )
}

#[test]
fn merge_of_two_shards() {
    // With the two files whose names are not UTF-8 (two files still, as
    // in a run), then without them.
    let corpus = with_ledger();
    check("merge-not-utf8", &merge(&corpus, "human").render());
    // Each shard's JSON report lists the ledger rules its cases did not
    // decide, from which merge finds the whole run's stale and orphaned
    // ones: the member of both, reflowed.
    let mut shard_rules = String::new();
    for name in ["shard-1.json", "shard-2.json"] {
        let report = std::fs::read(corpus.join(name)).unwrap();
        let from = find(&report, b"\"shardRules\":").expect("shardRules");
        let to = from + find(&report[from..], b",\"groups\":").expect("groups");
        shard_rules.push_str(&section(name, &reflow_json(&report[from..to])));
    }
    check("merge-shard-rules", &shard_rules);
    corpus.remove_not_utf8_files();
    for (name, format) in [("merge-human", "human"), ("merge-markdown", "markdown")] {
        check(name, &merge(&corpus, format).render());
    }
}

/// `run --rerun-failed`: over the hostile corpus, the run's JSON report
/// (saved under a name holding an escape sequence, which the line that
/// counts the selection neutralizes), then only what failed in it; then a
/// rerun whose selection is empty, which passes.
#[test]
fn rerun_messages() {
    let corpus = with_ledger();
    let report = "base \u{1b}]0;pwn\u{7}.json";
    let base = parity_diff(
        corpus.path(),
        &["run", "--oracle", PORT, "--format", "json"],
        &[],
    );
    assert!(matches!(base.code, Some(1 | 2)), "{}", base.render());
    std::fs::write(corpus.join(report), &base.stdout).unwrap();
    let rerun = ["run", "--oracle", PORT, "--rerun-failed", report];
    let mut args = rerun.to_vec();
    args.extend(["--color", "never"]);
    check(
        "run-rerun-failed",
        &parity_diff(corpus.path(), &args, &[]).render(),
    );
    // crash.json's second shard holds the crash's neighbour alone, which
    // passed: nothing to run.
    let mut args = rerun.to_vec();
    args.extend(["--filter", "crash.json", "--shard", "2/2"]);
    check(
        "run-rerun-failed-nothing",
        &parity_diff(corpus.path(), &args, &[]).render(),
    );
}

#[test]
fn bless_messages() {
    let corpus = Hostile::new();
    let args = ["bless", "--reference", PORT, "--color", "never"];
    let mut check_only = args.to_vec();
    check_only.push("--check");
    check(
        "bless-check",
        &parity_diff(corpus.path(), &check_only, &[]).render(),
    );
    let mut json = check_only.clone();
    json.extend(["--format", "json"]);
    check(
        "bless-json",
        &parity_diff(corpus.path(), &json, &[]).render_json(),
    );
    check("bless", &parity_diff(corpus.path(), &args, &[]).render());
}

#[test]
fn accept_messages_and_the_ledger_it_writes() {
    let corpus = with_ledger();
    let refused = parity_diff(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            PORT,
            "--reason",
            "new \x1b]8;;https://evil/x\x07link\x1b]8;;\x07",
        ],
        &[],
    );
    check("accept-control-in-reason", &refused.render());
    let ran = parity_diff(
        corpus.path(),
        &[
            "accept",
            "--oracle",
            PORT,
            "--reason",
            "new: <b>bold</b> ##[stop-commands]x @octocat https://evil/x",
            "--color",
            "never",
        ],
        &[],
    );
    check("accept", &ran.render());
    let ledger = std::fs::read(corpus.join("parity-ledger.txt")).unwrap();
    check("accept-ledger", &section("parity-ledger.txt", &ledger));
    let pruned = parity_diff(
        corpus.path(),
        &["accept", "--oracle", PORT, "--prune", "--color", "never"],
        &[],
    );
    check("accept-prune", &pruned.render());
}

/// The right side of the fuzz session: our oracle, but every
/// `readyTimeoutMs` of 30000 is one more, and a batch holding a negative
/// `configured` crashes it with terminal escapes on stderr.
const FUZZ_RIGHT: &str = r#"input=$(cat)
case $input in
*'"configured":-'*) printf 'right: \033]0;pwn\007\033[2J crashed\n' >&2; exit 139 ;;
esac
printf '%s' "$input" | "$ORACLE" | sed 's/"value":30000}/"value":30001}/g'
"#;

#[test]
fn fuzz_summary() {
    for (name, format) in [("fuzz", "human"), ("fuzz-json", "json")] {
        let ran = fuzz(format);
        let text = match format {
            "json" => ran.render_json(),
            _ => ran.render(),
        };
        check(name, &text);
    }
}

/// A short fuzz session in `format`, in a fresh corpus (so that every
/// finding is written).
fn fuzz(format: &str) -> Ran {
    let corpus = Hostile::new();
    std::fs::write(corpus.join("right.sh"), FUZZ_RIGHT).unwrap();
    let mut args = vec![
        "fuzz",
        "--left",
        "\"$ORACLE\"",
        "--right",
        "sh right.sh",
        "--generator",
        "\"$ORACLE\" generate",
        "--op",
        "readyTimeoutMs",
        "--seed",
        "7",
        "--count",
        "300",
        "--batch-size",
        "100",
        "--out",
        "findings",
        "--color",
        "never",
    ];
    // The human session's arguments stay as its snapshot names them.
    if format != "human" {
        args.extend(["--format", format]);
    }
    parity_diff(
        corpus.path(),
        &args,
        &[("ORACLE", env!("CARGO_BIN_EXE_worker-spawn-oracle"))],
    )
}

/// The never-run span of `neverCalled`'s hash, from a JSON report.
fn never_called_hash(report: &[u8]) -> String {
    let report: serde_json::Value = serde_json::from_slice(report).expect("a JSON report");
    let spans = report["neverRun"].as_array().expect("neverRun");
    let span = spans.iter().find(|span| span["function"] == "neverCalled");
    span.expect("neverCalled never runs")["hash"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
#[ignore = "needs node"]
fn coverage_in_every_format_and_cmin() {
    support::require_node();
    let dir = tempfile::tempdir().unwrap();
    hostile_coverage::write(dir.path());
    let reference = hostile_coverage::REFERENCE;
    let json = parity_diff(
        dir.path(),
        &["coverage", "--reference", reference, "--format", "json"],
        &[],
    );
    let hash = never_called_hash(&json.stdout);
    std::fs::write(
        dir.path().join("coverage-allowlist.txt"),
        hostile_coverage::allowlist(&hash),
    )
    .unwrap();
    for (name, command, format) in [
        ("coverage-human", "coverage", "human"),
        ("coverage-json", "coverage", "json"),
        ("coverage-markdown", "coverage", "markdown"),
        ("coverage-html", "coverage", "html"),
        ("cmin-human", "cmin", "human"),
        ("cmin-json", "cmin", "json"),
    ] {
        let mut args = vec![command, "--reference", reference, "--format", format];
        if command == "coverage" {
            args.push("--check");
        }
        let ran = parity_diff(dir.path(), &args, &[]);
        let text = if format == "json" {
            ran.render_json()
        } else {
            ran.render()
        };
        check(name, &text);
    }
}

/// A generator for `fuzz --grow` on the hostile reference: every other
/// case an echo without a value (the corpus below always gives one), the
/// others of an op of terminal escapes and a mention, with a workflow
/// command for a value.
const GROW_GENERATOR: &str = r#"i=0
printf '['
while [ "$i" -lt "$6" ]; do
  [ "$i" -gt 0 ] && printf ','
  if [ $((i % 2)) = 0 ]; then printf '{"op":"echo"}'
  else printf '{"op":"\u001b]0;pwn\u0007 @octocat","v":"::error::x"}'; fi
  i=$((i + 1))
done
printf ']'
"#;

#[test]
#[ignore = "needs node"]
fn grow_in_both_formats() {
    support::require_node();
    for (name, format) in [("grow-human", "human"), ("grow-json", "json")] {
        let dir = tempfile::tempdir().unwrap();
        hostile_coverage::write(dir.path());
        std::fs::create_dir_all(dir.path().join("grow-cases")).unwrap();
        std::fs::write(
            dir.path().join("grow-cases/echo.json"),
            "[\n{\"name\": \"echo: a value\", \"op\": \"echo\", \"value\": 1}\n]\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("gen.sh"), GROW_GENERATOR).unwrap();
        let args = [
            "fuzz",
            "--grow",
            "grown",
            "--reference",
            hostile_coverage::REFERENCE,
            "--cases",
            "grow-cases",
            "--generator",
            "sh gen.sh",
            "--op",
            "echo",
            "--seed",
            "1",
            "--count",
            "40",
            "--batch-size",
            "20",
            "--jobs",
            "2",
            "--format",
            format,
        ];
        let ran = parity_diff(dir.path(), &args, &[]);
        let text = if format == "json" {
            ran.render_json()
        } else {
            ran.render()
        };
        check(name, &text);
        if format == "human" {
            let staged = std::fs::read_dir(dir.path().join("grown")).unwrap();
            let mut names: Vec<String> = staged
                .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            let mut files = String::new();
            for name in names.iter().filter(|name| name.ends_with(".json")) {
                for (heading, path) in [
                    (name.clone(), format!("grown/{name}")),
                    (format!("golden/{name}"), format!("grown/golden/{name}")),
                ] {
                    files.push_str(&section(
                        &heading,
                        &std::fs::read(dir.path().join(path)).unwrap(),
                    ));
                }
            }
            check("grow-files", &files);
        }
    }
}
