//! `parity-diff progress`: the progress file written from a run and from
//! a JSON report, `--check`, and the history read back from git in every
//! format, over a repository built here: a partial port (a few lines of
//! sh printing what the test wrote) that implements more of its ops at
//! each of four commits.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// An op name made to break whatever quotes it: markup, a terminal
/// escape, quotes.
const HOSTILE: &str = "<img src=x onerror=alert(1)></svg>\u{1b}[31m\"x";

/// The port: what the test wrote for this commit (every case right
/// up to its op's level, `not implemented` past it), picked by the cases
/// it is sent: a suite's whole file, or `accept --op`'s lone case.
const PORT: &str = r#"input=$(cat)
case "$input" in
  *'"a0"'*) cat results.json ;;
  *'"m3"'*) cat results-more.json ;;
  *) cat results-h.json ;;
esac
"#;

const LEDGER: &str = "rule op mul\n  match: threw \"not implemented\"\n  state: accepted\n  reason: not ported yet\n";

/// How far the port is at each of the four commits: the cases of `add`,
/// `mul` and the other op whose `x` is below these are right.
const LEVELS: [[u64; 3]; 4] = [[0, 0, 0], [2, 0, 0], [3, 1, 0], [3, 2, 1]];

const THREW: &str = r#"{"threw":true,"message":"not implemented"}"#;

/// Writes what the port prints at `level`, for both suites' case files.
fn set_level(root: &Path, level: [u64; 3]) {
    let result = |op: usize, x: u64, value: String| {
        if x < level[op] {
            format!("{{\"value\":{value}}}")
        } else {
            THREW.to_owned()
        }
    };
    let math = [
        result(0, 0, "0".into()),
        result(0, 1, "2".into()),
        result(0, 2, "4".into()),
        result(1, 0, "0".into()),
        result(1, 1, "1".into()),
        result(2, 0, "\"ok\"".into()),
    ];
    let more = [result(1, 0, "0".into()), result(1, 3, "9".into())];
    std::fs::write(root.join("results.json"), format!("[{}]", math.join(","))).unwrap();
    std::fs::write(
        root.join("results-more.json"),
        format!("[{}]", more.join(",")),
    )
    .unwrap();
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_parity-diff")
}

fn run_in(dir: &Path, program: &str, args: &[&str], envs: &[(&str, String)]) -> Output {
    let mut command = Command::new(program);
    command
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .env_remove("CI")
        .env_remove("GITHUB_ACTIONS")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
    for (key, value) in envs {
        command.env(key, value);
    }
    command.output().unwrap()
}

/// parity-diff's exit status, stdout and stderr.
fn pd(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = run_in(dir, bin(), args, &[]);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn git(dir: &Path, args: &[&str], day: usize) {
    let date = format!("2026-01-{:02}T12:00:00Z", day + 1);
    let envs = [
        ("GIT_AUTHOR_DATE", date.clone()),
        ("GIT_COMMITTER_DATE", date),
        ("GIT_AUTHOR_NAME", "port".to_owned()),
        ("GIT_AUTHOR_EMAIL", "port@example.test".to_owned()),
        ("GIT_COMMITTER_NAME", "port".to_owned()),
        ("GIT_COMMITTER_EMAIL", "port@example.test".to_owned()),
    ];
    let output = run_in(dir, "git", args, &envs);
    assert!(output.status.success(), "git {args:?}: {output:?}");
}

/// A project of one suite whose parity.toml puts the progress file in
/// status/: cases, goldens, the port and a ledger with a rule for `mul`.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        "parity.toml",
        "progress = \"status/progress.json\"\n\n[suite.math]\noracle = \"sh port.sh\"\n",
    );
    let hostile = serde_json::to_string(HOSTILE).unwrap();
    write(
        "cases/math.json",
        &format!(
            "[{{\"op\":\"add\",\"name\":\"a0\",\"x\":0}},{{\"op\":\"add\",\"name\":\"a1\",\"x\":1}},\
{{\"op\":\"add\",\"name\":\"a2\",\"x\":2}},{{\"op\":\"mul\",\"name\":\"m0\",\"x\":0}},\
{{\"op\":\"mul\",\"name\":\"m1\",\"x\":1}},{{\"op\":{hostile},\"name\":\"h0\",\"x\":0}}]"
        ),
    );
    write(
        "golden/math.json",
        "[\n{\"value\":0},\n{\"value\":2},\n{\"value\":4},\n{\"value\":0},\n{\"value\":1},\n{\"value\":\"ok\"}\n]\n",
    );
    write("port.sh", PORT);
    write("parity-ledger.txt", LEDGER);
    write("results-h.json", &format!("[{THREW}]"));
    set_level(root, LEVELS[0]);
    dir
}

