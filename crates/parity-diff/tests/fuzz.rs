//! `parity-diff fuzz` end to end: exit statuses, the seed line, the
//! report, and the regression files it writes. The cases are a small
//! corpus's, mutated, or a fixture generator's; the oracles are `cat`,
//! and `cat` with a bug.

use std::process::Command;

use crate::support::{oracle, Corpus};

/// parity-diff in `corpus`, `CI` unset.
fn parity_diff(corpus: &Corpus) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity-diff"));
    command.current_dir(corpus.path()).env_remove("CI");
    command
}

/// A corpus of four ops, its cases' messages strings, whose mutations
/// the sessions fuzz.
fn corpus() -> Corpus {
    let corpus = Corpus::new();
    corpus.case(
        "a.json",
        r#"[{"op":"argv","name":"c1","args":["x","y"]},
{"op":"overlay","name":"e1","message":"m1","env":{"A":"1"}},
{"op":"greeting","name":"r1","message":"hello","n":5},
{"op":"unknownOp","name":"u1","message":"no"}]"#,
    );
    corpus
}

#[test]
fn agreeing_oracles_exit_zero_and_print_the_seed() {
    let out = tempfile::tempdir().unwrap();
    let corpus = corpus();
    let output = parity_diff(&corpus)
        .args([
            "fuzz",
            "--left",
            "cat",
            "--right",
            "cat",
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
    let corpus = corpus();
    // A "port" that gets a message wrong: one that is the last member of
    // its object, so that no later member of the same name (the mutations
    // make some) hides the change.
    let buggy = r#"sed 's/"message":"\([^"\\]*\)"}/"message":"!\1"}/g'"#;
    let output = parity_diff(&corpus)
        .args([
            "fuzz", "--left", buggy, "--right", "cat", "--op", "overlay", "--op", "greeting",
            "--count", "2000", "--seed", "5",
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
            case["op"] == "overlay" || case["op"] == "greeting",
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
    let corpus = corpus();
    let output = parity_diff(&corpus)
        .args([
            "fuzz", "--left", "true", "--right", "cat", "--op", "noSuchOp",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("no case of op \"noSuchOp\" in the corpus; its ops are: argv, "));
    let output = parity_diff(&corpus)
        .args(["fuzz", "--left", "true", "--right", "cat"])
        .args(["--count", "10", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(2),
        "an oracle that prints nothing is an input error"
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("left oracle"));
    let output = parity_diff(&corpus)
        .args([
            "fuzz",
            "--left",
            "cat",
            "--right",
            "cat",
            "--duration",
            "soon",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// With a generator and no `--op`, the ops are the corpus's, less those
/// the generator has no cases of (it prints `[]`): the corpus's cases of
/// unknown ops.
#[test]
fn a_generator_fuzzes_the_corpus_s_ops_it_has_cases_of() {
    let out = tempfile::tempdir().unwrap();
    let corpus = corpus();
    let generator = oracle::generator(out.path());
    let output = parity_diff(&corpus)
        .args(["fuzz", "--left", "cat", "--right", "cat"])
        .args(["--generator", &generator])
        .args(["--count", "480", "--seed", "3", "--format", "json"])
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("fuzz: the generator has no cases of op \"unknownOp\"; left out\n"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["cases"], 480);
    let output = parity_diff(&corpus)
        .args(["fuzz", "--left", "cat", "--right", "cat"])
        .args(["--generator", &generator])
        .args(["--op", "unknownOp", "--count", "10"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .ends_with("parity-diff: the generator has no cases of any op asked for (unknownOp)\n"),
        "{output:?}"
    );
}
