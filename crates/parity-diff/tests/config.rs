//! `parity.toml`: found from the current directory upward, `--config`,
//! `--no-config`, flags over keys, paths from the file's directory and
//! commands run in it, errors naming the line and the key, and the golden
//! default beside the cases.
//!
//! The oracle is `cat` (each case file is its own result array), made to
//! fail where it would run outside the config's directory.

use crate::support;

use support::{golden_of, run, write, Corpus};

/// `cat`, but only in the directory that holds `parity.toml`.
const CAT_IN_CONFIG_DIR: &str = "test -f parity.toml && cat";

/// A project: `parity.toml` naming `corpus/cases` (one passing file),
/// an empty `sub/` directory to start from, and `config` as the file.
fn project(config: &str) -> Corpus {
    let project = Corpus::new();
    write(project.join("parity.toml"), config);
    write(project.join("corpus/cases/a.json"), "[1,2]");
    write(project.join("corpus/golden/a.json"), golden_of(&["1", "2"]));
    std::fs::create_dir_all(project.join("sub")).unwrap();
    project
}

const ONE_SUITE: &str = r#"
[suite.main]
cases = "corpus/cases"
oracle = "test -f parity.toml && cat"
"#;

#[test]
fn the_config_is_found_upward_and_its_commands_run_in_its_directory() {
    let project = project(ONE_SUITE);
    for dir in [project.path().to_path_buf(), project.join("sub")] {
        let ran = run(&dir, &["run", "--format", "json"]);
        assert_eq!(ran.code, 0, "{ran:?}");
        // Paths are spelled from the config's directory, wherever the run
        // started; the golden default is beside the cases.
        let report: serde_json::Value = serde_json::from_str(&ran.stdout).unwrap();
        assert_eq!(report["corpus"]["caseDir"], "corpus/cases", "{report}");
        assert_eq!(report["corpus"]["goldenDir"], "corpus/golden", "{report}");
        assert_eq!(report["files"][0]["path"], "corpus/cases/a.json");
    }
}

