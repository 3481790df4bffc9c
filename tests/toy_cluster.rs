//! The toy cluster (`tests/toy-cluster/`): a second contract that
//! parity-diff knows nothing about, with a reference in Node
//! (`reference.mjs`), a partial port in Python (`port.py`: `keys` not
//! implemented, and a bug in `length` that its corpus does not show), its
//! corpus, goldens and ledger. Its port passes its corpus, and fuzzing by
//! corpus mutation alone, with no generator, finds the planted bug.

use crate::support;

use crate::parity_diff_support as parity_support;

use std::path::PathBuf;
use std::process::{Command, Output};

use parity_support::require_python3;
use support::require_node;

const REFERENCE: &str = "node reference.mjs";
const PORT: &str = "python3 port.py";

fn toy_cluster() -> PathBuf {
    support::repo_root().join("tests/toy-cluster")
}

fn parity_diff(args: &[&str]) -> Output {
    Command::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
            .with_file_name("parity-diff"),
    )
    .args(args)
    .current_dir(toy_cluster())
    .output()
    .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
#[ignore = "needs node and python3"]
fn the_toy_port_passes_its_corpus_and_the_goldens_are_the_reference_s() {
    require_node();
    require_python3();
    let ran = parity_diff(&["run", "--oracle", PORT, "--color", "never"]);
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
    assert!(
        text(&ran.stdout).ends_with("\n9 passed, 0 failed, 3 accepted\n"),
        "{}",
        text(&ran.stdout)
    );
    let ran = parity_diff(&["bless", "--check", "--quiet", "--reference", REFERENCE]);
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
}

#[test]
#[ignore = "needs node and python3"]
fn corpus_mutation_alone_finds_the_planted_bug_within_10000_cases() {
    require_node();
    require_python3();
    for seed in ["1", "2", "3"] {
        let out = tempfile::tempdir().unwrap();
        let ran = parity_diff(&[
            "fuzz",
            "--left",
            REFERENCE,
            "--right",
            PORT,
            "--seed",
            seed,
            "--count",
            "10000",
            "--format",
            "json",
            "--out",
            out.path().to_str().unwrap(),
        ]);
        assert_eq!(ran.status.code(), Some(1), "seed {seed}: {ran:?}");
        let report: serde_json::Value = serde_json::from_slice(&ran.stdout).unwrap();
        assert_eq!(report["cases"], 10000, "seed {seed}");
        let divergences = report["divergences"].as_array().unwrap();
        let signatures: Vec<&str> = divergences
            .iter()
            .map(|d| d["signature"].as_str().unwrap())
            .collect();
        // The planted bug, and keys, which the port lacks; sum is right.
        assert!(
            signatures.contains(&"length /value"),
            "seed {seed}: {signatures:?}"
        );
        assert!(
            signatures
                .iter()
                .all(|s| s.starts_with("keys ") || *s == "length /value"),
            "seed {seed}: {signatures:?}"
        );
        let found = divergences
            .iter()
            .find(|d| d["signature"] == "length /value")
            .unwrap();
        // Minimized to the op and a text beyond the Basic Multilingual
        // Plane, which the port counts one short.
        let minimized: serde_json::Value =
            serde_json::from_str(found["minimized"].as_str().unwrap()).unwrap();
        let text = minimized["text"].as_str().unwrap();
        assert!(
            text.chars().any(|c| c as u32 > 0xFFFF),
            "seed {seed}: {minimized}"
        );
        let units = text.encode_utf16().count();
        assert_eq!(
            found["left"],
            format!(r#"{{"value":{units}}}"#),
            "seed {seed}"
        );
        assert_eq!(
            found["right"],
            format!(r#"{{"value":{}}}"#, text.chars().count()),
            "seed {seed}"
        );
    }
}
