//! Shared helpers for the parity-diff integration tests: run the built
//! binary in a directory, and lay out corpora in temporary directories.
#![allow(dead_code)]

pub mod report;

use std::ffi::OsStr;
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
        "runs a port written in Python (examples/partial_port.py or its own)",
        "install Python 3 (`apt-get install python3`)",
    );
}

/// For a test marked `#[ignore = "needs bash"]` (the scripts in
/// `scripts/` are bash scripts): fails, saying so, unless `bash` runs.
pub fn require_bash() {
    require_program(
        "bash",
        "runs a script of scripts/, written for bash",
        "install bash (`apt-get install bash`)",
    );
}

/// What to do when there is no Chromium to drive.
pub const CHROMIUM_HINT: &str = "install it with `apt-get install chromium` (.ci/run does), \
     or set CHROMIUM to a Chromium or Chrome binary";

/// The Chromium that `chromium` (the value of `CHROMIUM`: a path, or a
/// name to look up) and `path` (a `PATH`) name, or why there is none.
/// Without `CHROMIUM`, the first of the usual names on the PATH.
pub fn find_chromium(chromium: Option<&OsStr>, path: &OsStr) -> Result<PathBuf, String> {
    let on_path = |name: &OsStr| {
        std::env::split_paths(path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    };
    match chromium.filter(|chromium| !chromium.is_empty()) {
        Some(chromium) if Path::new(chromium).components().count() > 1 => {
            let chromium = PathBuf::from(chromium);
            if chromium.is_file() {
                Ok(chromium)
            } else {
                Err(format!(
                    "CHROMIUM={} is not a file: {CHROMIUM_HINT}",
                    chromium.display()
                ))
            }
        }
        Some(name) => on_path(name).ok_or_else(|| {
            format!(
                "CHROMIUM={} is not on the PATH: {CHROMIUM_HINT}",
                name.to_string_lossy()
            )
        }),
        None => [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ]
        .into_iter()
        .find_map(|name| on_path(name.as_ref()))
        .ok_or_else(|| {
            format!(
                "no Chromium was found (CHROMIUM is unset, and none of chromium, \
                     chromium-browser, google-chrome, google-chrome-stable is on the PATH): \
                     {CHROMIUM_HINT}"
            )
        }),
    }
}

/// The Chromium to drive (`find_chromium` with this process's
/// environment); panics with the install hint when there is none.
pub fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    find_chromium(std::env::var_os("CHROMIUM").as_deref(), &path).unwrap_or_else(|why| {
        panic!("this test checks the HTML report in headless Chromium, and {why}")
    })
}

/// For a test marked `#[ignore = "needs chromium"]`: fails, saying how to
/// install it, unless Chromium is found and starts.
pub fn require_chromium() {
    let path = chromium();
    if let Err(what) = version_runs(path.as_os_str()) {
        panic!(
            "{} does not start ({what}), and this test checks the HTML report in headless \
             Chromium: {CHROMIUM_HINT}",
            path.display()
        );
    }
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

/// Our oracle binary, as a shell word for `--oracle`: the one this test
/// build made (the repository's parity.toml names the release build).
pub fn our_oracle() -> String {
    let path = env!("CARGO_BIN_EXE_worker-spawn-oracle");
    assert!(
        path.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+".contains(&b)),
        "the oracle's path needs quoting: {path}"
    );
    path.to_owned()
}

/// The arguments these tests give parity-diff: `args`, and our oracle as
/// `--oracle` (or fuzz's `--right`) where a command needs one and neither
/// the arguments nor a parity.toml of the test's own names one.
/// parity-diff has no oracle of its own; the tests here are of ours.
fn with_our_oracle(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = args.iter().map(|&arg| arg.to_owned()).collect();
    let flag = match args.first().map(String::as_str) {
        Some("run" | "accept" | "review") => "--oracle",
        Some("fuzz") => "--right",
        _ => return args,
    };
    let given = |name: &str| {
        args.iter()
            .any(|arg| arg == name || arg.starts_with(&format!("{name}=")))
    };
    let own_config = !given("--no-config")
        && (given("--config")
            || dir
                .ancestors()
                .map(|dir| dir.join("parity.toml"))
                .find(|config| config.is_file())
                .is_some_and(|config| config != root().join("parity.toml")));
    // fuzz --promote and --grow run no right side (--reference is --grow's).
    let promoting = given("--promote") || given("--grow") || given("--reference");
    if !given(flag) && !own_config && !promoting {
        args.insert(1, flag.to_owned());
        args.insert(2, our_oracle());
    }
    args
}

/// The command that runs parity-diff in `dir` with `args` (and our
/// oracle, see [`with_our_oracle`]), its stdout and stderr piped, stdin
/// closed, and `CI`, `NO_COLOR` and GitHub Actions' variables removed
/// (see [`run_with`]).
pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(
        std::path::Path::new(env!("CARGO_BIN_EXE_worker-spawn-oracle"))
            .with_file_name("parity-diff"),
    );
    command
        .args(with_our_oracle(dir, args))
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
