//! Issue 38 (hostile configs and sizes) and issue 40's items on inputs
//! and outputs: a pull request controls `parity.toml`, the ledger and
//! the case files, so nothing they say may write outside the project,
//! overwrite the corpus, panic, read without end, or reach an output
//! raw; and an output that cannot be written is an error (exit 2).
//!
//! Each test builds a small project in a temporary directory (with a
//! `.git`, so the project's root is known) and runs the parity-diff
//! binary there, with ports that are a line of sh. Every run is under
//! `timeout`: a hang (an endless file, a FIFO) fails as exit 124.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use parity_diff::base::outside;

const BIN: &str = env!("CARGO_BIN_EXE_parity-diff");

/// A project: `.git`, `cases/a.json` (two cases) and its golden.
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        fs::create_dir(root.join(".git")).unwrap();
        fs::create_dir(root.join("cases")).unwrap();
        fs::write(
            root.join("cases/a.json"),
            r#"[{"op":"x","name":"one","v":1},{"op":"x","name":"two","v":2}]"#,
        )
        .unwrap();
        Project { _dir: dir, root }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// `parity.toml` with one suite, `s`, of these lines.
    fn config(&self, lines: &str) {
        fs::write(self.path("parity.toml"), format!("[suite.s]\n{lines}\n")).unwrap();
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    /// Runs parity-diff in the project (without CI unless `env` sets it).
    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut command = Command::new("timeout");
        command
            .arg("60")
            .arg(BIN)
            .args(args)
            .current_dir(&self.root)
            .env_remove("CI");
        for (name, value) in env {
            command.env(name, value);
        }
        command.output().unwrap()
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn status(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// Exit 2, and standard error holds every one of `words`.
#[track_caller]
fn refused(output: &Output, words: &[&str]) {
    let said = stderr(output);
    assert_eq!(status(output), 2, "{said}");
    for word in words {
        assert!(said.contains(word), "{word:?} not in: {said}");
    }
}

fn is_empty_dir(path: &Path) -> bool {
    fs::read_dir(path).map_or(true, |mut entries| entries.next().is_none())
}

// ---- the project's root ----

#[test]
fn config_paths_outside_the_root_are_refused_unless_the_flag_allows_them() {
    let project = Project::new();
    let outside = tempfile::tempdir().unwrap();
    let outside = outside.path().canonicalize().unwrap();
    fs::create_dir(outside.join("dir")).unwrap();
    symlink(outside.join("dir"), project.path("linked")).unwrap();
    let absolute = outside.join("abs");
    for (key, value) in [
        ("golden", absolute.to_str().unwrap()),
        ("golden", "../../../../../../../tmp/parity-diff-climbed"),
        ("golden", "linked/g"),
        ("ledger", "linked/ledger.txt"),
        ("cases", "linked"),
    ] {
        project.config(&format!("reference = \"cat\"\n{key} = {value:?}"));
        let output = project.run(&["bless"]);
        refused(
            &output,
            &[
                &format!("parity.toml:3: suite.s.{key}"),
                "outside the project's root",
                "--allow-outside-root",
            ],
        );
        assert!(!absolute.exists() && is_empty_dir(&outside.join("dir")));
        assert!(!Path::new("/tmp/parity-diff-climbed").exists());
    }
    // The command line may allow it.
    project.config(&format!(
        "reference = \"cat\"\ngolden = {:?}",
        absolute.to_str().unwrap()
    ));
    let output = project.run(&["bless", "--allow-outside-root"]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(absolute.join("a.json").is_file());
}

#[test]
fn a_default_beside_the_configs_cases_is_checked_too() {
    let project = Project::new();
    // cases = "." puts the default goldens in ../golden: outside.
    project.config("reference = \"cat\"\ncases = \".\"");
    refused(
        &project.run(&["bless"]),
        &[
            "suite.s.golden (not given: the default)",
            "outside the project's root",
        ],
    );
}

#[test]
fn the_root_is_the_git_work_tree_so_a_config_in_a_subdirectory_may_reach_up() {
    let project = Project::new();
    fs::create_dir(project.path("sub")).unwrap();
    fs::write(
        project.path("sub/parity.toml"),
        "[suite.s]\nreference = \"cat\"\ncases = \"../cases\"\ngolden = \"../golden\"\n",
    )
    .unwrap();
    let output = project.run(&["bless", "--config", "sub/parity.toml"]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    assert!(project.path("golden/a.json").is_file());
}

#[test]
fn fuzz_writes_findings_in_ci_only_where_the_command_line_says() {
    let project = Project::new();
    project.config("oracle = \"cat\"\nreference = \"cat\"");
    let ci = [("CI", "true")];
    refused(
        &project.run_with(&["fuzz", "--count", "1"], &ci),
        &["refusing to write fuzz's findings", "--out DIR"],
    );
    assert!(!project.path("fuzz-findings").exists());
    let output = project.run_with(
        &["fuzz", "--count", "5", "--seed", "1", "--out", "found"],
        &ci,
    );
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    // And its fuzz-out obeys the root like every path.
    project.config("oracle = \"cat\"\nreference = \"cat\"\nfuzz-out = \"/tmp\"");
    refused(
        &project.run(&["fuzz", "--count", "1"]),
        &[
            "parity.toml:4: suite.s.fuzz-out",
            "outside the project's root",
        ],
    );
}

// ---- no overlap ----

#[test]
fn goldens_over_the_cases_are_refused_before_anything_is_written() {
    let project = Project::new();
    let before = fs::read(project.path("cases/a.json")).unwrap();
    for (lines, flags, words) in [
        (
            "golden = \"cases\"",
            &[][..],
            &["parity.toml:3: suite.s.golden", " is the cases directory"][..],
        ),
        (
            "golden = \"cases/g\"",
            &[],
            &[" is inside the cases directory"],
        ),
        ("golden = \"./\"", &[], &[" holds the cases directory"]),
        (
            "ledger = \"golden/l.txt\"",
            &[],
            &["the ledger", "is inside the golden directory"],
        ),
        (
            "",
            &["--golden", "cases"],
            &["the golden directory (--golden"],
        ),
    ] {
        project.config(&format!("reference = \"cat\"\n{lines}"));
        let mut args = vec!["bless"];
        args.extend_from_slice(flags);
        refused(&project.run(&args), words);
        assert_eq!(fs::read(project.path("cases/a.json")).unwrap(), before);
        assert!(!project.path("cases/g").exists() && !project.path("a.json").exists());
    }
}

// ---- bounded numbers ----

#[test]
fn numbers_beyond_their_bounds_name_the_key_or_the_flag() {
    let project = Project::new();
    for (line, words) in [
        (
            "timeout = 1e308",
            &["parity.toml:3: suite.s.timeout", "at most 604800", "1e308"][..],
        ),
        (
            "kill-grace = 1.8e19",
            &["parity.toml:3: suite.s.kill-grace", "0 to 3600"],
        ),
        ("jobs = 20000", &["parity.toml:3: suite.s.jobs", "1 to 256"]),
        (
            "repeat = 100000",
            &["parity.toml:3: suite.s.repeat", "1 to 1000"],
        ),
    ] {
        project.config(&format!("oracle = \"cat\"\n{line}"));
        let output = project.run(&["run"]);
        refused(&output, words);
        assert!(!stderr(&output).contains("--"), "{}", stderr(&output));
    }
    fs::remove_file(project.path("parity.toml")).unwrap();
    for (flags, word) in [
        (&["--timeout", "1.8e19"][..], "--timeout"),
        (&["--kill-grace", "1e300"], "--kill-grace"),
        (&["--jobs", "20000"], "--jobs"),
        (&["--repeat", "100000"], "--repeat"),
    ] {
        let mut args = vec!["run", "--oracle", "sleep 30"];
        args.extend_from_slice(flags);
        refused(&project.run(&args), &[word]);
    }
}

#[test]
fn the_largest_bounds_run_without_a_panic() {
    let project = Project::new();
    fs::create_dir(project.path("golden")).unwrap();
    fs::copy(project.path("cases/a.json"), project.path("golden/a.json")).unwrap();
    let output = project.run(&[
        "run",
        "--oracle",
        "cat",
        "--timeout",
        "604800",
        "--kill-grace",
        "3600",
        "--jobs",
        "256",
        "--repeat",
        "1000",
    ]);
    assert!(matches!(status(&output), 0 | 1), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panic"), "{}", stderr(&output));
}

#[test]
fn an_oracle_that_times_out_is_not_left_behind() {
    let project = Project::new();
    fs::create_dir(project.path("golden")).unwrap();
    fs::copy(project.path("cases/a.json"), project.path("golden/a.json")).unwrap();
    let pid = project.path("pid");
    let oracle = format!("echo $$ > {}; exec sleep 60", pid.display());
    let output = project.run(&[
        "run",
        "--oracle",
        &oracle,
        "--timeout",
        "0.5",
        "--kill-grace",
        "0.2",
    ]);
    assert!(matches!(status(&output), 1 | 2), "{}", stderr(&output));
    let pid = fs::read_to_string(&pid).unwrap();
    let alive = Command::new("kill")
        .args(["-0", pid.trim()])
        .status()
        .unwrap();
    assert!(!alive.success(), "the oracle {pid} still runs");
}

// ---- bounded reads ----

#[test]
fn special_files_are_refused_by_name_and_kind() {
    let project = Project::new();
    fs::create_dir(project.path("golden")).unwrap();
    fs::copy(project.path("cases/a.json"), project.path("golden/a.json")).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--no-config", "--oracle", "cat"];
        args.extend_from_slice(extra);
        project.run(&args)
    };
    // A ledger that never ends.
    symlink("/dev/zero", project.path("parity-ledger.txt")).unwrap();
    refused(
        &run(&[]),
        &[
            "the ledger parity-ledger.txt",
            "a character device, not a regular file",
        ],
    );
    fs::remove_file(project.path("parity-ledger.txt")).unwrap();
    // A ledger that blocks.
    let status_of_mkfifo = Command::new("mkfifo")
        .arg(project.path("fifo"))
        .status()
        .unwrap();
    assert!(status_of_mkfifo.success());
    refused(&run(&["--ledger", "fifo"]), &["fifo", "a FIFO"]);
    refused(
        &run(&["--ledger", "/proc/self/status"]),
        &["a file of /proc or /sys"],
    );
    // A golden that never ends, and a case file that reads as nothing.
    symlink("/dev/zero", project.path("golden/b.json")).unwrap();
    fs::write(project.path("cases/b.json"), "[1]").unwrap();
    symlink("/dev/null", project.path("cases/c.json")).unwrap();
    let output = run(&[]);
    assert_eq!(status(&output), 2, "{}", stderr(&output));
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("golden/b.json: a character device"), "{said}");
    assert!(
        said.contains("cases/c.json is a character device"),
        "{said}"
    );
    fs::remove_file(project.path("golden/b.json")).unwrap();
    fs::remove_file(project.path("cases/b.json")).unwrap();
    fs::remove_file(project.path("cases/c.json")).unwrap();
    // Timings and saved reports.
    refused(
        &run(&["--shard", "1/2", "--timings", "/dev/zero"]),
        &["--timings /dev/zero", "a character device"],
    );
    refused(
        &project.run(&["merge", "/dev/zero", "/dev/zero"]),
        &["/dev/zero", "a character device"],
    );
    refused(
        &project.run(&["delta", "fifo", "fifo"]),
        &["fifo", "a FIFO"],
    );
    // A config too large.
    fs::write(project.path("parity.toml"), "#".repeat(2 << 20)).unwrap();
    refused(
        &project.run(&["run"]),
        &["parity.toml", "over the bound of 1 MiB for a config"],
    );
    // A ledger too large (sparse: no disk).
    fs::remove_file(project.path("parity.toml")).unwrap();
    let ledger = fs::File::create(project.path("parity-ledger.txt")).unwrap();
    ledger.set_len(1 << 40).unwrap();
    refused(&run(&[]), &["over the bound of 64 MiB for a ledger"]);
}

// ---- one escaping rule ----

#[test]
fn invisible_and_direction_characters_and_long_names_never_reach_an_output_raw() {
    let project = Project::new();
    let names = [
        "lrm\u{200e}rlm\u{200f}alm\u{61c}",
        "zw\u{200b}\u{200c}\u{200d}wj\u{2060}bom\u{feff}",
        "tag\u{e0041}\u{e007f}",
        "c1\u{9b}del\u{7f}rlo\u{202e}",
    ];
    let mut cases: Vec<String> = names
        .iter()
        .map(|name| {
            format!(
                r#"{{"op":"x","name":{}}}"#,
                serde_json::to_string(name).unwrap()
            )
        })
        .collect();
    cases.insert(
        0,
        format!(r#"{{"op":"x","name":"{}"}}"#, "N".repeat(100_000)),
    );
    fs::write(
        project.path("cases/a.json"),
        format!("[{}]", cases.join(",")),
    )
    .unwrap();
    fs::create_dir(project.path("golden")).unwrap();
    fs::write(project.path("golden/a.json"), "[1,2,3,4,5]").unwrap();
    let port = "printf '[0,0,0,0,0]'";
    for format in ["human", "json", "markdown", "junit", "html"] {
        let output = project.run(&["run", "--no-config", "--oracle", port, "--format", format]);
        assert_eq!(status(&output), 1, "{format}: {}", stderr(&output));
        let text = String::from_utf8(output.stdout).unwrap();
        assert_eq!(outside::violation(&text, false), None, "{format}");
        if format != "json" {
            // The JSON report keeps names whole: merge and delta know
            // cases by them.
            assert!(text.contains("… (99800 more characters)"), "{format}");
            assert!(text.len() < 60_000, "{format}: {} bytes", text.len());
        }
    }
    // accept writes the file names and case names of the ledger alike.
    fs::rename(
        project.path("cases/a.json"),
        project.path("cases/f\u{202e}\u{9b}\u{7f}\u{200e}.json"),
    )
    .unwrap();
    fs::rename(
        project.path("golden/a.json"),
        project.path("golden/f\u{202e}\u{9b}\u{7f}\u{200e}.json"),
    )
    .unwrap();
    let output = project.run(&[
        "accept",
        "--no-config",
        "--oracle",
        port,
        "--reason",
        "known",
    ]);
    assert_eq!(status(&output), 0, "{}", stderr(&output));
    let ledger = fs::read_to_string(project.path("parity-ledger.txt")).unwrap();
    assert_eq!(outside::violation(&ledger, false), None);
    assert!(
        ledger.contains(r#"case "f\u202e\u009b\u007f\u200e.json" "lrm\u200erlm\u200falm\u061c""#),
        "{ledger}"
    );
}

// ---- outputs that fail ----

#[test]
fn fuzz_exits_2_when_it_cannot_write_a_finding() {
    let project = Project::new();
    fs::write(project.path("a-file"), "").unwrap();
    let output = project.run(&[
        "fuzz",
        "--no-config",
        "--left",
        "cat",
        "--right",
        "sed s/1/2/g",
        "--count",
        "50",
        "--seed",
        "1",
        "--out",
        "a-file/findings",
    ]);
    refused(&output, &["could not be written to a-file/findings"]);
}

#[test]
fn a_report_that_cannot_be_written_is_exit_2_with_a_message() {
    let project = Project::new();
    // 50 failing cases: every report is well over 512 bytes.
    let cases: Vec<String> = (0..50)
        .map(|n| format!(r#"{{"op":"x","name":"case number {n} of the fifty"}}"#))
        .collect();
    fs::write(
        project.path("cases/a.json"),
        format!("[{}]", cases.join(",")),
    )
    .unwrap();
    fs::create_dir(project.path("golden")).unwrap();
    fs::write(
        project.path("golden/a.json"),
        format!("[{}]", vec!["1"; 50].join(",")),
    )
    .unwrap();
    let port = format!("printf '[{}]'", vec!["0"; 50].join(","));
    let sh = |script: String| {
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .current_dir(&project.root)
            .env_remove("CI")
            .output()
            .unwrap()
    };
    for format in ["human", "json", "markdown", "junit"] {
        let run = format!("{BIN} run --no-config --oracle \"{port}\" --format {format}");
        // Past `ulimit -f` (512 bytes): EFBIG, not death by SIGXFSZ
        // (exit 153, no word).
        let output = sh(format!("ulimit -f 1; exec {run} > out"));
        refused(&output, &["cannot write the report", "File too large"]);
        // A full disk.
        refused(
            &sh(format!("exec {run} > /dev/full")),
            &["No space left on device"],
        );
    }
    let bless = sh(format!(
        "exec {BIN} bless --no-config --reference cat --check > /dev/full"
    ));
    refused(&bless, &["No space left on device"]);
}
