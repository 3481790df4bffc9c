//! parity-diff on its own, in a directory of a team's own (issue 33):
//! `init` starts a project that `bless` and `run` pass with no edit, in
//! each skeleton language; nothing is overwritten; without an oracle the
//! commands that need one say both ways to give one; any JSON array
//! passes unless the suite asks for exact framing; and `CI` counts as CI
//! unless it is empty, `0` or `false`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn parity_diff(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity-diff"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("parity-diff starts")
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8")
}

/// `init --lang LANG`, then `bless` and `run` in the new project, each
/// exiting 0; returns run's stdout.
fn init_bless_run(lang: &str) -> String {
    let root = tempfile::tempdir().unwrap();
    let project = root.path().join("my-port");
    let init = parity_diff(root.path(), &["init", "my-port", "--lang", lang], &[]);
    assert_eq!(init.status.code(), Some(0), "{init:?}");
    let skeleton = match lang {
        "python" => "oracle.py",
        "node" => "oracle.mjs",
        _ => "oracle.sh",
    };
    assert_eq!(
        text(&init.stdout).lines().take(3).collect::<Vec<_>>(),
        [
            "wrote parity.toml",
            "wrote cases/example.json",
            &format!("wrote {skeleton}")
        ]
    );
    let config = std::fs::read_to_string(project.join("parity.toml")).unwrap();
    assert!(config.contains("[suite.my-port]\n"), "{config}");
    let bless = parity_diff(&project, &["bless"], &[]);
    assert_eq!(bless.status.code(), Some(0), "{bless:?}");
    assert_eq!(
        text(&bless.stdout),
        "added      example.json (4 cases)\n1 added, 0 changed, 0 unchanged, 0 orphaned\n"
    );
    let golden = std::fs::read_to_string(project.join("golden/example.json")).unwrap();
    assert_eq!(
        golden,
        "[\n{\"sum\":42},\n{\"sum\":0.5},\n\"PARITY\",\n{\"threw\":true,\"message\":\"unknown op: divide\"}\n]\n"
    );
    let run = parity_diff(&project, &["run"], &[]);
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    text(&run.stdout).to_owned()
}

fn require_python3() {
    require("python3");
}

fn require_node() {
    require("node");
}

fn require(program: &str) {
    let runs = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        runs,
        "this test runs the {program} skeleton: install {program}"
    );
}

#[test]
fn init_in_sh_then_bless_then_run_pass_with_no_edit() {
    let stdout = init_bless_run("sh");
    assert!(
        stdout.starts_with("suite my-port\nok example.json (4 cases)\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");
}

#[test]
#[ignore = "needs python3"]
fn init_in_python_the_default_then_bless_then_run_pass_with_no_edit() {
    require_python3();
    let stdout = init_bless_run("python");
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");
    // Python is the default language.
    let dir = tempfile::tempdir().unwrap();
    let init = parity_diff(dir.path(), &["init"], &[]);
    assert_eq!(init.status.code(), Some(0), "{init:?}");
    assert!(dir.path().join("oracle.py").is_file());
}

#[test]
#[ignore = "needs node"]
fn init_in_node_then_bless_then_run_pass_with_no_edit() {
    require_node();
    let stdout = init_bless_run("node");
    assert!(stdout.ends_with("4 passed, 0 failed\n"), "{stdout}");
}

#[test]
fn init_overwrites_nothing_and_writes_nothing_when_one_file_exists() {
    for existing in ["parity.toml", "cases/example.json", "oracle.sh"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(existing);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "mine").unwrap();
        let init = parity_diff(dir.path(), &["init", "--lang", "sh"], &[]);
        assert_eq!(init.status.code(), Some(2), "{existing}: {init:?}");
        assert_eq!(
            text(&init.stderr),
            format!(
                "parity-diff: init never overwrites a file: ./{existing} exists (nothing was written)\n"
            )
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
        let written = walkdir::WalkDir::new(dir.path())
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file())
            .count();
        assert_eq!(written, 1, "{existing}: only the file that was there");
    }
    // A dangling symbolic link counts as a file: it is not written through.
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/nonexistent/elsewhere", dir.path().join("parity.toml")).unwrap();
    let init = parity_diff(dir.path(), &["init"], &[]);
    assert_eq!(init.status.code(), Some(2), "{init:?}");
    assert!(!dir.path().join("cases").exists());
}

