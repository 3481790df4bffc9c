//! Random numbers find what a fixed list of boundaries misses: a port
//! whose `readyTimeoutMs` rounds half to even (as Python's `round` does)
//! where the contract floors. No number in the boundary list tells the
//! two apart (`1000.5` rounds to 1000 either way); any fraction of one
//! half or more in 1000–600000 does.

use crate::support;

use js_exact::{parse, TextMode, Value};
use parity_diff::fuzz::tree::Node;
use parity_diff::fuzz::FuzzConfig;
use parity_diff::judge::golden::split_elements;
use support::fuzz_op;
use worker_spawn_oracle::batch::in_process;

/// Our oracle, with `readyTimeoutMs` rounding half to even.
fn rounding_port(batch: &[u8]) -> Result<Vec<u8>, String> {
    let output = in_process(batch)?;
    let cases = parse(batch, TextMode::LossyUtf8).map_err(|e| e.to_string())?;
    let elements = split_elements(&output).map_err(|e| e.to_string())?;
    let mut out = b"[".to_vec();
    for (at, (case, element)) in cases.as_array().unwrap().iter().zip(elements).enumerate() {
        if at > 0 {
            out.push(b',');
        }
        let configured = match case.get("configured") {
            Value::Number(n) if n.is_finite() && *n > 0.0 => Some(*n),
            _ => None,
        };
        let is_ready = case
            .get("op")
            .as_js_string()
            .is_some_and(|op| op.eq_str("readyTimeoutMs"));
        match configured.filter(|_| is_ready) {
            Some(n) => {
                let value = n.round_ties_even().clamp(1000.0, 600000.0);
                out.extend_from_slice(format!(r#"{{"defined":true,"value":{value}}}"#).as_bytes());
            }
            None => out.extend_from_slice(element),
        }
    }
    out.push(b']');
    Ok(out)
}

#[test]
fn the_port_is_right_on_every_boundary_number() {
    // The bug hides from the boundary list: only random fractions show it.
    for number in [
        "1000.5", "1.5", "0.5", "2.5", "1500.5", "600000", "1e3", "1e400",
    ] {
        let batch = format!(r#"[{{"op":"readyTimeoutMs","configured":{number}}}]"#);
        assert_eq!(
            rounding_port(batch.as_bytes()).unwrap(),
            in_process(batch.as_bytes()).unwrap(),
            "{number}"
        );
    }
    let batch = br#"[{"op":"readyTimeoutMs","configured":1234.5}]"#;
    assert_eq!(
        rounding_port(batch).unwrap(),
        br#"[{"defined":true,"value":1234}]"#,
        "even: unchanged"
    );
    let batch = br#"[{"op":"readyTimeoutMs","configured":1235.5}]"#;
    assert_eq!(
        rounding_port(batch).unwrap(),
        br#"[{"defined":true,"value":1236}]"#
    );
}

#[test]
fn a_round_half_to_even_bug_is_found_within_10000_cases_for_any_seed() {
    for seed in [1, 2, 3, 7, 1234] {
        let config = FuzzConfig {
            seed,
            count: Some(10_000),
            duration: None,
            batch_size: 1000,
            max_rounds: 200,
            out_dir: None,
            jobs: 2,
        };
        let report = fuzz_op("readyTimeoutMs", &config, &rounding_port, &in_process);
        let [group] = report.groups.as_slice() else {
            panic!("seed {seed}: {:?}", report.groups);
        };
        assert_eq!(group.signature, "readyTimeoutMs /value", "seed {seed}");
        assert_eq!(group.pointer.as_deref(), Some("/value"));
        assert!(group.cases > 100, "seed {seed}: {} cases", group.cases);
        // Minimized to the op and a number with a fraction.
        let Some(Node::Number(configured)) = group.minimized.get("configured") else {
            panic!("seed {seed}: {:?}", group.minimized);
        };
        assert!(configured.contains('.'), "seed {seed}: {configured}");
        assert_eq!(group.minimized.size(), 3, "seed {seed}");
    }
}

#[test]
fn the_first_batch_of_100_cases_already_finds_it() {
    let config = FuzzConfig {
        seed: 42,
        count: Some(100),
        duration: None,
        batch_size: 100,
        max_rounds: 200,
        out_dir: None,
        jobs: 1,
    };
    let report = fuzz_op("readyTimeoutMs", &config, &rounding_port, &in_process);
    assert_eq!(report.groups.len(), 1, "{:?}", report.groups);
}