/// The project with one commit per level, the progress file written by
/// `progress` before each; the accepted entry of the hostile op's case
/// written by `accept` first.
fn history_repo() -> tempfile::TempDir {
    let dir = project();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"], 0);
    let (code, _, stderr) = pd(root, &["accept", "--op", HOSTILE, "--reason", "later"]);
    assert_eq!(code, 0, "{stderr}");
    for (day, level) in LEVELS.iter().enumerate() {
        set_level(root, *level);
        let (code, stdout, stderr) = pd(root, &["progress"]);
        assert_eq!(code, 0, "{stdout}{stderr}");
        git(root, &["add", "-A"], day);
        git(root, &["commit", "-q", "-m", &format!("level {day}")], day);
    }
    dir
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn progress_counts_each_op_and_check_names_the_ops_that_moved() {
    let dir = project();
    let root = dir.path();
    let (code, stdout, stderr) = pd(root, &["accept", "--op", HOSTILE, "--reason", "later"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let (code, stdout, stderr) = pd(root, &["progress", "--check"]);
    assert_eq!(
        (code, stdout.as_str()),
        (
            1,
            "status/progress.json does not exist: `parity-diff progress` writes it\n"
        ),
        "{stderr}"
    );
    let (code, stdout, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("status/progress.json written: 3 ops moved\n"),
        "{stdout}"
    );
    let written = read(root.join("status/progress.json"));
    // Outside a git repository there is no commit, and no failure.
    assert!(written.contains("\"commit\": null,"), "{written}");
    assert!(written.contains("\"add\": {\"cases\": 3, \"passing\": 0, \"acceptedEntries\": 0, \"acceptedRules\": 0, \"failing\": 3}"), "{written}");
    assert!(written.contains("\"mul\": {\"cases\": 2, \"passing\": 0, \"acceptedEntries\": 0, \"acceptedRules\": 2, \"failing\": 0}"), "{written}");
    assert!(
        written.contains("\"acceptedEntries\": 1, \"acceptedRules\": 0, \"failing\": 0}"),
        "{written}"
    );
    let (code, stdout, _) = pd(root, &["progress", "--check"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "status/progress.json is up to date\n")
    );
    let (code, stdout, _) = pd(root, &["progress"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "status/progress.json is up to date (not written)\n")
    );

    set_level(root, LEVELS[2]);
    let (code, stdout, stderr) = pd(root, &["progress", "--check"]);
    assert_eq!(code, 1, "{stderr}");
    snapshot("progress-check-moved", &stdout);
    assert_eq!(
        read(root.join("status/progress.json")),
        written,
        "--check writes nothing"
    );

    // A JSON report of the same run gives the same counts, entries and
    // rules apart (by the ledger the report lists).
    let (code, report, stderr) = pd(root, &["run", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(root.join("report.json"), report).unwrap();
    let (code, _, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = pd(
        root,
        &["progress", "--check", "--from-report", "report.json"],
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (0, "status/progress.json is up to date\n", "")
    );
    snapshot("progress-file", &read(root.join("status/progress.json")));
}

#[test]
fn without_a_config_the_file_is_beside_where_it_runs_or_where_file_says() {
    let dir = project();
    let root = dir.path();
    std::fs::remove_file(root.join("parity.toml")).unwrap();
    let (code, stdout, stderr) = pd(root, &["progress", "--oracle", "sh port.sh"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let written = read(root.join("parity-progress.json"));
    assert!(written.contains("\"(no suite)\": {"), "{written}");
    let (code, _, stderr) = pd(
        root,
        &[
            "progress",
            "--oracle",
            "sh port.sh",
            "--file",
            "elsewhere.json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(read(root.join("elsewhere.json")), written);
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let dir = project();
    let root = dir.path();
    std::fs::write(root.join("status.json"), "{\"version\":7,\"suites\":{}}").unwrap();
    let (code, _, stderr) = pd(root, &["progress", "--check", "--file", "status.json"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("status.json: not a progress file: version 7"),
        "{stderr}"
    );
    // Not in a git repository: the history cannot be read.
    let (code, _, stderr) = pd(root, &["progress", "--history"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("cannot read the history of status/progress.json from git (git log)"),
        "{stderr}"
    );
    let (code, _, stderr) = pd(root, &["progress", "--format", "html"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("progress takes --format human, not html"),
        "{stderr}"
    );
    // The config's path stays inside the project's root, as its others do.
    std::fs::write(
        root.join("parity.toml"),
        "\nprogress = \"../elsewhere/progress.json\"\n[suite.math]\noracle = \"sh port.sh\"\n",
    )
    .unwrap();
    let (code, _, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("parity.toml:2: progress: ")
            && stderr.contains("elsewhere/progress.json resolves to"),
        "{stderr}"
    );
    assert!(stderr.contains("outside the project's root"), "{stderr}");
    assert!(!root.join("../elsewhere").exists());
    std::fs::write(root.join("parity.toml"), "progress = 1\n").unwrap();
    let (code, _, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("parity.toml:1: progress: a path (a string), not the integer 1"),
        "{stderr}"
    );
}

#[test]
fn the_history_reads_every_version_from_git_in_each_format() {
    let dir = history_repo();
    let root = dir.path();
    let (code, human, stderr) = pd(root, &["progress", "--history"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    snapshot("progress-history-human", &human);
    let (_, selected, _) = pd(root, &["progress", "--history", "--suite", "math"]);
    assert_eq!(selected, human, "--suite keeps the suite's lines");
    let (code, markdown, _) = pd(root, &["progress", "--history", "--format", "markdown"]);
    assert_eq!(code, 0);
    snapshot("progress-history-markdown", &markdown);
    let (code, by_suite, _) = pd(
        root,
        &["progress", "--history", "--by", "suite", "--last", "2"],
    );
    assert_eq!(code, 0);
    snapshot("progress-history-by-suite", &by_suite);
    let (code, html, _) = pd(root, &["progress", "--history", "--format", "html"]);
    assert_eq!(code, 0);
    snapshot("progress-history-html", &html);
    // The file at each commit records the commit it was made at: the
    // one before (none for the first).
    let log = run_in(root, "git", &["log", "--format=%H", "--reverse"], &[]);
    let commits: Vec<String> = String::from_utf8(log.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(commits.len(), 4);
    let at_last = run_in(
        root,
        "git",
        &["show", &format!("{}:status/progress.json", commits[3])],
        &[],
    );
    let text = String::from_utf8(at_last.stdout).unwrap();
    assert!(
        text.contains(&format!("\"commit\": \"{}\"", commits[2])),
        "{text}"
    );
}

#[test]
fn a_version_that_is_not_a_progress_file_is_left_out_with_a_warning() {
    let dir = history_repo();
    let root = dir.path();
    std::fs::write(root.join("status/progress.json"), "not json").unwrap();
    git(root, &["commit", "-q", "-am", "broken"], 9);
    let (code, human, stderr) = pd(root, &["progress", "--history"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        human.starts_with("status/progress.json: 4 versions,"),
        "{human}"
    );
    assert!(
        stderr.starts_with("parity-diff: warning: a version left out: progress.json at "),
        "{stderr}"
    );
    assert!(
        stderr.contains(": not a progress file: expected ident"),
        "{stderr}"
    );
}

mod chart {
    use super::*;
    use std::time::{Duration, Instant};

    fn chromium() -> Option<PathBuf> {
        ["chromium", "chromium-browser", "google-chrome"]
            .iter()
            .find_map(|name| {
                let output = Command::new("which").arg(name).output().ok()?;
                let path = String::from_utf8(output.stdout).ok()?.trim().to_owned();
                (output.status.success() && !path.is_empty()).then(|| PathBuf::from(path))
            })
    }

    /// Fails, saying what to install, when Chromium is not there.
    fn require_chromium() {
        assert!(
            chromium().is_some(),
            "needs Chromium (Debian: apt-get install chromium)"
        );
    }

    /// The page's DOM as Chromium built it.
    fn dump_dom(page: &Path) -> String {
        let chromium = chromium().expect("required above");
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(&chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("--dump-dom")
            .arg(format!("file://{}", page.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
            text
        });
        let started = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(90) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("chromium did not dump the page within 90 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let dom = reader.join().unwrap();
        assert!(dom.contains("</html>"), "chromium dumped no page: {dom}");
        dom
    }

    #[test]
    #[ignore = "needs chromium"]
    fn the_chart_renders_in_chromium_and_hostile_names_stay_text() {
        require_chromium();
        let dir = history_repo();
        let root = dir.path();
        let (code, html, _) = pd(root, &["progress", "--history", "--format", "html"]);
        assert_eq!(code, 0);
        let page = root.join("progress.html");
        std::fs::write(&page, &html).unwrap();
        let dom = dump_dom(&page);
        // Three ops: three lines and three legend rows, each a path with
        // a point per version.
        assert_eq!(dom.matches("<g class=\"series\"").count(), 3, "{dom}");
        assert_eq!(dom.matches("<li data-series=").count(), 3, "{dom}");
        assert_eq!(dom.matches("<circle ").count(), 12, "{dom}");
        assert_eq!(
            dom.matches("<svg").count(),
            4,
            "the chart and three swatches: {dom}"
        );
        // The hostile name is text: no element came of it, and it reads
        // back escaped, the terminal escape in the report notation.
        assert!(!dom.contains("<img"), "{dom}");
        let shown = "&lt;img src=x onerror=alert(1)&gt;&lt;/svg&gt;\\u{1b}[31m\"x";
        assert_eq!(dom.matches(shown).count(), 2, "legend and title: {dom}");
        assert!(dom.contains("<td class=\"commit\">"), "{dom}");
    }
}

#[test]
fn a_report_of_several_suites_splits_entries_from_rules_by_each_suite_s_ledger() {
    let dir = project();
    let root = dir.path();
    let add = |name: &str, text: &str| {
        let path = root.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    add(
        "parity.toml",
        "[suite.math]\noracle = \"sh port.sh\"\nledger = \"parity-ledger.txt\"\n\n[suite.more]\ncases = \"more/cases\"\noracle = \"sh port.sh\"\nledger = \"more/parity-ledger.txt\"\n",
    );
    add(
        "more/cases/m.json",
        "[{\"op\":\"mul\",\"name\":\"m0\",\"x\":0},{\"op\":\"mul\",\"name\":\"m3\",\"x\":3}]",
    );
    add("more/golden/m.json", "[{\"value\":0},{\"value\":9}]");
    add("more/parity-ledger.txt", LEDGER);
    set_level(root, LEVELS[2]);
    let (code, _, stderr) = pd(
        root,
        &[
            "accept", "--suite", "math", "--op", HOSTILE, "--reason", "later",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 0, "{stderr}");
    let written = read(root.join("parity-progress.json"));
    assert!(written.contains("    \"more\": {\n      \"total\": {\"cases\": 2, \"passing\": 1, \"acceptedEntries\": 0, \"acceptedRules\": 1, \"failing\": 0},"), "{written}");
    // One suite counted: the file keeps the other's rows as they are,
    // even when that suite has moved since.
    set_level(root, LEVELS[3]);
    let (code, stdout, _) = pd(root, &["progress", "--suite", "more"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "parity-progress.json is up to date (not written)\n")
    );
    let (code, stdout, _) = pd(root, &["progress", "--suite", "math", "--check"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("math add") || stdout.contains("math mul"),
        "{stdout}"
    );
    assert!(!stdout.contains("more mul"), "{stdout}");
    set_level(root, LEVELS[2]);
    // From a directory below parity.toml, the file is still beside it.
    let (code, stdout, _) = pd(&root.join("more"), &["progress", "--check"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "parity-progress.json is up to date\n")
    );
    let (code, report, stderr) = pd(root, &["run", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        report.contains("\"ledger\":null"),
        "several suites: no ledger in the head"
    );
    std::fs::write(root.join("report.json"), report).unwrap();
    let (code, stdout, stderr) = pd(
        root,
        &["progress", "--check", "--from-report", "report.json"],
    );
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (0, "parity-progress.json is up to date\n", "")
    );
    // Without its ledger, a suite's accepted cases cannot be told apart:
    // they count as entries', and stderr says so.
    std::fs::remove_file(root.join("more/parity-ledger.txt")).unwrap();
    let (code, stdout, stderr) = pd(
        root,
        &["progress", "--check", "--from-report", "report.json"],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("more mul: acceptedEntries 0 -> 1, acceptedRules 1 -> 0"),
        "{stdout}"
    );
    assert_eq!(stderr, "parity-diff: warning: report.json: suite more: no ledger to tell entries from rules; its accepted cases count as entries'\n");
}

#[test]
fn a_file_the_run_cannot_compare_is_not_counted_and_stderr_says_so() {
    let dir = project();
    let root = dir.path();
    std::fs::remove_file(root.join("golden/math.json")).unwrap();
    let (code, stdout, stderr) = pd(root, &["progress"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stderr,
        "parity-diff: warning: 1 case file could not be compared; their cases are not counted (`parity-diff run` says why)\n"
    );
    let written = read(root.join("status/progress.json"));
    assert!(written.contains("\"total\": {\"cases\": 0,"), "{written}");
}
