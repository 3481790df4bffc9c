//! `parity-diff fuzz` end to end: exit statuses, the seed line, the
//! report, and the regression files it writes.

use std::process::Command;

fn parity_diff() -> Command {
    Command::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
            .with_file_name("parity-diff"),
    )
}

fn oracle() -> &'static str {
    env!("CARGO_BIN_EXE_worker-spawn-oracle")
}

#[test]
fn agreeing_oracles_exit_zero_and_print_the_seed() {
    let out = tempfile::tempdir().unwrap();
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            oracle(),
            "--count",
            "1500",
            "--seed",
            "99",
            "--batch-size",
            "500",
        ])
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stderr.contains("fuzz: seed 99 (replay with --seed 99)"),
        "{stderr}"
    );
    assert!(stdout.contains("fuzz: seed 99: 1500 cases"), "{stdout}");
    assert!(stdout.contains("0 diverged, 0 signatures"), "{stdout}");
    assert_eq!(
        std::fs::read_dir(out.path()).unwrap().count(),
        0,
        "nothing is written without a divergence"
    );
}

#[test]
fn a_divergence_is_reported_minimized_and_written_as_a_case_file() {
    let out = tempfile::tempdir().unwrap();
    // A "port" that gets one message wrong.
    let buggy = format!(
        "{} | sed 's/must be a positive integer/must be positive/'",
        oracle()
    );
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            &buggy,
            "--op",
            "envOverlay",
            "--op",
            "readyMessage",
            "--count",
            "2000",
            "--seed",
            "5",
        ])
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("DIVERGENCE "), "{stdout}");
    assert!(stdout.contains("/message"), "{stdout}");
    let files: Vec<_> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let cases: serde_json::Value = serde_json::from_str(&text).unwrap();
        let case = &cases.as_array().unwrap()[0];
        assert!(
            case["name"].as_str().unwrap().starts_with("fuzz seed 5: "),
            "{text}"
        );
        assert!(
            case["op"] == "envOverlay" || case["op"] == "readyMessage",
            "{text}"
        );
        // The signature's slug, then a hash of the minimized case.
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let (slug, hash) = name
            .strip_suffix(".json")
            .and_then(|stem| stem.rsplit_once('-'))
            .unwrap();
        assert!(slug.ends_with("-message"), "{name}");
        assert!(
            hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{name}"
        );
    }
}

#[test]
fn usage_errors_exit_two() {
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            "true",
            "--op",
            "noSuchOp",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("no case of op \"noSuchOp\" in the corpus; its ops are: cliArgs, "));
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            "true",
            "--count",
            "10",
            "--seed",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "an oracle that prints nothing is an input error"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("left oracle"));
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            "cat",
            "--duration",
            "soon",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// With a generator and no `--op`, the ops are the corpus's (here the
/// bundled one, run from the repository's root), less those the generator
/// has no cases of (it prints `[]`): the corpus's cases of unknown ops.
#[test]
fn a_generator_fuzzes_the_corpus_s_ops_it_has_cases_of() {
    let out = tempfile::tempdir().unwrap();
    let generator = format!("'{}' generate", oracle());
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            oracle(),
            "--generator",
            &generator,
        ])
        .args(["--count", "480", "--seed", "3", "--format", "json"])
        .arg("--out")
        .arg(out.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("fuzz: the generator has no cases of op \"listOps\"; left out\n"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cases"], 480);
    let output = parity_diff()
        .args([
            "fuzz",
            "--right",
            oracle(),
            "--left",
            oracle(),
            "--generator",
            &generator,
        ])
        .args(["--op", "noSuchOp", "--count", "10"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .ends_with("parity-diff: the generator has no cases of any op asked for (noSuchOp)\n"),
        "{output:?}"
    );
}
