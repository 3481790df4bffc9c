//! Shared helpers for the parity-diff integration tests: run the built
//! binary in a directory, and lay out corpora in temporary directories.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The example partial port (examples/partial_port.py), as `--oracle`
/// runs it from the repository's root.
pub const EXAMPLE_PORT: &str = "python3 examples/partial_port.py";

/// The repository's root, where the bundled corpus and the example port
/// are.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Fails (never skips) a test that needs python3 when there is none.
pub fn require_python3() {
    let found = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(found, "these tests need python3 on the PATH");
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
/// and `CI`, `NO_COLOR` and GitHub Actions' variables removed from its
/// environment unless `env` sets them (tests running in GitHub Actions
/// must not annotate their run or write its summary).
pub fn run_with(dir: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Ran {
    let mut command = Command::new(env!("CARGO_BIN_EXE_parity-diff"));
    command
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env_remove("NO_COLOR")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITHUB_STEP_SUMMARY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
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
