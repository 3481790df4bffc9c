//! The example partial port on the bundled corpus, accepted with accept
//! --rule, keeps a short ledger, and an op it then implements makes its
//! rule stale. Rules themselves are parity-diff's own tests'
//! (crates/parity-diff/tests/rules.rs).

use crate::parity_diff_support as support;

use support::{require_python3, root, run_with, EXAMPLE_PORT};

const ORACLE: &str = env!("CARGO_BIN_EXE_worker-spawn-oracle");

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
