//! Shared helpers for parity-diff's integration tests: run the built
//! binary in a directory, lay out corpora in temporary directories, and
//! write the fixture oracles they run (see [`oracle`]).
#![allow(dead_code)]

pub mod oracle;
pub mod report;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Whether `program --version` runs here, or what went wrong.
fn version_runs(program: &OsStr) -> Result<(), String> {
    match Command::new(program).arg("--version").output() {
        Ok(output) if output.status.success() => Ok(()),
        Ok(output) => Err(format!("`--version` ended with {}", output.status)),
        Err(error) => Err(error.to_string()),
    }
}

/// Fails, saying `why` the test needs `program` and how to `install` it,
/// unless `program --version` runs here.
fn require_program(program: &str, why: &str, install: &str) {
    if let Err(what) = version_runs(program.as_ref()) {
        panic!("{program} does not run here ({what}), and this test {why}: {install}");
    }
}

/// For a test marked `#[ignore = "needs python3"]` (the example port, and
/// ports written in Python): fails, saying so, unless `python3` runs here.
pub fn require_python3() {
    require_program(
        "python3",
        "runs a port written in Python, which the test writes",
        "install Python 3 (`apt-get install python3`)",
    );
}

/// For a test marked `#[ignore = "needs node"]` (the `init` skeleton in
/// JavaScript): fails, saying so, unless `node` runs here.
pub fn require_node() {
    require_program(
        "node",
        "runs a port written in JavaScript",
        "install Node.js 20 or newer",
    );
}

/// What a run of parity-diff did.
#[derive(Debug)]
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    /// The last line of stdout.
    pub fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or("")
    }
}

/// Runs parity-diff in `dir` with `args`, `stdin` on its standard input,
/// and `CI`, the colour variables and GitHub Actions' variables removed
/// from its environment unless `env` sets them (tests running in GitHub
/// Actions must not annotate their run or write its summary, and a
/// developer's `CLICOLOR_FORCE` must not colour what the tests read).
pub fn run_with(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Ran {
    let mut command = command(dir, args);
    command.stdin(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("parity-diff starts");
    let mut input = child.stdin.take().unwrap();
    // parity-diff may refuse its arguments and exit before it reads its
    // input (`compare - -`): a broken pipe here is not the test's failure.
    if let Err(error) = input.write_all(stdin) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    drop(input);
    let output = child.wait_with_output().unwrap();
    Ran {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// The command that runs parity-diff in `dir` with `args`, its stdout
/// and stderr piped, stdin closed, and `CI`, `NO_COLOR` and GitHub
/// Actions' variables removed (see [`run_with`]).
pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity-diff"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs parity-diff in `dir`.
pub fn run(dir: &Path, args: &[&str]) -> Ran {
    run_with(dir, args, b"", &[])
}

/// Writes a file, making its directories.
pub fn write(path: impl AsRef<Path>, text: impl AsRef<[u8]>) {
    let path = path.as_ref();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A temporary directory holding a corpus.
pub struct Corpus {
    pub dir: tempfile::TempDir,
}

impl Corpus {
    pub fn new() -> Self {
        Corpus {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// Writes `cases/NAME`.
    pub fn case(&self, name: &str, text: &str) -> &Self {
        write(self.join(&format!("cases/{name}")), text);
        self
    }

    /// Writes `golden/NAME`.
    pub fn golden(&self, name: &str, text: &str) -> &Self {
        write(self.join(&format!("golden/{name}")), text);
        self
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.join(relative)).unwrap()
    }

    pub fn run(&self, args: &[&str]) -> Ran {
        run(self.path(), args)
    }
}

/// Golden-format text of some elements.
pub fn golden_of(elements: &[&str]) -> String {
    if elements.is_empty() {
        "[]\n".into()
    } else {
        format!("[\n{}\n]\n", elements.join(",\n"))
    }
}

/// Markdown that renders as meant: every fenced code block closes (a line
/// of at least as many backticks and nothing else), every `<details>`
/// closes, and nothing links anywhere.
pub fn assert_markdown_well_formed(markdown: &str) {
    let mut open: Option<usize> = None;
    for line in markdown.lines() {
        let ticks = line.chars().take_while(|&c| c == '`').count();
        match open {
            None if ticks >= 3 => open = Some(ticks),
            Some(n) if ticks >= n && line.trim_end().len() == ticks => open = None,
            _ => {}
        }
    }
    assert_eq!(open, None, "a code block stays open:\n{markdown}");
    assert_eq!(
        markdown.matches("<details>").count(),
        markdown.matches("</details>").count(),
        "{markdown}"
    );
    for link in ["](", "<a ", "http://", "https://"] {
        assert!(!markdown.contains(link), "a link ({link}):\n{markdown}");
    }
}

/// Six cases of op "x", for the ports that fail on one of them; "c2"
/// holds a token, which must never be shown.
pub const SIX_CASES: [&str; 6] = [
    r#"{"op":"x","name":"c0","v":0}"#,
    r#"{"op":"x","name":"c1","v":1}"#,
    r#"{"op":"x","name":"c2","token":"tok-secret-9"}"#,
    r#"{"op":"x","name":"c3","v":3}"#,
    r#"{"op":"x","name":"c4","v":4}"#,
    r#"{"op":"x","name":"c5","v":5}"#,
];

/// a.json: [`SIX_CASES`], one a line, whose golden differs at "c4";
/// b.json: two cases that pass.
pub fn six_case_corpus() -> Corpus {
    let corpus = Corpus::new();
    let mut golden = SIX_CASES;
    golden[4] = r#"{"op":"x","name":"c4","v":40}"#;
    corpus
        .case("a.json", &format!("[\n{}\n]\n", SIX_CASES.join(",\n")))
        .golden("a.json", &golden_of(&golden))
        .case("b.json", r#"[{"op":"y","n":1},{"op":"y","n":2}]"#)
        .golden(
            "b.json",
            &golden_of(&[r#"{"op":"y","n":1}"#, r#"{"op":"y","n":2}"#]),
        );
    corpus
}
