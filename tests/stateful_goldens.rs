//! The stateful and file-system case files give their goldens' bytes:
//! each file under `cases/` runs through the batch driver and its output,
//! written in the golden format, must equal `golden/` byte for byte. The
//! goldens come from the reference (`/work/tools/mkgolden`), so this
//! repeats the parity check without needing node.

use std::path::Path;

use worker_spawn_oracle::batch::run_batch_bytes;
use worker_spawn_oracle::diff::golden::{golden_from_output, split_elements};

const CASE_FILES: [&str; 6] = [
    "preflight",
    "respawn",
    "output-routing",
    "liveness",
    "remote",
    "worker-args",
];

fn check(name: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = std::fs::read(root.join("cases").join(format!("{name}.json"))).unwrap();
    let golden = std::fs::read(root.join("golden").join(format!("{name}.json"))).unwrap();
    let output = run_batch_bytes(&cases).unwrap();
    let ours = golden_from_output(&output).unwrap();
    if ours == golden {
        return;
    }
    let ours = split_elements(&ours).unwrap();
    let expected = split_elements(&golden).unwrap();
    assert_eq!(ours.len(), expected.len(), "{name}: result count");
    for (index, (ours, expected)) in ours.iter().zip(&expected).enumerate() {
        assert_eq!(
            String::from_utf8_lossy(ours),
            String::from_utf8_lossy(expected),
            "{name}: case #{index}"
        );
    }
}

#[test]
fn preflight_matches_its_golden() {
    check(CASE_FILES[0]);
}

#[test]
fn respawn_matches_its_golden() {
    check(CASE_FILES[1]);
}

#[test]
fn output_routing_matches_its_golden() {
    check(CASE_FILES[2]);
}

#[test]
fn liveness_matches_its_golden() {
    check(CASE_FILES[3]);
}

#[test]
fn remote_matches_its_golden() {
    check(CASE_FILES[4]);
}

#[test]
fn worker_args_matches_its_golden() {
    check(CASE_FILES[5]);
}
