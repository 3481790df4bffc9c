//! A bug planted in any op is found by the fuzzer within 10 000 cases and
//! minimized to a case of a few members. The bug is planted through an
//! oracle that wraps ours: for one op, when the case has a non-empty value
//! in one of the fields the op reads, its result gains a member. The cases
//! come from our generators through their command (`worker-spawn-oracle
//! generate`, the generator protocol); the oracles run in this process.

use crate::support;

use js_exact::{parse, to_json, TextMode, Value};
use parity_diff::fuzz::tree::Node;
use parity_diff::fuzz::FuzzConfig;
use support::fuzz_op;
use worker_spawn_oracle::batch::in_process;

/// For each op, a field it reads that its generator fills.
const PLANTED: &[(&str, &str)] = &[
    ("cliArgs", "options"),
    ("redactedCliArgs", "args"),
    ("envOverlay", "options"),
    ("nodeArgs", "args"),
    ("scriptPath", "cwd"),
    ("readyMessage", "message"),
    ("sessionClosedGuard", "message"),
    ("readyTimeoutMs", "configured"),
    ("readyTimeoutError", "timeoutMs"),
    ("boundedOutput", "value"),
    ("exitBeforeReadyMessage", "capturedOutput"),
    ("preflight", "cwd"),
    ("preflightLine", "capturedOutput"),
    ("stillborn", "message"),
    ("respawn", "script"),
    ("outputRouting", "script"),
    ("liveness", "schedule"),
    ("ipcWorker", "script"),
    ("ipcParent", "script"),
    ("remoteConfig", "json"),
    ("remoteConfigEnv", "env"),
    ("remoteEntrypoint", "entrypoint"),
    ("remoteJoinPayload", "config"),
    ("parseWorkerArgs", "args"),
];

fn non_empty(value: &Value) -> bool {
    match value {
        Value::String(text) => !text.is_empty(),
        Value::Array(items) => !items.is_empty(),
        Value::Object(object) => !object.is_empty(),
        Value::Number(n) => *n != 0.0,
        _ => false,
    }
}

/// Our oracle with a bug: every case for which `hit` holds gets a member
/// `planted` in its result.
fn planted(hit: impl Fn(&Value) -> bool) -> impl Fn(&[u8]) -> Result<Vec<u8>, String> {
    move |batch| {
        let output = in_process(batch)?;
        let cases = parse(batch, TextMode::LossyUtf8).map_err(|e| e.to_string())?;
        let elements =
            parity_diff::judge::golden::split_elements(&output).map_err(|e| e.to_string())?;
        let mut planted = b"[".to_vec();
        for (at, (case, element)) in cases.as_array().unwrap().iter().zip(elements).enumerate() {
            if at > 0 {
                planted.push(b',');
            }
            if hit(case) {
                let mut result = parse(element, TextMode::LossyUtf8).unwrap();
                if let Value::Object(object) = &mut result {
                    object.insert("planted", Value::Bool(true));
                }
                planted.extend_from_slice(&to_json(&result));
            } else {
                planted.extend_from_slice(element);
            }
        }
        planted.push(b']');
        Ok(planted)
    }
}

/// A bug in `op`, shown when the case has a non-empty `field`.
fn buggy(op: &'static str, field: &'static str) -> impl Fn(&[u8]) -> Result<Vec<u8>, String> {
    planted(move |case| {
        case.get("op").as_js_string().is_some_and(|o| o.eq_str(op)) && non_empty(case.get(field))
    })
}

#[test]
fn a_planted_bug_in_any_op_is_found_and_minimized() {
    let mut failures = Vec::new();
    for (op, field) in PLANTED {
        let config = FuzzConfig {
            seed: 7,
            count: Some(10_000),
            duration: None,
            batch_size: 1000,
            max_rounds: 200,
            out_dir: None,
            jobs: 2,
        };
        let report = fuzz_op(op, &config, &in_process, &buggy(op, field));
        match report.groups.as_slice() {
            [group] => {
                let minimized: &Node = &group.minimized;
                if group.signature != format!("{op} /planted")
                    || minimized.size() > 5
                    || minimized.get(field).is_none()
                {
                    failures.push(format!(
                        "{op}: {} minimized to {}",
                        group.signature,
                        String::from_utf8_lossy(&minimized.to_text())
                    ));
                }
            }
            groups => failures.push(format!("{op}: {} signatures", groups.len())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bug_deep_in_a_script_is_minimized_to_the_one_step_that_matters() {
    // A liveness bug that shows only after a `tick` step.
    let deep = planted(|case| {
        case.get("schedule").as_array().is_some_and(|steps| {
            steps
                .iter()
                .any(|s| s.get("op").as_js_string().is_some_and(|o| o.eq_str("tick")))
        })
    });
    let config = FuzzConfig {
        seed: 3,
        count: Some(10_000),
        duration: None,
        batch_size: 1000,
        max_rounds: 200,
        out_dir: None,
        jobs: 1,
    };
    let report = fuzz_op("liveness", &config, &in_process, &deep);
    assert!(!report.groups.is_empty(), "the bug was not found");
    for group in &report.groups {
        let text = String::from_utf8_lossy(&group.minimized.to_text()).into_owned();
        assert!(
            group.minimized.size() <= 5,
            "{} minimized to {text}",
            group.signature
        );
        assert!(text.contains("\"tick\""), "{text}");
    }
}

#[test]
fn every_op_is_planted_once_and_no_other_name() {
    let names: Vec<&str> = PLANTED.iter().map(|(op, _)| *op).collect();
    for spec in worker_spawn_oracle::ops::OPS {
        let count = names.iter().filter(|name| **name == spec.name).count();
        assert_eq!(count, 1, "{} is planted {count} times", spec.name);
    }
    for name in names {
        assert!(
            worker_spawn_oracle::ops::named(name).is_some(),
            "{name} is planted but is no op"
        );
    }
}
