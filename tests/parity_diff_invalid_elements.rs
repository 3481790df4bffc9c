//! `fuzz` with the worker-spawn oracle behind a port whose results are
//! not JSON: each result judged alone, nothing bisected. The rest of
//! invalid elements is parity-diff's own tests'
//! (crates/parity-diff/tests/invalid_elements.rs).

#[test]
fn fuzz_judges_each_result_and_bisects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("runs.txt");
    let port = format!(
        "sh '{}/tests/fixtures/infinity_port.sh'",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = dir.path().join("out");
    let output = std::process::Command::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
            .with_file_name("parity-diff"),
    )
    .args([
        "fuzz",
        "--right",
        env!("CARGO_BIN_EXE_worker-spawn-oracle"),
        "--op",
        "readyTimeoutMs",
        "--seed",
        "1",
        "--count",
        "1000",
    ])
    .args(["--jobs", "1", "--format", "json", "--left"])
    .arg(&port)
    .arg("--out")
    .arg(&out)
    .env("PORT_ORACLE", env!("CARGO_BIN_EXE_worker-spawn-oracle"))
    .env("PORT_RUNS", &counter)
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cases"], 1000);
    assert_eq!(report["failedBatches"], 1);
    assert_eq!(report["bisectedBatches"], 0);
    assert_eq!(report["bisectRuns"], 0);
    let [group] = report["divergences"].as_array().unwrap().as_slice() else {
        panic!("{report}");
    };
    assert_eq!(group["signature"], "readyTimeoutMs invalid-output (left)");
    assert_eq!(
        group["leftFailure"]["message"],
        "the oracle printed `Infinity`, which is not JSON"
    );
    // The port ran once for the batch; every other run minimized (each
    // of those counts a run of both sides).
    let runs = std::fs::read_to_string(&counter).unwrap().lines().count();
    let minimize = report["minimizeRuns"].as_u64().unwrap() as usize;
    assert_eq!(runs, 1 + minimize / 2, "{report}");
    assert!(
        stderr.contains("fuzz: the left oracle failed on a batch of 1000 cases (invalid-output: ")
            && stderr.contains(" results are not JSON); each result judged alone\n"),
        "{stderr}"
    );
}
