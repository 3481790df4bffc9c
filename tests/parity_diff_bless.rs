//! scripts/regen-golden.sh: it needs REFERENCE_ORACLE, and blesses with
//! it. parity-diff bless itself is parity-diff's own tests'
//! (crates/parity-diff/tests/bless.rs).

use crate::parity_diff_support as support;

use std::path::Path;
use std::process::Command;

use support::{require_bash, Corpus};

fn starter() -> Corpus {
    let corpus = Corpus::new();
    corpus
        .case("a.json", r#"[{"op":"x","name":"one"}, 1.0, "\u00e9"]"#)
        .case("deep/b.json", "[]");
    corpus
}

#[test]
#[ignore = "needs bash"]
fn regen_golden_script_needs_the_reference() {
    require_bash();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("scripts/regen-golden.sh");
    let output = Command::new(&script)
        .env_remove("REFERENCE_ORACLE")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("set REFERENCE_ORACLE"));

    let corpus = starter();
    let cases = corpus.join("cases");
    let golden = corpus.join("golden");
    let output = Command::new(&script)
        .env("REFERENCE_ORACLE", "cat")
        .env(
            "PARITY_DIFF",
            std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
                .with_file_name("parity-diff"),
        )
        .env_remove("CI")
        .args([
            "--cases",
            cases.to_str().unwrap(),
            "--golden",
            golden.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout)
        .ends_with("2 added, 0 changed, 0 unchanged, 0 orphaned\n"));
    assert_eq!(corpus.read("golden/deep/b.json"), "[]\n");
}
