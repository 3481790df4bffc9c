//! Ledger rules and known crashes, end to end: a rule accepts the
//! divergences of its scope; a stale rule (it matches no case) and an
//! orphaned one (its op has no case) fail a full run and nothing else;
//! `accept --prune` removes them; a case entry wins over a rule; a port
//! that crashes (exit 139) on some cases fails with exit 1 until an
//! entry or a rule accepts the crash; and the example partial port,
//! accepted with `accept --rule`, keeps a short ledger that names the
//! rule of an op it then implements stale.

use crate::parity_diff_support as support;

use support::{require_python3, root, run_with, Corpus, Ran, EXAMPLE_PORT};

const ORACLE: &str = env!("CARGO_BIN_EXE_worker-spawn-oracle");

const CASES: &str = r#"[
{"name": "guard: closed", "op": "sessionClosedGuard", "message": {"type": "codex-session-closed"}},
{"name": "guard: other", "op": "sessionClosedGuard", "message": {"type": "x"}},
{"name": "ready: default", "op": "readyTimeoutMs"}
]"#;

/// Our oracle, but `true` answered as `"yes"`, and a segmentation fault
/// (exit 139, a line on stderr) on any batch holding a case named "boom".
const PORT: &str = r#"input=$(cat)
case "$input" in *'"boom'*) echo "port: segmentation fault" >&2; exit 139;; esac
printf '%s' "$input" | "$ORACLE" | sed 's/"value":true/"value":"yes"/g'
"#;

fn corpus(cases: &str) -> Corpus {
    let corpus = Corpus::new();
    corpus.case("a.json", cases);
    support::write(corpus.join("port.sh"), PORT);
    let ran = corpus.run(&["bless", "--reference", ORACLE]);
    assert_eq!(ran.code, 0, "{ran:?}");
    corpus
}

fn port(corpus: &Corpus, args: &[&str]) -> Ran {
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["--oracle", "sh port.sh"]);
    run_with(corpus.path(), &full, b"", &[("ORACLE", ORACLE)])
}

const RULES: &str = "\
rule op sessionClosedGuard
  match: paths /value
  state: accepted
  reason: prints yes for true

rule op nodeArgs
  match: any
  state: accepted
  reason: no such case

rule op readyTimeoutMs
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
            "STALE rule op readyTimeoutMs (match: threw \"not implemented\"): matches no case; \
             remove it with `parity-diff accept --prune`\n"
        ),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains(
            "ORPHANED rule op nodeArgs (match: any): no case of its ops; \
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
    assert_eq!(rules[0]["rule"], "rule op nodeArgs");
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
    let ran = port(&corpus, &["run", "--op", "sessionClosedGuard"]);
    assert_eq!(ran.code, 0, "{ran:?}");

    // --prune removes both, and the run passes.
    let ran = port(&corpus, &["accept", "--prune"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        concat!(
            "removed  rule op nodeArgs (match: any) (orphaned: no case of its ops)\n",
            "removed  rule op readyTimeoutMs (match: threw \"not implemented\") (stale: matches no case)\n",
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
            .contains("  CHANGED a.json:2 #0 sessionClosedGuard \"guard: closed\""),
        "{}",
        ran.stdout
    );
    // The rule decided nothing: it is stale.
    assert!(
        ran.stdout
            .contains("STALE rule op sessionClosedGuard (match: paths /value): matches no case"),
        "{}",
        ran.stdout
    );
}

const CRASHING: &str = r#"[
{"name": "guard: other", "op": "sessionClosedGuard", "message": {"type": "x"}},
{"name": "boom", "op": "readyTimeoutMs", "configured": 2000},
{"name": "ready: default", "op": "readyTimeoutMs"}
]"#;

#[test]
fn an_unaccepted_crash_fails_with_exit_status_1() {
    let corpus = corpus(CRASHING);
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "  FAIL a.json:3 #1 readyTimeoutMs \"boom\": the oracle exited with status 139"
        ),
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
            "added    a.json \"boom\" (readyTimeoutMs, crash)\n",
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
            "added    rule op readyTimeoutMs (match: crash) (1 case)\n",
            "ledger parity-ledger.txt: 1 added, 0 changed, 0 removed, 0 unchanged\n"
        )
    );
    assert!(corpus.read("parity-ledger.txt").ends_with(
        "rule op readyTimeoutMs\n  match: crash\n  state: triaged\n  reason: recursion limit\n"
    ));
    let ran = port(&corpus, &["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "2 passed, 0 failed, 1 accepted");
}

/// The example port with one more op implemented: cliArgs answered by
/// our own oracle.
const IMPLEMENTED: &str = r#"
import json, os, subprocess, sys
data = sys.stdin.buffer.read()
ours = json.loads(subprocess.run([os.environ["ORACLE"]], input=data, capture_output=True, check=True).stdout)
port = json.loads(subprocess.run(["python3", "examples/partial_port.py"], input=data, capture_output=True, check=True).stdout)
cases = json.loads(data)
for at, case in enumerate(cases):
    if isinstance(case, dict) and case.get("op") == "cliArgs":
        port[at] = ours[at]
sys.stdout.write(json.dumps(port, separators=(",", ":"), ensure_ascii=False))
"#;

#[test]
#[ignore = "needs python3"]
fn the_example_port_keeps_a_short_ledger_by_rule_and_an_implemented_op_makes_its_rule_stale() {
    require_python3();
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("parity-ledger.txt");
    let ledger = ledger.to_str().unwrap();
    let example = |args: &[&str]| {
        let mut full = args.to_vec();
        full.extend(["--ledger", ledger, "--oracle", EXAMPLE_PORT]);
        run_with(root(), &full, b"", &[])
    };
    let ran = example(&[
        "accept",
        "--op",
        "readyTimeoutMs",
        "--triaged",
        "--reason",
        "round() rounds half to even",
    ]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let ran = example(&["accept", "--rule", "--reason", "not implemented yet"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout
            .contains("added    rule op cliArgs (match: threw \"not implemented\") ("),
        "{}",
        ran.stdout
    );
    let text = std::fs::read_to_string(ledger).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 200, "{lines} lines:\n{text}");
    let ran = example(&["run"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    // The counts follow the corpus; nothing fails.
    let last = ran.last_line();
    assert!(
        last.contains(" passed, 0 failed, ") && last.ends_with(" accepted"),
        "{}",
        ran.stdout
    );

    // cliArgs implemented: its cases pass, and its rule is stale.
    support::write(dir.path().join("port.py"), IMPLEMENTED);
    let port = format!("python3 {}", dir.path().join("port.py").display());
    let ran = run_with(
        root(),
        &["run", "--ledger", ledger, "--oracle", &port],
        b"",
        &[("ORACLE", ORACLE)],
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.contains(
            "STALE rule op cliArgs (match: threw \"not implemented\"): matches no case; \
             remove it with `parity-diff accept --prune`\n"
        ),
        "{}",
        ran.stdout
    );
    // Every rule but cliArgs's still decides cases. (The few cliArgs
    // cases that fail are this wrapper's: Python's JSON rewrites some of
    // our results' bytes.)
    assert_eq!(
        ran.stdout.matches("STALE rule").count(),
        1,
        "{}",
        ran.stdout
    );
    assert!(ran.last_line().ends_with(" accepted"), "{}", ran.stdout);
}
