//! Ledger rules and known crashes, end to end: a rule accepts the
//! divergences of its scope; a stale rule (it matches no case) and an
//! orphaned one (its op has no case) fail a full run and nothing else;
//! `accept --prune` removes them; a case entry wins over a rule; a port
//! that crashes (exit 139) on some cases fails with exit 1 until an
//! entry or a rule accepts the crash. The reference answers each case by
//! its name (`support::oracle::by_name`).

use crate::support;

use support::{oracle, run_with, Corpus, Ran};

/// What the reference answers for each case of [`CASES`] and
/// [`CRASHING`], by name.
const REFERENCE: [(&str, &str); 4] = [
    ("guard: closed", r#"{"defined":true,"value":true}"#),
    ("guard: other", r#"{"defined":true,"value":false}"#),
    ("ready: default", r#"{"defined":true,"value":30000}"#),
    ("boom", r#"{"defined":true,"value":2000}"#),
];

const CASES: &str = r#"[
{"name": "guard: closed", "op": "closedGuard", "message": {"type": "codex-session-closed"}},
{"name": "guard: other", "op": "closedGuard", "message": {"type": "x"}},
{"name": "ready: default", "op": "timeoutMs"}
]"#;

/// The reference, but `true` answered as `"yes"`, and a segmentation fault
/// (exit 139, a line on stderr) on any batch holding a case named "boom".
const PORT: &str = r#"input=$(cat)
case "$input" in *'"boom'*) echo "port: segmentation fault" >&2; exit 139;; esac
printf '%s' "$input" | sh -c "$ORACLE" | sed 's/"value":true/"value":"yes"/g'
"#;

fn corpus(cases: &str) -> Corpus {
    let corpus = Corpus::new();
    corpus.case("a.json", cases);
    support::write(corpus.join("port.sh"), PORT);
    let reference = oracle::by_name(corpus.path(), &REFERENCE);
    let ran = corpus.run(&["bless", "--reference", &reference]);
    assert_eq!(ran.code, 0, "{ran:?}");
    corpus
}

fn port(corpus: &Corpus, args: &[&str]) -> Ran {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--oracle", "sh port.sh"]);
    run_with(corpus.path(), &full, b"", &[("ORACLE", oracle::BY_NAME)])
}

const RULES: &str = "\
rule op closedGuard
  match: paths /value
  state: accepted
  reason: prints yes for true

rule op flags
  match: any
  state: accepted
  reason: no such case

rule op timeoutMs
  match: threw \"not implemented\"
  state: triaged https://example.com/issues/1
  reason: passes now
";

#[test]
fn a_rule_accepts_and_stale_or_orphaned_rules_fail_a_full_run() {
    let corpus = corpus(CASES);
    support::write(corpus.join("parity-ledger.txt"), RULES);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "STALE rule op timeoutMs (match: threw \"not implemented\"): matches no case; \
             remove it with `parity-diff accept --prune`\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "ORPHANED rule op flags (match: any): no case of its ops; \
             remove it with `parity-diff accept --prune`\n"
        ),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "2 passed, 0 failed, 1 accepted");

    // The JSON report lists them, and counts them in its summary.
    let ran = port(&corpus, &["run", "--format", "json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    let rules = report["ledgerRules"].as_array().unwrap();
    assert_eq!(rules.len(), 2, "{rules:?}");
    assert_eq!(rules[0]["rule"], "rule op flags");
    assert_eq!(rules[0]["problem"], "orphaned");
    assert_eq!(rules[1]["problem"], "stale");
    assert_eq!(rules[1]["link"], "https://example.com/issues/1");
    assert_eq!(report["summary"]["staleRules"], 2);
    assert_eq!(report["summary"]["exitCode"], 1);
    let accepted = report["files"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|case| case["state"] == "accepted")
        .unwrap();
    assert_eq!(accepted["entry"]["reason"], "prints yes for true");

    // A run of some ops cannot know: it passes.
    let ran = port(&corpus, &["run", "--op", "closedGuard"]);
    assert_eq!(ran.code, 0, "{ran:?}");

    // --prune removes both, and the run passes.
    let ran = port(&corpus, &["accept", "--prune"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "removed  rule op flags (match: any) (orphaned: no case of its ops)\n",
            "removed  rule op timeoutMs (match: threw \"not implemented\") (stale: matches no case)\n",
            "ledger parity-ledger.txt: 0 added, 0 changed, 2 removed, 0 unchanged\n",
        )
    );
    assert_eq!(
        corpus.read("parity-ledger.txt"),
        RULES.split("\n\n").next().unwrap().to_owned() + "\n"
    );
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "2 passed, 0 failed, 1 accepted");
}

#[test]
fn a_case_entry_wins_over_a_rule() {
    let corpus = corpus(CASES);
    let ledger = format!(
        "{}\ncase a.json \"guard: closed\"\n  state: accepted\n  reason: old\n  fingerprint: 0000000000000001\n",
        RULES.split("\n\n").next().unwrap()
    );
    support::write(corpus.join("parity-ledger.txt"), ledger);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("  CHANGED a.json:2 #0 closedGuard \"guard: closed\""),
        "{}",
        ran.stdout
    );
    // The rule decided nothing: it is stale.
    assert!(
        ran.stdout
            .contains("STALE rule op closedGuard (match: paths /value): matches no case"),
        "{}",
        ran.stdout
    );
}

const CRASHING: &str = r#"[
{"name": "guard: other", "op": "closedGuard", "message": {"type": "x"}},
{"name": "boom", "op": "timeoutMs", "configured": 2000},
{"name": "ready: default", "op": "timeoutMs"}
]"#;

#[test]
fn an_unaccepted_crash_fails_with_exit_status_1() {
    let corpus = corpus(CRASHING);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains("  FAIL a.json:3 #1 timeoutMs \"boom\": the oracle exited with status 139"),
        "{}",
        ran.stdout
    );
    assert_eq!(ran.last_line(), "2 passed, 1 failed");
    let ran = port(&corpus, &["run", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
    let case = &report["files"][0]["cases"][1];
    assert_eq!(
        (&case["verdict"], &case["state"]),
        (&"crash".into(), &"failed".into())
    );
    assert_eq!(report["summary"]["errors"], 0);
    assert_eq!(report["summary"]["exitCode"], 1);
}

#[test]
fn an_accepted_crash_passes_by_entry_or_by_rule() {
    let corpus = corpus(CRASHING);
    // By entry: accept records the crash like any divergence.
    let ran = port(&corpus, &["accept", "--reason", "recursion limit"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "added    a.json \"boom\" (timeoutMs, crash)\n",
            "ledger parity-ledger.txt: 1 added, 0 changed, 0 removed, 0 unchanged\n"
        )
    );
    assert!(corpus
        .read("parity-ledger.txt")
        .contains("  verdict: crash\n"));
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "2 passed, 0 failed, 1 accepted");

    // By rule: accept --rule names the crash by its word.
    std::fs::remove_file(corpus.join("parity-ledger.txt")).unwrap();
    let ran = port(
        &corpus,
        &[
            "accept",
            "--rule",
            "--triaged",
            "--reason",
            "recursion limit",
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "added    rule op timeoutMs (match: crash) (1 case)\n",
            "ledger parity-ledger.txt: 1 added, 0 changed, 0 removed, 0 unchanged\n"
        )
    );
    assert!(corpus.read("parity-ledger.txt").ends_with(
        "rule op timeoutMs\n  match: crash\n  state: triaged\n  reason: recursion limit\n"
    ));
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "2 passed, 0 failed, 1 accepted");
}
