//! The fuzzing session (`fuzz::runner`) over our own generators and
//! oracle, in this process: a side that fails costs only its cases, a side
//! broken on every batch stops the session with a report, cases that fail
//! only together are one group, and configurations no session can run
//! are refused; and our generators' command gives the cases they give in
//! this process. (The loop knows no contract, so these tests, which need
//! one, live with the oracle.)

use crate::support;

use parity_diff::exec::bisect::batch_of;
use parity_diff::exec::oracle::{FailureKind, OracleFailure};
use parity_diff::fuzz::outcome::Side;
use parity_diff::fuzz::regression::FileStatus;
use parity_diff::fuzz::tree::Node;
use parity_diff::fuzz::{fuzz, CaseSource, Classified, FuzzConfig};
use worker_spawn_oracle::batch::in_process;
use worker_spawn_oracle::generate;
use worker_spawn_oracle::ops::OPS;

/// Our generators for `ops` as a fuzzing source in this process: the
/// same cases as the `generate` command gives through parity-diff's
/// generator_command, without a process per chunk of `chunk` cases.
fn generators(ops: &[&str], seed: u64, chunk: usize) -> parity_diff::fuzz::source::Generated {
    let ops = ops.iter().map(|op| op.to_string()).collect();
    parity_diff::fuzz::source::Generated::new(ops, seed, chunk, Box::new(generate::cases))
}

/// Our generators for `ops`, in batches of 250 (the configs' size).
fn in_process_generators(ops: &[&str]) -> parity_diff::fuzz::source::Generated {
    generators(ops, 1, 250)
}

fn config(count: usize) -> FuzzConfig {
    FuzzConfig {
        seed: 1,
        count: Some(count),
        duration: None,
        batch_size: 250,
        max_rounds: 100,
        out_dir: None,
        jobs: 1,
    }
}

#[test]
fn our_oracle_agrees_with_itself() {
    let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
    let report = fuzz(
        &config(500),
        &in_process_generators(&ops),
        &in_process,
        &in_process,
        &mut Vec::new(),
    )
    .unwrap();
    assert_eq!(report.cases, 500);
    assert!(report.groups.is_empty());
}

/// Our oracle, except that every case holding `marker` in its text
/// fails the whole batch as `effect` says.
fn failing_on(
    marker: &'static str,
    effect: fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
) -> Classified<impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>> {
    Classified(move |batch: &[u8]| {
        let hit = batch.windows(marker.len()).any(|w| w == marker.as_bytes());
        let output = in_process(batch).map_err(|m| OracleFailure::new(FailureKind::Crash, m))?;
        if hit {
            effect(&output)
        } else {
            Ok(output)
        }
    })
}

fn infinity(output: &[u8]) -> Result<Vec<u8>, OracleFailure> {
    let mut out = output[..output.len() - 1].to_vec();
    out.extend_from_slice(b",Infinity]");
    Ok(out)
}

fn dies(_: &[u8]) -> Result<Vec<u8>, OracleFailure> {
    Err(OracleFailure::new(
        FailureKind::Crash,
        "the oracle exited with status 3",
    ))
}

fn drops_one(output: &[u8]) -> Result<Vec<u8>, OracleFailure> {
    // The last result is left out.
    let text = String::from_utf8_lossy(output);
    let elements: Vec<&[u8]> = parity_diff::judge::golden::split_elements(text.as_bytes()).unwrap();
    Ok(batch_of(&elements[..elements.len() - 1]))
}

fn hangs(_: &[u8]) -> Result<Vec<u8>, OracleFailure> {
    Err(OracleFailure::new(
        FailureKind::Timeout,
        "the oracle did not finish",
    ))
}

