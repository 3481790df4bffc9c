//! The daily loop's tests' corpus (reports, JUnit, reruns, the ledger's
//! place, known crashes): a small corpus in a temporary directory, its oracle a few lines of
//! python3, and parity-diff run over it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a run of parity-diff printed and its exit status.
#[derive(Debug)]
pub struct Ran {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Ran {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// A JSON report's `summary` member and what follows it.
    pub fn summary(&self) -> String {
        let text = self.text();
        let at = text.find("\"summary\":").expect("a summary");
        text[at..].to_owned()
    }
}

impl From<Output> for Ran {
    fn from(output: Output) -> Self {
        Ran {
            code: output.status.code().unwrap_or(-1),
            stdout: output.stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }
}

/// The oracle: echoes each case, throws `throw` when a case has it, and
/// exits 3 (a crash) when any case of its input has `crash`, counting its
/// runs in `runs.log` beside itself.
pub const ORACLE: &str = r#"import json, sys, os
log = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs.log")
with open(log, "a") as f:
    f.write("run\n")
cases = json.load(sys.stdin)
out = []
for case in cases:
    if isinstance(case, dict) and case.get("crash"):
        sys.stderr.write("crashed on " + str(case.get("name")) + "\n")
        sys.exit(3)
    if isinstance(case, dict) and "throw" in case:
        out.append({"threw": True, "message": case["throw"]})
    else:
        out.append(case)
sys.stdout.write(json.dumps(out, separators=(",", ":")))
"#;

/// A corpus in a temporary directory.
pub struct Corpus {
    dir: tempfile::TempDir,
}

impl Corpus {
    pub fn new() -> Self {
        let corpus = Corpus {
            dir: tempfile::tempdir().unwrap(),
        };
        fs::create_dir_all(corpus.join("cases")).unwrap();
        fs::create_dir_all(corpus.join("golden")).unwrap();
        corpus.write("oracle.py", ORACLE);
        corpus
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn join(&self, path: &str) -> PathBuf {
        self.dir.path().join(path)
    }

    pub fn write(&self, path: &str, text: &str) {
        let path = self.join(path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, text).unwrap();
    }

    pub fn read(&self, path: &str) -> Vec<u8> {
        fs::read(self.join(path)).unwrap()
    }

    /// A case file and its golden.
    pub fn case(&self, name: &str, cases: &str, golden: &str) {
        self.write(&format!("cases/{name}"), cases);
        self.write(&format!("golden/{name}"), golden);
    }

    /// How many times the oracle ran, and the count reset.
    pub fn oracle_runs(&self) -> usize {
        let path = self.join("runs.log");
        let runs = fs::read_to_string(&path).map_or(0, |text| text.lines().count());
        let _ = fs::remove_file(path);
        runs
    }

    /// `run --oracle ORACLE --format json`, and how many times the oracle
    /// ran for it.
    pub fn run_counted(&self, oracle: &str) -> (Ran, usize) {
        self.oracle_runs();
        let ran = self.run(&["run", "--oracle", oracle, "--format", "json"]);
        (ran, self.oracle_runs())
    }

    /// parity-diff in the corpus's directory.
    pub fn run(&self, args: &[&str]) -> Ran {
        Command::new(env!("CARGO_BIN_EXE_parity-diff"))
            .args(args)
            .current_dir(self.path())
            .env_remove("GITHUB_ACTIONS")
            .env_remove("GITHUB_STEP_SUMMARY")
            .env_remove("CI")
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
            .into()
    }
}

/// The oracle command, run from the corpus's directory.
pub const ORACLE_CMD: &str = "python3 oracle.py";