#[test]
fn flags_override_the_suite_s_keys_and_are_read_from_where_parity_diff_started() {
    let project = project(ONE_SUITE);
    write(project.join("sub/cases/b.json"), "[3]");
    write(project.join("sub/golden/b.json"), golden_of(&["3"]));
    // sub/cases, with its golden beside it in sub/golden.
    let ran = run(&project.join("sub"), &["run", "--cases", "cases"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.stdout,
        "suite main\nok b.json (1 case)\n1 passed, 0 failed\n"
    );
    // --oracle over the suite's `oracle`, run in the config's directory too.
    let ran = run(
        &project.join("sub"),
        &["run", "--oracle", "test -d corpus && printf '[1,3]'"],
    );
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        ran.stdout
    );
    // The suite's timeout, and the flag over it.
    write(
        project.join("parity.toml"),
        format!("{ONE_SUITE}timeout = 0.2\n"),
    );
    let slow = "sleep 2; cat";
    let ran = run(project.path(), &["run", "--oracle", slow]);
    assert!(
        ran.stdout.contains("did not finish within 0.2 s"),
        "{ran:?}"
    );
    let ran = run(
        project.path(),
        &["run", "--oracle", slow, "--timeout", "10"],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn no_config_ignores_it_and_config_names_one_elsewhere() {
    let project = project(ONE_SUITE);
    let ran = run(
        &project.join("sub"),
        &["run", "--no-config", "--oracle", "cat"],
    );
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("cases"), "{}", ran.stderr);
    let elsewhere = tempfile::tempdir().unwrap();
    let ran = run(
        elsewhere.path(),
        &[
            "run",
            "--config",
            project.join("parity.toml").to_str().unwrap(),
        ],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    let ran = run(elsewhere.path(), &["run", "--config", "missing.toml"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .starts_with("parity-diff: cannot read missing.toml: "),
        "{}",
        ran.stderr
    );
    let ran = run(elsewhere.path(), &["run", "--suite", "main"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("--suite NAME needs a parity.toml"),
        "{}",
        ran.stderr
    );
}

#[test]
fn an_unknown_key_or_a_wrong_type_is_an_error_naming_the_line_and_the_key() {
    let project = project("[suite.main]\ncases = \"corpus/cases\"\norcale = \"cat\"\n");
    let ran = project.run(&["run"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let config = project.join("parity.toml");
    let expected = format!(
        "parity-diff: {}:3: suite.main: unknown key \"orcale\" (the keys: cases, golden, ledger,",
        config.display()
    );
    assert!(ran.stderr.starts_with(&expected), "{}", ran.stderr);
    write(&config, "[suite.main]\njobs = \"2\"\n");
    let ran = project.run(&["bless", "--check"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    let expected = format!(
        "parity-diff: {}:2: suite.main.jobs: a whole number, 1 to 256, not the string \"2\"\n",
        config.display()
    );
    assert_eq!(ran.stderr, expected);
    // --no-config reads nothing of it.
    let ran = project.run(&[
        "run",
        "--no-config",
        "--oracle",
        "cat",
        "--cases",
        "corpus/cases",
    ]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn a_suite_that_is_not_there_is_an_error() {
    let project = project(ONE_SUITE);
    let ran = project.run(&["run", "--suite", "mian"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr
            .ends_with("parity.toml: no suite \"mian\" (its suites: main)\n"),
        "{}",
        ran.stderr
    );
}

#[test]
fn the_golden_directory_defaults_to_golden_beside_the_cases_without_a_config() {
    let corpus = Corpus::new();
    write(corpus.join("main/cases/a.json"), "[1]");
    write(corpus.join("main/golden/a.json"), golden_of(&["1"]));
    let ran = corpus.run(&["run", "--oracle", "cat", "--cases", "main/cases"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.stdout, "ok a.json (1 case)\n1 passed, 0 failed\n");
}

#[test]
fn a_configured_ledger_that_does_not_exist_is_none_and_accept_creates_it() {
    let project = project(&format!("{ONE_SUITE}ledger = \"port/ledger.txt\"\n"));
    // Beside the cases, where no ledger is read now that the suite names one.
    write(project.join("corpus/parity-ledger.txt"), "garbage\n");
    let diverging = "test -f parity.toml && printf '[1,3]'";
    let ran = project.run(&["run", "--oracle", diverging]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        ran.stdout
    );
    std::fs::create_dir_all(project.join("port")).unwrap();
    let ran = run(
        &project.join("sub"),
        &["accept", "--oracle", diverging, "--reason", "known"],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(project.read("port/ledger.txt").contains("reason: known"));
    let ran = project.run(&["run", "--oracle", diverging]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.ends_with("1 passed, 0 failed, 1 accepted\n"),
        "{}",
        ran.stdout
    );
}

#[test]
fn bless_takes_the_suite_s_reference_and_needs_one() {
    let project = project(&format!("{ONE_SUITE}reference = \"{CAT_IN_CONFIG_DIR}\"\n"));
    let ran = run(&project.join("sub"), &["bless", "--check", "--quiet"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let project = self::project(ONE_SUITE);
    let ran = project.run(&["bless", "--check"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains("bless needs a reference"),
        "{}",
        ran.stderr
    );
}

#[test]
fn compare_weighs_a_suite_s_ledger_only_with_suite() {
    let project = project(&format!("{ONE_SUITE}ledger = \"port/ledger.txt\"\n"));
    std::fs::create_dir_all(project.join("port")).unwrap();
    let diverging = "test -f parity.toml && printf '[1,3]'";
    let ran = project.run(&["accept", "--oracle", diverging, "--reason", "known"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    write(project.join("sub/results.json"), "[1,3]");
    let compare = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "results.json",
            "../corpus/golden/a.json",
            "--cases",
            "../corpus/cases/a.json",
        ];
        args.extend(extra);
        run(&project.join("sub"), &args)
    };
    // compare runs in place, and without --suite takes no ledger.
    let ran = compare(&["--quiet"]);
    assert_eq!((ran.code, ran.stdout.as_str()), (1, "1 passed, 1 failed\n"));
    let ran = compare(&["--quiet", "--suite", "main"]);
    assert_eq!(
        (ran.code, ran.stdout.as_str()),
        (0, "1 passed, 0 failed, 1 accepted\n"),
        "{ran:?}"
    );
}