#[test]
fn a_failing_side_costs_only_its_cases_and_the_session_goes_on() {
    // `1e400` is among the boundary numbers readyTimeoutMs draws.
    for (effect, kind) in [
        (infinity as fn(&[u8]) -> _, FailureKind::InvalidOutput),
        (dies, FailureKind::Crash),
        (drops_one, FailureKind::InvalidOutput),
        (hangs, FailureKind::Timeout),
    ] {
        let left = failing_on("1e400", effect);
        let report = fuzz(
            &config(2000),
            &in_process_generators(&["readyTimeoutMs"]),
            &left,
            &in_process,
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(report.cases, 2000);
        assert!(report.stopped.is_none());
        let signature = format!("readyTimeoutMs {kind} (left)");
        let [group] = report.groups.as_slice() else {
            panic!("{kind}: {:?}", report.groups);
        };
        assert_eq!(group.signature, signature);
        assert_eq!(group.kind, Some(kind));
        assert!(group.cases > 1, "{kind}: {} cases", group.cases);
        // Minimized with the same failure kind, op kept.
        let minimized = String::from_utf8(group.minimized.to_text()).unwrap();
        assert!(
            minimized == r#"{"op":"readyTimeoutMs","configured":1e400}"#
                || minimized == r#"{"op":"readyTimeoutMs","configured":-1e400}"#,
            "{kind}: {minimized}"
        );
        assert_eq!(group.left.as_ref().unwrap_err().kind, kind);
        assert!(group.right.is_ok());
        assert!(report.failed_batches >= 1);
        // About 3% of the cases fail: bisection costs about 2 log2(250/8)
        // runs per bad case (per batch of 250 with 8 bad cases), fewer
        // runs than cases.
        let (runs, bad) = (report.bisect_runs, group.cases);
        assert!(
            runs < 12 * bad && runs < 1000,
            "{kind}: {runs} runs, {bad} bad"
        );
    }
}

#[test]
fn a_side_broken_on_every_batch_stops_the_session_with_a_report() {
    let broken = |_: &[u8]| -> Result<Vec<u8>, String> { Err("cannot start".into()) };
    let mut progress = Vec::new();
    let report = fuzz(
        &config(500),
        &in_process_generators(&["cliArgs"]),
        &in_process,
        &broken,
        &mut progress,
    )
    .unwrap();
    assert_eq!(report.cases, 0);
    let stopped = report.stopped.unwrap();
    assert_eq!(stopped.side, Side::Right);
    assert_eq!(stopped.failure.message, "cannot start");
    assert_eq!(
        String::from_utf8(progress).unwrap(),
        "fuzz: stopped: the right oracle fails even on an empty batch `[]` (crash: cannot start)\n"
    );
}

#[test]
fn cases_that_fail_only_together_are_one_group() {
    // The port fails on batches of more than 100 cases.
    let small = Classified(|batch: &[u8]| {
        let cases = js_exact::parse(batch, js_exact::TextMode::LossyUtf8)
            .map_err(|e| OracleFailure::new(FailureKind::Crash, e.to_string()))?;
        if cases.as_array().map_or(0, <[_]>::len) > 100 {
            return Err(OracleFailure::new(FailureKind::Crash, "too big"));
        }
        in_process(batch).map_err(|m| OracleFailure::new(FailureKind::Crash, m))
    });
    let out = tempfile::tempdir().unwrap();
    let mut config = config(250);
    config.out_dir = Some(out.path().to_path_buf());
    let report = fuzz(
        &config,
        &in_process_generators(&["readyTimeoutMs"]),
        &small,
        &in_process,
        &mut Vec::new(),
    )
    .unwrap();
    let [group] = report.groups.as_slice() else {
        panic!("{:?}", report.groups);
    };
    assert_eq!(group.signature, "(batch) crash (left) only together");
    assert!(group.together);
    // 250 → 125 + 125, each of which splits into halves that pass.
    assert_eq!(group.cases, 250);
    let Node::Array(cases) = &group.minimized else {
        panic!("not the range's cases");
    };
    assert_eq!(cases.len(), 125);
    let file = group.file.as_ref().unwrap();
    assert_eq!(file.status, FileStatus::Written);
    let written = js_exact::parse(
        &std::fs::read(&file.path).unwrap(),
        js_exact::TextMode::LossyUtf8,
    )
    .unwrap();
    assert_eq!(written.as_array().unwrap().len(), 125);
    assert_eq!(
        written.as_array().unwrap()[0]
            .get("name")
            .as_js_string()
            .unwrap()
            .to_string(),
        "fuzz seed 1: (batch) crash (left) only together (1 of 125)"
    );
}

#[test]
fn configurations_no_session_can_run_are_refused() {
    let error = fuzz(
        &config(1),
        &in_process_generators(&["nope"]),
        &in_process,
        &in_process,
        &mut Vec::new(),
    )
    .unwrap_err();
    // The source refuses an op it has no generator for.
    assert!(
        error.starts_with(r#"unknown op "nope"; the ops are: cliArgs, "#),
        "{error}"
    );
    let none = fuzz(
        &config(1),
        &in_process_generators(&[]),
        &in_process,
        &in_process,
        &mut Vec::new(),
    );
    assert_eq!(none.unwrap_err(), "no op to fuzz");
    let mut zero = config(1);
    zero.batch_size = 0;
    let source = in_process_generators(&["cliArgs"]);
    assert!(fuzz(&zero, &source, &in_process, &in_process, &mut Vec::new()).is_err());
}

/// `worker-spawn-oracle generate` serves the generators: through the
/// protocol, a session's cases are those of the generators in process,
/// every op taking turns; for an op it lacks it prints `[]`, the
/// protocol's "no cases", with a note on stderr.
#[test]
fn the_generator_command_gives_the_generators_cases() {
    let ops: Vec<&str> = OPS.iter().map(|spec| spec.name).collect();
    let texts = |source: &dyn CaseSource| -> Vec<Vec<u8>> {
        (0..3)
            .flat_map(|number| source.batch(number, number as usize * 40, 40).unwrap())
            .map(|case| case.to_text())
            .collect()
    };
    let command = support::generator(&ops, 8, 5);
    let inside = generators(&ops, 8, 5);
    assert_eq!(texts(&command), texts(&inside));
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
        .args([
            "generate",
            "--op",
            "readyTimeoutMs",
            "--seed",
            "3",
            "--count",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        output.stdout,
        generate::generate("readyTimeoutMs", 3, 2).unwrap()
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
        .args(["generate", "--op", "nope", "--seed", "3", "--count", "2"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, b"[]\n");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "worker-spawn-oracle: generate: unknown op \"nope\"; the ops are: cliArgs, "
        ),
        "{stderr}"
    );
    assert!(stderr.ends_with("parseWorkerArgs: no cases\n"), "{stderr}");
}
