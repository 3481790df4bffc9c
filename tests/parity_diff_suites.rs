//! The bundled corpus and the toy cluster, two suites, in one report.
//! Suites themselves are parity-diff's own tests'
//! (crates/parity-diff/tests/suites.rs).

use crate::parity_diff_support as support;

use serde_json::Value;
use support::{our_oracle, require_python3, run, run_with};

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

#[test]
#[ignore = "needs python3"]
fn the_bundled_corpus_and_the_toy_cluster_in_one_report() {
    require_python3();
    let ran = run_with(
        support::root(),
        &["--config", "tests/clusters.toml", "run", "--format", "json"],
        b"",
        &[("WORKER_SPAWN_ORACLE", &our_oracle())],
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let report = json(&ran.stdout);
    assert_eq!(report["suites"], serde_json::json!(["worker-spawn", "toy"]));
    let toy = &report["bySuite"]["toy"];
    assert_eq!(
        toy,
        &serde_json::json!({"passed": 9, "failed": 0, "accepted": 3})
    );
    let ours = &report["bySuite"]["worker-spawn"];
    assert_eq!(ours["failed"], 0);
    assert!(ours["passed"].as_u64().unwrap() > 1000, "{ours}");
    let last = report["files"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["path"], "toy-cluster/cases/toy.json");
    assert_eq!(last["suite"], "toy");
    // Its own parity.toml makes the toy cluster a project of its own.
    let ran = run(
        &support::root().join("tests/toy-cluster/cases"),
        &["run", "--quiet"],
    );
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "9 passed, 0 failed, 3 accepted\n")
    );
}