#[test]
fn without_an_oracle_each_command_that_needs_one_names_both_ways_to_give_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::write(dir.path().join("cases/a.json"), r#"[{"op":"x"}]"#).unwrap();
    let needs_oracle = "parity-diff: no oracle to run: give --oracle CMD, or `oracle = \"CMD\"` \
                        in the suite's table of parity.toml (`parity-diff init` writes one)\n";
    for args in [&["run"][..], &["accept", "--reason", "r"], &["review"]] {
        let ran = parity_diff(dir.path(), args, &[]);
        assert_eq!(ran.status.code(), Some(2), "{args:?}: {ran:?}");
        assert_eq!(text(&ran.stderr), needs_oracle, "{args:?}");
        assert_eq!(ran.stdout, b"", "{args:?}");
    }
    for (args, missing) in [
        (&["fuzz", "--left", "cat"][..], "--right CMD, or `oracle"),
        (&["fuzz", "--right", "cat"], "--left CMD, or `reference"),
    ] {
        let ran = parity_diff(dir.path(), args, &[]);
        assert_eq!(ran.status.code(), Some(2), "{args:?}: {ran:?}");
        assert!(
            text(&ran.stderr).starts_with(&format!(
                "parity-diff: fuzz needs both sides: give {missing}"
            )),
            "{args:?}: {}",
            text(&ran.stderr)
        );
    }
    // With one given it needs nothing else: `cat` echoes the cases.
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    std::fs::write(dir.path().join("golden/a.json"), r#"[{"op":"x"}]"#).unwrap();
    let ran = parity_diff(dir.path(), &["run", "--oracle", "cat", "-q"], &[]);
    assert_eq!(
        (ran.status.code(), text(&ran.stdout)),
        (Some(0), "1 passed, 0 failed\n")
    );
}

/// A corpus of one file whose oracle prints its array pretty.
fn pretty_corpus(framing: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::create_dir_all(dir.path().join("golden")).unwrap();
    std::fs::write(
        dir.path().join("cases/a.json"),
        r#"[{"op":"x"},{"op":"y"}]"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("golden/a.json"), "[1,2]").unwrap();
    let framing = framing.map_or(String::new(), |framing| {
        format!("framing = \"{framing}\"\n")
    });
    std::fs::write(
        dir.path().join("parity.toml"),
        format!(
            "[suite.s]\ncases = \"cases\"\noracle = \"cat >/dev/null; printf '[\\\\n  1,\\\\n  2\\\\n]\\\\n'\"\n{framing}"
        ),
    )
    .unwrap();
    dir
}

#[test]
fn any_json_array_passes_unless_the_suite_asks_for_exact_framing() {
    let ran = parity_diff(pretty_corpus(None).path(), &["run", "-q"], &[]);
    assert_eq!(
        (ran.status.code(), text(&ran.stdout)),
        (Some(0), "2 passed, 0 failed\n"),
        "{ran:?}"
    );
    let exact = pretty_corpus(Some("exact"));
    let ran = parity_diff(exact.path(), &["run"], &[]);
    assert_eq!(ran.status.code(), Some(1), "{ran:?}");
    assert!(
        text(&ran.stdout).starts_with(
            "suite s\nFRAMING a.json: stdout is not framed as JSON.stringify frames an array: before the first result"
        ),
        "{}",
        text(&ran.stdout)
    );
    // The flag wins over the suite's key.
    let ran = parity_diff(exact.path(), &["run", "-q", "--framing", "json"], &[]);
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
}

#[test]
fn ci_empty_zero_or_false_is_not_ci_for_bless_and_accept() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::write(
        dir.path().join("cases/a.json"),
        r#"[{"op":"x","name":"a"}]"#,
    )
    .unwrap();
    let bless = |ci: &str| parity_diff(dir.path(), &["bless", "--reference", "cat"], &[("CI", ci)]);
    for ci in ["true", "1", "github"] {
        let ran = bless(ci);
        assert_eq!(ran.status.code(), Some(2), "CI={ci:?}: {ran:?}");
        assert!(
            text(&ran.stderr).contains("refusing to write goldens in CI"),
            "CI={ci:?}: {}",
            text(&ran.stderr)
        );
        assert!(!dir.path().join("golden").exists(), "CI={ci:?}");
    }
    for ci in ["", "0", "false", "FALSE"] {
        let ran = bless(ci);
        assert_eq!(ran.status.code(), Some(0), "CI={ci:?}: {ran:?}");
    }
    let accept = |ci: &str| {
        parity_diff(
            dir.path(),
            &["accept", "--oracle", "printf '[2]'", "--reason", "r"],
            &[("CI", ci)],
        )
    };
    assert_eq!(accept("true").status.code(), Some(2));
    assert!(!dir.path().join("parity-ledger.txt").exists());
    let ran = accept("0");
    assert_eq!(ran.status.code(), Some(0), "{ran:?}");
    assert!(dir.path().join("parity-ledger.txt").is_file());
}

#[test]
fn ci_empty_is_not_ci_for_fuzz_s_findings_either() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("cases")).unwrap();
    std::fs::write(dir.path().join("cases/a.json"), r#"[{"op":"x","v":1}]"#).unwrap();
    let fuzz = |ci: &str| {
        parity_diff(
            dir.path(),
            &[
                "fuzz", "--left", "cat", "--right", "cat", "--seed", "1", "--count", "20",
            ],
            &[("CI", ci)],
        )
    };
    let ran = fuzz("true");
    assert_eq!(ran.status.code(), Some(2), "{ran:?}");
    assert!(
        text(&ran.stderr).contains("refusing to write fuzz's findings"),
        "{}",
        text(&ran.stderr)
    );
    for ci in ["", "0", "false"] {
        let ran = fuzz(ci);
        assert_eq!(ran.status.code(), Some(0), "CI={ci:?}: {ran:?}");
    }
}
